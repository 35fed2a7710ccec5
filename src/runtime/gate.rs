//! A shared bound on concurrent outbound HTTP exchanges, for every client of one pool.
//!
//! Workers allow 6 simultaneous open subrequests per invocation; further `fetch` calls wait, and a
//! runtime that must make room cancels the least recently active open stream (Cloudflare Workers
//! platform limits, "Simultaneous open connections"). Counting connect attempts is not enough: a
//! connected client's calls, its 2025-era `notifications/initialized`, its DELETE on close and
//! any long-lived stream are subrequests too. So the pool in edge mode hands one
//! [`OutboundGate`] to each of its clients, and a client's exchange task holds a [`Permit`] from
//! before its `fetch` starts until its response body has ended, failed or been cancelled.
//!
//! Pure `std` (no JS, no clock): waiting is a `Future`, granted in FIFO order; a waiter whose
//! request was cancelled meanwhile gives up its place ([`OutboundGate::wake_all`] makes waiters
//! look again).

use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

/// The outbound bound of an edge isolate (Workers: 6 simultaneous open connections).
pub const EDGE_MAX_OUTBOUND: usize = 6;

#[derive(Debug)]
struct GateState {
    limit: usize,
    in_use: usize,
    high_water: usize,
    next_ticket: u64,
    /// Waiting tickets in arrival order, each with the waker of its last poll.
    queue: VecDeque<(u64, Option<Waker>)>,
}

impl GateState {
    fn wake_front(&mut self) {
        if self.in_use < self.limit {
            if let Some((_, Some(w))) = self.queue.front() {
                w.wake_by_ref();
            }
        }
    }
}

/// A counting semaphore shared by the clients of one pool. Cheap to clone (shared handle).
#[derive(Debug, Clone)]
pub struct OutboundGate {
    state: Rc<RefCell<GateState>>,
}

impl OutboundGate {
    /// A gate letting at most `limit` exchanges through at once (at least 1).
    pub fn new(limit: usize) -> Self {
        OutboundGate {
            state: Rc::new(RefCell::new(GateState {
                limit: limit.max(1),
                in_use: 0,
                high_water: 0,
                next_ticket: 0,
                queue: VecDeque::new(),
            })),
        }
    }

    /// Waits for a permit. `cancelled` is checked on every poll: once it returns `true` the
    /// future resolves to `None` and leaves the queue (call [`OutboundGate::wake_all`] after
    /// cancelling so a waiting future polls again).
    pub fn acquire<F: Fn() -> bool>(&self, cancelled: F) -> Acquire<F> {
        Acquire {
            gate: self.clone(),
            ticket: None,
            cancelled,
        }
    }

    /// Wakes every waiter (after a cancellation, so the cancelled one leaves the queue).
    pub fn wake_all(&self) {
        let wakers: Vec<Waker> = self
            .state
            .borrow()
            .queue
            .iter()
            .filter_map(|(_, w)| w.clone())
            .collect();
        for w in wakers {
            w.wake();
        }
    }

    /// Permits held now.
    pub fn in_use(&self) -> usize {
        self.state.borrow().in_use
    }

    /// The most permits ever held at once.
    pub fn high_water(&self) -> usize {
        self.state.borrow().high_water
    }

    /// Futures waiting for a permit.
    pub fn waiting(&self) -> usize {
        self.state.borrow().queue.len()
    }

    /// The bound.
    pub fn limit(&self) -> usize {
        self.state.borrow().limit
    }
}

/// Future of [`OutboundGate::acquire`]: a [`Permit`], or `None` when cancelled first.
#[derive(Debug)]
pub struct Acquire<F: Fn() -> bool> {
    gate: OutboundGate,
    ticket: Option<u64>,
    cancelled: F,
}

impl<F: Fn() -> bool> Acquire<F> {
    fn leave_queue(&mut self) {
        if let Some(t) = self.ticket.take() {
            let mut st = self.gate.state.borrow_mut();
            st.queue.retain(|(x, _)| *x != t);
            st.wake_front();
        }
    }
}

impl<F: Fn() -> bool + Unpin> Future for Acquire<F> {
    type Output = Option<Permit>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Permit>> {
        if (self.cancelled)() {
            self.leave_queue();
            return Poll::Ready(None);
        }
        let gate = self.gate.clone();
        let mut st = gate.state.borrow_mut();
        let ticket = match self.ticket {
            Some(t) => t,
            None => {
                let t = st.next_ticket;
                st.next_ticket += 1;
                st.queue.push_back((t, None));
                self.ticket = Some(t);
                t
            }
        };
        let first = st.queue.front().map(|(t, _)| *t) == Some(ticket);
        if first && st.in_use < st.limit {
            st.queue.pop_front();
            st.in_use += 1;
            st.high_water = st.high_water.max(st.in_use);
            self.ticket = None;
            // The next in line may fit too.
            st.wake_front();
            return Poll::Ready(Some(Permit { gate: gate.clone() }));
        }
        if let Some(entry) = st.queue.iter_mut().find(|(t, _)| *t == ticket) {
            entry.1 = Some(cx.waker().clone());
        }
        Poll::Pending
    }
}

impl<F: Fn() -> bool> Drop for Acquire<F> {
    fn drop(&mut self) {
        self.leave_queue();
    }
}

/// One exchange's place under the bound; released when dropped.
#[derive(Debug)]
pub struct Permit {
    gate: OutboundGate,
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut st = self.gate.state.borrow_mut();
        st.in_use = st.in_use.saturating_sub(1);
        st.wake_front();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::task::Wake;

    struct CountingWaker(AtomicUsize);
    impl Wake for CountingWaker {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn poll<F: Fn() -> bool + Unpin>(
        f: &mut Acquire<F>,
        waker: &Arc<CountingWaker>,
    ) -> Poll<Option<Permit>> {
        let w = Waker::from(waker.clone());
        Pin::new(f).poll(&mut Context::from_waker(&w))
    }

    #[test]
    fn never_more_than_the_limit_and_fifo() {
        let gate = OutboundGate::new(2);
        let wk = Arc::new(CountingWaker(AtomicUsize::new(0)));
        let mut a = gate.acquire(|| false);
        let mut b = gate.acquire(|| false);
        let mut c = gate.acquire(|| false);
        let mut d = gate.acquire(|| false);
        let pa = poll(&mut a, &wk);
        let pb = poll(&mut b, &wk);
        assert!(matches!(pa, Poll::Ready(Some(_))));
        assert!(matches!(pb, Poll::Ready(Some(_))));
        assert!(poll(&mut c, &wk).is_pending());
        assert!(poll(&mut d, &wk).is_pending());
        assert_eq!((gate.in_use(), gate.waiting()), (2, 2));
        // d is not first in line: it waits even if polled after a release.
        drop(pa);
        assert_eq!(wk.0.load(Ordering::SeqCst), 1, "the front waiter is woken");
        assert!(poll(&mut d, &wk).is_pending());
        let pc = poll(&mut c, &wk);
        assert!(matches!(pc, Poll::Ready(Some(_))));
        assert!(poll(&mut d, &wk).is_pending());
        drop(pb);
        assert!(matches!(poll(&mut d, &wk), Poll::Ready(Some(_))));
        assert_eq!(gate.high_water(), 2);
        assert_eq!(gate.waiting(), 0);
    }

    #[test]
    fn a_cancelled_waiter_leaves_the_queue_and_lets_the_next_one_in() {
        let gate = OutboundGate::new(1);
        let wk = Arc::new(CountingWaker(AtomicUsize::new(0)));
        let held = {
            let mut a = gate.acquire(|| false);
            match poll(&mut a, &wk) {
                Poll::Ready(Some(p)) => p,
                _ => panic!("first acquire must succeed"),
            }
        };
        let cancel = Rc::new(Cell::new(false));
        let c2 = cancel.clone();
        let mut b = gate.acquire(move || c2.get());
        let mut c = gate.acquire(|| false);
        assert!(poll(&mut b, &wk).is_pending());
        assert!(poll(&mut c, &wk).is_pending());
        cancel.set(true);
        gate.wake_all();
        assert!(matches!(poll(&mut b, &wk), Poll::Ready(None)));
        assert_eq!(gate.waiting(), 1);
        drop(held);
        let pc = poll(&mut c, &wk);
        assert!(matches!(pc, Poll::Ready(Some(_))));
        assert_eq!(gate.in_use(), 1);
        drop(pc);
        assert_eq!(gate.in_use(), 0);
    }

    #[test]
    fn dropping_a_waiting_future_frees_its_place() {
        let gate = OutboundGate::new(1);
        let wk = Arc::new(CountingWaker(AtomicUsize::new(0)));
        let mut a = gate.acquire(|| false);
        let pa = poll(&mut a, &wk);
        let mut b = gate.acquire(|| false);
        assert!(poll(&mut b, &wk).is_pending());
        drop(b);
        assert_eq!(gate.waiting(), 0);
        drop(pa);
        assert_eq!(gate.in_use(), 0);
        let mut c = gate.acquire(|| false);
        assert!(matches!(poll(&mut c, &wk), Poll::Ready(Some(_))));
    }

    #[test]
    fn a_zero_limit_is_raised_to_one() {
        assert_eq!(OutboundGate::new(0).limit(), 1);
    }
}
