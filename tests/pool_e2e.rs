//! `McpPool` end to end against real servers (one healthy 2026 server, one 2025 server, one that
//! hangs on connect, one that answers 500), in Node and headless Chromium. Started by
//! `tests/wasm/run-client-tests.sh`; without its URLs every test fails.
#![cfg(all(target_family = "wasm", target_os = "unknown"))]

use js_sys::{Array, Reflect};
use mcp_edge::js::McpPool;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

mod e2e;
use e2e::*;

fn to_json(v: &JsValue) -> serde_json::Value {
    serde_json::from_str(&js_sys::JSON::stringify(v).unwrap().as_string().unwrap()).unwrap()
}
fn now() -> f64 {
    js_sys::Date::now()
}
fn state_of(status: &serde_json::Value, server: &str) -> serde_json::Value {
    status["servers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == server)
        .cloned()
        .unwrap()
}

#[wasm_bindgen_test]
async fn one_healthy_server_works_while_a_hanging_and_a_failing_one_fail_in_isolation() {
    let config = serde_json::json!({"mcpServers": {
        "hang": {"url": format!("{}/hang", fixture()), "timeoutMs": 1500},
        "broken": {"url": format!("{}/mcp-500", fixture())},
        "py": {"url": py(), "headers": {"X-Token": "${TOKEN}"}},
    }});
    let events = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let e2 = events.clone();
    let on_event =
        Closure::<dyn Fn(JsValue)>::new(move |e: JsValue| e2.borrow_mut().push(to_json(&e)));
    let options = json(serde_json::json!({"vars": {"TOKEN": "t-123"}}));
    Reflect::set(&options, &"onEvent".into(), on_event.as_ref()).unwrap();
    let pool = McpPool::new(json(config), options).unwrap();
    let started = now();
    let status = to_json(&wait(pool.connect_all()).await.unwrap());
    let took = now() - started;
    assert_eq!(state_of(&status, "py")["state"], "connected", "{status}");
    assert_eq!(state_of(&status, "py")["era"], "modern");
    assert!(state_of(&status, "py")["toolCount"].as_u64().unwrap() >= 7);
    let hang = state_of(&status, "hang");
    assert_eq!(hang["state"], "failed", "{hang}");
    let broken = state_of(&status, "broken");
    assert_eq!(broken["state"], "failed");
    assert!(
        broken["lastError"]["message"]
            .as_str()
            .unwrap()
            .contains("500"),
        "{broken}"
    );
    assert!(
        took < 15_000.0,
        "the hanging server was cut at its timeout ({took} ms)"
    );
    // The healthy server's tools are usable.
    let tools = to_json(
        &pool
            .tools(json(serde_json::json!({"format": "openai"})))
            .unwrap(),
    );
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"mcp__py__add"), "{names:?}");
    assert!(names
        .iter()
        .all(|n| n.starts_with("mcp__py__") && n.len() <= 64));
    let r = to_json(
        &wait(pool.call(
            "mcp__py__add".into(),
            json(serde_json::json!({"a": 2, "b": 40})),
            JsValue::UNDEFINED,
        ))
        .await
        .unwrap(),
    );
    assert_eq!(r["isError"], false, "{r}");
    assert!(
        r["content"][0]["text"].as_str().unwrap().contains("42"),
        "{r}"
    );
    assert_eq!(r["raw"]["structuredContent"]["sum"], 42);
    // A tool of no connected server is an isError result, not a thrown error.
    let r = to_json(
        &wait(pool.call(
            "mcp__broken__x".into(),
            JsValue::UNDEFINED,
            JsValue::UNDEFINED,
        ))
        .await
        .unwrap(),
    );
    assert_eq!(r["isError"], true);
    let f = to_json(
        &wait(pool.call(
            "mcp__py__fail".into(),
            JsValue::UNDEFINED,
            JsValue::UNDEFINED,
        ))
        .await
        .unwrap(),
    );
    assert_eq!(f["isError"], true);
    assert!(events
        .borrow()
        .iter()
        .any(|e| e["type"] == "state" && e["server"] == "py" && e["to"] == "connected"));
    wait(pool.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn exports_are_byte_identical_whatever_the_completion_order() {
    let a = serde_json::json!({"mcpServers": {"py": {"url": py()}, "everything": {"url": everything(), "protocol": "2025-11-25"}}});
    let b = serde_json::json!({"mcpServers": {"everything": {"url": everything(), "protocol": "2025-11-25"}, "py": {"url": py()}}});
    // One pool connects one server at a time, the other both at once.
    let p1 = McpPool::new(
        json(a),
        json(serde_json::json!({"maxConcurrentConnects": 1})),
    )
    .unwrap();
    let p2 = McpPool::new(
        json(b),
        json(serde_json::json!({"maxConcurrentConnects": 4})),
    )
    .unwrap();
    wait(p2.connect_all()).await.unwrap();
    wait(p1.connect_all()).await.unwrap();
    for format in ["openai", "anthropic", "mcp"] {
        let f = json(serde_json::json!({"format": format}));
        let t1 = js_sys::JSON::stringify(&p1.tools(f.clone()).unwrap())
            .unwrap()
            .as_string()
            .unwrap();
        let t2 = js_sys::JSON::stringify(&p2.tools(f).unwrap())
            .unwrap()
            .as_string()
            .unwrap();
        assert_eq!(t1, t2, "{format}");
        assert!(Array::from(&json(serde_json::from_str(&t1).unwrap())).length() > 10);
    }
    let instr = to_json(&p1.instructions());
    assert!(!instr["joined"].as_array().unwrap().is_empty());
    assert!(
        instr["text"]
            .as_str()
            .unwrap()
            .contains("<system-reminder>"),
        "{instr}"
    );
    assert_eq!(
        to_json(&p1.instructions())["text"],
        "",
        "instructions are delivered once"
    );
    wait(p1.close()).await.unwrap();
    wait(p2.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn an_undefined_variable_fails_only_its_server_and_never_shows_values() {
    let config = serde_json::json!({"mcpServers": {
        "py": {"url": py()},
        "needs-var": {"url": py(), "headers": {"Authorization": "Bearer ${MISSING}", "X-Known": "${SECRET}"}},
    }});
    let pool = McpPool::new(
        json(config),
        json(serde_json::json!({"vars": {"SECRET": "s3cr3t-value"}})),
    )
    .unwrap();
    let status = to_json(&wait(pool.connect_all()).await.unwrap());
    assert_eq!(state_of(&status, "py")["state"], "connected");
    let bad = state_of(&status, "needs-var");
    assert_eq!(bad["state"], "failed");
    let text = bad.to_string();
    assert!(
        text.contains("MISSING") && text.contains("needs-var"),
        "{text}"
    );
    assert!(!text.contains("s3cr3t-value"), "never the value: {text}");
    wait(pool.close()).await.unwrap();
}

/// Polls `pool.status()` until `server` is in `state` (at most `limit_ms`).
async fn until_state(
    pool: &McpPool,
    server: &str,
    state: &str,
    limit_ms: f64,
) -> serde_json::Value {
    let start = now();
    loop {
        let s = state_of(&to_json(&pool.status()), server);
        if s["state"] == state || now() - start > limit_ms {
            return s;
        }
        sleep_ms(50).await;
    }
}

fn tool_names(pool: &McpPool) -> Vec<String> {
    to_json(&pool.tools(JsValue::UNDEFINED).unwrap())
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

type Events = std::rc::Rc<std::cell::RefCell<Vec<serde_json::Value>>>;

/// Sets `onEvent` on `options` to a listener that records every event (keep the closure).
fn collect_events(options: &JsValue) -> (Events, Closure<dyn Fn(JsValue)>) {
    let events = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let e2 = events.clone();
    let on_event =
        Closure::<dyn Fn(JsValue)>::new(move |e: JsValue| e2.borrow_mut().push(to_json(&e)));
    Reflect::set(options, &"onEvent".into(), on_event.as_ref()).unwrap();
    (events, on_event)
}

/// Every method the 2026-07-28 schema lets a client send (`schema/2026-07-28/schema.ts`:
/// `ClientRequest`, `ClientNotification`), plus the Tasks extension's (ext-tasks).
const METHODS_2026: [&str; 14] = [
    "server/discover",
    "completion/complete",
    "prompts/get",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "subscriptions/listen",
    "tools/call",
    "tools/list",
    "notifications/cancelled",
    "tasks/get",
    "tasks/update",
    "tasks/cancel",
];

/// Records the JSON-RPC method of every request the pool sends to URLs containing `part`.
fn record_methods(options: &JsValue, part: &str) -> (Events, Closure<dyn Fn(JsValue)>) {
    let seen = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let s2 = seen.clone();
    let part = part.to_string();
    let on_traffic = Closure::<dyn Fn(JsValue)>::new(move |t: JsValue| {
        let t = to_json(&t);
        if t["type"] != "request" || !t["url"].as_str().unwrap_or_default().contains(&part) {
            return;
        }
        let method = t["body"]
            .as_str()
            .and_then(|b| serde_json::from_str::<serde_json::Value>(b).ok())
            .and_then(|b| b["method"].as_str().map(str::to_string))
            .unwrap_or_else(|| format!("HTTP {}", t["method"].as_str().unwrap_or_default()));
        s2.borrow_mut().push(serde_json::Value::from(method));
    });
    Reflect::set(options, &"onTraffic".into(), on_traffic.as_ref()).unwrap();
    (seen, on_traffic)
}

#[wasm_bindgen_test]
async fn a_server_that_dies_after_connecting_leaves_the_exports_and_comes_back() {
    let (url, admin) = flaky("live");
    let config = serde_json::json!({"mcpServers": {
        "flaky": {"url": url, "timeoutMs": 3000},
        "py": {"url": py()},
    }});
    let options = json(serde_json::json!({}));
    let (events, _keep) = collect_events(&options);
    // A full pool life of a 2026 server (connect, calls, a list change, liveness probes, a
    // reconnect, close) sends only methods the 2026 schema defines: no `ping`.
    let (methods, _keep_traffic) = record_methods(&options, "/mcp-flaky");
    let pool = McpPool::new(json(config), options).unwrap();
    wait(pool.connect_all()).await.unwrap();
    assert_eq!(
        state_of(&to_json(&pool.status()), "flaky")["state"],
        "connected"
    );
    assert!(tool_names(&pool).contains(&"mcp__flaky__echo".to_string()));
    let args = json(serde_json::json!({"text": "hi"}));
    let r = to_json(
        &wait(pool.call("mcp__flaky__echo".into(), args.clone(), JsValue::UNDEFINED))
            .await
            .unwrap(),
    );
    assert_eq!(r["isError"], false, "{r}");
    // The server dies: the next call fails at the transport, the pool checks and drops it.
    http_text("POST", &format!("{admin}&op=down")).await;
    let r = to_json(
        &wait(pool.call("mcp__flaky__echo".into(), args.clone(), JsValue::UNDEFINED))
            .await
            .unwrap(),
    );
    assert_eq!(r["isError"], true, "{r}");
    let down = until_state(&pool, "flaky", "failed", 10_000.0).await;
    assert_eq!(down["state"], "failed", "{down}");
    assert!(
        down["nextRetryAt"].is_number(),
        "a reconnect is scheduled: {down}"
    );
    let names = tool_names(&pool);
    assert!(
        !names.iter().any(|n| n.starts_with("mcp__flaky__")),
        "{names:?}"
    );
    assert!(
        names.iter().any(|n| n.starts_with("mcp__py__")),
        "the others stay: {names:?}"
    );
    assert!(
        events.borrow().iter().any(|e| e["type"] == "state"
            && e["server"] == "flaky"
            && e["from"] == "connected"
            && e["to"] == "failed"
            && e["error"]["code"].is_string()),
        "{:?}",
        events.borrow()
    );
    // Back up: the backoff's reconnect brings the tools back.
    http_text("POST", &format!("{admin}&op=up")).await;
    let up = until_state(&pool, "flaky", "connected", 30_000.0).await;
    assert_eq!(up["state"], "connected", "{up}");
    assert!(tool_names(&pool).contains(&"mcp__flaky__echo".to_string()));
    let r = to_json(
        &wait(pool.call("mcp__flaky__echo".into(), args, JsValue::UNDEFINED))
            .await
            .unwrap(),
    );
    assert_eq!(r["isError"], false, "{r}");
    // A list change the listen stream carries.
    sleep_ms(300).await;
    http_text("POST", &format!("{admin}&op=change")).await;
    let heard = until_event(&events, 10_000.0, |e| {
        e["type"] == "listChanged" && e["server"] == "flaky"
    })
    .await;
    assert!(heard, "{:?}", events.borrow());
    wait(pool.close()).await.unwrap();
    let methods: Vec<String> = methods
        .borrow()
        .iter()
        .map(|m| m.as_str().unwrap_or_default().to_string())
        .collect();
    for m in &methods {
        assert!(
            METHODS_2026.contains(&m.as_str()),
            "{m:?} is not a 2026-07-28 client method: {methods:?}"
        );
    }
    // The liveness probe of a 2026 server is `server/discover` (sent beyond the connects).
    let discovers = methods.iter().filter(|m| *m == "server/discover").count();
    let connects = events
        .borrow()
        .iter()
        .filter(|e| e["type"] == "state" && e["server"] == "flaky" && e["to"] == "connected")
        .count();
    assert!(
        discovers > connects,
        "{discovers} discovers for {connects} connects: {methods:?}"
    );
    for want in ["tools/list", "tools/call", "subscriptions/listen"] {
        assert!(methods.iter().any(|m| m == want), "{want}: {methods:?}");
    }
}

/// Polls until `events` holds one that `want` accepts (at most `limit_ms`).
async fn until_event(
    events: &Events,
    limit_ms: f64,
    want: impl Fn(&serde_json::Value) -> bool,
) -> bool {
    let start = now();
    while now() - start < limit_ms {
        if events.borrow().iter().any(&want) {
            return true;
        }
        sleep_ms(50).await;
    }
    false
}

#[wasm_bindgen_test]
async fn list_changed_refetches_past_the_clients_cache_and_updates_the_exports() {
    // The fixture's tool list may be cached for 10 minutes: only the client's invalidation on
    // notifications/tools/list_changed (the session's cache) lets the pool's refetch see the change.
    let (url, admin) = flaky("lists");
    let config = serde_json::json!({"mcpServers": {"flaky": {"url": url, "timeoutMs": 5000}}});
    let options = json(serde_json::json!({}));
    let (events, _keep) = collect_events(&options);
    let pool = McpPool::new(json(config), options).unwrap();
    wait(pool.connect_all()).await.unwrap();
    assert_eq!(tool_names(&pool), vec!["mcp__flaky__echo"]);
    // Wait for the pool's subscriptions/listen stream before changing the list.
    let start = now();
    while !http_text("GET", &admin).await.contains("\"listens\":1") && now() - start < 5_000.0 {
        sleep_ms(50).await;
    }
    http_text("POST", &format!("{admin}&op=change")).await;
    let heard = until_event(&events, 10_000.0, |e| {
        e["type"] == "listChanged" && e["server"] == "flaky" && e["list"] == "tools"
    })
    .await;
    assert!(heard, "{:?}", events.borrow());
    assert_eq!(
        tool_names(&pool),
        vec!["mcp__flaky__echo", "mcp__flaky__extra_2"]
    );
    let counters = http_text("GET", &admin).await;
    assert!(
        counters.contains("\"lists\":2"),
        "one fetch at connect, one after the change: {counters}"
    );
    assert_eq!(state_of(&to_json(&pool.status()), "flaky")["toolCount"], 2);
    wait(pool.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn a_tool_added_at_runtime_reaches_the_exports_in_both_eras() {
    let config = serde_json::json!({"mcpServers": {
        "modern": {"url": py()},
        "legacy": {"url": format!("{}?era=legacy", py()), "protocol": "2025-11-25"},
    }});
    let options = json(serde_json::json!({}));
    let (events, _keep) = collect_events(&options);
    let pool = McpPool::new(json(config), options).unwrap();
    let status = to_json(&wait(pool.connect_all()).await.unwrap());
    assert_eq!(state_of(&status, "legacy")["era"], "legacy", "{status}");
    assert_eq!(state_of(&status, "modern")["era"], "modern", "{status}");
    let tag = format!("rt{}", (js_sys::Math::random() * 1e9) as u64);
    // Give the modern server's listen stream a moment to be acknowledged.
    sleep_ms(300).await;
    let r = to_json(
        &wait(pool.call(
            "mcp__legacy__add_tool".into(),
            json(serde_json::json!({"name": tag})),
            JsValue::UNDEFINED,
        ))
        .await
        .unwrap(),
    );
    assert_eq!(r["isError"], false, "{r}");
    for server in ["legacy", "modern"] {
        let heard = until_event(&events, 10_000.0, |e| {
            e["type"] == "listChanged" && e["server"] == server && e["list"] == "tools"
        })
        .await;
        assert!(heard, "{server}: {:?}", events.borrow());
        let want = format!("mcp__{server}__{tag}");
        assert!(tool_names(&pool).contains(&want), "{want}");
    }
    wait(pool.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn each_exported_tool_says_its_category_hints_and_whether_the_user_approved_it() {
    let config = serde_json::json!({"mcpServers": {
        "py": {"url": py(), "category": "write", "autoApprove": ["echo"]},
        "faulty": {"url": format!("{}/mcp-faulty", fixture()), "autoApprove": true},
    }});
    let pool = McpPool::new(json(config), json(serde_json::json!({}))).unwrap();
    wait(pool.connect_all()).await.unwrap();
    let info = to_json(&pool.tool_info());
    let find = |name: &str| {
        info.as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("{name} in {info}"))
    };
    let echo = find("mcp__py__echo");
    assert_eq!(
        (&echo["category"], &echo["autoApprove"]),
        (&serde_json::json!("write"), &serde_json::json!(true)),
        "{echo}"
    );
    assert_eq!(find("mcp__py__add")["autoApprove"], false);
    let idem = find("mcp__faulty__drop_me_idempotent");
    assert_eq!(
        idem["category"], "execute",
        "hints never set the category: {idem}"
    );
    assert_eq!(idem["hints"]["idempotent"], true);
    assert_eq!(idem["autoApprove"], true);
    // The same in the mcp export's _meta, and in the order of tools().
    let mcp = to_json(&pool.tools(JsValue::UNDEFINED).unwrap());
    let names: Vec<&serde_json::Value> =
        mcp.as_array().unwrap().iter().map(|t| &t["name"]).collect();
    let info_names: Vec<&serde_json::Value> = info
        .as_array()
        .unwrap()
        .iter()
        .map(|t| &t["name"])
        .collect();
    assert_eq!(names, info_names);
    let t = mcp
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "mcp__py__echo")
        .unwrap();
    assert_eq!(t["_meta"]["mcp-edge/trust"]["autoApprove"], true, "{t}");
    assert_eq!(t["_meta"]["mcp-edge/trust"]["category"], "write", "{t}");
    wait(pool.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn a_changed_tool_is_reported_held_and_its_pins_carry_over_to_the_next_pool() {
    let (url, admin) = flaky("pins");
    let config = serde_json::json!({"mcpServers": {"flaky": {"url": url}}});
    let options = json(serde_json::json!({}));
    let (events, _keep) = collect_events(&options);
    let pool = McpPool::new(json(config.clone()), options).unwrap();
    wait(pool.connect_all()).await.unwrap();
    let pins = to_json(&pool.pins());
    assert!(
        pins["flaky"]["echo"]
            .as_str()
            .unwrap()
            .starts_with("sha256:"),
        "{pins}"
    );
    // The server rewrites echo's description; the next listing (after a list change) sees it.
    let start = now();
    while !http_text("GET", &admin).await.contains("\"listens\":1") && now() - start < 5_000.0 {
        sleep_ms(50).await;
    }
    http_text("POST", &format!("{admin}&op=rug")).await;
    http_text("POST", &format!("{admin}&op=change")).await;
    let heard = until_event(&events, 10_000.0, |e| {
        e["type"] == "toolChanged" && e["name"] == "mcp__flaky__echo"
    })
    .await;
    assert!(heard, "{:?}", events.borrow());
    let held = to_json(&pool.held_tools());
    assert_eq!(held[0]["name"], "mcp__flaky__echo", "{held}");
    assert_eq!(held[0]["pinned"], pins["flaky"]["echo"]);
    assert_eq!(tool_names(&pool), vec!["mcp__flaky__extra_2"]);
    let now_pins = to_json(&pool.pins());
    assert_eq!(
        now_pins["flaky"]["echo"], pins["flaky"]["echo"],
        "a held tool keeps its pin"
    );
    assert!(
        now_pins["flaky"]["extra_2"].is_string(),
        "a new tool is pinned: {now_pins}"
    );
    let pins = now_pins;
    let r = to_json(
        &wait(pool.call(
            "mcp__flaky__echo".into(),
            JsValue::UNDEFINED,
            JsValue::UNDEFINED,
        ))
        .await
        .unwrap(),
    );
    assert_eq!(r["error"]["code"], "TOOL_CHANGED", "{r}");
    wait(pool.close()).await.unwrap();
    // A new pool given the pins holds it from the start.
    let options = json(serde_json::json!({ "pins": pins }));
    let (events, _keep2) = collect_events(&options);
    let next = McpPool::new(json(config), options).unwrap();
    wait(next.connect_all()).await.unwrap();
    assert_eq!(tool_names(&next), vec!["mcp__flaky__extra_2"]);
    assert!(events
        .borrow()
        .iter()
        .any(|e| e["type"] == "toolChanged" && e["server"] == "flaky"));
    next.accept_tool("mcp__flaky__echo".into()).unwrap();
    assert_eq!(
        tool_names(&next),
        vec!["mcp__flaky__echo", "mcp__flaky__extra_2"]
    );
    assert_ne!(
        to_json(&next.pins())["flaky"]["echo"],
        pins["flaky"]["echo"]
    );
    assert!(events.borrow().iter().any(|e| e["type"] == "toolsChanged"));
    wait(next.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn a_server_without_tools_connects_and_offers_its_prompts_and_resources() {
    // tools/list on this endpoint is -32601: asking for tools would fail the server.
    let (url, _admin) = flaky("notools");
    let config =
        serde_json::json!({"mcpServers": {"docs": {"url": format!("{url}&caps=no-tools")}}});
    let pool = McpPool::new(json(config), json(serde_json::json!({}))).unwrap();
    let status = to_json(&wait(pool.connect_all()).await.unwrap());
    let docs = state_of(&status, "docs");
    assert_eq!(docs["state"], "connected", "{docs}");
    assert_eq!(
        (
            &docs["toolCount"],
            &docs["promptCount"],
            &docs["resourceCount"]
        ),
        (
            &serde_json::json!(0),
            &serde_json::json!(2),
            &serde_json::json!(1)
        ),
        "{docs}"
    );
    assert!(docs["nextRetryAt"].is_null() && docs["lastError"].is_null());
    let prompts = to_json(&pool.prompts());
    assert_eq!(prompts[0]["server"], "docs");
    assert_eq!(prompts[1]["prompt"]["name"], "summarize");
    assert_eq!(
        to_json(&pool.resources())[0]["resource"]["uri"],
        "fixture:///readme"
    );
    assert!(tool_names(&pool).is_empty());
    wait(pool.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn a_project_layer_cannot_replace_the_users_server_unless_the_host_approves_it() {
    let user = serde_json::json!({"mcpServers": {"py": {"url": py(), "headers": {"X-Token": "user-secret"}}}});
    // The project points `py` elsewhere (where the user's header would go along with a merge).
    let project =
        serde_json::json!({"mcpServers": {"py": {"url": format!("{}/mcp-500", fixture())}}});
    let options = json(serde_json::json!({ "projectConfig": project }));
    let (events, _keep) = collect_events(&options);
    let pool = McpPool::new(json(user.clone()), options).unwrap();
    let status = to_json(&wait(pool.connect_all()).await.unwrap());
    let py_status = state_of(&status, "py");
    assert_eq!(
        py_status["state"], "connected",
        "the user's entry is used: {py_status}"
    );
    assert_eq!(py_status["projectEntry"], "ignored");
    assert!(events
        .borrow()
        .iter()
        .any(|e| e["type"] == "projectEntryIgnored" && e["server"] == "py"));
    wait(pool.close()).await.unwrap();
    // Approved: the project's entry is used (whole).
    let options =
        json(serde_json::json!({ "projectConfig": project, "approvedProjectServers": ["py"] }));
    let pool = McpPool::new(json(user), options).unwrap();
    let status = to_json(&wait(pool.connect_all()).await.unwrap());
    let py_status = state_of(&status, "py");
    assert_eq!(py_status["state"], "failed", "{py_status}");
    assert_eq!(py_status["projectEntry"], "approved");
    wait(pool.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn a_request_timeout_above_the_total_timeout_is_a_config_error_in_client_and_pool() {
    let options = || json(serde_json::json!({"timeoutMs": 5000, "maxTotalTimeoutMs": 1000}));
    let client_err = mcp_edge::js::McpClient::connect(py(), options())
        .await
        .err()
        .expect("McpClient refuses it");
    let pool_err = McpPool::new(
        json(serde_json::json!({"mcpServers": {"py": {"url": py()}}})),
        options(),
    )
    .err()
    .expect("McpPool refuses it too");
    let field = |e: &JsValue, k: &str| Reflect::get(e, &k.into()).unwrap().as_string().unwrap();
    assert_eq!(field(&client_err, "code"), "CONFIG");
    assert_eq!(field(&pool_err, "code"), "CONFIG");
    assert_eq!(field(&client_err, "message"), field(&pool_err, "message"));
    assert!(field(&pool_err, "message").contains("exceeds the maximum total timeout"));
    // Per call: a timeout above the total is refused, typed, by the client and by the pool.
    let capped = || json(serde_json::json!({"timeoutMs": 500, "maxTotalTimeoutMs": 1000}));
    let long = || json(serde_json::json!({"timeoutMs": 5000}));
    let client = mcp_edge::js::McpClient::connect(py(), capped())
        .await
        .unwrap();
    let args = json(serde_json::json!({"a": 1, "b": 2}));
    let e = wait(client.call_tool("add".into(), args.clone(), long()))
        .await
        .expect_err("refused");
    assert_eq!(field(&e, "code"), "CONFIG");
    assert!(
        field(&e, "message").contains("5000 ms"),
        "{}",
        field(&e, "message")
    );
    let pool = McpPool::new(
        json(serde_json::json!({"mcpServers": {"py": {"url": py()}}})),
        capped(),
    )
    .unwrap();
    wait(pool.connect_all()).await.unwrap();
    let r = to_json(
        &wait(pool.call("mcp__py__add".into(), args, long()))
            .await
            .unwrap(),
    );
    assert_eq!(r["error"]["code"], "CONFIG", "{r}");
    wait(pool.close()).await.unwrap();
}

/// A server down past its fast retries is retried slowly and comes back on its own (no
/// `reconnect`); meanwhile its tools fail at once with `SERVER_UNAVAILABLE`. The search index
/// follows it out and back in.
#[wasm_bindgen_test]
async fn a_server_down_past_its_fast_retries_comes_back_on_its_own_and_search_follows() {
    let (url, admin) = flaky("slow-retry");
    let config = serde_json::json!({"mcpServers": {
        "flaky": {"url": url, "timeoutMs": 2000},
        "py": {"url": py()},
    }});
    let options = json(serde_json::json!({
        "reconnect": {"initialMs": 100, "maxMs": 200, "maxRetries": 2, "slowMs": 1500, "jitterPercent": 10},
    }));
    let pool = McpPool::new(json(config), options).unwrap();
    wait(pool.connect_all()).await.unwrap();
    let search = |q: &str| -> Vec<String> {
        to_json(&pool.search_tools(q.into(), JsValue::UNDEFINED).unwrap())
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(search("echo").contains(&"mcp__flaky__echo".to_string()));
    http_text("POST", &format!("{admin}&op=down")).await;
    let args = json(serde_json::json!({"text": "hi"}));
    let _ = wait(pool.call("mcp__flaky__echo".into(), args.clone(), JsValue::UNDEFINED)).await;
    // Past the two fast retries: slow ones.
    let start = now();
    let mut slow = serde_json::Value::Null;
    while now() - start < 15_000.0 {
        slow = state_of(&to_json(&pool.status()), "flaky");
        if slow["slowRetry"] == true {
            break;
        }
        sleep_ms(100).await;
    }
    assert_eq!(slow["slowRetry"], true, "{slow}");
    assert_eq!(slow["gaveUp"], false, "{slow}");
    let r = to_json(
        &wait(pool.call("mcp__flaky__echo".into(), args.clone(), JsValue::UNDEFINED))
            .await
            .unwrap(),
    );
    assert_eq!(r["error"]["code"], "SERVER_UNAVAILABLE", "{r}");
    assert_eq!(r["error"]["server"], "flaky", "{r}");
    assert!(r["error"]["nextRetryAt"].is_number(), "{r}");
    assert!(!search("echo").contains(&"mcp__flaky__echo".to_string()));
    // It comes back: the next slow retry connects it, nobody calls reconnect.
    http_text("POST", &format!("{admin}&op=up")).await;
    let up = until_state(&pool, "flaky", "connected", 20_000.0).await;
    assert_eq!(up["state"], "connected", "{up}");
    assert!(search("echo").contains(&"mcp__flaky__echo".to_string()));
    let r = to_json(
        &wait(pool.call("mcp__flaky__echo".into(), args, JsValue::UNDEFINED))
            .await
            .unwrap(),
    );
    assert_eq!(r["isError"], false, "{r}");
    wait(pool.close()).await.unwrap();
}
