//! An asset of the register as stored and in its wire form (`Asset`), the
//! tenant's assets (`list`, `get`), the depreciation posted per asset and
//! fiscal year, the bounds of a fiscal year named by the calendar year it
//! starts in, and the checks the acts share: the books in euro, and every
//! earlier year's depreciation posted before a later one.

use std::collections::BTreeMap;

use jiff::civil::Date;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::books::company;
use crate::books::export::settings;
use crate::error::said::{self, Input, Record};
use crate::error::{Error, Result, Said};
use crate::rules::afa::{self, Class, Method, Plan};
use crate::rules::fiscal_year::FiscalYearStart;
use crate::rules::iso::Currency;
use crate::rules::money::Money;
use crate::store::row::Row;
use crate::store::tenant::Tenant;

/// An asset as stored.
#[derive(Debug, Clone)]
pub(crate) struct Stored {
    pub id: String,
    pub name: String,
    pub class: &'static Class,
    pub acquired_on: Date,
    pub cost: i64,
    pub method: Method,
    pub life_months: u32,
    pub account: String,
    pub depreciation_account: String,
    pub purchase_id: Option<String>,
    /// The bill line's position, from 1.
    pub purchase_line: Option<u32>,
    pub posted_on: Date,
    pub recorded_at: String,
    pub disposed_on: Option<Date>,
    pub proceeds: Option<i64>,
    pub invoice_id: Option<String>,
}

impl Stored {
    /// What its depreciation is worked out from.
    pub fn plan(&self) -> Plan {
        Plan {
            cost: self.cost,
            acquired: self.acquired_on,
            method: self.method,
            life_months: self.life_months,
            disposed: self.disposed_on,
        }
    }

    /// Whether it is written off with the pool (which a disposal does not
    /// reduce).
    pub fn pooled(&self) -> bool {
        self.method == Method::Pool
    }
}

const COLUMNS: &str =
    "id, name, class, acquired_on, cost, method, life_months, account, depreciation_account,
     purchase_id, purchase_line, posted_on, recorded_at, disposed_on, proceeds, invoice_id";

fn read(row: &rusqlite::Row) -> rusqlite::Result<Stored> {
    let r = Row::new(row, "assets");
    let id: String = r.get(0)?;
    let class: String = r.get(2)?;
    let method: String = r.get(5)?;
    let unreadable = |column: &str, value: &str| {
        rusqlite::Error::FromSqlConversionFailure(
            0,
            rusqlite::types::Type::Text,
            Box::new(crate::store::row::Unreadable {
                table: "assets",
                id: id.clone(),
                column: column.to_string(),
                detail: format!("{value:?} is none of kontor's"),
            }),
        )
    };
    let class = afa::class_of(&class).ok_or_else(|| unreadable("class", &class))?;
    let method = Method::parse(&method).ok_or_else(|| unreadable("method", &method))?;
    Ok(Stored {
        name: r.get(1)?,
        class,
        acquired_on: r.get(3)?,
        cost: r.get(4)?,
        method,
        life_months: r.get(6)?,
        account: r.get(7)?,
        depreciation_account: r.get(8)?,
        purchase_id: r.get(9)?,
        purchase_line: r.get(10)?,
        posted_on: r.get(11)?,
        recorded_at: r.get(12)?,
        disposed_on: r.get(13)?,
        proceeds: r.get(14)?,
        invoice_id: r.get(15)?,
        id,
    })
}

/// The tenant's asset `id` as stored.
///
/// Fails with `NotFound` when the tenant has none with this id.
pub(crate) fn stored(conn: &Connection, tenant: &Tenant, id: &str) -> Result<Stored> {
    conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM assets WHERE id = ?1 AND company_id = ?2 AND environment = ?3"
    ))?
    .query_row(params![id, tenant.company_id, tenant.environment], read)
    .optional()?
    .ok_or_else(|| Error::not_found(Said::Record(Record::Asset, id.to_string())))
}

/// Every asset of the tenant, by acquisition day and the order recorded.
///
/// Fails only on a storage error.
pub(crate) fn all(conn: &Connection, tenant: &Tenant) -> Result<Vec<Stored>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM assets WHERE company_id = ?1 AND environment = ?2 ORDER BY acquired_on, seq"
    ))?;
    let rows = stmt.query_map(params![tenant.company_id, tenant.environment], read)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The depreciation posted per asset and fiscal year (the calendar year it
/// starts in), minor units.
pub(crate) type Posted = BTreeMap<(String, i32), i64>;

/// The depreciation the tenant's books hold per asset and fiscal year.
///
/// Fails only on a storage error.
pub(crate) fn posted(conn: &Connection, tenant: &Tenant) -> Result<Posted> {
    let mut stmt = conn.prepare_cached(
        "SELECT asset_id, year, sum(amount) FROM asset_depreciations
         WHERE company_id = ?1 AND environment = ?2 GROUP BY asset_id, year",
    )?;
    let rows = stmt.query_map(params![tenant.company_id, tenant.environment], |r| {
        Ok((
            (r.get::<_, String>(0)?, r.get::<_, i32>(1)?),
            r.get::<_, i64>(2)?,
        ))
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// What the books hold of `asset`'s depreciation in the years before
/// `year`, and whether they hold a posting of `year` itself.
pub(crate) fn posted_before(posted: &Posted, asset: &str, year: i32) -> (i64, bool) {
    let before = posted
        .range((asset.to_string(), i32::MIN)..(asset.to_string(), year))
        .map(|(_, a)| a)
        .sum();
    (before, posted.contains_key(&(asset.to_string(), year)))
}

/// What the books hold of `asset`'s depreciation, every year.
pub(crate) fn posted_total(posted: &Posted, asset: &str) -> i64 {
    posted_before(posted, asset, i32::MAX).0
}

/// The company's fiscal year start.
///
/// Fails with `NotFound` for an unknown company.
pub(crate) fn fiscal_start(conn: &Connection, tenant: &Tenant) -> Result<FiscalYearStart> {
    Ok(settings::get(conn, &tenant.company_id)?.fiscal_year_start)
}

/// The first and last day of the fiscal year that starts in `year`.
///
/// Fails with `Invalid` naming `year` outside 1900–9998.
pub(crate) fn year_bounds(start: FiscalYearStart, year: i32) -> Result<(Date, Date)> {
    let got = year.to_string();
    start
        .bounds_in(year)
        .ok_or_else(|| Error::invalid("year", Input::YearRange { got }))
}

/// The fiscal year (the calendar year it starts in) `day` lies in.
pub(crate) fn year_of(start: FiscalYearStart, day: Date) -> i32 {
    i32::from(start.year_of(day).year())
}

/// The book currency, which must be the euro: the rules of §§ 6, 7 EStG
/// count in euro.
///
/// Fails with `Refused` for books kept in another currency.
pub(crate) fn euro_books(conn: &Connection, tenant: &Tenant) -> Result<Currency> {
    let currency = company::get(conn, &tenant.company_id)?.currency;
    if currency.as_str() != "EUR" {
        return Err(Error::refused(said::Asset::NotEuro {
            currency: currency.as_str().to_string(),
        }));
    }
    Ok(currency)
}

/// Refuses an act on `asset` in the fiscal year `year` while an earlier year
/// in which it wrote something off has no depreciation posted for it.
///
/// Fails with `Refused` naming the first such year.
pub(crate) fn earlier_years_posted(
    asset: &Stored,
    start: FiscalYearStart,
    posted: &Posted,
    year: i32,
) -> Result<()> {
    let plan = asset.plan();
    for y in year_of(start, asset.acquired_on)..year {
        let (first, _) = year_bounds(start, y)?;
        if plan.in_year(start, first) != 0 && !posted.contains_key(&(asset.id.clone(), y)) {
            return Err(Error::refused(said::Asset::EarlierYear {
                year: y,
                asset: format!("{} ({})", asset.name, asset.id),
            }));
        }
    }
    Ok(())
}

/// An asset in its wire form: amounts in minor units of the book currency.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Asset {
    pub id: String,
    pub name: String,
    /// The class's key (`office_furniture`).
    pub class: &'static str,
    pub class_name: &'static str,
    pub class_name_en: &'static str,
    /// Its place in the depreciation table (`6.15`); '' for none.
    pub reference: &'static str,
    pub acquired_on: Date,
    pub cost: Money,
    /// `straight_line`, `one_year`, `low_value` or `pool`.
    pub method: &'static str,
    pub life_months: u32,
    /// The chart account it stands on, and its number on the company's chart.
    pub account: String,
    pub depreciation_account: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub purchase_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub purchase_line: Option<u32>,
    /// The day its recording was posted.
    pub posted_on: Date,
    pub recorded_at: String,
    /// The depreciation the books hold for it.
    pub depreciated: Money,
    /// The cost less that depreciation; nothing once it has left (the pool
    /// keeps what it has not yet written off).
    pub book_value: Money,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disposed_on: Option<Date>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proceeds: Option<Money>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invoice_id: Option<String>,
}

impl Asset {
    pub(crate) fn of(s: &Stored, posted: &Posted, currency: &Currency) -> Asset {
        let depreciated = posted_total(posted, &s.id);
        let book_value = if s.disposed_on.is_some() && !s.pooled() {
            0
        } else {
            s.cost - depreciated
        };
        Asset {
            id: s.id.clone(),
            name: s.name.clone(),
            class: s.class.key,
            class_name: s.class.name_de,
            class_name_en: s.class.name_en,
            reference: s.class.reference,
            acquired_on: s.acquired_on,
            cost: Money::new(s.cost, currency),
            method: s.method.as_str(),
            life_months: s.life_months,
            account: s.account.clone(),
            depreciation_account: s.depreciation_account.clone(),
            purchase_id: s.purchase_id.clone(),
            purchase_line: s.purchase_line,
            posted_on: s.posted_on,
            recorded_at: s.recorded_at.clone(),
            depreciated: Money::new(depreciated, currency),
            book_value: Money::new(book_value, currency),
            disposed_on: s.disposed_on,
            proceeds: s.proceeds.map(|p| Money::new(p, currency)),
            invoice_id: s.invoice_id.clone(),
        }
    }
}

/// The tenant's asset `id` in its wire form.
///
/// Fails with `NotFound` when the tenant has none with this id.
pub fn get(conn: &Connection, tenant: &Tenant, id: &str) -> Result<Asset> {
    let s = stored(conn, tenant, id)?;
    let currency = company::get(conn, &tenant.company_id)?.currency;
    Ok(Asset::of(&s, &posted(conn, tenant)?, &currency))
}

/// Every asset of the tenant in its wire form, by acquisition day.
///
/// Fails only on a storage error.
pub fn list(conn: &Connection, tenant: &Tenant) -> Result<Vec<Asset>> {
    let currency = company::get(conn, &tenant.company_id)?.currency;
    let posted = posted(conn, tenant)?;
    Ok(all(conn, tenant)?
        .iter()
        .map(|s| Asset::of(s, &posted, &currency))
        .collect())
}

/// The fiscal year (the calendar year it starts in) today lies in, in the
/// company's time zone.
///
/// Fails with `NotFound` for an unknown company.
pub fn this_year(conn: &Connection, tenant: &Tenant) -> Result<i32> {
    let today = company::get(conn, &tenant.company_id)?.today();
    Ok(year_of(fiscal_start(conn, tenant)?, today))
}
