//! The authorizer: one MCP server's OAuth state machine (MCP 2026-07-28 `basic/authorization`,
//! 2025-11-25 `basic/authorization`, 2025-03-26 fallbacks, and the client-credentials, WIF,
//! enterprise-managed and DPoP extensions).
//!
//! # Call order
//! Sans-IO, like the session that owns it: plain data in, requests and events out, time passed
//! in. The owner (the session) loops:
//!
//! 1. inputs: [`Authorizer::challenge`] (a 401/403 of an MCP request), [`Authorizer::handle_response`]
//!    / [`Authorizer::handle_failure`] (its own HTTP requests), [`Authorizer::handle_loaded`]
//!    (storage reads), [`Authorizer::add_entropy`], [`Authorizer::handle_dpop_key`],
//!    [`Authorizer::handle_callback`] (the redirect back from the authorization server),
//!    [`Authorizer::handle_timeout`];
//! 2. outputs, in the order they arose: [`Authorizer::take_outputs`] (each an [`AuthOutput`]: a
//!    request to send, answered with its [`AuthReqId`]; a request to abandon; an event: storage
//!    writes and reads, the authorization URL for a person, key and entropy requests; a flow
//!    ended: replay or fail what waited), and [`Authorizer::poll_timeout`];
//! 3. [`Authorizer::decorate`] every MCP request with the current credentials.
//!
//! # The flow
//! ```text
//!  401/403 ─► PRM (challenge URL | path-aware | root | none: 2025-03-26 fallback)
//!          ─► resource check ─► issuer (drop another issuer's tokens and client)
//!          ─► AS metadata (3 path candidates | OAuth, OIDC; issuer must be identical)
//!          ─► refresh, if a refresh token can serve
//!          ─► grant: code+PKCE (client: configured ▸ CIMD ▸ stored ▸ DCR; state; iss check)
//!                    | client_credentials | jwt-bearer | token exchange ▸ jwt-bearer
//!          ─► tokens (saved) ─► done: the waiting requests are replayed
//! ```
//! One flow at a time: requests refused meanwhile wait for it.

use serde_json::Value;

use super::challenge::ChallengeInfo;
use super::client_auth;
use super::config::{AuthConfig, Grant, Interaction};
use super::error::AuthError;
use super::jose::{self, ProofSpec, DPOP_NONCE_HEADER};
use super::metadata::{self, ClientAuthMethod, ResourceMetadata, ServerMetadata};
use super::records::{
    self, keys, ClientRecord, ClientSource, PendingAuthorization, TokenRecord, TokenType,
};
use super::scope;
use super::secret::{constant_time_eq, Secret};
use super::uri::{self, Form};
use crate::proto::http::{HttpRequest, Method, RequestExtras};
use crate::util::write::ObjectText;

/// Identifies one request of the authorizer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AuthReqId(pub u64);

/// A whole response to one of the authorizer's requests (they are small; the owner buffers
/// them up to [`MAX_AUTH_RESPONSE_BYTES`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AuthResponse {
    /// The status (0 for an opaque redirect in a browser).
    pub status: u16,
    /// The headers.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl AuthResponse {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn json(&self) -> Option<Value> {
        // `from_str` like the rest of the crate: a second reader type would duplicate the parser.
        serde_json::from_str(std::str::from_utf8(&self.body).ok()?).ok()
    }
}

/// Largest authorization-server response read.
pub const MAX_AUTH_RESPONSE_BYTES: usize = 1 << 20;
/// How long one authorization-server request may take.
pub const REQUEST_TIMEOUT_MS: u64 = 30_000;
/// How long a person may take to sign in before the flow gives up.
pub const INTERACTION_TIMEOUT_MS: u64 = 10 * 60_000;
/// Random bytes one authorization request needs (32 for the PKCE verifier, 16 for `state`).
const AUTHORIZE_ENTROPY: usize = 48;
/// How long a token obtained here is used before it may be refreshed ahead of its expiry (a
/// token issued with no lifetime to speak of is sent, not refreshed before every request).
const MIN_TOKEN_USE_MS: u64 = 1_000;

/// What the authorizer asks of its host.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AuthEvent {
    /// Read `key` from storage; answer with [`Authorizer::handle_loaded`].
    Load {
        /// The key.
        key: String,
    },
    /// Write `value` under `key` (in order with the other storage events).
    Save {
        /// The key.
        key: String,
        /// The value: a record holding secrets, for the store only.
        value: Secret,
    },
    /// Remove `key`.
    Delete {
        /// The key.
        key: String,
    },
    /// Provide the public JWK of the DPoP key (creating the key if needed); answer with
    /// [`Authorizer::handle_dpop_key`].
    NeedDpopKey,
    /// Provide this many random bytes with [`Authorizer::add_entropy`].
    NeedEntropy {
        /// How many.
        bytes: usize,
    },
    /// A person must visit `url` and the redirect back must be passed to
    /// [`Authorizer::handle_callback`].
    Authorize {
        /// The authorization URL.
        url: String,
    },
    /// Take the named lock (shared by every tab or process of the host, e.g. Web Locks) before a
    /// refresh, then call [`Authorizer::handle_locked`]; hosts without other tabs answer at once.
    /// Refresh tokens rotate: two tabs refreshing with the same one get one of them logged out.
    Lock {
        /// `mcp-edge:refresh:<issuer>:<client id>`.
        name: String,
    },
    /// Release the lock taken for [`AuthEvent::Lock`] (after the new tokens were saved).
    Unlock {
        /// The lock's name.
        name: String,
    },
    /// Tokens were obtained (for a host's "signed in as" display).
    SignedIn {
        /// The issuer.
        issuer: String,
        /// The granted scope.
        scope: Option<String>,
        /// Expiry, Unix milliseconds.
        expires_at: Option<u64>,
        /// `Bearer` or `DPoP`.
        token_type: TokenType,
    },
}

/// What the authorizer asks of its owner, in the order it arose (one queue, so a storage write
/// is never overtaken by the replay it enables).
#[derive(Debug)]
pub enum AuthOutput {
    /// Send this request; answer with [`Authorizer::handle_response`] or
    /// [`Authorizer::handle_failure`].
    Send(AuthReqId, HttpRequest),
    /// Abandon this request (timed out, or its flow failed).
    Abort(AuthReqId),
    /// A host event.
    Event(AuthEvent),
    /// A flow ended (or the initial load): `Ok` replays what waited, `Err` fails it.
    Done(Result<(), AuthError>),
}

/// What to do with a request the server refused with 401 or 403.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChallengeOutcome {
    /// Send it again now (the credentials changed since it was sent, or a DPoP nonce came).
    Retry,
    /// Wait for the running flow, then send it again.
    Wait,
    /// Give up.
    Fail(AuthError),
}

/// Why a flow runs.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Reason {
    /// 401: no or an invalid token.
    Unauthorized(ChallengeInfo),
    /// 403 `insufficient_scope`.
    StepUp(ChallengeInfo),
    /// The token is about to expire.
    Expiring,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum TokenKind {
    Code,
    Refresh,
    ClientCredentials,
    JwtBearer,
    /// Enterprise-managed, first leg (at the IdP).
    Exchange,
}

#[derive(Debug)]
enum Step {
    Prm {
        candidates: Vec<String>,
        next: usize,
        named: bool,
    },
    Asm {
        candidates: Vec<String>,
        next: usize,
        mismatch: Option<String>,
    },
    /// Waiting for the stored client of the issuer.
    LoadingClient,
    Registering {
        requested: ClientAuthMethod,
    },
    WaitingKey,
    WaitingEntropy,
    /// Waiting for the refresh lock.
    Locking,
    /// Holding the lock, re-reading the stored tokens (another tab may have refreshed).
    Rereading,
    Authorizing {
        pending: Box<PendingAuthorization>,
        headless: Option<AuthReqId>,
    },
    /// A callback arrived with no sign-in running here: its pending record is being read.
    LoadingPending {
        callback: Secret,
        key: String,
    },
    /// A resumed sign-in waits for the DPoP key before its token request.
    ResumeWaitingKey {
        pending: Box<PendingAuthorization>,
        callback: Secret,
    },
    Token {
        kind: TokenKind,
        form: Form,
        nonce_retried: bool,
    },
}

#[derive(Debug)]
struct Flow {
    reason: Reason,
    step: Step,
    /// The request the flow waits for.
    in_flight: Option<AuthReqId>,
    /// No resource metadata: the 2025-03-26 fallbacks apply.
    backcompat: bool,
    refresh_tried: bool,
    client_loaded: bool,
    /// The enterprise-managed first leg's result (the ID-JAG).
    id_jag: Option<Secret>,
    deadline: Option<u64>,
    entropy_asked: bool,
    /// The refresh lock this flow holds (released when it ends).
    lock: Option<String>,
    lock_held: bool,
}

/// One MCP server's authorization state. See the module documentation.
#[derive(Debug)]
pub struct Authorizer {
    cfg: AuthConfig,
    server_url: String,
    unix_epoch_ms: u64,
    resource: String,
    prm: Option<ResourceMetadata>,
    issuer: Option<String>,
    asm: Option<ServerMetadata>,
    client: Option<ClientRecord>,
    /// The issuer an issuer-less configured client was first used with.
    static_client_issuer: Option<String>,
    tokens: Option<TokenRecord>,
    generation: u64,
    requested_scope: Option<String>,
    rs_nonce: Option<String>,
    as_nonce: Option<String>,
    dpop_jwk: Option<Value>,
    jwt_bearer_refused: bool,
    entropy: Vec<u8>,
    ready: bool,
    /// The stored tokens are DPoP-bound: the first request waits for the host's key, so it
    /// carries a proof (a request without one is refused, and the refresh it would cause races
    /// other tabs sharing the store).
    loading_key: bool,
    flow: Option<Flow>,
    next_req: u64,
    /// Outputs not yet taken, oldest first (a `Vec`: the session takes them all at once, and
    /// a `VecDeque` of them was 580 B of wasm no other code shares).
    out: Vec<AuthOutput>,
}

/// The media type of token request bodies.
const FORM_TYPE: &str = "application/x-www-form-urlencoded";

/// A request to an authorization server or metadata endpoint, which answers JSON; `body` is
/// (media type, text). A GET carries only `Accept`, a CORS-safelisted header, so a browser sends
/// no preflight for it.
fn oauth_request(method: Method, url: String, body: Option<(&str, String)>) -> HttpRequest {
    let mut headers = vec![("accept".to_string(), "application/json".to_string())];
    let body = body.map(|(media_type, text)| {
        headers.push(("content-type".to_string(), media_type.to_string()));
        text
    });
    HttpRequest {
        method,
        url,
        headers,
        body,
        extras: RequestExtras {
            oauth: true,
            ..RequestExtras::default()
        },
    }
}

/// A form starting with `grant_type`.
fn grant(grant_type: &str) -> Form {
    let mut f = Form::new();
    f.add("grant_type", grant_type);
    f
}

fn oauth_error(body: &Value) -> (Option<String>, Option<String>) {
    (
        crate::util::read::string(body, "error"),
        crate::util::read::string(body, "error_description"),
    )
}

/// `grant_type` values.
mod grant_types {
    pub const CODE: &str = "authorization_code";
    pub const REFRESH: &str = "refresh_token";
    pub const CLIENT_CREDENTIALS: &str = "client_credentials";
    pub const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";
    pub const TOKEN_EXCHANGE: &str = "urn:ietf:params:oauth:grant-type:token-exchange";
    pub const ID_TOKEN_TYPE: &str = "urn:ietf:params:oauth:token-type:id_token";
    pub const ID_JAG_TYPE: &str = "urn:ietf:params:oauth:token-type:id-jag";
}

impl Authorizer {
    /// An authorizer for the MCP server at `server_url`. `unix_epoch_ms` is the Unix time of the
    /// owner's time 0 (token expiry is absolute, so it survives restarts). Starts by asking for
    /// the stored tokens; requests wait until they are loaded ([`Authorizer::is_ready`]).
    pub fn new(cfg: AuthConfig, server_url: &str, unix_epoch_ms: u64) -> Result<Self, AuthError> {
        cfg.validate()?;
        if uri::split(server_url).is_none() {
            return Err(AuthError::InvalidConfig(format!(
                "{server_url:?} is not an absolute http(s) URL"
            )));
        }
        let mut a = Authorizer {
            cfg,
            server_url: server_url.to_string(),
            unix_epoch_ms,
            resource: uri::canonical_resource(server_url),
            prm: None,
            issuer: None,
            asm: None,
            client: None,
            static_client_issuer: None,
            tokens: None,
            generation: 0,
            requested_scope: None,
            rs_nonce: None,
            as_nonce: None,
            dpop_jwk: None,
            jwt_bearer_refused: false,
            entropy: Vec::new(),
            ready: false,
            loading_key: false,
            flow: None,
            next_req: 1,
            out: Vec::new(),
        };
        a.event(AuthEvent::Load {
            key: keys::tokens(server_url),
        });
        Ok(a)
    }

    // ---- state -------------------------------------------------------------------------------

    /// Whether the stored tokens were loaded (requests may be sent).
    pub fn is_ready(&self) -> bool {
        self.ready
    }

    /// The most authorization flows one operation may wait for.
    pub fn max_attempts(&self) -> u32 {
        self.cfg.max_attempts
    }

    /// Whether a flow is running.
    pub fn is_running(&self) -> bool {
        self.flow.is_some()
    }

    /// Bumped each time the credentials change; a request refused with credentials older than
    /// this is simply sent again.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Who is signed in, for display: issuer, scope, expiry (Unix ms), token type.
    pub fn signed_in(&self) -> Option<(&str, Option<&str>, Option<u64>, TokenType)> {
        self.tokens.as_ref().map(|t| {
            (
                t.issuer.as_str(),
                t.scope.as_deref(),
                t.expires_at,
                t.token_type,
            )
        })
    }

    fn wall(&self, now: u64) -> u64 {
        self.unix_epoch_ms.saturating_add(now)
    }

    // ---- outputs -----------------------------------------------------------------------------

    /// What to do, in the order it arose; outputs that arise while the caller carries these out
    /// come with the next call.
    pub fn take_outputs(&mut self) -> Vec<AuthOutput> {
        std::mem::take(&mut self.out)
    }

    fn event(&mut self, e: AuthEvent) {
        self.out.push(AuthOutput::Event(e));
    }
    /// When [`Authorizer::handle_timeout`] must be called.
    pub fn poll_timeout(&self) -> Option<u64> {
        self.flow.as_ref().and_then(|f| f.deadline)
    }

    /// Puts the current credentials on an MCP request: `Authorization` (Bearer or DPoP) and, for
    /// a DPoP-bound token, a proof to sign with `ath` and the server's nonce (RFC 9449 § 7.1).
    /// The token never goes into a URL (MCP `basic/authorization` "Token Requirements").
    pub fn decorate(&self, req: &mut HttpRequest) {
        let Some(t) = &self.tokens else { return };
        let credentials = format!("{} {}", t.token_type.scheme(), t.access_token.expose());
        let name = crate::proto::http::names::AUTHORIZATION;
        crate::proto::http::put_header(&mut req.headers, name, Some(credentials));
        if t.token_type == TokenType::DPoP {
            if let Some(jwk) = &self.dpop_jwk {
                req.extras.proofs.push(ProofSpec::Dpop {
                    htm: req.method.as_str().into(),
                    htu: req.url.clone(),
                    ath: Some(jose::access_token_hash(&t.access_token)),
                    nonce: self.rs_nonce.clone(),
                    jwk: jwk.clone(),
                });
            }
        }
    }

    /// Notes a `DPoP-Nonce` from any MCP response (RFC 9449 § 9: a server may supply a fresh
    /// nonce with any response).
    pub fn note_server_nonce(&mut self, nonce: Option<&str>) {
        if let Some(n) = nonce.filter(|n| !n.is_empty()) {
            self.rs_nonce = Some(n.to_string());
        }
    }

    /// Whether the access token should be refreshed before the next request (it expires within
    /// the configured skew and a refresh token and the server's metadata are at hand); starts
    /// the refresh when so. Requests then wait for its [`AuthOutput::Done`].
    pub fn refresh_if_expiring(&mut self, now: u64) -> bool {
        if self.flow.is_some() || !self.ready {
            return false;
        }
        let wall = self.wall(now);
        // Due within the skew, but never before half the token's life has passed (a server
        // issuing 30-second tokens must not get a refresh per request).
        let due = self.tokens.as_ref().is_some_and(|t| {
            let (Some(expires_at), Some(_)) = (t.expires_at, &t.refresh_token) else {
                return false;
            };
            // A token is refreshed at the latest halfway through its lifetime, so one that
            // lives less than the skew is not "expiring" the moment it arrives (which would
            // refresh it before every request, forever), and never right after it came.
            let margin = match t.obtained_at {
                Some(at) if wall < at.saturating_add(MIN_TOKEN_USE_MS) => return false,
                Some(at) => self
                    .cfg
                    .refresh_skew_ms
                    .min(expires_at.saturating_sub(at) / 2),
                None => self.cfg.refresh_skew_ms,
            };
            expires_at <= wall.saturating_add(margin)
        });
        let same_issuer = match (&self.asm, &self.tokens) {
            (Some(m), Some(t)) => m.issuer == t.issuer,
            _ => false,
        };
        if !(due && same_issuer) {
            return false;
        }
        self.flow = Some(Flow::new(Reason::Expiring, Step::WaitingEntropy));
        self.refresh(now);
        true
    }

    // ---- inputs ------------------------------------------------------------------------------

    /// An MCP request was refused with `status` (401 or 403) and this `WWW-Authenticate` and
    /// `DPoP-Nonce`, having been sent with credentials of generation `sent_generation`.
    /// `attempts`: the flows the refused operation already waited for; at the configured
    /// `max_attempts` it fails instead of authorizing again (MCP `basic/authorization`
    /// "Step-Up Authorization Flow": "Clients SHOULD implement retry limits").
    pub fn challenge(
        &mut self,
        status: u16,
        www_authenticate: Option<&str>,
        dpop_nonce: Option<&str>,
        sent_generation: u64,
        attempts: u32,
        now: u64,
    ) -> ChallengeOutcome {
        let info = ChallengeInfo::from_header(www_authenticate);
        // RFC 9449 § 9: a nonce challenge is answered with a fresh proof carrying the nonce,
        // never with a new authorization.
        if info.error.as_deref() == Some("use_dpop_nonce") && dpop_nonce.is_some() {
            self.note_server_nonce(dpop_nonce);
            return ChallengeOutcome::Retry;
        }
        self.note_server_nonce(dpop_nonce);
        if sent_generation < self.generation {
            return ChallengeOutcome::Retry;
        }
        if attempts >= self.cfg.max_attempts {
            return ChallengeOutcome::Fail(AuthError::StepUpExhausted {
                attempts,
                scope: info.scope,
            });
        }
        if self.flow.is_some() {
            return ChallengeOutcome::Wait;
        }
        if status == 403 && info.error.as_deref() != Some("insufficient_scope") {
            return ChallengeOutcome::Fail(AuthError::Forbidden { error: info.error });
        }
        if self.jwt_bearer_refused {
            return ChallengeOutcome::Fail(AuthError::NotAuthorized(
                "the JWT-bearer grant was refused before and is not retried".into(),
            ));
        }
        let reason = if status == 403 {
            Reason::StepUp(info)
        } else {
            Reason::Unauthorized(info)
        };
        self.start_discovery(reason, now);
        ChallengeOutcome::Wait
    }

    /// A stored value arrived (`None`: absent).
    pub fn handle_loaded(&mut self, key: &str, value: Option<&str>, now: u64) {
        let tokens_key = key == keys::tokens(&self.server_url);
        if self.ready && tokens_key {
            return self.tokens_loaded_again(value, now);
        }
        if tokens_key {
            self.tokens = records::from_stored::<TokenRecord>(value).filter(|t| {
                (t.resource == self.resource || uri::resource_covers(&t.resource, &self.server_url))
                    && self.issued_to_me(t)
            });
            if let Some(t) = &self.tokens {
                self.issuer = Some(t.issuer.clone());
                self.requested_scope = t.scope.clone();
                self.generation += 1;
                if t.token_type == TokenType::DPoP && self.dpop_jwk.is_none() {
                    self.loading_key = true;
                    self.event(AuthEvent::NeedDpopKey);
                    return;
                }
            }
            self.ready = true;
            self.out.push(AuthOutput::Done(Ok(())));
            return;
        }
        if let Some(Step::LoadingPending { callback, key: k }) = self.flow.as_ref().map(|f| &f.step)
        {
            if k == key {
                let callback = callback.clone();
                return self.pending_loaded(callback, value, now);
            }
        }
        let Some(issuer) = self.issuer.clone() else {
            return;
        };
        if key == keys::client(&issuer)
            && matches!(
                self.flow.as_ref().map(|f| &f.step),
                Some(Step::LoadingClient)
            )
        {
            let rec = records::from_stored::<ClientRecord>(value).filter(|c| {
                c.issuer == issuer
                    && (c.source != ClientSource::Registered
                        || c.redirect_uri == self.cfg.redirect_uri)
            });
            if let Some(f) = self.flow.as_mut() {
                f.client_loaded = true;
            }
            self.client = rec;
            self.continue_grant(now);
        }
    }

    /// The stored tokens, read again: under the refresh lock, or because another tab or process
    /// changed them (a host that watches its store passes the new value here). Newer tokens of
    /// the same issuer are adopted without a request; absent ones mean a sign-out elsewhere.
    /// Whether stored tokens may be used by this client: not when another grant obtained them
    /// (a machine's client credentials are not a person's sign-in) or another configured client
    /// (two clients of one server with their own credentials may share a store).
    fn issued_to_me(&self, t: &TokenRecord) -> bool {
        let same_grant = t
            .grant
            .as_deref()
            .is_none_or(|g| g == self.cfg.grant.name());
        let same_client = match (self.cfg.client.as_ref(), t.client_id.as_deref()) {
            (Some(mine), Some(theirs)) => mine.client_id == theirs,
            _ => true,
        };
        same_grant && same_client
    }

    fn tokens_loaded_again(&mut self, value: Option<&str>, now: u64) {
        let stored = records::from_stored::<TokenRecord>(value).filter(|t| {
            (Some(&t.issuer) == self.issuer.as_ref() || self.issuer.is_none())
                && self.issued_to_me(t)
        });
        let rereading = matches!(self.flow.as_ref().map(|f| &f.step), Some(Step::Rereading));
        let ours = self.tokens.as_ref().map(|t| &t.access_token);
        let changed = stored.as_ref().map(|t| &t.access_token) != ours;
        if rereading {
            match stored {
                Some(t) if changed => {
                    self.tokens = Some(t);
                    self.generation += 1;
                    self.finish(Ok(()));
                }
                _ => {
                    self.set_step(Step::WaitingKey);
                    self.refresh(now);
                }
            }
            return;
        }
        if self.flow.is_some() || !changed {
            return;
        }
        match stored {
            Some(t) => {
                self.issuer = Some(t.issuer.clone());
                self.tokens = Some(t);
            }
            None => self.tokens = None,
        }
        self.generation += 1;
    }

    /// Random bytes from the host (for the PKCE verifier and `state`).
    pub fn add_entropy(&mut self, bytes: &[u8], now: u64) {
        self.entropy.extend_from_slice(bytes);
        if matches!(
            self.flow.as_ref().map(|f| &f.step),
            Some(Step::WaitingEntropy)
        ) {
            self.continue_grant(now);
        }
    }

    /// The public JWK of the host's DPoP key.
    pub fn handle_dpop_key(&mut self, jwk: Value, now: u64) {
        self.dpop_jwk = Some(jose::public_jwk(&jwk));
        if self.end_key_load() {
            return;
        }
        if let Some(Step::ResumeWaitingKey { .. }) = self.flow.as_ref().map(|f| &f.step) {
            let Some(Step::ResumeWaitingKey { pending, callback }) = self
                .flow
                .as_mut()
                .map(|f| std::mem::replace(&mut f.step, Step::WaitingKey))
            else {
                return;
            };
            self.set_step(Step::Authorizing {
                pending,
                headless: None,
            });
            return self.handle_callback(callback.expose(), now);
        }
        if matches!(self.flow.as_ref().map(|f| &f.step), Some(Step::WaitingKey)) {
            self.continue_grant(now);
        }
    }

    /// The redirect back from the authorization server: the callback URL, or its query string
    /// (RFC 9207 § 2.4 and OAuth 2.1 § 4.1.2 are applied before the code is used).
    ///
    /// With no sign-in running here (a reloaded page, another isolate of a Worker), the pending
    /// record stored under the callback's `state` is read back and the flow finishes from it.
    pub fn handle_callback(&mut self, callback: &str, now: u64) {
        let Some(Step::Authorizing { pending, .. }) = self.flow.as_ref().map(|f| &f.step) else {
            if self.flow.is_none() {
                self.resume_from_storage(callback, now);
            }
            return;
        };
        let pending = (**pending).clone();
        let params = uri::callback_params(callback);
        let get = |k: &str| params.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        let state_ok = get("state")
            .is_some_and(|s| constant_time_eq(s.as_bytes(), pending.state.expose().as_bytes()));
        self.event(AuthEvent::Delete {
            key: keys::pending(&pending_handle(&pending.state)),
        });
        if !state_ok {
            return self.fail(AuthError::StateMismatch);
        }
        // MCP 2026-07-28 `basic/authorization` "Authorization Response Validation" (RFC 9207
        // § 2.4): compare with simple string comparison, no normalisation of any kind; an
        // advertised but absent `iss` is rejected. Checked before `error` is looked at.
        match (pending.metadata.iss_parameter_supported, get("iss")) {
            (true, None) => {
                return self.fail(AuthError::IssMissing {
                    expected: pending.issuer.clone(),
                })
            }
            (_, Some(iss)) if iss != pending.issuer => {
                return self.fail(AuthError::IssMismatch {
                    expected: pending.issuer.clone(),
                    found: iss.to_string(),
                })
            }
            _ => {}
        }
        if let Some(error) = get("error") {
            return self.fail(AuthError::AuthorizationDenied {
                error: error.to_string(),
                description: get("error_description").map(str::to_string),
            });
        }
        let Some(code) = get("code") else {
            return self.fail(AuthError::AuthorizationDenied {
                error: "the redirect carried no code".into(),
                description: None,
            });
        };
        let mut form = grant(grant_types::CODE);
        form.add("code", code)
            .add("redirect_uri", &pending.redirect_uri)
            .add("code_verifier", pending.verifier.expose());
        self.client = Some(pending.client.clone());
        if self.asm.as_ref().map(|m| &m.issuer) != Some(&pending.issuer) {
            self.asm = Some(pending.metadata);
            self.issuer = Some(pending.issuer.clone());
        }
        self.resource = pending.resource.clone();
        self.requested_scope = pending.scope.clone();
        self.send_token(TokenKind::Code, form, now);
    }

    /// Starts a sign-in without waiting for a refusal (a "Sign in" button): discovery from the
    /// server URL, then the configured grant.
    pub fn begin(&mut self, now: u64) {
        if self.flow.is_none() {
            self.start_discovery(Reason::Unauthorized(ChallengeInfo::default()), now);
        }
    }

    fn resume_from_storage(&mut self, callback: &str, now: u64) {
        let params = uri::callback_params(callback);
        let state = params
            .iter()
            .find(|(k, _)| k == "state")
            .map(|(_, v)| Secret::new(v.as_str()));
        let key = state.as_ref().map(|s| keys::pending(&pending_handle(s)));
        self.flow = Some(Flow::new(
            Reason::Unauthorized(ChallengeInfo::default()),
            Step::LoadingPending {
                callback: Secret::new(callback),
                key: key.clone().unwrap_or_default(),
            },
        ));
        if let Some(f) = self.flow.as_mut() {
            f.deadline = Some(now + REQUEST_TIMEOUT_MS);
        }
        match key {
            Some(key) => self.event(AuthEvent::Load { key }),
            None => self.fail(AuthError::StateMismatch),
        }
    }

    /// The pending record of a resumed sign-in arrived.
    fn pending_loaded(&mut self, callback: Secret, value: Option<&str>, now: u64) {
        let pending = records::from_stored::<PendingAuthorization>(value);
        let Some(pending) = pending.filter(|p| p.server_url == self.server_url) else {
            // No sign-in of this server was started with this state (or it was used already).
            return self.fail(AuthError::StateMismatch);
        };
        if pending.created_at.saturating_add(INTERACTION_TIMEOUT_MS) < self.wall(now) {
            self.event(AuthEvent::Delete {
                key: keys::pending(&pending_handle(&pending.state)),
            });
            return self.fail(AuthError::AuthorizationDenied {
                error: "the sign-in expired before it was completed".into(),
                description: None,
            });
        }
        if pending.dpop && self.dpop_jwk.is_none() {
            self.set_step(Step::ResumeWaitingKey {
                pending: Box::new(pending),
                callback,
            });
            self.event(AuthEvent::NeedDpopKey);
            return;
        }
        self.set_step(Step::Authorizing {
            pending: Box::new(pending),
            headless: None,
        });
        self.handle_callback(callback.expose(), now);
    }

    /// The host cannot perform the person's step (no handler, popup blocked ...): the flow fails
    /// with `error`.
    pub fn abort_flow(&mut self, error: AuthError) {
        // No key for the stored tokens: requests go without a proof, and the server's answer
        // starts the usual flow.
        if self.end_key_load() {
            return;
        }
        if self.flow.is_some() {
            self.fail(error);
        }
    }

    /// Ends the initial load that waited for the DPoP key; `false` when none was waiting.
    fn end_key_load(&mut self) -> bool {
        if !std::mem::take(&mut self.loading_key) {
            return false;
        }
        self.ready = true;
        self.out.push(AuthOutput::Done(Ok(())));
        true
    }

    /// Forgets the tokens (sign-out); the next request starts over.
    pub fn sign_out(&mut self) {
        if self.tokens.take().is_some() {
            self.generation += 1;
        }
        self.event(AuthEvent::Delete {
            key: keys::tokens(&self.server_url),
        });
    }

    /// Fires the flow's deadline.
    pub fn handle_timeout(&mut self, now: u64) {
        let Some(f) = &self.flow else { return };
        if f.deadline.is_some_and(|d| d <= now) {
            // The request in flight is abandoned by `fail` (`finish`).
            let endpoint = match &f.step {
                Step::Authorizing { .. } => "the authorization step".to_string(),
                _ => "the authorization server".to_string(),
            };
            self.fail(AuthError::Network {
                endpoint,
                message: "timed out".into(),
            });
        }
    }

    /// One of the authorizer's requests failed below HTTP.
    pub fn handle_failure(&mut self, id: AuthReqId, error: AuthError, now: u64) {
        if self.flow.as_ref().and_then(|f| f.in_flight) != Some(id) {
            return;
        }
        if let Some(f) = self.flow.as_mut() {
            f.in_flight = None;
        }
        // Discovery moves on to the next candidate; anything else fails.
        match self.flow.as_ref().map(|f| &f.step) {
            Some(Step::Prm { .. }) => self.next_prm(now),
            Some(Step::Asm { .. }) => self.next_asm(now),
            _ => self.fail(error),
        }
    }

    /// A whole response to request `id`.
    pub fn handle_response(&mut self, id: AuthReqId, resp: AuthResponse, now: u64) {
        if self.flow.as_ref().and_then(|f| f.in_flight) != Some(id) {
            return;
        }
        if let Some(f) = self.flow.as_mut() {
            f.in_flight = None;
        }
        // Discovery and the headless redirect keep their step; registration and token requests
        // hand theirs to the answer.
        match self.flow.as_ref().map(|f| &f.step) {
            Some(Step::Prm { .. }) => return self.prm_response(resp, now),
            Some(Step::Asm { .. }) => return self.asm_response(resp, now),
            Some(Step::Authorizing { .. }) => return self.headless_response(resp, now),
            _ => {}
        }
        let step = self
            .flow
            .as_mut()
            .map(|f| std::mem::replace(&mut f.step, Step::WaitingKey));
        match step {
            Some(Step::Registering { requested }) => {
                self.registration_response(requested, resp, now)
            }
            Some(Step::Token {
                kind,
                form,
                nonce_retried,
            }) => self.token_response(kind, form, nonce_retried, resp, now),
            Some(other) => self.set_step(other),
            None => {}
        }
    }

    // ---- discovery ---------------------------------------------------------------------------

    fn set_step(&mut self, step: Step) {
        if let Some(f) = self.flow.as_mut() {
            f.step = step;
        }
    }

    fn send(&mut self, req: HttpRequest, now: u64) -> AuthReqId {
        let id = AuthReqId(self.next_req);
        self.next_req += 1;
        if let Some(f) = self.flow.as_mut() {
            f.in_flight = Some(id);
            f.deadline = Some(now + REQUEST_TIMEOUT_MS);
        }
        self.out.push(AuthOutput::Send(id, req));
        id
    }

    /// A metadata GET: a simple request (only `Accept`, a CORS-safelisted header), so a browser
    /// sends no preflight.
    fn get(&mut self, url: String, now: u64) -> AuthReqId {
        self.send(oauth_request(Method::Get, url, None), now)
    }

    fn start_discovery(&mut self, reason: Reason, now: u64) {
        let named = match &reason {
            Reason::Unauthorized(i) | Reason::StepUp(i) => i.resource_metadata.clone(),
            Reason::Expiring => None,
        };
        let candidates = metadata::prm_candidates(&self.server_url, named.as_deref());
        self.flow = Some(Flow::new(
            reason,
            Step::Prm {
                candidates: candidates.clone(),
                next: 0,
                named: named.is_some(),
            },
        ));
        self.next_prm(now);
    }

    fn next_prm(&mut self, now: u64) {
        let Some(Step::Prm {
            candidates,
            next,
            named,
        }) = self.flow.as_mut().map(|f| &mut f.step)
        else {
            return;
        };
        if let Some(url) = candidates.get(*next).cloned() {
            *next += 1;
            self.get(url, now);
            return;
        }
        if *named {
            let detail = format!(
                "the resource metadata the server named ({}) could not be read",
                candidates.first().map(String::as_str).unwrap_or_default()
            );
            return self.fail(AuthError::DiscoveryFailed { detail });
        }
        // No Protected Resource Metadata: a 2025-03-26 server, whose authorization server is
        // found at the MCP server's origin (MCP 2025-03-26 `basic/authorization` "Server
        // Metadata Discovery").
        let Some(origin) = uri::split(&self.server_url).map(|p| p.origin()) else {
            return self.fail(AuthError::DiscoveryFailed {
                detail: "the server URL is not absolute".into(),
            });
        };
        if let Some(f) = self.flow.as_mut() {
            f.backcompat = true;
        }
        self.prm = None;
        self.resource = uri::canonical_resource(&self.server_url);
        self.select_issuer(origin, now);
    }

    fn prm_response(&mut self, resp: AuthResponse, now: u64) {
        let prm = (resp.status == 200)
            .then(|| resp.json())
            .flatten()
            .and_then(|v| ResourceMetadata::parse(&v));
        let Some(prm) = prm else {
            return self.next_prm(now);
        };
        // RFC 9728 § 3.3 / MCP: the resource must identify this server, checked before any
        // authorization-server traffic.
        if !uri::resource_covers(&prm.resource, &self.server_url) {
            return self.fail(AuthError::ResourceMismatch {
                resource: prm.resource,
                server: self.server_url.clone(),
            });
        }
        let preferred = self
            .cfg
            .client
            .as_ref()
            .and_then(|c| c.issuer.as_ref())
            .filter(|i| prm.authorization_servers.contains(i))
            .cloned();
        let issuer = preferred.unwrap_or_else(|| prm.authorization_servers[0].clone());
        self.resource = prm.resource.clone();
        self.prm = Some(prm);
        self.select_issuer(issuer, now);
    }

    /// Switches to `issuer`. Credentials of another issuer are never used with it (MCP
    /// 2026-07-28 `client-registration`: "MUST NOT reuse client credentials from a different
    /// authorization server and MUST re-register").
    fn select_issuer(&mut self, issuer: String, now: u64) {
        if self.tokens.as_ref().is_some_and(|t| t.issuer != issuer) {
            self.tokens = None;
            self.generation += 1;
            self.event(AuthEvent::Delete {
                key: keys::tokens(&self.server_url),
            });
        }
        if self.client.as_ref().is_some_and(|c| c.issuer != issuer) {
            self.client = None;
        }
        if self.asm.as_ref().is_some_and(|m| m.issuer != issuer) {
            self.asm = None;
        }
        self.issuer = Some(issuer.clone());
        if self.asm.is_some() {
            return self.continue_grant(now);
        }
        let candidates = metadata::as_metadata_candidates(&issuer);
        self.set_step(Step::Asm {
            candidates,
            next: 0,
            mismatch: None,
        });
        self.next_asm(now);
    }

    fn next_asm(&mut self, now: u64) {
        let backcompat = self.flow.as_ref().is_some_and(|f| f.backcompat);
        let issuer = self.issuer.clone().unwrap_or_default();
        let Some(Step::Asm {
            candidates,
            next,
            mismatch,
        }) = self.flow.as_mut().map(|f| &mut f.step)
        else {
            return;
        };
        if let Some(url) = candidates.get(*next).cloned() {
            *next += 1;
            self.get(url, now);
            return;
        }
        if let Some(found) = mismatch.take() {
            return self.fail(AuthError::MetadataIssuerMismatch {
                expected: issuer,
                found,
            });
        }
        if backcompat {
            // MCP 2025-03-26: without metadata, the default endpoints at the server's origin.
            self.asm = Some(ServerMetadata::fallback(&issuer));
            return self.continue_grant(now);
        }
        self.fail(AuthError::MetadataNotFound { issuer })
    }

    fn asm_response(&mut self, resp: AuthResponse, now: u64) {
        let doc = (resp.status == 200)
            .then(|| resp.json())
            .flatten()
            .and_then(|v| ServerMetadata::parse(&v));
        let Some(doc) = doc else {
            return self.next_asm(now);
        };
        // MCP 2026-07-28 `authorization-server-discovery` (RFC 8414 § 3.3): the `issuer` must be
        // identical to the issuer the URL was built from, or the document is not used.
        if Some(&doc.issuer) != self.issuer.as_ref() {
            if let Some(Step::Asm { mismatch, .. }) = self.flow.as_mut().map(|f| &mut f.step) {
                *mismatch = Some(doc.issuer);
            }
            return self.next_asm(now);
        }
        self.asm = Some(doc);
        self.continue_grant(now);
    }

    // ---- grants ------------------------------------------------------------------------------

    fn use_dpop(&self) -> bool {
        self.cfg.dpop && self.asm.as_ref().is_some_and(|m| m.supports_dpop_es256())
    }

    /// Runs the grant from wherever it stands; each prerequisite that is missing starts its own
    /// request (or event) and returns, and the answer calls this again.
    fn continue_grant(&mut self, now: u64) {
        let Some(flow) = &self.flow else { return };
        let issuer = self.issuer.clone().unwrap_or_default();
        let refreshable = self
            .tokens
            .as_ref()
            .is_some_and(|t| t.refresh_token.is_some() && t.issuer == issuer);
        if matches!(flow.reason, Reason::Unauthorized(_) | Reason::Expiring)
            && refreshable
            && !flow.refresh_tried
        {
            return self.refresh(now);
        }
        if self.use_dpop() && self.dpop_jwk.is_none() {
            self.set_step(Step::WaitingKey);
            self.event(AuthEvent::NeedDpopKey);
            return;
        }
        match self.cfg.grant.clone() {
            Grant::AuthorizationCode { interaction } => self.authorization_code(interaction, now),
            Grant::ClientCredentials => {
                let Some(client) = self.configured_client() else {
                    return self.fail(AuthError::NoClientIdentity { issuer });
                };
                self.client = Some(client);
                let form = self.with_scope(grant(grant_types::CLIENT_CREDENTIALS));
                self.send_token(TokenKind::ClientCredentials, form, now);
            }
            Grant::JwtBearer { assertion } => {
                self.client = self.configured_client();
                let mut form = grant(grant_types::JWT_BEARER);
                form.add("assertion", assertion.expose());
                let form = self.with_scope(form);
                self.send_token(TokenKind::JwtBearer, form, now);
            }
            Grant::EnterpriseManaged {
                idp_client_id,
                idp_client_secret,
                id_token,
                ..
            } => {
                let id_jag = self.flow.as_ref().and_then(|f| f.id_jag.clone());
                let Some(id_jag) = id_jag else {
                    // SEP-990 step 1: RFC 8693 token exchange at the IdP for an ID-JAG whose
                    // audience is the authorization server and whose resource is this server.
                    let mut form = grant(grant_types::TOKEN_EXCHANGE);
                    form.add("requested_token_type", grant_types::ID_JAG_TYPE)
                        .add("audience", &issuer)
                        .add("resource", &self.resource)
                        .add("subject_token", id_token.expose())
                        .add("subject_token_type", grant_types::ID_TOKEN_TYPE)
                        .add("client_id", &idp_client_id);
                    if let Some(s) = &idp_client_secret {
                        form.add("client_secret", s.expose());
                    }
                    let form = self.with_scope(form);
                    return self.send_token(TokenKind::Exchange, form, now);
                };
                // Step 2: the ID-JAG as a JWT-bearer assertion at the authorization server.
                let Some(client) = self.configured_client() else {
                    return self.fail(AuthError::NoClientIdentity { issuer });
                };
                self.client = Some(client);
                let mut form = grant(grant_types::JWT_BEARER);
                form.add("assertion", id_jag.expose());
                self.send_token(TokenKind::JwtBearer, form, now);
            }
        }
    }

    /// Adds the first authorization's scope to a non-interactive grant and records it.
    fn with_scope(&mut self, mut form: Form) -> Form {
        let scope = self.first_scope(false);
        if let Some(s) = &scope {
            form.add("scope", s);
        }
        self.requested_scope = scope;
        form
    }

    /// The scope to request: step-up unions the previous request with the challenge; a first
    /// authorization follows the selection strategy. `offline_access` is added when wanted and
    /// listed by the authorization server.
    fn first_scope(&self, with_offline: bool) -> Option<String> {
        let base = match self.flow.as_ref().map(|f| &f.reason) {
            Some(Reason::StepUp(info)) => {
                scope::union(self.requested_scope.as_deref(), info.scope.as_deref())
            }
            Some(Reason::Unauthorized(info)) => scope::initial(
                info.scope.as_deref(),
                self.prm
                    .as_ref()
                    .and_then(|p| p.scopes_supported.as_deref()),
                self.cfg.scope.as_deref(),
            ),
            _ => self.requested_scope.clone(),
        };
        let listed = self
            .asm
            .as_ref()
            .is_some_and(|m| m.lists_scope(scope::OFFLINE_ACCESS));
        scope::with_offline_access(base, with_offline && self.cfg.offline_access, listed)
    }

    /// The configured client, if it may be used with the current issuer: one bound to an
    /// issuer only there; an unbound one with the first issuer it meets.
    fn configured_client(&mut self) -> Option<ClientRecord> {
        let issuer = self.issuer.clone()?;
        let c = self.cfg.client.clone()?;
        let usable = match (&c.issuer, &self.static_client_issuer) {
            (Some(i), _) => *i == issuer,
            (None, Some(bound)) => *bound == issuer,
            (None, None) => true,
        };
        if !usable {
            return None;
        }
        if c.issuer.is_none() {
            self.static_client_issuer = Some(issuer.clone());
        }
        let asm = self.asm.as_ref()?;
        Some(ClientRecord {
            issuer,
            auth_method: client_auth::for_configured(
                asm,
                c.auth_method,
                c.client_secret.is_some(),
                c.private_key_jwt,
            ),
            client_id: c.client_id,
            client_secret: c.client_secret,
            source: ClientSource::Configured,
            redirect_uri: self.cfg.redirect_uri.clone(),
        })
    }

    fn authorization_code(&mut self, interaction: Interaction, now: u64) {
        let issuer = self.issuer.clone().unwrap_or_default();
        let Some(asm) = self.asm.clone() else { return };
        // MCP `security-considerations`: verify PKCE support before proceeding.
        if !asm.supports_s256() {
            return self.fail(AuthError::PkceUnsupported { issuer });
        }
        let Some(endpoint) = asm.authorization_endpoint.clone() else {
            return self.fail(AuthError::DiscoveryFailed {
                detail: format!("{issuer:?} has no authorization_endpoint"),
            });
        };
        let Some(redirect_uri) = self.cfg.redirect_uri.clone() else {
            return self.fail(AuthError::InvalidConfig("no redirect URI".into()));
        };
        // Client identity, in the spec's priority order (MCP 2026-07-28 `client-registration`):
        // pre-registered, Client ID Metadata Document, a registration kept from before, dynamic
        // registration.
        if self.client.as_ref().is_none_or(|c| c.issuer != issuer) {
            if let Some(c) = self.configured_client() {
                self.client = Some(c);
            } else if let Some(c) = self.metadata_document_client() {
                self.client = Some(c);
            } else if !self.flow.as_ref().is_some_and(|f| f.client_loaded) {
                self.set_step(Step::LoadingClient);
                self.event(AuthEvent::Load {
                    key: keys::client(&issuer),
                });
                return;
            } else if let Some(reg) = asm.registration_endpoint.clone() {
                return self.register(&reg, &asm, &redirect_uri, now);
            } else {
                return self.fail(AuthError::NoClientIdentity { issuer });
            }
        }
        // Randomness for the verifier and `state`.
        if self.entropy.len() < AUTHORIZE_ENTROPY {
            let ask = !self.flow.as_ref().is_some_and(|f| f.entropy_asked);
            self.set_step(Step::WaitingEntropy);
            if let Some(f) = self.flow.as_mut() {
                f.entropy_asked = true;
            }
            if ask {
                self.event(AuthEvent::NeedEntropy {
                    bytes: AUTHORIZE_ENTROPY - self.entropy.len(),
                });
            }
            return;
        }
        let rest = self.entropy.split_off(AUTHORIZE_ENTROPY);
        let random = std::mem::replace(&mut self.entropy, rest);
        let mut v = [0u8; 32];
        v.copy_from_slice(&random[..32]);
        let verifier = jose::pkce_verifier(&v);
        let state = Secret::new(jose::b64url(&random[32..48]));
        let Some(client) = self.client.clone() else {
            return;
        };
        let scope = self.first_scope(true);
        let dpop = self.use_dpop();
        let challenge = jose::pkce_challenge(&verifier);
        let mut q = Form::new();
        q.add("response_type", "code")
            .add("client_id", &client.client_id)
            .add("redirect_uri", &redirect_uri);
        if let Some(s) = &scope {
            q.add("scope", s);
        }
        q.add("state", state.expose())
            .add("code_challenge", &challenge)
            .add("code_challenge_method", "S256")
            // RFC 8707 § 2.1: the exact resource string, in both requests.
            .add("resource", &self.resource);
        // RFC 9449 § 10: bind the code to the DPoP key.
        let jkt = self
            .dpop_jwk
            .as_ref()
            .filter(|_| dpop)
            .and_then(jose::jwk_thumbprint);
        if let Some(j) = &jkt {
            q.add("dpop_jkt", j);
        }
        let url = uri::with_query(&endpoint, q.as_str());
        let pending = PendingAuthorization {
            state: state.clone(),
            verifier,
            issuer: asm.issuer.clone(),
            metadata: asm,
            client,
            resource: self.resource.clone(),
            scope: scope.clone(),
            redirect_uri,
            server_url: self.server_url.clone(),
            dpop,
            created_at: self.wall(now),
        };
        self.requested_scope = scope;
        self.event(AuthEvent::Save {
            key: keys::pending(&pending_handle(&state)),
            value: records::to_stored(&pending),
        });
        match interaction {
            Interaction::Host => {
                self.set_step(Step::Authorizing {
                    pending: Box::new(pending),
                    headless: None,
                });
                if let Some(f) = self.flow.as_mut() {
                    f.deadline = Some(now + INTERACTION_TIMEOUT_MS);
                }
                self.event(AuthEvent::Authorize { url });
            }
            Interaction::Headless => {
                let req = HttpRequest {
                    method: Method::Get,
                    url,
                    headers: Vec::new(),
                    body: None,
                    extras: RequestExtras {
                        manual_redirect: true,
                        oauth: true,
                        ..RequestExtras::default()
                    },
                };
                self.set_step(Step::Authorizing {
                    pending: Box::new(pending),
                    headless: None,
                });
                let id = self.send(req, now);
                if let Some(Step::Authorizing { headless, .. }) =
                    self.flow.as_mut().map(|f| &mut f.step)
                {
                    *headless = Some(id);
                }
            }
        }
    }

    /// The headless authorization request's answer: the redirect to the callback.
    fn headless_response(&mut self, resp: AuthResponse, now: u64) {
        match (resp.status, resp.header(crate::proto::http::names::LOCATION)) {
            (300..=399, Some(location)) => {
                let location = location.to_string();
                self.handle_callback(&location, now)
            }
            (0, _) => self.fail(AuthError::HeadlessUnavailable {
                detail: "the host hides redirects (an opaque redirect in a browser page); use a sign-in popup or a redirect instead".into(),
            }),
            (status, _) => self.fail(AuthError::HeadlessUnavailable {
                detail: format!(
                    "the authorization server answered HTTP {status} instead of redirecting back; a person has to sign in"
                ),
            }),
        }
    }

    /// Dynamic client registration (RFC 7591 § 3.1; MCP 2026-07-28 `client-registration`:
    /// `application_type` is required, and interactive clients that want refresh tokens list
    /// `refresh_token` in `grant_types`).
    fn register(&mut self, endpoint: &str, asm: &ServerMetadata, redirect_uri: &str, now: u64) {
        let method = client_auth::for_registration(asm);
        let application_type = self.cfg.application_type.clone().unwrap_or_else(|| {
            if uri::is_loopback(redirect_uri) {
                "native".into()
            } else {
                "web".into()
            }
        });
        let mut grants = vec![grant_types::CODE.to_string()];
        if self.cfg.offline_access {
            grants.push(grant_types::REFRESH.to_string());
        }
        let body = ObjectText::new()
            .str("client_name", &self.cfg.client_name)
            .list("redirect_uris", Some(&[redirect_uri.to_string()]))
            .list("grant_types", Some(&grants))
            .list("response_types", Some(&["code".to_string()]))
            .str("token_endpoint_auth_method", method.as_str())
            .str("application_type", &application_type)
            .finish();
        let body = ("application/json", body);
        let req = oauth_request(Method::Post, endpoint.to_string(), Some(body));
        self.set_step(Step::Registering { requested: method });
        self.send(req, now);
    }

    fn registration_response(&mut self, requested: ClientAuthMethod, resp: AuthResponse, now: u64) {
        let doc = resp.json().unwrap_or(Value::Null);
        let client_id = doc.get("client_id").and_then(Value::as_str);
        let (Some(client_id), 200..=201) = (client_id, resp.status) else {
            return self.fail(AuthError::RegistrationFailed {
                status: resp.status,
                error: oauth_error(&doc).0,
            });
        };
        let secret = doc
            .get("client_secret")
            .and_then(Value::as_str)
            .map(Secret::new);
        let method = client_auth::from_registration(
            requested,
            doc.get("token_endpoint_auth_method")
                .and_then(Value::as_str),
            secret.is_some(),
        );
        let rec = ClientRecord {
            issuer: self.issuer.clone().unwrap_or_default(),
            client_id: client_id.to_string(),
            client_secret: secret,
            auth_method: method,
            source: ClientSource::Registered,
            redirect_uri: self.cfg.redirect_uri.clone(),
        };
        self.event(AuthEvent::Save {
            key: keys::client(&rec.issuer),
            value: records::to_stored(&rec),
        });
        self.client = Some(rec);
        self.continue_grant(now);
    }

    fn refresh(&mut self, now: u64) {
        let Some(rt) = self.tokens.as_ref().and_then(|t| t.refresh_token.clone()) else {
            return;
        };
        let issuer = self.issuer.clone().unwrap_or_default();
        if self.client.as_ref().is_none_or(|c| c.issuer != issuer) {
            self.client = self
                .configured_client()
                .or_else(|| self.metadata_document_client());
        }
        if self.client.is_none() {
            if !self.flow.as_ref().is_some_and(|f| f.client_loaded) {
                // The registration made with these tokens is in storage.
                self.set_step(Step::LoadingClient);
                self.event(AuthEvent::Load {
                    key: keys::client(&issuer),
                });
                return;
            }
            if let Some(f) = self.flow.as_mut() {
                f.refresh_tried = true;
            }
            if matches!(
                self.flow.as_ref().map(|f| &f.reason),
                Some(Reason::Expiring)
            ) {
                return self.finish(Ok(()));
            }
            return self.continue_grant(now);
        }
        if self.use_dpop() && self.dpop_jwk.is_none() {
            self.set_step(Step::WaitingKey);
            self.event(AuthEvent::NeedDpopKey);
            return;
        }
        if !self.flow.as_ref().is_some_and(|f| f.lock_held) {
            // One refresh per issuer and client across tabs: lock, then re-read the store.
            let name = format!(
                "mcp-edge:refresh:{issuer}:{}",
                self.client.as_ref().map_or("", |c| c.client_id.as_str())
            );
            if let Some(f) = self.flow.as_mut() {
                f.lock = Some(name.clone());
                f.deadline = Some(now + REQUEST_TIMEOUT_MS);
            }
            self.set_step(Step::Locking);
            self.event(AuthEvent::Lock { name });
            return;
        }
        if let Some(f) = self.flow.as_mut() {
            f.refresh_tried = true;
        }
        let mut form = grant(grant_types::REFRESH);
        form.add("refresh_token", rt.expose());
        self.send_token(TokenKind::Refresh, form, now);
    }

    /// The lock asked for by [`AuthEvent::Lock`] is held: the stored tokens are read again, and
    /// the refresh is sent only if no other tab or process refreshed meanwhile.
    pub fn handle_locked(&mut self, now: u64) {
        if !matches!(self.flow.as_ref().map(|f| &f.step), Some(Step::Locking)) {
            return;
        }
        if let Some(f) = self.flow.as_mut() {
            f.lock_held = true;
            f.deadline = Some(now + REQUEST_TIMEOUT_MS);
        }
        self.set_step(Step::Rereading);
        self.event(AuthEvent::Load {
            key: keys::tokens(&self.server_url),
        });
    }

    /// The Client ID Metadata Document identity, where the issuer supports it.
    fn metadata_document_client(&self) -> Option<ClientRecord> {
        let asm = self.asm.as_ref()?;
        let url = self.cfg.client_metadata_url.clone()?;
        asm.client_id_metadata_document_supported
            .then(|| ClientRecord {
                issuer: asm.issuer.clone(),
                client_id: url,
                client_secret: None,
                auth_method: ClientAuthMethod::None,
                source: ClientSource::MetadataDocument,
                redirect_uri: self.cfg.redirect_uri.clone(),
            })
    }

    /// A token request (OAuth 2.1 § 3.2): `resource` always (RFC 8707 § 2.2), client
    /// authentication, and a DPoP proof when the server offers DPoP (RFC 9449 § 5).
    fn send_token(&mut self, kind: TokenKind, form: Form, now: u64) {
        let (endpoint, to_idp) = match (&kind, &self.cfg.grant) {
            (
                TokenKind::Exchange,
                Grant::EnterpriseManaged {
                    idp_token_endpoint, ..
                },
            ) => (idp_token_endpoint.clone(), true),
            _ => match &self.asm {
                Some(m) => (m.token_endpoint.clone(), false),
                None => {
                    return self.fail(AuthError::DiscoveryFailed {
                        detail: "no token endpoint".into(),
                    })
                }
            },
        };
        let saved_form = form.clone();
        let mut form = form;
        if !to_idp {
            form.add("resource", &self.resource);
        }
        let mut headers = Vec::new();
        let mut proofs = Vec::new();
        if !to_idp {
            if let Some(jwk) = self.dpop_jwk.as_ref().filter(|_| self.use_dpop()) {
                proofs.push(ProofSpec::Dpop {
                    htm: "POST".into(),
                    htu: endpoint.clone(),
                    ath: None,
                    nonce: self.as_nonce.clone(),
                    jwk: jwk.clone(),
                });
            }
            if let Some(c) = &self.client {
                client_auth::apply(c, &mut headers, &mut form);
                if c.auth_method == ClientAuthMethod::PrivateKeyJwt {
                    proofs.push(ProofSpec::ClientAssertion {
                        client_id: c.client_id.clone(),
                        audience: self.issuer.clone().unwrap_or_default(),
                        lifetime_s: 60,
                    });
                }
            }
        }
        let body = (FORM_TYPE, form.as_str().to_string());
        let mut req = oauth_request(Method::Post, endpoint, Some(body));
        req.headers.append(&mut headers);
        req.extras.proofs = proofs;
        let nonce_retried = matches!(
            self.flow.as_ref().map(|f| &f.step),
            Some(Step::Token {
                nonce_retried: true,
                ..
            })
        );
        self.set_step(Step::Token {
            kind,
            form: saved_form,
            nonce_retried,
        });
        self.send(req, now);
    }

    fn token_response(
        &mut self,
        kind: TokenKind,
        form: Form,
        nonce_retried: bool,
        resp: AuthResponse,
        now: u64,
    ) {
        let doc = resp.json().unwrap_or(Value::Null);
        let (error, description) = oauth_error(&doc);
        // RFC 9449 § 8: the authorization server wants a nonce; answer once with a new proof.
        if error.as_deref() == Some("use_dpop_nonce") && !nonce_retried {
            if let Some(n) = resp.header(DPOP_NONCE_HEADER).filter(|n| !n.is_empty()) {
                self.as_nonce = Some(n.to_string());
                self.set_step(Step::Token {
                    kind: kind.clone(),
                    form: Form::new(),
                    nonce_retried: true,
                });
                return self.send_token(kind, form, now);
            }
        }
        if let Some(n) = resp.header(DPOP_NONCE_HEADER).filter(|n| !n.is_empty()) {
            self.as_nonce = Some(n.to_string());
        }
        let ok = resp.status == 200 && error.is_none();
        if !ok {
            let e = AuthError::TokenRequestFailed {
                status: resp.status,
                error: error.clone(),
                description,
            };
            return match kind {
                // A refused refresh: forget the tokens and run the grant from the start.
                TokenKind::Refresh => {
                    self.tokens = None;
                    self.generation += 1;
                    self.event(AuthEvent::Delete {
                        key: keys::tokens(&self.server_url),
                    });
                    if matches!(
                        self.flow.as_ref().map(|f| &f.reason),
                        Some(Reason::Expiring)
                    ) {
                        // Nothing refused a request yet: let the next 401 start over.
                        return self.finish(Ok(()));
                    }
                    self.continue_grant(now)
                }
                // SEP-1933: a refused JWT-bearer request is final: no retry, no other grant.
                TokenKind::JwtBearer => {
                    self.jwt_bearer_refused = true;
                    self.fail(e)
                }
                _ => self.fail(e),
            };
        }
        let Some(access) = doc.get("access_token").and_then(Value::as_str) else {
            return self.fail(AuthError::InvalidTokenResponse(
                "no access_token in the token response".into(),
            ));
        };
        if kind == TokenKind::Exchange {
            if let Some(f) = self.flow.as_mut() {
                f.id_jag = Some(Secret::new(access));
            }
            return self.continue_grant(now);
        }
        let token_type = match doc.get("token_type").and_then(Value::as_str) {
            Some(t) if t.eq_ignore_ascii_case("dpop") => TokenType::DPoP,
            Some(t) if t.eq_ignore_ascii_case("bearer") => TokenType::Bearer,
            None => TokenType::Bearer,
            Some(other) => {
                return self.fail(AuthError::InvalidTokenResponse(format!(
                    "unsupported token_type {other:?}"
                )))
            }
        };
        if token_type == TokenType::DPoP && self.dpop_jwk.is_none() {
            return self.fail(AuthError::InvalidTokenResponse(
                "a DPoP-bound token was issued without a DPoP proof".into(),
            ));
        }
        let expires_at = doc
            .get("expires_in")
            .and_then(Value::as_u64)
            .map(|s| self.wall(now).saturating_add(s.saturating_mul(1000)));
        // RFC 6749 § 6: a refresh response without a new refresh token keeps the old one.
        let refresh_token = doc
            .get("refresh_token")
            .and_then(Value::as_str)
            .map(Secret::new)
            .or_else(|| {
                (kind == TokenKind::Refresh)
                    .then(|| self.tokens.as_ref().and_then(|t| t.refresh_token.clone()))
                    .flatten()
            });
        let granted =
            crate::util::read::string(&doc, "scope").or_else(|| self.requested_scope.clone());
        let rec = TokenRecord {
            issuer: self.issuer.clone().unwrap_or_default(),
            resource: self.resource.clone(),
            access_token: Secret::new(access),
            token_type,
            expires_at,
            obtained_at: Some(self.wall(now)),
            refresh_token,
            scope: granted.clone(),
            client_id: self.client.as_ref().map(|c| c.client_id.clone()),
            grant: Some(self.cfg.grant.name().to_string()),
        };
        self.event(AuthEvent::Save {
            key: keys::tokens(&self.server_url),
            value: records::to_stored(&rec),
        });
        self.event(AuthEvent::SignedIn {
            issuer: rec.issuer.clone(),
            scope: granted,
            expires_at,
            token_type,
        });
        self.tokens = Some(rec);
        self.generation += 1;
        self.finish(Ok(()));
    }

    fn fail(&mut self, e: AuthError) {
        self.finish(Err(e));
    }

    fn finish(&mut self, result: Result<(), AuthError>) {
        // A lock asked for and not granted yet is released by the host once it is.
        if let Some(name) = self.flow.as_mut().and_then(|f| f.lock.take()) {
            self.event(AuthEvent::Unlock { name });
        }
        if let Some(f) = self.flow.take() {
            if let Some(r) = f.in_flight {
                if result.is_err() {
                    self.out.push(AuthOutput::Abort(r));
                }
            }
        }
        self.out.push(AuthOutput::Done(result));
    }
}

impl Flow {
    fn new(reason: Reason, step: Step) -> Self {
        Flow {
            reason,
            step,
            in_flight: None,
            backcompat: false,
            refresh_tried: false,
            client_loaded: false,
            id_jag: None,
            deadline: None,
            entropy_asked: false,
            lock: None,
            lock_held: false,
        }
    }
}

/// The public handle a pending request is stored under: derived from `state` so the callback
/// finds it, without putting the `state` itself into a storage key.
pub fn pending_handle(state: &Secret) -> String {
    jose::b64url(&crate::util::hash::sha256(state.expose().as_bytes())[..12])
}
