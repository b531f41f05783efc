//! Random identifiers and secrets from the operating system's random source:
//! opaque ids with a type prefix (`cus_…`) and API key secrets. Nothing here is
//! ever sequential or derived from data: within a bulk act (`in_order`) the
//! ids are still drawn at random, a batch at a time, and only handed out
//! in ascending order.

const BASE62: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// `len` characters drawn uniformly from the base62 alphabet, each call
/// asking the operating system afresh (for secrets: keys, passwords).
///
/// Panics only if the operating system cannot provide randomness, which
/// leaves nothing safe to do.
pub fn base62(len: usize) -> String {
    base62_from(len, |buf| {
        getrandom::fill(buf).expect("the operating system's random source failed")
    })
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

/// Characters after an id's prefix.
const ID_CHARS: usize = 20;

/// A fresh opaque identifier such as `cus_4f9Kx…` (20 random characters, ~119 bits).
pub fn new_id(prefix: &str) -> String {
    let from_batch = ORDERED.with(|cell| {
        let mut ordered = cell.borrow_mut();
        let batches = ordered.as_mut()?;
        let batch = match batches.iter_mut().find(|b| b.prefix == prefix) {
            Some(b) => b,
            None => {
                batches.push(Batch {
                    prefix: prefix.to_string(),
                    left: Vec::new(),
                    next: FIRST_BATCH,
                });
                batches.last_mut()?
            }
        };
        if batch.left.is_empty() {
            batch.draw();
        }
        batch.left.pop()
    });
    match from_batch {
        Some(chars) => {
            let mut id = String::with_capacity(prefix.len() + 1 + ID_CHARS);
            id.push_str(prefix);
            id.push('_');
            // Drawn from the base62 alphabet: ASCII.
            id.extend(chars.iter().map(|&b| b as char));
            id
        }
        None => format!("{prefix}_{}", base62_from(ID_CHARS, drawn)),
    }
}

/// The first batch a bulk act draws per prefix; each next one is twice as
/// large, up to `LAST_BATCH` (1.3 MB of characters).
const FIRST_BATCH: usize = 64;
const LAST_BATCH: usize = 65_536;

/// Ids of one prefix drawn for a bulk act and not handed out yet, largest
/// first (handed out from the end: ascending).
struct Batch {
    prefix: String,
    left: Vec<[u8; ID_CHARS]>,
    next: usize,
}

impl Batch {
    fn draw(&mut self) {
        self.left = (0..self.next)
            .map(|_| {
                let mut chars = [0u8; ID_CHARS];
                chars.copy_from_slice(base62_from(ID_CHARS, drawn).as_bytes());
                chars
            })
            .collect();
        // Descending, so `pop` hands them out in ascending order; the
        // alphabet is in ASCII order, as SQLite compares text.
        self.left.sort_unstable_by(|a, b| b.cmp(a));
        self.next = (self.next * 2).min(LAST_BATCH);
    }
}

thread_local! {
    /// The batches of the bulk act running on this thread, if one is.
    static ORDERED: std::cell::RefCell<Option<Vec<Batch>>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f`, a bulk act making thousands of rows (a bank import), with the
/// ids it makes drawn at random in batches and handed out in ascending
/// order: each table's id index then takes them in order, which is
/// cheaper than taking them at random (docs/performance.md, "Bank
/// statements"). Each id is as random as any
/// other; what the order shows is which of two rows the same act made
/// first, which their lists show too. Ids not handed out when `f` returns
/// are forgotten. Nested, it runs `f` in the outer act's batches.
pub fn in_order<T>(f: impl FnOnce() -> T) -> T {
    struct Forget;
    impl Drop for Forget {
        fn drop(&mut self) {
            ORDERED.with(|cell| *cell.borrow_mut() = None);
        }
    }
    if ORDERED.with(|cell| cell.borrow().is_some()) {
        return f();
    }
    ORDERED.with(|cell| *cell.borrow_mut() = Some(Vec::new()));
    let _forget = Forget;
    f()
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
        let seen: std::collections::HashSet<u8> =
            ids.iter().flat_map(|id| id.bytes().skip(4)).collect();
        assert_eq!(seen.len(), 62);
    }

    #[test]
    fn a_bulk_act_hands_out_random_ids_ascending_per_batch_and_forgets_the_rest() {
        // 64 + 128 + 256 + 512 = 960 ids: four batches; another prefix beside them.
        let (ids, other) = in_order(|| {
            let ids: Vec<String> = (0..960).map(|_| new_id("tst")).collect();
            let other: Vec<String> = (0..10).map(|_| new_id("oth")).collect();
            (ids, other)
        });
        for id in ids.iter().chain(&other) {
            let rest = &id[4..];
            assert_eq!(rest.len(), 20, "{id}");
            assert!(rest.bytes().all(|b| BASE62.contains(&b)), "{id}");
        }
        assert!(other.iter().all(|id| id.starts_with("oth_")));
        assert!(other.windows(2).all(|w| w[0] < w[1]));
        let distinct: std::collections::HashSet<&String> = ids.iter().collect();
        assert_eq!(distinct.len(), ids.len());
        // Ascending within each batch, and each batch drawn afresh: the
        // first of the next batch is not above every one before it.
        let mut from = 0;
        let mut restarts = 0;
        for size in [64, 128, 256, 512] {
            let batch = &ids[from..from + size];
            assert!(
                batch.windows(2).all(|w| w[0] < w[1]),
                "batch at {from} not ascending"
            );
            if from > 0 && ids[from] < ids[from - 1] {
                restarts += 1;
            }
            from += size;
        }
        assert!(restarts >= 1, "four batches in one ascending run");
        // Outside the act ids come one by one again (not ascending for long).
        let after: Vec<String> = (0..64).map(|_| new_id("tst")).collect();
        assert!(after.windows(2).any(|w| w[0] > w[1]));
        assert!(ORDERED.with(|cell| cell.borrow().is_none()));
    }
}
