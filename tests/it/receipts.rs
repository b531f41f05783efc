//! Bills with their receipts and posting dates: a late bill dated in a
//! closed period is booked on the first open day and counts in that
//! period's VAT return, the closed one unchanged; DATEV files it by its
//! posting date with its own date beside it; a plain PDF and a JPEG (made
//! from a real invoice by poppler, as a scanner or a PDF printer would)
//! become receipts kept byte for byte in the DATEV ZIP and the GoBD medium;
//! a file too large or of another kind, a second receipt and the same file
//! twice are refused with a sentence, nothing changed.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

use crate::adviser::{bill, file, kz, unzip};
use crate::support::{extf, World};

/// A real invoice PDF from the e-invoicing corpus.
fn corpus_pdf() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/einvoices-in/zugferd-corpus/XML-Rechnung/FX/EN16931_Einfach.pdf")
}

/// A plain PDF (the invoice printed again by poppler's cairo back end:
/// pages only, no XML inside) and a JPEG of its first page.
fn receipts(dir: &Path) -> (PathBuf, PathBuf) {
    let pdf = dir.join("beleg.pdf");
    let ran = Command::new("pdftocairo")
        .args(["-pdf"])
        .arg(corpus_pdf())
        .arg(&pdf)
        .status()
        .expect("poppler's pdftocairo (tests/run installs poppler-utils)");
    assert!(ran.success());
    let jpeg_base = dir.join("scan");
    let ran = Command::new("pdftoppm")
        .args(["-jpeg", "-r", "40", "-singlefile"])
        .arg(corpus_pdf())
        .arg(&jpeg_base)
        .status()
        .expect("poppler's pdftoppm");
    assert!(ran.success());
    (pdf, dir.join("scan.jpg"))
}

fn trial(w: &World, as_of: &str) -> Value {
    w.data.ok(&[
        "books",
        "trial-balance",
        "--company",
        &w.company,
        "--as-of",
        as_of,
    ])
}

fn vat(w: &World, period: &str) -> Value {
    w.data
        .ok(&["vat", "return", "--company", &w.company, "--period", period])
}

#[test]
fn a_late_bill_books_into_the_first_open_period_and_its_vat_return() {
    let w = World::new();
    w.data.ok(&[
        "company",
        "set",
        &w.company,
        "--datev-adviser",
        "1001",
        "--datev-client",
        "1",
    ]);
    bill(&w, "Papier AG", "P-1", "2026-03-10", "10000", "1900", &[]);
    w.data.ok(&[
        "books",
        "close",
        "--company",
        &w.company,
        "--through",
        "2026-03-31",
    ]);
    let march_books = trial(&w, "2026-03-31");
    let march_vat = vat(&w, "2026-03");
    // Dated in March, which is closed: a posting date there is refused,
    // one before the document date too; nothing is recorded.
    let late = |rest: &[&str]| {
        let mut args = vec![
            "purchase",
            "record",
            "--company",
            &w.company,
            "--supplier",
            "Spät GmbH",
            "--document-number",
            "S-9",
            "--date",
            "2026-03-20",
            "--due",
            "2026-04-20",
            "--currency",
            "EUR",
            "--net",
            "20000",
            "--tax",
            "3800",
        ];
        args.extend(rest);
        w.data.console(&args)
    };
    let (ok, _, err) = late(&["--posted", "2026-03-25"]);
    assert!(
        !ok && err.contains("--posted") && err.contains("closed"),
        "{err}"
    );
    let (ok, _, err) = late(&["--posted", "2026-03-19"]);
    assert!(
        !ok && err.contains("--posted") && err.contains("before"),
        "{err}"
    );
    // Without one it is booked on 1 April.
    let (ok, out, err) = late(&[]);
    assert!(ok, "{err}");
    let recorded = out;
    assert_eq!(
        (&recorded["documentDate"], &recorded["postedOn"]),
        (&json!("2026-03-20"), &json!("2026-04-01"))
    );
    // March as it was filed; April holds the bill's input tax.
    assert_eq!(trial(&w, "2026-03-31"), march_books);
    assert_eq!(kz(&vat(&w, "2026-03")), kz(&march_vat));
    assert_eq!(kz(&vat(&w, "2026-04"))["66"], "38.00");
    // DATEV files it by its posting date, its own date beside it.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("april.zip");
    w.data.ok(&[
        "export",
        "datev",
        "--company",
        &w.company,
        "--from",
        "2026-04-01",
        "--to",
        "2026-04-30",
        "--out",
        out.to_str().unwrap(),
    ]);
    let files = unzip(&out);
    let read = extf::read(
        file(&files, "EXTF_Buchungsstapel_"),
        &extf::booking_headings(),
    );
    let bookings = extf::bookings(&read);
    let late = bookings.iter().find(|b| b.document == "S-9").unwrap();
    assert_eq!(late.date, "0104");
    assert_eq!(
        late.info,
        ("Rechnungsdatum".to_string(), "20.03.2026".to_string())
    );
}

#[test]
fn a_plain_pdf_and_a_jpeg_are_kept_as_receipts_byte_for_byte_in_datev_and_gobd() {
    let w = World::new();
    w.data.ok(&[
        "company",
        "set",
        &w.company,
        "--datev-adviser",
        "1001",
        "--datev-client",
        "1",
    ]);
    let dir = tempfile::tempdir().unwrap();
    let (pdf, jpeg) = receipts(dir.path());
    let pdf_bytes = std::fs::read(&pdf).unwrap();
    let jpeg_bytes = std::fs::read(&jpeg).unwrap();
    assert!(pdf_bytes.starts_with(b"%PDF-") && jpeg_bytes.starts_with(&[0xFF, 0xD8]));
    let recorded = w.data.ok(&[
        "purchase",
        "record",
        "--company",
        &w.company,
        "--supplier",
        "Papier AG",
        "--document-number",
        "P-1",
        "--date",
        "2026-05-04",
        "--due",
        "2026-05-18",
        "--currency",
        "EUR",
        "--net",
        "10000",
        "--tax",
        "1900",
        "--receipt",
        pdf.to_str().unwrap(),
    ]);
    assert_eq!(recorded["receipt"]["mediaType"], json!("application/pdf"));
    assert_eq!(
        recorded["receipt"]["sha256"],
        json!(hex::encode(<sha2::Sha256 as sha2::Digest>::digest(
            &pdf_bytes
        )))
    );
    let second = bill(&w, "Bäckerei", "B-7", "2026-05-06", "1000", "70", &[]);
    let attached = w
        .data
        .ok(&["purchase", "receipt", &second, jpeg.to_str().unwrap()]);
    assert_eq!(attached["receipt"]["mediaType"], json!("image/jpeg"));

    // Refused, each with a sentence, nothing changed.
    let count = |w: &World| -> i64 {
        rusqlite::Connection::open(&w.data.path)
            .unwrap()
            .query_row("SELECT count(*) FROM received_files", [], |r| r.get(0))
            .unwrap()
    };
    let before = count(&w);
    let (ok, _, err) = w
        .data
        .console(&["purchase", "receipt", &second, pdf.to_str().unwrap()]);
    assert!(!ok && err.contains("has its receipt already"), "{err}");
    let third = bill(&w, "Kiosk", "K-1", "2026-05-07", "500", "35", &[]);
    let (ok, _, err) = w
        .data
        .console(&["purchase", "receipt", &third, jpeg.to_str().unwrap()]);
    assert!(!ok && err.contains("same file"), "{err}");
    let text = dir.path().join("beleg.txt");
    std::fs::write(&text, "Quittung 5,00 EUR").unwrap();
    let (ok, _, err) = w
        .data
        .console(&["purchase", "receipt", &third, text.to_str().unwrap()]);
    assert!(
        !ok && err.contains("--receipt") && err.contains("no PDF, JPEG or PNG"),
        "{err}"
    );
    let big = dir.path().join("gross.pdf");
    let mut huge = b"%PDF-1.4\n".to_vec();
    huge.resize(30 * 1024 * 1024, b' ');
    std::fs::write(&big, &huge).unwrap();
    let bills_before: i64 = rusqlite::Connection::open(&w.data.path)
        .unwrap()
        .query_row("SELECT count(*) FROM purchases", [], |r| r.get(0))
        .unwrap();
    let (ok, _, err) = w.data.console(&[
        "purchase",
        "record",
        "--company",
        &w.company,
        "--supplier",
        "Gross AG",
        "--document-number",
        "G-1",
        "--date",
        "2026-05-08",
        "--due",
        "2026-05-08",
        "--currency",
        "EUR",
        "--net",
        "100",
        "--tax",
        "19",
        "--receipt",
        big.to_str().unwrap(),
    ]);
    assert!(!ok && err.contains("20 MB"), "{err}");
    let bills_after: i64 = rusqlite::Connection::open(&w.data.path)
        .unwrap()
        .query_row("SELECT count(*) FROM purchases", [], |r| r.get(0))
        .unwrap();
    assert_eq!(bills_after, bills_before);
    assert_eq!(count(&w), before);

    // The DATEV ZIP with its documents holds both, byte for byte.
    let out = dir.path().join("mai.zip");
    w.data.ok(&[
        "export",
        "datev",
        "--company",
        &w.company,
        "--from",
        "2026-05-01",
        "--to",
        "2026-05-31",
        "--documents",
        "--out",
        out.to_str().unwrap(),
    ]);
    let files = unzip(&out);
    assert_eq!(
        files.get("Belege/P-1.pdf"),
        Some(&pdf_bytes),
        "{:?}",
        files.keys()
    );
    assert_eq!(
        files.get("Belege/B-7.jpg"),
        Some(&jpeg_bytes),
        "{:?}",
        files.keys()
    );
    // The GoBD medium lists them with the bills and keeps them.
    let gobd = dir.path().join("gobd");
    w.data.ok(&[
        "export",
        "gobd",
        "--company",
        &w.company,
        "--year",
        "2026",
        "--out",
        gobd.to_str().unwrap(),
    ]);
    let received = gobd.join("documents/received");
    let kept: Vec<Vec<u8>> = std::fs::read_dir(&received)
        .unwrap()
        .map(|e| std::fs::read(e.unwrap().path()).unwrap())
        .collect();
    assert!(kept.contains(&pdf_bytes) && kept.contains(&jpeg_bytes));
    let bills = std::fs::read_to_string(gobd.join("bills.csv")).unwrap();
    assert!(
        bills.contains("\"beleg.pdf\"") && bills.contains("\"scan.jpg\""),
        "{bills}"
    );
    assert!(
        bills.lines().next().unwrap().contains("posted_on"),
        "{bills}"
    );
}
