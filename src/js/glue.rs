//! The small JS pieces Rust cannot express directly: the `McpError` class (an `Error` subclass
//! with a stable `code`), an async-iterator wrapper, and the browser sign-in helpers (the popup
//! and its callback channel, storage adapters): a few lines of JS each, far smaller than the
//! same through `web_sys`. The JS is in `glue.js`, the one JS module of the crate (the
//! authorization host of [`crate::transport::js_auth`] is there too): one snippet file in the package
//! instead of one per binding module, which is 233 B smaller gzip -9 (client build, measured).

use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/js/glue.js")]
extern "C" {
    /// Builds an `McpError`.
    #[wasm_bindgen(js_name = makeMcpError)]
    pub fn make_mcp_error(code: &str, message: &str, details: &JsValue) -> JsValue;
    /// Whether a value is an `McpError`.
    #[wasm_bindgen(js_name = isMcpError)]
    pub fn is_mcp_error_js(value: &JsValue) -> bool;
    /// A `Progress` object: `total` and `message` are a number / string or `null`; `task` (a
    /// task's status report) an object or `null` (then absent).
    #[wasm_bindgen(js_name = makeProgress)]
    pub fn make_progress(
        progress: f64,
        total: &JsValue,
        message: &JsValue,
        task: &JsValue,
    ) -> JsValue;
    /// Opens the sign-in popup now; `None`: the browser blocked it (or there is no window).
    #[wasm_bindgen(js_name = openPopup)]
    pub fn open_popup(url: &str, options: &JsValue) -> Option<js_sys::Promise>;
    /// The `browserStorage` adapter (throws `McpError` for an unavailable or unknown area).
    #[wasm_bindgen(js_name = browserStorage, catch)]
    pub fn browser_storage(options: &JsValue) -> Result<JsValue, JsValue>;
    /// Wraps a `NotificationStream` (`nextItem(): Promise<T | undefined>`) as an async iterator
    /// whose `return()` (or its end) frees the stream.
    #[wasm_bindgen(js_name = wrapStream)]
    pub fn wrap_stream(stream: &JsValue) -> JsValue;
}
