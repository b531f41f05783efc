//! The bank benchmark: a camt.053.001.08 statement of N entries read and
//! matched against N open invoices, for N = 10,000, 30,000 and 100,000,
//! each size in a process of its own so its peak RSS is its own.
//!
//!   cargo run --release --example bank
//!
//! Each entry pays one invoice: most by number in the remittance (certain),
//! some by creditor reference (certain), some partially (suggested), some by
//! an unknown payer (unmatched). It prints, per size: the statement's size,
//! the time to read it, the time to match its lines, and the process's peak
//! RSS (VmHWM), then how time and memory grow from the smallest size.

use std::process::{Command, ExitCode};
use std::time::Instant;

use jiff::civil::date;
use kontor::books::bank::matching::{Item, Ladder, LineFacts, Outcome};
use kontor::books::settlement::TargetKind;
use kontor::documents::statements;
use kontor::rules::creditor_reference::CreditorReference;

#[path = "../tests/it/support/statements.rs"]
mod written;

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
        })
        .collect()
}

/// The statement paying `n` invoices.
fn statement(n: usize) -> String {
    let entries: Vec<written::Entry> = (0..n)
        .map(|i| {
            let mut tx = written::Tx {
                amount: amount(i),
                name: format!("Kunde {} GmbH", i % 5_000),
                remittance: format!("Rechnung {}", number(i)),
                ..written::Tx::default()
            };
            match i % 10 {
                0 => {
                    tx.remittance.clear();
                    tx.reference = CreditorReference::of_number(&number(i)).map(|r| r.as_str().to_string());
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
    written::camt053("DE36760260000123456789", "BENCH", 1, 0, "2026-11-18", &entries)
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
    for line in read.statements.iter().flat_map(|s| &s.entries).flat_map(|e| &e.lines) {
        let facts = LineFacts {
            amount: line.amount,
            currency: "EUR".into(),
            iban: line.counterparty.iban.as_ref().map(|i| i.as_str().to_string()),
            name: line.counterparty.name.clone(),
            remittance: line.remittance.clone(),
            end_to_end_id: line.end_to_end_id.clone(),
            creditor_references: line.creditor_references.clone(),
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
    let dir = std::env::temp_dir().join(format!("kontor-bank-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    println!("bank statement read and matched against as many open invoices (camt.053.001.08)");
    println!("{:>8} {:>9} {:>9} {:>9} {:>10} {:>8} {:>9} {:>9}", "entries", "MB", "read s", "match s", "peak MiB", "certain", "suggested", "unmatched");
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
        let f: Vec<f64> = text.split_whitespace().map(|x| x.parse().unwrap_or(0.0)).collect();
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
