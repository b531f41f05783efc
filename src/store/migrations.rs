//! Bringing a data file to the schema this binary knows. A fresh file gets
//! `schema.sql` whole; an older one runs the numbered steps of `MIGRATIONS`
//! after its `PRAGMA user_version`, all in one `BEGIN IMMEDIATE` transaction
//! with foreign keys off (SQLite ignores the pragma inside a transaction), a
//! `PRAGMA foreign_key_check` before the version is set and the COMMIT, and
//! foreign keys on again afterwards. A file newer than the binary is refused.
//!
//! Migrations refuse, they never repair: a row that breaks a rule of the new
//! schema stops the migration with a sentence naming its table and id, the
//! transaction rolls back, and the file stays as it was. Only a process that
//! holds the data file's server lock (see `lock`), or takes it because no
//! server runs, migrates.
//!
//! Each step carries a frozen copy of the DDL it brings the file to, so
//! `schema.sql` may move on; after the steps, a file is structurally the same
//! as a fresh one (a test compares them).

use std::path::Path;

use rusqlite::types::Value;
use rusqlite::{ffi, params_from_iter, Connection, OptionalExtension};

use crate::error::{Error, Result};
use crate::store::db::SCHEMA;
use crate::store::lock::ServerLock;

/// One migration step: it brings a data file from version `number - 1` to
/// `number`, inside the runner's transaction.
pub struct Migration {
    /// The version the step brings a file to; steps are numbered in merge
    /// order, consecutively from 2 (version 1 is the first schema).
    pub number: i64,
    /// What the step changes, in one line.
    pub summary: &'static str,
    run: fn(&Connection) -> Result<(), Stop>,
}

/// Every step, in order. The last number is the current schema version.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        number: 2,
        summary: concat!(
            "references carry company and environment; amounts their sign, currencies their shape; ",
            "one invoice per draft; a payment names its invoice or bill; credit applications"
        ),
        run: to_2,
    },
    Migration {
        number: 3,
        summary: concat!(
            "the seller's particulars on companies; buyer reference, electronic address and ",
            "e-invoice format on customers; buyer and order reference and delivery period on drafts"
        ),
        run: to_3,
    },
    Migration {
        number: 4,
        summary: "people, their roles in companies, their sessions, and the audit of who did what",
        run: to_4,
    },
    Migration {
        number: 5,
        summary: concat!(
            "lines carry unit and VAT category, frozen on invoices; invoices keep their documents; ",
            "invoices issued before have none and say so"
        ),
        run: to_5,
    },
    Migration {
        number: 6,
        summary: "a person's membership can be disabled; one-time links for invitations and password resets",
        run: to_6,
    },
    Migration {
        number: 7,
        summary: "a count of changes to each company's partners, kept by triggers",
        run: to_7,
    },
];

/// The schema version this binary writes and understands: the last step's
/// number, which `db::SCHEMA_VERSION` must name too (checked when compiling).
pub const CURRENT: i64 = match MIGRATIONS.last() {
    Some(last) => last.number,
    None => 1,
};

/// Whether `steps` are numbered 2, 3, 4, … with no number missing or twice.
pub const fn numbered_consecutively(steps: &[Migration]) -> bool {
    let mut i = 0;
    while i < steps.len() {
        if steps[i].number != i as i64 + 2 {
            return false;
        }
        i += 1;
    }
    true
}

const _: () = assert!(
    numbered_consecutively(MIGRATIONS),
    "MIGRATIONS must be numbered 2, 3, 4, … with no number missing or twice"
);
const _: () = assert!(
    CURRENT == crate::store::db::SCHEMA_VERSION,
    "the last step of MIGRATIONS must bring a file to db::SCHEMA_VERSION"
);

/// Why a step stopped.
#[derive(Debug)]
enum Stop {
    /// A row breaks a rule of the new schema: "<table> row <id> <what>".
    Row(String),
    Storage(rusqlite::Error),
}

impl From<rusqlite::Error> for Stop {
    fn from(e: rusqlite::Error) -> Self {
        Stop::Storage(e)
    }
}

fn user_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("PRAGMA user_version", [], |r| r.get(0))
}

/// Brings the data file open on `conn` (found at `path`) to `CURRENT`: a
/// fresh file (version 0) gets `schema.sql`; an older one the steps after
/// its version, under the data file's lock. Call it before any other
/// connection uses the file.
///
/// Fails when the file is newer than this binary; when another process holds
/// the lock of a file that needs migrating; when a row breaks a rule of the
/// new schema (nothing is changed then); and on a storage error.
pub fn bring_up(conn: &Connection, path: &Path) -> Result<()> {
    let version = user_version(conn)?;
    if version > CURRENT {
        return Err(newer(version));
    }
    if version == CURRENT {
        return Ok(());
    }
    if version == 0 {
        return create(conn);
    }
    let _lock = ServerLock::migrate(path, version, CURRENT)?;
    conn.execute_batch("PRAGMA foreign_keys = OFF")?;
    let migrated = migrate(conn);
    let restored = conn.execute_batch("PRAGMA foreign_keys = ON");
    migrated?;
    Ok(restored?)
}

fn newer(version: i64) -> Error {
    Error::refused(format!(
        "The data file has schema version {version}, but this kontor knows only up to {CURRENT}; use a newer kontor."
    ))
}

/// A fresh file: the whole current schema, in one transaction.
fn create(conn: &Connection) -> Result<()> {
    conn.execute_batch("BEGIN IMMEDIATE")?;
    let created = (|| {
        // Another process may have created it meanwhile.
        if user_version(conn)? == 0 {
            conn.execute_batch(SCHEMA)?;
            conn.execute_batch(&format!("PRAGMA user_version = {CURRENT}"))?;
        }
        Ok::<_, rusqlite::Error>(())
    })();
    finish(conn, created.map_err(Error::from))
}

/// COMMITs when `outcome` is a success, else rolls back.
fn finish(conn: &Connection, outcome: Result<()>) -> Result<()> {
    match outcome {
        Ok(()) => match conn.execute_batch("COMMIT") {
            Ok(()) => Ok(()),
            Err(e) => {
                let _ = conn.execute_batch("ROLLBACK");
                Err(e.into())
            }
        },
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK");
            Err(e)
        }
    }
}

/// The steps after the file's version, the foreign-key check and the new
/// version, in one transaction (foreign keys are off).
fn migrate(conn: &Connection) -> Result<()> {
    conn.execute_batch("BEGIN IMMEDIATE")?;
    let outcome = (|| {
        let version = user_version(conn)?;
        if version > CURRENT {
            return Err(newer(version));
        }
        let cannot = |stop: Stop| match stop {
            Stop::Row(row) => Error::refused(format!(
                "The data file cannot be brought to version {CURRENT}: {row}. Nothing was changed."
            )),
            Stop::Storage(e) => Error::internal(format!(
                "cannot bring the data file to version {CURRENT} (nothing was changed): {e}"
            )),
        };
        for step in MIGRATIONS.iter().filter(|s| s.number > version) {
            (step.run)(conn).map_err(cannot)?;
        }
        if let Some(row) = foreign_key_problem(conn)? {
            return Err(cannot(Stop::Row(row)));
        }
        conn.execute_batch(&format!("PRAGMA user_version = {CURRENT}"))?;
        Ok(())
    })();
    finish(conn, outcome)
}

/// Quotes an SQL identifier.
fn q(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// The expression naming a row of `table` in a sentence: its `id`, else its
/// primary key ("with seq 12", "with company_id org_…, series customer").
fn row_name_sql(conn: &Connection, table: &str) -> rusqlite::Result<String> {
    let mut columns = Vec::new();
    let mut key = Vec::new();
    let mut stmt = conn.prepare("SELECT name, pk FROM pragma_table_info(?1) ORDER BY cid")?;
    let rows = stmt.query_map([table], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?))
    })?;
    for row in rows {
        let (name, pk) = row?;
        if pk > 0 {
            key.push((pk, name.clone()));
        }
        columns.push(name);
    }
    if columns.iter().any(|c| c == "id") {
        return Ok("id".into());
    }
    key.sort();
    let parts: Vec<String> = key
        .iter()
        .map(|(_, name)| {
            format!(
                "'{} ' || coalesce({}, 'NULL')",
                name.replace('\'', "''"),
                q(name)
            )
        })
        .collect();
    Ok(if parts.is_empty() {
        "'with rowid ' || rowid".into()
    } else {
        format!("'with ' || {}", parts.join(" || ', ' || "))
    })
}

/// "<table> row <name>".
fn row_label(table: &str, name: &str) -> String {
    format!("{table} row {name}")
}

/// What a constraint failure says about the row that caused it.
fn what_broke(e: &rusqlite::Error) -> Option<String> {
    let rusqlite::Error::SqliteFailure(failure, message) = e else {
        return None;
    };
    if failure.code != ffi::ErrorCode::ConstraintViolation {
        return None;
    }
    let message = message.clone().unwrap_or_default();
    let detail = message
        .split_once(": ")
        .map_or(message.as_str(), |(_, d)| d)
        .trim()
        .to_string();
    let column = |qualified: &str| {
        qualified
            .trim()
            .split_once('.')
            .map_or(qualified.trim(), |(_, c)| c)
            .to_string()
    };
    Some(match failure.extended_code {
        ffi::SQLITE_CONSTRAINT_CHECK => check_sentence(&detail),
        ffi::SQLITE_CONSTRAINT_UNIQUE | ffi::SQLITE_CONSTRAINT_PRIMARYKEY => {
            let columns: Vec<String> = detail.split(',').map(column).collect();
            format!("repeats the {} of another row", columns.join(", "))
        }
        ffi::SQLITE_CONSTRAINT_NOTNULL => format!("has no {}", column(&detail)),
        _ => format!("cannot be kept ({message})"),
    })
}

/// A CHECK constraint's expression, said for a person.
fn check_sentence(expression: &str) -> String {
    let e = expression.split_whitespace().collect::<Vec<_>>().join(" ");
    if e.contains("GLOB '[A-Z][A-Z][A-Z]'") {
        return "has a currency that is not three capital letters".into();
    }
    if e.contains("environment IN") {
        return "has an environment other than PRODUCTION or SANDBOX".into();
    }
    if e.contains("direction = 'in'") {
        return "names a document that does not match its direction (money in pays an invoice, money out a bill)"
            .into();
    }
    if e.contains("state = 'ISSUED'") {
        return "is ISSUED without naming an invoice, or names one without being ISSUED".into();
    }
    if e == "gross = net + tax" {
        return "has a gross amount other than net plus tax".into();
    }
    if e.contains("document_type <> 'INVOICE'") || e.contains("kind <> 'bill'") {
        return "has an amount of the wrong sign, or owes more than its total".into();
    }
    if e.contains("document_type <> 'CORRECTION'") || e.contains("kind <> 'credit'") {
        return "has an amount of the wrong sign, or more left open than its total".into();
    }
    if let Some(column) = e.strip_suffix(" > 0") {
        return format!("has {} that is not positive", with_article(column));
    }
    if let Some(column) = e.strip_suffix(" >= 0") {
        return format!("has a negative {column}");
    }
    format!("breaks the rule CHECK ({e})")
}

/// "an amount", "a customer".
fn with_article(noun: &str) -> String {
    let article = if noun.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {noun}")
}

/// One row of `table` in words: "a customer", "an invoice", "a company",
/// "a webhook endpoint".
fn a_row_of(table: &str) -> String {
    let singular = if let Some(stem) = table.strip_suffix("ies") {
        format!("{stem}y")
    } else {
        table.strip_suffix('s').unwrap_or(table).to_string()
    };
    with_article(&singular.replace('_', " "))
}

/// The first row `PRAGMA foreign_key_check` finds, as "<table> row <id>
/// points to …".
fn foreign_key_problem(conn: &Connection) -> rusqlite::Result<Option<String>> {
    let first = conn
        .prepare("PRAGMA foreign_key_check")?
        .query_row([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, Option<i64>>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?,
            ))
        })
        .optional()?;
    let Some((table, rowid, parent, fk)) = first else {
        return Ok(None);
    };
    let mut pairs: Vec<(String, String)> = Vec::new();
    let mut stmt = conn.prepare(
        "SELECT \"from\", coalesce(\"to\", 'id') FROM pragma_foreign_key_list(?1) WHERE id = ?2 ORDER BY seq",
    )?;
    for pair in stmt.query_map(rusqlite::params![table, fk], |r| Ok((r.get(0)?, r.get(1)?)))? {
        pairs.push(pair?);
    }
    let Some((from, to)) = pairs.first().cloned() else {
        return Ok(Some(format!("{table} has a broken reference to {parent}")));
    };
    let name_sql = row_name_sql(conn, &table)?;
    let select = format!("SELECT {name_sql}, {} FROM {} AS c", q(&from), q(&table));
    let row: Option<(String, Value)> = match rowid {
        Some(rowid) => conn
            .query_row(&format!("{select} WHERE c.rowid = ?1"), [rowid], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()?,
        None => {
            // WITHOUT ROWID tables: find a row whose reference matches no parent.
            let present: Vec<String> = pairs
                .iter()
                .map(|(f, _)| format!("c.{} IS NOT NULL", q(f)))
                .collect();
            let matching: Vec<String> = pairs
                .iter()
                .map(|(f, t)| format!("p.{} = c.{}", q(t), q(f)))
                .collect();
            conn.query_row(
                &format!(
                    "{select} WHERE {} AND NOT EXISTS (SELECT 1 FROM {} AS p WHERE {}) LIMIT 1",
                    present.join(" AND "),
                    q(&parent),
                    matching.join(" AND ")
                ),
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?
        }
    };
    let Some((name, reference)) = row else {
        return Ok(Some(format!("{table} has a broken reference to {parent}")));
    };
    let shown = match &reference {
        Value::Text(t) => t.clone(),
        Value::Integer(i) => i.to_string(),
        _ => "?".into(),
    };
    let exists: bool = conn.query_row(
        &format!(
            "SELECT EXISTS (SELECT 1 FROM {} WHERE {} = ?1)",
            q(&parent),
            q(&to)
        ),
        [&reference],
        |r| r.get(0),
    )?;
    let whose = if exists && pairs.len() > 1 {
        "of another company or environment"
    } else {
        "that does not exist"
    };
    Ok(Some(format!(
        "{} points to {} ({shown}) {whose}",
        row_label(&table, &name),
        a_row_of(&parent)
    )))
}

/// The objects a schema text creates, read from an in-memory database made
/// from it: (type, name, tbl_name, sql), in the order the text creates them.
struct Catalog(Vec<(String, String, String, String)>);

impl Catalog {
    fn of(schema: &str) -> rusqlite::Result<Catalog> {
        let scratch = Connection::open_in_memory()?;
        scratch.execute_batch(schema)?;
        let mut stmt = scratch.prepare(
            "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid",
        )?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
        Ok(Catalog(rows.collect::<rusqlite::Result<_>>()?))
    }

    fn table(&self, table: &str) -> rusqlite::Result<&str> {
        self.0
            .iter()
            .find(|(kind, name, _, _)| kind == "table" && name == table)
            .map(|(_, _, _, sql)| sql.as_str())
            .ok_or_else(|| {
                rusqlite::Error::InvalidParameterName(format!(
                    "no table {table} in the target schema"
                ))
            })
    }

    /// The indexes and triggers of `table`.
    fn dependents<'a>(&'a self, table: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.dependents_named(table).map(|(_, sql)| sql)
    }

    /// The indexes and triggers of `table`, with their names.
    fn dependents_named<'a>(
        &'a self,
        table: &'a str,
    ) -> impl Iterator<Item = (&'a str, &'a str)> + 'a {
        self.0
            .iter()
            .filter(move |(kind, _, of, _)| kind != "table" && of == table)
            .map(|(_, name, _, sql)| (name.as_str(), sql.as_str()))
    }
}

/// Creates `table` of the target schema as `new_<table>`.
fn create_new(conn: &Connection, target: &Catalog, table: &str) -> rusqlite::Result<String> {
    let sql = target.table(table)?;
    let head = format!("CREATE TABLE {table} (");
    let new = format!("new_{table}");
    let Some(rest) = sql.strip_prefix(&head) else {
        return Err(rusqlite::Error::InvalidParameterName(format!(
            "the target's {table} does not begin with {head}"
        )));
    };
    conn.execute_batch(&format!("CREATE TABLE {new} ({rest}"))?;
    Ok(new)
}

/// Rebuilds `table` the SQLite way (create the new table, copy every row with
/// its rowid, drop the old one, rename the new one, recreate its indexes and
/// triggers). Columns are copied by name unless `computed` gives an
/// expression over the old table for one.
fn rebuild(
    conn: &Connection,
    target: &Catalog,
    table: &str,
    computed: &[(&str, &str, &str)],
) -> Result<(), Stop> {
    let new = create_new(conn, target, table)?;
    let mut columns = Vec::new();
    let mut stmt = conn.prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid")?;
    for name in stmt.query_map([&new], |r| r.get::<_, String>(0))? {
        columns.push(name?);
    }
    let sources: Vec<String> = columns
        .iter()
        .map(|c| {
            computed
                .iter()
                .find(|(t, column, _)| *t == table && column == c)
                .map_or_else(|| q(c), |(_, _, expression)| format!("({expression})"))
        })
        .collect();
    let list = columns.iter().map(|c| q(c)).collect::<Vec<_>>().join(", ");
    let copied = conn.execute(
        &format!(
            "INSERT INTO {} ({list}) SELECT {} FROM {}",
            q(&new),
            sources.join(", "),
            q(table)
        ),
        [],
    );
    if let Err(e) = copied {
        return Err(match what_broke(&e) {
            Some(_) => Stop::Row(offending_row(conn, table, &new, &list, &sources)?),
            None => Stop::Storage(e),
        });
    }
    conn.execute_batch(&format!(
        "DROP TABLE {}; ALTER TABLE {} RENAME TO {};",
        q(table),
        q(&new),
        q(table)
    ))?;
    for sql in target.dependents(table) {
        conn.execute_batch(sql)?;
    }
    Ok(())
}

/// After a bulk copy failed on a constraint: copies row by row, in the old
/// table's order, and names the first row that fails and why.
fn offending_row(
    conn: &Connection,
    table: &str,
    new: &str,
    list: &str,
    sources: &[String],
) -> Result<String, Stop> {
    let name_sql = row_name_sql(conn, table)?;
    let mut read = conn.prepare(&format!(
        "SELECT {name_sql}, {} FROM {}",
        sources.join(", "),
        q(table)
    ))?;
    let width = sources.len();
    let marks = vec!["?"; width].join(", ");
    let mut write = conn.prepare(&format!("INSERT INTO {} ({list}) VALUES ({marks})", q(new)))?;
    let mut rows = read.query([])?;
    while let Some(row) = rows.next()? {
        let name: String = row.get(0)?;
        let values = (1..=width)
            .map(|i| row.get::<_, Value>(i))
            .collect::<rusqlite::Result<Vec<_>>>()?;
        if let Err(e) = write.execute(params_from_iter(values)) {
            return match what_broke(&e) {
                Some(what) => Ok(format!("{} {what}", row_label(table, &name))),
                None => Err(Stop::Storage(e)),
            };
        }
    }
    Ok(format!(
        "{table} cannot be copied, though each of its rows can"
    ))
}

/// Creates `table` and its indexes and triggers from the target schema.
fn create_table(conn: &Connection, target: &Catalog, table: &str) -> rusqlite::Result<()> {
    conn.execute_batch(target.table(table)?)?;
    for sql in target.dependents(table) {
        conn.execute_batch(sql)?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Step 2 (1 → 2): composite tenant references, sign and shape CHECKs, one
// invoice per draft, payments naming their invoice or bill, credit
// applications, the customers' search index.

/// Tables whose definition changed in version 2; each is rebuilt.
const REBUILT_IN_2: &[&str] = &[
    "companies",
    "counters",
    "idempotency_keys",
    "customers",
    "transactions",
    "transaction_notes",
    "drafts",
    "draft_lines",
    "invoices",
    "invoice_lines",
    "purchases",
    "payments",
    "journal",
    "account_days",
    "open_items",
    "invoice_tallies",
    "books_closed",
    "events",
    "webhook_endpoints",
    "deliveries",
];

/// Tables new in version 2.
const CREATED_IN_2: &[&str] = &["credit_applications", "customers_fts", "key_generation"];

/// New tables that triggers of rebuilt tables name: created before the rebuilds.
const FIRST_IN_2: &[&str] = &["customers_fts", "key_generation"];

/// Tables version 2 keeps as they are, whose indexes or triggers it adds to.
const KEPT_IN_2: &[&str] = &["api_keys"];

/// Columns of version 2 computed from version 1's: a payment's
/// `target_kind`/`target_id` become `invoice_id` or `purchase_id`; an
/// endpoint's registering key is unknown.
const COMPUTED_IN_2: &[(&str, &str, &str)] = &[
    // Who registered an endpoint was not kept before.
    ("webhook_endpoints", "created_by", "NULL"),
    (
        "payments",
        "invoice_id",
        "CASE WHEN target_kind = 'invoice' THEN target_id END",
    ),
    (
        "payments",
        "purchase_id",
        "CASE WHEN target_kind = 'purchase' THEN target_id END",
    ),
];

fn to_2(conn: &Connection) -> Result<(), Stop> {
    let target = Catalog::of(SCHEMA_2)?;
    // What triggers of rebuilt tables name comes first: SQLite checks
    // triggers whenever a table is renamed.
    for table in FIRST_IN_2 {
        create_table(conn, &target, table)?;
    }
    conn.execute_batch("INSERT INTO key_generation (one, value) VALUES (1, 0)")?;
    for table in REBUILT_IN_2 {
        rebuild(conn, &target, table, COMPUTED_IN_2)?;
    }
    for table in CREATED_IN_2.iter().filter(|t| !FIRST_IN_2.contains(t)) {
        create_table(conn, &target, table)?;
    }
    // Tables kept as they were get the indexes and triggers new to them.
    for table in KEPT_IN_2 {
        create_missing_dependents(conn, &target, table)?;
    }
    // The customers' search index starts with every customer there is.
    conn.execute_batch("INSERT INTO customers_fts (customers_fts) VALUES ('rebuild')")?;
    Ok(())
}

/// Creates the indexes and triggers of `table` in the target that the file lacks.
fn create_missing_dependents(
    conn: &Connection,
    target: &Catalog,
    table: &str,
) -> rusqlite::Result<()> {
    for (name, sql) in target.dependents_named(table) {
        let present: bool = conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = ?1)",
            [name],
            |r| r.get(0),
        )?;
        if !present {
            conn.execute_batch(sql)?;
        }
    }
    Ok(())
}

/// Step 4 only adds tables: the people of the screens, their memberships
/// and sessions, and the audit of acts. Nothing existing changes.
fn to_4(conn: &Connection) -> Result<(), Stop> {
    conn.execute_batch(SCHEMA_4_ADDED)?;
    Ok(())
}

/// The tables step 4 adds, frozen as version 4 was released.
const SCHEMA_4_ADDED: &str = include_str!("migrations/4.sql");

/// Version 2 of the schema, frozen: `schema.sql` as version 2 was released.
/// Step 2 takes the definitions of the tables it rebuilds or creates, and
/// their indexes and triggers, from here, never from today's `schema.sql`.
const SCHEMA_2: &str = include_str!("migrations/2.sql");

// ---------------------------------------------------------------------------
// Step 3 (2 → 3): the particulars e-invoices need. Only columns are added,
// each empty (NULL) or at its default on every existing row, so no row can
// break a rule; SQLite places each after the table's last column, where
// `schema.sql` has them.

/// The columns of version 3, frozen: `ALTER TABLE … ADD COLUMN` in order.
const ADDED_IN_3: &[(&str, &str)] = &[
    ("companies", "legal_name TEXT"),
    ("companies", "street TEXT"),
    ("companies", "postal_code TEXT"),
    ("companies", "city TEXT"),
    ("companies", "vat_id TEXT"),
    ("companies", "tax_number TEXT"),
    ("companies", "registration TEXT"),
    ("companies", "contact_name TEXT"),
    ("companies", "contact_phone TEXT"),
    ("companies", "contact_email TEXT"),
    ("companies", "electronic_address TEXT"),
    ("companies", "iban TEXT"),
    ("companies", "bic TEXT"),
    ("companies", "account_holder TEXT"),
    ("companies", "managing_directors TEXT"),
    (
        "companies",
        "small_business INTEGER NOT NULL DEFAULT 0 CHECK (small_business IN (0, 1))",
    ),
    ("customers", "buyer_reference TEXT"),
    ("customers", "electronic_address TEXT"),
    (
        "customers",
        "einvoice_format TEXT NOT NULL DEFAULT 'facturx' CHECK (einvoice_format IN ('facturx', 'xrechnung', 'peppol'))",
    ),
    ("drafts", "buyer_reference TEXT"),
    ("drafts", "order_reference TEXT"),
    ("drafts", "period_start TEXT"),
    (
        "drafts",
        "period_end TEXT CHECK ((period_start IS NULL) = (period_end IS NULL) AND (period_end IS NULL OR period_start <= period_end))",
    ),
];

fn to_3(conn: &Connection) -> Result<(), Stop> {
    for (table, column) in ADDED_IN_3 {
        conn.execute_batch(&format!("ALTER TABLE {} ADD COLUMN {column}", q(table)))?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Step 5 (4 → 5): the VAT of each line and the documents of an invoice. Columns are
// added (SQLite places each after the table's last column, where
// `schema.sql` has them) and one table created; invoices issued before get
// a note that they have no documents.

/// The columns of step 5, frozen: `ALTER TABLE … ADD COLUMN` in order.
const ADDED_IN_5: &[(&str, &str)] = &[
    ("draft_lines", "unit TEXT NOT NULL DEFAULT 'C62'"),
    (
        "draft_lines",
        "vat_category TEXT CHECK (vat_category IN ('S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M'))",
    ),
    ("draft_lines", "exemption_code TEXT"),
    ("invoices", "documents_note TEXT"),
    ("invoice_lines", "unit TEXT NOT NULL DEFAULT 'C62'"),
    (
        "invoice_lines",
        "vat_category TEXT CHECK (vat_category IN ('S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M'))",
    ),
    ("invoice_lines", "vat_rate TEXT"),
    ("invoice_lines", "exemption_reason TEXT"),
    ("invoice_lines", "exemption_code TEXT"),
    (
        "invoice_taxes",
        "vat_category TEXT CHECK (vat_category IN ('S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M'))",
    ),
];

/// The table step 5 creates, frozen.
const CREATED_IN_5: &str = "CREATE TABLE invoice_documents (
    seq         INTEGER PRIMARY KEY,
    invoice_id  TEXT NOT NULL,
    company_id  TEXT NOT NULL REFERENCES companies (id),
    environment TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    format      TEXT NOT NULL CHECK (format IN ('facturx', 'cii', 'xrechnung', 'peppol')),
    content     BLOB NOT NULL,
    sha256      TEXT NOT NULL CHECK (length(sha256) = 64),
    UNIQUE (invoice_id, format),
    FOREIGN KEY (invoice_id, company_id, environment) REFERENCES invoices (id, company_id, environment)
) STRICT";

/// What an invoice issued before documents were written says.
pub const NO_DOCUMENTS_BEFORE: &str =
    "Issued before kontor wrote e-invoice documents; this invoice has none.";

fn to_5(conn: &Connection) -> Result<(), Stop> {
    for (table, column) in ADDED_IN_5 {
        conn.execute_batch(&format!("ALTER TABLE {} ADD COLUMN {column}", q(table)))?;
    }
    conn.execute_batch(CREATED_IN_5)?;
    conn.execute(
        "UPDATE invoices SET documents_note = ?1",
        [NO_DOCUMENTS_BEFORE],
    )?;
    Ok(())
}

// ---------------------------------------------------------------------------
// Step 6 (5 → 6): the owner manages the company's people on the screens. A
// column is added (empty on every membership: none is disabled) and one
// table created; nothing existing changes.

/// The column and the table of step 6, frozen.
const ADDED_IN_6: &str = "ALTER TABLE memberships ADD COLUMN disabled_at TEXT;
CREATE TABLE one_time_links (
    seq        INTEGER PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    kind       TEXT NOT NULL CHECK (kind IN ('INVITATION', 'RESET')),
    company_id TEXT NOT NULL REFERENCES companies (id),
    email      TEXT NOT NULL,
    name       TEXT,
    role       TEXT CHECK (role IN ('OWNER', 'ACCOUNTANT', 'VIEWER')),
    user_id    TEXT REFERENCES users (id),
    created_by TEXT REFERENCES users (id),
    created_at TEXT NOT NULL,
    used_at    TEXT,
    CHECK ((kind = 'INVITATION') = (name IS NOT NULL AND role IS NOT NULL)),
    CHECK ((kind = 'RESET') = (user_id IS NOT NULL))
) STRICT;
CREATE INDEX one_time_links_company ON one_time_links (company_id, kind, email);";

fn to_6(conn: &Connection) -> Result<(), Stop> {
    conn.execute_batch(ADDED_IN_6)?;
    Ok(())
}

// ---------------------------------------------------------------------------
// Step 7 (6 → 7): a server keeps pages of customers in memory and must see
// any change to them, from any process. One table and its triggers; the
// count starts at none (zero) for every company, as nothing was kept yet.

/// The table and the triggers of step 7, frozen.
const CREATED_IN_7: &str = "CREATE TABLE customer_changes (
    company_id  TEXT NOT NULL,
    environment TEXT NOT NULL,
    value       INTEGER NOT NULL,
    PRIMARY KEY (company_id, environment)
) STRICT, WITHOUT ROWID;
CREATE TRIGGER customers_changed_insert AFTER INSERT ON customers BEGIN
    INSERT OR IGNORE INTO customer_changes (company_id, environment, value)
    VALUES (new.company_id, new.environment, 0);
    UPDATE customer_changes SET value = value + 1
    WHERE company_id = new.company_id AND environment = new.environment;
END;
CREATE TRIGGER customers_changed_update AFTER UPDATE ON customers BEGIN
    INSERT OR IGNORE INTO customer_changes (company_id, environment, value)
    VALUES (new.company_id, new.environment, 0);
    UPDATE customer_changes SET value = value + 1
    WHERE company_id = new.company_id AND environment = new.environment;
END;
CREATE TRIGGER customers_changed_delete AFTER DELETE ON customers BEGIN
    INSERT OR IGNORE INTO customer_changes (company_id, environment, value)
    VALUES (old.company_id, old.environment, 0);
    UPDATE customer_changes SET value = value + 1
    WHERE company_id = old.company_id AND environment = old.environment;
END;";

fn to_7(conn: &Connection) -> Result<(), Stop> {
    conn.execute_batch(CREATED_IN_7)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(number: i64) -> Migration {
        Migration {
            number,
            summary: "",
            run: |_| Ok(()),
        }
    }

    #[test]
    fn steps_are_numbered_consecutively_and_the_last_is_the_schema_version() {
        assert!(numbered_consecutively(MIGRATIONS));
        let numbers: Vec<i64> = MIGRATIONS.iter().map(|s| s.number).collect();
        let expected: Vec<i64> = (2..2 + MIGRATIONS.len() as i64).collect();
        assert_eq!(numbers, expected);
        assert_eq!(CURRENT, *numbers.last().unwrap());
        assert_eq!(crate::store::db::SCHEMA_VERSION, CURRENT);
        // The check catches a number used twice, a gap and a wrong start.
        assert!(!numbered_consecutively(&[step(2), step(2)]));
        assert!(!numbered_consecutively(&[step(2), step(3), step(3)]));
        assert!(!numbered_consecutively(&[step(2), step(4)]));
        assert!(!numbered_consecutively(&[step(3)]));
        assert!(numbered_consecutively(&[step(2), step(3)]));
    }

    #[test]
    fn the_frozen_schema_of_step_2_has_every_table_the_step_names() {
        let target = Catalog::of(SCHEMA_2).unwrap();
        for table in REBUILT_IN_2.iter().chain(CREATED_IN_2) {
            let sql = target.table(table).unwrap();
            let table_or_index = [
                format!("CREATE TABLE {table} ("),
                format!("CREATE VIRTUAL TABLE {table} USING"),
            ];
            assert!(
                table_or_index.iter().any(|head| sql.starts_with(head)),
                "{sql}"
            );
        }
        for (table, column, _) in COMPUTED_IN_2 {
            assert!(REBUILT_IN_2.contains(table));
            assert!(target.table(table).unwrap().contains(&format!("{column} ")));
        }
    }

    #[test]
    fn refusals_say_what_a_row_breaks_in_words() {
        assert_eq!(a_row_of("companies"), "a company");
        assert_eq!(a_row_of("invoices"), "an invoice");
        assert_eq!(a_row_of("webhook_endpoints"), "a webhook endpoint");
        assert_eq!(a_row_of("deliveries"), "a delivery");
        assert_eq!(
            check_sentence("amount > 0"),
            "has an amount that is not positive"
        );
        assert_eq!(
            check_sentence("unit_price >= 0"),
            "has a negative unit_price"
        );
        assert_eq!(
            check_sentence("currency GLOB '[A-Z][A-Z][A-Z]'"),
            "has a currency that is not three capital letters"
        );
        assert_eq!(check_sentence("x < 3"), "breaks the rule CHECK (x < 3)");
    }
}
