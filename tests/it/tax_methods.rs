//! A company's tax methods through the console and the screens: the EÜR is
//! refused to every legal form that must draw up a balance sheet (and the
//! refused command changes nothing, not even the legal form it named), VAT
//! on payments wants its ground of § 20 UStG, a change holds from a
//! period's first day (a quarter's when the period changes, a fiscal year's
//! when the profit method does), a day in the past only while the books
//! hold nothing dated on or after it, and without a day from the first one
//! it may; the owner sets them on Settings → Tax methods, others only read.

use serde_json::Value;

use crate::support::screens::{invoice, Office};
use crate::support::DataFile;

/// `company set` expected to be refused; returns the refusal's text.
#[track_caller]
fn refused(data: &DataFile, args: &[&str]) -> String {
    let (ok, _, stderr) = data.console(args);
    assert!(!ok, "kontor {args:?} was taken");
    stderr
}

/// The changes of a company's methods, as `company show` lists them.
fn changes(data: &DataFile, company: &str) -> Vec<Value> {
    data.ok(&["company", "show", company])["taxMethods"]["changes"]
        .as_array()
        .unwrap()
        .clone()
}

fn legal_form(data: &DataFile, company: &str) -> Value {
    data.ok(&["company", "show", company])["particulars"]["legalForm"].clone()
}

#[test]
fn the_euer_is_refused_to_every_form_that_must_draw_up_a_balance_sheet_and_nothing_changes() {
    let data = DataFile::new();
    let c = data.company("Frei Design", "STARTER");
    let why = refused(&data, &["company", "set", &c, "--profit-method", "euer"]);
    assert!(why.contains("set the company's legal form first"), "{why}");
    for form in ["gmbh", "ug", "ag", "ohg", "kg", "gmbh-co-kg"] {
        let why = refused(
            &data,
            &[
                "company",
                "set",
                &c,
                "--legal-form",
                form,
                "--profit-method",
                "euer",
            ],
        );
        assert!(
            why.contains("must draw up a balance sheet (§ 238, § 242 HGB)"),
            "{form}: {why}"
        );
        // The legal form named with the refused method is not kept either.
        assert_eq!(legal_form(&data, &c), Value::Null, "{form}");
    }
    assert!(changes(&data, &c).is_empty());
    let why = refused(&data, &["company", "set", &c, "--legal-form", "ltd"]);
    assert!(
        why.contains("GMBH_CO_KG, GMBH, UG or AG, not \"ltd\""),
        "{why}"
    );

    // A registered trader may, with the thresholds said.
    let set = data.ok(&[
        "company",
        "set",
        &c,
        "--legal-form",
        "registered-trader",
        "--profit-method",
        "euer",
    ]);
    assert!(
        set["warning"].as_str().unwrap().contains("§ 241a HGB"),
        "{set}"
    );
    assert_eq!(set["particulars"]["legalForm"], "REGISTERED_TRADER");
    assert_eq!(set["taxMethods"]["today"]["profitMethod"], "EUER");
    // … and then cannot become a GmbH while it keeps the EÜR.
    let why = refused(&data, &["company", "set", &c, "--legal-form", "gmbh"]);
    assert!(why.contains("change the profit method first"), "{why}");
    assert_eq!(legal_form(&data, &c), "REGISTERED_TRADER");

    // VAT on payments received wants its ground, and only with ist.
    let why = refused(&data, &["company", "set", &c, "--vat-method", "ist"]);
    assert!(why.contains("§ 20 sentence 1 UStG"), "{why}");
    let why = refused(&data, &["company", "set", &c, "--ist-reason", "freelance"]);
    assert!(
        why.contains("goes with VAT on payments received only"),
        "{why}"
    );
    let why = refused(&data, &["company", "set", &c, "--vat-method", "cash"]);
    assert!(why.contains("SOLL or IST, not \"cash\""), "{why}");
    let set = data.ok(&[
        "company",
        "set",
        &c,
        "--vat-method",
        "ist",
        "--ist-reason",
        "freelance",
    ]);
    assert_eq!(set["taxMethods"]["today"]["vatMethod"], "IST");
    assert_eq!(set["taxMethods"]["today"]["istReason"], "FREELANCE");

    // A company outside Germany has neither.
    let at = data.ok(&[
        "company",
        "create",
        "--name",
        "Wien",
        "--country",
        "AT",
        "--currency",
        "EUR",
    ]);
    let at = at["id"].as_str().unwrap();
    data.ok(&["company", "set", at, "--legal-form", "sole-proprietor"]);
    let why = refused(&data, &["company", "set", at, "--profit-method", "euer"]);
    assert!(why.contains("methods of German tax law"), "{why}");
    assert!(changes(&data, at).is_empty());
}

#[test]
fn a_change_holds_from_a_periods_first_day_and_from_the_past_only_while_nothing_is_dated_there() {
    let office = Office::new();
    let data = &office.data;
    let c = &office.a;
    data.ok(&["company", "set", c, "--legal-form", "sole-proprietor"]);
    let ist = [
        "company",
        "set",
        c,
        "--vat-method",
        "ist",
        "--ist-reason",
        "turnover",
    ];
    let with = |extra: &[&'static str]| [&ist[..], extra].concat();

    let why = refused(data, &with(&["--from", "2026-03-15"]));
    assert!(
        why.contains("a month's first day (the VAT return is monthly), not from 2026-03-15"),
        "{why}"
    );
    data.ok(&with(&["--from", "2026-03-01"]));
    let why = refused(
        data,
        &[
            "company",
            "set",
            c,
            "--vat-period",
            "quarterly",
            "--from",
            "2026-05-01",
        ],
    );
    assert!(
        why.contains("a quarter's first day (the VAT period changes)"),
        "{why}"
    );
    let why = refused(
        data,
        &[
            "company",
            "set",
            c,
            "--profit-method",
            "euer",
            "--from",
            "2026-04-01",
        ],
    );
    assert!(why.contains("a fiscal year's first day"), "{why}");
    let why = refused(
        data,
        &[
            "company",
            "set",
            c,
            "--vat-method",
            "soll",
            "--from",
            "2026-02-30",
        ],
    );
    assert!(why.contains("from"), "{why}");
    assert_eq!(changes(data, c).len(), 1);

    // Once an invoice is dated 10 June, no change may hold from before it.
    invoice(&office, c, "Kunde Juni", 10_000, "2026-06-10");
    let why = refused(
        data,
        &[
            "company",
            "set",
            c,
            "--vat-method",
            "soll",
            "--from",
            "2026-06-01",
        ],
    );
    assert!(why.contains("dated up to 2026-06-10"), "{why}");
    let why = refused(
        data,
        &[
            "company",
            "set",
            c,
            "--vat-method",
            "soll",
            "--from",
            "2026-03-01",
        ],
    );
    assert!(why.contains("dated up to 2026-06-10"), "{why}");
    let set = data.ok(&[
        "company",
        "set",
        c,
        "--vat-method",
        "soll",
        "--from",
        "2026-07-01",
    ]);
    let all = changes(data, c);
    assert_eq!(all.len(), 2, "{set}");
    assert_eq!(
        (all[0]["from"].as_str(), all[0]["vatMethod"].as_str()),
        (Some("2026-03-01"), Some("IST"))
    );
    assert_eq!(
        (all[1]["from"].as_str(), all[1]["vatMethod"].as_str()),
        (Some("2026-07-01"), Some("SOLL"))
    );
    assert_eq!(all[1]["istReason"], Value::Null);

    // Without a day: once something is dated in the current period, the
    // next period's first day.
    let today = data.ok(&["company", "show", c])["taxMethods"]["today"].clone();
    let key = data.key(c, "production", "all");
    let customer = office.api().customer(&key, "Kunde heute");
    let draft = office.api().draft(&key, &customer);
    data.line(&draft, 5_000, "19", false);
    let issued = data.ok(&["draft", "issue", &draft]);
    let issued_on = issued["issuedOn"].as_str().unwrap().to_string();
    let set = data.ok(&["company", "set", c, "--vat-extension", "yes"]);
    let all = changes(data, c);
    let last = all.last().unwrap();
    let from = last["from"].as_str().unwrap();
    assert!(
        from.ends_with("-01") && from > issued_on.as_str(),
        "{from} after {issued_on}"
    );
    assert_eq!(last["extension"], true);
    // Today still holds what held before.
    assert_eq!(set["taxMethods"]["today"], today);
    // The owner's act is in the audit with its day.
    let acts = office.count(&format!(
        "SELECT COUNT(*) FROM audit WHERE company_id = '{c}' AND act = 'company.tax_methods_changed'"
    ));
    assert_eq!(acts, 3);
}

#[test]
fn the_owner_sets_the_methods_on_the_screen_and_the_others_only_read_them() {
    let office = Office::new();
    let mut owner = office.signed_in("owner@alpha.de");
    let page = owner.get("/settings");
    assert!(
        page.body.contains("href=\"/settings/tax\""),
        "{}",
        page.body
    );
    let page = owner.get("/settings/tax");
    assert_eq!(page.status, 200);
    assert!(
        page.body.contains("<title>Tax methods · kontor</title>"),
        "{}",
        page.body
    );
    assert!(page.body.contains("On invoices issued (Sollversteuerung)"));

    let form = |legal: &'static str, profit: &'static str| {
        vec![
            ("legalForm", legal),
            ("vatMethod", "ist"),
            ("istReason", "freelance"),
            ("profitMethod", profit),
            ("vatPeriod", "quarterly"),
            ("vatExtension", "no"),
            ("from", ""),
        ]
    };
    // A GmbH is refused the EÜR, beside the form, and nothing is kept.
    let page = owner.act("/settings/tax", "/settings/tax", &form("gmbh", "euer"));
    assert_eq!(page.status, 409, "{}", page.body);
    assert!(
        page.body.contains("must draw up a balance sheet"),
        "{}",
        page.body
    );
    assert_eq!(office.count("SELECT COUNT(*) FROM tax_methods"), 0);
    assert_eq!(legal_form(&office.data, &office.a), Value::Null);

    owner
        .act(
            "/settings/tax",
            "/settings/tax",
            &form("sole_proprietor", "euer"),
        )
        .redirects_to("/settings/tax?saved=methods");
    let shown = office.data.ok(&["company", "show", &office.a]);
    assert_eq!(shown["particulars"]["legalForm"], "SOLE_PROPRIETOR");
    let today = &shown["taxMethods"]["today"];
    assert_eq!(
        (
            today["vatMethod"].as_str(),
            today["profitMethod"].as_str(),
            today["returnPeriod"].as_str()
        ),
        (Some("IST"), Some("EUER"), Some("QUARTERLY"))
    );
    assert_eq!(
        today["from"].as_str().map(|d| d.ends_with("-01-01")),
        Some(true),
        "{today}"
    );

    // In German, the page names them as the forms do.
    let token = owner.get("/settings/tax").csrf();
    owner.post("/session/language", &[("csrf", &token), ("language", "de")]);
    let page = owner.get("/settings/tax");
    assert!(
        page.body
            .contains("<title>Steuerliche Angaben · kontor</title>"),
        "{}",
        page.body
    );
    assert!(page
        .body
        .contains("Nach vereinnahmten Entgelten (Istversteuerung, § 20 UStG)"));
    assert!(page
        .body
        .contains("Einnahmenüberschussrechnung (EÜR, § 4 Abs. 3 EStG)"));
    assert!(page.body.contains("Vierteljährlich"));

    // The accountant and the viewer read them and cannot change them.
    for who in ["accountant@alpha.de", "viewer@alpha.de"] {
        let mut person = office.signed_in(who);
        let page = person.get("/settings/tax");
        assert_eq!(page.status, 200, "{who}");
        assert!(page.body.contains("On payments received"), "{who}");
        assert!(!page.body.contains("action=\"/settings/tax\""), "{who}");
        let token = page.csrf();
        let mut fields = vec![("csrf", token.as_str())];
        fields.extend(form("sole_proprietor", "balance"));
        let refused = person.post("/settings/tax", &fields);
        assert_eq!(refused.status, 403, "{who}: {}", refused.body);
    }
    assert_eq!(office.count("SELECT COUNT(*) FROM tax_methods"), 1);
}
