//! A queue bounded in items and in bytes that drops its oldest items when full and tells its
//! reader how many went, at the place they went from.
//!
//! Every queue of server-supplied data the host drains (pool and registry events, the
//! component's event list) uses it, so nothing is dropped without a word: [`Bounded::pop`]
//! yields [`Popped::Gap`] with the count before the next item that survived.
use std::collections::VecDeque;

/// What [`Bounded::pop`] yields.
#[derive(Debug, Clone, PartialEq)]
pub enum Popped<T> {
    /// The next item.
    Item(T),
    /// This many items were dropped here (the queue was full).
    Gap(u64),
}

/// The queue (see the module docs).
#[derive(Debug, Clone)]
pub struct Bounded<T> {
    items: VecDeque<(T, usize)>,
    bytes: usize,
    max_items: usize,
    max_bytes: usize,
    /// Dropped since the reader was last told.
    gap: u64,
}

impl<T> Bounded<T> {
    /// An empty queue of at most `max_items` items (at least 1) and `max_bytes` bytes together;
    /// a single item larger than `max_bytes` is still kept while it is the only one.
    pub fn new(max_items: usize, max_bytes: usize) -> Self {
        Bounded {
            items: VecDeque::new(),
            bytes: 0,
            max_items: max_items.max(1),
            max_bytes,
            gap: 0,
        }
    }

    /// Queues `item` of `size` bytes, dropping the oldest items while either bound would be
    /// passed.
    pub fn push(&mut self, item: T, size: usize) {
        while !self.items.is_empty()
            && (self.items.len() >= self.max_items
                || self.bytes.saturating_add(size) > self.max_bytes)
        {
            if let Some((_, gone)) = self.items.pop_front() {
                self.bytes -= gone;
                self.gap += 1;
            }
        }
        self.bytes += size;
        self.items.push_back((item, size));
    }

    /// The next item, or first the count of items dropped before it.
    pub fn pop(&mut self) -> Option<Popped<T>> {
        if self.gap > 0 {
            return Some(Popped::Gap(std::mem::take(&mut self.gap)));
        }
        let (item, size) = self.items.pop_front()?;
        self.bytes -= size;
        Some(Popped::Item(item))
    }

    /// Items queued.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether nothing is queued and nothing was dropped unreported.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty() && self.gap == 0
    }

    /// Bytes queued.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Items dropped that [`Bounded::pop`] has not reported yet.
    pub fn unreported(&self) -> u64 {
        self.gap
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_oldest_by_items_and_bytes_and_reports_the_gap_first() {
        let mut q = Bounded::new(3, 100);
        for i in 0..5 {
            q.push(i, 10);
        }
        assert_eq!(q.len(), 3);
        assert_eq!(q.pop(), Some(Popped::Gap(2)));
        assert_eq!(q.pop(), Some(Popped::Item(2)));
        q.push(9, 85);
        // 3 and 4 (10 bytes each) + 9 (85) would pass 100: 3 goes, 4 stays.
        assert_eq!(q.pop(), Some(Popped::Gap(1)));
        assert_eq!(q.pop(), Some(Popped::Item(4)));
        assert_eq!(q.pop(), Some(Popped::Item(9)));
        assert_eq!(q.pop(), None);
        assert_eq!(q.bytes(), 0);
        // One item above the byte bound is kept alone.
        q.push(1, 500);
        q.push(2, 500);
        assert_eq!(q.pop(), Some(Popped::Gap(1)));
        assert_eq!(q.pop(), Some(Popped::Item(2)));
        assert!(q.is_empty());
    }
}
