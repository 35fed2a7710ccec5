//! JSON-RPC 2.0 messages (<https://www.jsonrpc.org/specification>), as MCP uses them
//! (MCP `basic/index` "Messages"): requests, notifications, responses and error responses.
//!
//! Decoding is strict: `"jsonrpc"` must be exactly `"2.0"`, ids are integers or strings, a response
//! carries exactly one of `result` / `error`, and an error object has an integer `code` and a string
//! `message`. Fields this module does not know (including `_meta`) are kept in `extra` and written
//! back unchanged.

use serde_json::{Map, Value};
use std::fmt;

use crate::util::json::json_text;

/// A JSON-RPC request id. MCP forbids `null` ids on requests.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RequestId {
    /// An integer id.
    Number(i64),
    /// A string id.
    String(String),
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestId::Number(n) => write!(f, "{n}"),
            RequestId::String(s) => write!(f, "{s:?}"),
        }
    }
}

impl RequestId {
    fn from_value(v: &Value) -> Result<Self, JsonRpcError> {
        match v {
            Value::String(s) => Ok(RequestId::String(s.clone())),
            Value::Number(n) => n
                .as_i64()
                .map(RequestId::Number)
                .ok_or(JsonRpcError::InvalidId),
            _ => Err(JsonRpcError::InvalidId),
        }
    }
    /// The id as a JSON value.
    pub fn to_value(&self) -> Value {
        match self {
            RequestId::Number(n) => Value::from(*n),
            RequestId::String(s) => Value::from(s.clone()),
        }
    }
}

/// A request: expects a response with the same id.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// The id.
    pub id: RequestId,
    /// The method name.
    pub method: String,
    /// The params object, when present.
    pub params: Option<Value>,
    /// Top-level members this module does not interpret, preserved.
    pub extra: Map<String, Value>,
}

/// A notification: no id, no response.
#[derive(Debug, Clone, PartialEq)]
pub struct Notification {
    /// The method name.
    pub method: String,
    /// The params object, when present.
    pub params: Option<Value>,
    /// Top-level members this module does not interpret, preserved.
    pub extra: Map<String, Value>,
}

/// A successful response.
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    /// The id of the request answered.
    pub id: RequestId,
    /// The result.
    pub result: Value,
    /// Top-level members this module does not interpret, preserved.
    pub extra: Map<String, Value>,
}

/// The `error` member of an error response.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorObject {
    /// The error code.
    pub code: i64,
    /// A short description.
    pub message: String,
    /// Additional information, when present.
    pub data: Option<Value>,
}

/// An error response. The id is absent when the server could not determine it.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorResponse {
    /// The id of the request answered, if known.
    pub id: Option<RequestId>,
    /// The error.
    pub error: ErrorObject,
    /// Top-level members this module does not interpret, preserved.
    pub extra: Map<String, Value>,
}

/// Any JSON-RPC 2.0 message.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    /// A request.
    Request(Request),
    /// A notification.
    Notification(Notification),
    /// A successful response.
    Response(Response),
    /// An error response.
    Error(ErrorResponse),
}

/// Standard and MCP error codes (JSON-RPC 2.0 § 5.1; MCP `basic/index` "Error codes").
pub mod codes {
    /// Invalid JSON was received.
    pub const PARSE_ERROR: i64 = -32700;
    /// The JSON sent is not a valid request object.
    pub const INVALID_REQUEST: i64 = -32600;
    /// The method does not exist.
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// Invalid method parameters.
    pub const INVALID_PARAMS: i64 = -32602;
    /// Internal error.
    pub const INTERNAL_ERROR: i64 = -32603;
    /// 2025 era: resource not found (2026 uses INVALID_PARAMS; clients accept both).
    pub const RESOURCE_NOT_FOUND: i64 = -32002;
    /// 2026-07-28: the HTTP headers do not match the body.
    pub const HEADER_MISMATCH: i64 = -32020;
    /// 2026-07-28: a capability the server needs was not declared.
    pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i64 = -32021;
    /// 2026-07-28: the requested protocol version is not supported.
    pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
}

/// Why a message could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum JsonRpcError {
    /// The text is not JSON.
    InvalidJson(String),
    /// A JSON array: batches are not used by this client.
    BatchNotSupported,
    /// The message is not a JSON object.
    NotAnObject,
    /// `"jsonrpc"` is missing or not `"2.0"`.
    BadVersion,
    /// `id` is not an integer or a string.
    InvalidId,
    /// `method` is not a string.
    InvalidMethod,
    /// `params` is neither an object nor an array.
    InvalidParams,
    /// A response has both `result` and `error`.
    BothResultAndError,
    /// An object with an id has neither `method`, `result` nor `error`.
    NoResultOrError,
    /// The `error` member is not `{code: integer, message: string, data?}`.
    InvalidErrorObject,
    /// A success response without an id.
    MissingId,
}

impl fmt::Display for JsonRpcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonRpcError::InvalidJson(e) => write!(f, "invalid JSON: {e}"),
            JsonRpcError::BatchNotSupported => f.write_str("JSON-RPC batches are not supported"),
            JsonRpcError::NotAnObject => f.write_str("a JSON-RPC message must be a JSON object"),
            JsonRpcError::BadVersion => f.write_str("\"jsonrpc\" must be \"2.0\""),
            JsonRpcError::InvalidId => f.write_str("\"id\" must be an integer or a string"),
            JsonRpcError::InvalidMethod => f.write_str("\"method\" must be a string"),
            JsonRpcError::InvalidParams => f.write_str("\"params\" must be an object or an array"),
            JsonRpcError::BothResultAndError => {
                f.write_str("a response must not carry both \"result\" and \"error\"")
            }
            JsonRpcError::NoResultOrError => {
                f.write_str("a response must carry \"result\" or \"error\"")
            }
            JsonRpcError::InvalidErrorObject => {
                f.write_str("\"error\" must be {code: integer, message: string}")
            }
            JsonRpcError::MissingId => f.write_str("a successful response must carry an \"id\""),
        }
    }
}

impl std::error::Error for JsonRpcError {}

impl Message {
    /// The answer to request `id`: a response with `result`, or an error response.
    pub fn reply(id: RequestId, result: Result<Value, ErrorObject>) -> Message {
        match result {
            Ok(result) => Message::Response(Response {
                id,
                result,
                extra: Map::new(),
            }),
            Err(error) => Message::Error(ErrorResponse {
                id: Some(id),
                error,
                extra: Map::new(),
            }),
        }
    }

    /// Decodes one message from JSON text.
    pub fn parse(text: &str) -> Result<Message, JsonRpcError> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| JsonRpcError::InvalidJson(e.to_string()))?;
        Message::from_value(value)
    }

    /// Decodes one message from a JSON value.
    pub fn from_value(value: Value) -> Result<Message, JsonRpcError> {
        let mut obj = match value {
            Value::Object(o) => o,
            Value::Array(_) => return Err(JsonRpcError::BatchNotSupported),
            _ => return Err(JsonRpcError::NotAnObject),
        };
        match obj.shift_remove("jsonrpc") {
            Some(Value::String(v)) if v == "2.0" => {}
            _ => return Err(JsonRpcError::BadVersion),
        }
        let id = obj.shift_remove("id");
        if let Some(method) = obj.shift_remove("method") {
            let Value::String(method) = method else {
                return Err(JsonRpcError::InvalidMethod);
            };
            let params = match obj.shift_remove("params") {
                None => None,
                Some(p @ (Value::Object(_) | Value::Array(_))) => Some(p),
                Some(_) => return Err(JsonRpcError::InvalidParams),
            };
            return Ok(match id {
                None => Message::Notification(Notification {
                    method,
                    params,
                    extra: obj,
                }),
                Some(id) => Message::Request(Request {
                    id: RequestId::from_value(&id)?,
                    method,
                    params,
                    extra: obj,
                }),
            });
        }
        let result = obj.shift_remove("result");
        let error = obj.shift_remove("error");
        match (result, error) {
            (Some(_), Some(_)) => Err(JsonRpcError::BothResultAndError),
            (None, None) => Err(JsonRpcError::NoResultOrError),
            (Some(result), None) => {
                let id = match id {
                    None | Some(Value::Null) => return Err(JsonRpcError::MissingId),
                    Some(id) => RequestId::from_value(&id)?,
                };
                Ok(Message::Response(Response {
                    id,
                    result,
                    extra: obj,
                }))
            }
            (None, Some(error)) => {
                let id = match id {
                    None | Some(Value::Null) => None,
                    Some(id) => Some(RequestId::from_value(&id)?),
                };
                Ok(Message::Error(ErrorResponse {
                    id,
                    error: ErrorObject::from_value(error)?,
                    extra: obj,
                }))
            }
        }
    }

    /// Encodes the message as a JSON value (`jsonrpc` first, preserved members after).
    pub fn to_value(&self) -> Value {
        let mut o = Map::new();
        o.insert("jsonrpc".into(), Value::from("2.0"));
        let extra = match self {
            Message::Request(r) => {
                o.insert("id".into(), r.id.to_value());
                o.insert("method".into(), Value::from(r.method.clone()));
                if let Some(p) = &r.params {
                    o.insert("params".into(), p.clone());
                }
                &r.extra
            }
            Message::Notification(n) => {
                o.insert("method".into(), Value::from(n.method.clone()));
                if let Some(p) = &n.params {
                    o.insert("params".into(), p.clone());
                }
                &n.extra
            }
            Message::Response(r) => {
                o.insert("id".into(), r.id.to_value());
                o.insert("result".into(), r.result.clone());
                &r.extra
            }
            Message::Error(e) => {
                o.insert(
                    "id".into(),
                    e.id.as_ref().map_or(Value::Null, RequestId::to_value),
                );
                o.insert("error".into(), e.error.to_value());
                &e.extra
            }
        };
        for (k, v) in extra {
            o.entry(k.clone()).or_insert_with(|| v.clone());
        }
        Value::Object(o)
    }

    /// Encodes the message as compact JSON text.
    pub fn to_json(&self) -> String {
        json_text(&self.to_value())
    }

    /// The method, for requests and notifications.
    pub fn method(&self) -> Option<&str> {
        match self {
            Message::Request(r) => Some(&r.method),
            Message::Notification(n) => Some(&n.method),
            _ => None,
        }
    }
}

impl ErrorObject {
    /// An error with no `data`.
    pub fn new(code: i64, message: impl Into<String>) -> ErrorObject {
        ErrorObject {
            code,
            message: message.into(),
            data: None,
        }
    }

    fn from_value(v: Value) -> Result<Self, JsonRpcError> {
        let Value::Object(mut o) = v else {
            return Err(JsonRpcError::InvalidErrorObject);
        };
        let code = o
            .remove("code")
            .and_then(|c| c.as_i64())
            .ok_or(JsonRpcError::InvalidErrorObject)?;
        let message = match o.remove("message") {
            Some(Value::String(m)) => m,
            _ => return Err(JsonRpcError::InvalidErrorObject),
        };
        Ok(ErrorObject {
            code,
            message,
            data: o.remove("data"),
        })
    }

    /// The error object as JSON.
    pub fn to_value(&self) -> Value {
        let mut o = Map::new();
        o.insert("code".into(), Value::from(self.code));
        o.insert("message".into(), Value::from(self.message.clone()));
        if let Some(d) = &self.data {
            o.insert("data".into(), d.clone());
        }
        Value::Object(o)
    }
}

impl Request {
    /// A request with no preserved extras.
    pub fn new(id: RequestId, method: impl Into<String>, params: Option<Value>) -> Self {
        Request {
            id,
            method: method.into(),
            params,
            extra: Map::new(),
        }
    }
}

impl Notification {
    /// A notification with no preserved extras.
    pub fn new(method: impl Into<String>, params: Option<Value>) -> Self {
        Notification {
            method: method.into(),
            params,
            extra: Map::new(),
        }
    }
}
