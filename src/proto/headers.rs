//! The 2026-07-28 request-metadata header rules (MCP `basic/transports/streamable-http`,
//! "Request Metadata"): `Mcp-Name` / `Mcp-Param-{Name}` value encoding and `x-mcp-header` validation.
//!
//! CONTRACT (implemented by the framing work item; signatures fixed):
//! - `encode_value(&str) -> String`: the value as is when every char is visible ASCII (0x21-0x7E),
//!   space or tab, it has no leading/trailing whitespace, and it does not match the sentinel
//!   (`=?base64?` prefix and `?=` suffix); otherwise `=?base64?{standard base64 with padding}?=`.
//! - `decode_value(&str) -> Result<String, HeaderError>`: the inverse.
//! - `param_headers(input_schema) -> Result<Vec<ParamHeader>, HeaderError>`: every `x-mcp-header`
//!   annotation, validated (non-empty RFC 9110 token, no CTLs, case-insensitively unique, only on
//!   `string`/`integer`/`boolean` properties, reachable from the root only through `properties`).
//!   An annotation anywhere else (items, anyOf/oneOf/allOf/not, if/then/else, $ref, $defs...) is an
//!   error. No annotation => Ok(empty).
//! - `param_header_values(&[ParamHeader], arguments) -> Vec<(String, String)>`: the
//!   `("mcp-param-{name}", encoded)` pairs for the values present (string as is, integer decimal,
//!   boolean true/false; null or missing omitted; a value of the wrong type omitted).

use super::http::names;
use serde_json::{Map, Value};
use std::fmt;

/// The schema keyword that designates a parameter header (MCP `server/tools`, "x-mcp-header").
pub const X_MCP_HEADER: &str = "x-mcp-header";

/// The prefix of an encoded value ("Value Encoding"; case-sensitive).
pub const SENTINEL_PREFIX: &str = "=?base64?";

/// The suffix of an encoded value ("Value Encoding"; case-sensitive).
pub const SENTINEL_SUFFIX: &str = "?=";

/// The largest integer a parameter header may carry, `2^53 - 1` (MCP `server/tools`,
/// "x-mcp-header": the IEEE 754 double safe range); the smallest is its negation.
pub const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// Errors of the header rules.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum HeaderError {
    /// An `x-mcp-header` value is empty.
    EmptyName {
        /// JSON pointer of the annotated property.
        at: String,
    },
    /// An `x-mcp-header` value is not an RFC 9110 token (or not a string).
    InvalidName {
        /// JSON pointer of the annotated property.
        at: String,
    },
    /// Two annotations share a name case-insensitively.
    DuplicateName {
        /// The name (as first seen).
        name: String,
    },
    /// The annotated property is not `string`, `integer` or `boolean`.
    UnsupportedType {
        /// JSON pointer of the annotated property.
        at: String,
    },
    /// The annotation is not reachable from the root through `properties` alone.
    NotStaticallyReachable {
        /// JSON pointer of the annotation.
        at: String,
    },
    /// A base64 sentinel value could not be decoded (bad alphabet, length or padding, non-zero
    /// pad bits, or bytes that are not UTF-8).
    InvalidEncoding,
    /// A plain (unencoded) value holds a character a header value may not carry: anything but
    /// visible ASCII, space and tab (RFC 9110 § 5.5).
    InvalidCharacters,
}

impl fmt::Display for HeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeaderError::EmptyName { at } => write!(f, "x-mcp-header at {at:?} is empty"),
            HeaderError::InvalidName { at } => {
                write!(f, "x-mcp-header at {at:?} is not an HTTP token")
            }
            HeaderError::DuplicateName { name } => {
                write!(f, "x-mcp-header {name:?} is used more than once")
            }
            HeaderError::UnsupportedType { at } => write!(
                f,
                "x-mcp-header at {at:?} is on a property whose type is not string, integer or boolean"
            ),
            HeaderError::NotStaticallyReachable { at } => write!(
                f,
                "x-mcp-header at {at:?} is not reachable from the schema root through properties alone"
            ),
            HeaderError::InvalidEncoding => f.write_str("invalid =?base64?...?= header value"),
            HeaderError::InvalidCharacters => {
                f.write_str("header value holds characters outside visible ASCII, space and tab")
            }
        }
    }
}

impl std::error::Error for HeaderError {}

/// The JSON Schema type an annotated property declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamType {
    /// `"type": "string"`: sent as is.
    String,
    /// `"type": "integer"`: sent in decimal.
    Integer,
    /// `"type": "boolean"`: sent as `true` / `false`.
    Boolean,
}

/// One `x-mcp-header` designation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamHeader {
    /// The `{Name}` part as the schema gives it.
    pub name: String,
    /// The chain of `properties` keys from the root to the property.
    pub path: Vec<String>,
    /// The property's declared type.
    pub kind: ParamType,
}

impl ParamType {
    /// The name a session snapshot stores (`"String"`, `"Integer"`, `"Boolean"`).
    fn as_str(self) -> &'static str {
        match self {
            ParamType::String => "String",
            ParamType::Integer => "Integer",
            ParamType::Boolean => "Boolean",
        }
    }
}

impl ParamHeader {
    /// As a session snapshot stores it: `{"name", "path", "kind"}`.
    pub fn to_json(&self) -> Value {
        serde_json::json!({ "name": self.name, "path": self.path, "kind": self.kind.as_str() })
    }

    /// Reads [`ParamHeader::to_json`]'s format; `None` when a member is missing or mistyped.
    pub fn from_json(v: &Value) -> Option<ParamHeader> {
        let kind = v.get("kind")?.as_str()?;
        Some(ParamHeader {
            name: v.get("name")?.as_str()?.to_string(),
            path: crate::util::read::string_list(v.get("path"))?,
            kind: [ParamType::String, ParamType::Integer, ParamType::Boolean]
                .into_iter()
                .find(|t| t.as_str() == kind)?,
        })
    }

    /// The full header name, `mcp-param-{name}` in lowercase (header names are case-insensitive,
    /// `streamable-http` "Case Sensitivity"; [`ParamHeader::name`] keeps the schema's spelling).
    pub fn header_name(&self) -> String {
        format!(
            "{}{}",
            names::MCP_PARAM_PREFIX,
            self.name.to_ascii_lowercase()
        )
    }
}

// ---------------------------------------------------------------------------------------------
// Value encoding
// ---------------------------------------------------------------------------------------------

/// Whether a char may appear in a plain header value: visible ASCII, space or tab (RFC 9110 § 5.5).
fn is_field_char(c: char) -> bool {
    matches!(c, '\x21'..='\x7e' | ' ' | '\t')
}

fn is_sentinel(value: &str) -> bool {
    value.starts_with(SENTINEL_PREFIX) && value.ends_with(SENTINEL_SUFFIX)
}

/// Encodes a header value per "Value Encoding": plain when it is safe ASCII without leading or
/// trailing whitespace and does not look like the sentinel; otherwise `=?base64?{b64}?=` over
/// its UTF-8 bytes.
pub fn encode_value(value: &str) -> String {
    let plain = value.chars().all(is_field_char)
        && !value.starts_with([' ', '\t'])
        && !value.ends_with([' ', '\t'])
        && !is_sentinel(value);
    if plain {
        value.to_string()
    } else {
        format!(
            "{SENTINEL_PREFIX}{}{SENTINEL_SUFFIX}",
            base64_encode(value.as_bytes())
        )
    }
}

/// Decodes a header value per "Value Encoding": a value framed by the sentinel is base64 of UTF-8;
/// any other value is taken as is, but must hold only header-value characters.
pub fn decode_value(value: &str) -> Result<String, HeaderError> {
    if value.len() >= SENTINEL_PREFIX.len() + SENTINEL_SUFFIX.len() && is_sentinel(value) {
        let inner = &value[SENTINEL_PREFIX.len()..value.len() - SENTINEL_SUFFIX.len()];
        let bytes = base64_decode(inner).ok_or(HeaderError::InvalidEncoding)?;
        return String::from_utf8(bytes).map_err(|_| HeaderError::InvalidEncoding);
    }
    if value.chars().all(is_field_char) {
        Ok(value.to_string())
    } else {
        Err(HeaderError::InvalidCharacters)
    }
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Base64 with the standard alphabet and `=` padding (RFC 4648 § 4).
pub fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for group in bytes.chunks(3) {
        let n = group
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, &b)| acc | (u32::from(b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= group.len() {
                out.push(B64[((n >> (18 - 6 * i)) & 0x3f) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Strict inverse of [`base64_encode`]: length a multiple of 4, padding only at the end, and
/// zero pad bits (the canonical form, RFC 4648 § 3.5). `None` on any violation.
pub fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    let groups = bytes.len() / 4;
    for (g, quad) in bytes.chunks(4).enumerate() {
        let pad = quad.iter().rev().take_while(|&&b| b == b'=').count();
        if pad > 2 || (pad > 0 && g + 1 != groups) {
            return None;
        }
        let mut n = 0u32;
        for &c in &quad[..4 - pad] {
            let v = B64.iter().position(|&a| a == c)?;
            n = (n << 6) | v as u32;
        }
        n <<= 6 * pad as u32;
        let produced = 3 - pad;
        // The bits the padding stands for must be zero.
        if n & ((1 << (8 * pad as u32)) - 1) != 0 {
            return None;
        }
        out.extend_from_slice(&n.to_be_bytes()[1..1 + produced]);
    }
    Some(out)
}

// ---------------------------------------------------------------------------------------------
// Standard headers
// ---------------------------------------------------------------------------------------------

/// The standard request headers of `streamable-http` "Standard Request Headers": `mcp-method`
/// always, and `mcp-name` (value-encoded) from `params.name` for `tools/call` and `prompts/get`,
/// from `params.uri` for `resources/read`, and from `params.taskId` for `tasks/*` (the tasks
/// extension). `mcp-name` is left out when that member is absent or not a string.
pub fn standard_headers(method: &str, params: Option<&Value>) -> Vec<(String, String)> {
    let mut out = vec![(names::MCP_METHOD.to_string(), method.to_string())];
    let source = match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" => Some("uri"),
        m if m.starts_with("tasks/") => Some("taskId"),
        _ => None,
    };
    if let Some(name) = source
        .and_then(|key| params?.get(key))
        .and_then(Value::as_str)
    {
        out.push((names::MCP_NAME.to_string(), encode_value(name)));
    }
    out
}

// ---------------------------------------------------------------------------------------------
// x-mcp-header validation
// ---------------------------------------------------------------------------------------------

/// Whether `c` is an RFC 9110 `tchar` (§ 5.6.2); this excludes every CTL, space and separator.
fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// Appends a reference token to a JSON pointer (RFC 6901 § 3: `~` => `~0`, `/` => `~1`).
fn push_pointer(base: &str, token: &str) -> String {
    format!("{base}/{}", token.replace('~', "~0").replace('/', "~1"))
}

/// Keywords whose value maps property-like *names* to subschemas: a key named `x-mcp-header` inside
/// them is a name, not an annotation (unless its value is not a schema, i.e. a misplaced
/// annotation).
const NAME_MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
];

/// Extracts and validates every `x-mcp-header` annotation of a tool's `inputSchema` (MCP
/// `server/tools` "x-mcp-header" and `streamable-http` "Schema Extension").
///
/// The whole schema document is walked: annotations on schemas reached from the root through
/// `properties` alone are collected and validated; an `x-mcp-header` member found anywhere else
/// (`items`, `prefixItems`, `additionalProperties`, composition, conditionals, `$defs`, `$ref`
/// targets, `patternProperties`, the root itself, ...) fails with `NotStaticallyReachable`. The
/// first violation in document order is returned.
pub fn param_headers(input_schema: &Value) -> Result<Vec<ParamHeader>, HeaderError> {
    let mut found = Vec::new();
    walk_reachable(input_schema, "", &mut Vec::new(), &mut found)?;
    Ok(found)
}

/// Walks a schema reached through `properties` only. `path` is empty for the root.
fn walk_reachable(
    schema: &Value,
    pointer: &str,
    path: &mut Vec<String>,
    found: &mut Vec<ParamHeader>,
) -> Result<(), HeaderError> {
    let Value::Object(obj) = schema else {
        return walk_other(schema, pointer);
    };
    if let Some(name) = obj.get(X_MCP_HEADER) {
        if path.is_empty() {
            return Err(HeaderError::NotStaticallyReachable {
                at: push_pointer(pointer, X_MCP_HEADER),
            });
        }
        let header = annotation(obj, name, pointer, path)?;
        if let Some(prev) = found
            .iter()
            .find(|h| h.name.eq_ignore_ascii_case(&header.name))
        {
            return Err(HeaderError::DuplicateName {
                name: prev.name.clone(),
            });
        }
        found.push(header);
    }
    for (key, value) in obj {
        let here = push_pointer(pointer, key);
        match (key.as_str(), value) {
            (X_MCP_HEADER, _) => {}
            ("properties", Value::Object(props)) => {
                for (name, sub) in props {
                    let at = push_pointer(&here, name);
                    check_name_entry(name, sub, &at)?;
                    path.push(name.clone());
                    let r = walk_reachable(sub, &at, path, found);
                    path.pop();
                    r?;
                }
            }
            _ => walk_other_member(key, value, &here)?,
        }
    }
    Ok(())
}

/// Validates the annotation `name` on the reachable property schema `obj`.
fn annotation(
    obj: &Map<String, Value>,
    name: &Value,
    pointer: &str,
    path: &[String],
) -> Result<ParamHeader, HeaderError> {
    let at = || pointer.to_string();
    let Value::String(name) = name else {
        return Err(HeaderError::InvalidName { at: at() });
    };
    if name.is_empty() {
        return Err(HeaderError::EmptyName { at: at() });
    }
    if !name.chars().all(is_tchar) {
        return Err(HeaderError::InvalidName { at: at() });
    }
    let kind = match obj.get("type").and_then(Value::as_str) {
        Some("string") => ParamType::String,
        Some("integer") => ParamType::Integer,
        Some("boolean") => ParamType::Boolean,
        _ => return Err(HeaderError::UnsupportedType { at: at() }),
    };
    Ok(ParamHeader {
        name: name.clone(),
        path: path.to_vec(),
        kind,
    })
}

/// A member `key: value` of a schema (or of any JSON object) outside the static chain.
fn walk_other_member(key: &str, value: &Value, pointer: &str) -> Result<(), HeaderError> {
    match value {
        Value::Object(map) if NAME_MAPS.contains(&key) => {
            for (name, sub) in map {
                let at = push_pointer(pointer, name);
                check_name_entry(name, sub, &at)?;
                walk_other(sub, &at)?;
            }
            Ok(())
        }
        _ => walk_other(value, pointer),
    }
}

/// A key named `x-mcp-header` inside a name map is a property name when its value is a schema
/// (object or boolean); any other value is an annotation put in the wrong place.
fn check_name_entry(name: &str, value: &Value, pointer: &str) -> Result<(), HeaderError> {
    if name == X_MCP_HEADER && !matches!(value, Value::Object(_) | Value::Bool(_)) {
        return Err(HeaderError::NotStaticallyReachable {
            at: pointer.to_string(),
        });
    }
    Ok(())
}

/// Walks JSON outside the static chain: any `x-mcp-header` member here is an error.
fn walk_other(value: &Value, pointer: &str) -> Result<(), HeaderError> {
    match value {
        Value::Object(obj) => {
            for (key, v) in obj {
                let here = push_pointer(pointer, key);
                if key == X_MCP_HEADER {
                    return Err(HeaderError::NotStaticallyReachable { at: here });
                }
                walk_other_member(key, v, &here)?;
            }
            Ok(())
        }
        Value::Array(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(i, v)| walk_other(v, &push_pointer(pointer, &i.to_string()))),
        _ => Ok(()),
    }
}

// ---------------------------------------------------------------------------------------------
// Header values
// ---------------------------------------------------------------------------------------------

/// The text a value is sent as, when it has the declared type ("Value Encoding", type
/// conversion). Integers must be integral and within ±(2^53 − 1); `42.0` counts as the integer 42
/// (JSON Schema: an integer is a number with zero fractional part).
fn value_text(kind: ParamType, value: &Value) -> Option<String> {
    match (kind, value) {
        (ParamType::String, Value::String(s)) => Some(s.clone()),
        (ParamType::Boolean, Value::Bool(b)) => Some(b.to_string()),
        (ParamType::Integer, Value::Number(n)) => {
            let i = if let Some(i) = n.as_i64() {
                i
            } else {
                let f = n.as_f64()?;
                // Range first: beyond 2^53 every f64 is integral, and the cast would saturate.
                if f.fract() != 0.0 || f.abs() > MAX_SAFE_INTEGER as f64 {
                    return None;
                }
                f as i64
            };
            (-MAX_SAFE_INTEGER..=MAX_SAFE_INTEGER)
                .contains(&i)
                .then(|| i.to_string())
        }
        _ => None,
    }
}

/// The value at a chain of object keys, if every step exists.
fn lookup<'a>(arguments: &'a Value, path: &[String]) -> Option<&'a Value> {
    path.iter()
        .try_fold(arguments, |v, key| v.get(key.as_str()))
}

/// The `Mcp-Param-*` headers for one call's arguments (`streamable-http` "Client Behavior" steps
/// 3–5): for each designation, the value at its exact property path, converted and encoded;
/// omitted when absent, `null`, of another type than declared, or an out-of-range integer.
/// Names are `mcp-param-{name}` in lowercase.
pub fn param_header_values(headers: &[ParamHeader], arguments: &Value) -> Vec<(String, String)> {
    headers
        .iter()
        .filter_map(|h| {
            let text = value_text(h.kind, lookup(arguments, &h.path)?)?;
            Some((h.header_name(), encode_value(&text)))
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Tool lists
// ---------------------------------------------------------------------------------------------

/// A tool definition dropped from a `tools/list` result, with the reason (for the warning the
/// spec says clients SHOULD log).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RejectedTool {
    /// The tool's `name` (empty when it had none).
    pub name: String,
    /// Why its `x-mcp-header` annotations are invalid.
    pub error: HeaderError,
}

/// Splits the `tools` of a `tools/list` result into the tools to keep (each with its validated
/// designations) and the tools to drop: "Clients using the Streamable HTTP transport MUST reject
/// tool definitions where any `x-mcp-header` value violates these constraints ... exclude the
/// invalid tool from the result of `tools/list`" (MCP `server/tools`, "x-mcp-header"). A tool
/// without an `inputSchema` has no designations.
pub fn partition_tools(tools: Vec<Value>) -> (Vec<(Value, Vec<ParamHeader>)>, Vec<RejectedTool>) {
    let mut kept = Vec::new();
    let mut rejected = Vec::new();
    for tool in tools {
        let result = match tool.get("inputSchema") {
            Some(schema) => param_headers(schema),
            None => Ok(Vec::new()),
        };
        match result {
            Ok(headers) => kept.push((tool, headers)),
            Err(error) => rejected.push(RejectedTool {
                name: tool
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                error,
            }),
        }
    }
    (kept, rejected)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn base64_rfc4648_vectors() {
        // RFC 4648 § 10.
        let cases = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, enc) in cases {
            assert_eq!(base64_encode(plain.as_bytes()), enc);
            assert_eq!(base64_decode(enc).as_deref(), Some(plain.as_bytes()));
        }
    }

    #[test]
    fn base64_all_bytes_round_trip() {
        let all: Vec<u8> = (0..=255).collect();
        for len in 0..all.len() {
            let enc = base64_encode(&all[..len]);
            assert_eq!(base64_decode(&enc).as_deref(), Some(&all[..len]));
        }
    }

    #[test]
    fn base64_rejects_non_canonical() {
        for bad in [
            "Zh==", "Zm9=", "Zg=", "Z===", "Zg==Zg==", "Zm9v!", "Zm 9", "====",
        ] {
            assert_eq!(base64_decode(bad), None, "{bad}");
        }
    }
}
