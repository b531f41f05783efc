//! The Bank screen and the bank accounts under Settings: an owner adds an
//! account, an accountant confirms a suggestion, splits a line and undoes
//! it, a viewer reads and is refused; the customer's page keeps an IBAN.
//! Every act's audit row names the person.

use kontor::rules::creditor_reference::CreditorReference;
use serde_json::json;

use crate::bank::{fixture, lines};
use crate::support::screens::{invoice, people_audit, Browser, Office};
use crate::support::statements::{camt053, Entry, Transfer};

const IBAN: &str = "DE36760260000123456789";

#[test]
fn a_person_confirms_splits_and_undoes_bank_lines_on_the_screens() {
    let o = Office::new();
    let mut owner = o.signed_in("owner@alpha.de");
    let page = owner.get("/settings/bank");
    assert!(page.body.contains("No bank account yet"), "{}", page.body);
    owner
        .act(
            "/settings/bank",
            "/settings/bank/accounts",
            &[
                ("iban", "DE36 7602 6000 0123 4567 89"),
                ("name", "Geschäftskonto"),
            ],
        )
        .redirects_to("/settings/bank?done=added");
    let page = owner.get("/settings/bank");
    assert!(
        page.body.contains("DE36 7602 6000 0123 4567 89") && page.body.contains("Geschäftskonto"),
        "{}",
        page.body
    );
    // A wrong IBAN is refused beside its field, nothing stored.
    let refused = owner.act(
        "/settings/bank",
        "/settings/bank/accounts",
        &[("iban", "DE36760260000123456788")],
    );
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert!(refused.body.contains("check digits"), "{}", refused.body);

    let first = invoice(&o, &o.a, "Müller Bau GmbH", 100_000, "2026-11-02");
    let second = invoice(&o, &o.a, "Stadtwerke", 20_000, "2026-11-02");
    let dir = tempfile::tempdir().unwrap();
    let day = "2026-11-18";
    let tx = |amount: i64, name: &str, remittance: &str| Transfer {
        amount,
        name: name.into(),
        remittance: remittance.into(),
        ..Transfer::default()
    };
    let entry = |r: &str, t: Transfer| Entry {
        bank_reference: r.into(),
        booked_on: day.into(),
        reversal: false,
        txs: vec![t],
    };
    let text = camt053(
        IBAN,
        "S-1",
        1,
        0,
        day,
        &[
            entry(
                "A",
                tx(118_000, "Müller Bau GmbH", &format!("Rechnung {first}")),
            ),
            entry("B", tx(23_800, "Unbekannt", "Sammelzahlung")),
        ],
    );
    let path = dir.path().join("s.xml");
    std::fs::write(&path, text).unwrap();
    o.data
        .ok(&["bank", "import", "--company", &o.a, &path.to_string_lossy()]);
    let suggested = lines(&o.data, &o.a, Some("suggested"));
    let stranger = lines(&o.data, &o.a, Some("unmatched"));
    let (line, other) = (
        suggested[0]["id"].as_str().unwrap(),
        stranger[0]["id"].as_str().unwrap(),
    );

    let mut accountant = o.signed_in("accountant@alpha.de");
    let list = accountant.get("/bank?state=suggested");
    assert!(
        list.body.contains(&format!("/bank/lines/{line}")),
        "{}",
        list.body
    );
    let page = accountant.get(&format!("/bank/lines/{line}"));
    assert!(page.body.contains("partial payment"), "{}", page.body);
    accountant
        .act(
            &format!("/bank/lines/{line}"),
            &format!("/bank/lines/{line}/confirm"),
            &[("suggestion", "1"), ("difference1", "fees")],
        )
        .redirects_to(&format!("/bank/lines/{line}?done=confirmed"));
    let paid = o.api().get(&o.key_a, &format!("/v1/invoices/{first}")).body;
    assert_eq!(
        paid["outstanding"]["minor"],
        json!(0),
        "the difference booked to fees"
    );
    // A split typed as people type amounts; more than the line has is refused.
    let too_much = accountant.act(
        &format!("/bank/lines/{other}"),
        &format!("/bank/lines/{other}/split"),
        &[("number1", &second), ("amount1", "999.00")],
    );
    assert_eq!(too_much.status, 409, "{}", too_much.body);
    accountant
        .act(
            &format!("/bank/lines/{other}"),
            &format!("/bank/lines/{other}/split"),
            &[("number1", &second), ("amount1", "200.00")],
        )
        .redirects_to(&format!("/bank/lines/{other}?done=split"));
    assert_eq!(
        o.api()
            .get(&o.key_a, &format!("/v1/invoices/{second}"))
            .body["outstanding"]["minor"],
        json!(3_800)
    );
    accountant
        .act(
            &format!("/bank/lines/{other}"),
            &format!("/bank/lines/{other}/undo"),
            &[],
        )
        .redirects_to(&format!("/bank/lines/{other}?done=undone"));
    assert_eq!(
        o.api()
            .get(&o.key_a, &format!("/v1/invoices/{second}"))
            .body["outstanding"]["minor"],
        json!(23_800)
    );
    accountant
        .act(
            &format!("/bank/lines/{other}"),
            &format!("/bank/lines/{other}/book"),
            &[("account", "other")],
        )
        .redirects_to(&format!("/bank/lines/{other}?done=booked"));
    let acts: Vec<String> = people_audit(&o, &o.a)
        .into_iter()
        .filter(|(who, _)| who == "accountant@alpha.de")
        .map(|(_, act)| act)
        .collect();
    for act in [
        "bank.line_confirmed",
        "difference.booked",
        "bank.line_split",
        "settlement.reversed",
        "bank.line_undone",
        "bank.line_booked",
    ] {
        assert!(acts.iter().any(|a| a == act), "{act}: {acts:?}");
    }

    // A viewer reads the lines and is refused each act.
    let mut viewer = o.signed_in("viewer@alpha.de");
    let page = viewer.get(&format!("/bank/lines/{line}"));
    assert_eq!(page.status, 200);
    assert!(!page.body.contains("/split\""), "{}", page.body);
    let refused = viewer.act(
        &format!("/bank/lines/{other}"),
        &format!("/bank/lines/{other}/ignore"),
        &[("reason", "x")],
    );
    assert_eq!(refused.status, 403, "{}", refused.body);
    let _ = fixture;
}

#[test]
fn a_customers_iban_is_kept_on_its_page() {
    let o = Office::new();
    let customer = o.api().customer(&o.key_a, "Bäckerei Sonnenschein KG");
    let id = customer["id"].as_str().unwrap();
    let mut owner = o.signed_in("owner@alpha.de");
    let saved = owner.act(
        &format!("/customers/{id}"),
        &format!("/customers/{id}"),
        &[("iban", "de60 4306 0967 1122 3344 55")],
    );
    saved.redirects_to(&format!("/customers/{id}?saved=1"));
    let page = owner.get(&format!("/customers/{id}"));
    assert!(
        page.body.contains("DE60 4306 0967 1122 3344 55"),
        "{}",
        page.body
    );
    let stored = o.api().get(&o.key_a, &format!("/v1/customers/{id}")).body;
    assert_eq!(stored["iban"], json!("DE60430609671122334455"));
}

/// A company of the office with the account, its statement of `day` with
/// `entries` imported through the console.
fn imported(o: &Office, day: &str, entries: &[Entry]) {
    o.data.ok(&[
        "bank",
        "account",
        "add",
        "--company",
        &o.a,
        "--iban",
        IBAN,
        "--name",
        "Geschäftskonto",
    ]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.xml");
    std::fs::write(&path, camt053(IBAN, "S-7", 7, 50_000, day, entries)).unwrap();
    o.data
        .ok(&["bank", "import", "--company", &o.a, &path.to_string_lossy()]);
}

fn one(reference: &str, day: &str, amount: i64, name: &str, remittance: &str) -> Entry {
    Entry {
        bank_reference: reference.into(),
        booked_on: day.into(),
        reversal: false,
        txs: vec![Transfer {
            amount,
            name: name.into(),
            remittance: remittance.into(),
            ..Transfer::default()
        }],
    }
}

/// What an invoice still owes, minor units, and its id.
fn owed(o: &Office, number: &str) -> (i64, String) {
    let body = o
        .api()
        .get(&o.key_a, &format!("/v1/invoices/{number}"))
        .body;
    (
        body["outstanding"]["minor"].as_i64().unwrap(),
        body["id"].as_str().unwrap().to_string(),
    )
}

#[test]
fn a_line_paying_two_invoices_is_settled_by_ticking_both_without_a_script() {
    let o = Office::new();
    let first = invoice(&o, &o.a, "Müller Bau GmbH", 100_000, "2026-11-02");
    let second = invoice(&o, &o.a, "Stadtwerke", 20_000, "2026-11-03");
    let third = invoice(&o, &o.a, "Fremde AG", 77_700, "2026-11-04");
    let ((a, a_id), (b, b_id), (_, c_id)) = (owed(&o, &first), owed(&o, &second), owed(&o, &third));
    let day = "2026-11-18";
    imported(
        &o,
        day,
        &[
            one("A", day, a + b, "Unbekannt", "Sammelzahlung"),
            one("B", day, -1_290, "", "Kontofuehrung"),
        ],
    );
    let stranger = lines(&o.data, &o.a, Some("unmatched"))
        .into_iter()
        .find(|l| l["amount"]["minor"] == json!(a + b))
        .unwrap();
    let id = stranger["id"].as_str().unwrap();
    let mut accountant = o.signed_in("accountant@alpha.de");

    // The list: the account, the statement's balances, a running balance.
    let list = accountant.get("/bank");
    for shown in [
        "Geschäftskonto",
        "DE36 7602 6000 0123 4567 89",
        "statement S-7",
        "Opening balance",
        "€500.00 (18 Nov 2026)",
        "Closing balance: €1,915.10 (18 Nov 2026)",
        // 500.00 + 1,190.00 + 238.00, then less 12.90.
        "<td class=\"amount\">€1,928.00</td>",
        "<td class=\"amount\">€1,915.10</td>",
    ] {
        assert!(list.body.contains(shown), "{shown}: {}", list.body);
    }

    accountant.language = "de-DE,de;q=0.9";
    let list = accountant.get("/bank");
    for shown in [
        "Kontoauszug S-7",
        "Anfangssaldo: 500,00\u{a0}€ (18.11.2026)",
        "Schlusssaldo: 1.915,10\u{a0}€ (18.11.2026)",
        "<td class=\"amount\">1.928,00\u{a0}€</td>",
    ] {
        assert!(list.body.contains(shown), "{shown}: {}", list.body);
    }
    accountant.language = "en-GB,en;q=0.9";
    // Every open invoice could fit; none is paid by the line alone.
    let page = accountant.get(&format!("/bank/lines/{id}"));
    assert_eq!(page.status, 200);
    for doc in [&a_id, &b_id, &c_id] {
        assert!(
            page.body.contains(&format!("value=\"{doc}\"")),
            "{doc}: {}",
            page.body
        );
    }
    // Money in: no bank fees proposed; other (for the tax adviser) is.
    assert!(
        page.body.contains("<option value=\"other\" selected>"),
        "{}",
        page.body
    );
    assert!(
        !page.body.contains("<option value=\"fees\" selected>"),
        "{}",
        page.body
    );
    // A search by number finds that one; by amount as people type it, that one.
    let found = accountant.get(&format!("/bank/lines/{id}?find={}", second.to_lowercase()));
    assert!(
        found.body.contains(&b_id) && !found.body.contains(&a_id),
        "{}",
        found.body
    );
    let found = accountant.get(&format!("/bank/lines/{id}?find=1.190%2C00"));
    assert!(
        !found.body.contains(&a_id),
        "English notation is 1,190.00: {}",
        found.body
    );
    let found = accountant.get(&format!("/bank/lines/{id}?find=1%2C190.00"));
    assert!(
        found.body.contains(&a_id) && !found.body.contains(&b_id),
        "{}",
        found.body
    );

    // Ticking two fills the split with what each owes, in the list's
    // order (nearest date first, the payer and amount telling nothing).
    let filled = accountant.get(&format!("/bank/lines/{id}?pick={a_id}&pick={b_id}"));
    assert!(
        filled
            .body
            .contains(&format!("name=\"doc1\" value=\"{b_id}\"")),
        "{}",
        filled.body
    );
    assert!(
        filled
            .body
            .contains(&format!("name=\"doc2\" value=\"{a_id}\"")),
        "{}",
        filled.body
    );
    assert!(
        filled.body.contains("name=\"amount1\" value=\"238.00\""),
        "{}",
        filled.body
    );
    assert!(
        filled.body.contains("name=\"amount2\" value=\"1,190.00\""),
        "{}",
        filled.body
    );
    assert!(
        filled
            .body
            .contains("The line has €1,428.00; the ticked documents owe €1,428.00."),
        "{}",
        filled.body
    );
    accountant
        .act(
            &format!("/bank/lines/{id}?pick={a_id}&pick={b_id}"),
            &format!("/bank/lines/{id}/split"),
            &[
                ("doc1", &b_id),
                ("amount1", "238.00"),
                ("doc2", &a_id),
                ("amount2", "1,190.00"),
                ("difference", "open"),
            ],
        )
        .redirects_to(&format!("/bank/lines/{id}?done=split"));
    assert_eq!((owed(&o, &first).0, owed(&o, &second).0), (0, 0));
    let after = lines(&o.data, &o.a, Some("settled"));
    assert!(after.iter().any(|l| l["id"] == json!(id)), "{after:?}");
    let c_owes = owed(&o, &third).0;
    assert_eq!(c_owes, 92_463, "the third untouched");
}

#[test]
fn ticked_documents_owing_more_than_the_line_fill_it_the_last_taking_the_rest() {
    let o = Office::new();
    let first = invoice(&o, &o.a, "Müller Bau GmbH", 100_000, "2026-11-02");
    let second = invoice(&o, &o.a, "Stadtwerke", 20_000, "2026-11-03");
    let ((a, a_id), (_, b_id)) = (owed(&o, &first), owed(&o, &second));
    let day = "2026-11-18";
    imported(
        &o,
        day,
        &[one("A", day, a + 10_000, "Unbekannt", "Zahlung")],
    );
    let id = lines(&o.data, &o.a, Some("unmatched"))[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut accountant = o.signed_in("accountant@alpha.de");
    accountant.language = "de-DE,de;q=0.9";
    let filled = accountant.get(&format!("/bank/lines/{id}?pick={b_id}&pick={a_id}"));
    // The list's order, best fit first: the second fits inside the line.
    assert!(
        filled.body.contains("name=\"amount1\" value=\"238,00\""),
        "{}",
        filled.body
    );
    assert!(
        filled.body.contains("name=\"amount2\" value=\"1.052,00\""),
        "{}",
        filled.body
    );
    for german in [
        "Offene Rechnungen, die passen könnten",
        "Sie werden um 138,00\u{a0}€ weniger bezahlt, als sie schulden.",
        "Was die Belege noch schulden: als Skonto",
        "Aufteilung mit den gewählten füllen",
    ] {
        assert!(filled.body.contains(german), "{german}: {}", filled.body);
    }
    // More than the line has is refused beside the field, nothing settled.
    let refused = accountant.act(
        &format!("/bank/lines/{id}"),
        &format!("/bank/lines/{id}/split"),
        &[
            ("doc1", &b_id),
            ("amount1", "238,00"),
            ("doc2", &a_id),
            ("amount2", "1.190,00"),
        ],
    );
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert_eq!(owed(&o, &second).0, 23_800);
    // The rest as a discount: both paid.
    accountant
        .act(
            &format!("/bank/lines/{id}"),
            &format!("/bank/lines/{id}/split"),
            &[
                ("doc1", &b_id),
                ("amount1", "238,00"),
                ("doc2", &a_id),
                ("amount2", "1.052,00"),
                ("difference", "discount"),
            ],
        )
        .redirects_to(&format!("/bank/lines/{id}?done=split"));
    assert_eq!((owed(&o, &first).0, owed(&o, &second).0), (0, 0));
    let page = accountant.get(&format!("/bank/lines/{id}"));
    assert!(page.body.contains("Differenz als Skonto"), "{}", page.body);
}

#[test]
fn an_advance_payment_becomes_the_customers_credit_and_is_applied_when_confirmed() {
    let o = Office::new();
    // Issued two days after the customer paid.
    let number = invoice(&o, &o.a, "Vorkasse GmbH", 50_000, "2026-11-20");
    let (gross, invoice_id) = owed(&o, &number);
    let day = "2026-11-18";
    imported(
        &o,
        day,
        &[one(
            "V",
            day,
            gross,
            "Vorkasse GmbH",
            &format!("Vorkasse {number}"),
        )],
    );
    let line = &lines(&o.data, &o.a, Some("suggested"))[0];
    let id = line["id"].as_str().unwrap();
    assert_eq!(line["suggestions"][0]["advance"], json!(true), "{line}");
    assert_eq!(
        owed(&o, &number).0,
        gross,
        "nothing settled before a person confirms"
    );

    let mut accountant = o.signed_in("accountant@alpha.de");
    let page = accountant.get(&format!("/bank/lines/{id}"));
    assert!(
        page.body.contains("Paid before the invoice&#39;s date")
            || page.body.contains("Paid before the invoice's date"),
        "{}",
        page.body
    );
    assert!(!page.body.contains("cannot precede"), "{}", page.body);
    accountant.language = "de-DE,de;q=0.9";
    let page = accountant.get(&format!("/bank/lines/{id}"));
    assert!(
        page.body.contains("Vor dem Rechnungsdatum gezahlt"),
        "{}",
        page.body
    );
    assert!(
        page.body
            .contains("im Verwendungszweck genannt; der Betrag passt"),
        "the invoice heads the open documents: {}",
        page.body
    );
    accountant
        .act(
            &format!("/bank/lines/{id}"),
            &format!("/bank/lines/{id}/confirm"),
            &[("suggestion", "1")],
        )
        .redirects_to(&format!("/bank/lines/{id}?done=confirmed"));
    assert_eq!(owed(&o, &number).0, 0);
    let page = accountant.get(&format!("/bank/lines/{id}"));
    for german in [
        "Als Guthaben des Kunden behalten",
        "aus dem Guthaben des Kunden verrechnet",
        "18.11.2026",
        "20.11.2026",
    ] {
        assert!(page.body.contains(german), "{german}: {}", page.body);
    }
    // The payment is the credit's: the invoice shows no bank payment, the
    // audit names the application, the credit is used up.
    let acts: Vec<String> = people_audit(&o, &o.a)
        .into_iter()
        .filter(|(who, _)| who == "accountant@alpha.de")
        .map(|(_, act)| act)
        .collect();
    assert!(
        acts.contains(&"invoice.credit_applied".to_string()),
        "{acts:?}"
    );
    let credits: i64 = o.count(&format!(
        "SELECT coalesce(sum(credit) - sum(debit), 0) FROM journal WHERE account = 'customer_credits' AND company_id = '{}'",
        o.a
    ));
    assert_eq!(credits, 0);
    let applied: i64 = o.count(&format!(
        "SELECT count(*) FROM journal WHERE account = 'customer_credits' AND posted_on = '2026-11-20' AND debit = {gross} AND company_id = '{}'",
        o.a
    ));
    assert_eq!(applied, 1, "applied on the invoice's day");
    // Undone, the invoice owes again and the line offers its advance again.
    accountant
        .act(
            &format!("/bank/lines/{id}"),
            &format!("/bank/lines/{id}/undo"),
            &[],
        )
        .redirects_to(&format!("/bank/lines/{id}?done=undone"));
    assert_eq!(owed(&o, &number).0, gross);
    let line = o.data.ok(&["bank", "line", id]);
    assert_eq!(line["state"], json!("suggested"), "{line}");
    assert_eq!(line["suggestions"][0]["advance"], json!(true), "{line}");
    let _ = invoice_id;
}

/// The owner of the office's first company, signed in, having added the
/// account `IBAN` under Settings → Bank.
fn with_account(o: &Office) -> Browser {
    let mut owner = o.signed_in("owner@alpha.de");
    owner
        .act(
            "/settings/bank",
            "/settings/bank/accounts",
            &[("iban", "DE36 7602 6000 0123 4567 89"), ("name", "Konto")],
        )
        .redirects_to("/settings/bank?done=added");
    owner
}

/// `bytes` uploaded as the file `name` on the Bank screen.
fn upload(owner: &mut Browser, name: &str, bytes: &[u8]) -> crate::support::screens::Page {
    let token = owner.get("/bank").csrf();
    owner.upload("/bank/import", &[("csrf", &token)], &[(name, bytes)])
}

#[test]
fn a_file_that_is_no_statement_is_refused_in_the_pages_language_and_nothing_is_stored() {
    let o = Office::new();
    let mut owner = with_account(&o);
    let english = upload(&mut owner, "notiz.txt", b"Bitte bis Freitag zahlen.");
    assert!(
        english
            .body
            .contains("The file notiz.txt is neither camt XML, a ZIP of camt files, nor MT940."),
        "{}",
        english.body
    );
    owner.language = crate::support::screens::GERMAN;
    let german = upload(&mut owner, "notiz.txt", b"Bitte bis Freitag zahlen.");
    assert!(
        german.body.contains(
            "Die Datei notiz.txt ist weder camt-XML noch ein ZIP mit camt-Dateien noch MT940."
        ),
        "{}",
        german.body
    );
    let empty = upload(&mut owner, "leer.xml", b"");
    assert!(
        empty.body.contains("Die Datei leer.xml ist leer."),
        "{}",
        empty.body
    );
    assert!(!empty.body.contains("The file"), "{}", empty.body);
    assert_eq!(o.count("SELECT count(*) FROM bank_lines"), 0);
    assert_eq!(o.count("SELECT count(*) FROM bank_files"), 0);

    // A statement imported twice: the second time, the note says so in
    // German, its day in the German notation; nothing is stored twice.
    // Each statement holds the same entry R-1 of 18 November.
    let holding_r1 = |id: &str, sequence: u64, opening: i64, day: &str| {
        let entry = one("R-1", "2026-11-18", 12_345, "Müller Bau GmbH", "Danke");
        camt053(IBAN, id, sequence, opening, day, &[entry])
    };
    let statement = holding_r1("S-1", 1, 50_000, "2026-11-18");
    let first = upload(&mut owner, "auszug.xml", statement.as_bytes());
    assert_eq!(first.status, 200, "{}", first.body);
    let again = upload(&mut owner, "nochmal.xml", statement.as_bytes());
    assert!(
        again
            .body
            .contains("Dieselbe Datei wurde schon importiert (als auszug.xml, am "),
        "{}",
        again.body
    );
    assert!(!again.body.contains("imported before"), "{}", again.body);
    assert_eq!(o.count("SELECT count(*) FROM bank_lines"), 1);
    // The same entry in the next statement: the line repeats, said in German
    // with its day and amount in the German notation.
    let next = holding_r1("S-2", 2, 62_345, "2026-11-19");
    let repeated = upload(&mut owner, "folgeauszug.xml", next.as_bytes());
    assert!(
        repeated.body.contains(
            "Die Buchung vom 18.11.2026 über 123,45\u{a0}€, Referenz R-1, im Auszug S-2 wiederholt die Buchung "
        ),
        "{}",
        repeated.body
    );
    assert_eq!(o.count("SELECT count(*) FROM bank_lines"), 1);
}

#[test]
fn an_import_that_leaves_part_of_a_line_says_so_in_the_pages_language() {
    let o = Office::new();
    let number = invoice(&o, &o.a, "Müller Bau GmbH", 100_000, "2026-11-02");
    let (gross, _) = owed(&o, &number);
    let mut owner = with_account(&o);
    let rf = CreditorReference::of_number(&number).unwrap();
    // The line pays 50.00 more than the invoice owes, naming it by its
    // creditor reference: the invoice is settled, the rest waits.
    let paying = |reference: &str, day: &str, rf: &CreditorReference| Entry {
        bank_reference: reference.into(),
        booked_on: day.into(),
        reversal: false,
        txs: vec![Transfer {
            amount: gross + 5_000,
            name: "Müller Bau GmbH".into(),
            remittance: "Danke".into(),
            reference: Some(rf.as_str().to_string()),
            ..Transfer::default()
        }],
    };
    owner.language = crate::support::screens::GERMAN;
    let statement = camt053(
        IBAN,
        "S-1",
        1,
        0,
        "2026-11-18",
        &[paying("R-1", "2026-11-18", &rf)],
    );
    let german = upload(&mut owner, "auszug.xml", statement.as_bytes());
    assert_eq!(german.status, 200, "{}", german.body);
    for said in [
        format!("Die Gläubigerreferenz {} ist die von {number}.", rf.as_str()),
        "zahlt 50,00\u{a0}€ mehr, als offen war; behalten Sie den Rest als Guthaben des Kunden oder buchen Sie ihn."
            .to_string(),
    ] {
        assert!(german.body.contains(&said), "{said}: {}", german.body);
    }
    assert!(!german.body.contains("more than that"), "{}", german.body);
    assert_eq!(owed(&o, &number).0, 0, "the invoice is settled");

    // The same in English, for a second invoice paid the same way.
    let second = invoice(&o, &o.a, "Müller Bau GmbH", 100_000, "2026-11-03");
    let rf = CreditorReference::of_number(&second).unwrap();
    let next = camt053(
        IBAN,
        "S-2",
        2,
        gross + 5_000,
        "2026-11-19",
        &[paying("R-2", "2026-11-19", &rf)],
    );
    owner.language = crate::support::screens::ENGLISH;
    let english = upload(&mut owner, "next.xml", next.as_bytes());
    assert!(
        english.body.contains(&format!(
            "The creditor reference {} is the one of {second}. The line ",
            rf.as_str()
        )) && english
            .body
            .contains(" pays €50.00 more than that; keep it as the customer"),
        "{}",
        english.body
    );
    assert_eq!(o.count("SELECT count(*) FROM bank_lines"), 2);
}

#[test]
fn a_readers_remark_is_said_in_the_pages_language_on_the_import_and_the_lines_page() {
    let o = Office::new();
    let mut owner = with_account(&o);
    owner.language = crate::support::screens::GERMAN;
    // The quarter's closing entry, interest computed on 30/360 days: the
    // bank writes 30 February, which is read as the month's last day.
    let text = ":20:STARTUMS\r\n:25:76026000/0123456789\r\n:28C:2/1\r\n:60F:C260227EUR1000,00\r\n\
        :61:2602300302D4,50NMSCNONREF\r\n:86:805?00ABSCHLUSS?20Abschluss per 30.02.2026?21Zinsen und Entgelte\r\n\
        :62F:C260302EUR995,50\r\n-\r\n";
    let page = upload(&mut owner, "abschluss.sta", text.as_bytes());
    assert_eq!(page.status, 200, "{}", page.body);
    let said = "Das Datum 260230 des Umsatzes nennt einen Tag, den es in diesem Monat nicht gibt \
                (Zinstage nach 30/360); es wurde als letzter Tag des Monats gelesen (28.02.2026).";
    assert!(
        page.body.contains(&format!(
            "Der Umsatz über -4,50\u{a0}€ im Auszug STARTUMS: {said}"
        )),
        "{}",
        page.body
    );
    assert!(!page.body.contains("names a day"), "{}", page.body);
    let line = lines(&o.data, &o.a, None)[0].clone();
    assert!(
        line["notes"][0]
            .as_str()
            .unwrap()
            .contains("it was read as 2026-02-28"),
        "the console and the API keep English: {line}"
    );
    let id = line["id"].as_str().unwrap();
    let german = owner.get(&format!("/bank/lines/{id}"));
    assert!(german.body.contains(said), "{}", german.body);
    owner.language = crate::support::screens::ENGLISH;
    let english = owner.get(&format!("/bank/lines/{id}"));
    assert!(
        english.body.contains(
            "The line's date 260230 names a day its month does not have (30/360 interest days); \
             it was read as 28 Feb 2026, the month's last day."
        ),
        "{}",
        english.body
    );
    // A note kept by a data file of an earlier version, a sentence: shown
    // as it was kept.
    o.db()
        .execute(
            "UPDATE bank_lines SET notes = '[\"An earlier sentence.\"]' WHERE id = ?1",
            [id],
        )
        .unwrap();
    assert!(owner
        .get(&format!("/bank/lines/{id}"))
        .body
        .contains("An earlier sentence."));
    // One that cannot be read is refused, never shown as no note.
    o.db()
        .execute(
            "UPDATE bank_lines SET notes = '{\"not\": \"a list\"}' WHERE id = ?1",
            [id],
        )
        .unwrap();
    assert_eq!(owner.get(&format!("/bank/lines/{id}")).status, 500);
    o.db()
        .execute(
            "UPDATE bank_lines SET notes = '[]', suggestions = 'none' WHERE id = ?1",
            [id],
        )
        .unwrap();
    assert_eq!(owner.get(&format!("/bank/lines/{id}")).status, 500);
    assert_eq!(owner.get("/bank").status, 500, "a list is refused whole");
    let (ok, _, err) = o.data.console(&["bank", "lines", "--company", &o.a]);
    assert!(
        !ok && err.contains(&format!("bank_lines row {id}")) && err.contains("suggestions"),
        "{err}"
    );
}

#[test]
fn a_statement_file_its_reader_cannot_read_is_refused_in_the_pages_language() {
    let o = Office::new();
    let mut owner = with_account(&o);
    // A :61: line without its mark C or D.
    let broken = ":20:STARTUMS\r\n:25:76026000/0123456789\r\n:28C:1/1\r\n:60F:C261117EUR500,00\r\n\
        :61:2611181118X12,35NTRFNONREF\r\n:86:166?00GUTSCHRIFT\r\n:62F:C261118EUR512,35\r\n-\r\n";
    // A camt file cut off inside its statement.
    let cut = "<?xml version=\"1.0\"?><Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.08\">\
               <BkToCstmrStmt><Stmt><Id>S-1</Id>";
    owner.language = crate::support::screens::GERMAN;
    for (name, bytes, said) in [
        (
            "kaputt.sta",
            broken.as_bytes(),
            "Die Datei kaputt.sta hat in Zeile 5 eine Buchung :61:, die nicht gelesen werden kann: \
             kein Kennzeichen C, D, RC oder RD nach den Datumsangaben.",
        ),
        (
            "halb.xml",
            cut.as_bytes(),
            "Die Datei halb.xml endet, bevor ihre Elemente geschlossen sind (in Zeile 1, innerhalb von \
             Document/BkToCstmrStmt/Stmt): sie ist wohl abgeschnitten.",
        ),
    ] {
        let page = upload(&mut owner, name, bytes);
        assert!(page.body.contains(said), "{said}: {}", page.body);
        assert!(!page.body.contains("cannot be read"), "{}", page.body);
    }
    owner.language = crate::support::screens::ENGLISH;
    let page = upload(&mut owner, "kaputt.sta", broken.as_bytes());
    assert!(
        page.body.contains(
            "The file kaputt.sta has a :61: line on line 5 that cannot be read: \
             no mark C, D, RC or RD after the dates."
        ),
        "{}",
        page.body
    );
    assert_eq!(o.count("SELECT count(*) FROM bank_lines"), 0);
    assert_eq!(o.count("SELECT count(*) FROM bank_files"), 0);
}
