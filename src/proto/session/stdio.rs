//! The stdio framing of the session (MCP `basic/transports/stdio`): one newline-delimited JSON
//! channel in each direction. The same flows as over HTTP; only the framing differs.

use super::{Event, ExchangeId, Framing, OpId, Phase, ProtocolError, Session};
use crate::proto::ndjson::NdjsonError;

impl Session {
    /// stdio: the next line to write to the server's stdin (terminated by `\n`).
    pub fn poll_line(&mut self) -> Option<Vec<u8>> {
        loop {
            if let Some(line) = self.lines.pop_front() {
                return Some(line);
            }
            // A notification or reply is done once written.
            let purpose = self.written.pop_front()?;
            self.accepted(&purpose, self.last_now);
        }
    }

    /// stdio: feeds bytes the server wrote to its stdout.
    pub fn handle_stdio(&mut self, bytes: &[u8], now: u64) {
        self.last_now = now;
        for item in self.stdout.feed(bytes) {
            match item {
                Ok(msg) => self.route(ExchangeId(0), msg, now),
                Err(NdjsonError::InvalidMessage { line, .. }) => self.bad_stdout(line, now),
                Err(e) => self.bad_stdout(format!("{e:?}"), now),
            }
        }
    }

    /// stdio: the server's stdout closed (the process exited): every running op fails.
    pub fn handle_stdio_closed(&mut self, reason: &str, now: u64) {
        let ops: Vec<OpId> = self.ops.keys().copied().collect();
        for op in ops {
            self.finish(op, Err(ProtocolError::Network(reason.to_string())), now);
        }
        if self.phase != Phase::Closed {
            self.phase = Phase::Idle;
        }
        self.events.push_back(Event::Closed);
    }

    /// A line on stdout that is not a message: fatal while connecting (the server is not speaking
    /// MCP on stdout), a diagnostic afterwards.
    fn bad_stdout(&mut self, line: String, now: u64) {
        match self.phase {
            Phase::Connecting(op) => {
                self.phase = Phase::Idle;
                self.finish(op, Err(ProtocolError::StdoutNotJsonRpc { line }), now);
            }
            _ => self.events.push_back(Event::Diagnostic {
                message: format!(
                    "ignored a line on stdout that is not a JSON-RPC message: {line:?}"
                ),
            }),
        }
    }

    pub(super) fn is_stdio(&self) -> bool {
        self.cfg.framing == Framing::Stdio
    }
}
