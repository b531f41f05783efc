//! Step 19 (18 → 19): a bill may carry the cash discount its supplier
//! grants (`purchases.discount_until`, `purchases.discount_percent`), as a
//! received e-invoice's payment terms state it; none on every bill booked
//! before. No entry changes.

use rusqlite::Connection;

use super::refusal::Stop;

/// The columns of step 19, frozen.
const CHANGED_IN_19: &str = include_str!("19.sql");

/// Runs step 19.
pub(super) fn run(conn: &Connection) -> Result<(), Stop> {
    conn.execute_batch(CHANGED_IN_19)?;
    Ok(())
}
