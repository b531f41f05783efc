//! A received bill as stored and read: its state, its verdict, the figures
//! its file states (as the lists show them; the whole document is read
//! again from the kept file), the kept file itself, which is never
//! changed, and the reads of one bill or a page of them.

use jiff::civil::Date;
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::checks::{self, TermsView, Warning};
use crate::books::company::Company;
use crate::documents::read::{self, Received};
use crate::error::said::Record;
use crate::error::{Error, Result, Said};
use crate::rules::iso::Currency;
use crate::rules::money::Money;
use crate::store::paging::{Page, Paging, PAGE_LIMIT_SQL};
use crate::store::row::Row;
use crate::store::tenant::Tenant;
use crate::stored_enum;

stored_enum! {
    /// Where a received bill stands: to decide on, booked, or refused.
    pub enum BillState {
        Received = "received",
        Booked = "booked",
        Refused = "refused",
    }
}

stored_enum! {
    /// How a file arrived.
    pub enum Channel {
        Upload = "upload",
        Console = "console",
        Mailbox = "mailbox",
    }
}

/// One broken rule of a received document.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Finding {
    pub rule: String,
    pub sentence: String,
}

/// One entry of a received document's VAT breakdown.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct TaxLine {
    pub category: String,
    /// The rate as a decimal string ("19", "5.5").
    pub rate: String,
    pub base: Money,
    pub amount: Money,
}

/// The breakdown as stored (minor units, the bill's currency).
#[derive(Serialize, Deserialize)]
pub(super) struct StoredTax {
    pub category: String,
    pub rate: String,
    pub base: i64,
    pub amount: i64,
}

/// The supplier as the document names it, with the partner it is when
/// kontor knows one.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct SupplierRef {
    pub id: Option<String>,
    pub name: String,
    pub vat_id: Option<String>,
}

/// What a received document states, as the lists show it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct BillFigures {
    /// `cii` or `ubl`.
    pub syntax: String,
    pub supplier: SupplierRef,
    pub number: String,
    pub type_code: String,
    pub issued_on: Date,
    pub due_on: Option<Date>,
    pub currency: Currency,
    pub line_count: i64,
    /// BT-106.
    pub line_total: Money,
    /// BT-109.
    pub tax_exclusive: Money,
    /// BT-110.
    pub tax: Money,
    /// BT-112.
    pub tax_inclusive: Money,
    /// BT-115.
    pub payable: Money,
    pub taxes: Vec<TaxLine>,
    /// BT-83: what the payer gives with the payment.
    pub payment_reference: Option<String>,
    /// BT-84: the account to pay to.
    pub iban: Option<String>,
}

/// A received bill in its wire form (the console's and the screens').
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BillView {
    pub file: String,
    pub state: BillState,
    pub id: String,
    pub valid: bool,
    pub findings: Vec<Finding>,
    #[serde(flatten)]
    pub figures: BillFigures,
    pub booked: bool,
    /// Why it was refused, once a person refused it.
    pub refused: Option<String>,
    pub received_at: String,
    pub channel: Channel,
    pub sha256: String,
    /// What a person reads before booking it (`checks::warnings`); only
    /// where a bill is shown, while it waits for a decision.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Warning>,
    /// The due date and cash discount its document states; only where a
    /// bill is shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terms: Option<TermsView>,
}

const COLUMNS: &str = "b.id, f.file_name, b.state, b.valid, b.findings, b.syntax, b.supplier_id, b.supplier_name,
    b.supplier_vat_id, b.document_number, b.type_code, b.issued_on, b.due_on, b.currency, b.line_count,
    b.line_total, b.tax_exclusive, b.tax, b.tax_inclusive, b.payable, b.taxes, b.payment_reference, b.iban,
    b.refused_reason, b.received_at, f.channel, f.sha256";

fn view(row: &rusqlite::Row) -> rusqlite::Result<BillView> {
    let r = Row::new(row, "bills");
    let currency: Currency = r.get(13)?;
    let money = |i: usize| -> rusqlite::Result<Money> { Ok(Money::new(r.get(i)?, &currency)) };
    let findings: Vec<Finding> = r.json(4)?;
    let taxes: Vec<StoredTax> = r.json(20)?;
    let state: BillState = r.get(2)?;
    Ok(BillView {
        id: r.get(0)?,
        file: r.get(1)?,
        state,
        valid: r.get(3)?,
        findings,
        figures: BillFigures {
            syntax: r.get(5)?,
            supplier: SupplierRef {
                id: r.get(6)?,
                name: r.get(7)?,
                vat_id: r.get(8)?,
            },
            number: r.get(9)?,
            type_code: r.get::<i64>(10)?.to_string(),
            issued_on: r.get(11)?,
            due_on: r.get(12)?,
            line_count: r.get(14)?,
            line_total: money(15)?,
            tax_exclusive: money(16)?,
            tax: money(17)?,
            tax_inclusive: money(18)?,
            payable: money(19)?,
            taxes: taxes
                .into_iter()
                .map(|t| TaxLine {
                    category: t.category,
                    rate: t.rate,
                    base: Money::new(t.base, &currency),
                    amount: Money::new(t.amount, &currency),
                })
                .collect(),
            payment_reference: r.get(21)?,
            iban: r.get(22)?,
            currency: currency.clone(),
        },
        booked: state == BillState::Booked,
        refused: r.get(23)?,
        received_at: r.get(24)?,
        channel: r.get(25)?,
        sha256: r.get(26)?,
        warnings: Vec::new(),
        terms: None,
    })
}

/// A received bill of the tenant.
///
/// Fails with `NotFound` when the tenant has none with this id.
pub fn get(conn: &Connection, tenant: &Tenant, id: &str) -> Result<BillView> {
    conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM bills b JOIN received_files f ON f.id = b.file_id
         WHERE b.id = ?1 AND b.company_id = ?2 AND b.environment = ?3"
    ))?
    .query_row(params![id, tenant.company_id, tenant.environment], view)
    .optional()?
    .ok_or_else(|| Error::not_found(Said::Record(Record::Bill, id.to_string())))
}

/// The tenant's received bills, newest first, those in `state` only when
/// given, a page at a time.
///
/// Fails only on a storage error.
pub fn list(
    conn: &Connection,
    tenant: &Tenant,
    state: Option<BillState>,
    paging: Paging,
) -> Result<Page<BillView>> {
    let state = state.map(BillState::as_str);
    let total: i64 = conn
        .prepare_cached(
            "SELECT count(*) FROM bills WHERE company_id = ?1 AND environment = ?2
             AND (?3 IS NULL OR state = ?3)",
        )?
        .query_row(params![tenant.company_id, tenant.environment, state], |r| {
            r.get(0)
        })?;
    let data = conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM bills b JOIN received_files f ON f.id = b.file_id
             WHERE b.company_id = ?1 AND b.environment = ?2 AND (?3 IS NULL OR b.state = ?3)
             ORDER BY b.seq DESC {PAGE_LIMIT_SQL} OFFSET ?4"
        ))?
        .query_map(
            params![
                tenant.company_id,
                tenant.environment,
                state,
                paging.offset()
            ],
            view,
        )?
        .take(paging.size as usize)
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(paging.envelope(data, total))
}

/// A kept file: its name, media type and bytes exactly as received.
pub struct Original {
    pub file_name: String,
    pub media_type: &'static str,
    pub bytes: Vec<u8>,
}

/// The file a bill was read from, exactly as it arrived.
///
/// Fails with `NotFound` for an unknown bill, and with `Internal` when the
/// kept bytes no longer match their SHA-256 (they are never handed out
/// altered).
pub fn original(conn: &Connection, tenant: &Tenant, id: &str) -> Result<Original> {
    let (file_name, bytes, sha): (String, Vec<u8>, String) = conn
        .prepare_cached(
            "SELECT f.file_name, f.content, f.sha256 FROM bills b JOIN received_files f ON f.id = b.file_id
             WHERE b.id = ?1 AND b.company_id = ?2 AND b.environment = ?3",
        )?
        .query_row(params![id, tenant.company_id, tenant.environment], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .optional()?
        .ok_or_else(|| Error::not_found(Said::Record(Record::Bill, id.to_string())))?;
    if hex::encode(Sha256::digest(&bytes)) != sha {
        return Err(Error::internal(format!(
            "the kept file of bill {id} no longer matches its SHA-256"
        )));
    }
    let media_type = if bytes.starts_with(b"%PDF") {
        "application/pdf"
    } else {
        "application/xml"
    };
    Ok(Original {
        file_name,
        media_type,
        bytes,
    })
}

/// The day a file arrived, as its reading dates a document without an
/// issue date.
pub(super) fn arrival_day(received_at: &str) -> Date {
    received_at
        .get(..10)
        .and_then(|d| d.parse().ok())
        .unwrap_or(Date::constant(1970, 1, 1))
}

/// A bill's document read again from its kept file, as a person reads it.
///
/// Fails with `NotFound` for an unknown bill, and with `Internal` when the
/// kept file no longer reads (it read when it arrived).
pub fn document(conn: &Connection, tenant: &Tenant, id: &str) -> Result<Received> {
    let kept = original(conn, tenant, id)?;
    let received_at: String =
        conn.query_row("SELECT received_at FROM bills WHERE id = ?1", [id], |r| {
            r.get(0)
        })?;
    read::file(&kept.bytes, arrival_day(&received_at))
        .map_err(|e| Error::internal(format!("the kept file of bill {id} no longer reads: {e}")))
}

/// A received bill with its warnings (while it waits for a decision) and
/// the payment terms its document states, from `received`, its document
/// read again.
///
/// Fails only on a storage error.
pub fn with_checks(
    conn: &Connection,
    tenant: &Tenant,
    company: &Company,
    mut bill: BillView,
    received: &Received,
) -> Result<BillView> {
    if bill.state == BillState::Received {
        bill.warnings = checks::warnings(conn, tenant, company, received)?;
    }
    bill.terms = TermsView::of(&received.payment_terms);
    Ok(bill)
}

/// A received bill as `purchase show` gives it: with its warnings and the
/// payment terms its document states.
///
/// Fails with `NotFound` for an unknown bill, and with `Internal` when
/// its kept file no longer reads.
pub fn shown(conn: &Connection, tenant: &Tenant, id: &str) -> Result<BillView> {
    let view = get(conn, tenant, id)?;
    let received = document(conn, tenant, id)?;
    let company = crate::books::company::get(conn, &tenant.company_id)?;
    with_checks(conn, tenant, &company, view, &received)
}
