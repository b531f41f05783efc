//! Received e-invoices: a file kept exactly as it arrived, the bill read
//! from it, and a person's decision to book or refuse it. Every query is
//! bound to a `Tenant`; the acts take the actor and record their audit. A
//! file is parsed by `documents::read`, never here, and a kept file is never
//! changed (the data file's triggers refuse it).
//!
//! - `receive.rs`: `receive`: read and checked, refused with a sentence,
//!   refused as a duplicate naming the first, or kept with its bill (and
//!   booked at once for a trusted supplier).
//! - `bill.rs`: a bill as stored (`BillView`, `BillState`, `Channel`), its
//!   reads (`get`, `list`; `shown` and `with_checks` with its warnings and
//!   payment terms), the kept file (`original`, its SHA-256 checked)
//!   and its document read again (`document`).
//! - `checks.rs`: the warnings before booking (`Warning`: the buyer is not
//!   the company, a date more than a year back or ahead, a supplier found
//!   under another name), the person's `Decision` on them, the payment
//!   terms as a bill shows them (`TermsView`).
//! - `decide.rs`: `book` (refused while a warning is not decided on),
//!   `refuse` and `trust`.
//! - `booking.rs`: how a document is booked (bill or credit, amounts per tax
//!   key, reverse charge), worked out before anything is written; the
//!   supplier particulars it names.

mod bill;
mod booking;
mod checks;
mod decide;
mod receive;

pub use bill::{
    document, get, list, original, shown, with_checks, BillFigures, BillState, BillView, Channel,
    Finding, Original, SupplierRef, TaxLine,
};
pub use checks::{Decision, SupplierChoice, TermsView, Warning};
pub use decide::{book, refuse, trust, MAX_REASON};
pub(crate) use receive::keep_file;
pub use receive::{receive, Incoming, Receipt};
