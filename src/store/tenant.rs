//! Who a row belongs to: a company and an environment. Every company-owned row
//! carries both, and every query of the books filters on a `Tenant`, so a
//! sandbox key never sees, counts or numbers production rows and no company
//! sees another's. Surfaces obtain a `Tenant` only from an authenticated key
//! or, for a person's act, from `books::tenancy::tenant`; they never filter
//! themselves.

use crate::error::{Error, Result};
use crate::stored_enum;

stored_enum! {
    /// Production (live keys) or sandbox (test keys).
    pub enum Environment {
        Production = "PRODUCTION",
        Sandbox = "SANDBOX",
    }
}

impl Environment {
    /// The key prefix of this environment.
    pub fn key_prefix(self) -> &'static str {
        match self {
            Environment::Production => "svc_live_",
            Environment::Sandbox => "svc_test_",
        }
    }

    /// Reads `production`/`live` or `sandbox`/`test` (any case), or the stored form.
    ///
    /// Fails with `Invalid` naming the field `environment` for anything else.
    pub fn read(text: &str) -> Result<Environment> {
        match text.to_ascii_lowercase().as_str() {
            "production" | "live" => Ok(Environment::Production),
            "sandbox" | "test" => Ok(Environment::Sandbox),
            _ => Err(Error::invalid(
                "environment",
                crate::error::not_one_of(&["production", "sandbox"], text),
            )),
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
}
