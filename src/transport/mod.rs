//! Transports: thin adapters that move the bytes the sans-IO core asks for.
//!
//! ```text
//!   proto::http::HttpRequest ──► transport ──► ResponseHead, then body chunks ──► proto
//! ```
//!
//! A transport decides nothing about MCP: it sends one request, hands back the status and the
//! readable headers, then the body chunk by chunk, and reports failures as [`TransportError`].
//!
//! This file and `src/lib.rs` are the only places that branch on the target. On
//! `wasm32-unknown-unknown` (browser tab, Web Worker, workerd, Node) the transport is
//! `fetch::FetchTransport` over the *global* `fetch` (or a host-injected one) with a
//! `ReadableStream` reader and an `AbortController` per request; `timer` gives global-scope
//! timers, `webcrypto` the ES256 keys of OAuth. In the WASI component (`wasm32-wasip2`, feature
//! `component`), `wasi` moves the bytes over `wasi:http` and `es256` signs with RustCrypto `p256`.
//! [`host::Host`] is what the session driver asks of a target; `fetch_host` implements it over
//! the fetch transport and the global timers. The error type, the host trait and the CORS
//! diagnosis are target-independent and tested natively.

pub mod cors;
pub mod error;
pub mod host;
pub mod utf8;

pub use error::TransportError;
pub use host::{AbortSwitch, AuthHost, Host, HostResponse};

#[cfg(all(target_os = "wasi", feature = "component"))]
pub mod es256;
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub mod fetch;
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub mod fetch_host;
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub(crate) mod js;
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub mod js_auth;
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub mod timer;
#[cfg(all(target_os = "wasi", feature = "component"))]
pub mod wasi;
#[cfg(all(target_os = "wasi", feature = "component"))]
pub mod wasi_executor;
#[cfg(all(target_os = "wasi", feature = "component"))]
pub mod wasi_host;
