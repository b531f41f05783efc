//! The outbox: what leaves kontor over the network. Events written in an
//! act's own transaction, the webhook endpoints they fan out to, the
//! delivery log, the worker threads that send what is due (one loop for
//! every outbox, `dispatch`), and the rules
//! for where a webhook may go; the mail a company sends (`mail`); the EU
//! VAT register asked at issue (`vat_register`). Knows no act; the books
//! raise events and enqueue mail here.

pub mod address;
pub mod delivery;
pub mod dispatch;
pub mod endpoints;
pub mod events;
pub mod mail;
pub mod vat_register;
