//! The product console: the clap definition of every command and `run`, which
//! turns a parsed command into calls of the domain functions and prints the
//! result as JSON on stdout (a sentence on stderr and a non-zero exit code on
//! refusal). It holds no rule of its own.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use serde_json::Value;

use crate::access::Scope;
use crate::clock;
use crate::company::{self, NewCompany, Plan};
use crate::db::Db;
use crate::demo;
use crate::error::Result;
use crate::iso::{CountryCode, Currency};
use crate::keys::{self, NewKey};
use crate::server::{self, Config};
use crate::tenant::Environment;

/// The data file used when `--data` is not given.
pub const DEFAULT_DATA: &str = "kontor.db";

#[derive(Parser, Debug)]
#[command(
    name = "kontor",
    version,
    about = "A self-hosted accounting service over one SQLite file."
)]
pub struct Cli {
    /// The data file (default ./kontor.db; for `demo`, ./kontor-demo.db).
    #[arg(long, global = true, value_name = "PATH")]
    pub data: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Serve the REST API under /v1 (and, with --demo, a fresh demo company first).
    Serve(ServeArgs),
    /// Create a fresh data file with a demo company and keys, print them, and serve.
    Demo(ServeArgs),
    /// Companies: create, change plan, set the workflow.
    #[command(subcommand)]
    Company(CompanyCommand),
    /// API keys: create, list, revoke.
    #[command(subcommand)]
    Key(KeyCommand),
}

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// Start with a fresh demo company (serve only).
    #[arg(long)]
    pub demo: bool,
}

#[derive(Subcommand, Debug)]
pub enum CompanyCommand {
    /// Create a company.
    Create {
        #[arg(long)]
        name: String,
        /// ISO 3166-1 alpha-2 country of the seller (decides the country rules).
        #[arg(long)]
        country: String,
        /// ISO 4217 book currency.
        #[arg(long)]
        currency: String,
        /// STARTER, PROFESSIONAL or ENTERPRISE (only ENTERPRISE includes the API).
        #[arg(long, default_value = "STARTER")]
        plan: String,
        #[arg(long, default_value = "")]
        invoice_prefix: String,
        /// Default payment days (else the country's).
        #[arg(long)]
        payment_days: Option<i64>,
        /// IANA time zone (else the country's capital's).
        #[arg(long)]
        timezone: Option<String>,
    },
    /// Change a company's plan.
    Plan { company: String, plan: String },
    /// Set a company's workflow; the first stage is where transactions start.
    Workflow {
        company: String,
        #[arg(required = true)]
        stages: Vec<String>,
    },
}

#[derive(Subcommand, Debug)]
pub enum KeyCommand {
    /// Create a key; the full key is printed once, as `secret`.
    Create {
        #[arg(long)]
        company: String,
        #[arg(long)]
        name: String,
        /// production or sandbox.
        #[arg(long)]
        environment: String,
        /// Comma-separated scopes, or `all`.
        #[arg(long)]
        scopes: String,
        /// An ISO 8601 instant after which the key stops working.
        #[arg(long)]
        expires_at: Option<String>,
    },
    /// List a company's keys (never their secrets).
    List {
        #[arg(long)]
        company: String,
    },
    /// Revoke a key; it answers 401 from the next request on.
    Revoke { key: String },
}

fn data_path(cli: &Cli) -> PathBuf {
    cli.data
        .clone()
        .unwrap_or_else(|| PathBuf::from(DEFAULT_DATA))
}

fn open(path: &Path) -> Result<Db> {
    Db::open(path, 2)
}

fn print(value: &Value) {
    println!(
        "{}",
        serde_json::to_string_pretty(value).unwrap_or_default()
    );
}

/// Runs one console command.
pub fn run(cli: Cli) -> ExitCode {
    match execute(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kontor: {e}");
            ExitCode::FAILURE
        }
    }
}

fn serve(path: PathBuf, args: &ServeArgs) -> Result<()> {
    server::run_until_signal(Config::new(&path, args.listen), |addr| {
        eprintln!("kontor: serving {} on http://{addr}/v1", path.display());
    })
}

fn execute(cli: Cli) -> Result<()> {
    match &cli.command {
        Command::Serve(args) if args.demo => demo::run(cli.data.clone(), args.listen),
        Command::Serve(args) => serve(data_path(&cli), args),
        Command::Demo(args) => demo::run(cli.data.clone(), args.listen),
        Command::Company(cmd) => {
            let db = open(&data_path(&cli))?;
            let company = match cmd {
                CompanyCommand::Create {
                    name,
                    country,
                    currency,
                    plan,
                    invoice_prefix,
                    payment_days,
                    timezone,
                } => {
                    let new = NewCompany {
                        name: name.clone(),
                        country: CountryCode::parse("--country", country)?,
                        currency: Currency::parse("--currency", currency)?,
                        plan: Plan::parse(plan)?,
                        invoice_prefix: invoice_prefix.clone(),
                        payment_days: *payment_days,
                        timezone: timezone.clone(),
                    };
                    db.write(|tx| company::create(tx, new))?
                }
                CompanyCommand::Plan { company: id, plan } => {
                    let plan = Plan::parse(plan)?;
                    db.write(|tx| company::set_plan(tx, id, plan))?
                }
                CompanyCommand::Workflow {
                    company: id,
                    stages,
                } => db.write(|tx| company::set_workflow(tx, id, stages))?,
            };
            print(&company.to_json());
            Ok(())
        }
        Command::Key(cmd) => {
            let db = open(&data_path(&cli))?;
            let out = match cmd {
                KeyCommand::Create {
                    company,
                    name,
                    environment,
                    scopes,
                    expires_at,
                } => {
                    let new = NewKey {
                        company_id: company.clone(),
                        name: name.clone(),
                        environment: Environment::parse(environment)?,
                        scopes: Scope::parse_list(scopes)?,
                        expires_at: expires_at
                            .as_deref()
                            .map(|t| clock::parse_instant("--expires-at", t))
                            .transpose()?,
                    };
                    db.write(|tx| keys::create(tx, new))?
                }
                KeyCommand::List { company } => db.read(|conn| keys::list(conn, company))?,
                KeyCommand::Revoke { key } => db.write(|tx| keys::revoke(tx, key))?,
            };
            print(&out);
            Ok(())
        }
    }
}
