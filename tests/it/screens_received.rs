//! The Bills screen's received e-invoices: uploading one or many files,
//! the received invoice as a person reads it in the reader's language,
//! the original and the attachments to download, booking and refusing;
//! a viewer reads but may not act.

use std::path::Path;

use crate::support::screens::Office;

fn fixture(path: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/einvoices-in")
            .join(path),
    )
    .unwrap()
}

/// The ids of the received bills the upload's page links, in order.
fn linked(body: &str) -> Vec<String> {
    body.match_indices("href=\"/bills/received/pur_")
        .map(|(at, _)| {
            let rest = &body[at + "href=\"/bills/received/".len()..];
            rest[..rest.find('"').unwrap()].to_string()
        })
        .collect()
}

#[test]
fn received_e_invoices_are_uploaded_read_booked_and_refused_on_the_bills_screen() {
    let office = Office::new();
    let mut accountant = office.signed_in("accountant@alpha.de");
    let token = accountant.get("/bills").csrf();
    let page = accountant.upload(
        "/bills/received",
        &[("csrf", &token)],
        &[
            (
                "rechnung.xml",
                &fixture("zugferd-corpus/XML-Rechnung/CII/EN16931_Rabatte.cii.xml"),
            ),
            (
                "factur-x.pdf",
                &fixture("zugferd-corpus/XML-Rechnung/FX/EN16931_Elektron.pdf"),
            ),
            ("brief.txt", b"Sehr geehrte Damen und Herren"),
        ],
    );
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.body.contains("brief.txt") && page.body.contains("refused"),
        "{}",
        page.body
    );
    let ids = linked(&page.body);
    assert_eq!(ids.len(), 2, "{}", page.body);
    // Read as a person reads it, in English and in German.
    let shown = accountant.get(&format!("/bills/received/{}", ids[0]));
    assert_eq!(shown.status, 200);
    for text in [
        "Invoice (380)",
        "VAT breakdown",
        "Allowance",
        "Amount due",
        "Lieferant GmbH",
        "Book this bill",
    ] {
        assert!(shown.body.contains(text), "{text}");
    }
    let mut german = office.signed_in("owner@alpha.de");
    german.language = "de-DE,de;q=0.9";
    let de = german.get(&format!("/bills/received/{}", ids[0]));
    assert!(
        de.body.contains("Zahlbetrag") && de.body.contains("Nachlass"),
        "{}",
        de.body
    );
    // The original, byte for byte; a PDF's attached files to download.
    let original = accountant.get(&format!("/bills/received/{}/original", ids[0]));
    assert_eq!(
        original.raw,
        fixture("zugferd-corpus/XML-Rechnung/CII/EN16931_Rabatte.cii.xml")
    );
    assert!(original
        .header("content-disposition")
        .unwrap()
        .contains("attachment"));
    // Book the first, refuse the second with a reason.
    let booked = accountant.act(
        &format!("/bills/received/{}", ids[0]),
        &format!("/bills/received/{}/book", ids[0]),
        &[("acceptWarnings", "yes")],
    );
    booked.redirects_to(&format!("/bills/received/{}?done=booked", ids[0]));
    let empty = accountant.act(
        &format!("/bills/received/{}", ids[1]),
        &format!("/bills/received/{}/refuse", ids[1]),
        &[("reason", "")],
    );
    assert_eq!(empty.status, 400, "{}", empty.body);
    let refused = accountant.act(
        &format!("/bills/received/{}", ids[1]),
        &format!("/bills/received/{}/refuse", ids[1]),
        &[("reason", "Bestellnummer fehlt")],
    );
    refused.redirects_to(&format!("/bills/received/{}?done=refused", ids[1]));
    // The list shows both with their state; the booked one is a bill to pay.
    let list = accountant.get("/bills");
    assert!(
        list.body.contains("booked") && list.body.contains("refused"),
        "{}",
        list.body
    );
    let refused_only = accountant.get("/bills?state=refused");
    assert!(refused_only
        .body
        .contains(&format!("/bills/received/{}", ids[1])));
    assert!(!refused_only
        .body
        .contains(&format!("/bills/received/{}", ids[0])));
    let bill = accountant.get(&format!("/bills/{}", ids[0]));
    assert_eq!(bill.status, 200, "{}", bill.body);
    assert!(bill.body.contains("Pay this bill"));
    // Booked once; a refused bill is not booked.
    let again = accountant.act(
        &format!("/bills/received/{}", ids[1]),
        &format!("/bills/received/{}/book", ids[1]),
        &[],
    );
    assert!(
        again.status == 409 || again.body.contains("refused"),
        "{}",
        again.status
    );
    // A viewer reads but may not upload or act.
    let mut viewer = office.signed_in("viewer@alpha.de");
    let seen = viewer.get(&format!("/bills/received/{}", ids[0]));
    assert_eq!(seen.status, 200);
    assert!(!seen.body.contains("Refuse this bill"));
    let token = viewer.get("/bills").csrf();
    let denied = viewer.upload(
        "/bills/received",
        &[("csrf", &token)],
        &[("a.xml", b"<x/>")],
    );
    assert_eq!(denied.status, 403, "{}", denied.body);
    // Another company's bill is not found.
    let mut other = office.signed_in("owner@beta.de");
    assert_eq!(
        other.get(&format!("/bills/received/{}", ids[0])).status,
        404
    );
}

fn written(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/einvoices-written")
        .join(name)
}

/// A received e-invoice of each profile on its page: the totals the bill
/// does not keep (allowances, charges, paid already) as its file states
/// them, a MINIMUM or BASIC WL file said in words to be no invoice, in
/// English and German, the seller's tax representative, EXTENDED's lines
/// that count and its logistics charge; a document whose VAT category is
/// outside EN 16931's list is booked under the category the person picks.
#[test]
fn received_e_invoices_of_every_profile_read_as_their_files_state() {
    let office = Office::new();
    let mut accountant = office.signed_in("accountant@alpha.de");
    let names = [
        "factur-x-minimum.xml",
        "factur-x-basicwl.xml",
        "factur-x-en16931.xml",
        "factur-x-extended.xml",
        "en16931.ubl.xml",
        "tax-representative.cii.xml",
        "category-unlisted.ubl.xml",
    ];
    let files: Vec<(String, Vec<u8>)> = names
        .iter()
        .map(|n| (n.to_string(), std::fs::read(written(n)).unwrap()))
        .collect();
    let token = accountant.get("/bills").csrf();
    let uploads: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    let page = accountant.upload("/bills/received", &[("csrf", &token)], &uploads);
    let ids = linked(&page.body);
    assert_eq!(ids.len(), names.len(), "{}", page.body);
    let eur = kontor::rules::iso::Currency::parse("c", "EUR").unwrap();
    let shown =
        |minor: i64| kontor::rules::locale::amount(kontor::rules::locale::Lang::En, minor, &eur);
    let mut pages = Vec::new();
    for (name, id) in names.iter().zip(&ids) {
        let body = accountant.get(&format!("/bills/received/{id}")).body;
        let [allowances, charges, paid] =
            crate::support::einvoice_figures::shown_totals(&written(name));
        for (label, minor) in [
            ("Allowances", allowances),
            ("Charges", charges),
            ("Paid already", paid),
        ] {
            if minor != 0 {
                assert!(
                    body.contains(&format!("<dt>{label}</dt><dd>{}</dd>", shown(minor))),
                    "{name}: {label} {minor}\n{body}"
                );
            }
        }
        let booking_aid = name.contains("minimum") || name.contains("basicwl");
        assert_eq!(
            body.contains("is no invoice under EN 16931 and § 14 UStG, only a booking aid"),
            booking_aid,
            "{name}\n{body}"
        );
        pages.push(body);
    }
    assert!(
        pages[0].contains("Profile MINIMUM: no invoice."),
        "{}",
        pages[0]
    );
    assert!(
        pages[1].contains("Profile BASIC WL: no invoice."),
        "{}",
        pages[1]
    );
    let mut german = office.signed_in("owner@alpha.de");
    german.language = "de-DE,de;q=0.9";
    let de = german.get(&format!("/bills/received/{}", ids[0])).body;
    assert!(
        de.contains(
            "keine Rechnung im Sinne der EN 16931 und des § 14 UStG, nur eine Buchungshilfe"
        ),
        "{de}"
    );
    // EXTENDED: the sub-lines and the line without a status, not the
    // GROUP and INFORMATION lines; the logistics charge among the charges.
    let extended = &pages[3];
    for text in [
        "Konferenztisch 180 cm",
        "Montage je Stunde",
        "Raumplaner (Broschüre)",
        "Versandkosten",
    ] {
        assert!(extended.contains(text), "{text}\n{extended}");
    }
    assert!(
        !extended.contains("Montagepaket Besprechungsraum")
            && !extended.contains("Altmöbelrücknahme"),
        "{extended}"
    );
    // The seller's tax representative, with its VAT id and address.
    let representative = &pages[5];
    for text in [
        "Seller's tax representative",
        "Fiskalvertretung Main GmbH",
        "DE811907980",
        "Frankfurt am Main",
    ] {
        assert!(representative.contains(text), "{text}\n{representative}");
    }
    // The category written "VAT": the book form asks for one.
    let unlisted = &pages[6];
    assert!(
        unlisted.contains("name=\"category\"") && unlisted.contains("&quot;VAT&quot;"),
        "{unlisted}"
    );
    let at = format!("/bills/received/{}", ids[6]);
    let refused = accountant.act(&at, &format!("{at}/book"), &[]);
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert!(refused.body.contains("is needed"), "{}", refused.body);
    let booked = accountant.act(
        &at,
        &format!("{at}/book"),
        &[("category", "S"), ("acceptWarnings", "yes")],
    );
    booked.redirects_to(&format!("{at}?done=booked"));
}
