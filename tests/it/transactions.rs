//! Transactions through REST and the console: numbering, workflow stages,
//! filters, full-text search and partial updates.

use serde_json::json;

use crate::support::World;

#[test]
fn a_transaction_starts_in_the_first_stage_of_the_workflow() {
    let w = World::new();
    let c = w.client();
    let cust = c.customer(&w.live, "Kunde");
    let t = c.transaction(
        &w.live,
        json!({
            "title": "Dach", "description": "Ziegel tauschen", "customerId": cust["id"], "dueOn": "2027-01-15"
        }),
    );
    let year = &t["startedOn"].as_str().unwrap()[..4];
    assert_eq!(t["number"], json!(format!("V{year}-0001")));
    assert_eq!(t["stage"], json!("NEU"));
    assert_eq!(t["customer"], json!("Kunde"));
    assert_eq!(t["customerId"], cust["id"]);
    assert_eq!(t["dueOn"], json!("2027-01-15"));
    assert_eq!(t["archived"], json!(false));
    let t2 = c.transaction(&w.live, json!({"title": "Fenster", "stage": "ERLEDIGT"}));
    assert_eq!(t2["number"], json!(format!("V{year}-0002")));
    assert_eq!(t2["stage"], json!("ERLEDIGT"));
    assert!(t2.get("customer").is_none(), "{t2}");

    // A new workflow from the console: new transactions start in its first stage.
    w.data.ok(&[
        "company", "workflow", &w.company, "ANFRAGE", "ANGEBOT", "AUFTRAG",
    ]);
    let t3 = c.transaction(&w.live, json!({"title": "Tür"}));
    assert_eq!(t3["stage"], json!("ANFRAGE"));
    c.post(
        &w.live,
        "/v1/transactions",
        "x",
        &json!({"title": "x", "stage": "NEU"}),
    )
    .refused(409, "ABGELEHNT");
    c.post(
        &w.live,
        "/v1/transactions",
        "y",
        &json!({"title": "x", "dueOn": "15.01.2027"}),
    )
    .refused(400, "ANFRAGE");
}

#[test]
fn lists_filter_by_stage_search_archived_and_period() {
    let w = World::new();
    let c = w.client();
    let a = c.transaction(
        &w.live,
        json!({"title": "Dachsanierung Lagerhalle", "description": "Ziegel und Rinne"}),
    );
    let b = c.transaction(
        &w.live,
        json!({"title": "Küche einbauen", "stage": "IN_ARBEIT"}),
    );
    let d = c.transaction(&w.live, json!({"title": "Alte Anfrage"}));
    c.patch(
        &w.live,
        &format!("/v1/transactions/{}", d["id"].as_str().unwrap()),
        &json!({"archived": true}),
    );
    let ids = |q: &str| -> Vec<serde_json::Value> {
        let page = c.get(&w.live, &format!("/v1/transactions{q}"));
        assert_eq!(page.status, 200, "{q}: {:?}", page.body);
        page.body["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["id"].clone())
            .collect()
    };
    assert_eq!(ids(""), vec![b["id"].clone(), a["id"].clone()]);
    assert_eq!(ids("?includeArchived=true").len(), 3);
    assert_eq!(ids("?stage=IN_ARBEIT"), vec![b["id"].clone()]);
    assert_eq!(ids("?stage=UNBEKANNT"), Vec::<serde_json::Value>::new());
    assert_eq!(ids("?search=ziegel"), vec![a["id"].clone()]);
    assert_eq!(ids("?search=dach"), vec![a["id"].clone()]);
    assert_eq!(ids("?search=kuche"), vec![b["id"].clone()]);
    assert_eq!(ids("?search=K%C3%BCche%20einbauen"), vec![b["id"].clone()]);
    assert_eq!(ids("?search=%22)(*%20OR"), Vec::<serde_json::Value>::new());
    assert_eq!(
        ids(&format!("?search={}", a["number"].as_str().unwrap())),
        vec![a["id"].clone()]
    );
    assert_eq!(ids("?search=anfrage"), Vec::<serde_json::Value>::new());
    assert_eq!(
        ids("?search=anfrage&includeArchived=true"),
        vec![d["id"].clone()]
    );
    let started = a["startedOn"].as_str().unwrap().to_string();
    let (year, month) = (&started[..4], &started[5..7]);
    let quarter = (month.parse::<u8>().unwrap() - 1) / 3 + 1;
    assert_eq!(ids(&format!("?period={year}")).len(), 2);
    assert_eq!(ids(&format!("?period={year}-{month}")).len(), 2);
    assert_eq!(ids(&format!("?period={year}-Q{quarter}")).len(), 2);
    assert_eq!(ids("?period=2001").len(), 0);
    assert_eq!(ids(&format!("?from={started}&to={started}")).len(), 2);
    // period and from/to intersect.
    assert_eq!(
        ids(&format!("?period={year}&from=2001-01-01&to=2001-12-31")).len(),
        0
    );
}

#[test]
fn patch_changes_only_what_it_names() {
    let w = World::new();
    let c = w.client();
    let cust = c.customer(&w.live, "Kunde");
    let t = c.transaction(
        &w.live,
        json!({"title": "Dach", "customerId": cust["id"], "dueOn": "2027-01-15", "description": "d"}),
    );
    let path = format!("/v1/transactions/{}", t["id"].as_str().unwrap());
    let a = c.patch(&w.live, &path, &json!({"stage": "IN_ARBEIT"}));
    assert_eq!(a.status, 200);
    let mut expected = t.clone();
    expected["stage"] = json!("IN_ARBEIT");
    assert_eq!(a.body, expected);
    let a = c.patch(
        &w.live,
        &path,
        &json!({"dueOn": null, "customerId": "none", "title": "Dach neu"}),
    );
    assert_eq!(a.body["dueOn"], json!(null));
    assert_eq!(a.body["customerId"], json!(null));
    assert!(a.body.get("customer").is_none());
    assert_eq!(a.body["title"], json!("Dach neu"));
    assert_eq!(a.body["description"], json!("d"));
    let a = c.patch(&w.live, &path, &json!({"customerId": cust["id"]}));
    assert_eq!(a.body["customer"], json!("Kunde"));
    let a = c.patch(&w.live, &path, &json!({"customer": "none"}));
    assert_eq!(a.body["customerId"], json!(null));
    c.patch(&w.live, &path, &json!({"title": null}))
        .refused(400, "ANFRAGE");
    c.patch(&w.live, &path, &json!({"customer": "Kunde"}))
        .refused(400, "ANFRAGE");
    c.patch(&w.live, &path, &json!({"number": "V1"}))
        .refused(400, "ANFRAGE");
    c.patch(&w.live, &path, &json!({"archived": "yes"}))
        .refused(400, "ANFRAGE");
    c.patch(&w.live, &path, &json!({"stage": "WEG"}))
        .refused(409, "ABGELEHNT");
    assert_eq!(
        c.get(&w.live, &path).body,
        a.body,
        "the refusals changed nothing"
    );
    // Archived: only archived may change; a no-op field is no change.
    assert_eq!(
        c.patch(&w.live, &path, &json!({"archived": true})).body["archived"],
        json!(true)
    );
    c.patch(&w.live, &path, &json!({"stage": "ERLEDIGT"}))
        .refused(409, "FALSCHER_ZUSTAND");
    assert_eq!(
        c.patch(
            &w.live,
            &path,
            &json!({"stage": "IN_ARBEIT", "archived": true})
        )
        .status,
        200
    );
    let back = c.patch(&w.live, &path, &json!({"archived": false}));
    assert_eq!(back.body["archived"], json!(false));
    assert_eq!(
        c.patch(&w.live, &path, &json!({"stage": "ERLEDIGT"})).body["stage"],
        json!("ERLEDIGT")
    );
    // The refusals changed nothing.
    let now = c.get(&w.live, &path).body;
    assert_eq!(
        (now["title"].clone(), now["customerId"].clone()),
        (json!("Dach neu"), json!(null))
    );
}
