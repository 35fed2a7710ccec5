//! JSON-RPC 2.0 codec against the vectors in `tests/vectors/jsonrpc/` (embedded, so the same test
//! runs on wasm32): every valid message decodes to the expected kind and id and survives
//! parse -> to_value / to_json unchanged (unknown members and `_meta` included); every invalid one
//! fails with the exact `JsonRpcError` variant.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcp_edge::proto::jsonrpc::{JsonRpcError, Message, RequestId};
use serde_json::Value;

const VALID: &str = include_str!("vectors/jsonrpc/valid.json");
const INVALID: &str = include_str!("vectors/jsonrpc/invalid.json");

/// The case's input text: `text` verbatim, else `message` serialised.
fn input(case: &Value) -> String {
    match case.get("text") {
        Some(Value::String(t)) => t.clone(),
        _ => case["message"].to_string(),
    }
}

fn name(case: &Value) -> &str {
    case["name"].as_str().unwrap()
}

fn kind(m: &Message) -> &'static str {
    match m {
        Message::Request(_) => "request",
        Message::Notification(_) => "notification",
        Message::Response(_) => "response",
        Message::Error(_) => "error",
    }
}

fn id(m: &Message) -> Option<Value> {
    match m {
        Message::Request(r) => Some(r.id.to_value()),
        Message::Response(r) => Some(r.id.to_value()),
        Message::Error(e) => Some(e.id.as_ref().map_or(Value::Null, RequestId::to_value)),
        Message::Notification(_) => None,
    }
}

fn variant(e: &JsonRpcError) -> &'static str {
    match e {
        JsonRpcError::InvalidJson(_) => "InvalidJson",
        JsonRpcError::BatchNotSupported => "BatchNotSupported",
        JsonRpcError::NotAnObject => "NotAnObject",
        JsonRpcError::BadVersion => "BadVersion",
        JsonRpcError::InvalidId => "InvalidId",
        JsonRpcError::InvalidMethod => "InvalidMethod",
        JsonRpcError::InvalidParams => "InvalidParams",
        JsonRpcError::BothResultAndError => "BothResultAndError",
        JsonRpcError::NoResultOrError => "NoResultOrError",
        JsonRpcError::InvalidErrorObject => "InvalidErrorObject",
        JsonRpcError::MissingId => "MissingId",
        _ => "unknown variant",
    }
}

#[test]
fn valid_vectors_decode_and_round_trip() {
    let cases: Vec<Value> = serde_json::from_str(VALID).unwrap();
    assert!(cases.len() >= 20);
    for case in &cases {
        let text = input(case);
        let msg = Message::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", name(case)));
        assert_eq!(kind(&msg), case["kind"].as_str().unwrap(), "{}", name(case));
        assert_eq!(id(&msg), case.get("id").cloned(), "{}: id", name(case));

        let original: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(msg.to_value(), original, "{}: to_value", name(case));
        // The text form decodes back to the same message, and `jsonrpc` comes first.
        let json = msg.to_json();
        assert!(
            json.starts_with(r#"{"jsonrpc":"2.0""#),
            "{}: {json}",
            name(case)
        );
        assert!(!json.contains('\n'), "{}: compact", name(case));
        assert_eq!(
            Message::parse(&json).unwrap(),
            msg,
            "{}: re-parse",
            name(case)
        );
        // from_value agrees with parse.
        assert_eq!(
            Message::from_value(original).unwrap(),
            msg,
            "{}",
            name(case)
        );
    }
}

#[test]
fn unknown_members_and_meta_are_kept_in_extra() {
    let msg = Message::parse(
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/list","x-trace":{"span":9},"_meta":{"k":"v"}}"#,
    )
    .unwrap();
    let Message::Request(r) = &msg else {
        panic!("not a request: {msg:?}")
    };
    assert_eq!(r.extra.len(), 2);
    assert_eq!(r.extra["_meta"]["k"], "v");
    assert_eq!(r.extra["x-trace"]["span"], 9);
    assert_eq!(msg.method(), Some("tools/list"));
}

#[test]
fn error_response_fields() {
    let msg = Message::parse(
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error","data":[1]}}"#,
    )
    .unwrap();
    let Message::Error(e) = msg else {
        panic!("not an error")
    };
    assert_eq!(e.id, None);
    assert_eq!(e.error.code, -32700);
    assert_eq!(e.error.message, "Parse error");
    assert_eq!(e.error.data, Some(serde_json::json!([1])));
}

#[test]
fn invalid_vectors_fail_with_the_exact_variant() {
    let cases: Vec<Value> = serde_json::from_str(INVALID).unwrap();
    assert!(cases.len() >= 30);
    for case in &cases {
        let text = input(case);
        let err = Message::parse(&text)
            .err()
            .unwrap_or_else(|| panic!("{}: decoded", name(case)));
        assert_eq!(
            variant(&err),
            case["error"].as_str().unwrap(),
            "{}: {err}",
            name(case)
        );
        assert!(!err.to_string().is_empty());
        // When the input is JSON, from_value must agree with parse.
        if let Ok(v) = serde_json::from_str::<Value>(&text) {
            assert_eq!(Message::from_value(v).unwrap_err(), err, "{}", name(case));
        }
    }
}

// Runs in the runtime `wasm-pack test` asks for (see tests/wasm-test-mode).
mcp_edge_wasm_test_mode::configure!();
