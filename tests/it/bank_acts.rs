//! Bank lines acted on where the ways cross: a camt.054 arriving for a
//! batch entry already settled in part, a returned direct debit met twice
//! or in closed books, lines in another currency than their documents, an
//! undo followed by an earlier line, a confirmed suggestion undone, and a
//! bill number two suppliers share.

use serde_json::{json, Value};

use crate::adviser::bill;
use crate::bank::{bank_total, batch_and_its_notification, import, lines, write};
use crate::support::statements::{camt053, Entry, Transfer};
use crate::support::{trial, World};

const IBAN: &str = "DE36760260000123456789";

/// A company with its bank account, and invoices issued on `on` for the
/// given nets (19 %); returns their numbers and gross amounts.
fn books(w: &World, on: &str, nets: &[i64]) -> Vec<(String, i64)> {
    w.data.ok(&[
        "bank",
        "account",
        "add",
        "--company",
        &w.company,
        "--iban",
        IBAN,
    ]);
    let c = w.client();
    let customer = c.customer(&w.live, "Bäckerei Sonnenschein KG");
    nets.iter()
        .map(|net| {
            let draft = c.draft(&w.live, &customer);
            w.data.line(&draft, *net, "19", false);
            let invoice = w.data.ok(&["draft", "issue", &draft, "--on", on]);
            (
                invoice["number"].as_str().unwrap().to_string(),
                invoice["gross"]["minor"].as_i64().unwrap(),
            )
        })
        .collect()
}

fn outstanding(w: &World, number: &str) -> i64 {
    let c = w.client();
    c.get(&w.live, &format!("/v1/invoices/{number}")).body["outstanding"]["minor"]
        .as_i64()
        .unwrap()
}

fn tx(amount: i64, remittance: &str) -> Transfer {
    Transfer {
        amount,
        name: "Bäckerei Sonnenschein KG".into(),
        remittance: remittance.into(),
        ..Transfer::default()
    }
}

fn entry(reference: &str, day: &str, reversal: bool, t: Transfer) -> Entry {
    Entry {
        bank_reference: reference.into(),
        booked_on: day.into(),
        reversal,
        txs: vec![t],
    }
}

/// Imports a statement of the entries on `day`; returns the file's report.
fn import_day(w: &World, dir: &tempfile::TempDir, id: &str, day: &str, entries: &[Entry]) -> Value {
    let file = write(
        dir,
        &format!("{id}.xml"),
        camt053(IBAN, id, 1, 0, day, entries).as_bytes(),
    );
    let (ok, r, e) = import(&w.data, &w.company, &[&file]);
    assert!(ok, "{id}: {e} {r}");
    r["files"][0].clone()
}

fn line_by(w: &World, remittance: &str) -> Value {
    lines(&w.data, &w.company, None)
        .into_iter()
        .find(|l| l["remittance"] == json!(remittance))
        .unwrap_or_else(|| panic!("no line {remittance}"))
}

#[test]
fn a_camt054_for_a_batch_settled_in_part_adds_nothing() {
    let w = World::new();
    let issued = books(&w, "2026-11-02", &[10_000]);
    let dir = tempfile::tempdir().unwrap();
    let (whole, notification) = batch_and_its_notification();
    let (ok, _, e) = import(
        &w.data,
        &w.company,
        &[&write(&dir, "053.xml", whole.as_bytes())],
    );
    assert!(ok, "{e}");
    let batch = lines(&w.data, &w.company, None)[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    w.data.ok(&[
        "bank",
        "split",
        &batch,
        "--to",
        &format!("{}=5000", issued[0].0),
    ]);
    let before = bank_total(&w.data, &w.company);
    let (ok, r, e) = import(
        &w.data,
        &w.company,
        &[&write(&dir, "054.xml", notification.as_bytes())],
    );
    assert!(ok, "{e}");
    assert_eq!(
        (
            r["files"][0]["new"].clone(),
            r["files"][0]["duplicates"].clone()
        ),
        (json!(0), json!(3)),
        "{r}"
    );
    assert!(
        r["files"][0]["notes"]
            .to_string()
            .contains("BATCH-1 of DE36 7602 6000 0123 4567 89 was acted on already"),
        "{r}"
    );
    let all = lines(&w.data, &w.company, None);
    assert_eq!(all.len(), 1, "the split line stays: {all:?}");
    assert_eq!(all[0]["id"], json!(batch));
    assert_eq!(
        bank_total(&w.data, &w.company),
        before,
        "no money offered twice"
    );
    // What it settled can still be undone.
    w.data.ok(&["bank", "undo", &batch]);
    assert_eq!(outstanding(&w, &issued[0].0), issued[0].1);
}

#[test]
fn a_returned_debit_takes_back_once_and_waits_in_closed_books() {
    let w = World::new();
    let issued = books(&w, "2026-11-02", &[10_000, 20_000]);
    let dir = tempfile::tempdir().unwrap();
    let collected = |n: usize| {
        let (number, gross) = &issued[n];
        let mut t = tx(*gross, number);
        t.end_to_end_id = Some(format!("E2E-{number}"));
        t
    };
    let returned = |n: usize| {
        let mut t = collected(n);
        t.amount = -t.amount;
        t.return_reason = Some("AC04".into());
        t
    };
    let r = import_day(
        &w,
        &dir,
        "S-1",
        "2026-11-05",
        &[
            entry("C-0", "2026-11-05", false, collected(0)),
            entry("C-1", "2026-11-05", false, collected(1)),
        ],
    );
    assert_eq!(r["settled"], json!(2), "{r}");
    let r = import_day(
        &w,
        &dir,
        "S-2",
        "2026-11-06",
        &[entry("R-0", "2026-11-06", true, returned(0))],
    );
    assert_eq!(r["settled"], json!(1), "{r}");
    assert_eq!(outstanding(&w, &issued[0].0), issued[0].1, "owed again");
    // The collection's line cannot be undone: its payment went back.
    let original = lines(&w.data, &w.company, None)
        .into_iter()
        .find(|l| l["remittance"] == json!(issued[0].0) && l["amount"]["minor"].as_i64() > Some(0))
        .unwrap();
    let (ok, _, e) = w
        .data
        .console(&["bank", "undo", original["id"].as_str().unwrap()]);
    assert!(!ok && e.contains("was returned"), "{e}");
    assert_eq!(
        original["settlements"][0]["returnedOn"],
        json!("2026-11-06"),
        "{original}"
    );
    // The same return again takes nothing back; the file's other line imports.
    let again = import_day(
        &w,
        &dir,
        "S-3",
        "2026-11-07",
        &[
            entry("R-0b", "2026-11-07", true, returned(0)),
            entry("X-1", "2026-11-07", false, tx(4_200, "Spende")),
        ],
    );
    assert_eq!(
        (again["new"].clone(), again["unmatched"].clone()),
        (json!(2), json!(2)),
        "{again}"
    );
    assert_eq!(
        outstanding(&w, &issued[0].0),
        issued[0].1,
        "taken back once"
    );
    // A return dated in closed books waits for a person; the file imports.
    w.data.ok(&[
        "books",
        "close",
        "--company",
        &w.company,
        "--through",
        "2026-11-10",
    ]);
    let closed = import_day(
        &w,
        &dir,
        "S-4",
        "2026-11-09",
        &[
            entry("R-1", "2026-11-09", true, returned(1)),
            entry("X-2", "2026-11-09", false, tx(4_300, "Spende 2")),
        ],
    );
    assert_eq!(
        (closed["new"].clone(), closed["unmatched"].clone()),
        (json!(2), json!(2)),
        "{closed}"
    );
    assert!(
        closed["notes"].to_string().contains("could not take back"),
        "{closed}"
    );
    assert_eq!(outstanding(&w, &issued[1].0), 0, "still paid");
}

#[test]
fn a_line_settles_and_books_only_in_its_documents_and_the_books_currency() {
    let w = World::new();
    let issued = books(&w, "2026-11-02", &[10_000]);
    let dir = tempfile::tempdir().unwrap();
    // An entry in dollars in the euro account is refused with its file.
    let euros = camt053(
        IBAN,
        "S-1",
        1,
        0,
        "2026-11-05",
        &[entry("U-1", "2026-11-05", false, tx(50_000, "misc"))],
    );
    let at = euros.find("<Ntry>").unwrap();
    let dollars = format!(
        "{}{}",
        &euros[..at],
        euros[at..].replace("Ccy=\"EUR\"", "Ccy=\"USD\"")
    );
    assert_ne!(dollars, euros);
    let (ok, r, e) = import(
        &w.data,
        &w.company,
        &[&write(&dir, "usd-entry.xml", dollars.as_bytes())],
    );
    assert!(!ok, "{r}");
    assert!(
        r["files"][0]["refused"]
            .as_str()
            .unwrap_or(&e)
            .contains("USD"),
        "{r} {e}"
    );
    assert!(lines(&w.data, &w.company, None).is_empty());
    // A dollar account's line settles no euro invoice and books nothing.
    w.data.ok(&[
        "bank",
        "account",
        "add",
        "--company",
        &w.company,
        "--iban",
        "DE89370400440532013000",
        "--currency",
        "USD",
    ]);
    let usd = camt053(
        "DE89370400440532013000",
        "U-1",
        1,
        0,
        "2026-11-05",
        &[entry(
            "U-2",
            "2026-11-05",
            false,
            tx(issued[0].1, "Zahlung"),
        )],
    )
    .replace("Ccy=\"EUR\"", "Ccy=\"USD\"")
    .replace("<Ccy>EUR</Ccy>", "<Ccy>USD</Ccy>");
    let (ok, _, e) = import(
        &w.data,
        &w.company,
        &[&write(&dir, "usd.xml", usd.as_bytes())],
    );
    assert!(ok, "{e}");
    let line = lines(&w.data, &w.company, None)[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let before = bank_total(&w.data, &w.company);
    let (ok, _, e) = w.data.console(&[
        "bank",
        "split",
        &line,
        "--to",
        &format!("{}={}", issued[0].0, issued[0].1),
    ]);
    assert!(!ok && e.contains("USD") && e.contains("EUR"), "{e}");
    let (ok, _, e) = w
        .data
        .console(&["bank", "book", &line, "--account", "interest"]);
    assert!(!ok && e.contains("USD"), "{e}");
    assert_eq!(outstanding(&w, &issued[0].0), issued[0].1);
    assert_eq!(bank_total(&w.data, &w.company), before);
    assert_eq!(lines(&w.data, &w.company, Some("unmatched")).len(), 1);
}

#[test]
fn an_undone_settlement_lets_an_earlier_line_settle_and_offers_its_suggestion_again() {
    let w = World::new();
    let issued = books(&w, "2026-11-02", &[10_000]);
    let (number, gross) = issued[0].clone();
    let dir = tempfile::tempdir().unwrap();
    import_day(
        &w,
        &dir,
        "S-1",
        "2026-11-05",
        &[entry(
            "A-1",
            "2026-11-05",
            false,
            tx(gross, "Zahlung ohne Nummer"),
        )],
    );
    let later = import_day(
        &w,
        &dir,
        "S-2",
        "2026-11-06",
        &[entry(
            "A-2",
            "2026-11-06",
            false,
            tx(gross - 1_000, &format!("{number} Teilzahlung")),
        )],
    );
    assert_eq!(later["suggested"], json!(1), "{later}");
    let partial = line_by(&w, &format!("{number} Teilzahlung"));
    let id = partial["id"].as_str().unwrap();
    w.data.ok(&["bank", "confirm", id]);
    // While that payment stands, the earlier line cannot settle the
    // invoice; the refusal speaks of the line, not of options it lacks.
    let earlier = line_by(&w, "Zahlung ohne Nummer");
    let (ok, _, e) = w.data.console(&[
        "bank",
        "split",
        earlier["id"].as_str().unwrap(),
        "--to",
        &format!("{number}=1000"),
    ]);
    assert!(
        !ok && e.contains("The line's booking day is 2026-11-05") && !e.contains("--on"),
        "{e}"
    );
    w.data.ok(&["bank", "undo", id]);
    let undone = line_by(&w, &format!("{number} Teilzahlung"));
    assert_eq!(undone["state"], json!("suggested"), "{undone}");
    assert_eq!(undone["suggestions"], partial["suggestions"], "{undone}");
    // The earlier line now settles the invoice: the undone payment no
    // longer holds the date order.
    let earlier = line_by(&w, "Zahlung ohne Nummer");
    w.data.ok(&[
        "bank",
        "split",
        earlier["id"].as_str().unwrap(),
        "--to",
        &format!("{number}={gross}"),
    ]);
    assert_eq!(outstanding(&w, &number), 0);
}

#[test]
fn a_bill_number_two_suppliers_share_names_either_bill_never_both() {
    let w = World::new();
    books(&w, "2026-11-02", &[]);
    let mut bills = Vec::new();
    for (supplier, number, net) in [
        ("Holzhandel Meier KG", "LF-1", "10000"),
        ("Anderer Lieferant", "lf-1", "20000"),
    ] {
        let bill = w.data.ok(&[
            "purchase",
            "record",
            "--company",
            &w.company,
            "--supplier",
            supplier,
            "--document-number",
            number,
            "--date",
            "2026-11-02",
            "--due",
            "2026-11-30",
            "--currency",
            "EUR",
            "--net",
            net,
            "--tax",
            "0",
        ]);
        bills.push(bill["id"].as_str().unwrap().to_string());
    }
    let dir = tempfile::tempdir().unwrap();
    // 300.00 is neither bill nor both as one: two suggestions, one bill each.
    let r = import_day(
        &w,
        &dir,
        "S-1",
        "2026-11-05",
        &[entry(
            "B-1",
            "2026-11-05",
            false,
            tx(-30_000, "Zahlung LF-1"),
        )],
    );
    assert_eq!(r["suggested"], json!(1), "{r}");
    let line = line_by(&w, "Zahlung LF-1");
    let suggestions = line["suggestions"].as_array().unwrap();
    assert!(!suggestions.is_empty(), "{line}");
    for s in suggestions {
        assert_eq!(s["items"].as_array().unwrap().len(), 1, "one bill: {s}");
    }
    // 100.00 is the first bill's open amount: certain, and the other is untouched.
    let r = import_day(
        &w,
        &dir,
        "S-2",
        "2026-11-06",
        &[entry(
            "B-2",
            "2026-11-06",
            false,
            tx(-10_000, "Rechnung LF-1"),
        )],
    );
    assert_eq!(r["settled"], json!(1), "{r}");
    let paid = line_by(&w, "Rechnung LF-1");
    assert_eq!(paid["settlements"].as_array().unwrap().len(), 1, "{paid}");
    assert_eq!(
        paid["settlements"][0]["amount"]["minor"],
        json!(10_000),
        "{paid}"
    );
    // A person splitting by that number is asked for the bill's id.
    let open = line["id"].as_str().unwrap();
    let (ok, _, e) = w
        .data
        .console(&["bank", "split", open, "--to", "lf-1=20000"]);
    assert!(!ok && e.contains("two suppliers"), "{e}");
    w.data.ok(&[
        "bank",
        "split",
        open,
        "--to",
        &format!("{}=20000", bills[1]),
    ]);
    // A number that is no invoice taking payments is named as such.
    let (ok, _, e) = w
        .data
        .console(&["bank", "split", open, "--to", "RE-NONE=100"]);
    assert!(
        !ok && e.contains("RE-NONE, which is no bill of the company"),
        "{e}"
    );
}

#[test]
fn an_overpayment_by_creditor_reference_leaves_the_rest_to_book() {
    let w = World::new();
    let issued = books(&w, "2026-11-02", &[10_000]);
    let (number, gross) = issued[0].clone();
    let rf = kontor::rules::creditor_reference::CreditorReference::of_number(&number).unwrap();
    let mut t = tx(gross + 500, "Danke");
    t.reference = Some(rf.as_str().to_string());
    let dir = tempfile::tempdir().unwrap();
    let r = import_day(
        &w,
        &dir,
        "S-1",
        "2026-11-05",
        &[entry("O-1", "2026-11-05", false, t)],
    );
    assert_eq!(
        (
            r["settled"].clone(),
            r["suggested"].clone(),
            r["unmatched"].clone()
        ),
        (json!(0), json!(0), json!(1)),
        "{r}"
    );
    assert!(
        r["notes"].to_string().contains(&format!(
            "The creditor reference {} is the one of {number}.",
            rf.as_str()
        )) && r["notes"].to_string().contains("5.00 EUR more"),
        "{r}"
    );
    assert_eq!(outstanding(&w, &number), 0);
    let line = lines(&w.data, &w.company, None)[0].clone();
    assert_eq!(line["state"], json!("unmatched"), "{line}");
    w.data.ok(&[
        "bank",
        "book",
        line["id"].as_str().unwrap(),
        "--account",
        "credit",
    ]);
    assert_eq!(
        lines(&w.data, &w.company, None)[0]["state"],
        json!("settled")
    );
}

/// Confirms the one suggestion of the line paid with `remittance`, the rest
/// booked as a discount; returns the line as confirmed.
fn confirm_discount(w: &World, remittance: &str) -> Value {
    let line = line_by(w, remittance);
    assert_eq!(line["state"], json!("suggested"), "{line:#}");
    w.data.ok(&[
        "bank",
        "confirm",
        line["id"].as_str().unwrap(),
        "--difference",
        "discount",
    ])
}

#[test]
fn a_discount_takes_its_vat_back_in_the_vat_return_the_ec_sales_list_and_the_datev_export() {
    let w = World::new();
    let c = w.client();
    w.data.ok(&[
        "company",
        "set",
        &w.company,
        "--chart",
        "skr03",
        "--datev-adviser",
        "29098",
        "--datev-client",
        "55003",
    ]);
    w.data.ok(&[
        "bank",
        "account",
        "add",
        "--company",
        &w.company,
        "--iban",
        IBAN,
    ]);
    let kunde = c.customer(&w.live, "Kunde Müller KG");
    let bau = c.post(&w.live, "/v1/customers", &crate::support::unique(), &json!({
        "name": "Bau GmbH", "street": "Ring 1", "postalCode": "1010", "city": "Wien", "country": "AT", "vatId": "ATU13585627"
    }));
    assert_eq!(bau.status, 201, "{:?}", bau.body);
    // 100.00 at 19 % and 100.00 at 7 %: 226.00; 1,000.00 of goods to Austria.
    let draft = c.draft(&w.live, &kunde);
    w.data.line(&draft, 10_000, "19", false);
    w.data.line(&draft, 10_000, "7", false);
    let mixed = w.data.ok(&["draft", "issue", &draft, "--on", "2026-11-02"])["number"]
        .as_str()
        .unwrap()
        .to_string();
    let draft = c.draft(&w.live, &bau.body);
    w.data.ok(&[
        "draft",
        "line",
        &draft,
        "--description",
        "Ware",
        "--quantity",
        "1",
        "--unit-price",
        "100000",
        "--vat-category",
        "K",
        "--exemption-code",
        "VATEX-EU-IC",
    ]);
    let goods = w.data.ok(&["draft", "issue", &draft, "--on", "2026-11-02"])["number"]
        .as_str()
        .unwrap()
        .to_string();
    // A bill of 200.00 + 38.00 and a 500.00 service from Ireland (reverse charge).
    bill(
        &w,
        "Papier AG",
        "LF-77",
        "2026-11-03",
        "20000",
        "3800",
        &["--tax-rate", "19"],
    );
    bill(
        &w,
        "Cloud Services Ltd",
        "INV-9001",
        "2026-11-03",
        "50000",
        "0",
        &["--reverse-charge", "--supplier-vat-id", "IE6388047V"],
    );
    // Each paid less 2 % (Skonto).
    let dir = tempfile::tempdir().unwrap();
    let pay = |amount: i64, name: &str, remittance: &str| Transfer {
        amount,
        name: name.into(),
        remittance: remittance.into(),
        ..Transfer::default()
    };
    import_day(
        &w,
        &dir,
        "SK-1",
        "2026-11-10",
        &[
            entry(
                "SK-A",
                "2026-11-10",
                false,
                pay(22_148, "Kunde Müller KG", &mixed),
            ),
            entry("SK-B", "2026-11-10", false, pay(98_000, "Bau GmbH", &goods)),
            entry(
                "SK-C",
                "2026-11-10",
                false,
                pay(-23_324, "Papier AG", "LF-77"),
            ),
            entry(
                "SK-D",
                "2026-11-10",
                false,
                pay(-49_000, "Cloud Services Ltd", "INV-9001"),
            ),
        ],
    );
    for remittance in [mixed.as_str(), goods.as_str(), "LF-77", "INV-9001"] {
        let confirmed = confirm_discount(&w, remittance);
        assert_eq!(
            confirmed["line"]["state"],
            json!("settled"),
            "{confirmed:#}"
        );
    }
    assert_eq!(outstanding(&w, &mixed), 0);
    assert_eq!(outstanding(&w, &goods), 0);

    // The VAT return: each base and tax less its discount's part.
    // 4.52 off 226.00: 2.38 of the 19 % (2.00 + 0.38), 2.14 of the 7 % (2.00 + 0.14);
    // 4.76 off the bill: 0.76 input tax; 10.00 off the service: 1.90 of both taxes.
    let vat = w.data.ok(&[
        "vat",
        "return",
        "--company",
        &w.company,
        "--period",
        "2026-11",
    ]);
    let expected: std::collections::BTreeMap<String, String> = [
        ("81", "98"),
        ("86", "98"),
        ("41", "980"),
        ("46", "490"),
        ("47", "93.10"),
        ("66", "37.24"),
        ("67", "93.10"),
        ("83", "-11.76"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    assert_eq!(crate::adviser::kz(&vat), expected, "{vat:#}");
    assert_eq!(
        vat["bookedTax"],
        json!({"81": "18.62", "86": "6.86"}),
        "{vat:#}"
    );
    // Each discount's posting names the document it was granted on.
    let numbers = |kz: &str| -> Vec<String> {
        vat["postings"][kz]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["document"]["number"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(numbers("81"), [mixed.clone(), mixed.clone()], "{vat:#}");
    assert_eq!(numbers("66"), ["LF-77", "LF-77"], "{vat:#}");
    assert_eq!(numbers("67"), ["INV-9001", "INV-9001"], "{vat:#}");
    // The EC sales list: the supply to Austria less its discount.
    let ec = w.data.ok(&[
        "vat",
        "ec-sales",
        "--company",
        &w.company,
        "--period",
        "2026-11",
    ]);
    assert_eq!(
        ec["rows"],
        json!([{"vatId": "ATU13585627", "country": "AT", "amount": "980", "kind": "L"}]),
        "{ec:#}"
    );
    // The ledger still balances, and the profit and loss shows the net discounts.
    let tb = w
        .data
        .ok(&["books", "trial-balance", "--company", &w.company]);
    let granted = trial::ledger(&tb, "discounts_granted").expect("discounts granted");
    assert_eq!(granted, (400 + 2_000, 0), "{tb:#}");
    let received = trial::ledger(&tb, "discounts_received").expect("discounts received");
    assert_eq!(received.1, 400 + 1_000, "{tb:#}");

    // DATEV: each discount its gross on the automatic account of its rate.
    let out = dir.path().join("november.zip");
    w.data.ok(&[
        "export",
        "datev",
        "--company",
        &w.company,
        "--from",
        "2026-11-01",
        "--to",
        "2026-11-30",
        "--out",
        out.to_str().unwrap(),
    ]);
    let files = crate::adviser::unzip(&out);
    let read = crate::support::extf::read(
        crate::adviser::file(&files, "EXTF_Buchungsstapel_"),
        &crate::support::extf::booking_headings(),
    );
    let bookings = crate::support::extf::bookings(&read);
    let mut discounts: Vec<(u32, i64, String)> = bookings
        .iter()
        .filter(|b| [8736, 8731, 8743, 3736, 3151, 8730, 3730].contains(&b.contra))
        .map(|b| (b.contra, b.amount, b.bu.clone()))
        .collect();
    discounts.sort();
    assert_eq!(
        discounts,
        vec![
            (3151, 1_000, String::new()),
            (3736, 476, String::new()),
            (8731, 214, String::new()),
            (8736, 238, String::new()),
            (8743, 2_000, String::new()),
        ],
        "{bookings:#?}"
    );
    // The discount on the supply to Austria names the buyer's VAT id, as its invoice does.
    let eu = |contra: &str| {
        read.rows
            .iter()
            .find(|r| r["Gegenkonto (ohne BU-Schlüssel)"] == contra)
            .map(|r| r["EU-Land u. UStID (Bestimmung)"].clone())
            .unwrap_or_else(|| panic!("no booking against {contra}"))
    };
    assert_eq!(
        (eu("8125"), eu("8743")),
        ("ATU13585627".to_string(), "ATU13585627".to_string())
    );
    // Undone, the discount's tax comes back with it.
    w.data
        .ok(&["bank", "undo", line_by(&w, "LF-77")["id"].as_str().unwrap()]);
    let vat = w.data.ok(&[
        "vat",
        "return",
        "--company",
        &w.company,
        "--period",
        "2026-11",
    ]);
    assert_eq!(vat["kz"]["66"], json!("38.00"), "{vat:#}");
    // The counter-posting of the undo names the bill too.
    let behind_66: Vec<&Value> = vat["postings"]["66"].as_array().unwrap().iter().collect();
    assert_eq!(behind_66.len(), 3, "{vat:#}");
    assert!(
        behind_66
            .iter()
            .all(|p| p["document"]["number"] == json!("LF-77")
                && p["document"]["kind"] == json!("bill")),
        "{vat:#}"
    );
}

#[test]
fn a_returned_debit_takes_back_the_discount_its_collection_was_granted() {
    let w = World::new();
    let issued = books(&w, "2026-11-02", &[10_000]);
    let (number, gross) = issued[0].clone();
    let dir = tempfile::tempdir().unwrap();
    // Collected less 2 %, the rest granted as a discount.
    let mut collected = tx(gross - 238, &number);
    collected.end_to_end_id = Some("E2E-SKONTO".into());
    import_day(
        &w,
        &dir,
        "D-1",
        "2026-11-05",
        &[entry("C-1", "2026-11-05", false, collected.clone())],
    );
    let confirmed = confirm_discount(&w, &number);
    assert_eq!(
        confirmed["line"]["state"],
        json!("settled"),
        "{confirmed:#}"
    );
    assert_eq!(outstanding(&w, &number), 0);
    let vat = w.data.ok(&[
        "vat",
        "return",
        "--company",
        &w.company,
        "--period",
        "2026-11",
    ]);
    assert_eq!(
        (vat["kz"]["81"].clone(), vat["bookedTax"]["81"].clone()),
        (json!("98"), json!("18.62")),
        "{vat:#}"
    );
    // The debit comes back: the whole invoice is owed again, its VAT whole.
    let mut returned = collected;
    returned.amount = -returned.amount;
    returned.return_reason = Some("AC04".into());
    let r = import_day(
        &w,
        &dir,
        "D-2",
        "2026-11-06",
        &[entry("R-1", "2026-11-06", true, returned)],
    );
    assert_eq!(r["settled"], json!(1), "{r}");
    assert_eq!(
        outstanding(&w, &number),
        gross,
        "the discount went back with the payment"
    );
    let vat = w.data.ok(&[
        "vat",
        "return",
        "--company",
        &w.company,
        "--period",
        "2026-11",
    ]);
    assert_eq!(
        (vat["kz"]["81"].clone(), vat["bookedTax"]["81"].clone()),
        (json!("100"), json!("19.00")),
        "{vat:#}"
    );
    // The issue, the discount and its taking back all name the invoice.
    let behind: Vec<&Value> = vat["postings"]["81"].as_array().unwrap().iter().collect();
    assert_eq!(behind.len(), 3, "{vat:#}");
    assert!(
        behind
            .iter()
            .all(|p| p["document"]["number"] == json!(number)),
        "{vat:#}"
    );
    let tb = w
        .data
        .ok(&["books", "trial-balance", "--company", &w.company]);
    let granted = trial::ledger(&tb, "discounts_granted").unwrap();
    assert_eq!(granted.0, granted.1, "{tb:#}");
}
