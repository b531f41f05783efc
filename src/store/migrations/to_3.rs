//! Step 3 (2 → 3): the particulars e-invoices need. Only columns are added,
//! each empty (NULL) or at its default on every existing row, so no row can
//! break a rule; SQLite places each after the table's last column, where
//! `schema.sql` has them.

use rusqlite::Connection;

use super::refusal::Stop;

/// The columns of version 3, frozen: `ALTER TABLE … ADD COLUMN` in order.
const ADDED_IN_3: &str = include_str!("3.sql");

/// Runs step 3.
pub(super) fn run(conn: &Connection) -> Result<(), Stop> {
    conn.execute_batch(ADDED_IN_3)?;
    Ok(())
}
