//! Helpers shared by the wasm end-to-end suites (`client_e2e.rs`, `pool_e2e.rs`): the server URLs
//! `tests/wasm/run-client-tests.sh` compiles in, and small JS conversions.
#![allow(dead_code)]

use js_sys::Promise;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

pub fn url(name: &str, v: Option<&'static str>) -> String {
    match v {
        Some(u) if !u.is_empty() => u.to_string(),
        _ => panic!("{name} was not set at compile time: run tests/wasm/run-client-tests.sh"),
    }
}
pub fn everything() -> String {
    url(
        "MCP_EDGE_EVERYTHING_URL",
        option_env!("MCP_EDGE_EVERYTHING_URL"),
    )
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
