//! The command line of sending: `company mail` and `company mail-text`,
//! `invoice send` and `invoice sends`, and the `dunning` commands, as clap
//! reads them. Nothing here checks a value beyond its type; the books do.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::console::mode::Mode;

/// The arguments of `company mail`.
#[derive(Args, Debug)]
pub struct MailArgs {
    #[arg(long)]
    pub company: String,
    /// The SMTP server's host name or address.
    #[arg(long)]
    pub host: String,
    /// The server's port (default: 465 for tls, 587 for starttls, 25 for none).
    #[arg(long)]
    pub port: Option<String>,
    /// tls (implicit, SMTPS), starttls (required) or none (a relay on loopback only).
    #[arg(long)]
    pub security: String,
    /// The sender's address.
    #[arg(long)]
    pub from: String,
    /// The sender's name.
    #[arg(long)]
    pub from_name: Option<String>,
    /// The user to log in as.
    #[arg(long, requires = "password_file")]
    pub user: Option<String>,
    /// A file whose first line is the password (never given on the command line).
    #[arg(long, requires = "user")]
    pub password_file: Option<PathBuf>,
    #[arg(long)]
    pub reply_to: Option<String>,
    /// The archive copy: every mail also goes here, as a blind copy.
    #[arg(long)]
    pub bcc: Option<String>,
    /// PEM certificates to trust besides the system's (a server with its own CA).
    #[arg(long)]
    pub ca_file: Option<PathBuf>,
    /// Whether an XRechnung or Peppol invoice goes with its PDF as a second
    /// attachment (default true).
    #[arg(long)]
    pub pdf_with_xml: Option<bool>,
    /// Send a test mail through the settings to this address once they are stored.
    #[arg(long)]
    pub test_to: Option<String>,
    /// A server on a non-public address this host may be, as `serve
    /// --mail-allow` allows it (repeatable: ADDRESS/BITS, ADDRESS or HOST).
    #[arg(long = "mail-allow")]
    pub mail_allow: Vec<String>,
}

/// The arguments of `company mail-text`.
#[derive(Args, Debug)]
pub struct MailTextArgs {
    #[arg(long)]
    pub company: String,
    /// invoice or reminder.
    #[arg(long)]
    pub purpose: String,
    /// de or en.
    #[arg(long)]
    pub language: String,
    #[arg(long)]
    pub subject: String,
    /// A file holding the body.
    #[arg(long)]
    pub body_file: PathBuf,
}

/// `invoice send`.
#[derive(Args, Debug)]
pub struct InvoiceSendArgs {
    #[arg(long)]
    pub company: String,
    pub number: String,
    /// Send here instead of the customer's invoice e-mail address.
    #[arg(long)]
    pub to: Option<String>,
    #[command(flatten)]
    pub mode: Mode,
}

/// `invoice sends`.
#[derive(Args, Debug)]
pub struct InvoiceSendsArgs {
    #[arg(long)]
    pub company: String,
    pub number: String,
    #[command(flatten)]
    pub mode: Mode,
}

#[derive(Subcommand, Debug)]
pub enum DunningCommand {
    /// What the reminders of a day would be: every overdue invoice due for
    /// its next level, with the amounts it would state. Changes nothing.
    Run {
        #[arg(long)]
        company: String,
        /// The day (default today).
        #[arg(long)]
        on: Option<String>,
        #[command(flatten)]
        mode: Mode,
    },
    /// Record and mail the reminders of a day's run.
    Send {
        #[arg(long)]
        company: String,
        #[arg(long)]
        on: Option<String>,
        /// Invoices to leave out (repeatable).
        #[arg(long, num_args = 1..)]
        except: Vec<String>,
        #[command(flatten)]
        mode: Mode,
    },
    /// Add a row to the base-rate table of §247 BGB.
    BaseRate {
        #[arg(long)]
        company: String,
        /// The day the rate applies from.
        #[arg(long)]
        from: String,
        /// The base rate in percent (e.g. 1.27, -0.88).
        #[arg(long, allow_hyphen_values = true)]
        percent: String,
    },
    /// The company's ladder, or a change of one level (what is not named stays).
    Levels(LevelArgs),
}

/// `dunning levels`.
#[derive(Args, Debug)]
pub struct LevelArgs {
    #[arg(long)]
    pub company: String,
    /// The level to change (one past the last adds a level).
    #[arg(long)]
    pub level: Option<String>,
    /// Days after the due date (level 1) or after the previous reminder.
    #[arg(long)]
    pub days: Option<String>,
    /// The level's fee, minor units of the book currency.
    #[arg(long)]
    pub fee: Option<i64>,
    /// Whether the level states default interest and the flat sum.
    #[arg(long)]
    pub interest: Option<bool>,
    /// Days the reminder gives to pay.
    #[arg(long)]
    pub pay_days: Option<String>,
    #[arg(long)]
    pub title_en: Option<String>,
    #[arg(long)]
    pub title_de: Option<String>,
    #[arg(long)]
    pub text_en: Option<String>,
    #[arg(long)]
    pub text_de: Option<String>,
}

/// Which VAT register an issue asks (`serve` and `draft issue`).
#[derive(Args, Debug, Clone)]
pub struct RegisterArgs {
    /// The VIES REST service's root URL, off (ask no one: a machine without
    /// internet), evatr (the BZSt's eVatR for a German seller) or evatr=URL.
    #[arg(long, default_value = crate::outbox::vat_register::VIES_ROOT, value_name = "URL|off|evatr")]
    pub vat_register: String,
    /// Seconds the register may take to answer.
    #[arg(long, default_value_t = 10, value_name = "SECONDS")]
    pub vat_register_timeout: u64,
}

impl RegisterArgs {
    /// The service these arguments name.
    ///
    /// Fails with `Invalid` naming `vatRegister` for an unreadable value.
    pub fn service(&self) -> crate::error::Result<crate::outbox::vat_register::Service> {
        crate::outbox::vat_register::Service::read(&self.vat_register)
            .map_err(|why| crate::error::Error::invalid("vatRegister", why))
    }

    /// The register these arguments name.
    ///
    /// Fails as `service` does.
    pub fn register(&self) -> crate::error::Result<crate::outbox::vat_register::Register> {
        Ok(crate::outbox::vat_register::Register::new(
            self.service()?,
            std::time::Duration::from_secs(self.vat_register_timeout.max(1)),
        ))
    }
}
