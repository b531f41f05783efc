//! Purchases: incoming bills and supplier credits recorded by a person, and
//! the money paid against them. Each act is one transaction with its ledger
//! entry (expenses + input tax / payables; payables / bank), its change to the
//! open payables and its events. Every query is bound to a `Tenant`.

use jiff::civil::Date;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::books::company;
use crate::books::customers;
use crate::books::invoices::{self, NewPayment, PaymentView};
use crate::books::ledger::{self, Account, Posting};
use crate::books::report::{self, Side};
use crate::error::{Error, Result};
use crate::outbox::events::{self, Fields};
use crate::rules::iso::Currency;
use crate::rules::money::{self, Decimal, Money};
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::tenant::Tenant;

/// A bill (we owe) or a supplier's credit (we are owed less).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Bill,
    Credit,
}

impl Kind {
    /// Reads `bill` or `credit`.
    ///
    /// Fails with `BadRequest` for anything else.
    pub fn parse(text: &str) -> Result<Kind> {
        match text {
            "bill" => Ok(Kind::Bill),
            "credit" => Ok(Kind::Credit),
            _ => Err(Error::bad_request(format!(
                "{text} is not a purchase kind; use bill or credit."
            ))),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Bill => "bill",
            Kind::Credit => "credit",
        }
    }
}

/// What `record` asks for. Amounts are positive; a credit books them negated.
pub struct NewPurchase {
    pub supplier: String,
    pub supplier_vat_id: Option<String>,
    pub document_number: String,
    pub date: Date,
    pub due: Date,
    pub currency: Currency,
    pub net: i64,
    pub tax: i64,
    pub kind: Kind,
    pub rate: Option<Decimal>,
}

/// A purchase in its wire form.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PurchaseView {
    pub id: String,
    pub kind: String,
    pub supplier_id: String,
    pub supplier: String,
    pub document_number: String,
    pub document_date: String,
    pub due_on: String,
    pub currency: String,
    pub net: Money,
    pub tax: Money,
    pub gross: Money,
    pub outstanding: Money,
    pub paid_on: Option<String>,
    pub recorded_at: String,
}

struct Stored {
    view: PurchaseView,
    kind: Kind,
    rate: String,
    document_date: Date,
    due_on: Date,
    outstanding: i64,
    outstanding_book: i64,
}

fn stored(conn: &Connection, tenant: &Tenant, id: &str) -> Result<Stored> {
    conn.prepare_cached(
        "SELECT p.id, p.kind, p.supplier_id, c.name, p.document_number, p.document_date, p.due_on, p.currency,
                p.net, p.tax, p.gross, p.outstanding, p.paid_on, p.recorded_at, p.rate, p.outstanding_book
         FROM purchases p JOIN customers c ON c.id = p.supplier_id
         WHERE p.id = ?1 AND p.company_id = ?2 AND p.environment = ?3",
    )?
    .query_row(params![id, tenant.company_id, tenant.env()], |r| {
        let currency: String = r.get(7)?;
        let money = |i: usize| -> rusqlite::Result<Money> { Ok(Money::new(r.get(i)?, &currency)) };
        let kind: String = r.get(1)?;
        let document_date: String = r.get(5)?;
        let due_on: String = r.get(6)?;
        Ok(Stored {
            view: PurchaseView {
                id: r.get(0)?,
                kind: kind.clone(),
                supplier_id: r.get(2)?,
                supplier: r.get(3)?,
                document_number: r.get(4)?,
                document_date: document_date.clone(),
                due_on: due_on.clone(),
                net: money(8)?,
                tax: money(9)?,
                gross: money(10)?,
                outstanding: money(11)?,
                paid_on: r.get(12)?,
                recorded_at: r.get(13)?,
                currency: currency.clone(),
            },
            kind: if kind == "credit" { Kind::Credit } else { Kind::Bill },
            rate: r.get(14)?,
            document_date: document_date.parse().unwrap_or(Date::MIN),
            due_on: due_on.parse().unwrap_or(Date::MIN),
            outstanding: r.get(11)?,
            outstanding_book: r.get(15)?,
        })
    })
    .optional()?
    .ok_or_else(|| Error::not_found(format!("Purchase {id}")))
}

/// A purchase of the tenant in its wire form.
///
/// Fails with `NotFound` when the tenant has none with this id.
pub fn get(conn: &Connection, tenant: &Tenant, id: &str) -> Result<PurchaseView> {
    Ok(stored(conn, tenant, id)?.view)
}

/// Records a purchase document; creates the supplier partner when new. Posts
/// expenses + input tax / payables, opens the payable and raises
/// `purchase.recorded`. Returns its id.
///
/// Fails with `BadRequest` for negative amounts or an empty or overlong
/// supplier, VAT id or number, and `Refused` for a document recorded before, a due date before the
/// document date, closed books or a missing rate.
pub fn record(tx: &Tx, tenant: &Tenant, new: &NewPurchase) -> Result<String> {
    let company = company::get(tx, &tenant.company_id)?;
    let supplier = new.supplier.trim();
    let number = new.document_number.trim();
    if supplier.is_empty() || number.is_empty() {
        return Err(Error::bad_request(
            "A purchase needs the supplier's name and its document number.",
        ));
    }
    // The bounds a partner created through the API has.
    if supplier.chars().count() > 200
        || number.chars().count() > 100
        || new
            .supplier_vat_id
            .as_ref()
            .is_some_and(|v| v.chars().count() > 30)
    {
        return Err(Error::bad_request(
            "The supplier's name is at most 200 characters, its VAT id 30, the document number 100.",
        ));
    }
    if new.net < 0 || new.tax < 0 || new.net > money::MAX_AMOUNT || new.tax > money::MAX_AMOUNT {
        return Err(Error::bad_request(
            "Net and tax are positive minor units (a credit is recorded with --kind credit).",
        ));
    }
    if new.net + new.tax == 0 {
        return Err(Error::bad_request("A purchase document needs an amount."));
    }
    if new.due < new.date {
        return Err(Error::refused(format!(
            "The due date {} lies before the document date {}.",
            new.due, new.date
        )));
    }
    ledger::check_open(tx, tenant, new.date)?;
    let rate = invoices::fixed_rate(new.currency.as_str(), &company.currency, new.rate)?;
    let supplier_id = customers::supplier(
        tx,
        tenant,
        supplier,
        new.supplier_vat_id.as_deref(),
        &company.country,
    )?;
    let earlier: Option<String> = tx
        .prepare_cached(
            "SELECT id FROM purchases WHERE company_id = ?1 AND environment = ?2 AND supplier_id = ?3 AND document_number = ?4",
        )?
        .query_row(params![tenant.company_id, tenant.env(), supplier_id, number], |r| r.get(0))
        .optional()?;
    if let Some(earlier) = earlier {
        return Err(Error::refused(format!(
            "{supplier}'s document {number} is already recorded as {earlier}."
        )));
    }
    let sign = if new.kind == Kind::Credit { -1 } else { 1 };
    let (net, tax) = (sign * new.net, sign * new.tax);
    let gross = net + tax;
    let book_exp = Currency::parse("currency", &company.currency)?.exponent();
    let exp = new.currency.exponent();
    let gross_book = money::convert(gross, rate, exp, book_exp)?;
    let tax_book = money::convert(tax, rate, exp, book_exp)?;
    if gross_book == 0 {
        return Err(Error::refused(format!(
            "At the rate {rate} the document is worth nothing in the book currency {}.",
            company.currency
        )));
    }
    let id = ids::new_id("pur");
    tx.prepare_cached(
        "INSERT INTO purchases (id, company_id, environment, supplier_id, kind, document_number, document_date, due_on,
             currency, rate, net, tax, gross, gross_book, outstanding, outstanding_book, recorded_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?13, ?14, ?15)",
    )?
    .execute(params![
        id,
        tenant.company_id,
        tenant.env(),
        supplier_id,
        new.kind.as_str(),
        number,
        new.date.to_string(),
        new.due.to_string(),
        new.currency.as_str(),
        rate.to_string(),
        net,
        tax,
        gross,
        gross_book,
        clock::now()
    ])?;
    ledger::post(
        tx,
        tenant,
        &id,
        new.date,
        &[
            Posting::debit(Account::Expenses, gross_book - tax_book),
            Posting::debit(Account::InputTax, tax_book),
            Posting::credit(Account::Payables, gross_book),
        ],
    )?;
    // A supplier's credit lowers the payables but is never due and is not an
    // open document of its own.
    let (due, documents) = match new.kind {
        Kind::Bill => (new.due, 1),
        Kind::Credit => (Date::constant(9999, 12, 31), 0),
    };
    report::change(
        tx,
        tenant,
        Side::Payable,
        new.date,
        due,
        gross_book,
        documents,
    )?;
    let mut f = Fields::new();
    f.insert("currency", new.currency.as_str().to_string());
    f.insert("documentDate", new.date.to_string());
    f.insert("documentNumber", number.to_string());
    f.insert("dueDate", new.due.to_string());
    f.insert("grossMinor", gross.to_string());
    f.insert("kind", new.kind.as_str().to_string());
    f.insert("netMinor", net.to_string());
    f.insert("purchaseId", id.clone());
    f.insert("supplierId", supplier_id);
    f.insert("supplierName", supplier.to_string());
    f.insert("taxMinor", tax.to_string());
    events::raise(tx, tenant, "purchase.recorded", &id, f)?;
    Ok(id)
}

/// Records money out against a bill: partial payments allowed, more than is
/// outstanding refused. Posts payables / bank, reduces the open payable and
/// raises `payment.recorded`.
///
/// Fails with `NotFound` for an unknown purchase, `WrongState` for a credit or
/// a bill paid in full, and as `invoices::check_payment` does.
pub fn pay(tx: &Tx, tenant: &Tenant, id: &str, payment: &NewPayment) -> Result<PaymentView> {
    let company = company::get(tx, &tenant.company_id)?;
    let purchase = stored(tx, tenant, id)?;
    if purchase.kind == Kind::Credit {
        return Err(Error::wrong_state(format!(
            "{id} is a supplier credit; it is settled against bills, not paid."
        )));
    }
    if purchase.outstanding == 0 {
        return Err(Error::wrong_state(format!("{id} is paid in full.")));
    }
    let on = payment.on.unwrap_or_else(|| company.today());
    let currency = purchase.view.currency.clone();
    let doc = invoices::Payable {
        id,
        label: id,
        outstanding: purchase.outstanding,
        date: purchase.document_date,
        currency: &currency,
    };
    invoices::check_payment(tx, tenant, &doc, payment.amount, on)?;
    let rate = Decimal::parse("rate", &purchase.rate)?;
    let exps = (
        Currency::parse("currency", &currency)?.exponent(),
        Currency::parse("currency", &company.currency)?.exponent(),
    );
    let amount_book = invoices::payment_book_amount(
        payment.amount,
        purchase.outstanding,
        purchase.outstanding_book,
        rate,
        exps,
    )?;
    let view = invoices::write_payment(
        tx,
        tenant,
        "out",
        "purchase",
        id,
        &currency,
        amount_book,
        on,
        payment,
    )?;
    let cleared = payment.amount == purchase.outstanding;
    tx.prepare_cached(
        "UPDATE purchases SET outstanding = outstanding - ?2, outstanding_book = outstanding_book - ?3,
             paid_on = CASE WHEN ?4 THEN ?5 ELSE paid_on END
         WHERE id = ?1 AND company_id = ?6 AND environment = ?7",
    )?
    .execute(params![id, payment.amount, amount_book, cleared, on.to_string(), tenant.company_id, tenant.env()])?;
    ledger::post(
        tx,
        tenant,
        &view.id,
        on,
        &[
            Posting::debit(Account::Payables, amount_book),
            Posting::credit(Account::Bank, amount_book),
        ],
    )?;
    report::change(
        tx,
        tenant,
        Side::Payable,
        on,
        purchase.due_on,
        -amount_book,
        if cleared { -1 } else { 0 },
    )?;
    Ok(view)
}
