//! The top of `http`: a hyper HTTP/1.1 server on a tokio runtime of its own,
//! the limits every connection and body is held to, graceful shutdown
//! (in-flight requests finish; SIGINT/SIGTERM or an injected stop), and the
//! one place that hands a request to its surface: the OpenAPI document, the
//! screens, or the API (`/v1` and `/mcp`, after the key's checks and the
//! body's reading), whose synchronous work runs on a pooled connection
//! through the kernel's `in_store`. Nothing in `http` imports this file;
//! nothing here knows a route or a rule.

use std::convert::Infallible;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderValue, CACHE_CONTROL, CONTENT_TYPE};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request as HttpRequest, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use rusqlite::Connection;
use tokio::net::{TcpListener, TcpSocket};
use tokio::sync::{oneshot, Semaphore};

use crate::access::budget::RateLimiter;
use crate::access::idempotency;
use crate::access::keys::UsageLog;
use crate::access::sessions::Expiry;
use crate::error::{Error, Result};
use crate::http::admission::{self, Admitted, Gate, Turned};
use crate::http::app::{
    in_store, in_store_where, log_line, rate_headers, refusal, Answer, App, Request, ScreenConfig,
    MAX_BODY,
};
use crate::http::connections::Connections;
use crate::http::mcp;
use crate::http::openapi;
use crate::http::rest;
use crate::http::screens::{self, Visit};
use crate::outbox::address::Policy;
use crate::outbox::mail;
use crate::outbox::vat_register::{self, Register, Service};
use crate::store::db::Db;
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
        }
    }
}

/// The limits every connection and request is held to, before any trust.
struct Limits {
    connections: Arc<Connections>,
    header_timeout: Duration,
    body_timeout: Duration,
    /// Permits to read a body; a body is read only while holding one.
    readers: Semaphore,
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
        let webhooks = crate::outbox::delivery::Webhooks::new(self.app.db.clone(), self.app.webhook_policy);
        crate::outbox::dispatch::run_due(&webhooks, at)
    }

    /// Sends every mail due at `at`, synchronously, through the mail
    /// worker's own claim, send and record (each company's on its own
    /// thread); returns the attempts made.
    ///
    /// Fails only on a storage error.
    pub fn send_due_mail(&self, at: jiff::Timestamp) -> Result<usize> {
        let mails = mail::delivery::Mails::new(self.app.db.clone(), self.app.sealing.clone(), self.mail_time_limit);
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
    let db = Arc::new(Db::open(&config.data, config.connections)?);
    db.shares.enable(config.tenant_share);
    let sealing = Arc::new(SealingKey::beside(&config.data)?);
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
        Some(crate::outbox::dispatch::Worker::start(mail::delivery::Mails::new(
            db.clone(),
            sealing,
            config.mail_time_limit,
        ))?)
    } else {
        None
    };
    let mut worker = if config.deliver {
        Some(crate::outbox::delivery::start(db, app.webhook_policy)?)
    } else {
        None
    };
    let served = app.clone();
    let thread = std::thread::Builder::new()
        .name("kontor-server".into())
        .spawn(move || {
            let _lock = lock;
            runtime.block_on(serve(listener, served, limits, stop));
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

fn header(req: &HttpRequest<Incoming>, name: &str) -> Option<String> {
    req.headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
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

/// The length a request declares for its body, if it declares one.
fn declared_length(req: &HttpRequest<Incoming>) -> Option<u64> {
    req.headers()
        .get(hyper::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse().ok())
}

/// Reads a body of at most `MAX_BODY` bytes while holding a reader's permit;
/// `None` when it is larger.
async fn read_body(body: Incoming, readers: &Semaphore) -> Option<Vec<u8>> {
    read_at_most(body, readers, MAX_BODY).await
}

/// Reads a body of at most `max` bytes while holding a reader's permit;
/// `None` when it is larger.
async fn read_at_most(body: Incoming, readers: &Semaphore, max: usize) -> Option<Vec<u8>> {
    let _permit = readers.acquire().await.ok()?;
    match Limited::new(body, max).collect().await {
        Ok(collected) => Some(collected.to_bytes().to_vec()),
        Err(e)
            if e.downcast_ref::<http_body_util::LengthLimitError>()
                .is_some() =>
        {
            None
        }
        // A body cut off midway: what arrived is no request.
        Err(_) => Some(Vec::new()),
    }
}

/// An answer given before the body was read: the connection closes after
/// it, since the unread body would otherwise be taken for the next request.
fn closing(mut answer: Answer) -> Answer {
    answer.headers.push(("Connection", "close".into()));
    answer
}

/// What is read and thrown away of an unread body after an early answer, so
/// a client still sending it can read the answer (a lingering close).
const LINGER_BYTES: usize = 2 * MAX_BODY;
/// How long that may take.
const LINGER: Duration = Duration::from_secs(2);

/// Reads and discards what a client keeps sending after an early answer, up
/// to `LINGER_BYTES` and for at most `LINGER`; nothing is kept.
fn linger(body: Incoming) {
    tokio::spawn(async move {
        let drain = async move {
            let mut body = body;
            let mut seen = 0;
            while let Some(Ok(frame)) = body.frame().await {
                seen += frame.data_ref().map_or(0, |d| d.len());
                if seen > LINGER_BYTES {
                    break;
                }
            }
        };
        let _ = tokio::time::timeout(LINGER, drain).await;
    });
}

/// Answers one request and writes its log line.
async fn respond(
    app: Arc<App>,
    limits: Arc<Limits>,
    req: HttpRequest<Incoming>,
    peer: IpAddr,
) -> Response<Full<Bytes>> {
    let started = Instant::now();
    let log_requests = app.log_requests;
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let answer = answer(app, &limits, req, peer).await;
    if log_requests {
        log_line(&method, &path, &answer, started);
    }
    into_response(answer)
}

/// The surface a request goes to: the OAuth discovery addresses (which do
/// not exist here: keys are Bearer keys), the API's description (public,
/// like the addresses it names), the screens (everything outside the API),
/// or the API.
async fn answer(
    app: Arc<App>,
    limits: &Limits,
    req: HttpRequest<Incoming>,
    peer: IpAddr,
) -> Answer {
    let path = req.uri().path();
    if path.starts_with("/.well-known/") {
        refusal(&Error::not_found("This address"), Vec::new(), None)
    } else if path == openapi::PATH {
        openapi::answer(req.method())
    } else if screens::owns(path) {
        visit_screens(app, limits, req, peer).await
    } else {
        call_api(app, limits, req).await
    }
}

/// A request to `/v1` or `/mcp`: its head read, the agent server's own
/// checks, the key, the plan and the budget before a byte of the body is
/// read, the body read within its limits, then the surface's work on a
/// pooled connection.
async fn call_api(app: Arc<App>, limits: &Limits, req: HttpRequest<Incoming>) -> Answer {
    let mcp_headers = (req.uri().path() == "/mcp").then(|| mcp_headers(&req));
    let has_body = hyper::body::Body::size_hint(req.body()).exact() != Some(0);
    let declared = declared_length(&req);
    let mut request = api_request(&req);
    // An answer before the body is read closes the connection (lingering
    // long enough for the client to read it).
    let early = |answer: Answer, body: Incoming| {
        if has_body {
            linger(body);
            closing(answer)
        } else {
            answer
        }
    };
    let refused: fn(Turned) -> Answer = match mcp_headers {
        Some(_) => mcp::refused,
        None => Turned::answer,
    };
    if let Some(headers) = &mcp_headers {
        if let Err(answer) = mcp::precheck(&app, &request, headers) {
            return early(answer, req.into_body());
        }
    }
    let admitted = match admit(&app, &request, refused).await {
        Ok(admitted) => admitted,
        Err(answer) => return early(answer, req.into_body()),
    };
    if has_body {
        match read_api_body(limits, req.into_body(), declared, &admitted).await {
            Ok(body) => request.body = body,
            Err(answer) => return answer,
        }
    }
    serve_api(app, request, mcp_headers, admitted).await
}

/// The head of a request to the API, as the surfaces read it (the body
/// follows once the key passed).
fn api_request(req: &HttpRequest<Incoming>) -> Request {
    Request {
        method: req.method().clone(),
        path: req.uri().path().to_string(),
        query: req.uri().query().unwrap_or("").to_string(),
        authorization: header(req, "authorization"),
        idempotency_key: header(req, "idempotency-key"),
        repeated: ["authorization", "idempotency-key"]
            .into_iter()
            .filter(|name| req.headers().get_all(*name).iter().count() > 1)
            .collect(),
        body: Some(Vec::new()),
    }
}

/// What `/mcp` reads of a request's headers.
fn mcp_headers(req: &HttpRequest<Incoming>) -> mcp::Headers {
    mcp::Headers {
        origin: header(req, "origin"),
        host: header(req, "host"),
        protocol_version: header(req, "mcp-protocol-version"),
        method: header(req, "mcp-method"),
        name: header(req, "mcp-name"),
        duplicated: ["MCP-Protocol-Version", "Mcp-Method", "Mcp-Name"]
            .into_iter()
            .find(|name| req.headers().get_all(*name).iter().count() > 1),
    }
}

/// The key, the plan and the budget of a request: from the keys kept in
/// memory, or (first use) from the data file.
///
/// Fails with the refusal rendered by `refused`, or 503 when no connection
/// frees up in time.
async fn admit(
    app: &Arc<App>,
    request: &Request,
    refused: fn(Turned) -> Answer,
) -> std::result::Result<Admitted, Answer> {
    match admission::admit_kept(app, request) {
        Gate::Passed(admitted) => Ok(admitted),
        Gate::Turned(turned) => Err(refused(turned)),
        Gate::Unknown => admit_from_store(app, request, refused).await,
    }
}

/// Reads the body of an admitted request within the body deadline and
/// the readers' cap; `None` inside when it is larger than `MAX_BODY`.
///
/// Fails with the answer (closing the connection) when it declares more
/// than `MAX_BODY` or arrives too slowly.
async fn read_api_body(
    limits: &Limits,
    body: Incoming,
    declared: Option<u64>,
    admitted: &Admitted,
) -> std::result::Result<Option<Vec<u8>>, Answer> {
    let too_large = |error: Error| {
        closing(refusal(
            &error,
            rate_headers(&admitted.allowance),
            Some(admitted.key.id.clone()),
        ))
    };
    if declared.is_some_and(|length| length > MAX_BODY as u64) {
        linger(body);
        return Err(too_large(Error::PayloadTooLarge));
    }
    let deadline = limits.body_timeout;
    tokio::time::timeout(deadline, read_body(body, &limits.readers))
        .await
        .map_err(|_| too_large(Error::TooSlow(deadline.as_secs())))
}

/// The work of an admitted API request on a pooled connection of its
/// company's share: the agent server's for `/mcp`, REST's otherwise. The
/// data file is read and written on the blocking pool, so a slow read never
/// holds a worker other requests need; a read of bounded cost may run right
/// here when its share and a connection are free at once.
async fn serve_api(
    app: Arc<App>,
    request: Request,
    mcp_headers: Option<mcp::Headers>,
    admitted: Admitted,
) -> Answer {
    let tenant = admitted.key.tenant.clone();
    let (busy_headers, busy_key) = (rate_headers(&admitted.allowance), admitted.key.id.clone());
    let busy = move |e: Error| refusal(&e, busy_headers, Some(busy_key));
    let bounded = mcp_headers.is_none() && rest::bounded(&request);
    let (reads, serve): (bool, Serve) = match mcp_headers {
        Some(headers) => {
            let parsed = mcp::parse(&request);
            let writes = mcp::may_write(&parsed);
            let app = app.clone();
            (
                !writes,
                Box::new(move |conn| {
                    mcp::handle(&app, conn, &request, &headers, parsed, writes, admitted)
                }),
            )
        }
        None => {
            let app = app.clone();
            (
                request.method == hyper::Method::GET,
                Box::new(move |conn| rest::handle(&app, conn, &request, admitted)),
            )
        }
    };
    in_store_where(&app, reads, bounded, Some(tenant), serve)
        .await
        .unwrap_or_else(busy)
}

/// A request to the screens: its head read, its form body (at most
/// `screens::MAX_FORM`, a statement upload `screens::body_limit`'s) read within the body deadline and the readers' cap,
/// then the screens' answer.
async fn visit_screens(
    app: Arc<App>,
    limits: &Limits,
    req: HttpRequest<Incoming>,
    peer: IpAddr,
) -> Answer {
    let has_body = hyper::body::Body::size_hint(req.body()).exact() != Some(0);
    let declared = declared_length(&req);
    let client = screens::client_address(
        peer,
        header(&req, "x-forwarded-for").as_deref(),
        &app.screens.trusted_proxies,
    );
    let mut visit = Visit {
        method: req.method().clone(),
        path: req.uri().path().to_string(),
        query: req.uri().query().unwrap_or("").to_string(),
        cookie: header(&req, "cookie"),
        origin: header(&req, "origin"),
        host: header(&req, "host"),
        accept_language: header(&req, "accept-language"),
        content_type: header(&req, "content-type"),
        client,
        body: Some(Vec::new()),
    };
    if has_body {
        let limit = screens::body_limit(&visit.method, &visit.path, visit.content_type.as_deref());
        if declared.is_some_and(|length| length > limit as u64) {
            linger(req.into_body());
            visit.body = None;
        } else {
            let deadline = limits.body_timeout;
            let reading = read_at_most(req.into_body(), &limits.readers, limit);
            match tokio::time::timeout(deadline, reading).await {
                Ok(body) => visit.body = body,
                Err(_) => {
                    let lang = crate::rules::locale::Lang::from_accept_language(
                        visit.accept_language.as_deref(),
                    );
                    return closing(screens::refused(&Error::TooSlow(deadline.as_secs()), lang));
                }
            }
        }
    }
    screens::serve(app, visit).await
}

/// The part of a request that runs on a connection of the data file.
type Serve = Box<dyn FnOnce(&Connection) -> Answer + Send>;

/// Reads the key of a request that is not kept, from the data file.
///
/// Fails with the refusal rendered by `refused`, or 503 when no connection
/// frees up in time.
async fn admit_from_store(
    app: &Arc<App>,
    request: &Request,
    refused: fn(Turned) -> Answer,
) -> std::result::Result<Admitted, Answer> {
    let (reader, request) = (app.clone(), request.clone());
    in_store(app, true, None, move |conn| {
        admission::admit_stored(&reader, conn, &request).map_err(refused)
    })
    .await
    .unwrap_or_else(|e| Err(refusal(&e, Vec::new(), None)))
}

/// The header name for a name an answer uses (the common ones without parsing).
fn header_name(name: &'static str) -> Option<hyper::header::HeaderName> {
    let known = match name {
        "RateLimit-Limit" => "ratelimit-limit",
        "RateLimit-Remaining" => "ratelimit-remaining",
        "RateLimit-Reset" => "ratelimit-reset",
        "Retry-After" => "retry-after",
        "WWW-Authenticate" => "www-authenticate",
        "Allow" => "allow",
        "Idempotent-Replayed" => "idempotent-replayed",
        "Content-Type" => "content-type",
        "Connection" => "connection",
        "X-Accel-Buffering" => "x-accel-buffering",
        other => return hyper::header::HeaderName::from_bytes(other.as_bytes()).ok(),
    };
    Some(hyper::header::HeaderName::from_static(known))
}

fn into_response(answer: Answer) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(answer.body)));
    *response.status_mut() = answer.status;
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    // Answers carry keys' identities, secrets and the books: no cache keeps them.
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    for (name, value) in answer.headers {
        if let (Some(name), Ok(value)) = (header_name(name), HeaderValue::try_from(value)) {
            // A sign-in sets one cookie and clears another.
            if name == hyper::header::SET_COOKIE {
                headers.append(name, value);
            } else {
                headers.insert(name, value);
            }
        }
    }
    response
}
