//! The company's chart of accounts: the standard accounts of its chart
//! (SKR03 or SKR04, `rules::chart`) and the accounts of its own, added
//! within the chart's ranges for their kind (number, German and English
//! name, kind, HGB line) and removed while nothing is posted to them. A
//! standard account's meaning never changes. Here too: which account a
//! person names for a bill's cost (a standard cost account's key or number,
//! or an own expense account's number), and what a journal line's chosen
//! account is (`resolve`).

use jiff::civil::Date;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::books::audit::{self, Act, Actor};
use crate::error::said::{self, Input, Record};
use crate::error::{Error, Result, Said, Violations};
use crate::rules::chart::{self, Chart, Kind, Line, Statement};
use crate::rules::text;
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::tenant::Tenant;

/// The longest name of an own account (characters).
pub const MAX_NAME: usize = 200;

/// An account of the company's chart as the books use it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChartAccount {
    /// What a journal line and a bill's line name: a standard account's key
    /// (`rent`), an own account's number (`4711`).
    pub key: String,
    pub number: u32,
    pub name_de: String,
    pub name_en: String,
    #[serde(serialize_with = "kind_name")]
    pub kind: Kind,
    /// The HGB line's key (`pl:8`, `assets:B.IV`).
    #[serde(serialize_with = "line_key")]
    pub line: Line,
    /// A standard account of the chart (else the company's own).
    pub standard: bool,
    /// Whether a bill's cost may go to it.
    pub for_costs: bool,
}

fn kind_name<S: serde::Serializer>(kind: &Kind, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(kind.as_str())
}

fn line_key<S: serde::Serializer>(line: &Line, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(&line.key())
}

impl ChartAccount {
    fn of_standard(a: &chart::Account, chart: Chart) -> ChartAccount {
        ChartAccount {
            key: a.key.to_string(),
            number: a.number(chart),
            name_de: a.name_de.to_string(),
            name_en: a.name_en.to_string(),
            kind: a.kind,
            line: a.line,
            standard: true,
            for_costs: a.for_costs,
        }
    }

    /// The account's name in a person's language.
    pub fn name(&self, english: bool) -> &str {
        if english {
            &self.name_en
        } else {
            &self.name_de
        }
    }
}

/// The company's own accounts of `chart`.
fn own(conn: &Connection, company_id: &str, chart: Chart) -> Result<Vec<ChartAccount>> {
    let mut stmt = conn.prepare_cached(
        "SELECT number, name_de, name_en, kind, line FROM chart_accounts
         WHERE company_id = ?1 AND chart = ?2 ORDER BY number",
    )?;
    let rows = stmt.query_map(params![company_id, chart.as_str()], |r| {
        Ok((
            r.get::<_, u32>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, String>(3)?,
            r.get::<_, String>(4)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (number, name_de, name_en, kind, line) = row?;
        let (Some(kind), Some(line)) = (Kind::parse(&kind), Line::parse(&line)) else {
            return Err(Error::internal(format!(
                "the own account {number} has an unknown kind or line"
            )));
        };
        out.push(ChartAccount {
            key: number.to_string(),
            number,
            name_de,
            name_en,
            kind,
            line,
            standard: false,
            for_costs: kind == Kind::Expense,
        });
    }
    Ok(out)
}

/// The chart the company keeps its books in.
///
/// Fails with `NotFound` for an unknown company.
pub fn chart_of(conn: &Connection, company_id: &str) -> Result<Chart> {
    let stored: Option<String> = conn
        .prepare_cached("SELECT chart FROM companies WHERE id = ?1")?
        .query_row([company_id], |r| r.get(0))
        .optional()?;
    let Some(stored) = stored else {
        return Err(Error::not_found(Said::Record(
            Record::Company,
            company_id.to_string(),
        )));
    };
    Chart::parse("chart", &stored)
        .map_err(|_| Error::internal(format!("companies {company_id}: chart cannot be read")))
}

/// How many accounts of its own the company keeps in `chart`.
///
/// Fails only on a storage error.
pub fn own_count(conn: &Connection, company_id: &str, chart: Chart) -> Result<i64> {
    Ok(conn
        .prepare_cached("SELECT count(*) FROM chart_accounts WHERE company_id = ?1 AND chart = ?2")?
        .query_row(params![company_id, chart.as_str()], |r| r.get(0))?)
}

/// Every account of the company's chart: the standard ones and its own, by
/// number.
///
/// Fails with `NotFound` for an unknown company.
pub fn list(conn: &Connection, company_id: &str) -> Result<(Chart, Vec<ChartAccount>)> {
    let chart = chart_of(conn, company_id)?;
    let mut all: Vec<ChartAccount> = chart::ACCOUNTS
        .iter()
        .map(|a| ChartAccount::of_standard(a, chart))
        .collect();
    all.extend(own(conn, company_id, chart)?);
    all.sort_by_key(|a| a.number);
    Ok((chart, all))
}

/// The account a journal line's `chart` names on `chart`: a standard key,
/// else an own account's number.
///
/// Fails only on a storage error.
pub fn resolve(
    conn: &Connection,
    company_id: &str,
    chart: Chart,
    key: &str,
) -> Result<Option<ChartAccount>> {
    if let Some(a) = chart::standard(key) {
        return Ok(Some(ChartAccount::of_standard(a, chart)));
    }
    let Ok(number) = key.parse::<u32>() else {
        return Ok(None);
    };
    Ok(own(conn, company_id, chart)?
        .into_iter()
        .find(|a| a.number == number))
}

/// The account a person names for a bill's cost: a standard cost account by
/// its key or number on the company's chart, or an own expense account by
/// its number. Returns the key a journal line names it by.
///
/// Fails with `Refused` naming `field` for an account that takes no costs
/// (revenue, a balance, a tax) or is not in the chart.
pub fn cost_account(
    conn: &Connection,
    company_id: &str,
    field: &str,
    text: &str,
) -> Result<String> {
    let (chart, all) = list(conn, company_id)?;
    let t = text.trim();
    let found = all
        .iter()
        .find(|a| a.key == t || t.parse::<u32>().ok() == Some(a.number));
    match found {
        Some(a) if a.for_costs => Ok(a.key.clone()),
        Some(a) => Err(Error::refused_at(
            field,
            said::Chart::NotForCosts {
                number: a.number,
                name: a.name_de.clone(),
                key: a.key.clone(),
                kind: a.kind.as_str().to_string(),
            },
        )),
        None => Err(Error::refused_at(
            field,
            said::Chart::NoSuchAccount {
                chart: chart.as_str().to_uppercase(),
                got: t.to_string(),
            },
        )),
    }
}

/// An own account as a person gives it.
#[derive(Debug, Default, Clone)]
pub struct AccountInput {
    pub number: Option<String>,
    pub name_de: Option<String>,
    pub name_en: Option<String>,
    /// `asset`, `liability`, `equity`, `revenue`, `expense` or `tax`.
    pub kind: Option<String>,
    /// The HGB line's key (`pl:8`, `assets:B.II`, …).
    pub line: Option<String>,
}

/// A checked own account (its number not yet checked against the chart).
#[derive(Debug, Clone)]
pub struct NewAccount {
    number: u32,
    name_de: String,
    name_en: String,
    kind: Kind,
    line: Line,
}

impl NewAccount {
    /// Checks an own account: a number of four digits at most, both names
    /// (200 characters), a kind, a line of the statement its kind belongs to
    /// (the profit and loss for revenue and expenses, the balance sheet for
    /// the others).
    ///
    /// Fails with `Invalid` naming every field that is missing or malformed,
    /// and `Refused` naming `line` for a line of the other statement.
    pub fn check(input: AccountInput) -> Result<NewAccount> {
        let mut v = Violations::new();
        let number = match input.number.as_deref().map(str::trim) {
            None | Some("") => {
                v.invalid("number", Input::Missing);
                None
            }
            Some(n) => match n.parse::<u32>() {
                Ok(n) if (1..10_000).contains(&n) => Some(n),
                _ => {
                    v.invalid(
                        "number",
                        said::Chart::NotAccountNumber { got: n.to_string() },
                    );
                    None
                }
            },
        };
        let name_de = v.take(text::required("nameDe", input.name_de.as_deref(), MAX_NAME))?;
        let name_en = v.take(text::required("nameEn", input.name_en.as_deref(), MAX_NAME))?;
        let kinds: Vec<&str> = Kind::ALL.iter().map(|k| k.as_str()).collect();
        let kind = match input.kind.as_deref() {
            None => {
                v.invalid("kind", Input::Missing);
                None
            }
            Some(k) => {
                let kind = Kind::parse(k);
                if kind.is_none() {
                    v.invalid("kind", crate::error::not_one_of(&kinds, k));
                }
                kind
            }
        };
        let line = match input.line.as_deref() {
            None => {
                v.invalid("line", Input::Missing);
                None
            }
            Some(l) => {
                let line = Line::parse(l);
                if line.is_none() {
                    let keys: Vec<String> = Line::ALL
                        .iter()
                        .filter(|l| **l != Line::NetIncome)
                        .map(|l| l.key())
                        .collect();
                    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
                    v.invalid("line", crate::error::not_one_of(&keys, l));
                }
                line
            }
        };
        if let (Some(kind), Some(line)) = (kind, line) {
            let pl = line.statement() == Statement::ProfitAndLoss;
            if kind.in_profit_and_loss() != pl || line == Line::NetIncome {
                v.refused(
                    "line",
                    said::Chart::LineOfOtherStatement {
                        line: line.key(),
                        profit_and_loss: pl,
                        kind: kind.as_str().to_string(),
                    },
                );
            }
        }
        v.finish()?;
        match (number, name_de, name_en, kind, line) {
            (Some(number), Some(name_de), Some(name_en), Some(kind), Some(line)) => {
                Ok(NewAccount {
                    number,
                    name_de,
                    name_en,
                    kind,
                    line,
                })
            }
            _ => Err(Error::internal("a checked account lacks a field")),
        }
    }
}

/// Adds an own account to the company's chart. Recorded as `account.added`.
///
/// Fails with `Refused` naming `number` outside the chart's ranges for its
/// kind, the number of a standard account, or one the company has.
pub fn add(tx: &Tx, tenant: &Tenant, actor: &Actor, new: &NewAccount) -> Result<ChartAccount> {
    let (chart, all) = list(tx, &tenant.company_id)?;
    let ranges = chart::own_range(chart, new.kind);
    if !ranges.iter().any(|r| r.contains(&new.number)) {
        let shown: Vec<String> = ranges
            .iter()
            .map(|r| format!("{}–{}", r.start(), r.end()))
            .collect();
        return Err(Error::refused_at(
            "number",
            said::Chart::OutsideRanges {
                number: new.number,
                kind: new.kind.as_str().to_string(),
                chart: chart.as_str().to_uppercase(),
                ranges: shown,
            },
        ));
    }
    if let Some(taken) = all.iter().find(|a| a.number == new.number) {
        return Err(Error::refused_at(
            "number",
            said::Chart::NumberTaken {
                number: new.number,
                name: taken.name_de.clone(),
                key: taken.key.clone(),
                standard: taken.standard,
            },
        ));
    }
    tx.prepare_cached(
        "INSERT INTO chart_accounts (company_id, chart, number, name_de, name_en, kind, line, added_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![
        tenant.company_id,
        chart.as_str(),
        new.number,
        new.name_de,
        new.name_en,
        new.kind.as_str(),
        new.line.key(),
        clock::now()
    ])?;
    audit::record(
        tx,
        tenant,
        actor,
        Act::AccountAdded,
        &new.number.to_string(),
    )?;
    resolve(tx, &tenant.company_id, chart, &new.number.to_string())?
        .ok_or_else(|| Error::internal("an account just added is not there"))
}

/// Removes an own account with nothing posted to it (in either
/// environment). Recorded as `account.removed`.
///
/// Fails with `NotFound` for a number that is no own account, and `Refused`
/// for a standard account or one with postings.
pub fn remove(tx: &Tx, tenant: &Tenant, actor: &Actor, number: &str) -> Result<()> {
    let (chart, all) = list(tx, &tenant.company_id)?;
    let key = number.trim();
    let Some(account) = all
        .iter()
        .find(|a| a.key == key || a.number.to_string() == key)
    else {
        return Err(Error::not_found(Said::Record(
            Record::Account,
            key.to_string(),
        )));
    };
    if account.standard {
        return Err(Error::refused(said::Chart::StandardKept {
            number: account.number,
            name: account.name_de.clone(),
            chart: chart.as_str().to_uppercase(),
        }));
    }
    let posted: Option<Date> = tx
        .prepare_cached("SELECT min(posted_on) FROM journal WHERE company_id = ?1 AND chart = ?2")?
        .query_row(params![tenant.company_id, account.key], |r| r.get(0))
        .optional()?
        .flatten();
    if let Some(first) = posted {
        return Err(Error::refused(said::Chart::HasPostings {
            number: account.number,
            name: account.name_de.clone(),
            first,
        }));
    }
    tx.prepare_cached(
        "DELETE FROM chart_accounts WHERE company_id = ?1 AND chart = ?2 AND number = ?3",
    )?
    .execute(params![tenant.company_id, chart.as_str(), account.number])?;
    audit::record(tx, tenant, actor, Act::AccountRemoved, &account.key)
}
