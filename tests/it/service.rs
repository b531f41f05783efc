//! kontor as a system service: the units in contrib/ pass `systemd-analyze
//! verify` (with the binaries at ExecStart's paths) and are rated "OK" or
//! better by `systemd-analyze security`; and SIGTERM, as systemd sends it,
//! stops kontor cleanly: no new connection is taken, a request in flight
//! is answered, the webhook worker's attempt in flight finishes and is
//! recorded, the process exits 0, and nothing acknowledged is lost.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::lock::{address_in, serve, Running};
use crate::support::receiver::{Answer, Receiver};
use crate::support::{unique, Client, DataFile};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The unit `name` of contrib/ with its binaries' paths replaced by the
/// built kontor and the installed Litestream, written to `dir`.
fn unit_here(name: &str, dir: &Path) -> std::path::PathBuf {
    let text = std::fs::read_to_string(root().join("contrib").join(name)).unwrap();
    let litestream = root().join("target/litestream-venv/bin/litestream");
    assert!(litestream.exists(), "run tests/ops/install.sh");
    let text = text
        .replace("/usr/local/bin/kontor", env!("CARGO_BIN_EXE_kontor"))
        .replace("/usr/local/bin/litestream", litestream.to_str().unwrap());
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn the_units_are_verified_and_rated_ok_by_systemd_analyze() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["kontor.service", "kontor-litestream.service"] {
        let unit = unit_here(name, dir.path());
        let verify = Command::new("systemd-analyze")
            .arg("verify")
            .arg(&unit)
            .output()
            .expect("systemd-analyze (tests/ops/install.sh installs it)");
        let said = String::from_utf8_lossy(&verify.stderr).into_owned();
        println!("systemd-analyze verify {name}: {} {said}", verify.status);
        assert!(verify.status.success(), "{said}");
        let security = Command::new("systemd-analyze")
            .args(["security", "--offline=yes", "--no-pager"])
            .arg(&unit)
            .output()
            .unwrap();
        let report = String::from_utf8_lossy(&security.stdout).into_owned();
        let overall = report
            .lines()
            .find(|l| l.contains("Overall exposure level"))
            .unwrap_or_else(|| panic!("no rating: {report}"));
        println!("systemd-analyze security {name}: {overall}");
        let rating = overall.split(':').nth(1).unwrap().trim();
        let mut words = rating.split_whitespace();
        let level: f64 = words.next().unwrap().parse().unwrap();
        let word = words.next().unwrap();
        assert!(
            matches!(word, "OK" | "SAFE") && level <= 4.0,
            "{name} is rated {rating}"
        );
    }
}

#[test]
fn sigterm_answers_what_is_in_flight_and_loses_nothing() {
    let data = DataFile::new();
    let company = data.company("Dienst GmbH", "ENTERPRISE");
    let key = data.key(&company, "production", "all");
    let receiver = Receiver::start();
    receiver.always("/hook", Answer::slow(Duration::from_secs(2)));
    let mut server = Running::start(
        &[
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--vat-register",
            "off",
            "--webhook-allow-loopback",
        ],
        Some(&data.path),
        None,
    );
    let addr = address_in(&server.stderr_line("serving"));
    let client = Client { addr };
    let hook = client.post(
        &key,
        "/v1/webhooks",
        &unique(),
        &json!({"url": receiver.url("/hook"), "events": ["invoice.issued"]}),
    );
    assert_eq!(hook.status, 201, "{:?}", hook.body);
    let hook_id = hook.body["id"].as_str().unwrap().to_string();
    let customer = client.customer(&key, "Kunde");
    let draft = client.draft(&key, &customer);
    data.line(&draft, 10_000, "19", false);
    data.ok(&["draft", "issue", &draft]);
    // The worker's attempt is in flight: the receiver holds it 2 s.
    receiver.wait_for("/hook", 1, Duration::from_secs(15));

    // A request in flight: its head and half its body sent.
    let body = serde_json::to_vec(&json!({
        "name": "Kunde im Flug", "street": "Hafenstraße 1", "postalCode": "20457", "city": "Hamburg"
    }))
    .unwrap();
    let mut slow = TcpStream::connect(addr).unwrap();
    write!(
        slow,
        "POST /v1/customers HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {key}\r\n\
         Idempotency-Key: in-flight-1\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .unwrap();
    let half = body.len() / 2;
    slow.write_all(&body[..half]).unwrap();
    slow.flush().unwrap();
    std::thread::sleep(Duration::from_millis(200));

    let stopped_at = Instant::now();
    let pid = server.pid().to_string();
    assert!(Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
    server.stderr_line("stopping; in-flight requests finish first");
    // No new connection is taken.
    std::thread::sleep(Duration::from_millis(300));
    let refused = TcpStream::connect_timeout(&addr, Duration::from_secs(2)).is_err();
    // The rest of the body: the request is answered.
    slow.write_all(&body[half..]).unwrap();
    let mut answer = String::new();
    slow.read_to_string(&mut answer).unwrap();
    let (status, log) = server.finish();
    let took = stopped_at.elapsed();
    println!(
        "SIGTERM: exited {status} after {:.1} s; a new connection refused: {refused}; the request in flight: {}",
        took.as_secs_f64(),
        answer.lines().next().unwrap_or("")
    );
    assert!(refused, "a connection was taken after SIGTERM");
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    assert!(status.success(), "{status:?}\n{log}");
    assert!(
        took < Duration::from_secs(40),
        "stopped within the unit's bound"
    );

    // Nothing acknowledged is lost: the customer and the delivery's attempt.
    let created: serde_json::Value =
        serde_json::from_str(answer.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    let (_again, client) = serve(&data.path);
    let got = client.get(
        &key,
        &format!("/v1/customers/{}", created["id"].as_str().unwrap()),
    );
    assert_eq!(got.status, 200);
    assert_eq!(got.body["name"], "Kunde im Flug");
    let log = client.get(&key, &format!("/v1/webhooks/{hook_id}/deliveries"));
    let first = &log.body["data"][0];
    assert_eq!(
        (
            first["state"].as_str(),
            first["attempts"].as_i64(),
            first["lastStatus"].as_i64()
        ),
        (Some("DELIVERED"), Some(1), Some(200)),
        "{}",
        log.body
    );
}
