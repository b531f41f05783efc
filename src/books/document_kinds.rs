//! The kinds of documents the books hold, below every part that reads
//! them: an issued document is an invoice or the correction that reverses
//! one (`DocumentType`, the contract's `documentType`), a purchase a bill
//! or a supplier's credit (`PurchaseKind`). Invoices, purchases, the
//! settlement act and the reports all name them from here.

use crate::stored_enum;

stored_enum! {
    /// An invoice, or the correction document that reverses one.
    pub enum DocumentType {
        Invoice = "INVOICE",
        Correction = "CORRECTION",
    }
}

stored_enum! {
    /// A bill (we owe) or a supplier's credit (we are owed less).
    pub enum PurchaseKind {
        Bill = "bill",
        Credit = "credit",
    }
}
