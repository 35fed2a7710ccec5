//! Global-scope timers and a monotonic clock for the driver (the core never reads a clock; the
//! driver passes `now` in).
//!
//! `setTimeout` / `clearTimeout` and `performance.now()` are looked up on `globalThis` (HTML
//! § 8.6 "Timers", WindowOrWorkerGlobalScope; High Resolution Time § 6 `Performance.now()`), so
//! they work in a window, a worker, workerd and Node. In Node a timer returns an object, not a
//! number: it is kept as an opaque `JsValue` and handed back to `clearTimeout` unchanged.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use js_sys::{Function, Promise};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use super::js::{get, global_function};
use super::TransportError;

/// The largest delay `setTimeout` honours: larger values overflow a signed 32-bit integer and
/// fire at once (HTML § 8.6, timer initialisation step "if timeout is less than 0, set to 0"
/// after the WebIDL `long` conversion).
const MAX_DELAY_MS: u32 = i32::MAX as u32;

/// A pending `setTimeout`; a future that resolves once the delay has passed. Dropping it before
/// it fires clears the timer, so no timer outlives the work it guarded (a Workers isolate or a
/// Node process is not kept alive by it).
#[must_use = "a Timeout does nothing unless awaited; dropping it clears the timer"]
pub struct Timeout {
    id: JsValue,
    fired: JsFuture,
    done: bool,
}

impl Timeout {
    /// Starts a timer of `ms` milliseconds (clamped to `2^31 - 1`).
    ///
    /// Fails with [`TransportError::Unsupported`] if the scope has no `setTimeout`.
    pub fn new(ms: u32) -> Result<Self, TransportError> {
        let set_timeout =
            global_function("setTimeout").ok_or_else(|| TransportError::Unsupported {
                message: "globalThis.setTimeout is not a function".into(),
            })?;
        let delay = JsValue::from(ms.min(MAX_DELAY_MS));
        let mut id: Result<JsValue, JsValue> = Ok(JsValue::UNDEFINED);
        // The executor runs synchronously; `resolve` itself is the timer callback, so no Rust
        // closure has to stay alive until the timer fires.
        let promise = Promise::new(&mut |resolve: Function, _reject| {
            id = set_timeout.call2(&js_sys::global(), &resolve, &delay);
        });
        let id = id.map_err(|e| TransportError::Unsupported {
            message: format!("setTimeout threw: {}", super::js::describe_line(&e)),
        })?;
        Ok(Timeout {
            id,
            fired: JsFuture::from(promise),
            done: false,
        })
    }
}

impl Future for Timeout {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        match Pin::new(&mut self.fired).poll(cx) {
            Poll::Ready(_) => {
                self.done = true;
                Poll::Ready(())
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

impl Drop for Timeout {
    fn drop(&mut self) {
        if !self.done {
            if let Some(clear) = global_function("clearTimeout") {
                let _ = clear.call1(&js_sys::global(), &self.id);
            }
        }
    }
}

/// A callback scheduled with the global `setTimeout`, cleared when dropped (the driver's timer:
/// [`super::host::Host::timer`]).
pub struct Callback {
    id: JsValue,
    _callback: Closure<dyn FnMut()>,
}

impl Callback {
    /// Calls `f` after `delay_ms` (clamped to `2^31 - 1`). `None` if the scope has no
    /// `setTimeout` or it threw.
    pub fn start(delay_ms: u64, f: impl FnOnce() + 'static) -> Option<Callback> {
        let set = global_function("setTimeout")?;
        let mut f = Some(f);
        let callback = Closure::<dyn FnMut()>::new(move || {
            if let Some(f) = f.take() {
                f();
            }
        });
        let delay = JsValue::from(
            u32::try_from(delay_ms)
                .unwrap_or(MAX_DELAY_MS)
                .min(MAX_DELAY_MS),
        );
        let id = set
            .call2(&js_sys::global(), callback.as_ref().unchecked_ref(), &delay)
            .ok()?;
        Some(Callback {
            id,
            _callback: callback,
        })
    }
}

impl Drop for Callback {
    fn drop(&mut self) {
        if let Some(clear) = global_function("clearTimeout") {
            let _ = clear.call1(&js_sys::global(), &self.id);
        }
    }
}

/// Waits `ms` milliseconds on the global `setTimeout`.
///
/// In a scope without `setTimeout` (none of the supported hosts) it returns at once; use
/// [`Timeout::new`] to see that as an error.
pub async fn sleep(ms: u32) {
    if let Ok(timeout) = Timeout::new(ms) {
        timeout.await;
    }
}

/// Milliseconds on a monotonic clock: `globalThis.performance.now()` if present (High Resolution
/// Time § 6), else `Date.now()` (wall clock; only for scopes without `performance`). The epoch is
/// arbitrary: use differences, or pass the value to the core as its `now`.
pub fn now_ms() -> f64 {
    let performance = get(&js_sys::global(), "performance");
    if let Ok(now) = get(&performance, "now").dyn_into::<Function>() {
        if let Some(t) = now.call0(&performance).ok().and_then(|v| v.as_f64()) {
            return t;
        }
    }
    js_sys::Date::now()
}
