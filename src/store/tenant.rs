//! Who a row belongs to: a company and an environment. Every company-owned row
//! carries both, and every domain query filters on a `Tenant`, so a sandbox
//! key never sees, counts or numbers production rows and no company sees
//! another's. Surfaces obtain a `Tenant` only from an authenticated key or a
//! console flag; they never filter themselves.

use rusqlite::{params, Connection, OptionalExtension};

use crate::error::{Error, Result};

/// Production (live keys) or sandbox (test keys).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Environment {
    Production,
    Sandbox,
}

impl Environment {
    /// The stored and shown form: `PRODUCTION` or `SANDBOX`.
    pub fn as_str(self) -> &'static str {
        match self {
            Environment::Production => "PRODUCTION",
            Environment::Sandbox => "SANDBOX",
        }
    }

    /// The key prefix of this environment.
    pub fn key_prefix(self) -> &'static str {
        match self {
            Environment::Production => "svc_live_",
            Environment::Sandbox => "svc_test_",
        }
    }

    /// Reads `production`/`live` or `sandbox`/`test` (any case), or the stored form.
    ///
    /// Fails with `BadRequest` for anything else.
    pub fn parse(text: &str) -> Result<Environment> {
        match text.to_ascii_lowercase().as_str() {
            "production" | "live" => Ok(Environment::Production),
            "sandbox" | "test" => Ok(Environment::Sandbox),
            _ => Err(Error::bad_request(format!(
                "{text} is not an environment; use production or sandbox."
            ))),
        }
    }
}

/// A company in one environment: the boundary of everything a key can see.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tenant {
    pub company_id: String,
    pub environment: Environment,
}

impl Tenant {
    pub fn new(company_id: impl Into<String>, environment: Environment) -> Tenant {
        Tenant {
            company_id: company_id.into(),
            environment,
        }
    }

    /// The environment's stored form, for SQL parameters.
    pub fn env(&self) -> &'static str {
        self.environment.as_str()
    }
}

/// Records the console names by id alone.
#[derive(Debug, Clone, Copy)]
pub enum Owned {
    Customer,
    Draft,
    Purchase,
    Delivery,
}

/// The tenant a record belongs to, found by its id within an environment: the
/// console names drafts, customers and purchases without their company.
///
/// Fails with `NotFound` when that environment has no such record.
pub fn owner(conn: &Connection, what: Owned, id: &str, environment: Environment) -> Result<Tenant> {
    let (sql, name) = match what {
        Owned::Customer => (
            "SELECT company_id FROM customers WHERE id = ?1 AND environment = ?2",
            "Customer",
        ),
        Owned::Draft => (
            "SELECT company_id FROM drafts WHERE id = ?1 AND environment = ?2",
            "Draft",
        ),
        Owned::Purchase => (
            "SELECT company_id FROM purchases WHERE id = ?1 AND environment = ?2",
            "Purchase",
        ),
        Owned::Delivery => (
            "SELECT company_id FROM deliveries WHERE id = ?1 AND environment = ?2",
            "Delivery",
        ),
    };
    let company: Option<String> = conn
        .prepare_cached(sql)?
        .query_row(params![id, environment.as_str()], |r| r.get(0))
        .optional()?;
    company
        .map(|c| Tenant::new(c, environment))
        .ok_or_else(|| Error::not_found(format!("{name} {id}")))
}
