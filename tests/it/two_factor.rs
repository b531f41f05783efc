//! Two-factor sign-in through the screens: a person turns on an
//! authenticator app (its codes computed here with the same RFC 6238 crate
//! an app's maker could use), signs out and in with a code; a replayed code
//! and a wrong one are refused and counted toward the sign-in's waits; a
//! recovery code works once; the half-signed-in step reads nothing; an
//! owner's requirement leads a person without a second factor to set one up;
//! the owner's and the console's resets. The secret and the recovery codes
//! appear in no page after their first showing, no answer, no log line of a
//! running `kontor serve`, no data file and no backup.

use std::cell::RefCell;

use totp_rs::{Algorithm, Builder, Totp};

use crate::secrets::serve;
use crate::support::screens::{person, Browser, Office, Page, PASSWORD};
use crate::support::DataFile;

/// The value of the read-only field `id` of a page.
fn field(page: &Page, id: &str) -> String {
    let at = page
        .body
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no field {id} in {}", page.body));
    let rest = &page.body[at..];
    let value = rest.find("value=\"").unwrap() + "value=\"".len();
    let rest = &rest[value..];
    rest[..rest.find('"').unwrap()].replace("&amp;", "&")
}

/// The recovery codes a page shows.
fn recovery_codes(page: &Page) -> Vec<String> {
    let list = &page.body[page
        .body
        .find("id=\"recovery-codes\"")
        .expect("codes shown")..];
    let list = &list[..list.find("</ol>").unwrap()];
    list.split("<code>")
        .skip(1)
        .map(|c| c[..c.find("</code>").unwrap()].to_string())
        .collect()
}

/// The app a person sets up with the secret shown.
fn app(secret: &str) -> Totp {
    let bytes = totp_rs::Secret::try_from_base32(secret).expect("a base32 secret");
    Builder::new()
        .with_algorithm(Algorithm::SHA1)
        .with_digits(6)
        .with_step_duration(30)
        .with_secret(bytes.as_bytes().to_vec())
        .build()
        .unwrap()
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// The app's code of the step `offset` steps from now.
fn code(app: &Totp, offset: i64) -> String {
    let at = now() as i64 + offset * 30;
    app.generate(at as u64).to_string()
}

/// A code no step around now has.
fn wrong_code(app: &Totp) -> String {
    let taken: Vec<String> = (-2..=2).map(|o| code(app, o)).collect();
    (0..1_000_000)
        .map(|n| format!("{n:06}"))
        .find(|c| !taken.contains(c))
        .unwrap()
}

/// Signs in with the password; a person with a second factor gets the step's page.
fn password_step(browser: &mut Browser, email: &str) -> Page {
    browser.cookies.clear();
    browser
        .login(email, PASSWORD)
        .redirects_to("/login/second-factor");
    assert!(
        browser.session().is_none(),
        "no session before the second factor"
    );
    assert!(browser.cookies.contains_key("kontor_step"));
    let page = browser.get("/login/second-factor");
    assert_eq!(page.status, 200, "{}", page.body);
    page
}

/// Turns on the app of a signed-in person: the secret, then its first code;
/// returns the secret, the page that showed it and the recovery codes.
fn turn_on(browser: &mut Browser) -> (String, Page, Vec<String>) {
    let shown = browser.act("/account", "/account/totp", &[]);
    assert_eq!(shown.status, 200, "{}", shown.body);
    let secret = field(&shown, "secret");
    assert_eq!(secret.len(), 32, "160 bits in base32: {secret}");
    let app = app(&secret);
    let confirmed = browser.post(
        "/account/totp/confirm",
        &[("csrf", &shown.csrf()), ("code", &code(&app, 0))],
    );
    assert_eq!(confirmed.status, 200, "{}", confirmed.body);
    assert!(confirmed.body.contains("The authenticator app is on"));
    let codes = recovery_codes(&confirmed);
    assert_eq!(codes.len(), 10);
    (secret, shown, codes)
}

#[test]
fn an_app_signs_in_once_per_code_and_a_recovery_code_once() {
    let data = DataFile::new();
    let company = data.company("Zwei GmbH", "ENTERPRISE");
    person(&data, &company, "owner@zwei.de", "owner");
    person(&data, &company, "anna@zwei.de", "accountant");
    let served = serve(&data);
    let seen: RefCell<Vec<(String, String)>> = Default::default();
    let keep = |what: &str, page: &Page| {
        seen.borrow_mut().push((
            what.to_string(),
            format!("{:?}\n{}", page.cookies_set(), page.body),
        ))
    };
    let mut anna = Browser::at(served.addr);
    anna.login("anna@zwei.de", PASSWORD)
        .redirects_to("/dashboard");
    let account = anna.get("/account");
    assert_eq!(account.status, 200);
    assert!(account.body.contains("Set up an authenticator app"));
    assert!(
        anna.get("/dashboard").body.contains("href=\"/account\""),
        "the header links the person's own page"
    );

    // Set up: the secret as text, as the otpauth address, as a QR code.
    let shown = anna.act("/account", "/account/totp", &[]);
    assert_eq!(shown.status, 200, "{}", shown.body);
    let secret = field(&shown, "secret");
    let uri = field(&shown, "otpauth");
    assert!(
        uri.starts_with("otpauth://totp/kontor:anna%40zwei.de?"),
        "{uri}"
    );
    assert!(uri.contains(&format!("secret={secret}")), "{uri}");
    assert!(uri.contains("issuer=kontor"), "{uri}");
    assert!(shown.body.contains("src=\"data:image/svg+xml;base64,"));
    let app = app(&secret);
    // A wrong first code is refused and the secret is not shown again.
    let wrong = anna.post(
        "/account/totp/confirm",
        &[("csrf", &shown.csrf()), ("code", &wrong_code(&app))],
    );
    assert_eq!(wrong.status, 400, "{}", wrong.body);
    assert!(!wrong.body.contains(&secret));
    keep("the refused first code", &wrong);
    let confirmed = anna.post(
        "/account/totp/confirm",
        &[("csrf", &shown.csrf()), ("code", &code(&app, 0))],
    );
    assert_eq!(confirmed.status, 200, "{}", confirmed.body);
    assert!(!confirmed.body.contains(&secret));
    let codes = recovery_codes(&confirmed);
    assert_eq!(codes.len(), 10);
    assert_eq!(
        codes
            .iter()
            .collect::<std::collections::BTreeSet<_>>()
            .len(),
        10
    );
    assert!(codes.iter().all(|c| c.len() == 19), "{codes:?}");
    let account = anna.get("/account");
    assert!(account.body.contains("An authenticator app is on"));
    assert!(account
        .body
        .contains("10 of your recovery codes are unused"));
    keep("the account page", &account);
    keep("the dashboard", &anna.get("/dashboard"));
    anna.act("/dashboard", "/logout", &[])
        .redirects_to("/login");

    // The password alone opens nothing: the step reads no page.
    let step = password_step(&mut anna, "anna@zwei.de");
    keep("the second step", &step);
    anna.get("/dashboard").redirects_to("/login");
    anna.get("/account").redirects_to("/login");
    // The step's forms take only the step's own token.
    let forged = anna.post(
        "/login/code",
        &[("csrf", "x".repeat(43).as_str()), ("code", &code(&app, 1))],
    );
    assert_eq!(forged.status, 403);
    // A code of the next step (one step of drift) signs in ...
    let step = anna.get("/login/second-factor");
    let next = code(&app, 1);
    anna.post("/login/code", &[("csrf", &step.csrf()), ("code", &next)])
        .redirects_to("/dashboard");
    assert!(anna.session().is_some());
    assert!(!anna.cookies.contains_key("kontor_step"));
    assert_eq!(anna.get("/dashboard").status, 200);
    anna.act("/dashboard", "/logout", &[])
        .redirects_to("/login");
    // ... once: the same code again is refused, and so is an older one.
    let step = password_step(&mut anna, "anna@zwei.de");
    let replayed = anna.post("/login/code", &[("csrf", &step.csrf()), ("code", &next)]);
    assert_eq!(replayed.status, 401, "{}", replayed.body);
    assert!(replayed
        .body
        .contains("The code is wrong or was used already."));
    assert!(anna.session().is_none());
    let older = anna.post(
        "/login/code",
        &[("csrf", &step.csrf()), ("code", &code(&app, 0))],
    );
    assert_eq!(older.status, 401);
    let wrong = anna.post(
        "/login/code",
        &[("csrf", &step.csrf()), ("code", &wrong_code(&app))],
    );
    assert_eq!(wrong.status, 401);
    keep("a refused code", &wrong);
    // A recovery code signs in once.
    let recovered = anna.post(
        "/login/recovery",
        &[
            ("csrf", &step.csrf()),
            ("recoveryCode", &codes[0].to_lowercase()),
        ],
    );
    recovered.redirects_to("/dashboard");
    assert!(anna
        .get("/account")
        .body
        .contains("9 of your recovery codes are unused"));
    anna.act("/dashboard", "/logout", &[])
        .redirects_to("/login");
    let step = password_step(&mut anna, "anna@zwei.de");
    let again = anna.post(
        "/login/recovery",
        &[("csrf", &step.csrf()), ("recoveryCode", &codes[0])],
    );
    assert_eq!(again.status, 401);
    assert!(again
        .body
        .contains("This recovery code is wrong or was used already."));
    // Wrong codes count toward the waits of wrong passwords: the one above
    // and four more earn a wait, for codes and passwords alike.
    for _ in 0..4 {
        let wrong = anna.post(
            "/login/code",
            &[("csrf", &step.csrf()), ("code", &wrong_code(&app))],
        );
        assert_eq!(wrong.status, 401);
    }
    let held = anna.post(
        "/login/code",
        &[("csrf", &step.csrf()), ("code", &code(&app, 1))],
    );
    assert_eq!(held.status, 429, "{}", held.body);
    assert!(held.body.contains("Too many failed sign-ins"));
    anna.cookies.clear();
    let token = anna.get("/login").csrf();
    let password = anna.post(
        "/login",
        &[
            ("csrf", &token),
            ("email", "anna@zwei.de"),
            ("password", PASSWORD),
        ],
    );
    assert_eq!(password.status, 429);
    // Who turned what on, in the company's audit.
    let conn = rusqlite::Connection::open(&data.path).unwrap();
    let acts: Vec<String> = conn
        .prepare("SELECT act FROM audit WHERE subject = (SELECT id FROM users WHERE email = 'anna@zwei.de') ORDER BY seq")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(
        acts.contains(&"user.two_factor_app_on".to_string()),
        "{acts:?}"
    );
    assert!(
        acts.contains(&"user.recovery_code_used".to_string()),
        "{acts:?}"
    );

    // New recovery codes void the old ones and are shown once.
    let mut owner = Browser::at(served.addr);
    owner
        .login("owner@zwei.de", PASSWORD)
        .redirects_to("/dashboard");
    let (owner_secret, _, owner_codes) = turn_on(&mut owner);
    let fresh = owner.act("/account", "/account/recovery-codes", &[]);
    let fresh_codes = recovery_codes(&fresh);
    assert_eq!(fresh_codes.len(), 10);
    let account = owner.get("/account");
    keep("the owner's account page", &account);
    owner
        .act("/dashboard", "/logout", &[])
        .redirects_to("/login");
    let step = password_step(&mut owner, "owner@zwei.de");
    let old = owner.post(
        "/login/recovery",
        &[("csrf", &step.csrf()), ("recoveryCode", &owner_codes[1])],
    );
    assert_eq!(old.status, 401);
    owner
        .post(
            "/login/recovery",
            &[("csrf", &step.csrf()), ("recoveryCode", &fresh_codes[1])],
        )
        .redirects_to("/dashboard");

    // No secret after its first showing: pages, answers, the console, the
    // log of the running server, the data file and a backup.
    for path in ["/account", "/dashboard", "/settings/users"] {
        keep(path, &owner.get(path));
    }
    let (ok, backup, stderr) = data.console(&[
        "backup",
        "--to",
        data.path.with_file_name("backup.db").to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    seen.borrow_mut()
        .push(("kontor backup".into(), format!("{backup}\n{stderr}")));
    let (_, users, _) = data.console(&["user", "list", "--company", &company]);
    seen.borrow_mut()
        .push(("kontor user list".into(), users.to_string()));
    let log = served.log.clone();
    drop(served);
    seen.borrow_mut()
        .push(("the server's log".into(), log.lock().unwrap().clone()));
    for name in ["kontor.db", "kontor.db-wal", "backup.db"] {
        let bytes = std::fs::read(data.path.with_file_name(name)).unwrap_or_default();
        seen.borrow_mut()
            .push((name.into(), String::from_utf8_lossy(&bytes).into_owned()));
    }
    let mut secrets: Vec<String> = vec![secret.clone(), owner_secret.clone()];
    for c in codes.iter().chain(&owner_codes).chain(&fresh_codes) {
        secrets.push(c.clone());
        secrets.push(c.replace('-', ""));
    }
    let mut searched = 0;
    for (what, text) in seen.borrow().iter() {
        for s in &secrets {
            assert!(!text.contains(s.as_str()), "{what} shows a secret ({s})");
        }
        searched += text.len();
    }
    assert!(
        searched > 100_000,
        "the texts were searched ({searched} bytes)"
    );
}

#[test]
fn an_owner_requires_two_factors_and_resets_them() {
    let office = Office::new();
    let mut owner = office.signed_in("owner@alpha.de");
    let mut viewer = office.signed_in("viewer@alpha.de");
    let refused = viewer.act(
        "/dashboard",
        "/settings/users/two-factor",
        &[("required", "yes")],
    );
    assert_eq!(refused.status, 403);
    let people = owner.get("/settings/users");
    assert!(people.body.contains("Require two factors of everyone"));
    owner
        .act(
            "/settings/users",
            "/settings/users/two-factor",
            &[("required", "no"), ("required", "yes")],
        )
        .redirects_to("/settings/users?done=two-factor");
    assert_eq!(
        office.count("SELECT count(*) FROM audit WHERE act = 'company.two_factor_changed'"),
        1
    );
    // Everyone without a second factor is led to set one up, and nothing else opens.
    for path in ["/dashboard", "/customers", "/settings/users", "/invoices"] {
        owner.get(path).redirects_to("/account");
        viewer.get(path).redirects_to("/account");
    }
    let account = viewer.get("/account");
    assert_eq!(account.status, 200);
    assert!(account
        .body
        .contains("This company requires two-factor sign-in"));
    let mut accountant = office.browser();
    accountant
        .login("accountant@alpha.de", PASSWORD)
        .redirects_to("/dashboard");
    accountant.get("/dashboard").redirects_to("/account");
    // The owner sets up an app and may act again; so does the accountant.
    turn_on(&mut owner);
    assert_eq!(owner.get("/dashboard").status, 200);
    let (secret, _, _) = turn_on(&mut accountant);
    assert_eq!(accountant.get("/customers").status, 200);
    let accountant_id: String = office
        .db()
        .query_row(
            "SELECT id FROM users WHERE email = 'accountant@alpha.de'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let person_page = format!("/settings/users/{accountant_id}");
    let page = owner.get(&person_page);
    assert!(
        page.body.contains("on (authenticator app)"),
        "{}",
        page.body
    );
    assert!(!page.body.contains(&secret));

    // The owner resets the accountant's factors: their session ends, they
    // sign in with the password alone and are led to set one up again.
    owner
        .act(
            &person_page,
            &format!("{person_page}/two-factor-reset"),
            &[],
        )
        .redirects_to(&format!("{person_page}?done=two-factor-reset"));
    assert!(owner.get(&person_page).body.contains(">off<"));
    accountant.get("/customers").redirects_to("/login");
    accountant.cookies.clear();
    accountant
        .login("accountant@alpha.de", PASSWORD)
        .redirects_to("/dashboard");
    accountant.get("/dashboard").redirects_to("/account");
    assert_eq!(
        office.count("SELECT count(*) FROM audit WHERE act = 'user.two_factor_reset' AND actor = 'owner@alpha.de'"),
        1
    );

    // Without mail settings, nobody is told by mail; with them, the person is.
    let notices =
        "SELECT count(*) FROM mails WHERE purpose = 'notice' AND recipient = 'accountant@alpha.de'";
    assert_eq!(office.count(notices), 0);
    office.data.ok(&[
        "company",
        "mail",
        "--company",
        &office.a,
        "--host",
        "localhost",
        "--mail-allow",
        "127.0.0.0/8",
        "--port",
        "2525",
        "--security",
        "none",
        "--from",
        "buero@alpha.example",
    ]);

    // The console resets too: the app set up again, then gone.
    turn_on(&mut accountant);
    let reset = office.data.ok(&[
        "user",
        "two-factor",
        "reset",
        "--company",
        &office.a,
        "--email",
        "accountant@alpha.de",
    ]);
    assert_eq!(reset["twoFactorReset"], true);
    assert_eq!(reset["email"], "accountant@alpha.de");
    assert_eq!(office.count(notices), 1);
    let subject: String = office
        .db()
        .query_row(
            "SELECT subject FROM mails WHERE purpose = 'notice'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(
        subject.starts_with("Ihre Zwei-Faktor-Anmeldung wurde zurückgesetzt"),
        "{subject}"
    );
    accountant.get("/account").redirects_to("/login");
    accountant.cookies.clear();
    accountant
        .login("accountant@alpha.de", PASSWORD)
        .redirects_to("/dashboard");
    assert_eq!(
        office.count(
            "SELECT count(*) FROM audit WHERE act = 'user.two_factor_reset' AND actor = 'system'"
        ),
        1
    );
    // An owner named by --as resets only a person of this company alone;
    // the requirement lifted, the person may act without a second factor.
    let (ok, _, stderr) = office.data.console(&[
        "user",
        "two-factor",
        "reset",
        "--company",
        &office.a,
        "--email",
        "nobody@alpha.de",
    ]);
    assert!(!ok && stderr.contains("nobody@alpha.de"), "{stderr}");
    owner
        .act(
            "/settings/users",
            "/settings/users/two-factor",
            &[("required", "no")],
        )
        .redirects_to("/settings/users?done=two-factor");
    assert_eq!(accountant.get("/dashboard").status, 200);
    // The person with an app still signs in with it; in German too.
    let step = password_step(&mut owner, "owner@alpha.de");
    assert!(step.body.contains("Code from the app"));
    owner.language = "de-DE,de;q=0.9";
    let step = password_step(&mut owner, "owner@alpha.de");
    assert!(
        step.body.contains("<title>Zweiter Faktor · kontor</title>"),
        "{}",
        step.body
    );
    assert!(step.body.contains("Code aus der App") && step.body.contains("Wiederherstellungscode"));
    accountant.language = "de-DE,de;q=0.9";
    let account = accountant.get("/account");
    assert!(
        account.body.contains("<title>Mein Konto · kontor</title>"),
        "{}",
        account.body
    );
    assert!(account.body.contains("Authenticator-App einrichten"));
}

#[test]
fn a_passkey_registration_names_the_relying_party_and_refuses_what_cannot_verify() {
    // Without a public URL the relying party is localhost.
    let office = Office::new();
    let mut viewer = office.signed_in("viewer@alpha.de");
    let account = viewer.get("/account");
    assert_eq!(account.status, 200);
    let policy = account.header("content-security-policy").unwrap();
    assert!(policy.contains("script-src 'self'"), "{policy}");
    assert!(!policy.contains("unsafe-inline"), "{policy}");
    assert!(account
        .body
        .contains("<script src=\"/static/passkeys.js\">"));
    // Every other page still runs no script.
    let dashboard = viewer.get("/dashboard");
    assert!(!dashboard
        .header("content-security-policy")
        .unwrap()
        .contains("script-src"));
    let script = viewer.get("/static/passkeys.js");
    assert_eq!(script.status, 200);
    assert!(script
        .header("content-type")
        .unwrap()
        .starts_with("text/javascript"));
    assert!(script.body.contains("navigator.credentials.create"));
    let begun = viewer.post(
        "/account/passkeys/begin",
        &[("csrf", &account.csrf()), ("name", "Laptop")],
    );
    assert_eq!(begun.status, 200, "{}", begun.body);
    let options: serde_json::Value = serde_json::from_str(&begun.body).unwrap();
    assert_eq!(options["publicKey"]["rp"]["id"], "localhost");
    assert_eq!(options["publicKey"]["user"]["name"], "viewer@alpha.de");
    assert_eq!(
        options["publicKey"]["authenticatorSelection"]["userVerification"],
        "required"
    );
    // The begin takes the session's token like every post.
    let forged = viewer.post(
        "/account/passkeys/begin",
        &[("csrf", "forged"), ("name", "Laptop")],
    );
    assert_eq!(forged.status, 403);
    // An answer that is no passkey, or none at all, registers nothing.
    let refused = viewer.post(
        "/account/passkeys",
        &[
            ("csrf", &account.csrf()),
            ("name", "Laptop"),
            ("credential", "{\"id\": \"x\"}"),
        ],
    );
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert!(
        refused.body.contains("nothing was registered"),
        "{}",
        refused.body
    );
    let none = viewer.post(
        "/account/passkeys",
        &[
            ("csrf", &account.csrf()),
            ("name", "Laptop"),
            ("credential", ""),
        ],
    );
    assert_eq!(none.status, 400);
    assert!(none.body.contains("needs JavaScript"));
    assert_eq!(office.count("SELECT count(*) FROM passkeys"), 0);
    let unnamed = viewer.post(
        "/account/passkeys/begin",
        &[("csrf", &account.csrf()), ("name", " ")],
    );
    assert_eq!(unnamed.status, 400);
    assert!(unnamed.body.contains("name"), "{}", unnamed.body);

    // Behind a public URL, its host; at an IP address, a sentence why not.
    let named = Office::configured(|c| c.public_urls = vec!["https://books.example.com".into()]);
    let mut owner = named.signed_in("owner@alpha.de");
    let token = owner.get("/account").csrf();
    let begun = owner.post(
        "/account/passkeys/begin",
        &[("csrf", &token), ("name", "Key")],
    );
    let options: serde_json::Value = serde_json::from_str(&begun.body).unwrap();
    assert_eq!(options["publicKey"]["rp"]["id"], "books.example.com");
    let numbered = Office::configured(|c| c.public_urls = vec!["http://127.0.0.1:9".into()]);
    let mut owner = numbered.signed_in("owner@alpha.de");
    let token = owner.get("/account").csrf();
    let begun = owner.post(
        "/account/passkeys/begin",
        &[("csrf", &token), ("name", "Key")],
    );
    assert_eq!(begun.status, 409, "{}", begun.body);
    let problem: serde_json::Value = serde_json::from_str(&begun.body).unwrap();
    assert!(
        problem["problem"]
            .as_str()
            .unwrap()
            .contains("WebAuthn refuses IP addresses"),
        "{problem}"
    );
}
