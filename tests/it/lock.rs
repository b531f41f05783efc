//! One server per data file: a second server on the same file is refused
//! naming the first, console commands keep working beside a server, the demo
//! does not replace a file a server uses, and a console that would have to
//! migrate a file a server holds refuses. Servers run as real processes.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use kontor::store::lock::{Purpose, ServerLock};
use serde_json::json;

use crate::migrations::{user_version, v1_copy};
use crate::support::{Client, DataFile};

const WAIT: Duration = Duration::from_secs(30);

/// A kontor process whose output lines arrive on channels; killed (and
/// reaped) when dropped, so a failing test leaves no process behind.
pub struct Running {
    child: Child,
    stdout: Receiver<String>,
    stderr: Receiver<String>,
    /// Lines read so far, for failure messages.
    seen: Vec<String>,
}

fn lines(stream: impl Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

impl Running {
    /// Starts `kontor <args>` in `dir` (the current directory when `None`).
    pub fn start(args: &[&str], data: Option<&Path>, dir: Option<&Path>) -> Running {
        let mut command = Command::new(env!("CARGO_BIN_EXE_kontor"));
        command.args(args);
        if let Some(data) = data {
            command.arg("--data").arg(data);
        }
        if let Some(dir) = dir {
            command.current_dir(dir);
        }
        Running::spawn(command)
    }

    /// Starts `command` with its output read line by line.
    pub fn spawn(mut command: Command) -> Running {
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start kontor");
        let stdout = lines(child.stdout.take().expect("stdout"));
        let stderr = lines(child.stderr.take().expect("stderr"));
        Running {
            child,
            stdout,
            stderr,
            seen: Vec::new(),
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    fn wait_for(&mut self, on_stderr: bool, what: &str, found: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let rx = if on_stderr {
                &self.stderr
            } else {
                &self.stdout
            };
            match rx.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if found(&line) {
                        return line;
                    }
                }
                Err(_) => panic!("no {what} within {WAIT:?}; output so far: {:#?}", self.seen),
            }
        }
    }

    /// Waits (bounded) for the line on stderr containing `needle`.
    pub fn stderr_line(&mut self, needle: &str) -> String {
        self.wait_for(true, needle, |l| l.contains(needle))
    }

    /// Waits (bounded) for the line on stdout containing `needle`.
    pub fn stdout_line(&mut self, needle: &str) -> String {
        self.wait_for(false, needle, |l| l.contains(needle))
    }

    /// Waits (bounded) for the process to end; returns its status and all of
    /// its stderr.
    pub fn finish(mut self) -> (ExitStatus, String) {
        let deadline = Instant::now() + WAIT;
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                break status;
            }
            assert!(
                Instant::now() < deadline,
                "kontor (pid {}) did not end within {WAIT:?}",
                self.pid()
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        let mut stderr = Vec::new();
        // The reader thread ends at EOF, which has come with the exit.
        while let Ok(line) = self.stderr.recv_timeout(WAIT) {
            stderr.push(line);
        }
        (status, stderr.join("\n"))
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `kontor serve` on `data`, once it says it serves; returns it and its address.
pub fn serve(data: &Path) -> (Running, Client) {
    let mut server = Running::start(&["serve", "--listen", "127.0.0.1:0"], Some(data), None);
    let addr = address_in(&server.stderr_line("serving"));
    (server, Client { addr })
}

/// The address in a log line naming `http://ADDR/…` (text or JSON).
pub fn address_in(line: &str) -> std::net::SocketAddr {
    line.split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|addr| addr.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
}

/// "pid N, started 2026-…Z" read from the lock file, as refusals name it.
fn holder_of(data: &Path) -> String {
    let text = std::fs::read_to_string(kontor::store::lock::lock_path(data)).expect("lock file");
    let holder: kontor::store::lock::Holder = serde_json::from_str(&text).expect("holder");
    holder.to_string()
}

#[test]
fn a_second_server_on_one_data_file_is_refused_naming_the_first() {
    let data = DataFile::new();
    data.company("Erste GmbH", "ENTERPRISE");
    let (first, _) = serve(&data.path);
    let holder = holder_of(&data.path);
    assert!(
        holder.starts_with(&format!("pid {}, started 20", first.pid())),
        "{holder}"
    );

    let second = Running::start(
        &["serve", "--listen", "127.0.0.1:0"],
        Some(&data.path),
        None,
    );
    let (status, stderr) = second.finish();
    assert!(!status.success(), "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "kontor: Another kontor server ({holder}) serves {}; stop it first, or name another data file.",
            data.path.display()
        )
    );
    // Once the first is gone, the file can be served again.
    drop(first);
    let (again, client) = serve(&data.path);
    assert!(holder_of(&data.path).starts_with(&format!("pid {},", again.pid())));
    assert_eq!(client.get("svc_live_x", "/v1/me").status, 401);
}

#[test]
fn console_commands_work_while_a_server_runs() {
    let data = DataFile::new();
    let (_server, client) = serve(&data.path);
    // The console writes and reads the file the server serves.
    let company = data.company("Erste GmbH", "ENTERPRISE");
    let key = data.key(&company, "production", "all");
    let list = data.ok(&["key", "list", "--company", &company]);
    assert_eq!(list["data"].as_array().map(Vec::len), Some(1));
    // And the server sees what the console wrote.
    let me = client.get(&key, "/v1/me");
    assert_eq!(me.status, 200, "{:?}", me.body);
    assert_eq!(me.body["environment"], json!("PRODUCTION"));
}

#[test]
fn the_demo_does_not_replace_a_demo_file_a_server_uses() {
    let dir = tempfile::tempdir().unwrap();
    let mut first = Running::start(&["demo", "--listen", "127.0.0.1:0"], None, Some(dir.path()));
    let company_line = first.stdout_line("kontor demo:");
    first.stdout_line("REST API:");
    let company = company_line
        .split(['(', ','])
        .nth(1)
        .expect("company id")
        .to_string();
    assert!(company.starts_with("org_"), "{company_line}");
    let demo_file = dir.path().join(kontor::console::demo::DEMO_DATA);
    let holder = holder_of(&demo_file);

    let second = Running::start(&["demo", "--listen", "127.0.0.1:0"], None, Some(dir.path()));
    let (status, stderr) = second.finish();
    assert!(!status.success(), "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "kontor: A kontor process ({holder}) uses {}, so the demo does not replace it; stop that process first, or name another data file with --data.",
            kontor::console::demo::DEMO_DATA
        )
    );
    // The first demo's file is still there, with its company alone.
    let conn = rusqlite::Connection::open(&demo_file).unwrap();
    let ids: Vec<String> = conn
        .prepare("SELECT id FROM companies")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(ids, vec![company]);
}

#[test]
fn a_console_that_must_migrate_a_file_a_server_holds_refuses_and_changes_nothing() {
    let data = v1_copy();
    // This test process plays the server: it holds the lock.
    let lock = ServerLock::acquire(&data.path, Purpose::Serving).expect("lock");
    let holder = holder_of(&data.path);
    assert!(holder.starts_with(&format!("pid {},", std::process::id())));
    let (ok, _, stderr) = data.console(&["key", "list", "--company", "org_x"]);
    assert!(!ok);
    assert_eq!(
        stderr.trim_end(),
        format!(
            "kontor: The data file {} has schema version 1 and needs version {}, but a kontor server ({holder}) serves this file; stop it, then run the command again.",
            data.path.display(),
            kontor::store::db::SCHEMA_VERSION
        )
    );
    assert_eq!(user_version(&data.path), 1);
    // Without a server, the console migrates, under the lock, and lets it go.
    drop(lock);
    let (_, _, stderr) = data.console(&["key", "list", "--company", "org_x"]);
    assert!(stderr.contains("Company org_x was not found"), "{stderr}");
    assert_eq!(user_version(&data.path), kontor::store::db::SCHEMA_VERSION);
    ServerLock::acquire(&data.path, Purpose::Serving).expect("the console let the lock go");
}
