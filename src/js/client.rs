//! `McpClient`: the JS class over the driver as the Rust API gives it ([`crate::api`]). Option parsing and JS conversions
//! live here; connecting, calling and input dispatch are the Rust API's ([`crate::api`]).

use crate::util::vec_map::VecMap;
use std::cell::RefCell;
use std::rc::Rc;

use serde_json::{json, Map, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::convert::{
    describe, error_to_js, from_js, get, get_fn, get_ms, get_string, invalid_argument, promise,
    settle_js, to_js,
};
use super::glue;
use crate::api::FetchClient as Client;
use crate::api::FetchOptions;
use crate::api::{
    age_cache, connect_client, wait_op, CallOptions as RustCallOptions, CancelToken,
    ConnectOptions, HandlerFn, Handlers,
};
use crate::api::{Notice, NotificationReader, Traffic};
use crate::proto::jsonrpc::ErrorObject;
use crate::proto::session::{Era, Event, ListKind, RequestOptions};

/// The snapshot field holding the wall-clock time (`Date.now()`) it was taken at.
const SAVED_AT: &str = "savedAt";

/// An MCP client connected to one server over Streamable HTTP.
#[wasm_bindgen(skip_typescript)]
pub struct McpClient {
    client: Client,
    /// By name (a `serde_json` map: the package already carries its code for every JSON object).
    tools: Rc<RefCell<Map<String, Value>>>,
}

/// The Rust connect options from the JS ones (a fresh traffic observer each time).
pub(super) fn connect_options(options: &JsValue) -> Result<ConnectOptions, JsValue> {
    let mut o = ConnectOptions::new();
    if let Some(v) = get_string(options, "protocol")? {
        o = o.protocol(&v);
    }
    if let Some(t) = get_ms(options, "timeoutMs")? {
        o = o.timeout_ms(t);
    }
    if let Some(t) = get_ms(options, "maxTotalTimeoutMs")? {
        o = o.max_total_timeout_ms(t);
    }
    let headers = get(options, "headers");
    if headers.is_object() {
        let Value::Object(map) = from_js(&headers)? else {
            return Err(invalid_argument("headers must map names to strings"));
        };
        let pairs = map
            .into_iter()
            .map(|(k, v)| match v {
                Value::String(v) => Ok((k.to_ascii_lowercase(), v)),
                _ => Err(invalid_argument("headers must map names to strings")),
            })
            .collect::<Result<Vec<(String, String)>, JsValue>>()?;
        for (name, value) in pairs {
            o = o.header(&name, &value);
        }
    }
    let info = get(options, "clientInfo");
    if !info.is_undefined() {
        o = o.client_info(from_js(&info)?);
    }
    if let Value::Object(m) = from_js(&get(options, "capabilities"))? {
        o = o.capabilities(m);
    }
    o = o.with_handlers(handlers(options)?);
    if let Some(false) = get(options, "openGetStream").as_bool() {
        o = o.open_get_stream(false);
    }
    if let Some(n) = get_bytes(options, "maxEventBytes")? {
        o = o.max_event_bytes(n);
    }
    if let Some(n) = get_bytes(options, "maxBodyBytes")? {
        o = o.max_body_bytes(n);
    }
    if let Some(f) = get_fn(options, "fetch")? {
        o = o.fetch(f);
    }
    let ext = get(options, "extensions");
    if !ext.is_undefined() && !ext.is_null() {
        let Value::Object(m) = from_js(&ext)? else {
            return Err(invalid_argument(
                "extensions must map identifiers to settings objects (or true, or false)",
            ));
        };
        for (id, settings) in m {
            o = o.extension(&id, settings);
        }
    }
    if let Some(on) = get(options, "tasks").as_bool() {
        o = o.tasks(on);
    }
    if let Some(t) = get_ms(options, "maxTaskWaitMs")? {
        o = o.max_task_wait_ms(t);
    }
    if let Some(observer) = traffic_observer(options)? {
        o = o.on_traffic(observer);
    }
    Ok(o)
}

/// Calls a JS handler and awaits its (possibly promised) answer.
async fn call_handler(
    f: js_sys::Function,
    params: Value,
    extra: Value,
) -> Result<Value, ErrorObject> {
    let failed =
        |message: String| ErrorObject::new(crate::proto::jsonrpc::codes::INTERNAL_ERROR, message);
    const FAILED: &str = "handler failed";
    let called = f.call2(&JsValue::NULL, &to_js(&params), &to_js(&extra));
    let value = settle_js(called, FAILED).await.map_err(failed)?;
    from_js(&value).map_err(|e| failed(describe(&e, FAILED)))
}

/// The JS `onElicitation` / `onSampling` / `onRoots` functions as input handlers.
fn handlers(options: &JsValue) -> Result<Handlers, JsValue> {
    let wrap = |f: Option<js_sys::Function>| {
        f.map(|f| {
            let h: HandlerFn =
                Rc::new(move |params, extra| Box::pin(call_handler(f.clone(), params, extra)));
            h
        })
    };
    Ok(Handlers {
        elicitation: wrap(get_fn(options, "onElicitation")?),
        sampling: wrap(get_fn(options, "onSampling")?),
        roots: wrap(get_fn(options, "onRoots")?),
    })
}

pub(super) fn traffic_observer(
    options: &JsValue,
) -> Result<Option<impl Fn(&Traffic) + 'static>, JsValue> {
    let Some(f) = get_fn(options, "onTraffic")? else {
        return Ok(None);
    };
    let streams: RefCell<VecMap<u64, crate::transport::utf8::Utf8Stream>> =
        RefCell::new(VecMap::new());
    Ok(Some(move |t: &Traffic| {
        let v = match t {
            Traffic::Request { exchange, request } => json!({
                "type": "request", "exchange": exchange, "method": request.method.as_str(),
                "url": request.url, "headers": request.headers, "body": request.body,
            }),
            Traffic::Head { exchange, head } => json!({
                "type": "head", "exchange": exchange, "status": head.status, "headers": head.headers,
            }),
            Traffic::Body { exchange, bytes } => {
                let text = streams
                    .borrow_mut()
                    .get_or_insert_with(*exchange, Default::default)
                    .push(bytes);
                json!({"type": "body", "exchange": exchange, "text": text})
            }
            Traffic::End { exchange, error } => {
                let rest = streams
                    .borrow_mut()
                    .remove(exchange)
                    .map(|mut s| s.finish())
                    .unwrap_or_default();
                if !rest.is_empty() {
                    let body = json!({"type": "body", "exchange": exchange, "text": rest});
                    let _ = f.call1(&JsValue::NULL, &to_js(&body));
                }
                json!({"type": "end", "exchange": exchange, "error": error})
            }
            // stdio framing never runs in a JS scope.
            Traffic::LineOut { .. } | Traffic::StdoutIn { .. } => return,
        };
        let _ = f.call1(&JsValue::NULL, &to_js(&v));
    }))
}

fn event_to_js(e: &Event) -> Value {
    match e {
        Event::Notification { method, params } => {
            json!({"type": "notification", "method": method, "params": params})
        }
        Event::Progress {
            op,
            progress,
            total,
            message,
        } => {
            json!({"type": "progress", "operation": op.0, "progress": progress, "total": total, "message": message})
        }
        Event::Diagnostic { message } => json!({"type": "diagnostic", "message": message}),
        Event::ToolRejected { name, reason } => {
            json!({"type": "toolRejected", "name": name, "reason": reason})
        }
        Event::Connected(info) => json!({"type": "connected", "server": info.to_json()}),
        Event::InputCancelled { input } => json!({"type": "inputCancelled", "input": input.0}),
        Event::Closed => json!({"type": "closed"}),
        Event::Auth(crate::proto::auth::AuthEvent::SignedIn {
            issuer,
            scope,
            expires_at,
            token_type,
        }) => json!({
            "type": "signedIn", "issuer": issuer, "scope": scope,
            "expiresAt": expires_at, "tokenType": token_type.scheme(),
        }),
        _ => json!({"type": "other"}),
    }
}

/// A size option in bytes: a positive integer.
fn get_bytes(options: &JsValue, key: &str) -> Result<Option<usize>, JsValue> {
    let v = get(options, key);
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    match v.as_f64() {
        Some(n) if n.is_finite() && n >= 1.0 && n.fract() == 0.0 => Ok(Some(n as usize)),
        _ => Err(invalid_argument(&format!(
            "{key} must be a positive whole number of bytes"
        ))),
    }
}

/// Per-call options: `{signal?, onProgress?, timeoutMs?}`, as Rust call options and the
/// listener that cancels them when the signal fires (keep it alive until the call ends).
pub(super) struct CallOptions {
    pub(super) options: RustCallOptions,
    pub(super) token: CancelToken,
    pub(super) listener: Option<AbortListener>,
}

pub(super) fn call_options(options: &JsValue) -> Result<CallOptions, JsValue> {
    let signal = match get(options, "signal") {
        v if v.is_undefined() || v.is_null() => None,
        v => Some(
            v.dyn_into::<web_sys::AbortSignal>()
                .map_err(|_| invalid_argument("signal must be an AbortSignal"))?,
        ),
    };
    let token = CancelToken::new();
    let mut rust = RustCallOptions::new().cancel_with(&token);
    if let Some(f) = get_fn(options, "onProgress")? {
        rust = rust.on_progress(move |p| {
            let total = p.total.map_or(JsValue::NULL, JsValue::from_f64);
            let message = p
                .message
                .as_deref()
                .map_or(JsValue::NULL, JsValue::from_str);
            let task = p
                .task
                .as_ref()
                .map_or(JsValue::NULL, |t| to_js(&t.to_json()));
            let progress = glue::make_progress(p.progress, &total, &message, &task);
            let _ = f.call1(&JsValue::NULL, &progress);
        });
    }
    if let Some(t) = get_ms(options, "timeoutMs")? {
        rust = rust.timeout_ms(t);
    }
    let meta = crate::proto::session::RequestMeta {
        traceparent: get_string(options, "traceparent")?,
        tracestate: get_string(options, "tracestate")?,
        baggage: get_string(options, "baggage")?,
        log_level: get_string(options, "logLevel")?,
    };
    rust = rust.meta(meta);
    match get_string(options, "task")?.as_deref() {
        None | Some("auto") => {}
        Some("prefer") => rust = rust.prefer_task(true),
        Some(_) => return Err(invalid_argument("task must be \"auto\" or \"prefer\"")),
    }
    match get(options, "idempotent") {
        v if v.is_undefined() || v.is_null() => {}
        v => {
            rust = rust.idempotent(
                v.as_bool()
                    .ok_or_else(|| invalid_argument("idempotent must be a boolean"))?,
            )
        }
    }
    let listener = signal.map(|s| AbortListener::new(&s, token.clone()));
    Ok(CallOptions {
        options: rust,
        token,
        listener,
    })
}

async fn run(
    client: Client,
    method: &str,
    params: Value,
    opts: CallOptions,
) -> Result<Value, JsValue> {
    let CallOptions {
        options, listener, ..
    } = opts;
    let result = crate::api::run(&client, method, params, options).await;
    drop(listener);
    result.map_err(|e| error_to_js(&e))
}

/// The JS connect options of a client of `url`, parsed once: the session's configuration and
/// the driver's options (fetch, handlers, traffic observer, OAuth settings and host).
fn driver_options(url: &str, options: &JsValue) -> Result<FetchOptions, JsValue> {
    // The URL is an argument of the call: a bad one is the caller's mistake.
    crate::api::check_url(url).map_err(|e| invalid_argument(&e.to_string()))?;
    let mut o = connect_options(options)?;
    if let Some(auth) = super::auth::auth_config(options)? {
        o = o.auth(auth);
    }
    if let (Some(auth), auth_fetch) = super::auth::auth_host(options)? {
        o.set_auth_host(auth, auth_fetch);
    }
    let session = o.session_config(url).map_err(|e| error_to_js(&e))?;
    Ok(o.client_options(session, None))
}

/// Cancels a token when a user's `AbortSignal` fires (at once if it already has); removes itself
/// when dropped.
pub(super) struct AbortListener {
    signal: web_sys::AbortSignal,
    callback: Closure<dyn FnMut()>,
}

impl AbortListener {
    fn new(signal: &web_sys::AbortSignal, token: CancelToken) -> Self {
        if signal.aborted() {
            token.cancel();
        }
        let callback = Closure::<dyn FnMut()>::new(move || token.cancel());
        let _ = signal.add_event_listener_with_callback("abort", callback.as_ref().unchecked_ref());
        AbortListener {
            signal: signal.clone(),
            callback,
        }
    }
}

impl Drop for AbortListener {
    fn drop(&mut self) {
        let _ = self
            .signal
            .remove_event_listener_with_callback("abort", self.callback.as_ref().unchecked_ref());
    }
}

fn list_field(v: Value, field: &str) -> Value {
    match v {
        Value::Object(mut m) => m.remove(field).unwrap_or(Value::Array(vec![])),
        other => other,
    }
}

/// `signIn` and `completeAuthorization` (with the callback URL): one body, so one future type.
async fn authorize(
    url: String,
    callback: Option<String>,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let opts = driver_options(&url, &options)?;
    Client::authorize(opts, callback.as_deref())
        .await
        .map(|v| to_js(&v))
        .map_err(|e| error_to_js(&e))
}

impl McpClient {
    /// The driver and the tool definitions of the last `listTools()`, for the app host
    /// (`super::apps`), which forwards a view's requests through this client.
    #[cfg(feature = "apps")]
    pub(super) fn parts(&self) -> (Client, Rc<RefCell<Map<String, Value>>>) {
        (self.client.clone(), self.tools.clone())
    }
}

#[wasm_bindgen]
impl McpClient {
    /// Connects to `url`; see the TypeScript declarations for the options.
    pub async fn connect(url: String, options: JsValue) -> Result<McpClient, JsValue> {
        let opts = driver_options(&url, &options)?;
        let (client, _) = connect_client(&url, opts)
            .await
            .map_err(|e| error_to_js(&e))?;
        Ok(McpClient {
            client,
            tools: Rc::new(RefCell::new(Map::new())),
        })
    }

    /// Signs in to `url` (its `auth` options required) without connecting; resolves with who is
    /// signed in. The tokens go to the auth storage, where `connect` finds them.
    #[wasm_bindgen(js_name = signIn)]
    pub fn sign_in(url: String, options: JsValue) -> js_sys::Promise {
        promise(authorize(url, None, options))
    }

    /// Finishes a sign-in from the callback URL (for hosts where the sign-in started elsewhere: a
    /// reloaded page, a Worker's callback route). The pending request is found in the auth
    /// storage by its `state`.
    #[wasm_bindgen(js_name = completeAuthorization)]
    pub fn complete_authorization(
        url: String,
        callback: String,
        options: JsValue,
    ) -> js_sys::Promise {
        promise(authorize(url, Some(callback), options))
    }

    /// Rebuilds a connected client from `snapshot()` output without any request (for hosts that
    /// evict isolates: Workers, Durable Objects). `url` and `options` as for `connect`.
    pub fn restore(url: String, snapshot: JsValue, options: JsValue) -> Result<McpClient, JsValue> {
        let opts = driver_options(&url, &options)?;
        let value = from_js(&snapshot)?;
        let saved_at = value.get(SAVED_AT).and_then(Value::as_f64);
        let mut snap = crate::proto::session::SessionSnapshot::from_json(&value)
            .map_err(|e| invalid_argument(&format!("not a snapshot: {e}")))?;
        if let Some(saved_at) = saved_at {
            age_cache(&mut snap, (js_sys::Date::now() - saved_at).max(0.0) as u64);
        }
        let client = Client::restore(opts, snap).map_err(|e| error_to_js(&e))?;
        Ok(McpClient {
            client,
            tools: Rc::new(RefCell::new(Map::new())),
        })
    }

    /// The client's durable state as plain JSON: era, version, server info, 2025 session id and
    /// last event id, cached lists with the time they have left. Store it; `McpClient.restore`
    /// takes it back.
    pub fn snapshot(&self) -> JsValue {
        match self.client.snapshot().to_json() {
            Value::Object(mut m) => {
                // The session clock is per isolate; the wall clock lets `restore` age the cache.
                m.insert(SAVED_AT.into(), json!(js_sys::Date::now()));
                to_js(&Value::Object(m))
            }
            _ => JsValue::NULL,
        }
    }

    /// Who is signed in (OAuth): `{ issuer, scope, expiresAt, tokenType }`, or `null`.
    #[wasm_bindgen(getter)]
    pub fn auth(&self) -> JsValue {
        self.client
            .auth_status()
            .map(|v| to_js(&v))
            .unwrap_or(JsValue::NULL)
    }

    /// Forgets the OAuth tokens of this server (the stored ones too).
    #[wasm_bindgen(js_name = signOut)]
    pub fn sign_out(&self) {
        self.client.sign_out();
    }

    /// What the server told about itself.
    #[wasm_bindgen(getter, js_name = serverInfo)]
    pub fn server_info(&self) -> JsValue {
        self.client
            .server_info()
            .and_then(|i| i.server_info)
            .map_or(JsValue::NULL, |v| to_js(&v))
    }

    /// The protocol version in use.
    #[wasm_bindgen(getter, js_name = protocolVersion)]
    pub fn protocol_version(&self) -> String {
        self.client
            .server_info()
            .map(|i| i.protocol_version)
            .unwrap_or_default()
    }

    /// `"modern"` (2026-07-28) or `"legacy"` (2025 era).
    #[wasm_bindgen(getter)]
    pub fn era(&self) -> String {
        self.client
            .server_info()
            .map_or(Era::Legacy, |i| i.era)
            .as_str()
            .into()
    }

    /// The server's instructions, if any.
    #[wasm_bindgen(getter)]
    pub fn instructions(&self) -> Option<String> {
        self.client.server_info().and_then(|i| i.instructions)
    }

    /// The server's capabilities.
    #[wasm_bindgen(getter)]
    pub fn capabilities(&self) -> JsValue {
        self.client
            .server_info()
            .map_or(JsValue::NULL, |i| to_js(&i.capabilities))
    }

    /// The extensions in play (MCP 2026-07-28 `basic/versioning` "Extension Negotiation"):
    /// `{client, server}`, what this client declares and what the server announced, each an
    /// object of identifier to settings.
    #[wasm_bindgen(getter)]
    pub fn extensions(&self) -> JsValue {
        let (client, server) = self.client.extensions();
        to_js(&json!({"client": client, "server": server}))
    }

    /// The 2025-era session id, if the server assigned one.
    #[wasm_bindgen(getter, js_name = sessionId)]
    pub fn session_id(&self) -> Option<String> {
        self.client.session_id()
    }

    /// Lists every tool (all pages; cached per the server's `ttlMs`).
    #[wasm_bindgen(js_name = listTools)]
    pub fn list_tools(&self, options: JsValue) -> js_sys::Promise {
        let client = self.client.clone();
        let tools = self.tools.clone();
        promise(async move {
            let timeout_ms = get_ms(&options, "timeoutMs")?;
            let v = crate::api::list(&client, ListKind::Tools, timeout_ms)
                .await
                .map_err(|e| error_to_js(&e))?;
            let list = list_field(v, "tools");
            if let Value::Array(a) = &list {
                let mut t = tools.borrow_mut();
                for tool in a {
                    if let Some(name) = tool.get("name").and_then(Value::as_str) {
                        t.insert(name.to_string(), tool.clone());
                    }
                }
            }
            Ok(to_js(&list))
        })
    }

    /// Calls a tool. A tool failure is a result with `isError: true`, not a rejection.
    #[wasm_bindgen(js_name = callTool)]
    pub fn call_tool(&self, name: String, args: JsValue, options: JsValue) -> js_sys::Promise {
        let client = self.client.clone();
        promise(async move {
            let arguments = match from_js(&args)? {
                Value::Null => json!({}),
                v @ Value::Object(_) => v,
                _ => return Err(invalid_argument("tool arguments must be an object")),
            };
            let CallOptions {
                options, listener, ..
            } = call_options(&options)?;
            let v = crate::api::call_tool(&client, &name, arguments, options).await;
            drop(listener);
            Ok(to_js(&v.map_err(|e| error_to_js(&e))?))
        })
    }

    /// The calls that became tasks and are being polled now (`TaskInfo[]`).
    pub fn tasks(&self) -> JsValue {
        let list: Vec<Value> = self.client.tasks().iter().map(|t| t.to_json()).collect();
        to_js(&Value::Array(list))
    }

    /// Resumes a task (from `tasks()`, a snapshot's `tasks` or a progress report's `task`):
    /// polls it to its end without calling the tool again; resolves like `callTool`.
    #[wasm_bindgen(js_name = resumeTask)]
    pub fn resume_task(&self, task: JsValue, options: JsValue) -> js_sys::Promise {
        let client = self.client.clone();
        promise(async move {
            let info = crate::proto::session::TaskInfo::from_host_json(&from_js(&task)?)
                .ok_or_else(|| {
                    invalid_argument(
                        "task must be a TaskInfo: {taskId, shape: \"extension\" | \"2025-11-25\", status}",
                    )
                })?;
            let CallOptions {
                options, listener, ..
            } = call_options(&options)?;
            let v = crate::api::resume_task(&client, info, options).await;
            drop(listener);
            Ok(to_js(&v.map_err(|e| error_to_js(&e))?))
        })
    }

    /// Lists every resource.
    #[wasm_bindgen(js_name = listResources)]
    pub fn list_resources(&self) -> js_sys::Promise {
        self.list(ListKind::Resources)
    }

    /// Lists every resource template.
    #[wasm_bindgen(js_name = listResourceTemplates)]
    pub fn list_resource_templates(&self) -> js_sys::Promise {
        self.list(ListKind::ResourceTemplates)
    }

    /// 2025-11-25: every task the server keeps for this client (`tasks/list`, all pages).
    #[wasm_bindgen(js_name = listTasks)]
    pub fn list_tasks(&self) -> js_sys::Promise {
        self.list(ListKind::Tasks)
    }

    /// Lists every prompt.
    #[wasm_bindgen(js_name = listPrompts)]
    pub fn list_prompts(&self) -> js_sys::Promise {
        self.list(ListKind::Prompts)
    }

    fn list(&self, kind: ListKind) -> js_sys::Promise {
        let client = self.client.clone();
        promise(async move {
            let v = crate::api::list(&client, kind, None)
                .await
                .map_err(|e| error_to_js(&e))?;
            Ok(to_js(&list_field(v, kind.field())))
        })
    }

    /// Reads a resource.
    #[wasm_bindgen(js_name = readResource)]
    pub fn read_resource(&self, uri: String, options: JsValue) -> js_sys::Promise {
        self.generic("resources/read", json!({"uri": uri}), options)
    }

    /// Gets a prompt with its arguments.
    #[wasm_bindgen(js_name = getPrompt)]
    pub fn get_prompt(&self, name: String, args: JsValue, options: JsValue) -> js_sys::Promise {
        let client = self.client.clone();
        promise(async move {
            let mut params = json!({"name": name});
            let a = from_js(&args)?;
            if !a.is_null() {
                params["arguments"] = a;
            }
            let v = run(client, "prompts/get", params, call_options(&options)?).await?;
            Ok(to_js(&v))
        })
    }

    /// `completion/complete` for a prompt or resource-template argument.
    pub fn complete(
        &self,
        reference: JsValue,
        argument: JsValue,
        context: JsValue,
    ) -> js_sys::Promise {
        let client = self.client.clone();
        promise(async move {
            let mut params = json!({"ref": from_js(&reference)?, "argument": from_js(&argument)?});
            let c = from_js(&context)?;
            if !c.is_null() {
                params["context"] = c;
            }
            let v = client
                .request("completion/complete", params, RequestOptions::default())
                .await
                .map_err(|e| error_to_js(&e))?;
            Ok(to_js(&v))
        })
    }

    /// Any request by method name (escape hatch for methods without a helper).
    pub fn request(&self, method: String, params: JsValue, options: JsValue) -> js_sys::Promise {
        let client = self.client.clone();
        promise(async move {
            let params = from_js(&params)?;
            let v = run(client, &method, params, call_options(&options)?).await?;
            Ok(to_js(&v))
        })
    }

    fn generic(&self, method: &'static str, params: Value, options: JsValue) -> js_sys::Promise {
        let client = self.client.clone();
        promise(async move {
            let v = run(client, method, params, call_options(&options)?).await?;
            Ok(to_js(&v))
        })
    }

    /// 2026-07-28: opens a `subscriptions/listen` stream for `filter` (`{toolsListChanged,
    /// promptsListChanged, resourcesListChanged, resourceSubscriptions}`); its notifications
    /// arrive on `notifications()`. Resolves when the server ends it; abort with `options.signal`.
    /// 2025 era: the GET stream carries them; resolves at once.
    pub fn subscribe(&self, filter: JsValue, options: JsValue) -> js_sys::Promise {
        let client = self.client.clone();
        promise(async move {
            let filter = from_js(&filter)?;
            let opts = call_options(&options)?;
            let pending = client.listen(filter);
            let v = wait_op(&client, pending, Some(&opts.token)).await;
            drop(opts);
            Ok(to_js(&v.map_err(|e| error_to_js(&e))?))
        })
    }

    /// Notifications as an async iterator: `{type: "notification" | "progress" | "diagnostic" |
    /// "toolRejected" | "connected" | "inputCancelled" | "signedIn" | "closed" | "gap", ...}`.
    /// Ends after the client closes. While it is open, the GET / listen streams pause when its
    /// queue is full; items lost from a request's own stream are reported by a `gap` item.
    pub fn notifications(&self) -> JsValue {
        let stream = NotificationStream {
            reader: self.client.notifications(),
        };
        glue::wrap_stream(&JsValue::from(stream))
    }

    /// How many notifications were dropped because the queue was full (each loss is also a
    /// `gap` item of `notifications()`).
    #[wasm_bindgen(getter, js_name = droppedNotifications)]
    pub fn dropped_notifications(&self) -> f64 {
        self.client.dropped_notifications() as f64
    }

    /// Closes the session (2025 era: DELETE). Running calls fail with code `CLOSED`.
    pub fn close(&self) -> js_sys::Promise {
        let client = self.client.clone();
        promise(async move {
            client.close().await.map_err(|e| error_to_js(&e))?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// The tool definition of `name` from the last `listTools()`.
    #[wasm_bindgen(js_name = getTool)]
    pub fn get_tool(&self, name: String) -> JsValue {
        self.tools
            .borrow()
            .get(&name)
            .map_or(JsValue::UNDEFINED, to_js)
    }
}

/// The source behind `notifications()`: the iterator the package returns calls `nextItem` and
/// frees the stream when iteration ends, so nothing outlives the loop that reads it (and the
/// streams it held back read on).
#[wasm_bindgen(skip_typescript)]
pub struct NotificationStream {
    reader: NotificationReader,
}

#[wasm_bindgen]
impl NotificationStream {
    /// The next notification, or `undefined` once the client is closed and drained.
    #[wasm_bindgen(js_name = nextItem)]
    pub fn next_item(&self) -> js_sys::Promise {
        let next = self.reader.next();
        promise(async move {
            Ok(match next.await {
                Some(Notice::Event(e)) => to_js(&event_to_js(&e)),
                Some(Notice::Gap { dropped }) => to_js(&json!({"type": "gap", "dropped": dropped})),
                None => JsValue::UNDEFINED,
            })
        })
    }
}

/// Whether `value` is an `McpError` thrown by this package.
#[wasm_bindgen(js_name = isMcpError, skip_typescript)]
pub fn is_mcp_error(value: JsValue) -> bool {
    glue::is_mcp_error_js(&value)
}
