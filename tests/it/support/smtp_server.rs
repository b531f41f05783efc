//! A real SMTP server for the mail tests: Debian's aiosmtpd
//! (tests/smtp/server.py under /usr/bin/python3) on a loopback port, with
//! a certificate for `localhost` signed by a CA of the test's own (openssl), STARTTLS or
//! implicit TLS, AUTH with one login, and recipients that steer its
//! answers (`busy-once…` 451 once, `busy…` 451, `reject…` 550); or a
//! server that accepts and never speaks. Messages taken land in a folder
//! as N.eml and N.json. Stopped when dropped. A missing tool fails the
//! test with the install script's name.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const INSTALL: &str = "tests/smtp/install.sh (run by .ci/run and the README's test command)";

/// How the server protects the connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Security {
    StartTls,
    Tls,
    None,
}

pub struct SmtpServer {
    pub port: u16,
    pub user: String,
    pub password: String,
    /// The CA certificate a client trusts (PEM).
    pub cert: PathBuf,
    dir: tempfile::TempDir,
    child: Child,
}

/// One message the server took.
#[derive(Debug, Clone)]
pub struct Taken {
    pub raw: Vec<u8>,
    pub mail_from: String,
    pub rcpt_tos: Vec<String>,
    /// The message as Python's email package read it: `subject`,
    /// `headers`, `contentType`, `parts` (`contentType`, `fileName`,
    /// `disposition`, `sha256`, `size`, `text`).
    pub read: serde_json::Value,
}

impl Taken {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.raw).into_owned()
    }
}

fn project() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs openssl with `args` in `dir`.
fn openssl(dir: &Path, args: &[&str]) {
    let status = Command::new("openssl")
        .current_dir(dir)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap_or_else(|e| panic!("openssl cannot run ({e}); install it with {INSTALL}"));
    assert!(status.success(), "openssl {args:?} failed");
}

/// A certificate authority of the test's own and the server's certificate
/// for `localhost` and 127.0.0.1 signed by it: (the CA's PEM, the
/// server's certificate, its key).
fn certificates(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let ec = [
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
    ];
    let mut ca = vec!["req", "-x509", "-days", "2", "-subj", "/CN=kontor test CA"];
    ca.extend(ec);
    ca.extend(["-keyout", "ca.key", "-out", "ca.pem"]);
    openssl(dir, &ca);
    let mut request = vec!["req", "-subj", "/CN=localhost"];
    request.extend(ec);
    request.extend(["-keyout", "key.pem", "-out", "server.csr"]);
    openssl(dir, &request);
    std::fs::write(
        dir.join("server.ext"),
        "basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost,IP:127.0.0.1\n",
    )
    .unwrap();
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-days",
            "2",
            "-extfile",
            "server.ext",
            "-out",
            "cert.pem",
        ],
    );
    (
        dir.join("ca.pem"),
        dir.join("cert.pem"),
        dir.join("key.pem"),
    )
}

impl SmtpServer {
    /// A server with `security`, requiring AUTH as `user`/`password` (with
    /// TLS), or hanging after accepting with `hang`.
    pub fn start(security: Security, hang: bool) -> SmtpServer {
        let dir = tempfile::tempdir().unwrap();
        let (ca, cert, key) = certificates(dir.path());
        let user = "rechnung@nordlicht.example".to_string();
        let password = format!("Geheim-{}-Pw", std::process::id());
        let mut cmd = Command::new("/usr/bin/python3");
        cmd.arg(project().join("tests/smtp/server.py"))
            .arg("--out")
            .arg(dir.path().join("out"))
            .arg("--security")
            .arg(match security {
                Security::StartTls => "starttls",
                Security::Tls => "tls",
                Security::None => "none",
            })
            .arg("--cert")
            .arg(&cert)
            .arg("--key")
            .arg(&key);
        if security != Security::None {
            cmd.args(["--user", &user, "--password", &password]);
        }
        if hang {
            cmd.arg("--hang");
        }
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("/usr/bin/python3 cannot run ({e}); install with {INSTALL}")
            });
        let stdout = child.stdout.take().unwrap();
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).unwrap();
        let port = line
            .trim()
            .strip_prefix("listening ")
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| {
                let _ = child.kill();
                panic!("the SMTP server did not start (is python3-aiosmtpd installed? {INSTALL}); it said {line:?}")
            });
        SmtpServer {
            port,
            user,
            password,
            cert: ca,
            dir,
            child,
        }
    }

    /// The messages taken so far, in order.
    pub fn taken(&self) -> Vec<Taken> {
        let out = self.dir.path().join("out");
        let mut taken = Vec::new();
        for n in 1.. {
            let Ok(raw) = std::fs::read(out.join(format!("{n}.eml"))) else {
                break;
            };
            let Ok(envelope) = std::fs::read_to_string(out.join(format!("{n}.json"))) else {
                break;
            };
            let v: serde_json::Value = serde_json::from_str(&envelope).unwrap();
            taken.push(Taken {
                raw,
                mail_from: v["mail_from"].as_str().unwrap_or("").into(),
                rcpt_tos: v["rcpt_tos"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r.as_str().unwrap().to_string())
                    .collect(),
                read: v,
            });
        }
        taken
    }

    /// Waits up to `limit` for `count` messages.
    pub fn wait_for(&self, count: usize, limit: Duration) -> Vec<Taken> {
        let started = Instant::now();
        loop {
            let taken = self.taken();
            if taken.len() >= count || started.elapsed() > limit {
                return taken;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
