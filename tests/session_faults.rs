//! Session behaviour under faults, on virtual time against deterministic fake servers of both
//! eras: no duplicated executions after a broken stream, progress of a re-issued attempt,
//! oversized events, timeouts that tell the server, `Retry-After`, repeated cursors and names.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

mod support;

use mcp_edge::proto::http::HttpRequest;
use mcp_edge::proto::session::{
    Event, ListKind, ProtocolChoice, ProtocolError, RequestOptions, SessionConfig,
};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;
use support::*;

fn cfg() -> SessionConfig {
    let mut c = SessionConfig::new("http://127.0.0.1:1/mcp");
    c.client_info = json!({"name": "t", "version": "0"});
    c
}

/// A 2025-11-25 `InitializeResult`.
fn init_reply(id: &Value) -> Reply {
    Reply::result(
        id,
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}),
    )
}

fn legacy_cfg() -> SessionConfig {
    let mut c = cfg();
    c.protocol = ProtocolChoice::Exact("2025-11-25".into());
    c.open_get_stream = false;
    c
}

/// The tools of the fake servers: `charge` has side effects (no hints), `lookup` is read-only,
/// `upsert` idempotent.
fn tools() -> Value {
    json!({"tools": [
        {"name": "charge", "inputSchema": {"type": "object"}},
        {"name": "lookup", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}},
        {"name": "upsert", "inputSchema": {"type": "object"},
         "annotations": {"idempotentHint": true, "destructiveHint": false}},
    ]})
}

fn progress_event(token: &Value, n: u32) -> String {
    format!(
        "data: {}\n\n",
        json!({"jsonrpc": "2.0", "method": "notifications/progress",
               "params": {"progressToken": token, "progress": n}})
    )
}

fn result_event(id: &Value) -> String {
    format!(
        "data: {}\n\n",
        json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": "done"}]}})
    )
}

/// A 2026 server whose first `tools/call` of each tool sends progress 1 and 2, then breaks; later
/// calls send progress 1..3 and the result. Counts the calls per tool name.
fn breaking_server(calls: Rc<RefCell<Vec<String>>>) -> impl FnMut(&HttpRequest) -> Reply {
    move |req: &HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::result(&id, discover_result()),
            "tools/list" => Reply::result(&id, tools()),
            "tools/call" => {
                let p = params_of(req);
                let name = p["name"].as_str().unwrap_or_default().to_string();
                let token = p["_meta"]["progressToken"].clone();
                let first = !calls.borrow().contains(&name);
                calls.borrow_mut().push(name);
                if first {
                    let text = progress_event(&token, 1) + &progress_event(&token, 2);
                    Reply::sse_raw(&text).broken()
                } else {
                    let text: String = (1..=3).map(|n| progress_event(&token, n)).collect();
                    Reply::sse_raw(&(text + &result_event(&id)))
                }
            }
            other => Reply::error(404, &id, -32601, &format!("no {other}"), None),
        }
    }
}

fn call(
    p: &mut Pair<impl FnMut(&HttpRequest) -> Reply>,
    name: &str,
    idempotent: bool,
) -> mcp_edge::proto::session::OpId {
    let op = p.session.request(
        "tools/call",
        json!({"name": name, "arguments": {}}),
        RequestOptions {
            progress: true,
            idempotent,
            ..Default::default()
        },
        p.now,
    );
    p.pump();
    op
}

fn progress_of(
    p: &Pair<impl FnMut(&HttpRequest) -> Reply>,
    op: mcp_edge::proto::session::OpId,
) -> Vec<f64> {
    p.events
        .iter()
        .filter_map(|e| match e {
            Event::Progress {
                op: o, progress, ..
            } if *o == op => Some(*progress),
            _ => None,
        })
        .collect()
}

// ---- 1. no duplicated executions --------------------------------------------------------------

#[test]
fn a_tool_call_with_side_effects_is_not_sent_again_after_its_stream_breaks() {
    let calls = Rc::new(RefCell::new(Vec::new()));
    let mut p = Pair::new(cfg(), breaking_server(calls.clone()));
    p.session.connect(0);
    let op = call(&mut p, "charge", false);
    let e = p.err(op).clone();
    assert_eq!(
        e,
        ProtocolError::StreamDropped {
            attempts: 0,
            may_have_run: true
        }
    );
    assert_eq!(e.code(), "STREAM_DROPPED");
    assert!(e.to_string().contains("may have run"), "{e}");
    assert_eq!(*calls.borrow(), ["charge"], "sent exactly once");
}

#[test]
fn tools_annotated_idempotent_or_read_only_are_reissued_with_a_new_id() {
    for tool in ["lookup", "upsert"] {
        let calls = Rc::new(RefCell::new(Vec::new()));
        let mut p = Pair::new(cfg(), breaking_server(calls.clone()));
        p.session.connect(0);
        let op = call(&mut p, tool, false);
        assert_eq!(p.ok(op)["content"][0]["text"], "done", "{tool}");
        let ids: Vec<Value> = p
            .requests
            .iter()
            .filter(|(_, _, r)| method_of(r) == "tools/call")
            .map(|(_, _, r)| id_of(r))
            .collect();
        assert_eq!(ids.len(), 2, "{tool}");
        assert_ne!(ids[0], ids[1]);
    }
}

#[test]
fn a_tool_whose_hint_is_gone_from_a_later_list_is_not_sent_again() {
    let calls = Rc::new(RefCell::new(Vec::new()));
    let lists = Rc::new(RefCell::new(0));
    let mut inner = breaking_server(calls.clone());
    let seen = lists.clone();
    let server = move |req: &HttpRequest| {
        if method_of(req) == "tools/list" {
            *seen.borrow_mut() += 1;
            if *seen.borrow() > 1 {
                // The server changed the tool: no longer read-only.
                let tools =
                    json!({"tools": [{"name": "lookup", "inputSchema": {"type": "object"}}]});
                return Reply::result(&id_of(req), tools);
            }
        }
        inner(req)
    };
    let mut p = Pair::new(cfg(), server);
    p.session.connect(0);
    for _ in 0..2 {
        let op = p
            .session
            .list_all(ListKind::Tools, RequestOptions::default(), p.now);
        p.pump();
        p.ok(op);
    }
    assert_eq!(*lists.borrow(), 2);
    let op = call(&mut p, "lookup", false);
    assert!(
        matches!(p.err(op), ProtocolError::StreamDropped { .. }),
        "{:?}",
        p.err(op)
    );
    assert_eq!(*calls.borrow(), ["lookup"], "sent exactly once");
}

#[test]
fn the_caller_may_declare_a_call_idempotent() {
    let calls = Rc::new(RefCell::new(Vec::new()));
    let mut p = Pair::new(cfg(), breaking_server(calls.clone()));
    p.session.connect(0);
    let op = call(&mut p, "charge", true);
    p.ok(op);
    assert_eq!(*calls.borrow(), ["charge", "charge"]);
}

#[test]
fn progress_of_a_reissued_attempt_reaches_the_caller() {
    let calls = Rc::new(RefCell::new(Vec::new()));
    let mut p = Pair::new(cfg(), breaking_server(calls));
    p.session.connect(0);
    let op = call(&mut p, "upsert", false);
    p.ok(op);
    // The first attempt's 1, 2, then the new attempt's own 1, 2, 3.
    assert_eq!(progress_of(&p, op), [1.0, 2.0, 1.0, 2.0, 3.0]);
}

#[test]
fn requests_that_execute_nothing_are_reissued_and_a_second_break_fails_typed() {
    let sent = Rc::new(RefCell::new(0));
    let s2 = sent.clone();
    let server = move |req: &HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::result(&id, discover_result()),
            _ => {
                *s2.borrow_mut() += 1;
                Reply::sse_raw(": partial\n\n").broken()
            }
        }
    };
    let mut p = Pair::new(cfg(), server);
    p.session.connect(0);
    let read = p.session.request(
        "resources/read",
        json!({"uri": "file:///a"}),
        RequestOptions::default(),
        0,
    );
    let list = p
        .session
        .list_all(ListKind::Prompts, RequestOptions::default(), 0);
    p.pump();
    for op in [read, list] {
        assert_eq!(
            p.err(op),
            &ProtocolError::StreamDropped {
                attempts: 1,
                may_have_run: false
            }
        );
    }
    assert_eq!(*sent.borrow(), 4, "each sent twice");
}

#[test]
fn a_2025_stream_without_event_ids_reissues_only_what_is_safe_to_repeat() {
    let calls = Rc::new(RefCell::new(Vec::new()));
    let mut p = Pair::new(legacy_cfg(), legacy_breaking_server(calls.clone()));
    p.session.connect(0);
    // The annotations come from the tool list (hosts list tools before calling them).
    p.session
        .list_all(ListKind::Tools, RequestOptions::default(), 0);
    p.pump();
    let charge = call(&mut p, "charge", false);
    let upsert = call(&mut p, "upsert", false);
    p.advance(60_000);
    assert_eq!(
        p.err(charge),
        &ProtocolError::StreamDropped {
            attempts: 0,
            may_have_run: true
        }
    );
    assert_eq!(p.ok(upsert)["content"][0]["text"], "done");
    assert_eq!(*calls.borrow(), ["charge", "upsert", "upsert"]);
    assert_eq!(progress_of(&p, upsert), [1.0, 2.0, 1.0, 2.0, 3.0]);
}

/// `breaking_server` in the 2025 era: initialize, then tool calls on event streams without ids.
fn legacy_breaking_server(calls: Rc<RefCell<Vec<String>>>) -> impl FnMut(&HttpRequest) -> Reply {
    let mut modern = breaking_server(calls);
    move |req: &HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "initialize" => init_reply(&id).header("Mcp-Session-Id", "s1"),
            "notifications/initialized" => Reply::accepted(),
            _ => modern(req),
        }
    }
}

#[test]
fn a_2025_tool_call_without_event_ids_is_not_sent_again() {
    let posts = Rc::new(RefCell::new(0));
    let p2 = posts.clone();
    let server = move |req: &HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "initialize" => init_reply(&id).header("Mcp-Session-Id", "s1"),
            "notifications/initialized" => Reply::accepted(),
            "tools/list" => Reply::result(&id, tools()),
            _ => {
                *p2.borrow_mut() += 1;
                Reply::sse_raw(": working\n\n").broken()
            }
        }
    };
    let mut p = Pair::new(legacy_cfg(), server);
    p.session.connect(0);
    let op = call(&mut p, "charge", false);
    p.advance(60_000);
    assert_eq!(
        p.err(op),
        &ProtocolError::StreamDropped {
            attempts: 0,
            may_have_run: true
        }
    );
    assert_eq!(*posts.borrow(), 1);
}

/// A 2025 server whose first session, s1, has ended: its tool calls get 404 with a body that
/// ends when the test says so. Later sessions work; `held` holds back the answer to that
/// `initialize` (counting from 1) until the test releases it.
fn expiring_server(inits: Rc<RefCell<u32>>, held: u32) -> impl FnMut(&HttpRequest) -> Reply {
    move |req: &HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "initialize" => {
                *inits.borrow_mut() += 1;
                let n = *inits.borrow();
                let r = init_reply(&id).header("Mcp-Session-Id", &format!("s{n}"));
                if n == held {
                    r.held()
                } else {
                    r
                }
            }
            "notifications/initialized" => Reply::accepted(),
            _ if req.header("mcp-session-id") == Some("s1") => {
                Reply::error(404, &json!(null), -32001, "Session not found", None).open()
            }
            _ => Reply::result(&id, json!({"content": [{"type": "text", "text": "done"}]})),
        }
    }
}

#[test]
fn a_404_for_a_request_of_a_replaced_session_replays_it_without_another_initialize() {
    let inits = Rc::new(RefCell::new(0));
    let mut p = Pair::new(legacy_cfg(), expiring_server(inits.clone(), 0));
    p.session.connect(0);
    let a = call(&mut p, "charge", false);
    let b = call(&mut p, "charge", false);
    let (ea, eb) = (p.open[0], p.open[1]);
    p.end(ea); // a's 404: a new session, a replayed in it
    p.ok(a);
    p.end(eb); // b's 404 is about s1, which is already replaced
    p.ok(b);
    assert_eq!(*inits.borrow(), 2, "one re-initialization for both");
    assert_eq!(p.session.session_id(), Some("s2"));
}

#[test]
fn requests_whose_session_ended_during_the_reinitialization_wait_for_it() {
    let inits = Rc::new(RefCell::new(0));
    let mut p = Pair::new(legacy_cfg(), expiring_server(inits.clone(), 2));
    p.session.connect(0);
    let a = call(&mut p, "charge", false);
    let b = call(&mut p, "charge", false);
    let (ea, eb) = (p.open[0], p.open[1]);
    p.end(ea); // a's 404 starts a new session; its initialize is not answered yet
    p.end(eb); // b's 404 arrives meanwhile
    assert!(p.completed(b).is_none(), "b waits for the new session");
    let init = p.held[0].0;
    p.release(init);
    p.ok(a);
    p.ok(b);
    assert_eq!(*inits.borrow(), 2);
}

#[test]
fn a_retry_that_falls_due_during_a_reinitialization_waits_for_the_new_session() {
    let inits = Rc::new(RefCell::new(0));
    let mut expiring = expiring_server(inits.clone(), 2);
    let mut throttled = false;
    // The first call is refused once with Retry-After; the others go to the ended session s1.
    let server = move |req: &HttpRequest| {
        if method_of(req) == "tools/call" && params_of(req)["arguments"]["n"] == 1 && !throttled {
            throttled = true;
            return Reply::status(429, "slow down").header("Retry-After", "1");
        }
        expiring(req)
    };
    let mut p = Pair::new(legacy_cfg(), server);
    p.session.connect(0);
    let start = |p: &mut Pair<_>, n: u32| {
        let op = p.session.request(
            "tools/call",
            json!({"name": "charge", "arguments": {"n": n}}),
            RequestOptions::default(),
            p.now,
        );
        p.pump();
        op
    };
    let a = start(&mut p, 1);
    let b = start(&mut p, 2);
    let eb = p.open[0];
    p.end(eb); // b's 404: a new session, whose initialize is not answered yet
    p.advance(1000); // a's retry falls due now
    let init = p.held[0].0;
    p.release(init);
    p.ok(a);
    p.ok(b);
    let sessions: Vec<Option<&str>> = p
        .requests
        .iter()
        .filter(|(_, _, r)| method_of(r) == "tools/call")
        .map(|(_, _, r)| r.header("mcp-session-id"))
        .collect();
    assert!(sessions.iter().all(Option::is_some), "{sessions:?}");
}

// ---- 2. oversized events ----------------------------------------------------------------------

#[test]
fn an_oversized_event_ends_the_request_at_once_and_is_never_reissued() {
    let mut c = cfg();
    c.sse.max_event_bytes = 1024;
    c.sse.max_line_bytes = 1100;
    let server = |req: &HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::result(&id, discover_result()),
            // A request that would otherwise be re-issued; the stream stays open.
            _ => Reply::sse_raw(&format!("data: {}", "x".repeat(1500))).open(),
        }
    };
    let mut p = Pair::new(c, server);
    p.session.connect(0);
    let op = p.session.request(
        "prompts/get",
        json!({"name": "p"}),
        RequestOptions::default(),
        0,
    );
    p.pump();
    assert_eq!(p.err(op), &ProtocolError::EventTooLarge { limit: 1024 });
    assert_eq!(p.err(op).code(), "EVENT_TOO_LARGE");
    let ex = p.requests.last().unwrap().0;
    assert!(p.aborted.contains(&ex), "the body is no longer read");
    assert!(p.open.is_empty());
    assert_eq!(p.methods(), ["server/discover", "prompts/get"]);
}

#[test]
fn an_overlong_line_is_the_same_error() {
    let mut c = legacy_cfg();
    c.sse.max_line_bytes = 256;
    let server = |req: &HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "initialize" => init_reply(&id),
            "notifications/initialized" => Reply::accepted(),
            _ => Reply::sse_raw(&format!("id: {}\n", "7".repeat(300))).open(),
        }
    };
    let mut p = Pair::new(c, server);
    p.session.connect(0);
    let op = p
        .session
        .request("ping", json!({}), RequestOptions::default(), 0);
    p.pump();
    assert_eq!(p.err(op), &ProtocolError::EventTooLarge { limit: 256 });
    assert!(p.open.is_empty());
}

// ---- 3. timeouts tell the server ----------------------------------------------------------------

#[test]
fn a_timed_out_2025_request_sends_notifications_cancelled() {
    let mut c = legacy_cfg();
    c.request_timeout_ms = Some(1000);
    let server = |req: &HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "initialize" => init_reply(&id),
            "notifications/initialized" | "notifications/cancelled" => Reply::accepted(),
            _ => Reply::sse_raw(": working\n\n").open(),
        }
    };
    let mut p = Pair::new(c, server);
    p.session.connect(0);
    let op = call(&mut p, "charge", false);
    let (ex, _, req) = p.requests.last().unwrap().clone();
    p.advance(1000);
    assert_eq!(
        p.err(op),
        &ProtocolError::Timeout {
            after_ms: 1000,
            total: false
        }
    );
    let cancel = p.last("notifications/cancelled");
    assert_eq!(params_of(cancel)["requestId"], id_of(&req));
    assert!(params_of(cancel)["reason"]
        .as_str()
        .unwrap()
        .contains("timed out"));
    assert!(p.aborted.contains(&ex), "its stream is closed too");
}

#[test]
fn a_timed_out_2026_request_closes_its_stream_and_sends_nothing_else() {
    let mut c = cfg();
    c.request_timeout_ms = Some(1000);
    let server = |req: &HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::result(&id, discover_result()),
            "tools/list" => Reply::result(&id, tools()),
            _ => Reply::sse_raw(": working\n\n").open(),
        }
    };
    let mut p = Pair::new(c, server);
    p.session.connect(0);
    let op = call(&mut p, "charge", false);
    let ex = p.requests.last().unwrap().0;
    p.advance(1000);
    assert!(matches!(p.err(op), ProtocolError::Timeout { .. }));
    assert!(p.aborted.contains(&ex));
    assert_eq!(p.methods(), ["server/discover", "tools/list", "tools/call"]);
}

// ---- 4. Retry-After ---------------------------------------------------------------------------

/// A 2026 server that refuses the first `refusals` tool calls with `status` and `retry_after`.
fn throttling_server(
    refusals: usize,
    status: u16,
    retry_after: &'static str,
    date: Option<&'static str>,
) -> impl FnMut(&HttpRequest) -> Reply {
    let mut refused = 0;
    move |req: &HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::result(&id, discover_result()),
            "tools/list" => Reply::result(&id, tools()),
            _ if refused < refusals => {
                refused += 1;
                // A JSON-RPC error body does not make it an RPC error: the status decides.
                let mut r = Reply::error(status, &json!(null), -32000, "slow down", None)
                    .header("Retry-After", retry_after);
                if let Some(d) = date {
                    r = r.header("Date", d);
                }
                r
            }
            _ => Reply::result(&id, json!({"content": []})),
        }
    }
}

fn tool_calls(p: &Pair<impl FnMut(&HttpRequest) -> Reply>) -> Vec<u64> {
    p.requests
        .iter()
        .filter(|(_, _, r)| method_of(r) == "tools/call")
        .map(|(_, at, _)| *at)
        .collect()
}

#[test]
fn a_tool_call_refused_with_429_is_sent_again_after_retry_after_seconds() {
    let mut p = Pair::new(cfg(), throttling_server(2, 429, "2", None));
    p.session.connect(0);
    let op = call(&mut p, "charge", false);
    p.advance(1999);
    assert_eq!(tool_calls(&p), [0]);
    p.advance(1);
    assert_eq!(tool_calls(&p), [0, 2000]);
    p.advance(2000);
    assert_eq!(tool_calls(&p), [0, 2000, 4000]);
    p.ok(op);
}

#[test]
fn an_http_date_is_measured_against_the_date_header_or_the_wall_clock() {
    let date = "Sun, 06 Nov 1994 08:49:37 GMT";
    let later = "Sun, 06 Nov 1994 08:49:40 GMT";
    let mut p = Pair::new(cfg(), throttling_server(1, 503, later, Some(date)));
    p.session.connect(0);
    let op = call(&mut p, "charge", false);
    p.advance(10_000);
    p.ok(op);
    assert_eq!(tool_calls(&p), [0, 3000]);

    // No Date header: the wall clock the driver passed in (08:49:38.500 at session time 0).
    let mut p = Pair::new(cfg(), throttling_server(1, 503, later, None));
    p.session.set_wall_clock(784_111_778_500, 0);
    p.session.connect(0);
    let op = call(&mut p, "charge", false);
    p.advance(10_000);
    p.ok(op);
    assert_eq!(tool_calls(&p), [0, 1500]);
}

#[test]
fn retries_are_bounded_and_the_last_error_carries_status_body_and_delay() {
    let mut p = Pair::new(cfg(), throttling_server(usize::MAX, 429, "1", None));
    p.session.connect(0);
    let op = call(&mut p, "charge", false);
    p.advance(30_000);
    assert_eq!(tool_calls(&p), [0, 1000, 2000, 3000], "three retries");
    match p.err(op) {
        ProtocolError::HttpStatus {
            status: 429,
            body,
            retry_after_ms: Some(1000),
            body_length: None,
        } => assert!(body.contains("slow down"), "{body}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_delay_past_the_deadline_fails_at_once() {
    let mut c = cfg();
    c.request_timeout_ms = Some(5000);
    let mut p = Pair::new(c, throttling_server(1, 503, "6", None));
    p.session.connect(0);
    let op = call(&mut p, "charge", false);
    assert_eq!(
        p.err(op),
        &ProtocolError::HttpStatus {
            status: 503,
            body: r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"slow down"}}"#
                .into(),
            retry_after_ms: Some(6000),
            body_length: None,
        }
    );
    assert_eq!(tool_calls(&p), [0]);
}

#[test]
fn without_retry_after_a_429_is_final_and_does_not_look_like_a_legacy_server() {
    let server = |_: &HttpRequest| Reply::status(429, "busy");
    let mut p = Pair::new(cfg(), server);
    let op = p.session.connect(0);
    p.pump();
    assert_eq!(
        p.err(op),
        &ProtocolError::HttpStatus {
            status: 429,
            body: "busy".into(),
            retry_after_ms: None,
            body_length: None,
        }
    );
    assert_eq!(
        p.methods(),
        ["server/discover"],
        "no fall back to initialize"
    );
}

/// An HTTP error body longer than what is kept says it was cut, with the length the server sent.
#[test]
fn a_cut_http_error_body_says_so_with_its_length() {
    let long = "x".repeat(100_000);
    let server = move |_: &HttpRequest| Reply::status(500, &long);
    let mut p = Pair::new(cfg(), server);
    let op = p.session.connect(0);
    p.pump();
    match p.err(op) {
        ProtocolError::HttpStatus {
            status: 500,
            body,
            body_length: Some(100_000),
            ..
        } => assert_eq!(body.len(), 4096),
        other => panic!("{other:?}"),
    }
    assert!(p
        .err(op)
        .to_string()
        .contains("the server sent 100000 bytes"));
}

#[test]
fn a_connect_refused_with_503_and_retry_after_is_retried() {
    let mut refused = false;
    let server = move |req: &HttpRequest| {
        let id = id_of(req);
        if !refused {
            refused = true;
            return Reply::status(503, "starting").header("Retry-After", "1");
        }
        Reply::result(&id, discover_result())
    };
    let mut p = Pair::new(cfg(), server);
    let op = p.session.connect(0);
    p.pump();
    assert!(p.completed(op).is_none());
    p.advance(1000);
    assert_eq!(p.ok(op)["era"], "modern");
    assert_eq!(p.methods(), ["server/discover", "server/discover"]);
}

// ---- 5. repeated cursors and names -----------------------------------------------------------------

#[test]
fn a_server_that_ignores_the_cursor_never_yields_a_tool_twice() {
    let server = |req: &HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::result(&id, discover_result()),
            // Whatever the cursor: the first page again, pointing at "p2".
            _ => Reply::result(
                &id,
                tools_page(
                    json!([{"name": "a", "inputSchema": {}}, {"name": "b", "inputSchema": {}}]),
                    Some("p2"),
                ),
            ),
        }
    };
    let mut p = Pair::new(cfg(), server);
    p.session.connect(0);
    let op = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), 0);
    p.pump();
    assert_eq!(members(p.ok(op), "tools", "name"), ["a", "b"]);
    let d = p.diagnostics().join("\n");
    assert!(d.contains("repeated cursor \"p2\""), "{d}");
    assert!(
        d.contains("repeated 2 item(s) already listed (a, b)"),
        "{d}"
    );
}

#[test]
fn duplicate_names_within_a_listing_are_reported_and_dropped() {
    let server = |req: &HttpRequest| {
        let id = id_of(req);
        let cursor = params_of(req)["cursor"].as_str().map(str::to_string);
        match (method_of(req).as_str(), cursor.as_deref()) {
            ("server/discover", _) => Reply::result(&id, discover_result()),
            ("resources/list", None) => Reply::result(
                &id,
                json!({"resources": [{"uri": "u:1", "name": "one"}, {"uri": "u:1", "name": "again"},
                                     {"uri": "u:2", "name": "two"}], "nextCursor": "c2"}),
            ),
            ("resources/list", Some("c2")) => Reply::result(
                &id,
                json!({"resources": [{"uri": "u:2", "name": "two"}, {"uri": "u:3", "name": "three"}],
                       "nextCursor": "c3"}),
            ),
            // A cursor that comes back later also ends the paging.
            ("resources/list", Some(_)) => Reply::result(
                &id,
                json!({"resources": [{"uri": "u:4", "name": "four"}], "nextCursor": "c2"}),
            ),
            _ => Reply::status(404, ""),
        }
    };
    let mut p = Pair::new(cfg(), server);
    p.session.connect(0);
    let op = p
        .session
        .list_all(ListKind::Resources, RequestOptions::default(), 0);
    p.pump();
    assert_eq!(
        members(p.ok(op), "resources", "uri"),
        ["u:1", "u:2", "u:3", "u:4"]
    );
    let names = members(p.ok(op), "resources", "name");
    assert_eq!(names[0], "one", "the first occurrence is kept");
    let d = p.diagnostics().join("\n");
    assert!(
        d.contains("page 1 repeated 1 item(s) already listed (u:1)"),
        "{d}"
    );
    assert!(
        d.contains("page 2 repeated 1 item(s) already listed (u:2)"),
        "{d}"
    );
    assert!(
        d.contains("repeated cursor \"c2\"; stopped after 3 pages"),
        "{d}"
    );
}

// Runs in the runtime `wasm-pack test` asks for (see tests/wasm-test-mode).
mcp_edge_wasm_test_mode::configure!();
