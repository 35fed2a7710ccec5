//! Connecting: era detection, `server/discover`, the 2025-era `initialize` handshake, and the
//! probe that recognises a deprecated HTTP+SSE server.

use serde_json::{json, Map, Value};

use super::exchange::{Failure, Purpose};
use super::request::{is_modern_error, supported_versions};
use super::{
    cache, ConnectStep, Era, Event, OpId, OpKind, Phase, ProtocolChoice, ProtocolError,
    RequestOptions, ServerInfo, Session, LEGACY_VERSIONS, MODERN_VERSION,
};
use crate::proto::http::{mime, names, Method};

impl Session {
    /// Connects: detects the era (unless configured), then `server/discover` (2026-07-28) or
    /// `initialize` + `notifications/initialized` (2025 era). Requests issued before the connect
    /// completes wait for it.
    pub fn connect(&mut self, now: u64) -> OpId {
        let (step, version) = match (&self.cfg.protocol, self.cfg.known_era) {
            (ProtocolChoice::Exact(v), _) if v == MODERN_VERSION => {
                (ConnectStep::Discover, v.clone())
            }
            (ProtocolChoice::Exact(v), _) => (ConnectStep::Initialize, v.clone()),
            (ProtocolChoice::Auto, Some(Era::Legacy)) => {
                (ConnectStep::Initialize, LEGACY_VERSIONS[0].to_string())
            }
            (ProtocolChoice::Auto, _) => (ConnectStep::Discover, MODERN_VERSION.to_string()),
        };
        let kind = OpKind::Connect {
            step,
            version,
            probe_error: None,
        };
        let op = self.new_op(kind, &RequestOptions::default(), false, now);
        if let (Some(limit), Some(o)) = (self.cfg.connect_timeout_ms, self.ops.get_mut(&op)) {
            // The connect as a whole, every step and era fallback included, ends by its
            // deadline (its total limit; each step keeps the request timeout below it).
            o.timeout_ms = Some(o.timeout_ms.map_or(limit, |t| t.min(limit)));
            o.total_ms = Some(o.total_ms.map_or(limit, |t| t.min(limit)));
        }
        if self.is_stdio() && step == ConnectStep::Discover {
            let probe = Some(self.cfg.probe_timeout_ms);
            if let Some(o) = self.ops.get_mut(&op) {
                o.timeout_ms = probe.min(o.timeout_ms).or(probe);
            }
        }
        match self.phase {
            Phase::Idle => {
                self.phase = Phase::Connecting(op);
                self.drive(op, now);
            }
            Phase::Connecting(c) | Phase::Reinitializing(c) => self.wait_for(op, c),
            Phase::Connected => {
                let info = self
                    .server
                    .as_ref()
                    .map(ServerInfo::to_json)
                    .unwrap_or(Value::Null);
                self.finish(op, Ok(info), now);
            }
            Phase::Closed => self.finish(op, Err(ProtocolError::Closed), now),
        }
        op
    }

    pub(super) fn drive_connect(&mut self, op: OpId, now: u64) {
        let Some(OpKind::Connect { step, version, .. }) = self.ops.get(&op).map(|o| &o.kind) else {
            return;
        };
        let (step, version) = (*step, version.clone());
        match step {
            ConnectStep::Discover => self.send_rpc(op, "server/discover", Map::new(), now),
            ConnectStep::Initialize => {
                let mut params = Map::new();
                params.insert("protocolVersion".into(), Value::from(version));
                params.insert("capabilities".into(), self.capabilities.clone());
                params.insert("clientInfo".into(), self.cfg.client_info.clone());
                self.session_id = None;
                self.send_rpc(op, "initialize", params, now);
            }
            ConnectStep::Initialized => {
                self.send_notification("notifications/initialized", json!({}), Some(op));
            }
            ConnectStep::Probe => {
                // MCP 2026-07-28 `basic/transports/streamable-http` "HTTP+SSE Transport": a GET
                // whose first event is `endpoint` identifies a 2024-11-05 server.
                let mut headers = vec![(names::ACCEPT.to_string(), mime::EVENT_STREAM.to_string())];
                self.add_user_headers(&mut headers);
                self.send_bodiless(Method::Get, headers, Purpose::LegacyProbe { op }, Some(op));
            }
        }
    }

    /// stdio: an unanswered `server/discover` probe means a legacy server (MCP 2026-07-28
    /// `basic/versioning`: "the probe returns a non-modern error or times out").
    pub(super) fn stdio_probe_expired(&mut self, op: OpId, now: u64) -> bool {
        let probing = matches!(
            self.ops.get(&op).map(|o| &o.kind),
            Some(OpKind::Connect {
                step: ConnectStep::Discover,
                ..
            })
        );
        let retried = self.ops.get(&op).is_some_and(|o| o.version_retry_used);
        if !(self.is_stdio() && probing && !retried && self.cfg.protocol == ProtocolChoice::Auto) {
            return false;
        }
        self.abort_op(op, now);
        self.set_step(op, ConnectStep::Initialize, Some(LEGACY_VERSIONS[0].into()));
        self.drive_connect(op, now);
        true
    }

    fn set_step(&mut self, op: OpId, new_step: ConnectStep, new_version: Option<String>) {
        let request_timeout = self.cfg.request_timeout_ms;
        let now = self.last_now;
        if let Some(o) = self.ops.get_mut(&op) {
            o.timeout_ms = request_timeout;
            o.activity = now.max(o.activity);
        }
        if let Some(OpKind::Connect { step, version, .. }) =
            self.ops.get_mut(&op).map(|o| &mut o.kind)
        {
            *step = new_step;
            if let Some(v) = new_version {
                *version = v;
            }
        }
    }

    pub(super) fn connect_result(&mut self, op: OpId, result: Value, now: u64) {
        let Some(OpKind::Connect { step, version, .. }) = self.ops.get(&op).map(|o| &o.kind) else {
            return;
        };
        let (step, version) = (*step, version.clone());
        match step {
            ConnectStep::Discover => {
                let meta = result.get("_meta");
                let info = ServerInfo {
                    era: Era::Modern,
                    protocol_version: version.clone(),
                    server_info: meta.and_then(|m| m.get(super::META_SERVER_INFO)).cloned(),
                    capabilities: result.get("capabilities").cloned().unwrap_or(json!({})),
                    instructions: result
                        .get("instructions")
                        .and_then(Value::as_str)
                        .map(str::to_string),
                    supported_versions: supported_versions(Some(
                        &json!({"supported": result.get("supportedVersions")}),
                    )),
                };
                self.era = Some(Era::Modern);
                self.version = version;
                if let Some(k) = cache::key("server/discover", &Map::new()) {
                    self.cache.put(k, &result, now);
                }
                self.connected(op, info, now);
            }
            ConnectStep::Initialize => {
                let negotiated = result
                    .get("protocolVersion")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                if !LEGACY_VERSIONS.contains(&negotiated) {
                    // The client SHOULD disconnect when it does not support the server's version.
                    let e = ProtocolError::UnsupportedProtocolVersion {
                        requested: version,
                        supported: vec![negotiated.to_string()],
                    };
                    return self.connect_failed_with(op, e, now);
                }
                let info = ServerInfo {
                    era: Era::Legacy,
                    protocol_version: negotiated.to_string(),
                    server_info: result.get("serverInfo").cloned(),
                    capabilities: result.get("capabilities").cloned().unwrap_or(json!({})),
                    instructions: result
                        .get("instructions")
                        .and_then(Value::as_str)
                        .map(str::to_string),
                    supported_versions: Vec::new(),
                };
                self.era = Some(Era::Legacy);
                self.version = negotiated.to_string();
                self.server = Some(info);
                self.set_step(op, ConnectStep::Initialized, None);
                if let Some(o) = self.ops.get_mut(&op) {
                    o.activity = now;
                }
                self.drive_connect(op, now);
            }
            _ => {}
        }
    }

    /// `notifications/initialized` was accepted: the 2025-era session is ready.
    pub(super) fn initialized_accepted(&mut self, op: OpId, now: u64) {
        let ready = matches!(
            self.ops.get(&op).map(|o| &o.kind),
            Some(OpKind::Connect {
                step: ConnectStep::Initialized,
                ..
            })
        );
        if let (true, Some(info)) = (ready, self.server.clone()) {
            self.connected(op, info, now);
        }
    }

    fn connected(&mut self, op: OpId, info: ServerInfo, now: u64) {
        let internal = self.ops.get(&op).is_some_and(|o| o.internal);
        self.server = Some(info.clone());
        self.phase = Phase::Connected;
        if internal {
            self.events.push_back(Event::Diagnostic {
                message: "the server ended the session (HTTP 404); re-initialized".into(),
            });
        } else {
            self.events.push_back(Event::Connected(info.clone()));
        }
        if info.era == Era::Legacy && self.cfg.open_get_stream {
            self.start_get_stream(now);
        }
        self.finish(op, Ok(info.to_json()), now);
    }

    pub(super) fn connect_failed(&mut self, op: OpId, failure: Failure, now: u64) {
        // 429 / 503 with Retry-After: the same step again after the delay, within the deadline.
        if self.retried_after(op, &failure, now) {
            return;
        }
        let Some(o) = self.ops.get(&op) else { return };
        let OpKind::Connect { step, .. } = &o.kind else {
            return;
        };
        let step = *step;
        let auto = self.cfg.protocol == ProtocolChoice::Auto;
        match (step, &failure) {
            (ConnectStep::Discover, Failure::Rpc { error, .. })
                if error.code == crate::proto::jsonrpc::codes::UNSUPPORTED_PROTOCOL_VERSION
                    && is_modern_error(error, 400) =>
            {
                let supported = supported_versions(error.data.as_ref());
                // A modern server: stay modern if we share a modern version ("the client retries
                // with a mutually supported version", MCP 2026-07-28 `basic/versioning`; once,
                // even when it is the version just sent), else take the newest shared legacy
                // version through `initialize`.
                let retry_modern = supported.iter().any(|s| s == MODERN_VERSION)
                    && !self.ops.get(&op).is_some_and(|o| o.version_retry_used);
                if retry_modern {
                    if let Some(o) = self.ops.get_mut(&op) {
                        o.version_retry_used = true;
                    }
                    self.set_step(op, ConnectStep::Discover, Some(MODERN_VERSION.into()));
                    return self.drive_connect(op, now);
                }
                if let Some(v) = LEGACY_VERSIONS
                    .iter()
                    .find(|v| supported.iter().any(|s| s == *v))
                {
                    if auto {
                        self.set_step(op, ConnectStep::Initialize, Some(v.to_string()));
                        return self.drive_connect(op, now);
                    }
                }
                let e = ProtocolError::UnsupportedProtocolVersion {
                    requested: MODERN_VERSION.into(),
                    supported,
                };
                self.connect_failed_with(op, e, now)
            }
            (ConnectStep::Discover, Failure::Rpc { error, status })
                if is_modern_error(error, *status) =>
            {
                self.connect_failed_with(op, failure.into_error(0), now)
            }
            // Not a modern error: a legacy server. Fall back to `initialize` (MCP 2026-07-28
            // `basic/transports/streamable-http` "Backward Compatibility").
            (ConnectStep::Discover, Failure::Rpc { .. }) if auto => {
                self.set_step(op, ConnectStep::Initialize, Some(LEGACY_VERSIONS[0].into()));
                self.drive_connect(op, now)
            }
            (ConnectStep::Discover, Failure::Http { status, .. })
                if auto && (400..500).contains(status) && !matches!(status, 401 | 403 | 429) =>
            {
                self.set_step(op, ConnectStep::Initialize, Some(LEGACY_VERSIONS[0].into()));
                self.drive_connect(op, now)
            }
            // `initialize` refused by a modern-only server (a stdio probe that answered after its
            // timeout ends here): back to discover once, without the probe timeout.
            (ConnectStep::Initialize, Failure::Rpc { error, .. })
                if auto
                    && error.code == crate::proto::jsonrpc::codes::UNSUPPORTED_PROTOCOL_VERSION
                    && supported_versions(error.data.as_ref())
                        .iter()
                        .any(|v| v == MODERN_VERSION)
                    && !self.ops.get(&op).is_some_and(|o| o.version_retry_used) =>
            {
                if let Some(o) = self.ops.get_mut(&op) {
                    o.version_retry_used = true;
                }
                self.set_step(op, ConnectStep::Discover, Some(MODERN_VERSION.into()));
                self.drive_connect(op, now)
            }
            // `initialize` refused with a bare 400/404/405: maybe a 2024-11-05 HTTP+SSE server.
            (
                ConnectStep::Initialize,
                Failure::Http {
                    status: 400 | 404 | 405,
                    ..
                },
            ) => {
                if let Some(OpKind::Connect { probe_error, .. }) =
                    self.ops.get_mut(&op).map(|o| &mut o.kind)
                {
                    *probe_error = Some(failure.clone().into_error(0));
                }
                self.set_step(op, ConnectStep::Probe, None);
                self.drive_connect(op, now)
            }
            _ => self.connect_failed_with(op, failure.into_error(0), now),
        }
    }

    /// The HTTP+SSE probe finished: `endpoint` is the data of an `endpoint` first event.
    pub(super) fn probe_done(&mut self, op: OpId, endpoint: Option<String>, now: u64) {
        let saved = match self.ops.get_mut(&op).map(|o| &mut o.kind) {
            Some(OpKind::Connect { probe_error, .. }) => probe_error.take(),
            _ => return,
        };
        if let Some(o) = self.ops.get_mut(&op) {
            o.exchange = None;
        }
        let e = match endpoint {
            Some(endpoint) => ProtocolError::LegacyHttpSseServer { endpoint },
            None => saved.unwrap_or(ProtocolError::HttpStatus {
                status: 400,
                body: String::new(),
                retry_after_ms: None,
                body_length: None,
            }),
        };
        self.connect_failed_with(op, e, now)
    }

    pub(super) fn connect_failed_with(&mut self, op: OpId, e: ProtocolError, now: u64) {
        if self.phase == Phase::Connecting(op) || self.phase == Phase::Reinitializing(op) {
            self.phase = Phase::Idle;
            self.session_id = None;
        }
        self.finish(op, Err(e), now);
    }
}
