//! The column headings of the two EXTF formats kontor writes, in their
//! documented order, and which of their columns are text (written in
//! quotes). Sources: DATEV's format description of the DATEV-Format
//! (developer.datev.de, "Buchungsstapel" format version 13 and
//! "Debitoren/Kreditoren" format version 5, header version 700) as its
//! published sample files print the heading rows (DATEV's sample client
//! 29098/55003); the quoting follows the same samples' data rows.

/// The 125 column headings of a `Buchungsstapel`, format version 13.
pub fn bookings() -> Vec<String> {
    let mut names: Vec<String> = [
        "Umsatz (ohne Soll/Haben-Kz)",
        "Soll/Haben-Kennzeichen",
        "WKZ Umsatz",
        "Kurs",
        "Basis-Umsatz",
        "WKZ Basis-Umsatz",
        "Konto",
        "Gegenkonto (ohne BU-Schlüssel)",
        "BU-Schlüssel",
        "Belegdatum",
        "Belegfeld 1",
        "Belegfeld 2",
        "Skonto",
        "Buchungstext",
        "Postensperre",
        "Diverse Adressnummer",
        "Geschäftspartnerbank",
        "Sachverhalt",
        "Zinssperre",
        "Beleglink",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for n in 1..=8 {
        names.push(format!("Beleginfo - Art {n}"));
        names.push(format!("Beleginfo - Inhalt {n}"));
    }
    names.extend(
        [
            "KOST1 - Kostenstelle",
            "KOST2 - Kostenstelle",
            "Kost-Menge",
            "EU-Land u. UStID (Bestimmung)",
            "EU-Steuersatz (Bestimmung)",
            "Abw. Versteuerungsart",
            "Sachverhalt L+L",
            "Funktionsergänzung L+L",
            "BU 49 Hauptfunktionstyp",
            "BU 49 Hauptfunktionsnummer",
            "BU 49 Funktionsergänzung",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    for n in 1..=20 {
        names.push(format!("Zusatzinformation - Art {n}"));
        // Without the space before the dash: so the published heading row.
        names.push(format!("Zusatzinformation- Inhalt {n}"));
    }
    names.extend(
        [
            "Stück",
            "Gewicht",
            "Zahlweise",
            "Forderungsart",
            "Veranlagungsjahr",
            "Zugeordnete Fälligkeit",
            "Skontotyp",
            "Auftragsnummer",
            "Buchungstyp",
            "USt-Schlüssel (Anzahlungen)",
            "EU-Land (Anzahlungen)",
            "Sachverhalt L+L (Anzahlungen)",
            "EU-Steuersatz (Anzahlungen)",
            "Erlöskonto (Anzahlungen)",
            "Herkunft-Kz",
            "Buchungs GUID",
            "KOST-Datum",
            "SEPA-Mandatsreferenz",
            "Skontosperre",
            "Gesellschaftername",
            "Beteiligtennummer",
            "Identifikationsnummer",
            "Zeichnernummer",
            "Postensperre bis",
            "Bezeichnung SoBil-Sachverhalt",
            "Kennzeichen SoBil-Buchung",
            "Festschreibung",
            "Leistungsdatum",
            "Datum Zuord. Steuerperiode",
            "Fälligkeit",
            "Generalumkehr (GU)",
            "Steuersatz",
            "Land",
            "Abrechnungsreferenz",
            "BVV-Position",
            "EU-Land u. UStID (Ursprung)",
            "EU-Steuersatz (Ursprung)",
            "Abw. Skontokonto",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    names
}

/// Whether column `n` (1-based) of a `Buchungsstapel` is text.
pub fn booking_text(n: usize) -> bool {
    matches!(
        n,
        2 | 3 | 6 | 9 | 11 | 12 | 14 | 16 | 20 | 21..=38 | 40 | 42 | 48..=87 | 91 | 95 | 96
            | 98 | 102 | 103 | 105 | 107 | 109 | 110 | 112 | 118 | 120 | 121 | 123
    )
}

/// The 254 column headings of `Debitoren/Kreditoren`, format version 5.
pub fn partners() -> Vec<String> {
    let mut names: Vec<String> = [
        "Konto",
        "Name (Adressattyp Unternehmen)",
        "Unternehmensgegenstand",
        "Name (Adressattyp natürl. Person)",
        "Vorname (Adressattyp natürl. Person)",
        "Name (Adressattyp keine Angabe)",
        "Adressattyp",
        "Kurzbezeichnung",
        "EU-Land",
        "EU-UStID",
        "Anrede",
        "Titel/Akad. Grad",
        "Adelstitel",
        "Namensvorsatz",
        "Adressart",
        "Straße",
        "Postfach",
        "Postleitzahl",
        "Ort",
        "Land",
        "Versandzusatz",
        "Adresszusatz",
        "Abweichende Anrede",
        "Abw. Zustellbezeichnung 1",
        "Abw. Zustellbezeichnung 2",
        "Kennz. Korrespondenzadresse",
        "Adresse Gültig von",
        "Adresse Gültig bis",
        "Telefon",
        "Bemerkung (Telefon)",
        "Telefon GL",
        "Bemerkung (Telefon GL)",
        "E-Mail",
        "Bemerkung (E-Mail)",
        "Internet",
        "Bemerkung (Internet)",
        "Fax",
        "Bemerkung (Fax)",
        "Sonstige",
        "Bemerkung (Sonstige)",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let bank = |names: &mut Vec<String>, n: usize| {
        for name in [
            format!("Bankleitzahl {n}"),
            format!("Bankbezeichnung {n}"),
            format!("Bank-Kontonummer {n}"),
            format!("Länderkennzeichen {n}"),
            format!("IBAN-Nr. {n}"),
            "Leerfeld".to_string(),
            format!("SWIFT-Code {n}"),
            format!("Abw. Kontoinhaber {n}"),
            format!("Kennz. Hauptbankverb. {n}"),
            format!("Bankverb {n} Gültig von"),
            format!("Bankverb {n} Gültig bis"),
        ] {
            names.push(name);
        }
    };
    for n in 1..=5 {
        bank(&mut names, n);
    }
    names.extend(
        [
            "Leerfeld",
            "Briefanrede",
            "Grußformel",
            "Kunden-/Lief.-Nr.",
            "Steuernummer",
            "Sprache",
            "Ansprechpartner",
            "Vertreter",
            "Sachbearbeiter",
            "Diverse-Konto",
            "Ausgabeziel",
            "Währungssteuerung",
            "Kreditlimit (Debitor)",
            "Zahlungsbedingung",
            "Fälligkeit in Tagen (Debitor)",
            "Skonto in Prozent (Debitor)",
            "Kreditoren-Ziel 1 Tg.",
            "Kreditoren-Skonto 1 %",
            "Kreditoren-Ziel 2 Tg.",
            "Kreditoren-Skonto 2 %",
            "Kreditoren-Ziel 3 Brutto Tg.",
            "Kreditoren-Ziel 4 Tg.",
            "Kreditoren-Skonto 4 %",
            "Kreditoren-Ziel 5 Tg.",
            "Kreditoren-Skonto 5 %",
            "Mahnung",
            "Kontoauszug",
            "Mahntext 1",
            "Mahntext 2",
            "Mahntext 3",
            "Kontoauszugstext",
            "Mahnlimit Betrag",
            "Mahnlimit %",
            "Zinsberechnung",
            "Mahnzinssatz 1",
            "Mahnzinssatz 2",
            "Mahnzinssatz 3",
            "Lastschrift",
            "Leerfeld",
            "Mandantenbank",
            "Zahlungsträger",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    for n in 1..=15 {
        names.push(format!("Indiv. Feld {n}"));
    }
    names.extend(
        [
            "Abweichende Anrede (Rechnungsadresse)",
            "Adressart (Rechnungsadresse)",
            "Straße (Rechnungsadresse)",
            "Postfach (Rechnungsadresse)",
            "Postleitzahl (Rechnungsadresse)",
            "Ort (Rechnungsadresse)",
            "Land (Rechnungsadresse)",
            "Versandzusatz (Rechnungsadresse)",
            "Adresszusatz (Rechnungsadresse)",
            "Abw. Zustellbezeichnung 1 (Rechnungsadresse)",
            "Abw. Zustellbezeichnung 2 (Rechnungsadresse)",
            "Adresse Gültig von (Rechnungsadresse)",
            "Adresse Gültig bis (Rechnungsadresse)",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    for n in 6..=10 {
        bank(&mut names, n);
    }
    names.extend(
        ["Nummer Fremdsystem", "Insolvent"]
            .iter()
            .map(|s| s.to_string()),
    );
    for n in 1..=10 {
        names.push(format!("SEPA-Mandatsreferenz {n}"));
    }
    names.extend(
        [
            "Verknüpftes OPOS-Konto",
            "Mahnsperre bis",
            "Lastschriftsperre bis",
            "Zahlungssperre bis",
            "Gebührenberechnung",
            "Mahngebühr 1",
            "Mahngebühr 2",
            "Mahngebühr 3",
            "Pauschalenberechnung",
            "Verzugspauschale 1",
            "Verzugspauschale 2",
            "Verzugspauschale 3",
            "Alternativer Suchname",
            "Status",
            "Anschrift manuell geändert (Korrespondenzadresse)",
            "Anschrift individuell (Korrespondenzadresse)",
            "Anschrift manuell geändert (Rechnungsadresse)",
            "Anschrift individuell (Rechnungsadresse)",
            "Fristberechnung bei Debitor",
            "Mahnfrist 1",
            "Mahnfrist 2",
            "Mahnfrist 3",
            "Letzte Frist",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    names
}

/// Whether column `n` (1-based) of `Debitoren/Kreditoren` is text.
pub fn partner_text(n: usize) -> bool {
    let bank_block = |first: usize| (first..first + 9).contains(&n);
    matches!(n, 2..=25 | 29..=40 | 96..=104 | 107 | 133 | 134 | 136 | 137..=162 | 220 | 222..=231 | 244 | 247 | 249)
        || (0..5).any(|b| bank_block(41 + 11 * b))
        || (0..5).any(|b| bank_block(165 + 11 * b))
}

#[cfg(test)]
mod tests {
    use crate::documents::datev::columns::{booking_text, bookings, partner_text, partners};

    #[test]
    fn the_heading_rows_have_the_documented_widths_and_ends() {
        let b = bookings();
        assert_eq!(b.len(), 125);
        assert_eq!(b[0], "Umsatz (ohne Soll/Haben-Kz)");
        assert_eq!(b[9], "Belegdatum");
        assert_eq!(b[10], "Belegfeld 1");
        assert_eq!(b[39], "EU-Land u. UStID (Bestimmung)");
        assert_eq!(b[113], "Festschreibung");
        assert_eq!(b[124], "Abw. Skontokonto");
        let p = partners();
        assert_eq!(p.len(), 254);
        assert_eq!(p[9], "EU-UStID");
        assert_eq!(p[44], "IBAN-Nr. 1");
        assert_eq!(p[98], "Kunden-/Lief.-Nr.");
        assert_eq!(p[164], "Bankleitzahl 6");
        assert_eq!(p[219], "Nummer Fremdsystem");
        assert_eq!(p[253], "Letzte Frist");
    }

    #[test]
    fn text_columns_are_the_samples_quoted_ones() {
        let text: Vec<usize> = (1..=125).filter(|n| booking_text(*n)).collect();
        assert_eq!(text.len(), 84);
        assert!(!booking_text(1) && booking_text(2) && !booking_text(7) && booking_text(11));
        assert!(!booking_text(114) && booking_text(118));
        assert!(!partner_text(1) && partner_text(2) && !partner_text(26) && partner_text(45));
        assert!(!partner_text(50) && partner_text(52) && partner_text(165) && !partner_text(174));
        assert!(partner_text(220) && !partner_text(221) && partner_text(231) && !partner_text(232));
    }
}
