//! For the tax adviser and the tax office (issue 21): one month of books
//! with every case (sales at 19 % and 7 %, an intra-community supply, an
//! export, a reverse-charge service sold to an EU business, one bought,
//! bills at both rates, a credit note, a partial payment, a bank fee), its
//! VAT return and EC sales list against figures worked out by hand, its
//! DATEV export read back by the test's own reader and by an outside one,
//! and its GoBD data medium read back against its index.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::support::extf::{self, Booking};
use crate::support::{unique, Client, World};

/// The DATEV numbers the scenario's company sets.
const ADVISER: &str = "29098";
const CLIENT: &str = "55003";

/// What the scenario made: the company's partners and documents.
struct Month {
    w: World,
    kunde: String,
    invoice_a: String,
    invoice_e: String,
    correction: String,
}

fn customer(c: &Client, key: &str, body: Value) -> Value {
    let a = c.post(key, "/v1/customers", &unique(), &body);
    assert_eq!(a.status, 201, "{:?}", a.body);
    a.body
}

/// Adds a line of one unit at `price` cents with the options `rest`.
pub(crate) fn line(w: &World, draft: &str, price: &str, rest: &[&str]) {
    let mut args = vec![
        "draft",
        "line",
        draft,
        "--description",
        "Arbeit",
        "--quantity",
        "1",
        "--unit-price",
        price,
    ];
    args.extend(rest);
    w.data.ok(&args);
}

pub(crate) fn issue(w: &World, draft: &str, on: &str) -> String {
    let issued = w
        .data
        .ok(&["draft", "issue", draft, "--on", on, "--delivered-on", on]);
    issued["number"].as_str().unwrap().to_string()
}

/// Records a bill of `supplier` dated and due `date`; `rest` adds options.
pub(crate) fn bill(
    w: &World,
    supplier: &str,
    number: &str,
    date: &str,
    net: &str,
    tax: &str,
    rest: &[&str],
) -> String {
    let mut args = vec![
        "purchase",
        "record",
        "--company",
        &w.company,
        "--supplier",
        supplier,
        "--document-number",
        number,
        "--date",
        date,
        "--due",
        date,
        "--currency",
        "EUR",
        "--net",
        net,
        "--tax",
        tax,
    ];
    args.extend(rest);
    w.data.ok(&args)["id"].as_str().unwrap().to_string()
}

/// October 2026 of a German company with every case of the issue.
fn month() -> Month {
    let w = World::new();
    let c = w.client();
    let key = w.live.clone();
    w.data.ok(&[
        "company",
        "set",
        &w.company,
        "--chart",
        "skr03",
        "--datev-adviser",
        ADVISER,
        "--datev-client",
        CLIENT,
    ]);
    let kunde = customer(
        &c,
        &key,
        json!({"name": "Kunde Müller KG", "street": "Ring 2", "postalCode": "20095", "city": "Hamburg", "country": "DE"}),
    );
    let bau = customer(
        &c,
        &key,
        json!({"name": "Bau GmbH", "street": "Ring 1", "postalCode": "1010", "city": "Wien", "country": "AT", "vatId": "ATU13585627"}),
    );
    let acme = customer(
        &c,
        &key,
        json!({"name": "Acme Inc.", "street": "1 Main St", "postalCode": "10001", "city": "New York", "country": "US"}),
    );
    let handel = customer(
        &c,
        &key,
        json!({"name": "Handel BV", "street": "Dam 1", "postalCode": "1012 JS", "city": "Amsterdam", "country": "NL", "vatId": "NL004495445B01"}),
    );

    // A: 1,000.99 at 19 % (tax 190.19) and 500.50 at 7 % (tax 35.04).
    let a = c.draft(&key, &kunde);
    line(&w, &a, "100099", &["--tax-rate", "19"]);
    line(&w, &a, "50050", &["--tax-rate", "7"]);
    let invoice_a = issue(&w, &a, "2026-10-01");
    // B: 2,000.00 intra-community supply of goods to Austria.
    let b = c.draft(&key, &bau);
    line(
        &w,
        &b,
        "200000",
        &["--vat-category", "K", "--exemption-code", "VATEX-EU-IC"],
    );
    issue(&w, &b, "2026-10-02");
    // C: 3,000.00 exported to the United States.
    let d = c.draft(&key, &acme);
    line(
        &w,
        &d,
        "300000",
        &["--vat-category", "G", "--exemption-code", "VATEX-EU-G"],
    );
    issue(&w, &d, "2026-10-05");
    // D: 800.00 service to a Dutch business under the reverse charge.
    let d = c.draft(&key, &handel);
    line(
        &w,
        &d,
        "80000",
        &[
            "--vat-category",
            "AE",
            "--exemption-reason",
            "Steuerschuldnerschaft des Leistungsempfängers",
            "--exemption-code",
            "VATEX-EU-AE",
        ],
    );
    issue(&w, &d, "2026-10-06");
    // E: 200.00 at 19 %, cancelled by a credit note two days later.
    let e = c.draft(&key, &kunde);
    line(&w, &e, "20000", &["--tax-rate", "19"]);
    let invoice_e = issue(&w, &e, "2026-10-07");
    let cancelled = w.data.ok(&[
        "invoice",
        "cancel",
        "--company",
        &w.company,
        &invoice_e,
        "--reason",
        "Irrtum",
        "--on",
        "2026-10-08",
    ]);
    let correction = cancelled["correction"]["number"]
        .as_str()
        .or_else(|| cancelled["number"].as_str())
        .map(str::to_string)
        .unwrap_or_else(|| panic!("the correction's number in {cancelled}"));
    // Bills at 19 % and 7 %; the second's number has characters DATEV
    // does not take.
    bill(
        &w,
        "Büro € Bedarf GmbH",
        "B-4711",
        "2026-10-10",
        "40000",
        "7600",
        &["--tax-rate", "19"],
    );
    bill(
        &w,
        "Druckerei Nord",
        "RG 2026/10#7",
        "2026-10-11",
        "10000",
        "700",
        &["--tax-rate", "7"],
    );
    // 500.00 of cloud services from Ireland under the reverse charge.
    bill(
        &w,
        "Cloud Services Ltd",
        "INV-9001",
        "2026-10-12",
        "50000",
        "0",
        &["--reverse-charge", "--supplier-vat-id", "IE6388047V"],
    );
    // 1,000.00 of invoice A paid.
    w.data.ok(&[
        "payment",
        "record",
        "--company",
        &w.company,
        "--invoice",
        &invoice_a,
        "--amount",
        "100000",
        "--on",
        "2026-10-20",
    ]);
    // The bank fee: without a bank book on this branch, the bank's charge
    // is recorded as its bill (tax-exempt financial service) and paid.
    let fee = bill(
        &w,
        "Sparkasse Hamburg",
        "Entgelt 10/2026",
        "2026-10-31",
        "1250",
        "0",
        &["--tax-rate", "0"],
    );
    w.data.ok(&[
        "purchase",
        "pay",
        &fee,
        "--amount",
        "1250",
        "--on",
        "2026-10-31",
    ]);
    Month {
        kunde: kunde["id"].as_str().unwrap().to_string(),
        w,
        invoice_a,
        invoice_e,
        correction,
    }
}

pub(crate) fn kz(figures: &Value) -> BTreeMap<String, String> {
    figures["kz"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
        .collect()
}

/// The files of a ZIP by name.
pub(crate) fn unzip(path: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut archive = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
    let mut out = BTreeMap::new();
    for i in 0..archive.len() {
        let mut file = archive.by_index(i).unwrap();
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).unwrap();
        out.insert(file.name().unwrap().to_string(), bytes);
    }
    out
}

fn export(m: &Month, dir: &Path, name: &str, extra: &[&str]) -> (Value, BTreeMap<String, Vec<u8>>) {
    let out = dir.join(name);
    let out_text = out.to_str().unwrap().to_string();
    let mut args = vec![
        "export",
        "datev",
        "--company",
        &m.w.company,
        "--from",
        "2026-10-01",
        "--to",
        "2026-10-31",
        "--out",
        &out_text,
    ];
    args.extend(extra);
    let printed = m.w.data.ok(&args);
    (printed, unzip(&out))
}

pub(crate) fn file<'a>(files: &'a BTreeMap<String, Vec<u8>>, prefix: &str) -> &'a [u8] {
    let found: Vec<_> = files
        .iter()
        .filter(|(n, _)| n.starts_with(prefix))
        .collect();
    assert_eq!(
        found.len(),
        1,
        "one {prefix}* in {:?}",
        files.keys().collect::<Vec<_>>()
    );
    found[0].1
}

/// Each account's total over the bookings, debit positive (cents).
pub(crate) fn totals(bookings: &[Booking]) -> BTreeMap<u32, i64> {
    let mut out = BTreeMap::new();
    for b in bookings {
        let signed = if b.side == "S" { b.amount } else { -b.amount };
        *out.entry(b.account).or_insert(0) += signed;
        *out.entry(b.contra).or_insert(0) -= signed;
    }
    out.retain(|_, v| *v != 0);
    out
}

/// The outside reader's venv, installed by tests/interop/datev-install.sh.
fn outside_reader() -> PathBuf {
    let python = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/datev-venv/bin/python");
    assert!(
        python.exists(),
        "the outside DATEV reader is missing: tests/interop/datev-install.sh installs it (.ci/run and the README's test command run it before cargo test)"
    );
    python
}

#[test]
fn a_month_with_every_case_gives_the_vat_return_the_ec_sales_list_and_the_datev_export_worked_out_by_hand(
) {
    let m = month();
    let w = &m.w;
    let dir = tempfile::tempdir().unwrap();

    // The owner gives the first customer another number before any export.
    w.data.ok(&[
        "company",
        "account-number",
        &w.company,
        "--partner",
        &m.kunde,
        "--side",
        "customer",
        "--number",
        "12345",
    ]);

    // The VAT return of October, every Kz worked out by hand.
    let vat = w.data.ok(&[
        "vat",
        "return",
        "--company",
        &w.company,
        "--period",
        "2026-10",
    ]);
    let expected: BTreeMap<String, String> = [
        // 1,000.99 + 200.00 − 200.00 at 19 %, cents dropped.
        ("81", "1000"),
        ("86", "500"),
        ("41", "2000"),
        ("43", "3000"),
        ("21", "800"),
        // The reverse charge bought: 500.00 and 19 % of it.
        ("46", "500"),
        ("47", "95.00"),
        // 76.00 + 7.00 of the bills.
        ("66", "83.00"),
        ("67", "95.00"),
        // 190.00 + 35.00 (the form's tax of Kz 81 and 86) + 95.00 − 83.00 − 95.00
        ("83", "142.00"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    assert_eq!(kz(&vat), expected, "{vat:#}");
    assert_eq!(vat["period"], json!("2026-10"));
    assert_eq!(
        (vat["from"].clone(), vat["to"].clone()),
        (json!("2026-10-01"), json!("2026-10-31"))
    );
    assert_eq!(vat["final"], json!(false));
    // The form's tax of Kz 81 beside the booked one.
    assert_eq!(vat["tax"]["81"], json!("190.00"));
    assert_eq!(vat["bookedTax"]["81"], json!("190.19"));
    assert_eq!(vat["difference"]["81"], json!("-0.19"));
    assert_eq!(vat["tax"]["86"], json!("35.00"));
    assert_eq!(vat["bookedTax"]["86"], json!("35.04"));
    // Each figure's postings: Kz 81 is invoice A's, E's and the credit note's.
    let behind: Vec<i64> = vat["postings"]["81"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["amount"].as_i64().unwrap())
        .collect();
    assert_eq!(behind, vec![100_099, 20_000, -20_000]);
    // … each naming its document: kind, number and id.
    let documents = |kz: &str| -> Vec<(String, String)> {
        vat["postings"][kz]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                let d = &p["document"];
                assert!(
                    d["id"]
                        .as_str()
                        .is_some_and(|id| id.starts_with("inv_") || id.starts_with("pur_")),
                    "{p}"
                );
                (
                    d["kind"].as_str().unwrap().to_string(),
                    d["number"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let named = |kind: &str, number: &str| (kind.to_string(), number.to_string());
    assert_eq!(
        documents("81"),
        [
            named("invoice", &m.invoice_a),
            named("invoice", &m.invoice_e),
            named("creditNote", &m.correction)
        ]
    );
    assert_eq!(
        documents("66"),
        [named("bill", "B-4711"), named("bill", "RG 2026/10#7")]
    );
    assert_eq!(documents("46"), [named("bill", "INV-9001")]);
    assert_eq!(documents("67"), [named("bill", "INV-9001")]);
    for kz in expected.keys().filter(|k| *k != "83") {
        assert!(
            vat["postings"][kz]
                .as_array()
                .is_some_and(|p| !p.is_empty()),
            "Kz {kz} lists its postings"
        );
    }
    // A quarter holds the same month.
    let q = w.data.ok(&[
        "vat",
        "return",
        "--company",
        &w.company,
        "--period",
        "2026-Q4",
    ]);
    assert_eq!(kz(&q), expected);
    let (ok, _, err) = w.data.console(&[
        "vat",
        "return",
        "--company",
        &w.company,
        "--period",
        "2026-13",
    ]);
    assert!(!ok && err.contains("--period"), "{err}");

    // The EC sales list: the Austrian goods and the Dutch service.
    let ec = w.data.ok(&[
        "vat",
        "ec-sales",
        "--company",
        &w.company,
        "--period",
        "2026-Q4",
    ]);
    assert_eq!(
        ec["rows"],
        json!([
            {"vatId": "ATU13585627", "country": "AT", "amount": "2000", "kind": "L"},
            {"vatId": "NL004495445B01", "country": "NL", "amount": "800", "kind": "S"},
        ])
    );

    // The DATEV export, preliminary: the books are open.
    let (printed, files) = export(&m, dir.path(), "oktober.zip", &[]);
    assert_eq!(printed["export"]["final"], json!(false));
    assert_eq!(printed["export"]["bookings"], json!(13));
    let stapel = file(&files, "EXTF_Buchungsstapel_20261001_20261031");
    let read = extf::read(stapel, &extf::booking_headings());
    assert_eq!(
        read.headings.len(),
        125,
        "the heading row of Buchungsstapel 13"
    );
    let h = &read.header;
    assert_eq!(&h[1..5], ["700", "21", "Buchungsstapel", "13"]);
    assert_eq!(
        &h[10..16],
        [ADVISER, CLIENT, "20260101", "4", "20261001", "20261031"]
    );
    assert!(h[16].contains("vorläufig"), "{h:?}");
    assert_eq!(
        (h[20].as_str(), h[21].as_str(), h[26].as_str()),
        ("0", "EUR", "03")
    );
    let bookings = extf::bookings(&read);
    assert_eq!(
        bookings.len(),
        13,
        "one booking per posting pair: {bookings:#?}"
    );
    // Every account's total, worked out by hand: the automatic accounts
    // hold the gross amounts, the supplier's accounts the bills.
    let expected: BTreeMap<u32, i64> = [
        (12345, 172_672 + 23_800 - 23_800 - 100_000),
        (8400, -119_118),
        (8300, -53_554),
        (10000, 200_000),
        (8125, -200_000),
        (10001, 300_000),
        (8120, -300_000),
        (10002, 80_000),
        (8336, -80_000),
        (1200, 100_000 - 1_250),
        (70000, -47_600),
        (70001, -10_700),
        (4900, 47_600 + 10_700 + 1_250),
        (70002, -50_000),
        (3123, 50_000),
    ]
    .into();
    assert_eq!(totals(&bookings), expected);
    // Debit equals credit per document, and every account is of the chart
    // or a personal account in its range.
    let mut by_document: BTreeMap<&str, i64> = BTreeMap::new();
    let chart = [8400, 8300, 8125, 8120, 8336, 1200, 4900, 3123];
    for b in &bookings {
        *by_document.entry(&b.document).or_insert(0) += 0;
        for n in [b.account, b.contra] {
            assert!(
                chart.contains(&n) || (10_000..=99_999).contains(&n),
                "{n} in {b:?}"
            );
        }
        let personal = [b.account, b.contra].into_iter().find(|n| *n >= 10_000);
        if let Some(p) = personal {
            let supplier_side =
                b.text.starts_with("Eingangsrechnung") || b.text.starts_with("Zahlung ");
            let range = if supplier_side {
                70_000..=99_999
            } else {
                10_000..=69_999
            };
            assert!(range.contains(&p), "{p} of {b:?}");
        }
    }
    let per_document: BTreeMap<String, i64> =
        bookings.iter().fold(BTreeMap::new(), |mut acc, b| {
            let signed = if b.side == "S" { b.amount } else { -b.amount };
            *acc.entry(format!("{}:{}", b.document, b.account))
                .or_insert(0) += signed;
            *acc.entry(format!("{}:{}", b.document, b.contra))
                .or_insert(0) -= signed;
            acc
        });
    for document in by_document.keys() {
        let sum: i64 = per_document
            .iter()
            .filter(|(k, _)| k.starts_with(&format!("{document}:")))
            .map(|(_, v)| v)
            .sum();
        assert_eq!(sum, 0, "debit equals credit in {document}");
    }
    // Invoice A at two rates: two bookings on the automatic accounts.
    let a: Vec<&Booking> = bookings
        .iter()
        .filter(|b| b.document == m.invoice_a && b.contra != 1200 && b.account != 1200)
        .collect();
    assert_eq!(
        a.iter()
            .map(|b| (
                b.account,
                b.contra,
                b.amount,
                b.side.as_str(),
                b.date.as_str()
            ))
            .collect::<Vec<_>>(),
        vec![
            (12345, 8400, 119_118, "S", "0110"),
            (12345, 8300, 53_554, "S", "0110")
        ]
    );
    // The partial payment: the bank against the customer.
    assert!(bookings
        .iter()
        .any(
            |b| (b.account, b.contra, b.amount, b.side.as_str()) == (1200, 12345, 100_000, "S")
                && b.document == m.invoice_a
        ));
    // Bills: gross with BU 9 and 8 on 4900; Belegfeld 1 with `#` and the blank replaced.
    assert!(bookings.iter().any(|b| (
        b.account,
        b.contra,
        b.amount,
        b.bu.as_str(),
        b.document.as_str()
    ) == (70000, 4900, 47_600, "9", "B-4711")));
    assert!(bookings.iter().any(|b| (
        b.account,
        b.contra,
        b.amount,
        b.bu.as_str(),
        b.document.as_str()
    ) == (70001, 4900, 10_700, "8", "RG-2026/10-7")));
    // The reverse charge bought: the net on the automatic account 3123.
    assert!(bookings
        .iter()
        .any(|b| (b.account, b.contra, b.amount, b.bu.as_str()) == (70002, 3123, 50_000, "")));
    // The credit note carries its number and the invoice it corrects.
    let credit = bookings
        .iter()
        .find(|b| b.document == m.correction)
        .expect("the credit note's booking");
    assert_eq!(
        (
            credit.account,
            credit.contra,
            credit.amount,
            credit.side.as_str()
        ),
        (12345, 8400, 23_800, "H")
    );
    assert_eq!(
        credit.document2,
        m.invoice_e.chars().take(12).collect::<String>()
    );
    // Windows-1252: ü and € are single bytes, no UTF-8 anywhere.
    assert!(stapel.windows(2).all(|w| w != [0xC3, 0xBC]), "no UTF-8 ü");
    assert!(
        stapel.contains(&0xFC) && stapel.contains(&0x80),
        "ü and € in Windows-1252"
    );
    assert!(bookings.iter().any(|b| b.text.contains("Kunde Müller KG")));
    assert!(bookings
        .iter()
        .any(|b| b.text.contains("Büro € Bedarf GmbH")));

    // The personal accounts of the partners the bookings name.
    let partners = extf::read_partners(file(&files, "EXTF_Debitoren_Kreditoren_20261001_20261031"));
    let accounts: Vec<&str> = partners.rows.iter().map(|r| r["Konto"].as_str()).collect();
    assert_eq!(
        accounts,
        ["10000", "10001", "10002", "12345", "70000", "70001", "70002", "70003"]
    );
    let bau = partners
        .rows
        .iter()
        .find(|r| r["Konto"] == "10000")
        .unwrap();
    assert_eq!(
        (bau["EU-Land"].as_str(), bau["EU-UStID"].as_str()),
        ("AT", "U13585627")
    );
    assert_eq!(partners.header[2], "16");

    // The outside reader reads the same bookings to the same totals.
    let summary = dir.path().join("summary.json");
    let accounts: BTreeMap<String, i64> =
        expected.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    std::fs::write(&summary, json!({"chart": "skr03", "adviser": 29098, "client": 55003, "final": false, "bookings": 13, "accounts": accounts}).to_string()).unwrap();
    let ran = std::process::Command::new(outside_reader())
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop/datev.py"))
        .arg(dir.path().join("oktober.zip"))
        .arg(&summary)
        .output()
        .unwrap();
    let said =
        String::from_utf8_lossy(&ran.stdout).to_string() + &String::from_utf8_lossy(&ran.stderr);
    assert!(ran.status.success(), "the outside reader disagrees: {said}");
    assert!(
        said.contains("accounts sum to the ledger's totals"),
        "{said}"
    );

    // Numbers are kept once exported: the owner can no longer change them.
    let (ok, _, err) = w.data.console(&[
        "company",
        "account-number",
        &w.company,
        "--partner",
        &m.kunde,
        "--side",
        "customer",
        "--number",
        "12346",
    ]);
    assert!(
        !ok && err.contains("--number") && err.contains("exported"),
        "{err}"
    );
    let given = w.data.ok(&["company", "account-numbers", &w.company]);
    assert_eq!(given.as_array().unwrap().len(), 8);

    // With the documents: each issued invoice's PDF named by Belegfeld 1.
    let (printed, files) = export(&m, dir.path(), "mit-belegen.zip", &["--documents"]);
    let pdf = format!("Belege/{}.pdf", m.invoice_a.replace('/', "-"));
    assert!(
        files.get(&pdf).is_some_and(|b| b.starts_with(b"%PDF")),
        "{pdf} in {:?}",
        files.keys().collect::<Vec<_>>()
    );
    assert!(printed["export"]["documents"].as_u64().unwrap() >= 6);

    // Closed books export final: Festschreibung 1, no "vorläufig"; the VAT
    // return says final too.
    w.data.ok(&[
        "books",
        "close",
        "--company",
        &w.company,
        "--through",
        "2026-10-31",
    ]);
    let (printed, files) = export(&m, dir.path(), "final.zip", &[]);
    assert_eq!(printed["export"]["final"], json!(true));
    let read = extf::read(
        file(&files, "EXTF_Buchungsstapel_"),
        &extf::booking_headings(),
    );
    assert_eq!(read.header[20], "1");
    assert!(!read.header[16].contains("vorläufig"));
    assert!(read.rows.iter().all(|r| r["Festschreibung"] == "1"));
    assert_eq!(
        totals(&extf::bookings(&read)),
        expected,
        "the same bookings, final"
    );
    let vat = w.data.ok(&[
        "vat",
        "return",
        "--company",
        &w.company,
        "--period",
        "2026-10",
    ]);
    assert_eq!(vat["final"], json!(true));
}

#[test]
fn the_gobd_medium_names_every_csv_with_its_columns_and_the_csvs_read_back_to_the_books() {
    let m = month();
    let w = &m.w;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("pruefung");
    let printed = w.data.ok(&[
        "export",
        "gobd",
        "--company",
        &w.company,
        "--year",
        "2026",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(printed["export"]["final"], json!(false));
    let index = std::fs::read_to_string(out.join("index.xml")).unwrap();
    // Well-formed, and every table with its URL, columns, types and the
    // header row declared.
    let tables = index_tables(&index);
    let csvs: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".csv"))
        .collect();
    let mut named: Vec<String> = tables.iter().map(|t| t.url.clone()).collect();
    named.sort();
    let mut csvs_sorted = csvs.clone();
    csvs_sorted.sort();
    assert_eq!(named, csvs_sorted, "index.xml names every CSV");
    for expected in [
        "journal.csv",
        "accounts.csv",
        "partners.csv",
        "invoices.csv",
        "invoice_lines.csv",
        "bills.csv",
        "payments.csv",
        "bank_lines.csv",
    ] {
        assert!(named.iter().any(|n| n == expected), "{expected}");
    }
    let mut rows_of: BTreeMap<String, Vec<Vec<String>>> = BTreeMap::new();
    for t in &tables {
        assert_eq!(t.from_line, "2", "{} declares its header row", t.url);
        let text = std::fs::read_to_string(out.join(&t.url)).unwrap();
        assert!(text.ends_with("\r\n"));
        let mut lines = text.trim_end_matches("\r\n").split("\r\n");
        let header: Vec<String> = split(lines.next().unwrap());
        assert_eq!(
            header,
            t.columns.iter().map(|c| c.0.clone()).collect::<Vec<_>>(),
            "{}'s columns",
            t.url
        );
        for (name, kind) in &t.columns {
            assert!(
                ["AlphaNumeric", "Numeric", "Date"].contains(&kind.as_str()),
                "{name}: {kind}"
            );
        }
        let rows: Vec<Vec<String>> = lines.filter(|l| !l.is_empty()).map(split).collect();
        assert!(
            rows.iter().all(|r| r.len() == header.len()),
            "{} rows as wide as its header",
            t.url
        );
        rows_of.insert(t.url.clone(), rows);
    }
    // Row counts and sums against the books.
    let count = |f: &str| rows_of[f].len();
    assert_eq!(count("journal.csv"), 33);
    assert_eq!(count("invoices.csv"), 6);
    assert_eq!(count("invoice_lines.csv"), 7);
    assert_eq!(count("bills.csv"), 4);
    assert_eq!(count("payments.csv"), 2);
    assert_eq!(count("partners.csv"), 8);
    assert_eq!(
        count("bank_lines.csv"),
        0,
        "an empty table is its header row"
    );
    let cents = |v: &str| -> i64 {
        let (e, c) = v.split_once(',').unwrap();
        let sign = if e.starts_with('-') { -1 } else { 1 };
        sign * (e.trim_start_matches('-').parse::<i64>().unwrap() * 100 + c.parse::<i64>().unwrap())
    };
    let tb = w.data.ok(&[
        "books",
        "trial-balance",
        "--company",
        &w.company,
        "--as-of",
        "2026-12-31",
    ]);
    let journal = &rows_of["journal.csv"];
    // seq, entry, posted_on, account, detail, chart, debit, credit
    let debit: i64 = journal.iter().map(|r| cents(&r[6])).sum();
    let credit: i64 = journal.iter().map(|r| cents(&r[7])).sum();
    assert_eq!(
        (debit, credit),
        (
            tb["totalDebit"].as_i64().unwrap(),
            tb["totalCredit"].as_i64().unwrap()
        )
    );
    let gross: i64 = rows_of["invoices.csv"].iter().map(|r| cents(&r[12])).sum();
    // A 1,726.72, B 2,000, C 3,000, D 800, E 238 and its credit note −238.
    assert_eq!(gross, 172_672 + 200_000 + 300_000 + 80_000);
    // The documents, unchanged.
    let issued = std::fs::read_dir(out.join("documents/issued"))
        .unwrap()
        .count();
    assert!(issued >= 6, "{issued} documents");
    // An export into a folder that is not empty is refused.
    let (ok, _, err) = w.data.console(&[
        "export",
        "gobd",
        "--company",
        &w.company,
        "--year",
        "2026",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!ok && err.contains("--out"), "{err}");
}

#[test]
fn the_datev_export_needs_the_advisers_numbers_and_one_fiscal_year_and_skr04_has_its_own_accounts()
{
    let w = World::new();
    let c = w.client();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.zip");
    let out = out.to_str().unwrap();
    let (ok, _, err) = w.data.console(&[
        "export",
        "datev",
        "--company",
        &w.company,
        "--from",
        "2026-01-01",
        "--to",
        "2026-01-31",
        "--out",
        out,
    ]);
    assert!(
        !ok && err.contains("--datev-adviser") && err.contains("--datev-client"),
        "{err}"
    );
    w.data.ok(&[
        "company",
        "set",
        &w.company,
        "--chart",
        "skr04",
        "--datev-adviser",
        "1001",
        "--datev-client",
        "1",
        "--fiscal-year-start",
        "07-01",
    ]);
    let (ok, _, err) = w.data.console(&[
        "export",
        "datev",
        "--company",
        &w.company,
        "--from",
        "2026-06-01",
        "--to",
        "2026-07-31",
        "--out",
        out,
    ]);
    assert!(
        !ok && err.contains("--to") && err.contains("fiscal year"),
        "{err}"
    );
    let (ok, _, err) = w.data.console(&[
        "company",
        "set",
        &w.company,
        "--fiscal-year-start",
        "02-29",
        "--datev-client",
        "0",
    ]);
    assert!(
        !ok && err.contains("--fiscal-year-start") && err.contains("--datev-client"),
        "{err}"
    );

    let kunde = c.customer(&w.live, "Kunde KG");
    let d = c.draft(&w.live, &kunde);
    line(&w, &d, "10000", &["--tax-rate", "19"]);
    issue(&w, &d, "2026-08-03");
    bill(
        &w,
        "Lieferant AG",
        "L-1",
        "2026-08-04",
        "10000",
        "1900",
        &["--tax-rate", "19"],
    );
    let printed = w.data.ok(&[
        "export",
        "datev",
        "--company",
        &w.company,
        "--from",
        "2026-08-01",
        "--to",
        "2026-08-31",
        "--out",
        out,
    ]);
    assert_eq!(printed["export"]["chart"], json!("skr04"));
    let files = unzip(Path::new(out));
    let read = extf::read(
        file(&files, "EXTF_Buchungsstapel_"),
        &extf::booking_headings(),
    );
    // The fiscal year starting 1 July, the chart 04.
    assert_eq!(
        (read.header[12].as_str(), read.header[26].as_str()),
        ("20260701", "04")
    );
    let b = extf::bookings(&read);
    assert_eq!(
        b.iter()
            .map(|b| (b.account, b.contra, b.amount, b.bu.as_str()))
            .collect::<Vec<_>>(),
        vec![(10000, 4400, 11_900, ""), (70000, 6300, 11_900, "9")]
    );
    // The chart stays once exported.
    let (ok, _, err) = w
        .data
        .console(&["company", "set", &w.company, "--chart", "skr03"]);
    assert!(!ok && err.contains("--chart"), "{err}");
    let shown = w.data.ok(&["company", "show", &w.company]);
    assert_eq!(
        shown["datev"],
        json!({"chart": "skr04", "datevAdviser": 1001, "datevClient": 1, "fiscalYearStart": "07-01"})
    );
}

/// One table of an index.xml: its URL, the line its data start on, and
/// its columns with their type's element.
struct IndexTable {
    url: String,
    from_line: String,
    columns: Vec<(String, String)>,
}

/// Reads index.xml with quick-xml (a malformed document fails the test).
fn index_tables(xml: &str) -> Vec<IndexTable> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut path: Vec<String> = Vec::new();
    let mut tables: Vec<IndexTable> = Vec::new();
    let mut name = String::new();
    loop {
        match reader.read_event().expect("index.xml is well-formed") {
            Event::Start(e) => {
                let tag = AsRef::<str>::as_ref(&e.name()).to_string();
                if tag == "Table" {
                    tables.push(IndexTable {
                        url: String::new(),
                        from_line: String::new(),
                        columns: Vec::new(),
                    });
                }
                path.push(tag);
            }
            Event::Empty(e) => {
                let tag = AsRef::<str>::as_ref(&e.name()).to_string();
                if tag == "AlphaNumeric" {
                    if let Some(t) = tables.last_mut() {
                        t.columns.push((name.clone(), tag));
                    }
                }
            }
            Event::End(e) => {
                let tag = AsRef::<str>::as_ref(&e.name()).to_string();
                if (tag == "Numeric" || tag == "Date")
                    && path.iter().any(|p| p.starts_with("Variable"))
                {
                    if let Some(t) = tables.last_mut() {
                        t.columns.push((name.clone(), tag.clone()));
                    }
                }
                path.pop();
            }
            Event::Text(t) => {
                let text = t.into_inner().to_string();
                let parent = path.last().map(String::as_str).unwrap_or("");
                let grand = path
                    .len()
                    .checked_sub(2)
                    .map(|i| path[i].as_str())
                    .unwrap_or("");
                if let Some(t) = tables.last_mut() {
                    match (grand, parent) {
                        ("Table", "URL") => t.url = text,
                        ("Range", "From")
                            if path.iter().rev().nth(2).map(String::as_str) == Some("Table") =>
                        {
                            t.from_line = text
                        }
                        (g, "Name") if g.starts_with("Variable") => name = text,
                        _ => {}
                    }
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    tables
}

/// A CSV line split at `;` outside quotes, quotes removed.
pub(crate) fn split(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            ';' if !quoted => out.push(std::mem::take(&mut field)),
            c => field.push(c),
        }
    }
    out.push(field);
    out
}

#[test]
fn a_bill_says_its_rate_and_a_reverse_charge_from_a_german_supplier_feeds_kz_84_and_85() {
    let w = World::new();
    // A domestic § 13b service (a builder without a foreign VAT id).
    bill(
        &w,
        "Bau Nord GmbH",
        "BN-1",
        "2026-11-03",
        "100000",
        "0",
        &["--reverse-charge"],
    );
    bill(
        &w,
        "Papier AG",
        "P-9",
        "2026-11-04",
        "10000",
        "700",
        &["--tax-rate", "7"],
    );
    let vat = w.data.ok(&[
        "vat",
        "return",
        "--company",
        &w.company,
        "--period",
        "2026-11",
    ]);
    let expected: BTreeMap<String, String> = [
        ("84", "1000"),
        ("85", "190.00"),
        ("66", "7.00"),
        ("67", "190.00"),
        ("83", "-7.00"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    assert_eq!(kz(&vat), expected, "{vat:#}");
    assert_eq!(vat["postings"]["66"][0]["key"], json!("S:7"));
    // Refused: VAT on a reverse-charge bill, a rate above 100 %.
    let (ok, _, err) = w.data.console(&[
        "purchase",
        "record",
        "--company",
        &w.company,
        "--supplier",
        "X",
        "--document-number",
        "1",
        "--date",
        "2026-11-05",
        "--due",
        "2026-11-05",
        "--currency",
        "EUR",
        "--net",
        "100",
        "--tax",
        "19",
        "--reverse-charge",
    ]);
    assert!(
        !ok && err.contains("--tax") && err.contains("reverse charge"),
        "{err}"
    );
    let (ok, _, err) = w.data.console(&[
        "purchase",
        "record",
        "--company",
        &w.company,
        "--supplier",
        "X",
        "--document-number",
        "2",
        "--date",
        "2026-11-05",
        "--due",
        "2026-11-05",
        "--currency",
        "EUR",
        "--net",
        "100",
        "--tax",
        "19",
        "--tax-rate",
        "150",
    ]);
    assert!(!ok && err.contains("--tax-rate"), "{err}");
}

/// A bill split over the chart's accounts reaches DATEV on each account;
/// entertainment in its 70 % and 30 % parts; a supplier's next bill goes
/// where its last went; two totals whose tax is no rate of the country
/// go on the general input-tax account (SKR03 1570), a rate's on its key.
#[test]
fn a_bill_split_over_accounts_reaches_datev_on_each_account() {
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
    let split = |supplier: &str, number: &str, lines: &[&str]| {
        let mut args = vec![
            "purchase",
            "record",
            "--company",
            &w.company,
            "--supplier",
            supplier,
            "--document-number",
            number,
            "--date",
            "2026-08-04",
            "--due",
            "2026-08-04",
            "--currency",
            "EUR",
        ];
        for l in lines {
            args.extend(["--line", l]);
        }
        w.data.ok(&args)
    };
    let first = split(
        "Vermieter GmbH",
        "M-1",
        &["rent=100000:19", "entertainment=20000:19"],
    );
    assert_eq!(first["net"]["minor"], json!(120_000));
    assert_eq!(first["tax"]["minor"], json!(22_800));
    // Lines that do not add up to the totals given are refused, nothing kept.
    let (ok, _, err) = w.data.console(&[
        "purchase",
        "record",
        "--company",
        &w.company,
        "--supplier",
        "Vermieter GmbH",
        "--document-number",
        "M-X",
        "--date",
        "2026-08-04",
        "--due",
        "2026-08-04",
        "--currency",
        "EUR",
        "--net",
        "5000",
        "--line",
        "rent=4000:19",
    ]);
    assert!(!ok && err.contains("net"), "{err}");
    let (ok, _, err) = w.data.console(&[
        "purchase",
        "record",
        "--company",
        &w.company,
        "--supplier",
        "Vermieter GmbH",
        "--document-number",
        "M-Y",
        "--date",
        "2026-08-04",
        "--due",
        "2026-08-04",
        "--currency",
        "EUR",
        "--line",
        "nowhere=100:19",
    ]);
    assert!(!ok && err.contains("nowhere"), "{err}");
    bill(
        &w,
        "Vermieter GmbH",
        "M-2",
        "2026-08-05",
        "50000",
        "9500",
        &[],
    );
    bill(&w, "Kiosk", "K-1", "2026-08-06", "10000", "1234", &[]);
    bill(&w, "Buchladen", "B-1", "2026-08-07", "10000", "700", &[]);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.zip");
    w.data.ok(&[
        "export",
        "datev",
        "--company",
        &w.company,
        "--from",
        "2026-08-01",
        "--to",
        "2026-08-31",
        "--out",
        out.to_str().unwrap(),
    ]);
    let files = unzip(&out);
    let read = extf::read(
        file(&files, "EXTF_Buchungsstapel_"),
        &extf::booking_headings(),
    );
    let mut b: Vec<_> = extf::bookings(&read)
        .iter()
        .map(|b| (b.account, b.contra, b.amount, b.bu.clone()))
        .collect();
    b.sort();
    let bu = |s: &str| s.to_string();
    assert_eq!(
        b,
        vec![
            (70000, 4210, 59_500, bu("9")),
            (70000, 4210, 119_000, bu("9")),
            // 20,000 of entertainment and its 3,800 VAT: 70 % and 30 %.
            (70000, 4650, 16_660, bu("9")),
            (70000, 4654, 7_140, bu("9")),
            (70001, 1570, 1_234, bu("")),
            (70001, 4900, 10_000, bu("")),
            (70002, 4900, 10_700, bu("8")),
        ]
    );
}
