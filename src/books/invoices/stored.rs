//! An issued document (an invoice or its correction) as stored: its row,
//! its type, its payment state against a day, the fields its events carry,
//! its figures in the book currency, and the reads by id and by number
//! (bound to a `Tenant`). The list and the wire form (`invoices`), the acts
//! and the documents all read it from here.

use jiff::civil::Date;
use rusqlite::{params, Connection, OptionalExtension};

use crate::books::company::Company;
use crate::books::document_kinds::DocumentType;
use crate::books::ledger;
use crate::error::said::Record;
use crate::error::{Error, Result, Said};
use crate::outbox::events::Fields;
use crate::rules::iso::Currency;
use crate::rules::jurisdiction;
use crate::rules::money::{self, Decimal};
use crate::store::row::Row;
use crate::store::tenant::Tenant;
use crate::stored_enum;

stored_enum! {
    /// Where an issued document stands, as of a day.
    pub enum PaymentState {
        Open = "OPEN",
        Overdue = "OVERDUE",
        Paid = "PAID",
        Cancelled = "CANCELLED",
        Correction = "CORRECTION",
    }
}

/// An issued document as stored.
#[derive(Debug, Clone)]
pub(crate) struct Stored {
    pub id: String,
    pub document_type: DocumentType,
    pub number: String,
    pub customer_id: String,
    pub buyer: String,
    pub currency: Currency,
    pub rate: Decimal,
    pub issued_on: Date,
    pub due_on: Date,
    pub delivered_on: Date,
    pub net: i64,
    pub tax: i64,
    pub gross: i64,
    pub gross_book: i64,
    pub outstanding: i64,
    pub outstanding_book: i64,
    pub paid_on: Option<Date>,
    pub payment_sentence: String,
    pub corrects_id: Option<String>,
    pub cancelled_by_id: Option<String>,
    pub recorded_at: String,
}

pub(super) const COLUMNS: &str = "id, document_type, number, customer_id, buyer_name, currency, rate, issued_on, due_on,
     delivered_on, net, tax, gross, gross_book, outstanding, outstanding_book, paid_on, payment_sentence,
     corrects_id, cancelled_by_id, recorded_at";

pub(super) fn from_row(row: &rusqlite::Row) -> rusqlite::Result<Stored> {
    let r = Row::new(row, "invoices");
    Ok(Stored {
        id: r.get(0)?,
        document_type: r.get(1)?,
        number: r.get(2)?,
        customer_id: r.get(3)?,
        buyer: r.get(4)?,
        currency: r.get(5)?,
        rate: r.get(6)?,
        issued_on: r.get(7)?,
        due_on: r.get(8)?,
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

impl Stored {
    /// The payment state against `today`, and whether the document is overdue.
    pub fn state(&self, today: Date) -> (PaymentState, bool) {
        if self.document_type == DocumentType::Correction {
            (PaymentState::Correction, false)
        } else if self.cancelled_by_id.is_some() {
            (PaymentState::Cancelled, false)
        } else if self.outstanding == 0 {
            (PaymentState::Paid, false)
        } else if self.due_on < today {
            (PaymentState::Overdue, true)
        } else {
            (PaymentState::Open, false)
        }
    }

    /// The event fields every invoice event carries, as the document stands now.
    pub(crate) fn event_fields(&self, today: Date) -> Fields {
        let (state, _) = self.state(today);
        let mut f = Fields::new();
        f.insert("amountDueMinor", self.outstanding.to_string());
        f.insert("buyerName", self.buyer.clone());
        f.insert("currency", self.currency.to_string());
        f.insert("documentType", self.document_type.as_str().to_string());
        f.insert("dueDate", self.due_on.to_string());
        f.insert("grossMinor", self.gross.to_string());
        f.insert("invoiceId", self.id.clone());
        f.insert("issueDate", self.issued_on.to_string());
        f.insert("netMinor", self.net.to_string());
        f.insert("number", self.number.clone());
        f.insert("paymentState", state.as_str().to_string());
        f.insert("taxMinor", self.tax.to_string());
        f
    }

    /// The book-currency split of the document's figures: (net, tax, gross).
    ///
    /// Fails with `Refused` when a converted amount is too large to book.
    pub(crate) fn book_figures(&self, company: &Company) -> Result<(i64, i64, i64)> {
        let tax_book = money::convert(
            self.tax,
            self.rate,
            self.currency.exponent(),
            company.currency.exponent(),
        )?;
        Ok((self.gross_book - tax_book, tax_book, self.gross_book))
    }
}

/// The ledger's tax key of one of a document's taxes: its VAT category (a
/// tax without one, as documents issued before categories were recorded:
/// `S` when it charges, `O` when not), its rate, and whether the buyer is a
/// business in another member state.
pub(crate) fn tax_key(category: Option<&str>, rate: &Decimal, abroad: bool) -> String {
    let category = category.unwrap_or(if rate.is_zero() { "O" } else { "S" });
    ledger::tax_key(category, rate, abroad)
}

/// Whether a document for a buyer in `buyer_country` goes to another member
/// state than the seller's `seller_country`.
pub(crate) fn abroad(seller_country: &str, buyer_country: &str) -> bool {
    buyer_country != seller_country && jurisdiction::in_eu(buyer_country)
}

/// The revenue and output tax of a stored document per tax key in the book
/// currency, as its issue posted them: (tax key, base, tax).
///
/// Fails with `Refused` when a converted amount is too large to book, and
/// on a storage error.
pub(crate) fn book_figures_by_key(
    conn: &Connection,
    company: &Company,
    doc: &Stored,
) -> Result<Vec<(String, i64, i64)>> {
    let buyer_country: String = conn
        .prepare_cached("SELECT buyer_country FROM invoices WHERE id = ?1")?
        .query_row([&doc.id], |r| r.get(0))?;
    let abroad = abroad(company.country.as_str(), &buyer_country);
    let mut stmt = conn.prepare_cached(
        "SELECT vat_category, rate, base, amount FROM invoice_taxes WHERE invoice_id = ?1 ORDER BY seq",
    )?;
    let parts = stmt
        .query_map([&doc.id], |row| {
            let r = Row::new(row, "invoice_taxes");
            let category: Option<String> = r.get(0)?;
            let rate: Decimal = r.get(1)?;
            Ok((
                tax_key(category.as_deref(), &rate, abroad),
                r.get(2)?,
                r.get(3)?,
            ))
        })?
        .collect::<rusqlite::Result<Vec<(String, i64, i64)>>>()?;
    let (net_book, tax_book, _) = doc.book_figures(company)?;
    ledger::split_by_key(
        &parts,
        doc.rate,
        doc.currency.exponent(),
        company.currency.exponent(),
        net_book,
        tax_book,
    )
}

/// A stored document of the tenant by id.
///
/// Fails with `NotFound` when the tenant has none with this id.
pub(crate) fn stored_by_id(conn: &Connection, tenant: &Tenant, id: &str) -> Result<Stored> {
    conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM invoices WHERE id = ?1 AND company_id = ?2 AND environment = ?3"
    ))?
    .query_row(params![id, tenant.company_id, tenant.environment], from_row)
    .optional()?
    .ok_or_else(|| Error::not_found(Said::Record(Record::Invoice, id.to_string())))
}

/// A stored document of the tenant by number.
///
/// Fails with `NotFound` when the tenant has none with this number.
pub(crate) fn stored_by_number(conn: &Connection, tenant: &Tenant, number: &str) -> Result<Stored> {
    conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM invoices WHERE number = ?1 AND company_id = ?2 AND environment = ?3"
    ))?
    .query_row(
        params![number, tenant.company_id, tenant.environment],
        from_row,
    )
    .optional()?
    .ok_or_else(|| Error::not_found(Said::Record(Record::Invoice, number.to_string())))
}
