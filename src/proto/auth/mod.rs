//! OAuth 2.1 authorization for MCP servers, sans-IO (MCP 2026-07-28 `basic/authorization`,
//! `authorization-server-discovery`, `client-registration`, `security-considerations`; MCP
//! 2025-11-25 `basic/authorization`; the 2025-03-26 fallbacks; the client-credentials,
//! enterprise-managed, workload-identity and DPoP extensions).
//!
//! ```text
//!   401/403 of an MCP request ─► Authorizer ─► HTTP requests (metadata, registration, token)
//!   responses, storage reads, entropy, keys, the callback ─►    │ events: save/load, "open URL"
//!                                                               └► tokens ─► decorate(request)
//! ```
//!
//! The [`Authorizer`] runs inside the session ([`crate::proto::session`]): a refused request
//! waits for the flow and is replayed. Nothing here signs or draws randomness: DPoP proofs and
//! client assertions are [`ProofSpec`]s the transport signs with the host's key just before it
//! sends, and random bytes come from the host ([`AuthEvent::NeedEntropy`]). Identifiers
//! (issuer, `iss`, `resource`) stay the exact strings received ([`uri`]); secrets are
//! [`Secret`]s that print as `[redacted]`.

pub mod challenge;
pub mod client_auth;
pub mod config;
pub mod error;
pub mod flow;
pub mod jose;
pub mod metadata;
pub mod records;
pub mod redact;
pub mod scope;
pub mod secret;
pub use super::uri;

pub use config::{AuthConfig, Grant, Interaction, StaticClient};
pub use error::AuthError;
pub use flow::{
    AuthEvent, AuthOutput, AuthReqId, AuthResponse, Authorizer, ChallengeOutcome,
    MAX_AUTH_RESPONSE_BYTES,
};
pub use jose::{KeyRole, ProofSpec};
pub use records::TokenType;
pub use secret::Secret;
