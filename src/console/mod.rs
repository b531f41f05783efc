//! The product console: the clap definition of every command and `run`, which
//! turns a parsed command into calls of the domain functions and prints the
//! result as JSON on stdout (a sentence on stderr and a non-zero exit code on
//! refusal). It holds no rule of its own.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub mod demo;

use clap::{Args, Parser, Subcommand};
use serde_json::Value;

use crate::access::keys::{self, NewKey};
use crate::access::scopes::Scope;
use crate::books::company::{self, NewCompany, Plan};
use crate::books::customers;
use crate::books::drafts::{self, DocumentType, IssueOptions, NewLine};
use crate::books::invoices::{self, Method, NewPayment};
use crate::books::ledger;
use crate::books::purchases::{self, NewPurchase};
use crate::error::{Error, Result};
use crate::http::server::{self, Config};
use crate::outbox::endpoints;
use crate::rules::iso::{CountryCode, Currency};
use crate::rules::jurisdiction;
use crate::rules::money::{Decimal, Tax};
use crate::store::clock;
use crate::store::db::Db;
use crate::store::tenant::Environment;
use crate::store::tenant::{owner, Owned, Tenant};

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
    /// A customer's agreed terms.
    #[command(subcommand)]
    Customer(CustomerCommand),
    /// Drafts: create, add lines, issue.
    #[command(subcommand)]
    Draft(DraftCommand),
    /// Money in against an invoice.
    #[command(subcommand)]
    Payment(PaymentCommand),
    /// Cancel an invoice by a full correction.
    #[command(subcommand)]
    Invoice(InvoiceCommand),
    /// Incoming bills and money out against them.
    #[command(subcommand)]
    Purchase(PurchaseCommand),
    /// Close the books; the trial balance.
    #[command(subcommand)]
    Books(BooksCommand),
    /// The webhook delivery log; sending an event again.
    #[command(subcommand)]
    Webhook(WebhookCommand),
}

#[derive(Subcommand, Debug)]
pub enum WebhookCommand {
    /// The delivery log of a company's endpoints (newest first), or of one.
    Deliveries {
        #[arg(long)]
        company: String,
        #[arg(long)]
        endpoint: Option<String>,
        #[arg(long, default_value_t = 0)]
        page: i64,
        #[command(flatten)]
        mode: Mode,
    },
    /// Send a delivery's event again (same event id and body, a new delivery).
    Redeliver {
        delivery: String,
        #[command(flatten)]
        mode: Mode,
    },
}

/// Act in test mode (the sandbox books) instead of production.
#[derive(Args, Debug, Clone, Copy)]
pub struct Mode {
    #[arg(long)]
    pub sandbox: bool,
}

impl Mode {
    fn environment(self) -> Environment {
        if self.sandbox {
            Environment::Sandbox
        } else {
            Environment::Production
        }
    }
}

#[derive(Subcommand, Debug)]
pub enum CustomerCommand {
    /// Set the customer's agreed payment days (used by documents issued from now on).
    Terms {
        customer: String,
        #[arg(long)]
        payment_days: i64,
        #[command(flatten)]
        mode: Mode,
    },
}

#[derive(Subcommand, Debug)]
pub enum DraftCommand {
    /// Create an empty invoice (or quote) draft for a customer.
    Create {
        #[arg(long)]
        company: String,
        #[arg(long)]
        customer: String,
        #[arg(long)]
        quote: bool,
        #[command(flatten)]
        mode: Mode,
    },
    /// Add a line; its tax is a rate (the country's tax name) or named taxes.
    Line {
        draft: String,
        #[arg(long)]
        description: String,
        /// An exact decimal, e.g. 1.5.
        #[arg(long)]
        quantity: String,
        /// Minor units of the draft's currency.
        #[arg(long, allow_hyphen_values = true)]
        unit_price: i64,
        /// The rate in percent of the country's sales tax.
        #[arg(long, conflicts_with = "tax")]
        tax_rate: Option<String>,
        /// NAME:RATE[:REASON]; a zero rate needs the reason. Repeatable.
        #[arg(long)]
        tax: Vec<String>,
        #[command(flatten)]
        mode: Mode,
    },
    /// Check the draft, give it the next final number and freeze it.
    Issue {
        draft: String,
        #[arg(long)]
        on: Option<String>,
        #[arg(long)]
        delivered_on: Option<String>,
        /// Book-currency units per unit of the document's currency.
        #[arg(long)]
        rate: Option<String>,
        #[command(flatten)]
        mode: Mode,
    },
}

#[derive(Args, Debug)]
pub struct PaymentArgs {
    /// Minor units.
    #[arg(long, allow_hyphen_values = true)]
    amount: i64,
    #[arg(long)]
    on: Option<String>,
    /// bank, cash, card or other.
    #[arg(long, default_value = "bank")]
    method: String,
    #[arg(long)]
    reference: Option<String>,
}

#[derive(Subcommand, Debug)]
pub enum PaymentCommand {
    /// Record money in against an invoice (partial payments allowed, overpayment refused).
    Record {
        #[arg(long)]
        company: String,
        #[arg(long)]
        invoice: String,
        #[command(flatten)]
        payment: PaymentArgs,
        #[command(flatten)]
        mode: Mode,
    },
}

#[derive(Subcommand, Debug)]
pub enum InvoiceCommand {
    /// Cancel by a full correction document.
    Cancel {
        #[arg(long)]
        company: String,
        number: String,
        #[arg(long)]
        reason: String,
        #[arg(long)]
        on: Option<String>,
        #[command(flatten)]
        mode: Mode,
    },
}

#[derive(Subcommand, Debug)]
pub enum PurchaseCommand {
    /// Record an incoming bill (or a supplier's credit).
    Record {
        #[arg(long)]
        company: String,
        #[arg(long)]
        supplier: String,
        #[arg(long)]
        supplier_vat_id: Option<String>,
        #[arg(long)]
        document_number: String,
        #[arg(long)]
        date: String,
        #[arg(long)]
        due: String,
        #[arg(long)]
        currency: String,
        #[arg(long, allow_hyphen_values = true)]
        net: i64,
        #[arg(long, allow_hyphen_values = true)]
        tax: i64,
        /// bill or credit.
        #[arg(long, default_value = "bill")]
        kind: String,
        #[arg(long)]
        rate: Option<String>,
        #[command(flatten)]
        mode: Mode,
    },
    /// Record money out against a bill.
    Pay {
        purchase: String,
        #[command(flatten)]
        payment: PaymentArgs,
        #[command(flatten)]
        mode: Mode,
    },
}

#[derive(Subcommand, Debug)]
pub enum BooksCommand {
    /// Close the books through a date; later acts dated on or before it are refused.
    Close {
        #[arg(long)]
        company: String,
        #[arg(long)]
        through: String,
        #[command(flatten)]
        mode: Mode,
    },
    /// Every account's debit and credit totals, and whether they balance.
    TrialBalance {
        #[arg(long)]
        company: String,
        #[arg(long)]
        as_of: Option<String>,
        #[command(flatten)]
        mode: Mode,
    },
}

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// Start with a fresh demo company (serve only).
    #[arg(long)]
    pub demo: bool,
    /// Also allow webhooks to loopback addresses, over http, on any port
    /// (local development and tests only).
    #[arg(long)]
    pub webhook_allow_loopback: bool,
    /// A public URL the service is reached at (repeatable); its host is allowed
    /// in the agent protocol's Host and Origin checks.
    #[arg(long = "public-url")]
    pub public_urls: Vec<String>,
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
    let mut config = Config::new(&path, args.listen);
    config.webhook_allow_loopback = args.webhook_allow_loopback;
    config.public_urls = args.public_urls.clone();
    server::run_until_signal(config, |addr| {
        eprintln!("kontor: serving {} on http://{addr}/v1", path.display());
    })
}

fn date(field: &str, text: &Option<String>) -> Result<Option<jiff::civil::Date>> {
    text.as_deref()
        .map(|t| clock::parse_date(field, t))
        .transpose()
}

fn decimal(field: &str, text: &Option<String>) -> Result<Option<Decimal>> {
    text.as_deref()
        .map(|t| Decimal::parse(field, t))
        .transpose()
}

impl PaymentArgs {
    fn payment(&self) -> Result<NewPayment> {
        Ok(NewPayment {
            amount: self.amount,
            on: date("--on", &self.on)?,
            method: Method::parse(&self.method)?,
            reference: self.reference.clone().filter(|r| !r.trim().is_empty()),
        })
    }
}

/// Reads `NAME:RATE[:REASON]`.
fn named_tax(text: &str) -> Result<Tax> {
    let mut parts = text.splitn(3, ':');
    let (name, rate, reason) = (parts.next().unwrap_or(""), parts.next(), parts.next());
    let rate = rate.ok_or_else(|| {
        Error::bad_request(format!(
            "--tax {text:?} must be NAME:RATE or NAME:RATE:REASON."
        ))
    })?;
    Tax::new(name, Decimal::parse("--tax rate", rate)?, reason)
}

fn tenant(company: &str, mode: Mode) -> Tenant {
    Tenant::new(company, mode.environment())
}

/// The acts of a person on the books; each is one transaction.
fn act(db: &Db, command: &Command) -> Result<Value> {
    let json = |v: &dyn erased::Json| v.to_value();
    match command {
        Command::Customer(CustomerCommand::Terms {
            customer,
            payment_days,
            mode,
        }) => db.write(|tx| {
            let t = owner(tx, Owned::Customer, customer, mode.environment())?;
            Ok(json(&customers::set_terms(
                tx,
                &t,
                customer,
                *payment_days,
            )?))
        }),
        Command::Draft(DraftCommand::Create {
            company,
            customer,
            quote,
            mode,
        }) => db.write(|tx| {
            let t = tenant(company, *mode);
            company::get(tx, company)?;
            let kind = if *quote {
                DocumentType::Quote
            } else {
                DocumentType::Invoice
            };
            let id = drafts::create(tx, &t, customer, kind)?;
            Ok(json(&drafts::get(tx, &t, &id)?))
        }),
        Command::Draft(DraftCommand::Line {
            draft,
            description,
            quantity,
            unit_price,
            tax_rate,
            tax,
            mode,
        }) => db.write(|tx| {
            let t = owner(tx, Owned::Draft, draft, mode.environment())?;
            let country = company::get(tx, &t.company_id)?.country;
            let taxes = match tax_rate {
                Some(rate) => vec![Tax::new(
                    jurisdiction::tax_name(&country),
                    Decimal::parse("--tax-rate", rate)?,
                    None,
                )?],
                None => tax
                    .iter()
                    .map(|x| named_tax(x))
                    .collect::<Result<Vec<_>>>()?,
            };
            let line = NewLine {
                description: description.clone(),
                quantity: Decimal::parse("--quantity", quantity)?,
                unit_price: *unit_price,
                taxes,
            };
            drafts::add_line(tx, &t, draft, &line)?;
            Ok(json(&drafts::get(tx, &t, draft)?))
        }),
        Command::Draft(DraftCommand::Issue {
            draft,
            on,
            delivered_on,
            rate,
            mode,
        }) => {
            let options = IssueOptions {
                on: date("--on", on)?,
                delivered_on: date("--delivered-on", delivered_on)?,
                rate: decimal("--rate", rate)?,
            };
            db.write(|tx| {
                let t = owner(tx, Owned::Draft, draft, mode.environment())?;
                let id = drafts::issue(tx, &t, draft, &options)?;
                let today = company::get(tx, &t.company_id)?.today();
                Ok(json(&invoices::get_by_id(tx, &t, &id, today)?))
            })
        }
        Command::Payment(PaymentCommand::Record {
            company,
            invoice,
            payment,
            mode,
        }) => {
            let payment = payment.payment()?;
            db.write(|tx| {
                let t = tenant(company, *mode);
                let today = company::get(tx, company)?.today();
                let (paid, invoice_id) = invoices::record_payment(tx, &t, invoice, &payment)?;
                Ok(serde_json::json!({ "payment": paid, "invoice": invoices::get_by_id(tx, &t, &invoice_id, today)? }))
            })
        }
        Command::Invoice(InvoiceCommand::Cancel {
            company,
            number,
            reason,
            on,
            mode,
        }) => {
            let on = date("--on", on)?;
            db.write(|tx| {
                let t = tenant(company, *mode);
                let today = company::get(tx, company)?.today();
                let (original, correction) = invoices::cancel(tx, &t, number, reason, on)?;
                Ok(serde_json::json!({
                    "cancelled": invoices::get_by_id(tx, &t, &original, today)?,
                    "correction": invoices::get_by_id(tx, &t, &correction, today)?,
                }))
            })
        }
        Command::Purchase(PurchaseCommand::Record {
            company,
            supplier,
            supplier_vat_id,
            document_number,
            date: on,
            due,
            currency,
            net,
            tax,
            kind,
            rate,
            mode,
        }) => {
            let new = NewPurchase {
                supplier: supplier.clone(),
                supplier_vat_id: supplier_vat_id.clone(),
                document_number: document_number.clone(),
                date: clock::parse_date("--date", on)?,
                due: clock::parse_date("--due", due)?,
                currency: Currency::parse("--currency", currency)?,
                net: *net,
                tax: *tax,
                kind: purchases::Kind::parse(kind)?,
                rate: decimal("--rate", rate)?,
            };
            db.write(|tx| {
                let t = tenant(company, *mode);
                company::get(tx, company)?;
                let id = purchases::record(tx, &t, &new)?;
                Ok(json(&purchases::get(tx, &t, &id)?))
            })
        }
        Command::Purchase(PurchaseCommand::Pay {
            purchase,
            payment,
            mode,
        }) => {
            let payment = payment.payment()?;
            db.write(|tx| {
                let t = owner(tx, Owned::Purchase, purchase, mode.environment())?;
                let paid = purchases::pay(tx, &t, purchase, &payment)?;
                Ok(serde_json::json!({ "payment": paid, "purchase": purchases::get(tx, &t, purchase)? }))
            })
        }
        Command::Books(BooksCommand::Close {
            company,
            through,
            mode,
        }) => {
            let through = clock::parse_date("--through", through)?;
            db.write(|tx| {
                company::get(tx, company)?;
                ledger::close(tx, &tenant(company, *mode), through)
            })
        }
        Command::Books(BooksCommand::TrialBalance {
            company,
            as_of,
            mode,
        }) => {
            let as_of = date("--as-of", as_of)?;
            db.read(|conn| {
                let c = company::get(conn, company)?;
                let day = as_of.unwrap_or_else(|| c.today());
                Ok(json(&ledger::trial_balance(
                    conn,
                    &tenant(company, *mode),
                    &c.currency,
                    day,
                )?))
            })
        }
        Command::Webhook(WebhookCommand::Deliveries {
            company,
            endpoint,
            page,
            mode,
        }) => db.read(|conn| {
            company::get(conn, company)?;
            let paging = crate::http::query::Paging {
                page: (*page).max(0),
                size: 100,
            };
            Ok(json(&endpoints::deliveries(
                conn,
                &tenant(company, *mode),
                endpoint.as_deref(),
                paging,
            )?))
        }),
        Command::Webhook(WebhookCommand::Redeliver { delivery, mode }) => db.write(|tx| {
            let t = owner(tx, Owned::Delivery, delivery, mode.environment())?;
            let id = endpoints::redeliver(tx, &t, delivery)?;
            Ok(json(&endpoints::delivery(tx, &t, &id)?))
        }),
        _ => Err(Error::internal("not an act")),
    }
}

/// Serialising any record the acts print.
mod erased {
    pub trait Json {
        fn to_value(&self) -> serde_json::Value;
    }
    impl<T: serde::Serialize> Json for T {
        fn to_value(&self) -> serde_json::Value {
            serde_json::to_value(self).unwrap_or_default()
        }
    }
}

fn execute(cli: Cli) -> Result<()> {
    match &cli.command {
        Command::Serve(args) if args.demo => {
            demo::run(cli.data.clone(), args.listen, args.webhook_allow_loopback)
        }
        Command::Serve(args) => serve(data_path(&cli), args),
        Command::Demo(args) => {
            demo::run(cli.data.clone(), args.listen, args.webhook_allow_loopback)
        }
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
        command => {
            let db = open(&data_path(&cli))?;
            print(&act(&db, command)?);
            Ok(())
        }
    }
}
