//! Step 10 (9 → 10): bank statements. The company's bank accounts, the
//! statement files imported into them (kept with their SHA-256), their
//! statements, entries and lines, and what each line settled or booked; a
//! payment names the bank line it came from and the day it was reversed;
//! an invoice keeps the creditor reference it was issued with (none for
//! those issued before); a company its fee tolerance (0).

use rusqlite::Connection;

use super::refusal::Stop;

/// The tables and columns of step 10, frozen.
const ADDED_IN_10: &str = include_str!("10.sql");

/// Runs step 10.
pub(super) fn run(conn: &Connection) -> Result<(), Stop> {
    conn.execute_batch(ADDED_IN_10)?;
    Ok(())
}
