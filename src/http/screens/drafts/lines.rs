//! A draft's lines: adding one (on the draft's page), changing one (on a
//! page of its own, filled with the stored line) and removing one, as
//! `draft line` and the API's draft lines do them, through the books'
//! `NewDraftLine::check` and `drafts::add_line`, `change_line` and
//! `remove_line`.

use hyper::StatusCode;
use maud::html;

use super::fields::DRAFT;
use super::line_fields::{line_fields, read_line, stored_line};
use super::page::{draft_page, RefusedForm};
use crate::access::people::Capability;
use crate::books::company::{self, Company};
use crate::books::drafts::{self, DraftState, DraftView, NewDraftLine};
use crate::error::said::Record;
use crate::error::{Error, Result, Said};
use crate::http::app::Answer;
use crate::http::screens::context::Ctx;
use crate::http::screens::form::{post, required_note, Acted, Problems};
use crate::http::screens::frame::{screen_with, see_other, Screen};
use crate::rules::iso::Currency;
use crate::rules::locale::Lang;

/// A line's number in an address (`/drafts/{id}/lines/{n}`, from 1).
///
/// Fails with `NotFound` for anything but a positive whole number.
fn line_number(text: &str) -> Result<usize> {
    text.parse::<usize>()
        .ok()
        .filter(|n| *n >= 1 && text.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| Error::not_found(Said::Record(Record::DraftLine, String::new())))
}

/// The company and the draft's currency, for reading a line; the draft
/// must be one of the tenant's.
fn seller_and_currency(ctx: &Ctx, id: &str) -> Result<(Company, Currency)> {
    let tenant = &ctx.session.tenant;
    let draft = drafts::get(ctx.conn, tenant, id)?;
    Ok((company::get(ctx.conn, &tenant.company_id)?, draft.currency))
}

/// POST /drafts/{id}/lines: a line as `draft line` adds it.
pub fn add_line(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let (company, currency) = seller_and_currency(ctx, id)?;
    let (input, read) = read_line(ctx, &currency);
    let checked = read.check(NewDraftLine::check(input, &company));
    let added = DRAFT.act(ctx, checked, |tx, line| {
        drafts::add_line(tx, tenant, &ctx.actor(), id, &line)
    })?;
    match added {
        Acted::Done(()) => Ok(see_other(&format!("/drafts/{id}?done=line-added#lines"))),
        Acted::Refused(r) => draft_page(
            ctx,
            id,
            r.status,
            Some(RefusedForm {
                form: "line",
                typed: &|f| ctx.typed(f),
                problems: r.problems,
            }),
        ),
    }
}

/// The page of one line's change.
fn line_page(
    ctx: &Ctx,
    draft: &DraftView,
    number: usize,
    status: StatusCode,
    value: &dyn Fn(&str) -> String,
    problems: &Problems,
) -> Answer {
    let lang = ctx.lang;
    let line = &draft.lines[number - 1];
    let content = html! {
        @if line.taxes.len() > 1 {
            p.problem { (lang.pick(
                "This line carries several named taxes; saving gives it the one rate entered here.",
                "Diese Position trägt mehrere benannte Steuern; Speichern gibt ihr den einen hier eingetragenen Satz.",
            )) }
        }
        (DRAFT.summary(lang, problems))
        (post(ctx, &format!("/drafts/{}/lines/{number}", draft.id), html! {
            (required_note(lang))
            (line_fields(ctx, &draft.currency, value, problems))
        }, lang.pick("Save line", "Position speichern")))
        p { a href=(format!("/drafts/{}#lines", draft.id)) { (lang.pick("Back to the draft", "Zurück zum Entwurf")) } }
    };
    let title = match lang {
        Lang::En => format!("Line {number} of the draft for {}", draft.customer),
        Lang::De => format!("Position {number} des Entwurfs für {}", draft.customer),
    };
    screen_with(ctx, status, Screen::Drafts, &title, content)
}

/// The open draft and its line `n`, or not found.
fn draft_and_line(ctx: &Ctx, id: &str, n: &str) -> Result<(DraftView, usize)> {
    let draft = drafts::get(ctx.conn, &ctx.session.tenant, id)?;
    let number = line_number(n)?;
    if number > draft.lines.len() {
        return Err(Error::not_found(Said::Record(
            Record::DraftLine,
            String::new(),
        )));
    }
    if draft.state != DraftState::Draft {
        return Err(Error::wrong_state(crate::error::said::Draft::Issued {
            id: id.to_string(),
        }));
    }
    Ok((draft, number))
}

/// GET /drafts/{id}/lines/{n}
pub fn line_form(ctx: &Ctx, id: &str, n: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let (draft, number) = draft_and_line(ctx, id, n)?;
    let line = &draft.lines[number - 1];
    let stored = |f: &str| stored_line(ctx.lang, line, &draft.currency, f);
    Ok(line_page(
        ctx,
        &draft,
        number,
        StatusCode::OK,
        &stored,
        &Problems::default(),
    ))
}

/// POST /drafts/{id}/lines/{n}: the line replaced by what the form says,
/// checked as a new line is.
pub fn change_line(ctx: &Ctx, id: &str, n: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let (draft, number) = draft_and_line(ctx, id, n)?;
    let company = company::get(ctx.conn, &tenant.company_id)?;
    let (input, read) = read_line(ctx, &draft.currency);
    let checked = read.check(NewDraftLine::check(input, &company));
    let changed = DRAFT.act(ctx, checked, |tx, line| {
        drafts::change_line(tx, tenant, &ctx.actor(), id, number, &line)
    })?;
    match changed {
        Acted::Done(()) => Ok(see_other(&format!("/drafts/{id}?done=line-changed#lines"))),
        Acted::Refused(r) => Ok(line_page(
            ctx,
            &draft,
            number,
            r.status,
            &|f| ctx.typed(f),
            &r.problems,
        )),
    }
}

/// POST /drafts/{id}/lines/{n}/remove
pub fn remove_line(ctx: &Ctx, id: &str, n: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let number = line_number(n)?;
    ctx.write(|tx| drafts::remove_line(tx, tenant, &ctx.actor(), id, number))?;
    Ok(see_other(&format!("/drafts/{id}?done=line-removed#lines")))
}
