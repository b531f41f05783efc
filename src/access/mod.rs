//! Who is asking and what they may do: API keys and their authentication,
//! the scopes and the one access table, the per-key rate budget, and the
//! Idempotency-Key records that make creates safe to repeat. Knows no
//! surface: a surface hands over a header value and an `Operation`.

pub mod budget;
pub mod idempotency;
pub mod keys;
pub mod scopes;
