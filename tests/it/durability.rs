//! Writes committed in groups: a refused write inside a group leaves the
//! others whole, numbers stay gapless, and everything acknowledged survives a
//! restart.

use std::collections::BTreeSet;
use std::sync::{Arc, Barrier};

use serde_json::json;

use crate::support::{start, unique, Client, World};

#[test]
fn concurrent_writes_with_refusals_keep_numbers_gapless_and_survive_a_restart() {
    let w = World::new();
    let c = w.client();
    let barrier = Arc::new(Barrier::new(48));
    let answers: Vec<(usize, u16, serde_json::Value)> = (0..48)
        .map(|i| {
            let key = w.live.clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                // Every third request names a stage outside the workflow and is refused.
                let stage = if i % 3 == 0 { "UNBEKANNT" } else { "NEU" };
                barrier.wait();
                let a = c.post(
                    &key,
                    "/v1/transactions",
                    &unique(),
                    &json!({"title": format!("Job {i}"), "stage": stage}),
                );
                (i, a.status, a.body)
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|h| h.join().unwrap())
        .collect();
    let mut acknowledged = BTreeSet::new();
    for (i, status, body) in &answers {
        if i % 3 == 0 {
            assert_eq!(*status, 409, "{body}");
        } else {
            assert_eq!(*status, 201, "{body}");
            acknowledged.insert(body["number"].as_str().unwrap().to_string());
        }
    }
    assert_eq!(acknowledged.len(), 32);
    let year = &answers.iter().find(|a| a.1 == 201).unwrap().2["startedOn"]
        .as_str()
        .unwrap()[..4];
    let expected: BTreeSet<String> = (1..=32).map(|n| format!("V{year}-{n:04}")).collect();
    assert_eq!(
        acknowledged, expected,
        "numbers must be consecutive without gaps"
    );

    // Restart: every acknowledged record is there, and nothing refused is.
    let World {
        data, server, live, ..
    } = w;
    server.stop();
    let server = start(&data);
    let c = Client { addr: server.addr };
    let page = c.get(&live, "/v1/transactions?size=100");
    assert_eq!(page.body["total"], json!(32));
    let stored: BTreeSet<String> = page.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["number"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(stored, expected);
    let titles: BTreeSet<String> = page.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["title"].as_str().unwrap().to_string())
        .collect();
    assert!((0..48)
        .filter(|i| i % 3 == 0)
        .all(|i| !titles.contains(&format!("Job {i}"))));
}
