//! Step 4 (3 → 4) only adds tables: the people of the screens, their
//! memberships and sessions, and the audit of acts. Nothing existing changes.

use rusqlite::Connection;

use super::refusal::Stop;

/// The tables step 4 adds, frozen as version 4 was released.
const SCHEMA_4_ADDED: &str = include_str!("4.sql");

/// Runs step 4.
pub(super) fn run(conn: &Connection) -> Result<(), Stop> {
    conn.execute_batch(SCHEMA_4_ADDED)?;
    Ok(())
}
