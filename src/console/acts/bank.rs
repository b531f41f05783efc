//! `kontor bank …`: the company's bank accounts, statement imports (each
//! file its own transaction, its report printed whether it was imported or
//! refused) and a person's acts on the lines, printed as JSON.

use std::process::ExitCode;

use serde_json::json;

use crate::access::people::Capability;
use crate::books::bank::accounts::{self, BankAccountInput, NewBankAccount};
use crate::books::bank::acts::{self, Difference};
use crate::books::bank::import::{self, FileReport};
use crate::books::bank::lines::{self, Filter};
use crate::books::company;
use crate::books::tenancy;
use crate::console::acting::{actor, company_books, no_actor, print};
use crate::console::args::{BankAccountCommand, BankCommand};
use crate::error::{Error, Result};
use crate::rules::catalogue::Reader;
use crate::store::db::Db;

/// Runs a `bank` command; answers exit code 1 (after printing the reports)
/// when an import refused a file.
///
/// Fails as the books refuse the act, or with `Refused` naming `as` when
/// `--as` may not act in the company's books.
pub fn run(db: &Db, cmd: &BankCommand, acting: Option<&str>) -> Result<ExitCode> {
    match cmd {
        BankCommand::Account(BankAccountCommand::Add {
            company,
            mode,
            iban,
            account,
            bic,
            name,
            currency,
        }) => {
            let account = NewBankAccount::check(BankAccountInput {
                iban: iban.clone(),
                account: account.clone(),
                bic: bic.clone(),
                name: name.clone(),
                currency: currency.clone(),
            })?;
            print(&db.write(|tx| {
                let t = tenancy::tenant(tx, company, mode.environment())?;
                let actor = actor(tx, acting, &t.company_id, Capability::ManageSettings)?;
                accounts::add(tx, &t, &actor, account)
            })?);
        }
        BankCommand::Account(BankAccountCommand::List { company, mode }) => {
            no_actor(acting, "listing accounts is no act")?;
            print(&db.read(|conn| {
                let t = tenancy::tenant(conn, company, mode.environment())?;
                accounts::list(conn, &t)
            })?);
        }
        BankCommand::Import {
            company,
            mode,
            files,
        } => {
            let mut reports = Vec::new();
            for path in files {
                let name = path.to_string_lossy().to_string();
                let report = match std::fs::read(path) {
                    Err(e) => FileReport::refused(
                        &name,
                        &Error::bad_request(format!("The file {name} cannot be read: {e}.")),
                        Reader::CONSOLE,
                    ),
                    // Handed over, so the file's bytes are let go once stored.
                    Ok(bytes) => db
                        .write(|tx| {
                            let t = tenancy::tenant(tx, company, mode.environment())?;
                            let actor = actor(tx, acting, &t.company_id, Capability::Act)?;
                            import::file(tx, &t, &actor, &name, std::borrow::Cow::Owned(bytes))
                        })
                        .or_else(|e| match e {
                            Error::Internal(_) | Error::Busy | Error::StorageFull => Err(e),
                            refusal => Ok(FileReport::refused(&name, &refusal, Reader::CONSOLE)),
                        })?,
                };
                reports.push(report);
            }
            let refused: Vec<String> = reports.iter().filter_map(|r| r.refused.clone()).collect();
            print(&json!({ "files": reports }));
            if !refused.is_empty() {
                return Err(Error::refused(refused.join(" ")));
            }
        }
        BankCommand::Lines {
            company,
            state,
            search,
            mode,
        } => {
            no_actor(acting, "listing lines is no act")?;
            let state = state.as_deref().map(lines::read_state).transpose()?;
            print(&db.read(|conn| {
                let t = tenancy::tenant(conn, company, mode.environment())?;
                lines::list(
                    conn,
                    &t,
                    &Filter {
                        state,
                        search: search.clone(),
                    },
                    1_000_000,
                )
            })?);
        }
        BankCommand::Line { line } => {
            no_actor(acting, "showing a line is no act")?;
            print(&db.read(|conn| {
                let t = lines::books_of(conn, line)?;
                lines::show(conn, &t, line)
            })?);
        }
        BankCommand::Confirm {
            line,
            suggestion,
            difference,
        } => {
            let difference = difference.as_deref().map(Difference::read).transpose()?;
            act(db, acting, line, |tx, t, a| {
                acts::confirm(tx, t, a, line, *suggestion, difference)
            })?;
        }
        BankCommand::Split {
            line,
            to,
            difference,
        } => {
            let difference = difference.as_deref().map(Difference::read).transpose()?;
            let mut parts = Vec::new();
            for (i, part) in to.iter().enumerate() {
                let Some((number, amount)) = part.rsplit_once('=') else {
                    return Err(Error::invalid(
                        format!("to[{i}]"),
                        format!("is NUMBER=MINOR, not {part:?}"),
                    ));
                };
                let amount = amount.trim().parse::<i64>().map_err(|_| {
                    Error::invalid(
                        format!("to[{i}]"),
                        format!("gives {number} {amount:?}, which is no number of minor units"),
                    )
                })?;
                parts.push((number.trim().to_string(), amount));
            }
            act(db, acting, line, |tx, t, a| {
                acts::split(tx, t, a, line, &parts, difference)
            })?;
        }
        BankCommand::Book {
            line,
            account,
            amount,
        } => {
            act(db, acting, line, |tx, t, a| {
                acts::book(tx, t, a, line, account, *amount)
            })?;
        }
        BankCommand::Ignore { line, reason } => {
            act(db, acting, line, |tx, t, a| {
                acts::ignore(tx, t, a, line, reason)
            })?;
        }
        BankCommand::Undo { line } => {
            act(db, acting, line, |tx, t, a| acts::undo(tx, t, a, line))?;
        }
        BankCommand::Tolerance { company, amount } => {
            print(&db.write(|tx| {
                let id = company::get(tx, company)?.id;
                let t = company_books(&id);
                let actor = actor(tx, acting, &id, Capability::ManageSettings)?;
                accounts::set_fee_tolerance(tx, &t, &actor, *amount)?;
                Ok(json!({ "company": id, "feeTolerance": amount }))
            })?);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// An act on a line, in the line's own books, printed with the line after it.
fn act(
    db: &Db,
    acting: Option<&str>,
    line: &str,
    f: impl FnOnce(
        &crate::store::db::Tx,
        &crate::store::tenant::Tenant,
        &crate::books::audit::Actor,
    ) -> Result<lines::LineView>,
) -> Result<()> {
    print(&db.write(|tx| {
        let t = lines::books_of(tx, line)?;
        let actor = actor(tx, acting, &t.company_id, Capability::Act)?;
        Ok(json!({ "line": f(tx, &t, &actor)? }))
    })?);
    Ok(())
}
