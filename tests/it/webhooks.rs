//! Signed webhooks: the endpoint API and its URL rules, the five event kinds
//! with their exact bodies and signatures, retries, redelivery, disabling,
//! isolation of slow receivers, restarts mid-backlog, and address safety.

use std::collections::BTreeSet;
use std::time::Duration;

use hmac::{Hmac, Mac};
use serde_json::{json, Value};
use sha2::Sha256;

use crate::support::receiver::{Answer, Receiver};
use crate::support::{start_configured, unique, Client, World};

fn register(c: &Client, key: &str, url: &str, events: Value) -> crate::support::Answer {
    c.post(
        key,
        "/v1/webhooks",
        &unique(),
        &json!({"url": url, "events": events, "description": "test"}),
    )
}

fn now_plus(seconds: i64) -> jiff::Timestamp {
    jiff::Timestamp::now() + jiff::SignedDuration::from_secs(seconds)
}

/// An invoice issued through the API and the console; returns its number.
fn issue(w: &World, c: &Client, amount: i64) -> String {
    let customer = c.customer(&w.live, "Kunde");
    let id = c.draft(&w.live, &customer);
    w.data.line(&id, amount, "19", false);
    w.data.ok(&["draft", "issue", &id])["number"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Checks the signature header the way a receiver would, independently.
fn verify(secret: &str, received: &crate::support::receiver::Received) {
    let header = received.header("SERVICE-Signature");
    let (t, v1) = header.split_once(',').unwrap();
    let t = t.strip_prefix("t=").unwrap();
    let v1 = v1.strip_prefix("v1=").unwrap();
    assert!((jiff::Timestamp::now().as_second() - t.parse::<i64>().unwrap()).abs() < 300);
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(format!("{t}.").as_bytes());
    mac.update(&received.body);
    assert_eq!(
        v1,
        hex::encode(mac.finalize().into_bytes()),
        "signature of {}",
        received.header("SERVICE-Event")
    );
    assert!(!header.contains(' '));
}

#[test]
fn endpoints_are_registered_listed_and_disabled() {
    let w = World::webhooks(false);
    let c = w.client();
    let r = Receiver::start();
    let a = register(
        &c,
        &w.live,
        &r.url("/hook"),
        json!(["invoice.issued", "invoice.paid"]),
    );
    assert_eq!(a.status, 201, "{:?}", a.body);
    let secret = a.body["secret"].as_str().unwrap();
    assert!(
        secret.starts_with("whsec_") && secret.len() == 6 + 44,
        "{secret}"
    );
    assert_eq!(a.body["events"], json!(["invoice.issued", "invoice.paid"]));
    assert_eq!(
        (a.body["enabled"].clone(), a.body["description"].clone()),
        (json!(true), json!("test"))
    );
    let id = a.body["id"].as_str().unwrap();
    assert!(id.starts_with("whk_"));
    let list = c.get(&w.live, "/v1/webhooks");
    assert_eq!(list.body["total"], json!(1));
    assert!(list.body["data"][0].get("secret").is_none());
    assert!(!list.body.to_string().contains(secret));
    let kinds = c.get(&w.live, "/v1/webhooks/events").body;
    let names: Vec<&str> = kinds["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["event"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "invoice.issued",
            "invoice.paid",
            "invoice.cancelled",
            "payment.recorded",
            "purchase.recorded"
        ]
    );
    let descriptions: Vec<&str> = kinds["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["description"].as_str().unwrap())
        .collect();
    assert_eq!(
        descriptions,
        [
            "A person issued a draft as an invoice.",
            "A payment cleared an invoice's receivable.",
            "A person cancelled an invoice by a full correction.",
            "Money was recorded moving in or out.",
            "An incoming purchase document (bill) was recorded."
        ]
    );
    // Another company and the sandbox see nothing of it.
    let other = w.data.company("Zweite GmbH", "ENTERPRISE");
    let other_key = w.data.key(&other, "production", "all");
    let auth = format!("Bearer {other_key}");
    c.send(
        "DELETE",
        &format!("/v1/webhooks/{id}"),
        &[("Authorization", &auth)],
        None,
    )
    .refused(404, "NICHT_GEFUNDEN");
    assert_eq!(
        c.get(&w.live, "/v1/webhooks").body["data"][0]["enabled"],
        json!(true),
        "another company's DELETE disabled nothing"
    );
    assert_eq!(c.get(&w.test, "/v1/webhooks").body["total"], json!(0));
    c.get(&w.test, &format!("/v1/webhooks/{id}/deliveries"))
        .refused(404, "NICHT_GEFUNDEN");
    // Disabling, twice.
    let auth = format!("Bearer {}", w.live);
    let off = c.send(
        "DELETE",
        &format!("/v1/webhooks/{id}"),
        &[("Authorization", &auth)],
        None,
    );
    assert_eq!(off.status, 200);
    assert_eq!(off.body["enabled"], json!(false));
    let again = c.send(
        "DELETE",
        &format!("/v1/webhooks/{id}"),
        &[("Authorization", &auth)],
        None,
    );
    assert_eq!(again.body, off.body);
    // The scope webhooks:write is needed for every address.
    let reader = w
        .data
        .key(&w.company, "production", "customers:read,invoices:read");
    c.get(&reader, "/v1/webhooks")
        .refused(403, "KEINE_BERECHTIGUNG");
    c.get(&reader, "/v1/webhooks/events")
        .refused(403, "KEINE_BERECHTIGUNG");
    register(&c, &reader, &r.url("/x"), json!(["*"])).refused(403, "KEINE_BERECHTIGUNG");
}

#[test]
fn endpoint_urls_follow_the_rules() {
    // A server without the loopback allowance: the production rules.
    let w = World::new();
    let c = w.client();
    for (url, events) in [
        ("not a url", json!(["*"])),
        ("https://", json!(["*"])),
        ("ftp://example.com/", json!(["*"])),
        ("https://example.com/", json!(["invoice.deleted"])),
        ("https://example.com/", json!([])),
        ("https://example.com/", json!("invoice.issued")),
    ] {
        let a = register(&c, &w.live, url, events.clone());
        a.refused(400, "ANFRAGE");
    }
    let forbidden = [
        "http://example.com/hook",
        "https://example.com:8443/hook",
        "https://user:pass@example.com/hook",
        "https://127.0.0.1/hook",
        "https://localhost/hook",
        "https://app.localhost/hook",
        "https://10.1.2.3/hook",
        "https://172.16.0.1/hook",
        "https://192.168.1.1/hook",
        "https://169.254.169.254/latest/meta-data",
        "https://100.64.0.1/",
        "https://0.0.0.0/",
        "https://224.0.0.1/",
        "https://255.255.255.255/",
        "https://192.0.2.1/",
        "https://198.51.100.1/",
        "https://203.0.113.1/",
        "https://198.18.0.1/",
        "https://2130706433/",
        "https://0x7f.1/",
        "https://0177.0.0.1/",
        "https://127.1/",
        "https://[::1]/",
        "https://[::]/",
        "https://[::ffff:127.0.0.1]/",
        "https://[::ffff:10.0.0.1]/",
        "https://[fd00::1]/",
        "https://[fe80::1]/",
        "https://[ff02::1]/",
        "https://[64:ff9b::7f00:1]/",
        "https://[2002:7f00:1::1]/",
        "https://[2001:db8::1]/",
        "https://[::127.0.0.1]/",
    ];
    assert!(forbidden.len() >= 30);
    for url in forbidden {
        let a = register(&c, &w.live, url, json!(["*"]));
        assert_eq!(
            (a.status, a.code()),
            (409, "ABGELEHNT"),
            "{url}: {:?}",
            a.body
        );
    }
    // A name that resolves to a loopback address: this machine's own name.
    let own = std::fs::read_to_string("/etc/hostname")
        .unwrap_or_default()
        .trim()
        .to_string();
    let inward = !own.is_empty()
        && std::net::ToSocketAddrs::to_socket_addrs(&(own.as_str(), 443))
            .is_ok_and(|mut a| a.all(|a| a.ip().is_loopback()));
    if inward {
        register(&c, &w.live, &format!("https://{own}/hook"), json!(["*"]))
            .refused(409, "ABGELEHNT");
    }
    // A public literal address on 443 is accepted.
    assert_eq!(
        register(&c, &w.live, "https://93.184.216.34/hook", json!(["*"])).status,
        201
    );
    assert_eq!(
        register(&c, &w.live, "https://93.184.216.34:443/hook", json!(["*"])).status,
        201
    );
    assert_eq!(c.get(&w.live, "/v1/webhooks").body["total"], json!(2));
}

/// Registers an endpoint for every kind and returns (receiver, path, secret).
fn subscribed(_w: &World, c: &Client, key: &str, path: &str) -> (Receiver, String) {
    let r = Receiver::start();
    let a = register(c, key, &r.url(path), json!(["*"]));
    assert_eq!(a.status, 201, "{:?}", a.body);
    (r, a.body["secret"].as_str().unwrap().to_string())
}

#[test]
fn each_event_kind_arrives_signed_with_exactly_its_fields() {
    let w = World::webhooks(false);
    let c = w.client();
    let (r, secret) = subscribed(&w, &c, &w.live, "/all");
    let paid = issue(&w, &c, 10000);
    w.data.ok(&[
        "payment",
        "record",
        "--company",
        &w.company,
        "--invoice",
        &paid,
        "--amount",
        "11900",
        "--reference",
        "Überweisung",
    ]);
    let cancelled = issue(&w, &c, 5000);
    w.data.ok(&[
        "invoice",
        "cancel",
        "--company",
        &w.company,
        &cancelled,
        "--reason",
        "Fehler",
    ]);
    let today = c.get(&w.live, &format!("/v1/invoices/{paid}")).body["issuedOn"]
        .as_str()
        .unwrap()
        .to_string();
    w.data.ok(&[
        "purchase",
        "record",
        "--company",
        &w.company,
        "--supplier",
        "Meier",
        "--document-number",
        "B-7",
        "--date",
        &today,
        "--due",
        &today,
        "--currency",
        "EUR",
        "--net",
        "1000",
        "--tax",
        "190",
    ]);
    assert_eq!(w.server.deliver_due(jiff::Timestamp::now()).unwrap(), 6);
    let got = r.received("/all");
    assert_eq!(got.len(), 6);
    let invoice_fields = [
        "amountDueMinor",
        "buyerName",
        "currency",
        "documentType",
        "dueDate",
        "event",
        "grossMinor",
        "id",
        "invoiceId",
        "issueDate",
        "netMinor",
        "number",
        "paymentState",
        "taxMinor",
    ];
    let with = |extra: &[&str]| -> BTreeSet<String> {
        invoice_fields
            .iter()
            .chain(extra)
            .map(|s| s.to_string())
            .collect()
    };
    let expected: Vec<(&str, BTreeSet<String>)> = vec![
        ("invoice.issued", with(&[])),
        (
            "payment.recorded",
            [
                "amountMinor",
                "direction",
                "event",
                "id",
                "method",
                "reference",
                "targetId",
                "targetKind",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        ),
        ("invoice.paid", with(&["paidOn"])),
        (
            "invoice.cancelled",
            with(&["cancelledByInvoiceId", "cancelledByNumber", "reason"]),
        ),
        (
            "purchase.recorded",
            [
                "currency",
                "documentDate",
                "documentNumber",
                "dueDate",
                "event",
                "grossMinor",
                "id",
                "kind",
                "netMinor",
                "purchaseId",
                "supplierId",
                "supplierName",
                "taxMinor",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        ),
    ];
    for (kind, fields) in expected {
        let one = got
            .iter()
            .find(|g| g.header("SERVICE-Event") == kind)
            .unwrap_or_else(|| panic!("{kind} not received"));
        let body = one.json();
        let keys: BTreeSet<String> = body.as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, fields, "{kind}");
        assert!(
            body.as_object().unwrap().values().all(Value::is_string),
            "{kind}: every value a string"
        );
        // Keys in sorted order, in the very bytes sent.
        let raw = String::from_utf8(one.body.clone()).unwrap();
        let positions: Vec<usize> = fields
            .iter()
            .map(|k| raw.find(&format!("\"{k}\":")).unwrap())
            .collect();
        assert!(
            positions.windows(2).all(|p| p[0] < p[1]),
            "{kind}: keys sorted in {raw}"
        );
        assert_eq!(body["event"], json!(kind));
        assert_eq!(one.header("SERVICE-Event-Id"), body["id"].as_str().unwrap());
        assert_eq!(one.header("Idempotency-Key"), body["id"].as_str().unwrap());
        assert_eq!(one.header("SERVICE-Attempt"), "1");
        assert!(one.header("SERVICE-Delivery").starts_with("dlv_"));
        assert_eq!(
            one.header("Content-Type"),
            "application/json; charset=utf-8"
        );
        assert_eq!(one.header("User-Agent"), "SERVICE-Webhooks/1");
        verify(&secret, one);
    }
    let body = |kind: &str| {
        got.iter()
            .find(|g| g.header("SERVICE-Event") == kind)
            .unwrap()
            .json()
    };
    assert_eq!(body("invoice.issued")["grossMinor"], json!("11900"));
    assert_eq!(body("invoice.issued")["paymentState"], json!("OPEN"));
    assert_eq!(body("invoice.paid")["amountDueMinor"], json!("0"));
    assert_eq!(body("invoice.paid")["paymentState"], json!("PAID"));
    assert_eq!(body("payment.recorded")["direction"], json!("in"));
    assert_eq!(body("payment.recorded")["amountMinor"], json!("11900"));
    assert_eq!(body("payment.recorded")["reference"], json!("Überweisung"));
    assert_eq!(
        body("invoice.cancelled")["paymentState"],
        json!("CANCELLED")
    );
    assert_eq!(body("invoice.cancelled")["number"], json!(cancelled));
    assert_eq!(body("invoice.cancelled")["reason"], json!("Fehler"));
    assert_eq!(body("purchase.recorded")["grossMinor"], json!("1190"));
    // The log lists them as delivered.
    let id = c.get(&w.live, "/v1/webhooks").body["data"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let log = c
        .get(&w.live, &format!("/v1/webhooks/{id}/deliveries"))
        .body;
    assert_eq!(log["total"], json!(6));
    assert!(log["data"]
        .as_array()
        .unwrap()
        .iter()
        .all(|d| d["state"] == "DELIVERED" && d["attempts"] == 1 && d["lastStatus"] == 200));
}

#[test]
fn a_failed_attempt_is_retried_with_the_same_event_id() {
    let w = World::webhooks(false);
    let c = w.client();
    let (r, _) = subscribed(&w, &c, &w.live, "/flaky");
    r.script("/flaky", vec![Answer::status(500), Answer::status(200)]);
    issue(&w, &c, 1000);
    assert_eq!(w.server.deliver_due(jiff::Timestamp::now()).unwrap(), 1);
    // Not due again at once: the next attempt waits about 30 s (±20 %).
    assert_eq!(w.server.deliver_due(now_plus(20)).unwrap(), 0);
    let id = c.get(&w.live, "/v1/webhooks").body["data"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let log = c
        .get(&w.live, &format!("/v1/webhooks/{id}/deliveries"))
        .body["data"][0]
        .clone();
    assert_eq!(
        (
            log["state"].clone(),
            log["attempts"].clone(),
            log["lastStatus"].clone()
        ),
        (json!("PENDING"), json!(1), json!(500))
    );
    assert!(log["nextAttemptAt"].is_string());
    assert_eq!(w.server.deliver_due(now_plus(40)).unwrap(), 1);
    let got = r.received("/flaky");
    assert_eq!(
        got.iter()
            .map(|g| g.header("SERVICE-Attempt").to_string())
            .collect::<Vec<_>>(),
        ["1", "2"]
    );
    assert_eq!(
        got[0].header("SERVICE-Event-Id"),
        got[1].header("SERVICE-Event-Id")
    );
    assert_eq!(got[0].body, got[1].body, "the same bytes on every attempt");
    assert_eq!(
        got[0].header("SERVICE-Delivery"),
        got[1].header("SERVICE-Delivery")
    );
    let log = c
        .get(&w.live, &format!("/v1/webhooks/{id}/deliveries"))
        .body["data"][0]
        .clone();
    assert_eq!(
        (log["state"].clone(), log["attempts"].clone()),
        (json!("DELIVERED"), json!(2))
    );
}

#[test]
fn a_receiver_that_always_fails_ends_failed_after_eight_attempts() {
    let w = World::webhooks(false);
    let c = w.client();
    let (r, _) = subscribed(&w, &c, &w.live, "/down");
    r.always(
        "/down",
        Answer {
            status: 503,
            headers: vec![("Retry-After".into(), "0".into())],
            delay: Duration::ZERO,
        },
    );
    issue(&w, &c, 1000);
    let mut at = jiff::Timestamp::now();
    // Retry-After: 0 does not hurry the schedule: each retry waits at least
    // its scheduled delay (30 s, 5 min, …), so one second short of it nothing is due.
    let schedule = [30, 300, 1_800, 7_200, 18_000, 36_000, 36_000];
    for (attempt, wait) in schedule.iter().enumerate() {
        assert_eq!(
            w.server.deliver_due(at).unwrap(),
            1,
            "attempt {}",
            attempt + 1
        );
        at += jiff::SignedDuration::from_secs(wait - 1);
        assert_eq!(
            w.server.deliver_due(at).unwrap(),
            0,
            "early for attempt {}",
            attempt + 2
        );
        at += jiff::SignedDuration::from_secs(1);
    }
    assert_eq!(w.server.deliver_due(at).unwrap(), 1, "attempt 8");
    assert_eq!(
        w.server
            .deliver_due(at + jiff::SignedDuration::from_hours(48))
            .unwrap(),
        0
    );
    assert_eq!(r.received("/down").len(), 8);
    let id = c.get(&w.live, "/v1/webhooks").body["data"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let log = c
        .get(&w.live, &format!("/v1/webhooks/{id}/deliveries"))
        .body["data"][0]
        .clone();
    assert_eq!(
        (
            log["state"].clone(),
            log["attempts"].clone(),
            log["lastStatus"].clone()
        ),
        (json!("FAILED"), json!(8), json!(503))
    );
    // Redelivery sends the same event again, with a new delivery id.
    let auth = format!("Bearer {}", w.live);
    r.always("/down", Answer::status(200));
    let path = format!(
        "/v1/webhooks/{id}/deliveries/{}/redeliver",
        log["id"].as_str().unwrap()
    );
    let again = c.send(
        "POST",
        &path,
        &[("Authorization", &auth), ("Idempotency-Key", "redo-1")],
        None,
    );
    assert_eq!(again.status, 202, "{:?}", again.body);
    assert_eq!(again.body["eventId"], log["eventId"]);
    assert_ne!(again.body["id"], log["id"]);
    assert_eq!(again.body["state"], json!("PENDING"));
    assert_eq!(w.server.deliver_due(jiff::Timestamp::now()).unwrap(), 1);
    let got = r.received("/down");
    let (first, last) = (&got[0], got.last().unwrap());
    assert_eq!(
        last.header("SERVICE-Event-Id"),
        first.header("SERVICE-Event-Id")
    );
    assert_eq!(last.body, first.body);
    assert_ne!(
        last.header("SERVICE-Delivery"),
        first.header("SERVICE-Delivery")
    );
    assert_eq!(last.header("SERVICE-Attempt"), "1");
    // The console sees the same log and can redeliver too.
    let log = w
        .data
        .ok(&["webhook", "deliveries", "--company", &w.company]);
    assert_eq!(log["total"], json!(2));
    let (ok, out, err) = w.data.console(&[
        "webhook",
        "redeliver",
        log["data"][0]["id"].as_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert_eq!(out["eventId"], log["data"][0]["eventId"]);
}

#[test]
fn endpoints_get_only_their_environment_and_later_events() {
    let w = World::webhooks(false);
    let c = w.client();
    let (test_r, _) = subscribed(&w, &c, &w.test, "/sandbox");
    issue(&w, &c, 1000); // a live act
    let (late_r, _) = subscribed(&w, &c, &w.live, "/late");
    w.server.deliver_due(jiff::Timestamp::now()).unwrap();
    assert_eq!(
        test_r.received("/sandbox").len(),
        0,
        "test-mode endpoints get no live events"
    );
    assert_eq!(
        late_r.received("/late").len(),
        0,
        "an endpoint registered later gets no older event"
    );
    issue(&w, &c, 2000);
    w.server.deliver_due(jiff::Timestamp::now()).unwrap();
    assert_eq!(late_r.received("/late").len(), 1);
    // Subscriptions filter by kind.
    let r = Receiver::start();
    assert_eq!(
        register(&c, &w.live, &r.url("/paid-only"), json!(["invoice.paid"])).status,
        201
    );
    let number = issue(&w, &c, 3000);
    w.data.ok(&[
        "payment",
        "record",
        "--company",
        &w.company,
        "--invoice",
        &number,
        "--amount",
        "3570",
    ]);
    w.server.deliver_due(jiff::Timestamp::now()).unwrap();
    let kinds: Vec<String> = r
        .received("/paid-only")
        .iter()
        .map(|g| g.header("SERVICE-Event").to_string())
        .collect();
    assert_eq!(kinds, ["invoice.paid"]);
}

#[test]
fn a_disabled_endpoint_gets_nothing_more_and_keeps_its_log() {
    let w = World::webhooks(false);
    let c = w.client();
    let (r, _) = subscribed(&w, &c, &w.live, "/off");
    issue(&w, &c, 1000);
    w.server.deliver_due(jiff::Timestamp::now()).unwrap();
    issue(&w, &c, 1000); // pending when the endpoint is disabled
    let id = c.get(&w.live, "/v1/webhooks").body["data"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let auth = format!("Bearer {}", w.live);
    assert_eq!(
        c.send(
            "DELETE",
            &format!("/v1/webhooks/{id}"),
            &[("Authorization", &auth)],
            None
        )
        .status,
        200
    );
    issue(&w, &c, 1000);
    assert_eq!(w.server.deliver_due(now_plus(3600)).unwrap(), 0);
    assert_eq!(r.received("/off").len(), 1);
    let log = c
        .get(&w.live, &format!("/v1/webhooks/{id}/deliveries"))
        .body;
    assert_eq!(
        log["total"],
        json!(2),
        "the delivered one and the one pending at disabling"
    );
    assert_eq!(log["data"][0]["state"], json!("FAILED"));
    assert_eq!(log["data"][1]["state"], json!("DELIVERED"));
    let path = format!(
        "/v1/webhooks/{id}/deliveries/{}/redeliver",
        log["data"][1]["id"].as_str().unwrap()
    );
    c.send(
        "POST",
        &path,
        &[("Authorization", &auth), ("Idempotency-Key", "r")],
        None,
    )
    .refused(409, "FALSCHER_ZUSTAND");
}

#[test]
fn a_hanging_receiver_does_not_delay_another_endpoint() {
    let w = World::webhooks(true);
    let c = w.client();
    let (slow, _) = subscribed(&w, &c, &w.live, "/slow");
    slow.always("/slow", Answer::slow(Duration::from_secs(6)));
    let (fast, _) = subscribed(&w, &c, &w.live, "/fast");
    for _ in 0..3 {
        issue(&w, &c, 1000);
    }
    // The worker runs in the background: the console's events reach it within a second.
    let got = fast.wait_for("/fast", 3, Duration::from_secs(5));
    assert_eq!(
        got.len(),
        3,
        "the fast endpoint got all three while the slow one hangs"
    );
    let slow_got = slow.received("/slow");
    assert_eq!(slow_got.len(), 1, "one request at a time per endpoint");
    assert!(got[2].at.duration_since(slow_got[0].at) < Duration::from_secs(3));
}

#[test]
fn a_restart_mid_backlog_loses_nothing() {
    let w = World::webhooks(true);
    let c = w.client();
    let (r, _) = subscribed(&w, &c, &w.live, "/backlog");
    // Each delivery takes 400 ms, so twelve take longer than issuing them
    // (each issue a console process writing its documents).
    r.always("/backlog", Answer::slow(Duration::from_millis(400)));
    for _ in 0..12 {
        issue(&w, &c, 1000);
    }
    assert!(
        r.wait_for("/backlog", 2, Duration::from_secs(5)).len() >= 2,
        "the worker started on the backlog"
    );
    let crate::support::World {
        data, server, live, ..
    } = w;
    server.stop();
    // The stop lets the request in flight finish and claims nothing more.
    let before_restart = r.received("/backlog").len();
    assert!(
        before_restart < 12,
        "the restart comes mid-backlog: {before_restart} of 12 sent before it"
    );
    let server = start_configured(&data, &|cfg| {
        cfg.webhook_allow_loopback = true;
        cfg.deliver = true;
    });
    let got = r.wait_for("/backlog", 12, Duration::from_secs(10));
    let ids: BTreeSet<String> = got
        .iter()
        .map(|g| g.header("SERVICE-Event-Id").to_string())
        .collect();
    assert_eq!(ids.len(), 12, "every event arrived at least once");
    let c = Client { addr: server.addr };
    let id = c.get(&live, "/v1/webhooks").body["data"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    // Give the last answer time to be recorded, then all twelve are DELIVERED.
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    loop {
        let log = c
            .get(&live, &format!("/v1/webhooks/{id}/deliveries?size=100"))
            .body;
        let delivered = log["data"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["state"] == "DELIVERED")
            .count();
        if delivered == 12 || std::time::Instant::now() > deadline {
            assert_eq!(delivered, 12);
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn forbidden_redirect_targets_and_long_chains_fail_the_attempt() {
    // The server allows loopback (the receiver lives there), so the forbidden
    // targets here are everything else the rules refuse: private, link-local,
    // CGNAT, unspecified, unique-local, embedded and NAT64 forms, and URLs of
    // the wrong shape. Loopback in numeric spellings (`0x7f.1`, `2130706433`)
    // is allowed under this policy; the registration test and the unit tests
    // of outbox::address cover those under the production rules.
    let w = World::webhooks(false);
    let c = w.client();
    let (r, _) = subscribed(&w, &c, &w.live, "/start");
    let port = r.addr.port();
    let public = |host: &str| format!("The host {host}; webhooks go only to public addresses.");
    let credentials =
        "The URL carries a user name or password; put no credentials in a webhook URL.";
    let https = "Webhook URLs must use https.";
    // (target, kontor's reason). The last two point at the receiver itself,
    // a live listener on loopback: were either followed, it would record it.
    let cases: Vec<(String, String)> = vec![
        (
            "https://10.0.0.1/x".into(),
            public("10.0.0.1 is private (10.0.0.0/8)"),
        ),
        (
            "https://169.254.169.254/latest/meta-data".into(),
            public("169.254.169.254 is link-local (169.254.0.0/16)"),
        ),
        (
            "https://192.168.0.10/".into(),
            public("192.168.0.10 is private (192.168.0.0/16)"),
        ),
        (
            "https://100.64.0.1/".into(),
            public("100.64.0.1 is shared address space (CGNAT, 100.64.0.0/10)"),
        ),
        (
            "https://0.0.0.0/".into(),
            public("0.0.0.0 is in 0.0.0.0/8 (this network)"),
        ),
        (
            "https://[fd00::1]/".into(),
            public("fd00::1 is unique-local (fc00::/7)"),
        ),
        (
            "https://[fe80::1]/".into(),
            public("fe80::1 is link-local (fe80::/10)"),
        ),
        (
            "https://[::ffff:10.0.0.1]/".into(),
            public("::ffff:10.0.0.1 is private (10.0.0.0/8)"),
        ),
        (
            "https://[64:ff9b::7f00:1]/".into(),
            public("64:ff9b::7f00:1 is NAT64 form of a non-public IPv4 address"),
        ),
        ("https://user:pw@example.com/".into(), credentials.into()),
        (
            "ftp://example.com/".into(),
            "\"ftp://example.com/\" is not an http(s) URL.".into(),
        ),
        (
            "https://example.com:8080/".into(),
            "Webhook URLs must use port 443, not 8080.".into(),
        ),
        ("http://example.com/".into(), https.into()),
        // An absolute reference of another scheme is not a path below the current URL.
        (
            "file:///etc/passwd".into(),
            "\"file:///etc/passwd\" is not a URL.".into(),
        ),
        (
            "https://[fe80::1%25lo]/".into(),
            "[fe80::1%25lo] names a network interface (an IPv6 zone id); webhooks go only to public addresses.".into(),
        ),
        (
            format!("http://user:pw@127.0.0.1:{port}/trap-credentials"),
            credentials.into(),
        ),
        (
            // 0.0.0.0 reaches this machine's own listeners on Linux.
            format!("http://0.0.0.0:{port}/trap-unspecified"),
            https.into(),
        ),
    ];
    let log_of = |n: usize| {
        let id = c.get(&w.live, "/v1/webhooks").body["data"][0]["id"]
            .as_str()
            .unwrap()
            .to_string();
        c.get(&w.live, &format!("/v1/webhooks/{id}/deliveries?size=100"))
            .body["data"][n]
            .clone()
    };
    for (i, (target, reason)) in cases.iter().enumerate() {
        r.script("/start", vec![Answer::redirect(target)]);
        issue(&w, &c, 1000 + i as i64);
        assert_eq!(
            w.server.deliver_due(now_plus(100_000 * i as i64)).unwrap(),
            1,
            "{target}"
        );
        let d = log_of(0);
        // Refused by kontor's own check of the hop, before any connection:
        // no status from the target, and the rule it breaks, word for word.
        assert_eq!(
            (
                d["state"].clone(),
                d["attempts"].clone(),
                d["lastStatus"].clone(),
                d["lastError"].clone()
            ),
            (
                json!("PENDING"),
                json!(1),
                json!(null),
                json!(format!("refused target {target}: {reason}"))
            ),
            "{target}"
        );
        // Clear this one so the next event becomes the endpoint's head.
        w.server
            .deliver_due(now_plus(100_000 * i as i64 + 50_000))
            .unwrap();
        assert_eq!(log_of(0)["state"], json!("DELIVERED"), "{target}");
    }
    assert_eq!(r.received("/start").len(), 2 * cases.len());
    assert_eq!(r.received("/trap-credentials").len(), 0);
    assert_eq!(r.received("/trap-unspecified").len(), 0);
    // Three hops are followed; a fourth fails.
    let base = format!("http://{}", r.addr);
    r.script("/start", vec![Answer::redirect(&format!("{base}/h1"))]);
    r.script("/h1", vec![Answer::redirect(&format!("{base}/h2"))]);
    r.script("/h2", vec![Answer::redirect("/h3")]);
    issue(&w, &c, 5000);
    w.server.deliver_due(now_plus(2_000_000)).unwrap();
    assert_eq!(log_of(0)["state"], json!("DELIVERED"));
    assert_eq!(r.received("/h3").len(), 1);
    r.script("/start", vec![Answer::redirect(&format!("{base}/g1"))]);
    r.script("/g1", vec![Answer::redirect(&format!("{base}/g2"))]);
    r.script("/g2", vec![Answer::redirect(&format!("{base}/g3"))]);
    r.script("/g3", vec![Answer::redirect(&format!("{base}/g4"))]);
    issue(&w, &c, 6000);
    w.server.deliver_due(now_plus(3_000_000)).unwrap();
    let d = log_of(0);
    assert_eq!(
        (d["state"].clone(), d["lastError"].clone()),
        (json!("PENDING"), json!("more than 3 redirects"))
    );
    for hop in ["/g1", "/g2", "/g3"] {
        assert_eq!(r.received(hop).len(), 1, "{hop} is followed");
    }
    assert_eq!(r.received("/g4").len(), 0, "the fourth hop is never sent");
}

#[test]
fn relative_redirects_are_resolved_against_the_current_url() {
    let w = World::webhooks(false);
    let c = w.client();
    let (r, _) = subscribed(&w, &c, &w.live, "/in/start");
    r.script(
        "/in/start",
        vec![Answer::redirect("next?back=https://example.com/")],
    );
    r.script(
        "/in/next?back=https://example.com/",
        vec![Answer::redirect(&format!("//{}/in/last", r.addr))],
    );
    issue(&w, &c, 1000);
    w.server.deliver_due(jiff::Timestamp::now()).unwrap();
    assert_eq!(
        r.received("/in/next?back=https://example.com/").len(),
        1,
        "a relative path with :// in its query"
    );
    let id = c.get(&w.live, "/v1/webhooks").body["data"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let d = c
        .get(&w.live, &format!("/v1/webhooks/{id}/deliveries"))
        .body["data"][0]
        .clone();
    // The scheme-relative hop kept http (the receiver speaks no TLS) and
    // went to the host and path it named.
    assert_eq!(r.received("/in/last").len(), 1, "a scheme-relative hop");
    assert_eq!(
        (
            d["state"].clone(),
            d["lastStatus"].clone(),
            d["lastError"].clone()
        ),
        (json!("DELIVERED"), json!(200), json!(null))
    );
}
