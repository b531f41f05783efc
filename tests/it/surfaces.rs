//! REST and the agent tools refuse the same bad input with the same code,
//! because both read their wire format into the same input type of the books
//! and call the same checking constructor; and neither refusal changes
//! anything. One test per resource; each sentence names the field in its
//! surface's own spelling.

use serde_json::{json, Value};

use crate::support::{unique, World};

/// Asserts a REST refusal and an agent refusal carry the same code, and each
/// sentence names the field as its surface spells it.
#[track_caller]
fn same_refusal(
    rest: crate::support::Answer,
    tool: Value,
    code: &str,
    rest_field: &str,
    tool_field: &str,
) {
    assert_eq!(rest.code(), code, "REST: {:?}", rest.body);
    assert_eq!(tool["code"], json!(code), "tool: {tool}");
    let rest_sentence = rest.body["fehler"].as_str().unwrap();
    let tool_sentence = tool["fehler"].as_str().unwrap();
    assert!(rest_sentence.contains(rest_field), "{rest_sentence}");
    assert!(tool_sentence.contains(tool_field), "{tool_sentence}");
}

fn other_company_customer(w: &World) -> Value {
    let other = w.data.company("Zweite GmbH", "ENTERPRISE");
    let key = w.data.key(&other, "production", "all");
    w.client().customer(&key, "Fremdkunde")
}

#[test]
fn customers_are_refused_alike() {
    let w = World::new();
    let c = w.client();
    let foreign = other_company_customer(&w);
    for id in ["cus_unknown", foreign["id"].as_str().unwrap()] {
        let rest = c.get(&w.live, &format!("/v1/customers/{id}"));
        assert_eq!(rest.status, 404);
        let tool = c.tool_refusal(&w.live, "get_customer", json!({"customer_id": id}));
        same_refusal(rest, tool, "NICHT_GEFUNDEN", "Customer", "Customer");
    }
    let long = "x".repeat(201);
    let rest = c.get(&w.live, &format!("/v1/customers?search={long}"));
    assert_eq!(rest.status, 400);
    let tool = c.tool_refusal(&w.live, "search_customers", json!({"query": long}));
    same_refusal(
        rest,
        tool,
        "ANFRAGE",
        "The field search",
        "The argument query",
    );
}

#[test]
fn transactions_are_refused_alike_and_nothing_is_made() {
    let w = World::new();
    let c = w.client();
    let foreign = other_company_customer(&w);
    let post = |body: Value| c.post(&w.live, "/v1/transactions", &unique(), &body);
    let tool = |args: Value| c.tool_refusal(&w.live, "create_transaction", args);
    // Unreadable: a malformed date, a missing title, a blank stage.
    same_refusal(
        post(json!({"title": "Dach", "dueOn": "morgen"})),
        tool(json!({"title": "Dach", "due_on": "morgen"})),
        "ANFRAGE",
        "The field dueOn",
        "The argument due_on",
    );
    same_refusal(
        post(json!({"description": "ohne Titel"})),
        tool(json!({"description": "ohne Titel"})),
        "ANFRAGE",
        "The field title is missing",
        "The argument title is missing",
    );
    same_refusal(
        post(json!({"title": "Dach", "stage": " "})),
        tool(json!({"title": "Dach", "stage": " "})),
        "ANFRAGE",
        "The field stage",
        "The argument stage",
    );
    // A rule: a stage outside the workflow.
    same_refusal(
        post(json!({"title": "Dach", "stage": "NIRGENDS"})),
        tool(json!({"title": "Dach", "stage": "NIRGENDS"})),
        "ABGELEHNT",
        "NIRGENDS",
        "NIRGENDS",
    );
    // Another company's customer is not found.
    same_refusal(
        post(json!({"title": "Dach", "customerId": foreign["id"]})),
        tool(json!({"title": "Dach", "customer_id": foreign["id"]})),
        "NICHT_GEFUNDEN",
        "Customer",
        "Customer",
    );
    // The list filters.
    same_refusal(
        c.get(&w.live, "/v1/transactions?period=2026-Q5"),
        c.tool_refusal(&w.live, "list_transactions", json!({"period": "2026-Q5"})),
        "ANFRAGE",
        "The field period",
        "The argument period",
    );
    same_refusal(
        c.get(&w.live, "/v1/transactions?from=2026-02-30"),
        c.tool_refusal(&w.live, "list_transactions", json!({"from": "2026-02-30"})),
        "ANFRAGE",
        "The field from",
        "The argument from",
    );
    // Nothing was made, and no number was taken.
    assert_eq!(c.get(&w.live, "/v1/transactions").body["total"], json!(0));
    let made = c.transaction(&w.live, json!({"title": "Erster"}));
    assert!(
        made["number"].as_str().unwrap().ends_with("-0001"),
        "{made}"
    );
}

#[test]
fn drafts_are_refused_alike_and_nothing_is_made() {
    let w = World::new();
    let c = w.client();
    let foreign = other_company_customer(&w);
    let line = json!([{"description": "Arbeit", "quantity": 1, "unit_price_minor": 100, "tax_rate_percent": 19}]);
    same_refusal(
        c.post(
            &w.live,
            "/v1/invoices/drafts",
            &unique(),
            &json!({"customerId": foreign["id"]}),
        ),
        c.tool_refusal(
            &w.live,
            "create_invoice_draft",
            json!({"customer_id": foreign["id"], "lines": line}),
        ),
        "NICHT_GEFUNDEN",
        "Customer",
        "Customer",
    );
    same_refusal(
        c.post(
            &w.live,
            "/v1/invoices/drafts",
            &unique(),
            &json!({"customerId": ""}),
        ),
        c.tool_refusal(
            &w.live,
            "create_invoice_draft",
            json!({"customer_id": "", "lines": line}),
        ),
        "ANFRAGE",
        "The field customerId is missing",
        "The argument customer_id is missing",
    );
    // The attention list counts no draft: none was made.
    let attention = c.tool(&w.live, "get_business_attention", json!({}));
    assert_eq!(attention["structuredContent"]["count"], json!(0));
}

#[test]
fn invoices_and_reports_are_refused_alike() {
    let w = World::new();
    let c = w.client();
    same_refusal(
        c.get(&w.live, "/v1/invoices/RE2026-99999"),
        c.tool_refusal(&w.live, "get_invoice", json!({"number": "RE2026-99999"})),
        "NICHT_GEFUNDEN",
        "RE2026-99999",
        "RE2026-99999",
    );
    same_refusal(
        c.get(&w.live, "/v1/invoices?from=2026-13-01"),
        c.tool_refusal(&w.live, "list_invoices", json!({"from": "2026-13-01"})),
        "ANFRAGE",
        "The field from",
        "The argument from",
    );
    same_refusal(
        c.get(&w.live, "/v1/reports/outstanding?asOf=yesterday"),
        c.tool_refusal(&w.live, "list_receivables", json!({"as_of": "yesterday"})),
        "ANFRAGE",
        "The field asOf",
        "The argument as_of",
    );
    same_refusal(
        c.get(&w.live, "/v1/reports/outstanding?asOf=1899-12-31"),
        c.tool_refusal(&w.live, "get_balance_sheet", json!({"as_of": "1899-12-31"})),
        "ANFRAGE",
        "1900",
        "1900",
    );
}
