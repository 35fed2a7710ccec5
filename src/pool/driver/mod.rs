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

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use serde_json::{json, Value};

pub use host::{LocalFuture, PoolClient, PoolHost, ServerTarget};
pub use setup::PoolSetup;

use super::{
    Attempt, BreakerConfig, BreakerSet, ConnectInfo, OutboundGate, Policy, PoolConfig, PoolCore,
    PoolError, PoolEvent, PoolOptions, PoolStatus, ServerState, Transport, EDGE_MAX_OUTBOUND,
};
use crate::proto::session::ProtocolError;
use crate::tools::adapt::FlatResult;
use crate::tools::export::{InstructionsDelta, InstructionsTracker};
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
}

/// A pool call's outcome: always a result for the model, never an error.
#[derive(Debug, Clone, PartialEq)]
pub struct CallOutcome {
    /// The result flattened for an LLM (text, `isError`, whether it was cut).
    pub flat: FlatResult,
    /// The server's result, when there was one.
    pub raw: Option<Value>,
    /// Why the call failed, when it did not reach an answer: a stable code (`NOT_CONNECTED`,
    /// `CIRCUIT_OPEN`, `UNKNOWN_TOOL`, or the protocol error's, e.g. `TIMEOUT`) and the message,
    /// for hosts that act on it (retry, re-authenticate, ...).
    pub error: Option<(String, String)>,
    /// The protocol error behind `error`, when there was one (its details for the host).
    pub protocol_error: Option<ProtocolError>,
}

impl CallOutcome {
    fn failed(code: &str, message: String) -> CallOutcome {
        CallOutcome {
            flat: FlatResult::error(message.clone()),
            raw: None,
            error: Some((code.to_string(), message)),
            protocol_error: None,
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
        }
        v
    }
}

struct State<C> {
    core: PoolCore,
    registry: ToolRegistry,
    breakers: BreakerSet,
    clients: BTreeMap<String, C>,
    settled: Vec<Waker>,
    timer: Option<timer::Armed>,
    instructions: InstructionsTracker,
}

struct Inner<H: PoolHost> {
    host: H,
    state: RefCell<State<H::Client>>,
    on_event: Option<EventFn>,
    gate: Option<OutboundGate>,
    get_stream_in_edge: bool,
    adapt: AdaptOptions,
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
                ev.push(e);
            }
            let mut ab = Vec::new();
            while let Some(a) = st.core.poll_abort() {
                ab.push(a);
            }
            let mut at = Vec::new();
            while let Some(a) = st.core.next_to_connect(now) {
                at.push(a);
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
            if let PoolEvent::StateChanged {
                server, from, to, ..
            } = &e
            {
                if *from == ServerState::Connected && *to != ServerState::Connected {
                    let mut st = inner.state.borrow_mut();
                    st.registry.remove_server(server);
                    st.clients.remove(server);
                }
            }
            inner.emit(DriverEvent::Pool(e));
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
    let result: Result<(H::Client, ConnectInfo, Value, Option<String>), PoolError> = async {
        let config = config.ok_or_else(|| PoolError::UnknownServer(attempt.server.clone()))?;
        let (url, headers) = match &config.transport {
            Transport::Http { url, headers } => (url.clone(), headers.clone()),
            Transport::Stdio { .. } => {
                return Err(PoolError::UnknownServer(attempt.server.clone()))
            }
        };
        let timeout = attempt.deadline.saturating_sub(inner.host.now()).max(1);
        let target = ServerTarget {
            name: &attempt.server,
            auth: config.auth.as_ref(),
        };
        let mut session = inner.host.session_config(&url, &target)?;
        let defaults = (session.request_timeout_ms, session.max_total_timeout_ms);
        session.protocol = config.protocol.clone();
        for (k, v) in headers {
            let k = k.to_ascii_lowercase();
            session.headers.retain(|(h, _)| *h != k);
            session.headers.push((k, v));
        }
        // The connect as a whole is bounded by the pool's deadline; so is each request of it.
        session.request_timeout_ms = Some(timeout);
        session.max_total_timeout_ms = Some(timeout);
        if inner.gate.is_some() && !inner.get_stream_in_edge {
            // Edge mode: a 2025 GET stream would hold one of the few outbound slots for the
            // client's whole life; it is opt-in there.
            session.open_get_stream = false;
        }
        let (client, info) = inner
            .host
            .connect(&target, session, inner.gate.clone())
            .await?;
        let tools = client.list_tools().await.map_err(PoolError::from)?;
        client.set_timeouts(defaults.0, defaults.1);
        let list = tools.get("tools").cloned().unwrap_or(json!([]));
        let ci = ConnectInfo {
            era: Some(info.era),
            protocol_version: Some(info.protocol_version.clone()),
            tool_count: 0,
        };
        Ok((client, ci, list, info.instructions))
    }
    .await;
    let now = inner.host.now();
    {
        let mut st = inner.state.borrow_mut();
        match result {
            Ok((client, mut info, list, instructions)) => {
                let category = st.core.config(&attempt.server).and_then(|c| c.category);
                let tools = list.as_array().cloned().unwrap_or_default();
                let count =
                    st.registry
                        .set_server_tools(&attempt.server, category, instructions, &tools);
                info.tool_count = count;
                if st.core.handle_connected(now, &attempt, info) {
                    st.clients.insert(attempt.server.clone(), client);
                } else {
                    // Too late (timed out or disabled meanwhile): undo.
                    st.registry.remove_server(&attempt.server);
                    drop(st);
                    inner.host.spawn(client.close());
                    pump(&inner);
                    return;
                }
            }
            Err(e) => {
                st.core.handle_connect_failed(now, &attempt, e);
            }
        }
    }
    pump(&inner);
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
    /// [`DriverEvent`]. Fails only on options out of range.
    pub fn new(
        host: H,
        config: &PoolConfig,
        policy: &Policy,
        options: DriverOptions,
        on_event: Option<EventFn>,
    ) -> Result<Self, PoolError> {
        let core = PoolCore::new(config, policy, options.pool)?;
        let inner = Rc::new(Inner {
            host,
            state: RefCell::new(State {
                core,
                registry: ToolRegistry::new(options.adapt, Default::default()),
                breakers: BreakerSet::new(options.breaker),
                clients: BTreeMap::new(),
                settled: Vec::new(),
                timer: None,
                instructions: InstructionsTracker::default(),
            }),
            on_event,
            gate: options.edge.then(|| OutboundGate::new(EDGE_MAX_OUTBOUND)),
            get_stream_in_edge: options.get_stream_in_edge,
            adapt: options.adapt,
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

    /// Every tool of every connected server in `format`, in a deterministic order (server, then
    /// tool).
    pub fn tools(&self, format: ExportFormat) -> Vec<Value> {
        self.inner.state.borrow().registry.tools(format)
    }

    /// The servers' instructions that are new or changed since the last call, and the servers
    /// whose instructions no longer apply: deliver [`InstructionsDelta::text`] once.
    pub fn instructions(&self) -> InstructionsDelta {
        let mut st = self.inner.state.borrow_mut();
        let current = st.registry.instructions();
        st.instructions.update(&current)
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
        let now = inner.host.now();
        let routed = {
            let mut st = inner.state.borrow_mut();
            match st.registry.route(name) {
                Ok((server, tool)) => match st.breakers.try_call(name, now) {
                    Ok(()) => match st.clients.get(&server) {
                        Some(c) => Ok((c.clone(), tool)),
                        None => Err((
                            "NOT_CONNECTED",
                            format!("server {server:?} is not connected"),
                        )),
                    },
                    Err(e) => Err((e.code(), e.to_string())),
                },
                Err(e) => Err((e.code(), e.to_string())),
            }
        };
        let (client, tool) = match routed {
            Ok(x) => x,
            Err((code, message)) => return CallOutcome::failed(code, message),
        };
        let outcome = client.call_tool(&tool, arguments, options).await;
        let now = inner.host.now();
        let ok = counts_as_success(&outcome);
        inner.state.borrow_mut().breakers.record(name, now, ok);
        match outcome {
            Ok(v) => CallOutcome {
                flat: flatten_result(&v, &inner.adapt),
                raw: Some(v),
                error: None,
                protocol_error: None,
            },
            Err(e) => CallOutcome {
                protocol_error: Some(e.clone()),
                ..CallOutcome::failed(e.code(), format!("the call failed: {e}"))
            },
        }
    }

    /// Retries a server now (after a failure, or after the user signed in).
    pub fn reconnect(&self, server: &str) -> Result<(), PoolError> {
        self.inner.state.borrow_mut().core.reconnect(server)?;
        pump(&self.inner);
        Ok(())
    }

    /// Accepts a tool held back because its description or schema changed since it was pinned.
    pub fn accept_tool(&self, name: &str) -> Result<(), PoolError> {
        self.inner.state.borrow_mut().registry.accept(name)
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
            std::mem::take(&mut st.clients).into_values().collect()
        };
        for c in clients {
            c.close().await;
        }
        self.inner.state.borrow_mut().timer = None;
    }
}
