//! Issued documents (invoices and their corrections) and the acts that make
//! and move them. The bytes of a document are written by `documents`, never
//! here. Every query is bound to a `Tenant`.
//!
//! Here, the read model: the wire form with the payment state computed
//! against the company's today, the list and its filter, the tallies the
//! list's totals come from (`count`), `history`. Payments against them are
//! `books::settlement`'s.
//!
//! - `stored.rs`: a document as stored: its row, type and payment state, the
//!   fields its events carry, its figures in the book currency (per tax key
//!   too: `tax_key`, `abroad`, `book_figures_by_key`), and the reads by id
//!   and number (`stored_by_id`, `stored_by_number`); everything else here
//!   reads it.
//! - `vat_check.rs`: the VAT register at issue: asked before the issue's
//!   transaction (`ask`), its answer refusing the issue or kept with the
//!   invoice (`keep`), and shown (`of_invoice`).
//! - `issue.rs`: `issue`: a draft becomes an invoice, in two steps in the
//!   caller's transaction: `check` (the verdict, writing nothing) and
//!   `write` (the number, the frozen rows, the documents, the ledger entry
//!   per tax key, the open item, the tally, the event, the register's
//!   answer, the audit).
//! - `cancel.rs`: `cancel`: a full correction with the next number of its
//!   series, its entry the issue's reversed per tax key; `next_number` peeks
//!   at it for the confirmation.
//! - `documents.rs`: an invoice's documents: the model built from the frozen
//!   rows and the particulars (`assemble`), the verdict, writing and storing
//!   them with their SHA-256 (`write`), serving them (`get`), and a
//!   reminder's model (`letter_model`).
//! - `preview.rs`: a draft's preview (`draft_preview`): the draft as its
//!   invoice would read if issued today, through the same model, marked as a
//!   draft, written as a PDF, never stored.

pub mod cancel;
pub mod documents;
pub mod issue;
pub mod preview;
mod stored;
pub mod vat_check;

pub use stored::PaymentState;
pub(crate) use stored::{abroad, book_figures_by_key, tax_key};
pub(crate) use stored::{stored_by_id, stored_by_number, Stored};

use crate::books::document_kinds::DocumentType;

use jiff::civil::Date;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::books::audit::{self, Act};
use crate::books::company;
use crate::error::{Result, Violations};
use crate::rules::iso::Currency;
use crate::rules::money::{Decimal, Money};
use crate::rules::text;
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::paging::{Page, Paging, PAGE_LIMIT_SQL};
use crate::store::row::Row;
use crate::store::tenant::Tenant;
use crate::stored_enum;

use stored::{from_row, COLUMNS};

stored_enum! {
    /// The counts the list's totals come from, kept by the acts.
    enum Tally {
        All = "all",
        Open = "open",
        Paid = "paid",
    }
}

/// One line of an issued document.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LineView {
    pub description: String,
    pub quantity: Decimal,
    pub unit_price: Money,
    pub net: Money,
}

/// One tax total of an issued document.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TaxView {
    pub name: String,
    pub rate: Decimal,
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
    pub document_type: DocumentType,
    pub customer_id: String,
    pub buyer: String,
    pub currency: Currency,
    pub issued_on: Date,
    pub due_on: Date,
    pub delivered_on: Date,
    pub net: Money,
    pub tax: Money,
    pub gross: Money,
    pub outstanding: Money,
    pub payment_state: PaymentState,
    pub overdue: bool,
    pub cancelled: bool,
    pub credit_note: bool,
    pub paid_on: Option<Date>,
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
    /// Shown for one document, not in lists.
    #[serde(flatten)]
    pub detail: Option<Detail>,
}

/// What one document shows besides its figures: the buyer as frozen at
/// issue, the formats of its stored documents, and the reason of a
/// cancellation.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Detail {
    pub buyer_address: BuyerAddress,
    pub buyer_vat_id: Option<String>,
    /// The formats of its stored documents (`facturx`, `cii`, `xrechnung`,
    /// `peppol`).
    pub documents: Vec<&'static str>,
    /// Why it lacks documents, when it does.
    pub documents_note: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cancel_reason: Option<String>,
}

/// The buyer's address as frozen at issue.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BuyerAddress {
    pub street: String,
    pub postal_code: String,
    pub city: String,
    pub country: String,
}

/// The wire form of a stored document.
impl Stored {
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
                    .query_row(params![id, tenant.company_id, tenant.environment], |r| r.get(0))
                    .optional()?),
            }
        };
        let (lines, taxes, detail) = if detail {
            (
                Some(lines_of(conn, &self.id, &self.currency)?),
                Some(taxes_of(conn, &self.id, &self.currency)?),
                Some(self.detail(conn, tenant)?),
            )
        } else {
            (None, None, None)
        };
        Ok(InvoiceView {
            id: self.id.clone(),
            number: self.number.clone(),
            document_type: self.document_type,
            customer_id: self.customer_id.clone(),
            buyer: self.buyer.clone(),
            currency: self.currency.clone(),
            issued_on: self.issued_on,
            due_on: self.due_on,
            delivered_on: self.delivered_on,
            net: money(self.net),
            tax: money(self.tax),
            gross: money(self.gross),
            outstanding: money(self.outstanding),
            payment_state,
            overdue,
            cancelled: self.cancelled_by_id.is_some(),
            credit_note: self.document_type == DocumentType::Correction,
            paid_on: self.paid_on,
            payment_sentence: Some(self.payment_sentence.clone()).filter(|s| !s.is_empty()),
            cancelled_by: number_of(&self.cancelled_by_id)?,
            corrects: number_of(&self.corrects_id)?,
            recorded_at: self.recorded_at.clone(),
            lines,
            taxes,
            detail,
        })
    }

    fn detail(&self, conn: &Connection, tenant: &Tenant) -> Result<Detail> {
        let (formats, documents_note) = documents::formats(conn, tenant, &self.id)?;
        let (buyer_address, buyer_vat_id, cancel_reason) = conn
            .prepare_cached(
                "SELECT buyer_street, buyer_postal_code, buyer_city, buyer_country, buyer_vat_id, cancel_reason
                 FROM invoices WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
            )?
            .query_row(params![self.id, tenant.company_id, tenant.environment], |row| {
                let r = Row::new(row, "invoices");
                Ok((
                    BuyerAddress {
                        street: r.get(0)?,
                        postal_code: r.get(1)?,
                        city: r.get(2)?,
                        country: r.get(3)?,
                    },
                    r.get(4)?,
                    r.get(5)?,
                ))
            })?;
        Ok(Detail {
            buyer_address,
            buyer_vat_id,
            documents: formats.iter().map(|f| f.as_str()).collect(),
            documents_note,
            cancel_reason,
        })
    }
}

fn lines_of(conn: &Connection, invoice_id: &str, currency: &Currency) -> Result<Vec<LineView>> {
    let mut stmt = conn.prepare_cached(
        "SELECT invoice_id, description, quantity, unit_price, net FROM invoice_lines WHERE invoice_id = ?1 ORDER BY seq",
    )?;
    let rows = stmt.query_map([invoice_id], |row| {
        let r = Row::new(row, "invoice_lines");
        Ok(LineView {
            description: r.get(1)?,
            quantity: r.get(2)?,
            unit_price: Money::new(r.get(3)?, currency),
            net: Money::new(r.get(4)?, currency),
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

fn taxes_of(conn: &Connection, invoice_id: &str, currency: &Currency) -> Result<Vec<TaxView>> {
    let mut stmt = conn.prepare_cached(
        "SELECT invoice_id, name, rate, reason, base, amount FROM invoice_taxes WHERE invoice_id = ?1 ORDER BY seq",
    )?;
    let rows = stmt.query_map([invoice_id], |row| {
        let r = Row::new(row, "invoice_taxes");
        Ok(TaxView {
            name: r.get(1)?,
            rate: r.get(2)?,
            reason: r.get(3)?,
            base: Money::new(r.get(4)?, currency),
            amount: Money::new(r.get(5)?, currency),
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// One document of the tenant by its number, in its full wire form (with
/// lines and taxes), its state as of today in the company's time zone.
///
/// Fails with `NotFound` when the tenant has none with this number.
pub fn get(conn: &Connection, tenant: &Tenant, number: &str) -> Result<InvoiceView> {
    let today = company::get(conn, &tenant.company_id)?.today();
    stored_by_number(conn, tenant, number)?.view(conn, tenant, today, true)
}

/// One document of the tenant by id in its full wire form.
///
/// Fails with `NotFound` when the tenant has none with this id.
pub fn get_by_id(conn: &Connection, tenant: &Tenant, id: &str) -> Result<InvoiceView> {
    let today = company::get(conn, &tenant.company_id)?.today();
    stored_by_id(conn, tenant, id)?.view(conn, tenant, today, true)
}

/// The history of the document `number`: who did what to it, and to the
/// draft it was issued from, oldest first.
///
/// Fails with `NotFound` when the tenant has no document with this number.
pub fn history(conn: &Connection, tenant: &Tenant, number: &str) -> Result<Vec<audit::Entry>> {
    let stored = stored_by_number(conn, tenant, number)?;
    let draft: Option<String> = conn
        .prepare_cached(
            "SELECT draft_id FROM invoices WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
        )?
        .query_row(
            params![stored.id, tenant.company_id, tenant.environment],
            |r| r.get(0),
        )?;
    let mut subjects = vec![stored.id.as_str()];
    subjects.extend(draft.as_deref());
    // The draft's issue is the invoice's `invoice.issued`: said once.
    let mut entries = audit::history_of(conn, tenant, &subjects)?;
    entries.retain(|e| e.act != Act::DraftIssued);
    Ok(entries)
}

/// Which documents a list shows by what they owe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Something outstanding (overdue ones included).
    Open,
    /// Fully paid.
    Paid,
}

impl Status {
    /// The status a list parameter names: `OPEN` or `PAID`; anything else names none.
    pub fn named(text: &str) -> Option<Status> {
        match text {
            "OPEN" => Some(Status::Open),
            "PAID" => Some(Status::Paid),
            _ => None,
        }
    }
}

/// The longest search text of the list.
pub const MAX_SEARCH: usize = 200;

/// The filters of an invoice list as a caller gives them.
#[derive(Debug, Default, Clone)]
pub struct FilterInput {
    pub status: Option<Status>,
    /// Inclusive issue dates, `YYYY-MM-DD`.
    pub from: Option<String>,
    pub to: Option<String>,
    /// Part of the number or of the buyer's name (blank: no search).
    pub search: Option<String>,
}

/// The checked filters of the invoice list.
#[derive(Debug, Default, Clone)]
pub struct Filter {
    status: Option<Status>,
    from: Option<Date>,
    to: Option<Date>,
    /// A LIKE pattern matching the text anywhere.
    search: Option<String>,
}

/// Escapes `%`, `_` and `\` for a LIKE pattern with `ESCAPE '\'` that
/// matches the text anywhere.
fn anywhere_pattern(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('%');
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('%');
    out
}

impl Filter {
    /// Checks the filters: dates `YYYY-MM-DD`; a search of at most 200
    /// characters, none of them a control character, trimmed (blank is none).
    ///
    /// Fails with `Invalid` naming `from` or `to` when it is not a date, or
    /// `search` when it is too long or holds a control character.
    pub fn check(input: FilterInput) -> Result<Filter> {
        let mut v = Violations::new();
        let mut date = |field: &str, text: Option<String>| -> Result<Option<Date>> {
            // Only an empty value means no filter; white space is no date.
            match text.filter(|t| !t.is_empty()) {
                None => Ok(None),
                Some(t) => Ok(v.take(clock::parse_date(field, &t))?),
            }
        };
        let from = date("from", input.from)?;
        let to = date("to", input.to)?;
        let search = input.search.filter(|s| !s.trim().is_empty());
        let search = v
            .take(text::optional("search", search.as_deref(), MAX_SEARCH))?
            .flatten()
            .map(|s| anywhere_pattern(s.trim()));
        v.finish()?;
        Ok(Filter {
            status: input.status,
            from,
            to,
            search,
        })
    }
}

fn tally(conn: &Connection, tenant: &Tenant, which: Tally) -> Result<i64> {
    Ok(conn
        .prepare_cached("SELECT value FROM invoice_tallies WHERE company_id = ?1 AND environment = ?2 AND tally = ?3")?
        .query_row(params![tenant.company_id, tenant.environment, which], |r| r.get(0))
        .optional()?
        .unwrap_or(0))
}

/// The tallies a document's move changes: (tally, by how much).
pub(crate) enum Move {
    /// A new open document (an invoice issued).
    Issued,
    /// A new document that owes nothing (a correction), closing one that was open.
    Corrected,
    /// An open document paid in full.
    Paid,
    /// A paid document open again (a payment from a bank line undone).
    Reopened,
}

/// Moves the tallies the list's totals come from (in the act's transaction).
///
/// Fails only on a storage error.
pub(crate) fn count(tx: &Tx, tenant: &Tenant, what: Move) -> Result<()> {
    let changes: &[(Tally, i64)] = match what {
        Move::Issued => &[(Tally::All, 1), (Tally::Open, 1)],
        Move::Corrected => &[(Tally::All, 1), (Tally::Open, -1)],
        Move::Paid => &[(Tally::Open, -1), (Tally::Paid, 1)],
        Move::Reopened => &[(Tally::Open, 1), (Tally::Paid, -1)],
    };
    for (which, delta) in changes {
        tx.add_up(
            "INSERT INTO invoice_tallies (company_id, environment, tally, value) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (company_id, environment, tally) DO UPDATE SET value = value + excluded.value",
            [&tenant.company_id, tenant.environment.as_str(), which.as_str()],
            [*delta],
        )?;
    }
    Ok(())
}

/// A page of the tenant's documents, newest first (issue date, then the
/// order of issue), their states as of today in the company's time zone;
/// a search matches part of the number or of the buyer's name (ASCII
/// letters in any case).
///
/// Fails only on a storage error.
pub fn list(
    conn: &Connection,
    tenant: &Tenant,
    filter: Filter,
    paging: Paging,
) -> Result<Page<InvoiceView>> {
    let today = company::get(conn, &tenant.company_id)?.today();
    let state = match filter.status {
        None => "",
        Some(Status::Open) => "AND outstanding <> 0",
        Some(Status::Paid) => "AND paid_on IS NOT NULL",
    };
    let range = "AND (?3 IS NULL OR issued_on >= ?3) AND (?4 IS NULL OR issued_on <= ?4)";
    let search = "AND (?5 IS NULL OR number LIKE ?5 ESCAPE '\\' OR buyer_name LIKE ?5 ESCAPE '\\')";
    let where_ = format!("company_id = ?1 AND environment = ?2 {state} {range} {search}");
    let total = if filter.from.is_none() && filter.to.is_none() && filter.search.is_none() {
        tally(
            conn,
            tenant,
            match filter.status {
                None => Tally::All,
                Some(Status::Open) => Tally::Open,
                Some(Status::Paid) => Tally::Paid,
            },
        )?
    } else {
        conn.prepare_cached(&format!("SELECT count(*) FROM invoices WHERE {where_}"))?
            .query_row(
                params![
                    tenant.company_id,
                    tenant.environment,
                    filter.from,
                    filter.to,
                    filter.search
                ],
                |r| r.get(0),
            )?
    };
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM invoices WHERE {where_} ORDER BY issued_on DESC, seq DESC {PAGE_LIMIT_SQL} OFFSET ?6"
    ))?;
    let stored = stmt
        .query_map(
            params![
                tenant.company_id,
                tenant.environment,
                filter.from,
                filter.to,
                filter.search,
                paging.offset()
            ],
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
