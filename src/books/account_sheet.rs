//! One account's postings over a period (*Kontoblatt*): every journal line
//! on a chart account (`statements`' mapping: the account a person chose,
//! else the one the ledger account and tax key land on), in date order,
//! with the document behind each entry (the invoice, bill or payment, as
//! the DATEV export names it), the balance before the period and the
//! running balance. What a statement's account opens to.

use std::collections::HashMap;

use jiff::civil::Date;
use rusqlite::{params, Connection};
use serde::Serialize;

use crate::books::export::datev;
use crate::books::ledger::{self, Account};
use crate::books::statements::Books;
use crate::error::said::{Chart, Input, Record};
use crate::error::{Error, Result, Said};
use crate::rules::iso::Currency;
use crate::store::row::Row;
use crate::store::tenant::Tenant;

/// The most lines a sheet shows; a longer period is refused with the
/// advice to ask for a shorter one.
pub const MAX_LINES: usize = 5_000;

/// One posting on the account.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Posting {
    pub date: Date,
    /// The ledger entry (the act's id: `inv_…`, `pur_…`, `pay_…`, …).
    pub entry: String,
    /// The document's number and what it is, as the DATEV export says it.
    pub document: String,
    pub text: String,
    pub debit: i64,
    pub credit: i64,
    /// The balance after this line, debit positive.
    pub balance: i64,
}

/// The account's postings over a period.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AccountSheet {
    pub account: String,
    pub number: u32,
    pub name: String,
    pub name_en: String,
    pub from: Date,
    pub to: Date,
    pub currency: Currency,
    /// The balance before `from`, debit positive (a profit and loss
    /// account's from the fiscal year's first day only).
    pub opening: i64,
    pub postings: Vec<Posting>,
    pub closing: i64,
}

/// The postings on the chart account `key` (`rent`, `revenue_19`, an own
/// account's number, or its number on the chart) over `from..=to`
/// (default: the fiscal year to today).
///
/// Fails with `NotFound` for an account not in the company's chart,
/// `Invalid` naming `from` or `to` for a day that does not read or a
/// period turned round, and `Refused` for more than `MAX_LINES` lines.
pub fn sheet(
    conn: &Connection,
    tenant: &Tenant,
    key: &str,
    from: Option<&str>,
    to: Option<&str>,
) -> Result<AccountSheet> {
    let books = Books::load(conn, tenant)?;
    let wanted = key.trim();
    let account = books
        .account(wanted)
        .ok()
        .or_else(|| wanted.parse::<u32>().ok().and_then(|n| books.numbered(n)))
        .ok_or_else(|| Error::not_found(Said::Record(Record::Account, wanted.to_string())))?
        .clone();
    let to = ledger::day_or("to", to, books.today)?;
    let from = ledger::day_or("from", from, books.fiscal.year_of(to))?;
    if from > to {
        return Err(Error::invalid("from", Input::AfterTo { from, to }));
    }
    // The balance before the period from the day sums (a profit and loss
    // account's since its fiscal year's first day); the journal is read
    // for the period alone.
    let opening = match from.yesterday() {
        Ok(before) => {
            let since = account
                .kind
                .in_profit_and_loss()
                .then(|| books.fiscal.year_of(from));
            match since {
                Some(first) if first > before => 0,
                since => books
                    .balances(conn, tenant, since, before)?
                    .get(&account.key)
                    .copied()
                    .unwrap_or(0),
            }
        }
        Err(_) => 0,
    };
    let mut stmt = conn.prepare_cached(
        "SELECT posted_on, entry, account, detail, chart, debit, credit FROM journal
         WHERE company_id = ?1 AND environment = ?2 AND posted_on BETWEEN ?3 AND ?4
         ORDER BY posted_on, seq",
    )?;
    let rows = stmt.query_map(
        params![tenant.company_id, tenant.environment, from, to],
        |row| {
            let r = Row::new(row, "journal");
            Ok((
                r.get::<Date>(0)?,
                r.get::<String>(1)?,
                r.get::<Account>(2)?,
                r.get::<String>(3)?,
                r.get::<String>(4)?,
                r.get::<i64>(5)?,
                r.get::<i64>(6)?,
            ))
        },
    )?;
    let mut postings: Vec<Posting> = Vec::new();
    for row in rows {
        let (date, entry, ledger_account, detail, chosen, debit, credit) = row?;
        if books.key_of(ledger_account, &detail, chosen) != account.key {
            continue;
        }
        if postings.len() == MAX_LINES {
            return Err(Error::refused(Chart::TooManyPostings {
                account: account.number,
                max: MAX_LINES,
                from,
                to,
            }));
        }
        postings.push(Posting {
            date,
            entry,
            document: String::new(),
            text: String::new(),
            debit,
            credit,
            balance: 0,
        });
    }
    let mut running = opening;
    // Each entry's document read once, however many lines it has here.
    let mut documents: HashMap<String, (String, String)> = HashMap::new();
    for p in &mut postings {
        running += p.debit - p.credit;
        p.balance = running;
        if !documents.contains_key(&p.entry) {
            let doc = datev::document(conn, tenant, &p.entry)?;
            documents.insert(p.entry.clone(), (doc.number, doc.text));
        }
        if let Some((number, text)) = documents.get(&p.entry) {
            p.document = number.clone();
            p.text = text.clone();
        }
    }
    Ok(AccountSheet {
        account: account.key.clone(),
        number: account.number,
        name: account.name_de.clone(),
        name_en: account.name_en.clone(),
        from,
        to,
        currency: books.currency.clone(),
        opening,
        postings,
        closing: running,
    })
}
