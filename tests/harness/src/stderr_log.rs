//! A bounded log of a server's stderr: keeps the last `capacity` bytes and counts the rest.
//!
//! MCP `basic/transports/stdio`: the server MAY write anything to stderr and the client MAY
//! capture it. The pipe must be drained continuously (a full pipe blocks the server's writes and
//! so its answers), but what is kept must be bounded.

use std::collections::VecDeque;

/// The last `capacity` bytes a server wrote to stderr.
#[derive(Debug)]
pub struct StderrLog {
    buf: VecDeque<u8>,
    capacity: usize,
    total: u64,
}

impl StderrLog {
    /// A log that keeps at most `capacity` bytes.
    pub fn new(capacity: usize) -> Self {
        StderrLog {
            buf: VecDeque::with_capacity(capacity.min(64 * 1024)),
            capacity,
            total: 0,
        }
    }

    /// Appends bytes, dropping the oldest beyond the capacity.
    pub fn push(&mut self, bytes: &[u8]) {
        self.total += bytes.len() as u64;
        let keep = &bytes[bytes.len().saturating_sub(self.capacity)..];
        let overflow = (self.buf.len() + keep.len()).saturating_sub(self.capacity);
        self.buf.drain(..overflow.min(self.buf.len()));
        self.buf.extend(keep);
    }

    /// Bytes kept now (at most the capacity).
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// Whether nothing is kept.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// The capacity.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Bytes written in total, kept or not.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The kept bytes as text (invalid UTF-8 replaced).
    pub fn text(&self) -> String {
        let (a, b) = self.buf.as_slices();
        let mut v = Vec::with_capacity(a.len() + b.len());
        v.extend_from_slice(a);
        v.extend_from_slice(b);
        String::from_utf8_lossy(&v).into_owned()
    }

    /// The last `max_chars` characters of the kept text, trimmed, for error messages.
    pub fn tail(&self, max_chars: usize) -> String {
        let text = self.text();
        let text = text.trim_end();
        let start = text
            .char_indices()
            .rev()
            .nth(max_chars.saturating_sub(1))
            .map_or(0, |(i, _)| i);
        text[start..].to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::StderrLog;

    #[test]
    fn keeps_only_the_last_bytes() {
        let mut log = StderrLog::new(8);
        log.push(b"abc");
        log.push(b"defghij");
        assert_eq!(log.text(), "cdefghij");
        log.push(b"0123456789XY");
        assert_eq!(log.text(), "456789XY");
        assert_eq!(log.total(), 22);
        assert_eq!(log.len(), 8);
    }

    #[test]
    fn tail_counts_characters() {
        let mut log = StderrLog::new(100);
        log.push("line one\nline twö\n".as_bytes());
        assert_eq!(log.tail(3), "twö");
        assert_eq!(log.tail(1000), "line one\nline twö");
    }
}
