//! The fetch host's side of authorization ([`super::host::AuthHost`]): the host's storage,
//! randomness, keys and sign-in handler answer the authorizer's events, and the proofs requests
//! carry are signed just before they are sent.
//!
//! ```text
//!   Event::Auth(Load/Save/Delete) ─► host.load/save/remove (run in order by the host)
//!   Event::Auth(NeedEntropy)      ─► crypto.getRandomValues               ─► add_entropy
//!   Event::Auth(NeedDpopKey)      ─► WebCrypto P-256 (non-extractable)      ─► handle_dpop_key
//!   Event::Auth(Authorize{url})   ─► host handler (popup, redirect, CLI)    ─► callback
//!   Transmit with proofs          ─► signing input (core) ─► subtle.sign ─► JWT into the request
//! ```
//!
//! The host is a small JS object (`src/js/glue.js`, "the authorization host"): storage calls
//! chained on one promise so they run strictly in order, WebCrypto through `globalThis.crypto`
//! (never `window`; pages, workers, workerd and Node alike), keys non-extractable (a DPoP key is
//! generated in `subtle` and only its public JWK leaves it; a `privateKeyPem` is imported once). `crypto.subtle` exists only in
//! secure contexts: signing fails with a clear message elsewhere (PKCE needs no `subtle`:
//! SHA-256 runs in Rust). These are a few lines of JS each; written with `Reflect` in Rust they
//! would cost several times their size in the module.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use js_sys::{Promise, Uint8Array};
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::host;
use super::js::describe_line;
use crate::proto::auth::{jose, AuthError, KeyRole};
use crate::proto::http::HttpRequest;

#[wasm_bindgen(module = "/src/js/glue.js")]
extern "C" {
    /// The host for authorization: see the module documentation.
    #[derive(Clone, Debug)]
    pub type AuthHost;

    /// Builds the host from a JS `auth` options object (`storage`, `onAuthorizationUrl`,
    /// `privateKeyPem`; storage defaults to memory shared by this module instance).
    #[wasm_bindgen(js_name = authHost)]
    pub fn auth_host(options: &JsValue) -> AuthHost;

    #[wasm_bindgen(method, js_name = load)]
    fn js_load(this: &AuthHost, key: &str) -> Promise;
    #[wasm_bindgen(method, js_name = save)]
    fn js_save(this: &AuthHost, key: &str, value: &str) -> Promise;
    #[wasm_bindgen(method, js_name = remove)]
    fn js_remove(this: &AuthHost, key: &str) -> Promise;
    #[wasm_bindgen(method, js_name = settled)]
    fn js_settled(this: &AuthHost) -> Promise;
    #[wasm_bindgen(method, catch, js_name = random)]
    fn js_random(this: &AuthHost, n: usize) -> Result<Uint8Array, JsValue>;
    #[wasm_bindgen(method, js_name = dpopKey)]
    fn js_dpop_key(this: &AuthHost) -> Promise;
    #[wasm_bindgen(method, js_name = sign)]
    fn js_sign(this: &AuthHost, dpop: bool, data: &[u8]) -> Promise;
    #[wasm_bindgen(method, getter, js_name = authorize)]
    fn js_authorize(this: &AuthHost) -> Option<js_sys::Function>;
    #[wasm_bindgen(method, js_name = lock)]
    fn js_lock(this: &AuthHost, name: &str) -> Promise;
    #[wasm_bindgen(method, js_name = unlock)]
    fn js_unlock(this: &AuthHost, name: &str);
}

/// Whether a handler's rejection is the blocked-popup error of `openAuthorizationPopup`.
fn popup_blocked(e: &JsValue) -> bool {
    js_sys::Reflect::get(e, &JsValue::from_str("code"))
        .ok()
        .and_then(|c| c.as_string())
        .is_some_and(|c| c == "AUTH_POPUP_BLOCKED")
}

async fn settle(p: Promise) -> Result<JsValue, String> {
    JsFuture::from(p).await.map_err(|e| describe_line(&e))
}

/// The sign-in handler for `url` threw or rejected with `e`. `openAuthorizationPopup` as the
/// handler, outside a user gesture, rejects with `AUTH_POPUP_BLOCKED`: the caller gets the URL
/// to offer as a link.
fn handler_failed(url: &str, e: &JsValue) -> AuthError {
    if popup_blocked(e) {
        return AuthError::PopupBlocked { url: url.into() };
    }
    AuthError::AuthorizationDenied {
        error: "the sign-in handler failed".into(),
        description: Some(describe_line(e)),
    }
}

/// A storage write or delete the JS host queued: resolves with how it went.
pub struct Stored(JsFuture);

impl Future for Stored {
    type Output = Result<(), String>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.0)
            .poll(cx)
            .map(|r| r.map(|_| ()).map_err(|e| describe_line(&e)))
    }
}

impl host::AuthHost for AuthHost {
    type Stored = Stored;

    fn random_bytes(&self, n: usize) -> Result<Vec<u8>, String> {
        self.js_random(n)
            .map(|b| b.to_vec())
            .map_err(|e| describe_line(&e))
    }

    async fn load(&self, key: &str) -> Result<Option<String>, String> {
        settle(self.js_load(key)).await.map(|v| v.as_string())
    }

    fn write(&self, key: &str, value: &str) -> Stored {
        Stored(JsFuture::from(self.js_save(key, value)))
    }

    fn delete(&self, key: &str) -> Stored {
        Stored(JsFuture::from(self.js_remove(key)))
    }

    /// Resolves once every storage call queued so far has run: a sign-in or a close resolves
    /// only when its records are in the host's store (a Worker may end its request, and with it
    /// any unfinished write, right after).
    async fn all_stored(&self) {
        let _ = JsFuture::from(self.js_settled()).await;
    }

    async fn lock(&self, name: &str) -> Result<(), String> {
        settle(self.js_lock(name)).await.map(|_| ())
    }

    fn unlock(&self, name: &str) {
        self.js_unlock(name);
    }

    /// The DPoP key's public JWK (the key is created once, non-extractable).
    async fn dpop_key(&self) -> Result<Value, AuthError> {
        let jwk = settle(self.js_dpop_key())
            .await
            .map_err(AuthError::Signing)?;
        jwk.as_string()
            .and_then(|j| serde_json::from_str(&j).ok())
            .ok_or_else(|| AuthError::Signing("no public JWK for the DPoP key".into()))
    }

    async fn sign_in(&self, url: &str) -> Option<Result<String, AuthError>> {
        let f = self.js_authorize()?;
        let p = match f.call1(&JsValue::NULL, &JsValue::from_str(url)) {
            Ok(p) => Promise::resolve(&p),
            Err(e) => Promise::reject(&e),
        };
        Some(match JsFuture::from(p).await {
            Ok(cb) => Ok(cb.as_string().unwrap_or_default()),
            Err(e) => Err(handler_failed(url, &e)),
        })
    }

    /// Signs every proof `req` asks for, just before it is sent: each gets the current time
    /// and a fresh random `jti` (RFC 9449 § 4.2, RFC 7523 § 3).
    async fn sign_proofs(&self, req: &mut HttpRequest) -> Result<(), AuthError> {
        let iat = (js_sys::Date::now() / 1000.0) as u64;
        let jti = || {
            host::AuthHost::random_bytes(self, 16)
                .map(|b| crate::util::hash::hex(&b))
                .map_err(AuthError::Signing)
        };
        for proof in jose::take_proofs(req, iat, jti)? {
            let dpop = proof.key() == KeyRole::Dpop;
            let sig = settle(self.js_sign(dpop, proof.signing_input()))
                .await
                .map_err(AuthError::Signing)?;
            let sig = Uint8Array::new(&sig).to_vec();
            if sig.len() != 64 {
                return Err(AuthError::Signing(format!(
                    "an ES256 signature has 64 bytes, got {}",
                    sig.len()
                )));
            }
            proof.finish(req, &sig);
        }
        Ok(())
    }
}
