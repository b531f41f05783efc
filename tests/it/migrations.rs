//! Schema migrations, over `tests/fixtures/v1-demo.db`: the demo's books made
//! by the version-1 binary (commit 7c752e1; see `make-v1-demo.py` beside it).
//! A migrated file is structurally a fresh one and keeps every row; every
//! record reads through the API; a row that breaks a new rule stops the
//! migration and leaves the file as it was; a newer file is refused.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use rusqlite::types::Value as Sql;
use rusqlite::Connection;
use serde_json::{json, Value};

use crate::lock::Running;
use crate::support::{start, Client, DataFile};

/// The version-1 data file.
pub const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/v1-demo.db");

/// A copy of the version-1 file in a temporary directory.
pub fn v1_copy() -> DataFile {
    let data = DataFile::new();
    std::fs::copy(FIXTURE, &data.path).expect("copy the fixture");
    data
}

pub fn user_version(path: &Path) -> i64 {
    Connection::open(path)
        .unwrap()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap()
}

fn query(conn: &Connection, sql: &str) -> Vec<Vec<Sql>> {
    let mut stmt = conn.prepare(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    let width = stmt.column_count();
    stmt.query_map([], |r| (0..width).map(|i| r.get::<_, Sql>(i)).collect())
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// A value as text (NULL as `NULL`).
fn plain(v: &Sql) -> String {
    match v {
        Sql::Null => "NULL".into(),
        Sql::Integer(i) => i.to_string(),
        Sql::Real(f) => f.to_string(),
        Sql::Text(t) => t.clone(),
        Sql::Blob(b) => format!("x'{}'", hex::encode(b)),
    }
}

/// The rows of `sql`, each value as text.
fn strings(conn: &Connection, sql: &str) -> Vec<Vec<String>> {
    query(conn, sql)
        .iter()
        .map(|row| row.iter().map(plain).collect())
        .collect()
}

/// SQL text compared for meaning: comments, quotes and the spacing around
/// punctuation dropped, white space collapsed, lower case.
fn normalise(sql: &str) -> String {
    let mut out = String::new();
    let mut chars = sql.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            in_string = c != '\'';
            continue;
        }
        match c {
            '\'' => {
                in_string = true;
                out.push(c);
            }
            '-' if chars.peek() == Some(&'-') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
                out.push(' ');
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
                out.push(' ');
            }
            '"' | '`' | '[' | ']' => {}
            c => out.push(c),
        }
    }
    let collapsed = out.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut tight = collapsed;
    for p in ["(", ")", ","] {
        tight = tight
            .replace(&format!(" {p}"), p)
            .replace(&format!("{p} "), p);
    }
    tight.to_lowercase()
}

/// What a data file's schema is: per object its normalised SQL, per table its
/// columns, foreign keys and indexes, per index its columns.
fn structure(path: &Path) -> BTreeMap<String, Vec<String>> {
    let conn = Connection::open(path).unwrap();
    let mut out = BTreeMap::new();
    let objects = strings(
        &conn,
        "SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master",
    );
    for o in objects {
        let (kind, name, table, sql) = (&o[0], &o[1], &o[2], &o[3]);
        out.insert(
            format!("{kind} {name}"),
            vec![format!("on {table}"), normalise(sql)],
        );
        if kind != "table" {
            continue;
        }
        let mut facts = Vec::new();
        for col in strings(&conn, &format!("PRAGMA table_xinfo(\"{name}\")")) {
            facts.push(format!("column {}", col.join(" ")));
        }
        for fk in strings(&conn, &format!("PRAGMA foreign_key_list(\"{name}\")")) {
            facts.push(format!("foreign key {}", fk.join(" ")));
        }
        for index in strings(&conn, &format!("PRAGMA index_list(\"{name}\")")) {
            // seq, name, unique, origin, partial: the seq is only the order.
            let index_name = &index[1];
            facts.push(format!("index {}", index[1..].join(" ")));
            let columns = strings(&conn, &format!("PRAGMA index_xinfo(\"{index_name}\")"))
                .into_iter()
                .map(|c| c.join(" "))
                .collect();
            out.insert(format!("index columns {index_name}"), columns);
        }
        facts.sort();
        out.insert(format!("table facts {name}"), facts);
    }
    out
}

#[track_caller]
fn assert_same_structure(migrated: &Path, fresh: &Path) {
    let (a, b) = (structure(migrated), structure(fresh));
    let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    let differences: Vec<String> = keys
        .into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .map(|k| {
            format!(
                "{k}:\n  migrated: {:?}\n  fresh:    {:?}",
                a.get(k),
                b.get(k)
            )
        })
        .collect();
    assert!(
        differences.is_empty(),
        "the migrated file differs from a fresh one:\n{}",
        differences.join("\n")
    );
    assert!(a.len() > 60, "the comparison saw the schema: {}", a.len());
}

/// The tables of a file (not the full-text index itself, whose rows are the
/// table's) with their columns.
fn tables(path: &Path) -> BTreeMap<String, Vec<String>> {
    let conn = Connection::open(path).unwrap();
    strings(
        &conn,
        "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'",
    )
    .into_iter()
    .map(|t| {
        let columns = strings(
            &conn,
            &format!("SELECT name FROM pragma_table_info('{}')", t[0]),
        );
        (
            t[0].clone(),
            columns.into_iter().map(|mut c| c.remove(0)).collect(),
        )
    })
    .collect()
}

/// The rows of each of `tables`, reading its columns through `read` (a
/// column's name, or an expression for a file migrated since), sorted, each
/// value shown with its type (1 and '1' differ).
fn rows(
    path: &Path,
    tables: &BTreeMap<String, Vec<String>>,
    read: fn(&str, &str) -> String,
) -> BTreeMap<String, Vec<Vec<String>>> {
    let conn = Connection::open(path).unwrap();
    tables
        .iter()
        .map(|(table, columns)| {
            let list: Vec<String> = columns.iter().map(|c| read(table, c)).collect();
            let sql = format!("SELECT {} FROM \"{table}\"", list.join(", "));
            let mut found: Vec<Vec<String>> = query(&conn, &sql)
                .iter()
                .map(|row| row.iter().map(|v| format!("{v:?}")).collect())
                .collect();
            found.sort();
            (table.clone(), found)
        })
        .collect()
}

/// Every row of every table of a file.
fn all_rows(path: &Path) -> BTreeMap<String, Vec<Vec<String>>> {
    rows(path, &tables(path), by_name)
}

fn by_name(_: &str, column: &str) -> String {
    format!("\"{column}\"")
}

/// Version 1's columns read from a migrated file: a payment's target is its
/// invoice or its bill.
fn v1_column_of_migrated(table: &str, column: &str) -> String {
    match (table, column) {
        ("payments", "target_kind") => {
            "CASE WHEN invoice_id IS NOT NULL THEN 'invoice' WHEN purchase_id IS NOT NULL THEN 'purchase' END".into()
        }
        ("payments", "target_id") => "coalesce(invoice_id, purchase_id)".into(),
        _ => by_name(table, column),
    }
}

/// Percent-encodes a path segment.
fn segment(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Reads one column of the fixture's rows of a table for an environment.
fn fixture_rows(conn: &Connection, sql: &str, environment: &str) -> Vec<Vec<Sql>> {
    let mut stmt = conn.prepare(sql).unwrap();
    let width = stmt.column_count();
    stmt.query_map([environment], |r| {
        (0..width).map(|i| r.get::<_, Sql>(i)).collect()
    })
    .unwrap()
    .collect::<Result<_, _>>()
    .unwrap()
}

fn text(v: &Sql) -> Value {
    match v {
        Sql::Null => Value::Null,
        Sql::Integer(i) => json!(i),
        Sql::Text(t) => json!(t),
        other => panic!("unexpected {other:?}"),
    }
}

/// Every customer, transaction, invoice, webhook endpoint and delivery of one
/// environment, and the outstanding report, read through the API and compared
/// with what the version-1 file holds.
fn every_record_reads(c: &Client, key: &str, fixture: &Connection, environment: &str) {
    let customers = fixture_rows(
        fixture,
        "SELECT id, number, name, email FROM customers WHERE environment = ?1",
        environment,
    );
    assert!(!customers.is_empty());
    let list = c.get(key, "/v1/customers?size=100");
    assert_eq!(
        list.body["total"],
        json!(customers.len()),
        "{:?}",
        list.body
    );
    for row in &customers {
        let id = text(&row[0]);
        let a = c.get(key, &format!("/v1/customers/{}", id.as_str().unwrap()));
        assert_eq!(a.status, 200, "{:?}", a.body);
        assert_eq!(
            [
                &a.body["id"],
                &a.body["number"],
                &a.body["name"],
                &a.body["email"]
            ],
            [&id, &text(&row[1]), &text(&row[2]), &text(&row[3])]
        );
        // The search index the migration built finds it by its number.
        let number = text(&row[1]);
        let found = c.get(
            key,
            &format!("/v1/customers?search={}", number.as_str().unwrap()),
        );
        assert_eq!(found.body["data"][0]["id"], id, "{:?}", found.body);
    }

    let transactions = fixture_rows(
        fixture,
        "SELECT id, number, title, stage, customer_id, archived FROM transactions WHERE environment = ?1",
        environment,
    );
    let list = c.get(key, "/v1/transactions?size=100&includeArchived=true");
    assert_eq!(
        list.body["total"],
        json!(transactions.len()),
        "{:?}",
        list.body
    );
    for row in &transactions {
        let id = text(&row[0]);
        let a = c.get(key, &format!("/v1/transactions/{}", id.as_str().unwrap()));
        assert_eq!(a.status, 200, "{:?}", a.body);
        assert_eq!(
            [
                &a.body["id"],
                &a.body["number"],
                &a.body["title"],
                &a.body["stage"],
                &a.body["customerId"],
                &a.body["archived"]
            ],
            [
                &id,
                &text(&row[1]),
                &text(&row[2]),
                &text(&row[3]),
                &text(&row[4]),
                &json!(text(&row[5]) == json!(1))
            ]
        );
    }

    let invoices = fixture_rows(
        fixture,
        "SELECT id, number, net, tax, gross, outstanding, paid_on,
                (SELECT group_concat(description, '|') FROM (SELECT description FROM invoice_lines l
                  WHERE l.invoice_id = i.id ORDER BY seq))
         FROM invoices i WHERE environment = ?1",
        environment,
    );
    let list = c.get(key, "/v1/invoices?size=100");
    assert_eq!(list.body["total"], json!(invoices.len()), "{:?}", list.body);
    for row in &invoices {
        let number = text(&row[1]);
        let a = c.get(
            key,
            &format!("/v1/invoices/{}", segment(number.as_str().unwrap())),
        );
        assert_eq!(a.status, 200, "{number}: {:?}", a.body);
        let lines: Vec<&str> = a.body["lines"]
            .as_array()
            .map(|l| l.iter().filter_map(|l| l["description"].as_str()).collect())
            .unwrap_or_default();
        assert_eq!(
            [
                &a.body["id"],
                &a.body["number"],
                &a.body["net"]["minor"],
                &a.body["tax"]["minor"],
                &a.body["gross"]["minor"],
                &a.body["outstanding"]["minor"],
                &a.body["paidOn"],
                &json!(lines.join("|")),
            ],
            [
                &text(&row[0]),
                &number,
                &text(&row[2]),
                &text(&row[3]),
                &text(&row[4]),
                &text(&row[5]),
                &text(&row[6]),
                &text(&row[7]),
            ],
            "invoice {number}"
        );
        // Issued before kontor wrote documents: none, and it says so.
        assert_eq!(a.body["documents"], json!([]), "{number}");
        assert_eq!(
            a.body["documentsNote"],
            json!("Issued before kontor wrote e-invoice documents; this invoice has none."),
            "{number}"
        );
        let document = c.get(
            key,
            &format!(
                "/v1/invoices/{}/document?format=cii",
                segment(number.as_str().unwrap())
            ),
        );
        document.refused(409, "FALSCHER_ZUSTAND");
    }

    // The report as the books stood on the last day the fixture changed them.
    let day: String = fixture
        .query_row(
            "SELECT max(effective_on) FROM open_items WHERE environment = ?1",
            [environment],
            |r| r.get(0),
        )
        .unwrap();
    let report = c
        .get(key, &format!("/v1/reports/outstanding?asOf={day}"))
        .body;
    for side in ["receivable", "payable"] {
        let expected: (i64, i64, i64, i64) = fixture
            .query_row(
                "SELECT coalesce(sum(amount), 0),
                        coalesce(sum(CASE WHEN due_on <= ?2 THEN amount END), 0),
                        coalesce(sum(CASE WHEN due_on < ?2 THEN amount END), 0),
                        coalesce(sum(documents), 0)
                 FROM open_items WHERE environment = ?1 AND side = ?3 AND effective_on <= ?2",
                [environment, &day, side],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .unwrap();
        let figures = &report[format!("{side}s")];
        assert_eq!(
            (
                figures["outstanding"]["minor"].as_i64(),
                figures["due"]["minor"].as_i64(),
                figures["overdue"]["minor"].as_i64(),
                figures["count"].as_i64()
            ),
            (
                Some(expected.0),
                Some(expected.1),
                Some(expected.2),
                Some(expected.3)
            ),
            "{side}s: {report}"
        );
    }
    // The open items agree with the documents they come from.
    let (invoiced, billed): (i64, i64) = fixture
        .query_row(
            "SELECT (SELECT coalesce(sum(outstanding_book), 0) FROM invoices WHERE environment = ?1),
                    (SELECT coalesce(sum(outstanding_book), 0) FROM purchases WHERE environment = ?1)",
            [environment],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(
        (
            report["receivables"]["outstanding"]["minor"].as_i64(),
            report["payables"]["outstanding"]["minor"].as_i64()
        ),
        (Some(invoiced), Some(billed))
    );

    let endpoints = fixture_rows(
        fixture,
        "SELECT id, url, events, enabled FROM webhook_endpoints WHERE environment = ?1",
        environment,
    );
    assert!(!endpoints.is_empty());
    let list = c.get(key, "/v1/webhooks?size=100").body;
    let listed: BTreeSet<String> = list["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| json!([e["id"], e["url"]]).to_string())
        .collect();
    let expected: BTreeSet<String> = endpoints
        .iter()
        .map(|e| json!([text(&e[0]), text(&e[1])]).to_string())
        .collect();
    assert_eq!(listed, expected);
    for endpoint in &endpoints {
        let id = text(&endpoint[0]);
        let deliveries = fixture_rows(
            fixture,
            &format!(
                "SELECT d.id, e.kind, d.state, d.attempts FROM deliveries d JOIN events e ON e.id = d.event_id
                 WHERE d.environment = ?1 AND d.endpoint_id = '{}'",
                id.as_str().unwrap()
            ),
            environment,
        );
        let a = c.get(
            key,
            &format!("/v1/webhooks/{}/deliveries", id.as_str().unwrap()),
        );
        assert_eq!(a.status, 200, "{:?}", a.body);
        let listed: BTreeSet<String> = a.body["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| json!([d["id"], d["event"], d["state"], d["attempts"]]).to_string())
            .collect();
        let expected: BTreeSet<String> = deliveries
            .iter()
            .map(|d| Value::Array(d.iter().map(text).collect()).to_string())
            .collect();
        assert_eq!(listed, expected, "deliveries of {id}");
    }
}

#[test]
fn the_v1_demo_file_becomes_a_fresh_file_with_every_row_and_every_record_reads_through_the_api() {
    let data = v1_copy();
    let v1_tables = tables(&data.path);
    let before = rows(&data.path, &v1_tables, by_name);
    let company: String = Connection::open(&data.path)
        .unwrap()
        .query_row("SELECT id FROM companies", [], |r| r.get(0))
        .unwrap();
    assert_eq!(user_version(&data.path), 1);

    // A console command that only reads migrates the file.
    let listed = data.ok(&["key", "list", "--company", &company]);
    assert_eq!(listed["data"].as_array().map(Vec::len), Some(2));
    assert_eq!(user_version(&data.path), kontor::store::db::SCHEMA_VERSION);

    // Structurally a fresh file.
    let fresh = DataFile::new();
    drop(kontor::store::db::Db::open(&fresh.path, 1).unwrap());
    assert_same_structure(&data.path, &fresh.path);

    // Every row kept, with its seq; payments name their invoice or bill.
    let after = rows(&data.path, &v1_tables, v1_column_of_migrated);
    for (table, rows) in &before {
        assert_eq!(Some(rows), after.get(table), "rows of {table}");
    }
    assert_eq!(
        (before["payments"].len(), before["transactions"].len()),
        (4, 6),
        "the fixture's payments and transactions"
    );
    assert_eq!(
        all_rows(&data.path)["credit_applications"],
        Vec::<Vec<String>>::new()
    );
    let conn = Connection::open(&data.path).unwrap();
    let checks: (String, i64) = conn
        .query_row(
            "SELECT (SELECT integrity_check FROM pragma_integrity_check),
                    (SELECT count(*) FROM pragma_foreign_key_check)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(checks, ("ok".to_string(), 0));
    conn.execute_batch(
        "INSERT INTO transactions_fts (transactions_fts) VALUES ('integrity-check')",
    )
    .expect("the full-text index matches the transactions, rowid for rowid");
    let wrong_side: i64 = conn
        .query_row(
            "SELECT count(*) FROM payments WHERE (direction = 'in') <> (invoice_id IS NOT NULL)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(wrong_side, 0);
    // Every receivables and payables line names the partner of its record.
    let partners: (i64, i64) = conn
        .query_row(
            "SELECT count(*), count(*) FILTER (WHERE detail IN (SELECT id FROM customers)) FROM journal
             WHERE account IN ('receivables', 'payables')",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert!(partners.0 > 0 && partners.0 == partners.1, "{partners:?}");
    let wrong_partner: i64 = conn
        .query_row(
            "SELECT count(*) FROM journal j JOIN invoices i ON i.id = j.entry
             WHERE j.account = 'receivables' AND j.detail <> i.customer_id",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(wrong_partner, 0);
    // Bills on the chart of accounts: each line on the other operating
    // expenses, each booked on its document date (the day its entry has).
    let (off_chart, undated): (i64, i64) = conn
        .query_row(
            "SELECT (SELECT count(*) FROM purchase_lines WHERE account <> 'other_expenses'),
                    (SELECT count(*) FROM purchases p WHERE p.posted_on <> p.document_date
                        OR p.posted_on <> (SELECT min(posted_on) FROM journal WHERE entry = p.id))",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!((off_chart, undated), (0, 0));
    drop(conn);
    // Every statement of the migrated books balances, on the chart's numbers.
    let tb = data.ok(&["books", "trial-balance", "--company", &company]);
    assert_eq!(tb["balanced"], json!(true), "{tb:#}");
    assert!(tb["accounts"]
        .as_array()
        .unwrap()
        .iter()
        .all(|a| a["number"].as_u64().is_some_and(|n| n > 0)));
    let sheet = data.ok(&["books", "balance-sheet", "--company", &company]);
    assert_eq!(sheet["balanced"], json!(true), "{sheet:#}");
    let pl = data.ok(&["books", "profit-and-loss", "--company", &company]);
    assert_eq!(pl["result"], sheet["result"], "{pl:#} {sheet:#}");

    // Every record through the API, in both environments.
    let live = data.key(&company, "production", "all");
    let test = data.key(&company, "sandbox", "all");
    let server = start(&data);
    let c = Client { addr: server.addr };
    let fixture = Connection::open(FIXTURE).unwrap();
    every_record_reads(&c, &live, &fixture, "PRODUCTION");
    every_record_reads(&c, &test, &fixture, "SANDBOX");

    // The full-text index and its triggers work on the rebuilt table.
    let found = c.get(
        &live,
        "/v1/transactions?includeArchived=true&search=abgesagt",
    );
    assert_eq!(found.body["total"], json!(1), "{:?}", found.body);
    let made = c.transaction(&live, json!({"title": "Fliesenarbeiten Gästebad"}));
    let renamed = c.patch(
        &live,
        &format!("/v1/transactions/{}", made["id"].as_str().unwrap()),
        &json!({"title": "Malerarbeiten Gästebad"}),
    );
    assert_eq!(renamed.status, 200, "{:?}", renamed.body);
    let search = |word: &str| {
        c.get(&live, &format!("/v1/transactions?search={word}"))
            .body["total"]
            .clone()
    };
    assert_eq!(
        (search("Fliesenarbeiten"), search("Malerarbeiten")),
        (json!(0), json!(1))
    );
    // A write of every kind the new schema constrains still passes.
    let draft = c.draft(&live, &c.customer(&live, "Neukunde GmbH"));
    assert!(draft.starts_with("drf_"));
}

#[test]
fn a_server_brings_a_v1_file_up_when_it_starts() {
    let data = v1_copy();
    let server = start(&data);
    assert_eq!(user_version(&data.path), kontor::store::db::SCHEMA_VERSION);
    drop(server);
}

#[test]
fn a_file_newer_than_the_binary_is_refused_by_the_console_and_the_server() {
    let data = DataFile::new();
    data.company("Erste GmbH", "ENTERPRISE");
    let newer = kontor::store::db::SCHEMA_VERSION + 1;
    Connection::open(&data.path)
        .unwrap()
        .execute_batch(&format!("PRAGMA user_version = {newer}"))
        .unwrap();
    let sentence = format!(
        "kontor: The data file has schema version {newer}, but this kontor knows only up to {}; use a newer kontor.",
        kontor::store::db::SCHEMA_VERSION
    );
    let (ok, out, stderr) = data.console(&["key", "list", "--company", "org_x"]);
    assert!(!ok);
    assert_eq!(out, Value::Null);
    assert_eq!(stderr.trim_end(), sentence);

    let server = Running::start(
        &["serve", "--listen", "127.0.0.1:0"],
        Some(&data.path),
        None,
    );
    let (status, stderr) = server.finish();
    assert!(!status.success());
    assert_eq!(stderr, sentence, "the server says why and never serves");
    assert_eq!(user_version(&data.path), newer);
}

/// A version-1 file altered by `alter` is refused with `sentence` (built
/// from ids read from the file) and left exactly as it was.
fn refused_whole(alter: &str, offender: &str, sentence: &str) {
    let data = v1_copy();
    let conn = Connection::open(&data.path).unwrap();
    conn.execute_batch(alter).unwrap();
    let id: String = conn
        .query_row(offender, [], |r| r.get(0))
        .unwrap_or_else(|e| panic!("{offender}: {e}"));
    let other: Option<String> = conn
        .query_row(
            "SELECT id FROM customers WHERE environment = 'SANDBOX' LIMIT 1",
            [],
            |r| r.get(0),
        )
        .ok();
    drop(conn);
    let before = (structure(&data.path), all_rows(&data.path));

    let (ok, _, stderr) = data.console(&["key", "list", "--company", "org_x"]);
    assert!(!ok);
    let sentence = sentence
        .replace("{id}", &id)
        .replace("{sandbox customer}", other.as_deref().unwrap_or(""));
    assert_eq!(
        stderr.trim_end(),
        format!(
            "kontor: The data file cannot be brought to version {}: {sentence}. Nothing was changed.",
            kontor::store::db::SCHEMA_VERSION
        )
    );
    // Still version 1, with the old tables and every row as it was.
    assert_eq!(user_version(&data.path), 1);
    let after = (structure(&data.path), all_rows(&data.path));
    assert!(after.0["table facts payments"]
        .iter()
        .any(|f| f.contains("target_id")));
    assert!(!after.0.contains_key("table credit_applications"));
    assert!(before == after, "the refused migration changed the file");
}

#[test]
fn a_transaction_of_one_tenant_naming_another_tenants_customer_is_refused_whole() {
    refused_whole(
        "UPDATE transactions SET customer_id = (SELECT id FROM customers WHERE environment = 'SANDBOX')
         WHERE environment = 'PRODUCTION' AND number = 'V2026-0001'",
        "SELECT id FROM transactions WHERE environment = 'PRODUCTION' AND number = 'V2026-0001'",
        "transactions row {id} points to a customer ({sandbox customer}) of another company or environment",
    );
}

#[test]
fn a_payment_with_a_negative_amount_is_refused_whole() {
    refused_whole(
        "UPDATE payments SET amount = -amount WHERE seq = (SELECT max(seq) FROM payments)",
        "SELECT id FROM payments WHERE seq = (SELECT max(seq) FROM payments)",
        "payments row {id} has an amount that is not positive",
    );
}

#[test]
fn two_invoices_from_one_draft_are_refused_whole() {
    refused_whole(
        "UPDATE invoices SET draft_id = (SELECT draft_id FROM invoices WHERE environment = 'PRODUCTION' AND number = 'RE2026-00001')
         WHERE environment = 'PRODUCTION' AND number = 'RE2026-00002'",
        "SELECT id FROM invoices WHERE environment = 'PRODUCTION' AND number = 'RE2026-00002'",
        "invoices row {id} repeats the draft_id of another row",
    );
}

#[test]
fn money_in_against_a_bill_is_refused_whole() {
    refused_whole(
        "UPDATE payments SET direction = 'in' WHERE target_kind = 'purchase'",
        "SELECT id FROM payments WHERE target_kind = 'purchase'",
        "payments row {id} names a document that does not match its direction (money in pays an invoice, money out a bill)",
    );
}

#[test]
fn a_currency_that_is_not_three_capitals_is_refused_whole() {
    refused_whole(
        "UPDATE customers SET currency = 'eur' WHERE seq = (SELECT min(seq) FROM customers)",
        "SELECT id FROM customers WHERE seq = (SELECT min(seq) FROM customers)",
        "customers row {id} has a currency that is not three capital letters",
    );
}

#[test]
fn an_open_item_of_an_unknown_company_is_refused_whole() {
    // A table without ids: the row is named by its key.
    refused_whole(
        "UPDATE open_items SET company_id = 'org_gone' WHERE environment = 'SANDBOX'",
        "SELECT 'with company_id org_gone, environment SANDBOX, side ' || side || ', effective_on '
                || effective_on || ', due_on ' || due_on FROM open_items WHERE environment = 'SANDBOX'",
        "open_items row {id} points to a company (org_gone) that does not exist",
    );
}
