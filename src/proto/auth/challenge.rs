//! `WWW-Authenticate` parsing (RFC 9110 § 11.6.1, § 11.2; RFC 6750 § 3; RFC 9449 § 7.1).
//!
//! ```text
//! WWW-Authenticate = #challenge
//! challenge        = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
//! auth-param       = token BWS "=" BWS ( token / quoted-string )
//! ```
//!
//! One header may hold several challenges (`Bearer ..., DPoP ...`), and a comma separates both
//! parameters and challenges: a token that is not followed by `=` starts the next challenge.
//! Scheme and parameter names are case-insensitive (names are kept lowercase); quoted strings may
//! contain commas and `\`-escapes. Malformed input never fails the whole header: the parser skips
//! to the next comma and keeps what it understood. Bounded: at most [`MAX_CHALLENGES`] challenges
//! of at most [`MAX_PARAMS`] parameters, over at most [`MAX_HEADER_BYTES`] of input.

/// Most challenges kept from one header.
pub const MAX_CHALLENGES: usize = 16;
/// Most parameters kept per challenge.
pub const MAX_PARAMS: usize = 32;
/// Longest header value parsed (the rest is ignored).
pub const MAX_HEADER_BYTES: usize = 16 * 1024;

/// One challenge.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Challenge {
    /// The auth-scheme as sent (compare with [`Challenge::is`]).
    pub scheme: String,
    /// A token68 value, when the challenge carries one instead of parameters.
    pub token68: Option<String>,
    /// Parameters in order, names lowercase, values unquoted.
    pub params: Vec<(String, String)>,
}

impl Challenge {
    /// Whether the scheme is `scheme` (case-insensitive).
    pub fn is(&self, scheme: &str) -> bool {
        self.scheme.eq_ignore_ascii_case(scheme)
    }

    /// The first value of parameter `name` (give it lowercase).
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Parses every challenge of a `WWW-Authenticate` value. Several header lines may be joined with
/// `, ` before the call (RFC 9110 § 5.3).
pub fn parse(header: &str) -> Vec<Challenge> {
    let end = header.len().min(MAX_HEADER_BYTES);
    let mut p = Parser {
        s: &header.as_bytes()[..end],
        i: 0,
    };
    let mut out = Vec::new();
    loop {
        p.skip_separators();
        if p.at_end() || out.len() >= MAX_CHALLENGES {
            break;
        }
        let Some(scheme) = p.token() else {
            p.skip_past_comma();
            continue;
        };
        let mut challenge = Challenge {
            scheme: scheme.to_string(),
            ..Challenge::default()
        };
        p.skip_spaces();
        if let Some(t68) = p.token68() {
            challenge.token68 = Some(t68);
        } else {
            p.params(&mut challenge.params);
        }
        out.push(challenge);
    }
    out
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

fn is_token68_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~+/".contains(&b)
}

impl<'a> Parser<'a> {
    fn at_end(&self) -> bool {
        self.i >= self.s.len()
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn skip_spaces(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.i += 1;
        }
    }

    fn skip_separators(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b',')) {
            self.i += 1;
        }
    }

    /// Skips to just past the next comma outside a quoted string (error recovery).
    fn skip_past_comma(&mut self) {
        let mut quoted = false;
        while let Some(b) = self.peek() {
            self.i += 1;
            match b {
                b'\\' if quoted => self.i += 1,
                b'"' => quoted = !quoted,
                b',' if !quoted => return,
                _ => {}
            }
        }
    }

    fn token(&mut self) -> Option<&'a str> {
        let start = self.i;
        while self.peek().is_some_and(is_tchar) {
            self.i += 1;
        }
        (self.i > start)
            .then(|| std::str::from_utf8(&self.s[start..self.i]).ok())
            .flatten()
    }

    /// A token68 (`1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`) that ends the
    /// challenge; otherwise nothing is consumed.
    fn token68(&mut self) -> Option<String> {
        let start = self.i;
        let mut j = start;
        while self.s.get(j).copied().is_some_and(is_token68_char) {
            j += 1;
        }
        if j == start {
            return None;
        }
        while self.s.get(j) == Some(&b'=') {
            j += 1;
        }
        let mut k = j;
        while matches!(self.s.get(k), Some(b' ' | b'\t')) {
            k += 1;
        }
        // `name=value` is a parameter; a run that ends the challenge (end of input or a comma)
        // is a token68, padding or not.
        if !matches!(self.s.get(k), None | Some(b',')) {
            return None;
        }
        self.i = k;
        std::str::from_utf8(&self.s[start..j])
            .ok()
            .map(str::to_string)
    }

    fn quoted(&mut self) -> Option<String> {
        if self.peek() != Some(b'"') {
            return None;
        }
        self.i += 1;
        let mut out = Vec::new();
        while let Some(b) = self.peek() {
            self.i += 1;
            match b {
                b'"' => return Some(String::from_utf8_lossy(&out).into_owned()),
                b'\\' => {
                    if let Some(n) = self.peek() {
                        out.push(n);
                        self.i += 1;
                    }
                }
                _ => out.push(b),
            }
        }
        // Unterminated: keep what was read.
        Some(String::from_utf8_lossy(&out).into_owned())
    }

    /// `#auth-param`, stopping before a token that is not followed by `=` (the next scheme).
    fn params(&mut self, params: &mut Vec<(String, String)>) {
        loop {
            let save = self.i;
            self.skip_separators();
            if self.at_end() {
                return;
            }
            let Some(name) = self.token() else {
                self.skip_past_comma();
                continue;
            };
            self.skip_spaces();
            if self.peek() != Some(b'=') {
                // A new challenge begins here.
                self.i = save;
                self.skip_separators();
                return;
            }
            self.i += 1;
            self.skip_spaces();
            let name = name.to_ascii_lowercase();
            let value = match self.quoted() {
                Some(v) => Some(v),
                None => self.token().map(str::to_string),
            };
            match value {
                Some(v) if params.len() < MAX_PARAMS => params.push((name, v)),
                Some(_) => {}
                None => self.skip_past_comma(),
            }
        }
    }
}

/// What a 401/403 says, reduced to what the authorization flow uses (MCP 2026-07-28
/// `basic/authorization` "Scope Selection Strategy", "Scope Challenge Handling"; RFC 9449 § 7.1).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ChallengeInfo {
    /// `resource_metadata` from any challenge (Bearer or DPoP).
    pub resource_metadata: Option<String>,
    /// `scope`, when given.
    pub scope: Option<String>,
    /// `error` (`invalid_token`, `insufficient_scope`, `use_dpop_nonce`, ...).
    pub error: Option<String>,
    /// Whether the server offered the `DPoP` scheme.
    pub dpop: bool,
    /// Whether the server offered the `Bearer` scheme.
    pub bearer: bool,
}

impl ChallengeInfo {
    /// Summarises a header value: the `Bearer` and `DPoP` challenges' parameters, the first
    /// value of each winning.
    pub fn from_header(header: Option<&str>) -> Self {
        let mut info = ChallengeInfo::default();
        for c in parse(header.unwrap_or_default()) {
            let ours = if c.is("DPoP") {
                info.dpop = true;
                true
            } else if c.is("Bearer") {
                info.bearer = true;
                true
            } else {
                false
            };
            if !ours {
                continue;
            }
            if info.resource_metadata.is_none() {
                info.resource_metadata = c.param("resource_metadata").map(str::to_string);
            }
            if info.scope.is_none() {
                info.scope = c.param("scope").map(str::to_string);
            }
            if info.error.is_none() {
                info.error = c.param("error").map(str::to_string);
            }
        }
        info
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(c: &Challenge) -> Vec<(&str, &str)> {
        c.params
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect()
    }

    #[test]
    fn one_bearer_challenge_with_quoted_params() {
        let cs = parse(
            r#"Bearer error="invalid_token", resource_metadata="https://a.example/.well-known/oauth-protected-resource/mcp", scope="files:read files:write""#,
        );
        assert_eq!(cs.len(), 1);
        assert!(cs[0].is("bearer"));
        assert_eq!(
            params(&cs[0]),
            vec![
                ("error", "invalid_token"),
                (
                    "resource_metadata",
                    "https://a.example/.well-known/oauth-protected-resource/mcp"
                ),
                ("scope", "files:read files:write"),
            ]
        );
    }

    #[test]
    fn several_challenges_in_one_header() {
        let cs = parse(
            r#"Basic realm="x, y", DPoP algs="ES256 PS256", resource_metadata="https://r/m?a=1,2", Bearer realm=api"#,
        );
        let schemes: Vec<_> = cs.iter().map(|c| c.scheme.as_str()).collect();
        assert_eq!(schemes, vec!["Basic", "DPoP", "Bearer"]);
        assert_eq!(cs[0].param("realm"), Some("x, y"));
        assert_eq!(cs[1].param("resource_metadata"), Some("https://r/m?a=1,2"));
        assert_eq!(cs[2].param("realm"), Some("api"));
    }

    #[test]
    fn names_are_case_insensitive_and_escapes_unquoted() {
        let cs = parse(r#"BEARER Scope="a \"b\" \\c", Resource_Metadata = "u""#);
        assert!(cs[0].is("Bearer"));
        assert_eq!(cs[0].param("scope"), Some(r#"a "b" \c"#));
        assert_eq!(cs[0].param("resource_metadata"), Some("u"));
    }

    #[test]
    fn token68_and_bare_schemes() {
        let cs = parse("Negotiate abc123==, Bearer, Basic");
        assert_eq!(cs.len(), 3);
        assert_eq!(cs[0].token68.as_deref(), Some("abc123=="));
        assert!(cs[1].is("Bearer") && cs[1].params.is_empty());
        assert!(cs[2].is("Basic"));
        let cs = parse("Newauth abc");
        assert_eq!(cs[0].token68.as_deref(), Some("abc"));
        let cs = parse("Newauth abc, Bearer x=1");
        assert_eq!(cs[0].token68.as_deref(), Some("abc"));
        assert_eq!(cs[1].param("x"), Some("1"));
    }

    #[test]
    fn garbage_is_skipped_not_fatal() {
        let cs = parse(r#"=== , Bearer scope="s", "unterminated"#);
        assert!(cs
            .iter()
            .any(|c| c.is("Bearer") && c.param("scope") == Some("s")));
        assert!(parse("").is_empty());
        assert!(parse(" , ,, ").is_empty());
        let cs = parse(r#"Bearer realm="unterminated"#);
        assert_eq!(cs[0].param("realm"), Some("unterminated"));
    }

    #[test]
    fn bounded() {
        let many: Vec<String> = (0..100).map(|i| format!("S{i}")).collect();
        assert_eq!(parse(&many.join(", ")).len(), MAX_CHALLENGES);
        let params: Vec<String> = (0..100).map(|i| format!("p{i}=v")).collect();
        let cs = parse(&format!("Bearer {}", params.join(", ")));
        assert_eq!(cs[0].params.len(), MAX_PARAMS);
        let long = format!("Bearer scope=\"{}\"", "x".repeat(100_000));
        let cs = parse(&long);
        assert!(cs[0].param("scope").unwrap().len() < MAX_HEADER_BYTES);
    }

    #[test]
    fn info_reads_bearer_and_dpop_alike() {
        let i = ChallengeInfo::from_header(Some(
            r#"DPoP error="use_dpop_nonce", resource_metadata="https://s/prm""#,
        ));
        assert!(i.dpop && !i.bearer);
        assert_eq!(i.error.as_deref(), Some("use_dpop_nonce"));
        assert_eq!(i.resource_metadata.as_deref(), Some("https://s/prm"));
        let i = ChallengeInfo::from_header(Some(r#"Basic realm="r", Bearer scope="mcp:basic""#));
        assert_eq!(i.scope.as_deref(), Some("mcp:basic"));
        assert_eq!(i.resource_metadata, None);
        assert_eq!(ChallengeInfo::from_header(None), ChallengeInfo::default());
    }
}
