//! The WebAssembly component (wasm32-wasip2): the `mcp-edge:client/client` interface of
//! `wit/client.wit`, implemented over the same sans-IO session as the JS surface.
//!
//! ```text
//!   host ─► client.call-tool(name, args) ─► Session::request ─► Driver::run
//!                                              (wasi:http exchanges, wasi:io/poll, clock)
//!   host ◄─ tool-result { result, progress events } ◄─ Event::Completed / Event::Progress
//! ```
//!
//! Every export is synchronous: a call starts its operation on the session and drives all
//! exchanges in flight until the operation completes (see [`driver`]). Build with
//! `cargo build --target wasm32-wasip2 --release --features component --lib`; the wasip2 target
//! links the export bindings below into a component directly.

pub mod auth;
pub mod convert;
pub mod driver;
pub mod executor;
pub mod input;
pub mod pool;

use std::cell::RefCell;
use std::collections::HashMap;

use crate::proto::uri::origin_or_whole;
use serde_json::{Map, Value};

use crate::proto::session::{
    Era, ListKind, ProtocolChoice, ProtocolError, RequestOptions, Session, SessionConfig,
};
use driver::{Driver, Outcome, StartFn};

/// The exported interface's generated types.
pub mod exports {
    /// `mcp-edge:client/client`.
    pub use crate::bindings::exports::mcp_edge::client::client;
    /// `mcp-edge:client/pool`.
    pub use crate::bindings::exports::mcp_edge::client::pool;
}

use exports::client::{
    CallOptions, ConnectOptions, Error, GuestClient, Notification, Prompt, PromptResult, Resource,
    ResourceContents, ServerInfo as WitServerInfo, Tool, ToolCall, ToolResult,
};

thread_local! {
    /// The era detected per origin, for later connections in this instance (MCP 2026-07-28
    /// `basic/versioning`: clients SHOULD cache the result for the lifetime of the origin).
    static ERA_BY_ORIGIN: RefCell<HashMap<String, Era>> = RefCell::new(HashMap::new());
}

/// The component's export type.
pub struct Component;

impl exports::client::Guest for Component {
    type Client = McpClient;
}

/// The `client` resource: one session and its driver.
pub struct McpClient {
    driver: RefCell<Driver>,
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

/// The session configuration and, with OAuth, the client's private key for `private_key_jwt`.
fn config(
    url: &str,
    options: Option<ConnectOptions>,
) -> Result<(SessionConfig, Option<auth::AuthHost>), Error> {
    let mut cfg = SessionConfig::new(url);
    // A synchronous component reads nothing between calls: the 2025-era GET stream would only
    // pile up on the server. Notifications still arrive on each call's own response stream.
    cfg.open_get_stream = false;
    cfg.known_era = ERA_BY_ORIGIN.with(|m| m.borrow().get(&origin_or_whole(url)).copied());
    cfg.jitter_seed = seed();
    // Token expiry is absolute (it outlives this client in the instance's memory store).
    cfg.unix_epoch_ms = auth::unix_ms();
    let Some(o) = options else {
        input::declare(&mut cfg.capabilities);
        return Ok((cfg, None));
    };
    cfg.headers = o
        .headers
        .unwrap_or_default()
        .into_iter()
        .map(|(k, v)| (k.to_ascii_lowercase(), v))
        .collect();
    if let Some(v) = o.protocol_version {
        cfg.protocol = ProtocolChoice::Exact(v);
        cfg.known_era = None;
    }
    if let Some(t) = o.request_timeout_ms {
        cfg.request_timeout_ms = Some(t);
    }
    if let Some(t) = o.max_total_timeout_ms {
        cfg.max_total_timeout_ms = Some(t);
    }
    if let Some(text) = o.client_info_json {
        cfg.client_info = parse_object(&text, "client-info-json")?;
    }
    if let Some(text) = o.capabilities_json {
        cfg.capabilities = parse_object(&text, "capabilities-json")?;
    }
    input::declare(&mut cfg.capabilities);
    if let Some(text) = &o.listen_json {
        parse_object(text, "listen-json")?;
        // 2025 era: the GET stream is the standing stream.
        cfg.open_get_stream = true;
    }
    let host = match o.auth {
        Some(a) => {
            cfg.auth = Some(auth::config(&a).map_err(|e| convert::error(&ProtocolError::Auth(e)))?);
            Some(auth::AuthHost::new(a.private_key_pem))
        }
        None => None,
    };
    Ok((cfg, host))
}

/// A seed for the session's reconnect jitter, from the monotonic clock (the core draws no
/// randomness of its own).
fn seed() -> u64 {
    crate::bindings::wasi::clocks::monotonic_clock::now() | 1
}

impl McpClient {
    fn run(&self, start: StartFn) -> Outcome {
        self.driver.borrow_mut().run(start)
    }

    fn value(&self, start: StartFn) -> Result<Value, Error> {
        self.run(start).result.map_err(|e| convert::error(&e))
    }

    fn list(&self, kind: ListKind) -> Result<Vec<Value>, Error> {
        let result = self.value(Box::new(move |s: &mut Session, now| {
            s.list_all(kind, RequestOptions::default(), now)
        }))?;
        convert::items(&result, kind.field())
    }
}

fn call_start(
    name: String,
    arguments_json: &str,
    options: Option<CallOptions>,
) -> Result<StartFn, Error> {
    let arguments = parse_object(arguments_json, "arguments-json")?;
    let opts = RequestOptions {
        timeout_ms: options.as_ref().and_then(|o| o.timeout_ms),
        progress: options.as_ref().and_then(|o| o.progress).unwrap_or(true),
        ..RequestOptions::default()
    };
    Ok(Box::new(move |s: &mut Session, now| {
        s.request(
            "tools/call",
            serde_json::json!({"name": name, "arguments": arguments}),
            opts,
            now,
        )
    }))
}

impl GuestClient for McpClient {
    fn connect(
        url: String,
        options: Option<ConnectOptions>,
    ) -> Result<exports::client::Client, Error> {
        let listen = options.as_ref().and_then(|o| o.listen_json.clone());
        let (cfg, auth) = config(&url, options)?;
        let session = Session::new(cfg).map_err(|e| convert::error(&e))?;
        let mut driver = Driver::new(session, auth);
        let outcome = driver.run(Box::new(|s: &mut Session, now| s.connect(now)));
        outcome.result.map_err(|e| convert::error(&e))?;
        if let Some(text) = listen {
            if driver.session().era() == Some(Era::Modern) {
                driver.listen(parse_object(&text, "listen-json")?);
            }
        }
        if let Some(era) = driver.session().era() {
            ERA_BY_ORIGIN.with(|m| m.borrow_mut().insert(origin_or_whole(&url), era));
        }
        Ok(exports::client::Client::new(McpClient {
            driver: RefCell::new(driver),
        }))
    }

    fn server_info(&self) -> WitServerInfo {
        let driver = self.driver.borrow();
        let session = driver.session();
        match session.server_info() {
            Some(info) => convert::server_info(info, session.session_id()),
            // Unreachable after a successful connect; answer with what the session knows.
            None => WitServerInfo {
                era: exports::client::Era::Modern,
                protocol_version: session.protocol_version().to_string(),
                name: None,
                version: None,
                implementation_json: None,
                capabilities_json: "{}".into(),
                instructions: None,
                supported_versions: Vec::new(),
                session_id: session.session_id().map(str::to_string),
            },
        }
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
        let started = self.driver.borrow().now();
        let outcome = self.run(call_start(name, &arguments_json, options)?);
        let result = outcome.result.map_err(|e| convert::error(&e))?;
        convert::tool_result(&result, &outcome.progress, started, outcome.at_ms)
    }

    fn call_tools(&self, calls: Vec<ToolCall>) -> Vec<Result<ToolResult, Error>> {
        let started = self.driver.borrow().now();
        // Calls whose arguments do not parse fail alone; the others run together.
        let mut slots: Vec<Result<usize, Error>> = Vec::with_capacity(calls.len());
        let mut starts: Vec<StartFn> = Vec::new();
        for call in calls {
            match call_start(call.name, &call.arguments_json, call.options) {
                Ok(start) => {
                    slots.push(Ok(starts.len()));
                    starts.push(start);
                }
                Err(e) => slots.push(Err(e)),
            }
        }
        let mut outcomes: Vec<Option<Outcome>> = self
            .driver
            .borrow_mut()
            .run_all(starts)
            .into_iter()
            .map(Some)
            .collect();
        slots
            .into_iter()
            .map(|slot| {
                let index = slot?;
                let outcome = outcomes
                    .get_mut(index)
                    .and_then(Option::take)
                    .ok_or_else(|| convert::error(&ProtocolError::Closed))?;
                let result = outcome.result.map_err(|e| convert::error(&e))?;
                convert::tool_result(&result, &outcome.progress, started, outcome.at_ms)
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
        let result = self.value(Box::new(move |s: &mut Session, now| {
            s.request(
                "resources/read",
                serde_json::json!({ "uri": uri }),
                RequestOptions::default(),
                now,
            )
        }))?;
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
        let result = self.value(Box::new(move |s: &mut Session, now| {
            s.request(
                "prompts/get",
                serde_json::json!({"name": name, "arguments": args}),
                RequestOptions::default(),
                now,
            )
        }))?;
        convert::prompt_result(&result)
    }

    fn request(&self, method: String, params_json: String) -> Result<String, Error> {
        let params = parse_object(&params_json, "params-json")?;
        let result = self.value(Box::new(move |s: &mut Session, now| {
            s.request(&method, params, RequestOptions::default(), now)
        }))?;
        Ok(result.to_string())
    }

    fn poll_notifications(&self, wait_ms: u64) -> Vec<Notification> {
        self.driver.borrow_mut().read_for(wait_ms);
        self.take_notifications()
    }

    fn take_notifications(&self) -> Vec<Notification> {
        let (events, dropped) = self.driver.borrow_mut().take_notifications();
        let mut out: Vec<Notification> = Vec::with_capacity(events.len() + 1);
        if dropped > 0 {
            out.push(Notification::Diagnostic(format!(
                "{dropped} notifications were dropped because the queue was full"
            )));
        }
        out.extend(events.into_iter().filter_map(convert::notification));
        out
    }

    fn close(&self) -> Result<(), Error> {
        if self.driver.borrow().session().is_closed() {
            return Ok(());
        }
        self.value(Box::new(|s: &mut Session, now| s.close(now)))
            .map(|_| ())
    }
}

#[allow(unsafe_code)]
mod export {
    use super::Component;
    crate::bindings::export!(Component with_types_in crate::bindings);
}
