//! Incremental (push) decoder for `text/event-stream`, per the WHATWG HTML Living Standard,
//! "Server-sent events" § 9.2.6 "Interpreting an event stream".
//!
//! CONTRACT (implemented by the SSE work item; signatures are fixed, other modules rely on them):
//! - `Decoder::new(DecoderConfig)`, `Decoder::default()`.
//! - `feed(&mut self, chunk: &[u8]) -> Feed<'_>`: consumes the WHOLE chunk eagerly and returns an
//!   iterator over the events (and errors) it completed, in order. Partial input is not an error.
//! - `finish(&mut self) -> Option<Result<Event, SseError>>`: end of stream. Per WHATWG an incomplete
//!   event at EOF is discarded, so this only reports an error state (e.g. truncated UTF-8), else None.
//! - `last_event_id()`/`retry_ms()` expose the decoder-tracked state.
//! - Limits are in `DecoderConfig`; exceeding one yields `Err(SseError::LineTooLong{..})` or
//!   `Err(SseError::EventTooLarge{..})`, discards the offending event and keeps decoding after the next
//!   blank line (usable, never unbounded growth).

use std::collections::VecDeque;

/// Limits for one decoder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecoderConfig {
    /// Longest accepted line, in bytes, excluding its terminator.
    pub max_line_bytes: usize,
    /// Largest accepted event, in bytes of accumulated `data`.
    pub max_event_bytes: usize,
}

impl Default for DecoderConfig {
    fn default() -> Self {
        Self {
            max_line_bytes: 8 << 20,
            max_event_bytes: 8 << 20,
        }
    }
}

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// The event type; `"message"` when the stream set none.
    pub event_type: String,
    /// The data lines joined with LF (the final LF removed).
    pub data: String,
    /// The decoder's last event id at dispatch time (empty when none was ever set).
    pub last_event_id: String,
}

/// Errors of the SSE layer.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SseError {
    /// A line exceeded `max_line_bytes`.
    LineTooLong {
        /// The configured limit.
        limit: usize,
    },
    /// An event's data exceeded `max_event_bytes`.
    EventTooLarge {
        /// The configured limit.
        limit: usize,
    },
    /// A line was not valid UTF-8.
    InvalidUtf8,
}

/// The push decoder.
#[derive(Debug, Default)]
pub struct Decoder {
    config: DecoderConfig,
    out: VecDeque<Result<Event, SseError>>,
}

/// Iterator over what one `feed` completed.
pub type Feed<'a> = std::collections::vec_deque::Drain<'a, Result<Event, SseError>>;

impl Decoder {
    /// A decoder with the given limits.
    pub fn new(config: DecoderConfig) -> Self {
        Self {
            config,
            out: VecDeque::new(),
        }
    }
    /// Pushes bytes; yields every event completed by them.
    pub fn feed(&mut self, _chunk: &[u8]) -> Feed<'_> {
        let _ = self.config;
        self.out.drain(..)
    }
    /// Signals end of stream.
    pub fn finish(&mut self) -> Option<Result<Event, SseError>> {
        None
    }
    /// The last event id seen (WHATWG "last event ID string").
    pub fn last_event_id(&self) -> &str {
        ""
    }
    /// The reconnection time set by a `retry` field, in milliseconds.
    pub fn retry_ms(&self) -> Option<u64> {
        None
    }
}
