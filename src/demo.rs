//! The demo: a fresh data file with an Enterprise demo company, sample
//! customers and transactions in both environments, a live and a test key
//! with every scope, a ready-to-paste curl line, and then the server. It goes
//! through the same domain functions as the API and the console.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::access::Scope;
use jiff::civil::Date;
use jiff::ToSpan;

use crate::company::{self, Company, NewCompany, Plan};
use crate::customers::{self, NewCustomer};
use crate::db::Db;
use crate::db::Tx;
use crate::drafts::{self, DocumentType, IssueOptions, NewLine};
use crate::error::{Error, Result};
use crate::invoices::{self, Method, NewPayment};
use crate::iso::{CountryCode, Currency};
use crate::keys::{self, NewKey};
use crate::money::{Decimal, Tax};
use crate::purchases::{self, NewPurchase};
use crate::server::{self, Config};
use crate::tenant::{Environment, Tenant};
use crate::transactions::{self, Change, NewTransaction};

/// The data file the demo uses (and replaces) when `--data` is not given.
pub const DEMO_DATA: &str = "kontor-demo.db";

/// What the demo made: the company and the two keys.
pub struct Demo {
    pub company_id: String,
    pub company_name: String,
    pub live_key: String,
    pub test_key: String,
}

fn customer(
    name: &str,
    street: &str,
    postal: &str,
    city: &str,
    country: &str,
    email: Option<&str>,
) -> NewCustomer {
    NewCustomer {
        name: name.into(),
        contact: None,
        email: email.map(str::to_string),
        phone: None,
        street: street.into(),
        postal_code: postal.into(),
        city: city.into(),
        country: CountryCode::parse("country", country).expect("demo countries are valid"),
        vat_id: None,
        currency: None,
        is_customer: true,
        is_supplier: false,
    }
}

fn job(
    title: &str,
    customer_id: Option<&str>,
    stage: Option<&str>,
    due: Option<&str>,
) -> NewTransaction {
    NewTransaction {
        title: title.into(),
        description: None,
        customer_id: customer_id.map(str::to_string),
        due_on: due.and_then(|d| d.parse().ok()),
        stage: stage.map(str::to_string),
    }
}

/// Issues a one- or two-line invoice draft for `customer` on `on`; returns its number.
fn invoice(
    tx: &Tx,
    tenant: &Tenant,
    customer: &str,
    on: Date,
    lines: &[(&str, &str, i64, &str)],
) -> Result<String> {
    let draft = drafts::create(tx, tenant, customer, DocumentType::Invoice)?;
    for (description, quantity, price, rate) in lines {
        let line = NewLine {
            description: description.to_string(),
            quantity: Decimal::parse("quantity", quantity)?,
            unit_price: *price,
            taxes: vec![Tax::new("USt", Decimal::parse("rate", rate)?, None)?],
        };
        drafts::add_line(tx, tenant, &draft, &line)?;
    }
    let id = drafts::issue(
        tx,
        tenant,
        &draft,
        &IssueOptions {
            on: Some(on),
            ..IssueOptions::default()
        },
    )?;
    Ok(invoices::stored_by_id(tx, tenant, &id)?.number)
}

/// The demo's books, dated back from today: an overdue invoice, a partly and a
/// fully paid one, a fresh one, a cancelled one with its correction, an open
/// draft, a bill open and one paid; and an invoice in the sandbox.
fn books(
    tx: &Tx,
    live: &Tenant,
    sandbox: &Tenant,
    company: &Company,
    partners: [&str; 4],
    test_customer: &str,
) -> Result<()> {
    let [müller, alpen, stadt, rosa] = partners;
    let today = company.today();
    let ago = |days: i64| today.checked_sub(days.days()).unwrap_or(today);
    let pay = |tx: &Tx, number: &str, amount: i64, on: Date| {
        let payment = NewPayment {
            amount,
            on: Some(on),
            method: Method::Bank,
            reference: Some(format!("Überweisung {number}")),
        };
        invoices::record_payment(tx, live, number, &payment).map(|_| ())
    };
    invoice(
        tx,
        live,
        müller,
        ago(40),
        &[("Dachsanierung Lagerhalle, Abschlag 1", "1", 1_250_000, "19")],
    )?;
    let partly = invoice(
        tx,
        live,
        alpen,
        ago(20),
        &[
            ("Einbauküche Musterhaus", "1", 840_000, "19"),
            ("Montage (Stunden)", "12.5", 6_500, "19"),
        ],
    )?;
    pay(tx, &partly, 500_000, ago(5))?;
    let paid = invoice(
        tx,
        live,
        stadt,
        ago(30),
        &[("Wartung Heizungsanlage", "1", 48_000, "19")],
    )?;
    pay(tx, &paid, 57_120, ago(10))?;
    invoice(
        tx,
        live,
        müller,
        ago(3),
        &[("Dachsanierung Lagerhalle, Abschlag 2", "1", 1_250_000, "19")],
    )?;
    let wrong = invoice(
        tx,
        live,
        rosa,
        ago(15),
        &[("Bewirtung Richtfest", "40", 2_450, "7")],
    )?;
    invoices::cancel(tx, live, &wrong, "Falscher Empfänger", Some(ago(14)))?;
    drafts::create(tx, live, rosa, DocumentType::Invoice)?;
    let bill = |number: &str, date: Date, due: Date, net: i64| NewPurchase {
        supplier: "Holzhandel Meier KG".into(),
        supplier_vat_id: None,
        document_number: number.into(),
        date,
        due,
        currency: Currency::parse("currency", "EUR").expect("EUR is a currency"),
        net,
        tax: net * 19 / 100,
        kind: purchases::Kind::Bill,
        rate: None,
    };
    purchases::record(
        tx,
        live,
        &bill(
            "HM-2211",
            ago(12),
            ago(12).checked_add(14.days()).unwrap_or(today),
            320_000,
        ),
    )?;
    let paid_bill = purchases::record(tx, live, &bill("HM-2187", ago(35), ago(21), 90_000))?;
    let payment = NewPayment {
        amount: 107_100,
        on: Some(ago(22)),
        method: Method::Bank,
        reference: None,
    };
    purchases::pay(tx, live, &paid_bill, &payment)?;
    invoice(
        tx,
        sandbox,
        test_customer,
        ago(1),
        &[("Testleistung", "1", 10_000, "19")],
    )?;
    Ok(())
}

fn secret_of(key: &Value) -> String {
    key["secret"].as_str().unwrap_or_default().to_string()
}

/// Fills an empty data file with the demo company, its books and two keys.
///
/// Fails only on a storage error.
pub fn seed(db: &Db) -> Result<Demo> {
    db.write(|tx| {
        let company = company::create(
            tx,
            NewCompany {
                name: "Nordlicht Werkstatt GmbH".into(),
                country: CountryCode::parse("country", "DE")?,
                currency: Currency::parse("currency", "EUR")?,
                plan: Plan::Enterprise,
                invoice_prefix: "RE".into(),
                payment_days: None,
                timezone: None,
            },
        )?;
        let live = Tenant::new(&company.id, Environment::Production);
        let sandbox = Tenant::new(&company.id, Environment::Sandbox);

        let müller = customers::create(
            tx,
            &live,
            &customer(
                "Müller Bau GmbH",
                "Hafenstraße 12",
                "20457",
                "Hamburg",
                "DE",
                Some("buchhaltung@mueller-bau.de"),
            ),
        )?;
        let alpen = customers::create(
            tx,
            &live,
            &customer(
                "Alpen Tischlerei KG",
                "Bahnhofplatz 3",
                "6020",
                "Innsbruck",
                "AT",
                Some("office@alpen-tischlerei.at"),
            ),
        )?;
        let stadt = customers::create(
            tx,
            &live,
            &customer(
                "Stadtwerke Lüneburg",
                "Am Sande 1",
                "21335",
                "Lüneburg",
                "DE",
                None,
            ),
        )?;
        let rosa = customers::create(
            tx,
            &live,
            &customer("Café Rosa", "Lindenallee 5", "10115", "Berlin", "DE", None),
        )?;
        let test_customer = customers::create(
            tx,
            &sandbox,
            &customer(
                "Testkunde GmbH",
                "Teststraße 1",
                "10115",
                "Berlin",
                "DE",
                Some("test@example.com"),
            ),
        )?;

        transactions::create(
            tx,
            &live,
            &job(
                "Dachsanierung Lagerhalle",
                Some(&müller),
                Some("IN_ARBEIT"),
                Some("2026-12-15"),
            ),
        )?;
        transactions::create(
            tx,
            &live,
            &job(
                "Einbauküche Musterhaus",
                Some(&alpen),
                None,
                Some("2027-01-31"),
            ),
        )?;
        transactions::create(
            tx,
            &live,
            &job(
                "Wartung Heizungsanlage",
                Some(&stadt),
                Some("ERLEDIGT"),
                None,
            ),
        )?;
        let old = transactions::create(
            tx,
            &live,
            &job("Angebot Fensterbau (abgesagt)", None, None, None),
        )?;
        transactions::update(
            tx,
            &live,
            &old,
            &Change {
                archived: Some(true),
                ..Change::default()
            },
        )?;
        transactions::create(
            tx,
            &sandbox,
            &job("Testauftrag", Some(&test_customer), None, None),
        )?;
        books(
            tx,
            &live,
            &sandbox,
            &company,
            [&müller, &alpen, &stadt, &rosa],
            &test_customer,
        )?;

        let key = |environment, name: &str| {
            keys::create(
                tx,
                NewKey {
                    company_id: company.id.clone(),
                    name: name.into(),
                    environment,
                    scopes: Scope::ALL.to_vec(),
                    expires_at: None,
                },
            )
        };
        let live_key = secret_of(&key(Environment::Production, "demo live key")?);
        let test_key = secret_of(&key(Environment::Sandbox, "demo test key")?);
        Ok(Demo {
            company_id: company.id.clone(),
            company_name: company.name,
            live_key,
            test_key,
        })
    })
}

fn remove_data_file(path: &Path) -> Result<()> {
    for suffix in ["", "-wal", "-shm"] {
        let mut p = path.as_os_str().to_owned();
        p.push(suffix);
        match std::fs::remove_file(&p) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                return Err(Error::refused(format!(
                    "Cannot replace {}: {e}.",
                    path.display()
                )))
            }
        }
    }
    Ok(())
}

/// `kontor demo`: a fresh data file (the default demo file is replaced; a
/// named file must not exist yet), the demo books, the keys, then it serves.
///
/// Fails when a named data file already exists, when a server serves the
/// demo file, or when the address cannot be bound.
pub fn run(data: Option<PathBuf>, listen: SocketAddr, webhook_allow_loopback: bool) -> Result<()> {
    let replace = data.is_none();
    let path = match data {
        Some(path) if path.exists() => {
            return Err(Error::refused(format!(
            "The demo needs a fresh data file, and {} exists; name another or leave out --data.",
            path.display()
        )))
        }
        Some(path) => path,
        None => PathBuf::from(DEMO_DATA),
    };
    // Taken before the file is replaced; the server shares it.
    let _lock = crate::lock::ServerLock::replace_demo(&path)?;
    if replace {
        remove_data_file(&path)?;
    }
    let demo = seed(&Db::open(&path, 1)?)?;
    let mut config = Config::new(&path, listen);
    config.webhook_allow_loopback = webhook_allow_loopback;
    server::run_until_signal(config, |addr| {
        println!(
            "kontor demo: {} ({}, Enterprise plan) in {}",
            demo.company_name,
            demo.company_id,
            path.display()
        );
        println!();
        println!("  live key (production): {}", demo.live_key);
        println!("  test key (sandbox):    {}", demo.test_key);
        println!();
        println!("  REST API: http://{addr}/v1");
        println!(
            "  try:      curl -s http://{addr}/v1/customers -H 'Authorization: Bearer {}'",
            demo.live_key
        );
        println!();
        println!("  The keys are shown only now. Ctrl-C stops the server.");
    })
}
