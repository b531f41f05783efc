//! Books filled fast through the books' own functions (the bank tests and
//! the bank benchmark, which includes this file): customers (some with an
//! IBAN), invoices issued on the bulk path (no documents written, the
//! creditor reference kept), and suppliers' bills.

#![allow(dead_code)]

use kontor::books::audit::Actor;
use kontor::books::company;
use kontor::books::customers::{
    self, CustomerChange, CustomerChangeInput, CustomerInput, NewCustomer,
};
use kontor::books::drafts::{self, DraftInput, DraftKind, DraftLineInput, NewDraft};
use kontor::books::invoices;
use kontor::books::invoices::issue::{self, IssueOptions};
use kontor::books::purchases::{self, NewPurchase, PurchaseInput};
use kontor::rules::text::Patch;
use kontor::store::db::Db;
use kontor::store::tenant::{Environment, Tenant};

/// An issued invoice or a recorded bill: its id, number, partner and gross.
#[derive(Clone, Debug)]
pub struct Doc {
    pub id: String,
    pub number: String,
    pub partner: String,
    pub partner_name: String,
    /// Minor units.
    pub gross: i64,
}

/// What was filled.
pub struct Filled {
    pub customers: Vec<(String, String)>,
    pub invoices: Vec<Doc>,
    pub bills: Vec<Doc>,
}

/// Fills the company's production books: `customers` customers named
/// `Kunde {k} GmbH` (the IBAN `iban(k)` where it gives one), `invoices`
/// one-line invoices at 19 % on `day` (invoice `i` to customer `i %
/// customers`, net `net(i)`), and `bills` bills of `suppliers` suppliers
/// `Lieferant {s} AG` numbered `LF-{j:05}` (gross `bill(j)`).
#[allow(clippy::too_many_arguments)]
pub fn fill(
    path: &std::path::Path,
    company_id: &str,
    customers: usize,
    iban: &dyn Fn(usize) -> Option<String>,
    invoices: usize,
    net: &dyn Fn(usize) -> i64,
    bills: usize,
    bill: &dyn Fn(usize) -> i64,
    day: &str,
) -> Filled {
    let db = Db::open(path, 1).unwrap();
    let tenant = Tenant::new(company_id, Environment::Production);
    let actor = Actor::System;
    let mut filled = Filled {
        customers: Vec::new(),
        invoices: Vec::new(),
        bills: Vec::new(),
    };
    db.write(|tx| {
        let company = company::get(tx, company_id)?;
        for k in 0..customers {
            let name = format!("Kunde {k} GmbH");
            let new = NewCustomer::check(
                CustomerInput {
                    name: Some(name.clone()),
                    street: Some(format!("Weg {k}")),
                    postal_code: Some("20457".into()),
                    city: Some("Hamburg".into()),
                    ..CustomerInput::default()
                },
                &company,
            )?;
            let id = customers::create(tx, &tenant, &actor, &new)?;
            if let Some(iban) = iban(k) {
                let current = customers::get(tx, &tenant, &id)?;
                let change = CustomerChange::check(
                    CustomerChangeInput {
                        iban: Patch::Value(iban),
                        ..CustomerChangeInput::default()
                    },
                    &current,
                )?;
                customers::change(tx, &tenant, &actor, &id, change)?;
            }
            filled.customers.push((id, name));
        }
        filled.invoices = issue_invoices(tx, &tenant, &filled.customers, invoices, net, day)?;
        for j in 0..bills {
            let gross = bill(j);
            let tax = gross * 19 / 119;
            let supplier = format!("Lieferant {} AG", j % 20);
            let new = NewPurchase::check(PurchaseInput {
                supplier: Some(supplier.clone()),
                document_number: Some(format!("LF-{j:05}")),
                date: Some(day.into()),
                due: Some(day.into()),
                currency: Some("EUR".into()),
                net: Some(gross - tax),
                tax: Some(tax),
                ..PurchaseInput::default()
            })?;
            let id = purchases::record(tx, &tenant, &actor, &new)?;
            filled.bills.push(Doc {
                id,
                number: format!("LF-{j:05}"),
                partner: String::new(),
                partner_name: supplier,
                gross,
            });
        }
        Ok(())
    })
    .unwrap();
    filled
}

/// Issues `count` one-line invoices at 19 % on `day` on the bulk path,
/// invoice `i` to `customers[i % len]` for the net `net(i)`.
fn issue_invoices(
    tx: &kontor::store::db::Tx,
    tenant: &Tenant,
    customers: &[(String, String)],
    count: usize,
    net: &dyn Fn(usize) -> i64,
    day: &str,
) -> kontor::error::Result<Vec<Doc>> {
    let actor = Actor::System;
    let company = company::get(tx, &tenant.company_id)?;
    let on = kontor::store::clock::parse_date("on", day)?;
    let mut issued = Vec::with_capacity(count);
    for i in 0..count {
        let (customer, name) = customers[i % customers.len()].clone();
        let draft = NewDraft::whole(
            DraftInput {
                customer_id: Some(customer.clone()),
            },
            DraftKind::Invoice,
            vec![DraftLineInput {
                description: Some("Leistung".into()),
                quantity: Some("1".into()),
                unit_price_minor: Some(net(i)),
                tax_rate_percent: Some("19".into()),
                ..DraftLineInput::default()
            }],
            &company,
        )?;
        let draft = drafts::create(tx, tenant, &actor, &draft)?;
        let id = issue::issue(
            tx,
            tenant,
            &actor,
            &draft,
            &IssueOptions::bulk_without_documents(on),
        )?;
        let view = invoices::get_by_id(tx, tenant, &id)?;
        issued.push(Doc {
            id,
            number: view.number,
            partner: customer,
            partner_name: name,
            gross: view.gross.minor,
        });
    }
    Ok(issued)
}

/// Issues more invoices of the company's production books on `day`, as
/// `fill` issues them, to the customers `customers` (invoice `i` to
/// `customers[i % len]`, net `net(i)`).
pub fn more_invoices(
    path: &std::path::Path,
    company_id: &str,
    customers: &[(String, String)],
    count: usize,
    net: &dyn Fn(usize) -> i64,
    day: &str,
) -> Vec<Doc> {
    let db = Db::open(path, 1).unwrap();
    let tenant = Tenant::new(company_id, Environment::Production);
    db.write(|tx| issue_invoices(tx, &tenant, customers, count, net, day))
        .unwrap()
}
