//! The dashboard: receivables and payables (outstanding, due, overdue, open
//! documents) from the outstanding report, and the overdue invoices from the
//! receivables list, both as the API and the agent tools read them.

use maud::{html, Markup};

use super::page::{screen, Screen};
use super::Ctx;
use crate::books::report::{self, Figures, Side};
use crate::error::Result;
use crate::http::pipeline::Answer;
use crate::rules::locale::{self, Lang};

/// The most overdue invoices listed (the oldest due first).
const OVERDUE_SHOWN: i64 = 20;

fn figures(lang: Lang, caption: &str, f: &Figures) -> Markup {
    let money = |m: &crate::rules::money::Money| locale::amount(lang, m.minor, &m.currency);
    html! {
        section.figures aria-label=(caption) {
            h2 { (caption) }
            dl {
                div { dt { (lang.pick("Outstanding", "Offen")) } dd { (money(&f.outstanding)) } }
                div { dt { (lang.pick("Due", "Fällig")) } dd { (money(&f.due)) } }
                div.overdue[f.overdue.minor != 0] { dt { (lang.pick("Overdue", "Überfällig")) } dd { (money(&f.overdue)) } }
                div { dt { (lang.pick("Open documents", "Offene Belege")) } dd { (f.count) } }
            }
        }
    }
}

/// GET /dashboard
pub fn show(ctx: &Ctx) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let report = report::outstanding(ctx.conn, tenant, None)?;
    let open = report::open_documents(ctx.conn, tenant, Side::Receivable, None, OVERDUE_SHOWN, 0)?;
    let overdue: Vec<_> = open.items.iter().filter(|d| d.overdue).collect();
    let content = html! {
        p {
            (lang.pick("As of ", "Stand: "))
            (locale::date(lang, report.as_of))
            @if !report.books_open {
                " · " (lang.pick("the books of this period are closed", "die Bücher dieses Zeitraums sind abgeschlossen"))
            }
        }
        div.cards {
            (figures(lang, lang.pick("Receivables", "Forderungen"), &report.receivables))
            (figures(lang, lang.pick("Payables", "Verbindlichkeiten"), &report.payables))
        }
        section aria-labelledby="overdue-heading" {
            h2 #overdue-heading { (lang.pick("Overdue invoices", "Überfällige Rechnungen")) }
            @if overdue.is_empty() {
                p { (lang.pick("No invoice is overdue.", "Keine Rechnung ist überfällig.")) }
            } @else {
                table {
                    caption.visually-hidden { (lang.pick("Overdue invoices, the longest overdue first", "Überfällige Rechnungen, die am längsten überfällige zuerst")) }
                    thead {
                        tr {
                            th scope="col" { (lang.pick("Number", "Nummer")) }
                            th scope="col" { (lang.pick("Customer", "Kunde")) }
                            th scope="col" { (lang.pick("Issued", "Ausgestellt")) }
                            th scope="col" { (lang.pick("Due", "Fällig")) }
                            th.amount scope="col" { (lang.pick("Outstanding", "Offen")) }
                        }
                    }
                    tbody {
                        @for d in &overdue {
                            tr {
                                td { (d.number) }
                                td { (d.partner) }
                                td { (locale::date(lang, d.date)) }
                                td { (locale::date(lang, d.due_on)) }
                                td.amount { (locale::amount(lang, d.outstanding.minor, &d.outstanding.currency)) }
                            }
                        }
                    }
                }
            }
        }
    };
    Ok(screen(
        ctx,
        Screen::Dashboard,
        lang.pick("Dashboard", "Übersicht"),
        content,
    ))
}
