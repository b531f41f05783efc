//! Step 21 (20 → 21): the tax adviser's role. A person's role in a company
//! and an invitation's may be ADVISER (reads everything, makes and
//! downloads the exports); `memberships` and `one_time_links` are rebuilt
//! from the frozen definitions of `21.sql` with the wider CHECK. The files
//! of exports made from now on are kept (`export_files`, created); exports
//! made before keep their register row without a file.

use rusqlite::Connection;

use super::rebuild::{create_table, rebuild, Catalog};
use super::refusal::Stop;

/// The definitions of step 21, frozen.
const SCHEMA_21: &str = include_str!("21.sql");

/// Tables whose role CHECK widened in version 21; each is rebuilt.
const REBUILT_IN_21: &[&str] = &["memberships", "one_time_links"];

/// Runs step 21.
pub(super) fn run(conn: &Connection) -> Result<(), Stop> {
    let target = Catalog::of(SCHEMA_21)?;
    for table in REBUILT_IN_21 {
        rebuild(conn, &target, table, &[])?;
    }
    create_table(conn, &target, "export_files")?;
    Ok(())
}
