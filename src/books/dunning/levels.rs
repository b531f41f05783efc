//! A company's ladder and base-rate table as stored: its own levels (the
//! default ladder until the owner changes one), a change of one level, and
//! the rows of the base-rate table the owner added to the shipped one.

use jiff::civil::Date;
use rusqlite::{params, Connection};
use serde::Serialize;

use crate::books::audit::{self, Act, Actor};
use crate::books::dunning::ladder::{self, Level};
use crate::error::said::{Dunning, Input};
use crate::error::{Error, Result, Violations};
use crate::rules::default_interest::{self, BaseRate};
use crate::rules::money::Decimal;
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::tenant::Tenant;

/// The company's ladder: its own levels, else the default one.
///
/// Fails only on a storage error.
pub fn levels(conn: &Connection, company_id: &str) -> Result<Vec<Level>> {
    let mut stmt = conn.prepare_cached(
        "SELECT level, days, fee, interest, pay_days, title_en, title_de, text_en, text_de
         FROM dunning_levels WHERE company_id = ?1 ORDER BY level",
    )?;
    let own = stmt
        .query_map([company_id], |r| {
            Ok(Level {
                level: r.get(0)?,
                days: r.get(1)?,
                fee: r.get(2)?,
                interest: r.get(3)?,
                pay_days: r.get(4)?,
                title: (r.get(5)?, r.get(6)?),
                text: (r.get(7)?, r.get(8)?),
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(if own.is_empty() {
        ladder::defaults()
    } else {
        own
    })
}

/// A change of one level as a person gives it: each field left out stays.
#[derive(Debug, Default, Clone)]
pub struct LevelInput {
    pub level: Option<String>,
    pub days: Option<String>,
    /// Minor units of the book currency.
    pub fee: Option<i64>,
    pub interest: Option<bool>,
    pub pay_days: Option<String>,
    pub title_en: Option<String>,
    pub title_de: Option<String>,
    pub text_en: Option<String>,
    pub text_de: Option<String>,
}

/// Changes one level of the company's ladder (a level one past the last
/// adds a level like the last); the whole ladder is checked and stored.
///
/// Fails with `Invalid` naming the field that is wrong.
pub fn change_level(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    input: &LevelInput,
) -> Result<Vec<Level>> {
    let mut all = levels(tx, &tenant.company_id)?;
    let mut v = Violations::new();
    let number = match input.level.as_deref().map(str::trim) {
        Some(n) => match n.parse::<usize>() {
            Ok(n) if (1..=all.len() + 1).contains(&n) => n,
            _ => {
                v.invalid(
                    "level",
                    Dunning::NotLevel {
                        max: all.len() + 1,
                        got: n.to_string(),
                    },
                );
                0
            }
        },
        None => {
            v.invalid("level", Input::Missing);
            0
        }
    };
    let int = |v: &mut Violations, field: &str, text: &Option<String>| -> Option<i64> {
        let t = text.as_deref()?.trim();
        match t.parse::<i64>() {
            Ok(n) => Some(n),
            Err(_) => {
                v.invalid(field, Dunning::NotWholeDays { got: t.to_string() });
                None
            }
        }
    };
    let days = int(&mut v, "days", &input.days);
    let pay_days = int(&mut v, "payDays", &input.pay_days);
    v.finish()?;
    if number == all.len() + 1 {
        let mut next = all
            .last()
            .cloned()
            .unwrap_or_else(|| ladder::defaults()[0].clone());
        next.level = number as u8;
        all.push(next);
    }
    let level = &mut all[number - 1];
    if let Some(d) = days {
        level.days = d;
    }
    if let Some(f) = input.fee {
        level.fee = f;
    }
    if let Some(i) = input.interest {
        level.interest = i;
    }
    if let Some(p) = pay_days {
        level.pay_days = p;
    }
    for (value, slot) in [
        (&input.title_en, &mut level.title.0),
        (&input.title_de, &mut level.title.1),
        (&input.text_en, &mut level.text.0),
        (&input.text_de, &mut level.text.1),
    ] {
        if let Some(t) = value {
            *slot = t.clone();
        }
    }
    ladder::check(&all).map_err(|e| match e {
        Error::Invalid(list) => Error::Invalid(
            list.into_iter()
                .map(|mut violation| {
                    // `levels[i].days` → `days`: the change names one level.
                    if let Some(f) = &violation.field {
                        if let Some((_, rest)) = f.split_once("].") {
                            violation.field = Some(rest.to_string());
                        }
                    }
                    violation
                })
                .collect(),
        ),
        other => other,
    })?;
    tx.execute(
        "DELETE FROM dunning_levels WHERE company_id = ?1",
        [&tenant.company_id],
    )?;
    let mut insert = tx.prepare_cached(
        "INSERT INTO dunning_levels (company_id, level, days, fee, interest, pay_days, title_en, title_de, text_en, text_de)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?;
    for l in &all {
        insert.execute(params![
            tenant.company_id,
            l.level,
            l.days,
            l.fee,
            l.interest,
            l.pay_days,
            l.title.0,
            l.title.1,
            l.text.0,
            l.text.1
        ])?;
    }
    audit::record(
        tx,
        tenant,
        actor,
        Act::DunningLevelsChanged,
        &tenant.company_id,
    )?;
    Ok(all)
}

/// The rows the owner added to the base-rate table.
///
/// Fails only on a storage error.
pub fn own_base_rates(conn: &Connection, company_id: &str) -> Result<Vec<BaseRate>> {
    let mut stmt = conn.prepare_cached(
        "SELECT from_day, percent FROM base_rates WHERE company_id = ?1 ORDER BY from_day",
    )?;
    let rows = stmt
        .query_map([company_id], |r| {
            Ok(BaseRate {
                from: r.get(0)?,
                percent: r.get(1)?,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
}

/// The company's base-rate table: the shipped rows with its own laid over.
///
/// Fails only on a storage error.
pub fn base_rate_table(conn: &Connection, company_id: &str) -> Result<Vec<BaseRate>> {
    Ok(default_interest::table_with(&own_base_rates(
        conn, company_id,
    )?))
}

/// One row of the base-rate table as shown.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct BaseRateRow {
    pub from: Date,
    pub percent: Decimal,
    /// Whether the owner added it (else it ships with kontor).
    pub own: bool,
}

/// The company's base-rate table as shown, newest first.
///
/// Fails only on a storage error.
pub fn base_rate_rows(conn: &Connection, company_id: &str) -> Result<Vec<BaseRateRow>> {
    let own = own_base_rates(conn, company_id)?;
    let mut rows: Vec<BaseRateRow> = default_interest::table_with(&own)
        .into_iter()
        .map(|r| BaseRateRow {
            own: own.iter().any(|o| o.from == r.from),
            from: r.from,
            percent: r.percent,
        })
        .collect();
    rows.reverse();
    Ok(rows)
}

/// A row of the base-rate table as a person gives it.
#[derive(Debug, Default, Clone)]
pub struct BaseRateInput {
    pub from: Option<String>,
    pub percent: Option<String>,
}

/// Adds a row to the company's base-rate table (replacing its own row of
/// the same day, and a shipped one in effect).
///
/// Fails with `Invalid` naming `from` (a date) or `percent` (a decimal
/// from -10 to 30).
pub fn add_base_rate(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    input: &BaseRateInput,
) -> Result<Vec<BaseRateRow>> {
    let mut v = Violations::new();
    let from = match input.from.as_deref() {
        Some(d) => v.take(clock::parse_date("from", d))?,
        None => {
            v.invalid("from", Input::Missing);
            None
        }
    };
    let percent = match input.percent.as_deref() {
        Some(p) => v.take(Decimal::parse("percent", p))?,
        None => {
            v.invalid("percent", Input::Missing);
            None
        }
    };
    if let Some(p) = percent {
        let low = Decimal::from_int(-10);
        let high = Decimal::from_int(30);
        let within = p.plus(low.negated()).is_some_and(|d| !d.is_negative())
            && high.plus(p.negated()).is_some_and(|d| !d.is_negative());
        if !within {
            v.invalid("percent", Dunning::RateRange);
        }
    }
    v.finish()?;
    let (Some(from), Some(percent)) = (from, percent) else {
        return Err(Error::internal("a checked base rate lacks a field"));
    };
    tx.execute(
        "INSERT INTO base_rates (company_id, from_day, percent, created_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (company_id, from_day) DO UPDATE SET percent = excluded.percent, created_at = excluded.created_at",
        params![tenant.company_id, from, percent, clock::now()],
    )?;
    audit::record(tx, tenant, actor, Act::BaseRateAdded, &tenant.company_id)?;
    base_rate_rows(tx, &tenant.company_id)
}
