//! The dunning run: every overdue invoice of the tenant due for its next
//! reminder on a day, with the amounts that reminder would state. A read:
//! it changes nothing (`send` records and mails what it proposes). Also
//! the reminders an invoice has had, for its page.

use jiff::civil::Date;
use rusqlite::{params, Connection};
use serde::Serialize;

use crate::books::company;
use crate::books::customers;
use crate::books::dunning::ladder::{self, Case, Last, Level, Proposal};
use crate::books::dunning::levels;
use crate::books::invoices::{stored_by_id, stored_by_number, Stored};
use crate::error::said::Dunning;
use crate::error::{Result, Said};
use crate::rules::catalogue;
use crate::rules::default_interest::{self, Debtor};
use crate::rules::iso::Currency;
use crate::rules::money::{Decimal, Money};
use crate::store::tenant::Tenant;

/// One proposal as every surface shows it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProposalView {
    pub number: String,
    pub invoice_id: String,
    pub customer: String,
    pub consumer: bool,
    pub due_on: Date,
    pub days_overdue: i64,
    pub level: u8,
    /// The level's title in the customer's language.
    pub title: String,
    pub open: Money,
    /// The reminder fees stated: the earlier reminders' and this level's.
    pub fee: Money,
    /// Default interest (0 when the level states none).
    pub interest: Money,
    /// The €40 flat sum (0 when not stated).
    pub flat_sum: Money,
    pub total: Money,
    pub interest_from: Option<Date>,
    pub interest_through: Option<Date>,
    pub interest_days: Option<i64>,
    /// The rate interest runs at now (base rate plus points).
    pub interest_percent: Option<Decimal>,
    pub new_due_on: Date,
    /// The last reminder sent, if any.
    pub last_level: Option<u8>,
    pub last_on: Option<Date>,
}

/// A run's answer.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Run {
    pub on: Date,
    pub proposals: Vec<ProposalView>,
    /// What a person should read before sending (a base-rate table that
    /// may be out of date); written as the console's sentences.
    #[serde(serialize_with = "catalogue::in_english")]
    pub warnings: Vec<Said>,
}

/// An invoice's place on the ladder, with what proposing needs.
pub(crate) struct Candidate {
    pub invoice: Stored,
    pub case: Case,
    pub customer: customers::Customer,
}

/// The last reminder of an invoice, if any.
///
/// Fails only on a storage error.
pub(crate) fn last_reminder(
    conn: &Connection,
    tenant: &Tenant,
    invoice_id: &str,
) -> Result<Option<Last>> {
    Ok(conn
        .prepare_cached(
            "SELECT level, on_day, fee FROM reminders
             WHERE invoice_id = ?1 AND company_id = ?2 AND environment = ?3 ORDER BY level DESC LIMIT 1",
        )?
        .query_row(params![invoice_id, tenant.company_id, tenant.environment], |r| {
            Ok(Last {
                level: r.get(0)?,
                on: r.get(1)?,
                fees: r.get(2)?,
            })
        })
        .map(Some)
        .or_else(|e| match e {
            rusqlite::Error::QueryReturnedNoRows => Ok(None),
            other => Err(other),
        })?)
}

/// The invoices of the tenant open and overdue on `on`, not cancelled, as
/// the ladder sees them, oldest due first.
///
/// Fails only on a storage error.
pub(crate) fn candidates(conn: &Connection, tenant: &Tenant, on: Date) -> Result<Vec<Candidate>> {
    let company = company::get(conn, &tenant.company_id)?;
    let ids: Vec<String> = conn
        .prepare_cached(
            "SELECT id FROM invoices
             WHERE company_id = ?1 AND environment = ?2 AND document_type = 'INVOICE'
               AND cancelled_by_id IS NULL AND outstanding > 0 AND due_on < ?3
             ORDER BY due_on, seq",
        )?
        .query_map(params![tenant.company_id, tenant.environment, on], |r| {
            r.get(0)
        })?
        .collect::<rusqlite::Result<_>>()?;
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        let invoice = stored_by_id(conn, tenant, &id)?;
        let customer = customers::get(conn, tenant, &invoice.customer_id)?;
        let case = Case {
            currency: invoice.currency.to_string(),
            in_book_currency: invoice.currency == company.currency,
            open: invoice.outstanding,
            due: invoice.due_on,
            debtor: if customer.consumer {
                Debtor::Consumer
            } else {
                Debtor::Business
            },
            last: last_reminder(conn, tenant, &id)?,
        };
        out.push(Candidate {
            invoice,
            case,
            customer,
        });
    }
    Ok(out)
}

/// The proposals of the tenant's invoices on `on`, each with its candidate.
///
/// Fails with `Refused` when interest is due for a day the base-rate
/// table has no rate for.
pub(crate) fn proposals(
    conn: &Connection,
    tenant: &Tenant,
    on: Date,
) -> Result<Vec<(Candidate, Proposal)>> {
    let levels: Vec<Level> = levels::levels(conn, &tenant.company_id)?;
    let table = levels::base_rate_table(conn, &tenant.company_id)?;
    let mut out = Vec::new();
    for c in candidates(conn, tenant, on)? {
        if let Some(p) = ladder::propose(&levels, &c.case, on, &table)? {
            out.push((c, p));
        }
    }
    Ok(out)
}

/// A proposal as shown.
pub(crate) fn view(c: &Candidate, p: &Proposal) -> ProposalView {
    let currency: &Currency = &c.invoice.currency;
    let lang = crate::books::sending::language_of(&c.customer);
    let money = |minor: i64| Money::new(minor, currency);
    let interest = p.interest.as_ref();
    ProposalView {
        number: c.invoice.number.clone(),
        invoice_id: c.invoice.id.clone(),
        customer: c.invoice.buyer.clone(),
        consumer: c.customer.consumer,
        due_on: c.invoice.due_on,
        days_overdue: default_interest::days_between(c.invoice.due_on, p.on),
        level: p.level.level,
        title: lang.pick(&p.level.title.0, &p.level.title.1).to_string(),
        open: money(p.open),
        fee: money(p.fee),
        interest: money(interest.map_or(0, |i| i.amount)),
        flat_sum: money(p.flat_sum.unwrap_or(0)),
        total: money(p.total()),
        interest_from: interest.map(|i| i.from),
        interest_through: interest.map(|i| i.through),
        interest_days: interest.map(|i| i.days),
        interest_percent: interest.and_then(|i| i.percent_now()),
        new_due_on: p.new_due,
        last_level: c.case.last.map(|l| l.level),
        last_on: c.case.last.map(|l| l.on),
    }
}

/// The dunning run on `on`: what would be sent, changing nothing.
///
/// Fails as `proposals` does.
pub fn run(conn: &Connection, tenant: &Tenant, on: Date) -> Result<Run> {
    let proposals = proposals(conn, tenant, on)?;
    let mut warnings = Vec::new();
    let table = levels::base_rate_table(conn, &tenant.company_id)?;
    if let Some(next) = default_interest::next_publication(&table) {
        if on >= next {
            warnings.push(Said::from(Dunning::BaseRateDue { next }));
        }
    }
    Ok(Run {
        on,
        proposals: proposals.iter().map(|(c, p)| view(c, p)).collect(),
        warnings,
    })
}

/// A reminder an invoice had, as its page shows it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReminderView {
    pub id: String,
    pub level: u8,
    pub on: Date,
    pub open: Money,
    pub fee: Money,
    pub interest: Money,
    pub interest_from: Option<Date>,
    pub interest_through: Option<Date>,
    pub interest_percent: Option<Decimal>,
    pub flat_sum: Money,
    pub total: Money,
    pub new_due_on: Date,
    pub mail_id: Option<String>,
}

/// The reminders of the invoice `number`, oldest first.
///
/// Fails with `NotFound` for a number the tenant does not have.
pub fn reminders(conn: &Connection, tenant: &Tenant, number: &str) -> Result<Vec<ReminderView>> {
    let invoice = stored_by_number(conn, tenant, number)?;
    let currency = invoice.currency.clone();
    let mut stmt = conn.prepare_cached(
        "SELECT id, level, on_day, open, fee, interest, interest_from, interest_through, interest_percent,
             flat_sum, new_due, mail_id
         FROM reminders WHERE invoice_id = ?1 AND company_id = ?2 AND environment = ?3 ORDER BY level",
    )?;
    let rows = stmt.query_map(
        params![invoice.id, tenant.company_id, tenant.environment],
        |r| {
            let money = |minor: i64| Money::new(minor, &currency);
            let open: i64 = r.get(3)?;
            let fee: i64 = r.get(4)?;
            let interest: i64 = r.get(5)?;
            let flat: Option<i64> = r.get(9)?;
            Ok(ReminderView {
                id: r.get(0)?,
                level: r.get(1)?,
                on: r.get(2)?,
                open: money(open),
                fee: money(fee),
                interest: money(interest),
                interest_from: r.get(6)?,
                interest_through: r.get(7)?,
                interest_percent: r.get(8)?,
                flat_sum: money(flat.unwrap_or(0)),
                total: money(open + fee + interest + flat.unwrap_or(0)),
                new_due_on: r.get(10)?,
                mail_id: r.get(11)?,
            })
        },
    )?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The PDF of a reminder of the tenant.
///
/// Fails with `NotFound` for an id the tenant does not have.
pub fn reminder_document(
    conn: &Connection,
    tenant: &Tenant,
    id: &str,
) -> Result<(String, Vec<u8>)> {
    conn.prepare_cached(
        "SELECT i.number, r.level, r.document FROM reminders r JOIN invoices i ON i.id = r.invoice_id
         WHERE r.id = ?1 AND r.company_id = ?2 AND r.environment = ?3",
    )?
    .query_row(params![id, tenant.company_id, tenant.environment], |r| {
        let number: String = r.get(0)?;
        let level: u8 = r.get(1)?;
        Ok((format!("{number}-reminder-{level}"), r.get::<_, Vec<u8>>(2)?))
    })
    .map_err(|e| match e {
        rusqlite::Error::QueryReturnedNoRows => crate::error::Error::not_found(crate::error::Said::Record(
            crate::error::said::Record::Reminder,
            id.to_string(),
        )),
        other => other.into(),
    })
}
