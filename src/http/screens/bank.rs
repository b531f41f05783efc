//! The Bank screen: statement files uploaded (as `bank import` imports
//! them, each file its own transaction) and the lines by state with a
//! search, grouped by their statement: its bank account, its opening and
//! closing balances, each line's running balance. A line's page is
//! `bank_line.rs`'. The books' `bank::import::file` does the work and
//! writes the audit naming the person.

use hyper::StatusCode;
use maud::html;

use super::context::Ctx;
use super::form::{search_form, FormField, Problems};
use super::frame::{csrf, may_act, money, screen, screen_with, th, th_amount, Screen, Table};
use super::visit::STATEMENT_UPLOAD;
use crate::access::people::Capability;
use crate::books::bank::balances;
use crate::books::bank::import::{self, FileReport};
use crate::books::bank::lines::{self, Filter, LineView, State};
use crate::error::said::Input;
use crate::error::{Error, Result};
use crate::http::app::Answer;
use crate::rules::catalogue::Reader;
use crate::rules::locale::{self, Lang};

/// The states a person filters by, with their names.
const STATES: [(State, &str, &str); 5] = [
    (State::Unmatched, "Unmatched", "Nicht zugeordnet"),
    (State::Suggested, "Suggested", "Vorgeschlagen"),
    (State::Settled, "Settled", "Ausgeglichen"),
    (State::Ignored, "Ignored", "Ignoriert"),
    (State::Preliminary, "Preliminary", "Vorgemerkt"),
];

/// A line's state as a person reads it.
pub fn state_name(lang: Lang, state: State) -> &'static str {
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

/// A statement's balance and its day, as the bank gave them.
fn balance(
    lang: Lang,
    amount: Option<i64>,
    on: Option<jiff::civil::Date>,
    currency: &crate::rules::iso::Currency,
) -> String {
    match (amount, on) {
        (Some(a), Some(d)) => format!(
            "{} ({})",
            locale::amount(lang, a, currency),
            locale::date(lang, d)
        ),
        (Some(a), None) => locale::amount(lang, a, currency),
        (None, _) => lang.pick("not given", "nicht angegeben").to_string(),
    }
}

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
    let ids: Vec<String> = shown.iter().map(|l| l.id.clone()).collect();
    let standing = balances::of_lines(ctx.conn, tenant, &ids)?;
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
            @for statement in &standing.statements {
                @let rows: Vec<&LineView> = shown.iter().filter(|l| standing.lines.get(&l.id).is_some_and(|(s, _)| *s == statement.id)).collect();
                @let heading = format!("{} · {} · {} {}", statement.account.name, statement.account.shown(), lang.pick("statement", "Kontoauszug"), statement.statement_id);
                section aria-label=(heading) {
                    h2 { (heading) }
                    p.legend {
                        (lang.pick("Opening balance", "Anfangssaldo")) ": "
                        (balance(lang, statement.opening, statement.opening_on, &statement.account.currency))
                        " · " (lang.pick("Closing balance", "Schlusssaldo")) ": "
                        (balance(lang, statement.closing, statement.closing_on, &statement.account.currency))
                    }
                    (Table::new(&[
                        th(lang.pick("Booked", "Gebucht")), th(lang.pick("Counterparty", "Gegenseite")),
                        th(lang.pick("Remittance", "Verwendungszweck")), th(lang.pick("State", "Stand")),
                        th_amount(lang.pick("Amount", "Betrag")), th_amount(lang.pick("Balance", "Saldo")),
                    ])
                    .read_caption(&heading)
                    .rows(rows, |l| html! {
                        td { a href=(format!("/bank/lines/{}", l.id)) { (l.booked_on.or(l.value_on).map(|d| locale::date(lang, d)).unwrap_or_else(|| lang.pick("undated", "ohne Datum").to_string())) } }
                        td { (l.counterparty.name.clone().unwrap_or_default()) }
                        td { (l.remittance) }
                        td { (state_name(lang, l.state)) }
                        td.amount { (money(lang, &l.amount)) }
                        td.amount {
                            @if let Some((_, Some(after))) = standing.lines.get(&l.id) {
                                (locale::amount(lang, *after, &l.amount.currency))
                            }
                        }
                    }))
                }
            }
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
                refusal => Ok(FileReport::refused(&name, &refusal, Reader::screens(lang))),
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
                p.notice { (note.text(Reader::screens(lang))) }
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
