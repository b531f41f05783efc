//! Transactions (jobs with a workflow stage, no money, no legal consequence) of
//! one tenant: their checked input, numbering `V<year>-<seq>` per company,
//! environment and year, stages from the company's workflow, the list filters
//! (stage, full-text search, archived, period/from/to on the start date),
//! partial updates and notes. Every query is bound to a `Tenant`.

use jiff::civil::Date;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::books::audit::{self, Act, Actor};
use crate::books::company;
use crate::books::customers;
use crate::books::numbering;
use crate::error::said::{Job, Record};
use crate::error::{Error, Result, Said, Violations};
use crate::rules::text::{self, Patch};
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::paging::{Page, Paging, PAGE_LIMIT_SQL};
use crate::store::row::Row;
use crate::store::tenant::Tenant;

const MAX_TITLE: usize = 200;
/// The longest description of a transaction, and the longest note.
pub const MAX_DESCRIPTION: usize = 5000;
const MAX_ID: usize = 100;
const MAX_STAGE: usize = 40;
/// The longest text a list filter takes.
pub const MAX_FILTER: usize = 200;

/// A new transaction as a caller gives it.
#[derive(Debug, Default, Clone)]
pub struct TransactionInput {
    pub title: Option<String>,
    pub description: Option<String>,
    pub customer_id: Option<String>,
    pub due_on: Option<String>,
    pub stage: Option<String>,
}

/// A checked new transaction.
#[derive(Debug, Clone)]
pub struct NewTransaction {
    title: String,
    description: Option<String>,
    customer_id: Option<String>,
    due_on: Option<Date>,
    stage: Option<String>,
}

impl NewTransaction {
    /// Checks a new transaction: a title of 1–200 characters, a description
    /// of at most 5000, a due date `YYYY-MM-DD`. The customer and the stage
    /// are checked against the books when it is created.
    ///
    /// Fails with `Invalid` naming every field that is missing or malformed.
    pub fn check(input: TransactionInput) -> Result<NewTransaction> {
        let mut v = Violations::new();
        let title = v.take(text::required("title", input.title.as_deref(), MAX_TITLE))?;
        let description = v
            .take(text::optional(
                "description",
                input.description.as_deref(),
                MAX_DESCRIPTION,
            ))?
            .flatten();
        let customer_id = v
            .take(text::optional(
                "customerId",
                input.customer_id.as_deref(),
                MAX_ID,
            ))?
            .flatten();
        let due_on = v
            .take(optional_date("dueOn", input.due_on.as_deref()))?
            .flatten();
        let stage = v
            .take(text::optional("stage", input.stage.as_deref(), MAX_STAGE))?
            .flatten();
        v.finish()?;
        Ok(NewTransaction {
            title: title.unwrap_or_default(),
            description,
            customer_id,
            due_on,
            stage,
        })
    }
}

fn optional_date(field: &str, text: Option<&str>) -> Result<Option<Date>> {
    // Only an empty value means no filter; white space is no date.
    text.filter(|d| !d.is_empty())
        .map(|d| clock::parse_date(field, d))
        .transpose()
}

/// Creates a transaction and returns its id; recorded as `job.created` by
/// `actor`.
///
/// Fails with `NotFound` for a customer the tenant does not have, and with
/// `Refused` for a stage outside the company's workflow.
pub fn create(tx: &Tx, tenant: &Tenant, actor: &Actor, new: &NewTransaction) -> Result<String> {
    let company = company::get(tx, &tenant.company_id)?;
    if let Some(customer_id) = &new.customer_id {
        customers::name_of(tx, tenant, customer_id)?;
    }
    let stage = new
        .stage
        .clone()
        .unwrap_or_else(|| company.first_stage().to_string());
    company.check_stage(&stage)?;
    let started_on = company.today();
    let year = started_on.year();
    let seq = numbering::take(tx, tenant, &format!("transaction:{year}"), 1)?;
    let id = ids::new_id("txn");
    let now = clock::now();
    tx.prepare_cached(
        "INSERT INTO transactions (id, company_id, environment, number, title, description, stage, customer_id,
             due_on, started_on, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?11)",
    )?
    .execute(params![
        id,
        tenant.company_id,
        tenant.environment,
        format!("V{year}-{seq:04}"),
        new.title,
        new.description,
        stage,
        new.customer_id,
        new.due_on,
        started_on,
        now
    ])?;
    audit::record(tx, tenant, actor, Act::JobCreated, &id)?;
    Ok(id)
}

const SELECT: &str =
    "SELECT t.id, t.number, t.title, t.description, t.stage, t.customer_id, c.name, t.due_on,
            t.started_on, t.archived, t.created_at
     FROM transactions t LEFT JOIN customers c ON c.id = t.customer_id";

/// A transaction in its wire form; `customer` (the name) is absent without a customer.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TransactionRecord {
    pub id: String,
    pub number: String,
    pub title: String,
    pub description: Option<String>,
    pub stage: String,
    pub customer_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub customer: Option<String>,
    pub due_on: Option<Date>,
    pub started_on: Date,
    pub archived: bool,
    pub created_at: String,
}

fn from_row(row: &rusqlite::Row) -> rusqlite::Result<TransactionRecord> {
    let r = Row::new(row, "transactions");
    Ok(TransactionRecord {
        id: r.get(0)?,
        number: r.get(1)?,
        title: r.get(2)?,
        description: r.get(3)?,
        stage: r.get(4)?,
        customer_id: r.get(5)?,
        customer: r.get(6)?,
        due_on: r.get(7)?,
        started_on: r.get(8)?,
        archived: r.get(9)?,
        created_at: r.get(10)?,
    })
}

/// One transaction of the tenant in its wire form.
///
/// Fails with `NotFound` when the tenant has no transaction with this id.
pub fn get(conn: &Connection, tenant: &Tenant, id: &str) -> Result<TransactionRecord> {
    conn.prepare_cached(&format!(
        "{SELECT} WHERE t.id = ?1 AND t.company_id = ?2 AND t.environment = ?3"
    ))?
    .query_row(params![id, tenant.company_id, tenant.environment], from_row)
    .optional()?
    .ok_or_else(|| Error::not_found(Said::Record(Record::Transaction, id.to_string())))
}

/// The filters of a transaction list as a caller gives them.
#[derive(Debug, Default, Clone)]
pub struct FilterInput {
    pub stage: Option<String>,
    pub search: Option<String>,
    pub include_archived: Option<bool>,
    /// `YYYY`, `YYYY-Qn` or `YYYY-MM`.
    pub period: Option<String>,
    pub from: Option<String>,
    pub to: Option<String>,
}

/// The checked filters of a transaction list.
#[derive(Debug, Default)]
pub struct Filter {
    stage: Option<String>,
    search: Option<String>,
    include_archived: bool,
    /// Inclusive bounds on the start date.
    from: Option<Date>,
    to: Option<Date>,
}

/// Reads `YYYY`, `YYYY-Qn` or `YYYY-MM` into its first and last day.
///
/// Fails with `Invalid` naming the field `period` for any other text.
pub fn parse_period(text: &str) -> Result<(Date, Date)> {
    let bad = || Error::invalid("period", Job::NotPeriod);
    let year_of = |y: &str| -> Result<i16> {
        if y.len() == 4 && y.bytes().all(|b| b.is_ascii_digit()) {
            y.parse::<i16>().ok().filter(|y| *y >= 1).ok_or_else(bad)
        } else {
            Err(bad())
        }
    };
    let months = |year: i16, first: i8, last: i8| -> Result<(Date, Date)> {
        let start = Date::new(year, first, 1).map_err(|_| bad())?;
        let end = Date::new(year, last, 1).map_err(|_| bad())?.last_of_month();
        Ok((start, end))
    };
    match text.split_once('-') {
        None => months(year_of(text)?, 1, 12),
        Some((y, q)) if q.len() == 2 && (q.starts_with('Q') || q.starts_with('q')) => {
            let n: i8 = q[1..]
                .parse()
                .ok()
                .filter(|n| (1..=4).contains(n))
                .ok_or_else(bad)?;
            months(year_of(y)?, 3 * n - 2, 3 * n)
        }
        Some((y, m)) if m.len() == 2 && m.bytes().all(|b| b.is_ascii_digit()) => {
            let m: i8 = m
                .parse()
                .ok()
                .filter(|m| (1..=12).contains(m))
                .ok_or_else(bad)?;
            months(year_of(y)?, m, m)
        }
        Some(_) => Err(bad()),
    }
}

impl Filter {
    /// Checks the list filters; `period` and `from`/`to` intersect; blank
    /// text means no filter.
    ///
    /// Fails with `Invalid` naming every unreadable period, date or overlong text.
    pub fn check(input: FilterInput) -> Result<Filter> {
        let mut v = Violations::new();
        let mut filter_text = |field: &str, value: Option<String>| -> Result<Option<String>> {
            let value = value.filter(|s| !s.trim().is_empty());
            Ok(v.take(text::optional(field, value.as_deref(), MAX_FILTER))?
                .flatten())
        };
        let stage = filter_text("stage", input.stage)?;
        let search = filter_text("search", input.search)?;
        let mut from = v
            .take(optional_date("from", input.from.as_deref()))?
            .flatten();
        let mut to = v.take(optional_date("to", input.to.as_deref()))?.flatten();
        if let Some(period) = input.period.as_deref().filter(|p| !p.is_empty()) {
            if let Some((start, end)) = v.take(parse_period(period))? {
                from = Some(from.map_or(start, |f| f.max(start)));
                to = Some(to.map_or(end, |t| t.min(end)));
            }
        }
        v.finish()?;
        Ok(Filter {
            stage,
            search,
            include_archived: input.include_archived.unwrap_or(false),
            from,
            to,
        })
    }
}

/// Turns free text into an FTS5 query: every word a quoted prefix term, all
/// required. `None` when the text has no word in it.
fn fts_query(text: &str) -> Option<String> {
    let terms: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(16)
        .map(|w| format!("\"{w}\"*"))
        .collect();
    (!terms.is_empty()).then(|| terms.join(" "))
}

/// A page of the tenant's transactions, newest first.
///
/// Fails only on a storage error.
pub fn list(
    conn: &Connection,
    tenant: &Tenant,
    filter: &Filter,
    paging: Paging,
) -> Result<Page<TransactionRecord>> {
    const WHERE: &str = "t.company_id = ?1 AND t.environment = ?2
         AND (?3 IS NULL OR t.stage = ?3)
         AND (?4 OR t.archived = 0)
         AND (?5 IS NULL OR t.started_on >= ?5)
         AND (?6 IS NULL OR t.started_on <= ?6)
         AND (?7 IS NULL OR t.seq IN (SELECT rowid FROM transactions_fts WHERE transactions_fts MATCH ?7))";
    let search = filter.search.as_deref().and_then(fts_query);
    let args = params![
        tenant.company_id,
        tenant.environment,
        filter.stage,
        filter.include_archived,
        filter.from,
        filter.to,
        search
    ];
    let total: i64 = conn
        .prepare_cached(&format!(
            "SELECT count(*) FROM transactions t WHERE {WHERE}"
        ))?
        .query_row(args, |r| r.get(0))?;
    let data = conn
        .prepare_cached(&format!(
            "{SELECT} WHERE {WHERE} ORDER BY t.seq DESC {PAGE_LIMIT_SQL} OFFSET ?8"
        ))?
        .query_map(
            params![
                tenant.company_id,
                tenant.environment,
                filter.stage,
                filter.include_archived,
                filter.from,
                filter.to,
                search,
                paging.offset()
            ],
            from_row,
        )?
        .take(paging.size as usize)
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(paging.envelope(data, total))
}

/// A partial update as a caller gives it: each field left out, null or sent.
/// `customerId` (or `customer`) `"none"` removes the customer.
#[derive(Debug, Default, Clone)]
pub struct PatchInput {
    pub title: Patch<String>,
    pub description: Patch<String>,
    pub due_on: Patch<String>,
    pub stage: Patch<String>,
    pub customer_id: Patch<String>,
    /// Only `"none"` is accepted here.
    pub customer: Patch<String>,
    pub archived: Option<bool>,
}

/// A checked partial update.
#[derive(Debug, Default)]
pub struct Change {
    title: Option<String>,
    description: Option<Option<String>>,
    due_on: Option<Option<Date>>,
    stage: Option<String>,
    /// `Some(None)` removes the customer.
    customer_id: Option<Option<String>>,
    archived: Option<bool>,
}

impl Change {
    /// Checks a partial update: `title` and `stage` cannot be cleared,
    /// `description` and `dueOn` are cleared by null, `customerId` is an id or
    /// `none`/null to remove (also `customer: "none"`), `archived` a boolean.
    ///
    /// Fails with `Invalid` naming every field that cannot be read.
    pub fn check(input: PatchInput) -> Result<Change> {
        let mut v = Violations::new();
        let mut required = |field: &str, p: Patch<String>, max: usize| -> Result<Option<String>> {
            match p {
                Patch::Absent => Ok(None),
                Patch::Null => {
                    v.invalid(field, Job::CannotClear);
                    Ok(None)
                }
                Patch::Value(s) => Ok(v.take(text::required(field, Some(&s), max))?),
            }
        };
        let title = required("title", input.title, MAX_TITLE)?;
        let stage = required("stage", input.stage, MAX_STAGE)?;
        let mut clearable =
            |field: &str, p: Patch<String>, max: usize| -> Result<Option<Option<String>>> {
                Ok(match p {
                    Patch::Absent => None,
                    Patch::Null => Some(None),
                    Patch::Value(s) => v.take(text::required(field, Some(&s), max))?.map(Some),
                })
            };
        let description = clearable("description", input.description, MAX_DESCRIPTION)?;
        let due_text = clearable("dueOn", input.due_on, 10)?;
        let mut customer_id = clearable("customerId", input.customer_id, MAX_ID)?
            .map(|c| c.filter(|id| !id.eq_ignore_ascii_case("none")));
        let due_on = match due_text {
            None => None,
            Some(None) => Some(None),
            Some(Some(d)) => v.take(clock::parse_date("dueOn", &d))?.map(Some),
        };
        match input.customer {
            Patch::Absent => {}
            Patch::Value(c) if c.trim().eq_ignore_ascii_case("none") => {
                if matches!(customer_id, Some(Some(_))) {
                    v.invalid("customer", Job::NoneWithCustomer);
                }
                customer_id = Some(None);
            }
            _ => v.invalid("customer", Job::OnlyNone),
        }
        v.finish()?;
        Ok(Change {
            title,
            description,
            due_on,
            stage,
            customer_id,
            archived: input.archived,
        })
    }

    /// A change of the archived flag alone.
    pub fn archive(archived: bool) -> Change {
        Change {
            archived: Some(archived),
            ..Change::default()
        }
    }
}

struct Current {
    seq: i64,
    title: String,
    description: Option<String>,
    due_on: Option<Date>,
    stage: String,
    customer_id: Option<String>,
    archived: bool,
}

/// Applies a partial update; fields left out stay unchanged. Recorded by
/// `actor` as `job.moved` when the change names a stage, else as
/// `job.changed`.
///
/// Fails with `NotFound` for a transaction or customer the tenant does not
/// have, `WrongState` when anything but `archived` would change on an
/// archived transaction, and `Refused` for a stage outside the workflow.
pub fn update(tx: &Tx, tenant: &Tenant, actor: &Actor, id: &str, change: &Change) -> Result<()> {
    let current = tx
        .query_row(
            "SELECT id, seq, title, description, due_on, stage, customer_id, archived FROM transactions
             WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
            params![id, tenant.company_id, tenant.environment],
            |row| {
                let r = Row::new(row, "transactions");
                Ok(Current {
                    seq: r.get(1)?,
                    title: r.get(2)?,
                    description: r.get(3)?,
                    due_on: r.get(4)?,
                    stage: r.get(5)?,
                    customer_id: r.get(6)?,
                    archived: r.get(7)?,
                })
            },
        )
        .optional()?
        .ok_or_else(|| Error::not_found(Said::Record(Record::Transaction, id.to_string())))?;
    if let Some(Some(customer_id)) = &change.customer_id {
        customers::name_of(tx, tenant, customer_id)?;
    }
    let title = change.title.clone().unwrap_or(current.title.clone());
    let description = change
        .description
        .clone()
        .unwrap_or(current.description.clone());
    let due_on = change.due_on.unwrap_or(current.due_on);
    let stage = change.stage.clone().unwrap_or(current.stage.clone());
    let customer_id = change
        .customer_id
        .clone()
        .unwrap_or(current.customer_id.clone());
    let archived = change.archived.unwrap_or(current.archived);
    let content_changes = title != current.title
        || description != current.description
        || due_on != current.due_on
        || stage != current.stage
        || customer_id != current.customer_id;
    if current.archived && content_changes {
        return Err(Error::wrong_state(Job::Archived));
    }
    if stage != current.stage {
        company::get(tx, &tenant.company_id)?.check_stage(&stage)?;
    }
    if content_changes || archived != current.archived {
        tx.execute(
            "UPDATE transactions SET title = ?2, description = ?3, due_on = ?4, stage = ?5, customer_id = ?6,
                 archived = ?7, updated_at = ?8
             WHERE seq = ?1 AND company_id = ?9 AND environment = ?10",
            params![current.seq, title, description, due_on, stage, customer_id, archived, clock::now(),
                tenant.company_id, tenant.environment],
        )?;
    }
    let act = if change.stage.is_some() {
        Act::JobMoved
    } else {
        Act::JobChanged
    };
    audit::record(tx, tenant, actor, act, id)
}

/// A note on a transaction.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Note {
    pub id: String,
    pub text: String,
    pub author: String,
    pub created_at: String,
}

/// A transaction with its notes, oldest first (as `get_transaction` shows it).
#[derive(Debug, Clone, Serialize)]
pub struct WithNotes {
    #[serde(flatten)]
    pub transaction: TransactionRecord,
    pub notes: Vec<Note>,
}

/// The notes of a transaction of the tenant, oldest first.
///
/// Fails only on a storage error.
pub fn notes(conn: &Connection, tenant: &Tenant, transaction_id: &str) -> Result<Vec<Note>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, text, author, created_at FROM transaction_notes
         WHERE transaction_id = ?1 AND company_id = ?2 AND environment = ?3 ORDER BY seq",
    )?;
    let rows = stmt.query_map(
        params![transaction_id, tenant.company_id, tenant.environment],
        |row| {
            let r = Row::new(row, "transaction_notes");
            Ok(Note {
                id: r.get(0)?,
                text: r.get(1)?,
                author: r.get(2)?,
                created_at: r.get(3)?,
            })
        },
    )?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// One transaction of the tenant with its notes.
///
/// Fails with `NotFound` when the tenant has no transaction with this id.
pub fn get_with_notes(conn: &Connection, tenant: &Tenant, id: &str) -> Result<WithNotes> {
    Ok(WithNotes {
        transaction: get(conn, tenant, id)?,
        notes: notes(conn, tenant, id)?,
    })
}

/// A note as a caller gives it.
#[derive(Debug, Default, Clone)]
pub struct NoteInput {
    pub transaction_id: Option<String>,
    pub text: Option<String>,
}

/// A checked note.
#[derive(Debug, Clone)]
pub struct NewNote {
    transaction_id: String,
    text: String,
}

impl NewNote {
    /// Checks a note: the transaction's id and a text of 1 to 5000 characters.
    ///
    /// Fails with `Invalid` naming every field that is missing or too long.
    pub fn check(input: NoteInput) -> Result<NewNote> {
        let mut v = Violations::new();
        let transaction_id = v.take(text::required(
            "transactionId",
            input.transaction_id.as_deref(),
            MAX_ID,
        ))?;
        let text = v.take(text::required(
            "text",
            input.text.as_deref(),
            MAX_DESCRIPTION,
        ))?;
        v.finish()?;
        Ok(NewNote {
            transaction_id: transaction_id.unwrap_or_default(),
            text: text.unwrap_or_default(),
        })
    }

    pub fn transaction_id(&self) -> &str {
        &self.transaction_id
    }
}

/// Adds a note, signed `author` (the person's or the key's name), to a
/// transaction of the tenant; returns its id. Recorded as `job.noted` on the
/// transaction by `actor`.
///
/// Fails with `NotFound` for a transaction the tenant does not have.
pub fn add_note(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    note: &NewNote,
    author: &str,
) -> Result<String> {
    get(tx, tenant, &note.transaction_id)?;
    let id = ids::new_id("not");
    tx.prepare_cached(
        "INSERT INTO transaction_notes (id, company_id, environment, transaction_id, text, author, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![id, tenant.company_id, tenant.environment, note.transaction_id, note.text, author, clock::now()])?;
    audit::record(tx, tenant, actor, Act::JobNoted, &note.transaction_id)?;
    Ok(id)
}

/// A note of the tenant by id.
///
/// Fails with `NotFound` when the tenant has no such note.
pub fn note(conn: &Connection, tenant: &Tenant, id: &str) -> Result<Note> {
    conn.prepare_cached(
        "SELECT id, text, author, created_at FROM transaction_notes
         WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
    )?
    .query_row(params![id, tenant.company_id, tenant.environment], |row| {
        let r = Row::new(row, "transaction_notes");
        Ok(Note {
            id: r.get(0)?,
            text: r.get(1)?,
            author: r.get(2)?,
            created_at: r.get(3)?,
        })
    })
    .optional()?
    .ok_or_else(|| Error::not_found(Said::Record(Record::Note, id.to_string())))
}
