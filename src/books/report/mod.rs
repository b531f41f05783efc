//! Open receivables and payables: the changes each act makes to them (in the
//! act's transaction, `open_items`), and the outstanding report as the books
//! stood at the end of any day. Amounts are in the book currency at the rate
//! fixed when the document was recorded; receivables and payables are never
//! netted. It posts nothing and reads no journal: it keeps its own day sums
//! of what is open.
//!
//! Here: the outstanding report (`outstanding`), the open documents
//! (`open_documents`), and the dashboard's `months` and `ageing`; the
//! re-exports `change` and `Side`.
//!
//! - `open_items.rs`: the change each act makes to the open items (`change`:
//!   by the day it takes effect and the day the amount falls due), written in
//!   the act's transaction by issuing, cancelling, settling and recording a
//!   purchase.

pub mod open_items;

use jiff::civil::Date;
use rusqlite::{params, Connection};
use serde::Serialize;

use crate::books::company;
use crate::books::document_kinds::{DocumentType, PurchaseKind};
use crate::books::ledger;
use crate::error::Result;
use crate::rules::iso::Currency;
use crate::rules::money::Money;
use crate::store::row::Row;
use crate::store::tenant::Tenant;

/// The side a report reads; the acts also write their changes through here
/// (`report::change`).
pub use open_items::{change, Side, NEVER_DUE};

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
    pub as_of: Date,
    pub currency: Currency,
    pub books_open: bool,
    pub receivables: Figures,
    pub payables: Figures,
}

/// The open receivables and payables at the end of `as_of` (`YYYY-MM-DD`,
/// default today in the company's time zone), in the book currency.
///
/// Fails with `Invalid` naming `asOf` when it is not a date.
pub fn outstanding(conn: &Connection, tenant: &Tenant, as_of: Option<&str>) -> Result<Outstanding> {
    let company = company::get(conn, &tenant.company_id)?;
    let as_of = ledger::day_or_today("asOf", as_of, &company)?;
    outstanding_on(conn, tenant, &company.currency, as_of)
}

fn outstanding_on(
    conn: &Connection,
    tenant: &Tenant,
    currency: &Currency,
    as_of: Date,
) -> Result<Outstanding> {
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
    let rows = stmt.query_map(
        params![tenant.company_id, tenant.environment, as_of],
        |row| {
            let r = Row::new(row, "open_items");
            Ok((
                r.get::<Side>(0)?,
                r.get::<i64>(1)?,
                r.get::<i64>(2)?,
                r.get::<i64>(3)?,
                r.get::<i64>(4)?,
            ))
        },
    )?;
    for row in rows {
        let (side, outstanding, due, overdue, count) = row?;
        let figures = Figures {
            outstanding: Money::new(outstanding, currency),
            due: Money::new(due, currency),
            overdue: Money::new(overdue, currency),
            count,
        };
        match side {
            Side::Receivable => receivables = figures,
            Side::Payable => payables = figures,
        }
    }
    let books_open = ledger::closed_through(conn, tenant)?.is_none_or(|through| through < as_of);
    Ok(Outstanding {
        as_of,
        currency: currency.clone(),
        books_open,
        receivables,
        payables,
    })
}

/// One open document in the receivables or payables list.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenDocument {
    pub id: String,
    pub number: String,
    pub partner: String,
    pub date: Date,
    pub due_on: Date,
    pub outstanding: Money,
    pub due: bool,
    pub overdue: bool,
}

/// The documents of one side open at the end of a day, with that side's totals.
#[derive(Debug, Clone, Serialize)]
pub struct OpenList {
    pub as_of: Date,
    pub summary: Figures,
    pub items: Vec<OpenDocument>,
    pub total: i64,
}

/// The documents of `side` open at the end of `as_of` (`YYYY-MM-DD`,
/// default today in the company's time zone: issued by then, not paid or
/// cancelled by then), earliest due first, `limit` of them from `offset`,
/// with the side's totals of the outstanding report.
///
/// Fails with `Invalid` naming `asOf` when it is not a date.
pub fn open_documents(
    conn: &Connection,
    tenant: &Tenant,
    side: Side,
    as_of: Option<&str>,
    limit: i64,
    offset: i64,
) -> Result<OpenList> {
    let company = company::get(conn, &tenant.company_id)?;
    let as_of = ledger::day_or_today("asOf", as_of, &company)?;
    // ?4 is the kind of document a side lists (an invoice, a bill).
    let (sql, kind) = match side {
        Side::Receivable => (
            "SELECT i.id, i.number, i.buyer_name, i.issued_on, i.due_on, i.currency,
                    i.gross - coalesce((SELECT sum(p.amount) FROM payments p
                                        WHERE p.invoice_id = i.id AND p.paid_on <= ?3), 0) AS open
             FROM invoices i
             WHERE i.company_id = ?1 AND i.environment = ?2 AND i.document_type = ?4 AND i.issued_on <= ?3
               AND NOT EXISTS (SELECT 1 FROM invoices k WHERE k.id = i.cancelled_by_id AND k.issued_on <= ?3)",
            DocumentType::Invoice.as_str(),
        ),
        Side::Payable => (
            "SELECT u.id, u.document_number, c.name, u.document_date, u.due_on, u.currency,
                    u.gross - coalesce((SELECT sum(p.amount) FROM payments p
                                        WHERE p.purchase_id = u.id AND p.paid_on <= ?3), 0)
                            - coalesce((SELECT sum(a.amount) FROM credit_applications a
                                        WHERE a.bill_id = u.id AND a.applied_on <= ?3), 0) AS open
             FROM purchases u JOIN customers c ON c.id = u.supplier_id
             WHERE u.company_id = ?1 AND u.environment = ?2 AND u.kind = ?4 AND u.document_date <= ?3",
            PurchaseKind::Bill.as_str(),
        ),
    };
    let filtered = format!("SELECT * FROM ({sql}) WHERE open <> 0");
    let total: i64 = conn
        .prepare_cached(&format!("SELECT count(*) FROM ({filtered})"))?
        .query_row(
            params![tenant.company_id, tenant.environment, as_of, kind],
            |r| r.get(0),
        )?;
    let mut stmt =
        conn.prepare_cached(&format!("{filtered} ORDER BY 5, 4, 2 LIMIT ?5 OFFSET ?6"))?;
    let rows = stmt.query_map(
        params![
            tenant.company_id,
            tenant.environment,
            as_of,
            kind,
            limit,
            offset
        ],
        |row| {
            let r = Row::new(
                row,
                if side == Side::Receivable {
                    "invoices"
                } else {
                    "purchases"
                },
            );
            let due_on: Date = r.get(4)?;
            let currency: Currency = r.get(5)?;
            Ok(OpenDocument {
                id: r.get(0)?,
                number: r.get(1)?,
                partner: r.get(2)?,
                date: r.get(3)?,
                due: due_on <= as_of,
                overdue: due_on < as_of,
                due_on,
                outstanding: Money::new(r.get(6)?, &currency),
            })
        },
    )?;
    let items = rows.collect::<rusqlite::Result<_>>()?;
    let report = outstanding_on(conn, tenant, &company.currency, as_of)?;
    let summary = match side {
        Side::Receivable => report.receivables,
        Side::Payable => report.payables,
    };
    Ok(OpenList {
        as_of,
        summary,
        items,
        total,
    })
}

/// What was invoiced and what was paid in one calendar month, in the book
/// currency.
#[derive(Debug, Clone, Serialize)]
pub struct Month {
    /// The month's first day.
    pub first: Date,
    /// The invoices issued in the month, less the corrections issued in it.
    pub invoiced: i64,
    /// The customers' payments received in the month.
    pub received: i64,
}

/// The `count` calendar months up to and including the one of `through`
/// (default today in the company's time zone), oldest first: what was
/// invoiced (less corrections) and what customers paid in each, in the book
/// currency at the rate fixed when each document or payment was recorded.
///
/// Fails with `Invalid` naming `through` when it is not a date.
pub fn months(
    conn: &Connection,
    tenant: &Tenant,
    through: Option<&str>,
    count: u8,
) -> Result<(Currency, Vec<Month>)> {
    let company = company::get(conn, &tenant.company_id)?;
    let through = ledger::day_or_today("through", through, &company)?;
    let mut months = Vec::with_capacity(count as usize);
    let mut first = through.first_of_month();
    for _ in 0..count.max(1) {
        months.push(Month {
            first,
            invoiced: 0,
            received: 0,
        });
        first = first.yesterday().map_or(first, |d| d.first_of_month());
    }
    months.reverse();
    let from = months[0].first;
    // Summed per month in SQLite (`YYYY-MM-01`), not row by row here: a
    // year of a busy company's invoices stays one short answer.
    let mut stmt = conn.prepare_cached(
        "SELECT substr(issued_on, 1, 8) || '01', sum(gross_book), 1 FROM invoices
         WHERE company_id = ?1 AND environment = ?2 AND issued_on BETWEEN ?3 AND ?4
         GROUP BY 1
         UNION ALL
         SELECT substr(paid_on, 1, 8) || '01', sum(amount_book), 0 FROM payments
         WHERE company_id = ?1 AND environment = ?2 AND direction = 'in' AND paid_on BETWEEN ?3 AND ?4
         GROUP BY 1",
    )?;
    let rows = stmt.query_map(
        params![tenant.company_id, tenant.environment, from, through],
        |row| {
            let r = Row::new(row, "invoices");
            Ok((r.get::<Date>(0)?, r.get::<i64>(1)?, r.get::<i64>(2)? == 1))
        },
    )?;
    for row in rows {
        let (first, amount, invoiced) = row?;
        if let Some(month) = months.iter_mut().find(|m| m.first == first) {
            if invoiced {
                month.invoiced += amount;
            } else {
                month.received += amount;
            }
        }
    }
    Ok((company.currency, months))
}

/// How long the receivables open at the end of a day have been overdue.
#[derive(Debug, Clone, Serialize)]
pub struct Ageing {
    pub as_of: Date,
    pub currency: Currency,
    /// Open amounts not yet overdue (due on the day or later).
    pub current: i64,
    /// Open amounts overdue by 1–30, 31–60, 61–90 and more than 90 days.
    pub overdue: [i64; 4],
}

/// The receivables open at the end of `as_of` (default today in the
/// company's time zone) by how long they have been overdue, in the book
/// currency; the buckets add up to the outstanding report's receivables.
///
/// Fails with `Invalid` naming `asOf` when it is not a date.
pub fn ageing(conn: &Connection, tenant: &Tenant, as_of: Option<&str>) -> Result<Ageing> {
    let company = company::get(conn, &tenant.company_id)?;
    let as_of = ledger::day_or_today("asOf", as_of, &company)?;
    let mut ageing = Ageing {
        as_of,
        currency: company.currency.clone(),
        current: 0,
        overdue: [0; 4],
    };
    let mut stmt = conn.prepare_cached(
        "SELECT due_on, sum(amount) FROM open_items
         WHERE company_id = ?1 AND environment = ?2 AND side = ?3 AND effective_on <= ?4
         GROUP BY due_on",
    )?;
    let rows = stmt.query_map(
        params![
            tenant.company_id,
            tenant.environment,
            Side::Receivable,
            as_of
        ],
        |row| {
            let r = Row::new(row, "open_items");
            Ok((r.get::<Date>(0)?, r.get::<i64>(1)?))
        },
    )?;
    for row in rows {
        let (due_on, amount) = row?;
        let late = days_between(due_on, as_of);
        match late {
            ..=0 => ageing.current += amount,
            1..=30 => ageing.overdue[0] += amount,
            31..=60 => ageing.overdue[1] += amount,
            61..=90 => ageing.overdue[2] += amount,
            _ => ageing.overdue[3] += amount,
        }
    }
    Ok(ageing)
}

/// Whole days from `from` to `to` (negative when `to` is earlier).
fn days_between(from: Date, to: Date) -> i64 {
    from.until(to).map_or(0, |span| i64::from(span.get_days()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_between_counts_whole_days_across_months_and_years() {
        let d = |y, m, day| Date::new(y, m, day).unwrap();
        assert_eq!(days_between(d(2026, 1, 31), d(2026, 3, 1)), 29);
        assert_eq!(days_between(d(2025, 12, 31), d(2026, 1, 1)), 1);
        assert_eq!(days_between(d(2026, 3, 1), d(2026, 1, 31)), -29);
        assert_eq!(days_between(d(2024, 1, 1), d(2025, 1, 1)), 366);
    }
}
