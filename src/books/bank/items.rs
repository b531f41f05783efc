//! What the ladder matches against, read from the tenant's books: the open
//! invoices (with their creditor references) and the open bills (with the
//! cash discount each grants while it is owed whole), each with its
//! partner, and the IBANs known for a partner (its own particulars, and
//! the counterparties of lines that settled one of its documents). Only the
//! tenant's rows are read: never another company's or environment's.

use jiff::civil::Date;
use rusqlite::{params, Connection};

use crate::books::bank::matching::{CashDiscount, Item};
use crate::books::payments::TargetKind;
use crate::error::Result;
use crate::rules::money::{self, Decimal};
use crate::store::row::Row;
use crate::store::tenant::Tenant;

/// The tenant's open invoices and bills, as the ladder sees them.
///
/// Fails only on a storage error.
pub fn open(conn: &Connection, tenant: &Tenant) -> Result<Vec<Item>> {
    // Sized at once: a hundred thousand items grown by doubling would hold
    // half as many again while the last one is copied.
    let count: i64 = conn
        .prepare_cached(
            "SELECT (SELECT count(*) FROM invoices WHERE company_id = ?1 AND environment = ?2 AND outstanding <> 0)
                  + (SELECT count(*) FROM purchases WHERE company_id = ?1 AND environment = ?2 AND outstanding > 0)",
        )?
        .query_row(params![tenant.company_id, tenant.environment], |r| r.get(0))?;
    let mut items = Vec::with_capacity(usize::try_from(count).unwrap_or(0));
    let mut stmt = conn.prepare_cached(
        "SELECT i.id, i.number, i.customer_id, c.name, i.outstanding, i.currency, i.payment_reference, i.issued_on
         FROM invoices i JOIN customers c ON c.id = i.customer_id
         WHERE i.company_id = ?1 AND i.environment = ?2 AND i.outstanding > 0 AND i.document_type = 'INVOICE'
           AND i.cancelled_by_id IS NULL",
    )?;
    let rows = stmt.query_map(params![tenant.company_id, tenant.environment], |row| {
        let r = Row::new(row, "invoices");
        Ok(Item {
            kind: TargetKind::Invoice,
            id: r.get(0)?,
            number: r.get(1)?,
            partner: r.get(2)?,
            partner_name: r.get(3)?,
            open: r.get(4)?,
            currency: r.get(5)?,
            reference: r.get(6)?,
            dated: r.get::<Date>(7)?,
            discount: None,
        })
    })?;
    for item in rows {
        items.push(item?);
    }
    let mut stmt = conn.prepare_cached(
        "SELECT p.id, p.document_number, p.supplier_id, c.name, p.outstanding, p.currency, p.document_date,
             p.gross, p.discount_until, p.discount_percent
         FROM purchases p JOIN customers c ON c.id = p.supplier_id
         WHERE p.company_id = ?1 AND p.environment = ?2 AND p.kind = 'bill' AND p.outstanding > 0",
    )?;
    let rows = stmt.query_map(params![tenant.company_id, tenant.environment], |row| {
        let r = Row::new(row, "purchases");
        let open: i64 = r.get(4)?;
        let gross: i64 = r.get(7)?;
        let until: Option<Date> = r.get(8)?;
        let percent: Option<Decimal> = r.get(9)?;
        Ok(Item {
            kind: TargetKind::Purchase,
            id: r.get(0)?,
            number: r.get(1)?,
            partner: r.get(2)?,
            partner_name: r.get(3)?,
            open: -open,
            currency: r.get(5)?,
            reference: None,
            dated: r.get::<Date>(6)?,
            discount: until
                .zip(percent)
                .filter(|_| open == gross)
                .and_then(|(until, percent)| cash_discount(gross, until, percent)),
        })
    })?;
    for item in rows {
        items.push(item?);
    }
    Ok(items)
}

/// The cash discount of a bill of `gross` granting `percent` until
/// `until`: the percent of the gross, rounded half away from zero (none
/// when it comes to nothing or to the whole).
pub fn cash_discount(gross: i64, until: Date, percent: Decimal) -> Option<CashDiscount> {
    money::percent_of(gross, percent)
        .ok()
        .filter(|d| *d > 0 && *d < gross)
        .map(|amount| CashDiscount { until, amount })
}

/// The IBANs known for the tenant's partners: (IBAN, partner id) pairs from
/// the partners' own particulars, from the counterparties of lines that
/// settled a partner's document, and from the payee accounts of the
/// suppliers' received bills (the IBAN the e-invoice asks to be paid to).
///
/// Fails only on a storage error.
pub fn known_ibans(conn: &Connection, tenant: &Tenant) -> Result<Vec<(String, String)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT iban, id FROM customers WHERE company_id = ?1 AND environment = ?2 AND iban IS NOT NULL
         UNION
         SELECT l.counterparty_iban, coalesce(i.customer_id, p.supplier_id)
         FROM bank_settlements s
         JOIN bank_lines l ON l.id = s.line_id
         LEFT JOIN invoices i ON s.target_kind = 'invoice' AND i.id = s.target_id
         LEFT JOIN purchases p ON s.target_kind = 'purchase' AND p.id = s.target_id
         WHERE s.company_id = ?1 AND s.environment = ?2 AND s.kind = 'payment' AND s.undone_at IS NULL
           AND l.counterparty_iban IS NOT NULL
         UNION
         SELECT replace(upper(payee_iban), ' ', ''), supplier_id FROM purchases
         WHERE company_id = ?1 AND environment = ?2 AND payee_iban IS NOT NULL",
    )?;
    let rows = stmt.query_map(params![tenant.company_id, tenant.environment], |row| {
        let r = Row::new(row, "customers");
        Ok((r.get(0)?, r.get(1)?))
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
