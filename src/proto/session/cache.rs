//! Result caching for 2026-07-28 cacheable results (MCP 2026-07-28 `server/utilities/caching`):
//! `ttlMs` (absent or negative = 0) and `cacheScope` on discover, list and `resources/read` results.
//! The key is the method plus every result-affecting param (the cursor included; `_meta` excluded).
//! Requests carrying `inputResponses` or `requestState` are never cached.

use crate::util::json::json_text;
use crate::util::vec_map::VecMap;
use serde_json::{Map, Value};

/// Methods whose results may be cached.
pub const CACHEABLE: [&str; 6] = [
    "server/discover",
    "tools/list",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
    "resources/read",
];

/// Most entries kept; the entry closest to expiry is evicted first.
const MAX_ENTRIES: usize = 512;

/// Most bytes (of the results' JSON text) kept in all; a larger result is not cached.
pub const MAX_BYTES: usize = 32 << 20;

#[derive(Debug, Clone)]
struct Entry {
    value: Value,
    expires_at: u64,
    private: bool,
    bytes: usize,
}

/// The cache; time is passed in.
#[derive(Debug, Default)]
pub struct ResultCache {
    entries: VecMap<String, Entry>,
}

/// The cache key of a request, or `None` when it must not be cached.
pub fn key(method: &str, params: &Map<String, Value>) -> Option<String> {
    if !CACHEABLE.contains(&method)
        || params.contains_key("inputResponses")
        || params.contains_key("requestState")
    {
        return None;
    }
    let mut canonical = Map::new();
    let mut names: Vec<&String> = params.keys().filter(|k| *k != "_meta").collect();
    crate::util::order::sort_by_str(&mut names, |k| k);
    for k in names {
        canonical.insert(k.clone(), crate::util::order::sorted_keys(&params[k]));
    }
    Some(format!(
        "{method}\u{0}{}",
        json_text(&Value::Object(canonical))
    ))
}

/// The time-to-live a result grants, in milliseconds (absent or negative = 0).
pub fn ttl_ms(result: &Value) -> u64 {
    match result.get("ttlMs") {
        Some(Value::Number(n)) => n
            .as_u64()
            .or_else(|| n.as_f64().map(|f| f.max(0.0) as u64))
            .unwrap_or(0),
        _ => 0,
    }
}

impl ResultCache {
    /// A fresh entry for `key` at `now`.
    pub fn get(&self, key: &str, now: u64) -> Option<&Value> {
        self.entries
            .get(key)
            .filter(|e| e.expires_at > now)
            .map(|e| &e.value)
    }

    /// Stores `result` under `key` when its `ttlMs` is positive.
    pub fn put(&mut self, key: String, result: &Value, now: u64) {
        let ttl = ttl_ms(result);
        if ttl == 0 {
            self.entries.remove(&key);
            return;
        }
        self.entries.remove(&key);
        self.entries.retain(|_, e| e.expires_at > now);
        let bytes = json_text(result).len();
        if bytes > MAX_BYTES {
            return;
        }
        // Evict the entries closest to expiry until the new one fits both bounds.
        while self.entries.len() >= MAX_ENTRIES || self.bytes() + bytes > MAX_BYTES {
            let Some(k) = self
                .entries
                .iter()
                .min_by_key(|(_, e)| e.expires_at)
                .map(|(k, _)| k.clone())
            else {
                break;
            };
            self.entries.remove(&k);
        }
        let private = result.get("cacheScope").and_then(Value::as_str) != Some("public");
        self.entries.insert(
            key,
            Entry {
                value: result.clone(),
                expires_at: now.saturating_add(ttl),
                private,
                bytes,
            },
        );
    }

    fn bytes(&self) -> usize {
        self.entries.values().map(|e| e.bytes).sum()
    }

    /// Drops every entry of `method` (a list-changed notification invalidates its list).
    pub fn invalidate_method(&mut self, method: &str) {
        let prefix = format!("{method}\u{0}");
        self.entries.retain(|k, _| !k.starts_with(&prefix));
    }

    /// Drops the cached `resources/read` of `uri`.
    pub fn invalidate_resource(&mut self, uri: &str) {
        let mut params = Map::new();
        params.insert("uri".into(), Value::from(uri));
        if let Some(k) = key("resources/read", &params) {
            self.entries.remove(&k);
        }
    }

    /// The live entries as `(key, result, remaining ms, private)`, for a snapshot.
    pub fn export(&self, now: u64) -> Vec<(String, Value, u64, bool)> {
        let mut out: Vec<_> = self
            .entries
            .iter()
            .filter(|(_, e)| e.expires_at > now)
            .map(|(k, e)| (k.clone(), e.value.clone(), e.expires_at - now, e.private))
            .collect();
        crate::util::order::sort_by_str(&mut out, |e| &e.0);
        out
    }

    /// Re-creates entries from [`ResultCache::export`] at `now`.
    pub fn import(&mut self, entries: Vec<(String, Value, u64, bool)>, now: u64) {
        let mut total = self.bytes();
        for (key, value, remaining, private) in entries.into_iter().take(MAX_ENTRIES) {
            let bytes = json_text(&value).len();
            if total + bytes > MAX_BYTES {
                continue;
            }
            total += bytes;
            let expires_at = now.saturating_add(remaining);
            self.entries.insert(
                key,
                Entry {
                    value,
                    expires_at,
                    private,
                    bytes,
                },
            );
        }
    }

    /// Drops private entries: the authorization context changed, and "private" results MUST NOT
    /// be shared across authorization contexts.
    pub fn drop_private(&mut self) {
        self.entries.retain(|_, e| !e.private);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_cache_stays_within_its_byte_bound_evicting_the_soonest_expiring() {
        let mut c = ResultCache::default();
        let big = "x".repeat(MAX_BYTES / 3);
        for (i, ttl) in [(0, 1000), (1, 5000), (2, 3000), (3, 9000)] {
            c.put(format!("k{i}"), &json!({"ttlMs": ttl, "blob": big}), 0);
        }
        assert!(c.bytes() <= MAX_BYTES);
        assert!(
            c.get("k0", 1).is_none(),
            "the soonest-expiring entry went first"
        );
        assert!(c.get("k3", 1).is_some());
        let huge = "y".repeat(MAX_BYTES + 1);
        c.put("huge".into(), &json!({"ttlMs": 1000, "blob": huge}), 0);
        assert!(
            c.get("huge", 1).is_none(),
            "a result larger than the bound is not cached"
        );
    }
}
