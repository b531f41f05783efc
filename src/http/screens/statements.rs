//! The books: where they stand (closed through which day), closing a
//! period (the `through` day, then a confirmation page, for it cannot be
//! undone) with the year's depreciation of the fixed assets before it (its
//! form, shared with the register's page), and the statements read from the ledger — the trial balance,
//! the profit and loss and the balance sheet, each marked final when the
//! books are closed through its last day and preliminary otherwise, the
//! profit and loss and the balance sheet by their HGB lines, each line
//! opening to its accounts, the previous year beside them when asked. The
//! same `books::statements` functions serve `books trial-balance`,
//! `books profit-and-loss`, `books balance-sheet` and the agent tools;
//! closing records the person in the audit. Its confirmation lists what
//! is still open through the day (bank lines not settled, invoice drafts,
//! bills waiting).

use hyper::StatusCode;
use maud::{html, Markup};

use super::context::Ctx;
use super::form::{post, queried, Acted, Form, FormField, Problems, Reading};
use super::frame::{
    csrf, may_act, money, screen, screen_with, see_other, th, th_amount, th_number, Noun, Screen,
    Table,
};
use crate::access::people::Capability;
use crate::books::account_sheet;
use crate::books::attention::{self, OpenList, StillOpen};
use crate::books::ledger;
use crate::books::statements::{self, StatementLine};
use crate::error::{Error, Result};
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

/// The fiscal year a page or an act of the fixed assets is of.
pub(super) const YEAR: FormField = FormField::text("year", "Fiscal year", "Wirtschaftsjahr", 4)
    .hint(
        "The calendar year it starts in",
        "Das Kalenderjahr, in dem es beginnt",
    );

fn title(lang: Lang) -> &'static str {
    lang.pick("Books", "Bücher")
}

/// The form that posts a fiscal year's depreciation of the fixed assets
/// (`/books/assets/depreciate`): at closing, the year to be typed; on the
/// register's page, of the year it shows (`fixed`).
pub(super) fn depreciation_form(ctx: &Ctx, year: &str, fixed: bool, problems: &Problems) -> Markup {
    let lang = ctx.lang;
    let inputs = if fixed {
        html! { input type="hidden" name="year" value=(year); }
    } else {
        YEAR.render(lang, year, problems)
    };
    let button = if fixed {
        format!(
            "{} {year}",
            lang.pick("Post the depreciation of", "Abschreibungen buchen für")
        )
    } else {
        lang.pick("Post depreciation", "Abschreibungen buchen")
            .to_string()
    };
    html! {
        section aria-labelledby="depreciate-heading" {
            h2 #depreciate-heading { (lang.pick("Post the year's depreciation", "Abschreibungen des Jahres buchen")) }
            p { (lang.pick(
                "Once per fixed asset and year, on the year's last day; posting again adds only what was recorded since.",
                "Einmal je Anlagegut und Jahr, zum letzten Tag des Jahres; erneutes Buchen ergänzt nur, was seither erfasst wurde.",
            )) }
            (post(ctx, "/books/assets/depreciate", inputs, &button))
        }
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
                li { a href="/books/accounts" { (lang.pick("Chart of accounts", "Kontenplan")) } }
                li { a href="/books/assets" { (lang.pick("Fixed assets", "Anlagevermögen")) } }
                li { a href="/books/vat" { (lang.pick("VAT return", "Umsatzsteuer-Voranmeldung")) } }
                li { a href="/books/euer" { "EÜR" } }
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
            (depreciation_form(ctx, &crate::books::assets::this_year(ctx.conn, &ctx.session.tenant)?.to_string(), false, &Problems::default()))
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
        let open = attention::still_open(ctx.conn, tenant, day)?;
        let content = html! {
            p {
                (lang.pick("Close the books through ", "Die Bücher abschließen bis einschließlich "))
                strong { (locale::date(lang, day)) } "?"
            }
            (still_open(lang, &open))
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

/// What is still open on the closing's confirmation: each kind with how
/// many there are, the oldest of them linked, and the way to all of them.
fn still_open(lang: Lang, open: &StillOpen) -> Markup {
    let kinds: [(&OpenList, Noun, &str, &str); 4] = [
        (
            &open.bank_lines,
            Noun {
                en: ("bank line not settled", "bank lines not settled"),
                de: (
                    "nicht zugeordnete Bankbuchung",
                    "nicht zugeordnete Bankbuchungen",
                ),
            },
            "/bank/lines/",
            "/bank?state=unmatched",
        ),
        (
            &open.drafts,
            Noun {
                en: ("invoice draft not issued", "invoice drafts not issued"),
                de: (
                    "nicht ausgestellter Rechnungsentwurf",
                    "nicht ausgestellte Rechnungsentwürfe",
                ),
            },
            "/drafts/",
            "/drafts",
        ),
        (
            &open.received_bills,
            Noun {
                en: (
                    "received e-invoice not booked",
                    "received e-invoices not booked",
                ),
                de: (
                    "nicht gebuchte empfangene E-Rechnung",
                    "nicht gebuchte empfangene E-Rechnungen",
                ),
            },
            "/bills/received/",
            "/bills?state=received",
        ),
        (
            &open.receipts,
            Noun {
                en: ("receipt not typed as a bill", "receipts not typed as bills"),
                de: (
                    "Beleg ohne erfasste Rechnung",
                    "Belege ohne erfasste Rechnung",
                ),
            },
            "/bills/receipts/",
            "/bills",
        ),
    ];
    html! {
        section #still-open aria-labelledby="still-open-heading" {
            h2 #still-open-heading { (lang.pick("Still open", "Noch offen")) }
            @if open.is_empty() {
                p { (lang.pick(
                    "Nothing: every bank line through that day is settled, no invoice draft is open and no bill waits.",
                    "Nichts: Jede Bankbuchung bis zu diesem Tag ist zugeordnet, kein Rechnungsentwurf ist offen und keine Rechnung wartet.",
                )) }
            } @else {
                p { (lang.pick(
                    "Closing does not wait for these; once closed, nothing dated on or before that day can be recorded for them.",
                    "Der Abschluss wartet nicht darauf; danach kann für sie nichts mehr mit einem Datum bis zu diesem Tag erfasst werden.",
                )) }
                @for (list, noun, item_href, all_href) in kinds {
                    @if list.count > 0 {
                        h3 { (noun.count(lang, list.count)) }
                        ul {
                            @for item in &list.items {
                                li {
                                    a href=(format!("{item_href}{}", crate::http::query::percent_encode(&item.id))) { (item.name) }
                                    @if let Some(day) = item.date { " · " (locale::date(lang, day)) }
                                    @if let Some(amount) = &item.amount { " · " (money(lang, amount)) }
                                }
                            }
                        }
                        @if list.count > list.items.len() as i64 {
                            p { a href=(all_href) { (lang.pick("All of them", "Alle")) } }
                        }
                    }
                }
            }
        }
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

/// A statement's link to itself with or without the previous year beside
/// it (`compare=1`), keeping the days asked.
fn compare_link(ctx: &Ctx, action: &str, days: &[(&str, &str)], compare: bool) -> Markup {
    let lang = ctx.lang;
    let mut query: Vec<String> = days
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| format!("{k}={}", crate::http::query::percent_encode(v)))
        .collect();
    if !compare {
        query.push("compare=1".to_string());
    }
    let href = format!("{action}?{}", query.join("&"));
    html! {
        p {
            a href=(href) {
                @if compare {
                    (lang.pick("Without the previous year", "Ohne Vorjahr"))
                } @else {
                    (lang.pick("Beside the previous year", "Mit Vorjahresvergleich"))
                }
            }
        }
    }
}

/// The side of a balance: S (Soll, debit) or H (Haben, credit).
fn side(lang: Lang, side: Option<&str>) -> &'static str {
    match side {
        Some("debit") => lang.pick("Dr", "S"),
        Some("credit") => lang.pick("Cr", "H"),
        _ => "",
    }
}

/// GET /books/trial-balance?asOf=…&from=…
pub fn trial_balance(ctx: &Ctx) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let as_of = ctx.query.get("asOf").unwrap_or("");
    let from = ctx.query.get("from").unwrap_or("");
    let figures =
        statements::trial_balance(ctx.conn, tenant, Some(as_of), Some(from)).and_then(|tb| {
            let is_final = ledger::is_final(ctx.conn, tenant, tb.as_of)?;
            let a = |minor: i64| locale::amount(lang, minor, &tb.currency);
            Ok(html! {
                p {
                    (lang.pick("Period ", "Zeitraum ")) (locale::date(lang, tb.from)) " – " (locale::date(lang, tb.as_of))
                    " · " (lang.pick("fiscal year from ", "Wirtschaftsjahr ab ")) (locale::date(lang, tb.year_from))
                    " · " (tb.chart.as_str().to_uppercase())
                }
                (flag(lang, is_final))
                (Table::new(&[
                    th_number(lang.pick("Account", "Konto")),
                    th(lang.pick("Name", "Bezeichnung")),
                    th_amount(lang.pick("Opening balance", "EB-Wert")),
                    th_amount(lang.pick("Period debit", "Soll Zeitraum")),
                    th_amount(lang.pick("Period credit", "Haben Zeitraum")),
                    th_amount(lang.pick("Year debit", "Soll kumuliert")),
                    th_amount(lang.pick("Year credit", "Haben kumuliert")),
                    th_amount(lang.pick("Balance", "Saldo")),
                    th(lang.pick("Side", "S/H")),
                ])
                .read_caption(lang.pick("Totals and balances per account", "Summen und Salden je Konto"))
                .id("trial-balance")
                .with_foot(&tb.accounts, |row| html! {
                    td.num { (format!("{:04}", row.number)) }
                    th scope="row" { a href=(account_link(&row.account)) { (named(lang, &row.name, &row.name_en)) } }
                    td.amount { (a(row.opening.abs())) " " (side(lang, match row.opening { 0 => None, o if o > 0 => Some("debit"), _ => Some("credit") })) }
                    td.amount { (a(row.period_debit)) }
                    td.amount { (a(row.period_credit)) }
                    td.amount { (a(row.year_debit)) }
                    td.amount { (a(row.year_credit)) }
                    td.amount { (a(row.balance)) }
                    td { (side(lang, row.side)) }
                }, html! {
                    tfoot {
                        tr {
                            td {}
                            th scope="row" { (lang.pick("Total", "Summe")) }
                            td {}
                            td.amount { (a(tb.accounts.iter().map(|r| r.period_debit).sum())) }
                            td.amount { (a(tb.accounts.iter().map(|r| r.period_credit).sum())) }
                            td.amount { (a(tb.accounts.iter().map(|r| r.year_debit).sum())) }
                            td.amount { (a(tb.accounts.iter().map(|r| r.year_credit).sum())) }
                            td {}
                            td {}
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
        &[(&FROM, from), (&AS_OF, as_of)],
        figures,
    )
}

/// A name in the page's language.
fn named<'x>(lang: Lang, de: &'x str, en: &'x str) -> &'x str {
    if lang == Lang::En {
        en
    } else {
        de
    }
}

/// A statement's lines, each with its accounts below it, and the previous
/// year's column when compared.
fn lines_table(
    lang: Lang,
    caption: &str,
    lines: &[StatementLine],
    compared: bool,
    total: Option<(&str, &Money, Option<&Money>)>,
) -> Markup {
    html! {
        table {
            caption { (caption) }
            thead {
                tr {
                    th scope="col" { (lang.pick("Line", "Posten")) }
                    th.amount scope="col" { (lang.pick("Amount", "Betrag")) }
                    @if compared { th.amount scope="col" { (lang.pick("Previous year", "Vorjahr")) } }
                }
            }
            @for line in lines {
                tbody {
                    tr.line {
                        th scope="row" { strong { (line.code) " " (named(lang, line.name, line.name_en)) } }
                        td.amount { strong { (money(lang, &line.amount)) } }
                        @if compared { td.amount { @if let Some(p) = &line.previous { (money(lang, p)) } } }
                    }
                    @for acc in &line.accounts {
                        tr.account {
                            th scope="row" { a href=(account_link(&acc.account)) { span.num { (format!("{:04}", acc.number)) } " " (named(lang, &acc.name, &acc.name_en)) } }
                            td.amount { (money(lang, &acc.amount)) }
                            @if compared { td.amount { @if let Some(p) = &acc.previous { (money(lang, p)) } } }
                        }
                    }
                }
            }
            @if let Some((label, sum, previous)) = total {
                tfoot {
                    tr {
                        th scope="row" { (label) }
                        td.amount { strong { (money(lang, sum)) } }
                        @if compared { td.amount { @if let Some(p) = previous { (money(lang, p)) } } }
                    }
                }
            }
        }
    }
}

/// GET /books/profit-and-loss?from=…&to=…&compare=1
pub fn profit_and_loss(ctx: &Ctx) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let from = ctx.query.get("from").unwrap_or("");
    let to = ctx.query.get("to").unwrap_or("");
    let compare = ctx.query.get("compare") == Some("1");
    let figures =
        statements::profit_and_loss(ctx.conn, tenant, Some(from), Some(to), compare).map(|pl| {
            let previous = pl.previous.as_ref().map(|p| &p.result);
            html! {
                p {
                    (locale::date(lang, pl.from)) " – " (locale::date(lang, pl.to))
                    @if let Some(p) = &pl.previous {
                        " · " (lang.pick("previous year ", "Vorjahr ")) (locale::date(lang, p.from)) " – " (locale::date(lang, p.to))
                    }
                    " · " (lang.pick("§ 275 (2) HGB, nature of expense method", "§ 275 Abs. 2 HGB, Gesamtkostenverfahren"))
                }
                (flag(lang, pl.is_final))
                (lines_table(lang, lang.pick("Profit and loss by line", "Gewinn- und Verlustrechnung nach Posten"), &pl.lines, compare,
                    Some((lang.pick("Net income or loss for the year", "Jahresüberschuss/Jahresfehlbetrag"), &pl.result, previous))))
                (compare_link(ctx, "/books/profit-and-loss", &[("from", from), ("to", to)], compare))
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

/// GET /books/balance-sheet?asOf=…&compare=1
pub fn balance_sheet(ctx: &Ctx) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let as_of = ctx.query.get("asOf").unwrap_or("");
    let compare = ctx.query.get("compare") == Some("1");
    let figures = statements::balance_sheet(ctx.conn, tenant, Some(as_of), compare).map(|bs| {
        html! {
            p {
                (lang.pick("At the end of ", "Zum Ende des ")) (locale::date(lang, bs.as_of))
                @if let Some(p) = bs.previous_as_of {
                    " · " (lang.pick("previous year ", "Vorjahr ")) (locale::date(lang, p))
                }
                " · " (lang.pick("§ 266 HGB, short form", "§ 266 HGB, verkürzte Form"))
            }
            (flag(lang, bs.is_final))
            div.cards {
                div {
                    (lines_table(lang, lang.pick("Assets", "Aktiva"), &bs.assets, compare,
                        Some((lang.pick("Total assets", "Summe Aktiva"), &bs.total_assets, None))))
                }
                div {
                    (lines_table(lang, lang.pick("Equity and liabilities", "Passiva"), &bs.equity_and_liabilities, compare,
                        Some((lang.pick("Total equity and liabilities", "Summe Passiva"), &bs.total_equity_and_liabilities, None))))
                }
            }
            @if !bs.balanced {
                p.problem role="alert" { (lang.pick("The sides differ.", "Die Seiten weichen voneinander ab.")) }
            }
            (compare_link(ctx, "/books/balance-sheet", &[("asOf", as_of)], compare))
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

/// GET /books/accounts/{key}?from=…&to=…: one account's postings over a
/// period (*Kontoblatt*), each with its document and the running balance.
pub fn account_sheet(ctx: &Ctx, key: &str) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let from = ctx.query.get("from").unwrap_or("");
    let to = ctx.query.get("to").unwrap_or("");
    let found = match account_sheet::sheet(ctx.conn, tenant, key, Some(from), Some(to)) {
        // An account not in the chart is a page not found, not a query to fix.
        Err(e @ Error::NotFound(_)) => return Err(e),
        found => found,
    };
    let title = match &found {
        Ok(s) => format!("{:04} {}", s.number, named(lang, &s.name, &s.name_en)),
        Err(_) => lang.pick("Account", "Konto").to_string(),
    };
    let figures = found.map(|s| {
        let a = |minor: i64| locale::amount(lang, minor, &s.currency);
        let side_of = |v: i64| side(lang, match v { 0 => None, v if v > 0 => Some("debit"), _ => Some("credit") });
        html! {
            p { (locale::date(lang, s.from)) " – " (locale::date(lang, s.to)) }
            (Table::new(&[
                th(lang.pick("Date", "Datum")), th(lang.pick("Document", "Beleg")), th(lang.pick("Text", "Buchungstext")),
                th_amount(lang.pick("Debit", "Soll")), th_amount(lang.pick("Credit", "Haben")),
                th_amount(lang.pick("Balance", "Saldo")), th(lang.pick("Side", "S/H")),
            ])
            .read_caption(lang.pick("The account's postings, in date order", "Die Buchungen des Kontos, nach Datum"))
            .id("postings")
            .with_foot(&s.postings, |p| html! {
                td { (locale::date(lang, p.date)) }
                td { (p.document) }
                td { (p.text) }
                td.amount { @if p.debit != 0 { (a(p.debit)) } }
                td.amount { @if p.credit != 0 { (a(p.credit)) } }
                td.amount { (a(p.balance.abs())) }
                td { (side_of(p.balance)) }
            }, html! {
                tfoot {
                    tr {
                        th scope="row" colspan="3" { (lang.pick("Opening balance", "Anfangssaldo")) }
                        td {} td {}
                        td.amount { (a(s.opening.abs())) }
                        td { (side_of(s.opening)) }
                    }
                    tr {
                        th scope="row" colspan="3" { (lang.pick("Closing balance", "Endsaldo")) }
                        td {} td {}
                        td.amount { (a(s.closing.abs())) }
                        td { (side_of(s.closing)) }
                    }
                }
            }))
        }
    });
    statement(
        ctx,
        &STATEMENT,
        &title,
        &format!(
            "/books/accounts/{}",
            crate::http::query::percent_encode(key)
        ),
        &[(&FROM, from), (&TO, to)],
        figures,
    )
}

/// The link of an account to its postings.
pub(super) fn account_link(key: &str) -> String {
    format!(
        "/books/accounts/{}",
        crate::http::query::percent_encode(key)
    )
}
