//! The Invoices screen over HTTP, as a browser uses it: the list with its
//! status filter and search, one invoice with its payments, documents and
//! history, a payment typed in the person's notation landing where the API
//! and the console read it (with the same events), a refused payment that
//! keeps what was typed, a cancellation that names the credit note's number
//! first and then takes it, the PDF served as the API serves it, a viewer
//! refused every act, and another company's invoice not found.

use std::collections::BTreeSet;

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::support::screens::{invoice, people_audit, Office, ENGLISH, GERMAN};

/// The screens' address of an invoice (or of `rest` below it).
fn at(number: &str, rest: &str) -> String {
    format!("/invoices/{}{rest}", number.replace('/', "%2F"))
}

/// The invoice as the API reads it.
fn api_invoice(office: &Office, number: &str) -> Value {
    let a = office.api().get(
        &office.key_a,
        &format!("/v1/invoices/{}", number.replace('/', "%2F")),
    );
    assert_eq!(a.status, 200, "{:?}", a.body);
    a.body
}

fn money(minor: i64) -> Value {
    json!({"minor": minor, "currency": "EUR"})
}

/// The events raised about `subjects`, as (kind, body).
fn events(office: &Office, subjects: &[&str]) -> Vec<(String, Value)> {
    let db = office.db();
    let mut stmt = db
        .prepare("SELECT kind, subject, body FROM events ORDER BY seq")
        .unwrap();
    stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
        ))
    })
    .unwrap()
    .map(Result::unwrap)
    .filter(|(_, subject, body)| {
        let body: Value = serde_json::from_str(body).unwrap();
        subjects
            .iter()
            .any(|s| subject == s || body["targetId"] == json!(s) || body["invoiceId"] == json!(s))
    })
    .map(|(kind, _, body)| (kind, serde_json::from_str(&body).unwrap()))
    .collect()
}

/// The text beside field `name` of a refused form.
fn beside(body: &str, name: &str) -> String {
    let marker = format!("id=\"field-{name}-error\">");
    let at = body
        .find(&marker)
        .unwrap_or_else(|| panic!("nothing beside {name} in {body}"));
    let rest = &body[at + marker.len()..];
    rest[..rest.find("</p>").unwrap()].to_string()
}

/// The value field `name` shows.
fn shown(body: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let at = body
        .find(&marker)
        .unwrap_or_else(|| panic!("no field {name} in {body}"));
    let rest = &body[at + marker.len()..];
    rest[..rest.find('"').unwrap()].to_string()
}

#[test]
fn the_list_filters_by_status_searches_number_and_customer_and_is_paged() {
    let office = Office::new();
    let first = invoice(&office, &office.a, "Säumig GmbH", 100_000, "2026-01-05");
    let second = invoice(&office, &office.a, "Pünktlich AG", 50_000, "2026-01-06");
    let third = invoice(&office, &office.a, "Zahlt_Bar KG", 20_000, "2026-11-20");
    office.data.ok(&[
        "payment",
        "record",
        "--company",
        &office.a,
        "--invoice",
        &second,
        "--amount",
        "59500",
        "--on",
        "2026-01-20",
    ]);
    invoice(&office, &office.b, "Beta Kunde", 10_000, "2026-01-05");
    let mut viewer = office.signed_in("viewer@alpha.de");
    let page = viewer.get("/invoices");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<title>Invoices · kontor</title>"));
    assert!(page
        .body
        .contains("href=\"/invoices\" aria-current=\"page\""));
    for n in [&first, &second, &third] {
        assert!(page.body.contains(&format!(">{n}</a>")), "{n}");
    }
    assert!(!page.body.contains("Beta Kunde"));
    // Newest first; amounts and dates in the person's notation; overdue marked.
    assert!(
        page.body.contains(&format!(
        "<td><a href=\"/invoices/{first}\">{first}</a></td><td>Säumig GmbH</td><td>5 Jan 2026</td>\
         <td>19 Jan 2026</td><td class=\"amount\">€1,190.00</td><td class=\"amount\">€1,190.00</td>\
         <td><strong class=\"overdue\">overdue</strong></td>"
    )),
        "{}",
        page.body
    );
    assert!(page.body.find(&third).unwrap() < page.body.find(&first).unwrap());

    let paid = viewer.get("/invoices?status=PAID");
    assert!(paid.body.contains(&format!(">{second}</a>")));
    assert!(
        !paid.body.contains(&format!(">{first}</a>"))
            && !paid.body.contains(&format!(">{third}</a>"))
    );
    // One invoice is counted as one, in either language.
    assert!(
        paid.body.contains("Page 1 of 1 (1 invoice)</span>"),
        "{}",
        paid.body
    );
    viewer.language = "de-DE,de;q=0.9";
    let german = viewer.get("/invoices?status=PAID");
    viewer.language = "en-GB,en;q=0.9";
    assert!(
        german.body.contains("Seite 1 von 1 (1 Rechnung)</span>"),
        "{}",
        german.body
    );
    let all = viewer.get("/invoices");
    assert!(
        all.body.contains("Page 1 of 1 (3 invoices)</span>"),
        "{}",
        all.body
    );
    let open = viewer.get("/invoices?status=OPEN");
    assert!(
        open.body.contains(&format!(">{first}</a>"))
            && open.body.contains(&format!(">{third}</a>"))
    );
    assert!(!open.body.contains(&format!(">{second}</a>")));

    // Search: part of the customer's name, any case; part of the number; `_` is no wildcard.
    let found = viewer.get("/invoices?search=s%C3%A4umig");
    assert!(
        found.body.contains(&format!(">{first}</a>")),
        "{}",
        found.body
    );
    let found = viewer.get("/invoices?search=umig+gm");
    assert!(
        found.body.contains(&format!(">{first}</a>")),
        "{}",
        found.body
    );
    assert!(found.body.contains("(1 invoice)"));
    let found = viewer.get(&format!("/invoices?search={}", &third[third.len() - 3..]));
    assert!(
        found.body.contains(&format!(">{third}</a>")),
        "{}",
        found.body
    );
    assert!(!found.body.contains(&format!(">{first}</a>")));
    let found = viewer.get("/invoices?search=t_B");
    assert!(found.body.contains(&format!(">{third}</a>")) && found.body.contains("(1 invoice)"));
    let found = viewer.get("/invoices?search=h_A");
    assert!(found.body.contains("No invoice found."), "{}", found.body);
    // Search and status together, and the search kept in the status links.
    let found = viewer.get("/invoices?status=OPEN&search=AG");
    assert!(found.body.contains("No invoice found."));
    assert!(found
        .body
        .contains("href=\"/invoices?page=0&amp;status=PAID&amp;search=AG\""));
    let found = viewer.get("/invoices?search=Beta");
    assert!(found.body.contains("No invoice found."));
    // A search the books refuse is said beside the field.
    let refused = viewer.get("/invoices?search=a%01b");
    assert_eq!(refused.status, 400);
    assert!(
        beside(&refused.body, "search").contains("control character"),
        "{}",
        refused.body
    );

    // Paged.
    let page = viewer.get("/invoices?size=2");
    assert!(
        page.body.contains("Page 1 of 2 (3 invoices)"),
        "{}",
        page.body
    );
    assert!(page
        .body
        .contains("href=\"/invoices?page=1&amp;size=2\" rel=\"next\""));
    let page = viewer.get("/invoices?size=2&page=1");
    assert!(page.body.contains(&format!(">{first}</a>")));
    assert!(!page.body.contains(&format!(">{third}</a>")));

    // German.
    viewer.language = "de";
    let page = viewer.get("/invoices");
    assert!(page.body.contains("<title>Rechnungen · kontor</title>"));
    assert!(page.body.contains(
        "<td>05.01.2026</td><td>19.01.2026</td><td class=\"amount\">1.190,00\u{a0}€</td>"
    ));
    assert!(page.body.contains("überfällig"));
}

#[test]
fn the_detail_shows_lines_taxes_payments_documents_and_who_did_what() {
    let office = Office::new();
    let number = invoice(&office, &office.a, "Kunde GmbH", 100_000, "2026-11-02");
    let mut accountant = office.signed_in("accountant@alpha.de");
    let page = accountant.get(&at(&number, ""));
    assert_eq!(page.status, 200);
    assert!(page
        .body
        .contains(&format!("<title>Invoice {number} · kontor</title>")));
    assert!(
        page.body.contains("Hauptstraße 1, 10115 Berlin, DE"),
        "{}",
        page.body
    );
    assert!(page.body.contains("<td>Arbeit</td><td class=\"amount\">1</td><td class=\"amount\">€1,000.00</td><td class=\"amount\">€1,000.00</td>"), "{}", page.body);
    assert!(page.body.contains("<td class=\"amount\">19%</td><td class=\"amount\">€1,000.00</td><td class=\"amount\">€190.00</td>"), "{}", page.body);
    assert!(page.body.contains("<dd id=\"outstanding\">€1,190.00</dd>"));
    assert!(page.body.contains("16 Nov 2026"), "due 14 days after issue");
    assert!(page.body.contains("No payment is recorded."));
    assert!(
        page.body.contains(&format!(
            "href=\"/invoices/{number}/document?format=facturx\" download"
        )),
        "{}",
        page.body
    );
    assert!(page
        .body
        .contains(&format!("href=\"/invoices/{number}/document?format=cii\"")));
    // Issued from the console: the history names the system, once (the
    // draft's issue and the invoice's are one act).
    assert_eq!(
        page.body.matches(" · system · issued</li>").count(),
        1,
        "{}",
        page.body
    );

    accountant
        .act(
            &at(&number, ""),
            &at(&number, "/pay"),
            &[
                ("amount", "190.00"),
                ("on", "2026-11-20"),
                ("method", "cash"),
                ("reference", "Kasse 7"),
            ],
        )
        .redirects_to(&at(&number, "?done=paid"));
    let mut owner = office.signed_in("owner@alpha.de");
    owner
        .act(
            &at(&number, ""),
            &at(&number, "/pay"),
            &[
                ("amount", "1,000"),
                ("on", "2026-11-21"),
                ("method", "bank"),
                ("reference", ""),
            ],
        )
        .redirects_to(&at(&number, "?done=paid"));
    let page = owner.get(&at(&number, ""));
    assert!(
        page.body.contains(
            "<td>20 Nov 2026</td><td class=\"amount\">€190.00</td><td>cash</td><td>Kasse 7</td>"
        ),
        "{}",
        page.body
    );
    assert!(page.body.contains(
        "<td>21 Nov 2026</td><td class=\"amount\">€1,000.00</td><td>bank transfer</td><td></td>"
    ));
    assert!(page.body.contains("<dd>paid</dd>") && page.body.contains("Paid in full on"));
    assert!(
        !page.body.contains("name=\"amount\""),
        "no payment form once paid"
    );
    let history: Vec<&str> = page
        .body
        .split("<li>")
        .filter(|item| item.contains(" · payment recorded"))
        .collect();
    assert_eq!(history.len(), 2, "{}", page.body);
    assert!(
        history[0].contains("· <span title=\"accountant@alpha.de\">accountant</span> ·"),
        "{history:?}"
    );
    assert!(
        history[1].contains("· <span title=\"owner@alpha.de\">owner</span> ·"),
        "{history:?}"
    );
    assert_eq!(
        people_audit(&office, &office.a),
        [
            ("accountant@alpha.de".into(), "payment.recorded".into()),
            ("owner@alpha.de".into(), "payment.recorded".into())
        ]
    );
}

#[test]
fn payments_typed_in_german_and_english_settle_the_invoice_as_the_console_does() {
    let office = Office::new();
    let number = invoice(&office, &office.a, "Kunde GmbH", 1_000_000, "2026-11-02");
    let twin = invoice(&office, &office.a, "Kunde GmbH", 1_000_000, "2026-11-02");
    let mut accountant = office.signed_in("accountant@alpha.de");
    accountant.language = "de";
    let page = accountant.get(&at(&number, ""));
    assert!(page
        .body
        .contains("<dd id=\"outstanding\">11.900,00\u{a0}€</dd>"));
    assert!(
        page.body.contains("<td class=\"amount\">19\u{a0}%</td>"),
        "{}",
        page.body
    );
    assert!(page.body.contains(
        "<td>Arbeit</td><td class=\"amount\">1</td><td class=\"amount\">10.000,00\u{a0}€</td>"
    ));
    accountant
        .act(
            &at(&number, ""),
            &at(&number, "/pay"),
            &[
                ("amount", "1.234,56"),
                ("on", "2026-11-10"),
                ("method", "bank"),
                ("reference", "Teil 1"),
            ],
        )
        .redirects_to(&at(&number, "?done=paid"));
    let page = accountant.get(&at(&number, "?done=paid"));
    assert!(page.body.contains("Die Zahlung ist erfasst."));
    assert!(
        page.body
            .contains("<dd id=\"outstanding\">10.665,44\u{a0}€</dd>"),
        "{}",
        page.body
    );
    let read = api_invoice(&office, &number);
    assert_eq!(read["outstanding"], money(1_066_544));
    assert_eq!(read["paymentState"], "OVERDUE");

    accountant.language = "en-GB";
    accountant
        .act(
            &at(&number, ""),
            &at(&number, "/pay"),
            &[
                ("amount", "10,665.44"),
                ("on", "2026-11-12"),
                ("method", "card"),
                ("reference", ""),
            ],
        )
        .redirects_to(&at(&number, "?done=paid"));
    let read = api_invoice(&office, &number);
    assert_eq!(read["outstanding"], money(0));
    assert_eq!(read["paymentState"], "PAID");
    assert_eq!(read["paidOn"], "2026-11-12");
    let page = accountant.get(&at(&number, ""));
    assert!(page.body.contains("<dd>paid</dd>"));
    assert!(page.body.contains("€1,234.56") && page.body.contains("€10,665.44"));
    let listed = accountant.get("/invoices?status=PAID");
    assert!(listed.body.contains(&format!(">{number}</a>")));

    // The console pays the twin the same way: the same events, in the same order, with the same fields.
    for (amount, on) in [("123456", "2026-11-10"), ("1066544", "2026-11-12")] {
        office.data.ok(&[
            "payment",
            "record",
            "--company",
            &office.a,
            "--invoice",
            &twin,
            "--amount",
            amount,
            "--on",
            on,
        ]);
    }
    let (screen_id, console_id) = (
        api_invoice(&office, &number)["id"]
            .as_str()
            .unwrap()
            .to_string(),
        api_invoice(&office, &twin)["id"]
            .as_str()
            .unwrap()
            .to_string(),
    );
    let screens = events(&office, &[&screen_id]);
    let console = events(&office, &[&console_id]);
    let kinds = |e: &[(String, Value)]| e.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>();
    assert_eq!(
        kinds(&screens),
        [
            "invoice.issued",
            "payment.recorded",
            "payment.recorded",
            "invoice.paid"
        ]
    );
    assert_eq!(kinds(&screens), kinds(&console));
    for ((_, s), (_, c)) in screens.iter().zip(&console) {
        let keys = |v: &Value| {
            v.as_object()
                .unwrap()
                .keys()
                .cloned()
                .collect::<BTreeSet<_>>()
        };
        assert_eq!(keys(s), keys(c));
        for field in [
            "amountMinor",
            "paymentState",
            "amountDueMinor",
            "paidOn",
            "direction",
        ] {
            assert_eq!(s.get(field), c.get(field), "{field}");
        }
    }
    assert_eq!(screens[1].1["amountMinor"], "123456");
    assert_eq!(screens[2].1["method"], "card");
}

#[test]
fn a_refused_payment_keeps_what_was_typed_and_says_why_beside_the_field() {
    let office = Office::new();
    let number = invoice(&office, &office.a, "Kunde GmbH", 100_000, "2026-11-02");
    let mut accountant = office.signed_in("accountant@alpha.de");
    let pay = |browser: &mut crate::support::screens::Browser, amount: &str, on: &str| {
        browser.act(
            &at(&number, ""),
            &at(&number, "/pay"),
            &[
                ("amount", amount),
                ("on", on),
                ("method", "cash"),
                ("reference", "Beleg 4711"),
            ],
        )
    };
    // More than is outstanding, the amounts in the page's notation.
    let page = pay(&mut accountant, "1,190.01", "2026-11-10");
    assert_eq!(page.status, 409, "{}", page.body);
    assert!(
        beside(&page.body, "amount").contains("is €1,190.01, more than the €1,190.00 outstanding"),
        "{}",
        page.body
    );
    assert_eq!(shown(&page.body, "amount"), "1,190.01");
    assert_eq!(shown(&page.body, "on"), "2026-11-10");
    assert_eq!(shown(&page.body, "reference"), "Beleg 4711");
    assert!(page.body.contains("<option value=\"cash\" selected>"));
    assert!(page.body.contains("aria-invalid=\"true\""));
    // Before the invoice's date.
    let page = pay(&mut accountant, "100.00", "2026-11-01");
    assert_eq!(page.status, 409);
    assert!(
        beside(&page.body, "on").contains("cannot precede"),
        "{}",
        page.body
    );
    assert_eq!(shown(&page.body, "amount"), "100.00");
    // The German notation on an English page.
    let page = pay(&mut accountant, "100,50", "2026-11-10");
    assert_eq!(page.status, 400);
    assert!(
        beside(&page.body, "amount").contains("cannot be read"),
        "{}",
        page.body
    );
    assert_eq!(shown(&page.body, "amount"), "100,50");
    // In German, the same refusals in German, amounts and days in its notation.
    accountant.language = GERMAN;
    let page = pay(&mut accountant, "1.190,01", "2026-11-10");
    assert_eq!(page.status, 409, "{}", page.body);
    assert!(
        beside(&page.body, "amount")
            .contains("ist 1.190,01\u{a0}€, mehr als die 1.190,00\u{a0}€, die auf")
            && beside(&page.body, "amount").contains("offen sind; Überzahlungen werden abgelehnt"),
        "{}",
        page.body
    );
    let page = pay(&mut accountant, "100,00", "2026-11-01");
    assert!(
        beside(&page.body, "on").contains("ist der 01.11.2026: Eine Zahlung kann nicht vor"),
        "{}",
        page.body
    );
    accountant.language = ENGLISH;
    // Minor units are not what a person types: a missing amount and a bad date together.
    let page = pay(&mut accountant, "", "10.11.2026");
    assert_eq!(page.status, 400);
    assert!(beside(&page.body, "amount").contains("is missing"));
    assert!(!beside(&page.body, "on").is_empty());
    assert_eq!(shown(&page.body, "on"), "10.11.2026");
    // Nothing changed.
    assert_eq!(office.count("SELECT count(*) FROM payments"), 0);
    assert_eq!(
        office.count("SELECT count(*) FROM audit WHERE user_id IS NOT NULL"),
        0
    );
    assert_eq!(api_invoice(&office, &number)["outstanding"], money(119_000));
}

#[test]
fn cancelling_names_the_next_credit_note_first_and_then_takes_it() {
    let office = Office::new();
    let number = invoice(&office, &office.a, "Falsch GmbH", 24_500, "2026-11-02");
    let paid = invoice(&office, &office.a, "Richtig GmbH", 10_000, "2026-11-02");
    office.data.ok(&[
        "payment",
        "record",
        "--company",
        &office.a,
        "--invoice",
        &paid,
        "--amount",
        "100",
        "--on",
        "2026-11-03",
    ]);
    let mut accountant = office.signed_in("accountant@alpha.de");
    let detail = accountant.get(&at(&number, ""));
    assert!(detail
        .body
        .contains(&format!("href=\"/invoices/{number}/cancel\"")));
    let confirm = accountant.get(&at(&number, "/cancel"));
    assert_eq!(confirm.status, 200);
    assert!(confirm
        .body
        .contains(&format!("<title>Cancel {number}? · kontor</title>")));
    assert!(confirm.body.contains("This cannot be undone."));
    // Two invoices are issued this year: the credit note takes the third number of the series.
    let next = format!("{}3", &number[..number.len() - 1]);
    assert!(
        confirm
            .body
            .contains(&format!("<strong id=\"next-number\">{next}</strong>")),
        "{}",
        confirm.body
    );
    assert!(confirm.body.contains("€291.55"));

    // No reason: refused beside the field, nothing taken.
    let refused = accountant.act(
        &at(&number, "/cancel"),
        &at(&number, "/cancel"),
        &[("reason", "  ")],
    );
    assert_eq!(refused.status, 400);
    assert!(beside(&refused.body, "reason").contains("is missing"));
    assert_eq!(api_invoice(&office, &number)["paymentState"], "OVERDUE");

    let done = accountant.act(
        &at(&number, "/cancel"),
        &at(&number, "/cancel"),
        &[("reason", "Falscher Empfänger")],
    );
    done.redirects_to(&at(&next, "?done=cancelled"));
    let page = accountant.get(&at(&next, "?done=cancelled"));
    assert_eq!(page.status, 200);
    assert!(
        page.body.contains(&format!(
            "{number} is cancelled; this credit note {next} reverses it."
        )),
        "{}",
        page.body
    );
    assert!(page
        .body
        .contains(&format!("<title>Credit note {next} · kontor</title>")));
    assert!(page.body.contains("Falscher Empfänger"));
    assert!(page.body.contains("-€291.55"));
    assert!(
        page.body.contains(&format!(
            "href=\"/invoices/{next}/document?format=facturx\""
        )),
        "{}",
        page.body
    );
    let original = api_invoice(&office, &number);
    assert_eq!(original["paymentState"], "CANCELLED");
    assert_eq!(original["cancelledBy"], json!(next));
    assert_eq!(api_invoice(&office, &next)["corrects"], json!(number));
    let detail = accountant.get(&at(&number, ""));
    assert!(detail
        .body
        .contains(&format!("<a href=\"/invoices/{next}\">{next}</a>")));
    assert!(
        detail
            .body
            .contains("· <span title=\"accountant@alpha.de\">accountant</span> · cancelled"),
        "{}",
        detail.body
    );
    assert!(!detail.body.contains("/cancel\""), "no second cancellation");
    accountant
        .get(&at(&number, "/cancel"))
        .redirects_to(&at(&number, ""));
    let id = original["id"].as_str().unwrap();
    let raised: Vec<String> = events(&office, &[id]).into_iter().map(|(k, _)| k).collect();
    assert_eq!(raised, ["invoice.issued", "invoice.cancelled"]);

    // An invoice with a payment: the books refuse, the reason stays, nothing is taken.
    let page = accountant.act(
        &at(&paid, "/cancel"),
        &at(&paid, "/cancel"),
        &[("reason", "Doch nicht")],
    );
    assert_eq!(page.status, 409);
    assert!(
        page.body
            .contains("an invoice with payments cannot be cancelled in full"),
        "{}",
        page.body
    );
    assert_eq!(shown(&page.body, "reason"), "Doch nicht");
    let after = format!("{}4", &number[..number.len() - 1]);
    assert!(page
        .body
        .contains(&format!("<strong id=\"next-number\">{after}</strong>")));
    assert_eq!(api_invoice(&office, &paid)["paymentState"], "OVERDUE");
    assert_eq!(
        people_audit(&office, &office.a),
        [
            ("accountant@alpha.de".into(), "invoice.cancelled".into()),
            ("accountant@alpha.de".into(), "correction.issued".into())
        ]
    );
}

#[test]
fn the_pdf_downloads_as_the_api_serves_it() {
    let office = Office::new();
    let number = invoice(&office, &office.a, "Kunde GmbH", 100_000, "2026-11-02");
    let mut viewer = office.signed_in("viewer@alpha.de");
    let pdf = viewer.get(&at(&number, "/document?format=facturx"));
    assert_eq!(pdf.status, 200);
    assert_eq!(pdf.header("content-type"), Some("application/pdf"));
    assert_eq!(
        pdf.header("content-disposition"),
        Some(format!("attachment; filename=\"{number}.pdf\"").as_str())
    );
    assert!(pdf.raw.starts_with(b"%PDF-"));
    let api = office.api().get(
        &office.key_a,
        &format!("/v1/invoices/{number}/document?format=facturx"),
    );
    assert_eq!(api.status, 200);
    assert_eq!(Sha256::digest(&pdf.raw), Sha256::digest(&api.raw));
    assert_eq!(pdf.header("etag"), api.header("etag"));
    let cii = viewer.get(&at(&number, "/document?format=cii"));
    assert_eq!(cii.header("content-type"), Some("application/xml"));
    assert!(cii.body.contains("CrossIndustryInvoice"));
    // A format the invoice lacks, and a format that is none.
    let missing = viewer.get(&at(&number, "/document?format=peppol"));
    assert_eq!(missing.status, 409);
    assert!(
        missing.body.contains("it has facturx, cii"),
        "{}",
        missing.body
    );
    assert_eq!(viewer.get(&at(&number, "/document?format=pdf")).status, 400);
    assert_eq!(viewer.get(&at(&number, "/document")).status, 400);
}

#[test]
fn a_viewer_sees_invoices_and_is_refused_every_act() {
    let office = Office::new();
    let number = invoice(&office, &office.a, "Kunde GmbH", 100_000, "2026-11-02");
    let mut viewer = office.signed_in("viewer@alpha.de");
    let page = viewer.get(&at(&number, ""));
    assert_eq!(page.status, 200);
    assert!(page.body.contains("€1,190.00"));
    assert!(!page.body.contains("name=\"amount\""), "no payment form");
    assert!(!page.body.contains("/cancel\""), "no cancellation link");
    assert_eq!(viewer.get(&at(&number, "/cancel")).status, 403);
    let refused = viewer.act(
        &at(&number, ""),
        &at(&number, "/pay"),
        &[
            ("amount", "100.00"),
            ("on", ""),
            ("method", "bank"),
            ("reference", ""),
        ],
    );
    assert_eq!(refused.status, 403);
    assert!(refused
        .body
        .contains("Your role in this company does not allow this; nothing was done."));
    let refused = viewer.act(
        &at(&number, ""),
        &at(&number, "/cancel"),
        &[("reason", "Weg damit")],
    );
    assert_eq!(refused.status, 403);
    assert_eq!(office.count("SELECT count(*) FROM payments"), 0);
    assert_eq!(office.count("SELECT count(*) FROM invoices"), 1);
    assert_eq!(
        office.count("SELECT count(*) FROM audit WHERE user_id IS NOT NULL"),
        0
    );
    assert_eq!(api_invoice(&office, &number)["paymentState"], "OVERDUE");
}

#[test]
fn another_companys_invoice_and_its_documents_are_not_found() {
    let office = Office::new();
    let own = invoice(&office, &office.a, "Alpha Kunde", 10_000, "2026-11-02");
    let shared = invoice(&office, &office.b, "Beta Kunde", 10_000, "2026-11-02");
    let theirs = invoice(&office, &office.b, "Beta Zweit", 20_000, "2026-11-02");
    assert_eq!(own, shared, "each company numbers its own invoices");
    let mut alpha = office.signed_in("owner@alpha.de");
    let page = alpha.get(&at(&theirs, ""));
    assert_eq!(page.status, 404);
    assert!(!page.body.contains("Beta Zweit"));
    assert_eq!(
        alpha.get(&at(&theirs, "/document?format=facturx")).status,
        404
    );
    assert_eq!(alpha.get(&at(&theirs, "/cancel")).status, 404);
    let token = alpha.get("/invoices").csrf();
    let page = alpha.post(
        &at(&theirs, "/pay"),
        &[("csrf", &token), ("amount", "10.00"), ("method", "bank")],
    );
    assert_eq!(page.status, 404);
    let page = alpha.post(
        &at(&theirs, "/cancel"),
        &[("csrf", &token), ("reason", "Übernahme")],
    );
    assert_eq!(page.status, 404);
    // The same number names the company's own invoice.
    let page = alpha.get(&at(&own, ""));
    assert!(page.body.contains("Alpha Kunde") && !page.body.contains("Beta Kunde"));
    let own_pdf = alpha.get(&at(&own, "/document?format=facturx"));
    let key_b = office.data.key(&office.b, "production", "all");
    let their_pdf = office.api().get(
        &key_b,
        &format!("/v1/invoices/{shared}/document?format=facturx"),
    );
    assert_ne!(Sha256::digest(&own_pdf.raw), Sha256::digest(&their_pdf.raw));
    assert!(!alpha
        .get("/invoices?search=Beta")
        .body
        .contains("Beta Kunde"));
    assert_eq!(office.count("SELECT count(*) FROM payments"), 0);
    assert_eq!(
        office.count("SELECT count(*) FROM invoices WHERE cancelled_by_id IS NOT NULL"),
        0
    );
}
