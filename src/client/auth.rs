//! The driver's side of authorization: it answers the authorizer's events with the host's
//! storage, randomness, keys and sign-in handler, and signs the proofs requests carry just
//! before they are sent.
//!
//! ```text
//!   Event::Auth(Load/Save/Delete) ─► AuthStorage (in order, one at a time) ─► handle_auth_loaded
//!   Event::Auth(NeedEntropy)      ─► crypto.getRandomValues               ─► add_entropy
//!   Event::Auth(NeedDpopKey)      ─► WebCrypto P-256 (non-extractable)      ─► handle_dpop_key
//!   Event::Auth(Authorize{url})   ─► host handler (popup, redirect, CLI)    ─► callback
//!   Transmit with proofs          ─► signing input (core) ─► subtle.sign ─► JWT into the request
//! ```

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use super::oneshot;
use crate::proto::auth::{jose, AuthError, KeyRole, Secret};
use crate::proto::http::HttpRequest;
use crate::transport::webcrypto::{self, SigningKey};

/// A future of the storage interface.
pub type StorageFuture<T> = Pin<Box<dyn Future<Output = Result<T, String>>>>;

/// Where the authorizer's records (tokens, client registrations, pending sign-ins) live: an
/// async get/put/delete of strings. Values hold secrets: a store decides how far they travel.
pub trait AuthStorage {
    /// The value under `key`, if any.
    fn get(&self, key: &str) -> StorageFuture<Option<String>>;
    /// Stores `value` under `key`.
    fn put(&self, key: &str, value: &str) -> StorageFuture<()>;
    /// Removes `key`.
    fn delete(&self, key: &str) -> StorageFuture<()>;
}

thread_local! {
    static MEMORY: RefCell<HashMap<String, String>> = RefCell::new(HashMap::new());
}

/// The default store: memory shared by every client of this module instance (tokens survive a
/// reconnect, not a reload).
#[derive(Debug, Default, Clone, Copy)]
pub struct MemoryStorage;

impl AuthStorage for MemoryStorage {
    fn get(&self, key: &str) -> StorageFuture<Option<String>> {
        let v = MEMORY.with(|m| m.borrow().get(key).cloned());
        Box::pin(async move { Ok(v) })
    }
    fn put(&self, key: &str, value: &str) -> StorageFuture<()> {
        MEMORY.with(|m| m.borrow_mut().insert(key.to_string(), value.to_string()));
        Box::pin(async { Ok(()) })
    }
    fn delete(&self, key: &str) -> StorageFuture<()> {
        MEMORY.with(|m| m.borrow_mut().remove(key));
        Box::pin(async { Ok(()) })
    }
}

/// Performs the person's step: given the authorization URL, resolves with the callback URL (or
/// its query) the authorization server redirected to.
pub type AuthorizeHandler =
    Rc<dyn Fn(String) -> Pin<Box<dyn Future<Output = Result<String, AuthError>>>>>;

/// What the host provides for authorization.
#[derive(Clone)]
pub struct AuthHost {
    /// The record store.
    pub storage: Rc<dyn AuthStorage>,
    /// The person's step (absent: a flow that needs a person fails with
    /// `AUTH_INTERACTION_REQUIRED` carrying the URL, unless the grant is headless).
    pub on_authorize: Option<AuthorizeHandler>,
    /// The client's private key for `private_key_jwt` (PKCS#8 PEM, P-256).
    pub client_key_pem: Option<Secret>,
}

impl std::fmt::Debug for AuthHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuthHost")
            .field("on_authorize", &self.on_authorize.is_some())
            .field("client_key_pem", &self.client_key_pem.is_some())
            .finish()
    }
}

/// A storage operation, run strictly in order.
pub(crate) enum StorageOp {
    Load(String),
    Save(String, Secret),
    Delete(String),
}

/// The driver's authorization state.
pub(crate) struct AuthDriver {
    pub(crate) host: AuthHost,
    pub(crate) queue: VecDeque<StorageOp>,
    pub(crate) draining: bool,
    /// Who waits for the queue to run empty ([`settled`]).
    pub(crate) settled: Vec<oneshot::Sender<()>>,
    dpop: Option<SigningKey>,
    client: Option<SigningKey>,
}

impl AuthDriver {
    pub(crate) fn new(host: AuthHost) -> Self {
        AuthDriver {
            host,
            queue: VecDeque::new(),
            draining: false,
            settled: Vec::new(),
            dpop: None,
            client: None,
        }
    }
}

/// Waits until every storage operation queued so far has run, so that a sign-in or a close
/// resolves only once its records are in the host's store (a Worker may end its request, and
/// with it any unfinished write, right after).
pub(crate) async fn settled(state: &RefCell<Option<AuthDriver>>) {
    let rx = {
        let mut a = state.borrow_mut();
        let Some(d) = a.as_mut() else { return };
        if !d.draining && d.queue.is_empty() {
            return;
        }
        let (tx, rx) = oneshot::channel();
        d.settled.push(tx);
        rx
    };
    let _ = rx.await;
}

/// Returns (creating once) the DPoP key's public JWK.
pub(crate) async fn dpop_public_jwk(
    state: &RefCell<Option<AuthDriver>>,
) -> Result<serde_json::Value, AuthError> {
    let (key, jwk) = webcrypto::generate_es256()
        .await
        .map_err(AuthError::Signing)?;
    if let Some(d) = state.borrow_mut().as_mut() {
        d.dpop = Some(key);
    }
    Ok(jwk)
}

async fn key_for(
    state: &RefCell<Option<AuthDriver>>,
    role: KeyRole,
) -> Result<SigningKey, AuthError> {
    let (have, pem) = {
        let st = state.borrow();
        let d = st
            .as_ref()
            .ok_or_else(|| AuthError::Signing("no authorization host".into()))?;
        match role {
            KeyRole::Dpop => (d.dpop.clone(), None),
            KeyRole::Client => (d.client.clone(), d.host.client_key_pem.clone()),
        }
    };
    if let Some(k) = have {
        return Ok(k);
    }
    match role {
        KeyRole::Dpop => Err(AuthError::Signing("the DPoP key is not ready".into())),
        KeyRole::Client => {
            let pem = pem.ok_or_else(|| {
                AuthError::InvalidConfig("private_key_jwt needs the client's private key".into())
            })?;
            let key = webcrypto::import_pkcs8_es256(pem.expose())
                .await
                .map_err(AuthError::Signing)?;
            if let Some(d) = state.borrow_mut().as_mut() {
                d.client = Some(key.clone());
            }
            Ok(key)
        }
    }
}

/// Signs every proof `req` asks for, just before it is sent: each gets the current time and a
/// fresh random `jti` (RFC 9449 § 4.2, RFC 7523 § 3).
pub(crate) async fn sign_proofs(
    state: &RefCell<Option<AuthDriver>>,
    req: &mut HttpRequest,
) -> Result<(), AuthError> {
    let iat = (js_sys::Date::now() / 1000.0) as u64;
    let jti = || {
        webcrypto::random_bytes(16)
            .map(|b| jose::hex(&b))
            .map_err(AuthError::Signing)
    };
    for proof in jose::take_proofs(req, iat, jti)? {
        let key = key_for(state, proof.key()).await?;
        let sig = webcrypto::sign_es256(&key, proof.signing_input())
            .await
            .map_err(AuthError::Signing)?;
        proof.finish(req, &sig);
    }
    Ok(())
}
