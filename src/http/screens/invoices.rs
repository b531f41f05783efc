//! The invoices: the paged list with its status filter (the API's `OPEN`
//! and `PAID`) and search (part of the number or the customer's name), one
//! document with its figures, payments, stored documents and the history
//! of who did what, recording a payment and cancelling an invoice by a
//! correction. The payment's fields carry `payment record`'s flags
//! (`amount`, `on`, `method`, `reference`), its amount typed as a person
//! types it and read by `rules::locale::parse_amount` in the invoice's
//! currency; the cancellation asks first on a page naming the credit note's
//! number it would take now. `NewPayment::check` with
//! `settlement::pay_invoice` and `Cancellation::check` with
//! `invoices::cancel::cancel` do the rest, as the console's `payment record`
//! and `invoice cancel` do: the same ledger entries, the same events, the
//! same audit rows, naming the person.

use hyper::StatusCode;
use maud::{html, Markup};

use super::context::Ctx;
use super::form::{post, queried, search_form, Acted, Form, FormField, Problems};
use super::frame::{
    csrf, invoice_href, may_act, money, pager, screen_with, security_headers, see_other, th,
    th_amount, Noun, Screen, Table,
};
use super::history;
use super::payment::{self, PAYMENT};
use super::sending;
use crate::access::people::Capability;
use crate::books::company;
use crate::books::invoices::cancel::{self, CancelInput, Cancellation};
use crate::books::invoices::{
    self, documents, Filter, FilterInput, InvoiceView, PaymentState, Status,
};
use crate::books::payments::{self, PaymentView};
use crate::books::settlement::{self};
use crate::documents::Format;
use crate::error::Result;
use crate::http::app::Answer;
use crate::http::query;
use crate::rules::locale::{self, Lang};
use crate::store::paging::DEFAULT_SIZE;

/// The search of the list: part of the number or the customer's name.
const SEARCH: FormField = FormField::text(
    "search",
    "Search number or customer",
    "Nummer oder Kunde suchen",
    invoices::MAX_SEARCH,
)
.kind("search");

/// The cancellation's one field; a wrong state (paid, cancelled already)
/// is said above it.
const CANCEL: Form = Form::new(&[
    FormField::text("reason", "Reason", "Grund", cancel::MAX_REASON)
        .required()
        .hint("Shown on the credit note", "Steht auf der Stornorechnung"),
])
.wrong_state_above();

/// The list's address with a status, a search and a page (of `size` rows,
/// named when it is not the usual 25).
fn list_href(status: Option<&str>, search: &str, page: i64, size: i64) -> String {
    let mut out = format!("/invoices?page={page}");
    if size != DEFAULT_SIZE {
        out.push_str(&format!("&size={size}"));
    }
    if let Some(status) = status {
        out.push_str("&status=");
        out.push_str(status);
    }
    if !search.is_empty() {
        out.push_str("&search=");
        out.push_str(&query::percent_encode(search));
    }
    out
}

/// Where a document stands, for a person; overdue in bold.
fn state(lang: Lang, state: PaymentState) -> Markup {
    match state {
        PaymentState::Open => html! { (lang.pick("open", "offen")) },
        PaymentState::Overdue => html! { strong.overdue { (lang.pick("overdue", "überfällig")) } },
        PaymentState::Paid => html! { (lang.pick("paid", "bezahlt")) },
        PaymentState::Cancelled => html! { (lang.pick("cancelled", "storniert")) },
        PaymentState::Correction => html! { (lang.pick("credit note", "Stornorechnung")) },
    }
}

/// How a person reads a format's download.
fn format_name(lang: Lang, format: &str) -> &'static str {
    match format {
        "facturx" => lang.pick("PDF (Factur-X)", "PDF (Factur-X)"),
        "cii" => lang.pick("CII XML (EN 16931)", "CII-XML (EN 16931)"),
        "xrechnung" => lang.pick("XRechnung XML", "XRechnung-XML"),
        "peppol" => lang.pick("Peppol UBL XML", "Peppol-UBL-XML"),
        _ => "",
    }
}

fn title_of(lang: Lang, invoice: &InvoiceView) -> String {
    if invoice.credit_note {
        format!(
            "{} {}",
            lang.pick("Credit note", "Stornorechnung"),
            invoice.number
        )
    } else {
        format!("{} {}", lang.pick("Invoice", "Rechnung"), invoice.number)
    }
}

/// GET /invoices?status=…&search=…&page=…
pub fn list(ctx: &Ctx) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let status = ctx.query.get("status").and_then(Status::named);
    let status_param = match status {
        Some(Status::Open) => Some("OPEN"),
        Some(Status::Paid) => Some("PAID"),
        None => None,
    };
    let search = ctx.query.get("search").unwrap_or("");
    let paging = ctx.paging();
    let checked = Filter::check(FilterInput {
        status,
        search: Some(search.to_string()),
        ..FilterInput::default()
    });
    let (page, problems) =
        queried(checked.and_then(|f| invoices::list(ctx.conn, tenant, f, paging)))?;
    let tabs = [
        (None, lang.pick("All", "Alle")),
        (Some("OPEN"), lang.pick("Open", "Offen")),
        (Some("PAID"), lang.pick("Paid", "Bezahlt")),
    ];
    let content = html! {
        nav.sub aria-label=(lang.pick("Status", "Status")) {
            ul {
                @for (which, name) in tabs {
                    li {
                        @if which == status_param {
                            a href=(list_href(which, search, 0, paging.size)) aria-current="page" { (name) }
                        } @else {
                            a href=(list_href(which, search, 0, paging.size)) { (name) }
                        }
                    }
                }
            }
        }
        (search_form(lang, "/invoices", status_param.map(|s| ("status", s)).as_slice(), &SEARCH, search, &problems))
        @if let Some(page) = &page {
            @if page.data.is_empty() {
                p { (lang.pick("No invoice found.", "Keine Rechnung gefunden.")) }
            } @else {
                (Table::new(&[
                    th(lang.pick("Number", "Nummer")), th(lang.pick("Customer", "Kunde")),
                    th(lang.pick("Issued", "Ausgestellt")), th(lang.pick("Due", "Fällig")),
                    th_amount(lang.pick("Gross", "Brutto")), th_amount(lang.pick("Outstanding", "Offen")),
                    th(lang.pick("State", "Stand")),
                ])
                .read_caption(lang.pick("Invoices, newest first", "Rechnungen, die neuesten zuerst"))
                .rows(&page.data, |i| html! {
                    td { a href=(invoice_href(&i.number, "")) { (i.number) } }
                    td { (i.buyer) }
                    td { (locale::date(lang, i.issued_on)) }
                    td { (locale::date(lang, i.due_on)) }
                    td.amount { (money(lang, &i.gross)) }
                    td.amount { (money(lang, &i.outstanding)) }
                    td { (state(lang, i.payment_state)) }
                }))
                (pager(lang, page, &|n| list_href(status_param, search, n, paging.size), Noun { en: ("invoice", "invoices"), de: ("Rechnung", "Rechnungen") }))
            }
        }
    };
    Ok(screen_with(
        ctx,
        problems.query_status(),
        Screen::Invoices,
        lang.pick("Invoices", "Rechnungen"),
        content,
    ))
}

/// The page of one document: its particulars, lines, taxes and totals, its
/// payments and the payment form while it owes something, its documents,
/// the way to cancel it, and its history. `value` and `problems` are those
/// of a refused payment.
fn invoice_page(
    ctx: &Ctx,
    invoice: &InvoiceView,
    status: StatusCode,
    value: &dyn Fn(&str) -> String,
    problems: &Problems,
) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    // The invoice's own words (its payment terms) are in its document's language.
    let document_lang =
        Lang::of_seller(company::get(ctx.conn, &tenant.company_id)?.country.as_str());
    let payments: Vec<(PaymentView, bool)> =
        settlement::invoice_payments(ctx.conn, tenant, &invoice.id)?
            .into_iter()
            .map(|p| {
                let from_bank = payments::recorded(ctx.conn, tenant, &p.id)?
                    .bank_line_id
                    .is_some();
                Ok((p, from_bank))
            })
            .collect::<Result<_>>()?;
    let entries = invoices::history(ctx.conn, tenant, &invoice.number)?;
    let notice = match ctx.query.get("done") {
        _ if !problems.list.is_empty() => None,
        Some("issued") => Some(match lang {
            Lang::En => format!("The invoice is issued with the number {}.", invoice.number),
            Lang::De => format!(
                "Die Rechnung ist ausgestellt mit der Nummer {}.",
                invoice.number
            ),
        }),
        Some("paid") => Some(
            lang.pick("The payment is recorded.", "Die Zahlung ist erfasst.")
                .to_string(),
        ),
        Some("reversed") => Some(
            lang.pick(
                "The payment is taken back.",
                "Die Zahlung ist zurückgenommen.",
            )
            .to_string(),
        ),
        Some("sent") => Some(
            lang.pick(
                "The invoice is on its way by e-mail; its state shows below.",
                "Die Rechnung ist per E-Mail unterwegs; ihr Stand steht unten.",
            )
            .to_string(),
        ),
        Some("cancelled") => invoice.corrects.as_ref().map(|original| match lang {
            Lang::En => format!(
                "{original} is cancelled; this credit note {} reverses it.",
                invoice.number
            ),
            Lang::De => format!(
                "{original} ist storniert; diese Stornorechnung {} hebt sie auf.",
                invoice.number
            ),
        }),
        _ => None,
    };
    let detail = invoice.detail.as_ref();
    let takes_payments =
        !invoice.credit_note && !invoice.cancelled && invoice.outstanding.minor > 0;
    let currency_hint = match lang {
        Lang::En => format!(
            "Such as 1,234.56; outstanding {}",
            money(lang, &invoice.outstanding)
        ),
        Lang::De => format!("Etwa 1.234,56; offen {}", money(lang, &invoice.outstanding)),
    };
    let content = html! {
        @if let Some(notice) = &notice {
            p.notice role="status" { (notice) }
        }
        dl.particulars {
            div { dt { (lang.pick("Customer", "Kunde")) } dd { a href=(format!("/customers/{}", invoice.customer_id)) { (invoice.buyer) } } }
            @if let Some(d) = detail {
                div { dt { (lang.pick("Address", "Anschrift")) } dd {
                    (d.buyer_address.street) ", " (d.buyer_address.postal_code) " " (d.buyer_address.city) ", " (d.buyer_address.country)
                } }
                @if let Some(vat) = &d.buyer_vat_id {
                    div { dt { (lang.pick("Customer's VAT id", "USt-IdNr. des Kunden")) } dd { (vat) } }
                }
            }
            div { dt { (lang.pick("Issued on", "Ausgestellt am")) } dd { (locale::date(lang, invoice.issued_on)) } }
            div { dt { (lang.pick("Delivered on", "Geliefert am")) } dd { (locale::date(lang, invoice.delivered_on)) } }
            @if !invoice.credit_note {
                div { dt { (lang.pick("Due on", "Fällig am")) } dd { (locale::date(lang, invoice.due_on)) } }
            }
            div { dt { (lang.pick("State", "Stand")) } dd { (state(lang, invoice.payment_state)) } }
            @if let Some(paid) = invoice.paid_on {
                div { dt { (lang.pick("Paid in full on", "Vollständig bezahlt am")) } dd { (locale::date(lang, paid)) } }
            }
            @if let Some(sentence) = &invoice.payment_sentence {
                div { dt { (lang.pick("Payment terms", "Zahlungsbedingungen")) } dd lang=(document_lang.code()) { (sentence) } }
            }
            @if let Some(by) = &invoice.cancelled_by {
                div { dt { (lang.pick("Cancelled by the credit note", "Storniert durch die Stornorechnung")) } dd { a href=(invoice_href(by, "")) { (by) } } }
            }
            @if let Some(original) = &invoice.corrects {
                div { dt { (lang.pick("Cancels the invoice", "Storniert die Rechnung")) } dd { a href=(invoice_href(original, "")) { (original) } } }
            }
            @if let Some(reason) = detail.and_then(|d| d.cancel_reason.as_ref()) {
                div { dt { (lang.pick("Reason of the cancellation", "Grund der Stornierung")) } dd { (reason) } }
            }
        }
        @if let Some(lines) = &invoice.lines {
            (Table::new(&[
                th(lang.pick("Description", "Beschreibung")), th_amount(lang.pick("Quantity", "Menge")),
                th_amount(lang.pick("Unit price", "Einzelpreis")), th_amount(lang.pick("Net", "Netto")),
            ])
            .caption(lang.pick("Lines", "Positionen"))
            .rows(lines, |line| html! {
                td { (line.description) }
                td.amount { (locale::decimal(lang, &line.quantity)) }
                td.amount { (money(lang, &line.unit_price)) }
                td.amount { (money(lang, &line.net)) }
            }))
        }
        @if let Some(taxes) = invoice.taxes.as_ref().filter(|t| !t.is_empty()) {
            (Table::new(&[
                th(lang.pick("Tax", "Steuer")), th_amount(lang.pick("Rate", "Satz")),
                th_amount(lang.pick("Base", "Bemessungsgrundlage")), th_amount(lang.pick("Amount", "Betrag")),
            ])
            .caption(lang.pick("Taxes", "Steuern"))
            .rows(taxes, |tax| html! {
                td { (tax.name) @if let Some(reason) = &tax.reason { " (" (reason) ")" } }
                td.amount { (locale::decimal(lang, &tax.rate)) (lang.pick("%", "\u{a0}%")) }
                td.amount { (money(lang, &tax.base)) }
                td.amount { (money(lang, &tax.amount)) }
            }))
        }
        section aria-labelledby="totals-heading" {
            h2 #totals-heading { (lang.pick("Totals", "Summen")) }
            dl.particulars {
                div { dt { (lang.pick("Net", "Netto")) } dd { (money(lang, &invoice.net)) } }
                div { dt { (lang.pick("Tax", "Steuer")) } dd { (money(lang, &invoice.tax)) } }
                div { dt { (lang.pick("Gross", "Brutto")) } dd { (money(lang, &invoice.gross)) } }
                @if !invoice.credit_note {
                    div { dt { (lang.pick("Outstanding", "Offen")) } dd #outstanding { (money(lang, &invoice.outstanding)) } }
                }
            }
        }
        @if !invoice.credit_note {
            section aria-labelledby="payments-heading" {
                h2 #payments-heading { (lang.pick("Payments", "Zahlungen")) }
                @if payments.is_empty() {
                    p { (lang.pick("No payment is recorded.", "Keine Zahlung ist erfasst.")) }
                } @else {
                    (payment::table(ctx, &payments))
                }
                @if may_act(ctx) && takes_payments {
                    h3 #pay-heading { (lang.pick("Record payment", "Zahlung erfassen")) }
                    (PAYMENT.summary(lang, problems))
                    form.stack method="post" action=(invoice_href(&invoice.number, "/pay")) novalidate aria-labelledby="pay-heading" {
                        (csrf(ctx))
                        (payment::fields(lang, value, Some(currency_hint.clone()), problems))
                        button type="submit" { (lang.pick("Record payment", "Zahlung erfassen")) }
                    }
                }
            }
        }
        section aria-labelledby="documents-heading" {
            h2 #documents-heading { (lang.pick("Documents", "Dokumente")) }
            @if let Some(d) = detail {
                @if d.documents.is_empty() {
                    p { (lang.pick("This invoice has no stored documents.", "Zu dieser Rechnung sind keine Dokumente gespeichert.")) }
                } @else {
                    ul {
                        @for format in &d.documents {
                            li { a href=(invoice_href(&invoice.number, &format!("/document?format={format}"))) download { (format_name(lang, format)) } }
                        }
                    }
                }
                @if let Some(note) = &d.documents_note {
                    p { (note) }
                }
            }
        }
        (sending::sections(ctx, invoice)?)
        @if may_act(ctx) && !invoice.credit_note && !invoice.cancelled {
            section aria-labelledby="cancel-heading" {
                h2 #cancel-heading { (lang.pick("Cancel invoice", "Rechnung stornieren")) }
                p {
                    (lang.pick(
                        "A cancellation issues a credit note that reverses this invoice in full; it cannot be undone.",
                        "Eine Stornierung stellt eine Stornorechnung aus, die diese Rechnung ganz aufhebt; das lässt sich nicht rückgängig machen.",
                    ))
                }
                p { a.button href=(invoice_href(&invoice.number, "/cancel")) { (lang.pick("Cancel invoice", "Rechnung stornieren")) } }
            }
        }
        (history::section(ctx, &entries)?)
        p { a href="/invoices" { (lang.pick("All invoices", "Alle Rechnungen")) } }
    };
    Ok(screen_with(
        ctx,
        status,
        Screen::Invoices,
        &title_of(lang, invoice),
        content,
    ))
}

/// GET /invoices/{number}
pub fn show(ctx: &Ctx, number: &str) -> Result<Answer> {
    let invoice = invoices::get(ctx.conn, &ctx.session.tenant, number)?;
    invoice_page(
        ctx,
        &invoice,
        StatusCode::OK,
        &|_| String::new(),
        &Problems::default(),
    )
}

/// GET /invoices/{number}/document?format=facturx|cii|xrechnung|peppol: the
/// file stored at issue, unchanged, as the API's document route answers it.
pub fn document(ctx: &Ctx, number: &str) -> Result<Answer> {
    let format = Format::named(ctx.query.get("format"))?;
    let stored = documents::get(ctx.conn, &ctx.session.tenant, number, format)?;
    let mut headers = vec![
        ("Content-Type", format.media_type().to_string()),
        (
            "Content-Disposition",
            format!(
                "attachment; filename=\"{}\"",
                documents::file_name(number, format)
            ),
        ),
        ("ETag", format!("\"{}\"", stored.sha256)),
    ];
    security_headers(&mut headers);
    Ok(Answer {
        status: StatusCode::OK,
        headers,
        body: stored.content,
        key_id: None,
    })
}

/// POST /invoices/{number}/pay `{amount, on, method, reference}`: money in
/// against the invoice, as `payment record` records it.
pub fn pay(ctx: &Ctx, number: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let invoice = invoices::get(ctx.conn, tenant, number)?;
    let checked = payment::read(ctx, &invoice.currency);
    let paid = PAYMENT.act(ctx, checked, |tx, payment| {
        settlement::pay_invoice(tx, tenant, &ctx.actor(), number, &payment).map(|_| ())
    })?;
    match paid {
        Acted::Done(()) => Ok(see_other(&invoice_href(number, "?done=paid"))),
        Acted::Refused(r) => invoice_page(ctx, &invoice, r.status, &|f| ctx.typed(f), &r.problems),
    }
}

/// The confirmation of a cancellation: what it does, that it cannot be
/// undone, the credit note's number it would take now, and the reason.
fn cancel_page(
    ctx: &Ctx,
    invoice: &InvoiceView,
    status: StatusCode,
    reason: &str,
    problems: &Problems,
) -> Result<Answer> {
    let lang = ctx.lang;
    let next = cancel::next_number(ctx.conn, &ctx.session.tenant)?;
    let gross = money(lang, &invoice.gross);
    let content = html! {
        p {
            @match lang {
                Lang::En => {
                    "Cancelling " strong { (invoice.number) } " (" (invoice.buyer) ", " (gross) ") issues the credit note "
                    strong #next-number { (next) } " dated today, which reverses the invoice in full: its ledger entry is reversed and nothing is owed on it any more."
                }
                Lang::De => {
                    "Die Stornierung von " strong { (invoice.number) } " (" (invoice.buyer) ", " (gross) ") stellt die Stornorechnung "
                    strong #next-number { (next) } " mit dem heutigen Datum aus, die die Rechnung ganz aufhebt: Ihre Buchung wird umgekehrt, und es ist nichts mehr offen."
                }
            }
        }
        p.problem {
            (lang.pick(
                "This cannot be undone. The number is the one the credit note would take now; if another document takes it first, the credit note takes the next one, and the result names it.",
                "Das lässt sich nicht rückgängig machen. Die Nummer ist die, die die Stornorechnung jetzt erhielte; nimmt ein anderes Dokument sie zuerst, erhält die Stornorechnung die nächste, und das Ergebnis nennt sie.",
            ))
        }
        (CANCEL.summary(lang, problems))
        (post(ctx, &invoice_href(&invoice.number, "/cancel"), CANCEL.fields(lang, &|_| reason.to_string(), problems), lang.pick("Cancel the invoice", "Rechnung stornieren")))
        p { a href=(invoice_href(&invoice.number, "")) { (lang.pick("Back to the invoice", "Zurück zur Rechnung")) } }
    };
    let title = match lang {
        Lang::En => format!("Cancel {}?", invoice.number),
        Lang::De => format!("{} stornieren?", invoice.number),
    };
    Ok(screen_with(ctx, status, Screen::Invoices, &title, content))
}

/// GET /invoices/{number}/cancel: the confirmation, for an invoice that
/// stands (a credit note or a cancelled invoice leads back to its page).
pub fn cancel_form(ctx: &Ctx, number: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let invoice = invoices::get(ctx.conn, &ctx.session.tenant, number)?;
    if invoice.credit_note || invoice.cancelled {
        return Ok(see_other(&invoice_href(number, "")));
    }
    cancel_page(ctx, &invoice, StatusCode::OK, "", &Problems::default())
}

/// POST /invoices/{number}/cancel `{reason}`: the full correction, as
/// `invoice cancel` makes it; the answer is the credit note's page.
pub fn cancel(ctx: &Ctx, number: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let invoice = invoices::get(ctx.conn, tenant, number)?;
    let reason = ctx.form.sent("reason").unwrap_or("");
    let checked = Cancellation::check(CancelInput {
        reason: Some(reason.to_string()),
        on: None,
    });
    let cancelled = CANCEL.act(ctx, checked, |tx, request| {
        let (_, correction) = cancel::cancel(tx, tenant, &ctx.actor(), number, &request)?;
        Ok(invoices::get_by_id(tx, tenant, &correction)?.number)
    })?;
    match cancelled {
        Acted::Done(credit_note) => Ok(see_other(&invoice_href(&credit_note, "?done=cancelled"))),
        Acted::Refused(r) => cancel_page(ctx, &invoice, r.status, reason, &r.problems),
    }
}
