//! [`CancelToken`]: an abort handle for requests, the Rust counterpart of an `AbortSignal`.

use std::cell::RefCell;
use std::rc::Rc;

type Callback = Box<dyn FnOnce()>;

#[derive(Default)]
struct TokenState {
    cancelled: bool,
    next_id: u64,
    callbacks: Vec<(u64, Callback)>,
}

/// Cancels the requests it was given to. Cheap to clone; every clone cancels the same requests.
///
/// A request that sees the token cancelled fails with [`crate::Error::Cancelled`] (code
/// `ABORTED`) and the server is told (2025 era: `notifications/cancelled`; 2026-07-28: the
/// request's stream is closed). Dropping a request's future cancels it the same way.
#[derive(Clone, Default)]
pub struct CancelToken {
    state: Rc<RefCell<TokenState>>,
}

impl std::fmt::Debug for CancelToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CancelToken")
            .field("cancelled", &self.is_cancelled())
            .finish()
    }
}

impl CancelToken {
    /// A token that is not cancelled.
    pub fn new() -> Self {
        Self::default()
    }

    /// Cancels every request using this token, now and later.
    pub fn cancel(&self) {
        let callbacks = {
            let mut st = self.state.borrow_mut();
            st.cancelled = true;
            std::mem::take(&mut st.callbacks)
        };
        for (_, f) in callbacks {
            f();
        }
    }

    /// Whether [`CancelToken::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.state.borrow().cancelled
    }

    /// Runs `f` once when the token is cancelled (at once if it already is), until the returned
    /// guard is dropped.
    pub(crate) fn on_cancel(&self, f: impl FnOnce() + 'static) -> Registration {
        let mut st = self.state.borrow_mut();
        if st.cancelled {
            drop(st);
            f();
            return Registration { token: None };
        }
        let id = st.next_id;
        st.next_id += 1;
        st.callbacks.push((id, Box::new(f)));
        Registration {
            token: Some((self.clone(), id)),
        }
    }
}

/// Keeps a [`CancelToken`] callback registered; dropping it removes the callback.
pub(crate) struct Registration {
    token: Option<(CancelToken, u64)>,
}

impl Drop for Registration {
    fn drop(&mut self) {
        if let Some((token, id)) = self.token.take() {
            token.state.borrow_mut().callbacks.retain(|(i, _)| *i != id);
        }
    }
}
