//! The request pipeline: every refusal code, its body, its headers and the
//! order in which the checks run.

use std::time::Duration;

use serde_json::json;

use crate::support::{start, unique, DataFile, World};

#[test]
fn five_bad_keys_get_one_identical_401() {
    let data = DataFile::new();
    let company = data.company("Erste GmbH", "ENTERPRISE");
    let revoked = data.ok(&[
        "key",
        "create",
        "--company",
        &company,
        "--name",
        "r",
        "--environment",
        "production",
        "--scopes",
        "all",
    ]);
    data.ok(&["key", "revoke", revoked["id"].as_str().unwrap()]);
    let later = kontor::store::clock::format_instant(
        jiff::Timestamp::now() + jiff::SignedDuration::from_hours(1),
    );
    let expired = data.ok(&[
        "key",
        "create",
        "--company",
        &company,
        "--name",
        "e",
        "--environment",
        "production",
        "--scopes",
        "all",
        "--expires-at",
        &later,
    ]);
    let server = start(&data);
    let client = crate::support::Client { addr: server.addr };
    // The expiring key works until its instant passes.
    assert_eq!(
        client
            .get(expired["secret"].as_str().unwrap(), "/v1/me")
            .status,
        200
    );
    // Its instant passes: moved to a second ago, as the clock would move it
    // (the console takes only future instants).
    let moved = rusqlite::Connection::open(&data.path)
        .unwrap()
        .execute(
            "UPDATE api_keys SET expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 second') WHERE id = ?1",
            [expired["id"].as_str().unwrap()],
        )
        .unwrap();
    assert_eq!(moved, 1);

    let unknown = format!("svc_live_{}", kontor::store::ids::base62(40));
    let revoked_auth = format!("Bearer {}", revoked["secret"].as_str().unwrap());
    let expired_auth = format!("Bearer {}", expired["secret"].as_str().unwrap());
    let unknown_auth = format!("Bearer {unknown}");
    let cases: Vec<Vec<(&str, &str)>> = vec![
        vec![],                                        // missing
        vec![("Authorization", "Bearer not-a-key")],   // unreadable
        vec![("Authorization", "Basic dXNlcjpwYXNz")], // unreadable scheme
        vec![("Authorization", &unknown_auth)],        // unknown
        vec![("Authorization", &revoked_auth)],        // revoked
        vec![("Authorization", &expired_auth)],        // expired
    ];
    let mut bodies = Vec::new();
    for headers in cases {
        let a = client.send("GET", "/v1/customers", &headers, None);
        a.refused(401, "UNAUTHENTICATED");
        assert_eq!(a.header("WWW-Authenticate"), Some("Bearer"));
        assert_eq!(a.header("RateLimit-Limit"), None);
        bodies.push(a.body);
    }
    assert!(bodies.windows(2).all(|w| w[0] == w[1]), "{bodies:?}");
}

#[test]
fn the_key_check_comes_before_the_path() {
    let w = World::new();
    let c = w.client();
    c.send("GET", "/v1/nowhere", &[], None)
        .refused(401, "UNAUTHENTICATED");
    c.send("GET", "/v1", &[], None)
        .refused(401, "UNAUTHENTICATED");
    // Addresses outside /v1 and /mcp are the screens': the client follows
    // their redirect to the sign-in page.
    let screen = c.send("GET", "/mcp-nothing", &[], None);
    assert_eq!(
        (screen.status, screen.header("Content-Type")),
        (200, Some("text/html; charset=utf-8"))
    );
    let a = c.get(&w.live, "/v1/nowhere");
    a.refused(404, "NICHT_GEFUNDEN");
    assert_eq!(a.header("RateLimit-Limit"), Some("240"));
    c.get(&w.live, "/v1/customers/")
        .refused(404, "NICHT_GEFUNDEN");
}

#[test]
fn a_company_without_enterprise_gets_403_plan_even_for_me() {
    let data = DataFile::new();
    let company = data.company("Kleine GmbH", "PROFESSIONAL");
    // A key with no scopes for customers: the plan check still comes first.
    let key = data.key(&company, "production", "reports:read");
    let server = start(&data);
    let c = crate::support::Client { addr: server.addr };
    c.get(&key, "/v1/me").refused(403, "PLAN_ERFORDERLICH");
    c.get(&key, "/v1/customers")
        .refused(403, "PLAN_ERFORDERLICH");
    c.get(&key, "/v1/nowhere").refused(403, "PLAN_ERFORDERLICH");
    // Upgrading the plan in the console opens the API at once.
    data.ok(&["company", "plan", &company, "ENTERPRISE"]);
    assert_eq!(c.get(&key, "/v1/me").status, 200);
    c.get(&key, "/v1/customers")
        .refused(403, "KEINE_BERECHTIGUNG");
}

#[test]
fn scopes_are_checked_before_the_request_is_read() {
    let data = DataFile::new();
    let company = data.company("Erste GmbH", "ENTERPRISE");
    let reader = data.key(&company, "production", "customers:read");
    let server = start(&data);
    let c = crate::support::Client { addr: server.addr };
    // No Idempotency-Key and no body: still 403, because scopes come first.
    let auth = format!("Bearer {reader}");
    c.send("POST", "/v1/customers", &[("Authorization", &auth)], None)
        .refused(403, "KEINE_BERECHTIGUNG");
    c.get(&reader, "/v1/transactions")
        .refused(403, "KEINE_BERECHTIGUNG");
    c.get(&reader, "/v1/transactions?period=nonsense")
        .refused(403, "KEINE_BERECHTIGUNG");
    assert_eq!(c.get(&reader, "/v1/customers").status, 200);
    // GET /me needs no scope.
    let me = c.get(&reader, "/v1/me");
    assert_eq!(me.body["scopes"], json!(["customers:read"]));
    assert_eq!(me.body["permissions"], json!(["VIEW_CUSTOMERS"]));
}

#[test]
fn the_rate_budget_runs_dry_at_241_and_refills() {
    let data = DataFile::new();
    let company = data.company("Erste GmbH", "ENTERPRISE");
    // A key without the customers scope: 429 still comes before 403.
    let key = data.key(&company, "production", "reports:read");
    let server = start(&data);
    let c = crate::support::Client { addr: server.addr };
    let started = std::time::Instant::now();
    for i in 0..240 {
        let a = c.get(&key, "/v1/me");
        assert_eq!(a.status, 200, "request {}", i + 1);
        assert_eq!(a.header("RateLimit-Limit"), Some("240"));
        if i == 0 {
            // One token spent of a full bucket: 239 left, full again within
            // the token's 500 ms, which reads as one second.
            assert_eq!(a.header("RateLimit-Remaining"), Some("239"));
            assert_eq!(a.header("RateLimit-Reset"), Some("1"));
        }
    }
    // Tokens come back while the 240 are sent (one per 500 ms): those pass the
    // budget and meet the scope check; then the budget is dry.
    let mut extra = 0;
    let a = loop {
        let a = c.get(&key, "/v1/customers");
        if a.status == 429 {
            break a;
        }
        a.refused(403, "KEINE_BERECHTIGUNG");
        extra += 1;
    };
    assert!(
        extra <= started.elapsed().as_millis() / 500 + 1,
        "{extra} extra requests passed"
    );
    a.refused(429, "ZU_VIELE_ANFRAGEN");
    let retry: u64 = a.header("Retry-After").unwrap().parse().unwrap();
    assert!((1..=1).contains(&retry), "Retry-After {retry}");
    assert_eq!(a.body["wartesekunden"], json!(retry));
    assert_eq!(a.header("RateLimit-Remaining"), Some("0"));
    let reset: u128 = a.header("RateLimit-Reset").unwrap().parse().unwrap();
    assert!(
        reset + started.elapsed().as_millis() / 1000 + 1 >= 119 && reset <= 120,
        "reset {reset}"
    );
    // A token comes back (one every 500 ms: `access::budget`'s own test
    // drives the bucket's clock): polling the dry key (a refusal takes no
    // token), a request passes again, and it spends the one token there was.
    let dry = std::time::Instant::now();
    while c.get(&key, "/v1/me").status != 200 {
        assert!(
            dry.elapsed() < Duration::from_secs(10),
            "a token comes back"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    c.get(&key, "/v1/me").refused(429, "ZU_VIELE_ANFRAGEN");
    // Another key of the same company has its own budget.
    let other = data.key(&company, "production", "all");
    assert_eq!(c.get(&other, "/v1/me").status, 200);
}

#[test]
fn unreadable_requests_get_400_naming_what_is_wrong() {
    let w = World::new();
    let c = w.client();
    let auth = format!("Bearer {}", w.live);
    let post = |idem: Option<&str>, body: &[u8]| {
        let mut headers = vec![("Authorization", auth.as_str())];
        if let Some(k) = idem {
            headers.push(("Idempotency-Key", k));
        }
        c.send("POST", "/v1/customers", &headers, Some(body))
    };
    let good = br#"{"name":"A","street":"S 1","postalCode":"1","city":"B"}"#;
    let a = post(None, good);
    a.refused(400, "ANFRAGE");
    assert!(a.body["fehler"]
        .as_str()
        .unwrap()
        .contains("Idempotency-Key"));
    post(Some(&"k".repeat(201)), good).refused(400, "ANFRAGE");
    assert_eq!(post(Some(&"k".repeat(200)), good).status, 201);
    post(Some("x1"), b"{not json").refused(400, "ANFRAGE");
    post(Some("x2"), b"").refused(400, "ANFRAGE");
    post(Some("x3"), b"[1,2]").refused(400, "ANFRAGE");
    let cases: &[(&[u8], &str)] = &[
        (br#"{"street":"S","postalCode":"1","city":"B"}"#, "name"),
        (
            br#"{"name":5,"street":"S","postalCode":"1","city":"B"}"#,
            "name",
        ),
        (
            br#"{"name":"A","street":"S","postalCode":"1","city":"B","colour":"red"}"#,
            "colour",
        ),
        (
            br#"{"name":"A","street":"S","postalCode":"1","city":"B","country":"XY"}"#,
            "country",
        ),
        (
            br#"{"name":"A","street":"S","postalCode":"1","city":"B","currency":"EURO"}"#,
            "currency",
        ),
        (
            br#"{"name":"A","street":"S","postalCode":"1","city":"B","email":"nobody"}"#,
            "email",
        ),
        (
            br#"{"name":"  ","street":"S","postalCode":"1","city":"B"}"#,
            "name",
        ),
    ];
    for (i, (body, field)) in cases.iter().enumerate() {
        let a = post(Some(&format!("case-{i}")), body);
        a.refused(400, "ANFRAGE");
        assert!(
            a.body["fehler"].as_str().unwrap().contains(field),
            "{field}: {}",
            a.body
        );
    }
    // Query parameters with a wrong format.
    for q in [
        "page=abc",
        "size=1.5",
        "period=2026-13",
        "period=Q1",
        "from=2026-1-1",
        "includeArchived=maybe",
    ] {
        c.get(&w.live, &format!("/v1/transactions?{q}"))
            .refused(400, "ANFRAGE");
    }
    // Nothing of the refused requests was created.
    assert_eq!(c.get(&w.live, "/v1/customers").body["total"], json!(1));
}

#[test]
fn a_body_over_one_mib_gets_413() {
    let w = World::new();
    let c = w.client();
    let auth = format!("Bearer {}", w.live);
    let big = format!(
        r#"{{"name":"{}","street":"S","postalCode":"1","city":"B"}}"#,
        "a".repeat(1024 * 1024)
    );
    let a = c.send(
        "POST",
        "/v1/customers",
        &[("Authorization", &auth), ("Idempotency-Key", "big")],
        Some(big.as_bytes()),
    );
    a.refused(413, "ANFRAGE");
    assert!(a.header("RateLimit-Remaining").is_some());
}

#[test]
fn a_known_path_with_the_wrong_method_gets_405_with_allow() {
    let w = World::new();
    let c = w.client();
    let auth = format!("Bearer {}", w.live);
    let a = c.send("DELETE", "/v1/customers", &[("Authorization", &auth)], None);
    a.refused(405, "ANFRAGE");
    assert_eq!(a.header("Allow"), Some("GET, POST"));
    let a = c.send(
        "PUT",
        "/v1/transactions/txn_x",
        &[("Authorization", &auth)],
        None,
    );
    a.refused(405, "ANFRAGE");
    assert_eq!(a.header("Allow"), Some("GET, PATCH"));
    let a = c.send("POST", "/v1/me", &[("Authorization", &auth)], None);
    a.refused(405, "ANFRAGE");
    assert_eq!(a.header("Allow"), Some("GET"));
}

#[test]
fn missing_records_get_404_and_domain_rules_409() {
    let w = World::new();
    let c = w.client();
    c.get(&w.live, "/v1/customers/cus_doesnotexist")
        .refused(404, "NICHT_GEFUNDEN");
    c.get(&w.live, "/v1/transactions/txn_doesnotexist")
        .refused(404, "NICHT_GEFUNDEN");
    c.patch(
        &w.live,
        "/v1/transactions/txn_doesnotexist",
        &json!({"title": "x"}),
    )
    .refused(404, "NICHT_GEFUNDEN");
    // 400 comes before 404: an unreadable body with an unknown customer.
    c.post(
        &w.live,
        "/v1/transactions",
        &unique(),
        &json!({"customerId": "cus_nope"}),
    )
    .refused(400, "ANFRAGE");
    c.post(
        &w.live,
        "/v1/transactions",
        &unique(),
        &json!({"title": "t", "customerId": "cus_nope"}),
    )
    .refused(404, "NICHT_GEFUNDEN");
    // 404 comes before 409: unknown customer and unknown stage.
    c.post(
        &w.live,
        "/v1/transactions",
        &unique(),
        &json!({"title": "t", "customerId": "cus_nope", "stage": "NIE"}),
    )
    .refused(404, "NICHT_GEFUNDEN");
    let a = c.post(
        &w.live,
        "/v1/transactions",
        &unique(),
        &json!({"title": "t", "stage": "NIE"}),
    );
    a.refused(409, "ABGELEHNT");
    assert!(a.body["fehler"].as_str().unwrap().contains("NIE"));
    let t = c.transaction(&w.live, json!({"title": "t"}));
    let path = format!("/v1/transactions/{}", t["id"].as_str().unwrap());
    assert_eq!(
        c.patch(&w.live, &path, &json!({"archived": true})).status,
        200
    );
    c.patch(&w.live, &path, &json!({"title": "neu"}))
        .refused(409, "FALSCHER_ZUSTAND");
    // Nothing refused was created.
    assert_eq!(
        c.get(&w.live, "/v1/transactions?includeArchived=true").body["total"],
        json!(1)
    );
}

#[test]
fn me_shows_the_key_identity_and_never_the_secret() {
    let w = World::new();
    let c = w.client();
    let me = c.get(&w.live, "/v1/me");
    assert_eq!(me.status, 200);
    let b = &me.body;
    assert_eq!(b["organisationId"], json!(w.company));
    assert_eq!(b["organisation"], json!("Erste GmbH"));
    assert_eq!(
        b["binding"],
        json!({"organisationId": w.company, "organisation": "Erste GmbH", "immutable": true})
    );
    assert_eq!(b["name"], json!("test key"));
    assert_eq!(b["environment"], json!("PRODUCTION"));
    assert_eq!(b["scopes"].as_array().unwrap().len(), 9);
    assert_eq!(b["permissions"].as_array().unwrap().len(), 9);
    assert!(b["lastUsedAt"].as_str().unwrap().ends_with('Z'));
    assert_eq!(b["expiresAt"], json!(null));
    let display = b["key"].as_str().unwrap();
    assert!(
        display.starts_with("svc_live_") && display.chars().count() == 18,
        "{display}"
    );
    assert!(!me.body.to_string().contains(&w.live[9..]));
    let test_me = c.get(&w.test, "/v1/me");
    assert_eq!(test_me.body["environment"], json!("SANDBOX"));
    assert!(test_me.body["key"]
        .as_str()
        .unwrap()
        .starts_with("svc_test_"));
}

#[test]
fn shutdown_lets_an_in_flight_request_finish() {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::net::TcpStream;
    let w = World::new();
    let addr = w.server.addr;
    let body = br#"{"name":"Late GmbH","street":"S 1","postalCode":"1","city":"B"}"#;
    let mut stream = TcpStream::connect(addr).unwrap();
    // A bound on every read below, should the server never answer.
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let head = format!(
        "POST /v1/customers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {}\r\nIdempotency-Key: late\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: {}\r\n\r\n",
        w.live,
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    // The server answers `100 Continue` when the handler starts reading the
    // body: from then on the request is in flight.
    let mut interim = String::new();
    while !interim.ends_with("\r\n\r\n") {
        assert_ne!(reader.read_line(&mut interim).unwrap(), 0, "{interim}");
    }
    assert!(interim.starts_with("HTTP/1.1 100"), "{interim}");
    stream.write_all(&body[..10]).unwrap();
    // Stop the server while the request is half sent.
    let World {
        data, server, live, ..
    } = w;
    let stopper = std::thread::spawn(move || server.stop());
    // The stop has begun once the server accepts no new connection.
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(addr).is_ok() {
        assert!(
            std::time::Instant::now() < deadline,
            "the server still accepts connections"
        );
        std::thread::yield_now();
    }
    assert!(
        !stopper.is_finished(),
        "the server stopped with a request in flight"
    );
    stream.write_all(&body[10..]).unwrap();
    let mut answer = String::new();
    reader.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    stopper.join().unwrap();
    // The acknowledged customer is in the file after the stop.
    let server = start(&data);
    let c = crate::support::Client { addr: server.addr };
    let found = c.get(&live, "/v1/customers?search=Late");
    assert_eq!(found.body["total"], json!(1));
    assert_eq!(found.body["data"][0]["name"], json!("Late GmbH"));
}

#[test]
fn the_console_reaches_a_running_server_at_its_next_request() {
    let data = DataFile::new();
    let company = data.company("Erste GmbH", "ENTERPRISE");
    let made = data.ok(&[
        "key",
        "create",
        "--company",
        &company,
        "--name",
        "first",
        "--environment",
        "production",
        "--scopes",
        "customers:read",
    ]);
    let first = made["secret"].as_str().unwrap().to_string();
    let second = data.key(&company, "production", "customers:read");
    let server = start(&data);
    let c = crate::support::Client { addr: server.addr };
    // Both keys are used (and so known to the server) before the changes.
    for _ in 0..3 {
        assert_eq!(c.get(&first, "/v1/customers").status, 200);
        assert_eq!(c.get(&second, "/v1/customers").status, 200);
    }
    data.ok(&["key", "revoke", made["id"].as_str().unwrap()]);
    c.get(&first, "/v1/customers")
        .refused(401, "UNAUTHENTICATED");
    let auth = format!("Bearer {first}");
    let call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_customers","arguments":{}}}"#;
    let mcp = c.send(
        "POST",
        "/mcp",
        &[
            ("Authorization", &auth),
            ("Content-Type", "application/json"),
            ("MCP-Protocol-Version", "2025-11-25"),
        ],
        Some(call),
    );
    assert_eq!(mcp.status, 401, "{:?}", mcp.body);
    assert_eq!(c.get(&second, "/v1/customers").status, 200);
    // A plan taken away closes the API for every key of the company at once.
    data.ok(&["company", "plan", &company, "PROFESSIONAL"]);
    c.get(&second, "/v1/customers")
        .refused(403, "PLAN_ERFORDERLICH");
    // A revoked key stays refused after the plan comes back.
    data.ok(&["company", "plan", &company, "ENTERPRISE"]);
    assert_eq!(c.get(&second, "/v1/customers").status, 200);
    c.get(&first, "/v1/customers")
        .refused(401, "UNAUTHENTICATED");
}
