//! The register of a fiscal year (*Anlagenspiegel*, the columns of § 284
//! (3) HGB; for a cash-basis company the figures of the Anlage AVEÜR): per
//! asset and per class, the cost at the year's start, additions and
//! disposals at cost, the cost at its end; the depreciation accumulated at
//! the start, that of the year, that on the disposals and at the end; the
//! book values at start and end. Depreciation is what the books hold for
//! each year, and for the year shown what is due where nothing is posted
//! yet (flagged): the register a person reads before the year's run is the
//! one after it.

use jiff::civil::Date;
use rusqlite::Connection;
use serde::Serialize;

use super::run::due;
use super::stored::{self, year_bounds, Stored};
use crate::books::company;
use crate::books::ledger;
use crate::error::Result;
use crate::rules::iso::Currency;
use crate::store::tenant::Tenant;

/// The register's columns, minor units of the book currency.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Figures {
    /// Cost (*Anschaffungskosten*) of what stood in the books at the year's
    /// first day.
    pub cost_start: i64,
    pub additions: i64,
    /// The cost of what left in the year.
    pub disposals: i64,
    pub cost_end: i64,
    pub accumulated_start: i64,
    /// The year's depreciation.
    pub depreciation: i64,
    /// The accumulated depreciation of what left in the year.
    pub accumulated_disposals: i64,
    pub accumulated_end: i64,
    pub book_value_start: i64,
    pub book_value_end: i64,
    /// The remaining value taken out of the books by the year's disposals.
    pub disposal_value: i64,
    /// What the year's sales brought, net.
    pub proceeds: i64,
}

impl Figures {
    fn add(&mut self, o: &Figures) {
        self.cost_start += o.cost_start;
        self.additions += o.additions;
        self.disposals += o.disposals;
        self.cost_end += o.cost_end;
        self.accumulated_start += o.accumulated_start;
        self.depreciation += o.depreciation;
        self.accumulated_disposals += o.accumulated_disposals;
        self.accumulated_end += o.accumulated_end;
        self.book_value_start += o.book_value_start;
        self.book_value_end += o.book_value_end;
        self.disposal_value += o.disposal_value;
        self.proceeds += o.proceeds;
    }
}

/// One asset's line of the register.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RegisterRow {
    pub asset: String,
    pub name: String,
    pub class: &'static str,
    /// `straight_line`, `one_year`, `low_value` or `pool`.
    pub method: &'static str,
    pub life_months: u32,
    /// The chart account it stands on.
    pub account: String,
    pub acquired_on: Date,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disposed_on: Option<Date>,
    /// The acquisition cost.
    pub cost: i64,
    #[serde(flatten)]
    pub figures: Figures,
    /// Whether the books hold the year's depreciation (else it is due).
    pub posted: bool,
}

/// A class's totals.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RegisterClass {
    pub class: &'static str,
    pub name: &'static str,
    pub name_en: &'static str,
    /// Its place in the depreciation table (`6.15`); '' for none.
    pub reference: &'static str,
    pub assets: usize,
    #[serde(flatten)]
    pub figures: Figures,
}

/// The register of a fiscal year.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Register {
    pub year: i32,
    pub from: Date,
    pub to: Date,
    pub currency: Currency,
    /// True only when the books are closed through the year's last day.
    #[serde(rename = "final")]
    pub is_final: bool,
    /// Every asset the year saw, by acquisition day.
    pub assets: Vec<RegisterRow>,
    /// Per class, in the table's order.
    pub classes: Vec<RegisterClass>,
    pub total: Figures,
}

/// An asset's figures in the year `first..=last`, none when the year did
/// not see it.
fn figures_of(
    a: &Stored,
    start: crate::rules::fiscal_year::FiscalYearStart,
    posted: &stored::Posted,
    year: i32,
    first: Date,
    last: Date,
) -> Option<(Figures, bool)> {
    if a.acquired_on > last {
        return None;
    }
    let (accumulated_start, held) = stored::posted_before(posted, &a.id, year);
    let gone_before = a.disposed_on.is_some_and(|d| d < first);
    if gone_before && (!a.pooled() || accumulated_start >= a.cost) {
        return None;
    }
    let depreciation = if held {
        posted.get(&(a.id.clone(), year)).copied().unwrap_or(0)
    } else {
        due(a, start, posted, first, last)
    };
    let cost_start = if a.acquired_on < first { a.cost } else { 0 };
    let additions = a.cost - cost_start;
    let leaves = !a.pooled() && a.disposed_on.is_some_and(|d| d >= first && d <= last);
    let disposals = if leaves { a.cost } else { 0 };
    let accumulated_disposals = if leaves {
        accumulated_start + depreciation
    } else {
        0
    };
    let cost_end = cost_start + additions - disposals;
    let accumulated_end = accumulated_start + depreciation - accumulated_disposals;
    let sold = a.disposed_on.is_some_and(|d| d >= first && d <= last);
    Some((
        Figures {
            cost_start,
            additions,
            disposals,
            cost_end,
            accumulated_start,
            depreciation,
            accumulated_disposals,
            accumulated_end,
            book_value_start: cost_start - accumulated_start,
            book_value_end: cost_end - accumulated_end,
            disposal_value: disposals - accumulated_disposals,
            proceeds: if sold { a.proceeds.unwrap_or(0) } else { 0 },
        },
        held,
    ))
}

/// The register of the fiscal year that starts in `year`.
///
/// Fails with `Invalid` naming `year` outside 1900–9998.
pub fn register(conn: &Connection, tenant: &Tenant, year: i32) -> Result<Register> {
    let start = stored::fiscal_start(conn, tenant)?;
    let (first, last) = year_bounds(start, year)?;
    let currency = company::get(conn, &tenant.company_id)?.currency;
    let posted = stored::posted(conn, tenant)?;
    let mut rows = Vec::new();
    for a in stored::all(conn, tenant)? {
        let Some((figures, held)) = figures_of(&a, start, &posted, year, first, last) else {
            continue;
        };
        rows.push(RegisterRow {
            asset: a.id.clone(),
            name: a.name.clone(),
            class: a.class.key,
            method: a.method.as_str(),
            life_months: a.life_months,
            account: a.account.clone(),
            acquired_on: a.acquired_on,
            disposed_on: a.disposed_on,
            cost: a.cost,
            figures,
            posted: held || figures.depreciation == 0,
        });
    }
    let mut classes: Vec<RegisterClass> = Vec::new();
    let mut total = Figures::default();
    for class in crate::rules::afa::CLASSES {
        let of_class: Vec<&RegisterRow> = rows.iter().filter(|r| r.class == class.key).collect();
        if of_class.is_empty() {
            continue;
        }
        let mut figures = Figures::default();
        for r in &of_class {
            figures.add(&r.figures);
        }
        total.add(&figures);
        classes.push(RegisterClass {
            class: class.key,
            name: class.name_de,
            name_en: class.name_en,
            reference: class.reference,
            assets: of_class.len(),
            figures,
        });
    }
    Ok(Register {
        year,
        from: first,
        to: last,
        currency,
        is_final: ledger::is_final(conn, tenant, last)?,
        assets: rows,
        classes,
        total,
    })
}
