//! The component's side of authorization: it answers the authorizer's events synchronously and
//! signs the proofs requests carry just before they are sent (the JS driver does the same with
//! the host's storage and WebCrypto, `src/client/auth.rs`).
//!
//! ```text
//!   Event::Auth(Load/Save/Delete) ─► memory store (shared by the instance's clients)
//!   Event::Auth(NeedEntropy)      ─► wasi:random get-random-bytes
//!   Event::Auth(NeedDpopKey)      ─► a P-256 key from wasi:random (RustCrypto p256)
//!   Event::Auth(Authorize{url})   ─► fails with AUTH_INTERACTION_REQUIRED + url (no person here)
//!   Transmit with proofs          ─► signing input (core) ─► ES256 (p256) ─► JWT into the request
//! ```

use std::cell::RefCell;

use super::exports::client::{AuthGrant, AuthOptions};
use crate::bindings::wasi::clocks::wall_clock;
use crate::bindings::wasi::random::random;
use crate::proto::auth::{
    jose, AuthConfig, AuthError, AuthEvent, Grant, Interaction, KeyRole, Secret, StaticClient,
};
use crate::proto::http::HttpRequest;
use crate::proto::session::Session;
use crate::transport::es256::Es256Key;

/// Most records the memory store keeps (tokens and registrations per server and issuer, pending
/// sign-ins): beyond it the oldest writes are forgotten first.
pub const MAX_STORED_RECORDS: usize = 256;

thread_local! {
    /// The records of every client of this component instance, in write order.
    static STORE: RefCell<Vec<(String, String)>> = const { RefCell::new(Vec::new()) };
}

fn store_get(key: &str) -> Option<String> {
    STORE.with(|s| {
        s.borrow()
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
    })
}

fn store_put(key: String, value: String) {
    STORE.with(|s| {
        let mut s = s.borrow_mut();
        s.retain(|(k, _)| *k != key);
        if s.len() >= MAX_STORED_RECORDS {
            s.remove(0);
        }
        s.push((key, value));
    });
}

fn store_delete(key: &str) {
    STORE.with(|s| s.borrow_mut().retain(|(k, _)| k != key));
}

/// `len` random bytes from the host (`wasi:random/random`, a CSPRNG).
fn random_bytes(len: usize) -> Vec<u8> {
    random::get_random_bytes(len as u64)
}

/// Unix time in milliseconds (`wasi:clocks/wall-clock`).
pub fn unix_ms() -> u64 {
    let t = wall_clock::now();
    t.seconds
        .saturating_mul(1000)
        .saturating_add(u64::from(t.nanoseconds) / 1_000_000)
}

/// The core settings from the WIT `auth-options`.
pub fn config(o: &AuthOptions) -> Result<AuthConfig, AuthError> {
    let grant = match o.grant {
        AuthGrant::ClientCredentials => Grant::ClientCredentials,
        AuthGrant::AuthorizationCode => Grant::AuthorizationCode {
            interaction: Interaction::Host,
        },
    };
    let mut cfg = AuthConfig::new(grant);
    cfg.scope = o.scope.clone();
    cfg.redirect_uri = o.redirect_uri.clone();
    if let Some(d) = o.dpop {
        cfg.dpop = d;
    }
    cfg.client = o.client_id.as_ref().map(|id| StaticClient {
        issuer: None,
        client_id: id.clone(),
        client_secret: o.client_secret.clone().map(Secret::new),
        private_key_jwt: o.private_key_pem.is_some(),
        auth_method: None,
    });
    cfg.validate()?;
    Ok(cfg)
}

/// What one client holds for authorization: its keys.
#[derive(Debug, Default)]
pub struct AuthHost {
    client_key_pem: Option<Secret>,
    dpop: Option<Es256Key>,
    client: Option<Es256Key>,
}

impl AuthHost {
    /// For a client whose `private_key_jwt` key is `client_key_pem`.
    pub fn new(client_key_pem: Option<String>) -> Self {
        AuthHost {
            client_key_pem: client_key_pem.map(Secret::new),
            dpop: None,
            client: None,
        }
    }

    /// Answers one of the authorizer's events; returns a line for the host's notifications when
    /// there is one (who signed in).
    pub fn answer(&mut self, session: &mut Session, event: AuthEvent, now: u64) -> Option<String> {
        match event {
            AuthEvent::Load { key } => {
                let value = store_get(&key);
                session.handle_auth_loaded(&key, value.as_deref(), now);
            }
            AuthEvent::Save { key, value } => store_put(key, value.expose().to_string()),
            AuthEvent::Delete { key } => store_delete(&key),
            // One component instance is one process with no concurrent refresher: the lock is
            // granted at once (the store is this instance's own).
            AuthEvent::Lock { .. } => session.handle_auth_locked(now),
            AuthEvent::Unlock { .. } => {}
            AuthEvent::NeedEntropy { bytes } => session.add_entropy(&random_bytes(bytes), now),
            AuthEvent::NeedDpopKey => match Es256Key::generate(random_bytes) {
                Ok(key) => {
                    let jwk = key.public_jwk();
                    self.dpop = Some(key);
                    session.handle_dpop_key(jwk, now);
                }
                Err(m) => session.abort_authorization(AuthError::Signing(m), now),
            },
            // No person can be shown a page from inside a component: the host gets the URL.
            AuthEvent::Authorize { url } => {
                session.abort_authorization(AuthError::InteractionRequired { url }, now)
            }
            AuthEvent::SignedIn {
                issuer,
                scope,
                token_type,
                ..
            } => {
                return Some(format!(
                    "signed in at {issuer} ({} token, scope {})",
                    token_type.scheme(),
                    scope.as_deref().unwrap_or("-")
                ))
            }
        }
        None
    }

    fn key(&mut self, role: KeyRole) -> Result<&Es256Key, AuthError> {
        match role {
            KeyRole::Dpop => self
                .dpop
                .as_ref()
                .ok_or_else(|| AuthError::Signing("the DPoP key is not ready".into())),
            KeyRole::Client => {
                if self.client.is_none() {
                    let pem = self.client_key_pem.as_ref().ok_or_else(|| {
                        AuthError::InvalidConfig(
                            "private_key_jwt needs the client's private key".into(),
                        )
                    })?;
                    self.client =
                        Some(Es256Key::from_pkcs8_pem(pem.expose()).map_err(AuthError::Signing)?);
                }
                self.client
                    .as_ref()
                    .ok_or_else(|| AuthError::Signing("no client key".into()))
            }
        }
    }

    /// Signs every proof `req` asks for, just before it is sent: each gets the current time and
    /// a fresh random `jti` (RFC 9449 § 4.2, RFC 7523 § 3).
    pub fn sign_proofs(&mut self, req: &mut HttpRequest) -> Result<(), AuthError> {
        let iat = unix_ms() / 1000;
        let jti = || Ok::<_, AuthError>(crate::util::hash::hex(&random_bytes(16)));
        for proof in jose::take_proofs(req, iat, jti)? {
            let signature = self.key(proof.key())?.sign(proof.signing_input());
            proof.finish(req, &signature);
        }
        Ok(())
    }
}
