//! Small helpers over `globalThis` and JS values shared by [`super::fetch`] and [`super::timer`].
//!
//! Everything is looked up on `globalThis` (`js_sys::global()`), never on `window`, so the same
//! code runs in a page, a Web Worker, a Workers isolate and Node.

use js_sys::{Array, Function, Promise, Reflect};
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

/// Removes the abort listener of one [`await_abortable`] call, whether that call completed or
/// its future was dropped mid-await (so listeners on a long-lived signal stay bounded).
struct ListenerGuard<'a> {
    signal: &'a AbortSignal,
    listener: Function,
}

impl Drop for ListenerGuard<'_> {
    fn drop(&mut self) {
        let _ = self
            .signal
            .remove_event_listener_with_callback("abort", &self.listener);
    }
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
/// No Rust closure outlives the call: the listener is the JS `reject` function of a promise.
///
/// When it returns [`Settled::Aborted`] without awaiting, the promise is still given a handler,
/// so its later rejection is never reported as unhandled (fatal in Node).
pub(crate) async fn await_abortable(promise: Promise, signal: &AbortSignal) -> Settled {
    if signal.aborted() {
        detach(promise);
        return Settled::Aborted;
    }
    let mut reject_slot: Option<Function> = None;
    let on_abort = Promise::new(&mut |_resolve, reject| reject_slot = Some(reject));
    let Some(reject) = reject_slot else {
        // The Promise constructor always runs its executor synchronously; unreachable in
        // practice, but fall back to a plain await rather than panic.
        return settle(JsFuture::from(promise).await, signal);
    };
    if signal
        .add_event_listener_with_callback("abort", &reject)
        .is_err()
    {
        return settle(JsFuture::from(promise).await, signal);
    }
    let _guard = ListenerGuard {
        signal,
        listener: reject,
    };
    let raced = Promise::race(&Array::of2(&promise, &on_abort));
    settle(JsFuture::from(raced).await, signal)
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
