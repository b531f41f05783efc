//! Ambiguous or hostile requests are refused rather than read one way, and
//! what an answer or a file holds stays with those it belongs to: repeated
//! headers and JSON keys, the registration of addresses delivery refuses,
//! a signing secret shown to its registering key only, `Cache-Control:
//! no-store`, data files readable by their owner only, and the agent
//! protocol's `_meta` refused by the specification's code.

use serde_json::{json, Value};

use crate::support::{unique, World};

#[test]
fn a_repeated_key_idempotency_key_or_json_key_is_refused() {
    let w = World::new();
    let c = w.client();
    let live = format!("Bearer {}", w.live);
    let other = w.data.key(&w.company, "production", "all");
    let other = format!("Bearer {other}");
    // Two keys, even the same one twice, are no readable key.
    for second in [&live, &other] {
        let a = c.send(
            "GET",
            "/v1/me",
            &[("Authorization", &live), ("Authorization", second)],
            None,
        );
        a.refused(401, "UNAUTHENTICATED");
    }
    let body = br#"{"name":"A","street":"S 1","postalCode":"1","city":"B"}"#;
    let a = c.send(
        "POST",
        "/v1/customers",
        &[
            ("Authorization", &live),
            ("Idempotency-Key", "one"),
            ("Idempotency-Key", "two"),
        ],
        Some(body),
    );
    a.refused(400, "ANFRAGE");
    assert!(a.body["fehler"]
        .as_str()
        .unwrap()
        .contains("more than once"));
    // A JSON object naming a key twice: neither value is taken.
    let twice = br#"{"name":"A","street":"S 1","postalCode":"1","city":"B","name":"Z"}"#;
    let a = c.send(
        "POST",
        "/v1/customers",
        &[("Authorization", &live), ("Idempotency-Key", "three")],
        Some(twice),
    );
    a.refused(400, "ANFRAGE");
    assert!(a.body["fehler"]
        .as_str()
        .unwrap()
        .contains("\"name\" is given twice"));
    // The same body with each key once is read.
    let once: Value = serde_json::from_slice(body).unwrap();
    assert_eq!(
        c.post(&w.live, "/v1/customers", &unique(), &once).status,
        201
    );
    // Nothing was made by the refusals.
    assert_eq!(c.get(&w.live, "/v1/customers").body["total"], json!(1));
    // The agent endpoint reads no such body either.
    let rpc = br#"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#;
    let a = c.send(
        "POST",
        "/mcp",
        &[
            ("Authorization", &live),
            ("Content-Type", "application/json"),
        ],
        Some(rpc),
    );
    assert_eq!(
        (a.status, a.body["error"]["code"].clone()),
        (400, json!(-32700))
    );
}

#[test]
fn registration_refuses_the_addresses_delivery_refuses() {
    let w = World::new();
    let c = w.client();
    for url in [
        "https://localhost./hook",
        "https://foo.localhost./hook",
        "https://[::1%25lo]/hook",
        "https://[fe80::1%25lo]/hook",
    ] {
        let a = c.post(
            &w.live,
            "/v1/webhooks",
            &unique(),
            &json!({"url": url, "events": ["*"]}),
        );
        a.refused(409, "ABGELEHNT");
    }
    // Loopback allowed (development) still refuses an interface's zone id.
    let w = World::webhooks(false);
    let c = w.client();
    let a = c.post(
        &w.live,
        "/v1/webhooks",
        &unique(),
        &json!({"url": "http://[::1%25lo]:9/hook", "events": ["*"]}),
    );
    a.refused(409, "ABGELEHNT");
    assert_eq!(c.get(&w.live, "/v1/webhooks").body["total"], json!(0));
}

#[test]
fn a_signing_secret_is_shown_to_its_registering_key_only_while_enabled() {
    let w = World::webhooks(false);
    let c = w.client();
    let other = w.data.key(&w.company, "production", "all");
    let body = json!({"url": "http://127.0.0.1:9/hook", "events": ["*"]});
    let first = c.post(&w.live, "/v1/webhooks", "hook-1", &body);
    assert_eq!(first.status, 201);
    let secret = first.body["secret"].as_str().unwrap().to_string();
    assert!(secret.starts_with("whsec_"));
    // The same key replays the same answer, secret included.
    let again = c.post(&w.live, "/v1/webhooks", "hook-1", &body);
    assert_eq!(
        (
            again.status,
            again.header("Idempotent-Replayed"),
            again.body.clone()
        ),
        (201, Some("true"), first.body.clone())
    );
    // Another key of the company replays the endpoint without it.
    let foreign = c.post(&other, "/v1/webhooks", "hook-1", &body);
    assert_eq!(foreign.status, 201);
    assert_eq!(foreign.body["id"], first.body["id"]);
    assert!(foreign.body.get("secret").is_none(), "{}", foreign.body);
    // Once disabled, nobody sees it again.
    let id = first.body["id"].as_str().unwrap();
    let auth = format!("Bearer {}", w.live);
    let d = c.send(
        "DELETE",
        &format!("/v1/webhooks/{id}"),
        &[("Authorization", &auth)],
        None,
    );
    assert_eq!(d.status, 200);
    let late = c.post(&w.live, "/v1/webhooks", "hook-1", &body);
    assert_eq!(
        (late.status, late.body["enabled"].clone()),
        (201, json!(false))
    );
    assert!(late.body.get("secret").is_none(), "{}", late.body);
    assert!(!late.body.to_string().contains(&secret));
}

#[test]
fn no_answer_may_be_cached() {
    let w = World::new();
    let c = w.client();
    let auth = format!("Bearer {}", w.live);
    let answers = [
        c.get(&w.live, "/v1/me"),
        c.get("svc_live_nonsense", "/v1/me"),
        c.get(&w.live, "/v1/nowhere"),
        c.send(
            "POST",
            "/mcp",
            &[
                ("Authorization", &auth),
                ("Content-Type", "application/json"),
            ],
            Some(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
        ),
    ];
    for a in answers {
        assert_eq!(a.header("Cache-Control"), Some("no-store"), "{:?}", a.body);
    }
}

#[cfg(unix)]
#[test]
fn a_new_data_file_is_readable_by_its_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let w = World::new();
    // The server has written (the keys' use), so the WAL and its index exist.
    assert_eq!(w.client().get(&w.live, "/v1/me").status, 200);
    for suffix in ["", "-wal", "-shm"] {
        let mut path = w.data.path.as_os_str().to_owned();
        path.push(suffix);
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{}{suffix}", w.data.path.display());
    }
}

#[test]
fn the_agent_protocol_refuses_meta_without_its_version_as_invalid_params() {
    let w = World::new();
    let c = w.client();
    let auth = format!("Bearer {}", w.live);
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/list",
        "params": {"_meta": {"io.modelcontextprotocol/clientCapabilities": {}}}
    });
    let a = c.send(
        "POST",
        "/mcp",
        &[
            ("Authorization", &auth),
            ("Content-Type", "application/json"),
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/list"),
        ],
        Some(&serde_json::to_vec(&body).unwrap()),
    );
    assert_eq!(
        (a.status, a.body["error"]["code"].clone()),
        (400, json!(-32602))
    );
}

/// A raw connection to the server, for what an HTTP client would not send.
struct Raw(std::net::TcpStream);

impl Raw {
    fn open(w: &World) -> Raw {
        let s = std::net::TcpStream::connect(w.server.addr).unwrap();
        s.set_read_timeout(Some(std::time::Duration::from_secs(20)))
            .unwrap();
        Raw(s)
    }

    fn send(&mut self, bytes: &[u8]) {
        use std::io::Write;
        self.0.write_all(bytes).unwrap();
    }

    /// Everything the server sends until it closes the connection (bounded
    /// by the read timeout, which fails the test).
    fn until_closed(&mut self) -> String {
        use std::io::Read;
        let mut out = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            match self.0.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break,
                Err(e) => panic!("the server kept the connection open: {e}"),
            }
        }
        String::from_utf8_lossy(&out).to_string()
    }
}

fn post_head(w: &World, key: &str, length: usize) -> String {
    format!(
        "POST /v1/customers HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {key}\r\nIdempotency-Key: {}\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n\r\n",
        w.server.addr,
        unique()
    )
}

#[test]
fn the_key_is_checked_before_a_byte_of_the_body_is_read() {
    let w = World::new();
    // A bad key: 401 at once, the body never sent, and the connection closed.
    let mut raw = Raw::open(&w);
    raw.send(post_head(&w, "svc_live_nonsense", 500_000).as_bytes());
    let answer = raw.until_closed();
    assert!(answer.starts_with("HTTP/1.1 401"), "{answer}");
    assert!(
        answer.to_ascii_lowercase().contains("connection: close"),
        "{answer}"
    );
    // A good key and a declared length over the limit: 413 at once.
    let mut raw = Raw::open(&w);
    raw.send(post_head(&w, &w.live, 2 * 1024 * 1024).as_bytes());
    let answer = raw.until_closed();
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("ratelimit-remaining"), "{answer}");
    assert_eq!(
        w.client().get(&w.live, "/v1/customers").body["total"],
        json!(0)
    );
}

#[test]
fn a_stalled_body_gets_408_and_a_silent_connection_is_closed() {
    let w = World::configured(|c| {
        c.body_timeout = std::time::Duration::from_secs(1);
        c.header_timeout = std::time::Duration::from_secs(1);
    });
    let mut raw = Raw::open(&w);
    raw.send(post_head(&w, &w.live, 100).as_bytes());
    raw.send(b"{\"name\":");
    let answer = raw.until_closed();
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"code\":\"ANFRAGE\""), "{answer}");
    // A connection that sends nothing, or half a head, is closed.
    let mut silent = Raw::open(&w);
    assert_eq!(silent.until_closed(), "");
    let mut half = Raw::open(&w);
    half.send(b"GET /v1/me HTTP/1.1\r\nHost: x\r\n");
    let answer = half.until_closed();
    assert!(!answer.contains("200 OK"), "{answer}");
    // Nothing was made; the server still answers.
    assert_eq!(
        w.client().get(&w.live, "/v1/customers").body["total"],
        json!(0)
    );
}

#[test]
fn at_the_connection_cap_the_oldest_idle_connections_make_room() {
    let w = World::configured(|c| {
        c.max_connections = 8;
        c.connection_reserve = 2;
        c.header_timeout = std::time::Duration::from_secs(60);
    });
    // Eight connections that send nothing, opened one after another (the
    // server accepts them in that order).
    let mut idle: Vec<Raw> = (0..8).map(|_| Raw::open(&w)).collect();
    // A fresh client is still served ...
    assert_eq!(w.client().get(&w.live, "/v1/me").status, 200);
    // ... because the oldest idle connections were closed for it.
    assert_eq!(idle[0].until_closed(), "");
}
