//! Parsing an HTTP/1.1 response head (RFC 9112 § 4 status line, § 5 field lines), bounded.

use mcp_edge::proto::http::ResponseHead;

/// Largest response head accepted.
pub const MAX_HEAD_BYTES: usize = 64 * 1024;
/// Most header fields accepted.
pub const MAX_HEADERS: usize = 128;

/// Why a response head could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeadError {
    /// The head is longer than [`MAX_HEAD_BYTES`] or has more than [`MAX_HEADERS`] fields.
    TooLarge,
    /// The status line or a field line is malformed; the text says which.
    Malformed(String),
}

/// How the body after a head is delimited (RFC 9112 § 6.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyFraming {
    /// No body (1xx, 204, 304).
    None,
    /// `Content-Length: n`.
    Length(u64),
    /// `Transfer-Encoding: chunked`.
    Chunked,
    /// Read until the server closes the connection.
    UntilClose,
}

/// Parses a head from the start of `buf`: `Ok(None)` while incomplete, else the head and how many
/// bytes it took.
pub fn parse_head(buf: &[u8]) -> Result<Option<(ResponseHead, usize)>, HeadError> {
    let Some(end) = find_head_end(buf) else {
        return if buf.len() > MAX_HEAD_BYTES {
            Err(HeadError::TooLarge)
        } else {
            Ok(None)
        };
    };
    let (head_len, consumed) = end;
    if head_len > MAX_HEAD_BYTES {
        return Err(HeadError::TooLarge);
    }
    let text = String::from_utf8_lossy(&buf[..head_len]);
    let mut lines = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    let status_line = lines.next().unwrap_or_default();
    let mut parts = status_line.splitn(3, ' ');
    let version = parts.next().unwrap_or_default();
    if !version.starts_with("HTTP/1.") {
        return Err(HeadError::Malformed(format!(
            "not an HTTP/1.x status line: {status_line:?}"
        )));
    }
    let status = parts
        .next()
        .filter(|s| s.len() == 3)
        .and_then(|s| s.parse::<u16>().ok())
        .ok_or_else(|| HeadError::Malformed(format!("bad status code in {status_line:?}")))?;
    let mut headers = Vec::new();
    for line in lines.filter(|l| !l.is_empty()) {
        if headers.len() >= MAX_HEADERS {
            return Err(HeadError::TooLarge);
        }
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| HeadError::Malformed(format!("field line without a colon: {line:?}")))?;
        if name.is_empty() || name.ends_with([' ', '\t']) {
            return Err(HeadError::Malformed(format!("bad field name in {line:?}")));
        }
        headers.push((
            name.to_string(),
            value.trim_matches([' ', '\t']).to_string(),
        ));
    }
    Ok(Some((ResponseHead { status, headers }, consumed)))
}

/// Returns (length of the head without the blank line, length including it).
fn find_head_end(buf: &[u8]) -> Option<(usize, usize)> {
    let mut i = 0;
    while i < buf.len() {
        if buf[i] == b'\n' {
            // "\n\n" or "\n\r\n" ends the head.
            if buf.get(i + 1) == Some(&b'\n') {
                return Some((i, i + 2));
            }
            if buf.get(i + 1) == Some(&b'\r') && buf.get(i + 2) == Some(&b'\n') {
                return Some((i, i + 3));
            }
        }
        i += 1;
    }
    None
}

/// How the body of a response to a request with `method` is delimited.
pub fn body_framing(head: &ResponseHead, method: &str) -> Result<BodyFraming, HeadError> {
    if method == "HEAD" || (100..200).contains(&head.status) || matches!(head.status, 204 | 304) {
        return Ok(BodyFraming::None);
    }
    if let Some(te) = head.header("transfer-encoding") {
        let last = te.rsplit(',').next().unwrap_or_default().trim();
        return if last.eq_ignore_ascii_case("chunked") {
            Ok(BodyFraming::Chunked)
        } else {
            Ok(BodyFraming::UntilClose)
        };
    }
    if let Some(cl) = head.header("content-length") {
        return cl
            .trim()
            .parse::<u64>()
            .map(BodyFraming::Length)
            .map_err(|_| HeadError::Malformed(format!("bad Content-Length {cl:?}")));
    }
    Ok(BodyFraming::UntilClose)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_head_split_anywhere() {
        let raw = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nX-A:  b \r\n\r\nBODY";
        for at in 0..raw.len() {
            if at < raw.len() - 4 {
                assert_eq!(parse_head(&raw[..at]).unwrap(), None, "at {at}");
            }
        }
        let (head, used) = parse_head(raw).unwrap().unwrap();
        assert_eq!(head.status, 200);
        assert_eq!(head.header("content-type"), Some("text/event-stream"));
        assert_eq!(head.header("x-a"), Some("b"));
        assert_eq!(&raw[used..], b"BODY");
    }

    #[test]
    fn framing_follows_rfc_9112() {
        let h = |status, hs: &[(&str, &str)]| ResponseHead {
            status,
            headers: hs
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
        };
        assert_eq!(
            body_framing(&h(202, &[]), "POST"),
            Ok(BodyFraming::UntilClose)
        );
        assert_eq!(
            body_framing(&h(204, &[("content-length", "5")]), "POST"),
            Ok(BodyFraming::None)
        );
        assert_eq!(
            body_framing(
                &h(
                    200,
                    &[
                        ("Transfer-Encoding", "gzip, chunked"),
                        ("content-length", "3")
                    ]
                ),
                "POST"
            ),
            Ok(BodyFraming::Chunked)
        );
        assert_eq!(
            body_framing(&h(200, &[("Content-Length", "12")]), "GET"),
            Ok(BodyFraming::Length(12))
        );
        assert!(body_framing(&h(200, &[("Content-Length", "x")]), "GET").is_err());
    }

    #[test]
    fn rejects_garbage_and_oversize() {
        assert!(parse_head(b"SSH-2.0-x\r\n\r\n").is_err());
        assert!(parse_head(b"HTTP/1.1 2000 OK\r\n\r\n").is_err());
        assert_eq!(
            parse_head(&vec![b'a'; MAX_HEAD_BYTES + 1]),
            Err(HeadError::TooLarge)
        );
    }
}
