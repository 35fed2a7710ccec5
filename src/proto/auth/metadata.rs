//! Discovery: where to look for Protected Resource Metadata (RFC 9728) and authorization server
//! metadata (RFC 8414, OpenID Connect Discovery 1.0), and what the client reads from them
//! (MCP 2026-07-28 `basic/authorization/authorization-server-discovery`).

use serde_json::Value;

use crate::util::read::{string, strings};
use crate::util::write::ObjectText;

use super::uri;

/// `/.well-known/` suffix of Protected Resource Metadata (RFC 9728 § 3).
pub const PRM_SUFFIX: &str = "oauth-protected-resource";
/// `/.well-known/` suffix of OAuth authorization server metadata (RFC 8414 § 3).
pub const OAUTH_SUFFIX: &str = "oauth-authorization-server";
/// `/.well-known/` suffix of OpenID Connect provider configuration (OIDC Discovery § 4).
pub const OIDC_SUFFIX: &str = "openid-configuration";

/// Where to fetch Protected Resource Metadata, in order (MCP 2026-07-28
/// `authorization-server-discovery` "Protected Resource Metadata Discovery Requirements"): the
/// challenge's `resource_metadata` alone when it named one (the root is then never probed);
/// otherwise the path-aware well-known URL, then the root one (once, when the server URL has no
/// path).
pub fn prm_candidates(server_url: &str, resource_metadata: Option<&str>) -> Vec<String> {
    if let Some(url) = resource_metadata {
        return vec![url.to_string()];
    }
    let Some(p) = uri::split(server_url) else {
        return Vec::new();
    };
    let mut out = vec![uri::well_known_inserted(&p, PRM_SUFFIX)];
    let root = format!("{}/.well-known/{PRM_SUFFIX}", p.origin());
    if !out.contains(&root) {
        out.push(root);
    }
    out
}

/// Where to fetch an issuer's metadata, in the spec's priority order (MCP 2026-07-28
/// `authorization-server-discovery` "Authorization Server Metadata Discovery"). With a path
/// (`https://as.example/tenant1`): OAuth inserted, OIDC inserted, OIDC appended, and never the
/// root. Without: OAuth, then OIDC.
pub fn as_metadata_candidates(issuer: &str) -> Vec<String> {
    let Some(p) = uri::split(issuer) else {
        return Vec::new();
    };
    if p.trimmed_path().is_empty() {
        let o = p.origin();
        vec![
            format!("{o}/.well-known/{OAUTH_SUFFIX}"),
            format!("{o}/.well-known/{OIDC_SUFFIX}"),
        ]
    } else {
        vec![
            uri::well_known_inserted(&p, OAUTH_SUFFIX),
            uri::well_known_inserted(&p, OIDC_SUFFIX),
            uri::well_known_appended(&p, OIDC_SUFFIX),
        ]
    }
}

/// What the client uses of a Protected Resource Metadata document (RFC 9728 § 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceMetadata {
    /// `resource`, exactly as sent.
    pub resource: String,
    /// `authorization_servers` (issuer identifiers), exactly as sent.
    pub authorization_servers: Vec<String>,
    /// `scopes_supported`, when present.
    pub scopes_supported: Option<Vec<String>>,
}

impl ResourceMetadata {
    /// Reads a PRM document; `None` when it lacks `resource` or names no authorization server.
    pub fn parse(doc: &Value) -> Option<Self> {
        let m = ResourceMetadata {
            resource: string(doc, "resource")?,
            authorization_servers: strings(doc.get("authorization_servers"))?,
            scopes_supported: strings(doc.get("scopes_supported")),
        };
        (!m.authorization_servers.is_empty()).then_some(m)
    }
}

/// Token endpoint client authentication methods (RFC 7591 § 2, RFC 7523 § 2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientAuthMethod {
    /// HTTP Basic with the client id and secret (RFC 6749 § 2.3.1).
    ClientSecretBasic,
    /// Id and secret in the form body.
    ClientSecretPost,
    /// A signed JWT assertion (RFC 7523 § 2.2).
    PrivateKeyJwt,
    /// A public client: only `client_id` in the body.
    None,
}

impl ClientAuthMethod {
    /// The registered name.
    pub fn as_str(self) -> &'static str {
        match self {
            ClientAuthMethod::ClientSecretBasic => "client_secret_basic",
            ClientAuthMethod::ClientSecretPost => "client_secret_post",
            ClientAuthMethod::PrivateKeyJwt => "private_key_jwt",
            ClientAuthMethod::None => "none",
        }
    }

    /// From the registered name.
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "client_secret_basic" => ClientAuthMethod::ClientSecretBasic,
            "client_secret_post" => ClientAuthMethod::ClientSecretPost,
            "private_key_jwt" => ClientAuthMethod::PrivateKeyJwt,
            "none" => ClientAuthMethod::None,
            _ => return None,
        })
    }
}

/// What the client uses of authorization server metadata (RFC 8414 § 2, OIDC Discovery § 3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerMetadata {
    /// `issuer`, exactly as sent (checked against the issuer used before anything is used).
    pub issuer: String,
    /// `authorization_endpoint`.
    pub authorization_endpoint: Option<String>,
    /// `token_endpoint`.
    pub token_endpoint: String,
    /// `registration_endpoint`.
    pub registration_endpoint: Option<String>,
    /// `scopes_supported`.
    pub scopes_supported: Option<Vec<String>>,
    /// `code_challenge_methods_supported` (absent: the client must refuse the code flow).
    pub code_challenge_methods_supported: Option<Vec<String>>,
    /// `token_endpoint_auth_methods_supported` (absent: `client_secret_basic`, RFC 8414 § 2).
    pub token_endpoint_auth_methods_supported: Option<Vec<String>>,
    /// `grant_types_supported`.
    pub grant_types_supported: Option<Vec<String>>,
    /// `authorization_response_iss_parameter_supported` (RFC 9207 § 3).
    pub iss_parameter_supported: bool,
    /// `client_id_metadata_document_supported` (CIMD).
    pub client_id_metadata_document_supported: bool,
    /// `dpop_signing_alg_values_supported` (RFC 9449 § 5.1).
    pub dpop_signing_alg_values_supported: Option<Vec<String>>,
}

impl ServerMetadata {
    /// Reads a metadata document; `None` without `issuer` or `token_endpoint`.
    pub fn parse(doc: &Value) -> Option<Self> {
        Some(ServerMetadata {
            issuer: string(doc, "issuer")?,
            authorization_endpoint: string(doc, "authorization_endpoint"),
            token_endpoint: string(doc, "token_endpoint")?,
            registration_endpoint: string(doc, "registration_endpoint"),
            scopes_supported: strings(doc.get("scopes_supported")),
            code_challenge_methods_supported: strings(doc.get("code_challenge_methods_supported")),
            token_endpoint_auth_methods_supported: strings(
                doc.get("token_endpoint_auth_methods_supported"),
            ),
            grant_types_supported: strings(doc.get("grant_types_supported")),
            iss_parameter_supported: doc
                .get("authorization_response_iss_parameter_supported")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            client_id_metadata_document_supported: doc
                .get("client_id_metadata_document_supported")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            dpop_signing_alg_values_supported: strings(
                doc.get("dpop_signing_alg_values_supported"),
            ),
        })
    }

    /// The metadata as a document under the members' RFC 8414 names, which
    /// [`ServerMetadata::parse`] reads back as the same value: a pending authorization stores it,
    /// and the process that finishes the sign-in goes on with it (a later step-up needs the
    /// authorization endpoint and the PKCE methods as much as the token request needs the rest).
    pub fn to_json(&self) -> String {
        ObjectText::new()
            .str("issuer", &self.issuer)
            .opt(
                "authorization_endpoint",
                self.authorization_endpoint.as_deref(),
            )
            .str("token_endpoint", &self.token_endpoint)
            .opt(
                "registration_endpoint",
                self.registration_endpoint.as_deref(),
            )
            .list("scopes_supported", self.scopes_supported.as_deref())
            .list(
                "code_challenge_methods_supported",
                self.code_challenge_methods_supported.as_deref(),
            )
            .list(
                "token_endpoint_auth_methods_supported",
                self.token_endpoint_auth_methods_supported.as_deref(),
            )
            .list(
                "grant_types_supported",
                self.grant_types_supported.as_deref(),
            )
            .bool(
                "authorization_response_iss_parameter_supported",
                self.iss_parameter_supported,
            )
            .bool(
                "client_id_metadata_document_supported",
                self.client_id_metadata_document_supported,
            )
            .list(
                "dpop_signing_alg_values_supported",
                self.dpop_signing_alg_values_supported.as_deref(),
            )
            .finish()
    }

    /// The 2025-03-26 fallback when an MCP server has neither resource nor server metadata:
    /// `/authorize`, `/token` and `/register` at the server's origin (MCP 2025-03-26
    /// `basic/authorization` "Fallbacks for Servers without Metadata Discovery"). Nothing is
    /// advertised, so PKCE support cannot be verified; the client still sends S256.
    pub fn fallback(origin: &str) -> Self {
        ServerMetadata {
            issuer: origin.to_string(),
            authorization_endpoint: Some(format!("{origin}/authorize")),
            token_endpoint: format!("{origin}/token"),
            registration_endpoint: Some(format!("{origin}/register")),
            scopes_supported: None,
            code_challenge_methods_supported: Some(vec!["S256".into()]),
            token_endpoint_auth_methods_supported: None,
            grant_types_supported: None,
            iss_parameter_supported: false,
            client_id_metadata_document_supported: false,
            dpop_signing_alg_values_supported: None,
        }
    }

    /// Whether S256 PKCE is advertised (MCP 2026-07-28 `security-considerations`: "If
    /// `code_challenge_methods_supported` is absent ... MCP clients MUST refuse to proceed").
    pub fn supports_s256(&self) -> bool {
        self.code_challenge_methods_supported
            .as_ref()
            .is_some_and(|m| m.iter().any(|x| x == "S256"))
    }

    /// Whether DPoP with ES256 is offered (RFC 9449 § 5.1).
    pub fn supports_dpop_es256(&self) -> bool {
        self.dpop_signing_alg_values_supported
            .as_ref()
            .is_some_and(|m| m.iter().any(|x| x == "ES256"))
    }

    /// Whether `scopes_supported` lists `scope`.
    pub fn lists_scope(&self, scope: &str) -> bool {
        self.scopes_supported
            .as_ref()
            .is_some_and(|s| s.iter().any(|x| x == scope))
    }

    /// Whether `method` is an accepted token endpoint auth method (an absent list means
    /// `client_secret_basic` only, RFC 8414 § 2).
    pub fn accepts_auth(&self, method: ClientAuthMethod) -> bool {
        match &self.token_endpoint_auth_methods_supported {
            Some(list) => list.iter().any(|m| m == method.as_str()),
            None => method == ClientAuthMethod::ClientSecretBasic,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn prm_candidates_follow_the_spec_order() {
        assert_eq!(
            prm_candidates("https://example.com/public/mcp", None),
            vec![
                "https://example.com/.well-known/oauth-protected-resource/public/mcp",
                "https://example.com/.well-known/oauth-protected-resource",
            ]
        );
        assert_eq!(
            prm_candidates("https://example.com", None),
            vec!["https://example.com/.well-known/oauth-protected-resource"]
        );
        assert_eq!(
            prm_candidates("https://example.com/", None),
            vec!["https://example.com/.well-known/oauth-protected-resource"]
        );
        // A named URL is used alone: the root is never probed.
        assert_eq!(
            prm_candidates(
                "https://example.com/mcp",
                Some("https://example.com/custom.json?a=1")
            ),
            vec!["https://example.com/custom.json?a=1"]
        );
    }

    #[test]
    fn as_metadata_candidates_follow_the_spec_order() {
        // MCP 2026-07-28 authorization-server-discovery examples.
        assert_eq!(
            as_metadata_candidates("https://auth.example.com/tenant1"),
            vec![
                "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                "https://auth.example.com/.well-known/openid-configuration/tenant1",
                "https://auth.example.com/tenant1/.well-known/openid-configuration",
            ]
        );
        assert_eq!(
            as_metadata_candidates("https://auth.example.com"),
            vec![
                "https://auth.example.com/.well-known/oauth-authorization-server",
                "https://auth.example.com/.well-known/openid-configuration",
            ]
        );
        // No root fallback for a path issuer, even with a trailing slash.
        let c = as_metadata_candidates("https://auth.example.com/tenant1/");
        assert!(!c.contains(
            &"https://auth.example.com/.well-known/oauth-authorization-server".to_string()
        ));
        assert_eq!(c.len(), 3);
        assert!(as_metadata_candidates("not-a-url").is_empty());
    }

    #[test]
    fn metadata_parsing() {
        let prm = ResourceMetadata::parse(&json!({
            "resource": "http://localhost:1/mcp",
            "authorization_servers": ["http://localhost:2"],
            "scopes_supported": ["a", "b"]
        }))
        .unwrap();
        assert_eq!(prm.authorization_servers, vec!["http://localhost:2"]);
        assert!(
            ResourceMetadata::parse(&json!({"resource": "x", "authorization_servers": []}))
                .is_none()
        );
        let asm = ServerMetadata::parse(&json!({
            "issuer": "http://localhost:2",
            "authorization_endpoint": "http://localhost:2/authorize",
            "token_endpoint": "http://localhost:2/token",
            "code_challenge_methods_supported": ["plain"],
            "authorization_response_iss_parameter_supported": true,
            "dpop_signing_alg_values_supported": ["ES256"]
        }))
        .unwrap();
        assert!(!asm.supports_s256());
        assert!(asm.iss_parameter_supported);
        assert!(asm.supports_dpop_es256());
        assert!(asm.accepts_auth(ClientAuthMethod::ClientSecretBasic));
        assert!(!asm.accepts_auth(ClientAuthMethod::None));
        assert!(ServerMetadata::parse(&json!({"issuer": "x"})).is_none());
        assert!(ServerMetadata::fallback("http://h").supports_s256());
    }
}
