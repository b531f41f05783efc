//! Whose books an act works in: the one way a person's act names its books
//! (`tenant`, which refuses a company that does not exist), and the books a
//! record belongs to when a person names it by its id alone (`owner`: a
//! draft, a customer, a bill, a payment, a delivery). The API's books are
//! its key's; these are the console's and the screens' ways in.

use rusqlite::{params, Connection, OptionalExtension};

use crate::error::said::Record;
use crate::error::{Error, Result, Said};
use crate::store::tenant::{Environment, Tenant};

/// The books of a company in one environment, as a person's act names them.
///
/// Fails with `NotFound` when there is no such company.
pub fn tenant(conn: &Connection, company_id: &str, environment: Environment) -> Result<Tenant> {
    let known: Option<i64> = conn
        .prepare_cached("SELECT 1 FROM companies WHERE id = ?1")?
        .query_row([company_id], |r| r.get(0))
        .optional()?;
    match known {
        Some(_) => Ok(Tenant::new(company_id, environment)),
        None => Err(Error::not_found(Said::Record(
            Record::Company,
            company_id.to_string(),
        ))),
    }
}

/// Records a person's act names by id alone.
#[derive(Debug, Clone, Copy)]
pub enum Owned {
    Customer,
    Draft,
    Purchase,
    Payment,
    Delivery,
    Asset,
}

/// The books a record belongs to, found by its id within an environment: a
/// person names drafts, customers, bills, payments, deliveries and assets
/// without their company.
///
/// Fails with `NotFound` when that environment has no such record.
pub fn owner(conn: &Connection, what: Owned, id: &str, environment: Environment) -> Result<Tenant> {
    let (sql, name) = match what {
        Owned::Customer => (
            "SELECT company_id FROM customers WHERE id = ?1 AND environment = ?2",
            Record::Customer,
        ),
        Owned::Draft => (
            "SELECT company_id FROM drafts WHERE id = ?1 AND environment = ?2",
            Record::Draft,
        ),
        Owned::Purchase => (
            "SELECT company_id FROM purchases WHERE id = ?1 AND environment = ?2",
            Record::Purchase,
        ),
        Owned::Payment => (
            "SELECT company_id FROM payments WHERE id = ?1 AND environment = ?2",
            Record::Payment,
        ),
        Owned::Delivery => (
            "SELECT company_id FROM deliveries WHERE id = ?1 AND environment = ?2",
            Record::Delivery,
        ),
        Owned::Asset => (
            "SELECT company_id FROM assets WHERE id = ?1 AND environment = ?2",
            Record::Asset,
        ),
    };
    let company: Option<String> = conn
        .prepare_cached(sql)?
        .query_row(params![id, environment], |r| r.get(0))
        .optional()?;
    company
        .map(|c| Tenant::new(c, environment))
        .ok_or_else(|| Error::not_found(Said::Record(name, id.to_string())))
}
