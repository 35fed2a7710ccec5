//! Tool search over a pool's catalog: a BM25 index of every server's tools, kept up to date one
//! server at a time.
//!
//! An agent with hundreds of tools should not put every definition into every model request (MCP
//! 2026-07-28 `develop/clients/client-best-practices` "Progressive discovery"): it searches the
//! catalog and loads only what the task needs. This index is the search half of that; the export
//! half is [`super::deferral`].
//!
//! # Ranking
//! Okapi BM25 (`k1` 1.2, `b` 0.75) over one weighted bag of terms per tool (BM25F with field
//! weights folded into term frequencies): the tool's name counts 3 times, its title 2, parameter
//! names 1.5, the server's name and the description once, parameter descriptions half. Ties go
//! to (server, tool) order, so the same catalog and query always give the same list.
//!
//! # Terms
//! Identifiers split at `_`, `-`, `.`, `/`, spaces and camelCase humps (`listPullRequests`,
//! `HTTPServer`, `issues.create` and `get-weather` all give their words); letters and digits stay
//! together (`k8s`, `s3`). Words are lower-cased, a few English stop words dropped, and a light
//! suffix stemmer maps `issues`/`issue`, `created`/`creating`/`create` to one term. Queries go
//! through the same steps.
//!
//! # Bounds
//! A query is cut to [`MAX_QUERY_CHARS`] characters and [`MAX_QUERY_TERMS`] distinct terms; a
//! tool's text to [`MAX_DOC_CHARS`] characters per field. Replacing one server's tools touches
//! only that server's entries.
use serde_json::{json, Value};
use std::collections::BTreeMap;

use super::error::ToolError;
use super::export::{export_tool, ExportFormat};
use super::AdaptedTool;

/// Most characters of a query that are read.
pub const MAX_QUERY_CHARS: usize = 1024;
/// Most distinct terms of a query that count.
pub const MAX_QUERY_TERMS: usize = 64;
/// Most characters read from one field of a tool (a description, a parameter's description).
pub const MAX_DOC_CHARS: usize = 8 * 1024;

const K1: f32 = 1.2;
const B: f32 = 0.75;

const W_NAME: f32 = 3.0;
const W_TITLE: f32 = 2.0;
const W_PARAM_NAME: f32 = 1.5;
const W_SERVER: f32 = 1.0;
const W_DESCRIPTION: f32 = 1.0;
const W_PARAM_DESCRIPTION: f32 = 0.5;

const STOP_WORDS: [&str; 32] = [
    "a", "an", "and", "any", "are", "as", "at", "be", "by", "can", "do", "for", "from", "i", "in",
    "is", "it", "its", "me", "my", "of", "on", "or", "that", "the", "this", "to", "use", "was",
    "we", "with", "you",
];

/// One ranked tool.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    /// The server.
    pub server: String,
    /// The tool name as the server sent it.
    pub tool: String,
    /// The BM25 score (higher is better; only comparable within one query).
    pub score: f32,
}

#[derive(Debug, Clone)]
struct Doc {
    server: String,
    tool: String,
    /// Weighted length (the sum of its terms' weighted frequencies).
    len: f32,
    /// Its distinct terms, to take its postings out again.
    terms: Vec<String>,
}

/// The index (see the module docs).
#[derive(Debug, Clone, Default)]
pub struct SearchIndex {
    /// Slots; `None` is free.
    docs: Vec<Option<Doc>>,
    free: Vec<u32>,
    by_server: BTreeMap<String, Vec<u32>>,
    /// term -> (doc, weighted term frequency).
    postings: BTreeMap<String, Vec<(u32, f32)>>,
    live: usize,
    total_len: f64,
}

impl SearchIndex {
    /// An empty index.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many tools are indexed.
    pub fn len(&self) -> usize {
        self.live
    }

    /// Whether no tool is indexed.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// Replaces `server`'s tools with `tools` (MCP `Tool` objects as the server sent them; ones
    /// without a string `name` are skipped).
    pub fn set_server<'a>(&mut self, server: &str, tools: impl IntoIterator<Item = &'a Value>) {
        self.remove_server(server);
        let mut ids = Vec::new();
        for tool in tools {
            let Some(name) = tool.get("name").and_then(Value::as_str) else {
                continue;
            };
            let bag = bag_of_terms(server, name, tool);
            let len: f32 = bag.values().sum();
            let id = match self.free.pop() {
                Some(id) => id,
                None => {
                    self.docs.push(None);
                    (self.docs.len() - 1) as u32
                }
            };
            for (term, tf) in &bag {
                self.postings
                    .entry(term.clone())
                    .or_default()
                    .push((id, *tf));
            }
            self.docs[id as usize] = Some(Doc {
                server: server.to_string(),
                tool: name.to_string(),
                len,
                terms: bag.into_keys().collect(),
            });
            self.live += 1;
            self.total_len += f64::from(len);
            ids.push(id);
        }
        if !ids.is_empty() {
            self.by_server.insert(server.to_string(), ids);
        }
    }

    /// Takes `server`'s tools out.
    pub fn remove_server(&mut self, server: &str) {
        let Some(ids) = self.by_server.remove(server) else {
            return;
        };
        for id in ids {
            let Some(doc) = self.docs.get_mut(id as usize).and_then(Option::take) else {
                continue;
            };
            for term in &doc.terms {
                if let Some(p) = self.postings.get_mut(term) {
                    p.retain(|(d, _)| *d != id);
                    if p.is_empty() {
                        self.postings.remove(term);
                    }
                }
            }
            self.live -= 1;
            self.total_len -= f64::from(doc.len);
            self.free.push(id);
        }
        if self.live == 0 {
            self.total_len = 0.0;
        }
    }

    /// Every tool that shares a term with `query`, best first (ties by server, then tool), for
    /// which `keep(server, tool)` holds.
    pub fn search(&self, query: &str, keep: impl Fn(&str, &str) -> bool) -> Vec<Scored> {
        let mut terms: Vec<String> = Vec::new();
        let cut: String = query.chars().take(MAX_QUERY_CHARS).collect();
        for_each_term(&cut, |t| {
            if !terms.contains(&t) && terms.len() < MAX_QUERY_TERMS {
                terms.push(t);
            }
        });
        if terms.is_empty() || self.live == 0 {
            return Vec::new();
        }
        let n = self.live as f32;
        let avg = (self.total_len / self.live as f64) as f32;
        let mut scores: Vec<f32> = vec![0.0; self.docs.len()];
        for term in &terms {
            let Some(postings) = self.postings.get(term) else {
                continue;
            };
            let df = postings.len() as f32;
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            for &(id, tf) in postings {
                let Some(doc) = self.docs.get(id as usize).and_then(Option::as_ref) else {
                    continue;
                };
                let norm = K1 * (1.0 - B + B * doc.len / avg.max(f32::EPSILON));
                scores[id as usize] += idf * tf * (K1 + 1.0) / (tf + norm);
            }
        }
        let mut hits: Vec<Scored> = scores
            .iter()
            .enumerate()
            .filter(|(_, s)| **s > 0.0)
            .filter_map(|(id, s)| {
                let doc = self.docs.get(id)?.as_ref()?;
                keep(&doc.server, &doc.tool).then(|| Scored {
                    server: doc.server.clone(),
                    tool: doc.tool.clone(),
                    score: *s,
                })
            })
            .collect();
        hits.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then_with(|| (&a.server, &a.tool).cmp(&(&b.server, &b.tool)))
        });
        hits
    }
}

/// A tool's weighted terms.
fn bag_of_terms(server: &str, name: &str, tool: &Value) -> BTreeMap<String, f32> {
    let mut bag = BTreeMap::new();
    let mut add = |text: &str, weight: f32| {
        let text: String = text.chars().take(MAX_DOC_CHARS).collect();
        for_each_term(&text, |t| *bag.entry(t).or_insert(0.0) += weight);
    };
    add(name, W_NAME);
    add(server, W_SERVER);
    let text = |key: &str| tool.get(key).and_then(Value::as_str);
    if let Some(title) = text("title") {
        add(title, W_TITLE);
    }
    if let Some(description) = text("description") {
        add(description, W_DESCRIPTION);
    }
    let properties = tool
        .get("inputSchema")
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object);
    for (param, schema) in properties.into_iter().flatten() {
        add(param, W_PARAM_NAME);
        if let Some(d) = schema.get("description").and_then(Value::as_str) {
            add(d, W_PARAM_DESCRIPTION);
        }
    }
    bag
}

/// Calls `f` with each search term of `text` (see the module docs).
pub fn for_each_term(text: &str, mut f: impl FnMut(String)) {
    for word in text.split(|c: char| !c.is_alphanumeric()) {
        for part in humps(word) {
            let lower = part.to_lowercase();
            if lower.chars().count() < 2 || STOP_WORDS.contains(&lower.as_str()) {
                continue;
            }
            f(stem(&lower));
        }
    }
}

/// Splits a camelCase word at its humps: `listPullRequests` -> list, Pull, Requests;
/// `HTTPServer` -> HTTP, Server; `k8s` stays whole.
fn humps(word: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = word.char_indices().collect();
    let mut parts = Vec::new();
    let mut start = 0;
    for i in 1..chars.len() {
        let (at, c) = chars[i];
        let prev = chars[i - 1].1;
        let next_lower = chars.get(i + 1).is_some_and(|(_, n)| n.is_lowercase());
        let boundary = c.is_uppercase()
            && (prev.is_lowercase() || prev.is_numeric() || (prev.is_uppercase() && next_lower));
        if boundary {
            parts.push(&word[start..at]);
            start = at;
        }
    }
    if start < word.len() {
        parts.push(&word[start..]);
    }
    parts
}

/// A light English suffix stemmer: plurals, `-ment`, the `-ion` of `-tion`, `-ed`, `-ing` and a
/// final `e` go, so `creates`, `created`, `creating`, `creation` and `create` meet at `creat`,
/// `deployments` and `deploy` at `deploy`. Applied to documents and queries alike.
fn stem(word: &str) -> String {
    let n = word.len();
    let mut w = if n > 4 && word.ends_with("ies") {
        format!("{}y", &word[..n - 3])
    } else if word.ends_with("sses") {
        word[..n - 2].to_string()
    } else if n > 3
        && word.ends_with('s')
        && !word.ends_with("ss")
        && !word.ends_with("us")
        && !word.ends_with("is")
    {
        word[..n - 1].to_string()
    } else {
        word.to_string()
    };
    let m = w.len();
    if m > 6 && w.ends_with("ment") {
        w.truncate(m - 4);
    } else if m > 5 && (w.ends_with("tion") || w.ends_with("ing")) {
        // `-tion` keeps its `t` (`creation` -> `creat`); `-ing` goes whole.
        w.truncate(m - 3);
    } else if m > 4 && w.ends_with("ed") && !w.ends_with("eed") {
        w.truncate(m - 2);
    }
    if w.len() > 4 && w.ends_with('e') {
        w.pop();
    }
    w
}

/// Results of a search when the caller names no `limit`.
pub const DEFAULT_LIMIT: usize = 5;
/// Most results one search returns.
pub const MAX_LIMIT: usize = 50;

/// What a search asks for.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchOptions {
    /// Most results (1 ..= [`MAX_LIMIT`], default [`DEFAULT_LIMIT`]).
    pub limit: usize,
    /// Only these servers' tools, when given.
    pub servers: Option<Vec<String>>,
    /// The shape of each result's `definition`.
    pub format: ExportFormat,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            limit: DEFAULT_LIMIT,
            servers: None,
            format: ExportFormat::Mcp,
        }
    }
}

impl SearchOptions {
    /// Reads `{"limit"?, "servers"?, "format"?}` (the JS options object and the component's
    /// `options-json` alike). `null` gives the defaults.
    pub fn from_json(v: &Value) -> Result<SearchOptions, ToolError> {
        let bad = |m: &str| ToolError::InvalidArgument(m.to_string());
        let mut o = SearchOptions::default();
        let Some(m) = v.as_object() else {
            return if v.is_null() {
                Ok(o)
            } else {
                Err(bad("search options must be an object"))
            };
        };
        match m.get("limit") {
            None | Some(Value::Null) => {}
            Some(l) => {
                o.limit = l
                    .as_u64()
                    .filter(|n| (1..=MAX_LIMIT as u64).contains(n))
                    .ok_or_else(|| bad("limit must be an integer from 1 to 50"))?
                    as usize;
            }
        }
        match m.get("servers") {
            None | Some(Value::Null) => {}
            Some(Value::Array(a)) => {
                o.servers = Some(
                    a.iter()
                        .map(|s| s.as_str().map(str::to_string))
                        .collect::<Option<_>>()
                        .ok_or_else(|| bad("servers must be server names"))?,
                );
            }
            Some(_) => return Err(bad("servers must be an array of server names")),
        }
        match m.get("format") {
            None | Some(Value::Null) => {}
            Some(f) => {
                o.format = f.as_str().and_then(ExportFormat::parse).ok_or_else(|| {
                    bad("format must be openai, openai-responses, anthropic or mcp")
                })?;
            }
        }
        Ok(o)
    }
}

/// One search result as hosts receive it: `{name, server, tool, score, definition}`, the
/// definition in the requested format and the score rounded to 4 decimals.
pub fn hit_json(tool: &AdaptedTool, score: f32, format: ExportFormat) -> Value {
    json!({
        "name": tool.name,
        "server": tool.server,
        "tool": tool.tool,
        "score": (f64::from(score) * 10_000.0).round() / 10_000.0,
        "definition": export_tool(tool, format),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn terms(text: &str) -> Vec<String> {
        let mut v = Vec::new();
        for_each_term(text, |t| v.push(t));
        v
    }

    #[test]
    fn identifiers_split_in_every_convention() {
        assert_eq!(terms("listPullRequests"), ["list", "pull", "request"]);
        assert_eq!(terms("create_issue"), ["creat", "issu"]);
        assert_eq!(terms("issues.create"), ["issu", "creat"]);
        assert_eq!(terms("get-weather"), ["get", "weather"]);
        assert_eq!(terms("HTTPServer k8s"), ["http", "server", "k8s"]);
        assert_eq!(terms("the pods of a deployment"), ["pod", "deploy"]);
    }

    #[test]
    fn inflections_meet() {
        for w in ["create", "creates", "created", "creating"] {
            assert_eq!(terms(w), ["creat"], "{w}");
        }
        assert_eq!(terms("policies"), terms("policy"));
        assert_eq!(terms("status"), ["status"]);
        assert_eq!(terms("messages"), terms("message"));
        assert_eq!(terms("deployments"), terms("deploy"));
        assert_eq!(terms("deletion"), terms("delete"));
    }

    fn tool(name: &str, description: &str, params: &[(&str, &str)]) -> Value {
        let props: serde_json::Map<String, Value> = params
            .iter()
            .map(|(p, d)| (p.to_string(), json!({"type": "string", "description": d})))
            .collect();
        json!({"name": name, "description": description,
               "inputSchema": {"type": "object", "properties": props}})
    }

    fn index() -> SearchIndex {
        let mut ix = SearchIndex::new();
        let gh = [
            tool(
                "create_issue",
                "Opens a new issue in a repository.",
                &[("title", "Issue title")],
            ),
            tool(
                "list_pull_requests",
                "Lists pull requests of a repository.",
                &[],
            ),
            tool(
                "search_code",
                "Searches code across repositories.",
                &[("query", "")],
            ),
        ];
        let chat = [
            tool(
                "postMessage",
                "Sends a message to a channel.",
                &[("channel", "Channel id"), ("text", "Message text")],
            ),
            tool("searchMessages", "Searches messages in the workspace.", &[]),
        ];
        ix.set_server("github", gh.iter());
        ix.set_server("chat", chat.iter());
        ix
    }

    fn top(ix: &SearchIndex, q: &str) -> Vec<(String, String)> {
        ix.search(q, |_, _| true)
            .into_iter()
            .map(|h| (h.server, h.tool))
            .collect()
    }

    #[test]
    fn ranks_the_tool_whose_words_match_best_first() {
        let ix = index();
        assert_eq!(
            top(&ix, "open a new issue")[0],
            ("github".into(), "create_issue".into())
        );
        assert_eq!(
            top(&ix, "send a chat message to a channel")[0],
            ("chat".into(), "postMessage".into())
        );
        assert_eq!(
            top(&ix, "pull requests")[0],
            ("github".into(), "list_pull_requests".into())
        );
        assert!(top(&ix, "weather forecast").is_empty());
        assert!(top(&ix, "the of a").is_empty());
    }

    #[test]
    fn replacing_a_server_updates_only_its_entries() {
        let mut ix = index();
        assert_eq!(ix.len(), 5);
        ix.set_server(
            "chat",
            [tool("archiveChannel", "Archives a channel.", &[])].iter(),
        );
        assert_eq!(ix.len(), 4);
        assert!(top(&ix, "search messages").iter().all(|(s, _)| s != "chat"));
        assert_eq!(top(&ix, "archive")[0].1, "archiveChannel");
        ix.remove_server("github");
        assert_eq!(ix.len(), 1);
        assert!(top(&ix, "issue").is_empty());
        // Freed slots are reused, and the statistics follow.
        ix.set_server(
            "github",
            [tool("create_issue", "Opens an issue.", &[])].iter(),
        );
        assert_eq!(ix.docs.len(), 5);
        assert_eq!(top(&ix, "issue")[0].1, "create_issue");
    }

    #[test]
    fn keep_filters_and_ties_are_ordered() {
        let ix = index();
        let only_chat = ix.search("search", |s, _| s == "chat");
        assert_eq!(only_chat.len(), 1);
        assert_eq!(only_chat[0].tool, "searchMessages");
        let mut ix = SearchIndex::new();
        ix.set_server("b", [tool("same", "Same text.", &[])].iter());
        ix.set_server("a", [tool("same", "Same text.", &[])].iter());
        let hits = ix.search("same", |_, _| true);
        assert_eq!(hits[0].server, "a");
        assert_eq!(hits[0].score, hits[1].score);
    }

    #[test]
    fn options_are_checked() {
        let o =
            SearchOptions::from_json(&json!({"limit": 3, "servers": ["a"], "format": "anthropic"}))
                .unwrap();
        assert_eq!((o.limit, o.format), (3, ExportFormat::Anthropic));
        assert_eq!(o.servers, Some(vec!["a".to_string()]));
        assert_eq!(
            SearchOptions::from_json(&Value::Null).unwrap(),
            SearchOptions::default()
        );
        for bad in [
            json!({"limit": 0}),
            json!({"limit": 51}),
            json!({"limit": 2.5}),
            json!({"servers": "a"}),
            json!({"servers": [1]}),
            json!({"format": "gemini"}),
            json!([]),
        ] {
            let e = SearchOptions::from_json(&bad).unwrap_err();
            assert_eq!(e.code(), "INVALID_ARGUMENT", "{bad}");
        }
    }

    #[test]
    fn long_queries_are_bounded() {
        let ix = index();
        let q = "issue ".repeat(10_000);
        assert_eq!(top(&ix, &q)[0].1, "create_issue");
        let many: String = (0..500).map(|i| format!("w{i} ")).collect::<String>() + " issue";
        // The real term is past the first 64 distinct terms: it does not count.
        assert!(top(&ix, &many).is_empty());
    }
}
