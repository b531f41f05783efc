//! Reminders (Mahnwesen): the ladder of levels a company uses and what each
//! reminder states (`ladder`). Fees and interest are stated, never booked:
//! a payment of them is an overpayment of the invoice.

pub mod ladder;
