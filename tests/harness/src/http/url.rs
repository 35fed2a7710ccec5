//! `http://` URLs to loopback hosts, the only ones the harness talks to.

use crate::error::HarnessError;

/// A parsed `http://host:port/path?query` URL whose host is loopback.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoopbackUrl {
    /// The host as written (`127.0.0.1`, `localhost`, `[::1]`).
    pub host: String,
    /// The port (80 when absent).
    pub port: u16,
    /// The path and query (`/` when absent), the request target (RFC 9112 § 3.2.1).
    pub target: String,
}

impl LoopbackUrl {
    /// Parses `url`; refuses anything but `http://` to 127.0.0.0/8, `localhost` or `[::1]`.
    pub fn parse(url: &str) -> Result<Self, HarnessError> {
        let bad = |reason: &str| HarnessError::InvalidUrl {
            url: url.to_string(),
            reason: reason.to_string(),
        };
        let rest = url
            .strip_prefix("http://")
            .ok_or_else(|| bad("only http:// URLs are supported"))?;
        let (authority, target) = match rest.find(['/', '?', '#']) {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, "/"),
        };
        let target = target.split('#').next().unwrap_or("/");
        let target = if target.starts_with('?') {
            format!("/{target}")
        } else if target.is_empty() {
            "/".to_string()
        } else {
            target.to_string()
        };
        if authority.contains('@') {
            return Err(bad("credentials in the URL are not supported"));
        }
        let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
            let end = v6
                .find(']')
                .ok_or_else(|| bad("unterminated IPv6 literal"))?;
            let port = v6[end + 1..].strip_prefix(':');
            (format!("[{}]", &v6[..end]), port)
        } else {
            match authority.rsplit_once(':') {
                Some((h, p)) => (h.to_string(), Some(p)),
                None => (authority.to_string(), None),
            }
        };
        let port = match port {
            None | Some("") => 80,
            Some(p) => p.parse::<u16>().map_err(|_| bad("invalid port"))?,
        };
        let lower = host.to_ascii_lowercase();
        let loopback = lower == "localhost"
            || lower == "[::1]"
            || lower
                .parse::<std::net::Ipv4Addr>()
                .is_ok_and(|a| a.is_loopback());
        if !loopback {
            return Err(bad("the harness only connects to loopback hosts"));
        }
        Ok(LoopbackUrl {
            host: lower,
            port,
            target,
        })
    }

    /// The socket address to connect to.
    pub fn socket_addr(&self) -> String {
        let host = if self.host == "localhost" {
            "127.0.0.1"
        } else {
            &self.host
        };
        format!("{host}:{}", self.port)
    }

    /// The `Host` header value (RFC 9112 § 3.2).
    pub fn host_header(&self) -> String {
        if self.port == 80 {
            self.host.clone()
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::LoopbackUrl;

    #[test]
    fn parses_loopback_urls() {
        let u = LoopbackUrl::parse("http://127.0.0.1:3005/mcp?x=1#frag").unwrap();
        assert_eq!(
            (u.host.as_str(), u.port, u.target.as_str()),
            ("127.0.0.1", 3005, "/mcp?x=1")
        );
        let u = LoopbackUrl::parse("http://localhost").unwrap();
        assert_eq!((u.port, u.target.as_str()), (80, "/"));
        assert_eq!(u.socket_addr(), "127.0.0.1:80");
        let u = LoopbackUrl::parse("http://[::1]:8080/a").unwrap();
        assert_eq!(u.socket_addr(), "[::1]:8080");
        assert_eq!(u.host_header(), "[::1]:8080");
    }

    #[test]
    fn refuses_other_urls() {
        for bad in [
            "https://127.0.0.1/mcp",
            "http://example.com/mcp",
            "http://10.0.0.1/",
            "http://127.0.0.1:99999/",
            "http://user@127.0.0.1/",
            "ftp://127.0.0.1/",
        ] {
            assert!(LoopbackUrl::parse(bad).is_err(), "{bad}");
        }
    }
}
