//! The transport layer's one error type.
//!
//! Carries no `JsValue`: what a JS error said is copied into strings so the error stays
//! `Clone + PartialEq` and can cross into the sans-IO core and back out to the JS surface.

use std::fmt;

/// Why a transport could not send a request or read its response.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TransportError {
    /// The request never got a response head: connection refused, DNS failure, TLS failure, a
    /// network-level reset. Fetch reports all of these as an opaque `TypeError` (WHATWG Fetch
    /// § 4.1 "main fetch", a network error).
    Network {
        /// What the runtime said (`TypeError: fetch failed`, `Failed to fetch`, ...).
        message: String,
    },
    /// A cross-origin request failed in a browser-like scope, most likely because the server does
    /// not answer CORS (WHATWG Fetch § 3.2 "CORS protocol"). The diagnosis names the headers the
    /// server must allow and expose.
    Cors {
        /// A human-readable explanation and fix; see [`crate::transport::cors::diagnose`].
        diagnosis: String,
    },
    /// The request's `AbortController` fired (by the driver, a timeout, or a followed user
    /// signal) before the response or its body was complete (WHATWG DOM § 3.1 "abort").
    Aborted,
    /// The response head arrived but reading its body failed before the end of the stream:
    /// the connection dropped mid-body, the chunked framing was cut, or the content length was
    /// not reached (WHATWG Streams "ReadableStreamDefaultReader.read()" rejected).
    BodyRead {
        /// What the runtime said.
        message: String,
    },
    /// The request could not be built: an invalid URL, a header name or value that fetch rejects
    /// (WHATWG Fetch § 5.2 `Headers.append` throws a `TypeError`).
    InvalidRequest {
        /// What was wrong.
        message: String,
    },
    /// The host-injected `fetch` function returned (or resolved to) something that is not a
    /// `Response`.
    InvalidResponse {
        /// What was received.
        message: String,
    },
    /// This JS scope lacks something the transport needs (no global `fetch`, no
    /// `AbortController`, no `setTimeout`).
    Unsupported {
        /// What is missing.
        message: String,
    },
}

impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TransportError::Network { message } => write!(f, "network error: {message}"),
            TransportError::Cors { diagnosis } => write!(f, "CORS failure: {diagnosis}"),
            TransportError::Aborted => f.write_str("request aborted"),
            TransportError::BodyRead { message } => {
                write!(f, "response body ended abnormally: {message}")
            }
            TransportError::InvalidRequest { message } => write!(f, "invalid request: {message}"),
            TransportError::InvalidResponse { message } => {
                write!(f, "injected fetch returned an invalid response: {message}")
            }
            TransportError::Unsupported { message } => {
                write!(f, "unsupported JS environment: {message}")
            }
        }
    }
}

impl std::error::Error for TransportError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_the_kind_and_keeps_the_message() {
        let e = TransportError::BodyRead {
            message: "TypeError: terminated".into(),
        };
        assert_eq!(
            e.to_string(),
            "response body ended abnormally: TypeError: terminated"
        );
        assert_eq!(TransportError::Aborted.to_string(), "request aborted");
        assert_ne!(e.clone(), TransportError::Aborted);
    }
}
