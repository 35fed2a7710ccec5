//! Helpers shared by the wasm end-to-end suites (`client_e2e.rs`, `pool_e2e.rs`, `rust_app.rs`):
//! the server URLs the test command (`tests/wasm/run-wasm-pack.sh`,
//! `tests/wasm/run-client-tests.sh`) compiles in, and small JS conversions.
#![allow(dead_code)]

pub mod scope;

use js_sys::Promise;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

pub fn url(name: &str, v: Option<&'static str>) -> String {
    match v {
        Some(u) if !u.is_empty() => u.to_string(),
        _ => panic!(
            "{name} was not set at compile time: this suite needs the local MCP test servers, \
             which the test command starts: run `bash tests/run-all.sh wasm_pack` \
             (docs/testing.md; it runs `wasm-pack test --headless --chrome` and \
             `wasm-pack test --node` with the servers up)"
        ),
    }
}
pub fn everything() -> String {
    url(
        "MCP_EDGE_EVERYTHING_URL",
        option_env!("MCP_EDGE_EVERYTHING_URL"),
    )
}
pub fn apps() -> String {
    url("MCP_EDGE_APPS_URL", option_env!("MCP_EDGE_APPS_URL"))
}
pub fn py() -> String {
    url("MCP_EDGE_PY2026_URL", option_env!("MCP_EDGE_PY2026_URL"))
}
pub fn py_admin() -> String {
    url(
        "MCP_EDGE_PY2026_ADMIN_URL",
        option_env!("MCP_EDGE_PY2026_ADMIN_URL"),
    )
}
/// The Python server with `--fault-tools` (`sleep_tracked`, `count_*`, `/admin/tracked`).
pub fn py_faults() -> String {
    url(
        "MCP_EDGE_PYFAULTS_URL",
        option_env!("MCP_EDGE_PYFAULTS_URL"),
    )
}
pub fn fixture() -> String {
    url("MCP_EDGE_FIXTURE_URL", option_env!("MCP_EDGE_FIXTURE_URL"))
}
/// The Tasks extension fixture (`tests/servers/tasks2026/server.mjs`): its MCP endpoint.
pub fn tasks2026() -> String {
    format!(
        "{}/mcp",
        url(
            "MCP_EDGE_TASKS2026_URL",
            option_env!("MCP_EDGE_TASKS2026_URL")
        )
    )
}
/// The Tasks extension fixture's origin (its `/admin/*` routes).
pub fn tasks2026_admin(route: &str) -> String {
    format!(
        "{}/admin/{route}",
        url(
            "MCP_EDGE_TASKS2026_URL",
            option_env!("MCP_EDGE_TASKS2026_URL")
        )
    )
}
pub fn fixture_nocors() -> String {
    url(
        "MCP_EDGE_FIXTURE_NOCORS_URL",
        option_env!("MCP_EDGE_FIXTURE_NOCORS_URL"),
    )
}

/// A JSON value as a plain JS value.
pub fn json(v: serde_json::Value) -> JsValue {
    js_sys::JSON::parse(&v.to_string()).unwrap()
}

/// Awaits a promise.
pub async fn wait(p: Promise) -> Result<JsValue, JsValue> {
    JsFuture::from(p).await
}

/// Sends `method` to `url` with `fetch` and returns the body text.
pub async fn http_text(method: &str, url: &str) -> String {
    fetch_text(url, serde_json::json!({ "method": method })).await
}

/// `fetch(url, init)` and the response's body text.
async fn fetch_text(url: &str, init: serde_json::Value) -> String {
    use wasm_bindgen::JsCast;
    let fetch: js_sys::Function = js_sys::Reflect::get(&js_sys::global(), &"fetch".into())
        .unwrap()
        .unchecked_into();
    let resp = wait(
        fetch
            .call2(&JsValue::NULL, &url.into(), &json(init))
            .unwrap()
            .unchecked_into(),
    )
    .await
    .unwrap();
    let text: js_sys::Function = js_sys::Reflect::get(&resp, &"text".into())
        .unwrap()
        .unchecked_into();
    wait(text.call0(&resp).unwrap().unchecked_into())
        .await
        .unwrap()
        .as_string()
        .unwrap()
}

/// POSTs `body` as JSON to `url` and returns the response body parsed.
pub async fn post_json(url: &str, body: serde_json::Value) -> serde_json::Value {
    let init = serde_json::json!({
        "method": "POST",
        "headers": {"content-type": "application/json"},
        "body": body.to_string(),
    });
    serde_json::from_str(&fetch_text(url, init).await).unwrap_or(serde_json::Value::Null)
}

/// GETs `url` and parses the body as JSON.
pub async fn get_json(url: &str) -> serde_json::Value {
    serde_json::from_str(&http_text("GET", url).await).unwrap_or(serde_json::Value::Null)
}

/// Resolves after `ms` milliseconds (`setTimeout`).
pub async fn sleep_ms(ms: i32) {
    use wasm_bindgen::JsCast;
    let p = Promise::new(&mut |resolve, _| {
        let set: js_sys::Function = js_sys::Reflect::get(&js_sys::global(), &"setTimeout".into())
            .unwrap()
            .unchecked_into();
        set.call2(&JsValue::NULL, &resolve, &ms.into()).unwrap();
    });
    wait(p).await.unwrap();
}

/// A fresh `/mcp-flaky` endpoint of the fixture (its own key) and its admin URL.
pub fn flaky(tag: &str) -> (String, String) {
    let key = format!("{tag}-{}", (js_sys::Math::random() * 1e12) as u64);
    (
        format!("{}/mcp-flaky?key={key}", fixture()),
        format!("{}/mcp-flaky/admin?key={key}", fixture()),
    )
}

// Both suites that include this module run in the runtime `wasm-pack test` asks for.
mcp_edge_wasm_test_mode::configure!();

/// The protected Python 2026 server of the OAuth test servers (tests/servers/auth/start.sh).
pub fn auth_py() -> String {
    url("MCP_EDGE_AUTH_PY_URL", option_env!("MCP_EDGE_AUTH_PY_URL"))
}
/// Their authorization server's issuer.
pub fn auth_issuer() -> String {
    url("MCP_EDGE_AUTH_ISSUER", option_env!("MCP_EDGE_AUTH_ISSUER"))
}
/// The client-credentials client that authorization server knows: id and this run's secret.
pub fn auth_cc() -> (String, String) {
    (
        url("MCP_EDGE_AUTH_CC_ID", option_env!("MCP_EDGE_AUTH_CC_ID")),
        url(
            "MCP_EDGE_AUTH_CC_SECRET",
            option_env!("MCP_EDGE_AUTH_CC_SECRET"),
        ),
    )
}
