//! Every sample of `tests/fixtures/bank/` read as its README says an import
//! must show it (line count, signed amounts, dates, counterparty,
//! remittance), and the hostile files each refused with a sentence.

use std::io::Write;

use jiff::civil::{date, Date};

use crate::documents::statements::{archive, read, Line, Message, Statement};
use crate::rules::bank::AccountId;

fn sample(name: &str) -> Vec<Statement> {
    let path = format!("{}/tests/fixtures/bank/{name}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap();
    read(name, &bytes)
        .unwrap_or_else(|e| panic!("{name}: {}", e.sentence()))
        .statements
}

fn lines(statements: &[Statement]) -> Vec<&Line> {
    statements
        .iter()
        .flat_map(|s| &s.entries)
        .flat_map(|e| &e.lines)
        .collect()
}

/// A line's counterparty: its name and IBAN.
fn party(line: &Line) -> (Option<&str>, Option<&str>) {
    let party = &line.counterparty;
    (
        party.name.as_deref(),
        party.iban.as_ref().map(|i| i.as_str()),
    )
}

fn refused(name: &str, bytes: &[u8]) -> String {
    read(name, bytes).unwrap_err().sentence()
}

fn d(y: i16, m: i8, day: i8) -> Option<Date> {
    Some(date(y, m, day))
}

#[test]
fn camt053_v2_minimal() {
    let s = sample("camt053.v2.minimal.xml");
    assert_eq!(s.len(), 1);
    let st = &s[0];
    assert_eq!(
        (st.message, st.version.as_str()),
        (Message::Statement, "camt.053.001.02")
    );
    assert_eq!(st.account, AccountId::read("NL26VAYB8060476890"));
    assert_eq!(st.currency.as_ref().unwrap().as_str(), "EUR");
    assert_eq!(
        (st.id.as_str(), st.sequence.as_deref()),
        ("253EURNL26VAYB8060476890", Some("12312"))
    );
    let opening = st.opening.as_ref().unwrap();
    assert_eq!(
        (opening.amount, opening.currency.as_str(), opening.on),
        (1815, "EUR", d(2014, 12, 30))
    );
    let closing = st.closing.as_ref().unwrap();
    assert_eq!((closing.amount, closing.currency.as_str()), (-2700, "SEK"));
    let e = &st.entries[0];
    assert_eq!((e.amount, e.booked, e.reversal), (885, true, false));
    assert_eq!((e.booked_on, e.value_on), (d(2014, 12, 31), d(2015, 1, 2)));
    let l = lines(&s);
    assert_eq!(l.len(), 1);
    assert_eq!(l[0].amount, 885);
    assert_eq!(party(l[0]), (Some("NAME NAME"), Some("NL56AGDH9619008421")));
    assert_eq!(l[0].remittance, "4654654654654654");
    assert_eq!(l[0].creditor_references, ["4654654654654654"]);
    assert_eq!(l[0].end_to_end_id, None);
}

#[test]
fn camt053_v8() {
    let s = sample("camt053.v8.xml");
    let st = &s[0];
    assert_eq!(st.version, "camt.053.001.08");
    assert_eq!(st.account, AccountId::read("NL26VAYB8060476890"));
    assert!(matches!(st.account, AccountId::Iban(_)));
    assert_eq!(st.currency, None);
    // The same statement as the .02 sample: the duplicate key is equal.
    assert_eq!(
        (st.id.as_str(), st.sequence.as_deref()),
        ("253EURNL26VAYB8060476890", Some("12312"))
    );
    let e = &st.entries[0];
    assert_eq!(
        (e.amount, e.booked, e.booked_on, e.value_on),
        (885, true, d(2014, 12, 31), d(2015, 1, 2))
    );
    assert_eq!(e.bank_reference.as_deref(), Some("AAAASESS-FP-CN_98765/01"));
    let l = lines(&s);
    // The transaction's 0 SEK does not replace the entry's 8.85 EUR.
    assert_eq!(l.len(), 1);
    assert_eq!(l[0].amount, 885);
    assert_eq!(party(l[0]), (Some("NAME NAME"), Some("NL56AGDH9619008421")));
    assert_eq!(l[0].end_to_end_id.as_deref(), Some("MUELL/FINP/RA12345"));
    assert_eq!(l[0].remittance, "4654654654654654");
}

#[test]
fn camt054_v2_details_a_debit_in_three_transactions() {
    let s = sample("camt054.v2.xml");
    let st = &s[0];
    assert_eq!(st.message, Message::Notification);
    assert_eq!(st.account.shown(), "CH28 0123 4000 1234 5678 9");
    let e = &st.entries[0];
    assert_eq!(
        (e.amount, e.currency.as_str(), e.booked, e.batch),
        (-20_000_000, "SEK", true, true)
    );
    assert_eq!(e.bank_reference.as_deref(), Some("AAAASESS-FP-ACCR001"));
    assert_eq!(e.booked_on, d(2007, 10, 18));
    let l = lines(&s);
    assert_eq!(l.len(), 3);
    assert_eq!(
        l.iter().map(|l| l.amount).collect::<Vec<_>>(),
        [-20_000_000, 0, 0]
    );
    assert_eq!(l.iter().map(|l| l.amount).sum::<i64>(), e.amount);
    // A debit's counterparty is its creditor; these name only a debtor.
    assert!(l.iter().all(|l| l.counterparty.name.is_none()));
    assert_eq!(
        l[0].remittance,
        "Unstructured Remittance Information V1 ISR ref number V1"
    );
    assert_eq!(l[1].remittance, "ISR ref number V2");
    assert_eq!(
        l[2].remittance,
        "Unstructured Remittance Information V3 block 1 Unstructured Remittance Information V3 block 2 \
         Ref number V3 block 1 Ref number V3 block 2"
    );
    assert_eq!(l[2].creditor_references.len(), 2);
    assert!(l
        .iter()
        .all(|l| l.end_to_end_id.as_deref() == Some("MUELL/FINP/RA12345")));
}

#[test]
fn camt052_v8_is_preliminary() {
    let s = sample("camt052.v8.xml");
    let st = &s[0];
    assert_eq!(
        (st.message, st.version.as_str()),
        (Message::Report, "camt.052.001.08")
    );
    let e = &st.entries[0];
    assert_eq!((e.amount, e.booked, e.batch), (-20_000_000, false, true));
    assert_eq!(
        (e.booked_on, e.value_on),
        (d(2007, 10, 18), d(2007, 10, 18))
    );
    assert_eq!(e.booking_text.as_deref(), Some("Credit"));
    assert_eq!(e.transaction_code.as_deref(), Some("PMNT/ICDT/XBCT"));
    let l = lines(&s);
    assert_eq!(l.len(), 1);
    assert_eq!((l[0].amount, l[0].remittance.as_str()), (-20_000_000, ""));
    assert_eq!(l[0].counterparty, Default::default());
}

#[test]
fn camt053_v2_with_two_statements() {
    let s = sample("camt053.v2.multi.statement.xml");
    assert_eq!(s.len(), 2);
    assert_eq!(
        (s[0].id.as_str(), s[0].sequence.as_deref()),
        ("253EURNL26VAYB8060476890", Some("12312"))
    );
    assert_eq!(
        (s[1].id.as_str(), s[1].sequence.as_deref()),
        ("254EURNL26VAYB8060476890", None)
    );
    // The balance chain continues.
    assert_eq!(s[0].closing.as_ref().unwrap().amount, 2700);
    assert_eq!(s[1].opening.as_ref().unwrap().amount, 2700);
    assert_eq!(s[1].closing.as_ref().unwrap().amount, 2000);
    let l = lines(&s);
    assert_eq!(l.iter().map(|l| l.amount).collect::<Vec<_>>(), [885, -700]);
    // A credit whose only party is a creditor has no counterparty.
    assert_eq!(l[0].counterparty.name, None);
    assert_eq!(l[0].end_to_end_id.as_deref(), Some("000000001"));
    assert_eq!(l[0].remittance, "Transaction Description 1");
    assert_eq!(
        party(l[1]),
        (Some("Company Name 2"), Some("NL56AGDH9619008421"))
    );
    assert_eq!(l[1].end_to_end_id.as_deref(), Some("000000002"));
    assert_eq!(l[1].remittance, "Transaction Description 2");
}

#[test]
fn mt940_of_a_german_sepa_export() {
    let s = sample("sepa_mt9401.sta");
    assert_eq!(s.len(), 26);
    let accounts: std::collections::BTreeSet<String> =
        s.iter().map(|s| s.account.shown()).collect();
    assert_eq!(accounts.len(), 20);
    assert_eq!(
        s[0].account,
        AccountId::National {
            bank_code: "50880050".into(),
            number: "0194774600888".into()
        }
    );
    assert!(s
        .iter()
        .all(|s| s.message == Message::Mt940 && s.currency.as_ref().unwrap().as_str() == "EUR"));
    let l = lines(&s);
    assert_eq!(l.len(), 97);
    assert_eq!((l[0].amount, l[96].amount), (30_000, 5_005));
    let e = &s[0].entries[0];
    assert_eq!(
        (e.booked_on, e.value_on, e.booked),
        (d(2007, 9, 4), d(2007, 9, 4), true)
    );
    assert_eq!(e.bank_reference.as_deref(), Some("0724710345313905"));
    assert_eq!(e.booking_text.as_deref(), Some("RETOURE"));
    assert_eq!(e.transaction_code.as_deref(), Some("159 NTRF"));
    // Words wrapped across lines and subfields are joined again.
    assert_eq!(l[0].end_to_end_id.as_deref(), Some("TFNR 40005 00005"));
    assert_eq!(
        l[0].remittance,
        "Grund nicht spezifiziert Reject aus SEPA-Ueberweisungsauftrag"
    );
    // RCR: the reversal of a credit is a debit.
    let reversal = &s[0].entries[5];
    assert_eq!(
        (
            reversal.amount,
            reversal.reversal,
            reversal.bank_reference.as_deref()
        ),
        (-20_488, true, None)
    );
    assert_eq!(s[0].opening.as_ref().unwrap().amount, -123_471_836);
    assert_eq!(s[0].closing.as_ref().unwrap().amount, -123_762_823);
    // The second statement: GVC 166 with the payer's particulars.
    let credit = &s[1].entries[0].lines[0];
    assert_eq!(credit.amount, 1_500_005);
    assert_eq!(
        credit.counterparty.name.as_deref(),
        Some("Richter Renate 70 Zeichen Beginn Fuellzeichen xxxxxxxx")
    );
    assert_eq!(
        credit.counterparty.iban.as_ref().unwrap().as_str(),
        "DE42100100100043921105"
    );
    assert_eq!(credit.counterparty.bic.as_deref(), Some("PBNKDEFF100"));
    assert_eq!(
        credit.end_to_end_id.as_deref(),
        Some("EndToEndIdTFNR2000400001")
    );
    assert!(
        credit
            .remittance
            .starts_with("TO 13 TFNr 20004 Eingangskanal Mint"),
        "{}",
        credit.remittance
    );
    // A subfield marker wrapped across lines (`?2` newline `2MTLG:`).
    let wrapped = &s[1].entries[1].lines[0];
    assert_eq!(wrapped.amount, -50_025_000);
    assert_eq!(
        wrapped.remittance,
        "SEPA-Ueberweisungsauftrag Datei mit 0000005 Zahlungen"
    );
    // Statements continued over :62M:/:60M: carry the balance on.
    let (first, second) = (&s[6], &s[7]);
    assert_eq!(first.account, second.account);
    assert_eq!(
        first.closing.as_ref().unwrap().amount,
        second.opening.as_ref().unwrap().amount
    );
    assert_ne!(first.sequence, second.sequence);
    assert_eq!(first.sequence.as_deref(), Some("00004/00001 2007-09-04"));
    // Names in two subfields, spaces run together.
    let josef = s
        .iter()
        .flat_map(|s| &s.entries)
        .flat_map(|e| &e.lines)
        .find(|l| l.counterparty.name.as_deref() == Some("JOSEF JAEGER"));
    assert!(josef.is_some());
}

#[test]
fn mt940_of_a_savings_bank() {
    let s = sample("buxtehude.sta");
    assert_eq!(s.len(), 1);
    let st = &s[0];
    assert!(st
        .account
        .same_account(&AccountId::read("DE95207520410291593375")));
    assert_eq!(st.id, "STARTUMSE");
    assert_eq!(st.sequence.as_deref(), Some("00000/001 2018-11-27"));
    assert_eq!(st.opening.as_ref().unwrap().amount, 1_356_413);
    assert_eq!(st.closing.as_ref().unwrap().amount, 1_352_309);
    let l = lines(&s);
    assert_eq!(
        l.iter().map(|l| l.amount).collect::<Vec<_>>(),
        [-11_935, -1_669, -500]
    );
    let codes: Vec<_> = st
        .entries
        .iter()
        .map(|e| e.transaction_code.as_deref().unwrap())
        .collect();
    assert_eq!(codes, ["NDDT", "NDDT", "N033"]);
    assert_eq!(st.entries[0].booked_on, d(2018, 11, 27));
    assert_eq!(
        l[0].remittance,
        "basically some information here lots of information then some"
    );
    assert!(l[2].remittance.ends_with(
        "however, some ümläuté and öther stüff för some rëäsön which the bank didn't escape"
    ));
    assert_eq!(l[0].counterparty, Default::default());
    // The file's own closing balance is 100.00 above opening + lines: kept
    // as written, for the import to report.
    let sum: i64 = l.iter().map(|l| l.amount).sum();
    assert_eq!(st.opening.as_ref().unwrap().amount + sum, 1_342_309);
}

#[test]
fn synthetic_german_bank_camt053_v8() {
    let s = sample("synthetic-dk-camt053.v8.xml");
    let st = &s[0];
    assert_eq!(st.account, AccountId::read("DE36760260000123456789"));
    assert_eq!(
        (st.id.as_str(), st.sequence.as_deref()),
        ("2026-11-18-0217-EUR-0123456789", Some("217"))
    );
    let (opening, closing) = (st.opening.as_ref().unwrap(), st.closing.as_ref().unwrap());
    assert_eq!(
        (opening.amount, opening.on, closing.amount),
        (1_234_567, d(2026, 11, 17), 1_356_727)
    );
    let total: i64 = st.entries.iter().map(|e| e.amount).sum();
    assert_eq!(opening.amount + total, closing.amount);
    let l = lines(&s);
    assert_eq!(l.len(), 8);
    assert_eq!(
        l.iter().map(|l| l.amount).collect::<Vec<_>>(),
        [119_000, 47_600, 11_900, 23_800, 5_950, -25_300, -59_500, -1_290]
    );
    assert_eq!(
        l[0].counterparty.name.as_deref(),
        Some("Bäckerei Sonnenschein KG")
    );
    assert_eq!(
        l[0].counterparty.iban.as_ref().unwrap().as_str(),
        "DE60430609671122334455"
    );
    assert_eq!(l[0].counterparty.bic.as_deref(), Some("GENODEM1GLS"));
    assert_eq!(l[0].remittance, "RE-2026-00017 Kd-Nr. 10023");
    assert_eq!(l[0].end_to_end_id, None);
    assert_eq!(
        l[1].counterparty.name.as_deref(),
        Some("Hansen & Söhne OHG")
    );
    assert_eq!(l[1].creditor_references, ["RF13RE202600023"]);
    assert_eq!(l[1].end_to_end_id.as_deref(), Some("HS-ZAHLUNG-2026-1117"));
    assert!(st.entries[2].batch);
    assert_eq!(l[2].end_to_end_id.as_deref(), Some("RE2026-00031"));
    assert_eq!(l[2].mandate_id.as_deref(), Some("M-10031"));
    assert_eq!(l[3].counterparty.name.as_deref(), Some("Dr. Ilse Kranich"));
    // The returned direct debit: the customer (its Dbtr) is the counterparty.
    let ret = &st.entries[3];
    assert!(ret.reversal);
    assert_eq!(ret.booking_text.as_deref(), Some("RUECKLASTSCHRIFT"));
    assert_eq!(
        l[5].counterparty.name.as_deref(),
        Some("Gärtnerei Blumenfeld e.K.")
    );
    assert_eq!(
        (l[5].return_reason.as_deref(), l[5].charges),
        (Some("AC04"), 300)
    );
    assert_eq!(l[5].end_to_end_id.as_deref(), Some("RE2026-00009"));
    assert_eq!(l[6].counterparty.name.as_deref(), Some("Holz Meier GmbH"));
    assert_eq!(l[6].remittance, "Rechnung LF-58207 vom 03.11.2026");
    assert_eq!(l[7].counterparty, Default::default());
    assert_eq!(
        l[7].remittance,
        "Entgelte Kontofuehrung 01.10.2026-31.10.2026"
    );
    assert_eq!(
        st.entries[5].transaction_code.as_deref(),
        Some("ACMT/MDOP/CHRG")
    );
    assert!(st
        .entries
        .iter()
        .all(|e| e.booked && e.booked_on == d(2026, 11, 18)));
}

/// A ZIP of `(name, bytes)` members, deflated.
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
fn a_zip_holds_one_file_per_account_and_day() {
    let dir = format!("{}/tests/fixtures/bank", env!("CARGO_MANIFEST_DIR"));
    let a = std::fs::read(format!("{dir}/synthetic-dk-camt053.v8.xml")).unwrap();
    let b = std::fs::read(format!("{dir}/camt053.v2.multi.statement.xml")).unwrap();
    let zip = zip_of(&[("a.xml", &a), ("b.xml", &b)]);
    let read = read("day.zip", &zip).unwrap();
    assert_eq!((read.files, read.statements.len()), (2, 3));
}

#[test]
fn hostile_files_are_refused_with_a_sentence() {
    let laughs = r#"<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><x>&lol3;</x></Document>"#;
    assert_eq!(
        refused("lol.xml", laughs.as_bytes()),
        "The file lol.xml cannot be read at line 3: it declares a DTD (<!DOCTYPE>), which a statement never has; kontor reads none."
    );
    let entity = r#"<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><x>&ext;</x></Document>"#;
    assert!(refused("e.xml", entity.as_bytes()).contains("names the entity &ext;"));
    let other = r#"<?xml version="1.0"?><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>"#;
    assert_eq!(
        refused("inv.xml", other.as_bytes()),
        "The file inv.xml is XML but no camt.052, camt.053 or camt.054 message of versions .001.02 to .001.13 \
         (its root is \"Invoice\" in the namespace \"urn:oasis:names:specification:ubl:schema:xsd:Invoice-2\")."
    );
    let dir = format!("{}/tests/fixtures/bank", env!("CARGO_MANIFEST_DIR"));
    let whole = std::fs::read(format!("{dir}/synthetic-dk-camt053.v8.xml")).unwrap();
    let truncated = &whole[..whole.len() / 2];
    let sentence = refused("half.xml", truncated);
    assert!(sentence.starts_with("The file half.xml "), "{sentence}");
    assert!(
        sentence.contains("truncated") || sentence.contains("not well-formed"),
        "{sentence}"
    );
    let deep = format!(
        r#"<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">{}{}</Document>"#,
        "<a>".repeat(100),
        "</a>".repeat(100)
    );
    assert!(refused("deep.xml", deep.as_bytes()).contains("nest deeper than 40"));
    let big = vec![b' '; 60 * 1024 * 1024];
    assert_eq!(
        refused("big.xml", &big),
        "The file big.xml is larger than 50 MB, the most kontor reads of one statement file."
    );
    let broken = ":20:X\n:25:20752041/0291593375\n:28C:1\n:60F:C181126EUR1,00\n:61:1811271127ZR1,00NDDTNONREF\n:62F:C181127EUR1,00\n";
    assert_eq!(
        refused("broken.sta", broken.as_bytes()),
        "The file broken.sta has a :61: line on line 5 that cannot be read: no mark C, D, RC or RD after the dates."
    );
    let no_comma = broken.replace("ZR1,00", "DR100");
    assert!(refused("c.sta", no_comma.as_bytes()).contains("no decimal comma"));
    assert_eq!(
        refused("x.txt", b"hello"),
        "The file x.txt is neither camt XML, a ZIP of camt files, nor MT940."
    );
    assert_eq!(refused("e.txt", b"  \n"), "The file e.txt is empty.");
    let latin =
        b"<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.08\">\xe4</Document>";
    assert!(refused("l.xml", latin).contains("is not UTF-8"));
    let no_amount = String::from_utf8(whole.clone()).unwrap().replacen(
        "<Amt Ccy=\"EUR\">1190.00</Amt>",
        "<Amt Ccy=\"EUR\">11,90.0</Amt>",
        1,
    );
    assert!(refused("amt.xml", no_amount.as_bytes()).contains("is not an amount of EUR"));
}

#[test]
fn a_zip_bomb_is_cut_off_at_the_bounds() {
    // One member of 60 MB of zeros deflates to about 60 kB.
    let zeros = vec![b'<'; 60 * 1024 * 1024];
    let bomb = zip_of(&[("bomb.xml", &zeros)]);
    assert!(bomb.len() < 1024 * 1024);
    assert_eq!(
        refused("bomb.zip", &bomb),
        "The file bomb.zip/bomb.xml is larger than 50 MB once decompressed, the most kontor reads of one statement file."
    );
    let nested = zip_of(&[("inner.zip", &zip_of(&[("a.xml", b"<a/>")]))]);
    assert!(refused("n.zip", &nested).contains("is itself a ZIP"));
    assert!(refused("cut.zip", &bomb[..bomb.len() / 2]).starts_with("The file cut.zip "));
    // Five members of 45 MB each: every one within its bound, together not.
    let dir = format!("{}/tests/fixtures/bank", env!("CARGO_MANIFEST_DIR"));
    let mut padded = std::fs::read(format!("{dir}/camt053.v8.xml")).unwrap();
    padded.resize(45 * 1024 * 1024, b' ');
    let many: Vec<(String, Vec<u8>)> = (0..5)
        .map(|i| (format!("{i}.xml"), padded.clone()))
        .collect();
    let members: Vec<(&str, &[u8])> = many
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    let total = zip_of(&members);
    let sentence = archive::read("total.zip", &total).unwrap_err().sentence();
    assert_eq!(
        sentence,
        "The file total.zip holds more than 200 MB once decompressed, the most kontor reads of one ZIP."
    );
}

#[path = "../../../tests/it/support/statements.rs"]
mod written;

#[test]
fn what_the_tests_write_reads_back_in_both_formats() {
    let tx = |amount: i64, name: &str, remittance: &str| written::Transfer {
        amount,
        name: name.into(),
        iban: Some("DE60430609671122334455".into()),
        remittance: remittance.into(),
        end_to_end_id: Some("E2E-1".into()),
        ..written::Transfer::default()
    };
    let mut batch = vec![
        tx(1_000, "A", "RE2026-00001"),
        tx(2_000, "B", "RE2026-00002"),
    ];
    batch[1].reference = Some("RF13RE202600023".into());
    let entries = vec![
        written::Entry {
            bank_reference: "R1".into(),
            booked_on: "2026-11-18".into(),
            reversal: false,
            txs: batch,
        },
        written::Entry {
            bank_reference: "R2".into(),
            booked_on: "2026-11-18".into(),
            reversal: false,
            txs: vec![tx(
                -595,
                "Holz Meier GmbH mit einem sehr langen Namen",
                &"Rechnung LF-58207 ".repeat(8),
            )],
        },
        written::Entry {
            bank_reference: "R3".into(),
            booked_on: "2026-11-18".into(),
            reversal: true,
            txs: vec![written::Transfer {
                return_reason: Some("AC04".into()),
                charges: 300,
                ..tx(-25_300, "Gärtnerei", "RE2026-00009")
            }],
        },
    ];
    let camt = written::camt053(
        "DE36760260000123456789",
        "S-1",
        7,
        100_000,
        "2026-11-18",
        &entries,
    );
    let mt = written::mt940(
        "76026000/0123456789",
        "S-1",
        7,
        100_000,
        "2026-11-18",
        &entries,
    );
    for (name, text) in [("w.xml", camt), ("w.sta", mt)] {
        let s = read(name, text.as_bytes())
            .unwrap_or_else(|e| panic!("{}", e.sentence()))
            .statements;
        assert!(
            s[0].account
                .same_account(&AccountId::read("DE36760260000123456789")),
            "{name}"
        );
        let l = lines(&s);
        assert_eq!(
            l.iter().map(|l| l.amount).collect::<Vec<_>>(),
            [1_000, 2_000, -595, -25_300],
            "{name}"
        );
        assert_eq!(l[0].remittance, "RE2026-00001", "{name}");
        assert_eq!(l[0].end_to_end_id.as_deref(), Some("E2E-1"), "{name}");
        assert_eq!(
            l[0].counterparty.iban.as_ref().unwrap().as_str(),
            "DE60430609671122334455"
        );
        assert!(
            l[1].remittance.contains("RF13RE202600023"),
            "{name}: {}",
            l[1].remittance
        );
        assert_eq!(
            l[2].remittance,
            "Rechnung LF-58207 ".repeat(8).trim(),
            "{name}"
        );
        assert_eq!(
            l[2].counterparty.name.as_deref(),
            Some("Holz Meier GmbH mit einem sehr langen Namen"),
            "{name}"
        );
        assert_eq!(
            l[3].counterparty.name.as_deref(),
            Some("Gärtnerei"),
            "{name}"
        );
        assert!(s[0].entries.last().unwrap().reversal, "{name}");
        let closing = s[0].closing.as_ref().unwrap().amount;
        assert_eq!(closing, 100_000 + 1_000 + 2_000 - 595 - 25_300, "{name}");
    }
}
