//! A partner's page as an account: its invoices with what is open and how
//! long overdue, the payments, the balance of its personal account in the
//! ledger, the bills a supplier sent; and every particular editable there,
//! the e-mail address, contact and phone too. Suppliers have their own list;
//! the customers' list holds none who only sent bills.

use crate::support::screens::{invoice, Office};

#[test]
fn a_customers_page_shows_its_account_and_every_field_can_be_changed() {
    let office = Office::new();
    let number = invoice(&office, &office.a, "Kunde Konto GmbH", 10_000, "2026-01-05");
    office.data.ok(&[
        "payment",
        "record",
        "--company",
        &office.a,
        "--invoice",
        &number,
        "--amount",
        "4000",
        "--on",
        "2026-01-20",
    ]);
    let key = &office.key_a;
    let found = office.api().get(key, "/v1/customers?query=Konto");
    let id = found.body["data"][0]["id"].as_str().unwrap().to_string();

    let mut owner = office.signed_in("owner@alpha.de");
    let page = owner.get(&format!("/customers/{id}"));
    assert_eq!(page.status, 200);
    let body = &page.body;
    let table = &body[body.find("id=\"partner-invoices\"").expect("the invoices")..];
    let table = &table[..table.find("</table>").unwrap()];
    // 119.00 issued, 40.00 paid: 79.00 open, overdue since its due date.
    assert!(
        table.contains(&number) && table.contains("119.00") && table.contains("79.00"),
        "{table}"
    );
    assert!(table.contains("days overdue"), "{table}");
    let payments = &body[body.find("id=\"partner-payments\"").expect("the payments")..];
    assert!(payments[..payments.find("</table>").unwrap()].contains("40.00"));
    let balance = &body[body.find("id=\"balance\"").expect("the balance")..];
    assert!(
        balance[..balance.find("</dl>").unwrap()].contains("79.00"),
        "{balance}"
    );

    // E-mail, contact and phone are changed on the same page.
    let changed = owner.act(
        &format!("/customers/{id}"),
        &format!("/customers/{id}"),
        &[
            ("name", "Kunde Konto GmbH"),
            ("street", "Hauptstraße 1"),
            ("postalCode", "10115"),
            ("city", "Berlin"),
            ("country", "DE"),
            ("email", "neu@konto.example"),
            ("contact", "Frau Neu"),
            ("phone", "+49 40 123456"),
        ],
    );
    changed.redirects_to(&format!("/customers/{id}?saved=1"));
    let api = office.api().get(key, &format!("/v1/customers/{id}"));
    assert_eq!(
        (&api.body["email"], &api.body["contact"], &api.body["phone"]),
        (
            &serde_json::json!("neu@konto.example"),
            &serde_json::json!("Frau Neu"),
            &serde_json::json!("+49 40 123456")
        )
    );
    // A wrong e-mail address is refused beside its field, nothing changed.
    let refused = owner.act(
        &format!("/customers/{id}"),
        &format!("/customers/{id}"),
        &[("name", "Kunde Konto GmbH"), ("email", "kein-mail")],
    );
    assert_eq!(refused.status, 400);
    assert!(
        refused.body.contains("field-email-error"),
        "{}",
        refused.body
    );
    assert_eq!(
        office.api().get(key, &format!("/v1/customers/{id}")).body["email"],
        "neu@konto.example"
    );

    // A supplier's page lists its bills with what is still to pay.
    let bill = office.data.ok(&[
        "purchase",
        "record",
        "--company",
        &office.a,
        "--supplier",
        "Holz Meier KG",
        "--document-number",
        "HM-7",
        "--date",
        "2026-02-02",
        "--due",
        "2026-02-16",
        "--currency",
        "EUR",
        "--net",
        "50000",
        "--tax",
        "9500",
    ]);
    let supplier = bill["supplierId"]
        .as_str()
        .map(str::to_string)
        .unwrap_or_else(|| {
            office.api().get(key, "/v1/customers?query=Holz").body["data"][0]["id"]
                .as_str()
                .unwrap()
                .to_string()
        });
    let page = owner.get(&format!("/customers/{supplier}"));
    let bills = &page.body[page.body.find("id=\"partner-bills\"").expect("the bills")..];
    let bills = &bills[..bills.find("</table>").unwrap()];
    assert!(
        bills.contains("HM-7") && bills.contains("595.00"),
        "{bills}"
    );
    assert!(page.body.contains("595.00"), "the payable balance");

    // Suppliers have their own list (IBAN, what is still to pay); the
    // customers' list holds no partner who only sent bills.
    let list = owner.get("/suppliers");
    assert_eq!(list.status, 200);
    let table = &list.body[list.body.find("id=\"suppliers\"").expect("the suppliers")..];
    let table = &table[..table.find("</table>").unwrap()];
    assert!(
        table.contains("Holz Meier KG") && table.contains("595.00"),
        "{table}"
    );
    assert!(!table.contains("Kunde Konto GmbH"), "{table}");
    let customers = owner.get("/customers");
    assert!(customers.body.contains("Kunde Konto GmbH"));
    assert!(
        !customers.body.contains("Holz Meier KG"),
        "{}",
        customers.body
    );
    // The API's list still holds every partner.
    let all = office.api().get(key, "/v1/customers");
    let names: Vec<&str> = all.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"Holz Meier KG") && names.contains(&"Kunde Konto GmbH"),
        "{names:?}"
    );

    // Another company's partner is not found.
    let mut beta = office.signed_in("owner@beta.de");
    assert_eq!(beta.get(&format!("/customers/{id}")).status, 404);
}
