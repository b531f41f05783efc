//! The product console: the person's acts on the books and the management of
//! companies, keys and workflows, each read from the command line (`args`)
//! into the books' input types, run as one call of the books, and printed as
//! JSON on stdout; a refusal is a sentence on stderr, naming the command's
//! own options, and exit code 1. `serve` and `demo` hand over to the HTTP
//! surface. It holds no rule of its own.
//!
//! This file only declares the console's files and routes: `run`, the one
//! entry from `main`, sends each parsed command to its group's file, and
//! `explain` tells a refusal on stderr with its fields renamed into the
//! command's options. What the groups share is in the leaves `acting`,
//! `options` and `mode`.
//!
//! - `acting.rs`: what every command shares about acting: who acts (`actor`:
//!   the enabled person `--as` names, whose role must allow the act, or
//!   `Actor::System`; `no_actor` refuses `--as` on a command that is no act
//!   within one company), in whose books (`books_of`, `company_books`), and
//!   `print`, the answer as pretty JSON (a reader that stopped reading is no
//!   failure). A leaf: it names no other file of the console.
//! - `options.rs`: where the options meet the books' fields: a refused field
//!   named as its option (`option`), an option given or cleared with
//!   `--clear` read as the books' `Patch` (`patch`), and the payment options
//!   several commands share read into the books' input. A leaf but for `args`.
//! - `mode.rs`: `--sandbox` (`Mode`), a leaf the command-line files share.
//! - `args.rs`: the clap definition of every command and its arguments;
//!   checks nothing beyond a value's type.
//! - `sending_args.rs`: the command line of sending:
//!   `company mail | mail-text`, `invoice send | sends`, `dunning …`, and
//!   `--vat-register` (`RegisterArgs`) of `serve` and `draft issue`.
//! - `asset_args.rs`: the command line of fixed assets: `asset add | list |
//!   show | classes | dispose`.
//! - `bank_args.rs`: the command line of the bank: `bank account add | list`,
//!   `bank import` and the acts on statement lines.
//! - `books_args.rs`: the command line of the books' statements, the
//!   fixed assets' year and the chart of accounts: `books close |
//!   trial-balance | profit-and-loss | balance-sheet | depreciate | assets |
//!   depreciation-rule`, `account list | add | remove`.
//! - `adviser_args.rs`: the command line of the tax adviser's exports: the
//!   DATEV settings of `company set` (`DatevArgs`), `export datev | gobd`,
//!   `vat return | ec-sales`.
//! - `serve_args.rs`: the command line of `serve` and `demo` (`ServeArgs`:
//!   the listener, its limits, the proxies, the inbox, mail's allowances,
//!   the scheduled copies) and how it applies to the server's `Config`.
//! - `serve.rs`: the data file the console works on (`--data`, else
//!   `kontor.db`): opening it, `serve` (which starts the log and hands over
//!   to `http::server::run_until_signal`), `backup` and `restore`.
//! - `demo.rs`: the demo: a fresh data file seeded through the books (an
//!   Enterprise company, customers, transactions, a live and a test key, one
//!   person per role), what it prints, then the server (`run_until_signal`
//!   too).
//! - `log.rs`: the process's log: `tracing` lines collected in memory and
//!   written to stderr in batches by a thread of its own, lossless (a writer
//!   waits for room past 8 MiB). Started by `serve` and `demo`.
//! - `vat_id.rs`: `kontor vat-id check`: ids on stdin judged by
//!   `rules::vat_ids::judge`, one answer line each; needs no data file.
//! - `acts/`: the commands on the books, one file per command group.

mod acting;
mod acts;
mod adviser_args;
mod args;
mod asset_args;
mod bank_args;
mod books_args;
pub mod demo;
mod log;
mod mode;
mod options;
mod sending_args;
mod serve;
mod serve_args;
mod vat_id;

use std::process::ExitCode;

pub use args::*;
pub use serve::DEFAULT_DATA;

use crate::error::{Error, Result};

/// Runs one console command and answers its exit code: 0 when it did what
/// it was asked, 1 when it failed, told on stderr.
pub fn run(cli: Cli) -> ExitCode {
    execute(&cli).unwrap_or_else(|error| explain(&error))
}

/// Runs one console command: routes it to its group's file.
///
/// Fails as the command fails.
fn execute(cli: &Cli) -> Result<ExitCode> {
    let acting = cli.acting.as_deref();
    // Only `serve`, `demo` and `company create` begin a data file.
    let db = || serve::open_existing(&serve::path(&cli.data));
    let key = || crate::store::sealed::SealingKey::beside(&serve::path(&cli.data));
    let no_act = "this command is no act on a company";
    match &cli.command {
        Command::Serve(args) => {
            acting::no_actor(acting, no_act)?;
            if args.demo {
                demo::run(cli.data.clone(), args)?
            } else {
                serve::serve(serve::path(&cli.data), args)?
            }
        }
        Command::Demo(args) => {
            acting::no_actor(acting, no_act)?;
            demo::run(cli.data.clone(), args)?
        }
        Command::VatId(cmd) => {
            acting::no_actor(acting, no_act)?;
            vat_id::run(cmd)?
        }
        Command::Backup { to } => {
            acting::no_actor(acting, no_act)?;
            serve::backup(&db()?, to)?
        }
        Command::Restore { from } => {
            acting::no_actor(acting, no_act)?;
            serve::restore(from, &serve::path(&cli.data))?
        }
        Command::Company(cmd @ CompanyCommand::Create(_)) => {
            acts::company::run(&serve::open(&serve::path(&cli.data))?, cmd, acting, &key)?
        }
        Command::Company(cmd) => acts::company::run(&db()?, cmd, acting, &key)?,
        Command::Key(cmd) => acts::keys::run(&db()?, cmd, acting)?,
        Command::User(cmd) => acts::users::run(&db()?, cmd, acting)?,
        Command::Customer(cmd) => acts::customers::run(&db()?, cmd, acting)?,
        Command::Draft(cmd) => acts::drafts::run(&db()?, cmd, acting)?,
        Command::Payment(cmd) => acts::payments::run(&db()?, cmd, acting)?,
        Command::Invoice(cmd) => acts::invoices::run(&db()?, cmd, acting)?,
        Command::Purchase(cmd) => acts::purchases::run(&db()?, cmd, acting)?,
        Command::Books(cmd) => acts::books::run(&db()?, cmd, acting)?,
        Command::Account(cmd) => acts::accounts::run(&db()?, cmd, acting)?,
        Command::Asset(AssetCommand::Classes) => {
            acting::no_actor(acting, "`asset classes` only reads")?;
            acts::assets::classes()?
        }
        Command::Asset(cmd) => acts::assets::run(&db()?, cmd, acting)?,
        Command::Webhook(cmd) => acts::webhooks::run(&db()?, cmd, acting)?,
        Command::Bank(cmd) => return acts::bank::run(&db()?, cmd, acting),
        Command::Dunning(cmd) => acts::dunning::run(&db()?, cmd, acting)?,
        Command::Export(cmd) => acts::export::run(&db()?, cmd, acting)?,
        Command::Vat(cmd) => acts::vat::run(&db()?, cmd, acting)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// Tells why a command failed on stderr, as a sentence naming the command's
/// own options (an internal error with its detail), and answers exit code 1.
fn explain(error: &Error) -> ExitCode {
    match error {
        Error::Internal(detail) => eprintln!("kontor: internal error: {detail}"),
        refusal => eprintln!("kontor: {}", refusal.sentence_with(&options::option)),
    }
    ExitCode::FAILURE
}
