//! A deterministic fake MCP server on virtual time, driving a `Session` the way a transport would.
//! Each test gives the server as a closure from request to scripted reply.
#![allow(dead_code)]

use mcp_edge::proto::auth::{jose, AuthEvent};
use mcp_edge::proto::http::{HttpRequest, Method, ResponseHead};
use mcp_edge::proto::session::{
    Event, ExchangeId, OpId, ProtocolError, Session, SessionConfig, TransportFailure,
};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// How a scripted response ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// The body ends normally.
    Clean,
    /// The connection breaks after the chunks.
    Broken,
    /// The stream stays open; the test pushes more later.
    Open,
    /// Nothing arrives, not even the head, until the test calls [`Pair::release`].
    Held,
}

/// A scripted response.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub chunks: Vec<Vec<u8>>,
    pub end: End,
    pub network_error: bool,
}

impl Reply {
    pub fn json(v: Value) -> Reply {
        Reply {
            status: 200,
            headers: vec![("Content-Type".into(), "application/json".into())],
            chunks: vec![v.to_string().into_bytes()],
            end: End::Clean,
            network_error: false,
        }
    }
    pub fn result(id: &Value, result: Value) -> Reply {
        Reply::json(json!({"jsonrpc": "2.0", "id": id, "result": result}))
    }
    pub fn error(status: u16, id: &Value, code: i64, message: &str, data: Option<Value>) -> Reply {
        let mut err = json!({"code": code, "message": message});
        if let Some(d) = data {
            err["data"] = d;
        }
        let mut r = Reply::json(json!({"jsonrpc": "2.0", "id": id, "error": err}));
        r.status = status;
        r
    }
    /// An SSE response: each message becomes one `data:` event.
    pub fn sse(messages: &[Value]) -> Reply {
        let text: String = messages.iter().map(|m| format!("data: {m}\n\n")).collect();
        Reply::sse_raw(&text)
    }
    pub fn sse_raw(text: &str) -> Reply {
        Reply {
            status: 200,
            headers: vec![("Content-Type".into(), "text/event-stream".into())],
            chunks: vec![text.as_bytes().to_vec()],
            end: End::Clean,
            network_error: false,
        }
    }
    pub fn accepted() -> Reply {
        Reply {
            status: 202,
            headers: vec![],
            chunks: vec![],
            end: End::Clean,
            network_error: false,
        }
    }
    pub fn status(status: u16, body: &str) -> Reply {
        Reply {
            status,
            headers: vec![("Content-Type".into(), "text/plain".into())],
            chunks: if body.is_empty() {
                vec![]
            } else {
                vec![body.as_bytes().to_vec()]
            },
            end: End::Clean,
            network_error: false,
        }
    }
    pub fn network_error() -> Reply {
        Reply {
            status: 0,
            headers: vec![],
            chunks: vec![],
            end: End::Clean,
            network_error: true,
        }
    }
    pub fn header(mut self, k: &str, v: &str) -> Reply {
        self.headers.push((k.into(), v.into()));
        self
    }
    pub fn open(mut self) -> Reply {
        self.end = End::Open;
        self
    }
    pub fn broken(mut self) -> Reply {
        self.end = End::Broken;
        self
    }
    pub fn held(mut self) -> Reply {
        self.end = End::Held;
        self
    }
}

/// The parsed body of a request (None for GET/DELETE).
pub fn body(req: &HttpRequest) -> Option<Value> {
    req.body
        .as_ref()
        .map(|b| serde_json::from_str(b).expect("client sent invalid JSON"))
}
/// The JSON-RPC method of a POST, or "GET"/"DELETE"; OAuth requests are named by their URL
/// (`AUTH POST <url>`).
pub fn method_of(req: &HttpRequest) -> String {
    if req.extras.oauth {
        return format!("AUTH {} {}", req.method.as_str(), req.url);
    }
    match req.method {
        Method::Get => "GET".into(),
        Method::Delete => "DELETE".into(),
        Method::Post => {
            let b = body(req).unwrap();
            b.get("method")
                .and_then(Value::as_str)
                .unwrap_or("<response>")
                .to_string()
        }
    }
}
/// The JSON-RPC id of a POSTed request.
pub fn id_of(req: &HttpRequest) -> Value {
    body(req)
        .and_then(|b| b.get("id").cloned())
        .unwrap_or(Value::Null)
}
/// The params of a POSTed message.
pub fn params_of(req: &HttpRequest) -> Value {
    body(req)
        .and_then(|b| b.get("params").cloned())
        .unwrap_or(Value::Null)
}

/// Session + server + virtual clock.
pub struct Pair<F: FnMut(&HttpRequest) -> Reply> {
    pub session: Session,
    pub server: F,
    pub now: u64,
    pub events: Vec<Event>,
    pub requests: Vec<(ExchangeId, u64, HttpRequest)>,
    pub open: Vec<ExchangeId>,
    pub aborted: Vec<ExchangeId>,
    /// The host's storage for the authorizer (get/put/delete of strings).
    pub storage: BTreeMap<String, String>,
    /// Authorization URLs the session asked a person to open ([`AuthEvent::Authorize`]).
    pub authorize_urls: Vec<String>,
    /// The last byte handed out as entropy (deterministic, distinct bytes).
    pub entropy_counter: u8,
    /// The public DPoP key the host hands out.
    pub dpop_jwk: Value,
    /// Hold storage reads back (to test waiting for them); `held` are the keys asked for.
    pub hold_loads: bool,
    pub held_loads: Vec<String>,
    /// Refresh locks asked for and released; `hold_locks` leaves them ungranted.
    pub locks: Vec<String>,
    pub unlocks: Vec<String>,
    pub hold_locks: bool,
    /// Replies held back entirely ([`Reply::held`]), in order.
    pub held: Vec<(ExchangeId, Reply)>,
}

impl<F: FnMut(&HttpRequest) -> Reply> Pair<F> {
    pub fn new(cfg: SessionConfig, server: F) -> Self {
        Pair {
            session: Session::new(cfg).expect("valid config"),
            server,
            now: 0,
            events: vec![],
            requests: vec![],
            open: vec![],
            aborted: vec![],
            storage: BTreeMap::new(),
            authorize_urls: vec![],
            entropy_counter: 0,
            dpop_jwk: json!({"kty": "EC", "crv": "P-256", "x": "test-x", "y": "test-y"}),
            hold_loads: false,
            held_loads: vec![],
            locks: vec![],
            unlocks: vec![],
            hold_locks: false,
            held: vec![],
        }
    }

    /// Answers one authorizer event the way a host would; returns whether it was one.
    fn host(&mut self, e: &Event) -> bool {
        let Event::Auth(a) = e else { return false };
        let now = self.now;
        match a {
            AuthEvent::Load { key } => {
                if self.hold_loads {
                    self.held_loads.push(key.clone());
                } else {
                    let v = self.storage.get(key).cloned();
                    self.session.handle_auth_loaded(key, v.as_deref(), now);
                }
            }
            AuthEvent::Save { key, value } => {
                self.storage.insert(key.clone(), value.expose().to_string());
            }
            AuthEvent::Delete { key } => {
                self.storage.remove(key);
            }
            AuthEvent::NeedEntropy { bytes } => {
                let mut v = Vec::with_capacity(*bytes);
                for _ in 0..*bytes {
                    self.entropy_counter = self.entropy_counter.wrapping_add(37);
                    v.push(self.entropy_counter);
                }
                self.session.add_entropy(&v, now);
            }
            AuthEvent::NeedDpopKey => {
                let jwk = self.dpop_jwk.clone();
                self.session.handle_dpop_key(jwk, now);
            }
            AuthEvent::Authorize { url } => self.authorize_urls.push(url.clone()),
            AuthEvent::Lock { name } => {
                self.locks.push(name.clone());
                if !self.hold_locks {
                    self.session.handle_auth_locked(now);
                }
            }
            AuthEvent::Unlock { name } => self.unlocks.push(name.clone()),
            _ => {}
        }
        true
    }

    /// Answers the storage reads held back by `hold_loads`.
    pub fn release_loads(&mut self) {
        self.hold_loads = false;
        for key in std::mem::take(&mut self.held_loads) {
            let v = self.storage.get(&key).cloned();
            self.session
                .handle_auth_loaded(&key, v.as_deref(), self.now);
        }
        self.pump();
    }

    /// Delivers everything the session wants sent until it is quiet.
    pub fn pump(&mut self) {
        for _ in 0..10_000 {
            let mut busy = false;
            while let Some(t) = self.session.poll_transmit() {
                busy = true;
                let mut request = t.request.clone();
                // Sign proofs the way a transport does just before sending (a fake signature;
                // the test servers read the claims).
                let iat = 1_700_000_000 + self.now / 1000;
                let mut n = 0;
                let jti = || {
                    n += 1;
                    Ok::<_, ()>(format!("jti-{}-{}", t.exchange.0, n - 1))
                };
                for proof in jose::take_proofs(&mut request, iat, jti).unwrap_or_default() {
                    proof.finish(&mut request, b"sig");
                }
                self.requests.push((t.exchange, self.now, request.clone()));
                let reply = (self.server)(&request);
                self.deliver(t.exchange, reply);
            }
            while let Some(a) = self.session.poll_abort() {
                busy = true;
                self.aborted.push(a);
                self.open.retain(|x| *x != a);
            }
            while let Some(e) = self.session.poll_event() {
                busy = true;
                self.host(&e);
                self.events.push(e);
            }
            if !busy {
                return;
            }
        }
        panic!("session never went quiet");
    }

    fn deliver(&mut self, ex: ExchangeId, reply: Reply) {
        if reply.end == End::Held {
            self.held.push((ex, reply));
            return;
        }
        let now = self.now;
        if reply.network_error {
            self.session.handle_failure(
                ex,
                TransportFailure::Network("connection refused".into()),
                now,
            );
            return;
        }
        self.session.handle_response_head(
            ex,
            ResponseHead {
                status: reply.status,
                headers: reply.headers,
            },
            now,
        );
        for c in &reply.chunks {
            self.session.handle_body(ex, c, now);
        }
        match reply.end {
            End::Clean => self.session.handle_body_end(ex, now),
            End::Broken => self.session.handle_failure(
                ex,
                TransportFailure::BodyInterrupted("reset".into()),
                now,
            ),
            End::Open => self.open.push(ex),
            End::Held => {}
        }
    }

    /// Delivers the held reply of `ex` (its body ends cleanly).
    pub fn release(&mut self, ex: ExchangeId) {
        let at = self
            .held
            .iter()
            .position(|(x, _)| *x == ex)
            .expect("no held reply");
        let (_, mut reply) = self.held.remove(at);
        reply.end = End::Clean;
        self.deliver(ex, reply);
        self.pump();
    }

    /// Pushes bytes on an open stream.
    pub fn push(&mut self, ex: ExchangeId, bytes: &str) {
        self.session.handle_body(ex, bytes.as_bytes(), self.now);
        self.pump();
    }
    /// Ends an open stream cleanly.
    pub fn end(&mut self, ex: ExchangeId) {
        self.open.retain(|x| *x != ex);
        self.session.handle_body_end(ex, self.now);
        self.pump();
    }

    /// Moves virtual time forward to `now + ms`, firing timers in order.
    pub fn advance(&mut self, ms: u64) {
        let target = self.now + ms;
        for _ in 0..10_000 {
            match self.session.poll_timeout() {
                Some(t) if t <= target => {
                    self.now = self.now.max(t);
                    self.session.handle_timeout(self.now);
                    self.pump();
                }
                _ => break,
            }
        }
        self.now = target;
    }

    /// The result of `op`, once completed.
    pub fn completed(&self, op: OpId) -> Option<&Result<Value, ProtocolError>> {
        self.events.iter().find_map(|e| match e {
            Event::Completed { op: o, result } if *o == op => Some(result),
            _ => None,
        })
    }
    pub fn ok(&self, op: OpId) -> &Value {
        match self.completed(op) {
            Some(Ok(v)) => v,
            other => panic!(
                "op {op:?} did not succeed: {other:?}\nevents: {:#?}",
                self.events
            ),
        }
    }
    pub fn err(&self, op: OpId) -> &ProtocolError {
        match self.completed(op) {
            Some(Err(e)) => e,
            other => panic!("op {op:?} did not fail: {other:?}"),
        }
    }
    /// Methods of every request sent so far, in order.
    pub fn methods(&self) -> Vec<String> {
        self.requests.iter().map(|(_, _, r)| method_of(r)).collect()
    }
    /// The last request whose method is `m`.
    pub fn last(&self, m: &str) -> &HttpRequest {
        &self
            .requests
            .iter()
            .rev()
            .find(|(_, _, r)| method_of(r) == m)
            .expect("no such request")
            .2
    }
    pub fn diagnostics(&self) -> Vec<String> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::Diagnostic { message } => Some(message.clone()),
                _ => None,
            })
            .collect()
    }
}

/// A tools/list result with the given tools.
pub fn tools_page(tools: Value, next: Option<&str>) -> Value {
    let mut r = json!({"tools": tools});
    if let Some(n) = next {
        r["nextCursor"] = json!(n);
    }
    r
}

/// A minimal modern discover result.
pub fn discover_result() -> Value {
    json!({
        "resultType": "complete",
        "supportedVersions": ["2026-07-28"],
        "capabilities": {"tools": {"listChanged": true}},
        "instructions": "be nice",
        "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "fake", "version": "1.0"}}
    })
}

/// `key` of every item of the array `list` in a list result (e.g. the names of `tools`).
pub fn members(result: &Value, list: &str, key: &str) -> Vec<String> {
    result[list]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|item| item[key].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}
