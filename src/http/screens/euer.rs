//! Books → EÜR: the cash-basis profit statement of a fiscal year on the
//! lines of its Anlage EÜR (line, Kennzahl, label, amount), the sums and
//! the profit, final or preliminary (and through which day the books must
//! be closed for it to be final), each line opening to the payments behind
//! it with a link to its document, the money on no line, and its PDF to
//! hand over (`/books/euer/pdf?year=…`). A year refused (a form kontor
//! does not know, a company that draws up a balance sheet) shows the
//! books' sentence on the page. The same `books::euer` functions serve
//! `kontor books euer`.

use hyper::StatusCode;
use maud::{html, Markup};

use super::context::Ctx;
use super::form::{Form, Problems};
use super::frame::{invoice_href, own_pdf, screen_with, th, th_amount, th_number, Screen, Table};
use super::statements::{flag, links, YEAR};
use crate::books::euer::{self, Figure, Posting, Statement};
use crate::error::said::Input;
use crate::error::{Error, Result};
use crate::http::app::Answer;
use crate::http::query::percent_encode;
use crate::rules::euer::Side;
use crate::rules::locale::{self, Lang};

/// The statement's query: its fiscal year.
const EUER: Form = Form::new(&[YEAR]).whole_at("year");

/// The most payments a line lists on the page; the PDF (up to its own
/// bound) and the console list them all.
const LISTED: usize = 1_000;

fn title(lang: Lang) -> &'static str {
    lang.pick(
        "Cash-basis profit statement (EÜR)",
        "Einnahmenüberschussrechnung (EÜR)",
    )
}

/// The year the query names (`year`), else the current fiscal year's.
fn year_of(ctx: &Ctx) -> Result<(String, std::result::Result<i32, Error>)> {
    let typed = ctx.query.get("year").map(str::trim).unwrap_or("");
    if typed.is_empty() {
        let year = crate::books::assets::this_year(ctx.conn, &ctx.session.tenant)?;
        return Ok((year.to_string(), Ok(year)));
    }
    let year = typed.parse::<i32>().map_err(|_| {
        Error::invalid(
            "year",
            Input::NotYear {
                got: typed.to_string(),
            },
        )
    });
    Ok((typed.to_string(), year))
}

/// Where a posting's document is shown: an invoice's page, a bill's, a
/// bank line's, an asset's.
fn href(document: &str) -> String {
    let id = percent_encode(document);
    if document.starts_with("pur_") {
        format!("/bills/{id}")
    } else if document.starts_with("bln_") {
        format!("/bank/lines/{id}")
    } else if document.starts_with("ast_") {
        format!("/books/assets/{id}")
    } else {
        invoice_href(document, "")
    }
}

fn postings_table(lang: Lang, caption: &str, postings: &[Posting]) -> Markup {
    let headings = [
        th(lang.pick("Date", "Datum")),
        th(lang.pick("Document", "Beleg")),
        th_amount(lang.pick("Amount", "Betrag")),
    ];
    html! {
        (Table::new(&headings).read_caption(caption).rows(postings.iter().take(LISTED), |p| html! {
            td { (locale::date(lang, p.date)) }
            td { a href=(href(&p.document)) { code { (&*p.document) } } }
            td.amount { (locale::number(lang, p.amount, 2)) }
        }))
        @if postings.len() > LISTED {
            p.hint { (match lang {
                Lang::De => format!("… und {} weitere; alle stehen im PDF (bis zu seiner Grenze) und bei kontor books euer.", postings.len() - LISTED),
                Lang::En => format!("… and {} more; the PDF (up to its bound) and kontor books euer list them all.", postings.len() - LISTED),
            }) }
        }
    }
}

fn line_label(lang: Lang, f: &Figure) -> &'static str {
    f.kz.name(lang == Lang::En)
}

/// The statement's figures.
fn figures(lang: Lang, s: &Statement) -> Markup {
    let headings = [
        th_number(lang.pick("Line", "Zeile")),
        th_number("Kz"),
        th(lang.pick("Figure", "Bezeichnung")),
        th_amount(lang.pick("Amount", "Betrag")),
    ];
    let profit_label = if s.profit < 0 {
        lang.pick("Loss", "Verlust")
    } else {
        lang.pick("Profit", "Gewinn")
    };
    let pdf = format!("/books/euer/pdf?year={}", s.year);
    html! {
        p {
            (locale::date(lang, s.from)) " – " (locale::date(lang, s.to))
            " · " (lang.pick("§ 4 (3) EStG, on the lines of the Anlage EÜR ", "§ 4 Abs. 3 EStG, auf den Zeilen der Anlage EÜR ")) (s.form.year)
            " · " a href=(pdf) { (lang.pick("PDF to hand over", "PDF zum Weitergeben")) }
        }
        (flag(lang, s.is_final))
        @if !s.is_final && s.final_through != s.to {
            p.hint { (match lang {
                Lang::De => format!("Endgültig, wenn die Bücher bis einschließlich {} abgeschlossen sind: bis dahin gezahlte Umsatzsteuer-Vorauszahlungen zählen noch zu {} (§ 11 Abs. 1 Satz 2 EStG).", locale::date(lang, s.final_through), s.year),
                Lang::En => format!("Final once the books are closed through {}: a VAT prepayment paid by then still counts to {} (§ 11 (1) sentence 2 EStG).", locale::date(lang, s.final_through), s.year),
            }) }
        }
        (Table::new(&headings)
            .caption(lang.pick("The lines of the Anlage EÜR", "Die Zeilen der Anlage EÜR"))
            .id("euer-lines")
            .with_foot(&s.figures, |f| {
                let sum = matches!(f.kz.side, Side::IncomeSum | Side::ExpenseSum);
                html! {
                    td.num { @if sum { strong { (f.key) } } @else { (f.key) } }
                    td.num { (f.kz.kz) }
                    td { @if sum { strong { (line_label(lang, f)) } } @else { (line_label(lang, f)) } }
                    td.amount { @if sum { strong { (locale::number(lang, f.amount, 2)) } } @else { (locale::number(lang, f.amount, 2)) } }
                }
            }, html! {
                tfoot {
                    tr {
                        td {}
                        td {}
                        th scope="row" { (profit_label) " " (lang.pick("(total income less total expenses)", "(Summe Betriebseinnahmen abzüglich Summe Betriebsausgaben)")) }
                        td.amount { strong { (locale::number(lang, s.profit, 2)) } }
                    }
                }
            }))
        section aria-labelledby="behind-heading" {
            h2 #behind-heading { (lang.pick("The payments behind the lines", "Die Zahlungen hinter den Zeilen")) }
            @if s.figures.iter().all(|f| f.postings.is_empty()) {
                p { (lang.pick("No money moved in this year.", "In diesem Jahr floss kein Geld.")) }
            }
            @for f in s.figures.iter().filter(|f| !f.postings.is_empty()) {
                details {
                    summary {
                        (lang.pick("Line ", "Zeile ")) (f.key) " · " (line_label(lang, f))
                        " (" (f.postings.len()) ")"
                    }
                    (postings_table(lang, line_label(lang, f), &f.postings))
                }
            }
        }
        @if !s.unassigned.is_empty() {
            section aria-labelledby="unassigned-heading" {
                h2 #unassigned-heading { (lang.pick("Money on no line", "Geld auf keiner Zeile")) }
                p { (lang.pick(
                    "Bank lines booked to “other” or kept as a customer's credit, the assets that took such money up, and costs that are no business expense (trade tax): money in positive, money out negative.",
                    "Bankumsätze unter „Sonstiges“ oder als Guthaben eines Kunden, die Anlagegüter, die solches Geld aufnahmen, und Kosten, die keine Betriebsausgabe sind (Gewerbesteuer): Eingänge positiv, Ausgänge negativ.",
                )) }
                (postings_table(lang, lang.pick("Money on no line", "Geld auf keiner Zeile"), &s.unassigned))
            }
        }
        p.hint { (lang.pick(
            "kontor fills the figures it can read from the books; the form's other lines (private use, the home office, allowances) are the taxpayer's to add. The line numbers follow public transcriptions of the form; compare them with the form before filing.",
            "kontor füllt die Zahlen, die es aus den Büchern lesen kann; die übrigen Zeilen des Vordrucks (Entnahmen, Arbeitszimmer, Pauschalen) ergänzt der Steuerpflichtige. Die Zeilennummern folgen öffentlichen Abschriften des Vordrucks; vor der Übermittlung mit dem Vordruck vergleichen.",
        )) }
    }
}

/// GET /books/euer?year=2026: the statement of a fiscal year (default:
/// the current one).
pub fn show(ctx: &Ctx) -> Result<Answer> {
    let lang = ctx.lang;
    let (typed, year) = year_of(ctx)?;
    let found = year.and_then(|y| euer::statement(ctx.conn, &ctx.session.tenant, y));
    let (shown, problems, status) = match found {
        Ok(s) => (Some(figures(lang, &s)), Problems::default(), StatusCode::OK),
        Err(e @ Error::Invalid(_)) => (None, Problems::of(&e), StatusCode::BAD_REQUEST),
        Err(e @ Error::Refused(_)) => (None, Problems::of(&e), StatusCode::CONFLICT),
        Err(e) => return Err(e),
    };
    let content = html! {
        (links(lang))
        (EUER.summary(lang, &problems))
        form.search method="get" action="/books/euer" {
            (YEAR.render(lang, &typed, &problems))
            button type="submit" { (lang.pick("Show", "Anzeigen")) }
        }
        @if let Some(shown) = shown { (shown) }
    };
    Ok(screen_with(
        ctx,
        status,
        Screen::Books,
        title(lang),
        content,
    ))
}

/// GET /books/euer/pdf?year=2026: the statement as a PDF to hand over
/// (`EUER_2026.pdf`, `…_vorlaeufig.pdf` while preliminary); a refused
/// year is the failure page with the books' sentence.
pub fn pdf(ctx: &Ctx) -> Result<Answer> {
    let (_, year) = year_of(ctx)?;
    let tenant = &ctx.session.tenant;
    let s = euer::statement(ctx.conn, tenant, year?)?;
    let bytes = euer::pdf(ctx.conn, tenant, &s)?;
    let name = if s.is_final {
        format!("EUER_{}.pdf", s.year)
    } else {
        format!("EUER_{}_vorlaeufig.pdf", s.year)
    };
    Ok(own_pdf(bytes, &name))
}
