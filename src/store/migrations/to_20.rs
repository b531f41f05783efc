//! Step 20 (19 → 20): fixed assets. The register (`assets`: each asset with
//! its class, acquisition day and cost, method, accounts, the bill line it
//! came from and its disposal), the depreciation posted per asset and
//! fiscal year (`asset_depreciations`) and each fiscal year's choices of
//! the low-value rule and the pool (`depreciation_rules`), all empty on an
//! older file. No entry changes.

use rusqlite::Connection;

use super::refusal::Stop;

/// The tables of step 20, frozen.
const CHANGED_IN_20: &str = include_str!("20.sql");

/// Runs step 20.
pub(super) fn run(conn: &Connection) -> Result<(), Stop> {
    conn.execute_batch(CHANGED_IN_20)?;
    Ok(())
}
