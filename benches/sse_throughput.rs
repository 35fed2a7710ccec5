//! Throughput of the SSE push decoder on ~100 MB of MCP-like event-stream traffic, against
//! `std::str::from_utf8` over the same bytes (work the decoder must do too: the headline ratio) and a
//! `memchr` newline count (a memory-speed baseline).
//!
//! Run: `cargo bench --bench sse_throughput` (bench profile). Prints medians and the load average;
//! asserts nothing about speed, only that every generated event was decoded.

use mcp_edge::proto::sse::{Decoder, DecoderConfig};
use std::hint::black_box;
use std::time::{Duration, Instant};

const TARGET_BYTES: usize = 100_000_000;
const CHUNK: usize = 16 * 1024;
const ITERATIONS: usize = 7;

/// Deterministic generator (xorshift64).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The generated stream and what a correct decoder must report for it.
struct Traffic {
    bytes: Vec<u8>,
    events: usize,
    data_bytes: usize,
}

/// Mostly ASCII, like JSON-RPC payloads; about one word in 20 carries a multi-byte character
/// (JSON serialisers that escape non-ASCII would produce none).
const WORDS: &[&str] = &[
    "the",
    "tool",
    "result",
    "row",
    "file",
    "search",
    "index",
    "query",
    "value",
    "status",
    "done",
    "error",
    "count",
    "page",
    "token",
    "stream",
    "server",
    "client",
    "request",
    "resource",
    "prompt",
    "schema",
    "content",
    "text",
    "name",
    "path",
    "line",
    "match",
    "commit",
    "branch",
    "issue",
    "user",
    "list",
    "item",
    "table",
    "column",
    "2026-07-28",
    "42",
    "0.5",
    "null",
    "résumé",
    "✓",
];

/// Text of about `len` bytes, as it appears inside a JSON string (escaped newlines, some non-ASCII).
fn prose(rng: &mut Rng, len: usize) -> String {
    let mut s = String::with_capacity(len + 16);
    while s.len() < len {
        s.push_str(WORDS[rng.below(WORDS.len() as u64) as usize]);
        s.push_str(match rng.below(12) {
            0 => "\\n",
            1 => ", ",
            _ => " ",
        });
    }
    s
}

struct Writer<'a> {
    out: &'a mut Vec<u8>,
    eol: &'static [u8],
    events: usize,
    data_bytes: usize,
}

impl Writer<'_> {
    fn line(&mut self, parts: &[&[u8]]) {
        for p in parts {
            self.out.extend_from_slice(p);
        }
        self.out.extend_from_slice(self.eol);
    }
    /// One event whose data lines are `lines` (joined with LF by the decoder).
    fn event(&mut self, id: &str, event_type: Option<&str>, lines: &[&str]) {
        if let Some(t) = event_type {
            self.line(&[b"event: ", t.as_bytes()]);
        }
        self.line(&[b"id: ", id.as_bytes()]);
        for l in lines {
            self.line(&[b"data: ", l.as_bytes()]);
        }
        self.line(&[]);
        self.events += 1;
        self.data_bytes += lines.iter().map(|l| l.len()).sum::<usize>() + lines.len() - 1;
    }
}

fn generate() -> Traffic {
    let mut rng = Rng(0x4D43_5045_4447_4521);
    let mut bytes = Vec::with_capacity(TARGET_BYTES + (1 << 20));
    let (mut events, mut data_bytes) = (0, 0);
    let mut stream = 0u64;
    while bytes.len() < TARGET_BYTES {
        stream += 1;
        // One POST response stream: LF (70%) or CRLF line ends.
        let eol: &'static [u8] = if rng.below(10) < 7 { b"\n" } else { b"\r\n" };
        let mut w = Writer {
            out: &mut bytes,
            eol,
            events: 0,
            data_bytes: 0,
        };
        let mut seq = 0;
        let next_id = |seq: &mut u32| {
            *seq += 1;
            format!("{stream:x}-{seq}")
        };
        // 2025-11-25 priming event: id, retry, empty data.
        w.line(&[b"id: ", next_id(&mut seq).as_bytes()]);
        w.line(&[b"retry: 500"]);
        w.line(&[b"data: "]);
        w.line(&[]);
        w.events += 1;
        let total = 1 + rng.below(20);
        for step in 1..=total {
            if rng.below(4) == 0 {
                w.line(&[b": keepalive"]);
                w.line(&[]);
            }
            let msg_len = 10 + rng.below(120) as usize;
            let msg = prose(&mut rng, msg_len);
            let note = format!(
                r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":"req-{stream}","progress":{step},"total":{total},"message":"{msg}"}}}}"#
            );
            let id = next_id(&mut seq);
            let typed = rng.below(2) == 0;
            w.event(&id, typed.then_some("message"), &[&note]);
        }
        // The final response: mostly small, sometimes large.
        let size = match rng.below(100) {
            0..=59 => 200 + rng.below(2_000),
            60..=91 => 2_000 + rng.below(30_000),
            _ => 32_000 + rng.below(480_000),
        } as usize;
        let text = prose(&mut rng, size);
        let id = next_id(&mut seq);
        if rng.below(10) == 0 {
            // Pretty-printed over several data lines.
            let lines = [
                "{".to_owned(),
                r#"  "jsonrpc": "2.0","#.to_owned(),
                format!(r#"  "id": {stream},"#),
                r#"  "result": {"content": [{"type": "text","#.to_owned(),
                format!(r#"    "text": "{text}"}}],"#),
                r#"  "isError": false}"#.to_owned(),
                "}".to_owned(),
            ];
            let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
            w.event(&id, None, &lines);
        } else {
            let response = format!(
                r#"{{"jsonrpc":"2.0","id":{stream},"result":{{"content":[{{"type":"text","text":"{text}"}}],"isError":false}}}}"#
            );
            w.event(&id, None, &[&response]);
        }
        events += w.events;
        data_bytes += w.data_bytes;
    }
    Traffic {
        bytes,
        events,
        data_bytes,
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn mb_per_s(bytes: usize, d: Duration) -> f64 {
    bytes as f64 / 1e6 / d.as_secs_f64()
}

fn decode_once(bytes: &[u8], chunk: usize) -> (usize, usize, usize) {
    let mut decoder = Decoder::new(DecoderConfig::default());
    let (mut events, mut data, mut errors) = (0, 0, 0);
    for piece in bytes.chunks(chunk) {
        for item in decoder.feed(black_box(piece)) {
            match item {
                Ok(ev) => {
                    events += 1;
                    data += ev.data.len();
                    black_box(&ev);
                }
                Err(_) => errors += 1,
            }
        }
    }
    if decoder.finish().is_some() {
        errors += 1;
    }
    (events, data, errors)
}

/// The machine's load average (`/proc/loadavg`), or a note that it is unknown.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_owned())
}

fn main() {
    let t = Instant::now();
    let traffic = generate();
    let len = traffic.bytes.len();
    println!(
        "generated {:.1} MB: {} events, {:.1} MB of data, in {:.2?}",
        len as f64 / 1e6,
        traffic.events,
        traffic.data_bytes as f64 / 1e6,
        t.elapsed()
    );
    let load_before = load_average();

    // The three measurements alternate within each iteration, so a machine shared with other work
    // slows them alike and the ratios stay meaningful.
    let (mut sse, mut utf8, mut newline) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..ITERATIONS {
        let t = Instant::now();
        let (events, data, errors) = decode_once(&traffic.bytes, CHUNK);
        sse.push(t.elapsed());
        assert_eq!(
            (events, data, errors),
            (traffic.events, traffic.data_bytes, 0),
            "decoder output does not match the generated traffic"
        );

        let t = Instant::now();
        let ok = std::str::from_utf8(black_box(&traffic.bytes)).is_ok();
        utf8.push(t.elapsed());
        assert!(ok);

        let t = Instant::now();
        let n = memchr::memchr_iter(b'\n', black_box(&traffic.bytes)).count();
        newline.push(t.elapsed());
        black_box(n);
    }

    let sse_mbs = mb_per_s(len, median(sse));
    let utf8_mbs = mb_per_s(len, median(utf8));
    let nl_mbs = mb_per_s(len, median(newline));
    println!(
        "sse decode ({} KiB chunks): {sse_mbs:.0} MB/s (median of {ITERATIONS}); \
         std::str::from_utf8 over the same bytes: {utf8_mbs:.0} MB/s; ratio {:.3}",
        CHUNK / 1024,
        sse_mbs / utf8_mbs
    );
    println!(
        "reference: memchr newline count: {nl_mbs:.0} MB/s (decoder ratio {:.3})",
        sse_mbs / nl_mbs
    );
    println!(
        "load average: {load_before} before, {} after",
        load_average()
    );
}
