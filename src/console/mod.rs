//! The product console: the person's acts on the books and the management of
//! companies, keys and workflows, each read from the command line (`args`)
//! into the books' input types, run as one call of the books, and printed as
//! JSON on stdout; a refusal is a sentence on stderr, naming the command's
//! own options, and exit code 1. `serve` and `demo` hand over to the HTTP
//! surface. It holds no rule of its own.

mod acts;
mod args;
pub mod demo;
mod log;
mod vat_id;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::Serialize;

pub use args::*;

use crate::error::{Error, Result};
use crate::http::server::{self, Config};
use crate::rules::text::camel_to;
use crate::store::db::Db;

/// The data file used when `--data` is not given.
pub const DEFAULT_DATA: &str = "kontor.db";

fn data_path(cli: &Cli) -> PathBuf {
    cli.data
        .clone()
        .unwrap_or_else(|| PathBuf::from(DEFAULT_DATA))
}

fn open(path: &Path) -> Result<Db> {
    Db::open(path, 2)
}

/// Prints a record as pretty JSON on stdout.
fn print(value: &impl Serialize) {
    let value = serde_json::to_value(value).unwrap_or_default();
    println!(
        "{}",
        serde_json::to_string_pretty(&value).unwrap_or_default()
    );
}

/// How a refusal names a field: as the option that gives it (`--postal-code`).
fn option(field: &str) -> String {
    // A line of a draft is named as a person counts lines.
    if let Some(n) = field
        .strip_prefix("lines[")
        .and_then(|rest| rest.strip_suffix(']'))
        .and_then(|n| n.parse::<usize>().ok())
    {
        return format!("Line {}", n + 1);
    }
    let field = field.split('[').next().unwrap_or(field);
    let field = match field {
        "unitPriceMinor" => "unitPrice",
        "taxRatePercent" => "taxRate",
        "taxes" => "tax",
        "customerId" => "customer",
        "password" => "passwordStdin",
        "stages" => return "The stages".into(),
        "as" => return "--as".into(),
        other => other,
    };
    format!("--{}", camel_to(field, '-'))
}

/// Runs one console command.
pub fn run(cli: Cli) -> ExitCode {
    match execute(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Error::Internal(detail)) => {
            eprintln!("kontor: internal error: {detail}");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("kontor: {}", e.sentence_with(&option));
            ExitCode::FAILURE
        }
    }
}

fn serve(path: PathBuf, args: &ServeArgs) -> Result<()> {
    let _log = log::start();
    let mut config = Config::new(&path, args.listen);
    args.apply(&mut config);
    server::run_until_signal(config, |addr| {
        tracing::info!("serving {} on http://{addr}/v1", path.display());
    })
}

fn execute(cli: Cli) -> Result<()> {
    let acting = cli.acting.as_deref();
    match &cli.command {
        Command::Serve(_) | Command::Demo(_) | Command::VatId(_) | Command::Backup { .. } => {
            acts::no_actor(acting, "this command is no act on a company")?
        }
        _ => {}
    }
    match &cli.command {
        Command::Serve(args) if args.demo => demo::run(cli.data.clone(), args),
        Command::Serve(args) => serve(data_path(&cli), args),
        Command::Demo(args) => demo::run(cli.data.clone(), args),
        Command::Company(cmd) => acts::company(&open(&data_path(&cli))?, cmd, acting),
        Command::Key(cmd) => acts::key(&open(&data_path(&cli))?, cmd, acting),
        Command::User(cmd) => acts::user(&open(&data_path(&cli))?, cmd, acting),
        Command::VatId(cmd) => vat_id::run(cmd),
        Command::Backup { to } => {
            let bytes = open(&data_path(&cli))?.backup_to(to)?;
            print(&serde_json::json!({
                "backup": to.display().to_string(),
                "bytes": bytes,
                "schemaVersion": crate::store::db::SCHEMA_VERSION,
            }));
            Ok(())
        }
        command => acts::act(&open(&data_path(&cli))?, command, acting),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn fields_are_named_as_options() {
        assert_eq!(super::option("postalCode"), "--postal-code");
        assert_eq!(super::option("unitPriceMinor"), "--unit-price");
        assert_eq!(super::option("taxes[1].ratePercent"), "--tax");
        assert_eq!(super::option("asOf"), "--as-of");
        assert_eq!(super::option("lines[0]"), "Line 1");
    }
}
