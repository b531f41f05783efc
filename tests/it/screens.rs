//! The screens over HTTP, as a browser uses them (cookies kept, redirects
//! not followed): signing in and out, session expiry and last-seen, the
//! waits failed sign-ins earn, the cookie's flags, forged form posts, roles,
//! tenancy by URL, refused forms that keep what was typed, and the acts
//! landing in the same books the API reads, with their audit rows.

use serde_json::Value;

use crate::support::screens::{console_with_stdin, invoice, Office, PASSWORD};

/// The form of a new customer, as the API names its fields.
fn new_customer(name: &str) -> Vec<(&str, &str)> {
    vec![
        ("name", name),
        ("street", "Kai 1"),
        ("postalCode", "20457"),
        ("city", "Hamburg"),
        ("country", ""),
        ("vatId", ""),
        ("currency", ""),
        ("email", "info@nord.example"),
        ("contact", ""),
        ("phone", ""),
    ]
}

#[test]
fn signing_in_sets_a_strict_cookie_and_signing_out_ends_the_session() {
    let office = Office::new();
    let mut browser = office.browser();
    // Before signing in, every screen leads to the sign-in.
    browser.get("/dashboard").redirects_to("/login");
    browser.get("/customers").redirects_to("/login");
    let page = browser.get("/login");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<title>Sign in · kontor</title>"));
    let csp = page.header("content-security-policy").unwrap();
    assert!(
        csp.contains("frame-ancestors 'none'") && !csp.contains("script-src"),
        "{csp}"
    );
    assert!(csp.starts_with("default-src 'none'"), "{csp}");

    let signed = browser.login("Owner@Alpha.de", PASSWORD);
    signed.redirects_to("/dashboard");
    let cookie = signed
        .cookies_set()
        .into_iter()
        .find(|c| c.starts_with("kontor_session="))
        .unwrap()
        .to_string();
    let id = browser.session().unwrap();
    assert_eq!(id.len(), 43, "256 random bits in URL-safe base64");
    assert_eq!(
        cookie,
        format!("kontor_session={id}; HttpOnly; SameSite=Strict; Path=/")
    );
    // Only the id's hash is kept.
    assert_eq!(
        office.count(&format!(
            "SELECT count(*) FROM sessions WHERE token_hash = '{}'",
            hex::encode(<sha2::Sha256 as sha2::Digest>::digest(id.as_bytes()))
        )),
        1
    );
    let dashboard = browser.get("/dashboard");
    assert_eq!(dashboard.status, 200);
    assert!(dashboard.body.contains("<title>Dashboard · kontor</title>"));
    assert!(dashboard.body.contains("Alpha GmbH"));

    let token = dashboard.csrf();
    browser
        .post("/logout", &[("csrf", &token)])
        .redirects_to("/login");
    assert_eq!(browser.session(), None, "the browser forgets the cookie");
    assert_eq!(office.count("SELECT count(*) FROM sessions"), 0);
    // The old id, sent again, opens nothing.
    browser.cookies.insert("kontor_session".into(), id);
    browser.get("/dashboard").redirects_to("/login");
}

#[test]
fn a_wrong_password_and_an_unknown_account_get_the_same_answer() {
    let office = Office::new();
    let mut browser = office.browser();
    let wrong = browser.login("owner@alpha.de", "not the password");
    let unknown = browser.login("nobody@alpha.de", "not the password");
    assert_eq!((wrong.status, unknown.status), (401, 401));
    let sentence = "The e-mail address or the password is wrong.";
    assert!(wrong.body.contains(sentence) && unknown.body.contains(sentence));
    // What was typed as the address stays; the password never comes back.
    assert!(unknown.body.contains("value=\"nobody@alpha.de\""));
    assert!(!unknown.body.contains("not the password"));
    assert_eq!(office.count("SELECT count(*) FROM sessions"), 0);
    // A disabled person is unknown too.
    office.data.ok(&["user", "disable", "viewer@alpha.de"]);
    let disabled = browser.login("viewer@alpha.de", PASSWORD);
    assert_eq!(disabled.status, 401);
    assert!(disabled.body.contains(sentence));
}

#[test]
fn every_sign_in_gets_a_new_id_and_ends_the_browsers_earlier_session() {
    let office = Office::new();
    let mut browser = office.signed_in("owner@alpha.de");
    let first = browser.session().unwrap();
    browser
        .login("owner@alpha.de", PASSWORD)
        .redirects_to("/dashboard");
    let second = browser.session().unwrap();
    assert_ne!(first, second);
    assert_eq!(office.count("SELECT count(*) FROM sessions"), 1);
}

#[test]
fn sessions_expire_when_idle_and_in_all_and_are_purged() {
    let office = Office::new();
    let mut browser = office.signed_in("accountant@alpha.de");
    let seen = || -> String {
        office
            .db()
            .query_row("SELECT last_seen_at FROM sessions", [], |r| r.get(0))
            .unwrap()
    };
    // Last-seen moves at most once a minute.
    let first = seen();
    assert_eq!(browser.get("/dashboard").status, 200);
    assert_eq!(seen(), first);
    office
        .db()
        .execute_batch(
            "UPDATE sessions SET last_seen_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-2 minutes')",
        )
        .unwrap();
    let backdated = seen();
    assert_eq!(browser.get("/dashboard").status, 200);
    assert!(
        seen() > backdated,
        "used after a minute: last-seen is written"
    );

    // 31 minutes without a request: ended.
    office
        .db()
        .execute_batch(
            "UPDATE sessions SET last_seen_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-31 minutes')",
        )
        .unwrap();
    let page = browser.get("/dashboard");
    page.redirects_to("/login");
    assert!(page.cookies_set().iter().any(|c| c.contains("Max-Age=0")));

    // Used a moment ago, but begun 12 hours and a minute ago: ended too.
    let mut browser = office.signed_in("accountant@alpha.de");
    office
        .db()
        .execute_batch(
            "UPDATE sessions SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-721 minutes')
             WHERE last_seen_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 minutes')",
        )
        .unwrap();
    browser.get("/dashboard").redirects_to("/login");
    // (Its sign-in purged the idle one.)
    assert_eq!(office.count("SELECT count(*) FROM sessions"), 1);
    // The next sign-in purges the expired session.
    office.signed_in("owner@alpha.de");
    assert_eq!(office.count("SELECT count(*) FROM sessions"), 1);
    assert_eq!(
        office.count(
            "SELECT count(*) FROM sessions WHERE created_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 minutes')"
        ),
        0
    );
}

#[test]
fn shorter_expiry_flags_hold() {
    let office = Office::configured(|c| {
        c.session_expiry.idle = std::time::Duration::from_secs(5 * 60);
    });
    let mut browser = office.signed_in("owner@alpha.de");
    office
        .db()
        .execute_batch(
            "UPDATE sessions SET last_seen_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-6 minutes')",
        )
        .unwrap();
    browser.get("/dashboard").redirects_to("/login");
}

#[test]
fn five_failures_make_the_account_and_address_wait_even_with_the_right_password() {
    let office = Office::new();
    let mut browser = office.browser();
    for _ in 0..5 {
        assert_eq!(
            browser.login("owner@alpha.de", "wrong password!").status,
            401
        );
    }
    let held = browser.login("owner@alpha.de", PASSWORD);
    assert_eq!(held.status, 429);
    assert!(held
        .body
        .contains("Too many failed sign-ins. Please wait 15 minutes and try again."));
    assert_eq!(browser.session(), None);
    // Another account from the same address is not held.
    browser
        .login("accountant@alpha.de", PASSWORD)
        .redirects_to("/dashboard");
}

#[test]
fn twenty_failures_from_one_address_hold_the_address() {
    let office = Office::new();
    let mut browser = office.browser();
    for i in 0..20 {
        let page = browser.login(&format!("guess{}@alpha.de", i % 4), "wrong password!");
        assert_eq!(page.status, 401, "attempt {i}");
    }
    assert_eq!(browser.login("owner@alpha.de", PASSWORD).status, 429);
}

#[test]
fn the_forwarded_address_counts_only_behind_a_trusted_proxy() {
    // Not trusted: the header is ignored, every attempt is the peer's.
    let office = Office::new();
    let mut browser = office.browser();
    for i in 0..5 {
        browser.forwarded_for = Some(format!("198.51.100.{i}"));
        browser.login("owner@alpha.de", "wrong password!");
    }
    browser.forwarded_for = Some("198.51.100.99".into());
    assert_eq!(browser.login("owner@alpha.de", PASSWORD).status, 429);

    // Trusted: each forwarded client is counted on its own.
    let office = Office::configured(|c| c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()]);
    let mut browser = office.browser();
    browser.forwarded_for = Some("198.51.100.1".into());
    for _ in 0..5 {
        browser.login("owner@alpha.de", "wrong password!");
    }
    assert_eq!(browser.login("owner@alpha.de", PASSWORD).status, 429);
    browser.forwarded_for = Some("203.0.113.5, 198.51.100.2".into());
    browser
        .login("owner@alpha.de", PASSWORD)
        .redirects_to("/dashboard");
}

#[test]
fn behind_an_https_public_url_the_cookies_are_secure() {
    let office = Office::configured(|c| c.public_urls = vec!["https://books.example.com".into()]);
    let mut browser = office.browser();
    let login = browser.get("/login");
    assert!(
        login.cookies_set()[0].ends_with("; Secure"),
        "{:?}",
        login.cookies_set()
    );
    let signed = browser.login("owner@alpha.de", PASSWORD);
    let cookie = signed
        .cookies_set()
        .into_iter()
        .find(|c| c.starts_with("kontor_session="))
        .unwrap();
    assert!(
        cookie.ends_with("; HttpOnly; SameSite=Strict; Path=/; Secure"),
        "{cookie}"
    );
    // Plain http elsewhere: no Secure.
    let plain = Office::new();
    assert!(!plain.browser().get("/login").cookies_set()[0].contains("Secure"));
}

#[test]
fn a_forged_form_post_is_refused_and_changes_nothing() {
    let office = Office::new();
    let mut browser = office.signed_in("owner@alpha.de");
    let before = office.count("SELECT count(*) FROM customers");
    // No token, a wrong token, the right token from another site's page.
    let mut form = new_customer("Nord GmbH");
    let none = browser.post("/customers", &form);
    form.push(("csrf", "x".repeat(43).leak()));
    let wrong = browser.post("/customers", &form);
    assert_eq!((none.status, wrong.status), (403, 403));
    assert!(none
        .body
        .contains("sent from another site; nothing was done"));
    // The refusal keeps the whole header: language, sign-out.
    assert!(
        none.body.contains("id=\"switch-language\"") && none.body.contains("action=\"/logout\""),
        "{}",
        none.body
    );
    browser.origin = Some("https://evil.example".into());
    let right = browser.act("/customers/new", "/customers", &new_customer("Nord GmbH"));
    assert_eq!(right.status, 403);
    browser.origin = Some("null".into());
    assert_eq!(
        browser
            .act("/customers/new", "/customers", &new_customer("Nord GmbH"))
            .status,
        403
    );
    assert_eq!(office.count("SELECT count(*) FROM customers"), before);
    // The same browser, from its own origin, may.
    browser.origin = Some(format!("http://{}", office.server.addr));
    browser
        .act("/customers/new", "/customers", &new_customer("Nord GmbH"))
        .redirects_to_prefix("/customers/cus_");
    assert_eq!(office.count("SELECT count(*) FROM customers"), before + 1);
    // Signing out needs the token too.
    assert_eq!(browser.post("/logout", &[]).status, 403);
    assert!(browser.session().is_some());
    // A sign-in form from elsewhere (without the sign-in page's cookie) signs nobody in.
    let mut other = office.browser();
    let page = other.post(
        "/login",
        &[
            ("csrf", &"y".repeat(43)),
            ("email", "owner@alpha.de"),
            ("password", PASSWORD),
        ],
    );
    assert_eq!(page.status, 403);
    assert_eq!(other.session(), None);
}

#[test]
fn a_viewer_sees_everything_and_is_refused_every_act() {
    let office = Office::new();
    let mut owner = office.signed_in("owner@alpha.de");
    let location = owner
        .act("/customers/new", "/customers", &new_customer("Nord GmbH"))
        .redirects_to_prefix("/customers/cus_");
    let mut viewer = office.signed_in("viewer@alpha.de");
    let list = viewer.get("/customers");
    assert_eq!(list.status, 200);
    assert!(list.body.contains("Nord GmbH"));
    assert!(
        !list.body.contains("/customers/new"),
        "no link to an act it may not do"
    );
    let shown = viewer.get(&location);
    assert_eq!(shown.status, 200);
    assert!(shown.body.contains("Kai 1") && !shown.body.contains("<form class=\"stack\""));
    assert_eq!(viewer.get("/customers/new").status, 403);
    let before = office.count("SELECT count(*) FROM customers");
    let refused = viewer.act("/customers", "/customers", &new_customer("Süd GmbH"));
    assert_eq!(refused.status, 403);
    assert!(refused
        .body
        .contains("Your role in this company does not allow this; nothing was done."));
    // The refusal keeps the whole header: the navigation, the language
    // switch and sign-out, each with the session's token.
    for part in [
        "aria-label=\"Main\"",
        "id=\"switch-language\"",
        "action=\"/session/environment\"",
        "action=\"/logout\"",
    ] {
        assert!(refused.body.contains(part), "{part}: {}", refused.body);
    }
    let token = refused.csrf();
    viewer
        .post("/session/language", &[("csrf", &token), ("language", "de")])
        .redirects_to_prefix("/");
    let mut change = new_customer("Renamed GmbH");
    change.retain(|(n, _)| *n != "csrf");
    assert_eq!(viewer.act("/customers", &location, &change).status, 403);
    assert_eq!(office.count("SELECT count(*) FROM customers"), before);
    assert_eq!(
        office.count("SELECT count(*) FROM customers WHERE name = 'Renamed GmbH'"),
        0
    );
}

#[test]
fn a_person_of_one_company_cannot_open_anothers_customer_by_its_address() {
    let office = Office::new();
    let mut beta = office.signed_in("owner@beta.de");
    let location = beta
        .act("/customers/new", "/customers", &new_customer("Beta Kunde"))
        .redirects_to_prefix("/customers/cus_");
    let mut alpha = office.signed_in("owner@alpha.de");
    let page = alpha.get(&location);
    assert_eq!(page.status, 404);
    assert!(!page.body.contains("Beta Kunde"));
    assert!(!alpha
        .get("/customers?search=Beta")
        .body
        .contains("Beta Kunde"));
    // Changing it by its address is "not found" too, and changes nothing.
    let token = alpha.get("/dashboard").csrf();
    let mut form = new_customer("Taken Over");
    form.push(("csrf", &token));
    assert_eq!(alpha.post(&location, &form).status, 404);
    assert_eq!(
        office.count("SELECT count(*) FROM customers WHERE name = 'Taken Over'"),
        0
    );
    // Nor can a person switch the session to a company they do not belong to.
    let switched = alpha.act(
        "/dashboard",
        "/session/company",
        &[("companyId", &office.b)],
    );
    assert_eq!(switched.status, 404);
    assert!(alpha.get("/dashboard").body.contains("Alpha GmbH"));
    // Test data is another set of books: a live customer is not found there.
    let own = alpha
        .act("/customers/new", "/customers", &new_customer("Live Kunde"))
        .redirects_to_prefix("/customers/cus_");
    alpha
        .act(
            "/dashboard",
            "/session/environment",
            &[("environment", "test")],
        )
        .redirects_to("/dashboard");
    assert!(alpha.get("/dashboard").body.contains("Test data"));
    assert_eq!(alpha.get(&own).status, 404);
    assert!(!alpha.get("/customers").body.contains("Live Kunde"));
}

#[test]
fn a_refused_form_keeps_what_was_typed_and_says_what_to_fix_beside_the_field() {
    let office = Office::new();
    let mut browser = office.signed_in("accountant@alpha.de");
    let form = vec![
        ("name", "Nord <GmbH> & Co"),
        ("street", ""),
        ("postalCode", "20457"),
        ("city", "Hamburg"),
        ("country", "XX"),
        ("email", "not an address"),
    ];
    let page = browser.act("/customers/new", "/customers", &form);
    assert_eq!(page.status, 400, "{}", page.body);
    // Typed values come back, escaped.
    assert!(
        page.body.contains("value=\"Nord &lt;GmbH&gt; &amp; Co\""),
        "{}",
        page.body
    );
    assert!(
        page.body.contains("value=\"20457\"") && page.body.contains("value=\"not an address\"")
    );
    // Beside the fields: what to fix.
    assert!(page.body.contains(
        "<input id=\"field-street\" type=\"text\" name=\"street\" value=\"\" maxlength=\"200\" required autocomplete=\"street-address\" aria-invalid=\"true\" aria-describedby=\"field-street-error\"><p class=\"error\" id=\"field-street-error\">is missing </p>"
    ), "{}", page.body);
    assert!(page
        .body
        .contains("id=\"field-email-error\">is not an e-mail address"));
    assert!(
        page.body
            .contains("id=\"field-country-error\">must be an ISO 3166-1 alpha-2 country code"),
        "{}",
        page.body
    );
    assert!(page.body.contains("Nothing was saved."));
    assert_eq!(office.count("SELECT count(*) FROM customers"), 0);

    // In German the common predicates are German too.
    browser.language = "de-DE,de;q=0.9";
    let page = browser.act("/customers/new", "/customers", &form);
    assert!(page.body.contains("<html lang=\"de\">"));
    assert!(page.body.contains("id=\"field-street-error\">fehlt"));
    assert!(page.body.contains("Es wurde nichts gespeichert."));
}

#[test]
fn a_customer_made_on_the_screens_is_the_apis_customer_and_the_audit_names_the_person() {
    let office = Office::new();
    let mut browser = office.signed_in("accountant@alpha.de");
    let location = browser
        .act("/customers/new", "/customers", &new_customer("Nord GmbH"))
        .redirects_to_prefix("/customers/cus_");
    let id = location
        .trim_start_matches("/customers/")
        .split('?')
        .next()
        .unwrap()
        .to_string();
    let shown = browser.get(&location);
    assert!(
        shown.body.contains("Saved.") && shown.body.contains("<title>Nord GmbH · kontor</title>")
    );
    let api = office
        .api()
        .get(&office.key_a, &format!("/v1/customers/{id}"));
    assert_eq!(api.status, 200);
    assert_eq!(api.body["name"], "Nord GmbH");
    assert_eq!(
        api.body["country"], "DE",
        "the company's country by default"
    );
    assert_eq!(api.body["number"], "K10001");

    // Changing the address; the list and the search see it.
    // The change form sends what it shows: the address, and the country as stored.
    let mut changed = new_customer("Nord GmbH");
    changed[2] = ("postalCode", "20459");
    changed[3] = ("city", "Lübeck");
    changed[4] = ("country", "DE");
    browser
        .act(&location, &format!("/customers/{id}"), &changed)
        .redirects_to(&format!("/customers/{id}?saved=1"));
    let api = office
        .api()
        .get(&office.key_a, &format!("/v1/customers/{id}"));
    assert_eq!(api.body["city"], "Lübeck");
    let found = browser.get("/customers?search=L%C3%BCbeck");
    assert!(found.body.contains("Nord GmbH"), "{}", found.body);
    assert!(!browser
        .get("/customers?search=zzz")
        .body
        .contains("Nord GmbH"));

    let audit: Vec<(String, String, String)> = office
        .db()
        .prepare("SELECT actor, act, subject FROM audit WHERE user_id IS NOT NULL ORDER BY seq")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        audit,
        vec![
            (
                "accountant@alpha.de".into(),
                "customer.created".into(),
                id.clone()
            ),
            (
                "accountant@alpha.de".into(),
                "customer.changed".into(),
                id.clone()
            ),
        ]
    );
    // The history names the person (their address on hover), not the address.
    let history = browser.get(&location).body;
    let person = "<span title=\"accountant@alpha.de\">accountant</span>";
    assert!(
        history.contains(&format!("{person} · created"))
            && history.contains(&format!("{person} · changed")),
        "{history}"
    );
    assert!(!history.contains("· accountant@alpha.de ·"), "{history}");
}

#[test]
fn the_customer_list_is_paged() {
    let office = Office::new();
    let mut browser = office.signed_in("owner@alpha.de");
    for i in 0..27 {
        let name = format!("Kunde {i:02}");
        office.api().post(
            &office.key_a,
            "/v1/customers",
            &format!("k{i}"),
            &serde_json::json!({
                "name": name, "street": "Weg 1", "postalCode": "10115", "city": "Berlin"
            }),
        );
    }
    let first = browser.get("/customers");
    assert!(
        first.body.contains("Page 1 of 2 (27 customers)"),
        "{}",
        first.body
    );
    assert!(first.body.contains("Kunde 26") && !first.body.contains("Kunde 01"));
    assert!(first
        .body
        .contains("href=\"/customers?page=1\" rel=\"next\""));
    let second = browser.get("/customers?page=1");
    assert!(second.body.contains("Kunde 01") && second.body.contains("rel=\"prev\""));
    assert!(!second.body.contains("rel=\"next\""));
}

#[test]
fn the_language_follows_the_browser_unless_the_person_chooses() {
    let office = Office::new();
    let mut browser = office.signed_in("owner@alpha.de");
    browser.language = "de-AT,de;q=0.9,en;q=0.5";
    let page = browser.get("/customers");
    assert!(page.body.contains("<title>Kunden · kontor</title>"));
    assert!(page.body.contains(">Übersicht</a>"));
    browser
        .act("/dashboard", "/session/language", &[("language", "en")])
        .redirects_to("/dashboard");
    assert!(browser
        .get("/customers")
        .body
        .contains("<title>Customers · kontor</title>"));
    browser
        .act(
            "/dashboard",
            "/session/language",
            &[("language", "browser")],
        )
        .redirects_to("/dashboard");
    assert!(browser
        .get("/customers")
        .body
        .contains("<title>Kunden · kontor</title>"));
}

#[test]
fn a_person_of_two_companies_switches_between_them() {
    let office = Office::new();
    // A person kontor knows already is added without a password.
    office.data.ok(&[
        "user",
        "create",
        "--company",
        &office.b,
        "--email",
        "owner@alpha.de",
        "--name",
        "Ann",
        "--role",
        "viewer",
    ]);
    let mut browser = office.signed_in("owner@alpha.de");
    let dashboard = browser.get("/dashboard");
    assert!(dashboard.body.contains("Alpha GmbH") && dashboard.body.contains("name=\"companyId\""));
    browser
        .act(
            "/dashboard",
            "/session/company",
            &[("companyId", &office.b)],
        )
        .redirects_to("/dashboard");
    let page = browser.get("/customers");
    assert!(page
        .body
        .contains("<span class=\"company\">Beta GmbH</span>"));
    assert!(page.body.contains("(viewer)"), "the role of that company");
    assert!(!page.body.contains("/customers/new"));
    assert_eq!(office.a.len(), office.b.len());
}

#[test]
fn unknown_pages_are_not_found_and_the_style_sheet_is_served() {
    let office = Office::new();
    let mut browser = office.signed_in("owner@alpha.de");
    let page = browser.get("/no-such-screen");
    assert_eq!(page.status, 404);
    assert!(page.body.contains("There is no such page or record here."));
    let css = browser.get("/static/kontor.css");
    assert_eq!(css.status, 200);
    assert_eq!(css.header("content-type"), Some("text/css; charset=utf-8"));
    // The API beside the screens is as it was.
    assert_eq!(office.api().get(&office.key_a, "/v1/me").status, 200);
    assert_eq!(office.api().get("", "/v1/me").status, 401);
}

#[test]
fn the_console_manages_people() {
    let office = Office::new();
    let list = office.data.ok(&["user", "list", "--company", &office.a]);
    let emails: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["email"].as_str().unwrap())
        .collect();
    assert_eq!(
        emails,
        ["owner@alpha.de", "accountant@alpha.de", "viewer@alpha.de"]
    );
    assert_eq!(list[2]["role"], "VIEWER");
    assert!(list[0].get("passwordHash").is_none());
    // A new person without a password, a known one with one, and twice in one company are refused.
    let (ok, _, err) = office.data.console(&[
        "user",
        "create",
        "--company",
        &office.a,
        "--email",
        "new@alpha.de",
        "--name",
        "New",
        "--role",
        "viewer",
    ]);
    assert!(!ok && err.contains("--password-stdin is missing"), "{err}");
    let (ok, _, err) = office.data.console(&[
        "user",
        "create",
        "--company",
        &office.a,
        "--email",
        "owner@beta.de",
        "--name",
        "B",
        "--role",
        "boss",
    ]);
    assert!(
        !ok && err.contains("--role is owner, accountant, viewer or adviser"),
        "{err}"
    );
    let (ok, _, err) = office.data.console(&[
        "user",
        "create",
        "--company",
        &office.a,
        "--email",
        "viewer@alpha.de",
        "--name",
        "V",
        "--role",
        "viewer",
    ]);
    assert!(!ok && err.contains("belongs to company"), "{err}");
    // A changed password ends the person's sessions and the old one no longer works.
    let mut browser = office.signed_in("viewer@alpha.de");
    console_with_stdin(
        &office.data,
        &["user", "password", "viewer@alpha.de", "--password-stdin"],
        "another good password\n",
    );
    browser.get("/dashboard").redirects_to("/login");
    assert_eq!(browser.login("viewer@alpha.de", PASSWORD).status, 401);
    browser
        .login("viewer@alpha.de", "another good password")
        .redirects_to("/dashboard");
    // Disabling ends the sessions at once.
    office.data.ok(&["user", "disable", "viewer@alpha.de"]);
    browser.get("/dashboard").redirects_to("/login");
}

#[test]
fn the_dashboard_shows_the_companys_own_figures_in_the_persons_notation() {
    let office = Office::new();
    let number = invoice(&office, &office.a, "Säumig GmbH", 123_456, "2026-01-05");
    let mut alpha = office.signed_in("owner@alpha.de");
    let page = alpha.get("/dashboard");
    assert_eq!(page.status, 200);
    // 1,234.56 net + 19 % = 1,469.13, all of it overdue.
    assert!(page.body.contains("<dd>€1,469.13</dd>"), "{}", page.body);
    assert!(
        page.body.contains(&format!(
            "<td><a href=\"/invoices/{number}\">{number}</a></td><td>Säumig GmbH</td><td>5 Jan 2026</td><td>19 Jan 2026</td>"
        )),
        "{}",
        page.body
    );
    alpha.language = "de";
    let page = alpha.get("/dashboard");
    assert!(
        page.body.contains("<dd>1.469,13\u{a0}€</dd>"),
        "{}",
        page.body
    );
    assert!(page.body.contains("<td>05.01.2026</td><td>19.01.2026</td>"));
    // Another company's person sees none of it.
    let mut beta = office.signed_in("owner@beta.de");
    let page = beta.get("/dashboard");
    assert!(!page.body.contains("Säumig") && !page.body.contains("1,469.13"));
    assert!(page.body.contains("No invoice is overdue."));
    assert!(page.body.contains("<dd>€0.00</dd>"));
}

#[test]
fn the_dashboard_charts_invoiced_and_received_per_month_and_the_receivables_by_age() {
    let office = Office::new();
    let today = jiff::Zoned::now()
        .with_time_zone(jiff::tz::TimeZone::get("Europe/Berlin").unwrap())
        .date();
    let day = |days: i64| today.checked_sub(jiff::Span::new().days(days)).unwrap();
    // 50 days ago: 1,190.00, due 36 days ago, so 31–60 days overdue; paid
    // 190.00 today. Today: 119.00, not yet due.
    let old = invoice(
        &office,
        &office.a,
        "Alt GmbH",
        100_000,
        &day(50).to_string(),
    );
    invoice(&office, &office.a, "Neu GmbH", 10_000, &today.to_string());
    // 59.50 issued today and cancelled today: its credit note takes it off
    // this month's invoiced and off the receivables.
    let cancelled = invoice(&office, &office.a, "Storno AG", 5_000, &today.to_string());
    office.data.ok(&[
        "invoice",
        "cancel",
        "--company",
        &office.a,
        &cancelled,
        "--reason",
        "Doppelt",
        "--on",
        &today.to_string(),
    ]);
    office.data.ok(&[
        "payment",
        "record",
        "--company",
        &office.a,
        "--invoice",
        &old,
        "--amount",
        "19000",
        "--on",
        &today.to_string(),
    ]);
    // A bill due 10 days ago, unpaid.
    office.data.ok(&[
        "purchase",
        "record",
        "--company",
        &office.a,
        "--supplier",
        "Papier AG",
        "--document-number",
        "R-9",
        "--date",
        &day(24).to_string(),
        "--due",
        &day(10).to_string(),
        "--currency",
        "EUR",
        "--net",
        "5000",
        "--tax",
        "950",
    ]);
    let mut alpha = office.signed_in("owner@alpha.de");
    let page = alpha.get("/dashboard").body;
    let row = |label: &str, amounts: &[&str]| {
        let cells: String = amounts
            .iter()
            .map(|a| format!("<td class=\"amount\">{a}</td>"))
            .collect();
        format!("<th scope=\"row\">{label}</th>{cells}")
    };
    let month = |date: jiff::civil::Date| {
        let names = [
            "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
        ];
        format!("{} {}", names[date.month() as usize - 1], date.year())
    };
    for expected in [
        row(&month(day(50)), &["€1,190.00", "€0.00"]),
        row(&month(today), &["€119.00", "€190.00"]),
        row("Not yet due", &["€119.00"]),
        row("1–30 days", &["€0.00"]),
        row("31–60 days", &["€1,000.00"]),
        row("over 90 days", &["€0.00"]),
    ] {
        assert!(page.contains(&expected), "{expected} not in {page}");
    }
    // Twelve months, the oldest first, drawn as an image with a name.
    assert_eq!(page.matches("<th scope=\"row\">").count(), 12 + 5, "{page}");
    let oldest = today
        .first_of_month()
        .checked_sub(jiff::Span::new().months(11))
        .unwrap();
    let first = page.find("<th scope=\"row\">").unwrap();
    assert_eq!(page[first..].find(&month(oldest)), Some(16), "{page}");
    assert!(page.contains("role=\"img\" aria-labelledby=\"months-title months-desc\""));
    assert!(page.contains("<title id=\"ageing-title\">Receivables by days overdue</title>"));
    assert!(
        !page.contains("style="),
        "no style attribute under style-src 'self'"
    );
    // The overdue bill is listed with its supplier.
    assert!(page.contains(">R-9</a></td><td>Papier AG</td>"), "{page}");
    // In German.
    alpha.language = "de";
    let page = alpha.get("/dashboard").body;
    assert!(
        page.contains(&row("31–60 Tage", &["1.000,00\u{a0}€"])),
        "{page}"
    );
    // Another company's person sees none of it.
    let mut beta = office.signed_in("owner@beta.de");
    let page = beta.get("/dashboard").body;
    assert!(
        page.contains(&row(&month(today), &["€0.00", "€0.00"])),
        "{page}"
    );
    assert!(page.contains(&row("31–60 days", &["€0.00"])));
    assert!(page.contains("No bill is overdue.") && !page.contains("Papier"));
}

#[test]
fn a_form_larger_than_the_screens_read_is_refused() {
    let office = Office::new();
    let mut browser = office.signed_in("owner@alpha.de");
    let token = browser.get("/customers/new").csrf();
    let long = "x".repeat(70 * 1024);
    let page = browser.post("/customers", &[("csrf", &token), ("name", &long)]);
    assert_eq!(page.status, 413);
    assert_eq!(office.count("SELECT count(*) FROM customers"), 0);
}

#[test]
fn behind_a_proxy_the_public_urls_origin_may_post() {
    let office = Office::configured(|c| c.public_urls = vec!["https://books.example.com".into()]);
    let mut browser = office.signed_in("owner@alpha.de");
    browser.origin = Some("https://books.example.com".into());
    browser
        .act("/customers/new", "/customers", &new_customer("Proxy GmbH"))
        .redirects_to_prefix("/customers/cus_");
    browser.origin = Some("https://books.example.com.evil.example".into());
    assert_eq!(
        browser
            .act("/customers/new", "/customers", &new_customer("Evil GmbH"))
            .status,
        403
    );
}

#[test]
fn changing_a_customer_goes_through_the_books_change_with_its_terms_and_e_invoice_settings() {
    let office = Office::new();
    let mut browser = office.signed_in("accountant@alpha.de");
    let location = browser
        .act("/customers/new", "/customers", &new_customer("Amt Nord"))
        .redirects_to_prefix("/customers/cus_");
    let id = location
        .trim_start_matches("/customers/")
        .split('?')
        .next()
        .unwrap()
        .to_string();
    let path = format!("/customers/{id}");
    let form = |street: &'static str, vat: &'static str, days: &'static str| {
        vec![
            ("name", "Amt Nord"),
            ("street", street),
            ("postalCode", "20457"),
            ("city", "Hamburg"),
            ("country", "DE"),
            ("vatId", vat),
            ("paymentDays", days),
            ("buyerReference", "991-12345-67"),
            ("electronicAddress", "0204:991-12345-67"),
            ("einvoice", "xrechnung"),
        ]
    };
    browser
        .act(&path, &path, &form("Kai 2", "DE 136 695 976", "30"))
        .redirects_to(&format!("{path}?saved=1"));
    let api = office
        .api()
        .get(&office.key_a, &path.replace("/customers", "/v1/customers"));
    assert_eq!(api.body["street"], "Kai 2");
    assert_eq!(api.body["vatId"], "DE136695976");
    let stored: (i64, String, String, String) = office
        .db()
        .query_row(
            "SELECT payment_days, buyer_reference, electronic_address, einvoice_format FROM customers WHERE id = ?1",
            [&id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .unwrap();
    assert_eq!(stored.0, 30);
    assert_eq!(
        (stored.1.as_str(), stored.3.as_str()),
        ("991-12345-67", "xrechnung")
    );
    assert!(stored.2.contains("991-12345-67"), "{}", stored.2);
    let shown = browser.get(&path).body;
    assert!(
        shown.contains("<option value=\"xrechnung\" selected>XRechnung</option>"),
        "{shown}"
    );
    assert!(shown.contains("value=\"30\""));

    // An emptied street is missing, not left as it was; a bad VAT id is the
    // books' refusal; nothing changes.
    let page = browser.act(&path, &path, &form("", "DE 136 695 977", "400"));
    assert_eq!(page.status, 400, "{}", page.body);
    assert!(page.body.contains("id=\"field-street-error\">is missing"));
    assert!(
        page.body.contains("id=\"field-paymentDays-error\">"),
        "{}",
        page.body
    );
    assert!(
        page.body.contains("value=\"DE 136 695 977\""),
        "what was typed stays"
    );
    let api = office
        .api()
        .get(&office.key_a, &path.replace("/customers", "/v1/customers"));
    assert_eq!(
        (api.body["street"].as_str(), api.body["vatId"].as_str()),
        (Some("Kai 2"), Some("DE136695976"))
    );
    let page = browser.act(&path, &path, &form("Kai 2", "DE 136 695 977", "30"));
    assert_eq!(page.status, 409, "{}", page.body);
    assert!(
        page.body
            .contains("The VAT id DE136695977 fails the German check digit."),
        "{}",
        page.body
    );
    // In German, the rule's words are German, the state named as a German
    // reads it.
    browser.language = crate::support::screens::GERMAN;
    let page = browser.act(&path, &path, &form("Kai 2", "ATU1234", "30"));
    assert_eq!(page.status, 409, "{}", page.body);
    assert!(
        page.body.contains(
            "Die USt-IdNr. ATU1234 hat nicht das Format für Österreich: ATU gefolgt von 8 Ziffern."
        ),
        "{}",
        page.body
    );
    let page = browser.act(&path, &path, &form("Kai 2", "DE 136 695 977", "30"));
    assert!(
        page.body.contains(
            "Die USt-IdNr. DE136695977 ist keine gültige Nummer für Deutschland: die Prüfziffer stimmt nicht."
        ),
        "{}",
        page.body
    );
    assert!(!page.body.contains("VAT id"), "{}", page.body);
    browser.language = crate::support::screens::ENGLISH;
    // An emptied VAT id clears it.
    browser
        .act(&path, &path, &form("Kai 2", "", "30"))
        .redirects_to(&format!("{path}?saved=1"));
    let api = office
        .api()
        .get(&office.key_a, &path.replace("/customers", "/v1/customers"));
    assert_eq!(api.body["vatId"], Value::Null);
}
