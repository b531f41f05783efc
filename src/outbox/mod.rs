//! The outbox: what leaves kontor over the network. Events written in an
//! act's own transaction, the webhook endpoints they fan out to, the
//! delivery log, the worker threads that send what is due (one loop for
//! every outbox), and the rules for where a webhook may go; the mail a
//! company sends; the EU VAT register asked at issue. Knows no act: the
//! books raise events and enqueue mail here. Never touches hyper: the
//! workers are plain threads with a blocking ureq agent.
//!
//! - `events.rs`: the event kinds (`EventKind`) and `raise`: the event row,
//!   its body serialised once, and its deliveries (`fan_out`: one `PENDING`
//!   row per subscribed endpoint), in the act's transaction.
//! - `endpoints.rs`: endpoints of a tenant (register, list, disable), the
//!   delivery log, `redeliver`; the acts' audit rows are
//!   `books::webhooks`'.
//! - `dispatch.rs`: the one worker loop every outbox runs on: `Outbox` (what
//!   an outbox supplies: what it claims, how it sends, how it records),
//!   `Worker::start` (the leases an earlier process held released, then a
//!   dispatcher thread and its senders, at most one job per lane in flight,
//!   woken by a `Waker` or every `POLL`), the stop that lets jobs in flight
//!   finish; `run_due` for the tests.
//! - `delivery.rs`: the webhook outbox on that loop (`Webhooks`): `claim`
//!   (the due head delivery of each endpoint, leased), `send` (signing, the
//!   guarded resolver, redirects by hand), `record`, the retry schedule;
//!   `start`, which wakes the worker after every commit that raised events.
//! - `address.rs`: where a webhook may go: the URL rules, every address
//!   checked against the non-public ranges, numeric host spellings, and
//!   `--webhook-allow-loopback`; `resolve_checked`.
//! - `vat_register.rs`: the VAT register asked at issue: a VIES REST client
//!   (and the BZSt's eVatR for a German seller) through ureq with a time
//!   limit, and a day's cache per id (`Register::ask`); `Answer` valid,
//!   invalid, unreachable or off.
//! - `mail/`: the mail a company sends.

pub mod address;
pub mod delivery;
pub mod dispatch;
pub mod endpoints;
pub mod events;
pub mod mail;
pub mod vat_register;
