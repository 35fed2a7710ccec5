//! The pool layer's error enum (the tool adapters' own errors arrive as [`PoolError::Tool`]).

use std::fmt;

use crate::proto::session::ProtocolError;
use crate::tools::ToolError;

/// Errors of the multi-server pool and its tool adapters. Clonable and comparable; carries no
/// runtime types. Texts name servers, fields and variables, never a configured value (values may
/// hold secrets expanded from `${VAR}`).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum PoolError {
    /// The configuration document is not JSON or not shaped like `{"mcpServers": {...}}`.
    InvalidConfig {
        /// What is wrong (never quotes a value).
        reason: String,
    },
    /// A server entry's field has the wrong type or an unusable value.
    InvalidField {
        /// The server.
        server: String,
        /// The field, e.g. `headers.Authorization`.
        field: String,
        /// What is wrong (never quotes the value).
        reason: String,
    },
    /// `${VAR}` names a variable the host did not pass and that has no `:-default`.
    UndefinedVariable {
        /// The server.
        server: String,
        /// The field holding the reference.
        field: String,
        /// The variable's name.
        variable: String,
    },
    /// A server entry has neither `url` nor `command`, or both.
    InvalidTransport {
        /// The server.
        server: String,
        /// What is wrong.
        reason: String,
    },
    /// The entry was dropped because another entry has the same signature (same normalised URL,
    /// or same command and arguments).
    Duplicate {
        /// The dropped server.
        server: String,
        /// The server kept in its place.
        kept: String,
    },
    /// A deny-list rule matched the server.
    Denied {
        /// The server.
        server: String,
        /// The rule that matched, as written in the policy.
        rule: String,
    },
    /// An allow list is present and no rule in it matched the server.
    NotAllowed {
        /// The server.
        server: String,
    },
    /// The entry is a stdio server and this host cannot start processes (wasm).
    StdioUnsupported {
        /// The server.
        server: String,
    },
    /// The connect attempt did not finish within the server's timeout.
    ConnectTimeout {
        /// The server.
        server: String,
        /// The limit, in milliseconds.
        after_ms: u64,
    },
    /// The session layer failed (connect, list or call).
    Protocol(ProtocolError),
    /// No server of that name is configured.
    UnknownServer(String),
    /// A tool adapter refused: an unknown or held-back tool, an unusable definition.
    Tool(ToolError),
    /// The tool's circuit breaker is open.
    CircuitOpen {
        /// The namespaced tool name.
        name: String,
        /// When a probe call will be allowed (ms, host clock).
        retry_at: u64,
    },
    /// An option is out of range.
    InvalidOption(String),
    /// The host rejected a server only the project layer defines.
    NotApproved {
        /// The server.
        server: String,
    },
    /// The tool's server is not connected now (it failed and is being retried, waits for
    /// sign-in, or is off): the call fails at once instead of waiting.
    ServerUnavailable {
        /// The server.
        server: String,
        /// Its state (`failed`, `connecting`, `needs-auth`, ...).
        state: &'static str,
        /// When its next automatic retry may start (ms on the pool's clock, which starts at 0
        /// when the pool is made), if one is scheduled.
        next_retry_at: Option<u64>,
        /// How long until then, in milliseconds.
        retry_in_ms: Option<u64>,
    },
}

impl PoolError {
    /// A stable machine-readable code, as the JS surface exposes it.
    pub fn code(&self) -> &'static str {
        match self {
            PoolError::InvalidConfig { .. } => "CONFIG",
            PoolError::InvalidField { .. } => "CONFIG_FIELD",
            PoolError::UndefinedVariable { .. } => "UNDEFINED_VARIABLE",
            PoolError::InvalidTransport { .. } => "CONFIG_TRANSPORT",
            PoolError::Duplicate { .. } => "DUPLICATE_SERVER",
            PoolError::Denied { .. } => "DENIED",
            PoolError::NotAllowed { .. } => "NOT_ALLOWED",
            PoolError::StdioUnsupported { .. } => "STDIO_UNSUPPORTED",
            PoolError::ConnectTimeout { .. } => "TIMEOUT",
            PoolError::Protocol(e) => e.code(),
            PoolError::UnknownServer(_) => "UNKNOWN_SERVER",
            PoolError::Tool(e) => e.code(),
            PoolError::CircuitOpen { .. } => "CIRCUIT_OPEN",
            PoolError::InvalidOption(_) => "INVALID_OPTION",
            PoolError::ServerUnavailable { .. } => "SERVER_UNAVAILABLE",
            PoolError::NotApproved { .. } => "NOT_APPROVED",
        }
    }

    /// Whether the state machine should retry a connect that failed with this error: config,
    /// policy and auth errors are not retried (retrying cannot change the outcome).
    pub fn is_retryable(&self) -> bool {
        match self {
            PoolError::ConnectTimeout { .. } => true,
            // A 4xx other than 408 (timeout) and 429 (rate limit) will answer the same again.
            PoolError::Protocol(ProtocolError::HttpStatus { status, .. }) => {
                *status >= 500 || *status == 408 || *status == 429
            }
            PoolError::Protocol(p) => !matches!(
                p,
                ProtocolError::Unauthorized { .. }
                    | ProtocolError::Auth(_)
                    | ProtocolError::UnsupportedProtocolVersion { .. }
                    | ProtocolError::LegacyHttpSseServer { .. }
                    | ProtocolError::InvalidConfig(_)
                    | ProtocolError::Cors(_)
                    | ProtocolError::Cancelled
            ),
            _ => false,
        }
    }
}

impl fmt::Display for PoolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PoolError::InvalidConfig { reason } => write!(f, "invalid MCP configuration: {reason}"),
            PoolError::InvalidField {
                server,
                field,
                reason,
            } => write!(f, "server {server:?}: field {field:?}: {reason}"),
            PoolError::UndefinedVariable {
                server,
                field,
                variable,
            } => write!(
                f,
                "server {server:?}: field {field:?} uses undefined variable ${{{variable}}} (pass it in vars or write ${{{variable}:-default}})"
            ),
            PoolError::InvalidTransport { server, reason } => {
                write!(f, "server {server:?}: {reason}")
            }
            PoolError::Duplicate { server, kept } => write!(
                f,
                "server {server:?} dropped: same endpoint as server {kept:?}"
            ),
            PoolError::Denied { server, rule } => {
                write!(f, "server {server:?} is denied by policy rule {rule}")
            }
            PoolError::NotAllowed { server } => {
                write!(f, "server {server:?} matches no rule of the allow list")
            }
            PoolError::StdioUnsupported { server } => write!(
                f,
                "server {server:?} is a stdio server; this host cannot start processes"
            ),
            PoolError::ConnectTimeout { server, after_ms } => {
                write!(f, "server {server:?} did not connect within {after_ms} ms")
            }
            PoolError::Protocol(e) => write!(f, "{e}"),
            PoolError::UnknownServer(s) => write!(f, "unknown server {s:?}"),
            PoolError::Tool(e) => write!(f, "{e}"),
            PoolError::CircuitOpen { name, retry_at } => write!(
                f,
                "tool {name:?} is failing too often; calls are paused until t={retry_at} ms"
            ),
            PoolError::InvalidOption(s) => write!(f, "invalid option: {s}"),
            PoolError::NotApproved { server } => write!(
                f,
                "server {server:?} comes from the project's configuration and was not approved"
            ),
            PoolError::ServerUnavailable {
                server,
                state,
                retry_in_ms,
                ..
            } => {
                write!(f, "server {server:?} is unavailable (state {state})")?;
                match retry_in_ms {
                    Some(ms) => write!(f, "; it is retried automatically in {ms} ms"),
                    None => Ok(()),
                }
            }
        }
    }
}

impl std::error::Error for PoolError {}

impl From<ToolError> for PoolError {
    fn from(e: ToolError) -> Self {
        PoolError::Tool(e)
    }
}

impl From<ProtocolError> for PoolError {
    fn from(e: ProtocolError) -> Self {
        PoolError::Protocol(e)
    }
}
