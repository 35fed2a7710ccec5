//! The `auth` option of `McpClient.connect` (and of a pool server): OAuth settings for the core
//! and the host's storage, sign-in handler, client key and OAuth `fetch` for the driver.

use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use super::convert::{get, get_fn, get_string, invalid_argument};
use crate::client::{AuthHost, AuthStorage, AuthorizeHandler, MemoryStorage, StorageFuture};
use crate::proto::auth::metadata::ClientAuthMethod;
use crate::proto::auth::{AuthConfig, AuthError, Grant, Interaction, Secret, StaticClient};

fn get_bool(obj: &JsValue, key: &str) -> Result<Option<bool>, JsValue> {
    let v = get(obj, key);
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    v.as_bool()
        .map(Some)
        .ok_or_else(|| invalid_argument(&format!("auth.{key} must be a boolean")))
}

fn secret(obj: &JsValue, key: &str) -> Result<Option<Secret>, JsValue> {
    Ok(get_string(obj, key)?.map(Secret::new))
}

/// The core settings from `options.auth`; `None` without it.
pub(super) fn auth_config(options: &JsValue) -> Result<Option<AuthConfig>, JsValue> {
    let a = get(options, "auth");
    if a.is_undefined() || a.is_null() {
        return Ok(None);
    }
    if !a.is_object() {
        return Err(invalid_argument("auth must be an object"));
    }
    let headless = get_bool(&a, "headless")?.unwrap_or(false);
    let grant = match get_string(&a, "grant")?.as_deref() {
        None | Some("authorization_code") => Grant::AuthorizationCode {
            interaction: if headless {
                Interaction::Headless
            } else {
                Interaction::Host
            },
        },
        Some("client_credentials") => Grant::ClientCredentials,
        Some("jwt_bearer") => Grant::JwtBearer {
            assertion: secret(&a, "assertion")?
                .ok_or_else(|| invalid_argument("auth.assertion is required for jwt_bearer"))?,
        },
        Some("token_exchange") => {
            let t = get(&a, "tokenExchange");
            let need = |k: &str| -> Result<String, JsValue> {
                get_string(&t, k)?.ok_or_else(|| {
                    invalid_argument(&format!("auth.tokenExchange.{k} is required"))
                })
            };
            Grant::EnterpriseManaged {
                idp_token_endpoint: need("tokenEndpoint")?,
                idp_client_id: need("clientId")?,
                idp_client_secret: secret(&t, "clientSecret")?,
                id_token: Secret::new(need("idToken")?),
            }
        }
        Some(other) => {
            return Err(invalid_argument(&format!(
                "auth.grant {other:?} is not one of authorization_code, client_credentials, jwt_bearer, token_exchange"
            )))
        }
    };
    let mut cfg = AuthConfig::new(grant);
    cfg.redirect_uri = get_string(&a, "redirectUri")?;
    cfg.client_metadata_url = get_string(&a, "clientMetadataUrl")?;
    if let Some(n) = get_string(&a, "clientName")? {
        cfg.client_name = n;
    }
    cfg.application_type = get_string(&a, "applicationType")?;
    cfg.scope = get_string(&a, "scope")?;
    if let Some(b) = get_bool(&a, "offlineAccess")? {
        cfg.offline_access = b;
    }
    if let Some(b) = get_bool(&a, "dpop")? {
        cfg.dpop = b;
    }
    if let Some(id) = get_string(&a, "clientId")? {
        let auth_method = match get_string(&a, "tokenEndpointAuthMethod")? {
            Some(m) => Some(ClientAuthMethod::parse(&m).ok_or_else(|| {
                invalid_argument(&format!(
                    "auth.tokenEndpointAuthMethod {m:?} is not supported"
                ))
            })?),
            None => None,
        };
        cfg.client = Some(StaticClient {
            issuer: get_string(&a, "clientIssuer")?,
            client_id: id,
            client_secret: secret(&a, "clientSecret")?,
            private_key_jwt: get_string(&a, "privateKeyPem")?.is_some(),
            auth_method,
        });
    }
    cfg.validate()
        .map_err(|e| invalid_argument(&e.to_string()))?;
    Ok(Some(cfg))
}

/// A JS object with `get(key)`, `put(key, value)` and `delete(key)` (each may return a promise).
struct JsStorage(JsValue);

fn call_store(obj: &JsValue, method: &str, args: &[&str]) -> StorageFuture<JsValue> {
    let f = get(obj, method).dyn_into::<js_sys::Function>();
    let argv = js_sys::Array::new();
    for a in args {
        argv.push(&JsValue::from_str(a));
    }
    let obj = obj.clone();
    let method = method.to_string();
    Box::pin(async move {
        let f = f.map_err(|_| format!("storage.{method} is not a function"))?;
        let out = f
            .apply(&obj, &argv)
            .map_err(|e| format!("storage.{method} threw: {}", describe(&e)))?;
        JsFuture::from(js_sys::Promise::resolve(&out))
            .await
            .map_err(|e| format!("storage.{method} failed: {}", describe(&e)))
    })
}

fn describe(e: &JsValue) -> String {
    get_string(e, "message")
        .ok()
        .flatten()
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "error".into())
}

impl AuthStorage for JsStorage {
    fn get(&self, key: &str) -> StorageFuture<Option<String>> {
        let f = call_store(&self.0, "get", &[key]);
        Box::pin(async move { Ok(f.await?.as_string()) })
    }
    fn put(&self, key: &str, value: &str) -> StorageFuture<()> {
        let f = call_store(&self.0, "put", &[key, value]);
        Box::pin(async move { f.await.map(|_| ()) })
    }
    fn delete(&self, key: &str) -> StorageFuture<()> {
        let f = call_store(&self.0, "delete", &[key]);
        Box::pin(async move { f.await.map(|_| ()) })
    }
}

/// The driver's side from `options.auth`: storage (default: memory), the sign-in handler, the
/// client key, and an OAuth-only `fetch`.
pub(super) fn auth_host(
    options: &JsValue,
) -> Result<(Option<AuthHost>, Option<js_sys::Function>), JsValue> {
    let a = get(options, "auth");
    if !a.is_object() {
        return Ok((None, None));
    }
    let store = get(&a, "storage");
    let storage: Rc<dyn AuthStorage> = if store.is_object() {
        Rc::new(JsStorage(store))
    } else {
        Rc::new(MemoryStorage)
    };
    let on_authorize: Option<AuthorizeHandler> = get_fn(&a, "onAuthorizationUrl")?.map(|f| {
        let h: AuthorizeHandler = Rc::new(move |url: String| {
            let f = f.clone();
            Box::pin(async move {
                let fail = |m: String| AuthError::AuthorizationDenied {
                    error: "the sign-in handler failed".into(),
                    description: Some(m),
                };
                let out = f
                    .call1(&JsValue::NULL, &JsValue::from_str(&url))
                    .map_err(|e| fail(describe(&e)))?;
                let v = JsFuture::from(js_sys::Promise::resolve(&out))
                    .await
                    .map_err(|e| fail(describe(&e)))?;
                v.as_string().ok_or_else(|| {
                    fail("onAuthorizationUrl must resolve to the callback URL".into())
                })
            })
        });
        h
    });
    let host = AuthHost {
        storage,
        on_authorize,
        client_key_pem: secret(&a, "privateKeyPem")?,
    };
    Ok((Some(host), get_fn(&a, "fetch")?))
}

/// The `auth` of one pool server: the server's `auth` settings from the configuration (strings
/// expanded) over the pool-level `auth` options (storage, sign-in handler, OAuth `fetch`,
/// shared by every server). The pool's sign-in handler is called as `(url, serverName)`.
pub(super) fn pool_server_options(
    base: &JsValue,
    server: &str,
    auth: Option<&serde_json::Value>,
) -> Result<JsValue, JsValue> {
    let Some(auth) = auth else {
        return Ok(JsValue::UNDEFINED);
    };
    let merged = js_sys::Object::new();
    let shared = get(base, "auth");
    if shared.is_object() {
        js_sys::Object::assign(&merged, shared.unchecked_ref());
    }
    js_sys::Object::assign(&merged, super::convert::to_js(auth).unchecked_ref());
    if let Some(f) = get_fn(&shared, "onAuthorizationUrl")? {
        let name = JsValue::from_str(server);
        let wrapper = Closure::<dyn Fn(JsValue) -> JsValue>::new(move |url: JsValue| {
            f.call2(&JsValue::NULL, &url, &name)
                .unwrap_or(JsValue::UNDEFINED)
        });
        let _ = js_sys::Reflect::set(
            &merged,
            &JsValue::from_str("onAuthorizationUrl"),
            &wrapper.into_js_value(),
        );
    }
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&options, &JsValue::from_str("auth"), &merged);
    Ok(options.into())
}
