//! Which configured servers may run: a deny list, then an allow list.
//!
//! Rules match by server name, by URL pattern, or by command:
//! - **deny wins**: a server matching any deny rule is refused, whatever the allow list says;
//! - an **absent** allow list allows every server not denied;
//! - an **empty** allow list allows none;
//! - a non-empty allow list allows exactly the servers one of its rules matches.
//!
//! Patterns (names and URLs) are globs where `*` matches any run of characters (including none
//! and including `/`); every other character is literal — no regular-expression syntax is
//! interpreted, so `.`, `?`, `+`, `(` ... in a pattern match only themselves. URL patterns are
//! matched against the normalised URL ([`super::config::normalize_url`]: lower-case scheme and
//! host, no default port, no fragment), so write the scheme and host in lower case.
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::config::{normalize_url, ServerConfig, Transport};
use super::error::PoolError;

/// One rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Rule {
    /// Matches the server's name (glob).
    ServerName(String),
    /// Matches the normalised URL of an HTTP server (glob).
    ServerUrl(String),
    /// Matches a stdio server: a one-element rule matches the command whatever its arguments;
    /// a longer rule matches `[command, args...]` exactly.
    ServerCommand(Vec<String>),
}

impl Rule {
    /// Reads a rule: a bare string is a name pattern; otherwise an object with exactly one of
    /// `serverName`, `serverUrl`, `serverCommand` (a string or an array of strings).
    pub fn from_value(v: &Value) -> Result<Rule, PoolError> {
        let bad = || {
            PoolError::InvalidOption(
            "a policy rule is a name string or an object with one of serverName, serverUrl, serverCommand".into(),
        )
        };
        match v {
            Value::String(s) => Ok(Rule::ServerName(s.clone())),
            Value::Object(m) if m.len() == 1 => {
                let (k, v) = m.iter().next().ok_or_else(bad)?;
                match (k.as_str(), v) {
                    ("serverName", Value::String(s)) => Ok(Rule::ServerName(s.clone())),
                    ("serverUrl", Value::String(s)) => Ok(Rule::ServerUrl(s.clone())),
                    ("serverCommand", Value::String(s)) => Ok(Rule::ServerCommand(vec![s.clone()])),
                    ("serverCommand", Value::Array(a)) if !a.is_empty() => a
                        .iter()
                        .map(|x| x.as_str().map(str::to_string).ok_or_else(bad))
                        .collect::<Result<_, _>>()
                        .map(Rule::ServerCommand),
                    _ => Err(bad()),
                }
            }
            _ => Err(bad()),
        }
    }

    /// Whether the rule matches this server.
    pub fn matches(&self, server: &ServerConfig) -> bool {
        match (self, &server.transport) {
            (Rule::ServerName(p), _) => glob_match(p, &server.name),
            (Rule::ServerUrl(p), Transport::Http { url, .. }) => match normalize_url(url) {
                Ok(n) => glob_match(p, &n),
                Err(_) => glob_match(p, url),
            },
            (Rule::ServerCommand(rule), Transport::Stdio { command, args, .. }) => {
                match rule.split_first() {
                    Some((c, [])) => c == command,
                    Some((c, rest)) => c == command && rest == args.as_slice(),
                    None => false,
                }
            }
            _ => false,
        }
    }

    /// The rule as the user wrote it, for error messages.
    pub fn describe(&self) -> String {
        match self {
            Rule::ServerName(p) => format!("serverName {p:?}"),
            Rule::ServerUrl(p) => format!("serverUrl {p:?}"),
            Rule::ServerCommand(c) => format!("serverCommand {c:?}"),
        }
    }
}

/// The deny and allow lists.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Policy {
    /// Refused servers (checked first; deny wins).
    pub denied: Vec<Rule>,
    /// `None`: every server not denied is allowed. `Some(empty)`: none is.
    pub allowed: Option<Vec<Rule>>,
}

impl Policy {
    /// Reads `{"denied": [rule...], "allowed": [rule...]}`; both members optional.
    pub fn from_value(v: &Value) -> Result<Policy, PoolError> {
        let Value::Object(m) = v else {
            return Err(PoolError::InvalidOption(
                "the policy must be an object".into(),
            ));
        };
        let list = |key: &str| -> Result<Option<Vec<Rule>>, PoolError> {
            match m.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::Array(a)) => a
                    .iter()
                    .map(Rule::from_value)
                    .collect::<Result<_, _>>()
                    .map(Some),
                Some(_) => Err(PoolError::InvalidOption(format!(
                    "policy.{key} must be an array"
                ))),
            }
        };
        Ok(Policy {
            denied: list("denied")?.unwrap_or_default(),
            allowed: list("allowed")?,
        })
    }

    /// Decides for one server: `Err(Denied)` when a deny rule matches, `Err(NotAllowed)` when an
    /// allow list exists and no rule in it matches.
    pub fn check(&self, server: &ServerConfig) -> Result<(), PoolError> {
        if let Some(rule) = self.denied.iter().find(|r| r.matches(server)) {
            return Err(PoolError::Denied {
                server: server.name.clone(),
                rule: rule.describe(),
            });
        }
        match &self.allowed {
            None => Ok(()),
            Some(list) if list.iter().any(|r| r.matches(server)) => Ok(()),
            Some(_) => Err(PoolError::NotAllowed {
                server: server.name.clone(),
            }),
        }
    }
}

/// Glob match where `*` matches any run of characters and everything else is literal.
///
/// Greedy with single backtracking point (the classic wildcard algorithm): O(|pattern| x |text|)
/// in the worst case, no recursion, no allocation beyond the char vectors.
pub fn glob_match(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ti));
            pi += 1;
        } else if pi < p.len() && p[pi] == t[ti] {
            pi += 1;
            ti += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}
