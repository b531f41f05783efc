//! The register of VAT not yet due: each move of a document's output tax
//! not yet due (a sale taxed on payments received) or input tax not yet
//! deductible (a bill paid later), with the ledger entry that made it, and
//! what a document has not due through a day (the sum of its moves up to
//! that day). Rows only: the postings are `vat_due`'s.

use jiff::civil::Date;
use rusqlite::{params, Connection};

use crate::error::Result;
use crate::rules::cash_vat::Share;
use crate::store::db::Tx;
use crate::store::row::Row;
use crate::store::tenant::Tenant;
use crate::stored_enum;

stored_enum! {
    /// Whose VAT moved: a sale's output tax or a purchase's input tax.
    pub enum Side {
        Sale = "sale",
        Purchase = "purchase",
    }
}

stored_enum! {
    /// What moved it.
    pub enum Kind {
        /// The document booked its VAT as not yet due.
        Issued = "issued",
        /// Money came in (or went out, on a bill): due now.
        Received = "received",
        /// A payment taken back: not due again.
        Refunded = "refunded",
        /// A discount, a fee or a loss settled the rest: never due.
        Released = "released",
        /// Such a settlement undone: not due again.
        Restored = "restored",
        /// The invoice corrected in full while not due.
        Cancelled = "cancelled",
        /// The company owes VAT on invoices from a day on: due then.
        Switched = "switched",
    }
}

/// One move, as the register keeps it.
#[derive(Debug, Clone)]
pub struct Move {
    pub side: Side,
    pub entry: String,
    pub document: String,
    pub payment: Option<String>,
    pub on: Date,
    pub kind: Kind,
    pub key: String,
    /// The change of what is not due (added positive, taken off negative).
    pub base: i64,
    pub tax: i64,
}

/// Writes `m` (nothing when it moves nothing).
///
/// Fails only on a storage error.
pub fn insert(tx: &Tx, tenant: &Tenant, m: &Move) -> Result<()> {
    if m.base == 0 && m.tax == 0 {
        return Ok(());
    }
    tx.prepare_cached(
        "INSERT INTO vat_moves (company_id, environment, entry, side, document_id, payment_id, moved_on,
             kind, tax_key, base, tax)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?
    .execute(params![
        tenant.company_id,
        tenant.environment,
        m.entry,
        m.side,
        m.document,
        m.payment,
        m.on,
        m.kind,
        m.key,
        m.base,
        m.tax
    ])?;
    Ok(())
}

const COLUMNS: &str =
    "side, entry, document_id, payment_id, moved_on, kind, tax_key, base, tax FROM vat_moves";

fn move_of(row: &rusqlite::Row) -> rusqlite::Result<Move> {
    let r = Row::new(row, "vat_moves");
    Ok(Move {
        side: r.get(0)?,
        entry: r.get(1)?,
        document: r.get(2)?,
        payment: r.get(3)?,
        on: r.get(4)?,
        kind: r.get(5)?,
        key: r.get(6)?,
        base: r.get(7)?,
        tax: r.get(8)?,
    })
}

/// The moves of `document`, in the order made.
///
/// Fails only on a storage error.
pub fn of_document(conn: &Connection, tenant: &Tenant, document: &str) -> Result<Vec<Move>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} WHERE company_id = ?1 AND environment = ?2 AND document_id = ?3 ORDER BY seq"
    ))?;
    let rows = stmt.query_map(
        params![tenant.company_id, tenant.environment, document],
        move_of,
    )?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The moves the ledger entry `entry` made, in order.
///
/// Fails only on a storage error.
pub fn of_entry(conn: &Connection, tenant: &Tenant, entry: &str) -> Result<Vec<Move>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} WHERE entry = ?1 AND company_id = ?2 AND environment = ?3 ORDER BY seq"
    ))?;
    let rows = stmt.query_map(
        params![entry, tenant.company_id, tenant.environment],
        move_of,
    )?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The first move each of the ledger entries `entries` made, by entry;
/// an entry that made none is left out. One statement for all of them (a
/// month's VAT return names thousands); the index on the entry is named
/// because the planner otherwise scans the company's whole register for
/// a list of entries.
///
/// Fails only on a storage error.
pub fn first_of_entries(
    conn: &Connection,
    tenant: &Tenant,
    entries: &[&str],
) -> Result<std::collections::HashMap<String, Move>> {
    let list = serde_json::to_string(entries).map_err(crate::error::Error::internal)?;
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} INDEXED BY vat_moves_entry
         WHERE entry IN (SELECT value FROM json_each(?1)) AND company_id = ?2 AND environment = ?3
         ORDER BY seq"
    ))?;
    let mut first = std::collections::HashMap::new();
    for m in stmt.query_map(
        params![list, tenant.company_id, tenant.environment],
        move_of,
    )? {
        let m = m?;
        first.entry(m.entry.clone()).or_insert(m);
    }
    Ok(first)
}

/// The sales of the tenant whose VAT was ever not due.
///
/// Fails only on a storage error.
pub fn sales(conn: &Connection, tenant: &Tenant) -> Result<Vec<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT DISTINCT document_id FROM vat_moves
         WHERE company_id = ?1 AND environment = ?2 AND side = 'sale' AND kind = 'issued'
         ORDER BY document_id",
    )?;
    let rows = stmt.query_map(params![tenant.company_id, tenant.environment], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The moves' sums per key, in the order the keys first moved (keys whose
/// moves net to nothing kept: a caller caps by them).
pub fn sums<'a>(moves: impl Iterator<Item = &'a Move>) -> Vec<Share> {
    let mut out: Vec<Share> = Vec::new();
    for m in moves {
        match out.iter_mut().find(|s| s.key == m.key) {
            Some(s) => {
                s.base += m.base;
                s.tax += m.tax;
            }
            None => out.push(Share {
                key: m.key.clone(),
                base: m.base,
                tax: m.tax,
            }),
        }
    }
    out
}

/// What of `document` is not due through the end of `day`, per key.
///
/// Fails only on a storage error.
pub fn open(conn: &Connection, tenant: &Tenant, document: &str, day: Date) -> Result<Vec<Share>> {
    let moves = of_document(conn, tenant, document)?;
    Ok(sums(moves.iter().filter(|m| m.on <= day)))
}
