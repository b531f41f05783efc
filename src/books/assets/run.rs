//! A fiscal year's depreciation: posted once per asset and year
//! (`depreciate`, one entry `dep_…` per asset on the year's last day, its
//! depreciation account against the asset's), and what each asset writes
//! off in a year (`of_year`: posted where the books hold it, due where
//! not), the figure the statements of a cash-basis company read.

use jiff::civil::Date;
use rusqlite::params;
use serde::Serialize;

use super::stored::{self, year_bounds, year_of, Posted, Stored};
use crate::books::audit::{self, Act, Actor};
use crate::books::company;
use crate::books::ledger::{self, Account, Posting};
use crate::error::said;
use crate::error::{Error, Result};
use crate::rules::fiscal_year::FiscalYearStart;
use crate::rules::money::Money;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::tenant::Tenant;

/// One asset's depreciation posted by a run.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PostedAsset {
    pub asset: String,
    pub name: String,
    pub amount: Money,
    pub account: String,
    /// The entry that posted it.
    pub entry: String,
}

/// What a run posted.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Depreciated {
    pub year: i32,
    pub from: Date,
    pub to: Date,
    /// The assets it posted for, in the register's order.
    pub posted: Vec<PostedAsset>,
    pub total: Money,
    /// How many assets had their depreciation of the year posted already
    /// (by an earlier run or their disposal): left as they were.
    pub already: usize,
}

/// What an asset writes off in the fiscal year that starts on `first`
/// and ends on `last`, given what the books hold of earlier years: what is
/// due through the year's end less that, never past the cost; nothing
/// once it has left (its disposal posts its own part of that year).
pub(crate) fn due(
    asset: &Stored,
    start: FiscalYearStart,
    posted: &Posted,
    first: Date,
    last: Date,
) -> i64 {
    if asset.acquired_on > last {
        return 0;
    }
    if !asset.pooled() && asset.disposed_on.is_some_and(|d| d <= last) {
        return 0;
    }
    let (before, _) = stored::posted_before(posted, &asset.id, i32::from(first.year()));
    let left = (asset.cost - before).max(0);
    (asset.plan().accumulated(start, last) - before)
        .max(0)
        .min(left)
}

/// Posts the depreciation of the fiscal year that starts in `year` for
/// every asset that has none posted for it yet: one entry per asset, on the
/// year's last day. Recorded as `books.depreciated` by `actor`. Running it
/// again posts only for assets recorded since.
///
/// Fails with `Invalid` naming `year` outside 1900–9998; `Refused` for a
/// year not yet begun, books closed through the year's last day, books kept
/// in another currency than the euro, or an asset with an earlier year's
/// depreciation not yet posted.
pub fn depreciate(tx: &Tx, tenant: &Tenant, actor: &Actor, year: i32) -> Result<Depreciated> {
    let start = stored::fiscal_start(tx, tenant)?;
    let (first, last) = year_bounds(start, year)?;
    let currency = stored::euro_books(tx, tenant)?;
    let today = company::get(tx, &tenant.company_id)?.today();
    if first > today {
        return Err(Error::refused(said::Asset::YearNotBegun { year, first }));
    }
    if let Some(through) = ledger::closed_through(tx, tenant)? {
        if through >= last {
            return Err(Error::refused(said::Asset::DepreciationClosed {
                through,
                year,
                last,
            }));
        }
    }
    let posted = stored::posted(tx, tenant)?;
    let assets = stored::all(tx, tenant)?;
    let mut to_post = Vec::new();
    let mut already = 0;
    for a in &assets {
        if a.acquired_on > last {
            continue;
        }
        if posted.contains_key(&(a.id.clone(), year)) {
            already += 1;
            continue;
        }
        let amount = due(a, start, &posted, first, last);
        if amount == 0 {
            continue;
        }
        stored::earlier_years_posted(a, start, &posted, year)?;
        to_post.push((a, amount));
    }
    let mut out = Vec::with_capacity(to_post.len());
    let mut total = 0;
    for (a, amount) in to_post {
        let entry = ids::new_id("dep");
        ledger::post(
            tx,
            tenant,
            &entry,
            last,
            &[
                Posting::debit(Account::Depreciation, amount)
                    .of(&a.id)
                    .on(&a.depreciation_account),
                Posting::credit(Account::FixedAssets, amount)
                    .of(&a.id)
                    .on(&a.account),
            ],
        )?;
        keep(tx, tenant, &entry, &a.id, year, amount, last)?;
        total += amount;
        out.push(PostedAsset {
            asset: a.id.clone(),
            name: a.name.clone(),
            amount: Money::new(amount, &currency),
            account: a.depreciation_account.clone(),
            entry,
        });
    }
    audit::record(tx, tenant, actor, Act::AssetsDepreciated, &year.to_string())?;
    Ok(Depreciated {
        year,
        from: first,
        to: last,
        posted: out,
        total: Money::new(total, &currency),
        already,
    })
}

/// Keeps a depreciation posted: its entry, asset, year and amount.
///
/// Fails only on a storage error.
pub(crate) fn keep(
    tx: &Tx,
    tenant: &Tenant,
    entry: &str,
    asset: &str,
    year: i32,
    amount: i64,
    day: Date,
) -> Result<()> {
    tx.prepare_cached(
        "INSERT INTO asset_depreciations (entry, asset_id, company_id, environment, year, amount, posted_on)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        entry,
        asset,
        tenant.company_id,
        tenant.environment,
        year,
        amount,
        day
    ])?;
    Ok(())
}

/// What an asset writes off in a fiscal year.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct YearFigure {
    pub asset: String,
    pub name: String,
    pub class: &'static str,
    /// `straight_line`, `one_year`, `low_value` or `pool`.
    pub method: &'static str,
    pub intangible: bool,
    /// The chart account the depreciation goes to.
    pub account: String,
    /// Minor units: what the books hold for the year where they hold
    /// something, else what is due.
    pub amount: i64,
    /// Whether the books hold it (else it is due, not yet posted).
    pub posted: bool,
}

/// What each asset of the tenant writes off in the fiscal year that starts
/// in `year` (a disposal's part included), those with nothing left out.
///
/// Fails with `Invalid` naming `year` outside 1900–9998.
pub fn of_year(conn: &rusqlite::Connection, tenant: &Tenant, year: i32) -> Result<Vec<YearFigure>> {
    let start = stored::fiscal_start(conn, tenant)?;
    let (first, last) = year_bounds(start, year)?;
    let posted = stored::posted(conn, tenant)?;
    let mut out = Vec::new();
    for a in stored::all(conn, tenant)? {
        let held = posted.get(&(a.id.clone(), year)).copied();
        let amount = held.unwrap_or_else(|| due(&a, start, &posted, first, last));
        if amount == 0 || year_of(start, a.acquired_on) > year {
            continue;
        }
        out.push(YearFigure {
            asset: a.id.clone(),
            name: a.name.clone(),
            class: a.class.key,
            method: a.method.as_str(),
            intangible: a.class.intangible,
            account: a.depreciation_account.clone(),
            amount,
            posted: held.is_some(),
        });
    }
    Ok(out)
}

/// One fiscal year of an asset's depreciation plan.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlannedYear {
    /// The calendar year the fiscal year starts in.
    pub year: i32,
    /// Minor units.
    pub amount: i64,
    /// Whether the books hold it (else it is still to come).
    pub posted: bool,
}

/// The tenant's asset `id` year by year: what the books hold for each year
/// they hold something, and what the years still to come write off, from
/// the year of acquisition until nothing is left (or the year it left).
///
/// Fails with `NotFound` when the tenant has no such asset.
pub fn schedule(
    conn: &rusqlite::Connection,
    tenant: &Tenant,
    id: &str,
) -> Result<Vec<PlannedYear>> {
    let a = stored::stored(conn, tenant, id)?;
    let start = stored::fiscal_start(conn, tenant)?;
    let posted = stored::posted(conn, tenant)?;
    let plan = a.plan();
    let first = year_of(start, a.acquired_on);
    let last = a
        .disposed_on
        .filter(|_| !a.pooled())
        .map(|d| year_of(start, d));
    let mut out = Vec::new();
    let mut running = 0;
    for y in first..first.saturating_add(101) {
        let (_, end) = year_bounds(start, y)?;
        let (amount, held) = match posted.get(&(a.id.clone(), y)) {
            Some(v) => (*v, true),
            None if last.is_some() => (0, false),
            None => {
                let left = (a.cost - running).max(0);
                (
                    (plan.accumulated(start, end) - running).max(0).min(left),
                    false,
                )
            }
        };
        running += amount;
        if amount != 0 {
            out.push(PlannedYear {
                year: y,
                amount,
                posted: held,
            });
        }
        if last.is_some_and(|l| y >= l) || (running >= a.cost && last.is_none()) {
            break;
        }
    }
    Ok(out)
}
