//! The books: where they stand (closed through which day), closing a
//! period (the `through` day, then a confirmation page, for it cannot be
//! undone), and the statements read from the ledger — the trial balance,
//! the profit and loss and the balance sheet, each marked final when the
//! books are closed through its last day and preliminary otherwise. The
//! same `books::ledger` functions serve `books close`, `books
//! trial-balance` and the agent tools; closing records the person in the audit.

use hyper::StatusCode;
use maud::{html, Markup};

use super::context::Ctx;
use super::form::{post, queried, Acted, Form, FormField, Problems, Reading};
use super::frame::{
    csrf, may_act, money, screen, screen_with, see_other, th, th_amount, Screen, Table,
};
use crate::access::people::Capability;
use crate::books::ledger::{self, AccountAmount};
use crate::error::Result;
use crate::http::app::Answer;
use crate::rules::locale::{self, Lang};
use crate::rules::money::Money;
use crate::store::clock;

/// Closing a period: the day it closes through. A refusal of the whole
/// (closing cannot move back) belongs to it.
const CLOSE: Form = Form::new(&[FormField::date(
    "through",
    "Close the books through",
    "Bücher abschließen bis einschließlich",
)
.required()])
.whole_at("through");

/// The days a statement is read for.
const AS_OF: FormField = FormField::date("asOf", "As of", "Stichtag");
const FROM: FormField = FormField::date("from", "From", "Von");
const TO: FormField = FormField::date("to", "To", "Bis");
const STATEMENT: Form = Form::new(&[AS_OF, FROM, TO]);

fn title(lang: Lang) -> &'static str {
    lang.pick("Books", "Bücher")
}

/// How a person reads an account of the chart.
fn account_name(lang: Lang, account: &str) -> &str {
    match account {
        "receivables" => lang.pick("Receivables", "Forderungen"),
        "bank" => lang.pick("Bank", "Bank"),
        "input_tax" => lang.pick("Input tax", "Vorsteuer"),
        "payables" => lang.pick("Payables", "Verbindlichkeiten"),
        "output_tax" => lang.pick("Output tax", "Umsatzsteuer"),
        "revenue" => lang.pick("Revenue", "Erlöse"),
        "expenses" => lang.pick("Expenses", "Aufwendungen"),
        "equity" => lang.pick("Equity", "Eigenkapital"),
        other => other,
    }
}

/// The statement's flag: final, or preliminary while the books are open.
pub(super) fn flag(lang: Lang, is_final: bool) -> Markup {
    html! {
        p {
            @if is_final {
                strong.final { (lang.pick("Final", "Endgültig")) }
                " · " (lang.pick("the books are closed through its last day.", "die Bücher sind bis zu seinem letzten Tag abgeschlossen."))
            } @else {
                strong.preliminary { (lang.pick("Preliminary", "Vorläufig")) }
                " · " (lang.pick("the books are still open for this period; figures may change.", "die Bücher dieses Zeitraums sind noch offen; die Zahlen können sich ändern."))
            }
        }
    }
}

/// The links between the books' pages.
pub(super) fn links(lang: Lang) -> Markup {
    html! {
        nav.sub aria-label=(lang.pick("Statements", "Abschlüsse")) {
            ul {
                li { a href="/books" { (lang.pick("Closing", "Abschluss")) } }
                li { a href="/books/trial-balance" { (lang.pick("Trial balance", "Summen- und Saldenliste")) } }
                li { a href="/books/profit-and-loss" { (lang.pick("Profit and loss", "Gewinn und Verlust")) } }
                li { a href="/books/balance-sheet" { (lang.pick("Balance sheet", "Bilanz")) } }
                li { a href="/books/vat" { (lang.pick("VAT return", "Umsatzsteuer-Voranmeldung")) } }
                li { a href="/books/export" { (lang.pick("Export", "Export")) } }
            }
        }
    }
}

/// The overview page: where the books stand and the closing form.
fn overview(ctx: &Ctx, status: StatusCode, through: &str, problems: &Problems) -> Result<Answer> {
    let lang = ctx.lang;
    let closed = ledger::closed_through(ctx.conn, &ctx.session.tenant)?;
    let done = ctx.query.get("closed") == Some("1") && problems.list.is_empty();
    let content = html! {
        (links(lang))
        @if done {
            p.notice role="status" { (lang.pick("The books are closed.", "Die Bücher sind abgeschlossen.")) }
        }
        p {
            @match closed {
                Some(day) => {
                    (lang.pick("The books are closed through ", "Die Bücher sind abgeschlossen bis einschließlich "))
                    strong { (locale::date(lang, day)) } "."
                }
                None => { (lang.pick("No period is closed yet.", "Noch ist kein Zeitraum abgeschlossen.")) }
            }
        }
        @if may_act(ctx) {
            section aria-labelledby="close-heading" {
                h2 #close-heading { (lang.pick("Close a period", "Zeitraum abschließen")) }
                p { (lang.pick(
                    "Once closed, nothing dated on or before that day can be recorded, and closing never moves back.",
                    "Nach dem Abschluss kann nichts mehr mit einem Datum bis zu diesem Tag erfasst werden; ein Abschluss geht nie zurück.",
                )) }
                (CLOSE.summary(lang, problems))
                (post(ctx, "/books/close", CLOSE.fields(lang, &|_| through.to_string(), problems), lang.pick("Continue", "Weiter")))
            }
        }
    };
    Ok(screen_with(
        ctx,
        status,
        Screen::Books,
        title(lang),
        content,
    ))
}

/// GET /books
pub fn show(ctx: &Ctx) -> Result<Answer> {
    overview(ctx, StatusCode::OK, "", &Problems::default())
}

/// POST /books/close `{through}`: first the confirmation page naming the
/// day; with `confirmed` the books' close and its audit row.
pub fn close(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let through = ctx.form.sent("through").unwrap_or("").trim().to_string();
    let mut read = Reading::of(ctx);
    let day = read.take(clock::parse_date("through", &through));
    if let Some(day) = day.filter(|_| ctx.form.get("confirmed") != Some("yes")) {
        let content = html! {
            p {
                (lang.pick("Close the books through ", "Die Bücher abschließen bis einschließlich "))
                strong { (locale::date(lang, day)) } "?"
            }
            p.problem { (lang.pick(
                "This cannot be undone: afterwards nothing dated on or before that day can be recorded, and the statements through that day become final.",
                "Das lässt sich nicht rückgängig machen: Danach kann nichts mehr mit einem Datum bis zu diesem Tag erfasst werden, und die Abschlüsse bis zu diesem Tag werden endgültig.",
            )) }
            form method="post" action="/books/close" {
                (csrf(ctx))
                input type="hidden" name="through" value=(through);
                input type="hidden" name="confirmed" value="yes";
                button type="submit" { (lang.pick("Close the books", "Bücher abschließen")) }
            }
            p { a href="/books" { (lang.pick("Cancel", "Abbrechen")) } }
        };
        return Ok(screen(
            ctx,
            Screen::Books,
            lang.pick("Close the books?", "Bücher abschließen?"),
            content,
        ));
    }
    let closed = CLOSE.act(ctx, read.check(Ok(())), |tx, ()| {
        ledger::close(tx, tenant, &ctx.actor(), &through).map(|_| ())
    })?;
    match closed {
        Acted::Done(()) => Ok(see_other("/books?closed=1")),
        Acted::Refused(r) => overview(ctx, r.status, &through, &r.problems),
    }
}

/// A page of figures of the books (a statement, the VAT return): the form
/// of its query (`form`, with `fields` and their values) and, when the
/// query reads, its figures.
pub fn statement(
    ctx: &Ctx,
    form: &Form,
    page_title: &str,
    action: &str,
    fields: &[(&FormField, &str)],
    figures: Result<Markup>,
) -> Result<Answer> {
    let lang = ctx.lang;
    let (figures, problems) = queried(figures)?;
    let content = html! {
        (links(lang))
        (form.summary(lang, &problems))
        form.search method="get" action=(action) {
            @for (field, value) in fields {
                (field.render(lang, value, &problems))
            }
            button type="submit" { (lang.pick("Show", "Anzeigen")) }
        }
        @if let Some(figures) = figures { (figures) }
    };
    Ok(screen_with(
        ctx,
        problems.query_status(),
        Screen::Books,
        page_title,
        content,
    ))
}

/// GET /books/trial-balance?asOf=…
pub fn trial_balance(ctx: &Ctx) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let as_of = ctx.query.get("asOf").unwrap_or("");
    let figures = ledger::trial_balance(ctx.conn, tenant, Some(as_of)).and_then(|tb| {
        let is_final = ledger::is_final(ctx.conn, tenant, tb.as_of)?;
        Ok(html! {
            p { (lang.pick("At the end of ", "Zum Ende des ")) (locale::date(lang, tb.as_of)) }
            (flag(lang, is_final))
            (Table::new(&[
                th(lang.pick("Account", "Konto")), th_amount(lang.pick("Debit", "Soll")), th_amount(lang.pick("Credit", "Haben")),
            ])
            .read_caption(lang.pick("Debit and credit totals per account", "Soll- und Habensummen je Konto"))
            .with_foot(&tb.accounts, |row| html! {
                th scope="row" { (account_name(lang, row.account)) }
                td.amount { (locale::amount(lang, row.debit, &tb.currency)) }
                td.amount { (locale::amount(lang, row.credit, &tb.currency)) }
            }, html! {
                tfoot {
                    tr {
                        th scope="row" { (lang.pick("Total", "Summe")) }
                        td.amount { (locale::amount(lang, tb.total_debit, &tb.currency)) }
                        td.amount { (locale::amount(lang, tb.total_credit, &tb.currency)) }
                    }
                }
            }))
            @if !tb.balanced {
                p.problem role="alert" { (lang.pick("Debits and credits differ.", "Soll und Haben weichen voneinander ab.")) }
            }
        })
    });
    statement(
        ctx,
        &STATEMENT,
        lang.pick("Trial balance", "Summen- und Saldenliste"),
        "/books/trial-balance",
        &[(&AS_OF, as_of)],
        figures,
    )
}

fn amounts_table(
    lang: Lang,
    caption: &str,
    rows: &[AccountAmount],
    total: Option<(&str, &Money)>,
) -> Markup {
    html! {
        table {
            caption { (caption) }
            tbody {
                @for row in rows {
                    tr {
                        th scope="row" { (account_name(lang, row.account)) }
                        td.amount { (money(lang, &row.amount)) }
                    }
                }
            }
            @if let Some((name, sum)) = total {
                tfoot {
                    tr { th scope="row" { (name) } td.amount { (money(lang, sum)) } }
                }
            }
        }
    }
}

/// GET /books/profit-and-loss?from=…&to=…
pub fn profit_and_loss(ctx: &Ctx) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let from = ctx.query.get("from").unwrap_or("");
    let to = ctx.query.get("to").unwrap_or("");
    let figures = ledger::profit_and_loss(ctx.conn, tenant, Some(from), Some(to)).map(|pl| {
        html! {
            p { (locale::date(lang, pl.from)) " – " (locale::date(lang, pl.to)) }
            (flag(lang, pl.is_final))
            (amounts_table(lang, lang.pick("By account", "Nach Konten"), &pl.by_account, None))
            dl.particulars {
                div { dt { (lang.pick("Revenue", "Erlöse")) } dd { (money(lang, &pl.revenue)) } }
                div { dt { (lang.pick("Expenses", "Aufwendungen")) } dd { (money(lang, &pl.expenses)) } }
                div { dt { strong { (lang.pick("Result", "Ergebnis")) } } dd { strong { (money(lang, &pl.result)) } } }
            }
        }
    });
    statement(
        ctx,
        &STATEMENT,
        lang.pick("Profit and loss", "Gewinn und Verlust"),
        "/books/profit-and-loss",
        &[(&FROM, from), (&TO, to)],
        figures,
    )
}

/// GET /books/balance-sheet?asOf=…
pub fn balance_sheet(ctx: &Ctx) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let as_of = ctx.query.get("asOf").unwrap_or("");
    let figures = ledger::balance_sheet(ctx.conn, tenant, Some(as_of)).map(|bs| {
        html! {
            p { (lang.pick("At the end of ", "Zum Ende des ")) (locale::date(lang, bs.as_of)) }
            (flag(lang, bs.is_final))
            div.cards {
                div {
                    (amounts_table(lang, lang.pick("Assets", "Aktiva"), &bs.assets,
                        Some((lang.pick("Total assets", "Summe Aktiva"), &bs.total_assets))))
                }
                div {
                    (amounts_table(lang, lang.pick("Liabilities", "Verbindlichkeiten"), &bs.liabilities,
                        Some((lang.pick("Total liabilities", "Summe Verbindlichkeiten"), &bs.total_liabilities))))
                    dl.particulars {
                        div { dt { (lang.pick("Equity", "Eigenkapital")) } dd { (money(lang, &bs.equity)) } }
                        div { dt { (lang.pick("Result not yet carried to equity", "Noch nicht ins Eigenkapital übertragenes Ergebnis")) } dd { (money(lang, &bs.result)) } }
                    }
                }
            }
            @if !bs.balanced {
                p.problem role="alert" { (lang.pick("The sides differ.", "Die Seiten weichen voneinander ab.")) }
            }
        }
    });
    statement(
        ctx,
        &STATEMENT,
        lang.pick("Balance sheet", "Bilanz"),
        "/books/balance-sheet",
        &[(&AS_OF, as_of)],
        figures,
    )
}
