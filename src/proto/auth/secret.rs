//! A string that must never be shown: access and refresh tokens, authorization codes, `state`,
//! PKCE verifiers, client secrets, assertions (MCP 2026-07-28 `basic/authorization/
//! security-considerations` "Token Theft"; OAuth 2.1 § 7.1).
//!
//! `Debug` and `Display` print a fixed marker, so a secret inside any error, log line or `{:?}`
//! dump of a state machine shows nothing of its value. The value is read only where the protocol
//! puts it on the wire, through [`Secret::expose`].

use std::fmt;

/// What `Debug` and `Display` print instead of a secret's value.
pub const REDACTED: &str = "[redacted]";

/// A secret string. Compared in constant time with respect to its content.
#[derive(Clone, Default)]
pub struct Secret(String);

impl Secret {
    /// Wraps a value.
    pub fn new(value: impl Into<String>) -> Self {
        Secret(value.into())
    }

    /// The value, for the one place that must send it.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// Whether the value is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl PartialEq for Secret {
    fn eq(&self, other: &Self) -> bool {
        constant_time_eq(self.0.as_bytes(), other.0.as_bytes())
    }
}

impl Eq for Secret {}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REDACTED)
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REDACTED)
    }
}

impl From<String> for Secret {
    fn from(s: String) -> Self {
        Secret(s)
    }
}

impl From<&str> for Secret {
    fn from(s: &str) -> Self {
        Secret(s.to_string())
    }
}

/// Compares two byte strings without an early exit on the first difference (the length is not
/// hidden). Used for `state` checks and inbound credentials.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_and_display_hide_the_value() {
        let s = Secret::new("tok-SENTINEL");
        assert_eq!(format!("{s:?}"), REDACTED);
        assert_eq!(format!("{s}"), REDACTED);
        assert_eq!(s.expose(), "tok-SENTINEL");
    }

    #[test]
    fn equality_compares_content() {
        assert_eq!(Secret::new("a"), Secret::new("a"));
        assert_ne!(Secret::new("a"), Secret::new("b"));
        assert_ne!(Secret::new("a"), Secret::new("ab"));
        assert!(constant_time_eq(b"", b""));
    }
}
