//! Decodes a capture of a real MCP Streamable HTTP exchange with the crate's sans-IO core.
//!
//! `tests/demo/capture.sh` writes, for each HTTP exchange `NN-name`, the files `NN-name.request.json`,
//! `NN-name.headers` (the raw response head as curl received it) and `NN-name.body` (the raw response
//! body). This program reads them in order, classifies every response head with
//! [`mcp_edge::proto::http::classify`], runs event-stream bodies through
//! [`mcp_edge::proto::sse::Decoder`] (fed in small chunks, as a network would deliver them) and JSON
//! bodies straight to [`mcp_edge::proto::jsonrpc::Message::parse`], then prints what the server said:
//! its identity, its tools, and the result of the tool call.
//!
//! Usage: `cargo run --example decode_capture -- <capture-dir>`

use mcp_edge::proto::http::{self, ResponseHead, ResponseKind};
use mcp_edge::proto::jsonrpc::Message;
use mcp_edge::proto::sse::{Decoder, DecoderConfig};
use serde_json::Value;
use std::error::Error;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Bytes per `feed` call: small and odd, so lines and UTF-8 sequences are split across chunks.
const CHUNK: usize = 61;

/// Limits for the demo's decoder: far above what the captured server sends, far below "unbounded".
const LIMITS: DecoderConfig = DecoderConfig {
    max_line_bytes: 1 << 20,
    max_event_bytes: 4 << 20,
};

fn main() -> ExitCode {
    let Some(dir) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: decode_capture <capture-dir>");
        return ExitCode::from(2);
    };
    match run(&dir) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("decode_capture: {e}");
            ExitCode::FAILURE
        }
    }
}

/// One captured exchange.
struct Exchange {
    name: String,
    /// Whether a JSON-RPC message was sent (a `.request.json` exists); a bodiless request such as
    /// the session `DELETE` gets no message back and is not classified.
    sent_message: bool,
    head: ResponseHead,
    body: Vec<u8>,
}

/// Decodes every exchange; returns whether the essential replies (initialize, tools/list) were found.
fn run(dir: &Path) -> Result<bool, Box<dyn Error>> {
    let exchanges = read_capture(dir)?;
    if exchanges.is_empty() {
        return Err(format!("no *.headers files in {}", dir.display()).into());
    }
    let mut messages = Vec::new();
    println!("== responses (decoded with mcp_edge::proto)");
    for ex in &exchanges {
        if !ex.sent_message {
            println!(
                "{}: HTTP {} ({} body bytes), no message sent",
                ex.name,
                ex.head.status,
                ex.body.len()
            );
            continue;
        }
        let kind = http::classify(&ex.head);
        let content_type = ex.head.header(http::names::CONTENT_TYPE).unwrap_or("-");
        let decoded = match kind {
            ResponseKind::EventStream => decode_event_stream(&ex.body),
            ResponseKind::Json => vec![parse_message(&ex.body)],
            _ => Vec::new(),
        };
        println!(
            "{}: HTTP {} {} ({} body bytes) -> {:?}, {} message(s)",
            ex.name,
            ex.head.status,
            content_type,
            ex.body.len(),
            kind,
            decoded.iter().filter(|m| m.is_ok()).count()
        );
        for m in decoded {
            match m {
                Ok(msg) => messages.push(msg),
                Err(e) => println!("   error: {e}"),
            }
        }
    }
    Ok(report(&messages))
}

/// Reads `NN-name.headers` / `NN-name.body` pairs in name order.
fn read_capture(dir: &Path) -> Result<Vec<Exchange>, Box<dyn Error>> {
    let mut heads: Vec<PathBuf> = fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "headers"))
        .collect();
    heads.sort();
    let mut out = Vec::new();
    for path in heads {
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let head = parse_head(&fs::read_to_string(&path)?)
            .ok_or_else(|| format!("{}: no HTTP status line", path.display()))?;
        let body = fs::read(path.with_extension("body")).unwrap_or_default();
        let sent_message = path.with_extension("request.json").is_file();
        out.push(Exchange {
            name,
            sent_message,
            head,
            body,
        });
    }
    Ok(out)
}

/// Parses a raw HTTP/1.1 response head (`curl -D`): the last status line wins (skips `100 Continue`).
fn parse_head(text: &str) -> Option<ResponseHead> {
    let mut head: Option<ResponseHead> = None;
    for line in text.lines().map(|l| l.trim_end_matches('\r')) {
        if line.starts_with("HTTP/") {
            let status = line.split_whitespace().nth(1)?.parse().ok()?;
            head = Some(ResponseHead {
                status,
                headers: Vec::new(),
            });
        } else if let (Some(h), Some((name, value))) = (head.as_mut(), line.split_once(':')) {
            h.headers
                .push((name.trim().to_string(), value.trim().to_string()));
        }
    }
    head
}

/// Runs a body through the SSE decoder in `CHUNK`-byte pieces; each non-empty `data` is one message.
/// Events with empty data (the stream-priming events MCP servers send to hand out an event id) carry
/// no message and are skipped.
fn decode_event_stream(body: &[u8]) -> Vec<Result<Message, String>> {
    let mut decoder = Decoder::new(LIMITS);
    let mut events = Vec::new();
    for chunk in body.chunks(CHUNK) {
        events.extend(decoder.feed(chunk));
    }
    events.extend(decoder.finish());
    events
        .into_iter()
        .filter_map(|ev| match ev {
            Ok(ev) if ev.data.is_empty() => None,
            Ok(ev) => Some(Message::parse(&ev.data).map_err(|e| format!("event data: {e}"))),
            Err(e) => Some(Err(format!("event stream: {e:?}"))),
        })
        .collect()
}

fn parse_message(body: &[u8]) -> Result<Message, String> {
    let text = std::str::from_utf8(body).map_err(|e| format!("body is not UTF-8: {e}"))?;
    Message::parse(text).map_err(|e| format!("body: {e}"))
}

/// Prints the server's identity, its tools and the tool-call result; true when the first two exist.
fn report(messages: &[Message]) -> bool {
    let results: Vec<&Value> = messages
        .iter()
        .filter_map(|m| match m {
            Message::Response(r) => Some(&r.result),
            _ => None,
        })
        .collect();
    for m in messages {
        if let Message::Error(e) = m {
            println!("server error {}: {}", e.error.code, e.error.message);
        }
    }
    let init = results.iter().find(|r| r.get("serverInfo").is_some());
    let tools = results
        .iter()
        .find_map(|r| r.get("tools").and_then(Value::as_array));
    let call = results.iter().find(|r| r.get("content").is_some());

    println!("\n== server");
    match init {
        Some(r) => {
            let info = &r["serverInfo"];
            println!(
                "{} {} ({}), protocol {}",
                text(&info["name"]),
                text(&info["version"]),
                text(&info["title"]),
                text(&r["protocolVersion"])
            );
        }
        None => println!("(no initialize result decoded)"),
    }
    println!("\n== tools");
    match tools {
        Some(list) => {
            for t in list {
                let description: String = text(&t["description"]).chars().take(80).collect();
                println!("{:<32} {}", text(&t["name"]), description);
            }
            println!("({} tools)", list.len());
        }
        None => println!("(no tools/list result decoded)"),
    }
    println!("\n== tools/call result");
    match call.and_then(|r| r["content"].as_array()) {
        Some(content) => {
            for c in content {
                println!("[{}] {}", text(&c["type"]), text(&c["text"]));
            }
        }
        None => println!("(no tools/call result decoded)"),
    }
    let ok = init.is_some() && tools.is_some();
    if !ok {
        println!("\nDECODE INCOMPLETE: the initialize or tools/list reply was not decoded");
    }
    ok
}

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or("-")
}
