//! Fuzzes `proto::sse::Decoder` (WHATWG HTML § 9.2.6 "Interpreting an event stream").
//!
//! Input layout: byte 0 picks `max_line_bytes` (1..=256), byte 1 picks `max_event_bytes` (1..=512),
//! byte 2 (low 4 bits) is the number of split points, then two bytes per split point (offsets into
//! the stream, taken modulo its length); the rest is the stream.
//!
//! Properties checked:
//! - no panic, whatever the bytes and however they are chunked;
//! - bounded buffering, as observable from outside: no event's `data` exceeds `max_event_bytes`, and
//!   no `event` type or id exceeds `max_line_bytes` (each comes from one line; the default type
//!   `message` is exempt, it comes from no line);
//! - chunking is invisible: feeding the stream in pieces yields exactly what one `feed` of the whole
//!   stream yields (events and errors, in order), and the same final `last_event_id` / `retry_ms`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_edge::proto::sse::{Decoder, DecoderConfig, Event, SseError};

type Output = (Vec<Result<Event, SseError>>, String, Option<u64>);

fn run(config: DecoderConfig, chunks: &[&[u8]]) -> Output {
    let mut decoder = Decoder::new(config);
    let mut out = Vec::new();
    for chunk in chunks {
        out.extend(decoder.feed(chunk));
    }
    out.extend(decoder.finish());
    (out, decoder.last_event_id().to_string(), decoder.retry_ms())
}

fuzz_target!(|input: &[u8]| {
    if input.len() < 3 {
        return;
    }
    let config = DecoderConfig {
        max_line_bytes: 1 + usize::from(input[0]),
        max_event_bytes: 1 + 2 * usize::from(input[1]),
    };
    let splits = usize::from(input[2] & 0x0f);
    let header = 3 + 2 * splits;
    if input.len() < header {
        return;
    }
    let stream = &input[header..];
    let mut cuts: Vec<usize> = input[3..header]
        .chunks_exact(2)
        .map(|b| usize::from(u16::from_le_bytes([b[0], b[1]])) % (stream.len() + 1))
        .collect();
    cuts.push(0);
    cuts.push(stream.len());
    cuts.sort_unstable();
    let chunks: Vec<&[u8]> = cuts.windows(2).map(|w| &stream[w[0]..w[1]]).collect();

    let chunked = run(config, &chunks);
    for event in chunked.0.iter().flatten() {
        assert!(
            event.data.len() <= config.max_event_bytes,
            "event data of {} bytes exceeds max_event_bytes {}",
            event.data.len(),
            config.max_event_bytes
        );
        assert!(
            event.event_type == "message" || event.event_type.len() <= config.max_line_bytes,
            "event type of {} bytes exceeds max_line_bytes {}",
            event.event_type.len(),
            config.max_line_bytes
        );
        assert!(
            event.last_event_id.len() <= config.max_line_bytes,
            "event id of {} bytes exceeds max_line_bytes {}",
            event.last_event_id.len(),
            config.max_line_bytes
        );
    }
    assert!(chunked.1.len() <= config.max_line_bytes);

    let whole = run(config, &[stream]);
    assert_eq!(chunked, whole, "output depends on chunking; cuts {cuts:?}");
});
