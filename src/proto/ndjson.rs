//! Newline-delimited JSON framing for the stdio transport (MCP `basic/transports` "stdio": messages
//! are delimited by newlines and MUST NOT contain embedded newlines).
//!
//! CONTRACT (implemented by the framing work item; signatures fixed):
//! - `Decoder::new(max_line_bytes)`; `feed(&[u8]) -> Vec<Result<Message, NdjsonError>>` consumes the
//!   whole chunk; a trailing CR before LF is tolerated; blank lines are skipped; an over-long line is
//!   reported once as `LineTooLong` and skipped up to its newline (the decoder stays usable);
//!   `finish()` reports a non-empty unterminated tail as `Truncated`.
//! - `encode(&Message) -> Vec<u8>`: compact JSON plus `\n`.
//!
//! Memory: the decoder never holds more than `max_line_bytes + 1` bytes (the `+ 1` is room for the
//! CR of a CRLF line of exactly the limit). Input is consumed in whole chunks; complete lines that
//! lie entirely inside one chunk are parsed in place without copying.

use super::jsonrpc::{JsonRpcError, Message};
use std::fmt;

/// A line limit suitable for MCP traffic (tool lists and results of a few MiB).
pub const DEFAULT_MAX_LINE_BYTES: usize = 4 * 1024 * 1024;

/// How much of an offending line [`NdjsonError::InvalidMessage`] quotes, in bytes.
pub const QUOTE_BYTES: usize = 200;

/// Errors of the NDJSON framing layer.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum NdjsonError {
    /// A line exceeded the configured limit.
    LineTooLong {
        /// The configured limit.
        limit: usize,
    },
    /// A line was not UTF-8.
    InvalidUtf8,
    /// A line was not a valid JSON-RPC message; `line` is its start (at most 200 bytes).
    InvalidMessage {
        /// The decoding error.
        error: JsonRpcError,
        /// The beginning of the offending line, for diagnostics.
        line: String,
    },
    /// The stream ended inside a line.
    Truncated,
}

impl fmt::Display for NdjsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NdjsonError::LineTooLong { limit } => {
                write!(f, "a line on stdout exceeded the limit of {limit} bytes")
            }
            NdjsonError::InvalidUtf8 => f.write_str("a line on stdout was not valid UTF-8"),
            NdjsonError::InvalidMessage { error, line } => {
                write!(f, "the server printed a non-MCP line ({error}): {line:?}")
            }
            NdjsonError::Truncated => f.write_str("stdout ended in the middle of a line"),
        }
    }
}

impl std::error::Error for NdjsonError {}

/// The push decoder: bytes in (any chunking), one result per non-blank line out.
#[derive(Debug)]
pub struct Decoder {
    max_line_bytes: usize,
    /// The bytes of the current unterminated line (at most `max_line_bytes + 1`).
    buf: Vec<u8>,
    /// The current line overflowed and was reported; drop bytes up to the next LF.
    discarding: bool,
    /// No line has completed yet (a UTF-8 byte order mark is dropped from the first line).
    at_start: bool,
}

impl Decoder {
    /// A decoder accepting lines of at most `max_line_bytes` (not counting the LF and an optional CR
    /// before it).
    pub fn new(max_line_bytes: usize) -> Self {
        Self {
            max_line_bytes,
            buf: Vec::new(),
            discarding: false,
            at_start: true,
        }
    }

    /// Bytes currently held for an unterminated line.
    pub fn buffered(&self) -> usize {
        self.buf.len()
    }

    /// Pushes bytes; returns each message (or error) completed by them, in stream order.
    ///
    /// stdio: "Messages are delimited by newlines" — each LF ends a line; a CR right before it is
    /// dropped; lines holding only whitespace are skipped.
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<Result<Message, NdjsonError>> {
        let mut out = Vec::new();
        let mut rest = chunk;
        while !rest.is_empty() {
            match rest.iter().position(|&b| b == b'\n') {
                Some(nl) => {
                    let (line, tail) = (&rest[..nl], &rest[nl + 1..]);
                    rest = tail;
                    if self.discarding {
                        // The over-long line ends here; it was already reported.
                        self.discarding = false;
                        self.at_start = false;
                        continue;
                    }
                    if self.buf.is_empty() {
                        self.complete(line, &mut out);
                    } else if self.append(line, &mut out) {
                        let line = std::mem::take(&mut self.buf);
                        self.complete(&line, &mut out);
                        // Keep the allocation for the next line.
                        self.buf = line;
                        self.buf.clear();
                    } else {
                        // Overflowed (and reported) by its last part: the line is over.
                        self.discarding = false;
                        self.at_start = false;
                    }
                }
                None => {
                    if !self.discarding {
                        self.append(rest, &mut out);
                    }
                    rest = &[];
                }
            }
        }
        out
    }

    /// Signals end of stream. Returns [`NdjsonError::Truncated`] when an unterminated line holding
    /// anything but whitespace (or an over-long line without its newline) was pending; the decoder
    /// is then reset and may be fed a new stream.
    pub fn finish(&mut self) -> Option<NdjsonError> {
        let truncated = self.discarding || !is_blank(&self.buf);
        self.buf.clear();
        self.discarding = false;
        self.at_start = true;
        truncated.then_some(NdjsonError::Truncated)
    }

    /// Appends part of a line to the buffer; returns `false` (after reporting once) when the line
    /// became too long. Room is `limit + 1` so a CR of a CRLF line of exactly the limit fits.
    fn append(&mut self, part: &[u8], out: &mut Vec<Result<Message, NdjsonError>>) -> bool {
        if self.buf.len() + part.len() > self.max_line_bytes.saturating_add(1) {
            self.overflow(out);
            return false;
        }
        self.buf.extend_from_slice(part);
        true
    }

    fn overflow(&mut self, out: &mut Vec<Result<Message, NdjsonError>>) {
        self.buf.clear();
        self.buf.shrink_to(self.max_line_bytes.min(64 * 1024));
        self.discarding = true;
        out.push(Err(NdjsonError::LineTooLong {
            limit: self.max_line_bytes,
        }));
    }

    /// Decodes one complete line (without its LF).
    fn complete(&mut self, line: &[u8], out: &mut Vec<Result<Message, NdjsonError>>) {
        let mut line = line.strip_suffix(b"\r").unwrap_or(line);
        if std::mem::replace(&mut self.at_start, false) {
            line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
        }
        if line.len() > self.max_line_bytes {
            out.push(Err(NdjsonError::LineTooLong {
                limit: self.max_line_bytes,
            }));
            return;
        }
        if is_blank(line) {
            return;
        }
        let Ok(text) = std::str::from_utf8(line) else {
            out.push(Err(NdjsonError::InvalidUtf8));
            return;
        };
        out.push(
            Message::parse(text).map_err(|error| NdjsonError::InvalidMessage {
                error,
                line: quote(text).to_owned(),
            }),
        );
    }
}

impl Default for Decoder {
    /// A decoder with [`DEFAULT_MAX_LINE_BYTES`].
    fn default() -> Self {
        Self::new(DEFAULT_MAX_LINE_BYTES)
    }
}

fn is_blank(bytes: &[u8]) -> bool {
    bytes.iter().all(u8::is_ascii_whitespace)
}

/// The first [`QUOTE_BYTES`] bytes of `text`, cut back to a char boundary.
fn quote(text: &str) -> &str {
    if text.len() <= QUOTE_BYTES {
        return text;
    }
    let mut end = QUOTE_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Encodes one message as a line: compact JSON (which never holds a raw newline: JSON escapes
/// control characters inside strings) followed by `\n`, as stdio requires.
pub fn encode(message: &Message) -> Vec<u8> {
    let mut v = message.to_json().into_bytes();
    v.push(b'\n');
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn quote_cuts_at_char_boundary() {
        let s = "é".repeat(150); // 300 bytes, 2 per char
        assert_eq!(quote(&s).len(), 200);
        let s = format!("a{}", "é".repeat(150)); // boundary falls inside a char at 200
        assert_eq!(quote(&s).len(), 199);
        assert_eq!(quote("short"), "short");
    }

    #[test]
    fn memory_stays_within_limit() {
        let mut d = Decoder::new(16);
        for _ in 0..1000 {
            let r = d.feed(b"0123456789");
            assert!(d.buffered() <= 17, "{}", d.buffered());
            assert!(r.len() <= 1);
        }
        assert_eq!(d.finish(), Some(NdjsonError::Truncated));
    }
}
