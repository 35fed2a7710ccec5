//! Per-server connection states of a pool, as one sans-IO state machine.
//!
//! # Call order
//! The core never performs I/O and never reads a clock. A driver loops:
//!
//! 1. call [`PoolCore::next_to_connect`] until it returns `None`; for each [`Attempt`], start
//!    connecting that server ([`PoolCore::config`] says how);
//! 2. drain [`PoolCore::poll_abort`] (stop those attempts: they timed out or the server was
//!    disabled) and [`PoolCore::poll_event`];
//! 3. wait until an attempt finishes or [`PoolCore::poll_timeout`] passes, then report with
//!    [`PoolCore::handle_connected`], [`PoolCore::handle_connect_failed`],
//!    [`PoolCore::handle_disconnected`] or [`PoolCore::handle_timeout`], and go to 1.
//!
//! A report for an attempt that is no longer current (it timed out, the server was disabled or
//! reconnected meanwhile) is ignored, so a late answer from a hung server never overwrites a
//! newer state.
//!
//! # Isolation
//! Each server has its own deadline and its own backoff; a hang occupies one in-flight slot
//! until its own deadline, never another server's. At most `max_in_flight` attempts run at once
//! (and, when `max_outbound` is set, attempts plus the outbound requests the host reports stay
//! within it: Workers allow 6 concurrent subrequests per invocation).
//!
//! # Reconnection
//! A retryable failure (timeout, network, HTTP 5xx, protocol errors other than auth and version
//! mismatch) schedules a retry after `min(max_ms, initial_ms x multiplier^(n-1))` minus a seeded
//! jitter of up to `jitter_percent` %, where `n` counts the failure streak. The streak ends when
//! a connection stays up for `stable_after_ms`. Once a streak is longer than `max_retries`, or
//! more than `max_total_retries` fast retries were spent over the pool's life, the server is
//! retried slowly: every `slow_ms` (same jitter) for as long as the pool lives, so a server that
//! was down for an hour comes back on its own (`slow_ms: None` stops instead, until
//! [`PoolCore::reconnect`]). 401/403 moves the server to `needs-auth` and is not retried.
use crate::util::vec_map::VecMap;
use serde::Serialize;
use std::collections::{BTreeMap, VecDeque};

use crate::util::bounded::{Bounded, Popped};

use super::config::{PoolConfig, ProjectEntry, ServerConfig, Transport};
use super::error::PoolError;
use super::policy::Policy;
use crate::proto::session::{Era, ProtocolError};
use crate::util::hash::{fnv1a64, splitmix64};

/// The state of one server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ServerState {
    /// Waiting for an in-flight slot.
    Pending,
    /// An attempt is running.
    Connecting,
    /// Ready; its tools are usable.
    Connected,
    /// The last attempt failed; a retry may be scheduled (`next_retry_at`).
    Failed,
    /// The server wants (other) credentials (HTTP 401/403); not retried until auth completes.
    NeedsAuth,
    /// Off: by configuration, by the user, by policy, or as a duplicate (see `last_error`).
    Disabled,
    /// A server only the project layer defines, waiting for the host to approve (or reject) it.
    PendingApproval,
    /// A stdio server on a host that cannot start processes.
    Unsupported,
}

impl ServerState {
    /// The wire spelling (`needs-auth` ...).
    pub fn as_str(self) -> &'static str {
        match self {
            ServerState::Pending => "pending",
            ServerState::Connecting => "connecting",
            ServerState::Connected => "connected",
            ServerState::Failed => "failed",
            ServerState::NeedsAuth => "needs-auth",
            ServerState::Disabled => "disabled",
            ServerState::PendingApproval => "pending-approval",
            ServerState::Unsupported => "unsupported",
        }
    }
}

/// Reconnection timing and budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BackoffPolicy {
    /// Delay before the first retry of a streak.
    pub initial_ms: u64,
    /// Upper bound of any delay.
    pub max_ms: u64,
    /// Growth factor per failure.
    pub multiplier: u32,
    /// Up to this share of the delay is subtracted, drawn from the seed (0 ..= 100).
    pub jitter_percent: u8,
    /// Most retries in one failure streak.
    pub max_retries: u32,
    /// Most retries over the pool's life, per server.
    pub max_total_retries: u32,
    /// A connection that stayed up this long ends the failure streak.
    pub stable_after_ms: u64,
    /// The interval of the slow retries that follow once the fast ones are spent; `None` gives
    /// up instead (until a reconnect).
    pub slow_ms: Option<u64>,
}

impl Default for BackoffPolicy {
    fn default() -> Self {
        BackoffPolicy {
            initial_ms: 1_000,
            max_ms: 30_000,
            multiplier: 2,
            jitter_percent: 20,
            max_retries: 5,
            max_total_retries: 50,
            stable_after_ms: 60_000,
            slow_ms: Some(300_000),
        }
    }
}

impl BackoffPolicy {
    /// Reads the `reconnect` option: `{"initialMs"?, "maxMs"?, "multiplier"?,
    /// "jitterPercent"?, "maxRetries"?, "maxTotalRetries"?, "stableAfterMs"?, "slowMs"?}` over
    /// the defaults (`"slowMs": null` gives up once the fast retries are spent). `null` gives
    /// the defaults.
    pub fn from_json(v: &serde_json::Value) -> Result<BackoffPolicy, PoolError> {
        let mut b = BackoffPolicy::default();
        let bad = |m: String| PoolError::InvalidOption(format!("reconnect: {m}"));
        let m = match v {
            serde_json::Value::Null => return Ok(b),
            serde_json::Value::Object(m) => m,
            _ => return Err(bad("must be an object".into())),
        };
        for (k, v) in m {
            let n = || {
                v.as_u64()
                    .ok_or_else(|| bad(format!("{k} must be a non-negative integer")))
            };
            let small = |max: u64| {
                n().and_then(|x| {
                    if x <= max {
                        Ok(x)
                    } else {
                        Err(bad(format!("{k} must be at most {max}")))
                    }
                })
            };
            match k.as_str() {
                "initialMs" => b.initial_ms = n()?,
                "maxMs" => b.max_ms = n()?,
                "multiplier" => b.multiplier = small(u64::from(u32::MAX))? as u32,
                "jitterPercent" => b.jitter_percent = small(100)? as u8,
                "maxRetries" => b.max_retries = small(u64::from(u32::MAX))? as u32,
                "maxTotalRetries" => b.max_total_retries = small(u64::from(u32::MAX))? as u32,
                "stableAfterMs" => b.stable_after_ms = n()?,
                "slowMs" if v.is_null() => b.slow_ms = None,
                "slowMs" => b.slow_ms = Some(n()?.max(1)),
                _ => return Err(bad(format!("unknown setting {k:?}"))),
            }
        }
        Ok(b)
    }

    /// The delay before retry number `n` (1-based) of `server`'s streak, jitter included. Pure:
    /// the same seed, server and `n` always give the same delay, whatever else happens.
    pub fn delay(&self, seed: u64, server: &str, n: u32) -> u64 {
        let mut base = self.initial_ms.min(self.max_ms);
        for _ in 1..n {
            base = base
                .saturating_mul(u64::from(self.multiplier))
                .min(self.max_ms);
            if base == self.max_ms {
                break;
            }
        }
        self.jitter(
            base,
            seed ^ fnv1a64(server.as_bytes()) ^ u64::from(n).rotate_left(32),
        )
    }

    /// The delay before slow retry number `n` (1-based) of `server`: `slow_ms` minus the same
    /// seeded jitter, so servers that failed together do not come back in lockstep.
    pub fn slow_delay(&self, seed: u64, server: &str, n: u32) -> Option<u64> {
        let base = self.slow_ms?.max(1);
        Some(self.jitter(
            base,
            seed ^ fnv1a64(server.as_bytes()) ^ u64::from(n).rotate_left(32) ^ (1 << 63),
        ))
    }

    fn jitter(&self, base: u64, key: u64) -> u64 {
        let span = base * u64::from(self.jitter_percent.min(100)) / 100;
        base - splitmix64(key) % (span + 1)
    }
}

/// Options of a pool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolOptions {
    /// Most connect attempts at once (default 4).
    pub max_in_flight: usize,
    /// When set, attempts plus the outbound requests the host reports
    /// ([`PoolCore::set_outbound_in_use`]) stay within this bound.
    pub max_outbound: Option<usize>,
    /// Connect timeout of servers without `timeoutMs` (default 30 s).
    pub default_timeout_ms: u64,
    /// Whether the host can start stdio servers (native: yes; wasm: no).
    pub supports_stdio: bool,
    /// Reconnection timing and budget.
    pub backoff: BackoffPolicy,
    /// Seed of the jitter (the core draws no randomness of its own).
    pub jitter_seed: u64,
}

impl Default for PoolOptions {
    fn default() -> Self {
        PoolOptions {
            max_in_flight: 4,
            max_outbound: None,
            default_timeout_ms: 30_000,
            supports_stdio: false,
            backoff: BackoffPolicy::default(),
            jitter_seed: 0x5eed_0f00_9001,
        }
    }
}

impl PoolOptions {
    /// Edge isolates (Workers): 6 concurrent subrequests per invocation in total, so attempts
    /// and reported outbound requests share a bound of 6.
    pub fn edge() -> Self {
        PoolOptions {
            max_in_flight: 6,
            max_outbound: Some(6),
            ..Self::default()
        }
    }

    fn validate(&self) -> Result<(), PoolError> {
        if self.max_in_flight == 0 || self.max_outbound == Some(0) {
            return Err(PoolError::InvalidOption(
                "max_in_flight and max_outbound must be at least 1".into(),
            ));
        }
        if self.default_timeout_ms == 0 || self.backoff.multiplier == 0 {
            return Err(PoolError::InvalidOption(
                "default_timeout_ms and backoff.multiplier must be at least 1".into(),
            ));
        }
        if self.backoff.jitter_percent > 100 {
            return Err(PoolError::InvalidOption(
                "backoff.jitter_percent must be at most 100".into(),
            ));
        }
        Ok(())
    }
}

/// One connect attempt. Reports must carry it back so stale ones are recognised.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Attempt {
    /// The server.
    pub server: String,
    /// Unique within the pool.
    pub id: u64,
    /// When it times out.
    pub deadline: u64,
}

/// What a successful connect found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ConnectInfo {
    /// The era in use.
    pub era: Option<Era>,
    /// The protocol version in use.
    pub protocol_version: Option<String>,
    /// How many tools the server exports (after naming, pinning and adaption).
    pub tool_count: usize,
    /// How many prompts it offers (0 without the `prompts` capability).
    pub prompt_count: usize,
    /// How many resources it offers (0 without the `resources` capability).
    pub resource_count: usize,
}

/// What the pool reports.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum PoolEvent {
    /// A server changed state.
    StateChanged {
        /// The server.
        server: String,
        /// The old state.
        from: ServerState,
        /// The new state.
        to: ServerState,
        /// The error behind a move to `failed`, `needs-auth`, `disabled` or `unsupported`.
        error: Option<PoolError>,
    },
    /// The project layer's entry for a server the user's layer has was not used (the host did
    /// not approve it): the user's entry stays in force. Reported once, when the pool starts.
    ProjectEntryIgnored {
        /// The server.
        server: String,
    },
    /// A server only the project layer defines waits for the host's approval
    /// ([`PoolCore::approve`] or [`PoolCore::reject`]). Reported once, when the pool starts.
    ApprovalRequired {
        /// The server.
        server: String,
    },
    /// A configuration layer could not be used and was left out (the pool starts without it).
    /// Reported once, when the pool starts.
    ConfigRejected {
        /// Why.
        error: PoolError,
    },
    /// `dropped` events were lost here: nobody polled while the queue was full.
    Dropped {
        /// How many.
        dropped: u64,
    },
    /// A connected server's tool count changed.
    ToolCount {
        /// The server.
        server: String,
        /// The new count.
        count: usize,
    },
}

/// Why a server is disabled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Off {
    Config,
    User,
    Policy,
    Duplicate,
    /// The host rejected a project server.
    Rejected,
}

#[derive(Debug, Clone)]
struct Server {
    config: Result<ServerConfig, PoolError>,
    project: Option<ProjectEntry>,
    state: ServerState,
    off: Option<Off>,
    last_error: Option<PoolError>,
    tool_count: usize,
    prompt_count: usize,
    resource_count: usize,
    era: Option<Era>,
    protocol_version: Option<String>,
    attempt: Option<Attempt>,
    retry_at: Option<u64>,
    streak: u32,
    total_retries: u32,
    gave_up: bool,
    /// Slow retries since the fast ones were spent (0 while retrying fast).
    slow_retries: u32,
    /// It connected at least once: a browser's CORS failure means it went away, not that CORS
    /// is misconfigured.
    was_connected: bool,
    connected_at: Option<u64>,
}

/// An error as status reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ErrorStatus {
    /// The stable code ([`PoolError::code`]).
    pub code: String,
    /// The message (names, never values).
    pub message: String,
}

/// One server in [`PoolStatus`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerStatus {
    /// The server.
    pub name: String,
    /// Its state.
    pub state: ServerState,
    /// `http` or `stdio` (`null` when the entry did not parse).
    pub transport: Option<&'static str>,
    /// The last error.
    pub last_error: Option<ErrorStatus>,
    /// Exported tools (0 unless connected).
    pub tool_count: usize,
    /// Prompts it offers (0 unless connected).
    pub prompt_count: usize,
    /// Resources it offers (0 unless connected).
    pub resource_count: usize,
    /// `modern` (2026-07-28) or `legacy` (2025 era), once connected.
    pub era: Option<&'static str>,
    /// The protocol version in use.
    pub protocol_version: Option<String>,
    /// Retries in the current failure streak.
    pub retries: u32,
    /// When the next automatic retry may start.
    pub next_retry_at: Option<u64>,
    /// When the running attempt times out.
    pub deadline: Option<u64>,
    /// Whether automatic retries stopped (budget spent and slow retries off).
    pub gave_up: bool,
    /// Whether the fast retries are spent and the server is retried every `slow_ms`.
    pub slow_retry: bool,
    /// What became of the project layer's entry of this name: `added` (the user's layer has
    /// none), `ignored` (the user's entry is used), `approved` (the project's replaced it), or
    /// `null` (no project entry).
    pub project_entry: Option<&'static str>,
}

/// A snapshot for UIs, servers sorted by name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PoolStatus {
    /// The servers.
    pub servers: Vec<ServerStatus>,
    /// Configuration layers that were left out because they could not be used.
    pub diagnostics: Vec<ErrorStatus>,
}

/// Most events kept unpolled; older ones are dropped first.
pub const MAX_QUEUED_EVENTS: usize = 1024;

/// A browser reports a server that went away exactly like a CORS refusal. Once this origin has
/// reached the server, CORS was fine: the failure is a network one (retried), not a configuration
/// error that retrying cannot fix.
pub fn gone_not_cors(e: ProtocolError) -> ProtocolError {
    match e {
        ProtocolError::Cors(_) => ProtocolError::Network(
            "the server stopped answering (a browser reports this as a CORS failure)".into(),
        ),
        e => e,
    }
}
/// Most bytes (server names, error messages) of events kept unpolled.
pub const MAX_QUEUED_EVENT_BYTES: usize = 1 << 20;

/// The pool's connection state machine (see the module docs for the call order).
#[derive(Debug, Clone)]
pub struct PoolCore {
    options: PoolOptions,
    servers: VecMap<String, Server>,
    next_attempt: u64,
    outbound_in_use: usize,
    aborts: VecDeque<Attempt>,
    events: Bounded<PoolEvent>,
    diagnostics: Vec<PoolError>,
}

impl PoolCore {
    /// Registers every entry of `config`: disabled entries, policy refusals and duplicates become
    /// `disabled`, unusable entries `failed`, stdio entries on hosts without processes
    /// `unsupported`, the rest `pending`.
    pub fn new(
        config: &PoolConfig,
        policy: &Policy,
        options: PoolOptions,
    ) -> Result<Self, PoolError> {
        options.validate()?;
        let dups: BTreeMap<String, String> = config
            .duplicates()
            .into_iter()
            .map(|d| (d.dropped, d.kept))
            .collect();
        let mut servers = VecMap::new();
        for e in &config.servers {
            let mut s = Server {
                config: e.config.clone(),
                project: config.project.get(&e.name).copied(),
                state: ServerState::Pending,
                off: None,
                last_error: None,
                tool_count: 0,
                prompt_count: 0,
                resource_count: 0,
                era: None,
                protocol_version: None,
                attempt: None,
                retry_at: None,
                streak: 0,
                total_retries: 0,
                gave_up: false,
                slow_retries: 0,
                was_connected: false,
                connected_at: None,
            };
            let verdict = match &e.config {
                Err(err) => Some((ServerState::Failed, None, Some(err.clone()))),
                Ok(c) => match policy.check(c) {
                    Err(err) => Some((ServerState::Disabled, Some(Off::Policy), Some(err))),
                    Ok(()) if !e.enabled => Some((ServerState::Disabled, Some(Off::Config), None)),
                    Ok(()) => match dups.get(&e.name) {
                        Some(kept) => Some((
                            ServerState::Disabled,
                            Some(Off::Duplicate),
                            Some(PoolError::Duplicate {
                                server: e.name.clone(),
                                kept: kept.clone(),
                            }),
                        )),
                        None if matches!(c.transport, Transport::Stdio { .. })
                            && !options.supports_stdio =>
                        {
                            Some((
                                ServerState::Unsupported,
                                None,
                                Some(PoolError::StdioUnsupported {
                                    server: e.name.clone(),
                                }),
                            ))
                        }
                        // Only the project layer has it: it waits for the host's approval.
                        None if config.project.get(&e.name) == Some(&ProjectEntry::Added) => {
                            Some((ServerState::PendingApproval, None, None))
                        }
                        None => None,
                    },
                },
            };
            if let Some((state, off, err)) = verdict {
                // A disabled entry's config error shows only once it is enabled.
                s.state = if state == ServerState::Failed && !e.enabled {
                    s.off = Some(Off::Config);
                    ServerState::Disabled
                } else {
                    s.off = off;
                    state
                };
                s.last_error = if s.state == ServerState::Disabled && s.off == Some(Off::Config) {
                    None
                } else {
                    err
                };
            }
            servers.insert(e.name.clone(), s);
        }
        let mut core = PoolCore {
            options,
            servers,
            next_attempt: 1,
            outbound_in_use: 0,
            aborts: VecDeque::new(),
            events: Bounded::new(MAX_QUEUED_EVENTS, MAX_QUEUED_EVENT_BYTES),
            diagnostics: config.diagnostics.clone(),
        };
        for error in &config.diagnostics {
            core.push(PoolEvent::ConfigRejected {
                error: error.clone(),
            });
        }
        for (server, e) in &config.project {
            if *e == ProjectEntry::Ignored {
                core.push(PoolEvent::ProjectEntryIgnored {
                    server: server.clone(),
                });
            }
        }
        let waiting: Vec<String> = core
            .servers
            .iter()
            .filter(|(_, s)| s.state == ServerState::PendingApproval)
            .map(|(n, _)| n.clone())
            .collect();
        for server in waiting {
            core.push(PoolEvent::ApprovalRequired { server });
        }
        Ok(core)
    }

    /// The options in force.
    pub fn options(&self) -> &PoolOptions {
        &self.options
    }

    /// How to connect `server`.
    pub fn config(&self, server: &str) -> Option<&ServerConfig> {
        self.servers.get(server)?.config.as_ref().ok()
    }

    /// The state of `server`.
    pub fn state(&self, server: &str) -> Option<ServerState> {
        self.servers.get(server).map(|s| s.state)
    }

    /// The names of all servers, sorted.
    pub fn server_names(&self) -> impl Iterator<Item = &str> {
        self.servers.keys().map(String::as_str)
    }

    /// Attempts running now.
    pub fn in_flight(&self) -> usize {
        self.servers
            .values()
            .filter(|s| s.state == ServerState::Connecting)
            .count()
    }

    /// The host reports how many other outbound requests (calls, streams) are open; with
    /// `max_outbound` set, attempts only start while the total stays within it.
    pub fn set_outbound_in_use(&mut self, n: usize) {
        self.outbound_in_use = n;
    }

    fn push(&mut self, e: PoolEvent) {
        let size = match &e {
            PoolEvent::StateChanged { server, error, .. } => {
                server.len() + error.as_ref().map_or(0, |e| e.to_string().len())
            }
            PoolEvent::ConfigRejected { error } => error.to_string().len(),
            PoolEvent::ProjectEntryIgnored { server }
            | PoolEvent::ApprovalRequired { server }
            | PoolEvent::ToolCount { server, .. } => server.len(),
            PoolEvent::Dropped { .. } => 0,
        };
        self.events.push(e, 64 + size);
    }

    fn transition(&mut self, name: &str, to: ServerState, error: Option<PoolError>) {
        let Some(s) = self.servers.get_mut(name) else {
            return;
        };
        let from = s.state;
        s.state = to;
        if error.is_some() {
            s.last_error = error.clone();
        }
        if to != ServerState::Connected {
            s.tool_count = 0;
            s.prompt_count = 0;
            s.resource_count = 0;
        }
        if from != to || error.is_some() {
            self.push(PoolEvent::StateChanged {
                server: name.to_string(),
                from,
                to,
                error,
            });
        }
    }

    /// The next server to connect, if a slot is free and one is due (pending ones by name, then
    /// due retries by time and name). Marks it `connecting` with its own deadline.
    pub fn next_to_connect(&mut self, now: u64) -> Option<Attempt> {
        let in_flight = self.in_flight();
        if in_flight >= self.options.max_in_flight {
            return None;
        }
        if let Some(max) = self.options.max_outbound {
            if in_flight + self.outbound_in_use >= max {
                return None;
            }
        }
        let pending = self
            .servers
            .iter()
            .find(|(_, s)| s.state == ServerState::Pending)
            .map(|(n, _)| n.clone());
        let name = pending.or_else(|| {
            self.servers
                .iter()
                .filter(|(_, s)| s.state == ServerState::Failed)
                .filter_map(|(n, s)| s.retry_at.filter(|&t| t <= now).map(|t| (t, n)))
                .min()
                .map(|(_, n)| n.clone())
        })?;
        let timeout = self
            .config(&name)
            .and_then(|c| c.timeout_ms)
            .unwrap_or(self.options.default_timeout_ms);
        let attempt = Attempt {
            server: name.clone(),
            id: self.next_attempt,
            deadline: now.saturating_add(timeout),
        };
        self.next_attempt += 1;
        if let Some(s) = self.servers.get_mut(&name) {
            s.attempt = Some(attempt.clone());
            s.retry_at = None;
        }
        self.transition(&name, ServerState::Connecting, None);
        Some(attempt)
    }

    fn current<'a>(&'a mut self, attempt: &Attempt) -> Option<&'a mut Server> {
        self.servers
            .get_mut(&attempt.server)
            .filter(|s| s.state == ServerState::Connecting && s.attempt.as_ref() == Some(attempt))
    }

    /// The attempt succeeded. Returns false (and changes nothing) when it is stale.
    pub fn handle_connected(&mut self, now: u64, attempt: &Attempt, info: ConnectInfo) -> bool {
        let Some(s) = self.current(attempt) else {
            return false;
        };
        s.attempt = None;
        s.connected_at = Some(now);
        s.era = info.era;
        s.protocol_version = info.protocol_version;
        s.last_error = None;
        s.gave_up = false;
        s.slow_retries = 0;
        s.was_connected = true;
        self.transition(&attempt.server, ServerState::Connected, None);
        if let Some(s) = self.servers.get_mut(&attempt.server) {
            s.tool_count = info.tool_count;
            s.prompt_count = info.prompt_count;
            s.resource_count = info.resource_count;
        }
        true
    }

    /// The attempt failed. Returns false (and changes nothing) when it is stale.
    pub fn handle_connect_failed(&mut self, now: u64, attempt: &Attempt, error: PoolError) -> bool {
        let Some(s) = self.current(attempt) else {
            return false;
        };
        s.attempt = None;
        let error = match error {
            PoolError::Protocol(e) if s.was_connected => PoolError::Protocol(gone_not_cors(e)),
            e => e,
        };
        self.fail(now, &attempt.server, error);
        true
    }

    /// A connected server dropped after it connected (a call's transport failed and a probe
    /// confirmed it, its session was lost for good, or its notification stream ended for good):
    /// it moves to `failed` and, when remote, is retried with the same capped, jittered backoff
    /// and budget as a failed connect. Ignored unless it is connected.
    pub fn handle_disconnected(&mut self, now: u64, server: &str, error: PoolError) -> bool {
        let stable_after = self.options.backoff.stable_after_ms;
        let Some(s) = self
            .servers
            .get_mut(server)
            .filter(|s| s.state == ServerState::Connected)
        else {
            return false;
        };
        if s.connected_at
            .is_some_and(|t| now.saturating_sub(t) >= stable_after)
        {
            s.streak = 0;
        }
        s.connected_at = None;
        let local = matches!(
            s.config.as_ref().map(|c| &c.transport),
            Ok(Transport::Stdio { .. })
        );
        self.fail(now, server, error);
        if local {
            // Reconnecting is for remote servers; a local process that ended is restarted by
            // the user (`reconnect`).
            if let Some(s) = self.servers.get_mut(server) {
                s.retry_at = None;
            }
        }
        true
    }

    fn fail(&mut self, now: u64, server: &str, error: PoolError) {
        // 401/403 without auth configured, or an authorization that failed or needs a person:
        // the server waits for sign-in rather than being retried.
        if matches!(
            error,
            PoolError::Protocol(ProtocolError::Unauthorized { .. } | ProtocolError::Auth(_))
        ) {
            self.transition(server, ServerState::NeedsAuth, Some(error));
            return;
        }
        let b = self.options.backoff;
        let seed = self.options.jitter_seed;
        let Some(s) = self.servers.get_mut(server) else {
            return;
        };
        if error.is_retryable() {
            if s.streak < b.max_retries && s.total_retries < b.max_total_retries {
                s.streak += 1;
                s.total_retries += 1;
                s.slow_retries = 0;
                s.retry_at = Some(now.saturating_add(b.delay(seed, server, s.streak)));
            } else if let Some(d) = b.slow_delay(seed, server, s.slow_retries.saturating_add(1)) {
                s.slow_retries = s.slow_retries.saturating_add(1);
                s.retry_at = Some(now.saturating_add(d));
            } else {
                s.retry_at = None;
                s.gave_up = true;
            }
        } else {
            s.retry_at = None;
        }
        self.transition(server, ServerState::Failed, Some(error));
    }

    /// Expires attempts whose deadline passed: each becomes a `ConnectTimeout` failure (retried
    /// per the backoff) and is queued for [`PoolCore::poll_abort`].
    pub fn handle_timeout(&mut self, now: u64) {
        let expired: Vec<Attempt> = self
            .servers
            .values()
            .filter(|s| s.state == ServerState::Connecting)
            .filter_map(|s| s.attempt.clone())
            .filter(|a| a.deadline <= now)
            .collect();
        for a in expired {
            let after_ms = self
                .config(&a.server)
                .and_then(|c| c.timeout_ms)
                .unwrap_or(self.options.default_timeout_ms);
            if let Some(s) = self.servers.get_mut(&a.server) {
                s.attempt = None;
            }
            self.fail(
                now,
                &a.server,
                PoolError::ConnectTimeout {
                    server: a.server.clone(),
                    after_ms,
                },
            );
            self.aborts.push_back(a);
        }
    }

    /// The earliest time [`PoolCore::handle_timeout`] or [`PoolCore::next_to_connect`] has work.
    pub fn poll_timeout(&self) -> Option<u64> {
        self.servers
            .values()
            .filter_map(|s| match s.state {
                ServerState::Connecting => s.attempt.as_ref().map(|a| a.deadline),
                ServerState::Failed => s.retry_at,
                _ => None,
            })
            .min()
    }

    /// The next attempt the driver must abort (timed out, or its server was disabled).
    pub fn poll_abort(&mut self) -> Option<Attempt> {
        self.aborts.pop_front()
    }

    /// The next event, oldest first.
    pub fn poll_event(&mut self) -> Option<PoolEvent> {
        self.events.pop().map(|p| match p {
            Popped::Item(e) => e,
            Popped::Gap(dropped) => PoolEvent::Dropped { dropped },
        })
    }

    /// A connected server's tool list changed size.
    pub fn set_tool_count(&mut self, server: &str, count: usize) {
        if let Some(s) = self
            .servers
            .get_mut(server)
            .filter(|s| s.state == ServerState::Connected && s.tool_count != count)
        {
            s.tool_count = count;
            self.push(PoolEvent::ToolCount {
                server: server.to_string(),
                count,
            });
        }
    }

    /// A connected server's prompt and resource lists changed size.
    pub fn set_list_counts(&mut self, server: &str, prompts: usize, resources: usize) {
        if let Some(s) = self
            .servers
            .get_mut(server)
            .filter(|s| s.state == ServerState::Connected)
        {
            s.prompt_count = prompts;
            s.resource_count = resources;
        }
    }

    /// Turns a server off (the driver closes its session; a running attempt is queued for
    /// abort).
    pub fn disable(&mut self, server: &str) -> Result<(), PoolError> {
        let s = self
            .servers
            .get_mut(server)
            .ok_or_else(|| PoolError::UnknownServer(server.to_string()))?;
        if s.state == ServerState::Disabled {
            return Ok(());
        }
        if let Some(a) = s.attempt.take() {
            self.aborts.push_back(a);
        }
        s.off = Some(Off::User);
        s.retry_at = None;
        s.connected_at = None;
        self.transition(server, ServerState::Disabled, None);
        Ok(())
    }

    /// The host approves a server only the project layer defines (waiting, or rejected
    /// before): it connects. Returns false for a server that needed no approval.
    pub fn approve(&mut self, server: &str) -> Result<bool, PoolError> {
        let s = self
            .servers
            .get_mut(server)
            .ok_or_else(|| PoolError::UnknownServer(server.to_string()))?;
        let waiting = s.state == ServerState::PendingApproval
            || (s.state == ServerState::Disabled && s.off == Some(Off::Rejected));
        if !waiting {
            return Ok(false);
        }
        s.project = Some(ProjectEntry::Approved);
        s.off = None;
        s.last_error = None;
        self.reset_budget(server);
        self.transition(server, ServerState::Pending, None);
        Ok(true)
    }

    /// The host rejects a server only the project layer defines: it stays off (`disabled`,
    /// `NOT_APPROVED`) until approved. Returns false for a server that needed no approval.
    pub fn reject(&mut self, server: &str) -> Result<bool, PoolError> {
        let s = self
            .servers
            .get_mut(server)
            .ok_or_else(|| PoolError::UnknownServer(server.to_string()))?;
        if s.state != ServerState::PendingApproval {
            return Ok(false);
        }
        s.off = Some(Off::Rejected);
        let e = PoolError::NotApproved {
            server: server.to_string(),
        };
        self.transition(server, ServerState::Disabled, Some(e));
        Ok(true)
    }

    /// Turns a server on again (fresh retry budget). Servers refused by policy or dropped as
    /// duplicates stay off and the refusal is returned; a project server nobody approved goes
    /// back to waiting for approval.
    pub fn enable(&mut self, server: &str) -> Result<(), PoolError> {
        let s = self
            .servers
            .get_mut(server)
            .ok_or_else(|| PoolError::UnknownServer(server.to_string()))?;
        if s.state != ServerState::Disabled {
            return Ok(());
        }
        let unapproved = s.project == Some(ProjectEntry::Added);
        match s.off {
            Some(Off::Policy | Off::Duplicate | Off::Rejected) => {
                return Err(s.last_error.clone().unwrap_or(PoolError::NotAllowed {
                    server: server.to_string(),
                }))
            }
            _ => s.off = None,
        }
        match s.config.clone() {
            Err(e) => self.transition(server, ServerState::Failed, Some(e)),
            Ok(c)
                if matches!(c.transport, Transport::Stdio { .. })
                    && !self.options.supports_stdio =>
            {
                let e = PoolError::StdioUnsupported {
                    server: server.to_string(),
                };
                self.transition(server, ServerState::Unsupported, Some(e));
            }
            Ok(_) if unapproved => self.transition(server, ServerState::PendingApproval, None),
            Ok(_) => {
                self.reset_budget(server);
                self.transition(server, ServerState::Pending, None);
            }
        }
        Ok(())
    }

    fn reset_budget(&mut self, server: &str) {
        if let Some(s) = self.servers.get_mut(server) {
            s.streak = 0;
            s.gave_up = false;
            s.slow_retries = 0;
            s.retry_at = None;
        }
    }

    /// Why a call to one of `server`'s tools cannot go through at `now`: `None` when it is
    /// connected (or unknown).
    pub fn unavailable(&self, server: &str, now: u64) -> Option<PoolError> {
        let s = self.servers.get(server)?;
        let next = s.retry_at.filter(|_| s.state == ServerState::Failed);
        (s.state != ServerState::Connected).then(|| PoolError::ServerUnavailable {
            server: server.to_string(),
            state: s.state.as_str(),
            next_retry_at: next,
            retry_in_ms: next.map(|t| t.saturating_sub(now)),
        })
    }

    /// Connect again now (user action, or auth completed after `needs-auth`): a `failed`,
    /// `needs-auth` or `connected` server goes back to `pending` with a fresh streak. Other
    /// states are left alone (returns false).
    pub fn reconnect(&mut self, server: &str) -> Result<bool, PoolError> {
        let s = self
            .servers
            .get(server)
            .ok_or_else(|| PoolError::UnknownServer(server.to_string()))?;
        if s.config.is_err()
            || !matches!(
                s.state,
                ServerState::Failed | ServerState::NeedsAuth | ServerState::Connected
            )
        {
            return Ok(false);
        }
        self.reset_budget(server);
        if let Some(s) = self.servers.get_mut(server) {
            s.connected_at = None;
        }
        self.transition(server, ServerState::Pending, None);
        Ok(true)
    }

    /// A snapshot for UIs.
    pub fn status(&self) -> PoolStatus {
        PoolStatus {
            servers: self
                .servers
                .iter()
                .map(|(name, s)| ServerStatus {
                    name: name.clone(),
                    state: s.state,
                    transport: s.config.as_ref().ok().map(|c| match c.transport {
                        Transport::Http { .. } => "http",
                        Transport::Stdio { .. } => "stdio",
                    }),
                    last_error: s.last_error.as_ref().map(|e| ErrorStatus {
                        code: e.code().to_string(),
                        message: e.to_string(),
                    }),
                    tool_count: s.tool_count,
                    prompt_count: s.prompt_count,
                    resource_count: s.resource_count,
                    era: s.era.map(Era::as_str),
                    protocol_version: s.protocol_version.clone(),
                    retries: s.streak,
                    next_retry_at: s.retry_at.filter(|_| s.state == ServerState::Failed),
                    deadline: s
                        .attempt
                        .as_ref()
                        .filter(|_| s.state == ServerState::Connecting)
                        .map(|a| a.deadline),
                    gave_up: s.gave_up,
                    slow_retry: s.slow_retries > 0 && s.state != ServerState::Connected,
                    project_entry: s.project.map(ProjectEntry::as_str),
                })
                .collect(),
            diagnostics: self
                .diagnostics
                .iter()
                .map(|e| ErrorStatus {
                    code: e.code().to_string(),
                    message: e.to_string(),
                })
                .collect(),
        }
    }
}
