//! Step 17 (16 → 17): a payment a person takes back by a counter-posting
//! keeps the reason (`payments.reversal_reason`); every payment reversed
//! before, by a bank line's undo, has none.

use rusqlite::Connection;

use super::refusal::Stop;

/// The column of step 17, frozen.
const ADDED_IN_17: &str = include_str!("17.sql");

/// Runs step 17.
pub(super) fn run(conn: &Connection) -> Result<(), Stop> {
    conn.execute_batch(ADDED_IN_17)?;
    Ok(())
}
