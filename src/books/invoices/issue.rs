//! Issuing: a person turns a draft into an invoice. The act checks the draft
//! (its verdict names every rule it breaks), takes the next number of the
//! seller country's series, freezes buyer, lines, taxes, figures and dates,
//! posts receivables / revenue + output tax, opens the receivable, counts it,
//! marks the draft issued, raises `invoice.issued` and records the act in
//! the audit (on the draft and on the invoice): all in the caller's
//! transaction, so all of it happens or none.

use jiff::civil::Date;
use rusqlite::params;

use crate::books::audit::{self, Act, Actor};
use crate::books::company;
use crate::books::customers;
use crate::books::drafts::{self, line_vat, DraftKind as DraftType, LineVat};
use crate::books::invoices::{self, documents, vat_check, Move};
use crate::books::ledger::{self, Account, Posting};
use crate::books::numbering;
use crate::books::report::{self, Side};
use crate::books::vat_due;
use crate::error::said::Draft;
use crate::error::{Error, Result, Said, Violations};
use crate::outbox::events::{self, EventKind};
use crate::rules::creditor_reference::CreditorReference;
use crate::rules::jurisdiction::{self, DocumentKind};
use crate::rules::money::{self, Decimal};
use crate::rules::vat_ids;
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::tenant::Tenant;

/// How a person asks to issue, as given.
#[derive(Debug, Default, Clone)]
pub struct IssueInput {
    /// The issue date (default today in the company's time zone).
    pub on: Option<String>,
    /// The delivery date (default the issue date).
    pub delivered_on: Option<String>,
    /// Book-currency units per unit of the draft's currency.
    pub rate: Option<String>,
}

/// Checked issue options.
#[derive(Debug, Default, Clone)]
pub struct IssueOptions {
    on: Option<Date>,
    delivered_on: Option<Date>,
    rate: Option<Decimal>,
    /// A bulk fill: no documents are written (the invoice says so).
    bulk: bool,
    /// What the VAT register said about the customer's VAT id (`vat_check::ask`).
    register: Option<vat_check::Asked>,
}

impl IssueOptions {
    /// Checks the options: dates `YYYY-MM-DD`, the rate an exact decimal.
    ///
    /// Fails with `Invalid` naming every field that cannot be read.
    pub fn check(input: IssueInput) -> Result<IssueOptions> {
        let mut v = Violations::new();
        let on = match input.on.as_deref() {
            Some(d) => v.take(clock::parse_date("on", d))?,
            None => None,
        };
        let delivered_on = match input.delivered_on.as_deref() {
            Some(d) => v.take(clock::parse_date("deliveredOn", d))?,
            None => None,
        };
        let rate = match input.rate.as_deref() {
            Some(r) => v.take(Decimal::parse("rate", r))?,
            None => None,
        };
        v.finish()?;
        Ok(IssueOptions {
            on,
            delivered_on,
            rate,
            bulk: false,
            register: None,
        })
    }

    /// The options with the VAT register's answer (`vat_check::ask`,
    /// asked before the issue's transaction): an id it says is not valid
    /// refuses the issue; any other answer is kept with the invoice.
    pub fn with_register(mut self, asked: Option<vat_check::Asked>) -> IssueOptions {
        self.register = asked;
        self
    }

    /// Issue on `day`, nothing else given.
    pub fn on(day: Date) -> IssueOptions {
        IssueOptions {
            on: Some(day),
            ..IssueOptions::default()
        }
    }

    /// A bulk fill on `day`: the act without its documents (no verdict on
    /// them, none written; the invoice's `documentsNote` says so). For
    /// filling a data file with history fast, as the benchmark's million
    /// invoices are filled; no surface offers it.
    pub fn bulk_without_documents(day: Date) -> IssueOptions {
        IssueOptions {
            on: Some(day),
            bulk: true,
            ..IssueOptions::default()
        }
    }
}

/// Issues a draft as an invoice: the check (`check`, the verdict), then
/// the write (`write`). Returns the invoice's id. Recorded by `actor` as
/// `draft.issued` on the draft and `invoice.issued` on the invoice.
///
/// Fails with `NotFound` for an unknown draft, `WrongState` for an issued
/// one, and `Refused` with the verdict (see `check`).
pub fn issue(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    draft_id: &str,
    options: &IssueOptions,
) -> Result<String> {
    let checked = check(tx, tenant, draft_id, options)?;
    write(tx, tenant, actor, draft_id, options, checked)
}

/// A draft that passed the verdict, with what its invoice will freeze.
struct Checked {
    draft: drafts::Stored,
    company: company::Company,
    lines: Vec<drafts::DraftLine>,
    customer: customers::Customer,
    vats: Vec<Option<LineVat>>,
    totals: money::Totals,
    rate: Decimal,
    gross_book: i64,
    tax_book: i64,
    issued_on: Date,
}

/// The verdict on issuing a draft, naming every reason it refuses: a
/// quote, a draft without lines, a line without a tax decision, the
/// customer's VAT id malformed for the customer's country, a document in
/// another currency without a rate (or the book currency with a rate other
/// than 1), a date in closed books, a total that is not positive or is
/// worth nothing in the book currency. Writes nothing.
///
/// Fails with `NotFound` for an unknown draft, `WrongState` for an issued
/// one, and `Refused` with the verdict.
fn check(tx: &Tx, tenant: &Tenant, draft_id: &str, options: &IssueOptions) -> Result<Checked> {
    let draft = drafts::open(tx, tenant, draft_id)?;
    if draft.document_type == DraftType::Quote {
        return Err(Error::refused(Draft::QuoteNotIssued));
    }
    let company = company::get(tx, &tenant.company_id)?;
    let lines = drafts::lines(tx, draft_id)?;
    let customer = customers::get(tx, tenant, &draft.customer_id)?;
    let issued_on = options.on.unwrap_or_else(|| company.today());

    let mut verdict = Violations::new();
    if lines.is_empty() {
        verdict.refuse(Draft::NoLines {
            id: draft_id.to_string(),
        });
    }
    let eu_seller = jurisdiction::in_eu(company.country.as_str());
    let mut vats: Vec<Option<LineVat>> = Vec::with_capacity(lines.len());
    for (n, line) in lines.iter().enumerate() {
        let vat = line_vat(line, eu_seller).and_then(|vat| match vat {
            Some(v) if company.particulars.small_business && !v.category.zero_rated() => {
                Err(Said::from(Draft::SmallBusinessCharges {
                    rate: v.rate.to_string(),
                }))
            }
            other => Ok(other),
        });
        match &vat {
            Err(problem) => verdict.refused(
                format!("lines[{n}]"),
                Draft::Line {
                    description: line.description.clone(),
                    problem: Box::new(problem.clone()),
                },
            ),
            Ok(Some(vat)) => {
                // One (category, rate) is one entry of the VAT breakdown:
                // it cannot carry two reasons, codes or tax names.
                let clash = vats.iter().flatten().find(|other| {
                    other.category == vat.category
                        && other.rate == vat.rate
                        && (other.reason != vat.reason
                            || other.code != vat.code
                            || other.name != vat.name)
                });
                if clash.is_some() {
                    verdict.refused(
                        format!("lines[{n}]"),
                        Draft::Line {
                            description: line.description.clone(),
                            problem: Box::new(Said::from(Draft::ReasonClash {
                                category: vat.category.code().to_string(),
                                rate: vat.rate.to_string(),
                            })),
                        },
                    );
                }
            }
            Ok(None) => {}
        }
        vats.push(vat.unwrap_or(None));
    }
    if let Some(asked) = &options.register {
        if customer.vat_id.as_deref() != Some(asked.vat_id.as_str()) {
            verdict.refuse(Draft::VatIdChanged);
        } else if let Some(sentence) = vat_check::refusal(asked) {
            verdict.refuse(sentence);
        }
    }
    if let Some(vat_id) = &customer.vat_id {
        if let Err(reason) = vat_ids::check_by_prefix(customer.country.as_str(), vat_id) {
            verdict.refuse(Draft::VatIdUnusable {
                reason: Box::new(reason.into()),
            });
        }
    }
    let rate = verdict.take(crate::rules::money::fixed_rate(
        &draft.currency,
        &company.currency,
        options.rate,
    ))?;
    verdict.take(ledger::check_open(tx, tenant, issued_on))?;
    let totals = verdict.take(money::totals(&drafts::money_lines(&lines, &vats)))?;
    if totals.as_ref().is_some_and(|t| t.gross <= 0) && !lines.is_empty() {
        verdict.refuse(Draft::NotPositiveTotal);
    }
    let (from_exp, to_exp) = (draft.currency.exponent(), company.currency.exponent());
    let book = match (&totals, rate) {
        (Some(t), Some(rate)) if t.gross > 0 => {
            let gross_book = verdict.take(money::convert(t.gross, rate, from_exp, to_exp))?;
            let tax_book = verdict.take(money::convert(t.tax, rate, from_exp, to_exp))?;
            if gross_book.is_some_and(|g| g <= 0) {
                verdict.refuse(Draft::WorthNothing {
                    rate: rate.to_string(),
                    currency: company.currency.as_str().to_string(),
                });
            }
            gross_book.zip(tax_book)
        }
        _ => None,
    };
    verdict.finish()?;
    let (Some(totals), Some(rate), Some((gross_book, tax_book))) = (totals, rate, book) else {
        return Err(Error::internal(
            "an issue passed its verdict without figures",
        ));
    };
    Ok(Checked {
        draft,
        company,
        lines,
        customer,
        vats,
        totals,
        rate,
        gross_book,
        tax_book,
        issued_on,
    })
}

/// Writes the invoice of a checked draft: its number (the next of its
/// series), the frozen buyer, lines, taxes and figures, its documents
/// (their own verdict refuses the whole act, so no number is used), the
/// ledger entry, the open receivable, the count, the draft marked issued,
/// `invoice.issued` and the audit.
///
/// Fails with `Refused` when the documents' verdict refuses, else only on a
/// storage error.
fn write(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    draft_id: &str,
    options: &IssueOptions,
    checked: Checked,
) -> Result<String> {
    let Checked {
        draft,
        company,
        lines,
        customer,
        vats,
        totals,
        rate,
        gross_book,
        tax_book,
        issued_on,
    } = checked;
    let (from_exp, to_exp) = (draft.currency.exponent(), company.currency.exponent());
    let due_on = drafts::due_date(tx, tenant, &company, &draft.customer_id, issued_on)?;
    let delivered_on = options.delivered_on.unwrap_or(issued_on);
    let year = issued_on.year();
    let country = company.country.as_str();
    let series = jurisdiction::series(country, DocumentKind::Invoice, year);
    let seq = numbering::take(tx, tenant, &series, 1)?;
    let number = jurisdiction::document_number(
        country,
        &company.invoice_prefix,
        DocumentKind::Invoice,
        year,
        seq,
    );
    let id = ids::new_id("inv");
    let sentence = jurisdiction::payment_sentence(country, due_on);
    tx.prepare_cached(
        "INSERT INTO invoices (id, company_id, environment, document_type, number, draft_id, customer_id, buyer_name,
             buyer_street, buyer_postal_code, buyer_city, buyer_country, buyer_vat_id, currency, rate, issued_on, due_on,
             delivered_on, net, tax, gross, gross_book, outstanding, outstanding_book, payment_sentence, recorded_at,
             payment_reference)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21,
             ?22, ?21, ?22, ?23, ?24, ?25)",
    )?
    .execute(params![
        id,
        tenant.company_id,
        tenant.environment,
        crate::books::document_kinds::DocumentType::Invoice,
        number,
        draft_id,
        draft.customer_id,
        customer.name,
        customer.street,
        customer.postal_code,
        customer.city,
        customer.country,
        customer.vat_id,
        draft.currency,
        rate,
        issued_on,
        due_on,
        delivered_on,
        totals.net,
        totals.tax,
        totals.gross,
        gross_book,
        sentence,
        clock::now(),
        // The payment reference of BT-83, the EPC QR code and the PDF: the
        // number's ISO 11649 creditor reference, for the bank import's rung (a).
        CreditorReference::of_number(&number)
    ])?;
    let mut line = tx.prepare_cached(
        "INSERT INTO invoice_lines (invoice_id, description, quantity, unit_price, net, unit, vat_category, vat_rate,
             exemption_reason, exemption_code)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?;
    for ((l, net), vat) in lines.iter().zip(&totals.line_nets).zip(&vats) {
        line.execute(params![
            id,
            l.description,
            l.quantity,
            l.unit_price_minor,
            net,
            l.unit,
            vat.as_ref().map(|v| v.category.code()),
            vat.as_ref().map(|v| v.rate),
            vat.as_ref().and_then(|v| v.reason.clone()),
            vat.as_ref().and_then(|v| v.code.clone()),
        ])?;
    }
    let mut tax = tx.prepare_cached(
        "INSERT INTO invoice_taxes (invoice_id, name, rate, reason, base, amount, vat_category)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    for t in &totals.taxes {
        tax.execute(params![
            id, t.name, t.rate, t.reason, t.base, t.amount, t.category
        ])?;
    }
    // The documents, checked before anything is booked: a failed verdict
    // refuses the whole act, so the number drawn above is not used.
    if options.bulk {
        documents::filled_in_bulk(tx, tenant, &id)?;
    } else {
        documents::write(
            tx,
            tenant,
            &id,
            &documents::Issuing {
                company: &company,
                draft_id: Some(draft_id),
                tax_book,
            },
        )?;
    }
    let abroad = invoices::abroad(company.country.as_str(), customer.country.as_str());
    let parts: Vec<(String, i64, i64)> = totals
        .taxes
        .iter()
        .map(|t| {
            (
                invoices::tax_key(t.category, &t.rate, abroad),
                t.base,
                t.amount,
            )
        })
        .collect();
    let mut postings = vec![Posting::debit(Account::Receivables, gross_book).of(&customer.id)];
    let by_key = ledger::split_by_key(
        &parts,
        rate,
        from_exp,
        to_exp,
        gross_book - tax_book,
        tax_book,
    )?;
    // Taxed on payments received: the tax waits for the money.
    postings.extend(vat_due::issued(tx, tenant, &id, issued_on, &by_key)?);
    ledger::post(tx, tenant, &id, issued_on, &postings)?;
    report::change(
        tx,
        tenant,
        Side::Receivable,
        issued_on,
        due_on,
        gross_book,
        1,
    )?;
    invoices::count(tx, tenant, Move::Issued)?;
    drafts::mark_issued(tx, tenant, draft_id, &id)?;
    let stored = invoices::stored_by_id(tx, tenant, &id)?;
    events::raise(
        tx,
        tenant,
        EventKind::InvoiceIssued,
        &id,
        stored.event_fields(company.today()),
    )?;
    if let Some(asked) = &options.register {
        vat_check::keep(tx, tenant, &id, asked)?;
    }
    audit::record(tx, tenant, actor, Act::DraftIssued, draft_id)?;
    audit::record(tx, tenant, actor, Act::InvoiceIssued, &id)?;
    Ok(id)
}
