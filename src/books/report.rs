//! Open receivables and payables: the changes each act makes to them (in the
//! act's transaction), and the outstanding report as the books stood at the
//! end of any day. Amounts are in the book currency at the rate fixed when the
//! document was recorded; receivables and payables are never netted.

use jiff::civil::Date;
use rusqlite::{params, Connection};
use serde::Serialize;

use crate::books::company;
use crate::books::ledger;
use crate::error::Result;
use crate::http::rest::{Call, Reply};
use crate::rules::money::Money;
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::tenant::Tenant;

/// Which open items a change concerns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Receivable,
    Payable,
}

impl Side {
    fn key(self) -> &'static str {
        match self {
            Side::Receivable => "receivable",
            Side::Payable => "payable",
        }
    }
}

/// Records that on `effective_on` the open amount due on `due_on` changed by
/// `amount` (book currency) and the number of open documents by `documents`.
///
/// Fails only on a storage error.
pub fn change(
    tx: &Tx,
    tenant: &Tenant,
    side: Side,
    effective_on: Date,
    due_on: Date,
    amount: i64,
    documents: i64,
) -> Result<()> {
    tx.prepare_cached(
        "INSERT INTO open_items (company_id, environment, side, effective_on, due_on, amount, documents)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT (company_id, environment, side, effective_on, due_on)
         DO UPDATE SET amount = amount + excluded.amount, documents = documents + excluded.documents",
    )?
    .execute(params![
        tenant.company_id,
        tenant.env(),
        side.key(),
        effective_on.to_string(),
        due_on.to_string(),
        amount,
        documents
    ])?;
    Ok(())
}

/// One side of the report.
#[derive(Debug, Clone, Serialize)]
pub struct Figures {
    /// Every open amount.
    pub outstanding: Money,
    /// Open amounts due on or before the day.
    pub due: Money,
    /// Open amounts whose due date has passed.
    pub overdue: Money,
    /// Open documents.
    pub count: i64,
}

/// The outstanding report.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Outstanding {
    pub as_of: String,
    pub currency: String,
    pub books_open: bool,
    pub receivables: Figures,
    pub payables: Figures,
}

/// The open receivables and payables at the end of `as_of`.
///
/// Fails only on a storage error.
pub fn outstanding(
    conn: &Connection,
    tenant: &Tenant,
    currency: &str,
    as_of: Date,
) -> Result<Outstanding> {
    let day = as_of.to_string();
    let mut stmt = conn.prepare_cached(
        "SELECT side, coalesce(sum(amount), 0), coalesce(sum(CASE WHEN due_on <= ?3 THEN amount END), 0),
                coalesce(sum(CASE WHEN due_on < ?3 THEN amount END), 0), coalesce(sum(documents), 0)
         FROM open_items WHERE company_id = ?1 AND environment = ?2 AND effective_on <= ?3
         GROUP BY side",
    )?;
    let empty = || Figures {
        outstanding: Money::new(0, currency),
        due: Money::new(0, currency),
        overdue: Money::new(0, currency),
        count: 0,
    };
    let (mut receivables, mut payables) = (empty(), empty());
    // sum() over INTEGER columns stays integer (and fails rather than round on overflow).
    let rows = stmt.query_map(params![tenant.company_id, tenant.env(), day], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, i64>(2)?,
            r.get::<_, i64>(3)?,
            r.get::<_, i64>(4)?,
        ))
    })?;
    for row in rows {
        let (side, outstanding, due, overdue, count) = row?;
        let figures = Figures {
            outstanding: Money::new(outstanding, currency),
            due: Money::new(due, currency),
            overdue: Money::new(overdue, currency),
            count,
        };
        match side.as_str() {
            "receivable" => receivables = figures,
            _ => payables = figures,
        }
    }
    let books_open = ledger::closed_through(conn, tenant)?.is_none_or(|through| through < as_of);
    Ok(Outstanding {
        as_of: day,
        currency: currency.to_string(),
        books_open,
        receivables,
        payables,
    })
}

/// GET /v1/reports/outstanding (`asOf`, default today in the company's time zone).
pub fn http_outstanding(call: &Call) -> Result<Reply> {
    let as_of = call
        .query
        .get("asOf")
        .map(|d| clock::parse_date("asOf", d))
        .transpose()?;
    let tenant = call.tenant();
    let report = call.read(|conn| {
        let company = company::get(conn, &tenant.company_id)?;
        outstanding(
            conn,
            tenant,
            &company.currency,
            as_of.unwrap_or_else(|| company.today()),
        )
    })?;
    Ok(Reply::ok(&report))
}

/// One open document in the receivables or payables list.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenDocument {
    pub id: String,
    pub number: String,
    pub partner: String,
    pub date: String,
    pub due_on: String,
    pub outstanding: Money,
    pub due: bool,
    pub overdue: bool,
}

/// The documents open at the end of `as_of` (issued by then, not paid or
/// cancelled by then), oldest due date first, and their count.
///
/// Fails only on a storage error.
pub fn open_documents(
    conn: &Connection,
    tenant: &Tenant,
    side: Side,
    as_of: Date,
    limit: i64,
    offset: i64,
) -> Result<(Vec<OpenDocument>, i64)> {
    let sql = match side {
        Side::Receivable => {
            "SELECT i.id, i.number, i.buyer_name, i.issued_on, i.due_on, i.currency,
                    i.gross - coalesce((SELECT sum(p.amount) FROM payments p WHERE p.invoice_id = i.id AND p.paid_on <= ?3), 0) AS open
             FROM invoices i
             WHERE i.company_id = ?1 AND i.environment = ?2 AND i.document_type = 'INVOICE' AND i.issued_on <= ?3
               AND NOT EXISTS (SELECT 1 FROM invoices k WHERE k.id = i.cancelled_by_id AND k.issued_on <= ?3)"
        }
        Side::Payable => {
            "SELECT u.id, u.document_number, c.name, u.document_date, u.due_on, u.currency,
                    u.gross - coalesce((SELECT sum(p.amount) FROM payments p WHERE p.purchase_id = u.id AND p.paid_on <= ?3), 0) AS open
             FROM purchases u JOIN customers c ON c.id = u.supplier_id
             WHERE u.company_id = ?1 AND u.environment = ?2 AND u.kind = 'bill' AND u.document_date <= ?3"
        }
    };
    let day = as_of.to_string();
    let filtered = format!("SELECT * FROM ({sql}) WHERE open <> 0");
    let total: i64 = conn
        .prepare_cached(&format!("SELECT count(*) FROM ({filtered})"))?
        .query_row(params![tenant.company_id, tenant.env(), day], |r| r.get(0))?;
    let mut stmt =
        conn.prepare_cached(&format!("{filtered} ORDER BY 5, 4, 2 LIMIT ?4 OFFSET ?5"))?;
    let rows = stmt.query_map(
        params![tenant.company_id, tenant.env(), day, limit, offset],
        |r| {
            let due_on: String = r.get(4)?;
            let currency: String = r.get(5)?;
            Ok(OpenDocument {
                id: r.get(0)?,
                number: r.get(1)?,
                partner: r.get(2)?,
                date: r.get(3)?,
                due: due_on <= day,
                overdue: due_on < day,
                due_on,
                outstanding: Money::new(r.get(6)?, &currency),
            })
        },
    )?;
    Ok((rows.collect::<rusqlite::Result<_>>()?, total))
}
