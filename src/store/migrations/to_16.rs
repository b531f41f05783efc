//! Step 16 (15 → 16): the chart of accounts is the ledger's own. A journal
//! line names the chart's account a person chose for it (`chart`, '' on
//! every old line: the ledger account and detail decide, as before), the
//! day sums are kept per such account too (`account_days` rebuilt with
//! `chart` in its key), a bill's line names the account its cost went to
//! ('' on old lines: the general account of their rate), and a company may
//! keep accounts of its own (`chart_accounts`). Nothing old changes its
//! amount.

use rusqlite::Connection;

use super::refusal::Stop;

/// The columns and tables of step 16, frozen.
const CHANGED_IN_16: &str = include_str!("16.sql");

/// Runs step 16.
pub(super) fn run(conn: &Connection) -> Result<(), Stop> {
    conn.execute_batch(CHANGED_IN_16)?;
    Ok(())
}
