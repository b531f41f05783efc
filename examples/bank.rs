//! The bank benchmark: a camt.053.001.08 statement of N entries imported
//! into a data file holding N open invoices (read, stored, matched, and
//! the certain matches settled through the settlement act, all in the
//! import's one transaction), for N = 10,000, 30,000 and 100,000. Each
//! size's books are filled by one process and imported by another, so the
//! import's peak RSS is its own; the read and the ladder alone are timed
//! in a third.
//!
//!   cargo run --release --example bank
//!
//! Each entry pays one invoice: most by number in the remittance (certain),
//! some by creditor reference (certain), some partially (suggested), some by
//! an unknown payer (unmatched). It prints, per size: the statement's size,
//! the import's time and peak RSS (VmHWM), the bare-write floor beside it
//! (on a copy of the same filled books, in a process of its own: exactly
//! the rows the import leaves, written table by table with nothing read,
//! matched or checked, one transaction, commit included), the read and
//! ladder alone, and how each grows from the smallest size.

use std::process::{Command, ExitCode};
use std::time::Instant;

use jiff::civil::date;
use kontor::books::bank::matching::{Item, Ladder, LineFacts, Outcome};
use kontor::books::settlement::TargetKind;
use kontor::documents::statements;
use kontor::rules::creditor_reference::CreditorReference;

#[path = "../tests/it/support/fill.rs"]
mod fill;
#[path = "../tests/it/support/statements.rs"]
mod written;

/// As the `kontor` binary allocates.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const SIZES: [usize; 3] = [10_000, 30_000, 100_000];

fn peak_rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

fn number(i: usize) -> String {
    format!("RE2026-{i:06}")
}

fn amount(i: usize) -> i64 {
    10_000 + (i as i64 * 7_919) % 500_000
}

/// The net of invoice `i`, whose gross at 19 % is `amount(i)` rounded.
fn net(i: usize) -> i64 {
    10_000 + (i as i64 * 7_919) % 400_000
}

/// Fills a data file: a company with its bank account and `n` open
/// invoices; writes the statement paying them (by the numbers issued).
fn setup(n: usize, data: &str, statement_file: &str) {
    use kontor::books::audit::Actor;
    use kontor::books::bank::accounts::{self, BankAccountInput, NewBankAccount};
    use kontor::books::company::{self, CompanyInput, NewCompany};
    use kontor::books::particulars::ParticularsInput;
    use kontor::rules::text::Patch::Value as V;
    let db = kontor::store::db::Db::open(std::path::Path::new(data), 1).unwrap();
    let new = NewCompany::check(CompanyInput {
        name: Some("Bank Bench GmbH".into()),
        country: Some("DE".into()),
        currency: Some("EUR".into()),
        plan: Some("ENTERPRISE".into()),
        particulars: ParticularsInput {
            street: V("Hafenstraße 1".into()),
            postal_code: V("20457".into()),
            city: V("Hamburg".into()),
            vat_id: V("DE136695976".into()),
            ..Default::default()
        },
        ..Default::default()
    })
    .unwrap();
    let id = db
        .write(|tx| company::create(tx, new).map(|c| c.id))
        .unwrap();
    db.write(|tx| {
        let t =
            kontor::store::tenant::Tenant::new(&id, kontor::store::tenant::Environment::Production);
        let account = NewBankAccount::check(BankAccountInput {
            iban: Some("DE36760260000123456789".into()),
            ..Default::default()
        })?;
        accounts::add(tx, &t, &Actor::System, account)
    })
    .unwrap();
    drop(db);
    let filled = fill::fill(
        std::path::Path::new(data),
        &id,
        5_000.min(n),
        &|_| None,
        n,
        &net,
        0,
        &|_| 0,
        "2026-11-02",
    );
    std::fs::write(statement_file, statement_paying(&filled.invoices)).unwrap();
    println!("{id}");
}

/// The open invoices the statement pays.
fn items(n: usize) -> Vec<Item> {
    (0..n)
        .map(|i| Item {
            kind: TargetKind::Invoice,
            id: format!("inv_{i}"),
            number: number(i),
            partner: format!("cus_{}", i % 5_000),
            partner_name: format!("Kunde {} GmbH", i % 5_000),
            open: amount(i),
            currency: "EUR".into(),
            reference: CreditorReference::of_number(&number(i)).map(|r| r.as_str().to_string()),
            dated: date(2026, 10, 1),
            discount: None,
        })
        .collect()
}

/// The statement paying the invoices `docs`.
fn statement_paying(docs: &[fill::Doc]) -> String {
    let entries: Vec<written::Entry> = docs
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let mut tx = written::Transfer {
                amount: d.gross,
                name: d.partner_name.clone(),
                remittance: format!("Rechnung {}", d.number),
                ..written::Transfer::default()
            };
            match i % 10 {
                0 => {
                    tx.remittance.clear();
                    tx.reference =
                        CreditorReference::of_number(&d.number).map(|r| r.as_str().to_string());
                }
                1 => tx.amount -= 1_000,
                2 => {
                    tx.name = "Unbekannt".into();
                    tx.remittance = "Danke".into();
                }
                _ => {}
            }
            written::Entry {
                bank_reference: format!("B{i:08}"),
                booked_on: "2026-11-18".into(),
                reversal: false,
                txs: vec![tx],
            }
        })
        .collect();
    written::camt053(
        "DE36760260000123456789",
        "BENCH",
        1,
        0,
        "2026-11-18",
        &entries,
    )
}

/// The statement paying `n` invoices numbered `number(i)` (for the read
/// and the ladder alone).
fn statement(n: usize) -> String {
    let docs: Vec<fill::Doc> = (0..n)
        .map(|i| fill::Doc {
            id: format!("inv_{i}"),
            number: number(i),
            partner: format!("cus_{}", i % 5_000),
            partner_name: format!("Kunde {} GmbH", i % 5_000),
            gross: amount(i),
        })
        .collect();
    statement_paying(&docs)
}

/// Imports the statement into the filled data file (this process does
/// nothing else): prints the seconds and the peak RSS.
fn import(data: &str, company: &str, file: &str) {
    use kontor::books::audit::Actor;
    let db = kontor::store::db::Db::open(std::path::Path::new(data), 1).unwrap();
    let bytes = std::fs::read(file).unwrap();
    let started = Instant::now();
    let report = db
        .write(|tx| {
            let t = kontor::store::tenant::Tenant::new(
                company,
                kontor::store::tenant::Environment::Production,
            );
            kontor::books::bank::import::file(
                tx,
                &t,
                &Actor::System,
                "bench.xml",
                std::borrow::Cow::Owned(bytes),
            )
        })
        .unwrap();
    println!(
        "{:.3} {:.1} {} {} {}",
        started.elapsed().as_secs_f64(),
        peak_rss_mib(),
        report.settled,
        report.suggested,
        report.unmatched
    );
}

/// The bare-write floor: on a copy of the filled books, the rows the
/// import of `file` leaves (its file, statement, entries and lines in their
/// final state; per certain match the invoice's new balance, the payment,
/// the line's settlement, the audit row, two journal lines and two events),
/// written table by table in one transaction with nothing read, matched or
/// checked: what SQLite alone takes to store what the import stores. The
/// rows are made before the clock starts; prints the seconds.
fn floor(data: &str, company: &str, file: &str) {
    use rusqlite::params;
    let bytes = std::fs::read(file).unwrap();
    let read = statements::read("bench.xml", &bytes).unwrap();
    let db = kontor::store::db::Db::open(std::path::Path::new(data), 1).unwrap();
    let (account, invoices): (String, Vec<(String, String, i64)>) = db
        .read(|conn| {
            let account = conn.query_row(
                "SELECT id FROM bank_accounts WHERE company_id = ?1",
                [company],
                |r| r.get(0),
            )?;
            let mut stmt = conn.prepare(
                "SELECT id, customer_id, gross FROM invoices WHERE company_id = ?1 ORDER BY seq",
            )?;
            let rows = stmt
                .query_map([company], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                .collect::<rusqlite::Result<_>>()?;
            Ok((account, rows))
        })
        .unwrap();
    let lines: Vec<&statements::Line> = read
        .statements
        .iter()
        .flat_map(|s| &s.entries)
        .flat_map(|e| &e.lines)
        .collect();
    // Which lines the import settles: every one paying its invoice whole by
    // number or creditor reference (9 in 10 but the short payment; the
    // unknown payer's is the tenth).
    let settles = |i: usize| !matches!(i % 10, 1 | 2);
    let now = "2026-11-18T12:00:00Z";
    let day = "2026-11-18";
    let p = "PRODUCTION";
    let started = Instant::now();
    db.write(|tx| {
        kontor::store::ids::in_order(|| {
            let id = kontor::store::ids::new_id;
            let file_id = id("bfl");
            tx.execute(
                "INSERT INTO bank_files (id, company_id, environment, name, sha256, content, imported_at, imported_by)
                 VALUES (?1, ?2, ?3, 'bench.xml', ?4, ?5, ?6, 'system')",
                params![file_id, company, p, "0".repeat(64), bytes, now],
            )?;
            let statement = id("bst");
            tx.execute(
                "INSERT INTO bank_statements (id, company_id, environment, file_id, bank_account_id, message, version,
                     statement_id, sequence, currency, opening, closing)
                 VALUES (?1, ?2, ?3, ?4, ?5, 'statement', 'camt.053.001.08', 'BENCH', '1', 'EUR', 0, 0)",
                params![statement, company, p, file_id, account],
            )?;
            let entries: Vec<String> = lines.iter().map(|_| id("ben")).collect();
            let line_ids: Vec<String> = lines.iter().map(|_| id("bln")).collect();
            let mut entry = tx.prepare(
                "INSERT INTO bank_entries (id, company_id, environment, statement_id, bank_account_id, entry_key,
                     reference_key, identity, amount, currency, booked, booked_on, value_on, bank_reference, reversal, batch)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'EUR', 1, ?10, ?10, ?11, 0, 0)",
            )?;
            for (i, l) in lines.iter().enumerate() {
                let reference = format!("B{i:08}");
                entry.execute(params![
                    entries[i],
                    company,
                    p,
                    statement,
                    account,
                    format!("{day} {day} {} sum:{i:032x}", l.amount),
                    format!("{day} {} ref:{reference}", l.amount),
                    format!("ref:{reference}"),
                    l.amount,
                    day,
                    reference
                ])?;
            }
            let mut line = tx.prepare(
                "INSERT INTO bank_lines (id, company_id, environment, entry_id, bank_account_id, amount, currency,
                     booked_on, value_on, state, counterparty_name, remittance, reversal, imported_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'EUR', ?7, ?7, ?8, ?9, ?10, 0, ?11)",
            )?;
            for (i, l) in lines.iter().enumerate() {
                let state = if settles(i) { "settled" } else if i % 10 == 1 { "suggested" } else { "unmatched" };
                line.execute(params![
                    line_ids[i],
                    company,
                    p,
                    entries[i],
                    account,
                    l.amount,
                    day,
                    state,
                    l.counterparty.name,
                    l.remittance,
                    now
                ])?;
            }
            let settled: Vec<usize> = (0..lines.len().min(invoices.len())).filter(|i| settles(*i)).collect();
            let payments: Vec<String> = settled.iter().map(|_| id("pay")).collect();
            let mut balance = tx.prepare(
                "UPDATE invoices SET outstanding = 0, outstanding_book = 0, paid_on = ?2 WHERE id = ?1",
            )?;
            for i in &settled {
                balance.execute(params![invoices[*i].0, day])?;
            }
            let mut payment = tx.prepare(
                "INSERT INTO payments (id, company_id, environment, direction, invoice_id, currency, amount, amount_book,
                     method, paid_on, recorded_at, bank_line_id)
                 VALUES (?1, ?2, ?3, 'in', ?4, 'EUR', ?5, ?5, 'bank', ?6, ?7, ?8)",
            )?;
            for (k, i) in settled.iter().enumerate() {
                payment.execute(params![payments[k], company, p, invoices[*i].0, invoices[*i].2, day, now, line_ids[*i]])?;
            }
            let mut settlement = tx.prepare(
                "INSERT INTO bank_settlements (id, company_id, environment, line_id, kind, payment_id, target_kind,
                     target_id, number, amount, on_day, created_at)
                 VALUES (?1, ?2, ?3, ?4, 'payment', ?5, 'invoice', ?6, ?7, ?8, ?9, ?10)",
            )?;
            for (k, i) in settled.iter().enumerate() {
                settlement.execute(params![
                    id("bse"), company, p, line_ids[*i], payments[k], invoices[*i].0, number(*i), invoices[*i].2, day, now
                ])?;
            }
            let mut audit = tx.prepare(
                "INSERT INTO audit (company_id, environment, actor, act, subject, at)
                 VALUES (?1, ?2, 'system', 'payment.recorded', ?3, ?4)",
            )?;
            for payment in &payments {
                audit.execute(params![company, p, payment, now])?;
            }
            let mut journal = tx.prepare(
                "INSERT INTO journal (company_id, environment, entry, posted_on, account, debit, credit, detail)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )?;
            for (k, i) in settled.iter().enumerate() {
                let amount = invoices[*i].2;
                journal.execute(params![company, p, payments[k], day, "bank", amount, 0, account])?;
                journal.execute(params![company, p, payments[k], day, "receivables", 0, amount, invoices[*i].1])?;
            }
            let mut event = tx.prepare(
                "INSERT INTO events (id, company_id, environment, kind, subject, body, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?;
            for (k, i) in settled.iter().enumerate() {
                let body = format!("{{\"amountMinor\":\"{}\",\"event\":\"payment.recorded\",\"id\":\"{}\"}}", invoices[*i].2, payments[k]);
                event.execute(params![id("evt"), company, p, "payment.recorded", payments[k], body, now])?;
                event.execute(params![id("evt"), company, p, "invoice.paid", invoices[*i].0, body, now])?;
            }
            Ok::<(), kontor::error::Error>(())
        })
    })
    .unwrap();
    println!("{:.3}", started.elapsed().as_secs_f64());
}

/// One size, measured in this process (the statement written beforehand by
/// the parent into `file`): prints one line of figures.
fn run(n: usize, file: &str) {
    let camt = std::fs::read(file).expect("the statement file");
    let items = items(n);
    let started = Instant::now();
    let read = statements::read("bench.xml", &camt).expect("the statement reads");
    let reading = started.elapsed();
    let started = Instant::now();
    let mut ladder = Ladder::new(items, std::iter::empty(), 0);
    let (mut certain, mut suggested, mut unmatched) = (0, 0, 0);
    for (booked_on, line) in read
        .statements
        .iter()
        .flat_map(|s| &s.entries)
        .flat_map(|e| e.lines.iter().map(move |l| (e.booked_on, l)))
    {
        let facts = LineFacts {
            amount: line.amount,
            currency: "EUR".into(),
            iban: line
                .counterparty
                .iban
                .as_ref()
                .map(|i| i.as_str().to_string()),
            name: line.counterparty.name.clone(),
            remittance: line.remittance.clone(),
            end_to_end_id: line.end_to_end_id.clone(),
            creditor_references: line.creditor_references.clone(),
            day: booked_on,
        };
        match ladder.place(&facts) {
            Outcome::Certain(_) => certain += 1,
            Outcome::Suggested(_) => suggested += 1,
            Outcome::Unmatched => unmatched += 1,
        }
    }
    let matching = started.elapsed();
    println!(
        "{n} {} {:.3} {:.3} {:.1} {certain} {suggested} {unmatched}",
        camt.len(),
        reading.as_secs_f64(),
        matching.as_secs_f64(),
        peak_rss_mib()
    );
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--size") {
        run(args[i + 1].parse().expect("a size"), &args[i + 2]);
        return ExitCode::SUCCESS;
    }
    if let Some(i) = args.iter().position(|a| a == "--setup") {
        setup(
            args[i + 1].parse().expect("a size"),
            &args[i + 2],
            &args[i + 3],
        );
        return ExitCode::SUCCESS;
    }
    if let Some(i) = args.iter().position(|a| a == "--import") {
        import(&args[i + 1], &args[i + 2], &args[i + 3]);
        return ExitCode::SUCCESS;
    }
    if let Some(i) = args.iter().position(|a| a == "--floor") {
        floor(&args[i + 1], &args[i + 2], &args[i + 3]);
        return ExitCode::SUCCESS;
    }
    let dir = std::env::temp_dir().join(format!("kontor-bank-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    // (The figures of the read and the ladder alone follow the imports'.)
    println!("a camt.053.001.08 imported into books holding as many open invoices");
    println!(
        "{:>8} {:>9} {:>10} {:>10} {:>8} {:>9} {:>9} {:>9} {:>7}",
        "entries",
        "MB",
        "import s",
        "peak MiB",
        "settled",
        "suggested",
        "unmatched",
        "floor s",
        "import/floor"
    );
    let mut imports = Vec::new();
    for n in SIZES {
        let data = dir.join(format!("{n}.db"));
        let file = dir.join(format!("{n}-paying.xml"));
        let (data_s, file_s) = (
            data.to_string_lossy().to_string(),
            file.to_string_lossy().to_string(),
        );
        let out = Command::new(&args[0])
            .args(["--setup", &n.to_string(), &data_s, &file_s])
            .output()
            .expect("fill the books");
        let company = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if !out.status.success() || company.is_empty() {
            eprintln!(
                "filling {n} failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            return ExitCode::FAILURE;
        }
        let size = std::fs::metadata(&file).map_or(0, |m| m.len());
        // The floor's copy of the same filled books, before the import.
        let copy = dir.join(format!("{n}-floor.db"));
        let copy_s = copy.to_string_lossy().to_string();
        std::fs::copy(&data, &copy).expect("copy the filled books");
        let out = Command::new(&args[0])
            .args(["--import", &data_s, &company, &file_s])
            .output()
            .expect("import");
        let f: Vec<f64> = String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .map(|x| x.parse().unwrap_or(0.0))
            .collect();
        if f.len() < 5 {
            eprintln!(
                "importing {n} failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            return ExitCode::FAILURE;
        }
        let out = Command::new(&args[0])
            .args(["--floor", &copy_s, &company, &file_s])
            .output()
            .expect("floor");
        let Ok(bare) = String::from_utf8_lossy(&out.stdout).trim().parse::<f64>() else {
            eprintln!(
                "the floor of {n} failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            return ExitCode::FAILURE;
        };
        println!(
            "{:>8} {:>9.1} {:>10.3} {:>10.1} {:>8} {:>9} {:>9} {:>9.3} {:>12.2}",
            n,
            size as f64 / 1e6,
            f[0],
            f[1],
            f[2],
            f[3],
            f[4],
            bare,
            f[0] / bare
        );
        imports.push((n as f64, f[0], f[1], bare));
        for p in [&data, &file, &copy] {
            let _ = std::fs::remove_file(p);
        }
        for (base, end) in [
            (&data_s, "-wal"),
            (&data_s, "-shm"),
            (&copy_s, "-wal"),
            (&copy_s, "-shm"),
        ] {
            let _ = std::fs::remove_file(format!("{base}{end}"));
        }
    }
    let (a, b) = (imports[0], imports[imports.len() - 1]);
    println!(
        "import from {} to {} entries (x{:.0}): time x{:.1}, peak RSS x{:.1}; the floor's time x{:.1}",
        a.0,
        b.0,
        b.0 / a.0,
        b.1 / a.1,
        b.2 / a.2,
        b.3 / a.3
    );
    println!();
    println!("the read and the ladder alone (no storage)");
    println!(
        "{:>8} {:>9} {:>9} {:>9} {:>10} {:>8} {:>9} {:>9}",
        "entries", "MB", "read s", "match s", "peak MiB", "certain", "suggested", "unmatched"
    );
    let mut figures = Vec::new();
    for n in SIZES {
        let file = dir.join(format!("{n}.xml"));
        std::fs::write(&file, statement(n)).expect("write the statement");
        let out = Command::new(&args[0])
            .args(["--size", &n.to_string(), &file.to_string_lossy()])
            .output()
            .expect("run a size");
        let _ = std::fs::remove_file(&file);
        let text = String::from_utf8_lossy(&out.stdout);
        let f: Vec<f64> = text
            .split_whitespace()
            .map(|x| x.parse().unwrap_or(0.0))
            .collect();
        if f.len() < 8 {
            eprintln!("size {n} failed: {}", String::from_utf8_lossy(&out.stderr));
            return ExitCode::FAILURE;
        }
        println!(
            "{:>8} {:>9.1} {:>9.3} {:>9.3} {:>10.1} {:>8} {:>9} {:>9}",
            n,
            f[1] / 1e6,
            f[2],
            f[3],
            f[4],
            f[5],
            f[6],
            f[7]
        );
        figures.push(f);
    }
    let _ = std::fs::remove_dir(&dir);
    let (first, last) = (&figures[0], &figures[figures.len() - 1]);
    println!(
        "from {} to {} entries (x{:.0}): time x{:.1}, peak RSS x{:.1}",
        first[0],
        last[0],
        last[0] / first[0],
        (last[2] + last[3]) / (first[2] + first[3]),
        last[4] / first[4]
    );
    ExitCode::SUCCESS
}
