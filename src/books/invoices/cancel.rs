//! Cancelling an invoice by a full correction: a CORRECTION document
//! (`creditNote`, negated figures and lines, the next number of its series)
//! reverses it, the original becomes CANCELLED, the ledger entry is reversed,
//! the receivable closed, the tallies moved, `invoice.cancelled` raised and
//! the act recorded in the audit, all in the caller's transaction.

use rusqlite::{params, Connection};

use crate::books::audit::{self, Act, Actor};
use crate::books::bank::suggest;
use crate::books::company::{self, Company};
use crate::books::document_kinds::DocumentType;
use crate::books::invoices::{self, Move};
use crate::books::ledger::{self, Account, Posting};
use crate::books::numbering;
use crate::books::report::{self, Side};
use crate::books::vat_due;
use crate::error::said::Draft;
use crate::error::{Error, Result, Violations};
use crate::outbox::events::{self, EventKind};
use crate::rules::jurisdiction::{self, DocumentKind};
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::tenant::Tenant;

/// A cancellation as a person asks for it, checked: its reason and day.
pub use crate::books::reasoned::{
    Reasoned as Cancellation, ReasonedInput as CancelInput, MAX_REASON,
};

/// The numbering series of the corrections a company issues in `year`.
fn series(company: &Company, year: i16) -> String {
    jurisdiction::series(company.country.as_str(), DocumentKind::Correction, year)
}

/// The number of the correction with sequence value `seq` in `year`.
fn correction_number(company: &Company, year: i16, seq: i64) -> String {
    jurisdiction::document_number(
        company.country.as_str(),
        &company.invoice_prefix,
        DocumentKind::Correction,
        year,
        seq,
    )
}

/// The number a correction dated today would take now, without taking it
/// (another act may take it first; `cancel` answers the number taken).
///
/// Fails only on a storage error.
pub fn next_number(conn: &Connection, tenant: &Tenant) -> Result<String> {
    let company = company::get(conn, &tenant.company_id)?;
    let year = company.today().year();
    let seq = numbering::peek(conn, tenant, &series(&company, year), 1)?;
    Ok(correction_number(&company, year, seq))
}

/// Cancels the invoice `number` by a full correction. Returns (original id,
/// correction id). Recorded by `actor` as `invoice.cancelled` on the
/// original and `correction.issued` on the correction.
///
/// Fails with `NotFound` for an unknown number, `WrongState` for a correction
/// or an already cancelled invoice, and `Refused` once a payment exists, for
/// a date before the invoice or in closed books.
pub fn cancel(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    number: &str,
    request: &Cancellation,
) -> Result<(String, String)> {
    let company = company::get(tx, &tenant.company_id)?;
    let original = invoices::stored_by_number(tx, tenant, number)?;
    let on = request.on().unwrap_or_else(|| company.today());
    let reason = request.reason();
    if original.document_type == DocumentType::Correction {
        return Err(Error::wrong_state(Draft::CorrectionNotCancelled {
            number: number.to_string(),
        }));
    }
    if original.cancelled_by_id.is_some() {
        return Err(Error::wrong_state(Draft::CancelledAlready {
            number: number.to_string(),
        }));
    }
    let payments: i64 = tx
        .prepare_cached(
            "SELECT count(*) FROM payments WHERE invoice_id = ?1 AND company_id = ?2 AND environment = ?3
             AND reversed_on IS NULL",
        )?
        .query_row(params![original.id, tenant.company_id, tenant.environment], |r| r.get(0))?;
    let mut verdict = Violations::new();
    if payments > 0 {
        verdict.refuse(Draft::HasPayments {
            number: number.to_string(),
            payments,
        });
    }
    if on < original.issued_on {
        verdict.refuse(Draft::CancelBeforeIssue {
            on,
            number: number.to_string(),
            issued: original.issued_on,
        });
    }
    verdict.take(ledger::check_open(tx, tenant, on))?;
    verdict.finish()?;
    let (_, tax_book, gross_book) = original.book_figures(&company)?;
    let year = on.year();
    let seq = numbering::take(tx, tenant, &series(&company, year), 1)?;
    let correction_number = correction_number(&company, year, seq);
    let correction_id = ids::new_id("inv");
    tx.prepare_cached(
        "INSERT INTO invoices (id, company_id, environment, document_type, number, customer_id, buyer_name,
             buyer_street, buyer_postal_code, buyer_city, buyer_country, buyer_vat_id, currency, rate, issued_on, due_on,
             delivered_on, net, tax, gross, gross_book, outstanding, outstanding_book, payment_sentence, corrects_id,
             cancel_reason, recorded_at)
         SELECT ?1, company_id, environment, ?7, ?2, customer_id, buyer_name, buyer_street,
             buyer_postal_code, buyer_city, buyer_country, buyer_vat_id, currency, rate, ?3, ?3, delivered_on,
             -net, -tax, -gross, -gross_book, 0, 0, '', id, ?4, ?5
         FROM invoices WHERE id = ?6 AND company_id = ?8 AND environment = ?9",
    )?
    .execute(params![
        correction_id,
        correction_number,
        on,
        reason,
        clock::now(),
        original.id,
        DocumentType::Correction,
        tenant.company_id,
        tenant.environment
    ])?;
    tx.prepare_cached(
        "INSERT INTO invoice_lines (invoice_id, description, quantity, unit_price, net, unit, vat_category,
             vat_rate, exemption_reason, exemption_code)
         SELECT ?1, description, CASE WHEN quantity LIKE '-%' THEN substr(quantity, 2) ELSE '-' || quantity END,
             unit_price, -net, unit, vat_category, vat_rate, exemption_reason, exemption_code
         FROM invoice_lines WHERE invoice_id = ?2 ORDER BY seq",
    )?
    .execute(params![correction_id, original.id])?;
    tx.prepare_cached(
        "INSERT INTO invoice_taxes (invoice_id, name, rate, reason, base, amount, vat_category)
         SELECT ?1, name, rate, reason, -base, -amount, vat_category FROM invoice_taxes WHERE invoice_id = ?2
         ORDER BY seq",
    )?
    .execute(params![correction_id, original.id])?;
    tx.prepare_cached(
        "UPDATE invoices SET cancelled_by_id = ?2, cancel_reason = ?3, outstanding = 0, outstanding_book = 0
         WHERE id = ?1 AND company_id = ?4 AND environment = ?5",
    )?
    .execute(params![original.id, correction_id, reason, tenant.company_id, tenant.environment])?;
    invoices::documents::write(
        tx,
        tenant,
        &correction_id,
        &invoices::documents::Issuing {
            company: &company,
            draft_id: None,
            tax_book: -tax_book,
        },
    )?;
    // The reverse of the original's entry, key by key (what is not yet due
    // off what is not due).
    let by_key = invoices::book_figures_by_key(tx, &company, &original)?;
    let mut postings = vat_due::cancelled(tx, tenant, &original.id, &correction_id, on, &by_key)?;
    postings.push(Posting::credit(Account::Receivables, gross_book).of(&original.customer_id));
    ledger::post(tx, tenant, &correction_id, on, &postings)?;
    report::change(
        tx,
        tenant,
        Side::Receivable,
        on,
        original.due_on,
        -original.outstanding_book,
        -1,
    )?;
    invoices::count(tx, tenant, Move::Corrected)?;
    let cancelled = invoices::stored_by_id(tx, tenant, &original.id)?;
    let mut f = cancelled.event_fields(company.today());
    f.insert("cancelledByInvoiceId", correction_id.clone());
    f.insert("cancelledByNumber", correction_number);
    f.insert("reason", reason.to_string());
    events::raise(tx, tenant, EventKind::InvoiceCancelled, &original.id, f)?;
    audit::record(tx, tenant, actor, Act::InvoiceCancelled, &original.id)?;
    audit::record(tx, tenant, actor, Act::CorrectionIssued, &correction_id)?;
    // Bank lines that suggested paying it suggest so no longer.
    suggest::refresh_one(tx, tenant, &original.id)?;
    Ok((original.id, correction_id))
}
