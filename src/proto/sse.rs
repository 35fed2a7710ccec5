//! Incremental (push) decoder for `text/event-stream`, per the WHATWG HTML Living Standard,
//! "Server-sent events" § 9.2.6 "Interpreting an event stream".
//!
//! ```text
//!   bytes (any chunking) ──► feed() ──► lines (LF | CR | CRLF) ──► fields ──► blank line ──► Event
//!                                                                     └─► id / retry state
//! ```
//!
//! CONTRACT (other modules rely on it):
//! - `Decoder::new(DecoderConfig)`, `Decoder::default()`.
//! - `feed(&mut self, chunk: &[u8]) -> Feed<'_>`: consumes the WHOLE chunk eagerly and returns an
//!   iterator over the events (and errors) it completed, in order. Partial input is not an error.
//!   Items not taken from a [`Feed`] before it is dropped stay queued and come out of the next `feed`.
//! - `finish(&mut self) -> Option<Result<Event, SseError>>`: end of stream. Per WHATWG an incomplete
//!   event at EOF is discarded, so this only reports an error state (invalid or truncated UTF-8 in
//!   the discarded tail), else None. A finished decoder is not reusable: make a new one per stream.
//! - `last_event_id()`/`retry_ms()` expose the decoder-tracked state.
//! - Limits are in `DecoderConfig`; exceeding one yields `Err(SseError::LineTooLong{..})` or
//!   `Err(SseError::EventTooLarge{..})`, discards the offending event and keeps decoding after the next
//!   blank line (usable, never unbounded growth).
//!
//! # Rules implemented (WHATWG § 9.2.6, step names quoted from there)
//! - "One leading U+FEFF BYTE ORDER MARK character must be ignored if any are present": the bytes
//!   `EF BB BF` are dropped once, at stream start only, also when split across chunks.
//! - Lines end with CRLF, a lone LF or a lone CR. A CR that ends one chunk and an LF that starts the
//!   next form ONE terminator (no phantom blank line).
//! - "If the line is empty": dispatch the event. "If the line starts with a U+003A COLON": ignore it
//!   (comment). "If the line contains a U+003A COLON": the field name is what precedes the first
//!   colon, the value what follows it, minus one leading U+0020 SPACE. "Otherwise": the whole line is
//!   the field name and the value is empty.
//! - "Process the field": `event` sets the event type buffer; `data` appends the value and one LF to
//!   the data buffer; `id` sets the last event ID buffer unless the value contains U+0000 NULL; `retry`
//!   sets the reconnection time when the value is ASCII digits only (non-empty; a value too large for
//!   `u64` saturates); any other name is ignored.
//! - "Dispatch the event": (1) the last event ID string takes the buffer's value — also for blocks that
//!   dispatch nothing; (2) an empty data buffer resets the buffers and dispatches nothing; (3) one
//!   trailing LF is removed; (5, 6) the type is `"message"` unless the event type buffer is non-empty;
//!   (7) the data and event type buffers are reset.
//! - "Once the end of the file is reached, any pending data must be discarded": an event that is not
//!   closed by a blank line is never dispatched.
//!
//! # Deviations, each a choice of this crate
//! - WHATWG decodes with replacement characters; this decoder never does. Every line must be UTF-8: a
//!   line that is not is ignored and *poisons* its event, which then comes out as exactly one
//!   `Err(SseError::InvalidUtf8)` at its blank line (whether or not it had data). The other lines of
//!   that event are still processed (an `id` or `retry` in it takes effect). `data` values are
//!   validated once, at dispatch, over the joined buffer; since LF is ASCII this is the same verdict
//!   as validating each line.
//! - Limits (`DecoderConfig`): a line longer than `max_line_bytes` (terminator excluded), or an event
//!   whose dispatched data would exceed `max_event_bytes`, yields one error as soon as the limit is
//!   crossed (even mid-line, mid-chunk). The event is dropped, its buffers freed, and every further
//!   line up to its blank line is skipped unread. When one data line crosses both limits, the error
//!   names the limit crossed at the earlier byte (the line limit on a tie), so the verdict never
//!   depends on chunking.
//!
//! # Memory
//! The line buffer holds at most `max(max_line_bytes, 6)` bytes, the data buffer at most
//! `max_event_bytes + 1`, the type and id buffers at most `max_line_bytes` each. `data` values are
//! copied once, straight from the input into the data buffer — also when a line spans chunks — and the
//! buffer becomes [`Event::data`] without another copy. The queue behind [`Feed`] holds what one chunk
//! completed.

use std::collections::VecDeque;
use std::fmt;
use std::iter::FusedIterator;

/// Limits for one decoder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecoderConfig {
    /// Longest accepted line, in bytes, excluding its terminator.
    pub max_line_bytes: usize,
    /// Largest accepted event, in bytes of dispatched `data` (the data lines joined with LF).
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

/// One dispatched event (WHATWG § 9.2.6 "Dispatch the event", steps 4–6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// The event type; `"message"` when the stream set none (or set it empty).
    pub event_type: String,
    /// The data lines joined with LF (the final LF removed).
    pub data: String,
    /// The decoder's last event id at dispatch time (empty when none was ever set).
    pub last_event_id: String,
}

/// Errors of the SSE layer. Apart from `Finished`, each error stands for one event that was not
/// dispatched; decoding goes on with the next event.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SseError {
    /// A line exceeded `max_line_bytes`; its event was discarded.
    LineTooLong {
        /// The configured limit.
        limit: usize,
    },
    /// An event's data exceeded `max_event_bytes`; the event was discarded.
    EventTooLarge {
        /// The configured limit.
        limit: usize,
    },
    /// A line of the event was not valid UTF-8 (or, from `finish`, the stream ended inside a
    /// UTF-8 sequence or an event holding invalid UTF-8); the event was discarded.
    InvalidUtf8,
    /// `feed` was called with bytes after `finish`; they were not decoded.
    Finished,
}

impl fmt::Display for SseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SseError::LineTooLong { limit } => {
                write!(f, "event-stream line longer than {limit} bytes")
            }
            SseError::EventTooLarge { limit } => {
                write!(f, "event-stream event data larger than {limit} bytes")
            }
            SseError::InvalidUtf8 => f.write_str("event-stream line is not valid UTF-8"),
            SseError::Finished => f.write_str("event-stream bytes fed after finish()"),
        }
    }
}

impl std::error::Error for SseError {}

/// The byte order mark, UTF-8 encoded.
const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];
/// A `data` line is recognised once this many bytes are known: `data:` and the byte after the colon
/// (which decides whether a space is stripped).
const DATA_PROBE: usize = 6;

/// Where the value of the `data` line being read lands in the data buffer.
#[derive(Debug, Clone, Copy)]
struct DataLine {
    /// Offset in the line where the value starts (after `data:` and an optional space).
    value_start: usize,
    /// Length of the data buffer when the line began.
    data_start: usize,
}

/// What happens to the bytes of the current, still unterminated line.
#[derive(Debug, Clone, Copy)]
enum LineMode {
    /// No byte of the current line seen yet.
    Start,
    /// The line so far is held in `Decoder::line`.
    Buffered,
    /// A `data` line whose value is appended straight to `Decoder::data`; `len` counts the whole
    /// line so far.
    Data { line: DataLine, len: usize },
    /// The rest of this line is ignored (its event is being discarded).
    Skip,
}

/// Progress in recognising the stream's leading BOM.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bom {
    /// This many leading bytes (0..=2) matched the BOM so far and are held back.
    Pending(usize),
    /// Decided (stripped or absent).
    Done,
}

/// The push decoder. One per response body.
#[derive(Debug)]
pub struct Decoder {
    config: DecoderConfig,
    bom: Bom,
    /// The previous chunk ended with the CR of a line terminator: a leading LF is its second half.
    cr_pending: bool,
    mode: LineMode,
    /// The current line while `mode` is `Buffered`.
    line: Vec<u8>,
    /// WHATWG "data buffer": raw bytes, validated as UTF-8 at dispatch.
    data: Vec<u8>,
    /// WHATWG "event type buffer".
    event_type: String,
    /// WHATWG "last event ID buffer".
    id_buffer: String,
    /// WHATWG "last event ID string" (set from the buffer at every blank line).
    last_event_id: String,
    /// WHATWG "reconnection time", once a valid `retry` field set it.
    retry: Option<u64>,
    /// The current event contained a line that was not UTF-8.
    poisoned: bool,
    /// The current event broke a limit; lines are skipped up to its blank line.
    discarding: bool,
    finished: bool,
    out: VecDeque<Result<Event, SseError>>,
}

impl Default for Decoder {
    fn default() -> Self {
        Self::new(DecoderConfig::default())
    }
}

/// The events and errors that one [`Decoder::feed`] call completed, in stream order.
///
/// Dropping it early loses nothing: the items not taken stay queued in the decoder and are yielded
/// first by the next `feed`.
#[derive(Debug)]
pub struct Feed<'a> {
    queue: &'a mut VecDeque<Result<Event, SseError>>,
}

impl Iterator for Feed<'_> {
    type Item = Result<Event, SseError>;
    fn next(&mut self) -> Option<Self::Item> {
        self.queue.pop_front()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.queue.len(), Some(self.queue.len()))
    }
}

impl ExactSizeIterator for Feed<'_> {}
impl FusedIterator for Feed<'_> {}

impl Decoder {
    /// A decoder for one new stream with the given limits.
    pub fn new(config: DecoderConfig) -> Self {
        Self {
            config,
            bom: Bom::Pending(0),
            cr_pending: false,
            mode: LineMode::Start,
            line: Vec::new(),
            data: Vec::new(),
            event_type: String::new(),
            id_buffer: String::new(),
            last_event_id: String::new(),
            retry: None,
            poisoned: false,
            discarding: false,
            finished: false,
            out: VecDeque::new(),
        }
    }

    /// The limits this decoder enforces.
    pub fn config(&self) -> DecoderConfig {
        self.config
    }

    /// Pushes bytes (any split of the stream, including empty chunks); yields every event completed
    /// by them, and one error per event that could not be dispatched (see the module doc).
    pub fn feed(&mut self, chunk: &[u8]) -> Feed<'_> {
        if self.finished {
            if !chunk.is_empty() {
                self.out.push_back(Err(SseError::Finished));
            }
            return Feed {
                queue: &mut self.out,
            };
        }
        let mut rest = chunk;
        // WHATWG § 9.2.6: "One leading U+FEFF BYTE ORDER MARK character must be ignored".
        if let Bom::Pending(before) = self.bom {
            let matched = rest
                .iter()
                .zip(&BOM[before..])
                .take_while(|(a, b)| a == b)
                .count();
            if before + matched == BOM.len() {
                self.bom = Bom::Done;
                rest = &rest[matched..];
            } else if matched == rest.len() {
                self.bom = Bom::Pending(before + matched);
                rest = &[];
            } else {
                // Not a BOM: the bytes held back from earlier chunks are ordinary input.
                self.bom = Bom::Done;
                self.scan(&BOM[..before]);
            }
        }
        self.scan(rest);
        Feed {
            queue: &mut self.out,
        }
    }

    /// Signals end of stream. The incomplete event, if any, is discarded (WHATWG: "any pending
    /// data must be discarded"). Returns `Some(Err(SseError::InvalidUtf8))` when that discarded
    /// tail held invalid or truncated UTF-8, and `None` otherwise (except for a stream made only of
    /// one or two BOM bytes: under a `max_line_bytes` below 2 their limit error is returned here).
    /// Later calls return `None`; later non-empty `feed`s yield `SseError::Finished`. Items still
    /// queued from a dropped [`Feed`] are not returned here; `feed(&[])` yields them.
    pub fn finish(&mut self) -> Option<Result<Event, SseError>> {
        if self.finished {
            return None;
        }
        let queued = self.out.len();
        if let Bom::Pending(held) = self.bom {
            // The stream was only a BOM prefix: those bytes are an incomplete first line. With a
            // `max_line_bytes` below 2 they can break the limit; that error is returned here.
            self.bom = Bom::Done;
            self.scan(&BOM[..held]);
        }
        let limit_error = (self.out.len() > queued)
            .then(|| self.out.pop_back())
            .flatten();
        self.finished = true;
        let bad = !self.discarding
            && (self.poisoned
                || std::str::from_utf8(&self.data).is_err()
                || (matches!(self.mode, LineMode::Buffered)
                    && std::str::from_utf8(&self.line).is_err()));
        self.mode = LineMode::Start;
        self.cr_pending = false;
        self.line = Vec::new();
        self.data = Vec::new();
        self.event_type = String::new();
        self.poisoned = false;
        self.discarding = false;
        limit_error.or(bad.then_some(Err(SseError::InvalidUtf8)))
    }

    /// The last event ID string (WHATWG § 9.2.6 "Dispatch the event" step 1): the `id` of the
    /// latest block closed by a blank line, dispatched or not. Empty when none was set.
    pub fn last_event_id(&self) -> &str {
        &self.last_event_id
    }

    /// The reconnection time set by the latest valid `retry` field, in milliseconds.
    pub fn retry_ms(&self) -> Option<u64> {
        self.retry
    }

    /// Splits `rest` into lines and routes each piece.
    fn scan(&mut self, mut rest: &[u8]) {
        if self.cr_pending {
            match rest.split_first() {
                None => return,
                Some((b'\n', tail)) => rest = tail,
                Some(_) => {}
            }
            self.cr_pending = false;
        }
        while let Some(end) = find_line_end(rest) {
            let (line, tail) = rest.split_at(end);
            self.end_line(line);
            rest = match tail {
                [b'\r', b'\n', after @ ..] => after,
                [b'\r'] => {
                    self.cr_pending = true;
                    return;
                }
                [_, after @ ..] => after,
                [] => return,
            };
        }
        if !rest.is_empty() {
            self.extend_line(rest);
        }
    }

    /// `seg` is the final piece of the current line (its terminator was just found).
    fn end_line(&mut self, seg: &[u8]) {
        match self.mode {
            LineMode::Start if self.discarding => {
                if seg.is_empty() {
                    self.end_discarded_event();
                }
            }
            LineMode::Start => self.complete_line(seg),
            LineMode::Skip => self.mode = LineMode::Start,
            LineMode::Data { line, len } => {
                self.mode = LineMode::Start;
                self.append_data(line, len, seg, true);
            }
            LineMode::Buffered => {
                let rest = self.probe(seg);
                let mode = std::mem::replace(&mut self.mode, LineMode::Start);
                match mode {
                    LineMode::Data { line, len } => self.append_data(line, len, rest, true),
                    LineMode::Skip => {}
                    LineMode::Start | LineMode::Buffered => {
                        let total = self.line.len() + rest.len();
                        if let Some(err) = self.limit_error(total, None) {
                            self.overflow(err);
                            return;
                        }
                        let mut line = std::mem::take(&mut self.line);
                        grow(&mut line, rest.len(), self.line_capacity());
                        line.extend_from_slice(rest);
                        self.complete_line(&line);
                        line.clear();
                        self.line = line;
                    }
                }
            }
        }
    }

    /// `seg` (no terminator in it) continues the current line, which stays incomplete.
    fn extend_line(&mut self, seg: &[u8]) {
        match self.mode {
            LineMode::Skip => {}
            LineMode::Start if self.discarding => self.mode = LineMode::Skip,
            LineMode::Data { line, len } => self.append_data(line, len, seg, false),
            LineMode::Start | LineMode::Buffered => {
                self.mode = LineMode::Buffered;
                let rest = self.probe(seg);
                match self.mode {
                    LineMode::Data { line, len } => self.append_data(line, len, rest, false),
                    LineMode::Skip => {}
                    LineMode::Start | LineMode::Buffered => {
                        let total = self.line.len() + rest.len();
                        if let Some(err) = self.limit_error(total, None) {
                            self.overflow(err);
                            self.mode = LineMode::Skip;
                            return;
                        }
                        let cap = self.line_capacity();
                        grow(&mut self.line, rest.len(), cap);
                        self.line.extend_from_slice(rest);
                    }
                }
            }
        }
    }

    /// While a buffered line is shorter than [`DATA_PROBE`], moves bytes from `seg` into it until it
    /// is known whether it is a `data:` line. If it is, switches to `LineMode::Data` (its value bytes
    /// so far go to the data buffer; an overflow switches to `LineMode::Skip`). Returns the
    /// unconsumed part of `seg`.
    fn probe<'s>(&mut self, seg: &'s [u8]) -> &'s [u8] {
        let have = self.line.len();
        if have >= DATA_PROBE {
            return seg;
        }
        let take = (DATA_PROBE - have).min(seg.len());
        self.line.extend_from_slice(&seg[..take]);
        if let [b'd', b'a', b't', b'a', b':', sixth] = self.line[..] {
            let value_start = if sixth == b' ' { 6 } else { 5 };
            let line = DataLine {
                value_start,
                data_start: self.data.len(),
            };
            self.line.clear();
            let value: &[u8] = if sixth == b' ' { &[] } else { &[sixth] };
            self.append_data(line, value_start, value, false);
        }
        &seg[take..]
    }

    /// Appends value bytes of a `data` line of which `len` bytes were seen; `done` when `seg` ends
    /// the line (then the WHATWG LF is appended too). Sets `LineMode::Data` when not done, or
    /// `LineMode::Skip` on an overflow mid-line.
    fn append_data(&mut self, line: DataLine, len: usize, seg: &[u8], done: bool) {
        let total = len + seg.len();
        if let Some(err) = self.limit_error(total, Some(line)) {
            self.overflow(err);
            self.mode = if done {
                LineMode::Start
            } else {
                LineMode::Skip
            };
            return;
        }
        let cap = self.data_capacity();
        grow(&mut self.data, seg.len() + usize::from(done), cap);
        self.data.extend_from_slice(seg);
        if done {
            // WHATWG "data": "append a single U+000A LINE FEED (LF) character to the data buffer".
            self.data.push(b'\n');
        } else {
            self.mode = LineMode::Data { line, len: total };
        }
    }

    /// Interprets one whole line that arrived in one piece (WHATWG § 9.2.6 line rules).
    fn complete_line(&mut self, line: &[u8]) {
        if line.is_empty() {
            // "If the line is empty (a blank line): Dispatch the event".
            self.dispatch();
            return;
        }
        if line[0] == b':' {
            // "If the line starts with a U+003A COLON character (:): Ignore the line."
            if let Some(err) = self.limit_error(line.len(), None) {
                self.overflow(err);
            } else if std::str::from_utf8(&line[1..]).is_err() {
                self.poisoned = true;
            }
            return;
        }
        // "If the line contains a U+003A COLON character": split at the first colon and strip one
        // leading space from the value. "Otherwise": the whole line is the name, the value is empty.
        let (name, value, value_start) = match line.iter().position(|&b| b == b':') {
            Some(colon) => {
                let start = if line.get(colon + 1) == Some(&b' ') {
                    colon + 2
                } else {
                    colon + 1
                };
                (&line[..colon], &line[start..], start)
            }
            None => (line, &line[line.len()..], line.len()),
        };
        let data_line = (name == b"data").then_some(DataLine {
            value_start,
            data_start: self.data.len(),
        });
        if let Some(err) = self.limit_error(line.len(), data_line) {
            self.overflow(err);
            return;
        }
        match name {
            b"data" => {
                let cap = self.data_capacity();
                grow(&mut self.data, value.len() + 1, cap);
                self.data.extend_from_slice(value);
                self.data.push(b'\n');
            }
            b"event" => match std::str::from_utf8(value) {
                Ok(value) => {
                    self.event_type.clear();
                    self.event_type.push_str(value);
                }
                Err(_) => self.poisoned = true,
            },
            b"id" => match std::str::from_utf8(value) {
                // "If the field value does not contain U+0000 NULL, then set the last event ID
                // buffer to the field value. Otherwise, ignore the field."
                Ok(value) if !value.contains('\0') => {
                    self.id_buffer.clear();
                    self.id_buffer.push_str(value);
                }
                Ok(_) => {}
                Err(_) => self.poisoned = true,
            },
            b"retry" => {
                // "If the field value consists of only ASCII digits, then interpret the field
                // value as an integer in base ten, and set the event stream's reconnection time
                // to that integer. Otherwise, ignore the field."
                if !value.is_empty() && value.iter().all(u8::is_ascii_digit) {
                    let ms = value.iter().fold(0u64, |acc, d| {
                        acc.saturating_mul(10).saturating_add(u64::from(d - b'0'))
                    });
                    self.retry = Some(ms);
                } else if std::str::from_utf8(value).is_err() {
                    self.poisoned = true;
                }
            }
            // "Otherwise: The field is ignored." (still required to be UTF-8)
            _ => {
                if std::str::from_utf8(line).is_err() {
                    self.poisoned = true;
                }
            }
        }
    }

    /// WHATWG § 9.2.6 "Dispatch the event", steps 1–7 (a blank line outside a discarded event).
    fn dispatch(&mut self) {
        // Step 1: the last event ID string takes the buffer's value (the buffer is not reset).
        self.last_event_id.clone_from(&self.id_buffer);
        if self.poisoned {
            self.poisoned = false;
            self.data.clear();
            self.event_type.clear();
            self.out.push_back(Err(SseError::InvalidUtf8));
            return;
        }
        // Step 2: no data (not even an empty `data` field): reset and dispatch nothing.
        if self.data.is_empty() {
            self.event_type.clear();
            return;
        }
        // Step 3: remove the one trailing LF.
        if self.data.last() == Some(&b'\n') {
            self.data.pop();
        }
        // Steps 5–7: type defaults to "message"; the data and type buffers are reset (taken).
        let data = std::mem::take(&mut self.data);
        let event_type = if self.event_type.is_empty() {
            String::from("message")
        } else {
            std::mem::take(&mut self.event_type)
        };
        self.out.push_back(match String::from_utf8(data) {
            Ok(data) => Ok(Event {
                event_type,
                data,
                last_event_id: self.last_event_id.clone(),
            }),
            Err(_) => Err(SseError::InvalidUtf8),
        });
    }

    /// The blank line that closes an event dropped for a limit: step 1 still applies, nothing is
    /// dispatched (its error was reported when the limit was crossed).
    fn end_discarded_event(&mut self) {
        self.last_event_id.clone_from(&self.id_buffer);
        self.discarding = false;
    }

    /// Which limit, if any, a line of `len` bytes breaks; `data` when it is a `data` line whose
    /// value feeds the data buffer. When both are broken, the one crossed at the earlier byte wins
    /// (the line limit on a tie) so the verdict is the same however the line was chunked.
    fn limit_error(&self, len: usize, data: Option<DataLine>) -> Option<SseError> {
        // Line length at which each limit is first exceeded.
        let line_at = self.config.max_line_bytes.saturating_add(1);
        let data_at = match data {
            Some(d) => self
                .config
                .max_event_bytes
                .saturating_add(1)
                .saturating_sub(d.data_start)
                .saturating_add(d.value_start),
            None => usize::MAX,
        };
        if len < line_at.min(data_at) {
            None
        } else if line_at <= data_at {
            Some(SseError::LineTooLong {
                limit: self.config.max_line_bytes,
            })
        } else {
            Some(SseError::EventTooLarge {
                limit: self.config.max_event_bytes,
            })
        }
    }

    /// Reports `err` once and drops the current event: buffers freed, lines skipped up to the next
    /// blank line. The caller sets the line mode.
    fn overflow(&mut self, err: SseError) {
        self.out.push_back(Err(err));
        self.line = Vec::new();
        self.data = Vec::new();
        self.event_type = String::new();
        self.poisoned = false;
        self.discarding = true;
    }

    fn line_capacity(&self) -> usize {
        self.config.max_line_bytes.max(DATA_PROBE)
    }

    fn data_capacity(&self) -> usize {
        self.config.max_event_bytes.saturating_add(1)
    }
}

/// Makes room for `extra` more bytes, doubling but never past `cap` (unless the exact need does).
fn grow(buf: &mut Vec<u8>, extra: usize, cap: usize) {
    let need = buf.len() + extra;
    if need > buf.capacity() {
        let target = need.max(buf.capacity().saturating_mul(2).min(cap));
        buf.reserve_exact(target - buf.len());
    }
}

/// Index of the first CR or LF in `hay`. Scans eight bytes per step (SWAR: a byte equal to the
/// pattern becomes zero after XOR, and `(x - 0x01..) & !x & 0x80..` flags zero bytes; the lowest
/// flag is always exact), 32 bytes per loop iteration.
#[inline]
fn find_line_end(hay: &[u8]) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    const LF: u64 = LO * b'\n' as u64;
    const CR: u64 = LO * b'\r' as u64;
    #[inline(always)]
    fn flags(bytes: &[u8; 8]) -> u64 {
        let w = u64::from_le_bytes(*bytes);
        let a = w ^ LF;
        let b = w ^ CR;
        ((a.wrapping_sub(LO) & !a) | (b.wrapping_sub(LO) & !b)) & HI
    }
    let (blocks, tail) = hay.as_chunks::<32>();
    for (n, block) in blocks.iter().enumerate() {
        let (words, _) = block.as_chunks::<8>();
        let f = [
            flags(&words[0]),
            flags(&words[1]),
            flags(&words[2]),
            flags(&words[3]),
        ];
        if f[0] | f[1] | f[2] | f[3] != 0 {
            for (k, m) in f.iter().enumerate() {
                if *m != 0 {
                    return Some(n * 32 + k * 8 + (m.trailing_zeros() / 8) as usize);
                }
            }
        }
    }
    let base = hay.len() - tail.len();
    tail.iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .map(|i| base + i)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// Everything a decoder reports for one stream.
    type Outcome = (
        Vec<Result<Event, SseError>>,
        Option<Result<Event, SseError>>,
        String,
        Option<u64>,
    );

    /// A deliberately naive model of the module doc's rules: whole input, lines split up front,
    /// no chunking, no streaming. The decoder must agree with it under any chunking.
    fn reference(input: &[u8], config: DecoderConfig) -> Outcome {
        // Held back by the decoder until finish(): 1 or 2 leading BOM bytes and nothing else.
        let only_bom_prefix =
            !input.is_empty() && input.len() < BOM.len() && BOM.starts_with(input);
        let input = input.strip_prefix(&BOM[..]).unwrap_or(input);
        let mut lines = Vec::new();
        let mut start = 0;
        let mut i = 0;
        while i < input.len() {
            match input[i] {
                b'\n' => {
                    lines.push(&input[start..i]);
                    start = i + 1;
                }
                b'\r' => {
                    lines.push(&input[start..i]);
                    if input.get(i + 1) == Some(&b'\n') {
                        i += 1;
                    }
                    start = i + 1;
                }
                _ => {}
            }
            i += 1;
        }
        let tail = &input[start..];
        let (max_line, max_event) = (config.max_line_bytes, config.max_event_bytes);
        let mut out = Vec::new();
        let (mut data, mut ty, mut id_buf, mut last_id) = (
            Vec::<u8>::new(),
            String::new(),
            String::new(),
            String::new(),
        );
        let (mut retry, mut poisoned, mut discarding) = (None, false, false);
        // Limit verdict for a line of `len` bytes; `data` = Some(value offset) for a data line.
        let verdict = |len: usize, value_at: Option<usize>, data_len: usize| {
            let line_at = max_line + 1;
            let data_at = value_at.map_or(usize::MAX, |v| v + (max_event + 1 - data_len));
            if len < line_at.min(data_at) {
                None
            } else if line_at <= data_at {
                Some(SseError::LineTooLong { limit: max_line })
            } else {
                Some(SseError::EventTooLarge { limit: max_event })
            }
        };
        for line in lines {
            if discarding {
                if line.is_empty() {
                    last_id = id_buf.clone();
                    discarding = false;
                }
                continue;
            }
            if line.is_empty() {
                last_id = id_buf.clone();
                if poisoned {
                    out.push(Err(SseError::InvalidUtf8));
                } else if !data.is_empty() {
                    data.pop();
                    out.push(match String::from_utf8(std::mem::take(&mut data)) {
                        Ok(d) => Ok(Event {
                            event_type: if ty.is_empty() {
                                "message".into()
                            } else {
                                ty.clone()
                            },
                            data: d,
                            last_event_id: last_id.clone(),
                        }),
                        Err(_) => Err(SseError::InvalidUtf8),
                    });
                }
                data.clear();
                ty.clear();
                poisoned = false;
                continue;
            }
            let (name, value, at) = if line[0] == b':' {
                (&line[..0], &line[1..], 1)
            } else {
                match line.iter().position(|&b| b == b':') {
                    Some(c) if line.get(c + 1) == Some(&b' ') => {
                        (&line[..c], &line[c + 2..], c + 2)
                    }
                    Some(c) => (&line[..c], &line[c + 1..], c + 1),
                    None => (line, &line[line.len()..], line.len()),
                }
            };
            let is_data = line[0] != b':' && name == b"data";
            if let Some(e) = verdict(line.len(), is_data.then_some(at), data.len()) {
                out.push(Err(e));
                discarding = true;
                data.clear();
                ty.clear();
                poisoned = false;
                continue;
            }
            let text = std::str::from_utf8(value);
            match (line[0] == b':', name) {
                (false, b"data") => {
                    data.extend_from_slice(value);
                    data.push(b'\n');
                }
                (false, b"retry") if !value.is_empty() && value.iter().all(u8::is_ascii_digit) => {
                    retry = Some(
                        std::str::from_utf8(value)
                            .unwrap()
                            .parse()
                            .unwrap_or(u64::MAX),
                    );
                }
                (false, b"event") if text.is_ok() => ty = text.unwrap().to_owned(),
                (false, b"id") if text.is_ok() => {
                    if !value.contains(&0) {
                        id_buf = text.unwrap().to_owned();
                    }
                }
                _ => poisoned |= text.is_err() || std::str::from_utf8(name).is_err(),
            }
        }
        let mut finish = None;
        if !discarding && !tail.is_empty() {
            // A partial line is known to be a data line once it holds `data:` and one more byte.
            let value_at = (tail.len() >= DATA_PROBE && tail.starts_with(b"data:")).then(|| {
                if tail[5] == b' ' {
                    6
                } else {
                    5
                }
            });
            if let Some(e) = verdict(tail.len(), value_at, data.len()) {
                if only_bom_prefix {
                    finish = Some(Err(e));
                } else {
                    out.push(Err(e));
                }
                discarding = true;
            }
        }
        if !discarding
            && (poisoned
                || std::str::from_utf8(&data).is_err()
                || std::str::from_utf8(tail).is_err())
        {
            finish = Some(Err(SseError::InvalidUtf8));
        }
        (out, finish, last_id, retry)
    }

    fn decode(input: &[u8], config: DecoderConfig, cuts: &[usize]) -> Outcome {
        let mut d = Decoder::new(config);
        let mut out = Vec::new();
        let mut from = 0;
        for &cut in cuts.iter().chain([input.len()].iter()) {
            out.extend(d.feed(&input[from..cut]));
            from = cut;
        }
        let finish = d.finish();
        (out, finish, d.last_event_id().to_owned(), d.retry_ms())
    }

    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    #[test]
    fn random_streams_match_the_reference_under_random_chunking() {
        const TOKENS: &[&[u8]] = &[
            b"data",
            b"data:",
            b"data: ",
            b":",
            b" ",
            b"\r",
            b"\n",
            b"\r\n",
            b"\n\n",
            b"id",
            b"id: ",
            b"event: ",
            b"event",
            b"retry: ",
            b"retry:",
            b"1",
            b"07",
            b"x",
            b"yz",
            b"\0",
            b"\xff",
            b"\xc3",
            b"\xa9",
            b"\xe2\x82",
            b"\xef\xbb\xbf",
            b"\xef\xbb",
            "é".as_bytes(),
        ];
        let mut rng = Rng(0x0123_4567_89AB_CDEF);
        for case in 0..30_000 {
            let mut input = Vec::new();
            for _ in 0..rng.below(60) {
                input.extend_from_slice(TOKENS[rng.below(TOKENS.len())]);
            }
            let config = if case % 3 == 0 {
                DecoderConfig::default()
            } else {
                DecoderConfig {
                    max_line_bytes: rng.below(14),
                    max_event_bytes: rng.below(14),
                }
            };
            let want = reference(&input, config);
            let mut cuts: Vec<usize> = (0..rng.below(6))
                .map(|_| rng.below(input.len() + 1))
                .collect();
            cuts.sort_unstable();
            let got = decode(&input, config, &cuts);
            assert_eq!(got, want, "input {input:?} config {config:?} cuts {cuts:?}");
        }
    }

    #[test]
    fn retry_too_large_for_u64_saturates() {
        let mut d = Decoder::default();
        assert_eq!(collect(&mut d, b"retry: 99999999999999999999999\n"), vec![]);
        assert_eq!(d.retry_ms(), Some(u64::MAX));
    }

    fn collect(d: &mut Decoder, bytes: &[u8]) -> Vec<Result<Event, SseError>> {
        d.feed(bytes).collect()
    }

    fn ev(t: &str, data: &str, id: &str) -> Result<Event, SseError> {
        Ok(Event {
            event_type: t.into(),
            data: data.into(),
            last_event_id: id.into(),
        })
    }

    #[test]
    fn find_line_end_matches_naive_scan() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for len in 0..200 {
            for _ in 0..20 {
                let hay: Vec<u8> = (0..len)
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        match seed % 40 {
                            0 => b'\n',
                            1 => b'\r',
                            2 => 0x8a,
                            3 => 0x8d,
                            4 => 0x0b,
                            5 => 0x09,
                            _ => (seed >> 8) as u8,
                        }
                    })
                    .collect();
                let naive = hay.iter().position(|&b| b == b'\n' || b == b'\r');
                assert_eq!(find_line_end(&hay), naive, "{hay:?}");
            }
        }
    }

    #[test]
    fn priming_event_is_dispatched_and_sets_retry() {
        let mut d = Decoder::default();
        let got = collect(&mut d, b"id: s-0\nretry: 500\ndata: \n\n");
        assert_eq!(got, vec![ev("message", "", "s-0")]);
        assert_eq!(d.retry_ms(), Some(500));
        assert_eq!(d.last_event_id(), "s-0");
        assert_eq!(d.finish(), None);
    }

    #[test]
    fn dropped_feed_keeps_its_items() {
        let mut d = Decoder::default();
        {
            let mut it = d.feed(b"data: a\n\ndata: b\n\n");
            assert_eq!(it.len(), 2);
            assert_eq!(it.next(), Some(ev("message", "a", "")));
        }
        assert_eq!(collect(&mut d, b""), vec![ev("message", "b", "")]);
    }

    #[test]
    fn feed_after_finish_is_an_error() {
        let mut d = Decoder::default();
        assert_eq!(collect(&mut d, b"data: a\n"), vec![]);
        assert_eq!(d.finish(), None);
        assert_eq!(d.finish(), None);
        assert_eq!(
            collect(&mut d, b"\n"),
            vec![Err(SseError::Finished)],
            "the pending event must not be completed after finish"
        );
        assert_eq!(collect(&mut d, b""), vec![]);
    }

    #[test]
    fn held_back_bom_prefix_is_input_at_finish() {
        let mut d = Decoder::default();
        assert_eq!(collect(&mut d, b"\xEF\xBB"), vec![]);
        assert_eq!(d.finish(), Some(Err(SseError::InvalidUtf8)));
    }

    #[test]
    fn memory_stays_within_limits_for_endless_lines() {
        let config = DecoderConfig {
            max_line_bytes: 1000,
            max_event_bytes: 3000,
        };
        for prefix in [&b"data: "[..], b"event: ", b": ", b"x"] {
            let mut d = Decoder::new(config);
            let mut errors = 0;
            errors += collect(&mut d, prefix).len();
            let chunk = [b'a'; 97];
            for _ in 0..1000 {
                errors += collect(&mut d, &chunk).len();
                assert!(d.line.capacity() <= 1000, "line {}", d.line.capacity());
                assert!(d.data.capacity() <= 3001, "data {}", d.data.capacity());
            }
            assert_eq!(errors, 1, "exactly one error for the event");
            assert_eq!(
                collect(&mut d, b"\n\ndata: ok\n\n"),
                vec![ev("message", "ok", "")]
            );
        }
    }

    #[test]
    fn memory_stays_within_limits_for_endless_events() {
        let config = DecoderConfig {
            max_line_bytes: 100,
            max_event_bytes: 1000,
        };
        let mut d = Decoder::new(config);
        let mut out = Vec::new();
        for _ in 0..1000 {
            out.extend(collect(
                &mut d,
                b"data: 0123456789012345678901234567890123456789\n",
            ));
            assert!(d.data.capacity() <= 1001, "data {}", d.data.capacity());
        }
        out.extend(collect(&mut d, b"\ndata: ok\n\n"));
        assert_eq!(
            out,
            vec![
                Err(SseError::EventTooLarge { limit: 1000 }),
                ev("message", "ok", "")
            ]
        );
    }

    #[test]
    fn data_exactly_at_the_limit_is_accepted() {
        let config = DecoderConfig {
            max_line_bytes: 100,
            max_event_bytes: 5,
        };
        let mut d = Decoder::new(config);
        assert_eq!(
            collect(&mut d, b"data: ab\ndata: cd\n\ndata: ab\ndata: cde\n\n"),
            vec![
                ev("message", "ab\ncd", ""),
                Err(SseError::EventTooLarge { limit: 5 })
            ]
        );
        assert_eq!(
            collect(&mut d, b"data: abcde\ndata\n\n"),
            vec![Err(SseError::EventTooLarge { limit: 5 })]
        );
    }
}
