//! Step 13 (12 → 13): what the tax adviser and the tax office need. Companies gain their DATEV settings (the chart of accounts,
//! SKR03 by default, the adviser's and client's numbers, none until set,
//! and the first day of the fiscal year, 1 January by default); the account
//! numbers given to partners and bank accounts are kept in a table of
//! their own, and every export made is recorded. Nothing old changes.

use rusqlite::Connection;

use super::refusal::Stop;

/// The columns and tables of step 13, frozen.
const ADDED_IN_13: &str = include_str!("13.sql");

/// Runs step 13.
pub(super) fn run(conn: &Connection) -> Result<(), Stop> {
    conn.execute_batch(ADDED_IN_13)?;
    Ok(())
}
