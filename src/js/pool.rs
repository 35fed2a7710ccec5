//! `McpPool`: many servers behind one tool registry. The pure logic is [`crate::pool::PoolCore`]
//! (states, bounded concurrent connects, timeouts, backoff) and [`crate::tools::ToolRegistry`]
//! (naming, adapters, exports, pinning); this file only drives them with real clients.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use serde_json::{json, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use super::client::{call_options, client_options, run_with, session_config};
use super::convert::{error_json, error_to_js, from_js, get, get_fn, invalid_argument, to_js};
use crate::client::timer::Timer;
use crate::client::Client;
use crate::pool::{
    Attempt, BreakerConfig, BreakerSet, ConnectInfo, OutboundGate, Policy, PoolConfig, PoolCore,
    PoolError, PoolEvent, PoolOptions, ServerState, Transport, Vars, EDGE_MAX_OUTBOUND,
};
use crate::proto::session::{ListKind, RequestOptions};
use crate::tools::export::InstructionsTracker;
use crate::tools::{flatten_result, AdaptOptions, ExportFormat, ToolRegistry};
use crate::transport::timer::now_ms;

struct PoolState {
    core: PoolCore,
    registry: ToolRegistry,
    breakers: BreakerSet,
    clients: BTreeMap<String, Client>,
    settled: Vec<std::task::Waker>,
    timer: Option<Timer>,
    instructions: InstructionsTracker,
}

struct PoolInner {
    state: RefCell<PoolState>,
    base: JsValue,
    on_event: Option<js_sys::Function>,
    /// Edge mode: one bound on the outbound exchanges of all clients (attempts, calls, closes).
    gate: Option<OutboundGate>,
    epoch: f64,
}

impl PoolInner {
    fn now(&self) -> u64 {
        (now_ms() - self.epoch).max(0.0) as u64
    }
}

/// Many MCP servers as one tool registry: concurrent connects with per-server timeouts, failures
/// isolated per server, `mcp__<server>__<tool>` names, exports for LLM APIs.
#[wasm_bindgen(skip_typescript)]
pub struct McpPool {
    inner: Rc<PoolInner>,
}

fn parse_vars(options: &JsValue) -> Result<Vars, JsValue> {
    match from_js(&get(options, "vars"))? {
        Value::Null => Ok(Vars::new()),
        v => serde_json::from_value(v)
            .map_err(|_| invalid_argument("vars must map names to strings")),
    }
}

fn pool_error_to_js(e: &PoolError) -> JsValue {
    match e {
        PoolError::Protocol(p) => error_to_js(p),
        other => super::glue::make_mcp_error(other.code(), &other.to_string(), &JsValue::UNDEFINED),
    }
}

fn emit(inner: &Rc<PoolInner>, v: Value) {
    if let Some(f) = &inner.on_event {
        let _ = f.call1(&JsValue::NULL, &to_js(&v));
    }
}

/// Moves the pool: drains its events, starts every connect it allows now, fires its timer.
fn pump(inner: &Rc<PoolInner>) {
    loop {
        let now = inner.now();
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
            emit(inner, json!({"type": "attemptAborted", "server": a.server}));
        }
        for e in events {
            match e {
                PoolEvent::StateChanged {
                    server,
                    from,
                    to,
                    error,
                } => {
                    if from == ServerState::Connected && to != ServerState::Connected {
                        let mut st = inner.state.borrow_mut();
                        st.registry.remove_server(&server);
                        st.clients.remove(&server);
                    }
                    let error = error.map(|e| json!({"code": e.code(), "message": e.to_string()}));
                    emit(
                        inner,
                        json!({"type": "state", "server": server, "from": from.as_str(), "to": to.as_str(), "error": error}),
                    );
                }
                PoolEvent::ToolCount { server, count } => {
                    emit(
                        inner,
                        json!({"type": "toolCount", "server": server, "count": count}),
                    );
                }
            }
        }
        for a in attempts {
            wasm_bindgen_futures::spawn_local(connect_one(inner.clone(), a));
        }
    }
    let settled = all_settled(&inner.state.borrow().core);
    if settled {
        let waiters = std::mem::take(&mut inner.state.borrow_mut().settled);
        for w in waiters {
            w.wake();
        }
    }
    schedule(inner);
}

fn schedule(inner: &Rc<PoolInner>) {
    let now = inner.now();
    let weak = Rc::downgrade(inner);
    let mut st = inner.state.borrow_mut();
    let due = st.core.poll_timeout();
    Timer::rearm(&mut st.timer, due, now, move || {
        let Some(inner) = weak.upgrade() else { return };
        let now = inner.now();
        let fired = {
            let mut st = inner.state.borrow_mut();
            st.core.handle_timeout(now);
            st.timer.take()
        };
        Timer::drop_later(fired);
        pump(&inner);
    });
}

async fn connect_one(inner: Rc<PoolInner>, attempt: Attempt) {
    let config = inner.state.borrow().core.config(&attempt.server).cloned();
    let result: Result<(Client, ConnectInfo, Value), PoolError> = async {
        let config = config.ok_or_else(|| PoolError::UnknownServer(attempt.server.clone()))?;
        let (url, headers) = match &config.transport {
            Transport::Http { url, headers } => (url.clone(), headers.clone()),
            Transport::Stdio { .. } => return Err(PoolError::UnknownServer(attempt.server.clone())),
        };
        let timeout = attempt.deadline.saturating_sub(inner.now()).max(1);
        let bad_options = |_| PoolError::InvalidOption("the pool's client options are invalid".into());
        let mut session = session_config(&url, &inner.base).map_err(bad_options)?;
        // OAuth per server: the configuration's `auth` over the pool-level hooks.
        let auth_options =
            super::auth::pool_server_options(&inner.base, &attempt.server, config.auth.as_ref())
                .map_err(bad_options)?;
        session.auth = super::auth::auth_config(&auth_options).map_err(bad_options)?;
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
        if inner.gate.is_some() && get(&inner.base, "openGetStream").as_bool() != Some(true) {
            // Edge mode: a 2025 GET stream would hold one of the few outbound slots for the
            // client's whole life; it is opt-in there.
            session.open_get_stream = false;
        }
        let mut opts = client_options(session, &inner.base).map_err(bad_options)?;
        opts.gate = inner.gate.clone();
        let (auth_host, auth_fetch) = super::auth::auth_host(&auth_options).map_err(bad_options)?;
        opts.auth = auth_host;
        opts.auth_fetch = auth_fetch;
        let (client, info) = Client::connect(opts).await.map_err(PoolError::from)?;
        let tools = client.list_all(ListKind::Tools, RequestOptions::default()).await.map_err(PoolError::from)?;
        client.set_timeouts(defaults.0, defaults.1);
        let list = tools.get("tools").cloned().unwrap_or(json!([]));
        let ci = ConnectInfo { era: Some(info.era), protocol_version: Some(info.protocol_version.clone()), tool_count: 0 };
        let extra = json!({"instructions": info.instructions, "category": config.category.map(|c| c.as_str())});
        Ok((client, ci, json!({"tools": list, "extra": extra})))
    }
    .await;
    let now = inner.now();
    {
        let mut st = inner.state.borrow_mut();
        match result {
            Ok((client, mut info, found)) => {
                let category = st.core.config(&attempt.server).and_then(|c| c.category);
                let instructions = found["extra"]["instructions"].as_str().map(str::to_string);
                let tools = found["tools"].as_array().cloned().unwrap_or_default();
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
                    wasm_bindgen_futures::spawn_local(async move {
                        let _ = client.close().await;
                    });
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
struct Settled {
    inner: Rc<PoolInner>,
}

impl std::future::Future for Settled {
    type Output = ();
    fn poll(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<()> {
        let mut st = self.inner.state.borrow_mut();
        if all_settled(&st.core) {
            return std::task::Poll::Ready(());
        }
        st.settled.push(cx.waker().clone());
        std::task::Poll::Pending
    }
}

#[wasm_bindgen]
impl McpPool {
    /// A pool over an `{mcpServers: {...}}` document; see the TypeScript declarations.
    #[wasm_bindgen(constructor)]
    pub fn new(config: JsValue, options: JsValue) -> Result<McpPool, JsValue> {
        let vars = parse_vars(&options)?;
        let doc = from_js(&config)?;
        let cfg = match from_js(&get(&options, "projectConfig"))? {
            Value::Null => PoolConfig::from_value(&doc, &vars),
            project => PoolConfig::from_layers(&doc, &project, &vars),
        }
        .map_err(|e| pool_error_to_js(&e))?;
        let policy = match from_js(&get(&options, "policy"))? {
            Value::Null => Policy::default(),
            p => Policy::from_value(&p).map_err(|e| pool_error_to_js(&e))?,
        };
        let edge = get(&options, "edge").as_bool() == Some(true);
        let mut po = if edge {
            PoolOptions::edge()
        } else {
            PoolOptions::default()
        };
        if let Some(n) = get(&options, "maxConcurrentConnects").as_f64() {
            po.max_in_flight = (n.max(1.0)) as usize;
        }
        if let Some(n) = get(&options, "connectTimeoutMs").as_f64() {
            po.default_timeout_ms = n.max(1.0) as u64;
        }
        po.jitter_seed = (js_sys::Math::random() * 9.0e15) as u64;
        let core = PoolCore::new(&cfg, &policy, po).map_err(|e| pool_error_to_js(&e))?;
        let inner = Rc::new(PoolInner {
            state: RefCell::new(PoolState {
                core,
                registry: ToolRegistry::new(AdaptOptions::default(), Default::default()),
                breakers: BreakerSet::new(BreakerConfig::default()),
                clients: BTreeMap::new(),
                settled: Vec::new(),
                timer: None,
                instructions: InstructionsTracker::default(),
            }),
            base: options.clone(),
            on_event: get_fn(&options, "onEvent")?,
            gate: edge.then(|| OutboundGate::new(EDGE_MAX_OUTBOUND)),
            epoch: now_ms(),
        });
        Ok(McpPool { inner })
    }

    /// Connects every enabled server concurrently (bounded); resolves when each one is connected,
    /// failed, waiting for auth, disabled or unsupported. Never rejects for one server's failure.
    #[wasm_bindgen(js_name = connectAll)]
    pub fn connect_all(&self) -> js_sys::Promise {
        let inner = self.inner.clone();
        future_to_promise(async move {
            pump(&inner);
            Settled {
                inner: inner.clone(),
            }
            .await;
            Ok(to_js(
                &serde_json::to_value(inner.state.borrow().core.status()).unwrap_or(Value::Null),
            ))
        })
    }

    /// Per-server state, last error, tool count, era.
    pub fn status(&self) -> JsValue {
        to_js(&serde_json::to_value(self.inner.state.borrow().core.status()).unwrap_or(Value::Null))
    }

    /// Every tool of every connected server, in a deterministic order (server, then tool), in the
    /// shape `format` ("openai" | "openai-responses" | "anthropic" | "mcp") accepts.
    pub fn tools(&self, options: JsValue) -> Result<JsValue, JsValue> {
        let format = match get(&options, "format").as_string() {
            None => ExportFormat::Mcp,
            Some(f) => ExportFormat::parse(&f).ok_or_else(|| {
                invalid_argument("format must be openai, openai-responses, anthropic or mcp")
            })?,
        };
        Ok(to_js(&Value::Array(
            self.inner.state.borrow().registry.tools(format),
        )))
    }

    /// The servers' instructions as `<system-reminder>` blocks, and what changed since the last call
    /// (`{text, joined, left}`: the blocks, then the names of the servers whose instructions are
    /// new or changed and of those that are gone): deliver `text` once, when it is not empty.
    pub fn instructions(&self) -> JsValue {
        let mut st = self.inner.state.borrow_mut();
        let current = st.registry.instructions();
        let delta = st.instructions.update(&current);
        let joined: Vec<&str> = delta
            .joined
            .iter()
            .map(|(server, _)| server.as_str())
            .collect();
        to_js(&json!({"text": delta.text(), "joined": joined, "left": delta.left}))
    }

    /// Estimated tokens each server's tool definitions cost in `format`.
    #[wasm_bindgen(js_name = tokenEstimates)]
    pub fn token_estimates(&self, format: String) -> Result<JsValue, JsValue> {
        let f = ExportFormat::parse(&format).ok_or_else(|| invalid_argument("unknown format"))?;
        Ok(to_js(
            &serde_json::to_value(self.inner.state.borrow().registry.token_estimates(f))
                .unwrap_or(Value::Null),
        ))
    }

    /// Calls `mcp__<server>__<tool>`. Always resolves: tool failures, protocol errors, an open
    /// circuit or a server that is down come back as `{content, isError: true}` for the model.
    /// The result is flattened for an LLM (`content` is one text block); `raw` holds the server's
    /// result when there was one.
    pub fn call(&self, name: String, args: JsValue, options: JsValue) -> js_sys::Promise {
        let inner = self.inner.clone();
        future_to_promise(async move {
            let opts = call_options(&options)?;
            let arguments = match from_js(&args)? {
                Value::Null => json!({}),
                v => v,
            };
            let now = inner.now();
            let routed = {
                let mut st = inner.state.borrow_mut();
                let route = st.registry.route(&name);
                match route {
                    Ok((server, tool)) => match st.breakers.try_call(&name, now) {
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
                Err((code, message)) => {
                    let mut r = crate::tools::adapt::FlatResult::error(&message).to_call_result();
                    r["error"] = json!({"code": code, "message": message});
                    return Ok(to_js(&r));
                }
            };
            let outcome = run_with(
                &client,
                "tools/call",
                json!({"name": tool, "arguments": arguments}),
                opts,
            )
            .await;
            let outcome = outcome.and_then(|v| client.check_tool_result(&tool, &v).map(|_| v));
            let now = inner.now();
            // Transport failures and timeouts count against the tool's breaker; isError results
            // are answers, not failures of the server.
            let ok = !matches!(&outcome, Err(e) if !matches!(e, crate::proto::session::ProtocolError::Rpc { .. } | crate::proto::session::ProtocolError::Cancelled));
            inner.state.borrow_mut().breakers.record(&name, now, ok);
            let flat = match &outcome {
                Ok(v) => {
                    let mut r = flatten_result(v, &AdaptOptions::default()).to_call_result();
                    r["raw"] = v.clone();
                    r
                }
                Err(e) => {
                    let mut r =
                        crate::tools::adapt::FlatResult::error(format!("the call failed: {e}"))
                            .to_call_result();
                    // The typed error, for hosts that act on it (retry, re-authenticate, ...).
                    r["error"] = error_json(e);
                    r
                }
            };
            Ok(to_js(&flat))
        })
    }

    /// Retries a failed server now (also after the user signed in).
    pub fn reconnect(&self, server: String) -> Result<(), JsValue> {
        self.inner
            .state
            .borrow_mut()
            .core
            .reconnect(&server)
            .map_err(|e| pool_error_to_js(&e))?;
        pump(&self.inner);
        Ok(())
    }

    /// Accepts a tool held back because its description or schema changed since it was pinned.
    #[wasm_bindgen(js_name = acceptTool)]
    pub fn accept_tool(&self, name: String) -> Result<(), JsValue> {
        self.inner
            .state
            .borrow_mut()
            .registry
            .accept(&name)
            .map_err(|e| pool_error_to_js(&e))
    }

    /// Closes every client (2025 era: DELETE) and stops all timers.
    pub fn close(&self) -> js_sys::Promise {
        let inner = self.inner.clone();
        future_to_promise(async move {
            let clients: Vec<Client> = {
                let mut st = inner.state.borrow_mut();
                let names: Vec<String> = st.core.server_names().map(str::to_string).collect();
                for n in names {
                    let _ = st.core.disable(&n);
                }
                st.timer = None;
                std::mem::take(&mut st.clients).into_values().collect()
            };
            for c in clients {
                let _ = c.close().await;
            }
            inner.state.borrow_mut().timer = None;
            Ok(JsValue::UNDEFINED)
        })
    }
}
