//! `McpPool`: many servers behind one tool registry. The moving parts are the Rust pool driver
//! ([`crate::pool::PoolDriver`], shared with the Rust `McpPool`); this file only converts JS
//! options, events and results.

use std::collections::BTreeMap;

use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

use super::client::{call_options, connect_options, traffic_observer, CallOptions};
use super::convert::{error_to_js, from_js, get, get_fn, invalid_argument, promise, to_js};
use crate::api::ClientConfig;
use crate::api::ConnectOptions;
use crate::api::FetchOptions;
use crate::api::{ClientFactory, FetchHost, McpPoolOptions};
use crate::pool::driver::{DriverEvent, EventFn, ServerTarget};
use crate::pool::{BackoffPolicy, Policy, PoolDriver, PoolError, Vars};
use crate::proto::session::{ListKind, SessionConfig};
use crate::tools::deferral::ToolSearchConfig;
use crate::tools::pinning::MemoryPinStore;
use crate::tools::search::SearchOptions;
use crate::tools::{ExportFormat, ToolError};

/// The JS pool's client options: parsed once from the constructor's options object, which stays
/// for what each client gets of its own (a traffic observer, the per-server auth hooks).
struct JsClients {
    base: JsValue,
    options: ConnectOptions,
    /// The pool-level `auth` settings (its hooks left out): defaults under each server's own.
    auth_defaults: serde_json::Map<String, Value>,
}

fn bad_options(_: JsValue) -> PoolError {
    PoolError::InvalidOption("the pool's client options are invalid".into())
}

impl JsClients {
    /// The `auth` options of one server: its entry's settings over the pool-level hooks.
    fn auth_options(&self, target: &ServerTarget<'_>) -> Result<JsValue, PoolError> {
        super::auth::pool_server_options(&self.base, target.name, target.auth).map_err(bad_options)
    }
}

impl ClientFactory for JsClients {
    fn client_config(&self, target: &ServerTarget<'_>) -> Result<ClientConfig, PoolError> {
        let mut config = self.options.client_config();
        // OAuth per server: only a server whose entry has `auth` signs in, with its entry's
        // settings over the pool-level ones (merged as Rust values).
        config.auth = match target.auth {
            None => None,
            Some(entry) => {
                let mut merged = self.auth_defaults.clone();
                if let Value::Object(m) = entry {
                    merged.extend(m.iter().map(|(k, v)| (k.clone(), v.clone())));
                }
                let settings = crate::proto::auth::AuthConfig::from_json(&Value::Object(merged))
                    .map_err(|e| {
                        PoolError::InvalidOption(format!("server {:?}: auth: {e}", target.name))
                    })?;
                Some(settings)
            }
        };
        Ok(config)
    }

    fn client_options(
        &self,
        session: SessionConfig,
        target: &ServerTarget<'_>,
    ) -> Result<FetchOptions, PoolError> {
        let mut connect = self.options.clone();
        // Each client numbers its exchanges from 1: each gets its own observer.
        if let Some(observer) = traffic_observer(&self.base).map_err(bad_options)? {
            connect = connect.on_traffic(observer);
        }
        if let (Some(auth), auth_fetch) =
            super::auth::auth_host(&self.auth_options(target)?).map_err(bad_options)?
        {
            connect.set_auth_host(auth, auth_fetch);
        }
        Ok(connect.client_options(session, None))
    }
}

/// Many MCP servers as one tool registry: concurrent connects with per-server timeouts, failures
/// isolated per server, `mcp__<server>__<tool>` names, exports for LLM APIs.
#[wasm_bindgen(skip_typescript)]
pub struct McpPool {
    driver: PoolDriver<FetchHost<JsClients>>,
}

/// An object whose members are all strings (read by hand: serde's derived readers for the
/// map types would cost the package more than the rest of this file).
fn string_map(v: &Value) -> Option<BTreeMap<String, String>> {
    v.as_object()?
        .iter()
        .map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
        .collect()
}

fn parse_vars(options: &JsValue) -> Result<Vars, JsValue> {
    match from_js(&get(options, "vars"))? {
        Value::Null => Ok(Vars::new()),
        v => string_map(&v).ok_or_else(|| invalid_argument("vars must map names to strings")),
    }
}

/// A configuration layer: an object, or its JSON text (a config file's content as read).
fn document(v: &JsValue) -> Result<Result<Value, PoolError>, JsValue> {
    Ok(match v.as_string() {
        Some(text) => crate::pool::config::parse_text(&text),
        None => Ok(from_js(v)?),
    })
}

fn tool_error_to_js(e: &ToolError) -> JsValue {
    super::glue::make_mcp_error(e.code(), &e.to_string(), &JsValue::UNDEFINED)
}

/// The `format` of an options object (default `mcp`).
fn format_of(options: &JsValue) -> Result<ExportFormat, JsValue> {
    match get(options, "format").as_string() {
        None => Ok(ExportFormat::Mcp),
        Some(f) => ExportFormat::parse(&f).ok_or_else(|| {
            invalid_argument("format must be openai, openai-responses, anthropic or mcp")
        }),
    }
}

fn pool_error_to_js(e: &PoolError) -> JsValue {
    match e {
        PoolError::Protocol(p) => error_to_js(p),
        other => super::glue::make_mcp_error(other.code(), &other.to_string(), &JsValue::UNDEFINED),
    }
}

#[wasm_bindgen]
impl McpPool {
    /// A pool over an `{mcpServers: {...}}` document; see the TypeScript declarations.
    #[wasm_bindgen(constructor)]
    pub fn new(config: JsValue, options: JsValue) -> Result<McpPool, JsValue> {
        let mut o = McpPoolOptions::new().with_vars(parse_vars(&options)?);
        // A document the pool cannot use (bad JSON text, not an object) fails open: the pool
        // starts without it and reports why in `status().diagnostics`.
        let doc = document(&config)?;
        let project = get(&options, "projectConfig");
        if !project.is_undefined() && !project.is_null() {
            o = o.project_layer(document(&project)?);
        }
        match from_js(&get(&options, "approvedProjectServers"))? {
            Value::Null => {}
            Value::Array(names) => {
                for n in names {
                    let n = n.as_str().ok_or_else(|| {
                        invalid_argument("approvedProjectServers must be server names")
                    })?;
                    o = o.approve_project_server(n);
                }
            }
            _ => return Err(invalid_argument("approvedProjectServers must be an array")),
        }
        match from_js(&get(&options, "pins"))? {
            Value::Null => {}
            p => {
                let pins = p
                    .as_object()
                    .and_then(|servers| {
                        servers
                            .iter()
                            .map(|(server, tools)| Some((server.clone(), string_map(tools)?)))
                            .collect::<Option<_>>()
                    })
                    .ok_or_else(|| {
                        invalid_argument(
                            "pins must map server names to {tool: fingerprint} objects",
                        )
                    })?;
                o = o.pins(MemoryPinStore { pins });
            }
        }
        match from_js(&get(&options, "policy"))? {
            Value::Null => {}
            p => o = o.policy(Policy::from_value(&p).map_err(|e| pool_error_to_js(&e))?),
        }
        o = o.tool_search(
            ToolSearchConfig::from_json(&from_js(&get(&options, "toolSearch"))?)
                .map_err(|e| tool_error_to_js(&e))?,
        );
        match from_js(&get(&options, "reconnect"))? {
            Value::Null => {}
            r => o = o.reconnect(BackoffPolicy::from_json(&r).map_err(|e| pool_error_to_js(&e))?),
        }
        let edge = get(&options, "edge").as_bool() == Some(true);
        // Edge mode: the 2025 GET stream is opt-in (`openGetStream: true`).
        o = o
            .edge(edge)
            .edge_get_stream(get(&options, "openGetStream").as_bool() == Some(true));
        if let Some(n) = get(&options, "maxConcurrentConnects").as_f64() {
            o = o.max_concurrent_connects(n.max(1.0) as usize);
        }
        if let Some(n) = get(&options, "connectTimeoutMs").as_f64() {
            o = o.connect_timeout_ms(n.max(1.0) as u64);
        }
        let listener: Option<EventFn> = get_fn(&options, "onEvent")?.map(|f| {
            let l: EventFn = std::rc::Rc::new(move |e: &DriverEvent| {
                let _ = f.call1(&JsValue::NULL, &to_js(&e.to_json()));
            });
            l
        });
        // Functions and the storage object do not survive JSON: exactly the settings stay.
        let auth_defaults = match from_js(&get(&options, "auth"))? {
            Value::Object(m) => m,
            _ => serde_json::Map::new(),
        };
        let host = FetchHost::new(JsClients {
            options: connect_options(&options)?,
            auth_defaults,
            base: options,
        });
        let driver = o
            .with_listener(listener)
            .driver(host, doc.as_ref().map_err(Clone::clone))
            .map_err(|e| pool_error_to_js(&e))?;
        Ok(McpPool { driver })
    }

    /// Connects every enabled server concurrently (bounded); resolves when each one is connected,
    /// failed, waiting for auth, disabled or unsupported. Never rejects for one server's failure.
    #[wasm_bindgen(js_name = connectAll)]
    pub fn connect_all(&self) -> js_sys::Promise {
        let driver = self.driver.clone();
        promise(async move {
            let status = driver.connect_all().await;
            Ok(to_js(&serde_json::to_value(status).unwrap_or(Value::Null)))
        })
    }

    /// Per-server state, last error, tool count, era.
    pub fn status(&self) -> JsValue {
        to_js(&serde_json::to_value(self.driver.status()).unwrap_or(Value::Null))
    }

    /// The `tools` of a model request in the shape `format` ("openai" | "openai-responses" |
    /// "anthropic" | "mcp") accepts: every tool of every connected server in a deterministic
    /// order (server, then tool), or, once `toolSearch` defers them, the search tool and what
    /// stays loaded.
    pub fn tools(&self, options: JsValue) -> Result<JsValue, JsValue> {
        Ok(to_js(&Value::Array(
            self.driver.tools(format_of(&options)?),
        )))
    }

    /// Whether `format`'s definitions are deferred now: `{deferred, totalTokens,
    /// thresholdTokens, perServer, loaded, deferredTools, upfrontTokens}`.
    pub fn deferral(&self, options: JsValue) -> Result<JsValue, JsValue> {
        Ok(to_js(&self.driver.deferral(format_of(&options)?).to_json()))
    }

    /// The exported tools that match `query`, best first: `[{name, server, tool, score,
    /// definition}]` (options `{limit?, servers?, format?}`).
    #[wasm_bindgen(js_name = searchTools)]
    pub fn search_tools(&self, query: String, options: JsValue) -> Result<JsValue, JsValue> {
        let o = SearchOptions::from_json(&from_js(&options)?).map_err(|e| tool_error_to_js(&e))?;
        Ok(to_js(&Value::Array(self.driver.search_tools(&query, &o))))
    }

    /// The answer to the model's search-tool call (`args` `{query, limit?}`) for `{format,
    /// callId?}`: Anthropic `tool_reference` blocks, an OpenAI `tool_search_output` item, or
    /// a `CallToolResult` listing the tools.
    #[wasm_bindgen(js_name = searchAnswer)]
    pub fn search_answer(&self, args: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
        let call_id = get(&options, "callId").as_string();
        let answer = self
            .driver
            .search_answer(&from_js(&args)?, format_of(&options)?, call_id.as_deref())
            .map_err(|e| pool_error_to_js(&e))?;
        Ok(to_js(&answer))
    }

    /// The servers' instructions as `<system-reminder>` blocks, and what changed since the last call
    /// (`{text, joined, left}`: the blocks, then the names of the servers whose instructions are
    /// new or changed and of those that are gone): deliver `text` once, when it is not empty.
    pub fn instructions(&self) -> JsValue {
        let delta = self.driver.instructions();
        let joined: Vec<&str> = delta
            .joined
            .iter()
            .map(|(server, _)| server.as_str())
            .collect();
        to_js(&json!({"text": delta.text(), "joined": joined, "left": delta.left}))
    }

    /// What a host's permission layer reads about each exported tool: `{name, server, tool,
    /// title, category, hintedCategory, hints, autoApprove, taskSupport}`, sorted by (server, tool).
    #[wasm_bindgen(js_name = toolInfo)]
    pub fn tool_info(&self) -> JsValue {
        to_js(&Value::Array(self.driver.tool_info()))
    }

    /// Every connected server's prompts as `{server, prompt}` (servers that declare `prompts`).
    pub fn prompts(&self) -> JsValue {
        to_js(&Value::Array(self.driver.offered(ListKind::Prompts)))
    }

    /// Every connected server's resources as `{server, resource}` (servers that declare
    /// `resources`).
    pub fn resources(&self) -> JsValue {
        to_js(&Value::Array(self.driver.offered(ListKind::Resources)))
    }

    /// Estimated tokens each server's tool definitions cost in `format`.
    #[wasm_bindgen(js_name = tokenEstimates)]
    pub fn token_estimates(&self, format: String) -> Result<JsValue, JsValue> {
        let f = ExportFormat::parse(&format).ok_or_else(|| invalid_argument("unknown format"))?;
        Ok(to_js(
            &serde_json::to_value(self.driver.token_estimates(f)).unwrap_or(Value::Null),
        ))
    }

    /// Calls `mcp__<server>__<tool>`. Always resolves: tool failures, protocol errors, an open
    /// circuit or a server that is down come back as `{content, isError: true}` for the model.
    /// The result is flattened for an LLM (`content` is one text block); `raw` holds the server's
    /// result when there was one.
    pub fn call(&self, name: String, args: JsValue, options: JsValue) -> js_sys::Promise {
        let driver = self.driver.clone();
        promise(async move {
            let CallOptions {
                options, listener, ..
            } = call_options(&options)?;
            let arguments = match from_js(&args)? {
                Value::Null => json!({}),
                v => v,
            };
            let outcome = driver.call(&name, arguments, options).await;
            drop(listener);
            let mut v = outcome.to_json();
            if let Some(e) = &outcome.protocol_error {
                // The typed error with its details (status, retryAfterMs, mayHaveRun, ...).
                v["error"] = super::convert::error_json(e);
            }
            Ok(to_js(&v))
        })
    }

    /// Approves a server only the project layer defines (state `pending-approval`): it
    /// connects now. False when the server needed no approval.
    #[wasm_bindgen(js_name = approveServer)]
    pub fn approve_server(&self, server: String) -> Result<bool, JsValue> {
        self.driver
            .approve_server(&server)
            .map_err(|e| pool_error_to_js(&e))
    }

    /// Rejects a server only the project layer defines: it stays off (`NOT_APPROVED`).
    #[wasm_bindgen(js_name = rejectServer)]
    pub fn reject_server(&self, server: String) -> Result<bool, JsValue> {
        self.driver
            .reject_server(&server)
            .map_err(|e| pool_error_to_js(&e))
    }

    /// Retries a failed server now (also after the user signed in).
    pub fn reconnect(&self, server: String) -> Result<(), JsValue> {
        self.driver
            .reconnect(&server)
            .map_err(|e| pool_error_to_js(&e))
    }

    /// The tools held back because their description or schema changed since they were pinned:
    /// `[{name, server, tool, pinned, current}]`.
    #[wasm_bindgen(js_name = heldTools)]
    pub fn held_tools(&self) -> JsValue {
        to_js(&serde_json::to_value(self.driver.held_tools()).unwrap_or(Value::Null))
    }

    /// Every pin, `{server: {tool: fingerprint}}`: persist it and pass it back as the `pins`
    /// option so a changed tool is held back in the next run too.
    pub fn pins(&self) -> JsValue {
        to_js(&serde_json::to_value(self.driver.pins().pins).unwrap_or(Value::Null))
    }

    /// Accepts a tool held back because its description or schema changed since it was pinned.
    #[wasm_bindgen(js_name = acceptTool)]
    pub fn accept_tool(&self, name: String) -> Result<(), JsValue> {
        self.driver
            .accept_tool(&name)
            .map_err(|e| pool_error_to_js(&e))
    }

    /// Closes every client (2025 era: DELETE) and stops all timers.
    pub fn close(&self) -> js_sys::Promise {
        let driver = self.driver.clone();
        promise(async move {
            driver.close().await;
            Ok(JsValue::UNDEFINED)
        })
    }
}
