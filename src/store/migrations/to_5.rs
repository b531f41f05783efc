//! Step 5 (4 → 5): the VAT of each line and the documents of an invoice.
//! Columns are added (SQLite places each after the table's last column,
//! where `schema.sql` has them) and one table created; invoices issued
//! before get a note that they have no documents.

use rusqlite::Connection;

use super::refusal::Stop;

/// The columns and the table of step 5, frozen.
const ADDED_IN_5: &str = include_str!("5.sql");

/// What an invoice issued before documents were written says.
const NO_DOCUMENTS_BEFORE: &str =
    "Issued before kontor wrote e-invoice documents; this invoice has none.";

/// Runs step 5.
pub(super) fn run(conn: &Connection) -> Result<(), Stop> {
    conn.execute_batch(ADDED_IN_5)?;
    conn.execute(
        "UPDATE invoices SET documents_note = ?1",
        [NO_DOCUMENTS_BEFORE],
    )?;
    Ok(())
}
