//! The jobs: the company's transactions by workflow stage (a tab per stage
//! of the company's workflow, with its count), paged and searchable; a
//! job's page with its notes, moving it to another stage and adding a note.
//! The stage moves by the books' `Change::check` and `transactions::update`
//! (the same partial update as `PATCH /v1/transactions/{id}`), the note by
//! `NewNote::check` and `transactions::add_note` (as the agent tool
//! `add_transaction_note`), authored by the person. Every act is the
//! person's: the books record them in the audit.

use hyper::StatusCode;
use maud::{html, Markup};

use super::context::Ctx;
use super::form::{message, post, queried, search_form, Acted, Form, FormField, Problems};
use super::frame::{csrf, may_act, pager, screen_with, see_other, th, Noun, Screen, Table};
use super::history;
use crate::access::people::Capability;
use crate::books::audit;
use crate::books::company::{self, DEFAULT_WORKFLOW};
use crate::books::transactions::{
    self, Change, Filter, FilterInput, NewNote, NoteInput, PatchInput, TransactionRecord,
};
use crate::error::Result;
use crate::http::app::Answer;
use crate::http::query;
use crate::rules::locale::{self, Lang};
use crate::rules::text::Patch;
use crate::store::paging::Paging;

/// A job's forms: its stage (a choice of the workflow's) and a note (a
/// text area); the list's search. A wrong state (an archived job) is said
/// above the forms.
const JOB: Form = Form::new(&[])
    .naming(&[
        ("stage", "Stage", "Phase"),
        ("text", "Note", "Notiz"),
        ("search", "Search", "Suche"),
    ])
    .wrong_state_above();

/// The search of the list.
const SEARCH: FormField = FormField::text(
    "search",
    "Search title, description or number",
    "Titel, Beschreibung oder Nummer suchen",
    transactions::MAX_FILTER,
)
.kind("search");

fn title(lang: Lang) -> &'static str {
    lang.pick("Jobs", "Vorgänge")
}

/// A stage of the workflow as a person reads it: the stages of the workflow
/// every company starts with (`NEU`, `IN_ARBEIT`, `ERLEDIGT`) by their
/// names in the page's language, a company's own stage by its key as the
/// owner wrote it.
fn stage_name(lang: Lang, key: &str) -> &str {
    /// The names of `DEFAULT_WORKFLOW`'s stages, in its order.
    const NAMES: [(&str, &str); 3] = [
        ("New", "Neu"),
        ("In progress", "In Arbeit"),
        ("Done", "Erledigt"),
    ];
    DEFAULT_WORKFLOW
        .iter()
        .zip(NAMES)
        .find(|(stage, _)| **stage == key)
        .map_or(key, |(_, (en, de))| lang.pick(en, de))
}

/// The address of the list with a stage, a search and a page.
fn list_href(stage: Option<&str>, search: &str, page: i64) -> String {
    let mut href = format!("/jobs?page={page}");
    if let Some(stage) = stage {
        href.push_str("&stage=");
        href.push_str(&query::percent_encode(stage));
    }
    if !search.is_empty() {
        href.push_str("&search=");
        href.push_str(&query::percent_encode(search));
    }
    href
}

/// GET /jobs?stage=…&search=…&page=…
pub fn list(ctx: &Ctx) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let company = company::get(ctx.conn, &tenant.company_id)?;
    let stage = ctx.query.get("stage");
    let search = ctx.query.get("search").unwrap_or("");
    let paging = ctx.paging();
    let filter = |stage: Option<&str>| {
        Filter::check(FilterInput {
            stage: stage.map(str::to_string),
            search: Some(search.to_string()),
            ..FilterInput::default()
        })
    };
    let (page, problems) =
        queried(filter(stage).and_then(|f| transactions::list(ctx.conn, tenant, &f, paging)))?;
    // How many jobs each stage holds (with the search applied).
    let mut tabs = Vec::new();
    for s in &company.workflow {
        let count = match filter(Some(s)) {
            Ok(f) => transactions::list(ctx.conn, tenant, &f, Paging { page: 0, size: 1 })?.total,
            Err(_) => 0,
        };
        tabs.push((s.clone(), count));
    }
    let content = html! {
        nav.sub aria-label=(lang.pick("Stages", "Phasen")) {
            ul {
                li {
                    @if stage.is_none() {
                        a href=(list_href(None, search, 0)) aria-current="page" { (lang.pick("All stages", "Alle Phasen")) }
                    } @else {
                        a href=(list_href(None, search, 0)) { (lang.pick("All stages", "Alle Phasen")) }
                    }
                }
                @for (s, count) in &tabs {
                    li {
                        @if stage == Some(s.as_str()) {
                            a href=(list_href(Some(s), search, 0)) aria-current="page" { (stage_name(lang, s)) " (" (count) ")" }
                        } @else {
                            a href=(list_href(Some(s), search, 0)) { (stage_name(lang, s)) " (" (count) ")" }
                        }
                    }
                }
            }
        }
        (search_form(lang, "/jobs", stage.map(|s| ("stage", s)).as_slice(), &SEARCH, search, &problems))
        (JOB.summary(lang, &problems))
        @if let Some(page) = &page {
            @if page.data.is_empty() {
                p { (lang.pick("No job found.", "Kein Vorgang gefunden.")) }
            } @else {
                (Table::new(&[
                    th(lang.pick("Number", "Nummer")), th(lang.pick("Title", "Titel")),
                    th(lang.pick("Customer", "Kunde")), th(&JOB.label(lang, "stage")), th(lang.pick("Due", "Fällig")),
                ])
                .read_caption(lang.pick("Jobs, newest first", "Vorgänge, die neuesten zuerst"))
                .rows(&page.data, |t| html! {
                    td { (t.number) }
                    td { a href=(format!("/jobs/{}", t.id)) { (t.title) } }
                    td { (t.customer.as_deref().unwrap_or("")) }
                    td { (stage_name(lang, &t.stage)) }
                    td { @if let Some(due) = t.due_on { (locale::date(lang, due)) } }
                }))
                (pager(lang, page, &|n| list_href(stage, search, n), Noun { en: ("job", "jobs"), de: ("Vorgang", "Vorgänge") }))
            }
        }
    };
    Ok(screen_with(
        ctx,
        problems.query_status(),
        Screen::Jobs,
        title(lang),
        content,
    ))
}

/// The page of one job with what a refused form had typed.
fn job_page(
    ctx: &Ctx,
    job: &TransactionRecord,
    status: StatusCode,
    typed_stage: Option<&str>,
    typed_note: &str,
    problems: &Problems,
) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let company = company::get(ctx.conn, &tenant.company_id)?;
    let notes = transactions::notes(ctx.conn, tenant, &job.id)?;
    let history = audit::history(ctx.conn, tenant, &job.id)?;
    let history_section = history::section(ctx, &history)?;
    let zone = history::zone(ctx)?;
    let chosen = typed_stage.unwrap_or(&job.stage);
    let notice = ctx
        .notice(
            "done",
            &[
                ("moved", "The stage is changed.", "Die Phase ist geändert."),
                ("noted", "The note is added.", "Die Notiz ist hinzugefügt."),
            ],
        )
        .filter(|_| problems.list.is_empty());
    let stage_wrong = problems.at("stage");
    let note_wrong = problems.at("text");
    let content: Markup = html! {
        @if let Some(notice) = notice {
            p.notice role="status" { (notice) }
        }
        dl.particulars {
            div { dt { (lang.pick("Number", "Nummer")) } dd { (job.number) } }
            div { dt { (JOB.label(lang, "stage")) } dd { (stage_name(lang, &job.stage)) } }
            div { dt { (lang.pick("Customer", "Kunde")) } dd { (job.customer.as_deref().unwrap_or("")) } }
            div { dt { (lang.pick("Started", "Begonnen")) } dd { (locale::date(lang, job.started_on)) } }
            div { dt { (lang.pick("Due", "Fällig")) } dd { @if let Some(due) = job.due_on { (locale::date(lang, due)) } } }
            @if job.archived {
                div { dt { (lang.pick("Archived", "Archiviert")) } dd { (lang.pick("yes", "ja")) } }
            }
        }
        @if let Some(description) = &job.description {
            p { (description) }
        }
        (JOB.summary(lang, problems))
        @if may_act(ctx) {
            section aria-labelledby="stage-heading" {
                h2 #stage-heading { (lang.pick("Move to a stage", "In eine Phase verschieben")) }
                form.search method="post" action=(format!("/jobs/{}/stage", job.id)) {
                    (csrf(ctx))
                    div.field.wrong[stage_wrong] {
                        label for="field-stage" { (JOB.label(lang, "stage")) }
                        select #field-stage name="stage"
                            aria-invalid=[stage_wrong.then_some("true")]
                            aria-describedby=[stage_wrong.then_some("field-stage-error")] {
                            @for s in &company.workflow {
                                option value=(s) selected[s == chosen] { (stage_name(lang, s)) }
                            }
                        }
                        @if stage_wrong {
                            p.error #field-stage-error {
                                @for v in problems.list.iter().filter(|v| v.field.as_deref() == Some("stage")) {
                                    (message(lang, v)) " "
                                }
                            }
                        }
                    }
                    button type="submit" { (lang.pick("Move", "Verschieben")) }
                }
            }
        }
        section aria-labelledby="notes-heading" {
            h2 #notes-heading { (lang.pick("Notes", "Notizen")) }
            @if notes.is_empty() {
                p { (lang.pick("No note yet.", "Noch keine Notiz.")) }
            } @else {
                ul {
                    @for n in &notes {
                        li { (history::when(lang, &zone, &n.created_at)) " · " (n.author) ": " (n.text) }
                    }
                }
            }
            @if may_act(ctx) {
                (post(ctx, &format!("/jobs/{}/notes", job.id), html! {
                    div.field.wrong[note_wrong] {
                        label for="field-text" { (JOB.label(lang, "text")) " " span.required aria-hidden="true" { "*" } }
                        textarea #field-text name="text" rows="4" maxlength=(transactions::MAX_DESCRIPTION) required
                            aria-invalid=[note_wrong.then_some("true")]
                            aria-describedby=[note_wrong.then_some("field-text-error")] { (typed_note) }
                        @if note_wrong {
                            p.error #field-text-error {
                                @for v in problems.of_field("text") {
                                    (message(lang, v)) " "
                                }
                            }
                        }
                    }
                }, lang.pick("Add note", "Notiz hinzufügen")))
            }
        }
        (history_section)
        p { a href="/jobs" { (lang.pick("All jobs", "Alle Vorgänge")) } }
    };
    let heading = format!("{} {}", job.number, job.title);
    Ok(screen_with(ctx, status, Screen::Jobs, &heading, content))
}

/// GET /jobs/{id}
pub fn show(ctx: &Ctx, id: &str) -> Result<Answer> {
    let job = transactions::get(ctx.conn, &ctx.session.tenant, id)?;
    job_page(ctx, &job, StatusCode::OK, None, "", &Problems::default())
}

/// Answers an act on a job: on to its page saying what was `done`, or the
/// page again with what was typed (the `stage` chosen, the `note`) and
/// the problem.
fn answer(
    ctx: &Ctx,
    id: &str,
    done: &str,
    acted: Acted<()>,
    stage: Option<&str>,
    note: &str,
) -> Result<Answer> {
    match acted {
        Acted::Done(()) => Ok(see_other(&format!("/jobs/{id}?done={done}"))),
        Acted::Refused(r) => {
            let job = transactions::get(ctx.conn, &ctx.session.tenant, id)?;
            job_page(ctx, &job, r.status, stage, note, &r.problems)
        }
    }
}

/// POST /jobs/{id}/stage `{stage}`
pub fn move_stage(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    transactions::get(ctx.conn, tenant, id)?;
    let stage = ctx.form.sent("stage").unwrap_or("");
    let checked = Change::check(PatchInput {
        stage: Patch::Value(stage.to_string()),
        ..PatchInput::default()
    });
    let moved = JOB.act(ctx, checked, |tx, change| {
        transactions::update(tx, tenant, &ctx.actor(), id, &change)
    })?;
    answer(ctx, id, "moved", moved, Some(stage), "")
}

/// POST /jobs/{id}/notes `{text}`: a note authored by the person.
pub fn add_note(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    transactions::get(ctx.conn, tenant, id)?;
    let text = ctx.form.sent("text").unwrap_or("");
    let checked = NewNote::check(NoteInput {
        transaction_id: Some(id.to_string()),
        text: Some(text.to_string()),
    });
    let added = JOB.act(ctx, checked, |tx, note| {
        let author = &ctx.session.person.name;
        transactions::add_note(tx, tenant, &ctx.actor(), &note, author).map(|_| ())
    })?;
    answer(ctx, id, "noted", added, None, text)
}
