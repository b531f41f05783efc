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
                let a = c.post_until_served(
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

#[test]
fn a_backup_taken_while_the_server_writes_restores_every_record() {
    let w = World::webhooks(false);
    let c = w.client();
    let customer = c.customer(&w.live, "Kunde A");
    c.customer(&w.test, "Testkunde");
    c.transaction(
        &w.live,
        json!({"title": "Dach", "customerId": customer["id"]}),
    );
    let draft = c.draft(&w.live, &customer);
    w.data.line(&draft, 10_000, "19", false);
    let invoice = w.data.ok(&["draft", "issue", &draft, "--on", "2026-03-02"]);
    let number = invoice["number"].as_str().unwrap();
    w.data.ok(&[
        "payment",
        "record",
        "--company",
        &w.company,
        "--invoice",
        number,
        "--amount",
        "5000",
        "--on",
        "2026-03-05",
    ]);
    let hook = c.post(
        &w.live,
        "/v1/webhooks",
        &unique(),
        &json!({"url": "http://127.0.0.1:9/hook", "events": ["*"]}),
    );
    assert_eq!(hook.status, 201);
    // Customers keep arriving while the copy is made.
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let (stop, key) = (stop.clone(), w.live.clone());
        std::thread::spawn(move || {
            let mut made = 0;
            while !stop.load(std::sync::atomic::Ordering::SeqCst) || made < 3 {
                c.customer(&key, &format!("Laufend {made}"));
                made += 1;
            }
            made
        })
    };
    let copy = crate::support::DataFile::new();
    let target = copy.path.to_str().unwrap().to_string();
    let out = w.data.ok(&["backup", "--to", &target]);
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let made = writer.join().unwrap();
    assert!(made >= 3);
    assert!(out["bytes"].as_u64().unwrap() > 0, "{out}");
    // A backup never overwrites.
    let (ok, _, err) = w.data.console(&["backup", "--to", &target]);
    assert!(!ok && err.contains("exists"), "{err}");
    // Restored: a server on the copy answers the same books with the same keys.
    let restored = start(&copy);
    let r = Client {
        addr: restored.addr,
    };
    let customers = r.get(&w.live, "/v1/customers?size=100").body;
    let total = customers["total"].as_i64().unwrap();
    // Consistent: the copy holds a prefix of the customers, numbered without a gap.
    let mut numbers: Vec<String> = customers["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["number"].as_str().unwrap().to_string())
        .collect();
    numbers.sort();
    let expected: Vec<String> = (0..total).map(|i| format!("K{}", 10001 + i)).collect();
    assert_eq!(numbers, expected);
    assert!(total >= 1 && total <= 1 + made as i64, "{total}");
    for (key, path) in [
        (&w.live, format!("/v1/invoices/{number}")),
        (&w.live, "/v1/invoices".to_string()),
        (&w.live, "/v1/transactions".to_string()),
        (&w.live, "/v1/reports/outstanding".to_string()),
        (&w.live, "/v1/webhooks".to_string()),
        (&w.test, "/v1/customers".to_string()),
    ] {
        let (original, copied) = (c.get(key, &path), r.get(key, &path));
        assert_eq!(
            (copied.status, &copied.body),
            (200, &original.body),
            "{path}"
        );
    }
}
