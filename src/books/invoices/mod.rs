//! Issued documents (invoices and their corrections): the acts that make and
//! move them (issue a draft, record a payment, cancel by full correction),
//! each one transaction with its ledger entry, open-item changes and events;
//! and their read-only wire form with the payment state computed against the
//! company's today. Every query is bound to a `Tenant`.

use jiff::civil::Date;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::books::company::{self, Company};
use crate::books::ledger::{self, Account, Posting};
use crate::books::numbering;
use crate::books::report::{self, Side};
use crate::error::{Error, Result};
use crate::http::query::{Page, Paging, PAGE_LIMIT_SQL};
use crate::http::rest::{Call, Reply};
use crate::outbox::events::{self, Fields};
use crate::rules::iso::Currency;
use crate::rules::jurisdiction::{self, DocumentKind};
use crate::rules::money::{self, Decimal, Money};
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::tenant::Tenant;

/// How a payment was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Bank,
    Cash,
    Card,
    Other,
}

impl Method {
    /// Reads `bank`, `cash`, `card` or `other`.
    ///
    /// Fails with `BadRequest` for anything else.
    pub fn parse(text: &str) -> Result<Method> {
        match text {
            "bank" => Ok(Method::Bank),
            "cash" => Ok(Method::Cash),
            "card" => Ok(Method::Card),
            "other" => Ok(Method::Other),
            _ => Err(Error::bad_request(format!(
                "{text} is not a payment method; use bank, cash, card or other."
            ))),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Method::Bank => "bank",
            Method::Cash => "cash",
            Method::Card => "card",
            Method::Other => "other",
        }
    }
}

/// An issued document as stored.
#[derive(Debug, Clone)]
pub struct Stored {
    pub id: String,
    pub document_type: String,
    pub number: String,
    pub customer_id: String,
    pub buyer: String,
    pub currency: String,
    pub rate: String,
    pub issued_on: Date,
    pub due_on: Date,
    pub delivered_on: String,
    pub net: i64,
    pub tax: i64,
    pub gross: i64,
    pub gross_book: i64,
    pub outstanding: i64,
    pub outstanding_book: i64,
    pub paid_on: Option<String>,
    pub payment_sentence: String,
    pub corrects_id: Option<String>,
    pub cancelled_by_id: Option<String>,
    pub recorded_at: String,
}

const COLUMNS: &str = "id, document_type, number, customer_id, buyer_name, currency, rate, issued_on, due_on,
     delivered_on, net, tax, gross, gross_book, outstanding, outstanding_book, paid_on, payment_sentence,
     corrects_id, cancelled_by_id, recorded_at";

fn date_of(text: String) -> Date {
    text.parse().unwrap_or(Date::MIN)
}

fn from_row(r: &rusqlite::Row) -> rusqlite::Result<Stored> {
    Ok(Stored {
        id: r.get(0)?,
        document_type: r.get(1)?,
        number: r.get(2)?,
        customer_id: r.get(3)?,
        buyer: r.get(4)?,
        currency: r.get(5)?,
        rate: r.get(6)?,
        issued_on: date_of(r.get(7)?),
        due_on: date_of(r.get(8)?),
        delivered_on: r.get(9)?,
        net: r.get(10)?,
        tax: r.get(11)?,
        gross: r.get(12)?,
        gross_book: r.get(13)?,
        outstanding: r.get(14)?,
        outstanding_book: r.get(15)?,
        paid_on: r.get(16)?,
        payment_sentence: r.get(17)?,
        corrects_id: r.get(18)?,
        cancelled_by_id: r.get(19)?,
        recorded_at: r.get(20)?,
    })
}

/// One line of an issued document.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LineView {
    pub description: String,
    pub quantity: String,
    pub unit_price: Money,
    pub net: Money,
}

/// One tax total of an issued document.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TaxView {
    pub name: String,
    pub rate: String,
    pub reason: Option<String>,
    pub base: Money,
    pub amount: Money,
}

/// An issued document in its wire form.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceView {
    pub id: String,
    pub number: String,
    pub document_type: String,
    pub customer_id: String,
    pub buyer: String,
    pub currency: String,
    pub issued_on: String,
    pub due_on: String,
    pub delivered_on: String,
    pub net: Money,
    pub tax: Money,
    pub gross: Money,
    pub outstanding: Money,
    pub payment_state: &'static str,
    pub overdue: bool,
    pub cancelled: bool,
    pub credit_note: bool,
    pub paid_on: Option<String>,
    pub payment_sentence: Option<String>,
    /// The number of the correction that cancelled this invoice.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cancelled_by: Option<String>,
    /// The number of the invoice this correction reverses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub corrects: Option<String>,
    pub recorded_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<LineView>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub taxes: Option<Vec<TaxView>>,
}

impl Stored {
    /// The payment state against `today`, and whether the document is overdue.
    pub fn state(&self, today: Date) -> (&'static str, bool) {
        if self.document_type == "CORRECTION" {
            ("CORRECTION", false)
        } else if self.cancelled_by_id.is_some() {
            ("CANCELLED", false)
        } else if self.outstanding == 0 {
            ("PAID", false)
        } else if self.due_on < today {
            ("OVERDUE", true)
        } else {
            ("OPEN", false)
        }
    }

    fn view(
        &self,
        conn: &Connection,
        tenant: &Tenant,
        today: Date,
        detail: bool,
    ) -> Result<InvoiceView> {
        let (payment_state, overdue) = self.state(today);
        let money = |minor| Money::new(minor, &self.currency);
        let number_of = |id: &Option<String>| -> Result<Option<String>> {
            match id {
                None => Ok(None),
                Some(id) => Ok(conn
                    .prepare_cached(
                        "SELECT number FROM invoices WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
                    )?
                    .query_row(params![id, tenant.company_id, tenant.env()], |r| r.get(0))
                    .optional()?),
            }
        };
        let (lines, taxes) = if detail {
            (
                Some(lines_of(conn, &self.id, &self.currency)?),
                Some(taxes_of(conn, &self.id, &self.currency)?),
            )
        } else {
            (None, None)
        };
        Ok(InvoiceView {
            id: self.id.clone(),
            number: self.number.clone(),
            document_type: self.document_type.clone(),
            customer_id: self.customer_id.clone(),
            buyer: self.buyer.clone(),
            currency: self.currency.clone(),
            issued_on: self.issued_on.to_string(),
            due_on: self.due_on.to_string(),
            delivered_on: self.delivered_on.clone(),
            net: money(self.net),
            tax: money(self.tax),
            gross: money(self.gross),
            outstanding: money(self.outstanding),
            payment_state,
            overdue,
            cancelled: self.cancelled_by_id.is_some(),
            credit_note: self.document_type == "CORRECTION",
            paid_on: self.paid_on.clone(),
            payment_sentence: Some(self.payment_sentence.clone()).filter(|s| !s.is_empty()),
            cancelled_by: number_of(&self.cancelled_by_id)?,
            corrects: number_of(&self.corrects_id)?,
            recorded_at: self.recorded_at.clone(),
            lines,
            taxes,
        })
    }

    /// The event fields every invoice event carries, as the document stands now.
    fn event_fields(&self, today: Date) -> Fields {
        let (state, _) = self.state(today);
        let mut f = Fields::new();
        f.insert("amountDueMinor", self.outstanding.to_string());
        f.insert("buyerName", self.buyer.clone());
        f.insert("currency", self.currency.clone());
        f.insert("documentType", self.document_type.clone());
        f.insert("dueDate", self.due_on.to_string());
        f.insert("grossMinor", self.gross.to_string());
        f.insert("invoiceId", self.id.clone());
        f.insert("issueDate", self.issued_on.to_string());
        f.insert("netMinor", self.net.to_string());
        f.insert("number", self.number.clone());
        f.insert("paymentState", state.to_string());
        f.insert("taxMinor", self.tax.to_string());
        f
    }
}

fn lines_of(conn: &Connection, invoice_id: &str, currency: &str) -> Result<Vec<LineView>> {
    let mut stmt = conn.prepare_cached(
        "SELECT description, quantity, unit_price, net FROM invoice_lines WHERE invoice_id = ?1 ORDER BY seq",
    )?;
    let rows = stmt.query_map([invoice_id], |r| {
        Ok(LineView {
            description: r.get(0)?,
            quantity: r.get(1)?,
            unit_price: Money::new(r.get(2)?, currency),
            net: Money::new(r.get(3)?, currency),
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

fn taxes_of(conn: &Connection, invoice_id: &str, currency: &str) -> Result<Vec<TaxView>> {
    let mut stmt = conn.prepare_cached(
        "SELECT name, rate, reason, base, amount FROM invoice_taxes WHERE invoice_id = ?1 ORDER BY seq",
    )?;
    let rows = stmt.query_map([invoice_id], |r| {
        Ok(TaxView {
            name: r.get(0)?,
            rate: r.get(1)?,
            reason: r.get(2)?,
            base: Money::new(r.get(3)?, currency),
            amount: Money::new(r.get(4)?, currency),
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// A stored document of the tenant by id.
///
/// Fails with `NotFound` when the tenant has none with this id.
pub fn stored_by_id(conn: &Connection, tenant: &Tenant, id: &str) -> Result<Stored> {
    conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM invoices WHERE id = ?1 AND company_id = ?2 AND environment = ?3"
    ))?
    .query_row(params![id, tenant.company_id, tenant.env()], from_row)
    .optional()?
    .ok_or_else(|| Error::not_found(format!("Invoice {id}")))
}

/// A stored document of the tenant by number.
///
/// Fails with `NotFound` when the tenant has none with this number.
pub fn stored_by_number(conn: &Connection, tenant: &Tenant, number: &str) -> Result<Stored> {
    conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM invoices WHERE number = ?1 AND company_id = ?2 AND environment = ?3"
    ))?
    .query_row(params![number, tenant.company_id, tenant.env()], from_row)
    .optional()?
    .ok_or_else(|| Error::not_found(format!("Invoice {number}")))
}

/// One document of the tenant in its full wire form (with lines and taxes).
///
/// Fails with `NotFound` when the tenant has none with this number.
pub fn get(conn: &Connection, tenant: &Tenant, number: &str, today: Date) -> Result<InvoiceView> {
    stored_by_number(conn, tenant, number)?.view(conn, tenant, today, true)
}

/// One document of the tenant by id in its full wire form.
///
/// Fails with `NotFound` when the tenant has none with this id.
pub fn get_by_id(conn: &Connection, tenant: &Tenant, id: &str, today: Date) -> Result<InvoiceView> {
    stored_by_id(conn, tenant, id)?.view(conn, tenant, today, true)
}

/// The filters of the invoice list.
#[derive(Debug, Default, Clone, Copy)]
pub struct Filter {
    /// `Some(true)`: something outstanding; `Some(false)`: fully paid.
    pub open: Option<bool>,
    pub from: Option<Date>,
    pub to: Option<Date>,
}

fn tally(conn: &Connection, tenant: &Tenant, name: &str) -> Result<i64> {
    Ok(conn
        .prepare_cached("SELECT value FROM invoice_tallies WHERE company_id = ?1 AND environment = ?2 AND tally = ?3")?
        .query_row(params![tenant.company_id, tenant.env(), name], |r| r.get(0))
        .optional()?
        .unwrap_or(0))
}

fn add_tally(tx: &Tx, tenant: &Tenant, name: &str, delta: i64) -> Result<()> {
    tx.prepare_cached(
        "INSERT INTO invoice_tallies (company_id, environment, tally, value) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (company_id, environment, tally) DO UPDATE SET value = value + excluded.value",
    )?
    .execute(params![tenant.company_id, tenant.env(), name, delta])?;
    Ok(())
}

/// A page of the tenant's documents, newest first (issue date, then the order of issue).
///
/// Fails only on a storage error.
pub fn list(
    conn: &Connection,
    tenant: &Tenant,
    filter: Filter,
    paging: Paging,
    today: Date,
) -> Result<Page<InvoiceView>> {
    let state = match filter.open {
        None => "",
        Some(true) => "AND outstanding <> 0",
        Some(false) => "AND paid_on IS NOT NULL",
    };
    let range = "AND (?3 IS NULL OR issued_on >= ?3) AND (?4 IS NULL OR issued_on <= ?4)";
    let where_ = format!("company_id = ?1 AND environment = ?2 {state} {range}");
    let (from, to) = (
        filter.from.map(|d| d.to_string()),
        filter.to.map(|d| d.to_string()),
    );
    let total = if filter.from.is_none() && filter.to.is_none() {
        tally(
            conn,
            tenant,
            match filter.open {
                None => "all",
                Some(true) => "open",
                Some(false) => "paid",
            },
        )?
    } else {
        conn.prepare_cached(&format!("SELECT count(*) FROM invoices WHERE {where_}"))?
            .query_row(params![tenant.company_id, tenant.env(), from, to], |r| {
                r.get(0)
            })?
    };
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM invoices WHERE {where_} ORDER BY issued_on DESC, seq DESC {PAGE_LIMIT_SQL} OFFSET ?5"
    ))?;
    let stored = stmt
        .query_map(
            params![tenant.company_id, tenant.env(), from, to, paging.offset()],
            from_row,
        )?
        .take(paging.size as usize)
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let data = stored
        .iter()
        .map(|s| s.view(conn, tenant, today, false))
        .collect::<Result<Vec<_>>>()?;
    Ok(paging.envelope(data, total))
}

/// The book-currency split of a document's figures: (net, tax, gross).
fn book_figures(stored: &Stored, company: &Company) -> Result<(i64, i64, i64)> {
    let rate = Decimal::parse("rate", &stored.rate)?;
    let (from, to) = exponents(&stored.currency, &company.currency)?;
    let tax_book = money::convert(stored.tax, rate, from, to)?;
    Ok((stored.gross_book - tax_book, tax_book, stored.gross_book))
}

fn exponents(document: &str, book: &str) -> Result<(u8, u8)> {
    Ok((
        Currency::parse("currency", document)?.exponent(),
        Currency::parse("currency", book)?.exponent(),
    ))
}

/// The rate of a document in `currency` for a company booking in `book`:
/// absent or 1 for the same currency, required and positive otherwise.
///
/// Fails with `Refused` saying which.
pub fn fixed_rate(currency: &str, book: &str, rate: Option<Decimal>) -> Result<Decimal> {
    let one = Decimal::from_int(1);
    match rate {
        None if currency == book => Ok(one),
        Some(r) if currency == book && r != one => {
            Err(Error::refused(format!("A document in the book currency {book} has the rate 1, not {r}.")))
        }
        None => Err(Error::refused(format!(
            "The document is in {currency} and the books in {book}: give the rate fixed today (--rate, {book} per {currency})."
        ))),
        Some(r) if r.is_negative() || r.is_zero() => Err(Error::refused("A rate must be greater than 0.")),
        Some(r) => Ok(r),
    }
}

/// A checked line as it is frozen into a document.
pub struct FrozenLine {
    pub description: String,
    pub quantity: Decimal,
    pub unit_price: i64,
}

/// Everything `issue` freezes into a new invoice.
pub struct NewInvoice<'a> {
    pub draft_id: &'a str,
    pub customer_id: &'a str,
    pub currency: &'a str,
    pub lines: Vec<FrozenLine>,
    pub totals: money::Totals,
    pub issued_on: Date,
    pub delivered_on: Date,
    pub due_on: Date,
    pub rate: Decimal,
}

/// Issues an invoice: takes the next number of its series, freezes buyer,
/// figures and dates, posts receivables / revenue + output tax, opens the
/// receivable and raises `invoice.issued`. Returns the new invoice's id.
/// The caller has checked the draft (see `drafts::issue`).
///
/// Fails with `Refused` for closed books, a total that is not positive or an
/// amount too large to book.
pub fn issue(tx: &Tx, tenant: &Tenant, company: &Company, new: NewInvoice) -> Result<String> {
    ledger::check_open(tx, tenant, new.issued_on)?;
    if new.totals.gross <= 0 {
        return Err(Error::refused(
            "An invoice's total must be greater than zero; a reduction is a correction.",
        ));
    }
    let (from_exp, to_exp) = exponents(new.currency, &company.currency)?;
    let gross_book = money::convert(new.totals.gross, new.rate, from_exp, to_exp)?;
    if gross_book <= 0 {
        return Err(Error::refused(format!(
            "At the rate {} the invoice is worth nothing in the book currency {}.",
            new.rate, company.currency
        )));
    }
    let tax_book = money::convert(new.totals.tax, new.rate, from_exp, to_exp)?;
    let year = new.issued_on.year();
    let series = jurisdiction::series(&company.country, DocumentKind::Invoice, year);
    let seq = numbering::take(tx, tenant, &series, 1)?;
    let number = jurisdiction::document_number(
        &company.country,
        &company.invoice_prefix,
        DocumentKind::Invoice,
        year,
        seq,
    );
    let id = ids::new_id("inv");
    let buyer: (String, String, String, String, String, Option<String>) = tx
        .prepare_cached(
            "SELECT name, street, postal_code, city, country, vat_id FROM customers
             WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
        )?
        .query_row(
            params![new.customer_id, tenant.company_id, tenant.env()],
            |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                ))
            },
        )
        .optional()?
        .ok_or_else(|| Error::not_found(format!("Customer {}", new.customer_id)))?;
    let sentence = jurisdiction::payment_sentence(&company.country, new.due_on);
    tx.prepare_cached(
        "INSERT INTO invoices (id, company_id, environment, document_type, number, draft_id, customer_id, buyer_name,
             buyer_street, buyer_postal_code, buyer_city, buyer_country, buyer_vat_id, currency, rate, issued_on, due_on,
             delivered_on, net, tax, gross, gross_book, outstanding, outstanding_book, payment_sentence, recorded_at)
         VALUES (?1, ?2, ?3, 'INVOICE', ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20,
             ?21, ?20, ?21, ?22, ?23)",
    )?
    .execute(params![
        id,
        tenant.company_id,
        tenant.env(),
        number,
        new.draft_id,
        new.customer_id,
        buyer.0,
        buyer.1,
        buyer.2,
        buyer.3,
        buyer.4,
        buyer.5,
        new.currency,
        new.rate.to_string(),
        new.issued_on.to_string(),
        new.due_on.to_string(),
        new.delivered_on.to_string(),
        new.totals.net,
        new.totals.tax,
        new.totals.gross,
        gross_book,
        sentence,
        clock::now()
    ])?;
    let mut line = tx.prepare_cached(
        "INSERT INTO invoice_lines (invoice_id, description, quantity, unit_price, net) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for (l, net) in new.lines.iter().zip(&new.totals.line_nets) {
        line.execute(params![
            id,
            l.description,
            l.quantity.to_string(),
            l.unit_price,
            net
        ])?;
    }
    let mut tax = tx.prepare_cached(
        "INSERT INTO invoice_taxes (invoice_id, name, rate, reason, base, amount) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    for t in &new.totals.taxes {
        tax.execute(params![
            id,
            t.name,
            t.rate.to_string(),
            t.reason,
            t.base,
            t.amount
        ])?;
    }
    ledger::post(
        tx,
        tenant,
        &id,
        new.issued_on,
        &[
            Posting::debit(Account::Receivables, gross_book),
            Posting::credit(Account::Revenue, gross_book - tax_book),
            Posting::credit(Account::OutputTax, tax_book),
        ],
    )?;
    report::change(
        tx,
        tenant,
        Side::Receivable,
        new.issued_on,
        new.due_on,
        gross_book,
        1,
    )?;
    add_tally(tx, tenant, "all", 1)?;
    add_tally(tx, tenant, "open", 1)?;
    let stored = stored_by_id(tx, tenant, &id)?;
    events::raise(
        tx,
        tenant,
        "invoice.issued",
        &id,
        stored.event_fields(company.today()),
    )?;
    Ok(id)
}

/// What `record_payment` made: the payment's id and wire form.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PaymentView {
    pub id: String,
    pub direction: &'static str,
    pub target_kind: &'static str,
    pub target_id: String,
    pub amount: Money,
    pub method: &'static str,
    pub reference: Option<String>,
    pub paid_on: String,
}

/// A payment as the act needs it.
pub struct NewPayment {
    pub amount: i64,
    pub on: Option<Date>,
    pub method: Method,
    pub reference: Option<String>,
}

/// Writes the payment row and its `payment.recorded` event.
#[allow(clippy::too_many_arguments)]
pub(crate) fn write_payment(
    tx: &Tx,
    tenant: &Tenant,
    direction: &'static str,
    target_kind: &'static str,
    target_id: &str,
    currency: &str,
    amount_book: i64,
    on: Date,
    p: &NewPayment,
) -> Result<PaymentView> {
    let id = ids::new_id("pay");
    tx.prepare_cached(
        "INSERT INTO payments (id, company_id, environment, direction, invoice_id, purchase_id, currency, amount,
             amount_book, method, reference, paid_on, recorded_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
    )?
    .execute(params![
        id,
        tenant.company_id,
        tenant.env(),
        direction,
        (target_kind == "invoice").then_some(target_id),
        (target_kind == "purchase").then_some(target_id),
        currency,
        p.amount,
        amount_book,
        p.method.as_str(),
        p.reference,
        on.to_string(),
        clock::now()
    ])?;
    let mut f = Fields::new();
    f.insert("amountMinor", p.amount.to_string());
    f.insert("direction", direction.to_string());
    f.insert("method", p.method.as_str().to_string());
    f.insert("reference", p.reference.clone().unwrap_or_default());
    f.insert("targetId", target_id.to_string());
    f.insert("targetKind", target_kind.to_string());
    events::raise(tx, tenant, "payment.recorded", &id, f)?;
    Ok(PaymentView {
        id,
        direction,
        target_kind,
        target_id: target_id.to_string(),
        amount: Money::new(p.amount, currency),
        method: p.method.as_str(),
        reference: p.reference.clone(),
        paid_on: on.to_string(),
    })
}

/// The book amount of paying `amount` of a document: the whole open book
/// amount when the payment clears it, else the converted amount (never all of it).
pub(crate) fn payment_book_amount(
    amount: i64,
    outstanding: i64,
    outstanding_book: i64,
    rate: Decimal,
    exps: (u8, u8),
) -> Result<i64> {
    if amount == outstanding {
        return Ok(outstanding_book);
    }
    let converted =
        money::convert(amount, rate, exps.0, exps.1)?.clamp(0, (outstanding_book - 1).max(0));
    if converted == 0 {
        return Err(Error::refused(
            "The payment is too small to be booked in the book currency.",
        ));
    }
    Ok(converted)
}

/// A document a payment is recorded against.
pub(crate) struct Payable<'a> {
    pub id: &'a str,
    /// How a person names it (its number, or the purchase id).
    pub label: &'a str,
    pub outstanding: i64,
    pub date: Date,
    pub currency: &'a str,
}

/// Checks a payment's amount and date against an open document.
///
/// Fails with `BadRequest` for an amount that is not positive, and `Refused`
/// for more than is outstanding, a date before the document, before an
/// earlier payment of it, or in closed books.
pub(crate) fn check_payment(
    conn: &Connection,
    tenant: &Tenant,
    doc: &Payable,
    amount: i64,
    on: Date,
) -> Result<()> {
    let (what, outstanding, currency) = (doc.label, doc.outstanding, doc.currency);
    if amount <= 0 {
        return Err(Error::bad_request(
            "A payment's amount must be a positive number of minor units.",
        ));
    }
    if amount > outstanding {
        return Err(Error::refused(format!(
            "{amount} is more than the {outstanding} {currency} minor units outstanding on {what}; overpayments are refused."
        )));
    }
    if on < doc.date {
        return Err(Error::refused(format!(
            "A payment dated {on} cannot precede {what}, dated {}.",
            doc.date
        )));
    }
    let last: Option<String> = conn
        .prepare_cached(
            "SELECT max(paid_on) FROM payments WHERE (invoice_id = ?1 OR purchase_id = ?1) AND company_id = ?2 AND environment = ?3",
        )?
        .query_row(params![doc.id, tenant.company_id, tenant.env()], |r| r.get(0))?;
    if let Some(last) = last.filter(|l| *l > on.to_string()) {
        return Err(Error::refused(format!(
            "A payment of {what} is recorded on {last}; payments are recorded in date order, so one dated {on} is refused."
        )));
    }
    ledger::check_open(conn, tenant, on)
}

/// Records money in against an invoice: partial payments are allowed, more
/// than is outstanding is not. Posts bank / receivables, reduces the open
/// receivable, raises `payment.recorded` and, when it clears the invoice,
/// `invoice.paid`.
///
/// Fails with `NotFound` for an unknown number, `WrongState` for a document
/// that cannot take payments, and as `check_payment` does.
pub fn record_payment(
    tx: &Tx,
    tenant: &Tenant,
    number: &str,
    payment: &NewPayment,
) -> Result<(PaymentView, String)> {
    let company = company::get(tx, &tenant.company_id)?;
    let invoice = stored_by_number(tx, tenant, number)?;
    let on = payment.on.unwrap_or_else(|| company.today());
    if invoice.document_type == "CORRECTION" {
        return Err(Error::wrong_state(format!(
            "{number} is a correction document; it takes no payments."
        )));
    }
    if invoice.cancelled_by_id.is_some() {
        return Err(Error::wrong_state(format!(
            "{number} is cancelled; it takes no payments."
        )));
    }
    if invoice.outstanding == 0 {
        return Err(Error::wrong_state(format!("{number} is paid in full.")));
    }
    let doc = Payable {
        id: &invoice.id,
        label: number,
        outstanding: invoice.outstanding,
        date: invoice.issued_on,
        currency: &invoice.currency,
    };
    check_payment(tx, tenant, &doc, payment.amount, on)?;
    let rate = Decimal::parse("rate", &invoice.rate)?;
    let exps = exponents(&invoice.currency, &company.currency)?;
    let amount_book = payment_book_amount(
        payment.amount,
        invoice.outstanding,
        invoice.outstanding_book,
        rate,
        exps,
    )?;
    let view = write_payment(
        tx,
        tenant,
        "in",
        "invoice",
        &invoice.id,
        &invoice.currency,
        amount_book,
        on,
        payment,
    )?;
    let cleared = payment.amount == invoice.outstanding;
    tx.prepare_cached(
        "UPDATE invoices SET outstanding = outstanding - ?2, outstanding_book = outstanding_book - ?3,
             paid_on = CASE WHEN ?4 THEN ?5 ELSE paid_on END
         WHERE id = ?1 AND company_id = ?6 AND environment = ?7",
    )?
    .execute(params![
        invoice.id,
        payment.amount,
        amount_book,
        cleared,
        on.to_string(),
        tenant.company_id,
        tenant.env()
    ])?;
    ledger::post(
        tx,
        tenant,
        &view.id,
        on,
        &[
            Posting::debit(Account::Bank, amount_book),
            Posting::credit(Account::Receivables, amount_book),
        ],
    )?;
    report::change(
        tx,
        tenant,
        Side::Receivable,
        on,
        invoice.due_on,
        -amount_book,
        if cleared { -1 } else { 0 },
    )?;
    if cleared {
        add_tally(tx, tenant, "open", -1)?;
        add_tally(tx, tenant, "paid", 1)?;
        let paid = stored_by_id(tx, tenant, &invoice.id)?;
        let mut f = paid.event_fields(company.today());
        f.insert("paidOn", on.to_string());
        events::raise(tx, tenant, "invoice.paid", &invoice.id, f)?;
    }
    Ok((view, invoice.id))
}

/// Cancels an invoice by a full correction: a CORRECTION document
/// (`creditNote`, negated figures, the next number of its series) reverses it,
/// the original becomes CANCELLED, the ledger entry is reversed, the
/// receivable closed, and `invoice.cancelled` raised. Returns (original id,
/// correction id).
///
/// Fails with `NotFound` for an unknown number, `WrongState` for a correction
/// or an already cancelled invoice, and `Refused` once a payment exists, for a
/// missing reason, a date before the invoice or in closed books.
pub fn cancel(
    tx: &Tx,
    tenant: &Tenant,
    number: &str,
    reason: &str,
    on: Option<Date>,
) -> Result<(String, String)> {
    let company = company::get(tx, &tenant.company_id)?;
    let original = stored_by_number(tx, tenant, number)?;
    let on = on.unwrap_or_else(|| company.today());
    let reason = reason.trim();
    if original.document_type == "CORRECTION" {
        return Err(Error::wrong_state(format!(
            "{number} is itself a correction; it cannot be cancelled."
        )));
    }
    if original.cancelled_by_id.is_some() {
        return Err(Error::wrong_state(format!(
            "{number} is already cancelled."
        )));
    }
    if reason.is_empty() {
        return Err(Error::refused("A cancellation needs a reason."));
    }
    let payments: i64 = tx
        .prepare_cached(
            "SELECT count(*) FROM payments WHERE invoice_id = ?1 AND company_id = ?2 AND environment = ?3",
        )?
        .query_row(params![original.id, tenant.company_id, tenant.env()], |r| r.get(0))?;
    if payments > 0 {
        return Err(Error::refused(format!(
            "{number} has {payments} payment(s) recorded; an invoice with payments cannot be cancelled in full."
        )));
    }
    if on < original.issued_on {
        return Err(Error::refused(format!(
            "A cancellation dated {on} cannot precede {number}, issued {}.",
            original.issued_on
        )));
    }
    ledger::check_open(tx, tenant, on)?;
    let (net_book, tax_book, gross_book) = book_figures(&original, &company)?;
    let year = on.year();
    let series = jurisdiction::series(&company.country, DocumentKind::Correction, year);
    let seq = numbering::take(tx, tenant, &series, 1)?;
    let correction_number = jurisdiction::document_number(
        &company.country,
        &company.invoice_prefix,
        DocumentKind::Correction,
        year,
        seq,
    );
    let correction_id = ids::new_id("inv");
    tx.prepare_cached(
        "INSERT INTO invoices (id, company_id, environment, document_type, number, customer_id, buyer_name,
             buyer_street, buyer_postal_code, buyer_city, buyer_country, buyer_vat_id, currency, rate, issued_on, due_on,
             delivered_on, net, tax, gross, gross_book, outstanding, outstanding_book, payment_sentence, corrects_id,
             cancel_reason, recorded_at)
         SELECT ?1, company_id, environment, 'CORRECTION', ?2, customer_id, buyer_name, buyer_street,
             buyer_postal_code, buyer_city, buyer_country, buyer_vat_id, currency, rate, ?3, ?3, delivered_on,
             -net, -tax, -gross, -gross_book, 0, 0, '', id, ?4, ?5
         FROM invoices WHERE id = ?6",
    )?
    .execute(params![correction_id, correction_number, on.to_string(), reason, clock::now(), original.id])?;
    tx.prepare_cached(
        "INSERT INTO invoice_lines (invoice_id, description, quantity, unit_price, net)
         SELECT ?1, description, CASE WHEN quantity LIKE '-%' THEN substr(quantity, 2) ELSE '-' || quantity END,
             unit_price, -net
         FROM invoice_lines WHERE invoice_id = ?2 ORDER BY seq",
    )?
    .execute(params![correction_id, original.id])?;
    tx.prepare_cached(
        "INSERT INTO invoice_taxes (invoice_id, name, rate, reason, base, amount)
         SELECT ?1, name, rate, reason, -base, -amount FROM invoice_taxes WHERE invoice_id = ?2 ORDER BY seq",
    )?
    .execute(params![correction_id, original.id])?;
    tx.prepare_cached(
        "UPDATE invoices SET cancelled_by_id = ?2, cancel_reason = ?3, outstanding = 0, outstanding_book = 0
         WHERE id = ?1 AND company_id = ?4 AND environment = ?5",
    )?
    .execute(params![original.id, correction_id, reason, tenant.company_id, tenant.env()])?;
    ledger::post(
        tx,
        tenant,
        &correction_id,
        on,
        &[
            Posting::debit(Account::Revenue, net_book),
            Posting::debit(Account::OutputTax, tax_book),
            Posting::credit(Account::Receivables, gross_book),
        ],
    )?;
    report::change(
        tx,
        tenant,
        Side::Receivable,
        on,
        original.due_on,
        -original.outstanding_book,
        -1,
    )?;
    add_tally(tx, tenant, "all", 1)?;
    add_tally(tx, tenant, "open", -1)?;
    let cancelled = stored_by_id(tx, tenant, &original.id)?;
    let mut f = cancelled.event_fields(company.today());
    f.insert("cancelledByInvoiceId", correction_id.clone());
    f.insert("cancelledByNumber", correction_number);
    f.insert("reason", reason.to_string());
    events::raise(tx, tenant, "invoice.cancelled", &original.id, f)?;
    Ok((original.id, correction_id))
}

/// GET /v1/invoices
pub fn http_list(call: &Call) -> Result<Reply> {
    let paging = call.query.paging()?;
    let open = match call.query.get("status") {
        Some("OPEN") => Some(true),
        Some("PAID") => Some(false),
        _ => None,
    };
    let from = call
        .query
        .get("from")
        .map(|d| clock::parse_date("from", d))
        .transpose()?;
    let to = call
        .query
        .get("to")
        .map(|d| clock::parse_date("to", d))
        .transpose()?;
    let tenant = call.tenant();
    let page = call.read(|conn| {
        let today = company::get(conn, &tenant.company_id)?.today();
        list(conn, tenant, Filter { open, from, to }, paging, today)
    })?;
    Ok(Reply::ok(&page))
}

/// GET /v1/invoices/{number}; the router has percent-decoded the segment, so
/// a number with `/` arrives whole (`RE%2F2026%2F7` → `RE/2026/7`).
pub fn http_get(call: &Call, number: &str) -> Result<Reply> {
    let tenant = call.tenant();
    let view = call.read(|conn| {
        let today = company::get(conn, &tenant.company_id)?.today();
        get(conn, tenant, number, today)
    })?;
    Ok(Reply::ok(&view))
}
