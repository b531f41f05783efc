//! Step 15 (14 → 15): the tenancy rule in the schema, everywhere. Every
//! reference from a company-owned row into a company-owned table becomes
//! composite with `company_id` and `environment`, so SQLite refuses a row
//! that points into another company or environment: a payment's bank line,
//! an audit row's key, a bank entry's statements and account, a line's
//! settlement's payment. The tables holding those references are rebuilt
//! from the frozen definitions of `15.sql`; the keys and the statements
//! gain the unique index the references point at. A row that points
//! elsewhere stops the step (the runner's foreign key check names it).

use rusqlite::Connection;

use super::rebuild::{rebuild, Catalog};
use super::refusal::Stop;

/// The definitions of step 15, frozen.
const SCHEMA_15: &str = include_str!("15.sql");

/// Tables whose references became composite in version 15; each is rebuilt.
const REBUILT_IN_15: &[&str] = &["payments", "audit", "bank_entries", "bank_settlements"];

/// Runs step 15.
pub(super) fn run(conn: &Connection) -> Result<(), Stop> {
    let target = Catalog::of(SCHEMA_15)?;
    conn.execute_batch(
        "CREATE UNIQUE INDEX api_keys_tenant ON api_keys (id, company_id, environment);
         CREATE UNIQUE INDEX bank_statements_tenant ON bank_statements (id, company_id, environment);",
    )?;
    for table in REBUILT_IN_15 {
        rebuild(conn, &target, table, &[])?;
    }
    Ok(())
}
