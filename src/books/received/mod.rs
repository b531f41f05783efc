//! Received e-invoices: a file kept exactly as it arrived and the bill
//! read from it (`receive`), the bill as stored and read (`bill`), a
//! person's decision to book or refuse it (`decide`), and how a document is
//! booked, worked out before anything is written (`booking`). Every query
//! is bound to a `Tenant`; the acts take the actor and record their audit.

mod bill;
mod booking;
mod decide;
mod receive;

pub use bill::{
    document, get, list, original, BillFigures, BillState, BillView, Channel, Finding, Original,
    SupplierRef, TaxLine,
};
pub use decide::{book, refuse, trust, MAX_REASON};
pub use receive::{receive, Incoming, Receipt};
