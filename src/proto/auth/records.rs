//! What the authorization layer keeps: tokens, client registrations and pending authorization
//! requests, as plain records the host stores (get/put/delete of strings under [`keys`]).
//!
//! Everything is keyed by the authorization server's issuer where the spec binds it there (MCP
//! 2026-07-28 `basic/authorization/client-registration`: credentials "keyed by the authorization
//! server's `issuer` identifier"): a client registered at one server is never presented to
//! another. Tokens are kept per MCP server (and carry their issuer), so a reloaded page sends its
//! token with the first request. Secrets inside records are [`Secret`]s: a record's `Debug`
//! shows none of them.

use serde_json::{json, Value};

use super::metadata::{ClientAuthMethod, ServerMetadata};
use super::secret::Secret;
use crate::proto::jsonrpc::json_text;

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
    /// Where a pending authorization request is kept, by its `state`'s public handle.
    pub fn pending(handle: &str) -> String {
        format!("mcp-edge:pending:{handle}")
    }
}

/// A record kept in the host's store as JSON. Written by hand rather than derived: the records
/// are few and small, and derived (de)serializers would cost more code than the rest of the
/// authorization layer's storage handling.
pub trait Record: Sized {
    /// As JSON (secrets included: this goes to the store only).
    fn to_json(&self) -> Value;
    /// From JSON; `None` when a required member is missing or mistyped.
    fn from_json(v: &Value) -> Option<Self>;
}

use crate::proto::read::string as s;

fn strings(v: &Value, k: &str) -> Option<Vec<String>> {
    crate::proto::read::strings(v.get(k))
}

fn secret(v: &Value, k: &str) -> Option<Secret> {
    s(v, k).map(Secret::new)
}

fn opt_secret(x: &Option<Secret>) -> Value {
    x.as_ref().map_or(Value::Null, |x| Value::from(x.expose()))
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
}

impl Record for TokenRecord {
    fn to_json(&self) -> Value {
        json!({
            "issuer": self.issuer,
            "resource": self.resource,
            "access_token": self.access_token.expose(),
            "token_type": self.token_type.scheme(),
            "expires_at": self.expires_at,
            "obtained_at": self.obtained_at,
            "refresh_token": opt_secret(&self.refresh_token),
            "scope": self.scope,
        })
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
    fn to_json(&self) -> Value {
        json!({
            "issuer": self.issuer,
            "client_id": self.client_id,
            "client_secret": opt_secret(&self.client_secret),
            "auth_method": self.auth_method.as_str(),
            "source": self.source.as_str(),
            "redirect_uri": self.redirect_uri,
        })
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
    /// The metadata the request was built from.
    pub metadata: StoredMetadata,
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
    fn to_json(&self) -> Value {
        json!({
            "state": self.state.expose(),
            "verifier": self.verifier.expose(),
            "issuer": self.issuer,
            "metadata": self.metadata.to_json(),
            "client": self.client.to_json(),
            "resource": self.resource,
            "scope": self.scope,
            "redirect_uri": self.redirect_uri,
            "server_url": self.server_url,
            "dpop": self.dpop,
            "created_at": self.created_at,
        })
    }
    fn from_json(v: &Value) -> Option<Self> {
        Some(PendingAuthorization {
            state: secret(v, "state")?,
            verifier: secret(v, "verifier")?,
            issuer: s(v, "issuer")?,
            metadata: StoredMetadata::from_json(v.get("metadata")?)?,
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

/// The parts of [`ServerMetadata`] a pending request needs, as a storable record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredMetadata {
    /// `issuer`.
    pub issuer: String,
    /// `token_endpoint`.
    pub token_endpoint: String,
    /// `token_endpoint_auth_methods_supported`.
    pub token_endpoint_auth_methods_supported: Option<Vec<String>>,
    /// `authorization_response_iss_parameter_supported`.
    pub iss_parameter_supported: bool,
    /// `dpop_signing_alg_values_supported`.
    pub dpop_signing_alg_values_supported: Option<Vec<String>>,
    /// `scopes_supported`.
    pub scopes_supported: Option<Vec<String>>,
}

impl Record for StoredMetadata {
    fn to_json(&self) -> Value {
        json!({
            "issuer": self.issuer,
            "token_endpoint": self.token_endpoint,
            "token_endpoint_auth_methods_supported": self.token_endpoint_auth_methods_supported,
            "iss_parameter_supported": self.iss_parameter_supported,
            "dpop_signing_alg_values_supported": self.dpop_signing_alg_values_supported,
            "scopes_supported": self.scopes_supported,
        })
    }
    fn from_json(v: &Value) -> Option<Self> {
        Some(StoredMetadata {
            issuer: s(v, "issuer")?,
            token_endpoint: s(v, "token_endpoint")?,
            token_endpoint_auth_methods_supported: strings(
                v,
                "token_endpoint_auth_methods_supported",
            ),
            iss_parameter_supported: v
                .get("iss_parameter_supported")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            dpop_signing_alg_values_supported: strings(v, "dpop_signing_alg_values_supported"),
            scopes_supported: strings(v, "scopes_supported"),
        })
    }
}

impl From<&ServerMetadata> for StoredMetadata {
    fn from(m: &ServerMetadata) -> Self {
        StoredMetadata {
            issuer: m.issuer.clone(),
            token_endpoint: m.token_endpoint.clone(),
            token_endpoint_auth_methods_supported: m.token_endpoint_auth_methods_supported.clone(),
            iss_parameter_supported: m.iss_parameter_supported,
            dpop_signing_alg_values_supported: m.dpop_signing_alg_values_supported.clone(),
            scopes_supported: m.scopes_supported.clone(),
        }
    }
}

impl StoredMetadata {
    /// Back to the metadata shape (endpoints not needed after the authorization step are unset).
    pub fn to_metadata(&self) -> ServerMetadata {
        ServerMetadata {
            issuer: self.issuer.clone(),
            authorization_endpoint: None,
            token_endpoint: self.token_endpoint.clone(),
            registration_endpoint: None,
            scopes_supported: self.scopes_supported.clone(),
            code_challenge_methods_supported: Some(vec!["S256".into()]),
            token_endpoint_auth_methods_supported: self
                .token_endpoint_auth_methods_supported
                .clone(),
            grant_types_supported: None,
            iss_parameter_supported: self.iss_parameter_supported,
            client_id_metadata_document_supported: false,
            dpop_signing_alg_values_supported: self.dpop_signing_alg_values_supported.clone(),
        }
    }
}

/// Serialises a record for storage. The text holds secrets: it goes to the host's store and
/// nowhere else.
pub fn to_stored<T: Record>(record: &T) -> Secret {
    Secret::new(json_text(&record.to_json()))
}

/// Reads a stored record; `None` when absent or unreadable (an unreadable record is treated as
/// absent, never as an error that blocks sign-in).
pub fn from_stored<T: Record>(text: Option<&str>) -> Option<T> {
    let v: Value = serde_json::from_str(text?).ok()?;
    T::from_json(&v)
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
}
