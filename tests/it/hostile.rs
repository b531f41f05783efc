//! Whatever a request sends, the answer is a refusal with a code, never a 500,
//! and the server keeps answering.

use std::io::{Read, Write};

use serde_json::json;

use crate::support::World;

/// Sends raw bytes as one request and returns the status code.
fn raw(addr: std::net::SocketAddr, request: &[u8]) -> u16 {
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(5)))
        .unwrap();
    s.write_all(request).unwrap();
    let mut answer = Vec::new();
    let _ = s.read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer);
    text.split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

#[test]
fn hostile_requests_are_refused_without_a_500() {
    let w = World::new();
    let c = w.client();
    let auth = format!("Bearer {}", w.live);
    let deep = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
    let long_name = "x".repeat(100_000);
    let bodies: Vec<Vec<u8>> = vec![
        b"\xff\xfe\x00garbage".to_vec(),
        deep.into_bytes(),
        br#"{"name": "A\u0000B", "street": "S", "postalCode": "1", "city": "B"}"#.to_vec(),
        br#"{"name": 1e999, "street": "S", "postalCode": "1", "city": "B"}"#.to_vec(),
        br#"{"name": {"nested": [1, 2, {"x": null}]}, "street": "S"}"#.to_vec(),
        format!(r#"{{"name": "{long_name}", "street": "S", "postalCode": "1", "city": "B"}}"#)
            .into_bytes(),
        br#"{"name": "A", "street": "S", "postalCode": "1", "city": "B", "country": "\ud800"}"#
            .to_vec(),
        b"null".to_vec(),
        b"\"just a string\"".to_vec(),
        br#"{"title": "t", "dueOn": "2026-02-30"}"#.to_vec(),
        br#"{"title": "t", "dueOn": "99999-01-01"}"#.to_vec(),
        br#"{"title": "t", "customerId": "'; DROP TABLE customers; --"}"#.to_vec(),
    ];
    for (i, body) in bodies.iter().enumerate() {
        for path in ["/v1/customers", "/v1/transactions"] {
            let a = c.send(
                "POST",
                path,
                &[
                    ("Authorization", &auth),
                    ("Idempotency-Key", &format!("h{i}{path}")),
                ],
                Some(body),
            );
            assert!(
                matches!(a.status, 400 | 404 | 409 | 413),
                "{path} body {i}: {} {:?}",
                a.status,
                a.body
            );
            assert!(a.body["code"].is_string(), "{path} body {i}: {:?}", a.body);
        }
    }
    let paths = [
        "/v1/customers/%ZZ",
        "/v1/customers/%FF%FE",
        "/v1/customers/..%2F..%2Fetc%2Fpasswd",
        "/v1/customers?page=%FF",
        "/v1/customers?search=%25%5F%27%22%00",
        "/v1/transactions?search=%22%2A%28NEAR%20OR%29",
        "/v1/transactions?search=AND%20OR%20NOT",
        "/v1/transactions?period=9999-Q9",
        "/v1/transactions?from=0000-00-00",
        "/v1//customers",
        "/v1/me/extra",
        "/",
        "/v1",
    ];
    for path in paths {
        let a = c.get(&w.live, path);
        assert!(a.status < 500, "{path}: {} {:?}", a.status, a.body);
        assert!(
            a.body["code"].is_string() || a.status == 200,
            "{path}: {:?}",
            a.body
        );
    }
    let long_path = format!("/v1/customers/{}", "a".repeat(50_000));
    assert!(c.get(&w.live, &long_path).status < 500);
    // Raw bytes no client library would send.
    let addr = w.server.addr;
    let bad_auth = b"GET /v1/me HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer \xff\xfe\r\n\r\n";
    assert_eq!(raw(addr, bad_auth), 401);
    let mut bad_idem = format!(
        "POST /v1/customers HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer {}\r\nIdempotency-Key: ",
        w.live
    )
    .into_bytes();
    bad_idem.extend_from_slice(b"\xc3\r\nContent-Length: 2\r\n\r\n{}");
    let code = raw(addr, &bad_idem);
    assert!((400..500).contains(&code), "{code}");
    // A request line hyper cannot parse: it answers 400 itself (or closes).
    let garbage = raw(addr, b"NONSENSE\r\n\r\n");
    assert!(garbage == 0 || (400..500).contains(&garbage), "{garbage}");
    // Still serving, and nothing of the above was created.
    let list = c.get(&w.live, "/v1/customers");
    assert_eq!(list.status, 200);
    assert_eq!(list.body["total"], json!(0));
    assert_eq!(c.get(&w.live, "/v1/transactions").body["total"], json!(0));
    // No refusal took a number.
    assert_eq!(c.customer(&w.live, "Danach")["number"], json!("K10001"));
    let t = c.transaction(&w.live, json!({"title": "Danach"}));
    let year = &t["startedOn"].as_str().unwrap()[..4];
    assert_eq!(t["number"], json!(format!("V{year}-0001")));
}

/// Sets the remembered Idempotency-Key `key` to `age` old (an SQLite
/// modifier such as `-29 days`), as the clock would.
fn age(data: &crate::support::DataFile, key: &str, age: &str) {
    let conn = rusqlite::Connection::open(&data.path).unwrap();
    let changed = conn
        .execute(
            "UPDATE idempotency_keys SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?2) WHERE key = ?1",
            [key, age],
        )
        .unwrap();
    assert_eq!(changed, 1, "the key {key} is remembered");
}

#[test]
fn idempotency_keys_are_forgotten_after_thirty_days() {
    let w = World::new();
    let c = w.client();
    let body = json!({"name": "Alt", "street": "S", "postalCode": "1", "city": "B"});
    let first = c.post(&w.live, "/v1/customers", "monthly", &body);
    assert_eq!(first.status, 201);
    // Twenty-nine days old, the key still replays.
    age(&w.data, "monthly", "-29 days");
    let replay = c.post(&w.live, "/v1/customers", "monthly", &body);
    assert_eq!(
        (replay.header("Idempotent-Replayed"), &replay.body["id"]),
        (Some("true"), &first.body["id"])
    );
    // Thirty-one days old, forgotten: the key does new work instead of
    // replaying or conflicting.
    age(&w.data, "monthly", "-31 days");
    let other = c.post(
        &w.live,
        "/v1/customers",
        "monthly",
        &json!({"name": "Neu", "street": "S", "postalCode": "1", "city": "B"}),
    );
    assert_eq!(other.status, 201);
    assert_eq!(other.header("Idempotent-Replayed"), None);
    assert_ne!(other.body["id"], first.body["id"]);
    // A restart purges forgotten rows; a fresh one stays and still replays.
    let fresh_body = json!({"name": "Frisch", "street": "S", "postalCode": "1", "city": "B"});
    let fresh = c.post(&w.live, "/v1/customers", "fresh", &fresh_body);
    assert_eq!(fresh.status, 201);
    let crate::support::World {
        data, server, live, ..
    } = w;
    server.stop();
    age(&data, "monthly", "-31 days");
    let server = crate::support::start(&data);
    let conn = rusqlite::Connection::open(&data.path).unwrap();
    let left: Vec<String> = conn
        .prepare("SELECT key FROM idempotency_keys")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    assert_eq!(left, ["fresh"]);
    let c = crate::support::Client { addr: server.addr };
    let again = c.post(&live, "/v1/customers", "fresh", &fresh_body);
    assert_eq!(
        (again.header("Idempotent-Replayed"), &again.body["id"]),
        (Some("true"), &fresh.body["id"])
    );
}
