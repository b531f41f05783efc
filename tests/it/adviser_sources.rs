//! What the bank and the inbox feed into the tax adviser's exports, through
//! the console: a reverse charge read from a received e-invoice (category
//! AE), from a German seller and from one in another member state, lands
//! in the VAT return's § 13b figures and in the DATEV export on the
//! chart's reverse-charge accounts; the received file goes into the
//! DATEV ZIP (`--documents`) and the GoBD medium beside the issued ones; a
//! bank fee booked from a bank line lands on the chart's fee account; the
//! GoBD medium's `bank_lines.csv` holds the imported lines; and the payee
//! IBAN of a received bill lets the bank's rung (d) find the bill.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Value};

use crate::adviser::{file, kz, split, totals, unzip};
use crate::support::extf;
use crate::support::statements::{camt053, Entry, Transfer};
use crate::support::{unique, DataFile, World};

/// The issuing company's IBAN (the tests' seller particulars).
const ISSUER_IBAN: &str = "DE02120300000000202051";
/// The receiving company's own bank account.
const RECEIVER_IBAN: &str = "DE95207520410291593375";

/// Issues, from the world's company, one invoice to the customer `body`
/// with one line of `price` cents and the line options `rest`, on `on`;
/// returns its number and its CII document's bytes.
fn own_invoice(w: &World, body: Value, price: &str, rest: &[&str], on: &str) -> (String, Vec<u8>) {
    let c = w.client();
    let a = c.post(&w.live, "/v1/customers", &unique(), &body);
    assert_eq!(a.status, 201, "{:?}", a.body);
    let draft = c.draft(&w.live, &a.body);
    let mut args = vec![
        "draft",
        "line",
        &draft,
        "--description",
        "Montage",
        "--quantity",
        "1",
        "--unit-price",
        price,
    ];
    args.extend(rest);
    w.data.ok(&args);
    let number = w
        .data
        .ok(&["draft", "issue", &draft, "--on", on, "--delivered-on", on])["number"]
        .as_str()
        .unwrap()
        .to_string();
    let cii = c.get(
        &w.live,
        &format!(
            "/v1/invoices/{}/document?format=cii",
            number.replace('/', "%2F")
        ),
    );
    assert_eq!(cii.status, 200);
    (number, cii.raw.clone())
}

/// A German company of the same data file to receive into, with the DATEV
/// settings (SKR03) and its own bank account.
fn receiver(data: &DataFile) -> String {
    let id = data.ok(&[
        "company",
        "create",
        "--name",
        "Empfänger GmbH",
        "--country",
        "DE",
        "--currency",
        "EUR",
        "--plan",
        "ENTERPRISE",
    ])["id"]
        .as_str()
        .unwrap()
        .to_string();
    data.ok(&[
        "company",
        "set",
        &id,
        "--chart",
        "skr03",
        "--datev-adviser",
        "29098",
        "--datev-client",
        "55003",
    ]);
    data.ok(&[
        "bank",
        "account",
        "add",
        "--company",
        &id,
        "--iban",
        RECEIVER_IBAN,
    ]);
    id
}

/// Receives `bytes` as the file `name`; returns the receipt.
fn receive(
    data: &DataFile,
    company: &str,
    dir: &tempfile::TempDir,
    name: &str,
    bytes: &[u8],
) -> Value {
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    let out = data.ok(&[
        "purchase",
        "receive",
        "--company",
        company,
        path.to_str().unwrap(),
    ]);
    out.as_array().unwrap()[0].clone()
}

fn tx(amount: i64, name: &str, iban: Option<&str>, remittance: &str) -> Transfer {
    Transfer {
        amount,
        name: name.into(),
        iban: iban.map(str::to_string),
        remittance: remittance.into(),
        ..Transfer::default()
    }
}

/// Imports a camt.053 of the receiver's account booked on `day`, one entry per `txs`.
fn import(
    data: &DataFile,
    company: &str,
    dir: &tempfile::TempDir,
    day: &str,
    txs: Vec<Transfer>,
) -> Vec<Value> {
    let entries: Vec<Entry> = txs
        .into_iter()
        .enumerate()
        .map(|(i, t)| Entry {
            bank_reference: format!("REF-{i}"),
            booked_on: day.into(),
            reversal: false,
            txs: vec![t],
        })
        .collect();
    let path = dir.path().join(format!("statement-{day}.xml"));
    std::fs::write(
        &path,
        camt053(
            RECEIVER_IBAN,
            &format!("S-{day}"),
            1,
            1_000_000,
            day,
            &entries,
        ),
    )
    .unwrap();
    data.ok(&[
        "bank",
        "import",
        "--company",
        company,
        path.to_str().unwrap(),
    ]);
    data.ok(&["bank", "lines", "--company", company])
        .as_array()
        .unwrap()
        .clone()
}

fn line_of(lines: &[Value], minor: i64) -> Value {
    lines
        .iter()
        .find(|l| l["amount"]["minor"] == json!(minor))
        .unwrap_or_else(|| panic!("a line of {minor} in {lines:#?}"))
        .clone()
}

/// October 2026 of a receiving company: kontor's own § 13b invoice
/// (800.00 of assembly, no VAT charged) received and booked, paid from the
/// bank, and the bank's fee of 12.50 booked to `fees`.
struct Scene {
    w: World,
    company: String,
    number: String,
    cii: Vec<u8>,
    dir: tempfile::TempDir,
}

fn scene() -> Scene {
    let w = World::new();
    let data = &w.data;
    let (number, cii) = own_invoice(
        &w,
        json!({"name": "Bau GmbH", "street": "Ring 1", "postalCode": "1010", "city": "Wien", "country": "AT", "vatId": "ATU13585627"}),
        "80000",
        &[
            "--vat-category",
            "AE",
            "--exemption-reason",
            "Steuerschuldnerschaft des Leistungsempfängers",
            "--exemption-code",
            "VATEX-EU-AE",
        ],
        "2026-10-06",
    );
    let company = receiver(data);
    let dir = tempfile::tempdir().unwrap();
    let receipt = receive(data, &company, &dir, "rechnung.xml", &cii);
    assert_eq!(receipt["taxes"][0]["category"], json!("AE"), "{receipt}");
    let booked = data.ok(&[
        "purchase",
        "book",
        "--accept-warnings",
        "--company",
        &company,
        receipt["id"].as_str().unwrap(),
    ]);
    assert_eq!(booked["state"], json!("booked"), "{booked}");
    let lines = import(
        data,
        &company,
        &dir,
        "2026-10-20",
        vec![
            tx(-80_000, "Test Handel GmbH", Some(ISSUER_IBAN), &number),
            tx(-1_250, "Sparkasse", None, "Kontofuehrung Oktober"),
        ],
    );
    assert_eq!(
        line_of(&lines, -80_000)["state"],
        json!("settled"),
        "{lines:#?}"
    );
    let fee = line_of(&lines, -1_250);
    data.ok(&[
        "bank",
        "book",
        fee["id"].as_str().unwrap(),
        "--account",
        "fees",
    ]);
    Scene {
        w,
        company,
        number,
        cii,
        dir,
    }
}

#[test]
fn a_reverse_charge_received_as_an_e_invoice_and_a_bank_fee_reach_the_vat_return_and_the_datev_export(
) {
    let Scene {
        w,
        company,
        number,
        dir,
        ..
    } = scene();
    let data = &w.data;
    // The VAT return: the supplier is German, so § 13b Abs. 2 (Kz 84/85),
    // the tax owed deducted again (Kz 67): 19 % of 800.00.
    let vat = data.ok(&[
        "vat",
        "return",
        "--company",
        &company,
        "--period",
        "2026-10",
    ]);
    let expected: BTreeMap<String, String> = [
        ("84", "800"),
        ("85", "152.00"),
        ("67", "152.00"),
        ("83", "0.00"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    assert_eq!(kz(&vat), expected, "{vat:#}");
    assert_eq!(vat["postings"]["85"][0]["key"], json!("AE:19"), "{vat:#}");

    let out = dir.path().join("datev.zip");
    data.ok(&[
        "export",
        "datev",
        "--company",
        &company,
        "--from",
        "2026-10-01",
        "--to",
        "2026-10-31",
        "--out",
        out.to_str().unwrap(),
    ]);
    let files = unzip(&out);
    let batch = extf::read(
        file(&files, "EXTF_Buchungsstapel_"),
        &extf::booking_headings(),
    );
    let bookings = extf::bookings(&batch);
    // SKR03: the expense on 4900 without a BU (DATEV computes no tax on a
    // domestic § 13b here), input tax 1577 and output tax 1787 of § 13b at
    // 19 %, the supplier's personal account 70000 paid from the bank 1200,
    // the fee on 4970 "Nebenkosten des Geldverkehrs".
    let expected: BTreeMap<u32, i64> = [
        (1200, -81_250),
        (1577, 15_200),
        (1787, -15_200),
        (4900, 80_000),
        (4970, 1_250),
    ]
    .into_iter()
    .collect();
    assert_eq!(totals(&bookings), expected, "{bookings:#?}");
    let fee = bookings
        .iter()
        .find(|b| b.amount == 1_250)
        .unwrap_or_else(|| panic!("the fee in {bookings:#?}"));
    let accounts: BTreeSet<u32> = [fee.account, fee.contra].into_iter().collect();
    assert_eq!(
        (accounts, fee.bu.as_str()),
        ([1200, 4970].into_iter().collect(), "")
    );
    // The bank line's own reference and what it says, not an id of kontor's.
    assert_eq!(
        (fee.document.as_str(), fee.text.as_str()),
        ("REF-1", "Bank Sparkasse Kontofuehrung Oktober")
    );
    let taxes: Vec<&extf::Booking> = bookings.iter().filter(|b| b.amount == 15_200).collect();
    assert_eq!(taxes.len(), 1, "{bookings:#?}");
    assert_eq!(taxes[0].document, number);
    assert!(
        bookings
            .iter()
            .any(|b| [b.account, b.contra].contains(&70000) && b.amount == 80_000),
        "{bookings:#?}"
    );
}

#[test]
fn the_received_file_goes_into_the_datev_zip_and_the_gobd_medium_which_lists_the_bank_lines() {
    let Scene {
        w,
        company,
        number,
        cii,
        dir,
    } = scene();
    let data = &w.data;
    let out = dir.path().join("datev.zip");
    let printed = data.ok(&[
        "export",
        "datev",
        "--company",
        &company,
        "--from",
        "2026-10-01",
        "--to",
        "2026-10-31",
        "--out",
        out.to_str().unwrap(),
        "--documents",
    ]);
    let files = unzip(&out);
    // The received file, unchanged, named by its Belegfeld 1.
    assert_eq!(
        files.get(&format!("Belege/{number}.xml")),
        Some(&cii),
        "{:?}",
        files.keys().collect::<Vec<_>>()
    );
    assert_eq!(printed["export"]["documents"], json!(1), "{printed}");

    let medium = dir.path().join("pruefung");
    data.ok(&[
        "export",
        "gobd",
        "--company",
        &company,
        "--year",
        "2026",
        "--out",
        medium.to_str().unwrap(),
    ]);
    let received: Vec<std::path::PathBuf> = std::fs::read_dir(medium.join("documents/received"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(received.len(), 1, "{received:?}");
    assert_eq!(std::fs::read(&received[0]).unwrap(), cii);
    assert!(received[0]
        .file_name()
        .unwrap()
        .to_str()
        .unwrap()
        .starts_with(&number));
    let text = std::fs::read_to_string(medium.join("bank_lines.csv")).unwrap();
    let mut rows = text.trim_end_matches("\r\n").split("\r\n").map(split);
    let header = rows.next().unwrap();
    let rows: Vec<Vec<String>> = rows.collect();
    assert_eq!(rows.len(), 2, "{text}");
    let column = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("{name} in {header:?}"))
    };
    let amounts: Vec<&str> = rows.iter().map(|r| r[column("amount")].as_str()).collect();
    assert_eq!(amounts, ["-800,00", "-12,50"]);
    assert!(
        rows.iter().all(
            |r| r[column("account")] == RECEIVER_IBAN && r[column("booked_on")] == "20.10.2026"
        ),
        "{text}"
    );
    let states: Vec<&str> = rows.iter().map(|r| r[column("state")].as_str()).collect();
    assert_eq!(states, ["settled", "settled"], "{text}");
    assert_eq!(rows[0][column("counterparty_iban")], ISSUER_IBAN);
    let index = std::fs::read_to_string(medium.join("index.xml")).unwrap();
    assert!(index.contains("<Name>counterparty_iban</Name>"), "{index}");
}

#[test]
fn a_received_bills_payee_iban_lets_the_bank_find_the_bill_of_a_supplier_known_by_vat_id_only() {
    let w = World::new();
    let data = &w.data;
    let company = receiver(data);
    // The issuer is already a partner, known by its VAT id, no IBAN.
    let known = data.ok(&[
        "purchase",
        "record",
        "--company",
        &company,
        "--supplier",
        "Handel (Altbestand)",
        "--supplier-vat-id",
        "DE136695976",
        "--document-number",
        "ALT-1",
        "--date",
        "2026-10-01",
        "--due",
        "2026-10-31",
        "--currency",
        "EUR",
        "--net",
        "10000",
        "--tax",
        "1900",
    ])["supplierId"]
        .as_str()
        .unwrap()
        .to_string();
    let (number, cii) = own_invoice(
        &w,
        json!({"name": "Empfänger GmbH", "street": "Markt 1", "postalCode": "28195", "city": "Bremen", "country": "DE"}),
        "50000",
        &["--tax-rate", "19"],
        "2026-10-06",
    );
    let dir = tempfile::tempdir().unwrap();
    let receipt = receive(data, &company, &dir, "rechnung.xml", &cii);
    assert_eq!(receipt["supplier"]["id"], json!(known), "{receipt}");
    data.ok(&[
        "purchase",
        "book",
        "--accept-warnings",
        "--supplier",
        "existing",
        "--company",
        &company,
        receipt["id"].as_str().unwrap(),
    ]);
    let key = data.key(&company, "production", "all");
    let partner = w.client().get(&key, &format!("/v1/customers/{known}")).body;
    assert_eq!(partner["id"], json!(known), "{partner}");
    assert!(
        partner["iban"].is_null(),
        "the partner's own particulars name no IBAN: {partner}"
    );
    // A transfer of the bill's 595.00 to the account the e-invoice names,
    // under a name and a purpose that say nothing.
    let lines = import(
        data,
        &company,
        &dir,
        "2026-10-20",
        vec![tx(
            -59_500,
            "Zahlungsempfaenger",
            Some(ISSUER_IBAN),
            "Ueberweisung",
        )],
    );
    let line = line_of(&lines, -59_500);
    let said = line.to_string();
    assert!(
        said.contains(&number) && said.contains(ISSUER_IBAN),
        "rung (d) names the bill {number} by the IBAN {ISSUER_IBAN}: {line:#}"
    );
    assert!(
        ["suggested", "settled"].contains(&line["state"].as_str().unwrap()),
        "{line:#}"
    );
}

#[test]
fn a_reverse_charge_received_from_another_member_state_feeds_kz_46_47_and_datevs_3123() {
    let w = World::new();
    let data = &w.data;
    // An Austrian company of the same data file sells a service to the
    // German receiver under the reverse charge.
    let seller = data.ok(&[
        "company",
        "create",
        "--name",
        "Wien Montage GmbH",
        "--country",
        "AT",
        "--currency",
        "EUR",
        "--plan",
        "ENTERPRISE",
        "--legal-name",
        "Wien Montage GmbH",
        "--street",
        "Ring 1",
        "--postal-code",
        "1010",
        "--city",
        "Wien",
        "--vat-id",
        "ATU13585627",
        "--iban",
        "AT611904300234573201",
    ])["id"]
        .as_str()
        .unwrap()
        .to_string();
    let key = data.key(&seller, "production", "all");
    let c = w.client();
    let buyer = c.post(
        &key,
        "/v1/customers",
        &unique(),
        &json!({"name": "Empfänger GmbH", "street": "Markt 1", "postalCode": "28195", "city": "Bremen", "country": "DE", "vatId": "DE136695976"}),
    );
    assert_eq!(buyer.status, 201, "{:?}", buyer.body);
    let draft = c.draft(&key, &buyer.body);
    data.ok(&[
        "draft",
        "line",
        &draft,
        "--description",
        "Wartung",
        "--quantity",
        "1",
        "--unit-price",
        "80000",
        "--vat-category",
        "AE",
        "--exemption-reason",
        "Reverse charge",
        "--exemption-code",
        "VATEX-EU-AE",
    ]);
    let number = data.ok(&[
        "draft",
        "issue",
        &draft,
        "--on",
        "2026-10-06",
        "--delivered-on",
        "2026-10-06",
    ])["number"]
        .as_str()
        .unwrap()
        .to_string();
    let cii = c.get(
        &key,
        &format!(
            "/v1/invoices/{}/document?format=cii",
            number.replace('/', "%2F")
        ),
    );
    assert_eq!(cii.status, 200);
    let company = receiver(data);
    let dir = tempfile::tempdir().unwrap();
    let receipt = receive(data, &company, &dir, "rechnung.xml", &cii.raw);
    data.ok(&[
        "purchase",
        "book",
        "--accept-warnings",
        "--company",
        &company,
        receipt["id"].as_str().unwrap(),
    ]);
    let vat = data.ok(&[
        "vat",
        "return",
        "--company",
        &company,
        "--period",
        "2026-10",
    ]);
    let expected: BTreeMap<String, String> = [
        ("46", "800"),
        ("47", "152.00"),
        ("67", "152.00"),
        ("83", "0.00"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    assert_eq!(kz(&vat), expected, "{vat:#}");
    assert_eq!(
        vat["postings"]["47"][0]["key"],
        json!("AE:19:EU"),
        "{vat:#}"
    );
    let out = dir.path().join("datev.zip");
    data.ok(&[
        "export",
        "datev",
        "--company",
        &company,
        "--from",
        "2026-10-01",
        "--to",
        "2026-10-31",
        "--out",
        out.to_str().unwrap(),
    ]);
    let files = unzip(&out);
    let bookings = extf::bookings(&extf::read(
        file(&files, "EXTF_Buchungsstapel_"),
        &extf::booking_headings(),
    ));
    assert_eq!(bookings.len(), 1, "{bookings:#?}");
    let b = &bookings[0];
    // 3123 is an automatic account: DATEV adds input and output tax itself,
    // so the booking carries no BU-Schlüssel and no tax lines.
    let accounts: BTreeSet<u32> = [b.account, b.contra].into_iter().collect();
    assert_eq!(accounts, [3123, 70000].into_iter().collect(), "{b:#?}");
    assert_eq!(
        (b.amount, b.bu.as_str(), b.document.as_str()),
        (80_000, "", number.as_str()),
        "{b:#?}"
    );
}
