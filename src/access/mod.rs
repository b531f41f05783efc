//! Who is asking and what they may do: API keys and their authentication,
//! the scopes and the one access table, the per-key rate budget, and the
//! Idempotency-Key records that make creates safe to repeat; and for the
//! screens, the people, their roles, passwords, sessions, the one-time
//! links that invite a person or reset a password, and the waits failed
//! sign-ins earn. Knows no surface: a surface hands over a header
//! value, a cookie's id or an `Operation`.

pub mod budget;
pub mod idempotency;
pub mod keys;
pub mod links;
pub mod lockout;
pub mod passwords;
pub mod people;
pub mod scopes;
pub mod sessions;
