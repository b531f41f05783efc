//! Where a list of lines stands: the statements its lines come from, each
//! with its bank account and the opening and closing balances the bank
//! gave, and each line's running balance, the statement's opening balance
//! plus its lines up to and including that one in the statement's order
//! (its entries as read, a batch's transactions within their entry). A
//! batch a camt.054 detailed counts by its transactions, which add up to
//! the entry; a statement without balances (a camt.054, some camt.052)
//! gives its lines none.

use std::collections::HashMap;

use jiff::civil::Date;
use rusqlite::{params, Connection};
use serde::Serialize;

use crate::books::bank::accounts::{self, BankAccount};
use crate::error::said::Record;
use crate::error::{Error, Result, Said};
use crate::store::row::Row;
use crate::store::tenant::Tenant;

/// A statement as a list of lines shows it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StatementView {
    /// The stored statement's id.
    pub id: String,
    /// The bank's id of the statement (camt `Stmt/Id`, MT940 `:20:`).
    pub statement_id: String,
    /// `statement`, `report`, `notification` or `mt940`.
    pub message: String,
    pub account: BankAccount,
    /// Signed minor units of the account's currency, as the bank gave them.
    pub opening: Option<i64>,
    pub opening_on: Option<Date>,
    pub closing: Option<i64>,
    pub closing_on: Option<Date>,
}

/// Where the lines of a list stand: their statements, and per line its
/// statement's id and its running balance.
#[derive(Debug, Clone, Default)]
pub struct Standing {
    /// The statements, in the order their lines were first named.
    pub statements: Vec<StatementView>,
    /// Line id → (stored statement id, the balance after the line, when the
    /// statement has an opening balance).
    pub lines: HashMap<String, (String, Option<i64>)>,
}

/// Where the tenant's lines `line_ids` stand (ids of other companies' or
/// unknown lines are left out).
///
/// Fails only on a storage error.
pub fn of_lines(conn: &Connection, tenant: &Tenant, line_ids: &[String]) -> Result<Standing> {
    if line_ids.is_empty() {
        return Ok(Standing::default());
    }
    let ids = serde_json::to_string(line_ids).map_err(Error::internal)?;
    let mut stmt = conn.prepare_cached(
        "WITH shown AS (
             SELECT DISTINCT e.statement_id FROM bank_lines l JOIN bank_entries e ON e.id = l.entry_id
             WHERE l.company_id = ?1 AND l.environment = ?2 AND l.id IN (SELECT value FROM json_each(?3))),
         running AS (
             SELECT l.id AS line_id, s.id AS statement,
                 s.opening + sum(l.amount) OVER (PARTITION BY s.id ORDER BY e.seq, l.seq ROWS UNBOUNDED PRECEDING)
                     AS balance
             FROM bank_lines l JOIN bank_entries e ON e.id = l.entry_id
             JOIN bank_statements s ON s.id = e.statement_id
             WHERE l.company_id = ?1 AND l.environment = ?2 AND l.state <> 'replaced'
               AND s.id IN (SELECT statement_id FROM shown))
         SELECT line_id, statement, balance FROM running
         WHERE line_id IN (SELECT value FROM json_each(?3))",
    )?;
    let rows = stmt.query_map(params![tenant.company_id, tenant.environment, ids], |row| {
        let r = Row::new(row, "bank_lines");
        Ok((
            r.get::<String>(0)?,
            r.get::<String>(1)?,
            r.get::<Option<i64>>(2)?,
        ))
    })?;
    let mut standing = Standing::default();
    for row in rows {
        let (line, statement, balance) = row?;
        standing.lines.insert(line, (statement, balance));
    }
    let mut order: Vec<&String> = Vec::new();
    for id in line_ids {
        if let Some((statement, _)) = standing.lines.get(id) {
            if !order.contains(&statement) {
                order.push(statement);
            }
        }
    }
    let mut statements = Vec::with_capacity(order.len());
    for id in order {
        statements.push(statement(conn, tenant, id)?);
    }
    standing.statements = statements;
    Ok(standing)
}

/// The stored statement `id` of the tenant with its account.
///
/// Fails with `NotFound` for an unknown statement.
fn statement(conn: &Connection, tenant: &Tenant, id: &str) -> Result<StatementView> {
    let (statement_id, message, account_id, opening, opening_on, closing, closing_on) = conn
        .prepare_cached(
            "SELECT statement_id, message, bank_account_id, opening, opening_on, closing, closing_on
             FROM bank_statements WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
        )?
        .query_row(params![id, tenant.company_id, tenant.environment], |row| {
            let r = Row::new(row, "bank_statements");
            Ok((
                r.get::<String>(0)?,
                r.get::<String>(1)?,
                r.get::<String>(2)?,
                r.get::<Option<i64>>(3)?,
                r.get::<Option<Date>>(4)?,
                r.get::<Option<i64>>(5)?,
                r.get::<Option<Date>>(6)?,
            ))
        })
        .map_err(|e| match e {
            rusqlite::Error::QueryReturnedNoRows => {
                Error::not_found(Said::Record(Record::BankStatement, id.to_string()))
            }
            other => other.into(),
        })?;
    Ok(StatementView {
        id: id.to_string(),
        statement_id,
        message,
        account: accounts::get(conn, tenant, &account_id)?,
        opening,
        opening_on,
        closing,
        closing_on,
    })
}
