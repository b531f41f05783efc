//! Reminders (Mahnwesen): the ladder of levels a company uses and what each
//! reminder states (`ladder`), the company's own levels and base rates
//! (`levels`), the run that proposes the next reminder of every overdue
//! invoice (`run`), and the act that records and mails them (`send`).
//! Fees and interest are stated, never booked: a payment of them is an
//! overpayment of the invoice.

pub mod ladder;
pub mod levels;
pub mod run;
pub mod send;
