//! Incremental (push) decoder for `text/event-stream`, per the WHATWG HTML Living Standard,
//! "Server-sent events" § 9.2.6 "Interpreting an event stream".
//!
//! ```text
//!   bytes (any chunking) ──► feed() ──► UTF-8 runs ──► lines (LF | CR | CRLF) ──► fields ──► blank line ──► Event
//!                                                                                  └─► id / retry state
//! ```
//!
//! CONTRACT (other modules rely on it):
//! - `Decoder::new(DecoderConfig)`, `Decoder::default()`.
//! - `feed(&mut self, chunk: &[u8]) -> Feed<'_>`: consumes the WHOLE chunk eagerly and returns an
//!   iterator over the events (and errors) it completed, in order. Partial input is not an error.
//!   Items not taken from a [`Feed`] before it is dropped stay queued and come out of the next `feed`.
//! - `finish(&mut self) -> Option<Result<Event, SseError>>`: end of stream. Per WHATWG an incomplete
//!   event at EOF is discarded, so this only reports an error state (invalid or truncated UTF-8 in a
//!   used field of the discarded tail), else None. A finished decoder is not reusable: make a new
//!   one per stream.
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
//! - WHATWG decodes with replacement characters; this decoder never hands out a replaced value.
//!   Bytes that are not UTF-8 matter only where a value is used: in the value of a `data` field, of an
//!   `event` field, or of an `id` field that is not ignored for a NUL, they *poison* the event, which
//!   then comes out as exactly one `Err(SseError::InvalidUtf8)` at its blank line (whether or not it
//!   had data); the other lines of that event are still processed (an `id` or `retry` in it takes
//!   effect). Elsewhere they change nothing, as replacement characters would not: a comment, a field
//!   whose name holds them (an unknown field) or a `retry` value holding them (not digits) is ignored.
//! - Limits (`DecoderConfig`): a line longer than `max_line_bytes` (terminator excluded), or an event
//!   whose dispatched data would exceed `max_event_bytes`, yields one error as soon as the limit is
//!   crossed (even mid-line, mid-chunk). The event is dropped, its buffers freed, and every further
//!   line up to its blank line is skipped unread. When one data line crosses both limits, the error
//!   names the limit crossed at the earlier byte (the line limit on a tie), so the verdict never
//!   depends on chunking. Limits count input bytes, valid or not.
//!
//! # Cost
//! Each chunk is validated as UTF-8 once, as a whole (`simdutf8` natively, `str::from_utf8` on
//! wasm); lines are found with `memchr`; the buffers are `String`s fed from the validated text, so
//! a dispatched event needs no second validation. `data` values are copied once, straight from the input into the data buffer —
//! also when a line spans chunks — and the buffer becomes [`Event::data`] without another copy.
//! Bytes that are not UTF-8 (and the up to three bytes of a character split across chunks, until the
//! next chunk completes it) stand in the buffers as one `?` each, so buffer lengths, and with them
//! the limits, count input bytes; an event holding such a stand-in in its data is never dispatched.
//!
//! # Memory
//! The line buffer holds at most `max(max_line_bytes, 9)` bytes, the data buffer at most
//! `max_event_bytes + 1`, the type and id buffers at most `max_line_bytes` each. The queue behind
//! [`Feed`] holds what one chunk completed.

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

impl DecoderConfig {
    /// Bytes a line may hold beyond its event's data: the field name, its colon and a space
    /// (`data: `), with room to spare.
    pub const LINE_SLACK: usize = 64;

    /// Limits for events of at most `max_event_bytes` of data: a line may hold a whole event
    /// plus its field name ([`Self::LINE_SLACK`]), so events reach their own limit first.
    pub fn for_events_of(max_event_bytes: usize) -> Self {
        Self {
            max_line_bytes: max_event_bytes.saturating_add(Self::LINE_SLACK),
            max_event_bytes,
        }
    }
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
    /// The value of a `data`, `event` or `id` field of the event was not valid UTF-8 (or, from
    /// `finish`, the stream ended inside such a value or inside an event holding one); the event was
    /// discarded.
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
            SseError::InvalidUtf8 => f.write_str("event-stream field value is not valid UTF-8"),
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
/// Stand-ins for input bytes that are not (or not yet known to be) UTF-8: one ASCII byte each, none
/// of them a colon, space, digit, NUL, CR or LF, so they never change how a line is read.
const STAND_INS: &str = "????";

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

/// The up to three bytes of a UTF-8 sequence that the input so far ends inside. They already
/// count in the current line (as stand-ins at the end of the buffer it writes to), so a limit is
/// reported at the byte that crosses it; the next bytes decide whether the stand-ins are replaced
/// by the character or stay, as invalid bytes.
#[derive(Debug, Clone, Copy, Default)]
struct SplitChar {
    bytes: [u8; 4],
    len: usize,
}

/// The push decoder. One per response body.
#[derive(Debug)]
pub struct Decoder {
    config: DecoderConfig,
    bom: Bom,
    /// The previous chunk ended with the CR of a line terminator: a leading LF is its second half.
    cr_pending: bool,
    split: SplitChar,
    mode: LineMode,
    /// The current line while `mode` is `Buffered` (stand-ins for bytes that are not UTF-8).
    line: String,
    /// `line` holds stand-ins for bytes that are not UTF-8.
    line_invalid: bool,
    /// WHATWG "data buffer".
    data: String,
    /// WHATWG "event type buffer".
    event_type: String,
    /// WHATWG "last event ID buffer".
    id_buffer: String,
    /// WHATWG "last event ID string" (set from the buffer at every blank line).
    last_event_id: String,
    /// WHATWG "reconnection time", once a valid `retry` field set it.
    retry: Option<u64>,
    /// A used field value of the current event was not UTF-8.
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
            split: SplitChar::default(),
            mode: LineMode::Start,
            line: String::new(),
            line_invalid: false,
            data: String::new(),
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
                self.input(&BOM[..before]);
            }
        }
        self.input(rest);
        Feed {
            queue: &mut self.out,
        }
    }

    /// Signals end of stream. The incomplete event, if any, is discarded (WHATWG: "any pending
    /// data must be discarded"). Returns `Some(Err(SseError::InvalidUtf8))` when that discarded
    /// event held invalid or truncated UTF-8 in a used field value (see the module doc), and `None`
    /// otherwise (except for a stream made only of one or two BOM bytes: under a `max_line_bytes`
    /// below 2 their limit error is returned here). Later calls return `None`; later non-empty
    /// `feed`s yield `SseError::Finished`. Items still queued from a dropped [`Feed`] are not
    /// returned here; `feed(&[])` yields them.
    pub fn finish(&mut self) -> Option<Result<Event, SseError>> {
        if self.finished {
            return None;
        }
        let queued = self.out.len();
        if let Bom::Pending(held) = self.bom {
            // The stream was only a BOM prefix: those bytes are an incomplete first line. With a
            // `max_line_bytes` below 2 they can break the limit; that error is returned here.
            self.bom = Bom::Done;
            self.input(&BOM[..held]);
        }
        // The stream ended inside a character: its bytes are not UTF-8.
        if self.split.len > 0 {
            self.split.len = 0;
            self.split_char_invalid();
        }
        let limit_error = (self.out.len() > queued)
            .then(|| self.out.pop_back())
            .flatten();
        self.finished = true;
        let bad = !self.discarding
            && (self.poisoned
                || (matches!(self.mode, LineMode::Buffered)
                    && self.line_invalid
                    && poisons(&self.line)));
        self.mode = LineMode::Start;
        self.cr_pending = false;
        self.line = String::new();
        self.line_invalid = false;
        self.data = String::new();
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

    /// Splits input bytes into UTF-8 text, bytes that are not UTF-8, and a character left
    /// incomplete at the end, and routes each. One `str::from_utf8` over the whole input decides the
    /// common case.
    fn input(&mut self, mut bytes: &[u8]) {
        while self.split.len > 0 && !bytes.is_empty() {
            bytes = self.complete_split_char(bytes);
        }
        if bytes.is_empty() {
            return;
        }
        match validate_utf8(bytes) {
            Ok(text) => self.text(text),
            Err(Utf8Fault {
                valid_up_to,
                error_len: None,
            }) => {
                // Valid up to a character that the next chunk completes.
                let (head, tail) = bytes.split_at(valid_up_to);
                if let Ok(text) = validate_utf8(head) {
                    self.text(text);
                }
                self.split_char_start(tail);
            }
            Err(_) => {
                let mut runs = bytes.utf8_chunks().peekable();
                while let Some(run) = runs.next() {
                    if !run.valid().is_empty() {
                        self.text(run.valid());
                    }
                    let bad = run.invalid();
                    if bad.is_empty() {
                        continue;
                    }
                    if runs.peek().is_none() && is_char_prefix(bad) {
                        self.split_char_start(bad);
                        continue;
                    }
                    self.cr_pending = false;
                    for piece in bad.chunks(STAND_INS.len()) {
                        self.extend_line(&STAND_INS[..piece.len()], true);
                    }
                }
            }
        }
    }

    /// The input so far ends with `bytes`, the start of a character: they count as stand-ins now.
    fn split_char_start(&mut self, bytes: &[u8]) {
        let have = self.split.len;
        let n = bytes.len().min(self.split.bytes.len() - have);
        self.split.bytes[have..have + n].copy_from_slice(&bytes[..n]);
        self.split.len += n;
        self.cr_pending = false;
        self.extend_line(&STAND_INS[..n], false);
    }

    /// Continues the split character with the first bytes of `bytes`: a completed character
    /// replaces its stand-ins, an invalid sequence leaves them marked invalid. Returns the rest.
    fn complete_split_char<'b>(&mut self, bytes: &'b [u8]) -> &'b [u8] {
        let have = self.split.len;
        let take = bytes.len().min(self.split.bytes.len() - have);
        let mut joined = self.split.bytes;
        joined[have..have + take].copy_from_slice(&bytes[..take]);
        let joined = &joined[..have + take];
        match first_char(joined) {
            FirstChar::Complete(text) => {
                self.split.len = 0;
                self.retract(have);
                let len = text.len();
                self.text(text);
                &bytes[len.saturating_sub(have)..]
            }
            FirstChar::Invalid(len) => {
                self.split.len = 0;
                self.split_char_invalid();
                // A prefix of a character goes wrong only after its last byte: the invalid
                // sequence covers all `have` held bytes and maybe some new ones.
                let extra = len.saturating_sub(have);
                if extra > 0 {
                    self.extend_line(&STAND_INS[..extra], true);
                }
                &bytes[extra..]
            }
            FirstChar::Incomplete => {
                // Still inside the character (only a chunk this short ends there).
                self.split_char_start(&bytes[..take]);
                &bytes[take..]
            }
        }
    }

    /// Removes the `n` stand-ins of a split character from the end of the buffer the current line
    /// writes to (the character is about to be appended in full).
    fn retract(&mut self, n: usize) {
        match self.mode {
            LineMode::Buffered => {
                let keep = self.line.len().saturating_sub(n);
                self.line.truncate(keep);
            }
            LineMode::Data { line, len } => {
                let keep = self.data.len().saturating_sub(n);
                self.data.truncate(keep);
                self.mode = LineMode::Data {
                    line,
                    len: len.saturating_sub(n),
                };
            }
            LineMode::Start | LineMode::Skip => {}
        }
    }

    /// The stand-ins of a split character turned out to be invalid UTF-8.
    fn split_char_invalid(&mut self) {
        match self.mode {
            LineMode::Buffered => self.line_invalid = true,
            LineMode::Data { .. } => self.poisoned = true,
            LineMode::Start | LineMode::Skip => {}
        }
    }

    /// Splits valid text into lines and routes each piece.
    fn text(&mut self, mut rest: &str) {
        if self.cr_pending {
            if rest.is_empty() {
                return;
            }
            self.cr_pending = false;
            if let Some(after) = rest.strip_prefix('\n') {
                rest = after;
            }
        }
        while let Some(end) = memchr::memchr2(b'\n', b'\r', rest.as_bytes()) {
            let (line, tail) = rest.split_at(end);
            self.end_line(line);
            rest = match tail.as_bytes() {
                [b'\r', b'\n', ..] => &tail[2..],
                [b'\r'] => {
                    self.cr_pending = true;
                    return;
                }
                _ => &tail[1..],
            };
        }
        if !rest.is_empty() {
            self.extend_line(rest, false);
        }
    }

    /// `seg` is the final piece of the current line (its terminator was just found).
    #[inline]
    fn end_line(&mut self, seg: &str) {
        match self.mode {
            LineMode::Start if self.discarding => {
                if seg.is_empty() {
                    self.end_discarded_event();
                }
            }
            LineMode::Start => self.complete_line(seg, false),
            LineMode::Skip => self.mode = LineMode::Start,
            LineMode::Data { line, len } => {
                self.mode = LineMode::Start;
                self.append_data(line, len, seg, true);
            }
            LineMode::Buffered => {
                let rest = self.probe(seg, false);
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
                        line.push_str(rest);
                        let invalid = std::mem::take(&mut self.line_invalid);
                        self.complete_line(&line, invalid);
                        line.clear();
                        self.line = line;
                    }
                }
            }
        }
    }

    /// `seg` (no terminator in it) continues the current line, which stays incomplete; `invalid`
    /// when `seg` is made of stand-ins for bytes that are not UTF-8.
    fn extend_line(&mut self, seg: &str, invalid: bool) {
        match self.mode {
            LineMode::Skip => {}
            LineMode::Start if self.discarding => self.mode = LineMode::Skip,
            LineMode::Data { line, len } => self.append_data_invalid(line, len, seg, invalid),
            LineMode::Start | LineMode::Buffered => {
                self.mode = LineMode::Buffered;
                let rest = self.probe(seg, invalid);
                match self.mode {
                    LineMode::Data { line, len } => {
                        self.append_data_invalid(line, len, rest, invalid);
                    }
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
                        self.line.push_str(rest);
                        self.line_invalid |= invalid && !rest.is_empty();
                    }
                }
            }
        }
    }

    /// Appends a piece of an unterminated `data` line; stand-ins poison the event (unless the piece
    /// broke a limit, which discards it anyway).
    fn append_data_invalid(&mut self, line: DataLine, len: usize, seg: &str, invalid: bool) {
        self.append_data(line, len, seg, false);
        if invalid && !seg.is_empty() && matches!(self.mode, LineMode::Data { .. }) {
            self.poisoned = true;
        }
    }

    /// While a buffered line is shorter than [`DATA_PROBE`], moves characters from `seg` into it
    /// until it is known whether it is a `data:` line. If it is, switches to `LineMode::Data` (its
    /// value bytes so far go to the data buffer; an overflow switches to `LineMode::Skip`). Returns
    /// the unconsumed part of `seg`.
    fn probe<'s>(&mut self, seg: &'s str, invalid: bool) -> &'s str {
        let have = self.line.len();
        if have >= DATA_PROBE {
            return seg;
        }
        let mut take = (DATA_PROBE - have).min(seg.len());
        while !seg.is_char_boundary(take) {
            take += 1;
        }
        let (head, rest) = seg.split_at(take);
        self.line.push_str(head);
        self.line_invalid |= invalid && !head.is_empty();
        if self.line.len() >= DATA_PROBE && self.line.starts_with("data:") {
            let value_start = if self.line.as_bytes()[5] == b' ' {
                6
            } else {
                5
            };
            let line = DataLine {
                value_start,
                data_start: self.data.len(),
            };
            let mut buffered = std::mem::take(&mut self.line);
            let tainted = std::mem::take(&mut self.line_invalid);
            self.append_data(line, value_start, &buffered[value_start..], false);
            if tainted && matches!(self.mode, LineMode::Data { .. }) {
                self.poisoned = true;
            }
            buffered.clear();
            self.line = buffered;
        }
        rest
    }

    /// Appends value bytes of a `data` line of which `len` bytes were seen; `done` when `seg` ends
    /// the line (then the WHATWG LF is appended too). Sets `LineMode::Data` when not done, or
    /// `LineMode::Skip` on an overflow mid-line.
    #[inline]
    fn append_data(&mut self, line: DataLine, len: usize, seg: &str, done: bool) {
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
        self.data.push_str(seg);
        if done {
            // WHATWG "data": "append a single U+000A LINE FEED (LF) character to the data buffer".
            self.data.push('\n');
        } else {
            self.mode = LineMode::Data { line, len: total };
        }
    }

    /// Interprets one whole line (WHATWG § 9.2.6 line rules); `invalid` when it holds stand-ins for
    /// bytes that are not UTF-8.
    #[inline]
    fn complete_line(&mut self, line: &str, invalid: bool) {
        if line.is_empty() {
            // "If the line is empty (a blank line): Dispatch the event".
            self.dispatch();
            return;
        }
        let Some(field) = Field::parse(line) else {
            // "If the line starts with a U+003A COLON character (:): Ignore the line."
            if let Some(err) = self.limit_error(line.len(), None) {
                self.overflow(err);
            }
            return;
        };
        let data_line = (field.name == "data").then_some(DataLine {
            value_start: field.value_start,
            data_start: self.data.len(),
        });
        if let Some(err) = self.limit_error(line.len(), data_line) {
            self.overflow(err);
            return;
        }
        // A known name holds no stand-in, so `invalid` means: stand-ins in the value.
        let value = field.value;
        match field.name {
            "data" => {
                let cap = self.data_capacity();
                grow(&mut self.data, value.len() + 1, cap);
                self.data.push_str(value);
                self.data.push('\n');
                self.poisoned |= invalid;
            }
            "event" if invalid => self.poisoned = true,
            "event" => {
                self.event_type.clear();
                self.event_type.push_str(value);
            }
            // "If the field value does not contain U+0000 NULL, then set the last event ID buffer
            // to the field value. Otherwise, ignore the field."
            "id" if value.contains('\0') => {}
            "id" if invalid => self.poisoned = true,
            "id" => {
                self.id_buffer.clear();
                self.id_buffer.push_str(value);
            }
            // "If the field value consists of only ASCII digits, then interpret the field value as
            // an integer in base ten, and set the event stream's reconnection time to that
            // integer. Otherwise, ignore the field." (Stand-ins are not digits.)
            "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                let ms = value.bytes().fold(0u64, |acc, d| {
                    acc.saturating_mul(10).saturating_add(u64::from(d - b'0'))
                });
                self.retry = Some(ms);
            }
            // "Otherwise: The field is ignored."
            _ => {}
        }
    }

    /// WHATWG § 9.2.6 "Dispatch the event", steps 1–7 (a blank line outside a discarded event).
    #[inline]
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
        if self.data.ends_with('\n') {
            self.data.pop();
        }
        // Steps 5–7: type defaults to "message"; the data and type buffers are reset (taken).
        let event_type = if self.event_type.is_empty() {
            String::from("message")
        } else {
            std::mem::take(&mut self.event_type)
        };
        self.out.push_back(Ok(Event {
            event_type,
            data: std::mem::take(&mut self.data),
            last_event_id: self.last_event_id.clone(),
        }));
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
    #[inline]
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
        self.line = String::new();
        self.line_invalid = false;
        self.data = String::new();
        self.event_type = String::new();
        self.poisoned = false;
        self.discarding = true;
    }

    #[inline]
    fn line_capacity(&self) -> usize {
        // The probe may hold `DATA_PROBE` bytes and the rest of a character.
        self.config.max_line_bytes.max(DATA_PROBE + 3)
    }

    #[inline]
    fn data_capacity(&self) -> usize {
        self.config.max_event_bytes.saturating_add(1)
    }
}

/// Where a chunk stops being UTF-8, as [`std::str::Utf8Error`] reports it.
#[derive(Debug, PartialEq, Eq)]
struct Utf8Fault {
    valid_up_to: usize,
    /// `None` when the chunk ends inside a character that more bytes may complete.
    error_len: Option<usize>,
}

impl From<std::str::Utf8Error> for Utf8Fault {
    fn from(e: std::str::Utf8Error) -> Self {
        Utf8Fault {
            valid_up_to: e.valid_up_to(),
            error_len: e.error_len(),
        }
    }
}

/// Validates one chunk. Native builds use `simdutf8`'s std-compatible validator (SIMD; the same
/// verdict and error position as `str::from_utf8`, and most of the decoder's time is this check);
/// wasm builds use `core`'s, which the package links anyway.
#[cfg(not(target_family = "wasm"))]
fn validate_utf8(bytes: &[u8]) -> Result<&str, Utf8Fault> {
    simdutf8::compat::from_utf8(bytes).map_err(|e| Utf8Fault {
        valid_up_to: e.valid_up_to(),
        error_len: e.error_len(),
    })
}

#[cfg(target_family = "wasm")]
fn validate_utf8(bytes: &[u8]) -> Result<&str, Utf8Fault> {
    std::str::from_utf8(bytes).map_err(Utf8Fault::from)
}

/// A line split into field name and value (WHATWG § 9.2.6: "If the line contains a U+003A COLON
/// character": split at the first colon and strip one leading space from the value; "Otherwise":
/// the whole line is the name, the value is empty).
struct Field<'l> {
    name: &'l str,
    value: &'l str,
    /// Offset of the value in the line.
    value_start: usize,
}

impl<'l> Field<'l> {
    /// `None` for a comment (a line starting with a colon).
    #[inline]
    fn parse(line: &'l str) -> Option<Self> {
        // Known names are short: look at the first bytes directly, the rest with memchr.
        let bytes = line.as_bytes();
        let head = bytes.len().min(8);
        let colon = match bytes[..head].iter().position(|&b| b == b':') {
            Some(at) => Some(at),
            None => memchr::memchr(b':', &bytes[head..]).map(|at| head + at),
        };
        match colon {
            Some(0) => None,
            Some(colon) => {
                let start = if line.as_bytes().get(colon + 1) == Some(&b' ') {
                    colon + 2
                } else {
                    colon + 1
                };
                Some(Field {
                    name: &line[..colon],
                    value: &line[start..],
                    value_start: start,
                })
            }
            None => Some(Field {
                name: line,
                value: "",
                value_start: line.len(),
            }),
        }
    }
}

/// Whether a line holding stand-ins for bytes that are not UTF-8 poisons its event: when they sit
/// in a used value (`data`, `event`, or an `id` without NUL). A known name holds no stand-in.
fn poisons(line: &str) -> bool {
    match Field::parse(line) {
        Some(Field { name: "data", .. }) | Some(Field { name: "event", .. }) => true,
        Some(Field {
            name: "id", value, ..
        }) => !value.contains('\0'),
        _ => false,
    }
}

/// Makes room for `extra` more bytes, doubling but never past `cap` (unless the exact need does).
#[inline]
fn grow(buf: &mut String, extra: usize, cap: usize) {
    let need = buf.len() + extra;
    if need > buf.capacity() {
        let target = need.max(buf.capacity().saturating_mul(2).min(cap));
        buf.reserve_exact(target - buf.len());
    }
}

/// How a byte sequence starts.
enum FirstChar<'b> {
    /// With this whole character.
    Complete(&'b str),
    /// With this many bytes that are not UTF-8.
    Invalid(usize),
    /// With the beginning of a character that the bytes end inside.
    Incomplete,
}

/// Classifies the start of `bytes` (non-empty, at most four bytes).
fn first_char(bytes: &[u8]) -> FirstChar<'_> {
    let valid = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) if e.valid_up_to() > 0 => {
            std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default()
        }
        Err(e) => {
            return match e.error_len() {
                Some(len) => FirstChar::Invalid(len),
                None => FirstChar::Incomplete,
            }
        }
    };
    match valid.chars().next() {
        Some(c) => FirstChar::Complete(&valid[..c.len_utf8()]),
        None => FirstChar::Invalid(bytes.len().max(1)),
    }
}

/// Whether `bytes` are the beginning of a character (valid so far, incomplete).
fn is_char_prefix(bytes: &[u8]) -> bool {
    matches!(std::str::from_utf8(bytes), Err(e) if e.valid_up_to() == 0 && e.error_len().is_none())
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
            // Invalid UTF-8 matters only in used values: data (checked at dispatch), event, and
            // an id without NUL. Comments, unknown fields and retry ignore it.
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
                (false, b"event") => match text {
                    Ok(t) => ty = t.to_owned(),
                    Err(_) => poisoned = true,
                },
                (false, b"id") if !value.contains(&0) => match text {
                    Ok(t) => id_buf = t.to_owned(),
                    Err(_) => poisoned = true,
                },
                _ => {}
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
        // The discarded tail poisons when a used value in it is not UTF-8.
        let tail_bad = match tail.first() {
            None | Some(b':') => false,
            Some(_) => {
                let (name, value) = match tail.iter().position(|&b| b == b':') {
                    Some(c) if tail.get(c + 1) == Some(&b' ') => (&tail[..c], &tail[c + 2..]),
                    Some(c) => (&tail[..c], &tail[c + 1..]),
                    None => (tail, &tail[tail.len()..]),
                };
                let used =
                    name == b"data" || name == b"event" || (name == b"id" && !value.contains(&0));
                used && std::str::from_utf8(value).is_err()
            }
        };
        if !discarding && (poisoned || std::str::from_utf8(&data).is_err() || tail_bad) {
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
            "😀".as_bytes(),
            b"\xf0\x9f",
            b"\x98\x80",
            b"\xed\xa0",
            b"?",
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

    /// The chunk validator (SIMD natively) reports what `str::from_utf8` reports, also for long
    /// chunks, where the SIMD code runs, with faults anywhere and characters cut at the end.
    #[test]
    fn chunk_validation_agrees_with_std() {
        const PIECES: &[&[u8]] = &[
            b"data: {\"jsonrpc\":\"2.0\"}\n",
            "résumé ✓ 😀 ".as_bytes(),
            b"\xff",
            b"\xc3",
            b"\xe2\x82",
            b"\xf0\x9f\x98",
            b"\xed\xa0\x80",
            b"\xc0\xaf",
            b"\x80",
        ];
        let mut rng = Rng(0x5EED_0FC4_A25E_7500);
        for case in 0..20_000 {
            // Long ASCII/UTF-8 runs with at most one piece that is not UTF-8 on its own.
            let mut input = Vec::new();
            for _ in 0..rng.below(400) {
                input.extend_from_slice(PIECES[rng.below(2)]);
            }
            if case % 4 != 0 {
                let at = rng.below(input.len() + 1);
                let bad = PIECES[2 + rng.below(PIECES.len() - 2)];
                input.splice(at..at, bad.iter().copied());
            }
            let want = std::str::from_utf8(&input).map_err(Utf8Fault::from);
            assert_eq!(validate_utf8(&input), want, "input {input:?}");
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
        // The two bytes are the name of an unterminated field: not UTF-8, but not a used value.
        let mut d = Decoder::default();
        assert_eq!(collect(&mut d, b"\xEF\xBB"), vec![]);
        assert_eq!(d.finish(), None);
        // Behind `event:` they are.
        let mut d = Decoder::default();
        assert_eq!(collect(&mut d, b"event:\xEF\xBB"), vec![]);
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
