//! A bill's receipt: the PDF or image of a bill that came on paper or as a
//! plain PDF, kept beside its booking as GoBD asks (the document beside
//! the booking). Attached when the bill is typed or afterwards, one per
//! bill; read as hostile (only its first bytes are looked at, to tell a
//! PDF, a JPEG or a PNG; nothing in it is opened), at most 20 MB, and kept
//! unchanged for ten years with its SHA-256 in `received_files` (whose
//! triggers refuse a change and an early deletion), as a received
//! e-invoice's file is. A received e-invoice's receipt is its own file.
//! A plain PDF or image uploaded where e-invoices are received is kept
//! waiting (`keep_waiting`) until a person types its bill and attaches it
//! (`attach_kept`); the waiting ones are listed (`waiting`).

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::books::audit::{self, Act, Actor};
use crate::books::company;
use crate::books::purchases;
use crate::books::received::{self, Incoming};
use crate::error::said::{Bill, Record};
use crate::error::{Error, Result, Said};
use crate::store::db::Tx;
use crate::store::tenant::Tenant;

/// The largest receipt kept (bytes): 20 MB, as a received e-invoice.
pub const MAX_RECEIPT: usize = 20 * 1024 * 1024;

/// A receipt as the books keep it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReceiptView {
    pub file_id: String,
    pub file_name: String,
    /// `application/pdf`, `image/jpeg` or `image/png`.
    pub media_type: &'static str,
    pub size: i64,
    pub sha256: String,
    pub received_at: String,
}

/// What the first bytes of `bytes` say the file is: its media type, or
/// none for anything but a PDF, a JPEG or a PNG.
pub fn media_type(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"%PDF-") {
        Some("application/pdf")
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else if bytes.starts_with(&[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A]) {
        Some("image/png")
    } else {
        None
    }
}

/// Checks a file before it is kept as a receipt: not empty, at most
/// `MAX_RECEIPT`, a PDF, JPEG or PNG.
///
/// Fails with `Refused` naming `receipt`.
pub fn check(bytes: &[u8]) -> Result<&'static str> {
    if bytes.is_empty() {
        return Err(Error::refused_at("receipt", Bill::EmptyFile));
    }
    if bytes.len() > MAX_RECEIPT {
        return Err(Error::refused_at(
            "receipt",
            Bill::ReceiptTooLarge {
                mb: MAX_RECEIPT / (1024 * 1024),
            },
        ));
    }
    media_type(bytes).ok_or_else(|| Error::refused_at("receipt", Bill::ReceiptKind))
}

/// Attaches `file` to the tenant's bill `purchase_id` as its receipt.
/// Recorded as `bill.receipt_attached` by `actor`.
///
/// Fails with `NotFound` for a bill the tenant does not have, `WrongState`
/// for a bill that has a receipt or came as an e-invoice, and `Refused`
/// naming `receipt` for a file `check` refuses or one kept before.
pub fn attach(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    purchase_id: &str,
    file: &Incoming,
) -> Result<ReceiptView> {
    let bill = purchases::get(tx, tenant, purchase_id)?;
    let media = check(file.bytes)?;
    if let Some(kept) = of_bill(tx, tenant, &bill.id)? {
        return Err(Error::wrong_state(Bill::ReceiptKept {
            bill: format!("{} {}", bill.supplier, bill.document_number),
            file: kept.file_name.clone(),
        }));
    }
    let received: bool = tx
        .prepare_cached(
            "SELECT count(*) > 0 FROM bills WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
        )?
        .query_row(
            params![bill.id, tenant.company_id, tenant.environment],
            |r| r.get(0),
        )?;
    if received {
        return Err(Error::wrong_state(Bill::CameAsEinvoice {
            bill: format!("{} {}", bill.supplier, bill.document_number),
        }));
    }
    let sha = not_kept_before(tx, tenant, file.bytes)?;
    let (file_id, now) = keep(tx, tenant, file, &sha)?;
    tx.prepare_cached(
        "UPDATE purchases SET receipt_file_id = ?1 WHERE id = ?2 AND company_id = ?3 AND environment = ?4",
    )?
    .execute(params![file_id, bill.id, tenant.company_id, tenant.environment])?;
    audit::record(tx, tenant, actor, Act::ReceiptAttached, &bill.id)?;
    Ok(ReceiptView {
        file_id,
        file_name: file.file_name.to_string(),
        media_type: media,
        size: file.bytes.len() as i64,
        sha256: sha,
        received_at: now,
    })
}

/// The SHA-256 of `bytes`, when no file of the tenant has it yet.
///
/// Fails with `Refused` naming `receipt` for a file kept before.
fn not_kept_before(tx: &Tx, tenant: &Tenant, bytes: &[u8]) -> Result<String> {
    let sha = hex::encode(Sha256::digest(bytes));
    let before: Option<String> = tx
        .prepare_cached(
            "SELECT coalesce(p.document_number, b.document_number, f.file_name) FROM received_files f
             LEFT JOIN purchases p ON p.receipt_file_id = f.id
             LEFT JOIN bills b ON b.file_id = f.id
             WHERE f.company_id = ?1 AND f.environment = ?2 AND f.sha256 = ?3",
        )?
        .query_row(params![tenant.company_id, tenant.environment, sha], |r| r.get(0))
        .optional()?;
    match before {
        Some(before) => Err(Error::refused_at("receipt", Bill::SameFile { before })),
        None => Ok(sha),
    }
}

/// Keeps `file` (its SHA-256 `sha`) as received e-invoices' files are
/// kept; returns its id and when it was kept.
fn keep(tx: &Tx, tenant: &Tenant, file: &Incoming, sha: &str) -> Result<(String, String)> {
    let today = company::get(tx, &tenant.company_id)?.today();
    received::keep_file(tx, tenant, file, sha, today)
}

/// Keeps a plain PDF or image to be typed as a bill by a person (it is no
/// e-invoice: nothing in it is read). Recorded as `receipt.received`.
///
/// Fails with `Refused` naming `receipt` for a file `check` refuses or one
/// kept before.
pub fn keep_waiting(tx: &Tx, tenant: &Tenant, actor: &Actor, file: &Incoming) -> Result<String> {
    check(file.bytes)?;
    let sha = not_kept_before(tx, tenant, file.bytes)?;
    let (file_id, _) = keep(tx, tenant, file, &sha)?;
    audit::record(tx, tenant, actor, Act::ReceiptReceived, &file_id)?;
    Ok(file_id)
}

/// The receipts kept to be typed as bills, oldest first.
///
/// Fails only on a storage error.
pub fn waiting(conn: &Connection, tenant: &Tenant) -> Result<Vec<ReceiptView>> {
    let mut stmt = conn.prepare_cached(
        "SELECT f.id, f.file_name, f.size, f.sha256, f.received_at, substr(f.content, 1, 8)
         FROM received_files f
         WHERE f.company_id = ?1 AND f.environment = ?2
           AND NOT EXISTS (SELECT 1 FROM bills b WHERE b.file_id = f.id)
           AND NOT EXISTS (SELECT 1 FROM purchases p WHERE p.receipt_file_id = f.id)
         ORDER BY f.seq",
    )?;
    let rows = stmt.query_map(params![tenant.company_id, tenant.environment], |r| {
        let head: Vec<u8> = r.get(5)?;
        Ok(ReceiptView {
            file_id: r.get(0)?,
            file_name: r.get(1)?,
            media_type: media_type(&head).unwrap_or("application/octet-stream"),
            size: r.get(2)?,
            sha256: r.get(3)?,
            received_at: r.get(4)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// A waiting receipt with its bytes.
///
/// Fails with `NotFound` for a file that is no waiting receipt of the tenant.
pub fn waiting_content(
    conn: &Connection,
    tenant: &Tenant,
    file_id: &str,
) -> Result<(ReceiptView, Vec<u8>)> {
    let view = waiting(conn, tenant)?
        .into_iter()
        .find(|w| w.file_id == file_id)
        .ok_or_else(|| Error::not_found(Said::Record(Record::Receipt, file_id.to_string())))?;
    let bytes: Vec<u8> = conn
        .prepare_cached("SELECT content FROM received_files WHERE id = ?1")?
        .query_row([file_id], |r| r.get(0))?;
    Ok((view, bytes))
}

/// Attaches the waiting receipt `file_id` to the tenant's bill
/// `purchase_id`, just typed from it. Recorded as `bill.receipt_attached`.
///
/// Fails with `NotFound` for a file that is no waiting receipt of the
/// tenant, and `WrongState` for a bill that has a receipt.
pub fn attach_kept(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    purchase_id: &str,
    file_id: &str,
) -> Result<()> {
    let bill = purchases::get(tx, tenant, purchase_id)?;
    waiting_content(tx, tenant, file_id)?;
    if of_bill(tx, tenant, &bill.id)?.is_some() {
        return Err(Error::wrong_state(Bill::HasReceipt {
            bill: format!("{} {}", bill.supplier, bill.document_number),
        }));
    }
    tx.prepare_cached(
        "UPDATE purchases SET receipt_file_id = ?1 WHERE id = ?2 AND company_id = ?3 AND environment = ?4",
    )?
    .execute(params![file_id, bill.id, tenant.company_id, tenant.environment])?;
    audit::record(tx, tenant, actor, Act::ReceiptAttached, &bill.id)
}

/// The receipt of the tenant's bill `purchase_id`, if it has one.
///
/// Fails only on a storage error.
pub fn of_bill(
    conn: &Connection,
    tenant: &Tenant,
    purchase_id: &str,
) -> Result<Option<ReceiptView>> {
    Ok(content(conn, tenant, purchase_id)?.map(|(view, _)| view))
}

/// The receipt of the tenant's bill `purchase_id` with its bytes.
///
/// Fails only on a storage error.
pub fn content(
    conn: &Connection,
    tenant: &Tenant,
    purchase_id: &str,
) -> Result<Option<(ReceiptView, Vec<u8>)>> {
    Ok(conn
        .prepare_cached(
            "SELECT f.id, f.file_name, f.size, f.sha256, f.received_at, f.content
             FROM purchases p JOIN received_files f ON f.id = p.receipt_file_id
             WHERE p.id = ?1 AND p.company_id = ?2 AND p.environment = ?3
               AND f.company_id = p.company_id AND f.environment = p.environment",
        )?
        .query_row(
            params![purchase_id, tenant.company_id, tenant.environment],
            |r| {
                let bytes: Vec<u8> = r.get(5)?;
                Ok((
                    ReceiptView {
                        file_id: r.get(0)?,
                        file_name: r.get(1)?,
                        media_type: media_type(&bytes).unwrap_or("application/octet-stream"),
                        size: r.get(2)?,
                        sha256: r.get(3)?,
                        received_at: r.get(4)?,
                    },
                    bytes,
                ))
            },
        )
        .optional()?)
}
