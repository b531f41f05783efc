//! VAT on payments received (Ist-Versteuerung), every figure worked out by
//! hand: a company filing quarterly with invoices in November and December
//! at 19 % and 7 %, one paid in December, one half in December and half in
//! January, one never, and a bill paid in January. The Q4 return shows only
//! what was paid, per rate; Q1 the rest; the same books taxed on invoices
//! give today's figures. Switching the method takes effect at the next
//! period and leaves earlier returns alone; a payment taken back takes its
//! VAT back in its own month; a cash discount and a fee the bank kept
//! release VAT that never falls due; a credit note of an unpaid invoice
//! moves nothing; a down payment's input VAT counts when paid, and from
//! 2028 that of a supplier taxed on payments, whose own invoices then say
//! so. The ledger balances after every act, and the DATEV export carries
//! what DATEV needs.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::adviser::{bill, file, kz, totals, unzip};
use crate::bank::{import, lines, write};
use crate::support::extf;
use crate::support::statements::{camt053, Entry, Transfer};
use crate::support::{trial, World};

const IBAN: &str = "DE36760260000123456789";

/// The numbers of the scenario's invoices and the bill's id.
struct Quarter {
    a: String,
    b: String,
    c: String,
    bill: String,
}

/// Asserts the trial balance as of `on` balances, and returns it.
fn balanced(w: &World, on: &str) -> Value {
    let tb = w.data.ok(&[
        "books",
        "trial-balance",
        "--company",
        &w.company,
        "--as-of",
        on,
    ]);
    assert_eq!(tb["balanced"], json!(true), "as of {on}: {tb:#}");
    tb
}

/// Each Kz of the return of `period`.
fn vat(w: &World, period: &str) -> Value {
    w.data
        .ok(&["vat", "return", "--company", &w.company, "--period", period])
}

fn figures(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// An invoice issued on `on` with a line per (net, rate); returns its number.
fn invoice(w: &World, customer: &Value, on: &str, lines: &[(i64, &str)]) -> String {
    let c = w.client();
    let draft = c.draft(&w.live, customer);
    for (net, rate) in lines {
        w.data.line(&draft, *net, rate, false);
    }
    let number = w.data.ok(&["draft", "issue", &draft, "--on", on])["number"]
        .as_str()
        .unwrap()
        .to_string();
    balanced(w, on);
    number
}

/// Records `amount` cents paid on `on` against the invoice `number`;
/// returns the payment's id.
fn pay(w: &World, number: &str, amount: i64, on: &str) -> String {
    let paid = w.data.ok(&[
        "payment",
        "record",
        "--company",
        &w.company,
        "--invoice",
        number,
        "--amount",
        &amount.to_string(),
        "--on",
        on,
    ]);
    balanced(w, on);
    paid["payment"]["id"].as_str().unwrap().to_string()
}

/// The quarter of the issue: the company files quarterly from 1 October
/// 2025, taxed on payments received (`ist`) or on invoices.
fn quarter(w: &World, ist: bool) -> Quarter {
    let mut method = vec![
        "company",
        "set",
        &w.company,
        "--vat-period",
        "quarterly",
        "--from",
        "2025-10-01",
        "--chart",
        "skr03",
        "--datev-adviser",
        "29098",
        "--datev-client",
        "55003",
    ];
    if ist {
        method.extend(["--vat-method", "ist", "--ist-reason", "freelance"]);
    }
    w.data.ok(&method);
    let customer = w.client().customer(&w.live, "Kunde Müller KG");
    // A: 1,000.00 at 19 % (190.00): 1,190.00, paid in full on 5 December.
    let a = invoice(w, &customer, "2025-11-10", &[(100_000, "19")]);
    // B: 2,000.00 at 19 % (380.00) and 1,000.00 at 7 % (70.00): 3,450.00,
    // half paid on 15 December, half on 15 January.
    let b = invoice(
        w,
        &customer,
        "2025-12-01",
        &[(200_000, "19"), (100_000, "7")],
    );
    // C: 300.00 at 7 % (21.00): 321.00, never paid.
    let c = invoice(w, &customer, "2025-12-10", &[(30_000, "7")]);
    // A bill of 400.00 + 76.00 received in December, paid on 20 January.
    let bill = bill(
        w,
        "Papier AG",
        "LF-77",
        "2025-12-12",
        "40000",
        "7600",
        &["--tax-rate", "19"],
    );
    balanced(w, "2025-12-12");
    pay(w, &a, 119_000, "2025-12-05");
    pay(w, &b, 172_500, "2025-12-15");
    pay(w, &b, 172_500, "2026-01-15");
    w.data.ok(&[
        "purchase",
        "pay",
        &bill,
        "--amount",
        "47600",
        "--on",
        "2026-01-20",
    ]);
    balanced(w, "2026-01-20");
    Quarter { a, b, c, bill }
}

#[test]
fn taxed_on_payments_the_quarter_shows_what_was_paid_per_rate_and_the_next_the_rest() {
    let w = World::new();
    let q = quarter(&w, true);

    // Q4 2025: A paid in full, B half.
    // Half of B: 1,725.00 split by gross 2,380.00 : 1,070.00 → 1,190.00 at
    // 19 % (1,000.00 + 190.00) and 535.00 at 7 % (500.00 + 35.00).
    // Kz 81: 1,000 (A) + 1,000 (B) = 2,000; its tax 2,000 × 19 % = 380.00.
    // Kz 86: 500 (B); 35.00. Kz 66: the bill's 76.00 on its receipt.
    // Kz 83: 380.00 + 35.00 − 76.00 = 339.00. C (never paid) is in nothing.
    let q4 = vat(&w, "2025-Q4");
    assert_eq!(
        kz(&q4),
        figures(&[
            ("81", "2000"),
            ("86", "500"),
            ("66", "76.00"),
            ("83", "339.00")
        ]),
        "{q4:#}"
    );
    assert_eq!(q4["bookedTax"]["81"], json!("380.00"));
    assert_eq!(q4["bookedTax"]["86"], json!("35.00"));
    // Each posting of Kz 81 names the payment and the invoice behind it.
    let behind: Vec<(String, i64, bool)> = q4["postings"]["81"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["document"]["number"].as_str().unwrap().to_string(),
                p["amount"].as_i64().unwrap(),
                p["payment"]
                    .as_str()
                    .is_some_and(|id| id.starts_with("pay_")),
            )
        })
        .collect();
    assert_eq!(
        behind,
        vec![(q.a.clone(), 100_000, true), (q.b.clone(), 100_000, true)]
    );
    // The bill's input VAT names the bill and no payment.
    let input = &q4["postings"]["66"][0];
    assert_eq!(input["document"]["kind"], json!("bill"));
    assert_eq!(input["document"]["id"], json!(q.bill));
    assert!(input.get("payment").is_none(), "{input}");

    // Q1 2026: the second half of B; the bill's payment moves nothing.
    // Kz 81: 1,000, 190.00; Kz 86: 500, 35.00; Kz 83: 225.00.
    let q1 = vat(&w, "2026-Q1");
    assert_eq!(
        kz(&q1),
        figures(&[("81", "1000"), ("86", "500"), ("83", "225.00")]),
        "{q1:#}"
    );
    // January alone holds the same.
    assert_eq!(kz(&vat(&w, "2026-01")), kz(&q1));

    // The ledger: 661.00 of output tax booked not yet due (190.00 + 380.00
    // + 70.00 + 21.00), 640.00 of it moved to due by the payments; C's
    // 21.00 still waits. Due: 380.00 + 35.00 + 190.00 + 35.00 = 640.00.
    let tb = balanced(&w, "2026-03-31");
    assert_eq!(
        trial::ledger(&tb, "output_tax_not_due"),
        Some((64_000, 66_100))
    );
    assert_eq!(
        trial::detail(&tb, "output_tax_not_due", "S:7"),
        Some((7_000, 9_100))
    );
    assert_eq!(trial::ledger(&tb, "output_tax"), Some((0, 64_000)));
    // Revenue is all earned (P&L): 1,000 + 3,000 + 300 = 4,300.00; of it
    // 300.00 (C) is still marked not received.
    let revenue = trial::ledger(&tb, "revenue").unwrap();
    assert_eq!(revenue.1 - revenue.0, 430_000);
    let unpaid = trial::detail(&tb, "revenue", "S:7:IST").unwrap();
    assert_eq!(unpaid.1 - unpaid.0, 30_000);
    // On the chart: "Umsatzsteuer nicht fällig 7 %" holds C's 21.00.
    let not_due_7 = trial::row(&tb, "output_tax_not_due_7").expect("1761 in the trial balance");
    assert_eq!(not_due_7["number"], json!(1761), "{not_due_7}");

    // Q4's DATEV export: invoices gross on the automatic accounts as ever
    // (DATEV books their tax on "nicht fällig" for a client taxed on
    // payments), each payment with the BU-Schlüssel of its rate, every
    // booking marked I (Abw. Versteuerungsart).
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("q4.zip");
    w.data.ok(&[
        "export",
        "datev",
        "--company",
        &w.company,
        "--from",
        "2025-10-01",
        "--to",
        "2025-12-31",
        "--out",
        out.to_str().unwrap(),
    ]);
    let files = unzip(&out);
    let read = extf::read(
        file(&files, "EXTF_Buchungsstapel_"),
        &extf::booking_headings(),
    );
    let bookings = extf::bookings(&read);
    let payments: Vec<(u32, i64, &str, &str)> = bookings
        .iter()
        .filter(|b| b.account == 1200)
        .map(|b| (b.contra, b.amount, b.bu.as_str(), b.side.as_str()))
        .collect();
    // A: 1,190.00 at 19 %; B's half: 1,190.00 at 19 % and 535.00 at 7 %.
    assert_eq!(
        payments,
        vec![
            (10_000, 119_000, "3", "S"),
            (10_000, 119_000, "3", "S"),
            (10_000, 53_500, "2", "S")
        ]
    );
    let expected: BTreeMap<u32, i64> = [
        // The customer: 1,190.00 + 3,450.00 + 321.00 − 1,190.00 − 1,725.00.
        (10_000, 204_600),
        (8400, -(119_000 + 238_000)),
        (8300, -(107_000 + 32_100)),
        (1200, 291_500),
        (70_000, -47_600),
        (4900, 47_600),
    ]
    .into();
    assert_eq!(totals(&bookings), expected, "{bookings:#?}");
    assert!(
        bookings
            .iter()
            .all(|b| ![1766, 1761, 1776, 1771].contains(&b.contra)
                && ![1766, 1761, 1776, 1771].contains(&b.account)),
        "DATEV moves the tax itself: {bookings:#?}"
    );
    assert!(
        read.rows.iter().all(|r| r["Abw. Versteuerungsart"] == "I"),
        "{:?}",
        read.rows
    );

    // The EC sales list is as ever (nothing to list here).
    let ec = w.data.ok(&[
        "vat",
        "ec-sales",
        "--company",
        &w.company,
        "--period",
        "2025-Q4",
    ]);
    assert_eq!(ec["rows"], json!([]));

    // Switching to VAT on invoices from the next quarter: the earlier
    // returns stay as they were; the first quarter taxed on invoices taxes
    // what was issued and not yet paid (C: 300, 21.00).
    let (ok, _, said) = w.data.console(&[
        "company",
        "set",
        &w.company,
        "--vat-method",
        "soll",
        "--from",
        "2026-01-01",
    ]);
    assert!(!ok && said.contains("2026-01-20"), "{said}");
    w.data.ok(&[
        "company",
        "set",
        &w.company,
        "--vat-method",
        "soll",
        "--from",
        "2026-04-01",
    ]);
    assert_eq!(kz(&vat(&w, "2025-Q4")), kz(&q4));
    assert_eq!(kz(&vat(&w, "2026-Q1")), kz(&q1));
    let q2 = vat(&w, "2026-Q2");
    assert_eq!(
        kz(&q2),
        figures(&[("86", "300"), ("83", "21.00")]),
        "{q2:#}"
    );
    let switched = &q2["postings"]["86"][0];
    assert_eq!(switched["document"]["number"], json!(q.c));
    assert!(switched.get("payment").is_none(), "{switched}");
    let tb = balanced(&w, "2026-04-01");
    let waiting = trial::ledger(&tb, "output_tax_not_due").unwrap();
    assert_eq!(waiting.1 - waiting.0, 0, "nothing waits any more");
    // C paid later, taxed on invoices: nothing moves again.
    pay(&w, &q.c, 32_100, "2026-05-04");
    assert_eq!(kz(&vat(&w, "2026-Q2")), kz(&q2));
}

#[test]
fn the_same_books_taxed_on_invoices_give_todays_figures_and_taxing_on_payments_later_taxes_nothing_twice(
) {
    let w = World::new();
    let q = quarter(&w, false);
    // Kz 81: 1,000 (A) + 2,000 (B) = 3,000; 570.00. Kz 86: 1,000 (B) + 300
    // (C) = 1,300; 91.00. Kz 66: 76.00. Kz 83: 570.00 + 91.00 − 76.00 = 585.00.
    let q4 = vat(&w, "2025-Q4");
    assert_eq!(
        kz(&q4),
        figures(&[
            ("81", "3000"),
            ("86", "1300"),
            ("66", "76.00"),
            ("83", "585.00")
        ]),
        "{q4:#}"
    );
    assert!(q4["postings"]["81"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p.get("payment").is_none()));
    assert_eq!(kz(&vat(&w, "2026-Q1")), figures(&[("83", "0.00")]));
    let tb = balanced(&w, "2026-03-31");
    assert_eq!(trial::ledger(&tb, "output_tax_not_due"), None);

    // Taxed on payments from the next quarter: C, issued before and paid
    // after, was taxed already and is not taxed again.
    w.data.ok(&[
        "company",
        "set",
        &w.company,
        "--vat-method",
        "ist",
        "--ist-reason",
        "turnover",
        "--from",
        "2026-04-01",
    ]);
    pay(&w, &q.c, 32_100, "2026-05-04");
    assert_eq!(kz(&vat(&w, "2026-Q2")), figures(&[("83", "0.00")]));
    assert_eq!(kz(&vat(&w, "2025-Q4")), kz(&q4));
    // The company is taxed on payments in Q2, so its bookings say which
    // method holds: C's payment moves no VAT (it was due on the invoice),
    // so DATEV is told to treat it as taxed on invoices (S).
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("q2.zip");
    w.data.ok(&[
        "export",
        "datev",
        "--company",
        &w.company,
        "--from",
        "2026-04-01",
        "--to",
        "2026-06-30",
        "--out",
        out.to_str().unwrap(),
    ]);
    let files = unzip(&out);
    let read = extf::read(
        file(&files, "EXTF_Buchungsstapel_"),
        &extf::booking_headings(),
    );
    let bookings = extf::bookings(&read);
    assert_eq!(bookings.len(), 1, "{bookings:#?}");
    assert_eq!((bookings[0].amount, bookings[0].bu.as_str()), (32_100, ""));
    assert_eq!(read.rows[0]["Abw. Versteuerungsart"], "S");
    let _ = q.bill;
}

/// Imports a statement of one credit of `amount` on `day` paying `number`.
fn bank_pays(w: &World, dir: &tempfile::TempDir, id: &str, day: &str, amount: i64, number: &str) {
    let entry = Entry {
        bank_reference: id.into(),
        booked_on: day.into(),
        reversal: false,
        txs: vec![Transfer {
            amount,
            name: "Kunde Müller KG".into(),
            remittance: number.into(),
            ..Transfer::default()
        }],
    };
    let file = write(
        dir,
        &format!("{id}.xml"),
        camt053(IBAN, id, 1, 0, day, &[entry]).as_bytes(),
    );
    let (ok, r, e) = import(&w.data, &w.company, &[&file]);
    assert!(ok, "{id}: {e} {r}");
}

#[test]
fn a_payment_taken_back_a_discount_a_bank_fee_a_credit_note_and_a_down_payment_each_in_its_own_month(
) {
    let w = World::new();
    w.data.ok(&[
        "company",
        "set",
        &w.company,
        "--vat-method",
        "ist",
        "--ist-reason",
        "turnover",
        "--from",
        "2026-09-01",
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
    let customer = w.client().customer(&w.live, "Kunde Müller KG");
    // D: 100.00 at 19 %: 119.00, paid on 10 September, the payment taken
    // back on 5 October, paid again on 3 November.
    let d = invoice(&w, &customer, "2026-09-02", &[(10_000, "19")]);
    let first = pay(&w, &d, 11_900, "2026-09-10");
    // E: 100.00 at 19 % and 100.00 at 7 %: 226.00, paid 221.48 by the bank
    // on 15 September, the 4.52 left as a cash discount (2 %).
    let e = invoice(
        &w,
        &customer,
        "2026-09-03",
        &[(10_000, "19"), (10_000, "7")],
    );
    let dir = tempfile::tempdir().unwrap();
    bank_pays(&w, &dir, "SK-1", "2026-09-15", 22_148, &e);
    let line = lines(&w.data, &w.company, None)
        .into_iter()
        .find(|l| l["remittance"] == json!(e))
        .expect("the bank line");
    w.data.ok(&[
        "bank",
        "confirm",
        line["id"].as_str().unwrap(),
        "--difference",
        "discount",
    ]);
    balanced(&w, "2026-09-15");
    // F: 50.00 at 19 %, cancelled unpaid by a credit note on 2 October:
    // its VAT never falls due, so neither month shows it.
    let f = invoice(&w, &customer, "2026-09-04", &[(5_000, "19")]);
    w.data.ok(&[
        "invoice",
        "cancel",
        "--company",
        &w.company,
        &f,
        "--reason",
        "Irrtum",
        "--on",
        "2026-10-02",
    ]);
    balanced(&w, "2026-10-02");
    // A down payment asked for on 5 September: 500.00 + 95.00, paid on 10
    // October; and a bill of a supplier taxed on payments of 6 September,
    // 100.00 + 19.00: its input VAT counts on receipt, the amended § 15 (1)
    // UStG applying only to invoices from 2028.
    let down = bill(
        &w,
        "Möbel Nord GmbH",
        "AZ-1",
        "2026-09-05",
        "50000",
        "9500",
        &["--tax-rate", "19", "--down-payment"],
    );
    bill(
        &w,
        "Beratung Süd",
        "BS-9",
        "2026-09-06",
        "10000",
        "1900",
        &["--tax-rate", "19", "--supplier-cash-basis"],
    );
    balanced(&w, "2026-09-30");

    // September. D: 100 and 19.00. E: 221.48 split by gross 119.00 : 107.00
    // → 116.62 at 19 % (98.00 + 18.62) and 104.86 at 7 % (98.00 + 6.86);
    // the discount's 2.00 + 0.38 and 2.00 + 0.14 never fall due.
    // Kz 81: 100 + 98 = 198, tax 198 × 19 % = 37.62; Kz 86: 98, 6.86.
    // Kz 66: 19.00 (the supplier's bill; the down payment waits).
    // Kz 83: 37.62 + 6.86 − 19.00 = 25.48.
    let september = vat(&w, "2026-09");
    assert_eq!(
        kz(&september),
        figures(&[
            ("81", "198"),
            ("86", "98"),
            ("66", "19.00"),
            ("83", "25.48")
        ]),
        "{september:#}"
    );
    assert_eq!(september["bookedTax"]["81"], json!("37.62"));
    assert_eq!(september["bookedTax"]["86"], json!("6.86"));
    // Nothing of E waits: what was paid fell due, the discount released the
    // rest; only F's 9.50 waits, until its credit note.
    let tb = balanced(&w, "2026-09-30");
    let waiting = trial::ledger(&tb, "output_tax_not_due").unwrap();
    assert_eq!(waiting.1 - waiting.0, 950, "{waiting:?}");
    assert_eq!(
        trial::detail(&tb, "discounts_granted", "S:19:IST"),
        Some((200, 0))
    );
    assert_eq!(
        trial::detail(&tb, "discounts_granted", "S:7:IST"),
        Some((200, 0))
    );
    // The down payment's 95.00 waits on "Vorsteuer in Folgeperiode abziehbar".
    assert_eq!(trial::ledger(&tb, "input_tax_later"), Some((9_500, 0)));
    assert_eq!(
        trial::row(&tb, "input_tax_later").unwrap()["number"],
        json!(1548)
    );

    // D's payment taken back on 5 October, the down payment paid on 10 October.
    w.data.ok(&[
        "payment",
        "reverse",
        &first,
        "--company",
        &w.company,
        "--on",
        "2026-10-05",
        "--reason",
        "Rücklastschrift",
    ]);
    balanced(&w, "2026-10-05");
    w.data.ok(&[
        "purchase",
        "pay",
        &down,
        "--amount",
        "59500",
        "--on",
        "2026-10-10",
    ]);
    // October: D's −100 and −19.00 back; the down payment's 95.00.
    // Kz 83: −19.00 − 95.00 = −114.00.
    let october = vat(&w, "2026-10");
    assert_eq!(
        kz(&october),
        figures(&[("81", "-100"), ("66", "95.00"), ("83", "-114.00")]),
        "{october:#}"
    );
    let back = &october["postings"]["81"][0];
    assert_eq!(back["document"]["number"], json!(d));
    assert_eq!(back["payment"], json!(first), "the payment taken back");
    // September stays as it was.
    assert_eq!(kz(&vat(&w, "2026-09")), kz(&september));
    let tb = balanced(&w, "2026-10-31");
    // Not due at 19 %: D's 19.00 issued, paid and back again; E's 19.00 paid
    // (18.62) and released (0.38); F's 9.50 issued and cancelled.
    assert_eq!(
        trial::detail(&tb, "output_tax_not_due", "S:19"),
        Some((1_900 + 1_862 + 38 + 950, 1_900 + 1_900 + 1_900 + 950))
    );
    assert_eq!(trial::ledger(&tb, "input_tax_later"), Some((9_500, 9_500)));

    // Paid again on 3 November: due again, once.
    pay(&w, &d, 11_900, "2026-11-03");
    assert_eq!(
        kz(&vat(&w, "2026-11")),
        figures(&[("81", "100"), ("83", "19.00")])
    );
    // G: 100.00 at 19 %, paid 118.90 by the bank on 6 November, the 0.10
    // the bank kept booked to fees. The payment brings 118.90 × 19/119 =
    // 18.98 and 99.92 due; the 0.02 of tax left never falls due, the fee is
    // the 0.08 left. November: Kz 81 100 + 99.92 = 199 (cents dropped), its
    // tax 199 × 19 % = 37.81 (booked 19.00 + 18.98 = 37.98).
    let g = invoice(&w, &customer, "2026-11-05", &[(10_000, "19")]);
    bank_pays(&w, &dir, "FE-1", "2026-11-06", 11_890, &g);
    let line = lines(&w.data, &w.company, None)
        .into_iter()
        .find(|l| l["remittance"] == json!(g))
        .expect("the bank line");
    w.data.ok(&[
        "bank",
        "confirm",
        line["id"].as_str().unwrap(),
        "--difference",
        "fees",
    ]);
    let november = vat(&w, "2026-11");
    assert_eq!(
        kz(&november),
        figures(&[("81", "199"), ("83", "37.81")]),
        "{november:#}"
    );
    assert_eq!(november["bookedTax"]["81"], json!("37.98"));
    let tb = balanced(&w, "2026-11-30");
    let waiting = trial::ledger(&tb, "output_tax_not_due").unwrap();
    assert_eq!(waiting.1 - waiting.0, 0, "nothing waits: paid or released");
    assert_eq!(trial::ledger(&tb, "fees"), Some((8, 0)));
    // H: 100.00 at 19 %, issued on 20 November, but its 119.00 came in on
    // 28 October: kept as the customer's credit then, applied to H on its
    // day. The credit applied is money received: H's 100 and 19.00 fall due
    // in November, October stays as it was. November: Kz 81 199.92 + 100 =
    // 299, its tax 299 × 19 % = 56.81 (booked 37.98 + 19.00 = 56.98).
    let h = invoice(&w, &customer, "2026-11-20", &[(10_000, "19")]);
    bank_pays(&w, &dir, "AD-1", "2026-10-28", 11_900, &h);
    let line = lines(&w.data, &w.company, None)
        .into_iter()
        .find(|l| l["remittance"] == json!(h))
        .expect("the bank line");
    assert_eq!(line["suggestions"][0]["advance"], json!(true), "{line:#}");
    w.data
        .ok(&["bank", "confirm", line["id"].as_str().unwrap()]);
    assert_eq!(kz(&vat(&w, "2026-10")), kz(&october));
    let november = vat(&w, "2026-11");
    assert_eq!(
        kz(&november),
        figures(&[("81", "299"), ("83", "56.81")]),
        "{november:#}"
    );
    assert_eq!(november["bookedTax"]["81"], json!("56.98"));
    let applied = november["postings"]["81"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["document"]["number"] == json!(h))
        .expect("H's posting");
    assert_eq!(applied["amount"], json!(10_000));
    let tb = balanced(&w, "2026-11-30");
    let waiting = trial::ledger(&tb, "output_tax_not_due").unwrap();
    assert_eq!(waiting.1 - waiting.0, 0);
    let credits = trial::ledger(&tb, "customer_credits").unwrap();
    assert_eq!(credits.1 - credits.0, 0, "the credit is used up");

    // September's DATEV export: E's discount gross on the automatic
    // discount accounts of its rates, its payment per rate with the BU key.
    let out = dir.path().join("september.zip");
    w.data.ok(&[
        "export",
        "datev",
        "--company",
        &w.company,
        "--from",
        "2026-09-01",
        "--to",
        "2026-09-30",
        "--out",
        out.to_str().unwrap(),
    ]);
    let files = unzip(&out);
    let read = extf::read(
        file(&files, "EXTF_Buchungsstapel_"),
        &extf::booking_headings(),
    );
    let bookings = extf::bookings(&read);
    let of_e = |account: u32| -> Vec<(u32, i64, String)> {
        bookings
            .iter()
            .filter(|b| b.document == e && (b.account == account || b.contra == account))
            .map(|b| (b.contra, b.amount, b.bu.clone()))
            .collect()
    };
    assert_eq!(
        of_e(1200),
        vec![(10_000, 11_662, "3".into()), (10_000, 10_486, "2".into())]
    );
    assert_eq!(of_e(8736), vec![(8736, 238, String::new())]);
    assert_eq!(of_e(8731), vec![(8731, 214, String::new())]);
    // The down payment's input VAT waits on 1548.
    assert!(bookings
        .iter()
        .any(|b| b.contra == 1548 && b.amount == 9_500 && b.document == "AZ-1"));

    // From 2028 (§ 14 (4) no. 6a and § 15 (1) UStG as amended): an invoice
    // states that the company is taxed on payments received, and a bill of a
    // supplier so taxed waits for its payment: 100.00 + 19.00 of 5 January,
    // half paid on 10 February: 9.50 deductible in February.
    let before = invoice(&w, &customer, "2027-12-20", &[(1_000, "19")]);
    let after = invoice(&w, &customer, "2028-01-10", &[(1_000, "19")]);
    let c = w.client();
    let xml = |number: &str| {
        let doc = c.get(
            &w.live,
            &format!("/v1/invoices/{number}/document?format=cii"),
        );
        assert_eq!(doc.status, 200, "{number}");
        String::from_utf8(doc.raw).unwrap()
    };
    assert!(!xml(&before).contains("vereinnahmten"));
    assert!(xml(&after).contains("Versteuerung nach vereinnahmten Entgelten"));
    let later = bill(
        &w,
        "Beratung Süd",
        "BS-28",
        "2028-01-05",
        "10000",
        "1900",
        &["--tax-rate", "19", "--supplier-cash-basis"],
    );
    w.data.ok(&[
        "purchase",
        "pay",
        &later,
        "--amount",
        "5950",
        "--on",
        "2028-02-10",
    ]);
    balanced(&w, "2028-02-10");
    // January: the two invoices wait unpaid; the bill's tax waits.
    assert_eq!(kz(&vat(&w, "2028-01")), figures(&[("83", "0.00")]));
    assert_eq!(
        kz(&vat(&w, "2028-02")),
        figures(&[("66", "9.50"), ("83", "-9.50")])
    );
}
