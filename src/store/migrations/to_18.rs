//! Step 18 (17 → 18): every bill has a posting date besides its document
//! date (`purchases.posted_on`: the day its entry is dated, which decides
//! its VAT period; the document date on every bill booked before, as its
//! entry was dated so), and may carry its receipt (`purchases.
//! receipt_file_id`, a file of `received_files`, kept as received). No
//! entry changes.

use rusqlite::Connection;

use super::refusal::Stop;

/// The columns of step 18, frozen.
const CHANGED_IN_18: &str = include_str!("18.sql");

/// Runs step 18.
pub(super) fn run(conn: &Connection) -> Result<(), Stop> {
    conn.execute_batch(CHANGED_IN_18)?;
    Ok(())
}
