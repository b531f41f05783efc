//! Step 7 (6 → 7): a server keeps pages of customers in memory and must see
//! any change to them, from any process. One table and its triggers; the
//! count starts at none (zero) for every company, as nothing was kept yet.

use rusqlite::Connection;

use super::refusal::Stop;

/// The table and the triggers of step 7, frozen.
const CREATED_IN_7: &str = include_str!("7.sql");

/// Runs step 7.
pub(super) fn run(conn: &Connection) -> Result<(), Stop> {
    conn.execute_batch(CREATED_IN_7)?;
    Ok(())
}
