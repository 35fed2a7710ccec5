//! Conversions between JS values, JSON values and the core's types.

use serde::Serialize;
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

/// What a call of a host's JS function gave (`f.call1(..)`, `f.call2(..)`), with the promise it
/// may have returned awaited; a throw or a rejection is its message ([`describe`], `otherwise`
/// when it has none). The input handlers and the app host call through it.
pub async fn settle_js(
    called: Result<JsValue, JsValue>,
    otherwise: &str,
) -> Result<JsValue, String> {
    let out = called.map_err(|e| describe(&e, otherwise))?;
    match out.dyn_ref::<js_sys::Promise>() {
        Some(p) => wasm_bindgen_futures::JsFuture::from(p.clone())
            .await
            .map_err(|e| describe(&e, otherwise)),
        None => Ok(out),
    }
}

/// What a thrown JS value says: an error's `message`, a thrown string, else `otherwise`.
pub fn describe(e: &JsValue, otherwise: &str) -> String {
    get_string(e, "message")
        .ok()
        .flatten()
        .or_else(|| e.as_string())
        .unwrap_or_else(|| otherwise.into())
}

/// JSON value -> plain JS value: objects, not `Map`s; every number (`u64` and `i64` too) a JS
/// number.
///
/// serde-wasm-bindgen (`Serializer::json_compatible`) builds the value in place, each string
/// handed over whole, but each object, array, key and scalar is a call into JS; `JSON.parse` of
/// the value's text is one call, and then the engine's parser goes over every byte, strings
/// included. Measured in Chromium (release build, medians of three runs of 200 ms each, µs per
/// value, serde-wasm-bindgen vs JSON text): a text tool result of 16 KB 4.2 vs 12.8 and of
/// 300 KB 165 vs 354, one of 1 KB 2.2 vs 2.1; a 60 B echo result 2.4 vs 1.4; a list of 100 tools
/// (47 KB) 952 vs 214; a structured result of 3,000 rows (216 KB) 9,235 vs 1,868. So a value
/// whose strings carry it (see [`strings_carry`]) goes through serde-wasm-bindgen, anything else
/// through JSON text, as does one with an integer beyond 2^53 (which serde-wasm-bindgen refuses
/// to round; `JSON.parse` rounds it).
pub fn to_js(v: &Value) -> JsValue {
    if strings_carry(v) {
        if let Ok(js) = v.serialize(&serde_wasm_bindgen::Serializer::json_compatible()) {
            return js;
        }
    }
    js_sys::JSON::parse(&crate::util::json::json_text(v)).unwrap_or(JsValue::NULL)
}

/// The most nodes (values and keys) a value sent through serde-wasm-bindgen may have: a tool
/// result of a few text or resource parts has fewer; past it, JSON text is chosen without
/// walking the rest.
const SWB_MAX_NODES: usize = 64;

/// The string bytes per node from which serde-wasm-bindgen is faster than JSON text: a text
/// result of 8 nodes ties at 1 KB of text (2.2 vs 2.1 µs) and is faster from 2 KB (2.4 vs
/// 2.8 µs; the measurements at [`to_js`]).
const SWB_BYTES_PER_NODE: usize = 256;

/// Whether `v` has at most [`SWB_MAX_NODES`] nodes, strings of at least [`SWB_BYTES_PER_NODE`]
/// bytes per node, and no `__proto__` key (serde-wasm-bindgen sets members by assignment, which
/// for that key replaces the object's prototype; `JSON.parse` makes it an own member).
fn strings_carry(v: &Value) -> bool {
    fn walk(v: &Value, nodes: &mut usize, bytes: &mut usize) -> bool {
        *nodes += 1;
        if *nodes > SWB_MAX_NODES {
            return false;
        }
        match v {
            Value::String(s) => *bytes += s.len(),
            Value::Array(items) => return items.iter().all(|x| walk(x, nodes, bytes)),
            Value::Object(m) => {
                return m.iter().all(|(k, x)| {
                    *nodes += 1;
                    k != "__proto__" && walk(x, nodes, bytes)
                })
            }
            _ => {}
        }
        true
    }
    let (mut nodes, mut bytes) = (0, 0);
    walk(v, &mut nodes, &mut bytes) && bytes >= nodes * SWB_BYTES_PER_NODE
}

/// JS value -> JSON value (`undefined` -> `null`), through `JSON.stringify`.
///
/// Not through serde-wasm-bindgen, for what a JS caller means and for speed. `JSON.stringify`
/// drops members that are `undefined` or functions (an `auth` object's hooks, `{ cursor:
/// undefined }`), calls `toJSON` (a `Date` becomes its ISO text) and refuses a cycle with an
/// error; serde-wasm-bindgen reads `undefined` as `null`, refuses a function, reads a `Date` as
/// `{}` and recurses into a cycle until the stack overflows. And it is slower on anything but
/// long strings (the measurements at [`to_js`], JSON text vs serde-wasm-bindgen, µs): tool
/// arguments `{a, b}` 1.0 vs 2.0, a list of 100 tools 576 vs 1,425, 3,000 rows 4,880 vs 10,737;
/// serde-wasm-bindgen is faster only from about 16 KB of text (300 KB: 753 vs 483).
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
            body_length,
        } => json!({"status": status, "body": body, "retryAfterMs": retry_after_ms,
                    "truncated": body_length.is_some(), "bodyLength": body_length}),
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
        ProtocolError::TaskFailed { task_id, error } => task_details(
            task_id,
            vec![
                ("rpcCode", Value::from(error.code)),
                ("rpcMessage", Value::from(error.message.as_str())),
                ("data", error.data.clone().unwrap_or(Value::Null)),
            ],
        ),
        ProtocolError::TaskCancelled { task_id, message } => task_details(
            task_id,
            vec![(
                "statusMessage",
                message.as_deref().map_or(Value::Null, Value::from),
            )],
        ),
        ProtocolError::TaskExpired { task_id, reason } => {
            task_details(task_id, vec![("reason", Value::from(reason.as_str()))])
        }
        ProtocolError::TaskTimeout { task_id, after_ms } => {
            task_details(task_id, vec![("afterMs", Value::from(*after_ms))])
        }
        _ => Value::Null,
    }
}

/// `{taskId, ...extra}` of a task error (built without `json!`: its `to_value` calls instantiate
/// a serializer per member type).
fn task_details(task_id: &str, extra: Vec<(&str, Value)>) -> Value {
    let mut m = serde_json::Map::new();
    m.insert("taskId".into(), Value::from(task_id));
    for (k, v) in extra {
        m.insert(k.into(), v);
    }
    Value::Object(m)
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

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// A plain object (the prototype of `{}`), not a `Map`.
    fn is_plain_object(v: &JsValue) -> bool {
        v.is_object()
            && js_sys::Object::get_prototype_of(v)
                == js_sys::Object::get_prototype_of(&js_sys::Object::new())
    }

    fn text_result(bytes: usize) -> Value {
        json!({"content": [{"type": "text", "text": "x".repeat(bytes)}], "isError": false})
    }

    #[test]
    fn strings_carry_long_texts_only() {
        assert!(strings_carry(&text_result(16 * 1024)));
        assert!(!strings_carry(&text_result(60)));
        assert!(!strings_carry(&json!({"a": 1, "b": 2})));
        // Past the node budget, however long its strings: JSON text.
        let many: Vec<Value> = (0..SWB_MAX_NODES)
            .map(|_| json!("x".repeat(4096)))
            .collect();
        assert!(!strings_carry(&Value::Array(many)));
        // A `__proto__` key keeps the value on JSON text.
        assert!(!strings_carry(&json!({"__proto__": "x".repeat(64 * 1024)})));
    }

    #[test]
    fn both_ways_give_the_same_plain_values() {
        // 64-bit integers within JS's safe range come out exact; beyond it serde-wasm-bindgen
        // refuses them and the value goes through JSON text (a rounded number, as before).
        let long = "é\u{2028}\"\\".repeat(8 * 1024);
        let max = (1u64 << 53) - 1;
        let text = json!({"content": [{"type": "text", "text": long}], "n": max, "i": -(max as i64), "f": 0.5, "z": null});
        let rows =
            json!({"rows": (0..100).map(|i| json!({"id": i, "ok": true})).collect::<Vec<_>>()});
        assert!(strings_carry(&text) && !strings_carry(&rows));
        for v in [text, rows] {
            let js = to_js(&v);
            assert!(is_plain_object(&js));
            let back = js_sys::JSON::stringify(&js).unwrap().as_string().unwrap();
            assert_eq!(serde_json::from_str::<Value>(&back).unwrap(), v);
        }
        let huge = to_js(&json!({"n": u64::MAX, "text": "x".repeat(64 * 1024)}));
        let n = js_sys::Reflect::get(&huge, &"n".into()).unwrap();
        assert_eq!(n.as_f64(), Some(u64::MAX as f64));
    }

    #[test]
    fn a_proto_key_stays_an_own_member() {
        let js = to_js(&json!({"__proto__": {"isError": true}, "text": "x".repeat(64 * 1024)}));
        assert!(is_plain_object(&js));
        let keys = js_sys::Object::keys(js.unchecked_ref::<js_sys::Object>());
        assert!(keys.includes(&"__proto__".into(), 0));
    }
}
