//! The books: where they stand (closed through which day), closing a
//! period (the `through` day, then a confirmation page, for it cannot be
//! undone), and the statements read from the ledger — the trial balance,
//! the profit and loss and the balance sheet, each marked final when the
//! books are closed through its last day and preliminary otherwise. The
//! same `books::ledger` functions serve `books close`, `books
//! trial-balance` and the agent tools. Closing records the person in the audit.

use hyper::StatusCode;
use maud::{html, Markup};

use super::page::{csrf, may_act, screen, screen_with, Field, Problems, Screen};
use super::{see_other, Ctx};
use crate::access::people::Capability;
use crate::books::audit;
use crate::books::ledger::{self, AccountAmount};
use crate::error::{Error, Result};
use crate::http::app::Answer;
use crate::rules::iso::Currency;
use crate::rules::locale::{self, Lang};
use crate::rules::money::Money;
use crate::store::clock;

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

fn label(lang: Lang, field: &str) -> String {
    match field {
        "through" => lang.pick(
            "Close the books through",
            "Bücher abschließen bis einschließlich",
        ),
        "asOf" => lang.pick("As of", "Stichtag"),
        "from" => lang.pick("From", "Von"),
        "to" => lang.pick("To", "Bis"),
        other => other,
    }
    .to_string()
}

/// The statement's flag: final, or preliminary while the books are open.
fn flag(lang: Lang, is_final: bool) -> Markup {
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
fn links(lang: Lang) -> Markup {
    html! {
        nav.sub aria-label=(lang.pick("Statements", "Abschlüsse")) {
            ul {
                li { a href="/books" { (lang.pick("Closing", "Abschluss")) } }
                li { a href="/books/trial-balance" { (lang.pick("Trial balance", "Summen- und Saldenliste")) } }
                li { a href="/books/profit-and-loss" { (lang.pick("Profit and loss", "Gewinn und Verlust")) } }
                li { a href="/books/balance-sheet" { (lang.pick("Balance sheet", "Bilanz")) } }
            }
        }
    }
}

fn date_field<'a>(lang: Lang, name: &'a str, value: &'a str, required: bool) -> Field<'a> {
    Field {
        name,
        label: label(lang, name),
        value,
        required,
        max: 10,
        kind: "date",
        autocomplete: None,
        hint: None,
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
                (problems.summary(lang, &|f| label(lang, f)))
                form.stack method="post" action="/books/close" novalidate {
                    (csrf(ctx))
                    (date_field(lang, "through", through, true).render(lang, problems))
                    button type="submit" { (lang.pick("Continue", "Weiter")) }
                }
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
    let refused = |e: Error| match e {
        Error::Invalid(_) | Error::Refused(_) => {
            // A refusal about the whole (closing cannot move back) belongs to `through`.
            let list = e
                .violations()
                .iter()
                .map(|v| match v.field {
                    None => crate::error::Violation::at("through", v.message.clone()),
                    Some(_) => v.clone(),
                })
                .collect();
            overview(ctx, e.status(), &through, &Problems { list })
        }
        e => Err(e),
    };
    let day = match clock::parse_date("through", &through) {
        Ok(day) => day,
        Err(e) => return refused(e),
    };
    if ctx.form.get("confirmed") != Some("yes") {
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
    let closed = ctx.app.db.write(|tx| {
        ledger::close(tx, tenant, &through)?;
        audit::record(tx, tenant, &ctx.actor(), "books.closed", &through)
    });
    match closed {
        Ok(()) => Ok(see_other("/books?closed=1")),
        Err(e) => refused(e),
    }
}

/// A statement's page: its date form and, when the dates read, its figures.
fn statement(
    ctx: &Ctx,
    page_title: &str,
    action: &str,
    fields: &[(&str, &str)],
    figures: Result<Markup>,
) -> Result<Answer> {
    let lang = ctx.lang;
    let (figures, problems) = match figures {
        Ok(m) => (Some(m), Problems::default()),
        Err(e @ Error::Invalid(_)) => (None, Problems::of(&e)),
        Err(e) => return Err(e),
    };
    let content = html! {
        (links(lang))
        (problems.summary(lang, &|f| label(lang, f)))
        form.search method="get" action=(action) {
            @for (name, value) in fields {
                (date_field(lang, name, value, false).render(lang, &problems))
            }
            button type="submit" { (lang.pick("Show", "Anzeigen")) }
        }
        @if let Some(figures) = figures { (figures) }
    };
    let status = if problems.list.is_empty() {
        StatusCode::OK
    } else {
        StatusCode::BAD_REQUEST
    };
    Ok(screen_with(ctx, status, Screen::Books, page_title, content))
}

fn amount(lang: Lang, minor: i64, currency: &Currency) -> String {
    locale::amount(lang, minor, currency)
}

fn money(lang: Lang, m: &Money) -> String {
    locale::amount(lang, m.minor, &m.currency)
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
            table {
                caption.visually-hidden { (lang.pick("Debit and credit totals per account", "Soll- und Habensummen je Konto")) }
                thead {
                    tr {
                        th scope="col" { (lang.pick("Account", "Konto")) }
                        th.amount scope="col" { (lang.pick("Debit", "Soll")) }
                        th.amount scope="col" { (lang.pick("Credit", "Haben")) }
                    }
                }
                tbody {
                    @for row in &tb.accounts {
                        tr {
                            th scope="row" { (account_name(lang, row.account)) }
                            td.amount { (amount(lang, row.debit, &tb.currency)) }
                            td.amount { (amount(lang, row.credit, &tb.currency)) }
                        }
                    }
                }
                tfoot {
                    tr {
                        th scope="row" { (lang.pick("Total", "Summe")) }
                        td.amount { (amount(lang, tb.total_debit, &tb.currency)) }
                        td.amount { (amount(lang, tb.total_credit, &tb.currency)) }
                    }
                }
            }
            @if !tb.balanced {
                p.problem role="alert" { (lang.pick("Debits and credits differ.", "Soll und Haben weichen voneinander ab.")) }
            }
        })
    });
    statement(
        ctx,
        lang.pick("Trial balance", "Summen- und Saldenliste"),
        "/books/trial-balance",
        &[("asOf", as_of)],
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
        lang.pick("Profit and loss", "Gewinn und Verlust"),
        "/books/profit-and-loss",
        &[("from", from), ("to", to)],
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
        lang.pick("Balance sheet", "Bilanz"),
        "/books/balance-sheet",
        &[("asOf", as_of)],
        figures,
    )
}
