//! A reader of DATEV EXTF files for the tests, built from DATEV's published
//! column lists (the format description of `Buchungsstapel` version 13 and
//! `Debitoren/Kreditoren` version 5 on developer.datev.de, as its sample
//! files print them), written here again rather than taken from the
//! writer, so that a column the writer drops or moves is seen. Strict:
//! Windows-1252, CRLF after every line, the header's 31 fields, the heading
//! row exactly the published one, every row as wide as the headings, text
//! in quotes, amounts with a decimal comma.

use std::collections::BTreeMap;

/// A file read back.
#[derive(Debug)]
pub struct Extf {
    /// The header's fields, quotes removed.
    pub header: Vec<String>,
    pub headings: Vec<String>,
    /// Each row's fields by heading, quotes removed.
    pub rows: Vec<BTreeMap<String, String>>,
}

/// A booking of a `Buchungsstapel`, as DATEV reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Booking {
    /// Cents, positive.
    pub amount: i64,
    /// `S` or `H`, of `account`.
    pub side: String,
    pub account: u32,
    pub contra: u32,
    pub bu: String,
    /// `DDMM`.
    pub date: String,
    pub document: String,
    pub document2: String,
    pub text: String,
    /// *Beleginfo - Art 1* and *- Inhalt 1*.
    pub info: (String, String),
}

const BOOKING_HEAD: &str = "Umsatz (ohne Soll/Haben-Kz);Soll/Haben-Kennzeichen;WKZ Umsatz;Kurs;Basis-Umsatz;WKZ Basis-Umsatz;Konto;Gegenkonto (ohne BU-Schlüssel);BU-Schlüssel;Belegdatum;Belegfeld 1;Belegfeld 2;Skonto;Buchungstext;Postensperre;Diverse Adressnummer;Geschäftspartnerbank;Sachverhalt;Zinssperre;Beleglink";
const BOOKING_MIDDLE: &str = "KOST1 - Kostenstelle;KOST2 - Kostenstelle;Kost-Menge;EU-Land u. UStID (Bestimmung);EU-Steuersatz (Bestimmung);Abw. Versteuerungsart;Sachverhalt L+L;Funktionsergänzung L+L;BU 49 Hauptfunktionstyp;BU 49 Hauptfunktionsnummer;BU 49 Funktionsergänzung";
const BOOKING_TAIL: &str = "Stück;Gewicht;Zahlweise;Forderungsart;Veranlagungsjahr;Zugeordnete Fälligkeit;Skontotyp;Auftragsnummer;Buchungstyp;USt-Schlüssel (Anzahlungen);EU-Land (Anzahlungen);Sachverhalt L+L (Anzahlungen);EU-Steuersatz (Anzahlungen);Erlöskonto (Anzahlungen);Herkunft-Kz;Buchungs GUID;KOST-Datum;SEPA-Mandatsreferenz;Skontosperre;Gesellschaftername;Beteiligtennummer;Identifikationsnummer;Zeichnernummer;Postensperre bis;Bezeichnung SoBil-Sachverhalt;Kennzeichen SoBil-Buchung;Festschreibung;Leistungsdatum;Datum Zuord. Steuerperiode;Fälligkeit;Generalumkehr (GU);Steuersatz;Land;Abrechnungsreferenz;BVV-Position;EU-Land u. UStID (Ursprung);EU-Steuersatz (Ursprung);Abw. Skontokonto";

/// The published heading row of `Buchungsstapel` version 13.
pub fn booking_headings() -> Vec<String> {
    let mut out: Vec<String> = BOOKING_HEAD.split(';').map(String::from).collect();
    for n in 1..=8 {
        out.push(format!("Beleginfo - Art {n}"));
        out.push(format!("Beleginfo - Inhalt {n}"));
    }
    out.extend(BOOKING_MIDDLE.split(';').map(String::from));
    for n in 1..=20 {
        out.push(format!("Zusatzinformation - Art {n}"));
        out.push(format!("Zusatzinformation- Inhalt {n}"));
    }
    out.extend(BOOKING_TAIL.split(';').map(String::from));
    assert_eq!(out.len(), 125);
    out
}

/// Splits a line at `;` outside quotes; a field's quotes are removed and a
/// doubled quote read as one. The flag says whether the field was quoted.
fn fields(line: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut in_quotes = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if in_quotes && chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            '"' if in_quotes => in_quotes = false,
            '"' if field.is_empty() && !quoted => {
                in_quotes = true;
                quoted = true;
            }
            ';' if !in_quotes => {
                out.push((std::mem::take(&mut field), quoted));
                quoted = false;
            }
            c => field.push(c),
        }
    }
    assert!(!in_quotes, "a quote is left open in {line:?}");
    out.push((field, quoted));
    out
}

/// Reads an EXTF file's bytes whose heading row must be `headings`.
///
/// Panics naming what is wrong: this is a test's reader.
pub fn read(bytes: &[u8], headings: &[String]) -> Extf {
    let (text, _, malformed) = encoding_rs::WINDOWS_1252.decode(bytes);
    assert!(!malformed);
    assert!(
        std::str::from_utf8(bytes).is_err() || bytes.is_ascii(),
        "the file is UTF-8, not Windows-1252"
    );
    assert!(text.ends_with("\r\n"), "the last line ends with CRLF");
    let body = &text[..text.len() - 2];
    assert!(
        !body.replace("\r\n", "").contains(['\r', '\n']),
        "a line ends without CRLF"
    );
    let mut lines = body.split("\r\n");
    let header: Vec<String> = fields(lines.next().expect("a header"))
        .into_iter()
        .map(|f| f.0)
        .collect();
    assert_eq!(header.len(), 31, "the header has 31 fields");
    assert_eq!(header[0], "EXTF");
    let found: Vec<String> = lines
        .next()
        .expect("a heading row")
        .split(';')
        .map(String::from)
        .collect();
    assert_eq!(found, headings, "the heading row is the published one");
    let rows = lines
        .map(|line| {
            let f = fields(line);
            assert_eq!(
                f.len(),
                headings.len(),
                "a row is as wide as the headings: {line}"
            );
            headings
                .iter()
                .cloned()
                .zip(f.into_iter().map(|x| x.0))
                .collect()
        })
        .collect();
    Extf {
        header,
        headings: found,
        rows,
    }
}

/// The bookings of a `Buchungsstapel`.
pub fn bookings(file: &Extf) -> Vec<Booking> {
    file.rows
        .iter()
        .map(|r| {
            let amount = &r["Umsatz (ohne Soll/Haben-Kz)"];
            let (euros, cents) = amount.split_once(',').expect("a decimal comma");
            assert!(!euros.contains('.') && cents.len() == 2, "{amount}");
            let cents: i64 =
                euros.parse::<i64>().expect("euros") * 100 + cents.parse::<i64>().expect("cents");
            assert!(cents > 0, "Umsatz is positive");
            Booking {
                amount: cents,
                side: r["Soll/Haben-Kennzeichen"].clone(),
                account: r["Konto"].parse().expect("Konto"),
                contra: r["Gegenkonto (ohne BU-Schlüssel)"]
                    .parse()
                    .expect("Gegenkonto"),
                bu: r["BU-Schlüssel"].clone(),
                date: r["Belegdatum"].clone(),
                document: r["Belegfeld 1"].clone(),
                document2: r["Belegfeld 2"].clone(),
                text: r["Buchungstext"].clone(),
                info: (
                    r["Beleginfo - Art 1"].clone(),
                    r["Beleginfo - Inhalt 1"].clone(),
                ),
            }
        })
        .collect()
}

/// The first headings of `Debitoren/Kreditoren` version 5 as published;
/// the file has 254 columns in all.
const PARTNER_HEAD: &str = "Konto;Name (Adressattyp Unternehmen);Unternehmensgegenstand;Name (Adressattyp natürl. Person);Vorname (Adressattyp natürl. Person);Name (Adressattyp keine Angabe);Adressattyp;Kurzbezeichnung;EU-Land;EU-UStID;Anrede;Titel/Akad. Grad;Adelstitel;Namensvorsatz;Adressart;Straße;Postfach;Postleitzahl;Ort;Land";

/// Reads a `Debitoren/Kreditoren` file: its heading row starts with the
/// published headings and is 254 columns wide.
pub fn read_partners(bytes: &[u8]) -> Extf {
    let (text, _, _) = encoding_rs::WINDOWS_1252.decode(bytes);
    let headings: Vec<String> = text
        .split("\r\n")
        .nth(1)
        .expect("a heading row")
        .split(';')
        .map(String::from)
        .collect();
    assert_eq!(headings.len(), 254, "Debitoren/Kreditoren has 254 columns");
    let head: Vec<&str> = PARTNER_HEAD.split(';').collect();
    assert_eq!(&headings[..head.len()], head.as_slice());
    read(bytes, &headings)
}
