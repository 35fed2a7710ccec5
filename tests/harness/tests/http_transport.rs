//! The native HTTP transport against a small loopback HTTP/1.1 server written here, which frames
//! its responses in each way RFC 9112 § 6.3 allows (Content-Length, chunked with awkward chunk
//! boundaries, read-until-close) and can hold a stream open, to check that an abort really closes
//! the connection.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use mcp_edge::proto::session::{ProtocolChoice, ProtocolError, RequestOptions, SessionConfig};
use mcp_edge_harness::{Client, HarnessError};
use serde_json::{json, Value};

/// Reads one request (head + Content-Length body); returns (head text, body JSON).
fn read_request(s: &mut TcpStream) -> Option<(String, Value)> {
    let mut buf = Vec::new();
    let mut byte = [0u8; 1];
    while !buf.ends_with(b"\r\n\r\n") {
        if s.read(&mut byte).ok()? == 0 {
            return None;
        }
        buf.push(byte[0]);
    }
    let head = String::from_utf8(buf).ok()?;
    let len: usize = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length:")
                .map(|v| v.trim().to_string())
        })
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0u8; len];
    s.read_exact(&mut body).ok()?;
    Some((head, serde_json::from_slice(&body).unwrap_or(Value::Null)))
}

fn sse(msgs: &[Value]) -> String {
    msgs.iter()
        .map(|m| format!("event: message\ndata: {m}\n\n"))
        .collect()
}

/// Serves until the test ends. `closed` reports when a held-open stream's client went away.
fn serve(listener: TcpListener, closed: mpsc::Sender<&'static str>) {
    for conn in listener.incoming() {
        let Ok(mut s) = conn else { return };
        let closed = closed.clone();
        thread::spawn(move || {
            let Some((head, req)) = read_request(&mut s) else {
                return;
            };
            assert!(head.starts_with("POST /mcp HTTP/1.1\r\n"), "{head}");
            assert!(
                head.to_ascii_lowercase().contains("host: 127.0.0.1:"),
                "{head}"
            );
            let id = req["id"].clone();
            let method = req["method"].as_str().unwrap_or_default().to_string();
            let tool = req["params"]["name"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            let result = |r: Value| json!({"jsonrpc": "2.0", "id": id, "result": r});
            match (method.as_str(), tool.as_str()) {
                ("server/discover", _) => {
                    // Content-Length framing.
                    let body = result(
                        json!({"resultType": "complete", "supportedVersions": ["2026-07-28"],
                        "capabilities": {"tools": {}}, "ttlMs": 0}),
                    )
                    .to_string();
                    let _ = write!(s, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len());
                }
                ("tools/list", _) => {
                    // Chunked, in 7-byte chunks (boundaries fall inside UTF-8 sequences and
                    // SSE line ends), with a chunk extension and a trailer.
                    let tools = json!({"tools": [
                        {"name": "framed", "description": "ünïcödé ✓", "inputSchema": {"type": "object"}},
                        {"name": "hang", "inputSchema": {"type": "object"}}]});
                    let body = sse(&[result(tools)]);
                    let _ = write!(s, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n");
                    for c in body.as_bytes().chunks(7) {
                        let _ = write!(s, "{:x};x=y\r\n", c.len());
                        let _ = s.write_all(c);
                        let _ = s.write_all(b"\r\n");
                        let _ = s.flush();
                    }
                    let _ = s.write_all(b"0\r\nX-Trailer: t\r\n\r\n");
                }
                ("tools/call", "framed") => {
                    // Read-until-close, with a progress notification first.
                    let token = req["params"]["_meta"]["progressToken"].clone();
                    let body = sse(&[
                        json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": token, "progress": 1, "total": 2}}),
                        result(json!({"content": [{"type": "text", "text": "framed ✓"}]})),
                    ]);
                    let _ = write!(
                        s,
                        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n{body}"
                    );
                }
                ("tools/call", "hang") => {
                    let _ = write!(s, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n");
                    let _ = s.flush();
                    // Wait for the client to give up: read returns 0 (or fails) when it closes.
                    let mut b = [0u8; 16];
                    let _ = s.set_read_timeout(Some(Duration::from_secs(30)));
                    match s.read(&mut b) {
                        Ok(0) | Err(_) => {
                            let _ = closed.send("hang stream closed by the client");
                        }
                        Ok(_) => {}
                    }
                    return;
                }
                _ => {
                    let body = json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "no"}}).to_string();
                    let _ = write!(s, "HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len());
                }
            }
            let _ = s.flush();
        });
    }
}

fn start() -> (String, mpsc::Receiver<&'static str>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || serve(listener, tx));
    (url, rx)
}

fn client(url: &str) -> Client {
    let mut cfg = SessionConfig::new(url);
    cfg.protocol = ProtocolChoice::Exact("2026-07-28".into());
    cfg.request_timeout_ms = Some(20_000);
    Client::http(cfg).unwrap()
}

#[test]
fn every_body_framing_reaches_the_session() {
    let (url, _closed) = start();
    let mut c = client(&url);
    let info = c.connect().unwrap();
    assert_eq!(info["era"], "modern");
    let tools = c.list(mcp_edge::proto::session::ListKind::Tools).unwrap();
    assert_eq!(tools["tools"][0]["description"], "ünïcödé ✓");
    let op = c.start_request(
        "tools/call",
        json!({"name": "framed", "arguments": {}}),
        RequestOptions {
            progress: true,
            ..RequestOptions::default()
        },
    );
    let out = c.wait_outcome(op).unwrap();
    assert_eq!(out.result.unwrap()["content"][0]["text"], "framed ✓");
    assert_eq!(out.progress, vec![(1.0, Some(2.0), None)]);
    // The transcript saw the messages the session saw, in order.
    let recorder = c.recorder();
    let msgs: Vec<&str> = recorder
        .entries()
        .iter()
        .filter(|e| e.get("dir").is_some())
        .map(|e| e["msg"]["method"].as_str().unwrap_or("<response>"))
        .collect();
    assert_eq!(
        msgs,
        [
            "server/discover",
            "<response>",
            "tools/list",
            "<response>",
            "tools/call",
            "notifications/progress",
            "<response>"
        ]
    );
}

#[test]
fn a_timed_out_stream_is_aborted_and_its_socket_closed() {
    let (url, closed) = start();
    let mut c = client(&url);
    c.connect().unwrap();
    let op = c.start_request(
        "tools/call",
        json!({"name": "hang", "arguments": {}}),
        RequestOptions {
            timeout_ms: Some(400),
            ..RequestOptions::default()
        },
    );
    let err = c.wait(op).unwrap_err();
    assert_eq!(
        err,
        HarnessError::Protocol(ProtocolError::Timeout {
            after_ms: 400,
            total: false
        })
    );
    assert_eq!(
        closed.recv_timeout(Duration::from_secs(20)),
        Ok("hang stream closed by the client"),
        "the abort must close the connection"
    );
}

#[test]
fn a_refused_connection_is_a_network_error() {
    // Bind then drop: nothing listens on that port any more.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut c = client(&format!("http://127.0.0.1:{port}/mcp"));
    match c.connect().unwrap_err() {
        HarnessError::Protocol(ProtocolError::Network(m)) => assert!(m.contains("connect"), "{m}"),
        other => panic!("expected a Network error, got {other:?}"),
    }
}

#[test]
fn only_loopback_http_urls_are_accepted() {
    for url in [
        "https://127.0.0.1/mcp",
        "http://192.0.2.1/mcp",
        "http://example.com/mcp",
    ] {
        let cfg = SessionConfig::new(url);
        assert!(
            matches!(Client::http(cfg), Err(HarnessError::InvalidUrl { .. })),
            "{url}"
        );
    }
}
