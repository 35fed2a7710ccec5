//! Snapshots: what a session must keep to survive the eviction of its host (a Workers isolate, a
//! hibernated Durable Object) without reconnecting: the era and version, the server's info, the
//! 2025-era session id and last SSE event id, the result cache with the time each entry has left,
//! and what the listed tools declare (`x-mcp-header` designations, idempotent or read-only hints).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{json, Value};

use super::{Era, GetStream, Phase, ProtocolError, ServerInfo, Session, SessionConfig};
use crate::proto::headers::ParamHeader;
use crate::util::order::sort_by_str;
use crate::util::read::{opt_string, string, string_list};

/// Snapshot format version; a snapshot of another version is refused.
pub const SNAPSHOT_VERSION: u32 = 1;

/// A session's durable state. Serialise it with serde or [`SessionSnapshot::to_json`]; both
/// write the same JSON (camelCase members, the era as `"modern"` / `"legacy"`, cache entries as
/// `[key, result, msLeft, private]`, header designations as `[tool, [{name, path, kind}]]`).
#[derive(Debug, Clone, PartialEq)]
pub struct SessionSnapshot {
    /// Format version ([`SNAPSHOT_VERSION`]).
    pub version: u32,
    /// The MCP endpoint the snapshot belongs to.
    pub endpoint: String,
    /// The era, once known.
    pub era: Option<Era>,
    /// The protocol version in use.
    pub protocol_version: String,
    /// The server's info.
    pub server: Option<ServerInfo>,
    /// The 2025-era session id.
    pub session_id: Option<String>,
    /// The 2025-era GET stream's last event id (for `Last-Event-ID` on reconnect).
    pub last_event_id: Option<String>,
    /// Cached results: key, result, milliseconds left, private.
    pub cache: Vec<(String, Value, u64, bool)>,
    /// `Mcp-Param-*` designations per tool.
    pub tool_headers: Vec<(String, Vec<ParamHeader>)>,
    /// Whether the tool list was fetched (so `tools/call` need not list first).
    pub tools_listed: bool,
    /// Tools annotated `idempotentHint` or `readOnlyHint` (their calls may be re-issued after a
    /// broken stream). Absent in older snapshots: then no tool is re-issued until listed again.
    pub repeatable_tools: Vec<String>,
    /// The tasks being polled when the snapshot was taken (the Tasks extension, MCP 2025-11-25
    /// tasks): a restored client resumes them by id, never calling their tools again. Absent in
    /// older snapshots: none.
    pub tasks: Vec<super::TaskInfo>,
}

/// One `[key, result, msLeft, private]` cache entry.
fn cache_entry(v: &Value) -> Option<(String, Value, u64, bool)> {
    match v.as_array()?.as_slice() {
        [k, r, left, private] => Some((
            k.as_str()?.to_string(),
            r.clone(),
            left.as_u64()?,
            private.as_bool()?,
        )),
        _ => None,
    }
}

/// One `[tool, [designation, ...]]` entry.
fn tool_headers(v: &Value) -> Option<(String, Vec<ParamHeader>)> {
    match v.as_array()?.as_slice() {
        [tool, list] => Some((
            tool.as_str()?.to_string(),
            list.as_array()?
                .iter()
                .map(ParamHeader::from_json)
                .collect::<Option<_>>()?,
        )),
        _ => None,
    }
}

impl SessionSnapshot {
    /// As JSON (the format described on the type).
    pub fn to_json(&self) -> Value {
        let cache: Vec<Value> = self
            .cache
            .iter()
            .map(|(k, r, left, private)| json!([k, r, left, private]))
            .collect();
        let headers: Vec<Value> = self
            .tool_headers
            .iter()
            .map(|(tool, list)| {
                let list: Vec<Value> = list.iter().map(ParamHeader::to_json).collect();
                json!([tool, list])
            })
            .collect();
        json!({
            "version": self.version,
            "endpoint": self.endpoint,
            "era": self.era.map(Era::as_str),
            "protocolVersion": self.protocol_version,
            "server": self.server.as_ref().map(ServerInfo::to_json),
            "sessionId": self.session_id,
            "lastEventId": self.last_event_id,
            "cache": cache,
            "toolHeaders": headers,
            "toolsListed": self.tools_listed,
            "repeatableTools": self.repeatable_tools,
            "tasks": self.tasks.iter().map(super::TaskInfo::to_json).collect::<Vec<_>>(),
        })
    }

    /// Reads [`SessionSnapshot::to_json`]'s format; members it does not know are ignored, an
    /// absent `repeatableTools` reads as none. Fails naming the first member that is missing or
    /// mistyped. Written by hand rather than derived: serde's derived readers for these types
    /// cost the web package about 8 KB gzip.
    pub fn from_json(v: &Value) -> Result<Self, String> {
        let member = |k: &'static str| move || format!("member `{k}` is missing or mistyped");
        let server = match v.get("server") {
            None | Some(Value::Null) => None,
            Some(s) => Some(ServerInfo::from_json(s).ok_or_else(member("server"))?),
        };
        let era = match v.get("era") {
            None | Some(Value::Null) => None,
            Some(e) => Some(e.as_str().and_then(Era::parse).ok_or_else(member("era"))?),
        };
        let list = |k: &'static str| v.get(k).and_then(Value::as_array).ok_or_else(member(k));
        Ok(SessionSnapshot {
            version: v
                .get("version")
                .and_then(Value::as_u64)
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(member("version"))?,
            endpoint: string(v, "endpoint").ok_or_else(member("endpoint"))?,
            era,
            protocol_version: string(v, "protocolVersion").ok_or_else(member("protocolVersion"))?,
            server,
            session_id: opt_string(v, "sessionId").ok_or_else(member("sessionId"))?,
            last_event_id: opt_string(v, "lastEventId").ok_or_else(member("lastEventId"))?,
            cache: list("cache")?
                .iter()
                .map(cache_entry)
                .collect::<Option<_>>()
                .ok_or_else(member("cache"))?,
            tool_headers: list("toolHeaders")?
                .iter()
                .map(tool_headers)
                .collect::<Option<_>>()
                .ok_or_else(member("toolHeaders"))?,
            tools_listed: v
                .get("toolsListed")
                .and_then(Value::as_bool)
                .ok_or_else(member("toolsListed"))?,
            repeatable_tools: match v.get("repeatableTools") {
                None => Vec::new(),
                r => string_list(r).ok_or_else(member("repeatableTools"))?,
            },
            tasks: match v.get("tasks") {
                None => Vec::new(),
                Some(t) => t
                    .as_array()
                    .ok_or_else(member("tasks"))?
                    .iter()
                    .map(super::TaskInfo::from_host_json)
                    .collect::<Option<_>>()
                    .ok_or_else(member("tasks"))?,
            },
        })
    }
}

impl Serialize for SessionSnapshot {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

impl<'de> Deserialize<'de> for SessionSnapshot {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Self::from_json(&Value::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

impl Session {
    /// The session's durable state at `now`.
    pub fn snapshot(&self, now: u64) -> SessionSnapshot {
        let mut tool_headers: Vec<_> = self
            .tools
            .iter()
            .filter(|(_, t)| !t.headers.is_empty())
            .map(|(k, t)| (k.clone(), t.headers.clone()))
            .collect();
        sort_by_str(&mut tool_headers, |e| &e.0);
        let mut repeatable_tools: Vec<String> = self
            .tools
            .iter()
            .filter(|(_, t)| t.repeatable)
            .map(|(k, _)| k.clone())
            .collect();
        sort_by_str(&mut repeatable_tools, |t| t);
        SessionSnapshot {
            version: SNAPSHOT_VERSION,
            endpoint: self.cfg.endpoint.clone(),
            era: self.era,
            protocol_version: self.version.clone(),
            server: self.server.clone(),
            session_id: self.session_id.clone(),
            last_event_id: self
                .get_stream
                .as_ref()
                .and_then(|g| g.last_event_id.clone()),
            cache: self.cache.export(now),
            tool_headers,
            tools_listed: self.tools_listed,
            repeatable_tools,
            tasks: self.tasks().into_iter().map(|(_, t)| t).collect(),
        }
    }

    /// A connected session rebuilt from a snapshot, without any request. In the 2025 era the GET
    /// stream (if configured) reopens from the saved `Last-Event-ID`; a session the server has
    /// since ended is re-initialized on its first 404, as usual.
    pub fn restore(
        cfg: SessionConfig,
        snap: SessionSnapshot,
        now: u64,
    ) -> Result<Session, ProtocolError> {
        if snap.version != SNAPSHOT_VERSION {
            return Err(ProtocolError::InvalidConfig(format!(
                "snapshot version {} is not supported (expected {SNAPSHOT_VERSION})",
                snap.version
            )));
        }
        if snap.endpoint != cfg.endpoint {
            return Err(ProtocolError::InvalidConfig(format!(
                "snapshot is of {:?}, not {:?}",
                snap.endpoint, cfg.endpoint
            )));
        }
        let (Some(era), Some(server)) = (snap.era, snap.server) else {
            return Err(ProtocolError::InvalidConfig(
                "snapshot of a session that never connected".into(),
            ));
        };
        let mut s = Session::new(cfg)?;
        s.era = Some(era);
        s.version = snap.protocol_version;
        s.server = Some(server);
        s.session_id = snap.session_id;
        s.cache.import(snap.cache, now);
        for (name, headers) in snap.tool_headers {
            s.tools.entry(name).or_default().headers = headers;
        }
        for name in snap.repeatable_tools {
            s.tools.entry(name).or_default().repeatable = true;
        }
        s.tools_listed = snap.tools_listed;
        s.phase = Phase::Connected;
        s.last_now = now;
        if era == Era::Legacy && s.cfg.open_get_stream {
            s.get_stream = Some(GetStream {
                last_event_id: snap.last_event_id,
                ..GetStream::default()
            });
            s.open_get_stream(now);
        }
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A snapshot as every release since the format's version 1 has written it (camelCase
    /// members, the era in lowercase, cache entries and header designations as arrays).
    const STORED: &str = r#"{
        "version": 1,
        "endpoint": "https://mcp.example.com/mcp",
        "era": "legacy",
        "protocolVersion": "2025-06-18",
        "server": {
            "era": "legacy",
            "protocolVersion": "2025-06-18",
            "serverInfo": {"name": "fixture", "version": "1.0.0"},
            "capabilities": {"tools": {"listChanged": true}},
            "instructions": "Be brief.",
            "supportedVersions": []
        },
        "sessionId": "abc-123",
        "lastEventId": "ev-9",
        "cache": [["tools/list", {"tools": [{"name": "echo"}]}, 5000, false],
                  ["resources/list", {"resources": [], "n": 1.5}, 12, true]],
        "toolHeaders": [["deploy", [
            {"name": "Region", "path": ["target", "region"], "kind": "String"},
            {"name": "Count", "path": ["count"], "kind": "Integer"},
            {"name": "Dry", "path": ["dry"], "kind": "Boolean"}]]],
        "toolsListed": true,
        "repeatableTools": ["echo", "search"],
        "tasks": [{"taskId": "t-9", "shape": "extension", "status": "input_required",
                   "statusMessage": "waiting", "pollIntervalMs": 500, "ttlMs": null,
                   "createdAt": "2026-12-05T10:00:00Z", "lastUpdatedAt": null}]
    }"#;

    #[test]
    fn stored_snapshots_read_back_and_write_the_same_json() {
        let stored: Value = serde_json::from_str(STORED).unwrap();
        let snap: SessionSnapshot = serde_json::from_value(stored.clone()).unwrap();
        assert_eq!(snap.era, Some(Era::Legacy));
        let server = snap.server.clone().unwrap();
        assert_eq!(server.instructions.as_deref(), Some("Be brief."));
        assert_eq!(snap.cache[1].2, 12);
        assert!(snap.cache[1].3);
        assert_eq!(snap.tool_headers[0].1[1].path, vec!["count".to_string()]);
        assert_eq!(snap.repeatable_tools, vec!["echo", "search"]);
        assert_eq!(snap.tasks[0].task_id, "t-9");
        assert_eq!(
            snap.tasks[0].status,
            super::super::TaskStatus::InputRequired
        );
        assert_eq!(serde_json::to_value(&snap).unwrap(), stored);
    }

    #[test]
    fn absent_optional_members_read_as_none() {
        let snap: SessionSnapshot = serde_json::from_value(serde_json::json!({
            "version": 1, "endpoint": "e", "protocolVersion": "", "cache": [],
            "toolHeaders": [], "toolsListed": false, "savedAt": 1.0
        }))
        .unwrap();
        assert_eq!((snap.era, snap.server, snap.session_id), (None, None, None));
        assert!(snap.repeatable_tools.is_empty() && snap.last_event_id.is_none());
    }

    #[test]
    fn mistyped_members_are_refused() {
        let stored: Value = serde_json::from_str(STORED).unwrap();
        for (path, bad) in [
            ("/version", serde_json::json!("1")),
            ("/endpoint", Value::Null),
            ("/era", serde_json::json!("future")),
            ("/server/supportedVersions", serde_json::json!("2026-07-28")),
            ("/server/era", serde_json::json!("Modern")),
            ("/cache/0/2", serde_json::json!(-1)),
            ("/cache/0", serde_json::json!(["k", {}, 1])),
            ("/toolHeaders/0/1/0/kind", serde_json::json!("Float")),
            ("/toolsListed", serde_json::json!(1)),
            ("/sessionId", serde_json::json!(7)),
        ] {
            let mut v = stored.clone();
            *v.pointer_mut(path).unwrap() = bad;
            assert!(
                serde_json::from_value::<SessionSnapshot>(v).is_err(),
                "{path} accepted"
            );
        }
        for required in [
            "/version",
            "/endpoint",
            "/protocolVersion",
            "/cache",
            "/toolsListed",
            "/toolHeaders",
            "/server/capabilities",
            "/server/supportedVersions",
            "/server/protocolVersion",
            "/server/era",
        ] {
            let mut v = stored.clone();
            let (parent, key) = required.rsplit_once('/').unwrap();
            v.pointer_mut(parent)
                .unwrap()
                .as_object_mut()
                .unwrap()
                .remove(key);
            assert!(
                serde_json::from_value::<SessionSnapshot>(v).is_err(),
                "{required} not required"
            );
        }
    }
}
