//! The received e-invoices of the Bills screen: the upload (one or many
//! files, `POST /bills/received` as multipart form data), the list of what
//! was received with its state (received, booked, refused), one received
//! invoice as a person reads it (`received::document`, in the reader's
//! language, for every syntax alike) with its verdict, the original file
//! and the attached files to download, and the person's decision: book it
//! (with a rate for another currency; despite its warnings, shown above
//! the document, only when the person ticks so; under the supplier the
//! person chooses when the one found bears another name), or refuse it
//! with a reason. Its payment terms (due date, cash discount) are shown
//! with its particulars. The
//! books' `received::receive`, `book` and `refuse` do the acts, as the
//! console's `purchase receive | book | refuse` do.

use hyper::StatusCode;
use maud::{html, Markup};

use super::context::Ctx;
use super::einvoice_view as view;
use super::form::{choice, message, sentence, Acted, Form, FormField, Problems, Reading};
use super::frame::{
    csrf, may_act, money, pager, screen, screen_with, security_headers, see_other, th, th_amount,
    Noun, Screen, Table,
};
use super::history;
use crate::access::people::Capability;
use crate::books::audit;
use crate::books::company;
use crate::books::receipts;
use crate::books::received::{
    self, BillState, BillView, Channel, Decision, Incoming, Receipt, SupplierChoice, Warning,
};
use crate::documents::Category;
use crate::error::said::Record;
use crate::error::{Error, Result, Said};
use crate::http::app::Answer;
use crate::http::screens::visit::RECEIVED_UPLOAD;
use crate::rules::locale::{self, Lang};

/// Booking: the rate, for a bill in another currency, and the VAT
/// category, for a document whose own is not on EN 16931's list.
const BOOK: Form = Form::new(&[FormField::text(
    "rate",
    "Rate (book currency per unit of the bill's)",
    "Kurs (Buchwährung je Einheit der Rechnungswährung)",
    20,
)
.hint(
    "Only for a bill in another currency",
    "Nur für eine Rechnung in anderer Währung",
)])
.naming(&[
    (
        "category",
        "VAT category to book under",
        "USt-Kategorie für die Buchung",
    ),
    (
        "acceptWarnings",
        "Book despite these warnings",
        "Trotz dieser Warnungen buchen",
    ),
    ("supplier", "Supplier", "Lieferant"),
])
.wrong_state_above();

/// Refusing: the reason, for the supplier and the history.
const REFUSE: Form =
    Form::new(&[FormField::text("reason", "Reason", "Grund", received::MAX_REASON).required()])
        .wrong_state_above();

fn state_name(lang: Lang, state: BillState) -> &'static str {
    match state {
        BillState::Received => lang.pick("to decide", "zu entscheiden"),
        BillState::Booked => lang.pick("booked", "gebucht"),
        BillState::Refused => lang.pick("refused", "abgelehnt"),
    }
}

/// The upload form and the received e-invoices, for the Bills screen.
///
/// Fails only on a storage error.
pub fn section(ctx: &Ctx) -> Result<Markup> {
    let lang = ctx.lang;
    let state = ctx.query.get("state").and_then(BillState::parse);
    let page = received::list(ctx.conn, &ctx.session.tenant, state, ctx.paging())?;
    let filter = |s: Option<BillState>, label: &str| {
        let href = match s {
            Some(s) => format!("/bills?state={}", s.as_str()),
            None => "/bills".to_string(),
        };
        html! {
            @if s == state { strong aria-current="page" { (label) } } @else { a href=(href) { (label) } }
        }
    };
    Ok(html! {
        section aria-labelledby="received-heading" {
            h2 #received-heading { (lang.pick("Received e-invoices", "Empfangene E-Rechnungen")) }
            @if may_act(ctx) {
                form.stack method="post" action=(RECEIVED_UPLOAD) enctype="multipart/form-data" {
                    (csrf(ctx))
                    div.field {
                        label for="files" { (lang.pick("E-invoices (XRechnung, Peppol UBL, ZUGFeRD/Factur-X PDF)", "E-Rechnungen (XRechnung, Peppol-UBL, ZUGFeRD/Factur-X-PDF)")) }
                        input #files type="file" name="files" multiple accept=".xml,.pdf,application/xml,text/xml,application/pdf";
                    }
                    button type="submit" { (lang.pick("Receive", "Empfangen")) }
                }
            }
            p.pages {
                (filter(None, lang.pick("all", "alle")))
                (filter(Some(BillState::Received), state_name(lang, BillState::Received)))
                (filter(Some(BillState::Booked), state_name(lang, BillState::Booked)))
                (filter(Some(BillState::Refused), state_name(lang, BillState::Refused)))
            }
            @if page.data.is_empty() {
                p { (lang.pick("No e-invoice is received here.", "Hier ist keine E-Rechnung empfangen.")) }
            } @else {
                (Table::new(&[
                    th(lang.pick("Supplier", "Lieferant")), th(lang.pick("Number", "Nummer")),
                    th(lang.pick("Issued on", "Ausgestellt am")), th(lang.pick("State", "Stand")),
                    th_amount(lang.pick("Amount due", "Zahlbetrag")),
                ])
                .read_caption(lang.pick("Received e-invoices, newest first", "Empfangene E-Rechnungen, die neuesten zuerst"))
                .rows(&page.data, |b| html! {
                    td { a href=(format!("/bills/received/{}", b.id)) { (b.figures.supplier.name) } }
                    td { (b.figures.number) }
                    td { (locale::date(lang, b.figures.issued_on)) }
                    td {
                        (state_name(lang, b.state))
                        @if !b.valid { " – " strong { (lang.pick("not a valid e-invoice", "keine gültige E-Rechnung")) } }
                    }
                    td.amount { (money(lang, &b.figures.payable)) }
                }))
                (pager(lang, &page, &|n| match state {
                    Some(s) => format!("/bills?state={}&page={n}", s.as_str()),
                    None => format!("/bills?page={n}"),
                }, Noun { en: ("received e-invoice", "received e-invoices"), de: ("empfangene E-Rechnung", "empfangene E-Rechnungen") }))
            }
        }
    })
}

/// POST /bills/received (multipart: `files`, one or many): each file
/// received, and what became of each shown.
pub fn upload(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let files: Vec<_> = ctx.files.iter().filter(|f| !f.bytes.is_empty()).collect();
    if files.is_empty() {
        return Err(Error::invalid(
            "files",
            crate::error::said::Input::NoEinvoiceFile,
        ));
    }
    let mut receipts: Vec<Receipt> = Vec::with_capacity(files.len());
    // A plain PDF or image (no e-invoice) kept to be typed: the file's
    // index and the waiting receipt's id, or why it was not kept.
    let mut kept: Vec<(usize, std::result::Result<String, String>)> = Vec::new();
    let person = ctx.session.person.email.clone();
    for file in files {
        let name = file
            .file_name
            .clone()
            .unwrap_or_else(|| "upload".to_string());
        let incoming = Incoming {
            file_name: &name,
            bytes: &file.bytes,
            channel: Channel::Upload,
            channel_ref: Some(&person),
        };
        let receipt = ctx.write(|tx| received::receive(tx, tenant, &ctx.actor(), &incoming))?;
        if receipt.state == "refused" && receipts::media_type(&file.bytes).is_some() {
            let waiting =
                ctx.write(|tx| receipts::keep_waiting(tx, tenant, &ctx.actor(), &incoming));
            kept.push((
                receipts.len(),
                match waiting {
                    Ok(id) => Ok(id),
                    Err(e @ (Error::Refused(..) | Error::Invalid(..))) => {
                        Err(sentence(ctx.lang, &e))
                    }
                    Err(e) => return Err(e),
                },
            ));
        }
        receipts.push(receipt);
    }
    let content = html! {
        ul.receipts {
            @for (n, r) in receipts.iter().enumerate() {
                li {
                    strong { (r.file) } ": "
                    @match (r.state, &r.id) {
                        ("received", Some(id)) => {
                            a href=(format!("/bills/received/{id}")) {
                                @if let Some(f) = &r.figures { (f.supplier.name) " " (f.number) }
                            }
                            " – "
                            @if r.booked { (lang.pick("received and booked", "empfangen und gebucht")) }
                            @else if r.valid { (lang.pick("received", "empfangen")) }
                            @else { (lang.pick("received, not a valid e-invoice", "empfangen, keine gültige E-Rechnung")) }
                        }
                        ("duplicate", _) => {
                            (lang.pick("not received again: ", "nicht noch einmal empfangen: "))
                            (r.refused.clone().unwrap_or_default())
                            @if let Some(first) = &r.duplicate_of {
                                " " a href=(format!("/bills/received/{first}")) { (lang.pick("the first", "die erste")) }
                            }
                        }
                        _ => {
                            @match kept.iter().find(|(i, _)| *i == n).map(|(_, k)| k) {
                                Some(Ok(waiting)) => {
                                    (lang.pick("no e-invoice; kept as a receipt: ", "keine E-Rechnung; als Beleg aufbewahrt: "))
                                    a href=(format!("/bills/new?receipt={waiting}")) { (lang.pick("type its bill", "Rechnung dazu erfassen")) }
                                }
                                Some(Err(why)) => {
                                    (lang.pick("no e-invoice, and not kept as a receipt: ", "keine E-Rechnung und nicht als Beleg aufbewahrt: ")) (why)
                                }
                                None => {
                                    (lang.pick("refused: ", "abgelehnt: ")) (r.refused.clone().unwrap_or_default())
                                }
                            }
                        }
                    }
                }
            }
        }
        p { a href="/bills" { (lang.pick("All bills", "Alle Eingangsrechnungen")) } }
    };
    Ok(screen(
        ctx,
        Screen::Bills,
        lang.pick("Received", "Empfangen"),
        content,
    ))
}

/// The page of one received bill.
fn bill_page(
    ctx: &Ctx,
    bill: &BillView,
    status: StatusCode,
    problems: (&Problems, &Problems),
) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let received = received::document(ctx.conn, tenant, &bill.id)?;
    let company = company::get(ctx.conn, &tenant.company_id)?;
    let bill = &received::with_checks(ctx.conn, tenant, &company, bill.clone(), &received)?;
    let conflict = bill.warnings.iter().find_map(|w| match w {
        Warning::Supplier { known, named, .. } => Some((known.clone(), named.clone())),
        _ => None,
    });
    let history = audit::history(ctx.conn, tenant, &bill.id)?;
    let history_section = history::section(ctx, &history)?;
    let id = &bill.id;
    let notice = ctx.notice(
        "done",
        &[
            ("booked", "The bill is booked.", "Die Rechnung ist gebucht."),
            (
                "refused",
                "The bill is refused.",
                "Die Rechnung ist abgelehnt.",
            ),
        ],
    );
    let attachment = |n: usize| format!("/bills/received/{id}/attachments/{n}");
    // A VAT category outside EN 16931's list is booked as the one a person
    // names; the books refuse the booking without it.
    let unlisted = received.document.unlisted_categories();
    let shown: Vec<String> = unlisted
        .iter()
        .map(|c| match *c {
            "" => lang.pick("none given", "keine angegeben").to_string(),
            c => format!("{c:?}"),
        })
        .collect();
    let unlisted_hint = format!(
        "{} {}",
        lang.pick(
            "The document's VAT category:",
            "USt-Kategorie des Dokuments:"
        ),
        shown.join(", ")
    );
    let mut categories = vec![(
        String::new(),
        lang.pick("Choose …", "Bitte wählen …").to_string(),
    )];
    categories.extend(Category::ALL.iter().map(|c| {
        (
            c.code().to_string(),
            format!("{} – {}", c.code(), view::category(lang, c)),
        )
    }));
    let content = html! {
        @if let Some(notice) = notice { p.notice role="status" { (notice) } }
        @if !bill.valid {
            div.problem role="alert" {
                p { strong { (lang.pick("Not a valid e-invoice.", "Keine gültige E-Rechnung.")) } " "
                    (lang.pick("Book it as it is, or refuse it and ask the supplier for a correct one.", "Buchen Sie sie wie sie ist, oder lehnen Sie sie ab und bitten Sie den Lieferanten um eine korrekte.")) }
            }
        }
        @if !bill.warnings.is_empty() {
            div.problem role="alert" {
                p { strong { (lang.pick("Check before booking:", "Vor dem Buchen prüfen:")) } }
                ul.warnings {
                    @for w in &bill.warnings { li { (w.sentence(lang)) } }
                }
            }
        }
        dl.particulars {
            div { dt { (lang.pick("State", "Stand")) } dd { (state_name(lang, bill.state)) } }
            @if let Some(terms) = &bill.terms {
                @if let Some(due) = terms.due_on {
                    div { dt { (lang.pick("Due on", "Fällig am")) } dd { (locale::date(lang, due)) " (" (terms.due_from.unwrap_or_default()) ")" } }
                }
                @if let (Some(until), Some(percent)) = (terms.discount_until, &terms.discount_percent) {
                    div { dt { (lang.pick("Cash discount", "Skonto")) } dd {
                        (locale::decimal(lang, percent)) " % " (lang.pick("if paid by", "bei Zahlung bis")) " " (locale::date(lang, until))
                        " (" (terms.discount_from.unwrap_or_default()) ")"
                    } }
                }
            }
            @if let Some(reason) = &bill.refused {
                div { dt { (lang.pick("Reason of the refusal", "Grund der Ablehnung")) } dd lang="" { (reason) } }
            }
            div { dt { (lang.pick("Received", "Empfangen")) } dd { (history::when(lang, &history::zone(ctx)?, &bill.received_at)) " (" (bill.channel.as_str()) ")" } }
            div { dt { (lang.pick("Original file", "Originaldatei")) } dd {
                a href=(format!("/bills/received/{id}/original")) download=(bill.file) { (bill.file) }
                " (" (bill.figures.syntax.to_uppercase())
                @if let Some(inside) = &received.carried_as { ", " (inside) }
                ")"
            } }
            div { dt { "SHA-256" } dd { code { (bill.sha256) } } }
            @if bill.booked {
                div { dt { (lang.pick("Purchase", "Buchung")) } dd { a href=(format!("/bills/{id}")) { (lang.pick("Pay this bill", "Diese Rechnung bezahlen")) } } }
            }
        }
        @if !bill.findings.is_empty() {
            section aria-labelledby="findings-heading" {
                h2 #findings-heading { (lang.pick("What the check found", "Was die Prüfung fand")) }
                ul {
                    @for f in &bill.findings {
                        // Kept as the check worded it when the file came: in English.
                        li { code { (f.rule) } " " span lang="en" { (f.sentence) } }
                    }
                }
            }
        }
        (view::document(lang, &received.document, &attachment))
        @if may_act(ctx) && bill.state == BillState::Received {
            section aria-labelledby="book-heading" {
                h2 #book-heading { (lang.pick("Book", "Buchen")) }
                (BOOK.summary(lang, problems.0))
                form.stack method="post" action=(format!("/bills/received/{id}/book")) novalidate aria-labelledby="book-heading" {
                    (csrf(ctx))
                    @if bill.figures.currency.as_str() != crate::books::company::get(ctx.conn, &tenant.company_id)?.currency.as_str() {
                        (BOOK.fields(lang, &|f| ctx.typed(f), problems.0))
                    }
                    @if !unlisted.is_empty() {
                        (choice(lang, "category", &BOOK.label(lang, "category"), &categories, &ctx.typed("category"), Some(unlisted_hint.clone()), problems.0))
                    }
                    @if let Some((known, named)) = &conflict {
                        (supplier_choice(lang, known, named, &ctx.typed("supplier"), problems.0))
                    }
                    @if !bill.warnings.is_empty() {
                        (accept_box(lang, ctx.typed("acceptWarnings") == "yes", problems.0))
                    }
                    button type="submit" { (lang.pick("Book this bill", "Diese Rechnung buchen")) }
                }
            }
            section aria-labelledby="refuse-heading" {
                h2 #refuse-heading { (lang.pick("Refuse", "Ablehnen")) }
                (REFUSE.summary(lang, problems.1))
                form.stack method="post" action=(format!("/bills/received/{id}/refuse")) novalidate aria-labelledby="refuse-heading" {
                    (csrf(ctx))
                    (REFUSE.fields(lang, &|f| ctx.typed(f), problems.1))
                    button type="submit" { (lang.pick("Refuse this bill", "Diese Rechnung ablehnen")) }
                }
            }
        }
        (history_section)
        p { a href="/bills" { (lang.pick("All bills", "Alle Eingangsrechnungen")) } }
    };
    let title = format!("{} {}", bill.figures.supplier.name, bill.figures.number);
    Ok(screen_with(ctx, status, Screen::Bills, &title, content))
}

/// The checkbox that books a bill despite its warnings, its refusal
/// beside it.
fn accept_box(lang: Lang, checked: bool, problems: &Problems) -> Markup {
    let wrong = problems.of_field("acceptWarnings");
    html! {
        div.field.wrong[!wrong.is_empty()] {
            div {
                input #field-acceptWarnings type="checkbox" name="acceptWarnings" value="yes" checked[checked]
                    aria-invalid=[(!wrong.is_empty()).then_some("true")]
                    aria-describedby=[(!wrong.is_empty()).then_some("field-acceptWarnings-error")];
                label for="field-acceptWarnings" { (lang.pick("book despite these warnings", "trotz dieser Warnungen buchen")) }
            }
            @if !wrong.is_empty() {
                p.error #field-acceptWarnings-error { @for v in &wrong { (message(lang, v)) " " } }
            }
        }
    }
}

/// The choice of the supplier when the one found bears another name than
/// the document's seller, its refusal beside it.
fn supplier_choice(
    lang: Lang,
    known: &str,
    named: &str,
    chosen: &str,
    problems: &Problems,
) -> Markup {
    let wrong = problems.of_field("supplier");
    let options = [
        (
            SupplierChoice::Existing,
            lang.pick(
                "Book under the existing supplier",
                "Beim vorhandenen Lieferanten buchen",
            ),
            known,
        ),
        (
            SupplierChoice::New,
            lang.pick("Book as a new supplier", "Als neuen Lieferanten buchen"),
            named,
        ),
    ];
    html! {
        fieldset.choices.wrong[!wrong.is_empty()] aria-describedby=[(!wrong.is_empty()).then_some("field-supplier-error")] {
            legend { (lang.pick("Supplier", "Lieferant")) }
            @for (value, text, name) in options {
                div {
                    input id=(format!("field-supplier-{}", value.as_str())) type="radio" name="supplier"
                        value=(value.as_str()) checked[chosen == value.as_str()];
                    label for=(format!("field-supplier-{}", value.as_str())) { (text) ": " (name) }
                }
            }
            @if !wrong.is_empty() {
                p.error #field-supplier-error { @for v in &wrong { (message(lang, v)) " " } }
            }
        }
    }
}

/// GET /bills/received/{id}
pub fn show(ctx: &Ctx, id: &str) -> Result<Answer> {
    let bill = received::get(ctx.conn, &ctx.session.tenant, id)?;
    let none = Problems::default();
    bill_page(ctx, &bill, StatusCode::OK, (&none, &none))
}

pub(super) fn download(body: Vec<u8>, media_type: &str, file_name: &str) -> Answer {
    let safe: String = file_name
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() && c != '"' && c != '\\' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let mut headers = vec![
        ("Content-Type", media_type.to_string()),
        (
            "Content-Disposition",
            format!("attachment; filename=\"{safe}\""),
        ),
    ];
    security_headers(&mut headers);
    Answer {
        status: StatusCode::OK,
        headers,
        body,
        key_id: None,
    }
}

/// GET /bills/received/{id}/original: the file exactly as it arrived.
pub fn original(ctx: &Ctx, id: &str) -> Result<Answer> {
    let kept = received::original(ctx.conn, &ctx.session.tenant, id)?;
    Ok(download(kept.bytes, kept.media_type, &kept.file_name))
}

/// GET /bills/received/{id}/attachments/{n}: an attached file (BG-24, or
/// another file the PDF embeds), as a download.
pub fn attachment(ctx: &Ctx, id: &str, n: &str) -> Result<Answer> {
    let received = received::document(ctx.conn, &ctx.session.tenant, id)?;
    let file = n
        .parse::<usize>()
        .ok()
        .and_then(|n| received.document.attachments.get(n))
        .and_then(|a| a.file.as_ref())
        .ok_or_else(|| {
            Error::not_found(Said::RecordOf(
                Record::Attachment,
                n.to_string(),
                Record::Bill,
                id.to_string(),
            ))
        })?;
    // Never shown inline: an attached file is the supplier's, not ours.
    Ok(download(
        file.bytes.clone(),
        "application/octet-stream",
        &file.name,
    ))
}

/// POST /bills/received/{id}/book `{rate}`
pub fn book(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let bill = received::get(ctx.conn, tenant, id)?;
    let mut read = Reading::of(ctx);
    let rate = read.optional_decimal("rate");
    let category = match ctx.form.get("category").map(str::trim) {
        None | Some("") => None,
        Some(code) => read.take(Category::named("category", code)),
    };
    let supplier = match ctx.form.get("supplier").map(str::trim) {
        None | Some("") => None,
        Some(s) => read.take(
            SupplierChoice::parse(s)
                .ok_or_else(|| Error::invalid("supplier", SupplierChoice::not_one_of(s))),
        ),
    };
    let decision = Decision {
        accept_warnings: ctx.form.get("acceptWarnings") == Some("yes"),
        supplier,
    };
    let checked = read.check(Ok((rate, category)));
    let booked = BOOK.act(ctx, checked, |tx, (rate, category)| {
        received::book(
            tx,
            tenant,
            &ctx.actor(),
            id,
            rate,
            category.as_ref(),
            &decision,
        )
        .map(|_| ())
    })?;
    match booked {
        Acted::Done(()) => Ok(see_other(&format!("/bills/received/{id}?done=booked"))),
        Acted::Refused(r) => bill_page(ctx, &bill, r.status, (&r.problems, &Problems::default())),
    }
}

/// POST /bills/received/{id}/refuse `{reason}`
pub fn refuse(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let bill = received::get(ctx.conn, tenant, id)?;
    let reason = ctx.form.get("reason").unwrap_or_default().to_string();
    let checked = Reading::of(ctx).check(Ok(reason));
    let refused = REFUSE.act(ctx, checked, |tx, reason| {
        received::refuse(tx, tenant, &ctx.actor(), id, &reason).map(|_| ())
    })?;
    match refused {
        Acted::Done(()) => Ok(see_other(&format!("/bills/received/{id}?done=refused"))),
        Acted::Refused(r) => bill_page(ctx, &bill, r.status, (&Problems::default(), &r.problems)),
    }
}
