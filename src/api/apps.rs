//! MCP Apps over one client: reading a tool's view into a bridge, and forwarding the view's
//! server requests through the client. The JS `McpApp` (`crate::js`) and the Rust
//! [`McpClient::open_app`] both use these; the bridge itself is the core's
//! [`crate::proto::apps::AppBridge`].

use std::cell::RefCell;
use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use super::call::{self, CallOptions};
use super::client::McpClient;
use super::FetchClient as Client;
use crate::proto::apps::{
    read_app_resource, AppBridge, AppError, BridgeConfig, ToolUi, ViewRequest,
};
use crate::proto::jsonrpc::ErrorObject;
use crate::proto::session::{ListKind, ProtocolError};

fn protocol(e: ProtocolError) -> AppError {
    AppError::Protocol(Box::new(e))
}

/// The bridge configuration for the view of `tool_name` (ext-apps "Resource Discovery"): the tool
/// from `tools` (listed into it first when missing), its `ui://` resource read and checked, the
/// resource's `resources/list` entry as the base of its `_meta.ui` when the server lists it, and
/// the visibility of every tool of the server. The defaults of [`BridgeConfig::new`] apply.
pub(crate) async fn view_config(
    client: &Client,
    tool_name: &str,
    tools: &RefCell<Map<String, Value>>,
) -> Result<BridgeConfig, AppError> {
    if !tools.borrow().contains_key(tool_name) {
        let listed = call::list(client, ListKind::Tools, None)
            .await
            .map_err(protocol)?;
        let mut t = tools.borrow_mut();
        for tool in listed["tools"].as_array().into_iter().flatten() {
            if let Some(name) = tool.get("name").and_then(Value::as_str) {
                t.insert(name.to_string(), tool.clone());
            }
        }
    }
    let tool = tools
        .borrow()
        .get(tool_name)
        .cloned()
        .ok_or_else(|| AppError::UnknownTool(tool_name.to_string()))?;
    let uri = ToolUi::of_tool(&tool)
        .resource_uri
        .ok_or_else(|| AppError::NotAnApp(tool_name.to_string()))?;
    let read = call::run(
        client,
        "resources/read",
        json!({ "uri": uri }),
        CallOptions::new(),
    )
    .await
    .map_err(protocol)?;
    // Servers may leave UI resources out of the list: a failed or missing lookup is no error.
    let entry = call::list(client, ListKind::Resources, None)
        .await
        .ok()
        .and_then(|l| {
            l["resources"]
                .as_array()?
                .iter()
                .find(|r| r.get("uri").and_then(Value::as_str) == Some(uri.as_str()))
                .cloned()
        });
    let resource = read_app_resource(&uri, entry.as_ref(), &read)?;
    let mut cfg = BridgeConfig::new(resource, tool);
    cfg.server_tools = tools
        .borrow()
        .iter()
        .map(|(name, t)| (name.clone(), ToolUi::of_tool(t).visibility))
        .collect::<BTreeMap<_, _>>();
    Ok(cfg)
}

/// Answers a view's `tools/call` or `resources/read` through `client` (the bridge has already
/// checked the tool's visibility); `None` for the requests the host answers itself. A server's
/// JSON-RPC error reaches the view as it was; any other failure as `-32000` with its message.
pub(crate) async fn forward(
    client: &Client,
    request: &ViewRequest,
) -> Option<Result<Value, ErrorObject>> {
    let result = match request {
        ViewRequest::CallTool { name, arguments } => {
            // Visibility may have changed since the view opened (`list_changed`): the tool must
            // still be the server's and still visible to apps ("Host MUST reject tools/call
            // requests from apps for tools that don't include "app" in visibility").
            match still_app_visible(client, name).await {
                Ok(true) => {}
                Ok(false) => {
                    return Some(Err(ErrorObject::new(
                        crate::proto::jsonrpc::codes::INVALID_PARAMS,
                        format!("tool {name:?} is no longer a tool this view may call"),
                    )))
                }
                Err(e) => return Some(Err(rpc_error(e))),
            }
            call::call_tool(client, name, arguments.clone(), CallOptions::new()).await
        }
        ViewRequest::ReadResource { uri } => {
            call::run(
                client,
                "resources/read",
                json!({ "uri": uri }),
                CallOptions::new(),
            )
            .await
        }
        _ => return None,
    };
    Some(result.map_err(rpc_error))
}

/// A failure as the view sees it: a server's JSON-RPC error as it was, anything else `-32000`.
fn rpc_error(e: ProtocolError) -> ErrorObject {
    match e {
        ProtocolError::Rpc {
            code,
            message,
            data,
        } => ErrorObject {
            code,
            message,
            data,
        },
        e => ErrorObject::new(-32000, e.to_string()),
    }
}

/// Whether the server's current tool list (2026-07-28: cached under its own `ttlMs`) still has
/// `name` with `"app"` visibility.
async fn still_app_visible(client: &Client, name: &str) -> Result<bool, ProtocolError> {
    let listed = call::list(client, ListKind::Tools, None).await?;
    Ok(listed["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|t| t.get("name").and_then(Value::as_str) == Some(name))
        .is_some_and(|t| ToolUi::of_tool(t).visibility.app))
}

impl McpClient {
    /// Reads the view of tool `tool_name` (MCP Apps) and returns the bridge for it, set up with
    /// the server's tool visibility. The host mounts the view (`bridge.document()` into a
    /// sandboxed frame, or through a sandbox proxy), feeds it `from_view`, posts what
    /// `poll_event` gives, and answers view requests, those for the server with
    /// [`forward_view_request`](Self::forward_view_request). Declare the extension when
    /// connecting: `ConnectOptions::extension("io.modelcontextprotocol/ui", true.into())`.
    pub async fn open_app(&self, tool_name: &str) -> Result<AppBridge, AppError> {
        let tools = RefCell::new(Map::new());
        view_config(self.driver(), tool_name, &tools)
            .await
            .map(AppBridge::new)
    }

    /// Answers a view's `tools/call` or `resources/read` through this client; `None` for the
    /// requests the host answers itself (links, messages, model context, display mode).
    pub async fn forward_view_request(
        &self,
        request: &ViewRequest,
    ) -> Option<Result<Value, ErrorObject>> {
        forward(self.driver(), request).await
    }
}
