//! # mcp-edge-harness
//!
//! Native transports around mcp-edge's sans-IO session, for tests and for native users of stdio
//! servers. The session is driven by mcp-edge's own driver ([`mcp_edge::client::Client`], the
//! one every target runs) on a native host: a local executor, no tokio.
//!
//! ```text
//!   stdio: child process ─ stdin/stdout threads ─┐
//!   http:  one thread per exchange (TcpStream) ──┴─► inbox ─► NativeHost (executor, timers)
//!   stderr: drain thread ─► bounded log                          │ lines, one at a time
//!                                  Client<NativeHost> (Session) ◄┘
//!                                  observer + event tap ─► transcript
//! ```
//!
//! [`scenario`] runs scripted steps (data, `tests/scenarios/*.json`) and [`transcript`] records,
//! normalises and diffs what went over the wire, so the same scenario can be compared across
//! transports (parity).
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod driver;
pub mod error;
pub mod executor;
pub mod host;
pub mod http;
pub mod scenario;
pub mod stderr_log;
pub mod stdio;
pub mod tap;
pub mod transcript;

pub use driver::{Client, DriverLimits, Outcome};
pub use error::HarnessError;
pub use host::NativeHost;
pub use stdio::{ShutdownOutcome, StdioCommand};
