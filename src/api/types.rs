//! Typed results of the Rust API. Each keeps the members it does not name in `other`, so nothing
//! a server sends is lost (MCP 2026-07-28 `server/tools`, `server/resources`, `server/prompts`).

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::proto::session::{Event, Progress, ProtocolError, ServerInfo};

fn empty_object() -> Value {
    Value::Object(Map::new())
}

/// A tool definition from `tools/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tool {
    /// The tool's name (call it by this name).
    pub name: String,
    /// A display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What it does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The JSON Schema of its arguments.
    #[serde(default = "empty_object")]
    pub input_schema: Value,
    /// The JSON Schema its `structuredContent` conforms to (checked by the client).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    /// Behaviour hints (`readOnlyHint`, ...): untrusted, from the server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Value>,
    /// Every other member (`_meta`, `icons`, ...).
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// The result of `tools/call`. A tool's own failure is a result with `is_error`, not an error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallToolResult {
    /// Content blocks (`{"type": "text", "text": ...}`, images, resource links, ...).
    #[serde(default)]
    pub content: Vec<Value>,
    /// Structured output, checked against the tool's `outputSchema`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<Value>,
    /// Whether the tool failed.
    #[serde(default)]
    pub is_error: bool,
    /// Every other member (`_meta`, ...).
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

impl CallToolResult {
    /// The text blocks joined by newlines.
    pub fn text(&self) -> String {
        let texts: Vec<&str> = self
            .content
            .iter()
            .filter(|c| c.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|c| c.get("text").and_then(Value::as_str))
            .collect();
        texts.join("\n")
    }
}

/// A resource from `resources/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Resource {
    /// Its URI (read it with this).
    pub uri: String,
    /// Its name.
    pub name: String,
    /// A display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its MIME type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Every other member (`size`, `annotations`, `_meta`, ...).
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// A resource template from `resources/templates/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceTemplate {
    /// The RFC 6570 URI template.
    pub uri_template: String,
    /// Its name.
    pub name: String,
    /// What it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Every other member.
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// A prompt from `prompts/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Prompt {
    /// Its name (get it with this).
    pub name: String,
    /// A display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What it is for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its arguments (`{"name", "description", "required"}` objects).
    #[serde(default)]
    pub arguments: Vec<Value>,
    /// Every other member.
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// The result of `resources/read`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadResourceResult {
    /// The contents (`{"uri", "mimeType", "text"}` or `{"uri", "mimeType", "blob"}` objects).
    #[serde(default)]
    pub contents: Vec<Value>,
    /// Every other member.
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// The result of `prompts/get`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GetPromptResult {
    /// A description of the prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The messages (`{"role", "content"}` objects).
    #[serde(default)]
    pub messages: Vec<Value>,
    /// Every other member.
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// What [`super::McpClient::notifications`] yields.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Notification {
    /// A server notification not tied to one request: `notifications/tools/list_changed`,
    /// `notifications/message` (logging), `notifications/resources/updated`, ...
    Server {
        /// The method.
        method: String,
        /// Its params.
        params: Value,
    },
    /// Progress of one of this client's requests (also delivered to that request).
    Progress(Progress),
    /// A tool was left out of `tools/list` (invalid `x-mcp-header` annotations).
    ToolRejected {
        /// The tool.
        name: String,
        /// Why.
        reason: String,
    },
    /// Something worth a log line that is not an error of any request.
    Diagnostic {
        /// What happened.
        message: String,
    },
    /// The server withdrew an input request (its request ended first).
    InputCancelled,
    /// The session was (re)established.
    Connected(ServerInfo),
    /// The session ended; the stream ends after this.
    Closed,
    /// `dropped` notifications were lost here: the queue was full while a request's own stream
    /// delivered more than the reader took.
    Gap {
        /// How many.
        dropped: u64,
    },
}

impl Notification {
    /// The notification for a queued session event (`None` for events that are not
    /// notifications).
    pub(crate) fn from_event(event: Event) -> Option<Notification> {
        Some(match event {
            Event::Notification { method, params } => Notification::Server { method, params },
            Event::Progress {
                progress,
                total,
                message,
                ..
            } => Notification::Progress(Progress {
                task: None,
                progress,
                total,
                message,
            }),
            Event::ToolRejected { name, reason } => Notification::ToolRejected { name, reason },
            Event::Diagnostic { message } => Notification::Diagnostic { message },
            Event::InputCancelled { .. } => Notification::InputCancelled,
            Event::Connected(info) => Notification::Connected(info),
            Event::Closed => Notification::Closed,
            _ => return None,
        })
    }
}

/// Reads a typed result (or the `field` member of it), or fails with `InvalidResult`.
pub(crate) fn typed<T: DeserializeOwned>(
    v: Value,
    field: Option<&str>,
) -> Result<T, ProtocolError> {
    let v = match (field, v) {
        (Some(f), Value::Object(mut m)) => m.remove(f).unwrap_or(Value::Array(Vec::new())),
        (_, v) => v,
    };
    serde_json::from_value(v).map_err(|e| ProtocolError::InvalidResult(e.to_string()))
}
