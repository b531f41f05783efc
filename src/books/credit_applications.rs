//! A supplier's credit applied to a bill, as a person asks for it and as
//! it is shown: the request given (`CreditInput`), checked
//! (`CreditRequest`), and the application's wire form (`CreditView`). The
//! act is the settlement's (`settlement::apply_credit`): this file posts
//! nothing.

use jiff::civil::Date;
use serde::Serialize;

use crate::error::{Result, Violations};
use crate::rules::money::{self, Money};
use crate::store::clock;

/// A credit application as a person gives it.
#[derive(Debug, Default, Clone)]
pub struct CreditInput {
    /// Minor units; default: as much as both the credit and the bill allow.
    pub amount: Option<i64>,
    /// The date (default today in the company's time zone).
    pub on: Option<String>,
}

/// A checked credit application.
#[derive(Debug, Clone)]
pub struct CreditRequest {
    amount: Option<i64>,
    on: Option<Date>,
}

impl CreditRequest {
    /// The amount asked for, if any (else as much as both allow).
    pub fn amount(&self) -> Option<i64> {
        self.amount
    }

    /// The day asked for, if any (else today).
    pub fn on(&self) -> Option<Date> {
        self.on
    }

    /// Checks the request: a positive amount when given, a date `YYYY-MM-DD`.
    ///
    /// Fails with `Invalid` naming every field that is malformed.
    pub fn check(input: CreditInput) -> Result<CreditRequest> {
        let mut v = Violations::new();
        if input
            .amount
            .is_some_and(|a| a <= 0 || a > money::MAX_AMOUNT)
        {
            v.invalid(
                "amount",
                "must be a positive number of minor units (at most 10^15)",
            );
        }
        let on = match input.on.as_deref() {
            Some(d) => v.take(clock::parse_date("on", d))?,
            None => None,
        };
        v.finish()?;
        Ok(CreditRequest {
            amount: input.amount,
            on,
        })
    }
}

/// A credit application in its wire form.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CreditView {
    pub id: String,
    pub credit_id: String,
    pub bill_id: String,
    pub amount: Money,
    pub applied_on: Date,
}
