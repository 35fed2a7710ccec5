//! Redaction of credentials from what observers see (traffic inspectors, traces, logs).
//!
//! Headers that carry credentials (`Authorization`, `DPoP`, `Cookie`, `Proxy-Authorization`,
//! `Set-Cookie`), form and JSON members that carry OAuth secrets, and secret query parameters of
//! URLs (`code`, `state`, ...) are replaced by [`REDACTED`]. What stays
//! is enough to read the exchange: the scheme of an `Authorization` value, every other header
//! and member.

use serde_json::Value;

use super::secret::REDACTED;
use super::uri;
use crate::util::json::json_text;

/// Header names whose values are credentials (lowercase).
pub const SECRET_HEADERS: [&str; 6] = [
    "authorization",
    "proxy-authorization",
    "dpop",
    "cookie",
    "set-cookie",
    "x-api-key",
];

/// Form, query and JSON member names whose values are OAuth secrets.
pub const SECRET_FIELDS: [&str; 13] = [
    "access_token",
    "refresh_token",
    "id_token",
    "code",
    "code_verifier",
    "state",
    "client_secret",
    "assertion",
    "client_assertion",
    "subject_token",
    "actor_token",
    "registration_access_token",
    "password",
];

/// A header value as an observer may see it: `Authorization: Bearer [redacted]` keeps the
/// scheme; other credential headers are replaced whole.
pub fn header_value(name: &str, value: &str) -> String {
    let lower = name.to_ascii_lowercase();
    if lower == "location" {
        // A redirect back to the client carries the code and state.
        return url(value);
    }
    if !SECRET_HEADERS.contains(&lower.as_str()) {
        return value.to_string();
    }
    if lower.ends_with("authorization") {
        if let Some((scheme, _)) = value.split_once(' ') {
            return format!("{scheme} {REDACTED}");
        }
    }
    REDACTED.to_string()
}

/// Headers with credential values redacted.
pub fn headers(list: &[(String, String)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(k, v)| (k.clone(), header_value(k, v)))
        .collect()
}

/// A URL with secret query parameters redacted (the rest kept as written).
pub fn url(u: &str) -> String {
    let Some((base, rest)) = u.split_once('?') else {
        return u.to_string();
    };
    let (query, fragment) = match rest.split_once('#') {
        Some((q, f)) => (q, Some(f)),
        None => (rest, None),
    };
    let mut out = format!("{base}?{}", form_text(query));
    if let Some(f) = fragment {
        out.push('#');
        out.push_str(f);
    }
    out
}

/// A form body (or query) with secret members redacted.
pub fn form_text(body: &str) -> String {
    body.split('&')
        .map(|pair| match pair.split_once('=') {
            Some((k, _)) if SECRET_FIELDS.contains(&uri::form_decode(k).as_str()) => {
                format!("{k}={REDACTED}")
            }
            _ => pair.to_string(),
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// A body of any kind: JSON with secret members redacted at any depth, else a form.
pub fn body(text: &str) -> String {
    match serde_json::from_str::<Value>(text) {
        Ok(mut v) if v.is_object() || v.is_array() => {
            json(&mut v);
            json_text(&v)
        }
        _ if text.contains('=') && !text.contains(' ') => form_text(text),
        _ => text.to_string(),
    }
}

fn json(v: &mut Value) {
    match v {
        Value::Object(m) => {
            for (k, val) in m.iter_mut() {
                if SECRET_FIELDS.contains(&k.as_str()) && val.is_string() {
                    *val = Value::from(REDACTED);
                } else {
                    json(val);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(json),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_keep_schemes_and_hide_values() {
        assert_eq!(
            header_value("Authorization", "Bearer tok"),
            "Bearer [redacted]"
        );
        assert_eq!(
            header_value("authorization", "Basic YTpi"),
            "Basic [redacted]"
        );
        assert_eq!(header_value("DPoP", "eyJ.a.b"), REDACTED);
        assert_eq!(
            header_value("content-type", "application/json"),
            "application/json"
        );
    }

    #[test]
    fn bodies_and_urls() {
        assert_eq!(
            form_text("grant_type=authorization_code&code=abc&code_verifier=v&resource=r"),
            "grant_type=authorization_code&code=[redacted]&code_verifier=[redacted]&resource=r"
        );
        let b =
            body(r#"{"access_token":"A","token_type":"Bearer","nested":{"refresh_token":"R"}}"#);
        assert!(!b.contains("\"A\"") && !b.contains("\"R\"") && b.contains("Bearer"));
        assert_eq!(
            url("http://localhost/cb?code=c&state=s&iss=https%3A%2F%2Fas#f"),
            "http://localhost/cb?code=[redacted]&state=[redacted]&iss=https%3A%2F%2Fas#f"
        );
        assert_eq!(url("https://a/mcp"), "https://a/mcp");
        assert_eq!(body("plain text"), "plain text");
    }
}
