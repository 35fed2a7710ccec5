//! [`ConnectOptions`]: how one client connects. The target-neutral part is a
//! [`ClientConfig`] (the one writer of the session's configuration); the rest is what only a JS
//! scope has (an injected `fetch`, JS handlers, the traffic observer, the JS auth host).

use std::future::Future;
use std::rc::Rc;

use serde_json::{Map, Value};

use super::input::{HandlerFn, Handlers};
use crate::client::config::ClientConfig;
use crate::client::{ClientOptions, Traffic};
use crate::proto::auth::AuthConfig;
use crate::proto::jsonrpc::ErrorObject;
use crate::proto::session::{ProtocolError, SessionConfig};
use crate::runtime::OutboundGate;
use crate::transport::fetch_host::FetchHost;
use crate::transport::js_auth::{auth_host, AuthHost};

/// How [`super::McpClient::connect`] connects (and [`super::McpPool`] connects each server).
///
/// ```no_run
/// # use mcp_edge::ConnectOptions;
/// let options = ConnectOptions::new()
///     .header("Authorization", "Bearer my-token")
///     .timeout_ms(30_000)
///     .protocol("auto");
/// ```
#[derive(Clone, Default)]
pub struct ConnectOptions {
    config: ClientConfig,
    fetch: Option<js_sys::Function>,
    handlers: Handlers,
    observer: Option<TrafficSink>,
    auth_host: Option<(AuthHost, Option<js_sys::Function>)>,
}

/// A traffic observer shared by the clients built from one set of options.
type TrafficSink = Rc<dyn Fn(&Traffic)>;

impl std::fmt::Debug for ConnectOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConnectOptions")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl ConnectOptions {
    /// The defaults: protocol `auto`, a 60 s inactivity timeout per request (reset by
    /// progress), no total limit, the 2025-era GET stream on.
    pub fn new() -> Self {
        Self::default()
    }

    /// `"auto"` (try 2026-07-28, fall back to the 2025 era) or an exact version such as
    /// `"2025-11-25"` (no fallback). An unsupported version fails the connect with `CONFIG`.
    pub fn protocol(mut self, version: &str) -> Self {
        self.config.set_protocol(version);
        self
    }

    /// An extra header sent with every request (e.g. `Authorization`); replaces an earlier one
    /// of the same name.
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.config.set_header(name, value);
        self
    }

    /// The inactivity timeout of each request, reset by progress notifications.
    pub fn timeout_ms(mut self, ms: u64) -> Self {
        self.config.timeouts.inactivity_ms = Some(ms);
        self
    }

    /// The hard limit of each request, progress or not (at least the inactivity timeout).
    pub fn max_total_timeout_ms(mut self, ms: u64) -> Self {
        self.config.timeouts.total_ms = Some(ms);
        self
    }

    /// The `Implementation` object sent as client info (`{"name": ..., "version": ...}`).
    pub fn client_info(mut self, info: Value) -> Self {
        self.config.client_info = Some(info);
        self
    }

    /// Client capabilities to declare besides those of the registered handlers.
    pub fn capabilities(mut self, capabilities: Map<String, Value>) -> Self {
        self.config.capabilities = capabilities;
        self
    }

    /// Declares an extension (MCP 2026-07-28 `basic/versioning` "Extension Negotiation") with
    /// its settings object (`true`: the settings mcp-edge knows, e.g. MCP Apps' MIME type), or
    /// turns a default one off with `false`.
    pub fn extension(mut self, id: &str, settings: Value) -> Self {
        self.config.extensions.insert(id.to_string(), settings);
        self
    }

    /// Whether to declare the Tasks extension (on by default): off, a 2026-07-28 server may not
    /// answer a call with a task (one that must will refuse the call with `-32021`).
    pub fn tasks(self, on: bool) -> Self {
        let settings = if on {
            Value::Object(Map::new())
        } else {
            Value::Bool(false)
        };
        self.extension(crate::proto::session::TASKS_EXTENSION, settings)
    }

    /// How long a call the server turned into a task waits for it, polling (default 24 h); then
    /// it fails with `TASK_TIMEOUT` and the task, still running, can be resumed by its id.
    pub fn max_task_wait_ms(mut self, ms: u64) -> Self {
        self.config.max_task_wait_ms = Some(ms);
        self
    }

    /// 2025 era: whether to open the optional GET stream for server notifications (default on).
    pub fn open_get_stream(mut self, open: bool) -> Self {
        self.config.open_get_stream = Some(open);
        self
    }

    /// A `fetch` function to use instead of the global one (a Workers service binding, a proxy).
    pub fn fetch(mut self, fetch: js_sys::Function) -> Self {
        self.fetch = Some(fetch);
        self
    }

    /// Answers the server's form elicitations (2025 server requests and 2026-07-28 MRTR rounds
    /// alike) and declares the `elicitation` capability. `f` gets the request params and the
    /// form's defaults; properties an accepted answer leaves out get their defaults.
    pub fn on_elicitation<F, Fut>(mut self, f: F) -> Self
    where
        F: Fn(Value, Map<String, Value>) -> Fut + 'static,
        Fut: Future<Output = Result<Value, ErrorObject>> + 'static,
    {
        let handler: HandlerFn = Rc::new(move |params, extra| {
            let defaults = match extra.get("defaults") {
                Some(Value::Object(m)) => m.clone(),
                _ => Map::new(),
            };
            Box::pin(f(params, defaults))
        });
        self.handlers.elicitation = Some(handler);
        self
    }

    /// Answers `sampling/createMessage` and declares the `sampling` capability.
    pub fn on_sampling<F, Fut>(mut self, f: F) -> Self
    where
        F: Fn(Value) -> Fut + 'static,
        Fut: Future<Output = Result<Value, ErrorObject>> + 'static,
    {
        self.handlers.sampling = Some(Rc::new(move |params, _| Box::pin(f(params))));
        self
    }

    /// Answers `roots/list` and declares the `roots` capability.
    pub fn on_roots<F, Fut>(mut self, f: F) -> Self
    where
        F: Fn(Value) -> Fut + 'static,
        Fut: Future<Output = Result<Value, ErrorObject>> + 'static,
    {
        self.handlers.roots = Some(Rc::new(move |params, _| Box::pin(f(params))));
        self
    }

    /// Sees every request, response head, body chunk and end of the connection's HTTP traffic
    /// (for an inspector).
    pub fn on_traffic(mut self, f: impl Fn(&Traffic) + 'static) -> Self {
        self.observer = Some(Rc::new(f));
        self
    }

    /// Sets the handlers the JS surface registered.
    pub(crate) fn with_handlers(mut self, handlers: Handlers) -> Self {
        self.handlers = handlers;
        self
    }

    /// The largest SSE event accepted (default 8 MiB); a bigger one ends its request at once
    /// with `EVENT_TOO_LARGE` and the stream is closed.
    pub fn max_event_bytes(mut self, n: usize) -> Self {
        self.config.limits.max_event_bytes = Some(n);
        self
    }

    /// The largest JSON response body accepted (default 16 MiB): `BODY_TOO_LARGE` beyond.
    pub fn max_body_bytes(mut self, n: usize) -> Self {
        self.config.limits.max_body_bytes = Some(n);
        self
    }

    /// OAuth 2.1 authorization (MCP `basic/authorization`): a 401 or 403 on any request runs
    /// the flow these settings describe and replays the request. Tokens, registrations and
    /// pending sign-ins go to the auth host's storage (memory of this module instance unless
    /// [`ConnectOptions::auth_host`] names another).
    ///
    /// ```no_run
    /// # use mcp_edge::{AuthConfig, ConnectOptions};
    /// let auth = AuthConfig::from_json(&serde_json::json!({
    ///     "grant": "client_credentials",
    ///     "clientId": "agent-1",
    ///     "clientSecret": "from-the-vault",
    /// }))
    /// .expect("valid settings");
    /// let options = ConnectOptions::new().auth(auth);
    /// ```
    pub fn auth(mut self, config: AuthConfig) -> Self {
        self.config.auth = Some(config);
        self
    }

    /// The target-neutral part of these options, the registered handlers' capabilities
    /// declared.
    pub(crate) fn client_config(&self) -> ClientConfig {
        let mut config = self.config.clone();
        self.handlers.declare(&mut config.capabilities);
        config
    }

    /// The host side of OAuth, from a JS object of the shape of the JS `auth` option:
    /// `storage` (`get`/`put`/`delete`, may return promises), `onAuthorizationUrl(url)` (the
    /// person's step, resolving with the callback URL), `privateKeyPem` (PKCS#8 P-256 for
    /// `private_key_jwt`) and `fetch` (for OAuth traffic only). Keys and signatures are
    /// WebCrypto's; PKCE hashing runs in Rust.
    pub fn auth_host(mut self, host: &wasm_bindgen::JsValue) -> Self {
        let fetch = js_sys::Reflect::get(host, &"fetch".into())
            .ok()
            .and_then(|f| wasm_bindgen::JsCast::dyn_into::<js_sys::Function>(f).ok());
        self.auth_host = Some((auth_host(host), fetch));
        self
    }

    /// The JS surface's authorization host and OAuth-only `fetch`, already built from its
    /// `auth` option.
    pub(crate) fn set_auth_host(&mut self, host: AuthHost, fetch: Option<js_sys::Function>) {
        self.auth_host = Some((host, fetch));
    }

    /// The session configuration for `url` (the era cache consulted when the protocol is
    /// `auto`, the registered handlers' capabilities declared). The URL must be `http://` or
    /// `https://`.
    pub fn session_config(&self, url: &str) -> Result<SessionConfig, ProtocolError> {
        self.client_config().session_config(url)
    }

    /// The driver options of a client with `session` (fetch, handlers, traffic observer).
    pub(crate) fn client_options(
        &self,
        session: SessionConfig,
        gate: Option<OutboundGate>,
    ) -> ClientOptions<FetchHost> {
        // With OAuth settings and no host named, the default one (memory storage, WebCrypto).
        let (auth, auth_fetch) = match (&self.auth_host, &session.auth) {
            (Some((host, fetch)), _) => (Some(host.clone()), fetch.clone()),
            (None, Some(_)) => (Some(auth_host(&wasm_bindgen::JsValue::UNDEFINED)), None),
            (None, None) => (None, None),
        };
        ClientOptions {
            session,
            host: FetchHost::new(self.fetch.clone(), auth_fetch, auth),
            input_handler: self.handlers.input_handler(),
            observer: self.observer.clone().map(|o| {
                let f: crate::client::TrafficFn = Box::new(move |t: &Traffic| o(t));
                f
            }),
            gate,
            on_event: None,
        }
    }
}
