//! The tool adapters' error enum.

use std::fmt;

/// Errors of the tool adapters: a definition that cannot be exported, a name that routes
/// nowhere, a tool held back by its pin. Clonable and comparable; the pool carries it as
/// [`crate::pool::PoolError::Tool`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ToolError {
    /// No tool of that (namespaced) name is known.
    UnknownTool(String),
    /// The tool is visible to apps only (MCP Apps `visibility` without `"model"`): no export
    /// lists it and the model may not call it. Its code is `UNKNOWN_TOOL`, as for a tool the
    /// model was never shown.
    AppOnly(String),
    /// The tool definition is unusable (no name, schema not an object, ...).
    InvalidTool {
        /// The server.
        server: String,
        /// The tool name as the server sent it (or `?`).
        tool: String,
        /// What is wrong.
        reason: String,
    },
    /// The tool's description or schema changed since it was pinned; it is held back until the
    /// host accepts the change.
    ToolChanged {
        /// The namespaced tool name.
        name: String,
    },
    /// Options of a tool search or of the tool-search settings are malformed.
    InvalidArgument(String),
}

impl ToolError {
    /// A stable machine-readable code, as the JS surface exposes it.
    pub fn code(&self) -> &'static str {
        match self {
            ToolError::UnknownTool(_) | ToolError::AppOnly(_) => "UNKNOWN_TOOL",
            ToolError::InvalidTool { .. } => "INVALID_TOOL",
            ToolError::ToolChanged { .. } => "TOOL_CHANGED",
            ToolError::InvalidArgument(_) => "INVALID_ARGUMENT",
        }
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolError::UnknownTool(t) => write!(f, "unknown tool {t:?}"),
            ToolError::AppOnly(t) => write!(
                f,
                "unknown tool {t:?}: it is visible to the server's apps only, not to the model"
            ),
            ToolError::InvalidTool {
                server,
                tool,
                reason,
            } => write!(f, "server {server:?}: tool {tool:?} is unusable: {reason}"),
            ToolError::ToolChanged { name } => write!(
                f,
                "tool {name:?} changed its description or schema since it was approved; it is held back until accepted"
            ),
            ToolError::InvalidArgument(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for ToolError {}
