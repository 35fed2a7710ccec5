//! MCP Apps (`io.modelcontextprotocol/ui`, ext-apps `specification/2026-01-26/apps.mdx`): tool
//! visibility, UI resources and their Content-Security-Policy, and the host side of the
//! `postMessage` dialect as a state machine ([`bridge::AppBridge`]) that the JS glue, the Rust API
//! and the tests drive alike. Like the rest of the core: messages in, messages and events out, no
//! DOM, no I/O, no clock.

pub mod bridge;
pub mod resource;
pub mod tool_ui;

pub use bridge::{AppBridge, BridgeConfig, BridgeEvent, BridgeState, ViewRequest};
pub use resource::{
    extension_settings, html_with_policy, is_app_mime_type, read_app_resource, source_problem,
    AppResource, CspDomains, Permissions, UiResourceMeta, APP_MIME_TYPE, UI_EXTENSION,
};
pub use tool_ui::{ToolUi, Visibility, UI_SCHEME};

/// What the apps layer refuses.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum AppError {
    /// The URI is not a `ui://` URI.
    NotUiResource(String),
    /// The `resources/read` result holds no usable view.
    InvalidResource(String),
    /// The content item's MIME type is not `text/html;profile=mcp-app`.
    WrongMimeType(String),
    /// The HTML is larger than [`resource::MAX_HTML_BYTES`] (its size in bytes).
    TooLarge(usize),
    /// The host asked the bridge for something its state does not allow (what, and the state).
    InvalidState(String),
    /// The host answered a view request the bridge is not waiting for.
    UnknownRequest(u64),
    /// The server lists no tool of that name.
    UnknownTool(String),
    /// The tool has no `ui://` view (`_meta.ui.resourceUri`).
    NotAnApp(String),
    /// Reading the tool or its view from the server failed.
    Protocol(Box<crate::proto::session::ProtocolError>),
}

impl AppError {
    /// A stable machine-readable code, as the JS surface exposes it.
    pub fn code(&self) -> &'static str {
        match self {
            AppError::NotUiResource(_)
            | AppError::InvalidResource(_)
            | AppError::WrongMimeType(_)
            | AppError::TooLarge(_) => "INVALID_APP_RESOURCE",
            AppError::InvalidState(_) | AppError::UnknownRequest(_) => "INVALID_STATE",
            AppError::UnknownTool(_) => "UNKNOWN_TOOL",
            AppError::NotAnApp(_) => "NOT_AN_APP",
            AppError::Protocol(e) => e.code(),
        }
    }
}

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AppError::NotUiResource(u) => write!(f, "{u:?} is not a ui:// resource"),
            AppError::InvalidResource(why) => write!(f, "invalid UI resource: {why}"),
            AppError::WrongMimeType(m) => write!(
                f,
                "the UI resource's MIME type is {m:?}, not {:?}",
                resource::APP_MIME_TYPE
            ),
            AppError::TooLarge(n) => write!(
                f,
                "the UI resource is {n} bytes, over the {} byte limit",
                resource::MAX_HTML_BYTES
            ),
            AppError::InvalidState(what) => write!(f, "{what}"),
            AppError::UnknownRequest(id) => write!(f, "no view request {id} is waiting"),
            AppError::UnknownTool(t) => write!(f, "the server has no tool {t:?}"),
            AppError::NotAnApp(t) => {
                write!(f, "tool {t:?} has no ui:// view (_meta.ui.resourceUri)")
            }
            AppError::Protocol(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for AppError {}
