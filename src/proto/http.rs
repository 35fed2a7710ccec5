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
//!   (Implemented with 204 checked first, next to 202: a 204 has no content whatever its headers.)

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
    /// `Date` (what a `Retry-After` HTTP-date is measured against).
    pub const DATE: &str = "date";
    /// `Location` (OAuth redirects read with `redirect: "manual"`).
    pub const LOCATION: &str = "location";
    /// `Cache-Control` (sent as `no-cache` on 2025-era GET streams).
    pub const CACHE_CONTROL: &str = "cache-control";
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
    /// The body (JSON text, or a form for OAuth requests), if any.
    pub body: Option<String>,
    /// What the transport must do beyond sending the above.
    pub extras: RequestExtras,
}

/// Transport instructions beyond method, URL, headers and body.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RequestExtras {
    /// Do not follow redirects: hand the 3xx and its `Location` back (the headless OAuth
    /// authorization step reads the redirect to the client's callback).
    pub manual_redirect: bool,
    /// JWTs to sign and place into the request just before it is sent (DPoP proofs, client
    /// assertions): each send gets a fresh one.
    pub proofs: Vec<crate::proto::auth::ProofSpec>,
    /// OAuth traffic to an authorization server or metadata endpoint (not MCP): the transport
    /// may route it through a separate `fetch` and observers must redact it.
    pub oauth: bool,
}

/// Sets header `name` (lower case) in `headers`: every earlier value of it, in any case, goes;
/// `value` (when given) is appended. The one way headers are replaced, so one removal loop.
pub fn put_header(headers: &mut Vec<(String, String)>, name: &str, value: Option<String>) {
    headers.retain(|(k, _)| !k.eq_ignore_ascii_case(name));
    if let Some(v) = value {
        headers.push((name.to_string(), v));
    }
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

/// Classifies a response head (MCP `basic/transports/streamable-http`, "Sending Messages to the
/// Server": the reply to a POST is `202 Accepted` with no body, or `application/json`, or
/// `text/event-stream`).
///
/// Order: 202 and 204 (no content by definition, RFC 9110 § 15.3.3 / § 15.3.5) => `Accepted`;
/// other 2xx by media type (RFC 9110 § 8.3.1: type and subtype case-insensitive, parameters
/// ignored); a 2xx with another or no media type => `Accepted` when `Content-Length` is 0, else
/// `UnexpectedContentType`; anything else => `HttpError`.
pub fn classify(head: &ResponseHead) -> ResponseKind {
    let status = head.status;
    if !(200..300).contains(&status) {
        return ResponseKind::HttpError { status };
    }
    if status == 202 || status == 204 {
        return ResponseKind::Accepted;
    }
    let content_type = head.header(names::CONTENT_TYPE).unwrap_or("");
    if is_json(content_type) {
        return ResponseKind::Json;
    }
    if is_event_stream(content_type) {
        return ResponseKind::EventStream;
    }
    match head.header(names::CONTENT_LENGTH).map(trim_ows) {
        Some("0") => ResponseKind::Accepted,
        _ => ResponseKind::UnexpectedContentType,
    }
}

/// The media type of a `Content-Type` value (`type/subtype`), parameters and surrounding
/// whitespace removed, case kept (RFC 9110 § 8.3.1).
pub fn media_type(content_type: &str) -> &str {
    let end = content_type.find(';').unwrap_or(content_type.len());
    trim_ows(&content_type[..end])
}

/// Whether a `Content-Type` value names `application/json` (case-insensitive, parameters ignored).
pub fn is_json(content_type: &str) -> bool {
    media_type(content_type).eq_ignore_ascii_case(mime::JSON)
}

/// Whether a `Content-Type` value names `text/event-stream` (case-insensitive, parameters ignored).
pub fn is_event_stream(content_type: &str) -> bool {
    media_type(content_type).eq_ignore_ascii_case(mime::EVENT_STREAM)
}

/// The `Retry-After` delay in milliseconds when it is given as delay-seconds (RFC 9110 § 10.2.3:
/// `1*DIGIT`); an HTTP-date (which would need a clock) or anything else gives `None`. Huge values
/// saturate rather than fail.
pub fn retry_after_ms(head: &ResponseHead) -> Option<u64> {
    let value = trim_ows(head.header(names::RETRY_AFTER)?);
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let seconds = value.bytes().fold(0u64, |acc, b| {
        acc.saturating_mul(10).saturating_add(u64::from(b - b'0'))
    });
    Some(seconds.saturating_mul(1000))
}

/// Trims optional whitespace (`OWS = *( SP / HTAB )`, RFC 9110 § 5.6.3).
fn trim_ows(s: &str) -> &str {
    s.trim_matches([' ', '\t'])
}
