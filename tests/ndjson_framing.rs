//! NDJSON framing for stdio (MCP `basic/transports/stdio`): every stream is replayed split at every
//! byte offset (and byte by byte), so chunk boundaries inside CRLF, inside UTF-8 sequences and
//! inside over-long lines are all exercised.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcp_edge::proto::jsonrpc::{JsonRpcError, Message, Notification, Request, RequestId};
use mcp_edge::proto::ndjson::{encode, Decoder, NdjsonError};
use serde_json::json;

type Out = Vec<Result<Message, NdjsonError>>;

/// Feeds `chunks` in order, then `finish`; returns the results and the finish error.
fn run(limit: usize, chunks: &[&[u8]]) -> (Out, Option<NdjsonError>) {
    let mut d = Decoder::new(limit);
    let mut out = Vec::new();
    for c in chunks {
        out.extend(d.feed(c));
    }
    let end = d.finish();
    (out, end)
}

/// Asserts that every split of `stream` into two and three chunks (and a byte-by-byte feed) gives
/// the same results as feeding it whole; returns those results.
fn replay_everywhere(limit: usize, stream: &[u8]) -> (Out, Option<NdjsonError>) {
    let whole = run(limit, &[stream]);
    for i in 0..=stream.len() {
        let (a, b) = stream.split_at(i);
        assert_eq!(run(limit, &[a, b]), whole, "split at {i}");
    }
    // Three chunks over a stride of cut points (all pairs would be quadratic in the stream length).
    for i in (0..=stream.len()).step_by(3) {
        for j in (i..=stream.len()).step_by(5) {
            let chunks = [&stream[..i], &stream[i..j], &stream[j..]];
            assert_eq!(run(limit, &chunks), whole, "split at {i} and {j}");
        }
    }
    let bytes: Vec<&[u8]> = stream.chunks(1).collect();
    assert_eq!(run(limit, &bytes), whole, "byte by byte");
    whole
}

fn request(id: i64, method: &str) -> Message {
    Message::Request(Request::new(RequestId::Number(id), method, None))
}

fn messages(out: Out) -> Vec<Message> {
    out.into_iter().map(|r| r.unwrap()).collect()
}

#[test]
fn multi_message_stream_with_lf_crlf_and_blank_lines() {
    let stream = concat!(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[]}}\n",
        "\n",
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":1,\"progressToken\":\"t\"}}\r\n",
        "\r\n",
        "   \t\r\n",
        "{\"jsonrpc\":\"2.0\",\"id\":\"s\",\"error\":{\"code\":-32601,\"message\":\"no \u{3c0}\"}}\r\n",
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n",
    );
    let (out, end) = replay_everywhere(1024, stream.as_bytes());
    assert_eq!(end, None);
    let msgs = messages(out);
    assert_eq!(msgs.len(), 4, "{msgs:?}");
    assert!(matches!(&msgs[0], Message::Response(r) if r.id == RequestId::Number(1)));
    assert_eq!(msgs[1].method(), Some("notifications/progress"));
    match &msgs[2] {
        Message::Error(e) => {
            assert_eq!(e.id, Some(RequestId::String("s".into())));
            assert_eq!(e.error.message, "no \u{3c0}");
        }
        m => panic!("{m:?}"),
    }
    assert_eq!(msgs[3], request(2, "ping"));
}

#[test]
fn overlong_line_is_reported_once_then_decoding_resumes() {
    let long = format!(
        "{{\"jsonrpc\":\"2.0\",\"method\":\"n\",\"params\":{{\"pad\":\"{}\"}}}}",
        "x".repeat(200)
    );
    for eol in ["\n", "\r\n"] {
        let stream =
            format!("{long}{eol}{{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}}{eol}");
        let (out, end) = replay_everywhere(64, stream.as_bytes());
        assert_eq!(end, None);
        assert_eq!(
            out,
            vec![
                Err(NdjsonError::LineTooLong { limit: 64 }),
                Ok(request(7, "ping"))
            ],
            "eol {eol:?}"
        );
    }
}

#[test]
fn line_of_exactly_the_limit_fits_with_lf_or_crlf() {
    let line = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let limit = line.len();
    for eol in ["\n", "\r\n"] {
        let stream = format!("{line}{eol}{line}{eol}");
        let (out, end) = replay_everywhere(limit, stream.as_bytes());
        assert_eq!(end, None);
        assert_eq!(out, vec![Ok(request(1, "ping")), Ok(request(1, "ping"))]);
        // One byte less and both lines overflow, each reported once.
        let (out, _) = replay_everywhere(limit - 1, stream.as_bytes());
        assert_eq!(
            out,
            vec![Err(NdjsonError::LineTooLong { limit: limit - 1 }); 2],
            "eol {eol:?}"
        );
    }
}

#[test]
fn overlong_unterminated_tail_is_reported_then_truncated() {
    let stream = "y".repeat(100);
    let (out, end) = replay_everywhere(10, stream.as_bytes());
    assert_eq!(out, vec![Err(NdjsonError::LineTooLong { limit: 10 })]);
    assert_eq!(end, Some(NdjsonError::Truncated));
}

#[test]
fn memory_is_bounded_by_the_limit_while_discarding() {
    let mut d = Decoder::new(32);
    let mut reports = 0;
    for _ in 0..10_000 {
        reports += d.feed(&[b'z'; 97]).len();
        assert!(d.buffered() <= 33);
    }
    assert_eq!(reports, 1);
    assert_eq!(
        d.feed(b"\n{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"a\"}\n")
            .len(),
        1
    );
}

#[test]
fn invalid_utf8_line_then_good_line() {
    let mut stream = b"{\"jsonrpc\":\"2.0\",\"method\":\"n\",\"params\":{\"s\":\"".to_vec();
    stream.extend_from_slice(&[0xC3, 0x28, 0xFF]);
    stream.extend_from_slice(b"\"}}\r\n{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}\n");
    let (out, end) = replay_everywhere(1024, &stream);
    assert_eq!(end, None);
    assert_eq!(
        out,
        vec![Err(NdjsonError::InvalidUtf8), Ok(request(9, "ping"))]
    );
}

#[test]
fn banner_line_is_reported_with_its_text() {
    let stream = "Server started on stdio\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n";
    let (out, end) = replay_everywhere(1024, stream.as_bytes());
    assert_eq!(end, None);
    assert_eq!(out.len(), 2);
    match &out[0] {
        Err(NdjsonError::InvalidMessage {
            error: JsonRpcError::InvalidJson(_),
            line,
        }) => assert_eq!(line, "Server started on stdio"),
        other => panic!("{other:?}"),
    }
    let text = out[0].as_ref().unwrap_err().to_string();
    assert!(text.contains("Server started on stdio"), "{text}");
    assert_eq!(out[1], Ok(request(1, "ping")));
}

#[test]
fn valid_json_that_is_not_jsonrpc_names_the_decoding_error() {
    let stream = "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}\n[1]\n";
    let (out, _) = replay_everywhere(1024, stream.as_bytes());
    assert_eq!(
        out,
        vec![
            Err(NdjsonError::InvalidMessage {
                error: JsonRpcError::InvalidId,
                line: "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}".into(),
            }),
            Err(NdjsonError::InvalidMessage {
                error: JsonRpcError::BatchNotSupported,
                line: "[1]".into(),
            }),
        ]
    );
}

#[test]
fn long_banner_is_quoted_up_to_200_bytes_at_a_char_boundary() {
    // 'a' then 2-byte chars: byte 200 falls inside a char, so the quote is 199 bytes.
    let banner = format!("a{}", "\u{e9}".repeat(300));
    let (out, _) = run(4096, &[format!("{banner}\n").as_bytes()]);
    match &out[..] {
        [Err(NdjsonError::InvalidMessage { line, .. })] => {
            assert_eq!(line.len(), 199);
            assert!(banner.starts_with(line.as_str()));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn truncated_tail_at_finish() {
    let stream =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":2";
    let (out, end) = replay_everywhere(1024, stream.as_bytes());
    assert_eq!(out, vec![Ok(request(1, "ping"))]);
    assert_eq!(end, Some(NdjsonError::Truncated));
    // A complete message without its newline is still a truncated stream.
    let (out, end) = run(1024, &[br#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#]);
    assert!(out.is_empty());
    assert_eq!(end, Some(NdjsonError::Truncated));
    // Whitespace-only tails lose nothing.
    assert_eq!(run(1024, &[b"\r"]).1, None);
    assert_eq!(run(1024, &[b"  "]).1, None);
    assert_eq!(run(1024, &[b""]).1, None);
}

#[test]
fn decoder_is_reusable_after_finish() {
    let mut d = Decoder::new(1024);
    assert!(d.feed(b"{\"jsonrpc\":").is_empty());
    assert_eq!(d.finish(), Some(NdjsonError::Truncated));
    assert_eq!(d.buffered(), 0);
    let out = d.feed(b"{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}\n");
    assert_eq!(out, vec![Ok(request(4, "ping"))]);
    assert_eq!(d.finish(), None);
}

#[test]
fn leading_byte_order_mark_is_dropped() {
    let stream = "\u{feff}{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n";
    let (out, _) = replay_everywhere(1024, stream.as_bytes());
    assert_eq!(out, vec![Ok(request(1, "ping"))]);
}

#[test]
fn encode_writes_one_line_that_decodes_back() {
    let sent = [
        request(1, "tools/list"),
        Message::Notification(Notification::new(
            "notifications/message",
            Some(json!({"level": "info", "data": "two\nlines\r\nand\u{2028}more"})),
        )),
    ];
    let mut stream = Vec::new();
    for m in &sent {
        let line = encode(m);
        assert_eq!(line.last(), Some(&b'\n'));
        assert_eq!(line.iter().filter(|&&b| b == b'\n').count(), 1);
        assert!(!line.contains(&b'\r'));
        stream.extend_from_slice(&line);
    }
    let (out, end) = replay_everywhere(1024, &stream);
    assert_eq!(end, None);
    assert_eq!(messages(out), sent.to_vec());
}

// Runs in the runtime `wasm-pack test` asks for (see tests/wasm-test-mode).
mcp_edge_wasm_test_mode::configure!();
