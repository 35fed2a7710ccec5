//! Fuzzes `proto::jsonrpc::Message::parse` (JSON-RPC 2.0; MCP `basic/index` "Messages").
//!
//! Properties checked: no panic on any UTF-8 text; every message that parses re-encodes with
//! `to_json` to text that parses back to an equal message, and re-encoding that is a fixed point.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_edge::proto::jsonrpc::Message;

fuzz_target!(|input: &[u8]| {
    let Ok(text) = std::str::from_utf8(input) else {
        return;
    };
    let Ok(message) = Message::parse(text) else {
        return;
    };
    let encoded = message.to_json();
    let reparsed = match Message::parse(&encoded) {
        Ok(m) => m,
        Err(e) => {
            panic!("re-encoded message does not parse: {e}\ninput: {text}\nencoded: {encoded}")
        }
    };
    assert_eq!(
        message, reparsed,
        "round trip changed the message; encoded: {encoded}"
    );
    assert_eq!(encoded, reparsed.to_json(), "encoding is not stable");
});
