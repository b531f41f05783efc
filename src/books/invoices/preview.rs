//! A draft's preview: the draft as its invoice would read if issued today,
//! through the same document model as an issued invoice
//! (`documents::assemble`), marked as a draft, without a number or XML,
//! written as a PDF but never stored.

use rusqlite::Connection;

use crate::books::company;
use crate::books::customers;
use crate::books::drafts;
use crate::books::invoices::documents::{
    assemble, breakdown_entry, electronic_address, line_of, Content,
};
use crate::books::vat_due;
use crate::documents::{pdf, Address, Category, Party, TypeCode};
use crate::error::{Error, Result, Violation};
use crate::rules::jurisdiction;
use crate::rules::money::Decimal;
use crate::store::tenant::Tenant;

/// The PDF of a draft as its invoice would read if issued today, marked as
/// a draft on every page, without an invoice number, without XML (so no
/// reader takes it for a Factur-X invoice) and without the payment QR
/// code; nothing is stored and no number is drawn.
///
/// Fails with `NotFound` for an unknown draft, `WrongState` for an issued
/// one, `Refused` for a quote, and `Refused` naming each line whose tax is undecided (the
/// document cannot show a VAT it does not know) or a total beyond what
/// kontor books.
pub fn draft_preview(conn: &Connection, tenant: &Tenant, draft_id: &str) -> Result<Vec<u8>> {
    let draft = drafts::open(conn, tenant, draft_id)?;
    if draft.document_type == drafts::DraftKind::Quote {
        return Err(Error::refused(crate::error::said::Draft::QuoteNotPreviewed));
    }
    let company = company::get(conn, &tenant.company_id)?;
    let figures = drafts::figures(conn, tenant, draft_id)?;
    let undecided = figures.undecided();
    if !undecided.is_empty() {
        return Err(Error::Refused(
            undecided
                .into_iter()
                .map(|(n, why)| Violation::at(format!("lines[{}]", n - 1), why.clone()))
                .collect(),
        ));
    }
    let customer = customers::get(conn, tenant, &draft.customer_id)?;
    let today = company.today();
    let due_on = drafts::due_date(conn, tenant, &company, &draft.customer_id, today)?;
    let mut lines = Vec::with_capacity(figures.lines.len());
    let mut vats = Vec::with_capacity(figures.lines.len());
    for ((line, net), vat) in figures
        .lines
        .iter()
        .zip(&figures.totals.line_nets)
        .zip(&figures.vats)
    {
        let vat = vat.clone().unwrap_or(None);
        let (category, rate) = vat
            .as_ref()
            .map_or((Category::O, Decimal::from_int(0)), |v| {
                (v.category.clone(), v.rate)
            });
        lines.push(line_of(
            lines.len(),
            line.description.clone(),
            line.quantity,
            line.unit.clone(),
            Decimal::from_minor(line.unit_price_minor, draft.currency.exponent()),
            *net,
            (category, rate),
        ));
        vats.extend(vat);
    }
    let breakdown = figures
        .totals
        .taxes
        .iter()
        .filter_map(|t| {
            let category = t.category.and_then(Category::read)?;
            let code = vats
                .iter()
                .find(|v| v.category == category && v.rate == t.rate)
                .and_then(|v| v.code.clone());
            Some(breakdown_entry(
                category,
                t.rate,
                t.reason.clone(),
                t.base,
                t.amount,
                code,
            ))
        })
        .collect();
    let doc = assemble(
        &company,
        Content {
            type_code: TypeCode::Invoice,
            number: String::new(),
            issued_on: today,
            currency: &draft.currency,
            due_on,
            payment_terms: jurisdiction::payment_sentence(company.country.as_str(), due_on),
            preceding: None,
            delivered_on: today,
            references: Some(drafts::references(conn, tenant, draft_id)?),
            buyer: Party {
                name: customer.name.clone(),
                address: Address {
                    street: Some(customer.street.clone()),
                    postal_code: Some(customer.postal_code.clone()),
                    city: Some(customer.city.clone()),
                    country: customer.country.as_str().to_string(),
                    ..Address::default()
                },
                vat_id: customer.vat_id.clone(),
                electronic_address: electronic_address(&customer),
                ..Party::default()
            },
            lines,
            breakdown,
            net: figures.totals.net,
            tax: figures.totals.tax,
            gross: figures.totals.gross,
            tax_book: None,
            cash_basis: vat_due::states_cash_basis(conn, &company.id, today)?,
        },
    );
    pdf::write_draft(&doc).map_err(Error::internal)
}
