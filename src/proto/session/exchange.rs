//! One HTTP exchange: its purpose, its body state, and how its bytes become messages.

use serde_json::Value;

use super::{
    Event, ExchangeId, GetStream, InputSlot, OpId, OpKind, Phase, ProtocolError, Session,
    TransportFailure,
};
use crate::proto::http::{classify, names, ResponseHead, ResponseKind};
use crate::proto::jsonrpc::{ErrorObject, Message, RequestId};
use crate::proto::sse;

/// Largest error body kept for diagnostics.
const MAX_ERROR_BODY: usize = 4096;

/// Why an exchange was opened.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Purpose {
    /// A request of `op` with JSON-RPC id `id`.
    Rpc { op: OpId, id: RequestId },
    /// A notification; `op` waits for its acceptance (connect's `notifications/initialized`).
    Notify { op: Option<OpId> },
    /// 2025 era: a response to a server request.
    Reply,
    /// 2025 era: the standalone GET stream.
    GetStream,
    /// 2025 era: a GET resuming `op`'s broken POST stream.
    Resume { op: OpId },
    /// A GET checking whether the server is a 2024-11-05 HTTP+SSE server.
    LegacyProbe { op: OpId },
    /// 2025 era: the session DELETE.
    Delete { op: OpId },
    /// A request of the authorizer (metadata, registration, token) to `endpoint`.
    Auth {
        req: crate::proto::auth::AuthReqId,
        endpoint: String,
    },
}

#[derive(Debug)]
pub(super) struct Exchange {
    pub(super) purpose: Purpose,
    kind: Option<ResponseKind>,
    pub(super) head: Option<ResponseHead>,
    pub(super) body: Vec<u8>,
    /// Body bytes the server sent (an HTTP error's body is kept only in part).
    received: u64,
    sse: Option<sse::Decoder>,
    /// The awaited response arrived.
    pub(super) answered: bool,
    /// An SSE message (not just a priming event) arrived.
    pub(super) delivered: bool,
    /// The credentials generation the request was sent with.
    pub(super) auth_gen: u64,
}

/// How a request failed, before the flow decides what to do about it.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Failure {
    /// A JSON-RPC error, with the HTTP status that carried it.
    Rpc { error: ErrorObject, status: u16 },
    /// An HTTP error status without a JSON-RPC error body.
    Http {
        status: u16,
        body: String,
        www_authenticate: Option<String>,
        /// `DPoP-Nonce` of the response (RFC 9449 § 9).
        dpop_nonce: Option<String>,
        /// The credentials generation the request was sent with.
        auth_gen: u64,
        /// 429 and 503: the delay `Retry-After` asked for, when readable.
        retry_after_ms: Option<u64>,
        /// When `body` was cut: how many bytes the server sent.
        body_length: Option<u64>,
    },
    /// The stream ended or broke before the response; `resume_from` is the last event id seen.
    Dropped {
        resume_from: Option<String>,
        retry_ms: Option<u64>,
    },
    /// Anything else, final.
    Fatal(ProtocolError),
}

impl Failure {
    /// The error a caller sees when nothing more is tried.
    pub(super) fn into_error(self, attempts: u32) -> ProtocolError {
        match self {
            Failure::Rpc { error, .. } => ProtocolError::Rpc {
                code: error.code,
                message: error.message,
                data: error.data,
            },
            Failure::Http {
                status: s @ (401 | 403),
                www_authenticate,
                ..
            } => ProtocolError::Unauthorized {
                status: s,
                www_authenticate,
            },
            Failure::Http {
                status,
                body,
                retry_after_ms,
                body_length,
                ..
            } => ProtocolError::HttpStatus {
                status,
                body,
                retry_after_ms,
                body_length,
            },
            Failure::Dropped { .. } => ProtocolError::StreamDropped {
                attempts,
                may_have_run: false,
            },
            Failure::Fatal(e) => e,
        }
    }
}

impl Exchange {
    pub(super) fn new(purpose: Purpose) -> Self {
        Exchange {
            purpose,
            kind: None,
            head: None,
            body: Vec::new(),
            received: 0,
            sse: None,
            answered: false,
            delivered: false,
            auth_gen: 0,
        }
    }
}

fn error_from_body(body: &[u8]) -> Option<ErrorObject> {
    let text = std::str::from_utf8(body).ok()?;
    match Message::parse(text.trim()).ok()? {
        Message::Error(e) => Some(e.error),
        _ => None,
    }
}

fn body_text(body: &[u8]) -> String {
    let mut end = body.len().min(MAX_ERROR_BODY);
    while end > 0 && std::str::from_utf8(&body[..end]).is_err() {
        end -= 1;
    }
    String::from_utf8_lossy(&body[..end]).trim().to_string()
}

impl Session {
    /// Feeds the status and headers of exchange `id`'s response.
    pub fn handle_response_head(&mut self, id: ExchangeId, head: ResponseHead, now: u64) {
        if self.auth_head(id, &head) {
            return;
        }
        let Some(ex) = self.exchanges.get_mut(&id) else {
            return;
        };
        let kind = classify(&head);
        ex.kind = Some(kind);
        if kind == ResponseKind::EventStream {
            ex.sse = Some(sse::Decoder::new(self.cfg.sse));
        }
        let purpose = ex.purpose.clone();
        if purpose == Purpose::GetStream && kind == ResponseKind::EventStream {
            // The server took this session's GET stream: a later 404 means the session ended,
            // and a later 401/403 starts the authorization budget afresh.
            self.restarted_by_get_404 = false;
            if let Some(g) = self.get_stream.as_mut() {
                g.auth_flows = 0;
                g.auth_replays = 0;
            }
        }
        ex.head = Some(head);
        // The session id arrives with the InitializeResult (MCP 2025-11-25 `basic/transports`
        // "Session Management").
        if let Purpose::Rpc { op, .. } = &purpose {
            let initializing = matches!(
                self.ops.get(op).map(|o| &o.kind),
                Some(OpKind::Connect {
                    step: super::ConnectStep::Initialize,
                    ..
                })
            );
            let sid = self
                .exchanges
                .get(&id)
                .and_then(|e| e.head.as_ref())
                .and_then(|h| h.header(names::MCP_SESSION_ID).map(str::to_string));
            if initializing && matches!(kind, ResponseKind::Json | ResponseKind::EventStream) {
                match sid {
                    Some(s) if !s.is_empty() && s.bytes().all(|b| (0x21..=0x7e).contains(&b)) => {
                        self.session_id = Some(s);
                        self.session_gen += 1;
                    }
                    Some(_) => {
                        let op = *op;
                        self.abort_exchange(id);
                        self.op_failed(
                            op,
                            super::exchange::Failure::Fatal(ProtocolError::InvalidSessionId),
                            now,
                        );
                        return;
                    }
                    None => self.session_id = None,
                }
            }
        }
        let body_kind = matches!(
            kind,
            ResponseKind::Json | ResponseKind::EventStream | ResponseKind::UnexpectedContentType
        );
        if body_kind && matches!(purpose, Purpose::Notify { .. } | Purpose::Reply) {
            // A 2xx accepts a notification or a response (MCP 2025-11-25 `basic/transports`
            // "Sending Messages to the Server": the server MUST answer 202 with no body). A body
            // sent anyway answers no request, so it is not read and fails nothing.
            let status = self
                .exchanges
                .get(&id)
                .and_then(|e| e.head.as_ref())
                .map_or(200, |h| h.status);
            self.abort_exchange(id);
            self.events.push_back(Event::Diagnostic {
                message: format!(
                    "the server answered a notification or response with HTTP {status} and a body instead of 202; treated as accepted"
                ),
            });
            self.accepted(&purpose, now);
            return;
        }
        match (&purpose, kind) {
            (_, ResponseKind::Accepted) => {}
            (Purpose::GetStream, ResponseKind::HttpError { status }) => {
                let ex = self.exchanges.remove(&id);
                let head = ex.as_ref().and_then(|e| e.head.clone());
                let retry = head.as_ref().and_then(|h| self.retry_after(h, now));
                if self.auth.is_some() && (status == 401 || status == 403) {
                    let www = head
                        .as_ref()
                        .and_then(|h| h.header(names::WWW_AUTHENTICATE))
                        .map(str::to_string);
                    let nonce = head
                        .as_ref()
                        .and_then(|h| h.header(crate::proto::auth::jose::DPOP_NONCE_HEADER))
                        .map(str::to_string);
                    let generation = ex.as_ref().map_or(0, |e| e.auth_gen);
                    self.get_stream_unauthorized(status, www, nonce, generation, now);
                } else {
                    match (status, retry) {
                        (429 | 503, Some(delay)) => self.get_stream_throttled(delay, now),
                        _ => self.get_stream_refused(status, now),
                    }
                }
            }
            (Purpose::LegacyProbe { op }, k) if k != ResponseKind::EventStream => {
                let op = *op;
                self.abort_exchange(id);
                self.probe_done(op, None, now);
            }
            (_, ResponseKind::UnexpectedContentType) => {
                let ct = self
                    .exchanges
                    .get(&id)
                    .and_then(|e| e.head.as_ref())
                    .and_then(|h| h.header(names::CONTENT_TYPE))
                    .unwrap_or("")
                    .to_string();
                self.abort_exchange(id);
                self.exchange_failed(
                    &purpose,
                    super::exchange::Failure::Fatal(ProtocolError::UnexpectedContentType(ct)),
                    now,
                );
            }
            _ => {}
        }
    }

    /// Feeds body bytes of exchange `id`.
    pub fn handle_body(&mut self, id: ExchangeId, bytes: &[u8], now: u64) {
        if self.auth_body(id, bytes, now) {
            return;
        }
        let limit = self.cfg.max_json_bytes;
        let Some(ex) = self.exchanges.get_mut(&id) else {
            return;
        };
        match ex.kind {
            Some(ResponseKind::EventStream) => {
                let Some(dec) = ex.sse.as_mut() else { return };
                let mut out = Vec::new();
                for item in dec.feed(bytes) {
                    out.push(item);
                }
                let last_id = dec.last_event_id().to_string();
                let retry = dec.retry_ms();
                self.note_stream_position(id, &last_id, retry);
                for item in out {
                    match item {
                        Ok(ev) => self.handle_sse_event(id, ev, now),
                        Err(
                            sse::SseError::EventTooLarge { limit }
                            | sse::SseError::LineTooLong { limit },
                        ) => {
                            // Never buffer the rest of an oversized event or re-issue its
                            // request: stop reading (the transport cancels the body) and fail.
                            let purpose = self.exchanges.get(&id).map(|x| x.purpose.clone());
                            self.abort_exchange(id);
                            if let Some(purpose) = purpose {
                                let e = ProtocolError::EventTooLarge { limit };
                                self.exchange_failed(&purpose, Failure::Fatal(e), now);
                            }
                            return;
                        }
                        Err(e) => self.events.push_back(Event::Diagnostic {
                            message: format!("dropped an invalid SSE event: {e:?}"),
                        }),
                    }
                    if !self.exchanges.contains_key(&id) {
                        return;
                    }
                }
            }
            Some(ResponseKind::Json) => {
                if ex.body.len() + bytes.len() > limit {
                    let purpose = ex.purpose.clone();
                    self.abort_exchange(id);
                    self.exchange_failed(
                        &purpose,
                        Failure::Fatal(ProtocolError::BodyTooLarge { limit }),
                        now,
                    );
                } else {
                    ex.body.extend_from_slice(bytes);
                }
            }
            Some(ResponseKind::HttpError { .. }) => {
                // Enough to find a JSON-RPC error in; the rest is only counted.
                let room = (MAX_ERROR_BODY * 16).saturating_sub(ex.body.len());
                ex.received = ex.received.saturating_add(bytes.len() as u64);
                ex.body.extend_from_slice(&bytes[..bytes.len().min(room)]);
            }
            _ => {}
        }
    }

    /// Feeds the end of exchange `id`'s body.
    pub fn handle_body_end(&mut self, id: ExchangeId, now: u64) {
        if self.auth_body_end(id, now) {
            return;
        }
        let Some(mut ex) = self.exchanges.remove(&id) else {
            return;
        };
        match ex.kind {
            Some(ResponseKind::Json) => {
                let parsed = std::str::from_utf8(&ex.body)
                    .map_err(|_| ProtocolError::InvalidResult("response body is not UTF-8".into()))
                    .and_then(|t| Message::parse(t.trim()).map_err(ProtocolError::InvalidMessage));
                match parsed {
                    Ok(msg) => {
                        self.exchanges.insert(id, ex);
                        self.route(id, msg, now);
                        let Some(ex) = self.exchanges.remove(&id) else {
                            return;
                        };
                        if !ex.answered {
                            self.exchange_failed(
                                &ex.purpose,
                                Failure::Fatal(ProtocolError::InvalidResult(
                                    "the JSON body did not answer the request".into(),
                                )),
                                now,
                            );
                        }
                    }
                    Err(e) => self.exchange_failed(&ex.purpose, Failure::Fatal(e), now),
                }
            }
            Some(ResponseKind::HttpError { status }) => {
                let www = ex
                    .head
                    .as_ref()
                    .and_then(|h| h.header(names::WWW_AUTHENTICATE))
                    .map(str::to_string);
                let retry_after_ms = ex.head.as_ref().and_then(|h| self.retry_after(h, now));
                let failure = match error_from_body(&ex.body) {
                    // 429 and 503 refuse the request at the HTTP level whatever the body says.
                    Some(error) if !matches!(status, 401 | 403 | 429 | 503) => {
                        Failure::Rpc { error, status }
                    }
                    _ => Failure::Http {
                        status,
                        body: body_text(&ex.body),
                        body_length: (ex.received > MAX_ERROR_BODY as u64).then_some(ex.received),
                        www_authenticate: www,
                        dpop_nonce: ex
                            .head
                            .as_ref()
                            .and_then(|h| h.header(crate::proto::auth::jose::DPOP_NONCE_HEADER))
                            .map(str::to_string),
                        auth_gen: ex.auth_gen,
                        retry_after_ms,
                    },
                };
                self.exchange_failed(&ex.purpose, failure, now);
            }
            Some(ResponseKind::EventStream) => {
                if let Some(Err(e)) = ex.sse.as_mut().and_then(|d| d.finish()) {
                    self.events.push_back(Event::Diagnostic {
                        message: format!("event stream ended inside an event: {e:?}"),
                    });
                }
                self.stream_ended(id, ex, None, now);
            }
            Some(ResponseKind::Accepted) | None => self.accepted(&ex.purpose, now),
            Some(ResponseKind::UnexpectedContentType) => {}
        }
    }

    /// Reports that exchange `id` failed below HTTP.
    pub fn handle_failure(&mut self, id: ExchangeId, failure: TransportFailure, now: u64) {
        if self.auth_exchange_failed(id, &failure, now) {
            return;
        }
        let Some(ex) = self.exchanges.get(&id) else {
            return;
        };
        // A JSON body cut off after its last byte (a proxy that drops the connection before the
        // final chunk) still holds the whole answer: a JSON-RPC message is an object, which only
        // parses once it is closed. Reading it loses nothing; a partial body fails to parse.
        if matches!(failure, TransportFailure::BodyInterrupted(_))
            && ex.kind == Some(ResponseKind::Json)
            && std::str::from_utf8(&ex.body)
                .ok()
                .is_some_and(|t| Message::parse(t.trim()).is_ok())
        {
            self.events.push_back(Event::Diagnostic {
                message: "a JSON response broke off after its complete body; read it".into(),
            });
            return self.handle_body_end(id, now);
        }
        let Some(ex) = self.exchanges.remove(&id) else {
            return;
        };
        match failure {
            TransportFailure::BodyInterrupted(m) if ex.kind == Some(ResponseKind::EventStream) => {
                self.stream_ended(id, ex, Some(m), now)
            }
            TransportFailure::BodyInterrupted(_) => self.exchange_failed(
                &ex.purpose,
                Failure::Dropped {
                    resume_from: None,
                    retry_ms: None,
                },
                now,
            ),
            TransportFailure::Network(m) => {
                self.exchange_failed(&ex.purpose, Failure::Fatal(ProtocolError::Network(m)), now)
            }
            TransportFailure::Cors(m) => {
                self.exchange_failed(&ex.purpose, Failure::Fatal(ProtocolError::Cors(m)), now)
            }
        }
    }

    /// The delay a 429 or 503 response's `Retry-After` asks for (RFC 9110 § 10.2.3).
    fn retry_after(&self, head: &ResponseHead, now: u64) -> Option<u64> {
        if !matches!(head.status, 429 | 503) {
            return None;
        }
        super::retry_after::delay_ms(head, self.wall_ms(now))
    }

    fn note_stream_position(&mut self, id: ExchangeId, last_id: &str, retry: Option<u64>) {
        let Some(ex) = self.exchanges.get(&id) else {
            return;
        };
        match ex.purpose.clone() {
            Purpose::GetStream => {
                if let Some(g) = &mut self.get_stream {
                    if !last_id.is_empty() {
                        g.last_event_id = Some(last_id.to_string());
                    }
                    g.retry_ms = retry.or(g.retry_ms);
                }
            }
            Purpose::Rpc { op, .. } | Purpose::Resume { op } => {
                if let Some(o) = self.ops.get_mut(&op) {
                    if !last_id.is_empty() {
                        o.resume_from = Some(last_id.to_string());
                    }
                    o.retry_ms = retry.or(o.retry_ms);
                }
            }
            _ => {}
        }
    }

    fn handle_sse_event(&mut self, id: ExchangeId, ev: sse::Event, now: u64) {
        let purpose = match self.exchanges.get(&id) {
            Some(ex) => ex.purpose.clone(),
            None => return,
        };
        if let Purpose::LegacyProbe { op } = purpose {
            self.abort_exchange(id);
            let endpoint = (ev.event_type == "endpoint").then_some(ev.data);
            self.probe_done(op, endpoint, now);
            return;
        }
        // A priming event (an id with empty data, MCP 2025-11-25) only moves the resume point.
        if ev.data.trim().is_empty() {
            return;
        }
        match Message::parse(&ev.data) {
            Ok(msg) => {
                if let Some(ex) = self.exchanges.get_mut(&id) {
                    ex.delivered = true;
                }
                if purpose == Purpose::GetStream {
                    if let Some(g) = &mut self.get_stream {
                        g.failures = 0;
                    }
                }
                self.route(id, msg, now)
            }
            Err(e) => self.events.push_back(Event::Diagnostic {
                message: format!("ignored an SSE event that is not a JSON-RPC message: {e}"),
            }),
        }
    }

    /// Delivers one message that arrived on exchange `id`.
    pub(super) fn route(&mut self, id: ExchangeId, msg: Message, now: u64) {
        match msg {
            Message::Response(r) => self.response(id, r.id, Ok(r.result), now),
            Message::Error(e) => {
                let status = self
                    .exchanges
                    .get(&id)
                    .and_then(|x| x.head.as_ref())
                    .map_or(200, |h| h.status);
                let rid = match (e.id, self.exchanges.get(&id).map(|x| &x.purpose)) {
                    (Some(rid), _) => rid,
                    (None, Some(Purpose::Rpc { id, .. })) => id.clone(),
                    (None, _) => {
                        self.events.push_back(Event::Diagnostic {
                            message: format!("server error without id: {}", e.error.message),
                        });
                        return;
                    }
                };
                self.response(
                    id,
                    rid,
                    Err(Failure::Rpc {
                        error: e.error,
                        status,
                    }),
                    now,
                )
            }
            Message::Request(r) => self.server_request(r, id, now),
            Message::Notification(n) => self.notification(n, now),
        }
    }

    fn response(
        &mut self,
        ex: ExchangeId,
        rid: RequestId,
        result: Result<Value, Failure>,
        now: u64,
    ) {
        let Some(op) = self.pending.remove(&rid) else {
            self.events.push_back(Event::Diagnostic {
                message: format!("ignored a response to unknown request id {rid}"),
            });
            return;
        };
        if let Some(x) = self.exchanges.get_mut(&ex) {
            x.answered = true;
        }
        let done_with_exchange = match self.exchanges.get(&ex).map(|x| &x.purpose) {
            Some(Purpose::Resume { .. }) => true,
            Some(Purpose::Rpc { id, .. }) => {
                *id == rid
                    && !matches!(
                        self.ops.get(&op).map(|o| &o.kind),
                        Some(OpKind::Listen { .. })
                    )
            }
            _ => false,
        };
        if let Some(o) = self.ops.get_mut(&op) {
            if o.rpc.as_ref() == Some(&rid) {
                o.rpc = None;
                if o.exchange == Some(ex) {
                    o.exchange = None;
                }
            }
        }
        if done_with_exchange {
            // The final response SHOULD end the stream; stop reading either way.
            self.abort_exchange(ex);
        }
        match result {
            Ok(v) => self.op_result(op, v, now),
            Err(f) => self.op_failed(op, f, now),
        }
    }

    /// An SSE stream ended (cleanly, or broken off with `broken`).
    fn stream_ended(&mut self, _id: ExchangeId, ex: Exchange, broken: Option<String>, now: u64) {
        match ex.purpose {
            Purpose::GetStream => {
                if let Some(m) = broken {
                    self.events.push_back(Event::Diagnostic {
                        message: format!("GET stream broke: {m}"),
                    });
                }
                self.schedule_get_reconnect(ex.delivered, now)
            }
            Purpose::Rpc { op, ref id } if !ex.answered && self.pending.get(id) == Some(&op) => {
                self.stream_dropped(op, false, now)
            }
            Purpose::Resume { op } if !ex.answered => self.stream_dropped(op, ex.delivered, now),
            _ => {}
        }
    }

    /// `op`'s response stream ended without its response: fail it as dropped from the last
    /// resume position (`delivered`: the stream carried messages, so the retry budget restarts).
    fn stream_dropped(&mut self, op: OpId, delivered: bool, now: u64) {
        let Some(o) = self.ops.get_mut(&op) else {
            return;
        };
        o.exchange = None;
        if delivered {
            o.attempts = 0;
        }
        let (resume_from, retry_ms) = (o.resume_from.clone(), o.retry_ms);
        self.op_failed(
            op,
            Failure::Dropped {
                resume_from,
                retry_ms,
            },
            now,
        )
    }

    /// A 202 (or empty 2xx) arrived.
    pub(super) fn accepted(&mut self, purpose: &Purpose, now: u64) {
        match purpose {
            Purpose::Notify { op: Some(op) } => self.initialized_accepted(*op, now),
            Purpose::Delete { op } => self.finish(*op, Ok(Value::Null), now),
            Purpose::GetStream => self.get_stream_refused(202, now),
            Purpose::Rpc { op, id } if self.pending.get(id) == Some(op) => {
                self.pending.remove(id);
                self.op_failed(
                    *op,
                    Failure::Fatal(ProtocolError::InvalidResult(
                        "the server accepted a request without answering it".into(),
                    )),
                    now,
                );
            }
            Purpose::LegacyProbe { op } => self.probe_done(*op, None, now),
            _ => {}
        }
    }

    /// An exchange failed as a whole: route the failure to whoever waits for it.
    fn exchange_failed(&mut self, purpose: &Purpose, failure: Failure, now: u64) {
        match purpose {
            Purpose::Rpc { op, id } => {
                if self.pending.get(id) == Some(op) {
                    self.pending.remove(id);
                    if let Some(o) = self.ops.get_mut(op) {
                        o.rpc = None;
                        o.exchange = None;
                    }
                    self.op_failed(*op, failure, now);
                }
            }
            Purpose::Resume { op } => {
                if let Some(o) = self.ops.get_mut(op) {
                    o.exchange = None;
                }
                self.op_failed(*op, failure, now)
            }
            Purpose::Notify { op: Some(op) } => self.op_failed(*op, failure, now),
            Purpose::Notify { op: None } | Purpose::Reply => {
                self.events.push_back(Event::Diagnostic {
                    message: format!(
                        "a notification or reply was not accepted: {}",
                        failure.into_error(0)
                    ),
                });
            }
            Purpose::GetStream => match failure {
                Failure::Http { status, .. } | Failure::Rpc { status, .. } => {
                    self.get_stream_refused(status, now)
                }
                _ => self.schedule_get_reconnect(false, now),
            },
            Purpose::LegacyProbe { op } => self.probe_done(*op, None, now),
            Purpose::Delete { op } => self.finish(*op, Ok(Value::Null), now),
            Purpose::Auth { .. } => {}
        }
    }

    pub(super) fn get_stream_refused(&mut self, status: u16, now: u64) {
        match status {
            // 405: the server offers no GET stream; never fatal (MCP 2025-11-25 `basic/transports`).
            405 | 202 => {
                self.get_stream = None;
            }
            // 404 for a request with the session's id: the session is gone, start another (MCP
            // 2025-11-25 `basic/transports` "Session Management"). When the fresh session's GET is
            // answered 404 as well, the server refuses GET streams with 404 instead of 405: the
            // session stays (a POST answered 404 still restarts it) and the GET stream goes, so
            // that a server doing this cannot make the client start sessions without end.
            404 if self.session_id.is_some() && !self.restarted_by_get_404 => {
                self.get_stream = None;
                self.restarted_by_get_404 = true;
                self.session_expired(None, now);
            }
            404 if self.session_id.is_some() => {
                self.get_stream = None;
                self.events.push_back(Event::Diagnostic {
                    message: "the server answered the GET stream of a new session with HTTP 404 too; continuing without it".into(),
                });
            }
            _ => {
                self.events.push_back(Event::Diagnostic {
                    message: format!("the server refused the GET stream with HTTP {status}; continuing without it"),
                });
                self.get_stream = None;
            }
        }
    }

    /// The GET stream was refused with 429 or 503 and a `Retry-After`: reopen it after that delay
    /// (capped like any reconnect delay), counted against the reconnect budget.
    fn get_stream_throttled(&mut self, delay: u64, now: u64) {
        let policy = self.cfg.reconnect;
        let Some(g) = self.get_stream.as_mut() else {
            return;
        };
        g.exchange = None;
        g.failures += 1;
        if g.failures > policy.max_attempts {
            self.get_stream = None;
            self.stream_lost = true;
            self.events.push_back(Event::Diagnostic {
                message: "gave up on the GET stream: the server kept refusing it (429/503)".into(),
            });
            return;
        }
        g.reconnect_at = Some(now + delay.min(policy.max_delay_ms));
    }

    pub(super) fn schedule_get_reconnect(&mut self, delivered: bool, now: u64) {
        if self.phase == Phase::Closed {
            return;
        }
        let policy = self.cfg.reconnect;
        let Some(g) = self.get_stream.as_mut() else {
            return;
        };
        g.exchange = None;
        if delivered {
            g.failures = 0;
        }
        g.failures += 1;
        if g.failures > policy.max_attempts {
            self.get_stream = None;
            self.stream_lost = true;
            self.events.push_back(Event::Diagnostic {
                message: format!(
                    "gave up on the GET stream after {} reconnects without a message",
                    policy.max_attempts
                ),
            });
            return;
        }
        let base = match g.retry_ms {
            Some(r) => r,
            None => policy
                .initial_delay_ms
                .saturating_mul(1 << (g.failures - 1).min(16)),
        }
        .min(policy.max_delay_ms)
        .max(super::MIN_RECONNECT_DELAY_MS);
        let delay = if g.retry_ms.is_some() {
            base
        } else {
            self.jitter(base)
        };
        if let Some(g) = self.get_stream.as_mut() {
            g.reconnect_at = Some(now + delay);
        }
    }

    pub(super) fn start_get_stream(&mut self, now: u64) {
        self.get_stream = Some(GetStream::default());
        self.open_get_stream(now);
    }

    /// Removes inputs answered by a server-side cancellation of a 2025-era server request.
    pub(super) fn cancel_server_request(&mut self, rid: &RequestId) {
        let gone: Vec<_> = self
            .inputs
            .iter()
            .filter(|(_, s)| matches!(s, InputSlot::ServerRequest { id, .. } if id == rid))
            .map(|(k, _)| *k)
            .collect();
        for input in gone {
            if let Some(InputSlot::ServerRequest { op: Some(op), .. }) = self.inputs.remove(&input)
            {
                if let Some(o) = self.ops.get_mut(&op) {
                    o.user_inputs_open = o.user_inputs_open.saturating_sub(1);
                }
            }
            self.events.push_back(Event::InputCancelled { input });
        }
    }
}
