//! The GoBD data medium of a fiscal year (*Datenträgerüberlassung*, Z3):
//! the journal, the accounts with their chart numbers, the partners, the
//! invoices and their lines, the bills, the payments and the imported bank
//! lines as CSV files with their `index.xml`, and the issued and received
//! documents unchanged. Every table is written, an empty one as its header
//! row. An act: the export is
//! recorded with its audit row; the files are handed back to be written.

use jiff::civil::Date;
use rusqlite::{params, Connection};
use serde::Serialize;

use crate::books::audit::Actor;
use crate::books::company;
use crate::books::export::bookings::Numbers;
use crate::books::export::made::{self, Export, ExportKind};
use crate::books::export::numbers::Book;
use crate::books::export::settings;
use crate::books::ledger::Account;
use crate::documents::gobd::{self, Column, ColumnKind, Supplier, Table, Value};
use crate::error::{Error, Result};
use crate::rules::skr;
use crate::store::db::Tx;
use crate::store::tenant::Tenant;

/// What a GoBD export made: its files (path within the medium, bytes).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Medium {
    pub id: String,
    pub from: Date,
    pub to: Date,
    #[serde(rename = "final")]
    pub is_final: bool,
    /// Each table's file and its rows.
    pub tables: Vec<TableCount>,
    pub documents: usize,
    #[serde(skip)]
    pub files: Vec<(String, Vec<u8>)>,
}

#[derive(Debug, Clone, Serialize)]
pub struct TableCount {
    pub file: String,
    pub rows: usize,
}

const fn col(name: &'static str, description: &'static str, kind: ColumnKind) -> Column {
    Column {
        name,
        description,
        kind,
    }
}

const TEXT: ColumnKind = ColumnKind::Text;
const DATE: ColumnKind = ColumnKind::Date;
const INT: ColumnKind = ColumnKind::Number(0);

/// Runs `sql` with (company, environment, from, to) and turns each row into
/// values by `read`.
fn rows(
    conn: &Connection,
    tenant: &Tenant,
    from: Date,
    to: Date,
    sql: &str,
    read: impl Fn(&rusqlite::Row) -> rusqlite::Result<Vec<Value>>,
) -> Result<Vec<Vec<Value>>> {
    let mut stmt = conn.prepare(sql)?;
    let out = stmt
        .query_map(params![tenant.company_id, tenant.environment, from, to], |r| read(r))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(out)
}

fn text(r: &rusqlite::Row, i: usize) -> rusqlite::Result<Value> {
    Ok(Value::Text(r.get::<_, Option<String>>(i)?.unwrap_or_default()))
}

fn date(r: &rusqlite::Row, i: usize) -> rusqlite::Result<Value> {
    Ok(match r.get::<_, Option<String>>(i)? {
        Some(d) => d.parse::<Date>().map(Value::Date).unwrap_or(Value::Empty),
        None => Value::Empty,
    })
}

fn int(r: &rusqlite::Row, i: usize) -> rusqlite::Result<Value> {
    Ok(Value::Int(r.get(i)?))
}

/// An amount of minor units with `exp` decimals.
fn amount(r: &rusqlite::Row, i: usize, exp: u8) -> rusqlite::Result<Value> {
    Ok(Value::Amount(r.get(i)?, exp))
}

fn table(file: &str, name: &str, description: &str, columns: Vec<Column>, keys: usize, rows: Vec<Vec<Value>>) -> Table {
    Table {
        file: file.into(),
        name: name.into(),
        description: description.into(),
        columns,
        keys,
        rows,
    }
}

/// Exports the tenant's books of the fiscal year that starts in `year` for
/// a tax audit. Recorded as `export.gobd` by `actor`.
///
/// Fails with `Invalid` naming `year` outside 1900–9999.
pub fn export(tx: &Tx, tenant: &Tenant, actor: &Actor, year: i16) -> Result<Medium> {
    let company = company::get(tx, &tenant.company_id)?;
    let settings = settings::get(tx, &tenant.company_id)?;
    let start = settings.fiscal_year_start;
    let from = Date::new(year, start.month, start.day)
        .ok()
        .filter(|_| (1900..=9998).contains(&year))
        .ok_or_else(|| Error::invalid("year", format!("is a year from 1900 to 9998, not {year}")))?;
    let to = start.end_of(from);
    let is_final = crate::books::ledger::is_final(tx, tenant, to)?;
    let book_exp = company.currency.exponent();
    let money_exp = |r: &rusqlite::Row, i: usize| -> u8 {
        r.get::<_, String>(i)
            .ok()
            .and_then(|c| crate::rules::iso::Currency::parse("currency", &c).ok())
            .map_or(2, |c| c.exponent())
    };
    let journal = table(
        "journal.csv",
        "Journal",
        "Buchungsjournal: jede Buchungszeile in Buchwährung",
        vec![
            col("seq", "Laufende Nummer", INT),
            col("entry", "Beleg (Vorgang)", TEXT),
            col("posted_on", "Buchungsdatum", DATE),
            col("account", "Konto (kontor)", TEXT),
            col("detail", "Unterkonto: Partner, Bankkonto oder Steuerschlüssel", TEXT),
            col("debit", "Soll", ColumnKind::Number(book_exp)),
            col("credit", "Haben", ColumnKind::Number(book_exp)),
        ],
        1,
        rows(
            tx,
            tenant,
            from,
            to,
            "SELECT seq, entry, posted_on, account, detail, debit, credit FROM journal
             WHERE company_id = ?1 AND environment = ?2 AND posted_on BETWEEN ?3 AND ?4 ORDER BY posted_on, seq",
            |r| Ok(vec![int(r, 0)?, text(r, 1)?, date(r, 2)?, text(r, 3)?, text(r, 4)?, amount(r, 5, book_exp)?, amount(r, 6, book_exp)?]),
        )?,
    );
    // The accounts: each ledger account and detail the year posted to, with
    // its number in the company's chart.
    let book = Book::load(tx, tenant, settings.chart)?;
    let mut account_rows = Vec::new();
    {
        let mut stmt = tx.prepare(
            "SELECT account, detail, sum(debit), sum(credit) FROM journal
             WHERE company_id = ?1 AND environment = ?2 AND posted_on BETWEEN ?3 AND ?4
             GROUP BY account, detail ORDER BY account, detail",
        )?;
        let found = stmt
            .query_map(params![tenant.company_id, tenant.environment, from, to], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, i64>(2)?, r.get::<_, i64>(3)?))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        for (account, detail, debit, credit) in found {
            let key = if skr::keyed(&account) { detail.as_str() } else { "" };
            let row = skr::row(&account, key, company.particulars.small_business);
            let number = match book.number(&account, &detail) {
                Some(n) => Some(n),
                None => row.map(|r| r.number(settings.chart)),
            };
            let class = Account::parse(&account).map(|a| format!("{:?}", a.class())).unwrap_or_default();
            account_rows.push(vec![
                Value::Text(account.clone()),
                Value::Text(detail.clone()),
                number.map_or(Value::Empty, |n| Value::Int(n as i64)),
                Value::Text(row.map(|r| r.name.to_string()).unwrap_or_default()),
                Value::Text(class),
                Value::Amount(debit, book_exp),
                Value::Amount(credit, book_exp),
            ]);
        }
    }
    let accounts = table(
        "accounts.csv",
        "Konten",
        &format!("Konten des Jahres mit ihrer Nummer im {}", settings.chart.as_str().to_uppercase()),
        vec![
            col("account", "Konto (kontor)", TEXT),
            col("detail", "Unterkonto", TEXT),
            col("number", "Kontonummer (DATEV)", INT),
            col("name", "Kontobezeichnung", TEXT),
            col("class", "Kontenart", TEXT),
            col("debit", "Soll im Jahr", ColumnKind::Number(book_exp)),
            col("credit", "Haben im Jahr", ColumnKind::Number(book_exp)),
        ],
        2,
        account_rows,
    );
    let partners = table(
        "partners.csv",
        "Geschaeftspartner",
        "Kunden und Lieferanten",
        vec![
            col("id", "Kennung", TEXT),
            col("number", "Partnernummer", TEXT),
            col("name", "Name", TEXT),
            col("street", "Strasse", TEXT),
            col("postal_code", "Postleitzahl", TEXT),
            col("city", "Ort", TEXT),
            col("country", "Land", TEXT),
            col("vat_id", "USt-IdNr.", TEXT),
            col("customer", "Kunde (1/0)", INT),
            col("supplier", "Lieferant (1/0)", INT),
        ],
        1,
        rows(
            tx,
            tenant,
            from,
            to,
            "SELECT id, number, name, street, postal_code, city, country, vat_id, is_customer, is_supplier
             FROM customers WHERE company_id = ?1 AND environment = ?2 AND (?3 IS NOT NULL OR ?4 IS NOT NULL)
             ORDER BY seq",
            |r| Ok(vec![text(r, 0)?, text(r, 1)?, text(r, 2)?, text(r, 3)?, text(r, 4)?, text(r, 5)?, text(r, 6)?, text(r, 7)?, int(r, 8)?, int(r, 9)?]),
        )?,
    );
    let invoices = table(
        "invoices.csv",
        "Ausgangsrechnungen",
        "Ausgestellte Rechnungen und Stornorechnungen",
        vec![
            col("id", "Kennung", TEXT),
            col("number", "Rechnungsnummer", TEXT),
            col("document_type", "Art (INVOICE/CORRECTION)", TEXT),
            col("customer_id", "Kunde", TEXT),
            col("buyer_name", "Name des Kunden", TEXT),
            col("buyer_vat_id", "USt-IdNr. des Kunden", TEXT),
            col("issued_on", "Rechnungsdatum", DATE),
            col("delivered_on", "Leistungsdatum", DATE),
            col("due_on", "Fällig am", DATE),
            col("currency", "Währung", TEXT),
            col("net", "Netto", ColumnKind::Number(2)),
            col("tax", "Steuer", ColumnKind::Number(2)),
            col("gross", "Brutto", ColumnKind::Number(2)),
            col("gross_book", "Brutto in Buchwährung", ColumnKind::Number(book_exp)),
            col("corrects", "Korrigiert Rechnung", TEXT),
        ],
        1,
        rows(
            tx,
            tenant,
            from,
            to,
            "SELECT i.id, i.number, i.document_type, i.customer_id, i.buyer_name, i.buyer_vat_id, i.issued_on,
                    i.delivered_on, i.due_on, i.currency, i.net, i.tax, i.gross, i.gross_book, c.number
             FROM invoices i LEFT JOIN invoices c ON c.id = i.corrects_id
             WHERE i.company_id = ?1 AND i.environment = ?2 AND i.issued_on BETWEEN ?3 AND ?4 ORDER BY i.issued_on, i.seq",
            |r| {
                let exp = money_exp(r, 9);
                Ok(vec![text(r, 0)?, text(r, 1)?, text(r, 2)?, text(r, 3)?, text(r, 4)?, text(r, 5)?, date(r, 6)?, date(r, 7)?, date(r, 8)?, text(r, 9)?, amount(r, 10, exp)?, amount(r, 11, exp)?, amount(r, 12, exp)?, amount(r, 13, book_exp)?, text(r, 14)?])
            },
        )?,
    );
    let invoice_lines = table(
        "invoice_lines.csv",
        "Rechnungspositionen",
        "Die Positionen der ausgestellten Rechnungen",
        vec![
            col("seq", "Laufende Nummer", INT),
            col("invoice_id", "Rechnung", TEXT),
            col("description", "Bezeichnung", TEXT),
            col("quantity", "Menge", TEXT),
            col("unit", "Einheit", TEXT),
            col("unit_price", "Einzelpreis", ColumnKind::Number(2)),
            col("net", "Netto", ColumnKind::Number(2)),
            col("vat_category", "USt-Kategorie", TEXT),
            col("vat_rate", "USt-Satz", TEXT),
        ],
        1,
        rows(
            tx,
            tenant,
            from,
            to,
            "SELECT l.seq, l.invoice_id, l.description, l.quantity, l.unit, l.unit_price, l.net, l.vat_category,
                    l.vat_rate, i.currency
             FROM invoice_lines l JOIN invoices i ON i.id = l.invoice_id
             WHERE i.company_id = ?1 AND i.environment = ?2 AND i.issued_on BETWEEN ?3 AND ?4 ORDER BY i.issued_on, l.seq",
            |r| {
                let exp = money_exp(r, 9);
                Ok(vec![int(r, 0)?, text(r, 1)?, text(r, 2)?, text(r, 3)?, text(r, 4)?, amount(r, 5, exp)?, amount(r, 6, exp)?, text(r, 7)?, text(r, 8)?])
            },
        )?,
    );
    let bills = table(
        "bills.csv",
        "Eingangsrechnungen",
        "Erfasste Eingangsrechnungen und Gutschriften von Lieferanten",
        vec![
            col("id", "Kennung", TEXT),
            col("kind", "Art (bill/credit)", TEXT),
            col("supplier_id", "Lieferant", TEXT),
            col("supplier_name", "Name des Lieferanten", TEXT),
            col("document_number", "Belegnummer", TEXT),
            col("document_date", "Belegdatum", DATE),
            col("due_on", "Fällig am", DATE),
            col("currency", "Währung", TEXT),
            col("net", "Netto", ColumnKind::Number(2)),
            col("tax", "Steuer", ColumnKind::Number(2)),
            col("gross", "Brutto", ColumnKind::Number(2)),
            col("gross_book", "Brutto in Buchwährung", ColumnKind::Number(book_exp)),
        ],
        1,
        rows(
            tx,
            tenant,
            from,
            to,
            "SELECT p.id, p.kind, p.supplier_id, s.name, p.document_number, p.document_date, p.due_on, p.currency,
                    p.net, p.tax, p.gross, p.gross_book
             FROM purchases p JOIN customers s ON s.id = p.supplier_id
             WHERE p.company_id = ?1 AND p.environment = ?2 AND p.document_date BETWEEN ?3 AND ?4
             ORDER BY p.document_date, p.seq",
            |r| {
                let exp = money_exp(r, 7);
                Ok(vec![text(r, 0)?, text(r, 1)?, text(r, 2)?, text(r, 3)?, text(r, 4)?, date(r, 5)?, date(r, 6)?, text(r, 7)?, amount(r, 8, exp)?, amount(r, 9, exp)?, amount(r, 10, exp)?, amount(r, 11, book_exp)?])
            },
        )?,
    );
    let payments = table(
        "payments.csv",
        "Zahlungen",
        "Zahlungseingänge auf Rechnungen und Zahlungen auf Eingangsrechnungen",
        vec![
            col("id", "Kennung", TEXT),
            col("direction", "Richtung (in/out)", TEXT),
            col("document", "Bezahlter Beleg", TEXT),
            col("paid_on", "Zahlungsdatum", DATE),
            col("method", "Zahlungsweg", TEXT),
            col("reference", "Verwendungszweck", TEXT),
            col("currency", "Währung", TEXT),
            col("amount", "Betrag", ColumnKind::Number(2)),
            col("amount_book", "Betrag in Buchwährung", ColumnKind::Number(book_exp)),
        ],
        1,
        rows(
            tx,
            tenant,
            from,
            to,
            "SELECT y.id, y.direction, coalesce(i.number, p.document_number), y.paid_on, y.method, y.reference,
                    y.currency, y.amount, y.amount_book
             FROM payments y LEFT JOIN invoices i ON i.id = y.invoice_id LEFT JOIN purchases p ON p.id = y.purchase_id
             WHERE y.company_id = ?1 AND y.environment = ?2 AND y.paid_on BETWEEN ?3 AND ?4 ORDER BY y.paid_on, y.seq",
            |r| {
                let exp = money_exp(r, 6);
                Ok(vec![text(r, 0)?, text(r, 1)?, text(r, 2)?, date(r, 3)?, text(r, 4)?, text(r, 5)?, text(r, 6)?, amount(r, 7, exp)?, amount(r, 8, book_exp)?])
            },
        )?,
    );
    let bank_lines = table(
        "bank_lines.csv",
        "Bankumsaetze",
        "Umsätze der Bankkonten aus den eingelesenen Kontoauszügen",
        vec![
            col("id", "Kennung", TEXT),
            col("account", "Bankkonto", TEXT),
            col("booked_on", "Buchungstag", DATE),
            col("currency", "Währung", TEXT),
            col("amount", "Betrag", ColumnKind::Number(2)),
            col("counterparty", "Gegenseite", TEXT),
            col("counterparty_iban", "IBAN der Gegenseite", TEXT),
            col("purpose", "Verwendungszweck", TEXT),
            col("state", "Stand (unmatched/suggested/settled/ignored)", TEXT),
        ],
        1,
        rows(
            tx,
            tenant,
            from,
            to,
            "SELECT l.id, coalesce(a.iban, a.bank_code || '/' || a.account_number), l.booked_on, l.currency, l.amount,
                    l.counterparty_name, l.counterparty_iban, l.remittance, l.state
             FROM bank_lines l
             JOIN bank_accounts a ON a.id = l.bank_account_id AND a.company_id = l.company_id AND a.environment = l.environment
             WHERE l.company_id = ?1 AND l.environment = ?2 AND l.booked_on BETWEEN ?3 AND ?4
               AND l.state NOT IN ('preliminary', 'replaced')
             ORDER BY l.booked_on, l.seq",
            |r| {
                let exp = money_exp(r, 3);
                Ok(vec![text(r, 0)?, text(r, 1)?, date(r, 2)?, text(r, 3)?, amount(r, 4, exp)?, text(r, 5)?, text(r, 6)?, text(r, 7)?, text(r, 8)?])
            },
        )?,
    );
    let tables = [journal, accounts, partners, invoices, invoice_lines, bills, payments, bank_lines];
    let supplier = Supplier {
        name: company.particulars.legal_name.clone().unwrap_or_else(|| company.name.clone()),
        location: [company.particulars.postal_code.clone(), company.particulars.city.clone()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" "),
        comment: format!(
            "kontor, Datenträgerüberlassung {} bis {}{}",
            from.strftime("%d.%m.%Y"),
            to.strftime("%d.%m.%Y"),
            if is_final { "" } else { " (vorläufig: Bücher nicht abgeschlossen)" }
        ),
    };
    let refs: Vec<&Table> = tables.iter().collect();
    let index = gobd::index(&supplier, from, to, &refs)
        .map_err(|e| Error::internal(format!("writing index.xml: {e}")))?;
    let mut files: Vec<(String, Vec<u8>)> = vec![
        ("index.xml".to_string(), index),
        (gobd::DTD_FILE.to_string(), gobd::DTD.as_bytes().to_vec()),
    ];
    for t in &tables {
        files.push((t.file.clone(), gobd::csv(t)));
    }
    // The issued documents, unchanged, named by their invoice's number.
    let mut documents = 0;
    {
        let mut stmt = tx.prepare(
            "SELECT i.number, d.format, d.content FROM invoice_documents d JOIN invoices i ON i.id = d.invoice_id
             WHERE d.company_id = ?1 AND d.environment = ?2 AND i.issued_on BETWEEN ?3 AND ?4 ORDER BY i.issued_on, d.seq",
        )?;
        let found = stmt
            .query_map(params![tenant.company_id, tenant.environment, from, to], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, Vec<u8>>(2)?))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        for (number, format, bytes) in found {
            let safe: String = number
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '-' })
                .collect();
            let ext = if format == "facturx" { "pdf" } else { "xml" };
            files.push((format!("documents/issued/{safe}_{format}.{ext}"), bytes));
            documents += 1;
        }
    }
    // The received documents of the year's bills, whatever became of them,
    // unchanged, named by the bill's number and id.
    {
        let mut stmt = tx.prepare(
            "SELECT b.document_number, b.id, f.file_name, f.content FROM bills b
             JOIN received_files f ON f.id = b.file_id AND f.company_id = b.company_id AND f.environment = b.environment
             WHERE b.company_id = ?1 AND b.environment = ?2 AND b.issued_on BETWEEN ?3 AND ?4 ORDER BY b.issued_on, b.seq",
        )?;
        let found = stmt
            .query_map(params![tenant.company_id, tenant.environment, from, to], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?, r.get::<_, Vec<u8>>(3)?))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        for (number, id, file_name, bytes) in found {
            let safe: String = number
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '-' })
                .collect();
            let ending = crate::books::export::datev::file_ending(&file_name);
            files.push((format!("documents/received/{safe}_{id}.{ending}"), bytes));
            documents += 1;
        }
    }
    let counts: Vec<TableCount> = tables
        .iter()
        .map(|t| TableCount {
            file: t.file.clone(),
            rows: t.rows.len(),
        })
        .collect();
    let rows = counts.iter().map(|c| c.rows as i64).sum::<i64>();
    let id = made::record(tx, tenant, actor, &Export { kind: ExportKind::Gobd, from, to, is_final, rows })?;
    Ok(Medium {
        id,
        from,
        to,
        is_final,
        tables: counts,
        documents,
        files,
    })
}
