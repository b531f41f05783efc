//! The GoBD data medium of a fiscal year (*Datenträgerüberlassung*, Z3):
//! the journal, the accounts with their chart numbers, the partners, the
//! invoices and their lines, the bills, the payments, the imported bank
//! lines and the register of fixed assets as CSV files with their
//! `index.xml`, and the issued and received
//! documents unchanged. Every table is written, an empty one as its header
//! row. An act: the export is
//! recorded with its audit row; the files are handed back to be written.

use jiff::civil::Date;
use rusqlite::{params, Connection};
use serde::Serialize;

use crate::books::audit::Actor;
use crate::books::chart_accounts;
use crate::books::company;
use crate::books::export::bookings::Numbers;
use crate::books::export::made::{self, Export, ExportKind};
use crate::books::export::numbers::Book;
use crate::books::export::settings;
use crate::books::ledger::Account;
use crate::documents::gobd::{self, Column, ColumnKind, Supplier, Table, Value};
use crate::error::said::Input;
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
    /// The ZIP's name as offered for download.
    pub file_name: String,
    #[serde(skip)]
    pub files: Vec<(String, Vec<u8>)>,
    /// The files as one ZIP, as kept.
    #[serde(skip)]
    pub zip: Vec<u8>,
}

#[derive(Debug, Clone, Serialize)]
pub struct TableCount {
    pub file: String,
    pub rows: usize,
}

/// How a column's value is read: from the query's column at the same
/// position as the table's column.
#[derive(Clone, Copy)]
enum Read {
    Text,
    Date,
    Int,
    /// Minor units in the book currency.
    BookAmount,
    /// Minor units in the currency the query's column at this position names.
    AmountIn(usize),
}

impl Read {
    /// The column's kind in `index.xml` (an amount of a document's own
    /// currency is declared with two decimals, as most currencies have).
    fn kind(self, book_exp: u8) -> ColumnKind {
        match self {
            Read::Text => ColumnKind::Text,
            Read::Date => ColumnKind::Date,
            Read::Int => ColumnKind::Number(0),
            Read::BookAmount => ColumnKind::Number(book_exp),
            Read::AmountIn(_) => ColumnKind::Number(2),
        }
    }

    fn value(self, r: &rusqlite::Row, i: usize, book_exp: u8) -> rusqlite::Result<Value> {
        Ok(match self {
            Read::Text => Value::Text(r.get::<_, Option<String>>(i)?.unwrap_or_default()),
            Read::Date => match r.get::<_, Option<String>>(i)? {
                Some(d) => d.parse::<Date>().map(Value::Date).unwrap_or(Value::Empty),
                None => Value::Empty,
            },
            Read::Int => Value::Int(r.get(i)?),
            Read::BookAmount => Value::Amount(r.get(i)?, book_exp),
            Read::AmountIn(currency) => {
                let exp = r
                    .get::<_, String>(currency)
                    .ok()
                    .and_then(|c| crate::rules::iso::Currency::parse("currency", &c).ok())
                    .map_or(2, |c| c.exponent());
                Value::Amount(r.get(i)?, exp)
            }
        })
    }
}

/// A table of the medium as data: its file, name and description, how many
/// of its first columns are its key, its columns (name, description and
/// how each is read, side by side) and the query whose columns they read in
/// the same order, run with (company, environment, from, to).
struct Spec {
    file: &'static str,
    name: &'static str,
    description: &'static str,
    keys: usize,
    columns: &'static [(&'static str, &'static str, Read)],
    sql: &'static str,
}

use Read::{AmountIn, BookAmount, Date as Day, Int, Text};

const JOURNAL: Spec = Spec {
    file: "journal.csv",
    name: "Journal",
    description: "Buchungsjournal: jede Buchungszeile in Buchwährung",
    keys: 1,
    columns: &[
        ("seq", "Laufende Nummer", Int),
        ("entry", "Beleg (Vorgang)", Text),
        ("posted_on", "Buchungsdatum", Day),
        ("account", "Konto (kontor)", Text),
        ("detail", "Unterkonto: Partner, Bankkonto oder Steuerschlüssel", Text),
        ("chart", "Gewähltes Sachkonto (Schlüssel oder eigene Kontonummer)", Text),
        ("debit", "Soll", BookAmount),
        ("credit", "Haben", BookAmount),
    ],
    sql: "SELECT seq, entry, posted_on, account, detail, chart, debit, credit FROM journal
          WHERE company_id = ?1 AND environment = ?2 AND posted_on BETWEEN ?3 AND ?4 ORDER BY posted_on, seq",
};

const PARTNERS: Spec = Spec {
    file: "partners.csv",
    name: "Geschaeftspartner",
    description: "Kunden und Lieferanten",
    keys: 1,
    columns: &[
        ("id", "Kennung", Text),
        ("number", "Partnernummer", Text),
        ("name", "Name", Text),
        ("street", "Strasse", Text),
        ("postal_code", "Postleitzahl", Text),
        ("city", "Ort", Text),
        ("country", "Land", Text),
        ("vat_id", "USt-IdNr.", Text),
        ("customer", "Kunde (1/0)", Int),
        ("supplier", "Lieferant (1/0)", Int),
    ],
    sql: "SELECT id, number, name, street, postal_code, city, country, vat_id, is_customer, is_supplier
          FROM customers WHERE company_id = ?1 AND environment = ?2 AND (?3 IS NOT NULL OR ?4 IS NOT NULL)
          ORDER BY seq",
};

const INVOICES: Spec = Spec {
    file: "invoices.csv",
    name: "Ausgangsrechnungen",
    description: "Ausgestellte Rechnungen und Stornorechnungen",
    keys: 1,
    columns: &[
        ("id", "Kennung", Text),
        ("number", "Rechnungsnummer", Text),
        ("document_type", "Art (INVOICE/CORRECTION)", Text),
        ("customer_id", "Kunde", Text),
        ("buyer_name", "Name des Kunden", Text),
        ("buyer_vat_id", "USt-IdNr. des Kunden", Text),
        ("issued_on", "Rechnungsdatum", Day),
        ("delivered_on", "Leistungsdatum", Day),
        ("due_on", "Fällig am", Day),
        ("currency", "Währung", Text),
        ("net", "Netto", AmountIn(9)),
        ("tax", "Steuer", AmountIn(9)),
        ("gross", "Brutto", AmountIn(9)),
        ("gross_book", "Brutto in Buchwährung", BookAmount),
        ("corrects", "Korrigiert Rechnung", Text),
    ],
    sql: "SELECT i.id, i.number, i.document_type, i.customer_id, i.buyer_name, i.buyer_vat_id, i.issued_on,
                 i.delivered_on, i.due_on, i.currency, i.net, i.tax, i.gross, i.gross_book, c.number
          FROM invoices i LEFT JOIN invoices c ON c.id = i.corrects_id
          WHERE i.company_id = ?1 AND i.environment = ?2 AND i.issued_on BETWEEN ?3 AND ?4 ORDER BY i.issued_on, i.seq",
};

const INVOICE_LINES: Spec = Spec {
    file: "invoice_lines.csv",
    name: "Rechnungspositionen",
    description: "Die Positionen der ausgestellten Rechnungen",
    keys: 1,
    columns: &[
        ("seq", "Laufende Nummer", Int),
        ("invoice_id", "Rechnung", Text),
        ("description", "Bezeichnung", Text),
        ("quantity", "Menge", Text),
        ("unit", "Einheit", Text),
        ("unit_price", "Einzelpreis", AmountIn(9)),
        ("net", "Netto", AmountIn(9)),
        ("vat_category", "USt-Kategorie", Text),
        ("vat_rate", "USt-Satz", Text),
    ],
    // The invoice's currency follows the columns written (position 9).
    sql: "SELECT l.seq, l.invoice_id, l.description, l.quantity, l.unit, l.unit_price, l.net, l.vat_category,
                 l.vat_rate, i.currency
          FROM invoice_lines l JOIN invoices i ON i.id = l.invoice_id
          WHERE i.company_id = ?1 AND i.environment = ?2 AND i.issued_on BETWEEN ?3 AND ?4 ORDER BY i.issued_on, l.seq",
};

const BILLS: Spec = Spec {
    file: "bills.csv",
    name: "Eingangsrechnungen",
    description: "Erfasste Eingangsrechnungen und Gutschriften von Lieferanten",
    keys: 1,
    columns: &[
        ("id", "Kennung", Text),
        ("kind", "Art (bill/credit)", Text),
        ("supplier_id", "Lieferant", Text),
        ("supplier_name", "Name des Lieferanten", Text),
        ("document_number", "Belegnummer", Text),
        ("document_date", "Belegdatum", Day),
        ("due_on", "Fällig am", Day),
        ("currency", "Währung", Text),
        ("net", "Netto", AmountIn(7)),
        ("tax", "Steuer", AmountIn(7)),
        ("gross", "Brutto", AmountIn(7)),
        ("gross_book", "Brutto in Buchwährung", BookAmount),
        ("posted_on", "Buchungsdatum", Day),
        ("receipt", "Beleg (Datei unter documents/received/)", Text),
    ],
    sql: "SELECT p.id, p.kind, p.supplier_id, s.name, p.document_number, p.document_date, p.due_on, p.currency,
                 p.net, p.tax, p.gross, p.gross_book, p.posted_on, coalesce(f.file_name, '')
          FROM purchases p JOIN customers s ON s.id = p.supplier_id
          LEFT JOIN received_files f ON f.id = p.receipt_file_id
          WHERE p.company_id = ?1 AND p.environment = ?2 AND p.posted_on BETWEEN ?3 AND ?4
          ORDER BY p.posted_on, p.seq",
};

const PAYMENTS: Spec = Spec {
    file: "payments.csv",
    name: "Zahlungen",
    description: "Zahlungseingänge auf Rechnungen und Zahlungen auf Eingangsrechnungen",
    keys: 1,
    columns: &[
        ("id", "Kennung", Text),
        ("direction", "Richtung (in/out)", Text),
        ("document", "Bezahlter Beleg", Text),
        ("paid_on", "Zahlungsdatum", Day),
        ("method", "Zahlungsweg", Text),
        ("reference", "Verwendungszweck", Text),
        ("currency", "Währung", Text),
        ("amount", "Betrag", AmountIn(6)),
        ("amount_book", "Betrag in Buchwährung", BookAmount),
    ],
    sql: "SELECT y.id, y.direction, coalesce(i.number, p.document_number), y.paid_on, y.method, y.reference,
                 y.currency, y.amount, y.amount_book
          FROM payments y LEFT JOIN invoices i ON i.id = y.invoice_id LEFT JOIN purchases p ON p.id = y.purchase_id
          WHERE y.company_id = ?1 AND y.environment = ?2 AND y.paid_on BETWEEN ?3 AND ?4 ORDER BY y.paid_on, y.seq",
};

const BANK_LINES: Spec = Spec {
    file: "bank_lines.csv",
    name: "Bankumsaetze",
    description: "Umsätze der Bankkonten aus den eingelesenen Kontoauszügen",
    keys: 1,
    columns: &[
        ("id", "Kennung", Text),
        ("account", "Bankkonto", Text),
        ("booked_on", "Buchungstag", Day),
        ("currency", "Währung", Text),
        ("amount", "Betrag", AmountIn(3)),
        ("counterparty", "Gegenseite", Text),
        ("counterparty_iban", "IBAN der Gegenseite", Text),
        ("purpose", "Verwendungszweck", Text),
        ("state", "Stand (unmatched/suggested/settled/ignored)", Text),
    ],
    sql: "SELECT l.id, coalesce(a.iban, a.bank_code || '/' || a.account_number), l.booked_on, l.currency, l.amount,
                 l.counterparty_name, l.counterparty_iban, l.remittance, l.state
          FROM bank_lines l
          JOIN bank_accounts a ON a.id = l.bank_account_id AND a.company_id = l.company_id AND a.environment = l.environment
          WHERE l.company_id = ?1 AND l.environment = ?2 AND l.booked_on BETWEEN ?3 AND ?4
            AND l.state NOT IN ('preliminary', 'replaced')
          ORDER BY l.booked_on, l.seq",
};

/// The accounts table's columns: its rows are worked out from the journal
/// and the chart, not read by a query.
const ACCOUNT_COLUMNS: &[(&str, &str, Read)] = &[
    ("account", "Konto (kontor)", Text),
    ("detail", "Unterkonto", Text),
    ("number", "Kontonummer (DATEV)", Int),
    ("name", "Kontobezeichnung", Text),
    ("class", "Kontenart", Text),
    ("debit", "Soll im Jahr", BookAmount),
    ("credit", "Haben im Jahr", BookAmount),
];

impl Spec {
    /// The table's columns as `index.xml` declares them.
    fn columns(&self, book_exp: u8) -> Vec<Column> {
        self.columns
            .iter()
            .map(|(name, description, read)| Column {
                name,
                description,
                kind: read.kind(book_exp),
            })
            .collect()
    }

    /// The table with its rows, read from the tenant's books of `from..=to`.
    fn table(
        &self,
        conn: &Connection,
        tenant: &Tenant,
        from: Date,
        to: Date,
        book_exp: u8,
    ) -> Result<Table> {
        let mut stmt = conn.prepare(self.sql)?;
        let rows = stmt
            .query_map(
                params![tenant.company_id, tenant.environment, from, to],
                |r| {
                    self.columns
                        .iter()
                        .enumerate()
                        .map(|(i, (_, _, read))| read.value(r, i, book_exp))
                        .collect()
                },
            )?
            .collect::<rusqlite::Result<Vec<Vec<Value>>>>()?;
        Ok(table(
            self.file,
            self.name,
            self.description,
            self.columns(book_exp),
            self.keys,
            rows,
        ))
    }
}

/// The register's columns (*Anlagenverzeichnis*): each asset the year saw
/// with its figures, worked out by `books::assets::register`.
const ASSET_COLUMNS: &[(&str, &str, Read)] = &[
    ("asset", "Kennung", Text),
    ("name", "Bezeichnung", Text),
    ("class", "Anlagenklasse (AfA-Tabelle)", Text),
    ("reference", "Fundstelle in der AfA-Tabelle", Text),
    (
        "method",
        "Abschreibung (straight_line/one_year/low_value/pool)",
        Text,
    ),
    ("life_months", "Nutzungsdauer in Monaten", Int),
    ("account", "Anlagenkonto (DATEV)", Int),
    ("acquired_on", "Anschaffungsdatum", Day),
    ("disposed_on", "Abgangsdatum", Day),
    ("cost", "Anschaffungskosten", BookAmount),
    (
        "cost_start",
        "Anschaffungskosten zu Beginn des Jahres",
        BookAmount,
    ),
    ("additions", "Zugänge", BookAmount),
    ("disposals", "Abgänge (Anschaffungskosten)", BookAmount),
    (
        "cost_end",
        "Anschaffungskosten am Ende des Jahres",
        BookAmount,
    ),
    (
        "accumulated_start",
        "Kumulierte Abschreibungen zu Beginn",
        BookAmount,
    ),
    ("depreciation", "Abschreibungen des Jahres", BookAmount),
    (
        "accumulated_disposals",
        "Abschreibungen auf Abgänge",
        BookAmount,
    ),
    (
        "accumulated_end",
        "Kumulierte Abschreibungen am Ende",
        BookAmount,
    ),
    (
        "book_value_start",
        "Buchwert zu Beginn des Jahres",
        BookAmount,
    ),
    ("book_value_end", "Buchwert am Ende des Jahres", BookAmount),
    ("proceeds", "Veräußerungserlös (netto)", BookAmount),
];

/// The register of the fiscal year that starts in `year` as a table.
///
/// Fails only on a storage error.
fn asset_register(
    conn: &Connection,
    tenant: &Tenant,
    chart: skr::Chart,
    year: i32,
    book_exp: u8,
) -> Result<Table> {
    let register = crate::books::assets::register(conn, tenant, year)?;
    let mut rows = Vec::with_capacity(register.assets.len());
    for a in &register.assets {
        let number = chart_accounts::resolve(conn, &tenant.company_id, chart, &a.account)?
            .map_or(Value::Empty, |c| Value::Int(i64::from(c.number)));
        let f = &a.figures;
        let amount = |v: i64| Value::Amount(v, book_exp);
        rows.push(vec![
            Value::Text(a.asset.clone()),
            Value::Text(a.name.clone()),
            Value::Text(a.class.to_string()),
            Value::Text(
                crate::rules::afa::class_of(a.class)
                    .map_or("", |c| c.reference)
                    .to_string(),
            ),
            Value::Text(a.method.to_string()),
            Value::Int(i64::from(a.life_months)),
            number,
            Value::Date(a.acquired_on),
            a.disposed_on.map_or(Value::Empty, Value::Date),
            amount(a.cost),
            amount(f.cost_start),
            amount(f.additions),
            amount(f.disposals),
            amount(f.cost_end),
            amount(f.accumulated_start),
            amount(f.depreciation),
            amount(f.accumulated_disposals),
            amount(f.accumulated_end),
            amount(f.book_value_start),
            amount(f.book_value_end),
            amount(f.proceeds),
        ]);
    }
    Ok(table(
        "assets.csv",
        "Anlagenverzeichnis",
        "Anlagenverzeichnis (Anlagenspiegel) des Jahres: je Anlagegut Anschaffungskosten, Zu- und Abgänge, Abschreibungen und Buchwerte",
        ASSET_COLUMNS
            .iter()
            .map(|(name, description, read)| Column {
                name,
                description,
                kind: read.kind(book_exp),
            })
            .collect(),
        1,
        rows,
    ))
}

fn table(
    file: &str,
    name: &str,
    description: &str,
    columns: Vec<Column>,
    keys: usize,
    rows: Vec<Vec<Value>>,
) -> Table {
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
        .ok_or_else(|| {
            Error::invalid(
                "year",
                Input::YearRange {
                    got: year.to_string(),
                },
            )
        })?;
    let to = start.end_of(from);
    let is_final = crate::books::ledger::is_final(tx, tenant, to)?;
    let book_exp = company.currency.exponent();
    let journal = JOURNAL.table(tx, tenant, from, to, book_exp)?;
    // The accounts: each ledger account and detail the year posted to, with
    // its number in the company's chart.
    let book = Book::load(tx, tenant, settings.chart)?;
    let mut account_rows = Vec::new();
    {
        let mut stmt = tx.prepare(
            "SELECT account, detail, chart, sum(debit), sum(credit) FROM journal
             WHERE company_id = ?1 AND environment = ?2 AND posted_on BETWEEN ?3 AND ?4
             GROUP BY account, detail, chart ORDER BY account, detail, chart",
        )?;
        let found = stmt
            .query_map(
                params![tenant.company_id, tenant.environment, from, to],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, i64>(3)?,
                        r.get::<_, i64>(4)?,
                    ))
                },
            )?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        for (account, detail, chosen, debit, credit) in found {
            let class = Account::parse(&account)
                .map(|a| format!("{:?}", a.class()))
                .unwrap_or_default();
            // The account a person chose for the line (a bill's cost),
            // else the one the ledger account and detail map to.
            let (number, name) =
                match chart_accounts::resolve(tx, &tenant.company_id, settings.chart, &chosen)? {
                    Some(a) => (Some(a.number), a.name_de),
                    None => {
                        let key = if skr::keyed(&account) {
                            detail.as_str()
                        } else {
                            ""
                        };
                        let row = skr::row(&account, key, company.particulars.small_business);
                        (
                            book.number(&account, &detail)
                                .or_else(|| row.map(|r| r.number(settings.chart))),
                            row.map(|r| r.account().name_de.to_string())
                                .unwrap_or_default(),
                        )
                    }
                };
            account_rows.push(vec![
                Value::Text(account.clone()),
                Value::Text(detail.clone()),
                number.map_or(Value::Empty, |n| Value::Int(i64::from(n))),
                Value::Text(name),
                Value::Text(class),
                Value::Amount(debit, book_exp),
                Value::Amount(credit, book_exp),
            ]);
        }
    }
    let accounts = table(
        "accounts.csv",
        "Konten",
        &format!(
            "Konten des Jahres mit ihrer Nummer im {}",
            settings.chart.as_str().to_uppercase()
        ),
        ACCOUNT_COLUMNS
            .iter()
            .map(|(name, description, read)| Column {
                name,
                description,
                kind: read.kind(book_exp),
            })
            .collect(),
        2,
        account_rows,
    );
    let partners = PARTNERS.table(tx, tenant, from, to, book_exp)?;
    let invoices = INVOICES.table(tx, tenant, from, to, book_exp)?;
    let invoice_lines = INVOICE_LINES.table(tx, tenant, from, to, book_exp)?;
    let bills = BILLS.table(tx, tenant, from, to, book_exp)?;
    let payments = PAYMENTS.table(tx, tenant, from, to, book_exp)?;
    let bank_lines = BANK_LINES.table(tx, tenant, from, to, book_exp)?;
    let assets = asset_register(tx, tenant, settings.chart, i32::from(year), book_exp)?;
    let tables = [
        journal,
        accounts,
        partners,
        invoices,
        invoice_lines,
        bills,
        payments,
        bank_lines,
        assets,
    ];
    let supplier = Supplier {
        name: company
            .particulars
            .legal_name
            .clone()
            .unwrap_or_else(|| company.name.clone()),
        location: [
            company.particulars.postal_code.clone(),
            company.particulars.city.clone(),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" "),
        comment: format!(
            "kontor, Datenträgerüberlassung {} bis {}{}",
            from.strftime("%d.%m.%Y"),
            to.strftime("%d.%m.%Y"),
            if is_final {
                ""
            } else {
                " (vorläufig: Bücher nicht abgeschlossen)"
            }
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
            .query_map(
                params![tenant.company_id, tenant.environment, from, to],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, Vec<u8>>(2)?,
                    ))
                },
            )?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        for (number, format, bytes) in found {
            let safe: String = number
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                        c
                    } else {
                        '-'
                    }
                })
                .collect();
            let ext = if format == "facturx" { "pdf" } else { "xml" };
            files.push((format!("documents/issued/{safe}_{format}.{ext}"), bytes));
            documents += 1;
        }
    }
    // The received documents of the year's bills, whatever became of them,
    // and the receipts of the bills typed and booked in the year, unchanged,
    // named by the bill's number and id.
    {
        let mut stmt = tx.prepare(
            "SELECT b.document_number, b.id, f.file_name, f.content, b.issued_on AS day FROM bills b
             JOIN received_files f ON f.id = b.file_id AND f.company_id = b.company_id AND f.environment = b.environment
             WHERE b.company_id = ?1 AND b.environment = ?2 AND b.issued_on BETWEEN ?3 AND ?4
             UNION ALL
             SELECT p.document_number, p.id, f.file_name, f.content, p.posted_on AS day FROM purchases p
             JOIN received_files f ON f.id = p.receipt_file_id AND f.company_id = p.company_id
                 AND f.environment = p.environment
             WHERE p.company_id = ?1 AND p.environment = ?2 AND p.posted_on BETWEEN ?3 AND ?4
             ORDER BY day, 2",
        )?;
        let found = stmt
            .query_map(
                params![tenant.company_id, tenant.environment, from, to],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, Vec<u8>>(3)?,
                    ))
                },
            )?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        for (number, id, file_name, bytes) in found {
            let safe: String = number
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                        c
                    } else {
                        '-'
                    }
                })
                .collect();
            let ending = crate::books::export::datev::kept_ending(&file_name, &bytes);
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
    // The medium is kept (and downloaded from the screens) as one ZIP of
    // its files.
    let zone = crate::store::clock::zone(&company.timezone)?;
    let made_at = jiff::Timestamp::now().to_zoned(zone).datetime();
    let zip = crate::documents::archive::zip(&files, made_at)?;
    let file_name = format!(
        "GoBD_{year}{}.zip",
        if is_final { "" } else { "_vorlaeufig" }
    );
    let id = made::record(
        tx,
        tenant,
        actor,
        &Export {
            kind: ExportKind::Gobd,
            from,
            to,
            is_final,
            rows,
        },
        &file_name,
        &zip,
    )?;
    Ok(Medium {
        id,
        from,
        to,
        is_final,
        tables: counts,
        documents,
        file_name,
        files,
        zip,
    })
}
