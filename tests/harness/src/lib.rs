//! # mcp-edge-harness
//!
//! Native transports around mcp-edge's sans-IO session, for tests and for native users of stdio
//! servers:
//!
//! ```text
//!   stdio: child process ─ stdin/stdout threads ─┐
//!   http:  one thread per exchange (TcpStream) ──┼─► channel ─► driver loop (owns the Session,
//!   stderr: drain thread ─► bounded log          │              a monotonic clock, a transcript)
//! ```
//!
//! [`scenario`] runs scripted steps (data, `tests/scenarios/*.json`) and [`transcript`] records,
//! normalises and diffs what went over the wire, so the same scenario can be compared across
//! transports (parity).
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod driver;
pub mod error;
pub mod http;
pub mod scenario;
pub mod stderr_log;
pub mod stdio;
pub mod transcript;

pub use driver::{Client, DriverLimits, Outcome};
pub use error::HarnessError;
pub use stdio::{ShutdownOutcome, StdioCommand};
