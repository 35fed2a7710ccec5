//! Byte-level `text/event-stream` vectors (`tests/vectors/sse/*.sse` with the expected outcome in
//! the `.json` beside each, format in `tests/vectors/sse/README.md`).
//!
//! Every vector is replayed whole, split in two at every byte offset, one byte at a time, one byte at
//! a time with empty chunks in between, and in pseudo-random chunkings; each replay must produce the
//! expected events, errors, `finish()` result, last event id and retry. The vectors are compiled in
//! (`include_bytes!`), so the same tests run on wasm32.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcp_edge::proto::sse::{Decoder, DecoderConfig, Event, SseError};
use serde_json::{json, Value};

/// One vector: its name, the raw stream and the expected outcome (JSON text).
struct Vector {
    name: &'static str,
    input: &'static [u8],
    expected: &'static str,
}

macro_rules! vectors {
    ($($name:ident),* $(,)?) => {
        /// Every vector in `tests/vectors/sse`.
        const VECTORS: &[Vector] = &[$(Vector {
            name: stringify!($name),
            input: include_bytes!(concat!("vectors/sse/", stringify!($name), ".sse")),
            expected: include_str!(concat!("vectors/sse/", stringify!($name), ".json")),
        }),*];
        $(
            #[test]
            fn $name() {
                replay_all(by_name(stringify!($name)));
            }
        )*
    };
}

vectors!(
    whatwg_stock_ticker,
    whatwg_messages,
    whatwg_event_types,
    whatwg_ids,
    whatwg_data_fields,
    whatwg_space_after_colon,
    line_endings_mixed,
    cr_lf_boundaries,
    bom,
    bom_twice,
    bom_not_at_start,
    bom_truncated,
    comments,
    empty_data,
    nul_in_data,
    event_without_data,
    id_rules,
    retry_bad,
    retry_good,
    field_without_colon,
    unknown_fields,
    event_type_reset,
    oversize_line,
    oversize_event,
    limits_tie,
    invalid_utf8,
    truncated_at_eof,
    truncated_line_at_eof,
    truncated_utf8_at_eof,
    mcp_stream,
    utf8_in_ignored_fields,
);

fn by_name(name: &str) -> &'static Vector {
    VECTORS.iter().find(|v| v.name == name).unwrap()
}

/// The JSON form of one decoder output, as written in the `.json` files.
fn item_json(item: Result<Event, SseError>) -> Value {
    match item {
        Ok(ev) => json!({"type": ev.event_type, "data": ev.data, "id": ev.last_event_id}),
        Err(SseError::LineTooLong { limit }) => json!({"error": "LineTooLong", "limit": limit}),
        Err(SseError::EventTooLarge { limit }) => {
            json!({"error": "EventTooLarge", "limit": limit})
        }
        Err(SseError::InvalidUtf8) => json!({"error": "InvalidUtf8"}),
        Err(other) => json!({"error": format!("{other:?}")}),
    }
}

/// Feeds `chunks` to a fresh decoder and describes everything it reported.
fn outcome<'a>(config: DecoderConfig, chunks: impl IntoIterator<Item = &'a [u8]>) -> Value {
    let mut decoder = Decoder::new(config);
    let mut events = Vec::new();
    for chunk in chunks {
        events.extend(decoder.feed(chunk).map(item_json));
    }
    let finish = decoder.finish().map(item_json);
    json!({
        "events": events,
        "finish": finish,
        "last_event_id": decoder.last_event_id(),
        "retry": decoder.retry_ms(),
    })
}

fn config_of(spec: &Value) -> DecoderConfig {
    let mut config = DecoderConfig::default();
    if let Some(c) = spec.get("config") {
        config.max_line_bytes = c["max_line_bytes"].as_u64().unwrap() as usize;
        config.max_event_bytes = c["max_event_bytes"].as_u64().unwrap() as usize;
    }
    config
}

/// A small deterministic generator for chunk sizes.
struct XorShift(u64);
impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn replay_all(v: &Vector) {
    let spec: Value = serde_json::from_str(v.expected).unwrap();
    let config = config_of(&spec);
    let expected = json!({
        "events": spec["events"],
        "finish": spec["finish"],
        "last_event_id": spec["last_event_id"],
        "retry": spec["retry"],
    });
    let input = v.input;
    let name = v.name;

    // (a) whole.
    assert_eq!(outcome(config, [input]), expected, "{name}: whole");
    // (b) two chunks, split at every offset (0 and len give an empty chunk).
    for at in 0..=input.len() {
        let (a, b) = input.split_at(at);
        assert_eq!(
            outcome(config, [a, b]),
            expected,
            "{name}: split at byte {at}"
        );
    }
    // (c) one byte at a time.
    assert_eq!(
        outcome(config, input.chunks(1)),
        expected,
        "{name}: byte by byte"
    );
    // (d) one byte at a time with an empty chunk before each.
    let with_empties = input.chunks(1).flat_map(|b| [&b[..0], b]);
    assert_eq!(
        outcome(config, with_empties),
        expected,
        "{name}: byte by byte with empty chunks"
    );
    // (e) pseudo-random chunkings (sizes 1..=17).
    let mut rng = XorShift(0x5EED_0000 + input.len() as u64);
    for round in 0..32 {
        let mut chunks = Vec::new();
        let mut rest = input;
        while !rest.is_empty() {
            let n = (1 + rng.next() % 17).min(rest.len() as u64) as usize;
            let (head, tail) = rest.split_at(n);
            chunks.push(head);
            rest = tail;
        }
        assert_eq!(
            outcome(config, chunks.iter().copied()),
            expected,
            "{name}: random chunking round {round}: {:?}",
            chunks.iter().map(|c| c.len()).collect::<Vec<_>>()
        );
    }
}

/// The expectations are not vacuous: every vector expects at least one event or error, and the
/// suite as a whole covers each outcome kind.
#[test]
fn vectors_expect_something_and_cover_every_outcome() {
    let mut kinds = std::collections::BTreeSet::new();
    for v in VECTORS {
        let spec: Value = serde_json::from_str(v.expected).unwrap();
        let events = spec["events"].as_array().unwrap();
        assert!(!events.is_empty(), "{} expects nothing", v.name);
        for e in events {
            kinds.insert(
                e.get("error")
                    .and_then(Value::as_str)
                    .unwrap_or("event")
                    .to_owned(),
            );
        }
        if !spec["finish"].is_null() {
            kinds.insert("finish".to_owned());
        }
    }
    let want = [
        "event",
        "LineTooLong",
        "EventTooLarge",
        "InvalidUtf8",
        "finish",
    ];
    for k in want {
        assert!(kinds.contains(k), "no vector expects {k}");
    }
}

/// Every `.sse` file on disk is listed in `vectors!` and has its `.json` (native only: wasm has no
/// file system; the list itself is compiled in).
#[cfg(not(target_family = "wasm"))]
#[test]
fn every_vector_file_is_replayed() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/sse");
    let mut on_disk = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) == Some("sse") {
            let stem = path.file_stem().unwrap().to_str().unwrap().to_owned();
            assert!(
                path.with_extension("json").exists(),
                "{stem}.sse has no .json"
            );
            on_disk.push(stem);
        }
    }
    on_disk.sort();
    let mut listed: Vec<String> = VECTORS.iter().map(|v| v.name.to_owned()).collect();
    listed.sort();
    assert_eq!(on_disk, listed);
}
