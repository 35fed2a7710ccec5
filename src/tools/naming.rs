//! `mcp__<server>__<tool>` names that every LLM API accepts, with a reverse map.
//!
//! LLM tool names must match `^[a-zA-Z0-9_-]{1,64}$` (OpenAI function names; Anthropic tool
//! names). MCP tool names may be up to 128 characters and may contain `.` (MCP 2026-07-28
//! `server/tools` "Tool Names"), and tool names are unique only within a server, so aggregating
//! clients "SHOULD implement a disambiguation strategy such as prefixing tool names with a server
//! identifier" (same section). The rules here:
//!
//! 1. each part (server, tool) is normalised: every character outside `[A-Za-z0-9_-]` becomes
//!    `_`, runs of `_` collapse to one, leading/trailing `_` are trimmed; a part left empty (only
//!    symbols, or non-ASCII) becomes `x` + 8 hex digits of its FNV-1a hash. A part therefore never
//!    contains `__`, so a server named `my__server` cannot fake a separator;
//! 2. a name longer than 64 characters keeps at most 20 characters of the server part and as much
//!    of the tool part as fits before a `_` + 8-hex-digit FNV-1a hash of the *original*
//!    server and tool names;
//! 3. collisions are resolved over the whole set, sorted, so the result does not depend on the
//!    order servers or tools were added: among pairs with the same name, a pair whose parts came
//!    through unchanged keeps the plain name (then the smallest by server, tool), and every other
//!    gets a hash suffix;
//! 4. routing uses the reverse map, never parses a name.
use std::collections::{BTreeMap, BTreeSet};

use crate::util::hash::fnv1a32;

/// The longest name LLM APIs accept.
pub const MAX_NAME_LEN: usize = 64;
/// The prefix of every name.
pub const PREFIX: &str = "mcp";
/// Salted hash suffixes tried for one colliding pair before a counter suffix.
const MAX_SALTS: u32 = 8;
/// The longest server part kept when a name must be shortened.
pub const MAX_SERVER_PART_WHEN_SHORTENED: usize = 20;

/// Normalises one part (rule 1 of the module docs).
pub fn normalize_part(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for c in raw.chars() {
        let c = if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
            c
        } else {
            '_'
        };
        if c == '_' && out.ends_with('_') {
            continue;
        }
        out.push(c);
    }
    let trimmed = out.trim_matches('_');
    if trimmed.is_empty() {
        format!("x{:08x}", fnv1a32(raw.as_bytes()))
    } else {
        trimmed.to_string()
    }
}

fn pair_hash(server: &str, tool: &str, salt: u32) -> String {
    let mut bytes = Vec::with_capacity(server.len() + tool.len() + 8);
    bytes.extend_from_slice(server.as_bytes());
    bytes.push(0);
    bytes.extend_from_slice(tool.as_bytes());
    if salt > 0 {
        bytes.push(0);
        bytes.extend_from_slice(&salt.to_le_bytes());
    }
    format!("{:08x}", fnv1a32(&bytes))
}

fn cut(s: &str, max: usize) -> &str {
    // Parts are ASCII after normalisation, so any byte index is a char boundary.
    let s = &s[..s.len().min(max)];
    s.trim_end_matches('_')
}

/// The name of one pair before collision handling, and whether it is lossless (parts unchanged
/// and not shortened).
pub fn base_name(server: &str, tool: &str) -> (String, bool) {
    let s = normalize_part(server);
    let t = normalize_part(tool);
    let lossless = s == server && t == tool;
    let full = format!("{PREFIX}__{s}__{t}");
    if full.len() <= MAX_NAME_LEN {
        return (full, lossless);
    }
    let s = cut(&s, MAX_SERVER_PART_WHEN_SHORTENED);
    let hash = pair_hash(server, tool, 0);
    // "mcp__" + s + "__" + t + "_" + hash
    let budget = MAX_NAME_LEN - PREFIX.len() - 4 - s.len() - 1 - hash.len();
    let t = cut(&t, budget);
    let name = if t.is_empty() {
        format!("{PREFIX}__{s}__{hash}")
    } else {
        format!("{PREFIX}__{s}__{t}_{hash}")
    };
    (name, false)
}

fn with_suffix(base: &str, server: &str, tool: &str, salt: u32) -> String {
    let hash = pair_hash(server, tool, salt + 1);
    let keep = MAX_NAME_LEN - 1 - hash.len();
    format!("{}_{hash}", cut(base, keep))
}

/// The names of a set of (server, tool) pairs, both ways.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NameMap {
    by_pair: BTreeMap<(String, String), String>,
    by_name: BTreeMap<String, (String, String)>,
}

impl NameMap {
    /// Names every pair (duplicates collapse). The result depends only on the set of pairs, not
    /// on their order.
    pub fn build<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Self {
        let pairs: BTreeSet<(&str, &str)> = pairs.into_iter().collect();
        // base name -> candidates, ordered: lossless first, then by (server, tool).
        let mut groups: BTreeMap<String, Vec<(bool, &str, &str)>> = BTreeMap::new();
        for &(s, t) in &pairs {
            let (name, lossless) = base_name(s, t);
            groups.entry(name).or_default().push((!lossless, s, t));
        }
        let mut map = NameMap::default();
        let mut losers = Vec::new();
        for (name, mut members) in groups {
            crate::util::order::sort_by(&mut members, Ord::cmp);
            let mut it = members.into_iter();
            if let Some((_, s, t)) = it.next() {
                map.insert(name.clone(), s, t);
            }
            losers.extend(it.map(|(_, s, t)| (name.clone(), s, t)));
        }
        crate::util::order::sort_by(&mut losers, |a, b| (a.1, a.2).cmp(&(b.1, b.2)));
        for (base, s, t) in losers {
            // A few salted hashes; should all be taken (never in practice), a counter suffix:
            // distinct counters give distinct names and only finitely many names are taken, so
            // the second loop ends.
            let name = (0..MAX_SALTS)
                .map(|salt| with_suffix(&base, s, t, salt))
                .find(|c| !map.by_name.contains_key(c))
                .unwrap_or_else(|| {
                    (0u64..)
                        .map(|k| {
                            let k = format!("_{k}");
                            format!("{}{k}", cut(&base, MAX_NAME_LEN - k.len()))
                        })
                        .find(|c| !map.by_name.contains_key(c))
                        .unwrap_or_default()
                });
            map.insert(name, s, t);
        }
        map
    }

    fn insert(&mut self, name: String, server: &str, tool: &str) {
        self.by_pair
            .insert((server.to_string(), tool.to_string()), name.clone());
        self.by_name
            .insert(name, (server.to_string(), tool.to_string()));
    }

    /// The name of `tool` on `server`.
    pub fn name(&self, server: &str, tool: &str) -> Option<&str> {
        self.by_pair
            .get(&(server.to_string(), tool.to_string()))
            .map(String::as_str)
    }

    /// The server and original tool name behind `name`.
    pub fn resolve(&self, name: &str) -> Option<(&str, &str)> {
        self.by_name
            .get(name)
            .map(|(s, t)| (s.as_str(), t.as_str()))
    }

    /// Every (name, server, tool), sorted by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str, &str)> {
        self.by_name
            .iter()
            .map(|(n, (s, t))| (n.as_str(), s.as_str(), t.as_str()))
    }

    /// How many names.
    pub fn len(&self) -> usize {
        self.by_name.len()
    }

    /// Whether there are no names.
    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }
}
