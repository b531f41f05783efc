//! Open receivables and payables: the changes each act makes to them (in the
//! act's transaction), and the outstanding report as the books stood at the
//! end of any day. Amounts are in the book currency at the rate fixed when the
//! document was recorded; receivables and payables are never netted.

use jiff::civil::Date;
use rusqlite::{params, Connection};
use serde::Serialize;

use crate::clock;
use crate::company;
use crate::db::Tx;
use crate::error::Result;
use crate::ledger;
use crate::money::Money;
use crate::rest::{Call, Reply};
use crate::tenant::Tenant;

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
