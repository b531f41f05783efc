//! The screens: the product's web console under `/`, beside the API on the
//! same port and behind the same server limits. Server-rendered HTML (maud),
//! one embedded style sheet, no script; every flow is a link or a form.
//!
//! This module is the screens' pipeline: the route table, the session a
//! cookie names, the checks every form post passes (the session's form
//! token and the `Origin`), the security headers of every page, and the one
//! place where a page's `Result` becomes an answer. Each screen's file only
//! translates: form or query → the books' input type → one books call (and
//! its audit row) → HTML. A role's permissions come from `access::people`,
//! never decided here.

mod bills;
mod books;
mod chart;
mod customers;
mod dashboard;
mod developers;
mod drafts;
mod history;
mod invoices;
mod jobs;
mod links;
mod login;
mod page;
pub mod received;
mod session;
mod settings;
mod users;

pub use links::link_path;

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper::{Method, StatusCode};
use rusqlite::Connection;

use crate::access::links::LinkKind;
use crate::access::lockout::Lockout;
use crate::access::people::Capability;
use crate::access::sessions::{self, Expiry, Session};
use crate::books::audit::Actor;
use crate::error::{Error, Result};
use crate::http::pipeline::{self, Answer, App};
use crate::http::query::{percent_decode, Query};
use crate::http::server::in_store;
use crate::rules::locale::Lang;

/// The cookie that carries a session's id.
pub const SESSION_COOKIE: &str = "kontor_session";
/// The cookie that carries the sign-in form's token (before any session).
const LOGIN_COOKIE: &str = "kontor_login";
/// The largest form body the screens read.
pub const MAX_FORM: usize = 64 * 1024;

/// The style sheet, embedded in the binary.
const CSS: &str = include_str!("kontor.css");

/// How the screens of one server behave: session expiry, the cookie's
/// `Secure` flag, whom to trust for the client's address, and the failed
/// sign-ins counted so far.
pub struct Settings {
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

/// How long a sign-in waits for its turn at the password check before it
/// is told kontor is busy.
pub const HASHING_WAIT: Duration = Duration::from_secs(10);

/// A request to the screens, as the server read it.
pub struct Visit {
    pub method: Method,
    pub path: String,
    pub query: String,
    pub cookie: Option<String>,
    pub origin: Option<String>,
    pub host: Option<String>,
    pub accept_language: Option<String>,
    pub content_type: Option<String>,
    /// The client's address (the peer, or what a trusted proxy says).
    pub client: IpAddr,
    /// The body (a form), empty when there is none; `None` when too large.
    pub body: Option<Vec<u8>>,
}

/// Whether an address belongs to the screens rather than the API.
pub fn owns(path: &str) -> bool {
    !(path == "/v1" || path.starts_with("/v1/") || path == "/mcp")
}

/// The client's address: the peer's, or, when the peer is a trusted proxy,
/// the last address of `X-Forwarded-For` that is not itself a trusted proxy.
pub fn client_address(peer: IpAddr, forwarded: Option<&str>, trusted: &[IpAddr]) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    let Some(forwarded) = forwarded else {
        return peer;
    };
    let mut client = peer;
    for hop in forwarded.rsplit(',') {
        match hop.trim().parse::<IpAddr>() {
            Ok(address) => {
                client = address;
                if !trusted.contains(&address) {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    client
}

/// A cookie's value from the `Cookie` header.
fn cookie<'a>(header: Option<&'a str>, name: &str) -> Option<&'a str> {
    header?.split(';').find_map(|pair| {
        let (n, v) = pair.trim().split_once('=')?;
        (n == name).then_some(v)
    })
}

/// The content security policy of every page: no script from anywhere,
/// styles from this host only, no framing.
const PAGE_POLICY: &str = "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/// The headers every page carries: no script from anywhere, styles from
/// this host only, no framing, no sniffing.
fn security_headers(headers: &mut Vec<(&'static str, String)>) {
    headers.push(("Content-Security-Policy", PAGE_POLICY.into()));
    headers.push(("X-Frame-Options", "DENY".into()));
    headers.push(("X-Content-Type-Options", "nosniff".into()));
    headers.push(("Referrer-Policy", "same-origin".into()));
}

/// An HTML answer.
fn html(status: StatusCode, body: String) -> Answer {
    let mut headers = vec![("Content-Type", "text/html; charset=utf-8".to_string())];
    security_headers(&mut headers);
    Answer {
        status,
        headers,
        body: body.into_bytes(),
        key_id: None,
    }
}

/// A page that shows one of kontor's own PDFs in an `<object>` (a draft's
/// preview): every page's policy plus `object-src 'self'`, because
/// `default-src 'none'` forbids every embedded object. Only documents of
/// this origin may be embedded (kontor's PDFs carry no script); the page
/// itself still may not be framed, and nothing else changes.
fn embedding_own_pdfs(mut answer: Answer) -> Answer {
    for (name, value) in &mut answer.headers {
        if *name == "Content-Security-Policy" {
            *value = format!("{PAGE_POLICY}; object-src 'self'");
        }
    }
    answer
}

/// A PDF for kontor's own pages (a draft's preview): shown inline, and
/// embeddable by pages of this origin only (`frame-ancestors 'self'`,
/// `X-Frame-Options: SAMEORIGIN`), where every other page may not be
/// framed at all. Like every answer it is `no-store`: never kept by the
/// browser either.
fn own_pdf(body: Vec<u8>, file_name: &str) -> Answer {
    Answer {
        status: StatusCode::OK,
        headers: vec![
            ("Content-Type", "application/pdf".to_string()),
            (
                "Content-Disposition",
                format!("inline; filename=\"{file_name}\""),
            ),
            ("Content-Security-Policy", "frame-ancestors 'self'".into()),
            ("X-Frame-Options", "SAMEORIGIN".into()),
            ("X-Content-Type-Options", "nosniff".into()),
            ("Referrer-Policy", "same-origin".into()),
        ],
        body,
        key_id: None,
    }
}

/// A redirect after a form (303: the browser follows with GET).
fn see_other(location: &str) -> Answer {
    let mut headers = vec![
        ("Location", location.to_string()),
        ("Content-Type", "text/html; charset=utf-8".to_string()),
    ];
    security_headers(&mut headers);
    Answer {
        status: StatusCode::SEE_OTHER,
        headers,
        body: Vec::new(),
        key_id: None,
    }
}

/// A `Set-Cookie` value: `HttpOnly; SameSite=Strict`, `Secure` when served
/// over https, gone at once when `value` is empty.
fn set_cookie(settings: &Settings, name: &str, value: &str, path: &str) -> String {
    let mut c = format!("{name}={value}; HttpOnly; SameSite=Strict; Path={path}");
    if value.is_empty() {
        c.push_str("; Max-Age=0");
    }
    if settings.secure {
        c.push_str("; Secure");
    }
    c
}

/// The origin (`scheme://host[:port]`, lower case) of a public URL.
pub fn origin_of(url: &str) -> Option<String> {
    let uri = url.parse::<hyper::Uri>().ok()?;
    let scheme = uri.scheme_str()?.to_ascii_lowercase();
    let authority = uri.authority()?.as_str().to_ascii_lowercase();
    Some(format!("{scheme}://{authority}"))
}

/// Whether a form post comes from a page of this service: an `Origin`
/// header, when the browser sends one, must name the host the request was
/// sent to or a public URL's origin (`null` never does).
fn same_origin(settings: &Settings, visit: &Visit) -> bool {
    let Some(origin) = visit.origin.as_deref() else {
        return true;
    };
    if settings
        .public_origins
        .iter()
        .any(|o| o.eq_ignore_ascii_case(origin))
    {
        return true;
    }
    let Some(host) = visit.host.as_deref() else {
        return false;
    };
    let named = origin
        .strip_prefix("https://")
        .or_else(|| origin.strip_prefix("http://"));
    named.is_some_and(|named| named.eq_ignore_ascii_case(host))
}

/// What a page handler has: the server, the request, its session, its language.
pub struct Ctx<'a> {
    pub app: &'a App,
    pub conn: &'a Connection,
    pub visit: &'a Visit,
    pub session: &'a Session,
    pub lang: Lang,
    pub query: Query,
    pub form: Query,
}

impl Ctx<'_> {
    /// The person acting, for the audit.
    pub fn actor(&self) -> Actor {
        Actor::Person {
            id: self.session.person.id.clone(),
            email: self.session.person.email.clone(),
        }
    }

    /// Whether the session's role may do `what`.
    pub fn may(&self, what: Capability) -> bool {
        self.session.role.may(what)
    }

    /// Refuses unless the session's role may act on the books.
    ///
    /// Fails with `Forbidden`.
    pub fn must(&self, what: Capability) -> Result<()> {
        if self.may(what) {
            Ok(())
        } else {
            Err(Error::Forbidden)
        }
    }
}

/// The path's segments, percent-decoded; `None` when one cannot be decoded.
fn segments(path: &str) -> Option<Vec<String>> {
    path.split('/')
        .skip(1)
        .filter(|s| !s.is_empty())
        .map(|s| percent_decode(s, false))
        .collect()
}

/// Answers one request to the screens.
pub async fn serve(app: Arc<App>, visit: Visit) -> Answer {
    let browser = Lang::from_accept_language(visit.accept_language.as_deref());
    let Some(parts) = segments(&visit.path) else {
        return page::not_found(browser, None);
    };
    let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
    match (&visit.method, parts.as_slice()) {
        (&Method::GET | &Method::HEAD, ["static", "kontor.css"]) => {
            let mut answer = html(StatusCode::OK, CSS.to_string());
            answer.headers[0].1 = "text/css; charset=utf-8".into();
            answer
        }
        (&Method::GET | &Method::HEAD, ["login"]) => login::form(&app.screens, &visit, browser),
        (&Method::POST, ["login"]) => login::submit(app, visit, browser).await,
        (&Method::GET | &Method::HEAD, ["invite"]) => {
            links::show(app, visit, browser, LinkKind::Invitation).await
        }
        (&Method::POST, ["invite"]) => {
            links::submit(app, visit, browser, LinkKind::Invitation).await
        }
        (&Method::GET | &Method::HEAD, ["reset"]) => {
            links::show(app, visit, browser, LinkKind::Reset).await
        }
        (&Method::POST, ["reset"]) => links::submit(app, visit, browser, LinkKind::Reset).await,
        _ => with_session(app, visit, browser).await,
    }
}

/// Runs a request that needs a session: the session read (a short read of
/// nobody's share yet), then the form's checks (token and origin) for a
/// post and the page within the session's company's share of the pooled
/// connections, and last-seen written when due.
async fn with_session(app: Arc<App>, visit: Visit, browser: Lang) -> Answer {
    let reads = visit.method == Method::GET || visit.method == Method::HEAD;
    let token = cookie(visit.cookie.as_deref(), SESSION_COOKIE).map(str::to_string);
    let now = jiff::Timestamp::now();
    let expiry = app.screens.expiry;
    let found = match token {
        Some(token) => in_store(&app, true, None, move |conn| {
            sessions::find(conn, &token, expiry, now)
        })
        .await
        .and_then(|found| found),
        None => Ok(None),
    };
    let session = match found {
        Ok(Some(session)) => session,
        Ok(None) => {
            // Signed out, expired or never signed in: to the sign-in, and
            // the browser forgets a dead cookie.
            let mut answer = see_other("/login");
            if cookie(visit.cookie.as_deref(), SESSION_COOKIE).is_some() {
                answer.headers.push((
                    "Set-Cookie",
                    set_cookie(&app.screens, SESSION_COOKIE, "", "/"),
                ));
            }
            return answer;
        }
        Err(e) => return page::failure(&e, browser, None),
    };
    let lang = session.person.locale.unwrap_or(browser);
    let tenant = session.tenant.clone();
    let shown = session.clone();
    let job_app = app.clone();
    let answer = in_store(&app, reads, Some(tenant), move |conn| {
        let app = &*job_app;
        let query = Query::parse(&visit.query).unwrap_or_default();
        let form = match &visit.body {
            None => return page::failure(&Error::PayloadTooLarge, lang, Some(&session)),
            Some(body) if !reads => match std::str::from_utf8(body).ok().map(Query::parse) {
                Some(Ok(form)) => form,
                _ => {
                    return page::failure(
                        &Error::bad_request("The form could not be read."),
                        lang,
                        Some(&session),
                    )
                }
            },
            Some(_) => Query::default(),
        };
        if !reads {
            let token_ok = form
                .get("csrf")
                .is_some_and(|sent| sessions::same_token(sent, &session.csrf));
            if !token_ok || !same_origin(&app.screens, &visit) {
                return page::forged(lang, &session);
            }
        }
        let snapshot = match pipeline::snapshot(conn, reads) {
            Ok(s) => s,
            Err(e) => return page::failure(&e, lang, Some(&session)),
        };
        let ctx = Ctx {
            app,
            conn,
            visit: &visit,
            session: &session,
            lang,
            query,
            form,
        };
        let answer = route(&ctx).unwrap_or_else(|e| page::failure(&e, lang, Some(&session)));
        drop(snapshot);
        if session.touch_due {
            if let Err(e) = app
                .db
                .write(|tx| sessions::touch(tx, &session.token_hash, now))
            {
                tracing::error!("cannot note a session's use: {e}");
            }
        }
        answer
    })
    .await;
    answer.unwrap_or_else(|e| page::failure(&e, lang, Some(&shown)))
}

/// The route table of the screens that need a session.
fn route(ctx: &Ctx) -> Result<Answer> {
    let parts = segments(&ctx.visit.path).unwrap_or_default();
    let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
    let get = matches!(ctx.visit.method, Method::GET | Method::HEAD);
    let post = ctx.visit.method == Method::POST;
    match parts.as_slice() {
        [] if get => Ok(see_other("/dashboard")),
        ["dashboard"] if get => dashboard::show(ctx),
        ["customers"] if get => customers::list(ctx),
        ["customers"] if post => customers::create(ctx),
        ["customers", "new"] if get => customers::new_form(ctx),
        ["customers", id] if get => customers::show(ctx, id),
        ["customers", id] if post => customers::update(ctx, id),
        ["drafts"] if get => drafts::list(ctx),
        ["drafts"] if post => drafts::create(ctx),
        ["drafts", "new"] if get => drafts::new_form(ctx),
        ["drafts", id] if get => drafts::show(ctx, id),
        ["drafts", id, "preview.pdf"] if get => drafts::preview_pdf(ctx, id),
        ["drafts", id, "lines"] if post => drafts::add_line(ctx, id),
        ["drafts", id, "lines", n] if get => drafts::line_form(ctx, id, n),
        ["drafts", id, "lines", n] if post => drafts::change_line(ctx, id, n),
        ["drafts", id, "lines", n, "remove"] if post => drafts::remove_line(ctx, id, n),
        ["drafts", id, "references"] if post => drafts::set_references(ctx, id),
        ["drafts", id, "issue"] if get => drafts::confirm_issue(ctx, id),
        ["drafts", id, "issue"] if post => drafts::issue(ctx, id),
        ["jobs"] if get => jobs::list(ctx),
        ["jobs", id] if get => jobs::show(ctx, id),
        ["jobs", id, "stage"] if post => jobs::move_stage(ctx, id),
        ["jobs", id, "notes"] if post => jobs::add_note(ctx, id),
        ["invoices"] if get => invoices::list(ctx),
        ["invoices", number] if get => invoices::show(ctx, number),
        ["invoices", number, "document"] if get => invoices::document(ctx, number),
        ["invoices", number, "pay"] if post => invoices::pay(ctx, number),
        ["invoices", number, "cancel"] if get => invoices::cancel_form(ctx, number),
        ["invoices", number, "cancel"] if post => invoices::cancel(ctx, number),
        ["bills"] if get => bills::list(ctx),
        ["bills"] if post => bills::create(ctx),
        ["bills", "new"] if get => bills::new_form(ctx),
        ["bills", id] if get => bills::show(ctx, id),
        ["bills", id, "pay"] if post => bills::pay(ctx, id),
        ["books"] if get => books::show(ctx),
        ["books", "close"] if post => books::close(ctx),
        ["books", "trial-balance"] if get => books::trial_balance(ctx),
        ["books", "profit-and-loss"] if get => books::profit_and_loss(ctx),
        ["books", "balance-sheet"] if get => books::balance_sheet(ctx),
        ["settings"] if get => settings::show(ctx),
        ["settings", "company"] if post => settings::set_particulars(ctx),
        ["settings", "payment-days"] if post => settings::set_payment_days(ctx),
        ["settings", "workflow"] if post => settings::set_workflow(ctx),
        ["settings", "users"] if get => users::list(ctx),
        ["settings", "users", "invite"] if post => users::invite(ctx),
        ["settings", "users", id] if get => users::show(ctx, id),
        ["settings", "users", id, "role"] if post => users::set_role(ctx, id),
        ["settings", "users", id, "disable"] if post => users::disable(ctx, id),
        ["settings", "users", id, "enable"] if post => users::enable(ctx, id),
        ["settings", "users", id, "reset"] if post => users::reset(ctx, id),
        ["developers"] if get => developers::show(ctx),
        ["developers", "keys"] if post => developers::create_key(ctx),
        ["developers", "keys", id, "revoke"] if post => developers::revoke_key(ctx, id),
        ["developers", "webhooks"] if post => developers::create_endpoint(ctx),
        ["developers", "webhooks", id] if get => developers::endpoint(ctx, id),
        ["developers", "webhooks", id, "disable"] if post => developers::disable_endpoint(ctx, id),
        ["developers", "webhooks", id, "deliveries", delivery, "redeliver"] if post => {
            developers::redeliver(ctx, id, delivery)
        }
        ["logout"] if post => session::logout(ctx),
        ["session", "company"] if post => session::switch_company(ctx),
        ["session", "environment"] if post => session::switch_environment(ctx),
        ["session", "language"] if post => session::language(ctx),
        _ => Err(Error::not_found("This page")),
    }
}

/// Deletes expired sessions (the server does so hourly and at each sign-in).
///
/// Fails only on a storage error.
pub fn purge(app: &App) -> Result<usize> {
    let now = jiff::Timestamp::now();
    app.db
        .write(|tx| sessions::purge(tx, app.screens.expiry, now))
}

/// The page of a refusal before any session is known (a body too slow).
pub fn refused(error: &Error, lang: Lang) -> Answer {
    page::failure(error, lang, None)
}

/// How long a wait is, for a person: whole minutes, rounded up.
fn minutes(wait: Duration) -> u64 {
    wait.as_secs().div_ceil(60).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_client_address_comes_from_a_trusted_proxy_only() {
        let proxy: IpAddr = "10.0.0.1".parse().unwrap();
        let peer: IpAddr = "192.0.2.7".parse().unwrap();
        let header = Some("198.51.100.1, 203.0.113.9");
        assert_eq!(client_address(peer, header, &[proxy]), peer);
        assert_eq!(
            client_address(proxy, header, &[proxy]),
            "203.0.113.9".parse::<IpAddr>().unwrap()
        );
        assert_eq!(client_address(proxy, None, &[proxy]), proxy);
        assert_eq!(client_address(proxy, Some("nonsense"), &[proxy]), proxy);
        assert_eq!(client_address(proxy, header, &[]), proxy);
    }

    #[test]
    fn public_urls_give_their_origins() {
        assert_eq!(
            origin_of("https://Books.Example.com/").as_deref(),
            Some("https://books.example.com")
        );
        assert_eq!(
            origin_of("http://127.0.0.1:8080").as_deref(),
            Some("http://127.0.0.1:8080")
        );
        assert_eq!(origin_of("not a url"), None);
    }

    #[test]
    fn cookies_are_read_by_name() {
        let h = Some("a=1; kontor_session=abc; b=2");
        assert_eq!(cookie(h, SESSION_COOKIE), Some("abc"));
        assert_eq!(cookie(h, "kontor"), None);
    }
}
