//! Step 23 (22 → 23): a company's legal form (`companies.legal_form`, none
//! on an older file) and its tax methods (`tax_methods`: VAT on invoices or
//! on payments, profit by balance sheet or EÜR, the VAT return's period and
//! extension, each row from its day), empty on an older file, so its
//! companies owe VAT on invoices and draw up a balance sheet. No entry
//! changes.

use rusqlite::Connection;

use super::refusal::Stop;

/// The column and table of step 23, frozen.
const CHANGED_IN_23: &str = include_str!("23.sql");

/// Runs step 23.
pub(super) fn run(conn: &Connection) -> Result<(), Stop> {
    conn.execute_batch(CHANGED_IN_23)?;
    Ok(())
}
