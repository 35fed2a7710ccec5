//! The session over stdio framing (NDJSON), against a scripted fake server on virtual time.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcp_edge::proto::session::{
    Era, Event, OpId, ProtocolError, RequestOptions, Session, SessionConfig,
};
use serde_json::{json, Value};

/// Session + a server that answers each line with zero or more lines.
struct Stdio<F: FnMut(&Value) -> Vec<Value>> {
    s: Session,
    server: F,
    now: u64,
    written: Vec<Value>,
    events: Vec<Event>,
}

impl<F: FnMut(&Value) -> Vec<Value>> Stdio<F> {
    fn new(server: F) -> Self {
        Stdio {
            s: Session::new(SessionConfig::stdio()).unwrap(),
            server,
            now: 0,
            written: vec![],
            events: vec![],
        }
    }
    fn pump(&mut self) {
        loop {
            let mut busy = false;
            while let Some(line) = self.s.poll_line() {
                busy = true;
                assert_eq!(line.last(), Some(&b'\n'));
                let msg: Value = serde_json::from_slice(&line).unwrap();
                self.written.push(msg.clone());
                let out: String = (self.server)(&msg)
                    .iter()
                    .map(|m| format!("{m}\r\n"))
                    .collect();
                // Deliver in two arbitrary pieces to exercise the framing.
                let (a, b) = out.as_bytes().split_at(out.len() / 2);
                self.s.handle_stdio(a, self.now);
                self.s.handle_stdio(b, self.now);
            }
            while let Some(e) = self.s.poll_event() {
                busy = true;
                self.events.push(e);
            }
            assert!(self.s.poll_transmit().is_none(), "stdio sends no HTTP");
            if !busy {
                return;
            }
        }
    }
    fn advance(&mut self, ms: u64) {
        let target = self.now + ms;
        while let Some(t) = self.s.poll_timeout().filter(|t| *t <= target) {
            self.now = t;
            self.s.handle_timeout(t);
            self.pump();
        }
        self.now = target;
    }
    fn result(&self, op: OpId) -> Option<&Result<Value, ProtocolError>> {
        self.events.iter().find_map(|e| match e {
            Event::Completed { op: o, result } if *o == op => Some(result),
            _ => None,
        })
    }
    fn methods(&self) -> Vec<String> {
        self.written
            .iter()
            .map(|m| m["method"].as_str().unwrap_or("<response>").to_string())
            .collect()
    }
}

fn ok(id: &Value, result: Value) -> Vec<Value> {
    vec![json!({"jsonrpc": "2.0", "id": id, "result": result})]
}

#[test]
fn modern_stdio_server_is_discovered_and_called() {
    let mut t = Stdio::new(|m| match m["method"].as_str() {
        Some("server/discover") => ok(
            &m["id"],
            json!({"supportedVersions": ["2026-07-28"], "capabilities": {}}),
        ),
        Some("tools/list") => ok(
            &m["id"],
            json!({"tools": [{"name": "echo", "inputSchema": {}}]}),
        ),
        Some("tools/call") => {
            assert_eq!(
                m["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
                "2026-07-28"
            );
            let token = m["params"]["_meta"]["progressToken"].clone();
            vec![
                json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": token, "progress": 1}}),
                json!({"jsonrpc": "2.0", "id": m["id"], "result": {"content": [{"type": "text", "text": "hi"}]}}),
            ]
        }
        _ => vec![],
    });
    let c = t.s.connect(0);
    let call = t.s.request(
        "tools/call",
        json!({"name": "echo", "arguments": {}}),
        RequestOptions {
            progress: true,
            ..Default::default()
        },
        0,
    );
    t.pump();
    assert!(matches!(t.result(c), Some(Ok(_))));
    assert_eq!(t.s.era(), Some(Era::Modern));
    assert_eq!(
        t.result(call).unwrap().as_ref().unwrap()["content"][0]["text"],
        "hi"
    );
    assert!(t
        .events
        .iter()
        .any(|e| matches!(e, Event::Progress { op, .. } if *op == call)));
}

#[test]
fn an_unanswered_probe_falls_back_to_initialize() {
    let mut t = Stdio::new(|m| match m["method"].as_str() {
        Some("initialize") => ok(
            &m["id"],
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "serverInfo": {"name": "old", "version": "1"}}),
        ),
        _ => vec![], // ignores server/discover and notifications
    });
    let c = t.s.connect(0);
    t.pump();
    assert!(t.result(c).is_none());
    t.advance(5_000);
    assert!(matches!(t.result(c), Some(Ok(v)) if v["protocolVersion"] == "2025-06-18"));
    assert_eq!(
        t.methods(),
        ["server/discover", "initialize", "notifications/initialized"]
    );
    assert_eq!(t.s.era(), Some(Era::Legacy));
}

#[test]
fn a_non_modern_error_to_the_probe_falls_back_at_once() {
    let mut t = Stdio::new(|m| match m["method"].as_str() {
        Some("server/discover") => vec![
            json!({"jsonrpc": "2.0", "id": m["id"], "error": {"code": -32601, "message": "Method not found"}}),
        ],
        Some("initialize") => ok(
            &m["id"],
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "old", "version": "1"}}),
        ),
        Some("tools/call") => vec![json!({"jsonrpc": "2.0", "id": "s1", "method": "roots/list"})],
        _ => vec![],
    });
    let c = t.s.connect(0);
    t.pump();
    assert!(matches!(t.result(c), Some(Ok(_))));
    let call = t.s.request(
        "tools/call",
        json!({"name": "x"}),
        RequestOptions::default(),
        0,
    );
    t.pump();
    let input = t.events.iter().find_map(|e| match e {
        Event::InputRequest { input, method, .. } if method == "roots/list" => Some(*input),
        _ => None,
    });
    t.s.answer_input(input.unwrap(), Ok(json!({"roots": []})), 0)
        .unwrap();
    t.s.cancel(call, 0);
    t.pump();
    let n = t.written.len();
    assert_eq!(
        t.written[n - 2],
        json!({"jsonrpc": "2.0", "id": "s1", "result": {"roots": []}})
    );
    assert_eq!(t.written[n - 1]["method"], "notifications/cancelled");
    assert_eq!(
        t.written[n - 1]["params"]["requestId"],
        t.written
            .iter()
            .find(|m| m["method"] == "tools/call")
            .unwrap()["id"]
    );
}

#[test]
fn a_banner_on_stdout_fails_the_connect_naming_the_line() {
    let mut s = Session::new(SessionConfig::stdio()).unwrap();
    let c = s.connect(0);
    while s.poll_line().is_some() {}
    s.handle_stdio(b"Server started on stdio, listening...\n", 1);
    let mut result = None;
    while let Some(e) = s.poll_event() {
        if let Event::Completed { op, result: r } = e {
            assert_eq!(op, c);
            result = Some(r);
        }
    }
    match result {
        Some(Err(ProtocolError::StdoutNotJsonRpc { line })) => {
            assert!(line.contains("Server started on stdio"))
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn process_exit_fails_every_request_promptly() {
    let mut t = Stdio::new(|m| match m["method"].as_str() {
        Some("server/discover") => ok(
            &m["id"],
            json!({"supportedVersions": ["2026-07-28"], "capabilities": {}}),
        ),
        Some("tools/list") => ok(
            &m["id"],
            json!({"tools": [{"name": "x", "inputSchema": {}}]}),
        ),
        _ => vec![],
    });
    t.s.connect(0);
    let call = t.s.request(
        "tools/call",
        json!({"name": "x"}),
        RequestOptions::default(),
        0,
    );
    t.pump();
    assert!(t.result(call).is_none());
    t.s.handle_stdio_closed("server exited with status 1", 3);
    t.pump();
    assert_eq!(
        t.result(call),
        Some(&Err(ProtocolError::Network(
            "server exited with status 1".into()
        )))
    );
    assert!(t.events.contains(&Event::Closed));
}

#[test]
fn a_modern_server_answering_the_probe_late_is_still_found_modern() {
    // The server answers discover only after the probe timeout, and refuses initialize with
    // -32022 listing 2026-07-28: the session goes back to discover once.
    let mut discovers = 0;
    let mut t = Stdio::new(move |m| match m["method"].as_str() {
        Some("server/discover") => {
            discovers += 1;
            if discovers == 1 {
                vec![] // too late: answered after the probe gave up (never, here)
            } else {
                ok(
                    &m["id"],
                    json!({"supportedVersions": ["2026-07-28"], "capabilities": {}}),
                )
            }
        }
        Some("initialize") => vec![
            json!({"jsonrpc": "2.0", "id": m["id"], "error": {"code": -32022, "message": "Unsupported protocol version", "data": {"supported": ["2026-07-28"], "requested": "2025-11-25"}}}),
        ],
        _ => vec![],
    });
    let c = t.s.connect(0);
    t.pump();
    t.advance(5_000);
    assert!(
        matches!(t.result(c), Some(Ok(v)) if v["era"] == "modern"),
        "{:?}",
        t.result(c)
    );
    assert_eq!(
        t.methods(),
        ["server/discover", "initialize", "server/discover"]
    );
}

// Runs in the runtime `wasm-pack test` asks for (see tests/wasm-test-mode).
mcp_edge_wasm_test_mode::configure!();
