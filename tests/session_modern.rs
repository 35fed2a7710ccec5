//! Session tests for the 2026-07-28 era against a deterministic fake server on virtual time.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

mod support;

use mcp_edge::proto::http::Method;
use mcp_edge::proto::session::{
    Era, Event, ListKind, ProtocolChoice, ProtocolError, RequestOptions, SessionConfig,
};
use serde_json::{json, Value};
use support::*;

fn cfg() -> SessionConfig {
    let mut c = SessionConfig::new("http://127.0.0.1:1/mcp");
    c.client_info = json!({"name": "t", "version": "0"});
    c
}

fn header<'a>(r: &'a mcp_edge::proto::http::HttpRequest, k: &str) -> Option<&'a str> {
    r.header(k)
}

/// A well-behaved 2026 server with a few tools, including header-designated ones.
fn modern_server(req: &mcp_edge::proto::http::HttpRequest) -> Reply {
    let id = id_of(req);
    match method_of(req).as_str() {
        "server/discover" => Reply::result(&id, discover_result()),
        "tools/list" => Reply::result(
            &id,
            json!({"tools": [
                {"name": "add", "inputSchema": {"type": "object", "properties": {"a": {"type": "integer"}}}},
                {"name": "region_query", "inputSchema": {"type": "object", "properties": {
                    "region": {"type": "string", "x-mcp-header": "Region"},
                    "limit": {"type": "integer", "x-mcp-header": "Limit"}}}},
                {"name": "bad", "inputSchema": {"type": "object", "properties": {
                    "x": {"type": "number", "x-mcp-header": "X"}}}}
            ], "ttlMs": 1000}),
        ),
        "tools/call" => Reply::result(&id, json!({"content": [{"type": "text", "text": "ok"}]})),
        other => Reply::error(404, &id, -32601, &format!("no {other}"), None),
    }
}

#[test]
fn auto_connect_discovers_a_modern_server_with_meta_and_headers() {
    let mut p = Pair::new(cfg(), modern_server);
    let op = p.session.connect(0);
    p.pump();
    let info = p.ok(op);
    assert_eq!(info["era"], "modern");
    assert_eq!(info["serverInfo"]["name"], "fake");
    assert_eq!(p.session.era(), Some(Era::Modern));
    assert!(
        matches!(&p.events[0], Event::Connected(i) if i.instructions.as_deref() == Some("be nice"))
    );
    let r = p.last("server/discover");
    assert_eq!(r.method, Method::Post);
    assert_eq!(header(r, "mcp-protocol-version"), Some("2026-07-28"));
    assert_eq!(header(r, "mcp-method"), Some("server/discover"));
    assert!(header(r, "accept").unwrap().contains("text/event-stream"));
    let meta = &params_of(r)["_meta"];
    assert_eq!(
        meta["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    // The Tasks extension is declared by default (MCP 2026-07-28 `basic/versioning`
    // "Extension Negotiation").
    assert_eq!(
        meta["io.modelcontextprotocol/clientCapabilities"],
        json!({"extensions": {"io.modelcontextprotocol/tasks": {}}})
    );
    assert_eq!(meta["io.modelcontextprotocol/clientInfo"]["name"], "t");
    assert_eq!(header(r, "mcp-session-id"), None);
}

#[test]
fn every_request_carries_meta_and_user_meta_is_kept() {
    let mut p = Pair::new(cfg(), modern_server);
    p.session.connect(0);
    let op = p.session.request(
        "tools/call",
        json!({"name": "add", "arguments": {"a": 1}, "_meta": {"custom": 7}}),
        RequestOptions {
            progress: true,
            ..Default::default()
        },
        0,
    );
    p.pump();
    p.ok(op);
    let r = p.last("tools/call");
    let meta = &params_of(r)["_meta"];
    assert_eq!(meta["custom"], 7);
    assert!(meta["progressToken"].is_i64());
    assert_eq!(
        meta["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    assert_eq!(header(r, "mcp-name"), Some("add"));
    assert_eq!(header(r, "mcp-method"), Some("tools/call"));
}

#[test]
fn tools_call_lists_tools_first_then_mirrors_x_mcp_header_params() {
    let mut p = Pair::new(cfg(), modern_server);
    p.session.connect(0);
    let op = p.session.request(
        "tools/call",
        json!({"name": "region_query", "arguments": {"region": "Hello, 世界", "limit": 5}}),
        RequestOptions::default(),
        0,
    );
    p.pump();
    p.ok(op);
    assert_eq!(p.methods(), ["server/discover", "tools/list", "tools/call"]);
    let r = p.last("tools/call");
    assert_eq!(
        header(r, "mcp-param-region"),
        Some("=?base64?SGVsbG8sIOS4lueVjA==?=")
    );
    assert_eq!(header(r, "mcp-param-limit"), Some("5"));
}

#[test]
fn invalid_x_mcp_header_tools_are_dropped_and_refused_locally() {
    let mut p = Pair::new(cfg(), modern_server);
    p.session.connect(0);
    let list = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), 0);
    p.pump();
    let names: Vec<&str> = p.ok(list)["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["add", "region_query"]);
    assert!(p
        .events
        .iter()
        .any(|e| matches!(e, Event::ToolRejected { name, .. } if name == "bad")));
    let sent = p.requests.len();
    let call = p.session.request(
        "tools/call",
        json!({"name": "bad", "arguments": {"x": 1.5}}),
        RequestOptions::default(),
        0,
    );
    p.pump();
    assert!(matches!(p.err(call), ProtocolError::ToolRejected { name, .. } if name == "bad"));
    assert_eq!(p.requests.len(), sent, "a rejected tool is never sent");
}

#[test]
fn list_results_are_cached_for_ttl_and_invalidated_by_list_changed() {
    let mut p = Pair::new(cfg(), modern_server);
    p.session.connect(0);
    let a = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), 0);
    p.pump();
    p.ok(a);
    p.advance(500);
    let b = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), p.now);
    p.pump();
    assert_eq!(p.ok(b), p.ok(a));
    assert_eq!(
        p.methods().iter().filter(|m| *m == "tools/list").count(),
        1,
        "served from cache"
    );
    p.advance(600);
    let c = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), p.now);
    p.pump();
    p.ok(c);
    assert_eq!(
        p.methods().iter().filter(|m| *m == "tools/list").count(),
        2,
        "expired after ttlMs"
    );
}

#[test]
fn paging_follows_cursors_and_stops_on_a_repeated_cursor() {
    let server = |req: &mcp_edge::proto::http::HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::result(&id, discover_result()),
            "tools/list" => {
                let cursor = params_of(req)["cursor"].as_str().map(str::to_string);
                match cursor.as_deref() {
                    None => Reply::result(
                        &id,
                        tools_page(json!([{"name": "a", "inputSchema": {}}]), Some("p2")),
                    ),
                    Some("p2") => Reply::result(
                        &id,
                        tools_page(json!([{"name": "b", "inputSchema": {}}]), Some("p3")),
                    ),
                    // From here the cursor never advances.
                    _ => Reply::result(
                        &id,
                        tools_page(json!([{"name": "c", "inputSchema": {}}]), Some("p3")),
                    ),
                }
            }
            _ => Reply::status(500, ""),
        }
    };
    let mut p = Pair::new(cfg(), server);
    p.session.connect(0);
    let op = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), 0);
    p.pump();
    let names: Vec<&str> = p.ok(op)["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["a", "b", "c"]);
    assert_eq!(p.methods().iter().filter(|m| *m == "tools/list").count(), 3);
    assert!(p
        .diagnostics()
        .iter()
        .any(|d| d.contains("repeated cursor")));
}

#[test]
fn paging_stops_at_the_page_cap() {
    let server = |req: &mcp_edge::proto::http::HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::result(&id, discover_result()),
            _ => {
                let n = params_of(req)["cursor"]
                    .as_str()
                    .map_or(0, |c| c.parse::<u32>().unwrap());
                let next = (n + 1).to_string();
                Reply::result(
                    &id,
                    json!({"prompts": [{"name": format!("p{n}")}], "nextCursor": next}),
                )
            }
        }
    };
    let mut c = cfg();
    c.max_pages = 5;
    let mut p = Pair::new(c, server);
    p.session.connect(0);
    let op = p
        .session
        .list_all(ListKind::Prompts, RequestOptions::default(), 0);
    p.pump();
    assert_eq!(p.ok(op)["prompts"].as_array().unwrap().len(), 5);
    assert!(p.diagnostics().iter().any(|d| d.contains("5-page limit")));
}

#[test]
fn mrtr_two_rounds_echo_request_state_exactly_with_new_ids() {
    let server = |req: &mcp_edge::proto::http::HttpRequest| {
        let id = id_of(req);
        let params = params_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::result(&id, discover_result()),
            "tools/list" => Reply::result(
                &id,
                tools_page(
                    json!([{"name": "ask", "inputSchema": {}}, {"name": "other", "inputSchema": {}}]),
                    None,
                ),
            ),
            "tools/call" if params["name"] == "other" => {
                assert!(
                    params.get("requestState").is_none() && params.get("inputResponses").is_none()
                );
                Reply::result(&id, json!({"content": []}))
            }
            "tools/call" => match params["requestState"].as_str() {
                None => Reply::result(
                    &id,
                    json!({
                        "resultType": "input_required",
                        "inputRequests": {"who": {"method": "elicitation/create", "params": {"message": "name?", "requestedSchema": {"type": "object"}}}},
                        "requestState": "s1+/=="
                    }),
                ),
                Some("s1+/==") => {
                    assert_eq!(params["inputResponses"]["who"]["content"]["name"], "ann");
                    Reply::result(
                        &id,
                        json!({
                            "resultType": "input_required",
                            "inputRequests": {"roots": {"method": "roots/list"}},
                            "requestState": "s2"
                        }),
                    )
                }
                Some("s2") => {
                    assert_eq!(
                        params["inputResponses"]["roots"]["roots"][0]["uri"],
                        "file:///x"
                    );
                    assert!(
                        params["inputResponses"].get("who").is_none(),
                        "answers of an earlier round are not resent"
                    );
                    Reply::result(
                        &id,
                        json!({"resultType": "complete", "content": [{"type": "text", "text": "done"}]}),
                    )
                }
                other => panic!("unexpected state {other:?}"),
            },
            _ => Reply::status(500, ""),
        }
    };
    let mut p = Pair::new(cfg(), server);
    p.session.connect(0);
    let op = p.session.request(
        "tools/call",
        json!({"name": "ask", "arguments": {}}),
        RequestOptions::default(),
        0,
    );
    p.pump();
    let input = p.events.iter().find_map(|e| match e {
        Event::InputRequest {
            input,
            op: Some(o),
            method,
            ..
        } if *o == op && method == "elicitation/create" => Some(*input),
        _ => None,
    });
    // A parallel request must not carry the round's state.
    let other = p.session.request(
        "tools/call",
        json!({"name": "other", "arguments": {}}),
        RequestOptions::default(),
        0,
    );
    p.pump();
    p.ok(other);
    p.session
        .answer_input(
            input.unwrap(),
            Ok(json!({"action": "accept", "content": {"name": "ann"}})),
            0,
        )
        .unwrap();
    p.pump();
    let input2 = p.events.iter().rev().find_map(|e| match e {
        Event::InputRequest { input, method, .. } if method == "roots/list" => Some(*input),
        _ => None,
    });
    p.session
        .answer_input(
            input2.unwrap(),
            Ok(json!({"roots": [{"uri": "file:///x"}]})),
            0,
        )
        .unwrap();
    p.pump();
    assert_eq!(p.ok(op)["content"][0]["text"], "done");
    let ids: Vec<Value> = p
        .requests
        .iter()
        .filter(|(_, _, r)| method_of(r) == "tools/call" && params_of(r)["name"] == "ask")
        .map(|(_, _, r)| id_of(r))
        .collect();
    assert_eq!(ids.len(), 3);
    assert!(
        ids[0] != ids[1] && ids[1] != ids[2] && ids[0] != ids[2],
        "each round has a new id: {ids:?}"
    );
    assert_eq!(
        p.session.answer_input(input2.unwrap(), Ok(json!({})), 0),
        Err(ProtocolError::UnknownInput)
    );
}

#[test]
fn mrtr_rounds_are_bounded() {
    let server = |req: &mcp_edge::proto::http::HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::result(&id, discover_result()),
            "tools/list" => Reply::result(
                &id,
                tools_page(json!([{"name": "loop", "inputSchema": {}}]), None),
            ),
            _ => Reply::result(
                &id,
                json!({"resultType": "input_required", "requestState": "again"}),
            ),
        }
    };
    let mut c = cfg();
    c.max_input_rounds = 3;
    let mut p = Pair::new(c, server);
    p.session.connect(0);
    let op = p.session.request(
        "tools/call",
        json!({"name": "loop"}),
        RequestOptions::default(),
        0,
    );
    p.pump();
    assert_eq!(p.err(op), &ProtocolError::TooManyInputRounds(3));
    // The first attempt plus one re-send per allowed round.
    assert_eq!(p.methods().iter().filter(|m| *m == "tools/call").count(), 4);
}

#[test]
fn header_mismatch_relists_tools_and_retries_once() {
    let server = move |req: &mcp_edge::proto::http::HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::result(&id, discover_result()),
            "tools/list" => Reply::result(
                &id,
                tools_page(
                    json!([{"name": "q", "inputSchema": {"type": "object", "properties": {"r": {"type": "string", "x-mcp-header": "R"}}}}]),
                    None,
                ),
            ),
            _ => Reply::error(400, &id, -32020, "Header mismatch", None),
        }
    };
    let mut p = Pair::new(cfg(), server);
    p.session.connect(0);
    let op = p.session.request(
        "tools/call",
        json!({"name": "q", "arguments": {"r": "x"}}),
        RequestOptions::default(),
        0,
    );
    p.pump();
    assert!(matches!(p.err(op), ProtocolError::Rpc { code: -32020, .. }));
    assert_eq!(
        p.methods(),
        [
            "server/discover",
            "tools/list",
            "tools/call",
            "tools/list",
            "tools/call"
        ]
    );
}

#[test]
fn unsupported_version_on_discover_falls_back_to_a_shared_legacy_version() {
    let server = |req: &mcp_edge::proto::http::HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::error(
                400,
                &id,
                -32022,
                "Unsupported protocol version",
                Some(json!({"supported": ["2025-06-18"], "requested": "2026-07-28"})),
            ),
            "initialize" => {
                assert_eq!(params_of(req)["protocolVersion"], "2025-06-18");
                Reply::result(
                    &id,
                    json!({"protocolVersion": "2025-06-18", "capabilities": {}, "serverInfo": {"name": "old", "version": "1"}}),
                )
            }
            "notifications/initialized" => Reply::accepted(),
            "GET" => Reply::status(405, ""),
            _ => Reply::status(500, ""),
        }
    };
    let mut p = Pair::new(cfg(), server);
    let op = p.session.connect(0);
    p.pump();
    assert_eq!(p.ok(op)["protocolVersion"], "2025-06-18");
    assert_eq!(p.session.era(), Some(Era::Legacy));
}

#[test]
fn exact_modern_version_does_not_fall_back() {
    let server = |req: &mcp_edge::proto::http::HttpRequest| {
        Reply::status(400, &format!("nope {}", method_of(req)))
    };
    let mut c = cfg();
    c.protocol = ProtocolChoice::Exact("2026-07-28".into());
    let mut p = Pair::new(c, server);
    let op = p.session.connect(0);
    p.pump();
    assert!(matches!(
        p.err(op),
        ProtocolError::HttpStatus { status: 400, .. }
    ));
    assert_eq!(p.methods(), ["server/discover"]);
}

#[test]
fn progress_resets_the_inactivity_timeout_but_not_the_total() {
    let mut c = cfg();
    c.request_timeout_ms = Some(1000);
    c.max_total_timeout_ms = Some(2500);
    let server = |req: &mcp_edge::proto::http::HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::result(&id, discover_result()),
            "tools/list" => Reply::result(
                &id,
                tools_page(json!([{"name": "slow", "inputSchema": {}}]), None),
            ),
            _ => Reply::sse_raw(": working\n\n").open(),
        }
    };
    let mut p = Pair::new(c, server);
    p.session.connect(0);
    let op = p.session.request(
        "tools/call",
        json!({"name": "slow"}),
        RequestOptions {
            progress: true,
            ..Default::default()
        },
        0,
    );
    p.pump();
    let (ex, _, req) = p.requests.last().unwrap().clone();
    let token = params_of(&req)["_meta"]["progressToken"].clone();
    let progress = |n: u32| {
        format!(
            "data: {}\n\n",
            json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": token, "progress": n, "total": 10}})
        )
    };
    p.advance(800);
    p.push(ex, &progress(1));
    p.advance(800);
    assert!(
        p.completed(op).is_none(),
        "progress at 800 ms moved the deadline"
    );
    p.push(ex, &progress(2));
    p.push(ex, &progress(2)); // not increasing: ignored
    p.advance(800);
    assert!(p.completed(op).is_none());
    p.push(ex, &progress(3));
    p.advance(2000);
    assert_eq!(
        p.err(op),
        &ProtocolError::Timeout {
            after_ms: 2500,
            total: true
        }
    );
    assert!(
        p.aborted.contains(&ex),
        "a timed-out request's stream is closed"
    );
    let n = p
        .events
        .iter()
        .filter(|e| matches!(e, Event::Progress { .. }))
        .count();
    assert_eq!(n, 3);
    assert!(
        p.events
            .iter()
            .any(|e| matches!(e, Event::Diagnostic { message }
            if message == "ignored non-increasing progress 2")),
        "the ignored value is named as the server wrote it"
    );
}

#[test]
fn inactivity_timeout_fires_without_progress() {
    let mut c = cfg();
    c.request_timeout_ms = Some(1000);
    let server = |req: &mcp_edge::proto::http::HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::result(&id, discover_result()),
            _ => Reply::sse_raw("").open(),
        }
    };
    let mut p = Pair::new(c, server);
    p.session.connect(0);
    let op = p.session.request(
        "prompts/get",
        json!({"name": "x"}),
        RequestOptions::default(),
        0,
    );
    p.pump();
    p.advance(999);
    assert!(p.completed(op).is_none());
    p.advance(1);
    assert_eq!(
        p.err(op),
        &ProtocolError::Timeout {
            after_ms: 1000,
            total: false
        }
    );
}

/// A connect deadline bounds the connect as a whole: discovery that stalls, then the 2025-era
/// fallback that stalls too, end at the deadline however long the request timeout is.
#[test]
fn the_connect_deadline_bounds_every_step_of_the_connect() {
    let mut c = cfg();
    c.request_timeout_ms = Some(60_000);
    c.connect_timeout_ms = Some(1500);
    let server = |req: &mcp_edge::proto::http::HttpRequest| match method_of(req).as_str() {
        // Not a 2026 server: the client falls back to `initialize`, which never answers.
        "server/discover" => Reply::status(400, "unknown method"),
        _ => Reply::sse_raw("").open(),
    };
    let mut p = Pair::new(c, server);
    let op = p.session.connect(0);
    p.pump();
    p.advance(1499);
    assert!(p.completed(op).is_none());
    assert!(p.methods().contains(&"initialize".to_string()));
    p.advance(1);
    assert!(
        matches!(p.err(op), ProtocolError::Timeout { after_ms: 1500, .. }),
        "{:?}",
        p.err(op)
    );
    // Later requests keep the request timeout.
    assert_eq!(p.session.config().request_timeout_ms, Some(60_000));
}

#[test]
fn config_rejects_inner_timeout_above_outer() {
    let mut c = cfg();
    c.request_timeout_ms = Some(5000);
    c.max_total_timeout_ms = Some(1000);
    assert!(matches!(
        mcp_edge::proto::session::Session::new(c),
        Err(ProtocolError::InvalidConfig(_))
    ));
}

/// A caller's timeout above the total cap is refused, typed (the API layers ask before starting
/// the request; it would otherwise be cut to the cap without a word); one within it applies.
#[test]
fn a_call_timeout_above_the_total_cap_is_refused_not_cut() {
    let mut c = cfg();
    c.request_timeout_ms = Some(1000);
    c.max_total_timeout_ms = Some(2000);
    let server = |req: &mcp_edge::proto::http::HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::result(&id, discover_result()),
            _ => Reply::sse_raw("").open(),
        }
    };
    let mut p = Pair::new(c, server);
    p.session.connect(0);
    p.pump();
    match p.session.check_request_timeout(Some(5000)) {
        Err(ProtocolError::InvalidConfig(m)) => {
            assert!(m.contains("5000 ms") && m.contains("2000 ms"), "{m}")
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(p.session.check_request_timeout(Some(1500)), Ok(()));
    assert_eq!(p.session.check_request_timeout(None), Ok(()));
    let ok = p.session.request(
        "prompts/get",
        json!({"name": "x"}),
        RequestOptions {
            timeout_ms: Some(1500),
            ..Default::default()
        },
        0,
    );
    p.pump();
    p.advance(1500);
    assert_eq!(
        p.err(ok),
        &ProtocolError::Timeout {
            after_ms: 1500,
            total: false
        }
    );
}

#[test]
fn a_dropped_stream_is_reissued_once_with_a_new_id() {
    let mut drops = 0;
    let server = move |req: &mcp_edge::proto::http::HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::result(&id, discover_result()),
            "prompts/get" if drops < 1 => {
                drops += 1;
                Reply::sse_raw(": partial\n\n").broken()
            }
            _ => Reply::sse(&[json!({"jsonrpc": "2.0", "id": id, "result": {"messages": []}})]),
        }
    };
    let mut p = Pair::new(cfg(), server);
    p.session.connect(0);
    let op = p.session.request(
        "prompts/get",
        json!({"name": "x"}),
        RequestOptions::default(),
        0,
    );
    p.pump();
    p.ok(op);
    let ids: Vec<Value> = p
        .requests
        .iter()
        .filter(|(_, _, r)| method_of(r) == "prompts/get")
        .map(|(_, _, r)| id_of(r))
        .collect();
    assert_eq!(ids.len(), 2);
    assert_ne!(ids[0], ids[1]);
}

#[test]
fn a_stream_that_keeps_dropping_fails_typed() {
    let server = |req: &mcp_edge::proto::http::HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::result(&id, discover_result()),
            _ => Reply::sse_raw("").broken(),
        }
    };
    let mut p = Pair::new(cfg(), server);
    p.session.connect(0);
    let op = p.session.request(
        "prompts/get",
        json!({"name": "x"}),
        RequestOptions::default(),
        0,
    );
    p.pump();
    assert_eq!(
        p.err(op),
        &ProtocolError::StreamDropped {
            attempts: 1,
            may_have_run: false
        }
    );
}

#[test]
fn cancel_closes_the_stream_and_sends_no_notification() {
    let server = |req: &mcp_edge::proto::http::HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::result(&id, discover_result()),
            _ => Reply::sse_raw("").open(),
        }
    };
    let mut p = Pair::new(cfg(), server);
    p.session.connect(0);
    let op = p.session.request(
        "resources/read",
        json!({"uri": "file:///a"}),
        RequestOptions::default(),
        0,
    );
    p.pump();
    let ex = p.requests.last().unwrap().0;
    p.session.cancel(op, 10);
    p.pump();
    assert_eq!(p.err(op), &ProtocolError::Cancelled);
    assert!(p.aborted.contains(&ex));
    assert_eq!(p.methods(), ["server/discover", "resources/read"]);
    assert_eq!(
        p.last("resources/read").header("mcp-name"),
        Some("file:///a")
    );
}

#[test]
fn listen_receives_notifications_invalidates_cache_and_reconnects_after_a_drop() {
    let server = |req: &mcp_edge::proto::http::HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::result(&id, discover_result()),
            "tools/list" => Reply::result(&id, json!({"tools": [], "ttlMs": 60000})),
            "subscriptions/listen" => {
                assert_eq!(params_of(req)["notifications"]["toolsListChanged"], true);
                Reply::sse(&[json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                    "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": id}, "notifications": {"toolsListChanged": true}}})]).open()
            }
            _ => Reply::status(500, ""),
        }
    };
    let mut p = Pair::new(cfg(), server);
    p.session.connect(0);
    let l = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), 0);
    p.pump();
    p.ok(l);
    let listen = p.session.listen(json!({"toolsListChanged": true}), 0);
    p.pump();
    let ex = p.requests.last().unwrap().0;
    p.advance(120_000);
    assert!(
        p.completed(listen).is_none(),
        "listen streams have no timeout"
    );
    p.push(
        ex,
        &format!(
            "data: {}\n\n",
            json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {}})
        ),
    );
    assert!(p.events.iter().any(|e| matches!(e, Event::Notification { method, .. } if method == "notifications/tools/list_changed")));
    let l2 = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), p.now);
    p.pump();
    p.ok(l2);
    assert_eq!(
        p.methods().iter().filter(|m| *m == "tools/list").count(),
        2,
        "list_changed invalidated the cache"
    );
    // The stream drops without a graceful result: re-opened after a backoff, with a new id.
    let before = p
        .methods()
        .iter()
        .filter(|m| *m == "subscriptions/listen")
        .count();
    p.end(ex);
    assert_eq!(
        p.methods()
            .iter()
            .filter(|m| *m == "subscriptions/listen")
            .count(),
        before
    );
    p.advance(2_000);
    assert_eq!(
        p.methods()
            .iter()
            .filter(|m| *m == "subscriptions/listen")
            .count(),
        before + 1
    );
    p.session.cancel(listen, p.now);
    p.pump();
    assert_eq!(p.err(listen), &ProtocolError::Cancelled);
}

#[test]
fn unknown_result_type_and_hostile_bodies_are_typed_errors() {
    let server = |req: &mcp_edge::proto::http::HttpRequest| {
        let id = id_of(req);
        match (method_of(req).as_str(), params_of(req)["name"].as_str()) {
            ("server/discover", _) => Reply::result(&id, discover_result()),
            (_, Some("task")) => Reply::result(&id, json!({"resultType": "task", "task": {}})),
            (_, Some("garbage")) => {
                let mut r = Reply::json(json!(1));
                r.chunks = vec![b"{not json".to_vec()];
                r
            }
            (_, Some("other-id")) => Reply::result(&json!(999), json!({})),
            (_, Some("huge")) => {
                let mut r = Reply::json(json!(1));
                r.chunks = vec![vec![b' '; 600]; 4];
                r
            }
            _ => Reply::status(500, "boom"),
        }
    };
    let mut c = cfg();
    c.max_json_bytes = 1024;
    let mut p = Pair::new(c, server);
    p.session.connect(0);
    let t = p.session.request(
        "prompts/get",
        json!({"name": "task"}),
        RequestOptions::default(),
        0,
    );
    let g = p.session.request(
        "prompts/get",
        json!({"name": "garbage"}),
        RequestOptions::default(),
        0,
    );
    let o = p.session.request(
        "prompts/get",
        json!({"name": "other-id"}),
        RequestOptions::default(),
        0,
    );
    let h = p.session.request(
        "prompts/get",
        json!({"name": "huge"}),
        RequestOptions::default(),
        0,
    );
    let s = p.session.request(
        "prompts/get",
        json!({"name": "500"}),
        RequestOptions::default(),
        0,
    );
    p.pump();
    // A task for a request that cannot run as one is an invalid response (ext-tasks
    // "Capability Negotiation").
    assert!(
        matches!(p.err(t), ProtocolError::InvalidResult(m) if m.contains("prompts/get")),
        "{:?}",
        p.err(t)
    );
    assert!(matches!(p.err(g), ProtocolError::InvalidMessage(_)));
    assert!(matches!(p.err(o), ProtocolError::InvalidResult(_)));
    assert!(p
        .diagnostics()
        .iter()
        .any(|d| d.contains("unknown request id 999")));
    assert_eq!(p.err(h), &ProtocolError::BodyTooLarge { limit: 1024 });
    assert_eq!(
        p.err(s),
        &ProtocolError::HttpStatus {
            status: 500,
            body: "boom".into(),
            retry_after_ms: None,
            body_length: None,
        }
    );
}

#[test]
fn requests_before_connect_wait_and_without_connect_fail() {
    let mut p = Pair::new(cfg(), modern_server);
    let early = p.session.request(
        "tools/call",
        json!({"name": "add", "arguments": {"a": 1}}),
        RequestOptions::default(),
        0,
    );
    p.pump();
    assert_eq!(p.err(early), &ProtocolError::NotConnected);
    let c = p.session.connect(0);
    let queued = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), 0);
    p.pump();
    p.ok(c);
    p.ok(queued);
}

#[test]
fn network_and_cors_failures_surface_typed() {
    let mut p = Pair::new(cfg(), |_: &mcp_edge::proto::http::HttpRequest| {
        Reply::network_error()
    });
    let op = p.session.connect(0);
    p.pump();
    assert!(matches!(p.err(op), ProtocolError::Network(_)));
    assert_eq!(
        p.methods(),
        ["server/discover"],
        "no fallback on a network error"
    );
}

#[test]
fn close_in_the_modern_era_sends_nothing() {
    let mut p = Pair::new(cfg(), modern_server);
    p.session.connect(0);
    p.pump();
    let n = p.requests.len();
    let c = p.session.close(0);
    p.pump();
    p.ok(c);
    assert_eq!(p.requests.len(), n);
    assert!(p.events.contains(&Event::Closed));
    let after = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), 0);
    p.pump();
    assert_eq!(p.err(after), &ProtocolError::Closed);
}

#[test]
fn snapshot_and_restore_keep_era_cache_and_header_designations() {
    let mut p = Pair::new(cfg(), modern_server);
    p.session.connect(0);
    let l = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), 0);
    p.pump();
    p.ok(l);
    p.advance(400);
    // Through JSON, as a host would store it.
    let text = serde_json::to_string(&p.session.snapshot(p.now)).unwrap();
    let snap: mcp_edge::proto::session::SessionSnapshot = serde_json::from_str(&text).unwrap();
    assert_eq!(
        snap.cache.len(),
        1,
        "discover has no ttl; the tools page has 1000 ms"
    );
    // A fresh host whose clock starts elsewhere.
    let mut q = Pair::new(cfg(), modern_server);
    q.now = 50_000;
    q.session = mcp_edge::proto::session::Session::restore(cfg(), snap, q.now).unwrap();
    assert_eq!(q.session.era(), Some(Era::Modern));
    assert!(q.session.is_connected());
    let l2 = q
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), q.now);
    q.pump();
    assert_eq!(q.ok(l2), p.ok(l), "served from the restored cache");
    let c = q.session.request(
        "tools/call",
        json!({"name": "region_query", "arguments": {"region": "x"}}),
        RequestOptions::default(),
        q.now,
    );
    q.pump();
    q.ok(c);
    assert_eq!(
        q.methods(),
        ["tools/call"],
        "no discover, no list: restored"
    );
    assert_eq!(q.last("tools/call").header("mcp-param-region"), Some("x"));
    q.advance(600);
    let l3 = q
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), q.now);
    q.pump();
    q.ok(l3);
    assert_eq!(
        q.methods().iter().filter(|m| *m == "tools/list").count(),
        1,
        "the entry kept only the time it had left"
    );
}

#[test]
fn restore_refuses_a_foreign_or_unconnected_snapshot() {
    let s = mcp_edge::proto::session::Session::new(cfg()).unwrap();
    let snap = s.snapshot(0);
    assert!(matches!(
        mcp_edge::proto::session::Session::restore(cfg(), snap.clone(), 0),
        Err(ProtocolError::InvalidConfig(_))
    ));
    let mut other = snap;
    other.endpoint = "http://elsewhere/mcp".into();
    other.era = Some(Era::Modern);
    assert!(
        matches!(mcp_edge::proto::session::Session::restore(cfg(), other, 0), Err(ProtocolError::InvalidConfig(m)) if m.contains("elsewhere"))
    );
}

#[test]
fn unsupported_version_naming_our_version_is_retried_once_with_it() {
    // MCP 2026-07-28 `basic/versioning`: on UnsupportedProtocolVersionError "the client retries
    // with a mutually supported version". The server may list the version the client just sent
    // (a load-balanced fleet mid-rollout; the conformance suite's `request-metadata` mock rejects
    // the first request whatever it carries): retry once with it, on discover and on requests.
    let mut rejections = 0;
    let server = move |req: &mcp_edge::proto::http::HttpRequest| {
        let id = id_of(req);
        let method = method_of(req);
        if (method == "server/discover" && rejections == 0)
            || (method == "tools/list" && rejections == 1)
        {
            rejections += 1;
            return Reply::error(
                400,
                &id,
                -32022,
                "Unsupported protocol version",
                Some(json!({"supported": ["2026-07-28"], "requested": "2026-07-28"})),
            );
        }
        modern_server(req)
    };
    let mut p = Pair::new(cfg(), server);
    let op = p.session.connect(0);
    p.pump();
    assert_eq!(p.ok(op)["era"], "modern");
    assert_eq!(p.methods(), ["server/discover", "server/discover"]);
    let retry = p.last("server/discover");
    assert_eq!(header(retry, "mcp-protocol-version"), Some("2026-07-28"));
    assert_eq!(
        params_of(retry)["_meta"]["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    let list = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), 0);
    p.pump();
    assert_eq!(p.ok(list)["tools"].as_array().unwrap().len(), 2);
    assert_eq!(&p.methods()[2..], ["tools/list", "tools/list"]);
}

#[test]
fn unsupported_version_is_retried_at_most_once() {
    let server = |req: &mcp_edge::proto::http::HttpRequest| {
        Reply::error(
            400,
            &id_of(req),
            -32022,
            "Unsupported protocol version",
            Some(json!({"supported": ["2026-07-28"], "requested": "2026-07-28"})),
        )
    };
    let mut p = Pair::new(cfg(), server);
    let op = p.session.connect(0);
    p.pump();
    assert!(matches!(
        p.err(op),
        ProtocolError::UnsupportedProtocolVersion { .. }
    ));
    assert_eq!(p.methods(), ["server/discover", "server/discover"]);
}

#[test]
fn an_input_round_with_too_many_requests_fails_typed() {
    let server = |req: &mcp_edge::proto::http::HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::result(&id, discover_result()),
            "tools/list" => Reply::result(
                &id,
                tools_page(json!([{"name": "ask", "inputSchema": {}}]), None),
            ),
            _ => {
                let mut many = serde_json::Map::new();
                for i in 0..1000 {
                    many.insert(format!("k{i}"), json!({"method": "roots/list"}));
                }
                Reply::result(
                    &id,
                    json!({"resultType": "input_required", "inputRequests": many}),
                )
            }
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
    assert!(
        matches!(p.err(op), ProtocolError::InvalidResult(m) if m.contains("1000 input requests"))
    );
    assert!(!p
        .events
        .iter()
        .any(|e| matches!(e, Event::InputRequest { .. })));
}

// Runs in the runtime `wasm-pack test` asks for (see tests/wasm-test-mode).
mcp_edge_wasm_test_mode::configure!();

/// The session's facts about tools follow the server's list: a whole listing that no longer has a
/// tool drops what the session knew about it (its header designations and hints), so the map
/// stays the size of the current list. A listing cut short keeps them.
#[test]
fn tool_facts_are_pruned_when_tools_disappear() {
    let shrunk = std::rc::Rc::new(std::cell::Cell::new(false));
    let s = shrunk.clone();
    let server = move |req: &mcp_edge::proto::http::HttpRequest| {
        let id = id_of(req);
        match method_of(req).as_str() {
            "server/discover" => Reply::result(&id, discover_result()),
            "tools/list" if s.get() => Reply::result(
                &id,
                json!({"tools": [{"name": "add", "inputSchema": {"type": "object"}}]}),
            ),
            _ => modern_server(req),
        }
    };
    let mut p = Pair::new(cfg(), server);
    p.session.connect(0);
    let l = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), 0);
    p.pump();
    p.ok(l);
    fn headers(s: &mcp_edge::proto::session::Session, now: u64) -> Vec<String> {
        s.snapshot(now)
            .tool_headers
            .into_iter()
            .map(|(t, _)| t)
            .collect()
    }
    assert_eq!(headers(&p.session, p.now), ["region_query"]);
    shrunk.set(true);
    // The cached page (1000 ms) still answers: nothing is pruned from a cached listing.
    let l = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), p.now);
    p.pump();
    p.ok(l);
    assert_eq!(headers(&p.session, p.now), ["region_query"]);
    p.advance(1500);
    let l = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), p.now);
    p.pump();
    p.ok(l);
    assert!(headers(&p.session, p.now).is_empty());
}
