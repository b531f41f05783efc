//! A disk that fills: on a size-limited tmpfs mounted for the test, writes
//! are refused with 503 `SPEICHER_VOLL` and a sentence (REST, the agent
//! tools, the screens, the console), reads go on, no acknowledged write is
//! lost, nothing half-written is visible, the webhook outbox keeps its
//! rows, a refused POST is not kept as its Idempotency-Key's answer, and
//! once space is freed writes are taken again without a restart.

use serde_json::json;

use crate::support::receiver::{Answer as Reply, Receiver};
use crate::support::screens::{person, Browser, PASSWORD};
use crate::support::small_disk::SmallDisk;
use crate::support::{start_configured, DataFile};

fn customer(name: &str) -> serde_json::Value {
    json!({"name": name, "street": "Kai 1", "postalCode": "20457", "city": "Hamburg"})
}

#[test]
fn a_full_disk_refuses_writes_with_a_sentence_and_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let small = dir.path().join("small");
    let data = DataFile::in_dir(dir, "small/kontor.db");
    let disk = SmallDisk::mount_at(&small, 8);
    let company = data.company("Voll GmbH", "ENTERPRISE");
    let key = data.key(&company, "production", "all");
    person(&data, &company, "owner@voll.de", "owner");
    let receiver = Receiver::start();
    receiver.always("/hook", Reply::status(500));
    let server = start_configured(&data, &|c| {
        c.webhook_allow_loopback = true;
    });
    let api = crate::support::Client { addr: server.addr };
    let hook = api.post(
        &key,
        "/v1/webhooks",
        "hook-1",
        &json!({"url": receiver.url("/hook"), "events": ["invoice.issued"]}),
    );
    assert_eq!(hook.status, 201);
    let customer_id = api.customer(&key, "Kunde")["id"]
        .as_str()
        .unwrap()
        .to_string();
    let draft = api.draft(&key, &json!({"id": customer_id}));
    data.line(&draft, 10_000, "19", false);
    data.ok(&["draft", "issue", &draft]);
    let mut acknowledged = vec![customer_id.clone()];
    for i in 0..20 {
        let a = api.post(
            &key,
            "/v1/customers",
            &format!("before-{i}"),
            &customer(&format!("Vorher {i}")),
        );
        assert_eq!(a.status, 201);
        acknowledged.push(a.body["id"].as_str().unwrap().to_string());
    }
    let mut browser = Browser::at(server.addr);
    browser
        .login("owner@voll.de", PASSWORD)
        .redirects_to("/dashboard");
    let queued = |conn: &rusqlite::Connection| -> i64 {
        conn.query_row("SELECT count(*) FROM deliveries", [], |r| r.get(0))
            .unwrap()
    };
    let deliveries_before = queued(&rusqlite::Connection::open(&data.path).unwrap());
    assert!(deliveries_before >= 1);
    // A test mail waits in the mail outbox (its server answers nothing).
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    data.ok(&[
        "company",
        "mail",
        "--company",
        &company,
        "--host",
        "127.0.0.1",
        "--mail-allow",
        "127.0.0.1",
        "--port",
        &closed.to_string(),
        "--security",
        "none",
        "--from",
        "rechnung@voll.example",
        "--test-to",
        "owner@voll.example",
    ]);
    let mails = |conn: &rusqlite::Connection| -> (i64, i64) {
        conn.query_row(
            "SELECT count(*), coalesce(sum(attempts), 0) FROM mails WHERE state = 'queued'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap()
    };
    assert_eq!(
        mails(&rusqlite::Connection::open(&data.path).unwrap()),
        (1, 0)
    );

    disk.fill("filler");
    let filler = disk.path().join("filler");

    // REST: 503 with the code, a sentence and Retry-After; nothing stored.
    let mut refused = 0;
    for i in 0..10 {
        let a = api.post(
            &key,
            "/v1/customers",
            &format!("full-{i}"),
            &customer(&format!("Voll {i}")),
        );
        assert_eq!(a.status, 503, "{:?}", a.body);
        assert_eq!(a.body["code"], "SPEICHER_VOLL");
        assert!(
            a.body["fehler"].as_str().unwrap().contains("disk"),
            "{:?}",
            a.body
        );
        assert_eq!(a.header("Retry-After"), Some("60"));
        refused += 1;
    }
    // The agent tools: a refusal with the same code.
    let tool = api.tool_refusal(
        &key,
        "create_transaction",
        json!({"title": "Auftrag", "idempotency_key": "t-1"}),
    );
    assert_eq!(tool["code"], "SPEICHER_VOLL", "{tool}");
    // The screens: the page says so, with 503; the customers can still be read.
    let form = browser.get("/customers/new");
    let page = browser.post(
        "/customers",
        &[
            ("csrf", &form.csrf()),
            ("name", "Am Schirm"),
            ("street", "Kai 1"),
            ("postalCode", "20457"),
            ("city", "Hamburg"),
        ],
    );
    assert_eq!(page.status, 503, "{}", page.body);
    assert!(page.body.contains("full"), "{}", page.body);
    let list = browser.get("/customers");
    assert_eq!(list.status, 200);
    assert!(list.body.contains("Vorher 19"));
    // The console: refused with the sentence.
    let (ok, _, said) = data.console(&["customer", "terms", &customer_id, "--payment-days", "21"]);
    assert!(!ok);
    assert!(
        said.contains("disk of kontor's data file is full"),
        "{said}"
    );
    // Reads go on: every acknowledged customer, and nothing else.
    let read = api.get(&key, "/v1/customers?size=100");
    assert_eq!(read.status, 200);
    assert_eq!(
        read.body["total"],
        json!(acknowledged.len()),
        "nothing half-written is visible"
    );
    // The outbox keeps its rows while its attempts cannot be recorded.
    let conn = rusqlite::Connection::open(&data.path).unwrap();
    assert_eq!(queued(&conn), deliveries_before);
    // The mail worker's round cannot record anything: the mail stays queued.
    let _ = server.send_due_mail(jiff::Timestamp::now());
    assert_eq!(mails(&conn), (1, 0), "the mail outbox keeps its row");

    // Space is freed: writes are taken again, without a restart; a key
    // refused while full was not kept as its answer.
    std::fs::remove_file(&filler).unwrap();
    let again = api.post(&key, "/v1/customers", "full-0", &customer("Voll 0"));
    assert_eq!(again.status, 201, "{:?}", again.body);
    acknowledged.push(again.body["id"].as_str().unwrap().to_string());
    let read = api.get(&key, "/v1/customers?size=100");
    let ids: Vec<&str> = read.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    for id in &acknowledged {
        assert!(
            ids.contains(&id.as_str()),
            "{id} was acknowledged and is gone"
        );
    }
    assert_eq!(ids.len(), acknowledged.len());
    // The mail's attempt is made and recorded once there is room again.
    server.send_due_mail(jiff::Timestamp::now()).unwrap();
    assert_eq!(
        mails(&conn),
        (1, 1),
        "the attempt recorded, the mail queued for its retry"
    );
    let integrity: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(integrity, "ok");
    println!(
        "disk full: {} writes acknowledged before, {refused} REST writes refused with 503 (and one tool, one screen, one console write), {} after freeing space; {} deliveries and 1 mail kept; integrity {integrity}",
        acknowledged.len() - 1,
        1,
        queued(&conn)
    );
    server.stop();
    drop(disk);
}
