//! The frame of every screen and the answers the screens give: the
//! document head with its title, the skip link, the company and
//! environment shown, the navigation (only screens that exist are linked),
//! the person's switches (company, live/test data, language) and sign-out;
//! the pages that say something went wrong; an HTML answer with the
//! security headers of every page, a redirect after a form, one of
//! kontor's own PDFs; and how a page shows money, a role, a table, a
//! list's pages and a value shown only once.

use hyper::StatusCode;
use maud::{html, Markup, DOCTYPE};
use rusqlite::Connection;

use crate::access::people::{self, Capability, Role};
use crate::access::sessions::Session;
use crate::error::said::Record;
use crate::error::{Error, Said};
use crate::http::app::Answer;
use crate::http::screens::context::Ctx;
use crate::rules::catalogue::Reader;
use crate::rules::locale::{self, Lang};
use crate::rules::money::Money;
use crate::store::tenant::Environment;

/// The screens a person can open, in the navigation's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    Dashboard,
    Customers,
    Jobs,
    Drafts,
    Invoices,
    Reminders,
    Bills,
    Bank,
    Books,
    Settings,
    Developers,
    /// A page outside the navigation (an error, the sign-in).
    None,
}

impl Screen {
    /// The linked screens, in the navigation's order.
    const LINKED: [Screen; 11] = [
        Screen::Dashboard,
        Screen::Customers,
        Screen::Jobs,
        Screen::Drafts,
        Screen::Invoices,
        Screen::Reminders,
        Screen::Bills,
        Screen::Bank,
        Screen::Books,
        Screen::Settings,
        Screen::Developers,
    ];

    /// Whether a role sees this screen at all (developer settings are the owner's).
    fn shown_to(self, session: &Session) -> bool {
        match self {
            Screen::Developers => session.role.may(Capability::ManageDevelopers),
            _ => true,
        }
    }

    fn href(self) -> &'static str {
        match self {
            Screen::Dashboard => "/dashboard",
            Screen::Customers => "/customers",
            Screen::Jobs => "/jobs",
            Screen::Drafts => "/drafts",
            Screen::Invoices => "/invoices",
            Screen::Reminders => "/reminders",
            Screen::Bills => "/bills",
            Screen::Bank => "/bank",
            Screen::Books => "/books",
            Screen::Settings => "/settings",
            Screen::Developers => "/developers",
            Screen::None => "/",
        }
    }

    fn name(self, lang: Lang) -> &'static str {
        match self {
            Screen::Dashboard => lang.pick("Dashboard", "Übersicht"),
            Screen::Customers => lang.pick("Customers", "Kunden"),
            Screen::Jobs => lang.pick("Jobs", "Vorgänge"),
            Screen::Drafts => lang.pick("Drafts", "Entwürfe"),
            Screen::Invoices => lang.pick("Invoices", "Rechnungen"),
            Screen::Reminders => lang.pick("Reminders", "Mahnungen"),
            Screen::Bills => lang.pick("Bills", "Eingangsrechnungen"),
            Screen::Bank => lang.pick("Bank", "Bank"),
            Screen::Books => lang.pick("Books", "Bücher"),
            Screen::Settings => lang.pick("Settings", "Einstellungen"),
            Screen::Developers => lang.pick("Developers", "Entwickler"),
            Screen::None => "",
        }
    }
}

/// The whole document around a screen's content.
fn document(lang: Lang, title: &str, header: Markup, content: Markup) -> String {
    html! {
        (DOCTYPE)
        html lang=(lang.code()) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · kontor" }
                link rel="stylesheet" href="/static/kontor.css";
            }
            body {
                a.skip href="#main" { (lang.pick("Skip to content", "Zum Inhalt springen")) }
                (header)
                main #main {
                    h1 { (title) }
                    (content)
                }
            }
        }
    }
    .into_string()
}

/// The header of a signed-in page: where the person is and where they can go.
fn header(lang: Lang, session: &Session, current: Screen, switches: Markup) -> Markup {
    let sandbox = session.tenant.environment == Environment::Sandbox;
    html! {
        header.top {
            div.brand {
                span.name { "kontor" }
                span.company { (session.company_name) }
                @if sandbox {
                    span.badge { (lang.pick("Test data", "Testdaten")) }
                }
            }
            nav aria-label=(lang.pick("Main", "Hauptnavigation")) {
                ul {
                    @for screen in Screen::LINKED.into_iter().filter(|s| s.shown_to(session)) {
                        li {
                            @if screen == current {
                                a href=(screen.href()) aria-current="page" { (screen.name(lang)) }
                            } @else {
                                a href=(screen.href()) { (screen.name(lang)) }
                            }
                        }
                    }
                }
            }
            (switches)
        }
    }
}

/// The person's switches and sign-out, each a small form with the
/// session's token; the switch of company only when `conn` can read the
/// person's companies.
fn switches(lang: Lang, session: &Session, conn: Option<&Connection>) -> Markup {
    let companies = conn
        .map(|conn| people::memberships(conn, &session.person.id).unwrap_or_default())
        .unwrap_or_default();
    let sandbox = session.tenant.environment == Environment::Sandbox;
    let csrf = html! { input type="hidden" name="csrf" value=(session.csrf); };
    html! {
        div.person {
            span.who { (session.person.name) " (" (role_label(lang, session.role)) ")" }
            a href="/account" { (lang.pick("My account", "Mein Konto")) }
            @if companies.len() > 1 {
                form method="post" action="/session/company" {
                    (csrf)
                    label for="switch-company" { (lang.pick("Company", "Firma")) }
                    select #switch-company name="companyId" {
                        @for c in &companies {
                            option value=(c.company_id) selected[c.company_id == session.tenant.company_id] { (c.company) }
                        }
                    }
                    button type="submit" { (lang.pick("Switch", "Wechseln")) }
                }
            }
            form method="post" action="/session/environment" {
                (csrf)
                input type="hidden" name="environment" value=(if sandbox { "live" } else { "test" });
                button type="submit" {
                    (if sandbox { lang.pick("Show live data", "Echte Daten zeigen") } else { lang.pick("Show test data", "Testdaten zeigen") })
                }
            }
            form method="post" action="/session/language" {
                (csrf)
                label for="switch-language" { (lang.pick("Language", "Sprache")) }
                select #switch-language name="language" {
                    option value="browser" selected[session.person.locale.is_none()] { (lang.pick("As the browser", "Wie der Browser")) }
                    option value="de" selected[session.person.locale == Some(Lang::De)] lang="de" { "Deutsch" }
                    option value="en" selected[session.person.locale == Some(Lang::En)] lang="en" { "English" }
                }
                button type="submit" { (lang.pick("Set", "Setzen")) }
            }
            form method="post" action="/logout" {
                (csrf)
                button type="submit" { (lang.pick("Sign out", "Abmelden")) }
            }
        }
    }
}

/// A role as the screens name it.
pub fn role_label(lang: Lang, role: Role) -> &'static str {
    match role {
        Role::Owner => lang.pick("owner", "Inhaber"),
        Role::Accountant => lang.pick("accountant", "Buchhaltung"),
        Role::Viewer => lang.pick("viewer", "nur lesen"),
        Role::Adviser => lang.pick("tax adviser", "Steuerberatung"),
    }
}

/// The hidden field with the session's form token.
pub fn csrf(ctx: &Ctx) -> Markup {
    html! { input type="hidden" name="csrf" value=(ctx.session.csrf); }
}

/// An act without a form: a button labelled `label` that posts the
/// session's token to `action`.
pub fn act_button(ctx: &Ctx, action: &str, label: &str) -> Markup {
    html! {
        form method="post" action=(action) {
            (csrf(ctx))
            button type="submit" { (label) }
        }
    }
}

/// A signed-in screen.
pub fn screen(ctx: &Ctx, current: Screen, title: &str, content: Markup) -> Answer {
    screen_with(ctx, StatusCode::OK, current, title, content)
}

/// A signed-in screen with another status (a refused form: 400 or 409).
pub fn screen_with(
    ctx: &Ctx,
    status: StatusCode,
    current: Screen,
    title: &str,
    content: Markup,
) -> Answer {
    let header = header(
        ctx.lang,
        ctx.session,
        current,
        switches(ctx.lang, ctx.session, Some(ctx.conn)),
    );
    html_answer(status, document(ctx.lang, title, header, content))
}

/// A page without a session (the sign-in).
pub fn bare(lang: Lang, status: StatusCode, title: &str, content: Markup) -> Answer {
    let header = html! {
        header.top { div.brand { span.name { "kontor" } } }
    };
    html_answer(status, document(lang, title, header, content))
}

/// A page saying what went wrong, for a refusal no form shows beside its
/// field; signed in, under the whole header (the navigation, the switches
/// and sign-out).
pub fn failure(error: &Error, lang: Lang, session: Option<&Session>) -> Answer {
    failure_in(error, lang, session, None)
}

/// `failure` where the person's companies can be read (`conn`), so the
/// header offers the switch of company too.
pub fn failure_signed_in(
    error: &Error,
    lang: Lang,
    session: &Session,
    conn: &Connection,
) -> Answer {
    failure_in(error, lang, Some(session), Some(conn))
}

fn failure_in(
    error: &Error,
    lang: Lang,
    session: Option<&Session>,
    conn: Option<&Connection>,
) -> Answer {
    if let Error::Internal(detail) = error {
        tracing::error!("{detail}");
    }
    let title = match error {
        Error::NotFound(_) => lang.pick("Not found", "Nicht gefunden"),
        Error::Forbidden => lang.pick("Not allowed", "Nicht erlaubt"),
        Error::Internal(_) => lang.pick("Something went wrong", "Etwas ist schiefgegangen"),
        Error::Busy => lang.pick("Busy", "Ausgelastet"),
        Error::StorageFull => lang.pick("Nothing written", "Nichts gespeichert"),
        _ => lang.pick("Refused", "Abgelehnt"),
    };
    // A page not found says no more: which record an address would have
    // named is nobody's business who cannot see it.
    let sentence = match error {
        Error::NotFound(_) => lang
            .pick(
                "There is no such page or record here.",
                "Diese Seite oder diesen Datensatz gibt es hier nicht.",
            )
            .to_string(),
        other => other.sentence_for(Reader::screens(lang)),
    };
    let content = html! {
        p.problem role="alert" { (sentence) }
        p { a href="/dashboard" { (lang.pick("To the dashboard", "Zur Übersicht")) } }
    };
    let page = match session {
        Some(session) => {
            let header = header(lang, session, Screen::None, switches(lang, session, conn));
            document(lang, title, header, content)
        }
        None => {
            let header = html! { header.top { div.brand { span.name { "kontor" } } } };
            document(lang, title, header, content)
        }
    };
    html_answer(error.status(), page)
}

/// A page for an address that does not exist.
pub fn not_found(lang: Lang, session: Option<&Session>) -> Answer {
    failure(
        &Error::not_found(Said::Record(Record::Page, String::new())),
        lang,
        session,
    )
}

/// A form post without the session's token or from another site, under
/// the whole header.
pub fn forged(lang: Lang, session: &Session, conn: &Connection) -> Answer {
    let content = html! {
        p.problem role="alert" {
            (lang.pick(
                "This form is out of date or was sent from another site; nothing was done. Reload the page and try again.",
                "Dieses Formular ist veraltet oder kam von einer anderen Seite; es wurde nichts getan. Bitte die Seite neu laden und es noch einmal versuchen.",
            ))
        }
    };
    let header = header(
        lang,
        session,
        Screen::None,
        switches(lang, session, Some(conn)),
    );
    html_answer(
        StatusCode::FORBIDDEN,
        document(lang, lang.pick("Refused", "Abgelehnt"), header, content),
    )
}

/// The content security policy of every page: no script from anywhere
/// (the passkeys' pages add their one script: `running_own_script`),
/// styles from this host only, no framing.
const PAGE_POLICY: &str = "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/// The headers every page carries: no script from anywhere, styles from
/// this host only, no framing, no sniffing.
pub fn security_headers(headers: &mut Vec<(&'static str, String)>) {
    headers.push(("Content-Security-Policy", PAGE_POLICY.into()));
    headers.push(("X-Frame-Options", "DENY".into()));
    headers.push(("X-Content-Type-Options", "nosniff".into()));
    headers.push(("Referrer-Policy", "same-origin".into()));
}

/// An HTML answer.
pub fn html_answer(status: StatusCode, body: String) -> Answer {
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
pub fn embedding_own_pdfs(mut answer: Answer) -> Answer {
    for (name, value) in &mut answer.headers {
        if *name == "Content-Security-Policy" {
            *value = format!("{PAGE_POLICY}; object-src 'self'");
        }
    }
    answer
}

/// A page that registers or uses a passkey: every page's policy plus
/// kontor's own script (`/static/passkeys.js`, the one script of the
/// screens, which calls the browser's WebAuthn) and its requests to this
/// origin (`script-src 'self'; connect-src 'self'`). No inline script runs
/// anywhere; every other page runs none.
pub fn running_own_script(mut answer: Answer) -> Answer {
    for (name, value) in &mut answer.headers {
        if *name == "Content-Security-Policy" {
            *value = format!("{PAGE_POLICY}; script-src 'self'; connect-src 'self'");
        }
    }
    answer
}

/// A JSON answer of the screens (a passkey challenge for the page's script,
/// or the sentence of its refusal), with the headers of every page.
pub fn json_answer(status: StatusCode, body: &serde_json::Value) -> Answer {
    let mut headers = vec![("Content-Type", "application/json".to_string())];
    security_headers(&mut headers);
    Answer {
        status,
        headers,
        body: serde_json::to_vec(body).unwrap_or_default(),
        key_id: None,
    }
}

/// A PDF for kontor's own pages (a draft's preview): shown inline, and
/// embeddable by pages of this origin only (`frame-ancestors 'self'`,
/// `X-Frame-Options: SAMEORIGIN`), where every other page may not be
/// framed at all. Like every answer it is `no-store`: never kept by the
/// browser either.
pub fn own_pdf(body: Vec<u8>, file_name: &str) -> Answer {
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

/// The address of a document's page (`/invoices/RE2026-00001`), and of its
/// sub-pages with `rest` (`/pay`, `/cancel`, `/document?format=facturx`).
pub fn invoice_href(number: &str, rest: &str) -> String {
    format!(
        "/invoices/{}{rest}",
        crate::http::query::percent_encode(number)
    )
}

/// A redirect after a form (303: the browser follows with GET).
pub fn see_other(location: &str) -> Answer {
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

/// An amount of money as a person reads it, in the page's language.
pub fn money(lang: Lang, m: &Money) -> String {
    locale::amount(lang, m.minor, &m.currency)
}

/// A value shown only this once, to be copied (a key, a signing secret, a
/// one-time link): `warning` saying so, then the value in a read-only field
/// `id`, labelled `label`, `size` characters wide.
pub fn shown_once(warning: &str, id: &str, label: &str, value: &str, size: u32) -> Markup {
    html! {
        p { strong { (warning) } }
        div.field {
            label for=(id) { (label) }
            input id=(id) type="text" readonly value=(value) size=(size);
        }
    }
}

/// Whether the session may act, for showing the forms that act.
pub fn may_act(ctx: &Ctx) -> bool {
    ctx.may(Capability::Act)
}

/// A noun a screen counts, in English and German, each as one and as
/// many: "1 draft", "2 drafts"; "1 Entwurf", "2 Entwürfe".
#[derive(Clone, Copy)]
pub struct Noun {
    pub en: (&'static str, &'static str),
    pub de: (&'static str, &'static str),
}

impl Noun {
    /// `n` of the noun in `lang`: the singular for exactly one.
    pub fn count(&self, lang: Lang, n: i64) -> String {
        let (one, many) = match lang {
            Lang::En => self.en,
            Lang::De => self.de,
        };
        format!("{n} {}", if n == 1 { one } else { many })
    }
}

/// The links between the pages of a list and where the reader is:
/// `link(n)` is the address of page `n` (from 0), `noun` names the rows.
pub fn pager(
    lang: Lang,
    page: &crate::store::paging::Page<impl Sized>,
    link: &dyn Fn(i64) -> String,
    noun: Noun,
) -> Markup {
    let pages = ((page.total + page.size - 1) / page.size.max(1)).max(1);
    let rows = noun.count(lang, page.total);
    html! {
        nav.pages aria-label=(lang.pick("Pages", "Seiten")) {
            @if page.page > 0 {
                a href=(link(page.page - 1)) rel="prev" { (lang.pick("Previous page", "Vorige Seite")) }
            }
            span {
                (match lang {
                    Lang::En => format!("Page {} of {} ({rows})", page.page + 1, pages),
                    Lang::De => format!("Seite {} von {} ({rows})", page.page + 1, pages),
                })
            }
            @if page.more {
                a href=(link(page.page + 1)) rel="next" { (lang.pick("Next page", "Nächste Seite")) }
            }
        }
    }
}

/// How a column's heading is set: as text, right as amounts are
/// (`.amount`), or marked as figures (`class="num"`).
#[derive(Clone, Copy)]
enum Setting {
    Text,
    Amount,
    Number,
}

/// The heading of a column of a `Table`, in the page's language.
#[derive(Clone, Copy)]
pub struct Heading<'a> {
    text: &'a str,
    setting: Setting,
}

/// The heading of a column of text.
pub fn th(text: &str) -> Heading<'_> {
    Heading {
        text,
        setting: Setting::Text,
    }
}

/// The heading of a column of amounts, set right as they are.
pub fn th_amount(text: &str) -> Heading<'_> {
    Heading {
        text,
        setting: Setting::Amount,
    }
}

/// The heading of a column of figures (a count, a Kz's amount, an account).
pub fn th_number(text: &str) -> Heading<'_> {
    Heading {
        text,
        setting: Setting::Number,
    }
}

/// A table of a page, described once: its caption (said to screen
/// readers only, or shown), its id, the headings of its columns (each
/// `scope="col"`), and a row of cells for each item.
pub struct Table<'a> {
    headings: &'a [Heading<'a>],
    caption: Option<&'a str>,
    caption_shown: bool,
    id: Option<&'a str>,
}

impl<'a> Table<'a> {
    /// A table of these columns, without a caption.
    pub fn new(headings: &'a [Heading<'a>]) -> Table<'a> {
        Table {
            headings,
            caption: None,
            caption_shown: false,
            id: None,
        }
    }

    /// The same table with a caption for screen readers (the page's
    /// heading already says it to the eye).
    pub fn read_caption(self, caption: &'a str) -> Table<'a> {
        Table {
            caption: Some(caption),
            caption_shown: false,
            ..self
        }
    }

    /// The same table with a caption shown above it.
    pub fn caption(self, caption: &'a str) -> Table<'a> {
        Table {
            caption: Some(caption),
            caption_shown: true,
            ..self
        }
    }

    /// The same table with an id (for a link to it, or a test).
    pub fn id(self, id: &'a str) -> Table<'a> {
        Table {
            id: Some(id),
            ..self
        }
    }

    /// The table with a row for each of `items`, its cells `cells(item)`.
    pub fn rows<T>(
        &self,
        items: impl IntoIterator<Item = T>,
        cells: impl Fn(T) -> Markup,
    ) -> Markup {
        self.with_foot(items, cells, html! {})
    }

    /// The table with its rows, and `foot` (rows of totals) below them.
    pub fn with_foot<T>(
        &self,
        items: impl IntoIterator<Item = T>,
        cells: impl Fn(T) -> Markup,
        foot: Markup,
    ) -> Markup {
        html! {
            table id=[self.id] {
                @if let Some(caption) = self.caption {
                    @if self.caption_shown {
                        caption { (caption) }
                    } @else {
                        caption.visually-hidden { (caption) }
                    }
                }
                thead {
                    tr {
                        @for h in self.headings {
                            @match h.setting {
                                Setting::Text => th scope="col" { (h.text) },
                                Setting::Amount => th.amount scope="col" { (h.text) },
                                Setting::Number => th scope="col" class="num" { (h.text) },
                            }
                        }
                    }
                }
                tbody {
                    @for item in items {
                        tr { (cells(item)) }
                    }
                }
                (foot)
            }
        }
    }
}
