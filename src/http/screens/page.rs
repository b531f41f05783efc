//! The frame of every screen: the document head with its title, the skip
//! link, the company and environment shown, the navigation (only screens
//! that exist are linked), the person's switches (company, live/test data,
//! language) and sign-out; form fields with their labels and the refusal
//! beside them; and the pages that say something went wrong.

use hyper::StatusCode;
use maud::{html, Markup, DOCTYPE};

use super::{html as answer_html, Ctx};
use crate::access::people::{self, Capability};
use crate::access::sessions::Session;
use crate::error::{Error, Violation};
use crate::http::app::Answer;
use crate::rules::locale::Lang;
use crate::store::tenant::Environment;

/// The screens a person can open, in the navigation's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    Dashboard,
    Customers,
    Jobs,
    Drafts,
    Invoices,
    Bills,
    Books,
    Settings,
    Developers,
    /// A page outside the navigation (an error, the sign-in).
    None,
}

impl Screen {
    /// The linked screens, in the navigation's order.
    const LINKED: [Screen; 9] = [
        Screen::Dashboard,
        Screen::Customers,
        Screen::Jobs,
        Screen::Drafts,
        Screen::Invoices,
        Screen::Bills,
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
            Screen::Bills => "/bills",
            Screen::Books => "/books",
            Screen::Settings => "/settings",
            Screen::Developers => "/developers",
            Screen::None => "/",
        }
    }

    fn label(self, lang: Lang) -> &'static str {
        match self {
            Screen::Dashboard => lang.pick("Dashboard", "Übersicht"),
            Screen::Customers => lang.pick("Customers", "Kunden"),
            Screen::Jobs => lang.pick("Jobs", "Vorgänge"),
            Screen::Drafts => lang.pick("Drafts", "Entwürfe"),
            Screen::Invoices => lang.pick("Invoices", "Rechnungen"),
            Screen::Bills => lang.pick("Bills", "Eingangsrechnungen"),
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
                                a href=(screen.href()) aria-current="page" { (screen.label(lang)) }
                            } @else {
                                a href=(screen.href()) { (screen.label(lang)) }
                            }
                        }
                    }
                }
            }
            (switches)
        }
    }
}

/// The person's switches and sign-out, each a small form with the session's token.
fn switches(ctx: &Ctx) -> Markup {
    let lang = ctx.lang;
    let session = ctx.session;
    let companies = people::memberships(ctx.conn, &session.person.id).unwrap_or_default();
    let sandbox = session.tenant.environment == Environment::Sandbox;
    html! {
        div.person {
            span.who { (session.person.name) " (" (role_name(lang, session)) ")" }
            @if companies.len() > 1 {
                form method="post" action="/session/company" {
                    (csrf(ctx))
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
                (csrf(ctx))
                input type="hidden" name="environment" value=(if sandbox { "live" } else { "test" });
                button type="submit" {
                    (if sandbox { lang.pick("Show live data", "Echte Daten zeigen") } else { lang.pick("Show test data", "Testdaten zeigen") })
                }
            }
            form method="post" action="/session/language" {
                (csrf(ctx))
                label for="switch-language" { (lang.pick("Language", "Sprache")) }
                select #switch-language name="language" {
                    option value="browser" selected[session.person.locale.is_none()] { (lang.pick("As the browser", "Wie der Browser")) }
                    option value="de" selected[session.person.locale == Some(Lang::De)] lang="de" { "Deutsch" }
                    option value="en" selected[session.person.locale == Some(Lang::En)] lang="en" { "English" }
                }
                button type="submit" { (lang.pick("Set", "Setzen")) }
            }
            form method="post" action="/logout" {
                (csrf(ctx))
                button type="submit" { (lang.pick("Sign out", "Abmelden")) }
            }
        }
    }
}

fn role_name(lang: Lang, session: &Session) -> &'static str {
    use crate::access::people::Role;
    match session.role {
        Role::Owner => lang.pick("owner", "Inhaber"),
        Role::Accountant => lang.pick("accountant", "Buchhaltung"),
        Role::Viewer => lang.pick("viewer", "nur lesen"),
    }
}

/// The hidden field with the session's form token.
pub fn csrf(ctx: &Ctx) -> Markup {
    html! { input type="hidden" name="csrf" value=(ctx.session.csrf); }
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
    let header = header(ctx.lang, ctx.session, current, switches(ctx));
    answer_html(status, document(ctx.lang, title, header, content))
}

/// A page without a session (the sign-in).
pub fn bare(lang: Lang, status: StatusCode, title: &str, content: Markup) -> Answer {
    let header = html! {
        header.top { div.brand { span.name { "kontor" } } }
    };
    answer_html(status, document(lang, title, header, content))
}

/// A page saying what went wrong, for a refusal no form shows beside its field.
pub fn failure(error: &Error, lang: Lang, session: Option<&Session>) -> Answer {
    let (title, sentence) = match error {
        Error::NotFound(_) => (
            lang.pick("Not found", "Nicht gefunden"),
            lang.pick(
                "There is no such page or record here.",
                "Diese Seite oder diesen Datensatz gibt es hier nicht.",
            )
            .to_string(),
        ),
        Error::Forbidden => (
            lang.pick("Not allowed", "Nicht erlaubt"),
            lang.pick(
                "Your role in this company does not allow this; nothing was done.",
                "Ihre Rolle in dieser Firma erlaubt das nicht; es wurde nichts geändert.",
            )
            .to_string(),
        ),
        Error::Internal(detail) => {
            tracing::error!("{detail}");
            (
                lang.pick("Something went wrong", "Etwas ist schiefgegangen"),
                lang.pick(
                    "Something went wrong inside kontor; nothing was changed.",
                    "In kontor ist etwas schiefgegangen; es wurde nichts geändert.",
                )
                .to_string(),
            )
        }
        Error::Busy => (
            lang.pick("Busy", "Ausgelastet"),
            lang.pick(
                "kontor is busy; nothing was done. Try again in a moment.",
                "kontor ist ausgelastet; es wurde nichts getan. Bitte gleich noch einmal versuchen.",
            )
            .to_string(),
        ),
        other => (lang.pick("Refused", "Abgelehnt"), other.sentence()),
    };
    let content = html! {
        p.problem role="alert" { (sentence) }
        p { a href="/dashboard" { (lang.pick("To the dashboard", "Zur Übersicht")) } }
    };
    let page = match session {
        Some(session) => {
            let header = header(lang, session, Screen::None, html! {});
            document(lang, title, header, content)
        }
        None => {
            let header = html! { header.top { div.brand { span.name { "kontor" } } } };
            document(lang, title, header, content)
        }
    };
    answer_html(error.status(), page)
}

/// A page for an address that does not exist.
pub fn not_found(lang: Lang, session: Option<&Session>) -> Answer {
    failure(&Error::not_found("This page"), lang, session)
}

/// A form post without the session's token or from another site.
pub fn forged(lang: Lang, session: &Session) -> Answer {
    let content = html! {
        p.problem role="alert" {
            (lang.pick(
                "This form is out of date or was sent from another site; nothing was done. Reload the page and try again.",
                "Dieses Formular ist veraltet oder kam von einer anderen Seite; es wurde nichts getan. Bitte die Seite neu laden und es noch einmal versuchen.",
            ))
        }
    };
    let header = header(lang, session, Screen::None, html! {});
    answer_html(
        StatusCode::FORBIDDEN,
        document(lang, lang.pick("Refused", "Abgelehnt"), header, content),
    )
}

/// A refusal's message for one field, in the page's language where the
/// predicate is a common one; the books' English otherwise.
fn message(lang: Lang, v: &Violation) -> String {
    let text = match (lang, v.message.as_str()) {
        (Lang::De, "is missing") => "fehlt".to_string(),
        (Lang::De, "is not an e-mail address") => "ist keine E-Mail-Adresse".to_string(),
        (_, m) => m.to_string(),
    };
    match &v.hint {
        Some(hint) => format!("{text} ({hint})"),
        None => text,
    }
}

/// The violations of a refused form, for its fields and its summary.
#[derive(Default)]
pub struct Problems {
    pub list: Vec<Violation>,
}

impl Problems {
    /// The problems of a refusal (empty for other errors).
    pub fn of(error: &Error) -> Problems {
        Problems {
            list: error.violations().to_vec(),
        }
    }

    fn of_field(&self, field: &str) -> Vec<&Violation> {
        self.list
            .iter()
            .filter(|v| v.field.as_deref() == Some(field))
            .collect()
    }

    /// The summary above a refused form: every problem, whole ones in full.
    pub fn summary(&self, lang: Lang, label: &dyn Fn(&str) -> String) -> Markup {
        html! {
            @if !self.list.is_empty() {
                div.problem role="alert" {
                    p { (lang.pick("Nothing was saved. Please correct:", "Es wurde nichts gespeichert. Bitte korrigieren:")) }
                    ul {
                        @for v in &self.list {
                            li {
                                @match &v.field {
                                    Some(field) => { (label(field)) ": " (message(lang, v)) }
                                    None => { (v.message) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A field as a form's list names it: the API's name of the field (or the
/// console flag's), its labels, its input kind and bounds.
pub struct FormField {
    pub name: &'static str,
    pub en: &'static str,
    pub de: &'static str,
    pub max: usize,
    pub kind: &'static str,
    pub autocomplete: Option<&'static str>,
    pub required: bool,
}

impl FormField {
    /// The field with its value and hint, and what to fix beside it.
    pub fn render(
        &self,
        lang: Lang,
        value: &str,
        hint: Option<String>,
        problems: &Problems,
    ) -> Markup {
        Field {
            name: self.name,
            label: lang.pick(self.en, self.de).to_string(),
            value,
            required: self.required,
            max: self.max,
            kind: self.kind,
            autocomplete: self.autocomplete,
            hint,
        }
        .render(lang, problems)
    }
}

/// The text fields of a payment, of an invoice or of a bill, as the
/// console's flags name them (`--amount`, `--on`, `--reference`).
pub const PAYMENT_FIELDS: &[FormField] = &[
    FormField {
        name: "amount",
        en: "Amount",
        de: "Betrag",
        max: 30,
        kind: "text",
        autocomplete: None,
        required: true,
    },
    FormField {
        name: "on",
        en: "Paid on",
        de: "Bezahlt am",
        max: 10,
        kind: "date",
        autocomplete: None,
        required: false,
    },
    FormField {
        name: "reference",
        en: "Reference",
        de: "Verwendungszweck",
        max: 200,
        kind: "text",
        autocomplete: None,
        required: false,
    },
];

/// One text field of a form: its label, the value typed (or stored), and
/// what to fix beside it when the form was refused.
pub struct Field<'a> {
    pub name: &'a str,
    pub label: String,
    pub value: &'a str,
    pub required: bool,
    pub max: usize,
    pub kind: &'a str,
    pub autocomplete: Option<&'a str>,
    pub hint: Option<String>,
}

impl Field<'_> {
    pub fn render(&self, lang: Lang, problems: &Problems) -> Markup {
        let wrong = problems.of_field(self.name);
        let id = format!("field-{}", self.name);
        let error_id = format!("{id}-error");
        let hint_id = format!("{id}-hint");
        let described = match (self.hint.is_some(), wrong.is_empty()) {
            (true, false) => Some(format!("{hint_id} {error_id}")),
            (true, true) => Some(hint_id.clone()),
            (false, false) => Some(error_id.clone()),
            (false, true) => None,
        };
        html! {
            div.field.wrong[!wrong.is_empty()] {
                label for=(id) {
                    (self.label)
                    @if self.required { " " span.required aria-hidden="true" { "*" } }
                }
                @if let Some(hint) = &self.hint {
                    span.hint id=(hint_id) { (hint) }
                }
                input id=(id) type=(self.kind) name=(self.name) value=(self.value)
                    maxlength=(self.max) required[self.required]
                    autocomplete=[self.autocomplete]
                    aria-invalid=[(!wrong.is_empty()).then_some("true")]
                    aria-describedby=[described];
                @if !wrong.is_empty() {
                    p.error id=(error_id) {
                        @for v in &wrong { (message(lang, v)) " " }
                    }
                }
            }
        }
    }
}

/// The search form of a list: `action` with the field `search` (its label
/// `label`, its value `value`, a refusal beside it) and the list's other
/// parameters kept as hidden fields.
pub fn search_form(
    lang: Lang,
    action: &str,
    keep: &[(&str, &str)],
    label: String,
    value: &str,
    problems: &Problems,
) -> Markup {
    html! {
        form.search method="get" action=(action) role="search" {
            @for (name, kept) in keep {
                input type="hidden" name=(name) value=(kept);
            }
            (Field {
                name: "search",
                label,
                value,
                required: false,
                max: 200,
                kind: "search",
                autocomplete: None,
                hint: None,
            }.render(lang, problems))
            button type="submit" { (lang.pick("Search", "Suchen")) }
        }
    }
}

/// Whether the session may act, for showing the forms that act.
pub fn may_act(ctx: &Ctx) -> bool {
    ctx.may(Capability::Act)
}

/// The links between the pages of a list and where the reader is:
/// `link(n)` is the address of page `n` (from 0), `noun` names the rows
/// (`customers`, `Kunden`).
pub fn pager(
    lang: Lang,
    page: &crate::store::page::Page<impl Sized>,
    link: &dyn Fn(i64) -> String,
    noun: (&str, &str),
) -> Markup {
    let pages = ((page.total + page.size - 1) / page.size.max(1)).max(1);
    html! {
        nav.pages aria-label=(lang.pick("Pages", "Seiten")) {
            @if page.page > 0 {
                a href=(link(page.page - 1)) rel="prev" { (lang.pick("Previous page", "Vorige Seite")) }
            }
            span {
                (match lang {
                    Lang::En => format!("Page {} of {} ({} {})", page.page + 1, pages, page.total, noun.0),
                    Lang::De => format!("Seite {} von {} ({} {})", page.page + 1, pages, page.total, noun.1),
                })
            }
            @if page.more {
                a href=(link(page.page + 1)) rel="next" { (lang.pick("Next page", "Nächste Seite")) }
            }
        }
    }
}
