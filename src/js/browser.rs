//! Sign-in helpers for browser pages: the authorization popup (opened inside the user's gesture,
//! answered by the callback page `www/oauth-callback.html` over a `BroadcastChannel`) and the
//! ready storage adapters for `auth.storage`. The work is a few lines of JS in [`super::glue`].

use js_sys::Promise;
use wasm_bindgen::prelude::*;

use super::convert::error_to_js;
use super::glue;
use crate::proto::auth::AuthError;
use crate::proto::session::ProtocolError;

/// `openAuthorizationPopup(url, {timeoutMs, signal, name, features})`: opens `url` in a popup
/// synchronously (call it in the click handler, before any `await`) and resolves with the
/// callback URL. A blocked popup rejects with `AUTH_POPUP_BLOCKED` carrying `url`, so the page
/// can offer it as a link.
#[wasm_bindgen(js_name = openAuthorizationPopup, skip_typescript)]
pub fn open_authorization_popup(url: &str, options: JsValue) -> Promise {
    glue::open_popup(url, &options).unwrap_or_else(|| {
        let e = ProtocolError::Auth(AuthError::PopupBlocked { url: url.into() });
        Promise::reject(&error_to_js(&e))
    })
}

/// `browserStorage({tokens, pending, databaseName})`: an `AuthStorage` keeping pending sign-ins
/// and tokens each in `sessionStorage`, `localStorage`, IndexedDB or memory, and DPoP keys in
/// IndexedDB when tokens outlive the page.
#[wasm_bindgen(js_name = browserStorage, skip_typescript)]
pub fn browser_storage(options: JsValue) -> Result<JsValue, JsValue> {
    glue::browser_storage(&options)
}
