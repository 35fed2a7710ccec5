//! Tasks on virtual time: the 2026-07-28 Tasks extension (ext-tasks `specification/draft/tasks.md`)
//! and MCP 2025-11-25 tasks (`basic/utilities/tasks`), against scripted fake servers.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

mod support;

use mcp_edge::proto::http::HttpRequest;
use mcp_edge::proto::session::{
    Event, ListKind, OpId, ProtocolChoice, ProtocolError, RequestMeta, RequestOptions,
    SessionConfig, TaskInfo, TaskPreference, TaskShape, TaskStatus, TASKS_EXTENSION,
};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use support::*;

const TASK: &str = "786512e2-9e0d-44bd-8f29-789f320fe840";

fn cfg() -> SessionConfig {
    let mut c = SessionConfig::new("http://127.0.0.1:1/mcp");
    c.client_info = json!({"name": "t", "version": "0"});
    c
}

fn task(status: &str, poll: Option<u64>, ttl: Option<u64>) -> Value {
    json!({
        "taskId": TASK,
        "status": status,
        "createdAt": "2026-12-05T10:00:00Z",
        "lastUpdatedAt": "2026-12-05T10:00:00Z",
        "ttlMs": ttl,
        "pollIntervalMs": poll,
    })
}

fn with(mut v: Value, k: &str, x: Value) -> Value {
    v[k] = x;
    v
}

/// What the fake 2026 server answers, and what it saw.
#[derive(Default)]
struct Script {
    /// Answers to successive `tasks/get` (the last one repeats).
    gets: VecDeque<Reply>,
    /// The answer to `tools/call` (default: a working task polled every second).
    create: Option<Reply>,
    /// `(time, method, params, mcp-name)` of every request.
    seen: Vec<(String, Value, Option<String>)>,
}

fn get_reply(id: &Value, detail: Value) -> Reply {
    Reply::result(id, with(detail, "resultType", json!("complete")))
}

fn modern_tasks(state: Rc<RefCell<Script>>) -> impl FnMut(&HttpRequest) -> Reply {
    move |req: &HttpRequest| {
        let mut st = state.borrow_mut();
        let id = id_of(req);
        let method = method_of(req);
        st.seen.push((
            method.clone(),
            params_of(req),
            req.header("mcp-name").map(str::to_string),
        ));
        match method.as_str() {
            "server/discover" => Reply::result(
                &id,
                with(
                    discover_result(),
                    "capabilities",
                    json!({"tools": {}, "extensions": {TASKS_EXTENSION: {}}}),
                ),
            ),
            "tools/list" => Reply::result(
                &id,
                tools_page(
                    json!([{"name": "job", "inputSchema": {"type": "object"}}]),
                    None,
                ),
            ),
            "tools/call" => {
                let mut r = st.create.clone().unwrap_or_else(|| {
                    Reply::result(
                        &json!(0),
                        with(
                            task("working", Some(1000), Some(60_000)),
                            "resultType",
                            json!("task"),
                        ),
                    )
                });
                // The scripted reply was written for id 0: give it this request's id.
                if let Some(c) = r.chunks.first_mut() {
                    let text =
                        String::from_utf8_lossy(c).replace("\"id\":0", &format!("\"id\":{id}"));
                    *c = text.into_bytes();
                }
                r
            }
            "tasks/get" => {
                let r = if st.gets.len() > 1 {
                    st.gets.pop_front()
                } else {
                    st.gets.front().cloned()
                };
                let mut r =
                    r.unwrap_or_else(|| get_reply(&json!(0), task("working", Some(1000), None)));
                if let Some(c) = r.chunks.first_mut() {
                    let text =
                        String::from_utf8_lossy(c).replace("\"id\":0", &format!("\"id\":{id}"));
                    *c = text.into_bytes();
                }
                r
            }
            "tasks/update" | "tasks/cancel" => {
                Reply::result(&id, json!({"resultType": "complete"}))
            }
            other => Reply::error(400, &id, -32601, &format!("no {other}"), None),
        }
    }
}

fn gets(list: Vec<Reply>) -> VecDeque<Reply> {
    list.into()
}

fn done(text: &str) -> Value {
    with(
        task("completed", Some(1000), Some(60_000)),
        "result",
        json!({"content": [{"type": "text", "text": text}], "isError": false}),
    )
}

/// The `CreateTaskResult` answer to a `tools/call`: the task with `resultType: "task"`.
fn created(t: Value) -> Reply {
    Reply::result(&json!(0), with(t, "resultType", json!("task")))
}

/// A connected session whose server answers the call with `create` and the polls with `polls`.
fn scripted(
    create: Reply,
    polls: Vec<Reply>,
) -> (Pair<impl FnMut(&HttpRequest) -> Reply>, Rc<RefCell<Script>>) {
    connected(
        Script {
            create: Some(create),
            gets: gets(polls),
            ..Default::default()
        },
        cfg(),
    )
}

/// A connected session whose server makes every call a working task and answers the polls with
/// `polls` (the last one repeats).
fn polling(polls: Vec<Reply>) -> (Pair<impl FnMut(&HttpRequest) -> Reply>, Rc<RefCell<Script>>) {
    connected(
        Script {
            gets: gets(polls),
            ..Default::default()
        },
        cfg(),
    )
}

fn connected(
    script: Script,
    c: SessionConfig,
) -> (Pair<impl FnMut(&HttpRequest) -> Reply>, Rc<RefCell<Script>>) {
    let state = Rc::new(RefCell::new(script));
    let mut p = Pair::new(c, modern_tasks(state.clone()));
    let op = p.session.connect(0);
    p.pump();
    p.ok(op);
    (p, state)
}

fn call(p: &mut Pair<impl FnMut(&HttpRequest) -> Reply>) -> OpId {
    let op = p.session.request(
        "tools/call",
        json!({"name": "job", "arguments": {}}),
        RequestOptions::default(),
        p.now,
    );
    p.pump();
    op
}

fn count(state: &Rc<RefCell<Script>>, method: &str) -> usize {
    state.borrow().seen.iter().filter(|s| s.0 == method).count()
}

/// The status reports, in order; their numbers must count from 1.
fn statuses(p: &Pair<impl FnMut(&HttpRequest) -> Reply>) -> Vec<(TaskStatus, Option<String>)> {
    let reports: Vec<_> = p
        .events
        .iter()
        .filter_map(|e| match e {
            Event::TaskStatus { task, report, .. } => {
                Some((*report, task.status, task.status_message.clone()))
            }
            _ => None,
        })
        .collect();
    let numbers: Vec<u32> = reports.iter().map(|r| r.0).collect();
    assert_eq!(numbers, (1..=reports.len() as u32).collect::<Vec<_>>());
    reports.into_iter().map(|(_, s, m)| (s, m)).collect()
}

#[test]
fn a_call_answered_with_a_task_polls_at_the_servers_interval_to_the_final_result() {
    let script = Script {
        gets: gets(vec![
            get_reply(
                &json!(0),
                with(
                    task("working", Some(1000), Some(60_000)),
                    "statusMessage",
                    json!("step 1"),
                ),
            ),
            get_reply(
                &json!(0),
                with(
                    task("working", Some(2000), Some(60_000)),
                    "statusMessage",
                    json!("step 2"),
                ),
            ),
            get_reply(&json!(0), done("all done")),
        ]),
        ..Default::default()
    };
    let (mut p, state) = connected(script, cfg());
    let op = call(&mut p);
    // Declared in the request's capabilities (ext-tasks "Capability Negotiation").
    let sent = state
        .borrow()
        .seen
        .iter()
        .find(|s| s.0 == "tools/call")
        .unwrap()
        .1
        .clone();
    assert_eq!(
        sent["_meta"]["io.modelcontextprotocol/clientCapabilities"]["extensions"][TASKS_EXTENSION],
        json!({})
    );
    assert!(p.completed(op).is_none(), "a task is not the result");
    p.advance(20_000);
    // Never sooner than the server asks (1000, 1000, then 2000 ms), and the jitter adds at
    // most a quarter.
    let mut times: Vec<u64> = p
        .requests
        .iter()
        .filter(|r| method_of(&r.2) == "tasks/get" || method_of(&r.2) == "tools/call")
        .map(|r| r.1)
        .collect();
    times.dedup();
    let gaps: Vec<u64> = times.windows(2).map(|w| w[1] - w[0]).collect();
    assert_eq!(gaps.len(), 3, "{times:?}");
    for (gap, asked) in gaps.iter().zip([1000, 1000, 2000]) {
        assert!(*gap >= asked && *gap <= asked + asked / 4, "{gaps:?}");
    }
    assert_eq!(p.ok(op)["content"][0]["text"], "all done");
    assert_eq!(count(&state, "tools/call"), 1);
    // Every tasks/* request is routed by Mcp-Name = taskId (ext-tasks "Routing Headers").
    for (m, params, name) in state.borrow().seen.iter().filter(|s| s.0 == "tasks/get") {
        assert_eq!(params["taskId"], TASK, "{m}");
        assert_eq!(name.as_deref(), Some(TASK));
    }
    assert_eq!(
        statuses(&p),
        [
            (TaskStatus::Working, None),
            (TaskStatus::Working, Some("step 1".into())),
            (TaskStatus::Working, Some("step 2".into())),
            (TaskStatus::Completed, None),
        ]
    );
}

#[test]
fn input_required_is_surfaced_once_per_key_and_answered_with_tasks_update() {
    let asks = |keys: Value| {
        get_reply(
            &json!(0),
            with(
                task("input_required", Some(500), Some(60_000)),
                "inputRequests",
                keys,
            ),
        )
    };
    let elicit = json!({"method": "elicitation/create", "params": {"mode": "form", "message": "name?", "requestedSchema": {"type": "object"}}});
    let script = Script {
        gets: gets(vec![
            asks(json!({"name": elicit})),
            // Polled again before the user answered: the same key (deduplicated).
            asks(json!({"name": elicit})),
            // Eventually consistent: the answered key is still listed once after the update.
            asks(json!({"name": elicit})),
            // Listed until answered (the last answer repeats).
            asks(json!({"second": elicit})),
        ]),
        ..Default::default()
    };
    let (mut p, state) = connected(script, cfg());
    let op = call(&mut p);
    p.advance(1_300);
    let inputs: Vec<_> = p
        .events
        .iter()
        .filter_map(|e| match e {
            Event::InputRequest {
                input,
                op: o,
                method,
                ..
            } => Some((*input, *o, method.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        inputs.len(),
        1,
        "one input for the key, however often polled"
    );
    assert_eq!(inputs[0].1, Some(op));
    assert_eq!(inputs[0].2, "elicitation/create");
    // Polling goes on while the user decides (the server may end the task meanwhile).
    p.advance(700);
    assert!(count(&state, "tasks/get") >= 2);
    assert_eq!(count(&state, "tasks/update"), 0);
    p.session
        .answer_input(
            inputs[0].0,
            Ok(json!({"action": "accept", "content": {"name": "Luca"}})),
            p.now,
        )
        .unwrap();
    p.pump();
    p.advance(1);
    assert_eq!(count(&state, "tasks/update"), 1);
    let update = state
        .borrow()
        .seen
        .iter()
        .find(|s| s.0 == "tasks/update")
        .cloned()
        .unwrap();
    assert_eq!(update.1["taskId"], TASK);
    assert_eq!(
        update.1["inputResponses"]["name"]["content"]["name"],
        "Luca"
    );
    assert_eq!(update.2.as_deref(), Some(TASK));
    p.advance(5_000);
    // The second key is a new input; answering it sends a second update with that key only.
    let second: Vec<_> = p
        .events
        .iter()
        .filter_map(|e| match e {
            Event::InputRequest { input, .. } => Some(*input),
            _ => None,
        })
        .collect();
    assert_eq!(second.len(), 2);
    state.borrow_mut().gets = gets(vec![
        get_reply(&json!(0), task("working", Some(500), Some(60_000))),
        get_reply(&json!(0), done("hello Luca")),
    ]);
    p.session
        .answer_input(second[1], Ok(json!({"action": "decline"})), p.now)
        .unwrap();
    p.pump();
    p.advance(5_000);
    let updates: Vec<Value> = state
        .borrow()
        .seen
        .iter()
        .filter(|s| s.0 == "tasks/update")
        .map(|s| s.1["inputResponses"].clone())
        .collect();
    assert_eq!(updates.len(), 2);
    assert_eq!(updates[1], json!({"second": {"action": "decline"}}));
    assert_eq!(p.ok(op)["content"][0]["text"], "hello Luca");
}

#[test]
fn failed_and_cancelled_tasks_end_with_typed_errors() {
    let failed = with(
        with(
            task("failed", Some(100), Some(60_000)),
            "error",
            json!({"code": -32603, "message": "rate limited"}),
        ),
        "statusMessage",
        json!("gave up"),
    );
    let (mut p, _) = polling(vec![get_reply(&json!(0), failed)]);
    let op = call(&mut p);
    p.advance(2_000);
    match p.err(op) {
        ProtocolError::TaskFailed { task_id, error } => {
            assert_eq!(task_id, TASK);
            assert_eq!(
                (error.code, error.message.as_str()),
                (-32603, "rate limited")
            );
        }
        e => panic!("{e:?}"),
    }
    assert_eq!(p.err(op).code(), "TASK_FAILED");

    let cancelled = with(
        task("cancelled", Some(100), None),
        "statusMessage",
        json!("by admin"),
    );
    let (mut p, _) = polling(vec![get_reply(&json!(0), cancelled)]);
    let op = call(&mut p);
    p.advance(2_000);
    assert_eq!(
        p.err(op),
        &ProtocolError::TaskCancelled {
            task_id: TASK.into(),
            message: Some("by admin".into())
        }
    );
}

#[test]
fn cancelling_a_task_sends_tasks_cancel_and_withdraws_pending_input() {
    let asks = get_reply(
        &json!(0),
        with(
            task("input_required", Some(500), Some(60_000)),
            "inputRequests",
            json!({"k": {"method": "elicitation/create", "params": {"message": "sure?"}}}),
        ),
    );
    let (mut p, state) = polling(vec![asks]);
    let op = call(&mut p);
    p.advance(1_300);
    let input = p
        .events
        .iter()
        .find_map(|e| match e {
            Event::InputRequest { input, .. } => Some(*input),
            _ => None,
        })
        .expect("input surfaced");
    p.session.cancel(op, p.now);
    p.pump();
    assert_eq!(p.err(op), &ProtocolError::Cancelled);
    assert!(p
        .events
        .iter()
        .any(|e| matches!(e, Event::InputCancelled { input: i } if *i == input)));
    let cancel = state
        .borrow()
        .seen
        .iter()
        .find(|s| s.0 == "tasks/cancel")
        .cloned()
        .expect("tasks/cancel sent");
    assert_eq!(cancel.1["taskId"], TASK);
    assert_eq!(cancel.2.as_deref(), Some(TASK));
    assert_eq!(count(&state, "notifications/cancelled"), 0);
    // No more polls after the cancel.
    let polls = count(&state, "tasks/get");
    p.advance(10_000);
    assert_eq!(count(&state, "tasks/get"), polls);
}

#[test]
fn failing_polls_are_retried_and_the_call_is_never_sent_again() {
    let (mut p, state) = polling(vec![
        Reply::status(503, "").header("Retry-After", "1"),
        Reply::network_error(),
        // Cut off inside the body.
        {
            let mut r = Reply::json(json!({"jsonrpc": "2.0"}));
            r.chunks = vec![b"{\"jsonrpc\":\"2.0\",\"id\":0,\"res".to_vec()];
            r.broken()
        },
        Reply::status(502, "bad gateway"),
        // A garbled answer (an empty JSON body): retried like any broken poll.
        {
            let mut r = Reply::json(json!({}));
            r.chunks = vec![b"not json".to_vec()];
            r
        },
        get_reply(&json!(0), done("survived")),
    ]);
    let op = call(&mut p);
    p.advance(60_000);
    assert_eq!(p.ok(op)["content"][0]["text"], "survived");
    // The 503's Retry-After (1 s) was waited for before the next poll.
    let polls: Vec<u64> = p
        .requests
        .iter()
        .filter(|r| method_of(&r.2) == "tasks/get")
        .map(|r| r.1)
        .collect();
    assert!(polls[1] - polls[0] >= 1_000, "{polls:?}");
    assert_eq!(
        count(&state, "tools/call"),
        1,
        "the creating call is never re-sent"
    );
    assert_eq!(count(&state, "tasks/get"), 6);
}

#[test]
fn polls_that_keep_failing_stop_at_the_bound_with_the_task_named() {
    let (mut p, state) = polling(vec![Reply::network_error()]);
    let op = call(&mut p);
    p.advance(600_000);
    match p.err(op) {
        ProtocolError::TaskTimeout { task_id, .. } => assert_eq!(task_id, TASK),
        e => panic!("{e:?}"),
    }
    // The first poll and six retries (MAX_POLL_FAILURES), then nothing more.
    assert_eq!(count(&state, "tasks/get"), 7);
    assert_eq!(count(&state, "tools/call"), 1);
}

#[test]
fn a_stream_that_drops_right_after_the_task_handle_does_not_lose_the_task() {
    let create = Reply::sse(&[json!({"jsonrpc": "2.0", "id": 0, "result": with(task("working", Some(1000), Some(60_000)), "resultType", json!("task"))})]).broken();
    let (mut p, state) = scripted(create, vec![get_reply(&json!(0), done("kept"))]);
    let op = call(&mut p);
    p.advance(2_000);
    assert_eq!(p.ok(op)["content"][0]["text"], "kept");
    assert_eq!(count(&state, "tools/call"), 1);
}

#[test]
fn a_json_answer_cut_off_after_its_last_byte_still_creates_the_task() {
    // A proxy drops the connection before the final chunk: the CreateTaskResult is whole.
    let create = Reply::result(
        &json!(0),
        with(
            task("working", Some(1000), Some(60_000)),
            "resultType",
            json!("task"),
        ),
    )
    .broken();
    let (mut p, state) = scripted(create, vec![get_reply(&json!(0), done("whole"))]);
    let op = call(&mut p);
    p.advance(2_000);
    assert_eq!(p.ok(op)["content"][0]["text"], "whole");
    assert_eq!(count(&state, "tools/call"), 1);
}

#[test]
fn a_task_created_already_complete_is_read_with_tasks_get_at_once() {
    // The seed is "typically (though not necessarily) working"; a CreateTaskResult carries no
    // result of its own.
    let (mut p, state) = scripted(
        created(task("completed", Some(60_000), None)),
        vec![get_reply(&json!(0), done("fast"))],
    );
    let op = call(&mut p);
    p.advance(1);
    assert_eq!(p.ok(op)["content"][0]["text"], "fast");
    assert_eq!(count(&state, "tasks/get"), 1);
}

#[test]
fn an_absurd_poll_interval_is_capped_and_nothing_overflows() {
    let huge = with(task("working", None, None), "pollIntervalMs", json!(1e30));
    let (mut p, state) = scripted(created(huge), vec![get_reply(&json!(0), done("capped"))]);
    let op = call(&mut p);
    p.advance(59 * 60 * 1000);
    assert_eq!(
        count(&state, "tasks/get"),
        0,
        "the server's interval is honoured up to the cap"
    );
    p.advance(16 * 60 * 1000);
    assert_eq!(p.ok(op)["content"][0]["text"], "capped");
}

#[test]
fn an_input_the_server_stops_listing_is_withdrawn_and_does_not_block_the_rest() {
    let elicit = |m: &str| json!({"method": "elicitation/create", "params": {"message": m}});
    let asks = |keys: Value| {
        get_reply(
            &json!(0),
            with(
                task("input_required", Some(500), None),
                "inputRequests",
                keys,
            ),
        )
    };
    let (mut p, state) = polling(vec![
        asks(json!({"old": elicit("old")})),
        asks(json!({"new": elicit("new")})),
    ]);
    let op = call(&mut p);
    p.advance(3_000);
    let inputs: Vec<_> = p
        .events
        .iter()
        .filter_map(|e| match e {
            Event::InputRequest { input, params, .. } => Some((*input, params["message"].clone())),
            _ => None,
        })
        .collect();
    assert_eq!(inputs.len(), 2, "{inputs:?}");
    assert!(p
        .events
        .iter()
        .any(|e| matches!(e, Event::InputCancelled { input } if *input == inputs[0].0)));
    // Answering the superseded one is refused; the current one goes out alone.
    assert!(p
        .session
        .answer_input(inputs[0].0, Ok(json!({"action": "accept"})), p.now)
        .is_err());
    state.borrow_mut().gets = gets(vec![get_reply(&json!(0), done("after new"))]);
    p.session
        .answer_input(inputs[1].0, Ok(json!({"action": "accept"})), p.now)
        .unwrap();
    p.pump();
    p.advance(5_000);
    let updates: Vec<Value> = state
        .borrow()
        .seen
        .iter()
        .filter(|s| s.0 == "tasks/update")
        .map(|s| s.1["inputResponses"].clone())
        .collect();
    assert_eq!(updates, [json!({"new": {"action": "accept"}})]);
    assert_eq!(p.ok(op)["content"][0]["text"], "after new");
}

#[test]
fn a_task_is_resumed_once_and_only_in_a_session_of_its_kind() {
    let (mut p, _) = connected(Script::default(), cfg());
    let op = call(&mut p);
    p.advance(10);
    let info = TaskInfo::from_host_json(
        &json!({"taskId": TASK, "shape": "extension", "status": "working"}),
    )
    .unwrap();
    let twice = p.session.resume_task(info, p.now);
    p.pump();
    assert!(matches!(p.err(twice), ProtocolError::InvalidConfig(_)));
    assert!(p.completed(op).is_none(), "the first poller goes on");
    let legacy = TaskInfo::from_host_json(
        &json!({"taskId": "other", "shape": "2025-11-25", "status": "working"}),
    )
    .unwrap();
    let wrong = p.session.resume_task(legacy, p.now);
    p.pump();
    assert!(
        matches!(p.err(wrong), ProtocolError::InvalidConfig(_)),
        "{:?}",
        p.err(wrong)
    );
}

#[test]
fn a_task_the_server_forgot_or_whose_ttl_ran_out_is_expired() {
    let (mut p, _) = polling(vec![Reply::error(
        200,
        &json!(0),
        -32602,
        "Failed to retrieve task: Task not found",
        None,
    )]);
    let op = call(&mut p);
    p.advance(2_000);
    assert!(matches!(p.err(op), ProtocolError::TaskExpired { task_id, .. } if task_id == TASK));
    assert_eq!(p.err(op).code(), "TASK_EXPIRED");

    // TTL 3 s, polled every second, never ends: given up at the TTL, not before, not long after.
    let (mut p, state) = scripted(
        created(task("working", Some(1000), Some(3_000))),
        vec![get_reply(
            &json!(0),
            task("working", Some(1000), Some(3_000)),
        )],
    );
    let op = call(&mut p);
    let start = p.now;
    p.advance(2_900);
    assert!(p.completed(op).is_none());
    p.advance(200);
    assert!(
        matches!(p.err(op), ProtocolError::TaskExpired { .. }),
        "{:?}",
        p.completed(op)
    );
    assert!(p.now - start <= 3_100);
    assert!(count(&state, "tasks/get") <= 3);
}

#[test]
fn the_wait_limit_leaves_the_task_running_and_it_can_be_resumed_by_id() {
    let mut c = cfg();
    c.max_task_wait_ms = Some(5_000);
    let (mut p, state) = connected(Script::default(), c);
    let op = call(&mut p);
    p.advance(6_000);
    assert_eq!(
        p.err(op),
        &ProtocolError::TaskTimeout {
            task_id: TASK.into(),
            after_ms: 5_000
        }
    );
    assert_eq!(count(&state, "tasks/cancel"), 0, "the task is left to run");
    // Resumed from what a host kept (a snapshot, a TaskStatus event): polls, no tools/call.
    let info = TaskInfo::from_host_json(
        &json!({"taskId": TASK, "shape": "extension", "status": "working", "pollIntervalMs": 1000}),
    )
    .unwrap();
    state.borrow_mut().gets = gets(vec![get_reply(&json!(0), done("resumed"))]);
    let calls = count(&state, "tools/call");
    let resumed = p.session.resume_task(info, p.now);
    p.pump();
    p.advance(10);
    assert_eq!(p.ok(resumed)["content"][0]["text"], "resumed");
    assert_eq!(count(&state, "tools/call"), calls);
}

#[test]
fn without_the_extension_nothing_is_declared_and_a_task_is_an_invalid_result() {
    let mut c = cfg();
    c.extensions.clear();
    let (mut p, state) = connected(Script::default(), c);
    let op = call(&mut p);
    let sent = state
        .borrow()
        .seen
        .iter()
        .find(|s| s.0 == "tools/call")
        .unwrap()
        .1
        .clone();
    assert_eq!(
        sent["_meta"]["io.modelcontextprotocol/clientCapabilities"],
        json!({})
    );
    assert!(
        matches!(p.err(op), ProtocolError::InvalidResult(_)),
        "{:?}",
        p.err(op)
    );
    assert_eq!(count(&state, "tasks/get"), 0);
}

#[test]
fn extension_identifiers_are_checked() {
    let mut c = cfg();
    c.extensions.insert("tasks".into(), json!({}));
    assert!(matches!(c.validate(), Err(ProtocolError::InvalidConfig(_))));
    let mut c = cfg();
    c.extensions
        .insert("com.example/my-ext.v2".into(), json!({"x": 1}));
    c.validate().unwrap();
}

#[test]
fn trace_context_goes_into_meta_and_a_bad_traceparent_is_not_sent() {
    let (mut p, state) = connected(
        Script {
            create: Some(Reply::result(&json!(0), json!({"content": []}))),
            ..Default::default()
        },
        cfg(),
    );
    let tp = "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01";
    let opts = RequestOptions {
        meta: RequestMeta {
            traceparent: Some(tp.into()),
            tracestate: Some("rojo=00f067aa0ba902b7".into()),
            baggage: Some("user=alice".into()),
            log_level: Some("error".into()),
        },
        ..Default::default()
    };
    let op = p
        .session
        .request("tools/call", json!({"name": "job"}), opts, p.now);
    p.pump();
    p.ok(op);
    let meta = state
        .borrow()
        .seen
        .iter()
        .find(|s| s.0 == "tools/call")
        .unwrap()
        .1["_meta"]
        .clone();
    assert_eq!(meta["traceparent"], tp);
    assert_eq!(meta["tracestate"], "rojo=00f067aa0ba902b7");
    assert_eq!(meta["baggage"], "user=alice");
    assert_eq!(meta["io.modelcontextprotocol/logLevel"], "error");
    let before = state.borrow().seen.len();
    let bad = RequestOptions {
        meta: RequestMeta {
            traceparent: Some("00-xyz".into()),
            ..Default::default()
        },
        ..Default::default()
    };
    let op = p
        .session
        .request("tools/call", json!({"name": "job"}), bad, p.now);
    p.pump();
    assert_eq!(p.err(op).code(), "INVALID_META");
    assert_eq!(state.borrow().seen.len(), before, "nothing sent");
}

// ---- 2025-11-25 -----------------------------------------------------------------------------

#[derive(Default)]
struct Legacy {
    seen: Vec<(String, Value)>,
    /// Statuses `tasks/get` walks through (the last repeats).
    statuses: VecDeque<&'static str>,
    /// `tasks/result` first asks for input on its stream.
    elicit: bool,
    /// The answer the client posted to the elicitation.
    answer: Option<Value>,
    /// `tasks/result` answers with this JSON-RPC error code (the tool's own error).
    result_error: Option<i64>,
    /// Serve a (silent, open) GET stream.
    get_stream: bool,
    /// Which `tasks/get` requests (counted from 0) find the session gone (404).
    gets_404: Vec<usize>,
    gets_seen: usize,
}

fn legacy_tasks(state: Rc<RefCell<Legacy>>) -> impl FnMut(&HttpRequest) -> Reply {
    move |req: &HttpRequest| {
        let mut st = state.borrow_mut();
        let id = id_of(req);
        let method = method_of(req);
        let b = body(req).unwrap_or(Value::Null);
        st.seen.push((method.clone(), params_of(req)));
        let legacy_task = |status: &str| json!({"taskId": "t-1", "status": status, "createdAt": "2025-11-25T10:30:00Z", "lastUpdatedAt": "2025-11-25T10:30:00Z", "ttl": 60000, "pollInterval": 1000});
        if method == "GET" {
            return if st.get_stream {
                Reply::sse_raw(": open\n\n").open()
            } else {
                Reply::status(405, "")
            };
        }
        if b.get("result").is_some() {
            st.answer = Some(b.clone());
            return Reply::accepted();
        }
        match method.as_str() {
            "server/discover" => Reply::error(400, &json!(null), -32000, "Bad Request: No valid session ID provided", None),
            "initialize" => Reply::result(
                &id,
                json!({"protocolVersion": "2025-11-25", "capabilities": {"tools": {}, "tasks": {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}}, "serverInfo": {"name": "legacy", "version": "1"}}),
            )
            .header("Mcp-Session-Id", "s-1"),
            "notifications/initialized" => Reply::accepted(),
            "tools/list" => Reply::result(
                &id,
                tools_page(
                    json!([
                        {"name": "research", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "required"}},
                        {"name": "maybe", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "optional"}},
                        {"name": "plain", "inputSchema": {"type": "object"}}
                    ]),
                    None,
                ),
            ),
            "tools/call" => {
                let p = params_of(req);
                if p.get("task").is_some() {
                    // On a stream with event ids, as the TypeScript SDK answers: the position
                    // belongs to the call, not to the polls that follow.
                    let msg = json!({"jsonrpc": "2.0", "id": id, "result": {"task": legacy_task("working")}});
                    Reply::sse_raw(&format!("id: ev-1\ndata: \n\nid: ev-2\ndata: {msg}\n\n"))
                } else {
                    Reply::result(&id, json!({"content": [{"type": "text", "text": "sync"}]}))
                }
            }
            "tasks/get" if st.gets_404.contains(&st.gets_seen) => {
                st.gets_seen += 1;
                Reply::status(404, "session not found")
            }
            "tasks/get" => {
                st.gets_seen += 1;
                let s = if st.statuses.len() > 1 {
                    st.statuses.pop_front().unwrap()
                } else {
                    st.statuses.front().copied().unwrap_or("working")
                };
                Reply::result(&id, legacy_task(s))
            }
            "tasks/list" => {
                // Two pages.
                if params_of(req).get("cursor").is_none() {
                    Reply::result(&id, json!({"tasks": [legacy_task("working")], "nextCursor": "p2"}))
                } else {
                    Reply::result(&id, json!({"tasks": [with(legacy_task("completed"), "taskId", json!("t-2"))]}))
                }
            }
            "tasks/result" if st.result_error.is_some() => {
                let code = st.result_error.unwrap_or_default();
                Reply::error(200, &id, code, "bad arguments for the tool", None)
            }
            "tasks/result" => {
                let result = json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": "report"}], "_meta": {"io.modelcontextprotocol/related-task": {"taskId": "t-1"}}}});
                if st.elicit && st.answer.is_none() {
                    Reply::sse(&[json!({"jsonrpc": "2.0", "id": "e-1", "method": "elicitation/create", "params": {"message": "which?", "requestedSchema": {"type": "object"}, "_meta": {"io.modelcontextprotocol/related-task": {"taskId": "t-1"}}}})]).open()
                } else {
                    Reply::sse(&[result])
                }
            }
            other => Reply::error(200, &id, -32601, &format!("no {other}"), None),
        }
    }
}

fn legacy_pair(st: Legacy) -> (Pair<impl FnMut(&HttpRequest) -> Reply>, Rc<RefCell<Legacy>>) {
    let get = st.get_stream;
    let state = Rc::new(RefCell::new(st));
    let mut c = SessionConfig::new("http://127.0.0.1:1/mcp");
    c.protocol = ProtocolChoice::Exact("2025-11-25".into());
    c.open_get_stream = get;
    let mut p = Pair::new(c, legacy_tasks(state.clone()));
    let op = p.session.connect(0);
    p.pump();
    p.ok(op);
    (p, state)
}

/// Calls the legacy fake's tool `name` (no arguments).
fn legacy_call(
    p: &mut Pair<impl FnMut(&HttpRequest) -> Reply>,
    name: &str,
    opts: RequestOptions,
) -> OpId {
    let op = p
        .session
        .request("tools/call", json!({"name": name}), opts, p.now);
    p.pump();
    op
}

fn legacy_calls(state: &Rc<RefCell<Legacy>>, m: &str) -> Vec<Value> {
    state
        .borrow()
        .seen
        .iter()
        .filter(|s| s.0 == m)
        .map(|s| s.1.clone())
        .collect()
}

#[test]
fn a_2025_tool_that_requires_a_task_is_called_as_one_and_its_result_fetched() {
    let (mut p, state) = legacy_pair(Legacy {
        statuses: ["working", "completed"].into_iter().collect(),
        ..Default::default()
    });
    // The extensions are declared in `initialize` too.
    let init = legacy_calls(&state, "initialize");
    assert_eq!(
        init[0]["capabilities"]["extensions"][TASKS_EXTENSION],
        json!({})
    );
    let op = p.session.request(
        "tools/call",
        json!({"name": "research", "arguments": {}}),
        RequestOptions::default(),
        p.now,
    );
    p.pump();
    // Listed first to read `execution.taskSupport`, then called with `task`.
    assert_eq!(legacy_calls(&state, "tools/list").len(), 1);
    assert_eq!(legacy_calls(&state, "tools/call")[0]["task"], json!({}));
    p.advance(5_000);
    assert_eq!(p.ok(op)["content"][0]["text"], "report");
    assert_eq!(legacy_calls(&state, "tasks/get").len(), 2);
    assert_eq!(legacy_calls(&state, "tasks/result")[0]["taskId"], "t-1");
    assert!(p.events.iter().any(|e| matches!(e, Event::TaskStatus { task, .. } if task.shape == TaskShape::Legacy && task.task_id == "t-1")));

    // Optional: a plain call unless the caller prefers tasks; forbidden: never.
    let op = legacy_call(&mut p, "maybe", RequestOptions::default());
    assert_eq!(p.ok(op)["content"][0]["text"], "sync");
    let prefer = RequestOptions {
        task: TaskPreference::Prefer,
        ..Default::default()
    };
    let op = p.session.request(
        "tools/call",
        json!({"name": "maybe"}),
        prefer.clone(),
        p.now,
    );
    p.pump();
    p.advance(5_000);
    assert_eq!(p.ok(op)["content"][0]["text"], "report");
    let op = p
        .session
        .request("tools/call", json!({"name": "plain"}), prefer, p.now);
    p.pump();
    assert_eq!(p.ok(op)["content"][0]["text"], "sync");
    assert!(legacy_calls(&state, "tools/call")
        .last()
        .unwrap()
        .get("task")
        .is_none());
}

#[test]
fn a_2025_task_that_needs_input_asks_on_tasks_result_and_the_answer_names_the_task() {
    let (mut p, state) = legacy_pair(Legacy {
        statuses: ["input_required"].into_iter().collect(),
        elicit: true,
        ..Default::default()
    });
    let op = legacy_call(&mut p, "research", RequestOptions::default());
    p.advance(1_300);
    let (input, params) = p
        .events
        .iter()
        .find_map(|e| match e {
            Event::InputRequest {
                input,
                op: o,
                params,
                ..
            } if *o == Some(op) => Some((*input, params.clone())),
            _ => None,
        })
        .expect("the elicitation reached the host as the op's input");
    assert_eq!(params["message"], "which?");
    p.session
        .answer_input(
            input,
            Ok(json!({"action": "accept", "content": {"x": 1}})),
            p.now,
        )
        .unwrap();
    p.pump();
    let answer = state.borrow().answer.clone().expect("answer posted");
    assert_eq!(answer["id"], "e-1");
    assert_eq!(
        answer["result"]["_meta"]["io.modelcontextprotocol/related-task"]["taskId"],
        "t-1"
    );
    assert_eq!(answer["result"]["action"], "accept");
    // The task goes on: the open tasks/result ends, polling resumes and delivers the report.
    state.borrow_mut().statuses = ["completed"].into_iter().collect();
    let open = p.open.clone();
    for ex in open {
        p.end(ex);
    }
    p.advance(20_000);
    assert_eq!(p.ok(op)["content"][0]["text"], "report");
}

#[test]
fn a_2025_request_for_input_on_the_get_stream_belongs_to_the_task_it_names() {
    // "Clients SHOULD expect messages to be delivered on any SSE stream, including the HTTP GET
    // stream" (MCP 2025-11-25 `basic/utilities/tasks`).
    let (mut p, state) = legacy_pair(Legacy {
        statuses: ["working"].into_iter().collect(),
        get_stream: true,
        ..Default::default()
    });
    let op = legacy_call(&mut p, "research", RequestOptions::default());
    p.advance(500);
    let get = p
        .requests
        .iter()
        .find(|r| method_of(&r.2) == "GET")
        .map(|r| r.0)
        .expect("GET stream open");
    let request = json!({"jsonrpc": "2.0", "id": "g-1", "method": "elicitation/create", "params": {"message": "on GET", "requestedSchema": {"type": "object"}, "_meta": {"io.modelcontextprotocol/related-task": {"taskId": "t-1"}}}});
    p.push(get, &format!("data: {request}\n\n"));
    let (input, of) = p
        .events
        .iter()
        .find_map(|e| match e {
            Event::InputRequest { input, op, .. } => Some((*input, *op)),
            _ => None,
        })
        .expect("input surfaced");
    assert_eq!(of, Some(op), "tied to the task's call");
    p.session
        .answer_input(input, Ok(json!({"action": "decline"})), p.now)
        .unwrap();
    p.pump();
    let answer = state.borrow().answer.clone().expect("answer posted");
    assert_eq!(
        answer["result"]["_meta"]["io.modelcontextprotocol/related-task"]["taskId"],
        "t-1"
    );
    // The task ends: nothing of it stays open.
    p.session.cancel(op, p.now);
    p.pump();
    assert_eq!(p.session.pending_ops(), 0);
}

#[test]
fn a_long_2025_task_survives_its_session_ending_more_than_once() {
    // Each poll starts afresh: the one-shot recoveries (a new session after a 404, a sign-in)
    // are per poll, not per task.
    let (mut p, state) = legacy_pair(Legacy {
        statuses: ["working", "working", "working", "working", "completed"]
            .into_iter()
            .collect(),
        gets_404: vec![1, 3],
        ..Default::default()
    });
    let op = legacy_call(&mut p, "research", RequestOptions::default());
    p.advance(30_000);
    assert_eq!(p.ok(op)["content"][0]["text"], "report");
    assert_eq!(
        legacy_calls(&state, "initialize").len(),
        3,
        "two new sessions"
    );
    assert_eq!(legacy_calls(&state, "tools/call").len(), 1);
}

#[test]
fn tasks_list_pages_in_the_2025_era_and_does_not_exist_in_2026() {
    let (mut p, _) = legacy_pair(Legacy::default());
    let op = p
        .session
        .list_all(ListKind::Tasks, RequestOptions::default(), p.now);
    p.pump();
    assert_eq!(members(p.ok(op), "tasks", "taskId"), ["t-1", "t-2"]);
    let (mut p, state) = connected(Script::default(), cfg());
    let op = p
        .session
        .list_all(ListKind::Tasks, RequestOptions::default(), p.now);
    p.pump();
    assert!(matches!(p.err(op), ProtocolError::InvalidConfig(_)));
    assert_eq!(count(&state, "tasks/list"), 0, "nothing sent");
}

#[test]
fn a_2025_task_whose_tool_failed_with_invalid_params_is_task_failed_not_expired() {
    let (mut p, _) = legacy_pair(Legacy {
        statuses: ["working", "failed"].into_iter().collect(),
        result_error: Some(-32602),
        ..Default::default()
    });
    let op = legacy_call(&mut p, "research", RequestOptions::default());
    p.advance(10_000);
    match p.err(op) {
        ProtocolError::TaskFailed { task_id, error } => {
            assert_eq!(task_id, "t-1");
            assert_eq!(error.code, -32602);
        }
        e => panic!("{e:?}"),
    }
}

// Runs in the runtime `wasm-pack test` asks for (see tests/wasm-test-mode).
mcp_edge_wasm_test_mode::configure!();
