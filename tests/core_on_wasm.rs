//! Portability of the sans-IO core: the same assertions run natively and on `wasm32-unknown-unknown`
//! (in Node, through `wasm-pack test --node`), where `usize` is 32 bits wide and there is no OS.
//!
//! The messages are the shapes a real server (`@modelcontextprotocol/server-everything`, captured by
//! `tests/demo.sh`) sends; the JSON-RPC rules are JSON-RPC 2.0 § 4-5 as MCP `basic/index` uses them.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcp_edge::proto::jsonrpc::{JsonRpcError, Message, RequestId};
use serde_json::json;

/// An initialize result as server-everything sends it: non-ASCII text, escapes, nested objects.
const INITIALIZE_RESULT: &str = r##"{"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true},"logging":{}},"serverInfo":{"name":"mcp-servers/everything","title":"Everything Reference Server","version":"2.0.0"},"instructions":"# Server Instructions\n\n🎉 \"quoted\" – dash"},"jsonrpc":"2.0","id":1}"##;

#[test]
fn real_initialize_result_round_trips() {
    let msg = Message::parse(INITIALIZE_RESULT).unwrap();
    let Message::Response(r) = &msg else {
        panic!("expected a response, got {msg:?}");
    };
    assert_eq!(r.id, RequestId::Number(1));
    assert_eq!(r.result["serverInfo"]["version"], "2.0.0");
    let instructions = r.result["instructions"].as_str().unwrap();
    assert!(instructions.contains("🎉 \"quoted\" – dash"));
    // Encoding puts "jsonrpc" first and keeps the other members' order and content.
    let text = msg.to_json();
    assert!(text.starts_with(r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion""#));
    assert_eq!(Message::parse(&text).unwrap(), msg);
}

#[test]
fn ids_use_the_full_i64_range_on_32_bit_targets() {
    for id in [i64::MAX, i64::MIN, 1 << 53, -1, 0] {
        let text = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#);
        let msg = Message::parse(&text).unwrap();
        assert_eq!(
            msg,
            Message::Request(mcp_edge::proto::jsonrpc::Request::new(
                RequestId::Number(id),
                "ping",
                None
            ))
        );
        assert_eq!(msg.to_json(), text);
    }
    // Beyond i64 an id is rejected, not truncated or wrapped.
    assert_eq!(
        Message::parse(r#"{"jsonrpc":"2.0","id":9223372036854775808,"method":"ping"}"#),
        Err(JsonRpcError::InvalidId)
    );
}

#[test]
fn numbers_in_params_survive_encoding() {
    let params = json!({"progress": 0.1, "total": 1e300, "tiny": -5e-324, "count": 4294967296u64});
    let text =
        json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": params}).to_string();
    let msg = Message::parse(&text).unwrap();
    let Message::Notification(n) = &msg else {
        panic!("expected a notification, got {msg:?}");
    };
    assert_eq!(n.params.as_ref(), Some(&params));
    assert_eq!(Message::parse(&msg.to_json()).unwrap(), msg);
}

#[test]
fn bad_input_is_a_typed_error() {
    assert!(matches!(
        Message::parse("{\"jsonrpc\":\"2.0\",\"id\":1,"),
        Err(JsonRpcError::InvalidJson(_))
    ));
    assert_eq!(Message::parse("[]"), Err(JsonRpcError::BatchNotSupported));
    assert_eq!(
        Message::parse(r#"{"jsonrpc":"1.0","id":1,"result":{}}"#),
        Err(JsonRpcError::BadVersion)
    );
    assert_eq!(
        Message::parse(r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}"#),
        Err(JsonRpcError::BothResultAndError)
    );
}

#[test]
fn unknown_members_keep_their_order() {
    // "Fields this module does not know are kept in `extra` and written back unchanged" (jsonrpc.rs):
    // the order too, so a re-encoded message is byte-stable (found by the jsonrpc_decode fuzz target).
    let text = r#"{"jsonrpc":"2.0","z":1,"id":7,"method":"m","a":2,"_meta":{"k":"v"}}"#;
    let encoded = Message::parse(text).unwrap().to_json();
    assert_eq!(
        encoded,
        r#"{"jsonrpc":"2.0","id":7,"method":"m","z":1,"a":2,"_meta":{"k":"v"}}"#
    );
    assert_eq!(Message::parse(&encoded).unwrap().to_json(), encoded);
}

#[test]
fn decimal_numbers_round_trip_exactly() {
    // serde_json's default float parser may be off by one ULP for long decimals; the crate enables
    // `float_roundtrip` so a number relayed through the client keeps its value (found by the
    // jsonrpc_decode fuzz target).
    let text = r#"{"result":{"k":[0,-222222222223222222222222222222.5,0.1,2.2250738585072014e-308]},"jsonrpc":"2.0","id":"a"}"#;
    let msg = Message::parse(text).unwrap();
    let again = Message::parse(&msg.to_json()).unwrap();
    assert_eq!(again, msg);
    let Message::Response(r) = &msg else {
        panic!("expected a response, got {msg:?}");
    };
    assert_eq!(
        r.result["k"][1].as_f64(),
        Some(-222222222223222222222222222222.5)
    );
}

// Runs in the runtime `wasm-pack test` asks for (see tests/wasm-test-mode).
mcp_edge_wasm_test_mode::configure!();
