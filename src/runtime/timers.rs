//! What the no-waker executors share (the WASI host's and the native test harness's): a flag every
//! waker sets, and the timers they fire before each pass. Generic over the instant type each host
//! reads from its clock (monotonic nanoseconds, `std::time::Instant`).

use std::cell::RefCell;
use std::rc::{Rc, Weak};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::Wake;

/// Set by every waker and by whatever moved outside a task's poll: another pass is due.
#[derive(Debug, Default)]
pub struct WakeFlag(AtomicBool);

impl WakeFlag {
    /// Asks for another pass.
    pub fn set(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether a pass was asked for since the last call; clears the flag.
    pub fn take(&self) -> bool {
        self.0.swap(false, Ordering::SeqCst)
    }
}

impl Wake for WakeFlag {
    fn wake(self: Arc<Self>) {
        self.set();
    }
}

struct Slot<I> {
    at: I,
    fire: RefCell<Option<Box<dyn FnOnce()>>>,
}

type Slots<I> = RefCell<Vec<Rc<Slot<I>>>>;

/// Timers that call a function at an instant, fired by [`Timers::fire_due`].
pub struct Timers<I> {
    slots: Rc<Slots<I>>,
}

impl<I> Default for Timers<I> {
    fn default() -> Self {
        Timers {
            slots: Rc::default(),
        }
    }
}

/// An armed timer: dropping it before it fires forgets it.
pub struct Timer<I> {
    slot: Rc<Slot<I>>,
    slots: Weak<Slots<I>>,
}

impl<I> Drop for Timer<I> {
    fn drop(&mut self) {
        // Dropped while its timers fire (or after they are gone): the slot is out already.
        if let Some(slots) = self.slots.upgrade() {
            if let Ok(mut slots) = slots.try_borrow_mut() {
                slots.retain(|s| !Rc::ptr_eq(s, &self.slot));
            }
        }
    }
}

impl<I: Ord + Copy> Timers<I> {
    /// Calls `fire` at `at` (when [`Timers::fire_due`] is given an instant at or past it).
    pub fn arm(&self, at: I, fire: Box<dyn FnOnce()>) -> Timer<I> {
        let slot = Rc::new(Slot {
            at,
            fire: RefCell::new(Some(fire)),
        });
        self.slots.borrow_mut().push(slot.clone());
        Timer {
            slot,
            slots: Rc::downgrade(&self.slots),
        }
    }

    /// Fires every timer due at `now`; whether one fired. The executors call this before every
    /// pass, so a pass with nothing due allocates nothing.
    pub fn fire_due(&self, now: I) -> bool {
        let due: Vec<Rc<Slot<I>>> = {
            let mut slots = self.slots.borrow_mut();
            if !slots.iter().any(|s| s.at <= now) {
                return false;
            }
            let mut due = Vec::new();
            slots.retain(|s| {
                let is_due = s.at <= now;
                if is_due {
                    due.push(s.clone());
                }
                !is_due
            });
            due
        };
        let fired = !due.is_empty();
        for slot in due {
            let fire = slot.fire.borrow_mut().take();
            if let Some(f) = fire {
                f();
            }
        }
        fired
    }

    /// The earliest armed instant.
    pub fn next(&self) -> Option<I> {
        self.slots.borrow().iter().map(|s| s.at).min()
    }

    /// Forgets every timer (their functions are dropped unrun).
    pub fn clear(&self) {
        let slots = std::mem::take(&mut *self.slots.borrow_mut());
        drop(slots);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn fires_what_is_due_in_any_order_and_forgets_dropped_timers() {
        let timers = Timers::default();
        let seen = Rc::new(RefCell::new(Vec::new()));
        let at = |n: u64| {
            let seen = seen.clone();
            Box::new(move || seen.borrow_mut().push(n)) as Box<dyn FnOnce()>
        };
        let _a = timers.arm(30, at(30));
        let _b = timers.arm(10, at(10));
        let dropped = timers.arm(20, at(20));
        drop(dropped);
        assert_eq!(timers.next(), Some(10));
        assert!(!timers.fire_due(5));
        assert!(timers.fire_due(25));
        assert_eq!(*seen.borrow(), [10]);
        assert!(timers.fire_due(30));
        assert_eq!(*seen.borrow(), [10, 30]);
        assert_eq!(timers.next(), None);
    }

    #[test]
    fn a_timer_dropped_by_its_own_function_is_fine() {
        let timers = Rc::new(Timers::default());
        let hold: Rc<RefCell<Option<Timer<u64>>>> = Rc::default();
        let ran = Rc::new(Cell::new(false));
        let (h, r) = (hold.clone(), ran.clone());
        *hold.borrow_mut() = Some(timers.arm(
            1,
            Box::new(move || {
                r.set(true);
                h.borrow_mut().take();
            }),
        ));
        assert!(timers.fire_due(1));
        assert!(ran.get());
        let flag = Arc::new(WakeFlag::default());
        std::task::Waker::from(flag.clone()).wake_by_ref();
        assert!(flag.take());
        assert!(!flag.take());
    }
}
