//! `McpClient`: the JS class over [`crate::client::Client`].

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use serde_json::{json, Map, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

use super::convert::{
    error_to_js, from_js, get, get_fn, get_ms, get_string, invalid_argument, to_js,
};
use super::glue;
use crate::client::{
    Client, ClientOptions, InputHandler, InputRequest, Notice, NotificationReader, Pending,
    ProgressFn, Traffic, TrafficFn,
};
use crate::proto::jsonrpc::ErrorObject;
use crate::proto::session::{Era, Event, ListKind, ProtocolChoice, RequestOptions, SessionConfig};

thread_local! {
    /// The era detected per origin (MCP 2026-07-28 `basic/versioning`: "Clients SHOULD cache the
    /// result for the lifetime of the ... origin").
    static ERA_BY_ORIGIN: RefCell<HashMap<String, Era>> = RefCell::new(HashMap::new());
}

fn origin_of(url: &str) -> String {
    let rest = url.split_once("://");
    match rest {
        Some((scheme, r)) => format!("{scheme}://{}", r.split('/').next().unwrap_or_default()),
        None => url.to_string(),
    }
}

/// The snapshot field holding the wall-clock time (`Date.now()`) it was taken at.
const SAVED_AT: &str = "savedAt";

/// An MCP client connected to one server over Streamable HTTP.
#[wasm_bindgen(skip_typescript)]
pub struct McpClient {
    client: Client,
    tools: Rc<RefCell<HashMap<String, Value>>>,
}

pub(super) fn session_config(url: &str, options: &JsValue) -> Result<SessionConfig, JsValue> {
    let mut cfg = SessionConfig::new(url);
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Err(invalid_argument("url must be an http:// or https:// URL"));
    }
    match get_string(options, "protocol")?.as_deref() {
        None | Some("auto") => cfg.protocol = ProtocolChoice::Auto,
        Some(v) => cfg.protocol = ProtocolChoice::Exact(v.to_string()),
    }
    if let Some(t) = get_ms(options, "timeoutMs")? {
        cfg.request_timeout_ms = Some(t);
    }
    if let Some(t) = get_ms(options, "maxTotalTimeoutMs")? {
        cfg.max_total_timeout_ms = Some(t);
    }
    let headers = get(options, "headers");
    if headers.is_object() {
        let map: HashMap<String, String> = serde_json::from_value(from_js(&headers)?)
            .map_err(|_| invalid_argument("headers must map names to strings"))?;
        let mut pairs: Vec<(String, String)> = map
            .into_iter()
            .map(|(k, v)| (k.to_ascii_lowercase(), v))
            .collect();
        pairs.sort_unstable();
        cfg.headers = pairs;
    }
    let info = get(options, "clientInfo");
    if !info.is_undefined() {
        cfg.client_info = from_js(&info)?;
    }
    let mut caps = match from_js(&get(options, "capabilities"))? {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    // Declare what the registered handlers can answer (MCP `client/*`).
    if get_fn(options, "onElicitation")?.is_some() {
        caps.entry("elicitation").or_insert(json!({"form": {}}));
    }
    if get_fn(options, "onSampling")?.is_some() {
        caps.entry("sampling").or_insert(json!({}));
    }
    if get_fn(options, "onRoots")?.is_some() {
        caps.entry("roots").or_insert(json!({"listChanged": false}));
    }
    cfg.capabilities = Value::Object(caps);
    if cfg.protocol == ProtocolChoice::Auto {
        cfg.known_era = ERA_BY_ORIGIN.with(|m| m.borrow().get(&origin_of(url)).copied());
    }
    if let Some(false) = get(options, "openGetStream").as_bool() {
        cfg.open_get_stream = false;
    }
    if let Some(n) = get_bytes(options, "maxEventBytes")? {
        // A line is at most an event plus its field name: events hit their own limit first.
        cfg.sse.max_event_bytes = n;
        cfg.sse.max_line_bytes = n.saturating_add(64);
    }
    if let Some(n) = get_bytes(options, "maxBodyBytes")? {
        cfg.max_json_bytes = n;
    }
    Ok(cfg)
}

/// Calls a JS handler and awaits its (possibly promised) answer.
async fn call_handler(
    f: js_sys::Function,
    params: Value,
    extra: Value,
) -> Result<Value, ErrorObject> {
    let failed = |message: String| ErrorObject {
        code: crate::proto::jsonrpc::codes::INTERNAL_ERROR,
        message,
        data: None,
    };
    let out = f
        .call2(&JsValue::NULL, &to_js(&params), &to_js(&extra))
        .map_err(|e| failed(describe(&e)))?;
    let value = match out.dyn_ref::<js_sys::Promise>() {
        Some(p) => JsFuture::from(p.clone())
            .await
            .map_err(|e| failed(describe(&e)))?,
        None => out,
    };
    from_js(&value).map_err(|e| failed(describe(&e)))
}

fn describe(e: &JsValue) -> String {
    get_string(e, "message")
        .ok()
        .flatten()
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "handler failed".into())
}

fn input_handler(options: &JsValue) -> Result<Option<InputHandler>, JsValue> {
    let elicit = get_fn(options, "onElicitation")?;
    let sample = get_fn(options, "onSampling")?;
    let roots = get_fn(options, "onRoots")?;
    if elicit.is_none() && sample.is_none() && roots.is_none() {
        return Ok(None);
    }
    let handler: InputHandler = Rc::new(move |req: InputRequest| {
        let f = match req.method.as_str() {
            "elicitation/create" => elicit.clone(),
            "sampling/createMessage" => sample.clone(),
            "roots/list" => roots.clone(),
            _ => None,
        };
        Box::pin(async move {
            let Some(f) = f else {
                return Err(ErrorObject {
                    code: crate::proto::jsonrpc::codes::METHOD_NOT_FOUND,
                    message: format!("no handler registered for {}", req.method),
                    data: None,
                });
            };
            if req.method == "elicitation/create" {
                let schema = req
                    .params
                    .get("requestedSchema")
                    .cloned()
                    .unwrap_or(Value::Null);
                let defaults = Value::Object(crate::proto::elicitation::defaults(&schema));
                let mut result =
                    call_handler(f, req.params.clone(), json!({"defaults": defaults})).await?;
                crate::proto::elicitation::apply_defaults(&req.params, &mut result);
                Ok(result)
            } else {
                call_handler(f, req.params, Value::Null).await
            }
        })
    });
    Ok(Some(handler))
}

fn traffic_observer(options: &JsValue) -> Result<Option<TrafficFn>, JsValue> {
    let Some(f) = get_fn(options, "onTraffic")? else {
        return Ok(None);
    };
    let streams: RefCell<HashMap<u64, crate::transport::utf8::Utf8Stream>> =
        RefCell::new(HashMap::new());
    Ok(Some(Box::new(move |t: &Traffic| {
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
                    .entry(*exchange)
                    .or_default()
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
        };
        let _ = f.call1(&JsValue::NULL, &to_js(&v));
    })))
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

/// Per-call options: `{signal?, onProgress?, timeoutMs?, idempotent?}`.
pub(super) struct CallOptions {
    signal: Option<web_sys::AbortSignal>,
    progress: Option<ProgressFn>,
    timeout_ms: Option<u64>,
    idempotent: bool,
}

pub(super) fn call_options(options: &JsValue) -> Result<CallOptions, JsValue> {
    let signal = match get(options, "signal") {
        v if v.is_undefined() || v.is_null() => None,
        v => Some(
            v.dyn_into::<web_sys::AbortSignal>()
                .map_err(|_| invalid_argument("signal must be an AbortSignal"))?,
        ),
    };
    let progress: Option<ProgressFn> = get_fn(options, "onProgress")?.map(|f| {
        Box::new(
            move |progress: f64, total: Option<f64>, message: Option<String>| {
                let v = json!({"progress": progress, "total": total, "message": message});
                let _ = f.call1(&JsValue::NULL, &to_js(&v));
            },
        ) as ProgressFn
    });
    let idempotent = match get(options, "idempotent") {
        v if v.is_undefined() || v.is_null() => false,
        v => v
            .as_bool()
            .ok_or_else(|| invalid_argument("idempotent must be a boolean"))?,
    };
    Ok(CallOptions {
        signal,
        progress,
        timeout_ms: get_ms(options, "timeoutMs")?,
        idempotent,
    })
}

/// Runs one request with the call options: progress, timeout, and an `AbortSignal` that cancels.
pub(super) async fn run_with(
    client: &Client,
    method: &str,
    params: Value,
    opts: CallOptions,
) -> Result<Value, crate::proto::session::ProtocolError> {
    if opts.signal.as_ref().is_some_and(|s| s.aborted()) {
        return Err(crate::proto::session::ProtocolError::Cancelled);
    }
    let ropts = RequestOptions {
        timeout_ms: opts.timeout_ms,
        progress: opts.progress.is_some(),
        idempotent: opts.idempotent,
    };
    let pending = client.start_request(method, params, ropts, opts.progress);
    let _listener = opts
        .signal
        .as_ref()
        .map(|s| AbortListener::new(s, client.clone(), pending));
    client.wait(pending).await
}

async fn run(
    client: Client,
    method: &str,
    params: Value,
    opts: CallOptions,
) -> Result<Value, JsValue> {
    run_with(&client, method, params, opts)
        .await
        .map_err(|e| error_to_js(&e))
}

/// The driver options from the JS connect options (fetch, handlers, traffic observer).
pub(super) fn client_options(
    session: SessionConfig,
    options: &JsValue,
) -> Result<ClientOptions, JsValue> {
    let (auth, auth_fetch) = super::auth::auth_host(options)?;
    Ok(ClientOptions {
        session,
        fetch: get_fn(options, "fetch")?,
        input_handler: input_handler(options)?,
        observer: traffic_observer(options)?,
        gate: None,
        auth,
        auth_fetch,
    })
}

/// Cancels an operation when a user's `AbortSignal` fires; removes itself when dropped.
struct AbortListener {
    signal: web_sys::AbortSignal,
    callback: Closure<dyn FnMut()>,
}

impl AbortListener {
    fn new(signal: &web_sys::AbortSignal, client: Client, op: Pending) -> Self {
        let callback = Closure::<dyn FnMut()>::new(move || client.cancel(op));
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

#[wasm_bindgen]
impl McpClient {
    /// Connects to `url`; see the TypeScript declarations for the options.
    pub async fn connect(url: String, options: JsValue) -> Result<McpClient, JsValue> {
        let mut session = session_config(&url, &options)?;
        session.auth = super::auth::auth_config(&options)?;
        let opts = client_options(session, &options)?;
        let auto = opts.session.protocol == ProtocolChoice::Auto;
        let (client, info) = Client::connect(opts).await.map_err(|e| error_to_js(&e))?;
        // Only detection teaches the cache: a version the caller pinned says nothing about what
        // the server prefers.
        if auto {
            ERA_BY_ORIGIN.with(|m| m.borrow_mut().insert(origin_of(&url), info.era));
        }
        Ok(McpClient {
            client,
            tools: Rc::new(RefCell::new(HashMap::new())),
        })
    }

    /// Signs in to `url` (its `auth` options required) without connecting; resolves with who is
    /// signed in. The tokens go to the auth storage, where `connect` finds them.
    #[wasm_bindgen(js_name = signIn)]
    pub async fn sign_in(url: String, options: JsValue) -> Result<JsValue, JsValue> {
        let mut session = session_config(&url, &options)?;
        session.auth = super::auth::auth_config(&options)?;
        let opts = client_options(session, &options)?;
        Client::sign_in(opts)
            .await
            .map(|v| to_js(&v))
            .map_err(|e| error_to_js(&e))
    }

    /// Finishes a sign-in from the callback URL (for hosts where the sign-in started elsewhere: a
    /// reloaded page, a Worker's callback route). The pending request is found in the auth
    /// storage by its `state`.
    #[wasm_bindgen(js_name = completeAuthorization)]
    pub async fn complete_authorization(
        url: String,
        callback: String,
        options: JsValue,
    ) -> Result<JsValue, JsValue> {
        let mut session = session_config(&url, &options)?;
        session.auth = super::auth::auth_config(&options)?;
        let opts = client_options(session, &options)?;
        Client::complete_authorization(opts, &callback)
            .await
            .map(|v| to_js(&v))
            .map_err(|e| error_to_js(&e))
    }

    /// Rebuilds a connected client from `snapshot()` output without any request (for hosts that
    /// evict isolates: Workers, Durable Objects). `url` and `options` as for `connect`.
    pub fn restore(url: String, snapshot: JsValue, options: JsValue) -> Result<McpClient, JsValue> {
        let mut session = session_config(&url, &options)?;
        session.auth = super::auth::auth_config(&options)?;
        let value = from_js(&snapshot)?;
        let saved_at = value.get(SAVED_AT).and_then(Value::as_f64);
        let mut snap: crate::proto::session::SessionSnapshot = serde_json::from_value(value)
            .map_err(|e| invalid_argument(&format!("not a snapshot: {e}")))?;
        if let Some(saved_at) = saved_at {
            // Cache lifetimes (MCP 2026-07-28 `server/utilities/caching`, `ttlMs`) run on while
            // no isolate holds the session: charge the wall-clock time since the snapshot.
            let elapsed = (js_sys::Date::now() - saved_at).max(0.0) as u64;
            snap.cache.retain_mut(|(_, _, left, _)| {
                *left = left.saturating_sub(elapsed);
                *left > 0
            });
        }
        let opts = client_options(session, &options)?;
        let client = Client::restore(opts, snap).map_err(|e| error_to_js(&e))?;
        Ok(McpClient {
            client,
            tools: Rc::new(RefCell::new(HashMap::new())),
        })
    }

    /// The client's durable state as plain JSON: era, version, server info, 2025 session id and
    /// last event id, cached lists with the time they have left. Store it; `McpClient.restore`
    /// takes it back.
    pub fn snapshot(&self) -> JsValue {
        match serde_json::to_value(self.client.snapshot()) {
            Ok(Value::Object(mut m)) => {
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
        future_to_promise(async move {
            let timeout_ms = get_ms(&options, "timeoutMs")?;
            let v = client
                .list_all(
                    ListKind::Tools,
                    RequestOptions {
                        timeout_ms,
                        ..RequestOptions::default()
                    },
                )
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
        future_to_promise(async move {
            let arguments = match from_js(&args)? {
                Value::Null => json!({}),
                v @ Value::Object(_) => v,
                _ => return Err(invalid_argument("tool arguments must be an object")),
            };
            let opts = call_options(&options)?;
            client
                .ensure_output_schemas()
                .await
                .map_err(|e| error_to_js(&e))?;
            let params = json!({"name": name, "arguments": arguments});
            let v = run(client.clone(), "tools/call", params, opts).await?;
            client
                .check_tool_result(&name, &v)
                .map_err(|e| error_to_js(&e))?;
            Ok(to_js(&v))
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

    /// Lists every prompt.
    #[wasm_bindgen(js_name = listPrompts)]
    pub fn list_prompts(&self) -> js_sys::Promise {
        self.list(ListKind::Prompts)
    }

    fn list(&self, kind: ListKind) -> js_sys::Promise {
        let client = self.client.clone();
        future_to_promise(async move {
            let v = client
                .list_all(kind, RequestOptions::default())
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
        future_to_promise(async move {
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
        future_to_promise(async move {
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
        future_to_promise(async move {
            let params = from_js(&params)?;
            let v = run(client, &method, params, call_options(&options)?).await?;
            Ok(to_js(&v))
        })
    }

    fn generic(&self, method: &'static str, params: Value, options: JsValue) -> js_sys::Promise {
        let client = self.client.clone();
        future_to_promise(async move {
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
        future_to_promise(async move {
            let filter = from_js(&filter)?;
            let opts = call_options(&options)?;
            let pending = client.listen(filter);
            let _l = opts
                .signal
                .as_ref()
                .map(|s| AbortListener::new(s, client.clone(), pending));
            let v = client.wait(pending).await.map_err(|e| error_to_js(&e))?;
            Ok(to_js(&v))
        })
    }

    /// Notifications as an async iterator: `{type: "notification" | "progress" | "diagnostic" |
    /// "toolRejected" | "inputCancelled" | "closed" | "gap", ...}`. Ends after the client closes.
    /// While it is open, the GET / listen streams pause when its queue is full; items lost from a
    /// request's own stream are reported by a `gap` item.
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
        future_to_promise(async move {
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
        future_to_promise(async move {
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
