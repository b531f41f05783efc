//! Who is asking and what they may do: API keys and their authentication,
//! the scopes and the one access table, the per-key rate budget, and the
//! Idempotency-Key records that make creates safe to repeat; and for the
//! screens, the people, their roles, passwords, sessions, the one-time
//! links that invite a person or reset a password, the waits failed
//! sign-ins earn, and the second factors of a two-factor sign-in. Knows no surface: a surface hands over a header
//! value, a cookie's id or an `Operation`.
//!
//! - `keys.rs`: minting, listing, revoking keys (only their SHA-256 stored);
//!   turning an `Authorization` value into an `AuthedKey`; the keys kept in
//!   memory (`KeyCache`) and the noted uses written once a second
//!   (`UsageLog`). Decides who is calling, not what they may do.
//! - `scopes.rs`: the published scopes, the permissions they grant, and the
//!   one table of what each `Operation` needs; REST routes and agent tools
//!   both ask it.
//! - `budget.rs`: the per-key token bucket (`RateLimiter`: 240 tokens, one
//!   back every 500 ms) in memory, and its `Allowance`: whether a request may
//!   proceed and what the `RateLimit-*` headers say.
//! - `idempotency.rs`: the Idempotency-Key rules of every create: the work,
//!   the remembered record and the key row in one transaction; replays;
//!   purging after 30 days.
//! - `people.rs`: people, their memberships with one role each, `Role::may`,
//!   the one table of what a role may do (`Capability`), and `acting`, the
//!   person a console act names; a company keeps an enabled owner.
//! - `passwords.rs`: Argon2id hashes in PHC form, a check that costs the same
//!   for an unknown account (the decoy), and the cap on how many hashes run
//!   at once (`capped`).
//! - `sessions.rs`: server-side sessions: start, find, touch, switch, end,
//!   purge; the form token (`same_token`); idle and absolute expiry.
//! - `links.rs`: one-time links (invitations, password resets): made,
//!   opened, used once, replaced by a newer one.
//! - `lockout.rs`: the waits failed sign-ins earn, in memory.
//! - `steps.rs`: the half of a sign-in between the password and the second
//!   factor: no session, it reads nothing.
//! - `totp.rs`: a person's authenticator app (RFC 6238): the secret made,
//!   sealed and shown once, confirmed by a first code, each code taken once.
//! - `recovery.rs`: ten single-use recovery codes, only their SHA-256 kept.
//! - `passkeys.rs`: passkeys (WebAuthn) registered, used after the
//!   password, removed; the relying party of a server.
//! - `two_factor.rs`: a person's factors as a whole, the company's
//!   requirement of two factors, new recovery codes, an owner's reset.

pub mod budget;
pub mod idempotency;
pub mod keys;
pub mod links;
pub mod lockout;
pub mod passkeys;
pub mod passwords;
pub mod people;
pub mod recovery;
pub mod scopes;
pub mod sessions;
pub mod steps;
pub mod totp;
pub mod two_factor;
