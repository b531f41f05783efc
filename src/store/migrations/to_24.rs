//! Step 24 (23 → 24): the moves of VAT not yet due or not yet deductible
//! (`vat_moves`, empty on an older file: its companies owed VAT on
//! invoices), and on bills whether the supplier taxes on payments received
//! and whether the bill is a down payment (neither on an older file's
//! bills). No entry changes.

use rusqlite::Connection;

use super::refusal::Stop;

/// The columns and table of step 24, frozen.
const CHANGED_IN_24: &str = include_str!("24.sql");

/// Runs step 24.
pub(super) fn run(conn: &Connection) -> Result<(), Stop> {
    conn.execute_batch(CHANGED_IN_24)?;
    Ok(())
}
