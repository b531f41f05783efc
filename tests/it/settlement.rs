//! Settlement, the one act by which an open document owes less: money in
//! against an invoice, money out against a bill, and a supplier's credit
//! applied to a bill of the same supplier, with the same checks for all;
//! a payment recorded by hand taken back by a person (`payment reverse`),
//! a bank line's only by undoing the line.

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
        "5.96 EUR is more than the 5.95 EUR left on the credit",
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

/// Issues an invoice of `net` minor units at 19 % to a new customer, dated
/// `on` (today when none); returns it.
fn invoice(w: &World, net: i64, on: Option<&str>) -> Value {
    let c = w.client();
    let customer = c.customer(&w.live, "Bäckerei Sonnenschein KG");
    let draft = c.draft(&w.live, &customer);
    w.data.line(&draft, net, "19", false);
    let mut args = vec!["draft", "issue", &draft];
    if let Some(on) = on {
        args.extend(["--on", on]);
    }
    w.data.ok(&args)
}

/// Records money in against the invoice `number`; returns the payment's id.
fn pay_invoice(w: &World, number: &str, amount: i64, on: &str) -> String {
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
    paid["payment"]["id"].as_str().unwrap().to_string()
}

/// `payment reverse PAYMENT` with `extra`.
fn reverse(w: &World, payment: &str, extra: &[&str]) -> (bool, Value, String) {
    let mut args = vec!["payment", "reverse", payment];
    args.extend_from_slice(extra);
    w.data.console(&args)
}

/// The trial balance as of `as_of` (today when none).
fn trial(w: &World, as_of: Option<&str>) -> Value {
    let mut args = vec!["books", "trial-balance", "--company", &w.company];
    if let Some(day) = as_of {
        args.extend(["--as-of", day]);
    }
    w.data.ok(&args)
}

/// The side `side` (`receivables`, `payables`) of the outstanding report
/// as of `as_of`: (outstanding, count).
fn open_side(w: &World, side: &str, as_of: &str) -> (i64, i64) {
    let report = w
        .client()
        .get(&w.live, &format!("/v1/reports/outstanding?asOf={as_of}"))
        .body;
    (
        report[side]["outstanding"]["minor"].as_i64().unwrap(),
        report[side]["count"].as_i64().unwrap(),
    )
}

/// The audit rows of an act: (actor, subject), oldest first.
fn audited(w: &World, act: &str) -> Vec<(String, String)> {
    rusqlite::Connection::open(&w.data.path)
        .unwrap()
        .prepare("SELECT actor, subject FROM audit WHERE act = ?1 ORDER BY seq")
        .unwrap()
        .query_map([act], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// How many rows `sql` counts in the data file.
fn count(w: &World, sql: &str) -> i64 {
    rusqlite::Connection::open(&w.data.path)
        .unwrap()
        .query_row(sql, [], |r| r.get(0))
        .unwrap()
}

/// Net debit of a ledger account in a trial balance (nothing posted is 0).
fn net(tb: &Value, ledger: &str) -> i64 {
    crate::support::trial::ledger(tb, ledger).map_or(0, |(debit, credit)| debit - credit)
}

#[test]
fn an_invoice_paid_by_hand_owes_again_once_its_payment_is_taken_back() {
    let w = World::new();
    crate::support::screens::person(&w.data, &w.company, "ann@erste.de", "accountant");
    let issued = invoice(&w, 10_000, Some("2026-11-02"));
    let (number, id) = (
        issued["number"].as_str().unwrap(),
        issued["id"].as_str().unwrap(),
    );
    let payment = pay_invoice(&w, number, 11_900, "2026-11-10");
    let get = || {
        w.client()
            .get(&w.live, &format!("/v1/invoices/{number}"))
            .body
    };
    assert_eq!(get()["paymentState"], json!("PAID"));
    assert_eq!(open_side(&w, "receivables", "2026-11-30"), (0, 0));
    let paid = trial(&w, Some("2026-11-30"));
    assert_eq!((net(&paid, "bank"), net(&paid, "receivables")), (11_900, 0));
    let events = count(&w, "SELECT count(*) FROM events");

    let (ok, out, err) = reverse(
        &w,
        &payment,
        &[
            "--reason",
            "Zahlung der falschen Rechnung zugeordnet",
            "--on",
            "2026-11-12",
            "--as",
            "ann@erste.de",
        ],
    );
    assert!(ok, "{err}");
    assert_eq!(
        out["payment"],
        json!({
            "id": payment,
            "direction": "in",
            "targetKind": "invoice",
            "targetId": id,
            "amount": money(11_900),
            "method": "bank",
            "reference": null,
            "paidOn": "2026-11-10",
            "reversedOn": "2026-11-12",
            "reversalReason": "Zahlung der falschen Rechnung zugeordnet",
        })
    );
    assert_eq!(out["invoice"]["outstanding"], money(11_900));
    assert_eq!(out["invoice"]["paidOn"], Value::Null);
    // The invoice owes its whole amount again (and is overdue by now).
    let again = get();
    assert_eq!(
        (
            again["outstanding"].clone(),
            again["paymentState"].clone(),
            again["paidOn"].clone()
        ),
        (money(11_900), json!("OVERDUE"), Value::Null)
    );
    // The report follows: paid until the reversal's day, open from it.
    assert_eq!(open_side(&w, "receivables", "2026-11-11"), (0, 0));
    assert_eq!(open_side(&w, "receivables", "2026-11-30"), (11_900, 1));
    // The ledger got the mirror entry: bank back to nothing, the receivable back.
    let reversed = trial(&w, Some("2026-11-30"));
    assert_eq!(reversed["balanced"], json!(true));
    assert_eq!(
        (net(&reversed, "bank"), net(&reversed, "receivables")),
        (0, 11_900)
    );
    assert_eq!(
        crate::support::trial::ledger(&reversed, "bank"),
        Some((11_900, 11_900)),
        "the payment and its counter-posting both stand"
    );
    // Recorded in the audit as the person's act on the invoice; no event,
    // as a bank line's undo raises none; the payment is kept.
    assert_eq!(
        audited(&w, "settlement.reversed"),
        vec![("ann@erste.de".to_string(), id.to_string())]
    );
    assert_eq!(count(&w, "SELECT count(*) FROM events"), events);
    assert_eq!(count(&w, "SELECT count(*) FROM payments"), 1);
    // A reversed payment holds no date order: the right payment may come earlier.
    pay_invoice(&w, number, 11_900, "2026-11-11");
    assert_eq!(get()["paymentState"], json!("PAID"));
}

#[test]
fn a_bill_paid_by_hand_is_owed_again_once_its_payment_is_taken_back_today() {
    let w = World::new();
    let bill = purchase(&w, "Holz Meier", "B-1", "2026-05-02", 10_000, "bill");
    let bill_id = bill["id"].as_str().unwrap();
    // Paid today, taken back today (the company's day, as the payment's).
    let paid = w
        .data
        .ok(&["purchase", "pay", bill_id, "--amount", "11900"]);
    let payment = paid["payment"]["id"].as_str().unwrap();
    let today = paid["payment"]["paidOn"].as_str().unwrap();
    assert_eq!(open_side(&w, "payables", today), (0, 0));
    let before = trial(&w, None);
    assert_eq!(
        (net(&before, "bank"), net(&before, "payables")),
        (-11_900, 0)
    );
    let (ok, out, err) = reverse(&w, payment, &["--reason", "Doppelt erfasst"]);
    assert!(ok, "{err}");
    assert_eq!(
        (
            out["payment"]["direction"].clone(),
            out["payment"]["targetKind"].clone(),
            out["payment"]["reversedOn"].clone(),
            out["payment"]["reversalReason"].clone()
        ),
        (
            json!("out"),
            json!("purchase"),
            json!(today),
            json!("Doppelt erfasst")
        )
    );
    assert_eq!(
        (
            out["purchase"]["outstanding"].clone(),
            out["purchase"]["paidOn"].clone()
        ),
        (money(11_900), Value::Null)
    );
    assert_eq!(open_side(&w, "payables", today), (11_900, 1));
    let after = trial(&w, None);
    assert_eq!(after["balanced"], json!(true));
    assert_eq!((net(&after, "bank"), net(&after, "payables")), (0, -11_900));
    assert_eq!(
        audited(&w, "settlement.reversed"),
        vec![("system".to_string(), bill_id.to_string())]
    );
    // The bill can be paid again.
    let (ok, again, err) = pay_bill(&w, bill_id, 11_900, today);
    assert!(ok, "{err}");
    assert_eq!(again["purchase"]["outstanding"], money(0));
}

#[test]
fn a_reversal_refused_says_why_and_changes_nothing() {
    let w = World::new();
    crate::support::screens::person(&w.data, &w.company, "vera@erste.de", "viewer");
    let other = w.data.company("Zweite GmbH", "ENTERPRISE");
    let issued = invoice(&w, 10_000, Some("2026-11-02"));
    let number = issued["number"].as_str().unwrap();
    let payment = pay_invoice(&w, number, 11_900, "2026-11-05");
    w.data.ok(&[
        "books",
        "close",
        "--company",
        &w.company,
        "--through",
        "2026-11-10",
    ]);
    let state = || {
        (
            trial(&w, Some("2026-11-30")),
            w.client()
                .get(&w.live, &format!("/v1/invoices/{number}"))
                .body,
            count(
                &w,
                "SELECT count(*) FROM payments WHERE reversed_on IS NOT NULL",
            ),
        )
    };
    let refused = |payment: &str, extra: &[&str], expect: &str| {
        let before = state();
        let (ok, out, err) = reverse(&w, payment, extra);
        assert!(!ok && out.is_null(), "{extra:?} was not refused: {out}");
        assert!(err.contains(expect), "{extra:?}: {err}");
        assert_eq!(state(), before, "{extra:?} changed the books");
    };
    refused(&payment, &["--on", "2026-11-20"], "--reason is missing");
    refused(
        &payment,
        &["--on", "2026-11-20", "--reason", "   "],
        "--reason is missing",
    );
    refused(
        &payment,
        &["--on", "2026-11-04", "--reason", "Tippfehler"],
        "a reversal cannot precede the payment",
    );
    refused(
        &payment,
        &["--on", "2026-11-08", "--reason", "Tippfehler"],
        "The books are closed through 2026-11-10",
    );
    // Another company's payment, or the test books', is not found.
    refused(
        &payment,
        &["--company", &other, "--reason", "Tippfehler"],
        "was not found",
    );
    refused(
        &payment,
        &["--sandbox", "--reason", "Tippfehler"],
        "was not found",
    );
    refused("pay_unknown", &["--reason", "Tippfehler"], "was not found");
    // A viewer may not act.
    refused(
        &payment,
        &["--reason", "Tippfehler", "--as", "vera@erste.de"],
        "does not allow this",
    );
    // Taken back once, not twice.
    let (ok, _, err) = reverse(
        &w,
        &payment,
        &[
            "--company",
            &w.company,
            "--on",
            "2026-11-20",
            "--reason",
            "Tippfehler",
        ],
    );
    assert!(ok, "{err}");
    refused(
        &payment,
        &["--on", "2026-11-21", "--reason", "Tippfehler"],
        "was reversed on 2026-11-20 already",
    );
}

#[test]
fn a_payment_from_a_bank_line_is_taken_back_only_by_undoing_its_line() {
    use crate::bank::{import, lines, write};
    use crate::support::statements::{camt053, Entry, Transfer};
    let w = World::new();
    let iban = "DE36760260000123456789";
    w.data.ok(&[
        "bank",
        "account",
        "add",
        "--company",
        &w.company,
        "--iban",
        iban,
    ]);
    let issued = invoice(&w, 10_000, Some("2026-11-02"));
    let number = issued["number"].as_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let statement = camt053(
        iban,
        "S-1",
        1,
        0,
        "2026-11-05",
        &[Entry {
            bank_reference: "A".into(),
            booked_on: "2026-11-05".into(),
            reversal: false,
            txs: vec![Transfer {
                amount: 11_900,
                name: "Bäckerei Sonnenschein KG".into(),
                remittance: number.into(),
                ..Transfer::default()
            }],
        }],
    );
    let (ok, r, e) = import(
        &w.data,
        &w.company,
        &[&write(&dir, "s.xml", statement.as_bytes())],
    );
    assert!(ok && r["files"][0]["settled"] == json!(1), "{e} {r}");
    let line = lines(&w.data, &w.company, None)[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let payment: String = rusqlite::Connection::open(&w.data.path)
        .unwrap()
        .query_row(
            "SELECT id FROM payments WHERE bank_line_id = ?1",
            [&line],
            |r| r.get(0),
        )
        .unwrap();
    let before = trial(&w, Some("2026-11-30"));
    let (ok, _, err) = reverse(&w, &payment, &["--reason", "Tippfehler"]);
    assert!(!ok, "a bank line's payment was taken back by hand");
    assert!(
        err.contains(&format!("undoing that line (`bank undo {line}`)")),
        "{err}"
    );
    assert_eq!(trial(&w, Some("2026-11-30")), before);
    // Undone with its line, it is reversed already.
    w.data.ok(&["bank", "undo", &line]);
    let (ok, _, err) = reverse(&w, &payment, &["--reason", "Tippfehler"]);
    assert!(!ok && err.contains("already"), "{err}");
}

/// An invoice whose only payment was taken back owes its whole amount
/// again and can be cancelled; while a payment stands, it cannot.
#[test]
fn an_invoice_whose_payment_was_taken_back_can_be_cancelled() {
    let w = World::new();
    let issued = invoice(&w, 10_000, Some("2026-11-02"));
    let number = issued["number"].as_str().unwrap();
    let payment = pay_invoice(&w, number, 11_900, "2026-11-05");
    let cancel = || {
        w.data.console(&[
            "invoice",
            "cancel",
            "--company",
            &w.company,
            number,
            "--reason",
            "Irrtum",
            "--on",
            "2026-11-10",
        ])
    };
    let (ok, _, err) = cancel();
    assert!(!ok && err.contains("payment"), "{err}");
    let (ok, _, err) = reverse(
        &w,
        &payment,
        &["--reason", "Falsch zugeordnet", "--on", "2026-11-06"],
    );
    assert!(ok, "{err}");
    let (ok, cancelled, err) = cancel();
    assert!(ok, "{err}");
    assert_eq!(trial(&w, None)["balanced"], json!(true), "{cancelled}");
}
