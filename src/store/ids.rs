//! Random identifiers and secrets from the operating system's random source:
//! opaque ids with a type prefix (`cus_…`) and API key secrets. Nothing here is
//! ever sequential or derived from data.

const BASE62: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// `len` characters drawn uniformly from the base62 alphabet, each call
/// asking the operating system afresh (for secrets: keys, passwords).
///
/// Panics only if the operating system cannot provide randomness, which
/// leaves nothing safe to do.
pub fn base62(len: usize) -> String {
    base62_from(len, |buf| getrandom::fill(buf).expect("the operating system's random source failed"))
}

fn base62_from(len: usize, fill: impl Fn(&mut [u8])) -> String {
    let mut out = String::with_capacity(len);
    let mut buf = [0u8; 64];
    while out.len() < len {
        fill(&mut buf);
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

/// Bytes of the operating system's random source not yet used, per thread:
/// an act that makes thousands of ids (a bank import) asks the kernel once
/// per 4 KiB instead of once per id. Each byte is handed out once.
struct Drawn {
    bytes: [u8; 4096],
    used: usize,
}

thread_local! {
    static DRAWN: std::cell::RefCell<Drawn> = const { std::cell::RefCell::new(Drawn { bytes: [0; 4096], used: 4096 }) };
}

/// Fills `out` (at most 4 KiB) with bytes of the random source, drawn ahead.
fn drawn(out: &mut [u8]) {
    DRAWN.with(|cell| {
        let mut d = cell.borrow_mut();
        if d.used + out.len() > d.bytes.len() {
            getrandom::fill(&mut d.bytes).expect("the operating system's random source failed");
            d.used = 0;
        }
        let from = d.used;
        out.copy_from_slice(&d.bytes[from..from + out.len()]);
        // Used bytes are not kept.
        d.bytes[from..from + out.len()].fill(0);
        d.used += out.len();
    });
}

/// A fresh opaque identifier such as `cus_4f9Kx…` (20 random characters, ~119 bits).
pub fn new_id(prefix: &str) -> String {
    format!("{prefix}_{}", base62_from(20, drawn))
}

/// `n` random bytes.
pub fn random_bytes(n: usize) -> Vec<u8> {
    let mut buf = vec![0u8; n];
    getrandom::fill(&mut buf).expect("the operating system's random source failed");
    buf
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_drawn_ahead_are_well_formed_and_never_repeat_across_refills() {
        // 5,000 ids take 64 bytes each: some 80 refills of the 4 KiB drawn ahead.
        let ids: Vec<String> = (0..5_000).map(|_| new_id("tst")).collect();
        for id in &ids {
            let rest = id.strip_prefix("tst_").expect("the prefix");
            assert_eq!(rest.len(), 20, "{id}");
            assert!(rest.bytes().all(|b| BASE62.contains(&b)), "{id}");
        }
        let distinct: std::collections::HashSet<&String> = ids.iter().collect();
        assert_eq!(distinct.len(), ids.len());
        // Every character of the alphabet turns up (100,000 draws of 62).
        let seen: std::collections::HashSet<u8> = ids.iter().flat_map(|id| id.bytes().skip(4)).collect();
        assert_eq!(seen.len(), 62);
    }
}
