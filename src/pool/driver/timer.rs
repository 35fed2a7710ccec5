//! The driver's one timer, built from the host's `sleep` and `spawn`: a background task that
//! sleeps until the pool core's next deadline and stops (dropping the sleep, which clears the
//! host timer) as soon as its slot is cleared or re-armed for an earlier deadline.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use super::host::LocalFuture;

/// Shared between an armed slot and its task.
#[derive(Default)]
struct Stop {
    stopped: Cell<bool>,
    waker: RefCell<Option<Waker>>,
}

impl Stop {
    fn stop(&self) {
        self.stopped.set(true);
        if let Some(w) = self.waker.borrow_mut().take() {
            w.wake();
        }
    }
}

/// An armed timer. Dropping it stops its task.
pub(super) struct Armed {
    at: u64,
    stop: Rc<Stop>,
}

impl Drop for Armed {
    fn drop(&mut self) {
        self.stop.stop();
    }
}

/// What [`rearm`] wants started: a task that resolves to `true` when the deadline passed and
/// `false` when the timer was stopped first.
pub(super) type TimerTask = Pin<Box<Sleeping>>;

/// The future of an armed timer's task.
pub(super) struct Sleeping {
    sleep: LocalFuture<()>,
    stop: Rc<Stop>,
}

impl Future for Sleeping {
    type Output = bool;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<bool> {
        if self.stop.stopped.get() {
            return Poll::Ready(false);
        }
        *self.stop.waker.borrow_mut() = Some(cx.waker().clone());
        self.sleep.as_mut().poll(cx).map(|()| true)
    }
}

/// Keeps `slot` armed for `due` (a time on the clock of `now`): clears it when nothing is due;
/// keeps it when an earlier or equal deadline is armed (that one re-arms when it fires);
/// otherwise replaces it and returns the task to spawn. `sleep(ms)` makes the host's sleep.
pub(super) fn rearm(
    slot: &mut Option<Armed>,
    due: Option<u64>,
    now: u64,
    sleep: impl FnOnce(u64) -> LocalFuture<()>,
) -> Option<TimerTask> {
    match due {
        None => {
            *slot = None;
            None
        }
        Some(at) if slot.as_ref().is_some_and(|t| t.at <= at) => None,
        Some(at) => {
            let stop = Rc::new(Stop::default());
            *slot = Some(Armed {
                at,
                stop: stop.clone(),
            });
            Some(Box::pin(Sleeping {
                sleep: sleep(at.saturating_sub(now)),
                stop,
            }))
        }
    }
}

/// Whether `slot` holds the timer whose task is `task` (a fired task clears only its own slot).
pub(super) fn is_current(slot: &Option<Armed>, task: &Sleeping) -> bool {
    slot.as_ref()
        .is_some_and(|a| Rc::ptr_eq(&a.stop, &task.stop))
}
