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

use serde_json::Value;

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
    /// A base64 sentinel value could not be decoded.
    InvalidEncoding,
}

/// One `x-mcp-header` designation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamHeader {
    /// The `{Name}` part as the schema gives it.
    pub name: String,
    /// The chain of `properties` keys from the root to the property.
    pub path: Vec<String>,
}

/// Encodes a header value per "Value Encoding".
pub fn encode_value(value: &str) -> String {
    value.to_string()
}

/// Decodes a header value per "Value Encoding".
pub fn decode_value(value: &str) -> Result<String, HeaderError> {
    Ok(value.to_string())
}

/// Extracts and validates every `x-mcp-header` annotation of a tool's `inputSchema`.
pub fn param_headers(input_schema: &Value) -> Result<Vec<ParamHeader>, HeaderError> {
    let _ = input_schema;
    Ok(Vec::new())
}

/// The `Mcp-Param-*` headers for one call's arguments.
pub fn param_header_values(headers: &[ParamHeader], arguments: &Value) -> Vec<(String, String)> {
    let _ = (headers, arguments);
    Vec::new()
}

/// The standard 2026-07-28 headers of a request: `mcp-method` always, `mcp-name` (encoded) from
/// `params.name` (`tools/call`, `prompts/get`), `params.uri` (`resources/read`) or
/// `params.taskId` (`tasks/*`).
pub fn standard_headers(method: &str, params: Option<&Value>) -> Vec<(String, String)> {
    let mut out = vec![("mcp-method".to_string(), method.to_string())];
    let field = match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" => Some("uri"),
        m if m.starts_with("tasks/") => Some("taskId"),
        _ => None,
    };
    if let Some(v) = field.and_then(|f| params.and_then(|p| p.get(f))).and_then(Value::as_str) {
        out.push(("mcp-name".to_string(), encode_value(v)));
    }
    out
}
