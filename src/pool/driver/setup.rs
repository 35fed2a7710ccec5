//! The target-neutral part of a pool's options: configuration layers, variables, policy, bounds.
//! The JS, Rust and component pools fill one of these and add their own clients.

use serde_json::{json, Value};

use super::{DriverEvent, DriverOptions, EventFn, PoolDriver, PoolHost};
use std::collections::BTreeSet;

use crate::pool::{BackoffPolicy, Policy, PoolConfig, PoolError, PoolEvent, PoolOptions, Vars};
use crate::proto::session::ListKind;
use crate::tools::deferral::ToolSearchConfig;
use crate::tools::pinning::MemoryPinStore;

/// How a pool is set up, whatever the target.
#[derive(Clone, Default)]
pub struct PoolSetup {
    /// Values for `${NAME}` expansion.
    pub vars: Vars,
    /// A second configuration layer (a project's `mcpServers`), or why it could not be read.
    pub project_config: Option<Result<Value, PoolError>>,
    /// Which servers may be connected (deny wins).
    pub policy: Policy,
    /// Edge mode (one bound on all outbound exchanges; no 2025 GET stream unless asked).
    pub edge: bool,
    /// Edge mode only: open the 2025-era GET stream anyway.
    pub get_stream_in_edge: bool,
    /// Most connect attempts at once (at least 1).
    pub max_concurrent_connects: Option<usize>,
    /// Connect timeout of servers whose entry has no `timeoutMs`.
    pub connect_timeout_ms: Option<u64>,
    /// Project-layer servers the host approved to replace the user's entry of the same name.
    pub approved_project_servers: BTreeSet<String>,
    /// Pins from an earlier run: a tool whose definition differs is held back from the start.
    pub pins: MemoryPinStore,
    /// When tool definitions are deferred behind a search tool, and how.
    pub tool_search: ToolSearchConfig,
    /// Reconnection timing (default [`BackoffPolicy::default`]).
    pub backoff: Option<BackoffPolicy>,
}

impl PoolSetup {
    /// A driver over `host` for the `{"mcpServers": {...}}` document `config`; `jitter_seed`
    /// comes from the target's randomness (the core draws none).
    pub fn driver<H: PoolHost>(
        self,
        host: H,
        config: Result<&Value, PoolError>,
        jitter_seed: u64,
        on_event: Option<EventFn>,
    ) -> Result<PoolDriver<H>, PoolError> {
        // A configuration that cannot be used fails open: the pool starts without it and says
        // why (status `diagnostics`, a `configRejected` event), rather than the host's
        // constructor throwing.
        let cfg = PoolConfig::load(
            config,
            self.project_config
                .as_ref()
                .map(|p| p.as_ref().map_err(Clone::clone)),
            &self.approved_project_servers,
            &self.vars,
        );
        let mut pool = if self.edge {
            PoolOptions::edge()
        } else {
            PoolOptions::default()
        };
        if let Some(n) = self.max_concurrent_connects {
            pool.max_in_flight = n.max(1);
        }
        if let Some(ms) = self.connect_timeout_ms {
            pool.default_timeout_ms = ms.max(1);
        }
        pool.jitter_seed = jitter_seed;
        if let Some(b) = self.backoff {
            pool.backoff = b;
        }
        let options = DriverOptions {
            pool,
            edge: self.edge,
            get_stream_in_edge: self.get_stream_in_edge,
            pins: self.pins,
            tool_search: self.tool_search,
            ..DriverOptions::default()
        };
        PoolDriver::new(host, &cfg, &self.policy, options, on_event)
    }
}

impl DriverEvent {
    /// The event as the JS `onEvent` listener and the component's `take-events` give it:
    /// `{"type": "state" | "toolCount" | "attemptAborted" | "projectEntryIgnored" |
    /// "approvalRequired" | "configRejected" | "listChanged" | "toolChanged" | "toolRejected" |
    /// "toolsChanged" | "gap", ...}` (`gap`: `dropped` events were lost there).
    pub fn to_json(&self) -> Value {
        match self {
            DriverEvent::AttemptAborted { server } => {
                json!({"type": "attemptAborted", "server": server})
            }
            DriverEvent::Pool(PoolEvent::StateChanged {
                server,
                from,
                to,
                error,
            }) => {
                let error = error
                    .as_ref()
                    .map(|e| json!({"code": e.code(), "message": e.to_string()}));
                json!({"type": "state", "server": server, "from": from.as_str(), "to": to.as_str(), "error": error})
            }
            DriverEvent::Pool(PoolEvent::ProjectEntryIgnored { server }) => {
                json!({"type": "projectEntryIgnored", "server": server})
            }
            DriverEvent::Pool(PoolEvent::Dropped { dropped }) => {
                json!({"type": "gap", "dropped": dropped})
            }
            DriverEvent::Pool(PoolEvent::ApprovalRequired { server }) => {
                json!({"type": "approvalRequired", "server": server})
            }
            DriverEvent::Pool(PoolEvent::ConfigRejected { error }) => {
                json!({"type": "configRejected", "code": error.code(), "message": error.to_string()})
            }
            DriverEvent::Pool(PoolEvent::ToolCount { server, count }) => {
                json!({"type": "toolCount", "server": server, "count": count})
            }
            // {type: "toolChanged", name, server, tool, pinned, current} | {type: "toolRejected",
            // code, error, server} | {type: "toolsChanged"}
            DriverEvent::Tool(t) => serde_json::to_value(t).unwrap_or(Value::Null),
            DriverEvent::ListChanged {
                server,
                list,
                count,
            } => {
                let list = match list {
                    ListKind::Tools => "tools",
                    ListKind::Prompts => "prompts",
                    _ => "resources",
                };
                json!({"type": "listChanged", "server": server, "list": list, "count": count})
            }
        }
    }
}
