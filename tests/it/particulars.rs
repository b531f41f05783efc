//! The seller's and the buyer's particulars, set by a person on the console:
//! `company create | set | show`, `customer set`, `draft set`. Every flag is
//! stored and shown; every refusal exits non-zero with a sentence and
//! changes nothing; a record of another company or environment is not
//! found; older data files come up with the new columns empty.

use rusqlite::Connection;
use serde_json::{json, Value};

use crate::migrations::{user_version, v1_copy};
use crate::support::{start, Client, DataFile};

/// Every particular, as `company create` and `company set` take them.
const ALL: &[&str] = &[
    "--legal-name",
    "Nordlicht Werkstatt GmbH",
    "--street",
    "Stresemannstraße 48",
    "--postal-code",
    "22769",
    "--city",
    "Hamburg",
    "--vat-id",
    "de 815 739 245",
    "--tax-number",
    "43/815/08156",
    "--registration",
    "HRB 171234, Amtsgericht Hamburg",
    "--contact-name",
    "Jana Petersen",
    "--contact-phone",
    "+49 40 3861 2240",
    "--contact-email",
    "buchhaltung@nordlicht-werkstatt.de",
    "--electronic-address",
    "em:rechnung@nordlicht-werkstatt.de",
    "--iban",
    "de20 2005 0550 1280 1635 74",
    "--bic",
    "haspdehhxxx",
    "--account-holder",
    "Nordlicht Werkstatt GmbH",
    "--managing-directors",
    "Jana Petersen, Ole Brandt",
    "--small-business",
];

/// `ALL` as stored and shown: compact, upper case where it is a code.
fn all_shown() -> Value {
    json!({
        "legalName": "Nordlicht Werkstatt GmbH",
        "street": "Stresemannstraße 48",
        "postalCode": "22769",
        "city": "Hamburg",
        "vatId": "DE815739245",
        "taxNumber": "43/815/08156",
        "registration": "HRB 171234, Amtsgericht Hamburg",
        "contactName": "Jana Petersen",
        "contactPhone": "+49 40 3861 2240",
        "contactEmail": "buchhaltung@nordlicht-werkstatt.de",
        "electronicAddress": {"scheme": "EM", "value": "rechnung@nordlicht-werkstatt.de"},
        "iban": "DE20200505501280163574",
        "bic": "HASPDEHHXXX",
        "accountHolder": "Nordlicht Werkstatt GmbH",
        "managingDirectors": "Jana Petersen, Ole Brandt",
        "smallBusiness": true,
        "legalForm": null
    })
}

fn none_shown() -> Value {
    json!({
        "legalName": null, "street": null, "postalCode": null, "city": null, "vatId": null,
        "taxNumber": null, "registration": null, "contactName": null, "contactPhone": null,
        "contactEmail": null, "electronicAddress": null, "iban": null, "bic": null,
        "accountHolder": null, "managingDirectors": null, "smallBusiness": false,
        "legalForm": null
    })
}

fn show(data: &DataFile, company: &str) -> Value {
    data.ok(&["company", "show", company])
}

/// Runs a command that must be refused: exit non-zero, nothing on stdout,
/// `sentence` on stderr; `unchanged` reads the same before and after.
#[track_caller]
fn refused(data: &DataFile, args: &[&str], sentence: &str, unchanged: &dyn Fn() -> Value) {
    let before = unchanged();
    let (ok, out, err) = data.console(args);
    assert!(!ok, "kontor {args:?} was not refused");
    assert_eq!(out, Value::Null, "kontor {args:?} printed a record");
    assert_eq!(err.trim_end(), format!("kontor: {sentence}"), "{args:?}");
    assert_eq!(unchanged(), before, "kontor {args:?} changed something");
}

#[test]
fn company_create_takes_every_particular_and_show_prints_them() {
    let data = DataFile::new();
    let mut args = vec![
        "company",
        "create",
        "--name",
        "Nordlicht",
        "--country",
        "DE",
        "--currency",
        "EUR",
    ];
    args.extend(ALL);
    let created = data.ok(&args);
    assert_eq!(created["particulars"], all_shown());
    let id = created["id"].as_str().unwrap();
    assert_eq!(show(&data, id), created);
    assert_eq!(created["name"], json!("Nordlicht"));

    // A company made without them has none.
    let plain = data.ok(&[
        "company",
        "create",
        "--name",
        "Ohne GmbH",
        "--country",
        "DE",
        "--currency",
        "EUR",
    ])["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(show(&data, &plain)["particulars"], none_shown());
    let (ok, _, err) = data.console(&["company", "show", "org_nope"]);
    assert!(!ok);
    assert_eq!(err.trim_end(), "kontor: Company org_nope was not found.");
}

#[test]
fn company_set_sets_each_particular_and_clears_what_it_names() {
    let data = DataFile::new();
    let id = data.company("Nordlicht", "STARTER");
    let shown = |field: &str| show(&data, &id)["particulars"][field].clone();
    // One flag at a time: each is stored on its own and shown.
    let expected = all_shown();
    for pair in ALL.chunks(2).filter(|pair| pair.len() == 2) {
        let field = kebab_to_camel(&pair[0][2..]);
        let answer = data.ok(&["company", "set", &id, pair[0], pair[1]]);
        assert_eq!(
            answer["particulars"][&field], expected[&field],
            "{}",
            pair[0]
        );
        assert_eq!(shown(&field), expected[&field], "{}", pair[0]);
    }
    data.ok(&["company", "set", &id, "--small-business"]);
    assert_eq!(show(&data, &id)["particulars"], expected);

    // What is not named stays; --clear empties what it names; the flag of
    // small businesses is turned off again.
    let after = data.ok(&[
        "company",
        "set",
        &id,
        "--city",
        "Altona",
        "--clear",
        "iban",
        "--clear",
        "vat-id",
        "--clear",
        "electronic-address",
        "--no-small-business",
    ]);
    let mut expected = all_shown();
    expected["city"] = json!("Altona");
    expected["iban"] = Value::Null;
    expected["vatId"] = Value::Null;
    expected["electronicAddress"] = Value::Null;
    expected["smallBusiness"] = json!(false);
    assert_eq!(after["particulars"], expected);
    assert_eq!(show(&data, &id), after);
    // Nothing named: nothing changes.
    assert_eq!(data.ok(&["company", "set", &id]), after);
}

fn kebab_to_camel(flag: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in flag.chars() {
        if c == '-' {
            upper = true;
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn company_set_refuses_bad_particulars_with_a_sentence_and_changes_nothing() {
    let data = DataFile::new();
    let id = data.company("Nordlicht", "STARTER");
    let mut args = vec!["company", "set", id.as_str()];
    args.extend(ALL);
    data.ok(&args);
    let now = || show(&data, &id);
    let set = |flag: &'static str, value: &'static str| ["company", "set", &id, flag, value];
    refused(
        &data,
        &set("--iban", "DE21 2005 0550 1280 1635 74"),
        "--iban fails the IBAN check digits (mod 97); look for a mistyped character.",
        &now,
    );
    refused(
        &data,
        &set("--iban", "DE20 2005 0550 1280 1635 7"),
        "--iban has 21 characters, but an IBAN of DE has 22.",
        &now,
    );
    refused(
        &data,
        &set("--iban", "NL20 2005 0550 1280 1635 74"),
        "--iban has 22 characters, but an IBAN of NL has 18.",
        &now,
    );
    refused(
        &data,
        &set("--iban", "US64SVBKUS6S3300958879"),
        "--iban starts with \"US\", which is no country of the IBAN registry.",
        &now,
    );
    refused(
        &data,
        &set("--bic", "HASPDEH"),
        "--bic is not a BIC: it has 8 or 11 letters and digits, such as COBADEFFXXX.",
        &now,
    );
    refused(
        &data,
        &set("--bic", "HASPZZHHXXX"),
        "--bic names the country \"ZZ\" (its 5th and 6th characters), which is no ISO 3166 country.",
        &now,
    );
    refused(
        &data,
        &set("--electronic-address", "9999:DE815739245"),
        "--electronic-address names the scheme \"9999\", which is not on the EAS code list (such as 0204 Leitweg-ID, 9930 German VAT id, 0088 GLN, EM e-mail).",
        &now,
    );
    refused(
        &data,
        &set("--electronic-address", "rechnung@nordlicht-werkstatt.de"),
        "--electronic-address takes SCHEME:VALUE with an EAS scheme, such as 0204:04011000-1234512345-06 or EM:rechnung@example.de.",
        &now,
    );
    refused(
        &data,
        &set("--contact-email", "buchhaltung"),
        "--contact-email is not an e-mail address.",
        &now,
    );
    refused(
        &data,
        &set("--contact-phone", "zentrale"),
        "--contact-phone is not a telephone number: it has fewer than three digits.",
        &now,
    );
    refused(
        &data,
        &set("--registration", " "),
        "--registration must not be empty.",
        &now,
    );
    refused(
        &data,
        &["company", "set", &id, "--bic", "HASPDEHH", "--clear", "bic"],
        "--bic is given and cleared at once; do one or the other.",
        &now,
    );
    // A VAT id failing its check digit is refused at once, by the rules of
    // its own prefix's country.
    let (ok, out, err) = data.console(&set("--vat-id", "DE815739246"));
    assert!(!ok && out.is_null());
    assert!(err.starts_with("kontor: The VAT id DE815739246"), "{err}");
    assert!(err.contains("check digit"), "{err}");
    assert_eq!(now()["particulars"]["vatId"], json!("DE815739245"));
    // Every bad field at once, and still nothing changed.
    let before = now();
    let (ok, _, err) = data.console(&[
        "company", "set", &id, "--city", "Altona", "--iban", "DE00", "--bic", "X",
    ]);
    assert!(!ok);
    assert!(err.contains("--iban") && err.contains("--bic"), "{err}");
    assert_eq!(now(), before);
    // company create refuses the same way and makes no company.
    let (ok, _, err) = data.console(&[
        "company",
        "create",
        "--name",
        "Zweite",
        "--country",
        "DE",
        "--currency",
        "EUR",
        "--iban",
        "DE21200505501280163574",
    ]);
    assert!(!ok);
    assert_eq!(
        err.trim_end(),
        "kontor: --iban fails the IBAN check digits (mod 97); look for a mistyped character."
    );
    let companies: i64 = Connection::open(&data.path)
        .unwrap()
        .query_row("SELECT count(*) FROM companies", [], |r| r.get(0))
        .unwrap();
    assert_eq!(companies, 1);
}

/// A data file with an Enterprise company, a live key and a server.
struct Books {
    data: DataFile,
    company: String,
    live: String,
    test: String,
    client: Client,
    _server: kontor::http::server::Server,
}

fn books() -> Books {
    let data = DataFile::new();
    let company = data.company("Erste GmbH", "ENTERPRISE");
    let live = data.key(&company, "production", "all");
    let test = data.key(&company, "sandbox", "all");
    let server = start(&data);
    let client = Client { addr: server.addr };
    Books {
        data,
        company,
        live,
        test,
        client,
        _server: server,
    }
}

impl Books {
    fn customer(&self, id: &str) -> Value {
        let a = self.client.get(&self.live, &format!("/v1/customers/{id}"));
        assert_eq!(a.status, 200, "{:?}", a.body);
        a.body
    }
}

#[test]
fn customer_set_sets_the_buyers_particulars_and_the_api_shows_them() {
    let b = books();
    let created = b.client.customer(&b.live, "Stadtwerke Lüneburg");
    let id = created["id"].as_str().unwrap();
    assert_eq!(
        (
            &created["buyerReference"],
            &created["electronicAddress"],
            &created["einvoice"]
        ),
        (&Value::Null, &Value::Null, &json!("facturx"))
    );
    let set = b.data.ok(&[
        "customer",
        "set",
        id,
        "--name",
        "Stadtwerke Lüneburg GmbH",
        "--street",
        "Am Sande 1",
        "--postal-code",
        "21335",
        "--city",
        "Lüneburg",
        "--country",
        "de",
        "--vat-id",
        "DE 298 110 463",
        "--buyer-reference",
        "03355022-32100-28",
        "--electronic-address",
        "0204:03355022-32100-28",
        "--einvoice",
        "XRechnung",
    ]);
    let mut expected = created.clone();
    for (field, value) in [
        ("name", json!("Stadtwerke Lüneburg GmbH")),
        ("street", json!("Am Sande 1")),
        ("postalCode", json!("21335")),
        ("city", json!("Lüneburg")),
        ("country", json!("DE")),
        ("vatId", json!("DE298110463")),
        ("buyerReference", json!("03355022-32100-28")),
        (
            "electronicAddress",
            json!({"scheme": "0204", "value": "03355022-32100-28"}),
        ),
        ("einvoice", json!("xrechnung")),
    ] {
        expected[field] = value;
    }
    assert_eq!(set, expected);
    assert_eq!(b.customer(id), expected, "the API shows what was set");

    // Each flag on its own, the rest stays; --clear empties.
    let one = b.data.ok(&["customer", "set", id, "--einvoice", "peppol"]);
    expected["einvoice"] = json!("peppol");
    assert_eq!(one, expected);
    let cleared = b.data.ok(&[
        "customer",
        "set",
        id,
        "--clear",
        "vat-id",
        "--clear",
        "buyer-reference",
        "--clear",
        "electronic-address",
    ]);
    expected["vatId"] = Value::Null;
    expected["buyerReference"] = Value::Null;
    expected["electronicAddress"] = Value::Null;
    assert_eq!(cleared, expected);
    assert_eq!(b.customer(id), expected);
    // A VAT id whose country differs from the address is allowed.
    let foreign = b
        .data
        .ok(&["customer", "set", id, "--vat-id", "ATU13585627"]);
    assert_eq!(foreign["vatId"], json!("ATU13585627"));
}

#[test]
fn customer_set_refuses_bad_particulars_and_changes_nothing() {
    let b = books();
    let id = b.client.customer(&b.live, "Kunde")["id"]
        .as_str()
        .unwrap()
        .to_string();
    let now = || b.customer(&id);
    let set = |flag: &'static str, value: &'static str| ["customer", "set", &id, flag, value];
    refused(
        &b.data,
        &set("--electronic-address", "XX:kunde@example.de"),
        "--electronic-address names the scheme \"XX\", which is not on the EAS code list (such as 0204 Leitweg-ID, 9930 German VAT id, 0088 GLN, EM e-mail).",
        &now,
    );
    refused(
        &b.data,
        &set("--electronic-address", "EM:kunde"),
        "--electronic-address names the scheme EM, but \"kunde\" is not an e-mail address.",
        &now,
    );
    refused(
        &b.data,
        &set("--einvoice", "pdf"),
        "--einvoice is facturx, xrechnung or peppol, not \"pdf\".",
        &now,
    );
    refused(&b.data, &set("--name", " "), "--name is missing.", &now);
    refused(
        &b.data,
        &set("--country", "XX"),
        "--country must be an ISO 3166-1 alpha-2 country code such as DE; \"XX\" is not one.",
        &now,
    );
    refused(
        &b.data,
        &[
            "customer", "set", &id, "--vat-id", "DE1", "--clear", "vat-id",
        ],
        "--vat-id is given and cleared at once; do one or the other.",
        &now,
    );
    // The person's VAT id is checked at once, with the rules of its prefix.
    let before = now();
    let (ok, out, err) = b.data.console(&set("--vat-id", "DE298110464"));
    assert!(!ok && out.is_null());
    assert!(err.starts_with("kontor: The VAT id DE298110464"), "{err}");
    assert_eq!(now(), before);
    // The API's creation stays unchecked, as the contract says.
    let a = b.client.post(
        &b.live,
        "/v1/customers",
        &crate::support::unique(),
        &json!({"name": "Ungeprüft", "street": "A 1", "postalCode": "1", "city": "B", "vatId": "DE298110464"}),
    );
    assert_eq!(a.status, 201, "{:?}", a.body);
}

/// A draft of a fresh customer with the buyer reference `reference`.
fn draft_for(b: &Books, reference: Option<&str>) -> (String, String) {
    let customer = b.client.customer(&b.live, "Müller Bau GmbH");
    let id = customer["id"].as_str().unwrap().to_string();
    if let Some(reference) = reference {
        b.data
            .ok(&["customer", "set", &id, "--buyer-reference", reference]);
    }
    (id, b.client.draft(&b.live, &customer))
}

#[test]
fn a_draft_takes_the_customers_buyer_reference_and_may_override_it() {
    let b = books();
    let (customer, draft) = draft_for(&b, Some("MB-EK-4711"));
    let shown = b.data.ok(&["draft", "set", &draft]);
    assert_eq!(
        (
            &shown["buyerReference"],
            &shown["orderReference"],
            &shown["period"]
        ),
        (&json!("MB-EK-4711"), &Value::Null, &Value::Null)
    );
    let set = b.data.ok(&[
        "draft",
        "set",
        &draft,
        "--buyer-reference",
        "Projekt Lagerhalle",
        "--order-reference",
        "PO-2026-118",
        "--period",
        "2026-11-01..2026-11-30",
    ]);
    assert_eq!(set["buyerReference"], json!("Projekt Lagerhalle"));
    assert_eq!(set["orderReference"], json!("PO-2026-118"));
    assert_eq!(
        set["period"],
        json!({"from": "2026-11-01", "to": "2026-11-30"})
    );
    // The API's draft shows the same (a replay of its creation reads it anew).
    assert_eq!(set["id"], json!(draft));
    // A one-day period; the customer's later change does not touch the override.
    let one_day = b
        .data
        .ok(&["draft", "set", &draft, "--period", "2026-11-05..2026-11-05"]);
    assert_eq!(
        one_day["period"],
        json!({"from": "2026-11-05", "to": "2026-11-05"})
    );
    b.data.ok(&[
        "customer",
        "set",
        &customer,
        "--buyer-reference",
        "MB-EK-4712",
    ]);
    assert_eq!(
        b.data.ok(&["draft", "set", &draft])["buyerReference"],
        json!("Projekt Lagerhalle")
    );
    // Cleared, the customer's applies again.
    let cleared = b.data.ok(&[
        "draft",
        "set",
        &draft,
        "--clear",
        "buyer-reference",
        "--clear",
        "order-reference",
        "--clear",
        "period",
    ]);
    assert_eq!(
        (
            &cleared["buyerReference"],
            &cleared["orderReference"],
            &cleared["period"]
        ),
        (&json!("MB-EK-4712"), &Value::Null, &Value::Null)
    );
}

#[test]
fn draft_set_refuses_bad_periods_and_issued_drafts_and_changes_nothing() {
    let b = books();
    let (_, draft) = draft_for(&b, None);
    b.data.ok(&[
        "draft",
        "set",
        &draft,
        "--order-reference",
        "PO-1",
        "--period",
        "2026-11-01..2026-11-30",
    ]);
    let now = || b.data.ok(&["draft", "set", &draft]);
    let set = |value: &'static str| ["draft", "set", &draft, "--period", value];
    refused(
        &b.data,
        &set("2026-11-30..2026-11-01"),
        "--period ends on 2026-11-01, before it starts on 2026-11-30.",
        &now,
    );
    refused(
        &b.data,
        &set("2026-11-01"),
        "--period takes FROM..TO, two ISO dates such as 2026-11-01..2026-11-30, not \"2026-11-01\".",
        &now,
    );
    let (ok, out, err) = b.data.console(&set("2026-11-01..2026-13-01"));
    assert!(!ok && out.is_null());
    assert!(err.starts_with("kontor: --period "), "{err}");
    refused(
        &b.data,
        &["draft", "set", &draft, "--order-reference", ""],
        "--order-reference must not be empty.",
        &now,
    );

    // Issued, a draft is no longer set.
    b.data.line(&draft, 10_000, "19", false);
    b.data.ok(&["draft", "issue", &draft]);
    let issued = || {
        let conn = Connection::open(&b.data.path).unwrap();
        let row: (String, Option<String>, Option<String>, Option<String>) = conn
            .query_row(
                "SELECT state, buyer_reference, order_reference, period_start FROM drafts WHERE id = ?1",
                [&draft],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .unwrap();
        json!([row.0, row.1, row.2, row.3])
    };
    assert_eq!(
        issued(),
        json!(["ISSUED", null, "PO-1", "2026-11-01"]),
        "the references stay with the issued draft"
    );
    refused(
        &b.data,
        &["draft", "set", &draft, "--buyer-reference", "Zu spät"],
        &format!("Draft {draft} is already issued."),
        &issued,
    );
}

#[test]
fn another_companys_or_environments_customer_and_draft_are_not_found() {
    let b = books();
    let (customer, draft) = draft_for(&b, Some("A-1"));
    let other = b.data.company("Zweite GmbH", "ENTERPRISE");
    let now = || json!([b.customer(&customer), b.data.ok(&["draft", "set", &draft])]);
    refused(
        &b.data,
        &[
            "customer",
            "set",
            &customer,
            "--company",
            &other,
            "--buyer-reference",
            "B-1",
        ],
        &format!("Customer {customer} was not found."),
        &now,
    );
    refused(
        &b.data,
        &[
            "draft",
            "set",
            &draft,
            "--company",
            &other,
            "--order-reference",
            "B-1",
        ],
        &format!("Draft {draft} was not found."),
        &now,
    );
    // The sandbox does not see production's records.
    refused(
        &b.data,
        &[
            "customer",
            "set",
            &customer,
            "--sandbox",
            "--buyer-reference",
            "B-1",
        ],
        &format!("Customer {customer} was not found."),
        &now,
    );
    refused(
        &b.data,
        &[
            "draft",
            "set",
            &draft,
            "--sandbox",
            "--order-reference",
            "B-1",
        ],
        &format!("Draft {draft} was not found."),
        &now,
    );
    // With its own company named, the act goes through.
    let own = b.data.ok(&[
        "customer",
        "set",
        &customer,
        "--company",
        &b.company,
        "--buyer-reference",
        "A-2",
    ]);
    assert_eq!(own["buyerReference"], json!("A-2"));
    // A sandbox customer is set in the sandbox.
    let test_customer = b.client.customer(&b.test, "Testkunde");
    let test_id = test_customer["id"].as_str().unwrap();
    let set = b.data.ok(&[
        "customer",
        "set",
        test_id,
        "--sandbox",
        "--buyer-reference",
        "T-1",
    ]);
    assert_eq!(set["buyerReference"], json!("T-1"));
}

#[test]
fn the_demo_company_has_every_particular() {
    let data = DataFile::new();
    let demo =
        kontor::console::demo::seed(&kontor::store::db::Db::open(&data.path, 1).unwrap()).unwrap();
    let particulars = show(&data, &demo.company_id)["particulars"].clone();
    for (field, value) in particulars.as_object().unwrap() {
        if field != "smallBusiness" {
            assert!(!value.is_null(), "the demo company lacks {field}");
        }
    }
    assert_eq!(particulars["iban"], json!("DE20200505501280163574"));
    assert_eq!(particulars["bic"], json!("HASPDEHHXXX"));
    assert_eq!(particulars["vatId"], json!("DE815739245"));
    assert_eq!(particulars["smallBusiness"], json!(false));
}

/// The new columns of every row of a migrated file.
fn new_columns(path: &std::path::Path) -> Value {
    let conn = Connection::open(path).unwrap();
    let read = |sql: &str| -> Vec<Vec<Value>> {
        let mut stmt = conn.prepare(sql).unwrap();
        let width = stmt.column_count();
        stmt.query_map([], |r| {
            (0..width)
                .map(|i| {
                    r.get::<_, rusqlite::types::Value>(i).map(|v| match v {
                        rusqlite::types::Value::Null => Value::Null,
                        rusqlite::types::Value::Integer(i) => json!(i),
                        rusqlite::types::Value::Text(t) => json!(t),
                        other => json!(format!("{other:?}")),
                    })
                })
                .collect()
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
    };
    json!({
        "companies": read(
            "SELECT DISTINCT legal_name, street, postal_code, city, vat_id, tax_number, registration,
                    contact_name, contact_phone, contact_email, electronic_address, iban, bic,
                    account_holder, managing_directors, small_business FROM companies"
        ),
        "customers": read(
            "SELECT DISTINCT buyer_reference, electronic_address, einvoice_format FROM customers"
        ),
        "drafts": read(
            "SELECT DISTINCT buyer_reference, order_reference, period_start, period_end FROM drafts"
        ),
    })
}

#[test]
fn a_version_1_file_migrates_with_the_new_columns_empty() {
    let data = v1_copy();
    let company: String = Connection::open(&data.path)
        .unwrap()
        .query_row("SELECT id FROM companies", [], |r| r.get(0))
        .unwrap();
    let shown = show(&data, &company);
    assert_eq!(user_version(&data.path), kontor::store::db::SCHEMA_VERSION);
    assert_eq!(shown["particulars"], none_shown());
    let empty16: Vec<Value> = (0..16)
        .map(|i| if i == 15 { json!(0) } else { Value::Null })
        .collect();
    assert_eq!(
        new_columns(&data.path),
        json!({
            "companies": [empty16],
            "customers": [[null, null, "facturx"]],
            "drafts": [[null, null, null, null]],
        })
    );
    // The migrated file takes particulars.
    let set = data.ok(&[
        "company",
        "set",
        &company,
        "--iban",
        "DE89370400440532013000",
    ]);
    assert_eq!(set["particulars"]["iban"], json!("DE89370400440532013000"));
}

#[test]
fn a_version_2_file_migrates_with_the_new_columns_empty() {
    let data = DataFile::new();
    let conn = Connection::open(&data.path).unwrap();
    conn.execute_batch(include_str!("../../src/store/migrations/2.sql"))
        .unwrap();
    conn.execute_batch(
        "INSERT INTO companies (id, name, country, currency, plan, invoice_prefix, payment_days, timezone, workflow, created_at)
             VALUES ('org_v2', 'Alt GmbH', 'DE', 'EUR', 'ENTERPRISE', '', NULL, 'Europe/Berlin', 'NEU', '2026-01-01T00:00:00.000Z');
         INSERT INTO customers (id, company_id, environment, number, name, street, postal_code, city, country,
                 is_customer, is_supplier, created_at)
             VALUES ('cus_v2', 'org_v2', 'PRODUCTION', 'K10001', 'Kunde', 'A 1', '1', 'B', 'DE', 1, 0,
                 '2026-01-01T00:00:00.000Z');
         INSERT INTO counters (company_id, environment, series, value) VALUES ('org_v2', 'PRODUCTION', 'customer', 10002);
         INSERT INTO drafts (id, company_id, environment, document_type, customer_id, currency, state, created_at)
             VALUES ('drf_v2', 'org_v2', 'PRODUCTION', 'INVOICE', 'cus_v2', 'EUR', 'DRAFT', '2026-01-01T00:00:00.000Z');
         PRAGMA user_version = 2;",
    )
    .unwrap();
    drop(conn);
    let shown = show(&data, "org_v2");
    assert_eq!(user_version(&data.path), kontor::store::db::SCHEMA_VERSION);
    assert_eq!(shown["particulars"], none_shown());
    let drafted = data.ok(&["draft", "set", "drf_v2"]);
    assert_eq!(
        (&drafted["buyerReference"], &drafted["period"]),
        (&Value::Null, &Value::Null)
    );
    let set = data.ok(&[
        "draft",
        "set",
        "drf_v2",
        "--period",
        "2026-01-01..2026-01-31",
    ]);
    assert_eq!(
        set["period"],
        json!({"from": "2026-01-01", "to": "2026-01-31"})
    );
    let customer = data.ok(&["customer", "set", "cus_v2", "--einvoice", "peppol"]);
    assert_eq!(
        (&customer["einvoice"], &customer["buyerReference"]),
        (&json!("peppol"), &Value::Null)
    );
}
