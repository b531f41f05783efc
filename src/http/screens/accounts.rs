//! Books → Chart of accounts: every account of the company's chart (SKR03
//! or SKR04) by number, with its name in the page's language, its kind and
//! its HGB line; adding an account of the company's own (number, German
//! and English name, kind, line) and removing one nothing is posted to, as
//! `account add | remove` do (`books::chart_accounts`), by an owner or an
//! accountant. Fields carry the console flags' names in camelCase
//! (`number`, `nameDe`, `nameEn`, `kind`, `line`).

use hyper::StatusCode;
use maud::html;

use super::context::Ctx;
use super::form::{choice, post, required_note, Acted, Form, FormField, Problems, Reading};
use super::frame::{act_button, may_act, screen_with, see_other, th, th_number, Screen, Table};
use super::statements::links;
use crate::access::people::Capability;
use crate::books::chart_accounts::{self, AccountInput, NewAccount, MAX_NAME};
use crate::error::Result;
use crate::http::app::Answer;
use crate::rules::chart::{Kind, Line, Statement};
use crate::rules::locale::Lang;

/// An own account as `account add` adds it.
const ACCOUNT: Form = Form::new(&[
    FormField::text("number", "Account number", "Kontonummer", 4)
        .required()
        .hint(
            "Four digits at most, within the chart's range for its kind",
            "Höchstens vier Ziffern, im Bereich des Kontenrahmens für seine Art",
        ),
    FormField::text(
        "nameDe",
        "Name in German",
        "Bezeichnung (deutsch)",
        MAX_NAME,
    )
    .required(),
    FormField::text(
        "nameEn",
        "Name in English",
        "Bezeichnung (englisch)",
        MAX_NAME,
    )
    .required(),
])
.naming(&[
    ("kind", "Kind", "Art"),
    ("line", "Line of the statements", "Posten (HGB)"),
]);

/// How a person reads a kind of account.
fn kind_name(lang: Lang, kind: Kind) -> &'static str {
    match kind {
        Kind::Asset => lang.pick("Asset", "Aktiv"),
        Kind::Liability => lang.pick("Liability", "Verbindlichkeit"),
        Kind::Equity => lang.pick("Equity", "Eigenkapital"),
        Kind::Revenue => lang.pick("Revenue", "Ertrag"),
        Kind::Expense => lang.pick("Expense", "Aufwand"),
        Kind::Tax => lang.pick("Tax", "Steuer"),
    }
}

/// A line as the choice and the table name it: its statute and code.
fn line_name(lang: Lang, line: Line) -> String {
    let statute = match line.statement() {
        Statement::ProfitAndLoss => lang.pick("P&L", "GuV"),
        Statement::Assets => lang.pick("Assets", "Aktiva"),
        Statement::EquityAndLiabilities => lang.pick("Equity and liabilities", "Passiva"),
    };
    format!(
        "{statute} {} {}",
        line.code(),
        lang.pick(line.name_en(), line.name_de())
    )
}

/// The page: the accounts and, for who may act, the form of an own account.
fn page(
    ctx: &Ctx,
    status: StatusCode,
    value: &dyn Fn(&str) -> String,
    problems: &Problems,
) -> Result<Answer> {
    let lang = ctx.lang;
    let (chart, accounts) = chart_accounts::list(ctx.conn, &ctx.session.tenant.company_id)?;
    let kinds: Vec<(String, String)> = Kind::ALL
        .iter()
        .map(|k| (k.as_str().to_string(), kind_name(lang, *k).to_string()))
        .collect();
    let lines: Vec<(String, String)> = Line::ALL
        .iter()
        .filter(|l| **l != Line::NetIncome)
        .map(|l| (l.key(), line_name(lang, *l)))
        .collect();
    let notice = ctx.notice(
        "done",
        &[
            ("added", "The account is added.", "Das Konto ist angelegt."),
            (
                "removed",
                "The account is removed.",
                "Das Konto ist entfernt.",
            ),
        ],
    );
    let english = lang == Lang::En;
    let content = html! {
        (links(lang))
        @if let Some(notice) = notice.filter(|_| problems.list.is_empty()) {
            p.notice role="status" { (notice) }
        }
        p { (lang.pick("The company keeps its books in ", "Die Firma bucht im ")) strong { (chart.as_str().to_uppercase()) } "." }
        (Table::new(&[
            th_number(lang.pick("Number", "Nummer")), th(lang.pick("Name", "Bezeichnung")),
            th(lang.pick("Kind", "Art")), th(lang.pick("Line", "Posten")), th(lang.pick("Own", "Eigenes")),
        ])
        .read_caption(lang.pick("The accounts of the chart, by number", "Die Konten des Kontenrahmens, nach Nummer"))
        .id("accounts")
        .rows(&accounts, |a| html! {
            td.num { (format!("{:04}", a.number)) }
            th scope="row" { a href=(super::statements::account_link(&a.key)) { (a.name(english)) } }
            td { (kind_name(lang, a.kind)) }
            td { (line_name(lang, a.line)) }
            td {
                @if !a.standard {
                    (lang.pick("own", "eigenes"))
                    @if may_act(ctx) {
                        (act_button(ctx, &format!("/books/accounts/{}/remove", a.number), &format!("{} {}", lang.pick("Remove", "Entfernen"), a.number)))
                    }
                }
            }
        }))
        @if may_act(ctx) {
            section aria-labelledby="add-heading" {
                h2 #add-heading { (lang.pick("Add an account of the company's own", "Eigenes Konto anlegen")) }
                p { (lang.pick(
                    "A standard account's meaning never changes; an account with postings is kept.",
                    "Die Bedeutung eines Standardkontos ändert sich nie; ein Konto mit Buchungen bleibt.",
                )) }
                (ACCOUNT.summary(lang, problems))
                (post(ctx, "/books/accounts", html! {
                    (required_note(lang))
                    (ACCOUNT.fields(lang, value, problems))
                    (choice(lang, "kind", &ACCOUNT.label(lang, "kind"), &kinds, &value("kind"), None, problems))
                    (choice(lang, "line", &ACCOUNT.label(lang, "line"), &lines, &value("line"), None, problems))
                }, lang.pick("Add account", "Konto anlegen")))
            }
        }
    };
    Ok(screen_with(
        ctx,
        status,
        Screen::Books,
        lang.pick("Chart of accounts", "Kontenplan"),
        content,
    ))
}

/// GET /books/accounts
pub fn show(ctx: &Ctx) -> Result<Answer> {
    page(
        ctx,
        StatusCode::OK,
        &|_| String::new(),
        &Problems::default(),
    )
}

/// POST /books/accounts `{number, nameDe, nameEn, kind, line}`: an own
/// account, as `account add` adds it.
pub fn add(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let get = |name: &str| ctx.form.get(name).map(str::to_string);
    let read = Reading::of(ctx);
    let checked = read.check(NewAccount::check(AccountInput {
        number: get("number"),
        name_de: get("nameDe"),
        name_en: get("nameEn"),
        kind: get("kind"),
        line: get("line"),
    }));
    let added = ACCOUNT.act(ctx, checked, |tx, new| {
        chart_accounts::add(tx, &ctx.session.tenant, &ctx.actor(), &new)
    })?;
    match added {
        Acted::Done(_) => Ok(see_other("/books/accounts?done=added")),
        Acted::Refused(r) => page(ctx, r.status, &|f| ctx.typed(f), &r.problems),
    }
}

/// POST /books/accounts/{number}/remove: an own account nothing is posted
/// to, as `account remove` removes it.
pub fn remove(ctx: &Ctx, number: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let removed = ACCOUNT.act(ctx, Reading::of(ctx).check(Ok(())), |tx, ()| {
        chart_accounts::remove(tx, &ctx.session.tenant, &ctx.actor(), number)
    })?;
    match removed {
        Acted::Done(()) => Ok(see_other("/books/accounts?done=removed")),
        Acted::Refused(r) => page(ctx, r.status, &|_| String::new(), &r.problems),
    }
}
