//! Newline-delimited JSON framing for the stdio transport (MCP `basic/transports` "stdio": messages
//! are delimited by newlines and MUST NOT contain embedded newlines).
//!
//! CONTRACT (implemented by the framing work item; signatures fixed):
//! - `Decoder::new(max_line_bytes)`; `feed(&[u8]) -> Vec<Result<Message, NdjsonError>>` consumes the
//!   whole chunk; a trailing CR before LF is tolerated; blank lines are skipped; an over-long line is
//!   reported once as `LineTooLong` and skipped up to its newline (the decoder stays usable);
//!   `finish()` reports a non-empty unterminated tail as `Truncated`.
//! - `encode(&Message) -> Vec<u8>`: compact JSON plus `\n`.

use super::jsonrpc::{JsonRpcError, Message};

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

/// The push decoder.
#[derive(Debug)]
pub struct Decoder {
    max_line_bytes: usize,
}

impl Decoder {
    /// A decoder accepting lines of at most `max_line_bytes`.
    pub fn new(max_line_bytes: usize) -> Self {
        Self { max_line_bytes }
    }
    /// Pushes bytes; returns each message (or error) completed by them.
    pub fn feed(&mut self, _chunk: &[u8]) -> Vec<Result<Message, NdjsonError>> {
        let _ = self.max_line_bytes;
        Vec::new()
    }
    /// Signals end of stream.
    pub fn finish(&mut self) -> Option<NdjsonError> {
        None
    }
}

/// Encodes one message as a line.
pub fn encode(message: &Message) -> Vec<u8> {
    let mut v = message.to_json().into_bytes();
    v.push(b'\n');
    v
}
