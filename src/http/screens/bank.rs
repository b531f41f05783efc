//! The Bank screen: statement files uploaded (as `bank import` imports
//! them, each file its own transaction), the lines by state with a search,
//! and a line's page with its suggestions and their reasons and the acts
//! of `bank confirm | split | book | ignore | undo`: the books'
//! `bank::import::file` and `bank::acts` do the work and write the audit
//! naming the person. Amounts are typed as people type them.

use hyper::StatusCode;
use maud::html;

use super::context::Ctx;
use super::form::{choice, post, search_form, Acted, Form, FormField, Problems, Reading};
use super::frame::{
    act_button, csrf, may_act, money, screen, screen_with, see_other, th, th_amount, Screen, Table,
};
use super::visit::STATEMENT_UPLOAD;
use crate::access::people::Capability;
use crate::books::bank::acts::{self, Difference};
use crate::books::bank::import::{self, FileReport};
use crate::books::bank::lines::{self, Filter, LineView, State};
use crate::error::said::Input;
use crate::error::{Error, Result};
use crate::http::app::Answer;
use crate::rules::locale::{self, Lang};
use crate::rules::money::Money;

/// The states a person filters by, with their names.
const STATES: [(State, &str, &str); 5] = [
    (State::Unmatched, "Unmatched", "Nicht zugeordnet"),
    (State::Suggested, "Suggested", "Vorgeschlagen"),
    (State::Settled, "Settled", "Ausgeglichen"),
    (State::Ignored, "Ignored", "Ignoriert"),
    (State::Preliminary, "Preliminary", "Vorgemerkt"),
];

fn state_name(lang: Lang, state: State) -> &'static str {
    STATES
        .iter()
        .find(|s| s.0 == state)
        .map_or("", |s| lang.pick(s.1, s.2))
}

const SEARCH: FormField = FormField::text(
    "search",
    "Search name, IBAN, remittance or end-to-end id",
    "Name, IBAN, Verwendungszweck oder Ende-zu-Ende-Referenz suchen",
    100,
);

/// A split: up to four documents, each with the amount it gets.
const SPLIT: Form = Form::new(&[
    FormField::text("number1", "Document 1", "Beleg 1", 60),
    FormField::amount("amount1", "Amount 1", "Betrag 1"),
    FormField::text("number2", "Document 2", "Beleg 2", 60),
    FormField::amount("amount2", "Amount 2", "Betrag 2"),
    FormField::text("number3", "Document 3", "Beleg 3", 60),
    FormField::amount("amount3", "Amount 3", "Betrag 3"),
    FormField::text("number4", "Document 4", "Beleg 4", 60),
    FormField::amount("amount4", "Amount 4", "Betrag 4"),
])
.naming(&[("to", "Documents", "Belege")]);

/// Booking what a line has left to an account.
const BOOK: Form = Form::new(&[FormField::amount("amount", "Amount", "Betrag").hint(
    "Empty: all the line has left",
    "Leer: alles, was die Buchung noch offen hat",
)])
.naming(&[("account", "Account", "Konto")]);

/// Ignoring a line.
const IGNORE: Form =
    Form::new(&[FormField::text("reason", "Reason", "Grund", acts::MAX_REASON).required()]);

/// Confirming a suggestion.
const CONFIRM: Form = Form::new(&[]).naming(&[
    ("suggestion", "Suggestion", "Vorschlag"),
    ("difference", "Difference", "Differenz"),
]);

/// GET /bank?state=…&search=…
pub fn list(ctx: &Ctx) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let state = match ctx.query.get("state").filter(|s| !s.is_empty()) {
        Some(s) => Some(lines::read_state(s)?),
        None => None,
    };
    let search = ctx.query.get("search").unwrap_or("").to_string();
    let counts = lines::counts(ctx.conn, tenant)?;
    let count = |s: State| counts.iter().find(|c| c.0 == s).map_or(0, |c| c.1);
    let shown = lines::list(
        ctx.conn,
        tenant,
        &Filter {
            state,
            search: Some(search.clone()),
        },
        200,
    )?;
    let content = html! {
        p { a href="/settings/bank" { (lang.pick("Bank accounts and fee tolerance", "Bankkonten und Gebührentoleranz")) } }
        @if may_act(ctx) {
            section aria-labelledby="upload-heading" {
                h2 #upload-heading { (lang.pick("Import statements", "Kontoauszüge einlesen")) }
                form.stack method="post" action=(STATEMENT_UPLOAD) enctype="multipart/form-data" {
                    (csrf(ctx))
                    div.field {
                        label for="field-files" { (lang.pick("Statement files (camt XML, ZIP, MT940)", "Kontoauszüge (camt-XML, ZIP, MT940)")) }
                        input #field-files type="file" name="files" multiple accept=".xml,.zip,.sta,.mt940,.txt";
                    }
                    button type="submit" { (lang.pick("Import", "Einlesen")) }
                }
            }
        }
        nav aria-label=(lang.pick("Lines by state", "Buchungen nach Stand")) {
            ul.tabs {
                li { a href="/bank" aria-current=[state.is_none().then_some("page")] { (lang.pick("All", "Alle")) } }
                @for (s, en, de) in STATES {
                    li {
                        a href=(format!("/bank?state={}", s.as_str())) aria-current=[(state == Some(s)).then_some("page")] {
                            (lang.pick(en, de)) " (" (count(s)) ")"
                        }
                    }
                }
            }
        }
        (search_form(lang, "/bank", &[("state", state.map_or("", |s| s.as_str()))], &SEARCH, &search, &Problems::default()))
        @if shown.is_empty() {
            p { (lang.pick("No statement line here.", "Hier ist keine Buchung.")) }
        } @else {
            (Table::new(&[
                th(lang.pick("Booked", "Gebucht")), th(lang.pick("Counterparty", "Gegenseite")),
                th(lang.pick("Remittance", "Verwendungszweck")), th(lang.pick("State", "Stand")),
                th_amount(lang.pick("Amount", "Betrag")),
            ])
            .read_caption(lang.pick("Statement lines, newest first", "Buchungen, die neuesten zuerst"))
            .rows(&shown, |l| html! {
                td { a href=(format!("/bank/lines/{}", l.id)) { (l.booked_on.map(|d| locale::date(lang, d)).unwrap_or_default()) } }
                td { (l.counterparty.name.clone().unwrap_or_default()) }
                td { (l.remittance) }
                td { (state_name(lang, l.state)) }
                td.amount { (money(lang, &l.amount)) }
            }))
        }
    };
    Ok(screen(
        ctx,
        Screen::Bank,
        lang.pick("Bank", "Bank"),
        content,
    ))
}

/// POST /bank/import: the files of the upload, each imported in its own
/// transaction; the page says what each did.
pub fn import(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let files: Vec<_> = ctx
        .files
        .iter()
        .filter(|part| part.name == "files")
        .collect();
    if files.is_empty() {
        return Err(Error::invalid("files", Input::NoStatementFile));
    }
    let mut reports = Vec::new();
    for part in files {
        let name = part.file_name.clone().unwrap_or_default();
        let report = ctx
            .write(|tx| {
                import::file(
                    tx,
                    tenant,
                    &ctx.actor(),
                    &name,
                    std::borrow::Cow::Borrowed(&part.bytes),
                )
            })
            .or_else(|e| match e {
                Error::Internal(_) | Error::Busy | Error::StorageFull => Err(e),
                refusal => Ok(FileReport::refused(&name, &refusal)),
            })?;
        reports.push(report);
    }
    let refused = reports.iter().any(|r| r.refused.is_some());
    let content = html! {
        (Table::new(&[
            th(lang.pick("File", "Datei")), th_amount(lang.pick("Lines", "Buchungen")),
            th_amount(lang.pick("New", "Neu")), th_amount(lang.pick("Seen before", "Schon bekannt")),
            th_amount(lang.pick("Settled", "Ausgeglichen")), th_amount(lang.pick("Suggested", "Vorgeschlagen")),
            th_amount(lang.pick("Unmatched", "Nicht zugeordnet")), th_amount(lang.pick("Preliminary", "Vorgemerkt")),
        ])
        .caption(lang.pick("What each file did", "Was jede Datei bewirkt hat"))
        .rows(&reports, |r| html! {
            td { (r.file) }
            td.amount { (r.lines) } td.amount { (r.new) } td.amount { (r.duplicates) }
            td.amount { (r.settled) } td.amount { (r.suggested) } td.amount { (r.unmatched) }
            td.amount { (r.preliminary) }
        }))
        @for r in &reports {
            @if let Some(why) = &r.refused {
                p.error role="alert" { (why) }
            }
            @for note in &r.notes {
                p.notice { (note) }
            }
        }
        p { a href="/bank?state=suggested" { (lang.pick("Lines with suggestions", "Buchungen mit Vorschlägen")) } " · " a href="/bank" { (lang.pick("All lines", "Alle Buchungen")) } }
    };
    let status = if refused {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        StatusCode::OK
    };
    Ok(screen_with(
        ctx,
        status,
        Screen::Bank,
        lang.pick("Statements imported", "Kontoauszüge eingelesen"),
        content,
    ))
}

fn amount_of(lang: Lang, minor: i64, m: &Money) -> String {
    money(lang, &Money::new(minor, &m.currency))
}

/// The page of one line: its fields, its suggestions with their reasons,
/// and the acts open to it; `problems` of a refused act above them.
fn line_page(
    ctx: &Ctx,
    line: &LineView,
    status: StatusCode,
    form: &Form,
    problems: &Problems,
) -> Result<Answer> {
    let lang = ctx.lang;
    let open = matches!(line.state, State::Unmatched | State::Suggested);
    let undoable =
        line.state == State::Ignored || line.settlements.iter().any(|s| s.undone_at.is_none());
    let notice = ctx
        .query
        .get("done")
        .filter(|_| problems.list.is_empty())
        .map(|done| match done {
            "confirmed" => lang.pick(
                "The suggestion is settled.",
                "Der Vorschlag ist ausgeglichen.",
            ),
            "split" => lang.pick("The line is split.", "Die Buchung ist aufgeteilt."),
            "booked" => lang.pick("The line is booked.", "Die Buchung ist verbucht."),
            "ignored" => lang.pick("The line is ignored.", "Die Buchung wird ignoriert."),
            _ => lang.pick(
                "Undone by counter-postings.",
                "Durch Gegenbuchungen rückgängig gemacht.",
            ),
        });
    let differences = [
        (
            "open".to_string(),
            lang.pick("Leave the difference open", "Differenz offen lassen")
                .to_string(),
        ),
        (
            "fees".to_string(),
            lang.pick("Book the difference to fees", "Differenz als Gebühr buchen")
                .to_string(),
        ),
        (
            "discount".to_string(),
            lang.pick(
                "Book the difference as a discount",
                "Differenz als Skonto buchen",
            )
            .to_string(),
        ),
    ];
    let mut accounts = vec![
        (
            "fees".to_string(),
            lang.pick("Bank fees", "Bankgebühren").to_string(),
        ),
        (
            "interest".to_string(),
            lang.pick("Interest", "Zinsen").to_string(),
        ),
        (
            "tax".to_string(),
            lang.pick("Tax office", "Finanzamt").to_string(),
        ),
        (
            "transfer".to_string(),
            lang.pick(
                "Transfer between own accounts",
                "Umbuchung zwischen eigenen Konten",
            )
            .to_string(),
        ),
        (
            "other".to_string(),
            lang.pick(
                "Other (for the tax adviser)",
                "Sonstiges (für die Steuerberatung)",
            )
            .to_string(),
        ),
    ];
    if line.amount.minor > 0 {
        accounts.push((
            "credit".to_string(),
            lang.pick(
                "Keep as the customer's credit",
                "Als Guthaben des Kunden behalten",
            )
            .to_string(),
        ));
    }
    let content = html! {
        @if let Some(notice) = notice {
            p.notice role="status" { (notice) }
        }
        (form.summary(lang, problems))
        dl.particulars {
            div { dt { (lang.pick("State", "Stand")) } dd { (state_name(lang, line.state)) } }
            div { dt { (lang.pick("Amount", "Betrag")) } dd { (money(lang, &line.amount)) } }
            div { dt { (lang.pick("Booked", "Gebucht")) } dd { (line.booked_on.map(|d| locale::date(lang, d)).unwrap_or_default()) } }
            div { dt { (lang.pick("Value date", "Wertstellung")) } dd { (line.value_on.map(|d| locale::date(lang, d)).unwrap_or_default()) } }
            div { dt { (lang.pick("Counterparty", "Gegenseite")) } dd { (line.counterparty.name.clone().unwrap_or_default()) } }
            div { dt { "IBAN" } dd { (line.counterparty.iban.clone().unwrap_or_default()) } }
            div { dt { (lang.pick("Remittance", "Verwendungszweck")) } dd { (line.remittance) } }
            div { dt { (lang.pick("End-to-end id", "Ende-zu-Ende-Referenz")) } dd { (line.end_to_end_id.clone().unwrap_or_default()) } }
            @if let Some(reason) = &line.return_reason {
                div { dt { (lang.pick("Returned", "Zurückgegeben")) } dd { (reason) } }
            }
            @if let Some(reason) = &line.ignored_reason {
                div { dt { (lang.pick("Ignored because", "Ignoriert, weil")) } dd { (reason) } }
            }
            @for note in &line.notes {
                div { dt { (lang.pick("Read with a change", "Beim Einlesen geändert")) } dd { (note) } }
            }
        }
        @if !line.settlements.is_empty() {
            section aria-labelledby="settled-heading" {
                h2 #settled-heading { (lang.pick("What the line settled", "Was die Buchung ausgeglichen hat")) }
                ul {
                    @for s in &line.settlements {
                        li {
                            (s.number.clone().or_else(|| s.account.clone()).unwrap_or_default()) ": " (money(lang, &s.amount))
                            @if s.undone_at.is_some() { " (" (lang.pick("undone", "rückgängig gemacht")) ")" }
                        }
                    }
                }
            }
        }
        @if open && may_act(ctx) {
            @if !line.suggestions.is_empty() {
                section aria-labelledby="suggestions-heading" {
                    h2 #suggestions-heading { (lang.pick("Suggestions, best first", "Vorschläge, der beste zuerst")) }
                    ol {
                        @for (i, s) in line.suggestions.iter().enumerate() {
                            li {
                                p { strong { (s.number) } ": " (money(lang, &s.amount)) ". " (s.reason) }
                                form.stack method="post" action=(format!("/bank/lines/{}/confirm", line.id)) {
                                    (csrf(ctx))
                                    input type="hidden" name="suggestion" value=(i + 1);
                                    (choice(lang, &format!("difference{}", i + 1), lang.pick("Difference", "Differenz"), &differences, "open", None, &Problems::default()))
                                    button type="submit" { (lang.pick("Confirm", "Bestätigen")) " " (s.number) }
                                }
                            }
                        }
                    }
                }
            }
            section aria-labelledby="split-heading" {
                h2 #split-heading { (lang.pick("Split over documents", "Auf Belege aufteilen")) }
                (post(ctx, &format!("/bank/lines/{}/split", line.id), SPLIT.fields(lang, &|f| ctx.typed(f), problems), lang.pick("Split", "Aufteilen")))
            }
            section aria-labelledby="book-heading" {
                h2 #book-heading { (lang.pick("Book without a document", "Ohne Beleg buchen")) }
                (post(ctx, &format!("/bank/lines/{}/book", line.id), html! {
                    (choice(lang, "account", lang.pick("Account", "Konto"), &accounts, "fees", None, problems))
                    (BOOK.fields(lang, &|f| ctx.typed(f), problems))
                }, lang.pick("Book", "Buchen")))
            }
            section aria-labelledby="ignore-heading" {
                h2 #ignore-heading { (lang.pick("Ignore", "Ignorieren")) }
                (post(ctx, &format!("/bank/lines/{}/ignore", line.id), IGNORE.fields(lang, &|f| ctx.typed(f), problems), lang.pick("Ignore", "Ignorieren")))
            }
        }
        @if undoable && may_act(ctx) {
            (act_button(ctx, &format!("/bank/lines/{}/undo", line.id), lang.pick("Undo (by counter-postings)", "Rückgängig machen (durch Gegenbuchung)")))
        }
        p { a href="/bank" { (lang.pick("All lines", "Alle Buchungen")) } }
    };
    let title = format!(
        "{} {}",
        lang.pick("Bank line", "Buchung"),
        amount_of(lang, line.amount.minor, &line.amount)
    );
    Ok(screen_with(ctx, status, Screen::Bank, &title, content))
}

/// GET /bank/lines/{id}
pub fn show(ctx: &Ctx, id: &str) -> Result<Answer> {
    let line = lines::show(ctx.conn, &ctx.session.tenant, id)?;
    line_page(ctx, &line, StatusCode::OK, &CONFIRM, &Problems::default())
}

/// The line's page again after a refused act, or to it with `done`.
fn after(ctx: &Ctx, id: &str, acted: Acted<LineView>, form: &Form, done: &str) -> Result<Answer> {
    match acted {
        Acted::Done(_) => Ok(see_other(&format!("/bank/lines/{id}?done={done}"))),
        Acted::Refused(r) => {
            let line = lines::show(ctx.conn, &ctx.session.tenant, id)?;
            line_page(ctx, &line, r.status, form, &r.problems)
        }
    }
}

/// POST /bank/lines/{id}/confirm `{suggestion, differenceN}`
pub fn confirm(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let mut read = Reading::of(ctx);
    let n = read.take(
        ctx.form
            .get("suggestion")
            .and_then(|n| n.parse::<usize>().ok())
            .ok_or_else(|| Error::invalid("suggestion", Input::Missing)),
    );
    let difference = read.take(Difference::read(
        ctx.form
            .get(&format!("difference{}", n.unwrap_or(1)))
            .unwrap_or("open"),
    ));
    let checked = read.check(Ok((n.unwrap_or(1), difference.unwrap_or(Difference::Open))));
    let acted = CONFIRM.act(ctx, checked, |tx, (n, difference)| {
        acts::confirm(tx, tenant, &ctx.actor(), id, n, difference)
    })?;
    after(ctx, id, acted, &CONFIRM, "confirmed")
}

/// POST /bank/lines/{id}/split `{number1, amount1, …}`
pub fn split(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let line = lines::get(ctx.conn, tenant, id)?;
    let mut read = Reading::of(ctx);
    let mut parts = Vec::new();
    for k in 1..=4 {
        let number = ctx
            .form
            .get(&format!("number{k}"))
            .map(str::trim)
            .unwrap_or("");
        if number.is_empty() {
            continue;
        }
        if let Some(amount) = read.amount(&format!("amount{k}"), &line.currency) {
            parts.push((number.to_string(), amount));
        }
    }
    let checked = read.check(Ok(parts));
    let acted = SPLIT.act(ctx, checked, |tx, parts| {
        acts::split(tx, tenant, &ctx.actor(), id, &parts)
    })?;
    after(ctx, id, acted, &SPLIT, "split")
}

/// POST /bank/lines/{id}/book `{account, amount}`
pub fn book(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let line = lines::get(ctx.conn, tenant, id)?;
    let mut read = Reading::of(ctx);
    let amount = match ctx.form.get("amount").map(str::trim) {
        None | Some("") => None,
        Some(_) => read.amount("amount", &line.currency),
    };
    let account = ctx.form.get("account").unwrap_or("").to_string();
    let checked = read.check(Ok((account, amount)));
    let acted = BOOK.act(ctx, checked, |tx, (account, amount)| {
        acts::book(tx, tenant, &ctx.actor(), id, &account, amount)
    })?;
    after(ctx, id, acted, &BOOK, "booked")
}

/// POST /bank/lines/{id}/ignore `{reason}`
pub fn ignore(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let reason = ctx.form.get("reason").unwrap_or("").to_string();
    let acted = IGNORE.act(ctx, Reading::of(ctx).check(Ok(reason)), |tx, reason| {
        acts::ignore(tx, tenant, &ctx.actor(), id, &reason)
    })?;
    after(ctx, id, acted, &IGNORE, "ignored")
}

/// POST /bank/lines/{id}/undo
pub fn undo(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let acted = CONFIRM.act(ctx, Reading::of(ctx).check(Ok(())), |tx, ()| {
        acts::undo(tx, tenant, &ctx.actor(), id)
    })?;
    after(ctx, id, acted, &CONFIRM, "undone")
}
