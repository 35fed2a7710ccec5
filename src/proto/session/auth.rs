//! The session's side of authorization: requests refused with 401/403 wait for the
//! [`Authorizer`](crate::proto::auth::Authorizer)'s flow and are replayed; its HTTP requests
//! travel as exchanges like any other; its events reach the host as [`Event::Auth`].
//!
//! A refused request was not executed (the server refused it before running it), so replaying it
//! is safe in both eras: a 2026 request is re-sent with a new id, a 2025 stream resumption is
//! resumed again rather than re-sent.

use serde_json::{json, Value};

use super::exchange::{Exchange, Purpose};
use super::{Event, ExchangeId, OpId, OpKind, ProtocolError, Session, TransportFailure};
use crate::proto::auth::{
    AuthError, AuthOutput, AuthResponse, ChallengeOutcome, MAX_AUTH_RESPONSE_BYTES,
};
use crate::proto::http::ResponseHead;

/// Most immediate replays of one op after 401s that needed no new flow (a changed credential,
/// DPoP nonces); more means the server keeps refusing fresh credentials.
const MAX_AUTH_REPLAYS: u32 = 4;

impl Session {
    /// Hands one host input to the authorizer (if OAuth is on), then moves whatever it started.
    fn with_authorizer(&mut self, now: u64, f: impl FnOnce(&mut crate::proto::auth::Authorizer)) {
        self.last_now = self.last_now.max(now);
        if let Some(a) = self.auth.as_mut() {
            f(a);
        }
        self.pump_auth(now);
    }

    // ---- host inputs ---------------------------------------------------------------------------

    /// A value read from the host's storage for an [`crate::proto::auth::AuthEvent::Load`]
    /// (`None`: absent).
    pub fn handle_auth_loaded(&mut self, key: &str, value: Option<&str>, now: u64) {
        self.with_authorizer(now, |a| a.handle_loaded(key, value, now));
    }

    /// The lock asked for by [`crate::proto::auth::AuthEvent::Lock`] is held.
    pub fn handle_auth_locked(&mut self, now: u64) {
        self.with_authorizer(now, |a| a.handle_locked(now));
    }

    /// Random bytes for an [`crate::proto::auth::AuthEvent::NeedEntropy`].
    pub fn add_entropy(&mut self, bytes: &[u8], now: u64) {
        self.with_authorizer(now, |a| a.add_entropy(bytes, now));
    }

    /// The public JWK of the host's DPoP key, for an
    /// [`crate::proto::auth::AuthEvent::NeedDpopKey`].
    pub fn handle_dpop_key(&mut self, jwk: Value, now: u64) {
        self.with_authorizer(now, |a| a.handle_dpop_key(jwk, now));
    }

    /// The redirect back from the authorization server (callback URL or its query) after an
    /// [`crate::proto::auth::AuthEvent::Authorize`].
    pub fn handle_authorization_callback(&mut self, callback: &str, now: u64) {
        self.with_authorizer(now, |a| a.handle_callback(callback, now));
    }

    /// The host cannot complete the running flow (no sign-in handler, a blocked popup, a
    /// failed key or signature): everything waiting fails with `error`.
    pub fn abort_authorization(&mut self, error: AuthError, now: u64) {
        self.with_authorizer(now, |a| a.abort_flow(error));
    }

    /// Signs in now rather than on the first refusal (a "Sign in" action); completes with
    /// [`Session::auth_status`] once tokens are held, or fails with the flow's error. Without
    /// auth configured it fails with `InvalidConfig`.
    pub fn authorize(&mut self, now: u64) -> OpId {
        self.last_now = self.last_now.max(now);
        let op = self.new_op(
            OpKind::Authorize,
            &super::RequestOptions::default(),
            false,
            now,
        );
        match self.auth.as_mut() {
            Some(a) => {
                a.begin(now);
                self.park(op);
                self.pump_auth(now);
            }
            None => self.finish(
                op,
                Err(ProtocolError::InvalidConfig("no auth is configured".into())),
                now,
            ),
        }
        op
    }

    /// Finishes a sign-in from its callback in a process that did not start it (a reloaded
    /// page, another Worker isolate): the pending request is read back from storage by the
    /// callback's `state`, checked, and the code exchanged. Completes like
    /// [`Session::authorize`].
    pub fn complete_authorization(&mut self, callback: &str, now: u64) -> OpId {
        self.last_now = self.last_now.max(now);
        let op = self.new_op(
            OpKind::Authorize,
            &super::RequestOptions::default(),
            false,
            now,
        );
        match self.auth.as_mut() {
            Some(a) => {
                a.handle_callback(callback, now);
                self.park(op);
                self.pump_auth(now);
            }
            None => self.finish(
                op,
                Err(ProtocolError::InvalidConfig("no auth is configured".into())),
                now,
            ),
        }
        op
    }

    /// Forgets this server's tokens (the stored ones too).
    pub fn sign_out(&mut self, now: u64) {
        if let Some(a) = self.auth.as_mut() {
            a.sign_out();
        }
        self.cache.drop_private();
        self.pump_auth(now);
    }

    /// Who is signed in, as JSON for hosts: `{issuer, scope, expiresAt, tokenType}`; `None`
    /// without auth or tokens.
    pub fn auth_status(&self) -> Option<Value> {
        let (issuer, scope, expires_at, token_type) = self.auth.as_ref()?.signed_in()?;
        Some(json!({
            "issuer": issuer,
            "scope": scope,
            "expiresAt": expires_at,
            "tokenType": token_type.scheme(),
        }))
    }

    // ---- requests and their refusals -----------------------------------------------------------

    /// Parks `op` when credentials are not ready (the stored tokens are loading, a flow runs,
    /// or the token is about to expire and a refresh starts). Close is never held back.
    pub(super) fn auth_gate(&mut self, op: OpId, now: u64) -> bool {
        let Some(a) = self.auth.as_mut() else {
            return false;
        };
        if self
            .ops
            .get(&op)
            .is_none_or(|o| matches!(o.kind, OpKind::Close))
        {
            return false;
        }
        // A proactive refresh counts towards the op's flows like any other, so a server whose
        // tokens are born expired cannot hold an op in a refresh loop.
        let flows = self.ops.get(&op).map_or(0, |o| o.auth_flows);
        let refresh = flows < a.max_attempts() && a.refresh_if_expiring(now);
        let hold = !a.is_ready() || a.is_running() || refresh;
        if refresh {
            if let Some(o) = self.ops.get_mut(&op) {
                o.auth_flows += 1;
            }
        }
        if hold {
            self.park(op);
            self.pump_auth(now);
        }
        hold
    }

    fn park(&mut self, op: OpId) {
        if let Some(o) = self.ops.get_mut(&op) {
            o.waiting_auth = true;
            o.exchange = None;
        }
        if !self.auth_waiters.contains(&op) {
            self.auth_waiters.push(op);
        }
    }

    /// `op`'s request was refused with 401/403.
    pub(super) fn op_unauthorized(
        &mut self,
        op: OpId,
        status: u16,
        www: Option<String>,
        nonce: Option<String>,
        generation: u64,
        now: u64,
    ) {
        if status == 401 && www.is_none() && self.auth.is_some() {
            // MCP `basic/authorization` (Protected Resource Metadata discovery): without a
            // challenge the client probes the well-known URLs. In a browser the header may exist
            // and be hidden: a cross-origin response shows only the headers it exposes.
            self.events.push_back(Event::Diagnostic {
                message: "401 without a readable WWW-Authenticate: probing the well-known \
                          metadata URLs (a cross-origin server must send \
                          Access-Control-Expose-Headers: WWW-Authenticate for a browser to \
                          read its challenge)"
                    .into(),
            });
        }
        let Some(a) = self.auth.as_mut() else { return };
        let attempts = self.ops.get(&op).map_or(0, |o| o.auth_flows);
        let outcome = a.challenge(
            status,
            www.as_deref(),
            nonce.as_deref(),
            generation,
            attempts,
            now,
        );
        match outcome {
            ChallengeOutcome::Retry => {
                let replays = self.ops.get(&op).map_or(0, |o| o.auth_replays);
                if replays >= MAX_AUTH_REPLAYS {
                    let e = ProtocolError::Unauthorized {
                        status,
                        www_authenticate: www,
                    };
                    return self.fail_op(op, e, now);
                }
                if let Some(o) = self.ops.get_mut(&op) {
                    o.auth_replays += 1;
                }
                self.replay(op, now);
            }
            ChallengeOutcome::Wait => {
                if let Some(o) = self.ops.get_mut(&op) {
                    o.auth_flows += 1;
                }
                self.park(op);
            }
            ChallengeOutcome::Fail(e) => self.fail_op(op, ProtocolError::Auth(e), now),
        }
        self.pump_auth(now);
    }

    /// Ends `op` with `e`; a failed connect also returns the session to idle.
    fn fail_op(&mut self, op: OpId, e: ProtocolError, now: u64) {
        if self
            .ops
            .get(&op)
            .is_some_and(|o| matches!(o.kind, OpKind::Connect { .. }))
        {
            self.connect_failed_with(op, e, now);
        } else {
            self.finish(op, Err(e), now);
        }
    }

    /// The 2025-era GET stream was refused with 401/403.
    pub(super) fn get_stream_unauthorized(
        &mut self,
        status: u16,
        www: Option<String>,
        nonce: Option<String>,
        generation: u64,
        now: u64,
    ) {
        let Some(a) = self.auth.as_mut() else { return };
        let Some(g) = self.get_stream.as_mut() else {
            return;
        };
        g.exchange = None;
        let outcome = a.challenge(
            status,
            www.as_deref(),
            nonce.as_deref(),
            generation,
            g.auth_flows,
            now,
        );
        match outcome {
            ChallengeOutcome::Retry if g.auth_replays < MAX_AUTH_REPLAYS => {
                g.auth_replays += 1;
                self.open_get_stream(now);
            }
            ChallengeOutcome::Retry => {
                self.get_stream = None;
                self.events.push_back(Event::Diagnostic {
                    message: format!(
                        "the GET stream stays closed: refused with HTTP {status} after {MAX_AUTH_REPLAYS} retries with fresh credentials"
                    ),
                });
            }
            ChallengeOutcome::Wait => {
                g.auth_flows += 1;
                self.get_after_auth = true;
            }
            ChallengeOutcome::Fail(e) => {
                self.get_stream = None;
                self.events.push_back(Event::Diagnostic {
                    message: format!("the GET stream stays closed: {e}"),
                });
            }
        }
        self.pump_auth(now);
    }

    /// Sends `op` again after a refusal: a 2025 stream resumption resumes (the request runs on
    /// the server already), anything else is re-sent.
    fn replay(&mut self, op: OpId, now: u64) {
        let resuming = self.ops.get(&op).is_some_and(|o| o.rpc.is_some());
        if let Some(o) = self.ops.get_mut(&op) {
            o.waiting_auth = false;
            o.activity = now;
        }
        if resuming {
            self.wake(op, now);
        } else {
            self.drive(op, now);
        }
    }

    // ---- the authorizer's own exchanges --------------------------------------------------------

    /// Carries out what the authorizer asks, in the order it asked: its requests become
    /// exchanges, its aborts end them, its events go to the host, and a finished flow replays or
    /// fails what waited for it. Bounded: a flow asks for a handful of things per input, and
    /// what carrying them out makes it ask comes in the next of at most 1,024 batches.
    pub(super) fn pump_auth(&mut self, now: u64) {
        for _ in 0..1024 {
            let outs = match self.auth.as_mut() {
                Some(a) => a.take_outputs(),
                None => return,
            };
            if outs.is_empty() {
                return;
            }
            for out in outs {
                self.carry_out(out, now);
            }
        }
    }

    fn carry_out(&mut self, out: AuthOutput, now: u64) {
        match out {
            AuthOutput::Send(req, request) => {
                let endpoint = crate::proto::auth::uri::without_query(&request.url).to_string();
                self.new_exchange(Exchange::new(Purpose::Auth { req, endpoint }), request);
            }
            AuthOutput::Abort(req) => {
                // One exchange per request.
                let id = self.exchanges.iter().find_map(|(k, e)| {
                    matches!(&e.purpose, Purpose::Auth { req: r, .. } if *r == req).then_some(*k)
                });
                if let Some(id) = id {
                    self.abort_exchange(id);
                }
            }
            AuthOutput::Event(e) => self.events.push_back(Event::Auth(e)),
            AuthOutput::Done(result) => self.flow_done(result, now),
        }
    }

    fn flow_done(&mut self, result: Result<(), AuthError>, now: u64) {
        let waiters = std::mem::take(&mut self.auth_waiters);
        for op in waiters {
            let Some(o) = self.ops.get_mut(&op) else {
                continue;
            };
            o.waiting_auth = false;
            o.activity = now;
            match &result {
                Ok(()) => self.replay(op, now),
                Err(e) => self.fail_op(op, ProtocolError::Auth(e.clone()), now),
            }
        }
        if std::mem::take(&mut self.get_after_auth) {
            match &result {
                Ok(()) if self.get_stream.is_some() => self.open_get_stream(now),
                _ => self.get_stream = None,
            }
        }
    }

    /// A response head: the authorizer's own exchanges are buffered whole; for MCP exchanges a
    /// `DPoP-Nonce` is noted. Returns whether the exchange was the authorizer's.
    pub(super) fn auth_head(&mut self, id: ExchangeId, head: &ResponseHead) -> bool {
        let Some(ex) = self.exchanges.get_mut(&id) else {
            return false;
        };
        if matches!(ex.purpose, Purpose::Auth { .. }) {
            ex.head = Some(head.clone());
            return true;
        }
        if let Some(a) = self.auth.as_mut() {
            a.note_server_nonce(head.header(crate::proto::auth::jose::DPOP_NONCE_HEADER));
        }
        false
    }

    pub(super) fn auth_body(&mut self, id: ExchangeId, bytes: &[u8], now: u64) -> bool {
        self.last_now = self.last_now.max(now);
        let Some(ex) = self.exchanges.get_mut(&id) else {
            return false;
        };
        let Purpose::Auth { req, endpoint } = &ex.purpose else {
            return false;
        };
        if ex.body.len() + bytes.len() > MAX_AUTH_RESPONSE_BYTES {
            let (req, endpoint) = (*req, endpoint.clone());
            self.abort_exchange(id);
            if let Some(a) = self.auth.as_mut() {
                a.handle_failure(
                    req,
                    AuthError::Network {
                        endpoint,
                        message: format!("the response exceeds {MAX_AUTH_RESPONSE_BYTES} bytes"),
                    },
                    now,
                );
            }
            self.pump_auth(now);
        } else {
            ex.body.extend_from_slice(bytes);
        }
        true
    }

    pub(super) fn auth_body_end(&mut self, id: ExchangeId, now: u64) -> bool {
        self.last_now = self.last_now.max(now);
        if !self
            .exchanges
            .get(&id)
            .is_some_and(|e| matches!(e.purpose, Purpose::Auth { .. }))
        {
            return false;
        }
        let Some(ex) = self.exchanges.remove(&id) else {
            return true;
        };
        let Purpose::Auth { req, .. } = ex.purpose else {
            return true;
        };
        let head = ex.head.unwrap_or_default();
        let resp = AuthResponse {
            status: head.status,
            headers: head.headers,
            body: ex.body,
        };
        if let Some(a) = self.auth.as_mut() {
            a.handle_response(req, resp, now);
        }
        self.pump_auth(now);
        true
    }

    pub(super) fn auth_exchange_failed(
        &mut self,
        id: ExchangeId,
        failure: &TransportFailure,
        now: u64,
    ) -> bool {
        self.last_now = self.last_now.max(now);
        if !self
            .exchanges
            .get(&id)
            .is_some_and(|e| matches!(e.purpose, Purpose::Auth { .. }))
        {
            return false;
        }
        let Some(Exchange {
            purpose: Purpose::Auth { req, endpoint },
            ..
        }) = self.exchanges.remove(&id)
        else {
            return true;
        };
        let error = match failure {
            TransportFailure::Cors(diagnosis) => AuthError::Cors {
                endpoint,
                diagnosis: diagnosis.clone(),
            },
            TransportFailure::Network(m) | TransportFailure::BodyInterrupted(m) => {
                AuthError::Network {
                    endpoint,
                    message: m.clone(),
                }
            }
        };
        if let Some(a) = self.auth.as_mut() {
            a.handle_failure(req, error, now);
        }
        self.pump_auth(now);
        true
    }
}
