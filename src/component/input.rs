//! Server requests for input (MCP `client/elicitation`, `client/sampling`, `client/roots`),
//! answered by the host through the `mcp-edge:client/host-input` import. The session turns both
//! eras into the same [`Event::InputRequest`](crate::proto::session::Event): a 2025-era server
//! request on a response stream and a 2026-07-28 multi-round-trip `inputRequests` entry; the
//! answer goes back the way the request came.
//!
//! ```text
//!   connect ─► host-input.supported() ─► client capabilities (exactly those kinds)
//!   Event::InputRequest ─► host-input.answer(request) ─► Session::answer_input
//! ```
//!
//! A host that answers nothing returns an empty list from `supported`: the component then
//! declares no such capability and refuses every request with "method not found".

use serde_json::{json, Map, Value};

use crate::bindings::mcp_edge::client::host_input::{self, InputKind, InputRequest};
use crate::proto::jsonrpc::{codes, ErrorObject};

/// The capability key and method of each kind (MCP 2025-11-25 / 2026-07-28 `client/*`).
const KINDS: [(InputKind, &str, &str); 3] = [
    (InputKind::Elicitation, "elicitation", "elicitation/create"),
    (InputKind::Sampling, "sampling", "sampling/createMessage"),
    (InputKind::Roots, "roots", "roots/list"),
];

/// Makes `capabilities` declare exactly the kinds the host answers: adds `{}` for a supported
/// kind the caller did not describe, removes a kind the host cannot answer.
pub fn declare(caps: &mut Map<String, Value>) {
    let supported = host_input::supported();
    for (kind, key, _) in KINDS {
        if supported.contains(&kind) {
            caps.entry(key).or_insert_with(|| json!({}));
        } else {
            caps.remove(key);
        }
    }
}

/// The host's answer to the request `method` with `params` from the server at `server_url`.
pub fn answer(method: &str, params: &Value, server_url: &str) -> Result<Value, ErrorObject> {
    let refuse = |code: i64, message: String| ErrorObject {
        code,
        message,
        data: None,
    };
    let Some((kind, _, _)) = KINDS.iter().find(|(_, _, m)| *m == method) else {
        return Err(refuse(
            codes::METHOD_NOT_FOUND,
            format!("this client cannot answer {method}"),
        ));
    };
    if !host_input::supported().contains(kind) {
        // JSON-RPC 2.0 § 5.1: the capability was not declared.
        return Err(refuse(
            codes::METHOD_NOT_FOUND,
            format!("this client cannot answer {method}"),
        ));
    }
    let request = InputRequest {
        kind: *kind,
        method: method.to_string(),
        params_json: params.to_string(),
        server_url: server_url.to_string(),
    };
    match host_input::answer(&request) {
        Ok(text) => match serde_json::from_str::<Value>(&text) {
            Ok(v @ Value::Object(_)) => Ok(v),
            _ => Err(refuse(
                codes::INTERNAL_ERROR,
                "the host's answer is not a JSON object".into(),
            )),
        },
        Err(r) => Err(refuse(r.code, r.message)),
    }
}
