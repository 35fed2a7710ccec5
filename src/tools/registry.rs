//! The tool registry of a pool: every server's tools, named, adapted, pinned, exported.
//!
//! The registry holds the raw `tools/list` results per server and rebuilds names over the whole
//! set whenever a server's list changes, so names depend only on which tools exist, never on the
//! order servers answered.
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

use crate::util::bounded::{Bounded, Popped};

use super::adapt::{adapt_tool, AdaptOptions, AdaptedTool, AutoApprove, Category};
use super::error::ToolError;
use super::export::{export_tools, token_estimates, ExportFormat};
use super::naming::NameMap;
use super::pinning::{check_pin, tool_fingerprint, MemoryPinStore, PinCheck, PinStore};
use super::search::SearchIndex;

/// What the registry reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
#[non_exhaustive]
pub enum ToolEvent {
    /// A tool's description or schema differs from its pin; it is held back until
    /// [`ToolRegistry::accept`].
    #[serde(rename_all = "camelCase")]
    ToolChanged {
        /// The namespaced name.
        name: String,
        /// The server.
        server: String,
        /// The tool as the server names it.
        tool: String,
        /// The pinned fingerprint.
        pinned: String,
        /// The new fingerprint.
        current: String,
    },
    /// A tool definition was unusable and left out (the rest of the server's tools stay).
    ToolRejected {
        /// The stable code of the error ([`ToolError::code`]: `INVALID_TOOL`).
        code: &'static str,
        /// Why.
        error: String,
        /// The server.
        server: String,
    },
    /// The set of exported tools changed (a server's list changed, joined or left, a change
    /// was accepted).
    ToolsChanged,
    /// `dropped` events were lost here: nobody read the queue while it was full.
    Gap {
        /// How many.
        dropped: u64,
    },
}

impl ToolEvent {
    /// A [`ToolEvent::ToolRejected`] for `server` from the error that left the tool out.
    fn rejected(server: &str, e: &ToolError) -> Self {
        ToolEvent::ToolRejected {
            code: e.code(),
            error: e.to_string(),
            server: server.into(),
        }
    }
}

/// A tool held back by the pinning guard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HeldTool {
    /// The namespaced name.
    pub name: String,
    /// The server.
    pub server: String,
    /// The tool as the server names it.
    pub tool: String,
    /// The pinned fingerprint.
    pub pinned: String,
    /// The new fingerprint.
    pub current: String,
}

#[derive(Debug, Clone, Default)]
struct ServerTools {
    instructions: Option<String>,
    /// Tool name -> the tool adapted under a placeholder name (valid ones only); the raw
    /// object is its `original`.
    tools: BTreeMap<String, AdaptedTool>,
}

/// Every server's tools in one namespace.
#[derive(Debug, Clone)]
pub struct ToolRegistry<S: PinStore = MemoryPinStore> {
    options: AdaptOptions,
    servers: BTreeMap<String, ServerTools>,
    names: NameMap,
    adapted: BTreeMap<String, AdaptedTool>,
    /// (server, tool) -> (pinned, current).
    held: BTreeMap<(String, String), (String, String)>,
    pins: S,
    events: Bounded<ToolEvent>,
    /// Per server: the tools the user approves in advance.
    approvals: BTreeMap<String, AutoApprove>,
    /// The search index over every server's valid tools (held and app-only ones are filtered
    /// out when searching).
    index: SearchIndex,
}

/// Most events kept unpolled; older ones are dropped first.
pub const MAX_QUEUED_EVENTS: usize = 1024;
/// Most bytes (of event text, tool names and reasons from servers) kept unpolled.
pub const MAX_QUEUED_EVENT_BYTES: usize = 1 << 20;

impl Default for ToolRegistry<MemoryPinStore> {
    fn default() -> Self {
        Self::new(AdaptOptions::default(), MemoryPinStore::default())
    }
}

impl<S: PinStore> ToolRegistry<S> {
    /// An empty registry with these limits and this pin store.
    pub fn new(options: AdaptOptions, pins: S) -> Self {
        Self {
            options,
            servers: BTreeMap::new(),
            names: NameMap::default(),
            adapted: BTreeMap::new(),
            held: BTreeMap::new(),
            pins,
            events: Bounded::new(MAX_QUEUED_EVENTS, MAX_QUEUED_EVENT_BYTES),
            approvals: BTreeMap::new(),
            index: SearchIndex::new(),
        }
    }

    fn push(&mut self, e: ToolEvent) {
        let size = match &e {
            ToolEvent::ToolChanged {
                name,
                server,
                tool,
                pinned,
                current,
            } => name.len() + server.len() + tool.len() + pinned.len() + current.len(),
            ToolEvent::ToolRejected { error, server, .. } => error.len() + server.len(),
            ToolEvent::ToolsChanged | ToolEvent::Gap { .. } => 0,
        };
        self.events.push(e, 64 + size);
    }

    /// Replaces `server`'s tools with a `tools/list` result's items. Unusable tools (no name, bad
    /// schema, a repeated name) are reported as [`ToolEvent::ToolRejected`] and left out; changed
    /// tools are held. Returns how many tools the server now exports.
    pub fn set_server_tools(
        &mut self,
        server: &str,
        category: Option<Category>,
        instructions: Option<String>,
        tools: &[Value],
    ) -> usize {
        let mut valid = BTreeMap::new();
        for tool in tools {
            // Validate with a placeholder name; the real name comes after naming.
            match adapt_tool(server, "", tool, category, &self.options) {
                Ok(a) if valid.contains_key(&a.tool) => self.push(ToolEvent::rejected(
                    server,
                    &ToolError::InvalidTool {
                        server: server.into(),
                        tool: a.tool,
                        reason: "the name repeats an earlier tool of this server".into(),
                    },
                )),
                Ok(mut a) => {
                    a.auto_approve = self
                        .approvals
                        .get(server)
                        .is_some_and(|x| x.covers(&a.tool));
                    valid.insert(a.tool.clone(), a);
                }
                Err(e) => self.push(ToolEvent::rejected(server, &e)),
            }
        }
        self.index
            .set_server(server, valid.values().map(|a| &a.original));
        self.servers.insert(
            server.to_string(),
            ServerTools {
                instructions,
                tools: valid,
            },
        );
        let before: BTreeMap<(String, String), (String, String)> = self
            .held
            .iter()
            .filter(|((s, _), _)| s == server)
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        self.held.retain(|(s, _), _| s != server);
        if let Some(st) = self.servers.get(server) {
            for (tool_name, a) in &st.tools {
                if let PinCheck::Changed { pinned, current } =
                    check_pin(&mut self.pins, server, tool_name, &a.original)
                {
                    self.held
                        .insert((server.to_string(), tool_name.clone()), (pinned, current));
                }
            }
        }
        self.rebuild(Some(server));
        // Report each distinct change once, not on every re-listing.
        let changed: Vec<ToolEvent> = self
            .held
            .iter()
            .filter(|(k, v)| k.0 == server && before.get(*k) != Some(*v))
            .map(|((s, t), (pinned, current))| ToolEvent::ToolChanged {
                name: self.names.name(s, t).unwrap_or_default().to_string(),
                server: s.clone(),
                tool: t.clone(),
                pinned: pinned.clone(),
                current: current.clone(),
            })
            .collect();
        for e in changed {
            self.push(e);
        }
        self.push(ToolEvent::ToolsChanged);
        self.adapted.values().filter(|a| a.server == server).count()
    }

    /// Which of `server`'s tools the user approves in advance (applies from its next
    /// [`ToolRegistry::set_server_tools`]).
    pub fn set_auto_approve(&mut self, server: &str, approve: AutoApprove) {
        self.approvals.insert(server.to_string(), approve);
    }

    /// What a host's permission layer reads about each exported tool, sorted by (server, tool):
    /// `{name, server, tool, title, category, hintedCategory, hints, autoApprove, taskSupport}`.
    pub fn tool_info(&self) -> Vec<Value> {
        let mut v: Vec<&AdaptedTool> = self.adapted.values().collect();
        crate::util::order::sort_by(&mut v, |a, b| {
            (&a.server, &a.tool).cmp(&(&b.server, &b.tool))
        });
        v.into_iter().map(super::export::trust_of).collect()
    }

    /// Removes a server's tools (it left, was disabled, or failed).
    pub fn remove_server(&mut self, server: &str) {
        if self.servers.remove(server).is_some() {
            self.index.remove_server(server);
            self.held.retain(|(s, _), _| s != server);
            self.rebuild(Some(server));
            self.push(ToolEvent::ToolsChanged);
        }
    }

    /// Re-names every tool and rebuilds the exported set. Tools of servers other than `changed`
    /// whose name stayed the same are moved over, not adapted again.
    fn rebuild(&mut self, changed: Option<&str>) {
        self.names = NameMap::build(
            self.servers
                .iter()
                .flat_map(|(s, st)| st.tools.keys().map(move |t| (s.as_str(), t.as_str()))),
        );
        let mut old = std::mem::take(&mut self.adapted);
        for (name, s, t) in self.names.iter() {
            if !self.held.is_empty() && self.held.contains_key(&(s.to_string(), t.to_string())) {
                continue;
            }
            let reuse =
                Some(s) != changed && old.get(name).is_some_and(|a| a.server == s && a.tool == t);
            let adapted = if reuse {
                old.remove(name)
            } else {
                self.servers
                    .get(s)
                    .and_then(|st| st.tools.get(t))
                    .map(|proto| {
                        let mut a = proto.clone();
                        a.name = name.to_string();
                        a
                    })
            };
            if let Some(a) = adapted {
                self.adapted.insert(name.to_string(), a);
            }
        }
    }

    /// The exported tools that match `query`, best first, at most `limit`, from `servers` only
    /// when given. Held tools and tools hidden from the model are never found.
    pub fn search(
        &self,
        query: &str,
        limit: usize,
        servers: Option<&[String]>,
    ) -> Vec<(&AdaptedTool, f32)> {
        let exported = |s: &str, t: &str| {
            self.names
                .name(s, t)
                .and_then(|n| self.adapted.get(n))
                .filter(|a| a.ui.visibility.model)
        };
        // The name lookup allocates: it runs on the ranked hits in order, only until `limit`
        // of them are exported, not on every document the query scored.
        self.index
            .search(query, |s, _| {
                servers.is_none_or(|only| only.iter().any(|o| o == s))
            })
            .into_iter()
            .filter_map(|h| Some((exported(&h.server, &h.tool)?, h.score)))
            .take(limit)
            .collect()
    }

    /// The namespaced names of `server`'s tools (held ones included).
    pub fn names_of(&self, server: &str) -> Vec<String> {
        self.names
            .iter()
            .filter(|(_, s, _)| *s == server)
            .map(|(n, _, _)| n.to_string())
            .collect()
    }

    /// The exported tools (model-visible, not held), sorted by (server, tool).
    pub fn exported(&self) -> Vec<&AdaptedTool> {
        super::export::model_visible(self.adapted.values())
    }

    /// Exported tool definitions (held tools excluded), sorted by (server, tool).
    pub fn tools(&self, format: ExportFormat) -> Vec<Value> {
        export_tools(self.adapted.values(), format)
    }

    /// The adapted tool behind a namespaced name (held tools excluded).
    pub fn get(&self, name: &str) -> Option<&AdaptedTool> {
        self.adapted.get(name)
    }

    /// The server and original tool name behind a namespaced name (held tools included).
    pub fn resolve(&self, name: &str) -> Option<(&str, &str)> {
        self.names.resolve(name)
    }

    /// Routes a call from the model: the server and original tool name, or why the tool may not
    /// be called now (`UnknownTool`; `AppOnly` for a tool visible to apps only, which no export
    /// lists; or `ToolChanged` while held).
    pub fn route(&self, name: &str) -> Result<(String, String), ToolError> {
        let (s, t) = self
            .names
            .resolve(name)
            .ok_or_else(|| ToolError::UnknownTool(name.to_string()))?;
        if self
            .adapted
            .get(name)
            .is_some_and(|a| !a.ui.visibility.model)
        {
            return Err(ToolError::AppOnly(name.to_string()));
        }
        if self.held.contains_key(&(s.to_string(), t.to_string())) {
            return Err(ToolError::ToolChanged {
                name: name.to_string(),
            });
        }
        Ok((s.to_string(), t.to_string()))
    }

    /// The tools held back by the pinning guard, sorted by (server, tool).
    pub fn held(&self) -> Vec<HeldTool> {
        self.held
            .iter()
            .map(|((s, t), (pinned, current))| HeldTool {
                name: self.names.name(s, t).unwrap_or_default().to_string(),
                server: s.clone(),
                tool: t.clone(),
                pinned: pinned.clone(),
                current: current.clone(),
            })
            .collect()
    }

    /// Accepts a held tool's new definition: re-pins it and exports it again.
    pub fn accept(&mut self, name: &str) -> Result<(), ToolError> {
        let (s, t) = self
            .names
            .resolve(name)
            .map(|(s, t)| (s.to_string(), t.to_string()))
            .ok_or_else(|| ToolError::UnknownTool(name.to_string()))?;
        if self.held.remove(&(s.clone(), t.clone())).is_none() {
            return Ok(());
        }
        if let Some(a) = self.servers.get(&s).and_then(|st| st.tools.get(&t)) {
            let fp = tool_fingerprint(&a.original);
            self.pins.set(&s, &t, fp);
        }
        self.rebuild(None);
        self.push(ToolEvent::ToolsChanged);
        Ok(())
    }

    /// Estimated tokens of each server's exported definitions in `format`.
    pub fn token_estimates(&self, format: ExportFormat) -> BTreeMap<String, usize> {
        token_estimates(self.adapted.values(), format)
    }

    /// Each server's instructions (servers without instructions omitted), for
    /// [`super::export::InstructionsTracker::update`].
    pub fn instructions(&self) -> BTreeMap<String, String> {
        self.servers
            .iter()
            .filter_map(|(s, st)| {
                st.instructions
                    .as_ref()
                    .filter(|i| !i.trim().is_empty())
                    .map(|i| (s.clone(), i.clone()))
            })
            .collect()
    }

    /// How many tools `server` exports now (held ones excluded).
    pub fn tool_count(&self, server: &str) -> usize {
        self.adapted.values().filter(|a| a.server == server).count()
    }

    /// The servers with a tool list, sorted.
    pub fn servers(&self) -> impl Iterator<Item = &str> {
        self.servers.keys().map(String::as_str)
    }

    /// The pin store (to persist it).
    pub fn pin_store(&self) -> &S {
        &self.pins
    }

    /// The next event, oldest first.
    pub fn poll_event(&mut self) -> Option<ToolEvent> {
        self.events.pop().map(|p| match p {
            Popped::Item(e) => e,
            Popped::Gap(dropped) => ToolEvent::Gap { dropped },
        })
    }
}
