//! Conversions between JS values, JSON values and the core's types.

use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

use super::glue;
use crate::proto::session::ProtocolError;

/// Runs `f` as a JS promise. Every method's future goes through this one boxed type, so
/// `wasm-bindgen-futures`' promise and task machinery is instantiated once, not per method.
pub fn promise(
    f: impl std::future::Future<Output = Result<JsValue, JsValue>> + 'static,
) -> js_sys::Promise {
    let f: crate::runtime::LocalFuture<Result<JsValue, JsValue>> = Box::pin(f);
    wasm_bindgen_futures::future_to_promise(f)
}

/// JSON value -> plain JS value (through `JSON.parse`: objects, not `Map`s, and no generic
/// serializer code in the module).
pub fn to_js(v: &Value) -> JsValue {
    js_sys::JSON::parse(&crate::util::json::json_text(v)).unwrap_or(JsValue::NULL)
}

/// JS value -> JSON value (`undefined` -> `null`), through `JSON.stringify`.
pub fn from_js(v: &JsValue) -> Result<Value, JsValue> {
    if v.is_undefined() || v.is_null() {
        return Ok(Value::Null);
    }
    let text = js_sys::JSON::stringify(v)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| invalid_argument("value is not JSON-serialisable"))?;
    serde_json::from_str(&text)
        .map_err(|e| invalid_argument(&format!("value is not JSON-serialisable: {e}")))
}

/// A JS `McpError` for an argument problem.
pub fn invalid_argument(message: &str) -> JsValue {
    glue::make_mcp_error("INVALID_ARGUMENT", message, &JsValue::UNDEFINED)
}

/// The JS `McpError` for a core error: a stable `code`, the message, and the details
/// (`rpcCode` and `data` of a JSON-RPC error, `status` of an HTTP error, ...).
pub fn error_to_js(e: &ProtocolError) -> JsValue {
    glue::make_mcp_error(e.code(), &e.to_string(), &to_js(&error_details(e)))
}

/// A core error as plain JSON: `{code, message}` and its details, as `McpError` carries them
/// (a detail the error lacks, such as `retryAfterMs` without `Retry-After`, is left out rather
/// than `null`, as `McpError` leaves it out).
#[cfg(feature = "pool")]
pub fn error_json(e: &ProtocolError) -> Value {
    let mut m = match error_details(e) {
        Value::Object(m) => m,
        _ => serde_json::Map::new(),
    };
    m.retain(|_, v| !v.is_null());
    m.insert("code".into(), json!(e.code()));
    m.insert("message".into(), json!(e.to_string()));
    Value::Object(m)
}

/// The details of a core error (`rpcCode` and `data` of a JSON-RPC error, `status` of an HTTP
/// error, ...); `null` when it has none.
fn error_details(e: &ProtocolError) -> Value {
    match e {
        ProtocolError::Rpc {
            code,
            message,
            data,
        } => json!({"rpcCode": code, "rpcMessage": message, "data": data}),
        ProtocolError::HttpStatus {
            status,
            body,
            retry_after_ms,
        } => json!({"status": status, "body": body, "retryAfterMs": retry_after_ms}),
        ProtocolError::StreamDropped {
            attempts,
            may_have_run,
        } => json!({"attempts": attempts, "mayHaveRun": may_have_run}),
        ProtocolError::EventTooLarge { limit } | ProtocolError::BodyTooLarge { limit } => {
            json!({"limit": limit})
        }
        ProtocolError::Unauthorized {
            status,
            www_authenticate,
        } => {
            json!({"status": status, "wwwAuthenticate": www_authenticate})
        }
        ProtocolError::Timeout { after_ms, total } => json!({"afterMs": after_ms, "total": total}),
        ProtocolError::Cors(d) => json!({"diagnosis": d}),
        ProtocolError::UnsupportedProtocolVersion {
            requested,
            supported,
        } => {
            json!({"requested": requested, "supported": supported})
        }
        ProtocolError::LegacyHttpSseServer { endpoint } => json!({"endpoint": endpoint}),
        ProtocolError::StdoutNotJsonRpc { line } => json!({"line": line}),
        ProtocolError::OutputSchemaMismatch { tool, errors } => {
            json!({"tool": tool, "errors": errors})
        }
        ProtocolError::Auth(a) => auth_details(a),
        _ => Value::Null,
    }
}

/// The details of an authorization error: `refused` (a deliberate security refusal), and what
/// the host can act on (the sign-in `url`, the failing `endpoint`, the OAuth `error` code).
fn auth_details(e: &crate::proto::auth::AuthError) -> Value {
    use crate::proto::auth::AuthError as A;
    let mut d = serde_json::Map::new();
    d.insert("refused".into(), Value::Bool(e.is_refusal()));
    let mut put = |k: &str, v: Value| {
        d.insert(k.into(), v);
    };
    match e {
        A::InteractionRequired { url } | A::PopupBlocked { url } => put("url", url.as_str().into()),
        A::Network { endpoint, .. } => put("endpoint", endpoint.as_str().into()),
        A::Cors {
            endpoint,
            diagnosis,
        } => {
            put("endpoint", endpoint.as_str().into());
            put("diagnosis", diagnosis.as_str().into());
        }
        A::TokenRequestFailed { status, error, .. } | A::RegistrationFailed { status, error } => {
            put("status", (*status).into());
            put("error", error.as_deref().into());
        }
        A::AuthorizationDenied { error, .. } => put("error", error.as_str().into()),
        _ => {}
    }
    Value::Object(d)
}

/// Reads `obj[key]` (undefined when `obj` is not an object).
pub fn get(obj: &JsValue, key: &str) -> JsValue {
    if !obj.is_object() {
        return JsValue::UNDEFINED;
    }
    js_sys::Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// Reads an optional function member.
pub fn get_fn(obj: &JsValue, key: &str) -> Result<Option<js_sys::Function>, JsValue> {
    let v = get(obj, key);
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    v.dyn_into::<js_sys::Function>()
        .map(Some)
        .map_err(|_| invalid_argument(&format!("{key} must be a function")))
}

/// Reads an optional non-negative number member as milliseconds.
pub fn get_ms(obj: &JsValue, key: &str) -> Result<Option<u64>, JsValue> {
    let v = get(obj, key);
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    match v.as_f64() {
        Some(n) if n.is_finite() && n >= 0.0 => Ok(Some(n as u64)),
        _ => Err(invalid_argument(&format!(
            "{key} must be a non-negative number of milliseconds"
        ))),
    }
}

/// Reads an optional string member.
pub fn get_string(obj: &JsValue, key: &str) -> Result<Option<String>, JsValue> {
    let v = get(obj, key);
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    v.as_string()
        .map(Some)
        .ok_or_else(|| invalid_argument(&format!("{key} must be a string")))
}
