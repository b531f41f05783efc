//! Why a migration step stops, and what the refusal says: a row that breaks
//! a rule of the new schema is named by its table and id (or primary key)
//! with the rule it breaks in words ("customers row cus_… has a currency
//! that is not three capital letters"); a broken reference found by
//! `PRAGMA foreign_key_check` names the row and what it points to. Also the
//! quoting of SQL identifiers the steps' generated SQL uses.

use rusqlite::types::Value;
use rusqlite::{ffi, Connection, OptionalExtension};

/// Why a step stopped.
#[derive(Debug)]
pub(super) enum Stop {
    /// A row breaks a rule of the new schema: "<table> row <id> <what>".
    Row(String),
    Storage(rusqlite::Error),
}

impl From<rusqlite::Error> for Stop {
    fn from(e: rusqlite::Error) -> Self {
        Stop::Storage(e)
    }
}

/// Quotes an SQL identifier.
pub(super) fn q(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// The expression naming a row of `table` in a sentence: its `id`, else its
/// primary key ("with seq 12", "with company_id org_…, series customer").
pub(super) fn row_name_sql(conn: &Connection, table: &str) -> rusqlite::Result<String> {
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
pub(super) fn row_label(table: &str, name: &str) -> String {
    format!("{table} row {name}")
}

/// What a constraint failure says about the row that caused it.
pub(super) fn what_broke(e: &rusqlite::Error) -> Option<String> {
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
pub(super) fn foreign_key_problem(conn: &Connection) -> rusqlite::Result<Option<String>> {
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

#[cfg(test)]
mod tests {
    use crate::store::migrations::refusal::{a_row_of, check_sentence};

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
