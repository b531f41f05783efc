//! The arguments of `serve` (and `demo`, which serves the same way) as clap
//! reads them, and how they apply to a server's configuration.

use std::net::SocketAddr;

use clap::{Args, ValueEnum};

use crate::console::sending_args::RegisterArgs;

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
    /// An SMTP server on a non-public address companies may send through
    /// (repeatable): a range (10.0.0.0/8), an address (127.0.0.1) or a host
    /// name (relay.internal), whose addresses are then not checked.
    #[arg(long = "mail-allow")]
    pub mail_allow: Vec<String>,
    /// A folder to copy the data file into on a schedule (as `kontor backup`
    /// copies it), one copy when the server starts and one each interval.
    #[arg(long)]
    pub backup_to: Option<std::path::PathBuf>,
    /// How often: a number with s, m, h or d.
    #[arg(long, default_value = "1h")]
    pub backup_every: String,
    /// How many copies to keep; the oldest beyond are removed.
    #[arg(long, default_value_t = 48)]
    pub backup_keep: usize,
    /// A public URL the service is reached at (repeatable); its host is allowed
    /// in the agent protocol's Host and Origin checks.
    #[arg(long = "public-url")]
    pub public_urls: Vec<String>,
    /// Seconds a connection may take to send a request's head, counted from
    /// when it is ready for one (so also how long it may stay idle).
    #[arg(long, default_value_t = 10)]
    pub header_timeout: u64,
    /// Seconds a request's body may take to arrive once its key passed (408 after).
    #[arg(long, default_value_t = 30)]
    pub body_timeout: u64,
    /// The most connections open at once (kept below the open-files limit).
    #[arg(long, default_value_t = 4096)]
    pub max_connections: usize,
    /// Connections kept free for new clients: past the cap less these, the
    /// oldest idle connections are closed.
    #[arg(long, default_value_t = 64)]
    pub connection_reserve: usize,
    /// Bodies read at once (each up to 1 MiB); more wait their turn.
    #[arg(long, default_value_t = 64)]
    pub body_readers: usize,
    /// Let one company take every pooled connection (by default each company
    /// and environment holds at most half, so its slow reads cannot stall
    /// the others).
    #[arg(long)]
    pub no_tenant_share: bool,
    /// Pooled connections to the data file (each company and environment
    /// holds at most half).
    #[arg(long, default_value_t = 16)]
    pub connections: u32,
    /// Run short reads on the async workers instead of the blocking pool:
    /// faster, but one slow read then stalls every request on its worker.
    #[arg(long)]
    pub reads_on_workers: bool,
    /// Read every page of customers afresh instead of answering a kept one
    /// while the company's customers are unchanged (for comparison).
    #[arg(long)]
    pub no_kept_pages: bool,
    /// Minutes without a request after which a session of the screens ends.
    #[arg(long, default_value_t = 30, value_name = "MINUTES")]
    pub session_idle_minutes: u64,
    /// Hours after sign-in at which a session of the screens ends in any case.
    #[arg(long, default_value_t = 12, value_name = "HOURS")]
    pub session_absolute_hours: u64,
    /// A reverse proxy (its address, repeatable) whose X-Forwarded-For header
    /// names the client; without it, the peer is the client.
    #[arg(long = "trusted-proxy", value_name = "ADDR")]
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// A mailbox of received e-invoices to poll: imaps://user@host/FOLDER
    /// (imap:// on a loopback address only); the password comes from
    /// KONTOR_INBOX_PASSWORD or --inbox-password-file.
    #[arg(long, value_name = "URL")]
    pub inbox: Option<String>,
    /// The company whose bills the mailbox's e-invoices are.
    #[arg(long, value_name = "ORG", requires = "inbox")]
    pub inbox_company: Option<String>,
    /// Receive into the company's test books.
    #[arg(long, requires = "inbox")]
    pub inbox_sandbox: bool,
    /// Seconds between two polls (a poll at start, then every interval).
    #[arg(long, default_value_t = 300, value_name = "SECONDS")]
    pub inbox_interval: u64,
    /// A PEM file of the CA certificates the mailbox's server is checked
    /// against (default: the web's public roots).
    #[arg(long, value_name = "PEM", requires = "inbox")]
    pub inbox_ca_file: Option<std::path::PathBuf>,
    /// A file whose first line is the mailbox's password.
    #[arg(long, value_name = "FILE", requires = "inbox")]
    pub inbox_password_file: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub register: RegisterArgs,
    /// Seconds each step of sending a mail may take (connecting, each reply).
    #[arg(long, default_value_t = 60, value_name = "SECONDS")]
    pub mail_timeout: u64,
    /// Serve the metrics (Prometheus text format, GET /metrics) on this
    /// address of their own, never on the public port (e.g. 127.0.0.1:9464).
    #[arg(long, value_name = "ADDR")]
    pub metrics_listen: Option<SocketAddr>,
    /// The log's lines on stderr: text (one line per event) or json (one
    /// JSON object per line, for journald and log collectors).
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

/// How the server's log lines are written.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogFormat {
    Text,
    Json,
}

impl ServeArgs {
    /// The mailbox `--inbox` names, with its password, company and
    /// interval; none without `--inbox`.
    ///
    /// Fails with `Invalid` naming `inbox`, `inbox-company` or
    /// `inbox-password-file` for an unreadable address, a missing company,
    /// or no password (neither `KONTOR_INBOX_PASSWORD` nor a readable file).
    pub fn mailbox(&self) -> crate::error::Result<Option<crate::inbox::poll::Mailbox>> {
        use crate::error::Error;
        let Some(url) = &self.inbox else {
            return Ok(None);
        };
        let address = crate::inbox::address::MailboxAddress::parse(url)?;
        let company = self.inbox_company.clone().ok_or_else(|| {
            Error::invalid(
                "inboxCompany",
                "is needed with --inbox: the company the bills are for",
            )
        })?;
        let password = match &self.inbox_password_file {
            Some(file) => std::fs::read_to_string(file)
                .map_err(|e| Error::invalid("inboxPasswordFile", format!("cannot be read: {e}")))?
                .lines()
                .next()
                .unwrap_or_default()
                .to_string(),
            None => std::env::var("KONTOR_INBOX_PASSWORD").map_err(|_| {
                Error::invalid(
                    "inbox",
                    "needs its password in KONTOR_INBOX_PASSWORD or --inbox-password-file",
                )
            })?,
        };
        Ok(Some(crate::inbox::poll::Mailbox {
            address,
            password,
            ca_file: self.inbox_ca_file.clone(),
            company,
            environment: if self.inbox_sandbox {
                crate::store::tenant::Environment::Sandbox
            } else {
                crate::store::tenant::Environment::Production
            },
            interval: std::time::Duration::from_secs(self.inbox_interval.max(1)),
        }))
    }

    /// These arguments applied to a server's configuration.
    ///
    /// Fails with `Invalid` naming `vatRegister` for an unreadable register.
    pub fn apply(&self, config: &mut crate::http::server::Config) -> crate::error::Result<()> {
        config.webhook_allow_loopback = self.webhook_allow_loopback;
        config.mail_allow = crate::outbox::mail::reach::MailAllow::parse(&self.mail_allow)?;
        config.backups = match &self.backup_to {
            Some(dir) => Some(crate::store::backups::Schedule {
                dir: dir.clone(),
                every: crate::store::backups::interval(&self.backup_every)?,
                keep: self.backup_keep.max(1),
            }),
            None => None,
        };
        config.public_urls = self.public_urls.clone();
        config.header_timeout = std::time::Duration::from_secs(self.header_timeout.max(1));
        config.body_timeout = std::time::Duration::from_secs(self.body_timeout.max(1));
        config.max_connections = self.max_connections;
        config.connection_reserve = self.connection_reserve;
        config.body_readers = self.body_readers;
        config.tenant_share = !self.no_tenant_share;
        config.connections = self.connections.clamp(2, 256);
        config.reads_on_workers = self.reads_on_workers;
        config.keep_pages = !self.no_kept_pages;
        config.session_expiry = crate::access::sessions::Expiry {
            idle: std::time::Duration::from_secs(self.session_idle_minutes.max(1) * 60),
            absolute: std::time::Duration::from_secs(self.session_absolute_hours.max(1) * 3600),
        };
        config.trusted_proxies = self.trusted_proxies.clone();
        config.mail_time_limit = std::time::Duration::from_secs(self.mail_timeout.max(1));
        config.vat_register_timeout =
            std::time::Duration::from_secs(self.register.vat_register_timeout.max(1));
        config.vat_register = self.register.service()?;
        config.metrics_listen = self.metrics_listen;
        Ok(())
    }
}
