//! Receiving a file: read and checked by `documents::read`, refused with a
//! sentence when it is no e-invoice (nothing is stored), refused as a
//! duplicate naming the first when its bytes, or its supplier and number,
//! arrived before, and otherwise kept exactly as it arrived (with its
//! SHA-256, channel and time, ten years) beside the bill read from it. A
//! valid document of a supplier the company trusts is booked at once,
//! unless it carries a warning (`checks.rs`): then it waits for a person.

use rusqlite::{params, OptionalExtension};
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::bill::{self, BillFigures, BillView, Channel, Finding, StoredTax};
use super::booking::particulars;
use super::checks::Decision;
use super::decide;
use crate::books::audit::{self, Act, Actor};
use crate::books::company;
use crate::books::suppliers;
use crate::documents::read;
use crate::error::{Error, Result};
use crate::rules::catalogue::Reader;
use crate::rules::iso::Currency;
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::tenant::Tenant;

/// A file as it arrives.
pub struct Incoming<'a> {
    pub file_name: &'a str,
    pub bytes: &'a [u8],
    pub channel: Channel,
    /// The mailbox message's Message-ID, the uploading person.
    pub channel_ref: Option<&'a str>,
}

/// What became of a received file.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Receipt {
    pub file: String,
    /// `received`, `duplicate` or `refused`.
    pub state: &'static str,
    /// The bill's id; none for a duplicate or a refusal.
    pub id: Option<String>,
    pub valid: bool,
    pub findings: Vec<Finding>,
    #[serde(flatten)]
    pub figures: Option<BillFigures>,
    /// Booked at once (a trusted supplier's valid document).
    pub booked: bool,
    /// Why the file is not kept: no e-invoice, or a duplicate.
    pub refused: Option<String>,
    /// The bill a duplicate repeats.
    pub duplicate_of: Option<String>,
    /// Whom the document bills (BG-7), as it names them; none when the
    /// file is not kept.
    pub buyer: Option<Buyer>,
}

/// The buyer a received document names: its name (BT-44) and VAT id
/// (BT-48).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Buyer {
    pub name: String,
    pub vat_id: Option<String>,
}

impl Receipt {
    fn not_kept(
        file: &str,
        state: &'static str,
        sentence: String,
        first: Option<String>,
    ) -> Receipt {
        Receipt {
            file: file.to_string(),
            state,
            id: None,
            valid: false,
            findings: Vec::new(),
            figures: None,
            booked: false,
            refused: Some(sentence),
            duplicate_of: first,
            buyer: None,
        }
    }
}

/// Keeps `file` (its SHA-256 `sha`) unchanged in `received_files` for ten
/// years from `today` (the table's triggers refuse a change and an early
/// deletion): a received e-invoice's file, a bill's receipt. Returns its
/// id and the instant it was kept.
///
/// Fails only on a storage error.
pub(crate) fn keep_file(
    tx: &Tx,
    tenant: &Tenant,
    file: &Incoming,
    sha: &str,
    today: jiff::civil::Date,
) -> Result<(String, String)> {
    let now = clock::now();
    let file_id = ids::new_id("rcv");
    let keep_until = format!("{}", today.saturating_add(jiff::Span::new().years(10)));
    tx.prepare_cached(
        "INSERT INTO received_files (id, company_id, environment, file_name, content, sha256, size, channel,
             channel_ref, received_at, keep_until)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?
    .execute(params![
        file_id,
        tenant.company_id,
        tenant.environment,
        file.file_name,
        file.bytes,
        sha,
        file.bytes.len() as i64,
        file.channel,
        file.channel_ref,
        now,
        keep_until
    ])?;
    Ok((file_id, now))
}

/// Receives a file for the tenant: a `Receipt` saying whether it was kept
/// as a bill (recorded as `bill.received` by `actor`, and booked at once
/// for a trusted supplier's valid document), refused as no e-invoice, or
/// refused as a duplicate. A refused file leaves nothing behind.
///
/// Fails only on a storage error.
pub fn receive(tx: &Tx, tenant: &Tenant, actor: &Actor, file: &Incoming) -> Result<Receipt> {
    let sha = hex::encode(Sha256::digest(file.bytes));
    let same_bytes: Option<String> = tx
        .prepare_cached(
            "SELECT b.id FROM received_files f JOIN bills b ON b.file_id = f.id
             WHERE f.company_id = ?1 AND f.environment = ?2 AND f.sha256 = ?3",
        )?
        .query_row(params![tenant.company_id, tenant.environment, sha], |r| {
            r.get(0)
        })
        .optional()?;
    if let Some(first) = same_bytes {
        return Ok(Receipt::not_kept(
            file.file_name,
            "duplicate",
            format!("The same file was received before, as bill {first}."),
            Some(first),
        ));
    }
    let company = company::get(tx, &tenant.company_id)?;
    let today = company.today();
    let received = match read::file(file.bytes, today) {
        Ok(received) => received,
        Err(refusal) => {
            return Ok(Receipt::not_kept(
                file.file_name,
                "refused",
                refusal.0,
                None,
            ))
        }
    };
    let doc = &received.document;
    let currency = Currency::parse("currency", &doc.currency)
        .map_err(|_| Error::internal("a read document's currency is no ISO code"))?;
    let supplier = particulars(&received, &company.country);
    let supplier_id = suppliers::supplier_of(tx, tenant, &supplier)?;
    let vat_id = supplier.vat_id.map(crate::rules::vat_ids::normalise);
    let seller_name = doc.seller.known_as();
    if let Some(first) = same_document(
        tx,
        tenant,
        supplier_id.as_deref(),
        vat_id.as_deref(),
        seller_name,
        &doc.number,
    )? {
        return Ok(Receipt::not_kept(
            file.file_name,
            "duplicate",
            format!(
                "{seller_name}'s document {} was received before, as {first}.",
                doc.number
            ),
            Some(first),
        ));
    }
    let (file_id, now) = keep_file(tx, tenant, file, &sha, today)?;
    let findings: Vec<Finding> = received
        .findings
        .iter()
        .map(|f| Finding {
            rule: f.rule.to_string(),
            sentence: f.problem.text(Reader::CONSOLE),
        })
        .collect();
    let taxes: Vec<StoredTax> = doc
        .breakdown
        .iter()
        .map(|b| StoredTax {
            category: b.category.code().to_string(),
            rate: b.rate.to_string(),
            base: b.base,
            amount: b.amount,
        })
        .collect();
    let id = ids::new_id("pur");
    tx.prepare_cached(
        "INSERT INTO bills (id, company_id, environment, file_id, state, syntax, valid, findings, supplier_id,
             supplier_name, supplier_vat_id, document_number, type_code, issued_on, due_on, currency,
             line_count, line_total, tax_exclusive, tax, tax_inclusive, payable, taxes, payment_reference,
             iban, bic, received_at)
         VALUES (?1, ?2, ?3, ?4, 'received', ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
             ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26)",
    )?
    .execute(params![
        id,
        tenant.company_id,
        tenant.environment,
        file_id,
        received.syntax.as_str(),
        received.valid(),
        json(&findings)?,
        supplier_id,
        seller_name,
        vat_id,
        doc.number,
        doc.type_code.number(),
        doc.issued_on,
        doc.due_on,
        currency,
        doc.lines.len() as i64,
        doc.line_total,
        doc.net,
        doc.tax,
        doc.gross,
        doc.due,
        json(&taxes)?,
        doc.payment_reference,
        doc.transfer.as_ref().map(|t| t.iban.clone()),
        doc.transfer.as_ref().and_then(|t| t.bic.clone()),
        now
    ])?;
    audit::record(tx, tenant, actor, Act::BillReceived, &id)?;
    let mut booked = false;
    if let Some(supplier_id) = &supplier_id {
        if received.valid() && suppliers::trusted_supplier(tx, tenant, supplier_id)? {
            // A trusted supplier's bill that cannot be booked as it stands
            // (closed books, another currency) waits for a person.
            // One whose VAT category is not on EN 16931's list waits for
            // the person who says which it is, and one with a warning
            // (another buyer, an old or future date, a supplier under
            // another name) for the person who decides on it.
            match decide::book(tx, tenant, actor, &id, None, None, &Decision::default()) {
                Ok(_) => booked = true,
                Err(Error::Refused(_)) => {}
                Err(e) => return Err(e),
            }
        }
    }
    let view: BillView = bill::get(tx, tenant, &id)?;
    Ok(Receipt {
        file: file.file_name.to_string(),
        state: "received",
        id: Some(id),
        valid: view.valid,
        findings: view.findings,
        figures: Some(view.figures),
        booked,
        refused: None,
        duplicate_of: None,
        buyer: Some(Buyer {
            name: doc.buyer.known_as().to_string(),
            vat_id: doc.buyer.vat_id.clone(),
        }),
    })
}

/// The first bill (not refused) or purchase of the same supplier with the
/// same number: the partner when kontor knows one, else the VAT id, else
/// the name.
fn same_document(
    tx: &Tx,
    tenant: &Tenant,
    supplier_id: Option<&str>,
    vat_id: Option<&str>,
    name: &str,
    number: &str,
) -> Result<Option<String>> {
    let bill: Option<String> = tx
        .prepare_cached(
            "SELECT id FROM bills WHERE company_id = ?1 AND environment = ?2 AND document_number = ?3
               AND state <> 'refused'
               AND ((?4 IS NOT NULL AND supplier_id = ?4)
                 OR (?5 IS NOT NULL AND supplier_vat_id = ?5)
                 OR (?5 IS NULL AND supplier_vat_id IS NULL AND supplier_name = ?6))
             ORDER BY seq LIMIT 1",
        )?
        .query_row(
            params![tenant.company_id, tenant.environment, number, supplier_id, vat_id, name],
            |r| r.get(0),
        )
        .optional()?;
    if bill.is_some() {
        return Ok(bill);
    }
    let Some(supplier_id) = supplier_id else {
        return Ok(None);
    };
    Ok(tx
        .prepare_cached(
            "SELECT id FROM purchases WHERE company_id = ?1 AND environment = ?2 AND supplier_id = ?3
               AND document_number = ?4",
        )?
        .query_row(
            params![tenant.company_id, tenant.environment, supplier_id, number],
            |r| r.get(0),
        )
        .optional()?)
}

/// The JSON a bill keeps (its findings, its breakdown).
fn json<T: Serialize>(value: &T) -> Result<String> {
    serde_json::to_string(value).map_err(Error::internal)
}
