//! Health, readiness and the metrics page, on `kontor serve` run as a real
//! process: `/healthz` and `/readyz` answer without a key and name no
//! company; `/readyz` answers 503 with the reason when the data file is
//! gone or replaced, when its file system is full (a real tmpfs filled to
//! the last byte) and when a worker does not run, and 200 again once that
//! is over; `/metrics` is served only on `--metrics-listen`, never on the
//! public port; `--log-format json` writes one JSON object per line.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

use crate::lock::{address_in, Running};
use crate::support::small_disk::SmallDisk;
use crate::support::{Client, DataFile, World};

/// `kontor serve` on `data` with the metrics page on a port of its own and
/// `more` arguments; returns it, its public client and the metrics address.
pub fn serve_with_metrics(data: &Path, more: &[&str]) -> (Running, Client, SocketAddr) {
    let mut args = vec![
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--metrics-listen",
        "127.0.0.1:0",
    ];
    args.extend_from_slice(more);
    let mut server = Running::start(&args, Some(data), None);
    let metrics = address_in(&server.stderr_line("metrics on http://"));
    let public = address_in(&server.stderr_line("serving"));
    (server, Client { addr: public }, metrics)
}

/// GET on any address; status, content type and body.
pub fn get(url: &str) -> (u16, String, String) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(std::time::Duration::from_secs(30)))
        .build()
        .into();
    let mut response = agent.get(url).call().expect("request sent");
    let kind = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let body = response.body_mut().read_to_string().unwrap_or_default();
    (response.status().as_u16(), kind, body)
}

/// `GET /readyz`: its status and body.
fn readyz(c: &Client) -> (u16, Value) {
    let a = c.send("GET", "/readyz", &[], None);
    (a.status, a.body)
}

const ALL_OK: [&str; 5] = ["dataFile", "schema", "write", "webhookWorker", "mailWorker"];

fn all_ok() -> Value {
    let checks: serde_json::Map<String, Value> = ALL_OK
        .iter()
        .map(|name| (name.to_string(), json!("ok")))
        .collect();
    json!({"ready": true, "checks": checks})
}

#[test]
fn health_and_readiness_answer_without_a_key_and_the_metrics_stay_off_the_public_port() {
    let data = DataFile::new();
    let company = data.company("Verschwiegen GmbH", "ENTERPRISE");
    let (_server, c, metrics) = serve_with_metrics(&data.path, &[]);

    let alive = c.send("GET", "/healthz", &[], None);
    assert_eq!(
        (alive.status, alive.body.clone()),
        (200, json!({"alive": true}))
    );
    let (status, body) = readyz(&c);
    assert_eq!((status, body.clone()), (200, all_ok()));
    // Neither names a company.
    for answer in [&alive.raw, &serde_json::to_vec(&body).unwrap()] {
        let text = String::from_utf8_lossy(answer);
        assert!(
            !text.contains(&company) && !text.contains("Verschwiegen"),
            "{text}"
        );
    }
    // Only GET and HEAD.
    let posted = c.send("POST", "/readyz", &[], Some(b"{}"));
    assert_eq!(posted.status, 405);
    assert_eq!(posted.header("Allow"), Some("GET, HEAD"));
    assert_eq!(c.send("HEAD", "/healthz", &[], None).status, 200);

    // The public port has no metrics page, with a key or without.
    assert_eq!(c.send("GET", "/metrics", &[], None).status, 404);
    let key = data.key(&company, "production", "all");
    assert_eq!(c.get(&key, "/metrics").status, 404);
    // Its own address has nothing else.
    let (status, kind, page) = get(&format!("http://{metrics}/metrics"));
    assert_eq!(status, 200);
    assert_eq!(kind, "text/plain; version=0.0.4; charset=utf-8");
    assert!(
        page.contains("# TYPE kontor_http_requests_total counter"),
        "{page}"
    );
    // The requests above are counted by surface and status class (the
    // health addresses are "other"), and no label carries the company.
    for counted in [
        r#"kontor_http_requests_total{surface="other",status="2xx"} 3"#,
        r#"kontor_http_requests_total{surface="other",status="4xx"} 3"#,
        r#"kontor_http_requests_total{surface="rest",status="2xx"} 0"#,
    ] {
        assert!(page.contains(counted), "{counted} in {page}");
    }
    assert!(!page.contains(&company) && !page.contains("Verschwiegen"));
    assert_eq!(get(&format!("http://{metrics}/v1/me")).0, 404);
    assert_eq!(get(&format!("http://{metrics}/healthz")).0, 404);
}

#[test]
fn the_metrics_address_must_not_be_the_public_port() {
    let data = DataFile::new();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let at = format!("127.0.0.1:{port}");
    let server = Running::start(
        &["serve", "--listen", &at, "--metrics-listen", &at],
        Some(&data.path),
        None,
    );
    let (status, stderr) = server.finish();
    assert!(!status.success());
    assert!(
        stderr.contains(&format!(
            "--metrics-listen {at} is the public port; the metrics page goes on an address of its own."
        )),
        "{stderr}"
    );
}

#[test]
fn readiness_names_the_workers_a_server_does_not_run() {
    // The tests' servers run no workers (they drive the outboxes by hand).
    let w = World::new();
    let (status, body) = readyz(&w.client());
    assert_eq!(status, 503, "{body}");
    assert_eq!(
        body,
        json!({
            "ready": false,
            "reason": "The webhook worker is not running. The mail worker is not running.",
            "checks": {
                "dataFile": "ok", "schema": "ok", "write": "ok",
                "webhookWorker": "The webhook worker is not running.",
                "mailWorker": "The mail worker is not running.",
            }
        })
    );
    let running = World::configured(|c| {
        c.deliver = true;
        c.mail = true;
    });
    assert_eq!(readyz(&running.client()), (200, all_ok()));
}

/// `path` with `suffix` appended to its name.
fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

#[test]
fn readiness_says_when_the_data_file_is_gone_or_replaced() {
    let data = DataFile::new();
    data.company("Erste GmbH", "ENTERPRISE");
    let (_server, c, _) = serve_with_metrics(&data.path, &[]);
    assert_eq!(readyz(&c).0, 200);

    // Moved away: kontor would write to a file no path names.
    let away = beside(&data.path, ".moved");
    std::fs::rename(&data.path, &away).unwrap();
    let (status, body) = readyz(&c);
    println!("moved away: {status} {body}");
    assert_eq!(status, 503);
    assert_eq!(
        body["checks"]["dataFile"],
        json!("The data file is gone: kontor writes to a file no path names any more; put it back or restart kontor.")
    );
    assert_eq!(
        body["checks"]["write"],
        json!("Not tried: the data file is not the one kontor opened.")
    );
    assert_eq!(body["checks"]["schema"], json!("ok"));
    assert!(body["reason"]
        .as_str()
        .unwrap()
        .starts_with("The data file is gone"));
    // Put back: ready again, no restart.
    std::fs::rename(&away, &data.path).unwrap();
    assert_eq!(readyz(&c), (200, all_ok()));

    // Replaced by a copy (another file under the same path).
    let copy = beside(&data.path, ".copy");
    std::fs::copy(&data.path, &copy).unwrap();
    std::fs::rename(&copy, &data.path).unwrap();
    let (status, body) = readyz(&c);
    println!("replaced: {status} {body}");
    assert_eq!(status, 503);
    assert_eq!(
        body["checks"]["dataFile"],
        json!("The data file's path names another file than the one kontor opened (it was replaced); restart kontor to serve the file that is there now.")
    );
}

/// A tmpfs of `mib` MiB mounted on a fresh directory; unmounted when dropped.
#[test]
fn readiness_says_when_the_file_system_is_full_and_recovers_when_space_is_freed() {
    let disk = SmallDisk::mount(24);
    let path = disk.path().join("kontor.db");
    let data = DataFile::new();
    // The books begun elsewhere, copied onto the small disk.
    data.company("Erste GmbH", "ENTERPRISE");
    data.ok(&["backup", "--to", path.to_str().unwrap()]);
    let (server, c, _) = serve_with_metrics(&path, &[]);
    assert_eq!(readyz(&c), (200, all_ok()));

    let filled = disk.fill("filler");
    let (status, body) = readyz(&c);
    println!("filled {filled} bytes: {status} {body}");
    assert_eq!(status, 503);
    let file = body["checks"]["dataFile"].as_str().unwrap();
    assert!(
        file.starts_with("The data file's file system is full (") && file.ends_with(" KiB free)."),
        "{file}"
    );
    // The real write the check makes is refused by SQLite too.
    assert_eq!(
        body["checks"]["write"],
        json!("The data file takes no write: its disk is full.")
    );
    // The process answers meanwhile.
    assert_eq!(c.send("GET", "/healthz", &[], None).status, 200);

    std::fs::remove_file(disk.path().join("filler")).unwrap();
    assert_eq!(readyz(&c), (200, all_ok()));
    drop(server);
}

#[test]
fn the_log_can_be_json_lines_with_a_requests_parts_as_fields() {
    let data = DataFile::new();
    let company = data.company("Erste GmbH", "ENTERPRISE");
    let key = data.key(&company, "production", "all");
    let (mut server, c, _) = serve_with_metrics(&data.path, &["--log-format", "json"]);
    assert_eq!(c.get(&key, "/v1/me").status, 200);
    let line = server.stderr_line("/v1/me");
    let status = Command::new("kill")
        .args(["-TERM", &server.pid().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let (exit, rest) = server.finish();
    assert!(exit.success(), "{rest}");

    let me: Value = serde_json::from_str(&line).expect("a JSON line");
    assert_eq!(me["level"], json!("INFO"));
    assert!(me["timestamp"].as_str().unwrap().ends_with('Z'), "{me}");
    assert_eq!(
        (&me["method"], &me["path"], &me["status"]),
        (&json!("GET"), &json!("/v1/me"), &json!(200))
    );
    assert!(me["key"].as_str().unwrap().starts_with("key_"), "{me}");
    assert!(me["duration_ms"].as_f64().is_some(), "{me}");
    assert!(me["message"]
        .as_str()
        .unwrap()
        .starts_with("GET /v1/me 200 "));
    // Every line is one JSON object, and none carries the key's secret.
    for line in rest.lines() {
        let event: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert!(event["message"].is_string(), "{line}");
    }
    assert!(rest.contains("stopping; in-flight requests finish first"));
    assert!(!line.contains(&key[9..]) && !rest.contains(&key[9..]));
}
