//! What every console command shares about acting: who acts (the person
//! `--as` names, or the system), in whose books, and the answer printed as
//! pretty JSON on stdout. The books' acts take the actor and write their
//! audit rows themselves. A leaf: it names no other file of the console.

use rusqlite::Connection;
use serde::Serialize;

use crate::access::people::{self, Capability};
use crate::books::audit::Actor;
use crate::books::tenancy;
use crate::books::tenancy::Owned;
use crate::error::{Error, Result};
use crate::store::db::{Db, Tx};
use crate::store::tenant::{Environment, Tenant};

/// Prints a record as pretty JSON on stdout. A reader that stopped reading
/// (`kontor … | head`) is no failure of the command: the act is done, and
/// what was not read is dropped.
pub fn print(value: &impl Serialize) {
    use std::io::Write;
    let value = serde_json::to_value(value).unwrap_or_default();
    let text = serde_json::to_string_pretty(&value).unwrap_or_default();
    let _ = writeln!(std::io::stdout().lock(), "{text}");
}

/// Who a console act in `company_id` is recorded as: the person `--as`
/// names, else the system.
///
/// Fails with `Refused` naming `as` when `--as` names no enabled person of
/// the company or one whose role may not do `what`.
pub fn actor(
    conn: &Connection,
    acting: Option<&str>,
    company_id: &str,
    what: Capability,
) -> Result<Actor> {
    match acting {
        Some(email) => people::acting(conn, company_id, email, what),
        None => Ok(Actor::System),
    }
}

/// Refuses `--as` on a command that is no act within one company.
///
/// Fails with `Invalid` naming `as`.
pub fn no_actor(acting: Option<&str>, why: &str) -> Result<()> {
    match acting {
        Some(_) => Err(Error::invalid("as", format!("names who acts, but {why}"))),
        None => Ok(()),
    }
}

/// The books a person's act on a record names: the record's own, or, with
/// `--company`, that company's (where a record of another company is not found).
///
/// Fails with `NotFound` for an unknown company or record.
pub fn books_of(
    tx: &Tx,
    company: &Option<String>,
    what: Owned,
    id: &str,
    environment: Environment,
) -> Result<Tenant> {
    match company {
        Some(company) => tenancy::tenant(tx, company, environment),
        None => tenancy::owner(tx, what, id, environment),
    }
}

/// The books a company-wide act (settings, keys, people) is recorded in:
/// the company's live books.
pub fn company_books(company_id: &str) -> Tenant {
    Tenant::new(company_id, Environment::Production)
}

/// Runs `act` in one `Db::write` in `company`'s books, as the person
/// `--as` names (who must be able to act) or the system, and prints its
/// answer.
///
/// Fails with `NotFound` for an unknown company, `Refused` naming `as`, or
/// as `act` refuses.
pub fn act_in<T: Serialize>(
    db: &Db,
    acting: Option<&str>,
    company: &str,
    environment: Environment,
    act: impl FnOnce(&Tx, &Tenant, &Actor) -> Result<T>,
) -> Result<()> {
    print(&db.write(|tx| {
        let t = tenancy::tenant(tx, company, environment)?;
        let actor = actor(tx, acting, &t.company_id, Capability::Act)?;
        act(tx, &t, &actor)
    })?);
    Ok(())
}

/// Runs `read` over `company`'s books and prints its answer; `--as` is
/// refused, as `command` (the command in backticks) only reads.
///
/// Fails with `Invalid` naming `as`, `NotFound` for an unknown company, or
/// as `read` refuses.
pub fn read_in<T: Serialize>(
    db: &Db,
    acting: Option<&str>,
    command: &str,
    company: &str,
    environment: Environment,
    read: impl FnOnce(&Connection, &Tenant) -> Result<T>,
) -> Result<()> {
    print(&db.read(|conn| {
        no_actor(acting, &format!("{command} only reads"))?;
        let t = tenancy::tenant(conn, company, environment)?;
        read(conn, &t)
    })?);
    Ok(())
}
