//! The notification queue of one client: what the session reports that no operation waits for
//! (list changes, logging, progress, diagnostics, `Closed`), kept for the host's reader.
//!
//! Bounded in items and in bytes: at most [`MAX_QUEUED_NOTIFICATIONS`] items of at most
//! [`MAX_QUEUED_BYTES`] together (each item's size estimated from its JSON); beyond either the
//! oldest go first and the reader is told how many it lost ([`Notice::Gap`]) before the next
//! item. While a reader is open, streams that carry only notifications pause at [`PAUSE_AT`]
//! items or [`PAUSE_AT_BYTES`] instead of losing any, and read on once the reader brought the
//! queue down to [`RESUME_AT`] items and [`RESUME_AT_BYTES`]. The same policy serves every host:
//! the JS and Rust clients, the pool's members and the WASI component.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use crate::proto::session::Event;
use crate::transport::AbortSwitch;

/// Most notifications kept for a reader that does not drain them.
pub const MAX_QUEUED_NOTIFICATIONS: usize = 1024;
/// While a reader is open, streams that carry only notifications stop being read once this many
/// are queued (backpressure: nothing is lost from them)...
pub const PAUSE_AT: usize = 768;
/// ...and are read on once the reader brought the queue down to this.
pub const RESUME_AT: usize = 384;
/// Most bytes (estimated JSON size) the queue holds: one event of the session's default
/// `max_event_bytes` (8 MiB) fits, a thousand of them do not.
pub const MAX_QUEUED_BYTES: usize = 16 << 20;
/// The byte level at which pausable streams pause...
pub const PAUSE_AT_BYTES: usize = 8 << 20;
/// ...and the level down to which the reader must bring the queue for them to read on.
pub const RESUME_AT_BYTES: usize = 4 << 20;

/// The estimated size of `v` as JSON text (string escapes and number digits not counted).
fn value_bytes(v: &serde_json::Value) -> usize {
    use serde_json::Value;
    match v {
        Value::Null | Value::Bool(_) => 5,
        Value::Number(_) => 8,
        Value::String(s) => s.len() + 2,
        Value::Array(a) => 2 + a.iter().map(|x| value_bytes(x) + 1).sum::<usize>(),
        Value::Object(m) => {
            2 + m
                .iter()
                .map(|(k, x)| k.len() + 4 + value_bytes(x))
                .sum::<usize>()
        }
    }
}

/// The estimated size of `e` in the queue.
fn event_bytes(e: &Event) -> usize {
    const BASE: usize = 64;
    BASE + match e {
        Event::Notification { method, params } => method.len() + value_bytes(params),
        Event::Progress { message, .. } => message.as_ref().map_or(0, String::len),
        Event::Diagnostic { message } => message.len(),
        Event::ToolRejected { name, reason } => name.len() + reason.len(),
        _ => 0,
    }
}

/// One item a [`NotificationReader`] yields.
// Yielded one at a time and moved out at once (the queue holds `Event`s, not `Notice`s), so the
// size of the `Event` variant is never paid for a `Gap` in bulk.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Notice {
    /// A session event (notification, progress, diagnostic, tool rejected, closed...).
    Event(Event),
    /// `dropped` items were lost at this point: the queue was full.
    Gap {
        /// How many.
        dropped: u64,
    },
}

#[derive(Default)]
pub(crate) struct Queue {
    /// Each item with its estimated size.
    items: VecDeque<(Event, usize)>,
    /// The sum of the items' sizes.
    bytes: usize,
    dropped: u64,
    /// Dropped since the reader was last told (reported before the next queued item).
    gap: u64,
    readers: Vec<Waker>,
    /// Open [`NotificationReader`]s.
    consumers: usize,
    /// Exchange tasks waiting for room in the queue.
    paused: Vec<Waker>,
    closed: bool,
}

/// The queue, shared by the driver and its readers.
#[derive(Clone, Default)]
pub(crate) struct SharedQueue(Rc<RefCell<Queue>>);

impl SharedQueue {
    /// Queues `event`; the oldest item goes when the queue is full. `Event::Closed` closes it.
    pub(crate) fn push(&self, event: Event) {
        let closed = matches!(event, Event::Closed);
        let size = event_bytes(&event);
        let wakers = {
            let mut q = self.0.borrow_mut();
            q.closed |= closed;
            while !q.items.is_empty()
                && (q.items.len() >= MAX_QUEUED_NOTIFICATIONS
                    || q.bytes.saturating_add(size) > MAX_QUEUED_BYTES)
            {
                if let Some((_, gone)) = q.items.pop_front() {
                    q.bytes -= gone;
                }
                q.dropped += 1;
                q.gap += 1;
            }
            q.bytes += size;
            q.items.push_back((event, size));
            std::mem::take(&mut q.readers)
        };
        for w in wakers {
            w.wake();
        }
        if closed {
            self.wake_paused();
        }
    }

    /// Wakes the exchange tasks waiting for room.
    pub(crate) fn wake_paused(&self) {
        let paused = std::mem::take(&mut self.0.borrow_mut().paused);
        for w in paused {
            w.wake();
        }
    }

    /// How many items were dropped in all.
    pub(crate) fn dropped(&self) -> u64 {
        self.0.borrow().dropped
    }

    /// A new reader.
    pub(crate) fn reader(&self) -> NotificationReader {
        self.0.borrow_mut().consumers += 1;
        NotificationReader {
            queue: self.clone(),
        }
    }

    /// Resolves when a pausable stream may be read on: no reader is open, the queue has room,
    /// `abort` fired or the queue closed.
    pub(crate) fn room<'a, A: AbortSwitch>(&'a self, abort: &'a A) -> Room<'a, A> {
        Room { queue: self, abort }
    }
}

/// Future of [`SharedQueue::room`].
pub(crate) struct Room<'a, A> {
    queue: &'a SharedQueue,
    abort: &'a A,
}

impl<A: AbortSwitch> Future for Room<'_, A> {
    type Output = ();
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let mut q = self.queue.0.borrow_mut();
        let full = q.items.len() >= PAUSE_AT || q.bytes >= PAUSE_AT_BYTES;
        if q.consumers == 0 || q.closed || !full || self.abort.is_aborted() {
            return Poll::Ready(());
        }
        q.paused.push(cx.waker().clone());
        Poll::Pending
    }
}

/// An open reader of a client's notifications; dropping it closes it (and un-pauses the streams
/// it held back).
pub struct NotificationReader {
    queue: SharedQueue,
}

impl NotificationReader {
    /// The next item; `None` once the client is closed and the queue is drained.
    pub fn next(&self) -> NextNotification {
        NextNotification {
            queue: self.queue.clone(),
        }
    }
}

impl Drop for NotificationReader {
    fn drop(&mut self) {
        {
            let mut q = self.queue.0.borrow_mut();
            q.consumers = q.consumers.saturating_sub(1);
        }
        self.queue.wake_paused();
    }
}

/// Future of [`NotificationReader::next`].
pub struct NextNotification {
    queue: SharedQueue,
}

impl Future for NextNotification {
    type Output = Option<Notice>;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Notice>> {
        let mut q = self.queue.0.borrow_mut();
        // Lost items were the oldest: the gap comes before everything still queued.
        if q.gap > 0 {
            let dropped = std::mem::take(&mut q.gap);
            return Poll::Ready(Some(Notice::Gap { dropped }));
        }
        if let Some((e, size)) = q.items.pop_front() {
            q.bytes -= size;
            let room = q.items.len() <= RESUME_AT && q.bytes <= RESUME_AT_BYTES;
            drop(q);
            if room {
                self.queue.wake_paused();
            }
            return Poll::Ready(Some(Notice::Event(e)));
        }
        if q.closed {
            return Poll::Ready(None);
        }
        q.readers.push(cx.waker().clone());
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn next(reader: &NotificationReader) -> Option<Notice> {
        let mut cx = Context::from_waker(Waker::noop());
        match Pin::new(&mut reader.next()).poll(&mut cx) {
            Poll::Ready(n) => n,
            Poll::Pending => None,
        }
    }

    fn note(i: usize, text_bytes: usize) -> Event {
        Event::Notification {
            method: "notifications/message".into(),
            params: json!({"i": i, "data": "x".repeat(text_bytes)}),
        }
    }

    #[test]
    fn a_full_queue_drops_the_oldest_and_says_how_many() {
        let q = SharedQueue::default();
        let reader = q.reader();
        for i in 0..MAX_QUEUED_NOTIFICATIONS + 3 {
            q.push(note(i, 1));
        }
        assert_eq!(q.dropped(), 3);
        assert_eq!(next(&reader), Some(Notice::Gap { dropped: 3 }));
        assert_eq!(next(&reader), Some(Notice::Event(note(3, 1))));
    }

    /// Twenty 1 MiB notifications fit the item bound but not the byte bound: the oldest go.
    #[test]
    fn the_queue_is_bounded_in_bytes_too() {
        let q = SharedQueue::default();
        let reader = q.reader();
        for i in 0..20 {
            q.push(note(i, 1 << 20));
        }
        let kept = MAX_QUEUED_BYTES / ((1 << 20) + 64 + 64);
        assert!(q.0.borrow().bytes <= MAX_QUEUED_BYTES);
        assert_eq!(q.dropped(), (20 - kept) as u64);
        assert_eq!(
            next(&reader),
            Some(Notice::Gap {
                dropped: (20 - kept) as u64
            })
        );
        assert_eq!(next(&reader), Some(Notice::Event(note(20 - kept, 1 << 20))));
    }

    #[test]
    fn an_event_larger_than_the_bound_still_arrives_alone() {
        let q = SharedQueue::default();
        let reader = q.reader();
        q.push(note(0, 1));
        q.push(note(1, MAX_QUEUED_BYTES));
        assert_eq!(next(&reader), Some(Notice::Gap { dropped: 1 }));
        assert_eq!(
            next(&reader),
            Some(Notice::Event(note(1, MAX_QUEUED_BYTES)))
        );
        assert_eq!(q.0.borrow().bytes, 0);
    }
}
