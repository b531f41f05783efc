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
//! as a fresh one (a test compares them). A frozen `N.sql` is never edited:
//! each is what a released version said.
//!
//! Here: `SCHEMA` and `SCHEMA_VERSION`, `MIGRATIONS` (each step's number, a
//! one-line summary and its `run`), and the runner `bring_up`.
//!
//! - `to_N.rs`: step N, from version N − 1 to N, its SQL beside it in `N.sql`;
//!   its `//!` says what the step brings (step 2 rebuilds tables from the
//!   frozen schema of version 2 with `rebuild`).
//! - `rebuild.rs`: tables from a frozen schema text: its catalog, a table
//!   rebuilt the SQLite way, a table created with its indexes and triggers,
//!   the ones a kept table lacks.
//! - `refusal.rs`: why a step stops (`Stop`): a row named by table and id
//!   with the rule it breaks in words, a broken reference
//!   `foreign_key_check` found; and the quoting of identifiers.

mod rebuild;
mod refusal;
mod to_10;
mod to_11;
mod to_12;
mod to_13;
mod to_14;
mod to_15;
mod to_16;
mod to_17;
mod to_18;
mod to_19;
mod to_2;
mod to_20;
mod to_21;
mod to_22;
mod to_23;
mod to_24;
mod to_3;
mod to_4;
mod to_5;
mod to_6;
mod to_7;
mod to_8;
mod to_9;

use std::path::Path;

use rusqlite::Connection;

use crate::error::{Error, Result};
use crate::store::lock::ServerLock;

use refusal::{foreign_key_problem, Stop};

/// The schema this binary writes and understands: what a fresh file gets.
pub const SCHEMA: &str = include_str!("../../../schema.sql");
/// The version `schema.sql` carries in `PRAGMA user_version`.
pub const SCHEMA_VERSION: i64 = 24;

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
        run: to_2::run,
    },
    Migration {
        number: 3,
        summary: concat!(
            "the seller's particulars on companies; buyer reference, electronic address and ",
            "e-invoice format on customers; buyer and order reference and delivery period on drafts"
        ),
        run: to_3::run,
    },
    Migration {
        number: 4,
        summary: "people, their roles in companies, their sessions, and the audit of who did what",
        run: to_4::run,
    },
    Migration {
        number: 5,
        summary: concat!(
            "lines carry unit and VAT category, frozen on invoices; invoices keep their documents; ",
            "invoices issued before have none and say so"
        ),
        run: to_5::run,
    },
    Migration {
        number: 6,
        summary: "a person's membership can be disabled; one-time links for invitations and password resets",
        run: to_6::run,
    },
    Migration {
        number: 7,
        summary: "a count of changes to each company's partners, kept by triggers",
        run: to_7::run,
    },
    Migration {
        number: 8,
        summary: concat!(
            "journal lines name their partner, bank account or tax key; day sums per detail; ",
            "partners' IBAN, invoice e-mail, consumer flag and language"
        ),
        run: to_8::run,
    },
    Migration {
        number: 9,
        summary: "an audit row names the API key that acted",
        run: to_9::run,
    },
    Migration {
        number: 10,
        summary: "bank accounts, imported statements with their entries and lines, what each line settled",
        run: to_10::run,
    },
    Migration {
        number: 11,
        summary: concat!(
            "received e-invoices: the files as they arrived, never changed; the bills read from them; ",
            "a purchase's lines and amounts per tax key, payment reference and payee IBAN; trusted suppliers"
        ),
        run: to_11::run,
    },
    Migration {
        number: 12,
        summary: concat!(
            "mail settings, templates and the mail outbox; the ladder of reminders, ",
            "the owner's base rates and the reminders sent; the VAT register's answer with an invoice"
        ),
        run: to_12::run,
    },
    Migration {
        number: 13,
        summary: "DATEV settings of companies; account numbers of partners and bank accounts; exports made",
        run: to_13::run,
    },
    Migration {
        number: 14,
        summary: concat!(
            "a bank entry is keyed by what makes it the same money (day, amount, a telling reference or ",
            "what it says), with its identity; a bank line keeps the notes of what its reader changed"
        ),
        run: to_14::run,
    },
    Migration {
        number: 15,
        summary: concat!(
            "every reference into a company-owned table is composite with company and environment ",
            "(a payment's bank line, an audit row's key, a bank entry's statements, a settlement's payment)"
        ),
        run: to_15::run,
    },
    Migration {
        number: 16,
        summary: concat!(
            "the chart of accounts is the ledger's own: a journal line names the account a person chose, ",
            "day sums per such account, a bill's line its cost's account, a company's own accounts"
        ),
        run: to_16::run,
    },
    Migration {
        number: 17,
        summary: "a payment a person takes back keeps the reason",
        run: to_17::run,
    },
    Migration {
        number: 18,
        summary: "every bill has a posting date besides its document date, and may carry its receipt",
        run: to_18::run,
    },
    Migration {
        number: 19,
        summary: "a bill may carry the cash discount its supplier grants",
        run: to_19::run,
    },
    Migration {
        number: 20,
        summary: "fixed assets: the register, the depreciation posted per asset and year, each year's choices",
        run: to_20::run,
    },
    Migration {
        number: 21,
        summary: "a person may be the company's tax adviser; the files of exports are kept",
        run: to_21::run,
    },
    Migration {
        number: 22,
        summary: concat!(
            "two-factor sign-in: authenticator apps (sealed), recovery codes (hashed), passkeys, ",
            "sign-ins awaiting a second factor, companies that require two factors"
        ),
        run: to_22::run,
    },
    Migration {
        number: 23,
        summary: concat!(
            "the company's tax methods: its legal form, and VAT on invoices or payments, ",
            "profit by balance sheet or EÜR, the VAT return's period and extension, each from a day"
        ),
        run: to_23::run,
    },
    Migration {
        number: 24,
        summary: concat!(
            "VAT on payments received: what of each document's VAT is not yet due, move by move; ",
            "a bill's supplier taxed on payments received, a down payment"
        ),
        run: to_24::run,
    },
];

/// The schema version this binary writes and understands: the last step's
/// number, which `SCHEMA_VERSION` must name too (checked when compiling).
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
    CURRENT == SCHEMA_VERSION,
    "the last step of MIGRATIONS must bring a file to SCHEMA_VERSION"
);

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
        assert_eq!(SCHEMA_VERSION, CURRENT);
        // The check catches a number used twice, a gap and a wrong start.
        assert!(!numbered_consecutively(&[step(2), step(2)]));
        assert!(!numbered_consecutively(&[step(2), step(3), step(3)]));
        assert!(!numbered_consecutively(&[step(2), step(4)]));
        assert!(!numbered_consecutively(&[step(3)]));
        assert!(numbered_consecutively(&[step(2), step(3)]));
    }
}
