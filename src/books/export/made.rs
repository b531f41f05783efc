//! The register of exports made: every DATEV export and GoBD data medium
//! is recorded once, with its period, whether it was final, how many rows
//! it held, when it was made, and by whom (the audit row of its act), with
//! the file it handed over, kept to be downloaded again; the list of them
//! the adviser's page shows, and a kept file.

use jiff::civil::Date;
use rusqlite::{params, Connection};
use serde::Serialize;

use crate::books::audit::{self, Act, Actor};
use crate::error::said::Record;
use crate::error::{Result, Said};
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

/// Records an export made in the act's transaction, with its audit row and
/// its file (`name`, `bytes`), kept to be downloaded again; returns its id.
///
/// Fails only on a storage error.
pub fn record(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    made: &Export,
    name: &str,
    bytes: &[u8],
) -> Result<String> {
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
    tx.prepare_cached("INSERT INTO export_files (export_id, name, bytes) VALUES (?1, ?2, ?3)")?
        .execute(params![id, name, bytes])?;
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
    /// The kept file's name; none for an export made before files were kept.
    pub file_name: Option<String>,
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
        "SELECT e.id, e.kind, e.period_from, e.period_to, e.final, e.rows, e.made_at, f.name
         FROM exports e LEFT JOIN export_files f ON f.export_id = e.id
         WHERE e.company_id = ?1 AND e.environment = ?2 ORDER BY e.seq DESC LIMIT ?3",
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
            file_name: row.get(7)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The kept file of the tenant's export `id`: its name and bytes.
///
/// Fails with `NotFound` when the tenant made no such export or its file
/// was not kept (made before version 21).
pub fn file(conn: &Connection, tenant: &Tenant, id: &str) -> Result<(String, Vec<u8>)> {
    use rusqlite::OptionalExtension;
    conn.prepare_cached(
        "SELECT f.name, f.bytes FROM exports e JOIN export_files f ON f.export_id = e.id
         WHERE e.id = ?1 AND e.company_id = ?2 AND e.environment = ?3",
    )?
    .query_row(params![id, tenant.company_id, tenant.environment], |r| {
        Ok((r.get(0)?, r.get(1)?))
    })
    .optional()?
    .ok_or_else(|| crate::error::Error::not_found(Said::Record(Record::Export, id.to_string())))
}
