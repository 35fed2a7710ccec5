//! Session tests for the 2025 era (initialize, sessions, GET stream, resumption) and for era
//! detection, against a deterministic fake server on virtual time.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

mod support;

use mcp_edge::proto::http::{HttpRequest, Method};
use mcp_edge::proto::session::{
    Era, Event, ListKind, OpId, ProtocolChoice, ProtocolError, RequestOptions, SessionConfig,
};
use serde_json::json;
use std::cell::RefCell;
use std::rc::Rc;
use support::*;

fn cfg() -> SessionConfig {
    SessionConfig::new("http://127.0.0.1:1/mcp")
}

/// Shared state of the fake 2025 server.
#[derive(Default)]
struct Legacy {
    session: u32,
    /// Requests answered with 404 while this is set (the server "restarted").
    expire: bool,
    get: Option<Reply>,
    /// Every GET answered with 404, the current session's too (instead of 405), for the first
    /// four sessions.
    get_always_404: bool,
    /// The DELETE of a session is never answered.
    hold_delete: bool,
}

fn init_result() -> serde_json::Value {
    json!({"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "legacy", "version": "2"}, "instructions": "old"})
}

/// A 2025-11-25 server: `server/discover` is answered like a session-less request (400 with a
/// non-modern JSON-RPC error, as the TypeScript SDK does).
fn legacy_server(state: Rc<RefCell<Legacy>>) -> impl FnMut(&HttpRequest) -> Reply {
    move |req: &HttpRequest| {
        let mut st = state.borrow_mut();
        let id = id_of(req);
        let sid = req.header("mcp-session-id").map(str::to_string);
        let method = method_of(req);
        if method == "GET" {
            // (From the fifth session on, 405: a client that kept starting sessions fails the
            // test's counts instead of hanging it.)
            if st.expire || (st.get_always_404 && st.session < 5) {
                return Reply::status(404, "");
            }
            return st.get.clone().unwrap_or_else(|| Reply::status(405, ""));
        }
        match method.as_str() {
            "server/discover" => Reply::error(
                400,
                &json!(null),
                -32000,
                "Bad Request: No valid session ID provided",
                None,
            ),
            "initialize" => {
                assert!(sid.is_none(), "initialize carries no session id");
                assert!(req.header("mcp-protocol-version").is_none());
                st.session += 1;
                st.expire = false;
                Reply::sse(&[json!({"jsonrpc": "2.0", "id": id, "result": init_result()})])
                    .header("Mcp-Session-Id", &format!("sess-{}", st.session))
            }
            _ if sid.as_deref() != Some(&format!("sess-{}", st.session)) || st.expire => {
                Reply::error(404, &json!(null), -32001, "Session not found", None)
            }
            "notifications/initialized" | "notifications/cancelled" | "<response>" => {
                Reply::accepted()
            }
            "tools/list" => {
                Reply::result(&id, json!({"tools": [{"name": "echo", "inputSchema": {}}]}))
            }
            "DELETE" if st.hold_delete => Reply::status(200, "").held(),
            "DELETE" => Reply::status(200, ""),
            _ => Reply::sse(&[
                json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": "hi"}]}}),
            ]),
        }
    }
}

/// Connects `p`'s session, starts a `tools/call` of tool `x` at time 0 and runs the exchange.
fn connect_and_call<F: FnMut(&HttpRequest) -> Reply>(p: &mut Pair<F>) -> OpId {
    p.session.connect(0);
    let op = p.session.request(
        "tools/call",
        json!({"name": "x"}),
        RequestOptions::default(),
        0,
    );
    p.pump();
    op
}

#[test]
fn a_server_answering_every_get_with_404_gets_one_new_session_not_endless_ones() {
    // 404 to a request with the session id ends the session (MCP 2025-11-25 `basic/transports`
    // "Session Management"): the client starts another. When that one's GET is answered 404 as
    // well, the server refuses GET streams that way: the client keeps the session and goes on
    // without the stream, instead of starting sessions without end.
    let st = Rc::new(RefCell::new(Legacy {
        get_always_404: true,
        ..Legacy::default()
    }));
    let mut p = Pair::new(cfg(), legacy_server(st.clone()));
    let op = p.session.connect(0);
    p.pump();
    p.ok(op);
    p.advance(60_000);
    let methods = p.methods();
    let count = |m: &str| methods.iter().filter(|x| *x == m).count();
    assert_eq!(count("initialize"), 2, "{methods:?}");
    assert_eq!(count("GET"), 2, "{methods:?}");
    assert_eq!(st.borrow().session, 2);
    assert!(
        p.events.iter().any(
            |e| matches!(e, Event::Diagnostic { message } if message.contains("HTTP 404 too"))
        ),
        "{:?}",
        p.events
    );
    // The second session works.
    let l = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), p.now);
    p.pump();
    assert_eq!(p.ok(l)["tools"][0]["name"], "echo");
    assert_eq!(
        p.last("tools/list").header("mcp-session-id"),
        Some("sess-2")
    );
}

#[test]
fn auto_falls_back_to_initialize_and_uses_the_session() {
    let st = Rc::new(RefCell::new(Legacy::default()));
    let mut p = Pair::new(cfg(), legacy_server(st.clone()));
    let op = p.session.connect(0);
    p.pump();
    let info = p.ok(op);
    assert_eq!(info["era"], "legacy");
    assert_eq!(info["protocolVersion"], "2025-11-25");
    assert_eq!(info["instructions"], "old");
    assert_eq!(p.session.session_id(), Some("sess-1"));
    assert_eq!(
        p.methods(),
        [
            "server/discover",
            "initialize",
            "notifications/initialized",
            "GET"
        ]
    );
    let init = p.last("initialize");
    assert_eq!(params_of(init)["clientInfo"]["name"], "mcp-edge");
    let l = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), 0);
    p.pump();
    assert_eq!(p.ok(l)["tools"][0]["name"], "echo");
    let r = p.last("tools/list");
    assert_eq!(r.header("mcp-session-id"), Some("sess-1"));
    assert_eq!(r.header("mcp-protocol-version"), Some("2025-11-25"));
    assert!(
        r.header("mcp-method").is_none(),
        "2026 headers are not sent to a 2025 server"
    );
    assert!(params_of(r).get("_meta").is_none());
    let initialized = p.last("notifications/initialized");
    assert_eq!(initialized.header("mcp-session-id"), Some("sess-1"));
}

#[test]
fn discover_answered_with_method_not_found_also_falls_back() {
    let server = |req: &HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            // A session-less (stateless) 2025 server processes discover as an unknown method.
            "server/discover" => Reply::error(200, &id, -32601, "Method not found", None),
            "initialize" => Reply::result(
                &id,
                json!({"protocolVersion": "2025-03-26", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}),
            ),
            "notifications/initialized" => Reply::accepted(),
            _ => Reply::status(405, ""),
        }
    };
    let mut p = Pair::new(cfg(), server);
    let op = p.session.connect(0);
    p.pump();
    assert_eq!(p.ok(op)["protocolVersion"], "2025-03-26");
    assert_eq!(p.session.session_id(), None);
}

#[test]
fn a_known_legacy_era_skips_discovery() {
    let st = Rc::new(RefCell::new(Legacy::default()));
    let mut c = cfg();
    c.known_era = Some(Era::Legacy);
    let mut p = Pair::new(c, legacy_server(st));
    p.session.connect(0);
    p.pump();
    assert_eq!(p.methods()[0], "initialize");
}

#[test]
fn exact_legacy_version_is_requested() {
    let st = Rc::new(RefCell::new(Legacy::default()));
    let mut c = cfg();
    c.protocol = ProtocolChoice::Exact("2025-06-18".into());
    let mut p = Pair::new(c, legacy_server(st));
    let op = p.session.connect(0);
    p.pump();
    assert_eq!(
        params_of(p.last("initialize"))["protocolVersion"],
        "2025-06-18"
    );
    // The fake answers 2025-11-25, which this client also speaks.
    assert_eq!(p.ok(op)["protocolVersion"], "2025-11-25");
}

#[test]
fn an_unsupported_negotiated_version_fails_the_connect() {
    let server = |req: &HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::status(400, "no"),
            _ => Reply::result(
                &id,
                json!({"protocolVersion": "2024-11-05", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}),
            ),
        }
    };
    let mut p = Pair::new(cfg(), server);
    let op = p.session.connect(0);
    p.pump();
    assert!(
        matches!(p.err(op), ProtocolError::UnsupportedProtocolVersion { supported, .. } if supported == &["2024-11-05"])
    );
    assert!(!p.session.is_connected());
}

#[test]
fn a_2024_http_sse_server_is_recognised_and_reported() {
    let server = |req: &HttpRequest| match req.method {
        Method::Get => Reply::sse_raw("event: endpoint\ndata: /messages?sessionId=abc\n\n").open(),
        _ => Reply::status(405, "Method Not Allowed"),
    };
    let mut p = Pair::new(cfg(), server);
    let op = p.session.connect(0);
    p.pump();
    assert_eq!(
        p.err(op),
        &ProtocolError::LegacyHttpSseServer {
            endpoint: "/messages?sessionId=abc".into()
        }
    );
    assert_eq!(p.methods(), ["server/discover", "initialize", "GET"]);
    assert!(p.open.is_empty(), "the probe stream is closed");
    assert!(p.err(op).to_string().contains("2024-11-05"));
}

#[test]
fn a_plain_404_endpoint_is_not_mistaken_for_http_sse() {
    let mut p = Pair::new(cfg(), |_: &HttpRequest| Reply::status(404, "Not Found"));
    let op = p.session.connect(0);
    p.pump();
    assert_eq!(
        p.err(op),
        &ProtocolError::HttpStatus {
            status: 404,
            body: "Not Found".into(),
            retry_after_ms: None,
            body_length: None,
        }
    );
}

#[test]
fn session_404_reinitializes_once_and_replays_the_request() {
    let st = Rc::new(RefCell::new(Legacy::default()));
    let mut p = Pair::new(cfg(), legacy_server(st.clone()));
    p.session.connect(0);
    p.pump();
    st.borrow_mut().expire = true;
    let op = p.session.request(
        "tools/call",
        json!({"name": "echo", "arguments": {}}),
        RequestOptions::default(),
        0,
    );
    // The server "restarts" once the client has hit the 404: the next initialize clears it.
    p.pump();
    assert_eq!(p.ok(op)["content"][0]["text"], "hi");
    assert_eq!(p.session.session_id(), Some("sess-2"));
    let calls: Vec<_> = p
        .requests
        .iter()
        .filter(|(_, _, r)| method_of(r) == "tools/call")
        .collect();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[1].2.header("mcp-session-id"), Some("sess-2"));
    assert!(p.diagnostics().iter().any(|d| d.contains("re-initialized")));
    assert_eq!(p.methods().iter().filter(|m| *m == "initialize").count(), 2);
}

#[test]
fn a_session_that_keeps_expiring_fails_instead_of_looping() {
    let server = |req: &HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::status(400, ""),
            "initialize" => Reply::result(&id, init_result()).header("mcp-session-id", "s"),
            "notifications/initialized" => Reply::accepted(),
            "GET" => Reply::status(405, ""),
            _ => Reply::status(404, ""),
        }
    };
    let mut p = Pair::new(cfg(), server);
    p.session.connect(0);
    let op = p.session.request(
        "tools/call",
        json!({"name": "echo"}),
        RequestOptions::default(),
        0,
    );
    p.pump();
    assert!(matches!(
        p.err(op),
        ProtocolError::HttpStatus { status: 404, .. }
    ));
    assert_eq!(p.methods().iter().filter(|m| *m == "initialize").count(), 2);
}

#[test]
fn a_broken_post_stream_resumes_by_get_after_the_retry_delay() {
    let server = |req: &HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::status(400, ""),
            "initialize" => Reply::result(&id, init_result()).header("mcp-session-id", "s1"),
            "notifications/initialized" => Reply::accepted(),
            // 2025-11-25 priming event: an id, a retry, empty data; then the server closes.
            "tools/call" => Reply::sse_raw("id: ev-1\nretry: 500\ndata: \n\n"),
            "GET" if req.header("last-event-id") == Some("ev-1") => Reply::sse_raw(&format!(
                "id: ev-2\ndata: {}\n\n",
                json!({"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "resumed"}]}})
            )),
            "GET" => Reply::status(405, ""),
            _ => Reply::status(500, ""),
        }
    };
    let mut p = Pair::new(cfg(), server);
    p.session.connect(0);
    p.pump();
    let op = p.session.request(
        "tools/call",
        json!({"name": "slow"}),
        RequestOptions::default(),
        0,
    );
    p.pump();
    assert_eq!(id_of(p.last("tools/call")), json!(3));
    let gets_before = p.methods().iter().filter(|m| *m == "GET").count();
    p.advance(499);
    assert_eq!(
        p.methods().iter().filter(|m| *m == "GET").count(),
        gets_before,
        "waits for retry"
    );
    p.advance(1);
    assert_eq!(p.ok(op)["content"][0]["text"], "resumed");
    let (_, at, get) = p
        .requests
        .iter()
        .rev()
        .find(|(_, _, r)| r.method == Method::Get)
        .unwrap();
    assert_eq!(*at, 500);
    assert_eq!(get.header("last-event-id"), Some("ev-1"));
    assert_eq!(get.header("mcp-session-id"), Some("s1"));
    assert_eq!(get.header("accept"), Some("text/event-stream"));
}

#[test]
fn resumption_is_bounded() {
    let server = |req: &HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::status(400, ""),
            "initialize" => Reply::result(&id, init_result()),
            "notifications/initialized" => Reply::accepted(),
            "tools/call" => Reply::sse_raw("id: a\nretry: 100\ndata:\n\n"),
            // Every resume answers 200 with an empty stream (a known failure mode).
            "GET" if req.header("last-event-id").is_some() => Reply::sse_raw(""),
            _ => Reply::status(405, ""),
        }
    };
    let mut c = cfg();
    c.reconnect.max_attempts = 3;
    let mut p = Pair::new(c, server);
    let op = connect_and_call(&mut p);
    p.advance(10_000);
    assert_eq!(
        p.err(op),
        &ProtocolError::StreamDropped {
            attempts: 3,
            may_have_run: true
        }
    );
    let resumes = p
        .requests
        .iter()
        .filter(|(_, _, r)| r.header("last-event-id").is_some())
        .count();
    assert_eq!(resumes, 3);
}

#[test]
fn a_server_asking_retry_0_and_resetting_the_budget_each_time_is_resumed_no_faster_than_every_100_ms(
) {
    // Every stream carries one progress event and ends, with `retry: 0`: each delivers a message,
    // so the resume budget restarts each time, and no result ever comes.
    let resumes = Rc::new(RefCell::new(0u32));
    let r = resumes.clone();
    let server = move |req: &HttpRequest| {
        let id = id_of(req);
        let event = |n: u32| {
            let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 0, "progress": n}});
            format!("id: e{n}\nretry: 0\ndata: {progress}\n\n")
        };
        match method_of(req).as_str() {
            "server/discover" => Reply::status(400, ""),
            "initialize" => Reply::result(&id, init_result()),
            "notifications/initialized" => Reply::accepted(),
            "tools/call" => Reply::sse_raw(&event(0)),
            "GET" if req.header("last-event-id").is_some() => {
                *r.borrow_mut() += 1;
                let n = *r.borrow();
                Reply::sse_raw(&event(n))
            }
            _ => Reply::status(405, ""),
        }
    };
    let mut p = Pair::new(cfg(), server);
    connect_and_call(&mut p);
    assert_eq!(*resumes.borrow(), 0, "no resume at once");
    p.advance(1_000);
    let n = *resumes.borrow();
    assert!((9..=10).contains(&n), "{n} resumes in a second");
}

#[test]
fn server_requests_on_a_post_stream_are_surfaced_and_answered_by_post() {
    let server = |req: &HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::status(400, ""),
            "initialize" => Reply::result(&id, init_result()).header("mcp-session-id", "s"),
            "notifications/initialized" | "<response>" => Reply::accepted(),
            "tools/call" => Reply::sse(&[
                json!({"jsonrpc": "2.0", "id": "srv-1", "method": "ping"}),
                json!({"jsonrpc": "2.0", "id": "srv-2", "method": "elicitation/create", "params": {"message": "name?", "requestedSchema": {"type": "object"}}}),
                json!({"jsonrpc": "2.0", "id": "srv-3", "method": "unknown/thing"}),
            ])
            .open(),
            _ => Reply::status(405, ""),
        }
    };
    let mut p = Pair::new(cfg(), server);
    p.session.connect(0);
    let op = p.session.request(
        "tools/call",
        json!({"name": "ask"}),
        RequestOptions::default(),
        0,
    );
    p.pump();
    let responses: Vec<serde_json::Value> = p
        .requests
        .iter()
        .filter(|(_, _, r)| method_of(r) == "<response>")
        .map(|(_, _, r)| body(r).unwrap())
        .collect();
    assert_eq!(
        responses[0],
        json!({"jsonrpc": "2.0", "id": "srv-1", "result": {}})
    );
    assert_eq!(responses[1]["error"]["code"], -32601);
    let input = p.events.iter().find_map(|e| match e {
        Event::InputRequest {
            input,
            method,
            op: Some(_),
            params,
        } if method == "elicitation/create" && params["message"] == "name?" => Some(*input),
        _ => None,
    });
    p.session
        .answer_input(
            input.unwrap(),
            Ok(json!({"action": "accept", "content": {"n": 1}})),
            0,
        )
        .unwrap();
    p.pump();
    let answer = p.last("<response>");
    assert_eq!(
        body(answer).unwrap(),
        json!({"jsonrpc": "2.0", "id": "srv-2", "result": {"action": "accept", "content": {"n": 1}}})
    );
    assert_eq!(answer.header("mcp-session-id"), Some("s"));
    let ex = p.open[0];
    p.push(
        ex,
        &format!(
            "data: {}\n\n",
            json!({"jsonrpc": "2.0", "id": 3, "result": {"content": []}})
        ),
    );
    p.ok(op);
}

#[test]
fn cancel_sends_notifications_cancelled_with_the_request_id() {
    let st = Rc::new(RefCell::new(Legacy::default()));
    let inner = legacy_server(st);
    let mut inner = inner;
    let server = move |req: &HttpRequest| {
        if method_of(req) == "tools/call" {
            Reply::sse_raw(": wait\n\n").open()
        } else {
            inner(req)
        }
    };
    let mut p = Pair::new(cfg(), server);
    p.session.connect(0);
    let op = p.session.request(
        "tools/call",
        json!({"name": "slow"}),
        RequestOptions::default(),
        0,
    );
    p.pump();
    let call_id = id_of(p.last("tools/call"));
    p.session.cancel(op, 5);
    p.pump();
    assert_eq!(p.err(op), &ProtocolError::Cancelled);
    let c = p.last("notifications/cancelled");
    assert_eq!(params_of(c)["requestId"], call_id);
    assert_eq!(c.header("mcp-session-id"), Some("sess-1"));
}

#[test]
fn get_stream_delivers_notifications_and_reconnects_with_last_event_id() {
    let st = Rc::new(RefCell::new(Legacy::default()));
    st.borrow_mut().get = Some(
        Reply::sse_raw(&format!(
            "id: g1\ndata: {}\n\n",
            json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "hello"}})
        ))
        .open(),
    );
    let mut p = Pair::new(cfg(), legacy_server(st.clone()));
    p.session.connect(0);
    p.pump();
    assert!(p.events.iter().any(|e| matches!(e, Event::Notification { method, params } if method == "notifications/message" && params["data"] == "hello")));
    assert_eq!(p.session.last_event_id(), Some("g1"));
    // The server closes the stream: reconnect after a delay, resuming from g1.
    let ex = p.open[0];
    st.borrow_mut().get = Some(Reply::sse_raw(": keepalive\n\n").open());
    p.end(ex);
    p.advance(2_000);
    let get = &p
        .requests
        .iter()
        .rev()
        .find(|(_, _, r)| r.method == Method::Get)
        .unwrap()
        .2;
    assert_eq!(get.header("last-event-id"), Some("g1"));
}

#[test]
fn get_stream_gives_up_after_its_budget_without_breaking_the_session() {
    let st = Rc::new(RefCell::new(Legacy::default()));
    // 200 + an immediately empty stream, forever.
    st.borrow_mut().get = Some(Reply::sse_raw(""));
    let mut c = cfg();
    c.reconnect.max_attempts = 4;
    let mut p = Pair::new(c, legacy_server(st));
    p.session.connect(0);
    p.pump();
    p.advance(600_000);
    let gets = p.methods().iter().filter(|m| *m == "GET").count();
    assert_eq!(gets, 5, "the first GET plus 4 reconnects");
    assert!(p
        .diagnostics()
        .iter()
        .any(|d| d.contains("gave up on the GET stream")));
    assert_eq!(p.session.poll_timeout(), None, "no timer left running");
    let l = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), p.now);
    p.pump();
    p.ok(l);
}

#[test]
fn get_stream_405_is_not_fatal() {
    let st = Rc::new(RefCell::new(Legacy::default()));
    let mut p = Pair::new(cfg(), legacy_server(st));
    let op = p.session.connect(0);
    p.pump();
    p.ok(op);
    assert!(p.session.is_connected());
    assert_eq!(p.session.poll_timeout(), None);
}

#[test]
fn close_deletes_the_session() {
    let st = Rc::new(RefCell::new(Legacy::default()));
    let mut p = Pair::new(cfg(), legacy_server(st));
    p.session.connect(0);
    p.pump();
    let c = p.session.close(0);
    p.pump();
    p.ok(c);
    let d = p.last("DELETE");
    assert_eq!(d.header("mcp-session-id"), Some("sess-1"));
    assert!(p.session.is_closed());
}

#[test]
fn close_waits_for_an_unanswered_delete_no_longer_than_a_request() {
    let st = Rc::new(RefCell::new(Legacy {
        hold_delete: true,
        ..Legacy::default()
    }));
    let mut p = Pair::new(cfg(), legacy_server(st));
    p.session.connect(0);
    p.pump();
    let c = p.session.close(p.now);
    p.pump();
    assert!(p.completed(c).is_none(), "the DELETE is in flight");
    assert!(p.session.is_closed());
    // The request timeout (60 s by default) ends the wait: closed, with a diagnostic.
    p.advance(59_000);
    assert!(p.completed(c).is_none());
    p.advance(2_000);
    assert_eq!(p.ok(c), &serde_json::Value::Null);
    assert!(
        p.events.iter().any(
            |e| matches!(e, Event::Diagnostic { message } if message.contains("DELETE within 60000 ms"))
        ),
        "{:?}",
        p.events
    );
    assert_eq!(p.session.poll_timeout(), None);
}

#[test]
fn progress_on_the_legacy_post_stream_reaches_the_op() {
    let server = |req: &HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::status(400, ""),
            "initialize" => Reply::result(&id, init_result()),
            "notifications/initialized" => Reply::accepted(),
            "tools/call" => {
                let token = params_of(req)["_meta"]["progressToken"].clone();
                Reply::sse(&[
                    json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": token, "progress": 1, "total": 2, "message": "half"}}),
                    json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": token, "progress": 2, "total": 2}}),
                    json!({"jsonrpc": "2.0", "id": id, "result": {"content": []}}),
                ])
            }
            _ => Reply::status(405, ""),
        }
    };
    let mut p = Pair::new(cfg(), server);
    p.session.connect(0);
    let op = p.session.request(
        "tools/call",
        json!({"name": "x"}),
        RequestOptions {
            progress: true,
            ..Default::default()
        },
        0,
    );
    p.pump();
    p.ok(op);
    let progress: Vec<(f64, Option<String>)> = p
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Progress {
                op: o,
                progress,
                message,
                ..
            } if *o == op => Some((*progress, message.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(progress, vec![(1.0, Some("half".into())), (2.0, None)]);
}

#[test]
fn restore_resumes_the_session_and_the_get_stream_from_last_event_id() {
    let st = Rc::new(RefCell::new(Legacy::default()));
    st.borrow_mut().get = Some(
        Reply::sse_raw(&format!(
            "id: ev-9\ndata: {}\n\n",
            json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {}})
        ))
        .open(),
    );
    let mut p = Pair::new(cfg(), legacy_server(st.clone()));
    p.session.connect(0);
    p.pump();
    let snap =
        serde_json::from_str(&serde_json::to_string(&p.session.snapshot(0)).unwrap()).unwrap();
    let mut q = Pair::new(cfg(), legacy_server(st));
    q.session = mcp_edge::proto::session::Session::restore(cfg(), snap, 0).unwrap();
    q.pump();
    let get = q.last("GET");
    assert_eq!(get.header("last-event-id"), Some("ev-9"));
    assert_eq!(get.header("mcp-session-id"), Some("sess-1"));
    let op = q.session.request(
        "tools/call",
        json!({"name": "echo"}),
        RequestOptions::default(),
        0,
    );
    q.pump();
    q.ok(op);
    assert_eq!(
        q.last("tools/call").header("mcp-session-id"),
        Some("sess-1")
    );
    assert!(!q.methods().contains(&"initialize".to_string()));
}

#[test]
fn a_server_request_on_a_post_stream_belongs_to_its_op_and_pauses_its_timeout() {
    let server = |req: &HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::status(400, ""),
            "initialize" => Reply::result(&id, init_result()).header("mcp-session-id", "s"),
            "notifications/initialized" | "<response>" => Reply::accepted(),
            "tools/call" => Reply::sse(&[json!({"jsonrpc": "2.0", "id": "e1", "method": "elicitation/create", "params": {"message": "?"}})]).open(),
            _ => Reply::status(405, ""),
        }
    };
    let mut c = cfg();
    c.request_timeout_ms = Some(1_000);
    let mut p = Pair::new(c, server);
    p.session.connect(0);
    let op = p.session.request(
        "tools/call",
        json!({"name": "ask"}),
        RequestOptions::default(),
        0,
    );
    p.pump();
    let input = p.events.iter().find_map(|e| match e {
        Event::InputRequest {
            input, op: Some(o), ..
        } if *o == op => Some(*input),
        _ => None,
    });
    let input = input.expect("the input names its op");
    p.advance(10_000);
    assert!(
        p.completed(op).is_none(),
        "no inactivity timeout while the user answers"
    );
    p.session
        .answer_input(input, Ok(json!({"action": "decline"})), p.now)
        .unwrap();
    p.pump();
    p.advance(1_000);
    assert!(
        matches!(p.err(op), ProtocolError::Timeout { .. }),
        "the timeout runs again after the answer"
    );
}

#[test]
fn a_notification_answered_with_200_and_a_body_counts_as_accepted() {
    // MCP 2025-11-25 `basic/transports` says the server MUST answer an accepted notification with
    // 202 and no body; some servers answer 200 with a JSON body (the conformance suite's
    // `initialize` mock sends `{"jsonrpc":"2.0","result":{}}`, which has no id). Any 2xx accepts
    // the notification; the body is not a response to anything and must not fail the connect.
    let server = |req: &HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "initialize" => Reply::result(&id, init_result()),
            "notifications/initialized" => Reply::json(json!({"jsonrpc": "2.0", "result": {}})),
            "<response>" => Reply::sse_raw(": nothing to say\n\n"),
            "tools/list" => Reply::result(&id, json!({"tools": []})),
            "tools/call" => Reply::sse(&[
                json!({"jsonrpc": "2.0", "id": "srv-1", "method": "ping"}),
                json!({"jsonrpc": "2.0", "id": id, "result": {"content": []}}),
            ]),
            _ => Reply::status(405, ""),
        }
    };
    let mut c = cfg();
    c.protocol = ProtocolChoice::Exact("2025-11-25".into());
    let mut p = Pair::new(c, server);
    let op = p.session.connect(0);
    p.pump();
    assert_eq!(p.ok(op)["protocolVersion"], "2025-11-25");
    assert!(p
        .diagnostics()
        .iter()
        .any(|d| d.contains("notification") && d.contains("200")));
    let list = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), 0);
    p.pump();
    assert_eq!(p.ok(list)["tools"], json!([]));
    // A reply to a server request answered with a 200 event stream is accepted the same way.
    let call = p.session.request(
        "tools/call",
        json!({"name": "x"}),
        RequestOptions::default(),
        0,
    );
    p.pump();
    p.ok(call);
    assert!(p.methods().contains(&"<response>".to_string()));
}

/// A 2025 session whose server answers a `tools/call` with 100 server requests (`request(i)`)
/// on the call's stream, accepting the client's answers, or never (`hold_answers`); the pair
/// after the call's stream was read, and how many answers the client POSTed.
fn flooded(
    request: impl Fn(usize) -> serde_json::Value,
    hold_answers: bool,
) -> (Pair<impl FnMut(&HttpRequest) -> Reply>, usize) {
    let server = move |req: &HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::status(400, ""),
            "initialize" => Reply::result(&id, init_result()).header("mcp-session-id", "s"),
            "<response>" if hold_answers => Reply::accepted().held(),
            "notifications/initialized" | "<response>" => Reply::accepted(),
            "tools/call" => Reply::sse(&(0..100).map(&request).collect::<Vec<_>>()).open(),
            _ => Reply::status(405, ""),
        }
    };
    let mut p = Pair::new(cfg(), server);
    connect_and_call(&mut p);
    let answers = p
        .requests
        .iter()
        .filter(|(_, _, r)| method_of(r) == "<response>")
        .count();
    (p, answers)
}

#[test]
fn a_server_flooding_requests_gets_errors_beyond_the_bound() {
    let (p, refused) = flooded(
        |i| json!({"jsonrpc": "2.0", "id": format!("e{i}"), "method": "elicitation/create", "params": {"message": "?"}}),
        false,
    );
    let surfaced = p
        .events
        .iter()
        .filter(|e| matches!(e, Event::InputRequest { .. }))
        .count();
    assert_eq!(surfaced, mcp_edge::proto::session::MAX_OPEN_INPUTS);
    assert_eq!(refused, 100 - mcp_edge::proto::session::MAX_OPEN_INPUTS);
    assert_eq!(body(p.last("<response>")).unwrap()["error"]["code"], -32603);
}

#[test]
fn a_server_flooding_pings_and_never_taking_the_answers_gets_at_most_64_of_them() {
    // Each ping is answered with a POST (MCP `basic/utilities/ping`); a server that never accepts
    // those POSTs while it keeps pinging would otherwise have the client open one per ping.
    let (p, answers) = flooded(
        |i| json!({"jsonrpc": "2.0", "id": format!("p{i}"), "method": "ping"}),
        true,
    );
    assert_eq!(answers, 64);
    assert_eq!(
        p.diagnostics()
            .iter()
            .filter(|d| d.contains("did not answer a server request"))
            .count(),
        36
    );
}

// Runs in the runtime `wasm-pack test` asks for (see tests/wasm-test-mode).
mcp_edge_wasm_test_mode::configure!();
