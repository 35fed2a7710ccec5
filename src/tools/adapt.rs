//! MCP tools as agent tools: categories from untrusted hints, provenance, truncation, and
//! results flattened for an LLM.
//!
//! Annotations are hints from outside the trust boundary: "clients MUST consider tool
//! annotations to be untrusted unless they come from trusted servers" (MCP 2026-07-28
//! `server/tools` "Tool"). So the category a host should act on is `execute` unless the *user*
//! configured the server's `category`; what the hints claim is exposed separately
//! ([`AdaptedTool::hinted_category`]). Only the user's `autoApprove` makes a tool approved in
//! advance ([`AdaptedTool::auto_approve`]).
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::error::ToolError;

/// What a tool may do, as the user configured it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    /// Reads only.
    Read,
    /// Changes state in a bounded, non-destructive way.
    Write,
    /// Anything else (the honest default).
    Execute,
}

impl Category {
    /// Parses `read` | `write` | `execute` (`edit`, an earlier spelling, is read as `write`).
    pub fn parse(s: &str) -> Option<Category> {
        match s {
            "read" => Some(Category::Read),
            "write" | "edit" => Some(Category::Write),
            "execute" => Some(Category::Execute),
            _ => None,
        }
    }

    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Read => "read",
            Category::Write => "write",
            Category::Execute => "execute",
        }
    }
}

/// Which of a server's tools the user's configuration approves in advance (`autoApprove`:
/// `true` for all of them, or a list of tool names as the server names them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum AutoApprove {
    /// None (the default).
    #[default]
    None,
    /// Every tool of the server.
    All,
    /// These tools.
    Tools(std::collections::BTreeSet<String>),
}

impl AutoApprove {
    /// Whether `tool` (the server's name for it) is approved in advance.
    pub fn covers(&self, tool: &str) -> bool {
        match self {
            AutoApprove::None => false,
            AutoApprove::All => true,
            AutoApprove::Tools(t) => t.contains(tool),
        }
    }
}

/// The behaviour hints of a tool's `annotations`, with the spec's defaults for absent members
/// (MCP `schema` `ToolAnnotations`: `readOnlyHint` false, `destructiveHint` true,
/// `idempotentHint` false, `openWorldHint` true).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Hints {
    /// `readOnlyHint`.
    pub read_only: bool,
    /// `destructiveHint` (meaningful only when not read-only).
    pub destructive: bool,
    /// `idempotentHint` (meaningful only when not read-only).
    pub idempotent: bool,
    /// `openWorldHint`.
    pub open_world: bool,
}

impl Default for Hints {
    fn default() -> Self {
        Hints {
            read_only: false,
            destructive: true,
            idempotent: false,
            open_world: true,
        }
    }
}

impl Hints {
    /// Reads the hints from an `annotations` object; members that are absent or not booleans
    /// keep their defaults.
    pub fn from_annotations(annotations: Option<&Value>) -> Hints {
        let d = Hints::default();
        let get = |k: &str, default: bool| {
            annotations
                .and_then(|a| a.get(k))
                .and_then(Value::as_bool)
                .unwrap_or(default)
        };
        Hints {
            read_only: get("readOnlyHint", d.read_only),
            destructive: get("destructiveHint", d.destructive),
            idempotent: get("idempotentHint", d.idempotent),
            open_world: get("openWorldHint", d.open_world),
        }
    }

    /// What the hints claim: `read` if read-only, `write` if explicitly non-destructive,
    /// otherwise `execute`. Informational only.
    pub fn category(&self) -> Category {
        if self.read_only {
            Category::Read
        } else if !self.destructive {
            Category::Write
        } else {
            Category::Execute
        }
    }
}

/// Limits of the adapters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AdaptOptions {
    /// Longest server-written description kept (characters; the provenance note is added after).
    pub max_description_chars: usize,
    /// Longest flattened result kept (characters; the marker is added after).
    pub max_result_chars: usize,
    /// Estimated-token cap of a flattened result (at [`CHARS_PER_TOKEN`] characters per token).
    pub max_result_tokens: usize,
}

impl Default for AdaptOptions {
    fn default() -> Self {
        AdaptOptions {
            max_description_chars: 2048,
            max_result_chars: 100_000,
            max_result_tokens: 25_000,
        }
    }
}

/// The token estimate used throughout: one token per four characters, rounded up. Real
/// tokenisers give 3-4.5 characters per token for English and JSON; four is the usual planning
/// figure and errs low for code-heavy text.
pub const CHARS_PER_TOKEN: usize = 4;

/// Estimated tokens of `text` (`ceil(chars / 4)`).
pub fn estimate_tokens(text: &str) -> usize {
    text.chars().count().div_ceil(CHARS_PER_TOKEN)
}

/// One tool, adapted.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AdaptedTool {
    /// The namespaced name (`mcp__<server>__<tool>`).
    pub name: String,
    /// The server.
    pub server: String,
    /// The tool name as the server sent it.
    pub tool: String,
    /// The server's `title`, when sent.
    pub title: Option<String>,
    /// The description for the LLM: truncated, then the provenance note.
    pub description: String,
    /// The input schema (an object).
    pub input_schema: Value,
    /// The output schema, when sent.
    pub output_schema: Option<Value>,
    /// The category to act on: the user's per-server category, else `execute`.
    pub category: Category,
    /// What the (untrusted) hints claim.
    pub hinted_category: Category,
    /// The hints with spec defaults applied.
    pub hints: Hints,
    /// Whether the user's configuration approves it in advance (`autoApprove`); hints and
    /// categories never do.
    pub auto_approve: bool,
    /// The tool object as the server sent it.
    pub original: Value,
    /// Its MCP Apps metadata: the `ui://` view and who may see it. Model-facing exports leave
    /// out tools whose visibility lacks `model` (ext-apps "Visibility").
    #[serde(skip)]
    pub ui: crate::proto::apps::ToolUi,
}

/// The one-line provenance note appended to every description.
pub fn provenance_note(server: &str) -> String {
    format!("(Provided by the external MCP server \"{server}\"; not sandboxed.)")
}

/// Keeps at most `max` characters of `text` (never splitting a character); when it cuts,
/// appends `marker(kept, total)`. Returns the text and whether it was cut.
pub fn truncate_chars(
    text: &str,
    max: usize,
    marker: impl Fn(usize, usize) -> String,
) -> (String, bool) {
    match text.char_indices().nth(max) {
        None => (text.to_string(), false),
        Some((cut, _)) => {
            let total = text.chars().count();
            let mut out = text[..cut].to_string();
            out.push_str(&marker(max, total));
            (out, true)
        }
    }
}

/// Adapts one tool object from `tools/list` (MCP 2026-07-28 `server/tools` "Tool").
///
/// `name` is the namespaced name ([`super::naming::NameMap`]); `category` the user's per-server
/// override. A missing `inputSchema` becomes `{"type":"object"}`; one that is not an object fails
/// this tool only.
pub fn adapt_tool(
    server: &str,
    name: &str,
    tool: &Value,
    category: Option<Category>,
    opts: &AdaptOptions,
) -> Result<AdaptedTool, ToolError> {
    let raw_name = tool.get("name").and_then(Value::as_str);
    let invalid = |reason: &str| ToolError::InvalidTool {
        server: server.to_string(),
        tool: raw_name.unwrap_or("?").to_string(),
        reason: reason.to_string(),
    };
    if !tool.is_object() {
        return Err(invalid("not an object"));
    }
    let tool_name = raw_name.ok_or_else(|| invalid("no string \"name\""))?;
    let input_schema = match tool.get("inputSchema") {
        None | Some(Value::Null) => json!({"type": "object"}),
        Some(s @ Value::Object(_)) => s.clone(),
        Some(_) => return Err(invalid("\"inputSchema\" is not an object")),
    };
    let output_schema = tool.get("outputSchema").filter(|v| v.is_object()).cloned();
    let title = tool
        .get("title")
        .or_else(|| tool.get("annotations").and_then(|a| a.get("title")))
        .and_then(Value::as_str)
        .map(str::to_string);
    let raw_desc = tool
        .get("description")
        .and_then(Value::as_str)
        .or(title.as_deref())
        .unwrap_or("");
    let (mut description, _) = truncate_chars(raw_desc, opts.max_description_chars, |_, total| {
        format!(
            " … [description truncated: {} more characters]",
            total - opts.max_description_chars
        )
    });
    if !description.is_empty() {
        description.push_str("\n\n");
    }
    description.push_str(&provenance_note(server));
    let hints = Hints::from_annotations(tool.get("annotations"));
    let category_used = category.unwrap_or(Category::Execute);
    Ok(AdaptedTool {
        name: name.to_string(),
        server: server.to_string(),
        tool: tool_name.to_string(),
        title,
        description,
        input_schema,
        output_schema,
        category: category_used,
        hinted_category: hints.category(),
        hints,
        auto_approve: false,
        original: tool.clone(),
        ui: crate::proto::apps::ToolUi::of_tool(tool),
    })
}

/// A tool result as an LLM reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FlatResult {
    /// The text (truncated, with its marker when cut).
    pub text: String,
    /// Whether the call failed (`isError`, or an error turned into a result).
    pub is_error: bool,
    /// Whether the text was cut.
    pub truncated: bool,
}

impl FlatResult {
    /// A failure as a result: tool failures go back to the model as `isError` results and are
    /// never thrown into the agent loop (MCP 2026-07-28 `server/tools` "Error Handling": tool
    /// execution errors are reported with `isError: true`, and clients MAY give protocol errors
    /// to the model too — here both arrive the same way).
    pub fn error(message: impl Into<String>) -> FlatResult {
        FlatResult {
            text: message.into(),
            is_error: true,
            truncated: false,
        }
    }

    /// The MCP `CallToolResult` shape: `{"content":[{"type":"text","text":...}],"isError":...}`.
    pub fn to_call_result(&self) -> Value {
        json!({"content": [{"type": "text", "text": self.text}], "isError": self.is_error})
    }
}

/// The decoded size of base64 `data` (RFC 4648 section 4), padding and whitespace ignored.
pub fn base64_decoded_len(data: &str) -> usize {
    let n = data
        .bytes()
        .filter(|b| !b.is_ascii_whitespace() && *b != b'=')
        .count();
    n / 4 * 3 + (n % 4).saturating_sub(1)
}

fn str_of<'a>(v: &'a Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(Value::as_str)
}

/// One content block as text (MCP 2026-07-28 `server/tools` "Tool Result").
fn flatten_block(block: &Value) -> String {
    let mime = |b: &Value| str_of(b, "mimeType").unwrap_or("unknown type").to_string();
    match str_of(block, "type") {
        Some("text") => str_of(block, "text").unwrap_or("").to_string(),
        Some(kind @ ("image" | "audio")) => format!(
            "[{kind}: {}, {} bytes]",
            mime(block),
            base64_decoded_len(str_of(block, "data").unwrap_or(""))
        ),
        Some("resource_link") => {
            let mut s = format!(
                "[resource link: {} <{}>",
                str_of(block, "name")
                    .or_else(|| str_of(block, "title"))
                    .unwrap_or("unnamed"),
                str_of(block, "uri").unwrap_or("")
            );
            if let Some(m) = str_of(block, "mimeType") {
                s.push_str(&format!(", {m}"));
            }
            if let Some(n) = block.get("size").and_then(Value::as_u64) {
                s.push_str(&format!(", {n} bytes"));
            }
            if let Some(d) = str_of(block, "description") {
                s.push_str(&format!(" — {d}"));
            }
            s.push(']');
            s
        }
        Some("resource") => {
            let r = block.get("resource").unwrap_or(&Value::Null);
            let uri = str_of(r, "uri").unwrap_or("");
            match (str_of(r, "text"), str_of(r, "blob")) {
                (Some(text), _) => format!("[embedded resource <{uri}>, {}]\n{text}", mime(r)),
                (None, Some(blob)) => format!(
                    "[embedded resource <{uri}>: {}, {} bytes]",
                    mime(r),
                    base64_decoded_len(blob)
                ),
                (None, None) => format!("[embedded resource <{uri}>]"),
            }
        }
        Some(other) => format!("[unsupported content type \"{other}\"]"),
        None => "[content block without a type]".to_string(),
    }
}

/// Flattens a `CallToolResult` for an LLM: text blocks joined with blank lines, images and audio
/// as `[image: image/png, 1234 bytes]` placeholders, resource links and embedded resources
/// summarised (embedded text kept), and `structuredContent` as compact JSON when no block carried
/// text. Then truncated to `min(max_result_chars, max_result_tokens x 4)` characters with a
/// visible marker.
pub fn flatten_result(result: &Value, opts: &AdaptOptions) -> FlatResult {
    let is_error = result
        .get("isError")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let blocks = result
        .get("content")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    let has_text = blocks
        .iter()
        .any(|b| str_of(b, "type") == Some("text") && !str_of(b, "text").unwrap_or("").is_empty());
    let mut parts: Vec<String> = blocks.iter().map(flatten_block).collect();
    if !has_text {
        if let Some(sc) = result.get("structuredContent") {
            parts.push(crate::util::json::json_text(sc));
        }
    }
    let text = parts.join("\n\n");
    let limit = opts
        .max_result_chars
        .min(opts.max_result_tokens.saturating_mul(CHARS_PER_TOKEN));
    let (text, truncated) = truncate_chars(&text, limit, |kept, total| {
        format!("\n… [result truncated: showing {kept} of {total} characters]")
    });
    FlatResult {
        text,
        is_error,
        truncated,
    }
}
