//! The WIT `auth-options` as the core's OAuth settings. The component's authorization host (the
//! instance's memory store, `wasi:random`, ES256 keys) is the WASI host's:
//! [`crate::transport::wasi_host::WasiAuth`].

use super::exports::client::{AuthGrant, AuthOptions};
use crate::proto::auth::{AuthConfig, AuthError, Grant, Interaction, Secret, StaticClient};

/// The core settings from the WIT `auth-options`.
pub fn config(o: &AuthOptions) -> Result<AuthConfig, AuthError> {
    let grant = match o.grant {
        AuthGrant::ClientCredentials => Grant::ClientCredentials,
        AuthGrant::AuthorizationCode => Grant::AuthorizationCode {
            interaction: Interaction::Host,
        },
    };
    let mut cfg = AuthConfig::new(grant);
    cfg.scope = o.scope.clone();
    cfg.redirect_uri = o.redirect_uri.clone();
    if let Some(d) = o.dpop {
        cfg.dpop = d;
    }
    cfg.client = o.client_id.as_ref().map(|id| StaticClient {
        issuer: None,
        client_id: id.clone(),
        client_secret: o.client_secret.clone().map(Secret::new),
        private_key_jwt: o.private_key_pem.is_some(),
        auth_method: None,
    });
    cfg.validate()?;
    Ok(cfg)
}
