//! The DATEV export of a year with 100,000 postings: how long it takes and
//! how much memory it needs.
//!
//!   cargo run --release --example datev_export            # 100,000 postings
//!   cargo run --release --example datev_export -- 20000   # another size
//!
//! Fills a fresh data file with a year (2025) of a German company's books
//! through the books' own acts: invoices at 19 % and 7 % to 200 customers
//! (the bulk path without documents, as the main bench fills invoices),
//! each paid, and bills at 19 % from 100 suppliers, each paid; 7 postings
//! per invoice and 5 per bill, two invoices to each bill. Then runs the
//! export of the whole year in a fresh process of this program (the books'
//! `export::datev::export`, the ZIP written to a file, as `kontor export
//! datev` does) and prints its wall time, the child's peak RSS
//! (`getrusage`), the bookings and the ZIP's size.

use std::process::Command;
use std::time::Instant;

use jiff::civil::Date;
use kontor::books::audit::Actor;
use kontor::books::company::{self, CompanyInput, NewCompany};
use kontor::books::customers::{self, CustomerInput, NewCustomer};
use kontor::books::drafts::{self, DraftInput, DraftKind, DraftLineInput, NewDraft};
use kontor::books::export::datev::{self, ExportInput, ExportRequest};
use kontor::books::export::settings::{self, SettingsChange, SettingsInput};
use kontor::books::invoices;
use kontor::books::invoices::issue::{self, IssueOptions};
use kontor::books::particulars::ParticularsInput;
use kontor::books::purchases::{self, NewPurchase, PurchaseInput};
use kontor::books::settlement::{self, NewPayment, PaymentInput};
use kontor::rules::text::Patch;
use kontor::store::db::Db;
use kontor::store::tenant::{Environment, Tenant};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn seller() -> ParticularsInput {
    use Patch::Value as V;
    ParticularsInput {
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

/// The day `i` of `n` falls on, spread over 2025.
fn day(i: usize, n: usize) -> Date {
    Date::constant(2025, 1, 1)
        .checked_add(jiff::Span::new().days((364 * i / n.max(1)) as i64))
        .unwrap()
}

/// Fills the year; returns the company's id.
fn fill(db: &Db, postings: usize) -> String {
    let new = NewCompany::check(CompanyInput {
        name: Some("Bench GmbH".into()),
        country: Some("DE".into()),
        currency: Some("EUR".into()),
        plan: Some("ENTERPRISE".into()),
        particulars: seller(),
        ..Default::default()
    })
    .unwrap();
    let company = db.write(|tx| company::create(tx, new)).unwrap();
    let tenant = Tenant::new(company.id.clone(), Environment::Production);
    db.write(|tx| {
        let change = SettingsChange::check(SettingsInput {
            chart: Some("skr03".into()),
            datev_adviser: Patch::Value("29098".into()),
            datev_client: Patch::Value("55003".into()),
            fiscal_year_start: None,
        })?;
        settings::set(tx, &tenant, &Actor::System, change)
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
    // 2 invoices (14 postings) and 1 bill (5) per round.
    let rounds = postings.div_ceil(19);
    let mut done = 0;
    while done < rounds {
        let batch = (rounds - done).min(1_000);
        db.write(|tx| {
            for r in done..done + batch {
                for k in 0..2 {
                    let i = 2 * r + k;
                    let on = day(i, 2 * rounds);
                    let new = NewDraft::whole(
                        DraftInput {
                            customer_id: Some(customers[i % customers.len()].clone()),
                        },
                        DraftKind::Invoice,
                        vec![
                            DraftLineInput {
                                description: Some("Beratung".into()),
                                quantity: Some("1".into()),
                                unit_price_minor: Some(10_000 + (i % 997) as i64),
                                tax_rate_percent: Some("19".into()),
                                ..DraftLineInput::default()
                            },
                            DraftLineInput {
                                description: Some("Bücher".into()),
                                quantity: Some("1".into()),
                                unit_price_minor: Some(2_000 + (i % 89) as i64),
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
                        on: Some(on.min(Date::constant(2025, 12, 31)).to_string()),
                        ..Default::default()
                    })?;
                    settlement::pay_invoice(
                        tx,
                        &tenant,
                        &Actor::System,
                        &invoice.number,
                        &payment,
                    )?;
                }
                let on = day(r, rounds);
                let bill = NewPurchase::check(PurchaseInput {
                    supplier: Some(format!("Lieferant {} AG", r % 100)),
                    document_number: Some(format!("ER-{r}")),
                    date: Some(on.to_string()),
                    due: Some(on.to_string()),
                    currency: Some("EUR".into()),
                    net: Some(5_000 + (r % 311) as i64),
                    tax: Some((5_000 + (r % 311) as i64) * 19 / 100),
                    tax_rate: Some("19".into()),
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

/// The child: the export of 2025, written to `out`.
fn export(data: &str, company: &str, out: &str) {
    let db = Db::open(std::path::Path::new(data), 1).unwrap();
    let tenant = Tenant::new(company, Environment::Production);
    let request = ExportRequest::check(ExportInput {
        from: Some("2025-01-01".into()),
        to: Some("2025-12-31".into()),
        documents: false,
    })
    .unwrap();
    let started = Instant::now();
    let exported = db
        .write(|tx| datev::export(tx, &tenant, &Actor::System, &request))
        .unwrap();
    std::fs::write(out, &exported.zip).unwrap();
    println!(
        "{} {} {:.3}",
        exported.bookings,
        exported.zip.len(),
        started.elapsed().as_secs_f64()
    );
}

/// The peak resident memory of the waited-for children, in MiB.
fn children_peak_rss_mib() -> f64 {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    usage.ru_maxrss as f64 / 1024.0
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--child") {
        export(&args[2], &args[3], &args[4]);
        return;
    }
    let postings: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("bench.db");
    let db = Db::open(&data, 1).unwrap();
    let started = Instant::now();
    let company = fill(&db, postings);
    let conn = db.connection().unwrap();
    let lines: i64 = conn
        .query_row(
            "SELECT count(*) FROM journal WHERE posted_on BETWEEN '2025-01-01' AND '2025-12-31'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    drop(conn);
    drop(db);
    let size = std::fs::metadata(&data).map(|m| m.len()).unwrap_or(0);
    println!(
        "filled 2025: {lines} postings in {:.1} s, data file {:.1} MB",
        started.elapsed().as_secs_f64(),
        size as f64 / 1e6
    );
    let out = dir.path().join("export.zip");
    let started = Instant::now();
    let child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--child",
            data.to_str().unwrap(),
            &company,
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let wall = started.elapsed().as_secs_f64();
    assert!(
        child.status.success(),
        "{}",
        String::from_utf8_lossy(&child.stderr)
    );
    let said = String::from_utf8_lossy(&child.stdout);
    let mut parts = said.split_whitespace();
    let bookings = parts.next().unwrap_or("?");
    let zip = parts
        .next()
        .and_then(|z| z.parse::<f64>().ok())
        .unwrap_or(0.0);
    let inside = parts.next().unwrap_or("?");
    println!(
        "DATEV export of 2025: {lines} postings → {bookings} bookings, ZIP {:.1} MB",
        zip / 1e6
    );
    println!("  the export act: {inside} s; the process (open, export, write): {wall:.2} s");
    println!(
        "  peak RSS of the exporting process: {:.1} MiB",
        children_peak_rss_mib()
    );
}
