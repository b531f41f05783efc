//! The top of `http`: the process's server. A hyper HTTP/1.1 server on a
//! tokio runtime of its own, started with its workers (webhooks, mail, the
//! inbox) over one data file, accepting connections within their limits and
//! handing each request to `intake`; the metrics page on an address of its
//! own (`exporter`) when one is given; graceful shutdown (in-flight requests
//! finish; SIGINT/SIGTERM or an injected stop); the hourly purge and the
//! keys' usage flushed. Nothing in `http` imports this file; nothing here
//! knows a route or a rule.

use std::convert::Infallible;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::{TcpListener, TcpSocket};
use tokio::sync::{oneshot, Semaphore};

use crate::access::budget::RateLimiter;
use crate::access::idempotency;
use crate::access::keys::UsageLog;
use crate::access::sessions::Expiry;
use crate::error::{Error, Result};
use crate::http::app::{App, Readiness, ScreenConfig, Watched};
use crate::http::connections::Connections;
use crate::http::exporter;
use crate::http::intake::{respond, Limits};
use crate::http::screens::{self};
use crate::outbox::address::Policy;
use crate::outbox::mail;
use crate::outbox::mail::reach::MailAllow;
use crate::outbox::vat_register::{self, Register, Service};
use crate::store::db::Db;
use crate::store::health::FileProbe;
use crate::store::sealed::SealingKey;

/// How a server is started.
#[derive(Debug, Clone)]
pub struct Config {
    pub data: PathBuf,
    pub listen: SocketAddr,
    /// Pooled SQLite connections.
    pub connections: u32,
    /// Write one line per request to stderr.
    pub log_requests: bool,
    /// Runtime worker threads (they read and write sockets; the data file is
    /// read and written on the blocking pool).
    pub workers: usize,
    /// Run reads on the workers when a connection is free at once: faster for
    /// short reads, but a slow read then holds a worker every request needs.
    pub reads_on_workers: bool,
    /// Keep pages of customers as the bytes of their answer (`KeptPages`).
    pub keep_pages: bool,
    /// Allow webhook endpoints and deliveries on loopback (development, tests).
    pub webhook_allow_loopback: bool,
    /// Run the delivery worker (tests drive deliveries by hand instead).
    pub deliver: bool,
    /// The mailbox of received e-invoices to poll (`serve --inbox`).
    pub inbox: Option<crate::inbox::poll::Mailbox>,
    /// Public URLs the service is reached at (behind a proxy); their hosts are
    /// allowed in the agent protocol's `Host` and `Origin` checks.
    pub public_urls: Vec<String>,
    /// How long a connection may take to send a request's head, counted from
    /// when it is ready for one (so also how long it may stay idle).
    pub header_timeout: Duration,
    /// How long a request's body may take to arrive once its key passed.
    pub body_timeout: Duration,
    /// The most connections open at once.
    pub max_connections: usize,
    /// Connections kept free for new clients: past the cap less these, the
    /// oldest idle connections are closed.
    pub connection_reserve: usize,
    /// Bodies read at once (each up to 1 MiB); more wait their turn.
    pub body_readers: usize,
    /// Hold each company (and environment) to half the pooled connections.
    pub tenant_share: bool,
    /// How long a session of the screens lives (idle and in all).
    pub session_expiry: Expiry,
    /// Proxies whose `X-Forwarded-For` names the client of the screens.
    pub trusted_proxies: Vec<IpAddr>,
    /// The VAT register an issue asks, and how long it may take.
    pub vat_register: Service,
    pub vat_register_timeout: Duration,
    /// Run the mail worker (tests send due mail by hand instead).
    pub mail: bool,
    /// How long each step of sending a mail may take.
    pub mail_time_limit: Duration,
    /// SMTP servers on non-public addresses allowed (`serve --mail-allow`).
    pub mail_allow: MailAllow,
    /// Copies of the data file on a schedule (`serve --backup-to`).
    pub backups: Option<crate::store::backups::Schedule>,
    /// The address the metrics page is served on (`/metrics`); none: no
    /// metrics are recorded. Never the public port.
    pub metrics_listen: Option<SocketAddr>,
}

impl Config {
    pub fn new(data: impl Into<PathBuf>, listen: SocketAddr) -> Config {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Config {
            data: data.into(),
            listen,
            connections: 16,
            log_requests: true,
            workers: cores + 1,
            reads_on_workers: false,
            keep_pages: true,
            webhook_allow_loopback: false,
            deliver: true,
            inbox: None,
            public_urls: Vec::new(),
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            max_connections: 4096,
            connection_reserve: 64,
            body_readers: 64,
            tenant_share: true,
            session_expiry: Expiry::default(),
            trusted_proxies: Vec::new(),
            vat_register: Service::default(),
            vat_register_timeout: vat_register::TIME_LIMIT,
            mail: true,
            mail_time_limit: mail::delivery::TIME_LIMIT,
            mail_allow: MailAllow::none(),
            backups: None,
            metrics_listen: None,
        }
    }
}

/// A listening socket on `addr` whose queue of connections not yet accepted
/// holds 4,096 (the system's cap permitting), so a burst of connections
/// reaches the server's own limits instead of being dropped by the kernel.
fn listen(addr: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(4096)
}

/// Raises the soft limit on open files to the hard one (connections are
/// files); returns the limit now in force, if it can be read.
#[cfg(unix)]
fn raise_file_limit() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write the struct given.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return None;
        }
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: limit.rlim_max,
                rlim_max: limit.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit = raised;
            }
        }
    }
    Some(limit.rlim_cur)
}

#[cfg(not(unix))]
fn raise_file_limit() -> Option<u64> {
    None
}

/// A running server; dropping it stops it gracefully.
pub struct Server {
    pub addr: SocketAddr,
    app: Arc<App>,
    mail_time_limit: Duration,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    /// Opens the data file, binds the address and serves on a thread of its own
    /// until `stop` (or drop).
    ///
    /// Fails when the data file cannot be opened or the address cannot be bound.
    pub fn start(config: Config) -> Result<Server> {
        let mail_time_limit = config.mail_time_limit;
        let (stop_tx, stop_rx) = oneshot::channel::<()>();
        let (addr, app, thread) = start_with(config, async move {
            let _ = stop_rx.await;
        })?;
        Ok(Server {
            addr,
            app,
            mail_time_limit,
            stop: Some(stop_tx),
            thread: Some(thread),
        })
    }

    /// Sends every webhook delivery due at `at`, synchronously, through the
    /// worker's own claim, send and record; returns the attempts made.
    ///
    /// Fails only on a storage error.
    pub fn deliver_due(&self, at: jiff::Timestamp) -> Result<usize> {
        let webhooks =
            crate::outbox::delivery::Webhooks::new(self.app.db.clone(), self.app.webhook_policy);
        crate::outbox::dispatch::run_due(&webhooks, at)
    }

    /// Sends every mail due at `at`, synchronously, through the mail
    /// worker's own claim, send and record (each company's on its own
    /// thread); returns the attempts made.
    ///
    /// Fails only on a storage error.
    pub fn send_due_mail(&self, at: jiff::Timestamp) -> Result<usize> {
        let mails = mail::delivery::Mails::new(
            self.app.db.clone(),
            self.app.sealing.clone(),
            self.app.mail_allow.clone(),
            self.mail_time_limit,
        );
        crate::outbox::dispatch::run_due(&mails, at)
    }

    /// Stops accepting, lets in-flight requests finish, and waits for the end.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Serves until SIGINT or SIGTERM, then shuts down gracefully. `ready` is
/// called with the bound address before the first request is accepted.
///
/// Fails when the data file cannot be opened or the address cannot be bound.
pub fn run_until_signal(config: Config, ready: impl FnOnce(SocketAddr)) -> Result<()> {
    let (addr, _app, thread) = start_with(config, shutdown_signal())?;
    ready(addr);
    let _ = thread.join();
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
    tracing::info!("stopping; in-flight requests finish first");
}

fn start_with(
    config: Config,
    stop: impl Future<Output = ()> + Send + 'static,
) -> Result<(SocketAddr, Arc<App>, std::thread::JoinHandle<()>)> {
    // One server per data file; the lock is held until the serving thread ends.
    let lock = crate::store::lock::ServerLock::serve(&config.data)?;
    // Recording starts before the file is opened, so its first waits count.
    let recorder = match config.metrics_listen {
        Some(_) => Some(exporter::install()?),
        None => None,
    };
    let db = Arc::new(Db::open(&config.data, config.connections)?);
    let file = FileProbe::new(&config.data);
    db.shares.enable(config.tenant_share);
    // Without a usable key file, everything but mail with a password serves.
    let sealing = Arc::new(SealingKey::beside_or_unusable(&config.data));
    let app = Arc::new(App {
        db: db.clone(),
        keys: Default::default(),
        limiter: RateLimiter::default(),
        usage: UsageLog::default(),
        log_requests: config.log_requests,
        reads_on_workers: config.reads_on_workers,
        kept_pages: crate::http::kept_pages::KeptPages::new(config.keep_pages),
        webhook_policy: Policy {
            allow_loopback: config.webhook_allow_loopback,
        },
        mcp_hosts: allowed_hosts(&config),
        sealing: sealing.clone(),
        mail_allow: Arc::new(config.mail_allow.clone()),
        vat_register: Register::new(config.vat_register.clone(), config.vat_register_timeout),
        screens: ScreenConfig {
            expiry: config.session_expiry,
            secure: config
                .public_urls
                .iter()
                .any(|url| url.to_ascii_lowercase().starts_with("https://")),
            trusted_proxies: config.trusted_proxies.clone(),
            public_origins: config
                .public_urls
                .iter()
                .filter_map(|url| screens::origin_of(url))
                .collect(),
            lockout: Default::default(),
            hashing: Semaphore::new(std::thread::available_parallelism().map_or(2, |n| n.get())),
        },
        readiness: Readiness::new(file),
    });
    idempotency::purge(&app.db)?;
    screens::purge(&app)?;
    // Connections are files: the cap stays below what the process may open.
    let files = raise_file_limit().unwrap_or(1024) as usize;
    let cap = config
        .max_connections
        .min(files.saturating_sub(128).max(16));
    let limits = Arc::new(Limits {
        connections: Connections::new(cap, config.connection_reserve),
        header_timeout: config.header_timeout,
        body_timeout: config.body_timeout,
        readers: Semaphore::new(config.body_readers.max(1)),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("kontor-http")
        .worker_threads(config.workers.max(1))
        // The blocking pool runs every request's reads and writes, each
        // given a thread only once it holds a pooled connection's permit.
        .max_blocking_threads((config.connections as usize * 2).max(8))
        .build()
        .map_err(|e| Error::internal(format!("cannot start the runtime: {e}")))?;
    let listener = runtime
        .block_on(async { listen(config.listen) })
        .map_err(|e| Error::refused(format!("Cannot listen on {}: {e}.", config.listen)))?;
    let addr = listener.local_addr().map_err(Error::internal)?;
    let metrics = match (config.metrics_listen, recorder) {
        (Some(at), Some(recorder)) => {
            if at.ip() == addr.ip() && at.port() == addr.port() {
                return Err(Error::refused(format!(
                    "--metrics-listen {at} is the public port; the metrics page goes on an address of its own."
                )));
            }
            let bound = runtime.block_on(async { listen(at) }).map_err(|e| {
                Error::refused(format!("Cannot listen on {at} for the metrics: {e}."))
            })?;
            let shown = bound.local_addr().map_err(Error::internal)?;
            tracing::info!("metrics on http://{shown}{}", exporter::PATH);
            Some((bound, recorder))
        }
        _ => None,
    };
    if config.webhook_allow_loopback {
        tracing::warn!("--webhook-allow-loopback: webhooks may go to loopback addresses over http; for development and tests only");
    }
    let mut poller = match config.inbox.clone() {
        Some(mailbox) => {
            tracing::info!(mailbox = %mailbox.address.shown(), every = ?mailbox.interval, "polling the mailbox of received e-invoices");
            Some(crate::inbox::poll::Poller::start(db.clone(), mailbox)?)
        }
        None => None,
    };
    if config.vat_register == Service::Off {
        tracing::warn!("--vat-register off: issuing asks no VAT register; invoices record that it was not asked");
    }
    let mut mail_worker = if config.mail {
        Some(crate::outbox::dispatch::Worker::start(
            mail::delivery::Mails::new(
                db.clone(),
                sealing,
                app.mail_allow.clone(),
                config.mail_time_limit,
            ),
        )?)
    } else {
        None
    };
    let mut backups = match config.backups.clone() {
        Some(schedule) => {
            tracing::info!(to = %schedule.dir.display(), every = ?schedule.every, keep = schedule.keep, "copying the data file on a schedule");
            Some(crate::store::backups::Backups::start(db.clone(), schedule)?)
        }
        None => None,
    };
    let mut worker = if config.deliver {
        Some(crate::outbox::delivery::start(db, app.webhook_policy)?)
    } else {
        None
    };
    let _ = app.readiness.workers.set(vec![
        Watched {
            check: "webhookWorker",
            what: "webhook",
            pulse: worker.as_ref().map(|w| w.pulse()),
        },
        Watched {
            check: "mailWorker",
            what: "mail",
            pulse: mail_worker.as_ref().map(|w| w.pulse()),
        },
    ]);
    let served = app.clone();
    let data = config.data.clone();
    let thread = std::thread::Builder::new()
        .name("kontor-server".into())
        .spawn(move || {
            let _lock = lock;
            runtime.block_on(async {
                let page = metrics.map(|(bound, recorder)| {
                    tokio::spawn(exporter::serve(bound, served.clone(), recorder, data))
                });
                serve(listener, served, limits, stop).await;
                if let Some(page) = page {
                    page.abort();
                }
            });
            runtime.shutdown_timeout(Duration::from_secs(5));
            // Requests in flight to receivers finish and are recorded.
            if let Some(w) = worker.as_mut() {
                w.stop();
            }
            if let Some(p) = poller.as_mut() {
                p.stop();
            }
            if let Some(w) = mail_worker.as_mut() {
                w.stop();
            }
            if let Some(b) = backups.as_mut() {
                b.stop();
            }
        })
        .map_err(Error::internal)?;
    Ok((addr, app, thread))
}

/// Accepts connections until `stop` completes, then waits (up to 30 s) for
/// the open connections' in-flight requests to finish.
async fn serve(
    listener: TcpListener,
    app: Arc<App>,
    limits: Arc<Limits>,
    stop: impl Future<Output = ()>,
) {
    let graceful = GracefulShutdown::new();
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    let purger = tokio::spawn(purge_hourly(app.clone()));
    let usage = tokio::spawn(flush_usage(app.clone()));
    let mut accept_errors = AcceptErrors::default();
    tokio::pin!(stop);
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let (stream, peer) = match accepted {
                    Ok(pair) => pair,
                    Err(e) => {
                        accept_errors.note(&e);
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                };
                // Past the cap, with every connection busy, a new one is closed at once.
                let Some(ticket) = limits.connections.open() else {
                    drop(stream);
                    continue;
                };
                let _ = stream.set_nodelay(true);
                let close = ticket.close.clone();
                let ticket = Arc::new(ticket);
                let (app, limits) = (app.clone(), limits.clone());
                let service = service_fn(move |req| {
                    let busy = ticket.busy();
                    let (app, limits) = (app.clone(), limits.clone());
                    async move {
                        let response = respond(app, limits, req, peer.ip()).await;
                        drop(busy);
                        Ok::<_, Infallible>(response)
                    }
                });
                let connection = graceful.watch(http.serve_connection(TokioIo::new(stream), service));
                tokio::spawn(async move {
                    tokio::select! {
                        _ = connection => {},
                        // Shed: dropping the connection closes it.
                        _ = close.notified() => {},
                    }
                });
            }
            _ = &mut stop => break,
        }
    }
    drop(listener);
    purger.abort();
    usage.abort();
    tokio::select! {
        _ = graceful.shutdown() => {},
        _ = tokio::time::sleep(Duration::from_secs(30)) => {
            tracing::warn!("some connections did not finish within 30 s");
        }
    }
    let _ = tokio::task::spawn_blocking(move || app.usage.flush(&app.db)).await;
}

/// Failed accepts (out of file descriptors, say) come in floods: each is
/// counted, and a line is logged at most once a second with the count.
#[derive(Default)]
struct AcceptErrors {
    last_logged: Option<Instant>,
    unlogged: u64,
}

impl AcceptErrors {
    fn note(&mut self, e: &std::io::Error) {
        self.unlogged += 1;
        if self
            .last_logged
            .is_none_or(|at| at.elapsed() >= Duration::from_secs(1))
        {
            tracing::error!(
                "accept failed {} time(s) since the last report: {e}",
                self.unlogged
            );
            self.unlogged = 0;
            self.last_logged = Some(Instant::now());
        }
    }
}

/// Writes the noted key uses once a second.
async fn flush_usage(app: Arc<App>) {
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    loop {
        tick.tick().await;
        let app = app.clone();
        if let Ok(Err(e)) = tokio::task::spawn_blocking(move || app.usage.flush(&app.db)).await {
            tracing::error!("cannot record key use: {e}");
        }
    }
}

async fn purge_hourly(app: Arc<App>) {
    let mut tick = tokio::time::interval(Duration::from_secs(3600));
    tick.tick().await;
    loop {
        tick.tick().await;
        let app = app.clone();
        let _ = tokio::task::spawn_blocking(move || {
            let _ = idempotency::purge(&app.db);
            if let Err(e) = screens::purge(&app) {
                tracing::error!("cannot purge expired sessions: {e}");
            }
        })
        .await;
    }
}

/// The hosts an agent-protocol request may name: loopback, the listen
/// address, and the hosts of the public URLs.
fn allowed_hosts(config: &Config) -> Vec<String> {
    let mut hosts: Vec<String> = vec!["localhost".into(), "127.0.0.1".into(), "[::1]".into()];
    let listen = match config.listen.ip() {
        std::net::IpAddr::V6(v6) => format!("[{v6}]"),
        v4 => v4.to_string(),
    };
    hosts.push(listen);
    for url in &config.public_urls {
        if let Ok(uri) = url.parse::<hyper::Uri>() {
            if let Some(host) = uri.host() {
                hosts.push(host.to_ascii_lowercase());
            }
        }
    }
    hosts
}
