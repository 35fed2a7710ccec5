//! [`McpPool`]: many servers from Rust, and the fetch-backed host the JS `McpPool` shares.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::rc::Rc;

use serde_json::Value;

use super::call::{self, Call, CallOptions};
use super::options::ConnectOptions;
use super::{FetchClient as Client, FetchOptions};
use crate::client::config::ClientConfig;
use crate::client::{Notice, NotificationReader};
use crate::pool::driver::{
    CallOutcome, ClientSignal, DriverEvent, EventFn, LocalFuture, PoolClient, PoolDriver, PoolHost,
    PoolSetup, ServerTarget,
};
use crate::pool::{BackoffPolicy, OutboundGate, Policy, PoolError, PoolStatus, Vars};
use crate::proto::session::{
    Event, ListKind, ProtocolError, RequestOptions, ServerInfo, SessionConfig,
};
use crate::tools::deferral::{DeferralReport, ToolSearchConfig};
use crate::tools::export::InstructionsDelta;
use crate::tools::pinning::MemoryPinStore;
use crate::tools::registry::HeldTool;
use crate::tools::search::SearchOptions;
use crate::tools::ExportFormat;
use crate::transport::timer::{now_ms, Timeout};

/// A pool's connected client: the client and the pool's one reader of its notifications.
#[derive(Clone)]
pub(crate) struct PoolConn {
    client: Client,
    reader: Rc<NotificationReader>,
    lost_told: Rc<Cell<bool>>,
}

impl PoolConn {
    fn new(client: Client) -> Self {
        PoolConn {
            reader: Rc::new(client.notifications()),
            client,
            lost_told: Rc::new(Cell::new(false)),
        }
    }
}

impl PoolClient for PoolConn {
    type CallOptions = CallOptions;

    fn list(
        &self,
        kind: ListKind,
        timeout_ms: Option<u64>,
    ) -> LocalFuture<Result<Value, ProtocolError>> {
        let client = self.client.clone();
        let opts = RequestOptions {
            timeout_ms,
            ..RequestOptions::default()
        };
        Box::pin(async move { client.list_all(kind, opts).await })
    }

    fn probe(&self, timeout_ms: u64) -> LocalFuture<Result<(), ProtocolError>> {
        let client = self.client.clone();
        Box::pin(async move { client.probe(timeout_ms).await })
    }

    fn is_connected(&self) -> bool {
        self.client.is_connected()
    }

    fn listen(&self, filter: Value) -> LocalFuture<Result<Value, ProtocolError>> {
        let client = self.client.clone();
        Box::pin(async move {
            let p = client.listen(filter);
            client.wait(p).await
        })
    }

    fn next_signal(&self) -> LocalFuture<Option<ClientSignal>> {
        let conn = self.clone();
        Box::pin(async move {
            loop {
                let notice = conn.reader.next().await?;
                if !conn.lost_told.get()
                    && (!conn.client.is_connected() || conn.client.notification_stream_lost())
                {
                    conn.lost_told.set(true);
                    return Some(ClientSignal::Lost);
                }
                if let Notice::Event(Event::Notification { method, .. }) = notice {
                    if let Some(signal) = ClientSignal::from_notification(&method) {
                        return Some(signal);
                    }
                }
            }
        })
    }

    fn call_tool(
        &self,
        tool: &str,
        arguments: Value,
        options: CallOptions,
    ) -> LocalFuture<Result<Value, ProtocolError>> {
        let client = self.client.clone();
        let tool = tool.to_string();
        Box::pin(async move { call::call_tool(&client, &tool, arguments, options).await })
    }

    fn close(&self) -> LocalFuture<()> {
        let client = self.client.clone();
        Box::pin(async move {
            let _ = client.close().await;
        })
    }
}

/// Where a fetch-backed pool gets each client's options from.
pub(crate) trait ClientFactory: 'static {
    /// The client configuration every server starts from, with `target`'s OAuth settings.
    fn client_config(&self, target: &ServerTarget<'_>) -> Result<ClientConfig, PoolError>;
    /// The driver options of one client (a fresh traffic observer per client).
    fn client_options(
        &self,
        session: SessionConfig,
        target: &ServerTarget<'_>,
    ) -> Result<FetchOptions, PoolError>;
}

impl ClientFactory for ConnectOptions {
    /// A server's `auth` entry replaces the options' OAuth settings for that server (the auth
    /// host, its storage and keys, stays the options' one).
    fn client_config(&self, target: &ServerTarget<'_>) -> Result<ClientConfig, PoolError> {
        let mut config = ConnectOptions::client_config(self);
        if let Some(auth) = target.auth {
            config.auth = Some(
                crate::proto::auth::AuthConfig::from_json(auth).map_err(|e| {
                    PoolError::InvalidOption(format!("server {:?}: auth: {e}", target.name))
                })?,
            );
        }
        Ok(config)
    }

    fn client_options(
        &self,
        session: SessionConfig,
        _target: &ServerTarget<'_>,
    ) -> Result<FetchOptions, PoolError> {
        Ok(ConnectOptions::client_options(self, session, None))
    }
}

/// The pool host of `wasm32-unknown-unknown`: clients over the fetch transport, tasks on
/// `spawn_local`, sleeps on the global `setTimeout`, time from `performance.now()`.
pub(crate) struct FetchHost<F> {
    factory: F,
    epoch: f64,
}

impl<F: ClientFactory> FetchHost<F> {
    pub(crate) fn new(factory: F) -> Self {
        FetchHost {
            factory,
            epoch: now_ms(),
        }
    }
}

impl<F: ClientFactory> PoolHost for FetchHost<F> {
    type Client = PoolConn;

    fn now(&self) -> u64 {
        (now_ms() - self.epoch).max(0.0) as u64
    }

    fn spawn(&self, task: LocalFuture<()>) {
        wasm_bindgen_futures::spawn_local(task);
    }

    /// A global `setTimeout` that dropping clears. In a scope without `setTimeout` (none of the
    /// supported hosts) it never fires, as a timer that cannot be set does not.
    fn sleep(&self, ms: u64) -> LocalFuture<()> {
        match Timeout::new(u32::try_from(ms).unwrap_or(u32::MAX)) {
            Ok(t) => Box::pin(t),
            Err(_) => Box::pin(std::future::pending()),
        }
    }

    fn client_config(&self, target: &ServerTarget<'_>) -> Result<ClientConfig, PoolError> {
        self.factory.client_config(target)
    }

    fn connect(
        &self,
        target: &ServerTarget<'_>,
        session: SessionConfig,
        gate: Option<OutboundGate>,
    ) -> LocalFuture<Result<(PoolConn, ServerInfo), PoolError>> {
        let options = self.factory.client_options(session, target).map(|mut o| {
            o.gate = gate;
            o
        });
        Box::pin(async move {
            let (client, info) = Client::connect(options?).await?;
            Ok((PoolConn::new(client), info))
        })
    }
}

/// How a pool is set up (the JS `McpPool` options, in Rust).
#[derive(Clone, Default)]
pub struct McpPoolOptions {
    vars: Vars,
    project_config: Option<Result<Value, PoolError>>,
    approved_project_servers: std::collections::BTreeSet<String>,
    policy: Policy,
    edge: bool,
    get_stream_in_edge: bool,
    max_concurrent_connects: Option<usize>,
    connect_timeout_ms: Option<u64>,
    client: ConnectOptions,
    on_event: Option<EventFn>,
    pins: MemoryPinStore,
    tool_search: ToolSearchConfig,
    backoff: Option<BackoffPolicy>,
}

impl std::fmt::Debug for McpPoolOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Variables may hold secrets: names only.
        let vars: Vec<&String> = self.vars.keys().collect();
        f.debug_struct("McpPoolOptions")
            .field("vars", &vars)
            .field("edge", &self.edge)
            .field("max_concurrent_connects", &self.max_concurrent_connects)
            .field("connect_timeout_ms", &self.connect_timeout_ms)
            .field("client", &self.client)
            .finish_non_exhaustive()
    }
}

impl McpPoolOptions {
    /// No variables, no project layer, an empty policy, at most 4 connects at once, a 30 s
    /// connect timeout per server.
    pub fn new() -> Self {
        Self::default()
    }

    /// A variable for `${NAME}` expansion in the configuration.
    pub fn var(mut self, name: &str, value: &str) -> Self {
        self.vars.insert(name.to_string(), value.to_string());
        self
    }

    /// A second configuration layer (a project's `mcpServers`): top-level scalars override;
    /// project servers the user's layer lacks are added; one it has is ignored (the user's entry
    /// wins, status and a `ProjectEntryIgnored` event say so) unless approved with
    /// [`McpPoolOptions::approve_project_server`].
    pub fn project_config(mut self, config: Value) -> Self {
        self.project_config = Some(Ok(config));
        self
    }

    /// The project layer as the JS surface read it (or why it could not).
    pub(crate) fn project_layer(mut self, layer: Result<Value, PoolError>) -> Self {
        self.project_config = Some(layer);
        self
    }

    /// Lets the project layer's entry `server` replace the user's entry of that name (whole:
    /// none of the user's entry, credentials included, carries over).
    pub fn approve_project_server(mut self, server: &str) -> Self {
        self.approved_project_servers.insert(server.to_string());
        self
    }

    /// Which servers may be connected (deny wins; an absent allow-list allows all).
    pub fn policy(mut self, policy: Policy) -> Self {
        self.policy = policy;
        self
    }

    /// Edge mode: all outbound requests of the pool together stay within 6 (Workers' limit), and
    /// the 2025-era GET stream stays off (it would hold one of the six for good) unless
    /// [`McpPoolOptions::edge_get_stream`] asks for it.
    pub fn edge(mut self, edge: bool) -> Self {
        self.edge = edge;
        self
    }

    /// Edge mode: open the 2025-era GET stream anyway.
    pub fn edge_get_stream(mut self, open: bool) -> Self {
        self.get_stream_in_edge = open;
        self
    }

    /// Most connect attempts at once (at least 1).
    pub fn max_concurrent_connects(mut self, n: usize) -> Self {
        self.max_concurrent_connects = Some(n);
        self
    }

    /// Connect timeout of servers whose entry has no `timeoutMs`.
    pub fn connect_timeout_ms(mut self, ms: u64) -> Self {
        self.connect_timeout_ms = Some(ms);
        self
    }

    /// The options every client starts from (client info, handlers, default timeouts, `fetch`).
    pub fn client(mut self, options: ConnectOptions) -> Self {
        self.client = options;
        self
    }

    /// Pins from an earlier run ([`McpPool::pins`]): a tool whose description or schema differs
    /// from its pin is held back from the start.
    pub fn pins(mut self, pins: MemoryPinStore) -> Self {
        self.pins = pins;
        self
    }

    /// When tool definitions are deferred behind a search tool, and how (default: automatic,
    /// above 5 % of a 200,000-token context, the vendor's own mechanism where it has one).
    pub fn tool_search(mut self, config: ToolSearchConfig) -> Self {
        self.tool_search = config;
        self
    }

    /// Reconnection timing: fast retries with capped, jittered backoff, then slow retries every
    /// `slow_ms` for as long as the pool lives (default [`BackoffPolicy::default`]).
    pub fn reconnect(mut self, backoff: BackoffPolicy) -> Self {
        self.backoff = Some(backoff);
        self
    }

    /// Hears every state change, tool count change and abandoned attempt.
    pub fn on_event(mut self, f: impl Fn(&DriverEvent) + 'static) -> Self {
        self.on_event = Some(Rc::new(f));
        self
    }

    /// Sets the listener as the JS surface built it.
    pub(crate) fn with_listener(mut self, f: Option<EventFn>) -> Self {
        self.on_event = f;
        self
    }

    /// Sets the variables as the JS surface parsed them.
    pub(crate) fn with_vars(mut self, vars: Vars) -> Self {
        self.vars = vars;
        self
    }

    /// A driver over `host` for the `{"mcpServers": {...}}` document `config` (or why it could
    /// not be read: the pool then starts empty and says so).
    pub(crate) fn driver<H: PoolHost>(
        self,
        host: H,
        config: Result<&Value, PoolError>,
    ) -> Result<PoolDriver<H>, PoolError> {
        let setup = PoolSetup {
            vars: self.vars,
            project_config: self.project_config,
            policy: self.policy,
            edge: self.edge,
            get_stream_in_edge: self.get_stream_in_edge,
            max_concurrent_connects: self.max_concurrent_connects,
            connect_timeout_ms: self.connect_timeout_ms,
            approved_project_servers: self.approved_project_servers,
            pins: self.pins,
            tool_search: self.tool_search,
            backoff: self.backoff,
        };
        let seed = (js_sys::Math::random() * 9.0e15) as u64;
        setup.driver(host, config, seed, self.on_event)
    }
}

/// Many MCP servers as one tool registry: concurrent connects with per-server timeouts,
/// failures isolated per server, `mcp__<server>__<tool>` names, exports for LLM APIs. Cheap to
/// clone (a shared handle).
#[derive(Clone)]
pub struct McpPool {
    driver: PoolDriver<FetchHost<ConnectOptions>>,
}

impl std::fmt::Debug for McpPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpPool")
            .field("status", &self.driver.status())
            .finish()
    }
}

impl McpPool {
    /// A pool over an `{"mcpServers": {...}}` document (the JSON users already write). Fails on
    /// a document that is not shaped like that or on options out of range; a bad server entry
    /// fails only that server, at connect time.
    pub fn new(config: &Value, options: McpPoolOptions) -> Result<McpPool, PoolError> {
        let host = FetchHost::new(options.client.clone());
        Ok(McpPool {
            driver: options.driver(host, Ok(config))?,
        })
    }

    /// Connects every enabled server concurrently (bounded); resolves when each one is
    /// connected, failed, waiting for auth, disabled or unsupported. One server's failure never
    /// fails the others.
    pub async fn connect_all(&self) -> PoolStatus {
        self.driver.connect_all().await
    }

    /// Per-server state, last error, tool count, era.
    pub fn status(&self) -> PoolStatus {
        self.driver.status()
    }

    /// The `tools` parameter of a model request in `format`: every tool of every connected
    /// server in a deterministic order (server, then tool), or, once the tool-search settings
    /// defer them, the search tool and the tools that stay loaded.
    pub fn tools(&self, format: ExportFormat) -> Vec<Value> {
        self.driver.tools(format)
    }

    /// Whether `format`'s definitions are deferred, and their estimated tokens in all and per
    /// server against the threshold.
    pub fn deferral(&self, format: ExportFormat) -> DeferralReport {
        self.driver.deferral(format)
    }

    /// The exported tools that match `query`, best first (BM25 over names, titles,
    /// descriptions and parameters): `{"name", "server", "tool", "score", "definition"}`.
    pub fn search_tools(&self, query: &str, options: &SearchOptions) -> Vec<Value> {
        self.driver.search_tools(query, options)
    }

    /// The answer to the model's call of the search tool, in `format`'s native shape (see
    /// [`PoolDriver::search_answer`]).
    pub fn search_answer(
        &self,
        arguments: &Value,
        format: ExportFormat,
        call_id: Option<&str>,
    ) -> Result<Value, PoolError> {
        self.driver.search_answer(arguments, format, call_id)
    }

    /// The servers' instructions that are new since the last call (deliver
    /// [`InstructionsDelta::text`] once, as `<system-reminder>` blocks).
    pub fn instructions(&self) -> InstructionsDelta {
        self.driver.instructions()
    }

    /// Estimated tokens each server's tool definitions cost in `format`.
    pub fn token_estimates(&self, format: ExportFormat) -> BTreeMap<String, usize> {
        self.driver.token_estimates(format)
    }

    /// What a host's permission layer reads about each exported tool: `{"name", "server",
    /// "tool", "title", "category", "hintedCategory", "hints", "autoApprove"}`, sorted by
    /// (server, tool). The `mcp` export carries the same under `_meta["mcp-edge/trust"]`.
    pub fn tool_info(&self) -> Vec<Value> {
        self.driver.tool_info()
    }

    /// Every connected server's prompts as `{"server": name, "prompt": {...}}`.
    pub fn prompts(&self) -> Vec<Value> {
        self.driver.offered(ListKind::Prompts)
    }

    /// Every connected server's resources as `{"server": name, "resource": {...}}`.
    pub fn resources(&self) -> Vec<Value> {
        self.driver.offered(ListKind::Resources)
    }

    /// Calls `mcp__<server>__<tool>`. Never fails: tool failures, protocol errors, an open
    /// circuit or a server that is down come back as an `is_error` result for the model.
    pub fn call(&self, name: &str, arguments: Value) -> Call<CallOutcome> {
        let driver = self.driver.clone();
        let name = name.to_string();
        let arguments = match arguments {
            Value::Null => serde_json::json!({}),
            v => v,
        };
        Call::new(move |options| {
            Box::pin(async move { driver.call(&name, arguments, options).await })
        })
    }

    /// Approves a server only the project layer defines (it waits in `pending-approval`
    /// until then): it connects now. Returns false for a server that needed no approval.
    pub fn approve_server(&self, server: &str) -> Result<bool, PoolError> {
        self.driver.approve_server(server)
    }

    /// Rejects a server only the project layer defines: it stays off (`NOT_APPROVED`).
    pub fn reject_server(&self, server: &str) -> Result<bool, PoolError> {
        self.driver.reject_server(server)
    }

    /// Retries a server now (after a failure, or after the user signed in).
    pub fn reconnect(&self, server: &str) -> Result<(), PoolError> {
        self.driver.reconnect(server)
    }

    /// Accepts a tool held back because its description or schema changed since it was pinned.
    pub fn accept_tool(&self, name: &str) -> Result<(), PoolError> {
        self.driver.accept_tool(name)
    }

    /// The tools held back because their definition changed since they were pinned.
    pub fn held_tools(&self) -> Vec<HeldTool> {
        self.driver.held_tools()
    }

    /// Every pin, to persist and pass back with [`McpPoolOptions::pins`].
    pub fn pins(&self) -> MemoryPinStore {
        self.driver.pins()
    }

    /// Closes every client (2025 era: DELETE) and stops the pool's timer.
    pub async fn close(&self) {
        self.driver.close().await
    }
}
