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

/// The references from a company-owned table (one with `company_id`) into
/// another that are not composite with `company_id`, and `environment`
/// where the target has one (a membership spans both environments):
/// "table(columns) → target".
fn loose_references(conn: &rusqlite::Connection) -> Vec<String> {
    let names = |sql: &str| -> Vec<String> {
        let mut stmt = conn.prepare(sql).unwrap();
        stmt.query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    let tables = names("SELECT name FROM sqlite_master WHERE type = 'table'");
    let has = |t: &str, column: &str| {
        names(&format!("SELECT name FROM pragma_table_info('{t}')"))
            .iter()
            .any(|c| c == column)
    };
    let owned = |t: &str| has(t, "company_id");
    let mut out = Vec::new();
    for table in tables.iter().filter(|t| owned(t)) {
        let mut stmt = conn
            .prepare(&format!(
                "SELECT id, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list('{table}')"
            ))
            .unwrap();
        let mut references: std::collections::BTreeMap<i64, (String, Vec<(String, String)>)> =
            Default::default();
        for row in stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                ))
            })
            .unwrap()
        {
            let (id, target, from, to) = row.unwrap();
            references
                .entry(id)
                .or_insert((target, Vec::new()))
                .1
                .push((from, to));
        }
        for (target, columns) in references.into_values() {
            let needed = if has(&target, "environment") {
                &["company_id", "environment"][..]
            } else {
                &["company_id"][..]
            };
            let composite = needed
                .iter()
                .all(|c| columns.contains(&(c.to_string(), c.to_string())));
            if owned(&target) && !composite {
                let from: Vec<&str> = columns.iter().map(|c| c.0.as_str()).collect();
                out.push(format!("{table}({}) → {target}", from.join(", ")));
            }
        }
    }
    out
}

#[test]
fn every_reference_into_a_company_owned_table_is_composite_with_company_and_environment() {
    let data = crate::support::DataFile::new();
    data.company("Schema GmbH", "ENTERPRISE");
    let conn = rusqlite::Connection::open(&data.path).unwrap();
    assert_eq!(loose_references(&conn), Vec::<String>::new());
    // The check finds a loose reference where there is one.
    conn.execute_batch(
        "CREATE TABLE loose (seq INTEGER PRIMARY KEY, company_id TEXT NOT NULL, environment TEXT NOT NULL,
             payment_id TEXT REFERENCES payments (id)) STRICT;",
    )
    .unwrap();
    assert_eq!(loose_references(&conn), ["loose(payment_id) → payments"]);
}
