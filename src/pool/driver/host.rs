//! What a target gives the pool driver: a clock, a way to run background tasks and to sleep, and
//! clients it knows how to connect. Nothing here names a JS type or a WASI import.

use serde_json::Value;

use crate::client::config::ClientConfig;
use crate::pool::{OutboundGate, PoolError};
use crate::proto::session::{ListKind, ProtocolError, ServerInfo, SessionConfig};

pub use crate::runtime::LocalFuture;

/// The target the driver runs on (browser/worker/Node over `fetch`, later a WASI component).
///
/// All methods are called from the one thread the driver lives on; none may block.
pub trait PoolHost: 'static {
    /// A connected client of this target.
    type Client: PoolClient;

    /// Milliseconds on a monotonic clock (any epoch): the `now` the pool core is given.
    fn now(&self) -> u64;

    /// Runs `task` to completion in the background (`spawn_local` in wasm).
    fn spawn(&self, task: LocalFuture<()>);

    /// A future that resolves after `ms` milliseconds. Dropping it before then must cancel the
    /// underlying timer, so no timer outlives the pool's work (Workers, Node's event loop).
    fn sleep(&self, ms: u64) -> LocalFuture<()>;

    /// The client configuration every server of the pool starts from (client info,
    /// capabilities, default timeouts, limits, ...). The driver then applies the server's own
    /// entry (protocol, headers, connect deadline) and writes the session configuration from
    /// it. `target` names the server and carries its entry's `auth` object: the host turns it
    /// into the OAuth settings.
    fn client_config(&self, target: &ServerTarget<'_>) -> Result<ClientConfig, PoolError>;

    /// Connects a client with `session`. In edge mode `gate` bounds the outbound exchanges of
    /// every client of the pool together; the client must hold a permit per exchange.
    fn connect(
        &self,
        target: &ServerTarget<'_>,
        session: SessionConfig,
        gate: Option<OutboundGate>,
    ) -> LocalFuture<Result<(Self::Client, ServerInfo), PoolError>>;
}

/// The server a connect is for: its name and its configuration entry's `auth` object (strings
/// expanded), which the host turns into OAuth settings and an auth host for that server.
#[derive(Debug, Clone, Copy)]
pub struct ServerTarget<'a> {
    /// The server's name in the configuration.
    pub name: &'a str,
    /// The entry's `auth` object, if any.
    pub auth: Option<&'a Value>,
}

/// What a connected client tells the pool between calls ([`PoolClient::next_signal`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClientSignal {
    /// The server sent `notifications/<list>/list_changed` (tools, prompts or resources); the
    /// client already dropped its cached copy of that list.
    ListChanged(ListKind),
    /// The session is gone for good (2025 era: a new session could not be set up) or its
    /// notification stream was given up after its reconnect budget: the pool checks the server.
    Lost,
}

impl ClientSignal {
    /// The signal a server notification carries: `notifications/<list>/list_changed` for tools,
    /// prompts or resources (MCP `server/tools`, `server/prompts`, `server/resources` "List
    /// Changed Notification").
    pub fn from_notification(method: &str) -> Option<Self> {
        let kind = match method {
            "notifications/tools/list_changed" => ListKind::Tools,
            "notifications/prompts/list_changed" => ListKind::Prompts,
            "notifications/resources/list_changed" => ListKind::Resources,
            _ => return None,
        };
        Some(ClientSignal::ListChanged(kind))
    }
}

/// A connected client as the pool uses it. Cheap to clone (a shared handle).
pub trait PoolClient: Clone + 'static {
    /// Per-call options of this target (progress callback, cancellation, timeout).
    type CallOptions;

    /// Lists every page of `kind`: the `{"tools": [...]}` (`prompts`, `resources`) object;
    /// each request of it bounded by `timeout_ms` when given.
    fn list(
        &self,
        kind: ListKind,
        timeout_ms: Option<u64>,
    ) -> LocalFuture<Result<Value, ProtocolError>>;

    /// Asks the server for any answer within `timeout_ms` (`ping`; a JSON-RPC error is an
    /// answer too, 2026-07-28 servers have no `ping`): the pool's liveness probe.
    fn probe(&self, timeout_ms: u64) -> LocalFuture<Result<(), ProtocolError>>;

    /// Whether the session is up (false once a lost 2025-era session could not be replaced).
    fn is_connected(&self) -> bool;

    /// 2026-07-28: opens a `subscriptions/listen` stream for `filter`; resolves when the stream
    /// ends for good (the client's own reconnects gave up, or it was closed).
    fn listen(&self, filter: Value) -> LocalFuture<Result<Value, ProtocolError>>;

    /// The next signal; `None` once the client is closed. One reader at a time (the pool's).
    fn next_signal(&self) -> LocalFuture<Option<ClientSignal>>;

    /// Calls `tool` and checks its `structuredContent` against the tool's `outputSchema`. A tool
    /// failure is an `Ok` result with `isError: true`.
    fn call_tool(
        &self,
        tool: &str,
        arguments: Value,
        options: Self::CallOptions,
    ) -> LocalFuture<Result<Value, ProtocolError>>;

    /// Closes the session (2025 era: DELETE).
    fn close(&self) -> LocalFuture<()>;
}
