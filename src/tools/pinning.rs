//! Tool-poisoning guard: each tool's description and input schema are pinned on first sight;
//! a later change is reported and the tool held back until the host accepts it.
//!
//! A server can change a tool's description between listings ("rug pull"); since descriptions
//! are read by the model as instructions, a changed one must not reach the model unseen. MCP
//! 2026-07-28 `server/tools` "Tool" says clients MUST treat annotations from untrusted servers as
//! untrusted, and "Security Considerations" asks clients to put a human in the loop for
//! sensitive operations; pinning makes a silent change visible to that human.
//!
//! The fingerprint is `sha256:` + hex SHA-256 of the canonical JSON (keys sorted at every
//! level, no whitespace) of `{"description": ..., "inputSchema": ...}`.
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

use crate::util::hash::{hex, sha256};

/// Where pins live. The in-memory [`MemoryPinStore`] serialises to a plain map a host can
/// persist (IndexedDB, KV) and restore before connecting.
pub trait PinStore {
    /// The pinned fingerprint of `tool` on `server`.
    fn get(&self, server: &str, tool: &str) -> Option<String>;
    /// Pins (or re-pins) a fingerprint.
    fn set(&mut self, server: &str, tool: &str, fingerprint: String);
}

/// Pins in memory: `{server: {tool: fingerprint}}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemoryPinStore {
    /// The pins.
    pub pins: BTreeMap<String, BTreeMap<String, String>>,
}

impl PinStore for MemoryPinStore {
    fn get(&self, server: &str, tool: &str) -> Option<String> {
        self.pins.get(server)?.get(tool).cloned()
    }

    fn set(&mut self, server: &str, tool: &str, fingerprint: String) {
        self.pins
            .entry(server.to_string())
            .or_default()
            .insert(tool.to_string(), fingerprint);
    }
}

/// `v` with object keys sorted at every level, serialised compactly.
pub fn canonical_json(v: &Value) -> String {
    crate::util::json::json_text(&crate::util::order::sorted_keys(v))
}

/// The fingerprint of a tool object (see the module docs).
pub fn tool_fingerprint(tool: &Value) -> String {
    let mut subject = Map::new();
    subject.insert(
        "description".into(),
        tool.get("description").cloned().unwrap_or(Value::Null),
    );
    subject.insert(
        "inputSchema".into(),
        tool.get("inputSchema").cloned().unwrap_or(Value::Null),
    );
    let canon = canonical_json(&Value::Object(subject));
    format!("sha256:{}", hex(&sha256(canon.as_bytes())))
}

/// The outcome of checking a tool against its pin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PinCheck {
    /// First sight: now pinned.
    New,
    /// Same fingerprint as pinned.
    Unchanged,
    /// Different fingerprint: the pin is kept, the tool must be held back.
    Changed {
        /// The pinned fingerprint.
        pinned: String,
        /// The fingerprint now seen.
        current: String,
    },
}

/// Checks `tool` (of `server`) against the store, pinning it on first sight.
pub fn check_pin(
    store: &mut dyn PinStore,
    server: &str,
    tool_name: &str,
    tool: &Value,
) -> PinCheck {
    let current = tool_fingerprint(tool);
    match store.get(server, tool_name) {
        None => {
            store.set(server, tool_name, current);
            PinCheck::New
        }
        Some(p) if p == current => PinCheck::Unchanged,
        Some(pinned) => PinCheck::Changed { pinned, current },
    }
}
