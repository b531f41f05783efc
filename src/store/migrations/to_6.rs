//! Step 6 (5 → 6): the owner manages the company's people on the screens. A
//! column is added (empty on every membership: none is disabled) and one
//! table created; nothing existing changes.

use rusqlite::Connection;

use super::refusal::Stop;

/// The column and the table of step 6, frozen.
const ADDED_IN_6: &str = include_str!("6.sql");

/// Runs step 6.
pub(super) fn run(conn: &Connection) -> Result<(), Stop> {
    conn.execute_batch(ADDED_IN_6)?;
    Ok(())
}
