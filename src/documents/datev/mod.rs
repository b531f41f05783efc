//! The DATEV-Format (EXTF) files a German tax adviser imports into DATEV:
//! a `Buchungsstapel` (category 21, format version 13) of bookings and the
//! `Debitoren/Kreditoren` (category 16, format version 5) of the personal
//! accounts, both under header version 700. CSV with `;`, amounts with a
//! decimal comma and no grouping, text in double quotes (a quote doubled),
//! CRLF, Windows-1252 (a character it lacks is written `?`), `Belegdatum`
//! as DDMM with the year in the header's dates. Written from a model the
//! books fill; nothing here reads storage.
//!
//! Here: the model (header, bookings, personal accounts), `bookings_file`
//! and `partners_file` with their header and rows, `document_field` (the
//! Belegfeld 1 rule) and the encoding (`windows_1252`).
//!
//! - `columns.rs`: the two formats' column headings in their documented
//!   order and which columns are text.

pub mod columns;

use jiff::civil::{Date, DateTime};

use crate::rules::skr::{Chart, GL_LENGTH};

/// The EXTF header version (*Versionsnummer*).
pub const HEADER_VERSION: u32 = 700;
/// The `Buchungsstapel` format version.
pub const BOOKINGS_VERSION: u32 = 13;
/// The `Debitoren/Kreditoren` format version.
pub const PARTNERS_VERSION: u32 = 5;
/// The most bookings one batch holds; a longer export is split.
pub const BATCH_LIMIT: usize = 99_999;

/// What the header of both files says about the client and the export.
#[derive(Debug, Clone)]
pub struct Client {
    /// The moment of writing (*Erzeugt am*), to the millisecond.
    pub created: DateTime,
    /// Who exported (*Exportiert von*), at most 25 characters.
    pub exported_by: String,
    /// The adviser's number (*Beraternummer*), 1001–9999999.
    pub adviser: u32,
    /// The client's number (*Mandantennummer*), 1–99999.
    pub client: u32,
    /// The first day of the fiscal year the batch lies in.
    pub fiscal_year_start: Date,
    pub chart: Chart,
    /// The book currency (*WKZ*).
    pub currency: String,
}

/// Debit or credit (*Soll/Haben*) of the booking's `account`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DebitCredit {
    Debit,
    Credit,
}

impl DebitCredit {
    fn letter(self) -> &'static str {
        match self {
            DebitCredit::Debit => "S",
            DebitCredit::Credit => "H",
        }
    }
}

/// One booking (*Buchungssatz*): `amount` on `account` on `side`, against
/// `contra`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Booking {
    /// Minor units of the book currency, positive.
    pub amount: i64,
    pub side: DebitCredit,
    pub account: u32,
    pub contra: u32,
    /// The BU-Schlüssel, when the booking needs one.
    pub bu: Option<&'static str>,
    pub date: Date,
    /// The document's number; written by `document_field`'s rule.
    pub document: String,
    /// The document a credit note corrects (*Belegfeld 2*, 12 characters).
    pub document2: String,
    /// *Buchungstext*, 60 characters.
    pub text: String,
    /// The other party's VAT id for an intra-community supply or service
    /// (*EU-Land u. UStID (Bestimmung)*, 15 characters).
    pub vat_id: Option<String>,
    /// The document's own date when it is booked on another day (a late
    /// bill): written as *Beleginfo - Art 1* "Rechnungsdatum" (20 characters at most) and
    /// *Beleginfo - Inhalt 1* `DD.MM.YYYY`, beside *Belegdatum* (the day
    /// it is booked, by which DATEV files it into its period).
    pub document_date: Option<Date>,
    /// *Abw. Versteuerungsart* (field 42): `I` for a booking taxed on
    /// payments received, `S` for one taxed on invoices, when the booking's
    /// method is to hold whatever the client's master data say.
    pub method: Option<&'static str>,
}

/// A batch of bookings over `from..=to`, final or preliminary.
#[derive(Debug, Clone)]
pub struct Batch<'a> {
    pub client: &'a Client,
    pub from: Date,
    pub to: Date,
    /// `Festschreibung` 1: the period is closed; else 0 and "vorläufig"
    /// in the header's `Bezeichnung`.
    pub is_final: bool,
    pub bookings: &'a [Booking],
}

/// A personal account (*Debitor* or *Kreditor*).
#[derive(Debug, Clone, Default)]
pub struct Partner {
    pub account: u32,
    pub name: String,
    /// The VAT id, country prefix included (`FR12345678901`).
    pub vat_id: Option<String>,
    pub street: String,
    pub postal_code: String,
    pub city: String,
    /// ISO 3166 alpha-2.
    pub country: String,
    pub email: Option<String>,
    pub iban: Option<String>,
    /// kontor's partner number (`K10001`), as *Kunden-/Lief.-Nr.*
    pub number: String,
}

/// `Belegfeld 1` as DATEV accepts it: at most 36 characters, each an ASCII
/// letter, a digit or one of `$ % & * + - /`; any other character becomes
/// `-`.
pub fn document_field(number: &str) -> String {
    number
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "$%&*+-/".contains(c) {
                c
            } else {
                '-'
            }
        })
        .take(36)
        .collect()
}

/// An amount of minor units (exponent 2) with a decimal comma: `1234,56`.
pub fn amount(minor: i64) -> String {
    crate::rules::money::minor_text(minor, 2, ',')
}

/// The header's `Bezeichnung` of a batch (30 characters at most).
pub fn label(from: Date, to: Date, is_final: bool) -> String {
    let period = format!("{}-{}", from.strftime("%d.%m."), to.strftime("%d.%m.%y"));
    if is_final {
        format!("Buchungen {period}")
    } else {
        format!("{period} vorläufig")
    }
}

/// A line of fields being written: text quoted, numbers bare.
struct Line {
    out: String,
    count: usize,
}

impl Line {
    fn new() -> Line {
        Line {
            out: String::with_capacity(512),
            count: 0,
        }
    }

    fn next(&mut self) {
        if self.count > 0 {
            self.out.push(';');
        }
        self.count += 1;
    }

    fn bare(&mut self, value: &str) {
        self.next();
        self.out.push_str(value);
    }

    fn text(&mut self, value: &str, max: usize) {
        self.next();
        self.out.push('"');
        for c in value.chars().take(max) {
            match c {
                '"' => self.out.push_str("\"\""),
                '\r' | '\n' | '\t' => self.out.push(' '),
                c => self.out.push(c),
            }
        }
        self.out.push('"');
    }

    fn end(mut self, file: &mut String) {
        self.out.push_str("\r\n");
        file.push_str(&self.out);
    }
}

fn ymd(date: Date) -> String {
    date.strftime("%Y%m%d").to_string()
}

/// The header line (31 fields).
fn header(
    client: &Client,
    category: u32,
    format: &str,
    version: u32,
    batch: Option<(&Batch<'_>, &str)>,
) -> String {
    let mut line = Line::new();
    line.text("EXTF", 4);
    line.bare(&HEADER_VERSION.to_string());
    line.bare(&category.to_string());
    line.text(format, 40);
    line.bare(&version.to_string());
    line.bare(&format!(
        "{}{:03}",
        client.created.strftime("%Y%m%d%H%M%S"),
        client.created.subsec_nanosecond() / 1_000_000
    ));
    line.bare("");
    line.text("RE", 2);
    line.text(&client.exported_by, 25);
    line.text("", 10);
    line.bare(&client.adviser.to_string());
    line.bare(&client.client.to_string());
    line.bare(&ymd(client.fiscal_year_start));
    line.bare(&GL_LENGTH.to_string());
    match batch {
        Some((b, label)) => {
            line.bare(&ymd(b.from));
            line.bare(&ymd(b.to));
            line.text(label, 30);
            line.text("", 2);
            line.bare("1");
            line.bare("0");
            line.bare(if b.is_final { "1" } else { "0" });
            line.text(&client.currency, 3);
        }
        None => {
            line.bare("");
            line.bare("");
            line.text("", 30);
            line.text("", 2);
            line.bare("");
            line.bare("");
            line.bare("");
            line.text("", 3);
        }
    }
    line.bare("");
    line.text("", 0);
    line.bare("");
    line.bare("");
    line.text(client.chart.datev_code(), 2);
    line.bare("");
    line.bare("");
    line.text("", 0);
    line.text("", 0);
    let mut out = String::new();
    line.end(&mut out);
    out
}

fn headings(names: &[String], out: &mut String) {
    out.push_str(&names.join(";"));
    out.push_str("\r\n");
}

/// The `Buchungsstapel` file of a batch, in Windows-1252.
pub fn bookings_file(batch: &Batch<'_>) -> Vec<u8> {
    let label = label(batch.from, batch.to, batch.is_final);
    let mut out = header(
        batch.client,
        21,
        "Buchungsstapel",
        BOOKINGS_VERSION,
        Some((batch, &label)),
    );
    out.reserve(batch.bookings.len() * 300);
    headings(&columns::bookings(), &mut out);
    for b in batch.bookings {
        booking(b, batch.is_final, &mut out);
    }
    windows_1252(&out)
}

/// *Beleginfo - Art 1* of a late bill: what its *Inhalt 1* holds.
const ORIGINAL_DATE: &str = "Rechnungsdatum";

fn booking(b: &Booking, is_final: bool, out: &mut String) {
    let mut line = Line::new();
    for n in 1..=125usize {
        match n {
            1 => line.bare(&amount(b.amount)),
            2 => line.text(b.side.letter(), 1),
            7 => line.bare(&b.account.to_string()),
            8 => line.bare(&b.contra.to_string()),
            9 => line.text(b.bu.unwrap_or(""), 4),
            10 => line.bare(&b.date.strftime("%d%m").to_string()),
            11 => line.text(&document_field(&b.document), 36),
            12 => line.text(&document_field(&b.document2), 12),
            14 => line.text(&b.text, 60),
            21 if b.document_date.is_some() => line.text(ORIGINAL_DATE, 20),
            22 => match b.document_date {
                Some(d) => line.text(&d.strftime("%d.%m.%Y").to_string(), 210),
                None => line.text("", 0),
            },
            40 => line.text(b.vat_id.as_deref().unwrap_or(""), 15),
            42 => line.text(b.method.unwrap_or(""), 1),
            114 => line.bare(if is_final { "1" } else { "0" }),
            n if columns::booking_text(n) => line.text("", 0),
            _ => line.bare(""),
        }
    }
    line.end(out);
}

/// The `Debitoren/Kreditoren` file of `partners`, in Windows-1252.
pub fn partners_file(client: &Client, partners: &[Partner]) -> Vec<u8> {
    let mut out = header(client, 16, "Debitoren/Kreditoren", PARTNERS_VERSION, None);
    headings(&columns::partners(), &mut out);
    for p in partners {
        let (eu_country, eu_number) = match p.vat_id.as_deref() {
            Some(id) if id.len() > 2 && id.is_char_boundary(2) => (&id[..2], &id[2..]),
            _ => ("", ""),
        };
        let mut line = Line::new();
        for n in 1..=254usize {
            match n {
                1 => line.bare(&p.account.to_string()),
                2 => line.text(&p.name, 50),
                // Adressattyp 2: a company.
                7 => line.text("2", 1),
                8 => line.text(&p.name, 15),
                9 => line.text(eu_country, 2),
                10 => line.text(eu_number, 13),
                // Adressart STR: a street address.
                15 => line.text(if p.street.is_empty() { "" } else { "STR" }, 3),
                16 => line.text(&p.street, 36),
                18 => line.text(&p.postal_code, 10),
                19 => line.text(&p.city, 30),
                20 => line.text(&p.country, 2),
                33 => line.text(p.email.as_deref().unwrap_or(""), 60),
                44 => line.text(if p.iban.is_some() { &p.country } else { "" }, 2),
                45 => line.text(p.iban.as_deref().unwrap_or(""), 34),
                49 => line.text(if p.iban.is_some() { "1" } else { "" }, 1),
                99 => line.text(&p.number, 15),
                n if columns::partner_text(n) => line.text("", 0),
                _ => line.bare(""),
            }
        }
        line.end(&mut out);
    }
    windows_1252(&out)
}

/// `text` in Windows-1252; a character the code page lacks becomes `?`.
pub fn windows_1252(text: &str) -> Vec<u8> {
    if text.is_ascii() {
        return text.as_bytes().to_vec();
    }
    let mut out = Vec::with_capacity(text.len());
    let mut buffer = [0u8; 4];
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c as u8);
            continue;
        }
        let (bytes, _, unmappable) = encoding_rs::WINDOWS_1252.encode(c.encode_utf8(&mut buffer));
        if unmappable || bytes.len() != 1 {
            out.push(b'?');
        } else {
            out.push(bytes[0]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client() -> Client {
        Client {
            created: DateTime::constant(2026, 11, 2, 9, 30, 5, 7_000_000),
            exported_by: "Erika Müller".into(),
            adviser: 29098,
            client: 55003,
            fiscal_year_start: Date::constant(2026, 1, 1),
            chart: Chart::Skr03,
            currency: "EUR".into(),
        }
    }

    fn lines(bytes: &[u8]) -> Vec<String> {
        let (text, _, bad) = encoding_rs::WINDOWS_1252.decode(bytes);
        assert!(!bad);
        let text = text.into_owned();
        assert!(text.ends_with("\r\n"));
        assert!(
            !text.replace("\r\n", "").contains('\n'),
            "every line ends CRLF"
        );
        text.trim_end_matches("\r\n")
            .split("\r\n")
            .map(str::to_string)
            .collect()
    }

    /// Splits a line at `;` outside quotes, keeping the quotes.
    fn fields(line: &str) -> Vec<String> {
        let mut out = vec![String::new()];
        let mut quoted = false;
        for c in line.chars() {
            match c {
                '"' => {
                    quoted = !quoted;
                    out.last_mut().unwrap().push(c);
                }
                ';' if !quoted => out.push(String::new()),
                c => out.last_mut().unwrap().push(c),
            }
        }
        out
    }

    fn sample() -> Booking {
        Booking {
            amount: 11_900,
            side: DebitCredit::Debit,
            account: 10_000,
            contra: 8400,
            bu: None,
            date: Date::constant(2026, 10, 5),
            document: "RE2026-00001".into(),
            document2: String::new(),
            text: "Rechnung an Bäckerei \"Süß\" – 5 €".into(),
            vat_id: None,
            document_date: None,
            method: None,
        }
    }

    /// The batch of October 2026 of `bookings`.
    fn october<'a>(client: &'a Client, bookings: &'a [Booking], is_final: bool) -> Batch<'a> {
        Batch {
            client,
            from: Date::constant(2026, 10, 1),
            to: Date::constant(2026, 10, 31),
            is_final,
            bookings,
        }
    }

    #[test]
    fn the_bookings_header_is_the_documented_one_field_by_field() {
        let c = client();
        let bookings = [sample()];
        let lines = lines(&bookings_file(&october(&c, &bookings, true)));
        assert_eq!(
            lines[0],
            "\"EXTF\";700;21;\"Buchungsstapel\";13;20261102093005007;;\"RE\";\"Erika Müller\";\"\";29098;55003;20260101;4;20261001;20261031;\"Buchungen 01.10.-31.10.26\";\"\";1;0;1;\"EUR\";;\"\";;;\"03\";;;\"\";\"\""
        );
        assert_eq!(fields(&lines[0]).len(), 31);
        assert_eq!(lines[1], columns::bookings().join(";"));
        let row = fields(&lines[2]);
        assert_eq!(row.len(), 125);
        assert_eq!(
            &row[..11],
            &[
                "119,00",
                "\"S\"",
                "\"\"",
                "",
                "",
                "\"\"",
                "10000",
                "8400",
                "\"\"",
                "0510",
                "\"RE2026-00001\""
            ]
        );
        assert_eq!(row[13], "\"Rechnung an Bäckerei \"\"Süß\"\" – 5 €\"");
        assert_eq!(row[113], "1");
    }

    #[test]
    fn umlauts_the_euro_sign_and_the_dash_are_single_windows_1252_bytes() {
        let c = client();
        let bookings = [sample()];
        let bytes = bookings_file(&october(&c, &bookings, false));
        let needle = |b: &[u8]| bytes.windows(b.len()).any(|w| w == b);
        assert!(needle(b"B\xe4ckerei"), "ä is 0xE4");
        assert!(needle(b"S\xfc\xdf"), "ü ß are 0xFC 0xDF");
        assert!(needle(b"\x96 5 \x80"), "– is 0x96, € is 0x80");
        assert!(!needle("€".as_bytes()), "no UTF-8 left");
    }

    #[test]
    fn a_preliminary_batch_says_so_in_the_header() {
        let c = client();
        let batch = Batch {
            client: &c,
            from: Date::constant(2026, 10, 1),
            to: Date::constant(2026, 12, 31),
            is_final: false,
            bookings: &[],
        };
        let header = fields(&lines(&bookings_file(&batch))[0]);
        assert_eq!(header[16], "\"01.10.-31.12.26 vorläufig\"");
        assert_eq!(header[20], "0");
        assert!(label(batch.from, batch.to, false).chars().count() <= 30);
    }

    #[test]
    fn belegfeld_1_keeps_the_allowed_characters_and_36_of_them() {
        assert_eq!(document_field("RE2026-00001"), "RE2026-00001");
        assert_eq!(document_field("R 12/2026_ä.x$%&*+"), "R-12/2026---x$%&*+");
        assert_eq!(document_field(&"A".repeat(40)).len(), 36);
    }

    #[test]
    fn amounts_have_a_decimal_comma_and_no_grouping() {
        assert_eq!(amount(123_456_789), "1234567,89");
        assert_eq!(amount(5), "0,05");
        assert_eq!(amount(-120), "-1,20");
    }

    #[test]
    fn the_partners_file_has_the_documented_header_and_254_columns() {
        let c = client();
        let partners = [Partner {
            account: 10_000,
            name: "Möbel Gruber GmbH".into(),
            vat_id: Some("ATU12345678".into()),
            street: "Hauptstraße 1".into(),
            postal_code: "1010".into(),
            city: "Wien".into(),
            country: "AT".into(),
            email: None,
            iban: Some("AT611904300234573201".into()),
            number: "K10001".into(),
        }];
        let lines = lines(&partners_file(&c, &partners));
        assert_eq!(
            lines[0],
            "\"EXTF\";700;16;\"Debitoren/Kreditoren\";5;20261102093005007;;\"RE\";\"Erika Müller\";\"\";29098;55003;20260101;4;;;\"\";\"\";;;;\"\";;\"\";;;\"03\";;;\"\";\"\""
        );
        assert_eq!(lines[1], columns::partners().join(";"));
        let row = fields(&lines[2]);
        assert_eq!(row.len(), 254);
        assert_eq!(&row[..3], &["10000", "\"Möbel Gruber GmbH\"", "\"\""]);
        assert_eq!(row[8], "\"AT\"");
        assert_eq!(row[9], "\"U12345678\"");
        assert_eq!(row[44], "\"AT611904300234573201\"");
        assert_eq!(row[98], "\"K10001\"");
    }

    #[test]
    fn characters_outside_the_code_page_become_question_marks() {
        assert_eq!(windows_1252("a€ł😀"), b"a\x80??");
    }
}
