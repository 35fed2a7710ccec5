//! The `auth` option of `McpClient.connect` (and of a pool server): OAuth settings for the core
//! and the host's storage, sign-in handler, client key and OAuth `fetch` for the driver.

use wasm_bindgen::prelude::*;

use super::convert::{from_js, get, get_fn, invalid_argument};
use crate::proto::auth::AuthConfig;
use crate::transport::js_auth::AuthHost;

/// The core settings from `options.auth` (see [`AuthConfig::from_json`]); `None` without it.
pub(super) fn auth_config(options: &JsValue) -> Result<Option<AuthConfig>, JsValue> {
    let a = get(options, "auth");
    if a.is_undefined() || a.is_null() {
        return Ok(None);
    }
    if !a.is_object() {
        return Err(invalid_argument("auth must be an object"));
    }
    // Functions and the storage object do not survive JSON.stringify: exactly the settings stay.
    let v = from_js(&a)?;
    AuthConfig::from_json(&v)
        .map(Some)
        .map_err(|e| invalid_argument(&e.to_string()))
}

/// The driver's side from `options.auth`: storage (default: memory), the sign-in handler, the
/// client key; and an OAuth-only `fetch`.
pub(super) fn auth_host(
    options: &JsValue,
) -> Result<(Option<AuthHost>, Option<js_sys::Function>), JsValue> {
    let a = get(options, "auth");
    if !a.is_object() {
        return Ok((None, None));
    }
    Ok((
        Some(crate::transport::js_auth::auth_host(&a)),
        get_fn(&a, "fetch")?,
    ))
}

/// The `auth` of one pool server: the server's `auth` settings from the configuration (strings
/// expanded) over the pool-level `auth` options: its hooks (storage, sign-in handler, OAuth
/// `fetch`) and its settings, which are defaults for every such server. The pool's sign-in
/// handler is called as `(url, serverName)`.
#[cfg(feature = "pool")]
pub(super) fn pool_server_options(
    base: &JsValue,
    server: &str,
    auth: Option<&serde_json::Value>,
) -> Result<JsValue, JsValue> {
    use wasm_bindgen::JsCast;
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
