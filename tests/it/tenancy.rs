//! No company and no environment ever sees another's records.

use serde_json::json;

use crate::support::{unique, Client, World};

#[test]
fn a_sandbox_key_and_another_company_get_404_for_every_record() {
    let w = World::new();
    let c = w.client();
    let customer = c.customer(&w.live, "Geheim GmbH");
    let customer_id = customer["id"].as_str().unwrap();
    let txn = c.transaction(
        &w.live,
        json!({"title": "Geheimer Auftrag", "customerId": customer_id}),
    );
    let txn_id = txn["id"].as_str().unwrap();

    let other = w.data.company("Zweite GmbH", "ENTERPRISE");
    let other_live = w.data.key(&other, "production", "all");
    let other_test = w.data.key(&other, "sandbox", "all");

    for key in [&w.test, &other_live, &other_test] {
        c.get(key, &format!("/v1/customers/{customer_id}"))
            .refused(404, "NICHT_GEFUNDEN");
        c.get(key, &format!("/v1/transactions/{txn_id}"))
            .refused(404, "NICHT_GEFUNDEN");
        c.patch(
            key,
            &format!("/v1/transactions/{txn_id}"),
            &json!({"title": "x"}),
        )
        .refused(404, "NICHT_GEFUNDEN");
        c.patch(
            key,
            &format!("/v1/transactions/{txn_id}"),
            &json!({"archived": true}),
        )
        .refused(404, "NICHT_GEFUNDEN");
        c.post(
            key,
            "/v1/transactions",
            &unique(),
            &json!({"title": "x", "customerId": customer_id}),
        )
        .refused(404, "NICHT_GEFUNDEN");
        // Lists neither show nor count them.
        let customers = c.get(key, "/v1/customers?search=Geheim");
        assert_eq!(customers.body["total"], json!(0));
        let all = c.get(key, "/v1/transactions?includeArchived=true&search=Geheimer");
        assert_eq!(all.body["total"], json!(0));
    }
    // Their own key still sees them unchanged, by id and in the lists the
    // other keys searched.
    let own = c.get(&w.live, &format!("/v1/transactions/{txn_id}"));
    assert_eq!(own.body, txn);
    assert_eq!(
        c.get(&w.live, &format!("/v1/customers/{customer_id}")).body,
        customer
    );
    assert_eq!(
        c.get(&w.live, "/v1/customers?search=Geheim").body["total"],
        json!(1)
    );
    assert_eq!(
        c.get(
            &w.live,
            "/v1/transactions?includeArchived=true&search=Geheimer"
        )
        .body["total"],
        json!(1)
    );
    // And the other company's own data is theirs alone.
    let theirs = c.customer(&other_live, "Zweitkunde");
    c.get(
        &w.live,
        &format!("/v1/customers/{}", theirs["id"].as_str().unwrap()),
    )
    .refused(404, "NICHT_GEFUNDEN");
}

#[test]
fn sandbox_numbers_are_independent_of_live_numbers() {
    let w = World::new();
    let c: Client = w.client();
    let l1 = c.customer(&w.live, "L1");
    let l2 = c.customer(&w.live, "L2");
    let t1 = c.customer(&w.test, "T1");
    assert_eq!(
        (
            l1["number"].as_str(),
            l2["number"].as_str(),
            t1["number"].as_str()
        ),
        (Some("K10001"), Some("K10002"), Some("K10001"))
    );
    let lt = c.transaction(&w.live, json!({"title": "a"}));
    c.transaction(&w.live, json!({"title": "b"}));
    let tt = c.transaction(&w.test, json!({"title": "c"}));
    let year = &lt["startedOn"].as_str().unwrap()[..4];
    assert_eq!(lt["number"], json!(format!("V{year}-0001")));
    assert_eq!(tt["number"], json!(format!("V{year}-0001")));
    assert_eq!(c.get(&w.test, "/v1/customers").body["total"], json!(1));
    assert_eq!(c.get(&w.test, "/v1/transactions").body["total"], json!(1));
    // A second company starts its own sequence as well.
    let other = w.data.company("Zweite GmbH", "ENTERPRISE");
    let other_live = w.data.key(&other, "production", "all");
    assert_eq!(c.customer(&other_live, "O1")["number"], json!("K10001"));
}
