//! Received e-invoices checked against the company before booking: a
//! document addressed to another buyer, one dated two years ago and one
//! whose VAT id belongs to a known supplier of another name each show
//! their warning and are booked only after a person's choice (refused
//! without it, nothing changed; booked with it under the supplier
//! chosen); a trusted supplier's document with a warning is not booked as
//! it arrives. The payment terms are read: XRechnung's `#SKONTO#` line, a
//! ZUGFeRD text, BT-9, and "zahlbar innerhalb von 30 Tagen". Every file
//! is a copy of a real fixture written into a temporary directory.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::screens::Office;
use crate::support::DataFile;

const EINFACH: &str = "zugferd-corpus/XML-Rechnung/CII/EN16931_Einfach.cii.xml";
const XRECHNUNG: &str = "zugferd-corpus/XML-Rechnung/CII/XRECHNUNG_Einfach.cii.xml";
/// The fixtures' payment terms (BT-20).
const TERMS: &str =
    "Zahlbar innerhalb 30 Tagen netto bis 04.04.2018, 3% Skonto innerhalb 10 Tagen bis 15.03.2018";

fn fixture(path: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/einvoices-in")
            .join(path),
    )
    .unwrap()
}

/// Yesterday (UTC): never after a company's today, never a year before it.
fn recent(years_back: i16) -> jiff::civil::Date {
    let today = jiff::Timestamp::now()
        .to_zoned(jiff::tz::TimeZone::UTC)
        .date();
    today
        .checked_sub(jiff::Span::new().days(1).years(years_back))
        .unwrap()
}

fn compact(d: jiff::civil::Date) -> String {
    d.strftime("%Y%m%d").to_string()
}

/// The Einfach fixture numbered `number`, dated `on` (issue and delivery),
/// with `changes` made.
fn einfach(number: &str, on: jiff::civil::Date, changes: &[(&str, &str)]) -> String {
    let mut xml = fixture(EINFACH)
        .replace(">471102<", &format!(">{number}<"))
        .replace("20180305", &compact(on));
    for (from, to) in changes {
        assert!(xml.contains(from), "{from}");
        xml = xml.replace(from, to);
    }
    xml
}

fn write(dir: &Path, name: &str, xml: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, xml).unwrap();
    path
}

fn receive(data: &DataFile, company: &str, file: &Path) -> Value {
    data.ok(&[
        "purchase",
        "receive",
        "--company",
        company,
        file.to_str().unwrap(),
    ])[0]
        .clone()
}

fn show(data: &DataFile, company: &str, id: &str) -> Value {
    data.ok(&["purchase", "show", "--company", company, id])
}

fn codes(bill: &Value) -> Vec<String> {
    bill["warnings"]
        .as_array()
        .map(|w| {
            w.iter()
                .map(|w| w["code"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

fn book(data: &DataFile, company: &str, id: &str, extra: &[&str]) -> (bool, Value, String) {
    let mut args = vec!["purchase", "book", "--company", company, id];
    args.extend(extra);
    data.console(&args)
}

fn trial(data: &DataFile, company: &str) -> Value {
    data.ok(&["books", "trial-balance", "--company", company])
}

/// A company named as the fixtures' buyer.
fn buyer(data: &DataFile) -> String {
    data.ok(&[
        "company",
        "create",
        "--name",
        "Kunden AG Mitte",
        "--country",
        "DE",
        "--currency",
        "EUR",
    ])["id"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Refused without the choice, nothing changed; booked with it.
fn refused_then_booked(
    data: &DataFile,
    company: &str,
    id: &str,
    needs: &str,
    choice: &[&str],
) -> Value {
    let before = trial(data, company);
    let (ok, _, stderr) = book(data, company, id, &[]);
    assert!(!ok && stderr.contains(needs), "{stderr}");
    assert_eq!(show(data, company, id)["state"], "received");
    assert_eq!(trial(data, company), before);
    let (ok, booked, stderr) = book(data, company, id, choice);
    assert!(ok, "{stderr}");
    assert_eq!(booked["state"], "booked", "{booked}");
    booked
}

#[test]
fn another_buyer_an_old_date_and_a_supplier_of_another_name_wait_for_a_persons_choice() {
    let data = DataFile::new();
    let company = buyer(&data);
    let dir = tempfile::tempdir().unwrap();

    // Addressed to the company (its name, case and spaces aside) and dated
    // yesterday: no warning, booked at once by a person.
    let clean = receive(
        &data,
        &company,
        &write(
            dir.path(),
            "clean.xml",
            &einfach("C-1", recent(0), &[("Kunden AG Mitte", "KUNDEN  ag mitte")]),
        ),
    );
    let id = clean["id"].as_str().unwrap();
    assert_eq!(codes(&show(&data, &company, id)), Vec::<String>::new());
    let (ok, _, stderr) = book(&data, &company, id, &[]);
    assert!(ok, "{stderr}");

    // Addressed to another buyer.
    let other = receive(
        &data,
        &company,
        &write(
            dir.path(),
            "other.xml",
            &einfach("C-2", recent(0), &[("Kunden AG Mitte", "Fremde Firma AG")]),
        ),
    );
    let id = other["id"].as_str().unwrap();
    let shown = show(&data, &company, id);
    assert_eq!(codes(&shown), ["buyer"], "{shown}");
    assert!(
        shown["warnings"][0]["sentence"]
            .as_str()
            .unwrap()
            .contains("\"Fremde Firma AG\""),
        "{shown}"
    );
    refused_then_booked(
        &data,
        &company,
        id,
        "--accept-warnings is needed",
        &["--accept-warnings"],
    );

    // Dated two years ago.
    let old = receive(
        &data,
        &company,
        &write(dir.path(), "old.xml", &einfach("C-3", recent(2), &[])),
    );
    let id = old["id"].as_str().unwrap();
    let shown = show(&data, &company, id);
    assert_eq!(codes(&shown), ["date"], "{shown}");
    assert!(shown["warnings"][0]["sentence"]
        .as_str()
        .unwrap()
        .contains("more than a year before today"));
    refused_then_booked(
        &data,
        &company,
        id,
        "--accept-warnings is needed",
        &["--accept-warnings"],
    );
    // Dated after today.
    let ahead = receive(
        &data,
        &company,
        &write(
            dir.path(),
            "ahead.xml",
            &einfach(
                "C-4",
                recent(0).checked_add(jiff::Span::new().days(5)).unwrap(),
                &[],
            ),
        ),
    );
    assert_eq!(
        codes(&show(&data, &company, ahead["id"].as_str().unwrap())),
        ["date"]
    );
}

#[test]
fn a_supplier_of_another_name_is_chosen_by_the_person_and_a_trusted_one_with_a_warning_waits() {
    let data = DataFile::new();
    let company = buyer(&data);
    let dir = tempfile::tempdir().unwrap();
    // The seller's VAT id belongs to a partner of another name.
    let known = data.ok(&[
        "purchase",
        "record",
        "--company",
        &company,
        "--supplier",
        "Anders benannt GmbH",
        "--supplier-vat-id",
        "DE123456789",
        "--document-number",
        "A-1",
        "--date",
        "2026-01-02",
        "--due",
        "2026-01-20",
        "--currency",
        "EUR",
        "--net",
        "1000",
        "--tax",
        "190",
    ])["supplierId"]
        .as_str()
        .unwrap()
        .to_string();
    let first = receive(
        &data,
        &company,
        &write(dir.path(), "s1.xml", &einfach("S-1", recent(0), &[])),
    );
    let id = first["id"].as_str().unwrap();
    let shown = show(&data, &company, id);
    assert_eq!(codes(&shown), ["supplier"], "{shown}");
    assert!(shown["warnings"][0]["sentence"]
        .as_str()
        .unwrap()
        .contains("\"Anders benannt GmbH\""));
    // Accepting the warnings is not enough: the supplier must be chosen.
    let (ok, _, stderr) = book(&data, &company, id, &["--accept-warnings"]);
    assert!(!ok && stderr.contains("--supplier is needed"), "{stderr}");
    let (ok, _, stderr) = book(
        &data,
        &company,
        id,
        &["--supplier", "maybe", "--accept-warnings"],
    );
    assert!(!ok && stderr.contains("--supplier"), "{stderr}");
    let booked = refused_then_booked(
        &data,
        &company,
        id,
        "--supplier is needed",
        &["--accept-warnings", "--supplier", "new"],
    );
    let new = booked["supplier"]["id"].as_str().unwrap().to_string();
    assert_ne!(new, known);
    let name: String = rusqlite::Connection::open(&data.path)
        .unwrap()
        .query_row("SELECT name FROM customers WHERE id = ?1", [&new], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(name, "Lieferant GmbH");
    // The next one booked under the existing supplier.
    let second = receive(
        &data,
        &company,
        &write(dir.path(), "s2.xml", &einfach("S-2", recent(0), &[])),
    );
    let id = second["id"].as_str().unwrap();
    let booked = refused_then_booked(
        &data,
        &company,
        id,
        "--supplier is needed",
        &["--accept-warnings", "--supplier", "existing"],
    );
    assert_eq!(booked["supplier"]["id"], known.as_str());
    // A choice where none is asked for is refused.
    let plain = receive(
        &data,
        &company,
        &write(
            dir.path(),
            "s3.xml",
            &einfach(
                "S-3",
                recent(0),
                &[("Lieferant GmbH", "Anders benannt GmbH")],
            ),
        ),
    );
    let (ok, _, stderr) = book(
        &data,
        &company,
        plain["id"].as_str().unwrap(),
        &["--supplier", "new"],
    );
    assert!(!ok && stderr.contains("is not needed"), "{stderr}");

    // Trusted: a document with a warning waits; a clean one is booked.
    data.ok(&["purchase", "trust", "--company", &company, &known]);
    let waits = receive(
        &data,
        &company,
        &write(dir.path(), "t1.xml", &einfach("T-1", recent(0), &[])),
    );
    assert_eq!(waits["booked"], false, "{waits}");
    assert_eq!(
        codes(&show(&data, &company, waits["id"].as_str().unwrap())),
        ["supplier"]
    );
    let at_once = receive(
        &data,
        &company,
        &write(
            dir.path(),
            "t2.xml",
            &einfach(
                "T-2",
                recent(0),
                &[("Lieferant GmbH", "Anders benannt GmbH")],
            ),
        ),
    );
    assert_eq!(at_once["booked"], true, "{at_once}");
    let old = receive(
        &data,
        &company,
        &write(
            dir.path(),
            "t3.xml",
            &einfach(
                "T-3",
                recent(2),
                &[("Lieferant GmbH", "Anders benannt GmbH")],
            ),
        ),
    );
    assert_eq!(old["booked"], false, "{old}");
    assert_eq!(
        codes(&show(&data, &company, old["id"].as_str().unwrap())),
        ["date"]
    );
}

#[test]
fn the_payment_terms_give_the_due_date_and_the_cash_discount() {
    let data = DataFile::new();
    let company = buyer(&data);
    let dir = tempfile::tempdir().unwrap();
    let terms_of = |name: &str, xml: &str| -> Value {
        let r = receive(&data, &company, &write(dir.path(), name, xml));
        let (ok, booked, stderr) = book(
            &data,
            &company,
            r["id"].as_str().unwrap(),
            &["--accept-warnings"],
        );
        assert!(ok, "{stderr}");
        booked["terms"].clone()
    };
    // XRechnung's structured line, issued 2024-11-15.
    let xrechnung = fixture(XRECHNUNG).replace(
        "Zahlbar innerhalb 30 Tagen netto bis 15.12.2024, 3% Skonto innerhalb 10 Tagen bis 25.11.2024",
        "#SKONTO#TAGE=14#PROZENT=2.00#\n#SKONTO#TAGE=30#PROZENT=1.00#\n",
    );
    let t = terms_of("xrechnung.xml", &xrechnung);
    assert_eq!(
        (
            &t["discountUntil"],
            &t["discountPercent"],
            &t["discountFrom"]
        ),
        (
            &Value::from("2024-11-29"),
            &Value::from("2"),
            &Value::from("XRechnung #SKONTO#")
        ),
        "{t}"
    );
    // ZUGFeRD's words, issued 2018-03-05.
    let t = terms_of(
        "text.xml",
        &einfach(
            "P-1",
            jiff::civil::date(2018, 3, 5),
            &[(TERMS, "2 % Skonto bei Zahlung innerhalb von 10 Tagen")],
        ),
    );
    assert_eq!(
        (&t["discountUntil"], &t["discountPercent"]),
        (&Value::from("2018-03-15"), &Value::from("2")),
        "{t}"
    );
    let t = terms_of(
        "fixture.xml",
        &einfach("P-2", jiff::civil::date(2018, 3, 5), &[]),
    );
    assert_eq!(
        (
            &t["dueOn"],
            &t["dueFrom"],
            &t["discountUntil"],
            &t["discountPercent"]
        ),
        (
            &Value::from("2018-04-04"),
            &Value::from("BT-20"),
            &Value::from("2018-03-15"),
            &Value::from("3")
        ),
        "{t}"
    );
    // BT-9 is taken as it stands.
    let due = format!(
        "<ram:Description>{TERMS}</ram:Description><ram:DueDateDateTime><udt:DateTimeString format=\"102\">20180420</udt:DateTimeString></ram:DueDateDateTime>"
    );
    let t = terms_of(
        "due.xml",
        &einfach(
            "P-3",
            jiff::civil::date(2018, 3, 5),
            &[(&format!("<ram:Description>{TERMS}</ram:Description>"), &due)],
        ),
    );
    assert_eq!(
        (&t["dueOn"], &t["dueFrom"]),
        (&Value::from("2018-04-20"), &Value::from("BT-9")),
        "{t}"
    );
    // "zahlbar innerhalb von 30 Tagen": due 30 days after the issue date.
    let t = terms_of(
        "thirty.xml",
        &einfach(
            "P-4",
            jiff::civil::date(2018, 3, 5),
            &[(TERMS, "zahlbar innerhalb von 30 Tagen")],
        ),
    );
    assert_eq!(
        (&t["dueOn"], &t["discountUntil"]),
        (&Value::from("2018-04-04"), &Value::Null),
        "{t}"
    );
}

#[test]
fn the_screen_shows_the_warnings_and_books_only_after_the_persons_choice() {
    let office = Office::new();
    let mut accountant = office.signed_in("accountant@alpha.de");
    let token = accountant.get("/bills").csrf();
    let upload =
        |browser: &mut crate::support::screens::Browser, name: &str, xml: String| -> String {
            let page = browser.upload(
                "/bills/received",
                &[("csrf", &token)],
                &[(name, xml.as_bytes())],
            );
            assert_eq!(page.status, 200, "{}", page.body);
            let at = page.body.find("href=\"/bills/received/pur_").unwrap()
                + "href=\"/bills/received/".len();
            page.body[at..at + page.body[at..].find('"').unwrap()].to_string()
        };
    // A first bill makes "Anders benannt GmbH" the supplier with the VAT id.
    let first = upload(
        &mut accountant,
        "first.xml",
        einfach(
            "W-1",
            recent(0),
            &[
                ("Kunden AG Mitte", "Alpha GmbH"),
                ("Lieferant GmbH", "Anders benannt GmbH"),
            ],
        ),
    );
    let at = format!("/bills/received/{first}");
    accountant
        .act(&at, &format!("{at}/book"), &[])
        .redirects_to(&format!("{at}?done=booked"));
    let bill = accountant.get(&format!("/bills/{first}"));
    assert!(
        bill.body.contains("Cash discount") && bill.body.contains("3 % if paid by"),
        "{}",
        bill.body
    );

    // Another buyer, two years old, the seller under another name.
    let id = upload(
        &mut accountant,
        "second.xml",
        einfach("W-2", recent(2), &[]),
    );
    let at = format!("/bills/received/{id}");
    let page = accountant.get(&at);
    for text in [
        "Check before booking:",
        "The document is addressed to &quot;Kunden AG Mitte&quot;",
        "more than a year before today",
        "is named &quot;Anders benannt GmbH&quot;",
        "book despite these warnings",
        "name=\"acceptWarnings\"",
        "name=\"supplier\" value=\"existing\"",
        "name=\"supplier\" value=\"new\"",
        "Cash discount",
    ] {
        assert!(page.body.contains(text), "{text}\n{}", page.body);
    }
    let refused = accountant.act(&at, &format!("{at}/book"), &[]);
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert!(
        refused.body.contains("field-acceptWarnings-error")
            && refused.body.contains("field-supplier-error"),
        "{}",
        refused.body
    );
    let refused = accountant.act(&at, &format!("{at}/book"), &[("acceptWarnings", "yes")]);
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert!(
        refused.body.contains("field-supplier-error"),
        "{}",
        refused.body
    );
    assert_eq!(
        office.count(&format!("SELECT count(*) FROM purchases WHERE id = '{id}'")),
        0
    );
    accountant
        .act(
            &at,
            &format!("{at}/book"),
            &[("acceptWarnings", "yes"), ("supplier", "new")],
        )
        .redirects_to(&format!("{at}?done=booked"));
    assert_eq!(
        office.count(&format!(
            "SELECT count(*) FROM purchases p JOIN customers c ON c.id = p.supplier_id
             WHERE p.id = '{id}' AND c.name = 'Lieferant GmbH' AND p.discount_percent = '3'"
        )),
        1
    );
}
