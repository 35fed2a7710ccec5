//! The native host's executor: runs the driver's tasks on the harness's one thread, without
//! tokio and without wakers (like the WASI executor: after every wait everything is polled
//! again).
//!
//! ```text
//!   block_on(f, bound) ─► passes: fire due timers, poll every task, poll f ─┐
//!        ▲                       (until a pass moves nothing)               │
//!        │                                                                   ▼
//!        ├── release the next waiting input to its reader (one at a time) ◄─┤
//!        └── wait on the inbox until the next timer or the bound ◄───────────┘
//! ```
//!
//! Inputs are handed to their readers one at a time, each only once everything the previous one
//! caused has run (the tasks it spawned, the input answers it asked for): a message is recorded
//! right before the events it causes and before the next message, whatever the read chunking
//! was. `f` is polled only once every piece of the last input was handed over, as the old driver
//! checked for completion only after a whole read.

use std::cell::RefCell;
use std::future::Future;
use std::pin::pin;
use std::rc::Rc;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use mcp_edge::runtime::timers::{Timers, WakeFlag};
use mcp_edge::runtime::LocalFuture;

/// Passes between two looks at the clock: a task that wakes itself forever cannot hold
/// [`Executor::block_on`] past its bound.
const PASSES_PER_CLOCK_CHECK: u32 = 256;

/// Where the inputs come from (the host's inbox).
pub trait Source {
    /// Whether inputs wait to be handed to their readers.
    fn has_pending(&self) -> bool;
    /// Hands the next waiting input to its reader; false when none waits.
    fn release(&self) -> bool;
    /// Waits at most `timeout` for more input.
    fn wait(&self, timeout: Duration);
}

struct State {
    tasks: RefCell<Vec<LocalFuture<()>>>,
    spawned: RefCell<Vec<LocalFuture<()>>>,
    timers: Timers<Instant>,
    flag: Arc<WakeFlag>,
}

/// The executor of one client (cheap to clone: a shared handle).
#[derive(Clone)]
pub struct Executor {
    state: Rc<State>,
}

impl Default for Executor {
    fn default() -> Self {
        Executor {
            state: Rc::new(State {
                tasks: RefCell::default(),
                spawned: RefCell::default(),
                timers: Timers::default(),
                flag: Arc::default(),
            }),
        }
    }
}

/// A timer armed by [`Executor::timer`]: dropping it before it fires forgets it.
pub type Timer = mcp_edge::runtime::timers::Timer<Instant>;

impl Executor {
    /// Runs `task` in the background (whenever [`Executor::block_on`] runs).
    pub fn spawn(&self, task: LocalFuture<()>) {
        self.state.spawned.borrow_mut().push(task);
    }

    /// Makes the executor poll everything again before it hands over the next input or waits.
    pub fn wake(&self) {
        self.state.flag.set();
    }

    /// Calls `fire` `delay` from now, unless the timer is dropped first.
    pub fn timer(&self, delay: Duration, fire: Box<dyn FnOnce()>) -> Timer {
        self.state.timers.arm(Instant::now() + delay, fire)
    }

    /// A future that resolves `delay` from now.
    pub fn sleep(&self, delay: Duration) -> impl Future<Output = ()> {
        let fired = Rc::new(std::cell::Cell::new(false));
        let f = fired.clone();
        let timer = self.timer(delay, Box::new(move || f.set(true)));
        std::future::poll_fn(move |_| {
            let _armed = &timer;
            if fired.get() {
                Poll::Ready(())
            } else {
                Poll::Pending
            }
        })
    }

    /// Drops every task and timer: they hold the driver, which holds the host, which holds
    /// this executor.
    pub fn clear(&self) {
        let tasks = std::mem::take(&mut *self.state.tasks.borrow_mut());
        let spawned = std::mem::take(&mut *self.state.spawned.borrow_mut());
        drop((tasks, spawned));
        self.state.timers.clear();
    }

    /// Runs `future` and the spawned tasks until `future` completes; `None` when `bound` passed
    /// first.
    pub fn block_on<T>(
        &self,
        future: impl Future<Output = T>,
        bound: Duration,
        source: &dyn Source,
    ) -> Option<T> {
        let give_up = Instant::now() + bound;
        let mut future = pin!(future);
        let waker = Waker::from(self.state.flag.clone());
        let mut cx = Context::from_waker(&waker);
        loop {
            // Passes until one moves nothing.
            let mut passes: u32 = 0;
            loop {
                let fired = self.state.timers.fire_due(Instant::now());
                let new: Vec<_> = self.state.spawned.borrow_mut().drain(..).collect();
                let had_new = !new.is_empty();
                self.state.tasks.borrow_mut().extend(new);
                let woken = self.state.flag.take();
                if passes > 0 && !fired && !had_new && !woken {
                    break;
                }
                passes = passes.wrapping_add(1);
                let mut tasks = std::mem::take(&mut *self.state.tasks.borrow_mut());
                let before = tasks.len();
                tasks.retain_mut(|t| t.as_mut().poll(&mut cx).is_pending());
                if tasks.len() != before {
                    // A finished task may have been what another one waited for.
                    self.wake();
                }
                self.state.tasks.borrow_mut().extend(tasks);
                if !source.has_pending() {
                    if let Poll::Ready(v) = future.as_mut().poll(&mut cx) {
                        return Some(v);
                    }
                }
                if passes.is_multiple_of(PASSES_PER_CLOCK_CHECK) && Instant::now() >= give_up {
                    return None;
                }
            }
            if source.release() {
                continue;
            }
            let now = Instant::now();
            if now >= give_up {
                return None;
            }
            let until = self.state.timers.next().map_or(give_up, |t| t.min(give_up));
            source.wait(until.saturating_duration_since(now));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    struct NoInput;

    impl Source for NoInput {
        fn has_pending(&self) -> bool {
            false
        }
        fn release(&self) -> bool {
            false
        }
        fn wait(&self, timeout: Duration) {
            std::thread::sleep(timeout);
        }
    }

    #[test]
    fn timers_fire_in_order_and_dropped_ones_never() {
        let ex = Executor::default();
        let log = Rc::new(RefCell::new(Vec::new()));
        let (a, b) = (log.clone(), log.clone());
        let _t2 = ex.timer(
            Duration::from_millis(20),
            Box::new(move || a.borrow_mut().push(2)),
        );
        let _t1 = ex.timer(
            Duration::from_millis(5),
            Box::new(move || b.borrow_mut().push(1)),
        );
        let c = log.clone();
        drop(ex.timer(
            Duration::from_millis(1),
            Box::new(move || c.borrow_mut().push(0)),
        ));
        let done = ex.block_on(
            ex.sleep(Duration::from_millis(40)),
            Duration::from_secs(5),
            &NoInput,
        );
        assert_eq!(done, Some(()));
        assert_eq!(*log.borrow(), vec![1, 2]);
    }

    #[test]
    fn spawned_tasks_run_and_the_bound_holds() {
        let ex = Executor::default();
        let ran = Rc::new(Cell::new(false));
        let r = ran.clone();
        ex.spawn(Box::pin(async move { r.set(true) }));
        let never = std::future::pending::<()>();
        let started = Instant::now();
        assert_eq!(
            ex.block_on(never, Duration::from_millis(50), &NoInput),
            None
        );
        assert!(ran.get());
        assert!(started.elapsed() >= Duration::from_millis(50));
    }
}
