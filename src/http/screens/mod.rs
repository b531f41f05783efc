//! The screens: the product's web console under `/`, beside the API on the
//! same port and behind the same server limits. Server-rendered HTML (maud),
//! one embedded style sheet, no script but the passkeys' (WebAuthn has no
//! form); every other flow is a link or a form.
//! Each screen's file only translates: form or query → the books' input
//! type → one books call in one `Db::write` (which records the person in the
//! audit) → HTML or a redirect. No screen writes an audit row or decides a
//! rule, a default or a tenant: a page's tenant is its session's, a role's
//! permissions are `Role::may` (`access::people`), a refusal is the books'
//! sentence beside its field. No file here names the server or another
//! surface; the data file is reached only through the kernel's `in_store`.
//!
//! This file only declares the screens and routes to them: `owns` (which
//! addresses are the screens'), `serve` (the pages without a session: style
//! sheet, sign-in, one-time links), `with_session` (the session a cookie
//! names, the form token and `Origin` checks of every post, one read
//! snapshot for a GET, the page within the company's share, and the one
//! place a page's `Result` becomes an answer), `route` (the route table of
//! the signed-in screens), `purge`, `refused`. A new act of a screen takes a
//! books function, a route line in `route` and a form description
//! (`form::Form`); `form.rs` shows one whole act.
//!
//! What the screens share are leaves, which no screen's file and no leaf
//! imports back:
//!
//! - `visit.rs`: a request to the screens as the server read it (`Visit`, at
//!   most `MAX_FORM` of form, read by `Visit::form`; the two upload
//!   addresses their own limit,
//!   `body_limit`), the client's address through trusted proxies only
//!   (`client_address`), cookies by name (`cookie`, `set_cookie`), and
//!   whether a post comes from a page of this service (`same_origin`,
//!   `origin_of`).
//! - `context.rs`: `Ctx`, what a page handler of a signed-in screen is given
//!   (the server, the connection, the visit, the session, the language, the
//!   query and the form) and what it asks of them: `actor` (the person, whom
//!   the act records), `may` / `must` (the role's `Capability`), `typed`,
//!   `patch`, `yes_no`, `paging`, `notice` (the sentence confirming what an
//!   act just did, named by the query), and `write` (an act without a form,
//!   in one `Db::write`).
//! - `frame.rs`: the frame of every screen (`screen`, `screen_with`,
//!   `Screen`: head, skip link, company and environment, navigation,
//!   switches, sign-out), the pages that say something went wrong
//!   (`failure`, `not_found`, `forged`), the answers (`html_answer` with the
//!   security headers of every page, `see_other`, `own_pdf`), the form token
//!   field (`csrf`), an act without a form (`act_button`), and how a page
//!   shows money (`money`), a role, a table (`Table`: caption, headings with
//!   `scope="col"`, a row per item), a list's pages (`pager`) and a value
//!   shown only once (`shown_once`).
//! - `form.rs`: forms described once and the one way an act of a screen
//!   goes: `Form` of `FormField`s (names, labels in English and German, the
//!   length limits the books check, kinds, hints), `Reading` (what the form
//!   reads itself: amounts, decimals, currencies in the person's notation),
//!   `Problems` and `message` (each refusal beside its field by one refusal
//!   rule), `Form::act` (check, then the books' act in one `Db::write`, then
//!   `Acted::Done` or the form again with `Acted::Refused`), `post` (a form
//!   that posts: the token, `novalidate`, the button), `Form::yes_no` (a
//!   checkbox that also says no), `choice`, `search_form`, `queried`.
//! - `payment.rs`: the payment form invoices and bills share (`PAYMENT`:
//!   amount, date, reference, method), and how a person reads a method.
//! - `history.rs`: a record's history on its page: the audit rows, each act
//!   named in the person's language and each time in the company's time
//!   zone.
//! - `chart.rs`: bar charts as inline SVG, integer coordinates from minor
//!   units, a title and description for assistive technology, and the
//!   figures as a table beneath.
//! - `einvoice_view.rs`: a received e-invoice as a person reads it, from the
//!   document model, in the reader's language.
//! - `kontor.css`: the one style sheet, embedded and served at
//!   `/static/kontor.css`.
//! - `passkeys.js`: the one script, embedded and served at
//!   `/static/passkeys.js`, allowed only on the pages that register or use
//!   a passkey (`frame::running_own_script`): it calls the browser's
//!   WebAuthn and posts its answer with the page's form.
//!
//! The screens, one file each:
//!
//! - `login.rs`: signing in at `/login`: the form with its own cookie token
//!   (its `EMAIL` and `PASSWORD` fields also the invitation's and the
//!   links'), the waits failed attempts earn, the capped password check, a
//!   new session.
//! - `second_factor.rs`: a sign-in's second step (`/login/second-factor`):
//!   the app's code, a passkey or a recovery code, on a step that is no
//!   session; wrong codes earn the waits wrong passwords do.
//! - `account.rs`: the person's own page (`/account`, "My account"): the
//!   authenticator app set up (secret shown once) or removed, passkeys
//!   registered and removed, new recovery codes; where a session is led
//!   that must set up a second factor first.
//! - `links.rs`: the one-time links' pages (`/invite`, `/reset`), opened
//!   without a session.
//! - `session.rs`: sign-out, switching company or live and test data,
//!   choosing the language.
//! - `dashboard.rs`: receivables and payables, the overdue invoices and
//!   bills, the two charts.
//! - `customers.rs`: the customers: list with search, new, a customer's
//!   particulars read and changed.
//! - `jobs.rs`: the transactions by workflow stage: moved, noted.
//! - `drafts/`: the drafts, a folder of their own.
//! - `invoices.rs`: the issued documents: list with status filter and
//!   search, one document, recording a payment, cancelling by a correction
//!   after a confirmation page.
//! - `sending.rs`: what the invoice's page shows of it leaving kontor (the
//!   VAT register's answer, the sends, the reminders and their letters) and
//!   the send form.
//! - `reminders.rs`: the dunning run with every proposal ticked, sending the
//!   ticked ones, the ladder and the base-rate table.
//! - `bills.rs`: the bills: list, recording one, paying one, applying a
//!   supplier's credit.
//! - `bills_received.rs`: the Bills screen's received e-invoices: the upload
//!   (multipart), the list by state, one received invoice with its verdict,
//!   the original and attachments to download, booking and refusing.
//! - `bank.rs`: the Bank screen: statement files uploaded (each imported in
//!   its own transaction), the lines by state with a search, grouped by
//!   statement with its account and balances and each line's running
//!   balance.
//! - `bank_line.rs`: a line's page: its suggestions, the open documents
//!   that could fit (searched, ticked to fill the split), the acts
//!   confirm, split, book (accounts by the line's direction), ignore, undo.
//! - `bank_accounts.rs`: Settings → bank accounts: the list, adding one, the
//!   fee tolerance.
//! - `statements.rs`: where the books stand, closing a period after a
//!   confirmation page, the trial balance, profit and loss and balance
//!   sheet, each account opening to its postings (`/books/accounts/{key}`).
//! - `euer.rs`: Books → EÜR: the cash-basis profit statement of a fiscal
//!   year on the lines of its Anlage EÜR, the payments behind each line,
//!   its PDF.
//! - `accounts.rs`: Books → Chart of accounts: the company's chart by
//!   number, adding an own account and removing one without postings.
//! - `assets.rs`: Books → Fixed assets: the register of a fiscal year by
//!   class and asset, the year's choices and depreciation, recording an
//!   asset, an asset's page with its plan and its disposal.
//! - `adviser.rs`: Books → Export (the DATEV export's form, its ZIP as a
//!   download, the exports made, final or preliminary) and Books → VAT
//!   return (each Kz with its postings, the EC sales list).
//! - `settings.rs`: the seller's particulars, the payment days and the
//!   workflow; everyone reads them, the owner changes them.
//! - `mail_settings.rs`: the owner's mail settings and the test mail (the
//!   password field never filled in).
//! - `tax_methods.rs`: Settings → Tax methods: the legal form, VAT on
//!   invoices or on payments, balance sheet or EÜR, the VAT return's period
//!   and extension, each change from a period's first day, and the changes.
//! - `datev.rs`: Settings → DATEV: the chart, the adviser's and client's
//!   numbers, the fiscal year, and the partners' account numbers an owner
//!   may give until the first export.
//! - `users.rs`: the company's people (owner only): invitations, roles,
//!   disabling and enabling, reset links, the requirement of two factors
//!   and a person's factors reset.
//! - `developers.rs`: API keys and webhook endpoints (owner only), an
//!   endpoint's delivery log and redelivery.

mod account;
mod accounts;
mod adviser;
mod assets;
mod bank;
mod bank_accounts;
mod bank_line;
mod bills;
mod bills_received;
mod chart;
mod context;
mod customers;
mod dashboard;
mod datev;
mod developers;
mod drafts;
pub mod einvoice_view;
mod euer;
mod form;
mod frame;
mod history;
mod invoices;
mod jobs;
mod links;
mod login;
mod mail_settings;
mod payment;
mod reminders;
mod second_factor;
mod sending;
mod session;
mod settings;
mod statements;
mod tax_methods;
mod users;
mod visit;

pub use links::link_path;
pub use visit::{body_limit, client_address, origin_of, Visit, MAX_FORM};

use std::sync::Arc;

use hyper::{Method, StatusCode};

use crate::access::links::LinkKind;
use crate::access::sessions;
use crate::error::said::Record;
use crate::error::{Error, Result, Said};
use crate::http::app::{self, in_store, Answer, App};
use crate::http::multipart;
use crate::http::query::{percent_decode, Query};
use crate::rules::locale::Lang;
use context::Ctx;
use frame::{html_answer, see_other};
use second_factor::Offered;
use visit::{cookie, same_origin, set_cookie, SESSION_COOKIE};

/// The style sheet, embedded in the binary.
const CSS: &str = include_str!("kontor.css");
/// The one script, embedded in the binary: passkeys on the pages that use them.
const PASSKEYS_JS: &str = include_str!("passkeys.js");

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

/// Answers one request to the screens. The sign-in's second step is
/// served here too, without a session: its own cookie opens only its forms.
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
        (&Method::GET | &Method::HEAD, ["static", "passkeys.js"]) => {
            let mut answer = html_answer(StatusCode::OK, PASSKEYS_JS.to_string());
            answer.headers[0].1 = "text/javascript; charset=utf-8".into();
            answer
        }
        (&Method::GET | &Method::HEAD, ["login"]) => login::form(&app.screens, &visit, browser),
        (&Method::POST, ["login"]) => login::submit(app, visit, browser).await,
        (&Method::GET | &Method::HEAD, ["login", "second-factor"]) => {
            second_factor::show(app, visit, browser).await
        }
        (&Method::POST, ["login", "code"]) => {
            second_factor::submit(app, visit, browser, Offered::Code).await
        }
        (&Method::POST, ["login", "recovery"]) => {
            second_factor::submit(app, visit, browser, Offered::Recovery).await
        }
        (&Method::POST, ["login", "passkey"]) => {
            second_factor::submit(app, visit, browser, Offered::Passkey).await
        }
        (&Method::POST, ["login", "passkey", "begin"]) => {
            second_factor::begin_passkey(app, visit, browser).await
        }
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
            None => return frame::failure_signed_in(&Error::PayloadTooLarge, lang, &session, conn),
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
                    Err(e) => return frame::failure_signed_in(&e, lang, &session, conn),
                }
            }
            Some(body) if !reads => match std::str::from_utf8(body).ok().map(Query::parse) {
                Some(Ok(form)) => form,
                _ => {
                    return frame::failure_signed_in(
                        &Error::bad_request(crate::error::said::Request::FormUnreadable),
                        lang,
                        &session,
                        conn,
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
                return frame::forged(lang, &session, conn);
            }
        }
        let snapshot = match app::snapshot(conn, reads) {
            Ok(s) => s,
            Err(e) => return frame::failure_signed_in(&e, lang, &session, conn),
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
        let answer =
            route(&ctx).unwrap_or_else(|e| frame::failure_signed_in(&e, lang, &session, conn));
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
    if ctx.session.must_set_up && !account::open_while_setting_up(&parts) {
        return Ok(see_other("/account"));
    }
    match parts.as_slice() {
        [] if get => Ok(see_other("/dashboard")),
        ["dashboard"] if get => dashboard::show(ctx),
        ["customers"] if get => customers::list(ctx),
        ["suppliers"] if get => customers::suppliers(ctx),
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
        ["bills", "received", id, "attachments", n] if get => {
            bills_received::attachment(ctx, id, n)
        }
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
        ["bills", id, "receipt"] if get => bills::receipt(ctx, id),
        ["bills", "receipts", file] if get => bills::waiting_receipt(ctx, file),
        ["bills", id, "receipt"] if post => bills::attach_receipt(ctx, id),
        ["payments", id, "reverse"] if post => payment::reverse(ctx, id),
        ["books"] if get => statements::show(ctx),
        ["books", "close"] if post => statements::close(ctx),
        ["books", "trial-balance"] if get => statements::trial_balance(ctx),
        ["books", "profit-and-loss"] if get => statements::profit_and_loss(ctx),
        ["books", "balance-sheet"] if get => statements::balance_sheet(ctx),
        ["books", "accounts"] if get => accounts::show(ctx),
        ["books", "accounts", key] if get => statements::account_sheet(ctx, key),
        ["books", "accounts"] if post => accounts::add(ctx),
        ["books", "accounts", number, "remove"] if post => accounts::remove(ctx, number),
        ["books", "assets"] if get => assets::show(ctx),
        ["books", "assets"] if post => assets::add(ctx),
        ["books", "assets", "new"] if get => assets::new_form(ctx),
        ["books", "assets", "depreciate"] if post => assets::depreciate(ctx),
        ["books", "assets", "choices"] if post => assets::choose(ctx),
        ["books", "assets", id] if get => assets::asset(ctx, id),
        ["books", "assets", id, "dispose"] if post => assets::dispose(ctx, id),
        ["bank"] if get => bank::list(ctx),
        ["bank", "import"] if post => bank::import(ctx),
        ["bank", "lines", id] if get => bank_line::show(ctx, id),
        ["bank", "lines", id, "confirm"] if post => bank_line::confirm(ctx, id),
        ["bank", "lines", id, "split"] if post => bank_line::split(ctx, id),
        ["bank", "lines", id, "book"] if post => bank_line::book(ctx, id),
        ["bank", "lines", id, "ignore"] if post => bank_line::ignore(ctx, id),
        ["bank", "lines", id, "undo"] if post => bank_line::undo(ctx, id),
        ["settings", "bank"] if get => bank_accounts::show(ctx),
        ["settings", "bank", "accounts"] if post => bank_accounts::add(ctx),
        ["settings", "bank", "tolerance"] if post => bank_accounts::tolerance(ctx),
        ["books", "vat"] if get => adviser::vat(ctx),
        ["books", "euer"] if get => euer::show(ctx),
        ["books", "euer", "pdf"] if get => euer::pdf(ctx),
        ["books", "export"] if get => adviser::export_show(ctx),
        ["books", "export", "datev"] if post => adviser::export_datev(ctx),
        ["books", "export", "gobd"] if post => adviser::export_gobd(ctx),
        ["books", "exports", id, "file"] if get => adviser::export_file(ctx, id),
        ["settings"] if get => settings::show(ctx),
        ["settings", "company"] if post => settings::set_particulars(ctx),
        ["settings", "payment-days"] if post => settings::set_payment_days(ctx),
        ["settings", "workflow"] if post => settings::set_workflow(ctx),
        ["settings", "mail"] if get => mail_settings::show(ctx),
        ["settings", "mail"] if post => mail_settings::save(ctx),
        ["settings", "mail", "test"] if post => mail_settings::test(ctx),
        ["settings", "tax"] if get => tax_methods::show(ctx),
        ["settings", "tax"] if post => tax_methods::set(ctx),
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
        ["account"] if get => account::show(ctx),
        ["account", "totp"] if post => account::begin_app(ctx),
        ["account", "totp", "confirm"] if post => account::confirm_app(ctx),
        ["account", "totp", "remove"] if post => account::remove_app(ctx),
        ["account", "recovery-codes"] if post => account::new_codes(ctx),
        ["account", "passkeys", "begin"] if post => account::begin_passkey(ctx),
        ["account", "passkeys"] if post => account::add_passkey(ctx),
        ["account", "passkeys", id, "remove"] if post => account::remove_passkey(ctx, id),
        ["settings", "users", "two-factor"] if post => users::require_two_factors(ctx),
        ["settings", "users", id, "two-factor-reset"] if post => users::reset_two_factor(ctx, id),
        ["logout"] if post => session::logout(ctx),
        ["session", "company"] if post => session::switch_company(ctx),
        ["session", "environment"] if post => session::switch_environment(ctx),
        ["session", "language"] if post => session::language(ctx),
        _ => Err(Error::not_found(Said::Record(Record::Page, String::new()))),
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
