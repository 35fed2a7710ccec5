//! The pool's tool naming for hosts that name tools themselves (the playground, a Worker that
//! routes a call before connecting): the same [`NameMap`] the pool builds, no second copy.

use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::convert::{from_js, invalid_argument, to_js};
use crate::tools::naming::NameMap;

/// One `[server, tool]` pair of strings.
fn pair(v: &Value) -> Option<(String, String)> {
    match v.as_array()?.as_slice() {
        [s, t] => Some((s.as_str()?.to_string(), t.as_str()?.to_string())),
        _ => None,
    }
}

/// `toolNames([[server, tool], ...])`: the `mcp__<server>__<tool>` name of each pair, in the
/// order given, as `McpPool` names that set of pairs (normalised, at most 64 characters,
/// collision-free over the set).
#[wasm_bindgen(js_name = toolNames, skip_typescript)]
pub fn tool_names(pairs: JsValue) -> Result<JsValue, JsValue> {
    let pairs: Vec<(String, String)> = from_js(&pairs)?
        .as_array()
        .and_then(|a| a.iter().map(pair).collect())
        .ok_or_else(|| {
            invalid_argument("toolNames takes an array of [server, tool] string pairs")
        })?;
    let map = NameMap::build(pairs.iter().map(|(s, t)| (s.as_str(), t.as_str())));
    let names = pairs
        .iter()
        .map(|(s, t)| map.name(s, t).map_or(Value::Null, Value::from))
        .collect();
    Ok(to_js(&Value::Array(names)))
}
