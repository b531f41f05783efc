//! The payment form that invoices and bills share: its text fields as the
//! console's flags name them (`--amount`, `--on`, `--reference`), the
//! choice of method (`--method`), how a person reads a method, and the
//! reading of a sent form (`read`), which the books' `NewPayment::check`
//! checks for both.

use maud::{html, Markup};

use super::context::Ctx;
use super::form::{Checked, Form, FormField, Problems, Reading};
use crate::books::settlement::{self, NewPayment, PaymentInput};
use crate::rules::iso::Currency;
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
