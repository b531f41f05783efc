//! The payment form that invoices and bills share: its text fields as the
//! console's flags name them (`--amount`, `--on`, `--reference`), the
//! choice of method (`--method`), how a person reads a method, and the
//! reading of a sent form (`read`), which the books' `NewPayment::check`
//! checks for both; the table of a document's payments with the form that
//! takes a payment typed by hand back (`POST /payments/{id}/reverse`
//! `{reason}`, as `payment reverse` does: `settlement::reverse_payment`).

use maud::{html, Markup};

use super::context::Ctx;
use super::form::{Checked, Form, FormField, Problems, Reading};
use super::frame::{csrf, invoice_href, may_act, money, see_other, th, th_amount, Table};
use crate::access::people::Capability;
use crate::books::invoices;
use crate::books::payments::{PaymentView, Reversal, ReversalInput, TargetKind};
use crate::books::settlement::{self, NewPayment, PaymentInput};
use crate::error::Result;
use crate::http::app::Answer;
use crate::rules::iso::Currency;
use crate::rules::locale;
use crate::rules::locale::Lang;

/// The payment's amount, as typed, in the document's currency.
const AMOUNT: FormField = FormField::amount("amount", "Amount", "Betrag")
    .required()
    .hint("Such as 1,234.56", "Etwa 1.234,56");
/// The day it was paid.
const ON: FormField =
    FormField::date("on", "Paid on", "Bezahlt am").hint("Empty: today", "Leer: heute");
/// The reference it was paid with.
const REFERENCE: FormField = FormField::text(
    "reference",
    "Reference",
    "Verwendungszweck",
    settlement::MAX_REFERENCE,
);

/// The payment form: a payment the document owes no more (paid in full,
/// cancelled) is said above it.
pub const PAYMENT: Form = Form::new(&[AMOUNT, ON, REFERENCE])
    .naming(&[("method", "Method", "Zahlungsart")])
    .wrong_state_above();

/// The payment sent with the page's form, in the document's `currency`,
/// read and checked by the books. An amount the form could not read goes
/// to the books' check as a stand-in, so every other field's problem is
/// said at once too.
pub fn read(ctx: &Ctx, currency: &Currency) -> Checked<NewPayment> {
    let mut read = Reading::of(ctx);
    let minor = read.amount("amount", currency);
    read.check(NewPayment::check(PaymentInput {
        amount: Some(minor.unwrap_or(1)),
        on: ctx.form.get("on").map(str::to_string),
        method: ctx.form.get("method").map(str::to_string),
        reference: ctx.form.get("reference").map(str::to_string),
    }))
}

/// The methods a payment offers, in order.
const METHODS: [&str; 4] = ["bank", "cash", "card", "other"];

/// How a person reads a payment's method.
pub fn method_name(lang: Lang, method: &str) -> &'static str {
    match method {
        "cash" => lang.pick("cash", "bar"),
        "card" => lang.pick("card", "Karte"),
        "other" => lang.pick("other", "anders"),
        _ => lang.pick("bank transfer", "Überweisung"),
    }
}

/// The payment's fields with `value` of each, the amount's hint
/// `amount_hint` in place of its own when given, and the choice of method.
pub fn fields(
    lang: Lang,
    value: &dyn Fn(&str) -> String,
    amount_hint: Option<String>,
    problems: &Problems,
) -> Markup {
    let method = value("method");
    html! {
        @match amount_hint {
            Some(hint) => (AMOUNT.render_hinted(lang, &value("amount"), Some(hint), problems)),
            None => (AMOUNT.render(lang, &value("amount"), problems)),
        }
        (ON.render(lang, &value("on"), problems))
        (REFERENCE.render(lang, &value("reference"), problems))
        div.field {
            label for="field-method" { (PAYMENT.label(lang, "method")) }
            select #field-method name="method" {
                @for m in METHODS {
                    option value=(m) selected[method == m] { (method_name(lang, m)) }
                }
            }
        }
    }
}

/// A document's payments: each with its day, amount, method and reference,
/// a reversed one with its day and reason, and — for who may act — a
/// payment typed by hand with the form that takes it back (a bank line's
/// payment is undone on its line).
pub fn table(ctx: &Ctx, payments: &[(PaymentView, bool)]) -> Markup {
    let lang = ctx.lang;
    html! {
        (Table::new(&[
            th(&PAYMENT.label(lang, "on")), th_amount(&PAYMENT.label(lang, "amount")),
            th(&PAYMENT.label(lang, "method")), th(&PAYMENT.label(lang, "reference")),
            th(lang.pick("Taken back", "Zurückgenommen")),
        ])
        .read_caption(lang.pick("Payments, in the order recorded", "Zahlungen, in der Reihenfolge der Erfassung"))
        .rows(payments, |(p, from_bank)| html! {
            td { (locale::date(lang, p.paid_on)) }
            td.amount { (money(lang, &p.amount)) }
            td { (method_name(lang, p.method.as_str())) }
            td { (p.reference.as_deref().unwrap_or("")) }
            td {
                @if let Some(on) = p.reversed_on {
                    (locale::date(lang, on))
                    @if let Some(reason) = &p.reversal_reason { ": " (reason) }
                } @else if *from_bank {
                    (lang.pick("from a bank line (undone there)", "aus einer Bankzeile (dort rückgängig)"))
                } @else if may_act(ctx) {
                    form.inline method="post" action=(format!("/payments/{}/reverse", p.id)) {
                        (csrf(ctx))
                        label for=(format!("reason-{}", p.id)) { (lang.pick("Reason", "Grund")) }
                        input id=(format!("reason-{}", p.id)) type="text" name="reason" required maxlength="1000";
                        button type="submit" { (lang.pick("Take back", "Zurücknehmen")) }
                    }
                }
            }
        }))
    }
}

/// POST /payments/{id}/reverse `{reason}`: a payment typed by hand taken
/// back today by the settlement act's counter-posting, as `payment
/// reverse` takes it back; then the document's page.
pub fn reverse(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let request = Reversal::check(ReversalInput {
        reason: ctx.form.get("reason").map(str::to_string),
        on: None,
    })?;
    let reversed =
        ctx.write(|tx| settlement::reverse_payment(tx, tenant, &ctx.actor(), id, &request))?;
    let back = match reversed.target_kind {
        TargetKind::Invoice => {
            let number = invoices::stored_by_id(ctx.conn, tenant, &reversed.target_id)?.number;
            invoice_href(&number, "?done=reversed")
        }
        TargetKind::Purchase => format!("/bills/{}?done=reversed", reversed.target_id),
    };
    Ok(see_other(&back))
}
