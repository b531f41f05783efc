//! The screens that act on the books and the developer settings, over HTTP
//! as a browser uses them: each act works and lands where the API and the
//! console read it (its ledger entry, its event, its audit row), a viewer is
//! refused it, another company's record is not found by its address, and a
//! refused form keeps what was typed.

use serde_json::Value;

use crate::support::receiver::Receiver;
use crate::support::screens::{Browser, Office};

/// The audit rows of company `company` written on the screens (not the
/// console's, which name the system), as (actor, act).
fn audit(office: &Office, company: &str) -> Vec<(String, String)> {
    office
        .db()
        .prepare(
            "SELECT actor, act FROM audit WHERE company_id = ?1 AND user_id IS NOT NULL ORDER BY seq",
        )
        .unwrap()
        .query_map([company], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// The value of the read-only field `id` on a page.
fn shown_value(body: &str, id: &str) -> String {
    let at = body
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no {id} in {body}"));
    let rest = &body[at..];
    let v = rest.find("value=\"").unwrap() + "value=\"".len();
    rest[v..v + rest[v..].find('"').unwrap()].to_string()
}

/// Makes a key on the Developers screen; returns the answer's page.
fn make_key(browser: &mut Browser, name: &str, scopes: &[&str], environment: &str) -> String {
    let mut form = vec![("name", name), ("environment", environment)];
    form.extend(scopes.iter().map(|s| ("scopes", *s)));
    let page = browser.act("/developers", "/developers/keys", &form);
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("shown only this once"), "{}", page.body);
    shown_value(&page.body, "secret")
}

#[test]
fn a_key_made_in_developers_binds_to_the_company_viewed_and_is_revoked_there() {
    let office = Office::new();
    let mut owner = office.signed_in("owner@alpha.de");
    let page = owner.get("/developers");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<title>Developers · kontor</title>"));
    assert!(
        page.body.contains("href=\"/developers\""),
        "linked for the owner"
    );

    let secret = make_key(&mut owner, "Shop", &["customers:read"], "test");
    assert!(secret.starts_with("svc_test_"), "{secret}");
    let me = office.api().get(&secret, "/v1/me");
    assert_eq!(me.status, 200, "{:?}", me.body);
    assert_eq!(me.body["organisationId"].as_str(), Some(office.a.as_str()));
    assert_eq!(me.body["environment"], "SANDBOX");
    assert_eq!(me.body["scopes"], serde_json::json!(["customers:read"]));
    // The secret is never shown again.
    let listed = owner.get("/developers");
    assert!(listed.body.contains("Shop"));
    assert!(!listed.body.contains(&secret));

    let id: String = office
        .db()
        .query_row("SELECT id FROM api_keys WHERE name = 'Shop'", [], |r| {
            r.get(0)
        })
        .unwrap();
    owner
        .act("/developers", &format!("/developers/keys/{id}/revoke"), &[])
        .redirects_to("/developers?done=revoked");
    assert_eq!(office.api().get(&secret, "/v1/me").status, 401);
    // When, in the company's time zone and the person's notation.
    let now = jiff::Zoned::now().with_time_zone(jiff::tz::TimeZone::get("Europe/Berlin").unwrap());
    let months = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let day = format!(
        "revoked {} {} {}, ",
        now.day(),
        months[now.month() as usize - 1],
        now.year()
    );
    let listed = owner.get("/developers").body;
    assert!(listed.contains(&day), "{day} not in {listed}");
    assert_eq!(
        audit(&office, &office.a),
        [
            ("owner@alpha.de".into(), "key.created".into()),
            ("owner@alpha.de".into(), "key.revoked".into())
        ]
    );

    // Another company's owner cannot revoke it by its address.
    let key_b = office.data.key(&office.b, "production", "all");
    let b_id: String = office
        .db()
        .query_row(
            "SELECT id FROM api_keys WHERE company_id = ?1",
            [&office.b],
            |r| r.get(0),
        )
        .unwrap();
    let refused = owner.act(
        "/developers",
        &format!("/developers/keys/{b_id}/revoke"),
        &[],
    );
    assert_eq!(refused.status, 404);
    assert_eq!(office.api().get(&key_b, "/v1/me").status, 200);
}

#[test]
fn only_the_owner_sees_developers_and_others_are_refused_every_act() {
    let office = Office::new();
    let keys_before = office.count("SELECT count(*) FROM api_keys");
    for email in ["viewer@alpha.de", "accountant@alpha.de"] {
        let mut person = office.signed_in(email);
        let dashboard = person.get("/dashboard");
        assert!(!dashboard.body.contains("href=\"/developers\""), "{email}");
        assert_eq!(person.get("/developers").status, 403, "{email}");
        let refused = person.act(
            "/dashboard",
            "/developers/keys",
            &[
                ("name", "Mine"),
                ("scopes", "customers:read"),
                ("environment", "live"),
            ],
        );
        assert_eq!(refused.status, 403, "{email}");
        assert!(refused.body.contains("nothing was done"));
        let refused = person.act(
            "/dashboard",
            "/developers/webhooks",
            &[("url", "https://example.com/hook"), ("events", "*")],
        );
        assert_eq!(refused.status, 403, "{email}");
    }
    assert_eq!(office.count("SELECT count(*) FROM api_keys"), keys_before);
    assert_eq!(office.count("SELECT count(*) FROM webhook_endpoints"), 0);
    assert_eq!(
        office.count("SELECT count(*) FROM audit WHERE user_id IS NOT NULL"),
        0
    );
}

#[test]
fn a_refused_key_form_keeps_what_was_typed() {
    let office = Office::new();
    let mut owner = office.signed_in("owner@alpha.de");
    let before = office.count("SELECT count(*) FROM api_keys");
    let page = owner.act(
        "/developers",
        "/developers/keys",
        &[
            ("name", ""),
            ("scopes", "invoices:read"),
            ("environment", "test"),
        ],
    );
    assert_eq!(page.status, 400, "{}", page.body);
    assert!(page.body.contains("is missing"), "{}", page.body);
    assert!(
        page.body.contains("value=\"invoices:read\" checked"),
        "the scope stays ticked: {}",
        page.body
    );
    assert!(page.body.contains("value=\"test\" selected"));
    let page = owner.act(
        "/developers",
        "/developers/webhooks",
        &[
            ("url", "ftp://example.com/x"),
            ("events", "invoice.paid"),
            ("description", "Buchhaltung"),
        ],
    );
    assert!(matches!(page.status, 400 | 422), "{}", page.status);
    assert!(
        page.body.contains("value=\"ftp://example.com/x\""),
        "{}",
        page.body
    );
    assert!(page.body.contains("value=\"invoice.paid\" checked"));
    assert!(page.body.contains("value=\"Buchhaltung\""));
    assert!(page.body.contains("field-url-error"), "beside the field");
    assert_eq!(office.count("SELECT count(*) FROM api_keys"), before);
    assert_eq!(office.count("SELECT count(*) FROM webhook_endpoints"), 0);
}

#[test]
fn a_webhook_registered_on_the_screens_receives_events_and_redelivers() {
    let office = Office::configured(|c| c.webhook_allow_loopback = true);
    let receiver = Receiver::start();
    let mut owner = office.signed_in("owner@alpha.de");
    let url = receiver.url("/hook");
    let page = owner.act(
        "/developers",
        "/developers/webhooks",
        &[
            ("url", &url),
            ("events", "*"),
            ("description", "Ledger sync"),
        ],
    );
    assert_eq!(page.status, 200, "{}", page.body);
    let secret = shown_value(&page.body, "secret");
    assert!(secret.starts_with("whsec_"));
    let id: String = office
        .db()
        .query_row("SELECT id FROM webhook_endpoints", [], |r| r.get(0))
        .unwrap();
    // The API sees the same endpoint, without its secret.
    let listed = office.api().get(&office.key_a, "/v1/webhooks");
    assert_eq!(listed.body["data"][0]["id"].as_str(), Some(id.as_str()));
    assert!(listed.body["data"][0].get("secret").is_none());

    crate::support::screens::invoice(&office, &office.a, "Kunde GmbH", 10_000, "2026-02-02");
    assert_eq!(
        office.server.deliver_due(jiff::Timestamp::now()).unwrap(),
        1
    );
    let got = receiver.received("/hook");
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].json()["event"], "invoice.issued");

    let log = owner.get(&format!("/developers/webhooks/{id}"));
    assert_eq!(log.status, 200);
    assert!(log.body.contains("invoice.issued"), "{}", log.body);
    assert!(log.body.contains("delivered"), "{}", log.body);
    let delivery: String = office
        .db()
        .query_row("SELECT id FROM deliveries", [], |r| r.get(0))
        .unwrap();
    owner
        .act(
            &format!("/developers/webhooks/{id}"),
            &format!("/developers/webhooks/{id}/deliveries/{delivery}/redeliver"),
            &[],
        )
        .redirects_to(&format!("/developers/webhooks/{id}?done=redelivered"));
    assert_eq!(
        office.server.deliver_due(jiff::Timestamp::now()).unwrap(),
        1
    );
    let got = receiver.received("/hook");
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].json()["id"], got[1].json()["id"], "the same event");

    // Another company sees none of it.
    let mut beta = office.signed_in("owner@beta.de");
    assert_eq!(beta.get(&format!("/developers/webhooks/{id}")).status, 404);
    let refused = beta.act(
        "/developers",
        &format!("/developers/webhooks/{id}/deliveries/{delivery}/redeliver"),
        &[],
    );
    assert_eq!(refused.status, 404);
    let refused = beta.act(
        "/developers",
        &format!("/developers/webhooks/{id}/disable"),
        &[],
    );
    assert_eq!(refused.status, 404);

    owner
        .act(
            &format!("/developers/webhooks/{id}"),
            &format!("/developers/webhooks/{id}/disable"),
            &[],
        )
        .redirects_to(&format!("/developers/webhooks/{id}?done=disabled"));
    let api: Value = office.api().get(&office.key_a, "/v1/webhooks").body;
    assert_eq!(api["data"][0]["enabled"], false);
    let acts: Vec<String> = audit(&office, &office.a)
        .into_iter()
        .map(|(_, a)| a)
        .collect();
    assert_eq!(
        acts,
        [
            "webhook.registered",
            "webhook.redelivered",
            "webhook.disabled"
        ]
    );
}

#[test]
fn closing_a_period_asks_first_then_closes_the_books_the_console_and_tools_read() {
    let office = Office::new();
    crate::support::screens::invoice(&office, &office.a, "Kunde GmbH", 123_456, "2026-01-05");
    let mut accountant = office.signed_in("accountant@alpha.de");
    let books = accountant.get("/books");
    assert_eq!(books.status, 200);
    assert!(books.body.contains("<title>Books · kontor</title>"));
    assert!(books.body.contains("No period is closed yet."));

    let period = "/books/profit-and-loss?from=2026-01-01&to=2026-01-31";
    let pl = accountant.get(period);
    assert_eq!(pl.status, 200, "{}", pl.body);
    assert!(pl.body.contains("Preliminary"), "{}", pl.body);
    assert!(pl.body.contains("€1,234.56"), "{}", pl.body);

    // First the confirmation, which changes nothing.
    let ask = accountant.act("/books", "/books/close", &[("through", "2026-01-31")]);
    assert_eq!(ask.status, 200, "{}", ask.body);
    assert!(ask.body.contains("31 Jan 2026"));
    assert!(ask.body.contains("cannot be undone"));
    assert!(
        ask.body
            .contains("Nothing: every bank line through that day is settled"),
        "{}",
        ask.body
    );
    assert_eq!(office.count("SELECT count(*) FROM books_closed"), 0);
    accountant
        .act(
            "/books",
            "/books/close",
            &[("through", "2026-01-31"), ("confirmed", "yes")],
        )
        .redirects_to("/books?closed=1");
    let books = accountant.get("/books?closed=1");
    assert!(books
        .body
        .contains("closed through <strong>31 Jan 2026</strong>"));

    // The agent tool and the console read the same closing.
    let key = office.data.key(&office.a, "production", "all");
    let tool = office.api().tool(
        &key,
        "get_profit_and_loss",
        serde_json::json!({"from": "2026-01-01", "to": "2026-01-31"}),
    );
    assert_eq!(tool["structuredContent"]["is_final"], true, "{tool}");
    let (ok, _, err) = office.data.console(&[
        "purchase",
        "record",
        "--company",
        &office.a,
        "--supplier",
        "Late GmbH",
        "--document-number",
        "L-1",
        "--date",
        "2026-01-20",
        "--due",
        "2026-02-20",
        "--currency",
        "EUR",
        "--net",
        "1000",
        "--tax",
        "190",
        "--posted",
        "2026-01-25",
    ]);
    assert!(!ok && err.contains("closed through 2026-01-31"), "{err}");
    // Without a posting date the late bill goes into February.
    let (ok, late, err) = office.data.console(&[
        "purchase",
        "record",
        "--company",
        &office.a,
        "--supplier",
        "Late GmbH",
        "--document-number",
        "L-1",
        "--date",
        "2026-01-20",
        "--due",
        "2026-02-20",
        "--currency",
        "EUR",
        "--net",
        "1000",
        "--tax",
        "190",
    ]);
    assert!(ok, "{err}");
    assert_eq!(late["postedOn"], "2026-02-01");
    let pl = accountant.get(period);
    assert!(pl.body.contains("Final"), "{}", pl.body);
    let sheet = accountant.get("/books/balance-sheet?asOf=2026-01-31");
    assert!(sheet.body.contains("Final"), "{}", sheet.body);
    assert!(sheet.body.contains("€1,469.13"), "{}", sheet.body);
    let tb = accountant.get("/books/trial-balance?asOf=2026-01-31");
    assert!(tb.body.contains("<title>Trial balance · kontor</title>"));
    assert!(tb.body.contains("€1,469.13"), "{}", tb.body);
    assert_eq!(
        audit(&office, &office.a),
        [("accountant@alpha.de".into(), "books.closed".into())]
    );

    // The other company's books are its own.
    let mut beta = office.signed_in("owner@beta.de");
    assert!(beta.get("/books").body.contains("No period is closed yet."));
    assert!(!beta.get(period).body.contains("€1,234.56"));
}

#[test]
fn a_viewer_reads_the_books_and_cannot_close_them() {
    let office = Office::new();
    let mut viewer = office.signed_in("viewer@alpha.de");
    let books = viewer.get("/books");
    assert_eq!(books.status, 200);
    assert!(!books.body.contains("action=\"/books/close\""));
    for form in [
        vec![("through", "2026-01-31")],
        vec![("through", "2026-01-31"), ("confirmed", "yes")],
    ] {
        let refused = viewer.act("/books", "/books/close", &form);
        assert_eq!(refused.status, 403);
    }
    assert_eq!(viewer.get("/books/balance-sheet").status, 200);
    assert_eq!(office.count("SELECT count(*) FROM books_closed"), 0);
    assert_eq!(
        office.count("SELECT count(*) FROM audit WHERE user_id IS NOT NULL"),
        0
    );
}

#[test]
fn a_refused_closing_keeps_the_day_typed_and_says_why_beside_it() {
    let office = Office::new();
    let mut owner = office.signed_in("owner@alpha.de");
    let page = owner.act("/books", "/books/close", &[("through", "31.01.2026")]);
    assert_eq!(page.status, 400, "{}", page.body);
    assert!(page.body.contains("value=\"31.01.2026\""));
    assert!(page.body.contains("id=\"field-through-error\""));
    assert!(page.body.contains("YYYY-MM-DD"));
    owner
        .act(
            "/books",
            "/books/close",
            &[("through", "2026-03-31"), ("confirmed", "yes")],
        )
        .redirects_to("/books?closed=1");
    let back = owner.act(
        "/books",
        "/books/close",
        &[("through", "2026-02-28"), ("confirmed", "yes")],
    );
    assert_eq!(back.status, 409, "{}", back.body);
    assert!(back.body.contains("value=\"2026-02-28\""));
    assert!(
        back.body.contains("closing cannot move back"),
        "{}",
        back.body
    );
    let through: String = office
        .db()
        .query_row("SELECT through FROM books_closed", [], |r| r.get(0))
        .unwrap();
    assert_eq!(through, "2026-03-31");
    let bad = owner.get("/books/profit-and-loss?from=2026-02-01&to=2026-01-01");
    assert_eq!(bad.status, 400);
    assert!(
        bad.body
            .contains("lies after the last day (1 Feb 2026 &gt; 1 Jan 2026)"),
        "{}",
        bad.body
    );
}

/// The form of a bill, as the console's flags name its fields (its fixed
/// date confirmed, for the day it lies more than a year back).
fn bill<'a>(number: &'a str, net: &'a str, tax: &'a str) -> Vec<(&'a str, &'a str)> {
    vec![
        ("supplierName", "Papier AG"),
        ("documentNumber", number),
        ("documentDate", "2026-03-02"),
        ("dueDate", "2026-03-16"),
        ("currency", "EUR"),
        ("net", net),
        ("tax", tax),
        ("confirmOld", "yes"),
    ]
}

fn trial_balance(office: &Office, company: &str) -> Value {
    office.data.ok(&[
        "books",
        "trial-balance",
        "--company",
        company,
        "--as-of",
        "2026-03-31",
    ])
}

fn account(tb: &Value, name: &str) -> (i64, i64) {
    crate::support::trial::ledger(tb, name).unwrap_or_else(|| panic!("no {name} in {tb}"))
}

#[test]
fn a_bill_recorded_and_paid_on_the_screens_posts_and_raises_as_the_console_does() {
    let office = Office::new();
    let mut accountant = office.signed_in("accountant@alpha.de");
    assert!(accountant
        .get("/bills")
        .body
        .contains("No bill is recorded yet."));
    let new = accountant.get("/bills/new");
    assert!(new.body.contains("<title>Record a bill · kontor</title>"));
    let page = accountant.act("/bills/new", "/bills", &bill("R-77", "1,234.56", "234.57"));
    let location = page.redirects_to_prefix("/bills/pur_");
    let id = location
        .trim_start_matches("/bills/")
        .split('?')
        .next()
        .unwrap()
        .to_string();
    let shown = accountant.get(&location);
    assert!(shown.body.contains("The bill is recorded."));
    assert!(shown.body.contains("€1,469.13"), "{}", shown.body);

    // The console's trial balance holds the bill's entry; the event is raised.
    let tb = trial_balance(&office, &office.a);
    assert_eq!(account(&tb, "payables"), (0, 146_913));
    assert_eq!(account(&tb, "expenses"), (123_456, 0));
    assert_eq!(account(&tb, "input_tax"), (23_457, 0));
    let kinds = |office: &Office| -> Vec<String> {
        office
            .db()
            .prepare("SELECT kind FROM events WHERE company_id = ?1 ORDER BY rowid")
            .unwrap()
            .query_map([&office.a], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    assert_eq!(kinds(&office), ["purchase.recorded"]);
    let payables = office
        .api()
        .tool(&office.key_a, "list_payables", serde_json::json!({}));
    assert!(payables.to_string().contains("R-77"), "{payables}");

    // A partial payment, typed as a person types it.
    accountant
        .act(
            &location,
            &format!("/bills/{id}/pay"),
            &[
                ("amount", "500.00"),
                ("on", "2026-03-10"),
                ("method", "bank"),
                ("reference", "R-77 part"),
            ],
        )
        .redirects_to(&format!("/bills/{id}?done=paid"));
    let paid = accountant.get(&format!("/bills/{id}?done=paid"));
    assert!(paid.body.contains("<dd>€969.13</dd>"), "{}", paid.body);
    let tb = trial_balance(&office, &office.a);
    assert_eq!(account(&tb, "bank"), (0, 50_000));
    assert_eq!(account(&tb, "payables"), (50_000, 146_913));
    assert_eq!(kinds(&office), ["purchase.recorded", "payment.recorded"]);

    // More than is outstanding is refused, the amount kept; nothing changes.
    let refused = accountant.act(
        &location,
        &format!("/bills/{id}/pay"),
        &[
            ("amount", "1,000.00"),
            ("on", "2026-03-11"),
            ("method", "cash"),
            ("reference", ""),
        ],
    );
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert!(refused.body.contains("value=\"1,000.00\""));
    assert!(refused.body.contains("<option value=\"cash\" selected>"));
    assert_eq!(kinds(&office).len(), 2);

    // The rest in German notation.
    accountant.language = "de-DE,de;q=0.9";
    accountant
        .act(
            &location,
            &format!("/bills/{id}/pay"),
            &[
                ("amount", "969,13"),
                ("on", "2026-03-12"),
                ("method", "bank"),
                ("reference", ""),
            ],
        )
        .redirects_to(&format!("/bills/{id}?done=paid"));
    let done = accountant.get(&format!("/bills/{id}"));
    assert!(
        done.body.contains("Vollständig bezahlt am"),
        "{}",
        done.body
    );
    assert!(
        !done.body.contains(&format!("action=\"/bills/{id}/pay\"")),
        "no payment form once paid"
    );
    // The receipt may still be attached.
    assert!(done
        .body
        .contains(&format!("action=\"/bills/{id}/receipt\"")));
    let list = accountant.get("/bills");
    assert!(list
        .body
        .contains("<title>Eingangsrechnungen · kontor</title>"));
    assert!(list.body.contains("1.469,13"), "{}", list.body);
    assert_eq!(
        audit(&office, &office.a),
        [
            ("accountant@alpha.de".into(), "bill.recorded".into()),
            ("accountant@alpha.de".into(), "bill.paid".into()),
            ("accountant@alpha.de".into(), "bill.paid".into())
        ]
    );

    // Another company does not find it by its address.
    let mut beta = office.signed_in("owner@beta.de");
    assert_eq!(beta.get(&format!("/bills/{id}")).status, 404);
    let refused = beta.act(
        "/bills",
        &format!("/bills/{id}/pay"),
        &[("amount", "1.00"), ("method", "bank")],
    );
    assert_eq!(refused.status, 404);
    assert!(!beta.get("/bills").body.contains("Papier AG"));
}

/// A bill split over expense accounts on the screen: each line on its
/// account (the trial balance by number says so), the bill's page lists
/// the lines with their accounts; a line on a revenue account is refused
/// beside that line, in the page's language, and nothing is recorded.
#[test]
fn a_bill_split_over_accounts_on_the_screen_lands_on_each_account() {
    let office = Office::new();
    let mut accountant = office.signed_in("accountant@alpha.de");
    accountant.language = "de-DE,de;q=0.9";
    let new = accountant.get("/bills/new");
    assert!(
        new.body
            .contains("4210 Miete (unbewegliche Wirtschaftsgüter)"),
        "{}",
        new.body
    );
    assert!(
        !new.body.contains("8400 Erlöse"),
        "no revenue account is offered"
    );
    let mut form = bill("R-9", "", "");
    form.extend([
        ("lines[0].account", "rent"),
        ("lines[0].net", "1.000,00"),
        ("lines[0].rate", "19"),
        ("lines[1].account", "revenue_19"),
        ("lines[1].net", "200,00"),
        ("lines[1].rate", "7"),
    ]);
    let refused = accountant.act("/bills/new", "/bills", &form);
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert!(
        refused.body.contains("Position 2") && refused.body.contains("Aufwandskonto"),
        "{}",
        refused.body
    );
    assert!(refused.body.contains("value=\"1.000,00\""));
    assert_eq!(office.count("SELECT count(*) FROM purchases"), 0);
    for field in form.iter_mut().filter(|f| f.0 == "lines[1].account") {
        field.1 = "office_supplies";
    }
    let page = accountant.act("/bills/new", "/bills", &form);
    let location = page.redirects_to_prefix("/bills/pur_");
    let shown = accountant.get(&location);
    assert!(
        shown.body.contains("Positionen und Konten"),
        "{}",
        shown.body
    );
    assert!(shown.body.contains("4210 Miete"), "{}", shown.body);
    assert!(shown.body.contains("4930 Bürobedarf"), "{}", shown.body);
    assert!(shown.body.contains("1.404,00"), "{}", shown.body);
    let tb = trial_balance(&office, &office.a);
    let row = |key: &str| {
        crate::support::trial::row(&tb, key)
            .map(|r| (r["number"].as_u64().unwrap(), r["debit"].as_i64().unwrap()))
    };
    assert_eq!(row("rent"), Some((4210, 100_000)));
    assert_eq!(row("office_supplies"), Some((4930, 20_000)));
    assert_eq!(row("input_tax_19"), Some((1576, 19_000)));
    assert_eq!(row("input_tax_7"), Some((1571, 1_400)));
    // In English, the same page names the accounts in English.
    accountant.language = "en";
    let english = accountant.get(&location);
    assert!(
        english.body.contains("4210 Rent of premises"),
        "{}",
        english.body
    );
}

#[test]
fn a_suppliers_credit_is_applied_to_its_bill_on_the_bills_page_as_the_console_applies_it() {
    let office = Office::new();
    let mut accountant = office.signed_in("accountant@alpha.de");
    let location = accountant
        .act("/bills/new", "/bills", &bill("R-5", "100.00", "19.00"))
        .redirects_to_prefix("/bills/pur_");
    let id = location
        .trim_start_matches("/bills/")
        .split('?')
        .next()
        .unwrap()
        .to_string();
    // No credit of this supplier yet: no form to apply one.
    assert!(!accountant.get(&location).body.contains("/credit\""));
    let credit = office.data.ok(&[
        "purchase",
        "record",
        "--company",
        &office.a,
        "--supplier",
        "Papier AG",
        "--document-number",
        "G-1",
        "--date",
        "2026-03-03",
        "--due",
        "2026-03-03",
        "--currency",
        "EUR",
        "--net",
        "5000",
        "--tax",
        "950",
        "--kind",
        "credit",
    ]);
    let credit_id = credit["id"].as_str().unwrap();
    let page = accountant.get(&location);
    assert!(
        page.body.contains("Apply a credit of this supplier"),
        "{}",
        page.body
    );
    assert!(
        page.body
            .contains(&format!("<option value=\"{credit_id}\"")),
        "{}",
        page.body
    );

    // Without a credit chosen: refused beside the choice, nothing applied.
    let refused = accountant.act(&location, &format!("/bills/{id}/credit"), &[("credit", "")]);
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert!(
        refused.body.contains("Credit: is missing"),
        "{}",
        refused.body
    );
    // More than the credit has: the books' refusal, beside the amount.
    let refused = accountant.act(
        &location,
        &format!("/bills/{id}/credit"),
        &[
            ("credit", credit_id),
            ("creditAmount", "60.00"),
            ("creditOn", "2026-03-04"),
        ],
    );
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert!(refused.body.contains("value=\"60.00\""), "{}", refused.body);
    assert_eq!(
        office
            .db()
            .query_row("SELECT count(*) FROM credit_applications", [], |r| r
                .get::<_, i64>(0))
            .unwrap(),
        0
    );

    // As much as both allow: the whole credit, 59.50 of the bill's 119.00.
    accountant
        .act(
            &location,
            &format!("/bills/{id}/credit"),
            &[
                ("credit", credit_id),
                ("creditAmount", ""),
                ("creditOn", "2026-03-04"),
            ],
        )
        .redirects_to(&format!("/bills/{id}?done=credited"));
    let done = accountant.get(&format!("/bills/{id}?done=credited"));
    assert!(
        done.body.contains("The credit is applied."),
        "{}",
        done.body
    );
    assert!(done.body.contains("<dd>€59.50</dd>"), "{}", done.body);
    // Used up: no credit to apply any more.
    assert!(!done.body.contains("Apply a credit of this supplier"));
    let tb = trial_balance(&office, &office.a);
    // The credit note and the application each debit 59.50; the bill and
    // the application credit 119.00 and 59.50: 59.50 left owed.
    assert_eq!(account(&tb, "payables"), (5_950 + 5_950, 11_900 + 5_950));
    assert_eq!(
        audit(&office, &office.a),
        [
            ("accountant@alpha.de".into(), "bill.recorded".into()),
            ("accountant@alpha.de".into(), "bill.credit_applied".into()),
        ]
    );
    // Another company's person does not reach it.
    let mut beta = office.signed_in("owner@beta.de");
    let refused = beta.act(
        "/bills",
        &format!("/bills/{id}/credit"),
        &[("credit", credit_id)],
    );
    assert_eq!(refused.status, 404);
}

#[test]
fn a_viewer_sees_bills_and_is_refused_recording_and_paying() {
    let office = Office::new();
    let mut accountant = office.signed_in("accountant@alpha.de");
    let location = accountant
        .act("/bills/new", "/bills", &bill("R-1", "100.00", "19.00"))
        .redirects_to_prefix("/bills/pur_");
    let id = location
        .trim_start_matches("/bills/")
        .split('?')
        .next()
        .unwrap()
        .to_string();
    let mut viewer = office.signed_in("viewer@alpha.de");
    let list = viewer.get("/bills");
    assert_eq!(list.status, 200);
    assert!(list.body.contains("Papier AG"));
    assert!(!list.body.contains("href=\"/bills/new\""));
    assert_eq!(viewer.get("/bills/new").status, 403);
    let page = viewer.get(&format!("/bills/{id}"));
    assert_eq!(page.status, 200);
    assert!(!page.body.contains("/pay\""));
    assert_eq!(
        viewer
            .act("/bills", "/bills", &bill("R-2", "1.00", "0.00"))
            .status,
        403
    );
    let refused = viewer.act(
        "/bills",
        &format!("/bills/{id}/pay"),
        &[("amount", "1.00"), ("method", "bank")],
    );
    assert_eq!(refused.status, 403);
    assert_eq!(office.count("SELECT count(*) FROM purchases"), 1);
    assert_eq!(office.count("SELECT count(*) FROM payments"), 0);
    assert_eq!(office.count("SELECT count(*) FROM events"), 1);
}

#[test]
fn a_refused_bill_keeps_what_was_typed_and_says_what_to_fix_beside_each_field() {
    let office = Office::new();
    let mut owner = office.signed_in("owner@alpha.de");
    let mut form = bill("R-9", "1.234,56", "12.00");
    form[3] = ("dueDate", "2026-03-01");
    form[0] = ("supplierName", "");
    let page = owner.act("/bills/new", "/bills", &form);
    assert_eq!(page.status, 400, "{}", page.body);
    assert!(page.body.contains("value=\"1.234,56\""), "{}", page.body);
    assert!(page.body.contains("value=\"2026-03-01\""));
    assert!(page.body.contains("value=\"R-9\""));
    assert!(
        page.body.contains("id=\"field-net-error\""),
        "{}",
        page.body
    );
    assert!(
        page.body.contains("id=\"field-supplierName-error\""),
        "{}",
        page.body
    );
    // Once every field reads, the books' rule about the dates speaks.
    let mut form = bill("R-9", "1,234.56", "12.00");
    form[3] = ("dueDate", "2026-03-01");
    let page = owner.act("/bills/new", "/bills", &form);
    assert_eq!(page.status, 409, "{}", page.body);
    assert!(
        page.body.contains("id=\"field-dueDate-error\""),
        "{}",
        page.body
    );
    assert!(page.body.contains("lies before the document date"));
    assert!(page.body.contains("value=\"1,234.56\""));
    let page = owner.act("/bills/new", "/bills", &bill("R-9", "10.00", "1.90"));
    page.redirects_to_prefix("/bills/pur_");
    let again = owner.act("/bills/new", "/bills", &bill("R-9", "10.00", "1.90"));
    assert_eq!(again.status, 409, "recorded before: {}", again.body);
    assert!(again.body.contains("is already recorded"));
    assert_eq!(office.count("SELECT count(*) FROM purchases"), 1);
}

/// A job of company A made through the API; returns its id.
fn job(office: &Office, title: &str) -> String {
    let made = office
        .api()
        .transaction(&office.key_a, serde_json::json!({"title": title}));
    made["id"].as_str().unwrap().to_string()
}

#[test]
fn jobs_are_listed_by_stage_moved_and_noted_as_the_api_reads_them() {
    let office = Office::new();
    let first = job(&office, "Website relaunch");
    job(&office, "Annual report");
    let mut accountant = office.signed_in("accountant@alpha.de");
    let list = accountant.get("/jobs");
    assert_eq!(list.status, 200);
    assert!(list.body.contains("<title>Jobs · kontor</title>"));
    // The stages every workflow starts with, by their names in the page's language.
    assert!(list.body.contains("New (2)"), "{}", list.body);
    assert!(list.body.contains("In progress (0)"));
    assert!(list.body.contains("<td>New</td>"), "{}", list.body);

    let page = format!("/jobs/{first}");
    accountant
        .act(
            &page,
            &format!("/jobs/{first}/stage"),
            &[("stage", "IN_ARBEIT")],
        )
        .redirects_to(&format!("/jobs/{first}?done=moved"));
    accountant
        .act(
            &page,
            &format!("/jobs/{first}/notes"),
            &[("text", "Called the customer.")],
        )
        .redirects_to(&format!("/jobs/{first}?done=noted"));
    let noted = accountant.get(&format!("/jobs/{first}?done=noted"));
    assert!(noted.body.contains("The note is added."), "{}", noted.body);
    assert!(!noted.body.contains("The stage is changed."));
    // The API reads the same stage and note.
    let api = office
        .api()
        .get(&office.key_a, &format!("/v1/transactions/{first}"));
    assert_eq!(api.body["stage"], "IN_ARBEIT", "{:?}", api.body);
    let tool = office.api().tool(
        &office.key_a,
        "get_transaction",
        serde_json::json!({"transaction_id": first}),
    );
    let note = &tool["structuredContent"]["notes"][0];
    assert_eq!(note["text"], "Called the customer.", "{tool}");
    assert_eq!(note["author"], "accountant");

    let in_work = accountant.get("/jobs?stage=IN_ARBEIT");
    assert!(in_work.body.contains("Website relaunch"));
    // The moved job's row names its stage as the person reads it, not its key.
    assert!(
        in_work.body.contains("<td>In progress</td>"),
        "{}",
        in_work.body
    );
    assert!(!in_work.body.contains("<td>IN_ARBEIT</td>"));
    assert!(accountant.get(&page).body.contains("<dd>In progress</dd>"));
    assert!(!in_work.body.contains("Annual report"));
    assert!(in_work.body.contains("In progress (1)"));
    accountant.language = crate::support::screens::GERMAN;
    assert!(accountant.get("/jobs").body.contains("In Arbeit (1)"));
    accountant.language = crate::support::screens::ENGLISH;
    let shown = accountant.get(&page);
    assert!(shown.body.contains("Called the customer."));
    assert_eq!(
        audit(&office, &office.a),
        [
            ("accountant@alpha.de".into(), "job.moved".into()),
            ("accountant@alpha.de".into(), "job.noted".into())
        ]
    );

    // Another company finds none of it.
    let mut beta = office.signed_in("owner@beta.de");
    assert_eq!(beta.get(&page).status, 404);
    assert_eq!(
        beta.act(
            "/jobs",
            &format!("/jobs/{first}/stage"),
            &[("stage", "ERLEDIGT")]
        )
        .status,
        404
    );
    assert_eq!(
        beta.act("/jobs", &format!("/jobs/{first}/notes"), &[("text", "x")])
            .status,
        404
    );
    assert!(!beta.get("/jobs").body.contains("Website relaunch"));
}

#[test]
fn a_viewer_reads_jobs_and_is_refused_moving_and_noting() {
    let office = Office::new();
    let id = job(&office, "Website relaunch");
    let mut viewer = office.signed_in("viewer@alpha.de");
    let page = viewer.get(&format!("/jobs/{id}"));
    assert_eq!(page.status, 200);
    assert!(!page.body.contains("/stage\""));
    assert_eq!(
        viewer
            .act(
                "/jobs",
                &format!("/jobs/{id}/stage"),
                &[("stage", "ERLEDIGT")]
            )
            .status,
        403
    );
    assert_eq!(
        viewer
            .act("/jobs", &format!("/jobs/{id}/notes"), &[("text", "x")])
            .status,
        403
    );
    let api = office
        .api()
        .get(&office.key_a, &format!("/v1/transactions/{id}"));
    assert_eq!(api.body["stage"], "NEU");
    assert_eq!(office.count("SELECT count(*) FROM transaction_notes"), 0);
    assert_eq!(
        office.count("SELECT count(*) FROM audit WHERE user_id IS NOT NULL"),
        0
    );
}

#[test]
fn a_refused_stage_or_note_keeps_what_was_typed() {
    let office = Office::new();
    let id = job(&office, "Website relaunch");
    let mut owner = office.signed_in("owner@alpha.de");
    let page = format!("/jobs/{id}");
    let refused = owner.act(
        &page,
        &format!("/jobs/{id}/stage"),
        &[("stage", "GIBT_ES_NICHT")],
    );
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert!(
        refused.body.contains("Nothing was saved"),
        "{}",
        refused.body
    );
    assert!(
        refused.body.contains("id=\"field-stage-error\""),
        "{}",
        refused.body
    );
    let long = "x".repeat(5001);
    let refused = owner.act(&page, &format!("/jobs/{id}/notes"), &[("text", &long)]);
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert!(refused.body.contains(&long), "the note typed stays");
    assert!(refused.body.contains("id=\"field-text-error\""));
    let empty = owner.act(&page, &format!("/jobs/{id}/notes"), &[("text", "  ")]);
    assert_eq!(empty.status, 400);
    assert!(empty.body.contains("is missing"));
    let api = office
        .api()
        .get(&office.key_a, &format!("/v1/transactions/{id}"));
    assert_eq!(api.body["stage"], "NEU");
    assert_eq!(office.count("SELECT count(*) FROM transaction_notes"), 0);
}

#[test]
fn the_bills_and_jobs_lists_are_paged() {
    let office = Office::new();
    let mut owner = office.signed_in("owner@alpha.de");
    for number in ["P-1", "P-2", "P-3"] {
        owner
            .act("/bills/new", "/bills", &bill(number, "10.00", "1.90"))
            .redirects_to_prefix("/bills/pur_");
        job(&office, &format!("Job {number}"));
    }
    let first = owner.get("/bills?size=2");
    assert!(
        first.body.contains("Page 1 of 2 (3 bills)"),
        "{}",
        first.body
    );
    assert!(first.body.contains("P-3") && first.body.contains("P-2"));
    assert!(!first.body.contains("P-1"));
    assert!(first.body.contains("href=\"/bills?page=1\" rel=\"next\""));
    let second = owner.get("/bills?page=1&size=2");
    assert!(second.body.contains("P-1") && !second.body.contains("P-3"));
    let jobs = owner.get("/jobs?stage=NEU&size=2");
    assert!(jobs.body.contains("Page 1 of 2 (3 jobs)"), "{}", jobs.body);
    assert!(
        jobs.body
            .contains("href=\"/jobs?page=1&amp;stage=NEU\" rel=\"next\""),
        "{}",
        jobs.body
    );
}

/// Books → Chart of accounts: the chart by number in the page's language;
/// an own account added and removed by the accountant as `account add |
/// remove` do, a number outside the chart's range refused beside its
/// field, nothing added; a viewer reads the chart and adds nothing.
#[test]
fn the_chart_of_accounts_screen_adds_and_removes_an_own_account() {
    let office = Office::new();
    let mut accountant = office.signed_in("accountant@alpha.de");
    accountant.language = "de-DE,de;q=0.9";
    let page = accountant.get("/books/accounts");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<title>Kontenplan · kontor</title>"));
    assert!(page.body.contains("SKR03"), "{}", page.body);
    assert!(page.body.contains("Miete (unbewegliche Wirtschaftsgüter)"));
    let form = |number: &'static str| {
        vec![
            ("number", number),
            ("nameDe", "Vereinskosten"),
            ("nameEn", "Club costs"),
            ("kind", "expense"),
            ("line", "pl:8"),
        ]
    };
    let refused = accountant.act("/books/accounts", "/books/accounts", &form("8500"));
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert!(
        refused.body.contains("field-number-error") && refused.body.contains("8500"),
        "{}",
        refused.body
    );
    assert!(refused.body.contains("value=\"Vereinskosten\""));
    assert_eq!(office.count("SELECT count(*) FROM chart_accounts"), 0);
    accountant
        .act("/books/accounts", "/books/accounts", &form("4711"))
        .redirects_to("/books/accounts?done=added");
    let added = accountant.get("/books/accounts?done=added");
    assert!(added.body.contains("Das Konto ist angelegt."));
    // The notice is the one its value names, and none for a value it does not know.
    let removed = accountant.get("/books/accounts?done=removed");
    assert!(removed.body.contains("Das Konto ist entfernt."));
    assert!(!removed.body.contains("Das Konto ist angelegt."));
    let unknown = accountant.get("/books/accounts?done=elsewhere");
    assert!(!unknown.body.contains("Das Konto ist"));
    assert!(added.body.contains("Vereinskosten"));
    let listed = office.data.ok(&["account", "list", "--company", &office.a]);
    assert!(listed.to_string().contains("\"4711\""), "{listed}");
    // The other company's chart is its own.
    let mut beta = office.signed_in("owner@beta.de");
    assert!(!beta.get("/books/accounts").body.contains("Vereinskosten"));
    assert_eq!(
        beta.act("/books/accounts", "/books/accounts/4711/remove", &[])
            .status,
        404
    );
    let mut viewer = office.signed_in("viewer@alpha.de");
    let seen = viewer.get("/books/accounts");
    assert!(seen.body.contains("Club costs"));
    assert!(!seen.body.contains("action=\"/books/accounts\""));
    assert_eq!(
        viewer
            .act("/books/accounts", "/books/accounts", &form("4712"))
            .status,
        403
    );
    accountant
        .act("/books/accounts", "/books/accounts/4711/remove", &[])
        .redirects_to("/books/accounts?done=removed");
    assert_eq!(office.count("SELECT count(*) FROM chart_accounts"), 0);
    assert_eq!(
        audit(&office, &office.a),
        [
            ("accountant@alpha.de".into(), "account.added".into()),
            ("accountant@alpha.de".into(), "account.removed".into())
        ]
    );
}

/// A bill typed on the screen with its receipt and a posting date, in
/// German: the receipt is shown beside it (name, SHA-256) and downloads
/// byte for byte; a text file as another bill's receipt is refused beside
/// the field, nothing kept; a receipt attached afterwards on the bill's
/// page; another company reaches neither.
#[test]
fn a_bill_typed_with_its_receipt_and_posting_date_on_the_screen() {
    let office = Office::new();
    let mut accountant = office.signed_in("accountant@alpha.de");
    accountant.language = "de-DE,de;q=0.9";
    let token = accountant.get("/bills/new").csrf();
    let pdf = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n";
    let mut fields = bill("R-10", "100,00", "19,00");
    fields.push(("posted", "2026-03-05"));
    fields.push(("csrf", &token));
    let page = accountant.upload("/bills", &fields, &[("rechnung.pdf", pdf)]);
    let location = page.redirects_to_prefix("/bills/pur_");
    let id = location
        .trim_start_matches("/bills/")
        .split('?')
        .next()
        .unwrap()
        .to_string();
    let shown = accountant.get(&location);
    assert!(shown.body.contains("rechnung.pdf"), "{}", shown.body);
    assert!(shown.body.contains("Buchungsdatum"), "{}", shown.body);
    assert!(shown.body.contains("05.03.2026"), "{}", shown.body);
    let sha = hex::encode(<sha2::Sha256 as sha2::Digest>::digest(pdf));
    assert!(shown.body.contains(&sha), "{}", shown.body);
    let download = accountant.get(&format!("/bills/{id}/receipt"));
    assert_eq!(download.status, 200);
    assert_eq!(download.raw, pdf.to_vec());

    // A text file as the receipt of another bill: refused, the bill kept
    // without one.
    let second = office.data.ok(&[
        "purchase",
        "record",
        "--company",
        &office.a,
        "--supplier",
        "Kiosk",
        "--document-number",
        "K-1",
        "--date",
        "2026-03-06",
        "--due",
        "2026-03-06",
        "--currency",
        "EUR",
        "--net",
        "500",
        "--tax",
        "35",
    ])["id"]
        .as_str()
        .unwrap()
        .to_string();
    let token = accountant.get(&format!("/bills/{second}")).csrf();
    let refused = accountant.upload(
        &format!("/bills/{second}/receipt"),
        &[("csrf", &token)],
        &[("quittung.txt", b"Quittung 5,35 EUR")],
    );
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert!(
        refused.body.contains("keine PDF-, JPEG- oder PNG-Datei"),
        "{}",
        refused.body
    );
    assert_eq!(
        office.count("SELECT count(*) FROM purchases WHERE receipt_file_id IS NOT NULL"),
        1
    );
    let png = [0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13];
    accountant
        .upload(
            &format!("/bills/{second}/receipt"),
            &[("csrf", &token)],
            &[("quittung.png", &png)],
        )
        .redirects_to(&format!("/bills/{second}?done=receipt"));
    let attached = accountant.get(&format!("/bills/{second}?done=receipt"));
    assert!(attached.body.contains("Der Beleg ist angehängt."));
    assert!(attached.body.contains("image/png"));
    // Another company reaches neither the bill nor its receipt.
    let mut beta = office.signed_in("owner@beta.de");
    assert_eq!(beta.get(&format!("/bills/{id}/receipt")).status, 404);
}

/// A payment typed by hand is taken back from the bill's page with a
/// reason, as `payment reverse` takes it back: the bill owes again, the
/// payment stays listed with the day and reason; without a reason it is
/// refused and nothing changes; another company cannot reach it.
#[test]
fn a_payment_is_taken_back_from_the_bills_page() {
    let office = Office::new();
    let mut accountant = office.signed_in("accountant@alpha.de");
    let id = office.data.ok(&[
        "purchase",
        "record",
        "--company",
        &office.a,
        "--supplier",
        "Papier AG",
        "--document-number",
        "R-3",
        "--date",
        "2026-03-02",
        "--due",
        "2026-03-16",
        "--currency",
        "EUR",
        "--net",
        "10000",
        "--tax",
        "1900",
    ])["id"]
        .as_str()
        .unwrap()
        .to_string();
    let paid = office.data.ok(&[
        "purchase",
        "pay",
        &id,
        "--amount",
        "11900",
        "--on",
        "2026-03-05",
    ]);
    let payment = paid["payment"]["id"].as_str().unwrap().to_string();
    let page = format!("/bills/{id}");
    let shown = accountant.get(&page);
    let action = format!("/payments/{payment}/reverse");
    assert!(shown.body.contains(&action), "{}", shown.body);
    let before = trial_balance(&office, &office.a);
    let refused = accountant.act(&page, &action, &[("reason", "")]);
    assert!(refused.status >= 400, "{}", refused.body);
    assert_eq!(trial_balance(&office, &office.a), before);
    let mut beta = office.signed_in("owner@beta.de");
    assert_eq!(
        beta.act("/bills", &action, &[("reason", "Fremd")]).status,
        404
    );
    accountant
        .act(&page, &action, &[("reason", "Doppelt erfasst")])
        .redirects_to(&format!("/bills/{id}?done=reversed"));
    let after = accountant.get(&format!("/bills/{id}?done=reversed"));
    assert!(after.body.contains("The payment is taken back."));
    assert!(after.body.contains("Doppelt erfasst"), "{}", after.body);
    assert!(after.body.contains(&format!("action=\"/bills/{id}/pay\"")));
    // Taken back today: the counter-posting credits payables again.
    let tb = office
        .data
        .ok(&["books", "trial-balance", "--company", &office.a]);
    assert_eq!(account(&tb, "payables"), (11_900, 11_900 + 11_900));
}

/// An account opens to its postings: the trial balance links each account
/// to its sheet, which lists the period's postings with their documents
/// and the running balance; the chart's number finds it too; an account
/// not in the chart is not found; another company's postings never show.
#[test]
fn an_account_opens_to_its_postings_with_their_documents() {
    let office = Office::new();
    let record = |company: &str, number: &str, date: &str, net: &str| {
        office.data.ok(&[
            "purchase",
            "record",
            "--company",
            company,
            "--supplier",
            "Vermieter GmbH",
            "--document-number",
            number,
            "--date",
            date,
            "--due",
            date,
            "--currency",
            "EUR",
            "--account",
            "rent",
            "--net",
            net,
            "--tax",
            "0",
        ]);
    };
    record(&office.a, "M-02", "2026-02-01", "100000");
    record(&office.a, "M-03", "2026-03-01", "100000");
    record(&office.b, "FREMD-1", "2026-03-01", "55555");
    let mut accountant = office.signed_in("accountant@alpha.de");
    let tb = accountant.get("/books/trial-balance?asOf=2026-03-31");
    assert!(
        tb.body.contains("href=\"/books/accounts/rent\""),
        "{}",
        tb.body
    );
    let sheet = accountant.get("/books/accounts/rent?from=2026-03-01&to=2026-03-31");
    assert_eq!(sheet.status, 200, "{}", sheet.body);
    assert!(
        sheet.body.contains("4210 Rent of premises"),
        "{}",
        sheet.body
    );
    assert!(sheet.body.contains("M-03") && !sheet.body.contains("M-02"));
    // February's rent is the opening balance, March's adds to it.
    assert!(sheet.body.contains("€1,000.00") && sheet.body.contains("€2,000.00"));
    assert!(!sheet.body.contains("FREMD-1") && !sheet.body.contains("555.55"));
    let by_number = accountant.get("/books/accounts/4210?from=2026-01-01&to=2026-03-31");
    assert!(by_number.body.contains("M-02") && by_number.body.contains("M-03"));
    assert_eq!(accountant.get("/books/accounts/9999").status, 404);
    let bad = accountant.get("/books/accounts/rent?from=2026-04-01&to=2026-03-01");
    assert_eq!(bad.status, 400);
}

/// A plain PDF uploaded where e-invoices are received is no e-invoice: it
/// is kept as a receipt waiting for its bill, listed on the Bills screen,
/// typed by a person with the file attached; then it waits no more.
/// Another company sees and reaches none of it.
#[test]
fn a_plain_pdf_received_becomes_a_bill_a_person_types() {
    let office = Office::new();
    let mut accountant = office.signed_in("accountant@alpha.de");
    let token = accountant.get("/bills").csrf();
    let pdf: &[u8] = b"%PDF-1.4\n% Quittung Baumarkt\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n";
    let page = accountant.upload(
        "/bills/received",
        &[("csrf", &token)],
        &[
            ("baumarkt.pdf", pdf),
            (
                "tankbeleg.jpg",
                &[0xFF, 0xD8, 0xFF, 0xE0, 0, 16, b'J', b'F', b'I', b'F'],
            ),
        ],
    );
    assert_eq!(page.status, 200, "{}", page.body);
    assert_eq!(
        page.body.matches("kept as a receipt").count(),
        2,
        "{}",
        page.body
    );
    let waiting: String = office
        .db()
        .query_row(
            "SELECT id FROM received_files WHERE file_name = 'baumarkt.pdf'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let list = accountant.get("/bills");
    assert!(
        list.body.contains("Receipts to type as bills"),
        "{}",
        list.body
    );
    assert!(list.body.contains(&format!("/bills/new?receipt={waiting}")));
    assert_eq!(
        accountant.get(&format!("/bills/receipts/{waiting}")).raw,
        pdf.to_vec()
    );
    let mut beta = office.signed_in("owner@beta.de");
    assert!(!beta.get("/bills").body.contains("baumarkt.pdf"));
    assert_eq!(beta.get(&format!("/bills/receipts/{waiting}")).status, 404);
    let form = accountant.get(&format!("/bills/new?receipt={waiting}"));
    assert!(form
        .body
        .contains(&format!("name=\"receiptFile\" value=\"{waiting}\"")));
    let mut fields = bill("BM-1", "42.02", "7.98");
    fields.push(("receiptFile", &waiting));
    let done = accountant.act("/bills/new", "/bills", &fields);
    let location = done.redirects_to_prefix("/bills/pur_");
    let shown = accountant.get(&location);
    assert!(shown.body.contains("baumarkt.pdf"), "{}", shown.body);
    let list = accountant.get("/bills");
    assert!(!list.body.contains("baumarkt.pdf") && list.body.contains("tankbeleg.jpg"));
    assert_eq!(
        office.count("SELECT count(*) FROM purchases WHERE receipt_file_id IS NOT NULL"),
        1
    );
}

/// A bill dated more than a year back is booked on the screen only once
/// the person confirms it: the first post is refused beside the date with
/// the box to confirm, nothing recorded; with the box ticked it is booked.
#[test]
fn a_bill_dated_more_than_a_year_back_is_booked_once_confirmed() {
    let office = Office::new();
    let mut accountant = office.signed_in("accountant@alpha.de");
    let old = jiff::Zoned::now()
        .date()
        .checked_sub(jiff::Span::new().days(400))
        .unwrap()
        .to_string();
    let mut form: Vec<(&str, &str)> = bill("ALT-1", "100.00", "19.00")
        .into_iter()
        .filter(|f| f.0 != "confirmOld")
        .collect();
    for f in form.iter_mut() {
        if f.0 == "documentDate" || f.0 == "dueDate" {
            f.1 = &old;
        }
    }
    let refused = accountant.act("/bills/new", "/bills", &form);
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert!(
        refused.body.contains("more than a year back"),
        "{}",
        refused.body
    );
    assert!(
        refused.body.contains("name=\"confirmOld\""),
        "{}",
        refused.body
    );
    assert_eq!(office.count("SELECT count(*) FROM purchases"), 0);
    form.push(("confirmOld", "yes"));
    accountant
        .act("/bills/new", "/bills", &form)
        .redirects_to_prefix("/bills/pur_");
    assert_eq!(office.count("SELECT count(*) FROM purchases"), 1);
}

/// A month of company A with something still open: a bank line of the
/// month not settled and another booked to fees, an invoice draft, a
/// received e-invoice not booked and a receipt not typed as a bill.
fn a_month_with_open_things(office: &Office) {
    use crate::support::statements::{camt053, Entry, Transfer};
    let data = &office.data;
    let a = office.a.as_str();
    data.ok(&[
        "bank",
        "account",
        "add",
        "--company",
        a,
        "--iban",
        "DE36760260000123456789",
    ]);
    let dir = tempfile::tempdir().unwrap();
    let line = |reference: &str, amount: i64, name: &str, remittance: &str| Entry {
        bank_reference: reference.into(),
        booked_on: "2026-03-20".into(),
        reversal: false,
        txs: vec![Transfer {
            amount,
            name: name.into(),
            remittance: remittance.into(),
            ..Transfer::default()
        }],
    };
    let statement = camt053(
        "DE36760260000123456789",
        "STMT-2026-03",
        1,
        0,
        "2026-03-31",
        &[
            line("FEE-2026-03", -1_250, "Sparkasse", "Kontofuehrung Maerz"),
            line("IN-2026-03", 47_600, "Unbekannt GmbH", "Zahlung ohne Bezug"),
        ],
    );
    let path = crate::bank::write(&dir, "maerz.xml", statement.as_bytes());
    let (ok, _, err) = crate::bank::import(data, a, &[&path]);
    assert!(ok, "{err}");
    let fee = crate::bank::lines(data, a, Some("unmatched"))
        .into_iter()
        .find(|l| l["amount"]["minor"] == -1_250)
        .unwrap();
    data.ok(&[
        "bank",
        "book",
        fee["id"].as_str().unwrap(),
        "--account",
        "fees",
    ]);
    let customer = office.api().customer(&office.key_a, "Entwurf Kunde GmbH");
    office.api().draft(&office.key_a, &customer);
    // A received e-invoice of 4 March, not booked; a plain PDF receipt.
    let xml = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "tests/fixtures/einvoices-in/zugferd-corpus/XML-Rechnung/CII/XRECHNUNG_Einfach.cii.xml",
    ))
    .unwrap()
    .replace("20241115", "20260305")
    .replace("20241114", "20260304");
    let received = crate::bank::write(&dir, "xrechnung.xml", xml.as_bytes());
    data.ok(&["purchase", "receive", "--company", a, &received]);
    let mut owner = office.signed_in("owner@alpha.de");
    let token = owner.get("/bills").csrf();
    let kept = owner.upload(
        "/bills/received",
        &[("csrf", &token)],
        &[("quittung.pdf", b"%PDF-1.4\n%receipt\n".as_slice())],
    );
    assert!(kept.status < 400, "{}", kept.body);
}

#[test]
fn the_closing_confirmation_lists_what_is_still_open_and_the_trial_balance_names_its_accounts() {
    let office = Office::new();
    a_month_with_open_things(&office);
    let mut accountant = office.signed_in("accountant@alpha.de");
    let ask = accountant.act("/books", "/books/close", &[("through", "2026-03-31")]);
    assert_eq!(ask.status, 200, "{}", ask.body);
    let open = ask
        .body
        .split("id=\"still-open\"")
        .nth(1)
        .unwrap_or_else(|| panic!("{}", ask.body));
    let open = &open[..open.find("</section>").unwrap()];
    for part in [
        "<h3>1 bank line not settled</h3>",
        "Unbekannt GmbH</a> · 20 Mar 2026 · €476.00",
        "<h3>1 invoice draft not issued</h3>",
        "Entwurf Kunde GmbH</a>",
        "<h3>1 received e-invoice not booked</h3>",
        "Lieferant GmbH 471102</a> · 5 Mar 2026 · €529.87",
        "<h3>1 receipt not typed as a bill</h3>",
        "quittung.pdf</a>",
    ] {
        assert!(open.contains(part), "{part} in {open}");
    }
    // The fee, booked, is not open.
    assert!(!open.contains("Sparkasse"), "{open}");
    // Each item links its page.
    for href in open.split("href=\"").skip(1) {
        let href = &href[..href.find('"').unwrap()];
        assert_eq!(accountant.get(href).status, 200, "{href}");
    }
    // Closing through a day before the line and the bill: neither is open then.
    let before = accountant.act("/books", "/books/close", &[("through", "2026-03-04")]);
    let before = before.body.split("id=\"still-open\"").nth(1).unwrap();
    let before = &before[..before.find("</section>").unwrap()];
    assert!(
        !before.contains("bank line") && !before.contains("e-invoice"),
        "{before}"
    );
    // In German too, counted.
    accountant.language = "de-DE,de;q=0.9";
    let german = accountant.act("/books", "/books/close", &[("through", "2026-03-31")]);
    assert!(
        german
            .body
            .contains("<h3>1 nicht zugeordnete Bankbuchung</h3>")
            && german
                .body
                .contains("<h3>1 nicht ausgestellter Rechnungsentwurf</h3>"),
        "{}",
        german.body
    );
    // Asking changes nothing.
    assert_eq!(office.count("SELECT count(*) FROM books_closed"), 0);

    // The trial balance names the fee's account in the page's language,
    // never by the ledger's key.
    let tb = accountant.get("/books/trial-balance?from=2026-03-01&asOf=2026-03-31");
    assert!(
        tb.body.contains(">Nebenkosten des Geldverkehrs</a>"),
        "{}",
        tb.body
    );
    accountant.language = "en-GB,en;q=0.9";
    let tb = accountant.get("/books/trial-balance?from=2026-03-01&asOf=2026-03-31");
    assert!(tb.body.contains(">Bank charges</a>"), "{}", tb.body);
    for key in [">fees<", ">bank_charges<", ">suspense<"] {
        assert!(!tb.body.contains(key), "{key}: {}", tb.body);
    }
}

#[test]
fn a_down_payment_recorded_on_the_screens_waits_for_its_payment_to_count_its_vat() {
    let office = Office::new();
    let mut accountant = office.signed_in("accountant@alpha.de");
    let new = accountant.get("/bills/new");
    assert!(new.body.contains("name=\"downPayment\""), "{}", new.body);
    assert!(new.body.contains("name=\"supplierCashBasis\""));
    let mut form = bill("AZ-7", "500.00", "95.00");
    form.push(("downPayment", "yes"));
    accountant
        .act("/bills/new", "/bills", &form)
        .redirects_to_prefix("/bills/pur_");
    // 95.00 waits on "Vorsteuer in Folgeperiode abziehbar", none deductible yet.
    let tb = trial_balance(&office, &office.a);
    assert_eq!(account(&tb, "input_tax_later"), (9_500, 0));
    assert!(crate::support::trial::ledger(&tb, "input_tax").is_none());
}
