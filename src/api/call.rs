//! One request with its options (progress, cancellation, timeout): the [`Call`] builder and the
//! primitive both surfaces run requests with.

use std::future::{Future, IntoFuture};
use std::pin::Pin;
use std::rc::Rc;

use serde_json::{json, Value};

use super::cancel::CancelToken;
use super::stream::{progress_channel, ProgressStream};
use super::FetchClient as Client;
use crate::client::{Pending, ProgressFn};
use crate::proto::session::Progress;
use crate::proto::session::{ListKind, ProtocolError, RequestMeta, RequestOptions, TaskPreference};
use crate::runtime::LocalFuture;

/// Options of one request: where its progress goes, what cancels it, how long it may be idle.
#[derive(Default)]
pub struct CallOptions {
    progress: Option<ProgressFn>,
    cancel: Option<CancelToken>,
    timeout_ms: Option<u64>,
    idempotent: bool,
    meta: RequestMeta,
    task: TaskPreference,
}

impl std::fmt::Debug for CallOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallOptions")
            .field("progress", &self.progress.is_some())
            .field("cancel", &self.cancel)
            .field("timeout_ms", &self.timeout_ms)
            .finish()
    }
}

impl CallOptions {
    /// No progress, no cancellation, the connection's timeout.
    pub fn new() -> Self {
        Self::default()
    }

    /// Calls `f` with every progress notification of the request (asks the server for progress
    /// with a `progressToken`). Adds to earlier progress consumers.
    pub fn on_progress(mut self, f: impl Fn(&Progress) + 'static) -> Self {
        self.progress = Some(match self.progress.take() {
            None => Rc::new(f),
            Some(before) => Rc::new(move |p: &Progress| {
                before(p);
                f(p);
            }),
        });
        self
    }

    /// The request's progress as a stream that ends when the request ends.
    pub fn progress_stream(&mut self) -> ProgressStream {
        let (tx, rx) = progress_channel();
        *self = std::mem::take(self).on_progress(move |p| tx.send(p.clone()));
        rx
    }

    /// Cancels the request when `token` is cancelled (at once if it already is).
    pub fn cancel_with(mut self, token: &CancelToken) -> Self {
        self.cancel = Some(token.clone());
        self
    }

    /// The request's inactivity timeout (reset by progress), instead of the connection's.
    pub fn timeout_ms(mut self, ms: u64) -> Self {
        self.timeout_ms = Some(ms);
        self
    }

    /// Declares that running the tool twice is harmless: a 2026-era call whose stream broke is
    /// then sent again (otherwise it fails with `STREAM_DROPPED`, `mayHaveRun`).
    pub fn idempotent(mut self, idempotent: bool) -> Self {
        self.idempotent = idempotent;
        self
    }

    /// W3C trace context for the request's `_meta` (`traceparent`, and optionally `tracestate`
    /// and `baggage`; MCP 2026-07-28 `basic/index`). A malformed value fails the call with
    /// `INVALID_META` before anything is sent.
    pub fn trace_context(
        mut self,
        traceparent: &str,
        tracestate: Option<&str>,
        baggage: Option<&str>,
    ) -> Self {
        self.meta.traceparent = Some(traceparent.to_string());
        self.meta.tracestate = tracestate.map(str::to_string);
        self.meta.baggage = baggage.map(str::to_string);
        self
    }

    /// The minimum log level the server should emit for this request
    /// (`io.modelcontextprotocol/logLevel`; MCP 2026-07-28 `server/utilities/logging`).
    pub fn log_level(mut self, level: &str) -> Self {
        self.meta.log_level = Some(level.to_string());
        self
    }

    /// Every `_meta` value at once (as the JS surface reads them).
    pub fn meta(mut self, meta: RequestMeta) -> Self {
        self.meta = meta;
        self
    }

    /// 2025 era: call a tool that allows tasks (`execution.taskSupport: "optional"`) as one (a
    /// tool that requires it always is).
    pub fn prefer_task(mut self, prefer: bool) -> Self {
        self.task = if prefer {
            TaskPreference::Prefer
        } else {
            TaskPreference::Auto
        };
        self
    }

    /// The driver's progress callback, if any.
    fn progress_fn(&self) -> Option<ProgressFn> {
        self.progress.clone()
    }
}

/// Cancels an operation that is still running when its future is dropped.
struct InFlight {
    client: Client,
    op: Option<Pending>,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        if let Some(op) = self.op.take() {
            self.client.cancel(op);
        }
    }
}

/// Waits for a started operation; `cancel` (or dropping the future) cancels it.
pub(crate) async fn wait_op(
    client: &Client,
    op: Pending,
    cancel: Option<&CancelToken>,
) -> Result<Value, ProtocolError> {
    let mut in_flight = InFlight {
        client: client.clone(),
        op: Some(op),
    };
    let _registration = cancel.map(|t| {
        let c = client.clone();
        t.on_cancel(move || c.cancel(op))
    });
    let result = client.wait(op).await;
    in_flight.op = None;
    result
}

/// Lists every page of `kind`, each request bounded by `timeout_ms` when given: the
/// `{"tools": [...]}` (`prompts`, `resources`, ...) object. The Rust and JS clients list through
/// it.
pub(crate) async fn list(
    client: &Client,
    kind: ListKind,
    timeout_ms: Option<u64>,
) -> Result<Value, ProtocolError> {
    let opts = RequestOptions {
        timeout_ms,
        ..RequestOptions::default()
    };
    client.list_all(kind, opts).await
}

/// Runs one request with `options`. A request whose token is already cancelled is not sent.
pub(crate) async fn run(
    client: &Client,
    method: &str,
    params: Value,
    options: CallOptions,
) -> Result<Value, ProtocolError> {
    if options
        .cancel
        .as_ref()
        .is_some_and(CancelToken::is_cancelled)
    {
        return Err(ProtocolError::Cancelled);
    }
    client.check_request_timeout(options.timeout_ms)?;
    let progress = options.progress_fn();
    let request = RequestOptions {
        timeout_ms: options.timeout_ms,
        progress: progress.is_some(),
        idempotent: options.idempotent,
        meta: options.meta,
        task: options.task,
    };
    let op = client.start_request(method, params, request, progress);
    wait_op(client, op, options.cancel.as_ref()).await
}

/// Resumes a task by what was known of it (a snapshot's `tasks`, a progress report): polls it
/// to its end, never calling the tool again. The Rust and JS clients resume through it.
pub(crate) async fn resume_task(
    client: &Client,
    task: crate::proto::session::TaskInfo,
    options: CallOptions,
) -> Result<Value, ProtocolError> {
    if options
        .cancel
        .as_ref()
        .is_some_and(CancelToken::is_cancelled)
    {
        return Err(ProtocolError::Cancelled);
    }
    let op = client.resume_task(task, options.progress_fn());
    wait_op(client, op, options.cancel.as_ref()).await
}

/// Calls a tool: its output schema loaded first if the tools were never listed, its
/// `structuredContent` checked against that schema after (eval-free).
pub(crate) async fn call_tool(
    client: &Client,
    name: &str,
    arguments: Value,
    options: CallOptions,
) -> Result<Value, ProtocolError> {
    client.ensure_output_schemas().await?;
    let params = json!({"name": name, "arguments": arguments});
    let v = run(client, "tools/call", params, options).await?;
    client.check_tool_result(name, &v)?;
    Ok(v)
}

/// A request not sent yet: set its options, then `.await` it. Dropping the future while it runs
/// cancels the request (the server is told).
///
/// ```no_run
/// # async fn demo(client: mcp_edge::McpClient) -> Result<(), mcp_edge::Error> {
/// use mcp_edge::CancelToken;
/// let stop = CancelToken::new();
/// let result = client
///     .call_tool("longRunningOperation", serde_json::json!({"duration": 5}))
///     .on_progress(|p| web_sys_log(p.progress))
///     .cancel_with(&stop)
///     .await?;
/// # fn web_sys_log(_: f64) {}
/// # Ok(()) }
/// ```
#[must_use = "a Call does nothing until it is awaited"]
pub struct Call<T> {
    start: Box<dyn FnOnce(CallOptions) -> LocalFuture<T>>,
    options: CallOptions,
}

impl<T> std::fmt::Debug for Call<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Call")
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl<T: 'static> Call<T> {
    pub(crate) fn new(start: impl FnOnce(CallOptions) -> LocalFuture<T> + 'static) -> Self {
        Call {
            start: Box::new(start),
            options: CallOptions::default(),
        }
    }

    /// Calls `f` with every progress notification (see [`CallOptions::on_progress`]).
    pub fn on_progress(mut self, f: impl Fn(&Progress) + 'static) -> Self {
        self.options = self.options.on_progress(f);
        self
    }

    /// The progress as a stream that ends when the request ends (read it from another task).
    pub fn progress_stream(&mut self) -> ProgressStream {
        self.options.progress_stream()
    }

    /// Cancels the request when `token` is cancelled.
    pub fn cancel_with(mut self, token: &CancelToken) -> Self {
        self.options = self.options.cancel_with(token);
        self
    }

    /// The request's inactivity timeout, instead of the connection's.
    pub fn timeout_ms(mut self, ms: u64) -> Self {
        self.options = self.options.timeout_ms(ms);
        self
    }

    /// Declares the tool safe to run twice (see [`CallOptions::idempotent`]).
    pub fn idempotent(mut self, idempotent: bool) -> Self {
        self.options = self.options.idempotent(idempotent);
        self
    }

    /// W3C trace context for the request's `_meta` (see [`CallOptions::trace_context`]).
    pub fn trace_context(
        mut self,
        traceparent: &str,
        tracestate: Option<&str>,
        baggage: Option<&str>,
    ) -> Self {
        self.options = self.options.trace_context(traceparent, tracestate, baggage);
        self
    }

    /// The request's log level (see [`CallOptions::log_level`]).
    pub fn log_level(mut self, level: &str) -> Self {
        self.options = self.options.log_level(level);
        self
    }

    /// Calls a tool that allows tasks as one (see [`CallOptions::prefer_task`]).
    pub fn prefer_task(mut self, prefer: bool) -> Self {
        self.options = self.options.prefer_task(prefer);
        self
    }

    /// Replaces all options at once.
    pub fn options(mut self, options: CallOptions) -> Self {
        self.options = options;
        self
    }
}

impl<T: 'static> IntoFuture for Call<T> {
    type Output = T;
    type IntoFuture = Pin<Box<dyn Future<Output = T>>>;

    fn into_future(self) -> Self::IntoFuture {
        (self.start)(self.options)
    }
}
