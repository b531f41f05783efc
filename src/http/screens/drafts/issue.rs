//! Issuing a draft: the confirmation page (the customer, the figures, the
//! number the next issue would take now, that it cannot be undone, and,
//! refused, the verdict's reasons) and the issue itself, `invoices::issue`
//! with `IssueOptions::check` as `draft issue` calls them: the same
//! verdict, documents, number, ledger entry and event. Issued, the person
//! lands on the invoice's page.

use hyper::StatusCode;
use maud::html;

use super::fields::{DELIVERED_ON, DRAFT, RATE};
use super::page::figures_section;
use crate::access::people::Capability;
use crate::books::company;
use crate::books::drafts::{self, DraftState};
use crate::books::invoices::issue::{self, IssueInput, IssueOptions};
use crate::books::invoices::vat_check;
use crate::error::{Error, Result};
use crate::http::app::Answer;
use crate::http::screens::context::Ctx;
use crate::http::screens::form::{message, post, Acted, Problems, Reading};
use crate::http::screens::frame::{invoice_href, screen_with, see_other, Screen};
use crate::rules::locale::{self, Lang};

/// The confirmation page of an issue: the customer, the figures, the number
/// the next issue would take now (peeked, not drawn), that it cannot be
/// undone; with a refusal, the verdict's reasons.
fn confirm_page(
    ctx: &Ctx,
    id: &str,
    status: StatusCode,
    value: &dyn Fn(&str) -> String,
    problems: &Problems,
) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let draft = drafts::get(ctx.conn, tenant, id)?;
    if draft.state != DraftState::Draft {
        return Ok(see_other(&format!("/drafts/{id}")));
    }
    let company = company::get(ctx.conn, &tenant.company_id)?;
    let figures = drafts::figures(ctx.conn, tenant, id);
    let foreign = draft.currency != company.currency;
    let content = html! {
        @if !problems.list.is_empty() {
            div.problem role="alert" {
                p { strong { (lang.pick(
                    "The invoice was not issued, and no number was taken. Please correct:",
                    "Die Rechnung wurde nicht ausgestellt, und keine Nummer wurde vergeben. Bitte korrigieren:",
                )) } }
                ul #verdict {
                    @for v in &problems.list {
                        li {
                            @match &v.field {
                                Some(field) => { (DRAFT.label(lang, field)) ": " (message(lang, v)) }
                                None => { (message(lang, v)) }
                            }
                        }
                    }
                }
            }
        }
        p {
            (lang.pick("Issue the invoice to ", "Die Rechnung an "))
            strong { (draft.customer) }
            (lang.pick(" over ", " über "))
            strong {
                @match &figures {
                    Ok(f) => (locale::amount(lang, f.totals.gross, &f.currency)),
                    Err(_) => "–",
                }
            }
            (lang.pick(" today?", " heute ausstellen?"))
        }
        p {
            (lang.pick("Issued now, it takes the number ", "Jetzt ausgestellt, erhält sie die Nummer "))
            strong #next-number { (draft.number) }
            (lang.pick(
                " (unless another invoice is issued first), and is due on ",
                " (sofern nicht zuvor eine andere Rechnung ausgestellt wird) und ist fällig am ",
            ))
            (locale::date(lang, draft.due_on)) "."
        }
        p.problem { (lang.pick(
            "This cannot be undone: the number is used for good, the invoice is booked and its documents are written; a mistake afterwards takes a correction.",
            "Das lässt sich nicht rückgängig machen: Die Nummer ist endgültig vergeben, die Rechnung wird gebucht und ihre Dokumente werden erstellt; ein Fehler danach braucht eine Rechnungskorrektur.",
        )) }
        (figures_section(lang, &figures))
        (post(ctx, &format!("/drafts/{id}/issue"), html! {
            (DELIVERED_ON.render(lang, &value("deliveredOn"), problems))
            @if foreign {
                (RATE.render_hinted(lang, &value("rate"), Some(match lang {
                    Lang::En => format!("{} per {}, fixed today", company.currency.as_str(), draft.currency.as_str()),
                    Lang::De => format!("{} je {}, heute festgelegt", company.currency.as_str(), draft.currency.as_str()),
                }), problems))
            }
        }, lang.pick("Issue invoice", "Rechnung ausstellen")))
        p { a href=(format!("/drafts/{id}")) { (lang.pick("Cancel", "Abbrechen")) } }
    };
    Ok(screen_with(
        ctx,
        status,
        Screen::Drafts,
        lang.pick("Issue the invoice?", "Rechnung ausstellen?"),
        content,
    ))
}

/// GET /drafts/{id}/issue
pub fn confirm_issue(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    confirm_page(
        ctx,
        id,
        StatusCode::OK,
        &|_| String::new(),
        &Problems::default(),
    )
}

/// POST /drafts/{id}/issue `{deliveredOn, rate}`: `invoices::issue` as
/// `draft issue` calls it, today, then the invoice's page; the verdict's
/// refusal comes back on the confirmation page and nothing is numbered.
pub fn issue(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    drafts::get(ctx.conn, tenant, id)?;
    let mut read = Reading::of(ctx);
    let rate = read.optional_decimal("rate").map(|rate| rate.to_string());
    let checked = read.check(IssueOptions::check(IssueInput {
        on: None,
        delivered_on: ctx
            .form
            .get("deliveredOn")
            .map(str::trim)
            .filter(|d| !d.is_empty())
            .map(str::to_string),
        rate,
    }));
    // The VAT register is asked before the issue's transaction.
    let asked = vat_check::ask(ctx.conn, tenant, id, &ctx.app.vat_register)?;
    let issued = DRAFT.act(ctx, checked, |tx, options| {
        issue::issue(tx, tenant, &ctx.actor(), id, &options.with_register(asked)).map(|_| ())
    });
    // Issued, the draft carries its invoice's number.
    let invoice = || -> Result<String> { Ok(drafts::get(ctx.conn, tenant, id)?.number) };
    match issued {
        Ok(Acted::Done(())) => Ok(see_other(&invoice_href(&invoice()?, "?done=issued"))),
        Ok(Acted::Refused(r)) => confirm_page(ctx, id, r.status, &|f| ctx.typed(f), &r.problems),
        // Sent twice (a second click, the back button): the first issued
        // it; its invoice's page.
        Err(Error::WrongState(_))
            if drafts::get(ctx.conn, tenant, id)?.state == DraftState::Issued =>
        {
            Ok(see_other(&invoice_href(&invoice()?, "")))
        }
        Err(e) => Err(e),
    }
}
