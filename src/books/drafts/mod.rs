//! Drafts of invoices and quotes and their lines: checked input, creation
//! (empty, as the API makes them, or whole with lines, as an agent does), and
//! the draft's wire form, whose number, dates and payment sentence are
//! suggestions computed now from the seller's country and the customer's
//! agreed terms; they become final only when the draft is issued
//! (`invoices::issue`, which reads the draft through here: issuing is not
//! this folder's). A draft also carries what its invoice will say of the
//! buyer's order (`References`: a buyer reference of its own or else the
//! customer's, an order reference, a delivery period), set by a person while
//! it is a draft. While it is a draft its lines can be added, changed and
//! removed, and its figures (`figures`, the list's totals) are computed as
//! issuing it now would freeze them. Every query is bound to a `Tenant`.
//!
//! Here: the draft's wire form (`DraftView`, `get`) with the suggested
//! number, dates and payment sentence, `due_date`, the list (`list`,
//! `DraftSummary`), and the re-exports of the files, so other modules name
//! `books::drafts::X`.
//!
//! - `stored.rs`: a draft as stored: its kind, state (`DraftState`) and
//!   period; a tenant's draft by id, an open one (`open`), and
//!   `mark_issued`.
//! - `lines.rs`: a line as given and checked (`NewDraftLine::check`), as
//!   shown (`DraftLine`), read in order (`lines`), and the acts `add_line`,
//!   `change_line`, `remove_line`.
//! - `references.rs`: what its invoice will say of the buyer's order, read as
//!   they apply or as set, and `set_references`.
//! - `figures.rs`: each line's one VAT (`line_vat`), the lines as the totals
//!   take them (`money_lines`), and `figures`, what issuing now would freeze.
//! - `create.rs`: a new draft, empty or whole with its lines (`NewDraft`,
//!   `create`), in the customer's currency, else the company's.

mod create;
mod figures;
mod lines;
mod references;
mod stored;

pub use create::{create, DraftInput, NewDraft};
pub use figures::{figures, Figures, LineVat};
pub(crate) use figures::{line_vat, money_lines};
pub(crate) use lines::lines;
pub use lines::{
    add_line, change_line, remove_line, DraftLine, DraftLineInput, NewDraftLine, TaxInput,
    MAX_LINES, SMALL_BUSINESS_REASON,
};
pub use references::{
    own_references, references, set_references, References, ReferencesChange, ReferencesInput,
};
pub(crate) use stored::{mark_issued, open, Stored};
pub use stored::{DraftKind, DraftState, Period};

use jiff::civil::Date;
use jiff::ToSpan;
use rusqlite::{params, Connection};
use serde::Serialize;

use crate::books::company::{self, Company};
use crate::books::customers;
use crate::books::numbering;
use crate::error::{Error, Result};
use crate::rules::iso::Currency;
use crate::rules::jurisdiction::{self, DocumentKind};
use crate::store::paging::{Page, Paging, PAGE_LIMIT_SQL};
use crate::store::row::Row;
use crate::store::tenant::Tenant;

use figures::figures_of;
use stored::stored;

/// A draft in its wire form.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DraftView {
    pub id: String,
    pub number: String,
    pub document_type: DraftKind,
    pub customer_id: String,
    pub customer: String,
    pub currency: Currency,
    pub issued_on: Date,
    pub due_on: Date,
    pub payment_sentence: String,
    pub state: DraftState,
    pub lines: Vec<DraftLine>,
    pub created_at: String,
    /// The buyer reference its invoice will carry (BT-10): the draft's own,
    /// else the customer's as it is now.
    pub buyer_reference: Option<String>,
    /// The buyer's order reference (BT-13).
    pub order_reference: Option<String>,
    /// The invoicing (delivery) period (BG-14).
    pub period: Option<Period>,
}

/// The payment days that apply to a customer: agreed, else the company's, else the country's.
fn payment_days(
    conn: &Connection,
    tenant: &Tenant,
    company: &Company,
    customer_id: &str,
) -> Result<i64> {
    let agreed = customers::payment_days(conn, tenant, customer_id)?;
    Ok(agreed
        .or(company.payment_days)
        .unwrap_or_else(|| jurisdiction::default_payment_days(company.country.as_str())))
}

/// The due date of a document issued on `issued_on` to `customer_id`.
///
/// Fails with `Refused` for a date beyond the calendar.
pub(crate) fn due_date(
    conn: &Connection,
    tenant: &Tenant,
    company: &Company,
    customer_id: &str,
    issued_on: Date,
) -> Result<Date> {
    let days = payment_days(conn, tenant, company, customer_id)?;
    issued_on
        .checked_add(days.days())
        .map_err(|_| Error::refused(crate::error::said::Draft::DueBeyondCalendar))
}

/// The number the next issue of this type would take today.
fn next_number(
    conn: &Connection,
    tenant: &Tenant,
    company: &Company,
    kind: DraftKind,
    today: Date,
) -> Result<String> {
    let year = today.year();
    let country = company.country.as_str();
    Ok(match kind {
        DraftKind::Invoice => {
            let series = jurisdiction::series(country, DocumentKind::Invoice, year);
            let seq = numbering::peek(conn, tenant, &series, 1)?;
            jurisdiction::document_number(
                country,
                &company.invoice_prefix,
                DocumentKind::Invoice,
                year,
                seq,
            )
        }
        DraftKind::Quote => {
            let seq = numbering::peek(conn, tenant, &format!("quote:{year}"), 1)?;
            format!("Q{year}-{seq:05}")
        }
    })
}

/// A draft of the tenant in its wire form, with the suggestions computed today.
///
/// Fails with `NotFound` when the tenant has no draft with this id.
pub fn get(conn: &Connection, tenant: &Tenant, id: &str) -> Result<DraftView> {
    let draft = stored(conn, tenant, id)?;
    let company = company::get(conn, &tenant.company_id)?;
    let today = company.today();
    // An issued draft shows what its issue made final.
    let issued: Option<(String, Date, Date)> = match &draft.invoice_id {
        Some(invoice_id) => Some(
            conn.prepare_cached(
                "SELECT id, number, issued_on, due_on FROM invoices WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
            )?
            .query_row(params![invoice_id, tenant.company_id, tenant.environment], |row| {
                let r = Row::new(row, "invoices");
                Ok((r.get(1)?, r.get(2)?, r.get(3)?))
            })?,
        ),
        None => None,
    };
    let (number, issued_on, due) = match issued {
        Some(final_figures) => final_figures,
        None => (
            next_number(conn, tenant, &company, draft.document_type, today)?,
            today,
            due_date(conn, tenant, &company, &draft.customer_id, today)?,
        ),
    };
    let customer = customers::get(conn, tenant, &draft.customer_id)?;
    Ok(DraftView {
        id: draft.id.clone(),
        number,
        document_type: draft.document_type,
        customer: customer.name,
        customer_id: draft.customer_id,
        currency: draft.currency,
        issued_on,
        due_on: due,
        payment_sentence: jurisdiction::payment_sentence(company.country.as_str(), due),
        state: draft.state,
        lines: lines(conn, id)?,
        created_at: draft.created_at,
        buyer_reference: draft.buyer_reference.or(customer.buyer_reference),
        order_reference: draft.order_reference,
        period: draft.period,
    })
}

/// An open draft in a list: whom it is for and what it comes to now.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DraftSummary {
    pub id: String,
    pub document_type: DraftKind,
    pub customer_id: String,
    pub customer: String,
    pub currency: Currency,
    pub lines: usize,
    pub net: Option<i64>,
    /// The total as issuing it now would make it; none when it exceeds what
    /// kontor books.
    pub gross: Option<i64>,
    pub created_at: String,
}

/// A page of the tenant's open drafts (invoices and quotes), newest first,
/// each with its customer and its figures as they stand.
///
/// Fails only on a storage error or an unreadable stored line.
pub fn list(conn: &Connection, tenant: &Tenant, paging: Paging) -> Result<Page<DraftSummary>> {
    let company = company::get(conn, &tenant.company_id)?;
    let total: i64 = conn
        .prepare_cached(
            "SELECT count(*) FROM drafts WHERE company_id = ?1 AND environment = ?2 AND state = ?3",
        )?
        .query_row(
            params![tenant.company_id, tenant.environment, DraftState::Draft],
            |r| r.get(0),
        )?;
    let ids: Vec<(String, String)> = conn
        .prepare_cached(&format!(
            "SELECT d.id, c.name FROM drafts d
             JOIN customers c ON c.id = d.customer_id AND c.company_id = d.company_id AND c.environment = d.environment
             WHERE d.company_id = ?1 AND d.environment = ?2 AND d.state = ?3
             ORDER BY d.created_at DESC, d.seq DESC {PAGE_LIMIT_SQL} OFFSET ?4"
        ))?
        .query_map(
            params![
                tenant.company_id,
                tenant.environment,
                DraftState::Draft,
                paging.offset()
            ],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?
        .take(paging.size as usize)
        .collect::<rusqlite::Result<_>>()?;
    let mut data = Vec::with_capacity(ids.len());
    for (id, customer) in ids {
        let draft = stored(conn, tenant, &id)?;
        let figures = match figures_of(conn, &company, &draft) {
            Ok(f) => Some(f),
            Err(Error::Refused(_)) => None,
            Err(e) => return Err(e),
        };
        data.push(DraftSummary {
            lines: match &figures {
                Some(f) => f.lines.len(),
                None => lines(conn, &id)?.len(),
            },
            net: figures.as_ref().map(|f| f.totals.net),
            gross: figures.as_ref().map(|f| f.totals.gross),
            id: draft.id,
            document_type: draft.document_type,
            customer_id: draft.customer_id,
            customer,
            currency: draft.currency,
            created_at: draft.created_at,
        });
    }
    Ok(paging.envelope(data, total))
}
