//! The company's settings for its tax adviser (Settings → DATEV): the
//! chart of accounts, the DATEV adviser and client numbers, the first day
//! of the fiscal year, and the partners' personal account numbers, which an
//! owner may give or change until the books' first DATEV export. The same
//! books functions serve `kontor company set --chart …` and `kontor company
//! account-number`; each form is one act with its audit row.

use hyper::StatusCode;
use maud::html;

use super::context::Ctx;
use super::form::{both, choice, post, Acted, Form, FormField, Problems, Refusal};
use super::frame::{screen_with, see_other, th, th_number, Screen, Table};
use crate::access::people::Capability;
use crate::books::export::numbers::{self, PartnerRole};
use crate::books::export::settings::{self, Settings, SettingsChange, SettingsInput};
use crate::error::said::Export;
use crate::error::{Error, Result};
use crate::http::app::Answer;
use crate::rules::locale::Lang;

/// The settings, named as `company set` names its flags.
const SETTINGS: Form = Form::new(&[
    FormField::text("datevAdviser", "DATEV adviser number", "Beraternummer", 7).hint(
        "1001 to 9999999, from your tax adviser",
        "1001 bis 9999999, von Ihrer Steuerberatung",
    ),
    FormField::text("datevClient", "DATEV client number", "Mandantennummer", 5).hint(
        "1 to 99999, from your tax adviser",
        "1 bis 99999, von Ihrer Steuerberatung",
    ),
    FormField::text(
        "fiscalYearStart",
        "First day of the fiscal year",
        "Beginn des Wirtschaftsjahres",
        5,
    )
    .required()
    .hint(
        "MM-DD, such as 01-01 or 07-01",
        "MM-TT, etwa 01-01 oder 07-01",
    ),
])
.naming(&[("chart", "Chart of accounts", "Kontenrahmen")]);

/// A partner's account number: the partner (its number or id), the side,
/// the number.
const NUMBER: Form = Form::new(&[
    FormField::text("partner", "Partner", "Geschäftspartner", 40)
        .required()
        .hint("Its number, such as K10001", "Seine Nummer, etwa K10001"),
    FormField::text("number", "Account number", "Kontonummer", 5)
        .required()
        .hint(
            "Customers 10000–69999, suppliers 70000–99999",
            "Kunden 10000–69999, Lieferanten 70000–99999",
        ),
])
.naming(&[("side", "PartnerRole", "Seite")]);

/// Which form was refused.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Settings,
    Number,
}

fn stored(s: &Settings, field: &str) -> String {
    match field {
        "datevAdviser" => s.datev_adviser.map(|n| n.to_string()).unwrap_or_default(),
        "datevClient" => s.datev_client.map(|n| n.to_string()).unwrap_or_default(),
        "fiscalYearStart" => s.fiscal_year_start.to_string(),
        _ => String::new(),
    }
}

fn page(ctx: &Ctx, status: StatusCode, refused: Option<(Part, &Problems)>) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let s = settings::get(ctx.conn, &tenant.company_id)?;
    let given = numbers::list(ctx.conn, tenant)?;
    let exported = numbers::first_export(ctx.conn, tenant)?;
    let owner = ctx.may(Capability::ManageSettings);
    let none = Problems::default();
    let problems = |part: Part| match refused {
        Some((p, problems)) if p == part => problems,
        _ => &none,
    };
    let value = |part: Part, field: &str| match refused {
        Some((p, _)) if p == part => ctx.typed(field),
        _ => stored(&s, field),
    };
    let chart = match refused {
        Some((Part::Settings, _)) => ctx.typed("chart"),
        _ => s.chart.as_str().to_string(),
    };
    let saved = ctx.notice(
        "saved",
        &[
            (
                "settings",
                "The DATEV settings are saved.",
                "Die DATEV-Einstellungen sind gespeichert.",
            ),
            (
                "number",
                "The account number is given.",
                "Die Kontonummer ist vergeben.",
            ),
        ],
    );
    let content = html! {
        p { a href="/settings" { (lang.pick("Back to the settings", "Zurück zu den Einstellungen")) } }
        @if let Some(saved) = saved.filter(|_| refused.is_none()) {
            p.notice role="status" { (saved) }
        }
        section aria-labelledby="datev-settings-heading" {
            h2 #datev-settings-heading { (lang.pick("DATEV export", "DATEV-Export")) }
            @if owner {
                (SETTINGS.summary(lang, problems(Part::Settings)))
                (post(ctx, "/settings/datev", html! {
                    (choice(
                        lang,
                        "chart",
                        &SETTINGS.label(lang, "chart"),
                        &[("skr03".into(), "SKR03".into()), ("skr04".into(), "SKR04".into())],
                        &chart,
                        Some(match exported.as_ref() {
                            Some(_) => lang.pick("Fixed since the first export", "Fest seit dem ersten Export").to_string(),
                            None => lang.pick("The DATEV standard chart your adviser books in", "Der DATEV-Standardkontenrahmen Ihrer Steuerberatung").to_string(),
                        }),
                        problems(Part::Settings),
                    ))
                    (SETTINGS.fields(lang, &|f| value(Part::Settings, f), problems(Part::Settings)))
                }, lang.pick("Save DATEV settings", "DATEV-Einstellungen speichern")))
            } @else {
                dl.particulars {
                    div { dt { (SETTINGS.label(lang, "chart")) } dd { (s.chart.as_str().to_uppercase()) } }
                    @for f in SETTINGS.text_fields() {
                        div { dt { (lang.pick(f.en, f.de)) } dd { (stored(&s, f.name)) } }
                    }
                }
            }
        }
        section aria-labelledby="numbers-heading" {
            h2 #numbers-heading { (lang.pick("Personal account numbers", "Personenkonten")) }
            p { (lang.pick(
                "A partner gets the lowest free number of its range the first time a DATEV export names it, and keeps it.",
                "Ein Geschäftspartner erhält beim ersten DATEV-Export, der ihn nennt, die niedrigste freie Nummer seines Bereichs und behält sie.",
            )) }
            @if given.is_empty() {
                p { (lang.pick("No number is given yet.", "Noch ist keine Nummer vergeben.")) }
            } @else {
                (Table::new(&[
                    th_number(lang.pick("Account", "Konto")), th(lang.pick("Partner", "Geschäftspartner")),
                    th(lang.pick("PartnerRole", "Seite")),
                ])
                .rows(&given, |g| html! {
                    td class="num" { (g.account) }
                    td { (g.name) " (" (g.partner_number) ")" }
                    td { (side_name(lang, g.side)) }
                }))
            }
            @match exported.as_ref() {
                Some(first) => {
                    p { (lang.pick(
                        "The numbers are kept: the books were exported to DATEV on ",
                        "Die Nummern bleiben: die Bücher wurden am ",
                    )) (first.get(..10).unwrap_or(first)) (lang.pick(".", " an DATEV exportiert.")) }
                }
                None => {
                    @if owner {
                        h3 { (lang.pick("Give a number before the first export", "Nummer vor dem ersten Export vergeben")) }
                        (NUMBER.summary(lang, problems(Part::Number)))
                        (post(ctx, "/settings/datev/number", html! {
                            (NUMBER.fields(lang, &|f| value(Part::Number, f), problems(Part::Number)))
                            (choice(
                                lang,
                                "side",
                                &NUMBER.label(lang, "side"),
                                &[
                                    ("customer".into(), side_name(lang, PartnerRole::Customer).into()),
                                    ("supplier".into(), side_name(lang, PartnerRole::Supplier).into()),
                                ],
                                &ctx.typed("side"),
                                None,
                                problems(Part::Number),
                            ))
                        }, lang.pick("Give the number", "Nummer vergeben")))
                    }
                }
            }
        }
    };
    Ok(screen_with(
        ctx,
        status,
        Screen::Settings,
        lang.pick("DATEV settings", "DATEV-Einstellungen"),
        content,
    ))
}

fn side_name(lang: Lang, side: PartnerRole) -> &'static str {
    match side {
        PartnerRole::Customer => lang.pick("customer (Debitor)", "Kunde (Debitor)"),
        PartnerRole::Supplier => lang.pick("supplier (Kreditor)", "Lieferant (Kreditor)"),
    }
}

/// GET /settings/datev
pub fn show(ctx: &Ctx) -> Result<Answer> {
    page(ctx, StatusCode::OK, None)
}

/// POST /settings/datev `{chart, datevAdviser, datevClient, fiscalYearStart}`:
/// as `company set` sets them (an empty number is cleared).
pub fn set(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::ManageSettings)?;
    let tenant = &ctx.session.tenant;
    let checked = SettingsChange::check(SettingsInput {
        chart: ctx.form.get("chart").map(str::to_string),
        datev_adviser: ctx.patch("datevAdviser"),
        datev_client: ctx.patch("datevClient"),
        fiscal_year_start: ctx.form.get("fiscalYearStart").map(str::to_string),
    });
    let saved = SETTINGS.act(ctx, checked, |tx, change| {
        settings::set(tx, tenant, &ctx.actor(), change).map(|_| ())
    })?;
    match saved {
        Acted::Done(()) => Ok(see_other("/settings/datev?saved=settings")),
        Acted::Refused(r) => page(ctx, r.status, Some((Part::Settings, &r.problems))),
    }
}

/// POST /settings/datev/number `{partner, side, number}`: as `company
/// account-number` gives it.
pub fn set_number(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::ManageSettings)?;
    let tenant = &ctx.session.tenant;
    let partner = ctx.form.get("partner").unwrap_or("").trim().to_string();
    let side = PartnerRole::parse("side", ctx.form.get("side").unwrap_or(""));
    let number = ctx
        .form
        .get("number")
        .unwrap_or("")
        .trim()
        .parse::<u32>()
        .map_err(|_| Error::invalid("number", crate::error::said::Input::FiveDigits));
    let missing = if partner.is_empty() {
        Err(Error::invalid(
            "partner",
            crate::error::said::Input::Missing,
        ))
    } else {
        Ok(())
    };
    let checked = both(both(side, number), missing).map(|(pair, ())| pair);
    let given = NUMBER.act(ctx, checked, |tx, (side, number)| {
        numbers::change(tx, tenant, &ctx.actor(), &partner, side, number).map(|_| ())
    });
    let given = match given {
        // An unknown partner is said beside its field.
        Err(Error::NotFound(what)) => {
            let unknown = Error::invalid("partner", Export::NotAPartner(what));
            Acted::Refused(Refusal {
                status: unknown.status(),
                problems: Problems::of(&unknown),
            })
        }
        other => other?,
    };
    match given {
        Acted::Done(()) => Ok(see_other("/settings/datev?saved=number")),
        Acted::Refused(r) => page(ctx, r.status, Some((Part::Number, &r.problems))),
    }
}
