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
