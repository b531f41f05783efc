//! What a line offers is what confirming it takes: a generated statement
//! of 300 lines against 300 invoices and 20 bills with every case the
//! ladder suggests (partial, fee-reduced, overpaid, a known IBAN, a name
//! alike, paid before the invoice's date, two lines naming one invoice),
//! documents that change after the import (paid by hand, cancelled) and
//! one paid by hand after the bank's day before it; every suggestion
//! offered is confirmed through the console and none is refused, or its
//! line, computed again, no longer offers it because its document is
//! settled. A bill's cash discount taken in time is a full fit, settled
//! with the discount booked.

use std::collections::HashMap;

use serde_json::{json, Value};

use crate::bank::{import, lines, write};
use crate::support::fill::{fill, more_invoices, Doc};
use crate::support::statements::{camt053, Entry, Transfer};
use crate::support::World;

const IBAN: &str = "DE36760260000123456789";
const DAY: &str = "2026-11-18";

/// The IBAN known for customer `k` (customers 0 to 29 have one).
fn customer_iban(k: usize) -> Option<String> {
    (k < 30).then(|| {
        kontor::rules::bank::Iban::from_german("70050000", &format!("{}", 2000 + k))
            .unwrap()
            .as_str()
            .to_string()
    })
}

fn line(
    reference: String,
    amount: i64,
    name: &str,
    iban: Option<String>,
    remittance: &str,
) -> Entry {
    Entry {
        bank_reference: reference,
        booked_on: DAY.into(),
        reversal: false,
        txs: vec![Transfer {
            amount,
            name: name.into(),
            iban,
            remittance: remittance.into(),
            ..Transfer::default()
        }],
    }
}

/// What each document owes now, by number (invoices by number, bills by
/// their supplier's number), with whether an invoice is cancelled: read as
/// stored, since a read per line would spend the API key's budget.
fn owed(w: &World) -> HashMap<String, (i64, bool)> {
    let db = rusqlite::Connection::open(&w.data.path).unwrap();
    let mut stmt = db
        .prepare(
            "SELECT number, outstanding, cancelled_by_id IS NOT NULL FROM invoices WHERE document_type = 'INVOICE'
             UNION ALL SELECT document_number, outstanding, 0 FROM purchases",
        )
        .unwrap();
    let rows = stmt
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                (r.get::<_, i64>(1)?, r.get::<_, i64>(2)? == 1),
            ))
        })
        .unwrap();
    rows.map(Result::unwrap).collect()
}

/// Every suggestion of `l` names documents that owe at least what it
/// gives them and are not cancelled.
fn names_no_settled_document(l: &Value, owed: &HashMap<String, (i64, bool)>) {
    for s in l["suggestions"].as_array().unwrap() {
        for item in s["items"].as_array().unwrap() {
            let number = item["number"].as_str().unwrap();
            let Some(&(open, cancelled)) = owed.get(number) else {
                panic!("{number} is not among {} documents", owed.len())
            };
            assert!(
                !cancelled && open >= item["amount"]["minor"].as_i64().unwrap(),
                "{} suggests {number}, which owes {open} (cancelled: {cancelled}): {s}",
                l["id"]
            );
        }
    }
}

/// The books balance and receivables and payables agree with the open items.
fn books_agree(w: &World, step: &str) {
    let tb = w
        .data
        .ok(&["books", "trial-balance", "--company", &w.company]);
    assert_eq!(tb["balanced"], json!(true), "{step}");
    let net = |name: &str| {
        tb["accounts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["account"] == name)
            .map_or(0, |a| {
                a["debit"].as_i64().unwrap() - a["credit"].as_i64().unwrap()
            })
    };
    let report = w.client().get(&w.live, "/v1/reports/outstanding").body;
    assert_eq!(
        net("receivables"),
        report["receivables"]["outstanding"]["minor"]
            .as_i64()
            .unwrap(),
        "{step}"
    );
    assert_eq!(
        -net("payables"),
        report["payables"]["outstanding"]["minor"].as_i64().unwrap(),
        "{step}"
    );
}

#[test]
fn every_suggestion_of_three_hundred_lines_is_taken_when_confirmed_or_gone_with_its_document() {
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
        60,
        &customer_iban,
        270,
        &|i| 20_000 + (i as i64 * 211) % 70_000,
        20,
        &|j| 8_000 + j as i64 * 131,
        "2026-11-02",
    );
    // Issued a week after the customers paid them.
    let later = more_invoices(
        &w.data.path,
        &w.company,
        &filled.customers,
        30,
        &|i| 31_000 + i as i64 * 97,
        "2026-11-25",
    );
    let inv = &filled.invoices;
    let bills = &filled.bills;
    // Paid in part by hand after the bank's day, before the import: a
    // payment on the bank's day would break the date order.
    for d in &inv[260..270] {
        w.data.ok(&[
            "payment",
            "record",
            "--company",
            &w.company,
            "--invoice",
            &d.number,
            "--amount",
            "1000",
            "--on",
            "2026-11-20",
        ]);
    }
    let mut entries = Vec::new();
    let mut push = |what: &str,
                    k: usize,
                    amount: i64,
                    name: &str,
                    iban: Option<String>,
                    remittance: String| {
        entries.push(line(format!("{what}-{k}"), amount, name, iban, &remittance));
    };
    let named = |d: &Doc| format!("Rechnung {}", d.number);
    // Certain: the number and the gross (settled at import).
    for (k, d) in inv[0..40].iter().enumerate() {
        push("NR", k, d.gross, &d.partner_name, None, named(d));
    }
    // Partial, fee-reduced (within the 5.00 tolerance), overpaid.
    for (k, d) in inv[40..80].iter().enumerate() {
        push("PA", k, d.gross - 1_000, &d.partner_name, None, named(d));
    }
    for (k, d) in inv[80..100].iter().enumerate() {
        push("FE", k, d.gross - 300, &d.partner_name, None, named(d));
    }
    for (k, d) in inv[100..120].iter().enumerate() {
        push("OV", k, d.gross + 1_000, &d.partner_name, None, named(d));
    }
    // A known IBAN, no number, another name (customers 0 to 29).
    for (k, d) in inv[120..180]
        .iter()
        .filter(|d| customer_iban(index(d)).is_some())
        .take(30)
        .enumerate()
    {
        push(
            "IB",
            k,
            d.gross,
            "Privatkonto",
            customer_iban(index(d)),
            "Danke".into(),
        );
    }
    // The payer's name alike the customer's, no number.
    for (k, d) in inv[180..210].iter().enumerate() {
        push(
            "NA",
            k,
            d.gross,
            &d.partner_name.to_uppercase(),
            None,
            "Zahlung".into(),
        );
    }
    // Paid before the invoice's date.
    for (k, d) in later.iter().enumerate() {
        push("AD", k, d.gross, &d.partner_name, None, named(d));
    }
    // Two lines naming one invoice, each 10.00 short.
    for (k, d) in inv[210..220].iter().enumerate() {
        push(
            "TW",
            2 * k,
            d.gross - 1_000,
            &d.partner_name,
            None,
            named(d),
        );
        push(
            "TW",
            2 * k + 1,
            d.gross - 1_000,
            &d.partner_name,
            None,
            named(d),
        );
    }
    // Changed after the import: paid by hand, cancelled.
    for (k, d) in inv[220..240].iter().enumerate() {
        push("HA", k, d.gross - 500, &d.partner_name, None, named(d));
    }
    for (k, d) in inv[240..250].iter().enumerate() {
        push("CA", k, d.gross - 2_000, &d.partner_name, None, named(d));
    }
    // Refused on the bank's day (a later payment by hand): not offered.
    for (k, d) in inv[260..270].iter().enumerate() {
        push("LA", k, d.gross - 1_000, &d.partner_name, None, named(d));
    }
    // Two invoices named, 10.00 short of their sum.
    for (k, pair) in inv[250..260].chunks(2).enumerate() {
        let remittance = format!("Rechnungen {} und {}", pair[0].number, pair[1].number);
        push(
            "CO",
            k,
            pair[0].gross + pair[1].gross - 1_000,
            "Sammler",
            None,
            remittance,
        );
    }
    // Strangers.
    for k in 0..5 {
        push(
            "UN",
            k,
            4_711 + k as i64,
            "Unbekannt",
            None,
            "Spende".into(),
        );
    }
    // Bills paid in part.
    for (k, b) in bills.iter().enumerate() {
        push(
            "BI",
            k,
            -(b.gross - 700),
            &b.partner_name,
            None,
            format!("Zahlung {}", b.number),
        );
    }
    assert_eq!(entries.len(), 300);
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        &dir,
        "day.xml",
        camt053(IBAN, "G-1", 1, 0, DAY, &entries).as_bytes(),
    );
    let (ok, report, stderr) = import(&w.data, &w.company, &[&file]);
    assert!(ok, "{stderr}");
    let f = &report["files"][0];
    assert_eq!(f["refused"], Value::Null, "{f}");
    assert_eq!(f["settled"], json!(40), "{f}");
    // The ten refused on the bank's day are neither settled nor suggested.
    assert_eq!(f["unmatched"], json!(15), "{f}");
    assert_eq!(f["suggested"], json!(245), "{f}");
    books_agree(&w, "after the import");

    let all = lines(&w.data, &w.company, None);
    assert_eq!(all.len(), 300);
    // What each line first offered, oldest first.
    let offered: Vec<(String, Vec<String>)> = all
        .iter()
        .rev()
        .map(|l| {
            let named = l["suggestions"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|s| s["items"].as_array().unwrap().iter())
                .map(|i| i["number"].as_str().unwrap().to_string())
                .collect();
            (l["id"].as_str().unwrap().to_string(), named)
        })
        .collect();
    // After the import: paid by hand, cancelled.
    for d in &inv[220..240] {
        w.data.ok(&[
            "payment",
            "record",
            "--company",
            &w.company,
            "--invoice",
            &d.number,
            "--amount",
            &d.gross.to_string(),
            "--on",
            "2026-11-19",
        ]);
    }
    for d in &inv[240..250] {
        w.data.ok(&[
            "invoice",
            "cancel",
            "--company",
            &w.company,
            &d.number,
            "--reason",
            "Doppelt",
            "--on",
            "2026-11-19",
        ]);
    }
    let (mut confirmed, mut gone) = (0, 0);
    for (id, first) in &offered {
        let now = owed(&w);
        let l = w.data.ok(&["bank", "line", id]);
        names_no_settled_document(&l, &now);
        if l["suggestions"].as_array().unwrap().is_empty() {
            // Nothing offered now: what it offered is settled or cancelled.
            for number in first {
                let (open, cancelled) = now[number];
                assert!(
                    cancelled || open == 0,
                    "{id} offers nothing, yet {number} owes {open}: {l}"
                );
            }
            if !first.is_empty() {
                gone += 1;
            }
            continue;
        }
        let mut args = vec!["bank", "confirm", id.as_str()];
        if l["amount"]["minor"].as_i64().unwrap() > 0
            && l["suggestions"][0]["difference"]["minor"].as_i64().unwrap() < 0
        {
            args.extend(["--difference", "credit"]);
        }
        let (ok, done, stderr) = w.data.console(&args);
        assert!(
            ok,
            "confirming what {id} offered was refused: {stderr}\n{l}"
        );
        confirmed += 1;
        if args.len() > 3 {
            assert_eq!(done["line"]["state"], json!("settled"), "{done}");
        }
    }
    // Each case confirmed: 40 partial, 20 fee-reduced, 20 overpaid, 30 IBAN,
    // 30 names, 30 in advance, 20 of the two naming one invoice (the second
    // computed again for the 10.00 left), 5 of two invoices, 20 bills.
    assert_eq!((confirmed, gone), (215, 30), "confirmed, gone");
    let now = owed(&w);
    for d in later.iter().chain(&inv[100..120]) {
        assert_eq!(now[&d.number].0, 0, "{}", d.number);
    }
    for d in &inv[210..220] {
        assert_eq!(now[&d.number].0, 0, "two lines paid {}", d.number);
    }
    books_agree(&w, "after every confirmation");
}

/// The index `k` of the customer `Kunde {k} GmbH` of a document.
fn index(d: &Doc) -> usize {
    d.partner_name
        .trim_start_matches("Kunde ")
        .trim_end_matches(" GmbH")
        .parse()
        .unwrap()
}

/// The FeRD corpus's XRechnung (CII), its terms a cash discount of 2 %
/// within 14 days in XRechnung's words, dated `day` (`YYYYMMDD`).
fn skonto_bill(day: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "tests/fixtures/einvoices-in/zugferd-corpus/XML-Rechnung/CII/XRECHNUNG_Einfach.cii.xml",
    );
    std::fs::read_to_string(path)
        .unwrap()
        .replace("20241115", day)
        .replace("20241114", day)
        .replace(
            "Zahlbar innerhalb 30 Tagen netto bis 15.12.2024, 3% Skonto innerhalb 10 Tagen bis 25.11.2024",
            "#SKONTO#TAGE=14#PROZENT=2.00#\n",
        )
}

#[test]
fn a_bill_paid_less_its_cash_discount_in_time_is_settled_whole_with_the_discount_booked() {
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
    let dir = tempfile::tempdir().unwrap();
    let received = write(&dir, "x.xml", skonto_bill("20260305").as_bytes());
    let got = w
        .data
        .ok(&["purchase", "receive", "--company", &w.company, &received]);
    let booked = w.data.ok(&[
        "purchase",
        "book",
        "--company",
        &w.company,
        got[0]["id"].as_str().unwrap(),
        "--accept-warnings",
    ]);
    assert_eq!(
        booked["terms"]["discountUntil"],
        json!("2026-03-19"),
        "{booked}"
    );
    let number = booked["number"].as_str().unwrap().to_string();
    let gross = booked["taxInclusive"]["minor"].as_i64().unwrap();
    let discount = (gross * 2 + 50) / 100;
    let pays = |day: &str, reference: &str| {
        let mut e = line(
            reference.into(),
            -(gross - discount),
            "Lieferant",
            None,
            &format!("Rechnung {number}"),
        );
        e.booked_on = day.into();
        camt053(IBAN, reference, 1, 0, day, &[e])
    };
    // A day after the discount's last: a partial payment, suggested.
    let late = write(&dir, "late.xml", pays("2026-03-20", "LATE").as_bytes());
    let (ok, r, e) = import(&w.data, &w.company, &[&late]);
    assert!(ok, "{e}");
    assert_eq!(r["files"][0]["suggested"], json!(1), "{r}");
    let waiting = lines(&w.data, &w.company, Some("suggested"));
    assert_eq!(
        waiting[0]["suggestions"][0]["code"],
        json!("partial"),
        "{waiting:?}"
    );
    // On its last day: certain, the discount booked with the payment.
    let in_time = write(
        &dir,
        "in-time.xml",
        pays("2026-03-19", "IN-TIME").as_bytes(),
    );
    let (ok, r, e) = import(&w.data, &w.company, &[&in_time]);
    assert!(ok, "{e}");
    assert_eq!(r["files"][0]["settled"], json!(1), "{r}");
    assert_eq!(owed(&w)[&number].0, 0, "settled whole");
    let settled = lines(&w.data, &w.company, Some("settled"));
    let done: Vec<(Value, Value)> = settled[0]["settlements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["account"].clone(), s["amount"]["minor"].clone()))
        .collect();
    assert_eq!(
        done,
        [
            (Value::Null, json!(gross - discount)),
            (json!("discounts_received"), json!(discount))
        ]
    );
    // The late line no longer suggests the settled bill.
    let late_line = w
        .data
        .ok(&["bank", "line", waiting[0]["id"].as_str().unwrap()]);
    assert_eq!(
        (late_line["state"].clone(), late_line["suggestions"].clone()),
        (json!("unmatched"), json!([])),
        "{late_line}"
    );
    books_agree(&w, "a cash discount taken");
}

#[test]
fn a_line_in_closed_books_offers_nothing() {
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
    let filled = fill(
        &w.data.path,
        &w.company,
        3,
        &|_| None,
        3,
        &|i| 10_000 + i as i64,
        0,
        &|_| 0,
        "2026-11-02",
    );
    let d = &filled.invoices[0];
    let dir = tempfile::tempdir().unwrap();
    let entries = [line(
        "P".into(),
        d.gross - 1_000,
        &d.partner_name,
        None,
        &format!("Rechnung {}", d.number),
    )];
    let file = write(
        &dir,
        "s.xml",
        camt053(IBAN, "C-1", 1, 0, DAY, &entries).as_bytes(),
    );
    let (ok, _, e) = import(&w.data, &w.company, &[&file]);
    assert!(ok, "{e}");
    let id = lines(&w.data, &w.company, Some("suggested"))[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    w.data
        .ok(&["books", "close", "--company", &w.company, "--through", DAY]);
    let l = w.data.ok(&["bank", "line", &id]);
    assert_eq!(l["suggestions"], json!([]), "{l}");
    let (ok, _, stderr) = w.data.console(&["bank", "confirm", &id]);
    assert!(!ok && stderr.contains("closed"), "{stderr}");
    assert_eq!(owed(&w)[&d.number].0, d.gross);
}

#[test]
fn what_an_advance_leaves_is_settled_on_the_day_its_credit_was_applied() {
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
        1,
        &|_| None,
        0,
        &|_| 0,
        0,
        &|_| 0,
        "2026-11-02",
    );
    let d = &more_invoices(
        &w.data.path,
        &w.company,
        &filled.customers,
        1,
        &|_| 40_000,
        "2026-11-25",
    )[0];
    let dir = tempfile::tempdir().unwrap();
    let entries = [line(
        "F".into(),
        d.gross - 300,
        &d.partner_name,
        None,
        &format!("Rechnung {}", d.number),
    )];
    let file = write(
        &dir,
        "s.xml",
        camt053(IBAN, "C-1", 1, 0, DAY, &entries).as_bytes(),
    );
    let (ok, _, e) = import(&w.data, &w.company, &[&file]);
    assert!(ok, "{e}");
    let l = &lines(&w.data, &w.company, Some("suggested"))[0];
    assert_eq!(
        (
            l["suggestions"][0]["code"].clone(),
            l["suggestions"][0]["advance"].clone()
        ),
        (json!("feeReduced"), json!(true)),
        "{l}"
    );
    let done = w.data.ok(&[
        "bank",
        "confirm",
        l["id"].as_str().unwrap(),
        "--difference",
        "fees",
    ]);
    assert_eq!(done["line"]["state"], json!("settled"), "{done}");
    assert_eq!(owed(&w)[&d.number].0, 0);
    let days: Vec<(Value, Value)> = done["line"]["settlements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["account"].clone(), s["on"].clone()))
        .collect();
    assert_eq!(
        days,
        [
            (json!("customer_credits"), json!(DAY)),
            (json!("customer_credits"), json!("2026-11-25")),
            (json!("fees"), json!("2026-11-25")),
        ]
    );
    books_agree(&w, "an advance's difference to fees");
}

#[test]
fn money_paid_in_advance_to_a_company_taxed_on_payments_received_makes_the_invoices_vat_due_when_applied(
) {
    let w = World::new();
    w.data.ok(&[
        "company",
        "set",
        &w.company,
        "--vat-method",
        "ist",
        "--ist-reason",
        "freelance",
        "--from",
        "2026-11-01",
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
    let c = w.client();
    let customer = c.customer(&w.live, "Vorkasse KG");
    let draft = c.draft(&w.live, &customer);
    w.data.line(&draft, 100_000, "19", false);
    let number = w.data.ok(&["draft", "issue", &draft, "--on", "2026-11-25"])["number"]
        .as_str()
        .unwrap()
        .to_string();
    let net_of = |name: &str| -> i64 {
        let tb = w
            .data
            .ok(&["books", "trial-balance", "--company", &w.company]);
        assert_eq!(tb["balanced"], json!(true), "{tb}");
        // The chart's accounts, each with the ledger's details it sums.
        tb["accounts"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|a| a["details"].as_array().unwrap().iter())
            .filter(|d| d["ledger"] == name)
            .map(|d| d["credit"].as_i64().unwrap() - d["debit"].as_i64().unwrap())
            .sum()
    };
    assert_eq!(
        (net_of("output_tax_not_due"), net_of("output_tax")),
        (19_000, 0),
        "not received yet"
    );
    let dir = tempfile::tempdir().unwrap();
    let entries = [line(
        "V".into(),
        119_000,
        "Vorkasse KG",
        None,
        &format!("Vorkasse {number}"),
    )];
    let file = write(
        &dir,
        "s.xml",
        camt053(IBAN, "C-1", 1, 0, DAY, &entries).as_bytes(),
    );
    assert!(import(&w.data, &w.company, &[&file]).0);
    let id = lines(&w.data, &w.company, Some("suggested"))[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    w.data.ok(&["bank", "confirm", &id]);
    assert_eq!(
        (
            net_of("output_tax_not_due"),
            net_of("output_tax"),
            net_of("customer_credits")
        ),
        (0, 19_000, 0),
        "received: due"
    );
    w.data.ok(&["bank", "undo", &id]);
    assert_eq!(
        (
            net_of("output_tax_not_due"),
            net_of("output_tax"),
            net_of("customer_credits")
        ),
        (19_000, 0, 0),
        "taken back: not due again"
    );
}
