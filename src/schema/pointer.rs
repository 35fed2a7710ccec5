//! JSON Pointer (RFC 6901) building and lookup, and the percent-decoding a pointer needs when it is
//! carried in a URI fragment (RFC 6901 § 6, RFC 3986 § 2.1).

use serde_json::Value;

/// Appends one reference token to `base`, escaping `~` as `~0` and `/` as `~1` (RFC 6901 § 3).
pub(crate) fn push(base: &str, token: &str) -> String {
    let mut out = String::with_capacity(base.len() + token.len() + 1);
    out.push_str(base);
    out.push('/');
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
    out
}

/// Appends an array index to `base`.
pub(crate) fn push_index(base: &str, index: usize) -> String {
    format!("{base}/{index}")
}

/// Decodes `%XX` escapes (RFC 3986 § 2.1). `None` when an escape is malformed or the bytes are
/// not UTF-8.
pub(crate) fn percent_decode(s: &str) -> Option<String> {
    if !s.contains('%') {
        return Some(s.to_owned());
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            let hi = (hex[0] as char).to_digit(16)?;
            let lo = (hex[1] as char).to_digit(16)?;
            out.push((hi * 16 + lo) as u8);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Splits a pointer into unescaped reference tokens (RFC 6901 § 4: `~1` then `~0`). `None` when
/// the pointer is not empty and does not start with `/`, or holds a `~` not followed by `0`/`1`.
pub(crate) fn tokens(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    rest.split('/')
        .map(|raw| {
            let mut out = String::with_capacity(raw.len());
            let mut chars = raw.chars();
            while let Some(c) = chars.next() {
                if c == '~' {
                    match chars.next() {
                        Some('0') => out.push('~'),
                        Some('1') => out.push('/'),
                        _ => return None,
                    }
                } else {
                    out.push(c);
                }
            }
            Some(out)
        })
        .collect()
}

/// Evaluates `tokens` against `root` (RFC 6901 § 4): object members by name, array elements by a
/// decimal index without leading zeros. Also returns the normalised pointer of the target.
pub(crate) fn resolve<'v>(
    root: &'v Value,
    root_pointer: &str,
    tokens: &[String],
) -> Option<(&'v Value, String)> {
    let mut at = root;
    let mut pointer = root_pointer.to_owned();
    for token in tokens {
        at = match at {
            Value::Object(map) => map.get(token.as_str())?,
            Value::Array(items) => {
                let valid = !token.is_empty()
                    && token.bytes().all(|b| b.is_ascii_digit())
                    && (token == "0" || !token.starts_with('0'));
                if !valid {
                    return None;
                }
                items.get(token.parse::<usize>().ok()?)?
            }
            _ => return None,
        };
        pointer = push(&pointer, token);
    }
    Some((at, pointer))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn escapes_round_trip() {
        let p = push(&push("", "a/b"), "m~n");
        assert_eq!(p, "/a~1b/m~0n");
        assert_eq!(tokens(&p).unwrap(), vec!["a/b", "m~n"]);
        assert_eq!(tokens("/~01").unwrap(), vec!["~1"]);
        assert!(tokens("/~2").is_none());
        assert!(tokens("a").is_none());
    }

    #[test]
    fn percent() {
        assert_eq!(percent_decode("a%25b%22").unwrap(), "a%b\"");
        assert!(percent_decode("%zz").is_none());
        assert!(percent_decode("%4").is_none());
    }

    #[test]
    fn lookup() {
        let doc = json!({"a": [1, {"b": 2}], "": 3});
        let t = tokens("/a/1/b").unwrap();
        assert_eq!(resolve(&doc, "", &t).unwrap().0, &json!(2));
        assert!(resolve(&doc, "", &tokens("/a/01").unwrap()).is_none());
        assert_eq!(
            resolve(&doc, "", &tokens("/").unwrap()).unwrap().0,
            &json!(3)
        );
    }
}
