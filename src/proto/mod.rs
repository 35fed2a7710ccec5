//! The sans-IO protocol core: bytes and time in, requests and events out.
//!
//! Nothing in this module performs I/O, awaits, or reads a clock: time is always an argument
//! (milliseconds on an arbitrary monotonic epoch chosen by the caller).

pub mod apps;
pub mod auth;
pub mod elicitation;
pub mod headers;
pub mod http;
pub mod jsonrpc;
pub mod ndjson;
pub mod session;
pub mod sse;
pub mod uri;
