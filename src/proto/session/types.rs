//! Identifiers, configuration, events and commands of the session.

use serde_json::{json, Value};

use super::error::ProtocolError;
use crate::proto::http::HttpRequest;
use crate::proto::sse::DecoderConfig;

/// The modern (per-request metadata) protocol version (MCP 2026-07-28 `basic/versioning`).
pub const MODERN_VERSION: &str = "2026-07-28";
/// Legacy (initialize-based) versions this client speaks, newest first.
pub const LEGACY_VERSIONS: [&str; 3] = ["2025-11-25", "2025-06-18", "2025-03-26"];

/// `_meta` key carrying the protocol version on every 2026-07-28 request.
pub const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// `_meta` key carrying the client capabilities on every 2026-07-28 request.
pub const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// `_meta` key carrying the client info on every 2026-07-28 request.
pub const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// `_meta` key carrying the server info on 2026-07-28 results.
pub const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
/// `_meta` key carrying the subscription id on `subscriptions/listen` streams.
pub const META_SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// Which protocol era a server speaks (MCP 2026-07-28 `basic/versioning` "Terminology").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Era {
    /// 2026-07-28 and later: stateless, `_meta` on every request.
    Modern,
    /// 2025-03-26 .. 2025-11-25: `initialize`, sessions, GET stream.
    Legacy,
}

impl Era {
    /// `"modern"` or `"legacy"`, as status objects and the JS surface spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Era::Modern => "modern",
            Era::Legacy => "legacy",
        }
    }

    /// The era [`Era::as_str`] spells `s`.
    pub fn parse(s: &str) -> Option<Era> {
        match s {
            "modern" => Some(Era::Modern),
            "legacy" => Some(Era::Legacy),
            _ => None,
        }
    }
}

/// What the client asks for at connect time.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum ProtocolChoice {
    /// Try 2026-07-28, fall back to `initialize` per the spec's backward-compatibility rules.
    #[default]
    Auto,
    /// Exactly this version (modern or legacy); no fallback.
    Exact(String),
}

/// How messages travel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// Streamable HTTP: every message is its own POST; responses are JSON or SSE.
    Http,
    /// stdio: newline-delimited JSON on one bidirectional channel (MCP `basic/transports/stdio`);
    /// the driver takes lines from [`super::Session::poll_line`] and feeds the server's output to
    /// [`super::Session::handle_stdio`].
    Stdio,
}

/// Bounds of the 2025-era stream reconnection and resumption loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReconnectPolicy {
    /// Delay before the first reconnect when the server sent no `retry` field.
    pub initial_delay_ms: u64,
    /// Upper bound of any delay (a server's `retry` included).
    pub max_delay_ms: u64,
    /// Consecutive attempts that deliver no event before the stream is given up.
    pub max_attempts: u32,
}

impl Default for ReconnectPolicy {
    fn default() -> Self {
        Self {
            initial_delay_ms: 1_000,
            max_delay_ms: 30_000,
            max_attempts: 5,
        }
    }
}

/// Everything the session needs to know up front.
#[derive(Debug, Clone)]
pub struct SessionConfig {
    /// The MCP endpoint URL (ignored for stdio).
    pub endpoint: String,
    /// HTTP or stdio.
    pub framing: Framing,
    /// stdio: how long the `server/discover` probe may stay unanswered before the server is
    /// taken for a legacy one (MCP 2026-07-28 `basic/transports/stdio` "Backward Compatibility").
    pub probe_timeout_ms: u64,
    /// Version selection.
    pub protocol: ProtocolChoice,
    /// The era detected earlier for this origin, if the host cached it (MCP 2026-07-28
    /// `basic/versioning`: "Clients SHOULD cache the result for the lifetime of the ... origin").
    pub known_era: Option<Era>,
    /// `Implementation` object sent as client info.
    pub client_info: Value,
    /// Client capabilities object (without `extensions`: see the next member).
    pub capabilities: Value,
    /// The extensions the client declares, by identifier, with their settings (MCP 2026-07-28
    /// `basic/versioning` "Extension Negotiation"). Sent as `capabilities.extensions`: in every
    /// request's `_meta` in 2026-07-28, in `initialize` in the 2025 era. By default the Tasks
    /// extension ([`super::TASKS_EXTENSION`]); remove it and a server may not make tasks.
    pub extensions: serde_json::Map<String, Value>,
    /// How long a task's op waits for the task to end, polling (`None`: until its TTL). When
    /// it passes, the op fails with [`ProtocolError::TaskTimeout`] and the task is left running.
    pub max_task_wait_ms: Option<u64>,
    /// Extra headers sent on every request (e.g. `authorization`).
    pub headers: Vec<(String, String)>,
    /// Per-request timeout; reset by progress notifications. `None` = no limit.
    pub request_timeout_ms: Option<u64>,
    /// Hard limit per request, progress or not. Must be >= `request_timeout_ms` when both are set.
    pub max_total_timeout_ms: Option<u64>,
    /// Deadline of the connect operation as a whole (discovery, `initialize`, the era fallback):
    /// it fails with [`ProtocolError::Timeout`] once this much time passed since it started,
    /// whatever the request timeouts. `None`: the request timeouts alone bound it.
    pub connect_timeout_ms: Option<u64>,
    /// Most pages one list operation follows.
    pub max_pages: usize,
    /// Most `input_required` rounds one request may take (MRTR).
    pub max_input_rounds: u32,
    /// How often a 2026-era request whose stream broke is re-issued with a new id. Only requests
    /// that are safe to run twice are re-issued (see [`RequestOptions::idempotent`]).
    pub max_reissues: u32,
    /// How often a request refused with 429 or 503 and a `Retry-After` is sent again (each wait
    /// must end before the request's deadline).
    pub max_retry_after: u32,
    /// 2025 era: open the optional GET stream after initialization.
    pub open_get_stream: bool,
    /// 2025-era reconnection bounds (GET stream and POST-stream resumption).
    pub reconnect: ReconnectPolicy,
    /// SSE decoder limits. An event over `max_event_bytes` (or a line over `max_line_bytes`) ends
    /// its request with [`ProtocolError::EventTooLarge`].
    pub sse: DecoderConfig,
    /// Largest JSON body accepted ([`ProtocolError::BodyTooLarge`] beyond it).
    pub max_json_bytes: usize,
    /// Seed of the jitter generator (the core draws no randomness of its own).
    pub jitter_seed: u64,
    /// OAuth authorization for this server (MCP `basic/authorization`): a 401/403 runs the flow
    /// and the refused request is replayed. `None`: 401/403 fail with `Unauthorized`.
    pub auth: Option<crate::proto::auth::AuthConfig>,
    /// The Unix time (ms) of this session's time 0, for absolute token expiry.
    pub unix_epoch_ms: u64,
}

impl SessionConfig {
    /// A configuration with the defaults for `endpoint`.
    pub fn new(endpoint: impl Into<String>) -> Self {
        Self {
            endpoint: endpoint.into(),
            framing: Framing::Http,
            probe_timeout_ms: 5_000,
            protocol: ProtocolChoice::Auto,
            known_era: None,
            client_info: json!({"name": "mcp-edge", "version": env!("CARGO_PKG_VERSION")}),
            capabilities: json!({}),
            extensions: {
                let mut m = serde_json::Map::new();
                m.insert(super::TASKS_EXTENSION.into(), json!({}));
                m
            },
            max_task_wait_ms: Some(24 * 60 * 60 * 1000),
            headers: Vec::new(),
            request_timeout_ms: Some(60_000),
            max_total_timeout_ms: None,
            connect_timeout_ms: None,
            max_pages: 64,
            max_input_rounds: 8,
            max_reissues: 1,
            max_retry_after: 3,
            open_get_stream: true,
            reconnect: ReconnectPolicy::default(),
            sse: DecoderConfig::default(),
            max_json_bytes: 16 << 20,
            jitter_seed: 0x9e37_79b9_7f4a_7c15,
            auth: None,
            unix_epoch_ms: 0,
        }
    }

    /// A configuration for a stdio server.
    pub fn stdio() -> Self {
        let mut c = Self::new("");
        c.framing = Framing::Stdio;
        c.open_get_stream = false;
        c
    }

    /// The client capabilities as sent: [`SessionConfig::capabilities`] with the extensions
    /// under `extensions` (MCP 2026-07-28 `basic/versioning` "Extension Negotiation"; in the 2025
    /// era the same object goes into `initialize`).
    pub fn declared_capabilities(&self) -> Value {
        let mut caps = match &self.capabilities {
            Value::Object(m) => m.clone(),
            _ => serde_json::Map::new(),
        };
        if !self.extensions.is_empty() {
            let ext = caps
                .entry("extensions")
                .or_insert_with(|| Value::Object(serde_json::Map::new()));
            if let Value::Object(e) = ext {
                for (k, v) in &self.extensions {
                    e.entry(k.clone()).or_insert_with(|| v.clone());
                }
            }
        }
        Value::Object(caps)
    }

    /// Checks the configuration's internal consistency.
    pub fn validate(&self) -> Result<(), ProtocolError> {
        if let (Some(inner), Some(outer)) = (self.request_timeout_ms, self.max_total_timeout_ms) {
            if inner > outer {
                return Err(ProtocolError::InvalidConfig(format!(
                    "request timeout ({inner} ms) exceeds the maximum total timeout ({outer} ms)"
                )));
            }
        }
        if let ProtocolChoice::Exact(v) = &self.protocol {
            if v != MODERN_VERSION && !LEGACY_VERSIONS.contains(&v.as_str()) {
                return Err(ProtocolError::InvalidConfig(format!(
                    "unsupported protocol version {v:?}; supported: {MODERN_VERSION}, {}",
                    LEGACY_VERSIONS.join(", ")
                )));
            }
        }
        if let Some(a) = &self.auth {
            if self.framing == Framing::Stdio {
                return Err(ProtocolError::InvalidConfig(
                    "OAuth applies to HTTP servers; a stdio server takes its credentials from the environment (MCP basic/authorization)".into(),
                ));
            }
            a.validate().map_err(ProtocolError::Auth)?;
        }
        for id in self.extensions.keys() {
            check_extension_id(id)?;
        }
        if self.max_pages == 0 {
            return Err(ProtocolError::InvalidConfig(
                "max_pages must be at least 1".into(),
            ));
        }
        Ok(())
    }
}

/// An extension identifier: a `_meta` key with its mandatory prefix (MCP 2026-07-28
/// `basic/versioning` "Extension Negotiation", `basic/index` "_meta"): `prefix/name`, the prefix
/// dot-separated labels (each starting with a letter, ending with a letter or digit, hyphens
/// inside), the name starting and ending alphanumeric with `-`, `_`, `.` inside.
pub fn check_extension_id(id: &str) -> Result<(), ProtocolError> {
    let bad = || {
        ProtocolError::InvalidConfig(format!(
            "extension identifier {id:?} must be prefix/name, e.g. io.modelcontextprotocol/tasks"
        ))
    };
    let (prefix, name) = id.split_once('/').ok_or_else(bad)?;
    let label_ok = |l: &str| {
        let b = l.as_bytes();
        !b.is_empty()
            && b[0].is_ascii_alphabetic()
            && b[b.len() - 1].is_ascii_alphanumeric()
            && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
    };
    let nb = name.as_bytes();
    let name_ok = !nb.is_empty()
        && nb[0].is_ascii_alphanumeric()
        && nb[nb.len() - 1].is_ascii_alphanumeric()
        && nb
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'));
    if prefix.split('.').all(label_ok) && name_ok {
        Ok(())
    } else {
        Err(bad())
    }
}

/// Identifies a user-level operation (connect, a request, a list, a subscription, close).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OpId(pub u64);

/// Identifies one HTTP exchange (one request and its response) the transport carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExchangeId(pub u64);

/// Identifies one input the server asked of the client (an MRTR input request or a 2025-era
/// server-to-client request).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InputId(pub u64);

/// The paged list methods (MCP `server/utilities/pagination`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ListKind {
    /// `tools/list` -> `tools`.
    Tools,
    /// `resources/list` -> `resources`.
    Resources,
    /// `resources/templates/list` -> `resourceTemplates`.
    ResourceTemplates,
    /// `prompts/list` -> `prompts`.
    Prompts,
    /// `tasks/list` -> `tasks` (MCP 2025-11-25 `basic/utilities/tasks`; the 2026-07-28 Tasks
    /// extension has no list).
    Tasks,
}

impl ListKind {
    /// The JSON-RPC method.
    pub fn method(self) -> &'static str {
        match self {
            ListKind::Tools => "tools/list",
            ListKind::Resources => "resources/list",
            ListKind::ResourceTemplates => "resources/templates/list",
            ListKind::Prompts => "prompts/list",
            ListKind::Tasks => "tasks/list",
        }
    }
    /// The result member holding the items.
    pub fn field(self) -> &'static str {
        match self {
            ListKind::Tools => "tools",
            ListKind::Resources => "resources",
            ListKind::ResourceTemplates => "resourceTemplates",
            ListKind::Prompts => "prompts",
            ListKind::Tasks => "tasks",
        }
    }
}

/// Per-request options.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RequestOptions {
    /// Overrides the session's request timeout.
    pub timeout_ms: Option<u64>,
    /// Ask for progress notifications (adds a unique `progressToken`).
    pub progress: bool,
    /// 2025 era: whether a tool that allows tasks (`execution.taskSupport: "optional"`) is
    /// called as one; a tool that requires it always is.
    pub task: super::TaskPreference,
    /// Trace context and log level for this request's `_meta`.
    pub meta: super::RequestMeta,
    /// The caller declares the request safe to run more than once: a 2026-era response stream
    /// that breaks before the response re-issues it. Without it only requests that execute
    /// nothing (lists, reads, gets, `ping`, completion) and tools annotated `idempotentHint` or
    /// `readOnlyHint` are re-issued; others fail with [`ProtocolError::StreamDropped`].
    pub idempotent: bool,
}

/// What the server told us about itself. Its JSON (serde's and [`ServerInfo::to_json`]'s) has
/// camelCase members and the era as `"modern"` / `"legacy"`.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerInfo {
    /// The era in use.
    pub era: Era,
    /// The protocol version in use.
    pub protocol_version: String,
    /// The server's `Implementation` object, when it sent one.
    pub server_info: Option<Value>,
    /// The server's capabilities.
    pub capabilities: Value,
    /// The server's instructions, when it sent some.
    pub instructions: Option<String>,
    /// 2026 era: the versions `server/discover` listed.
    pub supported_versions: Vec<String>,
}

impl ServerInfo {
    /// As plain JSON: the connect op's result, the JS surface's shape and a snapshot's `server`.
    pub fn to_json(&self) -> Value {
        serde_json::json!({
            "era": self.era.as_str(),
            "protocolVersion": self.protocol_version,
            "serverInfo": self.server_info,
            "capabilities": self.capabilities,
            "instructions": self.instructions,
            "supportedVersions": self.supported_versions,
        })
    }

    /// Reads [`ServerInfo::to_json`]'s format (`serverInfo` and `instructions` may be absent or
    /// `null`); `None` when a member is missing or mistyped.
    pub fn from_json(v: &Value) -> Option<ServerInfo> {
        Some(ServerInfo {
            era: Era::parse(v.get("era")?.as_str()?)?,
            protocol_version: crate::util::read::string(v, "protocolVersion")?,
            server_info: v.get("serverInfo").filter(|x| !x.is_null()).cloned(),
            capabilities: v.get("capabilities")?.clone(),
            instructions: crate::util::read::opt_string(v, "instructions")?,
            supported_versions: crate::util::read::string_list(v.get("supportedVersions"))?,
        })
    }
}

impl serde::Serialize for ServerInfo {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for ServerInfo {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        Self::from_json(&Value::deserialize(d)?)
            .ok_or_else(|| D::Error::custom("not a server info object"))
    }
}

/// An HTTP request to send, tagged with the exchange it opens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transmit {
    /// The exchange whose response must be fed back with this id.
    pub exchange: ExchangeId,
    /// The request.
    pub request: HttpRequest,
}

/// How an exchange failed below HTTP, as the transport reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TransportFailure {
    /// No response: connection refused, DNS, TLS, an opaque fetch `TypeError`.
    Network(String),
    /// The browser blocked the response by CORS; the text names what the server must allow.
    Cors(String),
    /// The body broke off after the head arrived.
    BodyInterrupted(String),
}

/// One progress notification of a request (MCP `basic/utilities/progress`).
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    /// Progress so far (increases with every notification).
    pub progress: f64,
    /// The total, when the server knows it.
    pub total: Option<f64>,
    /// A message, when the server sent one.
    pub message: Option<String>,
    /// For a call the server turned into a task: the task as last reported (its status message
    /// is `message`; `progress` counts the status reports).
    pub task: Option<super::TaskInfo>,
}

/// What the session reports.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Event {
    /// The connect operation finished; the server is ready.
    Connected(ServerInfo),
    /// An operation finished.
    Completed {
        /// The operation.
        op: OpId,
        /// Its result or error. For list operations the result holds every page's items.
        result: Result<Value, ProtocolError>,
    },
    /// A progress notification for an operation (MCP `basic/utilities/progress`).
    Progress {
        /// The operation.
        op: OpId,
        /// Progress so far.
        progress: f64,
        /// Total, when known.
        total: Option<f64>,
        /// A message, when sent.
        message: Option<String>,
    },
    /// A server notification not tied to one operation (list changes, logging, resource updates,
    /// subscription acknowledgements).
    Notification {
        /// The method.
        method: String,
        /// Its params.
        params: Value,
    },
    /// The server needs input from the user (elicitation, sampling, roots): answer it with
    /// [`super::Session::answer_input`].
    InputRequest {
        /// The input to answer.
        input: InputId,
        /// The operation it belongs to (MRTR), when known.
        op: Option<OpId>,
        /// `elicitation/create`, `sampling/createMessage` or `roots/list`.
        method: String,
        /// The request params.
        params: Value,
    },
    /// A task's status or status message changed (its op drives it; see [`super::TaskInfo`]).
    TaskStatus {
        /// The operation the task belongs to.
        op: OpId,
        /// What the server said.
        task: super::TaskInfo,
        /// This report's number, from 1 (a progress callback's `progress`).
        report: u32,
    },
    /// An input request was withdrawn (its operation ended first).
    InputCancelled {
        /// The input.
        input: InputId,
    },
    /// A tool was left out of `tools/list` because its `x-mcp-header` annotations are invalid
    /// (MCP 2026-07-28 `basic/transports/streamable-http` "Schema Extension").
    ToolRejected {
        /// The tool name.
        name: String,
        /// Why.
        reason: String,
    },
    /// Something worth a log line that is not an error of any operation.
    Diagnostic {
        /// What happened.
        message: String,
    },
    /// The authorization layer needs the host (storage, entropy, a key, a person's sign-in) or
    /// reports a sign-in; see [`crate::proto::auth::AuthEvent`].
    Auth(crate::proto::auth::AuthEvent),
    /// The session ended.
    Closed,
}
