//! What the authorization layer keeps: tokens, client registrations and pending authorization
//! requests, as plain records the host stores (get/put/delete of strings under [`keys`]).
//!
//! Everything is keyed by the authorization server's issuer where the spec binds it there (MCP
//! 2026-07-28 `basic/authorization/client-registration`: credentials "keyed by the authorization
//! server's `issuer` identifier"): a client registered at one server is never presented to
//! another. Tokens are kept per MCP server (and carry their issuer), so a reloaded page sends its
//! token with the first request. Secrets inside records are [`Secret`]s: a record's `Debug`
//! shows none of them.

use serde_json::Value;

use super::metadata::{ClientAuthMethod, ServerMetadata};
use super::secret::Secret;
use crate::util::write::ObjectText;

/// Storage keys.
pub mod keys {
    /// Where the client registration for `issuer` is kept.
    pub fn client(issuer: &str) -> String {
        format!("mcp-edge:client:{issuer}")
    }
    /// Where the tokens for the MCP server at `server_url` are kept.
    pub fn tokens(server_url: &str) -> String {
        format!("mcp-edge:tokens:{server_url}")
    }
    /// Where a pending authorization request is kept, by its `state`'s public handle. `v2:` is
    /// the record's format (metadata under RFC 8414 names): a version that wrote the earlier
    /// format (the RFC 9207 flag under another name, which it would read as "not advertised")
    /// and this one never read each other's records, say two tabs of different versions sharing
    /// `localStorage`. The prefix `mcp-edge:pending:` stays, which `browserStorage` routes by.
    pub fn pending(handle: &str) -> String {
        format!("mcp-edge:pending:v2:{handle}")
    }
}

/// A record kept in the host's store as JSON. Written by hand rather than derived: the records
/// are few and small, and derived (de)serializers would cost more code than the rest of the
/// authorization layer's storage handling.
pub trait Record: Sized {
    /// As JSON text (secrets included: this goes to the store only).
    fn to_json(&self) -> String;
    /// From JSON; `None` when a required member is missing or mistyped.
    fn from_json(v: &Value) -> Option<Self>;
}

use crate::util::read::string as s;

fn secret(v: &Value, k: &str) -> Option<Secret> {
    s(v, k).map(Secret::new)
}

fn opt_secret(x: &Option<Secret>) -> Option<&str> {
    x.as_ref().map(Secret::expose)
}

/// The token type of an access token (RFC 6750, RFC 9449 § 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenType {
    /// `Authorization: Bearer <token>`.
    Bearer,
    /// `Authorization: DPoP <token>` with a proof on every request.
    DPoP,
}

impl TokenType {
    /// The `Authorization` scheme.
    pub fn scheme(self) -> &'static str {
        match self {
            TokenType::Bearer => "Bearer",
            TokenType::DPoP => "DPoP",
        }
    }
}

/// Tokens for one MCP server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenRecord {
    /// The issuer that issued them.
    pub issuer: String,
    /// The `resource` they were requested for (exact string sent).
    pub resource: String,
    /// The access token.
    pub access_token: Secret,
    /// Its type.
    pub token_type: TokenType,
    /// Absolute expiry, Unix milliseconds (never a relative `expires_in`: a stored relative time
    /// would never expire).
    pub expires_at: Option<u64>,
    /// When the token was obtained, Unix milliseconds.
    pub obtained_at: Option<u64>,
    /// The refresh token, if one was issued.
    pub refresh_token: Option<Secret>,
    /// The scope granted (or requested, when the server did not say).
    pub scope: Option<String>,
    /// The client the tokens were issued to (absent in records written before it was kept).
    pub client_id: Option<String>,
    /// The grant that obtained them ([`super::Grant::name`]; absent in older records).
    pub grant: Option<String>,
}

impl Record for TokenRecord {
    fn to_json(&self) -> String {
        ObjectText::new()
            .str("issuer", &self.issuer)
            .str("resource", &self.resource)
            .str("access_token", self.access_token.expose())
            .str("token_type", self.token_type.scheme())
            .num("expires_at", self.expires_at)
            .num("obtained_at", self.obtained_at)
            .opt("refresh_token", opt_secret(&self.refresh_token))
            .opt("scope", self.scope.as_deref())
            .opt("client_id", self.client_id.as_deref())
            .opt("grant", self.grant.as_deref())
            .finish()
    }
    fn from_json(v: &Value) -> Option<Self> {
        Some(TokenRecord {
            issuer: s(v, "issuer")?,
            resource: s(v, "resource")?,
            access_token: secret(v, "access_token")?,
            token_type: match v.get("token_type")?.as_str()? {
                "DPoP" => TokenType::DPoP,
                "Bearer" => TokenType::Bearer,
                _ => return None,
            },
            expires_at: v.get("expires_at").and_then(Value::as_u64),
            obtained_at: v.get("obtained_at").and_then(Value::as_u64),
            refresh_token: secret(v, "refresh_token"),
            scope: s(v, "scope"),
            client_id: s(v, "client_id"),
            grant: s(v, "grant"),
        })
    }
}

/// How the client identified itself at an authorization server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientSource {
    /// Configured by the user (pre-registration).
    Configured,
    /// A Client ID Metadata Document URL.
    MetadataDocument,
    /// Dynamic client registration (RFC 7591).
    Registered,
}

impl ClientSource {
    fn as_str(self) -> &'static str {
        match self {
            ClientSource::Configured => "configured",
            ClientSource::MetadataDocument => "metadata_document",
            ClientSource::Registered => "registered",
        }
    }
    fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "configured" => ClientSource::Configured,
            "metadata_document" => ClientSource::MetadataDocument,
            "registered" => ClientSource::Registered,
            _ => return None,
        })
    }
}

/// A client identity at one authorization server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientRecord {
    /// The issuer it belongs to.
    pub issuer: String,
    /// `client_id`.
    pub client_id: String,
    /// `client_secret`, for confidential clients.
    pub client_secret: Option<Secret>,
    /// How to authenticate at the token endpoint.
    pub auth_method: ClientAuthMethod,
    /// Where it came from.
    pub source: ClientSource,
    /// The redirect URI it was registered with, if any.
    pub redirect_uri: Option<String>,
}

impl Record for ClientRecord {
    fn to_json(&self) -> String {
        ObjectText::new()
            .str("issuer", &self.issuer)
            .str("client_id", &self.client_id)
            .opt("client_secret", opt_secret(&self.client_secret))
            .str("auth_method", self.auth_method.as_str())
            .str("source", self.source.as_str())
            .opt("redirect_uri", self.redirect_uri.as_deref())
            .finish()
    }
    fn from_json(v: &Value) -> Option<Self> {
        Some(ClientRecord {
            issuer: s(v, "issuer")?,
            client_id: s(v, "client_id")?,
            client_secret: secret(v, "client_secret"),
            auth_method: ClientAuthMethod::parse(v.get("auth_method")?.as_str()?)?,
            source: ClientSource::parse(v.get("source")?.as_str()?)?,
            redirect_uri: s(v, "redirect_uri"),
        })
    }
}

/// An authorization request waiting for its callback: everything needed to finish the flow,
/// even in another process (a reloaded page, a restarted isolate), recorded before the user is
/// sent away (MCP 2026-07-28 `basic/authorization` "Authorization Response Validation": the
/// issuer is recorded with the PKCE verifier).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingAuthorization {
    /// The `state` sent.
    pub state: Secret,
    /// The PKCE code verifier.
    pub verifier: Secret,
    /// The issuer recorded from the validated metadata.
    pub issuer: String,
    /// The metadata the request was built from (stored whole: [`ServerMetadata::to_json`]).
    pub metadata: ServerMetadata,
    /// The client that made the request.
    pub client: ClientRecord,
    /// The `resource` sent.
    pub resource: String,
    /// The scope requested.
    pub scope: Option<String>,
    /// The redirect URI sent.
    pub redirect_uri: String,
    /// The MCP server the tokens are for.
    pub server_url: String,
    /// Whether the token request carries a DPoP proof.
    pub dpop: bool,
    /// When the request was made, Unix milliseconds.
    pub created_at: u64,
}

impl Record for PendingAuthorization {
    fn to_json(&self) -> String {
        ObjectText::new()
            .str("state", self.state.expose())
            .str("verifier", self.verifier.expose())
            .str("issuer", &self.issuer)
            .raw("metadata", &self.metadata.to_json())
            .raw("client", &self.client.to_json())
            .str("resource", &self.resource)
            .opt("scope", self.scope.as_deref())
            .str("redirect_uri", &self.redirect_uri)
            .str("server_url", &self.server_url)
            .bool("dpop", self.dpop)
            .num("created_at", Some(self.created_at))
            .finish()
    }
    fn from_json(v: &Value) -> Option<Self> {
        Some(PendingAuthorization {
            state: secret(v, "state")?,
            verifier: secret(v, "verifier")?,
            issuer: s(v, "issuer")?,
            metadata: pending_metadata(v.get("metadata")?)?,
            client: ClientRecord::from_json(v.get("client")?)?,
            resource: s(v, "resource")?,
            scope: s(v, "scope"),
            redirect_uri: s(v, "redirect_uri")?,
            server_url: s(v, "server_url")?,
            dpop: v.get("dpop").and_then(Value::as_bool).unwrap_or(false),
            created_at: v.get("created_at")?.as_u64()?,
        })
    }
}

/// A pending authorization's metadata. The RFC 9207 flag must be there (it is always written):
/// a record from an earlier version kept it under another name, and reading that as "not
/// advertised" would let a missing `iss` through, so such a record does not read (the sign-in
/// starts again).
fn pending_metadata(v: &Value) -> Option<ServerMetadata> {
    v.get("authorization_response_iss_parameter_supported")?
        .as_bool()?;
    ServerMetadata::parse(v)
}

/// Serialises a record for storage. The text holds secrets: it goes to the host's store and
/// nowhere else.
pub fn to_stored<T: Record>(record: &T) -> Secret {
    Secret::new(record.to_json())
}

/// Reads a stored record; `None` when absent or unreadable (an unreadable record is treated as
/// absent, never as an error that blocks sign-in).
pub fn from_stored<T: Record>(text: Option<&str>) -> Option<T> {
    T::from_json(&stored_json(text?)?)
}

/// The JSON of a stored record (not generic: one copy for every record type).
fn stored_json(text: &str) -> Option<Value> {
    serde_json::from_str(text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_debug_hides_secrets() {
        let t = TokenRecord {
            issuer: "https://as".into(),
            resource: "https://mcp/mcp".into(),
            access_token: Secret::new("AT-SENTINEL"),
            token_type: TokenType::DPoP,
            expires_at: Some(5),
            obtained_at: Some(1),
            refresh_token: Some(Secret::new("RT-SENTINEL")),
            scope: Some("a b".into()),
            client_id: Some("c1".into()),
            grant: Some("client_credentials".into()),
        };
        let stored = to_stored(&t);
        assert!(stored.expose().contains("AT-SENTINEL"));
        let back: TokenRecord = from_stored(Some(stored.expose())).unwrap();
        assert_eq!(back, t);
        let dbg = format!("{t:?}");
        assert!(!dbg.contains("SENTINEL"), "{dbg}");
        assert_eq!(from_stored::<TokenRecord>(Some("{not json")), None);
        assert_eq!(from_stored::<TokenRecord>(None), None);
    }

    #[test]
    fn a_pending_authorization_round_trips_with_its_metadata() {
        let mut metadata = ServerMetadata::fallback("https://as.example");
        metadata.registration_endpoint = None;
        metadata.grant_types_supported = Some(vec!["authorization_code".into()]);
        metadata.client_id_metadata_document_supported = true;
        metadata.iss_parameter_supported = true;
        metadata.token_endpoint_auth_methods_supported = Some(vec!["none".into()]);
        metadata.dpop_signing_alg_values_supported = Some(vec!["ES256".into()]);
        metadata.scopes_supported = Some(vec!["a".into(), "offline_access".into()]);
        let p = PendingAuthorization {
            state: Secret::new("STATE-SENTINEL"),
            verifier: Secret::new("VERIFIER-SENTINEL"),
            issuer: "https://as.example".into(),
            metadata,
            client: ClientRecord {
                issuer: "https://as.example".into(),
                client_id: "c\"1".into(),
                client_secret: None,
                auth_method: ClientAuthMethod::None,
                source: ClientSource::Registered,
                redirect_uri: Some("http://127.0.0.1/cb".into()),
            },
            resource: "https://mcp.example/mcp".into(),
            scope: None,
            redirect_uri: "http://127.0.0.1/cb".into(),
            server_url: "https://mcp.example/mcp".into(),
            dpop: true,
            created_at: 1_700_000_000_000,
        };
        let stored = to_stored(&p);
        let back: PendingAuthorization = from_stored(Some(stored.expose())).unwrap();
        assert_eq!(back, p);
        // Stored under the RFC 8414 names, so the metadata reader reads it back.
        let v: Value = serde_json::from_str(stored.expose()).unwrap();
        assert_eq!(
            v["metadata"]["authorization_response_iss_parameter_supported"],
            true
        );
        assert!(!format!("{p:?}").contains("SENTINEL"));
        // The earlier format named the RFC 9207 flag differently: it does not read as "not
        // advertised".
        let earlier = stored.expose().replace(
            "authorization_response_iss_parameter_supported",
            "iss_parameter_supported",
        );
        assert_eq!(from_stored::<PendingAuthorization>(Some(&earlier)), None);
        // Nor under the key the earlier version looks in; still where `browserStorage` routes.
        let key = keys::pending("h");
        assert!(key.starts_with("mcp-edge:pending:") && key != "mcp-edge:pending:h");
    }
}
