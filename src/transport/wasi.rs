//! The wasi:http transport (wasm32-wasip2 component): one `wasi:http/outgoing-handler` request
//! per exchange, its response body read chunk by chunk from the `incoming-body` stream as bytes
//! arrive, never buffered whole, so SSE events reach the session's decoder as the server sends
//! them.
//!
//! ```text
//!   HttpRequest ─► outgoing-request (fields, method, scheme, authority, path) ─► handle()
//!                     └─ outgoing-body: write the JSON text, finish
//!   future-incoming-response ─ pollable ─► ResponseHead ─► incoming-body stream
//!                                                 └─ pollable ─► read() … closed
//! ```
//!
//! Nothing here blocks: [`WasiExchange::pollable`] hands the driver a pollable to wait on
//! (`wasi:io/poll` over all exchanges and the next timer at once) and [`WasiExchange::advance`]
//! takes whatever is ready. Dropping an exchange (the session aborted it, or its client went away)
//! drops its resources child first (pollable, then stream, then body, then response), as WASI
//! HTTP 0.2 `types` requires ("a child: it must be dropped before the parent"; a host traps
//! otherwise). Nothing more is read from that response; closing the connection is up to the
//! host.

use crate::bindings::wasi::http::outgoing_handler;
use crate::bindings::wasi::http::types::{
    ErrorCode, Fields, FutureIncomingResponse, IncomingBody, IncomingResponse,
    Method as WasiMethod, OutgoingBody, OutgoingRequest, Scheme,
};
use crate::bindings::wasi::io::poll::Pollable;
use crate::bindings::wasi::io::streams::{InputStream, StreamError};
use crate::proto::http::{HttpRequest, Method, ResponseHead};

pub use super::TransportError;

/// Most bytes taken from a body stream per read (bounds each chunk handed to the session).
pub const MAX_CHUNK_BYTES: u64 = 64 * 1024;

/// The parts of an absolute `http`/`https` URL that wasi:http asks for separately
/// (RFC 3986 § 3: `scheme "://" authority path-abempty [ "?" query ]`; the fragment is dropped,
/// it is never sent, RFC 9110 § 7.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlParts {
    /// `true` for `https`.
    pub https: bool,
    /// `host[:port]` (userinfo is refused).
    pub authority: String,
    /// The path and query, at least `/`.
    pub path_with_query: String,
}

/// Splits an absolute URL for an outgoing request.
pub fn split_url(url: &str) -> Result<UrlParts, TransportError> {
    let invalid = |why: &str| TransportError::InvalidRequest {
        message: format!("{why}: {url:?}"),
    };
    let (scheme, rest) = url
        .split_once("://")
        .ok_or_else(|| invalid("not an absolute URL"))?;
    let https = if scheme.eq_ignore_ascii_case("https") {
        true
    } else if scheme.eq_ignore_ascii_case("http") {
        false
    } else {
        return Err(invalid("only http and https URLs are supported"));
    };
    let rest = rest.split('#').next().unwrap_or_default();
    let end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    if authority.is_empty() {
        return Err(invalid("the URL has no host"));
    }
    if authority.contains('@') {
        return Err(invalid("credentials in the URL are not supported"));
    }
    let path_with_query = match tail.chars().next() {
        None => "/".to_string(),
        Some('?') => format!("/{tail}"),
        Some(_) => tail.to_string(),
    };
    Ok(UrlParts {
        https,
        authority: authority.to_string(),
        path_with_query,
    })
}

/// What [`WasiExchange::advance`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Nothing ready yet: wait on [`WasiExchange::pollable`].
    Pending,
    /// The status and headers arrived.
    Head(ResponseHead),
    /// Body bytes arrived.
    Body(Vec<u8>),
    /// The body ended cleanly.
    End,
    /// The request failed (before the head: no response; after: the body broke off).
    Failed(TransportError),
}

/// Fields are declared child first: Rust drops them in declaration order, and a WASI host refuses
/// to drop a resource whose children are still alive.
enum State {
    AwaitingHead {
        pollable: Pollable,
        future: FutureIncomingResponse,
    },
    Reading {
        pollable: Pollable,
        stream: InputStream,
        body: IncomingBody,
        _response: IncomingResponse,
    },
    Done,
}

/// One HTTP exchange in flight.
pub struct WasiExchange {
    state: State,
}

impl WasiExchange {
    /// Sends `request`: hands it to `wasi:http/outgoing-handler.handle`, then writes and finishes
    /// its body. Returns at once; the response comes through [`WasiExchange::advance`].
    pub fn send(request: &HttpRequest) -> Result<Self, TransportError> {
        let url = split_url(&request.url)?;
        let entries: Vec<(String, Vec<u8>)> = request
            .headers
            .iter()
            .map(|(k, v)| (k.clone(), v.clone().into_bytes()))
            .collect();
        let fields = Fields::from_list(&entries).map_err(|e| TransportError::InvalidRequest {
            message: format!("header refused by the host: {e:?}"),
        })?;
        let outgoing = OutgoingRequest::new(fields);
        let method = match request.method {
            Method::Get => WasiMethod::Get,
            Method::Post => WasiMethod::Post,
            Method::Delete => WasiMethod::Delete,
        };
        let scheme = if url.https {
            Scheme::Https
        } else {
            Scheme::Http
        };
        let refused = |what: &str| TransportError::InvalidRequest {
            message: format!("the host refused the request's {what}: {:?}", request.url),
        };
        outgoing
            .set_method(&method)
            .map_err(|()| refused("method"))?;
        outgoing
            .set_scheme(Some(&scheme))
            .map_err(|()| refused("scheme"))?;
        outgoing
            .set_authority(Some(&url.authority))
            .map_err(|()| refused("authority"))?;
        outgoing
            .set_path_with_query(Some(&url.path_with_query))
            .map_err(|()| refused("path"))?;
        let body = outgoing.body().map_err(|()| refused("body"))?;
        let future = outgoing_handler::handle(outgoing, None).map_err(network)?;
        write_body(body, request.body.as_deref().unwrap_or_default().as_bytes())?;
        let pollable = future.subscribe();
        Ok(WasiExchange {
            state: State::AwaitingHead { pollable, future },
        })
    }

    /// An exchange that is over: what an aborted one is replaced with (dropping the old one's
    /// resources, child first, aborts its request).
    pub fn done() -> Self {
        WasiExchange { state: State::Done }
    }

    /// What to wait on; `None` once the exchange is over.
    pub fn pollable(&self) -> Option<&Pollable> {
        match &self.state {
            State::AwaitingHead { pollable, .. } | State::Reading { pollable, .. } => {
                Some(pollable)
            }
            State::Done => None,
        }
    }

    /// Whether the exchange is over (ended or failed).
    pub fn is_done(&self) -> bool {
        matches!(self.state, State::Done)
    }

    /// Takes the next thing that is ready without blocking.
    pub fn advance(&mut self) -> Step {
        match std::mem::replace(&mut self.state, State::Done) {
            State::Done => Step::End,
            State::AwaitingHead { pollable, future } => {
                let Some(outcome) = future.get() else {
                    self.state = State::AwaitingHead { pollable, future };
                    return Step::Pending;
                };
                // Child first: the host refuses to drop a future whose pollable is alive.
                drop(pollable);
                drop(future);
                match outcome {
                    Err(()) => Step::Failed(TransportError::Network {
                        message: "the response was already taken".into(),
                    }),
                    Ok(Err(code)) => Step::Failed(network(code)),
                    Ok(Ok(response)) => self.start_reading(response),
                }
            }
            State::Reading {
                pollable,
                stream,
                body,
                _response,
            } => match stream.read(MAX_CHUNK_BYTES) {
                Ok(bytes) if bytes.is_empty() => {
                    self.state = State::Reading {
                        pollable,
                        stream,
                        body,
                        _response,
                    };
                    Step::Pending
                }
                Ok(bytes) => {
                    self.state = State::Reading {
                        pollable,
                        stream,
                        body,
                        _response,
                    };
                    Step::Body(bytes)
                }
                Err(StreamError::Closed) => {
                    drop(pollable);
                    drop(stream);
                    // Trailers are not used by MCP; dropping the future discards them.
                    drop(IncomingBody::finish(body));
                    Step::End
                }
                Err(StreamError::LastOperationFailed(e)) => {
                    let message = e.to_debug_string();
                    drop(pollable);
                    drop(stream);
                    drop(body);
                    Step::Failed(TransportError::BodyRead { message })
                }
            },
        }
    }

    fn start_reading(&mut self, response: IncomingResponse) -> Step {
        let head = ResponseHead {
            status: response.status(),
            headers: response
                .headers()
                .entries()
                .into_iter()
                .map(|(k, v)| (k, String::from_utf8_lossy(&v).into_owned()))
                .collect(),
        };
        let Ok(body) = response.consume() else {
            return Step::Failed(TransportError::BodyRead {
                message: "the response body was already taken".into(),
            });
        };
        let Ok(stream) = body.stream() else {
            return Step::Failed(TransportError::BodyRead {
                message: "the response body stream was already taken".into(),
            });
        };
        let pollable = stream.subscribe();
        self.state = State::Reading {
            pollable,
            stream,
            body,
            _response: response,
        };
        Step::Head(head)
    }
}

/// Writes the whole request body and finishes it. WASI I/O 0.2 `output-stream`
/// `blocking-write-and-flush` performs "a write of up to 4096 bytes", so the body goes in slices
/// of that size.
fn write_body(body: OutgoingBody, bytes: &[u8]) -> Result<(), TransportError> {
    let broke = |what: &str| TransportError::Network {
        message: format!("writing the request body failed: {what}"),
    };
    {
        let stream = body.write().map_err(|()| broke("no body stream"))?;
        for slice in bytes.chunks(4096) {
            stream
                .blocking_write_and_flush(slice)
                .map_err(|e| broke(&format!("{e:?}")))?;
        }
    }
    OutgoingBody::finish(body, None).map_err(network)
}

fn network(code: ErrorCode) -> TransportError {
    TransportError::Network {
        message: describe(&code),
    }
}

/// A readable description of a wasi:http error code (WASI HTTP 0.2 `types.error-code`).
pub fn describe(code: &ErrorCode) -> String {
    match code {
        ErrorCode::ConnectionRefused => "connection refused".into(),
        ErrorCode::DnsError(p) => format!(
            "DNS error{}",
            p.rcode
                .as_deref()
                .map(|r| format!(" ({r})"))
                .unwrap_or_default()
        ),
        ErrorCode::ConnectionTimeout => "connection timed out".into(),
        other => format!("{other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(url: &str) -> (bool, String, String) {
        let p = split_url(url).unwrap();
        (p.https, p.authority, p.path_with_query)
    }

    #[test]
    fn splits_scheme_authority_and_path_with_query() {
        assert_eq!(
            parts("http://127.0.0.1:8080/mcp?x=1"),
            (false, "127.0.0.1:8080".into(), "/mcp?x=1".into())
        );
        assert_eq!(
            parts("HTTPS://example.invalid/a/b#frag"),
            (true, "example.invalid".into(), "/a/b".into())
        );
        assert_eq!(
            parts("http://[::1]:9"),
            (false, "[::1]:9".into(), "/".into())
        );
        assert_eq!(parts("http://h?q"), (false, "h".into(), "/?q".into()));
    }

    #[test]
    fn refuses_what_wasi_http_cannot_send() {
        for url in [
            "ftp://h/x",
            "127.0.0.1:80/mcp",
            "http:///mcp",
            "http://user:pw@h/mcp",
        ] {
            assert!(
                matches!(split_url(url), Err(TransportError::InvalidRequest { .. })),
                "{url}"
            );
        }
    }
}
