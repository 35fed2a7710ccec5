//! The WASI host's executor: runs the driver's futures inside a synchronous export call.
//!
//! ```text
//!   block_on(f) ─► a pass: fire due timers, poll every task and f
//!        ▲              │ nothing moved
//!        │              ▼
//!        └── wait: one wasi:io/poll over the exchanges tasks wait on and the next timer
//! ```
//!
//! The component has one thread and no event loop of its own: work happens only while an export
//! runs. Tasks still pending when `block_on`'s future completes (a backoff timer, a stream that
//! outlives its call) stay queued and move during the next call. Futures need no wakers: after
//! every wait everything is polled again (a client has a task per exchange in flight, a pool a
//! handful more). A task that wants to be polled again without waiting (a reader that took
//! [`MAX_READY_READS`] chunks in a row) wakes itself; due timers fire before every pass, so a
//! server that writes faster than the client reads cannot hold them off.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::pin;
use std::rc::{Rc, Weak};
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

use super::wasi::WasiExchange;
use crate::bindings::wasi::clocks::monotonic_clock;
use crate::bindings::wasi::io::poll;
use crate::runtime::timers::{Timers, WakeFlag};
use crate::runtime::LocalFuture;

/// Most passes without a wait in between: a future that wakes itself forever would otherwise
/// hold the export call.
const MAX_PASSES_PER_WAIT: usize = 10_000;

/// Most chunks one exchange hands over in a row before its reader yields (see the module docs).
pub const MAX_READY_READS: usize = 64;

#[derive(Default)]
struct Reactor {
    /// Exchanges whose reader is waiting for bytes (registered again at every wait).
    waiting: RefCell<Vec<Weak<RefCell<WasiExchange>>>>,
    /// Timers on the monotonic clock, in nanoseconds.
    timers: Timers<u64>,
    tasks: RefCell<Vec<LocalFuture<()>>>,
    spawned: RefCell<Vec<LocalFuture<()>>>,
}

thread_local! {
    static REACTOR: Reactor = Reactor::default();
}

/// Runs `task` in the background: it moves whenever an export drives the executor.
pub fn spawn(task: LocalFuture<()>) {
    REACTOR.with(|r| r.spawned.borrow_mut().push(task));
}

/// Makes the next wait include `exchange`'s pollable (its reader found nothing ready).
pub fn wait_on(exchange: &Rc<RefCell<WasiExchange>>) {
    REACTOR.with(|r| r.waiting.borrow_mut().push(Rc::downgrade(exchange)));
}

/// A timer armed by [`timer`]: dropping it before it fires forgets it.
pub type Timer = crate::runtime::timers::Timer<u64>;

/// Calls `fire` `ms` milliseconds from now (while an export drives the executor).
pub fn timer(ms: u64, fire: Box<dyn FnOnce()>) -> Timer {
    let at_ns = monotonic_clock::now().saturating_add(ms.saturating_mul(1_000_000));
    REACTOR.with(|r| r.timers.arm(at_ns, fire))
}

/// A future that resolves `ms` milliseconds from now; dropping it forgets its timer.
pub fn sleep(ms: u64) -> LocalFuture<()> {
    let fired = Rc::new(Cell::new(false));
    let f = fired.clone();
    let timer = timer(ms, Box::new(move || f.set(true)));
    Box::pin(Sleep {
        fired,
        _timer: timer,
    })
}

struct Sleep {
    fired: Rc<Cell<bool>>,
    _timer: Timer,
}

impl Future for Sleep {
    type Output = ();
    fn poll(self: std::pin::Pin<&mut Self>, _: &mut Context<'_>) -> Poll<()> {
        if self.fired.get() {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    }
}

/// Fires every timer that is due; returns whether one fired.
fn fire_due_timers() -> bool {
    let now = monotonic_clock::now();
    // Nothing is borrowed while a timer's function runs: it may arm or drop timers.
    REACTOR.with(|r| r.timers.fire_due(now))
}

/// Runs `future` and the spawned tasks until `future` completes. `None` when nothing can move
/// any more (no exchange in flight, no timer) and it still has not.
pub fn block_on<T>(future: impl Future<Output = T>) -> Option<T> {
    let mut future = pin!(future);
    let flag = Arc::new(WakeFlag::default());
    flag.set();
    let waker = Waker::from(flag.clone());
    let mut cx = Context::from_waker(&waker);
    loop {
        for _ in 0..MAX_PASSES_PER_WAIT {
            let fired = fire_due_timers();
            let new: Vec<_> = REACTOR.with(|r| r.spawned.borrow_mut().drain(..).collect());
            let had_new = !new.is_empty();
            REACTOR.with(|r| r.tasks.borrow_mut().extend(new));
            if !flag.take() && !had_new && !fired {
                break;
            }
            let mut tasks = REACTOR.with(|r| std::mem::take(&mut *r.tasks.borrow_mut()));
            tasks.retain_mut(|t| t.as_mut().poll(&mut cx).is_pending());
            REACTOR.with(|r| r.tasks.borrow_mut().extend(tasks));
            if let Poll::Ready(v) = future.as_mut().poll(&mut cx) {
                return Some(v);
            }
        }
        if !wait() {
            return None;
        }
        flag.set();
    }
}

/// One wait over the exchanges readers wait on and the earliest timer. `false` when there is
/// nothing to wait for.
fn wait() -> bool {
    let (exchanges, wake_at) = REACTOR.with(|r| {
        let mut exchanges: Vec<Rc<RefCell<WasiExchange>>> = Vec::new();
        for w in r.waiting.borrow_mut().drain(..) {
            if let Some(e) = w.upgrade() {
                if !exchanges.iter().any(|x| Rc::ptr_eq(x, &e)) {
                    exchanges.push(e);
                }
            }
        }
        let wake_at = r.timers.next();
        (exchanges, wake_at)
    });
    let borrows: Vec<_> = exchanges.iter().map(|e| e.borrow()).collect();
    let mut list: Vec<&poll::Pollable> = borrows.iter().filter_map(|e| e.pollable()).collect();
    if list.is_empty() && wake_at.is_none() {
        return false;
    }
    let timer = wake_at.map(monotonic_clock::subscribe_instant);
    if let Some(t) = &timer {
        list.push(t);
    }
    poll::poll(&list);
    true
}
