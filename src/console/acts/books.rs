//! `kontor books close | trial-balance`: closing the books through a date,
//! and every account's debit and credit totals.

use crate::access::people::Capability;
use crate::books::ledger;
use crate::books::tenancy;
use crate::console::acting::{actor, no_actor, print};
use crate::console::args::BooksCommand;
use crate::error::Result;
use crate::store::db::Db;

/// Runs a `books` command.
///
/// Fails as the books refuse the command, or with `Refused` naming `as`
/// when `--as` may not act in the company's books.
pub fn run(db: &Db, cmd: &BooksCommand, acting: Option<&str>) -> Result<()> {
    match cmd {
        BooksCommand::Close {
            company,
            through,
            mode,
        } => print(&db.write(|tx| {
            let t = tenancy::tenant(tx, company, mode.environment())?;
            let actor = actor(tx, acting, &t.company_id, Capability::Act)?;
            ledger::close(tx, &t, &actor, through)
        })?),
        BooksCommand::TrialBalance {
            company,
            as_of,
            mode,
        } => print(&db.read(|conn| {
            no_actor(acting, "`books trial-balance` only reads")?;
            let t = tenancy::tenant(conn, company, mode.environment())?;
            ledger::trial_balance(conn, &t, as_of.as_deref())
        })?),
    }
    Ok(())
}
