//! `kontor books close | trial-balance | profit-and-loss | balance-sheet |
//! euer | depreciate | assets | depreciation-rule`: closing the books
//! through a date, the statements on the company's chart of accounts, the
//! cash-basis profit statement (with its PDF written to `--pdf`), and the
//! fixed assets' year: its depreciation posted, its register, its choices.

use crate::books::assets::{self, RuleInput};
use crate::books::tenancy;
use crate::books::{euer, ledger, statements};
use crate::console::acting::{act_in, no_actor, print, read_in};
use crate::console::args::BooksCommand;
use crate::error::{Error, Result};
use crate::store::db::Db;

/// Runs a `books` command.
///
/// Fails as the books refuse the command, with `Invalid` naming `pdf` when
/// the PDF's file exists or cannot be written, or with `Refused` naming
/// `as` when `--as` may not act in the company's books.
pub fn run(db: &Db, cmd: &BooksCommand, acting: Option<&str>) -> Result<()> {
    match cmd {
        BooksCommand::Close {
            company,
            through,
            mode,
        } => act_in(db, acting, company, mode.environment(), |tx, t, actor| {
            ledger::close(tx, t, actor, through)
        }),
        BooksCommand::TrialBalance {
            company,
            as_of,
            from,
            mode,
        } => read_in(
            db,
            acting,
            "`books trial-balance`",
            company,
            mode.environment(),
            |conn, t| statements::trial_balance(conn, t, as_of.as_deref(), from.as_deref()),
        ),
        BooksCommand::ProfitAndLoss {
            company,
            from,
            to,
            compare,
            mode,
        } => read_in(
            db,
            acting,
            "`books profit-and-loss`",
            company,
            mode.environment(),
            |conn, t| {
                statements::profit_and_loss(conn, t, from.as_deref(), to.as_deref(), *compare)
            },
        ),
        BooksCommand::Euer {
            company,
            year,
            pdf,
            mode,
        } => {
            if let Some(path) = pdf.as_ref().filter(|p| p.exists()) {
                return Err(Error::invalid(
                    "pdf",
                    format!("{} exists already", path.display()),
                ));
            }
            let (statement, bytes) = db.read(|conn| {
                no_actor(acting, "`books euer` only reads")?;
                let t = tenancy::tenant(conn, company, mode.environment())?;
                let statement = euer::statement(conn, &t, *year)?;
                let bytes = match pdf {
                    Some(_) => Some(euer::pdf(conn, &t, &statement)?),
                    None => None,
                };
                Ok((statement, bytes))
            })?;
            if let (Some(path), Some(bytes)) = (pdf, bytes) {
                std::fs::write(path, bytes).map_err(|e| {
                    Error::invalid("pdf", format!("{} cannot be written: {e}", path.display()))
                })?;
            }
            print(&statement);
            Ok(())
        }
        BooksCommand::Depreciate { of } => act_in(
            db,
            acting,
            &of.company,
            of.mode.environment(),
            |tx, t, actor| assets::depreciate(tx, t, actor, of.year),
        ),
        BooksCommand::Assets { of } => read_in(
            db,
            acting,
            "`books assets`",
            &of.company,
            of.mode.environment(),
            |conn, t| assets::register(conn, t, of.year),
        ),
        BooksCommand::DepreciationRule {
            of,
            pool,
            low_value,
        } => {
            if pool.is_none() && low_value.is_none() {
                return read_in(
                    db,
                    acting,
                    "`books depreciation-rule` without a choice",
                    &of.company,
                    of.mode.environment(),
                    |conn, t| assets::rule_of(conn, t, of.year),
                );
            }
            act_in(
                db,
                acting,
                &of.company,
                of.mode.environment(),
                |tx, t, actor| {
                    let input = RuleInput {
                        pool: pool.clone(),
                        low_value: low_value.clone(),
                    };
                    assets::set_rule(tx, t, actor, of.year, &input)
                },
            )
        }
        BooksCommand::BalanceSheet {
            company,
            as_of,
            compare,
            mode,
        } => read_in(
            db,
            acting,
            "`books balance-sheet`",
            company,
            mode.environment(),
            |conn, t| statements::balance_sheet(conn, t, as_of.as_deref(), *compare),
        ),
    }
}
