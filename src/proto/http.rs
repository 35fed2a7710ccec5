//! HTTP framing as plain data: the requests the session wants sent, the response heads it is given,
//! and the pure classification of a response (MCP `basic/transports/streamable-http`).
//!
//! CONTRACT (implemented by the framing work item; signatures fixed):
//! - `names::*`: every header name the client uses, lowercase, in this one place.
//! - `ResponseHead::header(name)`: case-insensitive lookup (RFC 9110 § 5.1).
//! - `classify(&ResponseHead) -> ResponseKind`: 202 => Accepted; 2xx with `application/json`
//!   (parameters such as charset ignored, case-insensitive) => Json; 2xx `text/event-stream` =>
//!   EventStream; any other 2xx => Accepted if status is 204 or content-length is 0, else
//!   UnexpectedContentType; non-2xx => HttpError { status }.

/// Header names, lowercase (header names are case-insensitive; values are not).
pub mod names {
    /// `Accept`.
    pub const ACCEPT: &str = "accept";
    /// `Content-Type`.
    pub const CONTENT_TYPE: &str = "content-type";
    /// `Content-Length`.
    pub const CONTENT_LENGTH: &str = "content-length";
    /// `Authorization`.
    pub const AUTHORIZATION: &str = "authorization";
    /// `WWW-Authenticate`.
    pub const WWW_AUTHENTICATE: &str = "www-authenticate";
    /// `MCP-Protocol-Version`.
    pub const MCP_PROTOCOL_VERSION: &str = "mcp-protocol-version";
    /// `Mcp-Session-Id` (2025 era).
    pub const MCP_SESSION_ID: &str = "mcp-session-id";
    /// `Mcp-Method` (2026-07-28).
    pub const MCP_METHOD: &str = "mcp-method";
    /// `Mcp-Name` (2026-07-28).
    pub const MCP_NAME: &str = "mcp-name";
    /// Prefix of `Mcp-Param-{Name}` (2026-07-28).
    pub const MCP_PARAM_PREFIX: &str = "mcp-param-";
    /// `Last-Event-ID` (2025 era resumption).
    pub const LAST_EVENT_ID: &str = "last-event-id";
    /// `Retry-After`.
    pub const RETRY_AFTER: &str = "retry-after";
}

/// MIME types the client sends and accepts.
pub mod mime {
    /// `application/json`.
    pub const JSON: &str = "application/json";
    /// `text/event-stream`.
    pub const EVENT_STREAM: &str = "text/event-stream";
    /// The `Accept` value for POSTs: both, as the transport requires.
    pub const ACCEPT_POST: &str = "application/json, text/event-stream";
}

/// An HTTP method the client uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// GET (2025-era server stream and resumption).
    Get,
    /// POST (every message).
    Post,
    /// DELETE (2025-era session end).
    Delete,
}

impl Method {
    /// The method token.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Delete => "DELETE",
        }
    }
}

/// A request the transport must send, as data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpRequest {
    /// The method.
    pub method: Method,
    /// The absolute URL.
    pub url: String,
    /// Header name/value pairs, names lowercase, in the order to send.
    pub headers: Vec<(String, String)>,
    /// The body (JSON text), if any.
    pub body: Option<String>,
}

impl HttpRequest {
    /// The first value of a header, case-insensitively.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// The status and headers of a response.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ResponseHead {
    /// The status code.
    pub status: u16,
    /// Header name/value pairs as received.
    pub headers: Vec<(String, String)>,
}

impl ResponseHead {
    /// The first value of a header, case-insensitively.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What a response is, judged from its head alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResponseKind {
    /// 202 Accepted or an empty success: no body to read.
    Accepted,
    /// A single JSON message.
    Json,
    /// An SSE stream.
    EventStream,
    /// A 2xx with a content type the client cannot read.
    UnexpectedContentType,
    /// A non-2xx status; the body (if any) may hold a JSON-RPC error.
    HttpError {
        /// The status code.
        status: u16,
    },
}

/// Classifies a response head.
pub fn classify(head: &ResponseHead) -> ResponseKind {
    let _ = head;
    ResponseKind::Accepted
}
