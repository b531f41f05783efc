//! The cash-basis profit statement (*Einnahmenüberschussrechnung*, § 4 (3)
//! EStG) of a fiscal year, on the lines of that year's Anlage EÜR: income
//! when received and expenses when paid (§ 11 EStG), gross: each payment
//! split over its document in proportion (the net revenue taxable or free
//! of VAT, the VAT received, an asset's sale; the costs per account of the
//! chart, the input VAT paid), the VAT paid to and refunded by the tax
//! office with the ten-day rule at the turn of the year, the money of bank
//! lines booked to an account without a document by that account; instead
//! of an asset's price its depreciation (the register's year: straight-line,
//! one year, low-value assets, the pool) and, when it leaves, its
//! remaining value. Preliminary until the books are closed through the
//! year's end (through the tenth day after it when the ten-day rule may
//! still move a payment into it). Reads only.
//!
//! Refused with a sentence: a year whose form kontor does not know
//! (`rules::euer`), a company whose profit method that year is the balance
//! sheet (its statements are the profit and loss and the balance sheet),
//! books not kept in euro.
//!
//! - `flows.rs`: the money that moved in a span of days: payments split
//!   over their documents, bank lines booked to an account, assets that
//!   took up money not yet assigned.
//! - `turn.rs`: the ten-day rule at the turn of a fiscal year: whether a
//!   VAT prepayment falls due within its first ten days.
//! - `statement.rs`: the statement of a fiscal year (`statement`): the
//!   form, the refusals, the money of the year placed on its lines, the
//!   assets' depreciation, the sums; its answer's shape.
//! - `sheet.rs`: the statement as the document a person hands over
//!   (`documents::euer`), written as a PDF.

mod flows;
mod sheet;
mod statement;
mod turn;

pub use sheet::{pdf, MAX_LISTED};
pub use statement::{statement, Figure, Posting, Statement};
