//! Fuzzes the 2026-07-28 header value encoding, `proto::headers::{encode_value, decode_value}`
//! (MCP `basic/transports/streamable-http`, "Request Metadata" / "Value Encoding").
//!
//! Properties checked, for any UTF-8 string:
//! - the encoded value is a valid header value: only visible ASCII, space or tab, with no leading or
//!   trailing whitespace (RFC 9110 § 5.5);
//! - a value that is already safe and does not look like the `=?base64?...?=` sentinel is sent as is;
//! - `decode_value(encode_value(s)) == Ok(s)`;
//! - `decode_value` never panics on arbitrary text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_edge::proto::headers::{decode_value, encode_value};

fn is_field_byte(b: u8) -> bool {
    matches!(b, 0x21..=0x7e | b' ' | b'\t')
}

fn is_ws(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

fuzz_target!(|input: &[u8]| {
    let Ok(value) = std::str::from_utf8(input) else {
        return;
    };
    let _ = decode_value(value);

    let encoded = encode_value(value);
    let bytes = encoded.as_bytes();
    if let Some(bad) = bytes.iter().find(|b| !is_field_byte(**b)) {
        panic!("encoded value holds byte {bad:#04x}: {encoded:?} (from {value:?})");
    }
    assert!(
        !bytes.first().copied().is_some_and(is_ws) && !bytes.last().copied().is_some_and(is_ws),
        "encoded value has leading/trailing whitespace: {encoded:?}"
    );

    let raw = value.as_bytes();
    let plain = raw.iter().all(|b| is_field_byte(*b))
        && !raw.first().copied().is_some_and(is_ws)
        && !raw.last().copied().is_some_and(is_ws)
        && !(value.starts_with("=?base64?") && value.ends_with("?="));
    if plain {
        assert_eq!(encoded, value, "a safe value must be sent as is");
    }

    assert_eq!(
        decode_value(&encoded).as_deref(),
        Ok(value),
        "round trip failed; encoded: {encoded:?}"
    );
});
