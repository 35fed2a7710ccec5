//! Where a wasm suite runs, checked in every suite that includes this file (`tests/e2e/mod.rs`
//! for `client_e2e`, `pool_e2e` and `rust_app`; `tests/transport_fetch.rs`).

use js_sys::Reflect;
use wasm_bindgen_test::wasm_bindgen_test;

/// Which JS scope runs the suite: `window`, `worker` or `node`.
pub fn scope_kind() -> &'static str {
    let global = js_sys::global();
    let has = |name: &str| {
        !Reflect::get(&global, &name.into())
            .unwrap_or_default()
            .is_undefined()
    };
    if has("window") {
        "window"
    } else if has("WorkerGlobalScope") {
        "worker"
    } else if has("process") {
        "node"
    } else {
        "unknown"
    }
}

/// The script (`MCP_EDGE_EXPECT_SCOPE`) or else the `wasm-pack test` mode of the build says where
/// each run must execute; this proves it did (a worker run that silently fell back to a page or
/// to Node would otherwise pass without ever testing a windowless browser scope).
#[wasm_bindgen_test]
fn runs_in_the_scope_the_script_asked_for() {
    let expected = option_env!("MCP_EDGE_EXPECT_SCOPE").unwrap_or(mcp_edge_wasm_test_mode::SCOPE);
    assert_eq!(scope_kind(), expected);
}
