//! The ledger: balanced double-entry postings in the book currency to a small
//! chart, one entry per act, written in the act's transaction; balances per
//! account as of any date; the trial balance; closing the books. Only acts
//! post; reports read balances here and nothing else.

use std::collections::BTreeMap;

use jiff::civil::Date;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::tenant::Tenant;

/// The chart of accounts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Account {
    Receivables,
    Bank,
    InputTax,
    Payables,
    OutputTax,
    Revenue,
    Expenses,
    Equity,
}

/// What an account is, for the balance sheet and the profit and loss.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Asset,
    Liability,
    Equity,
    Income,
    Expense,
}

impl Account {
    pub const ALL: [Account; 8] = [
        Account::Receivables,
        Account::Bank,
        Account::InputTax,
        Account::Payables,
        Account::OutputTax,
        Account::Revenue,
        Account::Expenses,
        Account::Equity,
    ];

    pub fn key(self) -> &'static str {
        match self {
            Account::Receivables => "receivables",
            Account::Bank => "bank",
            Account::InputTax => "input_tax",
            Account::Payables => "payables",
            Account::OutputTax => "output_tax",
            Account::Revenue => "revenue",
            Account::Expenses => "expenses",
            Account::Equity => "equity",
        }
    }

    pub fn class(self) -> Class {
        match self {
            Account::Receivables | Account::Bank | Account::InputTax => Class::Asset,
            Account::Payables | Account::OutputTax => Class::Liability,
            Account::Equity => Class::Equity,
            Account::Revenue => Class::Income,
            Account::Expenses => Class::Expense,
        }
    }

    fn from_key(key: &str) -> Option<Account> {
        Account::ALL.into_iter().find(|a| a.key() == key)
    }
}

/// One line of an entry. A negative amount books on the other side.
#[derive(Debug, Clone, Copy)]
pub struct Posting {
    pub account: Account,
    pub debit: i64,
    pub credit: i64,
}

impl Posting {
    pub fn debit(account: Account, amount: i64) -> Posting {
        if amount < 0 {
            Posting {
                account,
                debit: 0,
                credit: -amount,
            }
        } else {
            Posting {
                account,
                debit: amount,
                credit: 0,
            }
        }
    }

    pub fn credit(account: Account, amount: i64) -> Posting {
        if amount < 0 {
            Posting {
                account,
                debit: -amount,
                credit: 0,
            }
        } else {
            Posting {
                account,
                debit: 0,
                credit: amount,
            }
        }
    }
}

/// Writes one balanced entry named `entry` (the act's record id) on `date`.
///
/// Fails with `Internal` when the postings do not balance: an act that cannot
/// post balanced lines must not happen at all.
pub fn post(tx: &Tx, tenant: &Tenant, entry: &str, date: Date, postings: &[Posting]) -> Result<()> {
    let debit: i64 = postings.iter().map(|p| p.debit).sum();
    let credit: i64 = postings.iter().map(|p| p.credit).sum();
    if debit != credit {
        return Err(Error::internal(format!(
            "entry {entry} does not balance: {debit} ≠ {credit}"
        )));
    }
    let day = date.to_string();
    let mut line = tx.prepare_cached(
        "INSERT INTO journal (company_id, environment, entry, posted_on, account, debit, credit)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    let mut sum = tx.prepare_cached(
        "INSERT INTO account_days (company_id, environment, account, posted_on, debit, credit)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT (company_id, environment, account, posted_on)
         DO UPDATE SET debit = debit + excluded.debit, credit = credit + excluded.credit",
    )?;
    for p in postings.iter().filter(|p| p.debit != 0 || p.credit != 0) {
        let args = params![
            tenant.company_id,
            tenant.env(),
            entry,
            day,
            p.account.key(),
            p.debit,
            p.credit
        ];
        line.execute(args)?;
        sum.execute(params![
            tenant.company_id,
            tenant.env(),
            p.account.key(),
            day,
            p.debit,
            p.credit
        ])?;
    }
    Ok(())
}

/// Debit and credit totals of every account over the days in `from..=to`
/// (all days up to `to` when `from` is `None`).
///
/// Fails only on a storage error.
pub fn totals(
    conn: &Connection,
    tenant: &Tenant,
    from: Option<Date>,
    to: Date,
) -> Result<BTreeMap<Account, (i64, i64)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT account, sum(debit), sum(credit) FROM account_days
         WHERE company_id = ?1 AND environment = ?2 AND posted_on <= ?3 AND (?4 IS NULL OR posted_on >= ?4)
         GROUP BY account",
    )?;
    let rows = stmt.query_map(
        params![
            tenant.company_id,
            tenant.env(),
            to.to_string(),
            from.map(|d| d.to_string())
        ],
        |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, i64>(2)?,
            ))
        },
    )?;
    let mut out: BTreeMap<Account, (i64, i64)> =
        Account::ALL.into_iter().map(|a| (a, (0, 0))).collect();
    for row in rows {
        let (key, debit, credit) = row?;
        if let Some(account) = Account::from_key(&key) {
            out.insert(account, (debit, credit));
        }
    }
    Ok(out)
}

/// The balance of `account` (debit minus credit) at the end of `as_of`.
///
/// Fails only on a storage error.
pub fn balance(conn: &Connection, tenant: &Tenant, account: Account, as_of: Date) -> Result<i64> {
    let (debit, credit) = totals(conn, tenant, None, as_of)?
        .get(&account)
        .copied()
        .unwrap_or((0, 0));
    Ok(debit - credit)
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TrialBalanceRow {
    pub account: &'static str,
    pub debit: i64,
    pub credit: i64,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TrialBalance {
    pub as_of: String,
    pub currency: String,
    pub accounts: Vec<TrialBalanceRow>,
    pub total_debit: i64,
    pub total_credit: i64,
    pub balanced: bool,
}

/// Every account's debit and credit totals at the end of `as_of`.
///
/// Fails only on a storage error.
pub fn trial_balance(
    conn: &Connection,
    tenant: &Tenant,
    currency: &str,
    as_of: Date,
) -> Result<TrialBalance> {
    let totals = totals(conn, tenant, None, as_of)?;
    let accounts: Vec<TrialBalanceRow> = totals
        .iter()
        .map(|(a, (d, c))| TrialBalanceRow {
            account: a.key(),
            debit: *d,
            credit: *c,
        })
        .collect();
    let total_debit = accounts.iter().map(|r| r.debit).sum();
    let total_credit = accounts.iter().map(|r| r.credit).sum();
    Ok(TrialBalance {
        as_of: as_of.to_string(),
        currency: currency.to_string(),
        accounts,
        total_debit,
        total_credit,
        balanced: total_debit == total_credit,
    })
}

/// The last day of closed books, if any.
///
/// Fails only on a storage error.
pub fn closed_through(conn: &Connection, tenant: &Tenant) -> Result<Option<Date>> {
    let through: Option<String> = conn
        .prepare_cached(
            "SELECT through FROM books_closed WHERE company_id = ?1 AND environment = ?2",
        )?
        .query_row(params![tenant.company_id, tenant.env()], |r| r.get(0))
        .optional()?;
    Ok(through.and_then(|t| t.parse().ok()))
}

/// Refuses an act dated on or before the last closed day.
///
/// Fails with `Refused` naming the closing date.
pub fn check_open(conn: &Connection, tenant: &Tenant, date: Date) -> Result<()> {
    match closed_through(conn, tenant)? {
        Some(through) if date <= through => Err(Error::refused(format!(
            "The books are closed through {through}; an act dated {date} cannot be recorded."
        ))),
        _ => Ok(()),
    }
}

/// Closes the books through `through`; closing only ever moves forward.
///
/// Fails with `Refused` when the books are already closed through a later day.
pub fn close(tx: &Tx, tenant: &Tenant, through: Date) -> Result<serde_json::Value> {
    if let Some(current) = closed_through(tx, tenant)? {
        if current > through {
            return Err(Error::refused(format!(
                "The books are already closed through {current}; closing cannot move back."
            )));
        }
    }
    let now = clock::now();
    tx.execute(
        "INSERT INTO books_closed (company_id, environment, through, closed_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (company_id, environment) DO UPDATE SET through = excluded.through, closed_at = excluded.closed_at",
        params![tenant.company_id, tenant.env(), through.to_string(), now],
    )?;
    Ok(serde_json::json!({
        "companyId": tenant.company_id,
        "environment": tenant.env(),
        "closedThrough": through.to_string(),
        "closedAt": now,
    }))
}

/// One account's amount in a statement.
#[derive(Debug, Serialize)]
pub struct AccountAmount {
    pub account: &'static str,
    pub amount: crate::rules::money::Money,
}

/// The profit and loss over a period, read from the ledger only.
#[derive(Debug, Serialize)]
pub struct ProfitAndLoss {
    pub from: String,
    pub to: String,
    pub currency: String,
    pub revenue: crate::rules::money::Money,
    pub expenses: crate::rules::money::Money,
    pub result: crate::rules::money::Money,
    pub by_account: Vec<AccountAmount>,
    /// True only when the whole period lies in closed books.
    pub is_final: bool,
}

/// Revenue, expenses and the result of `from..=to`.
///
/// Fails only on a storage error.
pub fn profit_and_loss(
    conn: &Connection,
    tenant: &Tenant,
    currency: &str,
    from: Date,
    to: Date,
) -> Result<ProfitAndLoss> {
    let totals = totals(conn, tenant, Some(from), to)?;
    let money = |minor| crate::rules::money::Money::new(minor, currency);
    let side = |a: Account| {
        let (d, c) = totals.get(&a).copied().unwrap_or((0, 0));
        match a.class() {
            Class::Income => c - d,
            _ => d - c,
        }
    };
    let revenue = side(Account::Revenue);
    let expenses = side(Account::Expenses);
    Ok(ProfitAndLoss {
        from: from.to_string(),
        to: to.to_string(),
        currency: currency.to_string(),
        revenue: money(revenue),
        expenses: money(expenses),
        result: money(revenue - expenses),
        by_account: [Account::Revenue, Account::Expenses]
            .into_iter()
            .map(|a| AccountAmount {
                account: a.key(),
                amount: money(side(a)),
            })
            .collect(),
        is_final: closed_through(conn, tenant)?.is_some_and(|through| through >= to),
    })
}

/// The balance sheet at the end of a day, read from the ledger only.
#[derive(Debug, Serialize)]
pub struct BalanceSheet {
    pub as_of: String,
    pub currency: String,
    pub assets: Vec<AccountAmount>,
    pub total_assets: crate::rules::money::Money,
    pub liabilities: Vec<AccountAmount>,
    pub total_liabilities: crate::rules::money::Money,
    pub equity: crate::rules::money::Money,
    /// Revenue less expenses of every day up to `as_of` (not yet moved to equity).
    pub result: crate::rules::money::Money,
    pub balanced: bool,
}

/// Assets, liabilities, equity and the result at the end of `as_of`.
///
/// Fails only on a storage error.
pub fn balance_sheet(
    conn: &Connection,
    tenant: &Tenant,
    currency: &str,
    as_of: Date,
) -> Result<BalanceSheet> {
    let totals = totals(conn, tenant, None, as_of)?;
    let money = |minor| crate::rules::money::Money::new(minor, currency);
    let debit_side = |a: Account| totals.get(&a).map_or(0, |(d, c)| d - c);
    let of_class = |class: Class, sign: i64| -> Vec<AccountAmount> {
        Account::ALL
            .into_iter()
            .filter(|a| a.class() == class)
            .map(|a| AccountAmount {
                account: a.key(),
                amount: money(sign * debit_side(a)),
            })
            .collect()
    };
    let assets = of_class(Class::Asset, 1);
    let liabilities = of_class(Class::Liability, -1);
    let total_assets: i64 = assets.iter().map(|a| a.amount.minor).sum();
    let total_liabilities: i64 = liabilities.iter().map(|a| a.amount.minor).sum();
    let equity = -debit_side(Account::Equity);
    let result = -debit_side(Account::Revenue) - debit_side(Account::Expenses);
    Ok(BalanceSheet {
        as_of: as_of.to_string(),
        currency: currency.to_string(),
        balanced: total_assets == total_liabilities + equity + result,
        assets,
        total_assets: money(total_assets),
        liabilities,
        total_liabilities: money(total_liabilities),
        equity: money(equity),
        result: money(result),
    })
}
