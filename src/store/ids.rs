//! Random identifiers and secrets from the operating system's random source:
//! opaque ids with a type prefix (`cus_…`) and API key secrets. Nothing here is
//! ever sequential or derived from data.

const BASE62: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// `len` characters drawn uniformly from the base62 alphabet.
///
/// Panics only if the operating system cannot provide randomness, which
/// leaves nothing safe to do.
pub fn base62(len: usize) -> String {
    let mut out = String::with_capacity(len);
    let mut buf = [0u8; 64];
    while out.len() < len {
        getrandom::fill(&mut buf).expect("the operating system's random source failed");
        // 248 = 4 × 62: rejecting the bytes above keeps every character equally likely.
        for b in buf.iter().filter(|b| **b < 248) {
            if out.len() == len {
                break;
            }
            out.push(BASE62[(*b % 62) as usize] as char);
        }
    }
    out
}

/// A fresh opaque identifier such as `cus_4f9Kx…` (20 random characters, ~119 bits).
pub fn new_id(prefix: &str) -> String {
    format!("{prefix}_{}", base62(20))
}

/// `n` random bytes.
pub fn random_bytes(n: usize) -> Vec<u8> {
    let mut buf = vec![0u8; n];
    getrandom::fill(&mut buf).expect("the operating system's random source failed");
    buf
}
