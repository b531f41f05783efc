//! Fixed assets: a year worked out by hand through the console (a desk of
//! € 1,300 bought in March over 13 years, a chair of € 600 written off at
//! once, a laptop of € 1,200 in full in the year bought), the pool of a
//! year, a car sold at a gain and furniture scrapped at a loss, what the
//! statements, the VAT return, the DATEV and the GoBD exports make of them,
//! the refusals that change nothing, the screens in German and English, and
//! a company that cannot see another's asset. The ledger balances after
//! every act.

use serde_json::Value;

use crate::adviser::{file, unzip};
use crate::support::extf;
use crate::support::screens::Office;
use crate::support::trial;
use crate::support::World;

/// The trial balance at the end of 2026; it must balance.
fn balanced(w: &World) -> Value {
    let tb = w.data.ok(&[
        "books",
        "trial-balance",
        "--company",
        &w.company,
        "--as-of",
        "2026-12-31",
    ]);
    assert_eq!(tb["balanced"], true, "{tb}");
    assert_eq!(tb["totalDebit"], tb["totalCredit"]);
    tb
}

/// The balance of the chart account `key` in the trial balance (debit
/// positive), 0 when it has none.
fn balance(tb: &Value, key: &str) -> i64 {
    match trial::row(tb, key) {
        Some(r) => {
            let b = r["balance"].as_i64().unwrap();
            if r["side"] == "credit" {
                -b
            } else {
                b
            }
        }
        None => 0,
    }
}

/// The number of journal lines of the company.
fn journal_lines(w: &World) -> i64 {
    rusqlite::Connection::open(&w.data.path)
        .unwrap()
        .query_row(
            "SELECT count(*) FROM journal WHERE company_id = ?1",
            [&w.company],
            |r| r.get(0),
        )
        .unwrap()
}

/// Records a bill of `lines` (`ACCOUNT=NET:RATE`) dated `date`; its id.
fn bill(w: &World, number: &str, date: &str, lines: &[&str]) -> String {
    let mut args = vec![
        "purchase",
        "record",
        "--company",
        &w.company,
        "--supplier",
        "Büro Möbel AG",
        "--document-number",
        number,
        "--date",
        date,
        "--due",
        date,
        "--currency",
        "EUR",
    ];
    for l in lines {
        args.extend(["--line", l]);
    }
    w.data.ok(&args)["id"].as_str().unwrap().to_string()
}

/// `asset add` for the company with `rest`; the asset's JSON.
fn add(w: &World, name: &str, class: &str, rest: &[&str]) -> Value {
    let mut args = vec![
        "asset",
        "add",
        "--company",
        &w.company,
        "--name",
        name,
        "--class",
        class,
    ];
    args.extend(rest);
    w.data.ok(&args)
}

fn minor(v: &Value) -> i64 {
    v["minor"]
        .as_i64()
        .unwrap_or_else(|| panic!("no minor in {v}"))
}

/// The amount of the statement line `key` (`pl:7a`, `assets:A.II`).
fn line(statement: &[Value], key: &str) -> i64 {
    statement
        .iter()
        .find(|l| l["line"] == key)
        .map_or(0, |l| minor(&l["amount"]))
}

#[test]
fn a_desk_a_chair_and_a_laptop_are_written_off_as_the_law_says_and_the_statements_show_them() {
    let w = World::new();
    let bought = bill(
        &w,
        "M-2026-17",
        "2026-03-17",
        &["office_supplies=130000:19", "office_supplies=60000:19"],
    );
    let before = balanced(&w);
    assert_eq!(balance(&before, "office_supplies"), 190_000);

    // The desk from the bill's first line: 13 years, month by month.
    let desk = add(
        &w,
        "Schreibtisch",
        "office_furniture",
        &["--from-bill", &bought, "--line", "1"],
    );
    assert_eq!(desk["method"], "straight_line");
    assert_eq!(desk["lifeMonths"], 156);
    assert_eq!(desk["acquiredOn"], "2026-03-17");
    assert_eq!(minor(&desk["cost"]), 130_000);
    assert_eq!(desk["account"], "asset_office_furniture");
    assert_eq!(desk["reference"], "6.15");
    let tb = balanced(&w);
    assert_eq!(balance(&tb, "office_supplies"), 60_000);
    assert_eq!(balance(&tb, "asset_office_furniture"), 130_000);
    // The bill's input VAT and the VAT return are untouched.
    assert_eq!(balance(&tb, "input_tax_19"), 36_100);

    // The chair from the second line: € 600, written off at once.
    let chair = add(
        &w,
        "Bürostuhl",
        "office_furniture",
        &["--from-bill", &bought, "--line", "2"],
    );
    assert_eq!(chair["method"], "low_value");
    assert_eq!(chair["account"], "asset_low_value");
    // The laptop on its own: paid from money not yet assigned, one year.
    let laptop = add(
        &w,
        "Laptop",
        "computers",
        &["--acquired", "2026-09-01", "--cost", "120000", "--one-year"],
    );
    assert_eq!(laptop["method"], "one_year");
    let tb = balanced(&w);
    assert_eq!(balance(&tb, "office_supplies"), 0);
    assert_eq!(balance(&tb, "transitory_items"), -120_000);

    // The year's depreciation: 1,300 / 13 × 10 / 12 = 83.33; 600; 1,200.
    let run = w.data.ok(&[
        "books",
        "depreciate",
        "--company",
        &w.company,
        "--year",
        "2026",
    ]);
    let posted: Vec<(String, i64)> = run["posted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap().to_string(), minor(&p["amount"])))
        .collect();
    assert_eq!(
        posted,
        vec![
            ("Schreibtisch".to_string(), 8_333),
            ("Bürostuhl".to_string(), 60_000),
            ("Laptop".to_string(), 120_000),
        ]
    );
    assert_eq!(minor(&run["total"]), 188_333);
    assert_eq!(run["to"], "2026-12-31");
    let after = balanced(&w);
    assert_eq!(balance(&after, "depreciation"), 128_333);
    assert_eq!(balance(&after, "low_value_assets_capitalised"), 60_000);
    assert_eq!(balance(&after, "asset_office_furniture"), 121_667);
    assert_eq!(balance(&after, "asset_low_value"), 0);
    assert_eq!(balance(&after, "asset_business_equipment"), 0);
    assert_eq!(
        trial::row(&after, "asset_office_furniture").unwrap()["number"],
        420
    );
    assert_eq!(trial::row(&after, "depreciation").unwrap()["number"], 4830);
    assert_eq!(
        trial::row(&after, "low_value_assets_capitalised").unwrap()["number"],
        4860
    );

    // Once per asset and year: running it again changes nothing.
    let lines = journal_lines(&w);
    let again = w.data.ok(&[
        "books",
        "depreciate",
        "--company",
        &w.company,
        "--year",
        "2026",
    ]);
    assert_eq!(again["posted"], serde_json::json!([]));
    assert_eq!(again["already"], 3);
    assert_eq!(journal_lines(&w), lines);
    assert_eq!(balanced(&w)["totalDebit"], after["totalDebit"]);

    // The register of 2026, per asset and per class.
    let register = w
        .data
        .ok(&["books", "assets", "--company", &w.company, "--year", "2026"]);
    assert_eq!(register["final"], false);
    let rows = register["assets"].as_array().unwrap();
    let of = |name: &str| rows.iter().find(|r| r["name"] == name).unwrap();
    let d = of("Schreibtisch");
    for (field, want) in [
        ("costStart", 0),
        ("additions", 130_000),
        ("depreciation", 8_333),
        ("bookValueStart", 0),
        ("bookValueEnd", 121_667),
        ("accumulatedEnd", 8_333),
    ] {
        assert_eq!(d[field], want, "desk {field}");
    }
    assert_eq!(d["posted"], true);
    assert_eq!(of("Bürostuhl")["bookValueEnd"], 0);
    assert_eq!(of("Laptop")["depreciation"], 120_000);
    let classes = register["classes"].as_array().unwrap();
    assert_eq!(classes.len(), 2);
    assert_eq!(classes[0]["class"], "computers");
    assert_eq!(classes[1]["class"], "office_furniture");
    assert_eq!(classes[1]["additions"], 190_000);
    assert_eq!(classes[1]["depreciation"], 68_333);
    assert_eq!(register["total"]["depreciation"], 188_333);
    assert_eq!(register["total"]["bookValueEnd"], 121_667);
    // The next year, still preliminary: the desk's full year is due.
    let next = w
        .data
        .ok(&["books", "assets", "--company", &w.company, "--year", "2027"]);
    let d = &next["assets"].as_array().unwrap()[0];
    assert_eq!(
        (
            d["name"].as_str(),
            d["bookValueStart"].as_i64(),
            d["depreciation"].as_i64(),
            d["posted"].as_bool()
        ),
        (
            Some("Schreibtisch"),
            Some(121_667),
            Some(10_000),
            Some(false)
        )
    );
    assert_eq!(next["assets"].as_array().unwrap().len(), 3);

    // The statements: § 275 (2) no. 7a and § 266 (2) A.II.
    let pl = w.data.ok(&[
        "books",
        "profit-and-loss",
        "--company",
        &w.company,
        "--from",
        "2026-01-01",
        "--to",
        "2026-12-31",
    ]);
    let pl_lines = pl["lines"].as_array().unwrap();
    assert_eq!(line(pl_lines, "pl:7a"), 188_333);
    assert_eq!(line(pl_lines, "pl:8"), 0);
    let bs = w.data.ok(&[
        "books",
        "balance-sheet",
        "--company",
        &w.company,
        "--as-of",
        "2026-12-31",
    ]);
    assert_eq!(
        line(bs["assets"].as_array().unwrap(), "assets:A.II"),
        121_667
    );
    assert_eq!(bs["balanced"], true);

    // The list shows each with its book value.
    let list = w.data.ok(&["asset", "list", "--company", &w.company]);
    let values: Vec<i64> = list["assets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| minor(&a["bookValue"]))
        .collect();
    assert_eq!(values, vec![121_667, 0, 0]);
}

#[test]
fn a_pool_year_takes_what_costs_250_to_1000_and_writes_off_a_fifth() {
    let w = World::new();
    let chosen = w.data.ok(&[
        "books",
        "depreciation-rule",
        "--company",
        &w.company,
        "--year",
        "2026",
        "--pool",
        "yes",
    ]);
    assert_eq!(chosen["pool"], true);
    assert_eq!(chosen["lowValue"], true);
    let shelf = add(
        &w,
        "Regal",
        "office_furniture",
        &["--acquired", "2026-06-10", "--cost", "60000"],
    );
    assert_eq!(shelf["method"], "pool");
    assert_eq!(shelf["account"], "asset_pool");
    let lamp = add(
        &w,
        "Lampe",
        "office_furniture",
        &["--acquired", "2026-06-10", "--cost", "25000"],
    );
    assert_eq!(lamp["method"], "low_value");
    let table = add(
        &w,
        "Tisch",
        "office_furniture",
        &["--acquired", "2026-06-10", "--cost", "100001"],
    );
    assert_eq!(table["method"], "straight_line");
    // Another year keeps the € 800 rule.
    let next_year = add(
        &w,
        "Stuhl",
        "office_furniture",
        &["--acquired", "2025-12-20", "--cost", "60000"],
    );
    assert_eq!(next_year["method"], "low_value");
    balanced(&w);
    // The choice cannot change once an asset of the year is under it.
    let (ok, _, err) = w.data.console(&[
        "books",
        "depreciation-rule",
        "--company",
        &w.company,
        "--year",
        "2026",
        "--pool",
        "no",
    ]);
    assert!(!ok && err.contains("Regal"), "{err}");
    let shown = w.data.ok(&[
        "books",
        "depreciation-rule",
        "--company",
        &w.company,
        "--year",
        "2026",
    ]);
    assert_eq!(shown["pool"], true);
    w.data.ok(&[
        "books",
        "depreciate",
        "--company",
        &w.company,
        "--year",
        "2025",
    ]);
    let run = w.data.ok(&[
        "books",
        "depreciate",
        "--company",
        &w.company,
        "--year",
        "2026",
    ]);
    let amounts: Vec<(String, i64, String)> = run["posted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                minor(&p["amount"]),
                p["account"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    // 600 / 5; 250 at once; 1,000.01 / 13 × 7 / 12 = 44.87.
    assert_eq!(
        amounts,
        vec![
            ("Regal".to_string(), 12_000, "pool_depreciation".to_string()),
            (
                "Lampe".to_string(),
                25_000,
                "low_value_assets_capitalised".to_string()
            ),
            ("Tisch".to_string(), 4_487, "depreciation".to_string()),
        ]
    );
    let tb = balanced(&w);
    assert_eq!(balance(&tb, "asset_pool"), 48_000);
    assert_eq!(trial::row(&tb, "asset_pool").unwrap()["number"], 485);
    assert_eq!(
        trial::row(&tb, "pool_depreciation").unwrap()["number"],
        4862
    );
}

#[test]
fn a_car_sold_at_a_gain_and_furniture_scrapped_leave_the_books_with_their_proceeds() {
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
    let car = add(
        &w,
        "Firmenwagen",
        "cars",
        &["--acquired", "2026-01-05", "--cost", "3600000"],
    );
    let car_id = car["id"].as_str().unwrap().to_string();
    assert_eq!(car["lifeMonths"], 72);
    let cabinet = add(
        &w,
        "Aktenschrank",
        "office_furniture",
        &["--acquired", "2026-02-01", "--cost", "156000"],
    );
    let cabinet_id = cabinet["id"].as_str().unwrap().to_string();
    balanced(&w);
    // The car is invoiced like any other supply: € 32,000 net at 19 %.
    let key = w.data.key(&w.company, "production", "all");
    let c = w.client();
    let buyer = c.customer(&key, "Autohaus Nord GmbH");
    let draft = c.draft(&key, &buyer);
    w.data.line(&draft, 3_200_000, "19", false);
    let number = w.data.ok(&[
        "draft",
        "issue",
        &draft,
        "--on",
        "2026-10-20",
        "--delivered-on",
        "2026-10-20",
    ])["number"]
        .as_str()
        .unwrap()
        .to_string();
    let vat_before = w.data.ok(&[
        "vat",
        "return",
        "--company",
        &w.company,
        "--period",
        "2026-10",
    ]);
    // Without the invoice, proceeds are refused, nothing changed.
    let lines = journal_lines(&w);
    let (ok, _, err) = w.data.console(&[
        "asset",
        "dispose",
        &car_id,
        "--on",
        "2026-10-20",
        "--proceeds",
        "3200000",
    ]);
    assert!(!ok && err.contains("--invoice"), "{err}");
    assert_eq!(journal_lines(&w), lines);
    // Sold on 20 October: January to October written off (10 × 500.00),
    // 31,000.00 left, sold for 32,000.00: a gain of 1,000.00.
    let sold = w.data.ok(&[
        "asset",
        "dispose",
        &car_id,
        "--on",
        "2026-10-20",
        "--invoice",
        &number,
        "--proceeds",
        "3200000",
    ]);
    assert_eq!(sold["disposedOn"], "2026-10-20");
    assert_eq!(minor(&sold["proceeds"]), 3_200_000);
    assert_eq!(minor(&sold["depreciated"]), 500_000);
    assert_eq!(minor(&sold["bookValue"]), 0);
    let tb = balanced(&w);
    assert_eq!(balance(&tb, "asset_cars"), 0);
    assert_eq!(balance(&tb, "depreciation_vehicles"), 500_000);
    assert_eq!(balance(&tb, "asset_disposal_gain"), 3_100_000);
    assert_eq!(balance(&tb, "asset_sale_gain_19"), -3_200_000);
    assert_eq!(balance(&tb, "revenue_19"), 0);
    assert_eq!(balance(&tb, "output_tax_19"), -608_000);
    assert_eq!(
        trial::row(&tb, "asset_sale_gain_19").unwrap()["number"],
        8820
    );
    assert_eq!(
        trial::row(&tb, "asset_disposal_gain").unwrap()["number"],
        2315
    );
    // The VAT return still counts the sale's supply at 19 %.
    let vat = w.data.ok(&[
        "vat",
        "return",
        "--company",
        &w.company,
        "--period",
        "2026-10",
    ]);
    assert_eq!(vat["kz"], vat_before["kz"]);
    assert_eq!(vat["kz"]["81"], "32000");
    // Twice is refused.
    let (ok, _, err) = w
        .data
        .console(&["asset", "dispose", &car_id, "--on", "2026-11-02"]);
    assert!(!ok && err.contains("left the books on 2026-10-20"), "{err}");

    // The cabinet is scrapped on 15 November: 1,560 / 13 / 12 = 10.00 a
    // month for ten months, 1,460.00 out at a loss.
    let scrapped = w
        .data
        .ok(&["asset", "dispose", &cabinet_id, "--on", "2026-11-15"]);
    assert_eq!(minor(&scrapped["depreciated"]), 10_000);
    let tb = balanced(&w);
    assert_eq!(balance(&tb, "asset_office_furniture"), 0);
    assert_eq!(balance(&tb, "asset_disposal_loss"), 146_000);
    assert_eq!(
        trial::row(&tb, "asset_disposal_loss").unwrap()["number"],
        2310
    );
    // The run of the year finds both gone.
    let run = w.data.ok(&[
        "books",
        "depreciate",
        "--company",
        &w.company,
        "--year",
        "2026",
    ]);
    assert_eq!(run["posted"], serde_json::json!([]));

    // The profit and loss: the gain under no. 4, the loss under no. 8.
    let pl = w.data.ok(&[
        "books",
        "profit-and-loss",
        "--company",
        &w.company,
        "--from",
        "2026-01-01",
        "--to",
        "2026-12-31",
    ]);
    let pl_lines = pl["lines"].as_array().unwrap();
    assert_eq!(line(pl_lines, "pl:4"), 100_000);
    assert_eq!(line(pl_lines, "pl:8"), 146_000);
    assert_eq!(line(pl_lines, "pl:7a"), 510_000);
    assert_eq!(line(pl_lines, "pl:1"), 0);

    // The register of 2026: both in and out within the year.
    let register = w
        .data
        .ok(&["books", "assets", "--company", &w.company, "--year", "2026"]);
    let total = &register["total"];
    assert_eq!(total["additions"], 3_756_000);
    assert_eq!(total["disposals"], 3_756_000);
    assert_eq!(total["depreciation"], 510_000);
    assert_eq!(total["disposalValue"], 3_246_000);
    assert_eq!(total["proceeds"], 3_200_000);
    assert_eq!(total["bookValueEnd"], 0);

    // DATEV: every account adds up to the ledger, the proceeds move off
    // 8400 with the automatic lifted.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("datev.zip");
    w.data.ok(&[
        "export",
        "datev",
        "--company",
        &w.company,
        "--from",
        "2026-01-01",
        "--to",
        "2026-12-31",
        "--out",
        out.to_str().unwrap(),
    ]);
    let files = unzip(&out);
    let read = extf::read(
        file(&files, "EXTF_Buchungsstapel_"),
        &extf::booking_headings(),
    );
    let bookings = extf::bookings(&read);
    let totals = crate::adviser::totals(&bookings);
    for (number, key) in [
        (320, "asset_cars"),
        (420, "asset_office_furniture"),
        (4832, "depreciation_vehicles"),
        (4830, "depreciation"),
        (2315, "asset_disposal_gain"),
        (2310, "asset_disposal_loss"),
        (1590, "transitory_items"),
    ] {
        assert_eq!(
            totals.get(&number).copied().unwrap_or(0),
            balance(&tb, key),
            "{number}"
        );
    }
    let sale: Vec<_> = bookings
        .iter()
        .filter(|b| b.account == 8400 && b.contra == 8820)
        .map(|b| (b.amount, b.bu.clone(), b.document.clone()))
        .collect();
    assert_eq!(sale, vec![(3_200_000, "40".to_string(), number.clone())]);
    assert!(
        bookings
            .iter()
            .any(|b| b.text.starts_with("Anlagenabgang Firmenwagen")),
        "the disposal's text names the asset"
    );

    // GoBD: the register as a table, the asset entries in the journal.
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
    let index = std::fs::read_to_string(gobd.join("index.xml")).unwrap();
    assert!(index.contains("<URL>assets.csv</URL>"), "{index}");
    let csv = std::fs::read_to_string(gobd.join("assets.csv")).unwrap();
    let rows: Vec<&str> = csv.trim_end().split("\r\n").collect();
    assert_eq!(rows.len(), 3, "{csv}");
    assert!(rows[0].starts_with("\"asset\";\"name\""), "{}", rows[0]);
    assert!(
        rows[1].contains("\"Firmenwagen\"") && rows[1].contains("36000,00"),
        "{}",
        rows[1]
    );
    let journal = std::fs::read_to_string(gobd.join("journal.csv")).unwrap();
    assert!(journal.contains(&format!("\"{car_id}\"")) && journal.contains("\"fixed_assets\""));
}

#[test]
fn refusals_say_why_and_change_nothing() {
    let w = World::new();
    let bought = bill(&w, "R-1", "2026-04-02", &["office_supplies=50000:19"]);
    let refused = |args: &[&str], says: &str| {
        let lines = journal_lines(&w);
        let mut all = vec!["asset", "add", "--company", &w.company];
        all.extend(args);
        let (ok, _, err) = w.data.console(&all);
        assert!(!ok && err.contains(says), "{args:?}: {err}");
        assert_eq!(journal_lines(&w), lines, "{args:?} changed nothing");
    };
    // A useful life of 0.
    refused(
        &[
            "--name",
            "Regal",
            "--class",
            "office_furniture",
            "--acquired",
            "2026-04-02",
            "--cost",
            "90000",
            "--life-months",
            "0",
        ],
        "--life-months is at least 1",
    );
    // The one-year life is for computers and software.
    refused(
        &[
            "--name",
            "Regal",
            "--class",
            "office_furniture",
            "--acquired",
            "2026-04-02",
            "--cost",
            "90000",
            "--one-year",
        ],
        "--one-year",
    );
    refused(
        &[
            "--name",
            "X",
            "--class",
            "spaceship",
            "--acquired",
            "2026-04-02",
            "--cost",
            "1",
        ],
        "--class",
    );
    refused(
        &[
            "--name",
            "Regal",
            "--class",
            "other",
            "--acquired",
            "2026-04-02",
            "--cost",
            "90000",
        ],
        "--life-months is needed",
    );
    refused(
        &[
            "--name",
            "Regal",
            "--class",
            "office_furniture",
            "--from-bill",
            &bought,
            "--line",
            "2",
        ],
        "names no line",
    );
    refused(
        &[
            "--name",
            "Regal",
            "--class",
            "office_furniture",
            "--from-bill",
            &bought,
            "--line",
            "1",
            "--cost",
            "50001",
        ],
        "is more than",
    );
    let shelf = add(
        &w,
        "Regal",
        "office_furniture",
        &["--from-bill", &bought, "--line", "1"],
    );
    assert_eq!(minor(&shelf["cost"]), 50_000);
    refused(
        &[
            "--name",
            "Noch ein Regal",
            "--class",
            "office_furniture",
            "--from-bill",
            &bought,
            "--line",
            "1",
        ],
        "nothing left",
    );
    let shelf_id = shelf["id"].as_str().unwrap();
    let lines = journal_lines(&w);
    // A disposal before its acquisition.
    let (ok, _, err) = w
        .data
        .console(&["asset", "dispose", shelf_id, "--on", "2026-03-31"]);
    assert!(
        !ok && err.contains("lies before the asset's acquisition on 2026-04-02"),
        "{err}"
    );
    assert_eq!(journal_lines(&w), lines);
    // A year not yet posted before a later one.
    let old = add(
        &w,
        "Alter Drucker",
        "computers",
        &["--acquired", "2025-05-01", "--cost", "90000"],
    );
    let lines = journal_lines(&w);
    let (ok, _, err) = w.data.console(&[
        "books",
        "depreciate",
        "--company",
        &w.company,
        "--year",
        "2026",
    ]);
    assert!(
        !ok && err.contains("The depreciation of 2025 is not posted for Alter Drucker"),
        "{err}"
    );
    assert_eq!(journal_lines(&w), lines);
    let (ok, _, err) = w.data.console(&[
        "asset",
        "dispose",
        old["id"].as_str().unwrap(),
        "--on",
        "2026-06-30",
    ]);
    assert!(!ok && err.contains("The depreciation of 2025"), "{err}");
    // A year not yet begun.
    let (ok, _, err) = w.data.console(&[
        "books",
        "depreciate",
        "--company",
        &w.company,
        "--year",
        "2999",
    ]);
    assert!(!ok && err.contains("begins on 2999-01-01"), "{err}");
    // A closed year.
    w.data.ok(&[
        "books",
        "depreciate",
        "--company",
        &w.company,
        "--year",
        "2025",
    ]);
    w.data.ok(&[
        "books",
        "close",
        "--company",
        &w.company,
        "--through",
        "2026-12-31",
    ]);
    let lines = journal_lines(&w);
    let (ok, _, err) = w.data.console(&[
        "books",
        "depreciate",
        "--company",
        &w.company,
        "--year",
        "2026",
    ]);
    assert!(
        !ok && err.contains("The books are closed through 2026-12-31; the depreciation of 2026"),
        "{err}"
    );
    assert_eq!(journal_lines(&w), lines);
    let (ok, _, err) = w.data.console(&[
        "books",
        "depreciation-rule",
        "--company",
        &w.company,
        "--year",
        "2026",
        "--pool",
        "yes",
    ]);
    assert!(!ok && err.contains("closed through 2026-12-31"), "{err}");
    // An asset whose first year is closed: its depreciation could never be
    // posted, though its bill is booked in the next year.
    let late = w.data.ok(&[
        "purchase",
        "record",
        "--company",
        &w.company,
        "--supplier",
        "Büro Möbel AG",
        "--document-number",
        "R-2",
        "--date",
        "2026-12-20",
        "--due",
        "2026-12-31",
        "--posted",
        "2027-01-04",
        "--currency",
        "EUR",
        "--line",
        "office_supplies=90000:19",
    ])["id"]
        .as_str()
        .unwrap()
        .to_string();
    refused(
        &[
            "--name",
            "Spätes Regal",
            "--class",
            "office_furniture",
            "--from-bill",
            &late,
            "--line",
            "1",
        ],
        "the first year of an asset acquired on 2026-12-20",
    );
    balanced(&w);
}

#[test]
fn the_screens_record_depreciate_and_dispose_in_german_and_english_and_keep_companies_apart() {
    let office = Office::new();
    let mut owner = office.signed_in("owner@alpha.de");
    // A bill of company A with a desk on it.
    let bill = office.data.ok(&[
        "purchase",
        "record",
        "--company",
        &office.a,
        "--supplier",
        "Büro Möbel AG",
        "--document-number",
        "M-9",
        "--date",
        "2026-03-17",
        "--due",
        "2026-03-31",
        "--currency",
        "EUR",
        "--line",
        "office_supplies=130000:19",
    ])["id"]
        .as_str()
        .unwrap()
        .to_string();
    let page = owner.get(&format!("/bills/{bill}"));
    let link = format!("/books/assets/new?fromBill={bill}&amp;line=1");
    assert!(page.body.contains(&link), "{}", page.body);
    let form = owner.get(&format!(
        "/books/assets/new?fromBill={bill}&line=1&name=Schreibtisch"
    ));
    assert_eq!(form.status, 200);
    assert!(
        form.body.contains(&format!("value=\"{bill}\"")),
        "the form is filled in"
    );
    // A refused form keeps what was typed.
    let refused = owner.act(
        "/books/assets",
        "/books/assets",
        &[
            ("name", "Schreibtisch"),
            ("class", "office_furniture"),
            ("fromBill", &bill),
            ("line", "1"),
            ("lifeMonths", "0"),
        ],
    );
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert!(
        refused.body.contains("field-lifeMonths-error"),
        "{}",
        refused.body
    );
    let added = owner.act(
        "/books/assets",
        "/books/assets",
        &[
            ("name", "Schreibtisch"),
            ("class", "office_furniture"),
            ("fromBill", &bill),
            ("line", "1"),
            ("oneYear", "no"),
        ],
    );
    let location = added.redirects_to_prefix("/books/assets/ast_");
    let id = location
        .trim_start_matches("/books/assets/")
        .trim_end_matches("?done=recorded")
        .to_string();
    let asset_page = owner.get(&location);
    assert_eq!(asset_page.status, 200);
    assert!(asset_page.body.contains("Schreibtisch · kontor"));
    assert!(asset_page.body.contains("83.33"), "{}", asset_page.body);
    assert!(asset_page.body.contains("0420 "), "{}", asset_page.body);
    // The closing page offers the year's depreciation; it is posted there.
    let closing = owner.get("/books");
    assert!(closing.body.contains("action=\"/books/assets/depreciate\""));
    owner
        .act("/books", "/books/assets/depreciate", &[("year", "2026")])
        .redirects_to("/books/assets?year=2026&done=depreciated");
    let register = owner.get("/books/assets?year=2026");
    assert!(register.body.contains("id=\"register-assets\""));
    assert!(register.body.contains("1,216.67"), "{}", register.body);
    // Refused as a viewer.
    let mut viewer = office.signed_in("viewer@alpha.de");
    let page = viewer.act(
        "/books/assets",
        "/books/assets/depreciate",
        &[("year", "2026")],
    );
    assert_eq!(page.status, 403, "{}", page.body);
    // German.
    owner.act("/dashboard", "/session/language", &[("language", "de")]);
    let de = owner.get("/books/assets?year=2026");
    assert!(de.body.contains("Anlagevermögen · kontor"), "{}", de.body);
    assert!(
        de.body.contains("Buchwert am Ende") && de.body.contains("1.216,67"),
        "{}",
        de.body
    );
    let de_asset = owner.get(&format!("/books/assets/{id}"));
    assert!(de_asset.body.contains("Abgang des Anlageguts") && de_asset.body.contains("83,33"));
    // Scrapped on the screen.
    owner
        .act(
            &format!("/books/assets/{id}"),
            &format!("/books/assets/{id}/dispose"),
            &[("on", "2026-12-31"), ("invoice", ""), ("proceeds", "")],
        )
        .redirects_to(&format!("/books/assets/{id}?done=disposed"));
    let gone = owner.get(&format!("/books/assets/{id}?done=disposed"));
    assert!(
        gone.body.contains("Das Anlagegut ist abgegangen."),
        "{}",
        gone.body
    );
    assert!(!gone
        .body
        .contains(&format!("action=\"/books/assets/{id}/dispose\"")));

    // Company B sees nothing of it: not on its pages, not by its address.
    let mut other = office.signed_in("owner@beta.de");
    assert_eq!(other.get(&format!("/books/assets/{id}")).status, 404);
    let theirs = other.get("/books/assets?year=2026");
    assert!(!theirs.body.contains("Schreibtisch"));
    let page = other.act(
        "/books/assets",
        &format!("/books/assets/{id}/dispose"),
        &[("on", "2026-12-31")],
    );
    assert_eq!(page.status, 404);
    let listed = office.data.ok(&["asset", "list", "--company", &office.b]);
    assert_eq!(listed["assets"], serde_json::json!([]));
    // Nor the sandbox of A.
    let (ok, _, err) = office.data.console(&["asset", "show", &id, "--sandbox"]);
    assert!(!ok && err.contains("was not found"), "{err}");
    // The act's audit rows name the person.
    let acts: Vec<String> = office
        .db()
        .prepare(
            "SELECT act FROM audit WHERE company_id = ?1 AND user_id IS NOT NULL
                 AND (act LIKE 'asset.%' OR act = 'books.depreciated') ORDER BY seq",
        )
        .unwrap()
        .query_map([&office.a], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(
        acts,
        vec!["asset.recorded", "books.depreciated", "asset.disposed"]
    );
}
