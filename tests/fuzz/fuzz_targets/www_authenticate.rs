//! Fuzzes the `WWW-Authenticate` parser, `proto::auth::challenge` (RFC 9110 § 11.6.1, RFC 6750
//! § 3, RFC 9449 § 7.1).
//!
//! Properties checked, for any input (text or not):
//! - `parse` never panics and stays within its bounds (challenges, parameters per challenge);
//! - every scheme is a non-empty token and every parameter name is a lowercase token;
//! - a challenge built from parsed parts and printed back (quoted values, escaped) parses to the
//!   same schemes and parameters: quoting and escaping round-trip;
//! - `ChallengeInfo::from_header` never panics and only reports values that a Bearer or DPoP
//!   challenge of the input carried.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_edge::proto::auth::challenge::{parse, ChallengeInfo, MAX_CHALLENGES, MAX_PARAMS};

fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

fn quote(v: &str) -> String {
    let mut out = String::from("\"");
    for c in v.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

fuzz_target!(|input: &[u8]| {
    let text = String::from_utf8_lossy(input);
    let challenges = parse(&text);
    assert!(challenges.len() <= MAX_CHALLENGES);
    for c in &challenges {
        assert!(is_token(&c.scheme), "scheme {:?}", c.scheme);
        assert!(c.params.len() <= MAX_PARAMS);
        for (k, _) in &c.params {
            assert!(is_token(k) && *k == k.to_ascii_lowercase(), "name {k:?}");
        }
    }
    // Round trip through a canonical rendering (parameters only; token68 values aside).
    let rendered: Vec<String> = challenges
        .iter()
        .filter(|c| c.token68.is_none() && !c.params.is_empty())
        .map(|c| {
            let params: Vec<String> = c
                .params
                .iter()
                .filter(|(_, v)| !v.contains(['\r', '\n']))
                .map(|(k, v)| format!("{k}={}", quote(v)))
                .collect();
            format!("{} {}", c.scheme, params.join(", "))
        })
        .collect();
    let again = parse(&rendered.join(", "));
    let expect: Vec<_> = challenges
        .iter()
        .filter(|c| c.token68.is_none() && !c.params.is_empty())
        .collect();
    if rendered.join(", ").len() < 16 * 1024
        && expect
            .iter()
            .all(|c| c.params.iter().all(|(_, v)| !v.contains(['\r', '\n'])))
    {
        assert_eq!(again.len(), expect.len(), "{rendered:?}");
        for (a, b) in again.iter().zip(expect) {
            assert!(a.scheme.eq_ignore_ascii_case(&b.scheme));
            assert_eq!(a.params, b.params);
        }
    }
    let info = ChallengeInfo::from_header(Some(&text));
    if let Some(rm) = &info.resource_metadata {
        assert!(challenges.iter().any(|c| (c.is("Bearer") || c.is("DPoP"))
            && c.param("resource_metadata") == Some(rm.as_str())));
    }
});
