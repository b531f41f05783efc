//! Payments as recorded: money in against an invoice, money out against a
//! bill, each a row of `payments` that is never deleted. What a payment is
//! (`Method`, `Direction`, `TargetKind`), its wire form (`PaymentView`), a
//! new payment's row (`insert`), an invoice's payments
//! (`invoice_payments`), one payment read back (`recorded`) and marked
//! reversed (`mark_reversed`), and a person's reversal as given and checked
//! (`ReversalInput`, `Reversal`). Recording and reversing are the
//! settlement act's (`books::settlement`): this file names no act, raises
//! no event and posts nothing.

use jiff::civil::Date;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::error::said::{Record, Settle};
use crate::error::{Error, Result, Said, Violations};
use crate::rules::iso::Currency;
use crate::rules::money::{self, Money};
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::row::Row;
use crate::store::tenant::Tenant;
use crate::stored_enum;

stored_enum! {
    /// How money was paid.
    pub enum Method {
        Bank = "bank",
        Cash = "cash",
        Card = "card",
        Other = "other",
    }
}

stored_enum! {
    /// Which way money moved: in (against an invoice) or out (against a bill).
    pub enum Direction {
        In = "in",
        Out = "out",
    }
}

stored_enum! {
    /// What a payment was made against.
    pub enum TargetKind {
        Invoice = "invoice",
        Purchase = "purchase",
    }
}

/// A payment in its wire form.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PaymentView {
    pub id: String,
    pub direction: Direction,
    pub target_kind: TargetKind,
    pub target_id: String,
    pub amount: Money,
    pub method: Method,
    pub reference: Option<String>,
    pub paid_on: Date,
    /// The day a counter-posting took the payment back, if one did.
    pub reversed_on: Option<Date>,
    /// Why a person took it back (none for a bank line's undo).
    pub reversal_reason: Option<String>,
}

/// A payment read back, with what its wire form leaves out.
#[derive(Debug)]
pub struct Recorded {
    pub view: PaymentView,
    /// The bank line it was settled from, if any.
    pub bank_line_id: Option<String>,
}

/// The columns `recorded_from` reads, in its order.
const COLUMNS: &str =
    "id, direction, invoice_id, purchase_id, currency, amount, method, reference, paid_on,
     reversed_on, reversal_reason, bank_line_id";

/// A payment from a row of `COLUMNS`.
fn recorded_from(row: &rusqlite::Row) -> rusqlite::Result<Recorded> {
    let r = Row::new(row, "payments");
    let invoice: Option<String> = r.get(2)?;
    let purchase: Option<String> = r.get(3)?;
    let (target_kind, target_id) = match (invoice, purchase) {
        (Some(invoice), _) => (TargetKind::Invoice, invoice),
        (None, purchase) => (TargetKind::Purchase, purchase.unwrap_or_default()),
    };
    let currency: Currency = r.get(4)?;
    Ok(Recorded {
        view: PaymentView {
            id: r.get(0)?,
            direction: r.get(1)?,
            target_kind,
            target_id,
            amount: Money::new(r.get(5)?, &currency),
            method: r.get(6)?,
            reference: r.get(7)?,
            paid_on: r.get(8)?,
            reversed_on: r.get(9)?,
            reversal_reason: r.get(10)?,
        },
        bank_line_id: r.get(11)?,
    })
}

/// Writes the row of the new payment `view`: `amount_book` in the book
/// currency, from the bank line `bank_line_id` if one paid it.
///
/// Fails only on a storage error.
pub fn insert(
    tx: &Tx,
    tenant: &Tenant,
    view: &PaymentView,
    amount_book: i64,
    bank_line_id: Option<&str>,
) -> Result<()> {
    let target = |kind: TargetKind| (view.target_kind == kind).then_some(&view.target_id);
    tx.prepare_cached(
        "INSERT INTO payments (id, company_id, environment, direction, invoice_id, purchase_id, currency, amount,
             amount_book, method, reference, paid_on, recorded_at, bank_line_id)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
    )?
    .execute(params![
        view.id,
        tenant.company_id,
        tenant.environment,
        view.direction,
        target(TargetKind::Invoice),
        target(TargetKind::Purchase),
        view.amount.currency,
        view.amount.minor,
        amount_book,
        view.method,
        view.reference,
        view.paid_on,
        clock::now(),
        bank_line_id
    ])?;
    Ok(())
}

/// The payments recorded against the invoice `invoice_id` of the tenant,
/// in the order they were recorded, the reversed ones with them.
///
/// Fails only on a storage error.
pub fn invoice_payments(
    conn: &Connection,
    tenant: &Tenant,
    invoice_id: &str,
) -> Result<Vec<PaymentView>> {
    let recorded = of_document(conn, tenant, "invoice_id", invoice_id)?;
    Ok(recorded.into_iter().map(|p| p.view).collect())
}

/// The payments recorded against the bill `purchase_id` of the tenant, in
/// the order they were recorded, the reversed ones with them, each with
/// whether a bank line settled it (then only its line's undo takes it
/// back).
///
/// Fails only on a storage error.
pub fn bill_payments(
    conn: &Connection,
    tenant: &Tenant,
    purchase_id: &str,
) -> Result<Vec<Recorded>> {
    of_document(conn, tenant, "purchase_id", purchase_id)
}

/// The payments recorded against the document `id` named by the column
/// `column` (`invoice_id` or `purchase_id`), in the order they were
/// recorded.
fn of_document(
    conn: &Connection,
    tenant: &Tenant,
    column: &str,
    id: &str,
) -> Result<Vec<Recorded>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM payments
         WHERE {column} = ?1 AND company_id = ?2 AND environment = ?3 ORDER BY seq"
    ))?;
    let rows = stmt.query_map(
        params![id, tenant.company_id, tenant.environment],
        recorded_from,
    )?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The payment `id` of the tenant.
///
/// Fails with `NotFound` when the tenant has no such payment (another
/// company's is not found either).
pub fn recorded(conn: &Connection, tenant: &Tenant, id: &str) -> Result<Recorded> {
    conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM payments WHERE id = ?1 AND company_id = ?2 AND environment = ?3"
    ))?
    .query_row(
        params![id, tenant.company_id, tenant.environment],
        recorded_from,
    )
    .optional()?
    .ok_or_else(|| Error::not_found(Said::Record(Record::Payment, id.to_string())))
}

/// Marks the payment `id` of the tenant reversed on `on`, with a person's
/// reason (none for a bank line's undo). The row stays.
///
/// Fails only on a storage error.
pub fn mark_reversed(
    tx: &Tx,
    tenant: &Tenant,
    id: &str,
    on: Date,
    reason: Option<&str>,
) -> Result<()> {
    tx.prepare_cached(
        "UPDATE payments SET reversed_on = ?2, reversal_reason = ?3
         WHERE id = ?1 AND company_id = ?4 AND environment = ?5",
    )?
    .execute(params![
        id,
        on,
        reason,
        tenant.company_id,
        tenant.environment
    ])?;
    Ok(())
}

/// A person's reversal of a payment as given, checked: its reason and day.
pub use crate::books::reasoned::{
    Reasoned as Reversal, ReasonedInput as ReversalInput, MAX_REASON,
};

/// A credit application as a person gives it.
#[derive(Debug, Default, Clone)]
pub struct CreditInput {
    /// Minor units; default: as much as both the credit and the bill allow.
    pub amount: Option<i64>,
    /// The date (default today in the company's time zone).
    pub on: Option<String>,
}

/// A checked credit application.
#[derive(Debug, Clone)]
pub struct CreditRequest {
    pub(crate) amount: Option<i64>,
    pub(crate) on: Option<Date>,
}

impl CreditRequest {
    /// Checks the request: a positive amount when given, a date `YYYY-MM-DD`.
    ///
    /// Fails with `Invalid` naming every field that is malformed.
    pub fn check(input: CreditInput) -> Result<CreditRequest> {
        let mut v = Violations::new();
        if input
            .amount
            .is_some_and(|a| a <= 0 || a > money::MAX_AMOUNT)
        {
            v.invalid("amount", Settle::NotPositiveMinor);
        }
        let on = match input.on.as_deref() {
            Some(d) => v.take(clock::parse_date("on", d))?,
            None => None,
        };
        v.finish()?;
        Ok(CreditRequest {
            amount: input.amount,
            on,
        })
    }
}

/// A credit application in its wire form.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CreditView {
    pub id: String,
    pub credit_id: String,
    pub bill_id: String,
    pub amount: Money,
    pub applied_on: Date,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reversal_needs_a_reason_and_reads_its_day() {
        let missing = Reversal::check(ReversalInput {
            reason: Some("  ".into()),
            on: Some("2026-13-01".into()),
        })
        .unwrap_err()
        .to_string();
        assert!(
            missing.contains("reason") && missing.contains("on"),
            "{missing}"
        );
        let long = Reversal::check(ReversalInput {
            reason: Some("x".repeat(MAX_REASON + 1)),
            on: None,
        });
        assert!(long.is_err());
        let ok = Reversal::check(ReversalInput {
            reason: Some(" Doppelt erfasst ".into()),
            on: Some("2026-11-20".into()),
        })
        .unwrap();
        assert_eq!(ok.reason(), "Doppelt erfasst");
        assert_eq!(ok.on(), Some(jiff::civil::date(2026, 11, 20)));
    }
}
