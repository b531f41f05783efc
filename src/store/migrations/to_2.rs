//! Step 2 (1 → 2): composite tenant references, sign and shape CHECKs, one
//! invoice per draft, payments naming their invoice or bill, credit
//! applications, the customers' search index. The tables whose definition
//! changed are rebuilt from the frozen schema of version 2 (`2.sql`), the
//! new ones created from it.

use rusqlite::Connection;

use super::rebuild::{create_missing_dependents, create_table, rebuild, Catalog};
use super::refusal::Stop;

/// Version 2 of the schema, frozen: `schema.sql` as version 2 was released.
/// Step 2 takes the definitions of the tables it rebuilds or creates, and
/// their indexes and triggers, from here, never from today's `schema.sql`.
const SCHEMA_2: &str = include_str!("2.sql");

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

/// Runs step 2.
pub(super) fn run(conn: &Connection) -> Result<(), Stop> {
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

#[cfg(test)]
mod tests {
    use crate::store::migrations::rebuild::Catalog;
    use crate::store::migrations::to_2::{COMPUTED_IN_2, CREATED_IN_2, REBUILT_IN_2, SCHEMA_2};

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
}
