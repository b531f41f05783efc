//! The demo: a fresh data file with an Enterprise demo company, sample
//! customers and transactions in both environments, a live and a test key
//! with every scope, a ready-to-paste curl line, and then the server. It goes
//! through the same domain functions as the API and the console.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::access::Scope;
use crate::company::{self, NewCompany, Plan};
use crate::customers::{self, NewCustomer};
use crate::db::Db;
use crate::error::{Error, Result};
use crate::iso::{CountryCode, Currency};
use crate::keys::{self, NewKey};
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
        customers::create(
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
/// Fails when a named data file already exists, or the address cannot be bound.
pub fn run(data: Option<PathBuf>, listen: SocketAddr) -> Result<()> {
    let path = match data {
        Some(path) if path.exists() => {
            return Err(Error::refused(format!(
            "The demo needs a fresh data file, and {} exists; name another or leave out --data.",
            path.display()
        )))
        }
        Some(path) => path,
        None => {
            let path = PathBuf::from(DEMO_DATA);
            remove_data_file(&path)?;
            path
        }
    };
    let demo = seed(&Db::open(&path, 1)?)?;
    server::run_until_signal(Config::new(&path, listen), |addr| {
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
