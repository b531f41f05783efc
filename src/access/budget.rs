//! The per-key rate budget: a token bucket of 240 tokens, one back every
//! 500 ms, shared by REST and the agent server and kept in memory (a restart
//! refills it). Time is counted in whole milliseconds, so the bucket is exact
//! integer arithmetic. This module decides whether a request may proceed and
//! what the `RateLimit-*` headers say; nothing else.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

/// Tokens a full bucket holds.
pub const CAPACITY: u64 = 240;
/// Milliseconds for one token to come back.
pub const REFILL_MS: u64 = 500;
const FULL_MS: u64 = CAPACITY * REFILL_MS;

/// What the bucket said about one request.
#[derive(Debug, Clone, Copy)]
pub struct Allowance {
    pub allowed: bool,
    /// Whole tokens left after this request.
    pub remaining: u64,
    /// Seconds until the bucket is full again.
    pub reset_seconds: u64,
    /// Seconds until the next token, when refused.
    pub retry_after_seconds: u64,
}

struct Bucket {
    /// Tokens held, in milliseconds of refill (one token = `REFILL_MS`).
    level_ms: u64,
    at: Instant,
}

/// The buckets of every key this process has seen.
pub struct RateLimiter {
    buckets: Mutex<HashMap<String, Bucket>>,
}

impl Default for RateLimiter {
    fn default() -> Self {
        RateLimiter {
            buckets: Mutex::new(HashMap::new()),
        }
    }
}

fn ceil_div(a: u64, b: u64) -> u64 {
    a.div_ceil(b)
}

impl RateLimiter {
    /// Takes one token for `key_id` when `consume` is true and one is there;
    /// with `consume` false only reports the level.
    pub fn check(&self, key_id: &str, consume: bool) -> Allowance {
        self.take(key_id, u64::from(consume))
    }

    /// Takes `tokens` for `key_id` when all of them are there, else none;
    /// with 0 only reports the level.
    pub fn take(&self, key_id: &str, tokens: u64) -> Allowance {
        self.take_at(key_id, tokens, Instant::now())
    }

    /// `take` as of the moment `now` (the bucket's clock), so the refill can
    /// be driven without waiting.
    pub fn take_at(&self, key_id: &str, tokens: u64, now: Instant) -> Allowance {
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        match buckets.get_mut(key_id) {
            Some(bucket) => bucket.take(now, tokens),
            None => {
                let mut bucket = Bucket {
                    level_ms: FULL_MS,
                    at: now,
                };
                let allowance = bucket.take(now, tokens);
                buckets.insert(key_id.to_string(), bucket);
                allowance
            }
        }
    }
}

impl Bucket {
    fn take(&mut self, now: Instant, tokens: u64) -> Allowance {
        let elapsed = now.saturating_duration_since(self.at).as_millis() as u64;
        self.level_ms = (self.level_ms + elapsed).min(FULL_MS);
        self.at = now;
        let needed = tokens.max(1) * REFILL_MS;
        let allowed = self.level_ms >= needed;
        if allowed {
            self.level_ms -= tokens * REFILL_MS;
        }
        let missing = FULL_MS - self.level_ms;
        Allowance {
            allowed,
            remaining: self.level_ms / REFILL_MS,
            reset_seconds: ceil_div(missing, 1000),
            retry_after_seconds: if allowed {
                0
            } else {
                ceil_div(needed.saturating_sub(self.level_ms), 1000).max(1)
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_bucket_runs_dry_at_241_and_gets_one_token_back_every_500_ms() {
        let limiter = RateLimiter::default();
        let start = Instant::now();
        let at = |ms: u64| start + Duration::from_millis(ms);
        let first = limiter.take_at("k", 1, at(0));
        assert_eq!(
            (first.allowed, first.remaining, first.reset_seconds),
            (true, 239, 1)
        );
        for _ in 1..240 {
            assert!(limiter.take_at("k", 1, at(0)).allowed);
        }
        let dry = limiter.take_at("k", 1, at(0));
        assert_eq!(
            (
                dry.allowed,
                dry.remaining,
                dry.retry_after_seconds,
                dry.reset_seconds
            ),
            (false, 0, 1, 120)
        );
        // A refusal takes nothing; 499 ms later there is still no token.
        assert!(!limiter.take_at("k", 1, at(499)).allowed);
        // At 500 ms one is back, and spent.
        let back = limiter.take_at("k", 1, at(500));
        assert_eq!((back.allowed, back.remaining), (true, 0));
        assert!(!limiter.take_at("k", 1, at(500)).allowed);
        // Two minutes fill the bucket again, never past 240.
        let full = limiter.take_at("k", 0, at(500 + 120_000 + 60_000));
        assert_eq!((full.remaining, full.reset_seconds), (240, 0));
        // Several at once: all of them or none.
        assert!(!limiter.take_at("k", 241, at(200_000)).allowed);
        assert_eq!(limiter.take_at("k", 240, at(200_000)).remaining, 0);
        // Another key has its own bucket.
        assert_eq!(limiter.take_at("other", 1, at(200_000)).remaining, 239);
    }
}
