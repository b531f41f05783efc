//! The agent-protocol server over raw HTTP: the HTTP rules, authentication,
//! the initialize-based revisions, and the read tools bound to the key's company.

use serde_json::{json, Value};

use crate::support::{Client, World};

fn rpc(
    c: &Client,
    key: Option<&str>,
    version: Option<&str>,
    body: &Value,
) -> crate::support::Answer {
    let auth = key.map(|k| format!("Bearer {k}"));
    let mut headers: Vec<(&str, &str)> = vec![
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
    ];
    if let Some(a) = &auth {
        headers.push(("Authorization", a));
    }
    if let Some(v) = version {
        headers.push(("MCP-Protocol-Version", v));
    }
    let bytes = serde_json::to_vec(body).unwrap();
    c.send("POST", "/mcp", &headers, Some(&bytes))
}

fn call(c: &Client, key: &str, id: i64, tool: &str, arguments: Value) -> Value {
    let a = rpc(
        c,
        Some(key),
        Some("2025-11-25"),
        &json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}),
    );
    assert_eq!(a.status, 200, "{:?}", a.body);
    assert_eq!(a.body["id"], json!(id));
    a.body["result"].clone()
}

#[test]
fn the_endpoint_follows_the_http_rules() {
    let w = World::new();
    let c = w.client();
    let auth = format!("Bearer {}", w.live);
    for method in ["GET", "DELETE"] {
        let a = c.send(method, "/mcp", &[("Authorization", &auth)], None);
        assert_eq!(a.status, 405);
        assert_eq!(a.header("Allow"), Some("POST"));
    }
    let a = c.send(
        "POST",
        "/mcp",
        &[("Authorization", &auth), ("Origin", "https://evil.example")],
        Some(b"{}"),
    );
    assert_eq!(a.status, 403);
    let a = c.send(
        "POST",
        "/mcp",
        &[
            ("Authorization", &auth),
            ("Origin", "http://localhost:3000"),
        ],
        Some(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
    );
    assert_eq!(a.status, 200);
    // Keys: the same answers as REST, with the OAuth-style challenge.
    let a = rpc(
        &c,
        None,
        None,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
    );
    assert_eq!(a.status, 401);
    assert_eq!(
        a.header("WWW-Authenticate"),
        Some(r#"Bearer realm="kontor", error="invalid_token""#)
    );
    for path in [
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-authorization-server",
        "/.well-known/oauth-protected-resource/mcp",
    ] {
        assert_eq!(c.send("GET", path, &[], None).status, 404, "{path}");
    }
    let starter = w.data.company("Klein GmbH", "STARTER");
    let starter_key = w.data.key(&starter, "production", "all");
    rpc(
        &c,
        Some(&starter_key),
        None,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
    )
    .refused(403, "PLAN_ERFORDERLICH");
    // JSON-RPC faults.
    let a = c.send(
        "POST",
        "/mcp",
        &[("Authorization", &auth)],
        Some(b"{not json"),
    );
    assert_eq!(
        (a.status, a.body["error"]["code"].clone()),
        (400, json!(-32700))
    );
    let a = rpc(
        &c,
        Some(&w.live),
        None,
        &json!({"jsonrpc": "2.0", "id": 7, "method": "resources/list"}),
    );
    assert_eq!(
        (a.body["id"].clone(), a.body["error"]["code"].clone()),
        (json!(7), json!(-32601))
    );
    let a = rpc(&c, Some(&w.live), None, &json!({"id": 8, "method": "ping"}));
    assert_eq!(a.body["error"]["code"], json!(-32600));
    // No session is minted.
    assert!(a.header("Mcp-Session-Id").is_none());
}

#[test]
fn the_initialize_based_revisions_are_served() {
    let w = World::new();
    let c = w.client();
    for (asked, answered) in [
        ("2025-11-25", "2025-11-25"),
        ("2025-06-18", "2025-06-18"),
        ("2025-03-26", "2025-03-26"),
        ("2024-11-05", "2025-11-25"),
    ] {
        let a = rpc(
            &c,
            Some(&w.live),
            None,
            &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": asked, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
        );
        assert_eq!(a.status, 200);
        assert_eq!(
            a.body["result"]["protocolVersion"],
            json!(answered),
            "{asked}"
        );
        assert_eq!(
            a.body["result"]["capabilities"]["tools"],
            json!({"listChanged": false})
        );
        assert_eq!(a.body["result"]["serverInfo"]["name"], json!("kontor"));
    }
    // A notification is accepted with 202 and no body.
    let a = rpc(
        &c,
        Some(&w.live),
        Some("2025-11-25"),
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    );
    assert_eq!((a.status, a.body.clone()), (202, Value::Null));
    assert_eq!(
        rpc(
            &c,
            Some(&w.live),
            Some("2025-06-18"),
            &json!({"jsonrpc": "2.0", "id": "p", "method": "ping"})
        )
        .body["result"],
        json!({})
    );
    // An unsupported header version is refused; batches only for 2025-03-26.
    assert_eq!(
        rpc(
            &c,
            Some(&w.live),
            Some("1999-01-01"),
            &json!({"jsonrpc": "2.0", "id": 1, "method": "ping"})
        )
        .status,
        400
    );
    let batch = json!([{"jsonrpc": "2.0", "id": 1, "method": "ping"}, {"jsonrpc": "2.0", "method": "notifications/initialized"}, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}]);
    let a = rpc(&c, Some(&w.live), None, &batch);
    assert_eq!(a.status, 200);
    assert_eq!(a.body.as_array().unwrap().len(), 2);
    assert_eq!(
        rpc(&c, Some(&w.live), Some("2025-11-25"), &batch).status,
        400
    );
}

#[test]
fn tools_are_listed_by_scope_and_read_only_the_keys_company() {
    let w = World::new();
    let c = w.client();
    let names = |key: &str| -> Vec<String> {
        let a = rpc(
            &c,
            Some(key),
            None,
            &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
        );
        a.body["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        names(&w.live),
        [
            "get_customer",
            "search_customers",
            "get_invoice",
            "list_invoices",
            "get_transaction",
            "list_transactions",
            "list_receivables",
            "list_payables",
            "get_profit_and_loss",
            "get_balance_sheet",
            "get_vat_return",
            "get_business_attention",
            "create_invoice_draft",
            "create_quote_draft",
            "create_transaction",
            "add_transaction_note",
        ]
    );
    let narrow = w.data.key(&w.company, "production", "customers:read");
    assert_eq!(names(&narrow), ["get_customer", "search_customers"]);
    let tools = rpc(
        &c,
        Some(&w.live),
        None,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    )
    .body["result"]["tools"]
        .clone();
    for t in tools.as_array().unwrap() {
        assert!(t["title"].is_string() && t["description"].is_string());
        assert_eq!(t["inputSchema"]["type"], json!("object"));
        assert_eq!(t["outputSchema"]["type"], json!("object"));
        let creates = t["name"].as_str().unwrap().starts_with("create_")
            || t["name"] == "add_transaction_note";
        assert_eq!(t["annotations"]["readOnlyHint"], json!(!creates));
        assert_eq!(t["annotations"]["openWorldHint"], json!(false));
        if creates {
            assert_eq!(t["annotations"]["destructiveHint"], json!(false));
        }
    }
    // Calls answer structured content and the same JSON as text.
    let customer = c.customer(&w.live, "Müller Bau GmbH");
    let r = call(
        &c,
        &w.live,
        2,
        "get_customer",
        json!({"customer_id": customer["id"]}),
    );
    assert_eq!(r["isError"], json!(false));
    assert_eq!(r["structuredContent"]["name"], json!("Müller Bau GmbH"));
    assert_eq!(
        serde_json::from_str::<Value>(r["content"][0]["text"].as_str().unwrap()).unwrap(),
        r["structuredContent"]
    );
    // Pages with an opaque cursor.
    for i in 0..3 {
        c.customer(&w.live, &format!("Kunde {i}"));
    }
    let first = call(&c, &w.live, 3, "search_customers", json!({"limit": 2}));
    assert_eq!(
        first["structuredContent"]["items"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert_eq!(first["structuredContent"]["total"], json!(4));
    let cursor = first["structuredContent"]["next_cursor"].clone();
    let second = call(
        &c,
        &w.live,
        4,
        "search_customers",
        json!({"limit": 2, "cursor": cursor}),
    );
    assert_eq!(
        second["structuredContent"]["items"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert_eq!(second["structuredContent"]["next_cursor"], json!(null));
    // A limit out of range is bounded, as REST bounds a page's size.
    for (limit, items) in [(0, 1), (-5, 1), (500, 4)] {
        let r = call(&c, &w.live, 6, "search_customers", json!({"limit": limit}));
        assert_eq!(r["isError"], json!(false), "{limit}: {r}");
        assert_eq!(
            r["structuredContent"]["items"].as_array().unwrap().len(),
            items,
            "{limit}: {r}"
        );
    }
    let rest = c.get(&w.live, "/v1/customers?size=500&page=-1");
    assert_eq!(
        (
            rest.status,
            rest.body["size"].clone(),
            rest.body["page"].clone()
        ),
        (200, json!(100), json!(0))
    );
    assert_eq!(
        call(
            &c,
            &w.live,
            5,
            "search_customers",
            json!({"query": "müller"})
        )["structuredContent"]["total"],
        json!(1)
    );
    // Transactions with notes, invoices by number.
    let txn = c.transaction(
        &w.live,
        json!({"title": "Dach", "customerId": customer["id"]}),
    );
    let t = call(
        &c,
        &w.live,
        6,
        "get_transaction",
        json!({"transaction_id": txn["id"]}),
    );
    assert_eq!(t["structuredContent"]["notes"], json!([]));
    assert_eq!(
        call(
            &c,
            &w.live,
            7,
            "list_transactions",
            json!({"search": "dach"})
        )["structuredContent"]["total"],
        json!(1)
    );
    let d = c.draft(&w.live, &customer);
    w.data.line(&d, 1000, "19", false);
    let number = w.data.ok(&["draft", "issue", &d])["number"]
        .as_str()
        .unwrap()
        .to_string();
    let inv = call(&c, &w.live, 8, "get_invoice", json!({"number": number}));
    assert_eq!(
        inv["structuredContent"]["gross"],
        json!({"minor": 1190, "currency": "EUR"})
    );
    assert!(inv["structuredContent"]["paymentSentence"]
        .as_str()
        .unwrap()
        .starts_with("Zahlbar bis"));
    assert_eq!(
        call(&c, &w.live, 9, "list_invoices", json!({"status": "OPEN"}))["structuredContent"]
            ["total"],
        json!(1)
    );
    // Another company's or environment's ids are not found, as tool results.
    let other = w.data.company("Zweite GmbH", "ENTERPRISE");
    let other_key = w.data.key(&other, "production", "all");
    for key in [&w.test, &other_key] {
        for (tool, args) in [
            ("get_customer", json!({"customer_id": customer["id"]})),
            ("get_transaction", json!({"transaction_id": txn["id"]})),
            ("get_invoice", json!({"number": number})),
        ] {
            let r = call(&c, key, 10, tool, args);
            assert_eq!(r["isError"], json!(true), "{tool}");
            assert_eq!(
                r["structuredContent"]["code"],
                json!("NICHT_GEFUNDEN"),
                "{tool}"
            );
        }
    }
    // Unreadable arguments are tool errors naming them; unknown tools are protocol errors.
    let r = call(
        &c,
        &w.live,
        11,
        "get_customer",
        json!({"customer_id": customer["id"], "organisation": "org_x"}),
    );
    assert_eq!(
        (r["isError"].clone(), r["structuredContent"]["code"].clone()),
        (json!(true), json!("ANFRAGE"))
    );
    assert!(r["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("organisation"));
    let a = rpc(
        &c,
        Some(&narrow),
        None,
        &json!({"jsonrpc": "2.0", "id": 12, "method": "tools/call", "params": {"name": "get_invoice", "arguments": {"number": number}}}),
    );
    assert_eq!(
        a.body["error"]["code"],
        json!(-32602),
        "a tool the key may not use is unknown to it"
    );
}

#[test]
fn report_tools_read_the_ledger_and_draft_tools_create_through_the_domain() {
    let w = World::new();
    let c = w.client();
    let customer = c.customer(&w.live, "Kunde");
    let d = c.draft(&w.live, &customer);
    w.data.line(&d, 10000, "19", false);
    let number = w.data.ok(&["draft", "issue", &d, "--on", "2026-01-05"])["number"]
        .as_str()
        .unwrap()
        .to_string();
    w.data.ok(&[
        "payment",
        "record",
        "--company",
        &w.company,
        "--invoice",
        &number,
        "--amount",
        "4000",
        "--on",
        "2026-01-10",
    ]);
    w.data.ok(&[
        "purchase",
        "record",
        "--company",
        &w.company,
        "--supplier",
        "Meier",
        "--document-number",
        "B-1",
        "--date",
        "2026-01-06",
        "--due",
        "2026-01-20",
        "--currency",
        "EUR",
        "--net",
        "2000",
        "--tax",
        "380",
    ]);
    let r = call(
        &c,
        &w.live,
        1,
        "list_receivables",
        json!({"as_of": "2026-01-31"}),
    )["structuredContent"]
        .clone();
    assert_eq!(r["total"], json!(1));
    assert_eq!(r["items"][0]["number"], json!(number));
    assert_eq!(
        r["items"][0]["outstanding"],
        json!({"minor": 7900, "currency": "EUR"})
    );
    assert_eq!(r["items"][0]["overdue"], json!(true));
    assert_eq!(
        r["summary"]["outstanding"],
        json!({"minor": 7900, "currency": "EUR"})
    );
    let before_payment = call(
        &c,
        &w.live,
        2,
        "list_receivables",
        json!({"as_of": "2026-01-07"}),
    )["structuredContent"]
        .clone();
    assert_eq!(
        before_payment["items"][0]["outstanding"]["minor"],
        json!(11900)
    );
    let p = call(
        &c,
        &w.live,
        3,
        "list_payables",
        json!({"as_of": "2026-01-31"}),
    )["structuredContent"]
        .clone();
    assert_eq!(
        (p["total"].clone(), p["items"][0]["partner"].clone()),
        (json!(1), json!("Meier"))
    );
    let pl = call(
        &c,
        &w.live,
        4,
        "get_profit_and_loss",
        json!({"from": "2026-01-01", "to": "2026-01-31"}),
    )["structuredContent"]
        .clone();
    assert_eq!(
        (
            pl["revenue"]["minor"].clone(),
            pl["expenses"]["minor"].clone(),
            pl["result"]["minor"].clone()
        ),
        (json!(10000), json!(2000), json!(8000))
    );
    // By § 275 (2) HGB: revenue on line 1, the bill's cost on line 8.
    let lines: Vec<(&str, &Value)> = pl["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["code"].as_str().unwrap(), &l["amount"]["minor"]))
        .collect();
    assert_eq!(
        lines,
        vec![("1", &json!(10000)), ("8", &json!(2000))],
        "{pl:#}"
    );
    assert_eq!(pl["is_final"], json!(false));
    w.data.ok(&[
        "books",
        "close",
        "--company",
        &w.company,
        "--through",
        "2026-01-31",
    ]);
    assert_eq!(
        call(
            &c,
            &w.live,
            5,
            "get_profit_and_loss",
            json!({"from": "2026-01-01", "to": "2026-01-31"})
        )["structuredContent"]["is_final"],
        json!(true)
    );
    let bs = call(
        &c,
        &w.live,
        6,
        "get_balance_sheet",
        json!({"as_of": "2026-01-31"}),
    )["structuredContent"]
        .clone();
    assert_eq!(bs["balanced"], json!(true));
    // Closed through its day: final, as the profit and loss says.
    assert_eq!(bs["is_final"], json!(true));
    let later = call(
        &c,
        &w.live,
        6,
        "get_balance_sheet",
        json!({"as_of": "2026-02-01"}),
    )["structuredContent"]
        .clone();
    assert_eq!(later["is_final"], json!(false));
    // The VAT return of the closed January: the invoice's base in Kz 81, the
    // bill's input tax in Kz 66, the rest owed in Kz 83, each Kz with the
    // postings behind it; a period that is none is refused by its argument.
    let vat = call(
        &c,
        &w.live,
        6,
        "get_vat_return",
        json!({"period": "2026-01"}),
    )["structuredContent"]
        .clone();
    assert_eq!(
        (
            vat["kz"]["81"].clone(),
            vat["kz"]["66"].clone(),
            vat["kz"]["83"].clone(),
            vat["is_final"].clone()
        ),
        (json!("100"), json!("3.80"), json!("15.20"), json!(true)),
        "{vat:#}"
    );
    assert_eq!(
        vat["postings"]["81"][0]["document"]["kind"],
        json!("invoice"),
        "{vat:#}"
    );
    let refused = call(
        &c,
        &w.live,
        6,
        "get_vat_return",
        json!({"period": "2026-13"}),
    );
    assert_eq!(
        (
            refused["isError"].clone(),
            refused["structuredContent"]["code"].clone()
        ),
        (json!(true), json!("ANFRAGE")),
        "{refused}"
    );
    // The input tax (380) netted with the output tax owed (1900): one debt
    // to the tax office under C.
    assert_eq!(bs["total_assets"]["minor"], json!(7900 + 4000));
    let liabilities = bs["equity_and_liabilities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["line"] == "equity:C")
        .unwrap();
    assert_eq!(
        liabilities["amount"]["minor"],
        json!(2380 + 1900 - 380),
        "{bs:#}"
    );
    assert_eq!(bs["result"]["minor"], json!(8000));
    let att =
        call(&c, &w.live, 7, "get_business_attention", json!({}))["structuredContent"].clone();
    let kinds: Vec<&str> = att["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["overdue_invoice", "bill_due"]);

    // Drafts with lines: exact decimals, named taxes, a reason only at zero.
    let args = json!({"customer_id": customer["id"], "idempotency_key": "agent-1", "lines": [
        {"description": "Montage", "quantity": 1.5, "unit_price_minor": 8000, "tax_rate_percent": 19},
        {"description": "Export", "quantity": "2", "unit_price_minor": 500, "taxes": [{"name": "USt", "rate_percent": 0, "reason": "Ausfuhr"}], "vat_category": "G"}
    ]});
    let first = call(&c, &w.live, 8, "create_invoice_draft", args.clone());
    assert_eq!(first["isError"], json!(false), "{first}");
    let draft = first["structuredContent"].clone();
    assert_eq!(
        (draft["state"].clone(), draft["documentType"].clone()),
        (json!("DRAFT"), json!("INVOICE"))
    );
    assert_eq!(draft["lines"][0]["quantity"], json!("1.5"));
    assert_eq!(draft["lines"][1]["taxes"][0]["reason"], json!("Ausfuhr"));
    let again = call(&c, &w.live, 9, "create_invoice_draft", args.clone());
    assert_eq!(
        again["structuredContent"]["id"], draft["id"],
        "the same idempotency_key answers the same draft"
    );
    let mut other = args.clone();
    other["lines"][0]["quantity"] = json!(2);
    assert_eq!(
        call(&c, &w.live, 10, "create_invoice_draft", other)["structuredContent"]["code"],
        json!("IDEMPOTENZ_KONFLIKT")
    );
    // The draft issues in the product like any other.
    let inv = w.data.ok(&[
        "draft",
        "issue",
        draft["id"].as_str().unwrap(),
        "--on",
        "2026-02-02",
    ]);
    assert_eq!(inv["net"]["minor"], json!(12000 + 1000));
    assert_eq!(inv["tax"]["minor"], json!(2280));
    let untaxed = call(
        &c,
        &w.live,
        11,
        "create_invoice_draft",
        json!({"customer_id": customer["id"], "lines": [{"description": "x", "quantity": 1, "unit_price_minor": 1}]}),
    );
    assert_eq!(
        (
            untaxed["isError"].clone(),
            untaxed["structuredContent"]["code"].clone()
        ),
        (json!(true), json!("ANFRAGE"))
    );
    assert!(untaxed["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("lines[0]"));
    let quote = call(
        &c,
        &w.live,
        12,
        "create_quote_draft",
        json!({"customer_id": customer["id"], "lines": [{"description": "Angebot", "quantity": 1, "unit_price_minor": 100, "tax_rate_percent": "7"}]}),
    );
    assert_eq!(quote["structuredContent"]["documentType"], json!("QUOTE"));
    assert!(quote["structuredContent"]["number"]
        .as_str()
        .unwrap()
        .starts_with('Q'));
    // Transactions and notes.
    let t = call(
        &c,
        &w.live,
        13,
        "create_transaction",
        json!({"title": "Dach", "customer_id": customer["id"], "due_on": "2026-12-01"}),
    )["structuredContent"]
        .clone();
    assert_eq!(
        (t["stage"].clone(), t["customer"].clone()),
        (json!("NEU"), json!("Kunde"))
    );
    let noted = call(
        &c,
        &w.live,
        14,
        "add_transaction_note",
        json!({"transaction_id": t["id"], "text": "Gerüst bestellt"}),
    )["structuredContent"]
        .clone();
    assert_eq!(noted["note"]["author"], json!("test key"));
    assert_eq!(
        noted["transaction"]["notes"][0]["text"],
        json!("Gerüst bestellt")
    );
    assert_eq!(
        call(
            &c,
            &w.live,
            15,
            "get_transaction",
            json!({"transaction_id": t["id"]})
        )["structuredContent"]["notes"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // Other companies and environments: not found, and nothing created.
    let other_company = w.data.company("Zweite GmbH", "ENTERPRISE");
    let other_key = w.data.key(&other_company, "production", "all");
    for key in [&w.test, &other_key] {
        let r = call(
            &c,
            key,
            16,
            "create_invoice_draft",
            json!({"customer_id": customer["id"], "lines": [{"description": "x", "quantity": 1, "unit_price_minor": 1, "tax_rate_percent": 19}]}),
        );
        assert_eq!(r["structuredContent"]["code"], json!("NICHT_GEFUNDEN"));
        let r = call(
            &c,
            key,
            17,
            "add_transaction_note",
            json!({"transaction_id": t["id"], "text": "x"}),
        );
        assert_eq!(r["structuredContent"]["code"], json!("NICHT_GEFUNDEN"));
    }
    // Read-only keys see no create tools.
    let reader = w.data.key(
        &w.company,
        "production",
        "customers:read,invoices:read,reports:read",
    );
    let a = rpc(
        &c,
        Some(&reader),
        None,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    );
    let tools = a.body["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "get_customer",
            "search_customers",
            "get_invoice",
            "list_invoices",
            "list_receivables",
            "list_payables",
            "get_profit_and_loss",
            "get_balance_sheet",
            "get_vat_return",
            "get_business_attention"
        ]
    );
    assert!(tools
        .iter()
        .all(|t| t["annotations"]["readOnlyHint"] == json!(true)));
}

/// A request of revision 2026-07-28 with its routing headers.
fn modern(
    c: &Client,
    key: &str,
    method: &str,
    params: Value,
    headers: &[(&str, &str)],
) -> crate::support::Answer {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    let auth = format!("Bearer {key}");
    let mut all: Vec<(&str, &str)> = vec![
        ("Authorization", &auth),
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", method),
    ];
    for (n, v) in headers {
        all.retain(|(m, _)| !m.eq_ignore_ascii_case(n));
        all.push((n, v));
    }
    let body =
        serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}))
            .unwrap();
    c.send("POST", "/mcp", &all, Some(&body))
}

#[test]
fn revision_2026_07_28_is_served_per_request() {
    let w = World::new();
    let c = w.client();
    let d = modern(&c, &w.live, "server/discover", json!({}), &[]);
    assert_eq!(d.status, 200, "{:?}", d.body);
    let r = &d.body["result"];
    assert_eq!(r["resultType"], json!("complete"));
    assert_eq!(r["supportedVersions"][0], json!("2026-07-28"));
    assert_eq!(r["capabilities"]["tools"], json!({"listChanged": false}));
    assert_eq!(
        (r["cacheScope"].clone(), r["ttlMs"].is_u64()),
        (json!("private"), true)
    );
    let list = modern(&c, &w.live, "tools/list", json!({}), &[]);
    assert_eq!(list.body["result"]["resultType"], json!("complete"));
    assert_eq!(list.body["result"]["cacheScope"], json!("private"));
    assert_eq!(list.body["result"]["tools"].as_array().unwrap().len(), 16);
    let customer = c.customer(&w.live, "Kunde");
    let call = modern(
        &c,
        &w.live,
        "tools/call",
        json!({"name": "get_customer", "arguments": {"customer_id": customer["id"]}}),
        &[("Mcp-Name", "get_customer")],
    );
    assert_eq!(call.body["result"]["resultType"], json!("complete"));
    assert_eq!(
        call.body["result"]["structuredContent"]["id"],
        customer["id"]
    );
    // The Mcp-Name header may carry the name in the base64 sentinel form.
    let encoded = modern(
        &c,
        &w.live,
        "tools/call",
        json!({"name": "get_customer", "arguments": {"customer_id": customer["id"]}}),
        &[("Mcp-Name", "=?base64?Z2V0X2N1c3RvbWVy?=")],
    );
    assert_eq!(encoded.body["result"]["isError"], json!(false));
    // Headers that do not match the body: -32020.
    for (method, params, headers) in [
        (
            "tools/list",
            json!({}),
            vec![("MCP-Protocol-Version", "2025-11-25")],
        ),
        ("tools/list", json!({}), vec![("Mcp-Method", "tools/call")]),
        (
            "tools/call",
            json!({"name": "get_customer", "arguments": {}}),
            vec![("Mcp-Name", "get_invoice")],
        ),
        (
            "tools/call",
            json!({"name": "get_customer", "arguments": {}}),
            vec![],
        ),
    ] {
        let a = modern(&c, &w.live, method, params, &headers);
        assert_eq!(
            (a.status, a.body["error"]["code"].clone()),
            (400, json!(-32020)),
            "{method} {headers:?}"
        );
        assert_eq!(a.body["id"], json!(1));
    }
    // Capabilities are required; unknown versions are named.
    let auth = format!("Bearer {}", w.live);
    let headers = [
        ("Authorization", auth.as_str()),
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/list"),
    ];
    let no_caps = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}});
    let a = c.send(
        "POST",
        "/mcp",
        &headers,
        Some(&serde_json::to_vec(&no_caps).unwrap()),
    );
    assert_eq!(
        (a.status, a.body["error"]["code"].clone()),
        (400, json!(-32602))
    );
    let future = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2099-01-01", "io.modelcontextprotocol/clientCapabilities": {}}}});
    let future_headers = [
        ("Authorization", auth.as_str()),
        ("MCP-Protocol-Version", "2099-01-01"),
        ("Mcp-Method", "tools/list"),
    ];
    let a = c.send(
        "POST",
        "/mcp",
        &future_headers,
        Some(&serde_json::to_vec(&future).unwrap()),
    );
    assert_eq!(
        (a.status, a.body["error"]["code"].clone()),
        (400, json!(-32022))
    );
    assert_eq!(
        a.body["error"]["data"],
        json!({"supported": ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"], "requested": "2099-01-01"})
    );
    // The handshake methods do not exist in this revision.
    for method in ["initialize", "ping", "resources/list"] {
        let a = modern(&c, &w.live, method, json!({}), &[]);
        assert_eq!(
            (a.status, a.body["error"]["code"].clone()),
            (404, json!(-32601)),
            "{method}"
        );
    }
    // subscriptions/listen: an acknowledged stream, ended at once.
    let auth2 = format!("Bearer {}", w.live);
    let listen = json!({"jsonrpc": "2.0", "id": "l1", "method": "subscriptions/listen", "params": {"notifications": {"toolsListChanged": true}, "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}});
    let mut response = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .new_agent()
        .post(&c.url("/mcp"))
        .header("Authorization", &auth2)
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", "subscriptions/listen")
        .header("Accept", "application/json, text/event-stream")
        .send(serde_json::to_vec(&listen).unwrap())
        .unwrap();
    assert_eq!(
        response.headers().get("content-type").unwrap(),
        "text/event-stream"
    );
    let text = response.body_mut().read_to_string().unwrap();
    let events: Vec<Value> = text
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .map(|d| serde_json::from_str(d).unwrap())
        .collect();
    assert_eq!(
        events[0]["method"],
        json!("notifications/subscriptions/acknowledged")
    );
    assert_eq!(
        events[0]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        json!("l1")
    );
    assert_eq!(events[1]["id"], json!("l1"));
    assert_eq!(events[1]["result"]["resultType"], json!("complete"));
    // One request per POST.
    let batch = json!([{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}]);
    let a = c.send(
        "POST",
        "/mcp",
        &headers,
        Some(&serde_json::to_vec(&batch).unwrap()),
    );
    assert_eq!(
        (a.status, a.body["error"]["code"].clone()),
        (400, json!(-32600))
    );
}

#[test]
fn the_rate_budget_body_limit_and_sessions_apply_to_the_agent_endpoint() {
    let w = World::new();
    let c = w.client();
    let key = w.data.key(&w.company, "production", "customers:read");
    for _ in 0..240 {
        assert_eq!(c.get(&key, "/v1/me").status, 200);
    }
    // Tokens that came back meanwhile pass; the budget is dry within a few.
    let a = (0..20)
        .map(|_| {
            rpc(
                &c,
                Some(&key),
                None,
                &json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
            )
        })
        .find(|a| a.status == 429)
        .expect("the shared budget runs dry for the agent endpoint too");
    assert!(a.header("Retry-After").is_some());
    // A body over 1 MiB is refused; a session id sent is ignored, none is minted.
    let auth = format!("Bearer {}", w.live);
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"x":"{}"}}}}"#,
        "a".repeat(1024 * 1024)
    );
    assert_eq!(
        c.send(
            "POST",
            "/mcp",
            &[("Authorization", &auth)],
            Some(big.as_bytes())
        )
        .status,
        413
    );
    let a = c.send(
        "POST",
        "/mcp",
        &[
            ("Authorization", &auth),
            ("Mcp-Session-Id", "made-up"),
            ("MCP-Protocol-Version", "2025-11-25"),
        ],
        Some(br#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#),
    );
    assert_eq!(a.status, 200);
    assert!(a.header("Mcp-Session-Id").is_none());
    // Every tool that takes an id or a customer refuses another environment's with not-found.
    let customer = c.customer(&w.live, "Kunde");
    let txn = c.transaction(&w.live, json!({"title": "t"}));
    let line =
        json!([{"description": "x", "quantity": 1, "unit_price_minor": 1, "tax_rate_percent": 19}]);
    for (tool, args) in [
        (
            "create_quote_draft",
            json!({"customer_id": customer["id"], "lines": line}),
        ),
        (
            "create_transaction",
            json!({"title": "t", "customer_id": customer["id"]}),
        ),
        ("get_transaction", json!({"transaction_id": txn["id"]})),
    ] {
        let r = call(&c, &w.test, 3, tool, args);
        assert_eq!(
            r["structuredContent"]["code"],
            json!("NICHT_GEFUNDEN"),
            "{tool}"
        );
    }
}

#[test]
fn revision_2026_07_28_refuses_what_would_split_header_and_body() {
    let w = World::new();
    let c = w.client();
    let auth = format!("Bearer {}", w.live);
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}});
    let send = |headers: &[(&str, &str)], body: Value| {
        let mut all = vec![
            ("Authorization", auth.as_str()),
            ("MCP-Protocol-Version", "2026-07-28"),
        ];
        all.extend_from_slice(headers);
        c.send(
            "POST",
            "/mcp",
            &all,
            Some(&serde_json::to_vec(&body).unwrap()),
        )
    };
    // The routing header twice: the body decides nothing then.
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_business_attention", "arguments": {}, "_meta": meta}});
    let a = send(
        &[
            ("Mcp-Method", "tools/call"),
            ("Mcp-Name", "get_business_attention"),
            ("Mcp-Name", "create_transaction"),
        ],
        call.clone(),
    );
    assert_eq!(
        (a.status, a.body["error"]["code"].clone()),
        (400, json!(-32020))
    );
    assert_eq!(
        send(
            &[
                ("Mcp-Method", "tools/call"),
                ("Mcp-Name", "get_business_attention")
            ],
            call
        )
        .status,
        200
    );
    // Ids are strings or integers.
    let a = send(
        &[("Mcp-Method", "tools/list")],
        json!({"jsonrpc": "2.0", "id": null, "method": "tools/list", "params": {"_meta": meta}}),
    );
    assert_eq!(
        (
            a.status,
            a.body["error"]["code"].clone(),
            a.body["id"].clone()
        ),
        (400, json!(-32600), json!(null))
    );
    // The revision named in the header but no _meta: the capabilities are missing.
    let a = send(
        &[("Mcp-Method", "tools/list")],
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    );
    assert_eq!(
        (a.status, a.body["error"]["code"].clone()),
        (400, json!(-32602))
    );
    // An unknown tool is a protocol fault with an HTTP error status here.
    let a = send(
        &[("Mcp-Method", "tools/call"), ("Mcp-Name", "drop_tables")],
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "drop_tables", "_meta": meta}}),
    );
    assert_eq!(
        (a.status, a.body["error"]["code"].clone()),
        (400, json!(-32602))
    );
    // server/discover names the server in _meta; listen ends with its subscription id.
    let a = send(
        &[("Mcp-Method", "server/discover")],
        json!({"jsonrpc": "2.0", "id": 4, "method": "server/discover", "params": {"_meta": meta}}),
    );
    assert_eq!(
        a.body["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        json!("kontor")
    );
    // A cursor pointing past any sane page is refused, not overflowed.
    let r = call_tool(
        &c,
        &w.live,
        "search_customers",
        json!({"limit": 1, "cursor": "o7fffffffffffffff"}),
    );
    assert_eq!(
        (r["isError"].clone(), r["structuredContent"]["code"].clone()),
        (json!(true), json!("ANFRAGE"))
    );
}

#[test]
fn each_message_of_a_batch_spends_from_the_budget() {
    let w = World::new();
    let c = w.client();
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
    let batch = Value::Array(vec![ping.clone(); 100]);
    let a = rpc(&c, Some(&w.live), None, &batch);
    assert_eq!(a.status, 200);
    let left: u64 = a.header("RateLimit-Remaining").unwrap().parse().unwrap();
    assert!(left <= 140, "100 messages cost 100 tokens, {left} left");
    assert_eq!(
        rpc(
            &c,
            Some(&w.live),
            None,
            &Value::Array(vec![ping.clone(); 101])
        )
        .status,
        400
    );
    assert_eq!(
        rpc(
            &c,
            Some(&w.live),
            None,
            &Value::Array(vec![ping.clone(); 100])
        )
        .status,
        200
    );
    let a = rpc(
        &c,
        Some(&w.live),
        None,
        &Value::Array(vec![ping.clone(); 100]),
    );
    assert_eq!(a.status, 429, "the third batch overdraws the budget");
    // A refused batch takes nothing: a single request still passes.
    assert_eq!(rpc(&c, Some(&w.live), None, &ping).status, 200);
}

fn call_tool(c: &Client, key: &str, tool: &str, arguments: Value) -> Value {
    call(c, key, 9, tool, arguments)
}

#[test]
fn a_draft_holds_at_most_200_lines_whichever_surface_adds_them() {
    let w = World::new();
    let c = w.client();
    let customer = c.customer(&w.live, "Viele Posten GmbH");
    let line = json!({"description": "Posten", "quantity": "1", "unit_price_minor": 100, "tax_rate_percent": 19});
    let lines = |n: usize| Value::Array(vec![line.clone(); n]);
    let too_many = call(
        &c,
        &w.live,
        1,
        "create_invoice_draft",
        json!({"customer_id": customer["id"], "lines": lines(201)}),
    );
    assert_eq!(too_many["structuredContent"]["code"], json!("ANFRAGE"));
    let full = call(
        &c,
        &w.live,
        2,
        "create_invoice_draft",
        json!({"customer_id": customer["id"], "lines": lines(200)}),
    );
    assert_eq!(full["isError"], json!(false), "{full}");
    let draft = full["structuredContent"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (ok, _, err) = w.data.console(&[
        "draft",
        "line",
        &draft,
        "--description",
        "Einer mehr",
        "--quantity",
        "1",
        "--unit-price",
        "100",
        "--tax-rate",
        "19",
    ]);
    assert!(!ok && err.contains("at most 200 lines"), "{err}");
    let number = w.data.ok(&["draft", "issue", &draft])["number"]
        .as_str()
        .unwrap()
        .to_string();
    let invoice = c.get(&w.live, &format!("/v1/invoices/{number}")).body;
    assert_eq!(invoice["lines"].as_array().unwrap().len(), 200);
}

/// Whether `value` conforms to `schema`, for the keywords the tools' output
/// schemas use: `type`, `properties`, `required`, `items` and `anyOf`.
fn conforms(schema: &Value, value: &Value) -> bool {
    let is = |t: &Value| match t.as_str() {
        Some("object") => value.is_object(),
        Some("array") => value.is_array(),
        Some("string") => value.is_string(),
        Some("integer") => value.is_i64() || value.is_u64(),
        Some("number") => value.is_number(),
        Some("boolean") => value.is_boolean(),
        Some("null") => value.is_null(),
        _ => false,
    };
    let typed = match &schema["type"] {
        Value::Null => true,
        Value::Array(types) => types.iter().any(is),
        t => is(t),
    };
    let required = schema["required"].as_array().is_none_or(|names| {
        names
            .iter()
            .all(|n| value.get(n.as_str().unwrap()).is_some())
    });
    let properties = schema["properties"].as_object().is_none_or(|ps| {
        ps.iter()
            .all(|(name, p)| value.get(name).is_none_or(|v| conforms(p, v)))
    });
    let items = schema.get("items").is_none_or(|s| {
        value
            .as_array()
            .is_none_or(|vs| vs.iter().all(|v| conforms(s, v)))
    });
    let any_of = schema["anyOf"]
        .as_array()
        .is_none_or(|branches| branches.iter().any(|b| conforms(b, value)));
    typed && required && properties && items && any_of
}

#[test]
fn a_refusal_conforms_to_its_tools_output_schema() {
    // A tool's structured content must conform to its output schema, and
    // clients check it even when isError is set (the TypeScript SDK refuses
    // the result otherwise): the {code, fehler} of a refusal conforms too.
    let w = World::new();
    let c = w.client();
    c.customer(&w.live, "Schema Prüf GmbH");
    let tools = rpc(
        &c,
        Some(&w.live),
        Some("2025-11-25"),
        &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    )
    .body["result"]["tools"]
        .clone();
    assert_eq!(tools.as_array().unwrap().len(), 16);
    for t in tools.as_array().unwrap() {
        let name = t["name"].as_str().unwrap();
        let refused = call(&c, &w.live, 2, name, json!({"zz_unknown": 1}));
        assert_eq!(refused["isError"], json!(true), "{name}: {refused}");
        assert_eq!(refused["structuredContent"]["code"], json!("ANFRAGE"));
        assert!(
            conforms(&t["outputSchema"], &refused["structuredContent"]),
            "{name}: {refused} against {}",
            t["outputSchema"]
        );
        if name.starts_with("list_") || name == "search_customers" {
            let arguments = if name == "search_customers" {
                json!({"query": "Schema"})
            } else {
                json!({})
            };
            let listed = call(&c, &w.live, 3, name, arguments);
            assert_eq!(listed["isError"], json!(false), "{name}: {listed}");
            assert!(conforms(&t["outputSchema"], &listed["structuredContent"]));
            // The schema still holds a list to its shape.
            assert!(!conforms(&t["outputSchema"], &json!({"items": []})));
        }
    }
}
