//! The Rust API for wasm32 apps (Leptos, Dioxus, Yew, Rust code in Workers): the same client
//! and pool as the JS package, with Rust types, `async fn`s, [`futures_core::Stream`]s and
//! typed errors. Everything here runs on `wasm32-unknown-unknown` in a page, a Web Worker,
//! workerd or Node; futures are `'static` and not `Send` (spawn them with
//! `wasm_bindgen_futures::spawn_local`).
//!
//! # One server
//!
//! ```no_run
//! use mcp_edge::{CancelToken, ConnectOptions, McpClient, Notification};
//! use serde_json::json;
//!
//! # async fn run() -> Result<(), mcp_edge::Error> {
//! let client = McpClient::connect(
//!     "https://example.com/mcp",
//!     ConnectOptions::new().header("Authorization", "Bearer my-token"),
//! )
//! .await?;
//! for tool in client.list_tools().await? {
//!     println!("{}: {}", tool.name, tool.description.unwrap_or_default());
//! }
//!
//! // Progress as a callback; cancellation by a token (or by dropping the future).
//! let stop = CancelToken::new();
//! let result = client
//!     .call_tool("add", json!({"a": 1, "b": 2}))
//!     .on_progress(|p| println!("{} of {:?}", p.progress, p.total))
//!     .cancel_with(&stop)
//!     .await?;
//! println!("{} (failed: {})", result.text(), result.is_error);
//!
//! // Progress as a stream, read by another task.
//! let mut call = client.call_tool("slow", json!({}));
//! let mut progress = call.progress_stream();
//! wasm_bindgen_futures::spawn_local(async move {
//!     while let Some(p) = progress.next().await {
//!         println!("{:?}", p.message);
//!     }
//! });
//! let _ = call.await;
//!
//! // Notifications (list changes, logging, ...) as a stream.
//! let mut notes = client.notifications();
//! wasm_bindgen_futures::spawn_local(async move {
//!     while let Some(n) = notes.next().await {
//!         if let Notification::Server { method, .. } = n {
//!             println!("{method}");
//!         }
//!     }
//! });
//! client.close().await?;
//! # Ok(()) }
//! ```
//!
//! Errors are [`Error`] (the session layer's `ProtocolError`): [`Error::code`] gives the same
//! stable codes as the JS `McpError` (`RPC`, `HTTP_STATUS`, `UNAUTHORIZED`, `TIMEOUT`,
//! `ABORTED`, `NETWORK`, `CORS`, `STREAM_DROPPED`, `OUTPUT_SCHEMA`, `CLOSED`, ...). A tool's own
//! failure is `Ok` with [`CallToolResult::is_error`].
//!
//! # Many servers (feature `pool`, on by default)
//!
//! ```no_run
//! use mcp_edge::tools::ExportFormat;
//! use mcp_edge::{McpPool, McpPoolOptions};
//! use serde_json::json;
//!
//! # async fn run(token: &str) -> Result<(), mcp_edge::pool::PoolError> {
//! let config = json!({"mcpServers": {
//!     "github": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${GH}"}},
//!     "local": {"url": "http://127.0.0.1:3000/mcp", "timeoutMs": 5000},
//! }});
//! let pool = McpPool::new(&config, McpPoolOptions::new().var("GH", token))?;
//! let status = pool.connect_all().await; // one server's failure stays its own
//! let tools = pool.tools(ExportFormat::Anthropic); // deterministic order, names <= 64 chars
//! let outcome = pool.call("mcp__github__search_issues", json!({"q": "bug"})).await;
//! println!("{} {}", outcome.flat.is_error, outcome.flat.text);
//! pool.close().await;
//! # let _ = (status, tools); Ok(()) }
//! ```
//!
//! The pool runs on [`crate::pool::PoolDriver`], the same driver the JS `McpPool` wraps.

#[cfg(feature = "apps")]
pub(crate) mod apps;
mod call;
mod cancel;
mod client;
mod input;
mod options;
#[cfg(feature = "pool")]
mod pool;
mod stream;
mod types;

/// Tool search and deferred loading settings and results ([`McpPool::search_tools`],
/// [`McpPoolOptions::tool_search`]).
#[cfg(feature = "pool")]
pub use crate::tools::{
    deferral::{DeferMode, DeferStyle, DeferralReport, ToolSearchConfig},
    search::SearchOptions,
};
pub use call::{Call, CallOptions};
pub use cancel::CancelToken;
pub use client::{McpClient, Snapshot};
pub use options::ConnectOptions;
#[cfg(feature = "pool")]
pub use pool::{McpPool, McpPoolOptions};
pub use stream::{Notifications, ProgressStream, MAX_QUEUED_PROGRESS, MAX_QUEUED_PROGRESS_BYTES};
pub use types::{
    CallToolResult, GetPromptResult, Notification, Prompt, ReadResourceResult, Resource,
    ResourceTemplate, Tool,
};

/// One progress notification of a request: the session's own type.
pub use crate::proto::session::Progress;

/// The error of every client operation: the session layer's error, with the stable codes the JS
/// surface exposes ([`Error::code`]).
pub use crate::proto::session::ProtocolError as Error;

/// OAuth settings ([`ConnectOptions::auth`]) and the authorization errors an
/// [`Error::Auth`] carries.
pub use crate::proto::auth::{AuthConfig, AuthError};

pub(crate) use call::{call_tool, list, resume_task, run, wait_op};

/// What the JS surface reads of the driver and its configuration (it goes through this facade,
/// not to the driver itself).
pub(crate) use crate::client::config::check_url;
#[cfg(feature = "pool")]
pub(crate) use crate::client::config::ClientConfig;
pub(crate) use crate::client::{Notice, NotificationReader, Traffic};

/// The driver every client of the JS and Rust surfaces runs: the one session driver over the
/// fetch host.
pub(crate) type FetchClient = crate::client::Client<crate::transport::fetch_host::FetchHost>;

/// The options of a [`FetchClient`].
pub(crate) type FetchOptions =
    crate::client::ClientOptions<crate::transport::fetch_host::FetchHost>;
pub(crate) use client::{age_cache, connect_client};
pub(crate) use input::{HandlerFn, Handlers};
#[cfg(feature = "pool")]
pub(crate) use pool::{ClientFactory, FetchHost};
