//! `McpApp`: a server's interactive view (MCP Apps) hosted by any page that uses the package.
//!
//! The protocol is the core's [`AppBridge`]; this file reads the tool and its `ui://` resource
//! through an `McpClient`, mounts the sandbox proxy frame (`apps.js`, DOM only), and pumps the
//! bridge: messages to the frame, the view's `tools/call` and `resources/read` through the same
//! client (the only server the view can reach), everything else to the host's callbacks, which
//! may refuse it.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use serde_json::{json, Map, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use super::client::McpClient;
use super::convert::{
    describe, error_to_js, from_js, get, get_fn, get_string, invalid_argument, promise, settle_js,
    to_js,
};
use super::glue;
use crate::api::FetchClient as Client;
use crate::proto::apps::{AppBridge, AppError, BridgeEvent, BridgeState, ViewRequest};
use crate::proto::jsonrpc::ErrorObject;

#[wasm_bindgen(module = "/src/js/apps.js")]
extern "C" {
    /// The handle `mountAppFrame` returns: the proxy's iframe and what the bridge does to it.
    #[derive(Clone)]
    type AppFrame;
    #[wasm_bindgen(method)]
    fn post(this: &AppFrame, text: &str);
    #[wasm_bindgen(method)]
    fn height(this: &AppFrame, px: f64);
    #[wasm_bindgen(method)]
    fn remove(this: &AppFrame);
    #[wasm_bindgen(method, getter)]
    fn frame(this: &AppFrame) -> JsValue;

    #[wasm_bindgen(js_name = mountAppFrame, catch)]
    fn mount_app_frame(
        container: &JsValue,
        sandbox_url: &str,
        allow: &str,
        max_height: f64,
        receive: &js_sys::Function,
    ) -> Result<AppFrame, JsValue>;
}

/// How long `teardown()` waits for the view's answer by default.
const TEARDOWN_WAIT_MS: u64 = 3_000;

/// The default `containerDimensions.maxHeight`.
const MAX_HEIGHT: f64 = 800.0;

fn app_error(e: &AppError) -> JsValue {
    match e {
        // The protocol error with its details (status, rpcCode, ...).
        AppError::Protocol(p) => error_to_js(p),
        e => glue::make_mcp_error(e.code(), &e.to_string(), &JsValue::UNDEFINED),
    }
}

/// A view error the host's callback gave (a thrown value, `false`, a rejected promise).
fn refused(message: impl Into<String>) -> ErrorObject {
    ErrorObject::new(-32000, message)
}

/// The frame's message callback into the bridge.
type Receiver = Closure<dyn FnMut(JsValue)>;

struct Inner {
    bridge: RefCell<AppBridge>,
    client: Client,
    tool: String,
    options: JsValue,
    frame: RefCell<Option<AppFrame>>,
    /// Resolves `teardown()` once the bridge closes.
    on_closed: RefCell<Vec<js_sys::Function>>,
    receive: RefCell<Option<Receiver>>,
    pumping: Cell<bool>,
}

/// Calls the host's callback `name` with `arg`; awaits a promise it returns. `Ok(None)`: no such
/// callback.
async fn call_host(
    options: &JsValue,
    name: &str,
    arg: &JsValue,
) -> Result<Option<JsValue>, String> {
    let Ok(Some(f)) = get_fn(options, name) else {
        return Ok(None);
    };
    settle_js(f.call1(&JsValue::NULL, arg), "refused by the host")
        .await
        .map(Some)
}

impl Drop for Inner {
    /// An `McpApp` freed while its view is up takes the frame (and its listener) with it.
    fn drop(&mut self) {
        if let Some(frame) = self.frame.get_mut().take() {
            frame.remove();
        }
    }
}

impl Inner {
    /// Does `f` to the frame while it is mounted (the borrow ends before any JS runs back in).
    fn with_frame(&self, f: impl FnOnce(&AppFrame)) {
        let frame = self.frame.borrow().clone();
        if let Some(frame) = frame {
            f(&frame);
        }
    }

    fn notify_host(&self, name: &str, arg: JsValue) {
        if let Ok(Some(f)) = get_fn(&self.options, name) {
            let _ = f.call1(&JsValue::NULL, &arg);
        }
    }

    /// Drains the bridge: posts, host callbacks, and a task per view request.
    fn pump(self: &Rc<Self>) {
        if self.pumping.replace(true) {
            return;
        }
        loop {
            let ev = self.bridge.borrow_mut().poll_event();
            let Some(ev) = ev else { break };
            match ev {
                BridgeEvent::Post(text) => self.with_frame(|f| f.post(&text)),
                BridgeEvent::Request { id, request } => {
                    let this = self.clone();
                    wasm_bindgen_futures::spawn_local(async move {
                        let answer = this.handle(&request).await;
                        let _ = this.bridge.borrow_mut().answer(id, answer);
                        this.pump();
                    });
                }
                BridgeEvent::Initialized { app_info, .. } => {
                    self.notify_host("onInitialized", to_js(&app_info))
                }
                BridgeEvent::Log(params) => self.notify_host("onLog", to_js(&params)),
                BridgeEvent::SizeChanged { width, height } => {
                    if let Some(h) = height {
                        self.with_frame(|f| f.height(h));
                    }
                    self.notify_host(
                        "onSizeChange",
                        to_js(&json!({"width": width, "height": height})),
                    );
                }
                BridgeEvent::Closed => {
                    let frame = self.frame.borrow_mut().take();
                    if let Some(frame) = frame {
                        frame.remove();
                    }
                    self.receive.borrow_mut().take();
                    for f in self.on_closed.borrow_mut().drain(..) {
                        let _ = f.call0(&JsValue::NULL);
                    }
                    self.notify_host("onClose", JsValue::UNDEFINED);
                }
                BridgeEvent::Diagnostic(text) => {
                    self.notify_host("onDiagnostic", JsValue::from_str(&text))
                }
            }
        }
        self.pumping.set(false);
    }

    /// One view request: the host's `onRequest` may refuse any; `tools/call` and
    /// `resources/read` go through this app's client, the rest to their callbacks.
    async fn handle(&self, request: &ViewRequest) -> Result<Value, ErrorObject> {
        let described = to_js(&request.to_json());
        match call_host(&self.options, "onRequest", &described).await {
            Err(why) => return Err(refused(why)),
            Ok(Some(v)) if v.as_bool() == Some(false) => {
                return Err(refused(format!("{} refused by the host", request.method())))
            }
            _ => {}
        }
        if let Some(answer) = crate::api::apps::forward(&self.client, request).await {
            return answer;
        }
        let callback = |name: &'static str, arg: JsValue| async move {
            match call_host(&self.options, name, &arg).await {
                Ok(Some(v)) if v.as_bool() == Some(false) => Err(refused("refused by the host")),
                Ok(Some(v)) => Ok(v),
                Ok(None) => Err(refused(format!("this host has no {name}"))),
                Err(why) => Err(refused(why)),
            }
        };
        match request {
            ViewRequest::CallTool { .. } | ViewRequest::ReadResource { .. } => {
                Err(refused("not forwarded"))
            }
            ViewRequest::OpenLink { url } => callback("onOpenLink", JsValue::from_str(url))
                .await
                .map(|_| json!({})),
            ViewRequest::Message { params } => callback("onMessage", to_js(params))
                .await
                .map(|_| json!({})),
            ViewRequest::UpdateModelContext { params } => {
                callback("onUpdateModelContext", to_js(params))
                    .await
                    .map(|_| json!({}))
            }
            // The bridge keeps the mode as it is unless the answer names one both sides
            // declared: no callback, or an answer that is not such a mode, changes nothing.
            ViewRequest::RequestDisplayMode { mode } => {
                match call_host(&self.options, "onDisplayMode", &JsValue::from_str(mode)).await {
                    Ok(Some(v)) => Ok(json!({ "mode": v.as_string() })),
                    Ok(None) | Err(_) => Ok(json!({})),
                }
            }
        }
    }
}

/// `toolUi(tool)`: what a tool object says about its MCP Apps view, `{resourceUri, visibility}`,
/// read as the exports and `McpApp` read it (`_meta.ui`, the deprecated flat key, the default
/// visibility), for hosts that show which tools have a view.
#[wasm_bindgen(js_name = toolUi, skip_typescript)]
pub fn tool_ui(tool: JsValue) -> Result<JsValue, JsValue> {
    Ok(to_js(
        &crate::proto::apps::ToolUi::of_tool(&from_js(&tool)?).to_json(),
    ))
}

/// A server's view (MCP Apps) mounted in the page; see the TypeScript declarations.
#[wasm_bindgen(skip_typescript)]
pub struct McpApp {
    inner: Rc<Inner>,
}

#[wasm_bindgen]
impl McpApp {
    /// Opens the view of `client`'s tool `toolName` in `options.container`, through the sandbox
    /// proxy at `options.sandboxUrl` (another origin).
    pub fn open(client: &McpClient, tool_name: String, options: JsValue) -> js_sys::Promise {
        let (client, tools) = client.parts();
        promise(async move {
            let container = get(&options, "container");
            if !container.is_object() {
                return Err(invalid_argument(
                    "McpApp.open needs options.container (an element)",
                ));
            }
            let sandbox_url = get_string(&options, "sandboxUrl")?
                .ok_or_else(|| invalid_argument("McpApp.open needs options.sandboxUrl"))?;
            let mut cfg = crate::api::apps::view_config(&client, &tool_name, &tools)
                .await
                .map_err(|e| app_error(&e))?;
            let max_height = get(&options, "maxHeight").as_f64().unwrap_or(MAX_HEIGHT);
            cfg.open_links = get_fn(&options, "onOpenLink")?.is_some();
            cfg.messages = get_fn(&options, "onMessage")?.is_some()
                || get_fn(&options, "onUpdateModelContext")?.is_some();
            if let Value::Object(m) = from_js(&get(&options, "hostInfo"))? {
                cfg.host_info = Value::Object(m);
            }
            let mut context = match from_js(&get(&options, "hostContext"))? {
                Value::Object(m) => m,
                Value::Null => Map::new(),
                _ => return Err(invalid_argument("hostContext must be an object")),
            };
            context.entry("displayMode").or_insert(json!("inline"));
            context
                .entry("availableDisplayModes")
                .or_insert(json!(["inline"]));
            context.entry("platform").or_insert(json!("web"));
            context
                .entry("containerDimensions")
                .or_insert(json!({ "maxHeight": max_height }));
            cfg.host_context = context;
            let bridge = AppBridge::new(cfg);
            let allow = bridge.allow_attribute();
            let inner = Rc::new(Inner {
                bridge: RefCell::new(bridge),
                client,
                tool: tool_name,
                options: options.clone(),
                frame: RefCell::new(None),
                on_closed: RefCell::new(Vec::new()),
                receive: RefCell::new(None),
                pumping: Cell::new(false),
            });
            let weak = Rc::downgrade(&inner);
            let receive = Closure::<dyn FnMut(JsValue)>::new(move |text: JsValue| {
                let Some(inner) = weak.upgrade() else { return };
                match text.as_string() {
                    Some(t) => inner.bridge.borrow_mut().from_view(&t),
                    None => inner.notify_host(
                        "onDiagnostic",
                        "a message from the view that is not JSON dropped".into(),
                    ),
                }
                inner.pump();
            });
            let frame = mount_app_frame(
                &container,
                &sandbox_url,
                &allow,
                max_height,
                receive.as_ref().unchecked_ref(),
            )
            .map_err(|e| {
                glue::make_mcp_error(
                    "INVALID_ARGUMENT",
                    &describe(&e, "refused by the host"),
                    &JsValue::UNDEFINED,
                )
            })?;
            *inner.frame.borrow_mut() = Some(frame);
            *inner.receive.borrow_mut() = Some(receive);
            Ok(McpApp { inner }.into())
        })
    }

    /// The frame element (the sandbox proxy's iframe), until the view is closed.
    #[wasm_bindgen(getter)]
    pub fn frame(&self) -> JsValue {
        self.inner
            .frame
            .borrow()
            .as_ref()
            .map_or(JsValue::UNDEFINED, AppFrame::frame)
    }

    /// `"awaiting-proxy" | "loading" | "initializing" | "ready" | "tearing-down" | "closed"`.
    #[wasm_bindgen(getter)]
    pub fn state(&self) -> String {
        match self.inner.bridge.borrow().state() {
            BridgeState::AwaitingProxy => "awaiting-proxy",
            BridgeState::Loading => "loading",
            BridgeState::Initializing => "initializing",
            BridgeState::Ready => "ready",
            BridgeState::TearingDown => "tearing-down",
            BridgeState::Closed => "closed",
        }
        .into()
    }

    /// How many diagnostics were counted but not reported (over 64).
    #[wasm_bindgen(getter, js_name = droppedDiagnostics)]
    pub fn dropped_diagnostics(&self) -> f64 {
        self.inner.bridge.borrow().dropped_diagnostics() as f64
    }

    /// The Content-Security-Policy the view runs under.
    #[wasm_bindgen(getter, js_name = contentSecurityPolicy)]
    pub fn content_security_policy(&self) -> String {
        self.inner.bridge.borrow().content_security_policy()
    }

    fn with_bridge(
        &self,
        f: impl FnOnce(&mut AppBridge) -> Result<(), AppError>,
    ) -> Result<(), JsValue> {
        let r = f(&mut self.inner.bridge.borrow_mut());
        self.inner.pump();
        r.map_err(|e| app_error(&e))
    }

    /// The complete tool arguments (`ui/notifications/tool-input`, once).
    #[wasm_bindgen(js_name = toolInput)]
    pub fn tool_input(&self, args: JsValue) -> Result<(), JsValue> {
        let a = from_js(&args)?;
        self.with_bridge(|b| b.tool_input(a))
    }

    /// Streamed partial arguments (`ui/notifications/tool-input-partial`), before `toolInput`.
    #[wasm_bindgen(js_name = toolInputPartial)]
    pub fn tool_input_partial(&self, args: JsValue) -> Result<(), JsValue> {
        let a = from_js(&args)?;
        self.with_bridge(|b| b.tool_input_partial(a))
    }

    /// The tool's result (`ui/notifications/tool-result`).
    #[wasm_bindgen(js_name = toolResult)]
    pub fn tool_result(&self, result: JsValue) -> Result<(), JsValue> {
        let r = from_js(&result)?;
        self.with_bridge(|b| b.tool_result(r))
    }

    /// The call was cancelled (`ui/notifications/tool-cancelled`).
    #[wasm_bindgen(js_name = toolCancelled)]
    pub fn tool_cancelled(&self, reason: String) -> Result<(), JsValue> {
        self.with_bridge(|b| b.tool_cancelled(&reason))
    }

    /// Changes to the host context (`ui/notifications/host-context-changed`).
    #[wasm_bindgen(js_name = setHostContext)]
    pub fn set_host_context(&self, changes: JsValue) -> Result<(), JsValue> {
        let Value::Object(m) = from_js(&changes)? else {
            return Err(invalid_argument("setHostContext takes an object"));
        };
        self.with_bridge(|b| b.set_host_context(m))
    }

    /// Calls the tool with `args` through the client and feeds the view its input, then its
    /// result (or `tool-cancelled` when the call fails or is aborted). Resolves with the result.
    pub fn run(&self, args: JsValue, options: JsValue) -> js_sys::Promise {
        let inner = self.inner.clone();
        promise(async move {
            let arguments = match from_js(&args)? {
                Value::Null => json!({}),
                v @ Value::Object(_) => v,
                _ => return Err(invalid_argument("tool arguments must be an object")),
            };
            let r = inner.bridge.borrow_mut().tool_input(arguments.clone());
            inner.pump();
            r.map_err(|e| app_error(&e))?;
            let opts = super::client::call_options(&options)?;
            let token_guard = opts.listener;
            let v =
                crate::api::call_tool(&inner.client, &inner.tool, arguments, opts.options).await;
            drop(token_guard);
            let r = match &v {
                Ok(result) => inner.bridge.borrow_mut().tool_result(result.clone()),
                Err(e) => inner.bridge.borrow_mut().tool_cancelled(&e.to_string()),
            };
            inner.pump();
            let _ = r;
            Ok(to_js(&v.map_err(|e| error_to_js(&e))?))
        })
    }

    /// Sends `ui/resource-teardown` and resolves once the view answered (or after
    /// `options.timeoutMs`, default 3 s), with the frame removed.
    pub fn teardown(&self, reason: Option<String>, options: JsValue) -> js_sys::Promise {
        let inner = self.inner.clone();
        promise(async move {
            let wait = super::convert::get_ms(&options, "timeoutMs")?.unwrap_or(TEARDOWN_WAIT_MS);
            if inner.bridge.borrow().state() == BridgeState::Closed {
                return Ok(JsValue::UNDEFINED);
            }
            let done = js_sys::Promise::new(&mut |resolve, _| {
                inner.on_closed.borrow_mut().push(resolve);
            });
            inner
                .bridge
                .borrow_mut()
                .teardown(reason.as_deref().unwrap_or("closed by the host"));
            inner.pump();
            let mut answered = std::pin::pin!(JsFuture::from(done));
            let mut timer = std::pin::pin!(crate::transport::timer::sleep(
                u32::try_from(wait).unwrap_or(u32::MAX)
            ));
            std::future::poll_fn(|cx| {
                use std::future::Future;
                if answered.as_mut().poll(cx).is_ready() || timer.as_mut().poll(cx).is_ready() {
                    std::task::Poll::Ready(())
                } else {
                    std::task::Poll::Pending
                }
            })
            .await;
            inner.bridge.borrow_mut().close();
            inner.pump();
            Ok(JsValue::UNDEFINED)
        })
    }

    /// Removes the view now, without asking it.
    pub fn close(&self) {
        self.inner.bridge.borrow_mut().close();
        self.inner.pump();
    }
}
