//! The books handed over: each ledger entry as DATEV bookings on the chosen
//! chart of accounts, and the GoBD data medium for a tax audit. The files'
//! bytes are written by `documents::datev`, `documents::gobd` and
//! `documents::archive`, never here.
//!
//! - `settings.rs`: the company's settings for its tax adviser: the chart
//!   (SKR03/SKR04, fixed once exported), the DATEV adviser and client
//!   numbers, the first day of the fiscal year (`set`).
//! - `numbers.rs`: the personal account numbers of partners and the bank
//!   accounts' numbers: given at the first export a partner appears in
//!   (lowest free of the range) and kept; an owner's `change` until the
//!   first DATEV export.
//! - `bookings.rs`: one ledger entry as DATEV bookings: each line on its
//!   chart account, a tax folded into its line where DATEV computes the same
//!   tax, one booking per posting pair; a payment taxed on receipt per
//!   rate with its BU-Schlüssel. Pure functions.
//! - `datev.rs`: the DATEV export act: a period of one fiscal year read from
//!   the journal, the bookings with their documents' Belegfeld 1/2 and text,
//!   the partners they name, the ZIP (with the documents when asked), final
//!   or preliminary, each booking's VAT method for a company ever taxed on
//!   payments, recorded.
//! - `gobd.rs`: the GoBD data medium of a fiscal year: the tables as CSV with
//!   their `index.xml`, the issued and received documents, recorded.
//! - `made.rs`: the register of exports made (period, final or not, rows,
//!   when, by whom) and the list the adviser's page shows.

pub mod bookings;
pub mod datev;
pub mod gobd;
pub mod made;
pub mod numbers;
pub mod settings;
