//! The company's legal form and tax methods (Settings → Tax methods): VAT
//! on invoices issued or on payments received with its ground, profit by
//! balance sheet or EÜR, the VAT return's period and extension, each change
//! holding from a period's first day, and the changes made so far. Only an
//! owner changes them; the same books functions serve `kontor company set
//! --legal-form … --vat-method …`, and one form is one act.

use hyper::StatusCode;
use maud::html;

use super::context::Ctx;
use super::form::{choice, post, Acted, Form, FormField, Problems};
use super::frame::{screen_with, see_other, th, Screen, Table};
use crate::access::people::Capability;
use crate::books::company;
use crate::books::particulars::{ParticularsChange, ParticularsInput};
use crate::books::tax_methods::methods::{
    EuerAllowed, IstReason, LegalForm, ProfitMethod, ReturnPeriod, VatMethod,
};
use crate::books::tax_methods::{self, Methods, MethodsInput};
use crate::error::Result;
use crate::http::app::Answer;
use crate::rules::locale::{self, Lang};
use crate::rules::text::Patch;

/// The form, named as `company set` names its flags.
const METHODS: Form = Form::new(&[FormField::text("from", "Holds from", "Gilt ab", 10).hint(
    "YYYY-MM-DD, the first day of a VAT return period; empty: the first day it may",
    "JJJJ-MM-TT, der erste Tag eines Voranmeldungszeitraums; leer: der erste mögliche Tag",
)])
.naming(&[
    ("legalForm", "Legal form", "Rechtsform"),
    ("vatMethod", "VAT owed", "Umsatzsteuer geschuldet"),
    ("istReason", "Ground of § 20 UStG", "Grund nach § 20 UStG"),
    ("profitMethod", "Profit determined by", "Gewinnermittlung"),
    ("vatPeriod", "VAT return period", "Voranmeldungszeitraum"),
    (
        "vatExtension",
        "One-month extension",
        "Dauerfristverlängerung",
    ),
]);

fn legal_form_name(lang: Lang, form: LegalForm) -> &'static str {
    match form {
        LegalForm::SoleProprietor => lang.pick(
            "Sole proprietor, not registered (small trader, freelancer)",
            "Einzelunternehmen, nicht eingetragen (Kleingewerbe, Freiberufler)",
        ),
        LegalForm::RegisteredTrader => lang.pick(
            "Registered trader (e. K.)",
            "Eingetragener Kaufmann (e. K.)",
        ),
        // The other forms are named as the register writes them.
        other => other.name(),
    }
}

fn vat_method_name(lang: Lang, m: VatMethod) -> &'static str {
    match m {
        VatMethod::Soll => lang.pick(
            "On invoices issued (Sollversteuerung)",
            "Nach vereinbarten Entgelten (Sollversteuerung)",
        ),
        VatMethod::Ist => lang.pick(
            "On payments received (Istversteuerung, § 20 UStG)",
            "Nach vereinnahmten Entgelten (Istversteuerung, § 20 UStG)",
        ),
    }
}

fn ist_reason_name(lang: Lang, r: IstReason) -> &'static str {
    match r {
        IstReason::Turnover => lang.pick(
            "Turnover of at most € 800,000 last year (no. 1)",
            "Gesamtumsatz im Vorjahr höchstens 800.000 € (Nr. 1)",
        ),
        IstReason::NoBookkeeping => lang.pick(
            "Exempt from keeping books, § 148 AO (no. 2)",
            "Von der Buchführungspflicht befreit, § 148 AO (Nr. 2)",
        ),
        IstReason::Freelance => lang.pick(
            "Freelance work without a duty to keep books (no. 3)",
            "Freiberufliche Tätigkeit ohne Buchführungspflicht (Nr. 3)",
        ),
    }
}

fn profit_method_name(lang: Lang, m: ProfitMethod) -> &'static str {
    match m {
        ProfitMethod::Balance => lang.pick("Balance sheet", "Bilanz"),
        ProfitMethod::Euer => lang.pick(
            "Cash-basis statement (EÜR, § 4 (3) EStG)",
            "Einnahmenüberschussrechnung (EÜR, § 4 Abs. 3 EStG)",
        ),
    }
}

fn period_name(lang: Lang, p: ReturnPeriod) -> &'static str {
    match p {
        ReturnPeriod::Monthly => lang.pick("Monthly", "Monatlich"),
        ReturnPeriod::Quarterly => lang.pick("Quarterly", "Vierteljährlich"),
    }
}

fn yes_no(lang: Lang, yes: bool) -> &'static str {
    if yes {
        lang.pick("yes", "ja")
    } else {
        lang.pick("no", "nein")
    }
}

/// The options of a choice: each value's key in lower case and its name.
fn options<T: Copy>(
    all: &[T],
    key: fn(T) -> &'static str,
    name: impl Fn(T) -> &'static str,
) -> Vec<(String, String)> {
    all.iter()
        .map(|v| (key(*v).to_ascii_lowercase(), name(*v).to_string()))
        .collect()
}

fn page(ctx: &Ctx, status: StatusCode, refused: Option<&Problems>) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let company = company::get(ctx.conn, &tenant.company_id)?;
    let today = tax_methods::on(ctx.conn, &company.id, company.today())?;
    let changes = tax_methods::history(ctx.conn, &company.id)?;
    let owner = ctx.may(Capability::ManageSettings);
    let none = Problems::default();
    let problems = refused.unwrap_or(&none);
    // What the form shows: what was typed into a refused form, else what holds today.
    let chosen = |field: &str, stored: &str| match refused {
        Some(_) => ctx.typed(field),
        None => stored.to_ascii_lowercase(),
    };
    let legal_form = company.particulars.legal_form;
    let mut forms = vec![(
        String::new(),
        lang.pick("— not set —", "— nicht angegeben —").to_string(),
    )];
    forms.extend(options(LegalForm::ALL, LegalForm::as_str, |f| {
        legal_form_name(lang, f)
    }));
    let mut reasons = vec![(
        String::new(),
        lang.pick("— with Ist only —", "— nur bei Ist —")
            .to_string(),
    )];
    reasons.extend(options(IstReason::ALL, IstReason::as_str, |r| {
        ist_reason_name(lang, r)
    }));
    let warn = legal_form.is_some_and(|f| f.euer() == EuerAllowed::WithWarning)
        && today.profit_method == ProfitMethod::Euer;
    let content = html! {
        p { a href="/settings" { (lang.pick("Back to the settings", "Zurück zu den Einstellungen")) } }
        @if ctx.query.get("saved") == Some("methods") && refused.is_none() {
            p.notice role="status" { (lang.pick("The tax methods are saved.", "Die steuerlichen Angaben sind gespeichert.")) }
        }
        @if warn {
            p.notice role="note" { (lang.pick(
                "A registered trader may use the EÜR only while its turnover stays at most € 800,000 and its profit at most € 80,000 in two years running (§ 241a HGB, § 141 AO).",
                "Ein eingetragener Kaufmann darf die EÜR nur nutzen, solange Umsatz höchstens 800.000 € und Gewinn höchstens 80.000 € in zwei Jahren nacheinander bleiben (§ 241a HGB, § 141 AO).",
            )) }
        }
        section aria-labelledby="methods-heading" {
            h2 #methods-heading { (lang.pick("Holding today", "Heute gültig")) }
            dl.particulars {
                div { dt { (METHODS.label(lang, "legalForm")) } dd { (legal_form.map_or(lang.pick("not set", "nicht angegeben"), |f| legal_form_name(lang, f))) } }
                div { dt { (METHODS.label(lang, "vatMethod")) } dd { (vat_method_name(lang, today.vat_method)) } }
                @if let Some(reason) = today.ist_reason {
                    div { dt { (METHODS.label(lang, "istReason")) } dd { (ist_reason_name(lang, reason)) } }
                }
                div { dt { (METHODS.label(lang, "profitMethod")) } dd { (profit_method_name(lang, today.profit_method)) } }
                div { dt { (METHODS.label(lang, "vatPeriod")) } dd { (period_name(lang, today.return_period)) } }
                div { dt { (METHODS.label(lang, "vatExtension")) } dd { (yes_no(lang, today.extension)) } }
            }
        }
        @if owner {
            section aria-labelledby="change-heading" {
                h2 #change-heading { (lang.pick("Change", "Ändern")) }
                p { (lang.pick(
                    "A change holds from the first day of a VAT return period (of a quarter when the period changes, of a fiscal year when the profit method does); earlier periods keep theirs. A day in the past is taken only while the books hold nothing dated on or after it.",
                    "Eine Änderung gilt ab dem ersten Tag eines Voranmeldungszeitraums (eines Quartals, wenn sich der Zeitraum ändert, eines Wirtschaftsjahres, wenn sich die Gewinnermittlung ändert); frühere Zeiträume behalten ihre. Ein Tag in der Vergangenheit geht nur, solange die Bücher nichts an oder nach ihm Datiertes enthalten.",
                )) }
                (METHODS.summary(lang, problems))
                (post(ctx, "/settings/tax", html! {
                    (choice(lang, "legalForm", &METHODS.label(lang, "legalForm"), &forms,
                        &chosen("legalForm", legal_form.map_or("", LegalForm::as_str)),
                        Some(lang.pick(
                            "GmbH, UG, AG, OHG, KG and GmbH & Co. KG draw up a balance sheet (§ 238, § 242 HGB)",
                            "GmbH, UG, AG, OHG, KG und GmbH & Co. KG bilanzieren (§ 238, § 242 HGB)",
                        ).to_string()), problems))
                    (choice(lang, "vatMethod", &METHODS.label(lang, "vatMethod"),
                        &options(VatMethod::ALL, VatMethod::as_str, |m| vat_method_name(lang, m)),
                        &chosen("vatMethod", today.vat_method.as_str()), None, problems))
                    (choice(lang, "istReason", &METHODS.label(lang, "istReason"), &reasons,
                        &chosen("istReason", today.ist_reason.map_or("", IstReason::as_str)), None, problems))
                    (choice(lang, "profitMethod", &METHODS.label(lang, "profitMethod"),
                        &options(ProfitMethod::ALL, ProfitMethod::as_str, |m| profit_method_name(lang, m)),
                        &chosen("profitMethod", today.profit_method.as_str()), None, problems))
                    (choice(lang, "vatPeriod", &METHODS.label(lang, "vatPeriod"),
                        &options(ReturnPeriod::ALL, ReturnPeriod::as_str, |p| period_name(lang, p)),
                        &chosen("vatPeriod", today.return_period.as_str()), None, problems))
                    (METHODS.yes_no(lang, "vatExtension", lang.pick(
                        "The VAT return is due one month later (§§ 46–48 UStDV)",
                        "Die Voranmeldung ist einen Monat später fällig (§§ 46–48 UStDV)",
                    ), match refused { Some(_) => ctx.yes_no("vatExtension") == Some(true), None => today.extension }))
                    (METHODS.fields(lang, &|f| if refused.is_some() { ctx.typed(f) } else { String::new() }, problems))
                }, lang.pick("Save tax methods", "Steuerliche Angaben speichern")))
            }
        }
        section aria-labelledby="changes-heading" {
            h2 #changes-heading { (lang.pick("Changes", "Änderungen")) }
            @if changes.is_empty() {
                p { (lang.pick(
                    "None: VAT on invoices issued, profit by balance sheet, monthly returns without the extension, since the books began.",
                    "Keine: Sollversteuerung, Bilanz, monatliche Voranmeldung ohne Dauerfristverlängerung, seit Beginn der Bücher.",
                )) }
            } @else {
                (Table::new(&[
                    th(lang.pick("From", "Ab")), th(&METHODS.label(lang, "vatMethod")),
                    th(&METHODS.label(lang, "profitMethod")), th(&METHODS.label(lang, "vatPeriod")),
                    th(&METHODS.label(lang, "vatExtension")),
                ])
                .rows(&changes, |m: &Methods| html! {
                    td { (m.from.map(|d| locale::date(lang, d)).unwrap_or_default()) }
                    td { (vat_method_name(lang, m.vat_method)) @if let Some(r) = m.ist_reason { br; small { (ist_reason_name(lang, r)) } } }
                    td { (profit_method_name(lang, m.profit_method)) }
                    td { (period_name(lang, m.return_period)) }
                    td { (yes_no(lang, m.extension)) }
                }))
            }
        }
    };
    Ok(screen_with(
        ctx,
        status,
        Screen::Settings,
        lang.pick("Tax methods", "Steuerliche Angaben"),
        content,
    ))
}

/// GET /settings/tax
pub fn show(ctx: &Ctx) -> Result<Answer> {
    page(ctx, StatusCode::OK, None)
}

/// POST /settings/tax `{legalForm, vatMethod, istReason, profitMethod,
/// vatPeriod, vatExtension, from}`: the legal form when it changed, and the
/// methods that differ from today's (or all, with a day), in one act, as
/// `company set` sets them.
pub fn set(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::ManageSettings)?;
    let tenant = &ctx.session.tenant;
    let company = company::get(ctx.conn, &tenant.company_id)?;
    let today = tax_methods::on(ctx.conn, &company.id, company.today())?;
    let sent = |field: &str| ctx.form.get(field).map(str::trim).unwrap_or("");
    let differs = |field: &str, now: &str| {
        let typed = sent(field);
        (!typed.eq_ignore_ascii_case(now)).then(|| typed.to_string())
    };
    let from = Some(sent("from").to_string()).filter(|f| !f.is_empty());
    let mut input = MethodsInput {
        vat_method: differs("vatMethod", today.vat_method.as_str()),
        ist_reason: differs("istReason", today.ist_reason.map_or("", IstReason::as_str))
            .filter(|r| !r.is_empty()),
        profit_method: differs("profitMethod", today.profit_method.as_str()),
        return_period: differs("vatPeriod", today.return_period.as_str()),
        extension: (ctx.yes_no("vatExtension").unwrap_or(false) != today.extension)
            .then(|| yes_no(Lang::En, !today.extension).to_string()),
        from,
    };
    if input.from.is_some() {
        // With a day, the whole form is what holds from it.
        input.vat_method = Some(sent("vatMethod").to_string());
        input.ist_reason = Some(sent("istReason").to_string()).filter(|r| !r.is_empty());
        input.profit_method = Some(sent("profitMethod").to_string());
        input.return_period = Some(sent("vatPeriod").to_string());
        input.extension =
            Some(yes_no(Lang::En, ctx.yes_no("vatExtension") == Some(true)).to_string());
    }
    let legal_form = match sent("legalForm") {
        "" if company.particulars.legal_form.is_none() => Patch::Absent,
        "" => Patch::Null,
        typed
            if company
                .particulars
                .legal_form
                .is_some_and(|f| f.as_str().eq_ignore_ascii_case(typed)) =>
        {
            Patch::Absent
        }
        typed => Patch::Value(typed.to_string()),
    };
    let checked = ParticularsChange::check(
        ParticularsInput {
            legal_form,
            ..ParticularsInput::default()
        },
        &company.country,
    );
    let saved = METHODS.act(ctx, checked, |tx, change| {
        let actor = ctx.actor();
        let company = if change.is_empty() {
            company.clone()
        } else {
            company::set_particulars(tx, tenant, &actor, change)?
        };
        if !input.is_empty() {
            tax_methods::set(tx, tenant, &actor, &company, &input)?;
        }
        Ok(())
    })?;
    match saved {
        Acted::Done(()) => Ok(see_other("/settings/tax?saved=methods")),
        Acted::Refused(r) => page(ctx, r.status, Some(&r.problems)),
    }
}
