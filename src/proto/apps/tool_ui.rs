//! What a tool says about its user interface (MCP Apps, ext-apps `specification/2026-01-26/
//! apps.mdx` "Resource Discovery"): the `ui://` resource that renders its results and who may see
//! and call it.

use serde_json::Value;

/// Who may use a tool: the model (the agent's tool list), the app (a view's `tools/call`), or both.
///
/// ext-apps "Visibility": `visibility` defaults to `["model", "app"]`; a host MUST NOT list a tool
/// for the agent without `"model"` and MUST reject an app's call without `"app"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Visibility {
    /// Listed in the model's tools and callable by the agent.
    pub model: bool,
    /// Callable by a view of the same server.
    pub app: bool,
}

impl Default for Visibility {
    fn default() -> Self {
        Visibility {
            model: true,
            app: true,
        }
    }
}

impl Visibility {
    /// The visibility `visibility` declares. Anything but an array of strings is the default (a
    /// server that gets the member wrong keeps its tools where a host that knows nothing of apps
    /// would put them); unknown strings are ignored, as future values would be.
    pub fn parse(visibility: Option<&Value>) -> Visibility {
        let Some(items) = visibility.and_then(Value::as_array) else {
            return Visibility::default();
        };
        if items.iter().any(|v| !v.is_string()) {
            return Visibility::default();
        }
        let has = |s: &str| items.iter().any(|v| v.as_str() == Some(s));
        Visibility {
            model: has("model"),
            app: has("app"),
        }
    }

    /// The JSON form (`["model", "app"]`, in that order).
    pub fn to_json(self) -> Value {
        let mut out = Vec::new();
        if self.model {
            out.push(Value::from("model"));
        }
        if self.app {
            out.push(Value::from("app"));
        }
        Value::Array(out)
    }
}

/// A tool's `_meta.ui`, read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolUi {
    /// The `ui://` resource that renders the tool's results, when it has one (from
    /// `_meta.ui.resourceUri`, else the deprecated flat `_meta["ui/resourceUri"]`). A URI that
    /// does not start with `ui://` is not one ("URI MUST start with `ui://` scheme").
    pub resource_uri: Option<String>,
    /// Who may use the tool.
    pub visibility: Visibility,
}

/// The scheme every UI resource URI has.
pub const UI_SCHEME: &str = "ui://";

impl ToolUi {
    /// Reads a tool object's `_meta`.
    pub fn of_tool(tool: &Value) -> ToolUi {
        let meta = tool.get("_meta");
        let ui = meta.and_then(|m| m.get("ui"));
        let resource_uri = ui
            .and_then(|u| u.get("resourceUri"))
            .and_then(Value::as_str)
            .or_else(|| {
                meta.and_then(|m| m.get("ui/resourceUri"))
                    .and_then(Value::as_str)
            })
            .filter(|u| u.starts_with(UI_SCHEME))
            .map(str::to_string);
        ToolUi {
            resource_uri,
            visibility: Visibility::parse(ui.and_then(|u| u.get("visibility"))),
        }
    }

    /// The form hosts read (`toolInfo`): `{"resourceUri": …|null, "visibility": [...]}`.
    pub fn to_json(&self) -> Value {
        serde_json::json!({
            "resourceUri": self.resource_uri,
            "visibility": self.visibility.to_json(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn visibility_defaults_to_both_and_reads_each_value() {
        let v = |x: Value| Visibility::parse(Some(&x));
        assert_eq!(Visibility::parse(None), Visibility::default());
        assert_eq!(
            v(json!(["app"])),
            Visibility {
                model: false,
                app: true
            }
        );
        assert_eq!(
            v(json!(["model"])),
            Visibility {
                model: true,
                app: false
            }
        );
        assert_eq!(
            v(json!([])),
            Visibility {
                model: false,
                app: false
            }
        );
        assert_eq!(v(json!(["model", "app", "later"])), Visibility::default());
        assert_eq!(v(json!("app")), Visibility::default());
        assert_eq!(v(json!(["app", 3])), Visibility::default());
        assert_eq!(v(json!(["app"])).to_json(), json!(["app"]));
    }

    #[test]
    fn resource_uri_prefers_the_nested_member_and_needs_the_ui_scheme() {
        let t = json!({"name": "a", "_meta": {"ui": {"resourceUri": "ui://x/a", "visibility": ["app"]},
            "ui/resourceUri": "ui://x/old"}});
        let ui = ToolUi::of_tool(&t);
        assert_eq!(ui.resource_uri.as_deref(), Some("ui://x/a"));
        assert!(!ui.visibility.model);
        let old = ToolUi::of_tool(&json!({"_meta": {"ui/resourceUri": "ui://x/old"}}));
        assert_eq!(old.resource_uri.as_deref(), Some("ui://x/old"));
        let http = ToolUi::of_tool(&json!({"_meta": {"ui": {"resourceUri": "https://x/a"}}}));
        assert_eq!(http.resource_uri, None);
        assert_eq!(
            ToolUi::of_tool(&json!({"name": "plain"})),
            ToolUi::default()
        );
    }
}
