//! The demo: a fresh data file with an Enterprise demo company, sample
//! customers and transactions in both environments, a live and a test key
//! with every scope, a ready-to-paste curl line, and then the server. It goes
//! through the same domain functions as the API and the console, its acts
//! recorded in the audit as the system's.

use std::path::{Path, PathBuf};

use jiff::civil::Date;
use jiff::ToSpan;
use serde_json::Value;

use crate::access::keys::{self, NewKey};
use crate::access::people::{self, NewMember, Role, UserInput};
use crate::books::audit::Actor;
use crate::books::company::{self, Company, CompanyInput, NewCompany};
use crate::books::customers::{
    self, CustomerChange, CustomerChangeInput, CustomerInput, NewCustomer,
};
use crate::books::drafts::{self, DraftInput, DraftKind, DraftLineInput, NewDraft, NewDraftLine};
use crate::books::invoices;
use crate::books::invoices::cancel::{self, CancelInput, Cancellation};
use crate::books::invoices::issue::{self, IssueOptions};
use crate::books::particulars::ParticularsInput;
use crate::books::purchases::{self, NewPurchase, PurchaseInput};
use crate::books::settlement::{self, NewPayment, PaymentInput};
use crate::books::transactions::{self, Change, NewTransaction, TransactionInput};
use crate::console::args::ServeArgs;
use crate::error::{Error, Result};
use crate::http::server::{self, Config};
use crate::rules::text::Patch;
use crate::store::db::{Db, Tx};
use crate::store::tenant::{Environment, Tenant};

/// Who the demo's acts are recorded as: the system, as the console's.
const SYSTEM: Actor = Actor::System;

/// The data file the demo uses (and replaces) when `--data` is not given.
pub const DEMO_DATA: &str = "kontor-demo.db";

/// What the demo made: the company, the two keys, and one person per role
/// with their password.
pub struct Demo {
    pub company_id: String,
    pub company_name: String,
    pub live_key: String,
    pub test_key: String,
    /// (role, e-mail address, password) of each person.
    pub people: Vec<(Role, String, String)>,
}

/// The demo's people, one per role.
const PEOPLE: [(Role, &str, &str); 4] = [
    (Role::Owner, "inhaberin@nordlicht.example", "Ida Inhaberin"),
    (
        Role::Accountant,
        "buchhaltung@nordlicht.example",
        "Bert Buchhalter",
    ),
    (Role::Viewer, "lesen@nordlicht.example", "Vera Viewer"),
    (
        Role::Adviser,
        "steuerberatung@nordlicht.example",
        "Stefan Steuerberater",
    ),
];

fn customer(
    company: &Company,
    name: &str,
    street: &str,
    postal: &str,
    city: &str,
    country: &str,
    email: Option<&str>,
) -> Result<NewCustomer> {
    NewCustomer::check(
        CustomerInput {
            name: Some(name.into()),
            street: Some(street.into()),
            postal_code: Some(postal.into()),
            city: Some(city.into()),
            country: Some(country.into()),
            email: email.map(str::to_string),
            ..CustomerInput::default()
        },
        company,
    )
}

/// Gives a demo customer its buyer's particulars: a buyer reference, an
/// electronic address and the e-invoice format it receives.
fn buyer(
    tx: &Tx,
    tenant: &Tenant,
    id: &str,
    reference: Option<&str>,
    address: &str,
    format: &str,
) -> Result<()> {
    let current = customers::get(tx, tenant, id)?;
    let change = CustomerChange::check(
        CustomerChangeInput {
            buyer_reference: reference.map_or(Patch::Absent, |r| Patch::Value(r.into())),
            electronic_address: Patch::Value(address.into()),
            einvoice: Some(format.into()),
            ..CustomerChangeInput::default()
        },
        &current,
    )?;
    customers::change(tx, tenant, &SYSTEM, id, change).map(|_| ())
}

/// The demo company's particulars: a GmbH in Hamburg with every particular
/// an invoice and a business letter carry.
fn particulars() -> ParticularsInput {
    let v = |text: &str| Patch::Value(text.to_string());
    ParticularsInput {
        legal_name: v("Nordlicht Werkstatt GmbH"),
        street: v("Stresemannstraße 48"),
        postal_code: v("22769"),
        city: v("Hamburg"),
        vat_id: v("DE815739245"),
        tax_number: v("43/815/08156"),
        registration: v("HRB 171234, Amtsgericht Hamburg"),
        contact_name: v("Jana Petersen"),
        contact_phone: v("+49 40 3861 2240"),
        contact_email: v("buchhaltung@nordlicht-werkstatt.de"),
        electronic_address: v("EM:rechnung@nordlicht-werkstatt.de"),
        iban: v("DE20 2005 0550 1280 1635 74"),
        bic: v("HASPDEHHXXX"),
        account_holder: v("Nordlicht Werkstatt GmbH"),
        managing_directors: v("Jana Petersen, Ole Brandt"),
        small_business: Some(false),
        legal_form: v("GMBH"),
    }
}

fn job(
    title: &str,
    customer_id: Option<&str>,
    stage: Option<&str>,
    due: Option<&str>,
) -> Result<NewTransaction> {
    NewTransaction::check(TransactionInput {
        title: Some(title.into()),
        customer_id: customer_id.map(str::to_string),
        due_on: due.map(str::to_string),
        stage: stage.map(str::to_string),
        ..TransactionInput::default()
    })
}

/// Issues a one- or two-line invoice draft for `customer` on `on`; returns its number.
fn invoice(
    tx: &Tx,
    tenant: &Tenant,
    company: &Company,
    customer: &str,
    on: Date,
    lines: &[(&str, &str, i64, &str)],
) -> Result<String> {
    let draft = NewDraft::empty(
        DraftInput {
            customer_id: Some(customer.to_string()),
        },
        DraftKind::Invoice,
    )?;
    let draft = drafts::create(tx, tenant, &SYSTEM, &draft)?;
    for (description, quantity, price, rate) in lines {
        let line = NewDraftLine::check(
            DraftLineInput {
                description: Some(description.to_string()),
                quantity: Some(quantity.to_string()),
                unit_price_minor: Some(*price),
                tax_rate_percent: Some(rate.to_string()),
                ..DraftLineInput::default()
            },
            company,
        )?;
        drafts::add_line(tx, tenant, &SYSTEM, &draft, &line)?;
    }
    let id = issue::issue(tx, tenant, &SYSTEM, &draft, &IssueOptions::on(on))?;
    Ok(invoices::get_by_id(tx, tenant, &id)?.number)
}

/// The demo's books, dated back from today: an overdue invoice, a partly and a
/// fully paid one, a fresh one, a cancelled one with its correction, an open
/// draft, a bill open and one paid, a supplier's credit applied to a bill;
/// and an invoice in the sandbox.
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
    let pay = |tx: &Tx, number: &str, amount: i64, on: Date| -> Result<()> {
        let payment = NewPayment::check(PaymentInput {
            amount: Some(amount),
            on: Some(on.to_string()),
            method: Some("bank".into()),
            reference: Some(format!("Überweisung {number}")),
        })?;
        settlement::pay_invoice(tx, live, &SYSTEM, number, &payment).map(|_| ())
    };
    let issue = |customer: &str, days: i64, lines: &[(&str, &str, i64, &str)]| {
        invoice(tx, live, company, customer, ago(days), lines)
    };
    issue(
        müller,
        40,
        &[("Dachsanierung Lagerhalle, Abschlag 1", "1", 1_250_000, "19")],
    )?;
    let partly = issue(
        alpen,
        20,
        &[
            ("Einbauküche Musterhaus", "1", 840_000, "19"),
            ("Montage (Stunden)", "12.5", 6_500, "19"),
        ],
    )?;
    pay(tx, &partly, 500_000, ago(5))?;
    let paid = issue(stadt, 30, &[("Wartung Heizungsanlage", "1", 48_000, "19")])?;
    pay(tx, &paid, 57_120, ago(10))?;
    issue(
        müller,
        3,
        &[("Dachsanierung Lagerhalle, Abschlag 2", "1", 1_250_000, "19")],
    )?;
    let wrong = issue(rosa, 15, &[("Bewirtung Richtfest", "40", 2_450, "7")])?;
    let cancellation = Cancellation::check(CancelInput {
        reason: Some("Falscher Empfänger".into()),
        on: Some(ago(14).to_string()),
    })?;
    cancel::cancel(tx, live, &SYSTEM, &wrong, &cancellation)?;
    let open_draft = NewDraft::empty(
        DraftInput {
            customer_id: Some(rosa.to_string()),
        },
        DraftKind::Invoice,
    )?;
    drafts::create(tx, live, &SYSTEM, &open_draft)?;
    let purchase = |number: &str, date: Date, due: Date, net: i64, kind: &str| {
        NewPurchase::check(PurchaseInput {
            supplier: Some("Holzhandel Meier KG".into()),
            document_number: Some(number.into()),
            date: Some(date.to_string()),
            due: Some(due.to_string()),
            currency: Some("EUR".into()),
            net: Some(net),
            tax: Some(net * 19 / 100),
            kind: Some(kind.into()),
            ..PurchaseInput::default()
        })
    };
    let open_bill = purchases::record(
        tx,
        live,
        &SYSTEM,
        &purchase(
            "HM-2211",
            ago(12),
            ago(12).checked_add(14.days()).unwrap_or(today),
            320_000,
            "bill",
        )?,
    )?;
    let paid_bill = purchases::record(
        tx,
        live,
        &SYSTEM,
        &purchase("HM-2187", ago(35), ago(21), 90_000, "bill")?,
    )?;
    let payment = NewPayment::check(PaymentInput {
        amount: Some(107_100),
        on: Some(ago(22).to_string()),
        method: Some("bank".into()),
        reference: None,
    })?;
    settlement::pay_bill(tx, live, &SYSTEM, &paid_bill, &payment)?;
    let credit = purchases::record(
        tx,
        live,
        &SYSTEM,
        &purchase("HM-G-0042", ago(8), ago(8), 20_000, "credit")?,
    )?;
    let application = settlement::CreditRequest::check(settlement::CreditInput {
        amount: None,
        on: Some(ago(7).to_string()),
    })?;
    settlement::apply_credit(tx, live, &SYSTEM, &credit, &open_bill, &application)?;
    invoice(
        tx,
        sandbox,
        company,
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
    let new = NewCompany::check(CompanyInput {
        name: Some("Nordlicht Werkstatt GmbH".into()),
        country: Some("DE".into()),
        currency: Some("EUR".into()),
        plan: Some("ENTERPRISE".into()),
        invoice_prefix: Some("RE".into()),
        particulars: particulars(),
        ..CompanyInput::default()
    })?;
    db.write(|tx| {
        let company = company::create(tx, new)?;
        let live = Tenant::new(&company.id, Environment::Production);
        let sandbox = Tenant::new(&company.id, Environment::Sandbox);
        let c = &company;

        let müller = customers::create(
            tx,
            &live,
            &SYSTEM,
            &customer(
                c,
                "Müller Bau GmbH",
                "Hafenstraße 12",
                "20457",
                "Hamburg",
                "DE",
                Some("buchhaltung@mueller-bau.de"),
            )?,
        )?;
        let alpen = customers::create(
            tx,
            &live,
            &SYSTEM,
            &customer(
                c,
                "Alpen Tischlerei KG",
                "Bahnhofplatz 3",
                "6020",
                "Innsbruck",
                "AT",
                Some("office@alpen-tischlerei.at"),
            )?,
        )?;
        let stadt = customers::create(
            tx,
            &live,
            &SYSTEM,
            &customer(
                c,
                "Stadtwerke Lüneburg",
                "Am Sande 1",
                "21335",
                "Lüneburg",
                "DE",
                None,
            )?,
        )?;
        let rosa = customers::create(
            tx,
            &live,
            &SYSTEM,
            &customer(
                c,
                "Café Rosa",
                "Lindenallee 5",
                "10115",
                "Berlin",
                "DE",
                None,
            )?,
        )?;
        buyer(
            tx,
            &live,
            &müller,
            Some("MB-EK-4711"),
            "EM:rechnung@mueller-bau.de",
            "facturx",
        )?;
        buyer(
            tx,
            &live,
            &alpen,
            None,
            "EM:office@alpen-tischlerei.at",
            "facturx",
        )?;
        // A public buyer: the Leitweg-ID is its buyer reference and address.
        buyer(
            tx,
            &live,
            &stadt,
            Some("03355022-32100-28"),
            "0204:03355022-32100-28",
            "xrechnung",
        )?;
        let test_customer = customers::create(
            tx,
            &sandbox,
            &SYSTEM,
            &customer(
                c,
                "Testkunde GmbH",
                "Teststraße 1",
                "10115",
                "Berlin",
                "DE",
                Some("test@example.com"),
            )?,
        )?;

        // The live jobs: (title, customer, stage, due on).
        for (title, customer, stage, due) in [
            (
                "Dachsanierung Lagerhalle",
                Some(&müller),
                Some("IN_ARBEIT"),
                Some("2026-12-15"),
            ),
            (
                "Einbauküche Musterhaus",
                Some(&alpen),
                None,
                Some("2027-01-31"),
            ),
            (
                "Wartung Heizungsanlage",
                Some(&stadt),
                Some("ERLEDIGT"),
                None,
            ),
        ] {
            let customer = customer.map(String::as_str);
            transactions::create(tx, &live, &SYSTEM, &job(title, customer, stage, due)?)?;
        }
        let old = transactions::create(
            tx,
            &live,
            &SYSTEM,
            &job("Angebot Fensterbau (abgesagt)", None, None, None)?,
        )?;
        transactions::update(tx, &live, &SYSTEM, &old, &Change::archive(true))?;
        transactions::create(
            tx,
            &sandbox,
            &SYSTEM,
            &job("Testauftrag", Some(&test_customer), None, None)?,
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
                &live,
                &SYSTEM,
                NewKey::all_scopes(&company.id, name, environment),
            )
        };
        let live_key = secret_of(&key(Environment::Production, "demo live key")?);
        let test_key = secret_of(&key(Environment::Sandbox, "demo test key")?);
        // One person per role, each with a fresh password shown only now.
        let mut people = Vec::new();
        for (role, email, name) in PEOPLE {
            let password = crate::store::ids::base62(16);
            let new = NewMember::check(UserInput {
                company_id: Some(company.id.clone()),
                email: Some(email.into()),
                name: Some(name.into()),
                role: Some(role.as_str().into()),
                password: Some(password.clone()),
            })?;
            people::add(tx, &live, &SYSTEM, &new)?;
            people.push((role, email.to_string(), password));
        }
        Ok(Demo {
            company_id: company.id.clone(),
            company_name: company.name.clone(),
            live_key,
            test_key,
            people,
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
pub fn run(data: Option<PathBuf>, args: &ServeArgs) -> Result<()> {
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
    let _lock = crate::store::lock::ServerLock::replace_demo(&path)?;
    if replace {
        remove_data_file(&path)?;
    }
    let demo = seed(&Db::open(&path, 1)?)?;
    let _log = super::log::start(args.log_format);
    let mut config = Config::new(&path, args.listen);
    args.apply(&mut config)?;
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
        println!("  screens:  http://{addr}/  (sign in as one of these)");
        for (role, email, password) in &demo.people {
            println!(
                "    {:<11} {email:<34} password {password}",
                role.as_str().to_lowercase()
            );
        }
        println!();
        println!("  REST API: http://{addr}/v1");
        println!(
            "  try:      curl -s http://{addr}/v1/customers -H 'Authorization: Bearer {}'",
            demo.live_key
        );
        println!();
        println!("  The keys and passwords are shown only now. Ctrl-C stops the server.");
    })
}
