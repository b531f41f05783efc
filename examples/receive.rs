//! The receiving benchmark: 1,000 XRechnung files (CII and UBL mixed, made
//! from the XRechnung and EN 16931 cases of the ZUGFeRD corpus, each with
//! its own invoice number) and 100 Factur-X PDFs (written by kontor from
//! those cases), each received by the books as the console and the
//! mailbox receive a file (read, checked, kept byte for byte with its bill,
//! in a transaction of its own, in a fresh data file), one after another;
//! then the XML files again into another fresh data file from 8 threads at
//! once, as a server receives uploads and mail (the commits grouped); then
//! the same files read and checked alone. Prints files per second for each and the
//! process's peak RSS.
//!
//!   cargo run --release --example receive

use std::path::Path;
use std::time::{Duration, Instant};

use jiff::civil::Date;
use kontor::books::audit::Actor;
use kontor::books::company::{self, CompanyInput, NewCompany};
use kontor::books::received::{self, Channel, Incoming};
use kontor::documents::{cii, pdf, read};
use kontor::store::db::Db;
use kontor::store::tenant::{Environment, Tenant};

const XML_FILES: usize = 1_000;
const PDF_FILES: usize = 100;
/// The threads of the concurrent run.
const THREADS: usize = 8;

fn main() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/einvoices-in/zugferd-corpus/XML-Rechnung");
    let today = Date::constant(2026, 1, 1);
    let mut templates: Vec<(String, String)> = Vec::new();
    for folder in ["CII", "UBL"] {
        let mut entries: Vec<_> = std::fs::read_dir(corpus.join(folder))
            .expect("the fixtures")
            .map(|e| e.expect("a fixture").path())
            .filter(|p| {
                let name = p
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .to_string();
                (name.starts_with("XRECHNUNG_") || name.starts_with("EN16931_"))
                    && std::fs::metadata(p)
                        .map(|m| m.len() < 100_000)
                        .unwrap_or(false)
            })
            .collect();
        entries.sort();
        for path in entries {
            let text = std::fs::read_to_string(&path).expect("UTF-8");
            let number = read::file(text.as_bytes(), today)
                .expect("a fixture reads")
                .document
                .number;
            templates.push((text, number));
        }
    }
    // Each file its own number, so no two are the same document.
    let xml: Vec<Vec<u8>> = (0..XML_FILES)
        .map(|i| {
            let (text, number) = &templates[i % templates.len()];
            text.replacen(&format!(">{number}<"), &format!(">{number}-{i:04}<"), 1)
                .into_bytes()
        })
        .collect();
    let cases: Vec<_> = std::fs::read_dir(corpus.join("FX"))
        .expect("the fixtures")
        .map(|e| e.expect("a fixture").path())
        .filter(|p| {
            std::fs::metadata(p)
                .map(|m| m.len() < 200_000)
                .unwrap_or(false)
        })
        .map(|p| {
            read::file(&std::fs::read(p).expect("a fixture"), today)
                .expect("a fixture reads")
                .document
        })
        .collect();
    let pdfs: Vec<Vec<u8>> = (0..PDF_FILES)
        .map(|i| {
            let mut doc = cases[i % cases.len()].clone();
            doc.number = format!("{}-{i:03}", doc.number);
            doc.attachments.clear();
            let xml = cii::write(&doc, cii::Guideline::En16931).expect("CII");
            pdf::write(&doc, Some(&xml)).expect("a PDF")
        })
        .collect();
    let xml_bytes: usize = xml.iter().map(Vec::len).sum();
    let pdf_bytes: usize = pdfs.iter().map(Vec::len).sum();

    let dir = tempfile::tempdir().expect("a temporary folder");
    let (db, tenant) = fresh(&dir.path().join("one.db"));
    let (xml_kept_time, xml_kept) = receive(&db, &tenant, &xml, "xml", 1);
    let (pdf_kept_time, pdf_kept) = receive(&db, &tenant, &pdfs, "pdf", 1);
    // As a server receives uploads and mail at once: the commits of
    // concurrent writes are grouped (one fsync for several files).
    let (db, tenant) = fresh(&dir.path().join("eight.db"));
    let (xml_eight_time, xml_eight) = receive(&db, &tenant, &xml, "xml", THREADS);
    drop(db);

    let started = Instant::now();
    let mut valid = 0;
    for file in &xml {
        if read::file(file, today).expect("reads").valid() {
            valid += 1;
        }
    }
    let xml_time = started.elapsed();
    let started = Instant::now();
    for file in &pdfs {
        read::file(file, today).expect("reads");
    }
    let pdf_time = started.elapsed();

    println!("kontor receiving benchmark ({} templates)", templates.len());
    println!("received (read, checked, kept with its bill, one transaction each):");
    println!(
        "  {XML_FILES} XML files ({:.1} MB, {xml_kept} kept):  {:>6.0} files/s",
        xml_bytes as f64 / 1e6,
        XML_FILES as f64 / xml_kept_time.as_secs_f64()
    );
    println!(
        "  {PDF_FILES} Factur-X PDFs ({:.1} MB, {pdf_kept} kept): {:>6.0} files/s",
        pdf_bytes as f64 / 1e6,
        PDF_FILES as f64 / pdf_kept_time.as_secs_f64()
    );
    println!("received from {THREADS} threads at once (commits grouped), a fresh data file:");
    println!(
        "  {XML_FILES} XML files ({:.1} MB, {xml_eight} kept):  {:>6.0} files/s",
        xml_bytes as f64 / 1e6,
        XML_FILES as f64 / xml_eight_time.as_secs_f64()
    );
    println!("read and checked alone:");
    println!(
        "  {XML_FILES} XML files ({:.1} MB, {valid} valid): {:>6.0} files/s",
        xml_bytes as f64 / 1e6,
        XML_FILES as f64 / xml_time.as_secs_f64()
    );
    println!(
        "  {PDF_FILES} Factur-X PDFs ({:.1} MB):           {:>6.0} files/s",
        pdf_bytes as f64 / 1e6,
        PDF_FILES as f64 / pdf_time.as_secs_f64()
    );
    println!("  peak RSS: {:.1} MiB", peak_rss_mib());
}

/// A fresh data file at `path` with one German company, its tenant.
fn fresh(path: &Path) -> (Db, Tenant) {
    let db = Db::open(path, 2).expect("a data file");
    let new = NewCompany::check(CompanyInput {
        name: Some("Empfänger GmbH".into()),
        country: Some("DE".into()),
        currency: Some("EUR".into()),
        ..Default::default()
    })
    .expect("a company");
    let org = db.write(|tx| company::create(tx, new)).expect("created").id;
    (db, Tenant::new(&org, Environment::Production))
}

/// Receives every file, each in a transaction of its own, from `threads`
/// threads (file i on thread i mod `threads`): the time taken and how many
/// were kept.
fn receive(
    db: &Db,
    tenant: &Tenant,
    files: &[Vec<u8>],
    ending: &str,
    threads: usize,
) -> (Duration, usize) {
    let started = Instant::now();
    let kept: usize = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let mut kept = 0;
                    for (i, bytes) in files.iter().enumerate().skip(t).step_by(threads) {
                        let name = format!("{i}.{ending}");
                        let receipt = db
                            .write(|tx| {
                                received::receive(
                                    tx,
                                    tenant,
                                    &Actor::System,
                                    &Incoming {
                                        file_name: &name,
                                        bytes,
                                        channel: Channel::Console,
                                        channel_ref: None,
                                    },
                                )
                            })
                            .expect("received");
                        if receipt.state == "received" {
                            kept += 1;
                        }
                    }
                    kept
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a worker"))
            .sum()
    });
    (started.elapsed(), kept)
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
