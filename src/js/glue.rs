//! The small JS pieces Rust cannot express directly: the `McpError` class (an `Error` subclass
//! with a stable `code`) and an async-iterator wrapper.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r#"
export class McpError extends Error {
  constructor(code, message, details) {
    super(message);
    this.name = "McpError";
    this.code = code;
    if (details) {
      for (const key of Object.keys(details)) {
        if (details[key] !== undefined && details[key] !== null) this[key] = details[key];
      }
    }
  }
}
export function makeMcpError(code, message, details) {
  return new McpError(code, message, details);
}
export function isMcpError(value) {
  return value instanceof McpError;
}
export function wrapStream(stream) {
  let done = false;
  const finish = () => {
    if (!done) { done = true; stream.free(); }
    return { done: true, value: undefined };
  };
  return {
    next: () => done
      ? Promise.resolve({ done: true, value: undefined })
      : stream.nextItem().then((value) => (value === undefined ? finish() : { done: false, value })),
    return: () => Promise.resolve(finish()),
    [Symbol.asyncIterator]() { return this; },
  };
}
"#)]
extern "C" {
    /// Builds an `McpError`.
    #[wasm_bindgen(js_name = makeMcpError)]
    pub fn make_mcp_error(code: &str, message: &str, details: &JsValue) -> JsValue;
    /// Whether a value is an `McpError`.
    #[wasm_bindgen(js_name = isMcpError)]
    pub fn is_mcp_error_js(value: &JsValue) -> bool;
    /// Wraps a `NotificationStream` (`nextItem(): Promise<T | undefined>`) as an async iterator
    /// whose `return()` (or its end) frees the stream.
    #[wasm_bindgen(js_name = wrapStream)]
    pub fn wrap_stream(stream: &JsValue) -> JsValue;
}
