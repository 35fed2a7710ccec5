//! Scope selection (MCP 2026-07-28 `basic/authorization` "Scope Selection Strategy", "Step-Up
//! Authorization Flow", "Refresh Tokens").

/// `offline_access`, the OpenID Connect scope for refresh tokens.
pub const OFFLINE_ACCESS: &str = "offline_access";

/// The scope of a first authorization: the challenge's `scope` when given, else every
/// `scopes_supported` of the resource metadata, else the configured fallback, else none (the
/// parameter is then omitted).
pub fn initial(
    challenged: Option<&str>,
    scopes_supported: Option<&[String]>,
    configured: Option<&str>,
) -> Option<String> {
    let pick = challenged
        .map(str::to_string)
        .or_else(|| scopes_supported.map(|s| s.join(" ")))
        .or_else(|| configured.map(str::to_string))?;
    normalise(&pick)
}

/// The scope of a step-up authorization: the union of what was requested before and what the
/// challenge asks for, in first-seen order ("computing the union of the client's previously
/// requested scope set and the scopes from the current challenge").
pub fn union(previous: Option<&str>, challenged: Option<&str>) -> Option<String> {
    let joined = format!(
        "{} {}",
        previous.unwrap_or_default(),
        challenged.unwrap_or_default()
    );
    normalise(&joined)
}

/// Adds `offline_access` when the client wants refresh tokens and the authorization server
/// lists the scope ("MAY add `offline_access` ... when the Authorization Server metadata
/// contains it in `scopes_supported`"; never otherwise).
pub fn with_offline_access(scope: Option<String>, wanted: bool, listed: bool) -> Option<String> {
    if !(wanted && listed) {
        return scope;
    }
    union(scope.as_deref(), Some(OFFLINE_ACCESS))
}

/// Space-separated, duplicates removed, order kept; `None` when empty.
fn normalise(s: &str) -> Option<String> {
    let mut out: Vec<&str> = Vec::new();
    for t in s.split_ascii_whitespace() {
        if !out.contains(&t) {
            out.push(t);
        }
    }
    (!out.is_empty()).then(|| out.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selection_priority() {
        let supported = vec!["a".to_string(), "b".to_string()];
        assert_eq!(
            initial(Some("x"), Some(&supported), Some("c")).as_deref(),
            Some("x")
        );
        assert_eq!(
            initial(None, Some(&supported), Some("c")).as_deref(),
            Some("a b")
        );
        assert_eq!(initial(None, None, Some("c")).as_deref(), Some("c"));
        assert_eq!(initial(None, None, None), None);
        assert_eq!(initial(Some("  "), None, None), None);
    }

    #[test]
    fn step_up_is_a_union() {
        assert_eq!(
            union(Some("mcp:basic"), Some("mcp:write")).as_deref(),
            Some("mcp:basic mcp:write")
        );
        assert_eq!(union(Some("a b"), Some("b c a")).as_deref(), Some("a b c"));
        assert_eq!(union(None, Some("x")).as_deref(), Some("x"));
        assert_eq!(union(None, None), None);
    }

    #[test]
    fn offline_access_only_when_listed() {
        assert_eq!(
            with_offline_access(Some("a".into()), true, true).as_deref(),
            Some("a offline_access")
        );
        assert_eq!(
            with_offline_access(Some("a".into()), true, false).as_deref(),
            Some("a")
        );
        assert_eq!(
            with_offline_access(Some("a".into()), false, true).as_deref(),
            Some("a")
        );
        assert_eq!(
            with_offline_access(None, true, true).as_deref(),
            Some("offline_access")
        );
    }
}
