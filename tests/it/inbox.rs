//! The mailbox: `serve --inbox` polls a real IMAP server (dovecot, started
//! by the test) holding three messages: one e-invoice, one plain letter,
//! one with two e-invoices. After a poll three bills are received, the
//! letter is in `kontor/refused`, the others in `kontor/done`; the next
//! polls change nothing.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;

use crate::support::dovecot::Dovecot;
use crate::support::DataFile;

fn fixture(path: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/einvoices-in")
            .join(path),
    )
    .unwrap()
}

/// A mail with `attachments` (name, media type, bytes).
fn mail(id: &str, subject: &str, body: &str, attachments: &[(&str, &str, Vec<u8>)]) -> Vec<u8> {
    let mut m = format!(
        "From: Rechnungen <rechnung@lieferant.example>\r\nTo: bills@kontor.example\r\nSubject: {subject}\r\nMessage-ID: <{id}>\r\nDate: Mon, 2 Mar 2026 10:00:00 +0100\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b0\"\r\n\r\n--b0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
    );
    for (name, kind, bytes) in attachments {
        let encoded = base64::engine::general_purpose::STANDARD.encode(bytes);
        m.push_str(&format!(
            "--b0\r\nContent-Type: {kind}; name=\"{name}\"\r\nContent-Disposition: attachment; filename=\"{name}\"\r\nContent-Transfer-Encoding: base64\r\n\r\n"
        ));
        for chunk in encoded.as_bytes().chunks(76) {
            m.push_str(std::str::from_utf8(chunk).unwrap());
            m.push_str("\r\n");
        }
    }
    m.push_str("--b0--\r\n");
    m.into_bytes()
}

struct Serving(Child);

impl Drop for Serving {
    fn drop(&mut self) {
        unsafe {
            libc::kill(self.0.id() as i32, libc::SIGTERM);
        }
        let _ = self.0.wait();
    }
}

fn total(data: &DataFile, company: &str) -> i64 {
    data.ok(&["purchase", "list", "--company", company])["total"]
        .as_i64()
        .unwrap()
}

#[test]
fn the_mailbox_is_polled_into_bills_and_each_message_filed_once() {
    let imap = Dovecot::start();
    imap.deliver(
        "INBOX",
        &mail(
            "one@lieferant.example",
            "Rechnung 12115118",
            "Anbei die Rechnung.",
            &[(
                "rechnung.xml",
                "application/xml",
                fixture("cen/ubl/examples/ubl-tc434-example1.xml"),
            )],
        ),
    );
    imap.deliver(
        "INBOX",
        &mail(
            "letter@lieferant.example",
            "Grüße",
            "Nur ein Brief, keine Rechnung.",
            &[],
        ),
    );
    imap.deliver(
        "INBOX",
        &mail(
            "two@lieferant.example",
            "Zwei Rechnungen",
            "Anbei zwei Rechnungen.",
            &[
                (
                    "TOSL108.xml",
                    "text/xml",
                    fixture("cen/cii/examples/CII_example3.xml"),
                ),
                (
                    "181301674.pdf",
                    "application/pdf",
                    fixture("zugferd-corpus/XML-Rechnung/FX/EN16931_Elektron.pdf"),
                ),
            ],
        ),
    );
    let data = DataFile::new();
    let company = data.ok(&[
        "company",
        "create",
        "--name",
        "Empfänger GmbH",
        "--country",
        "DE",
        "--currency",
        "EUR",
    ])["id"]
        .as_str()
        .unwrap()
        .to_string();
    // The password never on the command line.
    let server = Serving(
        Command::new(env!("CARGO_BIN_EXE_kontor"))
            .args([
                "--data",
                data.path.to_str().unwrap(),
                "serve",
                "--listen",
                "127.0.0.1:0",
            ])
            .args([
                "--inbox",
                &imap.url("INBOX"),
                "--inbox-company",
                &company,
                "--inbox-interval",
                "1",
            ])
            .env("KONTOR_INBOX_PASSWORD", &imap.password)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    while total(&data, &company) < 3 {
        assert!(Instant::now() < deadline, "no three bills: {}", imap.log());
        std::thread::sleep(Duration::from_millis(200));
    }
    let filed = || {
        (
            imap.count("INBOX"),
            imap.count("kontor/done"),
            imap.count("kontor/refused"),
        )
    };
    let deadline = Instant::now() + Duration::from_secs(10);
    while filed() != (0, 2, 1) {
        assert!(Instant::now() < deadline, "filed {:?}", filed());
        std::thread::sleep(Duration::from_millis(100));
    }
    let bills = data.ok(&["purchase", "list", "--company", &company]);
    let mut numbers: Vec<&str> = bills["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["number"].as_str().unwrap())
        .collect();
    numbers.sort();
    assert_eq!(numbers, ["12115118", "181301674", "TOSL108"]);
    assert!(bills["data"]
        .as_array()
        .unwrap()
        .iter()
        .all(|b| b["channel"] == "mailbox"));
    // The next polls change nothing: the poller's own step, twice, beside
    // the running server (on the same data file and mailbox).
    let db = kontor::store::db::Db::open(&data.path, 1).unwrap();
    let mailbox = kontor::inbox::poll::Mailbox {
        address: kontor::inbox::address::MailboxAddress::parse(&imap.url("INBOX")).unwrap(),
        password: imap.password.clone(),
        ca_file: None,
        company: company.clone(),
        environment: kontor::store::tenant::Environment::Production,
        interval: Duration::from_secs(1),
    };
    for _ in 0..2 {
        let polled = kontor::inbox::poll::poll(&db, &mailbox).unwrap();
        assert_eq!(
            polled,
            kontor::inbox::poll::Polled::default(),
            "{}",
            imap.log()
        );
    }
    assert_eq!(total(&data, &company), 3);
    assert_eq!(filed(), (0, 2, 1));
    drop(server);
}

#[test]
fn serve_refuses_a_mailbox_without_password_or_over_plain_imap_to_another_host() {
    let data = DataFile::new();
    let (ok, _, stderr) = data.console(&[
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--inbox",
        "imap://kontor@mail.example.com/INBOX",
        "--inbox-company",
        "org_x",
    ]);
    assert!(!ok && stderr.contains("imaps://"), "{stderr}");
    let out = Command::new(env!("CARGO_BIN_EXE_kontor"))
        .args([
            "--data",
            data.path.to_str().unwrap(),
            "serve",
            "--listen",
            "127.0.0.1:0",
        ])
        .args([
            "--inbox",
            "imaps://kontor@mail.example.com/INBOX",
            "--inbox-company",
            "org_x",
        ])
        .env_remove("KONTOR_INBOX_PASSWORD")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && stderr.contains("KONTOR_INBOX_PASSWORD"),
        "{stderr}"
    );
}
