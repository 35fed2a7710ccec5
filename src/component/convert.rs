//! Conversions between the core's JSON values and errors and the WIT records of `wit/client.wit`.
//! Typed where the MCP schema fixes the shape; JSON text where it is open.

use serde_json::Value;

use super::exports::client::Era as WitEra;
use super::exports::client::{
    AuthError as WitAuthError, Error, ErrorKind, HttpStatusError, Notification, ProgressEvent,
    Prompt, PromptArgument, PromptMessage, PromptResult, Resource, ResourceContents, RpcError,
    ServerInfo as WitServerInfo, ServerNotification, TaskError, TimeoutError, Tool,
    ToolRejectedError, ToolResult, UnauthorizedError, UnsupportedVersionError,
};
use super::SeenLog;
use crate::proto::session::{Era, Event, ProtocolError, ServerInfo};

/// A core error as the WIT `error` record: typed case, stable code, message.
pub fn error(e: &ProtocolError) -> Error {
    let kind = match e {
        ProtocolError::Rpc {
            code,
            message,
            data,
        } => ErrorKind::Rpc(RpcError {
            code: *code,
            message: message.clone(),
            data_json: data.as_ref().map(Value::to_string),
        }),
        ProtocolError::HttpStatus {
            status,
            body,
            body_length,
            ..
        } => ErrorKind::HttpStatus(HttpStatusError {
            status: *status,
            body: body.clone(),
            body_length: *body_length,
        }),
        ProtocolError::Unauthorized {
            status,
            www_authenticate,
        } => ErrorKind::Unauthorized(UnauthorizedError {
            status: *status,
            www_authenticate: www_authenticate.clone(),
        }),
        ProtocolError::Timeout { after_ms, total } => ErrorKind::Timeout(TimeoutError {
            after_ms: *after_ms,
            total: *total,
        }),
        // A component's calls cannot be cancelled and no browser stands in between: these two
        // do not arise here, and `error.code` would still name them.
        ProtocolError::Network(_) | ProtocolError::Cancelled | ProtocolError::Cors(_) => {
            ErrorKind::Network
        }
        ProtocolError::StreamDropped { attempts, .. } => ErrorKind::StreamDropped(*attempts),
        ProtocolError::LegacyHttpSseServer { endpoint } => {
            ErrorKind::LegacyTransport(endpoint.clone())
        }
        ProtocolError::UnsupportedProtocolVersion {
            requested,
            supported,
        } => ErrorKind::UnsupportedVersion(UnsupportedVersionError {
            requested: requested.clone(),
            supported: supported.clone(),
        }),
        ProtocolError::NotConnected => ErrorKind::NotConnected,
        ProtocolError::Closed => ErrorKind::Closed,
        ProtocolError::ToolRejected { name, reason } => {
            ErrorKind::ToolRejected(ToolRejectedError {
                name: name.clone(),
                reason: reason.to_string(),
            })
        }
        ProtocolError::InvalidConfig(_) => ErrorKind::Config,
        ProtocolError::Auth(a) => ErrorKind::Auth(auth_error(a)),
        ProtocolError::InvalidMeta(m) => ErrorKind::InvalidMeta(m.clone()),
        ProtocolError::TaskFailed { task_id, error } => ErrorKind::TaskFailed(TaskError {
            task_id: task_id.clone(),
            rpc: Some(RpcError {
                code: error.code,
                message: error.message.clone(),
                data_json: error.data.as_ref().map(Value::to_string),
            }),
            message: None,
        }),
        ProtocolError::TaskCancelled { task_id, message } => ErrorKind::TaskCancelled(TaskError {
            task_id: task_id.clone(),
            rpc: None,
            message: message.clone(),
        }),
        ProtocolError::TaskExpired { task_id, reason } => ErrorKind::TaskExpired(TaskError {
            task_id: task_id.clone(),
            rpc: None,
            message: Some(reason.clone()),
        }),
        ProtocolError::TaskTimeout { task_id, after_ms } => ErrorKind::TaskTimeout(TaskError {
            task_id: task_id.clone(),
            rpc: None,
            message: Some(format!("stopped waiting after {after_ms} ms")),
        }),
        _ => ErrorKind::Protocol,
    };
    Error {
        kind,
        code: e.code().to_string(),
        message: e.to_string(),
    }
}

/// The details of an authorization error: whether the client refused on purpose, and what the
/// host can act on (the sign-in URL, the authorization server's `error` and status).
fn auth_error(e: &crate::proto::auth::AuthError) -> WitAuthError {
    use crate::proto::auth::AuthError as A;
    let (url, oauth_error, status) = match e {
        A::InteractionRequired { url } | A::PopupBlocked { url } => (Some(url.clone()), None, None),
        A::TokenRequestFailed { status, error, .. } | A::RegistrationFailed { status, error } => {
            (None, error.clone(), Some(*status))
        }
        A::AuthorizationDenied { error, .. } => (None, Some(error.clone()), None),
        _ => (None, None, None),
    };
    WitAuthError {
        refused: e.is_refusal(),
        url,
        oauth_error,
        status,
    }
}

/// A `CONFIG` error for bad connect options.
pub fn config_error(message: String) -> Error {
    error(&ProtocolError::InvalidConfig(message))
}

/// A `PROTOCOL` error for a result without the shape its method requires.
pub fn invalid_result(message: &str) -> Error {
    error(&ProtocolError::InvalidResult(message.to_string()))
}

fn text(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_string)
}

fn json_of(v: &Value, key: &str) -> Option<String> {
    v.get(key).filter(|x| !x.is_null()).map(Value::to_string)
}

/// The server info record.
pub fn server_info(info: &ServerInfo, session_id: Option<&str>) -> WitServerInfo {
    let implementation = info.server_info.as_ref();
    WitServerInfo {
        era: match info.era {
            Era::Modern => WitEra::Modern,
            Era::Legacy => WitEra::Legacy,
        },
        protocol_version: info.protocol_version.clone(),
        name: implementation.and_then(|i| text(i, "name")),
        version: implementation.and_then(|i| text(i, "version")),
        implementation_json: implementation.map(Value::to_string),
        capabilities_json: info.capabilities.to_string(),
        instructions: info.instructions.clone(),
        supported_versions: info.supported_versions.clone(),
        session_id: session_id.map(str::to_string),
    }
}

/// The items of a completed list operation (`{<field>: [...]}`).
pub fn items(result: &Value, field: &str) -> Result<Vec<Value>, Error> {
    result
        .get(field)
        .and_then(Value::as_array)
        .cloned()
        .ok_or_else(|| invalid_result(&format!("the result has no {field} array")))
}

/// A tool definition (MCP `server/tools` "Tool").
pub fn tool(v: &Value) -> Result<Tool, Error> {
    let name = text(v, "name").ok_or_else(|| invalid_result("a tool has no name"))?;
    Ok(Tool {
        name,
        title: text(v, "title"),
        description: text(v, "description"),
        input_schema_json: json_of(v, "inputSchema").unwrap_or_else(|| "{}".into()),
        output_schema_json: json_of(v, "outputSchema"),
        annotations_json: json_of(v, "annotations"),
        json: v.to_string(),
    })
}

/// A `tools/call` result with the progress seen for it; times relative to `started_ms`.
pub fn tool_result(
    v: &Value,
    progress: &SeenLog,
    started_ms: u64,
    at_ms: u64,
) -> Result<ToolResult, Error> {
    if !v.is_object() {
        return Err(invalid_result("a tool result is not an object"));
    }
    Ok(ToolResult {
        is_error: v.get("isError").and_then(Value::as_bool).unwrap_or(false),
        content_json: json_of(v, "content").unwrap_or_else(|| "[]".into()),
        structured_content_json: json_of(v, "structuredContent"),
        json: v.to_string(),
        progress: progress
            .events
            .iter()
            .map(|p| ProgressEvent {
                progress: p.progress,
                total: p.total,
                message: p.message.clone(),
                elapsed_ms: p.at_ms.saturating_sub(started_ms),
                task_json: p.task.as_ref().map(Value::to_string),
            })
            .collect(),
        progress_dropped: progress.dropped,
        elapsed_ms: at_ms.saturating_sub(started_ms),
    })
}

/// A resource (MCP `server/resources` "Resource").
pub fn resource(v: &Value) -> Result<Resource, Error> {
    let uri = text(v, "uri").ok_or_else(|| invalid_result("a resource has no uri"))?;
    Ok(Resource {
        name: text(v, "name").unwrap_or_else(|| uri.clone()),
        uri,
        title: text(v, "title"),
        description: text(v, "description"),
        mime_type: text(v, "mimeType"),
        size: v.get("size").and_then(Value::as_u64),
        json: v.to_string(),
    })
}

/// The `contents` of a `resources/read` result.
pub fn resource_contents(result: &Value) -> Result<Vec<ResourceContents>, Error> {
    items(result, "contents")?
        .iter()
        .map(|c| {
            let uri = text(c, "uri").ok_or_else(|| invalid_result("a content item has no uri"))?;
            Ok(ResourceContents {
                uri,
                mime_type: text(c, "mimeType"),
                text: text(c, "text"),
                blob_base64: text(c, "blob"),
                json: c.to_string(),
            })
        })
        .collect()
}

/// A prompt template (MCP `server/prompts` "Prompt").
pub fn prompt(v: &Value) -> Result<Prompt, Error> {
    let name = text(v, "name").ok_or_else(|| invalid_result("a prompt has no name"))?;
    let arguments = v
        .get("arguments")
        .and_then(Value::as_array)
        .map(|args| {
            args.iter()
                .filter_map(|a| {
                    Some(PromptArgument {
                        name: text(a, "name")?,
                        description: text(a, "description"),
                        required: a.get("required").and_then(Value::as_bool).unwrap_or(false),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(Prompt {
        name,
        title: text(v, "title"),
        description: text(v, "description"),
        arguments,
        json: v.to_string(),
    })
}

/// A `prompts/get` result.
pub fn prompt_result(v: &Value) -> Result<PromptResult, Error> {
    let messages = items(v, "messages")?
        .iter()
        .map(|m| PromptMessage {
            role: text(m, "role").unwrap_or_default(),
            content_json: json_of(m, "content").unwrap_or_else(|| "null".into()),
        })
        .collect();
    Ok(PromptResult {
        description: text(v, "description"),
        messages,
        json: v.to_string(),
    })
}

/// A queued event as a WIT notification; `None` for events the queue does not carry.
pub fn notification(e: Event) -> Option<Notification> {
    match e {
        Event::Notification { method, params } => Some(Notification::Server(ServerNotification {
            method,
            params_json: params.to_string(),
        })),
        Event::ToolRejected { name, reason } => {
            Some(Notification::ToolRejected(ToolRejectedError {
                name,
                reason,
            }))
        }
        Event::Diagnostic { message } => Some(Notification::Diagnostic(message)),
        // Who signed in, as the host's line (the tokens stay in the instance's store).
        Event::Auth(crate::proto::auth::AuthEvent::SignedIn {
            issuer,
            scope,
            token_type,
            ..
        }) => Some(Notification::Diagnostic(format!(
            "signed in at {issuer} ({} token, scope {})",
            token_type.scheme(),
            scope.as_deref().unwrap_or("-")
        ))),
        Event::Closed => Some(Notification::Closed),
        _ => None,
    }
}
