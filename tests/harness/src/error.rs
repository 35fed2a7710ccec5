//! The harness's error enum (one per layer: this is the native transport and driver layer).

use std::fmt;

use mcp_edge::proto::session::ProtocolError;

/// Everything that can go wrong in the harness: starting a transport, the session's own
/// errors, and malformed scenarios or command lines.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum HarnessError {
    /// The server process could not be started (MCP `basic/transports/stdio`: the client
    /// launches the server as a subprocess).
    Spawn {
        /// The program that was to be run.
        program: String,
        /// Why the operating system refused.
        reason: String,
    },
    /// The URL is not an `http://` URL to a loopback host.
    InvalidUrl {
        /// The URL.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The session reported an error for an operation.
    Protocol(ProtocolError),
    /// The operation did not finish before the harness gave up waiting (a driver bound, not
    /// the session's own request timeout).
    Stalled {
        /// What was being waited for.
        what: String,
        /// The bound in milliseconds.
        after_ms: u64,
    },
    /// A scenario file or step is malformed, or an expectation in it failed.
    Scenario(String),
    /// Reading or writing a local file failed.
    Io(String),
    /// The command line is malformed.
    Usage(String),
}

impl fmt::Display for HarnessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HarnessError::Spawn { program, reason } => {
                write!(f, "could not start the server `{program}`: {reason}")
            }
            HarnessError::InvalidUrl { url, reason } => write!(f, "invalid URL {url:?}: {reason}"),
            HarnessError::Protocol(e) => write!(f, "{e} [{}]", e.code()),
            HarnessError::Stalled { what, after_ms } => {
                write!(f, "{what} did not finish within {after_ms} ms")
            }
            HarnessError::Scenario(m) => write!(f, "scenario: {m}"),
            HarnessError::Io(m) => write!(f, "I/O: {m}"),
            HarnessError::Usage(m) => write!(f, "usage: {m}"),
        }
    }
}

impl std::error::Error for HarnessError {}

impl From<ProtocolError> for HarnessError {
    fn from(e: ProtocolError) -> Self {
        HarnessError::Protocol(e)
    }
}
