//! How one client connects, whatever the host: [`ClientConfig`] is the one writer of the
//! session's configuration. The Rust and JS `ConnectOptions`, the component's WIT
//! `connect-options` and each `mcpServers` entry of a pool are translated into it once; it
//! checks the URL, normalises header names, keeps the three timeouts apart (inactivity, total,
//! connect) and derives the SSE decoder's line limit from the event limit.
//!
//! It also keeps the era detected per origin for the clients of this instance (MCP 2026-07-28
//! `basic/versioning`: "Clients SHOULD cache the result for the lifetime of the ... origin").

use std::cell::RefCell;

use serde_json::{Map, Value};

use crate::proto::auth::AuthConfig;
use crate::proto::session::{Era, ProtocolChoice, ProtocolError, SessionConfig};
use crate::proto::sse::DecoderConfig;
use crate::proto::uri::origin_or_whole;
use crate::util::vec_map::VecMap;

thread_local! {
    static ERA_BY_ORIGIN: RefCell<VecMap<String, Era>> = const { RefCell::new(VecMap::new()) };
}

/// The era detected earlier for `url`'s origin, if any.
fn known_era(url: &str) -> Option<Era> {
    ERA_BY_ORIGIN.with(|m| m.borrow().get(&origin_or_whole(url)).copied())
}

/// Remembers the era `url`'s server was detected in. Only detection teaches the cache: a version
/// the caller pinned says nothing about what the server prefers.
pub fn learn_era(url: &str, era: Era) {
    ERA_BY_ORIGIN.with(|m| m.borrow_mut().insert(origin_or_whole(url), era));
}

/// Checks that `url` is one a client can reach: `http://` or `https://` (Streamable HTTP). The
/// one URL rule of every surface; each reports a refusal in its own terms (the JS surface as an
/// invalid argument, the component as an unreachable URL).
pub fn check_url(url: &str) -> Result<(), ProtocolError> {
    if url.starts_with("http://") || url.starts_with("https://") {
        return Ok(());
    }
    Err(ProtocolError::InvalidConfig(
        "url must be an http:// or https:// URL: only http and https are supported".into(),
    ))
}

/// The three time limits of a client, each `None` for none (or the session's default).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Timeouts {
    /// Inactivity limit of each request, reset by progress notifications (session default:
    /// 60 s).
    pub inactivity_ms: Option<u64>,
    /// Hard limit of each request, progress or not.
    pub total_ms: Option<u64>,
    /// Deadline of the connect as a whole (discovery, `initialize`, the era fallback).
    pub connect_ms: Option<u64>,
}

/// What a server may send at most.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    /// The largest SSE event (session default: 8 MiB).
    pub max_event_bytes: Option<usize>,
    /// The largest JSON response body (session default: 16 MiB).
    pub max_body_bytes: Option<usize>,
}

/// How one client connects (see the module documentation).
#[derive(Clone, Default)]
pub struct ClientConfig {
    /// `auto` (2026-07-28, falling back to the 2025 era) or an exact version.
    pub protocol: ProtocolChoice,
    headers: Vec<(String, String)>,
    /// The time limits.
    pub timeouts: Timeouts,
    /// The `Implementation` object sent as client info (default: mcp-edge's).
    pub client_info: Option<Value>,
    /// Client capabilities (the host adds those of its input handlers).
    pub capabilities: Map<String, Value>,
    /// 2025 era: whether to open the optional GET stream (default on).
    pub open_get_stream: Option<bool>,
    /// The size limits.
    pub limits: Limits,
    /// OAuth settings.
    pub auth: Option<AuthConfig>,
    /// Seed of the session's reconnect jitter (the core draws no randomness).
    pub jitter_seed: Option<u64>,
    /// Extensions to declare beyond the defaults, by identifier: settings, `true` for the settings
    /// mcp-edge knows (MCP Apps: its MIME type), `false` to remove one (the Tasks extension,
    /// declared by default, is turned off with `false`).
    pub extensions: Map<String, Value>,
    /// How long a call that became a task waits for it (session default: 24 h).
    pub max_task_wait_ms: Option<u64>,
}

impl std::fmt::Debug for ClientConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Header values may be credentials: names only.
        let names: Vec<&str> = self.headers.iter().map(|(k, _)| k.as_str()).collect();
        f.debug_struct("ClientConfig")
            .field("protocol", &self.protocol)
            .field("headers", &names)
            .field("timeouts", &self.timeouts)
            .field("open_get_stream", &self.open_get_stream)
            .field("limits", &self.limits)
            .field("auth", &self.auth.is_some())
            .finish_non_exhaustive()
    }
}

impl ClientConfig {
    /// `"auto"` or an exact protocol version.
    pub fn set_protocol(&mut self, version: &str) {
        self.protocol = match version {
            "auto" => ProtocolChoice::Auto,
            v => ProtocolChoice::Exact(v.to_string()),
        };
    }

    /// An extra header sent with every request; the name is lower-cased and replaces an
    /// earlier header of the same name.
    pub fn set_header(&mut self, name: &str, value: &str) {
        let name = name.to_ascii_lowercase();
        self.headers.retain(|(k, _)| *k != name);
        self.headers.push((name, value.to_string()));
    }

    /// The extra headers (names lower-cased).
    pub fn headers(&self) -> &[(String, String)] {
        &self.headers
    }

    /// The session configuration for the endpoint `url` (`http://` or `https://`): the only
    /// place a client's [`SessionConfig`] is written. With protocol `auto` the era detected
    /// earlier for the origin is reused.
    pub fn session_config(&self, url: &str) -> Result<SessionConfig, ProtocolError> {
        check_url(url)?;
        let mut cfg = SessionConfig::new(url);
        cfg.protocol = self.protocol.clone();
        if cfg.protocol == ProtocolChoice::Auto {
            cfg.known_era = known_era(url);
        }
        let mut headers = self.headers.clone();
        crate::util::order::sort_by_str(&mut headers, |h| &h.0);
        cfg.headers = headers;
        if let Some(t) = self.timeouts.inactivity_ms {
            cfg.request_timeout_ms = Some(t);
        }
        cfg.max_total_timeout_ms = self.timeouts.total_ms;
        cfg.connect_timeout_ms = self.timeouts.connect_ms;
        if let Some(info) = &self.client_info {
            cfg.client_info = info.clone();
        }
        let mut capabilities = self.capabilities.clone();
        // Extensions are declared from their own member: one under `capabilities` is moved there.
        if let Some(Value::Object(ext)) = capabilities.remove("extensions") {
            for (k, v) in ext {
                cfg.extensions.insert(k, v);
            }
        }
        cfg.capabilities = Value::Object(capabilities);
        for (id, settings) in &self.extensions {
            match settings {
                Value::Bool(false) | Value::Null => {
                    cfg.extensions.remove(id);
                }
                Value::Object(_) => {
                    cfg.extensions.insert(id.clone(), settings.clone());
                }
                // `true`: the settings mcp-edge declares for an extension it implements (MCP Apps:
                // `{"mimeTypes": ["text/html;profile=mcp-app"]}`), `{}` for any other.
                Value::Bool(true) => {
                    let known = if id == crate::proto::apps::UI_EXTENSION {
                        crate::proto::apps::extension_settings()
                    } else {
                        Value::Object(Map::new())
                    };
                    cfg.extensions.insert(id.clone(), known);
                }
                _ => {
                    return Err(ProtocolError::InvalidConfig(format!(
                        "extension {id:?}: settings must be an object, true for the defaults, or false to turn it off"
                    )))
                }
            }
        }
        if self.max_task_wait_ms.is_some() {
            cfg.max_task_wait_ms = self.max_task_wait_ms;
        }
        if let Some(open) = self.open_get_stream {
            cfg.open_get_stream = open;
        }
        if let Some(n) = self.limits.max_event_bytes {
            cfg.sse = DecoderConfig::for_events_of(n);
        }
        if let Some(n) = self.limits.max_body_bytes {
            cfg.max_json_bytes = n;
        }
        if let Some(seed) = self.jitter_seed {
            cfg.jitter_seed = seed;
        }
        cfg.auth = self.auth.clone();
        cfg.validate()?;
        Ok(cfg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn true_declares_an_extensions_known_settings() {
        let mut c = ClientConfig::default();
        c.extensions
            .insert("io.modelcontextprotocol/ui".into(), Value::Bool(true));
        c.extensions
            .insert("x.example/other".into(), Value::Bool(true));
        c.extensions
            .insert("io.modelcontextprotocol/tasks".into(), Value::Bool(false));
        let s = c.session_config("https://example.com/mcp").unwrap();
        assert_eq!(
            Value::Object(s.extensions),
            serde_json::json!({
                "io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]},
                "x.example/other": {},
            })
        );
        c.extensions.insert("bad".into(), Value::from(3));
        assert!(c.session_config("https://example.com/mcp").is_err());
    }

    #[test]
    fn writes_the_session_config() {
        let mut c = ClientConfig::default();
        c.set_header("X-B", "2");
        c.set_header("Authorization", "Bearer t");
        c.set_header("x-b", "3");
        c.timeouts = Timeouts {
            inactivity_ms: Some(5),
            total_ms: Some(10),
            connect_ms: Some(7),
        };
        c.limits.max_event_bytes = Some(1000);
        c.open_get_stream = Some(false);
        let s = c.session_config("https://example.com/mcp").unwrap();
        assert_eq!(
            s.headers,
            [
                ("authorization".to_string(), "Bearer t".to_string()),
                ("x-b".to_string(), "3".to_string())
            ]
        );
        assert_eq!(
            (
                s.request_timeout_ms,
                s.max_total_timeout_ms,
                s.connect_timeout_ms
            ),
            (Some(5), Some(10), Some(7))
        );
        assert_eq!(s.sse, DecoderConfig::for_events_of(1000));
        assert_eq!(s.sse.max_line_bytes, 1000 + DecoderConfig::LINE_SLACK);
        assert!(!s.open_get_stream);
        // The session's own defaults stay where nothing was set.
        let d = ClientConfig::default().session_config("http://x/").unwrap();
        assert_eq!(d.request_timeout_ms, Some(60_000));
        assert!(d.open_get_stream);
    }

    #[test]
    fn refuses_what_is_not_http_and_inconsistent_timeouts() {
        let c = ClientConfig::default();
        assert!(matches!(
            c.session_config("ws://example.com"),
            Err(ProtocolError::InvalidConfig(_))
        ));
        let mut c = ClientConfig::default();
        c.timeouts.inactivity_ms = Some(10);
        c.timeouts.total_ms = Some(5);
        assert!(matches!(
            c.session_config("https://example.com"),
            Err(ProtocolError::InvalidConfig(_))
        ));
    }

    #[test]
    fn an_exact_protocol_ignores_the_era_cache() {
        learn_era("https://cache.example/a", Era::Legacy);
        let auto = ClientConfig::default()
            .session_config("https://cache.example/b")
            .unwrap();
        assert_eq!(auto.known_era, Some(Era::Legacy));
        let mut exact = ClientConfig::default();
        exact.set_protocol("2026-07-28");
        let s = exact.session_config("https://cache.example/b").unwrap();
        assert_eq!(s.known_era, None);
    }
}
