//! URLs as strings: splitting, well-known URL construction, query and form encoding.
//!
//! Identifiers (issuer, `iss`, `resource`) are compared and sent as the exact strings received
//! (MCP 2026-07-28 `basic/authorization` "Authorization Response Validation": no case folding,
//! default-port elision, trailing-slash or percent-encoding normalization). A URL type that
//! re-serialises (`https://a.example` → `https://a.example/`) would break that, so this module
//! only slices strings (RFC 3986 § 3 component boundaries) and never rebuilds an identifier.

/// The components of an absolute URL, as slices of the original string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parts<'a> {
    /// `https` (as written).
    pub scheme: &'a str,
    /// `host[:port]` (as written, userinfo removed).
    pub authority: &'a str,
    /// The path, possibly empty, starting with `/` when present.
    pub path: &'a str,
    /// The query without `?`, if any.
    pub query: Option<&'a str>,
    /// The fragment without `#`, if any.
    pub fragment: Option<&'a str>,
}

/// Splits an absolute `http(s)` URL (RFC 3986 § 3). `None` for anything else.
pub fn split(url: &str) -> Option<Parts<'_>> {
    let (scheme, rest) = url.split_once("://")?;
    if scheme.is_empty()
        || !scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
    {
        return None;
    }
    let (before_fragment, fragment) = match rest.split_once('#') {
        Some((a, f)) => (a, Some(f)),
        None => (rest, None),
    };
    let (before_query, query) = match before_fragment.split_once('?') {
        Some((a, q)) => (a, Some(q)),
        None => (before_fragment, None),
    };
    let slash = before_query.find('/').unwrap_or(before_query.len());
    let (authority, path) = before_query.split_at(slash);
    let authority = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    if authority.is_empty() {
        return None;
    }
    Some(Parts {
        scheme,
        authority,
        path,
        query,
        fragment,
    })
}

/// `scheme://authority` of `url` as written, or `url` itself when it is not an absolute URL: the
/// key of the per-origin caches (the era detected for a server's origin, in JS and the component).
pub fn origin_or_whole(url: &str) -> String {
    split(url).map_or_else(|| url.to_string(), |p| p.origin())
}

impl Parts<'_> {
    /// `scheme://authority`, as written.
    pub fn origin(&self) -> String {
        format!("{}://{}", self.scheme, self.authority)
    }

    /// The path without one terminating `/` (RFC 8414 § 3.1: "any terminating `/` MUST be
    /// removed").
    pub fn trimmed_path(&self) -> &str {
        self.path.strip_suffix('/').unwrap_or(self.path)
    }

    /// Lowercased scheme, lowercased host, and the port (explicit, or the scheme's default), for
    /// comparing origins the way RFC 3986 § 6.2.3 allows for *locating* a server (never for
    /// comparing identifiers).
    fn origin_key(&self) -> (String, String, Option<u16>) {
        let scheme = self.scheme.to_ascii_lowercase();
        // `host:port`; an IPv6 literal keeps its colons inside `[...]`.
        let (host, port) = match self.authority.rsplit_once(':') {
            Some((h, p)) if !p.contains(']') => (h, p.parse::<u16>().ok()),
            _ => (self.authority, None),
        };
        let port = port.or(match scheme.as_str() {
            "https" => Some(443),
            "http" => Some(80),
            _ => None,
        });
        (scheme, host.to_ascii_lowercase(), port)
    }
}

/// `origin/.well-known/<suffix><path>` (RFC 8414 § 3.1, RFC 9728 § 3.1: the well-known segment
/// goes between the host and the path; a terminating `/` of the path is removed; query and
/// fragment are dropped).
pub fn well_known_inserted(parts: &Parts<'_>, suffix: &str) -> String {
    format!(
        "{}/.well-known/{suffix}{}",
        parts.origin(),
        parts.trimmed_path()
    )
}

/// `origin<path>/.well-known/<suffix>` (OpenID Connect Discovery 1.0 § 4: appended).
pub fn well_known_appended(parts: &Parts<'_>, suffix: &str) -> String {
    format!(
        "{}{}/.well-known/{suffix}",
        parts.origin(),
        parts.trimmed_path()
    )
}

/// Whether `resource` may be used for a server at `server_url` (RFC 9728 § 7.3 "the resource
/// value ... MUST be identical to the protected resource's resource identifier"; MCP servers are
/// commonly mounted under a path, so a resource that is the server's origin or a path prefix of
/// it at a segment boundary is accepted): same origin, and the resource path is a prefix of the
/// server path ending at `/` or at its end. A resource with a fragment is never valid (RFC 8707
/// § 2).
pub fn resource_covers(resource: &str, server_url: &str) -> bool {
    let (Some(r), Some(s)) = (split(resource), split(server_url)) else {
        return false;
    };
    if r.fragment.is_some() || r.origin_key() != s.origin_key() {
        return false;
    }
    let rp = r.trimmed_path();
    let sp = s.path;
    rp.is_empty()
        || sp == rp
        || sp
            .strip_prefix(rp)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// The canonical resource identifier of a server URL when no metadata names one: the URL
/// without its fragment (MCP 2026-07-28 `basic/authorization` "Canonical Server URI").
pub fn canonical_resource(server_url: &str) -> String {
    server_url
        .split_once('#')
        .map_or(server_url, |(a, _)| a)
        .to_string()
}

/// Whether a redirect URI points back at this machine (RFC 8252 § 7.3): the client is then a
/// `native` application in the sense of OpenID Connect Registration `application_type`.
pub fn is_loopback(url: &str) -> bool {
    let Some(p) = split(url) else {
        // A private-use scheme (`com.example.app:/cb`) is a native app too (RFC 8252 § 7.1).
        return url.contains(':') && !url.starts_with("http");
    };
    let host = p.origin_key().1;
    matches!(host.as_str(), "localhost" | "127.0.0.1" | "[::1]")
        || !matches!(p.scheme.to_ascii_lowercase().as_str(), "http" | "https")
}

/// Percent-encodes for `application/x-www-form-urlencoded` (WHATWG URL § 5.2: unreserved bytes
/// stay, space becomes `+`, everything else `%XX`).
pub fn form_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'*' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => {
                const HEX: &[u8; 16] = b"0123456789ABCDEF";
                out.push('%');
                out.push(HEX[usize::from(b >> 4)] as char);
                out.push(HEX[usize::from(b & 15)] as char);
            }
        }
    }
    out
}

/// Decodes one `application/x-www-form-urlencoded` component (`+` is a space; invalid `%`
/// sequences are kept as they are; invalid UTF-8 is replaced).
pub fn form_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = |b: u8| (b as char).to_digit(16);
                match (
                    bytes.get(i + 1).copied().and_then(hex),
                    bytes.get(i + 2).copied().and_then(hex),
                ) {
                    (Some(h), Some(l)) => {
                        out.push((h * 16 + l) as u8);
                        i += 2;
                    }
                    _ => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A form body or query string under construction (`application/x-www-form-urlencoded`, order
/// kept, encoded as it is built).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Form(String);

impl Form {
    /// An empty form.
    pub fn new() -> Self {
        Form(String::new())
    }
    /// Appends `name=value`.
    pub fn add(&mut self, name: &str, value: &str) -> &mut Self {
        if !self.0.is_empty() {
            self.0.push('&');
        }
        self.0.push_str(&form_encode(name));
        self.0.push('=');
        self.0.push_str(&form_encode(value));
        self
    }
    /// The encoded text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A form body or query string from name/value pairs (values encoded, order kept).
pub fn form(pairs: &[(&str, &str)]) -> String {
    let mut f = Form::new();
    for (k, v) in pairs {
        f.add(k, v);
    }
    f.0
}

/// Parses a query string or form body into decoded pairs, in order.
pub fn parse_form(s: &str) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    for p in s.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = p.split_once('=').unwrap_or((p, ""));
        pairs.push((form_decode(k), form_decode(v)));
    }
    pairs
}

/// The query parameters of a redirect back to the client: the query of `callback` when it is a
/// URL, or `callback` itself when it is already a parameter string (`code=...&state=...`, with
/// or without a leading `?`). A fragment is not read (the code flow uses the query, OAuth 2.1
/// § 4.1.2).
pub fn callback_params(callback: &str) -> Vec<(String, String)> {
    let query = match split(callback) {
        Some(p) => p.query.unwrap_or_default(),
        None => callback.strip_prefix('?').unwrap_or(callback),
    };
    parse_form(query)
}

/// `url` with `query` appended (`?` or `&`), keeping an existing query (OAuth 2.1 § 4.1.1: the
/// endpoint URI "MAY include a query component, which MUST be retained").
pub fn with_query(url: &str, query: &str) -> String {
    let base = url.split_once('#').map_or(url, |(b, _)| b);
    // Pushed, not `format!`ed: a `char` argument was the package's one use of `char`'s
    // `Display` (300 B of wasm, counted against OAuth's budget).
    let mut out = String::with_capacity(base.len() + 1 + query.len());
    out.push_str(base);
    out.push_str(if base.contains('?') { "&" } else { "?" });
    out.push_str(query);
    out
}

/// `url` without query and fragment (RFC 9449 § 4.2 `htu`).
pub fn without_query(url: &str) -> &str {
    let end = url.find(['?', '#']).unwrap_or(url.len());
    &url[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_without_normalising() {
        let p = split("HTTPS://User@Example.COM:8443/a/b/?q=1#f").unwrap();
        assert_eq!(p.scheme, "HTTPS");
        assert_eq!(p.authority, "Example.COM:8443");
        assert_eq!(p.path, "/a/b/");
        assert_eq!(p.trimmed_path(), "/a/b");
        assert_eq!(p.query, Some("q=1"));
        assert_eq!(p.fragment, Some("f"));
        assert_eq!(p.origin(), "HTTPS://Example.COM:8443");
        let p = split("http://localhost:1234").unwrap();
        assert_eq!((p.path, p.origin()), ("", "http://localhost:1234".into()));
        assert!(split("mcp.example.com").is_none());
        assert!(split("https:///x").is_none());
    }

    #[test]
    fn origin_cache_key_is_the_origin_as_written_or_the_whole_string() {
        assert_eq!(
            origin_or_whole("HTTPS://A.example:8443/mcp?x=1#f"),
            "HTTPS://A.example:8443"
        );
        assert_eq!(origin_or_whole("stdio:server"), "stdio:server");
    }

    #[test]
    fn well_known_urls() {
        let p = split("https://as.example/tenant1/").unwrap();
        assert_eq!(
            well_known_inserted(&p, "oauth-authorization-server"),
            "https://as.example/.well-known/oauth-authorization-server/tenant1"
        );
        assert_eq!(
            well_known_appended(&p, "openid-configuration"),
            "https://as.example/tenant1/.well-known/openid-configuration"
        );
        let p = split("https://mcp.example/public/mcp?x=1").unwrap();
        assert_eq!(
            well_known_inserted(&p, "oauth-protected-resource"),
            "https://mcp.example/.well-known/oauth-protected-resource/public/mcp"
        );
    }

    #[test]
    fn resource_coverage() {
        let s = "https://mcp.example.com/server/mcp";
        assert!(resource_covers("https://mcp.example.com/server/mcp", s));
        assert!(resource_covers("https://mcp.example.com/server", s));
        assert!(resource_covers("https://mcp.example.com/server/", s));
        assert!(resource_covers("https://mcp.example.com", s));
        assert!(resource_covers("HTTPS://MCP.example.com:443/server", s));
        assert!(!resource_covers("https://mcp.example.com/serv", s));
        assert!(!resource_covers("https://mcp.example.com/server/mcp/x", s));
        assert!(!resource_covers("https://evil.example.com/server/mcp", s));
        assert!(!resource_covers("http://mcp.example.com/server/mcp", s));
        assert!(!resource_covers(
            "https://mcp.example.com:8443/server/mcp",
            s
        ));
        assert!(!resource_covers("https://mcp.example.com/server#f", s));
        assert!(!resource_covers("not a url", s));
        assert!(resource_covers(
            "http://localhost:3000",
            "http://localhost:3000/mcp"
        ));
    }

    #[test]
    fn form_round_trip() {
        let v = "a b&c=d/é+%";
        assert_eq!(form_encode(v), "a+b%26c%3Dd%2F%C3%A9%2B%25");
        assert_eq!(form_decode(&form_encode(v)), v);
        assert_eq!(form_decode("%zz%4"), "%zz%4");
        assert_eq!(
            parse_form("code=x%2Fy&state=s+t&iss=https%3A%2F%2Fa&flag"),
            vec![
                ("code".into(), "x/y".into()),
                ("state".into(), "s t".into()),
                ("iss".into(), "https://a".into()),
                ("flag".into(), String::new()),
            ]
        );
    }

    #[test]
    fn callback_forms() {
        let want = vec![("code".to_string(), "c".to_string())];
        assert_eq!(callback_params("http://localhost:3000/cb?code=c"), want);
        assert_eq!(callback_params("?code=c"), want);
        assert_eq!(callback_params("code=c"), want);
        assert_eq!(callback_params("http://localhost/cb?code=c#frag"), want);
    }

    #[test]
    fn query_append_and_strip() {
        assert_eq!(
            with_query("https://a/authorize", "x=1"),
            "https://a/authorize?x=1"
        );
        assert_eq!(
            with_query("https://a/authorize?t=2", "x=1"),
            "https://a/authorize?t=2&x=1"
        );
        assert_eq!(without_query("https://a/mcp?x=1#f"), "https://a/mcp");
        assert!(is_loopback("http://127.0.0.1:8080/cb"));
        assert!(is_loopback("http://localhost/cb"));
        assert!(is_loopback("com.example.app:/oauth"));
        assert!(!is_loopback("https://app.example/cb"));
    }
}
