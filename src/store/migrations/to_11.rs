//! Step 11 (10 → 11, after the bank's): received
//! e-invoices. The files as they arrived (never changed, triggers refuse
//! it), the bills read from them with their verdict and state, a
//! purchase's lines and its amounts per tax key, where a bill's payment
//! reference and the supplier's account are kept, and the trusted-supplier
//! mark. Files of earlier versions have no received file and no bill; a
//! typed purchase keeps its totals and gets no lines.

use rusqlite::Connection;

use super::refusal::Stop;

/// The tables, triggers and columns of the step, frozen.
const ADDED_IN_11: &str = include_str!("11.sql");

/// Runs the step.
pub(super) fn run(conn: &Connection) -> Result<(), Stop> {
    conn.execute_batch(ADDED_IN_11)?;
    Ok(())
}
