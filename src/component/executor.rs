//! The component's executor: runs the pool driver's futures inside a synchronous export call.
//!
//! ```text
//!   block_on(f) ─► poll f and every spawned task while one of them moved
//!        ▲              │ nothing moves
//!        │              ▼
//!        └── wait_all(every registered driver's exchanges, its session timers, the next sleep)
//!                       (one wasi:io/poll; sleeps on wasi:clocks/monotonic-clock)
//! ```
//!
//! The component has one thread and no event loop of its own: work happens only while an export
//! runs. Tasks still pending when `block_on`'s future completes (a backoff timer, a connect that
//! outlived its deadline) stay queued and move during the next call. Futures need no wakers: after
//! every wait everything is polled again (a pool has a handful of tasks).

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::pin;
use std::rc::{Rc, Weak};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

use super::driver::{wait_all, Driver, Outcome, StartFn};
use crate::bindings::wasi::clocks::monotonic_clock;
use crate::proto::session::OpId;
use crate::runtime::LocalFuture;

/// Most polling passes without a wait in between: a future that wakes itself forever would
/// otherwise hold the export call.
const MAX_PASSES_PER_WAIT: usize = 10_000;

struct Flag(AtomicBool);

impl Wake for Flag {
    fn wake(self: Arc<Self>) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// One sleep: its instant on the monotonic clock, whether it passed.
struct SleepSlot {
    at_ns: u64,
    fired: Cell<bool>,
}

#[derive(Default)]
struct Reactor {
    drivers: RefCell<Vec<Weak<RefCell<Driver>>>>,
    sleeps: RefCell<Vec<Rc<SleepSlot>>>,
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

/// A future that resolves `ms` milliseconds from now; dropping it forgets its timer.
pub fn sleep(ms: u64) -> LocalFuture<()> {
    let slot = Rc::new(SleepSlot {
        at_ns: monotonic_clock::now().saturating_add(ms.saturating_mul(1_000_000)),
        fired: Cell::new(false),
    });
    REACTOR.with(|r| r.sleeps.borrow_mut().push(slot.clone()));
    Box::pin(Sleep { slot })
}

struct Sleep {
    slot: Rc<SleepSlot>,
}

impl Future for Sleep {
    type Output = ();
    fn poll(self: std::pin::Pin<&mut Self>, _: &mut Context<'_>) -> Poll<()> {
        if self.slot.fired.get() {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    }
}

impl Drop for Sleep {
    fn drop(&mut self) {
        let _ = REACTOR.try_with(|r| r.sleeps.borrow_mut().retain(|s| !Rc::ptr_eq(s, &self.slot)));
    }
}

/// A driver whose exchanges and timers the executor waits on (until it is dropped).
pub fn register(driver: &Rc<RefCell<Driver>>) {
    REACTOR.with(|r| r.drivers.borrow_mut().push(Rc::downgrade(driver)));
}

/// The outcome of one operation of a registered driver.
pub struct OpFuture {
    driver: Rc<RefCell<Driver>>,
    op: OpId,
}

impl OpFuture {
    /// Starts `start` on `driver` and waits for it.
    pub fn start(driver: &Rc<RefCell<Driver>>, start: StartFn) -> Self {
        let op = driver.borrow_mut().start(start);
        OpFuture {
            driver: driver.clone(),
            op,
        }
    }
}

impl Future for OpFuture {
    type Output = Outcome;
    fn poll(self: std::pin::Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Outcome> {
        match self.driver.borrow_mut().take_outcome(self.op) {
            Some(outcome) => Poll::Ready(outcome),
            None => Poll::Pending,
        }
    }
}

impl Drop for OpFuture {
    fn drop(&mut self) {
        if let Ok(mut d) = self.driver.try_borrow_mut() {
            d.forget(self.op);
        }
    }
}

/// Runs `future` and the spawned tasks until `future` completes. `None` when nothing can move
/// any more (no exchange in flight, no timer, no sleep) and it still has not.
pub fn block_on<T>(future: impl Future<Output = T>) -> Option<T> {
    let mut future = pin!(future);
    let flag = Arc::new(Flag(AtomicBool::new(true)));
    let waker = Waker::from(flag.clone());
    let mut cx = Context::from_waker(&waker);
    loop {
        for _ in 0..MAX_PASSES_PER_WAIT {
            let new: Vec<_> = REACTOR.with(|r| r.spawned.borrow_mut().drain(..).collect());
            let had_new = !new.is_empty();
            REACTOR.with(|r| r.tasks.borrow_mut().extend(new));
            if !flag.0.swap(false, Ordering::SeqCst) && !had_new {
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
        flag.0.store(true, Ordering::SeqCst);
    }
}

/// One wait over every live driver and the earliest sleep; marks the sleeps that passed.
fn wait() -> bool {
    let (drivers, wake_at) = REACTOR.with(|r| {
        let mut drivers = Vec::new();
        r.drivers.borrow_mut().retain(|w| match w.upgrade() {
            Some(d) => {
                drivers.push(d);
                true
            }
            None => false,
        });
        let wake_at = r
            .sleeps
            .borrow()
            .iter()
            .filter(|s| !s.fired.get())
            .map(|s| s.at_ns)
            .min();
        (drivers, wake_at)
    });
    let moved = {
        let mut borrows: Vec<_> = drivers.iter().map(|d| d.borrow_mut()).collect();
        let mut refs: Vec<&mut Driver> = borrows.iter_mut().map(|b| &mut **b).collect();
        wait_all(&mut refs, wake_at)
    };
    let now = monotonic_clock::now();
    REACTOR.with(|r| {
        for s in r.sleeps.borrow().iter() {
            if s.at_ns <= now {
                s.fired.set(true);
            }
        }
    });
    moved
}
