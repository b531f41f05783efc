//! A partner's account as a person reads it on the partner's page: the
//! documents issued to them (invoices and corrections) with what is open and
//! how many days it is overdue, the bills they sent with what is still to
//! pay, the payments either way, the reminders sent, and the balance of the
//! partner's personal accounts in the ledger (receivables and payables with
//! the partner as their detail, as the trial balance shows them). Each list
//! holds the newest `LIMIT` items.

use jiff::civil::Date;
use rusqlite::{params, Connection, Params};

use crate::books::company;
use crate::books::customers;
use crate::books::ledger::Account;
use crate::error::Result;
use crate::rules::iso::Currency;
use crate::store::row::{self, Row};
use crate::store::tenant::Tenant;

/// The most items of each list.
pub const LIMIT: i64 = 100;

/// A document between the company and the partner: an invoice or a
/// correction issued to them, or a bill or a supplier's credit they sent.
#[derive(Debug, Clone)]
pub struct Document {
    pub id: String,
    /// The number as printed (a bill's: the supplier's document number).
    pub number: String,
    /// A correction (credit note) or a supplier's credit rather than an
    /// invoice or a bill.
    pub credit: bool,
    /// The day it is dated: issued on, or the bill's document date.
    pub dated: Date,
    pub due_on: Date,
    pub gross: i64,
    pub outstanding: i64,
    pub currency: Currency,
    /// Days past its due date while open (0 when not overdue).
    pub overdue_days: i64,
}

/// A payment from or to the partner.
#[derive(Debug, Clone)]
pub struct Paid {
    pub paid_on: Date,
    /// Money in (from a customer) or out (to a supplier).
    pub incoming: bool,
    pub amount: i64,
    pub currency: Currency,
    /// The invoice's number or the bill's document number.
    pub document: String,
    /// The bill's id when it went to a bill (its page's address).
    pub bill_id: Option<String>,
    pub method: String,
    /// Taken back (with the day).
    pub reversed_on: Option<Date>,
}

/// A reminder sent for one of the partner's invoices.
#[derive(Debug, Clone)]
pub struct Reminded {
    pub on_day: Date,
    pub level: i64,
    pub number: String,
    pub open: i64,
    pub fee: i64,
    pub interest: i64,
    pub currency: Currency,
}

/// The partner's account.
#[derive(Debug, Clone)]
pub struct PartnerAccount {
    /// The invoices and corrections issued to the partner.
    pub issued: Vec<Document>,
    /// The bills and credits the partner sent.
    pub received: Vec<Document>,
    pub payments: Vec<Paid>,
    pub reminders: Vec<Reminded>,
    /// What the partner owes (receivables, debit balance), in the books' currency.
    pub receivable: i64,
    /// What the company owes the partner (payables, credit balance).
    pub payable: i64,
    pub book_currency: Currency,
}

fn overdue(today: Date, due_on: Date, outstanding: i64) -> i64 {
    if outstanding == 0 || today <= due_on {
        0
    } else {
        i64::from((today - due_on).get_days())
    }
}

/// The documents `sql` answers for `keys`, each a row of `table` with the
/// columns of a `Document` in its order (up to its overdue days, reckoned
/// here as of `today`).
///
/// Fails only on a storage error.
fn documents(
    conn: &Connection,
    sql: &str,
    keys: impl Params,
    table: &'static str,
    today: Date,
) -> Result<Vec<Document>> {
    row::all(conn, sql, keys, table, |row| {
        let due_on: Date = row.get(4)?;
        let outstanding: i64 = row.get(6)?;
        Ok(Document {
            id: row.get(0)?,
            number: row.get(1)?,
            credit: row.get(2)?,
            dated: row.get(3)?,
            due_on,
            gross: row.get(5)?,
            outstanding,
            currency: row.get(7)?,
            overdue_days: overdue(today, due_on, outstanding),
        })
    })
}

/// The account of the tenant's partner `partner_id` as of `today`.
///
/// Fails with `NotFound` for a partner the tenant does not have, else only
/// on a storage error.
pub fn account(conn: &Connection, tenant: &Tenant, partner_id: &str) -> Result<PartnerAccount> {
    customers::get(conn, tenant, partner_id)?;
    let company = company::get(conn, &tenant.company_id)?;
    let today = company.today();
    let keys = params![tenant.company_id, tenant.environment, partner_id, LIMIT];
    let issued = documents(
        conn,
        "SELECT id, number, document_type = 'CORRECTION', issued_on, due_on, gross, outstanding, currency
             FROM invoices
             WHERE company_id = ?1 AND environment = ?2 AND customer_id = ?3
             ORDER BY issued_on DESC, seq DESC LIMIT ?4",
        keys,
        "invoices",
        today,
    )?;
    let received = documents(
        conn,
        "SELECT id, document_number, kind = 'credit', document_date, due_on, gross, outstanding, currency
             FROM purchases
             WHERE company_id = ?1 AND environment = ?2 AND supplier_id = ?3
             ORDER BY document_date DESC, seq DESC LIMIT ?4",
        keys,
        "purchases",
        today,
    )?;
    let payments = row::all(
        conn,
        "SELECT p.paid_on, p.direction, p.amount, p.currency, coalesce(i.number, b.document_number),
                    b.id, p.method, p.reversed_on
             FROM payments p
             LEFT JOIN invoices i ON i.id = p.invoice_id
             LEFT JOIN purchases b ON b.id = p.purchase_id
             WHERE p.company_id = ?1 AND p.environment = ?2
               AND (i.customer_id = ?3 OR b.supplier_id = ?3)
             ORDER BY p.paid_on DESC, p.seq DESC LIMIT ?4",
        keys,
        "payments",
        |row| {
        Ok(Paid {
            paid_on: row.get(0)?,
            incoming: row.get::<String>(1)? == "in",
            amount: row.get(2)?,
            currency: row.get(3)?,
            document: row.get(4)?,
            bill_id: row.get(5)?,
            method: row.get(6)?,
            reversed_on: row.get(7)?,
        })
        },
    )?;
    let reminders = row::all(
        conn,
        "SELECT m.on_day, m.level, i.number, m.open, m.fee, m.interest, i.currency
             FROM reminders m JOIN invoices i ON i.id = m.invoice_id
             WHERE m.company_id = ?1 AND m.environment = ?2 AND i.customer_id = ?3
             ORDER BY m.on_day DESC, m.seq DESC LIMIT ?4",
        keys,
        "reminders",
        |row| {
            Ok(Reminded {
                on_day: row.get(0)?,
                level: row.get(1)?,
                number: row.get(2)?,
                open: row.get(3)?,
                fee: row.get(4)?,
                interest: row.get(5)?,
                currency: row.get(6)?,
            })
        },
    )?;
    let balance = |account: Account| -> Result<i64> {
        Ok(conn
            .prepare_cached(
                "SELECT coalesce(sum(debit) - sum(credit), 0) FROM journal
                 WHERE company_id = ?1 AND environment = ?2 AND account = ?3 AND detail = ?4",
            )?
            .query_row(
                params![tenant.company_id, tenant.environment, account, partner_id],
                |r| r.get(0),
            )?)
    };
    Ok(PartnerAccount {
        issued,
        received,
        payments,
        reminders,
        receivable: balance(Account::Receivables)?,
        payable: -balance(Account::Payables)?,
        book_currency: company.currency,
    })
}

/// What is still to pay on the partner's bills (less its credits), by
/// currency, for the list of suppliers.
///
/// Fails only on a storage error.
pub fn to_pay(
    conn: &Connection,
    tenant: &Tenant,
    partner_id: &str,
) -> Result<Vec<(Currency, i64)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT currency, sum(outstanding) FROM purchases
         WHERE company_id = ?1 AND environment = ?2 AND supplier_id = ?3
         GROUP BY currency HAVING sum(outstanding) <> 0 ORDER BY currency",
    )?;
    let rows = stmt.query_map(
        params![tenant.company_id, tenant.environment, partner_id],
        |r| {
            let row = Row::new(r, "purchases");
            Ok((row.get(0)?, row.get(1)?))
        },
    )?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
