//! The WebAssembly component (wasm32-wasip2): the `mcp-edge:client/client` interface of
//! `wit/client.wit`, implemented over the same session driver as the JS surface.
//!
//! ```text
//!   host ─► client.call-tool(name, args) ─► block_on(Client::call_tool)
//!                                              (wasi:http exchanges, wasi:io/poll, clock)
//!   host ◄─ tool-result { result, progress events } ◄─ the call's result and progress callback
//! ```
//!
//! Every export is synchronous: it starts its operation on the driver ([`Client`] over
//! [`WasiHost`]) and runs the component's executor until the operation completes. Build with
//! `cargo build --target wasm32-wasip2 --release --features component --lib`; the wasip2 target
//! links the export bindings below into a component directly.

pub mod auth;
pub mod convert;
pub mod input;
pub mod pool;

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use serde_json::{Map, Value};

use crate::client::config::{learn_era, ClientConfig, Limits, Timeouts};
use crate::client::{Client, ClientOptions, InputHandler, Notice, NotificationReader, Pending};
use crate::proto::session::{
    Era, ListKind, Progress, ProtocolError, RequestOptions, SessionConfig,
};
use crate::transport::wasi_executor::{block_on, sleep};
use crate::transport::wasi_host::{WasiAuth, WasiHost};

/// The exported interface's generated types.
pub mod exports {
    /// `mcp-edge:client/client`.
    pub use crate::bindings::exports::mcp_edge::client::client;
    /// `mcp-edge:client/pool`.
    pub use crate::bindings::exports::mcp_edge::client::pool;
}

/// The driver every client of the component runs.
pub type WasiClient = Client<WasiHost>;

/// Most progress events kept per call (a server may send any number)...
pub const MAX_PROGRESS_EVENTS: usize = 1024;
/// ...and most bytes of their messages and task reports.
pub const MAX_PROGRESS_BYTES: usize = 1 << 20;

/// The progress a call saw: the first events up to the bounds, and how many more were dropped.
#[derive(Debug, Default)]
pub struct SeenLog {
    /// The events kept, in arrival order.
    pub events: Vec<SeenProgress>,
    bytes: usize,
    /// Events beyond the bounds.
    pub dropped: u64,
}

impl SeenLog {
    fn push(&mut self, p: SeenProgress) {
        let size = 64
            + p.message.as_ref().map_or(0, String::len)
            + p.task.as_ref().map_or(0, |t| t.to_string().len());
        if self.events.len() < MAX_PROGRESS_EVENTS && self.bytes + size <= MAX_PROGRESS_BYTES {
            self.bytes += size;
            self.events.push(p);
        } else {
            self.dropped += 1;
        }
    }
}

/// One progress notification as the component saw it.
#[derive(Debug, Clone, PartialEq)]
pub struct SeenProgress {
    /// Progress so far.
    pub progress: f64,
    /// The total, when known.
    pub total: Option<f64>,
    /// The message, when sent.
    pub message: Option<String>,
    /// Arrival time, milliseconds on the client's clock.
    pub at_ms: u64,
    /// A task's status report: the task as JSON.
    pub task: Option<Value>,
}

use exports::client::{
    CallOptions, ConnectOptions, Error, GuestClient, Notification, Prompt, PromptResult, Resource,
    ResourceContents, ServerInfo as WitServerInfo, Tool, ToolCall, ToolResult,
};

/// The component's export type.
pub struct Component;

impl exports::client::Guest for Component {
    type Client = McpClient;
}

/// The `client` resource: one session's driver and the reader of its notifications.
pub struct McpClient {
    client: WasiClient,
    notes: NotificationReader,
    /// A notification taken while waiting for one, not yet handed to the host.
    early: RefCell<Option<Notice>>,
    /// The standing `listen-json` stream, until it ends: its end is reported once.
    listen: RefCell<Option<Standing>>,
}

/// The standing stream's operation, awaited for its end.
type Standing = Pin<Box<dyn Future<Output = Result<Value, ProtocolError>>>>;

impl Drop for McpClient {
    /// Closes the session (2025 era: its DELETE goes out during the next export) so that no
    /// stream of a dropped client stays open.
    fn drop(&mut self) {
        if !self.client.is_closed() {
            self.client.close_later();
        }
    }
}

fn parse_object(text: &str, what: &str) -> Result<Value, Error> {
    match serde_json::from_str::<Value>(text) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(_) => Err(convert::config_error(format!(
            "{what} must be a JSON object"
        ))),
        Err(e) => Err(convert::config_error(format!(
            "{what} is not valid JSON: {e}"
        ))),
    }
}

/// The WIT `connect-options` as the client's configuration, and, with OAuth, the client's
/// authorization host (its private key for `private_key_jwt`).
fn config(
    url: &str,
    options: Option<ConnectOptions>,
) -> Result<(SessionConfig, Option<WasiAuth>), Error> {
    // A URL no request can go to: a network error naming the rule, as `wasi:http` would give.
    crate::client::config::check_url(url).map_err(|_| {
        convert::error(&ProtocolError::Network(format!(
            "only http and https URLs are supported: {url:?}"
        )))
    })?;
    let mut c = ClientConfig::default();
    // A component moves only while an export runs: without `listen-json` no standing stream is
    // kept. Notifications still arrive on each call's own response stream.
    c.open_get_stream = Some(false);
    c.jitter_seed = Some(seed());
    let mut host = None;
    if let Some(o) = options {
        for (name, value) in o.headers.unwrap_or_default() {
            c.set_header(&name, &value);
        }
        if let Some(v) = o.protocol_version {
            c.set_protocol(&v);
        }
        c.timeouts = Timeouts {
            inactivity_ms: o.request_timeout_ms,
            total_ms: o.max_total_timeout_ms,
            connect_ms: o.connect_timeout_ms,
        };
        let bytes = |n: Option<u64>| n.map(|n| usize::try_from(n).unwrap_or(usize::MAX));
        c.limits = Limits {
            max_event_bytes: bytes(o.max_event_bytes),
            max_body_bytes: bytes(o.max_body_bytes),
        };
        if let Some(text) = o.client_info_json {
            c.client_info = Some(parse_object(&text, "client-info-json")?);
        }
        if let Some(text) = o.capabilities_json {
            if let Value::Object(m) = parse_object(&text, "capabilities-json")? {
                c.capabilities = m;
            }
        }
        if let Some(text) = &o.listen_json {
            parse_object(text, "listen-json")?;
            // 2025 era: the GET stream is the standing stream.
            c.open_get_stream = Some(true);
        }
        if let Some(text) = &o.extensions_json {
            if let Value::Object(m) = parse_object(text, "extensions-json")? {
                c.extensions.extend(m);
            }
        }
        if let Some(on) = o.tasks {
            let settings = if on {
                serde_json::json!({})
            } else {
                Value::Bool(false)
            };
            c.extensions
                .insert(crate::proto::session::TASKS_EXTENSION.into(), settings);
        }
        c.max_task_wait_ms = o.max_task_wait_ms;
        if let Some(a) = o.auth {
            c.auth = Some(auth::config(&a).map_err(|e| convert::error(&ProtocolError::Auth(e)))?);
            host = Some(WasiAuth::new(a.private_key_pem));
        }
    }
    input::declare(&mut c.capabilities);
    let cfg = c.session_config(url).map_err(|e| convert::error(&e))?;
    Ok((cfg, host))
}

/// A seed for the session's reconnect jitter, from the monotonic clock (the core draws no
/// randomness of its own).
fn seed() -> u64 {
    crate::bindings::wasi::clocks::monotonic_clock::now() | 1
}

/// Runs `f` to its end on the executor; an operation that can make no more progress (nothing in
/// flight, no timer) fails with a network error.
fn run<T>(f: impl Future<Output = Result<T, ProtocolError>>) -> Result<T, Error> {
    block_on(f)
        .unwrap_or_else(|| {
            Err(ProtocolError::Network(
                "no exchange in flight and no timer pending for this operation".into(),
            ))
        })
        .map_err(|e| convert::error(&e))
}

/// The input handler of a client of `url`: the host-input import, or a refusal for what the host
/// does not answer.
fn input_handler(url: &str) -> InputHandler {
    let endpoint = url.to_string();
    Rc::new(move |req| {
        let answer = input::answer(&req.method, &req.params, &endpoint);
        Box::pin(std::future::ready(answer))
    })
}

/// The driver options of a client with `cfg`.
fn client_options(cfg: SessionConfig, auth: Option<WasiAuth>) -> ClientOptions<WasiHost> {
    let handler = input_handler(&cfg.endpoint);
    ClientOptions {
        session: cfg,
        host: WasiHost::new(auth),
        input_handler: Some(handler),
        observer: None,
        gate: None,
        on_event: None,
    }
}

/// A started `tools/call` and what its progress callback records.
struct StartedCall {
    name: String,
    pending: Pending,
    seen: Rc<RefCell<SeenLog>>,
}

impl McpClient {
    fn list(&self, kind: ListKind) -> Result<Vec<Value>, Error> {
        let result = run(self.client.list_all(kind, RequestOptions::default()))?;
        convert::items(&result, kind.field())
    }

    fn value(&self, method: &str, params: Value) -> Result<Value, Error> {
        run(self
            .client
            .request(method, params, RequestOptions::default()))
    }

    /// Starts a `tools/call` (progress recorded with its arrival time when asked for).
    fn start_call(
        &self,
        name: String,
        arguments_json: &str,
        options: Option<CallOptions>,
    ) -> Result<StartedCall, Error> {
        let arguments = parse_object(arguments_json, "arguments-json")?;
        let (opts, seen, callback) = self.call_parts(options.as_ref());
        self.client
            .check_request_timeout(opts.timeout_ms)
            .map_err(|e| convert::error(&e))?;
        let params = serde_json::json!({"name": name, "arguments": arguments});
        let pending = self
            .client
            .start_request("tools/call", params, opts, callback);
        Ok(StartedCall {
            name,
            pending,
            seen,
        })
    }

    /// The request options of a call and the progress callback that records what it sees.
    fn call_parts(
        &self,
        options: Option<&CallOptions>,
    ) -> (
        RequestOptions,
        Rc<RefCell<SeenLog>>,
        Option<crate::client::ProgressFn>,
    ) {
        let opts = RequestOptions {
            timeout_ms: options.and_then(|o| o.timeout_ms),
            meta: crate::proto::session::RequestMeta {
                traceparent: options.and_then(|o| o.traceparent.clone()),
                tracestate: options.and_then(|o| o.tracestate.clone()),
                baggage: options.and_then(|o| o.baggage.clone()),
                log_level: options.and_then(|o| o.log_level.clone()),
            },
            task: if options.and_then(|o| o.prefer_task) == Some(true) {
                crate::proto::session::TaskPreference::Prefer
            } else {
                crate::proto::session::TaskPreference::Auto
            },
            ..RequestOptions::default()
        };
        let seen = Rc::new(RefCell::new(SeenLog::default()));
        let progress = options.and_then(|o| o.progress).unwrap_or(true);
        let callback = progress.then(|| {
            let (seen, clock) = (seen.clone(), self.client.clone());
            let f: crate::client::ProgressFn = Rc::new(move |p: &Progress| {
                seen.borrow_mut().push(SeenProgress {
                    progress: p.progress,
                    total: p.total,
                    message: p.message.clone(),
                    at_ms: clock.now(),
                    task: p.task.as_ref().map(|t| t.to_json()),
                });
            });
            f
        });
        (opts, seen, callback)
    }

    /// Waits for a started call: its result (checked against the tool's `outputSchema` once the
    /// tools were listed) and when it ended.
    async fn finish_call(&self, call: &StartedCall) -> (Result<Value, ProtocolError>, u64) {
        let result = self.client.call_tool(call.pending, &call.name).await;
        (result, self.client.now())
    }

    /// The host's notifications, with a gap said as a diagnostic, and the end of the standing
    /// `listen-json` stream once.
    fn drain(&self) -> Vec<Notification> {
        let mut out = Vec::new();
        let waker = Waker::noop();
        let mut cx = Context::from_waker(waker);
        let mut listen = self.listen.borrow_mut();
        if let Some(Poll::Ready(r)) = listen.as_mut().map(|f| f.as_mut().poll(&mut cx)) {
            *listen = None;
            out.push(Notification::Diagnostic(match r {
                Err(e) => format!("the listen-json stream ended: {e} ({})", e.code()),
                Ok(_) => "the listen-json stream ended".to_string(),
            }));
        }
        drop(listen);
        let mut early = self.early.borrow_mut().take();
        loop {
            let notice = match early.take() {
                Some(n) => n,
                None => match Pin::new(&mut self.notes.next()).poll(&mut cx) {
                    Poll::Ready(Some(n)) => n,
                    _ => break,
                },
            };
            match notice {
                Notice::Gap { dropped } => out.push(Notification::Diagnostic(format!(
                    "{dropped} notifications were dropped because the queue was full"
                ))),
                Notice::Event(e) => out.extend(convert::notification(e)),
            }
        }
        out
    }
}

impl GuestClient for McpClient {
    fn connect(
        url: String,
        options: Option<ConnectOptions>,
    ) -> Result<exports::client::Client, Error> {
        let listen = options.as_ref().and_then(|o| o.listen_json.clone());
        let pinned = options.as_ref().and_then(|o| o.protocol_version.clone());
        let (cfg, auth) = config(&url, options)?;
        let (client, _) = run(Client::connect(client_options(cfg, auth)))?;
        let mut standing = None;
        if let Some(text) = listen {
            if client.era() == Some(Era::Modern) {
                // The stream stays open; it moves whenever an export runs. Its end (refused, or
                // dropped past the reconnect budget) is reported by `drain`.
                let pending = client.listen(parse_object(&text, "listen-json")?);
                let c = client.clone();
                let done: Standing = Box::pin(async move { c.wait(pending).await });
                standing = Some(done);
            }
        }
        if let (Some(era), None) = (client.era(), pinned) {
            learn_era(&url, era);
        }
        let notes = client.notifications();
        Ok(exports::client::Client::new(McpClient {
            client,
            notes,
            early: RefCell::new(None),
            listen: RefCell::new(standing),
        }))
    }

    fn complete_authorization(
        url: String,
        callback_url: String,
        options: Option<ConnectOptions>,
    ) -> Result<String, Error> {
        let (cfg, auth) = config(&url, options)?;
        let who = run(Client::complete_authorization(
            client_options(cfg, auth),
            &callback_url,
        ))?;
        Ok(crate::util::json::json_text(&who))
    }

    fn server_info(&self) -> WitServerInfo {
        let session_id = self.client.session_id();
        match self.client.server_info() {
            Some(info) => convert::server_info(&info, session_id.as_deref()),
            // Unreachable after a successful connect; answer with what the session knows.
            None => WitServerInfo {
                era: exports::client::Era::Modern,
                protocol_version: self.client.protocol_version(),
                name: None,
                version: None,
                implementation_json: None,
                capabilities_json: "{}".into(),
                instructions: None,
                supported_versions: Vec::new(),
                session_id,
            },
        }
    }

    fn extensions_json(&self) -> String {
        let (client, server) = self.client.extensions();
        serde_json::json!({"client": client, "server": server}).to_string()
    }

    fn list_tools(&self) -> Result<Vec<Tool>, Error> {
        self.list(ListKind::Tools)?
            .iter()
            .map(convert::tool)
            .collect()
    }

    fn call_tool(
        &self,
        name: String,
        arguments_json: String,
        options: Option<CallOptions>,
    ) -> Result<ToolResult, Error> {
        let started = self.client.now();
        let call = self.start_call(name, &arguments_json, options)?;
        let (result, at_ms) = run(async {
            let (r, at) = self.finish_call(&call).await;
            r.map(|v| (v, at))
        })?;
        let seen = call.seen.borrow();
        convert::tool_result(&result, &seen, started, at_ms)
    }

    fn resume_task(
        &self,
        task_json: String,
        options: Option<CallOptions>,
    ) -> Result<ToolResult, Error> {
        let value = parse_object(&task_json, "task-json")?;
        let info = crate::proto::session::TaskInfo::from_host_json(&value).ok_or_else(|| {
            convert::error(&ProtocolError::InvalidConfig(
                "task-json must be a task: {\"taskId\", \"shape\": \"extension\" | \"2025-11-25\", \"status\"}".into(),
            ))
        })?;
        let started = self.client.now();
        let (_, seen, callback) = self.call_parts(options.as_ref());
        let pending = self.client.resume_task(info, callback);
        let (result, at_ms) = run(async {
            let r = self.client.wait(pending).await;
            r.map(|v| (v, self.client.now()))
        })?;
        let seen = seen.borrow();
        convert::tool_result(&result, &seen, started, at_ms)
    }

    fn call_tools(&self, calls: Vec<ToolCall>) -> Vec<Result<ToolResult, Error>> {
        let started = self.client.now();
        // Calls whose arguments do not parse fail alone; the others run together.
        let started_calls: Vec<Result<StartedCall, Error>> = calls
            .into_iter()
            .map(|c| self.start_call(c.name, &c.arguments_json, c.options))
            .collect();
        type Finish<'a> = Pin<Box<dyn Future<Output = (Result<Value, ProtocolError>, u64)> + 'a>>;
        let mut waiting: Vec<Option<Finish<'_>>> = started_calls
            .iter()
            .map(|c| {
                c.as_ref()
                    .ok()
                    .map(|c| Box::pin(self.finish_call(c)) as Finish<'_>)
            })
            .collect();
        let mut outcomes: Vec<Option<(Result<Value, ProtocolError>, u64)>> =
            started_calls.iter().map(|_| None).collect();
        let _ = block_on(std::future::poll_fn(|cx| {
            // Every call is polled each time: each one's end is stamped when it completed.
            for (slot, future) in outcomes.iter_mut().zip(waiting.iter_mut()) {
                if let Some(f) = future {
                    if let Poll::Ready(o) = f.as_mut().poll(cx) {
                        *slot = Some(o);
                        *future = None;
                    }
                }
            }
            if waiting.iter().all(Option::is_none) {
                Poll::Ready(())
            } else {
                Poll::Pending
            }
        }));
        drop(waiting);
        started_calls
            .into_iter()
            .zip(outcomes)
            .map(|(call, outcome)| {
                let call = call?;
                let (result, at_ms) = outcome.unwrap_or_else(|| {
                    (
                        Err(ProtocolError::Network(
                            "no exchange in flight and no timer pending for this operation".into(),
                        )),
                        self.client.now(),
                    )
                });
                let result = result.map_err(|e| convert::error(&e))?;
                let seen = call.seen.borrow();
                convert::tool_result(&result, &seen, started, at_ms)
            })
            .collect()
    }

    fn list_resources(&self) -> Result<Vec<Resource>, Error> {
        self.list(ListKind::Resources)?
            .iter()
            .map(convert::resource)
            .collect()
    }

    fn read_resource(&self, uri: String) -> Result<Vec<ResourceContents>, Error> {
        let result = self.value("resources/read", serde_json::json!({ "uri": uri }))?;
        convert::resource_contents(&result)
    }

    fn list_prompts(&self) -> Result<Vec<Prompt>, Error> {
        self.list(ListKind::Prompts)?
            .iter()
            .map(convert::prompt)
            .collect()
    }

    fn get_prompt(
        &self,
        name: String,
        arguments: Vec<(String, String)>,
    ) -> Result<PromptResult, Error> {
        let args: Map<String, Value> = arguments
            .into_iter()
            .map(|(k, v)| (k, Value::String(v)))
            .collect();
        let result = self.value(
            "prompts/get",
            serde_json::json!({"name": name, "arguments": args}),
        )?;
        convert::prompt_result(&result)
    }

    fn request(&self, method: String, params_json: String) -> Result<String, Error> {
        let params = parse_object(&params_json, "params-json")?;
        Ok(self.value(&method, params)?.to_string())
    }

    fn poll_notifications(&self, wait_ms: u64) -> Vec<Notification> {
        if self.early.borrow().is_none() {
            // Until a notification is queued or `wait_ms` passed (0: one pass over what
            // already arrived).
            let mut next = self.notes.next();
            let mut timeout = sleep(wait_ms);
            let got = block_on(std::future::poll_fn(|cx| {
                if let Poll::Ready(n) = Pin::new(&mut next).poll(cx) {
                    return Poll::Ready(n);
                }
                timeout.as_mut().poll(cx).map(|()| None)
            }));
            *self.early.borrow_mut() = got.flatten();
        }
        self.drain()
    }

    fn take_notifications(&self) -> Vec<Notification> {
        self.drain()
    }

    fn close(&self) -> Result<(), Error> {
        if self.client.is_closed() {
            return Ok(());
        }
        run(self.client.close())
    }
}

#[allow(unsafe_code)]
mod export {
    use super::Component;
    crate::bindings::export!(Component with_types_in crate::bindings);
}
