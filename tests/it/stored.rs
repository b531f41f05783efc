//! A stored value that cannot be read is an error, never a default: the
//! answer is 500 INTERN, the console names the table, the row's id and the
//! column, and a list does not quietly leave the row out. (Values are spoilt
//! by writing to the data file directly, as a damaged file would hold them.)

use rusqlite::Connection;
use serde_json::json;

use crate::support::World;

fn spoil(w: &World, sql: &str) {
    let conn = Connection::open(&w.data.path).unwrap();
    conn.execute_batch("PRAGMA ignore_check_constraints = ON")
        .unwrap();
    let changed = conn.execute(sql, []).unwrap();
    assert_eq!(changed, 1, "{sql}");
}

#[test]
fn an_unreadable_date_answers_500_and_names_its_row() {
    let w = World::new();
    let c = w.client();
    let customer = c.customer(&w.live, "Kunde");
    let draft = c.draft(&w.live, &customer);
    w.data.line(&draft, 10_000, "19", false);
    let invoice = w.data.ok(&["draft", "issue", &draft, "--on", "2026-03-02"]);
    let (id, number) = (
        invoice["id"].as_str().unwrap(),
        invoice["number"].as_str().unwrap(),
    );
    assert_eq!(c.get(&w.live, "/v1/invoices").body["total"], json!(1));
    spoil(
        &w,
        &format!("UPDATE invoices SET due_on = '2026-02-30' WHERE id = '{id}'"),
    );
    // Neither a default date nor a list without the row.
    c.get(&w.live, "/v1/invoices").refused(500, "INTERN");
    c.get(&w.live, &format!("/v1/invoices/{number}"))
        .refused(500, "INTERN");
    let a = c.get(&w.live, &format!("/v1/invoices/{number}"));
    assert!(
        !a.body.to_string().contains(id),
        "the detail stays in the log: {}",
        a.body
    );
    let (ok, _, err) = w.data.console(&[
        "payment",
        "record",
        "--company",
        &w.company,
        "--invoice",
        number,
        "--amount",
        "100",
    ]);
    assert!(!ok, "a payment against an unreadable invoice");
    assert!(
        err.contains(&format!("invoices row {id}")) && err.contains("due_on"),
        "{err}"
    );
}

#[test]
fn an_unknown_stored_scope_or_plan_is_an_error_not_a_smaller_key() {
    let w = World::new();
    let c = w.client();
    assert_eq!(c.get(&w.live, "/v1/me").status, 200);
    spoil(
        &w,
        "UPDATE api_keys SET scopes = 'customers:read,customers:fly' WHERE display LIKE 'svc_live_%'",
    );
    c.get(&w.live, "/v1/me").refused(500, "INTERN");
    // The other key is untouched; a plan nobody knows is no plan at all.
    assert_eq!(c.get(&w.test, "/v1/me").status, 200);
    spoil(
        &w,
        &format!(
            "UPDATE companies SET plan = 'GOLD' WHERE id = '{}'",
            w.company
        ),
    );
    c.get(&w.test, "/v1/me").refused(500, "INTERN");
}

#[test]
fn an_unreadable_closing_date_does_not_open_the_books() {
    let w = World::new();
    let c = w.client();
    w.data.ok(&[
        "books",
        "close",
        "--company",
        &w.company,
        "--through",
        "2026-01-31",
    ]);
    spoil(
        &w,
        &format!(
            "UPDATE books_closed SET through = 'end of January' WHERE company_id = '{}'",
            w.company
        ),
    );
    c.get(&w.live, "/v1/reports/outstanding")
        .refused(500, "INTERN");
    let customer = c.customer(&w.live, "Kunde");
    let draft = c.draft(&w.live, &customer);
    w.data.line(&draft, 10_000, "19", false);
    let (ok, _, err) = w
        .data
        .console(&["draft", "issue", &draft, "--on", "2026-01-15"]);
    assert!(
        !ok && err.contains("books_closed") && err.contains("through"),
        "{err}"
    );
    assert_eq!(c.get(&w.live, "/v1/invoices").body["total"], json!(0));
}
