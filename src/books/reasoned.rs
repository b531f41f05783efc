//! A person's act that is dated and says why: cancelling an invoice by a
//! correction, taking a payment back. One check for both: a reason of
//! 1–1000 characters and a day `YYYY-MM-DD` (none: today in the company's
//! time zone, decided by the act).

use jiff::civil::Date;

use crate::error::{Result, Violations};
use crate::rules::text;
use crate::store::clock;

/// The longest reason (characters).
pub const MAX_REASON: usize = 1000;

/// The act as a person asks for it.
#[derive(Debug, Default, Clone)]
pub struct ReasonedInput {
    /// Why (required).
    pub reason: Option<String>,
    /// The day (default today in the company's time zone).
    pub on: Option<String>,
}

/// A checked request.
#[derive(Debug, Clone)]
pub struct Reasoned {
    reason: String,
    on: Option<Date>,
}

impl Reasoned {
    /// Checks the request: a reason of 1–1000 characters, a date `YYYY-MM-DD`.
    ///
    /// Fails with `Invalid` naming `on`, or `reason` when it is missing or too long.
    pub fn check(input: ReasonedInput) -> Result<Reasoned> {
        let mut v = Violations::new();
        let reason = v.take(text::required(
            "reason",
            input.reason.as_deref(),
            MAX_REASON,
        ))?;
        let on = match input.on.as_deref() {
            Some(d) => v.take(clock::parse_date("on", d))?,
            None => None,
        };
        v.finish()?;
        Ok(Reasoned {
            reason: reason.unwrap_or_default(),
            on,
        })
    }

    /// Why.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// The day asked for, if one was.
    pub fn on(&self) -> Option<Date> {
        self.on
    }
}
