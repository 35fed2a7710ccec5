//! UI resources (ext-apps `specification/2026-01-26/apps.mdx` "UI Resource Format"): the HTML a
//! `resources/read` of a `ui://` URI returns, its `_meta.ui`, and the Content-Security-Policy and
//! `allow` attribute a host builds from it.

use serde_json::{json, Map, Value};

use super::tool_ui::UI_SCHEME;
use super::AppError;

/// The extension identifier (ext-apps "Extension Identifier").
pub const UI_EXTENSION: &str = "io.modelcontextprotocol/ui";

/// The one content type a UI resource has ("`mimeType` MUST be `text/html;profile=mcp-app`").
pub const APP_MIME_TYPE: &str = "text/html;profile=mcp-app";

/// The settings the client declares for the extension ("Client (Host) Capabilities":
/// `mimeTypes` is required).
pub fn extension_settings() -> Value {
    json!({"mimeTypes": [APP_MIME_TYPE]})
}

/// The largest HTML document a view may have; a larger one is refused, not cut.
pub const MAX_HTML_BYTES: usize = 8 << 20;

/// The most sources one CSP list keeps; the rest are dropped with a diagnostic.
pub const MAX_SOURCES: usize = 64;

/// The origins a view declares, by directive (`_meta.ui.csp`), each already checked
/// ([`source_problem`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CspDomains {
    /// `connect-src` (fetch, XHR, WebSocket).
    pub connect: Vec<String>,
    /// `script-src`, `style-src`, `img-src`, `font-src`, `media-src`.
    pub resource: Vec<String>,
    /// `frame-src`.
    pub frame: Vec<String>,
    /// `base-uri`.
    pub base_uri: Vec<String>,
}

impl CspDomains {
    fn to_json(&self) -> Value {
        json!({
            "connectDomains": self.connect,
            "resourceDomains": self.resource,
            "frameDomains": self.frame,
            "baseUriDomains": self.base_uri,
        })
    }
}

/// The browser features a view asks for (`_meta.ui.permissions`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Permissions {
    /// `camera`.
    pub camera: bool,
    /// `microphone`.
    pub microphone: bool,
    /// `geolocation`.
    pub geolocation: bool,
    /// `clipboardWrite` (Permission Policy `clipboard-write`).
    pub clipboard_write: bool,
}

impl Permissions {
    fn parse(v: Option<&Value>) -> Permissions {
        let has = |k: &str| v.and_then(|p| p.get(k)).is_some_and(Value::is_object);
        Permissions {
            camera: has("camera"),
            microphone: has("microphone"),
            geolocation: has("geolocation"),
            clipboard_write: has("clipboardWrite"),
        }
    }

    fn to_json(self) -> Value {
        let mut m = Map::new();
        for (on, k) in [
            (self.camera, "camera"),
            (self.microphone, "microphone"),
            (self.geolocation, "geolocation"),
            (self.clipboard_write, "clipboardWrite"),
        ] {
            if on {
                m.insert(k.into(), json!({}));
            }
        }
        Value::Object(m)
    }

    /// The iframe's `allow` attribute: the Permission Policy features asked for, `; `-separated
    /// ("The `permissions` field maps to the inner iframe's `allow` attribute").
    pub fn allow_attribute(self) -> String {
        [
            (self.camera, "camera"),
            (self.microphone, "microphone"),
            (self.geolocation, "geolocation"),
            (self.clipboard_write, "clipboard-write"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, f)| *f)
        .collect::<Vec<_>>()
        .join("; ")
    }
}

/// A UI resource's `_meta.ui`, read and checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UiResourceMeta {
    /// The declared origins; `None` when `csp` is absent (the restrictive default applies).
    pub csp: Option<CspDomains>,
    /// The features asked for.
    pub permissions: Permissions,
    /// The dedicated origin asked for (host-dependent; reported, not acted on).
    pub domain: Option<String>,
    /// Whether the view wants a border and background from the host.
    pub prefers_border: Option<bool>,
}

/// Why a declared CSP source is refused, or `None` when it is a plain origin a policy may name:
/// `http(s)://` or `ws(s)://`, a host (optionally `*.` for subdomains) or a bracketed IPv6
/// address, an optional port and path, and none of the characters that would end the source or
/// the directive (`;`, `,`, quotes, white space). `*`, keywords (`'unsafe-eval'`) and bare schemes
/// are refused: each would allow origins the server did not name.
pub fn source_problem(source: &str) -> Option<&'static str> {
    if source.is_empty() || source.len() > 512 {
        return Some("empty or longer than 512 characters");
    }
    if source
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || matches!(c, ';' | ',' | '\'' | '"'))
    {
        return Some("contains white space, a quote, ';' or ','");
    }
    let Some((scheme, rest)) = source.split_once("://") else {
        return Some("not an origin (scheme://host)");
    };
    if !matches!(
        scheme.to_ascii_lowercase().as_str(),
        "http" | "https" | "ws" | "wss"
    ) {
        return Some("the scheme is not http, https, ws or wss");
    }
    let authority = rest.split('/').next().unwrap_or("");
    let host = if let Some(v6) = authority.strip_prefix('[') {
        match v6.split_once(']') {
            Some((addr, port)) if addr.chars().all(|c| c.is_ascii_hexdigit() || c == ':') => {
                return port_problem(port);
            }
            _ => return Some("a malformed IPv6 address"),
        }
    } else {
        match authority.rsplit_once(':') {
            Some((h, p)) => {
                if let Some(problem) = port_problem(&format!(":{p}")) {
                    return Some(problem);
                }
                h
            }
            None => authority,
        }
    };
    let host = host.strip_prefix("*.").unwrap_or(host);
    let label_ok = |l: &str| {
        !l.is_empty() && l.len() <= 63 && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    };
    if host.is_empty() || !host.split('.').all(label_ok) {
        return Some("the host is not a host name (a wildcard may only lead: *.example.com)");
    }
    None
}

fn port_problem(port: &str) -> Option<&'static str> {
    match port.strip_prefix(':') {
        None if port.is_empty() => None,
        Some("*") => None,
        Some(p) if !p.is_empty() && p.len() <= 5 && p.chars().all(|c| c.is_ascii_digit()) => None,
        _ => Some("the port is not a number"),
    }
}

impl UiResourceMeta {
    /// Reads `_meta.ui` (`ui` is that object). Refused sources and mistyped members are left out
    /// and described in `diagnostics`.
    pub fn parse(ui: Option<&Value>, diagnostics: &mut Vec<String>) -> UiResourceMeta {
        let Some(ui) = ui.filter(|u| u.is_object()) else {
            return UiResourceMeta::default();
        };
        let csp = ui.get("csp").filter(|c| !c.is_null()).map(|c| {
            let mut list = |key: &str| -> Vec<String> {
                let mut out = Vec::new();
                let Some(v) = c.get(key).filter(|v| !v.is_null()) else {
                    return out;
                };
                let Some(items) = v.as_array() else {
                    diagnostics.push(format!("csp.{key} is not an array; ignored"));
                    return out;
                };
                for item in items {
                    match item.as_str() {
                        Some(s) => match source_problem(s) {
                            None if out.len() < MAX_SOURCES => {
                                if !out.iter().any(|o| o == s) {
                                    out.push(s.to_string());
                                }
                            }
                            None => {
                                diagnostics.push(format!(
                                    "csp.{key}: more than {MAX_SOURCES} sources; {s:?} dropped"
                                ));
                            }
                            Some(why) => {
                                diagnostics.push(format!("csp.{key}: {s:?} refused: {why}"));
                            }
                        },
                        None => diagnostics.push(format!("csp.{key}: a non-string item ignored")),
                    }
                }
                out
            };
            CspDomains {
                connect: list("connectDomains"),
                resource: list("resourceDomains"),
                frame: list("frameDomains"),
                base_uri: list("baseUriDomains"),
            }
        });
        UiResourceMeta {
            csp,
            permissions: Permissions::parse(ui.get("permissions")),
            domain: ui.get("domain").and_then(Value::as_str).map(str::to_string),
            prefers_border: ui.get("prefersBorder").and_then(Value::as_bool),
        }
    }

    /// The Content-Security-Policy for the view (ext-apps "Host Behavior" and "CSP Construction
    /// from Metadata"): the restrictive default when no `csp` was declared; otherwise each
    /// directive gets the declared origins and nothing else. `connect-src` is `'none'` unless
    /// origins were declared (stricter than the example, which adds `'self'`: "Host MAY further
    /// restrict"); `object-src 'none'` always.
    pub fn content_security_policy(&self) -> String {
        let Some(csp) = &self.csp else {
            return "default-src 'none'; script-src 'self' 'unsafe-inline'; \
                    style-src 'self' 'unsafe-inline'; img-src 'self' data:; \
                    media-src 'self' data:; connect-src 'none'; frame-src 'none'; \
                    object-src 'none'; base-uri 'self'; form-action 'none'"
                .to_string();
        };
        let with = |base: &str, extra: &[String], empty: &str| {
            let mut parts: Vec<&str> = base.split(' ').filter(|s| !s.is_empty()).collect();
            parts.extend(extra.iter().map(String::as_str));
            if parts.is_empty() {
                empty.to_string()
            } else {
                parts.join(" ")
            }
        };
        let r = &csp.resource;
        [
            "default-src 'none'".to_string(),
            format!("script-src {}", with("'self' 'unsafe-inline'", r, "")),
            format!("style-src {}", with("'self' 'unsafe-inline'", r, "")),
            format!("img-src {}", with("'self' data:", r, "")),
            format!("font-src {}", with("'self'", r, "")),
            format!("media-src {}", with("'self' data:", r, "")),
            format!("connect-src {}", with("", &csp.connect, "'none'")),
            format!("frame-src {}", with("", &csp.frame, "'none'")),
            "object-src 'none'".to_string(),
            format!("base-uri {}", with("", &csp.base_uri, "'self'")),
            // A form may not carry the view off to an undeclared origin.
            "form-action 'none'".to_string(),
        ]
        .join("; ")
    }

    /// The `_meta.ui` members a sandbox proxy reads (`csp`, `permissions`), as checked here: a
    /// proxy that builds its own policy from them sees only the accepted sources.
    pub fn proxy_fields(&self) -> (Option<Value>, Value) {
        (
            self.csp.as_ref().map(CspDomains::to_json),
            self.permissions.to_json(),
        )
    }
}

/// A UI resource ready to render.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppResource {
    /// Its `ui://` URI.
    pub uri: String,
    /// The HTML document as the server sent it.
    pub html: String,
    /// `_meta.ui`: the list entry's, with the content item's members over it.
    pub meta: UiResourceMeta,
    /// What was refused or ignored while reading it.
    pub diagnostics: Vec<String>,
}

/// `a` with `b`'s members over it (one level: the content item's `csp` replaces the list entry's
/// whole, so a server can narrow a list entry's origins).
fn overlay(a: Option<&Value>, b: Option<&Value>) -> Option<Value> {
    match (a.and_then(Value::as_object), b.and_then(Value::as_object)) {
        (None, None) => None,
        (a, b) => {
            let mut m = a.cloned().unwrap_or_default();
            for (k, v) in b.into_iter().flatten() {
                m.insert(k.clone(), v.clone());
            }
            Some(Value::Object(m))
        }
    }
}

/// Whether `mime` is `text/html;profile=mcp-app` (type, subtype and parameter name compared
/// without case, white space around `;` ignored, other parameters allowed).
pub fn is_app_mime_type(mime: &str) -> bool {
    let mut parts = mime.split(';').map(str::trim);
    if !parts
        .next()
        .is_some_and(|e| e.eq_ignore_ascii_case("text/html"))
    {
        return false;
    }
    parts.any(|p| {
        p.split_once('=').is_some_and(|(k, v)| {
            k.trim().eq_ignore_ascii_case("profile") && v.trim().trim_matches('"') == "mcp-app"
        })
    })
}

/// Reads the view for `uri` out of a `resources/read` result (ext-apps "Content Requirements"):
/// the content item with that URI, the app MIME type, and `text` or base64 `blob` holding at most
/// [`MAX_HTML_BYTES`] of UTF-8. `list_entry` is the resource's `resources/list` item when the host
/// has one; its `_meta.ui` is the base the item's overrides.
pub fn read_app_resource(
    uri: &str,
    list_entry: Option<&Value>,
    result: &Value,
) -> Result<AppResource, AppError> {
    if !uri.starts_with(UI_SCHEME) {
        return Err(AppError::NotUiResource(uri.to_string()));
    }
    let contents = result
        .get("contents")
        .and_then(Value::as_array)
        .ok_or_else(|| AppError::InvalidResource("no \"contents\" array".into()))?;
    // "uri: Matching UI resource URI": an item for another URI is not this view.
    let item = contents
        .iter()
        .find(|c| c.get("uri").and_then(Value::as_str) == Some(uri))
        .ok_or_else(|| AppError::InvalidResource(format!("no content item for {uri}")))?;
    let mime = item.get("mimeType").and_then(Value::as_str).unwrap_or("");
    if !is_app_mime_type(mime) {
        return Err(AppError::WrongMimeType(mime.to_string()));
    }
    let html = match (item.get("text"), item.get("blob")) {
        (Some(Value::String(t)), _) => {
            if t.len() > MAX_HTML_BYTES {
                return Err(AppError::TooLarge(t.len()));
            }
            t.clone()
        }
        (_, Some(Value::String(b))) => {
            if b.len() / 4 * 3 > MAX_HTML_BYTES {
                return Err(AppError::TooLarge(b.len() / 4 * 3));
            }
            let bytes = crate::proto::headers::base64_decode(b)
                .ok_or_else(|| AppError::InvalidResource("\"blob\" is not base64".into()))?;
            String::from_utf8(bytes)
                .map_err(|_| AppError::InvalidResource("\"blob\" is not UTF-8".into()))?
        }
        _ => {
            return Err(AppError::InvalidResource(
                "the content item has neither \"text\" nor \"blob\"".into(),
            ))
        }
    };
    fn ui_of(v: Option<&Value>) -> Option<&Value> {
        v?.get("_meta")?.get("ui")
    }
    let merged = overlay(ui_of(list_entry), ui_of(Some(item)));
    let mut diagnostics = Vec::new();
    let meta = UiResourceMeta::parse(merged.as_ref(), &mut diagnostics);
    Ok(AppResource {
        uri: uri.to_string(),
        html,
        meta,
        diagnostics,
    })
}

/// `html` with the policy as its first `<meta http-equiv="Content-Security-Policy">`, after the
/// doctype when there is one. A policy in a meta element applies to everything parsed after it,
/// and a second policy the document adds can only narrow it (policies intersect), so the view
/// cannot loosen what the host set.
pub fn html_with_policy(html: &str, policy: &str) -> String {
    let escaped = policy
        .replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;");
    let tag = format!("<meta http-equiv=\"Content-Security-Policy\" content=\"{escaped}\">");
    let body = html.strip_prefix('\u{feff}').unwrap_or(html);
    let lead = body.len() - body.trim_start().len();
    let trimmed = &body[lead..];
    let doctype_end = if trimmed
        .get(..9)
        .is_some_and(|p| p.eq_ignore_ascii_case("<!doctype"))
    {
        trimmed.find('>').map(|i| lead + i + 1)
    } else {
        None
    };
    match doctype_end {
        Some(end) => format!("{}{tag}{}", &body[..end], &body[end..]),
        None => format!("{tag}{body}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_that_would_widen_or_break_the_policy_are_refused() {
        for ok in [
            "https://api.example.com",
            "https://*.example.com",
            "wss://rt.example.com:8443/path",
            "http://127.0.0.1:9000",
            "https://[::1]:443",
        ] {
            assert_eq!(source_problem(ok), None, "{ok}");
        }
        for bad in [
            "*",
            "https:",
            "'unsafe-eval'",
            "https://a.com; script-src *",
            "https://a.com/p;script-src",
            "https://a.com/p'unsafe-eval'",
            "https://a.com,https://b.com",
            "data:",
            "javascript://x",
            "https://exa*mple.com",
            "https://a.com:80x",
            "",
        ] {
            assert!(source_problem(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn policy_is_the_default_without_csp_and_only_declared_origins_with_it() {
        let d = UiResourceMeta::default().content_security_policy();
        assert!(d.starts_with("default-src 'none'; script-src 'self' 'unsafe-inline';"));
        assert!(d.contains("connect-src 'none'") && d.contains("object-src 'none'"));
        let mut diag = Vec::new();
        let m = UiResourceMeta::parse(
            Some(
                &json!({"csp": {"connectDomains": ["https://api.x.com", "https://a.com; x", 3],
                "resourceDomains": ["https://cdn.x.com"]},
                "permissions": {"camera": {}, "clipboardWrite": {}}, "prefersBorder": true}),
            ),
            &mut diag,
        );
        assert_eq!(diag.len(), 2, "{diag:?}");
        let p = m.content_security_policy();
        assert!(p.contains("connect-src https://api.x.com;"), "{p}");
        assert!(p.contains("script-src 'self' 'unsafe-inline' https://cdn.x.com;"));
        assert!(p.contains("frame-src 'none'") && p.contains("base-uri 'self'"));
        assert!(p.ends_with("form-action 'none'") && d.ends_with("form-action 'none'"));
        assert!(!p.contains("a.com"));
        assert_eq!(m.permissions.allow_attribute(), "camera; clipboard-write");
        assert_eq!(m.prefers_border, Some(true));
    }

    #[test]
    fn the_content_item_meta_wins_over_the_list_entry() {
        let entry = json!({"uri": "ui://s/v", "_meta": {"ui": {"prefersBorder": false,
            "csp": {"connectDomains": ["https://wide.example.com"]}}}});
        let result = json!({"contents": [{"uri": "ui://s/v", "mimeType": "text/html;profile=mcp-app",
            "text": "<p>hi</p>", "_meta": {"ui": {"csp": {"connectDomains": []}}}}]});
        let r = read_app_resource("ui://s/v", Some(&entry), &result).unwrap();
        assert_eq!(r.meta.prefers_border, Some(false));
        assert!(r
            .meta
            .content_security_policy()
            .contains("connect-src 'none'"));
        assert_eq!(r.html, "<p>hi</p>");
    }

    #[test]
    fn resources_are_checked() {
        let item = |mime: &str, body: Value| {
            let mut c = json!({"uri": "ui://s/v", "mimeType": mime});
            if let (Value::Object(c), Value::Object(b)) = (&mut c, body) {
                c.extend(b);
            }
            json!({ "contents": [c] })
        };
        let html = |r: Result<AppResource, AppError>| r.map(|a| a.html);
        assert_eq!(
            html(read_app_resource(
                "ui://s/v",
                None,
                &item(
                    "text/html; profile=\"mcp-app\"",
                    json!({"blob": "PGI+eDwvYj4="})
                )
            )),
            Ok("<b>x</b>".into())
        );
        assert!(matches!(
            read_app_resource("ui://s/v", None, &item("text/html", json!({"text": "x"}))),
            Err(AppError::WrongMimeType(_))
        ));
        assert!(matches!(
            read_app_resource(
                "https://x",
                None,
                &item(APP_MIME_TYPE, json!({"text": "x"}))
            ),
            Err(AppError::NotUiResource(_))
        ));
        assert!(matches!(
            read_app_resource(
                "ui://s/v",
                None,
                &item(APP_MIME_TYPE, json!({"blob": "%%"}))
            ),
            Err(AppError::InvalidResource(_))
        ));
        assert!(matches!(
            read_app_resource("ui://s/v", None, &json!({"contents": []})),
            Err(AppError::InvalidResource(_))
        ));
        let other =
            json!({"contents": [{"uri": "ui://s/other", "mimeType": APP_MIME_TYPE, "text": "x"}]});
        assert!(matches!(
            read_app_resource("ui://s/v", None, &other),
            Err(AppError::InvalidResource(_))
        ));
    }

    #[test]
    fn the_policy_goes_first_after_the_doctype() {
        let p = "default-src 'none'";
        assert_eq!(
            html_with_policy("<!DOCTYPE html><html><head></head></html>", p),
            "<!DOCTYPE html><meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'\"><html><head></head></html>"
        );
        assert!(html_with_policy("<p>x</p>", "a\"b").starts_with(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"a&quot;b\"><p>x</p>"
        ));
    }
}
