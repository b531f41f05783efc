//! The ledger under load and under random acts: numbers stay gapless when
//! issued from many processes at once; after every act the trial balance
//! balances, the receivables in the ledger equal the outstanding report, and
//! the act has exactly its events.

use std::collections::{BTreeSet, HashMap};

use serde_json::{json, Value};

use crate::support::{unique, DataFile, World};

fn draft_with_line(w: &World, key: &str, customer: &Value, price: i64) -> String {
    let id = w.client().draft(key, customer);
    w.data.line(&id, price, "19", key.starts_with("svc_test_"));
    id
}

#[test]
fn numbers_issued_from_many_processes_at_once_are_consecutive_and_gapless() {
    let w = World::new();
    let c = w.client();
    let live_customer = c.customer(&w.live, "Live");
    let test_customer = c.customer(&w.test, "Test");
    let mut jobs = Vec::new();
    for i in 0..24 {
        let sandbox = i % 3 == 0;
        let key = if sandbox { &w.test } else { &w.live };
        let customer = if sandbox {
            &test_customer
        } else {
            &live_customer
        };
        jobs.push((draft_with_line(&w, key, customer, 1000 + i), sandbox));
    }
    // Six processes at a time, each issuing its share, while the server runs.
    let path = w.data.path.clone();
    let chunks: Vec<Vec<(String, bool)>> = jobs.chunks(4).map(|c| c.to_vec()).collect();
    let results: Vec<(String, bool, String)> = std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                let path = path.clone();
                s.spawn(move || {
                    chunk
                        .into_iter()
                        .map(|(draft, sandbox)| {
                            let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_kontor"));
                            cmd.args(["draft", "issue", &draft, "--data"]).arg(&path);
                            if sandbox {
                                cmd.arg("--sandbox");
                            }
                            let out = cmd.output().unwrap();
                            assert!(
                                out.status.success(),
                                "{}",
                                String::from_utf8_lossy(&out.stderr)
                            );
                            let v: Value = serde_json::from_slice(&out.stdout).unwrap();
                            (
                                v["number"].as_str().unwrap().to_string(),
                                sandbox,
                                v["issuedOn"].as_str().unwrap().to_string(),
                            )
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    for sandbox in [false, true] {
        let numbers: Vec<&str> = results
            .iter()
            .filter(|r| r.1 == sandbox)
            .map(|r| r.0.as_str())
            .collect();
        let unique: BTreeSet<&str> = numbers.iter().copied().collect();
        assert_eq!(unique.len(), numbers.len(), "numbers are unique");
        let year = &results[0].2[..4];
        let expected: BTreeSet<String> = (1..=numbers.len())
            .map(|n| format!("{year}-{n:05}"))
            .collect();
        assert_eq!(
            unique
                .into_iter()
                .map(str::to_string)
                .collect::<BTreeSet<_>>(),
            expected,
            "consecutive, no gaps"
        );
    }
}

/// The events the data file holds for each subject (read straight from the file:
/// no surface shows the outbox before the webhook endpoints exist).
fn events_by_subject(data: &DataFile) -> HashMap<String, Vec<(String, Value)>> {
    let conn = rusqlite::Connection::open(&data.path).unwrap();
    let mut stmt = conn
        .prepare("SELECT subject, kind, body FROM events ORDER BY seq")
        .unwrap();
    let mut map: HashMap<String, Vec<(String, Value)>> = HashMap::new();
    for row in stmt
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
            ))
        })
        .unwrap()
    {
        let (subject, kind, body) = row.unwrap();
        map.entry(subject)
            .or_default()
            .push((kind, serde_json::from_str(&body).unwrap()));
    }
    map
}

/// A small deterministic generator for the random acts.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

#[test]
fn after_every_random_act_the_books_balance_and_agree_with_the_report() {
    let w = World::new();
    let c = w.client();
    let customer = c.customer(&w.live, "Kunde");
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut open: Vec<(String, i64)> = Vec::new(); // (number, outstanding)
    let mut bills: Vec<(String, i64)> = Vec::new();
    let mut event_count = 0usize;
    // How often each kind of act ran: the seed must reach every branch.
    let mut acts: HashMap<&str, usize> = HashMap::new();
    let day = |n: u64| format!("2026-06-{:02}", 1 + n);
    for step in 0..36u64 {
        let on = day(step / 2);
        let act = rng.below(5);
        let expected: Vec<&str>;
        let subject: String;
        match act {
            0 | 1 => {
                let d = draft_with_line(&w, &w.live, &customer, 100 + rng.below(100_000) as i64);
                let inv = w.data.ok(&["draft", "issue", &d, "--on", &on]);
                open.push((
                    inv["number"].as_str().unwrap().to_string(),
                    inv["gross"]["minor"].as_i64().unwrap(),
                ));
                subject = inv["id"].as_str().unwrap().to_string();
                expected = vec!["invoice.issued"];
                *acts.entry("issue").or_default() += 1;
            }
            2 if !open.is_empty() => {
                let i = rng.below(open.len() as u64) as usize;
                let (number, outstanding) = open[i].clone();
                let amount = if rng.below(2) == 0 {
                    outstanding
                } else {
                    1 + rng.below(outstanding as u64) as i64
                };
                let out = w.data.ok(&[
                    "payment",
                    "record",
                    "--company",
                    &w.company,
                    "--invoice",
                    &number,
                    "--amount",
                    &amount.to_string(),
                    "--on",
                    &on,
                ]);
                subject = out["payment"]["id"].as_str().unwrap().to_string();
                if amount == outstanding {
                    open.remove(i);
                    expected = vec!["payment.recorded"];
                    let paid =
                        events_by_subject(&w.data)[out["invoice"]["id"].as_str().unwrap()].clone();
                    assert_eq!(paid.last().unwrap().0, "invoice.paid");
                    assert_eq!(paid.last().unwrap().1["paidOn"], json!(on));
                    assert_eq!(paid.last().unwrap().1["amountDueMinor"], json!("0"));
                    assert_eq!(paid.last().unwrap().1["paymentState"], json!("PAID"));
                    event_count += 1;
                    *acts.entry("pay in full").or_default() += 1;
                } else {
                    open[i].1 -= amount;
                    expected = vec!["payment.recorded"];
                    *acts.entry("pay in part").or_default() += 1;
                }
            }
            3 if !open.is_empty() => {
                let i = rng.below(open.len() as u64) as usize;
                let (number, _) = open[i].clone();
                let (ok, out, err) = w.data.console(&[
                    "invoice",
                    "cancel",
                    "--company",
                    &w.company,
                    &number,
                    "--reason",
                    "Fehler",
                    "--on",
                    &on,
                ]);
                if !ok {
                    // It has a payment: refused (the next step's event count
                    // shows nothing was written).
                    assert!(err.contains("cannot be cancelled"), "step {step}: {err}");
                    *acts.entry("cancel refused").or_default() += 1;
                    continue;
                }
                open.remove(i);
                subject = out["cancelled"]["id"].as_str().unwrap().to_string();
                expected = vec!["invoice.issued", "invoice.cancelled"];
                *acts.entry("cancel").or_default() += 1;
            }
            _ => {
                if !bills.is_empty() && rng.below(2) == 0 {
                    let (id, outstanding) = bills.pop().unwrap();
                    let out = w.data.ok(&[
                        "purchase",
                        "pay",
                        &id,
                        "--amount",
                        &outstanding.to_string(),
                        "--on",
                        &on,
                    ]);
                    subject = out["payment"]["id"].as_str().unwrap().to_string();
                    expected = vec!["payment.recorded"];
                    *acts.entry("pay a bill").or_default() += 1;
                } else {
                    let net = 100 + rng.below(50_000) as i64;
                    let bill = w.data.ok(&[
                        "purchase",
                        "record",
                        "--company",
                        &w.company,
                        "--supplier",
                        "Lieferant",
                        "--document-number",
                        &format!("B{step}"),
                        "--date",
                        &on,
                        "--due",
                        &day(20),
                        "--currency",
                        "EUR",
                        "--net",
                        &net.to_string(),
                        "--tax",
                        &(net / 10).to_string(),
                    ]);
                    bills.push((
                        bill["id"].as_str().unwrap().to_string(),
                        bill["gross"]["minor"].as_i64().unwrap(),
                    ));
                    subject = bill["id"].as_str().unwrap().to_string();
                    expected = vec!["purchase.recorded"];
                    *acts.entry("record a bill").or_default() += 1;
                }
            }
        }
        // The act has exactly its events, with the body's shape of api.md §6.
        let events = events_by_subject(&w.data);
        let kinds: Vec<&str> = events[&subject].iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(kinds, expected, "step {step}");
        event_count += if act == 3 { 1 } else { expected.len() };
        assert_eq!(
            events.values().map(Vec::len).sum::<usize>(),
            event_count,
            "step {step}: no event without its act"
        );
        for (kind, body) in &events[&subject] {
            let obj = body.as_object().unwrap();
            assert!(obj.values().all(Value::is_string), "{kind}: {body}");
            assert_eq!(obj["event"], json!(kind));
            assert!(obj["id"].as_str().unwrap().starts_with("evt_"));
        }
        // The trial balance balances and its receivables equal the report's.
        let tb = w.data.ok(&[
            "books",
            "trial-balance",
            "--company",
            &w.company,
            "--as-of",
            &on,
        ]);
        assert_eq!(tb["balanced"], json!(true), "step {step}");
        let posted = |ledger: &str| crate::support::trial::ledger(&tb, ledger).unwrap_or((0, 0));
        let (receivables, payables) = (posted("receivables"), posted("payables"));
        let report = c
            .get(&w.live, &format!("/v1/reports/outstanding?asOf={on}"))
            .body;
        assert_eq!(
            receivables.0 - receivables.1,
            report["receivables"]["outstanding"]["minor"]
                .as_i64()
                .unwrap(),
            "step {step}"
        );
        assert_eq!(
            payables.1 - payables.0,
            report["payables"]["outstanding"]["minor"].as_i64().unwrap(),
            "step {step}"
        );
        assert_eq!(
            report["receivables"]["count"],
            json!(open.len()),
            "step {step}"
        );
        assert_eq!(
            report["receivables"]["outstanding"]["minor"],
            json!(open.iter().map(|o| o.1).sum::<i64>()),
            "step {step}"
        );
    }
    let mut ran: Vec<&str> = acts.keys().copied().collect();
    ran.sort_unstable();
    assert_eq!(
        ran,
        [
            "cancel",
            "cancel refused",
            "issue",
            "pay a bill",
            "pay in full",
            "pay in part",
            "record a bill"
        ],
        "{acts:?}"
    );
}

#[test]
fn country_rules_decide_number_due_date_and_sentence() {
    let data = DataFile::new();
    let table = [
        ("DE", "RE", "RE2026-00001", "2026-03-16", "Zahlbar bis 16.03.2026 ohne Abzug."),
        ("AT", "", "2026-00001", "2026-03-16", "Zahlbar bis 16.03.2026 ohne Abzug."),
        ("CH", "", "2026-00001", "2026-04-01", "Zahlbar bis 01.04.2026 netto."),
        ("FR", "F", "F2026-00001", "2026-04-01", "Date d'échéance : 01/04/2026. Pénalités de retard : trois fois le taux d'intérêt légal. Indemnité forfaitaire pour frais de recouvrement : 40 €."),
        ("IT", "", "1/2026", "2026-04-01", "Pagamento entro il 01/04/2026."),
        ("ES", "", "A-2026-00001", "2026-04-01", "Vencimiento: 01/04/2026."),
        ("NL", "", "2026-00001", "2026-04-01", "Te betalen vóór 01-04-2026."),
        ("US", "INV", "INV2026-00001", "2026-04-01", "Payment due by 1 April 2026."),
    ];
    let server = crate::support::start(&data);
    let c = crate::support::Client { addr: server.addr };
    for (country, prefix, number, due, sentence) in table {
        let currency = match country {
            "CH" => "CHF",
            "US" => "USD",
            _ => "EUR",
        };
        let company = data.ok(&[
            "company",
            "create",
            "--name",
            country,
            "--country",
            country,
            "--currency",
            currency,
            "--plan",
            "ENTERPRISE",
            "--invoice-prefix",
            prefix,
        ]);
        let company = company["id"].as_str().unwrap();
        // The particulars every invoice names, whatever the country.
        data.ok(&[
            "company",
            "set",
            company,
            "--legal-name",
            "Beispiel",
            "--street",
            "Weg 1",
            "--postal-code",
            "1000",
            "--city",
            "Stadt",
            "--tax-number",
            "123/456",
            "--registration",
            "HR 1",
        ]);
        let key = data.key(company, "production", "all");
        let customer = c.customer(&key, "Kunde");
        let d = c
            .post(
                &key,
                "/v1/invoices/drafts",
                &unique(),
                &json!({"customerId": customer["id"]}),
            )
            .body;
        let id = d["id"].as_str().unwrap();
        data.ok(&[
            "draft",
            "line",
            id,
            "--description",
            "x",
            "--quantity",
            "1",
            "--unit-price",
            "1000",
            "--tax-rate",
            "10",
        ]);
        let inv = data.ok(&["draft", "issue", id, "--on", "2026-03-02"]);
        assert_eq!(
            (
                inv["number"].as_str().unwrap(),
                inv["dueOn"].as_str().unwrap(),
                inv["paymentSentence"].as_str().unwrap()
            ),
            (number, due, sentence),
            "{country}"
        );
        // Readable by its number, percent-encoded where it has a slash.
        let path = format!("/v1/invoices/{}", number.replace('/', "%2F"));
        assert_eq!(c.get(&key, &path).body["id"], inv["id"], "{country}");
        if country == "ES" {
            let out = data.ok(&[
                "invoice",
                "cancel",
                "--company",
                company,
                number,
                "--reason",
                "x",
                "--on",
                "2026-03-03",
            ]);
            assert_eq!(
                out["correction"]["number"],
                json!("R-2026-00001"),
                "corrections have their own series in ES"
            );
        }
        if country == "IT" {
            assert_eq!(inv["taxes"][0]["name"], json!("IVA"));
        }
    }
}

/// The trial balance's details of one ledger account, over every chart
/// account it feeds: detail → (debit, credit).
fn details(tb: &Value, ledger: &str) -> HashMap<String, (i64, i64)> {
    let mut out = HashMap::new();
    for row in tb["accounts"].as_array().unwrap() {
        for d in row["details"].as_array().into_iter().flatten() {
            if d["ledger"] == ledger {
                out.insert(
                    d["detail"].as_str().unwrap().to_string(),
                    (d["debit"].as_i64().unwrap(), d["credit"].as_i64().unwrap()),
                );
            }
        }
    }
    assert!(!out.is_empty(), "no {ledger} in {tb}");
    out
}

#[test]
fn revenue_and_output_tax_are_posted_per_tax_key_and_a_correction_reverses_them_key_by_key() {
    let w = World::new();
    let c = w.client();
    let domestic = c.customer(&w.live, "Kunde KG");
    let eu = c
        .post(
            &w.live,
            "/v1/customers",
            &unique(),
            &json!({"name": "Bau GmbH", "street": "Ring 1", "postalCode": "1010", "city": "Wien",
                    "country": "AT", "vatId": "ATU13585627"}),
        )
        .body;
    let line = |draft: &str, price: &str, rest: &[&str]| {
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
    };
    // 1,000.00 at 19 % and 500.00 at 7 % to a German customer.
    let mixed = c.draft(&w.live, &domestic);
    line(&mixed, "100000", &["--tax-rate", "19"]);
    line(&mixed, "50000", &["--tax-rate", "7"]);
    let mixed = w.data.ok(&["draft", "issue", &mixed, "--on", "2026-03-02"]);
    // 800.00 under the reverse charge to an Austrian business.
    let ae = c.draft(&w.live, &eu);
    line(
        &ae,
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
    w.data.ok(&["draft", "issue", &ae, "--on", "2026-03-02"]);
    let tb = w.data.ok(&[
        "books",
        "trial-balance",
        "--company",
        &w.company,
        "--as-of",
        "2026-03-31",
    ]);
    let expected_revenue: HashMap<String, (i64, i64)> = [
        ("S:19".to_string(), (0, 100_000)),
        ("S:7".to_string(), (0, 50_000)),
        ("AE:0:EU".to_string(), (0, 80_000)),
    ]
    .into();
    assert_eq!(details(&tb, "revenue"), expected_revenue);
    let expected_tax: HashMap<String, (i64, i64)> = [
        ("S:19".to_string(), (0, 19_000)),
        ("S:7".to_string(), (0, 3_500)),
    ]
    .into();
    assert_eq!(details(&tb, "output_tax"), expected_tax);
    // The partners are not summed per day: receivables show no details.
    assert_eq!(
        details(&tb, "receivables").into_keys().collect::<Vec<_>>(),
        vec![String::new()]
    );
    assert_eq!(tb["balanced"], json!(true));
    // Each key on its account of SKR03, by number, with its balance.
    let by_number: Vec<(u64, &str, i64, &str)> = tb["accounts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["number"].as_u64().unwrap(),
                a["account"].as_str().unwrap(),
                a["balance"].as_i64().unwrap(),
                a["side"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        by_number,
        vec![
            (1400, "receivables", 119_000 + 53_500 + 80_000, "debit"),
            (1771, "output_tax_7", 3_500, "credit"),
            (1776, "output_tax_19", 19_000, "credit"),
            (8300, "revenue_7", 50_000, "credit"),
            (8336, "revenue_eu_service", 80_000, "credit"),
            (8400, "revenue_19", 100_000, "credit"),
        ],
        "{tb:#}"
    );
    let row = crate::support::trial::row(&tb, "revenue_19").unwrap();
    assert_eq!(row["name"], json!("Erlöse 19 % USt"));
    assert_eq!(row["opening"], json!(0));
    assert_eq!(
        (row["periodCredit"].as_i64(), row["yearCredit"].as_i64()),
        (Some(100_000), Some(100_000))
    );

    // Cancelling the mixed invoice reverses each key.
    let number = mixed["number"].as_str().unwrap();
    w.data.ok(&[
        "invoice",
        "cancel",
        "--company",
        &w.company,
        number,
        "--reason",
        "Irrtum",
        "--on",
        "2026-03-05",
    ]);
    let tb = w.data.ok(&[
        "books",
        "trial-balance",
        "--company",
        &w.company,
        "--as-of",
        "2026-03-31",
    ]);
    let revenue = details(&tb, "revenue");
    assert_eq!(revenue["S:19"], (100_000, 100_000));
    assert_eq!(revenue["S:7"], (50_000, 50_000));
    assert_eq!(revenue["AE:0:EU"], (0, 80_000));
    let tax = details(&tb, "output_tax");
    assert_eq!(tax["S:19"], (19_000, 19_000));
    assert_eq!(tax["S:7"], (3_500, 3_500));
    assert_eq!(tb["balanced"], json!(true));
}

#[test]
fn a_partners_iban_invoice_address_consumer_flag_and_language_are_kept_and_shown() {
    let w = World::new();
    let c = w.client();
    let customer = c.customer(&w.live, "Frau Berger");
    let id = customer["id"].as_str().unwrap();
    let set = w.data.ok(&[
        "customer",
        "set",
        id,
        "--iban",
        "de89 3704 0044 0532 0130 00",
        "--invoice-email",
        "rechnungen@berger.example",
        "--consumer",
        "true",
        "--language",
        "en",
    ]);
    let shown = c.get(&w.live, &format!("/v1/customers/{id}")).body;
    for view in [&set, &shown] {
        assert_eq!(view["iban"], json!("DE89370400440532013000"));
        assert_eq!(view["invoiceEmail"], json!("rechnungen@berger.example"));
        assert_eq!(view["consumer"], json!(true));
        assert_eq!(view["language"], json!("en"));
    }
    // Refused whole, each field named; nothing changed.
    let (ok, _, err) = w.data.console(&[
        "customer",
        "set",
        id,
        "--iban",
        "DE89370400440532013001",
        "--invoice-email",
        "kein-at",
        "--language",
        "fr",
    ]);
    assert!(!ok, "{err}");
    for option in ["--iban", "--invoice-email", "--language"] {
        assert!(err.contains(option), "{option} in {err}");
    }
    assert_eq!(c.get(&w.live, &format!("/v1/customers/{id}")).body, shown);
    // Cleared again.
    let cleared = w.data.ok(&[
        "customer",
        "set",
        id,
        "--clear",
        "iban",
        "--clear",
        "invoice-email",
        "--clear",
        "language",
        "--consumer",
        "false",
    ]);
    assert_eq!(
        (
            &cleared["iban"],
            &cleared["invoiceEmail"],
            &cleared["consumer"],
            &cleared["language"]
        ),
        (&json!(null), &json!(null), &json!(false), &json!(null))
    );
}
