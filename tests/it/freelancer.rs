//! A freelancer's year on the cash basis, every figure worked out by hand:
//! VAT on payments received (quarterly, no extension) and the EÜR together.
//! Invoices in November and December at 19 % and 7 %, one paid in
//! December, one half in December and half in January, one never; a bill
//! of December paid in January; a desk (13 years), a chair (a low-value
//! asset) and a laptop (one year); the fourth quarter's VAT paid on
//! 8 January. Shown: the Q4 return (only what was paid, per rate), the
//! next quarter's (the rest), the EÜR's lines, the register's book values;
//! and the same books of a company taxed on invoices with a balance sheet
//! giving the figures taxed on invoices, the EÜR refused to it.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::adviser::kz;
use crate::euer::{assets, trade, Freelancer};

/// The year's acts on `f`: the hand-worked year's trade and assets.
fn year(f: &Freelancer) {
    let trade = trade(f);
    assets(f, &trade.furniture, &trade.laptop);
}

fn vat(f: &Freelancer, period: &str) -> BTreeMap<String, String> {
    kz(&f
        .data
        .ok(&["vat", "return", "--company", &f.company, "--period", period]))
}

fn figures(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn a_freelancers_year_taxed_on_payments_with_the_euer_worked_out_by_hand() {
    let f = Freelancer::new("quarterly", "no");
    f.data.ok(&[
        "company",
        "set",
        &f.company,
        "--vat-method",
        "ist",
        "--ist-reason",
        "freelance",
        "--from",
        "2025-01-01",
    ]);
    year(&f);
    // Q4: A's 1,190.00 in full; B's first half, 1,457.50, split over its
    // gross by rate 2,380.00 : 535.00 → 1,190.00 at 19 % (1,000.00 +
    // 190.00) and 267.50 at 7 % (250.00 + 17.50). Kz 81: 2,000, its tax
    // 380.00; Kz 86: 250, its tax 17.50; Kz 66: the paper bill's 19.00 on
    // its receipt (not its payment). Kz 83: 380.00 + 17.50 − 19.00 = 378.50.
    // C, never paid, is in no return.
    assert_eq!(
        vat(&f, "2026-Q4"),
        figures(&[
            ("81", "2000"),
            ("86", "250"),
            ("66", "19.00"),
            ("83", "378.50")
        ])
    );
    // Q1 2027: B's second half: Kz 81 1,000 (190.00), Kz 86 250 (17.50);
    // Kz 83: 207.50.
    assert_eq!(
        vat(&f, "2027-Q1"),
        figures(&[("81", "1000"), ("86", "250"), ("83", "207.50")])
    );
    // The fourth quarter's 378.50 paid on 8 January, due on 10 January.
    let lines = f.bank("S1", &[("2027-01-08", -37_850, "USt-VA Q4/2026")]);
    f.book(&lines[0], "tax");

    // The EÜR of 2026 (lines of the Anlage EÜR 2026):
    // 15 net revenue received: A 1,000.00 + B's half 1,250.00 = 2,250.00;
    // 17 VAT received: 190.00 + 207.50 = 397.50; 23 income: 2,647.50.
    // 34 depreciation: the desk 1,300.00 × 10/156 months = 83.33, the
    // laptop 1,200.00 in full: 1,283.33; 37 the chair: 600.00.
    // 58 input VAT paid: 361.00 (furniture) + 228.00 (laptop) = 589.00 (the
    // paper bill is paid in 2027); 59 VAT paid to the tax office: 378.50
    // (ten-day rule, § 11 (1) sentence 2 EStG). 76 expenses: 1,283.33 +
    // 600.00 + 589.00 + 378.50 = 2,850.83. Profit: 2,647.50 − 2,850.83.
    let euer = f.euer("2026");
    assert_eq!(
        euer["lines"],
        json!({
            "15": "2250.00", "17": "397.50", "23": "2647.50",
            "34": "1283.33", "37": "600.00", "58": "589.00", "59": "378.50",
            "76": "2850.83"
        }),
        "{euer:#}"
    );
    assert_eq!(euer["profit"], "-203.33");
    assert_eq!(euer["postings"]["59"][0]["date"], "2027-01-08");

    // The register: the desk 1,300.00 − 83.33 = 1,216.67 at the year's end;
    // the chair and the laptop written off.
    let register = f
        .data
        .ok(&["books", "assets", "--company", &f.company, "--year", "2026"]);
    let end = |name: &str| -> Value {
        register["assets"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["name"] == name)
            .unwrap()["bookValueEnd"]
            .clone()
    };
    assert_eq!(
        (end("Schreibtisch"), end("Bürostuhl"), end("Laptop")),
        (json!(121_667), json!(0), json!(0))
    );
}

#[test]
fn the_same_year_taxed_on_invoices_with_a_balance_sheet_gives_the_figures_taxed_on_invoices() {
    let f = Freelancer::new("quarterly", "no");
    f.data.ok(&[
        "company",
        "set",
        &f.company,
        "--profit-method",
        "balance",
        "--from",
        "2025-01-01",
    ]);
    year(&f);
    // Q4 by the invoices issued: A 1,000 + B 2,000 at 19 % = 3,000 (570.00);
    // B 500 + C 300 at 7 % = 800 (56.00); Kz 66 19.00; Kz 83: 607.00.
    assert_eq!(
        vat(&f, "2026-Q4"),
        figures(&[
            ("81", "3000"),
            ("86", "800"),
            ("66", "19.00"),
            ("83", "607.00")
        ])
    );
    assert_eq!(vat(&f, "2027-Q1"), figures(&[("83", "0.00")]));
    let (ok, _, why) =
        f.data
            .console(&["books", "euer", "--company", &f.company, "--year", "2026"]);
    assert!(!ok && why.contains("balance sheet"), "{why}");
}
