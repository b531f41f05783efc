//! The settings and the people of a company on the screens, over HTTP as a
//! browser uses them: particulars, payment days and the workflow changed by
//! the owner land where the console and the API read them, a refusal keeps
//! what was typed beside its field; invitations and password resets are
//! one-time links that work once and for 24 hours; roles change and people
//! are disabled, but a company keeps its owner; viewers and accountants are
//! refused the owner's acts; another company's person is not found; and the
//! console's acts name the person `--as` names in the audit, or the system.

use serde_json::{json, Value};

use crate::support::screens::{console_with_stdin, Browser, Office, Page, PASSWORD};
use crate::support::unique;

/// The audit rows of company `company`, as (actor, act, subject).
fn audit(office: &Office, company: &str) -> Vec<(String, String, String)> {
    office
        .db()
        .prepare("SELECT actor, act, subject FROM audit WHERE company_id = ?1 ORDER BY seq")
        .unwrap()
        .query_map([company], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// The last audit row of `company`, as (actor, act).
fn last_act(office: &Office, company: &str) -> (String, String) {
    let (actor, act, _) = audit(office, company).pop().unwrap();
    (actor, act)
}

/// The value of the field `id` on a page.
fn shown_value(body: &str, id: &str) -> String {
    let at = body
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no {id} in {body}"));
    let rest = &body[at..];
    let v = rest.find("value=\"").unwrap() + "value=\"".len();
    rest[v..v + rest[v..].find('"').unwrap()].to_string()
}

/// The value of the hidden field `name` on a page.
fn hidden(body: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let at = body
        .find(&marker)
        .unwrap_or_else(|| panic!("no {name} in {body}"));
    let rest = &body[at + marker.len()..];
    rest[..rest.find('"').unwrap()].to_string()
}

/// The path of the link a page shows (without the server's address).
fn shown_link(office: &Office, page: &Page) -> String {
    assert_eq!(page.status, 200, "{}", page.body);
    let link = shown_value(&page.body, "link");
    let prefix = format!("http://{}", office.server.addr);
    assert!(link.starts_with(&prefix), "{link}");
    link[prefix.len()..].to_string()
}

/// The owner invites a person; returns the link's path.
fn invite(office: &Office, owner: &mut Browser, email: &str, role: &str) -> String {
    let page = owner.act(
        "/settings/users",
        "/settings/users/invite",
        &[("email", email), ("name", "Neu Person"), ("role", role)],
    );
    assert!(page.body.contains("shown only this once"), "{}", page.body);
    shown_link(office, &page)
}

/// Opens a link in a fresh browser and posts its form with `fields`.
fn use_link(office: &Office, path: &str, fields: &[(&str, &str)]) -> Page {
    let mut browser = office.browser();
    let form = browser.get(path);
    assert_eq!(form.status, 200, "{}", form.body);
    let token = hidden(&form.body, "token");
    let csrf = form.csrf();
    let action = path.split('?').next().unwrap();
    let mut all = vec![("csrf", csrf.as_str()), ("token", token.as_str())];
    all.extend_from_slice(fields);
    browser.post(action, &all)
}

/// The id of a person by e-mail address.
fn user_id(office: &Office, email: &str) -> String {
    office
        .db()
        .query_row("SELECT id FROM users WHERE email = ?1", [email], |r| {
            r.get(0)
        })
        .unwrap()
}

/// The particulars form as the owner fills it.
fn particulars(iban: &str) -> Vec<(&str, &str)> {
    vec![
        ("legalName", "Alpha Werkstatt GmbH"),
        ("street", "Hafenstraße 7"),
        ("postalCode", "20457"),
        ("city", "Hamburg"),
        ("vatId", "de 815 739 245"),
        ("taxNumber", "43/815/08156"),
        ("registration", "HRB 99999, Amtsgericht Hamburg"),
        ("managingDirectors", "Ada Alpha"),
        ("contactName", "Ada Alpha"),
        ("contactPhone", "+49 40 123456"),
        ("contactEmail", "buero@alpha.de"),
        ("electronicAddress", "EM:rechnung@alpha.de"),
        ("iban", iban),
        ("bic", "haspdehhxxx"),
        ("accountHolder", ""),
        ("smallBusiness", "no"),
        ("smallBusiness", "yes"),
    ]
}

#[test]
fn particulars_and_payment_days_set_on_the_screen_are_what_the_console_and_the_api_read() {
    let office = Office::new();
    let mut owner = office.signed_in("owner@alpha.de");
    let page = owner.get("/settings");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<title>Settings · kontor</title>"));
    assert!(page
        .body
        .contains("href=\"/settings\" aria-current=\"page\""));
    assert!(page.body.contains("href=\"/settings/users\""));

    owner
        .act(
            "/settings",
            "/settings/company",
            &particulars("de20 2005 0550 1280 1635 74"),
        )
        .redirects_to("/settings?saved=particulars");
    let shown = office.data.ok(&["company", "show", &office.a]);
    assert_eq!(
        shown["particulars"],
        json!({
            "legalForm": null,
            "legalName": "Alpha Werkstatt GmbH",
            "street": "Hafenstraße 7",
            "postalCode": "20457",
            "city": "Hamburg",
            "vatId": "DE815739245",
            "taxNumber": "43/815/08156",
            "registration": "HRB 99999, Amtsgericht Hamburg",
            "contactName": "Ada Alpha",
            "contactPhone": "+49 40 123456",
            "contactEmail": "buero@alpha.de",
            "electronicAddress": {"scheme": "EM", "value": "rechnung@alpha.de"},
            "iban": "DE20200505501280163574",
            "bic": "HASPDEHHXXX",
            "accountHolder": null,
            "managingDirectors": "Ada Alpha",
            "smallBusiness": true
        })
    );
    let page = owner.get("/settings?saved=particulars");
    assert!(page.body.contains("The particulars are saved"));
    assert!(page.body.contains("value=\"DE20 2005 0550 1280 1635 74\""));

    // Payment days: the API's next draft is due that many days after its date.
    owner
        .act(
            "/settings",
            "/settings/payment-days",
            &[("paymentDays", "45")],
        )
        .redirects_to("/settings?saved=paymentDays");
    assert_eq!(
        office.data.ok(&["company", "show", &office.a])["paymentDays"],
        45
    );
    let api = office.api();
    let customer = api.customer(&office.key_a, "Zahlziel GmbH");
    let draft = api.post(
        &office.key_a,
        "/v1/invoices/drafts",
        &unique(),
        &json!({"customerId": customer["id"]}),
    );
    assert_eq!(draft.status, 201, "{:?}", draft.body);
    let day = |f: &str| {
        draft.body[f]
            .as_str()
            .unwrap()
            .parse::<jiff::civil::Date>()
            .unwrap()
    };
    assert_eq!((day("dueOn") - day("issuedOn")).get_days(), 45);
    // Empty: the country's again.
    owner
        .act(
            "/settings",
            "/settings/payment-days",
            &[("paymentDays", "")],
        )
        .redirects_to("/settings?saved=paymentDays");
    assert_eq!(
        office.data.ok(&["company", "show", &office.a])["paymentDays"],
        Value::Null
    );
    let refused = owner.act(
        "/settings",
        "/settings/payment-days",
        &[("paymentDays", "400")],
    );
    assert_eq!(refused.status, 400);
    assert!(refused.body.contains("value=\"400\""));
    assert!(refused
        .body
        .contains("id=\"field-paymentDays-error\">must be between 0 and 365"));

    let acts: Vec<(String, String, String)> = audit(&office, &office.a)
        .into_iter()
        .filter(|(actor, _, _)| actor != "system")
        .collect();
    // The API's acts between name the key that performed them.
    let customer_id = customer["id"].as_str().unwrap();
    let draft_id = draft.body["id"].as_str().unwrap();
    assert_eq!(
        acts,
        [
            ("owner@alpha.de", "company.changed", office.a.as_str()),
            ("owner@alpha.de", "company.payment_days_changed", &office.a),
            ("test key", "customer.created", customer_id),
            ("test key", "draft.created", draft_id),
            ("owner@alpha.de", "company.payment_days_changed", &office.a),
        ]
        .map(|(p, a, s)| (p.to_string(), a.to_string(), s.to_string()))
    );
}

#[test]
fn a_refused_iban_keeps_what_was_typed_with_the_message_beside_the_field() {
    let office = Office::new();
    let before = office.data.ok(&["company", "show", &office.a]);
    let mut owner = office.signed_in("owner@alpha.de");
    let page = owner.act(
        "/settings",
        "/settings/company",
        &particulars("DE20 2005 0550 1280 1635 75"),
    );
    assert_eq!(page.status, 400, "{}", page.body);
    assert!(page.body.contains("Nothing was saved."));
    assert!(page.body.contains("value=\"DE20 2005 0550 1280 1635 75\""));
    assert!(page.body.contains("value=\"Hafenstraße 7\""));
    let at = page
        .body
        .find("id=\"field-iban-error\"")
        .expect("beside the IBAN");
    assert!(page.body[at..].starts_with("id=\"field-iban-error\">"));
    assert!(page
        .body
        .contains("id=\"field-iban\" type=\"text\" name=\"iban\""));
    assert!(page.body.contains("aria-invalid=\"true\""));
    // A VAT id failing its check stands beside its own field.
    let mut form = particulars("de20 2005 0550 1280 1635 74");
    form[4] = ("vatId", "DE815739246");
    let page = owner.act("/settings", "/settings/company", &form);
    assert_eq!(page.status, 409, "{}", page.body);
    let at = page
        .body
        .find("id=\"field-vatId-error\">")
        .expect("beside the VAT id");
    assert!(
        page.body[at..].contains("check digit"),
        "{}",
        &page.body[at..]
    );
    assert!(page.body.contains("value=\"DE815739246\""));
    assert_eq!(office.data.ok(&["company", "show", &office.a]), before);
    assert!(audit(&office, &office.a)
        .iter()
        .all(|(actor, _, _)| actor == "system"));
}

#[test]
fn the_workflow_is_set_on_the_screen_as_the_console_sets_it() {
    let office = Office::new();
    let mut owner = office.signed_in("owner@alpha.de");
    owner
        .act(
            "/settings",
            "/settings/workflow",
            &[("stages", "ANGEBOT, IN_ARBEIT  ABNAHME ERLEDIGT")],
        )
        .redirects_to("/settings?saved=workflow");
    assert_eq!(
        office.data.ok(&["company", "show", &office.a])["workflow"],
        json!(["ANGEBOT", "IN_ARBEIT", "ABNAHME", "ERLEDIGT"])
    );
    // A new job starts in the first stage, as the API reads it.
    let job = office
        .api()
        .transaction(&office.key_a, json!({"title": "Neubau"}));
    assert_eq!(job["stage"], "ANGEBOT");
    let refused = owner.act(
        "/settings",
        "/settings/workflow",
        &[("stages", "NEU in_arbeit")],
    );
    assert_eq!(refused.status, 400);
    assert!(refused.body.contains("value=\"NEU in_arbeit\""));
    assert!(refused.body.contains("id=\"field-stages-error\""));
    assert!(refused.body.contains("which is not a stage key"));
    let refused = owner.act("/settings", "/settings/workflow", &[("stages", " ")]);
    assert_eq!(refused.status, 400);
    assert!(refused.body.contains("needs 1 to 30 stages"));
    assert_eq!(
        office.data.ok(&["company", "show", &office.a])["workflow"],
        json!(["ANGEBOT", "IN_ARBEIT", "ABNAHME", "ERLEDIGT"])
    );
    // The workflow's change is the person's last act; the job the API
    // made after it names the key.
    let acts = audit(&office, &office.a);
    assert_eq!(
        acts[acts.len() - 2..],
        [
            (
                "owner@alpha.de",
                "company.workflow_changed",
                office.a.as_str()
            ),
            ("test key", "job.created", job["id"].as_str().unwrap()),
        ]
        .map(|(p, a, s)| (p.to_string(), a.to_string(), s.to_string()))
    );
}

#[test]
fn an_invitation_works_once_and_the_invited_person_signs_in_with_its_role() {
    let office = Office::new();
    let mut owner = office.signed_in("owner@alpha.de");
    let path = invite(&office, &mut owner, "Neu@Alpha.de", "accountant");
    assert!(path.starts_with("/invite?token="), "{path}");
    let token = path.trim_start_matches("/invite?token=");
    assert_eq!(token.len(), 43, "256 random bits");
    // Only the token's hash is kept.
    assert_eq!(
        office.count(&format!(
            "SELECT count(*) FROM one_time_links WHERE token_hash = '{}' AND email = 'neu@alpha.de'",
            hex::encode(<sha2::Sha256 as sha2::Digest>::digest(token.as_bytes()))
        )),
        1
    );
    // The owner sees it open.
    let list = owner.get("/settings/users");
    assert!(list.body.contains("Open invitations") && list.body.contains("neu@alpha.de"));
    assert!(!list.body.contains(token));

    // Opened in another browser, without a session.
    let mut stranger = office.browser();
    let form = stranger.get(&path);
    assert_eq!(form.status, 200, "{}", form.body);
    assert!(form.body.contains("<title>Invitation · kontor</title>"));
    assert!(form.body.contains("Alpha GmbH") && form.body.contains("accountant"));
    assert!(form
        .header("content-security-policy")
        .unwrap()
        .contains("frame-ancestors 'none'"));
    assert_eq!(form.header("x-frame-options"), Some("DENY"));
    assert!(form
        .cookies_set()
        .iter()
        .any(|c| c.starts_with("kontor_link=")
            && c.contains("HttpOnly; SameSite=Strict; Path=/invite")));

    // Passwords that differ or are short are refused beside their fields; the name stays.
    let refused = use_link(
        &office,
        &path,
        &[
            ("name", "Nora Neu"),
            ("password", "short"),
            ("passwordRepeat", "other"),
        ],
    );
    assert_eq!(refused.status, 400);
    assert!(refused.body.contains("value=\"Nora Neu\""));
    assert!(refused
        .body
        .contains("id=\"field-password-error\">is shorter than 10 characters"));
    assert!(refused
        .body
        .contains("id=\"field-passwordRepeat-error\">differs from the password"));
    assert!(!refused.body.contains("value=\"short\""));

    let done = use_link(
        &office,
        &path,
        &[
            ("name", "Nora Neu"),
            ("password", PASSWORD),
            ("passwordRepeat", PASSWORD),
        ],
    );
    assert_eq!(done.status, 200, "{}", done.body);
    assert!(done
        .body
        .contains("you belong to Alpha GmbH as accountant now"));

    // Used once: the same link is refused, with a page saying so.
    let again = office.browser().get(&path);
    assert_eq!(again.status, 409);
    assert!(again.body.contains("This link was used already"));
    assert!(again.header("content-security-policy").is_some());

    // The new person signs in and acts as an accountant, not as an owner.
    let mut nora = office.signed_in("neu@alpha.de");
    let page = nora.get("/dashboard");
    assert!(page.body.contains("Nora Neu (accountant)"), "{}", page.body);
    assert_eq!(nora.get("/customers/new").status, 200);
    assert_eq!(nora.get("/settings/users").status, 403);
    let members = office.data.ok(&["user", "list", "--company", &office.a]);
    assert!(members
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["email"] == "neu@alpha.de"
            && m["role"] == "ACCOUNTANT"
            && m["name"] == "Nora Neu"));

    let nora_id = user_id(&office, "neu@alpha.de");
    let acts: Vec<(String, String, String)> = audit(&office, &office.a)
        .into_iter()
        .filter(|(actor, _, _)| actor != "system")
        .collect();
    assert_eq!(
        acts,
        [
            (
                "owner@alpha.de".to_string(),
                "user.invited".to_string(),
                "neu@alpha.de".to_string()
            ),
            (
                "neu@alpha.de".to_string(),
                "user.joined".to_string(),
                nora_id
            ),
        ]
    );
}

#[test]
fn an_invitation_expires_after_24_hours_and_a_newer_one_replaces_the_older() {
    let office = Office::new();
    let mut owner = office.signed_in("owner@alpha.de");
    let first = invite(&office, &mut owner, "spaet@alpha.de", "viewer");
    let second = invite(&office, &mut owner, "spaet@alpha.de", "viewer");
    // The first stopped working when the second was made.
    let replaced = office.browser().get(&first);
    assert_eq!(replaced.status, 404);
    assert!(replaced.body.contains("This link is not known"));
    // 24 hours and a minute later, the second is refused too.
    office
        .db()
        .execute_batch(
            "UPDATE one_time_links SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1441 minutes')",
        )
        .unwrap();
    let expired = office.browser().get(&second);
    assert_eq!(expired.status, 409);
    assert!(expired.body.contains("This link has expired"));
    let mut browser = office.browser();
    let posted = browser.post(
        "/invite",
        &[
            ("token", second.trim_start_matches("/invite?token=")),
            ("password", PASSWORD),
        ],
    );
    assert_eq!(posted.status, 403, "no form token: refused before anything");
    assert!(!owner.get("/settings/users").body.contains("spaet@alpha.de"));
    // 23 hours old still works.
    let third = invite(&office, &mut owner, "spaet@alpha.de", "viewer");
    office
        .db()
        .execute_batch(
            "UPDATE one_time_links SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1380 minutes') WHERE used_at IS NULL",
        )
        .unwrap();
    let done = use_link(
        &office,
        &third,
        &[
            ("name", "Spät"),
            ("password", PASSWORD),
            ("passwordRepeat", PASSWORD),
        ],
    );
    assert_eq!(done.status, 200, "{}", done.body);
    // Garbage is unknown, never a failure.
    for path in ["/invite", "/invite?token=abc", "/reset?token=%FF", "/reset"] {
        let page = office.browser().get(path);
        assert_eq!(page.status, 404, "{path}: {}", page.body);
        assert!(page.body.contains("This link is not known"), "{path}");
    }
    // An invitation's link does not reset, nor the other way round.
    let other = invite(&office, &mut owner, "quer@alpha.de", "viewer");
    let as_reset = other.replace("/invite", "/reset");
    assert_eq!(office.browser().get(&as_reset).status, 404);
}

#[test]
fn a_link_form_posted_from_another_site_or_without_its_cookie_does_nothing() {
    let office = Office::new();
    let mut owner = office.signed_in("owner@alpha.de");
    let path = invite(&office, &mut owner, "fremd@alpha.de", "owner");
    let token = path.trim_start_matches("/invite?token=").to_string();
    let fields = [
        ("name", "Fremd"),
        ("password", PASSWORD),
        ("passwordRepeat", PASSWORD),
    ];
    // A form token that is not the page's cookie.
    let mut browser = office.browser();
    browser.get(&path);
    let other = "x".repeat(43);
    let mut forged = vec![("csrf", other.as_str()), ("token", token.as_str())];
    forged.extend_from_slice(&fields);
    assert_eq!(browser.post("/invite", &forged).status, 403);
    // The right token, from another site.
    let mut browser = office.browser();
    let form = browser.get(&path);
    browser.origin = Some("https://evil.example".into());
    let csrf = form.csrf();
    let mut all = vec![("csrf", csrf.as_str()), ("token", token.as_str())];
    all.extend_from_slice(&fields);
    let page = browser.post("/invite", &all);
    assert_eq!(page.status, 403);
    assert!(page
        .body
        .contains("sent from another site; nothing was done"));
    assert_eq!(
        office.count("SELECT count(*) FROM users WHERE email = 'fremd@alpha.de'"),
        0
    );
    // From its own origin it works.
    browser.origin = Some(format!("http://{}", office.server.addr));
    assert_eq!(browser.post("/invite", &all).status, 200);
}

#[test]
fn a_person_kontor_knows_joins_with_their_own_password() {
    let office = Office::new();
    let mut owner = office.signed_in("owner@alpha.de");
    // The owner of Beta, invited to Alpha as a viewer.
    let path = invite(&office, &mut owner, "owner@beta.de", "viewer");
    let mut browser = office.browser();
    let form = browser.get(&path);
    assert!(form.body.contains("kontor knows you by this address"));
    assert!(!form.body.contains("name=\"passwordRepeat\""));
    let wrong = use_link(&office, &path, &[("password", "not the password")]);
    assert_eq!(wrong.status, 409);
    assert!(wrong.body.contains("id=\"field-password-error\">is wrong"));
    let done = use_link(&office, &path, &[("password", PASSWORD)]);
    assert_eq!(done.status, 200, "{}", done.body);
    // Both companies now, each with its own role; the password is the same.
    let mut beta = office.signed_in("owner@beta.de");
    let page = beta.get("/dashboard");
    assert!(page.body.contains("name=\"companyId\""), "a company switch");
    beta.act(
        "/dashboard",
        "/session/company",
        &[("companyId", &office.a)],
    )
    .redirects_to("/dashboard");
    let page = beta.get("/settings");
    assert!(page.body.contains("Alpha GmbH"));
    assert!(
        !page.body.contains("action=\"/settings/company\""),
        "a viewer here"
    );
    // An address already of the company cannot be invited.
    let refused = owner.act(
        "/settings/users",
        "/settings/users/invite",
        &[("email", "owner@beta.de"), ("name", "X"), ("role", "owner")],
    );
    assert_eq!(refused.status, 409);
    assert!(refused
        .body
        .contains("id=\"field-email-error\">belongs to a person of this company already"));
    assert!(refused.body.contains("value=\"owner@beta.de\""));
}

#[test]
fn a_reset_link_sets_the_password_ends_the_sessions_and_clears_the_waits() {
    let office = Office::new();
    let mut accountant = office.signed_in("accountant@alpha.de");
    let mut elsewhere = office.signed_in("accountant@alpha.de");
    // Five failures from this address hold the account.
    let mut guesser = office.browser();
    for _ in 0..5 {
        guesser.login("accountant@alpha.de", "wrong password!");
    }
    assert_eq!(guesser.login("accountant@alpha.de", PASSWORD).status, 429);

    let mut owner = office.signed_in("owner@alpha.de");
    let id = user_id(&office, "accountant@alpha.de");
    let page = owner.act(
        &format!("/settings/users/{id}"),
        &format!("/settings/users/{id}/reset"),
        &[],
    );
    let path = shown_link(&office, &page);
    assert!(path.starts_with("/reset?token="), "{path}");
    let new_password = "a brand new passphrase";
    let done = use_link(
        &office,
        &path,
        &[("password", new_password), ("passwordRepeat", new_password)],
    );
    assert_eq!(done.status, 200, "{}", done.body);
    assert!(done.body.contains("every session of yours has ended"));
    // Both earlier sessions are over.
    accountant.get("/dashboard").redirects_to("/login");
    elsewhere.get("/dashboard").redirects_to("/login");
    // The old password no longer works; the new one does, and the wait is gone.
    assert_eq!(
        office
            .browser()
            .login("accountant@alpha.de", PASSWORD)
            .status,
        401
    );
    guesser
        .login("accountant@alpha.de", new_password)
        .redirects_to("/dashboard");
    // Once only.
    assert_eq!(office.browser().get(&path).status, 409);
    let acts: Vec<(String, String, String)> = audit(&office, &office.a)
        .into_iter()
        .filter(|(actor, _, _)| actor != "system")
        .collect();
    assert_eq!(
        acts,
        [
            ("owner@alpha.de", "user.reset_link_made"),
            ("accountant@alpha.de", "user.password_reset"),
        ]
        .map(|(p, a)| (p.to_string(), a.to_string(), id.clone()))
    );
}

#[test]
fn the_console_makes_a_reset_link_and_an_owner_cannot_reset_a_person_of_other_companies() {
    let office = Office::new();
    // The viewer of Alpha belongs to Beta too.
    office.data.ok(&[
        "user",
        "create",
        "--company",
        &office.b,
        "--email",
        "viewer@alpha.de",
        "--name",
        "viewer",
        "--role",
        "accountant",
    ]);
    let id = user_id(&office, "viewer@alpha.de");
    let mut owner = office.signed_in("owner@alpha.de");
    let refused = owner.act(
        &format!("/settings/users/{id}"),
        &format!("/settings/users/{id}/reset"),
        &[],
    );
    assert_eq!(refused.status, 409);
    assert!(refused
        .body
        .contains("belongs to other companies too, which a new password would open"));
    assert_eq!(office.count("SELECT count(*) FROM one_time_links"), 0);
    // The console, as the owner, is refused the same; as the system it makes the link.
    let (ok, _, err) = office.data.console(&[
        "user",
        "reset",
        "--company",
        &office.a,
        "--email",
        "viewer@alpha.de",
        "--as",
        "owner@alpha.de",
    ]);
    assert!(!ok);
    assert!(err.contains("belongs to other companies too"), "{err}");
    let made = office.data.ok(&[
        "user",
        "reset",
        "--company",
        &office.a,
        "--email",
        "Viewer@Alpha.de",
        "--public-url",
        "https://books.example.com/",
    ]);
    let path = made["path"].as_str().unwrap();
    assert!(path.starts_with("/reset?token="), "{made}");
    assert_eq!(made["url"], format!("https://books.example.com{path}"));
    assert_eq!(made["email"], "viewer@alpha.de");
    let mut viewer = office.signed_in("viewer@alpha.de");
    let done = use_link(
        &office,
        path,
        &[
            ("password", "ein neues Passwort"),
            ("passwordRepeat", "ein neues Passwort"),
        ],
    );
    assert_eq!(done.status, 200, "{}", done.body);
    viewer.get("/dashboard").redirects_to("/login");
    office
        .browser()
        .login("viewer@alpha.de", "ein neues Passwort")
        .redirects_to("/dashboard");
    assert_eq!(
        last_act(&office, &office.a),
        (
            "viewer@alpha.de".to_string(),
            "user.password_reset".to_string()
        )
    );
    // Disabled in Alpha, they still open Beta, with Beta's role.
    owner
        .act(
            &format!("/settings/users/{id}"),
            &format!("/settings/users/{id}/disable"),
            &[],
        )
        .redirects_to("/settings/users?done=disabled");
    let mut viewer = office.browser();
    viewer
        .login("viewer@alpha.de", "ein neues Passwort")
        .redirects_to("/dashboard");
    let page = viewer.get("/dashboard");
    assert!(page.body.contains("Beta GmbH") && page.body.contains("(accountant)"));
    assert!(
        !page.body.contains("name=\"companyId\""),
        "Alpha is not offered"
    );
    let switched = viewer.act(
        "/dashboard",
        "/session/company",
        &[("companyId", &office.a)],
    );
    assert_eq!(switched.status, 404);
    // A person of another company is not found from Alpha.
    let (ok, _, err) = office.data.console(&[
        "user",
        "reset",
        "--company",
        &office.a,
        "--email",
        "owner@beta.de",
    ]);
    assert!(!ok);
    assert!(err.contains("was not found"), "{err}");
}

#[test]
fn roles_change_and_people_are_disabled_but_the_company_keeps_an_owner() {
    let office = Office::new();
    let mut owner = office.signed_in("owner@alpha.de");
    let list = owner.get("/settings/users");
    assert_eq!(list.status, 200);
    assert!(list.body.contains("<title>People · kontor</title>"));
    for email in ["owner@alpha.de", "accountant@alpha.de", "viewer@alpha.de"] {
        assert!(list.body.contains(email), "{email}");
    }
    assert!(!list.body.contains("owner@beta.de"));
    assert!(list.body.contains("Page 1 of 1 (3 people)"));

    let owner_id = user_id(&office, "owner@alpha.de");
    let viewer_id = user_id(&office, "viewer@alpha.de");
    // The only owner cannot step down or be disabled.
    let page = owner.act(
        &format!("/settings/users/{owner_id}"),
        &format!("/settings/users/{owner_id}/role"),
        &[("role", "viewer")],
    );
    assert_eq!(page.status, 409);
    assert!(page.body.contains("is the company's only owner"));
    let page = owner.act(
        &format!("/settings/users/{owner_id}"),
        &format!("/settings/users/{owner_id}/disable"),
        &[],
    );
    assert_eq!(page.status, 409);
    assert_eq!(
        office.count("SELECT count(*) FROM memberships WHERE disabled_at IS NOT NULL"),
        0
    );

    // The viewer becomes an accountant: their next request acts.
    let mut viewer = office.signed_in("viewer@alpha.de");
    assert_eq!(viewer.get("/customers/new").status, 403);
    owner
        .act(
            &format!("/settings/users/{viewer_id}"),
            &format!("/settings/users/{viewer_id}/role"),
            &[("role", "accountant")],
        )
        .redirects_to(&format!("/settings/users/{viewer_id}?done=role"));
    assert_eq!(viewer.get("/customers/new").status, 200);
    // Disabled: the session ends at once, and a sign-in finds nowhere to go.
    owner
        .act(
            &format!("/settings/users/{viewer_id}"),
            &format!("/settings/users/{viewer_id}/disable"),
            &[],
        )
        .redirects_to("/settings/users?done=disabled");
    viewer.get("/dashboard").redirects_to("/login");
    assert_eq!(
        office.browser().login("viewer@alpha.de", PASSWORD).status,
        401
    );
    assert!(owner
        .get(&format!("/settings/users/{viewer_id}"))
        .body
        .contains("Enable again"));
    owner
        .act(
            &format!("/settings/users/{viewer_id}"),
            &format!("/settings/users/{viewer_id}/enable"),
            &[],
        )
        .redirects_to(&format!("/settings/users/{viewer_id}?done=enabled"));
    office.signed_in("viewer@alpha.de");
    // With a second owner, the first may step down.
    owner
        .act(
            &format!("/settings/users/{viewer_id}"),
            &format!("/settings/users/{viewer_id}/role"),
            &[("role", "owner")],
        )
        .redirects_to(&format!("/settings/users/{viewer_id}?done=role"));
    owner
        .act(
            &format!("/settings/users/{owner_id}"),
            &format!("/settings/users/{owner_id}/role"),
            &[("role", "accountant")],
        )
        .redirects_to(&format!("/settings/users/{owner_id}?done=role"));
    assert_eq!(
        owner.get("/settings/users").status,
        403,
        "no owner any more"
    );
    let acts: Vec<(String, String)> = audit(&office, &office.a)
        .into_iter()
        .filter(|(actor, _, _)| actor != "system")
        .map(|(_, act, subject)| (act, subject))
        .collect();
    assert_eq!(
        acts,
        [
            ("user.role_changed", &viewer_id),
            ("user.disabled", &viewer_id),
            ("user.enabled", &viewer_id),
            ("user.role_changed", &viewer_id),
            ("user.role_changed", &owner_id),
        ]
        .map(|(a, s)| (a.to_string(), s.to_string()))
    );
}

#[test]
fn viewers_and_accountants_are_refused_the_owners_acts() {
    let office = Office::new();
    let viewer_id = user_id(&office, "viewer@alpha.de");
    let before = office.data.ok(&["company", "show", &office.a]);
    for who in ["viewer@alpha.de", "accountant@alpha.de"] {
        let mut browser = office.signed_in(who);
        let page = browser.get("/settings");
        assert_eq!(page.status, 200, "{who} reads the settings");
        assert!(page.body.contains("href=\"/settings\""), "linked for {who}");
        assert!(page.body.contains("HRB"), "{who} sees the particulars");
        assert!(
            !page.body.contains("<form class=\"stack\""),
            "{who}: no forms"
        );
        assert!(
            !page.body.contains("/settings/users"),
            "{who}: no link to the people"
        );
        assert!(!page.body.contains("href=\"/developers\""));
        for path in ["/settings/users", &format!("/settings/users/{viewer_id}")] {
            assert_eq!(browser.get(path).status, 403, "{who} {path}");
        }
        let acts: Vec<(String, Vec<(&str, &str)>)> = vec![
            (
                "/settings/company".into(),
                particulars("DE20 2005 0550 1280 1635 74"),
            ),
            ("/settings/payment-days".into(), vec![("paymentDays", "3")]),
            ("/settings/workflow".into(), vec![("stages", "A B")]),
            (
                "/settings/users/invite".into(),
                vec![("email", "x@alpha.de"), ("name", "X"), ("role", "owner")],
            ),
            (
                format!("/settings/users/{viewer_id}/role"),
                vec![("role", "owner")],
            ),
            (format!("/settings/users/{viewer_id}/disable"), vec![]),
            (format!("/settings/users/{viewer_id}/reset"), vec![]),
        ];
        for (to, form) in acts {
            let page = browser.act("/settings", &to, &form);
            assert_eq!(page.status, 403, "{who} {to}");
            assert!(page
                .body
                .contains("Your role in this company does not allow this; nothing was done."));
        }
    }
    assert_eq!(office.data.ok(&["company", "show", &office.a]), before);
    assert_eq!(office.count("SELECT count(*) FROM one_time_links"), 0);
    assert_eq!(
        office.count("SELECT count(*) FROM memberships WHERE role = 'OWNER'"),
        2
    );
    assert_eq!(
        office.count("SELECT count(*) FROM audit WHERE user_id IS NOT NULL"),
        0
    );
}

#[test]
fn another_companys_person_is_not_found_and_stays_as_they_were() {
    let office = Office::new();
    let beta_owner = user_id(&office, "owner@beta.de");
    let mut owner = office.signed_in("owner@alpha.de");
    let page = owner.get(&format!("/settings/users/{beta_owner}"));
    assert_eq!(page.status, 404);
    assert!(!page.body.contains("owner@beta.de"));
    for (to, form) in [
        ("role", vec![("role", "viewer")]),
        ("disable", vec![]),
        ("enable", vec![]),
        ("reset", vec![]),
    ] {
        let page = owner.act(
            "/settings",
            &format!("/settings/users/{beta_owner}/{to}"),
            &form,
        );
        assert_eq!(page.status, 404, "{to}: {}", page.body);
    }
    assert_eq!(
        office
            .count("SELECT count(*) FROM memberships WHERE role = 'OWNER' AND disabled_at IS NULL"),
        2
    );
    assert_eq!(office.count("SELECT count(*) FROM one_time_links"), 0);
    office.signed_in("owner@beta.de");
    // Nor does Beta's owner see Alpha's settings or people.
    let mut beta = office.signed_in("owner@beta.de");
    let page = beta.get("/settings/users");
    assert!(!page.body.contains("alpha.de"));
    assert!(!beta.get("/settings").body.contains("Alpha GmbH"));
}

#[test]
fn the_console_names_the_person_as_names_in_the_audit_or_the_system() {
    let office = Office::new();
    let data = &office.data;
    // Without --as: the system.
    data.ok(&["company", "set", &office.a, "--city", "Altona"]);
    assert_eq!(
        last_act(&office, &office.a),
        ("system".to_string(), "company.changed".to_string())
    );
    // As the owner: the owner, with their id.
    data.ok(&[
        "--as",
        "Owner@Alpha.de",
        "company",
        "set",
        &office.a,
        "--payment-days",
        "21",
    ]);
    let (actor, act): (String, String) = office
        .db()
        .query_row(
            "SELECT actor, act FROM audit WHERE user_id = ?1 ORDER BY seq DESC LIMIT 1",
            [user_id(&office, "owner@alpha.de")],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(
        (actor.as_str(), act.as_str()),
        ("owner@alpha.de", "company.payment_days_changed")
    );
    // The flag goes anywhere on the line; an accountant records a bill.
    let bill = data.ok(&[
        "purchase",
        "record",
        "--company",
        &office.a,
        "--supplier",
        "Papier AG",
        "--document-number",
        "P-1",
        "--date",
        "2026-01-05",
        "--due",
        "2026-02-05",
        "--currency",
        "EUR",
        "--net",
        "1000",
        "--tax",
        "190",
        "--as",
        "accountant@alpha.de",
    ]);
    assert_eq!(
        audit(&office, &office.a).pop().unwrap(),
        (
            "accountant@alpha.de".to_string(),
            "bill.recorded".to_string(),
            bill["id"].as_str().unwrap().to_string()
        )
    );
    let refused = |args: &[&str], sentence: &str| {
        let before = office.count("SELECT count(*) FROM audit");
        let (ok, out, err) = data.console(args);
        assert!(!ok, "{args:?} was not refused");
        assert_eq!(out, Value::Null);
        assert_eq!(err.trim_end(), format!("kontor: {sentence}"), "{args:?}");
        assert_eq!(office.count("SELECT count(*) FROM audit"), before);
    };
    // A viewer may not act, nor may an accountant change settings.
    refused(
        &[
            "--as",
            "viewer@alpha.de",
            "books",
            "close",
            "--company",
            &office.a,
            "--through",
            "2026-01-31",
        ],
        &format!(
            "--as names viewer@alpha.de, whose role in company {} (viewer) does not allow this.",
            office.a
        ),
    );
    assert_eq!(office.count("SELECT count(*) FROM books_closed"), 0);
    refused(
        &["--as", "accountant@alpha.de", "company", "workflow", &office.a, "A", "B"],
        &format!("--as names accountant@alpha.de, whose role in company {} (accountant) does not allow this.", office.a),
    );
    // A person of another company, or nobody, is refused.
    refused(
        &[
            "--as",
            "owner@beta.de",
            "company",
            "set",
            &office.a,
            "--city",
            "Kiel",
        ],
        &format!(
            "--as names owner@beta.de, who is not an enabled person of company {}.",
            office.a
        ),
    );
    refused(
        &[
            "--as",
            "nobody@alpha.de",
            "user",
            "role",
            "--company",
            &office.a,
            "--email",
            "viewer@alpha.de",
            "owner",
        ],
        &format!(
            "--as names nobody@alpha.de, who is not an enabled person of company {}.",
            office.a
        ),
    );
    assert_eq!(
        data.ok(&["company", "show", &office.a])["workflow"],
        json!(["NEU", "IN_ARBEIT", "ERLEDIGT"])
    );
    assert_eq!(
        data.ok(&["company", "show", &office.a])["particulars"]["city"],
        "Altona"
    );
    // A command that only reads takes no --as.
    refused(
        &["--as", "owner@alpha.de", "company", "show", &office.a],
        "--as names who acts, but `company show` only reads.",
    );
    // The console's people acts: a role, disabling in one company, as the owner.
    data.ok(&[
        "user",
        "role",
        "--company",
        &office.a,
        "--email",
        "viewer@alpha.de",
        "accountant",
        "--as",
        "owner@alpha.de",
    ]);
    let disabled = data.ok(&[
        "user",
        "disable",
        "viewer@alpha.de",
        "--company",
        &office.a,
        "--as",
        "owner@alpha.de",
    ]);
    assert_eq!(disabled["disabled"], true);
    assert_eq!(disabled["role"], "ACCOUNTANT");
    refused(
        &["user", "disable", "owner@alpha.de", "--company", &office.a],
        "owner@alpha.de is the company's only owner and cannot be disabled; make another person owner first.",
    );
    let acts: Vec<(String, String)> = audit(&office, &office.a)
        .into_iter()
        .rev()
        .take(2)
        .map(|(actor, act, _)| (actor, act))
        .collect();
    assert_eq!(
        acts,
        [
            ("owner@alpha.de", "user.disabled"),
            ("owner@alpha.de", "user.role_changed"),
        ]
        .map(|(p, a)| (p.to_string(), a.to_string()))
    );
    // A disabled person names nobody who may act.
    refused(
        &[
            "--as",
            "viewer@alpha.de",
            "company",
            "set",
            &office.a,
            "--city",
            "Kiel",
        ],
        &format!(
            "--as names viewer@alpha.de, who is not an enabled person of company {}.",
            office.a
        ),
    );
    // The system's acts: a user added, a key made.
    let added = console_with_stdin(
        data,
        &[
            "user",
            "create",
            "--company",
            &office.b,
            "--email",
            "neu@beta.de",
            "--name",
            "Neu",
            "--role",
            "viewer",
            "--password-stdin",
        ],
        &format!("{PASSWORD}\n"),
    );
    assert_eq!(
        audit(&office, &office.b).pop().unwrap(),
        (
            "system".to_string(),
            "user.added".to_string(),
            added["id"].as_str().unwrap().to_string()
        )
    );
}
