//! `kontor account list | add | remove`: the company's chart of accounts
//! (SKR03 or SKR04), its own accounts added within the chart's ranges and
//! removed while nothing is posted to them. Own accounts are the company's
//! in both environments.

use serde_json::json;

use crate::access::people::Capability;
use crate::books::chart_accounts::{self, AccountInput, NewAccount};
use crate::books::tenancy;
use crate::console::acting::{actor, no_actor, print};
use crate::console::args::AccountCommand;
use crate::error::Result;
use crate::store::db::Db;
use crate::store::tenant::Environment;

/// Runs an `account` command.
///
/// Fails as the books refuse the command, or with `Refused` naming `as`
/// when `--as` may not act in the company's books.
pub fn run(db: &Db, cmd: &AccountCommand, acting: Option<&str>) -> Result<()> {
    match cmd {
        AccountCommand::List { company } => print(&db.read(|conn| {
            no_actor(acting, "`account list` only reads")?;
            let t = tenancy::tenant(conn, company, Environment::Production)?;
            let (chart, accounts) = chart_accounts::list(conn, &t.company_id)?;
            Ok(json!({ "chart": chart.as_str(), "accounts": accounts }))
        })?),
        AccountCommand::Add {
            company,
            number,
            name_de,
            name_en,
            kind,
            line,
        } => {
            let new = NewAccount::check(AccountInput {
                number: Some(number.clone()),
                name_de: Some(name_de.clone()),
                name_en: Some(name_en.clone()),
                kind: Some(kind.clone()),
                line: Some(line.clone()),
            })?;
            print(&db.write(|tx| {
                let t = tenancy::tenant(tx, company, Environment::Production)?;
                let actor = actor(tx, acting, &t.company_id, Capability::Act)?;
                chart_accounts::add(tx, &t, &actor, &new)
            })?)
        }
        AccountCommand::Remove { company, number } => print(&db.write(|tx| {
            let t = tenancy::tenant(tx, company, Environment::Production)?;
            let actor = actor(tx, acting, &t.company_id, Capability::Act)?;
            chart_accounts::remove(tx, &t, &actor, number)?;
            Ok(json!({ "removed": number.trim() }))
        })?),
    }
    Ok(())
}
