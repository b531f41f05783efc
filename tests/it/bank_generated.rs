//! The generated test of the bank import: 1,000 invoices and 200 bills, a
//! camt.053.001.08 and an MT940 written by the test with every case of the
//! matching ladder (creditor reference, number with spaces and dashes,
//! combined, partial, fee-reduced, overpaid, known IBAN, unknown payer, a
//! returned direct debit, a batch of 4, bills), imported through the
//! console; then a person's acts on the suggestions. After every act every
//! invoice owes what the test expects, the books balance and the ledger
//! agrees with the open items (the check of `ledger.rs`).

use std::collections::HashMap;

use serde_json::{json, Value};

use crate::bank::{import, lines};
use crate::support::fill::{fill, Doc};
use crate::support::statements::{camt053, mt940, Entry, Transfer};
use crate::support::World;

const IBAN: &str = "DE36760260000123456789";
const DAY: &str = "2026-11-18";

/// The IBAN known for customer `k` (customers 40 to 59 have one).
fn customer_iban(k: usize) -> Option<String> {
    (40..60).contains(&k).then(|| {
        kontor::rules::bank::Iban::from_german("70050000", &format!("{}", 1000 + k))
            .unwrap()
            .as_str()
            .to_string()
    })
}

/// The number written by a payer who types spaces and dashes: three ways.
fn typed(number: &str, way: usize) -> String {
    match way % 3 {
        0 => number.replace('-', " - ").to_lowercase(),
        1 => number.replace('-', ""),
        _ => {
            let mut out = String::new();
            let mut last_digit = None;
            for c in number.chars().filter(char::is_ascii_alphanumeric) {
                let digit = c.is_ascii_digit();
                if last_digit.is_some_and(|d| d != digit) {
                    out.push(' ');
                }
                out.push(c);
                last_digit = Some(digit);
            }
            out
        }
    }
}

fn tx(amount: i64, name: &str, remittance: &str, case: &str) -> Transfer {
    Transfer {
        amount,
        name: name.into(),
        remittance: remittance.into(),
        end_to_end_id: Some(case.into()),
        ..Transfer::default()
    }
}

/// A case's end-to-end id: its invoice's number's digits glued to a word,
/// so that no rung finds the number in it.
fn case_of(number: &str) -> String {
    format!(
        "CASE{}",
        number
            .chars()
            .filter(char::is_ascii_digit)
            .collect::<String>()
    )
}

fn one(reference: String, tx: Transfer) -> Entry {
    Entry {
        bank_reference: reference,
        booked_on: DAY.into(),
        reversal: false,
        txs: vec![tx],
    }
}

/// What the test expects: each invoice's outstanding, and for each case's
/// end-to-end id the number its first suggestion must name.
struct Expect {
    outstanding: HashMap<String, i64>,
    first: HashMap<String, String>,
}

/// The entries of one statement, for invoices `base..base + 500` and bills
/// `bills`; collections of direct debits returned go to `collections`.
fn cases(
    base: usize,
    inv: &[Doc],
    bills: &[Doc],
    expect: &mut Expect,
    collections: &mut Vec<Entry>,
) -> Vec<Entry> {
    let mut entries = Vec::new();
    let r = |i: usize, what: &str| format!("{what}-{i}");
    let paid = |expect: &mut Expect, d: &Doc| {
        expect.outstanding.insert(d.number.clone(), 0);
    };
    // (a) the creditor reference only.
    for d in &inv[base..base + 20] {
        let mut t = tx(d.gross, &d.partner_name, "", &case_of(&d.number));
        t.reference = kontor::rules::creditor_reference::CreditorReference::of_number(&d.number)
            .map(|r| r.as_str().to_string());
        entries.push(one(r(entries.len(), &format!("RF{base}")), t));
        paid(expect, d);
    }
    // (b) the number as payers type it.
    for (way, d) in inv[base + 20..base + 40].iter().enumerate() {
        let t = tx(
            d.gross,
            &d.partner_name,
            &format!("Rechnung {} danke", typed(&d.number, way)),
            &case_of(&d.number),
        );
        entries.push(one(r(entries.len(), &format!("NR{base}")), t));
        paid(expect, d);
    }
    // (c) two numbers, their sum.
    for pair in inv[base + 40..base + 60].chunks(2) {
        let t = tx(
            pair[0].gross + pair[1].gross,
            &pair[0].partner_name,
            &format!("{}, {}", pair[0].number, pair[1].number),
            "COMBINED",
        );
        entries.push(one(r(entries.len(), &format!("CO{base}")), t));
        paid(expect, &pair[0]);
        paid(expect, &pair[1]);
    }
    // (e) partial, fee-reduced (3.00 less, within the 5.00 tolerance), overpaid.
    for (k, d) in inv[base + 60..base + 90].iter().enumerate() {
        let amount = match k / 10 {
            0 => d.gross - 1_000,
            1 => d.gross - 300,
            _ => d.gross + 1_000,
        };
        let t = tx(
            amount,
            &d.partner_name,
            &format!("RE {}", d.number),
            &case_of(&d.number),
        );
        entries.push(one(r(entries.len(), &format!("DI{base}")), t));
        expect.first.insert(case_of(&d.number), d.number.clone());
    }
    // (d) a known IBAN, no number, another name.
    for d in &inv[base + 140..base + 150] {
        let k: usize = d
            .partner_name
            .trim_start_matches("Kunde ")
            .trim_end_matches(" GmbH")
            .parse()
            .unwrap();
        let mut t = tx(
            d.gross,
            "Privatkonto M. Muster",
            "Danke",
            &case_of(&d.number),
        );
        t.iban = customer_iban(k);
        entries.push(one(r(entries.len(), &format!("IB{base}")), t));
        expect.first.insert(case_of(&d.number), d.number.clone());
    }
    // An unknown payer.
    for k in 0..10 {
        let t = tx(
            12_345 + k as i64,
            "Unbekannt Privat",
            "Spende",
            &format!("UNKNOWN-{base}-{k}"),
        );
        entries.push(one(r(entries.len(), &format!("UN{base}")), t));
    }
    // A returned direct debit: collected earlier (its own statement), returned here.
    for d in &inv[base + 160..base + 165] {
        let mut c = tx(d.gross, &d.partner_name, &d.number, &d.number);
        c.mandate_id = Some(format!("M-{}", d.number));
        collections.push(one(format!("COLL-{}", d.number), c.clone()));
        let mut back = c;
        // camt names the bank's charges within the return; MT940 cannot.
        let charges = if base == 0 { 300 } else { 0 };
        back.amount = -(d.gross + charges);
        back.charges = charges;
        back.return_reason = Some("AC04".into());
        entries.push(Entry {
            bank_reference: format!("RET-{}", d.number),
            booked_on: DAY.into(),
            reversal: true,
            txs: vec![back],
        });
        // Collected, then returned: it owes its gross again.
    }
    // A batch of four.
    let batch: Vec<Transfer> = inv[base + 170..base + 174]
        .iter()
        .map(|d| {
            tx(
                d.gross,
                &d.partner_name,
                &format!("Lastschrift {}", d.number),
                &d.number,
            )
        })
        .collect();
    for d in &inv[base + 170..base + 174] {
        paid(expect, d);
    }
    entries.push(Entry {
        bank_reference: format!("BATCH-{base}"),
        booked_on: DAY.into(),
        reversal: false,
        txs: batch,
    });
    // Bills paid by their numbers.
    for b in bills {
        let t = tx(
            -b.gross,
            &b.partner_name,
            &format!("Zahlung {}", b.number),
            &format!("PAY-{}", b.number),
        );
        entries.push(one(format!("BILL-{}", b.number), t));
    }
    entries
}

/// The books balance and the ledger's receivables and payables equal the
/// open items (as `ledger.rs` checks after every act).
fn ledger_agrees(w: &World, step: &str) {
    let tb = w
        .data
        .ok(&["books", "trial-balance", "--company", &w.company]);
    assert_eq!(tb["balanced"], json!(true), "{step}");
    let account = |name: &str| {
        tb["accounts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["account"] == name)
            .cloned()
            .unwrap_or(json!({"debit": 0, "credit": 0}))
    };
    let (rec, pay) = (account("receivables"), account("payables"));
    let report = w.client().get(&w.live, "/v1/reports/outstanding").body;
    assert_eq!(
        rec["debit"].as_i64().unwrap() - rec["credit"].as_i64().unwrap(),
        report["receivables"]["outstanding"]["minor"]
            .as_i64()
            .unwrap(),
        "{step}"
    );
    assert_eq!(
        pay["credit"].as_i64().unwrap() - pay["debit"].as_i64().unwrap(),
        report["payables"]["outstanding"]["minor"].as_i64().unwrap(),
        "{step}"
    );
    let sheet =
        w.client().tool(&w.live, "get_balance_sheet", json!({}))["structuredContent"].clone();
    assert_eq!(sheet["balanced"], json!(true), "{step}: {sheet}");
}

/// Every invoice owes what `expect` says.
fn outstanding_as_expected(w: &World, inv: &[Doc], expect: &Expect, step: &str) {
    let c = w.client();
    let mut wrong = Vec::new();
    let mut page = 0;
    let mut seen = HashMap::new();
    loop {
        let body = c
            .get(&w.live, &format!("/v1/invoices?size=100&page={page}"))
            .body;
        let items = body["data"].as_array().cloned().unwrap_or_default();
        if items.is_empty() {
            break;
        }
        for i in items {
            seen.insert(
                i["number"].as_str().unwrap().to_string(),
                i["outstanding"]["minor"].as_i64().unwrap(),
            );
        }
        page += 1;
    }
    for d in inv {
        let want = expect
            .outstanding
            .get(&d.number)
            .copied()
            .unwrap_or(d.gross);
        let got = seen.get(&d.number).copied();
        if got != Some(want) {
            wrong.push(format!("{}: want {want}, got {got:?}", d.number));
        }
    }
    assert!(
        wrong.is_empty(),
        "{step}: {} invoices owe other amounts: {:?}",
        wrong.len(),
        &wrong[..wrong.len().min(10)]
    );
}

#[test]
fn a_thousand_invoices_two_hundred_bills_and_every_case_of_the_ladder() {
    let w = World::new();
    w.data.ok(&[
        "bank",
        "account",
        "add",
        "--company",
        &w.company,
        "--iban",
        IBAN,
    ]);
    w.data.ok(&[
        "bank",
        "tolerance",
        "--company",
        &w.company,
        "--amount",
        "500",
    ]);
    let filled = fill(
        &w.data.path,
        &w.company,
        100,
        &customer_iban,
        1_000,
        &|i| 10_000 + (i as i64 * 137) % 90_000,
        200,
        &|j| 5_000 + j as i64 * 97,
        "2026-11-02",
    );
    let (inv, bills) = (&filled.invoices, &filled.bills);
    let mut expect = Expect {
        outstanding: HashMap::new(),
        first: HashMap::new(),
    };
    let mut collections = Vec::new();
    let camt_entries = cases(0, inv, &bills[..25], &mut expect, &mut collections);
    let mt_entries = cases(500, inv, &bills[25..50], &mut expect, &mut collections);
    for b in &bills[..50] {
        expect.outstanding.insert(b.number.clone(), 0);
    }
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: String| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_string_lossy().to_string()
    };
    let first = write(
        "collections.xml",
        camt053(IBAN, "C-1", 1, 0, "2026-11-10", &collections),
    );
    let total: i64 = collections.iter().map(Entry::amount).sum();
    let camt = write(
        "day.xml",
        camt053(IBAN, "C-2", 2, total, DAY, &camt_entries),
    );
    let closing = total + camt_entries.iter().map(Entry::amount).sum::<i64>();
    let sta = write(
        "day.sta",
        mt940("76026000/0123456789", "MT-3", 3, closing, DAY, &mt_entries),
    );

    let (ok, report, stderr) = import(&w.data, &w.company, &[&first, &camt, &sta]);
    assert!(ok, "{stderr}");
    for f in report["files"].as_array().unwrap() {
        assert_eq!(f["refused"], Value::Null, "{f}");
        assert_eq!(f["notes"], json!([]), "the chain holds: {f}");
        assert_eq!(f["duplicates"], json!(0), "{f}");
    }
    assert_eq!(
        report["files"][0]["settled"],
        json!(10),
        "the collections by their numbers"
    );
    ledger_agrees(&w, "after the import");
    outstanding_as_expected(&w, inv, &expect, "after the import");
    // Every certain case is settled, each returned debit too; the rest waits.
    let day = &report["files"];
    let per_file = |i: usize, key: &str| day[i][key].as_i64().unwrap();
    // 20 RF + 20 typed + 10 combined + 5 returns + 4 batch + 25 bills = 84 lines.
    assert_eq!(
        (per_file(1, "settled"), per_file(2, "settled")),
        (84, 84),
        "{report}"
    );
    assert_eq!(
        (per_file(1, "suggested"), per_file(2, "suggested")),
        (40, 40),
        "{report}"
    );
    assert_eq!(
        (per_file(1, "unmatched"), per_file(2, "unmatched")),
        (10, 10),
        "{report}"
    );

    // Every suggestion of the generated cases names the right item first.
    let suggested = lines(&w.data, &w.company, Some("suggested"));
    assert_eq!(suggested.len(), 80);
    let mut by_case = HashMap::new();
    for l in &suggested {
        let case = l["endToEndId"].as_str().unwrap().to_string();
        assert_eq!(
            l["suggestions"][0]["number"].as_str(),
            expect.first.get(&case).map(String::as_str),
            "{case}: {}",
            l["suggestions"]
        );
        by_case.insert(case, l.clone());
    }
    // The returned direct debits reopened their invoices and booked the charges.
    let returned = lines(&w.data, &w.company, Some("settled"))
        .into_iter()
        .filter(|l| l["reversal"] == json!(true))
        .collect::<Vec<_>>();
    assert_eq!(returned.len(), 10);

    // A person confirms: a partial payment (left open), a fee-reduced one
    // (the difference to fees), an overpaid one (the rest kept as credit),
    // a known IBAN's suggestion; the test's expectations follow.
    let case = |i: usize| case_of(&inv[i].number);
    let id = |i: usize| by_case[&case(i)]["id"].as_str().unwrap().to_string();
    w.data.ok(&["bank", "confirm", &id(60)]);
    expect.outstanding.insert(inv[60].number.clone(), 1_000);
    ledger_agrees(&w, "a partial payment confirmed");
    let fee = w
        .data
        .ok(&["bank", "confirm", &id(70), "--difference", "fees"]);
    assert_eq!(fee["line"]["state"], json!("settled"));
    expect.outstanding.insert(inv[70].number.clone(), 0);
    ledger_agrees(&w, "a fee-reduced payment confirmed");
    let over = w.data.ok(&["bank", "confirm", &id(80)]);
    assert_eq!(
        (
            over["line"]["state"].clone(),
            over["line"]["suggestions"].clone()
        ),
        (json!("unmatched"), json!([])),
        "1,000 left on the line, which suggests no paid invoice"
    );
    expect.outstanding.insert(inv[80].number.clone(), 0);
    let credit = w.data.ok(&["bank", "book", &id(80), "--account", "credit"]);
    assert_eq!(credit["line"]["state"], json!("settled"));
    ledger_agrees(&w, "an overpayment kept as credit");
    w.data.ok(&["bank", "confirm", &id(140)]);
    expect.outstanding.insert(inv[140].number.clone(), 0);
    ledger_agrees(&w, "a known IBAN's suggestion confirmed");
    outstanding_as_expected(&w, inv, &expect, "after the confirmations");

    // A line split over two documents, then undone by counter-postings.
    let stranger = lines(&w.data, &w.company, Some("unmatched"))[0].clone();
    let amount = stranger["amount"]["minor"].as_i64().unwrap();
    let target = &inv[300];
    let split = w.data.ok(&[
        "bank",
        "split",
        stranger["id"].as_str().unwrap(),
        "--to",
        &format!("{}={}", target.number, amount - 100),
    ]);
    assert_eq!(
        split["line"]["settlements"][0]["number"],
        json!(target.number)
    );
    expect
        .outstanding
        .insert(target.number.clone(), target.gross - (amount - 100));
    ledger_agrees(&w, "a split");
    outstanding_as_expected(&w, inv, &expect, "after the split");
    let undone = w
        .data
        .ok(&["bank", "undo", stranger["id"].as_str().unwrap()]);
    assert_eq!(undone["line"]["state"], json!("unmatched"));
    assert!(undone["line"]["settlements"][0]["undoneAt"].is_string());
    expect
        .outstanding
        .insert(target.number.clone(), target.gross);
    ledger_agrees(&w, "a split undone");
    // A fee-reduced confirmation undone reopens the invoice in full.
    w.data.ok(&["bank", "undo", &id(70)]);
    expect
        .outstanding
        .insert(inv[70].number.clone(), inv[70].gross);
    ledger_agrees(&w, "a fee-reduced confirmation undone");
    outstanding_as_expected(&w, inv, &expect, "after the undos");
    // Ignoring needs a reason and settles nothing.
    let (ok, _, stderr) = w.data.console(&["bank", "ignore", &id(61), "--reason", ""]);
    assert!(!ok && stderr.contains("--reason"), "{stderr}");
    let ignored = w
        .data
        .ok(&["bank", "ignore", &id(61), "--reason", "Privat"]);
    assert_eq!(ignored["line"]["state"], json!("ignored"));
    ledger_agrees(&w, "a line ignored");
    // The same files again import nothing.
    let (_, again, _) = import(&w.data, &w.company, &[&first, &camt, &sta]);
    assert!(
        again["files"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["new"] == json!(0)),
        "{again}"
    );
    outstanding_as_expected(&w, inv, &expect, "after the files again");
}
