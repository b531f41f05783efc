//! Drafts of invoices and quotes: created through the API from a customer id
//! alone, filled with lines and issued in the product (the console). A
//! draft's number, dates and payment sentence are suggestions computed now
//! from the seller's country and the customer's agreed terms; they become
//! final only when the draft is issued. Every query is bound to a `Tenant`.

use jiff::civil::Date;
use jiff::ToSpan;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::books::company::{self, Company};
use crate::books::customers;
use crate::books::invoices::{self, FrozenLine, NewInvoice};
use crate::books::numbering;
use crate::error::{Error, Result};
use crate::http::fields::Fields;
use crate::http::rest::{Call, Reply};
use crate::rules::jurisdiction::{self, DocumentKind};
use crate::rules::money::{self, Decimal, Tax};
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::tenant::Tenant;

/// An invoice (booked when issued) or a quote (never booked).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocumentType {
    Invoice,
    Quote,
}

impl DocumentType {
    pub fn as_str(self) -> &'static str {
        match self {
            DocumentType::Invoice => "INVOICE",
            DocumentType::Quote => "QUOTE",
        }
    }
}

/// A line of a draft, as shown.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DraftLine {
    pub description: String,
    pub quantity: Decimal,
    pub unit_price_minor: i64,
    pub taxes: Vec<Tax>,
}

/// A draft in its wire form.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DraftView {
    pub id: String,
    pub number: String,
    pub document_type: &'static str,
    pub customer_id: String,
    pub customer: String,
    pub currency: String,
    pub issued_on: String,
    pub due_on: String,
    pub payment_sentence: String,
    pub state: String,
    pub lines: Vec<DraftLine>,
    pub created_at: String,
}

struct Stored {
    id: String,
    document_type: DocumentType,
    customer_id: String,
    currency: String,
    state: String,
    invoice_id: Option<String>,
    created_at: String,
}

fn stored(conn: &Connection, tenant: &Tenant, id: &str) -> Result<Stored> {
    conn.prepare_cached(
        "SELECT id, document_type, customer_id, currency, state, created_at, invoice_id FROM drafts
         WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
    )?
    .query_row(params![id, tenant.company_id, tenant.env()], |r| {
        Ok(Stored {
            id: r.get(0)?,
            document_type: if r.get::<_, String>(1)? == "QUOTE" {
                DocumentType::Quote
            } else {
                DocumentType::Invoice
            },
            customer_id: r.get(2)?,
            currency: r.get(3)?,
            state: r.get(4)?,
            invoice_id: r.get(6)?,
            created_at: r.get(5)?,
        })
    })
    .optional()?
    .ok_or_else(|| Error::not_found(format!("Draft {id}")))
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
        .unwrap_or_else(|| jurisdiction::default_payment_days(&company.country)))
}

/// The due date of a document issued on `issued_on` to `customer_id`.
///
/// Fails only on a storage error.
pub fn due_date(
    conn: &Connection,
    tenant: &Tenant,
    company: &Company,
    customer_id: &str,
    issued_on: Date,
) -> Result<Date> {
    let days = payment_days(conn, tenant, company, customer_id)?;
    issued_on
        .checked_add(days.days())
        .map_err(|_| Error::refused("The due date lies beyond the calendar."))
}

/// The number the next issue of this type would take today.
fn next_number(
    conn: &Connection,
    tenant: &Tenant,
    company: &Company,
    kind: DocumentType,
    today: Date,
) -> Result<String> {
    let year = today.year();
    Ok(match kind {
        DocumentType::Invoice => {
            let series = jurisdiction::series(&company.country, DocumentKind::Invoice, year);
            let seq = numbering::peek(conn, tenant, &series, 1)?;
            jurisdiction::document_number(
                &company.country,
                &company.invoice_prefix,
                DocumentKind::Invoice,
                year,
                seq,
            )
        }
        DocumentType::Quote => {
            let seq = numbering::peek(conn, tenant, &format!("quote:{year}"), 1)?;
            format!("Q{year}-{seq:05}")
        }
    })
}

fn lines(conn: &Connection, draft_id: &str) -> Result<Vec<DraftLine>> {
    let mut stmt = conn.prepare_cached(
        "SELECT description, quantity, unit_price, taxes FROM draft_lines WHERE draft_id = ?1 ORDER BY seq",
    )?;
    let rows = stmt.query_map([draft_id], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, i64>(2)?,
            r.get::<_, String>(3)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (description, quantity, unit_price_minor, taxes) = row?;
        out.push(DraftLine {
            description,
            quantity: Decimal::parse("quantity", &quantity)?,
            unit_price_minor,
            taxes: decode_taxes(&taxes)?,
        })
    }
    Ok(out)
}

fn encode_taxes(taxes: &[Tax]) -> String {
    serde_json::to_string(taxes).unwrap_or_else(|_| "[]".into())
}

fn decode_taxes(text: &str) -> Result<Vec<Tax>> {
    let values: Vec<serde_json::Value> = serde_json::from_str(text).map_err(Error::internal)?;
    values
        .iter()
        .map(|v| {
            let rate = Decimal::parse("rate", v["rate"].as_str().unwrap_or(""))?;
            Tax::new(v["name"].as_str().unwrap_or(""), rate, v["reason"].as_str())
        })
        .collect()
}

/// A draft of the tenant in its wire form, with the suggestions computed today.
///
/// Fails with `NotFound` when the tenant has no draft with this id.
pub fn get(conn: &Connection, tenant: &Tenant, id: &str) -> Result<DraftView> {
    let draft = stored(conn, tenant, id)?;
    let company = company::get(conn, &tenant.company_id)?;
    let today = company.today();
    // An issued draft shows what its issue made final.
    let issued = match &draft.invoice_id {
        Some(invoice_id) => Some(invoices::stored_by_id(conn, tenant, invoice_id)?),
        None => None,
    };
    let (number, issued_on, due) = match &issued {
        Some(invoice) => (invoice.number.clone(), invoice.issued_on, invoice.due_on),
        None => (
            next_number(conn, tenant, &company, draft.document_type, today)?,
            today,
            due_date(conn, tenant, &company, &draft.customer_id, today)?,
        ),
    };
    Ok(DraftView {
        id: draft.id.clone(),
        number,
        document_type: draft.document_type.as_str(),
        customer: customers::name_of(conn, tenant, &draft.customer_id)?,
        customer_id: draft.customer_id,
        currency: draft.currency,
        issued_on: issued_on.to_string(),
        due_on: due.to_string(),
        payment_sentence: jurisdiction::payment_sentence(&company.country, due),
        state: draft.state,
        lines: lines(conn, id)?,
        created_at: draft.created_at,
    })
}

/// Creates an empty draft for a customer of the tenant, in the customer's
/// currency (else the company's). Returns its id.
///
/// Fails with `NotFound` for a customer the tenant does not have.
pub fn create(tx: &Tx, tenant: &Tenant, customer_id: &str, kind: DocumentType) -> Result<String> {
    let customer = customers::get(tx, tenant, customer_id)?;
    let company = company::get(tx, &tenant.company_id)?;
    let id = ids::new_id("drf");
    tx.prepare_cached(
        "INSERT INTO drafts (id, company_id, environment, document_type, customer_id, currency, state, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'DRAFT', ?7)",
    )?
    .execute(params![
        id,
        tenant.company_id,
        tenant.env(),
        kind.as_str(),
        customer_id,
        customer.currency.unwrap_or(company.currency),
        clock::now()
    ])?;
    Ok(id)
}

/// A line for a draft.
pub struct NewLine {
    pub description: String,
    pub quantity: Decimal,
    pub unit_price: i64,
    pub taxes: Vec<Tax>,
}

fn open_draft(conn: &Connection, tenant: &Tenant, id: &str) -> Result<Stored> {
    let draft = stored(conn, tenant, id)?;
    if draft.state != "DRAFT" {
        return Err(Error::wrong_state(format!("Draft {id} is already issued.")));
    }
    Ok(draft)
}

/// The most lines one draft holds.
pub const MAX_LINES: usize = 200;

/// Adds a line to a draft. A line may come without a tax decision; issuing refuses it then.
///
/// Fails with `NotFound` for an unknown draft, `WrongState` for an issued one,
/// `BadRequest` for an empty description, a quantity that is not positive, a
/// negative price or a draft already holding `MAX_LINES` lines.
pub fn add_line(tx: &Tx, tenant: &Tenant, id: &str, line: &NewLine) -> Result<()> {
    open_draft(tx, tenant, id)?;
    let lines: i64 = tx
        .prepare_cached("SELECT count(*) FROM draft_lines WHERE draft_id = ?1")?
        .query_row([id], |r| r.get(0))?;
    if lines >= MAX_LINES as i64 {
        return Err(Error::bad_request(format!(
            "A draft holds at most {MAX_LINES} lines."
        )));
    }
    let description = line.description.trim();
    if description.is_empty() || description.chars().count() > 500 {
        return Err(Error::bad_request(
            "A line needs a description of 1 to 500 characters.",
        ));
    }
    if line.quantity.is_negative() || line.quantity.is_zero() {
        return Err(Error::bad_request(
            "A line's quantity must be greater than zero.",
        ));
    }
    if line.unit_price < 0 || line.unit_price > money::MAX_AMOUNT {
        return Err(Error::bad_request(
            "A line's unit price must be between 0 and 10^15 minor units.",
        ));
    }
    for (i, tax) in line.taxes.iter().enumerate() {
        if line.taxes[..i].iter().any(|t| t.name == tax.name) {
            return Err(Error::bad_request(format!(
                "The tax {} is named twice on one line.",
                tax.name
            )));
        }
    }
    money::line_net(line.quantity, line.unit_price)?;
    tx.prepare_cached(
        "INSERT INTO draft_lines (draft_id, description, quantity, unit_price, taxes) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![id, description, line.quantity.to_string(), line.unit_price, encode_taxes(&line.taxes)])?;
    Ok(())
}

/// How `issue` is asked to issue.
#[derive(Debug, Default, Clone)]
pub struct IssueOptions {
    pub on: Option<Date>,
    pub delivered_on: Option<Date>,
    pub rate: Option<Decimal>,
}

/// Issues a draft as an invoice after checking it: it has lines, every line a
/// tax decision, every zero rate a reason, and the customer's VAT id (when
/// present) is well-formed for the customer's country. Returns the invoice's id.
///
/// Fails with `NotFound` for an unknown draft, `WrongState` for an issued one,
/// `Refused` naming the reason for a draft that does not pass, a quote, a date
/// in closed books or a missing rate; see also `invoices::issue`.
pub fn issue(tx: &Tx, tenant: &Tenant, id: &str, options: &IssueOptions) -> Result<String> {
    let draft = open_draft(tx, tenant, id)?;
    if draft.document_type == DocumentType::Quote {
        return Err(Error::refused(
            "A quote is not issued as an invoice; create an invoice draft for the customer.",
        ));
    }
    let company = company::get(tx, &tenant.company_id)?;
    let draft_lines = lines(tx, id)?;
    if draft_lines.is_empty() {
        return Err(Error::refused(format!("Draft {id} has no lines.")));
    }
    for (n, line) in draft_lines.iter().enumerate() {
        if line.taxes.is_empty() {
            return Err(Error::refused(format!(
                "Line {} ({}) has no tax decision; give it a rate or a tax with its reason.",
                n + 1,
                line.description
            )));
        }
    }
    let customer = customers::get(tx, tenant, &draft.customer_id)?;
    if let Some(vat_id) = &customer.vat_id {
        jurisdiction::check_vat_id(&customer.country, vat_id).map_err(|reason| {
            Error::refused(format!(
                "The customer's VAT id cannot be used on an invoice: {reason}"
            ))
        })?;
    }
    // invoices::issue refuses a day in closed books.
    let issued_on = options.on.unwrap_or_else(|| company.today());
    let rate = invoices::fixed_rate(&draft.currency, &company.currency, options.rate)?;
    let money_lines: Vec<money::Line> = draft_lines
        .iter()
        .map(|l| money::Line {
            quantity: l.quantity,
            unit_price: l.unit_price_minor,
            taxes: l.taxes.clone(),
        })
        .collect();
    let totals = money::totals(&money_lines)?;
    let due_on = due_date(tx, tenant, &company, &draft.customer_id, issued_on)?;
    let frozen = draft_lines
        .into_iter()
        .map(|l| FrozenLine {
            description: l.description,
            quantity: l.quantity,
            unit_price: l.unit_price_minor,
        })
        .collect();
    let invoice_id = invoices::issue(
        tx,
        tenant,
        &company,
        NewInvoice {
            draft_id: id,
            customer_id: &draft.customer_id,
            currency: &draft.currency,
            lines: frozen,
            totals,
            issued_on,
            delivered_on: options.delivered_on.unwrap_or(issued_on),
            due_on,
            rate,
        },
    )?;
    tx.prepare_cached(
        "UPDATE drafts SET state = 'ISSUED', invoice_id = ?2 WHERE id = ?1 AND company_id = ?3 AND environment = ?4",
    )?
    .execute(params![id, invoice_id, tenant.company_id, tenant.env()])?;
    Ok(invoice_id)
}

/// POST /v1/invoices/drafts: `{customerId}` and nothing else.
pub fn http_create(call: &Call) -> Result<Reply> {
    let (key, fingerprint, mut fields): (&str, String, Fields) = call.idempotent_body()?;
    let customer_id = fields.required_text("customerId", 100)?;
    fields.finish()?;
    let tenant = call.tenant();
    call.create_once(
        key,
        &fingerprint,
        |tx| create(tx, tenant, &customer_id, DocumentType::Invoice),
        |conn, id| get(conn, tenant, id),
    )
}
