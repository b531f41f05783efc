//! Settlement, the one act by which an open document owes less: money in
//! against an invoice, money out against a bill, and a supplier's credit
//! applied to a bill of the same supplier, with the same checks for all.

use serde_json::{json, Value};

use crate::support::World;

/// Records a purchase document; returns it.
fn purchase(w: &World, supplier: &str, number: &str, date: &str, net: i64, kind: &str) -> Value {
    let tax = (net * 19 / 100).to_string();
    w.data.ok(&[
        "purchase",
        "record",
        "--company",
        &w.company,
        "--supplier",
        supplier,
        "--document-number",
        number,
        "--date",
        date,
        "--due",
        "2026-06-30",
        "--currency",
        "EUR",
        "--net",
        &net.to_string(),
        "--tax",
        &tax,
        "--kind",
        kind,
    ])
}

fn apply(w: &World, credit: &str, bill: &str, extra: &[&str]) -> (bool, Value, String) {
    let mut args = vec!["purchase", "apply-credit", credit, "--bill", bill];
    args.extend_from_slice(extra);
    w.data.console(&args)
}

fn pay_bill(w: &World, bill: &str, amount: i64, on: &str) -> (bool, Value, String) {
    w.data.console(&[
        "purchase",
        "pay",
        bill,
        "--amount",
        &amount.to_string(),
        "--on",
        on,
    ])
}

fn money(minor: i64) -> Value {
    json!({"minor": minor, "currency": "EUR"})
}

#[test]
fn a_supplier_credit_settles_a_bill_without_money_moving() {
    let w = World::new();
    let c = w.client();
    let bill = purchase(&w, "Holz Meier", "B-1", "2026-05-02", 10_000, "bill");
    let credit = purchase(&w, "Holz Meier", "G-1", "2026-05-04", 2_000, "credit");
    let (bill_id, credit_id) = (bill["id"].as_str().unwrap(), credit["id"].as_str().unwrap());
    assert_eq!(credit["outstanding"], money(-2_380));
    let report = |as_of: &str| {
        c.get(&w.live, &format!("/v1/reports/outstanding?asOf={as_of}"))
            .body["payables"]
            .clone()
    };
    // Before: the credit lowers what is outstanding, but the bill alone is due.
    let before = report("2026-07-01");
    assert_eq!(
        (
            before["outstanding"].clone(),
            before["due"].clone(),
            before["count"].clone()
        ),
        (money(9_520), money(11_900), json!(1))
    );
    let (ok, out, err) = apply(&w, credit_id, bill_id, &["--on", "2026-05-05"]);
    assert!(ok, "{err}");
    // As much as both allow: the whole credit.
    assert_eq!(out["application"]["amount"], money(2_380));
    assert_eq!(out["application"]["appliedOn"], json!("2026-05-05"));
    assert_eq!(out["bill"]["outstanding"], money(9_520));
    assert_eq!(out["credit"]["outstanding"], money(0));
    assert_eq!(out["credit"]["paidOn"], json!("2026-05-05"));
    assert_eq!(out["bill"]["paidOn"], Value::Null);
    let after = report("2026-07-01");
    assert_eq!(
        (
            after["outstanding"].clone(),
            after["due"].clone(),
            after["count"].clone()
        ),
        (money(9_520), money(9_520), json!(1))
    );
    // As the books stood the day before, nothing was applied yet.
    assert_eq!(report("2026-05-04")["due"], money(0));
    assert_eq!(report("2026-05-04")["outstanding"], money(9_520));
    let payables = c.tool(&w.live, "list_payables", json!({"as_of": "2026-07-01"}));
    let items = payables["structuredContent"]["items"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(items.len(), 1);
    assert_eq!(
        (items[0]["id"].as_str(), items[0]["outstanding"].clone()),
        (Some(bill_id), money(9_520))
    );
    // No money moved: no payment, and the ledger only moves within payables.
    let trial = w.data.ok(&[
        "books",
        "trial-balance",
        "--company",
        &w.company,
        "--as-of",
        "2026-07-01",
    ]);
    assert_eq!(trial["balanced"], json!(true));
    let account = |name: &str| crate::support::trial::ledger(&trial, name);
    assert_eq!(account("bank"), None, "{trial:#}");
    let (debit, credit) = account("payables").unwrap();
    assert_eq!(credit - debit, 9_520);
    // The rest is paid in money, which clears the bill.
    let (ok, paid, err) = pay_bill(&w, bill_id, 9_520, "2026-05-06");
    assert!(ok, "{err}");
    assert_eq!(paid["purchase"]["outstanding"], money(0));
    assert_eq!(report("2026-07-01")["count"], json!(0));
    assert_eq!(report("2026-07-01")["outstanding"], money(0));
}

#[test]
fn a_credit_is_applied_only_where_it_belongs_and_a_refusal_changes_nothing() {
    let w = World::new();
    let bill = purchase(&w, "Holz Meier", "B-1", "2026-05-02", 1_000, "bill");
    let other_bill = purchase(&w, "Stein Schulz", "S-1", "2026-05-02", 1_000, "bill");
    let credit = purchase(&w, "Holz Meier", "G-1", "2026-05-04", 500, "credit");
    let id = |v: &Value| v["id"].as_str().unwrap().to_string();
    let (bill, other_bill, credit) = (id(&bill), id(&other_bill), id(&credit));
    let refused = |credit: &str, bill: &str, extra: &[&str], expect: &str| {
        let (ok, out, err) = apply(&w, credit, bill, extra);
        assert!(
            !ok && out.is_null(),
            "{credit} → {bill} {extra:?} was not refused"
        );
        assert!(err.contains(expect), "{extra:?}: {err}");
    };
    refused(
        &credit,
        &other_bill,
        &["--on", "2026-05-05"],
        "different suppliers",
    );
    refused(
        &credit,
        &bill,
        &["--on", "2026-05-05", "--amount", "596"],
        "more than the 595",
    );
    refused(&credit, &bill, &["--on", "2026-05-03"], "cannot precede");
    refused(
        &bill,
        &credit,
        &["--on", "2026-05-05"],
        "is a bill, not a supplier credit",
    );
    refused(&credit, &credit, &["--on", "2026-05-05"], "not a bill");
    refused(
        &credit,
        &bill,
        &["--on", "2026-05-05", "--amount", "0"],
        "--amount",
    );
    // A payment, then a credit dated before it: settlements keep date order.
    let (ok, _, err) = pay_bill(&w, &bill, 100, "2026-05-10");
    assert!(ok, "{err}");
    refused(&credit, &bill, &["--on", "2026-05-09"], "date order");
    w.data.ok(&[
        "books",
        "close",
        "--company",
        &w.company,
        "--through",
        "2026-05-31",
    ]);
    refused(&credit, &bill, &["--on", "2026-05-20"], "closed");
    // Nothing of the refusals stayed.
    let c = w.client();
    let payables = c.tool(&w.live, "list_payables", json!({"as_of": "2026-07-01"}));
    let open: Vec<(String, i64)> = payables["structuredContent"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["id"].as_str().unwrap().to_string(),
                d["outstanding"]["minor"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(open, vec![(bill.clone(), 1_090), (other_bill, 1_190)]);
    // Applied in part, then used up.
    let (ok, out, err) = apply(
        &w,
        &credit,
        &bill,
        &["--on", "2026-06-02", "--amount", "400"],
    );
    assert!(ok, "{err}");
    assert_eq!(out["credit"]["outstanding"], money(-195));
    let (ok, out, err) = apply(&w, &credit, &bill, &["--on", "2026-06-03"]);
    assert!(ok, "{err}");
    assert_eq!(
        (
            out["application"]["amount"].clone(),
            out["bill"]["outstanding"].clone()
        ),
        (money(195), money(495))
    );
    refused(&credit, &bill, &["--on", "2026-06-04"], "used up");
}

#[test]
fn a_credit_in_another_currency_than_the_books_is_refused() {
    let w = World::new();
    let record = |number: &str, kind: &str| {
        w.data.ok(&[
            "purchase",
            "record",
            "--company",
            &w.company,
            "--supplier",
            "Swiss AG",
            "--document-number",
            number,
            "--date",
            "2026-05-02",
            "--due",
            "2026-06-30",
            "--currency",
            "CHF",
            "--net",
            "1000",
            "--tax",
            "0",
            "--kind",
            kind,
            "--rate",
            "1.05",
        ])
    };
    let bill = record("B-1", "bill");
    let credit = record("G-1", "credit");
    let (ok, _, err) = apply(
        &w,
        credit["id"].as_str().unwrap(),
        bill["id"].as_str().unwrap(),
        &["--on", "2026-05-03"],
    );
    assert!(!ok && err.contains("book currency"), "{err}");
}
