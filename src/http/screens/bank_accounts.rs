//! The company's bank accounts on the Settings screen: the list, adding one
//! as `bank account add` does (by IBAN, or bank code and number for an
//! account no IBAN expresses), and the fee tolerance of `bank tolerance`,
//! typed as people type amounts. The books' `bank::accounts` does the work
//! and writes the audit naming the person.

use hyper::StatusCode;
use maud::html;

use super::context::Ctx;
use super::form::{post, required_note, Acted, Form, FormField, Problems, Reading};
use super::frame::{money, screen_with, see_other, th, Screen, Table};
use crate::access::people::Capability;
use crate::books::bank::accounts::{self, BankAccountInput, NewBankAccount};
use crate::books::company;
use crate::error::Result;
use crate::http::app::Answer;
use crate::rules::money::Money;

const ACCOUNT: Form = Form::new(&[
    FormField::text("iban", "IBAN", "IBAN", 42).hint(
        "Such as DE89 3704 0044 0532 0130 00",
        "Etwa DE89 3704 0044 0532 0130 00",
    ),
    FormField::text("account", "Bank code/account number", "BLZ/Kontonummer", 40).hint(
        "Only for an account no IBAN expresses, such as 50880050/0194774600888",
        "Nur für ein Konto ohne IBAN, etwa 50880050/0194774600888",
    ),
    FormField::text("bic", "BIC", "BIC", 11),
    FormField::text("name", "Name", "Bezeichnung", accounts::MAX_NAME),
    FormField::text("currency", "Currency", "Währung", 3)
        .hint("Empty: the company's", "Leer: die der Firma"),
]);

const TOLERANCE: Form = Form::new(&[FormField::amount("amount", "Fee tolerance", "Gebührentoleranz")
    .required()
    .hint(
        "A payment this much below what is open counts as fee-reduced, not partial",
        "Eine Zahlung, die höchstens so viel unter dem offenen Betrag liegt, gilt als um Gebühren gekürzt, nicht als Teilzahlung",
    )]);

fn page(ctx: &Ctx, status: StatusCode, problems: &Problems) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let list = accounts::list(ctx.conn, tenant)?;
    let company = company::get(ctx.conn, &tenant.company_id)?;
    let tolerance = accounts::fee_tolerance(ctx.conn, &tenant.company_id)?;
    let may = ctx.may(Capability::ManageSettings);
    let content = html! {
        @if ctx.query.get("done").is_some() && problems.list.is_empty() {
            p.notice role="status" { (lang.pick("Saved.", "Gespeichert.")) }
        }
        @if list.is_empty() {
            p { (lang.pick("No bank account yet: statements are imported into the company's accounts.", "Noch kein Bankkonto: Kontoauszüge werden in die Konten der Firma eingelesen.")) }
        } @else {
            (Table::new(&[
                th(lang.pick("Name", "Bezeichnung")), th(lang.pick("Account", "Konto")), th("BIC"),
                th(lang.pick("Currency", "Währung")),
            ])
            .caption(lang.pick("Bank accounts", "Bankkonten"))
            .rows(&list, |a| html! {
                td { (a.name) } td { (a.shown()) } td { (a.bic.as_ref().map(|b| b.as_str()).unwrap_or("")) } td { (a.currency) }
            }))
        }
        p { (lang.pick("Fee tolerance: ", "Gebührentoleranz: ")) (money(lang, &Money::new(tolerance, &company.currency))) }
        @if may {
            section aria-labelledby="add-heading" {
                h2 #add-heading { (lang.pick("Add a bank account", "Bankkonto hinzufügen")) }
                (ACCOUNT.summary(lang, problems))
                (post(ctx, "/settings/bank/accounts", html! {
                    (required_note(lang))
                    (ACCOUNT.fields(lang, &|f| ctx.typed(f), problems))
                }, lang.pick("Add account", "Konto hinzufügen")))
            }
            section aria-labelledby="tolerance-heading" {
                h2 #tolerance-heading { (lang.pick("Fee tolerance", "Gebührentoleranz")) }
                (post(ctx, "/settings/bank/tolerance", TOLERANCE.fields(lang, &|f| ctx.typed(f), problems), lang.pick("Save", "Speichern")))
            }
        }
        p { a href="/bank" { (lang.pick("The Bank screen", "Zur Bank")) } " · " a href="/settings" { (lang.pick("Settings", "Einstellungen")) } }
    };
    Ok(screen_with(
        ctx,
        status,
        Screen::Settings,
        lang.pick("Bank accounts", "Bankkonten"),
        content,
    ))
}

/// GET /settings/bank
pub fn show(ctx: &Ctx) -> Result<Answer> {
    page(ctx, StatusCode::OK, &Problems::default())
}

/// POST /settings/bank/accounts `{iban, account, bic, name, currency}`
pub fn add(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::ManageSettings)?;
    let tenant = &ctx.session.tenant;
    let given = |f: &str| {
        ctx.form
            .get(f)
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_string)
    };
    let checked = Reading::of(ctx).check(NewBankAccount::check(BankAccountInput {
        iban: given("iban"),
        account: given("account"),
        bic: given("bic"),
        name: given("name"),
        currency: given("currency"),
    }));
    match ACCOUNT.act(ctx, checked, |tx, new| {
        accounts::add(tx, tenant, &ctx.actor(), new).map(|_| ())
    })? {
        Acted::Done(()) => Ok(see_other("/settings/bank?done=added")),
        Acted::Refused(r) => page(ctx, r.status, &r.problems),
    }
}

/// POST /settings/bank/tolerance `{amount}`
pub fn tolerance(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::ManageSettings)?;
    let tenant = &ctx.session.tenant;
    let currency = company::get(ctx.conn, &tenant.company_id)?.currency;
    let mut read = Reading::of(ctx);
    let amount = read.amount("amount", &currency);
    let checked = read.check(Ok(amount.unwrap_or(0)));
    match TOLERANCE.act(ctx, checked, |tx, minor| {
        accounts::set_fee_tolerance(tx, tenant, &ctx.actor(), minor)
    })? {
        Acted::Done(()) => Ok(see_other("/settings/bank?done=saved")),
        Acted::Refused(r) => page(ctx, r.status, &r.problems),
    }
}
