//! Reminders (Mahnwesen): the ladder of levels a company uses and what each
//! reminder states, the company's own levels and base rates, the run that
//! proposes the next reminder of every overdue invoice, and the act that
//! records and mails them. Fees and interest are stated, never booked: a
//! payment of them is an overpayment of the invoice.
//!
//! - `ladder.rs`: the levels (the default three), the level an invoice is due
//!   for on a day, and what its reminder states: pure rules over dates and
//!   amounts.
//! - `levels.rs`: the company's own levels and its rows of the base-rate
//!   table.
//! - `run.rs`: the run of a day (a read): the proposals, and an invoice's
//!   reminders with their letters.
//! - `send.rs`: the act that records the proposed reminders with their PDFs
//!   and mails them.

pub mod ladder;
pub mod levels;
pub mod run;
pub mod send;
