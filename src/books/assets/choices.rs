//! A fiscal year's choices (§ 6 (2), (2a) EStG): whether low-value assets
//! are written off at once (the default) and whether the pool is kept (not
//! unless chosen). A choice holds for every asset acquired in that year, so
//! it changes only while the books of the year are open and no asset
//! recorded in it would be written off otherwise.

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use super::stored::{self, year_bounds, year_of};
use crate::books::audit::{self, Act, Actor};
use crate::books::ledger;
use crate::error::said;
use crate::error::{Error, Result, Violations};
use crate::rules::afa::{self, YearRule};
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::tenant::Tenant;

/// A year's choices as they hold.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct YearChoice {
    /// The calendar year the fiscal year starts in.
    pub year: i32,
    /// Low-value assets (at most € 800) written off at once (§ 6 (2) EStG).
    pub low_value: bool,
    /// The pool of € 250.01 to € 1,000 (§ 6 (2a) EStG).
    pub pool: bool,
    /// Whether a person chose (else the defaults hold).
    pub chosen: bool,
}

/// The choices of the fiscal year that starts in `year`.
///
/// Fails with `Invalid` naming `year` outside 1900–9998.
pub fn rule_of(conn: &Connection, tenant: &Tenant, year: i32) -> Result<YearChoice> {
    year_bounds(stored::fiscal_start(conn, tenant)?, year)?;
    let found: Option<(bool, bool)> = conn
        .prepare_cached(
            "SELECT low_value, pool FROM depreciation_rules
             WHERE company_id = ?1 AND environment = ?2 AND year = ?3",
        )?
        .query_row(params![tenant.company_id, tenant.environment, year], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .optional()?;
    let default = YearRule::default();
    Ok(match found {
        Some((low_value, pool)) => YearChoice {
            year,
            low_value,
            pool,
            chosen: true,
        },
        None => YearChoice {
            year,
            low_value: default.low_value,
            pool: default.pool,
            chosen: false,
        },
    })
}

impl YearChoice {
    pub fn rule(&self) -> YearRule {
        YearRule {
            low_value: self.low_value,
            pool: self.pool,
        }
    }
}

/// The choices as a person gives them: `yes` or `no` each, what is absent
/// stays.
#[derive(Debug, Default, Clone)]
pub struct RuleInput {
    pub pool: Option<String>,
    pub low_value: Option<String>,
}

fn yes_no(v: &mut Violations, field: &str, text: Option<&str>) -> Option<bool> {
    match text.map(|t| t.trim().to_ascii_lowercase()) {
        None => None,
        Some(t) if t == "yes" => Some(true),
        Some(t) if t == "no" => Some(false),
        Some(t) => {
            v.invalid(field, said::Asset::NotYesNo { got: t });
            None
        }
    }
}

/// Sets the choices of the fiscal year that starts in `year`. Recorded as
/// `books.depreciation_rule_set` by `actor`, the year naming what changed.
///
/// Fails with `Invalid` naming `pool` or `lowValue` when neither is given or
/// one is not yes or no, or `year` outside 1900–9998; `Refused` when the
/// books are closed through the year's end, or when an asset recorded in
/// that year would be written off otherwise.
pub fn set_rule(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    year: i32,
    input: &RuleInput,
) -> Result<YearChoice> {
    let mut v = Violations::new();
    let pool = yes_no(&mut v, "pool", input.pool.as_deref());
    let low_value = yes_no(&mut v, "lowValue", input.low_value.as_deref());
    if input.pool.is_none() && input.low_value.is_none() {
        v.invalid("pool", said::Asset::NoChoice);
    }
    let start = stored::fiscal_start(tx, tenant)?;
    let bounds = v.take(year_bounds(start, year))?;
    v.finish()?;
    let Some((_, last)) = bounds else {
        return Err(Error::internal("a checked year lacks its days"));
    };
    if let Some(through) = ledger::closed_through(tx, tenant)? {
        if through >= last {
            return Err(Error::refused(said::Asset::ChoicesClosed { through, year }));
        }
    }
    let current = rule_of(tx, tenant, year)?;
    let next = YearChoice {
        year,
        low_value: low_value.unwrap_or(current.low_value),
        pool: pool.unwrap_or(current.pool),
        chosen: true,
    };
    let changed: Vec<String> = stored::all(tx, tenant)?
        .into_iter()
        .filter(|a| year_of(start, a.acquired_on) == year)
        .filter(|a| {
            let one_year = a.method == afa::Method::OneYear;
            afa::method_of(a.class, a.cost, one_year, next.rule()) != a.method
        })
        .map(|a| format!("{} ({})", a.name, a.id))
        .collect();
    if !changed.is_empty() {
        return Err(Error::refused(said::Asset::ChoicesUsed {
            year,
            assets: changed,
        }));
    }
    tx.prepare_cached(
        "INSERT INTO depreciation_rules (company_id, environment, year, low_value, pool, set_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT (company_id, environment, year)
         DO UPDATE SET low_value = excluded.low_value, pool = excluded.pool, set_at = excluded.set_at",
    )?
    .execute(params![
        tenant.company_id,
        tenant.environment,
        year,
        next.low_value,
        next.pool,
        clock::now()
    ])?;
    audit::record(
        tx,
        tenant,
        actor,
        Act::DepreciationRuleSet,
        &year.to_string(),
    )?;
    Ok(next)
}
