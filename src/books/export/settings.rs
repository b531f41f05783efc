//! What a company tells the DATEV export and the VAT figures about itself:
//! the chart of accounts its tax adviser books in (SKR03 or SKR04), the
//! adviser's number (*Beraternummer*) and the client's number
//! (*Mandantennummer*) in DATEV, and the first day of its fiscal year
//! (`MM-DD`, 1 January unless set). The chart cannot change once the books
//! were exported to DATEV: the adviser's books are in one chart.

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::books::audit::{self, Act, Actor};
use crate::books::chart_accounts;
use crate::books::export::numbers;
use crate::error::said::{Export, Input, Record};
use crate::error::{Error, Result, Said, Violations};
use crate::rules::skr::Chart;
use crate::rules::text::Patch;
use crate::store::db::Tx;
use crate::store::tenant::Tenant;

pub use crate::rules::fiscal_year::FiscalYearStart;

/// The smallest and largest DATEV adviser number (*Beraternummer*).
pub const ADVISER: std::ops::RangeInclusive<u32> = 1001..=9_999_999;
/// The smallest and largest DATEV client number (*Mandantennummer*).
pub const CLIENT: std::ops::RangeInclusive<u32> = 1..=99_999;

/// A company's settings for its tax adviser.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    #[serde(serialize_with = "chart_name")]
    pub chart: Chart,
    /// The DATEV adviser number, until set none.
    pub datev_adviser: Option<u32>,
    /// The DATEV client number, until set none.
    pub datev_client: Option<u32>,
    /// The first day of the fiscal year, `MM-DD`.
    pub fiscal_year_start: FiscalYearStart,
}

fn chart_name<S: serde::Serializer>(chart: &Chart, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(chart.as_str())
}

/// The settings as a person gives them; what is absent stays.
#[derive(Debug, Default, Clone)]
pub struct SettingsInput {
    /// `skr03` or `skr04`.
    pub chart: Option<String>,
    pub datev_adviser: Patch<String>,
    pub datev_client: Patch<String>,
    /// `MM-DD`.
    pub fiscal_year_start: Option<String>,
}

/// A checked change of the settings.
#[derive(Debug, Clone, Default)]
pub struct SettingsChange {
    chart: Option<Chart>,
    adviser: Patch<u32>,
    client: Patch<u32>,
    fiscal_year_start: Option<FiscalYearStart>,
}

fn number_in(
    v: &mut Violations,
    field: &str,
    given: Patch<String>,
    range: std::ops::RangeInclusive<u32>,
) -> Patch<u32> {
    match given {
        Patch::Absent => Patch::Absent,
        Patch::Null => Patch::Null,
        Patch::Value(text) => match text.trim().parse::<u32>() {
            Ok(n) if range.contains(&n) => Patch::Value(n),
            _ => {
                v.invalid(
                    field,
                    Input::NumberRange {
                        from: *range.start(),
                        to: *range.end(),
                        got: text.to_string(),
                    },
                );
                Patch::Absent
            }
        },
    }
}

impl SettingsChange {
    /// Checks the settings given: the chart `skr03` or `skr04`, the adviser
    /// number 1001–9999999, the client number 1–99999, the fiscal year's
    /// first day `MM-DD`.
    ///
    /// Fails with `Invalid` naming each unreadable field.
    pub fn check(input: SettingsInput) -> Result<SettingsChange> {
        let mut v = Violations::new();
        let chart = match input.chart.as_deref() {
            Some(c) => v.take(Chart::parse("chart", c))?,
            None => None,
        };
        let adviser = number_in(&mut v, "datevAdviser", input.datev_adviser, ADVISER);
        let client = number_in(&mut v, "datevClient", input.datev_client, CLIENT);
        let fiscal_year_start = match input.fiscal_year_start.as_deref() {
            Some(t) => v.take(FiscalYearStart::parse("fiscalYearStart", t))?,
            None => None,
        };
        v.finish()?;
        Ok(SettingsChange {
            chart,
            adviser,
            client,
            fiscal_year_start,
        })
    }

    /// Whether the change names nothing.
    pub fn is_empty(&self) -> bool {
        self.chart.is_none()
            && matches!(self.adviser, Patch::Absent)
            && matches!(self.client, Patch::Absent)
            && self.fiscal_year_start.is_none()
    }
}

/// The settings of a company.
///
/// Fails with `NotFound` for an unknown company.
pub fn get(conn: &Connection, company_id: &str) -> Result<Settings> {
    let row: Option<(String, Option<u32>, Option<u32>, String)> = conn
        .prepare_cached(
            "SELECT chart, datev_adviser, datev_client, fiscal_year_start FROM companies WHERE id = ?1",
        )?
        .query_row([company_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .optional()?;
    let Some((chart, adviser, client, start)) = row else {
        return Err(Error::not_found(Said::Record(
            Record::Company,
            company_id.to_string(),
        )));
    };
    let unreadable =
        |what: &str| Error::internal(format!("companies {company_id}: {what} cannot be read"));
    Ok(Settings {
        chart: Chart::parse("chart", &chart).map_err(|_| unreadable("chart"))?,
        datev_adviser: adviser,
        datev_client: client,
        fiscal_year_start: FiscalYearStart::parse("fiscalYearStart", &start)
            .map_err(|_| unreadable("fiscal_year_start"))?,
    })
}

/// Changes the tenant's company's settings for its tax adviser: what the
/// change names is set (or cleared), the rest stays. Recorded as
/// `company.datev_changed` by `actor`.
///
/// Fails with `Refused` naming `chart` when another chart is asked for
/// after the books were exported to DATEV, and `NotFound` for an unknown
/// company.
pub fn set(tx: &Tx, tenant: &Tenant, actor: &Actor, change: SettingsChange) -> Result<Settings> {
    let id = tenant.company_id.as_str();
    let current = get(tx, id)?;
    let mut next = current.clone();
    if let Some(chart) = change.chart {
        if chart != current.chart {
            let own = chart_accounts::own_count(tx, id, current.chart)?;
            if own > 0 {
                return Err(Error::refused_at(
                    "chart",
                    Export::ChartKeepsOwn {
                        chart: current.chart.as_str().to_string(),
                        own,
                    },
                ));
            }
            if let Some(first) = numbers::first_export(tx, tenant)? {
                return Err(Error::refused_at(
                    "chart",
                    Export::ChartExported {
                        chart: current.chart.as_str().to_string(),
                        on: first
                            .get(..10)
                            .and_then(|d| d.parse().ok())
                            .unwrap_or_default(),
                    },
                ));
            }
            // Bank numbers are of the chart; they are given again.
            numbers::forget_banks(tx, tenant)?;
        }
        next.chart = chart;
    }
    let apply = |now: Option<u32>, patch: Patch<u32>| match patch {
        Patch::Absent => now,
        Patch::Null => None,
        Patch::Value(n) => Some(n),
    };
    next.datev_adviser = apply(current.datev_adviser, change.adviser);
    next.datev_client = apply(current.datev_client, change.client);
    if let Some(start) = change.fiscal_year_start {
        next.fiscal_year_start = start;
    }
    tx.prepare_cached(
        "UPDATE companies SET chart = ?2, datev_adviser = ?3, datev_client = ?4, fiscal_year_start = ?5
         WHERE id = ?1",
    )?
    .execute(params![
        id,
        next.chart.as_str(),
        next.datev_adviser,
        next.datev_client,
        next.fiscal_year_start.to_string()
    ])?;
    audit::record(tx, tenant, actor, Act::CompanyDatevChanged, id)?;
    Ok(next)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_outside_their_range_are_named() {
        let e = SettingsChange::check(SettingsInput {
            datev_adviser: Patch::Value("999".into()),
            datev_client: Patch::Value("100000".into()),
            chart: Some("skr05".into()),
            ..Default::default()
        })
        .unwrap_err();
        let text = format!("{e:?}");
        for field in ["datevAdviser", "datevClient", "chart"] {
            assert!(text.contains(field), "{field} in {text}");
        }
    }
}
