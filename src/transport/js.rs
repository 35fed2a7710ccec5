//! Small helpers over `globalThis` and JS values shared by [`super::fetch`] and [`super::timer`].
//!
//! Everything is looked up on `globalThis` (`js_sys::global()`), never on `window`, so the same
//! code runs in a page, a Web Worker, a Workers isolate and Node.

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::AbortSignal;

/// `globalThis[name]` if it is a function.
pub(crate) fn global_function(name: &str) -> Option<Function> {
    Reflect::get(&js_sys::global(), &JsValue::from_str(name))
        .ok()?
        .dyn_into::<Function>()
        .ok()
}

/// `value[key]`, or `undefined` when `value` is not an object or the getter throws.
pub(crate) fn get(value: &JsValue, key: &str) -> JsValue {
    if !value.is_object() && !value.is_function() {
        return JsValue::UNDEFINED;
    }
    Reflect::get(value, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// The origin of the calling scope (`globalThis.location.origin`) when the scope is browser-like
/// (a window or a worker, HTML § 7.2 "The Location interface", § 10.3.3 "WorkerLocation").
/// `None` in Node and Workers isolates, which have no `location`. An opaque origin (a `file:`
/// page, a sandboxed frame) is `Some("null")`: CORS still applies there.
pub(crate) fn scope_origin() -> Option<String> {
    let location = get(&js_sys::global(), "location");
    let origin = get(&location, "origin").as_string()?;
    (!origin.is_empty()).then_some(origin)
}

/// The origin of `url` by the WHATWG URL parser (`new URL(url, base).origin`).
pub(crate) fn url_origin(url: &str) -> Option<String> {
    let base = get(&get(&js_sys::global(), "location"), "href").as_string();
    let parsed = match base {
        Some(base) => web_sys::Url::new_with_base(url, &base),
        None => web_sys::Url::new(url),
    };
    parsed.ok().map(|u| u.origin())
}

/// What a thrown or rejected JS value says: `(name, message)`. For a `TypeError` from Node's
/// fetch the `cause` (e.g. `connect ECONNREFUSED 127.0.0.1:1`) is appended to the message.
pub(crate) fn describe(error: &JsValue) -> (String, String) {
    if let Some(s) = error.as_string() {
        return (String::new(), s);
    }
    let name = get(error, "name").as_string().unwrap_or_default();
    let mut message = get(error, "message").as_string().unwrap_or_default();
    let cause = get(error, "cause");
    let cause_text = get(&cause, "message")
        .as_string()
        .or_else(|| get(&cause, "code").as_string())
        .or_else(|| cause.as_string());
    if let Some(cause_text) = cause_text.filter(|c| !c.is_empty()) {
        message = format!("{message} (cause: {cause_text})");
    }
    if name.is_empty() && message.is_empty() {
        message = format!("{error:?}");
    }
    (name, message)
}

/// `name: message`, or whichever part is present.
pub(crate) fn describe_line(error: &JsValue) -> String {
    match describe(error) {
        (name, message) if name.is_empty() => message,
        (name, message) if message.is_empty() => name,
        (name, message) => format!("{name}: {message}"),
    }
}

// The crate's one JS module (one snippet file with the bindings of `src/js/glue.rs`).
#[wasm_bindgen(module = "/src/js/glue.js")]
extern "C" {
    /// `promise`, or a rejection as soon as `signal` aborts, whichever comes first.
    fn abortable(promise: &Promise, signal: &AbortSignal) -> Promise;
    /// An injected answer's headers as `name:value` lines (see [`super::fetch`]'s `read_headers`).
    #[wasm_bindgen(js_name = headerLines)]
    pub(crate) fn header_lines(headers: &JsValue) -> Option<String>;
}

/// Outcome of [`await_abortable`].
pub(crate) enum Settled {
    /// The promise fulfilled with this value.
    Value(JsValue),
    /// The promise rejected with this value.
    Error(JsValue),
    /// The signal aborted first (or had already aborted).
    Aborted,
}

/// Awaits `promise`, but settles as soon as `signal` aborts even if the promise never does (a
/// host-injected `fetch`, or a body stream, that ignores the signal). Implements the "abort
/// when the signal fires" steps of WHATWG DOM § 3.1 for promises that do not honour it.
/// The race runs in JS (`abortable` in `src/js/glue.js`): one crossing per await.
///
/// When it returns [`Settled::Aborted`] without awaiting, the promise is still given a handler,
/// so its later rejection is never reported as unhandled (fatal in Node).
pub(crate) async fn await_abortable(promise: Promise, signal: &AbortSignal) -> Settled {
    if signal.aborted() {
        detach(promise);
        return Settled::Aborted;
    }
    // The signal is one request's `AbortController` signal: a listener left on it when this
    // future is dropped mid-await lives no longer than that request.
    settle(JsFuture::from(abortable(&promise, signal)).await, signal)
}

fn settle(result: Result<JsValue, JsValue>, signal: &AbortSignal) -> Settled {
    match result {
        Ok(v) => Settled::Value(v),
        Err(_) if signal.aborted() => Settled::Aborted,
        Err(e) => Settled::Error(e),
    }
}

/// Lets a promise settle in the background with any rejection handled, so a runtime that treats
/// unhandled rejections as fatal (Node) never sees one (used for `reader.cancel()`).
pub(crate) fn detach(promise: Promise) {
    wasm_bindgen_futures::spawn_local(async move {
        let _ = JsFuture::from(promise).await;
    });
}
