//! The benchmark: kontor's REST pipeline against baselines measured in the same
//! run with the same keep-alive client.
//!
//!   cargo run --release --example bench
//!
//! (a) GET /v1/customers?size=25 over a bare hyper server answering the same
//!     bytes (goal ≥ 0.30; many keys, so the rate budget does not cap it);
//! (b) 429 refusals of one exhausted key over the same bare server (goal ≥ 0.60);
//! (c) POST /v1/customers with fresh Idempotency-Keys over raw rusqlite
//!     transactions doing the same insert at the same pragmas (goal ≥ 0.50);
//! with p50/p99 latency of each and the process's peak RSS. The request log is
//! switched off here, as a deployment writing it to a file barely notices it.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use http_body_util::Full;
use hyper::body::Bytes;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::Response;
use hyper_util::rt::TokioIo;
use kontor::books::audit::Actor;
use kontor::books::customers::{self, CustomerInput, NewCustomer};
use kontor::books::drafts::{self, DraftInput, DraftKind, DraftLineInput, NewDraft};
use kontor::books::invoices;
use kontor::books::invoices::issue::{self, IssueOptions};
use kontor::books::settlement::{self, NewPayment, PaymentInput};
use kontor::http::server::{Config, Server};
use kontor::outbox::endpoints::{self, EndpointInput, NewEndpoint};
use kontor::store::db::Tx;
use kontor::store::tenant::{Environment, Tenant};
use serde_json::Value;

#[path = "support/client.rs"]
mod client;
#[path = "support/process.rs"]
#[allow(dead_code)]
mod process;
use client::Conn;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const THREADS: usize = 8;
const PHASE: Duration = Duration::from_secs(3);
const ROUNDS: u32 = 3;

struct Figures {
    per_second: f64,
    p50: Duration,
    p99: Duration,
    count: usize,
}

/// The latencies of one slice of time, and how long the slice took.
struct Slice {
    latencies: Vec<Duration>,
    elapsed: Duration,
}

fn figures(slices: Vec<Slice>) -> Figures {
    let elapsed: Duration = slices.iter().map(|s| s.elapsed).sum();
    let mut latencies: Vec<Duration> = slices.into_iter().flat_map(|s| s.latencies).collect();
    latencies.sort();
    let pick = |q: f64| latencies[((latencies.len() as f64 * q) as usize).min(latencies.len() - 1)];
    Figures {
        per_second: latencies.len() as f64 / elapsed.as_secs_f64(),
        p50: pick(0.50),
        p99: pick(0.99),
        count: latencies.len(),
    }
}

/// Runs `THREADS` connections for `length`, each calling `one(conn, i)` in a loop.
fn slice(
    addr: SocketAddr,
    length: Duration,
    counter: &AtomicUsize,
    one: &(impl Fn(&mut Conn, usize) + Sync),
) -> Slice {
    let started = Instant::now();
    let latencies = std::thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|_| {
                s.spawn(|| {
                    let mut conn = Conn::open(addr);
                    let mut lat = Vec::new();
                    while started.elapsed() < length {
                        let i = counter.fetch_add(1, Ordering::Relaxed);
                        let t = Instant::now();
                        one(&mut conn, i);
                        lat.push(t.elapsed());
                    }
                    lat
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    Slice {
        latencies,
        elapsed: started.elapsed(),
    }
}

/// Measures a baseline and kontor in alternating one-second slices, `ROUNDS`
/// of each, so a passing disturbance of the machine hits both alike.
fn compare(
    baseline: impl Fn(Duration) -> Slice,
    kontor: impl Fn(Duration) -> Slice,
) -> (Figures, Figures) {
    let (mut base, mut ours) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        base.push(baseline(PHASE / ROUNDS));
        ours.push(kontor(PHASE / ROUNDS));
    }
    (figures(base), figures(ours))
}

/// A bare hyper server on the same runtime shape, answering `status` and `body` to everything.
fn bare_server(status: u16, body: Vec<u8>) -> SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            let body = Bytes::from(body);
            loop {
                let (stream, _) = listener.accept().await.unwrap();
                stream.set_nodelay(true).unwrap();
                let body = body.clone();
                tokio::spawn(async move {
                    let svc = service_fn(move |_req| {
                        let body = body.clone();
                        async move {
                            let mut r = Response::new(Full::new(body));
                            *r.status_mut() = hyper::StatusCode::from_u16(status).unwrap();
                            r.headers_mut()
                                .insert("content-type", "application/json".parse().unwrap());
                            Ok::<_, Infallible>(r)
                        }
                    });
                    let _ = http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), svc)
                        .await;
                });
            }
        });
    });
    rx.recv().unwrap()
}

/// The bench's customer, checked as the API checks one.
fn bench_customer(tx: &Tx, tenant: &Tenant) -> kontor::error::Result<NewCustomer> {
    let company = kontor::books::company::get(tx, &tenant.company_id)?;
    let body: Value = serde_json::from_str(CUSTOMER_BODY).unwrap();
    let text = |name: &str| body[name].as_str().map(str::to_string);
    NewCustomer::check(
        CustomerInput {
            name: text("name"),
            street: text("street"),
            postal_code: text("postalCode"),
            city: text("city"),
            ..Default::default()
        },
        &company,
    )
}

/// A one-line draft for `customer` at 19 %; returns its id.
fn draft(
    tx: &Tx,
    tenant: &Tenant,
    customer: &str,
    quantity: &str,
    price: i64,
) -> kontor::error::Result<String> {
    let company = kontor::books::company::get(tx, &tenant.company_id)?;
    let new = NewDraft::whole(
        DraftInput {
            customer_id: Some(customer.to_string()),
        },
        DraftKind::Invoice,
        vec![DraftLineInput {
            description: Some("Leistung".into()),
            quantity: Some(quantity.into()),
            unit_price_minor: Some(price),
            tax_rate_percent: Some("19".into()),
            ..DraftLineInput::default()
        }],
        &company,
    )?;
    drafts::create(tx, tenant, &Actor::System, &new)
}

/// An endpoint for every event at `url` (loopback allowed).
fn endpoint(url: String) -> kontor::error::Result<NewEndpoint> {
    NewEndpoint::check(
        EndpointInput {
            url: Some(url),
            events: Some(vec!["*".into()]),
            description: None,
        },
        kontor::outbox::address::Policy {
            allow_loopback: true,
        },
    )
}

/// The seller's particulars an invoice needs, as the demo's company has them.
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

fn console(data: &std::path::Path, args: &[&str]) -> Value {
    // The console's own functions, called the way `kontor` calls them.
    let db = kontor::store::db::Db::open(data, 1).unwrap();
    match args {
        ["company"] => {
            let new =
                kontor::books::company::NewCompany::check(kontor::books::company::CompanyInput {
                    name: Some("Bench GmbH".into()),
                    country: Some("DE".into()),
                    currency: Some("EUR".into()),
                    plan: Some("ENTERPRISE".into()),
                    particulars: seller(),
                    ..Default::default()
                })
                .unwrap();
            db.write(|tx| {
                kontor::books::company::create(tx, new)
                    .map(|c| serde_json::to_value(c.view()).unwrap())
            })
            .unwrap()
        }
        ["keys", company, n] => db
            .write(|tx| {
                let n: usize = n.parse().unwrap();
                let keys = (0..n)
                    .map(|i| {
                        kontor::access::keys::create(
                            tx,
                            &Tenant::new(*company, Environment::Production),
                            &Actor::System,
                            kontor::access::keys::NewKey::all_scopes(
                                company,
                                &format!("bench {i}"),
                                Environment::Production,
                            ),
                        )
                        .map(|k| k["secret"].clone())
                    })
                    .collect::<kontor::error::Result<Vec<_>>>()?;
                Ok(Value::Array(keys))
            })
            .unwrap(),
        _ => unreachable!(),
    }
}

fn peak_rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

fn show(name: &str, f: &Figures) {
    println!(
        "  {name:<44} {:>9.0} req/s   p50 {:>7.3} ms   p99 {:>7.3} ms",
        f.per_second,
        f.p50.as_secs_f64() * 1000.0,
        f.p99.as_secs_f64() * 1000.0
    );
}

fn verdict(name: &str, ratio: f64, goal: f64) {
    println!(
        "  => {name}: {ratio:.2} (goal >= {goal:.2}) {}",
        if ratio >= goal { "met" } else { "NOT MET" }
    );
}

const CUSTOMER_BODY: &str = r#"{"name":"Bench Kunde GmbH","street":"Hauptstraße 1","postalCode":"10115","city":"Berlin","email":"a@b.de"}"#;

/// Raw rusqlite: the same customer insert in its own BEGIN IMMEDIATE
/// transaction, same pragmas, one after another for `length`.
fn raw_inserts(conn: &mut rusqlite::Connection, next: &AtomicUsize, length: Duration) -> Slice {
    let started = Instant::now();
    let mut latencies = Vec::new();
    while started.elapsed() < length {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let t = Instant::now();
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .unwrap();
        tx.prepare_cached(
            "INSERT INTO customers (id, company_id, environment, number, name, email, street, postal_code, city,
                 country, is_customer, is_supplier, created_at)
             VALUES (?1, 'org_raw', 'PRODUCTION', ?2, 'Bench Kunde GmbH', 'a@b.de', 'Hauptstraße 1', '10115', 'Berlin',
                 'DE', 1, 0, '2026-01-01T00:00:00.000Z')",
        )
        .unwrap()
        .execute(rusqlite::params![format!("cus_{i}"), format!("K{}", 10001 + i)])
        .unwrap();
        tx.commit().unwrap();
        latencies.push(t.elapsed());
    }
    Slice {
        latencies,
        elapsed: started.elapsed(),
    }
}

fn raw_database(dir: &std::path::Path) -> rusqlite::Connection {
    let conn = rusqlite::Connection::open(dir.join("raw.db")).unwrap();
    conn.execute_batch(
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;",
    )
    .unwrap();
    conn.execute_batch(kontor::store::db::SCHEMA).unwrap();
    conn.execute(
        "INSERT INTO companies (id, name, country, currency, plan, timezone, workflow, created_at)
         VALUES ('org_raw', 'Raw', 'DE', 'EUR', 'ENTERPRISE', 'UTC', 'NEU', '2026-01-01T00:00:00.000Z')",
        [],
    )
    .unwrap();
    conn
}

/// Issues `n` invoices to one customer, issue dates spread over the last two
/// years (oldest first), and pays all but every tenth ten days after issue.
/// Batches of acts share a transaction, so a million take minutes, not hours.
fn fill(db: &kontor::store::db::Db, tenant: &Tenant, customer: &str, n: usize) {
    let today = kontor::books::company::get(&db.connection().unwrap(), &tenant.company_id)
        .unwrap()
        .today();
    let mut done = 0;
    while done < n {
        let batch = (n - done).min(5_000);
        db.write(|tx| {
            for i in done..done + batch {
                let back = (730 * (n - 1 - i) / n.max(1)) as i64;
                let on = today.checked_sub(jiff::Span::new().days(back)).unwrap();
                let draft = draft(tx, tenant, customer, "1", 10_000 + (i % 500) as i64)?;
                // The bulk path: the act without its documents.
                let id = issue::issue(
                    tx,
                    tenant,
                    &Actor::System,
                    &draft,
                    &IssueOptions::bulk_without_documents(on),
                )?;
                if i % 10 != 0 {
                    let invoice = invoices::get_by_id(tx, tenant, &id)?;
                    let paid_on = on
                        .checked_add(jiff::Span::new().days(10))
                        .unwrap()
                        .min(today);
                    let payment = NewPayment::check(PaymentInput {
                        amount: Some(invoice.gross.minor),
                        on: Some(paid_on.to_string()),
                        ..Default::default()
                    })?;
                    settlement::pay_invoice(tx, tenant, &Actor::System, &invoice.number, &payment)?;
                }
            }
            Ok(())
        })
        .unwrap();
        done += batch;
        if done % 100_000 == 0 {
            eprintln!("  … {done} invoices issued");
        }
    }
}

/// Runs `count` requests one after another on one keep-alive connection.
fn sequential(addr: SocketAddr, count: usize, one: impl Fn(&mut Conn, usize)) -> Figures {
    let mut conn = Conn::open(addr);
    let started = Instant::now();
    let latencies = (0..count)
        .map(|i| {
            let t = Instant::now();
            one(&mut conn, i);
            t.elapsed()
        })
        .collect();
    figures(vec![Slice {
        latencies,
        elapsed: started.elapsed(),
    }])
}

/// The books section: the first page of GET /v1/invoices and the outstanding
/// report for a company with `scale` invoices (a tenth open) against one with
/// 1,000, in one data file; and the rate of the `draft issue` act.
fn books(dir: &std::path::Path, scale: usize) {
    println!();
    println!("(books) {scale} issued invoices, a tenth open, against 1,000 in the same data file");
    let path = dir.join("books.db");
    let mut tenants = Vec::new();
    {
        let db = kontor::store::db::Db::open(&path, 2).unwrap();
        for (n, name) in [(scale, "big"), (1_000, "small")] {
            let company = console(&path, &["company"])["id"]
                .as_str()
                .unwrap()
                .to_string();
            let keys: Vec<String> = console(&path, &["keys", &company, "40"])
                .as_array()
                .unwrap()
                .iter()
                .map(|k| format!("Bearer {}", k.as_str().unwrap()))
                .collect();
            let tenant = Tenant::new(&company, Environment::Production);
            let customer = db
                .write(|tx| {
                    customers::create(tx, &tenant, &Actor::System, &bench_customer(tx, &tenant)?)
                })
                .unwrap();
            let started = Instant::now();
            fill(&db, &tenant, &customer, n);
            println!(
                "  filled the {name} company with {n} invoices in {:.1} s",
                started.elapsed().as_secs_f64()
            );
            tenants.push((tenant, customer, keys));
        }
    }
    let mut config = Config::new(&path, "127.0.0.1:0".parse().unwrap());
    config.log_requests = false;
    let server = Server::start(config).unwrap();
    let addr = server.addr;
    for (path, what) in [
        ("/v1/invoices?size=25", "GET /v1/invoices, first page"),
        ("/v1/reports/outstanding", "GET /v1/reports/outstanding"),
    ] {
        let mut results = Vec::new();
        for (tenant, _, keys) in &tenants {
            let _ = tenant;
            let f = sequential(addr, 2_000, |c, i| {
                let (s, _) = c.request(
                    "GET",
                    path,
                    &[("Authorization", &keys[i % keys.len()])],
                    b"",
                );
                assert_eq!(s, 200);
            });
            results.push(f);
        }
        println!("  {what}");
        show(&format!("{scale} invoices"), &results[0]);
        show("1,000 invoices", &results[1]);
        let ratio = results[0].p50.as_secs_f64() / results[1].p50.as_secs_f64();
        println!(
            "  => p50 at {scale} / p50 at 1,000: {ratio:.2} (goal <= 2.00) {}",
            if ratio <= 2.0 { "met" } else { "NOT MET" }
        );
    }
    server.stop();

    // The act: issuing a prepared draft, each in its own transaction (and fsync).
    let db = kontor::store::db::Db::open(&path, 2).unwrap();
    let (tenant, customer, _) = &tenants[1];
    let drafts: Vec<String> = db
        .write(|tx| {
            (0..2_000)
                .map(|_| draft(tx, tenant, customer, "2.5", 12_345))
                .collect()
        })
        .unwrap();
    let pages = |db: &kontor::store::db::Db| -> i64 {
        let conn = db.connection().unwrap();
        conn.query_row("PRAGMA page_count", [], |r| r.get::<_, i64>(0))
            .unwrap()
            * conn
                .query_row("PRAGMA page_size", [], |r| r.get::<_, i64>(0))
                .unwrap()
    };
    let before = pages(&db);
    let started = Instant::now();
    for d in &drafts[..1_000] {
        db.write(|tx| issue::issue(tx, tenant, &Actor::System, d, &IssueOptions::default()))
            .unwrap();
    }
    let one_by_one = 1_000.0 / started.elapsed().as_secs_f64();
    let started = Instant::now();
    std::thread::scope(|s| {
        for chunk in drafts[1_000..].chunks(125) {
            let db = &db;
            s.spawn(move || {
                for d in chunk {
                    db.write(|tx| {
                        issue::issue(tx, tenant, &Actor::System, d, &IssueOptions::default())
                    })
                    .unwrap();
                }
            });
        }
    });
    let concurrent = 1_000.0 / started.elapsed().as_secs_f64();
    let growth = (pages(&db) - before) / 2_000;
    println!("  draft issue (the act: checks, verdict, number, invoice, documents, ledger, open items, event; one transaction each)");
    println!("  {:<44} {:>9.0} issues/s", "one after another", one_by_one);
    println!(
        "  {:<44} {:>9.0} issues/s",
        "8 threads (commits grouped)", concurrent
    );
    println!(
        "  {:<44} {:>9} bytes per invoice (its PDF/A-3, CII, rows and indexes)",
        "data file growth", growth
    );
    println!(
        "  => {:.0} issues/s one after another with documents (goal >= 200) {}",
        one_by_one,
        if one_by_one >= 200.0 {
            "met"
        } else {
            "NOT MET"
        }
    );
}

/// A receiver answering 200 after `delay` to every request.
fn receiver(delay: Duration) -> SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            loop {
                let (stream, _) = listener.accept().await.unwrap();
                tokio::spawn(async move {
                    let svc = service_fn(move |_req| async move {
                        tokio::time::sleep(delay).await;
                        Ok::<_, Infallible>(Response::new(Full::new(Bytes::from_static(b"ok"))))
                    });
                    let _ = http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), svc)
                        .await;
                });
            }
        });
    });
    rx.recv().unwrap()
}

fn delivered(db: &kontor::store::db::Db, endpoints: &[String]) -> usize {
    let conn = db.connection().unwrap();
    endpoints
        .iter()
        .map(|e| {
            conn.query_row(
                "SELECT count(*) FROM deliveries WHERE endpoint_id = ?1 AND state = 'DELIVERED'",
                [e],
                |r| r.get::<_, i64>(0),
            )
            .unwrap() as usize
        })
        .sum()
}

/// Waits until `endpoints` together have `count` delivered; returns how long it took.
fn until_delivered(db: &kontor::store::db::Db, endpoints: &[String], count: usize) -> Duration {
    let started = Instant::now();
    while delivered(db, endpoints) < count {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "deliveries did not finish"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    started.elapsed()
}

/// The delivery section: signed deliveries per second to a local receiver
/// across 20 endpoints, and what one hanging endpoint adds to the others.
fn deliveries(dir: &std::path::Path) {
    println!();
    println!("(delivery) 20 endpoints on a local receiver, 500 invoices issued → 10,000 signed deliveries");
    let path = dir.join("delivery.db");
    let company = console(&path, &["company"])["id"]
        .as_str()
        .unwrap()
        .to_string();
    let tenant = Tenant::new(&company, Environment::Production);
    let db = std::sync::Arc::new(kontor::store::db::Db::open(&path, 4).unwrap());
    let fast = receiver(Duration::ZERO);
    let endpoints: Vec<String> = db
        .write(|tx| {
            (0..20)
                .map(|i| {
                    endpoints::create(
                        tx,
                        &tenant,
                        &endpoint(format!("http://{fast}/hook/{i}"))?,
                        None,
                    )
                })
                .collect()
        })
        .unwrap();
    let customer = db
        .write(|tx| customers::create(tx, &tenant, &Actor::System, &bench_customer(tx, &tenant)?))
        .unwrap();
    let issue_many = |n: usize| {
        db.write(|tx| {
            for _ in 0..n {
                let d = draft(tx, &tenant, &customer, "1", 10_000)?;
                issue::issue(tx, &tenant, &Actor::System, &d, &IssueOptions::default())?;
            }
            Ok(())
        })
        .unwrap()
    };
    // The backlog is written first, then the worker starts on it.
    issue_many(500);
    let policy = kontor::outbox::address::Policy {
        allow_loopback: true,
    };
    let worker = kontor::outbox::delivery::start(db.clone(), policy).unwrap();
    let took = until_delivered(&db, &endpoints, 10_000);
    println!(
        "  {:<44} {:>9.0} deliveries/s ({:.2} s for 10,000)",
        "signed, sent, acknowledged and recorded",
        10_000.0 / took.as_secs_f64(),
        took.as_secs_f64()
    );
    let rate = 10_000.0 / took.as_secs_f64();
    println!(
        "  => {rate:.0} deliveries/s (goal >= 2000) {}",
        if rate >= 2000.0 { "met" } else { "NOT MET" }
    );

    // One event to the 20: how long until all 20 have it, without and with a hanging endpoint.
    let mut quiet = Vec::new();
    for round in 0..5 {
        let before = delivered(&db, &endpoints);
        issue_many(1);
        quiet.push(until_delivered(&db, &endpoints, before + 20));
        let _ = round;
    }
    let hanging = receiver(Duration::from_secs(30));
    db.write(|tx| {
        endpoints::create(
            tx,
            &tenant,
            &endpoint(format!("http://{hanging}/hang"))?,
            None,
        )
    })
    .unwrap();
    let mut with_hang = Vec::new();
    for _ in 0..5 {
        let before = delivered(&db, &endpoints);
        issue_many(1);
        with_hang.push(until_delivered(&db, &endpoints, before + 20));
    }
    let median = |v: &mut Vec<Duration>| {
        v.sort();
        v[v.len() / 2]
    };
    let (q, h) = (median(&mut quiet), median(&mut with_hang));
    println!("  one event to the 20 endpoints, median of 5:  {:.1} ms; with a 21st endpoint hanging: {:.1} ms", q.as_secs_f64() * 1000.0, h.as_secs_f64() * 1000.0);
    let added = h.saturating_sub(q);
    println!(
        "  => a hanging endpoint adds {:.1} ms to the others (goal < 1000 ms) {}",
        added.as_secs_f64() * 1000.0,
        if added < Duration::from_secs(1) {
            "met"
        } else {
            "NOT MET"
        }
    );
    drop(worker);
}

fn main() {
    if let Some(code) = process::run_as_kontor() {
        std::process::exit(if code == std::process::ExitCode::SUCCESS {
            0
        } else {
            1
        });
    }
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("bench.db");
    let company = console(&data, &["company"]);
    let company_id = company["id"].as_str().unwrap().to_string();
    // Enough keys that the budget (240 each) never caps phase (a) or (c),
    // nor the five wrk runs of (a) against one server (about 200,000
    // requests each when kontor answers kept pages).
    let keys: Vec<String> = console(&data, &["keys", &company_id, "6000"])
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap().to_string())
        .collect();
    let auths: Vec<String> = keys.iter().map(|k| format!("Bearer {k}")).collect();

    let mut config = Config::new(&data, "127.0.0.1:0".parse().unwrap());
    config.log_requests = false;
    let server = Server::start(config).unwrap();
    let addr = server.addr;
    let mut conn = Conn::open(addr);
    for i in 0..1000 {
        let (status, _) = conn.request(
            "POST",
            "/v1/customers",
            &[
                ("Authorization", &auths[i % auths.len()]),
                ("Idempotency-Key", &format!("seed-{i}")),
            ],
            CUSTOMER_BODY.as_bytes(),
        );
        assert_eq!(status, 201);
    }
    let (status, page) = conn.request(
        "GET",
        "/v1/customers?size=25",
        &[("Authorization", &auths[1])],
        b"",
    );
    assert_eq!(status, 200);

    // `cargo run --release --example bench -- b` runs one phase only (for profiling).
    let only = std::env::args().nth(1);
    let want = |phase: &str| only.as_deref().is_none_or(|o| o == phase);
    if only.as_deref() == Some("wrk") {
        // The server as its own process, its log on; wrk from outside.
        server.stop();
        wrk(&data, &keys, page);
        return;
    }
    println!(
        "kontor bench: {THREADS} keep-alive connections; each side {} s per phase, in {ROUNDS} alternating slices; 1,000 customers",
        PHASE.as_secs()
    );
    if want("a") {
        println!();
        println!("(a) GET /v1/customers?size=25 ({} bytes)", page.len());
        let bare = bare_server(200, page.clone());
        let counter = AtomicUsize::new(0);
        let (bare_ok, kontor_get) = compare(
            |length| {
                slice(bare, length, &counter, &|c: &mut Conn, _| {
                    c.request(
                        "GET",
                        "/v1/customers?size=25",
                        &[("Authorization", &auths[0])],
                        b"",
                    );
                })
            },
            |length| {
                slice(addr, length, &counter, &|c: &mut Conn, i| {
                    let (s, _) = c.request(
                        "GET",
                        "/v1/customers?size=25",
                        &[("Authorization", &auths[2 + i % (auths.len() - 2)])],
                        b"",
                    );
                    assert_eq!(s, 200);
                })
            },
        );
        show("bare hyper, same bytes", &bare_ok);
        show("kontor", &kontor_get);
        verdict(
            "kontor / bare",
            kontor_get.per_second / bare_ok.per_second,
            0.30,
        );
    }

    if want("b") {
        println!();
        println!("(b) 429 refusals of one exhausted key");
        let victim = &auths[0];
        for _ in 0..300 {
            conn.request("GET", "/v1/me", &[("Authorization", victim)], b"");
        }
        let (s, refusal) = conn.request(
            "GET",
            "/v1/customers?size=25",
            &[("Authorization", victim)],
            b"",
        );
        assert_eq!(s, 429);
        let bare_429 = bare_server(429, refusal);
        let bare_page = bare_server(200, page.clone());
        let refused = AtomicUsize::new(0);
        let counter = AtomicUsize::new(0);
        let counter = &counter;
        let bare_run = |server: SocketAddr| {
            move |length| {
                slice(server, length, counter, &|c: &mut Conn, _| {
                    c.request(
                        "GET",
                        "/v1/customers?size=25",
                        &[("Authorization", victim)],
                        b"",
                    );
                })
            }
        };
        let refused = &refused;
        let kontor_run = |length| {
            slice(addr, length, counter, &|c: &mut Conn, _| {
                let (s, _) = c.request(
                    "GET",
                    "/v1/customers?size=25",
                    &[("Authorization", victim)],
                    b"",
                );
                if s == 429 {
                    refused.fetch_add(1, Ordering::Relaxed);
                }
            })
        };
        // The goal is against the bare server of (a); the bare server answering
        // the refusal's own bytes is the stricter comparison, shown beside it.
        let (bare_pages, kontor_429) = compare(bare_run(bare_page), kontor_run);
        let (bare_refusals, kontor_429_again) = compare(bare_run(bare_429), kontor_run);
        show("bare hyper of (a), same page bytes", &bare_pages);
        show("bare hyper, same refusal bytes", &bare_refusals);
        show("kontor (measured beside each)", &kontor_429);
        println!(
            "  ({} of kontor's {} answers were 429; the rest spent the tokens that came back)",
            refused.load(Ordering::Relaxed),
            kontor_429.count + kontor_429_again.count
        );
        println!(
            "  kontor / bare answering the refusal's bytes: {:.2}",
            kontor_429_again.per_second / bare_refusals.per_second
        );
        verdict(
            "kontor / bare of (a)",
            kontor_429.per_second / bare_pages.per_second,
            0.60,
        );
    }

    if want("c") {
        println!();
        println!("(c) POST /v1/customers, fresh Idempotency-Keys");
        let raw = std::sync::Mutex::new(raw_database(dir.path()));
        let (next_raw, counter) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let (raw, kontor_post) = compare(
            |length| raw_inserts(&mut raw.lock().unwrap(), &next_raw, length),
            |length| {
                slice(addr, length, &counter, &|c: &mut Conn, i| {
                    let k = 1000 + i % (auths.len() - 1000);
                    let (s, _) = c.request(
                        "POST",
                        "/v1/customers",
                        &[
                            ("Authorization", &auths[k]),
                            ("Idempotency-Key", &format!("bench-{i}")),
                        ],
                        CUSTOMER_BODY.as_bytes(),
                    );
                    assert_eq!(s, 201);
                })
            },
        );
        show("raw rusqlite transaction, same insert", &raw);
        show("kontor", &kontor_post);
        verdict(
            "kontor / raw",
            kontor_post.per_second / raw.per_second,
            0.50,
        );
    }

    if want("mcp") {
        println!();
        println!("(mcp) tools/call get_customer (2025-11-25) over REST GET /v1/customers/{{id}}");
        let (_, customer) = conn.request(
            "GET",
            "/v1/customers?size=1",
            &[("Authorization", &auths[3])],
            b"",
        );
        let customer: Value = serde_json::from_slice(&customer).unwrap();
        let id = customer["data"][0]["id"].as_str().unwrap().to_string();
        let rest_path = format!("/v1/customers/{id}");
        let call = serde_json::to_vec(&serde_json::json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "get_customer", "arguments": {"customer_id": id}}
        }))
        .unwrap();
        let counter = AtomicUsize::new(0);
        let (rest_get, mcp_call) = compare(
            |length| {
                slice(addr, length, &counter, &|c: &mut Conn, i| {
                    let (s, _) = c.request(
                        "GET",
                        &rest_path,
                        &[("Authorization", &auths[4 + i % (auths.len() - 4)])],
                        b"",
                    );
                    assert_eq!(s, 200);
                })
            },
            |length| {
                slice(addr, length, &counter, &|c: &mut Conn, i| {
                    let (s, _) = c.request(
                        "POST",
                        "/mcp",
                        &[
                            ("Authorization", &auths[4 + i % (auths.len() - 4)]),
                            ("Content-Type", "application/json"),
                            ("MCP-Protocol-Version", "2025-11-25"),
                        ],
                        &call,
                    );
                    assert_eq!(s, 200);
                })
            },
        );
        show("REST GET /v1/customers/{id}", &rest_get);
        show("MCP tools/call get_customer", &mcp_call);
        verdict(
            "MCP / REST",
            mcp_call.per_second / rest_get.per_second,
            0.70,
        );
    }

    if want("delivery") {
        deliveries(dir.path());
    }

    if want("books") {
        let scale = std::env::args()
            .nth(2)
            .and_then(|n| n.parse().ok())
            .unwrap_or(1_000_000);
        books(dir.path(), scale);
    }

    println!();
    println!(
        "peak RSS of the whole bench process (server, clients, baselines): {:.1} MiB",
        peak_rss_mib()
    );
    server.stop();
}

/// wrk (Debian's, pinned to one core with taskset, 1 thread, 8 connections)
/// against kontor serving in its own process with its log on, and against a
/// bare hyper server answering the same bytes, alternating, never at once:
/// (a) the customer page with keys rotated by the same Lua script, (b) 429
/// refusals of one exhausted key. Prints every run and the median ratio.
fn wrk(data: &std::path::Path, keys: &[String], page: Vec<u8>) {
    const RUNS: usize = 5;
    let wrk_seconds = "4";
    if Command::new("wrk").arg("--version").output().is_err() {
        eprintln!("wrk is missing: apt-get install wrk (Debian), then run again");
        std::process::exit(1);
    }
    let dir = data.parent().unwrap();
    let script = dir.join("rotate.lua");
    std::fs::write(
        &script,
        r#"local keys = {}
for line in io.lines(os.getenv("KONTOR_KEYS")) do keys[#keys + 1] = line end
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", "/v1/customers?size=25",
    {["Authorization"] = "Bearer " .. keys[(i % #keys) + 1]})
end
"#,
    )
    .unwrap();
    let rotated = dir.join("keys.txt");
    std::fs::write(&rotated, keys[2..].join("\n")).unwrap();
    let exhausted = dir.join("exhausted.txt");
    std::fs::write(&exhausted, &keys[0]).unwrap();
    let run = |addr: SocketAddr, keys: &std::path::Path| -> (f64, bool) {
        let out = Command::new("taskset")
            .args(["-c", "0", "wrk", "-t1", "-c8", "-d", wrk_seconds, "-s"])
            .arg(&script)
            .arg(format!("http://{addr}/v1/customers?size=25"))
            .env("KONTOR_KEYS", keys)
            .output()
            .expect("wrk");
        let text = String::from_utf8_lossy(&out.stdout);
        let non_2xx = text
            .lines()
            .find(|l| l.contains("Non-2xx"))
            .map(str::trim)
            .unwrap_or("");
        let rate = text
            .lines()
            .find_map(|l| l.strip_prefix("Requests/sec:"))
            .and_then(|r| r.trim().parse::<f64>().ok())
            .expect("wrk's Requests/sec");
        println!("    {addr:<22} {rate:>9.0} req/s  {non_2xx}");
        (rate, !non_2xx.is_empty())
    };
    println!(
        "wrk: taskset -c 0 wrk -t1 -c8 -d{wrk_seconds}s, {RUNS} runs per side, kontor and bare alternating"
    );
    let setups: [(&str, &[&str]); 2] = [
        ("as shipped", &[]),
        ("--no-kept-pages", &["--no-kept-pages"]),
    ];
    for (setup, flags) in setups {
        let mut args = vec!["serve", "--listen", "127.0.0.1:0"];
        args.extend_from_slice(flags);
        args.extend_from_slice(&["--data", data.to_str().unwrap()]);
        let server = process::ServerProcess::start(&args);
        let mut conn = Conn::open(server.addr);
        let victim = format!("Bearer {}", keys[0]);
        let mut refusal = Vec::new();
        for _ in 0..300 {
            let (s, body) = conn.request(
                "GET",
                "/v1/customers?size=25",
                &[("Authorization", &victim)],
                b"",
            );
            if s == 429 {
                refusal = body;
            }
        }
        assert!(!refusal.is_empty(), "the key ran dry");
        let phases = [
            (
                "(a) GET /v1/customers?size=25, keys rotated",
                200,
                page.clone(),
                &rotated,
                0.30,
            ),
            (
                "(b) 429 refusals of one exhausted key",
                429,
                refusal,
                &exhausted,
                0.60,
            ),
        ];
        for (name, status, bytes, keys, goal) in phases {
            println!("\n{name} ({} bytes), kontor {setup}", bytes.len());
            let bare = bare_server(status, bytes);
            let mut ratios = Vec::new();
            for _ in 0..RUNS {
                let (kontor, refused) = run(server.addr, keys);
                let (baseline, _) = run(bare, keys);
                // A run of (a) with refusals measured the budget, not the page.
                assert!(
                    status != 200 || !refused,
                    "the rotated keys ran dry during (a): make more keys"
                );
                ratios.push(kontor / baseline);
            }
            ratios.sort_by(f64::total_cmp);
            println!(
                "  ratios {}",
                ratios
                    .iter()
                    .map(|r| format!("{r:.2}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            );
            verdict("kontor / bare (median)", ratios[RUNS / 2], goal);
        }
        let (_, peak) = server.rss_mb();
        println!("\nserver peak RSS: {peak:.1} MB");
        server.stop();
    }
}
