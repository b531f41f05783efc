//! The receiving benchmark: 1,000 XRechnung files (CII and UBL mixed, made
//! from the XRechnung and EN 16931 cases of the ZUGFeRD corpus, each with
//! its own invoice number) and 100 Factur-X PDFs (written by kontor from
//! those cases), each read and checked; prints files per second for each
//! kind and the process's peak RSS.
//!
//!   cargo run --release --example receive

use std::path::Path;
use std::time::Instant;

use jiff::civil::Date;
use kontor::documents::{cii, pdf, read};

const XML_FILES: usize = 1_000;
const PDF_FILES: usize = 100;

fn main() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/einvoices-in/zugferd-corpus/XML-Rechnung");
    let today = Date::constant(2026, 1, 1);
    let mut templates: Vec<(String, String)> = Vec::new();
    for folder in ["CII", "UBL"] {
        let mut entries: Vec<_> = std::fs::read_dir(corpus.join(folder))
            .expect("the fixtures")
            .map(|e| e.expect("a fixture").path())
            .filter(|p| {
                let name = p.file_name().unwrap_or_default().to_string_lossy().to_string();
                (name.starts_with("XRECHNUNG_") || name.starts_with("EN16931_"))
                    && std::fs::metadata(p).map(|m| m.len() < 100_000).unwrap_or(false)
            })
            .collect();
        entries.sort();
        for path in entries {
            let text = std::fs::read_to_string(&path).expect("UTF-8");
            let number = read::file(text.as_bytes(), today).expect("a fixture reads").document.number;
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
        .filter(|p| std::fs::metadata(p).map(|m| m.len() < 200_000).unwrap_or(false))
        .map(|p| read::file(&std::fs::read(p).expect("a fixture"), today).expect("a fixture reads").document)
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
    println!(
        "  {XML_FILES} XML files ({:.1} MB, {valid} valid): {:>8.0} files/s",
        xml_bytes as f64 / 1e6,
        XML_FILES as f64 / xml_time.as_secs_f64()
    );
    println!(
        "  {PDF_FILES} Factur-X PDFs ({:.1} MB):      {:>8.0} files/s",
        pdf_bytes as f64 / 1e6,
        PDF_FILES as f64 / pdf_time.as_secs_f64()
    );
    println!("  peak RSS: {:.1} MiB", peak_rss_mib());
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
