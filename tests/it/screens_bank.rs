//! The Bank screen and the bank accounts under Settings: an owner adds an
//! account, an accountant confirms a suggestion, splits a line and undoes
//! it, a viewer reads and is refused; the customer's page keeps an IBAN.
//! Every act's audit row names the person.

use serde_json::json;

use crate::bank::{fixture, lines};
use crate::support::screens::{invoice, people_audit, Office};
use crate::support::statements::{camt053, Entry, Transfer};

const IBAN: &str = "DE36760260000123456789";

#[test]
fn a_person_confirms_splits_and_undoes_bank_lines_on_the_screens() {
    let o = Office::new();
    let mut owner = o.signed_in("owner@alpha.de");
    let page = owner.get("/settings/bank");
    assert!(page.body.contains("No bank account yet"), "{}", page.body);
    owner
        .act(
            "/settings/bank",
            "/settings/bank/accounts",
            &[
                ("iban", "DE36 7602 6000 0123 4567 89"),
                ("name", "Geschäftskonto"),
            ],
        )
        .redirects_to("/settings/bank?done=added");
    let page = owner.get("/settings/bank");
    assert!(
        page.body.contains("DE36 7602 6000 0123 4567 89") && page.body.contains("Geschäftskonto"),
        "{}",
        page.body
    );
    // A wrong IBAN is refused beside its field, nothing stored.
    let refused = owner.act(
        "/settings/bank",
        "/settings/bank/accounts",
        &[("iban", "DE36760260000123456788")],
    );
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert!(refused.body.contains("check digits"), "{}", refused.body);

    let first = invoice(&o, &o.a, "Müller Bau GmbH", 100_000, "2026-11-02");
    let second = invoice(&o, &o.a, "Stadtwerke", 20_000, "2026-11-02");
    let dir = tempfile::tempdir().unwrap();
    let day = "2026-11-18";
    let tx = |amount: i64, name: &str, remittance: &str| Transfer {
        amount,
        name: name.into(),
        remittance: remittance.into(),
        ..Transfer::default()
    };
    let entry = |r: &str, t: Transfer| Entry {
        bank_reference: r.into(),
        booked_on: day.into(),
        reversal: false,
        txs: vec![t],
    };
    let text = camt053(
        IBAN,
        "S-1",
        1,
        0,
        day,
        &[
            entry(
                "A",
                tx(118_000, "Müller Bau GmbH", &format!("Rechnung {first}")),
            ),
            entry("B", tx(23_800, "Unbekannt", "Sammelzahlung")),
        ],
    );
    let path = dir.path().join("s.xml");
    std::fs::write(&path, text).unwrap();
    o.data
        .ok(&["bank", "import", "--company", &o.a, &path.to_string_lossy()]);
    let suggested = lines(&o.data, &o.a, Some("suggested"));
    let stranger = lines(&o.data, &o.a, Some("unmatched"));
    let (line, other) = (
        suggested[0]["id"].as_str().unwrap(),
        stranger[0]["id"].as_str().unwrap(),
    );

    let mut accountant = o.signed_in("accountant@alpha.de");
    let list = accountant.get("/bank?state=suggested");
    assert!(
        list.body.contains(&format!("/bank/lines/{line}")),
        "{}",
        list.body
    );
    let page = accountant.get(&format!("/bank/lines/{line}"));
    assert!(page.body.contains("partial payment"), "{}", page.body);
    accountant
        .act(
            &format!("/bank/lines/{line}"),
            &format!("/bank/lines/{line}/confirm"),
            &[("suggestion", "1"), ("difference1", "fees")],
        )
        .redirects_to(&format!("/bank/lines/{line}?done=confirmed"));
    let paid = o.api().get(&o.key_a, &format!("/v1/invoices/{first}")).body;
    assert_eq!(
        paid["outstanding"]["minor"],
        json!(0),
        "the difference booked to fees"
    );
    // A split typed as people type amounts; more than the line has is refused.
    let too_much = accountant.act(
        &format!("/bank/lines/{other}"),
        &format!("/bank/lines/{other}/split"),
        &[("number1", &second), ("amount1", "999.00")],
    );
    assert_eq!(too_much.status, 409, "{}", too_much.body);
    accountant
        .act(
            &format!("/bank/lines/{other}"),
            &format!("/bank/lines/{other}/split"),
            &[("number1", &second), ("amount1", "200.00")],
        )
        .redirects_to(&format!("/bank/lines/{other}?done=split"));
    assert_eq!(
        o.api()
            .get(&o.key_a, &format!("/v1/invoices/{second}"))
            .body["outstanding"]["minor"],
        json!(3_800)
    );
    accountant
        .act(
            &format!("/bank/lines/{other}"),
            &format!("/bank/lines/{other}/undo"),
            &[],
        )
        .redirects_to(&format!("/bank/lines/{other}?done=undone"));
    assert_eq!(
        o.api()
            .get(&o.key_a, &format!("/v1/invoices/{second}"))
            .body["outstanding"]["minor"],
        json!(23_800)
    );
    accountant
        .act(
            &format!("/bank/lines/{other}"),
            &format!("/bank/lines/{other}/book"),
            &[("account", "other")],
        )
        .redirects_to(&format!("/bank/lines/{other}?done=booked"));
    let acts: Vec<String> = people_audit(&o, &o.a)
        .into_iter()
        .filter(|(who, _)| who == "accountant@alpha.de")
        .map(|(_, act)| act)
        .collect();
    for act in [
        "bank.line_confirmed",
        "difference.booked",
        "bank.line_split",
        "settlement.reversed",
        "bank.line_undone",
        "bank.line_booked",
    ] {
        assert!(acts.iter().any(|a| a == act), "{act}: {acts:?}");
    }

    // A viewer reads the lines and is refused each act.
    let mut viewer = o.signed_in("viewer@alpha.de");
    let page = viewer.get(&format!("/bank/lines/{line}"));
    assert_eq!(page.status, 200);
    assert!(!page.body.contains("/split\""), "{}", page.body);
    let refused = viewer.act(
        &format!("/bank/lines/{other}"),
        &format!("/bank/lines/{other}/ignore"),
        &[("reason", "x")],
    );
    assert_eq!(refused.status, 403, "{}", refused.body);
    let _ = fixture;
}

#[test]
fn a_customers_iban_is_kept_on_its_page() {
    let o = Office::new();
    let customer = o.api().customer(&o.key_a, "Bäckerei Sonnenschein KG");
    let id = customer["id"].as_str().unwrap();
    let mut owner = o.signed_in("owner@alpha.de");
    let saved = owner.act(
        &format!("/customers/{id}"),
        &format!("/customers/{id}"),
        &[("iban", "de60 4306 0967 1122 3344 55")],
    );
    saved.redirects_to(&format!("/customers/{id}?saved=1"));
    let page = owner.get(&format!("/customers/{id}"));
    assert!(
        page.body.contains("DE60 4306 0967 1122 3344 55"),
        "{}",
        page.body
    );
    let stored = o.api().get(&o.key_a, &format!("/v1/customers/{id}")).body;
    assert_eq!(stored["iban"], json!("DE60430609671122334455"));
}
