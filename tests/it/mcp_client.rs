//! The agent-protocol server with a real MCP client crate (rmcp), in both eras:
//! every tool listed and called.

use std::collections::BTreeSet;

use rmcp::model::{CallToolRequestParams, ProtocolVersion};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientLifecycleMode, ClientServiceExt};
use serde_json::{json, Value};

use crate::support::World;

/// Books with something in every corner the tools read.
fn books(w: &World) -> (Value, Value, String) {
    let c = w.client();
    let customer = c.customer(&w.live, "Müller Bau GmbH");
    let transaction = c.transaction(
        &w.live,
        json!({"title": "Dach", "customerId": customer["id"], "dueOn": "2026-01-31"}),
    );
    let d = c.draft(&w.live, &customer);
    w.data.line(&d, 10000, "19", false);
    let number = w.data.ok(&["draft", "issue", &d, "--on", "2026-01-05"])["number"]
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
    (customer, transaction, number)
}

/// What a tool's answer holds: (JSON pointer, value) pairs.
type Expected = Vec<(&'static str, Value)>;

async fn every_tool(
    w: &World,
    books: (Value, Value, String),
    lifecycle: ClientLifecycleMode,
    label: &str,
) {
    let (customer, transaction, number) = books;
    let url = format!("http://{}/mcp", w.server.addr);
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(url).auth_header(w.live.clone()),
    );
    let client = ().serve_with_lifecycle(transport, lifecycle).await.expect("the client connects");
    let tools = client.list_all_tools().await.expect("tools/list");
    assert_eq!(tools.len(), 16, "{label}");
    let line = json!({"description": "Beratung", "quantity": "2.5", "unit_price_minor": 9500, "tax_rate_percent": 19});
    let eur = |minor: i64| json!({"minor": minor, "currency": "EUR"});
    // Each tool, its arguments, and what its answer holds (JSON pointer, value):
    // the books above are small enough to know every figure.
    let calls: Vec<(&str, Value, Expected)> = vec![
        (
            "get_customer",
            json!({"customer_id": customer["id"]}),
            vec![
                ("/id", customer["id"].clone()),
                ("/name", json!("Müller Bau GmbH")),
            ],
        ),
        (
            "search_customers",
            json!({"query": "Bau"}),
            vec![
                ("/total", json!(1)),
                ("/items/0/id", customer["id"].clone()),
            ],
        ),
        (
            "get_invoice",
            json!({"number": number}),
            vec![("/number", json!(number)), ("/gross", eur(11900))],
        ),
        (
            "list_invoices",
            json!({"status": "OPEN"}),
            vec![("/total", json!(1)), ("/items/0/number", json!(number))],
        ),
        (
            "get_transaction",
            json!({"transaction_id": transaction["id"]}),
            vec![("/id", transaction["id"].clone()), ("/notes", json!([]))],
        ),
        (
            "list_transactions",
            json!({}),
            vec![
                ("/total", json!(1)),
                ("/items/0/id", transaction["id"].clone()),
            ],
        ),
        (
            "list_receivables",
            json!({"as_of": "2026-01-31"}),
            vec![("/total", json!(1)), ("/summary/outstanding", eur(11900))],
        ),
        (
            "list_payables",
            json!({"as_of": "2026-01-31"}),
            vec![("/total", json!(1)), ("/items/0/partner", json!("Meier"))],
        ),
        (
            "get_profit_and_loss",
            json!({"from": "2026-01-01", "to": "2026-01-31"}),
            vec![("/revenue", eur(10000)), ("/expenses", eur(2000))],
        ),
        (
            "get_balance_sheet",
            json!({"as_of": "2026-01-31"}),
            vec![("/balanced", json!(true)), ("/total_assets", eur(11900))],
        ),
        (
            "get_vat_return",
            json!({"period": "2026-01"}),
            vec![
                ("/kz/81", json!("100")),
                ("/kz/66", json!("3.80")),
                ("/kz/83", json!("15.20")),
            ],
        ),
        (
            "get_business_attention",
            json!({}),
            vec![
                ("/count", json!(3)),
                ("/items/0/kind", json!("overdue_invoice")),
                ("/items/1/kind", json!("bill_due")),
                ("/items/2/kind", json!("late_transaction")),
            ],
        ),
        (
            "create_invoice_draft",
            json!({"customer_id": customer["id"], "lines": [line], "idempotency_key": label}),
            vec![
                ("/state", json!("DRAFT")),
                ("/documentType", json!("INVOICE")),
                ("/lines/0/quantity", json!("2.5")),
            ],
        ),
        (
            "create_quote_draft",
            json!({"customer_id": customer["id"], "lines": [line]}),
            vec![
                ("/state", json!("DRAFT")),
                ("/documentType", json!("QUOTE")),
            ],
        ),
        (
            "create_transaction",
            json!({"title": "Über rmcp"}),
            vec![("/title", json!("Über rmcp")), ("/stage", json!("NEU"))],
        ),
        (
            "add_transaction_note",
            json!({"transaction_id": transaction["id"], "text": "Notiz"}),
            vec![
                ("/note/text", json!("Notiz")),
                ("/transaction/notes/0/text", json!("Notiz")),
            ],
        ),
    ];
    let listed: BTreeSet<String> = tools.iter().map(|t| t.name.to_string()).collect();
    let called: BTreeSet<String> = calls.iter().map(|c| c.0.to_string()).collect();
    assert_eq!(called, listed, "{label}: every listed tool is called");
    for (name, arguments, expected) in calls {
        let Value::Object(arguments) = arguments else {
            unreachable!("arguments are objects")
        };
        let result = client
            .call_tool(CallToolRequestParams::new(name).with_arguments(arguments))
            .await
            .unwrap_or_else(|e| panic!("{label} {name}: {e}"));
        assert_ne!(result.is_error, Some(true), "{label} {name}: {result:?}");
        let structured = result
            .structured_content
            .clone()
            .unwrap_or_else(|| panic!("{label} {name}: no structured content"));
        for (pointer, value) in expected {
            assert_eq!(
                structured.pointer(pointer),
                Some(&value),
                "{label} {name} {pointer}: {structured}"
            );
        }
    }
    let missing = client
        .call_tool(
            CallToolRequestParams::new("get_customer")
                .with_arguments(json!({"customer_id": "cus_x"}).as_object().unwrap().clone()),
        )
        .await
        .unwrap();
    assert_eq!(missing.is_error, Some(true));
    assert_eq!(
        missing.structured_content.unwrap()["code"],
        json!("NICHT_GEFUNDEN")
    );
    client.cancel().await.ok();
}

/// Runs the client on a runtime of its own (the server has its own too).
fn run(lifecycle: ClientLifecycleMode, label: &str) {
    let w = World::new();
    let data = books(&w);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(every_tool(&w, data, lifecycle, label));
}

#[test]
fn rmcp_lists_and_calls_every_tool_with_the_initialize_handshake() {
    run(ClientLifecycleMode::Initialize, "initialize");
}

#[test]
fn rmcp_lists_and_calls_every_tool_per_request_in_2026_07_28() {
    run(
        ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        },
        "discover",
    );
}
