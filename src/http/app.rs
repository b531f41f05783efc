//! The kernel of `http`: what every surface shares, and nothing that
//! belongs to one of them. The state of one server (`App`, with the
//! screens' configuration `ScreenConfig`), the API's request and the answer
//! every surface gives, what the readiness answer checks (`Readiness`),
//! JSON bytes and the refusal answer with its headers,
//! one read snapshot per reading request, `in_store` (a request's work on a
//! pooled connection within its company's share) and the request log line.
//! It imports no surface: the screens, REST and the agent server import it,
//! and `server`, the top of `http`, imports them all.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Instant;

use hyper::{Method, StatusCode};
use rusqlite::Connection;
use serde::Serialize;

use crate::access::budget::{self, Allowance, RateLimiter};
use crate::access::keys::{KeyCache, UsageLog};
use crate::access::lockout::Lockout;
use crate::access::sessions::Expiry;
use crate::error::{Error, Result};
use crate::http::kept_pages::KeptPages;
use crate::outbox::address::Policy;
use crate::outbox::dispatch::Pulse;
use crate::outbox::mail::reach::MailAllow;
use crate::outbox::vat_register::Register;
use crate::rules::locale::Lang;
use crate::store::db::{Db, ReadSnapshot};
use crate::store::health::FileProbe;
use crate::store::sealed::SealingKey;
use crate::store::tenant::Tenant;

/// Largest request body accepted (1 MiB).
pub const MAX_BODY: usize = 1024 * 1024;

/// What every request of one server shares.
pub struct App {
    pub db: Arc<Db>,
    pub limiter: RateLimiter,
    pub usage: UsageLog,
    /// The keys read so far, kept in memory.
    pub keys: KeyCache,
    pub log_requests: bool,
    /// Run reads on the runtime's workers when a connection is free at once
    /// (faster, but a slow read then holds a worker every request needs).
    pub reads_on_workers: bool,
    /// Where webhook endpoints may point.
    pub webhook_policy: Policy,
    /// Hosts an agent-protocol request may name in `Host` and `Origin`.
    pub mcp_hosts: Vec<String>,
    /// Sessions, cookies and sign-in waits of the screens.
    pub screens: ScreenConfig,
    /// Pages of customers kept as the bytes of their answer.
    pub kept_pages: KeptPages,
    /// The key the data file's secrets (SMTP passwords) are sealed with.
    pub sealing: Arc<SealingKey>,
    /// The SMTP servers on non-public addresses the operator allows.
    pub mail_allow: Arc<MailAllow>,
    /// The VAT register an issue asks.
    pub vat_register: Register,
    /// What the readiness answer checks.
    pub readiness: Readiness,
}

/// What `GET /readyz` checks besides a pooled connection: the data file as
/// it was opened, and the workers' pulses (set once they have started).
pub struct Readiness {
    pub file: FileProbe,
    /// Each worker the server should run (set once they have started).
    pub workers: std::sync::OnceLock<Vec<Watched>>,
    /// A check's write to the data file has not finished yet: the next
    /// check does not start another.
    pub probing: std::sync::atomic::AtomicBool,
    /// What the last check found (a change is logged, not every check).
    pub was_ready: std::sync::atomic::AtomicBool,
}

/// A worker the readiness answer watches.
pub struct Watched {
    /// The check's name in the answer (`webhookWorker`).
    pub check: &'static str,
    /// The worker in a sentence (`webhook`).
    pub what: &'static str,
    /// Its pulse; none when it was not started (tests that drive the
    /// outboxes by hand).
    pub pulse: Option<Pulse>,
}

impl Readiness {
    pub fn new(file: FileProbe) -> Readiness {
        Readiness {
            file,
            workers: Default::default(),
            probing: Default::default(),
            was_ready: std::sync::atomic::AtomicBool::new(true),
        }
    }
}

/// How the screens of one server behave: session expiry, the cookie's
/// `Secure` flag, whom to trust for the client's address, and the failed
/// sign-ins counted so far.
pub struct ScreenConfig {
    pub expiry: Expiry,
    /// Cookies carry `Secure` (the service is reached over https).
    pub secure: bool,
    /// Proxies whose `X-Forwarded-For` names the client.
    pub trusted_proxies: Vec<IpAddr>,
    /// The origins of the public URLs (`https://books.example.com`), which a
    /// form's `Origin` may name besides the request's own host.
    pub public_origins: Vec<String>,
    pub lockout: Lockout,
    /// Sign-ins whose password is being checked, at most one per core: a
    /// sign-in waits for its turn here, on the async side, so waiting
    /// sign-ins never hold the blocking threads every request needs.
    pub hashing: tokio::sync::Semaphore,
}

/// A request to the API (`/v1`, `/mcp`) as the surfaces see it: its head
/// and its whole body.
#[derive(Clone)]
pub struct Request {
    pub method: Method,
    pub path: String,
    pub query: String,
    pub authorization: Option<String>,
    pub idempotency_key: Option<String>,
    /// The headers kontor reads that came more than once (lower case): an
    /// ambiguous request, refused rather than read by its first value.
    pub repeated: Vec<&'static str>,
    /// `None` when the body was larger than `MAX_BODY`.
    pub body: Option<Vec<u8>>,
    /// The language of the answer's sentences, by `Accept-Language`
    /// (English unless German is asked for).
    pub lang: Lang,
}

/// An answer ready to be written: status, extra headers, body bytes (JSON
/// unless a `Content-Type` header says otherwise).
pub struct Answer {
    pub status: StatusCode,
    pub headers: Vec<(&'static str, String)>,
    pub body: Vec<u8>,
    /// The key that asked, for the log line.
    pub key_id: Option<String>,
}

/// The `RateLimit-*` headers of a bucket's allowance.
pub fn rate_headers(v: &Allowance) -> Vec<(&'static str, String)> {
    vec![
        ("RateLimit-Limit", budget::CAPACITY.to_string()),
        ("RateLimit-Remaining", v.remaining.to_string()),
        ("RateLimit-Reset", v.reset_seconds.to_string()),
    ]
}

/// A value as JSON bytes.
pub fn json_bytes(v: &impl Serialize) -> Vec<u8> {
    serde_json::to_vec(v).unwrap_or_else(|_| b"{}".to_vec())
}

/// The REST answer to a refusal, with the headers its kind carries; an
/// internal error is logged with its detail and answered opaquely.
pub fn refusal(
    error: &Error,
    lang: Lang,
    mut headers: Vec<(&'static str, String)>,
    key_id: Option<String>,
) -> Answer {
    match error {
        Error::Unauthenticated => headers.push(("WWW-Authenticate", "Bearer".into())),
        Error::RateLimited { wait_seconds } => {
            headers.push(("Retry-After", wait_seconds.to_string()))
        }
        Error::MethodNotAllowed(allow) => headers.push(("Allow", allow.to_string())),
        Error::Busy => headers.push(("Retry-After", "1".into())),
        Error::StorageFull => headers.push(("Retry-After", "60".into())),
        Error::Internal(detail) => tracing::error!("{detail}"),
        _ => {}
    }
    Answer {
        status: error.status(),
        headers,
        body: json_bytes(&error.rest_body(lang)),
        key_id,
    }
}

/// One snapshot for a request that only `reads`, none for one that may write
/// (it must see its own writes).
///
/// Fails only on a storage error.
pub fn snapshot(conn: &Connection, reads: bool) -> Result<Option<ReadSnapshot<'_>>> {
    if reads {
        ReadSnapshot::begin(conn).map(Some)
    } else {
        Ok(None)
    }
}

/// Whether the log is read by a program (`--log-format json`): a request's
/// line then carries its parts as fields of their own too.
pub static LOG_FIELDS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Writes the one log line of a request to stderr (never a secret).
pub fn log_line(method: &Method, path: &str, answer: &Answer, started: Instant) {
    let micros = started.elapsed().as_micros();
    let status = answer.status.as_u16();
    let key = answer.key_id.as_deref().unwrap_or("-");
    let (ms, fraction) = (micros / 1000, micros % 1000);
    if LOG_FIELDS.load(std::sync::atomic::Ordering::Relaxed) {
        tracing::info!(
            method = %method,
            path,
            status,
            duration_ms = micros as f64 / 1000.0,
            key,
            "{method} {path} {status} {ms}.{fraction:03}ms key={key}"
        );
    } else {
        tracing::info!("{method} {path} {status} {ms}.{fraction:03}ms key={key}");
    }
}

/// Runs `job` on a pooled connection within `tenant`'s share (none: a
/// request of nobody known yet). The share and the connection are waited
/// for on the worker without holding it (100 ms at most), then `job` runs
/// on a blocking thread; when reads run on the workers, a `job` that only
/// `reads` runs right here if both are free at once.
///
/// Fails with `Busy` when the share or the pool stays full, and `Internal`
/// when `job` panicked.
pub async fn in_store<T: Send + 'static>(
    app: &Arc<App>,
    reads: bool,
    tenant: Option<Tenant>,
    job: impl FnOnce(&Connection) -> T + Send + 'static,
) -> Result<T> {
    in_store_where(app, reads, false, tenant, job).await
}

/// `in_store`, where a `bounded` read (one whose cost does not grow with
/// the books, `rest::bounded`) also runs right here when its share and a
/// connection are free at once, saving the hand-over to a blocking thread
/// and back.
///
/// Fails as `in_store`.
pub async fn in_store_where<T: Send + 'static>(
    app: &Arc<App>,
    reads: bool,
    bounded: bool,
    tenant: Option<Tenant>,
    job: impl FnOnce(&Connection) -> T + Send + 'static,
) -> Result<T> {
    let shares = &app.db.shares;
    if reads && (bounded || app.reads_on_workers) {
        if let Some(conn) = shares
            .try_admit(tenant.as_ref())
            .and_then(|admission| app.db.try_checkout(admission))
        {
            return std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&conn)))
                .map_err(|_| Error::internal("a handler panicked"));
        }
    }
    let admission = shares.admit(tenant.as_ref()).await?;
    let app = app.clone();
    tokio::task::spawn_blocking(move || {
        let conn = app.db.checkout(admission)?;
        Ok(job(&conn))
    })
    .await
    .map_err(|e| Error::internal(format!("handler failed: {e}")))?
}
