//! Bank statements written the way banks write them, each case read as the
//! bank meant it: a reference a bank reuses never drops other money as a
//! duplicate, every duplicate is named with the line it repeats, MT940 with
//! a space before the transaction type, a 30 February, the account with
//! its currency appended, the SWIFT envelope's end and a bank's own lines
//! between statements, and camt amounts with more decimals than their
//! currency. The generated test imports 1,000 lines over 20 statements in
//! which 30 % of the lines share their bank reference, then the same
//! statements again under other ids.

use serde_json::{json, Value};

use crate::bank::{company_with, import, lines, write};
use crate::support::statements::{camt053, mt940, Entry, Transfer};
use crate::support::DataFile;

/// The savings bank's account by bank code and number (its IBAN is
/// DE95207520410291593375).
const ACCOUNT: &str = "20752041/0291593375";
const IBAN: &str = "DE36760260000123456789";

fn amounts(lines: &[Value]) -> Vec<i64> {
    lines
        .iter()
        .map(|l| l["amount"]["minor"].as_i64().unwrap())
        .collect()
}

fn oldest_first(data: &DataFile, company: &str) -> Vec<Value> {
    let mut all = lines(data, company, None);
    all.reverse();
    all
}

fn report(
    data: &DataFile,
    company: &str,
    dir: &tempfile::TempDir,
    name: &str,
    text: &str,
) -> Value {
    let (ok, r, e) = import(data, company, &[&write(dir, name, text.as_bytes())]);
    assert!(ok, "{name}: {e}");
    assert_eq!(r["files"][0]["refused"], Value::Null, "{name}: {r}");
    r["files"][0].clone()
}

/// An MT940 statement as a savings bank exports it: CRLF, `:20:STARTUMS`,
/// the account as bank code and number, one `:61:` and `:86:` per booking.
fn sparkasse(id: &str, number: u32, opening: i64, bookings: &[(&str, &str)]) -> String {
    let mut m = format!(
        ":20:{id}\r\n:25:{ACCOUNT}\r\n:28C:{number}/1\r\n:60F:C{}EUR{},{:02}\r\n",
        "261101",
        opening / 100,
        opening % 100
    );
    for (line61, line86) in bookings {
        m.push_str(&format!(":61:{line61}\r\n:86:{line86}\r\n"));
    }
    m.push_str(":62F:C261130EUR0,00\r\n-\r\n");
    m
}

#[test]
fn a_credit_under_the_reference_of_two_earlier_debits_is_imported_and_every_duplicate_is_named() {
    let data = DataFile::new();
    let c = company_with(&data, &[&["--account", ACCOUNT]]);
    let dir = tempfile::tempdir().unwrap();
    // The bank writes the same reference on many lines, across statements.
    let first = sparkasse(
        "STARTUMS",
        1,
        10_000,
        &[
            (
                "2611021102DR12,35NTRFNONREF//0000000012",
                "177?00SEPA-UEBERWEISUNG?20SVWZ+Miete Werkstatt?32Hausverwaltung Kurz",
            ),
            (
                "2611021102DR40,00NTRFNONREF//0000000012",
                "177?00SEPA-UEBERWEISUNG?20SVWZ+Strom Oktober?32Stadtwerke Buxtehude",
            ),
        ],
    );
    let second = sparkasse(
        "STARTUMS",
        2,
        4_765,
        &[(
            "2611031103CR50,00NTRFNONREF//0000000012",
            "166?00GUTSCHRIFT?20SVWZ+RE2026-00007?32Tischlerei Holm",
        )],
    );
    let f = report(&data, &c, &dir, "1.sta", &first);
    assert_eq!(
        (f["new"].clone(), f["duplicates"].clone()),
        (json!(2), json!(0)),
        "{f}"
    );
    let f = report(&data, &c, &dir, "2.sta", &second);
    assert_eq!(
        (f["new"].clone(), f["duplicates"].clone()),
        (json!(1), json!(0)),
        "the credit is other money: {f}"
    );
    let all = oldest_first(&data, &c);
    assert_eq!(amounts(&all), [-1_235, -4_000, 5_000]);
    // An export of the whole month from online banking, under its own
    // statement id, repeats all three: each is named with the line it repeats.
    let month = sparkasse(
        "UMSAETZE-NOV",
        1,
        10_000,
        &[
            (
                "2611021102DR12,35NTRFNONREF//0000000012",
                "177?00SEPA-UEBERWEISUNG?20SVWZ+Miete Werkstatt?32Hausverwaltung Kurz",
            ),
            (
                "2611021102DR40,00NTRFNONREF//0000000012",
                "177?00SEPA-UEBERWEISUNG?20SVWZ+Strom Oktober?32Stadtwerke Buxtehude",
            ),
            (
                "2611031103CR50,00NTRFNONREF//0000000012",
                "166?00GUTSCHRIFT?20SVWZ+RE2026-00007?32Tischlerei Holm",
            ),
            (
                "2611041104DR9,90NTRFNONREF//0000000013",
                "805?00ENTGELT?20Kontofuehrung",
            ),
        ],
    );
    let f = report(&data, &c, &dir, "month.sta", &month);
    assert_eq!(
        (f["new"].clone(), f["duplicates"].clone()),
        (json!(1), json!(3)),
        "{f}"
    );
    let notes: Vec<&str> = f["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .filter(|n| n.contains("not imported again"))
        .collect();
    assert_eq!(notes.len(), 3, "{f}");
    for (note, (line, amount)) in
        notes
            .iter()
            .zip(all.iter().zip(["-12.35 EUR", "-40.00 EUR", "50.00 EUR"]))
    {
        let id = line["id"].as_str().unwrap();
        assert!(
            note.contains(id) && note.contains(amount) && note.contains("UMSAETZE-NOV"),
            "{note}"
        );
        assert!(
            note.contains("of the statement STARTUMS") && note.contains("not imported again"),
            "{note}"
        );
    }
    assert_eq!(
        amounts(&oldest_first(&data, &c)),
        [-1_235, -4_000, 5_000, -990]
    );
}

#[test]
fn the_same_reference_on_a_later_day_or_another_amount_is_another_entry() {
    let data = DataFile::new();
    let c = company_with(&data, &[&["--iban", IBAN]]);
    let dir = tempfile::tempdir().unwrap();
    let tx = |amount: i64, name: &str| Transfer {
        amount,
        name: name.into(),
        remittance: "Dauerauftrag".into(),
        ..Transfer::default()
    };
    let entry = |day: &str, amount: i64, name: &str| Entry {
        bank_reference: "DAUERAUFTRAG 0001".into(),
        booked_on: day.into(),
        reversal: false,
        txs: vec![tx(amount, name)],
    };
    let one = camt053(
        IBAN,
        "S-1",
        1,
        0,
        "2026-11-02",
        &[entry("2026-11-02", -80_000, "Vermieter")],
    );
    let two = camt053(
        IBAN,
        "S-2",
        2,
        -80_000,
        "2026-12-01",
        &[entry("2026-12-01", -80_000, "Vermieter")],
    );
    let three = camt053(
        IBAN,
        "S-3",
        3,
        -160_000,
        "2026-12-02",
        &[entry("2026-12-02", 80_000, "Vermieter")],
    );
    for (name, text) in [("1.xml", &one), ("2.xml", &two), ("3.xml", &three)] {
        let f = report(&data, &c, &dir, name, text);
        assert_eq!(
            (f["new"].clone(), f["duplicates"].clone()),
            (json!(1), json!(0)),
            "{name}: {f}"
        );
    }
    assert_eq!(
        amounts(&oldest_first(&data, &c)),
        [-80_000, -80_000, 80_000]
    );
    // The same day, amount and telling reference in another statement is the
    // same entry, whatever else that export writes about it.
    let again = camt053(
        IBAN,
        "S-2b",
        9,
        -80_000,
        "2026-12-01",
        &[entry("2026-12-01", -80_000, "VERMIETER GMBH")],
    );
    let f = report(&data, &c, &dir, "2b.xml", &again);
    assert_eq!(
        (f["new"].clone(), f["duplicates"].clone()),
        (json!(0), json!(1)),
        "{f}"
    );
}

#[test]
fn mt940_with_a_space_before_the_transaction_type_is_read() {
    let data = DataFile::new();
    let c = company_with(&data, &[&["--account", ACCOUNT]]);
    let dir = tempfile::tempdir().unwrap();
    // Two large banks write `D12,35 NTRF`.
    let text = sparkasse(
        "STARTUMS",
        1,
        10_000,
        &[
            (
                "2611021102D12,35 NTRFNONREF//2611020001",
                "116?00SEPA-UEBERWEISUNG?20SVWZ+Porto?32Deutsche Post AG",
            ),
            (
                "2611021102C100,00 NMSCNONREF",
                "166?00GUTSCHRIFT?20SVWZ+Einlage",
            ),
        ],
    );
    let f = report(&data, &c, &dir, "space.sta", &text);
    assert_eq!(f["new"], json!(2), "{f}");
    let all = oldest_first(&data, &c);
    assert_eq!(amounts(&all), [-1_235, 10_000]);
    assert_eq!(all[0]["remittance"], json!("Porto"));
}

#[test]
fn a_thirtieth_of_february_is_the_months_last_day_with_a_note_on_the_line() {
    let data = DataFile::new();
    let c = company_with(&data, &[&["--account", ACCOUNT]]);
    let dir = tempfile::tempdir().unwrap();
    // The quarter's closing entry, interest computed on 30/360 days.
    let text = ":20:STARTUMS\r\n:25:20752041/0291593375\r\n:28C:2/1\r\n:60F:C260227EUR1000,00\r\n\
        :61:2602300302D4,50NMSCNONREF\r\n:86:805?00ABSCHLUSS?20Abschluss per 30.02.2026?21Zinsen und Entgelte\r\n\
        :62F:C260302EUR995,50\r\n-\r\n";
    let f = report(&data, &c, &dir, "abschluss.sta", text);
    assert_eq!(f["new"], json!(1), "{f}");
    let line = &oldest_first(&data, &c)[0];
    assert_eq!(
        (line["valueOn"].clone(), line["bookedOn"].clone()),
        (json!("2026-02-28"), json!("2026-03-02"))
    );
    let note = line["notes"][0].as_str().unwrap();
    assert!(
        note.contains("260230") && note.contains("2026-02-28"),
        "{note}"
    );
    assert!(f["notes"][0].as_str().unwrap().contains(note), "{f}");
    // 32 February is no day at all.
    let (ok, r, _) = import(
        &data,
        &c,
        &[&write(
            &dir,
            "bad.sta",
            text.replace("2602300302", "2602320302").as_bytes(),
        )],
    );
    assert!(!ok);
    assert!(
        r["files"][0]["refused"]
            .as_str()
            .unwrap()
            .contains("value date"),
        "{r}"
    );
}

#[test]
fn the_account_with_its_currency_appended_is_the_account() {
    for written in [
        "20752041/0291593375EUR",
        "20752041/0291593375 EUR",
        "DE95207520410291593375 EUR",
    ] {
        let data = DataFile::new();
        let c = company_with(&data, &[&["--iban", "DE95207520410291593375"]]);
        let dir = tempfile::tempdir().unwrap();
        let text = format!(
            ":20:STARTUMS\r\n:25:{written}\r\n:28C:1/1\r\n:60F:C261101EUR0,00\r\n\
             :61:2611021102C5,00NTRFNONREF//2611020007\r\n:86:166?00GUTSCHRIFT?20SVWZ+Test\r\n:62F:C261102EUR5,00\r\n-\r\n"
        );
        let f = report(&data, &c, &dir, "ccy.sta", &text);
        assert_eq!(f["new"], json!(1), "{written}: {f}");
    }
}

#[test]
fn the_swift_envelope_and_a_banks_lines_between_statements_are_no_part_of_a_balance() {
    let data = DataFile::new();
    let c = company_with(&data, &[&["--account", ACCOUNT]]);
    let dir = tempfile::tempdir().unwrap();
    let statement = |id: &str,
                     opening: &str,
                     day: &str,
                     amount: &str,
                     closing: &str,
                     reference: &str| {
        format!(
            ":20:{id}\r\n:25:{ACCOUNT}\r\n:28C:{id}\r\n:60F:C{opening}\r\n:61:{day}{}C{amount}NTRFNONREF//{reference}\r\n\
             :86:166?00GUTSCHRIFT?20SVWZ+{reference}\r\n:62F:C{closing}\r\n",
            &day[2..]
        )
    };
    // Each statement in its SWIFT envelope, closed by `-}` alone or with a
    // trailer; between them the bank's own header lines (sender, type,
    // receiver).
    let text = format!(
        "{{1:F01NOLADE21BUX0000000000}}{{2:O9401200261102NOLADE21BUX00000000002611021200N}}{{4:\r\n{}-}}\r\n\
         NOLADE21BUX\r\n940\r\nMUSTDEFFXXX\r\n\
         {{1:F01NOLADE21BUX0000000000}}{{2:O9401200261103NOLADE21BUX00000000002611031200N}}{{4:\r\n{}-}}{{5:{{CHK:4F2A9C01B3E5}}}}\r\n\
         -\r\nNOLADE21BUX\r\n940\r\nMUSTDEFFXXX\r\n\
         {}-}}",
        statement("1", "261101EUR0,00", "261102", "10,00", "261102EUR10,00", "2611020001"),
        statement("2", "261102EUR10,00", "261103", "20,00", "261103EUR30,00", "2611030001"),
        statement("3", "261103EUR30,00", "261104", "30,00", "261104EUR60,00", "2611040001"),
    );
    let f = report(&data, &c, &dir, "swift.sta", &text);
    assert_eq!(
        (f["statements"].clone(), f["new"].clone()),
        (json!(3), json!(3)),
        "{f}"
    );
    assert_eq!(f["notes"], json!([]), "the balance chain holds: {f}");
    assert_eq!(amounts(&oldest_first(&data, &c)), [1_000, 2_000, 3_000]);
    // Without envelopes: `-` ends a statement, the header lines follow.
    let data = DataFile::new();
    let c = company_with(&data, &[&["--account", ACCOUNT]]);
    let plain = format!(
        "{}-\r\nNOLADE21BUX\r\n940\r\nMUSTDEFFXXX\r\n{}-\r\n",
        statement(
            "1",
            "261101EUR0,00",
            "261102",
            "10,00",
            "261102EUR10,00",
            "2611020001"
        ),
        statement(
            "2",
            "261102EUR10,00",
            "261103",
            "20,00",
            "261103EUR30,00",
            "2611030001"
        ),
    );
    let f = report(&data, &c, &dir, "plain.sta", &plain);
    assert_eq!(
        (
            f["statements"].clone(),
            f["new"].clone(),
            f["notes"].clone()
        ),
        (json!(2), json!(2), json!([])),
        "{f}"
    );
}

/// A camt.052 as a German direct bank writes it: balances and amounts
/// with thirteen decimals.
fn direct_bank_report(balance: &str, amount: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.052.001.08" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <BkToCstmrAcctRpt>
    <GrpHdr><MsgId>camt52_20261102103001</MsgId><CreDtTm>2026-11-02T10:30:01.000+01:00</CreDtTm></GrpHdr>
    <Rpt>
      <Id>camt052_20261102_1</Id>
      <ElctrncSeqNb>1</ElctrncSeqNb>
      <CreDtTm>2026-11-02T10:30:01.000+01:00</CreDtTm>
      <Acct><Id><IBAN>{IBAN}</IBAN></Id><Ccy>EUR</Ccy><Ownr><Nm>Muster Werkzeugbau GmbH</Nm></Ownr></Acct>
      <Bal>
        <Tp><CdOrPrtry><Cd>ITBD</Cd></CdOrPrtry></Tp>
        <Amt Ccy="EUR">{balance}</Amt><CdtDbtInd>CRDT</CdtDbtInd>
        <Dt><DtTm>2026-11-02T10:30:01.000+01:00</DtTm></Dt>
      </Bal>
      <Ntry>
        <Amt Ccy="EUR">{amount}</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>PDNG</Cd></Sts>
        <BookgDt><Dt>2026-11-02</Dt></BookgDt><ValDt><Dt>2026-11-02</Dt></ValDt>
        <AcctSvcrRef>2026110200001</AcctSvcrRef>
        <BkTxCd><Prtry><Cd>NMSC+201</Cd><Issr>DK</Issr></Prtry></BkTxCd>
        <NtryDtls><TxDtls>
          <RltdPties><Cdtr><Pty><Nm>Buerobedarf Nord</Nm></Pty></Cdtr></RltdPties>
          <RmtInf><Ustrd>Rechnung 4471</Ustrd></RmtInf>
        </TxDtls></NtryDtls>
      </Ntry>
    </Rpt>
  </BkToCstmrAcctRpt>
</Document>
"#
    )
}

#[test]
fn camt_amounts_with_more_decimals_than_the_currency_are_read_or_rounded_with_a_note() {
    let data = DataFile::new();
    let c = company_with(&data, &[&["--iban", IBAN]]);
    let dir = tempfile::tempdir().unwrap();
    // Thirteen decimals, all zeros: the amounts as they are.
    let f = report(
        &data,
        &c,
        &dir,
        "zeros.xml",
        &direct_bank_report("1234.5600000000000", "12.3400000000000"),
    );
    assert_eq!(
        (
            f["new"].clone(),
            f["preliminary"].clone(),
            f["notes"].clone()
        ),
        (json!(1), json!(1), json!([])),
        "{f}"
    );
    assert_eq!(amounts(&lines(&data, &c, None)), [-1_234]);
    // Digits beyond the cent: rounded, and said so on the line and in the notes.
    let data = DataFile::new();
    let c = company_with(&data, &[&["--iban", IBAN]]);
    let f = report(
        &data,
        &c,
        &dir,
        "digits.xml",
        &direct_bank_report("1234.5649999999999", "12.3450000000001"),
    );
    assert_eq!(f["new"], json!(1), "{f}");
    let notes: Vec<&str> = f["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(
        notes[0].contains("camt052_20261102_1") && notes[0].contains("read as 1,234.56 EUR"),
        "{notes:?}"
    );
    assert!(notes[1].contains("read as 12.35 EUR"), "{notes:?}");
    let line = &lines(&data, &c, None)[0];
    assert_eq!(line["amount"]["minor"], json!(-1_235));
    assert!(
        line["notes"][0]
            .as_str()
            .unwrap()
            .contains("12.3450000000001"),
        "{line}"
    );
}

/// A small deterministic generator (the numbers of a linear congruential
/// generator), so the generated statements are the same on every run.
struct Numbers(u64);

impl Numbers {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % below
    }
}

/// 1,000 lines over 20 statements (10 MT940 of one account, 10 camt.053 of
/// another), one day each; 30 % of the lines take a reference another line
/// has too (a short text, or a number the bank repeats, within and across
/// statements).
fn generated() -> Vec<(String, Vec<Entry>, String)> {
    let mut n = Numbers(4711);
    let shared = ["UEBERWEISUNG", "0000000012", "DAUERAUFTRAG", "9999"];
    let mut out = Vec::new();
    let mut count = 0;
    for s in 0..20 {
        let day = format!("2026-10-{:02}", s + 1);
        let mut entries = Vec::new();
        for _ in 0..50 {
            count += 1;
            let reference = if n.next(100) < 30 {
                shared[n.next(4) as usize].to_string()
            } else {
                format!("{day}-{count:06}")
            };
            let amount = (n.next(200_000) as i64 + 1) * if n.next(2) == 0 { 1 } else { -1 };
            let tx = Transfer {
                amount,
                name: format!("Partner {}", n.next(40)),
                remittance: format!("Beleg {count}"),
                ..Transfer::default()
            };
            entries.push(Entry {
                bank_reference: reference,
                booked_on: day.clone(),
                reversal: false,
                txs: vec![tx],
            });
        }
        out.push((format!("S-{s}"), entries, day));
    }
    out
}

#[test]
fn a_thousand_lines_with_shared_references_are_each_imported_exactly_once() {
    let data = DataFile::new();
    let c = company_with(&data, &[&["--account", ACCOUNT], &["--iban", IBAN]]);
    let dir = tempfile::tempdir().unwrap();
    let statements = generated();
    let write_all = |suffix: &str| -> Vec<String> {
        let mut opening = [0i64, 0i64];
        statements
            .iter()
            .enumerate()
            .map(|(i, (id, entries, day))| {
                let side = i % 2;
                let text = if side == 0 {
                    mt940(
                        ACCOUNT,
                        &format!("{id}{suffix}"),
                        i as u32 + 1,
                        opening[side],
                        day,
                        entries,
                    )
                } else {
                    camt053(
                        IBAN,
                        &format!("{id}{suffix}"),
                        i as u64 + 1,
                        opening[side],
                        day,
                        entries,
                    )
                };
                opening[side] += entries.iter().map(Entry::amount).sum::<i64>();
                write(
                    &dir,
                    &format!("{id}{suffix}.{}", if side == 0 { "sta" } else { "xml" }),
                    text.as_bytes(),
                )
            })
            .collect()
    };
    let files = write_all("");
    let shared = statements
        .iter()
        .flat_map(|s| &s.1)
        .filter(|e| !e.bank_reference.starts_with("2026"))
        .count();
    assert!(
        (250..=350).contains(&shared),
        "30 % share their reference: {shared}"
    );
    let paths: Vec<&str> = files.iter().map(String::as_str).collect();
    let (ok, r, e) = import(&data, &c, &paths);
    assert!(ok, "{e}");
    let new: i64 = r["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["new"].as_i64().unwrap())
        .sum();
    let duplicates: i64 = r["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["duplicates"].as_i64().unwrap())
        .sum();
    assert_eq!((new, duplicates), (1_000, 0), "{r}");
    // Every line exactly once: the amounts and remittances as written.
    let mut stored: Vec<(String, i64)> = lines(&data, &c, None)
        .iter()
        .map(|l| {
            (
                l["remittance"].as_str().unwrap().to_string(),
                l["amount"]["minor"].as_i64().unwrap(),
            )
        })
        .collect();
    let mut written: Vec<(String, i64)> = statements
        .iter()
        .flat_map(|s| &s.1)
        .map(|e| (e.txs[0].remittance.clone(), e.amount()))
        .collect();
    stored.sort();
    written.sort();
    assert_eq!(stored, written);
    // The same files again import nothing; the same statements under other
    // ids (an export of the same days) neither, each line named.
    let (ok, r, _) = import(&data, &c, &paths);
    assert!(ok);
    assert!(
        r["files"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["new"] == json!(0)),
        "{r}"
    );
    let again = write_all("-EXPORT");
    let paths: Vec<&str> = again.iter().map(String::as_str).collect();
    let (ok, r, e) = import(&data, &c, &paths);
    assert!(ok, "{e}");
    for f in r["files"].as_array().unwrap() {
        assert_eq!(
            (f["new"].clone(), f["duplicates"].clone()),
            (json!(0), json!(50)),
            "{f}"
        );
        assert_eq!(
            f["notes"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|n| n.as_str().unwrap().contains("not imported again"))
                .count(),
            50
        );
    }
    assert_eq!(lines(&data, &c, None).len(), 1_000);
}

/// The stored keys of the entries, in order.
fn stored_keys(data: &DataFile) -> Vec<(String, Option<String>, String)> {
    let conn = rusqlite::Connection::open(&data.path).unwrap();
    let mut stmt = conn
        .prepare("SELECT entry_key, reference_key, identity FROM bank_entries ORDER BY seq")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn a_data_file_of_version_13_has_its_entries_keyed_anew() {
    let statements = generated();
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<String> = statements[..4]
        .iter()
        .enumerate()
        .map(|(i, (id, entries, day))| {
            write(
                &dir,
                &format!("{i}.sta"),
                mt940(ACCOUNT, id, i as u32 + 1, 0, day, entries).as_bytes(),
            )
        })
        .collect();
    let paths: Vec<&str> = files.iter().map(String::as_str).collect();
    let fresh = DataFile::new();
    let c = company_with(&fresh, &[&["--account", ACCOUNT]]);
    assert!(import(&fresh, &c, &paths).0);
    // The same imports in a file taken back to version 13: the keys of then.
    let old = DataFile::new();
    let c = company_with(&old, &[&["--account", ACCOUNT]]);
    assert!(import(&old, &c, &paths).0);
    let conn = rusqlite::Connection::open(&old.path).unwrap();
    conn.execute_batch(
        "DROP INDEX bank_entries_reference; DROP INDEX bank_entries_identity;
         ALTER TABLE bank_entries DROP COLUMN reference_key; ALTER TABLE bank_entries DROP COLUMN identity;
         ALTER TABLE bank_lines DROP COLUMN notes;
         DROP INDEX bank_settlements_undone; ALTER TABLE bank_settlements DROP COLUMN undone_by;
         DROP INDEX api_keys_tenant; DROP INDEX bank_statements_tenant;
         ALTER TABLE journal DROP COLUMN chart; ALTER TABLE purchase_lines DROP COLUMN account;
         DROP TABLE chart_accounts;
         ALTER TABLE payments DROP COLUMN reversal_reason;
         ALTER TABLE purchases DROP COLUMN posted_on; ALTER TABLE purchases DROP COLUMN receipt_file_id;
         ALTER TABLE purchases DROP COLUMN discount_until; ALTER TABLE purchases DROP COLUMN discount_percent;
         DROP TABLE asset_depreciations; DROP TABLE depreciation_rules; DROP TABLE assets;
         DROP TABLE export_files;
         CREATE TABLE old_days AS SELECT company_id, environment, account, detail, posted_on,
             sum(debit) AS debit, sum(credit) AS credit FROM account_days
             GROUP BY company_id, environment, account, detail, posted_on;
         DROP TABLE account_days;
         CREATE TABLE account_days (
             company_id TEXT NOT NULL REFERENCES companies (id),
             environment TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
             account TEXT NOT NULL, detail TEXT NOT NULL DEFAULT '', posted_on TEXT NOT NULL,
             debit INTEGER NOT NULL, credit INTEGER NOT NULL,
             PRIMARY KEY (company_id, environment, account, detail, posted_on)
         ) STRICT, WITHOUT ROWID;
         INSERT INTO account_days SELECT * FROM old_days; DROP TABLE old_days;
         UPDATE bank_entries SET entry_key = coalesce('ref:' || bank_reference || '#' || seq, 'sum:' || seq);
         DROP TABLE totp_factors; DROP TABLE recovery_codes; DROP TABLE passkeys;
         DROP TABLE sign_in_steps; DROP TABLE passkey_registrations; DROP TABLE two_factor_required;
         ALTER TABLE companies DROP COLUMN legal_form; DROP TABLE tax_methods;
         DROP INDEX vat_moves_document; DROP INDEX vat_moves_entry; DROP TABLE vat_moves;
         ALTER TABLE purchases DROP COLUMN supplier_cash_basis; ALTER TABLE purchases DROP COLUMN down_payment;
         PRAGMA user_version = 13;",
    )
    .unwrap();
    drop(conn);
    // The next command brings it to 14: the keys are those a fresh import gives.
    assert_eq!(lines(&old, &c, None).len(), 200);
    assert_eq!(stored_keys(&old), stored_keys(&fresh));
    // So an export of the same days finds every entry.
    let export = write(
        &dir,
        "export.sta",
        mt940(ACCOUNT, "EXPORT", 9, 0, &statements[1].2, &statements[1].1).as_bytes(),
    );
    let (ok, r, _) = import(&old, &c, &[&export]);
    assert!(ok);
    assert_eq!(
        (
            r["files"][0]["new"].clone(),
            r["files"][0]["duplicates"].clone()
        ),
        (json!(0), json!(50)),
        "{r}"
    );
}
