//! JSON text.

use serde_json::Value;

/// `v` as compact JSON text. The crate's one way to write JSON: `Value`'s `Display` would link a
/// second copy of the writer (through `fmt`, plus the pretty printer for `{:#}`) and write
/// through the formatter piece by piece.
pub fn json_text(v: &Value) -> String {
    // Writing a `Value` cannot fail: its map keys are strings.
    serde_json::to_string(v).unwrap_or_default()
}
