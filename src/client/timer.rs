//! The driver's one timer: a global `setTimeout` (works in Window, Worker, workerd and Node
//! scopes) that is cleared when replaced or dropped, so no timer outlives the work it guards.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

fn global_fn(name: &str) -> Option<js_sys::Function> {
    js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str(name))
        .ok()?
        .dyn_into()
        .ok()
}

/// A scheduled callback.
pub struct Timer {
    at: u64,
    id: JsValue,
    _callback: Closure<dyn FnMut()>,
}

impl Timer {
    /// Calls `f` after `delay_ms`; `at` is the session time it stands for. `None` if the scope has
    /// no `setTimeout`.
    pub fn start(at: u64, delay_ms: u64, f: impl FnOnce() + 'static) -> Option<Timer> {
        let set = global_fn("setTimeout")?;
        let mut f = Some(f);
        let callback = Closure::<dyn FnMut()>::new(move || {
            if let Some(f) = f.take() {
                f();
            }
        });
        let delay = JsValue::from_f64(delay_ms.min(i32::MAX as u64) as f64);
        let id = set
            .call2(&js_sys::global(), callback.as_ref().unchecked_ref(), &delay)
            .ok()?;
        Some(Timer {
            at,
            id,
            _callback: callback,
        })
    }

    /// Keeps `slot` armed for the deadline `due` (a time on the same clock as `now`): clears it
    /// when nothing is due, so no timer outlives the work (Workers, Node exit); keeps it when an
    /// earlier or equal deadline is already armed (that one re-arms when it fires); replaces it
    /// otherwise. `fire` runs when it expires.
    pub fn rearm(
        slot: &mut Option<Timer>,
        due: Option<u64>,
        now: u64,
        fire: impl FnOnce() + 'static,
    ) {
        match due {
            None => *slot = None,
            Some(at) if slot.as_ref().is_some_and(|t| t.at() <= at) => {}
            Some(at) => *slot = Timer::start(at, at.saturating_sub(now), fire),
        }
    }

    /// Drops a timer that just fired, after its callback (which it owns) has returned.
    pub fn drop_later(fired: Option<Timer>) {
        wasm_bindgen_futures::spawn_local(async move { drop(fired) });
    }

    /// The session time this timer stands for.
    pub fn at(&self) -> u64 {
        self.at
    }
}

impl Drop for Timer {
    fn drop(&mut self) {
        if let Some(clear) = global_fn("clearTimeout") {
            let _ = clear.call1(&js_sys::global(), &self.id);
        }
    }
}
