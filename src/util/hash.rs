//! Small hashes: FNV-1a (name suffixes, jitter seeds), SplitMix64 (jitter) and SHA-256 (OAuth's
//! PKCE, DPoP and thumbprints, tool pins; from `sha2`).
//!
//! FNV-1a is stable across platforms and releases but trivially forgeable, so it only shortens
//! names. Pins use SHA-256 (FIPS 180-4) because a server that wants to swap a tool's description
//! unnoticed would otherwise craft a colliding one.

/// FNV-1a, 32 bits (offset basis 0x811c9dc5, prime 0x01000193).
pub fn fnv1a32(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for &b in bytes {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// FNV-1a, 64 bits (offset basis 0xcbf29ce484222325, prime 0x100000001b3).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// One step of SplitMix64: a well-mixed 64-bit value from a seed (used for seeded jitter; the
/// core draws no randomness of its own).
pub fn splitmix64(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// SHA-256 (FIPS 180-4) of `bytes`, from the RustCrypto `sha2` crate (no hand-written
/// cryptography): PKCE S256, DPoP `ath`, JWK thumbprints and tool pins.
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes).into()
}

/// Lower-case hexadecimal of `bytes` (tool pins, `jti` values from host randomness).
pub fn hex(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(HEX[usize::from(b >> 4)] as char);
        s.push(HEX[usize::from(b & 15)] as char);
    }
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn hex_is_lower_case_two_digits_per_byte() {
        assert_eq!(super::hex(&[0, 255, 16]), "00ff10");
    }
}
