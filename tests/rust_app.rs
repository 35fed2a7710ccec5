//! A Rust app's use of the crate (what a Leptos, Dioxus or Yew agent playground does), against
//! the real local servers: `@modelcontextprotocol/server-everything` (2025 era) and the Python
//! `mcp` SDK server (2026-07-28, and the 2025 era on the same URL). Connect, list, call with
//! progress (callback and stream), cancel (token and dropped future, the server told), the
//! notification stream, snapshot/restore, typed errors, sampling and roots handlers, OAuth
//! (client credentials against the OAuth test servers: sign-in without connecting, the tokens in
//! the host's storage, status, sign-out, a callback that matches no sign-in), and a pool of the
//! two servers.
//!
//! Runs in headless Chromium (`wasm-pack test --headless --chrome`) and in Node
//! (`wasm-pack test --node`); the test command (`bash tests/run-all.sh wasm_pack`) starts the
//! servers and compiles their URLs in. Without them every test fails with that command's name.
#![cfg(all(target_family = "wasm", target_os = "unknown"))]

use std::cell::RefCell;
use std::future::{poll_fn, Future, IntoFuture};
use std::rc::Rc;
use std::task::Poll;

use mcp_edge::client::Traffic;
use mcp_edge::pool::{DriverEvent, PoolEvent, ServerState};
use mcp_edge::proto::session::Era;
use mcp_edge::tools::ExportFormat;
use mcp_edge::transport::timer::sleep;
use mcp_edge::{
    AuthConfig, CancelToken, ConnectOptions, Error, McpClient, McpPool, McpPoolOptions,
    Notification, Snapshot,
};
use serde_json::json;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::spawn_local;
use wasm_bindgen_test::wasm_bindgen_test;

mod e2e;
use e2e::{apps, auth_cc, auth_issuer, auth_py, everything, py, tasks2026};

/// `fut`, or `None` when `ms` pass first (the future is then dropped).
async fn within<T>(ms: u32, fut: impl Future<Output = T>) -> Option<T> {
    let mut fut = Box::pin(fut);
    let mut timer = Box::pin(sleep(ms));
    poll_fn(move |cx| {
        if let Poll::Ready(v) = fut.as_mut().poll(cx) {
            return Poll::Ready(Some(v));
        }
        timer.as_mut().poll(cx).map(|()| None)
    })
    .await
}

async fn connect(url: &str, options: ConnectOptions) -> McpClient {
    match McpClient::connect(url, options).await {
        Ok(c) => c,
        Err(e) => panic!("connect {url} failed: {} ({e})", e.code()),
    }
}

/// The names `list_tools` returns.
async fn tool_names(client: &McpClient) -> Vec<String> {
    let tools = client.list_tools().await.unwrap();
    tools.into_iter().map(|t| t.name).collect()
}

/// What the client sent (each request's headers, then its JSON-RPC body), and the HTTP status the
/// server answered each `notifications/cancelled` POST with.
struct Recorded {
    sent: Rc<RefCell<Vec<String>>>,
    cancel_statuses: Rc<RefCell<Vec<u16>>>,
}

/// Options that record the client's traffic into a [`Recorded`].
fn recording() -> (ConnectOptions, Recorded) {
    let recorded = Recorded {
        sent: Rc::new(RefCell::new(Vec::new())),
        cancel_statuses: Rc::new(RefCell::new(Vec::new())),
    };
    let (s, statuses) = (recorded.sent.clone(), recorded.cancel_statuses.clone());
    let cancel_exchanges = RefCell::new(Vec::new());
    let options = ConnectOptions::new().on_traffic(move |t| match t {
        Traffic::Request { exchange, request } => {
            let body = request.body.clone().unwrap_or_default();
            if body.contains("notifications/cancelled") {
                cancel_exchanges.borrow_mut().push(*exchange);
            }
            s.borrow_mut().push(format!("{:?} {body}", request.headers));
        }
        Traffic::Head { exchange, head } if cancel_exchanges.borrow().contains(exchange) => {
            statuses.borrow_mut().push(head.status);
        }
        _ => {}
    });
    (options, recorded)
}

/// The next notification whose method is `method`, or a panic after 15 s without one.
async fn next_method(notes: &mut mcp_edge::Notifications, method: &str) {
    loop {
        match within(15_000, notes.next()).await {
            Some(Some(Notification::Server { method: m, .. })) if m == method => return,
            Some(Some(_)) => {}
            other => panic!("no {method}: {other:?}"),
        }
    }
}

// ---- one server ----------------------------------------------------------------------------------

#[wasm_bindgen_test]
async fn everything_connect_list_call_with_progress_callback_and_stream() {
    let client = connect(&everything(), ConnectOptions::new()).await;
    assert_eq!(client.era(), Some(Era::Legacy));
    assert!(client.session_id().is_some(), "2025 era: a session id");
    let tools = client.list_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    for t in ["echo", "trigger-long-running-operation"] {
        assert!(names.contains(&t), "{t} missing from {names:?}");
    }
    let echo = tools.iter().find(|t| t.name == "echo").unwrap();
    assert_eq!(echo.input_schema["type"], "object");

    let r = client
        .call_tool("echo", json!({"message": "hi from Rust"}))
        .await
        .unwrap();
    assert!(!r.is_error);
    assert_eq!(r.text(), "Echo: hi from Rust");

    // Progress as a callback and as a stream read by another task, on the same call.
    let seen = Rc::new(RefCell::new(Vec::new()));
    let s2 = seen.clone();
    let mut call = client
        .call_tool(
            "trigger-long-running-operation",
            json!({"duration": 1, "steps": 4}),
        )
        .on_progress(move |p| s2.borrow_mut().push(p.progress));
    let mut stream = call.progress_stream();
    let streamed = Rc::new(RefCell::new(None));
    let st = streamed.clone();
    spawn_local(async move {
        let mut items = Vec::new();
        while let Some(p) = stream.next().await {
            items.push((p.progress, p.total));
        }
        *st.borrow_mut() = Some(items);
    });
    let r = call.await.unwrap();
    assert!(r.text().contains("completed"), "{}", r.text());
    let p = seen.borrow().clone();
    assert!(p.len() >= 3, "progress callbacks: {p:?}");
    assert!(p.windows(2).all(|w| w[1] > w[0]), "increasing: {p:?}");
    sleep(50).await;
    let items = streamed
        .borrow_mut()
        .take()
        .expect("the stream ended with the call");
    assert_eq!(items.len(), p.len(), "the stream saw every progress item");
    assert_eq!(items.last().unwrap().1, Some(4.0));
    client.close().await.unwrap();
    assert!(client.is_closed());
}

#[wasm_bindgen_test]
async fn everything_cancel_by_token_and_by_dropping_the_future_tells_the_server() {
    let (
        options,
        Recorded {
            sent,
            cancel_statuses,
        },
    ) = recording();
    let client = connect(&everything(), options).await;
    let stop = CancelToken::new();
    let call = client
        .call_tool(
            "trigger-long-running-operation",
            json!({"duration": 30, "steps": 30}),
        )
        .cancel_with(&stop)
        .into_future();
    let canceller = stop.clone();
    spawn_local(async move {
        sleep(400).await;
        canceller.cancel();
    });
    let err = call.await.unwrap_err();
    assert_eq!(err, Error::Cancelled);
    assert_eq!(err.code(), "ABORTED");
    sleep(200).await;
    let cancels = |sent: &Rc<RefCell<Vec<String>>>| {
        sent.borrow()
            .iter()
            .filter(|b| b.contains("notifications/cancelled"))
            .count()
    };
    assert_eq!(cancels(&sent), 1, "notifications/cancelled was POSTed");
    // The server took it (202 Accepted: MCP basic/transports, a POSTed notification).
    assert_eq!(*cancel_statuses.borrow(), [202], "the server's answer");

    // Dropping the future cancels too.
    let dropped = within(
        400,
        client
            .call_tool(
                "trigger-long-running-operation",
                json!({"duration": 30, "steps": 30}),
            )
            .into_future(),
    )
    .await;
    assert!(dropped.is_none(), "the call was still running when dropped");
    sleep(200).await;
    assert_eq!(cancels(&sent), 2, "dropping the future told the server");
    assert_eq!(
        *cancel_statuses.borrow(),
        [202, 202],
        "the server's answers"
    );
    // A token cancelled before the call: nothing is sent.
    let before = sent.borrow().len();
    let err = client
        .call_tool("echo", json!({"message": "never"}))
        .cancel_with(&stop)
        .await
        .unwrap_err();
    assert_eq!(err.code(), "ABORTED");
    assert_eq!(sent.borrow().len(), before);
    client.close().await.unwrap();
}

#[wasm_bindgen_test]
async fn everything_notifications_arrive_as_a_stream() {
    let client = connect(&everything(), ConnectOptions::new()).await;
    let mut notes = client.notifications();
    client
        .call_tool("toggle-simulated-logging", json!({}))
        .await
        .unwrap();
    let mut got = false;
    for _ in 0..40 {
        match within(15_000, notes.next()).await {
            Some(Some(Notification::Server { method, .. }))
                if method == "notifications/message" =>
            {
                got = true;
                break;
            }
            Some(Some(_)) => {}
            other => panic!("the stream stalled or ended: {other:?}"),
        }
    }
    assert!(got, "a logging notification arrived on the GET stream");
    client
        .call_tool("toggle-simulated-logging", json!({}))
        .await
        .unwrap();
    client.close().await.unwrap();
    // After close the stream ends (after the queued items).
    let mut ended = false;
    for _ in 0..2000 {
        match within(5_000, notes.next()).await {
            Some(None) => {
                ended = true;
                break;
            }
            Some(Some(_)) => {}
            None => break,
        }
    }
    assert!(ended, "the notification stream ends after close");
}

#[wasm_bindgen_test]
async fn python_both_eras_with_progress_stream_structured_output_and_cancel() {
    // 2026-07-28, detected.
    let modern = connect(&py(), ConnectOptions::new()).await;
    assert_eq!(modern.era(), Some(Era::Modern));
    assert_eq!(
        modern.server().unwrap().protocol_version,
        "2026-07-28".to_string()
    );
    // The 2025 era on the same URL, pinned.
    let legacy = connect(&py(), ConnectOptions::new().protocol("2025-11-25")).await;
    assert_eq!(legacy.era(), Some(Era::Legacy));
    assert!(legacy.session_id().is_some());

    for client in [&modern, &legacy] {
        let names = tool_names(client).await;
        assert!(names.contains(&"add".to_string()), "{names:?}");
        let r = client
            .call_tool("add", json!({"a": 2, "b": 40}))
            .await
            .unwrap();
        assert_eq!(r.structured_content.as_ref().unwrap()["sum"], 42);

        let mut call = client.call_tool("slow_progress", json!({"steps": 3, "delay_ms": 50}));
        let mut stream = call.progress_stream();
        let messages = Rc::new(RefCell::new(Vec::new()));
        let m = messages.clone();
        spawn_local(async move {
            while let Some(p) = stream.next().await {
                m.borrow_mut().push(p.message.unwrap_or_default());
            }
        });
        let r = call.await.unwrap();
        assert_eq!(r.text(), "done 3 steps");
        sleep(20).await;
        assert_eq!(*messages.borrow(), vec!["step 1/3", "step 2/3", "step 3/3"]);

        let stop = CancelToken::new();
        let canceller = stop.clone();
        spawn_local(async move {
            sleep(300).await;
            canceller.cancel();
        });
        let started = js_sys::Date::now();
        let err = client
            .call_tool("slow_progress", json!({"steps": 50, "delay_ms": 200}))
            .cancel_with(&stop)
            .await
            .unwrap_err();
        assert_eq!(err.code(), "ABORTED");
        assert!(js_sys::Date::now() - started < 5_000.0);

        // A tool's own failure is a result, a bad request a typed error.
        let r = client.call_tool("fail", json!({})).await.unwrap();
        assert!(r.is_error);
    }
    modern.close().await.unwrap();
    legacy.close().await.unwrap();
}

#[wasm_bindgen_test]
async fn everything_resources_prompts_completions_and_elicitation() {
    let asked = Rc::new(RefCell::new(0));
    let a = asked.clone();
    let options = ConnectOptions::new().on_elicitation(move |params, defaults| {
        *a.borrow_mut() += 1;
        // Accept, filling each requested property by type (a UI form would ask the user).
        let mut content = defaults;
        if let Some(props) = params["requestedSchema"]["properties"].as_object() {
            for (k, p) in props {
                let v = match p["type"].as_str() {
                    Some("number" | "integer") => json!(3),
                    Some("boolean") => json!(true),
                    _ => json!("yes"),
                };
                content.entry(k.clone()).or_insert(v);
            }
        }
        async move { Ok(json!({"action": "accept", "content": content})) }
    });
    let client = connect(&everything(), options).await;

    let uri = "demo://resource/static/document/features.md";
    let resources = client.list_resources().await.unwrap();
    assert!(resources.iter().any(|r| r.uri == uri), "{resources:?}");
    let read = client.read_resource(uri).await.unwrap();
    assert_eq!(read.contents[0]["uri"], uri);
    assert!(!read.contents[0]["text"]
        .as_str()
        .unwrap_or_default()
        .is_empty());
    let templates = client.list_resource_templates().await.unwrap();
    assert!(
        templates.iter().any(|t| t.uri_template.contains('{')),
        "{templates:?}"
    );

    let prompts = client.list_prompts().await.unwrap();
    let names: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
    assert!(names.contains(&"args-prompt"), "{names:?}");
    let got = client
        .get_prompt("args-prompt", json!({"city": "Paris", "state": "TX"}))
        .await
        .unwrap();
    assert!(got.messages[0].to_string().contains("Paris"), "{got:?}");
    let err = client
        .get_prompt("args-prompt", json!({}))
        .await
        .unwrap_err();
    assert_eq!(err.code(), "RPC");

    let prompt = json!({"type": "ref/prompt", "name": "completable-prompt"});
    let c = client
        .complete(
            prompt.clone(),
            json!({"name": "department", "value": "E"}),
            json!(null),
        )
        .await
        .unwrap();
    assert_eq!(c["completion"]["values"], json!(["Engineering"]));
    let c = client
        .complete(
            prompt,
            json!({"name": "name", "value": ""}),
            json!({"arguments": {"department": "Sales"}}),
        )
        .await
        .unwrap();
    assert_eq!(c["completion"]["values"], json!(["David", "Eve", "Frank"]));

    let r = client
        .call_tool("trigger-elicitation-request", json!({}))
        .await
        .unwrap();
    assert_eq!(*asked.borrow(), 1);
    assert!(r.text().to_lowercase().contains("accept"), "{}", r.text());
    client.close().await.unwrap();
}

#[wasm_bindgen_test]
async fn everything_asks_the_sampling_and_roots_handlers() {
    let sampled = Rc::new(RefCell::new(Vec::new()));
    let s = sampled.clone();
    let options = ConnectOptions::new()
        .on_sampling(move |params| {
            s.borrow_mut().push(params);
            async move {
                Ok(json!({
                    "role": "assistant",
                    "content": {"type": "text", "text": "SAMPLED-BY-THE-RUST-HANDLER"},
                    "model": "test-model",
                    "stopReason": "endTurn"
                }))
            }
        })
        .on_roots(|_| async move {
            Ok(json!({"roots": [{"uri": "file:///rust-handler-root", "name": "rust-root"}]}))
        });
    let client = connect(&everything(), options).await;
    // server-everything registers these two tools only for a client that declared the
    // capabilities, which the handlers declare.
    let names = tool_names(&client).await;
    for t in ["trigger-sampling-request", "get-roots-list"] {
        assert!(names.iter().any(|n| n == t), "{t} missing: {names:?}");
    }
    let r = client
        .call_tool(
            "trigger-sampling-request",
            json!({"prompt": "say hi", "maxTokens": 7}),
        )
        .await
        .unwrap();
    assert!(
        r.text().contains("SAMPLED-BY-THE-RUST-HANDLER"),
        "{}",
        r.text()
    );
    let asked = sampled.borrow().clone();
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert_eq!(asked[0]["maxTokens"], 7);
    let r = client.call_tool("get-roots-list", json!({})).await.unwrap();
    assert!(
        r.text().contains("file:///rust-handler-root"),
        "{}",
        r.text()
    );
    client.close().await.unwrap();
}

// ---- OAuth ---------------------------------------------------------------------------------------

#[wasm_bindgen(inline_js = "export function memory_auth_host() {
  const m = new Map();
  return {
    storage: { get: (k) => m.get(k), put: (k, v) => { m.set(k, v); }, delete: (k) => { m.delete(k); } },
    keys: () => [...m.keys()],
  };
}")]
extern "C" {
    /// An auth host (the JS `auth` option's shape) whose storage is a `Map`; `keys()` lists it.
    fn memory_auth_host() -> JsValue;
}

fn stored_keys(host: &JsValue) -> Vec<String> {
    let keys: js_sys::Function = js_sys::Reflect::get(host, &"keys".into())
        .unwrap()
        .unchecked_into();
    let keys: js_sys::Array = keys.call0(host).unwrap().unchecked_into();
    keys.iter().filter_map(|k| k.as_string()).collect()
}

#[wasm_bindgen_test]
async fn oauth_client_credentials_sign_in_status_and_sign_out_through_the_rust_api() {
    let url = auth_py();
    let (id, secret) = auth_cc();
    let config = || {
        AuthConfig::from_json(&json!({
            "grant": "client_credentials",
            "clientId": id,
            "clientSecret": secret,
        }))
        .unwrap()
    };
    let host = memory_auth_host();
    let options = || ConnectOptions::new().auth(config()).auth_host(&host);

    // The server refuses a client without credentials.
    let refused = McpClient::connect(&url, ConnectOptions::new()).await.err();
    assert_eq!(refused.map(|e| e.code()), Some("UNAUTHORIZED"));

    // Sign in without connecting: the tokens land in the host's storage.
    let who = McpClient::sign_in(&url, options()).await.unwrap();
    assert_eq!(who["issuer"], auth_issuer(), "{who}");
    let token_key = format!("mcp-edge:tokens:{url}");
    assert!(
        stored_keys(&host).contains(&token_key),
        "{:?}",
        stored_keys(&host)
    );

    // A client with the same host connects with them, and the server sees this client.
    let client = connect(&url, options()).await;
    let status = client.auth_status().expect("signed in");
    assert_eq!(status["issuer"], auth_issuer(), "{status}");
    assert_eq!(status["tokenType"], who["tokenType"], "{status} {who}");
    let me = client.call_tool("whoami", json!({})).await.unwrap();
    let me: serde_json::Value = serde_json::from_str(&me.text()).unwrap();
    assert_eq!(me["client_id"], id.as_str(), "{me}");
    assert_eq!(me["token_type"], status["tokenType"], "{me} {status}");

    // Sign-out forgets the tokens, stored ones too.
    client.sign_out();
    assert_eq!(client.auth_status(), None);
    let deleted = within(5_000, async {
        while stored_keys(&host).contains(&token_key) {
            sleep(20).await;
        }
    })
    .await;
    assert!(deleted.is_some(), "{:?}", stored_keys(&host));
    client.close().await.unwrap();

    // A callback whose `state` matches no sign-in is refused, naming why.
    let stray = format!("{url}/callback?code=c&state=matches-no-sign-in");
    let e = McpClient::complete_authorization(&url, &stray, options())
        .await
        .unwrap_err();
    assert_eq!(e.code(), "AUTH_STATE_MISMATCH", "{e}");
}

#[wasm_bindgen_test]
async fn python_mrtr_subscription_and_header_changes() {
    let answers = Rc::new(RefCell::new(vec!["banana", "apple"]));
    let (options, Recorded { sent, .. }) = recording();
    let options = options.on_elicitation(move |_, _| {
        let answer = answers.borrow_mut().pop().unwrap_or("extra");
        async move { Ok(json!({"action": "accept", "content": {"answer": answer}})) }
    });
    let client = connect(&py(), options).await;
    // Two 2026-07-28 input_required rounds, both answered by the handler.
    let r = client.call_tool("mrtr_twice", json!({})).await.unwrap();
    assert_eq!(r.text(), "first=apple second=banana");

    // subscriptions/listen: list_changed arrives on the notification stream.
    let before = tool_names(&client).await;
    let mut notes = client.notifications();
    let stop = CancelToken::new();
    let ended = Rc::new(RefCell::new(None));
    let (c, s2, e2) = (client.clone(), stop.clone(), ended.clone());
    spawn_local(async move {
        let r = c
            .subscribe(json!({"toolsListChanged": true}), Some(&s2))
            .await;
        *e2.borrow_mut() = Some(r);
    });
    next_method(&mut notes, "notifications/subscriptions/acknowledged").await;
    let name = format!("t{}", js_sys::Date::now() as u64 % 1_000_000_000);
    client
        .call_tool("add_tool", json!({"name": name}))
        .await
        .unwrap();
    next_method(&mut notes, "notifications/tools/list_changed").await;
    let after = tool_names(&client).await;
    assert!(after.contains(&name) && !before.contains(&name));
    stop.cancel();
    sleep(100).await;
    assert_eq!(ended.borrow_mut().take(), Some(Err(Error::Cancelled)));

    // A changed header goes out with the next request.
    client.set_header("X-Trace", Some("trace-7".into()));
    client
        .call_tool("echo", json!({"message": "h"}))
        .await
        .unwrap();
    let last = sent.borrow().last().cloned().unwrap_or_default();
    assert!(last.contains("\"x-trace\", \"trace-7\""), "{last}");
}

#[wasm_bindgen_test]
async fn python_snapshot_restores_a_client_without_a_round_trip() {
    let (options, Recorded { sent, .. }) = recording();
    let client = connect(&py(), ConnectOptions::new()).await;
    client.list_tools().await.unwrap();
    let stored = serde_json::to_string(&client.snapshot()).unwrap();
    // Same JSON shape as the JS snapshot (camelCase, savedAt).
    assert!(stored.contains("\"savedAt\"") && stored.contains("\"protocolVersion\""));
    let snapshot: Snapshot = serde_json::from_str(&stored).unwrap();
    let restored = McpClient::restore(&py(), snapshot, options).unwrap();
    assert_eq!(restored.era(), Some(Era::Modern));
    assert!(sent.borrow().is_empty(), "restore sends nothing");
    let r = restored
        .call_tool("echo", json!({"message": "again"}))
        .await
        .unwrap();
    assert_eq!(r.text(), "again");
    assert!(
        !sent.borrow().iter().any(|b| b.contains("server/discover")),
        "no rediscovery: {:?}",
        sent.borrow()
    );
}

#[wasm_bindgen_test]
async fn typed_errors_carry_the_js_codes() {
    let err = McpClient::connect("ftp://example.invalid/mcp", ConnectOptions::new())
        .await
        .unwrap_err();
    assert_eq!(err.code(), "CONFIG");
    let err = McpClient::connect(&py(), ConnectOptions::new().protocol("1999-01-01"))
        .await
        .unwrap_err();
    assert_eq!(err.code(), "CONFIG");
    let client = connect(&py(), ConnectOptions::new()).await;
    let err = client
        .request("no/such-method", json!({}))
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Rpc { code: -32601, .. }), "{err:?}");
    assert_eq!(err.code(), "RPC");
}

// ---- many servers --------------------------------------------------------------------------------

#[wasm_bindgen_test]
async fn a_pool_of_both_servers_exports_calls_with_progress_and_reports_events() {
    let events = Rc::new(RefCell::new(Vec::new()));
    let e = events.clone();
    let config = json!({"mcpServers": {
        "everything": {"url": everything(), "protocol": "2025-11-25"},
        "py": {"url": py(), "headers": {"X-Token": "${TOKEN}"}},
    }});
    let pool = McpPool::new(
        &config,
        McpPoolOptions::new()
            .var("TOKEN", "t-1")
            .on_event(move |ev: &DriverEvent| e.borrow_mut().push(ev.clone())),
    )
    .unwrap();
    let status = pool.connect_all().await;
    for s in &status.servers {
        assert_eq!(s.state, ServerState::Connected, "{s:?}");
        assert!(s.tool_count > 3, "{s:?}");
    }
    let eras: Vec<_> = status.servers.iter().map(|s| s.era).collect();
    assert_eq!(eras, vec![Some("legacy"), Some("modern")]);

    let tools = pool.tools(ExportFormat::Anthropic);
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"mcp__py__add"), "{names:?}");
    assert!(names.contains(&"mcp__everything__echo"), "{names:?}");
    let first_py = names
        .iter()
        .position(|n| n.starts_with("mcp__py__"))
        .unwrap();
    assert!(
        names[..first_py]
            .iter()
            .all(|n| n.starts_with("mcp__everything__")),
        "server order, then tool order"
    );

    let r = pool.call("mcp__py__add", json!({"a": 1, "b": 2})).await;
    assert!(!r.flat.is_error, "{r:?}");
    assert_eq!(r.raw.as_ref().unwrap()["structuredContent"]["sum"], 3);

    let progress = Rc::new(RefCell::new(0));
    let p2 = progress.clone();
    let r = pool
        .call(
            "mcp__everything__trigger-long-running-operation",
            json!({"duration": 1, "steps": 3}),
        )
        .on_progress(move |_| *p2.borrow_mut() += 1)
        .await;
    assert!(r.flat.text.contains("completed"), "{r:?}");
    assert!(*progress.borrow() >= 2);

    let stop = CancelToken::new();
    stop.cancel();
    let r = pool
        .call("mcp__py__echo", json!({"message": "x"}))
        .cancel_with(&stop)
        .await;
    assert!(
        r.flat.is_error && r.flat.text.contains("cancelled"),
        "{r:?}"
    );
    let r = pool.call("mcp__nope__x", json!({})).await;
    assert!(r.flat.is_error);

    let instructions = pool.instructions();
    assert!(instructions.text().contains("<system-reminder>"));
    assert!(pool.instructions().is_empty(), "delivered once");
    let connected: Vec<String> = events
        .borrow()
        .iter()
        .filter_map(|e| match e {
            DriverEvent::Pool(PoolEvent::StateChanged { server, to, .. })
                if *to == ServerState::Connected =>
            {
                Some(server.clone())
            }
            _ => None,
        })
        .collect();
    assert_eq!(connected.len(), 2, "{connected:?}");
    pool.close().await;
}

/// Tasks through the Rust API: a call the 2026 server turns into a task resolves like a plain
/// one, status reports reach `on_progress`, trace context goes with the call, and a task the
/// client stopped waiting for is resumed by id from `Snapshot`-style state, never run twice.
#[wasm_bindgen_test]
async fn a_task_resolves_reports_its_status_and_resumes_by_id() {
    let options = ConnectOptions::new().max_task_wait_ms(300);
    let c = McpClient::connect(&tasks2026(), options).await.unwrap();
    let (client_ext, server_ext) = c.extensions();
    assert!(client_ext.contains_key("io.modelcontextprotocol/tasks"));
    assert!(server_ext.contains_key("io.modelcontextprotocol/tasks"));
    let reports = Rc::new(RefCell::new(Vec::new()));
    let r2 = reports.clone();
    let r = c
        .call_tool("slow_compute", json!({"ms": 200, "steps": 2, "pollMs": 50}))
        .on_progress(move |p| {
            if let Some(t) = &p.task {
                r2.borrow_mut().push(t.clone());
            }
        })
        .trace_context(
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            None,
            None,
        )
        .await
        .unwrap();
    assert_eq!(r.content[0]["text"], "computed 2 steps");
    assert!(!reports.borrow().is_empty());
    let err = c
        .call_tool(
            "slow_compute",
            json!({"ms": 1200, "steps": 3, "pollMs": 100}),
        )
        .await
        .unwrap_err();
    let Error::TaskTimeout { task_id, .. } = &err else {
        panic!("{err:?}");
    };
    assert_eq!(err.code(), "TASK_TIMEOUT");
    let info = mcp_edge::proto::session::TaskInfo::from_host_json(
        &json!({"taskId": task_id, "shape": "extension", "status": "working"}),
    )
    .unwrap();
    let again = McpClient::connect(&tasks2026(), ConnectOptions::new())
        .await
        .unwrap();
    let r = again.resume_task(info).await.unwrap();
    assert_eq!(r.content[0]["text"], "computed 3 steps");
    assert!(again.tasks().is_empty());
    again.close().await.ok();
    c.close().await.ok();
}

/// MCP Apps through the Rust API: the view of server-basic-vanillajs's `get-time` read into a
/// bridge, driven as a host would (the view's messages in, the posts out), its own `tools/call`
/// forwarded through the client, and a tool without a view refused by its code.
#[wasm_bindgen_test]
async fn apps_open_the_view_and_forward_its_calls_through_the_client() {
    use mcp_edge::proto::apps::{AppError, BridgeEvent, BridgeState};
    let options = ConnectOptions::new().extension("io.modelcontextprotocol/ui", json!(true));
    let client = connect(&apps(), options).await;
    let (declared, _) = client.extensions();
    assert_eq!(
        declared.get("io.modelcontextprotocol/ui"),
        Some(&json!({"mimeTypes": ["text/html;profile=mcp-app"]}))
    );
    let mut bridge = client.open_app("get-time").await.expect("the view");
    assert!(bridge
        .document()
        .starts_with("<!DOCTYPE html><meta http-equiv=\"Content-Security-Policy\""));
    assert!(
        bridge
            .content_security_policy()
            .contains("connect-src 'none'"),
        "no csp declared: the default"
    );
    let posts = |b: &mut mcp_edge::proto::apps::AppBridge| {
        std::iter::from_fn(|| b.poll_event())
            .filter_map(|e| match e {
                BridgeEvent::Post(t) => serde_json::from_str::<serde_json::Value>(&t).ok(),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    bridge.from_view(
        r#"{"jsonrpc":"2.0","method":"ui/notifications/sandbox-proxy-ready","params":{}}"#,
    );
    assert_eq!(
        posts(&mut bridge)[0]["method"],
        "ui/notifications/sandbox-resource-ready"
    );
    bridge.from_view(r#"{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{"appInfo":{"name":"v","version":"1"},"appCapabilities":{},"protocolVersion":"2026-01-26"}}"#);
    bridge.from_view(r#"{"jsonrpc":"2.0","method":"ui/notifications/initialized"}"#);
    assert_eq!(bridge.state(), BridgeState::Ready);
    let init = posts(&mut bridge);
    assert_eq!(
        init[0]["result"]["hostContext"]["toolInfo"]["tool"]["name"],
        "get-time"
    );
    bridge.from_view(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get-time","arguments":{}}}"#);
    let (id, request) = std::iter::from_fn(|| bridge.poll_event())
        .find_map(|e| match e {
            BridgeEvent::Request { id, request } => Some((id, request)),
            _ => None,
        })
        .expect("the view's call reaches the host");
    let answer = client
        .forward_view_request(&request)
        .await
        .expect("a server request");
    bridge.answer(id, answer).unwrap();
    let reply = posts(&mut bridge);
    assert_eq!(reply[0]["id"], 2);
    assert!(
        reply[0]["result"]["structuredContent"]["time"].is_string(),
        "{reply:?}"
    );
    let everything = connect(&everything(), ConnectOptions::new()).await;
    assert!(matches!(
        everything.open_app("echo").await,
        Err(AppError::NotAnApp(t)) if t == "echo"
    ));
    assert!(matches!(
        everything.open_app("no-such-tool").await,
        Err(AppError::UnknownTool(_))
    ));
}
