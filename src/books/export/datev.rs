//! The DATEV export: the journal of a period within one fiscal year as a
//! `Buchungsstapel` on the company's chart and the `Debitoren/Kreditoren`
//! of the partners it names, in one ZIP, with the issued invoices'
//! documents and the received bills' files beside them when asked (each
//! named by its Belegfeld 1). Final
//! when the books are closed through the period's last day, else
//! preliminary (`Festschreibung` 0, "vorläufig" in the header). An act: it
//! gives the partners it meets their account numbers, records the export
//! and its audit row, all in the caller's transaction.

use std::collections::HashMap;

use jiff::civil::Date;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::books::audit::Actor;
use crate::books::company::{self, Company};
use crate::books::export::bookings::{self, Line};
use crate::books::export::made::{self, Export, ExportKind};
use crate::books::export::numbers::Book;
use crate::books::export::settings::{self, Settings};
use crate::books::ledger;
use crate::books::receipts;
use crate::books::tax_methods;
use crate::books::vat::ec_sales::SupplyKind;
use crate::documents::archive;
use crate::documents::datev::{self, Batch, Booking, Client, Partner, BATCH_LIMIT};
use crate::error::said::{self, Input};
use crate::error::{Error, Result, Violations};
use crate::rules::skr;
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::tenant::Tenant;

/// An export as a person asks for it.
#[derive(Debug, Default, Clone)]
pub struct ExportInput {
    pub from: Option<String>,
    pub to: Option<String>,
    /// Add the documents: the issued invoices' and the received bills'.
    pub documents: bool,
}

/// A checked request: a period, with or without the documents.
#[derive(Debug, Clone)]
pub struct ExportRequest {
    pub from: Date,
    pub to: Date,
    pub documents: bool,
}

impl ExportRequest {
    /// Checks the period: two dates `YYYY-MM-DD`, `from` not after `to`.
    ///
    /// Fails with `Invalid` naming `from` or `to`.
    pub fn check(input: ExportInput) -> Result<ExportRequest> {
        let mut v = Violations::new();
        let mut day = |field: &str, text: Option<&str>| match text.map(str::trim) {
            None | Some("") => {
                v.invalid(field, Input::Missing);
                Ok(None)
            }
            Some(t) => v.take(clock::parse_date(field, t)),
        };
        let from = day("from", input.from.as_deref())?;
        let to = day("to", input.to.as_deref())?;
        if let (Some(f), Some(t)) = (from, to) {
            if f > t {
                v.invalid("from", Input::AfterTo { from: f, to: t });
            }
        }
        v.finish()?;
        match (from, to) {
            (Some(from), Some(to)) => Ok(ExportRequest {
                from,
                to,
                documents: input.documents,
            }),
            _ => Err(Error::internal("a checked export lacks a day")),
        }
    }
}

/// What an export made.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Exported {
    pub id: String,
    pub from: Date,
    pub to: Date,
    /// Whether the books are closed through `to` (else preliminary).
    #[serde(rename = "final")]
    pub is_final: bool,
    pub chart: &'static str,
    /// The ZIP's name as offered for download.
    pub file_name: String,
    /// The names of the files in the ZIP, in order.
    pub files: Vec<String>,
    pub bookings: usize,
    pub partners: usize,
    pub documents: usize,
    #[serde(skip)]
    pub zip: Vec<u8>,
}

/// A journal line of the period, with its entry and day.
struct Journal {
    entry: String,
    day: Date,
    account: String,
    detail: String,
    debit: i64,
    credit: i64,
    chart: String,
}

/// The lines of the tenant's journal posted in `from..=to`, entry by entry.
fn journal(conn: &Connection, tenant: &Tenant, from: Date, to: Date) -> Result<Vec<Journal>> {
    let mut stmt = conn.prepare_cached(
        "SELECT entry, posted_on, account, detail, debit, credit, chart FROM journal
         WHERE company_id = ?1 AND environment = ?2 AND posted_on BETWEEN ?3 AND ?4
         ORDER BY posted_on, seq",
    )?;
    let rows = stmt.query_map(
        params![tenant.company_id, tenant.environment, from, to],
        |r| {
            let row = crate::store::row::Row::new(r, "journal");
            Ok(Journal {
                entry: row.get(0)?,
                day: row.get(1)?,
                account: row.get(2)?,
                detail: row.get(3)?,
                debit: row.get(4)?,
                credit: row.get(5)?,
                chart: row.get(6)?,
            })
        },
    )?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// What the bookings of one entry say of their document.
#[derive(Debug, Clone, Default)]
pub struct Document {
    /// Belegfeld 1 before its rule: the invoice's or bill's number.
    pub number: String,
    /// The invoice a credit note corrects.
    pub corrects: String,
    pub text: String,
    /// The buyer's VAT id, on the sales to businesses in other member states.
    pub vat_id: Option<String>,
    /// The invoice's id, when the entry issued one (its documents go along).
    pub invoice: Option<String>,
    /// The bill's id, when the entry booked one (its received file, if it
    /// came as an e-invoice, goes along).
    pub bill: Option<String>,
    /// A bill's own date, when it is booked on another day (Belegdatum is
    /// the posting date; this goes into Beleginfo 1).
    pub document_date: Option<Date>,
}

/// The document the entry `entry` names: an invoice or correction
/// (`inv_`), a payment (`pay_`), a bill (`pur_`), a credit applied
/// (`cra_`), a bank line's amount booked or settled without a payment
/// (`bse_`: the document's number a difference settles, with the
/// invoice's buyer VAT id, else the bank's reference of the line), a fixed
/// asset's entries (`ast_`, `dep_`, `dsp_`, `sal_`), an invoice's tax not
/// yet due falling due when the company is taxed on invoices again
/// (`vsw_`); another entry is named by its id.
///
/// Fails only on a storage error.
pub fn document(conn: &Connection, tenant: &Tenant, entry: &str) -> Result<Document> {
    let t = (&tenant.company_id, &tenant.environment);
    let found = match entry.split('_').next() {
        Some("inv") => conn
            .prepare_cached(
                "SELECT i.number, coalesce(c.number, ''), i.buyer_name, i.buyer_vat_id, i.document_type
                 FROM invoices i LEFT JOIN invoices c ON c.id = i.corrects_id
                 WHERE i.id = ?1 AND i.company_id = ?2 AND i.environment = ?3",
            )?
            .query_row(params![entry, t.0, t.1], |r| {
                let kind: String = r.get(4)?;
                let number: String = r.get(0)?;
                let what = if kind == "CORRECTION" { "Stornorechnung" } else { "Rechnung" };
                Ok(Document {
                    text: format!("{what} {number} {}", r.get::<_, String>(2)?),
                    number,
                    corrects: r.get(1)?,
                    vat_id: r.get(3)?,
                    invoice: Some(entry.to_string()),
                    bill: None,
                    document_date: None,
                })
            })
            .optional()?,
        Some("pay") => conn
            .prepare_cached(
                "SELECT coalesce(i.number, p.document_number), coalesce(i.buyer_name, s.name), y.direction
                 FROM payments y
                 LEFT JOIN invoices i ON i.id = y.invoice_id
                 LEFT JOIN purchases p ON p.id = y.purchase_id
                 LEFT JOIN customers s ON s.id = p.supplier_id
                 WHERE y.id = ?1 AND y.company_id = ?2 AND y.environment = ?3",
            )?
            .query_row(params![entry, t.0, t.1], |r| {
                let number: String = r.get(0)?;
                let direction: String = r.get(2)?;
                let what = if direction == "in" { "Zahlungseingang" } else { "Zahlung" };
                Ok(Document {
                    text: format!("{what} {number} {}", r.get::<_, String>(1)?),
                    number,
                    ..Document::default()
                })
            })
            .optional()?,
        Some("pur") => conn
            .prepare_cached(
                "SELECT p.document_number, s.name, p.kind, p.document_date, p.posted_on
                 FROM purchases p JOIN customers s ON s.id = p.supplier_id
                 WHERE p.id = ?1 AND p.company_id = ?2 AND p.environment = ?3",
            )?
            .query_row(params![entry, t.0, t.1], |r| {
                let number: String = r.get(0)?;
                let kind: String = r.get(2)?;
                let what = if kind == "credit" { "Gutschrift" } else { "Eingangsrechnung" };
                let (dated, posted): (Date, Date) = (r.get(3)?, r.get(4)?);
                Ok(Document {
                    text: format!("{what} {number} {}", r.get::<_, String>(1)?),
                    number,
                    bill: Some(entry.to_string()),
                    document_date: (dated != posted).then_some(dated),
                    ..Document::default()
                })
            })
            .optional()?,
        Some("ast" | "dep" | "dsp" | "sal") => asset_document(conn, tenant, entry)?,
        // Taxed on invoices from a day on: an invoice's tax not yet due falls due.
        Some("vsw") => conn
            .prepare_cached(
                "SELECT i.number, i.buyer_name FROM vat_moves m
                 JOIN invoices i ON i.id = m.document_id AND i.company_id = m.company_id
                     AND i.environment = m.environment
                 WHERE m.entry = ?1 AND m.company_id = ?2 AND m.environment = ?3 LIMIT 1",
            )?
            .query_row(params![entry, t.0, t.1], |r| {
                let number: String = r.get(0)?;
                Ok(Document {
                    text: format!("Umstellung Soll-Versteuerung {number} {}", r.get::<_, String>(1)?),
                    number,
                    ..Document::default()
                })
            })
            .optional()?,
        Some("cra") => conn
            .prepare_cached(
                "SELECT b.document_number, c.document_number FROM credit_applications a
                 JOIN purchases b ON b.id = a.bill_id JOIN purchases c ON c.id = a.credit_id
                 WHERE a.id = ?1 AND a.company_id = ?2 AND a.environment = ?3",
            )?
            .query_row(params![entry, t.0, t.1], |r| {
                let number: String = r.get(0)?;
                Ok(Document {
                    text: format!("Gutschrift {} mit {number} verrechnet", r.get::<_, String>(1)?),
                    number,
                    ..Document::default()
                })
            })
            .optional()?,
        Some("bse") => conn
            .prepare_cached(
                "SELECT coalesce(s.number, l.bank_reference, e.bank_reference, l.end_to_end_id, l.id),
                        coalesce(l.counterparty_name, ''), l.remittance, i.buyer_vat_id
                 FROM bank_settlements s JOIN bank_lines l ON l.id = s.line_id
                 LEFT JOIN bank_entries e ON e.id = l.entry_id
                 LEFT JOIN invoices i ON i.id = s.target_id AND s.target_kind = 'invoice'
                     AND i.company_id = s.company_id AND i.environment = s.environment
                 WHERE s.id = ?1 AND s.company_id = ?2 AND s.environment = ?3",
            )?
            .query_row(params![entry, t.0, t.1], |r| {
                let text = ["Bank".to_string(), r.get(1)?, r.get(2)?]
                    .iter()
                    .map(|p| p.trim())
                    .filter(|p| !p.is_empty())
                    .collect::<Vec<_>>()
                    .join(" ");
                Ok(Document {
                    number: r.get(0)?,
                    text,
                    vat_id: r.get(3)?,
                    ..Document::default()
                })
            })
            .optional()?,
        _ => None,
    };
    Ok(found.unwrap_or_else(|| Document {
        number: entry.to_string(),
        text: entry.to_string(),
        ..Document::default()
    }))
}

/// What an asset's entry says of its document: its recording
/// (`Anlagenzugang`, the bill's number where it came from one), a year's
/// depreciation (`AfA`, the asset's id), its disposal (`Anlagenabgang`) and
/// its sale's proceeds (`Anlagenverkauf`, the invoice's number).
///
/// Fails only on a storage error.
fn asset_document(conn: &Connection, tenant: &Tenant, entry: &str) -> Result<Option<Document>> {
    let (sql, what) = match entry.split('_').next() {
        Some("ast") => (
            "SELECT a.name, coalesce(p.document_number, a.id), '' FROM assets a
             LEFT JOIN purchases p ON p.id = a.purchase_id AND p.company_id = a.company_id AND p.environment = a.environment
             WHERE a.id = ?1 AND a.company_id = ?2 AND a.environment = ?3",
            "Anlagenzugang",
        ),
        Some("dep") => (
            "SELECT a.name, a.id, CAST(d.year AS TEXT) FROM asset_depreciations d
             JOIN assets a ON a.id = d.asset_id AND a.company_id = d.company_id AND a.environment = d.environment
             WHERE d.entry = ?1 AND d.company_id = ?2 AND d.environment = ?3",
            "AfA",
        ),
        Some("dsp") => (
            "SELECT a.name, coalesce(i.number, a.id), '' FROM assets a
             LEFT JOIN invoices i ON i.id = a.invoice_id AND i.company_id = a.company_id AND i.environment = a.environment
             WHERE a.disposal_entry = ?1 AND a.company_id = ?2 AND a.environment = ?3",
            "Anlagenabgang",
        ),
        _ => (
            "SELECT a.name, i.number, '' FROM assets a
             JOIN invoices i ON i.id = a.invoice_id AND i.company_id = a.company_id AND i.environment = a.environment
             WHERE a.sale_entry = ?1 AND a.company_id = ?2 AND a.environment = ?3",
            "Anlagenverkauf",
        ),
    };
    Ok(conn
        .prepare_cached(sql)?
        .query_row(params![entry, tenant.company_id, tenant.environment], |r| {
            let (name, number, year): (String, String, String) = (r.get(0)?, r.get(1)?, r.get(2)?);
            let text = [what, year.as_str(), name.as_str()]
                .iter()
                .filter(|p| !p.is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join(" ");
            Ok(Document {
                number,
                text,
                ..Document::default()
            })
        })
        .optional()?)
}

/// Whether the lines of an entry sell to a business in another member
/// state (a sale the EC sales list counts), or grant a discount on such a
/// sale: its bookings carry the buyer's VAT id.
fn to_eu_business(lines: &[Journal]) -> bool {
    lines.iter().any(|l| {
        matches!(l.account.as_str(), "revenue" | "discounts_granted")
            && SupplyKind::of_key(&l.detail).is_some()
    })
}

/// The VAT method of an entry's bookings (*Abw. Versteuerungsart*) for a
/// company that owed VAT on payments received in any period, so that DATEV
/// books each by its own method whatever the client's master data say
/// (field 42 of the Buchungsstapel: "für Buchungen, die in einer von der
/// Mandantenstammdaten-Schlüsselung abweichenden Umsatzsteuerart
/// verarbeitet werden sollen"; DATEV Hilfe-Dokument 1080673: the method
/// lives in the master data): an entry that books output tax not yet due
/// (an invoice, a payment bringing it due, a discount releasing it) `I` on
/// a day taxed on payments, `S` on one taxed on invoices; any other entry
/// of a customer's (a payment or discount of an invoice taxed on issue)
/// `S`, so DATEV moves no tax either; another entry with a tax key (a
/// bill) by its day's method. None for a company always taxed on invoices
/// (its bookings stay as they were) and for an entry of neither.
fn method_of(methods: &[tax_methods::Methods], lines: &[Journal]) -> Option<&'static str> {
    if !methods.iter().any(tax_methods::Methods::is_ist) {
        return None;
    }
    let day = lines.first()?.day;
    let ist = methods
        .iter()
        .rev()
        .find(|m| m.from.is_some_and(|from| from <= day))
        .is_some_and(tax_methods::Methods::is_ist);
    let has = |account: &str| lines.iter().any(|l| l.account == account);
    if has("output_tax_not_due") {
        Some(if ist { "I" } else { "S" })
    } else if has("receivables") {
        Some("S")
    } else if lines.iter().any(|l| skr::keyed(&l.account)) {
        Some(if ist { "I" } else { "S" })
    } else {
        None
    }
}

/// The header's client: the settings, the moment, who exported.
///
/// Fails with `Refused` naming the adviser's or the client's number when
/// the settings lack it.
pub fn client(
    company: &Company,
    settings: &Settings,
    fiscal_year: Date,
    actor: &Actor,
) -> Result<Client> {
    let mut v = Violations::new();
    if settings.datev_adviser.is_none() {
        v.refused("datevAdviser", said::Export::NeededForDatev);
    }
    if settings.datev_client.is_none() {
        v.refused("datevClient", said::Export::NeededForDatev);
    }
    v.finish()?;
    let zone = clock::zone(&company.timezone)?;
    let created = jiff::Timestamp::now().to_zoned(zone).datetime();
    let exported_by = match actor {
        Actor::Person { email, .. } => email.clone(),
        Actor::Key { name, .. } => name.clone(),
        Actor::System => "kontor".to_string(),
    };
    Ok(Client {
        created,
        exported_by: exported_by.chars().take(25).collect(),
        adviser: settings.datev_adviser.unwrap_or_default(),
        client: settings.datev_client.unwrap_or_default(),
        fiscal_year_start: fiscal_year,
        chart: settings.chart,
        currency: company.currency.to_string(),
    })
}

/// Exports the tenant's books of the request's period for the tax adviser.
/// Recorded as `export.datev` by `actor`; partners met for the first time
/// keep the account numbers given here.
///
/// Fails with `Refused` naming `datevAdviser` or `datevClient` when the
/// settings lack them, and `Refused` when the period spans two fiscal years.
pub fn export(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    request: &ExportRequest,
) -> Result<Exported> {
    let company = company::get(tx, &tenant.company_id)?;
    let settings = settings::get(tx, &tenant.company_id)?;
    let (from, to) = (request.from, request.to);
    let fiscal_year = settings.fiscal_year_start.year_of(from);
    let fiscal_end = settings.fiscal_year_start.end_of(fiscal_year);
    let mut v = Violations::new();
    let client = v.take(client(&company, &settings, fiscal_year, actor))?;
    if to > fiscal_end {
        v.refused(
            "to",
            said::Export::NextFiscalYear {
                from: fiscal_year,
                to: fiscal_end,
            },
        );
    }
    v.finish()?;
    let Some(client) = client else {
        return Err(Error::internal("a checked export lacks its client"));
    };
    let is_final = ledger::is_final(tx, tenant, to)?;
    let lines = journal(tx, tenant, from, to)?;
    let mut book = Book::load(tx, tenant, settings.chart)?;
    let small_business = company.particulars.small_business;
    let methods = tax_methods::history(tx, &company.id)?;
    let mut out: Vec<Booking> = Vec::new();
    let mut invoices: Vec<(String, String)> = Vec::new();
    let mut bills: Vec<(String, String)> = Vec::new();
    let mut partners: Vec<(String, &'static str)> = Vec::new();
    let mut seen: std::collections::HashSet<(String, &'static str)> = Default::default();
    let mut start = 0;
    while start < lines.len() {
        let entry = &lines[start].entry;
        let end = lines[start..]
            .iter()
            .position(|l| &l.entry != entry)
            .map_or(lines.len(), |n| start + n);
        let of_entry = &lines[start..end];
        for l in of_entry {
            book.give(&l.account, &l.detail)?;
            let side = match l.account.as_str() {
                "receivables" => Some("receivables"),
                "payables" => Some("payables"),
                _ => None,
            };
            if let Some(side) = side.filter(|_| !l.detail.is_empty()) {
                if seen.insert((l.detail.clone(), side)) {
                    partners.push((l.detail.clone(), side));
                }
            }
        }
        let as_lines: Vec<Line<'_>> = of_entry
            .iter()
            .map(|l| Line {
                account: &l.account,
                detail: &l.detail,
                chart: &l.chart,
                debit: l.debit,
                credit: l.credit,
            })
            .collect();
        // A payment of a client taxed on payments received: DATEV moves the
        // tax itself, told by the BU-Schlüssel of each rate.
        let (as_lines, keys) = bookings::receipt(&as_lines);
        let legs = bookings::legs(settings.chart, small_business, &as_lines, &book)?;
        let pairs = bookings::by_rate(bookings::pairs(&legs), &keys);
        if !pairs.is_empty() {
            let method = method_of(&methods, of_entry);
            let doc = document(tx, tenant, entry)?;
            let vat_id = if to_eu_business(of_entry) {
                doc.vat_id.clone()
            } else {
                None
            };
            if let Some(invoice) = &doc.invoice {
                invoices.push((invoice.clone(), doc.number.clone()));
            }
            if let Some(bill) = &doc.bill {
                bills.push((bill.clone(), doc.number.clone()));
            }
            for p in pairs {
                out.push(Booking {
                    amount: p.amount,
                    side: p.side,
                    account: p.account,
                    contra: p.contra,
                    bu: p.bu,
                    date: of_entry[0].day,
                    document: doc.number.clone(),
                    document2: doc.corrects.clone(),
                    text: doc.text.clone(),
                    vat_id: vat_id.clone(),
                    document_date: doc.document_date,
                    method,
                });
            }
        }
        start = end;
    }
    book.keep(tx, tenant)?;
    let stamp = |d: Date| d.strftime("%Y%m%d").to_string();
    let period = format!("{}_{}", stamp(from), stamp(to));
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let chunks: Vec<&[Booking]> = if out.is_empty() {
        vec![&out[..]]
    } else {
        out.chunks(BATCH_LIMIT).collect()
    };
    let several = chunks.len() > 1;
    for (i, chunk) in chunks.iter().enumerate() {
        let batch = Batch {
            client: &client,
            from,
            to,
            is_final,
            bookings: chunk,
        };
        let name = if several {
            format!("EXTF_Buchungsstapel_{period}_{}.csv", i + 1)
        } else {
            format!("EXTF_Buchungsstapel_{period}.csv")
        };
        files.push((name, datev::bookings_file(&batch)));
    }
    let people = partner_records(tx, tenant, &partners, &book)?;
    files.push((
        format!("EXTF_Debitoren_Kreditoren_{period}.csv"),
        datev::partners_file(&client, &people),
    ));
    let mut documents = 0;
    if request.documents {
        for (invoice, number) in &invoices {
            for (name, bytes) in invoice_documents(tx, tenant, invoice, number)? {
                if !files.iter().any(|(n, _)| *n == name) {
                    files.push((name, bytes));
                    documents += 1;
                }
            }
        }
        for (bill, number) in &bills {
            if let Some((name, bytes)) = received_document(tx, tenant, bill, number, &files)? {
                files.push((name, bytes));
                documents += 1;
            }
        }
    }
    let zip = archive::zip(&files, client.created)?;
    let made = Export {
        kind: ExportKind::Datev,
        from,
        to,
        is_final,
        rows: out.len() as i64,
    };
    let file_name = format!(
        "DATEV_{}_{period}{}.zip",
        client.client,
        if is_final { "" } else { "_vorlaeufig" }
    );
    let id = made::record(tx, tenant, actor, &made, &file_name, &zip)?;
    Ok(Exported {
        id,
        from,
        to,
        is_final,
        chart: settings.chart.as_str(),
        file_name,
        files: files.iter().map(|(n, _)| n.clone()).collect(),
        bookings: out.len(),
        partners: people.len(),
        documents,
        zip,
    })
}

/// The personal accounts of `partners` (id and side), by account number.
fn partner_records(
    conn: &Connection,
    tenant: &Tenant,
    partners: &[(String, &'static str)],
    book: &Book,
) -> Result<Vec<Partner>> {
    use crate::books::export::bookings::Numbers;
    let mut stmt = conn.prepare_cached(
        "SELECT name, vat_id, street, postal_code, city, country, email, iban, number FROM customers
         WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
    )?;
    let mut out = Vec::with_capacity(partners.len());
    for (id, side) in partners {
        let Some(account) = book.number(side, id) else {
            continue;
        };
        let found = stmt
            .query_row(params![id, tenant.company_id, tenant.environment], |r| {
                Ok(Partner {
                    account,
                    name: r.get(0)?,
                    vat_id: r.get(1)?,
                    street: r.get(2)?,
                    postal_code: r.get(3)?,
                    city: r.get(4)?,
                    country: r.get(5)?,
                    email: r.get(6)?,
                    iban: r.get(7)?,
                    number: r.get(8)?,
                })
            })
            .optional()?;
        if let Some(p) = found {
            out.push(p);
        }
    }
    out.sort_by_key(|p| p.account);
    Ok(out)
}

/// An issued invoice's documents, each named by the invoice's Belegfeld 1
/// in the folder `Belege/`: the PDF `.pdf`, an XML `.xml` (a second XML
/// format with its name added).
fn invoice_documents(
    conn: &Connection,
    tenant: &Tenant,
    invoice: &str,
    number: &str,
) -> Result<Vec<(String, Vec<u8>)>> {
    let field = datev::document_field(number);
    let mut stmt = conn.prepare_cached(
        "SELECT format, content FROM invoice_documents
         WHERE invoice_id = ?1 AND company_id = ?2 AND environment = ?3 ORDER BY seq",
    )?;
    let rows = stmt.query_map(
        params![invoice, tenant.company_id, tenant.environment],
        |r| Ok((r.get::<_, String>(0)?, r.get::<_, Vec<u8>>(1)?)),
    )?;
    let mut out: Vec<(String, Vec<u8>)> = Vec::new();
    let mut names: HashMap<String, usize> = HashMap::new();
    for row in rows {
        let (format, bytes) = row?;
        let base = if format == "facturx" {
            format!("Belege/{}.pdf", field.replace('/', "-"))
        } else {
            format!("Belege/{}.xml", field.replace('/', "-"))
        };
        let n = names.entry(base.clone()).or_insert(0);
        *n += 1;
        let name = if *n == 1 {
            base
        } else {
            format!("Belege/{}_{format}.xml", field.replace('/', "-"))
        };
        out.push((name, bytes));
    }
    Ok(out)
}

/// A booked bill's received file or a typed bill's receipt, unchanged,
/// named by the bill's Belegfeld 1 in `Belege/` with the ending of what it
/// is (`.pdf`, `.jpg`, `.png`; an XML `.xml` or its own); a name an issued
/// document (or another bill of the same number) already has gets
/// `_Eingang` (and a count) added. `None` for a bill without either.
fn received_document(
    conn: &Connection,
    tenant: &Tenant,
    bill: &str,
    number: &str,
    taken: &[(String, Vec<u8>)],
) -> Result<Option<(String, Vec<u8>)>> {
    let found = conn
        .prepare_cached(
            "SELECT f.file_name, f.content FROM bills b
             JOIN received_files f ON f.id = b.file_id AND f.company_id = b.company_id AND f.environment = b.environment
             WHERE b.id = ?1 AND b.company_id = ?2 AND b.environment = ?3
             UNION ALL
             SELECT f.file_name, f.content FROM purchases p
             JOIN received_files f ON f.id = p.receipt_file_id AND f.company_id = p.company_id
                 AND f.environment = p.environment
             WHERE p.id = ?1 AND p.company_id = ?2 AND p.environment = ?3
             LIMIT 1",
        )?
        .query_row(params![bill, tenant.company_id, tenant.environment], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, Vec<u8>>(1)?))
        })
        .optional()?;
    let Some((file_name, bytes)) = found else {
        return Ok(None);
    };
    let ending = kept_ending(&file_name, &bytes);
    let field = datev::document_field(number).replace('/', "-");
    let free = |name: &str| !taken.iter().any(|(n, _)| n == name);
    let mut name = format!("Belege/{field}.{ending}");
    let mut n = 1;
    while !free(&name) {
        name = if n == 1 {
            format!("Belege/{field}_Eingang.{ending}")
        } else {
            format!("Belege/{field}_Eingang_{n}.{ending}")
        };
        n += 1;
    }
    Ok(Some((name, bytes)))
}

/// The ending a kept file is written with: a PDF, JPEG or PNG by what it
/// is (`pdf`, `jpg`, `png`), anything else (an e-invoice's XML) by
/// `file_ending`.
pub(crate) fn kept_ending(file_name: &str, bytes: &[u8]) -> String {
    match receipts::media_type(bytes) {
        Some("application/pdf") => "pdf".to_string(),
        Some("image/jpeg") => "jpg".to_string(),
        Some("image/png") => "png".to_string(),
        _ => file_ending(file_name),
    }
}

/// The ending a received file is written with: its own (`xml`, `pdf`) in
/// lower case, or `xml` when its name has none of one to four letters and
/// digits.
pub(crate) fn file_ending(file_name: &str) -> String {
    file_name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .filter(|e| (1..=4).contains(&e.len()) && e.chars().all(|c| c.is_ascii_alphanumeric()))
        .unwrap_or_else(|| "xml".to_string())
}
