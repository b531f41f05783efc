//! Reminders on a scenario of invoices 3, 10, 30 and 60 days overdue, of a
//! business and a consumer: the levels chosen, fees and default interest to
//! the cent against figures worked out here from the base-rate table, one
//! €40 flat sum per invoice, the reminder's PDF read with pdftotext, a paid
//! invoice reminded no further, an unticked invoice left out; a partial
//! payment lowering the open amount and a cancellation stopping the ladder.

use std::process::Command;

use jiff::Timestamp;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::mail::configure;
use crate::support::screens::Office;
use crate::support::smtp_server::{Security, SmtpServer};

/// The base rate in hundredths of a percent on `day` (ISO dates compare as
/// text): the shipped 1.27 % of 2025-07-01 and 2026-01-01, and the row the
/// test adds, 1.50 % from 2026-06-15.
fn base_rate(day: &str) -> i64 {
    if day >= "2026-06-15" {
        150
    } else {
        127
    }
}

/// `open` × `rate` (hundredths of a percent) × `days` / 365, rounded half up.
fn interest(open: i64, rate: i64, days: i64) -> i64 {
    let n = open as i128 * rate as i128 * days as i128;
    let d = 100 * 100 * 365;
    ((2 * n + d) / (2 * d)) as i64
}

fn issue(office: &Office, customer: &Value, on: &str) -> String {
    let draft = office.api().draft(&office.key_a, customer);
    office.data.line(&draft, 100_000, "19", false);
    office.data.ok(&["draft", "issue", &draft, "--on", on])["number"]
        .as_str()
        .unwrap()
        .to_string()
}

fn dunning(office: &Office, args: &[&str]) -> Value {
    let mut all = vec!["dunning"];
    all.extend_from_slice(args);
    all.extend(["--company", &office.a]);
    office.data.ok(&all)
}

fn numbers(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|p| p["number"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_dunning_run_states_levels_fees_interest_and_the_flat_sum_to_the_cent() {
    let smtp = SmtpServer::start(Security::StartTls, false);
    let office = Office::new();
    let api = office.api();
    configure(&office.data, &office.a, &smtp, None);
    let business = api.customer(&office.key_a, "Kunde Handel GmbH");
    let consumer = api.customer(&office.key_a, "Erika Muster");
    for (c, mail, is_consumer) in [
        (&business, "einkauf@kunde.example", "false"),
        (&consumer, "erika@muster.example", "true"),
    ] {
        office.data.ok(&[
            "customer",
            "set",
            c["id"].as_str().unwrap(),
            "--invoice-email",
            mail,
            "--consumer",
            is_consumer,
        ]);
    }
    // Run day R = 2026-07-20; every invoice is due 14 days after issue.
    let a = issue(&office, &business, "2026-05-07"); // due 05-21: 60 days overdue at R
    let b = issue(&office, &consumer, "2026-06-06"); // due 06-20: 30 days
    let c = issue(&office, &business, "2026-06-26"); // due 07-10: 10 days
    let d = issue(&office, &business, "2026-07-03"); // due 07-17: 3 days
    let e = issue(&office, &business, "2026-05-07"); // due 05-21, paid after its first reminder
    dunning(&office, &["levels", "--level", "2", "--fee", "500"]);
    dunning(&office, &["levels", "--level", "3", "--fee", "1000"]);
    dunning(
        &office,
        &["base-rate", "--from", "2026-06-15", "--percent", "1.50"],
    );

    // 28 May: A and E 7 days overdue get the friendly reminder.
    let first = dunning(&office, &["send", "--on", "2026-05-28"]);
    assert_eq!(numbers(&first["sent"]), vec![a.clone(), e.clone()]);
    assert!(first["sent"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["level"] == 1
            && s["fee"]["minor"] == 0
            && s["interest"]["minor"] == 0
            && s["flatSum"]["minor"] == 0));
    office.data.ok(&[
        "payment",
        "record",
        "--company",
        &office.a,
        "--invoice",
        &e,
        "--amount",
        "119000",
        "--on",
        "2026-06-01",
    ]);
    // 27 June: A's first reminder (level 2), B's friendly one; E is paid.
    let second = dunning(&office, &["send", "--on", "2026-06-27"]);
    let levels: Vec<(String, i64)> = second["sent"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["number"].as_str().unwrap().to_string(),
                s["level"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(levels, vec![(a.clone(), 2), (b.clone(), 1)]);

    // The run of R: A its final reminder, B its first, C its friendly one,
    // D nothing yet (3 days), E nothing (paid).
    let run = dunning(&office, &["run", "--on", "2026-07-20"]);
    let p = run["proposals"].as_array().unwrap();
    assert_eq!(
        numbers(&run["proposals"]),
        vec![a.clone(), b.clone(), c.clone()]
    );
    // A, a business: fees 5.00 + 10.00; interest from 22 May through 20
    // July split at the 15 June row: 24 days at 1.27 + 9, 36 days at 1.50 + 9.
    let a_interest = interest(119_000, base_rate("2026-05-22") + 900, 24)
        + interest(119_000, base_rate("2026-06-15") + 900, 36);
    assert_eq!(a_interest, 804 + 1232);
    assert_eq!(p[0]["level"], 3);
    assert_eq!(p[0]["open"]["minor"], 119_000);
    assert_eq!(p[0]["fee"]["minor"], 1_500);
    assert_eq!(p[0]["interest"]["minor"], a_interest);
    assert_eq!(
        p[0]["flatSum"],
        serde_json::json!({"minor": 4000, "currency": "EUR"})
    );
    assert_eq!(p[0]["interestFrom"], "2026-05-22");
    assert_eq!(p[0]["interestPercent"], "10.5");
    assert_eq!(p[0]["newDueOn"], "2026-07-30");
    // B, a consumer: fee 5.00; 30 days from 21 June at 1.50 + 5; no flat sum.
    let b_interest = interest(119_000, base_rate("2026-06-21") + 500, 30);
    assert_eq!(b_interest, 636);
    assert_eq!(
        (p[1]["level"].as_i64(), p[1]["consumer"].as_bool()),
        (Some(2), Some(true))
    );
    assert_eq!(p[1]["fee"]["minor"], 500);
    assert_eq!(p[1]["interest"]["minor"], b_interest);
    assert_eq!(p[1]["flatSum"]["minor"], 0);
    assert_eq!(p[1]["interestPercent"], "6.5");
    // C: the friendly reminder states neither fee nor interest.
    assert_eq!(
        (
            p[2]["level"].as_i64(),
            p[2]["fee"]["minor"].as_i64(),
            p[2]["interest"]["minor"].as_i64(),
            p[2]["flatSum"]["minor"].as_i64()
        ),
        (Some(1), Some(0), Some(0), Some(0))
    );
    assert!(!numbers(&run["proposals"]).contains(&d));
    // The table has no row for 1 July, when the next base rate is published.
    assert!(
        run["warnings"][0].as_str().unwrap().contains("2026-07-01"),
        "{run}"
    );

    // C is unticked: A and B go.
    let third = dunning(&office, &["send", "--on", "2026-07-20", "--except", &c]);
    assert_eq!(numbers(&third["sent"]), vec![a.clone(), b.clone()]);
    assert_eq!(
        numbers(&dunning(&office, &["run", "--on", "2026-07-20"])["proposals"]),
        vec![c.clone()]
    );
    // The €40 was stated once per invoice: on A's level 2 and 3 alike, never added up.
    assert_eq!(second["sent"][0]["flatSum"]["minor"], 4000);
    assert_eq!(third["sent"][0]["flatSum"]["minor"], 4000);
    assert_eq!(
        third["sent"][0]["total"]["minor"],
        119_000 + 1_500 + a_interest + 4_000
    );

    // Mailed: six reminders, each with its letter attached.
    office.server.send_due_mail(Timestamp::now()).unwrap();
    let taken = smtp.taken();
    assert_eq!(taken.len(), 6);
    let last_a = taken
        .iter()
        .rev()
        .find(|t| t.rcpt_tos[0] == "einkauf@kunde.example")
        .unwrap();
    assert_eq!(
        last_a.read["subject"],
        format!("Letzte Mahnung zu Rechnung {a}")
    );

    // A's final reminder read with pdftotext.
    let id = third["sent"][0]["id"].as_str().unwrap();
    let mut browser = office.signed_in("owner@alpha.de");
    let letter = browser.get(&format!("/reminders/{id}/document"));
    assert_eq!(letter.status, 200);
    assert_eq!(letter.header("content-type"), Some("application/pdf"));
    let attached = last_a.read["parts"].as_array().unwrap()[1].clone();
    assert_eq!(attached["sha256"], hex::encode(Sha256::digest(&letter.raw)));
    let file = office.data.path.with_file_name("reminder.pdf");
    std::fs::write(&file, &letter.raw).unwrap();
    let out = Command::new("pdftotext")
        .args(["-layout", file.to_str().unwrap(), "-"])
        .output()
        .unwrap_or_else(|e| {
            panic!("pdftotext cannot run ({e}); install it with tests/smtp/install.sh")
        });
    let text = String::from_utf8_lossy(&out.stdout);
    for needle in [
        "Letzte Mahnung",
        a.as_str(),
        "21.05.2026",
        "1.190,00",
        "Mahngebühren",
        "15,00",
        "Verzugszinsen 22.05.2026 – 20.07.2026",
        "60 Tage",
        "10,5 %",
        "20,36",
        "Verzugspauschale",
        "40,00",
        "1.265,36",
        "30.07.2026",
    ] {
        assert!(text.contains(needle), "{needle} in {text}");
    }
    // Today (long after R) the agent's attention list says which overdue
    // invoices are due for their next level: B its final reminder, C its
    // friendly one, D its friendly one; A has had its last level.
    let attention = api.tool(
        &office.key_a,
        "get_business_attention",
        serde_json::json!({}),
    );
    let levels: Vec<(String, Option<i64>)> = attention["structuredContent"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["kind"] == "overdue_invoice")
        .map(|i| {
            let sentence = i["sentence"].as_str().unwrap();
            let number = [&a, &b, &c, &d]
                .into_iter()
                .find(|n| sentence.contains(&format!("Invoice {n} ")))
                .unwrap()
                .clone();
            (number, i["reminder_level"].as_i64())
        })
        .collect();
    assert_eq!(
        levels,
        vec![
            (a.clone(), None),
            (b.clone(), Some(3)),
            (c.clone(), Some(1)),
            (d.clone(), Some(1))
        ]
    );
    // The invoice's page lists its reminders and their sends.
    let page = browser.get(&format!("/invoices/{a}"));
    assert!(page.body.contains("id=\"reminders\""), "{}", page.body);
    assert!(page.body.matches("/document\"").count() >= 3);
}

#[test]
fn a_partial_payment_lowers_the_open_amount_and_a_cancellation_stops_the_ladder() {
    let smtp = SmtpServer::start(Security::StartTls, false);
    let office = Office::new();
    let api = office.api();
    configure(&office.data, &office.a, &smtp, None);
    let business = api.customer(&office.key_a, "Kunde Handel GmbH");
    office.data.ok(&[
        "customer",
        "set",
        business["id"].as_str().unwrap(),
        "--invoice-email",
        "einkauf@kunde.example",
    ]);
    let f = issue(&office, &business, "2026-05-07"); // due 05-21
    let g = issue(&office, &business, "2026-05-07"); // due 05-21
    office.data.ok(&[
        "payment",
        "record",
        "--company",
        &office.a,
        "--invoice",
        &f,
        "--amount",
        "40000",
        "--on",
        "2026-05-25",
    ]);
    // 28 May: both get the friendly reminder; F states what is left of it.
    let first = dunning(&office, &["send", "--on", "2026-05-28"]);
    assert_eq!(numbers(&first["sent"]), vec![f.clone(), g.clone()]);
    assert_eq!(first["sent"][0]["open"]["minor"], 79_000);
    assert_eq!(first["sent"][1]["open"]["minor"], 119_000);
    office.data.ok(&[
        "invoice",
        "cancel",
        "--company",
        &office.a,
        &g,
        "--reason",
        "Doppelt berechnet",
        "--on",
        "2026-05-29",
    ]);
    // 15 June, past the first reminder's 14 days: F its level 2, G nothing.
    let run = dunning(&office, &["run", "--on", "2026-06-15"]);
    assert_eq!(numbers(&run["proposals"]), vec![f.clone()], "{run}");
    assert_eq!(run["proposals"][0]["level"], 2);
    assert_eq!(run["proposals"][0]["open"]["minor"], 79_000);
}

#[test]
fn a_run_that_cannot_reach_a_customer_sends_nothing_and_says_which_invoice_and_why() {
    let smtp = SmtpServer::start(Security::StartTls, false);
    let office = Office::new();
    let api = office.api();
    configure(&office.data, &office.a, &smtp, None);
    let customer = api.customer(&office.key_a, "Kunde ohne Adresse GmbH");
    let number = issue(&office, &customer, "2026-05-07");
    let (ok, _, why) = office.data.console(&[
        "dunning",
        "send",
        "--on",
        "2026-05-28",
        "--company",
        &office.a,
    ]);
    assert!(!ok, "{why}");
    assert!(
        why.contains(&format!(
            "No reminder was sent. {number}: Kunde ohne Adresse GmbH has no e-mail address"
        )),
        "{why}"
    );
    // Nothing was recorded: given an address, the same run sends the first.
    office.data.ok(&[
        "customer",
        "set",
        customer["id"].as_str().unwrap(),
        "--invoice-email",
        "einkauf@ohne-adresse.example",
    ]);
    let sent = dunning(&office, &["send", "--on", "2026-05-28"]);
    assert_eq!(numbers(&sent["sent"]), vec![number]);
}
