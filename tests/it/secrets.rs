//! The SMTP password, once given, is in no answer, page, log line, stored
//! error sentence, data file or backup: a running `kontor serve` (its log
//! captured) sends through a server (implicit TLS, AUTH) that refuses the
//! login, and every text the product produced is searched for the
//! password and the base64 forms AUTH sends it in.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;

use crate::support::screens::{person, Browser, PASSWORD};
use crate::support::smtp_server::{Security, SmtpServer};
use crate::support::{Client, DataFile};

/// The running `kontor serve`, its stderr kept; killed when dropped.
pub(crate) struct Served {
    child: std::process::Child,
    pub(crate) log: Arc<Mutex<String>>,
    pub(crate) addr: std::net::SocketAddr,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub(crate) fn serve(data: &DataFile) -> Served {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kontor"))
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--vat-register",
            "off",
            "--mail-timeout",
            "5",
            "--mail-allow",
            "127.0.0.1",
            "--data",
        ])
        .arg(&data.path)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let log: Arc<Mutex<String>> = Arc::default();
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let stderr = child.stderr.take().unwrap();
    let kept = log.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            kept.lock().unwrap().push_str(&line);
            kept.lock().unwrap().push('\n');
            let _ = tx.send(line);
        }
    });
    let addr = loop {
        let line = rx
            .recv_timeout(Duration::from_secs(10))
            .expect("kontor serve starts");
        if let Some(at) = line.find("http://") {
            let rest = &line[at + 7..];
            break rest[..rest.find('/').unwrap()].parse().unwrap();
        }
    };
    Served { child, log, addr }
}

#[test]
fn the_smtp_password_is_in_no_answer_page_log_error_or_file() {
    let smtp = SmtpServer::start(Security::Tls, false);
    let data = DataFile::new();
    let company = data.company("Geheim GmbH", "ENTERPRISE");
    person(&data, &company, "owner@geheim.de", "owner");
    let key = data.key(&company, "production", "all");
    let secret = format!("Pw-{}-streng-geheim", kontor::store::ids::base62(12));
    let b64 = base64::engine::general_purpose::STANDARD;
    let forms = [
        secret.clone(),
        b64.encode(&secret),
        b64.encode(format!("\0{}\0{secret}", smtp.user)),
    ];
    let seen: std::cell::RefCell<Vec<(String, String)>> = Default::default();
    let console = |args: &[&str]| {
        let (ok, json, stderr) = data.console(args);
        seen.borrow_mut()
            .push((format!("kontor {args:?}"), format!("{json}\n{stderr}")));
        (ok, json)
    };
    let file = data.path.with_file_name("password.txt");
    std::fs::write(&file, format!("{secret}\n")).unwrap();
    let port = smtp.port.to_string();
    let (ok, settings) = console(&[
        "company",
        "mail",
        "--company",
        &company,
        "--host",
        "localhost",
        "--mail-allow",
        "127.0.0.0/8",
        "--port",
        &port,
        "--security",
        "tls",
        "--from",
        "rechnung@geheim.example",
        "--user",
        &smtp.user,
        "--password-file",
        file.to_str().unwrap(),
        "--ca-file",
        smtp.cert.to_str().unwrap(),
    ]);
    std::fs::remove_file(&file).unwrap();
    assert!(ok);
    assert_eq!(settings["passwordSet"], true);

    let served = serve(&data);
    let api = Client { addr: served.addr };
    let customer = api.customer(&key, "Kunde");
    console(&[
        "customer",
        "set",
        customer["id"].as_str().unwrap(),
        "--invoice-email",
        "kunde@example.org",
    ]);
    let draft = api.draft(&key, &customer);
    data.line(&draft, 10_000, "19", false);
    let (_, invoice) = console(&["draft", "issue", &draft]);
    let number = invoice["number"].as_str().unwrap().to_string();
    let (ok, send) = console(&["invoice", "send", "--company", &company, &number]);
    assert!(ok);
    assert_eq!(send["state"], "queued");
    // The running server's worker tries within seconds; the login is refused (535).
    let started = Instant::now();
    let failed = loop {
        let (_, sends) = console(&["invoice", "sends", "--company", &company, &number]);
        if sends[0]["state"] == "failed" {
            break sends;
        }
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "the send fails: {sends}"
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(failed[0]["smtpReply"], "535");
    assert!(smtp.taken().is_empty());

    // The pages a person sees, and a refused form that had the password typed in.
    let mut browser = Browser::at(served.addr);
    browser
        .login("owner@geheim.de", PASSWORD)
        .redirects_to("/dashboard");
    for path in [
        "/settings/mail",
        "/settings",
        &format!("/invoices/{number}"),
        "/dashboard",
        "/reminders",
    ] {
        let page = browser.get(path);
        assert_eq!(page.status, 200, "{path}");
        if path.starts_with("/invoices/") {
            // The failed send is shown on the invoice's page with its reply.
            assert!(
                page.body.contains("id=\"sends\"")
                    && page.body.contains("535")
                    && page.body.contains("failed"),
                "{}",
                page.body
            );
        }
        seen.borrow_mut().push((path.to_string(), page.body));
    }
    let form = browser.get("/settings/mail");
    let refused = browser.post(
        "/settings/mail",
        &[
            ("csrf", &form.csrf()),
            ("security", "tls"),
            ("host", "localhost"),
            ("port", "not a port"),
            ("from", "rechnung@geheim.example"),
            ("user", &smtp.user),
            ("password", &secret),
            ("pdfWithXml", "yes"),
        ],
    );
    assert_eq!(refused.status, 400);
    seen.borrow_mut()
        .push(("the refused settings form".into(), refused.body));
    let test = browser.post("/settings/mail/test", &[("csrf", &form.csrf()), ("to", "")]);
    assert_eq!(test.status, 303);
    let (_, backup) = console(&[
        "backup",
        "--to",
        data.path.with_file_name("backup.db").to_str().unwrap(),
    ]);
    assert!(backup["bytes"].as_u64().unwrap() > 0);
    // Its worker tries the test mail too (its attempt is recorded); then it stops.
    let attempted = || -> i64 {
        let conn = rusqlite::Connection::open(&data.path).unwrap();
        conn.query_row(
            "SELECT count(*) FROM mails WHERE purpose = 'test' AND attempts > 0",
            [],
            |r| r.get(0),
        )
        .unwrap()
    };
    let asked = Instant::now();
    while attempted() == 0 {
        assert!(
            asked.elapsed() < Duration::from_secs(15),
            "the test mail is tried"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let log = served.log.clone();
    drop(served);
    let log = log.lock().unwrap().clone();
    seen.borrow_mut().push(("the server's log".into(), log));

    // The files: the data file with its WAL, the backup; bytes, not text.
    for name in ["kontor.db", "kontor.db-wal", "backup.db"] {
        let bytes = std::fs::read(data.path.with_file_name(name)).unwrap_or_default();
        seen.borrow_mut()
            .push((name.into(), String::from_utf8_lossy(&bytes).into_owned()));
    }
    let seen = seen.into_inner();
    let mut searched = 0;
    for (what, text) in &seen {
        for form in &forms {
            assert!(
                !text.contains(form.as_str()),
                "{what} shows the password ({form})"
            );
        }
        searched += text.len();
    }
    assert!(
        searched > 100_000,
        "the texts were searched ({searched} bytes)"
    );
    // The log was written and says what happened to the send, without the password.
    let log = &seen
        .iter()
        .find(|(w, _)| w == "the server's log")
        .unwrap()
        .1;
    assert!(log.contains("serving"), "{log}");
}
