//! `kontor key create | list | revoke`: a company's API keys. A new key is
//! printed once with its secret; the list never shows a secret.

use serde_json::Value;

use crate::access::keys::{self, KeyInput, NewKey};
use crate::access::people::Capability;
use crate::books::company;
use crate::console::acting::{actor, company_books, no_actor, print};
use crate::console::args::KeyCommand;
use crate::error::Result;
use crate::store::db::Db;

/// Runs a `key` command.
///
/// Fails as the books refuse the command, or with `Refused` naming `as`
/// when `--as` may not manage the company's keys.
pub fn run(db: &Db, cmd: &KeyCommand, acting: Option<&str>) -> Result<()> {
    let out = match cmd {
        KeyCommand::Create {
            company,
            name,
            environment,
            scopes,
            expires_at,
        } => {
            let new = NewKey::check(KeyInput {
                company_id: Some(company.clone()),
                name: Some(name.clone()),
                environment: Some(environment.clone()),
                scopes: Some(scopes.clone()),
                expires_at: expires_at.clone(),
            })?;
            create(db, acting, company, new)?
        }
        KeyCommand::List { company } => {
            no_actor(acting, "`key list` only reads")?;
            db.read(|conn| keys::list(conn, company))?
        }
        KeyCommand::Revoke { key } => revoke(db, acting, key)?,
    };
    print(&out);
    Ok(())
}

/// `key create`: the new key, with its secret.
fn create(db: &Db, acting: Option<&str>, company: &str, new: NewKey) -> Result<Value> {
    db.write(|tx| {
        company::get(tx, company)?;
        let actor = actor(tx, acting, company, Capability::ManageDevelopers)?;
        keys::create(tx, &company_books(company), &actor, new)
    })
}

/// `key revoke`: the key, revoked.
fn revoke(db: &Db, acting: Option<&str>, key: &str) -> Result<Value> {
    db.write(|tx| {
        let company = keys::company_of(tx, key)?;
        let actor = actor(tx, acting, &company, Capability::ManageDevelopers)?;
        keys::revoke(tx, &company_books(&company), &actor, key)
    })
}
