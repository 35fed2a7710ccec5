//! The `mcpServers` configuration document users already write, `${VAR}` expansion, the two-layer
//! merge, and signature de-duplication.
//!
//! ```json
//! { "mcpServers": {
//!     "github": { "url": "https://api.example/mcp", "headers": { "Authorization": "Bearer ${GH_TOKEN}" },
//!                 "category": "read", "timeoutMs": 10000 },
//!     "files":  { "command": "npx", "args": ["-y", "some-server", "${HOME:-/tmp}"], "enabled": false } } }
//! ```
//!
//! # Fields of a server entry
//! `url` (http/https; Streamable HTTP, MCP `basic/transports/streamable-http`) *or* `command` with
//! optional `args` and `env` (MCP `basic/transports/stdio`); `headers` (string map), `auth` (any
//! JSON, passed through to the auth layer with its strings expanded), `category`
//! (`read` | `write` | `execute`; `edit` is read as `write`), `autoApprove` (`true`, or the names
//! of the tools the user approves in advance), `timeoutMs` (connect timeout, 1 ..= 3,600,000),
//! `callTimeoutMs` (the inactivity limit of each request to this server, progress resets it,
//! 1 ..= 3,600,000; default: the pool's client options), `enabled`
//! (bool; `disabled: true` is read as `enabled: false`), `protocol` (`auto` or a version string),
//! `type` (`http`, `streamable-http`, `sse`, `stdio`; only checked for consistency). Unknown fields
//! are ignored.
//!
//! # Variable expansion
//! In `url`, header values, `auth` strings, `command`, `args` and `env` values:
//! `${NAME}` is replaced by the host-provided variable; `${NAME:-default}` uses `default` when the
//! variable is unset **or empty** (POSIX `:-`); `$${` yields a literal `${`; any other `$` is
//! literal. `NAME` is `[A-Za-z_][A-Za-z0-9_]*`; defaults are literal (no nested expansion). An
//! undefined variable fails that server only, with an error naming server, field and variable —
//! never a value.
use crate::util::json::json_text;
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

use super::error::PoolError;
use crate::proto::session::{ProtocolChoice, LEGACY_VERSIONS, MODERN_VERSION};
use crate::tools::adapt::{AutoApprove, Category};

/// Variables available to `${VAR}` expansion (the host passes them; the core reads no
/// environment).
pub type Vars = BTreeMap<String, String>;

/// Largest accepted `timeoutMs` (one hour).
pub const MAX_TIMEOUT_MS: u64 = 3_600_000;

/// How a server is reached.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Transport {
    /// Streamable HTTP (MCP `basic/transports/streamable-http`).
    Http {
        /// The endpoint, variables expanded.
        url: String,
        /// Extra request headers, in configuration order, values expanded.
        headers: Vec<(String, String)>,
    },
    /// A child process speaking NDJSON on stdin/stdout (MCP `basic/transports/stdio`).
    Stdio {
        /// The program.
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Extra environment variables, sorted by name.
        env: Vec<(String, String)>,
    },
}

/// One server entry after parsing and expansion.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerConfig {
    /// The key under `mcpServers`.
    pub name: String,
    /// How to reach it.
    pub transport: Transport,
    /// The `auth` object, strings expanded, for the auth layer.
    pub auth: Option<Value>,
    /// The user's category for every tool of this server (overrides annotations).
    pub category: Option<Category>,
    /// Which of its tools the user approves in advance (`autoApprove`).
    pub auto_approve: AutoApprove,
    /// Connect timeout; `None` = the pool's default.
    pub timeout_ms: Option<u64>,
    /// Inactivity limit of each request after connecting; `None` = the pool's client options.
    pub call_timeout_ms: Option<u64>,
    /// Protocol version selection.
    pub protocol: ProtocolChoice,
}

impl ServerConfig {
    /// The de-duplication signature: `url:<normalised url>` or `cmd:<json [command, args...]>`.
    pub fn signature(&self) -> String {
        match &self.transport {
            Transport::Http { url, .. } => {
                format!("url:{}", normalize_url(url).unwrap_or_else(|_| url.clone()))
            }
            Transport::Stdio { command, args, .. } => {
                let mut v = vec![Value::String(command.clone())];
                v.extend(args.iter().cloned().map(Value::String));
                format!("cmd:{}", json_text(&Value::Array(v)))
            }
        }
    }
}

/// One entry of the document: its name, whether it is enabled, and its parsed configuration or
/// the error that fails it (other servers are unaffected).
#[derive(Debug, Clone, PartialEq)]
pub struct ServerEntry {
    /// The key under `mcpServers`.
    pub name: String,
    /// `enabled` (default true).
    pub enabled: bool,
    /// The parsed entry, or why it is unusable.
    pub config: Result<ServerConfig, PoolError>,
}

/// A parsed configuration document.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PoolConfig {
    /// The servers, sorted by name.
    pub servers: Vec<ServerEntry>,
    /// Top-level members other than `mcpServers`, kept for the host.
    pub other: Map<String, Value>,
    /// What became of each server entry of the project layer ([`merge_layers`]).
    pub project: BTreeMap<String, ProjectEntry>,
    /// Layers that could not be used at all (not a JSON object, `mcpServers` not an object):
    /// [`PoolConfig::load`] leaves them out and reports them here instead of failing.
    pub diagnostics: Vec<PoolError>,
}

/// What became of a project layer's server entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProjectEntry {
    /// A server the user's layer does not have: added, but it connects only once the host
    /// approves it (a project checked into a repository must not start servers unasked).
    Added,
    /// A server the user's layer has: the user's entry stays, the project's is not used.
    Ignored,
    /// The host approved the project's entry: a server the user's layer lacks connects, and one
    /// it has is replaced whole (nothing of the user's entry, credentials included, carries
    /// over).
    Approved,
}

impl ProjectEntry {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ProjectEntry::Added => "added",
            ProjectEntry::Ignored => "ignored",
            ProjectEntry::Approved => "approved",
        }
    }
}

/// Two merged layers: the document, and what became of each project server entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Merged {
    /// The merged document.
    pub doc: Value,
    /// Per project server entry, what became of it.
    pub project: BTreeMap<String, ProjectEntry>,
}

/// An entry dropped by de-duplication.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DroppedDuplicate {
    /// The dropped server.
    pub dropped: String,
    /// The server kept in its place.
    pub kept: String,
}

impl PoolConfig {
    /// Parses a document (`{"mcpServers": {...}, ...}`) from text.
    pub fn from_json(text: &str, vars: &Vars) -> Result<Self, PoolError> {
        Self::from_value(&parse_text(text)?, vars)
    }

    /// The configuration a pool starts from, which never fails as a whole: a user layer that
    /// is not a usable document counts as empty, a project layer that is not one is left out,
    /// each reported in [`PoolConfig::diagnostics`]; a bad server entry fails only itself.
    pub fn load(
        user: Result<&Value, PoolError>,
        project: Option<Result<&Value, PoolError>>,
        approved: &BTreeSet<String>,
        vars: &Vars,
    ) -> PoolConfig {
        let mut diagnostics = Vec::new();
        let empty = Value::Object(Map::new());
        // A layer is used when it was read and is shaped like a document; else it is reported.
        let mut usable = |r: Result<&Value, PoolError>, layer: &str| {
            let checked = r.and_then(|v| Self::from_value(v, &Vars::new()).map(|_| v.clone()));
            checked
                .map_err(|e| {
                    diagnostics.push(match e {
                        PoolError::InvalidConfig { reason } => PoolError::InvalidConfig {
                            reason: format!("{layer} layer ignored: {reason}"),
                        },
                        other => other,
                    })
                })
                .ok()
        };
        let user = usable(user, "user").unwrap_or_else(|| empty.clone());
        let project = project.and_then(|p| usable(p, "project"));
        let (user, project) = (&user, project.as_ref());
        let parsed = match project {
            None => Self::from_value(user, vars),
            Some(p) => Self::from_layers(user, p, approved, vars),
        };
        let mut c = parsed.unwrap_or_else(|e| {
            diagnostics.push(e);
            Self::from_value(&empty, vars).unwrap_or_default()
        });
        c.diagnostics = diagnostics;
        c
    }

    /// Parses the user layer, then the project layer on top of it (see [`merge_layers`]);
    /// `approved` names the project entries the host lets replace the user's.
    pub fn from_layers(
        user: &Value,
        project: &Value,
        approved: &BTreeSet<String>,
        vars: &Vars,
    ) -> Result<Self, PoolError> {
        let merged = merge_layers(user, project, approved)?;
        let mut c = Self::from_value(&merged.doc, vars)?;
        c.project = merged.project;
        Ok(c)
    }

    /// Parses a document. Fails as a whole only when the document itself is mis-shaped; a bad
    /// server entry fails that entry.
    pub fn from_value(doc: &Value, vars: &Vars) -> Result<Self, PoolError> {
        let Value::Object(top) = doc else {
            return Err(PoolError::InvalidConfig {
                reason: "the document must be a JSON object".into(),
            });
        };
        let mut servers = Vec::new();
        match top.get("mcpServers") {
            None | Some(Value::Null) => {}
            Some(Value::Object(map)) => {
                for (name, entry) in map {
                    servers.push(parse_entry(name, entry, vars));
                }
            }
            Some(_) => {
                return Err(PoolError::InvalidConfig {
                    reason: "\"mcpServers\" must be an object keyed by server name".into(),
                })
            }
        }
        crate::util::order::sort_by_str(&mut servers, |s| &s.name);
        let other = top
            .iter()
            .filter(|(k, _)| k.as_str() != "mcpServers")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        Ok(Self {
            servers,
            other,
            project: BTreeMap::new(),
            diagnostics: Vec::new(),
        })
    }

    /// Finds entries with the same signature ([`ServerConfig::signature`]) among the enabled,
    /// well-formed ones. The first by name is kept; each later one is reported as dropped.
    pub fn duplicates(&self) -> Vec<DroppedDuplicate> {
        let mut seen: BTreeMap<String, &str> = BTreeMap::new();
        let mut out = Vec::new();
        // The user's own entries are kept before the project's, whatever their names: a project
        // cannot push the user's entry out by naming a copy of it first.
        let rank = |e: &&ServerEntry| match self.project.get(&e.name) {
            None | Some(ProjectEntry::Ignored) => 0,
            Some(ProjectEntry::Approved) => 1,
            Some(ProjectEntry::Added) => 2,
        };
        let mut order: Vec<&ServerEntry> = self.servers.iter().collect();
        order.sort_by_key(rank);
        for e in order {
            let Ok(cfg) = &e.config else { continue };
            if !e.enabled {
                continue;
            }
            let sig = cfg.signature();
            match seen.get(&sig) {
                Some(kept) => out.push(DroppedDuplicate {
                    dropped: e.name.clone(),
                    kept: (*kept).to_string(),
                }),
                None => {
                    seen.insert(sig, &e.name);
                }
            }
        }
        out
    }
}

/// A configuration document's JSON text as a value; the error names the line and column, never
/// the text (it may hold secrets).
pub fn parse_text(text: &str) -> Result<Value, PoolError> {
    serde_json::from_str(text).map_err(|e| PoolError::InvalidConfig {
        reason: format!("not JSON (line {}, column {})", e.line(), e.column()),
    })
}

/// Merges two configuration layers (user, then project on top).
///
/// Top-level members: the project's value replaces the user's (a `null` removes it), except
/// `mcpServers`, which is merged by server name. A project server the user's layer does not have
/// is added. One the user's layer has cannot silently replace it (a project checked into a
/// repository could otherwise point the user's server, and the credentials in its headers, at
/// another endpoint): the user's entry wins and the project's is reported
/// [`ProjectEntry::Ignored`], unless the host named it in `approved`; then the project's entry
/// (or its `null`, which removes the server) replaces the user's whole.
pub fn merge_layers(
    user: &Value,
    project: &Value,
    approved: &BTreeSet<String>,
) -> Result<Merged, PoolError> {
    let (Value::Object(u), Value::Object(p)) = (user, project) else {
        return Err(PoolError::InvalidConfig {
            reason: "each configuration layer must be a JSON object".into(),
        });
    };
    let mut out = u.clone();
    let mut notes = BTreeMap::new();
    for (k, pv) in p {
        if k == "mcpServers" {
            let mut m = match u.get(k) {
                Some(Value::Object(us)) => us.clone(),
                _ => Map::new(),
            };
            let Value::Object(ps) = pv else {
                out.insert(k.clone(), pv.clone());
                continue;
            };
            for (name, pe) in ps {
                let note = match (m.contains_key(name), approved.contains(name)) {
                    (_, true) => ProjectEntry::Approved,
                    (false, false) => ProjectEntry::Added,
                    (true, false) => ProjectEntry::Ignored,
                };
                notes.insert(name.clone(), note);
                match (note, pe) {
                    (ProjectEntry::Ignored, _) => {}
                    (_, Value::Null) => {
                        m.remove(name);
                    }
                    _ => {
                        m.insert(name.clone(), pe.clone());
                    }
                }
            }
            out.insert(k.clone(), Value::Object(m));
        } else if pv.is_null() {
            out.remove(k);
        } else {
            out.insert(k.clone(), pv.clone());
        }
    }
    Ok(Merged {
        doc: Value::Object(out),
        project: notes,
    })
}

/// What went wrong in [`expand_vars`]; the caller adds server and field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExpandError {
    /// `${NAME}` with `NAME` not in the vars and no default.
    Undefined(String),
    /// `${` without a closing `}` or with an invalid name, at this byte offset.
    Malformed(usize),
}

/// Expands `${NAME}`, `${NAME:-default}` and the `$${` escape (see the module docs).
pub fn expand_vars(input: &str, vars: &Vars) -> Result<String, ExpandError> {
    let mut out = String::with_capacity(input.len());
    let mut rest = input;
    let mut offset = 0;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        if let Some(tail) = after.strip_prefix("${") {
            out.push_str("${");
            offset += i + 3;
            rest = tail;
            continue;
        }
        let Some(body_and_tail) = after.strip_prefix('{') else {
            out.push('$');
            offset += i + 1;
            rest = after;
            continue;
        };
        let Some(close) = body_and_tail.find('}') else {
            return Err(ExpandError::Malformed(offset + i));
        };
        let body = &body_and_tail[..close];
        let (name, default) = match body.find(":-") {
            Some(d) => (&body[..d], Some(&body[d + 2..])),
            None => (body, None),
        };
        if !is_var_name(name) {
            return Err(ExpandError::Malformed(offset + i));
        }
        match (vars.get(name), default) {
            (Some(v), Some(d)) if v.is_empty() => out.push_str(d),
            (Some(v), _) => out.push_str(v),
            (None, Some(d)) => out.push_str(d),
            (None, None) => return Err(ExpandError::Undefined(name.to_string())),
        }
        let consumed = i + 2 + close + 1;
        offset += consumed;
        rest = &rest[consumed..];
    }
    out.push_str(rest);
    Ok(out)
}

fn is_var_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

/// Normalises an http(s) URL for signatures and URL policy rules: trims whitespace, lower-cases
/// scheme and host, drops a default port (80 for http, 443 for https) and the fragment, and
/// writes an empty path as `/` (RFC 3986 section 6.2.2 / 6.2.3 syntax- and scheme-based
/// normalisation). Query and path are kept as written. The error never quotes the URL.
pub fn normalize_url(url: &str) -> Result<String, &'static str> {
    let url = url.trim();
    if url.chars().any(|c| c.is_control() || c == ' ') {
        return Err("contains whitespace or control characters");
    }
    let Some((scheme, rest)) = url.split_once("://") else {
        return Err("is not an absolute URL");
    };
    let scheme = scheme.to_ascii_lowercase();
    let default_port = match scheme.as_str() {
        "http" => "80",
        "https" => "443",
        _ => return Err("must use http or https"),
    };
    let rest = rest.split('#').next().unwrap_or_default();
    let end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, path_query) = rest.split_at(end);
    let (userinfo, hostport) = match authority.rfind('@') {
        Some(at) => (&authority[..=at], &authority[at + 1..]),
        None => ("", authority),
    };
    let (host, port) = if hostport.starts_with('[') {
        match hostport.find(']') {
            Some(close) => {
                let (h, p) = hostport.split_at(close + 1);
                (h, p.strip_prefix(':'))
            }
            None => return Err("has an unterminated IPv6 address"),
        }
    } else {
        match hostport.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (hostport, None),
        }
    };
    if host.is_empty() || host == "[]" {
        return Err("has no host");
    }
    let port = match port {
        Some("") => None,
        Some(p) if p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()) => {
            let trimmed = p.trim_start_matches('0');
            let trimmed = if trimmed.is_empty() { "0" } else { trimmed };
            (trimmed != default_port).then_some(trimmed)
        }
        Some(_) => return Err("has an invalid port"),
        None => None,
    };
    let mut out = format!("{scheme}://{userinfo}{}", host.to_ascii_lowercase());
    if let Some(p) = port {
        out.push(':');
        out.push_str(p);
    }
    if !path_query.starts_with('/') {
        out.push('/');
    }
    out.push_str(path_query);
    Ok(out)
}

/// Parses one entry; a failure fails this entry only.
fn parse_entry(name: &str, entry: &Value, vars: &Vars) -> ServerEntry {
    let mut enabled = true;
    let config = (|| {
        let Value::Object(obj) = entry else {
            return Err(field_err(name, "", "the server entry must be an object"));
        };
        if let Some(v) = obj.get("enabled") {
            enabled = v
                .as_bool()
                .ok_or_else(|| field_err(name, "enabled", "must be true or false"))?;
        }
        if let Some(v) = obj.get("disabled") {
            let d = v
                .as_bool()
                .ok_or_else(|| field_err(name, "disabled", "must be true or false"))?;
            enabled = enabled && !d;
        }
        parse_server(name, obj, vars)
    })();
    ServerEntry {
        name: name.to_string(),
        enabled,
        config,
    }
}

fn field_err(server: &str, field: &str, reason: &str) -> PoolError {
    PoolError::InvalidField {
        server: server.to_string(),
        field: field.to_string(),
        reason: reason.to_string(),
    }
}

fn expand_field(server: &str, field: &str, value: &str, vars: &Vars) -> Result<String, PoolError> {
    expand_vars(value, vars).map_err(|e| match e {
        ExpandError::Undefined(variable) => PoolError::UndefinedVariable {
            server: server.to_string(),
            field: field.to_string(),
            variable,
        },
        ExpandError::Malformed(at) => PoolError::InvalidField {
            server: server.to_string(),
            field: field.to_string(),
            reason: format!(
                "malformed variable reference at byte {at} (write ${{NAME}}, ${{NAME:-default}}, or $${{ for a literal)"
            ),
        },
    })
}

fn string_field<'a>(
    server: &str,
    obj: &'a Map<String, Value>,
    field: &str,
) -> Result<Option<&'a str>, PoolError> {
    match obj.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(field_err(server, field, "must be a string")),
    }
}

fn string_map(
    server: &str,
    obj: &Map<String, Value>,
    field: &str,
    vars: &Vars,
) -> Result<Vec<(String, String)>, PoolError> {
    match obj.get(field) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Object(m)) => m
            .iter()
            .map(|(k, v)| {
                let path = format!("{field}.{k}");
                let Value::String(s) = v else {
                    return Err(field_err(server, &path, "must be a string"));
                };
                Ok((k.clone(), expand_field(server, &path, s, vars)?))
            })
            .collect(),
        Some(_) => Err(field_err(
            server,
            field,
            "must be an object of string values",
        )),
    }
}

/// RFC 9110 section 5.1 `token` (a field name).
fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

fn expand_json(server: &str, path: &str, v: &Value, vars: &Vars) -> Result<Value, PoolError> {
    Ok(match v {
        Value::String(s) => Value::String(expand_field(server, path, s, vars)?),
        Value::Array(a) => Value::Array(
            a.iter()
                .enumerate()
                .map(|(i, x)| expand_json(server, &format!("{path}[{i}]"), x, vars))
                .collect::<Result<_, _>>()?,
        ),
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, x)| {
                    Ok((
                        k.clone(),
                        expand_json(server, &format!("{path}.{k}"), x, vars)?,
                    ))
                })
                .collect::<Result<_, PoolError>>()?,
        ),
        other => other.clone(),
    })
}

fn parse_server(
    name: &str,
    obj: &Map<String, Value>,
    vars: &Vars,
) -> Result<ServerConfig, PoolError> {
    let kind = string_field(name, obj, "type")?;
    let url = string_field(name, obj, "url")?;
    let command = string_field(name, obj, "command")?;
    let transport = match (url, command) {
        (Some(_), Some(_)) => {
            return Err(PoolError::InvalidTransport {
                server: name.into(),
                reason: "has both \"url\" and \"command\"; give one".into(),
            })
        }
        (None, None) => {
            return Err(PoolError::InvalidTransport {
                server: name.into(),
                reason: "has neither \"url\" (HTTP) nor \"command\" (stdio)".into(),
            })
        }
        (Some(u), None) => {
            if !matches!(
                kind,
                None | Some("http" | "streamable-http" | "streamableHttp" | "sse")
            ) {
                return Err(field_err(
                    name,
                    "type",
                    "does not match \"url\" (expected \"http\")",
                ));
            }
            let url = expand_field(name, "url", u, vars)?;
            normalize_url(&url).map_err(|why| field_err(name, "url", why))?;
            let headers = string_map(name, obj, "headers", vars)?;
            for (k, v) in &headers {
                let path = format!("headers.{k}");
                if !is_token(k) {
                    return Err(field_err(name, &path, "is not a valid header name"));
                }
                if v.contains(['\r', '\n', '\0']) {
                    return Err(field_err(
                        name,
                        &path,
                        "value contains a line break or NUL after expansion",
                    ));
                }
            }
            Transport::Http { url, headers }
        }
        (None, Some(c)) => {
            if !matches!(kind, None | Some("stdio")) {
                return Err(field_err(
                    name,
                    "type",
                    "does not match \"command\" (expected \"stdio\")",
                ));
            }
            let command = expand_field(name, "command", c, vars)?;
            if command.trim().is_empty() {
                return Err(field_err(name, "command", "is empty"));
            }
            let args = match obj.get("args") {
                None | Some(Value::Null) => Vec::new(),
                Some(Value::Array(a)) => a
                    .iter()
                    .enumerate()
                    .map(|(i, v)| {
                        let path = format!("args[{i}]");
                        match v {
                            Value::String(s) => expand_field(name, &path, s, vars),
                            _ => Err(field_err(name, &path, "must be a string")),
                        }
                    })
                    .collect::<Result<_, _>>()?,
                Some(_) => return Err(field_err(name, "args", "must be an array of strings")),
            };
            let mut env = string_map(name, obj, "env", vars)?;
            crate::util::order::sort_by(&mut env, Ord::cmp);
            Transport::Stdio { command, args, env }
        }
    };
    let auth = match obj.get("auth") {
        None | Some(Value::Null) => None,
        Some(v) => Some(expand_json(name, "auth", v, vars)?),
    };
    let category = match string_field(name, obj, "category")? {
        None => None,
        Some(s) => Some(Category::parse(s).ok_or_else(|| {
            field_err(
                name,
                "category",
                "must be \"read\", \"write\" or \"execute\"",
            )
        })?),
    };
    let auto_approve = match obj.get("autoApprove") {
        None | Some(Value::Null) | Some(Value::Bool(false)) => AutoApprove::None,
        Some(Value::Bool(true)) => AutoApprove::All,
        Some(Value::Array(a)) => AutoApprove::Tools(
            a.iter()
                .map(|v| v.as_str().map(str::to_string))
                .collect::<Option<_>>()
                .ok_or_else(|| {
                    field_err(name, "autoApprove", "must be true, false or tool names")
                })?,
        ),
        Some(_) => {
            return Err(field_err(
                name,
                "autoApprove",
                "must be true, false or tool names",
            ))
        }
    };
    let timeout = |field: &str| match obj.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_u64() {
            Some(t) if (1..=MAX_TIMEOUT_MS).contains(&t) => Ok(Some(t)),
            _ => Err(field_err(
                name,
                field,
                "must be an integer from 1 to 3600000",
            )),
        },
    };
    let timeout_ms = timeout("timeoutMs")?;
    let call_timeout_ms = timeout("callTimeoutMs")?;
    let protocol = match string_field(name, obj, "protocol")? {
        None | Some("auto") => ProtocolChoice::Auto,
        Some(v) if v == MODERN_VERSION || LEGACY_VERSIONS.contains(&v) => {
            ProtocolChoice::Exact(v.to_string())
        }
        Some(_) => {
            return Err(field_err(
                name,
                "protocol",
                "must be \"auto\" or a supported protocol version",
            ))
        }
    };
    Ok(ServerConfig {
        name: name.to_string(),
        transport,
        auth,
        category,
        auto_approve,
        timeout_ms,
        call_timeout_ms,
        protocol,
    })
}
