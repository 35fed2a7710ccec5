//! CORS diagnosis, pure part: which request headers force a preflight and what the server must
//! answer (WHATWG Fetch § 3.2 "CORS protocol", § 2.2.2 "CORS-safelisted request-header",
//! § 4.8 "CORS-preflight fetch").
//!
//! A cross-origin fetch that the server does not allow rejects with an opaque `TypeError` that says
//! nothing about why. The wasm side (`fetch.rs`) decides *whether* a failure happened cross-origin in
//! a browser-like scope; this module turns the request into an actionable message. No I/O here,
//! so it is unit-tested natively.

/// The header names the client needs readable on responses: the server must list them in
/// `Access-Control-Expose-Headers` (WHATWG Fetch § 3.2.3 "HTTP responses"; only CORS-safelisted
/// response headers are readable without it). `mcp-session-id` is the 2025-era session
/// (MCP `basic/transports` "Session Management"); `www-authenticate` carries the OAuth
/// challenge (MCP `basic/authorization`, RFC 9728 § 5.1).
pub const EXPOSE_HEADERS: [&str; 2] = ["mcp-session-id", "www-authenticate"];

/// Upper bound on the total length of safelisted header values before they stop counting as
/// safelisted (WHATWG Fetch § 2.2.2 "CORS-unsafe request-header names", step 4).
const SAFELISTED_TOTAL_LIMIT: usize = 1024;

/// Upper bound on one safelisted header value (WHATWG Fetch § 2.2.2 "CORS-safelisted
/// request-header", step 1).
const SAFELISTED_VALUE_LIMIT: usize = 128;

/// Whether `method` is a CORS-safelisted method (WHATWG Fetch § 2.2.1): `GET`, `HEAD`, `POST`.
/// Any other method (the 2025-era `DELETE`) needs a preflight and `Access-Control-Allow-Methods`.
pub fn is_safelisted_method(method: &str) -> bool {
    matches!(method, "GET" | "HEAD" | "POST")
}

/// A CORS-unsafe request-header byte (WHATWG Fetch § 2.2.2): a control byte other than tab,
/// one of `"():<>?@[\]{}`, or DEL.
fn is_unsafe_byte(b: u8) -> bool {
    (b < 0x20 && b != b'\t') || b == 0x7f || b"\"():<>?@[\\]{}".contains(&b)
}

/// The essence (type/subtype, lowercase) of a MIME type value, parameters dropped.
fn mime_essence(value: &str) -> String {
    value
        .split(';')
        .next()
        .unwrap_or("")
        .trim_matches(|c: char| c == ' ' || c == '\t')
        .to_ascii_lowercase()
}

/// Whether one `(name, value)` pair is a CORS-safelisted request-header (WHATWG Fetch § 2.2.2).
/// `name` is compared case-insensitively.
pub fn is_safelisted_request_header(name: &str, value: &str) -> bool {
    if value.len() > SAFELISTED_VALUE_LIMIT {
        return false;
    }
    let bytes = value.as_bytes();
    match name.to_ascii_lowercase().as_str() {
        "accept" => !bytes.iter().any(|&b| is_unsafe_byte(b)),
        "accept-language" | "content-language" => bytes
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b" *,-.;=".contains(&b)),
        "content-type" => {
            !bytes.iter().any(|&b| is_unsafe_byte(b))
                && matches!(
                    mime_essence(value).as_str(),
                    "application/x-www-form-urlencoded" | "multipart/form-data" | "text/plain"
                )
        }
        "range" => is_simple_range(value),
        _ => false,
    }
}

/// A simple range header value: `bytes=<digits>-[<digits>]` (WHATWG Fetch § 2.2.2, "simple range
/// header value", single range, start present).
fn is_simple_range(value: &str) -> bool {
    let Some(rest) = value.strip_prefix("bytes=") else {
        return false;
    };
    let Some((start, end)) = rest.split_once('-') else {
        return false;
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    !start.is_empty() && digits(start) && digits(end)
}

/// The CORS-unsafe request-header names of a request (WHATWG Fetch § 2.2.2 "CORS-unsafe
/// request-header names"): the names the server must list in `Access-Control-Allow-Headers`.
/// Lowercase, sorted, without duplicates.
pub fn unsafe_header_names(headers: &[(String, String)]) -> Vec<String> {
    let mut unsafe_names = Vec::new();
    let mut safelisted = Vec::new();
    let mut safelisted_total = 0usize;
    for (name, value) in headers {
        let lower = name.to_ascii_lowercase();
        if is_safelisted_request_header(&lower, value) {
            safelisted_total += value.len();
            safelisted.push(lower);
        } else {
            unsafe_names.push(lower);
        }
    }
    if safelisted_total > SAFELISTED_TOTAL_LIMIT {
        unsafe_names.extend(safelisted);
    }
    crate::util::order::sort_by_str(&mut unsafe_names, |n| n);
    unsafe_names.dedup();
    unsafe_names
}

/// Builds the diagnosis for a cross-origin request that failed without a readable response.
///
/// `page_origin` is the origin of the calling scope (`globalThis.location.origin`), `url` the
/// request URL, `method` the request method and `headers` the headers the request carried.
/// The text names the headers to allow (only those this request needed, so it is accurate for
/// this request), the headers to expose, and the fix. `oauth`: the request went to an
/// authorization server (metadata, registration, token), whose fix differs from an MCP server's.
pub fn diagnose(
    page_origin: &str,
    url: &str,
    method: &str,
    headers: &[(String, String)],
    oauth: bool,
) -> String {
    let allow = unsafe_header_names(headers);
    let needs_preflight = !allow.is_empty() || !is_safelisted_method(method);
    let mut text = format!(
        "{method} {url} from origin {page_origin} failed before any response was readable. \
         The request is cross-origin, so the browser enforces CORS, and a CORS rejection looks \
         exactly like this (a server that is down or unreachable does too). "
    );
    if needs_preflight {
        text.push_str(&format!(
            "This request needs a preflight: the server must answer OPTIONS on that URL with a \
             2xx status, `Access-Control-Allow-Origin: {page_origin}`"
        ));
        if !is_safelisted_method(method) {
            text.push_str(&format!(", `Access-Control-Allow-Methods: {method}`"));
        }
        if !allow.is_empty() {
            text.push_str(&format!(
                " and `Access-Control-Allow-Headers: {}`",
                allow.join(", ")
            ));
        }
        text.push_str(". ");
    }
    if oauth {
        text.push_str(&format!(
            "The response to this authorization-server request must carry \
             `Access-Control-Allow-Origin: {page_origin}` (many authorization servers send none \
             on their token and registration endpoints), and `Access-Control-Expose-Headers: \
             dpop-nonce` where the server uses DPoP nonces. "
        ));
    } else {
        text.push_str(&format!(
            "Every response (including errors and event streams) must carry \
             `Access-Control-Allow-Origin: {page_origin}` (with `Vary: Origin` if reflected) and \
             `Access-Control-Expose-Headers: {}`, or the client cannot read the session id or an \
             auth challenge. ",
            EXPOSE_HEADERS.join(", ")
        ));
    }
    if page_origin == "null" {
        text.push_str(
            "The page has an opaque origin (`null`: opened from a file or a sandboxed frame); \
             serve it over http(s) instead of allowing the `null` origin. ",
        );
    }
    if oauth {
        text.push_str(
            "Fix: enable CORS on the authorization server for this origin, or send OAuth \
             traffic through an app proxy or an edge relay with the `auth.fetch` option.",
        );
        return text;
    }
    text.push_str(
        "Fix: enable CORS on the MCP server for this origin with those headers (list them \
         explicitly: a `*` wildcard does not cover `authorization` and is ignored for credentialed \
         requests), or reach the server through a same-origin proxy or an edge relay.",
    );
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn mcp_post_headers_are_unsafe_accept_is_safe() {
        let headers = h(&[
            ("accept", "application/json, text/event-stream"),
            ("content-type", "application/json"),
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "add"),
            ("mcp-param-region", "eu"),
            ("Authorization", "Bearer x"),
        ]);
        assert_eq!(
            unsafe_header_names(&headers),
            vec![
                "authorization",
                "content-type",
                "mcp-method",
                "mcp-name",
                "mcp-param-region",
                "mcp-protocol-version"
            ]
        );
    }

    #[test]
    fn content_type_safelist_follows_the_mime_essence() {
        assert!(is_safelisted_request_header(
            "Content-Type",
            "text/plain; charset=utf-8"
        ));
        assert!(!is_safelisted_request_header(
            "content-type",
            "application/json"
        ));
        assert!(!is_safelisted_request_header(
            "content-type",
            "text/plain; a=\"b\""
        ));
    }

    #[test]
    fn value_rules_and_limits() {
        assert!(!is_safelisted_request_header("accept", "a(b)"));
        assert!(!is_safelisted_request_header("accept", &"a".repeat(129)));
        assert!(is_safelisted_request_header(
            "accept-language",
            "en-GB, de;q=0.5"
        ));
        assert!(!is_safelisted_request_header("accept-language", "en/GB"));
        assert!(is_safelisted_request_header("range", "bytes=0-"));
        assert!(!is_safelisted_request_header("range", "bytes=-5"));
        assert!(!is_safelisted_request_header("last-event-id", "7"));
        // Many safelisted values together exceed 1024 bytes: all become unsafe.
        let v = "a".repeat(120);
        let many: Vec<(String, String)> =
            (0..9).map(|_| ("accept".to_string(), v.clone())).collect();
        assert_eq!(unsafe_header_names(&many), vec!["accept"]);
        let few: Vec<(String, String)> =
            (0..8).map(|_| ("accept".to_string(), v.clone())).collect();
        assert!(unsafe_header_names(&few).is_empty());
    }

    #[test]
    fn diagnosis_names_allow_expose_origin_and_method() {
        let d = diagnose(
            "http://127.0.0.1:8000",
            "http://127.0.0.1:9000/mcp",
            "DELETE",
            &h(&[
                ("mcp-session-id", "abc"),
                ("mcp-protocol-version", "2025-11-25"),
                ("last-event-id", "4"),
            ]),
            false,
        );
        assert!(d.contains("DELETE http://127.0.0.1:9000/mcp from origin http://127.0.0.1:8000"));
        assert!(d.contains("preflight"));
        assert!(d.contains("`Access-Control-Allow-Methods: DELETE`"));
        assert!(d.contains(
            "`Access-Control-Allow-Headers: last-event-id, mcp-protocol-version, mcp-session-id`"
        ));
        assert!(d.contains("`Access-Control-Allow-Origin: http://127.0.0.1:8000`"));
        assert!(d.contains("`Access-Control-Expose-Headers: mcp-session-id, www-authenticate`"));
    }

    #[test]
    fn opaque_page_origin_is_called_out() {
        let d = diagnose("null", "http://127.0.0.1:9000/mcp", "GET", &[], false);
        assert!(d.contains("opaque origin"));
        assert!(!diagnose("http://a.test", "http://b.test/", "GET", &[], false).contains("opaque"));
    }

    #[test]
    fn simple_get_needs_no_preflight_but_still_allow_origin() {
        let d = diagnose(
            "https://app.example",
            "https://mcp.example/mcp",
            "GET",
            &h(&[("accept", "text/event-stream")]),
            false,
        );
        assert!(!d.contains("preflight"));
        assert!(!d.contains("Allow-Headers"));
        assert!(d.contains("`Access-Control-Allow-Origin: https://app.example`"));
    }

    #[test]
    fn token_request_diagnosis_speaks_of_the_authorization_server() {
        let form = [(
            "content-type".to_string(),
            "application/x-www-form-urlencoded".to_string(),
        )];
        let d = diagnose(
            "https://app.example",
            "https://as.example/token",
            "POST",
            &form,
            true,
        );
        assert!(
            !d.contains("preflight"),
            "a public client's token POST is a simple request"
        );
        assert!(d.contains("`Access-Control-Allow-Origin: https://app.example`"));
        assert!(d.contains("authorization server") && d.contains("auth.fetch"));
        assert!(!d.contains("MCP server"));
    }
}
