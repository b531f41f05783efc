//! The Bills screen's received e-invoices: uploading one or many files,
//! the received invoice as a person reads it in the reader's language,
//! the original and the attachments to download, booking and refusing;
//! a viewer reads but may not act.

use std::path::Path;

use crate::support::screens::Office;

fn fixture(path: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/einvoices-in").join(path)).unwrap()
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
            ("rechnung.xml", &fixture("zugferd-corpus/XML-Rechnung/CII/EN16931_Rabatte.cii.xml")),
            ("factur-x.pdf", &fixture("zugferd-corpus/XML-Rechnung/FX/EN16931_Elektron.pdf")),
            ("brief.txt", b"Sehr geehrte Damen und Herren"),
        ],
    );
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("brief.txt") && page.body.contains("refused"), "{}", page.body);
    let ids = linked(&page.body);
    assert_eq!(ids.len(), 2, "{}", page.body);
    // Read as a person reads it, in English and in German.
    let shown = accountant.get(&format!("/bills/received/{}", ids[0]));
    assert_eq!(shown.status, 200);
    for text in ["Invoice (380)", "VAT breakdown", "Allowance", "Amount due", "Lieferant GmbH", "Book this bill"] {
        assert!(shown.body.contains(text), "{text}");
    }
    let mut german = office.signed_in("owner@alpha.de");
    german.language = "de-DE,de;q=0.9";
    let de = german.get(&format!("/bills/received/{}", ids[0]));
    assert!(de.body.contains("Zahlbetrag") && de.body.contains("Nachlass"), "{}", de.body);
    // The original, byte for byte; a PDF's attached files to download.
    let original = accountant.get(&format!("/bills/received/{}/original", ids[0]));
    assert_eq!(original.raw, fixture("zugferd-corpus/XML-Rechnung/CII/EN16931_Rabatte.cii.xml"));
    assert!(original.header("content-disposition").unwrap().contains("attachment"));
    // Book the first, refuse the second with a reason.
    let booked = accountant.act(
        &format!("/bills/received/{}", ids[0]),
        &format!("/bills/received/{}/book", ids[0]),
        &[],
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
    assert!(list.body.contains("booked") && list.body.contains("refused"), "{}", list.body);
    let refused_only = accountant.get("/bills?state=refused");
    assert!(refused_only.body.contains(&format!("/bills/received/{}", ids[1])));
    assert!(!refused_only.body.contains(&format!("/bills/received/{}", ids[0])));
    let bill = accountant.get(&format!("/bills/{}", ids[0]));
    assert_eq!(bill.status, 200, "{}", bill.body);
    assert!(bill.body.contains("Pay this bill"));
    // Booked once; a refused bill is not booked.
    let again = accountant.act(
        &format!("/bills/received/{}", ids[1]),
        &format!("/bills/received/{}/book", ids[1]),
        &[],
    );
    assert!(again.status == 409 || again.body.contains("refused"), "{}", again.status);
    // A viewer reads but may not upload or act.
    let mut viewer = office.signed_in("viewer@alpha.de");
    let seen = viewer.get(&format!("/bills/received/{}", ids[0]));
    assert_eq!(seen.status, 200);
    assert!(!seen.body.contains("Refuse this bill"));
    let token = viewer.get("/bills").csrf();
    let denied = viewer.upload("/bills/received", &[("csrf", &token)], &[("a.xml", b"<x/>")]);
    assert_eq!(denied.status, 403, "{}", denied.body);
    // Another company's bill is not found.
    let mut other = office.signed_in("owner@beta.de");
    assert_eq!(other.get(&format!("/bills/received/{}", ids[0])).status, 404);
}
