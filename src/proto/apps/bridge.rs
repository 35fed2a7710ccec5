//! The host side of one view's `postMessage` dialect (ext-apps `specification/2026-01-26/
//! apps.mdx` "Communication Protocol", "Sandbox proxy", "MCP Apps Specific Messages",
//! "Lifecycle"), as a state machine.
//!
//! The glue feeds it every message that arrives from the view (as JSON text) and every host event
//! (tool input and result, context changes, teardown), and drains [`BridgeEvent`]s: messages to
//! post to the view, view requests for the host to answer ([`AppBridge::answer`]), and notices.
//! It validates everything the view sends: a message that is not JSON-RPC, is too large or
//! names a tool the view may not call is refused or dropped with a diagnostic, never acted on.

use std::collections::{BTreeMap, VecDeque};

use serde_json::{json, Map, Value};

use super::resource::{html_with_policy, AppResource};
use super::tool_ui::Visibility;
use super::AppError;
use crate::proto::jsonrpc::{codes, ErrorObject, Message, Notification, Request, RequestId};

/// The dialect version the bridge speaks (ext-apps stable `2026-01-26`).
pub const APPS_PROTOCOL_VERSION: &str = "2026-01-26";

/// The largest message a view may send (JSON text bytes); larger ones are dropped.
pub const MAX_VIEW_MESSAGE_BYTES: usize = 4 << 20;

/// How many view requests may wait for the host at once; more are refused.
pub const MAX_PENDING_REQUESTS: usize = 32;

/// How many times a sandbox proxy may load again before the bridge gives the view up (each
/// reload sends the whole view again).
pub const MAX_RELOADS: u32 = 16;

/// How many diagnostics a bridge reports; later ones are only counted
/// ([`AppBridge::dropped_diagnostics`]), so a flooding view cannot flood the host's log.
pub const MAX_DIAGNOSTICS: usize = 64;

/// Where the view is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BridgeState {
    /// Web hosts: the sandbox proxy has not said `sandbox-proxy-ready` yet.
    AwaitingProxy,
    /// The view is loading; no `ui/initialize` yet.
    Loading,
    /// `ui/initialize` answered; waiting for `ui/notifications/initialized`.
    Initializing,
    /// Initialised: host notifications flow.
    Ready,
    /// `ui/resource-teardown` sent; waiting for the view's answer.
    TearingDown,
    /// Done: the host may remove the frame.
    Closed,
}

/// What the view asks the host to do; the host answers with [`AppBridge::answer`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ViewRequest {
    /// `tools/call` of a tool of the bound server that the app may call (checked).
    CallTool {
        /// The server's tool name.
        name: String,
        /// The arguments (an object).
        arguments: Value,
    },
    /// `resources/read` on the bound server.
    ReadResource {
        /// The URI.
        uri: String,
    },
    /// `ui/open-link` (an `http(s)` URL, checked).
    OpenLink {
        /// The URL.
        url: String,
    },
    /// `ui/message`: content for the conversation.
    Message {
        /// The params as sent (`role`, `content`).
        params: Value,
    },
    /// `ui/update-model-context`: context for the model's later turns.
    UpdateModelContext {
        /// The params as sent (`content`, `structuredContent`).
        params: Value,
    },
    /// `ui/request-display-mode`, for a mode both sides declared (checked); answer `{"mode"}`.
    RequestDisplayMode {
        /// The mode asked for.
        mode: String,
    },
}

impl ViewRequest {
    /// The method the view used.
    pub fn method(&self) -> &'static str {
        match self {
            ViewRequest::CallTool { .. } => "tools/call",
            ViewRequest::ReadResource { .. } => "resources/read",
            ViewRequest::OpenLink { .. } => "ui/open-link",
            ViewRequest::Message { .. } => "ui/message",
            ViewRequest::UpdateModelContext { .. } => "ui/update-model-context",
            ViewRequest::RequestDisplayMode { .. } => "ui/request-display-mode",
        }
    }

    /// The JSON form hosts read: `{"method", ...params}`.
    pub fn to_json(&self) -> Value {
        let mut v = match self {
            ViewRequest::CallTool { name, arguments } => {
                json!({"name": name, "arguments": arguments})
            }
            ViewRequest::ReadResource { uri } => json!({ "uri": uri }),
            ViewRequest::OpenLink { url } => json!({ "url": url }),
            ViewRequest::Message { params } | ViewRequest::UpdateModelContext { params } => {
                json!({ "params": params })
            }
            ViewRequest::RequestDisplayMode { mode } => json!({ "mode": mode }),
        };
        v["method"] = Value::from(self.method());
        v
    }
}

/// What the bridge has for the host.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum BridgeEvent {
    /// A message to post to the view (JSON text; through the sandbox proxy on web hosts).
    Post(String),
    /// A view request for the host; answer it with [`AppBridge::answer`] and this id.
    Request {
        /// The bridge's id for it.
        id: u64,
        /// What the view asks.
        request: ViewRequest,
    },
    /// The view sent `ui/notifications/initialized`: tool input and results now reach it.
    Initialized {
        /// The view's `appInfo` (from its `ui/initialize`).
        app_info: Value,
    },
    /// `notifications/message` from the view (its `params`).
    Log(Value),
    /// `ui/notifications/size-changed`: the view's content size in CSS pixels.
    SizeChanged {
        /// Width, when sent.
        width: Option<f64>,
        /// Height, when sent.
        height: Option<f64>,
    },
    /// The view is done (teardown answered, or the host closed it): remove the frame.
    Closed,
    /// A message the bridge dropped or refused, and why.
    Diagnostic(String),
}

/// How a bridge is set up.
#[derive(Debug, Clone)]
pub struct BridgeConfig {
    /// The view (HTML and checked `_meta.ui`).
    pub resource: AppResource,
    /// Web hosts: the view is loaded through a sandbox proxy on another origin, which the bridge
    /// answers with `ui/notifications/sandbox-resource-ready`.
    pub sandbox_proxy: bool,
    /// The view frame's `sandbox` attribute sent to the proxy. mcp-edge's proxy keeps only
    /// `allow-scripts`, `allow-forms`, `allow-popups` and `allow-modals`: never
    /// `allow-same-origin` (every view would share the proxy's origin and could reach the
    /// frames of other servers' views) nor any navigation of the top window.
    pub sandbox: String,
    /// `hostInfo` (`{name, version}`).
    pub host_info: Value,
    /// `hostContext` at start (theme, styles, displayMode, availableDisplayModes,
    /// containerDimensions, locale, timeZone, platform, ...); `toolInfo` is added from `tool`.
    pub host_context: Map<String, Value>,
    /// The tool whose call the view belongs to, as the server listed it.
    pub tool: Value,
    /// The bound server's tools: name → visibility. A view's `tools/call` reaches only these,
    /// and only those with `app` visibility.
    pub server_tools: BTreeMap<String, Visibility>,
    /// Whether the host opens links (`hostCapabilities.openLinks`).
    pub open_links: bool,
    /// Whether the host takes `ui/message` and `ui/update-model-context` (refused otherwise;
    /// the 2026-01-26 host capabilities have no member for them).
    pub messages: bool,
}

impl BridgeConfig {
    /// A config for `resource` and `tool` with the defaults: sandbox proxy on, the view's frame
    /// `allow-scripts allow-forms` (an opaque origin: no storage or cookies of any origin, no
    /// reach into the proxy's document), links and messages refused.
    pub fn new(resource: AppResource, tool: Value) -> BridgeConfig {
        BridgeConfig {
            resource,
            sandbox_proxy: true,
            sandbox: "allow-scripts allow-forms".into(),
            host_info: json!({"name": "mcp-edge", "version": env!("CARGO_PKG_VERSION")}),
            host_context: Map::new(),
            tool,
            server_tools: BTreeMap::new(),
            open_links: false,
            messages: false,
        }
    }
}

/// One queued host notification, sent once the view is initialised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Nothing,
    Partial,
    Input,
    Done,
}

/// The host side of one view (see the module documentation).
#[derive(Debug)]
pub struct AppBridge {
    cfg: BridgeConfig,
    state: BridgeState,
    events: VecDeque<BridgeEvent>,
    /// Host notifications held until the view is initialised, in order.
    held: Vec<(String, Value)>,
    /// The call's notifications the view was sent (input, result), replayed to a reloaded view.
    delivered: Vec<(String, Value)>,
    stage: Stage,
    /// View requests the host has not answered: the view's id and method, and whether the view
    /// that sent it is still the one loaded (a reloaded view's old requests still count against
    /// [`MAX_PENDING_REQUESTS`] until answered, but their answers are dropped).
    pending: BTreeMap<u64, (RequestId, &'static str, bool)>,
    app_info: Value,
    reloads: u32,
    next_id: u64,
    teardown_id: Option<RequestId>,
    app_modes: Option<Vec<String>>,
    diagnostics: usize,
    dropped_diagnostics: u64,
}

impl AppBridge {
    /// A bridge for one view.
    pub fn new(cfg: BridgeConfig) -> AppBridge {
        let state = if cfg.sandbox_proxy {
            BridgeState::AwaitingProxy
        } else {
            BridgeState::Loading
        };
        AppBridge {
            cfg,
            state,
            events: VecDeque::new(),
            held: Vec::new(),
            delivered: Vec::new(),
            stage: Stage::Nothing,
            pending: BTreeMap::new(),
            app_info: Value::Null,
            reloads: 0,
            next_id: 1,
            teardown_id: None,
            app_modes: None,
            diagnostics: 0,
            dropped_diagnostics: 0,
        }
    }

    /// The state.
    pub fn state(&self) -> BridgeState {
        self.state
    }

    /// The HTML a host without a sandbox proxy loads into its sandboxed frame: the view with its
    /// Content-Security-Policy first.
    pub fn document(&self) -> String {
        html_with_policy(
            &self.cfg.resource.html,
            &self.cfg.resource.meta.content_security_policy(),
        )
    }

    /// The Content-Security-Policy the view runs under.
    pub fn content_security_policy(&self) -> String {
        self.cfg.resource.meta.content_security_policy()
    }

    /// The frame's `allow` attribute.
    pub fn allow_attribute(&self) -> String {
        self.cfg.resource.meta.permissions.allow_attribute()
    }

    /// The current host context (what `ui/initialize` answers, with later changes merged).
    pub fn host_context(&self) -> Value {
        let mut ctx = self.cfg.host_context.clone();
        ctx.insert("toolInfo".into(), json!({ "tool": self.cfg.tool }));
        Value::Object(ctx)
    }

    /// How many diagnostics were counted but not reported (over [`MAX_DIAGNOSTICS`]).
    pub fn dropped_diagnostics(&self) -> u64 {
        self.dropped_diagnostics
    }

    /// The next event, if any.
    pub fn poll_event(&mut self) -> Option<BridgeEvent> {
        self.events.pop_front()
    }

    fn diagnostic(&mut self, text: String) {
        if self.diagnostics < MAX_DIAGNOSTICS {
            self.diagnostics += 1;
            self.events.push_back(BridgeEvent::Diagnostic(text));
        } else {
            self.dropped_diagnostics += 1;
        }
    }

    fn post(&mut self, m: Message) {
        self.events.push_back(BridgeEvent::Post(m.to_json()));
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.post(Message::Notification(Notification::new(
            method,
            Some(params),
        )));
    }

    fn reply(&mut self, id: RequestId, result: Result<Value, ErrorObject>) {
        self.post(Message::reply(id, result));
    }

    fn host_capabilities(&self) -> Value {
        let mut caps = Map::new();
        caps.insert("serverTools".into(), json!({}));
        caps.insert("serverResources".into(), json!({}));
        caps.insert("logging".into(), json!({}));
        if self.cfg.open_links {
            caps.insert("openLinks".into(), json!({}));
        }
        let (csp, permissions) = self.cfg.resource.meta.proxy_fields();
        let mut sandbox = Map::new();
        sandbox.insert("permissions".into(), permissions);
        if let Some(csp) = csp {
            sandbox.insert("csp".into(), csp);
        }
        caps.insert("sandbox".into(), Value::Object(sandbox));
        Value::Object(caps)
    }

    /// One message from the view, as JSON text. Everything it asks is validated here; what is
    /// refused gets an error response when it had an id, and a diagnostic.
    pub fn from_view(&mut self, text: &str) {
        if self.state == BridgeState::Closed {
            return;
        }
        if text.len() > MAX_VIEW_MESSAGE_BYTES {
            self.diagnostic(format!(
                "a {} byte message from the view dropped (limit {MAX_VIEW_MESSAGE_BYTES})",
                text.len()
            ));
            return;
        }
        let msg = match Message::parse(text) {
            Ok(m) => m,
            Err(e) => {
                self.diagnostic(format!("a malformed message from the view dropped: {e}"));
                return;
            }
        };
        match msg {
            Message::Request(r) => self.on_request(r),
            Message::Notification(n) => self.on_notification(n),
            Message::Response(r) => self.on_response(&r.id, true),
            Message::Error(e) => match e.id {
                Some(id) => self.on_response(&id, false),
                None => self.diagnostic(format!("the view sent an error: {}", e.error.message)),
            },
        }
    }

    fn on_response(&mut self, id: &RequestId, _ok: bool) {
        if self.teardown_id.as_ref() == Some(id) {
            self.close();
        } else {
            self.diagnostic(format!("a response to unknown request {id} dropped"));
        }
    }

    fn on_notification(&mut self, n: Notification) {
        let params = n.params.unwrap_or(Value::Null);
        match n.method.as_str() {
            "ui/notifications/sandbox-proxy-ready" => {
                match self.state {
                    BridgeState::AwaitingProxy => {}
                    BridgeState::Loading | BridgeState::Initializing | BridgeState::Ready => {
                        // The proxy loaded again (a host that moves the frame in its document
                        // reloads it): a new view. Its requests start a new id space, so the old
                        // view's unanswered ones are dropped; what the old view was sent is
                        // replayed once the new one is initialised.
                        self.reloads += 1;
                        if self.reloads > MAX_RELOADS {
                            self.diagnostic(format!(
                                "the sandbox proxy loaded {} times: the view is closed",
                                self.reloads + 1
                            ));
                            return self.close();
                        }
                        self.diagnostic("the sandbox proxy reloaded: the view starts again".into());
                        for entry in self.pending.values_mut() {
                            entry.2 = false;
                        }
                        let mut replay = std::mem::take(&mut self.delivered);
                        replay.append(&mut self.held);
                        self.held = replay;
                    }
                    BridgeState::TearingDown | BridgeState::Closed => return,
                }
                self.state = BridgeState::Loading;
                let (csp, permissions) = self.cfg.resource.meta.proxy_fields();
                let mut p = json!({
                    "html": self.document(),
                    "sandbox": self.cfg.sandbox,
                    "permissions": permissions,
                });
                if let Some(csp) = csp {
                    p["csp"] = csp;
                }
                // Beyond the spec's members: the `allow` attribute built here, so a proxy needs no
                // second copy of the mapping (mcp-edge's proxy reads it; others ignore it).
                let allow = self.allow_attribute();
                if !allow.is_empty() {
                    p["allow"] = Value::from(allow);
                }
                self.notify("ui/notifications/sandbox-resource-ready", p);
            }
            "ui/notifications/initialized" => {
                if self.state != BridgeState::Initializing {
                    self.diagnostic(format!(
                        "initialized in state {:?} ignored (needs ui/initialize first)",
                        self.state
                    ));
                    return;
                }
                self.state = BridgeState::Ready;
                self.events.push_back(BridgeEvent::Initialized {
                    app_info: self.app_info.clone(),
                });
                for (method, params) in std::mem::take(&mut self.held) {
                    self.deliver(&method, params);
                }
            }
            "notifications/message" => {
                if params.is_object() {
                    self.events.push_back(BridgeEvent::Log(params));
                } else {
                    self.diagnostic("notifications/message without params dropped".into());
                }
            }
            "ui/notifications/size-changed" => {
                let dim = |k: &str| {
                    params
                        .get(k)
                        .and_then(Value::as_f64)
                        .filter(|v| v.is_finite() && *v >= 0.0 && *v <= 100_000.0)
                };
                let (width, height) = (dim("width"), dim("height"));
                if width.is_none() && height.is_none() {
                    self.diagnostic("size-changed without a usable width or height".into());
                } else {
                    self.events
                        .push_back(BridgeEvent::SizeChanged { width, height });
                }
            }
            m => self.diagnostic(format!("notification {m:?} from the view ignored")),
        }
    }

    fn on_request(&mut self, r: Request) {
        let params = r.params.clone().unwrap_or(Value::Object(Map::new()));
        let before_init = matches!(
            self.state,
            BridgeState::AwaitingProxy | BridgeState::Loading
        );
        let refuse = |this: &mut Self, code: i64, why: String| {
            this.diagnostic(format!("{} refused: {why}", r.method));
            this.reply(r.id.clone(), Err(ErrorObject::new(code, why)));
        };
        if self.state == BridgeState::TearingDown {
            return refuse(
                self,
                codes::INVALID_REQUEST,
                "the view is being torn down".into(),
            );
        }
        let request = match r.method.as_str() {
            "ping" => return self.reply(r.id, Ok(json!({}))),
            "ui/initialize" => {
                if !before_init {
                    return refuse(self, codes::INVALID_REQUEST, "already initialised".into());
                }
                self.app_modes = crate::util::read::strings(
                    params
                        .get("appCapabilities")
                        .and_then(|c| c.get("availableDisplayModes")),
                );
                self.state = BridgeState::Initializing;
                let result = json!({
                    "protocolVersion": APPS_PROTOCOL_VERSION,
                    "hostInfo": self.cfg.host_info,
                    "hostCapabilities": self.host_capabilities(),
                    "hostContext": self.host_context(),
                });
                self.app_info = params.get("appInfo").cloned().unwrap_or(Value::Null);
                return self.reply(r.id, Ok(result));
            }
            _ if before_init => {
                return refuse(
                    self,
                    codes::INVALID_REQUEST,
                    "ui/initialize must come first".into(),
                )
            }
            "tools/call" => {
                let Some(name) = params.get("name").and_then(Value::as_str) else {
                    return refuse(self, codes::INVALID_PARAMS, "no string \"name\"".into());
                };
                let arguments = match params.get("arguments") {
                    None | Some(Value::Null) => json!({}),
                    Some(a @ Value::Object(_)) => a.clone(),
                    Some(_) => {
                        return refuse(
                            self,
                            codes::INVALID_PARAMS,
                            "arguments must be an object".into(),
                        )
                    }
                };
                match self.cfg.server_tools.get(name) {
                    Some(v) if v.app => ViewRequest::CallTool {
                        name: name.to_string(),
                        arguments,
                    },
                    Some(_) => {
                        return refuse(
                            self,
                            codes::INVALID_PARAMS,
                            format!("tool {name:?} is not visible to apps"),
                        )
                    }
                    None => {
                        return refuse(
                            self,
                            codes::INVALID_PARAMS,
                            format!("tool {name:?} is not a tool of this view's server"),
                        )
                    }
                }
            }
            "resources/read" => match params.get("uri").and_then(Value::as_str) {
                Some(uri) if uri.len() <= 8192 => ViewRequest::ReadResource {
                    uri: uri.to_string(),
                },
                _ => return refuse(self, codes::INVALID_PARAMS, "no usable \"uri\"".into()),
            },
            "ui/open-link" => {
                let url = params.get("url").and_then(Value::as_str).unwrap_or("");
                let lower = url.to_ascii_lowercase();
                if !self.cfg.open_links {
                    return refuse(self, -32000, "this host does not open links".into());
                }
                if !(lower.starts_with("https://") || lower.starts_with("http://"))
                    || url.len() > 8192
                {
                    return refuse(self, -32000, "Invalid URL: only http(s) links open".into());
                }
                ViewRequest::OpenLink {
                    url: url.to_string(),
                }
            }
            "ui/message" | "ui/update-model-context" if !self.cfg.messages => {
                return refuse(
                    self,
                    -32000,
                    format!("this host does not take {}", r.method),
                )
            }
            "ui/message" => ViewRequest::Message { params },
            "ui/update-model-context" => ViewRequest::UpdateModelContext { params },
            "ui/request-display-mode" => {
                let mode = params.get("mode").and_then(Value::as_str).unwrap_or("");
                if !self.mode_allowed(mode) {
                    // "If the requested mode is not available, Host SHOULD return the current
                    // display mode in the response."
                    let current = self.current_mode();
                    return self.reply(r.id, Ok(json!({ "mode": current })));
                }
                ViewRequest::RequestDisplayMode {
                    mode: mode.to_string(),
                }
            }
            m => {
                return refuse(
                    self,
                    codes::METHOD_NOT_FOUND,
                    format!("method {m:?} is not offered to views"),
                )
            }
        };
        if self.pending.len() >= MAX_PENDING_REQUESTS {
            return refuse(
                self,
                codes::INTERNAL_ERROR,
                format!("more than {MAX_PENDING_REQUESTS} requests waiting"),
            );
        }
        let id = self.next_id;
        self.next_id += 1;
        self.pending.insert(id, (r.id, request.method(), true));
        self.events.push_back(BridgeEvent::Request { id, request });
    }

    /// The host's answer to view request `id`: a result, or an error the view sees. A
    /// `ui/request-display-mode` answer also moves `displayMode` in the host context.
    pub fn answer(&mut self, id: u64, result: Result<Value, ErrorObject>) -> Result<(), AppError> {
        let (view_id, method, current) = self
            .pending
            .remove(&id)
            .ok_or(AppError::UnknownRequest(id))?;
        if self.state == BridgeState::Closed || !current {
            return Ok(());
        }
        let result = if method == "ui/request-display-mode" {
            // "Host MUST return the resulting mode" and "MUST NOT switch the View to a display
            // mode that does not appear in its appCapabilities.availableDisplayModes": a mode
            // outside what both sides declared, or none, leaves the mode as it is.
            let asked = result
                .ok()
                .and_then(|r| r.get("mode").and_then(Value::as_str).map(str::to_string));
            let mode = match asked {
                Some(m) if self.mode_allowed(&m) => {
                    self.cfg
                        .host_context
                        .insert("displayMode".into(), Value::from(m.clone()));
                    m
                }
                _ => self.current_mode(),
            };
            Ok(json!({ "mode": mode }))
        } else {
            result
        };
        self.reply(view_id, result);
        Ok(())
    }

    fn current_mode(&self) -> String {
        self.cfg
            .host_context
            .get("displayMode")
            .and_then(Value::as_str)
            .unwrap_or("inline")
            .to_string()
    }

    /// Whether both sides declared `mode` (the view's `availableDisplayModes`, when it sent
    /// them, and the host's).
    fn mode_allowed(&self, mode: &str) -> bool {
        let host_has = self
            .cfg
            .host_context
            .get("availableDisplayModes")
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(|m| m.as_str() == Some(mode)));
        host_has
            && self
                .app_modes
                .as_ref()
                .is_none_or(|a| a.iter().any(|m| m == mode))
    }

    fn send_or_hold(&mut self, method: &str, params: Value) {
        if self.state == BridgeState::Ready {
            self.deliver(method, params);
        } else {
            if method.starts_with("ui/notifications/tool-input") {
                // Held partial input is only ever the latest.
                self.held
                    .retain(|(m, _)| m != "ui/notifications/tool-input-partial");
            }
            self.held.push((method.to_string(), params));
        }
    }

    /// Sends one of the call's notifications, kept for a reloaded view (partial input is not
    /// replayed once the complete input went out).
    fn deliver(&mut self, method: &str, params: Value) {
        if method.starts_with("ui/notifications/tool-") {
            // A reloaded view gets the latest partial input at most, and none after the input.
            if method.starts_with("ui/notifications/tool-input") {
                self.delivered
                    .retain(|(m, _)| m != "ui/notifications/tool-input-partial");
            }
            self.delivered.push((method.to_string(), params.clone()));
        }
        self.notify(method, params);
    }

    fn open(&self, what: &str) -> Result<(), AppError> {
        match self.state {
            BridgeState::TearingDown | BridgeState::Closed => Err(AppError::InvalidState(format!(
                "{what} after teardown began ({:?})",
                self.state
            ))),
            _ => Ok(()),
        }
    }

    /// Streamed, partial tool arguments (`ui/notifications/tool-input-partial`); only before
    /// the complete input.
    pub fn tool_input_partial(&mut self, arguments: Value) -> Result<(), AppError> {
        self.input(Stage::Partial, arguments)
    }

    /// The complete tool arguments (`ui/notifications/tool-input`), exactly once, held until
    /// the view is initialised.
    pub fn tool_input(&mut self, arguments: Value) -> Result<(), AppError> {
        self.input(Stage::Input, arguments)
    }

    fn input(&mut self, stage: Stage, arguments: Value) -> Result<(), AppError> {
        let method = if stage == Stage::Partial {
            "ui/notifications/tool-input-partial"
        } else {
            "ui/notifications/tool-input"
        };
        self.open(method)?;
        if !arguments.is_object() {
            return Err(AppError::InvalidState(format!(
                "{method}: the arguments must be an object"
            )));
        }
        if !matches!(self.stage, Stage::Nothing | Stage::Partial) {
            return Err(AppError::InvalidState(format!(
                "{method} after the complete tool input was sent"
            )));
        }
        self.stage = stage;
        self.send_or_hold(method, json!({ "arguments": arguments }));
        Ok(())
    }

    /// The tool's result (`ui/notifications/tool-result`, a `CallToolResult`); after the input.
    pub fn tool_result(&mut self, result: Value) -> Result<(), AppError> {
        self.finish("tool-result", "ui/notifications/tool-result", result)
    }

    /// The call was cancelled (`ui/notifications/tool-cancelled`); after the input.
    pub fn tool_cancelled(&mut self, reason: &str) -> Result<(), AppError> {
        self.finish(
            "tool-cancelled",
            "ui/notifications/tool-cancelled",
            json!({ "reason": reason }),
        )
    }

    fn finish(&mut self, what: &str, method: &str, params: Value) -> Result<(), AppError> {
        self.open(what)?;
        match self.stage {
            Stage::Input => {}
            Stage::Done => {
                return Err(AppError::InvalidState(format!(
                    "{what}: the call already ended"
                )))
            }
            _ => {
                return Err(AppError::InvalidState(format!(
                    "{what} before the tool input (\"required before sending tool-result\")"
                )))
            }
        }
        self.stage = Stage::Done;
        self.send_or_hold(method, params);
        Ok(())
    }

    /// Context changes (`ui/notifications/host-context-changed` with just these members), merged
    /// into the context a later `ui/initialize` would get.
    pub fn set_host_context(&mut self, changes: Map<String, Value>) -> Result<(), AppError> {
        self.open("host-context-changed")?;
        for (k, v) in &changes {
            self.cfg.host_context.insert(k.clone(), v.clone());
        }
        // Before `ui/initialize` the changes are in its answer; between it and `initialized`
        // they wait, then go as one notification each.
        if !changes.is_empty() {
            match self.state {
                BridgeState::Ready => self.notify(
                    "ui/notifications/host-context-changed",
                    Value::Object(changes),
                ),
                BridgeState::Initializing => self.held.push((
                    "ui/notifications/host-context-changed".into(),
                    Value::Object(changes),
                )),
                _ => {}
            }
        }
        Ok(())
    }

    /// Starts teardown: `ui/resource-teardown` to an initialised view (the bridge closes when it
    /// answers; the host may [`close`](Self::close) earlier on its own deadline), or closes at
    /// once when the view never initialised.
    pub fn teardown(&mut self, reason: &str) {
        match self.state {
            BridgeState::Ready => {
                let id = RequestId::String(format!("teardown-{}", self.next_id));
                self.next_id += 1;
                self.teardown_id = Some(id.clone());
                self.state = BridgeState::TearingDown;
                self.post(Message::Request(Request::new(
                    id,
                    "ui/resource-teardown",
                    Some(json!({ "reason": reason })),
                )));
            }
            BridgeState::TearingDown | BridgeState::Closed => {}
            // "The Host MUST NOT send any request or notification to the View before it
            // receives an initialized notification": a view not initialised goes at once.
            BridgeState::AwaitingProxy | BridgeState::Loading | BridgeState::Initializing => {
                self.close()
            }
        }
    }

    /// Closes now: view requests still waiting are dropped, later messages ignored.
    pub fn close(&mut self) {
        if self.state != BridgeState::Closed {
            self.state = BridgeState::Closed;
            self.pending.clear();
            self.held.clear();
            self.events.push_back(BridgeEvent::Closed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::resource::UiResourceMeta;
    use super::*;

    fn bridge(proxy: bool) -> AppBridge {
        let resource = AppResource {
            uri: "ui://s/v".into(),
            html: "<!doctype html><p>view</p>".into(),
            meta: UiResourceMeta::default(),
            diagnostics: vec![],
        };
        let mut cfg = BridgeConfig::new(resource, json!({"name": "show"}));
        cfg.sandbox_proxy = proxy;
        cfg.server_tools = [
            ("show".to_string(), Visibility::default()),
            (
                "refresh".to_string(),
                Visibility {
                    model: false,
                    app: true,
                },
            ),
            (
                "secret".to_string(),
                Visibility {
                    model: true,
                    app: false,
                },
            ),
        ]
        .into_iter()
        .collect();
        cfg.host_context.insert(
            "availableDisplayModes".into(),
            json!(["inline", "fullscreen"]),
        );
        AppBridge::new(cfg)
    }

    fn drain(b: &mut AppBridge) -> Vec<BridgeEvent> {
        std::iter::from_fn(|| b.poll_event()).collect()
    }

    fn posts(b: &mut AppBridge) -> Vec<Value> {
        drain(b)
            .into_iter()
            .filter_map(|e| match e {
                BridgeEvent::Post(t) => serde_json::from_str(&t).ok(),
                _ => None,
            })
            .collect()
    }

    fn init(b: &mut AppBridge) {
        b.from_view(r#"{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{"appInfo":{"name":"v"},"appCapabilities":{"availableDisplayModes":["inline","fullscreen"]},"protocolVersion":"2026-01-26"}}"#);
        b.from_view(r#"{"jsonrpc":"2.0","method":"ui/notifications/initialized"}"#);
    }

    #[test]
    fn the_proxy_gets_the_view_with_its_policy_then_input_waits_for_initialized() {
        let mut b = bridge(true);
        b.tool_input(json!({"q": 1})).unwrap();
        b.tool_result(json!({"content": []})).unwrap();
        assert!(posts(&mut b).is_empty());
        b.from_view(
            r#"{"jsonrpc":"2.0","method":"ui/notifications/sandbox-proxy-ready","params":{}}"#,
        );
        let p = posts(&mut b);
        assert_eq!(p[0]["method"], "ui/notifications/sandbox-resource-ready");
        let html = p[0]["params"]["html"].as_str().unwrap();
        assert!(html.starts_with("<!doctype html><meta http-equiv=\"Content-Security-Policy\""));
        assert!(p[0]["params"].get("csp").is_none());
        init(&mut b);
        let p = posts(&mut b);
        assert_eq!(p[0]["id"], 1);
        assert_eq!(p[0]["result"]["protocolVersion"], APPS_PROTOCOL_VERSION);
        assert_eq!(
            p[0]["result"]["hostContext"]["toolInfo"]["tool"]["name"],
            "show"
        );
        let methods: Vec<&str> = p[1..]
            .iter()
            .map(|m| m["method"].as_str().unwrap())
            .collect();
        assert_eq!(
            methods,
            [
                "ui/notifications/tool-input",
                "ui/notifications/tool-result"
            ]
        );
        assert_eq!(p[1]["params"]["arguments"]["q"], 1);
        assert!(b.tool_input(json!({})).is_err(), "input is sent once");
        assert!(b.tool_result(json!({})).is_err(), "the call ended once");
    }

    #[test]
    fn a_view_calls_only_its_servers_app_visible_tools() {
        let mut b = bridge(false);
        init(&mut b);
        drain(&mut b);
        b.from_view(r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"refresh","arguments":{"a":1}}}"#);
        let ev = drain(&mut b);
        let BridgeEvent::Request { id, request } = &ev[0] else {
            panic!("{ev:?}")
        };
        assert_eq!(request.method(), "tools/call");
        b.answer(
            *id,
            Ok(json!({"content": [{"type": "text", "text": "ok"}]})),
        )
        .unwrap();
        let p = posts(&mut b);
        assert_eq!(p[0]["id"], 7);
        assert_eq!(p[0]["result"]["content"][0]["text"], "ok");
        assert_eq!(
            b.answer(*id, Ok(json!({}))),
            Err(AppError::UnknownRequest(*id))
        );
        for (name, id) in [("secret", 8), ("mcp__other__tool", 9)] {
            b.from_view(&format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{name}"}}}}"#));
            let ev = drain(&mut b);
            assert!(matches!(ev[0], BridgeEvent::Diagnostic(_)), "{ev:?}");
            let BridgeEvent::Post(t) = &ev[1] else {
                panic!()
            };
            let v: Value = serde_json::from_str(t).unwrap();
            assert_eq!(v["id"], id);
            assert_eq!(v["error"]["code"], codes::INVALID_PARAMS);
            assert!(!ev.iter().any(|e| matches!(e, BridgeEvent::Request { .. })));
        }
    }

    #[test]
    fn nothing_but_initialize_and_ping_before_initialize() {
        let mut b = bridge(false);
        b.from_view(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"refresh"}}"#,
        );
        b.from_view(r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#);
        let p = posts(&mut b);
        assert_eq!(p[0]["error"]["code"], codes::INVALID_REQUEST);
        assert_eq!(p[1]["result"], json!({}));
        b.from_view(r#"{"jsonrpc":"2.0","method":"ui/notifications/initialized"}"#);
        assert_eq!(b.state(), BridgeState::Loading);
    }

    #[test]
    fn a_flood_of_bad_messages_is_dropped_and_counted() {
        let mut b = bridge(false);
        for i in 0..1000 {
            b.from_view(&format!("{{not json {i}"));
        }
        b.from_view(&"x".repeat(MAX_VIEW_MESSAGE_BYTES + 1));
        let ev = drain(&mut b);
        assert_eq!(ev.len(), MAX_DIAGNOSTICS);
        assert_eq!(b.dropped_diagnostics(), 1001 - MAX_DIAGNOSTICS as u64);
        init(&mut b);
        assert_eq!(
            b.state(),
            BridgeState::Ready,
            "still answers after the flood"
        );
        for i in 0..40 {
            b.from_view(&format!(
                r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"show"}}}}"#,
                100 + i
            ));
        }
        let requests = drain(&mut b)
            .iter()
            .filter(|e| matches!(e, BridgeEvent::Request { .. }))
            .count();
        assert_eq!(requests, MAX_PENDING_REQUESTS);
    }

    #[test]
    fn display_mode_needs_both_sides_and_links_need_http() {
        let mut b = bridge(false);
        init(&mut b);
        drain(&mut b);
        b.from_view(r#"{"jsonrpc":"2.0","id":3,"method":"ui/request-display-mode","params":{"mode":"pip"}}"#);
        assert_eq!(posts(&mut b)[0]["result"]["mode"], "inline");
        b.from_view(r#"{"jsonrpc":"2.0","id":4,"method":"ui/request-display-mode","params":{"mode":"fullscreen"}}"#);
        let ev = drain(&mut b);
        let BridgeEvent::Request { id, .. } = ev[0] else {
            panic!("{ev:?}")
        };
        b.answer(id, Ok(json!({"mode": "fullscreen"}))).unwrap();
        assert_eq!(b.host_context()["displayMode"], "fullscreen");
        assert_eq!(posts(&mut b)[0]["result"]["mode"], "fullscreen");
        b.from_view(r#"{"jsonrpc":"2.0","id":5,"method":"ui/open-link","params":{"url":"https://x.example"}}"#);
        assert_eq!(
            posts(&mut b)[0]["error"]["code"],
            -32000,
            "links are off by default"
        );
    }

    #[test]
    fn a_reloaded_proxy_gets_the_view_again_and_its_input_and_result_replayed() {
        let mut b = bridge(true);
        b.from_view(r#"{"jsonrpc":"2.0","method":"ui/notifications/sandbox-proxy-ready"}"#);
        init(&mut b);
        b.tool_input(json!({"q": 1})).unwrap();
        b.tool_result(json!({"content": []})).unwrap();
        b.from_view(r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"show"}}"#);
        let waiting = drain(&mut b)
            .into_iter()
            .find_map(|e| match e {
                BridgeEvent::Request { id, .. } => Some(id),
                _ => None,
            })
            .unwrap();
        b.from_view(r#"{"jsonrpc":"2.0","method":"ui/notifications/sandbox-proxy-ready"}"#);
        let p = posts(&mut b);
        assert_eq!(p[0]["method"], "ui/notifications/sandbox-resource-ready");
        assert_eq!(b.state(), BridgeState::Loading);
        assert_eq!(b.answer(waiting, Ok(json!({}))), Ok(()));
        assert!(
            posts(&mut b).is_empty(),
            "the old view's answer is not posted to the new view"
        );
        init(&mut b);
        let methods: Vec<String> = posts(&mut b)[1..]
            .iter()
            .map(|m| m["method"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(
            methods,
            [
                "ui/notifications/tool-input",
                "ui/notifications/tool-result"
            ]
        );
    }

    #[test]
    fn partial_input_comes_before_the_input_and_never_after() {
        let mut b = bridge(false);
        b.tool_input_partial(json!({"q": "ab"})).unwrap();
        assert!(
            b.tool_result(json!({})).is_err(),
            "no result before the input"
        );
        init(&mut b);
        b.tool_input_partial(json!({"q": "abc"})).unwrap();
        b.tool_input(json!({"q": "abcd"})).unwrap();
        assert!(b.tool_input_partial(json!({})).is_err());
        b.tool_cancelled("stopped").unwrap();
        let sent: Vec<(String, Value)> = posts(&mut b)[1..]
            .iter()
            .map(|m| {
                (
                    m["method"].as_str().unwrap().to_string(),
                    m["params"].clone(),
                )
            })
            .collect();
        assert_eq!(
            sent,
            [
                (
                    "ui/notifications/tool-input-partial".into(),
                    json!({"arguments": {"q": "ab"}})
                ),
                (
                    "ui/notifications/tool-input-partial".into(),
                    json!({"arguments": {"q": "abc"}})
                ),
                (
                    "ui/notifications/tool-input".into(),
                    json!({"arguments": {"q": "abcd"}})
                ),
                (
                    "ui/notifications/tool-cancelled".into(),
                    json!({"reason": "stopped"})
                ),
            ]
        );
    }

    #[test]
    fn reloads_are_bounded_and_old_requests_still_count() {
        let mut b = bridge(true);
        let ready = r#"{"jsonrpc":"2.0","method":"ui/notifications/sandbox-proxy-ready"}"#;
        b.from_view(ready);
        init(&mut b);
        for i in 0..MAX_PENDING_REQUESTS {
            b.from_view(&format!(
                r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/call","params":{{"name":"show"}}}}"#
            ));
        }
        b.from_view(ready);
        init(&mut b);
        drain(&mut b);
        b.from_view(r#"{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"show"}}"#);
        let p = posts(&mut b);
        assert_eq!(
            p[0]["error"]["code"],
            codes::INTERNAL_ERROR,
            "still 32 in flight: {p:?}"
        );
        for _ in 0..MAX_RELOADS {
            b.from_view(ready);
        }
        assert_eq!(b.state(), BridgeState::Closed);
    }

    #[test]
    fn context_changes_wait_for_initialized_and_display_modes_stay_declared() {
        let mut b = bridge(false);
        b.from_view(r#"{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{"appCapabilities":{"availableDisplayModes":["inline"]}}}"#);
        drain(&mut b);
        b.set_host_context([("theme".to_string(), json!("dark"))].into_iter().collect())
            .unwrap();
        assert!(posts(&mut b).is_empty(), "nothing before initialized");
        b.tool_input(json!({})).unwrap();
        assert!(b.tool_input_partial(json!(1)).is_err());
        b.from_view(r#"{"jsonrpc":"2.0","method":"ui/notifications/initialized"}"#);
        let ev = drain(&mut b);
        assert!(matches!(ev[0], BridgeEvent::Initialized { .. }), "{ev:?}");
        let methods: Vec<String> = ev
            .iter()
            .filter_map(|e| match e {
                BridgeEvent::Post(t) => serde_json::from_str::<Value>(t).ok(),
                _ => None,
            })
            .map(|m| m["method"].as_str().unwrap_or("").to_string())
            .collect();
        assert_eq!(
            methods,
            [
                "ui/notifications/host-context-changed",
                "ui/notifications/tool-input"
            ]
        );
        // The view declared inline only: fullscreen is never asked of the host.
        b.from_view(r#"{"jsonrpc":"2.0","id":2,"method":"ui/request-display-mode","params":{"mode":"fullscreen"}}"#);
        assert_eq!(posts(&mut b)[0]["result"]["mode"], "inline");
        // A host answer outside what both sides declared leaves the mode as it is.
        let mut b = bridge(false);
        init(&mut b);
        drain(&mut b);
        b.from_view(r#"{"jsonrpc":"2.0","id":3,"method":"ui/request-display-mode","params":{"mode":"fullscreen"}}"#);
        let ev = drain(&mut b);
        let BridgeEvent::Request { id, .. } = ev[0] else {
            panic!("{ev:?}")
        };
        b.answer(id, Ok(json!({"mode": "pip"}))).unwrap();
        assert_eq!(posts(&mut b)[0]["result"]["mode"], "inline");
        assert_eq!(b.host_context()["displayMode"], Value::Null);
    }

    #[test]
    fn teardown_before_initialized_closes_without_a_message() {
        let mut b = bridge(false);
        b.from_view(r#"{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{}}"#);
        drain(&mut b);
        b.teardown("gone");
        assert_eq!(drain(&mut b), vec![BridgeEvent::Closed]);
    }

    #[test]
    fn teardown_waits_for_the_views_answer() {
        let mut b = bridge(false);
        init(&mut b);
        drain(&mut b);
        b.set_host_context([("theme".to_string(), json!("dark"))].into_iter().collect())
            .unwrap();
        assert_eq!(
            posts(&mut b)[0]["method"],
            "ui/notifications/host-context-changed"
        );
        b.teardown("closed");
        let p = posts(&mut b);
        assert_eq!(p[0]["method"], "ui/resource-teardown");
        assert_eq!(b.state(), BridgeState::TearingDown);
        assert!(b.tool_input(json!({})).is_err());
        let answer = json!({"jsonrpc": "2.0", "id": p[0]["id"], "result": {}});
        b.from_view(&answer.to_string());
        assert_eq!(drain(&mut b), vec![BridgeEvent::Closed]);
        let mut early = bridge(true);
        early.teardown("never loaded");
        assert_eq!(early.state(), BridgeState::Closed);
    }
}
