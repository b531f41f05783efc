//! The open items: what each act changes in the open receivables and
//! payables, written in the act's own transaction, by the day the change
//! takes effect and the day the amount falls due. The acts (issuing,
//! cancelling, settling, recording a purchase) write here; the outstanding
//! report reads it.

use jiff::civil::Date;

use crate::error::Result;
use crate::store::db::Tx;
use crate::store::tenant::Tenant;
use crate::stored_enum;

stored_enum! {
    /// Which open items a change concerns.
    pub enum Side {
        Receivable = "receivable",
        Payable = "payable",
    }
}

/// The due date of what is never due (a supplier's credit not yet applied).
pub const NEVER_DUE: Date = Date::constant(9999, 12, 31);

/// Records that on `effective_on` the open amount due on `due_on` changed by
/// `amount` (book currency) and the number of open documents by `documents`.
///
/// Fails only on a storage error.
pub fn change(
    tx: &Tx,
    tenant: &Tenant,
    side: Side,
    effective_on: Date,
    due_on: Date,
    amount: i64,
    documents: i64,
) -> Result<()> {
    tx.add_up(
        "INSERT INTO open_items (company_id, environment, side, effective_on, due_on, amount, documents)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT (company_id, environment, side, effective_on, due_on)
         DO UPDATE SET amount = amount + excluded.amount, documents = documents + excluded.documents",
        [
            &tenant.company_id,
            tenant.environment.as_str(),
            side.as_str(),
            &effective_on.to_string(),
            &due_on.to_string(),
        ],
        [amount, documents],
    )
}
