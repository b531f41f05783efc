//! Customers through REST: create, read, list, page and search.

use serde_json::json;

use crate::support::{unique, World};

#[test]
fn a_created_customer_reads_back_whole() {
    let w = World::new();
    let c = w.client();
    let a = c.post(
        &w.live,
        "/v1/customers",
        &unique(),
        &json!({
            "name": "Müller Bau GmbH", "street": "Hafenstraße 12", "postalCode": "20457", "city": "Hamburg",
            "country": "at", "vatId": "atu 1234 5678", "currency": "chf", "email": "a@b.de",
            "contact": "Frau Müller", "phone": "+49 40 123"
        }),
    );
    assert_eq!(a.status, 201, "{:?}", a.body);
    let id = a.body["id"].as_str().unwrap();
    assert!(id.starts_with("cus_") && id.len() == 24);
    let created_at = a.body["createdAt"].clone();
    assert_eq!(
        a.body,
        json!({
            "id": id, "number": "K10001", "name": "Müller Bau GmbH", "contact": "Frau Müller", "email": "a@b.de",
            "phone": "+49 40 123", "street": "Hafenstraße 12", "postalCode": "20457", "city": "Hamburg",
            "country": "AT", "vatId": "ATU12345678", "currency": "CHF", "customer": true, "supplier": false,
            "archived": false, "paymentDays": null, "createdAt": created_at,
            "buyerReference": null, "electronicAddress": null, "einvoice": "facturx",
            "iban": null, "invoiceEmail": null, "consumer": false, "language": null
        })
    );
    assert_eq!(c.get(&w.live, &format!("/v1/customers/{id}")).body, a.body);
}

#[test]
fn country_defaults_to_the_companys() {
    let w = World::new();
    let c = w.client();
    let cust = c.customer(&w.live, "Ohne Land");
    assert_eq!(cust["country"], json!("DE"));
    assert_eq!(cust["currency"], json!(null));
}

#[test]
fn lists_are_newest_first_paged_and_bounded() {
    let w = World::new();
    let c = w.client();
    for i in 1..=30 {
        c.customer(&w.live, &format!("Kunde {i:02}"));
    }
    let first = c.get(&w.live, "/v1/customers");
    assert_eq!(
        (
            first.body["page"].clone(),
            first.body["size"].clone(),
            first.body["total"].clone(),
            first.body["more"].clone()
        ),
        (json!(0), json!(25), json!(30), json!(true))
    );
    assert_eq!(first.body["data"][0]["name"], json!("Kunde 30"));
    assert_eq!(first.body["data"].as_array().unwrap().len(), 25);
    let second = c.get(&w.live, "/v1/customers?page=1");
    assert_eq!(second.body["data"].as_array().unwrap().len(), 5);
    assert_eq!(second.body["more"], json!(false));
    assert_eq!(second.body["data"][4]["name"], json!("Kunde 01"));
    let bounded = c.get(&w.live, "/v1/customers?size=500&page=-2");
    assert_eq!(
        (bounded.body["size"].clone(), bounded.body["page"].clone()),
        (json!(100), json!(0))
    );
    assert_eq!(bounded.body["data"].as_array().unwrap().len(), 30);
    let tiny = c.get(&w.live, "/v1/customers?size=0");
    assert_eq!(tiny.body["size"], json!(1));
    let far = c.get(&w.live, "/v1/customers?page=999999999999");
    assert_eq!(far.status, 200);
    assert_eq!(far.body["data"], json!([]));
}

#[test]
fn search_looks_at_name_number_email_and_city() {
    let w = World::new();
    let c = w.client();
    c.post(
        &w.live,
        "/v1/customers",
        &unique(),
        &json!({
        "name": "Alpen KG", "street": "S", "postalCode": "6020", "city": "Innsbruck", "email": "office@alpen.at"}),
    );
    c.customer(&w.live, "Berg_Bau 100%");
    let count = |q: &str| {
        c.get(&w.live, &format!("/v1/customers?search={q}")).body["total"]
            .as_i64()
            .unwrap()
    };
    // Three characters or more: anywhere in name, number, e-mail or city.
    assert_eq!(count("alpen"), 1);
    assert_eq!(count("INNSBRUCK"), 1);
    assert_eq!(count("office%40alpen"), 1);
    assert_eq!(count("K10002"), 1);
    assert_eq!(count("Berlin"), 1);
    assert_eq!(count("pen%20K"), 1);
    // Wildcards of any kind are plain characters.
    assert_eq!(count("100%25"), 1);
    assert_eq!(count("g_B"), 1);
    assert_eq!(count("%22K1"), 0);
    assert_eq!(count("nirgends"), 0);
    // One or two characters: the start of a name or a number.
    assert_eq!(count("al"), 1);
    assert_eq!(count("K1"), 2);
    assert_eq!(count("pe"), 0);
    assert_eq!(count("%25"), 0);
    assert_eq!(count("_"), 0);
}

#[test]
fn every_list_item_is_the_customers_own_wire_form() {
    let w = World::new();
    let c = w.client();
    let full = c.post(
        &w.live,
        "/v1/customers",
        &unique(),
        &json!({
            "name": "Quote \" Backslash \\ Tab\tÜ 😀 </script>", "street": "Weg 1", "postalCode": "1010",
            "city": "Wien", "country": "AT", "vatId": "ATU12345678", "currency": "EUR", "email": "x@y.at",
            "contact": "Ä", "phone": "+43 1"
        }),
    );
    assert_eq!(full.status, 201, "{:?}", full.body);
    let id = full.body["id"].as_str().unwrap();
    w.data
        .ok(&["customer", "terms", id, "--payment-days", "21"]);
    let full = c.get(&w.live, &format!("/v1/customers/{id}"));
    assert_eq!(full.body["paymentDays"], json!(21));
    c.customer(&w.live, "Nur Name");
    let list = c.get(&w.live, "/v1/customers?size=10");
    assert_eq!(list.status, 200);
    let items = list.body["data"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    for item in items {
        let id = item["id"].as_str().unwrap();
        assert_eq!(*item, c.get(&w.live, &format!("/v1/customers/{id}")).body);
    }
    assert_eq!(items[1], full.body);
    // An escape is two hex digits, no more and no less.
    c.get(&w.live, "/v1/customers?search=%+1")
        .refused(400, "ANFRAGE");
    let found = c.get(&w.live, "/v1/customers?search=%22%20Backslash");
    assert_eq!(found.body["data"], json!([full.body]));
    assert_eq!(
        (found.body["total"].clone(), found.body["more"].clone()),
        (json!(1), json!(false))
    );
}

#[test]
fn an_email_without_the_shape_of_an_address_is_refused() {
    let w = World::new();
    let c = w.client();
    for email in [
        "ab.de", "@b.de", "a@b", "a@.b.de", "a@b.de.", "a@b..de", "a@b@c.de", "a b@c.de",
    ] {
        c.post(
            &w.live,
            "/v1/customers",
            &unique(),
            &json!({"name": "Form GmbH", "street": "S", "postalCode": "1", "city": "C", "email": email}),
        )
        .refused(400, "ANFRAGE");
    }
    let long = format!("{}@b.de", "a".repeat(250));
    c.post(
        &w.live,
        "/v1/customers",
        &unique(),
        &json!({"name": "Form GmbH", "street": "S", "postalCode": "1", "city": "C", "email": long}),
    )
    .refused(400, "ANFRAGE");
    // None of them made a customer; a well-formed address does.
    assert_eq!(c.get(&w.live, "/v1/customers").body["total"], json!(0));
    let ok = c.post(
        &w.live,
        "/v1/customers",
        &unique(),
        &json!({"name": "Form GmbH", "street": "S", "postalCode": "1", "city": "C", "email": "a.b@c-d.de"}),
    );
    assert_eq!(ok.status, 201, "{:?}", ok.body);
}

/// The names on the first page of customers `key` reads.
fn first_page(c: &crate::support::Client, key: &str) -> Vec<String> {
    let page = c.get(key, "/v1/customers?size=25");
    assert_eq!(page.status, 200, "{:?}", page.body);
    page.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_kept_page_never_outlives_a_change_by_this_server_or_the_console() {
    let w = World::new();
    let c = w.client();
    let first = c.customer(&w.live, "Erste GmbH");
    assert_eq!(first_page(&c, &w.live), ["Erste GmbH"]);
    // Kept now; read again, the same.
    assert_eq!(first_page(&c, &w.live), ["Erste GmbH"]);
    // A customer made through the API.
    c.customer(&w.live, "Zweite GmbH");
    assert_eq!(first_page(&c, &w.live), ["Zweite GmbH", "Erste GmbH"]);
    // A change by another process: the console renames one.
    let id = first["id"].as_str().unwrap();
    w.data
        .ok(&["customer", "set", id, "--name", "Umbenannt KG"]);
    assert_eq!(first_page(&c, &w.live), ["Zweite GmbH", "Umbenannt KG"]);
    let page = c.get(&w.live, "/v1/customers?size=25").body;
    assert_eq!(page["total"], json!(2));
    // A supplier the console records with a bill is a partner too.
    w.data.ok(&[
        "purchase",
        "record",
        "--company",
        &w.company,
        "--supplier",
        "Lieferant AG",
        "--document-number",
        "B-1",
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
    ]);
    assert_eq!(
        first_page(&c, &w.live),
        ["Lieferant AG", "Zweite GmbH", "Umbenannt KG"]
    );
    // Neither the test data nor another company reads the kept page.
    assert!(first_page(&c, &w.test).is_empty());
    let other = w.data.company("Andere GmbH", "ENTERPRISE");
    let other_live = w.data.key(&other, "production", "all");
    assert!(first_page(&c, &other_live).is_empty());
    c.customer(&other_live, "Fremd GmbH");
    assert_eq!(first_page(&c, &other_live), ["Fremd GmbH"]);
    assert_eq!(
        first_page(&c, &w.live),
        ["Lieferant AG", "Zweite GmbH", "Umbenannt KG"]
    );
    // Another page size is another page.
    let small = c.get(&w.live, "/v1/customers?size=1").body;
    assert_eq!(small["data"].as_array().unwrap().len(), 1);
    assert_eq!(small["more"], json!(true));
}
