//! What every request to `/v1` and `/mcp` goes through before its surface
//! reads it: the shared state of a server (`App`), the request and answer
//! shapes, the first three checks of decisions §2 (key → plan → rate
//! budget) in `admit`, one read snapshot per reading request, the refusal
//! answer with its headers, and the request log line. Synchronous.

use std::sync::Arc;
use std::time::Instant;

use hyper::{Method, StatusCode};
use rusqlite::Connection;
use serde::Serialize;

use crate::access::budget::{self, RateLimiter, Verdict};
use crate::access::keys::{self, AuthedKey, KeyCache, Lookup, UsageLog};
use crate::error::{Error, Result};
use crate::outbox::address::Policy;
use crate::store::db::Db;

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
    pub screens: crate::http::screens::Settings,
    /// Pages of customers kept as the bytes of their answer.
    pub kept_pages: crate::http::kept_pages::KeptPages,
}

/// A request as the surfaces see it: its head and its whole body.
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

/// The `RateLimit-*` headers of a bucket's verdict.
pub fn rate_headers(v: &Verdict) -> Vec<(&'static str, String)> {
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
    mut headers: Vec<(&'static str, String)>,
    key_id: Option<String>,
) -> Answer {
    match error {
        Error::Unauthenticated => headers.push(("WWW-Authenticate", "Bearer".into())),
        Error::RateLimited { wait_seconds } => {
            headers.push(("Retry-After", wait_seconds.to_string()))
        }
        Error::MethodNotAllowed(allow) => headers.push(("Allow", (*allow).to_string())),
        Error::Busy => headers.push(("Retry-After", "1".into())),
        Error::Internal(detail) => tracing::error!("{detail}"),
        _ => {}
    }
    Answer {
        status: error.status(),
        headers,
        body: json_bytes(&error.rest_body()),
        key_id,
    }
}

/// A request whose key passed the first three checks, with its bucket's verdict.
pub struct Admitted {
    pub key: AuthedKey,
    pub verdict: Verdict,
}

/// A request turned away by `admit`, with the key's id and bucket when it had a valid key.
pub struct Turned {
    pub error: Error,
    pub key: Option<(String, Verdict)>,
}

impl Turned {
    /// The REST answer to this refusal (with the rate headers when a key was known).
    pub fn answer(self) -> Answer {
        match self.key {
            Some((key_id, verdict)) => refusal(&self.error, rate_headers(&verdict), Some(key_id)),
            None => refusal(&self.error, Vec::new(), None),
        }
    }
}

/// What the keys kept in memory say of a request.
pub enum Gate {
    /// The kept key passed the first three checks.
    Passed(Admitted),
    /// Refused without asking the data file.
    Turned(Turned),
    /// The key is not kept: `admit_stored` must read it.
    Unknown,
}

/// The `Authorization` value of a request: none when the header came twice
/// (two keys are no readable key, the contract's one answer for that).
fn authorization(req: &Request) -> Option<&str> {
    if req.repeated.contains(&"authorization") {
        None
    } else {
        req.authorization.as_deref()
    }
}

/// The first three checks of decisions §2 (key, plan, rate budget) from the
/// keys kept in memory, without touching the data file. Shared by REST and
/// the agent server; `confirm` completes the key check in the request's
/// snapshot.
pub fn admit_kept(app: &App, req: &Request) -> Gate {
    match app.keys.lookup(authorization(req)) {
        // A plan kept as lacking the API may have changed since: the data
        // file decides (the plan's refusal takes no token, so no budget
        // stops a flood of them; they are cheap reads).
        Lookup::Known(key) if !key.plan.includes_api() => Gate::Unknown,
        Lookup::Known(key) => match pass(app, *key) {
            Ok(admitted) => Gate::Passed(admitted),
            Err(turned) => Gate::Turned(turned),
        },
        Lookup::Refused => Gate::Turned(Turned {
            error: Error::Unauthenticated,
            key: None,
        }),
        Lookup::Unknown => Gate::Unknown,
    }
}

/// The first three checks with the key read from the data file (and kept).
///
/// Fails with `Unauthenticated`, `PlanRequired` or `RateLimited` (the last two
/// with the key and its rate headers, so the answer can carry them).
pub fn admit_stored(
    app: &App,
    conn: &Connection,
    req: &Request,
) -> std::result::Result<Admitted, Turned> {
    let key = app
        .keys
        .load(conn, authorization(req))
        .map_err(|error| Turned { error, key: None })?;
    pass(app, key)
}

/// The plan and the rate budget of an authenticated key; notes its use.
fn pass(app: &App, mut key: AuthedKey) -> std::result::Result<Admitted, Turned> {
    keys::note_use(&app.usage, &mut key);
    if !key.plan.includes_api() {
        let verdict = app.limiter.check(&key.id, false);
        return Err(Turned {
            error: Error::PlanRequired,
            key: Some((key.id, verdict)),
        });
    }
    let verdict = app.limiter.check(&key.id, true);
    if !verdict.allowed {
        let wait_seconds = verdict.retry_after_seconds;
        return Err(Turned {
            error: Error::RateLimited { wait_seconds },
            key: Some((key.id, verdict)),
        });
    }
    Ok(Admitted { key, verdict })
}

/// In the request's snapshot: the kept key still holds when the keys'
/// generation has not moved; when it has, the key is read afresh and must
/// still be usable and its company on the plan (its token is spent already).
///
/// Fails with `Unauthenticated` or `PlanRequired` when it no longer is.
pub fn confirm(
    app: &App,
    conn: &Connection,
    req: &Request,
    admitted: Admitted,
) -> std::result::Result<Admitted, Turned> {
    let current = app
        .keys
        .current(conn)
        .map_err(|error| Turned { error, key: None })?;
    if current {
        return Ok(admitted);
    }
    let mut key = app
        .keys
        .load(conn, authorization(req))
        .map_err(|error| Turned { error, key: None })?;
    key.last_used_at = admitted.key.last_used_at;
    if !key.plan.includes_api() {
        return Err(Turned {
            error: Error::PlanRequired,
            key: Some((key.id, admitted.verdict)),
        });
    }
    Ok(Admitted {
        key,
        verdict: admitted.verdict,
    })
}

/// Runs the part of a request that touches the data file on `conn` (taken
/// within the company's share): one snapshot when it only `reads`, the key
/// confirmed in it, then `handler`. `refused` renders a refusal of the key.
pub fn in_store(
    app: &App,
    conn: &Connection,
    req: &Request,
    admitted: Admitted,
    reads: bool,
    refused: fn(Turned) -> Answer,
    handler: impl FnOnce(&Connection, Admitted) -> Answer,
) -> Answer {
    let _snapshot = match snapshot(conn, reads) {
        Ok(snapshot) => snapshot,
        Err(e) => return refusal(&e, rate_headers(&admitted.verdict), Some(admitted.key.id)),
    };
    match confirm(app, conn, req, admitted) {
        Ok(admitted) => handler(conn, admitted),
        Err(turned) => refused(turned),
    }
}

/// A read transaction that ends when dropped, also when a handler panics, so
/// no pooled connection goes back to the pool inside a transaction.
pub struct ReadSnapshot<'a>(&'a Connection);

impl<'a> ReadSnapshot<'a> {
    /// Begins one snapshot: every read until the drop sees the same data.
    ///
    /// Fails only on a storage error.
    pub fn begin(conn: &'a Connection) -> Result<ReadSnapshot<'a>> {
        conn.prepare_cached("BEGIN")?.execute([])?;
        Ok(ReadSnapshot(conn))
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

impl Drop for ReadSnapshot<'_> {
    fn drop(&mut self) {
        if !self.0.is_autocommit() {
            let _ = self
                .0
                .prepare_cached("COMMIT")
                .and_then(|mut s| s.execute([]));
        }
    }
}

/// Writes the one log line of a request to stderr (never a secret).
pub fn log_line(method: &Method, path: &str, answer: &Answer, started: Instant) {
    let micros = started.elapsed().as_micros();
    tracing::info!(
        "{method} {path} {} {}.{:03}ms key={}",
        answer.status.as_u16(),
        micros / 1000,
        micros % 1000,
        answer.key_id.as_deref().unwrap_or("-")
    );
}
