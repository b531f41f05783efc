//! Copies on a schedule and putting one back: `serve --backup-to DIR
//! --backup-every … --backup-keep N` writes whole copies while writes go
//! on and keeps the newest N; `kontor restore --from FILE --data PATH`
//! checks the copy (intact, a kontor file, a schema this kontor knows, no
//! server on the file) before it replaces anything, and moves the file it
//! replaces aside.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use crate::lock::Running;
use crate::support::DataFile;

fn copies(dir: &Path) -> Vec<PathBuf> {
    let mut all: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    all.sort();
    all
}

fn digest(path: &Path) -> String {
    hex::encode(Sha256::digest(std::fs::read(path).unwrap()))
}

fn restore(from: &Path, data: &Path) -> (bool, serde_json::Value, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kontor"))
        .args(["restore", "--from"])
        .arg(from)
        .arg("--data")
        .arg(data)
        .output()
        .unwrap();
    (
        out.status.success(),
        serde_json::from_slice(&out.stdout).unwrap_or_default(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The names of the companies in the data file at `path`.
fn companies(path: &Path) -> Vec<String> {
    let conn =
        rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .unwrap();
    let mut stmt = conn
        .prepare("SELECT name FROM companies ORDER BY name")
        .unwrap();
    let names = stmt
        .query_map([], |r| r.get::<_, String>(0))
        .unwrap()
        .map(|n| n.unwrap())
        .collect();
    names
}

#[test]
fn a_server_keeps_the_newest_copies_and_one_is_restored_whole() {
    let data = DataFile::new();
    data.company("Vorher GmbH", "ENTERPRISE");
    let dir = data.path.with_file_name("copies");
    let server = Running::start(
        &[
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--vat-register",
            "off",
            "--backup-to",
            dir.to_str().unwrap(),
            "--backup-every",
            "1s",
            "--backup-keep",
            "3",
        ],
        Some(&data.path),
        None,
    );
    // Writes go on while the copies are made.
    let mut made = 0;
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(5) {
        data.company(&format!("Firma {made} GmbH"), "STARTER");
        made += 1;
        std::thread::sleep(Duration::from_millis(200));
    }
    // A copy after the last write.
    std::thread::sleep(Duration::from_millis(1_500));
    let (status, log) = server_stop(server);
    assert!(status, "{log}");
    let kept = copies(&dir);
    println!("{made} companies written; copies kept: {kept:?}");
    assert_eq!(kept.len(), 3, "the newest three are kept: {kept:?}");
    assert!(
        kept.iter().all(|p| {
            let name = p.file_name().unwrap().to_str().unwrap();
            name.starts_with("kontor-") && name.ends_with(".db")
        }),
        "no partial file is left: {kept:?}"
    );
    let newest = kept.last().unwrap();
    let fresh = data.path.with_file_name("restored.db");
    let (ok, done, said) = restore(newest, &fresh);
    assert!(ok, "{said}");
    assert_eq!(done["integrity"], "ok");
    assert_eq!(done["replaced"], serde_json::Value::Null);
    let names = companies(&fresh);
    assert_eq!(names.len(), made + 1, "{names:?}");
    assert!(names
        .iter()
        .any(|n| n == &format!("Firma {} GmbH", made - 1)));
}

/// Stops the server with SIGTERM; whether it exited 0, and its stderr.
fn server_stop(server: Running) -> (bool, String) {
    let pid = server.pid();
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let (status, log) = server.finish();
    (status.success(), log)
}

#[test]
fn a_copy_is_checked_before_it_replaces_anything() {
    let data = DataFile::new();
    data.company("Jetzt GmbH", "ENTERPRISE");
    let copy = data.path.with_file_name("copy.db");
    data.ok(&["backup", "--to", copy.to_str().unwrap()]);
    data.company("Danach GmbH", "ENTERPRISE");
    let before = digest(&data.path);

    // A damaged copy: a page in the middle overwritten.
    let damaged = data.path.with_file_name("damaged.db");
    let mut bytes = std::fs::read(&copy).unwrap();
    let middle = (bytes.len() / 4096 / 2) * 4096;
    for b in &mut bytes[middle..middle + 4096] {
        *b = 0x5a;
    }
    std::fs::write(&damaged, &bytes).unwrap();
    // A SQLite file that is no kontor file; a copy from a newer kontor; no file.
    let foreign = data.path.with_file_name("foreign.db");
    rusqlite::Connection::open(&foreign)
        .unwrap()
        .execute_batch("CREATE TABLE notes (t TEXT); INSERT INTO notes VALUES ('x');")
        .unwrap();
    let newer = data.path.with_file_name("newer.db");
    std::fs::copy(&copy, &newer).unwrap();
    rusqlite::Connection::open(&newer)
        .unwrap()
        .execute_batch("PRAGMA user_version = 9999")
        .unwrap();
    for (from, says) in [
        (&damaged, "damaged"),
        (&foreign, "no kontor data file"),
        (&newer, "newer than this kontor knows"),
        (&data.path.with_file_name("missing.db"), "no file"),
    ] {
        let (ok, _, said) = restore(from, &data.path);
        assert!(!ok, "{} was restored", from.display());
        assert!(
            said.contains(says) && said.contains("nothing was replaced"),
            "{said}"
        );
        assert_eq!(digest(&data.path), before, "the data file is unchanged");
    }

    // Not while a server holds the file.
    let server = Running::start(
        &["serve", "--listen", "127.0.0.1:0", "--vat-register", "off"],
        Some(&data.path),
        None,
    );
    let mut server = server;
    server.stderr_line("serving");
    let (ok, _, said) = restore(&copy, &data.path);
    assert!(!ok);
    assert!(said.contains("nothing was restored"), "{said}");
    let (status, log) = server_stop(server);
    assert!(status, "{log}");

    // A good copy replaces the file, which is moved aside whole.
    let (ok, done, said) = restore(&copy, &data.path);
    assert!(ok, "{said}");
    let aside = PathBuf::from(done["replaced"].as_str().unwrap());
    assert!(aside.exists());
    let names = companies(&data.path);
    assert!(names.contains(&"Jetzt GmbH".to_string()), "{names:?}");
    assert!(!names.contains(&"Danach GmbH".to_string()), "{names:?}");
    assert!(companies(&aside).contains(&"Danach GmbH".to_string()));
}
