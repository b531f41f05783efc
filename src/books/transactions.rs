//! Transactions (jobs with a workflow stage, no money, no legal consequence) of
//! one tenant: numbering `V<year>-<seq>` per company, environment and year,
//! stages from the company's workflow, the list filters (stage, full-text
//! search, archived, period/from/to on the start date), partial updates, and
//! the REST handlers. Every query is bound to a `Tenant`.

use jiff::civil::Date;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::books::company::{self, Company};
use crate::books::customers;
use crate::books::numbering;
use crate::error::{Error, Result};
use crate::http::fields::{Fields, Patch};
use crate::http::query::{Page, Paging, Query, PAGE_LIMIT_SQL};
use crate::http::rest::{Call, Reply};
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::tenant::Tenant;

const MAX_TITLE: usize = 200;
const MAX_DESCRIPTION: usize = 5000;

/// A checked new transaction.
pub struct NewTransaction {
    pub title: String,
    pub description: Option<String>,
    pub customer_id: Option<String>,
    pub due_on: Option<Date>,
    pub stage: Option<String>,
}

impl NewTransaction {
    /// Reads a create body.
    ///
    /// Fails with `BadRequest` naming the first missing, mistyped, malformed or unknown field.
    pub fn from_fields(mut f: Fields) -> Result<NewTransaction> {
        let title = f.required_text("title", MAX_TITLE)?;
        let description = f.optional_text("description", MAX_DESCRIPTION)?;
        let customer_id = f.optional_text("customerId", 100)?;
        let due_on = f
            .optional_text("dueOn", 10)?
            .map(|d| clock::parse_date("dueOn", &d))
            .transpose()?;
        let stage = f.optional_text("stage", 40)?;
        f.finish()?;
        Ok(NewTransaction {
            title,
            description,
            customer_id,
            due_on,
            stage,
        })
    }
}

fn check_stage(company: &Company, stage: &str) -> Result<()> {
    if company.workflow.iter().any(|s| s == stage) {
        Ok(())
    } else {
        Err(Error::refused(format!(
            "The stage {stage} is not in the company's workflow ({}).",
            company.workflow.join(", ")
        )))
    }
}

/// Creates a transaction and returns its id.
///
/// Fails with `NotFound` for a customer the tenant does not have, and with
/// `Refused` for a stage outside the company's workflow.
pub fn create(tx: &Tx, tenant: &Tenant, new: &NewTransaction) -> Result<String> {
    let company = company::get(tx, &tenant.company_id)?;
    if let Some(customer_id) = &new.customer_id {
        customers::name_of(tx, tenant, customer_id)?;
    }
    let stage = new
        .stage
        .clone()
        .unwrap_or_else(|| company.first_stage().to_string());
    check_stage(&company, &stage)?;
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
        tenant.env(),
        format!("V{year}-{seq:04}"),
        new.title,
        new.description,
        stage,
        new.customer_id,
        new.due_on.map(|d| d.to_string()),
        started_on.to_string(),
        now
    ])?;
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
    pub due_on: Option<String>,
    pub started_on: String,
    pub archived: bool,
    pub created_at: String,
}

fn from_row(r: &rusqlite::Row) -> rusqlite::Result<TransactionRecord> {
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
    .query_row(params![id, tenant.company_id, tenant.env()], from_row)
    .optional()?
    .ok_or_else(|| Error::not_found(format!("Transaction {id}")))
}

/// The filters of a transaction list.
#[derive(Debug, Default)]
pub struct Filter {
    pub stage: Option<String>,
    pub search: Option<String>,
    pub include_archived: bool,
    /// Inclusive bounds on the start date.
    pub from: Option<Date>,
    pub to: Option<Date>,
}

/// Reads `YYYY`, `YYYY-Qn` or `YYYY-MM` into its first and last day.
///
/// Fails with `BadRequest` for any other text.
pub fn parse_period(text: &str) -> Result<(Date, Date)> {
    let bad = || Error::bad_request("The parameter period must be YYYY, YYYY-Qn or YYYY-MM.");
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
    /// Reads the list parameters; `period` and `from`/`to` intersect.
    ///
    /// Fails with `BadRequest` for an unreadable period, date or boolean.
    pub fn from_query(q: &Query) -> Result<Filter> {
        let mut from = q
            .get("from")
            .map(|d| clock::parse_date("from", d))
            .transpose()?;
        let mut to = q
            .get("to")
            .map(|d| clock::parse_date("to", d))
            .transpose()?;
        if let Some(period) = q.get("period") {
            let (start, end) = parse_period(period)?;
            from = Some(from.map_or(start, |f| f.max(start)));
            to = Some(to.map_or(end, |t| t.min(end)));
        }
        Ok(Filter {
            stage: q.get("stage").map(str::to_string),
            search: q.get("search").map(str::to_string),
            include_archived: q.bool("includeArchived")?.unwrap_or(false),
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
    let from = filter.from.map(|d| d.to_string());
    let to = filter.to.map(|d| d.to_string());
    let args = params![
        tenant.company_id,
        tenant.env(),
        filter.stage,
        filter.include_archived,
        from,
        to,
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
                tenant.env(),
                filter.stage,
                filter.include_archived,
                from,
                to,
                search,
                paging.offset()
            ],
            from_row,
        )?
        .take(paging.size as usize)
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(paging.envelope(data, total))
}

/// A checked partial update.
#[derive(Debug, Default)]
pub struct Change {
    pub title: Option<String>,
    pub description: Option<Option<String>>,
    pub due_on: Option<Option<Date>>,
    pub stage: Option<String>,
    /// `Some(None)` removes the customer.
    pub customer_id: Option<Option<String>>,
    pub archived: Option<bool>,
}

impl Change {
    /// Reads a PATCH body: `title`, `description` (null clears), `dueOn` (null
    /// clears), `stage`, `customerId` (an id, or `none`/null to remove; also
    /// `customer: "none"`), `archived`.
    ///
    /// Fails with `BadRequest` naming the first mistyped, malformed or unknown field.
    pub fn from_fields(mut f: Fields) -> Result<Change> {
        let required = |name: &str, p: Patch<String>| match p {
            Patch::Absent => Ok(None),
            Patch::Null => Err(Error::bad_request(format!(
                "The field {name} cannot be cleared."
            ))),
            Patch::Value(v) => Ok(Some(v)),
        };
        let clearable = |p: Patch<String>| match p {
            Patch::Absent => None,
            Patch::Null => Some(None),
            Patch::Value(v) => Some(Some(v)),
        };
        let title = required("title", f.patch_text("title", MAX_TITLE)?)?;
        let description = clearable(f.patch_text("description", MAX_DESCRIPTION)?);
        let due_on = match clearable(f.patch_text("dueOn", 10)?) {
            None => None,
            Some(None) => Some(None),
            Some(Some(d)) => Some(Some(clock::parse_date("dueOn", &d)?)),
        };
        let stage = required("stage", f.patch_text("stage", 40)?)?;
        let mut customer_id = clearable(f.patch_text("customerId", 100)?)
            .map(|c| c.filter(|id| !id.eq_ignore_ascii_case("none")));
        match f.patch_text("customer", 10)? {
            Patch::Absent => {}
            Patch::Value(v) if v.eq_ignore_ascii_case("none") => {
                if matches!(customer_id, Some(Some(_))) {
                    return Err(Error::bad_request(
                        "customer: none and a customerId contradict each other.",
                    ));
                }
                customer_id = Some(None);
            }
            _ => {
                return Err(Error::bad_request(
                    "The field customer accepts only \"none\"; name a customer with customerId.",
                ))
            }
        }
        let archived = f.optional_bool("archived")?;
        f.finish()?;
        Ok(Change {
            title,
            description,
            due_on,
            stage,
            customer_id,
            archived,
        })
    }
}

struct Current {
    seq: i64,
    title: String,
    description: Option<String>,
    due_on: Option<String>,
    stage: String,
    customer_id: Option<String>,
    archived: bool,
}

/// Applies a partial update; fields left out stay unchanged.
///
/// Fails with `NotFound` for a transaction or customer the tenant does not
/// have, `WrongState` when anything but `archived` would change on an
/// archived transaction, and `Refused` for a stage outside the workflow.
pub fn update(tx: &Tx, tenant: &Tenant, id: &str, change: &Change) -> Result<()> {
    let current = tx
        .query_row(
            "SELECT seq, title, description, due_on, stage, customer_id, archived FROM transactions
             WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
            params![id, tenant.company_id, tenant.env()],
            |r| {
                Ok(Current {
                    seq: r.get(0)?,
                    title: r.get(1)?,
                    description: r.get(2)?,
                    due_on: r.get(3)?,
                    stage: r.get(4)?,
                    customer_id: r.get(5)?,
                    archived: r.get(6)?,
                })
            },
        )
        .optional()?
        .ok_or_else(|| Error::not_found(format!("Transaction {id}")))?;
    if let Some(Some(customer_id)) = &change.customer_id {
        customers::name_of(tx, tenant, customer_id)?;
    }
    let title = change.title.clone().unwrap_or(current.title.clone());
    let description = change
        .description
        .clone()
        .unwrap_or(current.description.clone());
    let due_on = change
        .due_on
        .map_or(current.due_on.clone(), |d| d.map(|d| d.to_string()));
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
        return Err(Error::wrong_state(
            "The transaction is archived; set archived to false before changing anything else.",
        ));
    }
    if stage != current.stage {
        check_stage(&company::get(tx, &tenant.company_id)?, &stage)?;
    }
    if content_changes || archived != current.archived {
        tx.execute(
            "UPDATE transactions SET title = ?2, description = ?3, due_on = ?4, stage = ?5, customer_id = ?6,
                 archived = ?7, updated_at = ?8
             WHERE seq = ?1",
            params![current.seq, title, description, due_on, stage, customer_id, archived, clock::now()],
        )?;
    }
    Ok(())
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

/// The notes of a transaction of the tenant, oldest first.
///
/// Fails only on a storage error.
pub fn notes(conn: &Connection, tenant: &Tenant, transaction_id: &str) -> Result<Vec<Note>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, text, author, created_at FROM transaction_notes
         WHERE transaction_id = ?1 AND company_id = ?2 AND environment = ?3 ORDER BY seq",
    )?;
    let rows = stmt.query_map(
        params![transaction_id, tenant.company_id, tenant.env()],
        |r| {
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

/// Adds a note to a transaction of the tenant; returns its id.
///
/// Fails with `NotFound` for a transaction the tenant does not have, and
/// `BadRequest` for an empty text or one over 5000 characters.
pub fn add_note(
    tx: &Tx,
    tenant: &Tenant,
    transaction_id: &str,
    text: &str,
    author: &str,
) -> Result<String> {
    get(tx, tenant, transaction_id)?;
    let text = text.trim();
    if text.is_empty() || text.chars().count() > MAX_DESCRIPTION {
        return Err(Error::bad_request(
            "A note needs a text of 1 to 5000 characters.",
        ));
    }
    let id = ids::new_id("not");
    tx.prepare_cached(
        "INSERT INTO transaction_notes (id, company_id, environment, transaction_id, text, author, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![id, tenant.company_id, tenant.env(), transaction_id, text, author, clock::now()])?;
    Ok(id)
}

/// GET /v1/transactions
pub fn http_list(call: &Call) -> Result<Reply> {
    let paging = call.query.paging()?;
    let filter = Filter::from_query(call.query)?;
    Ok(Reply::ok(
        &call.read(|conn| list(conn, call.tenant(), &filter, paging))?,
    ))
}

/// GET /v1/transactions/{id}
pub fn http_get(call: &Call, id: &str) -> Result<Reply> {
    Ok(Reply::ok(&call.read(|conn| get(conn, call.tenant(), id))?))
}

/// POST /v1/transactions
pub fn http_create(call: &Call) -> Result<Reply> {
    let (key, fingerprint, fields) = call.idempotent_body()?;
    let new = NewTransaction::from_fields(fields)?;
    let tenant = call.tenant();
    call.create_once(
        key,
        &fingerprint,
        |tx| create(tx, tenant, &new),
        |conn, id| get(conn, tenant, id),
    )
}

/// PATCH /v1/transactions/{id}
pub fn http_update(call: &Call, id: &str) -> Result<Reply> {
    let change = Change::from_fields(Fields::parse(call.body)?)?;
    let tenant = call.tenant();
    let body = call.app.db.write(|tx| {
        update(tx, tenant, id, &change)?;
        get(tx, tenant, id)
    })?;
    Ok(Reply::ok(&body))
}
