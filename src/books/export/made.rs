//! The register of exports made: every DATEV export and GoBD data medium
//! is recorded once, with its period, whether it was final, how many rows
//! it held, when it was made, and by whom (the audit row of its act);
//! and the list of them the adviser's page shows.

use jiff::civil::Date;
use rusqlite::{params, Connection};
use serde::Serialize;

use crate::books::audit::{self, Act, Actor};
use crate::error::Result;
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::tenant::Tenant;
use crate::stored_enum;

stored_enum! {
    /// What an export hands over.
    pub enum ExportKind {
        Datev = "datev",
        Gobd = "gobd",
    }
}

/// The period and extent of an export being made.
pub struct Export {
    pub kind: ExportKind,
    pub from: Date,
    pub to: Date,
    pub is_final: bool,
    pub rows: i64,
}

/// Records an export made in the act's transaction, with its audit row;
/// returns its id.
///
/// Fails only on a storage error.
pub fn record(tx: &Tx, tenant: &Tenant, actor: &Actor, made: &Export) -> Result<String> {
    let id = ids::new_id("exp");
    tx.prepare_cached(
        "INSERT INTO exports (id, company_id, environment, kind, period_from, period_to, final, rows, made_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?
    .execute(params![
        id,
        tenant.company_id,
        tenant.environment,
        made.kind,
        made.from,
        made.to,
        made.is_final,
        made.rows,
        clock::now()
    ])?;
    let act = match made.kind {
        ExportKind::Datev => Act::ExportedDatev,
        ExportKind::Gobd => Act::ExportedGobd,
    };
    audit::record(tx, tenant, actor, act, &id)?;
    Ok(id)
}

/// An export made, as the export page lists it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Made {
    pub id: String,
    pub kind: ExportKind,
    pub from: Date,
    pub to: Date,
    #[serde(rename = "final")]
    pub is_final: bool,
    pub rows: i64,
    pub made_at: String,
}

/// The tenant's exports, newest first (at most `limit`).
///
/// Fails only on a storage error.
pub fn list(conn: &Connection, tenant: &Tenant, limit: i64) -> Result<Vec<Made>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, kind, period_from, period_to, final, rows, made_at FROM exports
         WHERE company_id = ?1 AND environment = ?2 ORDER BY seq DESC LIMIT ?3",
    )?;
    let rows = stmt.query_map(params![tenant.company_id, tenant.environment, limit], |r| {
        let row = crate::store::row::Row::new(r, "exports");
        Ok(Made {
            id: row.get(0)?,
            kind: row.get(1)?,
            from: row.get(2)?,
            to: row.get(3)?,
            is_final: row.get(4)?,
            rows: row.get(5)?,
            made_at: row.get(6)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
