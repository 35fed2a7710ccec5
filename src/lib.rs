//! # mcp-edge
//!
//! A Model Context Protocol client for WebAssembly hosts (browser tabs, Web Workers, edge isolates,
//! Node, WASI component hosts) that speaks **Streamable HTTP** in both protocol eras.
//!
//! ```text
//!   bytes in ──► proto::sse / proto::ndjson ──► proto::jsonrpc ──► proto::session ──► events out
//!   time in  ───────────────────────────────────────────────────►        │
//!                                       HTTP requests (plain data) ◄──────┘
//! ```
//!
//! [`proto`] is the sans-IO core: pure state machines with no async, no I/O and no clock reads.
//! Transports (fetch streams in wasm, stdio and HTTP in the native harness) only move bytes.
//!
//! # Features
//!
//! - `pool` (default): the `pool` module (`McpPool` and its driver, policy, breakers) and the
//!   tool adapters in `tools` (names, OpenAI / Anthropic / MCP exports, pinning).
//! - `validate` (default): the `schema` module, the eval-free JSON Schema validator, with which
//!   the client checks tool results against their `outputSchema`.
//! - `component`: the WASI component (`wasm32-wasip2`; implies `pool` and `validate`).
//!
//! `default-features = false` is the client build: `McpClient` alone, both eras, OAuth included.
#![deny(missing_docs)]
#![cfg_attr(
    not(all(target_os = "wasi", feature = "component")),
    forbid(unsafe_code)
)]
// The component's wit-bindgen glue is `unsafe` (canonical ABI entry points); it alone is
// allowed, in `bindings`. Everything else stays free of `unsafe`.
#![cfg_attr(all(target_os = "wasi", feature = "component"), deny(unsafe_code))]

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub mod api;
#[cfg(all(target_os = "wasi", feature = "component"))]
mod bindings;
#[cfg(feature = "pool")]
pub mod pool;
pub mod proto;
pub mod runtime;
#[cfg(feature = "validate")]
pub mod schema;
#[cfg(feature = "pool")]
pub mod tools;
pub mod transport;
pub mod util;

pub mod client;
#[cfg(all(target_os = "wasi", feature = "component"))]
pub mod component;
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub mod js;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub use api::{
    AuthConfig, AuthError, Call, CallOptions, CallToolResult, CancelToken, ConnectOptions, Error,
    GetPromptResult, McpClient, Notification, Notifications, Progress, ProgressStream, Prompt,
    ReadResourceResult, Resource, ResourceTemplate, Snapshot, Tool,
};
#[cfg(all(target_family = "wasm", target_os = "unknown", feature = "pool"))]
pub use api::{McpPool, McpPoolOptions};

// The unit tests run in the runtime `wasm-pack test` asks for (see tests/wasm-test-mode).
#[cfg(all(test, target_family = "wasm", target_os = "unknown"))]
mcp_edge_wasm_test_mode::configure!();
