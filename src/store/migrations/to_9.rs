//! Step 9 (8 → 9): an audit row names the API key that acted, now that
//! REST and the agent tools record their acts too. One column; the rows
//! written before name a person or the system and keep no key.

use rusqlite::Connection;

use super::refusal::Stop;

/// The column of step 9, frozen.
const ADDED_IN_9: &str = include_str!("9.sql");

/// Runs step 9.
pub(super) fn run(conn: &Connection) -> Result<(), Stop> {
    conn.execute_batch(ADDED_IN_9)?;
    Ok(())
}
