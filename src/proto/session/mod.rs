//! The MCP client session: one sans-IO state machine for both protocol eras over Streamable HTTP.
//!
//! # Call order
//! The session never performs I/O and never reads a clock. A driver owns it and loops:
//!
//! 1. issue commands: [`Session::connect`], [`Session::request`], [`Session::list_all`],
//!    [`Session::listen`], [`Session::answer_input`], [`Session::cancel`], [`Session::close`];
//! 2. drain [`Session::poll_transmit`] (send each HTTP request; the response belongs to its
//!    [`ExchangeId`]) and [`Session::poll_abort`] (stop reading that exchange and abort it);
//! 3. drain [`Session::poll_event`];
//! 4. wait until an exchange makes progress or [`Session::poll_timeout`] passes, then feed
//!    [`Session::handle_response_head`], [`Session::handle_body`], [`Session::handle_body_end`],
//!    [`Session::handle_failure`] or [`Session::handle_timeout`], and go to 2.
//!
//! Input for an exchange the session no longer knows (aborted, finished) is ignored.
//!
//! # Eras
//! With [`ProtocolChoice::Auto`] the session first speaks 2026-07-28 (`server/discover` with
//! per-request `_meta`), and falls back to the 2025-era `initialize` handshake when the server
//! answers with anything but a recognized modern error (MCP 2026-07-28
//! `basic/transports/streamable-http` "Backward Compatibility"). When `initialize` itself is
//! refused, a GET probe recognises a deprecated 2024-11-05 HTTP+SSE server and says so.

mod auth;
mod cache;
mod connect;
mod error;
mod exchange;
mod legacy;
mod request;
mod request_meta;
mod retry_after;
mod snapshot;
mod stdio;
mod task;
mod types;

pub use error::ProtocolError;
pub use request_meta::{check_traceparent, RequestMeta, META_LOG_LEVEL};
pub use snapshot::{SessionSnapshot, SNAPSHOT_VERSION};
pub use task::{
    TaskInfo, TaskPreference, TaskShape, TaskStatus, TaskSupport, META_RELATED_TASK,
    TASKS_EXTENSION,
};
pub use types::*;

use crate::util::vec_map::VecMap;
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet, VecDeque};

use crate::proto::headers::{HeaderError, ParamHeader};
use crate::proto::jsonrpc::RequestId;
use cache::ResultCache;
use exchange::{Exchange, Purpose};

/// Most inputs (server requests and MRTR input requests) open at once; more are refused.
pub const MAX_OPEN_INPUTS: usize = 64;

/// The shortest delay before a 2025-era stream is resumed or the GET stream reopened, whatever
/// `retry` the server sent (SSE `retry: 0` is valid): a server whose every resumed stream carries
/// one message and ends resets the resume budget each time, and could otherwise keep the client
/// reconnecting at once, without pause.
const MIN_RECONNECT_DELAY_MS: u64 = 100;

/// How long `close` waits for the answer to the session's DELETE when no request timeout is
/// configured (with one, it waits as long as a request).
const CLOSE_TIMEOUT_MS: u64 = 60_000;

/// Lifecycle of the session as a whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Idle,
    Connecting(OpId),
    Connected,
    /// 2025 era: the session expired and is being re-initialized by this internal op.
    Reinitializing(OpId),
    Closed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ConnectStep {
    Discover,
    Initialize,
    Initialized,
    Probe,
}

#[derive(Debug)]
struct InputRound {
    request_state: Option<Value>,
    pending: VecMap<String, InputId>,
    answers: Map<String, Value>,
}

#[derive(Debug)]
struct RequestState {
    method: String,
    params: Map<String, Value>,
    round: Option<InputRound>,
    rounds: u32,
    /// The task the server made of this request, once it did.
    task: Option<Box<task::TaskState>>,
    /// 2025 era: whether to call a tool that allows tasks as one.
    task_pref: TaskPreference,
}

impl RequestState {
    /// A request not sent yet: no MRTR round, no task.
    fn new(method: &str, params: Map<String, Value>, task_pref: TaskPreference) -> Self {
        RequestState {
            method: method.to_string(),
            params,
            round: None,
            rounds: 0,
            task: None,
            task_pref,
        }
    }
}

#[derive(Debug)]
struct ListState {
    kind: ListKind,
    items: Vec<Value>,
    cursor: Option<String>,
    /// Cursors already followed (at most `max_pages`).
    seen: Vec<String>,
    /// Names (uris for resources) already listed (hashed: a server decides how many).
    keys: HashSet<String>,
    pages: usize,
    /// Tools this listing refused (their `x-mcp-header` annotations were invalid).
    rejected: Vec<String>,
    /// A page came from the cache or the listing stopped early: it cannot tell which tools are
    /// gone.
    partial: bool,
}

#[derive(Debug)]
enum OpKind {
    Connect {
        step: ConnectStep,
        version: String,
        probe_error: Option<ProtocolError>,
    },
    Request(RequestState),
    List(ListState),
    Listen {
        filter: Value,
    },
    Close,
    /// A sign-in the host asked for; completes with who is signed in.
    Authorize,
}

#[derive(Debug)]
struct Op {
    kind: OpKind,
    /// Internal ops (automatic re-listing, re-initialization) emit no `Completed`.
    internal: bool,
    waiters: Vec<OpId>,
    waiting_on: Option<OpId>,
    started: u64,
    activity: u64,
    timeout_ms: Option<u64>,
    total_ms: Option<u64>,
    rpc: Option<RequestId>,
    exchange: Option<ExchangeId>,
    progress_token: Option<i64>,
    last_progress: Option<f64>,
    /// A timer: resume / reconnect / re-issue at this time.
    wake_at: Option<u64>,
    /// 2025 era: the stream position to resume from (`Last-Event-ID`).
    resume_from: Option<String>,
    retry_ms: Option<u64>,
    attempts: u32,
    /// Sends repeated after a 429 or 503 with `Retry-After`.
    throttle_retries: u32,
    /// The caller declared the request safe to run twice ([`RequestOptions::idempotent`]).
    idempotent: bool,
    /// 2025-era server requests of this op that wait for the user (pause the inactivity timeout).
    user_inputs_open: u32,
    /// Authorization flows this op waited for (bounded by the auth config's `max_attempts`).
    auth_flows: u32,
    /// Immediate replays after a 401 (credentials changed meanwhile, DPoP nonce).
    auth_replays: u32,
    /// Waiting for the authorizer (pauses the inactivity timeout: a person may be signing in).
    waiting_auth: bool,
    /// One-shot recoveries already used (each is tried at most once per op).
    header_retry_used: bool,
    version_retry_used: bool,
    session_retry_used: bool,
    /// 2025 era: the session (its [`Session::session_gen`]) the op's request was last sent in.
    session_gen: u64,
}

/// Where the answer to an input goes.
#[derive(Debug)]
enum InputSlot {
    /// MRTR: a key of an `input_required` result of this op.
    Round { op: OpId, key: String },
    /// 2025 era: a server-to-client request to answer with a POSTed response; `task` is the
    /// task it belongs to (`io.modelcontextprotocol/related-task`), echoed in the answer.
    ServerRequest {
        id: RequestId,
        op: Option<OpId>,
        task: Option<String>,
    },
    /// Tasks extension: a key of a task's `inputRequests`, answered with `tasks/update`.
    TaskInput { op: OpId, key: String },
}

/// The 2025-era standalone GET stream.
#[derive(Debug, Default)]
struct GetStream {
    exchange: Option<ExchangeId>,
    last_event_id: Option<String>,
    retry_ms: Option<u64>,
    failures: u32,
    reconnect_at: Option<u64>,
    /// Refusals with 401/403 since the server last took the stream: the authorization flows
    /// they waited for, and the reopenings with fresh credentials or a DPoP nonce (bounded like
    /// an operation's, so a server that keeps refusing cannot keep the client asking).
    auth_flows: u32,
    auth_replays: u32,
}

/// What the tool lists said about one tool (MCP 2026-07-28 `server/tools`; the `x-mcp-header`
/// designations of `basic/transports/streamable-http`). One map of these instead of a map or set
/// per fact: each hashed type instantiates its own table code.
#[derive(Debug, Default)]
struct ToolFacts {
    /// Its `Mcp-Param-*` designations (empty: none).
    headers: Vec<ParamHeader>,
    /// Why its `x-mcp-header` annotations were refused: its calls fail without a request.
    rejected: Option<HeaderError>,
    /// Annotated `idempotentHint` or `readOnlyHint` in the last list: a second run does no harm,
    /// so a broken stream may re-issue its calls.
    repeatable: bool,
    /// Its `execution.taskSupport` (MCP 2025-11-25 `basic/utilities/tasks`).
    task_support: TaskSupport,
}

/// The client session state machine. See the module documentation for the call order.
#[derive(Debug)]
pub struct Session {
    cfg: SessionConfig,
    /// [`SessionConfig::declared_capabilities`], built once: every 2026-07-28 request carries it.
    capabilities: Value,
    phase: Phase,
    era: Option<Era>,
    version: String,
    server: Option<ServerInfo>,
    session_id: Option<String>,
    /// 2025 era: counts the sessions `initialize` opened, so a 404 for a request of an older
    /// session is told from the end of the current one.
    session_gen: u64,
    next_op: u64,
    next_exchange: u64,
    next_rpc: i64,
    next_input: u64,
    ops: VecMap<OpId, Op>,
    exchanges: VecMap<ExchangeId, Exchange>,
    pending: VecMap<RequestId, OpId>,
    progress: VecMap<i64, OpId>,
    inputs: VecMap<InputId, InputSlot>,
    transmits: VecDeque<Transmit>,
    aborts: VecDeque<ExchangeId>,
    events: VecDeque<Event>,
    cache: ResultCache,
    /// What the tool lists said about each tool, by name.
    tools: HashMap<String, ToolFacts>,
    tools_listed: bool,
    get_stream: Option<GetStream>,
    /// 2025 era: the GET stream was given up after its reconnect budget (not refused by design).
    stream_lost: bool,
    /// 2025 era: the session was last started again because its GET stream was answered 404, and
    /// no GET stream was taken since (a second such 404 gives up the GET stream instead of
    /// starting sessions without end).
    restarted_by_get_404: bool,
    rng: u64,
    /// stdio: lines to write, and exchanges accepted as soon as they are written.
    lines: VecDeque<Vec<u8>>,
    written: VecDeque<Purpose>,
    stdout: crate::proto::ndjson::Decoder,
    /// The latest time passed in (used where an output call has no `now`).
    last_now: u64,
    /// OAuth for this server, when configured.
    auth: Option<crate::proto::auth::Authorizer>,
    /// Ops waiting for the authorizer, replayed (or failed) when its flow ends.
    auth_waiters: Vec<OpId>,
    /// The 2025-era GET stream was refused for credentials: reopen it after the flow.
    get_after_auth: bool,
    /// Unix time minus session time, in ms, when the driver passed the wall clock in.
    wall_offset: Option<i128>,
}

impl Session {
    /// A session for `cfg`. Fails when the configuration is inconsistent.
    /// The authorization config moves into the session's authorizer ([`Session::config`] shows
    /// `auth: None`).
    pub fn new(mut cfg: SessionConfig) -> Result<Self, ProtocolError> {
        cfg.validate()?;
        let rng = cfg.jitter_seed | 1;
        let auth = match cfg.auth.take() {
            Some(a) => Some(
                crate::proto::auth::Authorizer::new(a, &cfg.endpoint, cfg.unix_epoch_ms)
                    .map_err(ProtocolError::Auth)?,
            ),
            None => None,
        };
        let mut session = Session {
            capabilities: cfg.declared_capabilities(),
            phase: Phase::Idle,
            era: None,
            version: types::MODERN_VERSION.into(),
            server: None,
            session_id: None,
            session_gen: 0,
            next_op: 1,
            next_exchange: 1,
            next_rpc: 1,
            next_input: 1,
            ops: VecMap::new(),
            exchanges: VecMap::new(),
            pending: VecMap::new(),
            progress: VecMap::new(),
            inputs: VecMap::new(),
            transmits: VecDeque::new(),
            aborts: VecDeque::new(),
            events: VecDeque::new(),
            cache: ResultCache::default(),
            tools: HashMap::new(),
            tools_listed: false,
            get_stream: None,
            stream_lost: false,
            restarted_by_get_404: false,
            rng,
            lines: VecDeque::new(),
            written: VecDeque::new(),
            stdout: crate::proto::ndjson::Decoder::new(cfg.max_json_bytes),
            last_now: 0,
            auth,
            auth_waiters: Vec::new(),
            get_after_auth: false,
            wall_offset: (cfg.unix_epoch_ms > 0).then_some(cfg.unix_epoch_ms as i128),
            cfg,
        };
        session.pump_auth(0);
        Ok(session)
    }

    // ---- state -------------------------------------------------------------------------------

    /// What the server told us, once connected.
    pub fn server_info(&self) -> Option<&ServerInfo> {
        self.server.as_ref()
    }
    /// The era in use, once known.
    pub fn era(&self) -> Option<Era> {
        self.era
    }
    /// The protocol version in use (or being tried).
    pub fn protocol_version(&self) -> &str {
        &self.version
    }
    /// The 2025-era session id, if the server assigned one.
    pub fn session_id(&self) -> Option<&str> {
        self.session_id.as_deref()
    }
    /// Whether the session is connected.
    pub fn is_connected(&self) -> bool {
        matches!(self.phase, Phase::Connected | Phase::Reinitializing(_))
    }
    /// 2025 era: whether the GET stream (the channel of the server's notifications) was given up
    /// after its reconnect budget: the server stopped answering it, so a host should check the
    /// server is still there (a pool does).
    pub fn notification_stream_lost(&self) -> bool {
        self.stream_lost
    }
    /// Whether the session was closed.
    pub fn is_closed(&self) -> bool {
        self.phase == Phase::Closed
    }
    /// The configuration (its `auth` moved into the session's authorizer: `None` here).
    pub fn config(&self) -> &SessionConfig {
        &self.cfg
    }
    /// Number of operations still running (for tests and diagnostics).
    pub fn pending_ops(&self) -> usize {
        self.ops.len()
    }
    /// Whether exchange `id` only carries notifications for the client at large (the 2025-era
    /// GET stream, a 2026-era `subscriptions/listen` stream) and no response an operation waits
    /// for. A driver may pause reading such a stream while its consumer is behind.
    pub fn is_notification_stream(&self, id: ExchangeId) -> bool {
        match self.exchanges.get(&id).map(|x| &x.purpose) {
            Some(exchange::Purpose::GetStream) => true,
            Some(exchange::Purpose::Rpc { op, .. }) => matches!(
                self.ops.get(op).map(|o| &o.kind),
                Some(OpKind::Listen { .. })
            ),
            _ => false,
        }
    }

    /// The 2025-era GET stream's last event id, if any.
    pub fn last_event_id(&self) -> Option<&str> {
        self.get_stream
            .as_ref()
            .and_then(|g| g.last_event_id.as_deref())
    }

    /// Changes the timeouts of requests started from now on (`request_ms` must not exceed
    /// `max_total_ms` when both are set; otherwise the outer limit is raised to match).
    pub fn set_timeouts(&mut self, request_ms: Option<u64>, max_total_ms: Option<u64>) {
        self.cfg.request_timeout_ms = request_ms;
        self.cfg.max_total_timeout_ms = match (request_ms, max_total_ms) {
            (Some(i), Some(o)) => Some(o.max(i)),
            (_, o) => o,
        };
    }

    /// Replaces one extra header (e.g. a refreshed `authorization`); `None` removes it. A changed
    /// `authorization` drops private cache entries (MCP 2026-07-28 `server/utilities/caching`).
    pub fn set_header(&mut self, name: &str, value: Option<String>) {
        let name = name.to_ascii_lowercase();
        crate::proto::http::put_header(&mut self.cfg.headers, &name, value);
        if name == crate::proto::http::names::AUTHORIZATION {
            self.cache.drop_private();
        }
    }

    /// Tells the session the wall-clock time (`unix_ms`) at session time `now`. Only a
    /// `Retry-After` HTTP-date on a response without a `Date` header needs it (RFC 9110
    /// § 10.2.3); the core reads no clock itself.
    pub fn set_wall_clock(&mut self, unix_ms: u64, now: u64) {
        self.wall_offset = Some(unix_ms as i128 - now as i128);
    }

    /// The wall-clock time at session time `now`, if the driver passed it in.
    fn wall_ms(&self, now: u64) -> Option<u64> {
        self.wall_offset
            .and_then(|o| u64::try_from(now as i128 + o).ok())
    }

    // ---- outputs -----------------------------------------------------------------------------

    /// The next HTTP request to send.
    pub fn poll_transmit(&mut self) -> Option<Transmit> {
        self.pump_auth(self.last_now);
        self.transmits.pop_front()
    }
    /// The next exchange the transport must abort (cancellation, timeout, done with it).
    pub fn poll_abort(&mut self) -> Option<ExchangeId> {
        self.pump_auth(self.last_now);
        self.aborts.pop_front()
    }
    /// The next event.
    pub fn poll_event(&mut self) -> Option<Event> {
        self.pump_auth(self.last_now);
        self.events.pop_front()
    }
    /// The earliest time at which [`Session::handle_timeout`] must be called.
    pub fn poll_timeout(&self) -> Option<u64> {
        let ops = self
            .ops
            .values()
            .filter_map(|op| op.deadline().into_iter().chain(op.wake_at).min());
        let get = self.get_stream.as_ref().and_then(|g| g.reconnect_at);
        let auth = self.auth.as_ref().and_then(|a| a.poll_timeout());
        ops.chain(get).chain(auth).min()
    }

    // ---- time --------------------------------------------------------------------------------

    /// Fires every timer due at `now`: timeouts, resumption and reconnection delays.
    pub fn handle_timeout(&mut self, now: u64) {
        self.last_now = now;
        if let Some(a) = self.auth.as_mut() {
            a.handle_timeout(now);
        }
        self.pump_auth(now);
        let ids: Vec<OpId> = self.ops.keys().copied().collect();
        for id in ids {
            let Some(op) = self.ops.get(&id) else {
                continue;
            };
            if op.deadline().is_some_and(|at| at <= now) {
                if self.stdio_probe_expired(id, now) {
                    continue;
                }
                let Some(op) = self.ops.get(&id) else {
                    continue;
                };
                if matches!(op.kind, OpKind::Close) {
                    // The session is closed here already; only telling the server failed.
                    let after_ms = op.timeout_ms.unwrap_or_default();
                    self.abort_op(id, now);
                    self.events.push_back(Event::Diagnostic {
                        message: format!("the server did not answer the session's DELETE within {after_ms} ms; closed without it"),
                    });
                    self.finish(id, Ok(Value::Null), now);
                    continue;
                }
                let total = op.total_deadline().is_some_and(|t| t <= now);
                let after_ms = if total { op.total_ms } else { op.timeout_ms }.unwrap_or_default();
                if self.task_timed_out(id, total, after_ms, now) {
                    continue;
                }
                // The server is told, as for a cancel: the request will not be waited for.
                self.tell_abandoned(id, &format!("timed out after {after_ms} ms"));
                self.abort_op(id, now);
                self.finish(id, Err(ProtocolError::Timeout { after_ms, total }), now);
                continue;
            }
            if let Some(op) = self.ops.get_mut(&id) {
                if op.wake_at.is_some_and(|w| w <= now) {
                    op.wake_at = None;
                    self.wake(id, now);
                }
            }
        }
        if let Some(g) = &mut self.get_stream {
            if g.reconnect_at.is_some_and(|t| t <= now) {
                g.reconnect_at = None;
                self.open_get_stream(now);
            }
        }
    }

    // ---- plumbing shared by the flows ----------------------------------------------------------

    fn new_op(&mut self, kind: OpKind, opts: &RequestOptions, internal: bool, now: u64) -> OpId {
        let id = OpId(self.next_op);
        self.next_op += 1;
        // A sign-in waits for a person: bounded by the authorizer's own deadline instead. A
        // close waits for the session's DELETE at most as long as a request (or, without a
        // request timeout, `CLOSE_TIMEOUT_MS`).
        let long_lived = matches!(kind, OpKind::Listen { .. } | OpKind::Authorize);
        let closing = matches!(kind, OpKind::Close);
        let op = Op {
            kind,
            internal,
            waiters: Vec::new(),
            waiting_on: None,
            started: now,
            activity: now,
            timeout_ms: if long_lived {
                None
            } else if closing {
                Some(self.cfg.request_timeout_ms.unwrap_or(CLOSE_TIMEOUT_MS))
            } else {
                opts.timeout_ms.or(self.cfg.request_timeout_ms)
            },
            total_ms: if long_lived {
                None
            } else {
                self.cfg.max_total_timeout_ms
            },
            rpc: None,
            exchange: None,
            progress_token: None,
            last_progress: None,
            wake_at: None,
            resume_from: None,
            retry_ms: None,
            attempts: 0,
            throttle_retries: 0,
            idempotent: opts.idempotent,
            user_inputs_open: 0,
            auth_flows: 0,
            auth_replays: 0,
            waiting_auth: false,
            header_retry_used: false,
            version_retry_used: false,
            session_retry_used: false,
            session_gen: 0,
        };
        self.ops.insert(id, op);
        if opts.progress {
            let token = id.0 as i64;
            self.progress.insert(token, id);
            if let Some(op) = self.ops.get_mut(&id) {
                op.progress_token = Some(token);
            }
        }
        id
    }

    fn next_rpc_id(&mut self) -> RequestId {
        let id = RequestId::Number(self.next_rpc);
        self.next_rpc += 1;
        id
    }

    fn new_exchange(
        &mut self,
        mut ex: Exchange,
        mut request: crate::proto::http::HttpRequest,
    ) -> ExchangeId {
        let id = ExchangeId(self.next_exchange);
        self.next_exchange += 1;
        if let (Some(a), false) = (&self.auth, matches!(ex.purpose, Purpose::Auth { .. })) {
            // Every request to the MCP server carries the current credentials (MCP
            // `basic/authorization` "Token Requirements": "authorization MUST be included in
            // every HTTP request from client to server").
            a.decorate(&mut request);
            ex.auth_gen = a.generation();
        }
        if self.cfg.framing == Framing::Stdio {
            // One channel: requests are answered by id on stdout; notifications and replies are
            // done once written.
            if let Some(body) = request.body {
                let mut line = body.into_bytes();
                line.push(b'\n');
                self.lines.push_back(line);
            }
            if matches!(ex.purpose, Purpose::Notify { .. } | Purpose::Reply) {
                self.written.push_back(ex.purpose);
            }
            return id;
        }
        self.exchanges.insert(id, ex);
        self.transmits.push_back(Transmit {
            exchange: id,
            request,
        });
        id
    }

    /// Opens a GET or DELETE exchange on the endpoint; `op` (if any) owns it.
    fn send_bodiless(
        &mut self,
        method: crate::proto::http::Method,
        headers: Vec<(String, String)>,
        purpose: Purpose,
        op: Option<OpId>,
    ) -> ExchangeId {
        let url = self.cfg.endpoint.clone();
        let req = crate::proto::http::HttpRequest {
            method,
            url,
            headers,
            body: None,
            extras: Default::default(),
        };
        let ex = self.new_exchange(Exchange::new(purpose), req);
        if let Some(o) = op.and_then(|op| self.ops.get_mut(&op)) {
            o.exchange = Some(ex);
        }
        ex
    }

    fn abort_exchange(&mut self, id: ExchangeId) {
        if self.exchanges.remove(&id).is_some() {
            self.aborts.push_back(id);
        }
    }

    /// Stops an op's traffic: aborts its exchange, forgets its rpc id, withdraws its inputs.
    fn abort_op(&mut self, id: OpId, _now: u64) {
        self.stop_traffic(id);
        self.withdraw_inputs(id);
    }

    /// Aborts an op's exchange and forgets its rpc id (its inputs stay open).
    fn stop_traffic(&mut self, id: OpId) {
        let Some(op) = self.ops.get_mut(&id) else {
            return;
        };
        let ex = op.exchange.take();
        let rpc = op.rpc.take();
        if let Some(ex) = ex {
            self.abort_exchange(ex);
        }
        if let Some(rpc) = rpc {
            self.pending.remove(&rpc);
        }
    }

    fn withdraw_inputs(&mut self, op: OpId) {
        let gone: Vec<InputId> = self
            .inputs
            .iter()
            .filter(|(_, s)| match s {
                InputSlot::Round { op: o, .. } | InputSlot::TaskInput { op: o, .. } => *o == op,
                InputSlot::ServerRequest { op: o, .. } => *o == Some(op),
            })
            .map(|(k, _)| *k)
            .collect();
        for input in gone {
            self.inputs.remove(&input);
            self.events.push_back(Event::InputCancelled { input });
        }
    }

    /// Ends an op: emits `Completed` (unless internal) and wakes or fails its waiters.
    fn finish(&mut self, id: OpId, result: Result<Value, ProtocolError>, now: u64) {
        self.abort_op(id, now);
        let Some(op) = self.ops.remove(&id) else {
            return;
        };
        if let Some(t) = op.progress_token {
            self.progress.remove(&t);
        }
        if !op.internal {
            self.events.push_back(Event::Completed {
                op: id,
                result: result.clone(),
            });
        }
        for w in op.waiters {
            if let Some(wop) = self.ops.get_mut(&w) {
                wop.waiting_on = None;
                wop.activity = now;
            }
            match &result {
                Ok(_) => self.drive(w, now),
                Err(e) => self.finish(w, Err(e.clone()), now),
            }
        }
    }

    /// Makes `op` wait for `on` to finish.
    fn wait_for(&mut self, op: OpId, on: OpId) {
        if let Some(o) = self.ops.get_mut(&on) {
            o.waiters.push(op);
        }
        if let Some(o) = self.ops.get_mut(&op) {
            o.waiting_on = Some(on);
            o.exchange = None;
        }
    }

    fn jitter(&mut self, ms: u64) -> u64 {
        // xorshift64*: deterministic for a given seed; the host seeds it.
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        let r = self.rng.wrapping_mul(0x2545_f491_4f6c_dd1d);
        // Up to +25 % (saturating: a server's interval may be any number).
        ms.saturating_add(r % (ms / 4 + 1))
    }
}

impl Op {
    fn total_deadline(&self) -> Option<u64> {
        self.total_ms.map(|t| self.started.saturating_add(t))
    }
    /// When this op times out: the inactivity deadline (paused while waiting for user input or
    /// another op) or the hard total deadline, whichever comes first.
    fn deadline(&self) -> Option<u64> {
        let waiting_for_user = match &self.kind {
            OpKind::Request(r) => r.round.as_ref().is_some_and(|r| !r.pending.is_empty()),
            _ => false,
        } || self.user_inputs_open > 0
            || self.waiting_auth;
        let inner = if waiting_for_user || self.waiting_on.is_some() || self.wake_at.is_some() {
            None
        } else {
            self.timeout_ms.map(|t| self.activity.saturating_add(t))
        };
        match (inner, self.total_deadline()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}
