//! The mail benchmark: 1,000 issued invoices (each with its Factur-X PDF)
//! sent through the mail outbox to a local SMTP server (Debian's aiosmtpd,
//! STARTTLS and AUTH, a certificate of a CA of its own, as the tests use
//! it), while a client reads the API; the messages per second, and the
//! API's latency before and while they go.
//!
//!   tests/smtp/install.sh && cargo run --release --example mail
//!
//! Two runs (`-- one` or `-- ten` runs one of them): the 1,000 of one company (its mail goes one message at a time:
//! one attempt per company), and 1,000 of ten companies (100 each, in
//! parallel). Each message is a new connection with STARTTLS and AUTH.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use kontor::books::audit::Actor;
use kontor::books::customers::{self, CustomerInput, NewCustomer};
use kontor::books::drafts::{self, DraftInput, DraftKind, DraftLineInput, NewDraft};
use kontor::books::invoices::issue::{self, IssueOptions};
use kontor::books::sending;
use kontor::http::server::{Config, Server};
use kontor::outbox::mail::settings::{Settings, SettingsInput};
use kontor::store::db::{Db, Tx};
use kontor::store::sealed::{SealingKey, Secret};
use kontor::store::tenant::{Environment, Tenant};

#[path = "support/client.rs"]
mod client;
#[allow(dead_code)]
#[path = "../tests/it/support/smtp_server.rs"]
mod smtp_server;

use client::Conn;
use smtp_server::{Security, SmtpServer};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const INVOICES: usize = 1_000;

fn seller() -> kontor::books::particulars::ParticularsInput {
    use kontor::rules::text::Patch::Value as V;
    kontor::books::particulars::ParticularsInput {
        legal_name: V("Bench GmbH".into()),
        street: V("Hafenstraße 1".into()),
        postal_code: V("20457".into()),
        city: V("Hamburg".into()),
        vat_id: V("DE136695976".into()),
        registration: V("HRB 12345, Amtsgericht Hamburg".into()),
        managing_directors: V("Erika Muster".into()),
        contact_name: V("Erika Muster".into()),
        contact_phone: V("+49 40 1234567".into()),
        contact_email: V("buchhaltung@bench.example".into()),
        electronic_address: V("9930:DE136695976".into()),
        iban: V("DE02120300000000202051".into()),
        bic: V("BYLADEM1001".into()),
        ..Default::default()
    }
}

/// A company with an API key, mail settings pointing at `smtp`, a customer
/// with an invoice address, and `n` issued invoices; returns the company's
/// tenant, its key and the invoices' numbers.
fn company(
    db: &Db,
    key: &SealingKey,
    smtp: &SmtpServer,
    i: usize,
    n: usize,
) -> (Tenant, String, Vec<String>) {
    let new = kontor::books::company::NewCompany::check(kontor::books::company::CompanyInput {
        name: Some(format!("Bench {i} GmbH")),
        country: Some("DE".into()),
        currency: Some("EUR".into()),
        plan: Some("ENTERPRISE".into()),
        particulars: seller(),
        ..Default::default()
    })
    .unwrap();
    let company = db
        .write(|tx| kontor::books::company::create(tx, new))
        .unwrap();
    let tenant = Tenant::new(&company.id, Environment::Production);
    let secret = db
        .write(|tx| {
            let k = kontor::access::keys::create(
                tx,
                &tenant,
                &Actor::System,
                kontor::access::keys::NewKey::all_scopes(
                    &company.id,
                    "bench",
                    Environment::Production,
                ),
            )?;
            Ok(k["secret"].as_str().unwrap_or_default().to_string())
        })
        .unwrap();
    let settings = Settings::check(
        SettingsInput {
            host: Some("localhost".into()),
            port: Some(smtp.port.to_string()),
            security: Some("starttls".into()),
            user: Some(smtp.user.clone()),
            password: Some(Secret::new(smtp.password.clone())),
            from: Some("rechnung@bench.example".into()),
            ca_pem: Some(std::fs::read_to_string(&smtp.cert).unwrap()),
            ..SettingsInput::default()
        },
        &loopback(),
    )
    .unwrap();
    db.write(|tx| sending::set_settings(tx, &tenant, &Actor::System, &settings, key))
        .unwrap();
    let customer = db
        .write(|tx| {
            let c = kontor::books::company::get(tx, &tenant.company_id)?;
            let new = NewCustomer::check(
                CustomerInput {
                    name: Some("Kunde GmbH".into()),
                    street: Some("Markt 1".into()),
                    postal_code: Some("28195".into()),
                    city: Some("Bremen".into()),
                    email: Some("rechnung@kunde.example".into()),
                    ..Default::default()
                },
                &c,
            )?;
            customers::create(tx, &tenant, &Actor::System, &new)
        })
        .unwrap();
    let mut numbers = Vec::with_capacity(n);
    for chunk in 0..n.div_ceil(100) {
        let more = db
            .write(|tx| {
                (0..100.min(n - chunk * 100))
                    .map(|_| {
                        let d = draft(tx, &tenant, &customer)?;
                        let id = issue::issue(
                            tx,
                            &tenant,
                            &Actor::System,
                            &d,
                            &IssueOptions::default(),
                        )?;
                        Ok(kontor::books::invoices::get_by_id(tx, &tenant, &id)?.number)
                    })
                    .collect::<kontor::error::Result<Vec<_>>>()
            })
            .unwrap();
        numbers.extend(more);
    }
    (tenant, secret, numbers)
}

fn draft(tx: &Tx, tenant: &Tenant, customer: &str) -> kontor::error::Result<String> {
    let company = kontor::books::company::get(tx, &tenant.company_id)?;
    let new = NewDraft::whole(
        DraftInput {
            customer_id: Some(customer.to_string()),
        },
        DraftKind::Invoice,
        vec![DraftLineInput {
            description: Some("Leistung".into()),
            quantity: Some("1".into()),
            unit_price_minor: Some(10_000),
            tax_rate_percent: Some("19".into()),
            ..DraftLineInput::default()
        }],
        &company,
    )?;
    drafts::create(tx, tenant, &Actor::System, &new)
}

/// `n` more API keys of `tenant`'s company.
fn keys(db: &Db, tenant: &Tenant, n: usize) -> Vec<String> {
    db.write(|tx| {
        (0..n)
            .map(|i| {
                let k = kontor::access::keys::create(
                    tx,
                    tenant,
                    &Actor::System,
                    kontor::access::keys::NewKey::all_scopes(
                        &tenant.company_id,
                        &format!("reader {i}"),
                        Environment::Production,
                    ),
                )?;
                Ok(k["secret"].as_str().unwrap_or_default().to_string())
            })
            .collect()
    })
    .unwrap()
}

/// Latencies of GET /v1/invoices?size=25, one request at a time every
/// 20 ms, while `go`. The keys are taken in turn: one key's budget (240
/// tokens, two a second) would answer 429 after a few seconds at this pace.
fn reader(
    addr: SocketAddr,
    keys: Vec<String>,
    go: Arc<AtomicBool>,
) -> std::thread::JoinHandle<Vec<Duration>> {
    std::thread::spawn(move || {
        let mut conn = Conn::open(addr);
        let mut latencies = Vec::new();
        for key in keys.iter().cycle() {
            if !go.load(Ordering::SeqCst) {
                break;
            }
            let auth = format!("Bearer {key}");
            let started = Instant::now();
            let (status, _) = conn.request(
                "GET",
                "/v1/invoices?size=25",
                &[("Authorization", &auth)],
                b"",
            );
            latencies.push(started.elapsed());
            assert_eq!(status, 200, "the API answered");
            std::thread::sleep(Duration::from_millis(20));
        }
        latencies
    })
}

fn quantiles(mut v: Vec<Duration>) -> (f64, f64, usize) {
    v.sort();
    let pick = |q: f64| v[((v.len() as f64 * q) as usize).min(v.len() - 1)].as_secs_f64() * 1000.0;
    (pick(0.5), pick(0.99), v.len())
}

fn sent(db: &Db) -> i64 {
    db.read(|c| {
        Ok(
            c.query_row("SELECT count(*) FROM mails WHERE state = 'sent'", [], |r| {
                r.get(0)
            })?,
        )
    })
    .unwrap()
}

/// The median and the 99th percentile of the SMTP attempts' own durations
/// (connect, STARTTLS, AUTH, the message, QUIT), in ms, as the outbox kept them.
fn attempt_ms(db: &Db) -> (i64, i64) {
    let mut all: Vec<i64> = db
        .read(|c| {
            let mut q = c.prepare("SELECT duration_ms FROM mail_attempts ORDER BY duration_ms")?;
            let rows = q.query_map([], |r| r.get(0))?;
            Ok(rows.collect::<rusqlite::Result<Vec<i64>>>()?)
        })
        .unwrap();
    all.sort_unstable();
    let pick = |q: f64| all[((all.len() as f64 * q) as usize).min(all.len() - 1)];
    (pick(0.5), pick(0.99))
}

fn run(companies: usize) {
    let smtp = SmtpServer::start(Security::StartTls, false);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mail.db");
    let db = Db::open(&path, 4).unwrap();
    let key = SealingKey::beside(&path).unwrap();
    let started = Instant::now();
    let made: Vec<(Tenant, String, Vec<String>)> = (0..companies)
        .map(|i| company(&db, &key, &smtp, i, INVOICES / companies))
        .collect();
    println!(
        "  {INVOICES} invoices of {companies} compan{} issued with their PDFs in {:.1} s",
        if companies == 1 { "y" } else { "ies" },
        started.elapsed().as_secs_f64()
    );
    let readers = keys(&db, &made[0].0, 40);
    drop(db);
    let mut config = Config::new(&path, "127.0.0.1:0".parse().unwrap());
    config.log_requests = false;
    config.vat_register = kontor::outbox::vat_register::Service::Off;
    config.mail_allow = loopback();
    let server = Server::start(config).unwrap();
    let db = Db::open(&path, 2).unwrap();
    // The API's latency with no mail going.
    let go = Arc::new(AtomicBool::new(true));
    let quiet = reader(server.addr, readers.clone(), go.clone());
    std::thread::sleep(Duration::from_secs(3));
    go.store(false, Ordering::SeqCst);
    let (q50, q99, qn) = quantiles(quiet.join().unwrap());
    // Every invoice sent, as `invoice send` writes them, then the worker sends.
    let started = Instant::now();
    for (tenant, _, numbers) in &made {
        db.write(|tx| {
            for n in numbers {
                sending::send_invoice(tx, tenant, &Actor::System, n, None)?;
            }
            Ok(())
        })
        .unwrap();
    }
    let written = started.elapsed();
    let go = Arc::new(AtomicBool::new(true));
    let busy = reader(server.addr, readers.clone(), go.clone());
    while sent(&db) < INVOICES as i64 {
        assert!(
            started.elapsed() < Duration::from_secs(600),
            "the mail went within 10 minutes"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let took = started.elapsed();
    go.store(false, Ordering::SeqCst);
    let (b50, b99, bn) = quantiles(busy.join().unwrap());
    assert_eq!(smtp.taken().len(), INVOICES);
    println!(
        "  {INVOICES} sends written to the outbox in {:.2} s; all taken by the SMTP server after {:.1} s",
        written.as_secs_f64(),
        took.as_secs_f64()
    );
    println!(
        "  => {:.0} messages per second",
        INVOICES as f64 / took.as_secs_f64()
    );
    let (a50, a99) = attempt_ms(&db);
    println!(
        "  one SMTP attempt (connect, STARTTLS, AUTH, message, QUIT): p50 {a50} ms, p99 {a99} ms"
    );
    println!(
        "  GET /v1/invoices?size=25 before:  p50 {q50:.2} ms, p99 {q99:.2} ms ({qn} requests)"
    );
    println!(
        "  GET /v1/invoices?size=25 sending: p50 {b50:.2} ms, p99 {b99:.2} ms ({bn} requests)"
    );
    server.stop();
}

fn main() {
    println!(
        "(mail) {INVOICES} invoices sent to a local aiosmtpd (STARTTLS, AUTH) through the outbox"
    );
    let only = std::env::args().nth(1);
    if only.as_deref() != Some("ten") {
        println!("one company:");
        run(1);
    }
    if only.as_deref() != Some("one") {
        println!("ten companies:");
        run(10);
    }
}

/// The bench's SMTP server listens on loopback, which it allows.
fn loopback() -> kontor::outbox::mail::reach::MailAllow {
    kontor::outbox::mail::reach::MailAllow::parse(&["127.0.0.1", "::1"]).unwrap()
}
