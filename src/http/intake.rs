//! Request intake: what happens to one request between the socket and its
//! surface. The limits every connection and body is held to before any
//! trust (`Limits`), reading the body within them, and the one place that
//! hands a request to its surface: the OpenAPI document, health and
//! readiness, the screens, or the API (`/v1` and `/mcp`, after the key's
//! checks and the body's reading), whose synchronous work runs on a pooled
//! connection through the kernel's `in_store`; the answer made a hyper
//! response, counted by surface and status for the metrics. Knows no route
//! and no rule; the process around it is `server`'s.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderValue, CACHE_CONTROL, CONTENT_TYPE};
use hyper::{Request as HttpRequest, Response};
use rusqlite::Connection;
use tokio::sync::Semaphore;

use crate::error::said::Record;
use crate::error::{Error, Said};
use crate::http::admission::{self, Admitted, Gate, Turned};
use crate::http::app::{
    in_store, in_store_where, log_line, rate_headers, refusal, Answer, App, Request, MAX_BODY,
};
use crate::http::connections::Connections;
use crate::http::exporter;
use crate::http::health;
use crate::http::mcp;
use crate::http::openapi;
use crate::http::rest;
use crate::http::screens::{self, Visit};
use crate::rules::locale::Lang;

/// The limits every connection and request is held to, before any trust.
pub(crate) struct Limits {
    pub connections: Arc<Connections>,
    pub header_timeout: Duration,
    pub body_timeout: Duration,
    /// Permits to read a body; a body is read only while holding one.
    pub readers: Semaphore,
}

fn header(req: &HttpRequest<Incoming>, name: &str) -> Option<String> {
    req.headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
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
pub(crate) async fn respond(
    app: Arc<App>,
    limits: Arc<Limits>,
    req: HttpRequest<Incoming>,
    peer: IpAddr,
) -> Response<Full<Bytes>> {
    let started = Instant::now();
    let log_requests = app.log_requests;
    // Reached over https (the public URL says so): browsers are told to
    // come back only that way, for a year.
    let hsts = app.screens.secure;
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let (surface, mut answer) = answer(app, &limits, req, peer).await;
    exporter::note_request(surface, answer.status, started.elapsed());
    if hsts {
        answer
            .headers
            .push(("Strict-Transport-Security", "max-age=31536000".into()));
    }
    if log_requests {
        log_line(&method, &path, &answer, started);
    }
    into_response(answer)
}

/// The surface a request goes to, and its answer: the OAuth discovery
/// addresses (which do not exist here: keys are Bearer keys) and the
/// metrics page (served on its own address only), the API's description
/// (public, like the addresses it names), health and readiness, the
/// screens (everything outside the API), or the API (`rest`, `agent`).
async fn answer(
    app: Arc<App>,
    limits: &Limits,
    req: HttpRequest<Incoming>,
    peer: IpAddr,
) -> (&'static str, Answer) {
    let path = req.uri().path();
    let lang = Lang::from_accept_language(header(&req, "accept-language").as_deref());
    if path.starts_with("/.well-known/") || path == exporter::PATH {
        let not_here = refusal(
            &Error::not_found(Said::Record(Record::Page, String::new())),
            lang,
            Vec::new(),
            None,
        );
        ("other", not_here)
    } else if path == openapi::PATH {
        ("other", openapi::answer(req.method(), lang))
    } else if health::owns(path) {
        (
            "other",
            health::answer(&app, req.method(), path, lang).await,
        )
    } else if screens::owns(path) {
        ("screens", visit_screens(app, limits, req, peer).await)
    } else if path == "/mcp" {
        ("agent", call_api(app, limits, req).await)
    } else {
        ("rest", call_api(app, limits, req).await)
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
        match read_api_body(limits, req.into_body(), declared, &admitted, request.lang).await {
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
        lang: Lang::from_accept_language(header(req, "accept-language").as_deref()),
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
    lang: Lang,
) -> std::result::Result<Option<Vec<u8>>, Answer> {
    let too_large = |error: Error| {
        closing(refusal(
            &error,
            lang,
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
    let lang = request.lang;
    let busy = move |e: Error| refusal(&e, lang, busy_headers, Some(busy_key));
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
    let (reader, request, lang) = (app.clone(), request.clone(), request.lang);
    in_store(app, true, None, move |conn| {
        admission::admit_stored(&reader, conn, &request).map_err(refused)
    })
    .await
    .unwrap_or_else(|e| Err(refusal(&e, lang, Vec::new(), None)))
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
