//! A draft's page: its particulars, lines (with the ways to change and
//! remove each), its figures as issuing it now would freeze them, the form
//! of a new line, its references (set here, as `draft set` sets them), the
//! preview of its PDF (shown in the page, never stored), the way to issue
//! it, and its history.

use hyper::StatusCode;
use maud::{html, Markup};

use super::fields::{
    kind_name, percent, BUYER_REFERENCE, DRAFT, ORDER_REFERENCE, PERIOD_FROM, PERIOD_TO,
};
use super::line_fields::{line_fields, unit_label};
use crate::access::people::Capability;
use crate::books::audit;
use crate::books::customers;
use crate::books::drafts::{
    self, DraftKind, DraftLine, DraftState, DraftView, Figures, ReferencesChange, ReferencesInput,
};
use crate::documents::Category;
use crate::error::said::Input;
use crate::error::{Error, Result, Said};
use crate::http::app::Answer;
use crate::http::query;
use crate::http::screens::context::Ctx;
use crate::http::screens::form::{post, required_note, sentence, Acted, Problems, Reading};
use crate::http::screens::frame::{
    csrf, embedding_own_pdfs, may_act, own_pdf, screen_with, see_other, Screen,
};
use crate::http::screens::history;
use crate::rules::catalogue::Reader;
use crate::rules::locale::{self, Lang};
use crate::rules::text::Patch;

/// What a refused form of the draft's page brings back: which form, what
/// was typed, and what to fix.
pub struct RefusedForm<'a> {
    pub form: &'static str,
    pub typed: &'a dyn Fn(&str) -> String,
    pub problems: Problems,
}

/// The form of the draft's references, as `draft set` sets them.
fn references_form(
    ctx: &Ctx,
    draft: &DraftView,
    value: &dyn Fn(&str) -> String,
    problems: &Problems,
) -> Markup {
    let lang = ctx.lang;
    let (buyer, order, from, to) = (
        value("buyerReference"),
        value("orderReference"),
        value("periodFrom"),
        value("periodTo"),
    );
    let customers_own = customers::get(ctx.conn, &ctx.session.tenant, &draft.customer_id)
        .ok()
        .and_then(|c| c.buyer_reference);
    let buyer_hint = match (lang, customers_own) {
        (Lang::En, Some(r)) => format!("Empty: the customer's, {r}"),
        (Lang::De, Some(r)) => format!("Leer: die des Kunden, {r}"),
        (_, None) => lang
            .pick(
                "Such as a Leitweg-ID; empty: none",
                "Etwa eine Leitweg-ID; leer: keine",
            )
            .to_string(),
    };
    html! {
        (post(ctx, &format!("/drafts/{}/references", draft.id), html! {
            (BUYER_REFERENCE.render_hinted(lang, &buyer, Some(buyer_hint), problems))
            (ORDER_REFERENCE.render(lang, &order, problems))
            (PERIOD_FROM.render(lang, &from, problems))
            (PERIOD_TO.render(lang, &to, problems))
        }, lang.pick("Save references", "Referenzen speichern")))
    }
}

/// The figures as issuing now would freeze them: net per rate, VAT, total.
pub fn figures_section(lang: Lang, figures: &Result<Figures>) -> Markup {
    html! {
        section aria-labelledby="figures-heading" {
            h2 #figures-heading { (lang.pick("Figures", "Beträge")) }
            @match figures {
                Err(e) => p.problem { (sentence(lang, e)) },
                Ok(f) => {
                    @let currency = &f.currency;
                    table #figures {
                        caption.visually-hidden { (lang.pick("Net per rate, VAT and total", "Netto je Steuersatz, Umsatzsteuer und Gesamtbetrag")) }
                        thead {
                            tr {
                                th scope="col" { (lang.pick("Tax", "Steuer")) }
                                th.amount scope="col" { (lang.pick("Net", "Netto")) }
                                th.amount scope="col" { (lang.pick("Tax amount", "Steuerbetrag")) }
                            }
                        }
                        tbody {
                            @for t in &f.totals.taxes {
                                tr {
                                    th scope="row" {
                                        (t.name) " " (percent(lang, &t.rate))
                                        @if let Some(c) = t.category.filter(|c| *c != "S") { " (" (c) ")" }
                                    }
                                    td.amount { (locale::amount(lang, t.base, currency)) }
                                    td.amount { (locale::amount(lang, t.amount, currency)) }
                                }
                            }
                            @let untaxed: i64 = f.totals.line_nets.iter().zip(&f.lines).filter(|(_, l)| l.taxes.is_empty()).map(|(n, _)| *n).sum();
                            @if untaxed != 0 {
                                tr {
                                    th scope="row" { (lang.pick("Without a tax decision", "Ohne Steuerentscheidung")) }
                                    td.amount { (locale::amount(lang, untaxed, currency)) }
                                    td.amount { "–" }
                                }
                            }
                        }
                        tfoot {
                            tr #figure-net { th scope="row" { (lang.pick("Net total", "Nettosumme")) } td.amount { (locale::amount(lang, f.totals.net, currency)) } td {} }
                            tr #figure-tax { th scope="row" { (lang.pick("VAT", "Umsatzsteuer")) } td {} td.amount { (locale::amount(lang, f.totals.tax, currency)) } }
                            tr #figure-gross { th scope="row" { (lang.pick("Total", "Gesamtbetrag")) } td {} td.amount { strong { (locale::amount(lang, f.totals.gross, currency)) } } }
                        }
                    }
                    @let undecided = f.undecided();
                    @if !undecided.is_empty() {
                        div.problem {
                            p { (lang.pick("Issuing would refuse these lines as they stand:", "Die Ausstellung würde diese Positionen so ablehnen:")) }
                            ul {
                                @for (n, why) in &undecided {
                                    li { (DRAFT.label(lang, &format!("lines[{}]", n - 1))) ": " (why.text(Reader::screens(lang))) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The line's VAT as the table shows it.
fn line_vat(
    lang: Lang,
    line: &DraftLine,
    vat: Option<&std::result::Result<Option<drafts::LineVat>, Said>>,
) -> Markup {
    html! {
        @match vat {
            Some(Ok(Some(v))) => {
                (percent(lang, &v.rate))
                @if v.category != Category::S { " (" (v.category.code()) ")" }
            }
            Some(Ok(None)) => {
                @for (i, t) in line.taxes.iter().enumerate() {
                    @if i > 0 { ", " }
                    (t.name) " " (percent(lang, &t.rate))
                }
            }
            // Its VAT refused, or the draft's figures not computed at all.
            _ => span.error { (lang.pick("undecided", "offen")) }
        }
    }
}

/// The page of one draft: particulars, lines, figures, the form of a new
/// line, references, the PDF preview, the way to issue, the history.
pub fn draft_page(
    ctx: &Ctx,
    id: &str,
    status: StatusCode,
    refused: Option<RefusedForm>,
) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let draft = drafts::get(ctx.conn, tenant, id)?;
    let figures = drafts::figures(ctx.conn, tenant, id);
    let history = audit::history(ctx.conn, tenant, id)?;
    let history_section = history::section(ctx, &history)?;
    let open = draft.state == DraftState::Draft;
    let acts = may_act(ctx) && open;
    let invoice = draft.document_type == DraftKind::Invoice;
    let own = drafts::own_references(ctx.conn, tenant, id)?;
    let empty = Problems::default();
    let problems_of = |form: &str| match &refused {
        Some(r) if r.form == form => &r.problems,
        _ => &empty,
    };
    let stored_reference = |f: &str| match f {
        "buyerReference" => own.buyer_reference.clone().unwrap_or_default(),
        "orderReference" => own.order_reference.clone().unwrap_or_default(),
        "periodFrom" => own.period.map(|p| p.from.to_string()).unwrap_or_default(),
        "periodTo" => own.period.map(|p| p.to.to_string()).unwrap_or_default(),
        _ => String::new(),
    };
    let nothing = |_: &str| String::new();
    let typed_in = |form: &str| -> &dyn Fn(&str) -> String {
        match &refused {
            Some(r) if r.form == form => r.typed,
            _ if form == "references" => &stored_reference,
            _ => &nothing,
        }
    };
    let notice = ctx
        .notice(
            "done",
            &[
                (
                    "created",
                    "The draft is created.",
                    "Der Entwurf ist angelegt.",
                ),
                (
                    "line-added",
                    "The line is added.",
                    "Die Position ist hinzugefügt.",
                ),
                (
                    "line-changed",
                    "The line is changed.",
                    "Die Position ist geändert.",
                ),
                (
                    "line-removed",
                    "The line is removed.",
                    "Die Position ist entfernt.",
                ),
                (
                    "references",
                    "The references are saved.",
                    "Die Referenzen sind gespeichert.",
                ),
            ],
        )
        .filter(|_| refused.is_none());
    let vats = figures.as_ref().ok().map(|f| f.vats.as_slice());
    let nets: Vec<Option<i64>> = match &figures {
        Ok(f) => f.totals.line_nets.iter().copied().map(Some).collect(),
        Err(_) => vec![None; draft.lines.len()],
    };
    let previewable = matches!(&figures, Ok(f) if !f.lines.is_empty() && f.undecided().is_empty());
    let preview = format!("/drafts/{}/preview.pdf", draft.id);
    let content = html! {
        @if !open {
            div.notice role="status" {
                p {
                    (lang.pick("This draft was issued as invoice ", "Dieser Entwurf wurde ausgestellt als Rechnung "))
                    strong #invoice-number { (draft.number) } "."
                }
                p { a href=(format!("/invoices/{}", query::percent_encode(&draft.number))) { (lang.pick("To the invoice ", "Zur Rechnung ")) (draft.number) } }
            }
        }
        @if let Some(notice) = &notice {
            p.notice role="status" { (notice) }
        }
        dl.particulars {
            div { dt { (lang.pick("Customer", "Kunde")) } dd { a href=(format!("/customers/{}", draft.customer_id)) { (draft.customer) } } }
            div { dt { (lang.pick("Kind", "Art")) } dd { (kind_name(lang, draft.document_type)) } }
            div { dt { (lang.pick("Currency", "Währung")) } dd { (draft.currency.as_str()) } }
            @if open {
                div { dt { (lang.pick("Number if issued now", "Nummer bei Ausstellung jetzt")) } dd { (draft.number) } }
                div { dt { (lang.pick("Due if issued today", "Fällig bei Ausstellung heute")) } dd { (locale::date(lang, draft.due_on)) } }
            } @else {
                div { dt { (lang.pick("Issued on", "Ausgestellt am")) } dd { (locale::date(lang, draft.issued_on)) } }
                div { dt { (lang.pick("Due on", "Fällig am")) } dd { (locale::date(lang, draft.due_on)) } }
            }
        }
        section #lines aria-labelledby="lines-heading" {
            h2 #lines-heading { (lang.pick("Lines", "Positionen")) }
            @if draft.lines.is_empty() {
                p { (lang.pick("No line yet.", "Noch keine Position.")) }
            } @else {
                table {
                    caption.visually-hidden { (lang.pick("The draft's lines", "Die Positionen des Entwurfs")) }
                    thead {
                        tr {
                            th.amount scope="col" { (lang.pick("No.", "Pos.")) }
                            th scope="col" { (DRAFT.label(lang, "description")) }
                            th.amount scope="col" { (DRAFT.label(lang, "quantity")) }
                            th scope="col" { (DRAFT.label(lang, "unit")) }
                            th.amount scope="col" { (DRAFT.label(lang, "unitPrice")) }
                            th scope="col" { (lang.pick("VAT", "USt")) }
                            th.amount scope="col" { (lang.pick("Net", "Netto")) }
                            @if acts { th scope="col" { (lang.pick("Change", "Ändern")) } }
                        }
                    }
                    tbody {
                        @for (i, line) in draft.lines.iter().enumerate() {
                            tr {
                                td.amount { (i + 1) }
                                td { (line.description) }
                                td.amount { (locale::decimal(lang, &line.quantity)) }
                                td { (unit_label(lang, &line.unit)) }
                                td.amount { (locale::amount(lang, line.unit_price_minor, &draft.currency)) }
                                td { (line_vat(lang, line, vats.and_then(|v| v.get(i)))) }
                                td.amount { @if let Some(net) = nets[i] { (locale::amount(lang, net, &draft.currency)) } }
                                @if acts {
                                    td {
                                        a href=(format!("/drafts/{}/lines/{}", draft.id, i + 1)) {
                                            (lang.pick("Change", "Ändern")) span.visually-hidden { " " (DRAFT.label(lang, &format!("lines[{i}]"))) }
                                        }
                                        form method="post" action=(format!("/drafts/{}/lines/{}/remove", draft.id, i + 1)) {
                                            (csrf(ctx))
                                            button type="submit" {
                                                (lang.pick("Remove", "Entfernen")) span.visually-hidden { " " (DRAFT.label(lang, &format!("lines[{i}]"))) }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        (figures_section(lang, &figures))
        @if acts {
            section aria-labelledby="add-heading" {
                h2 #add-heading { (lang.pick("Add a line", "Position hinzufügen")) }
                @let problems = problems_of("line");
                (DRAFT.summary(lang, problems))
                (post(ctx, &format!("/drafts/{}/lines", draft.id), html! {
                    (required_note(lang))
                    (line_fields(ctx, &draft.currency, typed_in("line"), problems))
                }, lang.pick("Add line", "Position hinzufügen")))
            }
        }
        section aria-labelledby="references-heading" {
            h2 #references-heading { (lang.pick("References", "Referenzen")) }
            @if acts {
                @let problems = problems_of("references");
                (DRAFT.summary(lang, problems))
                (references_form(ctx, &draft, typed_in("references"), problems))
            } @else {
                dl.particulars {
                    div { dt { (DRAFT.label(lang, "buyerReference")) } dd { (draft.buyer_reference.as_deref().unwrap_or("–")) } }
                    div { dt { (DRAFT.label(lang, "orderReference")) } dd { (draft.order_reference.as_deref().unwrap_or("–")) } }
                    div { dt { (lang.pick("Period", "Leistungszeitraum")) } dd {
                        @match draft.period {
                            Some(p) => { (locale::date(lang, p.from)) " – " (locale::date(lang, p.to)) }
                            None => "–",
                        }
                    } }
                }
            }
        }
        @if open && invoice {
            section aria-labelledby="preview-heading" {
                h2 #preview-heading { (lang.pick("Preview of the PDF", "Vorschau des PDF")) }
                @if previewable {
                    p {
                        (lang.pick(
                            "The invoice as it would read if issued today, marked as a draft, without a number; it is not stored and is no e-invoice. ",
                            "Die Rechnung, wie sie bei Ausstellung heute aussähe, als Entwurf markiert, ohne Nummer; sie wird nicht gespeichert und ist keine E-Rechnung. ",
                        ))
                        a #preview-link href=(preview) { (lang.pick("Open the preview (PDF)", "Vorschau öffnen (PDF)")) }
                    }
                    object.preview data=(preview) type="application/pdf" width="100%" height="600"
                        aria-label=(lang.pick("Preview of the draft's PDF", "Vorschau des PDF des Entwurfs")) {
                        // Where the browser shows no PDF: the link above, not a second one.
                        p { (lang.pick(
                            "This browser shows no PDF within the page; the link above opens it.",
                            "Dieser Browser zeigt kein PDF in der Seite; der Link oben öffnet es.",
                        )) }
                    }
                } @else {
                    p { (lang.pick(
                        "The preview appears once the draft has lines and each states its tax.",
                        "Die Vorschau erscheint, sobald der Entwurf Positionen hat und jede ihre Steuer angibt.",
                    )) }
                }
            }
            @if acts {
                p { a.button href=(format!("/drafts/{}/issue", draft.id)) { (lang.pick("Issue…", "Ausstellen…")) } }
            }
        }
        @if open && !invoice {
            p { (lang.pick("A quote is not issued as an invoice.", "Ein Angebot wird nicht als Rechnung ausgestellt.")) }
        }
        (history_section)
        p { a href="/drafts" { (lang.pick("All drafts", "Alle Entwürfe")) } }
    };
    let title = match lang {
        Lang::En => format!("Draft for {}", draft.customer),
        Lang::De => format!("Entwurf für {}", draft.customer),
    };
    let answer = screen_with(ctx, status, Screen::Drafts, &title, content);
    Ok(if previewable && open {
        embedding_own_pdfs(answer)
    } else {
        answer
    })
}

/// GET /drafts/{id}
pub fn show(ctx: &Ctx, id: &str) -> Result<Answer> {
    draft_page(ctx, id, StatusCode::OK, None)
}

/// GET /drafts/{id}/preview.pdf: the draft through the documents' model,
/// marked as a draft, never stored.
pub fn preview_pdf(ctx: &Ctx, id: &str) -> Result<Answer> {
    let pdf = crate::books::invoices::preview::draft_preview(ctx.conn, &ctx.session.tenant, id)?;
    Ok(own_pdf(pdf, &format!("draft-{id}.pdf")))
}

/// POST /drafts/{id}/references `{buyerReference, orderReference,
/// periodFrom, periodTo}`: as `draft set` sets them; a field sent empty is
/// cleared (a cleared buyer reference is the customer's again).
pub fn set_references(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    drafts::get(ctx.conn, tenant, id)?;
    let mut read = Reading::of(ctx);
    let from = ctx.form.sent("periodFrom").map(str::trim).unwrap_or("");
    let to = ctx.form.sent("periodTo").map(str::trim).unwrap_or("");
    let period = match (from.is_empty(), to.is_empty()) {
        (true, true) if ctx.form.sent("periodFrom").is_some() => Patch::Null,
        (true, true) => Patch::Absent,
        (false, false) => Patch::Value(format!("{from}..{to}")),
        (true, false) => {
            read.note(Error::invalid("periodFrom", Input::PeriodDayMissing));
            Patch::Absent
        }
        (false, true) => {
            read.note(Error::invalid("periodTo", Input::PeriodDayMissing));
            Patch::Absent
        }
    };
    let checked = read.check(ReferencesChange::check(ReferencesInput {
        buyer_reference: ctx.patch("buyerReference"),
        order_reference: ctx.patch("orderReference"),
        period,
    }));
    let set = DRAFT.act(ctx, checked, |tx, change| {
        drafts::set_references(tx, tenant, &ctx.actor(), id, change)
    })?;
    match set {
        Acted::Done(()) => Ok(see_other(&format!("/drafts/{id}?done=references"))),
        Acted::Refused(r) => draft_page(
            ctx,
            id,
            r.status,
            Some(RefusedForm {
                form: "references",
                typed: &|f| ctx.typed(f),
                problems: r.problems,
            }),
        ),
    }
}
