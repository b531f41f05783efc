//! The outbox: events written in an act's own transaction, the webhook
//! endpoints they fan out to, the delivery log, the worker threads that send
//! what is due, and the rules for where a webhook may go. Knows no act; the
//! books raise events here.

pub mod address;
pub mod delivery;
pub mod endpoints;
pub mod events;
