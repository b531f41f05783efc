//! A purchase entered in the books: its row, its lines and amounts per tax
//! key, its ledger entry (per key expenses on their chart accounts + input
//! tax, a reverse charge's VAT as input and output tax / payables of the
//! supplier, dated by the posting date), its open payable and
//! `purchase.recorded`. The one way a purchase enters the books, typed
//! (`purchases::record`) or received (`books::received`).

use jiff::civil::Date;
use rusqlite::params;

use crate::books::document_kinds::PurchaseKind;
use crate::books::ledger::{self, Account, Posting};
use crate::books::report::open_items::{self, Side, NEVER_DUE};
use crate::books::vat_due;
use crate::error::Result;
use crate::outbox::events::{self, EventKind as Event, Fields};
use crate::rules::cash_vat;
use crate::rules::iso::Currency;
use crate::rules::money::Decimal;
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::tenant::Tenant;

/// One tax key of a purchase: its base and VAT as the document states them
/// and in the book currency, signed as the purchase is (a credit negative),
/// and the VAT a reverse charge received self-assesses (input and output
/// tax alike, in the book currency).
#[derive(Debug, Clone)]
pub(crate) struct Part {
    /// `S:19`, `AE:19:EU`, …; '' for a bill typed as two totals.
    pub key: String,
    /// The key's lines as their documents give them: (account, net).
    pub lines: Vec<(String, i64)>,
    /// `base_book` on the chart's accounts: (account, amount); the
    /// entertainment's 30 % on its own.
    pub costs: Vec<(String, i64)>,
    pub vat: Option<(String, Decimal)>,
    pub base: i64,
    pub amount: i64,
    pub base_book: i64,
    pub amount_book: i64,
    pub reverse_book: i64,
}

/// One line of a received bill, as its document states it.
#[derive(Debug, Clone)]
pub(crate) struct EntryLine {
    pub line_id: String,
    pub description: String,
    pub quantity: Decimal,
    pub unit: String,
    pub unit_price: Decimal,
    pub net: i64,
    pub category: String,
    pub rate: Decimal,
    /// The chart's account its cost went to.
    pub account: String,
}

/// A purchase ready to be entered in the books: its figures signed as
/// booked (a credit negative), per tax key, with its lines.
pub(crate) struct Entry<'a> {
    pub id: &'a str,
    pub supplier_id: &'a str,
    pub supplier_name: &'a str,
    pub kind: PurchaseKind,
    pub number: &'a str,
    pub date: Date,
    /// The day it is booked: its entry's date and its payable's.
    pub posted: Date,
    pub due: Date,
    pub currency: &'a Currency,
    pub rate: Decimal,
    pub net: i64,
    pub tax: i64,
    pub gross_book: i64,
    pub parts: Vec<Part>,
    pub lines: Vec<EntryLine>,
    pub payment_reference: Option<&'a str>,
    pub payee_iban: Option<&'a str>,
    /// The cash discount granted: the last day to take it, its percent.
    pub discount: Option<(Date, Decimal)>,
    /// Whether the supplier taxes on payments received, and whether the
    /// bill is a down payment: either way its input tax may wait.
    pub supplier_cash_basis: bool,
    pub down_payment: bool,
}

impl Entry<'_> {
    /// Whether the input tax is deductible only as the bill is paid: a
    /// down payment's (§ 15 (1) sentence 1 no. 1 sentence 3 UStG), and from
    /// 2028 that of a supplier taxed on payments received (`rules::cash_vat`).
    pub(crate) fn tax_waits(&self) -> bool {
        self.down_payment
            || (self.supplier_cash_basis && cash_vat::supplier_basis_applies(self.date))
    }
}

impl Entry<'_> {
    /// The body of `purchase.recorded` for this purchase, as the purchase
    /// itself states it (an issued invoice builds its own likewise).
    pub(crate) fn recorded(&self) -> Fields {
        let mut f = Fields::new();
        f.insert("currency", self.currency.to_string());
        f.insert("documentDate", self.date.to_string());
        f.insert("documentNumber", self.number.to_string());
        f.insert("dueDate", self.due.to_string());
        f.insert("grossMinor", (self.net + self.tax).to_string());
        f.insert("kind", self.kind.as_str().to_string());
        f.insert("netMinor", self.net.to_string());
        f.insert("purchaseId", self.id.to_string());
        f.insert("supplierId", self.supplier_id.to_string());
        f.insert("supplierName", self.supplier_name.to_string());
        f.insert("taxMinor", self.tax.to_string());
        f
    }
}

/// Enters a purchase: its row, its lines and amounts per tax key, the
/// ledger entry (per key expenses + input tax, a reverse charge's VAT as
/// input and output tax / payables of the supplier), the open payable
/// (a credit is never due) and `purchase.recorded`. Part of an act: typed
/// (`record`) or received (`books::received`).
///
/// Fails with `Internal` when the parts do not add up to the total, and on
/// a storage error.
pub(crate) fn enter(tx: &Tx, tenant: &Tenant, e: &Entry) -> Result<()> {
    let gross = e.net + e.tax;
    tx.prepare_cached(
        "INSERT INTO purchases (id, company_id, environment, supplier_id, kind, document_number, document_date, due_on,
             currency, rate, net, tax, gross, gross_book, outstanding, outstanding_book, recorded_at,
             payment_reference, payee_iban, posted_on, discount_until, discount_percent,
             supplier_cash_basis, down_payment)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?13, ?14, ?15, ?16, ?17, ?18,
             ?19, ?20, ?21, ?22)",
    )?
    .execute(params![
        e.id,
        tenant.company_id,
        tenant.environment,
        e.supplier_id,
        e.kind,
        e.number,
        e.date,
        e.due,
        e.currency,
        e.rate,
        e.net,
        e.tax,
        gross,
        e.gross_book,
        clock::now(),
        e.payment_reference,
        e.payee_iban,
        e.posted,
        e.discount.map(|d| d.0),
        e.discount.map(|d| d.1.to_string()),
        e.supplier_cash_basis,
        e.down_payment
    ])?;
    let waits = e.tax_waits();
    let mut postings = Vec::with_capacity(e.parts.len() * 3 + 1);
    for (n, part) in e.parts.iter().enumerate() {
        tx.prepare_cached(
            "INSERT INTO purchase_taxes (purchase_id, seq, tax_key, vat_category, vat_rate, base, amount,
                 base_book, amount_book, reverse_book)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        )?
        .execute(params![
            e.id,
            n as i64,
            part.key,
            part.vat.as_ref().map(|v| v.0.clone()),
            part.vat.as_ref().map(|v| v.1),
            part.base,
            part.amount,
            part.base_book,
            part.amount_book,
            part.reverse_book
        ])?;
        if part.costs.is_empty() {
            postings.push(Posting::debit(Account::Expenses, part.base_book).of(&part.key));
        }
        for (account, amount) in &part.costs {
            postings.push(
                Posting::debit(Account::Expenses, *amount)
                    .of(&part.key)
                    .on(account),
            );
        }
        postings.push(vat_due::bill_tax(
            tx,
            tenant,
            e.id,
            e.posted,
            waits,
            &part.key,
            part.base_book,
            part.amount_book + part.reverse_book,
            part.reverse_book,
        )?);
        if part.reverse_book != 0 {
            postings.push(Posting::credit(Account::OutputTax, part.reverse_book).of(&part.key));
        }
    }
    postings.push(Posting::credit(Account::Payables, e.gross_book).of(e.supplier_id));
    for (n, line) in e.lines.iter().enumerate() {
        tx.prepare_cached(
            "INSERT INTO purchase_lines (purchase_id, seq, line_id, description, quantity, unit, unit_price,
                 net, vat_category, vat_rate, account)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        )?
        .execute(params![
            e.id,
            n as i64,
            line.line_id,
            line.description,
            line.quantity.to_string(),
            line.unit,
            line.unit_price.to_string(),
            line.net,
            line.category,
            line.rate,
            line.account
        ])?;
    }
    ledger::post(tx, tenant, e.id, e.posted, &postings)?;
    // A supplier's credit lowers the payables but is never due and is not an
    // open document of its own.
    let (due, documents) = match e.kind {
        PurchaseKind::Bill => (e.due, 1),
        PurchaseKind::Credit => (NEVER_DUE, 0),
    };
    open_items::change(
        tx,
        tenant,
        Side::Payable,
        e.posted,
        due,
        e.gross_book,
        documents,
    )?;
    events::raise(tx, tenant, Event::PurchaseRecorded, e.id, e.recorded())?;
    Ok(())
}
