//! The chart of accounts and the statements on it: one month of a company
//! on SKR03 and the same month on SKR04 — sales at 19 % and 7 %, ten bills
//! on eleven cost accounts (one split, one entertainment bill, one typed as
//! two totals at 7 %, one on an own account), a payment each way, a payment
//! typed wrong and taken back, the bank's fee from its statement, a real
//! XRechnung with XRechnung's Skonto line received and booked, a sale of
//! the year before — compared figure by figure, worked out here, in the trial
//! balance by account number, the profit and loss by § 275 (2) HGB line and
//! the balance sheet by § 266 HGB, each beside the previous year; and the
//! refusals that keep the chart whole.

use serde_json::{json, Value};

use crate::adviser::{bill, issue, line};
use std::path::Path;

use crate::support::statements::{camt053, Entry, Transfer};
use crate::support::World;

/// The FeRD corpus's XRechnung (CII) with two VAT rates.
const XRECHNUNG: &str =
    "tests/fixtures/einvoices-in/zugferd-corpus/XML-Rechnung/CII/XRECHNUNG_Einfach.cii.xml";

/// The numbers of one chart the month lands on.
struct Numbers {
    chart: &'static str,
    own: &'static str,
    bank: u64,
    receivables: u64,
    input_7: u64,
    input_19: u64,
    payables: u64,
    output_7: u64,
    output_19: u64,
    carried: u64,
    goods: u64,
    rent: u64,
    entertainment: u64,
    entertainment_30: u64,
    books: u64,
    revenue_7: u64,
    revenue_19: u64,
    telephone: u64,
    advertising: u64,
    office: u64,
    software: u64,
    travel: u64,
    internet: u64,
    bank_fees: u64,
    other: u64,
}

const SKR03: Numbers = Numbers {
    chart: "skr03",
    own: "4711",
    bank: 1200,
    receivables: 1400,
    input_7: 1571,
    input_19: 1576,
    payables: 1600,
    output_7: 1771,
    output_19: 1776,
    carried: 860,
    goods: 3200,
    rent: 4210,
    entertainment: 4650,
    entertainment_30: 4654,
    books: 4940,
    revenue_7: 8300,
    revenue_19: 8400,
    telephone: 4920,
    advertising: 4600,
    office: 4930,
    software: 4964,
    travel: 4670,
    internet: 4925,
    bank_fees: 4970,
    other: 4900,
};

const SKR04: Numbers = Numbers {
    chart: "skr04",
    own: "6999",
    bank: 1800,
    receivables: 1200,
    input_7: 1401,
    input_19: 1406,
    payables: 3300,
    output_7: 3801,
    output_19: 3806,
    carried: 2970,
    goods: 5200,
    rent: 6310,
    entertainment: 6640,
    entertainment_30: 6644,
    books: 6820,
    revenue_7: 4300,
    revenue_19: 4400,
    telephone: 6805,
    advertising: 6600,
    office: 6815,
    software: 6837,
    travel: 6670,
    internet: 6810,
    bank_fees: 6855,
    other: 6300,
};

/// A bill split over `lines` (ACCOUNT=NET:RATE) dated 5 March 2026.
fn split(w: &World, supplier: &str, number: &str, lines: &[&str]) -> Value {
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
        "2026-03-05",
        "--due",
        "2026-03-05",
        "--currency",
        "EUR",
    ];
    for l in lines {
        args.extend(["--line", l]);
    }
    w.data.ok(&args)
}

/// The company's month on its chart.
fn month(n: &Numbers) -> World {
    let w = World::new();
    let c = w.client();
    w.data.ok(&[
        "company",
        "set",
        &w.company,
        "--chart",
        n.chart,
        "--datev-adviser",
        "1001",
        "--datev-client",
        "1",
    ]);
    let added = w.data.ok(&[
        "account",
        "add",
        "--company",
        &w.company,
        "--number",
        n.own,
        "--name-de",
        "Kosten des Vereins",
        "--name-en",
        "Club costs",
        "--kind",
        "expense",
        "--line",
        "pl:8",
    ]);
    assert_eq!(added["key"], json!(n.own), "{added}");
    let kunde = c.customer(&w.live, "Kunde KG");
    // The year before: 1,000.00 at 19 %, never paid.
    let d = c.draft(&w.live, &kunde);
    line(&w, &d, "100000", &["--tax-rate", "19"]);
    issue(&w, &d, "2025-03-10");
    // March 2026: 2,000.00 at 19 % (paid) and 500.00 at 7 %.
    let d = c.draft(&w.live, &kunde);
    line(&w, &d, "200000", &["--tax-rate", "19"]);
    let paid = issue(&w, &d, "2026-03-02");
    let d = c.draft(&w.live, &kunde);
    line(&w, &d, "50000", &["--tax-rate", "7"]);
    let seven = issue(&w, &d, "2026-03-02");
    w.data.ok(&[
        "payment",
        "record",
        "--company",
        &w.company,
        "--invoice",
        &paid,
        "--amount",
        "238000",
        "--on",
        "2026-03-20",
    ]);
    let rent = split(
        &w,
        "Vermieter GmbH",
        "M-1",
        &["rent=100000:19", "entertainment=20000:19"],
    );
    split(&w, "Großhandel AG", "G-1", &["goods=30000:7"]);
    bill(
        &w,
        "Buchladen",
        "B-1",
        "2026-03-05",
        "10000",
        "700",
        &["--account", "books"],
    );
    split(&w, "Verein e.V.", "V-1", &[&format!("{}=5000:19", n.own)]);
    // Six more bills, each on its account: ten over eleven accounts.
    split(&w, "Telekom", "T-1", &["telephone=8000:19"]);
    split(&w, "Druckerei", "A-1", &["advertising=25000:19"]);
    split(&w, "Bürohaus", "O-1", &["office_supplies=4000:19"]);
    split(&w, "Software GmbH", "S-1", &["software=12000:19"]);
    split(&w, "Bahn", "R-1", &["travel_owner=9000:7"]);
    split(&w, "Netz AG", "N-1", &["internet=3000:19"]);
    // The bank's fee for March, from its statement, booked to fees.
    w.data.ok(&[
        "bank",
        "account",
        "add",
        "--company",
        &w.company,
        "--iban",
        "DE36760260000123456789",
    ]);
    let dir = tempfile::tempdir().unwrap();
    let statement = camt053(
        "DE36760260000123456789",
        "STMT-2026-03",
        1,
        0,
        "2026-03-31",
        &[Entry {
            bank_reference: "FEE-2026-03".into(),
            booked_on: "2026-03-31".into(),
            reversal: false,
            txs: vec![Transfer {
                amount: -1_250,
                name: "Sparkasse".into(),
                remittance: "Kontofuehrung Maerz".into(),
                ..Transfer::default()
            }],
        }],
    );
    let path = crate::bank::write(&dir, "maerz.xml", statement.as_bytes());
    let (ok, _, err) = crate::bank::import(&w.data, &w.company, &[&path]);
    assert!(ok, "{err}");
    let fee = crate::bank::lines(&w.data, &w.company, Some("unmatched"))[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    w.data.ok(&["bank", "book", &fee, "--account", "fees"]);
    // A real XRechnung (the FeRD corpus's, dated into this month) with
    // XRechnung's Skonto line, received and booked by a person: 198.00 at
    // 19 % and 275.00 at 7 %, on the other operating expenses (a new
    // supplier has no account of its own yet).
    let xml = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(XRECHNUNG))
        .unwrap()
        .replace("20241115", "20260305")
        .replace("20241114", "20260304")
        .replace(
            "Zahlbar innerhalb 30 Tagen netto bis 15.12.2024, 3% Skonto innerhalb 10 Tagen bis 25.11.2024",
            "#SKONTO#TAGE=14#PROZENT=2.00#\n",
        );
    let received = crate::bank::write(&dir, "xrechnung.xml", xml.as_bytes());
    let got = w
        .data
        .ok(&["purchase", "receive", "--company", &w.company, &received]);
    let id = got[0]["id"].as_str().unwrap().to_string();
    // Addressed to the corpus's buyer: booked only by a person's choice.
    let booked = w.data.ok(&[
        "purchase",
        "book",
        "--company",
        &w.company,
        &id,
        "--accept-warnings",
    ]);
    assert_eq!(
        (
            &booked["terms"]["discountUntil"],
            &booked["terms"]["discountPercent"]
        ),
        (&json!("2026-03-19"), &json!("2")),
        "{booked}"
    );
    // The 7 % invoice paid by hand, then taken back: typed wrong.
    let wrong = w.data.ok(&[
        "payment",
        "record",
        "--company",
        &w.company,
        "--invoice",
        &seven,
        "--amount",
        "53500",
        "--on",
        "2026-03-22",
    ]);
    w.data.ok(&[
        "payment",
        "reverse",
        wrong["payment"]["id"].as_str().unwrap(),
        "--reason",
        "Zahlung des Kunden einer anderen Rechnung",
        "--on",
        "2026-03-23",
    ]);
    w.data.ok(&[
        "purchase",
        "pay",
        rent["id"].as_str().unwrap(),
        "--amount",
        "142800",
        "--on",
        "2026-03-25",
    ]);
    w
}

/// Each row of the trial balance: (number, opening, year debit, year
/// credit, balance, side).
fn trial_rows(tb: &Value) -> Vec<(u64, i64, i64, i64, i64, String)> {
    tb["accounts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["number"].as_u64().unwrap(),
                a["opening"].as_i64().unwrap(),
                a["yearDebit"].as_i64().unwrap(),
                a["yearCredit"].as_i64().unwrap(),
                a["balance"].as_i64().unwrap(),
                a["side"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// A statement's line: its key, amount, previous year's, and its
/// accounts' (number, amount).
type ShownLine = (String, i64, i64, Vec<(u64, i64)>);

/// A statement's lines as `ShownLine`s.
fn statement_lines(lines: &Value) -> Vec<ShownLine> {
    lines
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["line"].as_str().unwrap().to_string(),
                l["amount"]["minor"].as_i64().unwrap(),
                l["previous"]["minor"].as_i64().unwrap_or(0),
                l["accounts"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|a| {
                        (
                            a["number"].as_u64().unwrap(),
                            a["amount"]["minor"].as_i64().unwrap(),
                        )
                    })
                    .collect(),
            )
        })
        .collect()
}

fn the_month_on(n: &Numbers) {
    let w = month(n);
    let own: u64 = n.own.parse().unwrap();
    let tb = w.data.ok(&[
        "books",
        "trial-balance",
        "--company",
        &w.company,
        "--as-of",
        "2026-03-31",
    ]);
    assert_eq!(tb["balanced"], json!(true));
    assert_eq!(tb["chart"], json!(n.chart));
    assert_eq!(
        (tb["from"].as_str(), tb["yearFrom"].as_str()),
        (Some("2026-03-01"), Some("2026-01-01"))
    );
    let d = |s: &str| s.to_string();
    let mut expected = vec![
        // Last year's sale open; this year's two; one paid, and a payment
        // typed wrong taken back: in and out again on both accounts.
        (
            n.receivables,
            119_000,
            238_000 + 53_500 + 53_500,
            238_000 + 53_500,
            172_500,
            d("debit"),
        ),
        // The bank's fee of 12.50 too.
        (
            n.bank,
            0,
            238_000 + 53_500,
            142_800 + 53_500 + 1_250,
            93_950,
            d("debit"),
        ),
        (
            n.input_7,
            0,
            2_100 + 700 + 630 + 1_925,
            0,
            5_355,
            d("debit"),
        ),
        (
            n.input_19,
            0,
            22_800 + 950 + 9_880 + 3_762,
            0,
            37_392,
            d("debit"),
        ),
        (
            n.payables,
            0,
            142_800,
            142_800 + 32_100 + 10_700 + 5_950 + 71_510 + 52_987,
            173_247,
            d("credit"),
        ),
        (n.output_7, 0, 0, 3_500, 3_500, d("credit")),
        (n.output_19, -19_000, 0, 38_000, 57_000, d("credit")),
        // Last year's result, carried forward.
        (n.carried, -100_000, 0, 0, 100_000, d("credit")),
        (n.goods, 0, 30_000, 0, 30_000, d("debit")),
        (n.rent, 0, 100_000, 0, 100_000, d("debit")),
        // Entertainment: 70 % deductible, 30 % not.
        (n.entertainment, 0, 14_000, 0, 14_000, d("debit")),
        (n.entertainment_30, 0, 6_000, 0, 6_000, d("debit")),
        // Two totals at 7 %: the rate derived, the tax on the 7 % account.
        (n.books, 0, 10_000, 0, 10_000, d("debit")),
        (own, 0, 5_000, 0, 5_000, d("debit")),
        (n.telephone, 0, 8_000, 0, 8_000, d("debit")),
        (n.advertising, 0, 25_000, 0, 25_000, d("debit")),
        (n.office, 0, 4_000, 0, 4_000, d("debit")),
        (n.software, 0, 12_000, 0, 12_000, d("debit")),
        (n.travel, 0, 9_000, 0, 9_000, d("debit")),
        (n.internet, 0, 3_000, 0, 3_000, d("debit")),
        (n.bank_fees, 0, 1_250, 0, 1_250, d("debit")),
        // The received XRechnung, on the general account.
        (n.other, 0, 47_300, 0, 47_300, d("debit")),
        (n.revenue_7, 0, 0, 50_000, 50_000, d("credit")),
        // A profit and loss account starts the year from nothing.
        (n.revenue_19, 0, 0, 200_000, 200_000, d("credit")),
    ];
    expected.sort_by_key(|r| r.0);
    assert_eq!(trial_rows(&tb), expected, "{tb:#}");
    let own_row = crate::support::trial::row(&tb, n.own).unwrap();
    assert_eq!(
        (&own_row["name"], &own_row["nameEn"]),
        (&json!("Kosten des Vereins"), &json!("Club costs"))
    );
    // All postings up to the day, the year's beside them.
    let revenue = crate::support::trial::row(&tb, "revenue_19").unwrap();
    assert_eq!(
        (revenue["credit"].as_i64(), revenue["periodCredit"].as_i64()),
        (Some(300_000), Some(200_000))
    );

    // The profit and loss by § 275 (2) HGB, beside the year before.
    let pl = w.data.ok(&[
        "books",
        "profit-and-loss",
        "--company",
        &w.company,
        "--from",
        "2026-01-01",
        "--to",
        "2026-03-31",
        "--compare",
    ]);
    let mut revenue_accounts = vec![(n.revenue_7, 50_000), (n.revenue_19, 200_000)];
    revenue_accounts.sort();
    let mut other = vec![
        (n.rent, 100_000),
        (n.entertainment, 14_000),
        (n.entertainment_30, 6_000),
        (n.books, 10_000),
        (own, 5_000),
        (n.telephone, 8_000),
        (n.advertising, 25_000),
        (n.office, 4_000),
        (n.software, 12_000),
        (n.travel, 9_000),
        (n.internet, 3_000),
        (n.bank_fees, 1_250),
        (n.other, 47_300),
    ];
    other.sort();
    assert_eq!(
        statement_lines(&pl["lines"]),
        vec![
            (d("pl:1"), 250_000, 100_000, revenue_accounts),
            (d("pl:5a"), 30_000, 0, vec![(n.goods, 30_000)]),
            (d("pl:8"), 244_550, 0, other),
        ],
        "{pl:#}"
    );
    assert_eq!(
        (
            &pl["revenue"]["minor"],
            &pl["expenses"]["minor"],
            &pl["result"]["minor"]
        ),
        (&json!(250_000), &json!(274_550), &json!(-24_550))
    );
    assert_eq!(
        pl["previous"],
        json!({"from": "2025-01-01", "to": "2025-03-31", "result": {"currency": "EUR", "minor": 100_000}})
    );

    // The balance sheet by § 266 HGB: the taxes netted into one debt.
    let bs = w.data.ok(&[
        "books",
        "balance-sheet",
        "--company",
        &w.company,
        "--to",
        "2026-03-31",
        "--compare",
    ]);
    assert_eq!(bs["balanced"], json!(true));
    assert_eq!(
        statement_lines(&bs["assets"]),
        vec![
            (
                d("assets:B.II"),
                172_500,
                119_000,
                vec![(n.receivables, 172_500)]
            ),
            (d("assets:B.IV"), 93_950, 0, vec![(n.bank, 93_950)]),
        ],
        "{bs:#}"
    );
    let mut liabilities = vec![
        (n.payables, 173_247),
        (n.output_7, 3_500),
        (n.output_19, 57_000),
        (n.input_7, -5_355),
        (n.input_19, -37_392),
    ];
    liabilities.sort();
    let sides = statement_lines(&bs["equity_and_liabilities"]);
    assert_eq!(
        sides,
        vec![
            (d("equity:A.IV"), 100_000, 0, vec![(n.carried, 100_000)]),
            (d("equity:A.V"), -24_550, 100_000, vec![]),
            (d("equity:C"), 191_000, 19_000, liabilities),
        ],
        "{bs:#}"
    );
    assert_eq!(
        (
            &bs["total_assets"]["minor"],
            &bs["total_equity_and_liabilities"]["minor"],
            &bs["equity"]["minor"]
        ),
        (&json!(266_450), &json!(266_450), &json!(75_450))
    );

    // DATEV: each bill on its own account with the tax key of its rate.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("march.zip");
    w.data.ok(&[
        "export",
        "datev",
        "--company",
        &w.company,
        "--from",
        "2026-03-01",
        "--to",
        "2026-03-31",
        "--out",
        out.to_str().unwrap(),
    ]);
    let files = crate::adviser::unzip(&out);
    let read = crate::support::extf::read(
        crate::adviser::file(&files, "EXTF_Buchungsstapel_"),
        &crate::support::extf::booking_headings(),
    );
    let mut bills: Vec<(u64, i64, String)> = crate::support::extf::bookings(&read)
        .iter()
        .filter(|b| b.account >= 70_000 && b.contra != n.bank as u32)
        .map(|b| (b.contra as u64, b.amount, b.bu.clone()))
        .collect();
    bills.sort();
    let mut expected = vec![
        (n.rent, 119_000, d("9")),
        (n.entertainment, 16_660, d("9")),
        (n.entertainment_30, 7_140, d("9")),
        (n.goods, 32_100, d("8")),
        (n.books, 10_700, d("8")),
        (own, 5_950, d("9")),
        (n.telephone, 9_520, d("9")),
        (n.advertising, 29_750, d("9")),
        (n.office, 4_760, d("9")),
        (n.software, 14_280, d("9")),
        (n.travel, 9_630, d("8")),
        (n.internet, 3_570, d("9")),
        // The XRechnung: per rate on the general account, the tax by key.
        (n.other, 23_562, d("9")),
        (n.other, 29_425, d("8")),
    ];
    expected.sort();
    assert_eq!(bills, expected);

    // GoBD: the accounts table names each cost's chosen account.
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
    let text = std::fs::read_to_string(gobd.join("accounts.csv")).unwrap();
    let numbered: Vec<(String, String, String)> = text
        .split("\r\n")
        .skip(1)
        .filter(|l| !l.is_empty())
        .map(crate::adviser::split)
        .filter(|r| r[0] == "expenses")
        .map(|r| (r[2].clone(), r[3].clone(), r[5].clone()))
        .collect();
    let rent = numbered
        .iter()
        .find(|r| r.0 == n.rent.to_string())
        .unwrap_or_else(|| panic!("{text}"));
    assert_eq!(rent.2, "1000,00", "{text}");
    assert!(
        numbered
            .iter()
            .any(|r| r.0 == n.own && r.1 == "Kosten des Vereins"),
        "{text}"
    );
}

/// What keeps the chart whole, each refused with a sentence and nothing
/// changed: a bill's cost on a revenue account or on none of the chart, an
/// own account outside the ranges of its kind or on a standard number, a
/// line of the other statement, removing an account with postings or a
/// standard one, changing the chart while own accounts exist.
#[test]
fn the_chart_keeps_its_accounts_meaning_and_refuses_with_a_sentence() {
    let w = month(&SKR03);
    let before = w
        .data
        .ok(&["books", "trial-balance", "--company", &w.company]);
    let accounts = w.data.ok(&["account", "list", "--company", &w.company]);
    let record = |account: &str| {
        w.data.console(&[
            "purchase",
            "record",
            "--company",
            &w.company,
            "--supplier",
            "Vermieter GmbH",
            "--document-number",
            "X-1",
            "--date",
            "2026-03-06",
            "--due",
            "2026-03-06",
            "--currency",
            "EUR",
            "--line",
            &format!("{account}=1000:19"),
        ])
    };
    let (ok, _, err) = record("8400");
    assert!(
        !ok && err.starts_with("kontor: Line 1 names 8400")
            && err.contains("revenue")
            && err.contains("expense account"),
        "{err}"
    );
    let (ok, _, err) = record("revenue_19");
    assert!(!ok && err.contains("expense account"), "{err}");
    let (ok, _, err) = record("4712");
    assert!(!ok && err.contains("names no account"), "{err}");
    let add = |number: &str, kind: &str, line: &str| {
        w.data.console(&[
            "account",
            "add",
            "--company",
            &w.company,
            "--number",
            number,
            "--name-de",
            "Konto",
            "--name-en",
            "Account",
            "--kind",
            kind,
            "--line",
            line,
        ])
    };
    let (ok, _, err) = add("8500", "expense", "pl:8");
    assert!(
        !ok && err.contains("--number") && err.contains("outside the ranges"),
        "{err}"
    );
    let (ok, _, err) = add("4210", "expense", "pl:8");
    assert!(
        !ok && err.contains("4210") && err.contains("standard account"),
        "{err}"
    );
    let (ok, _, err) = add("4712", "expense", "assets:B.II");
    assert!(!ok && err.contains("--line"), "{err}");
    let (ok, _, err) = add("12345", "cost", "pl:8");
    assert!(
        !ok && err.contains("--number") && err.contains("--kind"),
        "{err}"
    );
    let (ok, _, err) = w.data.console(&[
        "account",
        "remove",
        "--company",
        &w.company,
        "--number",
        "4711",
    ]);
    assert!(!ok && err.contains("has postings"), "{err}");
    let (ok, _, err) = w.data.console(&[
        "account",
        "remove",
        "--company",
        &w.company,
        "--number",
        "4210",
    ]);
    assert!(!ok && err.contains("standard account"), "{err}");
    let (ok, _, err) = w
        .data
        .console(&["company", "set", &w.company, "--chart", "skr04"]);
    assert!(!ok && err.contains("--chart"), "{err}");
    // Nothing changed.
    assert_eq!(
        w.data
            .ok(&["books", "trial-balance", "--company", &w.company]),
        before
    );
    assert_eq!(
        w.data.ok(&["account", "list", "--company", &w.company]),
        accounts
    );
    // An own account without postings goes; the list says what is there.
    w.data.ok(&[
        "account",
        "add",
        "--company",
        &w.company,
        "--number",
        "4712",
        "--name-de",
        "Vereinsfeste",
        "--name-en",
        "Club parties",
        "--kind",
        "expense",
        "--line",
        "pl:8",
    ]);
    w.data.ok(&[
        "account",
        "remove",
        "--company",
        &w.company,
        "--number",
        "4712",
    ]);
    let list = w.data.ok(&["account", "list", "--company", &w.company]);
    assert_eq!(list, accounts);
    let rent = list["accounts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["number"] == 4210)
        .unwrap();
    assert_eq!(
        (
            &rent["key"],
            &rent["line"],
            &rent["standard"],
            &rent["forCosts"]
        ),
        (&json!("rent"), &json!("pl:8"), &json!(true), &json!(true))
    );
}

#[test]
fn a_month_on_skr03_reads_by_account_number_and_hgb_line() {
    the_month_on(&SKR03);
}

#[test]
fn the_same_month_on_skr04_reads_on_its_own_numbers() {
    the_month_on(&SKR04);
}
