//! The dashboard: receivables and payables (outstanding, due, overdue, open
//! documents) from the outstanding report, the overdue invoices and bills
//! from the open-documents lists (as the API and the agent tools read
//! them), a chart of what was invoiced and received per month and one of
//! the receivables by how long they are overdue.

use maud::{html, Markup};

use super::chart::{self, Bars, Group, Series};
use super::context::Ctx;
use super::frame::{money, screen, th, th_amount, Screen, Table};
use crate::books::report::{self, Figures, OpenDocument, Side};
use crate::error::Result;
use crate::http::app::Answer;
use crate::rules::locale::{self, Lang};

/// The most overdue invoices or bills listed (the oldest due first).
const OVERDUE_SHOWN: i64 = 20;
/// The months the invoiced-and-received chart covers.
const MONTHS: u8 = 12;

fn figures(lang: Lang, caption: &str, f: &Figures) -> Markup {
    html! {
        section.figures aria-label=(caption) {
            h2 { (caption) }
            dl {
                div { dt { (lang.pick("Outstanding", "Offen")) } dd { (money(lang, &f.outstanding)) } }
                div { dt { (lang.pick("Due", "Fällig")) } dd { (money(lang, &f.due)) } }
                div.overdue[f.overdue.minor != 0] { dt { (lang.pick("Overdue", "Überfällig")) } dd { (money(lang, &f.overdue)) } }
                div { dt { (lang.pick("Open documents", "Offene Belege")) } dd { (f.count) } }
            }
        }
    }
}

/// The overdue documents of one side as a table, or a sentence saying there
/// are none.
fn overdue_table(lang: Lang, side: Side, open: &[OpenDocument]) -> Markup {
    let overdue: Vec<_> = open.iter().filter(|d| d.overdue).collect();
    let (id, heading, none, caption, partner) = match side {
        Side::Receivable => (
            "overdue-heading",
            lang.pick("Overdue invoices", "Überfällige Rechnungen"),
            lang.pick("No invoice is overdue.", "Keine Rechnung ist überfällig."),
            lang.pick(
                "Overdue invoices, the longest overdue first",
                "Überfällige Rechnungen, die am längsten überfällige zuerst",
            ),
            lang.pick("Customer", "Kunde"),
        ),
        Side::Payable => (
            "overdue-bills-heading",
            lang.pick("Overdue bills", "Überfällige Eingangsrechnungen"),
            lang.pick(
                "No bill is overdue.",
                "Keine Eingangsrechnung ist überfällig.",
            ),
            lang.pick(
                "Overdue bills, the longest overdue first",
                "Überfällige Eingangsrechnungen, die am längsten überfällige zuerst",
            ),
            lang.pick("Supplier", "Lieferant"),
        ),
    };
    html! {
        section aria-labelledby=(id) {
            h2 id=(id) { (heading) }
            @if overdue.is_empty() {
                p { (none) }
            } @else {
                (Table::new(&[
                    th(lang.pick("Number", "Nummer")), th(partner), th(lang.pick("Dated", "Datum")),
                    th(lang.pick("Due", "Fällig")), th_amount(lang.pick("Outstanding", "Offen")),
                ])
                .read_caption(caption)
                .rows(&overdue, |d| html! {
                    td {
                        @if side == Side::Payable {
                            a href=(format!("/bills/{}", d.id)) { (d.number) }
                        } @else {
                            a href=(format!("/invoices/{}", d.number)) { (d.number) }
                        }
                    }
                    td { (d.partner) }
                    td { (locale::date(lang, d.date)) }
                    td { (locale::date(lang, d.due_on)) }
                    td.amount { (money(lang, &d.outstanding)) }
                }))
            }
        }
    }
}

/// GET /dashboard
pub fn show(ctx: &Ctx) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let report = report::outstanding(ctx.conn, tenant, None)?;
    let invoices =
        report::open_documents(ctx.conn, tenant, Side::Receivable, None, OVERDUE_SHOWN, 0)?;
    let bills = report::open_documents(ctx.conn, tenant, Side::Payable, None, OVERDUE_SHOWN, 0)?;
    let (currency, months) = report::months(ctx.conn, tenant, None, MONTHS)?;
    let ageing = report::ageing(ctx.conn, tenant, None)?;
    let invoiced = lang.pick("Invoiced", "Berechnet");
    let received = lang.pick("Received", "Eingegangen");
    let per_month = Bars {
        id: "months",
        title: lang.pick("Invoiced and received per month", "Berechnet und eingegangen je Monat"),
        description: format!(
            "{} {} – {}",
            lang.pick(
                "Invoices issued (less corrections) and customers' payments received in each month,",
                "Ausgestellte Rechnungen (abzüglich Korrekturen) und eingegangene Zahlungen der Kunden je Monat,"
            ),
            locale::month(lang, months[0].first),
            locale::month(lang, months[months.len() - 1].first),
        ),
        series: vec![
            Series { name: invoiced, class: "invoiced" },
            Series { name: received, class: "received" },
        ],
        groups: months
            .iter()
            .map(|m| Group {
                label: locale::month_short(lang, m.first).to_string(),
                full: locale::month(lang, m.first),
                values: vec![m.invoiced, m.received],
            })
            .collect(),
        currency: &currency,
    };
    let buckets = [
        (
            lang.pick("Not yet due", "Noch nicht fällig"),
            ageing.current,
        ),
        (lang.pick("1–30 days", "1–30 Tage"), ageing.overdue[0]),
        (lang.pick("31–60 days", "31–60 Tage"), ageing.overdue[1]),
        (lang.pick("61–90 days", "61–90 Tage"), ageing.overdue[2]),
        (lang.pick("over 90 days", "über 90 Tage"), ageing.overdue[3]),
    ];
    let open = lang.pick("Open", "Offen");
    let by_age = Bars {
        id: "ageing",
        title: lang.pick(
            "Receivables by days overdue",
            "Forderungen nach Tagen überfällig",
        ),
        description: format!(
            "{} {}",
            lang.pick(
                "Open receivables by how many days past their due date they are, as of",
                "Offene Forderungen nach Tagen über dem Fälligkeitsdatum, Stand"
            ),
            locale::date(lang, ageing.as_of),
        ),
        series: vec![Series {
            name: open,
            class: "open",
        }],
        groups: buckets
            .iter()
            .map(|(label, amount)| Group {
                label: label.to_string(),
                full: label.to_string(),
                values: vec![*amount],
            })
            .collect(),
        currency: &ageing.currency,
    };
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
        div.charts {
            section aria-labelledby="months-heading" {
                h2 #months-heading { (per_month.title) }
                (chart::bars(lang, &per_month))
            }
            section aria-labelledby="ageing-heading" {
                h2 #ageing-heading { (by_age.title) }
                (chart::bars(lang, &by_age))
            }
        }
        (overdue_table(lang, Side::Receivable, &invoices.items))
        (overdue_table(lang, Side::Payable, &bills.items))
    };
    Ok(screen(
        ctx,
        Screen::Dashboard,
        lang.pick("Dashboard", "Übersicht"),
        content,
    ))
}
