//! What the user configures for one MCP server's authorization.

use super::metadata::ClientAuthMethod;
use super::secret::Secret;

/// How the person's part of the authorization code flow happens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interaction {
    /// The host shows the authorization URL to a person and hands the callback back
    /// ([`super::AuthEvent::Authorize`]).
    Host,
    /// No person: the client requests the authorization URL itself with redirects not
    /// followed and reads the callback from `Location`. Works against an authorization server
    /// that redirects at once (test servers, pre-approved clients) in Node, workerd and the WASI
    /// component; impossible in a browser page, where it fails with
    /// [`super::AuthError::HeadlessUnavailable`].
    Headless,
}

/// The OAuth grant used to obtain tokens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Grant {
    /// Authorization code with PKCE (OAuth 2.1 § 4.1; MCP `basic/authorization`).
    AuthorizationCode {
        /// Who performs the person's step.
        interaction: Interaction,
    },
    /// Client credentials (MCP extension `io.modelcontextprotocol/oauth-client-credentials`):
    /// the client's own identity from [`AuthConfig::client`] (a secret or `private_key_jwt`).
    ClientCredentials,
    /// RFC 7523 JWT-bearer grant with a workload identity assertion (SEP-1933). Never retried
    /// and never replaced by another grant when refused.
    JwtBearer {
        /// The assertion.
        assertion: Secret,
    },
    /// Enterprise-managed authorization (SEP-990): an RFC 8693 token exchange of the user's ID
    /// token for an ID-JAG at the enterprise IdP, then the RFC 7523 JWT-bearer grant at the MCP
    /// server's authorization server.
    EnterpriseManaged {
        /// The IdP's token endpoint.
        idp_token_endpoint: String,
        /// The client id at the IdP.
        idp_client_id: String,
        /// The client secret at the IdP, if it has one.
        idp_client_secret: Option<Secret>,
        /// The user's ID token from the IdP.
        id_token: Secret,
    },
}

impl Grant {
    /// The grant's name as token records keep it: tokens obtained one way (a machine's client
    /// credentials) are never used by a client configured another way (a person's code flow).
    pub fn name(&self) -> &'static str {
        match self {
            Grant::AuthorizationCode { .. } => "authorization_code",
            Grant::ClientCredentials => "client_credentials",
            Grant::JwtBearer { .. } => "jwt_bearer",
            Grant::EnterpriseManaged { .. } => "enterprise_managed",
        }
    }
}

/// A client identity the user registered beforehand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaticClient {
    /// The issuer it was registered at; `None`: the first authorization server the MCP server
    /// names (the identity is then bound to that issuer and never shown to another).
    pub issuer: Option<String>,
    /// `client_id`.
    pub client_id: String,
    /// `client_secret`, if any.
    pub client_secret: Option<Secret>,
    /// Sign client assertions with the host's client key (`private_key_jwt`, ES256).
    pub private_key_jwt: bool,
    /// Force a token endpoint auth method (otherwise chosen from the server's metadata).
    pub auth_method: Option<ClientAuthMethod>,
}

/// Authorization settings for one MCP server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthConfig {
    /// The grant.
    pub grant: Grant,
    /// A pre-registered client (first in the registration priority).
    pub client: Option<StaticClient>,
    /// A Client ID Metadata Document URL, used as `client_id` where the server supports it.
    pub client_metadata_url: Option<String>,
    /// `client_name` for dynamic registration.
    pub client_name: String,
    /// `application_type` for dynamic registration (`native` / `web`); `None`: derived from the
    /// redirect URI (loopback or private-use scheme: `native`).
    pub application_type: Option<String>,
    /// The redirect URI (authorization code grant).
    pub redirect_uri: Option<String>,
    /// A scope to request when neither the challenge nor the resource metadata names one.
    pub scope: Option<String>,
    /// Ask for refresh tokens: `refresh_token` in registered grant types, and `offline_access`
    /// when the authorization server lists it (MCP 2026-07-28 `basic/authorization` "Refresh
    /// Tokens").
    pub offline_access: bool,
    /// Use DPoP (RFC 9449) when the authorization server offers ES256.
    pub dpop: bool,
    /// Most authorization flows one operation may wait for before failing (step-up bound).
    pub max_attempts: u32,
    /// Refresh this long before the access token expires (for a token obtained in this process,
    /// at most half its lifetime before).
    pub refresh_skew_ms: u64,
}

impl AuthConfig {
    /// Defaults for `grant`.
    pub fn new(grant: Grant) -> Self {
        let interactive = matches!(grant, Grant::AuthorizationCode { .. });
        AuthConfig {
            grant,
            client: None,
            client_metadata_url: None,
            client_name: "mcp-edge".into(),
            application_type: None,
            redirect_uri: None,
            scope: None,
            offline_access: interactive,
            dpop: true,
            max_attempts: 3,
            refresh_skew_ms: 60_000,
        }
    }

    /// Checks that the grant has what it needs.
    pub fn validate(&self) -> Result<(), super::AuthError> {
        let fail = |m: &str| Err(super::AuthError::InvalidConfig(m.into()));
        match &self.grant {
            Grant::AuthorizationCode { .. } if self.redirect_uri.is_none() => {
                fail("the authorization code grant needs a redirect URI")
            }
            Grant::ClientCredentials
                if !self.client.as_ref().is_some_and(|c| {
                    c.client_secret.is_some() || c.private_key_jwt
                }) =>
            {
                fail("the client credentials grant needs a client id with a secret or a private key")
            }
            Grant::EnterpriseManaged { .. } if self.client.is_none() => {
                fail("enterprise-managed authorization needs the client's id and secret at the authorization server")
            }
            _ if self.max_attempts == 0 => fail("max_attempts must be at least 1"),
            _ => Ok(()),
        }
    }
}

impl AuthConfig {
    /// Reads the settings every surface shares, from JSON in the shape of the JS `AuthOptions`
    /// and of a configuration file's `auth` entry (camelCase members: `grant`, `redirectUri`,
    /// `headless`, `clientId`, `clientSecret`, `clientIssuer`, `privateKeyPem` (only its presence
    /// matters here: the host holds the key), `tokenEndpointAuthMethod`, `clientMetadataUrl`,
    /// `clientName`, `applicationType`, `scope`, `offlineAccess`, `dpop`, `assertion`,
    /// `tokenExchange: {tokenEndpoint, clientId, clientSecret, idToken}`). Members of other
    /// types are ignored; a missing required member is an [`super::AuthError::InvalidConfig`].
    pub fn from_json(v: &serde_json::Value) -> Result<Self, super::AuthError> {
        use serde_json::Value;
        let bad = |m: String| super::AuthError::InvalidConfig(m);
        let s = crate::util::read::string;
        let b = |k: &str| v.get(k).and_then(Value::as_bool);
        let grant = match v.get("grant").and_then(Value::as_str) {
            None | Some("authorization_code") => Grant::AuthorizationCode {
                interaction: if b("headless") == Some(true) {
                    Interaction::Headless
                } else {
                    Interaction::Host
                },
            },
            Some("client_credentials") => Grant::ClientCredentials,
            Some("jwt_bearer") => Grant::JwtBearer {
                assertion: Secret::new(
                    s(v, "assertion").ok_or_else(|| bad("jwt_bearer needs an assertion".into()))?,
                ),
            },
            Some("token_exchange") => {
                let t = v.get("tokenExchange").cloned().unwrap_or(Value::Null);
                let need = |k: &str| {
                    s(&t, k).ok_or_else(|| bad(format!("token_exchange needs tokenExchange.{k}")))
                };
                Grant::EnterpriseManaged {
                    idp_token_endpoint: need("tokenEndpoint")?,
                    idp_client_id: need("clientId")?,
                    idp_client_secret: s(&t, "clientSecret").map(Secret::new),
                    id_token: Secret::new(need("idToken")?),
                }
            }
            Some(other) => return Err(bad(format!("unknown grant {other:?}"))),
        };
        let mut cfg = AuthConfig::new(grant);
        cfg.redirect_uri = s(v, "redirectUri");
        cfg.client_metadata_url = s(v, "clientMetadataUrl");
        if let Some(n) = s(v, "clientName") {
            cfg.client_name = n;
        }
        cfg.application_type = s(v, "applicationType");
        cfg.scope = s(v, "scope");
        if let Some(x) = b("offlineAccess") {
            cfg.offline_access = x;
        }
        if let Some(x) = b("dpop") {
            cfg.dpop = x;
        }
        if let Some(client_id) = s(v, "clientId") {
            let auth_method = match s(v, "tokenEndpointAuthMethod") {
                Some(m) => Some(
                    ClientAuthMethod::parse(&m)
                        .ok_or_else(|| bad(format!("unknown tokenEndpointAuthMethod {m:?}")))?,
                ),
                None => None,
            };
            cfg.client = Some(StaticClient {
                issuer: s(v, "clientIssuer"),
                client_id,
                client_secret: s(v, "clientSecret").map(Secret::new),
                private_key_jwt: s(v, "privateKeyPem").is_some(),
                auth_method,
            });
        }
        cfg.validate()?;
        Ok(cfg)
    }
}
