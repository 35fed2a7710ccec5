//! The JS API (`McpClient`) end to end against real servers, in Node and in headless Chromium:
//! `@modelcontextprotocol/server-everything` (2025 era), a Python `mcp` SDK server (2026-07-28 and
//! 2025 era), and a misbehaving fixture. `tests/wasm/run-client-tests.sh` starts the servers and
//! compiles their URLs in; without them every test fails (none is skipped).
#![cfg(all(target_family = "wasm", target_os = "unknown"))]

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, Function, Object, Promise, Reflect};
use mcp_edge::js::McpClient;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

mod e2e;
use e2e::*;

fn in_browser() -> bool {
    Reflect::get(&js_sys::global(), &"location".into())
        .map(|l| !l.is_undefined())
        .unwrap_or(false)
}

fn obj(pairs: &[(&str, JsValue)]) -> JsValue {
    let o = Object::new();
    for (k, v) in pairs {
        Reflect::set(&o, &JsValue::from_str(k), v).unwrap();
    }
    o.into()
}
fn get(v: &JsValue, path: &str) -> JsValue {
    let mut cur = v.clone();
    for part in path.split('.') {
        cur = match part.parse::<u32>() {
            Ok(i) if Array::is_array(&cur) => Array::from(&cur).get(i),
            _ => Reflect::get(&cur, &JsValue::from_str(part)).unwrap_or(JsValue::UNDEFINED),
        };
    }
    cur
}
fn s(v: &JsValue, path: &str) -> String {
    get(v, path).as_string().unwrap_or_default()
}
async fn sleep(ms: i32) {
    let p = Promise::new(&mut |resolve, _| {
        let set: Function = Reflect::get(&js_sys::global(), &"setTimeout".into())
            .unwrap()
            .unchecked_into();
        set.call2(&JsValue::NULL, &resolve, &ms.into()).unwrap();
    });
    JsFuture::from(p).await.unwrap();
}
/// A promise that resolves to `"__timeout__"` after `ms`.
fn timed_out(ms: i32) -> Promise {
    Promise::new(&mut |resolve, _| {
        let set: Function = Reflect::get(&js_sys::global(), &"setTimeout".into())
            .unwrap()
            .unchecked_into();
        let late = Function::new_with_args("r", "return () => r('__timeout__')");
        let cb = late.call1(&JsValue::NULL, &resolve).unwrap();
        set.call2(&JsValue::NULL, &cb, &ms.into()).unwrap();
    })
}

/// The next notification of an iterator from `notifications()`, or a panic after `ms`.
async fn next_within(it: &JsValue, ms: i32) -> JsValue {
    let next: Function = get(it, "next").unchecked_into();
    let step: Promise = next.call0(it).unwrap().unchecked_into();
    let r = wait(Promise::race(&Array::of2(&step, &timed_out(ms))))
        .await
        .unwrap();
    if r.as_string().as_deref() == Some("__timeout__") {
        panic!("no notification within {ms} ms");
    }
    get(&r, "value")
}

fn tool_names(list: &JsValue) -> Vec<String> {
    Array::from(list).iter().map(|t| s(&t, "name")).collect()
}

/// Values an `onProgress` callback saw.
type Seen = Rc<RefCell<Vec<f64>>>;

/// An `onProgress` callback and the progress values it saw.
fn progress_recorder() -> (Seen, Closure<dyn Fn(JsValue)>) {
    let seen = Rc::new(RefCell::new(Vec::<f64>::new()));
    let seen2 = seen.clone();
    let on_progress = Closure::<dyn Fn(JsValue)>::new(move |p: JsValue| {
        seen2
            .borrow_mut()
            .push(get(&p, "progress").as_f64().unwrap())
    });
    (seen, on_progress)
}

/// Accepts any form elicitation, filling each requested property by type.
fn accept_all() -> Function {
    Closure::<dyn Fn(JsValue) -> JsValue>::new(|params: JsValue| {
        let props = get(&params, "requestedSchema.properties");
        let content = Object::new();
        if props.is_object() {
            for key in Object::keys(props.unchecked_ref::<Object>()).iter() {
                let ty = s(&get(&props, &key.as_string().unwrap()), "type");
                let v: JsValue = match ty.as_str() {
                    "number" | "integer" => 3.into(),
                    "boolean" => true.into(),
                    _ => "yes".into(),
                };
                Reflect::set(&content, &key, &v).unwrap();
            }
        }
        obj(&[("action", "accept".into()), ("content", content.into())])
    })
    .into_js_value()
    .unchecked_into()
}

async fn connect(url: &str, options: JsValue) -> McpClient {
    match McpClient::connect(url.to_string(), options).await {
        Ok(c) => c,
        Err(e) => panic!("connect {url} failed: {}", s(&e, "message")),
    }
}

// ---- server-everything (2025 era) -------------------------------------------------------------

#[wasm_bindgen_test]
async fn everything_connect_list_and_call() {
    let c = connect(
        &everything(),
        obj(&[("onElicitation", accept_all().into())]),
    )
    .await;
    assert_eq!(c.era(), "legacy");
    assert_eq!(c.protocol_version(), "2025-11-25");
    assert!(
        c.session_id().is_some_and(|s| !s.is_empty()),
        "session id readable (CORS-exposed)"
    );
    let tools = wait(c.list_tools(JsValue::UNDEFINED)).await.unwrap();
    let names = tool_names(&tools);
    assert!(names.len() >= 10, "{names:?}");
    assert!(names.contains(&"echo".to_string()));
    let r = wait(c.call_tool(
        "echo".into(),
        json(serde_json::json!({"message": "hi"})),
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap();
    assert_eq!(s(&r, "content.0.text"), "Echo: hi");
    wait(c.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn everything_progress_reaches_on_progress() {
    let c = connect(&everything(), JsValue::UNDEFINED).await;
    let (seen, on_progress) = progress_recorder();
    let opts = obj(&[("onProgress", on_progress.as_ref().clone())]);
    let r = wait(c.call_tool(
        "trigger-long-running-operation".into(),
        json(serde_json::json!({"duration": 1, "steps": 4})),
        opts,
    ))
    .await
    .unwrap();
    assert!(
        s(&r, "content.0.text").contains("completed"),
        "{}",
        s(&r, "content.0.text")
    );
    let p = seen.borrow().clone();
    assert!(p.len() >= 3, "progress events: {p:?}");
    assert!(p.windows(2).all(|w| w[1] > w[0]), "increasing: {p:?}");
    wait(c.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn everything_cancel_with_abort_signal_tells_the_server() {
    let traffic = Rc::new(RefCell::new(Vec::<JsValue>::new()));
    let t2 = traffic.clone();
    let on_traffic = Closure::<dyn Fn(JsValue)>::new(move |r: JsValue| t2.borrow_mut().push(r));
    let c = connect(
        &everything(),
        obj(&[("onTraffic", on_traffic.as_ref().clone())]),
    )
    .await;
    let ac = web_sys::AbortController::new().unwrap();
    let opts = obj(&[("signal", ac.signal().into())]);
    let call = c.call_tool(
        "trigger-long-running-operation".into(),
        json(serde_json::json!({"duration": 30, "steps": 30})),
        opts,
    );
    sleep(400).await;
    ac.abort();
    let err = wait(call).await.unwrap_err();
    assert_eq!(s(&err, "code"), "ABORTED");
    assert_eq!(s(&err, "name"), "McpError");
    assert!(err.is_instance_of::<js_sys::Error>());
    sleep(300).await;
    let records = traffic.borrow().clone();
    let cancel = records
        .iter()
        .find(|r| s(r, "type") == "request" && s(r, "body").contains("notifications/cancelled"));
    let cancel = cancel.expect("notifications/cancelled was POSTed");
    let ex = get(cancel, "exchange");
    let accepted = records.iter().any(|r| {
        s(r, "type") == "head"
            && get(r, "exchange") == ex
            && get(r, "status").as_f64() == Some(202.0)
    });
    assert!(accepted, "the server accepted the cancellation (202)");
    wait(c.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn everything_get_stream_delivers_a_notification() {
    let c = connect(&everything(), JsValue::UNDEFINED).await;
    wait(c.call_tool(
        "toggle-simulated-logging".into(),
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap();
    let it = c.notifications();
    let mut got = false;
    for _ in 0..40 {
        let v = next_within(&it, 15_000).await;
        if s(&v, "type") == "notification" && s(&v, "method") == "notifications/message" {
            got = true;
            break;
        }
    }
    assert!(got, "a logging notification arrived on the GET stream");
    wait(c.call_tool(
        "toggle-simulated-logging".into(),
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap();
    wait(c.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn everything_elicitation_request_is_answered_by_the_handler() {
    let calls = Rc::new(RefCell::new(0));
    let c2 = calls.clone();
    let inner = accept_all();
    let handler = Closure::<dyn Fn(JsValue) -> JsValue>::new(move |p: JsValue| {
        *c2.borrow_mut() += 1;
        inner.call1(&JsValue::NULL, &p).unwrap()
    });
    let c = connect(
        &everything(),
        obj(&[("onElicitation", handler.as_ref().clone())]),
    )
    .await;
    let names = tool_names(&wait(c.list_tools(JsValue::UNDEFINED)).await.unwrap());
    assert!(
        names.contains(&"trigger-elicitation-request".to_string()),
        "{names:?}"
    );
    let r = wait(c.call_tool(
        "trigger-elicitation-request".into(),
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap();
    assert_eq!(*calls.borrow(), 1);
    let text = Array::from(&get(&r, "content"))
        .iter()
        .map(|b| s(&b, "text"))
        .collect::<Vec<_>>()
        .join(" ");
    assert!(text.to_lowercase().contains("accept"), "{text}");
    wait(c.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn unknown_tool_is_a_protocol_error_with_its_rpc_code() {
    // A server that follows the spec answers -32602 (the fixture's MCP endpoint does).
    let c = connect(&format!("{}/mcp-faulty", fixture()), JsValue::UNDEFINED).await;
    let err = wait(c.call_tool(
        "no-such-tool".into(),
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap_err();
    assert_eq!(s(&err, "code"), "RPC", "{}", s(&err, "message"));
    assert_eq!(get(&err, "rpcCode").as_f64(), Some(-32602.0));
    assert!(s(&err, "message").contains("Unknown tool: no-such-tool"));
    // server-everything 2026.8.31 answers an unknown tool with an isError result instead; the
    // client passes that through as a result, never as a thrown error.
    let c = connect(&everything(), JsValue::UNDEFINED).await;
    let r = wait(c.call_tool(
        "no-such-tool".into(),
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap();
    assert_eq!(get(&r, "isError").as_bool(), Some(true));
    wait(c.close()).await.unwrap();
}

// ---- Python mcp SDK server (2026-07-28, and 2025 on the same URL) ---------------------------------

#[wasm_bindgen_test]
async fn py_auto_chooses_2026_lists_all_pages_and_drops_invalid_header_tools() {
    let c = connect(&py(), JsValue::UNDEFINED).await;
    assert_eq!(c.era(), "modern");
    assert_eq!(c.protocol_version(), "2026-07-28");
    assert!(!s(&c.server_info(), "name").is_empty());
    let names = tool_names(&wait(c.list_tools(JsValue::UNDEFINED)).await.unwrap());
    for t in [
        "add",
        "echo",
        "slow_progress",
        "mrtr_twice",
        "region_query",
        "fail",
        "add_tool",
    ] {
        assert!(names.contains(&t.to_string()), "{t} missing from {names:?}");
    }
    assert!(
        !names.contains(&"bad_header_tool".to_string())
            && !names.contains(&"bad_header_space".to_string()),
        "{names:?}"
    );
    assert!(names.len() > 3, "more than one page was followed");
}

#[wasm_bindgen_test]
async fn py_progress_over_sse() {
    let c = connect(&py(), JsValue::UNDEFINED).await;
    let seen = Rc::new(RefCell::new(Vec::<String>::new()));
    let seen2 = seen.clone();
    let on_progress = Closure::<dyn Fn(JsValue)>::new(move |p: JsValue| {
        seen2.borrow_mut().push(s(&p, "message"))
    });
    let r = wait(c.call_tool(
        "slow_progress".into(),
        json(serde_json::json!({"steps": 3, "delay_ms": 50})),
        obj(&[("onProgress", on_progress.as_ref().clone())]),
    ))
    .await
    .unwrap();
    assert_eq!(s(&r, "content.0.text"), "done 3 steps");
    assert_eq!(*seen.borrow(), vec!["step 1/3", "step 2/3", "step 3/3"]);
}

#[wasm_bindgen_test]
async fn py_mrtr_input_required_twice_through_the_js_handler() {
    let answers = Rc::new(RefCell::new(vec!["banana", "apple"]));
    let a2 = answers.clone();
    let handler = Closure::<dyn Fn(JsValue) -> JsValue>::new(move |_p: JsValue| {
        let answer = a2.borrow_mut().pop().unwrap_or("extra");
        // Answer asynchronously, as a UI would.
        let v = obj(&[
            ("action", "accept".into()),
            ("content", obj(&[("answer", answer.into())])),
        ]);
        Promise::resolve(&v).into()
    });
    let c = connect(&py(), obj(&[("onElicitation", handler.as_ref().clone())])).await;
    let r = wait(c.call_tool("mrtr_twice".into(), JsValue::UNDEFINED, JsValue::UNDEFINED))
        .await
        .unwrap();
    assert_eq!(s(&r, "content.0.text"), "first=apple second=banana");
    assert!(answers.borrow().is_empty());
}

#[wasm_bindgen_test]
async fn py_x_mcp_header_arrives_as_mcp_param() {
    let c = connect(&py(), JsValue::UNDEFINED).await;
    for region in ["eu-west-1", "Zürich 東京"] {
        let r = wait(c.call_tool(
            "region_query".into(),
            json(serde_json::json!({"region": region, "query": "q"})),
            JsValue::UNDEFINED,
        ))
        .await;
        let r = r.unwrap_or_else(|e| panic!("{}", s(&e, "message")));
        assert_eq!(s(&r, "content.0.text"), format!("region={region} query=q"));
    }
}

#[wasm_bindgen_test]
async fn py_structured_result_and_tool_failure_as_result() {
    let c = connect(&py(), JsValue::UNDEFINED).await;
    wait(c.list_tools(JsValue::UNDEFINED)).await.unwrap();
    assert!(get(&c.get_tool("add".into()), "outputSchema").is_object());
    let r = wait(c.call_tool(
        "add".into(),
        json(serde_json::json!({"a": 2, "b": 3})),
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap();
    assert_eq!(get(&r, "structuredContent.sum").as_f64(), Some(5.0));
    let f = wait(c.call_tool("fail".into(), JsValue::UNDEFINED, JsValue::UNDEFINED))
        .await
        .unwrap();
    assert_eq!(get(&f, "isError").as_bool(), Some(true));
}

#[wasm_bindgen_test]
async fn py_subscriptions_listen_receives_tools_list_changed() {
    let c = connect(&py(), JsValue::UNDEFINED).await;
    let before = tool_names(&wait(c.list_tools(JsValue::UNDEFINED)).await.unwrap());
    let ac = web_sys::AbortController::new().unwrap();
    let sub = c.subscribe(
        json(serde_json::json!({"toolsListChanged": true})),
        obj(&[("signal", ac.signal().into())]),
    );
    let it = c.notifications();
    // Wait for the acknowledgement before changing the list.
    loop {
        let v = next_within(&it, 15_000).await;
        if s(&v, "method") == "notifications/subscriptions/acknowledged" {
            break;
        }
    }
    let name = format!("t{}", js_sys::Date::now() as u64 % 1_000_000_000);
    wait(c.call_tool(
        "add_tool".into(),
        json(serde_json::json!({"name": name})),
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap();
    loop {
        let v = next_within(&it, 15_000).await;
        if s(&v, "method") == "notifications/tools/list_changed" {
            break;
        }
    }
    let after = tool_names(&wait(c.list_tools(JsValue::UNDEFINED)).await.unwrap());
    assert!(after.contains(&name) && !before.contains(&name));
    ac.abort();
    let err = wait(sub).await.unwrap_err();
    assert_eq!(s(&err, "code"), "ABORTED");
}

#[wasm_bindgen_test]
async fn py_2025_session_killed_on_the_server_is_reinitialized_transparently() {
    let c = connect(&py(), obj(&[("protocol", "2025-11-25".into())])).await;
    assert_eq!(c.era(), "legacy");
    let first = c.session_id().expect("session id");
    let r = wait(c.call_tool(
        "echo".into(),
        json(serde_json::json!({"message": "a"})),
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap();
    assert_eq!(s(&r, "content.0.text"), "a");
    let init = obj(&[("method", "POST".into())]);
    let fetch: Function = Reflect::get(&js_sys::global(), &"fetch".into())
        .unwrap()
        .unchecked_into();
    let resp = wait(
        fetch
            .call2(&JsValue::NULL, &py_admin().into(), &init)
            .unwrap()
            .unchecked_into(),
    )
    .await
    .unwrap();
    assert_eq!(get(&resp, "status").as_f64(), Some(200.0));
    let r = wait(c.call_tool(
        "echo".into(),
        json(serde_json::json!({"message": "b"})),
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap();
    assert_eq!(s(&r, "content.0.text"), "b");
    let second = c.session_id().expect("new session id");
    assert_ne!(first, second);
    wait(c.close()).await.unwrap();
}

// ---- error paths --------------------------------------------------------------------------------

#[wasm_bindgen_test]
async fn a_server_answering_500_is_an_http_status_error() {
    let err = McpClient::connect(format!("{}/mcp-500", fixture()), JsValue::UNDEFINED)
        .await
        .err()
        .expect("connect must fail");
    assert_eq!(s(&err, "code"), "HTTP_STATUS");
    assert_eq!(get(&err, "status").as_f64(), Some(500.0));
}

/// The text of a GET to `url`.
async fn fetch_text(url: String) -> String {
    let fetch: Function = Reflect::get(&js_sys::global(), &"fetch".into())
        .unwrap()
        .unchecked_into();
    let resp = wait(
        fetch
            .call1(&JsValue::NULL, &url.into())
            .unwrap()
            .unchecked_into(),
    )
    .await
    .unwrap();
    let text: Promise = get(&resp, "text")
        .unchecked_into::<Function>()
        .call0(&resp)
        .unwrap()
        .unchecked_into();
    wait(text).await.unwrap().as_string().unwrap()
}

/// How often the fixture's `/mcp-faulty` ran tool `name`.
async fn fixture_calls(name: &str) -> u32 {
    fetch_text(format!("{}/mcp-faulty/calls?name={name}", fixture()))
        .await
        .parse()
        .unwrap()
}

/// Polls `read` until it returns `want` (at most about 5 s); returns the last value read.
async fn poll_until<F, Fut>(want: &str, read: F) -> String
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = String>,
{
    let mut last = String::new();
    for _ in 0..50 {
        last = read().await;
        if last == want {
            break;
        }
        sleep(100).await;
    }
    last
}

/// The fixture's view of the tagged request's connection, polled until it reads "closed" (or
/// the polls run out).
async fn hang_state_once_closed(tag: &str) -> String {
    poll_until("closed", || {
        fetch_text(format!("{}/hang-state?tag={tag}", fixture()))
    })
    .await
}

fn unique(prefix: &str) -> String {
    format!("{prefix}-{}", (js_sys::Math::random() * 1e12) as u64)
}

#[wasm_bindgen_test]
async fn a_tool_call_whose_stream_breaks_runs_once_unless_it_may_run_twice() {
    let c = connect(&format!("{}/mcp-faulty", fixture()), JsValue::UNDEFINED).await;
    assert_eq!(c.era(), "modern");
    // No hints, no opt-in: not sent again, and the error says it may have run.
    let before = fixture_calls("drop_me").await;
    let err = wait(c.call_tool("drop_me".into(), JsValue::UNDEFINED, JsValue::UNDEFINED))
        .await
        .unwrap_err();
    assert_eq!(s(&err, "code"), "STREAM_DROPPED", "{}", s(&err, "message"));
    assert_eq!(get(&err, "mayHaveRun").as_bool(), Some(true));
    assert!(
        s(&err, "message").contains("may have run"),
        "{}",
        s(&err, "message")
    );
    assert_eq!(fixture_calls("drop_me").await - before, 1, "sent once");
    // The caller's opt-in: re-issued once.
    let before = fixture_calls("drop_me").await;
    let opts = obj(&[("idempotent", true.into())]);
    let err = wait(c.call_tool("drop_me".into(), JsValue::UNDEFINED, opts))
        .await
        .unwrap_err();
    assert_eq!(s(&err, "code"), "STREAM_DROPPED");
    assert_eq!(get(&err, "attempts").as_f64(), Some(1.0));
    assert_eq!(fixture_calls("drop_me").await - before, 2);
    // Annotated idempotentHint: re-issued once, and the new attempt's progress is delivered.
    let before = fixture_calls("drop_me_idempotent").await;
    let (seen, on_progress) = progress_recorder();
    let opts = obj(&[("onProgress", on_progress.as_ref().clone())]);
    let err = wait(c.call_tool("drop_me_idempotent".into(), JsValue::UNDEFINED, opts))
        .await
        .unwrap_err();
    assert_eq!(s(&err, "code"), "STREAM_DROPPED");
    assert_eq!(fixture_calls("drop_me_idempotent").await - before, 2);
    assert_eq!(*seen.borrow(), [1.0, 1.0], "each attempt's progress");
}

#[wasm_bindgen_test]
async fn an_oversized_event_fails_at_once_and_the_server_sees_the_connection_close() {
    let opts = obj(&[("maxEventBytes", 4096.into())]);
    let c = connect(&format!("{}/mcp-faulty", fixture()), opts).await;
    let tag = unique("oversized");
    let before = fixture_calls("oversized").await;
    let args = json(serde_json::json!({"tag": tag}));
    let err = wait(c.call_tool("oversized".into(), args, JsValue::UNDEFINED))
        .await
        .unwrap_err();
    assert_eq!(s(&err, "code"), "EVENT_TOO_LARGE", "{}", s(&err, "message"));
    assert_eq!(get(&err, "limit").as_f64(), Some(4096.0));
    let state = hang_state_once_closed(&tag).await;
    assert_eq!(state, "closed", "the server saw the response stream close");
    assert_eq!(
        fixture_calls("oversized").await - before,
        1,
        "never re-issued"
    );
    // A bad limit is refused up front.
    let bad = McpClient::connect(
        format!("{}/mcp-faulty", fixture()),
        obj(&[("maxBodyBytes", 0.into())]),
    )
    .await
    .err()
    .expect("maxBodyBytes 0 is refused");
    assert_eq!(s(&bad, "code"), "INVALID_ARGUMENT");
}

#[wasm_bindgen_test]
async fn a_response_on_a_stream_the_server_keeps_open_completes_and_the_stream_is_closed() {
    // The final response SHOULD end the stream (2026-07-28 `basic/transports/streamable-http`);
    // this server keeps it open. The call completes with the response and the client stops
    // reading: the server sees the connection close long before its own 20 s safety timer.
    let c = connect(&format!("{}/mcp-faulty", fixture()), JsValue::UNDEFINED).await;
    let tag = unique("answered");
    let args = json(serde_json::json!({"tag": tag}));
    let r = wait(c.call_tool("answer_then_hang".into(), args, JsValue::UNDEFINED))
        .await
        .unwrap();
    assert_eq!(s(&r, "content.0.text"), "answered");
    let state = hang_state_once_closed(&tag).await;
    assert_eq!(
        state, "closed",
        "the client stopped reading after the response"
    );
}

#[wasm_bindgen_test]
async fn a_2026_request_that_times_out_closes_its_stream_on_the_server() {
    let c = connect(&format!("{}/mcp-faulty", fixture()), JsValue::UNDEFINED).await;
    let tag = unique("hang");
    let args = json(serde_json::json!({"tag": tag}));
    let opts = obj(&[("timeoutMs", 300.into())]);
    let err = wait(c.call_tool("hang".into(), args, opts))
        .await
        .unwrap_err();
    assert_eq!(s(&err, "code"), "TIMEOUT");
    let state = hang_state_once_closed(&tag).await;
    assert_eq!(state, "closed");
}

#[wasm_bindgen_test]
async fn a_timed_out_request_is_cancelled_on_the_python_server_in_both_eras() {
    let admin = py_faults().replace("/mcp", "/admin/tracked");
    for protocol in ["2025-11-25", "2026-07-28"] {
        let c = connect(&py_faults(), obj(&[("protocol", protocol.into())])).await;
        let tag = unique(protocol);
        let args = json(serde_json::json!({"tag": tag, "ms": 20_000}));
        let opts = obj(&[("timeoutMs", 500.into())]);
        let err = wait(c.call_tool("sleep_tracked".into(), args, opts))
            .await
            .unwrap_err();
        assert_eq!(s(&err, "code"), "TIMEOUT", "{protocol}");
        let state = poll_until("cancelled", || async {
            let body = fetch_text(format!("{admin}?tag={tag}")).await;
            let v: serde_json::Value = serde_json::from_str(&body).unwrap();
            v["state"].as_str().unwrap_or_default().to_string()
        })
        .await;
        assert_eq!(
            state, "cancelled",
            "{protocol}: the server stopped the tool"
        );
        wait(c.close()).await.unwrap();
    }
}

#[wasm_bindgen_test]
async fn retry_after_is_honoured_and_the_last_error_carries_it() {
    let c = connect(&format!("{}/mcp-faulty", fixture()), JsValue::UNDEFINED).await;
    // 429 with Retry-After: 1, twice, then through; a tool call is retried (it never ran).
    let args = json(serde_json::json!({"key": unique("twice"), "times": 2}));
    let r = wait(c.call_tool("throttled".into(), args, JsValue::UNDEFINED))
        .await
        .unwrap();
    assert_eq!(s(&r, "content.0.text"), "through after 2 refusals");
    // 503 with an HTTP-date (measured against the response's Date header).
    let args = json(serde_json::json!({"key": unique("date"), "times": 1, "date": true}));
    let r = wait(c.call_tool("throttled".into(), args, JsValue::UNDEFINED))
        .await
        .unwrap();
    assert_eq!(s(&r, "content.0.text"), "through after 1 refusals");
    // Refused every time: after 3 retries, the status, the body and the delay.
    let args = json(serde_json::json!({"key": unique("always"), "times": 100}));
    let err = wait(c.call_tool("throttled".into(), args, JsValue::UNDEFINED))
        .await
        .unwrap_err();
    assert_eq!(s(&err, "code"), "HTTP_STATUS", "{}", s(&err, "message"));
    assert_eq!(get(&err, "status").as_f64(), Some(429.0));
    assert_eq!(s(&err, "body"), "slow down (fixture)");
    assert_eq!(get(&err, "retryAfterMs").as_f64(), Some(1000.0));
}

/// A `notifications()` iterator read with a time limit: a `next()` that did not settle in time is
/// kept and awaited by the following read, so no item is taken and then lost.
struct Items {
    it: JsValue,
    pending: Option<Promise>,
}

impl Items {
    fn new(it: JsValue) -> Self {
        Items { it, pending: None }
    }

    /// The next item, or `None` when none comes within `ms`.
    async fn within(&mut self, ms: i32) -> Option<JsValue> {
        let step = match self.pending.take() {
            Some(p) => p,
            None => get(&self.it, "next")
                .unchecked_into::<Function>()
                .call0(&self.it)
                .unwrap()
                .unchecked_into(),
        };
        let r = wait(Promise::race(&Array::of2(&step, &timed_out(ms))))
            .await
            .unwrap();
        if r.as_string().as_deref() == Some("__timeout__") {
            self.pending = Some(step);
            return None;
        }
        Some(get(&r, "value"))
    }
}

#[wasm_bindgen_test]
async fn a_burst_on_the_get_stream_reaches_a_slow_iterator_without_loss() {
    const N: u32 = 4000;
    let c = connect(
        &format!("{}/mcp-legacy-burst", fixture()),
        obj(&[("protocol", "2025-11-25".into())]),
    )
    .await;
    let mut items = Items::new(c.notifications());
    // A consumer that iterates slowly: it yields to the event loop every 50 items.
    let seen = Rc::new(RefCell::new(Vec::<JsValue>::new()));
    let seen2 = seen.clone();
    let consumer = wasm_bindgen_futures::future_to_promise(async move {
        loop {
            let Some(v) = items.within(10_000).await else {
                break;
            };
            let last = s(&v, "method") == "notifications/message"
                && get(&v, "params.data").as_f64() == Some(f64::from(N - 1));
            let gap = s(&v, "type") == "gap";
            seen2.borrow_mut().push(v);
            if last || gap {
                break;
            }
            if seen2.borrow().len().is_multiple_of(50) {
                sleep(1).await;
            }
        }
        Ok(JsValue::UNDEFINED)
    });
    // The GET stream opens right after the connect; the tool refuses until it is open.
    let args = json(serde_json::json!({"count": N}));
    let mut sent = false;
    for _ in 0..50 {
        let r = wait(c.call_tool("burst".into(), args.clone(), JsValue::UNDEFINED))
            .await
            .unwrap();
        if get(&r, "isError").as_bool() != Some(true) {
            sent = true;
            break;
        }
        sleep(100).await;
    }
    assert!(sent, "the burst was written on the GET stream");
    wait(consumer).await.unwrap();
    let seen = seen.borrow().clone();
    let data: Vec<u32> = seen
        .iter()
        .filter(|v| s(v, "method") == "notifications/message")
        .map(|v| get(v, "params.data").as_f64().unwrap() as u32)
        .collect();
    assert!(
        seen.iter().all(|v| s(v, "type") != "gap"),
        "no gap: the stream paused instead"
    );
    assert_eq!(data, (0..N).collect::<Vec<_>>(), "all {N}, in order");
    assert_eq!(c.dropped_notifications(), 0.0);
    wait(c.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn a_progress_burst_on_a_request_stream_reports_what_the_queue_lost() {
    const N: u32 = 5000;
    let c = connect(&format!("{}/mcp-faulty", fixture()), JsValue::UNDEFINED).await;
    wait(c.list_tools(JsValue::UNDEFINED)).await.unwrap();
    let mut items = Items::new(c.notifications());
    // Drain what the listing reported (the broken_schema diagnostic).
    while items.within(300).await.is_some() {}
    let calls = Rc::new(RefCell::new(0u32));
    let calls2 = calls.clone();
    let on_progress = Closure::<dyn Fn(JsValue)>::new(move |_: JsValue| *calls2.borrow_mut() += 1);
    let opts = obj(&[("onProgress", on_progress.as_ref().clone())]);
    let args = json(serde_json::json!({"count": N}));
    // The iterator is open but not read while the call runs: a request's own stream is never
    // paused, so the queue overflows.
    let r = wait(c.call_tool("progress_burst".into(), args, opts))
        .await
        .unwrap();
    assert_eq!(s(&r, "content.0.text"), format!("sent {N}"));
    assert_eq!(*calls.borrow(), N, "onProgress sees every one");
    // Each gap item stands exactly where its items went missing: after progress `a`, a gap of
    // `g` is followed by progress `a + g + 1`.
    let (mut expected, mut gaps, mut gap_items) = (1u32, 0u32, 0u32);
    while let Some(v) = items.within(300).await {
        match s(&v, "type").as_str() {
            "gap" => {
                let g = get(&v, "dropped").as_f64().unwrap() as u32;
                expected += g;
                gaps += g;
                gap_items += 1;
            }
            "progress" => {
                let p = get(&v, "progress").as_f64().unwrap() as u32;
                assert_eq!(p, expected, "progress {p} where {expected} was due");
                expected += 1;
            }
            other => panic!("unexpected {other}"),
        }
    }
    assert_eq!(expected, N + 1, "every item is seen or counted in a gap");
    assert!(gap_items > 0 && gaps > 0, "the loss is reported");
    assert_eq!(c.dropped_notifications(), f64::from(gaps));
}

#[wasm_bindgen_test]
async fn a_cors_blocked_server_gets_a_diagnosis_naming_the_header() {
    let target = format!("{}/mcp-faulty", fixture_nocors());
    let r = McpClient::connect(target, JsValue::UNDEFINED).await;
    if in_browser() {
        let err = r.err().expect("the browser must block it");
        assert_eq!(s(&err, "code"), "CORS");
        let d = s(&err, "diagnosis");
        assert!(d.contains("mcp-protocol-version"), "{d}");
        assert!(d.contains("Access-Control-Allow-Headers"), "{d}");
    } else {
        // Node enforces no CORS: the same server is reachable.
        assert!(r.is_ok(), "Node has no CORS: connect must succeed");
    }
}

#[wasm_bindgen_test]
async fn snapshot_survives_a_new_client_without_a_round_trip() {
    for (url, protocol) in [(py(), "auto"), (py(), "2025-11-25")] {
        let c = connect(&url, obj(&[("protocol", protocol.into())])).await;
        wait(c.list_tools(JsValue::UNDEFINED)).await.unwrap();
        let stored = js_sys::JSON::stringify(&c.snapshot()).unwrap();
        let traffic = Rc::new(RefCell::new(Vec::<String>::new()));
        let t2 = traffic.clone();
        let on_traffic = Closure::<dyn Fn(JsValue)>::new(move |r: JsValue| {
            if s(&r, "type") == "request" {
                t2.borrow_mut().push(s(&r, "body"));
            }
        });
        let opts = obj(&[
            ("protocol", protocol.into()),
            ("onTraffic", on_traffic.as_ref().clone()),
            ("openGetStream", false.into()),
        ]);
        let restored = McpClient::restore(
            url.clone(),
            js_sys::JSON::parse(&stored.as_string().unwrap()).unwrap(),
            opts,
        )
        .unwrap();
        assert_eq!(restored.era(), c.era());
        assert_eq!(restored.session_id(), c.session_id());
        let r = wait(restored.call_tool(
            "echo".into(),
            json(serde_json::json!({"message": "again"})),
            JsValue::UNDEFINED,
        ))
        .await
        .unwrap();
        assert_eq!(s(&r, "content.0.text"), "again");
        let bodies = traffic.borrow().clone();
        assert!(
            bodies
                .iter()
                .all(|b| !b.contains("initialize") && !b.contains("server/discover")),
            "{bodies:?}"
        );
        wait(restored.close()).await.unwrap();
    }
}

#[wasm_bindgen_test]
async fn output_schema_mismatch_is_an_error_and_a_broken_schema_only_skips_its_tool() {
    let c = connect(&format!("{}/mcp-faulty", fixture()), JsValue::UNDEFINED).await;
    let err = wait(c.call_tool("bad_output".into(), JsValue::UNDEFINED, JsValue::UNDEFINED))
        .await
        .unwrap_err();
    assert_eq!(s(&err, "code"), "OUTPUT_SCHEMA", "{}", s(&err, "message"));
    assert_eq!(s(&err, "tool"), "bad_output");
    assert!(
        s(&err, "errors.0").starts_with("/sum"),
        "{}",
        s(&err, "errors.0")
    );
    let r = wait(c.call_tool(
        "broken_schema".into(),
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap();
    assert_eq!(s(&r, "structuredContent.sum"), "seven");
    let it = c.notifications();
    let mut reported = false;
    for _ in 0..10 {
        let v = next_within(&it, 5_000).await;
        if s(&v, "type") == "diagnostic" && s(&v, "message").contains("broken_schema") {
            reported = true;
            break;
        }
    }
    assert!(
        reported,
        "the compile error is reported once as a diagnostic"
    );
}

#[wasm_bindgen_test]
async fn a_notification_iterator_can_be_returned_and_another_opened() {
    let c = connect(&py(), JsValue::UNDEFINED).await;
    let it = c.notifications();
    let ret: js_sys::Function = get(&it, "return").unchecked_into();
    let done = wait(ret.call0(&it).unwrap().unchecked_into())
        .await
        .unwrap();
    assert_eq!(get(&done, "done").as_bool(), Some(true));
    let next: js_sys::Function = get(&it, "next").unchecked_into();
    let after = wait(next.call0(&it).unwrap().unchecked_into())
        .await
        .unwrap();
    assert_eq!(
        get(&after, "done").as_bool(),
        Some(true),
        "a returned iterator stays done"
    );
    // A fresh iterator still receives what the client reports (here: the close).
    let it2 = c.notifications();
    wait(c.close()).await.unwrap();
    let mut saw_closed = false;
    for _ in 0..10 {
        let v = next_within(&it2, 5_000).await;
        if v.is_undefined() || s(&v, "type") == "closed" {
            saw_closed = true;
            break;
        }
    }
    assert!(saw_closed);
}

/// Collects what `onProgress` receives, as JSON.
type Log = Rc<RefCell<Vec<serde_json::Value>>>;

fn progress_log() -> (Log, Closure<dyn Fn(JsValue)>) {
    let log = Rc::new(RefCell::new(Vec::new()));
    let l2 = log.clone();
    let f = Closure::<dyn Fn(JsValue)>::new(move |p: JsValue| {
        let text = js_sys::JSON::stringify(&p).unwrap().as_string().unwrap();
        l2.borrow_mut()
            .push(serde_json::from_str(&text).unwrap_or_default());
    });
    (log, f)
}

fn text_of(r: &JsValue) -> String {
    Array::from(&get(r, "content"))
        .iter()
        .map(|b| s(&b, "text"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[wasm_bindgen_test]
async fn everything_task_tool_resolves_like_a_plain_call_and_reports_its_status() {
    // server-everything's `simulate-research-query` declares `execution.taskSupport:
    // "required"` (MCP 2025-11-25 tasks): called as a task, polled, its result fetched.
    let c = connect(&everything(), JsValue::UNDEFINED).await;
    let (log, on_progress) = progress_log();
    let r = wait(c.call_tool(
        "simulate-research-query".into(),
        json(serde_json::json!({"topic": "rust"})),
        obj(&[("onProgress", on_progress.as_ref().clone())]),
    ))
    .await
    .unwrap();
    let text = text_of(&r);
    assert!(text.contains("Research Report"), "{text}");
    let log = log.borrow().clone();
    let reports: Vec<&serde_json::Value> = log.iter().filter(|p| p["task"].is_object()).collect();
    assert!(reports.len() >= 2, "{log:?}");
    let id = reports[0]["task"]["taskId"].as_str().unwrap().to_string();
    assert!(reports.iter().all(|p| p["task"]["taskId"] == id.as_str()));
    assert_eq!(reports[0]["task"]["shape"], "2025-11-25");
    assert!(
        reports.iter().any(|p| p["task"]["status"] == "working"
            && p["message"].as_str().is_some_and(|m| !m.is_empty())),
        "{log:?}"
    );
    assert!(c.tasks().is_array() && Array::from(&c.tasks()).length() == 0);
    // 2025-11-25 `tasks/list` knows it.
    let kept = wait(c.list_tasks()).await.unwrap();
    assert!(
        Array::from(&kept).iter().any(|t| s(&t, "taskId") == id),
        "{:?}",
        js_sys::JSON::stringify(&kept)
    );
    wait(c.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn everything_task_asks_for_clarification_through_the_elicitation_handler() {
    let calls = Rc::new(RefCell::new(Vec::new()));
    let c2 = calls.clone();
    let handler = Closure::<dyn Fn(JsValue) -> JsValue>::new(move |p: JsValue| {
        let first = get(&p, "requestedSchema.properties.interpretation.oneOf");
        let pick = s(&Array::from(&first).get(0), "const");
        c2.borrow_mut().push(pick.clone());
        let content = obj(&[("interpretation", pick.into())]);
        obj(&[("action", "accept".into()), ("content", content)])
    });
    let c = connect(
        &everything(),
        obj(&[("onElicitation", handler.as_ref().clone())]),
    )
    .await;
    let r = wait(c.call_tool(
        "simulate-research-query".into(),
        json(serde_json::json!({"topic": "python", "ambiguous": true})),
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap();
    let picked = calls.borrow().clone();
    assert_eq!(picked.len(), 1, "asked once: {picked:?}");
    let text = text_of(&r);
    assert!(
        text.contains(&picked[0]),
        "the answer reached the task: {text}"
    );
    wait(c.close()).await.unwrap();
}

// ---- the 2026-07-28 Tasks extension, against tests/servers/tasks2026 (no published server
// ---- implements it; the fixture follows ext-tasks `specification/draft/tasks.md`) -------------

/// Elicitation answers for the fixture's tools: `confirm: true`, or `{answer: <message>}`.
fn tasks_handler(asked: Rc<RefCell<Vec<String>>>) -> Closure<dyn Fn(JsValue) -> JsValue> {
    Closure::<dyn Fn(JsValue) -> JsValue>::new(move |p: JsValue| {
        let message = s(&p, "message");
        asked.borrow_mut().push(message.clone());
        let props = get(&p, "requestedSchema.properties");
        let content = if get(&props, "confirm").is_object() {
            obj(&[("confirm", true.into())])
        } else {
            obj(&[("answer", format!("re:{}", asked.borrow().len()).into())])
        };
        obj(&[("action", "accept".into()), ("content", content)])
    })
}

/// The fixture's records of one task: its log entries and its `/admin/tasks` row.
async fn task_records(task_id: &str) -> (Vec<serde_json::Value>, serde_json::Value) {
    let log = get_json(&tasks2026_admin("log")).await;
    let mine: Vec<serde_json::Value> = log
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["params"]["taskId"] == task_id)
        .cloned()
        .collect();
    let tasks = get_json(&tasks2026_admin("tasks")).await;
    let row = tasks["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["taskId"] == task_id)
        .cloned()
        .unwrap_or_default();
    (mine, row)
}

fn first_task_id(log: &Log) -> Option<String> {
    log.borrow()
        .iter()
        .find_map(|p| p["task"]["taskId"].as_str().map(str::to_string))
}

#[wasm_bindgen_test]
async fn tasks2026_a_call_the_server_makes_a_task_resolves_with_its_result() {
    let c = connect(&tasks2026(), JsValue::UNDEFINED).await;
    // Both sides' extensions: what the server announced and what this client declared.
    let ext = c.extensions();
    for side in ["server", "client"] {
        let m = Reflect::get(&ext, &side.into()).unwrap();
        assert!(
            Reflect::get(&m, &"io.modelcontextprotocol/tasks".into())
                .unwrap()
                .is_object(),
            "{side}: {:?}",
            js_sys::JSON::stringify(&ext)
        );
    }
    let (log, on_progress) = progress_log();
    let r = wait(c.call_tool(
        "slow_compute".into(),
        json(serde_json::json!({"ms": 600, "steps": 3, "pollMs": 100})),
        obj(&[("onProgress", on_progress.as_ref().clone())]),
    ))
    .await
    .unwrap();
    assert_eq!(text_of(&r), "computed 3 steps");
    let id = first_task_id(&log).expect("status reports carry the task");
    assert!(log
        .borrow()
        .iter()
        .all(|p| p["task"]["shape"] == "extension"));
    assert!(
        log.borrow().iter().any(|p| p["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("step "))),
        "{:?}",
        log.borrow()
    );
    let (records, row) = task_records(&id).await;
    let gets: Vec<_> = records
        .iter()
        .filter(|e| e["method"] == "tasks/get")
        .collect();
    assert!(!gets.is_empty());
    // Routed by Mcp-Name = taskId; the fixture refuses (and records) anything else.
    assert!(gets.iter().all(|e| e["headers"]["mcp-name"] == id.as_str()));
    assert_eq!(
        get_json(&tasks2026_admin("violations")).await,
        serde_json::json!([])
    );
    assert_eq!(row["executions"], 1);
    wait(c.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn tasks2026_input_required_is_answered_by_the_elicitation_handler() {
    let asked = Rc::new(RefCell::new(Vec::new()));
    let handler = tasks_handler(asked.clone());
    let c = connect(
        &tasks2026(),
        obj(&[("onElicitation", handler.as_ref().clone())]),
    )
    .await;
    let r = wait(c.call_tool(
        "confirm_delete".into(),
        json(serde_json::json!({"path": "/tmp/t1", "pollMs": 100})),
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap();
    assert_eq!(text_of(&r), "deleted /tmp/t1");
    assert_eq!(
        asked.borrow().len(),
        1,
        "one key, asked once: {:?}",
        asked.borrow()
    );
    // Input required twice in one task.
    asked.borrow_mut().clear();
    let r = wait(c.call_tool(
        "multi_input".into(),
        json(serde_json::json!({"pollMs": 100})),
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap();
    assert_eq!(asked.borrow().len(), 2, "{:?}", asked.borrow());
    let text = text_of(&r);
    assert!(text.contains("re:1") && text.contains("re:2"), "{text}");
    wait(c.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn tasks2026_failed_forgotten_and_undeclared_tasks_are_typed_errors() {
    let c = connect(&tasks2026(), JsValue::UNDEFINED).await;
    let err = wait(c.call_tool(
        "failing_job".into(),
        json(serde_json::json!({"pollMs": 100})),
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap_err();
    assert_eq!(s(&err, "code"), "TASK_FAILED", "{}", s(&err, "message"));
    assert_eq!(get(&err, "rpcCode").as_f64(), Some(-32603.0));
    assert!(!s(&err, "taskId").is_empty());
    // A tool error is a completed task with an `isError` result, not a failure.
    let r = wait(c.call_tool(
        "tool_error_job".into(),
        json(serde_json::json!({"pollMs": 100})),
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap();
    assert_eq!(get(&r, "isError").as_bool(), Some(true));
    // The server forgets the task mid-flight.
    let (log, on_progress) = progress_log();
    let call = c.call_tool(
        "forever".into(),
        json(serde_json::json!({"pollMs": 200})),
        obj(&[("onProgress", on_progress.as_ref().clone())]),
    );
    let mut id = None;
    for _ in 0..50 {
        id = first_task_id(&log);
        if id.is_some() {
            break;
        }
        sleep(50).await;
    }
    let id = id.expect("task created");
    post_json(
        &tasks2026_admin("fault"),
        serde_json::json!({"kind": "forget", "taskId": id}),
    )
    .await;
    let err = wait(call).await.unwrap_err();
    assert_eq!(s(&err, "code"), "TASK_EXPIRED", "{}", s(&err, "message"));
    assert_eq!(s(&err, "taskId"), id);
    wait(c.close()).await.unwrap();
    // A host that turns the extension off declares nothing; the server then refuses task-only
    // tools with -32021.
    let off = connect(&tasks2026(), obj(&[("tasks", false.into())])).await;
    let err = wait(off.call_tool(
        "slow_compute".into(),
        json(serde_json::json!({"ms": 100})),
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap_err();
    assert_eq!(s(&err, "code"), "RPC");
    assert_eq!(get(&err, "rpcCode").as_f64(), Some(-32021.0));
    wait(off.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn tasks2026_aborting_the_call_cancels_the_task_with_tasks_cancel() {
    let c = connect(&tasks2026(), JsValue::UNDEFINED).await;
    let (log, on_progress) = progress_log();
    let ac = web_sys::AbortController::new().unwrap();
    let call = c.call_tool(
        "forever".into(),
        json(serde_json::json!({"pollMs": 100})),
        obj(&[
            ("signal", ac.signal().into()),
            ("onProgress", on_progress.as_ref().clone()),
        ]),
    );
    sleep(400).await;
    let id = first_task_id(&log).expect("task created");
    ac.abort();
    let err = wait(call).await.unwrap_err();
    assert_eq!(s(&err, "code"), "ABORTED");
    sleep(300).await;
    let (records, row) = task_records(&id).await;
    let cancels: Vec<_> = records
        .iter()
        .filter(|e| e["method"] == "tasks/cancel")
        .collect();
    assert_eq!(cancels.len(), 1, "{records:?}");
    assert_eq!(cancels[0]["headers"]["mcp-name"], id.as_str());
    assert_eq!(row["status"], "cancelled", "{row}");
    let log = get_json(&tasks2026_admin("log")).await;
    assert!(
        !log.as_array()
            .unwrap()
            .iter()
            .any(|e| e["method"] == "notifications/cancelled"),
        "a task is never cancelled with notifications/cancelled"
    );
    wait(c.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn tasks2026_a_dropped_stream_and_throttled_polls_lose_nothing_and_run_nothing_twice() {
    let c = connect(&tasks2026(), JsValue::UNDEFINED).await;
    let before = get_json(&tasks2026_admin("tasks")).await["toolCalls"]["slow_compute"]
        .as_u64()
        .unwrap_or(0);
    // The stream that carried the CreateTaskResult breaks right after it; then two polls get
    // 503 + Retry-After.
    post_json(
        &tasks2026_admin("fault"),
        serde_json::json!({"kind": "drop-after-create"}),
    )
    .await;
    post_json(
        &tasks2026_admin("fault"),
        serde_json::json!({"kind": "503-next-polls", "n": 2}),
    )
    .await;
    let (log, on_progress) = progress_log();
    let r = wait(c.call_tool(
        "slow_compute".into(),
        json(serde_json::json!({"ms": 300, "steps": 2, "pollMs": 100})),
        obj(&[("onProgress", on_progress.as_ref().clone())]),
    ))
    .await
    .unwrap();
    assert_eq!(text_of(&r), "computed 2 steps");
    let id = first_task_id(&log).expect("task created");
    let (_, row) = task_records(&id).await;
    assert_eq!(row["executions"], 1, "{row}");
    let after = get_json(&tasks2026_admin("tasks")).await;
    assert_eq!(
        after["toolCalls"]["slow_compute"].as_u64().unwrap_or(0),
        before + 1
    );
    assert_eq!(after["pendingFaults"]["polls503"], 0, "{after}");
    wait(c.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn tasks2026_a_snapshot_carries_the_task_and_a_new_client_resumes_it_without_a_rerun() {
    let c = connect(&tasks2026(), obj(&[("maxTaskWaitMs", 500.into())])).await;
    let (log, on_progress) = progress_log();
    let call = c.call_tool(
        "slow_compute".into(),
        json(serde_json::json!({"ms": 2000, "steps": 4, "pollMs": 100})),
        obj(&[("onProgress", on_progress.as_ref().clone())]),
    );
    sleep(250).await;
    let snapshot = c.snapshot();
    let tasks = Array::from(&get(&snapshot, "tasks"));
    assert_eq!(
        tasks.length(),
        1,
        "{:?}",
        js_sys::JSON::stringify(&snapshot)
    );
    let id = first_task_id(&log).expect("task created");
    assert_eq!(s(&tasks.get(0), "taskId"), id);
    // The first client stops waiting (its isolate "dies"); the task runs on.
    let err = wait(call).await.unwrap_err();
    assert_eq!(s(&err, "code"), "TASK_TIMEOUT", "{}", s(&err, "message"));
    assert_eq!(s(&err, "taskId"), id);
    // A new client from the stored snapshot resumes it by id.
    let stored = js_sys::JSON::stringify(&snapshot)
        .unwrap()
        .as_string()
        .unwrap();
    let fresh = McpClient::restore(
        tasks2026(),
        js_sys::JSON::parse(&stored).unwrap(),
        JsValue::UNDEFINED,
    )
    .unwrap();
    let task = Array::from(&get(&js_sys::JSON::parse(&stored).unwrap(), "tasks")).get(0);
    let r = wait(fresh.resume_task(task, JsValue::UNDEFINED))
        .await
        .unwrap();
    assert_eq!(text_of(&r), "computed 4 steps");
    let (records, row) = task_records(&id).await;
    assert_eq!(row["executions"], 1, "never re-run: {row}");
    assert!(!records.iter().any(|e| e["method"] == "tools/call"));
    wait(fresh.close()).await.unwrap();
    wait(c.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn tasks2026_trace_context_reaches_the_server_and_a_bad_one_is_not_sent() {
    let c = connect(&tasks2026(), JsValue::UNDEFINED).await;
    let tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    let tag = format!("trace-{}", (js_sys::Math::random() * 1e9) as u64);
    wait(c.call_tool(
        "greet".into(),
        json(serde_json::json!({"name": tag})),
        obj(&[
            ("traceparent", tp.into()),
            ("tracestate", "vendor=abc".into()),
            ("baggage", "tenant=t1".into()),
            ("logLevel", "warning".into()),
        ]),
    ))
    .await
    .unwrap();
    let log = get_json(&tasks2026_admin("log")).await;
    let sent = log
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["params"]["arguments"]["name"] == tag.as_str())
        .cloned()
        .expect("call logged");
    let meta = &sent["params"]["_meta"];
    assert_eq!(meta["traceparent"], tp);
    assert_eq!(meta["tracestate"], "vendor=abc");
    assert_eq!(meta["baggage"], "tenant=t1");
    assert_eq!(meta["io.modelcontextprotocol/logLevel"], "warning");
    let bad = format!("{tag}-bad");
    let err = wait(c.call_tool(
        "greet".into(),
        json(serde_json::json!({"name": bad})),
        obj(&[("traceparent", "00-zz".into())]),
    ))
    .await
    .unwrap_err();
    assert_eq!(s(&err, "code"), "INVALID_META");
    let log = get_json(&tasks2026_admin("log")).await;
    assert!(!log
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["params"]["arguments"]["name"] == bad.as_str()));
    wait(c.close()).await.unwrap();
}
