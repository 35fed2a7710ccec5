//! The part of RFC 3986 that `$id` and `$ref` need: splitting a URI reference and resolving it
//! against a base (§ 5.2.2 "Transform References", § 5.2.4 "Remove Dot Segments"). Nothing here
//! fetches anything.

/// The base URI of a document that declares no `$id` of its own (JSON Schema 2020-12 Core § 9.1.1
/// "Initial Base URI": an application-chosen default). It is hierarchical so that relative
/// references resolve the usual way, and it names no network location.
pub(crate) const DEFAULT_BASE: &str = "mcp-edge:///schema.json";

/// The five components of a URI reference (§ 3); `None` means absent, `Some("")` empty.
struct Parts<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

fn split(s: &str) -> Parts<'_> {
    let (rest, fragment) = match s.find('#') {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let (rest, query) = match rest.find('?') {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let scheme_end = rest.find(':').filter(|&i| {
        let head = &rest[..i];
        i > 0
            && !head.contains('/')
            && head.starts_with(|c: char| c.is_ascii_alphabetic())
            && head
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    });
    let (scheme, rest) = match scheme_end {
        Some(i) => (Some(&rest[..i]), &rest[i + 1..]),
        None => (None, rest),
    };
    let (authority, path) = match rest.strip_prefix("//") {
        Some(after) => {
            let end = after.find('/').unwrap_or(after.len());
            (Some(&after[..end]), &after[end..])
        }
        None => (None, rest),
    };
    Parts {
        scheme,
        authority,
        path,
        query,
        fragment,
    }
}

fn remove_dot_segments(path: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    let absolute = path.starts_with('/');
    let segments: Vec<&str> = path.split('/').collect();
    let last = segments.len().saturating_sub(1);
    let mut trailing_slash = false;
    for (i, seg) in segments.iter().enumerate() {
        match *seg {
            "." => trailing_slash = i == last,
            ".." => {
                if out.len() > usize::from(absolute) {
                    out.pop();
                }
                trailing_slash = i == last;
            }
            s => {
                out.push(s);
                trailing_slash = false;
            }
        }
    }
    let mut joined = out.join("/");
    if trailing_slash && !joined.ends_with('/') {
        joined.push('/');
    }
    if absolute && !joined.starts_with('/') {
        joined.insert(0, '/');
    }
    joined
}

fn merge(base: &Parts<'_>, reference: &str) -> String {
    if base.authority.is_some() && base.path.is_empty() {
        return format!("/{reference}");
    }
    match base.path.rfind('/') {
        Some(i) => format!("{}{}", &base.path[..=i], reference),
        None => reference.to_owned(),
    }
}

fn compose(
    scheme: Option<&str>,
    authority: Option<&str>,
    path: &str,
    query: Option<&str>,
    fragment: Option<&str>,
) -> String {
    let mut out = String::new();
    if let Some(s) = scheme {
        out.push_str(s);
        out.push(':');
    }
    if let Some(a) = authority {
        out.push_str("//");
        out.push_str(a);
    }
    out.push_str(path);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    if let Some(f) = fragment {
        out.push('#');
        out.push_str(f);
    }
    out
}

/// Resolves `reference` against the absolute URI `base` (RFC 3986 § 5.2.2, strict parser).
pub(crate) fn resolve(base: &str, reference: &str) -> String {
    let r = split(reference);
    let b = split(base);
    if r.scheme.is_some() {
        let path = remove_dot_segments(r.path);
        return compose(r.scheme, r.authority, &path, r.query, r.fragment);
    }
    if r.authority.is_some() {
        let path = remove_dot_segments(r.path);
        return compose(b.scheme, r.authority, &path, r.query, r.fragment);
    }
    if r.path.is_empty() {
        let query = r.query.or(b.query);
        return compose(b.scheme, b.authority, b.path, query, r.fragment);
    }
    let path = if r.path.starts_with('/') {
        remove_dot_segments(r.path)
    } else {
        remove_dot_segments(&merge(&b, r.path))
    };
    compose(b.scheme, b.authority, &path, r.query, r.fragment)
}

/// Splits an absolute URI into the part before `#` and the fragment (without `#`; empty when
/// absent).
pub(crate) fn split_fragment(uri: &str) -> (&str, &str) {
    match uri.find('#') {
        Some(i) => (&uri[..i], &uri[i + 1..]),
        None => (uri, ""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn rfc3986_examples() {
        // RFC 3986 § 5.4.1 "Normal Examples" (a selection).
        let base = "http://a/b/c/d;p?q";
        for (r, want) in [
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("#s", "http://a/b/c/d;p?q#s"),
            ("", "http://a/b/c/d;p?q"),
            ("..", "http://a/b/"),
            ("../g", "http://a/b/g"),
            ("../../g", "http://a/g"),
            ("g:h", "g:h"),
        ] {
            assert_eq!(resolve(base, r), want, "{r}");
        }
    }

    #[test]
    fn default_base() {
        assert_eq!(resolve(DEFAULT_BASE, "#/a"), "mcp-edge:///schema.json#/a");
        assert_eq!(
            resolve(DEFAULT_BASE, "other.json"),
            "mcp-edge:///other.json"
        );
        assert_eq!(split_fragment("x:y#/a"), ("x:y", "/a"));
    }
}
