//! Web Crypto for the authorization layer: random bytes (`crypto.getRandomValues`, WebCrypto
//! § 10.1.1) and ES256 keys and signatures (`crypto.subtle`, WebCrypto § 14; ECDSA § 23), reached
//! through `globalThis.crypto`, never `window`, so pages, workers, workerd and Node share it.
//!
//! Keys stay inside the host: a DPoP key is generated non-extractable and only its public JWK
//! leaves `subtle`; a client's PKCS#8 key is imported non-extractable. An ECDSA signature from
//! `subtle.sign` is the raw `r || s` JWS ES256 expects (RFC 7518 § 3.4), no DER conversion.
//!
//! `crypto.subtle` exists only in secure contexts (HTTPS or localhost pages; always in workers
//! of secure pages, workerd and Node): elsewhere signing fails with a clear message. PKCE does
//! not need it (SHA-256 is done in Rust).

use js_sys::{Array, Function, Object, Promise, Reflect, Uint8Array};
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use super::js::{describe_line, get};

fn crypto() -> Result<JsValue, String> {
    let c = get(&js_sys::global(), "crypto");
    if c.is_object() {
        Ok(c)
    } else {
        Err("globalThis.crypto is not available in this scope".into())
    }
}

fn subtle() -> Result<JsValue, String> {
    let s = get(&crypto()?, "subtle");
    if s.is_object() {
        Ok(s)
    } else {
        Err(
            "crypto.subtle is not available (an insecure origin? it needs HTTPS or localhost)"
                .into(),
        )
    }
}

fn obj(pairs: &[(&str, JsValue)]) -> JsValue {
    let o = Object::new();
    for (k, v) in pairs {
        let _ = Reflect::set(&o, &JsValue::from_str(k), v);
    }
    o.into()
}

async fn call(target: &JsValue, method: &str, args: &Array) -> Result<JsValue, String> {
    let f = get(target, method)
        .dyn_into::<Function>()
        .map_err(|_| format!("crypto.subtle.{method} is not a function"))?;
    let p = f
        .apply(target, args)
        .map_err(|e| format!("{method} threw: {}", describe_line(&e)))?;
    JsFuture::from(Promise::resolve(&p))
        .await
        .map_err(|e| format!("{method} failed: {}", describe_line(&e)))
}

/// `n` cryptographically random bytes.
pub fn random_bytes(n: usize) -> Result<Vec<u8>, String> {
    let c = crypto()?;
    let f = get(&c, "getRandomValues")
        .dyn_into::<Function>()
        .map_err(|_| "crypto.getRandomValues is not a function".to_string())?;
    let mut out = Vec::with_capacity(n);
    // getRandomValues fills at most 65536 bytes per call (WebCrypto § 10.1.1).
    while out.len() < n {
        let len = (n - out.len()).min(65_536);
        let buf = Uint8Array::new_with_length(len as u32);
        f.call1(&c, &buf)
            .map_err(|e| format!("getRandomValues threw: {}", describe_line(&e)))?;
        out.extend(buf.to_vec());
    }
    Ok(out)
}

fn ecdsa_p256() -> JsValue {
    obj(&[("name", "ECDSA".into()), ("namedCurve", "P-256".into())])
}

/// An ES256 signing key held by the host.
#[derive(Clone, Debug)]
pub struct SigningKey {
    private: JsValue,
}

/// Generates a non-extractable P-256 key pair; returns the signing key and its public JWK.
pub async fn generate_es256() -> Result<(SigningKey, Value), String> {
    let s = subtle()?;
    let usages = Array::of1(&"sign".into());
    let pair = call(
        &s,
        "generateKey",
        &Array::of3(&ecdsa_p256(), &JsValue::FALSE, &usages),
    )
    .await?;
    let private = get(&pair, "privateKey");
    let public = get(&pair, "publicKey");
    let jwk = call(&s, "exportKey", &Array::of2(&"jwk".into(), &public)).await?;
    let text = js_sys::JSON::stringify(&jwk)
        .ok()
        .and_then(|t| t.as_string())
        .ok_or_else(|| "exportKey returned no JWK".to_string())?;
    let jwk: Value =
        serde_json::from_str(&text).map_err(|e| format!("exportKey returned no JWK: {e}"))?;
    Ok((SigningKey { private }, jwk))
}

/// Imports a PKCS#8 P-256 private key from PEM (`-----BEGIN PRIVATE KEY-----`),
/// non-extractable.
pub async fn import_pkcs8_es256(pem: &str) -> Result<SigningKey, String> {
    use base64ct::{Base64, Encoding};
    let body: String = pem
        .lines()
        .filter(|l| !l.starts_with("-----"))
        .flat_map(|l| l.trim().chars())
        .collect();
    let der = Base64::decode_vec(&body)
        .map_err(|_| "the private key is not PEM-encoded PKCS#8".to_string())?;
    let s = subtle()?;
    let args = Array::new();
    args.push(&"pkcs8".into());
    args.push(&Uint8Array::from(der.as_slice()));
    args.push(&ecdsa_p256());
    args.push(&JsValue::FALSE);
    args.push(&Array::of1(&"sign".into()));
    let private = call(&s, "importKey", &args).await?;
    Ok(SigningKey { private })
}

/// Signs `data` with ES256: the raw 64-byte `r || s`.
pub async fn sign_es256(key: &SigningKey, data: &[u8]) -> Result<Vec<u8>, String> {
    let s = subtle()?;
    let alg = obj(&[("name", "ECDSA".into()), ("hash", "SHA-256".into())]);
    let sig = call(
        &s,
        "sign",
        &Array::of3(&alg, &key.private, &Uint8Array::from(data)),
    )
    .await?;
    let bytes = Uint8Array::new(&sig).to_vec();
    if bytes.len() != 64 {
        return Err(format!(
            "an ES256 signature has 64 bytes, got {}",
            bytes.len()
        ));
    }
    Ok(bytes)
}
