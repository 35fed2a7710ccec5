//! Choosing and applying token endpoint client authentication (OAuth 2.1 § 2.4, RFC 7591 § 2,
//! RFC 7523 § 2.2).

use super::metadata::{ClientAuthMethod, ServerMetadata};
use super::records::ClientRecord;
use super::uri::{self, Form};

/// The method to request in dynamic registration: `none` for a public client when the server
/// accepts it, else the first secret-based method the server lists.
pub fn for_registration(asm: &ServerMetadata) -> ClientAuthMethod {
    [
        ClientAuthMethod::None,
        ClientAuthMethod::ClientSecretBasic,
        ClientAuthMethod::ClientSecretPost,
    ]
    .into_iter()
    .find(|m| asm.accepts_auth(*m))
    .unwrap_or(ClientAuthMethod::None)
}

/// The method for a configured client: forced if the user said so; `private_key_jwt` with a
/// key; with a secret, `client_secret_basic` where accepted (the RFC 8414 default), else
/// `client_secret_post`, else `none` (the secret is then not sent); without one, `none`.
pub fn for_configured(
    asm: &ServerMetadata,
    forced: Option<ClientAuthMethod>,
    has_secret: bool,
    has_key: bool,
) -> ClientAuthMethod {
    if let Some(m) = forced {
        return m;
    }
    if has_key {
        return ClientAuthMethod::PrivateKeyJwt;
    }
    if !has_secret {
        return ClientAuthMethod::None;
    }
    [
        ClientAuthMethod::ClientSecretBasic,
        ClientAuthMethod::ClientSecretPost,
    ]
    .into_iter()
    .find(|m| asm.accepts_auth(*m))
    .unwrap_or(ClientAuthMethod::None)
}

/// The method a registration response settles on: the server's `token_endpoint_auth_method`
/// when it names one the client can perform, else what was requested; a secret-based method
/// without a secret degrades to `none`.
pub fn from_registration(
    requested: ClientAuthMethod,
    answered: Option<&str>,
    has_secret: bool,
) -> ClientAuthMethod {
    let m = answered
        .and_then(ClientAuthMethod::parse)
        .filter(|m| *m != ClientAuthMethod::PrivateKeyJwt)
        .unwrap_or(requested);
    match m {
        ClientAuthMethod::ClientSecretBasic | ClientAuthMethod::ClientSecretPost if !has_secret => {
            ClientAuthMethod::None
        }
        m => m,
    }
}

/// Adds the client's authentication to a token request: a `Basic` header (id and secret each
/// form-encoded first, RFC 6749 § 2.3.1), or `client_id` (and `client_secret`) in the body.
/// `private_key_jwt` adds `client_id` here; the assertion itself is a proof the transport signs.
pub fn apply(client: &ClientRecord, headers: &mut Vec<(String, String)>, form: &mut Form) {
    match client.auth_method {
        ClientAuthMethod::ClientSecretBasic => {
            let secret = client
                .client_secret
                .as_ref()
                .map(|s| s.expose())
                .unwrap_or_default();
            let pair = format!(
                "{}:{}",
                uri::form_encode(&client.client_id),
                uri::form_encode(secret)
            );
            headers.push((
                "authorization".into(),
                format!("Basic {}", super::jose::b64(pair.as_bytes())),
            ));
        }
        ClientAuthMethod::ClientSecretPost => {
            form.add("client_id", &client.client_id);
            if let Some(s) = &client.client_secret {
                form.add("client_secret", s.expose());
            }
        }
        ClientAuthMethod::PrivateKeyJwt | ClientAuthMethod::None => {
            form.add("client_id", &client.client_id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto::auth::records::ClientSource;
    use crate::proto::auth::secret::Secret;

    fn asm(methods: Option<&[&str]>) -> ServerMetadata {
        let mut m = ServerMetadata::fallback("https://as");
        m.token_endpoint_auth_methods_supported =
            methods.map(|l| l.iter().map(|s| s.to_string()).collect());
        m
    }

    #[test]
    fn registration_prefers_a_public_client() {
        assert_eq!(
            for_registration(&asm(Some(&["none", "client_secret_basic"]))),
            ClientAuthMethod::None
        );
        assert_eq!(
            for_registration(&asm(Some(&["client_secret_post"]))),
            ClientAuthMethod::ClientSecretPost
        );
        assert_eq!(
            for_registration(&asm(None)),
            ClientAuthMethod::ClientSecretBasic
        );
    }

    #[test]
    fn configured_clients() {
        let basic_only = asm(Some(&["client_secret_basic"]));
        assert_eq!(
            for_configured(&basic_only, None, true, false),
            ClientAuthMethod::ClientSecretBasic
        );
        assert_eq!(
            for_configured(&asm(Some(&["client_secret_post"])), None, true, false),
            ClientAuthMethod::ClientSecretPost
        );
        assert_eq!(
            for_configured(&asm(Some(&["none"])), None, true, false),
            ClientAuthMethod::None
        );
        assert_eq!(
            for_configured(&basic_only, None, false, false),
            ClientAuthMethod::None
        );
        assert_eq!(
            for_configured(&basic_only, None, true, true),
            ClientAuthMethod::PrivateKeyJwt
        );
        assert_eq!(
            for_configured(
                &basic_only,
                Some(ClientAuthMethod::ClientSecretPost),
                true,
                false
            ),
            ClientAuthMethod::ClientSecretPost
        );
    }

    #[test]
    fn registration_answers() {
        use ClientAuthMethod as M;
        assert_eq!(
            from_registration(M::None, Some("client_secret_basic"), true),
            M::ClientSecretBasic
        );
        assert_eq!(
            from_registration(M::ClientSecretPost, None, true),
            M::ClientSecretPost
        );
        assert_eq!(
            from_registration(M::ClientSecretBasic, None, false),
            M::None
        );
        assert_eq!(
            from_registration(M::None, Some("private_key_jwt"), true),
            M::None
        );
        assert_eq!(from_registration(M::None, Some("bogus"), true), M::None);
    }

    #[test]
    fn basic_header_encodes_id_and_secret() {
        let c = ClientRecord {
            issuer: "i".into(),
            client_id: "id:x".into(),
            client_secret: Some(Secret::new("s&e")),
            auth_method: ClientAuthMethod::ClientSecretBasic,
            source: ClientSource::Configured,
            redirect_uri: None,
        };
        let (mut h, mut f) = (vec![], Form::new());
        apply(&c, &mut h, &mut f);
        assert!(f.as_str().is_empty());
        let v = h[0].1.strip_prefix("Basic ").unwrap();
        use base64ct::{Base64, Encoding};
        let decoded = String::from_utf8(Base64::decode_vec(v).unwrap()).unwrap();
        assert_eq!(decoded, "id%3Ax:s%26e");
        let post = ClientRecord {
            auth_method: ClientAuthMethod::ClientSecretPost,
            ..c.clone()
        };
        let (mut h, mut f) = (vec![], Form::new());
        apply(&post, &mut h, &mut f);
        assert!(h.is_empty());
        assert_eq!(f.as_str(), "client_id=id%3Ax&client_secret=s%26e");
        let none = ClientRecord {
            auth_method: ClientAuthMethod::None,
            ..c
        };
        let (mut h, mut f) = (vec![], Form::new());
        apply(&none, &mut h, &mut f);
        assert!(h.is_empty());
        assert_eq!(f.as_str(), "client_id=id%3Ax");
    }
}
