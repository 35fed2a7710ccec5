//! The authorization layer's error enum.
//!
//! No variant carries a secret: tokens, codes, `state`, verifiers, client secrets and assertions
//! are never part of an error. Text a server sent is kept only where it cannot carry one of our
//! secrets (an `error` code and description from a token endpoint), and never for an
//! authorization response whose `iss` did not validate (MCP 2026-07-28 `basic/authorization`
//! "Authorization Response Validation": "on mismatch the client MUST NOT act on or display
//! `error`, `error_description`, or `error_uri`").

use std::fmt;

/// Why authorization failed or was refused. Clonable and comparable; carries no runtime types.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AuthError {
    /// No Protected Resource Metadata and no usable fallback, or metadata without an
    /// authorization server.
    DiscoveryFailed {
        /// What was tried.
        detail: String,
    },
    /// The metadata's `resource` does not identify this server (RFC 9728 § 7.3).
    ResourceMismatch {
        /// The PRM `resource`.
        resource: String,
        /// The server URL.
        server: String,
    },
    /// No authorization server metadata whose `issuer` equals the issuer used (RFC 8414 § 3.3).
    MetadataIssuerMismatch {
        /// The issuer the well-known URL was built from.
        expected: String,
        /// The `issuer` the document stated.
        found: String,
    },
    /// Authorization server metadata could not be found at any of the well-known URLs.
    MetadataNotFound {
        /// The issuer.
        issuer: String,
    },
    /// The authorization server does not advertise S256 PKCE (MCP `security-considerations`).
    PkceUnsupported {
        /// The issuer.
        issuer: String,
    },
    /// The authorization server offers no way for this client to identify itself (no
    /// pre-registration, no Client ID Metadata Document support, no registration endpoint).
    NoClientIdentity {
        /// The issuer.
        issuer: String,
    },
    /// Dynamic client registration failed.
    RegistrationFailed {
        /// The HTTP status.
        status: u16,
        /// The OAuth `error` code, when the server sent one.
        error: Option<String>,
    },
    /// The callback's `state` is not the one sent (CSRF protection, OAuth 2.1 § 7.12).
    StateMismatch,
    /// The authorization server advertises `iss` but the response had none (RFC 9207 § 2.4).
    IssMissing {
        /// The recorded issuer.
        expected: String,
    },
    /// The response's `iss` differs from the recorded issuer under simple string comparison
    /// (RFC 9207 § 2.4; mix-up defence).
    IssMismatch {
        /// The recorded issuer.
        expected: String,
        /// The `iss` received.
        found: String,
    },
    /// The authorization server answered the authorization request with an error.
    AuthorizationDenied {
        /// The OAuth `error` code.
        error: String,
        /// `error_description`, when sent.
        description: Option<String>,
    },
    /// The token endpoint refused.
    TokenRequestFailed {
        /// The HTTP status.
        status: u16,
        /// The OAuth `error` code, when sent.
        error: Option<String>,
        /// `error_description`, when sent.
        description: Option<String>,
    },
    /// The token response is not usable (no `access_token`, unknown `token_type`, not JSON).
    InvalidTokenResponse(String),
    /// The server kept refusing after the most authorization attempts one operation may make
    /// (MCP 2026-07-28 `basic/authorization` "Step-Up Authorization Flow": retry "no more than a
    /// few times and treat this as a permanent authorization failure").
    StepUpExhausted {
        /// Authorization attempts made for the operation.
        attempts: u32,
        /// The scope last challenged.
        scope: Option<String>,
    },
    /// 403 without `insufficient_scope`: the token is valid but not allowed (RFC 6750 § 3.1).
    Forbidden {
        /// The `error` code of the challenge, if any.
        error: Option<String>,
    },
    /// The flow needs a person to visit the authorization URL and nothing in this host can do
    /// it (no handler was given). The URL is safe to show: it carries the `state` and PKCE
    /// challenge, never a verifier or token.
    InteractionRequired {
        /// The authorization URL.
        url: String,
    },
    /// The host's sign-in window could not be opened (a browser blocks a popup opened outside a
    /// user gesture): the page can offer the URL as a link, or open it from a click.
    PopupBlocked {
        /// The authorization URL.
        url: String,
    },
    /// Headless authorization (following the redirect without a browser) cannot work here: the
    /// authorization server did not redirect, or the host hides redirects (a browser page's
    /// `redirect: "manual"` gives an opaque response).
    HeadlessUnavailable {
        /// What happened.
        detail: String,
    },
    /// An authorization-server request failed below HTTP.
    Network {
        /// The endpoint.
        endpoint: String,
        /// What the transport said.
        message: String,
    },
    /// A browser blocked an authorization-server request by CORS.
    Cors {
        /// The endpoint.
        endpoint: String,
        /// What the server must allow.
        diagnosis: String,
    },
    /// The host could not sign a proof or assertion, or produce a key.
    Signing(String),
    /// The host's storage failed.
    Storage(String),
    /// The grant cannot run with this configuration.
    InvalidConfig(String),
    /// A refresh or JWT-bearer grant was refused and is not retried (the session keeps no
    /// token for this server).
    NotAuthorized(String),
}

impl AuthError {
    /// A stable machine-readable code (`AUTH_*`), as the JS surface exposes it.
    pub fn code(&self) -> &'static str {
        match self {
            AuthError::DiscoveryFailed { .. } => "AUTH_DISCOVERY",
            AuthError::ResourceMismatch { .. } => "AUTH_RESOURCE_MISMATCH",
            AuthError::MetadataIssuerMismatch { .. } => "AUTH_METADATA_ISSUER_MISMATCH",
            AuthError::MetadataNotFound { .. } => "AUTH_METADATA_NOT_FOUND",
            AuthError::PkceUnsupported { .. } => "AUTH_PKCE_UNSUPPORTED",
            AuthError::NoClientIdentity { .. } => "AUTH_NO_CLIENT_IDENTITY",
            AuthError::RegistrationFailed { .. } => "AUTH_REGISTRATION",
            AuthError::StateMismatch => "AUTH_STATE_MISMATCH",
            AuthError::IssMissing { .. } => "AUTH_ISS_MISSING",
            AuthError::IssMismatch { .. } => "AUTH_ISS_MISMATCH",
            AuthError::AuthorizationDenied { .. } => "AUTH_DENIED",
            AuthError::TokenRequestFailed { .. } => "AUTH_TOKEN",
            AuthError::InvalidTokenResponse(_) => "AUTH_TOKEN_RESPONSE",
            AuthError::StepUpExhausted { .. } => "AUTH_STEP_UP_EXHAUSTED",
            AuthError::Forbidden { .. } => "AUTH_FORBIDDEN",
            AuthError::InteractionRequired { .. } => "AUTH_INTERACTION_REQUIRED",
            AuthError::PopupBlocked { .. } => "AUTH_POPUP_BLOCKED",
            AuthError::HeadlessUnavailable { .. } => "AUTH_HEADLESS_UNAVAILABLE",
            AuthError::Network { .. } => "AUTH_NETWORK",
            AuthError::Cors { .. } => "AUTH_CORS",
            AuthError::Signing(_) => "AUTH_SIGNING",
            AuthError::Storage(_) => "AUTH_STORAGE",
            AuthError::InvalidConfig(_) => "AUTH_CONFIG",
            AuthError::NotAuthorized(_) => "AUTH_NOT_AUTHORIZED",
        }
    }

    /// Whether this is a deliberate refusal to proceed for security reasons (the client did the
    /// right thing by stopping), as opposed to a failure.
    pub fn is_refusal(&self) -> bool {
        matches!(
            self,
            AuthError::ResourceMismatch { .. }
                | AuthError::MetadataIssuerMismatch { .. }
                | AuthError::PkceUnsupported { .. }
                | AuthError::StateMismatch
                | AuthError::IssMissing { .. }
                | AuthError::IssMismatch { .. }
                | AuthError::StepUpExhausted { .. }
        )
    }
}

impl fmt::Display for AuthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AuthError::DiscoveryFailed { detail } => {
                write!(f, "authorization discovery failed: {detail}")
            }
            AuthError::ResourceMismatch { resource, server } => write!(
                f,
                "the protected resource metadata names resource {resource:?}, which does not identify {server:?}; refusing to authorize"
            ),
            AuthError::MetadataIssuerMismatch { expected, found } => write!(
                f,
                "authorization server metadata states issuer {found:?} but was fetched for {expected:?}; it is not used"
            ),
            AuthError::MetadataNotFound { issuer } => {
                write!(f, "no authorization server metadata found for {issuer:?}")
            }
            AuthError::PkceUnsupported { issuer } => write!(
                f,
                "{issuer:?} does not advertise S256 PKCE (code_challenge_methods_supported); refusing to authorize"
            ),
            AuthError::NoClientIdentity { issuer } => write!(
                f,
                "no client identity for {issuer:?}: configure a client id, or a client metadata URL the server supports, or use a server with dynamic registration"
            ),
            AuthError::RegistrationFailed { status, error } => match error {
                Some(e) => write!(f, "client registration failed: HTTP {status} ({e})"),
                None => write!(f, "client registration failed: HTTP {status}"),
            },
            AuthError::StateMismatch => f.write_str(
                "the authorization response's state does not match the request; it is ignored",
            ),
            AuthError::IssMissing { expected } => write!(
                f,
                "the authorization response has no iss although {expected:?} advertises it; rejected (RFC 9207)"
            ),
            AuthError::IssMismatch { expected, found } => write!(
                f,
                "the authorization response came from {found:?}, not {expected:?}; rejected (RFC 9207)"
            ),
            AuthError::AuthorizationDenied { error, description } => match description {
                Some(d) => write!(f, "authorization denied: {error} ({d})"),
                None => write!(f, "authorization denied: {error}"),
            },
            AuthError::TokenRequestFailed {
                status,
                error,
                description,
            } => {
                write!(f, "token request failed: HTTP {status}")?;
                if let Some(e) = error {
                    write!(f, " {e}")?;
                }
                if let Some(d) = description {
                    write!(f, " ({d})")?;
                }
                Ok(())
            }
            AuthError::InvalidTokenResponse(m) => write!(f, "invalid token response: {m}"),
            AuthError::StepUpExhausted { attempts, scope } => {
                write!(
                    f,
                    "the server still refuses after {attempts} authorization attempts"
                )?;
                if let Some(s) = scope {
                    write!(f, " (challenged scope {s:?})")?;
                }
                Ok(())
            }
            AuthError::Forbidden { error } => match error {
                Some(e) => write!(f, "HTTP 403: forbidden ({e})"),
                None => f.write_str("HTTP 403: forbidden"),
            },
            // The URL carries `state`: it is the error's `url` for the host to open, never part
            // of a message that may be logged.
            AuthError::InteractionRequired { .. } => f.write_str(
                "sign-in required: a person must open the authorization URL (the error's url) and the callback must be passed back",
            ),
            AuthError::PopupBlocked { .. } => f.write_str(
                "the browser blocked the sign-in window: open it from a click (the error's url), or offer the url as a link",
            ),
            AuthError::HeadlessUnavailable { detail } => {
                write!(f, "headless authorization is not possible here: {detail}")
            }
            AuthError::Network { endpoint, message } => {
                write!(f, "authorization request to {endpoint} failed: {message}")
            }
            AuthError::Cors { endpoint, diagnosis } => {
                write!(f, "the browser blocked {endpoint} by CORS: {diagnosis}")
            }
            AuthError::Signing(m) => write!(f, "signing failed: {m}"),
            AuthError::Storage(m) => write!(f, "token storage failed: {m}"),
            AuthError::InvalidConfig(m) => write!(f, "invalid auth configuration: {m}"),
            AuthError::NotAuthorized(m) => write!(f, "not authorized: {m}"),
        }
    }
}

impl std::error::Error for AuthError {}
