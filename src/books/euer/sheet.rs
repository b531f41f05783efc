//! The statement as the document a person hands over: the company as its
//! letterhead names it (name, address, tax number, VAT id, contact), the
//! lines with their labels in the company's language, the profit, and the
//! payments behind each line while they fit a document
//! (`MAX_LISTED`), written as a PDF (`documents::pdf::write_euer`).

use rusqlite::Connection;

use super::statement::Statement;
use crate::books::company;
use crate::documents::euer::{self as sheet, Behind, Entry, Row};
use crate::documents::{pdf as writer, Address, Contact, Party};
use crate::error::{Error, Result};
use crate::rules::euer::Side;
use crate::rules::locale::Lang;
use crate::store::tenant::Tenant;

/// The most payments the document lists behind its lines: about a hundred
/// pages; past it, the document says where they are.
pub const MAX_LISTED: usize = 5_000;

/// The PDF of `s`, the statement of the tenant's company, in the company's
/// language.
///
/// Fails with `Internal` when the PDF cannot be written.
pub fn pdf(conn: &Connection, tenant: &Tenant, s: &Statement) -> Result<Vec<u8>> {
    let company = company::get(conn, &tenant.company_id)?;
    let p = &company.particulars;
    let lang = Lang::of_seller(company.country.as_str());
    let english = lang == Lang::En;
    let party = Party {
        name: company.seller_name().to_string(),
        address: Address {
            street: p.street.clone(),
            postal_code: p.postal_code.clone(),
            city: p.city.clone(),
            country: company.country.as_str().to_string(),
            ..Address::default()
        },
        vat_id: p.vat_id.clone(),
        tax_number: p.tax_number.clone(),
        contact: Contact {
            name: p.contact_name.clone(),
            phone: p.contact_phone.clone(),
            email: p.contact_email.clone(),
        },
        ..Party::default()
    };
    let rows = s
        .figures
        .iter()
        .map(|f| Row {
            line: f.key.clone(),
            kz: f.kz.kz.to_string(),
            label: f.kz.name(english).to_string(),
            amount: f.amount,
            sum: matches!(f.kz.side, Side::IncomeSum | Side::ExpenseSum),
        })
        .collect();
    let count = s.postings();
    let behind = (count <= MAX_LISTED).then(|| {
        s.figures
            .iter()
            .filter(|f| !f.postings.is_empty())
            .map(|f| Behind {
                line: f.key.clone(),
                label: f.kz.name(english).to_string(),
                entries: f
                    .postings
                    .iter()
                    .map(|p| Entry {
                        date: p.date,
                        document: p.document.to_string(),
                        amount: p.amount,
                    })
                    .collect(),
            })
            .collect()
    });
    let doc = sheet::Statement {
        company: party,
        lang,
        year: s.year,
        from: s.from,
        to: s.to,
        form: s.form.year,
        made_on: company.today(),
        is_final: s.is_final,
        rows,
        profit: s.profit,
        unassigned: s.unassigned.iter().map(|p| p.amount).sum(),
        behind,
        behind_count: count,
    };
    writer::write_euer(&doc).map_err(|e| Error::internal(format!("the EÜR's PDF: {e}")))
}
