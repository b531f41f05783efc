//! The console: JSON on stdout, a sentence and a non-zero exit on refusal, the
//! schema version guard, key handling and the demo.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use serde_json::json;

use crate::support::{Client, DataFile};

#[test]
fn refusals_exit_non_zero_with_a_sentence_and_change_nothing() {
    let data = DataFile::new();
    let (ok, out, err) = data.console(&[
        "company",
        "create",
        "--name",
        "X",
        "--country",
        "XX",
        "--currency",
        "EUR",
    ]);
    assert!(!ok && out.is_null());
    assert!(err.contains("country"), "{err}");
    let (ok, _, err) = data.console(&[
        "company",
        "create",
        "--name",
        "X",
        "--country",
        "DE",
        "--currency",
        "EUR",
        "--plan",
        "GOLD",
    ]);
    assert!(!ok && err.contains("plan"), "{err}");
    let company = data.company("Erste GmbH", "ENTERPRISE");
    let (ok, _, err) = data.console(&[
        "key",
        "create",
        "--company",
        &company,
        "--name",
        "k",
        "--environment",
        "staging",
        "--scopes",
        "all",
    ]);
    assert!(!ok && err.contains("environment"), "{err}");
    let (ok, _, err) = data.console(&[
        "key",
        "create",
        "--company",
        &company,
        "--name",
        "k",
        "--environment",
        "production",
        "--scopes",
        "customers:delete",
    ]);
    assert!(!ok && err.contains("scope"), "{err}");
    let (ok, _, err) = data.console(&[
        "key",
        "create",
        "--company",
        "org_nope",
        "--name",
        "k",
        "--environment",
        "production",
        "--scopes",
        "all",
    ]);
    assert!(!ok && err.contains("not found"), "{err}");
    let (ok, _, err) = data.console(&[
        "key",
        "create",
        "--company",
        &company,
        "--name",
        "k",
        "--environment",
        "production",
        "--scopes",
        "all",
        "--expires-at",
        "2001-01-01T00:00:00Z",
    ]);
    assert!(!ok && err.contains("future"), "{err}");
    let (ok, _, err) = data.console(&["company", "workflow", &company, "NEU", "neu"]);
    assert!(!ok && err.contains("stage"), "{err}");
    let (ok, _, err) = data.console(&["company", "workflow", &company, "A", "A"]);
    assert!(!ok && err.contains("twice"), "{err}");
    assert_eq!(
        data.ok(&["key", "list", "--company", &company])["data"],
        json!([])
    );
}

#[test]
fn keys_are_shown_once_and_stored_only_as_a_hash() {
    let data = DataFile::new();
    let company = data.company("Erste GmbH", "ENTERPRISE");
    let key = data.ok(&[
        "key",
        "create",
        "--company",
        &company,
        "--name",
        "Backend",
        "--environment",
        "sandbox",
        "--scopes",
        "customers:read,reports:read",
    ]);
    let secret = key["secret"].as_str().unwrap();
    assert!(secret.starts_with("svc_test_") && secret.len() == 49);
    assert!(secret[9..].chars().all(|c| c.is_ascii_alphanumeric()));
    assert_eq!(key["environment"], json!("SANDBOX"));
    assert_eq!(key["scopes"], json!(["customers:read", "reports:read"]));
    let list = data.ok(&["key", "list", "--company", &company]);
    assert_eq!(list["data"][0]["id"], key["id"]);
    assert!(list["data"][0].get("secret").is_none());
    assert!(!list.to_string().contains(&secret[9..]));
    let raw = std::fs::read(&data.path).unwrap();
    let wal = std::fs::read(data.path.with_extension("db-wal")).unwrap_or_default();
    let needle = secret.as_bytes();
    assert!(
        !raw.windows(needle.len()).any(|w| w == needle)
            && !wal.windows(needle.len()).any(|w| w == needle)
    );
    let revoked = data.ok(&["key", "revoke", key["id"].as_str().unwrap()]);
    assert!(revoked["revokedAt"].as_str().is_some());
    let twice = data.ok(&["key", "revoke", key["id"].as_str().unwrap()]);
    assert_eq!(twice["revokedAt"], revoked["revokedAt"]);
}

#[test]
fn a_data_file_from_a_newer_kontor_is_refused() {
    let data = DataFile::new();
    data.company("Erste GmbH", "ENTERPRISE");
    let conn = rusqlite::Connection::open(&data.path).unwrap();
    conn.execute_batch("PRAGMA user_version = 99").unwrap();
    drop(conn);
    let (ok, _, err) = data.console(&["key", "list", "--company", "org_x"]);
    assert!(!ok);
    assert!(err.contains("schema version 99"), "{err}");
    let refused = kontor::http::server::Server::start(kontor::http::server::Config::new(
        &data.path,
        "127.0.0.1:0".parse().unwrap(),
    ))
    .err()
    .expect("the server refuses the file")
    .to_string();
    assert!(refused.contains("schema version 99"), "{refused}");
}

#[test]
fn a_command_on_books_not_begun_is_refused_and_leaves_no_file() {
    let data = DataFile::new();
    let copy = data.path.with_file_name("copy.db");
    let copy_s = copy.to_string_lossy().to_string();
    for args in [
        &["bank", "lines", "--company", "org_x"][..],
        &["key", "list", "--company", "org_x"],
        &["company", "show", "org_x"],
        &["backup", "--to", &copy_s],
    ] {
        let (ok, out, err) = data.console(args);
        assert!(!ok && out.is_null(), "{args:?}");
        assert!(
            err.contains("There is no data file at") && err.contains("kontor.db"),
            "{args:?}: {err}"
        );
        assert!(!data.path.exists(), "{args:?} left a data file behind");
    }
    assert!(!copy.exists());
    // `company create` begins the books.
    let company = data.company("Erste GmbH", "ENTERPRISE");
    assert!(data.path.exists());
    let shown = data.ok(&["company", "show", &company]);
    assert_eq!(shown["name"], "Erste GmbH");
}

#[test]
fn the_demo_prints_working_keys_and_serves_until_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("demo.db");
    let mut child = Command::new(env!("CARGO_BIN_EXE_kontor"))
        .args(["demo", "--listen", "127.0.0.1:0", "--data"])
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let (mut live, mut test, mut addr) = (String::new(), String::new(), String::new());
    for line in lines.by_ref() {
        let line = line.unwrap();
        if let Some(k) = line.split_whitespace().find(|w| w.starts_with("svc_live_")) {
            live = k.trim_matches('\'').to_string();
        }
        if let Some(k) = line.split_whitespace().find(|w| w.starts_with("svc_test_")) {
            test = k.to_string();
        }
        if let Some(rest) = line.trim().strip_prefix("REST API: http://") {
            addr = rest.trim_end_matches("/v1").to_string();
        }
        if line.contains("curl") {
            assert!(line.contains(&live), "{line}");
            break;
        }
    }
    let c = Client {
        addr: addr.parse().unwrap(),
    };
    let me = c.get(&live, "/v1/me");
    assert_eq!(me.status, 200);
    assert_eq!(me.body["environment"], json!("PRODUCTION"));
    // Four customers and the supplier the bills created; three open transactions.
    assert_eq!(c.get(&live, "/v1/customers").body["total"], json!(5));
    assert_eq!(c.get(&live, "/v1/transactions").body["total"], json!(3));
    assert_eq!(
        c.get(
            &live,
            "/v1/transactions?includeArchived=true&search=abgesagt"
        )
        .body["total"],
        json!(1)
    );
    assert_eq!(c.get(&test, "/v1/customers").body["total"], json!(1));
    // The demo's books: every payment state, a report with both sides.
    let invoices = c.get(&live, "/v1/invoices?size=100").body;
    let states: std::collections::BTreeSet<&str> = invoices["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["paymentState"].as_str().unwrap())
        .collect();
    assert_eq!(
        states,
        ["CANCELLED", "CORRECTION", "OPEN", "OVERDUE", "PAID"]
            .into_iter()
            .collect()
    );
    let report = c.get(&live, "/v1/reports/outstanding").body;
    assert_eq!(report["receivables"]["count"], json!(3));
    // 14 875,00 and 5 962,88 overdue (src/console/demo.rs).
    assert_eq!(report["receivables"]["overdue"]["minor"], json!(2_083_788));
    assert_eq!(report["payables"]["count"], json!(1));
    assert_eq!(c.get(&test, "/v1/invoices").body["total"], json!(1));
    // SIGTERM: a clean stop.
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let exit = child.wait().unwrap();
    assert!(exit.success(), "{exit:?}");
    // One log line per request on stderr, with the key id and never the secret.
    let mut log = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut log).unwrap();
    let me_line = log
        .lines()
        .find(|l| l.contains(" GET /v1/me 200 "))
        .expect(&log);
    assert!(
        me_line.contains("key=key_") && me_line.contains("ms"),
        "{me_line}"
    );
    assert!(!log.contains(&live[9..]) && !log.contains(&test[9..]));
    // A named data file that exists is never overwritten by the demo.
    let files = || {
        ["", "-wal"].map(|suffix| {
            let mut p = path.as_os_str().to_owned();
            p.push(suffix);
            std::fs::read(p).unwrap_or_default()
        })
    };
    let before = files();
    let again = Command::new(env!("CARGO_BIN_EXE_kontor"))
        .args(["demo", "--listen", "127.0.0.1:0", "--data"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(!again.status.success());
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(err.contains("needs a fresh data file"), "{err}");
    assert!(files() == before, "the demo changed the existing file");
}

#[test]
fn key_use_is_recorded_and_written_by_the_time_the_server_stops() {
    let data = DataFile::new();
    let company = data.company("Erste GmbH", "ENTERPRISE");
    let key = data.key(&company, "production", "all");
    assert_eq!(
        data.ok(&["key", "list", "--company", &company])["data"][0]["lastUsedAt"],
        json!(null)
    );
    let server = crate::support::start(&data);
    let c = Client { addr: server.addr };
    let first = c.get(&key, "/v1/me").body["lastUsedAt"].clone();
    assert!(first.is_string());
    // Within the minute the shown value does not move (no write per request).
    assert_eq!(c.get(&key, "/v1/me").body["lastUsedAt"], first);
    server.stop();
    let listed = data.ok(&["key", "list", "--company", &company]);
    assert_eq!(listed["data"][0]["lastUsedAt"], first);
}

#[test]
fn vat_ids_are_checked_from_stdin_without_a_data_file() {
    use std::io::Write;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut child = Command::new(env!("CARGO_BIN_EXE_kontor"))
        .args(["vat-id", "check"])
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kontor starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"be 411.905.847\nEL 94259216\nATU13585626\nCHE-107.787.577 MWST\n")
        .expect("ids written");
    let output = child.wait_with_output().expect("kontor ends");
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "valid\tBE0411905847\n\
         valid\tEL094259216\n\
         invalid\tATU13585626\tThe VAT id ATU13585626 fails the Austrian check digit.\n\
         valid\tCHE107787577MWST\n"
    );
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "kontor: 1 of 4 VAT ids are not valid.\n"
    );
    assert!(!output.status.success());
    let left: Vec<_> = std::fs::read_dir(dir.path()).expect("listed").collect();
    assert!(left.is_empty(), "no data file is made: {left:?}");
}

#[test]
fn a_reader_that_stops_reading_is_no_failure_of_the_command() {
    let data = DataFile::new();
    let company = data.company("Pipe GmbH", "ENTERPRISE");
    // stdout is a pipe whose reading end is closed before the command writes.
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_kontor"))
        .args(["company", "show", &company, "--data"])
        .arg(&data.path)
        .stdout(writer)
        .output()
        .expect("run kontor");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}
