//! Sending invoices by mail, against a real SMTP server (Debian's aiosmtpd
//! on loopback with STARTTLS, AUTH and a self-signed certificate): the
//! message's structure, its attachment byte for byte, the texts in German
//! and English, the archive copy; a 4xx reply retried, a 5xx reply failed;
//! a hanging server holding back only its own company.

use std::time::{Duration, Instant};

use jiff::{SignedDuration, Timestamp};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::support::smtp_server::{Security, SmtpServer};
use crate::support::{Client, DataFile, World};

/// The mail settings of `company` pointing at `smtp`, with AUTH and the
/// server's certificate trusted; `password` (default the right one).
pub fn configure(
    data: &DataFile,
    company: &str,
    smtp: &SmtpServer,
    password: Option<&str>,
) -> Value {
    let dir = data.path.parent().unwrap();
    let file = dir.join(format!("pw-{company}"));
    std::fs::write(&file, format!("{}\n", password.unwrap_or(&smtp.password))).unwrap();
    let port = smtp.port.to_string();
    data.ok(&[
        "company",
        "mail",
        "--company",
        company,
        "--host",
        "localhost",
        "--mail-allow",
        "127.0.0.1",
        "--port",
        &port,
        "--security",
        "starttls",
        "--from",
        "rechnung@nordlicht.example",
        "--from-name",
        "Nordlicht Rechnungen",
        "--user",
        &smtp.user,
        "--password-file",
        file.to_str().unwrap(),
        "--reply-to",
        "buchhaltung@nordlicht.example",
        "--bcc",
        "archiv@nordlicht.example",
        "--ca-file",
        smtp.cert.to_str().unwrap(),
    ])
}

/// An issued invoice of 1,190.00 EUR for a new customer of `company`
/// whose invoice address is `to` and language `lang`; returns its number.
pub fn invoice_for(w: &World, c: &Client, key: &str, to: &str, lang: &str) -> String {
    let customer = c.customer(key, &format!("Kunde {to}"));
    let id = customer["id"].as_str().unwrap();
    w.data.ok(&[
        "customer",
        "set",
        id,
        "--invoice-email",
        to,
        "--language",
        lang,
    ]);
    let draft = c.draft(key, &customer);
    w.data.line(&draft, 100_000, "19", false);
    let invoice = w.data.ok(&["draft", "issue", &draft]);
    invoice["number"].as_str().unwrap().to_string()
}

fn sends(data: &DataFile, company: &str, number: &str) -> Vec<Value> {
    data.ok(&["invoice", "sends", "--company", company, number])
        .as_array()
        .unwrap()
        .clone()
}

fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

#[test]
fn an_invoice_reaches_the_server_with_its_document_unchanged_in_german_and_english() {
    let smtp = SmtpServer::start(Security::StartTls, false);
    let w = World::new();
    let c = w.client();
    let settings = configure(&w.data, &w.company, &smtp, None);
    assert_eq!(settings["passwordSet"], true);
    assert_eq!(settings["security"], "starttls");
    assert!(settings.get("password").is_none());
    let de = invoice_for(&w, &c, &w.live, "kunde@example.org", "de");
    let en = invoice_for(&w, &c, &w.live, "customer@example.com", "en");

    let sent = w
        .data
        .ok(&["invoice", "send", "--company", &w.company, &de]);
    assert_eq!(sent["state"], "queued");
    assert_eq!(sent["to"], "kunde@example.org");
    assert!(sent["id"].as_str().unwrap().starts_with("mal_"));
    w.data
        .ok(&["invoice", "send", "--company", &w.company, &en]);
    let made = w.server.send_due_mail(Timestamp::now()).unwrap();
    assert_eq!(made, 2, "{:?}", sends(&w.data, &w.company, &de));

    let taken = smtp.taken();
    assert_eq!(taken.len(), 2);
    // German: subject, body, one attachment, the stored bytes, the archive copy.
    let m = &taken[0].read;
    assert_eq!(taken[0].mail_from, "rechnung@nordlicht.example");
    assert_eq!(
        taken[0].rcpt_tos,
        vec!["kunde@example.org", "archiv@nordlicht.example"]
    );
    assert_eq!(m["subject"], format!("Rechnung {de} von Test Handel GmbH"));
    assert_eq!(m["contentType"], "multipart/mixed");
    assert!(
        m["headers"].get("bcc").is_none(),
        "the archive copy is blind"
    );
    assert!(
        !taken[0].text().contains("archiv@"),
        "no header names the archive copy"
    );
    assert_eq!(m["headers"]["reply-to"], "buchhaltung@nordlicht.example");
    assert!(m["headers"]["from"]
        .as_str()
        .unwrap()
        .contains("Nordlicht Rechnungen"));
    let parts = m["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 2, "{parts:?}");
    let body = parts[0]["text"].as_str().unwrap();
    assert!(
        body.contains(&format!("unsere Rechnung {de} über 1.190,00")),
        "{body}"
    );
    assert!(body.contains(&format!("Verwendungszweck {de}")), "{body}");
    let attachment = &parts[1];
    assert_eq!(attachment["contentType"], "application/pdf");
    assert_eq!(attachment["disposition"], "attachment");
    assert_eq!(attachment["fileName"], format!("{de}.pdf"));
    let stored = w.data.ok(&[
        "invoice",
        "document",
        "--company",
        &w.company,
        &de,
        "--format",
        "facturx",
        "--out",
        w.data.path.with_file_name("de.pdf").to_str().unwrap(),
    ]);
    assert_eq!(attachment["sha256"], stored["sha256"]);
    let on_disk = std::fs::read(w.data.path.with_file_name("de.pdf")).unwrap();
    assert_eq!(attachment["sha256"], sha256_hex(&on_disk));
    // English.
    let m = &taken[1].read;
    assert_eq!(m["subject"], format!("Invoice {en} from Test Handel GmbH"));
    let body = m["parts"][0]["text"].as_str().unwrap();
    assert!(
        body.contains(&format!("our invoice {en} for ")) && body.contains("1,190.00"),
        "{body}"
    );

    // The sends: state, attempts, the server's reply, the Message-ID.
    let s = sends(&w.data, &w.company, &de);
    assert_eq!(s.len(), 1);
    assert_eq!(s[0]["state"], "sent");
    assert_eq!(s[0]["attempts"], 1);
    assert_eq!(s[0]["smtpReply"], "250 2.0.0 Ok: queued as TEST1");
    assert_eq!(
        taken[0].read["headers"]["message-id"],
        s[0]["messageId"].as_str().unwrap()
    );
    // Sending again is a new send.
    w.data.ok(&[
        "invoice",
        "send",
        "--company",
        &w.company,
        &de,
        "--to",
        "zweite@example.org",
    ]);
    w.server.send_due_mail(Timestamp::now()).unwrap();
    let s = sends(&w.data, &w.company, &de);
    assert_eq!(s.len(), 2);
    assert_eq!(
        (s[1]["to"].as_str(), s[1]["state"].as_str()),
        (Some("zweite@example.org"), Some("sent"))
    );
}

#[test]
fn an_xml_customer_gets_its_xml_unchanged_with_the_pdf_beside() {
    let smtp = SmtpServer::start(Security::StartTls, false);
    let w = World::new();
    let c = w.client();
    configure(&w.data, &w.company, &smtp, None);
    let customer = c.customer(&w.live, "Behörde");
    let id = customer["id"].as_str().unwrap();
    w.data.ok(&[
        "customer",
        "set",
        id,
        "--einvoice",
        "xrechnung",
        "--buyer-reference",
        "04011000-12345-34",
        "--invoice-email",
        "eingang@behoerde.example",
        "--electronic-address",
        "EM:eingang@behoerde.example",
    ]);
    let draft = c.draft(&w.live, &customer);
    w.data.line(&draft, 50_000, "19", false);
    let number = w.data.ok(&["draft", "issue", &draft])["number"]
        .as_str()
        .unwrap()
        .to_string();
    w.data
        .ok(&["invoice", "send", "--company", &w.company, &number]);
    w.server.send_due_mail(Timestamp::now()).unwrap();
    let taken = smtp.taken();
    let parts = taken[0].read["parts"].as_array().unwrap().clone();
    let names: Vec<&str> = parts
        .iter()
        .filter_map(|p| p["fileName"].as_str())
        .collect();
    assert_eq!(
        names,
        vec![format!("{number}.xrechnung.xml"), format!("{number}.pdf")]
    );
    assert_eq!(parts[1]["contentType"], "application/xml");
    let out = w.data.path.with_file_name("x.xml");
    let stored = w.data.ok(&[
        "invoice",
        "document",
        "--company",
        &w.company,
        &number,
        "--format",
        "xrechnung",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(parts[1]["sha256"], stored["sha256"]);
}

#[test]
fn a_4xx_reply_is_retried_and_a_5xx_reply_fails_the_send() {
    let smtp = SmtpServer::start(Security::StartTls, false);
    let w = World::new();
    let c = w.client();
    configure(&w.data, &w.company, &smtp, None);
    let busy = invoice_for(&w, &c, &w.live, "busy-once@kunde.example", "de");
    let gone = invoice_for(&w, &c, &w.live, "reject@kunde.example", "de");
    w.data
        .ok(&["invoice", "send", "--company", &w.company, &busy]);
    w.data
        .ok(&["invoice", "send", "--company", &w.company, &gone]);
    let now = Timestamp::now();
    w.server.send_due_mail(now).unwrap();
    let s = &sends(&w.data, &w.company, &busy)[0];
    assert_eq!(
        (s["state"].as_str(), s["attempts"].as_i64()),
        (Some("queued"), Some(1))
    );
    assert_eq!(s["smtpReply"], "451");
    assert!(s["lastError"].as_str().unwrap().contains("busy"), "{s}");
    // The failed one waits for the busy one of its company; then it fails at once.
    w.server.send_due_mail(now).unwrap();
    assert_eq!(sends(&w.data, &w.company, &gone)[0]["state"], "queued");
    // A minute later the retry goes through; the 550 fails for good.
    let later = now + SignedDuration::from_secs(61);
    w.server.send_due_mail(later).unwrap();
    let s = &sends(&w.data, &w.company, &busy)[0];
    assert_eq!(
        (s["state"].as_str(), s["attempts"].as_i64()),
        (Some("sent"), Some(2))
    );
    let f = &sends(&w.data, &w.company, &gone)[0];
    assert_eq!(
        (f["state"].as_str(), f["attempts"].as_i64()),
        (Some("failed"), Some(1))
    );
    assert_eq!(f["smtpReply"], "550");
    assert!(
        f["lastError"].as_str().unwrap().contains("no such mailbox"),
        "{f}"
    );
    // Nothing more is tried.
    assert_eq!(
        w.server
            .send_due_mail(later + SignedDuration::from_secs(86_400))
            .unwrap(),
        0
    );
    assert_eq!(smtp.taken().len(), 1);
}

#[test]
fn a_hanging_server_holds_back_only_its_own_companys_mail() {
    let hanging = SmtpServer::start(Security::StartTls, true);
    let good = SmtpServer::start(Security::StartTls, false);
    let w = World::configured(|c| {
        c.mail = true;
        c.mail_time_limit = Duration::from_secs(8);
    });
    let c = w.client();
    // A second company with its own key.
    let other = w.data.company("Zweite GmbH", "ENTERPRISE");
    let other_key = w.data.key(&other, "production", "all");
    configure(&w.data, &w.company, &hanging, None);
    configure(&w.data, &other, &good, None);
    let stuck = invoice_for(&w, &c, &w.live, "a@kunde.example", "de");
    let fine = invoice_for(&w, &c, &other_key, "b@kunde.example", "de");
    w.data
        .ok(&["invoice", "send", "--company", &w.company, &stuck]);
    w.data.ok(&["invoice", "send", "--company", &other, &fine]);
    // The running worker delivers the other company's mail within seconds
    // (the hanging attempt's limit is 8 s), while the first company's
    // attempt still waits for a greeting: it has not ended (below).
    let taken = good.wait_for(1, Duration::from_secs(6));
    assert_eq!(
        taken.len(),
        1,
        "the other company's mail went while the first hung"
    );
    // The worker records the attempt as soon as the server answered.
    let recorded = Instant::now();
    while sends(&w.data, &other, &fine)[0]["state"] != "sent" {
        assert!(
            recorded.elapsed() < Duration::from_secs(3),
            "the send is recorded"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let s = &sends(&w.data, &w.company, &stuck)[0];
    assert_eq!(
        (s["state"].as_str(), s["attempts"].as_i64()),
        (Some("queued"), Some(0)),
        "{s}"
    );
}
