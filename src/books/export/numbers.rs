//! The account numbers a company's partners and bank accounts carry in its
//! tax adviser's chart: a customer's personal account (*Debitor*,
//! 10000–69999), a supplier's (*Kreditor*, 70000–99999), a bank account's
//! number (1200/1800 and the numbers after it). A number is given the first
//! time its partner or bank account appears in a DATEV export (the lowest
//! free number of its range) and kept from then on; an owner may give or
//! change a partner's number until the books' first DATEV export, never
//! after. Money not tied to one of the company's bank accounts lands on the
//! chart's first bank number, which is given to nobody.

use std::collections::HashMap;

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::books::audit::{self, Act, Actor};
use crate::books::chart_accounts;
use crate::books::export::bookings::Numbers;
use crate::error::said::{Export, Record};
use crate::error::{Error, Result, Said};
use crate::rules::skr::{self, Chart};
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::tenant::Tenant;

/// Which side of the books a partner's personal account is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum PartnerRole {
    /// Receivables: a *Debitor*.
    Customer,
    /// Payables: a *Kreditor*.
    Supplier,
}

impl PartnerRole {
    /// The ledger account the side's numbers are of.
    pub fn ledger(self) -> &'static str {
        match self {
            PartnerRole::Customer => "receivables",
            PartnerRole::Supplier => "payables",
        }
    }

    /// Reads `customer` or `supplier`.
    ///
    /// Fails with `Invalid` naming `field` for anything else.
    pub fn parse(field: &str, text: &str) -> Result<PartnerRole> {
        match text.trim().to_ascii_lowercase().as_str() {
            "customer" | "receivables" | "debitor" => Ok(PartnerRole::Customer),
            "supplier" | "payables" | "kreditor" => Ok(PartnerRole::Supplier),
            _ => Err(Error::invalid(
                field,
                crate::error::not_one_of(&["customer", "supplier"], text),
            )),
        }
    }
}

/// The range of numbers of `account` (`receivables`, `payables`, `bank`).
fn range(chart: Chart, account: &str) -> std::ops::RangeInclusive<u32> {
    match account {
        "receivables" => skr::CUSTOMERS,
        "payables" => skr::SUPPLIERS,
        _ => chart.first_bank()..=chart.first_bank() + skr::BANK_ACCOUNTS - 1,
    }
}

/// The numbers of one tenant's books, as given so far and as an export
/// gives more.
pub struct Book {
    chart: Chart,
    /// The chart's accounts by the key a journal line names them by.
    charted: HashMap<String, u32>,
    given: HashMap<(String, String), u32>,
    used: Vec<u32>,
    new: Vec<(String, String, u32)>,
}

impl Numbers for Book {
    fn number(&self, account: &str, detail: &str) -> Option<u32> {
        if account == "bank" && detail.is_empty() {
            return Some(self.chart.first_bank());
        }
        self.given
            .get(&(account.to_string(), detail.to_string()))
            .copied()
    }

    fn charted(&self, key: &str) -> Option<u32> {
        self.charted.get(key).copied()
    }
}

impl Book {
    /// The numbers given in the tenant's books.
    ///
    /// Fails only on a storage error.
    pub fn load(conn: &Connection, tenant: &Tenant, chart: Chart) -> Result<Book> {
        let mut stmt = conn.prepare_cached(
            "SELECT account, detail, number FROM account_numbers WHERE company_id = ?1 AND environment = ?2",
        )?;
        let rows = stmt.query_map(params![tenant.company_id, tenant.environment], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, u32>(2)?,
            ))
        })?;
        let mut given = HashMap::new();
        let mut used = Vec::new();
        for row in rows {
            let (account, detail, number) = row?;
            used.push(number);
            given.insert((account, detail), number);
        }
        let charted = chart_accounts::list(conn, &tenant.company_id)?
            .1
            .into_iter()
            .map(|a| (a.key, a.number))
            .collect();
        Ok(Book {
            chart,
            charted,
            given,
            used,
            new: Vec::new(),
        })
    }

    /// Gives the line's partner or bank account (`account` receivables,
    /// payables or bank, `detail` its id) the lowest free number of its
    /// range unless it has one; other accounts and lines naming none are
    /// left alone.
    ///
    /// Fails with `Refused` when the range is full.
    pub fn give(&mut self, account: &str, detail: &str) -> Result<()> {
        if detail.is_empty()
            || !matches!(account, "receivables" | "payables" | "bank")
            || self.number(account, detail).is_some()
        {
            return Ok(());
        }
        let range = range(self.chart, account);
        let Some(number) = skr::next_free(range.clone(), &self.used) else {
            return Err(Error::refused(Export::RangeFull {
                from: *range.start(),
                to: *range.end(),
                detail: detail.to_string(),
            }));
        };
        self.used.push(number);
        self.given
            .insert((account.to_string(), detail.to_string()), number);
        self.new
            .push((account.to_string(), detail.to_string(), number));
        Ok(())
    }

    /// Stores the numbers given since `load`, so they are kept.
    ///
    /// Fails only on a storage error.
    pub fn keep(&mut self, tx: &Tx, tenant: &Tenant) -> Result<()> {
        let now = clock::now();
        let mut stmt = tx.prepare_cached(
            "INSERT INTO account_numbers (company_id, environment, account, detail, number, given_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        for (account, detail, number) in self.new.drain(..) {
            stmt.execute(params![
                tenant.company_id,
                tenant.environment,
                account,
                detail,
                number,
                now
            ])?;
        }
        Ok(())
    }
}

/// When the tenant's books were first exported to DATEV (the instant), if
/// ever.
///
/// Fails only on a storage error.
pub fn first_export(conn: &Connection, tenant: &Tenant) -> Result<Option<String>> {
    Ok(conn
        .prepare_cached(
            "SELECT made_at FROM exports WHERE company_id = ?1 AND environment = ?2 AND kind = 'datev'
             ORDER BY seq LIMIT 1",
        )?
        .query_row(params![tenant.company_id, tenant.environment], |r| r.get(0))
        .optional()?)
}

/// Forgets the bank numbers given (the chart changed before any export).
///
/// Fails only on a storage error.
pub(crate) fn forget_banks(tx: &Tx, tenant: &Tenant) -> Result<()> {
    tx.execute(
        "DELETE FROM account_numbers WHERE company_id = ?1 AND environment = ?2 AND account = 'bank'",
        params![tenant.company_id, tenant.environment],
    )?;
    Ok(())
}

/// A partner's personal account number.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Given {
    pub partner_id: String,
    /// The partner's number in kontor (`K10001`).
    pub partner_number: String,
    pub name: String,
    pub side: PartnerRole,
    pub account: u32,
}

/// Every personal account number given in the tenant's books, by number.
///
/// Fails only on a storage error.
pub fn list(conn: &Connection, tenant: &Tenant) -> Result<Vec<Given>> {
    let mut stmt = conn.prepare_cached(
        "SELECT n.detail, c.number, c.name, n.account, n.number FROM account_numbers n
         JOIN customers c ON c.id = n.detail AND c.company_id = n.company_id AND c.environment = n.environment
         WHERE n.company_id = ?1 AND n.environment = ?2 AND n.account IN ('receivables', 'payables')
         ORDER BY n.number",
    )?;
    let rows = stmt.query_map(params![tenant.company_id, tenant.environment], |r| {
        let account: String = r.get(3)?;
        Ok(Given {
            partner_id: r.get(0)?,
            partner_number: r.get(1)?,
            name: r.get(2)?,
            side: if account == "receivables" {
                PartnerRole::Customer
            } else {
                PartnerRole::Supplier
            },
            account: r.get(4)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Gives a partner of the tenant's books (named by its id or its number,
/// `K10001`) the personal account `number` on `side` (a number it had is
/// replaced). Recorded as
/// `account_number.changed` by `actor`, the partner named.
///
/// Fails with `NotFound` for a partner the books do not have, `Invalid`
/// naming `number` outside the side's range, and `Refused` naming `number`
/// when another partner has it or the books were exported to DATEV already.
pub fn change(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    partner_id: &str,
    side: PartnerRole,
    number: u32,
) -> Result<Given> {
    let given = partner_id.trim();
    let known: Option<String> = tx
        .prepare_cached(
            "SELECT id FROM customers WHERE (id = ?1 OR number = ?1) AND company_id = ?2 AND environment = ?3",
        )?
        .query_row(params![given, tenant.company_id, tenant.environment], |r| {
            r.get(0)
        })
        .optional()?;
    let Some(partner_id) = known else {
        return Err(Error::not_found(Said::Record(
            Record::Customer,
            given.to_string(),
        )));
    };
    let partner_id = partner_id.as_str();
    let range = range(Chart::Skr03, side.ledger());
    if !range.contains(&number) {
        return Err(Error::invalid(
            "number",
            Export::NumberOutOfRange {
                supplier: side == PartnerRole::Supplier,
                from: *range.start(),
                to: *range.end(),
                got: number,
            },
        ));
    }
    if let Some(first) = first_export(tx, tenant)? {
        return Err(Error::refused_at(
            "number",
            Export::NumbersKept {
                on: first
                    .get(..10)
                    .and_then(|d| d.parse().ok())
                    .unwrap_or_default(),
            },
        ));
    }
    let holder: Option<String> = tx
        .prepare_cached(
            "SELECT detail FROM account_numbers WHERE company_id = ?1 AND environment = ?2 AND number = ?3
                 AND NOT (account = ?4 AND detail = ?5)",
        )?
        .query_row(
            params![tenant.company_id, tenant.environment, number, side.ledger(), partner_id],
            |r| r.get(0),
        )
        .optional()?;
    if let Some(holder) = holder {
        return Err(Error::refused_at(
            "number",
            Export::NumberTaken { number, holder },
        ));
    }
    tx.prepare_cached(
        "INSERT INTO account_numbers (company_id, environment, account, detail, number, given_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT (company_id, environment, account, detail)
         DO UPDATE SET number = excluded.number, given_at = excluded.given_at",
    )?
    .execute(params![
        tenant.company_id,
        tenant.environment,
        side.ledger(),
        partner_id,
        number,
        clock::now()
    ])?;
    audit::record(tx, tenant, actor, Act::AccountNumberChanged, partner_id)?;
    list(tx, tenant)?
        .into_iter()
        .find(|g| g.partner_id == partner_id && g.side == side)
        .ok_or_else(|| Error::internal("a number given is not found again"))
}
