//! What the invoice's page shows of the invoice leaving kontor: the VAT
//! register's answer at issue, each send by mail (time, recipient, state,
//! the server's reply, Message-ID), the reminders it had (each with its
//! PDF); and the send form on a page of its own (`GET`/`POST
//! /invoices/{number}/send`), calling `sending::send_invoice` as `kontor
//! invoice send` does. A person may send again.

use hyper::StatusCode;
use maud::{html, Markup};

use super::context::Ctx;
use super::form::{post, Acted, Form, FormField, Problems};
use super::frame::{
    invoice_href, may_act, money, own_pdf, screen_with, see_other, th, th_amount, Screen, Table,
};
use super::history;
use crate::access::people::Capability;
use crate::books::customers;
use crate::books::dunning::run as dunning;
use crate::books::invoices::{self, vat_check, InvoiceView};
use crate::books::sending;
use crate::error::Result;
use crate::http::app::Answer;
use crate::outbox::mail::message::ADDRESS_MAX;
use crate::rules::locale::{self, Lang};

/// The send form: the recipient (empty: the customer's invoice address).
const SEND: Form = Form::new(&[FormField::text("to", "Send to", "Senden an", ADDRESS_MAX)
    .kind("email")
    .autocomplete("email")]);

/// A VAT register by the name a person knows it by.
fn register_name(register: &str) -> &str {
    match register {
        "VIES" => "VIES",
        "EVATR" => "eVatR",
        other => other,
    }
}

/// The register's answer, the sends and the reminders of `invoice`.
pub fn sections(ctx: &Ctx, invoice: &InvoiceView) -> Result<Markup> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let check = vat_check::of_invoice(ctx.conn, tenant, &invoice.id)?;
    let sends = sending::sends(ctx.conn, tenant, &invoice.number)?;
    let reminders = dunning::reminders(ctx.conn, tenant, &invoice.number)?;
    let zone = history::zone(ctx)?;
    Ok(html! {
        @if let Some(c) = &check {
            section aria-labelledby="register-heading" {
                h2 #register-heading { (lang.pick("VAT register at issue", "USt-IdNr.-Prüfung bei Ausstellung")) }
                dl.particulars #vat-check {
                    div { dt { (lang.pick("VAT id", "USt-IdNr.")) } dd { (c.vat_id) } }
                    @if c.asked() {
                        div { dt { (lang.pick("Answer", "Antwort")) } dd { strong { (c.summary(lang)) } " (" (register_name(&c.register)) ")" } }
                        @if let Some(name) = &c.name { div { dt { (lang.pick("Registered name", "Eingetragener Name")) } dd { (name) } } }
                        @if let Some(address) = &c.address { div { dt { (lang.pick("Registered address", "Eingetragene Anschrift")) } dd { (address) } } }
                        @if let Some(n) = &c.consultation_number { div { dt { (lang.pick("Consultation number", "Abfragenummer")) } dd { (n) } } }
                        div { dt { (lang.pick("Asked at", "Abgefragt am")) } dd { (history::when(lang, &zone, &c.requested_at)) } }
                        @if let Some(d) = &c.detail { div { dt { (lang.pick("Detail", "Einzelheiten")) } dd { (d) } } }
                    } @else {
                        // Nothing was asked: no answer, no moment of asking.
                        div { dt { (lang.pick("Answer", "Antwort")) } dd { strong { (c.summary(lang)) } } }
                    }
                }
            }
        }
        section aria-labelledby="sends-heading" {
            h2 #sends-heading { (lang.pick("Sent by e-mail", "Per E-Mail versandt")) }
            @if sends.is_empty() {
                p { (lang.pick("Not sent by e-mail yet.", "Noch nicht per E-Mail versandt.")) }
            } @else {
                (Table::new(&[
                    th(lang.pick("Written", "Erstellt")), th(lang.pick("What", "Was")), th(lang.pick("To", "An")),
                    th(lang.pick("State", "Stand")), th_amount(lang.pick("Attempts", "Versuche")),
                    th(lang.pick("Server's reply", "Antwort des Servers")), th("Message-ID"),
                ])
                .read_caption(lang.pick("Sends, oldest first", "Sendungen, älteste zuerst"))
                .id("sends")
                .rows(&sends, |s| html! {
                    td { (history::when(lang, &zone, &s.created_at)) }
                    td { (match s.purpose.as_str() { "reminder" => lang.pick("reminder", "Mahnung"), _ => lang.pick("invoice", "Rechnung") }) }
                    td { (s.to) }
                    td { (state_name(lang, s.state.as_str())) @if let Some(at) = &s.sent_at { " " (history::when(lang, &zone, at)) } }
                    td.amount { (s.attempts) }
                    td { (s.smtp_reply.as_deref().unwrap_or("")) @if let Some(e) = &s.last_error { br; small { (e) } } }
                    td { code { (s.message_id) } }
                }))
            }
            @if may_act(ctx) && !invoice.cancelled {
                p { a.button href=(invoice_href(&invoice.number, "/send")) { (lang.pick("Send by e-mail", "Per E-Mail senden")) } }
            }
        }
        @if !reminders.is_empty() {
            section aria-labelledby="reminders-heading" {
                h2 #reminders-heading { (lang.pick("Reminders", "Mahnungen")) }
                (Table::new(&[
                    th_amount(lang.pick("Level", "Stufe")), th(lang.pick("Date", "Datum")),
                    th_amount(lang.pick("Open", "Offen")), th_amount(lang.pick("Fees", "Gebühren")),
                    th_amount(lang.pick("Interest", "Zinsen")), th_amount(lang.pick("Flat sum", "Pauschale")),
                    th(lang.pick("Pay by", "Zahlbar bis")), th("PDF"),
                ])
                .read_caption(lang.pick("Reminders by level", "Mahnungen nach Stufe"))
                .id("reminders")
                .rows(&reminders, |r| html! {
                    td.amount { (r.level) }
                    td { (locale::date(lang, r.on)) }
                    td.amount { (money(lang, &r.open)) }
                    td.amount { (money(lang, &r.fee)) }
                    td.amount { (money(lang, &r.interest)) }
                    td.amount { (money(lang, &r.flat_sum)) }
                    td { (locale::date(lang, r.new_due_on)) }
                    td { a href=(format!("/reminders/{}/document", r.id)) { (lang.pick("Letter", "Schreiben")) } }
                }))
            }
        }
    })
}

fn state_name(lang: Lang, state: &str) -> &'static str {
    match state {
        "sent" => lang.pick("sent", "versandt"),
        "failed" => lang.pick("failed", "gescheitert"),
        _ => lang.pick("queued", "wartet"),
    }
}

/// The send page of `number`, a refusal beside its field.
fn send_page(ctx: &Ctx, number: &str, status: StatusCode, problems: &Problems) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let invoice = invoices::get(ctx.conn, tenant, number)?;
    let customer = customers::get(ctx.conn, tenant, &invoice.customer_id)?;
    let default = customer
        .invoice_email
        .clone()
        .or(customer.email.clone())
        .unwrap_or_default();
    let value = |f: &str| {
        if problems.list.is_empty() {
            default.clone()
        } else {
            ctx.typed(f)
        }
    };
    let language = sending::language_of(&customer);
    let content = html! {
        p { (match lang {
            Lang::En => format!("Invoice {} goes to its customer as one e-mail, with the document the customer receives attached unchanged, in {}.", invoice.number, language.pick("English", "German")),
            Lang::De => format!("Die Rechnung {} geht als eine E-Mail an den Kunden, das Dokument, das der Kunde erhält, unverändert im Anhang, auf {}.", invoice.number, language.pick("Englisch", "Deutsch")),
        }) }
        (SEND.summary(lang, problems))
        (post(ctx, &invoice_href(number, "/send"), SEND.fields(lang, &value, problems), lang.pick("Send", "Senden")))
        p { a href=(invoice_href(number, "")) { (lang.pick("Back to the invoice", "Zurück zur Rechnung")) } }
    };
    let title = match lang {
        Lang::En => format!("Send invoice {number}"),
        Lang::De => format!("Rechnung {number} senden"),
    };
    Ok(screen_with(ctx, status, Screen::Invoices, &title, content))
}

/// GET /invoices/{number}/send
pub fn send_form(ctx: &Ctx, number: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    send_page(ctx, number, StatusCode::OK, &Problems::default())
}

/// POST /invoices/{number}/send `{to}`: the invoice written to the mail
/// outbox, as `invoice send` writes it.
pub fn send(ctx: &Ctx, number: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let to = ctx.form.get("to").map(str::to_string);
    let sent = SEND.act(ctx, Ok(to), |tx, to| {
        sending::send_invoice(tx, tenant, &ctx.actor(), number, to.as_deref()).map(|_| ())
    })?;
    match sent {
        Acted::Done(()) => Ok(see_other(&invoice_href(number, "?done=sent"))),
        Acted::Refused(r) => send_page(ctx, number, r.status, &r.problems),
    }
}

/// GET /reminders/{id}/document: a reminder's letter as sent.
pub fn reminder_document(ctx: &Ctx, id: &str) -> Result<Answer> {
    let (name, pdf) = dunning::reminder_document(ctx.conn, &ctx.session.tenant, id)?;
    Ok(own_pdf(pdf, &format!("{name}.pdf")))
}
