//! The list of open drafts with what each comes to, and a new invoice
//! draft: a search among the company's customers, the choice of one of
//! them, and the draft `POST /v1/invoices/drafts` would make.

use hyper::StatusCode;
use maud::html;

use super::fields::{kind_name, DRAFT, SEARCH};
use crate::access::people::Capability;
use crate::books::company;
use crate::books::customers;
use crate::books::drafts::{self, DraftInput, DraftKind, NewDraft};
use crate::error::Result;
use crate::http::app::Answer;
use crate::http::screens::context::Ctx;
use crate::http::screens::form::{choice, post, queried, search_form, Acted, Problems};
use crate::http::screens::frame::{
    may_act, pager, screen, screen_with, see_other, th, th_amount, Noun, Screen, Table,
};
use crate::rules::locale::{self, Lang};
use crate::store::paging::Paging;

/// GET /drafts?page=…
pub fn list(ctx: &Ctx) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let page = drafts::list(ctx.conn, tenant, ctx.paging())?;
    let company = company::get(ctx.conn, &tenant.company_id)?;
    let content = html! {
        @if may_act(ctx) {
            p { a.button href="/drafts/new" { (lang.pick("New draft", "Neuer Entwurf")) } }
        }
        @if page.data.is_empty() {
            p { (lang.pick("No draft is open.", "Kein Entwurf ist offen.")) }
        } @else {
            (Table::new(&[
                th(lang.pick("Customer", "Kunde")), th(lang.pick("Kind", "Art")),
                th_amount(lang.pick("Lines", "Positionen")), th_amount(lang.pick("Total", "Gesamt")),
                th(lang.pick("Created", "Angelegt")),
            ])
            .read_caption(lang.pick("Open drafts, newest first", "Offene Entwürfe, die neuesten zuerst"))
            .rows(&page.data, |d| html! {
                td { a href=(format!("/drafts/{}", d.id)) { (d.customer) } }
                td { (kind_name(lang, d.document_type)) }
                td.amount { (d.lines) }
                td.amount {
                    @match d.gross {
                        Some(gross) => (locale::amount(lang, gross, &d.currency)),
                        None => (lang.pick("too large", "zu groß")),
                    }
                }
                td {
                    @match company.date_of(&d.created_at) {
                        Some(day) => (locale::date(lang, day)),
                        None => (d.created_at),
                    }
                }
            }))
            (pager(lang, &page, &|n| format!("/drafts?page={n}"), Noun { en: ("draft", "drafts"), de: ("Entwurf", "Entwürfe") }))
        }
    };
    Ok(screen(
        ctx,
        Screen::Drafts,
        lang.pick("Drafts", "Entwürfe"),
        content,
    ))
}

/// A customer as the choice names it: "Name (K10005, City)", without the
/// city when none is known.
fn picked(name: &str, number: &str, city: &str) -> String {
    let known: Vec<&str> = [number, city]
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if known.is_empty() {
        name.to_string()
    } else {
        format!("{name} ({})", known.join(", "))
    }
}

/// The most customers the choice of a new draft offers at once.
const CHOICE: i64 = 100;

/// The page of a new draft: a search among the company's customers and the
/// choice of one of them.
fn new_page(ctx: &Ctx, status: StatusCode, chosen: &str, problems: &Problems) -> Result<Answer> {
    let lang = ctx.lang;
    let search = ctx.query.get("search").unwrap_or("");
    let (found, search_problems) = queried(customers::list(
        ctx.conn,
        &ctx.session.tenant,
        Some(search),
        Paging {
            page: 0,
            size: CHOICE,
        },
    ))?;
    let chosen = if chosen.is_empty() {
        ctx.query.get("customerId").unwrap_or("")
    } else {
        chosen
    };
    let content = html! {
        (DRAFT.summary(lang, problems))
        (search_form(lang, "/drafts/new", &[], &SEARCH, search, &search_problems))
        @if let Some(found) = &found {
            @if found.data.is_empty() {
                p {
                    (lang.pick("No customer found. ", "Kein Kunde gefunden. "))
                    a href="/customers/new" { (lang.pick("New customer", "Neuer Kunde")) }
                }
            } @else {
                (post(ctx, "/drafts", html! {
                    (choice(
                        lang,
                        "customerId",
                        &DRAFT.label(lang, "customerId"),
                        &found.data.iter().map(|c| (c.id.clone(), picked(&c.name, &c.number, &c.city))).collect::<Vec<_>>(),
                        chosen,
                        (found.total > CHOICE).then(|| match lang {
                            Lang::En => format!("The newest {CHOICE} of {} customers found; search to narrow them.", found.total),
                            Lang::De => format!("Die neuesten {CHOICE} von {} gefundenen Kunden; die Suche grenzt sie ein.", found.total),
                        }),
                        problems,
                    ))
                }, lang.pick("Create draft", "Entwurf anlegen")))
            }
        }
        p { a href="/drafts" { (lang.pick("All drafts", "Alle Entwürfe")) } }
    };
    let status = if search_problems.list.is_empty() {
        status
    } else {
        search_problems.query_status()
    };
    Ok(screen_with(
        ctx,
        status,
        Screen::Drafts,
        lang.pick("New draft", "Neuer Entwurf"),
        content,
    ))
}

/// GET /drafts/new?search=…&customerId=…
pub fn new_form(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    new_page(ctx, StatusCode::OK, "", &Problems::default())
}

/// POST /drafts `{customerId}`: an empty invoice draft, as `POST
/// /v1/invoices/drafts` makes it; another company's customer is not found.
pub fn create(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let input = DraftInput {
        customer_id: ctx.form.get("customerId").map(str::to_string),
    };
    let checked = NewDraft::empty(input, DraftKind::Invoice);
    let created = DRAFT.act(ctx, checked, |tx, new| {
        drafts::create(tx, tenant, &ctx.actor(), &new)
    })?;
    match created {
        Acted::Done(id) => Ok(see_other(&format!("/drafts/{id}?done=created"))),
        Acted::Refused(r) => new_page(
            ctx,
            r.status,
            ctx.form.get("customerId").unwrap_or(""),
            &r.problems,
        ),
    }
}
