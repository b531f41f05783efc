//! Bank statements through the console: each sample of tests/fixtures/bank
//! imported with its lines (count, signed amounts, dates, counterparty,
//! remittance), duplicates refused at the file, statement and entry level,
//! a camt.054 detailing a batch without adding money, the balance chain's
//! breaks named, hostile files refused with a sentence and nothing stored.

use std::io::Write;

use serde_json::{json, Value};

use crate::support::statements::{camt053, Entry, Transfer};
use crate::support::DataFile;

pub fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/bank/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// A company with the bank accounts named by `accounts` (`--iban X` or
/// `--account CODE/NUMBER`, with `--currency` when not EUR).
pub fn company_with(data: &DataFile, accounts: &[&[&str]]) -> String {
    let company = data.company("Muster Werkzeugbau GmbH", "ENTERPRISE");
    for account in accounts {
        let mut args = vec!["bank", "account", "add", "--company", &company];
        args.extend_from_slice(account);
        data.ok(&args);
    }
    company
}

/// Imports files; returns the whole answer, the exit status and stderr.
pub fn import(data: &DataFile, company: &str, files: &[&str]) -> (bool, Value, String) {
    let mut args = vec!["bank", "import", "--company", company];
    args.extend_from_slice(files);
    data.console(&args)
}

pub fn lines(data: &DataFile, company: &str, state: Option<&str>) -> Vec<Value> {
    let mut args = vec!["bank", "lines", "--company", company];
    if let Some(s) = state {
        args.extend(["--state", s]);
    }
    data.ok(&args).as_array().unwrap().clone()
}

fn money(minor: i64, currency: &str) -> Value {
    json!({"minor": minor, "currency": currency})
}

/// The lines oldest first (the list is newest first).
fn oldest_first(data: &DataFile, company: &str) -> Vec<Value> {
    let mut all = lines(data, company, None);
    all.reverse();
    all
}

/// Imports one sample, checks the file's report, then imports it again and
/// checks that nothing more is imported and the report says so.
fn sample(
    data: &DataFile,
    company: &str,
    name: &str,
    statements: usize,
    count: usize,
    preliminary: usize,
) -> Vec<Value> {
    let (ok, report, stderr) = import(data, company, &[&fixture(name)]);
    assert!(ok, "{name}: {stderr}");
    let f = &report["files"][0];
    assert_eq!(f["statements"], json!(statements), "{name}: {f}");
    assert_eq!(
        (
            f["lines"].clone(),
            f["new"].clone(),
            f["duplicates"].clone()
        ),
        (json!(count), json!(count), json!(0)),
        "{name}"
    );
    assert_eq!(f["preliminary"], json!(preliminary), "{name}");
    assert_eq!(f["refused"], Value::Null);
    let all = oldest_first(data, company);
    assert_eq!(all.len(), count, "{name}");
    let (ok, again, _) = import(data, company, &[&fixture(name)]);
    assert!(ok);
    let g = &again["files"][0];
    assert_eq!(
        (g["new"].clone(), g["duplicates"].clone()),
        (json!(0), json!(count)),
        "{name}"
    );
    assert!(
        g["notes"][0].as_str().unwrap().contains("imported before"),
        "{g}"
    );
    assert_eq!(
        lines(data, company, None).len(),
        count,
        "{name}: nothing imported twice"
    );
    all
}

#[test]
fn camt053_v2_minimal_imports_its_one_line() {
    let data = DataFile::new();
    let c = company_with(&data, &[&["--iban", "NL26VAYB8060476890"]]);
    let l = sample(&data, &c, "camt053.v2.minimal.xml", 1, 1, 0);
    assert_eq!(l[0]["amount"], money(885, "EUR"));
    assert_eq!(
        (l[0]["bookedOn"].clone(), l[0]["valueOn"].clone()),
        (json!("2014-12-31"), json!("2015-01-02"))
    );
    assert_eq!(
        l[0]["counterparty"],
        json!({"name": "NAME NAME", "iban": "NL56AGDH9619008421"})
    );
    assert_eq!(l[0]["remittance"], json!("4654654654654654"));
    assert_eq!(l[0]["endToEndId"], Value::Null);
    assert_eq!(l[0]["state"], json!("unmatched"));
}

#[test]
fn camt053_v8_imports_its_one_line_and_the_same_statement_in_another_file_is_a_duplicate() {
    let data = DataFile::new();
    let c = company_with(&data, &[&["--iban", "NL26VAYB8060476890"]]);
    let l = sample(&data, &c, "camt053.v8.xml", 1, 1, 0);
    assert_eq!(l[0]["amount"], money(885, "EUR"));
    assert_eq!(l[0]["bookedOn"], json!("2014-12-31"));
    assert_eq!(l[0]["counterparty"]["name"], json!("NAME NAME"));
    assert_eq!(l[0]["endToEndId"], json!("MUELL/FINP/RA12345"));
    // The .02 file carries the same statement (id and sequence number).
    let (ok, report, _) = import(&data, &c, &[&fixture("camt053.v2.minimal.xml")]);
    assert!(ok);
    let f = &report["files"][0];
    assert_eq!(
        (f["new"].clone(), f["duplicates"].clone()),
        (json!(0), json!(1)),
        "{f}"
    );
    assert!(
        f["notes"][0]
            .as_str()
            .unwrap()
            .contains("The statement 253EURNL26VAYB8060476890"),
        "{f}"
    );
    assert_eq!(lines(&data, &c, None).len(), 1);
}

#[test]
fn camt054_v2_imports_three_lines_of_one_debit() {
    let data = DataFile::new();
    let c = company_with(
        &data,
        &[&["--iban", "CH2801234000123456789", "--currency", "SEK"]],
    );
    let l = sample(&data, &c, "camt054.v2.xml", 1, 3, 0);
    let amounts: Vec<Value> = l.iter().map(|l| l["amount"].clone()).collect();
    assert_eq!(
        amounts,
        [money(-20_000_000, "SEK"), money(0, "SEK"), money(0, "SEK")]
    );
    assert_eq!(
        l[0]["remittance"],
        json!("Unstructured Remittance Information V1 ISR ref number V1")
    );
    assert_eq!(l[1]["remittance"], json!("ISR ref number V2"));
    assert!(l
        .iter()
        .all(|l| l["bookedOn"] == json!("2007-10-18") && l["counterparty"]["name"].is_null()));
}

#[test]
fn camt052_v8_is_preliminary_and_settles_nothing() {
    let data = DataFile::new();
    let c = company_with(
        &data,
        &[&["--iban", "CH2801234000123456789", "--currency", "SEK"]],
    );
    let l = sample(&data, &c, "camt052.v8.xml", 1, 1, 1);
    assert_eq!(l[0]["state"], json!("preliminary"));
    assert_eq!(l[0]["amount"], money(-20_000_000, "SEK"));
    assert_eq!(l[0]["remittance"], json!(""));
    assert_eq!(lines(&data, &c, Some("preliminary")).len(), 1);
    let (ok, _, stderr) = data.console(&[
        "bank",
        "book",
        l[0]["id"].as_str().unwrap(),
        "--account",
        "fees",
    ]);
    assert!(!ok);
    assert!(stderr.contains("is preliminary"), "{stderr}");
}

#[test]
fn camt053_v2_with_two_statements_continues_its_balance_chain() {
    let data = DataFile::new();
    let c = company_with(&data, &[&["--iban", "NL26VAYB8060476890"]]);
    let (ok, report, _) = import(&data, &c, &[&fixture("camt053.v2.multi.statement.xml")]);
    assert!(ok);
    assert_eq!(
        report["files"][0]["notes"],
        json!([]),
        "the chain holds: 27.00 closes, 27.00 opens"
    );
    let l = oldest_first(&data, &c);
    assert_eq!(l.len(), 2);
    assert_eq!(
        (l[0]["amount"].clone(), l[1]["amount"].clone()),
        (money(885, "EUR"), money(-700, "EUR"))
    );
    assert_eq!(l[0]["counterparty"]["name"], Value::Null);
    assert_eq!(l[0]["endToEndId"], json!("000000001"));
    assert_eq!(l[1]["counterparty"]["name"], json!("Company Name 2"));
    assert_eq!(l[1]["remittance"], json!("Transaction Description 2"));
}

#[test]
fn mt940_of_a_german_sepa_export_imports_97_lines_into_20_accounts() {
    let data = DataFile::new();
    let text = std::fs::read_to_string(fixture("sepa_mt9401.sta")).unwrap();
    let mut accounts: Vec<String> = text
        .lines()
        .filter_map(|l| l.strip_prefix(":25:"))
        .map(str::to_string)
        .collect();
    accounts.sort();
    accounts.dedup();
    assert_eq!(accounts.len(), 20);
    let args: Vec<[&str; 2]> = accounts.iter().map(|a| ["--account", a.as_str()]).collect();
    let refs: Vec<&[&str]> = args.iter().map(|a| a.as_slice()).collect();
    let c = company_with(&data, &refs);
    let l = sample(&data, &c, "sepa_mt9401.sta", 26, 97, 0);
    assert_eq!(
        (l[0]["amount"].clone(), l[96]["amount"].clone()),
        (money(30_000, "EUR"), money(5_005, "EUR"))
    );
    assert_eq!(l[0]["bookedOn"], json!("2007-09-04"));
    assert_eq!(l[0]["endToEndId"], json!("TFNR 40005 00005"));
    assert_eq!(
        l[0]["remittance"],
        json!("Grund nicht spezifiziert Reject aus SEPA-Ueberweisungsauftrag")
    );
    let richter = l
        .iter()
        .find(|l| l["amount"] == money(1_500_005, "EUR"))
        .unwrap();
    assert_eq!(
        richter["counterparty"]["iban"],
        json!("DE42100100100043921105")
    );
    assert_eq!(
        richter["counterparty"]["name"],
        json!("Richter Renate 70 Zeichen Beginn Fuellzeichen xxxxxxxx")
    );
    assert_eq!(
        l.iter()
            .filter(|l| l["amount"] == money(-20_488, "EUR"))
            .count(),
        2,
        "two RCR reversals"
    );
}

#[test]
fn mt940_of_a_savings_bank_finds_its_account_by_the_iban_its_bank_code_and_number_make() {
    let data = DataFile::new();
    let c = company_with(&data, &[&["--iban", "DE95 2075 2041 0291 5933 75"]]);
    let l = sample(&data, &c, "buxtehude.sta", 1, 3, 0);
    let amounts: Vec<Value> = l.iter().map(|l| l["amount"].clone()).collect();
    assert_eq!(
        amounts,
        [
            money(-11_935, "EUR"),
            money(-1_669, "EUR"),
            money(-500, "EUR")
        ]
    );
    assert_eq!(
        l[0]["remittance"],
        json!("basically some information here lots of information then some")
    );
    assert!(l[2]["remittance"]
        .as_str()
        .unwrap()
        .contains("some ümläuté and öther stüff"));
}

#[test]
fn synthetic_german_bank_statement_imports_eight_lines_of_six_entries() {
    let data = DataFile::new();
    let c = company_with(&data, &[&["--iban", "DE36760260000123456789"]]);
    let l = sample(&data, &c, "synthetic-dk-camt053.v8.xml", 1, 8, 0);
    let amounts: Vec<i64> = l
        .iter()
        .map(|l| l["amount"]["minor"].as_i64().unwrap())
        .collect();
    assert_eq!(
        amounts,
        [119_000, 47_600, 11_900, 23_800, 5_950, -25_300, -59_500, -1_290]
    );
    // The import hands its ids out in ascending order (reference, "The
    // import's order"): random, yet the lines' index takes them in order.
    let ids: Vec<&str> = l.iter().map(|l| l["id"].as_str().unwrap()).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
    assert_eq!(
        l[0]["counterparty"],
        json!({"name": "Bäckerei Sonnenschein KG", "iban": "DE60430609671122334455"})
    );
    assert_eq!(l[0]["remittance"], json!("RE-2026-00017 Kd-Nr. 10023"));
    assert_eq!(l[1]["remittance"], json!("RF13RE202600023"));
    assert_eq!(l[2]["endToEndId"], json!("RE2026-00031"));
    assert_eq!(
        l[5]["counterparty"]["name"],
        json!("Gärtnerei Blumenfeld e.K.")
    );
    assert_eq!(
        l[6]["remittance"],
        json!("Rechnung LF-58207 vom 03.11.2026")
    );
    // Nothing is open: every line waits for a person.
    assert!(l.iter().all(|l| l["state"] == json!("unmatched")), "{l:?}");
    // The bank's fee booked by a person.
    let fee = l[7]["id"].as_str().unwrap();
    let booked = data.ok(&["bank", "book", fee, "--account", "fees"]);
    assert_eq!(booked["line"]["state"], json!("settled"));
    assert_eq!(lines(&data, &c, Some("settled")).len(), 1);
}

#[test]
fn a_statement_of_an_account_the_company_does_not_have_is_refused_naming_it() {
    let data = DataFile::new();
    let c = company_with(&data, &[&["--iban", "DE89370400440532013000"]]);
    let (ok, report, stderr) = import(&data, &c, &[&fixture("synthetic-dk-camt053.v8.xml")]);
    assert!(!ok);
    let sentence = report["files"][0]["refused"].as_str().unwrap();
    assert!(
        sentence.contains("DE36 7602 6000 0123 4567 89"),
        "{sentence}"
    );
    assert!(stderr.contains(sentence), "{stderr}");
    assert!(lines(&data, &c, None).is_empty());
}

/// A camt.053 of `entries` for the synthetic account.
fn statement(id: &str, sequence: u64, opening: i64, entries: &[Entry]) -> String {
    camt053(
        "DE36760260000123456789",
        id,
        sequence,
        opening,
        "2026-11-18",
        entries,
    )
}

fn entry(reference: &str, txs: Vec<Transfer>) -> Entry {
    Entry {
        bank_reference: reference.into(),
        booked_on: "2026-11-18".into(),
        reversal: false,
        txs,
    }
}

fn tx(amount: i64, name: &str, remittance: &str) -> Transfer {
    Transfer {
        amount,
        name: name.into(),
        remittance: remittance.into(),
        ..Transfer::default()
    }
}

pub fn write(dir: &tempfile::TempDir, name: &str, content: &[u8]) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, content).unwrap();
    path.to_string_lossy().to_string()
}

pub fn bank_total(data: &DataFile, company: &str) -> i64 {
    let tb = data.ok(&["books", "trial-balance", "--company", company]);
    tb["accounts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["account"] == "bank")
        .map_or(0, |a| {
            a["debit"].as_i64().unwrap() - a["credit"].as_i64().unwrap()
        })
}

/// A camt.053 whose batch entry names its total only (no transactions),
/// and the camt.054 detailing that entry's three transactions.
pub fn batch_and_its_notification() -> (String, String) {
    let batch = vec![
        tx(11_900, "Autohaus Ostwind", "Wartung"),
        tx(23_800, "Dr. Ilse Kranich", "Wartung"),
        tx(5_950, "Tischlerei", "Wartung"),
    ];
    let detailed = statement("S-1", 1, 0, &[entry("BATCH-1", batch)]);
    let start = detailed.find("<TxDtls>").unwrap();
    let end = detailed.rfind("</TxDtls>").unwrap() + "</TxDtls>".len();
    let whole = format!("{}{}", &detailed[..start], &detailed[end..]);
    let notification = detailed
        .replace("camt.053.001.08", "camt.054.001.08")
        .replace("BkToCstmrStmt", "BkToCstmrDbtCdtNtfctn")
        .replace("<Stmt>", "<Ntfctn>")
        .replace("</Stmt>", "</Ntfctn>");
    (whole, notification)
}

#[test]
fn a_camt054_detailing_a_batch_splits_its_line_and_adds_no_money() {
    let data = DataFile::new();
    let c = company_with(&data, &[&["--iban", "DE36760260000123456789"]]);
    let dir = tempfile::tempdir().unwrap();
    let (whole, notification) = batch_and_its_notification();
    let (ok, r, e) = import(&data, &c, &[&write(&dir, "053.xml", whole.as_bytes())]);
    assert!(ok, "{e}");
    assert_eq!(r["files"][0]["lines"], json!(1));
    let one = lines(&data, &c, None);
    assert_eq!(one.len(), 1);
    assert_eq!(one[0]["amount"], money(41_650, "EUR"));
    let before = bank_total(&data, &c);
    let (ok, r, e) = import(
        &data,
        &c,
        &[&write(&dir, "054.xml", notification.as_bytes())],
    );
    assert!(ok, "{e}");
    assert_eq!(
        (
            r["files"][0]["new"].clone(),
            r["files"][0]["duplicates"].clone()
        ),
        (json!(3), json!(0)),
        "{r}"
    );
    let three = oldest_first(&data, &c);
    assert_eq!(
        three
            .iter()
            .map(|l| l["amount"]["minor"].as_i64().unwrap())
            .collect::<Vec<_>>(),
        [11_900, 23_800, 5_950]
    );
    assert_eq!(bank_total(&data, &c), before, "no money added");
    // The same notification again adds nothing.
    let (_, r, _) = import(
        &data,
        &c,
        &[&write(
            &dir,
            "054b.xml",
            notification.replace("S-1", "S-1 ").as_bytes(),
        )],
    );
    assert_eq!(r["files"][0]["new"], json!(0), "{r}");
    assert_eq!(lines(&data, &c, None).len(), 3);
}

#[test]
fn a_zip_holding_a_batch_and_the_camt054_detailing_it_imports_the_details_once() {
    let data = DataFile::new();
    let c = company_with(&data, &[&["--iban", "DE36760260000123456789"]]);
    let dir = tempfile::tempdir().unwrap();
    let (whole, notification) = batch_and_its_notification();
    let zip = zip_of(&[
        ("053.xml", whole.as_bytes()),
        ("054.xml", notification.as_bytes()),
    ]);
    let (ok, r, e) = import(&data, &c, &[&write(&dir, "day.zip", &zip)]);
    assert!(ok, "{e} {r}");
    assert_eq!(
        (
            r["files"][0]["statements"].clone(),
            r["files"][0]["lines"].clone()
        ),
        (json!(2), json!(4)),
        "{r}"
    );
    assert_eq!(
        r["files"][0]["unmatched"],
        json!(3),
        "the batch's own line is replaced, not matched: {r}"
    );
    let shown = oldest_first(&data, &c);
    assert_eq!(
        shown
            .iter()
            .map(|l| l["amount"]["minor"].as_i64().unwrap())
            .collect::<Vec<_>>(),
        [11_900, 23_800, 5_950]
    );
    assert_eq!(
        lines(&data, &c, None).len(),
        3,
        "the batch's money once, as its three transactions"
    );
}

#[test]
fn a_gap_in_the_balance_chain_is_named_with_both_figures() {
    let data = DataFile::new();
    let c = company_with(&data, &[&["--iban", "DE36760260000123456789"]]);
    let dir = tempfile::tempdir().unwrap();
    let first = statement("S-1", 1, 100_000, &[entry("A", vec![tx(5_000, "A", "x")])]);
    let second = statement("S-2", 2, 100_000, &[entry("B", vec![tx(7_000, "B", "y")])]);
    let (ok, r, _) = import(
        &data,
        &c,
        &[
            &write(&dir, "1.xml", first.as_bytes()),
            &write(&dir, "2.xml", second.as_bytes()),
        ],
    );
    assert!(ok);
    assert_eq!(r["files"][0]["notes"], json!([]));
    assert_eq!(
        r["files"][1]["notes"],
        json!(["The balance chain of DE36 7602 6000 0123 4567 89 breaks at the statement S-2: it opens with 1,000.00 EUR, but the statement before closed with 1,050.00 EUR."])
    );
}

#[test]
fn the_same_entry_in_another_statement_is_not_imported_twice() {
    let data = DataFile::new();
    let c = company_with(&data, &[&["--iban", "DE36760260000123456789"]]);
    let dir = tempfile::tempdir().unwrap();
    let first = statement(
        "S-1",
        1,
        0,
        &[
            entry("A", vec![tx(5_000, "A", "x")]),
            entry("B", vec![tx(6_000, "B", "y")]),
        ],
    );
    let second = statement(
        "S-2",
        2,
        11_000,
        &[
            entry("B", vec![tx(6_000, "B", "y")]),
            entry("C", vec![tx(7_000, "C", "z")]),
        ],
    );
    let (ok, r, _) = import(
        &data,
        &c,
        &[
            &write(&dir, "1.xml", first.as_bytes()),
            &write(&dir, "2.xml", second.as_bytes()),
        ],
    );
    assert!(ok);
    assert_eq!(
        (
            r["files"][1]["new"].clone(),
            r["files"][1]["duplicates"].clone()
        ),
        (json!(1), json!(1))
    );
    assert_eq!(lines(&data, &c, None).len(), 3);
}

fn zip_of(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in members {
        out.start_file(*name, options).unwrap();
        out.write_all(bytes).unwrap();
    }
    out.finish().unwrap().into_inner()
}

#[test]
fn hostile_files_are_refused_with_a_sentence_and_nothing_is_stored() {
    let data = DataFile::new();
    let c = company_with(&data, &[&["--iban", "DE36760260000123456789"]]);
    let dir = tempfile::tempdir().unwrap();
    let laughs = r#"<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><x>&lol3;</x></Document>"#;
    let good = std::fs::read(fixture("synthetic-dk-camt053.v8.xml")).unwrap();
    let mut big = good.clone();
    big.resize(60 * 1024 * 1024, b' ');
    let bomb = zip_of(&[("bomb.xml", &vec![b'<'; 60 * 1024 * 1024])]);
    let broken = ":20:X\n:25:76026000/0123456789\n:28C:1\n:60F:C181126EUR1,00\n:61:1811271127ZR1,00NDDTNONREF\n:62F:C181127EUR1,00\n";
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("laughs.xml", laughs.as_bytes().to_vec(), "declares a DTD"),
        ("bomb.zip", bomb, "is larger than 50 MB once decompressed"),
        ("big.xml", big, "is larger than 50 MB"),
        ("truncated.xml", good[..good.len() / 2].to_vec(), "truncated"),
        ("other.xml", b"<?xml version=\"1.0\"?><Invoice xmlns=\"urn:oasis:names:specification:ubl:schema:xsd:Invoice-2\"/>".to_vec(), "no camt.052, camt.053 or camt.054 message"),
        ("broken.sta", broken.as_bytes().to_vec(), "has a :61: line on line 5 that cannot be read"),
    ];
    for (name, content, expected) in cases {
        let path = write(&dir, name, &content);
        let (ok, report, stderr) = import(&data, &c, &[&path]);
        assert!(!ok, "{name}");
        let sentence = report["files"][0]["refused"]
            .as_str()
            .unwrap_or_else(|| panic!("{name}: {report}"));
        assert!(
            sentence.starts_with(&format!("The file {path}")),
            "{name}: {sentence}"
        );
        assert!(sentence.contains(expected), "{name}: {sentence}");
        assert!(stderr.contains(expected), "{name}: {stderr}");
        assert_eq!(report["files"][0]["new"], json!(0));
    }
    assert!(lines(&data, &c, None).is_empty(), "nothing stored");
    // A refused file beside a good one: each file is its own transaction.
    let (ok, report, _) = import(
        &data,
        &c,
        &[
            &write(&dir, "laughs2.xml", laughs.as_bytes()),
            &fixture("synthetic-dk-camt053.v8.xml"),
        ],
    );
    assert!(!ok, "the exit status is 1 when any file was refused");
    assert!(report["files"][0]["refused"].is_string());
    assert_eq!(report["files"][1]["new"], json!(8));
}

/// Issues a one-line invoice to a new customer; returns its number.
fn issue(w: &crate::support::World, amount: i64) -> String {
    let c = w.client();
    let customer = c.customer(&w.live, "Bäckerei Sonnenschein KG");
    let draft = c.draft(&w.live, &customer);
    w.data.line(&draft, amount, "19", false);
    w.data.ok(&["draft", "issue", &draft])["number"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn settlements_from_the_bank_arrive_as_webhooks_with_method_bank() {
    let w = crate::support::World::webhooks(false);
    let c = w.client();
    let receiver = crate::support::receiver::Receiver::start();
    let a = c.post(
        &w.live,
        "/v1/webhooks",
        &crate::support::unique(),
        &json!({"url": receiver.url("/all"), "events": ["*"]}),
    );
    assert_eq!(a.status, 201, "{:?}", a.body);
    w.data.ok(&[
        "bank",
        "account",
        "add",
        "--company",
        &w.company,
        "--iban",
        "DE36760260000123456789",
    ]);
    let number = issue(&w, 10_000);
    let invoice = c.get(&w.live, &format!("/v1/invoices/{number}")).body;
    let gross = invoice["gross"]["minor"].as_i64().unwrap();
    // Every invoice issued now carries its creditor reference, in its documents too.
    let rf = kontor::rules::creditor_reference::CreditorReference::of_number(&number).unwrap();
    let cii = c.get(
        &w.live,
        &format!("/v1/invoices/{number}/document?format=cii"),
    );
    let xml = String::from_utf8_lossy(&cii.raw).to_string();
    assert!(
        xml.contains(&format!(
            "<ram:PaymentReference>{}</ram:PaymentReference>",
            rf.as_str()
        )),
        "{xml}"
    );
    let today = invoice["issuedOn"].as_str().unwrap().to_string();
    let mut t = tx(gross, "Bäckerei Sonnenschein KG", "");
    t.reference = Some(rf.as_str().to_string());
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        &dir,
        "s.xml",
        camt053(
            "DE36760260000123456789",
            "S-1",
            1,
            0,
            &today,
            &[Entry {
                bank_reference: "A".into(),
                booked_on: today.clone(),
                reversal: false,
                txs: vec![t],
            }],
        )
        .as_bytes(),
    );
    w.data
        .ok(&["bank", "import", "--company", &w.company, &file]);
    w.server.deliver_due(jiff::Timestamp::now()).unwrap();
    let got = receiver.received("/all");
    let bodies: Vec<Value> = got.iter().map(|r| r.json()).collect();
    let payment = bodies
        .iter()
        .find(|b| b["event"] == json!("payment.recorded"))
        .expect("payment.recorded");
    assert_eq!(payment["method"], json!("bank"));
    assert_eq!(payment["amountMinor"], json!(gross.to_string()));
    assert_eq!(payment["targetKind"], json!("invoice"));
    let paid = bodies
        .iter()
        .find(|b| b["event"] == json!("invoice.paid"))
        .expect("invoice.paid");
    assert_eq!(paid["number"], json!(number));
    assert_eq!(paid["paidOn"], json!(today));
    assert_eq!(
        (paid["amountDueMinor"].clone(), paid["paymentState"].clone()),
        (json!("0"), json!("PAID")),
        "{paid}"
    );
    // The audit names the import as the act that recorded the payment.
    let history = c.get(&w.live, &format!("/v1/invoices/{number}")).body;
    assert_eq!(history["outstanding"]["minor"], json!(0));
}

/// A company with the synthetic account and two invoices of one customer,
/// issued on `days`; their numbers and gross amounts.
fn two_invoices(w: &crate::support::World, days: [&str; 2]) -> Vec<(String, i64)> {
    let c = w.client();
    w.data.ok(&[
        "bank",
        "account",
        "add",
        "--company",
        &w.company,
        "--iban",
        "DE36760260000123456789",
    ]);
    let customer = c.customer(&w.live, "Bäckerei Sonnenschein KG");
    let mut issued = Vec::new();
    for (amount, on) in [10_000, 20_000].into_iter().zip(days) {
        let draft = c.draft(&w.live, &customer);
        w.data.line(&draft, amount, "19", false);
        let number = w.data.ok(&["draft", "issue", &draft, "--on", on])["number"]
            .as_str()
            .unwrap()
            .to_string();
        let gross = c.get(&w.live, &format!("/v1/invoices/{number}")).body["gross"]["minor"]
            .as_i64()
            .unwrap();
        issued.push((number, gross));
    }
    issued
}

/// Imports one line of 2026-11-18 paying `amount` and naming both invoices.
fn pay_both(w: &crate::support::World, issued: &[(String, i64)], amount: i64) -> Value {
    let names = format!("Rechnungen {} und {}", issued[0].0, issued[1].0);
    let paying = tx(amount, "Bäckerei Sonnenschein KG", &names);
    let dir = tempfile::tempdir().unwrap();
    let (ok, r, e) = import(
        &w.data,
        &w.company,
        &[&write(
            &dir,
            "s.xml",
            statement("S-1", 1, 0, &[entry("C-1", vec![paying])]).as_bytes(),
        )],
    );
    assert!(ok, "{e}");
    r
}

#[test]
fn a_combined_payment_refused_for_one_of_its_invoices_settles_neither_and_is_not_offered() {
    let w = crate::support::World::new();
    let c = w.client();
    let mut issued = two_invoices(&w, ["2026-11-02", "2026-11-02"]);
    // The second is paid in part by hand after the bank's booking day: a
    // payment of the line's day would break the date order.
    w.data.ok(&[
        "payment",
        "record",
        "--company",
        &w.company,
        "--invoice",
        &issued[1].0,
        "--amount",
        "1000",
        "--on",
        "2026-11-20",
    ]);
    issued[1].1 -= 1_000;
    let r = pay_both(&w, &issued, issued[0].1 + issued[1].1);
    assert_eq!(
        (
            r["files"][0]["settled"].clone(),
            r["files"][0]["suggested"].clone(),
            r["files"][0]["unmatched"].clone()
        ),
        (json!(0), json!(0), json!(1)),
        "{r}"
    );
    let note = r["files"][0]["notes"][0].as_str().unwrap();
    assert!(
        note.contains("could not be settled at import and is not suggested")
            && note.contains("date order"),
        "{r}"
    );
    for (number, owed) in &issued {
        let invoice = c.get(&w.live, &format!("/v1/invoices/{number}")).body;
        assert_eq!(
            invoice["outstanding"]["minor"],
            json!(owed),
            "{number} is owed as before: {invoice}"
        );
    }
    let line = &lines(&w.data, &w.company, Some("unmatched"))[0];
    assert_eq!(line["settlements"], json!([]), "{line}");
    assert_eq!(line["suggestions"], json!([]), "{line}");
    assert_eq!(
        bank_total(&w.data, &w.company),
        1_000,
        "no money booked but the payment by hand"
    );
}

#[test]
fn a_combined_payment_made_before_one_invoices_date_keeps_that_part_as_credit_until_confirmed() {
    let w = crate::support::World::new();
    let c = w.client();
    // The second invoice is dated after the bank's booking day.
    let issued = two_invoices(&w, ["2026-11-02", "2026-11-20"]);
    let r = pay_both(&w, &issued, issued[0].1 + issued[1].1);
    assert_eq!(
        (
            r["files"][0]["settled"].clone(),
            r["files"][0]["suggested"].clone()
        ),
        (json!(0), json!(1)),
        "{r}"
    );
    for (number, gross) in &issued {
        let invoice = c.get(&w.live, &format!("/v1/invoices/{number}")).body;
        assert_eq!(invoice["outstanding"]["minor"], json!(gross), "{invoice}");
    }
    let line = &lines(&w.data, &w.company, Some("suggested"))[0];
    assert_eq!(line["suggestions"][0]["advance"], json!(true), "{line}");
    assert_eq!(
        bank_total(&w.data, &w.company),
        0,
        "nothing booked before a person confirms"
    );
    let confirmed = w
        .data
        .ok(&["bank", "confirm", line["id"].as_str().unwrap()]);
    assert_eq!(confirmed["line"]["state"], json!("settled"), "{confirmed}");
    for (number, _) in &issued {
        let invoice = c.get(&w.live, &format!("/v1/invoices/{number}")).body;
        assert_eq!(invoice["outstanding"]["minor"], json!(0), "{invoice}");
    }
    // The first paid on the line's day; the second's money kept as the
    // customer's credit on that day and applied on the invoice's.
    let done: Vec<(Value, Value, Value)> = confirmed["line"]["settlements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["number"].clone(), s["account"].clone(), s["on"].clone()))
        .collect();
    assert_eq!(
        done,
        [
            (json!(issued[0].0), Value::Null, json!("2026-11-18")),
            (Value::Null, json!("customer_credits"), json!("2026-11-18")),
            (
                json!(issued[1].0),
                json!("customer_credits"),
                json!("2026-11-20")
            ),
        ]
    );
    assert_eq!(bank_total(&w.data, &w.company), issued[0].1 + issued[1].1);
    let tb = w
        .data
        .ok(&["books", "trial-balance", "--company", &w.company]);
    let credits = tb["accounts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["account"] == "customer_credits")
        .map_or(0, |a| {
            a["credit"].as_i64().unwrap() - a["debit"].as_i64().unwrap()
        });
    assert_eq!(credits, 0, "the credit is used up: {tb}");
    assert_eq!(tb["balanced"], json!(true), "{tb}");
}

#[test]
fn lines_waiting_longer_than_three_days_need_attention() {
    let w = crate::support::World::new();
    let c = w.client();
    w.data.ok(&[
        "bank",
        "account",
        "add",
        "--company",
        &w.company,
        "--iban",
        "DE36760260000123456789",
    ]);
    let (ok, _, e) = import(
        &w.data,
        &w.company,
        &[&fixture("synthetic-dk-camt053.v8.xml")],
    );
    assert!(ok, "{e}");
    let today = c.tool(&w.live, "get_business_attention", json!({}))["structuredContent"]["as_of"]
        .as_str()
        .unwrap()
        .to_string();
    let dir = tempfile::tempdir().unwrap();
    let recent = Entry {
        bank_reference: "TODAY".into(),
        booked_on: today.clone(),
        reversal: false,
        txs: vec![tx(777, "Heute", "neu")],
    };
    let fresh = write(
        &dir,
        "today.xml",
        camt053(
            "DE36760260000123456789",
            "S-9",
            9,
            1_356_727,
            &today,
            &[recent],
        )
        .as_bytes(),
    );
    import(&w.data, &w.company, &[&fresh]);
    let att = c.tool(&w.live, "get_business_attention", json!({}))["structuredContent"].clone();
    let bank: Vec<&Value> = att["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["kind"] == json!("bank_line"))
        .collect();
    assert_eq!(
        bank.len(),
        8,
        "the day statement's eight lines, not today's: {att}"
    );
    assert!(
        bank[0]["sentence"]
            .as_str()
            .unwrap()
            .contains("booked on 2026-11-18"),
        "{}",
        bank[0]
    );
    // A line a person books stops needing attention.
    let fee = lines(&w.data, &w.company, None)
        .into_iter()
        .find(|l| l["amount"]["minor"] == json!(-1_290))
        .unwrap();
    w.data.ok(&[
        "bank",
        "book",
        fee["id"].as_str().unwrap(),
        "--account",
        "fees",
    ]);
    let att = c.tool(&w.live, "get_business_attention", json!({}))["structuredContent"].clone();
    assert_eq!(
        att["items"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| i["kind"] == json!("bank_line"))
            .count(),
        7
    );
}

#[test]
fn the_first_account_names_the_iban_on_invoices_and_each_account_is_its_own_ledger_detail() {
    let data = DataFile::new();
    let c = company_with(&data, &[]);
    data.ok(&["company", "set", &c, "--clear", "iban", "--clear", "bic"]);
    data.ok(&[
        "bank",
        "account",
        "add",
        "--company",
        &c,
        "--iban",
        "DE36 7602 6000 0123 4567 89",
        "--bic",
        "GENODEF1N02",
    ]);
    data.ok(&[
        "bank",
        "account",
        "add",
        "--company",
        &c,
        "--iban",
        "DE95207520410291593375",
    ]);
    let accounts = data.ok(&["bank", "account", "list", "--company", &c]);
    let ids: Vec<String> = accounts
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids.len(), 2, "{accounts}");
    // The company named no IBAN: the first account is the one on its invoices.
    let particulars = data.ok(&["company", "show", &c])["particulars"].clone();
    assert_eq!(
        (particulars["iban"].clone(), particulars["bic"].clone()),
        (json!("DE36760260000123456789"), json!("GENODEF1N02"))
    );
    // A sandbox account changes nothing of what invoices say.
    data.ok(&[
        "bank",
        "account",
        "add",
        "--company",
        &c,
        "--sandbox",
        "--iban",
        "DE02120300000000202051",
    ]);
    assert_eq!(
        data.ok(&["company", "show", &c])["particulars"]["iban"],
        json!("DE36760260000123456789")
    );
    // A fee in each account: the trial balance shows bank per account, the sum on the row.
    let dir = tempfile::tempdir().unwrap();
    let first = statement(
        "S-1",
        1,
        0,
        &[entry("A", vec![tx(-1_000, "Bank", "Kontofuehrung")])],
    );
    let second = camt053(
        "DE95207520410291593375",
        "T-1",
        1,
        0,
        "2026-11-18",
        &[entry("B", vec![tx(-2_500, "Bank", "Entgelt")])],
    );
    let (ok, _, e) = import(
        &data,
        &c,
        &[
            &write(&dir, "1.xml", first.as_bytes()),
            &write(&dir, "2.xml", second.as_bytes()),
        ],
    );
    assert!(ok, "{e}");
    for line in lines(&data, &c, None) {
        data.ok(&[
            "bank",
            "book",
            line["id"].as_str().unwrap(),
            "--account",
            "fees",
        ]);
    }
    let tb = data.ok(&["books", "trial-balance", "--company", &c]);
    let bank = tb["accounts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["account"] == "bank")
        .unwrap()
        .clone();
    assert_eq!(
        (bank["debit"].clone(), bank["credit"].clone()),
        (json!(0), json!(3_500)),
        "{bank}"
    );
    let mut details: Vec<(String, i64)> = bank["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["detail"].as_str().unwrap().to_string(),
                d["credit"].as_i64().unwrap(),
            )
        })
        .collect();
    details.sort_by_key(|d| d.1);
    assert_eq!(details, [(ids[0].clone(), 1_000), (ids[1].clone(), 2_500)]);
}
