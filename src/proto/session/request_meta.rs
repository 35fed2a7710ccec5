//! Per-request `_meta` a host adds: W3C trace context and the request's log level.
//!
//! MCP 2026-07-28 `basic/index` "_meta" reserves `traceparent`, `tracestate` and `baggage`
//! (unprefixed, as an exception) for OpenTelemetry propagation, whose values "MUST follow W3C
//! Trace Context and W3C Baggage formats", and `io.modelcontextprotocol/logLevel` for the
//! minimum log level of one request (`server/utilities/logging`). A value that breaks its format
//! is refused before anything is sent.

use serde_json::{Map, Value};

use super::ProtocolError;

/// `_meta` key of a request's minimum log level (MCP 2026-07-28 `server/utilities/logging`).
pub const META_LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";

/// The syslog levels MCP logging uses (MCP `server/utilities/logging` "Log Levels").
const LOG_LEVELS: [&str; 8] = [
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];

/// Longest `tracestate` / `baggage` accepted: a bound of this client (W3C Trace Context § 3.3.1.1
/// caps `tracestate` at 32 members, not bytes; W3C Baggage § 3.3.1 sets 8192 bytes).
const MAX_TRACESTATE: usize = 8192;
const MAX_BAGGAGE: usize = 8192;

/// What a host adds to one request's `_meta`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RequestMeta {
    /// W3C `traceparent` (`00-<32 hex>-<16 hex>-<2 hex>`).
    pub traceparent: Option<String>,
    /// W3C `tracestate` (needs a `traceparent`).
    pub tracestate: Option<String>,
    /// W3C `baggage`.
    pub baggage: Option<String>,
    /// Minimum log level the server should emit for this request.
    pub log_level: Option<String>,
}

fn invalid(m: String) -> ProtocolError {
    ProtocolError::InvalidMeta(m)
}

fn is_lower_hex(s: &str) -> bool {
    s.bytes()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// W3C Trace Context § 3.2: `version-traceid-parentid-flags`, lowercase hex; version `ff`, an
/// all-zero trace id and an all-zero parent id are invalid. Version 00 has exactly four fields;
/// a later version may append fields after a `-` (§ 3.2.4), which are passed on.
pub fn check_traceparent(v: &str) -> Result<(), ProtocolError> {
    let bad = |why: &str| invalid(format!("traceparent {v:?}: {why}"));
    let parts: Vec<&str> = v.split('-').collect();
    if parts.len() < 4 {
        return Err(bad("expected version-traceid-parentid-flags"));
    }
    let (version, trace, parent, flags) = (parts[0], parts[1], parts[2], parts[3]);
    if version.len() != 2 || !is_lower_hex(version) || version == "ff" {
        return Err(bad(
            "the version must be two lowercase hex digits other than ff",
        ));
    }
    if version == "00" && parts.len() != 4 {
        return Err(bad("version 00 has exactly four fields"));
    }
    if trace.len() != 32 || !is_lower_hex(trace) || trace.bytes().all(|b| b == b'0') {
        return Err(bad(
            "the trace id must be 32 lowercase hex digits, not all zero",
        ));
    }
    if parent.len() != 16 || !is_lower_hex(parent) || parent.bytes().all(|b| b == b'0') {
        return Err(bad(
            "the parent id must be 16 lowercase hex digits, not all zero",
        ));
    }
    if flags.len() != 2 || !is_lower_hex(flags) {
        return Err(bad("the flags must be two lowercase hex digits"));
    }
    Ok(())
}

/// A header-like value: printable ASCII (W3C `tracestate` and `baggage` are HTTP header values
/// of that alphabet), within `max` bytes.
fn check_header_value(name: &str, v: &str, max: usize) -> Result<(), ProtocolError> {
    if v.len() > max {
        return Err(invalid(format!("{name} is longer than {max} bytes")));
    }
    if !v.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return Err(invalid(format!(
            "{name} may hold printable ASCII only (a W3C header value)"
        )));
    }
    Ok(())
}

/// W3C Trace Context § 3.3.1: list members `key=value` separated by commas (empty members
/// allowed), at most 32, keys unique. A key is `lcalpha` then up to 255 of `[a-z0-9_-*/]`, or
/// `tenant@system` of those; a value 1 to 256 printable characters other than `,` and `=`, not
/// ending in a space.
fn check_tracestate(v: &str) -> Result<(), ProtocolError> {
    check_header_value("tracestate", v, MAX_TRACESTATE)?;
    let members: Vec<&str> = v
        .split(',')
        .map(|m| m.trim_matches([' ', '\t']))
        .filter(|m| !m.is_empty())
        .collect();
    if members.len() > 32 {
        return Err(invalid("tracestate has more than 32 members".into()));
    }
    let key_char = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit() || b"_-*/".contains(&c);
    let key_ok = |k: &str| {
        let part_ok = |p: &str, first_alpha: bool| {
            let b = p.as_bytes();
            !b.is_empty()
                && b.len() <= 256
                && (if first_alpha {
                    b[0].is_ascii_lowercase()
                } else {
                    b[0].is_ascii_lowercase() || b[0].is_ascii_digit()
                })
                && b.iter().all(|c| key_char(*c))
        };
        match k.split_once('@') {
            None => part_ok(k, true),
            Some((tenant, system)) => part_ok(tenant, false) && part_ok(system, true),
        }
    };
    let value_ok = |v: &str| {
        let b = v.as_bytes();
        !b.is_empty()
            && b.len() <= 256
            && b[b.len() - 1] != b' '
            && b.iter()
                .all(|c| (0x20..0x7f).contains(c) && *c != b',' && *c != b'=')
    };
    let mut keys: Vec<&str> = Vec::new();
    for m in members {
        match m.split_once('=') {
            Some((k, val)) if key_ok(k) && value_ok(val) => {
                if keys.contains(&k) {
                    return Err(invalid(format!("tracestate names {k:?} twice")));
                }
                keys.push(k);
            }
            _ => return Err(invalid(format!("tracestate member {m:?} is not key=value"))),
        }
    }
    Ok(())
}

/// W3C Baggage § 3.3.1: members `key=value[;properties]` separated by commas; a key is an RFC 9110
/// token, a value `baggage-octet`s (printable ASCII but space, `"`, `,`, `;` and `\\`; others are
/// percent-encoded).
fn check_baggage(v: &str) -> Result<(), ProtocolError> {
    check_header_value("baggage", v, MAX_BAGGAGE)?;
    let token = |k: &str| {
        !k.is_empty()
            && k.bytes()
                .all(|c| c.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&c))
    };
    let octets = |v: &str| {
        v.bytes()
            .all(|c| (0x21..0x7f).contains(&c) && !b"\",;\\".contains(&c))
    };
    for m in v.split(',').map(|m| m.trim_matches([' ', '\t'])) {
        let kv = m.split(';').next().unwrap_or_default();
        match kv.split_once('=') {
            Some((k, val))
                if token(k.trim_matches([' ', '\t'])) && octets(val.trim_matches([' ', '\t'])) => {}
            _ => return Err(invalid(format!("baggage member {m:?} is not key=value"))),
        }
    }
    Ok(())
}

impl RequestMeta {
    /// Whether nothing is set.
    pub fn is_empty(&self) -> bool {
        *self == RequestMeta::default()
    }

    /// Checks every value against its format.
    pub fn validate(&self) -> Result<(), ProtocolError> {
        if let Some(t) = &self.traceparent {
            check_traceparent(t)?;
        }
        if let Some(t) = &self.tracestate {
            if self.traceparent.is_none() {
                return Err(invalid(
                    "tracestate without traceparent (W3C Trace Context § 3.3)".into(),
                ));
            }
            check_tracestate(t)?;
        }
        if let Some(b) = &self.baggage {
            check_baggage(b)?;
        }
        if let Some(l) = &self.log_level {
            if !LOG_LEVELS.contains(&l.as_str()) {
                return Err(invalid(format!(
                    "log level {l:?} is not one of {}",
                    LOG_LEVELS.join(", ")
                )));
            }
        }
        Ok(())
    }

    /// Checks the values and puts them into `params._meta` (keeping what the caller put there;
    /// a value set here replaces the caller's of the same key).
    pub(super) fn apply(&self, params: &mut Map<String, Value>) -> Result<(), ProtocolError> {
        if self.is_empty() {
            return Ok(());
        }
        self.validate()?;
        let meta = params
            .entry("_meta")
            .or_insert_with(|| Value::Object(Map::new()));
        let Value::Object(m) = meta else {
            return Err(invalid("params._meta must be an object".into()));
        };
        let pairs = [
            ("traceparent", &self.traceparent),
            ("tracestate", &self.tracestate),
            ("baggage", &self.baggage),
            (META_LOG_LEVEL, &self.log_level),
        ];
        for (k, v) in pairs {
            if let Some(v) = v {
                m.insert(k.into(), Value::from(v.clone()));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traceparent_follows_w3c() {
        let ok = "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01";
        assert!(check_traceparent(ok).is_ok());
        // A future version may carry more fields.
        assert!(check_traceparent(&format!("01-{}-extra", &ok[3..])).is_ok());
        for bad in [
            "",
            "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7",
            "ff-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
            "00-0AF7651916CD43DD8448EB211C80319C-00f067aa0ba902b7-01",
            "00-0af7651916cd43dd8448eb211c80319-00f067aa0ba902b7-01",
            "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01-x",
            "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-1",
        ] {
            assert!(
                matches!(check_traceparent(bad), Err(ProtocolError::InvalidMeta(_))),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn apply_puts_the_reserved_keys_and_refuses_bad_values() {
        let meta = RequestMeta {
            traceparent: Some("00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01".into()),
            tracestate: Some("congo=t61rcWkgMzE,rojo=00f067aa0ba902b7".into()),
            baggage: Some("userId=alice,serverNode=DF%2028;p=1".into()),
            log_level: Some("warning".into()),
        };
        let mut params = Map::new();
        params.insert("_meta".into(), serde_json::json!({"keep": 1}));
        meta.apply(&mut params).unwrap();
        let m = &params["_meta"];
        assert_eq!(m["keep"], 1);
        assert_eq!(m["traceparent"], meta.traceparent.clone().unwrap().as_str());
        assert_eq!(m["tracestate"], "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7");
        assert_eq!(m["baggage"], "userId=alice,serverNode=DF%2028;p=1");
        assert_eq!(m[META_LOG_LEVEL], "warning");

        let refuse = |m: RequestMeta| {
            let mut p = Map::new();
            assert!(matches!(
                m.apply(&mut p),
                Err(ProtocolError::InvalidMeta(_))
            ));
            assert!(p.is_empty(), "nothing is written for a refused value");
        };
        refuse(RequestMeta {
            log_level: Some("verbose".into()),
            ..Default::default()
        });
        refuse(RequestMeta {
            tracestate: Some("a=b".into()),
            ..Default::default()
        });
        refuse(RequestMeta {
            baggage: Some("no-equals".into()),
            ..Default::default()
        });
        refuse(RequestMeta {
            baggage: Some("k=\u{e9}".into()),
            ..Default::default()
        });
        let tp = || Some("00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01".to_string());
        for bad in ["a=b=c", "Upper=1", "k=v,k=w", "k=tab\tinside"] {
            refuse(RequestMeta {
                traceparent: tp(),
                tracestate: Some(bad.into()),
                ..Default::default()
            });
        }
        refuse(RequestMeta {
            baggage: Some("a key=v".into()),
            ..Default::default()
        });
        // Long but valid: 32 members of 200 bytes each is more than 512 and still W3C.
        let long: Vec<String> = (0..32)
            .map(|i| format!("k{i}={}", "v".repeat(200)))
            .collect();
        let ok = RequestMeta {
            traceparent: tp(),
            tracestate: Some(long.join(",")),
            baggage: Some("tenant=a%20b;prop".into()),
            ..Default::default()
        };
        assert!(ok.validate().is_ok());
        assert!(RequestMeta {
            traceparent: tp(),
            tracestate: Some("t@sys-1=v,x*y/z=w".into()),
            ..Default::default()
        }
        .validate()
        .is_ok());
    }
}
