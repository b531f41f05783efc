//! What needs a person's attention, most urgent first: overdue invoices
//! (saying which are due for their next reminder), bills due within 7 days
//! or overdue, drafts older than 14 days, transactions past their due date
//! outside the workflow's last stage, bank lines unmatched or suggested for
//! more than 3 days, and webhook endpoints whose last delivery failed;
//! and what is still open when the books are closed through a day
//! (`still_open`: bank lines not settled, drafts, bills waiting).
//! Read-only; bound to a `Tenant`.

use jiff::ToSpan;
use rusqlite::{params, Connection};
use serde::Serialize;

use jiff::civil::Date;

use crate::books::company;
use crate::books::document_kinds::PurchaseKind;
use crate::books::drafts::{DraftKind, DraftState};
use crate::books::dunning::run as dunning;
use crate::books::receipts;
use crate::error::{Error, Result};
use crate::outbox::endpoints::DeliveryState;
use crate::rules::iso::Currency;
use crate::rules::money::Money;
use crate::store::clock;
use crate::store::row::{self, Row};
use crate::store::tenant::Tenant;

/// One thing to look at.
#[derive(Debug, Clone, Serialize)]
pub struct Item {
    /// `overdue_invoice`, `bill_due`, `stale_draft`, `late_transaction`,
    /// `bank_line` or `failing_webhook`.
    pub kind: &'static str,
    pub id: String,
    pub sentence: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub amount: Option<Money>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<Date>,
    /// An overdue invoice due for its next reminder: that level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reminder_level: Option<u8>,
}

/// At most this many items of each kind.
const PER_KIND: i64 = 25;

/// What needs attention, as of a day.
#[derive(Debug, Clone, Serialize)]
pub struct Attention {
    pub as_of: Date,
    pub count: usize,
    pub items: Vec<Item>,
}

/// The list for the tenant, as of today in the company's time zone.
///
/// Fails only on a storage error.
pub fn list(conn: &Connection, tenant: &Tenant) -> Result<Attention> {
    let company = company::get(conn, &tenant.company_id)?;
    let today = company.today();
    let mut items = Vec::new();
    let t = (tenant.company_id.as_str(), tenant.environment);

    let mut stmt = conn.prepare_cached(
        "SELECT id, number, buyer_name, due_on, outstanding, currency FROM invoices
         WHERE company_id = ?1 AND environment = ?2 AND outstanding <> 0 AND due_on < ?3
         ORDER BY due_on, seq LIMIT ?4",
    )?;
    let rows = stmt.query_map(params![t.0, t.1, today, PER_KIND], |row| {
        let r = Row::new(row, "invoices");
        let (number, buyer, due): (String, String, Date) = (r.get(1)?, r.get(2)?, r.get(3)?);
        Ok(Item {
            kind: "overdue_invoice",
            id: r.get(0)?,
            sentence: format!("Invoice {number} to {buyer} was due on {due} and is not paid."),
            amount: Some(Money::new(r.get(4)?, &r.get(5)?)),
            date: Some(due),
            reminder_level: None,
        })
    })?;
    let overdue = rows.collect::<rusqlite::Result<Vec<_>>>()?;
    // Those due for their next reminder say so; a base-rate table without
    // a rate for a day of default leaves the reminders unsaid.
    let due_reminders = match dunning::run(conn, tenant, today) {
        Ok(run) => run.proposals,
        Err(Error::Refused(_)) => Vec::new(),
        Err(other) => return Err(other),
    };
    items.extend(overdue.into_iter().map(|mut item| {
        if let Some(p) = due_reminders.iter().find(|p| p.invoice_id == item.id) {
            item.sentence = format!(
                "{} It is due for its next reminder, level {} ({}).",
                item.sentence, p.level, p.title
            );
            item.reminder_level = Some(p.level);
        }
        item
    }));

    let soon = today.checked_add(7.days()).unwrap_or(today);
    let mut stmt = conn.prepare_cached(
        "SELECT p.id, p.document_number, c.name, p.due_on, p.outstanding, p.currency
         FROM purchases p JOIN customers c ON c.id = p.supplier_id
         WHERE p.company_id = ?1 AND p.environment = ?2 AND p.kind = ?5 AND p.outstanding <> 0 AND p.due_on <= ?3
         ORDER BY p.due_on, p.seq LIMIT ?4",
    )?;
    let rows = stmt.query_map(
        params![t.0, t.1, soon, PER_KIND, PurchaseKind::Bill],
        |row| {
            let r = Row::new(row, "purchases");
            let (number, supplier, due): (String, String, Date) = (r.get(1)?, r.get(2)?, r.get(3)?);
            let when = if due < today {
                format!("was due on {due}")
            } else {
                format!("is due on {due}")
            };
            Ok(Item {
                kind: "bill_due",
                id: r.get(0)?,
                sentence: format!("Bill {number} of {supplier} {when}."),
                amount: Some(Money::new(r.get(4)?, &r.get(5)?)),
                date: Some(due),
                reminder_level: None,
            })
        },
    )?;
    items.extend(rows.collect::<rusqlite::Result<Vec<_>>>()?);

    let old = jiff::Timestamp::now() - jiff::SignedDuration::from_hours(14 * 24);
    let mut stmt = conn.prepare_cached(
        "SELECT d.id, c.name, d.created_at, d.document_type FROM drafts d JOIN customers c ON c.id = d.customer_id
         WHERE d.company_id = ?1 AND d.environment = ?2 AND d.state = ?5 AND d.created_at < ?3
         ORDER BY d.created_at LIMIT ?4",
    )?;
    let rows = stmt.query_map(
        params![
            t.0,
            t.1,
            clock::format_instant(old),
            PER_KIND,
            DraftState::Draft
        ],
        |row| {
            let r = Row::new(row, "drafts");
            let (customer, created, kind): (String, jiff::Timestamp, DraftKind) =
                (r.get(1)?, r.get(2)?, r.get(3)?);
            let what = match kind {
                DraftKind::Quote => "quote",
                DraftKind::Invoice => "invoice",
            };
            let since = created.to_zoned(jiff::tz::TimeZone::UTC).date();
            Ok(Item {
                kind: "stale_draft",
                id: r.get(0)?,
                sentence: format!(
                    "A draft {what} for {customer} has waited since {since} without being issued."
                ),
                amount: None,
                date: Some(since),
                reminder_level: None,
            })
        },
    )?;
    items.extend(rows.collect::<rusqlite::Result<Vec<_>>>()?);

    let last_stage = company.last_stage();
    let mut stmt = conn.prepare_cached(
        "SELECT id, number, title, due_on, stage FROM transactions
         WHERE company_id = ?1 AND environment = ?2 AND archived = 0 AND due_on IS NOT NULL AND due_on < ?3 AND stage <> ?4
         ORDER BY due_on, seq LIMIT ?5",
    )?;
    let rows = stmt.query_map(params![t.0, t.1, today, last_stage, PER_KIND], |row| {
        let r = Row::new(row, "transactions");
        let (number, title, due, stage): (String, String, Date, String) =
            (r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?);
        Ok(Item {
            kind: "late_transaction",
            id: r.get(0)?,
            sentence: format!("{number} \"{title}\" was due on {due} and is still in {stage}."),
            amount: None,
            date: Some(due),
            reminder_level: None,
        })
    })?;
    items.extend(rows.collect::<rusqlite::Result<Vec<_>>>()?);

    // Bank lines nobody matched or confirmed for more than 3 days.
    let waited = today.checked_sub(3.days()).unwrap_or(today);
    let mut stmt = conn.prepare_cached(
        "SELECT id, state, amount, currency, booked_on, coalesce(counterparty_name, ''), remittance FROM bank_lines
         WHERE company_id = ?1 AND environment = ?2 AND state IN ('unmatched', 'suggested') AND booked_on < ?3
         ORDER BY booked_on, seq LIMIT ?4",
    )?;
    let rows = stmt.query_map(params![t.0, t.1, waited, PER_KIND], |row| {
        let r = Row::new(row, "bank_lines");
        let (state, booked, name, remittance): (String, Date, String, String) =
            (r.get(1)?, r.get(4)?, r.get(5)?, r.get(6)?);
        let who = if name.is_empty() {
            String::new()
        } else {
            format!(" from {name}")
        };
        let what = if state == "suggested" {
            "waits for a person to confirm a suggestion"
        } else {
            "matches no open invoice or bill"
        };
        Ok(Item {
            kind: "bank_line",
            id: r.get(0)?,
            sentence: format!("A bank line{who} booked on {booked} ({remittance:?}) {what}."),
            amount: Some(Money::new(r.get(2)?, &r.get(3)?)),
            date: Some(booked),
            reminder_level: None,
        })
    })?;
    items.extend(rows.collect::<rusqlite::Result<Vec<_>>>()?);

    let mut stmt = conn.prepare_cached(
        "SELECT w.id, w.url, d.last_error, d.state FROM webhook_endpoints w
         JOIN deliveries d ON d.seq = (SELECT max(x.seq) FROM deliveries x WHERE x.endpoint_id = w.id AND x.attempts > 0)
         WHERE w.company_id = ?1 AND w.environment = ?2 AND w.enabled = 1 AND d.last_error IS NOT NULL
         ORDER BY w.seq LIMIT ?3",
    )?;
    let rows = stmt.query_map(params![t.0, t.1, PER_KIND], |row| {
        let r = Row::new(row, "webhook_endpoints");
        let (url, error, state): (String, String, DeliveryState) =
            (r.get(1)?, r.get(2)?, r.get(3)?);
        let end = match state {
            DeliveryState::Failed => "gave up",
            _ => "is retrying",
        };
        Ok(Item {
            kind: "failing_webhook",
            id: r.get(0)?,
            sentence: format!(
                "The webhook endpoint {url} failed its last delivery ({error}) and {end}."
            ),
            amount: None,
            date: None,
            reminder_level: None,
        })
    })?;
    items.extend(rows.collect::<rusqlite::Result<Vec<_>>>()?);
    Ok(Attention {
        as_of: today,
        count: items.len(),
        items,
    })
}

/// One thing still open when the books are closed through a day.
#[derive(Debug, Clone, Serialize)]
pub struct Open {
    pub id: String,
    /// Its day: a bank line's booking day, a bill's date, a draft's or a
    /// receipt's arrival day.
    pub date: Option<Date>,
    /// Whom it concerns: the counterparty, the customer, the supplier and
    /// the bill's number, a receipt's file name.
    pub name: String,
    pub amount: Option<Money>,
}

/// Things of one kind still open: how many, and the oldest `PER_KIND` of them.
#[derive(Debug, Clone, Serialize)]
pub struct OpenList {
    pub count: i64,
    pub items: Vec<Open>,
}

/// What is still open when the books are closed through a day, each kind
/// oldest first.
#[derive(Debug, Clone, Serialize)]
pub struct StillOpen {
    /// Bank lines booked on or before the day, not settled (unmatched or
    /// with a suggestion not confirmed).
    pub bank_lines: OpenList,
    /// Invoice drafts not issued.
    pub drafts: OpenList,
    /// Received e-invoices dated on or before the day, neither booked nor
    /// refused.
    pub received_bills: OpenList,
    /// Receipts (plain PDFs and images) not typed as bills yet.
    pub receipts: OpenList,
}

impl StillOpen {
    /// Whether nothing is open.
    pub fn is_empty(&self) -> bool {
        self.bank_lines.count + self.drafts.count + self.received_bills.count + self.receipts.count
            == 0
    }
}

/// The day of an RFC 3339 moment (its first ten characters), if it is one.
fn day_of(at: &str) -> Option<Date> {
    at.get(..10).and_then(|d| d.parse().ok())
}

/// What is still open when the books are closed through `through`:
/// closing does not wait for it, but a person closing should know it.
/// Read-only.
///
/// Fails only on a storage error.
pub fn still_open(conn: &Connection, tenant: &Tenant, through: Date) -> Result<StillOpen> {
    let t = (tenant.company_id.as_str(), tenant.environment);
    // Each kind counted, and its oldest read as (id, day, name, amount,
    // currency); `with_day` when the count binds the day as ?3 (a list
    // binds ?1 to ?4 always, the limit as ?4); `priced` when each row has
    // an amount and a currency, read strictly (a draft has neither).
    let open = |table: &'static str,
                count: &str,
                list: &str,
                with_day: bool,
                priced: bool|
     -> Result<OpenList> {
        let mut stmt = conn.prepare_cached(count)?;
        let count = if with_day {
            stmt.query_row(params![t.0, t.1, through], |r| r.get(0))?
        } else {
            stmt.query_row(params![t.0, t.1], |r| r.get(0))?
        };
        let keys = params![t.0, t.1, through, PER_KIND];
        let items = row::all(conn, list, keys, table, |r| {
            let amount = if priced {
                let currency: Currency = r.get(4)?;
                Some(Money::new(r.get(3)?, &currency))
            } else {
                None
            };
            Ok(Open {
                id: r.get(0)?,
                date: r.get(1)?,
                name: r.get(2)?,
                amount,
            })
        })?;
        Ok(OpenList { count, items })
    };
    let bank_lines = open(
        "bank_lines",
        "SELECT count(*) FROM bank_lines WHERE company_id = ?1 AND environment = ?2
         AND state IN ('unmatched', 'suggested') AND coalesce(booked_on, value_on) <= ?3",
        "SELECT id, coalesce(booked_on, value_on), coalesce(nullif(counterparty_name, ''), remittance),
                amount, currency
         FROM bank_lines WHERE company_id = ?1 AND environment = ?2
         AND state IN ('unmatched', 'suggested') AND coalesce(booked_on, value_on) <= ?3
         ORDER BY coalesce(booked_on, value_on), seq LIMIT ?4",
        true,
        true,
    )?;
    // A draft's day is the day of its creation moment.
    let drafts = open(
        "drafts",
        "SELECT count(*) FROM drafts WHERE company_id = ?1 AND environment = ?2
         AND state = 'DRAFT' AND document_type = 'INVOICE'",
        "SELECT d.id, substr(d.created_at, 1, 10), c.name, NULL, NULL
         FROM drafts d JOIN customers c ON c.id = d.customer_id
         WHERE d.company_id = ?1 AND d.environment = ?2 AND d.state = 'DRAFT' AND d.document_type = 'INVOICE'
         ORDER BY d.seq LIMIT ?4",
        false,
        false,
    )?;
    let received_bills = open(
        "bills",
        "SELECT count(*) FROM bills WHERE company_id = ?1 AND environment = ?2
         AND state = 'received' AND issued_on <= ?3",
        "SELECT id, issued_on, supplier_name || ' ' || document_number, payable, currency
         FROM bills WHERE company_id = ?1 AND environment = ?2 AND state = 'received' AND issued_on <= ?3
         ORDER BY issued_on, seq LIMIT ?4",
        true,
        true,
    )?;
    let waiting = receipts::waiting(conn, tenant)?;
    let receipts = OpenList {
        count: i64::try_from(waiting.len()).unwrap_or(i64::MAX),
        items: waiting
            .into_iter()
            .take(usize::try_from(PER_KIND).unwrap_or(usize::MAX))
            .map(|w| Open {
                date: day_of(&w.received_at),
                id: w.file_id,
                name: w.file_name,
                amount: None,
            })
            .collect(),
    };
    Ok(StillOpen {
        bank_lines,
        drafts,
        received_bills,
        receipts,
    })
}
