//! The driver's side of authorization: the host's storage, randomness, keys and sign-in handler
//! answer the authorizer's events, and the proofs requests carry are signed just before they are
//! sent.
//!
//! ```text
//!   Event::Auth(Load/Save/Delete) ─► host.load/save/remove (run in order by the host)
//!   Event::Auth(NeedEntropy)      ─► crypto.getRandomValues               ─► add_entropy
//!   Event::Auth(NeedDpopKey)      ─► WebCrypto P-256 (non-extractable)      ─► handle_dpop_key
//!   Event::Auth(Authorize{url})   ─► host handler (popup, redirect, CLI)    ─► callback
//!   Transmit with proofs          ─► signing input (core) ─► subtle.sign ─► JWT into the request
//! ```
//!
//! The host is a small JS object (below): storage calls chained on one promise so they run
//! strictly in order, WebCrypto through `globalThis.crypto` (never `window`; pages, workers,
//! workerd and Node alike), keys non-extractable (a DPoP key is generated in `subtle` and only
//! its public JWK leaves it; a `privateKeyPem` is imported once). `crypto.subtle` exists only in
//! secure contexts: signing fails with a clear message elsewhere (PKCE needs no `subtle`:
//! SHA-256 runs in Rust). These are a few lines of JS each; written with `Reflect` in Rust they
//! would cost several times their size in the module.

use js_sys::{Promise, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::proto::auth::{jose, AuthError, AuthEvent, KeyRole};
use crate::proto::http::HttpRequest;
use crate::transport::js::describe_line;

#[wasm_bindgen(inline_js = r#"
const memory = new Map();
const memoryStore = {
  get: (k) => memory.get(k),
  put: (k, v) => { memory.set(k, v); },
  delete: (k) => { memory.delete(k); },
};
const P256 = { name: "ECDSA", namedCurve: "P-256" };
const subtle = () => {
  const s = globalThis.crypto && globalThis.crypto.subtle;
  if (!s) throw new Error("crypto.subtle is not available (an insecure origin? it needs HTTPS or localhost)");
  return s;
};
export function authHost(options) {
  const o = options || {};
  const store = o.storage || memoryStore;
  let chain = Promise.resolve();
  const queued = (f) => (chain = chain.then(f, f));
  let dpop = null, dpopJwk = null, client = null;
  const held = new Map();
  return {
    // One refresh per issuer and client across the tabs of an origin (Web Locks); scopes
    // without `navigator.locks` (Node, workerd) have no other tab: granted at once.
    lock(name) {
      const locks = globalThis.navigator && globalThis.navigator.locks;
      if (!locks) return Promise.resolve();
      return new Promise((granted, failed) => {
        locks.request(name, () => new Promise((release) => {
          if (held.get(name) === "released") { held.delete(name); release(); } else { held.set(name, release); }
          granted();
        })).catch(failed);
      });
    },
    // Released once the storage calls queued before it (the new tokens) have run, so the next
    // holder reads what this one stored.
    unlock(name) {
      const free = () => {
        const release = held.get(name);
        if (typeof release === "function") { held.delete(name); release(); } else held.set(name, "released");
      };
      chain.then(free, free);
    },
    load: (key) => queued(async () => {
      const v = await store.get(key);
      return typeof v === "string" ? v : undefined;
    }),
    save: (key, value) => queued(() => store.put(key, value)),
    remove: (key) => queued(() => store.delete(key)),
    settled: () => chain.then(() => undefined, () => undefined),
    random(n) {
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i += 65536) globalThis.crypto.getRandomValues(out.subarray(i, Math.min(n, i + 65536)));
      return out;
    },
    async dpopKey() {
      if (!dpop) {
        // A store that keeps keys (browserStorage over IndexedDB) gives every tab and reload the
        // same non-extractable key, so stored DPoP-bound tokens stay usable.
        const make = () => subtle().generateKey(P256, false, ["sign"]);
        const pair = typeof store.dpopKey === "function" ? await store.dpopKey(make) : await make();
        dpopJwk = JSON.stringify(await subtle().exportKey("jwk", pair.publicKey));
        dpop = pair.privateKey;
      }
      return dpopJwk;
    },
    async sign(dpopRole, data) {
      let key = dpopRole ? dpop : client;
      if (!key && !dpopRole) {
        if (typeof o.privateKeyPem !== "string") throw new Error("private_key_jwt needs auth.privateKeyPem");
        const b64 = o.privateKeyPem.replace(/-----[^-]*-----/g, "").replace(/\s+/g, "");
        const der = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        key = client = await subtle().importKey("pkcs8", der, P256, false, ["sign"]);
      }
      if (!key) throw new Error("the DPoP key is not ready");
      return new Uint8Array(await subtle().sign({ name: "ECDSA", hash: "SHA-256" }, key, data));
    },
    authorize: typeof o.onAuthorizationUrl === "function"
      ? async (url) => {
          const back = await o.onAuthorizationUrl(url);
          if (typeof back !== "string") throw new Error("onAuthorizationUrl must resolve to the callback URL");
          return back;
        }
      : null,
  };
}
"#)]
extern "C" {
    /// The host for authorization: see the module documentation.
    #[derive(Clone, Debug)]
    pub type AuthHost;

    /// Builds the host from a JS `auth` options object (`storage`, `onAuthorizationUrl`,
    /// `privateKeyPem`; storage defaults to memory shared by this module instance).
    #[wasm_bindgen(js_name = authHost)]
    pub fn auth_host(options: &JsValue) -> AuthHost;

    #[wasm_bindgen(method)]
    fn load(this: &AuthHost, key: &str) -> Promise;
    #[wasm_bindgen(method)]
    fn save(this: &AuthHost, key: &str, value: &str) -> Promise;
    #[wasm_bindgen(method)]
    fn remove(this: &AuthHost, key: &str) -> Promise;
    #[wasm_bindgen(method)]
    fn settled(this: &AuthHost) -> Promise;
    #[wasm_bindgen(method, catch)]
    fn random(this: &AuthHost, n: usize) -> Result<Uint8Array, JsValue>;
    #[wasm_bindgen(method, js_name = dpopKey)]
    fn dpop_key(this: &AuthHost) -> Promise;
    #[wasm_bindgen(method)]
    fn sign(this: &AuthHost, dpop: bool, data: &[u8]) -> Promise;
    #[wasm_bindgen(method, getter)]
    fn authorize(this: &AuthHost) -> Option<js_sys::Function>;
    #[wasm_bindgen(method, js_name = lock)]
    fn take_lock(this: &AuthHost, name: &str) -> Promise;
    #[wasm_bindgen(method)]
    pub(crate) fn unlock(this: &AuthHost, name: &str);
}

/// Whether a handler's rejection is the blocked-popup error of `openAuthorizationPopup`.
fn popup_blocked(e: &JsValue) -> bool {
    js_sys::Reflect::get(e, &JsValue::from_str("code"))
        .ok()
        .and_then(|c| c.as_string())
        .is_some_and(|c| c == "AUTH_POPUP_BLOCKED")
}

pub(crate) async fn settle(p: Promise) -> Result<JsValue, String> {
    JsFuture::from(p).await.map_err(|e| describe_line(&e))
}

impl AuthHost {
    /// The host call `event` asks for, as a promise: a read, the refresh lock, the DPoP key, the
    /// person's step (resolves with the callback URL). `None`: no such call (no sign-in handler).
    pub(crate) fn start(&self, event: &AuthEvent) -> Option<Promise> {
        match event {
            AuthEvent::Load { key } => Some(self.load(key)),
            AuthEvent::Lock { name } => Some(self.take_lock(name)),
            AuthEvent::NeedDpopKey => Some(self.dpop_key()),
            AuthEvent::Authorize { url } => {
                let f = self.authorize()?;
                Some(match f.call1(&JsValue::NULL, &JsValue::from_str(url)) {
                    Ok(p) => Promise::resolve(&p),
                    Err(e) => Promise::reject(&e),
                })
            }
            _ => None,
        }
    }

    /// Writes `value` under `key`, after every earlier storage call. The call is queued at
    /// once (so [`AuthHost::all_stored`] waits for it); the promise says how it went.
    pub(crate) fn write(&self, key: &str, value: &str) -> Promise {
        self.save(key, value)
    }

    /// Removes `key`, after every earlier storage call (queued at once, like [`AuthHost::write`]).
    pub(crate) fn delete(&self, key: &str) -> Promise {
        self.remove(key)
    }

    /// Resolves once every storage call queued so far has run: a sign-in or a close resolves
    /// only when its records are in the host's store (a Worker may end its request, and with it
    /// any unfinished write, right after).
    pub(crate) async fn all_stored(&self) {
        let _ = JsFuture::from(self.settled()).await;
    }

    /// `n` cryptographically random bytes.
    pub(crate) fn random_bytes(&self, n: usize) -> Result<Vec<u8>, String> {
        self.random(n)
            .map(|b| b.to_vec())
            .map_err(|e| describe_line(&e))
    }

    /// The DPoP key's public JWK (the key is created once, non-extractable) from what
    /// `dpopKey()` settled with.
    pub(crate) fn public_jwk(
        settled: Result<JsValue, String>,
    ) -> Result<serde_json::Value, AuthError> {
        let jwk = settled.map_err(AuthError::Signing)?;
        jwk.as_string()
            .and_then(|j| serde_json::from_str(&j).ok())
            .ok_or_else(|| AuthError::Signing("no public JWK for the DPoP key".into()))
    }

    /// The sign-in handler threw or rejected with `message`.
    /// The sign-in handler for `url` threw or rejected with `e`. `openAuthorizationPopup` as
    /// the handler, outside a user gesture, rejects with `AUTH_POPUP_BLOCKED`: the caller gets
    /// the URL to offer as a link.
    pub(crate) fn handler_failed(url: &str, e: &JsValue) -> AuthError {
        if popup_blocked(e) {
            return AuthError::PopupBlocked { url: url.into() };
        }
        AuthError::AuthorizationDenied {
            error: "the sign-in handler failed".into(),
            description: Some(describe_line(e)),
        }
    }

    /// Signs every proof `req` asks for, just before it is sent: each gets the current time
    /// and a fresh random `jti` (RFC 9449 § 4.2, RFC 7523 § 3).
    pub(crate) async fn sign_proofs(&self, req: &mut HttpRequest) -> Result<(), AuthError> {
        let iat = (js_sys::Date::now() / 1000.0) as u64;
        let jti = || {
            self.random_bytes(16)
                .map(|b| jose::hex(&b))
                .map_err(AuthError::Signing)
        };
        for proof in jose::take_proofs(req, iat, jti)? {
            let dpop = proof.key() == KeyRole::Dpop;
            let sig = settle(self.sign(dpop, proof.signing_input()))
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
