//! Snapshots: what a session must keep to survive the eviction of its host (a Workers isolate, a
//! hibernated Durable Object) without reconnecting: the era and version, the server's info, the
//! 2025-era session id and last SSE event id, the result cache with the time each entry has left,
//! and what the listed tools declare (`x-mcp-header` designations, idempotent or read-only hints).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Era, GetStream, Phase, ProtocolError, ServerInfo, Session, SessionConfig};
use crate::proto::headers::ParamHeader;

/// Snapshot format version; a snapshot of another version is refused.
pub const SNAPSHOT_VERSION: u32 = 1;

/// A session's durable state. Serialise it with serde (it is plain data).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
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
    #[serde(default)]
    pub repeatable_tools: Vec<String>,
}

impl Session {
    /// The session's durable state at `now`.
    pub fn snapshot(&self, now: u64) -> SessionSnapshot {
        let mut tool_headers: Vec<_> = self
            .tool_headers
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        tool_headers.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut repeatable_tools: Vec<String> = self.repeatable_tools.iter().cloned().collect();
        repeatable_tools.sort_unstable();
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
        s.tool_headers = snap.tool_headers.into_iter().collect();
        s.tools_listed = snap.tools_listed;
        s.repeatable_tools = snap.repeatable_tools.into_iter().collect();
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
