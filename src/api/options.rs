//! [`ConnectOptions`]: how one client connects, and the per-origin era cache.

use crate::proto::uri::origin_or_whole;
use crate::util::vec_map::VecMap;
use std::cell::RefCell;
use std::future::Future;
use std::rc::Rc;

use serde_json::{Map, Value};

use super::input::{HandlerFn, Handlers};
use crate::client::{ClientOptions, Traffic};
use crate::proto::auth::AuthConfig;
use crate::proto::jsonrpc::ErrorObject;
use crate::proto::session::{Era, ProtocolChoice, ProtocolError, SessionConfig};
use crate::runtime::OutboundGate;
use crate::transport::fetch_host::FetchHost;
use crate::transport::js_auth::{auth_host, AuthHost};

thread_local! {
    /// The era detected per origin (MCP 2026-07-28 `basic/versioning`: "Clients SHOULD cache the
    /// result for the lifetime of the ... origin"), shared by the Rust and JS clients.
    static ERA_BY_ORIGIN: RefCell<VecMap<String, Era>> = const { RefCell::new(VecMap::new()) };
}

/// The era detected earlier for `url`'s origin, if any.
pub(crate) fn known_era(url: &str) -> Option<Era> {
    ERA_BY_ORIGIN.with(|m| m.borrow().get(&origin_or_whole(url)).copied())
}

/// Remembers the era `url`'s server was detected in. Only detection teaches the cache: a version
/// the caller pinned says nothing about what the server prefers.
pub(crate) fn learn_era(url: &str, era: Era) {
    ERA_BY_ORIGIN.with(|m| m.borrow_mut().insert(origin_or_whole(url), era));
}

/// How [`super::McpClient::connect`] connects (and [`super::McpPool`] connects each server).
///
/// ```no_run
/// # use mcp_edge::ConnectOptions;
/// let options = ConnectOptions::new()
///     .header("Authorization", "Bearer my-token")
///     .timeout_ms(30_000)
///     .protocol("auto");
/// ```
#[derive(Clone)]
pub struct ConnectOptions {
    protocol: ProtocolChoice,
    headers: Vec<(String, String)>,
    timeout_ms: Option<u64>,
    max_total_timeout_ms: Option<u64>,
    client_info: Option<Value>,
    capabilities: Map<String, Value>,
    open_get_stream: bool,
    fetch: Option<js_sys::Function>,
    handlers: Handlers,
    observer: Option<TrafficSink>,
    max_event_bytes: Option<usize>,
    max_body_bytes: Option<usize>,
    auth: Option<AuthConfig>,
    auth_host: Option<(AuthHost, Option<js_sys::Function>)>,
}

/// A traffic observer shared by the clients built from one set of options.
type TrafficSink = Rc<dyn Fn(&Traffic)>;

impl Default for ConnectOptions {
    fn default() -> Self {
        ConnectOptions {
            protocol: ProtocolChoice::Auto,
            headers: Vec::new(),
            timeout_ms: None,
            max_total_timeout_ms: None,
            client_info: None,
            capabilities: Map::new(),
            open_get_stream: true,
            fetch: None,
            handlers: Handlers::default(),
            observer: None,
            max_event_bytes: None,
            max_body_bytes: None,
            auth: None,
            auth_host: None,
        }
    }
}

impl std::fmt::Debug for ConnectOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Header values may be credentials: names only.
        let names: Vec<&str> = self.headers.iter().map(|(k, _)| k.as_str()).collect();
        f.debug_struct("ConnectOptions")
            .field("protocol", &self.protocol)
            .field("headers", &names)
            .field("timeout_ms", &self.timeout_ms)
            .field("max_total_timeout_ms", &self.max_total_timeout_ms)
            .field("open_get_stream", &self.open_get_stream)
            .field("auth", &self.auth.is_some())
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
        self.protocol = match version {
            "auto" => ProtocolChoice::Auto,
            v => ProtocolChoice::Exact(v.to_string()),
        };
        self
    }

    /// An extra header sent with every request (e.g. `Authorization`); replaces an earlier one
    /// of the same name.
    pub fn header(mut self, name: &str, value: &str) -> Self {
        let name = name.to_ascii_lowercase();
        self.headers.retain(|(k, _)| *k != name);
        self.headers.push((name, value.to_string()));
        self
    }

    /// The inactivity timeout of each request, reset by progress notifications.
    pub fn timeout_ms(mut self, ms: u64) -> Self {
        self.timeout_ms = Some(ms);
        self
    }

    /// The hard limit of each request, progress or not (at least the inactivity timeout).
    pub fn max_total_timeout_ms(mut self, ms: u64) -> Self {
        self.max_total_timeout_ms = Some(ms);
        self
    }

    /// The `Implementation` object sent as client info (`{"name": ..., "version": ...}`).
    pub fn client_info(mut self, info: Value) -> Self {
        self.client_info = Some(info);
        self
    }

    /// Client capabilities to declare besides those of the registered handlers.
    pub fn capabilities(mut self, capabilities: Map<String, Value>) -> Self {
        self.capabilities = capabilities;
        self
    }

    /// 2025 era: whether to open the optional GET stream for server notifications (default on).
    pub fn open_get_stream(mut self, open: bool) -> Self {
        self.open_get_stream = open;
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

    /// Sets the headers as the JS surface parsed them (names lower-cased).
    pub(crate) fn with_headers(mut self, headers: Vec<(String, String)>) -> Self {
        self.headers = headers;
        self
    }

    /// Sets the handlers the JS surface registered.
    pub(crate) fn with_handlers(mut self, handlers: Handlers) -> Self {
        self.handlers = handlers;
        self
    }

    /// The largest SSE event accepted (default 16 MiB); a bigger one ends its request at once
    /// with `EVENT_TOO_LARGE` and the stream is closed.
    pub fn max_event_bytes(mut self, n: usize) -> Self {
        self.max_event_bytes = Some(n);
        self
    }

    /// The largest JSON response body accepted (default 16 MiB): `BODY_TOO_LARGE` beyond.
    pub fn max_body_bytes(mut self, n: usize) -> Self {
        self.max_body_bytes = Some(n);
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
        self.auth = Some(config);
        self
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
    /// `auto`). The URL must be `http://` or `https://`.
    pub fn session_config(&self, url: &str) -> Result<SessionConfig, ProtocolError> {
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(ProtocolError::InvalidConfig(
                "url must be an http:// or https:// URL".into(),
            ));
        }
        let mut cfg = SessionConfig::new(url);
        cfg.protocol = self.protocol.clone();
        if let Some(t) = self.timeout_ms {
            cfg.request_timeout_ms = Some(t);
        }
        if let Some(t) = self.max_total_timeout_ms {
            cfg.max_total_timeout_ms = Some(t);
        }
        let mut headers = self.headers.clone();
        crate::util::order::sort_by_str(&mut headers, |h| &h.0);
        cfg.headers = headers;
        if let Some(info) = &self.client_info {
            cfg.client_info = info.clone();
        }
        let mut caps = self.capabilities.clone();
        self.handlers.declare(&mut caps);
        cfg.capabilities = Value::Object(caps);
        if cfg.protocol == ProtocolChoice::Auto {
            cfg.known_era = known_era(url);
        }
        cfg.open_get_stream = self.open_get_stream;
        if let Some(n) = self.max_event_bytes {
            // A line is at most an event plus its field name: events hit their own limit first.
            cfg.sse.max_event_bytes = n;
            cfg.sse.max_line_bytes = n.saturating_add(64);
        }
        if let Some(n) = self.max_body_bytes {
            cfg.max_json_bytes = n;
        }
        cfg.auth = self.auth.clone();
        Ok(cfg)
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
