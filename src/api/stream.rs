//! Streams of the Rust API: the client's notifications and one request's progress. Both
//! implement [`futures_core::Stream`], and both have an inherent `next()` for callers without
//! a stream combinator crate.

use std::cell::RefCell;
use std::collections::VecDeque;
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

#[derive(Default)]
struct Queue {
    items: VecDeque<Progress>,
    dropped: u64,
    ended: bool,
    waker: Option<Waker>,
}

/// The progress of one request, from [`super::Call::progress_stream`]; ends when the request
/// ends. Keeps the newest [`MAX_QUEUED_PROGRESS`] items; [`ProgressStream::dropped`] counts the
/// rest.
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
        if q.items.len() >= MAX_QUEUED_PROGRESS {
            q.items.pop_front();
            q.dropped += 1;
        }
        q.items.push_back(p);
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
        self.queue.borrow().dropped
    }
}

impl Stream for ProgressStream {
    type Item = Progress;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Progress>> {
        let mut q = self.queue.borrow_mut();
        if let Some(p) = q.items.pop_front() {
            return Poll::Ready(Some(p));
        }
        if q.ended {
            return Poll::Ready(None);
        }
        q.waker = Some(cx.waker().clone());
        Poll::Pending
    }
}
