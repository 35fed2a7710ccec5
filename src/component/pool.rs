//! The `mcp-edge:client/pool` interface: the target-neutral [`PoolDriver`] (the one the JS and
//! Rust `McpPool` run) on a component host: clients are the session driver over the WASI host,
//! tasks and sleeps run on the component's executor, and every export drives them until its
//! future completes.
//!
//! ```text
//!   pool.connect-all ─► block_on(PoolDriver::connect_all)
//!                          ├─ host.connect ─► Client::connect (WasiHost)
//!                          ├─ client.list_all(tools)
//!                          └─ host.sleep (pool deadlines, backoff) ─► executor timers
//!   executor wait ─► one wasi:io/poll over every exchange read waits on and the next timer
//! ```

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use serde_json::{json, Value};

use super::exports::client::Error;
use super::exports::pool::{
    ExportFormat as WitFormat, Guest, GuestPool, InstructionsDelta, PoolCallOptions, PoolOptions,
};
use super::{client_options, convert, parse_object, seed, Component, WasiClient};
use crate::bindings::wasi::clocks::monotonic_clock;
use crate::client::config::ClientConfig;
use crate::client::{Client, Notice, NotificationReader};
use crate::pool::driver::{
    ClientSignal, DriverEvent, EventFn, LocalFuture, PoolClient, PoolDriver, PoolHost, PoolSetup,
    ServerTarget,
};
use crate::pool::{BackoffPolicy, OutboundGate, Policy, PoolError, Vars};
use crate::proto::auth::AuthConfig;
use crate::proto::session::{
    Event, ListKind, ProtocolError, RequestOptions, ServerInfo, SessionConfig,
};
use crate::tools::deferral::ToolSearchConfig;
use crate::tools::search::SearchOptions;
use crate::tools::{ExportFormat, ToolError};
use crate::transport::wasi_executor::{self as executor, block_on};
use crate::transport::wasi_host::WasiAuth;
use crate::util::bounded::{Bounded, Popped};
use crate::util::json::json_text;

/// Most pool events kept until the host takes them; the oldest go first.
pub const MAX_QUEUED_EVENTS: usize = 256;
/// Most bytes of event text `take-events` keeps between calls.
pub const MAX_QUEUED_EVENT_BYTES: usize = 1 << 20;

/// The pool host of the component: `wasi:http` clients, the executor's tasks and sleeps.
pub struct ComponentHost {
    epoch_ns: u64,
    /// What every server of the pool starts from.
    base: ClientConfig,
}

impl PoolHost for ComponentHost {
    type Client = ComponentClient;

    fn now(&self) -> u64 {
        monotonic_clock::now().saturating_sub(self.epoch_ns) / 1_000_000
    }

    fn spawn(&self, task: LocalFuture<()>) {
        executor::spawn(task);
    }

    fn sleep(&self, ms: u64) -> LocalFuture<()> {
        executor::sleep(ms)
    }

    fn client_config(&self, target: &ServerTarget<'_>) -> Result<ClientConfig, PoolError> {
        let mut c = self.base.clone();
        c.jitter_seed = Some(seed());
        if let Some(a) = target.auth {
            c.auth = Some(AuthConfig::from_json(a).map_err(|e| {
                PoolError::InvalidOption(format!("server {:?}: auth: {e}", target.name))
            })?);
        }
        Ok(c)
    }

    fn connect(
        &self,
        target: &ServerTarget<'_>,
        session: SessionConfig,
        _gate: Option<OutboundGate>,
    ) -> LocalFuture<Result<(ComponentClient, ServerInfo), PoolError>> {
        // `private_key_jwt`: the key is in the entry's `auth.privateKeyPem`.
        let key = target
            .auth
            .and_then(|a| a.get("privateKeyPem"))
            .and_then(Value::as_str)
            .map(str::to_string);
        let auth = session.auth.is_some().then(|| WasiAuth::new(key));
        Box::pin(async move {
            let (client, info) = Client::connect(client_options(session, auth)).await?;
            Ok((ComponentClient::new(client), info))
        })
    }
}

/// A pool member: one session's driver, the reader of its notifications, the signals they
/// carried that the pool has not taken yet, and whether the pool was told the session is lost.
#[derive(Clone)]
pub struct ComponentClient {
    client: WasiClient,
    notes: Rc<NotificationReader>,
    signals: Rc<RefCell<VecDeque<ClientSignal>>>,
    lost_told: Rc<Cell<bool>>,
}

impl ComponentClient {
    fn new(client: WasiClient) -> Self {
        ComponentClient {
            notes: Rc::new(client.notifications()),
            client,
            signals: Rc::new(RefCell::new(VecDeque::new())),
            lost_told: Rc::new(Cell::new(false)),
        }
    }
}

impl PoolClient for ComponentClient {
    /// The call's inactivity limit in milliseconds.
    type CallOptions = Option<u64>;

    fn list(
        &self,
        kind: ListKind,
        timeout_ms: Option<u64>,
    ) -> LocalFuture<Result<Value, ProtocolError>> {
        let c = self.client.clone();
        let opts = RequestOptions {
            timeout_ms,
            ..RequestOptions::default()
        };
        Box::pin(async move { c.list_all(kind, opts).await })
    }

    fn probe(&self, timeout_ms: u64) -> LocalFuture<Result<(), ProtocolError>> {
        let c = self.client.clone();
        Box::pin(async move { c.probe(timeout_ms).await })
    }

    fn is_connected(&self) -> bool {
        self.client.is_connected()
    }

    /// Pool members of the component keep no standing stream (work moves only while an export
    /// runs; see the table in docs/component.md): this resolves when the session is closed, which
    /// ends the pool's watcher of a retired client and lets the client go.
    fn listen(&self, _filter: Value) -> LocalFuture<Result<Value, ProtocolError>> {
        let c = self.client.clone();
        Box::pin(std::future::poll_fn(move |_| {
            if c.is_closed() {
                Poll::Ready(Ok(Value::Null))
            } else {
                Poll::Pending
            }
        }))
    }

    /// The next signal from what the session queued while an export ran: a list change the
    /// server announced on a response stream (no standing stream here, so it shows when one
    /// arrives with a call's or a list's answer), or the session lost; `None` once the session is
    /// closed, which ends the pool's watcher. Repeated changes of one list not yet taken count
    /// once; the other queued notifications (no host reads a pool member's queue) are dropped.
    fn next_signal(&self) -> LocalFuture<Option<ClientSignal>> {
        let c = self.clone();
        Box::pin(std::future::poll_fn(move |_| {
            if c.client.is_closed() {
                return Poll::Ready(None);
            }
            if !c.lost_told.get() && !c.client.is_connected() {
                c.lost_told.set(true);
                return Poll::Ready(Some(ClientSignal::Lost));
            }
            let mut cx = Context::from_waker(Waker::noop());
            let mut signals = c.signals.borrow_mut();
            while let Poll::Ready(Some(notice)) = Pin::new(&mut c.notes.next()).poll(&mut cx) {
                let Notice::Event(Event::Notification { method, .. }) = notice else {
                    continue;
                };
                // One pending change per list (at most three queued): a flood of them asks for
                // one refresh, not one each.
                match ClientSignal::from_notification(&method) {
                    Some(signal) if !signals.contains(&signal) => signals.push_back(signal),
                    _ => {}
                }
            }
            match signals.pop_front() {
                Some(signal) => Poll::Ready(Some(signal)),
                None => Poll::Pending,
            }
        }))
    }

    fn call_tool(
        &self,
        tool: &str,
        arguments: Value,
        options: Option<u64>,
    ) -> LocalFuture<Result<Value, ProtocolError>> {
        let c = self.client.clone();
        let tool = tool.to_string();
        Box::pin(async move {
            c.check_request_timeout(options)?;
            c.ensure_output_schemas().await?;
            let params = json!({"name": tool, "arguments": arguments});
            let opts = RequestOptions {
                timeout_ms: options,
                ..RequestOptions::default()
            };
            let pending = c.start_request("tools/call", params, opts, None);
            c.call_tool(pending, &tool).await
        })
    }

    fn close(&self) -> LocalFuture<()> {
        let c = self.client.clone();
        Box::pin(async move {
            if !c.is_closed() {
                let _ = c.close().await;
            }
        })
    }
}

/// Whichever of two futures completes first.
struct First<A, B> {
    a: A,
    b: B,
}

impl<T, A: Future<Output = T> + Unpin, B: Future<Output = T> + Unpin> Future for First<A, B> {
    type Output = T;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<T> {
        if let Poll::Ready(v) = Pin::new(&mut self.a).poll(cx) {
            return Poll::Ready(v);
        }
        Pin::new(&mut self.b).poll(cx)
    }
}

fn pool_error(e: &PoolError) -> Error {
    match e {
        PoolError::Protocol(p) => convert::error(p),
        other => {
            let mut error = convert::config_error(other.to_string());
            error.code = other.code().to_string();
            error
        }
    }
}

fn tool_error(e: &ToolError) -> Error {
    let mut error = convert::config_error(e.to_string());
    error.code = e.code().to_string();
    error
}

fn format(f: WitFormat) -> ExportFormat {
    match f {
        WitFormat::Openai => ExportFormat::OpenAi,
        WitFormat::OpenaiResponses => ExportFormat::OpenAiResponses,
        WitFormat::Anthropic => ExportFormat::Anthropic,
        WitFormat::Mcp => ExportFormat::Mcp,
    }
}

/// The `pool` resource.
pub struct McpPool {
    driver: PoolDriver<ComponentHost>,
    events: Rc<RefCell<Bounded<String>>>,
}

/// The pool's setup and the client configuration its servers start from, from the WIT
/// `pool-options`.
fn setup(options: Option<PoolOptions>) -> Result<(PoolSetup, ClientConfig), Error> {
    let mut s = PoolSetup::default();
    let mut d = ClientConfig::default();
    // A component reads nothing between calls: the 2025-era GET stream would only pile up.
    d.open_get_stream = Some(false);
    super::input::declare(&mut d.capabilities);
    let Some(o) = options else {
        return Ok((s, d));
    };
    s.vars = o.vars.unwrap_or_default().into_iter().collect::<Vars>();
    if let Some(text) = o.project_config_json {
        s.project_config = Some(crate::pool::config::parse_text(&text));
    }
    if let Some(text) = o.policy_json {
        let v = parse_object(&text, "policy-json")?;
        s.policy = Policy::from_value(&v).map_err(|e| pool_error(&e))?;
    }
    s.max_concurrent_connects = o.max_concurrent_connects.map(|n| n as usize);
    s.connect_timeout_ms = o.connect_timeout_ms;
    if let Some(text) = o.client_info_json {
        d.client_info = Some(parse_object(&text, "client-info-json")?);
    }
    d.timeouts.inactivity_ms = o.request_timeout_ms;
    if let Some(text) = o.reconnect_json {
        let v = parse_object(&text, "reconnect-json")?;
        s.backoff = Some(BackoffPolicy::from_json(&v).map_err(|e| pool_error(&e))?);
    }
    if let Some(text) = o.tool_search_json {
        let v = parse_object(&text, "tool-search-json")?;
        s.tool_search = ToolSearchConfig::from_json(&v).map_err(|e| tool_error(&e))?;
    }
    Ok((s, d))
}

impl Guest for Component {
    type Pool = McpPool;
}

impl GuestPool for McpPool {
    fn create(
        config_json: String,
        options: Option<PoolOptions>,
    ) -> Result<super::exports::pool::Pool, Error> {
        // A document the pool cannot use fails open: an empty pool whose status says why.
        let config = crate::pool::config::parse_text(&config_json);
        let (setup, base) = setup(options)?;
        let events: Rc<RefCell<Bounded<String>>> = Rc::new(RefCell::new(Bounded::new(
            MAX_QUEUED_EVENTS,
            MAX_QUEUED_EVENT_BYTES,
        )));
        let queue = events.clone();
        let listener: EventFn = Rc::new(move |e: &DriverEvent| {
            let text = json_text(&e.to_json());
            let size = text.len();
            queue.borrow_mut().push(text, size);
        });
        let host = ComponentHost {
            epoch_ns: monotonic_clock::now(),
            base,
        };
        let driver = setup
            .driver(
                host,
                config.as_ref().map_err(Clone::clone),
                seed(),
                Some(listener),
            )
            .map_err(|e| pool_error(&e))?;
        Ok(super::exports::pool::Pool::new(McpPool { driver, events }))
    }

    fn connect_all(&self) -> String {
        let _ = block_on(self.driver.connect_all());
        self.status()
    }

    fn settle(&self, ms: u64) -> String {
        let settled: LocalFuture<()> = {
            let d = self.driver.clone();
            Box::pin(async move {
                d.connect_all().await;
            })
        };
        let _ = block_on(First {
            a: settled,
            b: executor::sleep(ms),
        });
        self.status()
    }

    fn status(&self) -> String {
        serde_json::to_string(&self.driver.status()).unwrap_or_else(|_| "{}".into())
    }

    fn tools(&self, f: WitFormat) -> String {
        json_text(&Value::Array(self.driver.tools(format(f))))
    }

    fn deferral(&self, f: WitFormat) -> String {
        json_text(&self.driver.deferral(format(f)).to_json())
    }

    fn search_tools(&self, query: String, options_json: Option<String>) -> Result<String, Error> {
        let v = match options_json {
            Some(text) => parse_object(&text, "options-json")?,
            None => Value::Null,
        };
        let o = SearchOptions::from_json(&v).map_err(|e| tool_error(&e))?;
        Ok(json_text(&Value::Array(
            self.driver.search_tools(&query, &o),
        )))
    }

    fn search_answer(
        &self,
        arguments_json: String,
        f: WitFormat,
        call_id: Option<String>,
    ) -> Result<String, Error> {
        let args = parse_object(&arguments_json, "arguments-json")?;
        self.driver
            .search_answer(&args, format(f), call_id.as_deref())
            .map(|v| json_text(&v))
            .map_err(|e| pool_error(&e))
    }

    fn token_estimates(&self, f: WitFormat) -> Vec<(String, u64)> {
        self.driver
            .token_estimates(format(f))
            .into_iter()
            .map(|(k, v)| (k, v as u64))
            .collect()
    }

    fn instructions(&self) -> InstructionsDelta {
        let delta = self.driver.instructions();
        InstructionsDelta {
            text: delta.text(),
            joined: delta.joined.into_iter().map(|(server, _)| server).collect(),
            left: delta.left,
        }
    }

    fn call(
        &self,
        name: String,
        arguments_json: String,
        options: Option<PoolCallOptions>,
    ) -> String {
        let arguments = match parse_object(&arguments_json, "arguments-json") {
            Ok(v) => v,
            Err(e) => {
                return json_text(&json!({
                    "content": [{"type": "text", "text": e.message}],
                    "isError": true,
                    "error": {"code": e.code, "message": e.message},
                }))
            }
        };
        let timeout = options.and_then(|o| o.timeout_ms);
        match block_on(self.driver.call(&name, arguments, timeout)) {
            Some(outcome) => json_text(&outcome.to_json()),
            None => {
                let message = "the call can make no more progress".to_string();
                json_text(&json!({
                    "content": [{"type": "text", "text": message}],
                    "isError": true,
                    "error": {"code": "NETWORK", "message": message},
                }))
            }
        }
    }

    fn approve_server(&self, server: String) -> Result<bool, Error> {
        self.driver
            .approve_server(&server)
            .map_err(|e| pool_error(&e))
    }

    fn reject_server(&self, server: String) -> Result<bool, Error> {
        self.driver
            .reject_server(&server)
            .map_err(|e| pool_error(&e))
    }

    fn reconnect(&self, server: String) -> Result<(), Error> {
        self.driver.reconnect(&server).map_err(|e| pool_error(&e))
    }

    fn accept_tool(&self, name: String) -> Result<(), Error> {
        self.driver.accept_tool(&name).map_err(|e| pool_error(&e))
    }

    fn take_events(&self) -> Vec<String> {
        let mut q = self.events.borrow_mut();
        std::iter::from_fn(|| q.pop())
            .map(|p| match p {
                Popped::Item(text) => text,
                Popped::Gap(dropped) => json_text(&json!({"type": "gap", "dropped": dropped})),
            })
            .collect()
    }

    fn close(&self) {
        let _ = block_on(self.driver.close());
    }
}
