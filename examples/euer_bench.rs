//! The cash-basis profit statement (EÜR) and the VAT returns of a year with
//! 100,000 payments: how long each takes and how much memory it needs.
//!
//!   cargo run --release --example euer_bench            # 100,000 payments
//!   cargo run --release --example euer_bench -- 20000   # another number
//!   EUER_BENCH_KEEP=/tmp/b cargo run --release --example euer_bench
//!       # keeps /tmp/b/bench.db; then, under perf say:
//!       # target/release/examples/euer_bench --child vat /tmp/b/bench.db COMPANY
//!
//! Fills a fresh data file with a year (2026) of a freelancer's books (a
//! sole proprietor determining its profit by the EÜR, owing VAT on payments
//! received, filing monthly)
//! through the books' own acts: half the payments are invoices at 19 % and
//! 7 % to 200 customers (the bulk path without documents, as the other
//! benches fill invoices), each paid in full; the other half bills from 100
//! suppliers split over two cost accounts at 19 % and 7 %, each paid. Then,
//! each in a fresh process of this program, draws up the EÜR of 2026 (the
//! books' `euer::statement`, and its answer written as JSON, as `kontor
//! books euer` prints it) and works out the twelve monthly VAT returns of
//! 2026 (`vat::filing::vat_return`, as `kontor vat return` does); prints
//! each one's wall seconds, the process's CPU seconds and its peak RSS.

use std::process::Command;
use std::time::Instant;

use jiff::civil::Date;
use kontor::books::audit::Actor;
use kontor::books::company::{self, CompanyInput, NewCompany};
use kontor::books::customers::{self, CustomerInput, NewCustomer};
use kontor::books::drafts::{self, DraftInput, DraftKind, DraftLineInput, NewDraft};
use kontor::books::euer;
use kontor::books::invoices;
use kontor::books::invoices::issue::{self, IssueOptions};
use kontor::books::particulars::ParticularsInput;
use kontor::books::purchases::{self, CostLineInput, NewPurchase, PurchaseInput};
use kontor::books::settlement::{self, NewPayment, PaymentInput};
use kontor::books::tax_methods::{self, MethodsInput};
use kontor::books::vat::filing;
use kontor::books::vat::period::Period;
use kontor::rules::text::Patch;
use kontor::store::db::Db;
use kontor::store::tenant::{Environment, Tenant};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn owner() -> ParticularsInput {
    use Patch::Value as V;
    ParticularsInput {
        legal_name: V("Anna Berger".into()),
        street: V("Lange Reihe 12".into()),
        postal_code: V("20099".into()),
        city: V("Hamburg".into()),
        vat_id: V("DE136695976".into()),
        tax_number: V("43/123/45678".into()),
        contact_name: V("Anna Berger".into()),
        contact_phone: V("+49 40 7654321".into()),
        contact_email: V("anna@berger-design.example".into()),
        electronic_address: V("9930:DE136695976".into()),
        iban: V("DE02120300000000202051".into()),
        bic: V("BYLADEM1001".into()),
        legal_form: V("sole-proprietor".into()),
        ..Default::default()
    }
}

/// The day `i` of `n` falls on, spread over 2026.
fn day(i: usize, n: usize) -> Date {
    Date::constant(2026, 1, 1)
        .checked_add(jiff::Span::new().days((364 * i / n.max(1)) as i64))
        .unwrap()
}

/// Fills the year with `payments` payments; returns the company's id.
fn fill(db: &Db, payments: usize) -> String {
    let new = NewCompany::check(CompanyInput {
        name: Some("Anna Berger Design".into()),
        country: Some("DE".into()),
        currency: Some("EUR".into()),
        plan: Some("ENTERPRISE".into()),
        particulars: owner(),
        ..Default::default()
    })
    .unwrap();
    let company = db.write(|tx| company::create(tx, new)).unwrap();
    let tenant = Tenant::new(company.id.clone(), Environment::Production);
    db.write(|tx| {
        let input = MethodsInput {
            vat_method: Some("ist".into()),
            ist_reason: Some("freelance".into()),
            profit_method: Some("euer".into()),
            return_period: Some("monthly".into()),
            extension: Some("no".into()),
            from: Some("2026-01-01".into()),
        };
        tax_methods::set(tx, &tenant, &Actor::System, &company, &input)
    })
    .unwrap();
    let customers: Vec<String> = db
        .write(|tx| {
            (0..200)
                .map(|i| {
                    let new = NewCustomer::check(
                        CustomerInput {
                            name: Some(format!("Kunde {i} GmbH")),
                            street: Some("Ring 1".into()),
                            postal_code: Some("20095".into()),
                            city: Some("Hamburg".into()),
                            country: Some("DE".into()),
                            ..Default::default()
                        },
                        &company,
                    )?;
                    customers::create(tx, &tenant, &Actor::System, &new)
                })
                .collect()
        })
        .unwrap();
    // One invoice and one bill per round, each paid.
    let rounds = payments.div_ceil(2);
    let mut done = 0;
    while done < rounds {
        let batch = (rounds - done).min(1_000);
        db.write(|tx| {
            for r in done..done + batch {
                let on = day(r, rounds);
                let new = NewDraft::whole(
                    DraftInput {
                        customer_id: Some(customers[r % customers.len()].clone()),
                    },
                    DraftKind::Invoice,
                    vec![
                        DraftLineInput {
                            description: Some("Gestaltung".into()),
                            quantity: Some("1".into()),
                            unit_price_minor: Some(10_000 + (r % 997) as i64),
                            tax_rate_percent: Some("19".into()),
                            ..DraftLineInput::default()
                        },
                        DraftLineInput {
                            description: Some("Bildrechte".into()),
                            quantity: Some("1".into()),
                            unit_price_minor: Some(2_000 + (r % 89) as i64),
                            tax_rate_percent: Some("7".into()),
                            ..DraftLineInput::default()
                        },
                    ],
                    &company,
                )?;
                let draft = drafts::create(tx, &tenant, &Actor::System, &new)?;
                let id = issue::issue(
                    tx,
                    &tenant,
                    &Actor::System,
                    &draft,
                    &IssueOptions::bulk_without_documents(on),
                )?;
                let invoice = invoices::get_by_id(tx, &tenant, &id)?;
                let payment = NewPayment::check(PaymentInput {
                    amount: Some(invoice.gross.minor),
                    on: Some(on.to_string()),
                    ..Default::default()
                })?;
                settlement::pay_invoice(tx, &tenant, &Actor::System, &invoice.number, &payment)?;
                let bill = NewPurchase::check(PurchaseInput {
                    supplier: Some(format!("Lieferant {} AG", r % 100)),
                    document_number: Some(format!("ER-{r}")),
                    date: Some(on.to_string()),
                    due: Some(on.to_string()),
                    currency: Some("EUR".into()),
                    lines: vec![
                        CostLineInput {
                            account: "office_supplies".into(),
                            net: 5_000 + (r % 311) as i64,
                            rate: Some("19".into()),
                        },
                        CostLineInput {
                            account: "books".into(),
                            net: 1_000 + (r % 53) as i64,
                            rate: Some("7".into()),
                        },
                    ],
                    ..Default::default()
                })?;
                let id = purchases::record(tx, &tenant, &Actor::System, &bill)?;
                let gross = purchases::get(tx, &tenant, &id)?.gross.minor;
                let payment = NewPayment::check(PaymentInput {
                    amount: Some(gross),
                    on: Some(on.to_string()),
                    ..Default::default()
                })?;
                settlement::pay_bill(tx, &tenant, &Actor::System, &id, &payment)?;
            }
            Ok(())
        })
        .unwrap();
        done += batch;
    }
    company.id
}

/// This process's CPU seconds (user and system, `getrusage`) and peak
/// resident memory in MiB (`VmHWM` of /proc/self/status: its own address
/// space's, where `ru_maxrss` would keep the parent's size from before the
/// exec); the machine may be shared, so wall time alone overstates the cost.
fn own_usage() -> (f64, f64) {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let peak_kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0.0);
    (
        seconds(usage.ru_utime) + seconds(usage.ru_stime),
        peak_kib / 1024.0,
    )
}

/// The child: the EÜR of 2026 (`euer`) or the twelve VAT returns (`vat`);
/// prints what it made, its seconds and its peak RSS.
fn child(what: &str, data: &str, company: &str) {
    let db = Db::open(std::path::Path::new(data), 1).unwrap();
    let tenant = Tenant::new(company, Environment::Production);
    let started = Instant::now();
    let said = db
        .read(|conn| match what {
            "euer" => {
                let s = euer::statement(conn, &tenant, 2026)?;
                let json = serde_json::to_string(&s).unwrap_or_default();
                Ok(format!(
                    "{} postings, profit {}, JSON {:.1} MB",
                    s.postings(),
                    kontor::rules::money::minor_text(s.profit, 2, '.'),
                    json.len() as f64 / 1e6
                ))
            }
            _ => {
                let mut postings = 0;
                for month in 1..=12 {
                    let period = Period::parse("period", &format!("2026-{month:02}"))?;
                    let r = filing::vat_return(conn, &tenant, &period)?;
                    postings += r.postings.values().map(Vec::len).sum::<usize>();
                }
                Ok(format!("12 returns, {postings} postings behind their Kz"))
            }
        })
        .unwrap();
    let wall = started.elapsed().as_secs_f64();
    let (cpu, rss) = own_usage();
    println!("{said}|{wall:.3}|{cpu:.3}|{rss:.1}");
}

/// Runs the child `what`; what it made, its wall seconds, its CPU seconds
/// (the whole process: opening the data file included) and its peak RSS.
fn measure(what: &str, data: &std::path::Path, company: &str) -> [String; 4] {
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--child", what, data.to_str().unwrap(), company])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let mut parts = said.split('|').map(str::to_string);
    std::array::from_fn(|_| parts.next().unwrap_or_default())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--child") {
        child(&args[2], &args[3], &args[4]);
        return;
    }
    let payments: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(100_000);
    // `EUER_BENCH_KEEP=DIR` keeps the data file as DIR/bench.db, so the
    // children (`--child vat DATA COMPANY`) can be run again, under a
    // profiler say; the company's id is printed.
    let dir = tempfile::tempdir().unwrap();
    let kept = std::env::var_os("EUER_BENCH_KEEP").map(std::path::PathBuf::from);
    let data = match &kept {
        Some(k) => {
            std::fs::create_dir_all(k).unwrap();
            let data = k.join("bench.db");
            for suffix in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{suffix}", data.display()));
            }
            data
        }
        None => dir.path().join("bench.db"),
    };
    let db = Db::open(&data, 1).unwrap();
    let started = Instant::now();
    let company = fill(&db, payments);
    let conn = db.connection().unwrap();
    let made: i64 = conn
        .query_row(
            "SELECT count(*) FROM payments WHERE paid_on BETWEEN '2026-01-01' AND '2026-12-31'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    drop(conn);
    drop(db);
    let size = std::fs::metadata(&data).map(|m| m.len()).unwrap_or(0);
    println!(
        "filled 2026: {made} payments in {:.1} s, data file {:.1} MB",
        started.elapsed().as_secs_f64(),
        size as f64 / 1e6
    );
    if kept.is_some() {
        println!("kept {} (company {company})", data.display());
    }
    for (what, name) in [("euer", "EÜR of 2026"), ("vat", "VAT returns of 2026")] {
        let [said, wall, cpu, rss] = measure(what, &data, &company);
        println!("{name}: {said}");
        println!("  {wall} s ({cpu} s CPU) (target < 2 s), peak RSS {rss} MiB (target < 150 MB)");
    }
}
