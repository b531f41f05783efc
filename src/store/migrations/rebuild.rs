//! Building tables from a frozen schema text: the text read as a catalog
//! of its tables, indexes and triggers; a table rebuilt the SQLite way
//! (create the new table, copy every row, drop the old one, rename the new
//! one); a table created with its indexes and triggers; and the indexes and
//! triggers a kept table lacks. A row the copy cannot keep stops the step
//! with the sentence `refusal` makes for it.

use rusqlite::types::Value;
use rusqlite::{params_from_iter, Connection};

use super::refusal::{q, row_label, row_name_sql, what_broke, Stop};

/// The objects a schema text creates, read from an in-memory database made
/// from it: (type, name, tbl_name, sql), in the order the text creates them.
pub(super) struct Catalog(Vec<(String, String, String, String)>);

impl Catalog {
    pub(super) fn of(schema: &str) -> rusqlite::Result<Catalog> {
        let scratch = Connection::open_in_memory()?;
        scratch.execute_batch(schema)?;
        let mut stmt = scratch.prepare(
            "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid",
        )?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
        Ok(Catalog(rows.collect::<rusqlite::Result<_>>()?))
    }

    pub(super) fn table(&self, table: &str) -> rusqlite::Result<&str> {
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
    pub(super) fn dependents<'a>(&'a self, table: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.dependents_named(table).map(|(_, sql)| sql)
    }

    /// The indexes and triggers of `table`, with their names.
    pub(super) fn dependents_named<'a>(
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
pub(super) fn rebuild(
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
pub(super) fn create_table(
    conn: &Connection,
    target: &Catalog,
    table: &str,
) -> rusqlite::Result<()> {
    conn.execute_batch(target.table(table)?)?;
    for sql in target.dependents(table) {
        conn.execute_batch(sql)?;
    }
    Ok(())
}

/// Creates the indexes and triggers of `table` in the target that the file lacks.
pub(super) fn create_missing_dependents(
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
