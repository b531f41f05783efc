//! The REST pipeline under `/v1`: the route table, the order of checks of
//! decisions §2 (key → plan → rate budget → scopes → readable request → record
//! → domain rules), and the one place where a `Result` becomes an answer.
//! Handlers live with their resources; this module only translates and checks
//! the request's envelope. It is synchronous: the HTTP layer calls `handle` on
//! a blocking thread with the body already read.

use std::sync::Arc;
use std::time::Instant;

use hyper::{Method, StatusCode};
use rusqlite::Connection;
use serde::Serialize;

use crate::access::budget::{self, RateLimiter, Verdict};
use crate::access::idempotency::{self, Outcome};
use crate::access::keys::{self, AuthedKey, UsageLog};
use crate::access::scopes::Operation;
use crate::books::customers;
use crate::books::drafts;
use crate::books::invoices;
use crate::books::report;
use crate::books::transactions;
use crate::error::{Error, Result};
use crate::http::fields::{self, Fields};
use crate::http::query::{percent_decode, Query};
use crate::outbox::address::Policy;
use crate::outbox::endpoints;
use crate::store::db::{Db, Tx};
use crate::store::tenant::Tenant;

/// Largest request body accepted (1 MiB).
pub const MAX_BODY: usize = 1024 * 1024;

/// What every request of one server shares.
pub struct App {
    pub db: Arc<Db>,
    pub limiter: RateLimiter,
    pub usage: UsageLog,
    pub log_requests: bool,
    /// Where webhook endpoints may point.
    pub webhook_policy: Policy,
    /// Hosts an agent-protocol request may name in `Host` and `Origin`.
    pub mcp_hosts: Vec<String>,
}

/// A request as the pipeline sees it: its head and its whole body.
pub struct Request {
    pub method: Method,
    pub path: String,
    pub query: String,
    pub authorization: Option<String>,
    pub idempotency_key: Option<String>,
    /// `None` when the body was larger than `MAX_BODY`.
    pub body: Option<Vec<u8>>,
}

/// An answer ready to be written: status, extra headers, JSON bytes.
pub struct Answer {
    pub status: StatusCode,
    pub headers: Vec<(&'static str, String)>,
    pub body: Vec<u8>,
    /// The key that asked, for the log line.
    pub key_id: Option<String>,
}

/// A handler's successful result, its body already serialised.
pub struct Reply {
    pub status: u16,
    pub body: Vec<u8>,
    pub replayed: bool,
}

impl Reply {
    pub fn ok(body: &impl Serialize) -> Reply {
        Reply {
            status: 200,
            body: json_bytes(body),
            replayed: false,
        }
    }
}

impl<T: Serialize> From<Outcome<T>> for Reply {
    fn from(o: Outcome<T>) -> Reply {
        Reply {
            status: o.status,
            body: json_bytes(&o.body),
            replayed: o.replayed,
        }
    }
}

/// One authenticated, permitted call, handed to a resource's handler.
pub struct Call<'a> {
    pub app: &'a App,
    /// The request's read connection; for a GET, inside one read transaction,
    /// so every read of the handler sees one snapshot.
    pub conn: &'a Connection,
    pub key: &'a AuthedKey,
    pub method: &'a Method,
    pub path: &'a str,
    pub query: &'a Query,
    pub body: &'a [u8],
    pub idempotency_key: Option<&'a str>,
}

impl Call<'_> {
    pub fn tenant(&self) -> &Tenant {
        &self.key.tenant
    }

    /// Runs `f` on the request's read connection.
    pub fn read<T>(&self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        f(self.conn)
    }

    /// Creates a record once per Idempotency-Key: 201 with the record read
    /// back, or the replay of the first answer. `create` returns the new id.
    ///
    /// Fails with what `create` or `read` fail with, or `IdempotencyConflict`.
    pub fn create_once<T: Serialize>(
        &self,
        key: &str,
        fingerprint: &str,
        create: impl FnOnce(&Tx) -> Result<String>,
        read: impl Fn(&Connection, &str) -> Result<T>,
    ) -> Result<Reply> {
        self.act_once(key, fingerprint, 201, create, read)
    }

    /// Like `create_once`, answering `status` (202 for work accepted).
    ///
    /// Fails with what `create` or `read` fail with, or `IdempotencyConflict`.
    pub fn act_once<T: Serialize>(
        &self,
        key: &str,
        fingerprint: &str,
        status: u16,
        create: impl FnOnce(&Tx) -> Result<String>,
        read: impl Fn(&Connection, &str) -> Result<T>,
    ) -> Result<Reply> {
        let tenant = self.tenant();
        let outcome = idempotency::run(
            &self.app.db,
            self.conn,
            tenant,
            key,
            fingerprint,
            |tx| Ok((status, create(tx)?)),
            read,
        )?;
        Ok(Reply::from(outcome))
    }

    /// For a POST: the checked Idempotency-Key, the request's fingerprint and the body's fields.
    ///
    /// Fails with `BadRequest` for a missing or overlong key or an unreadable body.
    pub fn idempotent_body(&self) -> Result<(&str, String, Fields)> {
        let key = idempotency::check_key(self.idempotency_key)?;
        let parsed = fields::parse_json(self.body)?;
        let fingerprint = idempotency::fingerprint(self.method.as_str(), self.path, &parsed);
        Ok((key, fingerprint, Fields::from_value(parsed)?))
    }
}

/// Every address of the API, with the ids its path carries.
#[derive(Debug)]
enum Route<'a> {
    Me,
    ListCustomers,
    GetCustomer(&'a str),
    CreateCustomer,
    ListTransactions,
    GetTransaction(&'a str),
    CreateTransaction,
    UpdateTransaction(&'a str),
    ListInvoices,
    GetInvoice(&'a str),
    CreateDraft,
    OutstandingReport,
    ListWebhooks,
    WebhookEvents,
    CreateWebhook,
    DisableWebhook(&'a str),
    WebhookDeliveries(&'a str),
    Redeliver(&'a str, &'a str),
}

impl Route<'_> {
    fn operation(&self) -> Operation {
        match self {
            Route::Me => Operation::Me,
            Route::ListCustomers => Operation::ListCustomers,
            Route::GetCustomer(_) => Operation::GetCustomer,
            Route::CreateCustomer => Operation::CreateCustomer,
            Route::ListTransactions => Operation::ListTransactions,
            Route::GetTransaction(_) => Operation::GetTransaction,
            Route::CreateTransaction => Operation::CreateTransaction,
            Route::UpdateTransaction(_) => Operation::UpdateTransaction,
            Route::ListInvoices => Operation::ListInvoices,
            Route::GetInvoice(_) => Operation::GetInvoice,
            Route::CreateDraft => Operation::CreateDraft,
            Route::OutstandingReport => Operation::OutstandingReport,
            Route::ListWebhooks
            | Route::WebhookEvents
            | Route::CreateWebhook
            | Route::DisableWebhook(_)
            | Route::WebhookDeliveries(_)
            | Route::Redeliver(..) => Operation::ManageWebhooks,
        }
    }
}

/// The route table. A known path with another method yields the `Allow` list.
fn route<'a>(method: &Method, segments: &[&'a str]) -> Result<Route<'a>> {
    use Method as M;
    let route = match (method, segments) {
        (&M::GET, ["v1", "me"]) => Route::Me,
        (&M::GET, ["v1", "customers"]) => Route::ListCustomers,
        (&M::POST, ["v1", "customers"]) => Route::CreateCustomer,
        (&M::GET, ["v1", "customers", id]) => Route::GetCustomer(id),
        (&M::GET, ["v1", "transactions"]) => Route::ListTransactions,
        (&M::POST, ["v1", "transactions"]) => Route::CreateTransaction,
        (&M::GET, ["v1", "transactions", id]) => Route::GetTransaction(id),
        (&M::PATCH, ["v1", "transactions", id]) => Route::UpdateTransaction(id),
        (&M::GET, ["v1", "invoices"]) => Route::ListInvoices,
        (&M::POST, ["v1", "invoices", "drafts"]) => Route::CreateDraft,
        (&M::GET, ["v1", "invoices", number]) if *number != "drafts" => Route::GetInvoice(number),
        (&M::GET, ["v1", "reports", "outstanding"]) => Route::OutstandingReport,
        (&M::GET, ["v1", "webhooks"]) => Route::ListWebhooks,
        (&M::POST, ["v1", "webhooks"]) => Route::CreateWebhook,
        (&M::GET, ["v1", "webhooks", "events"]) => Route::WebhookEvents,
        (&M::DELETE, ["v1", "webhooks", id]) if *id != "events" => Route::DisableWebhook(id),
        (&M::GET, ["v1", "webhooks", id, "deliveries"]) => Route::WebhookDeliveries(id),
        (&M::POST, ["v1", "webhooks", id, "deliveries", delivery, "redeliver"]) => {
            Route::Redeliver(id, delivery)
        }
        (_, path) => {
            let allow = match path {
                ["v1", "me"] => "GET",
                ["v1", "customers"] | ["v1", "transactions"] => "GET, POST",
                ["v1", "customers", _] => "GET",
                ["v1", "transactions", _] => "GET, PATCH",
                ["v1", "invoices"] | ["v1", "reports", "outstanding"] => "GET",
                ["v1", "invoices", "drafts"] => "POST",
                ["v1", "invoices", _] => "GET",
                ["v1", "webhooks"] => "GET, POST",
                ["v1", "webhooks", "events"] => "GET",
                ["v1", "webhooks", _] => "DELETE",
                ["v1", "webhooks", _, "deliveries"] => "GET",
                ["v1", "webhooks", _, "deliveries", _, "redeliver"] => "POST",
                _ => return Err(Error::not_found("This address")),
            };
            return Err(Error::MethodNotAllowed(allow));
        }
    };
    Ok(route)
}

fn dispatch(call: &Call, route: Route) -> Result<Reply> {
    match route {
        Route::Me => Ok(Reply::ok(&call.key.identity())),
        Route::ListCustomers => customers::http_list(call),
        Route::GetCustomer(id) => customers::http_get(call, id),
        Route::CreateCustomer => customers::http_create(call),
        Route::ListTransactions => transactions::http_list(call),
        Route::GetTransaction(id) => transactions::http_get(call, id),
        Route::CreateTransaction => transactions::http_create(call),
        Route::UpdateTransaction(id) => transactions::http_update(call, id),
        Route::ListInvoices => invoices::http_list(call),
        Route::GetInvoice(number) => invoices::http_get(call, number),
        Route::CreateDraft => drafts::http_create(call),
        Route::OutstandingReport => report::http_outstanding(call),
        Route::ListWebhooks => endpoints::http_list(call),
        Route::WebhookEvents => endpoints::http_events(),
        Route::CreateWebhook => endpoints::http_create(call),
        Route::DisableWebhook(id) => endpoints::http_disable(call, id),
        Route::WebhookDeliveries(id) => endpoints::http_deliveries(call, id),
        Route::Redeliver(id, delivery) => endpoints::http_redeliver(call, id, delivery),
    }
}

pub fn rate_headers(v: &Verdict) -> Vec<(&'static str, String)> {
    vec![
        ("RateLimit-Limit", budget::CAPACITY.to_string()),
        ("RateLimit-Remaining", v.remaining.to_string()),
        ("RateLimit-Reset", v.reset_seconds.to_string()),
    ]
}

fn json_bytes(v: &impl Serialize) -> Vec<u8> {
    serde_json::to_vec(v).unwrap_or_else(|_| b"{}".to_vec())
}

/// The answer to a refusal, with the headers its kind carries.
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
        Error::Internal(detail) => eprintln!("error: {detail}"),
        _ => {}
    }
    Answer {
        status: error.status(),
        headers,
        body: json_bytes(&error.body()),
        key_id,
    }
}

/// Authenticates, checks the plan and takes a token: the first three checks,
/// shared by REST and the agent server. Returns the key and the bucket's verdict.
///
/// Fails with `Unauthenticated`, `PlanRequired` or `RateLimited` (the last two
/// with the key and its rate headers, so the answer can carry them).
pub fn admit(
    app: &App,
    conn: &Connection,
    authorization: Option<&str>,
) -> std::result::Result<(AuthedKey, Verdict), Turned> {
    let key = keys::authenticate(conn, &app.usage, authorization)
        .map_err(|error| Turned { error, key: None })?;
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
    Ok((key, verdict))
}

/// A request turned away by `admit`, with the key's id and bucket when it had a valid key.
pub struct Turned {
    pub error: Error,
    pub key: Option<(String, Verdict)>,
}

/// Runs one REST request through the whole pipeline.
pub fn handle(app: &App, req: &Request) -> Answer {
    let conn = match app.db.connection() {
        Ok(conn) => conn,
        Err(e) => return refusal(&e, Vec::new(), None),
    };
    handle_on(app, &conn, req)
}

/// A read transaction that ends when dropped, also when a handler panics, so
/// no pooled connection goes back to the pool inside a transaction.
pub struct ReadSnapshot<'a>(&'a Connection);

impl<'a> ReadSnapshot<'a> {
    pub fn begin(conn: &'a Connection) -> Result<ReadSnapshot<'a>> {
        conn.prepare_cached("BEGIN")?.execute([])?;
        Ok(ReadSnapshot(conn))
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

fn handle_on(app: &App, conn: &Connection, req: &Request) -> Answer {
    // A GET reads in one transaction, its key included: one snapshot, one read lock.
    let _snapshot = if req.method == Method::GET {
        match ReadSnapshot::begin(conn) {
            Ok(snapshot) => Some(snapshot),
            Err(e) => return refusal(&e, Vec::new(), None),
        }
    } else {
        None
    };
    let (key, verdict) = match admit(app, conn, req.authorization.as_deref()) {
        Ok(admitted) => admitted,
        Err(Turned {
            error,
            key: Some((key_id, verdict)),
        }) => return refusal(&error, rate_headers(&verdict), Some(key_id)),
        Err(Turned { error, key: None }) => return refusal(&error, Vec::new(), None),
    };
    let headers = rate_headers(&verdict);
    match handle_admitted(app, conn, req, &key) {
        Ok(reply) => {
            let mut headers = headers;
            if reply.replayed {
                headers.push(("Idempotent-Replayed", "true".into()));
            }
            Answer {
                status: StatusCode::from_u16(reply.status).unwrap_or(StatusCode::OK),
                headers,
                body: reply.body,
                key_id: Some(key.id),
            }
        }
        Err(error) => refusal(&error, headers, Some(key.id)),
    }
}

fn handle_admitted(app: &App, conn: &Connection, req: &Request, key: &AuthedKey) -> Result<Reply> {
    let decoded: Vec<String> = req
        .path
        .split('/')
        .skip(1)
        .map(|s| percent_decode(s, false).ok_or_else(|| Error::not_found("This address")))
        .collect::<Result<_>>()?;
    let segments: Vec<&str> = decoded.iter().map(String::as_str).collect();
    let route = route(&req.method, &segments)?;
    if !route.operation().allowed_for(&key.scopes) {
        return Err(Error::Forbidden);
    }
    let body = req.body.as_deref().ok_or(Error::PayloadTooLarge)?;
    let query = Query::parse(&req.query)?;
    let call = Call {
        app,
        conn,
        key,
        method: &req.method,
        path: &req.path,
        query: &query,
        body,
        idempotency_key: req.idempotency_key.as_deref(),
    };
    dispatch(&call, route)
}

/// Writes the one log line of a request to stderr (never a secret).
pub fn log_line(method: &Method, path: &str, answer: &Answer, started: Instant) {
    let micros = started.elapsed().as_micros();
    eprintln!(
        "{method} {path} {} {}.{:03}ms key={}",
        answer.status.as_u16(),
        micros / 1000,
        micros % 1000,
        answer.key_id.as_deref().unwrap_or("-")
    );
}
