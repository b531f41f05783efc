//! The screens: the product's web console under `/`, beside the API on the
//! same port and behind the same server limits. Server-rendered HTML (maud),
//! one embedded style sheet, no script; every flow is a link or a form.
//!
//! This module only declares the screens and routes to them: the route
//! tables, and the way of a signed-in request (the session a cookie
//! names, the checks every form post passes: the session's form token and
//! the `Origin`; one read snapshot for a GET; the one place where a page's
//! `Result` becomes an answer). What the screens share are leaves beside
//! it: `visit` (the request, cookies, the origin check), `context` (`Ctx`,
//! what a page handler is given), `page` (the frame of every page and the
//! answers), `form` (forms described once and the one way an act goes),
//! `payment` (the payment form invoices and bills share) and `history`.
//! Each screen's file only translates: form or query → the books' input
//! type → one books call (which records the person in the audit) → HTML. A
//! role's permissions come from `access::people`, never decided here.
//!
//! A new act of a screen takes a books function, a route line in `route`
//! below and a form description (`form::Form`); see `form` for the act's
//! shape.

mod bank;
mod bank_accounts;
mod adviser;
mod bills;
mod bills_received;
mod statements;
mod chart;
mod context;
mod customers;
mod dashboard;
mod datev;
mod developers;
mod drafts;
mod form;
mod history;
mod invoices;
mod jobs;
mod links;
mod login;
mod mail_settings;
mod frame;
mod payment;
pub mod einvoice_view;
mod reminders;
mod sending;
mod session;
mod settings;
mod users;
mod visit;

pub use links::link_path;
pub use visit::{body_limit, client_address, origin_of, Visit, MAX_FORM};

use std::sync::Arc;

use hyper::{Method, StatusCode};

use crate::access::links::LinkKind;
use crate::access::sessions;
use crate::error::{Error, Result};
use crate::http::app::{self, in_store, Answer, App};
use crate::http::multipart;
use crate::http::query::{percent_decode, Query};
use crate::rules::locale::Lang;
use context::Ctx;
use frame::{html_answer, see_other};
use visit::{cookie, same_origin, set_cookie, SESSION_COOKIE};

/// The style sheet, embedded in the binary.
const CSS: &str = include_str!("kontor.css");

/// Whether an address belongs to the screens rather than the API.
pub fn owns(path: &str) -> bool {
    !(path == "/v1" || path.starts_with("/v1/") || path == "/mcp")
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
        return frame::not_found(browser, None);
    };
    let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
    match (&visit.method, parts.as_slice()) {
        (&Method::GET | &Method::HEAD, ["static", "kontor.css"]) => {
            let mut answer = html_answer(StatusCode::OK, CSS.to_string());
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
        Err(e) => return frame::failure(&e, browser, None),
    };
    let lang = session.person.locale.unwrap_or(browser);
    let tenant = session.tenant.clone();
    let shown = session.clone();
    let job_app = app.clone();
    let answer = in_store(&app, reads, Some(tenant), move |conn| {
        let app = &*job_app;
        let query = Query::parse(&visit.query).unwrap_or_default();
        let mut files = Vec::new();
        let form = match &visit.body {
            None => return frame::failure(&Error::PayloadTooLarge, lang, Some(&session)),
            Some(body) if !reads && multipart::is_multipart(visit.content_type.as_deref()) => {
                match multipart::parse(visit.content_type.as_deref().unwrap_or_default(), body) {
                    Ok(parts) => {
                        let mut fields = Vec::new();
                        for part in parts {
                            match part.file_name {
                                Some(_) => files.push(part),
                                None => fields.push((
                                    part.name,
                                    String::from_utf8_lossy(&part.bytes).into_owned(),
                                )),
                            }
                        }
                        Query::from_pairs(fields)
                    }
                    Err(e) => return frame::failure(&e, lang, Some(&session)),
                }
            }
            Some(body) if !reads => match std::str::from_utf8(body).ok().map(Query::parse) {
                Some(Ok(form)) => form,
                _ => {
                    return frame::failure(
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
                return frame::forged(lang, &session);
            }
        }
        let snapshot = match app::snapshot(conn, reads) {
            Ok(s) => s,
            Err(e) => return frame::failure(&e, lang, Some(&session)),
        };
        let ctx = Ctx {
            app,
            conn,
            visit: &visit,
            session: &session,
            lang,
            query,
            form,
            files,
        };
        let answer = route(&ctx).unwrap_or_else(|e| frame::failure(&e, lang, Some(&session)));
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
    answer.unwrap_or_else(|e| frame::failure(&e, lang, Some(&shown)))
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
        ["bills", "received"] if post => bills_received::upload(ctx),
        ["bills", "received", id] if get => bills_received::show(ctx, id),
        ["bills", "received", id, "original"] if get => bills_received::original(ctx, id),
        ["bills", "received", id, "attachments", n] if get => bills_received::attachment(ctx, id, n),
        ["bills", "received", id, "book"] if post => bills_received::book(ctx, id),
        ["bills", "received", id, "refuse"] if post => bills_received::refuse(ctx, id),
        ["invoices", number, "send"] if get => sending::send_form(ctx, number),
        ["invoices", number, "send"] if post => sending::send(ctx, number),
        ["reminders"] if get => reminders::show(ctx),
        ["reminders", "send"] if post => reminders::send(ctx),
        ["reminders", "base-rate"] if post => reminders::add_base_rate(ctx),
        ["reminders", id, "document"] if get => sending::reminder_document(ctx, id),
        ["bills"] if get => bills::list(ctx),
        ["bills"] if post => bills::create(ctx),
        ["bills", "new"] if get => bills::new_form(ctx),
        ["bills", id] if get => bills::show(ctx, id),
        ["bills", id, "pay"] if post => bills::pay(ctx, id),
        ["bills", id, "credit"] if post => bills::apply_credit(ctx, id),
        ["books"] if get => statements::show(ctx),
        ["books", "close"] if post => statements::close(ctx),
        ["books", "trial-balance"] if get => statements::trial_balance(ctx),
        ["books", "profit-and-loss"] if get => statements::profit_and_loss(ctx),
        ["books", "balance-sheet"] if get => statements::balance_sheet(ctx),
        ["bank"] if get => bank::list(ctx),
        ["bank", "import"] if post => bank::import(ctx),
        ["bank", "lines", id] if get => bank::show(ctx, id),
        ["bank", "lines", id, "confirm"] if post => bank::confirm(ctx, id),
        ["bank", "lines", id, "split"] if post => bank::split(ctx, id),
        ["bank", "lines", id, "book"] if post => bank::book(ctx, id),
        ["bank", "lines", id, "ignore"] if post => bank::ignore(ctx, id),
        ["bank", "lines", id, "undo"] if post => bank::undo(ctx, id),
        ["settings", "bank"] if get => bank_accounts::show(ctx),
        ["settings", "bank", "accounts"] if post => bank_accounts::add(ctx),
        ["settings", "bank", "tolerance"] if post => bank_accounts::tolerance(ctx),
        ["books", "vat"] if get => adviser::vat(ctx),
        ["books", "export"] if get => adviser::export_show(ctx),
        ["books", "export", "datev"] if post => adviser::export_datev(ctx),
        ["settings"] if get => settings::show(ctx),
        ["settings", "company"] if post => settings::set_particulars(ctx),
        ["settings", "payment-days"] if post => settings::set_payment_days(ctx),
        ["settings", "workflow"] if post => settings::set_workflow(ctx),
        ["settings", "mail"] if get => mail_settings::show(ctx),
        ["settings", "mail"] if post => mail_settings::save(ctx),
        ["settings", "mail", "test"] if post => mail_settings::test(ctx),
        ["settings", "datev"] if get => datev::show(ctx),
        ["settings", "datev"] if post => datev::set(ctx),
        ["settings", "datev", "number"] if post => datev::set_number(ctx),
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
    frame::failure(error, lang, None)
}
