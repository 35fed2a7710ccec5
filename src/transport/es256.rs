//! ES256 for the WASI component, where there is no WebCrypto: P-256 keys and signatures from the
//! RustCrypto `p256` crate (built only with the `component` feature for the wasi target, so the JS
//! packages do not carry it; they sign with WebCrypto, see `webcrypto.rs`).
//!
//! A DPoP key is generated from 32 bytes of host randomness (RFC 9449 § 4: a fresh key per client
//! instance); a client's `private_key_jwt` key is read from PKCS#8 PEM (RFC 7523 § 2.2). Signatures
//! are deterministic ECDSA (RFC 6979) over SHA-256, returned as the raw 64-byte `r || s` JWS ES256
//! uses (RFC 7518 § 3.4).

use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey};
use p256::pkcs8::DecodePrivateKey;
use serde_json::{json, Value};

use crate::proto::auth::jose::b64url;

/// Most attempts at turning random bytes into a key: a 32-byte string is not a valid P-256 scalar
/// with probability about 2^-32, so a second attempt is already a formality.
const KEYGEN_ATTEMPTS: usize = 4;

/// An ES256 signing key held by the component.
pub struct Es256Key(SigningKey);

impl std::fmt::Debug for Es256Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Es256Key([redacted])")
    }
}

impl Es256Key {
    /// A new key from `random(32)` (the host's randomness).
    pub fn generate(mut random: impl FnMut(usize) -> Vec<u8>) -> Result<Self, String> {
        for _ in 0..KEYGEN_ATTEMPTS {
            if let Ok(k) = SigningKey::from_slice(&random(32)) {
                return Ok(Es256Key(k));
            }
        }
        Err("the random bytes gave no valid P-256 key".into())
    }

    /// The key in a PKCS#8 PEM document (`-----BEGIN PRIVATE KEY-----`, P-256).
    pub fn from_pkcs8_pem(pem: &str) -> Result<Self, String> {
        SigningKey::from_pkcs8_pem(pem)
            .map(Es256Key)
            .map_err(|_| "the private key is not a PKCS#8 PEM P-256 key".into())
    }

    /// The public key as a JWK (RFC 7518 § 6.2.1).
    pub fn public_jwk(&self) -> Value {
        let point = self.0.verifying_key().to_encoded_point(false);
        let coordinate = |c: Option<&p256::FieldBytes>| c.map(|b| b64url(b)).unwrap_or_default();
        json!({
            "kty": "EC",
            "crv": "P-256",
            "x": coordinate(point.x()),
            "y": coordinate(point.y()),
        })
    }

    /// The ES256 signature of `data`: raw `r || s`, 64 bytes.
    pub fn sign(&self, data: &[u8]) -> Vec<u8> {
        let signature: Signature = self.0.sign(data);
        signature.to_bytes().to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use p256::ecdsa::signature::Verifier;
    use p256::ecdsa::VerifyingKey;

    fn unhex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    #[test]
    fn rfc6979_p256_sha256_vector() {
        // RFC 6979 § A.2.5: P-256, SHA-256, message "sample".
        let key = Es256Key(
            SigningKey::from_slice(&unhex(
                "C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721",
            ))
            .unwrap(),
        );
        let sig = key.sign(b"sample");
        assert_eq!(
            sig,
            unhex(
                "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716\
                 F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8"
            )
        );
        let jwk = key.public_jwk();
        assert_eq!(
            jwk["x"],
            b64url(&unhex(
                "60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6"
            ))
        );
        assert_eq!(
            jwk["y"],
            b64url(&unhex(
                "7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299"
            ))
        );
    }

    #[test]
    fn generated_keys_sign_what_their_jwk_verifies_and_debug_hides_them() {
        let mut n = 0u8;
        let key = Es256Key::generate(|len| {
            n += 1;
            vec![n; len]
        })
        .unwrap();
        let sig = key.sign(b"input");
        assert_eq!(sig.len(), 64);
        let verifier: &VerifyingKey = key.0.verifying_key();
        verifier
            .verify(b"input", &Signature::from_slice(&sig).unwrap())
            .unwrap();
        assert_eq!(format!("{key:?}"), "Es256Key([redacted])");
        assert!(
            Es256Key::generate(|len| vec![0; len]).is_err(),
            "zero is no scalar"
        );
        assert!(Es256Key::from_pkcs8_pem(
            "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"
        )
        .is_err());
    }
}
