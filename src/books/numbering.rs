//! Numbering sequences: one counter per (company, environment, series),
//! advanced inside the transaction that uses the number, so numbers are
//! consecutive, never reused and never skipped (a rolled-back transaction
//! takes its number back with it).

use rusqlite::{params, Connection, OptionalExtension};

use crate::error::Result;
use crate::store::db::Tx;
use crate::store::tenant::Tenant;

/// Takes the next value of `series`, starting at `first`.
///
/// Fails only on a storage error.
pub fn take(tx: &Tx, tenant: &Tenant, series: &str, first: i64) -> Result<i64> {
    Ok(tx.query_row(
        "INSERT INTO counters (company_id, environment, series, value) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (company_id, environment, series) DO UPDATE SET value = value + 1
         RETURNING value",
        params![tenant.company_id, tenant.environment, series, first],
        |r| r.get(0),
    )?)
}

/// The value `take` would return now, without taking it.
///
/// Fails only on a storage error.
pub fn peek(conn: &Connection, tenant: &Tenant, series: &str, first: i64) -> Result<i64> {
    let current: Option<i64> = conn
        .prepare_cached(
            "SELECT value FROM counters WHERE company_id = ?1 AND environment = ?2 AND series = ?3",
        )?
        .query_row(
            params![tenant.company_id, tenant.environment, series],
            |r| r.get(0),
        )
        .optional()?;
    Ok(current.map_or(first, |v| v + 1))
}
