//! The cash-basis profit statement (EÜR) through the console: a
//! freelancer's year worked out by hand (invoices paid in full, in part and
//! not at all, bills paid in the year and after it, a desk, a chair and a
//! laptop as assets, the VAT paid to the tax office around the turn of the
//! year, a bank fee), compared line by line; the ten-day rule with and
//! without the one-month extension; preliminary until the books are closed
//! through the tenth of January, final after; its PDF; and the refusals
//! that name why (a year whose form kontor does not know, a company that
//! draws up a balance sheet).

use serde_json::{json, Value};

use crate::bank::{import, lines, write};
use crate::support::screens::{person, Browser, PASSWORD};
use crate::support::statements::{camt053, Entry, Transfer};
use crate::support::{start, Client, DataFile};
use kontor::http::server::Server;

const IBAN: &str = "DE36760260000123456789";

/// A freelancer's books: a sole proprietor determining its profit by the
/// EÜR from 2025 on, owing VAT on invoices (`soll`) or on payments received
/// (`ist`, as a freelancer may), filing its VAT return `period`ly with or
/// without the extension.
pub struct Freelancer {
    pub data: DataFile,
    pub server: Server,
    pub company: String,
    pub key: String,
    customer: Value,
}

impl Freelancer {
    pub fn new(period: &str, extension: &str) -> Freelancer {
        Freelancer::owing("soll", period, extension)
    }

    /// A freelancer owing VAT as `vat` says (`soll`, `ist`).
    pub fn owing(vat: &str, period: &str, extension: &str) -> Freelancer {
        let data = DataFile::new();
        let company = data.ok(&[
            "company",
            "create",
            "--name",
            "Anna Berger Design",
            "--country",
            "DE",
            "--currency",
            "EUR",
            "--plan",
            "ENTERPRISE",
            "--legal-name",
            "Anna Berger",
            "--street",
            "Lange Reihe 12",
            "--postal-code",
            "20099",
            "--city",
            "Hamburg",
            "--vat-id",
            "DE136695976",
            "--tax-number",
            "43/123/45678",
            "--contact-name",
            "Anna Berger",
            "--contact-phone",
            "+49 40 7654321",
            "--contact-email",
            "anna@berger-design.example",
            "--electronic-address",
            "9930:DE136695976",
            "--iban",
            "DE02120300000000202051",
            "--bic",
            "BYLADEM1001",
        ])["id"]
            .as_str()
            .unwrap()
            .to_string();
        let mut methods = vec![
            "company",
            "set",
            &company,
            "--legal-form",
            "sole-proprietor",
            "--profit-method",
            "euer",
            "--vat-method",
            vat,
            "--vat-period",
            period,
            "--vat-extension",
            extension,
            "--from",
            "2025-01-01",
        ];
        if vat == "ist" {
            methods.extend(["--ist-reason", "freelance"]);
        }
        data.ok(&methods);
        data.ok(&[
            "bank",
            "account",
            "add",
            "--company",
            &company,
            "--iban",
            IBAN,
        ]);
        let key = data.key(&company, "production", "all");
        let server = start(&data);
        let customer = Client { addr: server.addr }.customer(&key, "Kunstverein Altona e. V.");
        Freelancer {
            data,
            server,
            company,
            key,
            customer,
        }
    }

    fn client(&self) -> Client {
        Client {
            addr: self.server.addr,
        }
    }

    /// An invoice issued on `on` of `lines` (net minor units, rate); its number.
    pub fn invoice(&self, on: &str, lines: &[(i64, &str)]) -> String {
        let draft = self.client().draft(&self.key, &self.customer);
        for (net, rate) in lines {
            self.data.line(&draft, *net, rate, false);
        }
        self.data.ok(&["draft", "issue", &draft, "--on", on])["number"]
            .as_str()
            .unwrap()
            .to_string()
    }

    /// Money in against an invoice; the payment's id.
    pub fn paid(&self, number: &str, amount: i64, on: &str) -> String {
        self.data.ok(&[
            "payment",
            "record",
            "--company",
            &self.company,
            "--invoice",
            number,
            "--amount",
            &amount.to_string(),
            "--on",
            on,
        ])["payment"]["id"]
            .as_str()
            .unwrap()
            .to_string()
    }

    /// A bill of `lines` (`ACCOUNT=NET:RATE`) dated `date`; its id.
    pub fn bill(&self, number: &str, date: &str, lines: &[&str]) -> String {
        let mut args = vec![
            "purchase",
            "record",
            "--company",
            &self.company,
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
        self.data.ok(&args)["id"].as_str().unwrap().to_string()
    }

    /// Money out against a bill.
    pub fn pay_bill(&self, id: &str, amount: i64, on: &str) {
        self.data.ok(&[
            "purchase",
            "pay",
            id,
            "--amount",
            &amount.to_string(),
            "--on",
            on,
        ]);
    }

    /// Imports one statement of `entries` (day, signed amount, remittance)
    /// and books each line to `account`; the lines' ids.
    pub fn bank(&self, id: &str, entries: &[(&str, i64, &str)]) -> Vec<String> {
        let dir = tempfile::tempdir().unwrap();
        let entries: Vec<Entry> = entries
            .iter()
            .enumerate()
            .map(|(n, (day, amount, remittance))| Entry {
                bank_reference: format!("{id}-{n}"),
                booked_on: day.to_string(),
                reversal: false,
                txs: vec![Transfer {
                    amount: *amount,
                    name: "Finanzamt Hamburg-Mitte".into(),
                    remittance: remittance.to_string(),
                    ..Transfer::default()
                }],
            })
            .collect();
        let last = entries.last().unwrap().booked_on.clone();
        let file = write(
            &dir,
            "statement.xml",
            camt053(IBAN, id, 1, 0, &last, &entries).as_bytes(),
        );
        let (ok, answer, e) = import(&self.data, &self.company, &[&file]);
        assert!(ok, "{e} {answer}");
        let all = lines(&self.data, &self.company, None);
        entries
            .iter()
            .map(|entry| {
                let remittance = &entry.txs[0].remittance;
                let line = all
                    .iter()
                    .find(|l| l["remittance"] == json!(remittance))
                    .unwrap_or_else(|| panic!("no line {remittance}"));
                line["id"].as_str().unwrap().to_string()
            })
            .collect()
    }

    /// Books a bank line to an account by the name a person picks.
    pub fn book(&self, line: &str, account: &str) {
        self.data.ok(&["bank", "book", line, "--account", account]);
    }

    /// The EÜR of `year`.
    pub fn euer(&self, year: &str) -> Value {
        self.data
            .ok(&["books", "euer", "--company", &self.company, "--year", year])
    }

    /// An asset recorded from a bill's line; its id.
    pub fn asset(&self, name: &str, class: &str, bill: &str, line: &str, one_year: bool) -> String {
        let mut args = vec![
            "asset",
            "add",
            "--company",
            &self.company,
            "--name",
            name,
            "--class",
            class,
            "--from-bill",
            bill,
            "--line",
            line,
        ];
        if one_year {
            args.push("--one-year");
        }
        self.data.ok(&args)["id"].as_str().unwrap().to_string()
    }

    /// Closes the books through `day`.
    pub fn close(&self, day: &str) {
        self.data.ok(&[
            "books",
            "close",
            "--company",
            &self.company,
            "--through",
            day,
        ]);
    }
}

/// A posting of the answer: the day, the document, the amount.
fn p(date: &str, document: &str, amount: &str) -> Value {
    json!({"date": date, "document": document, "amount": amount})
}

/// The text of a PDF's pages.
fn pdf_text(pdf: &[u8]) -> String {
    let doc = lopdf::Document::load_mem(pdf).expect("a PDF");
    let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
    doc.extract_text(&pages).expect("its text")
}

/// The freelancer's year of the hand-worked example (numbers of the
/// invoices, ids of the bills, bank lines and assets).
struct Year {
    f: Freelancer,
    a: String,
    b: String,
    furniture: String,
    laptop: String,
    lines: Vec<String>,
    desk: String,
    chair: String,
    computer: String,
}

/// The invoices and bills of the hand-worked year (below), each paid as
/// it says: the invoices' numbers and the bills of the assets.
pub struct Trade {
    pub a: String,
    pub b: String,
    pub furniture: String,
    pub laptop: String,
}

/// The year's invoices, bills and their payments on `f` (see `year`).
pub fn trade(f: &Freelancer) -> Trade {
    let a = f.invoice("2026-11-10", &[(100_000, "19")]);
    let b = f.invoice("2026-12-01", &[(200_000, "19"), (50_000, "7")]);
    f.invoice("2026-12-05", &[(30_000, "7")]);
    f.paid(&a, 119_000, "2026-12-15");
    f.paid(&b, 145_750, "2026-12-20");
    f.paid(&b, 145_750, "2027-01-15");
    let furniture = f.bill(
        "M-2026-17",
        "2026-03-17",
        &["office_supplies=130000:19", "office_supplies=60000:19"],
    );
    f.pay_bill(&furniture, 226_100, "2026-03-20");
    let laptop = f.bill("L-88", "2026-09-01", &["office_supplies=120000:19"]);
    f.pay_bill(&laptop, 142_800, "2026-09-01");
    let paper = f.bill("P-3", "2026-12-10", &["office_supplies=10000:19"]);
    f.pay_bill(&paper, 11_900, "2027-01-12");
    Trade {
        a,
        b,
        furniture,
        laptop,
    }
}

/// The desk, the chair and the laptop recorded from their bills' lines.
pub fn assets(f: &Freelancer, furniture: &str, laptop: &str) -> [String; 3] {
    [
        f.asset("Schreibtisch", "office_furniture", furniture, "1", false),
        f.asset("Bürostuhl", "office_furniture", furniture, "2", false),
        f.asset("Laptop", "computers", laptop, "1", true),
    ]
}

/// The freelancer's year, VAT owed as `vat` says, monthly returns without
/// the extension:
///
/// - invoice A of 11-10: 1,000.00 at 19 % = 1,190.00, paid in full on 12-15;
/// - invoice B of 12-01: 2,000.00 at 19 % (380.00) and 500.00 at 7 %
///   (35.00) = 2,915.00, half (1,457.50) paid on 12-20, half on 2027-01-15;
/// - invoice C of 12-05: 300.00 at 7 %, never paid;
/// - the furniture bill of 03-17: a desk 1,300.00 and a chair 600.00 at
///   19 % (361.00) = 2,261.00, paid on 03-20; the desk an asset over 13
///   years, the chair a low-value asset;
/// - the laptop bill of 09-01: 1,200.00 at 19 % (228.00) = 1,428.00, paid
///   the same day; the laptop an asset of one year;
/// - a paper bill of 12-10: 100.00 at 19 % = 119.00, paid on 2027-01-12;
/// - to the tax office: 500.00 on 2026-01-08 (December 2025's), 300.00 on
///   12-10 (November's), 400.00 on 2027-01-08 (December's); the bank's fee
///   of 12.50 on 12-31.
fn year(vat: &str) -> Year {
    let f = Freelancer::owing(vat, "monthly", "no");
    let Trade {
        a,
        b,
        furniture,
        laptop,
    } = trade(&f);
    let lines = f.bank(
        "S1",
        &[
            ("2026-01-08", -50_000, "USt-VA 12/2025"),
            ("2026-12-10", -30_000, "USt-VA 11/2026"),
            ("2026-12-31", -1_250, "Kontofuehrung 12/2026"),
            ("2027-01-08", -40_000, "USt-VA 12/2026"),
        ],
    );
    for (line, account) in lines.iter().zip(["tax", "tax", "fees", "tax"]) {
        f.book(line, account);
    }
    let [desk, chair, computer] = assets(&f, &furniture, &laptop);
    Year {
        f,
        a,
        b,
        furniture,
        laptop,
        lines,
        desk,
        chair,
        computer,
    }
}

#[test]
fn a_freelancers_year_worked_out_by_hand() {
    // Owing VAT on payments received, as a freelancer may.
    let y = year("ist");
    let f = &y.f;
    // By hand, on the lines of the Anlage EÜR 2026:
    // - 15 (Kz 112), the net revenue received: A's 1,000.00 and B's half:
    //   its 1,457.50 split over its gross 2,915.00 in proportion, 2,500.00
    //   net of 2,915.00 → 1,250.00; 2,250.00.
    // - 17 (Kz 140), the VAT received: A's 190.00, B's 415.00 × ½ = 207.50;
    //   397.50. C was never paid and counts nowhere.
    // - 23 (Kz 159), total income: 2,647.50.
    // - 34 (Kz 130), depreciation: the desk 1,300.00 / 13 years × 10/12
    //   (March to December) = 83.33, the laptop 1,200.00 in full: 1,283.33.
    //   Neither price is an expense when paid.
    // - 37 (Kz 132), the chair as a low-value asset: 600.00.
    // - 58 (Kz 185), the input VAT paid: 361.00 with the furniture (the
    //   rest of its payment is the two assets' cost), 228.00 with the
    //   laptop; the paper bill is paid in 2027: 589.00.
    // - 59 (Kz 186), the VAT paid to the tax office: November's 300.00 and
    //   December's 400.00 paid on 2027-01-08, within ten days and due on
    //   2027-01-10 (§ 11 (1) sentence 2 EStG); not December 2025's 500.00
    //   paid on 2026-01-08, which is 2025's: 700.00.
    // - 61 (Kz 183), the bank's fee: 12.50.
    // - 76 (Kz 199), total expenses: 1,283.33 + 600.00 + 589.00 + 700.00
    //   + 12.50 = 3,184.83.
    // Profit: 2,647.50 − 3,184.83 = −537.33, a loss.
    let want = json!({
        "year": 2026,
        "from": "2026-01-01",
        "to": "2026-12-31",
        "final": false,
        "lines": {
            "15": "2250.00", "17": "397.50", "23": "2647.50",
            "34": "1283.33", "37": "600.00", "58": "589.00", "59": "700.00",
            "61": "12.50", "76": "3184.83"
        },
        "profit": "-537.33",
        "postings": {
            "15": [p("2026-12-15", &y.a, "1000.00"), p("2026-12-20", &y.b, "1250.00")],
            "17": [p("2026-12-15", &y.a, "190.00"), p("2026-12-20", &y.b, "207.50")],
            "34": [p("2026-12-31", &y.desk, "83.33"), p("2026-12-31", &y.computer, "1200.00")],
            "37": [p("2026-12-31", &y.chair, "600.00")],
            "58": [p("2026-03-20", &y.furniture, "361.00"), p("2026-09-01", &y.laptop, "228.00")],
            "59": [p("2026-12-10", &y.lines[1], "300.00"), p("2027-01-08", &y.lines[3], "400.00")],
            "61": [p("2026-12-31", &y.lines[2], "12.50")]
        },
        "unassigned": []
    });
    let mut got = f.euer("2026");
    // The two assets' depreciation share a day: their order is the ids'.
    if let Some(list) = got["postings"]["34"].as_array_mut() {
        list.sort_by_key(|p| (p["amount"] != json!("83.33")) as u8);
    }
    assert_eq!(got, want, "{got:#}");

    // 2025 has December 2025's VAT, paid on 2026-01-08 within its ten days.
    let earlier = f.euer("2025");
    assert_eq!(
        earlier["lines"],
        json!({"23": "0.00", "58": "500.00", "75": "500.00"}),
        "{earlier:#}"
    );
    assert_eq!(
        earlier["postings"]["58"],
        json!([p("2026-01-08", &y.lines[0], "500.00")])
    );

    // The PDF a person hands over says the same.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("euer.pdf");
    let printed = f.data.ok(&[
        "books",
        "euer",
        "--company",
        &f.company,
        "--year",
        "2026",
        "--pdf",
        path.to_str().unwrap(),
    ]);
    assert_eq!(printed["lines"], want["lines"]);
    let pdf = std::fs::read(&path).unwrap();
    assert!(pdf.starts_with(b"%PDF-1.7"));
    let text = pdf_text(&pdf);
    for needle in [
        "Einnahmenüberschussrechnung 2026",
        "Anna Berger",
        "Steuernummer 43/123/45678",
        "Vorläufig",
        "Umsatzsteuerpflichtige Betriebseinnahmen",
        "2.250,00",
        "397,50",
        "2.647,50",
        "AfA auf bewegliche Wirtschaftsgüter",
        "1.283,33",
        "3.184,83",
        "-537,33",
        "Verlust",
        "Die Zahlungen hinter den Zeilen",
        &y.a,
        &y.furniture,
    ] {
        assert!(text.contains(needle), "{needle} in {text}");
    }
    // Asked again for the same file, refused: it exists.
    let (ok, _, e) = f.data.console(&[
        "books",
        "euer",
        "--company",
        &f.company,
        "--year",
        "2026",
        "--pdf",
        path.to_str().unwrap(),
    ]);
    assert!(!ok && e.contains("exists already"), "{e}");
}

#[test]
fn the_ten_day_rule_moves_only_a_prepayment_due_within_the_ten_days() {
    // Without the extension December's prepayment is due on 10 January:
    // paid on the 8th it belongs to the year before, on the 11th to its own.
    let monthly = Freelancer::new("monthly", "no");
    let paid = monthly.bank(
        "T1",
        &[
            ("2026-01-08", -50_000, "USt 12/2025"),
            ("2026-01-11", -20_000, "USt 12/2025 Rest"),
            ("2027-01-10", -40_000, "USt 12/2026"),
        ],
    );
    for line in &paid {
        monthly.book(line, "tax");
    }
    let a = monthly.euer("2025");
    assert_eq!(a["lines"]["58"], json!("500.00"), "{a:#}");
    let b = monthly.euer("2026");
    assert_eq!(
        b["postings"]["59"],
        json!([
            p("2026-01-11", &paid[1], "200.00"),
            p("2027-01-10", &paid[2], "400.00")
        ]),
        "{b:#}"
    );

    // With the extension the fourth quarter's is due on 10 February: paid
    // on 8 January it is an expense of the year it is paid in (BFH X R 2/21).
    let quarterly = Freelancer::new("quarterly", "yes");
    let paid = quarterly.bank(
        "T2",
        &[
            ("2026-01-08", -50_000, "USt Q4/2025"),
            ("2027-01-08", -40_000, "USt Q4/2026"),
        ],
    );
    for line in &paid {
        quarterly.book(line, "tax");
    }
    let a = quarterly.euer("2025");
    assert_eq!(a["lines"], json!({"23": "0.00", "75": "0.00"}), "{a:#}");
    let b = quarterly.euer("2026");
    assert_eq!(
        b["postings"]["59"],
        json!([p("2026-01-08", &paid[0], "500.00")]),
        "{b:#}"
    );
    // Nothing can reach back into 2026 after its last day: final once
    // closed through it.
    quarterly.close("2026-12-31");
    assert_eq!(quarterly.euer("2026")["final"], json!(true));
}

#[test]
fn preliminary_until_closed_through_the_tenth_of_january_and_a_payment_taken_back_counts_back() {
    let f = Freelancer::new("monthly", "no");
    // An invoice of 2024 paid in 2026 counts in 2026 (read apart from the
    // year's own documents, being older than a year).
    let old = f.invoice("2024-06-03", &[(100_000, "7")]);
    f.paid(&old, 107_000, "2026-02-02");
    let a = f.invoice("2026-06-01", &[(10_000, "19")]);
    let paid = f.paid(&a, 11_900, "2026-06-10");
    f.data.ok(&[
        "payment",
        "reverse",
        &paid,
        "--on",
        "2026-07-01",
        "--reason",
        "Rücklastschrift",
    ]);
    // The old invoice's 1,000.00 and 70.00 VAT on 02-02; 100.00 net and
    // 19.00 VAT received on 06-10, taken back on 07-01.
    let s = f.euer("2026");
    assert_eq!(
        s,
        json!({
            "year": 2026, "from": "2026-01-01", "to": "2026-12-31", "final": false,
            "lines": {"15": "1000.00", "17": "70.00", "23": "1070.00", "76": "0.00"},
            "profit": "1070.00",
            "postings": {
                "15": [
                    p("2026-02-02", &old, "1000.00"),
                    p("2026-06-10", &a, "100.00"),
                    p("2026-07-01", &a, "-100.00")
                ],
                "17": [
                    p("2026-02-02", &old, "70.00"),
                    p("2026-06-10", &a, "19.00"),
                    p("2026-07-01", &a, "-19.00")
                ]
            },
            "unassigned": []
        }),
        "{s:#}"
    );
    // Closed through the year's last day, a prepayment paid by 10 January
    // could still count to it: preliminary.
    f.close("2026-12-31");
    assert_eq!(f.euer("2026")["final"], json!(false));
    f.close("2027-01-10");
    assert_eq!(f.euer("2026")["final"], json!(true));
}

#[test]
fn a_year_without_its_form_and_a_balance_sheet_company_are_refused_with_a_sentence() {
    let f = Freelancer::new("monthly", "no");
    for year in ["2024", "2027"] {
        let (ok, out, e) =
            f.data
                .console(&["books", "euer", "--company", &f.company, "--year", year]);
        assert!(!ok && out.is_null(), "{out}");
        assert!(
            e.contains("kontor knows the Anlage EÜR of 2025 and 2026 only")
                && e.contains(&format!("draws up no EÜR for {year}")),
            "{e}"
        );
    }
    // A GmbH draws up a balance sheet: its EÜR is refused, naming it.
    let gmbh = f.data.company("Nord GmbH", "ENTERPRISE");
    f.data
        .ok(&["company", "set", &gmbh, "--legal-form", "gmbh"]);
    let (ok, _, e) = f
        .data
        .console(&["books", "euer", "--company", &gmbh, "--year", "2026"]);
    assert!(!ok, "{e}");
    assert!(
        e.contains("determines its profit by the balance sheet in 2026")
            && e.contains("§ 4 (3) EStG"),
        "{e}"
    );
    // Both at once: each reason said.
    let (ok, _, e) = f
        .data
        .console(&["books", "euer", "--company", &gmbh, "--year", "2030"]);
    assert!(
        !ok && e.contains("2030") && e.contains("balance sheet"),
        "{e}"
    );
    // A year that is none.
    let (ok, _, e) = f
        .data
        .console(&["books", "euer", "--company", &f.company, "--year", "99999"]);
    assert!(!ok && e.contains("is a year from 1900 to 9998"), "{e}");
}

#[test]
fn the_euer_page_shows_each_line_and_its_payments_in_english_and_german_and_hands_over_its_pdf() {
    // Owing VAT on invoices, the same year: the same lines, the money being
    // the same.
    let y = year("soll");
    let f = &y.f;
    assert_eq!(
        f.euer("2026")["lines"],
        json!({
            "15": "2250.00", "17": "397.50", "23": "2647.50",
            "34": "1283.33", "37": "600.00", "58": "589.00", "59": "700.00",
            "61": "12.50", "76": "3184.83"
        })
    );
    let mut browser = signed_in_viewer(f);
    let page = browser.get("/books/euer?year=2026");
    assert_eq!(page.status, 200, "{}", page.body);
    for needle in [
        "<title>Cash-basis profit statement (EÜR) · kontor</title>",
        "id=\"euer-lines\"",
        "Income subject to VAT (net)",
        "2,250.00",
        "3,184.83",
        "-537.33",
        "Loss",
        "Preliminary",
        "Final once the books are closed through 10 Jan 2027",
        "href=\"/books/euer/pdf?year=2026\"",
    ] {
        assert!(page.body.contains(needle), "{needle} in {}", page.body);
    }
    // Each line opens to its payments, each linked to its document.
    for href in [
        format!("/invoices/{}", y.a),
        format!("/bills/{}", y.furniture),
        format!("/bank/lines/{}", y.lines[3]),
        format!("/books/assets/{}", y.desk),
    ] {
        assert!(
            page.body.contains(&format!("href=\"{href}\"")),
            "{href} in {}",
            page.body
        );
    }

    browser.language = "de-DE,de;q=0.9";
    let page = browser.get("/books/euer?year=2026");
    for needle in [
        "<title>Einnahmenüberschussrechnung (EÜR) · kontor</title>",
        "Umsatzsteuerpflichtige Betriebseinnahmen",
        "2.250,00",
        "Verlust",
        "Vorläufig",
        "Zeile 59 · An das Finanzamt gezahlte Umsatzsteuer (2)",
    ] {
        assert!(page.body.contains(needle), "{needle} in {}", page.body);
    }

    let pdf = browser.get("/books/euer/pdf?year=2026");
    assert_eq!(pdf.status, 200);
    assert_eq!(pdf.header("content-type"), Some("application/pdf"));
    assert!(pdf
        .header("content-disposition")
        .is_some_and(|d| d.contains("EUER_2026_vorlaeufig.pdf")));
    let text = pdf_text(&pdf.raw);
    assert!(
        text.contains("Einnahmenüberschussrechnung 2026") && text.contains("2.647,50"),
        "{text}"
    );

    // A year whose form kontor does not know: the sentence on the page, the
    // year kept in its field; a year that is none: said beside the field.
    let page = browser.get("/books/euer?year=2027");
    assert_eq!(page.status, 409, "{}", page.body);
    assert!(
        page.body
            .contains("kontor kennt die Anlage EÜR nur für 2025 und 2026")
            && page.body.contains("value=\"2027\""),
        "{}",
        page.body
    );
    let page = browser.get("/books/euer?year=zwei");
    assert_eq!(page.status, 400, "{}", page.body);
    assert!(page.body.contains("ist ein Jahr wie 2026"), "{}", page.body);
    let refused = browser.get("/books/euer/pdf?year=2027");
    assert_eq!(refused.status, 409, "{}", refused.body);
}

#[test]
fn money_paid_before_its_invoice_counts_when_applied_and_stands_on_no_line_until_then() {
    let f = Freelancer::owing("ist", "monthly", "no");
    let number = f.invoice("2026-06-15", &[(100_000, "19")]);
    let lines = f.bank(
        "A1",
        &[("2026-06-10", 119_000, &format!("Vorkasse {number}"))],
    );
    let before = f.euer("2026");
    assert_eq!(
        before["unassigned"],
        json!([]),
        "not booked yet: {before:#}"
    );
    let confirmed = f.data.ok(&["bank", "confirm", &lines[0]]);
    assert_eq!(
        confirmed["line"]["state"],
        json!("settled"),
        "{confirmed:#}"
    );
    // Kept as the customer's credit on 06-10 (money on no line), applied to
    // the invoice on its day, 06-15: its 1,000.00 net and 190.00 VAT then.
    let s = f.euer("2026");
    assert_eq!(
        s["lines"],
        json!({"15": "1000.00", "17": "190.00", "23": "1190.00", "76": "0.00"}),
        "{s:#}"
    );
    assert_eq!(
        s["postings"]["15"],
        json!([p("2026-06-15", &number, "1000.00")])
    );
    assert_eq!(
        s["unassigned"],
        json!([
            p("2026-06-10", &lines[0], "1190.00"),
            p("2026-06-15", &number, "-1190.00")
        ])
    );
    // The line undone: the credit's application is taken back on the day it
    // is undone (today), never rewritten, and the year of that day counts it.
    f.data.ok(&["bank", "undo", &lines[0]]);
    let undone = f.euer("2026");
    let today = jiff::Zoned::now()
        .in_tz("Europe/Berlin")
        .unwrap()
        .date()
        .to_string();
    if today.starts_with("2026-") {
        assert_eq!(
            undone["lines"],
            json!({"15": "0.00", "17": "0.00", "23": "0.00", "76": "0.00"}),
            "{undone:#}"
        );
        assert_eq!(
            undone["postings"]["15"],
            json!([
                p("2026-06-15", &number, "1000.00"),
                p(&today, &number, "-1000.00")
            ])
        );
    } else {
        // Undone in a later year, the year applied keeps its income.
        assert_eq!(undone["lines"], s["lines"], "{undone:#}");
    }
}

#[test]
fn the_vat_return_page_of_a_company_taxed_on_payments_names_each_payment_and_its_invoice() {
    let f = Freelancer::owing("ist", "monthly", "no");
    let number = f.invoice("2026-06-15", &[(100_000, "19")]);
    let payment = f.paid(&number, 59_500, "2026-07-03");
    let bill = f.bill("B-7", "2026-07-10", &["office_supplies=10000:19"]);
    let mut browser = signed_in_viewer(&f);
    // June: issued, nothing paid, nothing due; July: half paid, half due.
    let june = browser.get("/books/vat?period=2026-06");
    assert_eq!(june.status, 200, "{}", june.body);
    assert!(!june.body.contains(&payment), "{}", june.body);
    let july = browser.get("/books/vat?period=2026-07");
    assert_eq!(july.status, 200, "{}", july.body);
    // Kz 81's posting: the invoice beside the payment that made its VAT
    // due; Kz 66's: the bill, due on its receipt, by no payment.
    for needle in [
        format!(
            "<td><a href=\"/invoices/{number}\">{number}</a></td><td><code>{payment}</code></td>"
        ),
        format!("<td><a href=\"/bills/{bill}\">B-7</a></td><td>–</td>"),
    ] {
        assert!(july.body.contains(&needle), "{needle}: {}", july.body);
    }
    browser.language = "de-DE,de;q=0.9";
    let july = browser.get("/books/vat?period=2026-07");
    assert!(
        july.body.contains("Zahlung (Ist-Versteuerung)") && july.body.contains(&payment),
        "{}",
        july.body
    );
}

/// Anna as a viewer of the freelancer's books, signed in on the screens.
fn signed_in_viewer(f: &Freelancer) -> Browser {
    person(&f.data, &f.company, "anna@berger-design.example", "viewer");
    let mut browser = Browser::at(f.server.addr);
    browser
        .login("anna@berger-design.example", PASSWORD)
        .redirects_to("/dashboard");
    browser
}
