//! The books through the console (the acts of a person) and REST (what
//! software reads): drafts, issuing, payments, cancellations, purchases,
//! closing, the ledger and the outstanding report.

use serde_json::{json, Value};

use crate::support::{unique, Client, DataFile, World};

fn draft(c: &Client, key: &str, customer: &Value) -> String {
    c.draft(key, customer)
}

fn sandbox(args: &[&str], on_sandbox: bool) -> Vec<String> {
    let mut v: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    if on_sandbox {
        v.push("--sandbox".into());
    }
    v
}

fn run(data: &DataFile, args: Vec<String>) -> (bool, Value, String) {
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    data.console(&refs)
}

/// Adds a line at `rate` % and issues the draft on `on`; returns the invoice.
fn issued(
    data: &DataFile,
    draft: &str,
    price: i64,
    rate: &str,
    on: &str,
    sandbox_mode: bool,
) -> Value {
    data.line(draft, price, rate, sandbox_mode);
    let (ok, invoice, err) = run(
        data,
        sandbox(&["draft", "issue", draft, "--on", on], sandbox_mode),
    );
    assert!(ok, "{err}");
    invoice
}

fn pay(
    data: &DataFile,
    company: &str,
    number: &str,
    amount: i64,
    on: &str,
) -> (bool, Value, String) {
    data.console(&[
        "payment",
        "record",
        "--company",
        company,
        "--invoice",
        number,
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
fn an_issued_invoice_is_readable_by_number_with_frozen_figures() {
    let w = World::new();
    let c = w.client();
    let customer = c.customer(&w.live, "Müller Bau GmbH");
    let d = draft(&c, &w.live, &customer);
    w.data.ok(&[
        "draft",
        "line",
        &d,
        "--description",
        "Dach",
        "--quantity",
        "1.5",
        "--unit-price",
        "8000",
        "--tax-rate",
        "19",
    ]);
    w.data.ok(&[
        "draft",
        "line",
        &d,
        "--description",
        "Bücher",
        "--quantity",
        "3",
        "--unit-price",
        "1999",
        "--tax",
        "USt:7",
    ]);
    w.data.ok(&[
        "draft",
        "line",
        &d,
        "--description",
        "Export",
        "--quantity",
        "1",
        "--unit-price",
        "1000",
        "--tax",
        "USt:0:Ausfuhrlieferung",
        "--vat-category",
        "G",
    ]);
    let invoice = w.data.ok(&[
        "draft",
        "issue",
        &d,
        "--on",
        "2026-03-02",
        "--delivered-on",
        "2026-02-27",
    ]);
    let number = invoice["number"].as_str().unwrap();
    assert_eq!(number, "2026-00001");
    let read = c.get(&w.live, &format!("/v1/invoices/{number}"));
    assert_eq!(read.status, 200);
    assert_eq!(
        read.body, invoice,
        "the console prints the invoice as the API shows it"
    );
    let b = &read.body;
    // 1.5 × 80.00 = 120.00; 3 × 19.99 = 59.97; 10.00. USt 19 % of 120.00 = 22.80; 7 % of 59.97 = 4.20 (4.1979).
    assert_eq!(
        (b["net"].clone(), b["tax"].clone(), b["gross"].clone()),
        (money(18997), money(2700), money(21697))
    );
    assert_eq!(b["outstanding"], money(21697));
    assert_eq!(
        b["taxes"],
        json!([
            {"name": "USt", "rate": "19", "reason": null, "base": money(12000), "amount": money(2280)},
            {"name": "USt", "rate": "7", "reason": null, "base": money(5997), "amount": money(420)},
            {"name": "USt", "rate": "0", "reason": "Ausfuhrlieferung", "base": money(1000), "amount": money(0)},
        ])
    );
    assert_eq!(
        b["lines"][0],
        json!({"description": "Dach", "quantity": "1.5", "unitPrice": money(8000), "net": money(12000)})
    );
    assert_eq!(
        (
            b["issuedOn"].clone(),
            b["deliveredOn"].clone(),
            b["dueOn"].clone()
        ),
        (
            json!("2026-03-02"),
            json!("2026-02-27"),
            json!("2026-03-16")
        )
    );
    assert_eq!(
        b["paymentSentence"],
        json!("Zahlbar bis 16.03.2026 ohne Abzug.")
    );
    assert_eq!(b["buyer"], json!("Müller Bau GmbH"));
    assert_eq!(
        (
            b["documentType"].clone(),
            b["creditNote"].clone(),
            b["cancelled"].clone()
        ),
        (json!("INVOICE"), json!(false), json!(false))
    );
    assert_eq!(
        b["paymentState"],
        json!("OVERDUE"),
        "due 2026-03-16 has passed"
    );
    assert_eq!(b["overdue"], json!(true));
    // New terms for the customer change nothing issued.
    w.data.ok(&[
        "customer",
        "terms",
        customer["id"].as_str().unwrap(),
        "--payment-days",
        "60",
    ]);
    assert_eq!(
        c.get(&w.live, &format!("/v1/invoices/{number}")).body,
        read.body
    );
    // The draft is spent.
    let (ok, _, err) = w.data.console(&["draft", "issue", &d]);
    assert!(!ok && err.contains("already issued"), "{err}");
}

#[test]
fn a_draft_follows_the_customers_terms_until_it_is_issued() {
    let w = World::new();
    let c = w.client();
    let customer = c.customer(&w.live, "Kunde");
    let d = c.post(
        &w.live,
        "/v1/invoices/drafts",
        &unique(),
        &json!({"customerId": customer["id"]}),
    );
    assert_eq!(d.status, 201);
    let today: jiff::civil::Date = d.body["issuedOn"].as_str().unwrap().parse().unwrap();
    let days = |n: i64| (today + jiff::Span::new().days(n)).to_string();
    assert_eq!(d.body["dueOn"], json!(days(14)), "DE default: 14 days");
    assert_eq!(d.body["number"], json!(format!("{}-00001", today.year())));
    assert_eq!(
        (
            d.body["state"].clone(),
            d.body["documentType"].clone(),
            d.body["currency"].clone()
        ),
        (json!("DRAFT"), json!("INVOICE"), json!("EUR"))
    );
    let id = d.body["id"].as_str().unwrap();
    w.data.ok(&[
        "customer",
        "terms",
        customer["id"].as_str().unwrap(),
        "--payment-days",
        "30",
    ]);
    let shown = w.data.ok(&[
        "draft",
        "line",
        id,
        "--description",
        "x",
        "--quantity",
        "1",
        "--unit-price",
        "100",
        "--tax-rate",
        "19",
    ]);
    assert_eq!(shown["dueOn"], json!(days(30)));
    let invoice = w.data.ok(&["draft", "issue", id]);
    assert_eq!(invoice["dueOn"], json!(days(30)));
    assert_eq!(
        invoice["paymentSentence"],
        json!(format!(
            "Zahlbar bis {} ohne Abzug.",
            (today + jiff::Span::new().days(30)).strftime("%d.%m.%Y")
        ))
    );
}

#[test]
fn drafts_accept_only_a_customer_id_of_the_keys_company_and_environment() {
    let w = World::new();
    let c = w.client();
    let customer = c.customer(&w.live, "Kunde");
    let a = c.post(
        &w.live,
        "/v1/invoices/drafts",
        &unique(),
        &json!({"customerId": customer["id"], "number": "X-1"}),
    );
    a.refused(400, "ANFRAGE");
    assert!(a.body["fehler"].as_str().unwrap().contains("number"));
    c.post(&w.live, "/v1/invoices/drafts", &unique(), &json!({}))
        .refused(400, "ANFRAGE");
    c.post(
        &w.test,
        "/v1/invoices/drafts",
        &unique(),
        &json!({"customerId": customer["id"]}),
    )
    .refused(404, "NICHT_GEFUNDEN");
    let other = w.data.company("Zweite GmbH", "ENTERPRISE");
    let other_key = w.data.key(&other, "production", "all");
    c.post(
        &other_key,
        "/v1/invoices/drafts",
        &unique(),
        &json!({"customerId": customer["id"]}),
    )
    .refused(404, "NICHT_GEFUNDEN");
    c.post(
        &w.live,
        "/v1/invoices/drafts",
        &unique(),
        &json!({"customerId": "cus_nope"}),
    )
    .refused(404, "NICHT_GEFUNDEN");
    // The three scopes of the address are all needed.
    let partial = w
        .data
        .key(&w.company, "production", "invoices:write,customers:read");
    c.post(
        &partial,
        "/v1/invoices/drafts",
        &unique(),
        &json!({"customerId": customer["id"]}),
    )
    .refused(403, "KEINE_BERECHTIGUNG");
}

#[test]
fn partial_then_full_payment_moves_open_to_paid() {
    let w = World::new();
    let c = w.client();
    let customer = c.customer(&w.live, "Kunde");
    let inv = issued(
        &w.data,
        &draft(&c, &w.live, &customer),
        10000,
        "19",
        "2026-03-02",
        false,
    );
    let number = inv["number"].as_str().unwrap();
    let (ok, first, err) = pay(&w.data, &w.company, number, 5000, "2026-03-05");
    assert!(ok, "{err}");
    assert_eq!(first["payment"]["amount"], money(5000));
    assert_eq!(first["invoice"]["outstanding"], money(6900));
    assert_eq!(first["invoice"]["paidOn"], json!(null));
    assert_eq!(
        first["invoice"]["paymentState"],
        json!("OVERDUE"),
        "partly paid, and due 2026-03-16 has passed"
    );
    // Overpayment, a non-positive amount and a date before the invoice are refused.
    let (ok, _, err) = pay(&w.data, &w.company, number, 6901, "2026-03-06");
    assert!(!ok && err.contains("more than"), "{err}");
    let (ok, _, err) = pay(&w.data, &w.company, number, 0, "2026-03-06");
    assert!(!ok && err.contains("must be a positive number"), "{err}");
    let (ok, _, err) = pay(&w.data, &w.company, number, 100, "2026-03-01");
    assert!(!ok && err.contains("precede"), "{err}");
    let (ok, paid, err) = pay(&w.data, &w.company, number, 6900, "2026-03-10");
    assert!(ok, "{err}");
    assert_eq!(paid["invoice"]["paymentState"], json!("PAID"));
    assert_eq!(paid["invoice"]["paidOn"], json!("2026-03-10"));
    assert_eq!(paid["invoice"]["outstanding"], money(0));
    assert_eq!(paid["invoice"]["overdue"], json!(false));
    let (ok, _, err) = pay(&w.data, &w.company, number, 1, "2026-03-11");
    assert!(!ok && err.contains("paid in full"), "{err}");
    let read = c.get(&w.live, &format!("/v1/invoices/{number}")).body;
    assert_eq!(read["paymentState"], json!("PAID"));
    assert_eq!(
        c.get(&w.live, "/v1/invoices?status=PAID").body["total"],
        json!(1)
    );
    assert_eq!(
        c.get(&w.live, "/v1/invoices?status=OPEN").body["total"],
        json!(0)
    );
}

#[test]
fn a_cancellation_makes_a_correction_document() {
    let w = World::new();
    let c = w.client();
    let customer = c.customer(&w.live, "Kunde");
    let first = issued(
        &w.data,
        &draft(&c, &w.live, &customer),
        10000,
        "19",
        "2026-03-02",
        false,
    );
    let second = issued(
        &w.data,
        &draft(&c, &w.live, &customer),
        5000,
        "19",
        "2026-03-03",
        false,
    );
    let number = first["number"].as_str().unwrap();
    let out = w.data.ok(&[
        "invoice",
        "cancel",
        "--company",
        &w.company,
        number,
        "--reason",
        "Doppelt berechnet",
        "--on",
        "2026-03-04",
    ]);
    let (cancelled, correction) = (&out["cancelled"], &out["correction"]);
    assert_eq!(cancelled["paymentState"], json!("CANCELLED"));
    assert_eq!(cancelled["cancelled"], json!(true));
    assert_eq!(cancelled["outstanding"], money(0));
    assert_eq!(correction["paymentState"], json!("CORRECTION"));
    assert_eq!(correction["creditNote"], json!(true));
    assert_eq!(correction["documentType"], json!("CORRECTION"));
    assert_eq!(
        correction["number"],
        json!("2026-00003"),
        "the next number of the same sequence"
    );
    assert_eq!(cancelled["cancelledBy"], correction["number"]);
    assert_eq!(correction["corrects"], json!(number));
    assert_eq!(
        (
            correction["net"].clone(),
            correction["tax"].clone(),
            correction["gross"].clone()
        ),
        (money(-10000), money(-1900), money(-11900))
    );
    assert_eq!(correction["lines"][0]["quantity"], json!("-1"));
    assert_eq!(
        c.get(
            &w.live,
            &format!("/v1/invoices/{}", correction["number"].as_str().unwrap())
        )
        .body,
        *correction
    );
    // Refusals: twice, a correction, a paid invoice, no reason.
    let (ok, _, err) = w.data.console(&[
        "invoice",
        "cancel",
        "--company",
        &w.company,
        number,
        "--reason",
        "again",
    ]);
    assert!(!ok && err.contains("already cancelled"), "{err}");
    let (ok, _, err) = w.data.console(&[
        "invoice",
        "cancel",
        "--company",
        &w.company,
        correction["number"].as_str().unwrap(),
        "--reason",
        "x",
    ]);
    assert!(!ok && err.contains("is itself a correction"), "{err}");
    let second_number = second["number"].as_str().unwrap();
    assert!(pay(&w.data, &w.company, second_number, 100, "2026-03-05").0);
    let (ok, _, err) = w.data.console(&[
        "invoice",
        "cancel",
        "--company",
        &w.company,
        second_number,
        "--reason",
        "x",
    ]);
    assert!(!ok && err.contains("payment"), "{err}");
    let (ok, _, err) = w.data.console(&[
        "invoice",
        "cancel",
        "--company",
        &w.company,
        second_number,
        "--reason",
        " ",
    ]);
    assert!(!ok && err.contains("--reason is missing"), "{err}");
    let list = c.get(&w.live, "/v1/invoices").body;
    assert_eq!(list["total"], json!(3));
    assert_eq!(
        list["data"][0]["number"],
        json!("2026-00003"),
        "newest first"
    );
    let report = c
        .get(&w.live, "/v1/reports/outstanding?asOf=2026-03-05")
        .body;
    assert_eq!(report["receivables"]["outstanding"], money(5950 - 100));
    assert_eq!(report["receivables"]["count"], json!(1));
}

#[test]
fn every_refusal_of_issuing_names_its_reason_and_changes_nothing() {
    let w = World::new();
    let c = w.client();
    let customer = c.customer(&w.live, "Kunde");
    let refused = |draft: &str, args: &[&str], expect: &str| {
        let mut all = vec!["draft", "issue", draft];
        all.extend_from_slice(args);
        let (ok, out, err) = w.data.console(&all);
        assert!(!ok && out.is_null(), "{all:?} was not refused");
        assert!(err.contains(expect), "{all:?}: {err}");
    };
    let empty = draft(&c, &w.live, &customer);
    refused(&empty, &[], "no lines");
    let untaxed = draft(&c, &w.live, &customer);
    w.data.ok(&[
        "draft",
        "line",
        &untaxed,
        "--description",
        "Ohne Steuer",
        "--quantity",
        "1",
        "--unit-price",
        "100",
    ]);
    refused(&untaxed, &[], "no tax decision");
    let (ok, _, err) = w.data.console(&[
        "draft",
        "line",
        &untaxed,
        "--description",
        "x",
        "--quantity",
        "1",
        "--unit-price",
        "100",
        "--tax",
        "USt:0",
    ]);
    assert!(
        !ok && err.contains("reason"),
        "a zero rate without the seller's reason: {err}"
    );
    let (ok, _, err) = w.data.console(&[
        "draft",
        "line",
        &untaxed,
        "--description",
        "x",
        "--quantity",
        "0",
        "--unit-price",
        "100",
        "--tax-rate",
        "19",
    ]);
    assert!(
        !ok && err.contains("--quantity must be greater than zero"),
        "a zero quantity: {err}"
    );
    // A malformed VAT id of the customer.
    let bad_vat = c.post(&w.live, "/v1/customers", &unique(), &json!({"name": "Falsch", "street": "S", "postalCode": "1", "city": "B", "vatId": "DE136695975"})).body;
    let vat_draft = draft(&c, &w.live, &bad_vat);
    w.data.ok(&[
        "draft",
        "line",
        &vat_draft,
        "--description",
        "x",
        "--quantity",
        "1",
        "--unit-price",
        "100",
        "--tax-rate",
        "19",
    ]);
    refused(&vat_draft, &[], "check digit");
    // Closed books.
    let good = draft(&c, &w.live, &customer);
    w.data.ok(&[
        "draft",
        "line",
        &good,
        "--description",
        "x",
        "--quantity",
        "1",
        "--unit-price",
        "100",
        "--tax-rate",
        "19",
    ]);
    w.data.ok(&[
        "books",
        "close",
        "--company",
        &w.company,
        "--through",
        "2026-01-31",
    ]);
    refused(&good, &["--on", "2026-01-31"], "closed");
    // Another currency without a rate.
    let chf = c.post(&w.live, "/v1/customers", &unique(), &json!({"name": "Zürich AG", "street": "S", "postalCode": "8000", "city": "Zürich", "country": "CH", "currency": "CHF"})).body;
    let chf_draft = draft(&c, &w.live, &chf);
    w.data.ok(&[
        "draft",
        "line",
        &chf_draft,
        "--description",
        "x",
        "--quantity",
        "1",
        "--unit-price",
        "10000",
        "--tax",
        "MWST:0:Export",
        "--vat-category",
        "G",
    ]);
    refused(&chf_draft, &["--on", "2026-02-02"], "rate");
    // Nothing was issued and no number was used: the next issue takes the first.
    assert_eq!(c.get(&w.live, "/v1/invoices").body["total"], json!(0));
    let first = w.data.ok(&["draft", "issue", &good, "--on", "2026-02-01"]);
    assert_eq!(first["number"], json!("2026-00001"));
    let chf_invoice = w.data.ok(&[
        "draft",
        "issue",
        &chf_draft,
        "--on",
        "2026-02-02",
        "--rate",
        "1.05",
    ]);
    assert_eq!(chf_invoice["number"], json!("2026-00002"));
    assert_eq!(
        chf_invoice["gross"],
        json!({"minor": 10000, "currency": "CHF"})
    );
    // The report counts it in the book currency at the fixed rate: 100.00 CHF × 1.05 = 105.00 EUR.
    let report = c
        .get(&w.live, "/v1/reports/outstanding?asOf=2026-02-02")
        .body;
    assert_eq!(report["receivables"]["outstanding"], money(119 + 10500));
    assert_eq!(report["booksOpen"], json!(true));
    assert_eq!(
        c.get(&w.live, "/v1/reports/outstanding?asOf=2026-01-15")
            .body["booksOpen"],
        json!(false)
    );
    // Acts dated in closed books are refused too.
    w.data.ok(&[
        "books",
        "close",
        "--company",
        &w.company,
        "--through",
        "2026-02-03",
    ]);
    let (ok, _, err) = pay(&w.data, &w.company, "2026-00001", 119, "2026-02-03");
    assert!(!ok && err.contains("closed"), "{err}");
    let (ok, _, err) = w.data.console(&[
        "invoice",
        "cancel",
        "--company",
        &w.company,
        "2026-00001",
        "--reason",
        "x",
        "--on",
        "2026-02-02",
    ]);
    assert!(!ok && err.contains("closed"), "{err}");
    let (ok, _, err) = w.data.console(&[
        "books",
        "close",
        "--company",
        &w.company,
        "--through",
        "2026-01-01",
    ]);
    assert!(!ok && err.contains("back"), "{err}");
}

#[test]
fn sandbox_numbers_are_their_own_and_other_companies_see_nothing() {
    let w = World::new();
    let c = w.client();
    let live_customer = c.customer(&w.live, "Live");
    let test_customer = c.customer(&w.test, "Test");
    let live = issued(
        &w.data,
        &draft(&c, &w.live, &live_customer),
        1000,
        "19",
        "2026-04-01",
        false,
    );
    let live2 = issued(
        &w.data,
        &draft(&c, &w.live, &live_customer),
        1000,
        "19",
        "2026-04-01",
        false,
    );
    let test = issued(
        &w.data,
        &draft(&c, &w.test, &test_customer),
        1000,
        "19",
        "2026-04-01",
        true,
    );
    assert_eq!(
        (
            live["number"].as_str(),
            live2["number"].as_str(),
            test["number"].as_str()
        ),
        (Some("2026-00001"), Some("2026-00002"), Some("2026-00001"))
    );
    assert_eq!(c.get(&w.test, "/v1/invoices").body["total"], json!(1));
    assert_eq!(
        c.get(&w.test, "/v1/invoices/2026-00001").body["id"],
        test["id"]
    );
    c.get(&w.test, "/v1/invoices/2026-00002")
        .refused(404, "NICHT_GEFUNDEN");
    let other = w.data.company("Zweite GmbH", "ENTERPRISE");
    let other_key = w.data.key(&other, "production", "all");
    c.get(&other_key, "/v1/invoices/2026-00001")
        .refused(404, "NICHT_GEFUNDEN");
    assert_eq!(c.get(&other_key, "/v1/invoices").body["total"], json!(0));
    let report = c.get(&other_key, "/v1/reports/outstanding").body;
    assert_eq!(report["receivables"]["count"], json!(0));
    // The console refuses acts on another company's or environment's documents.
    let (ok, _, err) = pay(&w.data, &other, "2026-00002", 100, "2026-04-02");
    assert!(
        !ok && err.contains("Invoice 2026-00002 was not found"),
        "{err}"
    );
    let (ok, _, err) = w.data.console(&[
        "payment",
        "record",
        "--company",
        &w.company,
        "--invoice",
        "2026-00002",
        "--amount",
        "100",
        "--sandbox",
    ]);
    assert!(
        !ok && err.contains("Invoice 2026-00002 was not found"),
        "{err}"
    );
}

#[test]
fn the_invoice_list_filters_by_status_and_issue_date() {
    let w = World::new();
    let c = w.client();
    let customer = c.customer(&w.live, "Kunde");
    for (on, price) in [
        ("2026-01-10", 1000),
        ("2026-02-10", 2000),
        ("2026-03-10", 3000),
    ] {
        issued(
            &w.data,
            &draft(&c, &w.live, &customer),
            price,
            "19",
            on,
            false,
        );
    }
    assert!(pay(&w.data, &w.company, "2026-00002", 2380, "2026-02-11").0);
    let numbers = |q: &str| -> Vec<String> {
        let page = c.get(&w.live, &format!("/v1/invoices{q}"));
        assert_eq!(page.status, 200, "{q}");
        page.body["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["number"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(numbers(""), ["2026-00003", "2026-00002", "2026-00001"]);
    assert_eq!(numbers("?status=OPEN"), ["2026-00003", "2026-00001"]);
    assert_eq!(numbers("?status=PAID"), ["2026-00002"]);
    assert_eq!(numbers("?status=whatever"), numbers(""));
    assert_eq!(numbers("?from=2026-02-01"), ["2026-00003", "2026-00002"]);
    assert_eq!(numbers("?from=2026-02-01&to=2026-02-28"), ["2026-00002"]);
    assert_eq!(
        c.get(&w.live, "/v1/invoices?from=2026-02-01&status=OPEN")
            .body["total"],
        json!(1)
    );
    c.get(&w.live, "/v1/invoices?from=Februar")
        .refused(400, "ANFRAGE");
    // Scopes: invoices:read.
    let reader = w.data.key(&w.company, "production", "customers:read");
    c.get(&reader, "/v1/invoices")
        .refused(403, "KEINE_BERECHTIGUNG");
    c.get(&reader, "/v1/reports/outstanding")
        .refused(403, "KEINE_BERECHTIGUNG");
}

#[test]
fn purchases_are_payables_never_netted_with_receivables() {
    let w = World::new();
    let c = w.client();
    let args = |number: &str| {
        vec![
            "purchase",
            "record",
            "--company",
            &w.company,
            "--supplier",
            "Holz Meier",
            "--document-number",
            number,
            "--date",
            "2026-05-02",
            "--due",
            "2026-05-16",
            "--currency",
            "EUR",
            "--net",
            "10000",
            "--tax",
            "1900",
        ]
        .into_iter()
        .map(str::to_string)
        .collect::<Vec<_>>()
    };
    let (ok, bill, err) = run(&w.data, args("B-1"));
    assert!(ok, "{err}");
    assert_eq!(bill["gross"], money(11900));
    assert_eq!(bill["supplier"], json!("Holz Meier"));
    let (ok, _, err) = run(&w.data, args("B-1"));
    assert!(!ok && err.contains("already recorded"), "{err}");
    let supplier = c
        .get(
            &w.live,
            &format!("/v1/customers/{}", bill["supplierId"].as_str().unwrap()),
        )
        .body;
    assert_eq!(
        (supplier["supplier"].clone(), supplier["customer"].clone()),
        (json!(true), json!(false))
    );
    let customer = c.customer(&w.live, "Kunde");
    issued(
        &w.data,
        &draft(&c, &w.live, &customer),
        5000,
        "19",
        "2026-05-03",
        false,
    );
    let report = c
        .get(&w.live, "/v1/reports/outstanding?asOf=2026-05-20")
        .body;
    assert_eq!(
        report["payables"],
        json!({"outstanding": money(11900), "due": money(11900), "overdue": money(11900), "count": 1})
    );
    assert_eq!(report["receivables"]["outstanding"], money(5950));
    let id = bill["id"].as_str().unwrap();
    let (ok, paid, err) = w.data.console(&[
        "purchase",
        "pay",
        id,
        "--amount",
        "11900",
        "--on",
        "2026-05-10",
    ]);
    assert!(ok, "{err}");
    assert_eq!(paid["purchase"]["outstanding"], money(0));
    assert_eq!(paid["payment"]["direction"], json!("out"));
    let (ok, _, err) = w.data.console(&["purchase", "pay", id, "--amount", "1"]);
    assert!(!ok && err.contains("is paid in full"), "{err}");
    let report = c
        .get(&w.live, "/v1/reports/outstanding?asOf=2026-05-20")
        .body;
    assert_eq!(report["payables"]["count"], json!(0));
    // As of a day before the payment the bill was still open, and due on the day of its due date.
    let before = c
        .get(&w.live, "/v1/reports/outstanding?asOf=2026-05-09")
        .body;
    assert_eq!(
        before["payables"],
        json!({"outstanding": money(11900), "due": money(0), "overdue": money(0), "count": 1})
    );
    let tb = w.data.ok(&[
        "books",
        "trial-balance",
        "--company",
        &w.company,
        "--as-of",
        "2026-05-31",
    ]);
    assert_eq!(tb["balanced"], json!(true));
    let posted = |ledger: &str| crate::support::trial::ledger(&tb, ledger).unwrap();
    assert_eq!(posted("expenses"), (10000, 0));
    assert_eq!(posted("input_tax"), (1900, 0));
    assert_eq!(posted("payables"), (11900, 11900));
    assert_eq!(posted("bank"), (0, 11900));
}

#[test]
fn edge_refusals_of_the_books() {
    let w = World::new();
    let c = w.client();
    // In Spain R is the corrections' series: no company may number invoices with it.
    let (ok, _, err) = w.data.console(&[
        "company",
        "create",
        "--name",
        "ES",
        "--country",
        "ES",
        "--currency",
        "EUR",
        "--invoice-prefix",
        "R",
    ]);
    assert!(!ok && err.contains("corrections"), "{err}");
    let customer = c.customer(&w.live, "Kunde");
    let d = c.draft(&w.live, &customer);
    // A reason goes only with a zero rate; a tax once per line.
    let line = |taxes: &[&str]| {
        let mut args = vec![
            "draft",
            "line",
            &d,
            "--description",
            "x",
            "--quantity",
            "1",
            "--unit-price",
            "300",
        ];
        for t in taxes {
            args.extend(["--tax", t]);
        }
        w.data.console(&args)
    };
    let (ok, _, err) = line(&["USt:19:Standard"]);
    assert!(!ok && err.contains("zero rate"), "{err}");
    let (ok, _, err) = line(&["USt:19", "USt:19"]);
    assert!(!ok && err.contains("twice"), "{err}");
    // Several taxes on a line stay possible on a draft; a seller in the EU
    // cannot issue them, since an invoice line carries exactly one VAT.
    assert!(line(&["USt:19", "City:2.5"]).0);
    let (ok, _, err) = w
        .data
        .console(&["draft", "issue", &d, "--on", "2026-03-02"]);
    assert!(!ok && err.contains("exactly one VAT"), "{err}");
    let d = c.draft(&w.live, &customer);
    w.data.ok(&[
        "draft",
        "line",
        &d,
        "--description",
        "x",
        "--quantity",
        "1",
        "--unit-price",
        "300",
        "--tax-rate",
        "19",
    ]);
    // Dates far outside the calendar of the books are refused.
    let (ok, _, err) = w
        .data
        .console(&["draft", "issue", &d, "--on", "0000-01-01"]);
    assert!(!ok && err.contains("1900"), "{err}");
    let invoice = w.data.ok(&["draft", "issue", &d, "--on", "2026-03-02"]);
    let number = invoice["number"].as_str().unwrap();
    // Payments are recorded in date order.
    assert!(
        w.data
            .console(&[
                "payment",
                "record",
                "--company",
                &w.company,
                "--invoice",
                number,
                "--amount",
                "100",
                "--on",
                "2026-03-20"
            ])
            .0
    );
    let (ok, _, err) = w.data.console(&[
        "payment",
        "record",
        "--company",
        &w.company,
        "--invoice",
        number,
        "--amount",
        "100",
        "--on",
        "2026-03-10",
    ]);
    assert!(!ok && err.contains("date order"), "{err}");
    // A currency so small against the book currency that it is worth nothing there.
    let yen = c.post(&w.live, "/v1/customers", &unique(), &json!({"name": "Tokyo KK", "street": "S", "postalCode": "1", "city": "Tokyo", "country": "JP", "currency": "JPY"})).body;
    let jd = c.draft(&w.live, &yen);
    w.data.ok(&[
        "draft",
        "line",
        &jd,
        "--description",
        "x",
        "--quantity",
        "1",
        "--unit-price",
        "1",
        "--tax",
        "VAT:0:Export",
        "--vat-category",
        "G",
    ]);
    let (ok, _, err) = w.data.console(&["draft", "issue", &jd, "--rate", "0.004"]);
    assert!(!ok && err.contains("worth nothing"), "{err}");
    // A supplier's credit lowers the payables but is never due and no open document.
    let today = invoice["issuedOn"].as_str().unwrap();
    w.data.ok(&[
        "purchase",
        "record",
        "--company",
        &w.company,
        "--supplier",
        "Meier",
        "--document-number",
        "G-1",
        "--date",
        today,
        "--due",
        today,
        "--currency",
        "EUR",
        "--net",
        "1000",
        "--tax",
        "190",
        "--kind",
        "credit",
    ]);
    let report = c
        .get(&w.live, "/v1/reports/outstanding?asOf=2026-12-31")
        .body;
    assert_eq!(
        report["payables"],
        json!({"outstanding": money(-1190), "due": money(0), "overdue": money(0), "count": 0})
    );
}

#[test]
fn replaying_a_drafts_creation_after_its_issue_shows_the_final_number() {
    let w = World::new();
    let c = w.client();
    let customer = c.customer(&w.live, "Kunde");
    let body = json!({"customerId": customer["id"]});
    let first = c.post(&w.live, "/v1/invoices/drafts", "draft-once", &body);
    let id = first.body["id"].as_str().unwrap();
    w.data.line(id, 1000, "19", false);
    let invoice = w.data.ok(&["draft", "issue", id, "--on", "2026-03-02"]);
    // Another draft takes the next suggestion meanwhile.
    c.draft(&w.live, &customer);
    let replay = c.post(&w.live, "/v1/invoices/drafts", "draft-once", &body);
    assert_eq!(replay.header("Idempotent-Replayed"), Some("true"));
    assert_eq!(replay.body["number"], invoice["number"]);
    assert_eq!(replay.body["issuedOn"], json!("2026-03-02"));
    assert_eq!(replay.body["dueOn"], invoice["dueOn"]);
    assert_eq!(replay.body["state"], json!("ISSUED"));
}

#[test]
fn a_bill_bounds_its_supplier_like_the_api_bounds_a_customer() {
    let w = World::new();
    let c = w.client();
    let record = |supplier: &str, number: &str| {
        w.data.console(&[
            "purchase",
            "record",
            "--company",
            &w.company,
            "--supplier",
            supplier,
            "--document-number",
            number,
            "--date",
            "2026-05-02",
            "--due",
            "2026-05-16",
            "--currency",
            "EUR",
            "--net",
            "1000",
            "--tax",
            "190",
        ])
    };
    let long_name = "M".repeat(201);
    let (ok, _, err) = record(&long_name, "B-1");
    assert!(
        !ok && err.contains("--supplier is longer than 200 characters"),
        "{err}"
    );
    let (ok, _, err) = record("Meier", &"9".repeat(101));
    assert!(
        !ok && err.contains("--document-number is longer than 100 characters"),
        "{err}"
    );
    // Nothing of the refusals stays: no partner, no bill.
    assert_eq!(c.get(&w.live, "/v1/customers").body["total"], json!(0));
    let (ok, _, err) = record(&"M".repeat(200), "B-1");
    assert!(ok, "{err}");
    let partners = c.get(&w.live, "/v1/customers").body;
    assert_eq!(partners["total"], json!(1));
    assert_eq!(partners["data"][0]["number"], json!("K10001"));
}

#[test]
fn an_as_of_day_is_a_date_or_empty() {
    let w = World::new();
    let c = w.client();
    assert_eq!(c.get(&w.live, "/v1/reports/outstanding?asOf=").status, 200);
    for bad in ["%09", "%0D", "%202026-01-01", "2026-1-1", "heute"] {
        c.get(&w.live, &format!("/v1/reports/outstanding?asOf={bad}"))
            .refused(400, "ANFRAGE");
        for filter in ["from", "to"] {
            for list in ["invoices", "transactions"] {
                c.get(&w.live, &format!("/v1/{list}?{filter}={bad}"))
                    .refused(400, "ANFRAGE");
            }
        }
        c.get(&w.live, &format!("/v1/transactions?period={bad}"))
            .refused(400, "ANFRAGE");
    }
    assert_eq!(c.get(&w.live, "/v1/invoices?from=&to=").status, 200);
    assert_eq!(
        c.get(&w.live, "/v1/transactions?from=&to=&period=").status,
        200
    );
}
