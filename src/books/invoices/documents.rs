//! The documents of an issued invoice or correction: built at issue from the
//! frozen rows and the particulars as they stand, checked by the verdict
//! (a failure refuses the issue, so no number is used), written, and stored
//! with their SHA-256, never to be written again. Every invoice whose
//! currency has at most two decimals and whose lines each carry one VAT gets
//! `facturx` and `cii`, plus the format its customer receives; otherwise the
//! PDF alone, and the invoice says why.
//! A draft's preview goes through the same model (`invoices::preview`).

use jiff::civil::Date;
use rusqlite::{params, Connection, OptionalExtension};
use sha2::{Digest, Sha256};

use crate::books::company::{self, Company};
use crate::books::customers::{self, EinvoiceFormat};
use crate::books::document_kinds::DocumentType;
use crate::books::drafts;
use crate::books::invoices::stored::{stored_by_id, stored_by_number};
use crate::books::vat_due;
use crate::documents::verdict::{self, Finding, Subject};
use crate::documents::{
    cii, pdf, ubl, AccountingTax, Address, Breakdown, Category, Contact, Document,
    ElectronicAddress, Format, Line, Note, Party, Period, Preceding, Transfer, TypeCode,
};
use crate::error::said::{self, Particular};
use crate::error::{Error, Result, Said, Violation};
use crate::rules::cash_vat;
use crate::rules::iso::Currency;
use crate::rules::jurisdiction;
use crate::rules::locale::{self, Lang};
use crate::rules::money::Decimal;
use crate::store::db::Tx;
use crate::store::row::Row;
use crate::store::tenant::Tenant;

/// The invoice of a draft on its way to being issued, or a correction.
pub(crate) struct Issuing<'a> {
    pub company: &'a Company,
    /// The draft (for an invoice) whose references the documents carry and
    /// whose id a fix names.
    pub draft_id: Option<&'a str>,
    /// The VAT in the company's currency, when the document is in another.
    pub tax_book: i64,
}

/// Builds, checks, writes and stores the documents of the invoice
/// `invoice_id` (already inserted in `tx`).
///
/// Fails with `Refused` naming each broken rule and how to fix it, so the
/// caller's transaction rolls back and no number is used.
pub(crate) fn write(tx: &Tx, tenant: &Tenant, invoice_id: &str, at: &Issuing) -> Result<()> {
    let built = build(tx, tenant, invoice_id, at)?;
    let mut written: Vec<(Format, Vec<u8>)> = Vec::new();
    let note = match &built.xml {
        Err(why) => {
            let pdf = pdf::write(&built.doc, None).map_err(Error::internal)?;
            written.push((Format::FacturX, pdf));
            Some(why.clone())
        }
        Ok(formats) => {
            let mut findings = verdict::check(&built.doc, formats);
            // The law's particulars, each unless a rule already named it.
            for finding in particulars(at.company) {
                if !findings.iter().any(|f| f.subject == finding.subject) {
                    findings.push(finding);
                }
            }
            if !findings.is_empty() {
                return Err(Error::Refused(
                    findings
                        .iter()
                        .map(|f| refusal(f, at, &built.customer_id))
                        .collect(),
                ));
            }
            let cii_bytes =
                cii::write(&built.doc, cii::Guideline::En16931).map_err(Error::internal)?;
            let pdf = pdf::write(&built.doc, Some(&cii_bytes)).map_err(Error::internal)?;
            written.push((Format::FacturX, pdf));
            for format in formats {
                match format {
                    Format::XRechnung => written.push((
                        Format::XRechnung,
                        cii::write(&built.doc, cii::Guideline::XRechnung)
                            .map_err(Error::internal)?,
                    )),
                    Format::Peppol => written.push((
                        Format::Peppol,
                        ubl::write(&built.doc).map_err(Error::internal)?,
                    )),
                    Format::Cii | Format::FacturX => {}
                }
            }
            written.push((Format::Cii, cii_bytes));
            None
        }
    };
    let mut insert = tx.prepare_cached(
        "INSERT INTO invoice_documents (invoice_id, company_id, environment, format, content, sha256)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    for (format, bytes) in &written {
        let sha = hex::encode(Sha256::digest(bytes));
        insert.execute(params![
            invoice_id,
            tenant.company_id,
            tenant.environment,
            format.as_str(),
            bytes,
            sha
        ])?;
    }
    match note {
        Some(note) => set_note(tx, tenant, invoice_id, &note),
        None => Ok(()),
    }
}

/// Records why an invoice lacks documents.
fn set_note(tx: &Tx, tenant: &Tenant, invoice_id: &str, note: &str) -> Result<()> {
    tx.prepare_cached(
        "UPDATE invoices SET documents_note = ?2 WHERE id = ?1 AND company_id = ?3 AND environment = ?4",
    )?
    .execute(params![invoice_id, note, tenant.company_id, tenant.environment])?;
    Ok(())
}

/// The document model of an issued invoice, for a letter about it (a
/// reminder): its frozen rows, with the seller's particulars as they stand.
///
/// Fails with `NotFound` for an invoice the tenant does not have.
pub(crate) fn letter_model(tx: &Tx, tenant: &Tenant, invoice_id: &str) -> Result<Document> {
    let company = company::get(tx, &tenant.company_id)?;
    let at = Issuing {
        company: &company,
        draft_id: None,
        tax_book: 0,
    };
    Ok(build(tx, tenant, invoice_id, &at)?.doc)
}

/// What an invoice filled in bulk says of its documents.
pub const FILLED_IN_BULK: &str = "Filled in bulk without documents.";

/// Marks an invoice issued by a bulk fill as having no documents.
///
/// Fails only on a storage error.
pub(crate) fn filled_in_bulk(tx: &Tx, tenant: &Tenant, invoice_id: &str) -> Result<()> {
    set_note(tx, tenant, invoice_id, FILLED_IN_BULK)
}

/// A stored document of an invoice: its bytes and SHA-256.
pub struct Stored {
    pub format: Format,
    pub content: Vec<u8>,
    pub sha256: String,
}

/// The formats an invoice of the tenant has, in the order of `Format::ALL`,
/// and why it lacks documents, if it does.
///
/// Fails only on a storage error.
pub fn formats(
    conn: &Connection,
    tenant: &Tenant,
    invoice_id: &str,
) -> Result<(Vec<Format>, Option<String>)> {
    let mut stmt = conn.prepare_cached(
        "SELECT format FROM invoice_documents WHERE invoice_id = ?1 AND company_id = ?2 AND environment = ?3",
    )?;
    let names = stmt
        .query_map(
            params![invoice_id, tenant.company_id, tenant.environment],
            |r| r.get::<_, String>(0),
        )?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let mut formats = Vec::new();
    for name in names {
        formats.push(Format::read(&name).ok_or_else(|| {
            Error::internal(format!(
                "invoice_documents of {invoice_id}: format {name:?} cannot be read"
            ))
        })?);
    }
    formats.sort();
    let note: Option<String> = conn
        .prepare_cached(
            "SELECT documents_note FROM invoices WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
        )?
        .query_row(params![invoice_id, tenant.company_id, tenant.environment], |r| r.get(0))
        .optional()?
        .flatten();
    Ok((formats, note))
}

/// The file name a document of the invoice `number` is downloaded as: the
/// number with `/` (and anything else a file name cannot hold) as `-`, and
/// the format's ending (`RE2026-00001.pdf`).
pub fn file_name(number: &str, format: Format) -> String {
    let stem: String = number
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect();
    format!("{stem}.{}", format.extension())
}

/// One document of the invoice `number` of the tenant.
///
/// Fails with `NotFound` for a number the tenant does not have, and with
/// `WrongState`, saying which formats it has, for a format it lacks.
pub fn get(conn: &Connection, tenant: &Tenant, number: &str, format: Format) -> Result<Stored> {
    let invoice = stored_by_number(conn, tenant, number)?;
    let found = conn
        .prepare_cached(
            "SELECT content, sha256 FROM invoice_documents
             WHERE invoice_id = ?1 AND company_id = ?2 AND environment = ?3 AND format = ?4",
        )?
        .query_row(
            params![
                invoice.id,
                tenant.company_id,
                tenant.environment,
                format.as_str()
            ],
            |row| {
                let r = Row::new(row, "invoice_documents");
                Ok((r.get::<Vec<u8>>(0)?, r.get::<String>(1)?))
            },
        )
        .optional()?;
    match found {
        Some((content, sha256)) => Ok(Stored {
            format,
            content,
            sha256,
        }),
        None => {
            let (has, note) = formats(conn, tenant, &invoice.id)?;
            let names: Vec<&str> = has.iter().map(|f| f.as_str()).collect();
            Err(Error::wrong_state(match (names.is_empty(), note) {
                (true, Some(note)) => format!("{number} has no documents: {note}"),
                (true, None) => format!("{number} has no documents."),
                (false, Some(note)) => format!(
                    "{number} has no {} document; it has {}. {note}",
                    format.as_str(),
                    names.join(", ")
                ),
                (false, None) => format!(
                    "{number} has no {} document; it has {} (the customer's e-invoice format at issue decides).",
                    format.as_str(),
                    names.join(", ")
                ),
            }))
        }
    }
}

/// The document model with what else writing needs.
struct Built {
    doc: Document,
    /// The formats besides the PDF (cii always, plus the customer's), or
    /// why the invoice cannot carry XML.
    xml: std::result::Result<Vec<Format>, String>,
    customer_id: String,
}

fn build(tx: &Tx, tenant: &Tenant, invoice_id: &str, at: &Issuing) -> Result<Built> {
    let company = at.company;
    let invoice = stored_by_id(tx, tenant, invoice_id)?;
    let frozen = tx
        .prepare_cached(
            "SELECT buyer_name, buyer_street, buyer_postal_code, buyer_city, buyer_country, buyer_vat_id,
                 draft_id, corrects_id, payment_reference
             FROM invoices WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
        )?
        .query_row(params![invoice_id, tenant.company_id, tenant.environment], |row| {
            let r = Row::new(row, "invoices");
            Ok(Frozen {
                name: r.get(0)?,
                street: r.get(1)?,
                postal_code: r.get(2)?,
                city: r.get(3)?,
                country: r.get(4)?,
                vat_id: r.get(5)?,
                draft_id: r.get(6)?,
                corrects_id: r.get(7)?,
                payment_reference: r.get(8)?,
            })
        })?;
    let customer = customers::get(tx, tenant, &invoice.customer_id)?;
    let credit = invoice.document_type == DocumentType::Correction;
    let sign = if credit { -1 } else { 1 };
    let (preceding, draft_id) = match &frozen.corrects_id {
        Some(original_id) => {
            let original = stored_by_id(tx, tenant, original_id)?;
            let draft_id: Option<String> = tx
                .prepare_cached(
                    "SELECT draft_id FROM invoices WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
                )?
                .query_row(params![original_id, tenant.company_id, tenant.environment], |r| {
                    r.get(0)
                })?;
            (
                Some(Preceding {
                    number: original.number,
                    issued_on: Some(original.issued_on),
                }),
                draft_id,
            )
        }
        None => (None, frozen.draft_id.clone()),
    };
    let references = match &draft_id {
        Some(id) => Some(drafts::references(tx, tenant, id)?),
        None => None,
    };

    let exponent = invoice.currency.exponent();
    let (lines, categorised) = lines(tx, invoice_id, sign, exponent)?;
    let breakdown = breakdown(tx, invoice_id, sign)?;
    let mut doc = assemble(
        company,
        Content {
            type_code: if credit {
                TypeCode::CreditNote
            } else {
                TypeCode::Invoice
            },
            number: invoice.number.clone(),
            issued_on: invoice.issued_on,
            currency: &invoice.currency,
            due_on: invoice.due_on,
            payment_terms: match &preceding {
                Some(corrected) => {
                    credit_terms(Lang::of_seller(company.country.as_str()), corrected)
                }
                None => invoice.payment_sentence.clone(),
            },
            preceding,
            delivered_on: invoice.delivered_on,
            references,
            buyer: Party {
                name: frozen.name.clone(),
                address: Address {
                    street: Some(frozen.street.clone()),
                    postal_code: Some(frozen.postal_code.clone()),
                    city: Some(frozen.city.clone()),
                    country: frozen.country.clone(),
                    ..Address::default()
                },
                vat_id: frozen.vat_id.clone(),
                electronic_address: electronic_address(&customer),
                ..Party::default()
            },
            lines,
            breakdown,
            net: invoice.net * sign,
            tax: invoice.tax * sign,
            gross: invoice.gross * sign,
            tax_book: Some(at.tax_book * sign),
            cash_basis: vat_due::states_cash_basis(tx, &company.id, invoice.issued_on)?,
        },
    );
    // An invoice issued with a creditor reference asks for it instead of
    // its number.
    if doc.payment_reference.is_some() && frozen.payment_reference.is_some() {
        doc.payment_reference = frozen.payment_reference.clone();
    }
    let xml = if exponent > 2 {
        Err(format!(
            "EN 16931 carries amounts with at most two decimals, and {} has {exponent}; the PDF carries no XML.",
            invoice.currency
        ))
    } else if !categorised {
        Err("A line carries several taxes or none with a VAT category, which EN 16931 cannot carry; the PDF carries no XML.".to_string())
    } else {
        let mut formats = vec![Format::FacturX, Format::Cii];
        match customer.einvoice {
            EinvoiceFormat::Facturx => {}
            EinvoiceFormat::Xrechnung => formats.push(Format::XRechnung),
            EinvoiceFormat::Peppol => formats.push(Format::Peppol),
        }
        Ok(formats)
    };
    Ok(Built {
        doc,
        xml,
        customer_id: invoice.customer_id,
    })
}

/// What a document says besides the seller, from an issued invoice's
/// frozen rows or from a draft as it stands, with amounts as the document
/// shows them (a correction's positive).
pub(super) struct Content<'a> {
    pub(super) type_code: TypeCode,
    pub(super) number: String,
    pub(super) issued_on: Date,
    pub(super) currency: &'a Currency,
    pub(super) due_on: Date,
    pub(super) payment_terms: String,
    pub(super) preceding: Option<Preceding>,
    pub(super) delivered_on: Date,
    pub(super) references: Option<drafts::References>,
    pub(super) buyer: Party,
    pub(super) lines: Vec<Line>,
    pub(super) breakdown: Vec<Breakdown>,
    pub(super) net: i64,
    pub(super) tax: i64,
    pub(super) gross: i64,
    /// The VAT in the company's currency, when known.
    pub(super) tax_book: Option<i64>,
    /// Whether it states that the company is taxed on payments received
    /// (`vat_due::states_cash_basis`).
    pub(super) cash_basis: bool,
}

/// The document model: the seller from the company's particulars as they
/// stand, the rest from `c`.
pub(super) fn assemble(company: &Company, c: Content) -> Document {
    let p = &company.particulars;
    let country = company.country.as_str();
    let credit = c.type_code == TypeCode::CreditNote;
    let legal_info = legal_info(company);
    let mut notes = Vec::new();
    if let Some(text) = registration_note(company, legal_info.as_ref()) {
        notes.push(Note {
            subject: Some("REG".to_string()),
            text,
        });
    }
    if c.cash_basis {
        notes.push(Note {
            subject: Some("TXD".to_string()),
            text: cash_vat::STATEMENT.to_string(),
        });
    }
    let accounting_tax = c
        .tax_book
        .filter(|_| *c.currency != company.currency && jurisdiction::in_eu(country))
        .map(|amount| AccountingTax {
            currency: company.currency.as_str().to_string(),
            exponent: company.currency.exponent(),
            amount,
        });
    let buyer_address = c.buyer.address.clone();
    // The buyer pays giving the invoice's number; a credit note (and a
    // draft, which has none) is not paid.
    let payment_reference = (!credit && !c.number.is_empty()).then(|| c.number.clone());
    Document {
        type_code: c.type_code,
        number: c.number,
        issued_on: c.issued_on,
        specification: None,
        currency: c.currency.as_str().to_string(),
        exponent: c.currency.exponent(),
        accounting_tax,
        due_on: Some(c.due_on),
        payment_terms: Some(c.payment_terms),
        buyer_reference: c
            .references
            .as_ref()
            .and_then(|r| r.buyer_reference.clone()),
        order_reference: c
            .references
            .as_ref()
            .and_then(|r| r.order_reference.clone()),
        contract_reference: None,
        project_reference: None,
        preceding: c.preceding,
        delivered_on: Some(c.delivered_on),
        deliver_to: c
            .lines
            .iter()
            .any(|l| l.category == Category::K)
            .then_some(buyer_address),
        period: c
            .references
            .as_ref()
            .and_then(|r| r.period)
            .map(|p| Period {
                from: Some(p.from),
                to: Some(p.to),
            }),
        notes,
        seller: Party {
            name: company.seller_name().to_string(),
            trading_name: None,
            identifier: None,
            address: Address {
                street: p.street.clone(),
                postal_code: p.postal_code.clone(),
                city: p.city.clone(),
                country: country.to_string(),
                ..Address::default()
            },
            vat_id: p.vat_id.clone(),
            tax_number: p.tax_number.clone(),
            registration: p.registration.clone(),
            legal_info,
            electronic_address: p.electronic_address.as_ref().map(|a| ElectronicAddress {
                scheme: a.scheme.clone(),
                value: a.value.clone(),
            }),
            contact: Contact {
                name: p.contact_name.clone(),
                phone: p.contact_phone.clone(),
                email: p.contact_email.clone(),
            },
        },
        buyer: c.buyer,
        tax_representative: None,
        payee: None,
        payment_means: None,
        payment_reference,
        transfer: p.iban.as_ref().filter(|_| !credit).map(|iban| Transfer {
            iban: iban.as_str().to_string(),
            bic: p.bic.as_ref().map(|b| b.as_str().to_string()),
            account_holder: Some(
                p.account_holder
                    .clone()
                    .unwrap_or_else(|| company.seller_name().to_string()),
            ),
        }),
        card: None,
        direct_debit: None,
        lines: c.lines,
        allowances: Vec::new(),
        breakdown: c.breakdown,
        attachments: Vec::new(),
        line_total: c.net,
        allowance_total: 0,
        charge_total: 0,
        net: c.net,
        tax: c.tax,
        gross: c.gross,
        paid: 0,
        rounding: 0,
        due: c.gross,
    }
}

/// The buyer's electronic address (BT-49) as the documents carry it.
pub(super) fn electronic_address(customer: &customers::Customer) -> Option<ElectronicAddress> {
    customer
        .electronic_address
        .as_ref()
        .map(|a| ElectronicAddress {
            scheme: a.scheme.clone(),
            value: a.value.clone(),
        })
}

struct Frozen {
    name: String,
    street: String,
    postal_code: String,
    city: String,
    country: String,
    vat_id: Option<String>,
    draft_id: Option<String>,
    corrects_id: Option<String>,
    /// The creditor reference the invoice was issued with (BT-83).
    payment_reference: Option<String>,
}

/// The lines as the documents show them (a correction's made positive), and
/// whether each carries a VAT category.
fn lines(
    conn: &Connection,
    invoice_id: &str,
    sign: i64,
    exponent: u8,
) -> Result<(Vec<Line>, bool)> {
    let mut stmt = conn.prepare_cached(
        "SELECT description, quantity, unit_price, net, unit, vat_category, vat_rate
         FROM invoice_lines WHERE invoice_id = ?1 ORDER BY seq",
    )?;
    let rows = stmt.query_map([invoice_id], |row| {
        let r = Row::new(row, "invoice_lines");
        Ok((
            r.get::<String>(0)?,
            r.get::<String>(1)?,
            r.get::<i64>(2)?,
            r.get::<i64>(3)?,
            r.get::<String>(4)?,
            r.get::<Option<String>>(5)?,
            r.get::<Option<Decimal>>(6)?,
        ))
    })?;
    let mut out = Vec::new();
    let mut categorised = true;
    for row in rows {
        let (name, quantity, price, net, unit, category, rate) = row?;
        let unreadable = |what: &str| {
            Error::internal(format!(
                "invoice_lines of {invoice_id}: {what} cannot be read"
            ))
        };
        let quantity = Decimal::parse("quantity", quantity.trim_start_matches('-'))
            .map_err(|_| unreadable("quantity"))?;
        let category = match category.as_deref() {
            None => None,
            Some(code) => Some(Category::read(code).ok_or_else(|| unreadable("vat_category"))?),
        };
        let (category, rate) = match (category, rate) {
            (Some(c), Some(r)) => (c, r),
            _ => {
                categorised = false;
                (Category::O, Decimal::from_int(0))
            }
        };
        out.push(line_of(
            out.len(),
            name,
            quantity,
            unit,
            Decimal::from_minor(price, exponent),
            net * sign,
            (category, rate),
        ));
    }
    Ok((out, categorised))
}

/// The `n`th line (from 0) as kontor's documents carry it: numbered from 1,
/// with no allowances, charges or item particulars.
pub(super) fn line_of(
    n: usize,
    name: String,
    quantity: Decimal,
    unit: String,
    price: Decimal,
    net: i64,
    (category, rate): (Category, Decimal),
) -> Line {
    Line {
        id: (n + 1).to_string(),
        name,
        description: None,
        note: None,
        seller_item_id: None,
        order_line: None,
        quantity,
        unit,
        price,
        gross_price: None,
        base_quantity: None,
        allowances: Vec::new(),
        period: None,
        net,
        category,
        rate,
    }
}

/// The VAT breakdown per (category, rate) from the frozen tax totals, with
/// the exemption written only where the category takes one (never for Z).
fn breakdown(conn: &Connection, invoice_id: &str, sign: i64) -> Result<Vec<Breakdown>> {
    let mut stmt = conn.prepare_cached(
        "SELECT rate, reason, base, amount, vat_category FROM invoice_taxes WHERE invoice_id = ?1 ORDER BY seq",
    )?;
    let rows = stmt.query_map([invoice_id], |row| {
        let r = Row::new(row, "invoice_taxes");
        Ok((
            r.get::<Decimal>(0)?,
            r.get::<Option<String>>(1)?,
            r.get::<i64>(2)?,
            r.get::<i64>(3)?,
            r.get::<Option<String>>(4)?,
        ))
    })?;
    let codes: Vec<(Category, Decimal, Option<String>)> = conn
        .prepare_cached(
            "SELECT vat_category, vat_rate, exemption_code FROM invoice_lines
             WHERE invoice_id = ?1 AND vat_category IS NOT NULL ORDER BY seq",
        )?
        .query_map([invoice_id], |row| {
            let r = Row::new(row, "invoice_lines");
            Ok((
                r.get::<String>(0)?,
                r.get::<Option<Decimal>>(1)?,
                r.get::<Option<String>>(2)?,
            ))
        })?
        .filter_map(|row| match row {
            Ok((code, Some(rate), exemption)) => {
                Category::read(&code).map(|c| Ok((c, rate, exemption)))
            }
            Ok(_) => None,
            Err(e) => Some(Err(e)),
        })
        .collect::<rusqlite::Result<_>>()?;
    let mut out = Vec::new();
    for row in rows {
        let (rate, reason, base, amount, category) = row?;
        let Some(category) = category.as_deref().and_then(Category::read) else {
            // Taxes without a category: the invoice carries no XML; the PDF
            // shows them from the lines' categories it has.
            continue;
        };
        let code = codes
            .iter()
            .find(|(c, r, _)| *c == category && *r == rate)
            .and_then(|(_, _, code)| code.clone());
        out.push(breakdown_entry(
            category,
            rate,
            reason,
            base * sign,
            amount * sign,
            code,
        ));
    }
    Ok(out)
}

/// One entry of the VAT breakdown, with the exemption written only where
/// the category takes one (never for Z), and a reason that only repeats
/// the code not written twice.
pub(super) fn breakdown_entry(
    category: Category,
    rate: Decimal,
    reason: Option<String>,
    base: i64,
    amount: i64,
    code: Option<String>,
) -> Breakdown {
    let writes = category.needs_reason();
    let reason = reason.filter(|r| writes && Some(r) != code.as_ref());
    Breakdown {
        category,
        rate,
        base,
        amount,
        reason,
        reason_code: code.filter(|_| writes),
    }
}

/// BT-33: the managing directors (§35a GmbHG); the registration with its
/// court is BT-30.
fn legal_info(company: &Company) -> Option<String> {
    let directors = company.particulars.managing_directors.as_ref()?;
    Some(match Lang::of_seller(company.country.as_str()) {
        Lang::De => format!("Geschäftsführung: {directors}"),
        Lang::En => format!("Managing directors: {directors}"),
    })
}

/// The `REG` note: the seller's name, registration and managing directors
/// in one sentence, as a reader of the XML alone sees them.
fn registration_note(company: &Company, legal_info: Option<&String>) -> Option<String> {
    let parts: Vec<&String> = company
        .particulars
        .registration
        .iter()
        .chain(legal_info)
        .collect();
    (!parts.is_empty()).then(|| {
        let parts: Vec<&str> = parts.iter().map(|p| p.as_str()).collect();
        format!("{}, {}", company.seller_name(), parts.join("; "))
    })
}

/// The payment terms of a correction: it names the invoice it corrects.
fn credit_terms(language: Lang, preceding: &Preceding) -> String {
    let number = &preceding.number;
    let on = |lang| {
        preceding
            .issued_on
            .map(|day| locale::date(lang, day))
            .unwrap_or_default()
    };
    match language {
        // "Rechnungskorrektur", not "Gutschrift": in German VAT law the
        // latter names a buyer's self-billing (§14 Abs. 2 UStG).
        Lang::De => format!(
            "Korrektur der Rechnung {number} vom {}; der Betrag wird verrechnet oder erstattet.",
            on(Lang::De)
        ),
        Lang::En => format!(
            "Credit note for invoice {number} of {}; the amount is set off or refunded.",
            on(Lang::En)
        ),
    }
}

/// What the law asks of every invoice beyond EN 16931 (in Germany §14
/// Abs. 4 UStG, in the EU Art. 226 of the VAT Directive): the seller's full
/// name and address and its VAT id or tax number.
fn particulars(company: &Company) -> Vec<Finding> {
    let mut out = Vec::new();
    let p = &company.particulars;
    let country = company.country.as_str();
    let rule = if country == "DE" {
        "§14 UStG"
    } else if jurisdiction::in_eu(country) {
        "Art. 226 VAT Directive"
    } else {
        "Invoice particulars"
    };
    let mut need = |flag: &'static str, what: Particular, missing: bool| {
        if missing {
            out.push(Finding {
                rule,
                subject: Subject::Seller(flag),
                problem: Said::from(said::Issue::Missing {
                    whose: said::Party::Seller,
                    what,
                }),
            });
        }
    };
    need(
        "--legal-name",
        Particular::LegalName,
        p.legal_name.is_none(),
    );
    need("--street", Particular::Street, p.street.is_none());
    need(
        "--postal-code",
        Particular::PostalCode,
        p.postal_code.is_none(),
    );
    need("--city", Particular::City, p.city.is_none());
    need(
        "--vat-id",
        Particular::VatIdOrTaxNumber,
        p.vat_id.is_none() && p.tax_number.is_none(),
    );
    out
}

/// A finding as the refusal a person reads, with where to fix it.
fn refusal(finding: &Finding, at: &Issuing, customer_id: &str) -> Violation {
    let company = &at.company.id;
    let draft = at.draft_id.unwrap_or("DRF");
    let fix = match finding.subject {
        Subject::Seller(flag) => said::Issue::FixSeller {
            company: company.to_string(),
            flag: flag.to_string(),
        },
        Subject::Buyer(flag) => said::Issue::FixBuyer {
            customer: customer_id.to_string(),
            flag: flag.to_string(),
        },
        Subject::Draft(flag) => said::Issue::FixDraft {
            draft: draft.to_string(),
            flag: flag.to_string(),
        },
        Subject::Lines => said::Issue::FixLines {
            draft: draft.to_string(),
        },
        Subject::Figures => said::Issue::Fault,
    };
    Violation::whole(said::Issue::Finding {
        rule: finding.rule.to_string(),
        problem: Box::new(finding.problem.clone()),
    })
    .hint(fix)
}
