//! The VAT return's figures (*Umsatzsteuer-Voranmeldung*) and the EC sales
//! list (*Zusammenfassende Meldung*) of a month or quarter, read from the
//! ledger alone: each figure from the postings with its tax key, every
//! figure's postings listed behind it. It posts and writes nothing.
//! Transmission to the tax office (ELSTER) is not kontor's: it needs the
//! taxpayer's certificate.
//!
//! - `period.rs`: the period filed for: a month or a quarter.
//! - `figures.rs`: each Kz from the postings with its tax key, bases in whole
//!   euros cut toward zero, the form's tax of Kz 81 and 86 beside the booked
//!   one, Kz 83. Pure functions.
//! - `ec_sales.rs`: the EC sales list's rows per VAT id and kind. Pure
//!   functions.
//! - `filing.rs`: the VAT return and the EC sales list of a tenant's period,
//!   read from the journal (`vat_return`, `ec_sales_list`; final when the
//!   books are closed through its end), each posting naming its document
//!   and, where VAT waited for the money, the payment that brought it due.

pub mod ec_sales;
pub mod figures;
pub mod filing;
pub mod period;
