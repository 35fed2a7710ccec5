//! The session layer's error enum.

use serde_json::Value;
use std::fmt;

use crate::proto::auth::AuthError;
use crate::proto::headers::HeaderError;
use crate::proto::jsonrpc::JsonRpcError;
use crate::proto::sse::SseError;

/// Errors of the MCP session layer. Clonable and comparable; carries no runtime types.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ProtocolError {
    /// The server answered with a JSON-RPC error.
    Rpc {
        /// The code.
        code: i64,
        /// The message.
        message: String,
        /// The data member, when present.
        data: Option<Value>,
    },
    /// The server answered with an HTTP error status and no JSON-RPC error (429 and 503 always
    /// end here, whatever their body).
    HttpStatus {
        /// The status.
        status: u16,
        /// The start of the body (at most 4 KiB).
        body: String,
        /// The delay the last response's `Retry-After` asked for (429 and 503), when it had one:
        /// the retries are used up or the delay would pass the request's deadline.
        retry_after_ms: Option<u64>,
        /// When `body` was cut: how many bytes the server sent in all.
        body_length: Option<u64>,
    },
    /// 401 or 403: the server wants (other) credentials.
    Unauthorized {
        /// The status (401 or 403).
        status: u16,
        /// The `WWW-Authenticate` header, when readable.
        www_authenticate: Option<String>,
    },
    /// The request took too long.
    Timeout {
        /// The limit that fired, in milliseconds.
        after_ms: u64,
        /// Whether the hard total limit fired (rather than the inactivity limit).
        total: bool,
    },
    /// The caller cancelled.
    Cancelled,
    /// No response: the transport failed.
    Network(String),
    /// The browser blocked the exchange by CORS.
    Cors(String),
    /// The response stream ended or broke before the response.
    StreamDropped {
        /// How many times the request was re-issued or resumed before giving up.
        attempts: u32,
        /// The server accepted a request that executes something (a `tools/call` or another
        /// method outside the read-only set) before the stream broke: it may have run. Such a
        /// request is re-issued only when it is known to be idempotent.
        may_have_run: bool,
    },
    /// A message could not be decoded.
    InvalidMessage(JsonRpcError),
    /// A stdio server wrote a line to stdout that is not a JSON-RPC message (servers MUST NOT,
    /// MCP `basic/transports/stdio`); `line` is its beginning.
    StdoutNotJsonRpc {
        /// The beginning of the line.
        line: String,
    },
    /// The event stream could not be decoded.
    Sse(SseError),
    /// A JSON body was larger than the configured limit.
    BodyTooLarge {
        /// The limit.
        limit: usize,
    },
    /// An event (or a line) of a response's event stream was larger than the configured limit:
    /// the response was abandoned at once and the request is not re-issued.
    EventTooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
    /// A success response with a content type the client cannot read.
    UnexpectedContentType(String),
    /// A result did not have the shape the method requires.
    InvalidResult(String),
    /// A tool's `structuredContent` does not conform to its `outputSchema`.
    OutputSchemaMismatch {
        /// The tool.
        tool: String,
        /// What did not conform (instance path: message).
        errors: Vec<String>,
    },
    /// No protocol version both sides support.
    UnsupportedProtocolVersion {
        /// What the client asked for.
        requested: String,
        /// What the server offered.
        supported: Vec<String>,
    },
    /// The server speaks only the deprecated 2024-11-05 HTTP+SSE transport, which this client
    /// does not implement (MCP 2026-07-28 `basic/transports/streamable-http` "Backward
    /// Compatibility").
    LegacyHttpSseServer {
        /// The `endpoint` event's data.
        endpoint: String,
    },
    /// The operation needs a connected session.
    NotConnected,
    /// The session was closed.
    Closed,
    /// The tool was rejected from `tools/list` (invalid `x-mcp-header`).
    ToolRejected {
        /// The tool.
        name: String,
        /// The reason.
        reason: HeaderError,
    },
    /// The server asked for input more often than `max_input_rounds` allows.
    TooManyInputRounds(u32),
    /// A result type this client does not handle (e.g. `task` without the tasks extension).
    UnsupportedResultType(String),
    /// The server's session id contains characters outside visible ASCII.
    InvalidSessionId,
    /// The input id is unknown or already answered.
    UnknownInput,
    /// The configuration is inconsistent.
    InvalidConfig(String),
    /// Authorization failed or was refused (see [`AuthError::code`] for the stable codes).
    Auth(AuthError),
    /// A request's `_meta` value breaks its format (a `traceparent` that is not W3C Trace
    /// Context, an unknown log level); nothing was sent.
    InvalidMeta(String),
    /// The task ended with the JSON-RPC error its request would have returned (ext-tasks
    /// "Task Execution Errors"; MCP 2025-11-25 `tasks/result`).
    TaskFailed {
        /// The task.
        task_id: String,
        /// The error.
        error: Box<crate::proto::jsonrpc::ErrorObject>,
    },
    /// The task was cancelled (by the server, or by another client).
    TaskCancelled {
        /// The task.
        task_id: String,
        /// The server's status message, when it sent one.
        message: Option<String>,
    },
    /// The task is gone: the server no longer knows it (`-32602`), or its TTL ran out before it
    /// ended.
    TaskExpired {
        /// The task.
        task_id: String,
        /// Which of the two.
        reason: String,
    },
    /// The client stopped waiting for a task (`max_task_wait_ms`, or polls that kept failing);
    /// the task itself may still run and can be resumed by its id.
    TaskTimeout {
        /// The task.
        task_id: String,
        /// The limit that passed, in ms.
        after_ms: u64,
    },
}

impl ProtocolError {
    /// A stable machine-readable code, as the JS surface exposes it.
    pub fn code(&self) -> &'static str {
        match self {
            ProtocolError::Rpc { .. } => "RPC",
            ProtocolError::HttpStatus { .. } => "HTTP_STATUS",
            ProtocolError::Unauthorized { .. } => "UNAUTHORIZED",
            ProtocolError::Timeout { .. } => "TIMEOUT",
            ProtocolError::Cancelled => "ABORTED",
            ProtocolError::Network(_) => "NETWORK",
            ProtocolError::Cors(_) => "CORS",
            ProtocolError::StreamDropped { .. } => "STREAM_DROPPED",
            ProtocolError::LegacyHttpSseServer { .. } => "LEGACY_TRANSPORT",
            ProtocolError::UnsupportedProtocolVersion { .. } => "UNSUPPORTED_VERSION",
            ProtocolError::NotConnected => "NOT_CONNECTED",
            ProtocolError::Closed => "CLOSED",
            ProtocolError::ToolRejected { .. } => "TOOL_REJECTED",
            ProtocolError::InvalidConfig(_) => "CONFIG",
            ProtocolError::OutputSchemaMismatch { .. } => "OUTPUT_SCHEMA",
            ProtocolError::Auth(e) => e.code(),
            ProtocolError::EventTooLarge { .. } => "EVENT_TOO_LARGE",
            ProtocolError::BodyTooLarge { .. } => "BODY_TOO_LARGE",
            ProtocolError::InvalidMeta(_) => "INVALID_META",
            ProtocolError::TaskFailed { .. } => "TASK_FAILED",
            ProtocolError::TaskCancelled { .. } => "TASK_CANCELLED",
            ProtocolError::TaskExpired { .. } => "TASK_EXPIRED",
            ProtocolError::TaskTimeout { .. } => "TASK_TIMEOUT",
            _ => "PROTOCOL",
        }
    }
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProtocolError::Rpc { code, message, .. } => write!(f, "server error {code}: {message}"),
            ProtocolError::HttpStatus {
                status,
                body,
                retry_after_ms,
                body_length,
            } => {
                write!(f, "HTTP {status}")?;
                if !body.is_empty() {
                    write!(f, ": {body}")?;
                }
                if let Some(n) = body_length {
                    write!(f, " [body cut; the server sent {n} bytes]")?;
                }
                match retry_after_ms {
                    Some(ms) => write!(f, " (the server asked to retry after {ms} ms)"),
                    None => Ok(()),
                }
            }
            ProtocolError::Unauthorized {
                status,
                www_authenticate,
            } => match www_authenticate {
                Some(w) => write!(f, "HTTP {status}: authorization required ({w})"),
                None => write!(f, "HTTP {status}: authorization required"),
            },
            ProtocolError::Timeout {
                after_ms,
                total: false,
            } => {
                write!(f, "no response or progress within {after_ms} ms")
            }
            ProtocolError::Timeout {
                after_ms,
                total: true,
            } => {
                write!(
                    f,
                    "request exceeded its maximum total time of {after_ms} ms"
                )
            }
            ProtocolError::Cancelled => f.write_str("request cancelled"),
            ProtocolError::Network(m) => write!(f, "network error: {m}"),
            ProtocolError::Cors(m) => write!(f, "blocked by CORS: {m}"),
            ProtocolError::StreamDropped {
                attempts,
                may_have_run,
            } => {
                f.write_str("response stream ended before the response")?;
                if *may_have_run {
                    f.write_str(" after the server accepted the request: it may have run")?;
                }
                match (attempts, may_have_run) {
                    (0, true) => f.write_str(
                        "; not sent again (mark a call that is safe to repeat as idempotent)",
                    ),
                    (0, false) => Ok(()),
                    (n, _) => write!(f, " (after {n} retries)"),
                }
            }
            ProtocolError::InvalidMessage(e) => write!(f, "invalid JSON-RPC message: {e}"),
            ProtocolError::StdoutNotJsonRpc { line } => write!(
                f,
                "the server wrote a line to stdout that is not a JSON-RPC message: {line:?}"
            ),
            ProtocolError::Sse(e) => write!(f, "invalid event stream: {e:?}"),
            ProtocolError::BodyTooLarge { limit } => {
                write!(f, "response body exceeds the {limit}-byte limit")
            }
            ProtocolError::EventTooLarge { limit } => write!(
                f,
                "an event of the response stream exceeds the {limit}-byte limit; the response \
                 was abandoned"
            ),
            ProtocolError::UnexpectedContentType(c) => {
                write!(f, "unexpected response content type {c:?}")
            }
            ProtocolError::InvalidResult(m) => write!(f, "invalid result: {m}"),
            ProtocolError::OutputSchemaMismatch { tool, errors } => write!(
                f,
                "the result of {tool:?} does not match its outputSchema: {}",
                errors.join("; ")
            ),
            ProtocolError::UnsupportedProtocolVersion {
                requested,
                supported,
            } => write!(
                f,
                "no common protocol version: asked for {requested}, server supports [{}]",
                supported.join(", ")
            ),
            ProtocolError::LegacyHttpSseServer { endpoint } => write!(
                f,
                "this server speaks only the deprecated 2024-11-05 HTTP+SSE transport (endpoint \
                 event: {endpoint:?}); mcp-edge supports Streamable HTTP only"
            ),
            ProtocolError::NotConnected => f.write_str("not connected"),
            ProtocolError::Closed => f.write_str("session closed"),
            ProtocolError::ToolRejected { name, reason } => {
                write!(
                    f,
                    "tool {name:?} was rejected: invalid x-mcp-header ({reason:?})"
                )
            }
            ProtocolError::TooManyInputRounds(n) => {
                write!(f, "server asked for input more than {n} times")
            }
            ProtocolError::UnsupportedResultType(t) => write!(f, "unsupported resultType {t:?}"),
            ProtocolError::InvalidSessionId => {
                f.write_str("server sent an Mcp-Session-Id with characters outside visible ASCII")
            }
            ProtocolError::UnknownInput => f.write_str("unknown or already answered input"),
            ProtocolError::InvalidConfig(m) => write!(f, "invalid configuration: {m}"),
            ProtocolError::Auth(e) => e.fmt(f),
            ProtocolError::InvalidMeta(m) => write!(f, "invalid request _meta: {m}"),
            ProtocolError::TaskFailed { task_id, error } => write!(
                f,
                "task {task_id} failed: server error {}: {}",
                error.code, error.message
            ),
            ProtocolError::TaskCancelled { task_id, message } => match message {
                Some(m) => write!(f, "task {task_id} was cancelled: {m}"),
                None => write!(f, "task {task_id} was cancelled"),
            },
            ProtocolError::TaskExpired { task_id, reason } => {
                write!(f, "task {task_id} is gone: {reason}")
            }
            ProtocolError::TaskTimeout { task_id, after_ms } => write!(
                f,
                "stopped waiting for task {task_id} after {after_ms} ms; it may still run (resume it by its id)"
            ),
        }
    }
}

impl std::error::Error for ProtocolError {}
