//! Streams of the Rust API: the client's notifications and one request's progress. Both
//! implement [`futures_core::Stream`], and both have an inherent `next()` for callers without
//! a stream combinator crate.

use crate::util::bounded::{Bounded, Popped};
use std::cell::RefCell;
use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use futures_core::Stream;

use super::types::Notification;
use super::FetchClient as Client;
use crate::client::{NextNotification, Notice, NotificationReader};
use crate::proto::session::Progress;

/// The client's notifications, in arrival order; ends after [`Notification::Closed`].
///
/// The queue behind it holds the newest 1,024 items of at most 16 MiB together;
/// [`Notifications::dropped`] counts what a slow reader lost.
pub struct Notifications {
    client: Client,
    reader: NotificationReader,
    next: Option<NextNotification>,
}

impl Notifications {
    pub(crate) fn new(client: Client) -> Self {
        // An open reader makes the client pause notification-only streams instead of losing
        // items; what a request's own stream loses arrives as a `Gap`.
        let reader = client.notifications();
        Notifications {
            client,
            reader,
            next: None,
        }
    }

    /// The next notification, or `None` once the client is closed and the queue drained.
    pub async fn next(&mut self) -> Option<Notification> {
        poll_fn(|cx| Pin::new(&mut *self).poll_next(cx)).await
    }

    /// How many notifications were dropped because nobody read them.
    pub fn dropped(&self) -> u64 {
        self.client.dropped_notifications()
    }
}

impl Stream for Notifications {
    type Item = Notification;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Notification>> {
        loop {
            let next = match self.next.take() {
                Some(n) => self.next.insert(n),
                None => {
                    let n = self.reader.next();
                    self.next.insert(n)
                }
            };
            match Pin::new(next).poll(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(None) => {
                    self.next = None;
                    return Poll::Ready(None);
                }
                Poll::Ready(Some(Notice::Gap { dropped })) => {
                    self.next = None;
                    return Poll::Ready(Some(Notification::Gap { dropped }));
                }
                Poll::Ready(Some(Notice::Event(event))) => {
                    self.next = None;
                    if let Some(n) = Notification::from_event(event) {
                        return Poll::Ready(Some(n));
                    }
                }
            }
        }
    }
}

/// Most progress items a [`ProgressStream`] keeps for a reader that falls behind.
pub const MAX_QUEUED_PROGRESS: usize = 1024;
/// Most bytes of progress messages (and task reports) it keeps.
pub const MAX_QUEUED_PROGRESS_BYTES: usize = 1 << 20;

struct Queue {
    items: Bounded<Progress>,
    dropped: u64,
    ended: bool,
    waker: Option<Waker>,
}

impl Default for Queue {
    fn default() -> Self {
        Queue {
            items: Bounded::new(MAX_QUEUED_PROGRESS, MAX_QUEUED_PROGRESS_BYTES),
            dropped: 0,
            ended: false,
            waker: None,
        }
    }
}

/// The size a progress item counts for in the queue: its message and task report.
pub(crate) fn progress_bytes(p: &Progress) -> usize {
    64 + p.message.as_ref().map_or(0, String::len)
        + p.task
            .as_ref()
            .map_or(0, |t| crate::util::json::json_text(&t.to_json()).len())
}

/// The progress of one request, from [`super::Call::progress_stream`]; ends when the request
/// ends. Keeps the newest [`MAX_QUEUED_PROGRESS`] items of at most [`MAX_QUEUED_PROGRESS_BYTES`]
/// together; [`ProgressStream::dropped`] counts the rest.
pub struct ProgressStream {
    queue: Rc<RefCell<Queue>>,
}

/// The request's side of a [`ProgressStream`]: dropping it (the request ended) ends the stream.
pub(crate) struct ProgressSender {
    queue: Rc<RefCell<Queue>>,
}

/// A connected sender and stream.
pub(crate) fn progress_channel() -> (ProgressSender, ProgressStream) {
    let queue = Rc::new(RefCell::new(Queue::default()));
    (
        ProgressSender {
            queue: queue.clone(),
        },
        ProgressStream { queue },
    )
}

impl ProgressSender {
    pub(crate) fn send(&self, p: Progress) {
        let mut q = self.queue.borrow_mut();
        let size = progress_bytes(&p);
        q.items.push(p, size);
        if let Some(w) = q.waker.take() {
            w.wake();
        }
    }
}

impl Drop for ProgressSender {
    fn drop(&mut self) {
        let mut q = self.queue.borrow_mut();
        q.ended = true;
        if let Some(w) = q.waker.take() {
            w.wake();
        }
    }
}

impl ProgressStream {
    /// The next progress item, or `None` once the request ended and the queue is drained.
    pub async fn next(&mut self) -> Option<Progress> {
        poll_fn(|cx| Pin::new(&mut *self).poll_next(cx)).await
    }

    /// How many items were dropped because the reader fell behind.
    pub fn dropped(&self) -> u64 {
        let q = self.queue.borrow();
        q.dropped + q.items.unreported()
    }
}

impl Stream for ProgressStream {
    type Item = Progress;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Progress>> {
        let mut q = self.queue.borrow_mut();
        loop {
            match q.items.pop() {
                Some(Popped::Item(p)) => return Poll::Ready(Some(p)),
                Some(Popped::Gap(n)) => q.dropped += n,
                None => break,
            }
        }
        if q.ended {
            return Poll::Ready(None);
        }
        q.waker = Some(cx.waker().clone());
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn progress(n: f64, message_bytes: usize) -> Progress {
        Progress {
            progress: n,
            total: None,
            message: Some("m".repeat(message_bytes)),
            task: None,
        }
    }

    fn next(s: &mut ProgressStream) -> Option<Progress> {
        let mut cx = Context::from_waker(Waker::noop());
        match Pin::new(s).poll_next(&mut cx) {
            Poll::Ready(p) => p,
            Poll::Pending => None,
        }
    }

    /// Server-supplied messages are bounded in bytes as well as items; the loss is counted
    /// before the reader reads, and the newest items are kept.
    #[test]
    fn progress_is_bounded_in_bytes_and_the_loss_is_counted() {
        let (tx, mut rx) = progress_channel();
        for i in 0..4 {
            tx.send(progress(f64::from(i), 400 * 1024));
        }
        // Four 400 KiB messages do not fit in 1 MiB: the two oldest went.
        assert_eq!(rx.dropped(), 2);
        assert_eq!(next(&mut rx).map(|p| p.progress), Some(2.0));
        assert_eq!(next(&mut rx).map(|p| p.progress), Some(3.0));
        assert_eq!(rx.dropped(), 2);
        for i in 0..(MAX_QUEUED_PROGRESS + 10) {
            tx.send(progress(i as f64, 0));
        }
        assert_eq!(rx.dropped(), 12);
        drop(tx);
        let mut n = 0;
        while next(&mut rx).is_some() {
            n += 1;
        }
        assert_eq!(n, MAX_QUEUED_PROGRESS);
    }
}
