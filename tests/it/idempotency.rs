//! Idempotent POSTs: replay, conflict, concurrency, scope and forgetting refusals.

use serde_json::json;

use crate::support::World;

fn body(name: &str) -> serde_json::Value {
    json!({"name": name, "street": "Hauptstraße 1", "postalCode": "10115", "city": "Berlin"})
}

#[test]
fn a_repeat_replays_the_original_answer_with_the_record_read_now() {
    let w = World::new();
    let c = w.client();
    let first = c.post(&w.live, "/v1/customers", "order-1", &body("Replay GmbH"));
    assert_eq!(first.status, 201);
    assert_eq!(first.header("Idempotent-Replayed"), None);
    // Key order and white space do not change the fingerprint.
    let auth = format!("Bearer {}", w.live);
    let reordered = r#"{ "city": "Berlin", "postalCode": "10115",
        "street": "Hauptstraße 1", "name": "Replay GmbH" }"#
        .as_bytes();
    let again = c.send(
        "POST",
        "/v1/customers",
        &[("Authorization", &auth), ("Idempotency-Key", "order-1")],
        Some(reordered),
    );
    assert_eq!(again.status, 201);
    assert_eq!(again.header("Idempotent-Replayed"), Some("true"));
    assert_eq!(again.body, first.body);
    assert_eq!(c.get(&w.live, "/v1/customers").body["total"], json!(1));
    // The same key with another body is a conflict and creates nothing.
    c.post(&w.live, "/v1/customers", "order-1", &body("Other GmbH"))
        .refused(409, "IDEMPOTENZ_KONFLIKT");
    // The same key on another path is another request too.
    c.post(
        &w.live,
        "/v1/transactions",
        "order-1",
        &json!({"title": "x"}),
    )
    .refused(409, "IDEMPOTENZ_KONFLIKT");
    assert_eq!(c.get(&w.live, "/v1/customers").body["total"], json!(1));
    assert_eq!(c.get(&w.live, "/v1/transactions").body["total"], json!(0));
}

#[test]
fn a_replay_shows_the_record_as_it_is_now() {
    let w = World::new();
    let c = w.client();
    let body = json!({"title": "Fassade"});
    let first = c.post(&w.live, "/v1/transactions", "t-1", &body);
    let path = format!("/v1/transactions/{}", first.body["id"].as_str().unwrap());
    assert_eq!(
        c.patch(&w.live, &path, &json!({"stage": "IN_ARBEIT"}))
            .status,
        200
    );
    let replay = c.post(&w.live, "/v1/transactions", "t-1", &body);
    assert_eq!(replay.status, 201);
    assert_eq!(replay.header("Idempotent-Replayed"), Some("true"));
    assert_eq!(replay.body["id"], first.body["id"]);
    assert_eq!(replay.body["stage"], json!("IN_ARBEIT"));
}

#[test]
fn a_refused_request_remembers_nothing() {
    let w = World::new();
    let c = w.client();
    c.post(
        &w.live,
        "/v1/transactions",
        "k-1",
        &json!({"title": "t", "stage": "NIE"}),
    )
    .refused(409, "ABGELEHNT");
    c.post(
        &w.live,
        "/v1/transactions",
        "k-1",
        &json!({"title": "t", "customerId": "cus_x"}),
    )
    .refused(404, "NICHT_GEFUNDEN");
    // The same key now does the work of a different, valid body.
    let ok = c.post(&w.live, "/v1/transactions", "k-1", &json!({"title": "t"}));
    assert_eq!(ok.status, 201);
    assert_eq!(ok.header("Idempotent-Replayed"), None);
}

#[test]
fn keys_are_scoped_to_company_and_environment() {
    let w = World::new();
    let c = w.client();
    let live = c.post(&w.live, "/v1/customers", "same", &body("A"));
    let test = c.post(&w.test, "/v1/customers", "same", &body("A"));
    assert_eq!((live.status, test.status), (201, 201));
    assert_eq!(test.header("Idempotent-Replayed"), None);
    assert_ne!(live.body["id"], test.body["id"]);
    // Within its own company and environment the key does replay.
    let again = c.post(&w.live, "/v1/customers", "same", &body("A"));
    assert_eq!(
        (again.header("Idempotent-Replayed"), &again.body["id"]),
        (Some("true"), &live.body["id"])
    );
}

#[test]
fn sixty_four_concurrent_copies_make_one_customer() {
    let w = World::new();
    let c = w.client();
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(64));
    let answers: Vec<_> = (0..64)
        .map(|_| {
            let key = w.live.clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                barrier.wait();
                c.post_until_served(&key, "/v1/customers", "concurrent", &body("Parallel GmbH"))
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|h| h.join().unwrap())
        .collect();
    let ids: std::collections::HashSet<_> = answers.iter().map(|a| a.body["id"].clone()).collect();
    assert!(
        answers.iter().all(|a| a.status == 201),
        "{:?}",
        answers.iter().map(|a| a.status).collect::<Vec<_>>()
    );
    assert_eq!(ids.len(), 1);
    assert_eq!(
        answers
            .iter()
            .filter(|a| a.header("Idempotent-Replayed").is_none())
            .count(),
        1
    );
    let list = c.get(&w.live, "/v1/customers");
    assert_eq!(list.body["total"], json!(1));
    assert_eq!(list.body["data"][0]["id"], *ids.iter().next().unwrap());
    assert_eq!(list.body["data"][0]["number"], json!("K10001"));
}
