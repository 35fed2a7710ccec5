//! The pool driver: runs a [`PoolCore`] (states, bounded connects, deadlines, backoff) and a
//! [`ToolRegistry`] (naming, adapters, exports, pinning) with real clients. It is the one copy of
//! the pool's moving parts; the JS `McpPool` and the Rust `McpPool` are thin wrappers over it.
//!
//! ```text
//!   connect_all ─► pump ─► core.next_to_connect ─► host.spawn(connect one server)
//!                   ▲          host.connect ─► list tools ─► registry ─► core.handle_connected
//!                   └────────────────────────────────────────────────────────┘
//!   core.poll_timeout ─► host.sleep (one task, stopped when re-armed) ─► core.handle_timeout
//!   core.poll_event   ─► DriverEvent to the host's listener
//!   call(name) ─► registry.route ─► breaker ─► client.call_tool ─► breaker.record ─► flat result
//! ```
//!
//! Target-neutral: everything the target provides (clock, tasks, sleeping, connecting, calling)
//! comes through [`PoolHost`] and [`PoolClient`], so the same driver serves the fetch transport
//! in wasm32 and, later, a WASI component with its own executor. No `Send` bounds.
//!
//! Reconnection has one path: every attempt the core hands out — first connect, a retry after
//! backoff, or [`PoolDriver::reconnect`] — runs the same connect sequence (connect, list tools,
//! register them). A state change away from `connected` removes the server's tools and client
//! before the listener hears of it, so a host reporting a lost connection to the core
//! ([`PoolCore::handle_disconnected`]) gets its tools out of the exports and the retry for free.
//! Events leave the driver only through the listener given to [`PoolDriver::new`].

pub mod host;
mod setup;
mod timer;

use crate::util::vec_map::VecMap;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use serde_json::{json, Value};

pub use host::{ClientSignal, LocalFuture, PoolClient, PoolHost, ServerTarget};
pub use setup::PoolSetup;

use super::state::gone_not_cors;
use super::{
    Attempt, BreakerConfig, BreakerSet, ConnectInfo, OutboundGate, Policy, PoolConfig, PoolCore,
    PoolError, PoolEvent, PoolOptions, PoolStatus, ServerState, Transport, EDGE_MAX_OUTBOUND,
};
use crate::proto::session::{Era, ListKind, ProtocolError};
use crate::tools::adapt::{AutoApprove, Category, FlatResult};
use crate::tools::deferral::{
    self, DeferStyle, DeferralReport, ToolSearchConfig, CALL_TOOL, SEARCH_TOOL,
};
use crate::tools::export::{InstructionsDelta, InstructionsTracker};
use crate::tools::naming::normalize_part;
use crate::tools::pinning::MemoryPinStore;
use crate::tools::registry::{HeldTool, ToolEvent};
use crate::tools::search::{self, SearchOptions};
use crate::tools::ToolError;
use crate::tools::{flatten_result, AdaptOptions, ExportFormat, ToolRegistry};

/// What the driver reports to its listener, in the order it happens.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum DriverEvent {
    /// A server's connection state or tool count changed (from the pool core).
    Pool(PoolEvent),
    /// A connect attempt ran past its deadline and was given up; its late outcome is ignored.
    AttemptAborted {
        /// The server.
        server: String,
    },
    /// The tool registry reports: a tool's definition changed since it was pinned (held back
    /// until accepted), a tool definition was unusable, or the exported set changed.
    Tool(ToolEvent),
    /// A connected server said one of its lists changed (`notifications/<list>/list_changed`);
    /// the pool fetched it again and (tools) ran the pinning check and updated the exports.
    ListChanged {
        /// The server.
        server: String,
        /// `Tools`, `Prompts` or `Resources`.
        list: ListKind,
        /// How many items it has now (tools: how many are exported).
        count: usize,
    },
}

/// The listener of [`DriverEvent`]s. It may call back into the driver.
pub type EventFn = Rc<dyn Fn(&DriverEvent)>;

/// How a driver is set up.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DriverOptions {
    /// The core's options (in-flight bound, default timeout, backoff, jitter seed).
    pub pool: PoolOptions,
    /// Edge mode: one bound of [`EDGE_MAX_OUTBOUND`] on the outbound exchanges of all clients
    /// together (Workers' simultaneous-connection limit), and no 2025-era GET stream unless
    /// `get_stream_in_edge` asks for it (it would hold one of the few slots for good).
    pub edge: bool,
    /// Edge mode only: open the 2025-era GET stream anyway.
    pub get_stream_in_edge: bool,
    /// Tool adaption and result flattening limits.
    pub adapt: AdaptOptions,
    /// Per-tool circuit breakers.
    pub breaker: BreakerConfig,
    /// Pins from an earlier run (`{server: {tool: fingerprint}}`, as [`PoolDriver::pins`] gave
    /// them): a tool whose definition differs from its pin is held back from the start.
    pub pins: MemoryPinStore,
    /// When tool definitions are deferred behind a search tool, and how.
    pub tool_search: ToolSearchConfig,
}

/// A pool call's outcome: always a result for the model, never an error.
#[derive(Debug, Clone, PartialEq)]
pub struct CallOutcome {
    /// The result flattened for an LLM (text, `isError`, whether it was cut).
    pub flat: FlatResult,
    /// The server's result, when there was one.
    pub raw: Option<Value>,
    /// Why the call failed, when it did not reach an answer: a stable code (`SERVER_UNAVAILABLE`,
    /// `CIRCUIT_OPEN`, `UNKNOWN_TOOL`, or the protocol error's, e.g. `TIMEOUT`) and the message,
    /// for hosts that act on it (retry, re-authenticate, ...).
    pub error: Option<(String, String)>,
    /// The protocol error behind `error`, when there was one (its details for the host).
    pub protocol_error: Option<ProtocolError>,
    /// The pool's own refusal behind `error` (an unavailable server, an open circuit, an
    /// unknown or held tool), when it was one.
    pub pool_error: Option<PoolError>,
}

impl CallOutcome {
    fn failed(code: &str, message: String) -> CallOutcome {
        CallOutcome {
            flat: FlatResult::error(message.clone()),
            raw: None,
            error: Some((code.to_string(), message)),
            protocol_error: None,
            pool_error: None,
        }
    }

    /// A call the pool refused before sending anything.
    fn refused(e: &PoolError) -> CallOutcome {
        CallOutcome {
            pool_error: Some(e.clone()),
            ..CallOutcome::failed(e.code(), e.to_string())
        }
    }

    /// The MCP `CallToolResult` shape with the server's result under `raw` and a failure's
    /// `error: {code, message}`: `{"content": [{"type": "text", "text": ...}], "isError": ...}`.
    pub fn to_json(&self) -> Value {
        let mut v = self.flat.to_call_result();
        if let Some(raw) = &self.raw {
            v["raw"] = raw.clone();
        }
        if let Some((code, message)) = &self.error {
            v["error"] = serde_json::json!({"code": code, "message": message});
            match &self.pool_error {
                Some(PoolError::ServerUnavailable {
                    server,
                    state,
                    next_retry_at,
                    retry_in_ms,
                }) => {
                    v["error"]["server"] = json!(server);
                    v["error"]["state"] = json!(state);
                    v["error"]["nextRetryAt"] = json!(next_retry_at);
                    v["error"]["retryInMs"] = json!(retry_in_ms);
                }
                Some(PoolError::CircuitOpen { retry_at, .. }) => {
                    v["error"]["retryAt"] = json!(retry_at);
                }
                _ => {}
            }
        }
        v
    }
}

/// A connected server's client and the attempt that connected it (signals of an older client
/// are ignored).
struct Conn<C> {
    client: C,
    attempt: u64,
    /// Calls running on it: a client retired while calls run is closed by the last of them
    /// (closing it earlier would end them with `CLOSED` although the server may have run them).
    calls: Rc<std::cell::Cell<usize>>,
}

/// A server's prompts and resources.
#[derive(Debug, Clone, Default)]
struct ServerLists {
    prompts: Vec<Value>,
    resources: Vec<Value>,
}

impl ServerLists {
    fn get(&self, kind: ListKind) -> &[Value] {
        match kind {
            ListKind::Prompts => &self.prompts,
            ListKind::Resources => &self.resources,
            _ => &[],
        }
    }

    fn get_mut(&mut self, kind: ListKind) -> Option<&mut Vec<Value>> {
        match kind {
            ListKind::Prompts => Some(&mut self.prompts),
            ListKind::Resources => Some(&mut self.resources),
            _ => None,
        }
    }
}

/// The items of a list result (`{"prompts": [...]}`).
fn items(result: &Value, kind: ListKind) -> Vec<Value> {
    result
        .get(kind.field())
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

struct State<C> {
    core: PoolCore,
    registry: ToolRegistry,
    breakers: BreakerSet,
    clients: VecMap<String, Conn<C>>,
    /// Servers whose liveness probe is running.
    probing: BTreeSet<String>,
    /// Connected servers' prompts and resources (`prompts/list`, `resources/list` items).
    lists: VecMap<String, ServerLists>,
    settled: Vec<Waker>,
    timer: Option<timer::Armed>,
    instructions: InstructionsTracker,
    /// The tool names of servers that were connected and are not now (name -> server), so a
    /// call to one fails with `SERVER_UNAVAILABLE` rather than `UNKNOWN_TOOL`. Bounded by the
    /// catalog: a server's entries go when it connects again.
    former: BTreeMap<String, String>,
}

struct Inner<H: PoolHost> {
    host: H,
    state: RefCell<State<H::Client>>,
    on_event: Option<EventFn>,
    gate: Option<OutboundGate>,
    get_stream_in_edge: bool,
    adapt: AdaptOptions,
    tool_search: ToolSearchConfig,
}

/// Many servers as one tool registry, driven on the host's tasks. Cheap to clone (shared).
pub struct PoolDriver<H: PoolHost> {
    inner: Rc<Inner<H>>,
}

impl<H: PoolHost> Clone for PoolDriver<H> {
    fn clone(&self) -> Self {
        PoolDriver {
            inner: self.inner.clone(),
        }
    }
}

impl<H: PoolHost> Inner<H> {
    fn emit(&self, event: DriverEvent) {
        if let Some(f) = &self.on_event {
            f(&event);
        }
    }
}

/// Moves the pool: drains its events, starts every connect it allows now, re-arms its timer.
fn pump<H: PoolHost>(inner: &Rc<Inner<H>>) {
    loop {
        let now = inner.host.now();
        let (events, attempts, aborts) = {
            let mut st = inner.state.borrow_mut();
            let mut ev = Vec::new();
            while let Some(e) = st.core.poll_event() {
                ev.push(DriverEvent::Pool(e));
            }
            while let Some(e) = st.registry.poll_event() {
                ev.push(DriverEvent::Tool(e));
            }
            let mut ab = Vec::new();
            while let Some(a) = st.core.poll_abort() {
                ab.push(a);
            }
            let mut at = Vec::new();
            while let Some(a) = st.core.next_to_connect(now) {
                at.push(a);
                // Each start is a state change: taken at once, so a burst of starts never fills
                // the core's bounded queue.
                while let Some(e) = st.core.poll_event() {
                    ev.push(DriverEvent::Pool(e));
                }
            }
            (ev, at, ab)
        };
        if events.is_empty() && attempts.is_empty() && aborts.is_empty() {
            break;
        }
        for a in aborts {
            // A timed-out attempt: its late result is ignored by the core (stale attempt id), and
            // the client's own request timeout (the server's timeoutMs) bounds its traffic.
            inner.emit(DriverEvent::AttemptAborted { server: a.server });
        }
        for e in events {
            if let DriverEvent::Pool(PoolEvent::StateChanged {
                server, from, to, ..
            }) = &e
            {
                if *from == ServerState::Connected && *to != ServerState::Connected {
                    let gone = {
                        let mut st = inner.state.borrow_mut();
                        for name in st.registry.names_of(server) {
                            st.former.insert(name, server.clone());
                        }
                        st.registry.remove_server(server);
                        st.lists.remove(server);
                        st.clients.remove(server)
                    };
                    // Closing ends its notification stream, its watcher and its retries; with
                    // calls running, the last of them closes it.
                    if let Some(c) = gone.filter(|c| c.calls.get() == 0) {
                        inner.host.spawn(c.client.close());
                    }
                }
            }
            inner.emit(e);
        }
        for a in attempts {
            inner.host.spawn(Box::pin(connect_one(inner.clone(), a)));
        }
    }
    if all_settled(&inner.state.borrow().core) {
        let waiters = std::mem::take(&mut inner.state.borrow_mut().settled);
        for w in waiters {
            w.wake();
        }
    }
    schedule(inner);
}

fn schedule<H: PoolHost>(inner: &Rc<Inner<H>>) {
    let now = inner.host.now();
    let task = {
        let mut st = inner.state.borrow_mut();
        let due = st.core.poll_timeout();
        timer::rearm(&mut st.timer, due, now, |ms| inner.host.sleep(ms))
    };
    let Some(mut task) = task else { return };
    let weak = Rc::downgrade(inner);
    inner.host.spawn(Box::pin(async move {
        if !(&mut task).await {
            return;
        }
        let Some(inner) = weak.upgrade() else { return };
        {
            let mut st = inner.state.borrow_mut();
            if timer::is_current(&st.timer, &task) {
                st.timer = None;
            }
            let now = inner.host.now();
            st.core.handle_timeout(now);
        }
        pump(&inner);
    }));
}

/// The connect sequence of one attempt: connect, list the tools, register them, report.
async fn connect_one<H: PoolHost>(inner: Rc<Inner<H>>, attempt: Attempt) {
    let config = inner.state.borrow().core.config(&attempt.server).cloned();
    type Connected<C> = (C, ConnectInfo, Value, Option<String>, Value, ServerLists);
    let result: Result<Connected<H::Client>, PoolError> = async {
        let config = config.ok_or_else(|| PoolError::UnknownServer(attempt.server.clone()))?;
        let (url, headers) = match &config.transport {
            Transport::Http { url, headers } => (url.clone(), headers.clone()),
            Transport::Stdio { .. } => {
                return Err(PoolError::UnknownServer(attempt.server.clone()))
            }
        };
        let left = || Some(attempt.deadline.saturating_sub(inner.host.now()).max(1));
        let target = ServerTarget {
            name: &attempt.server,
            auth: config.auth.as_ref(),
        };
        let mut client_config = inner.host.client_config(&target)?;
        client_config.protocol = config.protocol.clone();
        for (k, v) in headers {
            client_config.set_header(&k, &v);
        }
        // The connect is bounded by the pool's deadline, and so are the lists that follow it.
        client_config.timeouts.connect_ms = left();
        if let Some(ms) = config.call_timeout_ms {
            // Above the client options' total cap this fails the server's connect with `CONFIG`
            // (`SessionConfig::validate`), rather than being cut to the cap in silence.
            client_config.timeouts.inactivity_ms = Some(ms);
        }
        if inner.gate.is_some() && !inner.get_stream_in_edge {
            // Edge mode: a 2025 GET stream would hold one of the few outbound slots for the
            // client's whole life; it is opt-in there.
            client_config.open_get_stream = Some(false);
        }
        let session = client_config.session_config(&url)?;
        let (client, info) = inner
            .host
            .connect(&target, session, inner.gate.clone())
            .await?;
        // A server without the `tools` capability (prompts or resources only) is not asked
        // for tools: it connects with none.
        let tools = if offers(&info.capabilities, ListKind::Tools) {
            client
                .list(ListKind::Tools, left())
                .await
                .map_err(PoolError::from)?
        } else {
            json!({"tools": []})
        };
        let mut lists = ServerLists::default();
        for kind in [ListKind::Prompts, ListKind::Resources] {
            if offers(&info.capabilities, kind) {
                // Optional extras: a server whose prompts or resources cannot be listed still
                // offers its tools (a list-changed notification fetches them again).
                if let (Ok(result), Some(l)) =
                    (client.list(kind, left()).await, lists.get_mut(kind))
                {
                    *l = items(&result, kind);
                }
            }
        }
        let list = tools.get("tools").cloned().unwrap_or(json!([]));
        let ci = ConnectInfo {
            era: Some(info.era),
            protocol_version: Some(info.protocol_version.clone()),
            tool_count: 0,
            prompt_count: lists.prompts.len(),
            resource_count: lists.resources.len(),
        };
        Ok((
            client,
            ci,
            list,
            info.instructions,
            info.capabilities,
            lists,
        ))
    }
    .await;
    let now = inner.host.now();
    let mut st = inner.state.borrow_mut();
    match result {
        Ok((client, mut info, list, instructions, capabilities, lists)) => {
            let (category, approve) = trust(&st.core, &attempt.server);
            st.registry.set_auto_approve(&attempt.server, approve);
            let tools = list.as_array().cloned().unwrap_or_default();
            let count =
                st.registry
                    .set_server_tools(&attempt.server, category, instructions, &tools);
            info.tool_count = count;
            let era = info.era;
            if st.core.handle_connected(now, &attempt, info) {
                st.former.retain(|_, s| *s != attempt.server);
                // A new connection starts its tools' breakers afresh: failures that told of the
                // outage say nothing about the server that came back.
                let names: BTreeSet<String> =
                    st.registry.names_of(&attempt.server).into_iter().collect();
                st.breakers.retain(|n| !names.contains(n));
                let conn = Conn {
                    client: client.clone(),
                    attempt: attempt.id,
                    calls: Rc::default(),
                };
                st.clients.insert(attempt.server.clone(), conn);
                st.lists.insert(attempt.server.clone(), lists);
                drop(st);
                watch(&inner, &attempt, client, era, &capabilities);
            } else {
                // Too late (timed out or disabled meanwhile): undo.
                st.registry.remove_server(&attempt.server);
                drop(st);
                inner.host.spawn(client.close());
            }
        }
        Err(e) => {
            st.core.handle_connect_failed(now, &attempt, e);
            drop(st);
        }
    }
    pump(&inner);
}

/// Whether `attempt`'s client is still the one in use for `server`.
fn is_current<H: PoolHost>(inner: &Inner<H>, server: &str, attempt: u64) -> bool {
    inner
        .state
        .borrow()
        .clients
        .get(server)
        .is_some_and(|c| c.attempt == attempt)
}

/// The liveness and list watchers of a freshly connected client: its signals (list changes, a
/// lost session or stream) and, for 2026-07-28 servers that announce list changes, a
/// `subscriptions/listen` stream whose end for good makes the pool check the server.
fn watch<H: PoolHost>(
    inner: &Rc<Inner<H>>,
    attempt: &Attempt,
    client: H::Client,
    era: Option<Era>,
    capabilities: &Value,
) {
    let (server, id) = (attempt.server.clone(), attempt.id);
    let weak = Rc::downgrade(inner);
    let c = client.clone();
    let name = server.clone();
    inner.host.spawn(Box::pin(async move {
        while let Some(signal) = c.next_signal().await {
            let Some(inner) = weak.upgrade() else { return };
            if !is_current(&inner, &name, id) {
                return;
            }
            match signal {
                ClientSignal::Lost => suspect(&inner, &name, id, None),
                ClientSignal::ListChanged(kind) => refresh(&inner, &name, id, kind).await,
            }
        }
    }));
    let filter = listen_filter(capabilities);
    let edge_without_stream = inner.gate.is_some() && !inner.get_stream_in_edge;
    if era != Some(Era::Modern)
        || filter.as_object().is_some_and(|m| m.is_empty())
        || edge_without_stream
    {
        return;
    }
    let weak = Rc::downgrade(inner);
    inner.host.spawn(Box::pin(async move {
        let ended = client.listen(filter).await;
        let Some(inner) = weak.upgrade() else { return };
        if is_current(&inner, &server, id) {
            suspect(&inner, &server, id, ended.err());
        }
    }));
}

/// The `subscriptions/listen` filter for the list changes a server's capabilities announce
/// (MCP 2026-07-28 `basic/patterns/subscriptions`).
fn listen_filter(capabilities: &Value) -> Value {
    let mut m = serde_json::Map::new();
    for (cap, key) in [
        ("tools", "toolsListChanged"),
        ("prompts", "promptsListChanged"),
        ("resources", "resourcesListChanged"),
    ] {
        if capabilities
            .get(cap)
            .and_then(|c| c.get("listChanged"))
            .and_then(Value::as_bool)
            == Some(true)
        {
            m.insert(key.into(), Value::Bool(true));
        }
    }
    Value::Object(m)
}

/// Errors that say the server may be gone (rather than that it answered): the pool checks it.
fn is_transport_failure(e: &ProtocolError) -> bool {
    match e {
        ProtocolError::HttpStatus { status, .. } => *status >= 500 && *status != 503,
        _ => matches!(
            e,
            ProtocolError::Network(_)
                | ProtocolError::Cors(_)
                | ProtocolError::StreamDropped { .. }
                | ProtocolError::Timeout { .. }
                | ProtocolError::NotConnected
                | ProtocolError::Closed
        ),
    }
}

/// Something suggests `server` (connected by attempt `id`) is gone: unless its session is
/// already lost for good, probe it once; a failed probe (or a lost session) reports it
/// disconnected, which removes its tools, tells the listener and schedules the reconnect.
/// The liveness probe series: a probe, then one after each pause (milliseconds); the server is
/// marked down only if none is answered.
const PROBE_PAUSES_MS: [u64; 3] = [0, 250, 1_000];

fn suspect<H: PoolHost>(inner: &Rc<Inner<H>>, server: &str, id: u64, error: Option<ProtocolError>) {
    let (client, timeout) = {
        let mut st = inner.state.borrow_mut();
        let Some(c) = st.clients.get(server).filter(|c| c.attempt == id) else {
            return;
        };
        let client = c.client.clone();
        if !st.probing.insert(server.to_string()) {
            return;
        }
        let timeout = st
            .core
            .config(server)
            .and_then(|c| c.timeout_ms)
            .unwrap_or(st.core.options().default_timeout_ms);
        (client, timeout)
    };
    let inner = inner.clone();
    let server = server.to_string();
    let host = inner.clone();
    host.host.spawn(Box::pin(async move {
        let verdict = if client.is_connected() {
            // One lost ping on a lossy path is not a dead server: it is down only when every
            // probe of a short, bounded series goes unanswered.
            let mut last = None;
            for (i, pause) in PROBE_PAUSES_MS.iter().enumerate() {
                if i > 0 {
                    inner.host.sleep(*pause).await;
                }
                match client.probe(timeout).await {
                    Ok(()) => {
                        last = None;
                        break;
                    }
                    Err(e) => last = Some(e),
                }
            }
            last
        } else {
            Some(error.unwrap_or(ProtocolError::NotConnected))
        };
        inner.state.borrow_mut().probing.remove(&server);
        let Some(e) = verdict else { return };
        // This origin reached the server before, so CORS was fine.
        let e = gone_not_cors(e);
        if !is_current(&inner, &server, id) {
            return;
        }
        let now = inner.host.now();
        let changed =
            inner
                .state
                .borrow_mut()
                .core
                .handle_disconnected(now, &server, PoolError::Protocol(e));
        if changed {
            pump(&inner);
        }
    }));
}

/// A list of `server` changed: fetch it again (the client dropped its cached copy), run the
/// pinning check over new tools and update the exports.
async fn refresh<H: PoolHost>(inner: &Rc<Inner<H>>, server: &str, id: u64, kind: ListKind) {
    let Some(client) = inner
        .state
        .borrow()
        .clients
        .get(server)
        .filter(|c| c.attempt == id)
        .map(|c| c.client.clone())
    else {
        return;
    };
    let result = match client.list(kind, None).await {
        Ok(v) => v,
        Err(e) => {
            if is_transport_failure(&e) {
                suspect(inner, server, id, Some(e));
            }
            return;
        }
    };
    if !is_current(inner, server, id) {
        return;
    }
    let list = items(&result, kind);
    let count = {
        let mut st = inner.state.borrow_mut();
        let st = &mut *st;
        if kind == ListKind::Tools {
            let (category, approve) = trust(&st.core, server);
            st.registry.set_auto_approve(server, approve);
            let instructions = st.registry.instructions().remove(server);
            let n = st
                .registry
                .set_server_tools(server, category, instructions, &list);
            st.core.set_tool_count(server, n);
            n
        } else {
            let lists = st
                .lists
                .get_or_insert_with(server.to_string(), Default::default);
            if let Some(l) = lists.get_mut(kind) {
                *l = list;
            }
            let (p, r) = (lists.prompts.len(), lists.resources.len());
            st.core.set_list_counts(server, p, r);
            if kind == ListKind::Prompts {
                p
            } else {
                r
            }
        }
    };
    pump(inner);
    inner.emit(DriverEvent::ListChanged {
        server: server.to_string(),
        list: kind,
        count,
    });
}

/// Whether `capabilities` declare the feature behind `kind` (MCP `basic/lifecycle`
/// "Capability Negotiation": a client asks only for what the server declared).
fn offers(capabilities: &Value, kind: ListKind) -> bool {
    let cap = match kind {
        ListKind::Tools => "tools",
        ListKind::Prompts => "prompts",
        ListKind::Resources | ListKind::ResourceTemplates => "resources",
        ListKind::Tasks => "tasks",
    };
    capabilities.get(cap).is_some_and(Value::is_object)
}

/// The user's category and advance approvals for `server`'s tools.
fn trust(core: &PoolCore, server: &str) -> (Option<Category>, AutoApprove) {
    core.config(server)
        .map(|c| (c.category, c.auto_approve.clone()))
        .unwrap_or_default()
}

/// Why a call to `name`, which no connected server has, cannot go through: its server (one that
/// had it before, or a configured server whose `mcp__<server>__` prefix it carries) is not
/// connected now. `None` when no configured server matches: the tool is unknown.
fn unavailable<C>(st: &State<C>, name: &str, now: u64) -> Option<PoolError> {
    let server = st.former.get(name).cloned().or_else(|| {
        st.core
            .server_names()
            .filter(|s| {
                name.strip_prefix("mcp__")
                    .and_then(|rest| rest.strip_prefix(normalize_part(s).as_str()))
                    .is_some_and(|rest| rest.starts_with("__"))
            })
            .max_by_key(|s| s.len())
            .map(str::to_string)
    })?;
    st.core.unavailable(&server, now)
}

/// Whether no server is pending or connecting.
fn all_settled(core: &PoolCore) -> bool {
    let mut names = core.server_names();
    names.all(|s| {
        !matches!(
            core.state(s),
            Some(ServerState::Pending | ServerState::Connecting)
        )
    })
}

/// Resolves once no server is pending or connecting.
struct Settled<H: PoolHost> {
    inner: Rc<Inner<H>>,
}

impl<H: PoolHost> Future for Settled<H> {
    type Output = ();
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let mut st = self.inner.state.borrow_mut();
        if all_settled(&st.core) {
            return Poll::Ready(());
        }
        st.settled.push(cx.waker().clone());
        Poll::Pending
    }
}

/// Transport failures and timeouts count against a tool's breaker; `isError` results, JSON-RPC
/// errors and the caller's own cancellation are answers, not failures of the server.
fn counts_as_success(outcome: &Result<Value, ProtocolError>) -> bool {
    !matches!(outcome, Err(e) if !matches!(e, ProtocolError::Rpc { .. } | ProtocolError::Cancelled))
}

impl<H: PoolHost> PoolDriver<H> {
    /// A driver for the servers of `config` under `policy`. `on_event` hears every
    /// [`DriverEvent`]. Fails only on options out of range or client options that break the
    /// client's own rules (`SessionConfig::validate`).
    pub fn new(
        host: H,
        config: &PoolConfig,
        policy: &Policy,
        options: DriverOptions,
        on_event: Option<EventFn>,
    ) -> Result<Self, PoolError> {
        let core = PoolCore::new(config, policy, options.pool)?;
        // The client options every server starts from obey the same rules as one client's (a
        // request timeout above the maximum total timeout is a configuration error in both).
        let base = ServerTarget {
            name: "",
            auth: None,
        };
        host.client_config(&base)?
            .session_config("https://pool.invalid/mcp")
            .map_err(PoolError::from)?;
        let inner = Rc::new(Inner {
            host,
            state: RefCell::new(State {
                core,
                registry: ToolRegistry::new(options.adapt, options.pins),
                breakers: BreakerSet::new(options.breaker),
                clients: VecMap::new(),
                probing: BTreeSet::new(),
                lists: VecMap::new(),
                settled: Vec::new(),
                timer: None,
                instructions: InstructionsTracker::default(),
                former: BTreeMap::new(),
            }),
            on_event,
            gate: options.edge.then(|| OutboundGate::new(EDGE_MAX_OUTBOUND)),
            get_stream_in_edge: options.get_stream_in_edge,
            adapt: options.adapt,
            tool_search: options.tool_search,
        });
        Ok(PoolDriver { inner })
    }

    /// Connects every enabled server concurrently (bounded); resolves when each one is
    /// connected, failed, waiting for auth, disabled or unsupported, with the status then.
    pub async fn connect_all(&self) -> PoolStatus {
        pump(&self.inner);
        Settled {
            inner: self.inner.clone(),
        }
        .await;
        self.status()
    }

    /// Per-server state, last error, tool count, era.
    pub fn status(&self) -> PoolStatus {
        self.inner.state.borrow().core.status()
    }

    /// The tool array for a model request in `format`: every exported tool in a deterministic
    /// order (server, then tool), or, once the tool-search settings defer them, the search tool
    /// and what stays loaded ([`deferral::export`]).
    pub fn tools(&self, format: ExportFormat) -> Vec<Value> {
        self.export(format).0
    }

    fn export(&self, format: ExportFormat) -> (Vec<Value>, DeferralReport) {
        let st = self.inner.state.borrow();
        deferral::export(&st.registry.exported(), format, &self.inner.tool_search)
    }

    /// Whether `format`'s definitions are deferred now, their estimated tokens (in all and per
    /// server) against the threshold, and how many tools stay loaded.
    pub fn deferral(&self, format: ExportFormat) -> DeferralReport {
        self.export(format).1
    }

    /// The exported tools that match `query`, best first: `{name, server, tool, score,
    /// definition}` with the definition in `options.format`.
    pub fn search_tools(&self, query: &str, options: &SearchOptions) -> Vec<Value> {
        let st = self.inner.state.borrow();
        st.registry
            .search(query, options.limit, options.servers.as_deref())
            .into_iter()
            .map(|(t, score)| search::hit_json(t, score, options.format))
            .collect()
    }

    /// The answer to the model's search-tool call (`arguments` `{query, limit?}`) in `format`'s
    /// native shape when the settings use native deferral (Anthropic `tool_reference` blocks,
    /// an OpenAI `tool_search_output` item for `call_id`), else an MCP `CallToolResult` whose
    /// text lists the tools with their schemas.
    pub fn search_answer(
        &self,
        arguments: &Value,
        format: ExportFormat,
        call_id: Option<&str>,
    ) -> Result<Value, PoolError> {
        let (query, options) = deferral::search_arguments(arguments)?;
        let st = self.inner.state.borrow();
        let hits = st.registry.search(&query, options.limit, None);
        let native = self.inner.tool_search.style == DeferStyle::Native;
        Ok(deferral::search_answer(
            &query, &hits, format, native, call_id,
        ))
    }

    /// The servers' instructions that are new or changed since the last call, and the servers
    /// whose instructions no longer apply: deliver [`InstructionsDelta::text`] once.
    pub fn instructions(&self) -> InstructionsDelta {
        let mut st = self.inner.state.borrow_mut();
        let current = st.registry.instructions();
        st.instructions.update(&current)
    }

    /// Every connected server's prompts (`kind` `Prompts`) or resources (`Resources`) as
    /// `{"server": name, "prompt" | "resource": item}`, by server then in the server's order.
    pub fn offered(&self, kind: ListKind) -> Vec<Value> {
        let key = if kind == ListKind::Prompts {
            "prompt"
        } else {
            "resource"
        };
        let st = self.inner.state.borrow();
        st.lists
            .iter()
            .flat_map(|(server, l)| {
                l.get(kind)
                    .iter()
                    .map(move |item| json!({"server": server, key: item}))
            })
            .collect()
    }

    /// What a host's permission layer reads about each exported tool (category, the server's
    /// hints, whether the user's `autoApprove` covers it), sorted by (server, tool).
    pub fn tool_info(&self) -> Vec<Value> {
        self.inner.state.borrow().registry.tool_info()
    }

    /// Estimated tokens each server's tool definitions cost in `format`.
    pub fn token_estimates(&self, format: ExportFormat) -> BTreeMap<String, usize> {
        self.inner.state.borrow().registry.token_estimates(format)
    }

    /// Calls `mcp__<server>__<tool>`. Never fails: an unknown tool, a server that is down, an
    /// open circuit, a protocol error or a tool failure all come back as an `isError` result
    /// for the model.
    pub async fn call(
        &self,
        name: &str,
        arguments: Value,
        options: <H::Client as PoolClient>::CallOptions,
    ) -> CallOutcome {
        let inner = &self.inner;
        // The meta-tools of deferred loading: `search_tools` answers from the index, and
        // `call_tool` runs the tool it names.
        let (name, arguments) = match name {
            SEARCH_TOOL => {
                return match deferral::search_arguments(&arguments) {
                    Ok((query, o)) => {
                        let st = inner.state.borrow();
                        let hits = st.registry.search(&query, o.limit, None);
                        CallOutcome {
                            flat: FlatResult {
                                text: deferral::search_text(&query, &hits),
                                is_error: false,
                                truncated: false,
                            },
                            raw: None,
                            error: None,
                            protocol_error: None,
                            pool_error: None,
                        }
                    }
                    Err(e) => CallOutcome::failed(e.code(), e.to_string()),
                };
            }
            CALL_TOOL => match (
                arguments.get("name").and_then(Value::as_str),
                arguments.get("arguments"),
            ) {
                (Some(n), a) if n != SEARCH_TOOL && n != CALL_TOOL => (
                    n.to_string(),
                    a.cloned()
                        .filter(|a| !a.is_null())
                        .unwrap_or_else(|| json!({})),
                ),
                _ => {
                    return CallOutcome::failed(
                        "INVALID_ARGUMENT",
                        format!("{CALL_TOOL}: name must be a tool name that {SEARCH_TOOL} gave"),
                    )
                }
            },
            n => (n.to_string(), arguments),
        };
        let name = name.as_str();
        let now = inner.host.now();
        let routed = {
            let mut st = inner.state.borrow_mut();
            match st.registry.route(name) {
                Ok((server, tool)) => match st.breakers.try_call(name, now) {
                    Ok(()) => match st.clients.get(&server) {
                        Some(c) => {
                            c.calls.set(c.calls.get() + 1);
                            Ok((c.client.clone(), c.attempt, c.calls.clone(), server, tool))
                        }
                        None => Err(st.core.unavailable(&server, now).unwrap_or_else(|| {
                            PoolError::ServerUnavailable {
                                server: server.clone(),
                                state: "connected",
                                next_retry_at: None,
                                retry_in_ms: None,
                            }
                        })),
                    },
                    Err(e) => Err(e),
                },
                Err(ToolError::UnknownTool(_)) => match unavailable(&st, name, now) {
                    Some(e) => Err(e),
                    None => Err(PoolError::Tool(ToolError::UnknownTool(name.to_string()))),
                },
                Err(e) => Err(PoolError::Tool(e)),
            }
        };
        let (client, attempt, calls, server, tool) = match routed {
            Ok(x) => x,
            Err(e) => return CallOutcome::refused(&e),
        };
        let outcome = client.call_tool(&tool, arguments, options).await;
        calls.set(calls.get().saturating_sub(1));
        if calls.get() == 0 && !is_current(inner, &server, attempt) {
            // Its server was dropped while this call ran: the client is retired now.
            inner.host.spawn(client.close());
        }
        let now = inner.host.now();
        let ok = counts_as_success(&outcome);
        inner.state.borrow_mut().breakers.record(name, now, ok);
        if let Err(e) = &outcome {
            if is_transport_failure(e) || !client.is_connected() {
                suspect(inner, &server, attempt, Some(e.clone()));
            }
        }
        match outcome {
            Ok(v) => CallOutcome {
                flat: flatten_result(&v, &inner.adapt),
                raw: Some(v),
                error: None,
                protocol_error: None,
                pool_error: None,
            },
            Err(e) => CallOutcome {
                protocol_error: Some(e.clone()),
                ..CallOutcome::failed(e.code(), format!("the call failed: {e}"))
            },
        }
    }

    /// Approves a server only the project layer defines: it connects now. Returns false for a
    /// server that needed no approval.
    pub fn approve_server(&self, server: &str) -> Result<bool, PoolError> {
        let r = self.inner.state.borrow_mut().core.approve(server);
        pump(&self.inner);
        r
    }

    /// Rejects a server only the project layer defines: it stays off. Returns false for a
    /// server that needed no approval.
    pub fn reject_server(&self, server: &str) -> Result<bool, PoolError> {
        let r = self.inner.state.borrow_mut().core.reject(server);
        pump(&self.inner);
        r
    }

    /// Retries a server now (after a failure, or after the user signed in).
    pub fn reconnect(&self, server: &str) -> Result<(), PoolError> {
        self.inner.state.borrow_mut().core.reconnect(server)?;
        pump(&self.inner);
        Ok(())
    }

    /// Accepts a tool held back because its description or schema changed since it was pinned:
    /// re-pins it and exports it again.
    pub fn accept_tool(&self, name: &str) -> Result<(), PoolError> {
        let r = self.inner.state.borrow_mut().registry.accept(name);
        if r.is_ok() {
            self.sync_tool_counts();
            pump(&self.inner);
        }
        r.map_err(PoolError::from)
    }

    /// Brings every connected server's tool count in line with the registry.
    fn sync_tool_counts(&self) {
        let mut st = self.inner.state.borrow_mut();
        let st = &mut *st;
        let servers: Vec<String> = st.clients.keys().cloned().collect();
        for s in servers {
            let n = st.registry.tool_count(&s);
            st.core.set_tool_count(&s, n);
        }
    }

    /// The tools held back by the pinning guard (their definition changed since it was pinned),
    /// sorted by (server, tool).
    pub fn held_tools(&self) -> Vec<HeldTool> {
        self.inner.state.borrow().registry.held()
    }

    /// Every pin (`{server: {tool: fingerprint}}`), for a host to persist and pass back in
    /// [`DriverOptions::pins`]. A held tool keeps its old pin until it is accepted.
    pub fn pins(&self) -> MemoryPinStore {
        self.inner.state.borrow().registry.pin_store().clone()
    }

    /// Closes every client (2025 era: DELETE) and stops the timer.
    pub async fn close(&self) {
        let clients: Vec<H::Client> = {
            let mut st = self.inner.state.borrow_mut();
            let names: Vec<String> = st.core.server_names().map(str::to_string).collect();
            for n in names {
                let _ = st.core.disable(&n);
            }
            st.timer = None;
            std::mem::take(&mut st.clients)
                .into_iter()
                .map(|(_, c)| c.client)
                .collect()
        };
        for c in clients {
            c.close().await;
        }
        self.inner.state.borrow_mut().timer = None;
    }
}
