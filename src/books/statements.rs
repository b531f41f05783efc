//! The statements a bookkeeper reads, on the company's chart of accounts
//! (SKR03 or SKR04, `rules::chart`, with the company's own accounts): the
//! trial balance (*Summen- und Saldenliste*) by account number, the profit
//! and loss by the nature-of-expense method of § 275 (2) HGB and the
//! balance sheet in the short form of § 266 (1) sentence 3 HGB, each line
//! opening to its accounts, with the previous year's figures beside them
//! when asked. Read from the ledger's day sums only.
//!
//! A ledger line is on the chart account a person chose for it (a bill's
//! cost), else on the account `rules::skr` maps its ledger account and tax
//! key to (the one table the DATEV export reads too). Receivables and
//! payables are shown on their collective accounts (1400/1600 in SKR03),
//! the bank on its account with each bank account as a detail. The fiscal
//! year is the company's (`export::settings`): the trial balance's opening
//! balances are those at its first day, where the profit and loss accounts
//! start again from nothing and the results of earlier years stand as the
//! profit carried forward (A.IV); the balance sheet's A.V is the result of
//! the fiscal year up to its day.
//!
//! Placement on the balance sheet (the choices the reference states): the
//! VAT accounts and the tax office are netted (one debt, the tax office's)
//! and shown under B.II while the tax office owes, under C while it is
//! owed; an asset account with a credit balance (an overdrawn bank) stands
//! under C, a liability with a debit balance under B.II.

use std::collections::{BTreeMap, HashMap};

use jiff::civil::Date;
use jiff::Span;
use rusqlite::{params, Connection};
use serde::Serialize;

use crate::books::chart_accounts::{self, ChartAccount};
use crate::books::company;
use crate::books::export::settings;
use crate::books::ledger::{self, Account};
use crate::error::said::Input;
use crate::error::{Error, Result, Violations};
use crate::rules::chart::{Chart, Kind, Line, Statement};
use crate::rules::iso::Currency;
use crate::rules::money::Money;
use crate::rules::skr;
use crate::store::row::Row;
use crate::store::tenant::Tenant;

/// The key of the account earlier years' results stand on (A.IV).
const CARRIED_FORWARD: &str = "profit_carried_forward";

/// One group of day sums: a ledger account and detail on a chart account.
struct Posted {
    key: String,
    ledger: Account,
    detail: String,
    debit: i64,
    credit: i64,
}

/// Day sums with their (debit, credit) since the year's and the period's
/// first day.
type InParts = (Posted, (i64, i64), (i64, i64));

/// The company's chart, its accounts by key, and how its lines map.
pub(crate) struct Books {
    pub(crate) chart: Chart,
    accounts: HashMap<String, ChartAccount>,
    small_business: bool,
    pub(crate) currency: Currency,
    pub(crate) fiscal: settings::FiscalYearStart,
    pub(crate) today: Date,
}

impl Books {
    pub(crate) fn load(conn: &Connection, tenant: &Tenant) -> Result<Books> {
        let company = company::get(conn, &tenant.company_id)?;
        let (chart, list) = chart_accounts::list(conn, &tenant.company_id)?;
        Ok(Books {
            chart,
            accounts: list.into_iter().map(|a| (a.key.clone(), a)).collect(),
            small_business: company.particulars.small_business,
            currency: company.currency.clone(),
            fiscal: settings::get(conn, &tenant.company_id)?.fiscal_year_start,
            today: company.today(),
        })
    }

    /// The account of `number` on the company's chart, if any.
    pub(crate) fn numbered(&self, number: u32) -> Option<&ChartAccount> {
        self.accounts.values().find(|a| a.number == number)
    }

    pub(crate) fn account(&self, key: &str) -> Result<&ChartAccount> {
        self.accounts.get(key).ok_or_else(|| {
            Error::internal(format!(
                "the ledger names the account {key:?}, not in the chart"
            ))
        })
    }

    /// The chart account a ledger line is on.
    pub(crate) fn key_of(&self, ledger: Account, detail: &str, chosen: String) -> String {
        if !chosen.is_empty() {
            return chosen;
        }
        skr::row(ledger.as_str(), detail, self.small_business)
            .map_or_else(|| ledger.as_str().to_string(), |r| r.account.to_string())
    }

    /// The day sums of `from..=to` (every day up to `to` without `from`),
    /// by ledger account, detail and chart account.
    fn posted(
        &self,
        conn: &Connection,
        tenant: &Tenant,
        from: Option<Date>,
        to: Date,
    ) -> Result<Vec<Posted>> {
        let mut stmt = conn.prepare_cached(
            "SELECT account, detail, chart, sum(debit), sum(credit) FROM account_days
             WHERE company_id = ?1 AND environment = ?2 AND posted_on <= ?3 AND (?4 IS NULL OR posted_on >= ?4)
             GROUP BY account, detail, chart",
        )?;
        let rows = stmt.query_map(
            params![tenant.company_id, tenant.environment, to, from],
            |row| {
                let r = Row::new(row, "account_days");
                Ok((
                    r.get::<Account>(0)?,
                    r.get::<String>(1)?,
                    r.get::<String>(2)?,
                    r.get::<i64>(3)?,
                    r.get::<i64>(4)?,
                ))
            },
        )?;
        let mut out = Vec::new();
        for row in rows {
            let (ledger, detail, chosen, debit, credit) = row?;
            out.push(Posted {
                key: self.key_of(ledger, &detail, chosen),
                ledger,
                detail,
                debit,
                credit,
            });
        }
        Ok(out)
    }

    /// The day sums up to `to`, each with its part since `year_from` and
    /// since `period_from` (debit, credit): the trial balance's three
    /// columns read in one pass.
    fn posted_in_parts(
        &self,
        conn: &Connection,
        tenant: &Tenant,
        year_from: Date,
        period_from: Date,
        to: Date,
    ) -> Result<Vec<InParts>> {
        let mut stmt = conn.prepare_cached(
            "SELECT account, detail, chart, sum(debit), sum(credit),
                    coalesce(sum(CASE WHEN posted_on >= ?4 THEN debit END), 0),
                    coalesce(sum(CASE WHEN posted_on >= ?4 THEN credit END), 0),
                    coalesce(sum(CASE WHEN posted_on >= ?5 THEN debit END), 0),
                    coalesce(sum(CASE WHEN posted_on >= ?5 THEN credit END), 0)
             FROM account_days
             WHERE company_id = ?1 AND environment = ?2 AND posted_on <= ?3
             GROUP BY account, detail, chart",
        )?;
        let rows = stmt.query_map(
            params![
                tenant.company_id,
                tenant.environment,
                to,
                year_from,
                period_from
            ],
            |row| {
                let r = Row::new(row, "account_days");
                Ok((
                    (
                        r.get::<Account>(0)?,
                        r.get::<String>(1)?,
                        r.get::<String>(2)?,
                        r.get::<i64>(3)?,
                        r.get::<i64>(4)?,
                    ),
                    (r.get::<i64>(5)?, r.get::<i64>(6)?),
                    (r.get::<i64>(7)?, r.get::<i64>(8)?),
                ))
            },
        )?;
        let mut out = Vec::new();
        for row in rows {
            let ((ledger, detail, chosen, debit, credit), year, period) = row?;
            let posted = Posted {
                key: self.key_of(ledger, &detail, chosen),
                ledger,
                detail,
                debit,
                credit,
            };
            out.push((posted, year, period));
        }
        Ok(out)
    }

    /// Debit minus credit per chart account over `from..=to`.
    pub(crate) fn balances(
        &self,
        conn: &Connection,
        tenant: &Tenant,
        from: Option<Date>,
        to: Date,
    ) -> Result<BTreeMap<String, i64>> {
        let mut out = BTreeMap::new();
        for p in self.posted(conn, tenant, from, to)? {
            *out.entry(p.key).or_insert(0) += p.debit - p.credit;
        }
        Ok(out)
    }

    /// The results of the fiscal years before `year_start` (debit
    /// positive: a loss), summed over every profit and loss account.
    fn earlier_results(&self, conn: &Connection, tenant: &Tenant, year_start: Date) -> Result<i64> {
        let Ok(before) = year_start.yesterday() else {
            return Ok(0);
        };
        let mut sum = 0;
        for (key, b) in self.balances(conn, tenant, None, before)? {
            if self.account(&key)?.kind.in_profit_and_loss() {
                sum += b;
            }
        }
        Ok(sum)
    }

    pub(crate) fn money(&self, minor: i64) -> Money {
        Money::new(minor, &self.currency)
    }
}

/// The same day a year earlier (28 February for 29 February).
fn year_before(day: Date) -> Date {
    day.checked_sub(Span::new().years(1)).unwrap_or(day)
}

/// A day given or its default, and a period's two days in order.
fn period(
    from: Option<&str>,
    to: Option<&str>,
    default_from: impl FnOnce(Date) -> Date,
    today: Date,
) -> Result<(Date, Date)> {
    let mut v = Violations::new();
    let to = v.take(ledger::day_or("to", to, today))?;
    let from_text = from;
    v.finish()?;
    let Some(to) = to else {
        return Err(Error::internal("a checked period lacks a day"));
    };
    let from = ledger::day_or("from", from_text, default_from(to))?;
    if from > to {
        return Err(Error::invalid("from", Input::AfterTo { from, to }));
    }
    Ok((from, to))
}

/// A detail of a trial balance's account: the ledger account and its
/// detail (bank account, tax key) the postings came from.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DetailRow {
    /// The ledger account (`bank`, `revenue`, …).
    pub ledger: &'static str,
    /// The bank account's id or the tax key ('' for none).
    pub detail: String,
    pub debit: i64,
    pub credit: i64,
}

/// One account of the trial balance. Amounts in minor units; `opening`
/// and the balance's sign: debit positive.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TrialBalanceRow {
    /// The chart account's key (`rent`, `revenue_19`, an own account's number).
    pub account: String,
    pub number: u32,
    /// DATEV's German name.
    pub name: String,
    pub name_en: String,
    pub kind: &'static str,
    /// The HGB line's key (`pl:8`, `assets:B.IV`).
    pub line: String,
    /// The balance at the fiscal year's first day (nothing on a profit and
    /// loss account), debit positive.
    pub opening: i64,
    pub period_debit: i64,
    pub period_credit: i64,
    pub year_debit: i64,
    pub year_credit: i64,
    /// Every posting up to the day.
    pub debit: i64,
    pub credit: i64,
    /// The balance at the day's end: the opening and the year's postings.
    pub balance: i64,
    /// `debit` or `credit`; none for a balance of nothing.
    pub side: Option<&'static str>,
    /// The ledger accounts and details (bank account, tax key) behind the
    /// account's postings; they sum to its `debit` and `credit`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<DetailRow>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TrialBalance {
    pub as_of: Date,
    /// The period's first day (default the first of `as_of`'s month).
    pub from: Date,
    /// The fiscal year's first day.
    pub year_from: Date,
    pub currency: Currency,
    #[serde(serialize_with = "chart_name")]
    pub chart: Chart,
    pub accounts: Vec<TrialBalanceRow>,
    pub total_debit: i64,
    pub total_credit: i64,
    pub balanced: bool,
}

fn chart_name<S: serde::Serializer>(chart: &Chart, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(chart.as_str())
}

/// Debit and credit per ledger account and detail.
type Totals = BTreeMap<(&'static str, String), (i64, i64)>;

/// The trial balance's row of the account `key`, new when not yet there.
fn row_of<'r>(
    rows: &'r mut BTreeMap<String, TrialBalanceRow>,
    books: &Books,
    key: &str,
) -> Result<&'r mut TrialBalanceRow> {
    if !rows.contains_key(key) {
        let a = books.account(key)?;
        rows.insert(
            key.to_string(),
            TrialBalanceRow {
                account: a.key.clone(),
                number: a.number,
                name: a.name_de.clone(),
                name_en: a.name_en.clone(),
                kind: a.kind.as_str(),
                line: a.line.key(),
                opening: 0,
                period_debit: 0,
                period_credit: 0,
                year_debit: 0,
                year_credit: 0,
                debit: 0,
                credit: 0,
                balance: 0,
                side: None,
                details: Vec::new(),
            },
        );
    }
    rows.get_mut(key)
        .ok_or_else(|| Error::internal("a trial balance row vanished"))
}

/// The trial balance at the end of `as_of` (default today in the company's
/// time zone), its period from `from` (default the first of the month).
///
/// Fails with `Invalid` naming `asOf` or `from` when it is not a date or
/// `from` lies after `asOf`.
pub fn trial_balance(
    conn: &Connection,
    tenant: &Tenant,
    as_of: Option<&str>,
    from: Option<&str>,
) -> Result<TrialBalance> {
    let books = Books::load(conn, tenant)?;
    let as_of = ledger::day_or("asOf", as_of, books.today)?;
    let from = ledger::day_or("from", from, as_of.first_of_month())?;
    if from > as_of {
        return Err(Error::invalid("from", Input::AfterAsOf { from, as_of }));
    }
    let year_from = books.fiscal.year_of(as_of);
    let mut rows: BTreeMap<String, TrialBalanceRow> = BTreeMap::new();
    let mut details: BTreeMap<String, Totals> = BTreeMap::new();
    let parts = books.posted_in_parts(conn, tenant, year_from, from.max(year_from), as_of)?;
    for (p, (year_debit, year_credit), (period_debit, period_credit)) in parts {
        let r = row_of(&mut rows, &books, &p.key)?;
        r.debit += p.debit;
        r.credit += p.credit;
        r.year_debit += year_debit;
        r.year_credit += year_credit;
        r.period_debit += period_debit;
        r.period_credit += period_credit;
        let d = details
            .entry(p.key)
            .or_default()
            .entry((p.ledger.as_str(), p.detail))
            .or_insert((0, 0));
        d.0 += p.debit;
        d.1 += p.credit;
    }
    let earlier = books.earlier_results(conn, tenant, year_from)?;
    if earlier != 0 {
        row_of(&mut rows, &books, CARRIED_FORWARD)?;
    }
    let mut accounts: Vec<TrialBalanceRow> = rows.into_values().collect();
    for r in &mut accounts {
        let in_pl = Kind::parse(r.kind).is_some_and(Kind::in_profit_and_loss);
        r.opening = if in_pl {
            0
        } else {
            r.debit - r.credit - (r.year_debit - r.year_credit)
        };
        if r.account == CARRIED_FORWARD {
            r.opening += earlier;
        }
        let signed = r.opening + r.year_debit - r.year_credit;
        r.balance = signed.abs();
        r.side = match signed {
            0 => None,
            s if s > 0 => Some("debit"),
            _ => Some("credit"),
        };
        if let Some(d) = details.remove(&r.account) {
            r.details = d
                .into_iter()
                .map(|((ledger, detail), (debit, credit))| DetailRow {
                    ledger,
                    detail,
                    debit,
                    credit,
                })
                .collect();
        }
    }
    accounts.sort_by_key(|r| r.number);
    let total_debit = accounts.iter().map(|r| r.debit).sum();
    let total_credit = accounts.iter().map(|r| r.credit).sum();
    Ok(TrialBalance {
        as_of,
        from,
        year_from,
        currency: books.currency.clone(),
        chart: books.chart,
        accounts,
        total_debit,
        total_credit,
        balanced: total_debit == total_credit,
    })
}

/// An account's amount within a statement's line.
#[derive(Debug, Serialize)]
pub struct LineAccount {
    pub account: String,
    pub number: u32,
    pub name: String,
    pub name_en: String,
    pub amount: Money,
    /// The previous year's, when compared.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous: Option<Money>,
}

/// A line of a statement with its accounts.
#[derive(Debug, Serialize)]
pub struct StatementLine {
    /// The line's key (`pl:5a`, `assets:B.IV`).
    pub line: String,
    /// Its code in the statute (`5a`, `B.IV`).
    pub code: &'static str,
    /// The statute's wording.
    pub name: &'static str,
    pub name_en: &'static str,
    pub amount: Money,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous: Option<Money>,
    pub accounts: Vec<LineAccount>,
}

/// Amounts per line and account, as a line's side reads them.
type Placed = BTreeMap<Line, BTreeMap<(u32, String), i64>>;

/// The lines of `statement` from this year's and (when compared) the
/// previous year's placed amounts, in the statute's order; a line shows
/// when it has an account (A.V always).
fn lines(
    books: &Books,
    statement: Statement,
    now: &Placed,
    before: Option<&Placed>,
) -> Result<Vec<StatementLine>> {
    let mut out = Vec::new();
    for line in Line::ALL.into_iter().filter(|l| l.statement() == statement) {
        let empty = BTreeMap::new();
        let these = now.get(&line).unwrap_or(&empty);
        let those = before.map(|b| b.get(&line).unwrap_or(&empty));
        let mut keys: Vec<&(u32, String)> = these.keys().collect();
        if let Some(those) = those {
            keys.extend(those.keys().filter(|k| !these.contains_key(*k)));
        }
        keys.sort();
        if keys.is_empty() && line != Line::NetIncome {
            continue;
        }
        let mut accounts = Vec::new();
        for k in keys {
            let a = books.account(&k.1)?;
            accounts.push(LineAccount {
                account: a.key.clone(),
                number: a.number,
                name: a.name_de.clone(),
                name_en: a.name_en.clone(),
                amount: books.money(these.get(k).copied().unwrap_or(0)),
                previous: those.map(|t| books.money(t.get(k).copied().unwrap_or(0))),
            });
        }
        out.push(StatementLine {
            line: line.key(),
            code: line.code(),
            name: line.name_de(),
            name_en: line.name_en(),
            amount: books.money(these.values().sum()),
            previous: those.map(|t| books.money(t.values().sum())),
            accounts,
        });
    }
    Ok(out)
}

/// Whether a profit and loss line is income (else an expense).
fn income(line: Line) -> bool {
    matches!(
        line,
        Line::Revenue | Line::OtherOperatingIncome | Line::InterestIncome
    )
}

/// The profit and loss accounts' amounts of `from..=to` on their lines:
/// income lines credit positive, expense lines debit positive (a discount
/// granted reduces revenue, one received the cost of materials).
fn placed_results(
    books: &Books,
    conn: &Connection,
    tenant: &Tenant,
    from: Date,
    to: Date,
) -> Result<Placed> {
    let mut out = Placed::new();
    for (key, b) in books.balances(conn, tenant, Some(from), to)? {
        let a = books.account(&key)?;
        if !a.kind.in_profit_and_loss() || b == 0 {
            continue;
        }
        let amount = if income(a.line) { -b } else { b };
        *out.entry(a.line)
            .or_default()
            .entry((a.number, key))
            .or_insert(0) += amount;
    }
    Ok(out)
}

/// Income less expenses of placed results.
fn result_of(placed: &Placed) -> i64 {
    placed
        .iter()
        .map(|(line, accounts)| {
            let sum: i64 = accounts.values().sum();
            if income(*line) {
                sum
            } else {
                -sum
            }
        })
        .sum()
}

/// A period compared against.
#[derive(Debug, Serialize)]
pub struct Previous {
    pub from: Date,
    pub to: Date,
    pub result: Money,
}

/// The profit and loss by § 275 (2) HGB over a period.
#[derive(Debug, Serialize)]
pub struct ProfitAndLoss {
    pub from: Date,
    pub to: Date,
    pub currency: Currency,
    #[serde(serialize_with = "chart_name")]
    pub chart: Chart,
    pub lines: Vec<StatementLine>,
    /// The income lines (1, 4, 11), discounts granted deducted.
    pub revenue: Money,
    /// The expense lines (5 to 16), discounts received deducted.
    pub expenses: Money,
    /// Net income (§ 275 (2) no. 17 HGB): revenue less expenses.
    pub result: Money,
    /// The previous year's same period, when compared.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous: Option<Previous>,
    /// True only when the whole period lies in closed books.
    pub is_final: bool,
}

/// The profit and loss of `from..=to` (default this fiscal year to today
/// in the company's time zone); with `compare`, the same days a year
/// earlier beside each figure.
///
/// Fails with `Invalid` naming `from` or `to` when it is not a date, or
/// when `from` lies after `to`.
pub fn profit_and_loss(
    conn: &Connection,
    tenant: &Tenant,
    from: Option<&str>,
    to: Option<&str>,
    compare: bool,
) -> Result<ProfitAndLoss> {
    let books = Books::load(conn, tenant)?;
    let (from, to) = period(from, to, |to| books.fiscal.year_of(to), books.today)?;
    let now = placed_results(&books, conn, tenant, from, to)?;
    let before = if compare {
        let (f, t) = (year_before(from), year_before(to));
        Some((f, t, placed_results(&books, conn, tenant, f, t)?))
    } else {
        None
    };
    let side = |income_side: bool| -> i64 {
        now.iter()
            .filter(|(l, _)| income(**l) == income_side)
            .flat_map(|(_, a)| a.values())
            .sum()
    };
    let (revenue, expenses) = (side(true), side(false));
    Ok(ProfitAndLoss {
        from,
        to,
        currency: books.currency.clone(),
        chart: books.chart,
        lines: lines(
            &books,
            Statement::ProfitAndLoss,
            &now,
            before.as_ref().map(|b| &b.2),
        )?,
        revenue: books.money(revenue),
        expenses: books.money(expenses),
        result: books.money(revenue - expenses),
        previous: before.as_ref().map(|(f, t, p)| Previous {
            from: *f,
            to: *t,
            result: books.money(result_of(p)),
        }),
        is_final: ledger::is_final(conn, tenant, to)?,
    })
}

/// The balance sheet by § 266 HGB at the end of a day.
#[derive(Debug, Serialize)]
pub struct BalanceSheet {
    pub as_of: Date,
    pub currency: Currency,
    #[serde(serialize_with = "chart_name")]
    pub chart: Chart,
    /// § 266 (2) HGB.
    pub assets: Vec<StatementLine>,
    pub total_assets: Money,
    /// § 266 (3) HGB.
    pub equity_and_liabilities: Vec<StatementLine>,
    pub total_equity_and_liabilities: Money,
    /// A (equity), the year's result included.
    pub equity: Money,
    /// A.V: the fiscal year's result up to the day.
    pub result: Money,
    /// The same day a year earlier, when compared.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous_as_of: Option<Date>,
    pub balanced: bool,
    /// True only when the books are closed through `as_of`.
    pub is_final: bool,
}

/// Every balance at the end of `as_of` on its § 266 line (each side's
/// amounts positive as the side reads them), and the year's result.
fn placed_balances(
    books: &Books,
    conn: &Connection,
    tenant: &Tenant,
    as_of: Date,
) -> Result<(Placed, i64)> {
    let year_from = books.fiscal.year_of(as_of);
    let earlier = books.earlier_results(conn, tenant, year_from)?;
    let mut out = Placed::new();
    let mut put = |line: Line, a: &ChartAccount, amount: i64| {
        *out.entry(line)
            .or_default()
            .entry((a.number, a.key.clone()))
            .or_insert(0) += amount;
    };
    let mut taxes: Vec<(&ChartAccount, i64)> = Vec::new();
    let mut year_result = 0;
    let balances = books.balances(conn, tenant, None, as_of)?;
    for (key, b) in &balances {
        let a = books.account(key)?;
        if a.kind.in_profit_and_loss() {
            year_result -= b;
            continue;
        }
        if *b == 0 {
            continue;
        }
        match (a.kind, a.line.statement()) {
            (Kind::Tax, _) => taxes.push((a, *b)),
            (Kind::Equity, _) => put(a.line, a, -b),
            (_, Statement::Assets) if *b < 0 => put(Line::Liabilities, a, -b),
            (_, Statement::Assets) => put(a.line, a, *b),
            (_, _) if *b > 0 => put(Line::Receivables, a, *b),
            (_, _) => put(a.line, a, -b),
        }
    }
    // The year's result: every profit and loss posting since its first day.
    year_result += earlier;
    if earlier != 0 {
        put(
            Line::ProfitCarriedForward,
            books.account(CARRIED_FORWARD)?,
            -earlier,
        );
    }
    let net_tax: i64 = taxes.iter().map(|(_, b)| b).sum();
    for (a, b) in taxes {
        if net_tax > 0 {
            put(Line::Receivables, a, b);
        } else {
            put(Line::Liabilities, a, -b);
        }
    }
    Ok((out, year_result))
}

/// The balance sheet at the end of `as_of` (default today in the
/// company's time zone); with `compare`, the same day a year earlier
/// beside each figure.
///
/// Fails with `Invalid` naming `asOf` when it is not a date.
pub fn balance_sheet(
    conn: &Connection,
    tenant: &Tenant,
    as_of: Option<&str>,
    compare: bool,
) -> Result<BalanceSheet> {
    let books = Books::load(conn, tenant)?;
    let as_of = ledger::day_or("asOf", as_of, books.today)?;
    let with_result = |(mut placed, result): (Placed, i64)| {
        placed.entry(Line::NetIncome).or_default();
        (placed, result)
    };
    let (now, result) = with_result(placed_balances(&books, conn, tenant, as_of)?);
    let before = if compare {
        Some(with_result(placed_balances(
            &books,
            conn,
            tenant,
            year_before(as_of),
        )?))
    } else {
        None
    };
    let mut assets = lines(
        &books,
        Statement::Assets,
        &now,
        before.as_ref().map(|b| &b.0),
    )?;
    let mut other = lines(
        &books,
        Statement::EquityAndLiabilities,
        &now,
        before.as_ref().map(|b| &b.0),
    )?;
    for l in &mut other {
        if l.line == Line::NetIncome.key() {
            l.amount = books.money(result);
            l.previous = before.as_ref().map(|b| books.money(b.1));
        }
    }
    let total = |lines: &[StatementLine]| lines.iter().map(|l| l.amount.minor).sum::<i64>();
    let total_assets = total(&assets);
    let total_other = total(&other);
    let equity: i64 = other
        .iter()
        .filter(|l| {
            Line::parse(&l.line).is_some_and(|line| {
                matches!(
                    line,
                    Line::SubscribedCapital
                        | Line::CapitalReserve
                        | Line::RevenueReserves
                        | Line::ProfitCarriedForward
                        | Line::NetIncome
                )
            })
        })
        .map(|l| l.amount.minor)
        .sum();
    assets.retain(|l| !l.accounts.is_empty());
    other.retain(|l| !l.accounts.is_empty() || l.line == Line::NetIncome.key());
    Ok(BalanceSheet {
        as_of,
        currency: books.currency.clone(),
        chart: books.chart,
        assets,
        total_assets: books.money(total_assets),
        equity_and_liabilities: other,
        total_equity_and_liabilities: books.money(total_other),
        equity: books.money(equity),
        result: books.money(result),
        previous_as_of: compare.then(|| year_before(as_of)),
        balanced: total_assets == total_other,
        is_final: ledger::is_final(conn, tenant, as_of)?,
    })
}
