//! The ledger: balanced double-entry postings in the book currency to a small
//! chart, one entry per act, written in the act's transaction; balances per
//! account as of any date; the trial balance; closing the books. Only acts
//! post; reports read balances here and nothing else.
//!
//! A posting names an account and, within it, a detail: the partner on
//! receivables and payables, the company's bank account on bank, the tax key
//! (`TaxKey`) on revenue, expenses and the taxes; '' where an account has
//! none (and on lines posted before details were kept). The detail is what an
//! adviser's chart of accounts maps and what the VAT return sums; the day
//! sums keep it for every account but the partners' (there are as many of
//! those as partners), so balances per bank account or tax key read a few
//! rows per day.

use jiff::civil::Date;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::books::audit::{self, Act, Actor};
use crate::books::company::Company;
use crate::error::said::Chart;
use crate::error::{Error, Result};
use crate::rules::money::{self, Decimal};
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::row::Row;
use crate::store::tenant::{Environment, Tenant};
use crate::stored_enum;

stored_enum! {
    /// The chart of accounts.
    #[derive(PartialOrd, Ord)]
    pub enum Account {
        Receivables = "receivables",
        Bank = "bank",
        InputTax = "input_tax",
        Payables = "payables",
        OutputTax = "output_tax",
        Revenue = "revenue",
        Expenses = "expenses",
        Equity = "equity",
        /// Bank charges.
        Fees = "fees",
        InterestIncome = "interest_income",
        InterestExpense = "interest_expense",
        /// Less received from a customer than invoiced, by an agreed discount
        /// or within the fee tolerance (a sales deduction).
        DiscountsGranted = "discounts_granted",
        /// Less paid to a supplier than billed, by a discount taken.
        DiscountsReceived = "discounts_received",
        /// What the company owes customers who paid more than they owed.
        CustomerCredits = "customer_credits",
        /// VAT paid to or refunded by the tax office.
        TaxOffice = "tax_office",
        /// Money between two of the company's own accounts, in transit.
        Transfer = "transfer",
        /// Money received or paid that a person has not yet assigned.
        Suspense = "suspense",
        /// The fixed assets the register keeps, each within its own id,
        /// on the chart account of its class.
        FixedAssets = "fixed_assets",
        /// Their depreciation, within the asset's id.
        Depreciation = "depreciation",
        /// An asset's remaining value when it leaves the books, within its id.
        AssetDisposals = "asset_disposals",
        /// What an asset was sold for, moved from the revenue of the
        /// invoice that sold it, within the tax key.
        AssetSales = "asset_sales",
        /// Output tax of a sale taxed on payments received whose money has
        /// not come in (*Umsatzsteuer nicht fällig*), within the tax key.
        OutputTaxNotDue = "output_tax_not_due",
        /// Input tax deductible only once the bill is paid (a supplier
        /// taxed on payments received, a down payment), within the tax key.
        InputTaxLater = "input_tax_later",
    }
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
    pub fn class(self) -> Class {
        match self {
            Account::Receivables
            | Account::Bank
            | Account::InputTax
            | Account::Transfer
            | Account::Suspense
            | Account::FixedAssets
            | Account::InputTaxLater => Class::Asset,
            Account::Payables
            | Account::OutputTax
            | Account::OutputTaxNotDue
            | Account::CustomerCredits
            | Account::TaxOffice => Class::Liability,
            Account::Equity => Class::Equity,
            Account::Revenue
            | Account::InterestIncome
            | Account::DiscountsReceived
            | Account::AssetSales => Class::Income,
            Account::Expenses
            | Account::Fees
            | Account::InterestExpense
            | Account::DiscountsGranted
            | Account::Depreciation
            | Account::AssetDisposals => Class::Expense,
        }
    }

    /// Whether the account's detail names a partner (receivables and
    /// payables): the day sums leave such details out.
    fn personal(self) -> bool {
        matches!(self, Account::Receivables | Account::Payables)
    }
}

/// The tax key of a revenue, expense or tax posting: the VAT category of EN
/// 16931 (`S`, `Z`, `E`, `AE`, `K`, `G`, `O`, `L`, `M`), the rate without
/// trailing zeros, and `:EU` when the other party is a business in another
/// member state under the reverse charge (`S:19`, `S:7`, `K:0`, `G:0`,
/// `AE:0:EU`, `AE:19:EU` on the taxes of a service bought from one).
pub fn tax_key(category: &str, rate: &Decimal, other_member_state: bool) -> String {
    if other_member_state && category == "AE" {
        format!("{category}:{rate}:EU")
    } else {
        format!("{category}:{rate}")
    }
}

/// One line of an entry. A negative amount books on the other side.
#[derive(Debug, Clone)]
pub struct Posting {
    pub account: Account,
    /// The partner, bank account or tax key within the account ('' for none).
    pub detail: String,
    pub debit: i64,
    pub credit: i64,
    /// The chart's account a person chose for the line (a standard key or
    /// an own account's number); '' where the account and detail decide.
    pub chart: String,
}

impl Posting {
    /// `amount` on the debit side of `account` (a negative one on the
    /// credit side).
    pub fn debit(account: Account, amount: i64) -> Posting {
        let (debit, credit) = if amount < 0 {
            (0, -amount)
        } else {
            (amount, 0)
        };
        Posting {
            account,
            detail: String::new(),
            debit,
            credit,
            chart: String::new(),
        }
    }

    /// `amount` on the credit side of `account` (a negative one on the
    /// debit side).
    pub fn credit(account: Account, amount: i64) -> Posting {
        Posting::debit(account, -amount)
    }

    /// The posting on the chart's account `chart` a person chose.
    pub fn on(self, chart: &str) -> Posting {
        Posting {
            chart: chart.to_string(),
            ..self
        }
    }

    /// The posting within `detail` of its account (a partner's id, a bank
    /// account's id, a tax key).
    pub fn of(self, detail: &str) -> Posting {
        Posting {
            detail: detail.to_string(),
            ..self
        }
    }
}

/// Splits the book amounts of a document over its tax keys: each key's
/// base and tax in the document's currency are converted at `rate`, and the
/// rounding remainder lands on the largest key, so the parts sum exactly to
/// `net_book` and `tax_book` (what the document's totals convert to).
/// `parts` are (tax key, base, tax) in the document's currency; the result
/// is (tax key, base in book currency, tax in book currency).
///
/// Fails with `Refused` when a converted amount is too large to book.
pub fn split_by_key(
    parts: &[(String, i64, i64)],
    rate: Decimal,
    from_exp: u8,
    to_exp: u8,
    net_book: i64,
    tax_book: i64,
) -> Result<Vec<(String, i64, i64)>> {
    let mut out: Vec<(String, i64, i64)> = Vec::new();
    for (key, base, tax) in parts {
        let base = money::convert(*base, rate, from_exp, to_exp)?;
        let tax = money::convert(*tax, rate, from_exp, to_exp)?;
        match out.iter_mut().find(|(k, _, _)| k == key) {
            Some(part) => {
                part.1 += base;
                part.2 += tax;
            }
            None => out.push((key.clone(), base, tax)),
        }
    }
    if out.is_empty() {
        out.push((String::new(), 0, 0));
    }
    let largest = (0..out.len())
        .max_by_key(|i| (out[*i].1.abs(), std::cmp::Reverse(*i)))
        .unwrap_or(0);
    let base_sum: i64 = out.iter().map(|p| p.1).sum();
    let tax_sum: i64 = out.iter().map(|p| p.2).sum();
    out[largest].1 += net_book - base_sum;
    out[largest].2 += tax_book - tax_sum;
    Ok(out)
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
        "INSERT INTO journal (company_id, environment, entry, posted_on, account, debit, credit, detail, chart)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?;
    for p in postings.iter().filter(|p| p.debit != 0 || p.credit != 0) {
        let args = params![
            tenant.company_id,
            tenant.environment,
            entry,
            day,
            p.account,
            p.debit,
            p.credit,
            p.detail,
            p.chart
        ];
        line.execute(args)?;
        let summed = if p.account.personal() {
            ""
        } else {
            p.detail.as_str()
        };
        tx.add_up(
            "INSERT INTO account_days (company_id, environment, account, detail, chart, posted_on, debit, credit)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
             ON CONFLICT (company_id, environment, account, detail, chart, posted_on)
             DO UPDATE SET debit = debit + excluded.debit, credit = credit + excluded.credit",
            [&tenant.company_id, tenant.environment.as_str(), p.account.as_str(), summed, &p.chart, &day],
            [p.debit, p.credit],
        )?;
    }
    Ok(())
}

/// The lines of the entry `entry` of the tenant, in the order posted:
/// (account, detail, debit, credit).
///
/// Fails only on a storage error.
pub fn entry_lines(
    conn: &Connection,
    tenant: &Tenant,
    entry: &str,
) -> Result<Vec<(Account, String, i64, i64)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT account, detail, debit, credit FROM journal
         WHERE entry = ?1 AND company_id = ?2 AND environment = ?3 ORDER BY seq",
    )?;
    let rows = stmt.query_map(
        params![entry, tenant.company_id, tenant.environment],
        |row| {
            let r = Row::new(row, "journal");
            Ok((
                r.get::<Account>(0)?,
                r.get::<String>(1)?,
                r.get::<i64>(2)?,
                r.get::<i64>(3)?,
            ))
        },
    )?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The day `text` names (`YYYY-MM-DD`), else (none or empty) `default`.
///
/// Fails with `Invalid` naming `field` when the text is not a date (white
/// space included: only an empty value means the default).
pub(crate) fn day_or(field: &str, text: Option<&str>, default: Date) -> Result<Date> {
    match text.filter(|t| !t.is_empty()) {
        Some(t) => clock::parse_date(field, t),
        None => Ok(default),
    }
}

/// The day `text` names, else today in the company's time zone.
///
/// Fails with `Invalid` naming `field` when the text is not a date.
pub(crate) fn day_or_today(field: &str, text: Option<&str>, company: &Company) -> Result<Date> {
    day_or(field, text, company.today())
}

/// The last day of closed books, if any.
///
/// Fails only on a storage error.
pub fn closed_through(conn: &Connection, tenant: &Tenant) -> Result<Option<Date>> {
    Ok(conn
        .prepare_cached(
            "SELECT company_id, through FROM books_closed WHERE company_id = ?1 AND environment = ?2",
        )?
        .query_row(params![tenant.company_id, tenant.environment], |row| {
            Row::new(row, "books_closed").get(1)
        })
        .optional()?)
}

/// Whether figures through the end of `day` are final: the books are
/// closed through that day or later (else they are preliminary).
///
/// Fails only on a storage error.
pub fn is_final(conn: &Connection, tenant: &Tenant, day: Date) -> Result<bool> {
    Ok(closed_through(conn, tenant)?.is_some_and(|through| through >= day))
}

/// Refuses an act dated on or before the last closed day.
///
/// Fails with `Refused` naming the closing date.
pub fn check_open(conn: &Connection, tenant: &Tenant, date: Date) -> Result<()> {
    match closed_through(conn, tenant)? {
        Some(through) if date <= through => Err(Error::refused(Chart::Closed { through, date })),
        _ => Ok(()),
    }
}

/// What closing the books made.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Closed {
    pub company_id: String,
    pub environment: Environment,
    pub closed_through: Date,
    pub closed_at: String,
}

/// Closes the books through the day `through` (`YYYY-MM-DD`); closing only
/// ever moves forward. Recorded as `books.closed` by `actor`, the day as
/// given naming what was closed.
///
/// Fails with `Invalid` naming `through` when it is not a date, and
/// `Refused` when the books are already closed through a later day.
pub fn close(tx: &Tx, tenant: &Tenant, actor: &Actor, through: &str) -> Result<Closed> {
    let given = through;
    let through = clock::parse_date("through", through)?;
    if let Some(current) = closed_through(tx, tenant)? {
        if current > through {
            return Err(Error::refused(Chart::ClosingBack { current }));
        }
    }
    let now = clock::now();
    tx.execute(
        "INSERT INTO books_closed (company_id, environment, through, closed_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (company_id, environment) DO UPDATE SET through = excluded.through, closed_at = excluded.closed_at",
        params![tenant.company_id, tenant.environment, through, now],
    )?;
    audit::record(tx, tenant, actor, Act::BooksClosed, given)?;
    Ok(Closed {
        company_id: tenant.company_id.clone(),
        environment: tenant.environment,
        closed_through: through,
        closed_at: now,
    })
}
