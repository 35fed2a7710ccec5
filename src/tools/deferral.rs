//! Deferred tool loading: which definitions a model request carries once a catalog is too big to
//! send whole, and the search tools that load the rest on demand.
//!
//! MCP 2026-07-28 `develop/clients/client-best-practices` ("Progressive Tool Discovery"): below a
//! threshold set as a share of the context window ("for example, 1%-5%") every definition is
//! sent; above it the model gets a search tool and loads definitions as it needs them. "Interaction
//! with Prompt Caching": a `tools` array that never changes keeps the cache, so the meta-tool pair
//! ([`SEARCH_TOOL`], [`CALL_TOOL`]) has fixed definitions, and every array here is in a stable
//! order (search tool first, then tools by (server, tool)).
//!
//! Three shapes, by format and [`DeferStyle`]:
//! - **Anthropic, native**: every tool, the deferred ones with `"defer_loading": true`, after a
//!   client-side `search_tools` tool whose answer is `tool_reference` blocks
//!   ([`search_answer`]); the API loads a referenced definition where the reference appears.
//! - **OpenAI Responses, native**: a `{"type": "tool_search", "execution": "client"}` tool and
//!   every function, the deferred ones with `"defer_loading": true`; the answer is a
//!   `tool_search_output` item carrying the found definitions.
//! - **Meta (any model, and OpenAI Chat Completions and MCP always)**: only the always-loaded tools
//!   and the pair `search_tools` / `call_tool`; the search answer is text with the found tools'
//!   schemas, and `call_tool({name, arguments})` runs one.
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

use super::adapt::{estimate_tokens, AdaptedTool};
use super::error::ToolError;
use super::export::{export_tool, ExportFormat};
use super::search::{SearchOptions, MAX_LIMIT};

/// The search meta-tool's name (never a server tool's: those all start with `mcp__`).
pub const SEARCH_TOOL: &str = "search_tools";
/// The call meta-tool's name.
pub const CALL_TOOL: &str = "call_tool";

const SEARCH_DESCRIPTION: &str = "Search the catalog of available tools by what you need to do. \
Returns the best matching tools with their input schemas. Search again with other words when \
nothing fits.";
const CALL_DESCRIPTION: &str = "Call a tool found with search_tools: give its exact name and \
its arguments as an object matching its input schema.";

/// When definitions are deferred.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeferMode {
    /// Once the definitions' estimated tokens exceed the threshold.
    Auto,
    /// Always (except the always-loaded tools).
    Always,
    /// Never: every definition in every request.
    Never,
}

/// How deferred tools are offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeferStyle {
    /// The model vendor's own mechanism where the format has one (Anthropic, OpenAI Responses);
    /// the meta-tool pair elsewhere.
    Native,
    /// The meta-tool pair in every format.
    Meta,
}

/// The host's tool-search settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolSearchConfig {
    /// When to defer (default `Auto`).
    pub mode: DeferMode,
    /// The model's context window in tokens (default 200,000).
    pub context_tokens: usize,
    /// The share of it the definitions may take before they are deferred, in percent
    /// (1 ..= 100, default 5: the top of the best-practice text's 1%-5%).
    pub share_percent: u8,
    /// Tools (namespaced names) sent in full even when the rest is deferred.
    pub always_loaded: BTreeSet<String>,
    /// How deferred tools are offered (default `Native`).
    pub style: DeferStyle,
}

impl Default for ToolSearchConfig {
    fn default() -> Self {
        ToolSearchConfig {
            mode: DeferMode::Auto,
            context_tokens: 200_000,
            share_percent: 5,
            always_loaded: BTreeSet::new(),
            style: DeferStyle::Native,
        }
    }
}

impl ToolSearchConfig {
    /// Reads `{"mode"?: "auto"|"always"|"never", "contextTokens"?, "sharePercent"?,
    /// "alwaysLoaded"?: [names], "style"?: "native"|"meta"}`; `null` gives the defaults.
    pub fn from_json(v: &Value) -> Result<ToolSearchConfig, ToolError> {
        let bad = |m: &str| ToolError::InvalidArgument(format!("toolSearch: {m}"));
        let mut c = ToolSearchConfig::default();
        let m = match v {
            Value::Null => return Ok(c),
            Value::Object(m) => m,
            _ => return Err(bad("must be an object")),
        };
        for key in m.keys() {
            if ![
                "mode",
                "contextTokens",
                "sharePercent",
                "alwaysLoaded",
                "style",
            ]
            .contains(&key.as_str())
            {
                return Err(bad(&format!("unknown setting {key:?}")));
            }
        }
        let set = |k: &str| m.get(k).filter(|v| !v.is_null());
        if let Some(mode) = set("mode") {
            c.mode = match mode.as_str() {
                Some("auto") => DeferMode::Auto,
                Some("always") => DeferMode::Always,
                Some("never") => DeferMode::Never,
                _ => return Err(bad("mode must be auto, always or never")),
            };
        }
        if let Some(n) = set("contextTokens") {
            c.context_tokens = n
                .as_u64()
                .filter(|n| *n >= 1)
                .ok_or_else(|| bad("contextTokens must be a positive integer"))?
                as usize;
        }
        if let Some(n) = set("sharePercent") {
            c.share_percent = n
                .as_u64()
                .filter(|n| (1..=100).contains(n))
                .ok_or_else(|| bad("sharePercent must be an integer from 1 to 100"))?
                as u8;
        }
        if let Some(a) = set("alwaysLoaded") {
            c.always_loaded = a
                .as_array()
                .and_then(|a| a.iter().map(|s| s.as_str().map(str::to_string)).collect())
                .ok_or_else(|| bad("alwaysLoaded must be an array of tool names"))?;
        }
        if let Some(s) = set("style") {
            c.style = match s.as_str() {
                Some("native") => DeferStyle::Native,
                Some("meta") => DeferStyle::Meta,
                _ => return Err(bad("style must be native or meta")),
            };
        }
        Ok(c)
    }

    /// The token threshold: `context_tokens x share_percent / 100`.
    pub fn threshold_tokens(&self) -> usize {
        self.context_tokens
            .saturating_mul(usize::from(self.share_percent))
            / 100
    }

    /// The shape deferred tools take in `format`.
    fn shape(&self, format: ExportFormat) -> Shape {
        match (self.style, format) {
            (DeferStyle::Native, ExportFormat::Anthropic) => Shape::Anthropic,
            (DeferStyle::Native, ExportFormat::OpenAiResponses) => Shape::OpenAiResponses,
            _ => Shape::Meta,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Anthropic,
    OpenAiResponses,
    Meta,
}

/// The deferral decision for one format, as hosts see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeferralReport {
    /// Whether definitions are deferred now.
    pub deferred: bool,
    /// The estimated tokens of every model-visible definition in the format.
    pub total_tokens: usize,
    /// The threshold ([`ToolSearchConfig::threshold_tokens`]).
    pub threshold_tokens: usize,
    /// The estimate per server.
    pub per_server: BTreeMap<String, usize>,
    /// Tools sent in full.
    pub loaded: usize,
    /// Tools left to search.
    pub deferred_tools: usize,
    /// The estimated tokens of the array [`export`] gives (what a request carries up front; the
    /// native shapes still send deferred definitions, which the API keeps out of the prompt).
    pub upfront_tokens: usize,
}

impl DeferralReport {
    /// `{deferred, totalTokens, thresholdTokens, perServer, loaded, deferredTools,
    /// upfrontTokens}`.
    pub fn to_json(&self) -> Value {
        json!({
            "deferred": self.deferred,
            "totalTokens": self.total_tokens,
            "thresholdTokens": self.threshold_tokens,
            "perServer": self.per_server,
            "loaded": self.loaded,
            "deferredTools": self.deferred_tools,
            "upfrontTokens": self.upfront_tokens,
        })
    }
}

fn tokens_of(v: &Value) -> usize {
    estimate_tokens(&crate::util::json::json_text(v))
}

/// The search tool's input schema.
fn search_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "What the tool should do, in a few words."},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT,
                      "description": "Most tools to return (default 5)."},
        },
        "required": ["query"],
    })
}

/// A meta-tool definition in `format`.
fn meta_tool(name: &str, description: &str, schema: Value, format: ExportFormat) -> Value {
    match format {
        ExportFormat::OpenAi => json!({
            "type": "function",
            "function": {"name": name, "description": description, "parameters": schema},
        }),
        ExportFormat::OpenAiResponses => json!({
            "type": "function", "name": name, "description": description, "parameters": schema,
        }),
        ExportFormat::Anthropic => json!({
            "name": name, "description": description, "input_schema": schema,
        }),
        ExportFormat::Mcp => json!({
            "name": name, "description": description, "inputSchema": schema,
        }),
    }
}

/// The fixed meta-tool pair in `format` (search first).
pub fn meta_tools(format: ExportFormat) -> [Value; 2] {
    let call_schema = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "The tool's exact name, as search_tools gave it."},
            "arguments": {"type": "object", "description": "The tool's arguments."},
        },
        "required": ["name"],
    });
    [
        meta_tool(SEARCH_TOOL, SEARCH_DESCRIPTION, search_schema(), format),
        meta_tool(CALL_TOOL, CALL_DESCRIPTION, call_schema, format),
    ]
}

/// The tool array a request carries, and the report behind it. `tools` are the exported tools
/// (model-visible, not held), sorted by (server, tool).
pub fn export(
    tools: &[&AdaptedTool],
    format: ExportFormat,
    config: &ToolSearchConfig,
) -> (Vec<Value>, DeferralReport) {
    let defs: Vec<Value> = tools.iter().map(|t| export_tool(t, format)).collect();
    let mut per_server: BTreeMap<String, usize> = BTreeMap::new();
    let mut total = 0;
    for (t, d) in tools.iter().zip(&defs) {
        let n = tokens_of(d);
        *per_server.entry(t.server.clone()).or_default() += n;
        total += n;
    }
    let threshold = config.threshold_tokens();
    let deferred = match config.mode {
        DeferMode::Never => false,
        DeferMode::Always => true,
        DeferMode::Auto => total > threshold,
    };
    let mut report = DeferralReport {
        deferred,
        total_tokens: total,
        threshold_tokens: threshold,
        per_server,
        loaded: tools.len(),
        deferred_tools: 0,
        upfront_tokens: total,
    };
    if !deferred {
        return (defs, report);
    }
    let keep = |t: &AdaptedTool| config.always_loaded.contains(&t.name);
    let mut out = Vec::with_capacity(defs.len() + 2);
    let mut loaded = 0;
    match config.shape(format) {
        Shape::Anthropic | Shape::OpenAiResponses => {
            if config.shape(format) == Shape::Anthropic {
                out.push(meta_tool(
                    SEARCH_TOOL,
                    SEARCH_DESCRIPTION,
                    search_schema(),
                    format,
                ));
            } else {
                out.push(json!({
                    "type": "tool_search",
                    "execution": "client",
                    "description": SEARCH_DESCRIPTION,
                    "parameters": search_schema(),
                }));
            }
            let mut upfront = tokens_of(&out[0]);
            for (t, mut d) in tools.iter().zip(defs) {
                if keep(t) {
                    loaded += 1;
                    upfront += tokens_of(&d);
                } else if let Value::Object(m) = &mut d {
                    m.insert("defer_loading".into(), Value::Bool(true));
                }
                out.push(d);
            }
            report.upfront_tokens = upfront;
        }
        Shape::Meta => {
            out.extend(meta_tools(format));
            for (t, d) in tools.iter().zip(defs) {
                if keep(t) {
                    loaded += 1;
                    out.push(d);
                }
            }
            report.upfront_tokens = out.iter().map(tokens_of).sum();
        }
    }
    report.loaded = loaded;
    report.deferred_tools = tools.len() - loaded;
    (out, report)
}

/// Reads the search tool's arguments (`{"query", "limit"?}`; OpenAI's client `tool_search`
/// passes the same object).
pub fn search_arguments(args: &Value) -> Result<(String, SearchOptions), ToolError> {
    let query = args
        .get("query")
        .and_then(Value::as_str)
        .filter(|q| !q.trim().is_empty())
        .ok_or_else(|| {
            ToolError::InvalidArgument(format!("{SEARCH_TOOL}: query must be a non-empty string"))
        })?;
    let mut options = SearchOptions::default();
    if let Some(l) = args.get("limit").filter(|l| !l.is_null()) {
        // A model asking for too many gets the most there are, not an error.
        options.limit = l
            .as_u64()
            .map(|n| (n as usize).clamp(1, MAX_LIMIT))
            .ok_or_else(|| {
                ToolError::InvalidArgument(format!("{SEARCH_TOOL}: limit must be an integer"))
            })?;
    }
    Ok((query.to_string(), options))
}

/// What goes back to the model for a search, in `format`'s native shape when `native`:
/// - Anthropic: the `tool_result` content, `[{"type": "tool_reference", "tool_name"}]`;
/// - OpenAI Responses: the `tool_search_output` item for `call_id` with the definitions;
/// - otherwise an MCP `CallToolResult` whose text lists the tools with their schemas.
pub fn search_answer(
    query: &str,
    hits: &[(&AdaptedTool, f32)],
    format: ExportFormat,
    native: bool,
    call_id: Option<&str>,
) -> Value {
    match (native, format) {
        (true, ExportFormat::Anthropic) => Value::Array(
            hits.iter()
                .map(|(t, _)| json!({"type": "tool_reference", "tool_name": t.name}))
                .collect(),
        ),
        (true, ExportFormat::OpenAiResponses) => json!({
            "type": "tool_search_output",
            "execution": "client",
            "call_id": call_id,
            "status": "completed",
            "tools": hits.iter().map(|(t, _)| export_tool(t, format)).collect::<Vec<_>>(),
        }),
        _ => json!({
            "content": [{"type": "text", "text": search_text(query, hits)}],
            "isError": false,
        }),
    }
}

/// The meta-style search answer's text: how many tools match, then their names, descriptions
/// and input schemas as JSON (what the model needs to call one with [`CALL_TOOL`]).
pub fn search_text(query: &str, hits: &[(&AdaptedTool, f32)]) -> String {
    if hits.is_empty() {
        return format!("No tool matches {query:?}. Try other words.");
    }
    let found: Vec<Value> = hits
        .iter()
        .map(|(t, _)| {
            json!({"name": t.name, "description": t.description, "inputSchema": t.input_schema})
        })
        .collect();
    format!(
        "{} tools match {query:?}; call one with {CALL_TOOL}:\n{}",
        found.len(),
        crate::util::json::json_text(&Value::Array(found))
    )
}
