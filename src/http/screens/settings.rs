//! The company's settings: the seller's particulars every invoice carries
//! (address, VAT id, registration, contact, bank account, electronic
//! address, small-business status), the default payment days, and the
//! workflow's stages. Everyone of the company reads them; only the owner
//! changes them, through the same books functions `kontor company set` and
//! `kontor company workflow` call (`ParticularsChange::check` and
//! `company::set_particulars`, `company::set_payment_days`,
//! `company::set_workflow`), so a refusal reads as it does there. Each form
//! is one act with its audit row; a refused form comes back with what was
//! typed and the problem beside the field. The people of the company are
//! in `users`.

use hyper::StatusCode;
use maud::html;

use super::page::{csrf, screen_with, Field, Problems, Screen};
use super::{see_other, Ctx};
use crate::access::people::Capability;
use crate::books::audit;
use crate::books::company::{self, Company, ParticularsChange, ParticularsInput};
use crate::error::{Error, Result, Violation};
use crate::http::app::Answer;
use crate::rules::jurisdiction;
use crate::rules::locale::Lang;
use crate::rules::text::Patch;

/// The forms of the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Particulars,
    PaymentDays,
    Workflow,
}

/// One text field of the particulars, named as `company set` names its
/// flag (in camelCase).
struct Particular {
    name: &'static str,
    en: &'static str,
    de: &'static str,
    max: usize,
    kind: &'static str,
    autocomplete: Option<&'static str>,
}

const PARTICULARS: &[Particular] = &[
    Particular {
        name: "legalName",
        en: "Registered name",
        de: "Firmierung",
        max: 200,
        kind: "text",
        autocomplete: Some("organization"),
    },
    Particular {
        name: "street",
        en: "Street and number",
        de: "Straße und Hausnummer",
        max: 200,
        kind: "text",
        autocomplete: Some("street-address"),
    },
    Particular {
        name: "postalCode",
        en: "Postal code",
        de: "Postleitzahl",
        max: 20,
        kind: "text",
        autocomplete: Some("postal-code"),
    },
    Particular {
        name: "city",
        en: "City",
        de: "Ort",
        max: 100,
        kind: "text",
        autocomplete: Some("address-level2"),
    },
    Particular {
        name: "vatId",
        en: "VAT ID",
        de: "USt-IdNr.",
        max: 30,
        kind: "text",
        autocomplete: None,
    },
    Particular {
        name: "taxNumber",
        en: "Tax number",
        de: "Steuernummer",
        max: 30,
        kind: "text",
        autocomplete: None,
    },
    Particular {
        name: "registration",
        en: "Register entry",
        de: "Registereintrag",
        max: 200,
        kind: "text",
        autocomplete: None,
    },
    Particular {
        name: "managingDirectors",
        en: "Managing directors",
        de: "Geschäftsführung",
        max: 500,
        kind: "text",
        autocomplete: None,
    },
    Particular {
        name: "contactName",
        en: "Contact person",
        de: "Ansprechpartner",
        max: 200,
        kind: "text",
        autocomplete: Some("name"),
    },
    Particular {
        name: "contactPhone",
        en: "Contact telephone",
        de: "Telefon",
        max: 50,
        kind: "tel",
        autocomplete: Some("tel"),
    },
    Particular {
        name: "contactEmail",
        en: "Contact e-mail address",
        de: "E-Mail-Adresse",
        max: 254,
        kind: "email",
        autocomplete: Some("email"),
    },
    Particular {
        name: "electronicAddress",
        en: "Electronic address",
        de: "Elektronische Adresse",
        max: 120,
        kind: "text",
        autocomplete: None,
    },
    Particular {
        name: "iban",
        en: "IBAN",
        de: "IBAN",
        max: 50,
        kind: "text",
        autocomplete: None,
    },
    Particular {
        name: "bic",
        en: "BIC",
        de: "BIC",
        max: 11,
        kind: "text",
        autocomplete: None,
    },
    Particular {
        name: "accountHolder",
        en: "Account holder",
        de: "Kontoinhaber",
        max: 70,
        kind: "text",
        autocomplete: None,
    },
];

fn title(lang: Lang) -> &'static str {
    lang.pick("Settings", "Einstellungen")
}

fn label(lang: Lang, field: &str) -> String {
    match field {
        "smallBusiness" => lang.pick("Small business (§19 UStG)", "Kleinunternehmer (§19 UStG)"),
        "paymentDays" => lang.pick("Payment days", "Zahlungsziel in Tagen"),
        "stages" => lang.pick("Stages", "Stufen"),
        other => PARTICULARS
            .iter()
            .find(|p| p.name == other)
            .map_or(other, |p| lang.pick(p.en, p.de)),
    }
    .to_string()
}

fn hint(lang: Lang, field: &str) -> Option<String> {
    match field {
        "legalName" => Some(lang.pick(
            "Only when it differs from the company's name",
            "Nur wenn sie vom Namen der Firma abweicht",
        )),
        "registration" => Some(lang.pick(
            "Such as HRB 12345, Amtsgericht Hamburg",
            "Etwa HRB 12345, Amtsgericht Hamburg",
        )),
        "electronicAddress" => Some(lang.pick(
            "Scheme and identifier, such as 9930:DE123456789 or EM:invoices@example.com",
            "Schema und Kennung, etwa 9930:DE123456789 oder EM:rechnung@example.com",
        )),
        "iban" => Some(lang.pick("Spaces are allowed", "Leerzeichen sind erlaubt")),
        _ => None,
    }
    .map(str::to_string)
}

/// The stored value of a field, as the form shows it.
fn stored(c: &Company, field: &str) -> String {
    let p = &c.particulars;
    let text = |v: &Option<String>| v.clone().unwrap_or_default();
    match field {
        "legalName" => text(&p.legal_name),
        "street" => text(&p.street),
        "postalCode" => text(&p.postal_code),
        "city" => text(&p.city),
        "vatId" => text(&p.vat_id),
        "taxNumber" => text(&p.tax_number),
        "registration" => text(&p.registration),
        "managingDirectors" => text(&p.managing_directors),
        "contactName" => text(&p.contact_name),
        "contactPhone" => text(&p.contact_phone),
        "contactEmail" => text(&p.contact_email),
        "electronicAddress" => p
            .electronic_address
            .as_ref()
            .map(|a| a.written())
            .unwrap_or_default(),
        "iban" => p.iban.as_ref().map(|i| i.grouped()).unwrap_or_default(),
        "bic" => p
            .bic
            .as_ref()
            .map(|b| b.as_str().to_string())
            .unwrap_or_default(),
        "accountHolder" => text(&p.account_holder),
        "paymentDays" => c.payment_days.map(|d| d.to_string()).unwrap_or_default(),
        "stages" => c.workflow.join(" "),
        _ => String::new(),
    }
}

/// A refused form: which, and its problems.
struct Refusal<'a> {
    part: Part,
    problems: &'a Problems,
}

/// The settings page; a refused form shows what was typed and its problems.
fn page(ctx: &Ctx, status: StatusCode, refusal: Option<Refusal>) -> Result<Answer> {
    let lang = ctx.lang;
    let company = company::get(ctx.conn, &ctx.session.tenant.company_id)?;
    let owner = ctx.may(Capability::ManageSettings);
    let none = Problems::default();
    let problems = |part: Part| match &refusal {
        Some(r) if r.part == part => r.problems,
        _ => &none,
    };
    // What a form shows: what was typed into the refused one, else what is stored.
    let value = |part: Part, field: &str| match &refusal {
        Some(r) if r.part == part => ctx.form.get(field).unwrap_or("").to_string(),
        _ => stored(&company, field),
    };
    let small_business = match &refusal {
        Some(r) if r.part == Part::Particulars => ctx.form.all("smallBusiness").contains(&"yes"),
        _ => company.particulars.small_business,
    };
    let notice = match ctx.query.get("saved") {
        Some("particulars") => Some(lang.pick(
            "The particulars are saved; documents issued from now on carry them.",
            "Die Angaben sind gespeichert; ab jetzt ausgestellte Belege tragen sie.",
        )),
        Some("paymentDays") => Some(lang.pick(
            "The payment days are saved.",
            "Das Zahlungsziel ist gespeichert.",
        )),
        Some("workflow") => Some(lang.pick(
            "The workflow is saved.",
            "Der Arbeitsablauf ist gespeichert.",
        )),
        _ => None,
    };
    let country_days = jurisdiction::default_payment_days(company.country.as_str());
    let content = html! {
        @if let Some(notice) = notice.filter(|_| refusal.is_none()) {
            p.notice role="status" { (notice) }
        }
        @if ctx.may(Capability::ManageUsers) {
            p { a href="/settings/users" { (lang.pick("People of this company", "Personen dieser Firma")) } }
        }
        section aria-labelledby="company-heading" {
            h2 #company-heading { (lang.pick("Company", "Firma")) }
            dl.particulars {
                div { dt { "Name" } dd { (company.name) } }
                div { dt { (lang.pick("Country", "Land")) } dd { (company.country.as_str()) } }
                div { dt { (lang.pick("Book currency", "Buchwährung")) } dd { (company.currency.as_str()) } }
                div { dt { (lang.pick("Time zone", "Zeitzone")) } dd { (company.timezone) } }
            }
        }
        section aria-labelledby="particulars-heading" {
            h2 #particulars-heading { (lang.pick("Particulars on invoices", "Angaben auf Rechnungen")) }
            @if owner {
                (problems(Part::Particulars).summary(lang, &|f| label(lang, f)))
                form.stack method="post" action="/settings/company" novalidate {
                    (csrf(ctx))
                    p.legend { (lang.pick(
                        "A field left empty is cleared.",
                        "Ein leer gelassenes Feld wird gelöscht.",
                    )) }
                    @for p in PARTICULARS {
                        @let shown = value(Part::Particulars, p.name);
                        (Field {
                            name: p.name,
                            label: lang.pick(p.en, p.de).to_string(),
                            value: &shown,
                            required: false,
                            max: p.max,
                            kind: p.kind,
                            autocomplete: p.autocomplete,
                            hint: hint(lang, p.name),
                        }.render(lang, problems(Part::Particulars)))
                    }
                    fieldset.choices {
                        legend { (label(lang, "smallBusiness")) }
                        input type="hidden" name="smallBusiness" value="no";
                        div {
                            input #field-smallBusiness type="checkbox" name="smallBusiness" value="yes" checked[small_business];
                            label for="field-smallBusiness" { (lang.pick(
                                "Invoices charge no VAT and say so",
                                "Rechnungen weisen keine Umsatzsteuer aus und sagen das",
                            )) }
                        }
                    }
                    button type="submit" { (lang.pick("Save particulars", "Angaben speichern")) }
                }
            } @else {
                dl.particulars {
                    @for p in PARTICULARS {
                        div { dt { (lang.pick(p.en, p.de)) } dd { (stored(&company, p.name)) } }
                    }
                    div {
                        dt { (label(lang, "smallBusiness")) }
                        dd { (if company.particulars.small_business { lang.pick("yes", "ja") } else { lang.pick("no", "nein") }) }
                    }
                }
            }
        }
        section aria-labelledby="terms-heading" {
            h2 #terms-heading { (lang.pick("Payment days", "Zahlungsziel")) }
            @if owner {
                (problems(Part::PaymentDays).summary(lang, &|f| label(lang, f)))
                form.stack method="post" action="/settings/payment-days" novalidate {
                    (csrf(ctx))
                    @let shown = value(Part::PaymentDays, "paymentDays");
                    (Field {
                        name: "paymentDays",
                        label: label(lang, "paymentDays"),
                        value: &shown,
                        required: false,
                        max: 3,
                        kind: "text",
                        autocomplete: None,
                        hint: Some(match lang {
                            Lang::En => format!("0 to 365, for customers without agreed days of their own; empty: the country's {country_days}"),
                            Lang::De => format!("0 bis 365, für Kunden ohne eigenes vereinbartes Ziel; leer: das des Landes, {country_days}"),
                        }),
                    }.render(lang, problems(Part::PaymentDays)))
                    button type="submit" { (lang.pick("Save payment days", "Zahlungsziel speichern")) }
                }
            } @else {
                p {
                    @match company.payment_days {
                        Some(days) => { (days) (lang.pick(" days", " Tage")) }
                        None => { (country_days) (lang.pick(" days (the country's)", " Tage (das des Landes)")) }
                    }
                }
            }
        }
        section aria-labelledby="workflow-heading" {
            h2 #workflow-heading { (lang.pick("Workflow", "Arbeitsablauf")) }
            ol.stages {
                @for stage in &company.workflow {
                    li { code { (stage) } }
                }
            }
            @if owner {
                (problems(Part::Workflow).summary(lang, &|f| label(lang, f)))
                form.stack method="post" action="/settings/workflow" novalidate {
                    (csrf(ctx))
                    @let shown = value(Part::Workflow, "stages");
                    (Field {
                        name: "stages",
                        label: label(lang, "stages"),
                        value: &shown,
                        required: true,
                        max: 1300,
                        kind: "text",
                        autocomplete: None,
                        hint: Some(lang.pick(
                            "The stage keys in order, separated by spaces: upper-case letters, digits and _. New jobs start in the first. Add, rename, reorder or drop one here; a job in a stage no longer listed keeps it until moved.",
                            "Die Stufen-Schlüssel in ihrer Reihenfolge, durch Leerzeichen getrennt: Großbuchstaben, Ziffern und _. Neue Vorgänge beginnen in der ersten. Hier hinzufügen, umbenennen, umordnen oder streichen; ein Vorgang in einer nicht mehr genannten Stufe behält sie, bis er verschoben wird.",
                        ).to_string()),
                    }.render(lang, problems(Part::Workflow)))
                    button type="submit" { (lang.pick("Save workflow", "Arbeitsablauf speichern")) }
                }
            }
        }
    };
    Ok(screen_with(
        ctx,
        status,
        Screen::Settings,
        title(lang),
        content,
    ))
}

/// GET /settings
pub fn show(ctx: &Ctx) -> Result<Answer> {
    page(ctx, StatusCode::OK, None)
}

/// Answers a refused form with the page, what was typed and the problems;
/// another error passes on.
fn refused(ctx: &Ctx, part: Part, e: Error) -> Result<Answer> {
    match e {
        Error::Invalid(_) | Error::Refused(_) => {
            let problems = Problems::of(&e);
            page(
                ctx,
                e.status(),
                Some(Refusal {
                    part,
                    problems: &problems,
                }),
            )
        }
        other => Err(other),
    }
}

/// POST /settings/company: the particulars, as `company set` takes them
/// (a field sent empty is cleared, one not sent stays).
pub fn set_particulars(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::ManageSettings)?;
    let tenant = &ctx.session.tenant;
    let company = company::get(ctx.conn, &tenant.company_id)?;
    let patch = |name: &str| match ctx.form.sent(name).map(str::trim) {
        None => Patch::Absent,
        Some("") => Patch::Null,
        Some(text) => Patch::Value(text.to_string()),
    };
    let small = ctx.form.all("smallBusiness");
    let input = ParticularsInput {
        legal_name: patch("legalName"),
        street: patch("street"),
        postal_code: patch("postalCode"),
        city: patch("city"),
        vat_id: patch("vatId"),
        tax_number: patch("taxNumber"),
        registration: patch("registration"),
        contact_name: patch("contactName"),
        contact_phone: patch("contactPhone"),
        contact_email: patch("contactEmail"),
        electronic_address: patch("electronicAddress"),
        iban: patch("iban"),
        bic: patch("bic"),
        account_holder: patch("accountHolder"),
        managing_directors: patch("managingDirectors"),
        small_business: if small.contains(&"yes") {
            Some(true)
        } else if small.contains(&"no") {
            Some(false)
        } else {
            None
        },
    };
    let saved = ParticularsChange::check(input, &company.country)
        // The one whole-sentence refusal of the particulars is the VAT id's check.
        .map_err(|e| at_field(e, "vatId"))
        .and_then(|change| {
            ctx.app.db.write(|tx| {
                company::set_particulars(tx, &tenant.company_id, change)?;
                audit::record(
                    tx,
                    tenant,
                    &ctx.actor(),
                    "company.changed",
                    &tenant.company_id,
                )
            })
        });
    match saved {
        Ok(()) => Ok(see_other("/settings?saved=particulars")),
        Err(e) => refused(ctx, Part::Particulars, e),
    }
}

/// A refusal's whole sentences placed beside `field`.
fn at_field(e: Error, field: &str) -> Error {
    let place = |v: Vec<Violation>| {
        v.into_iter()
            .map(|v| match v.field {
                None => Violation::at(field, v.message),
                Some(_) => v,
            })
            .collect()
    };
    match e {
        Error::Invalid(v) => Error::Invalid(place(v)),
        Error::Refused(v) => Error::Refused(place(v)),
        other => other,
    }
}

/// POST /settings/payment-days `{paymentDays}`: the default payment days
/// (empty: the country's), as `company set --payment-days` sets them.
pub fn set_payment_days(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::ManageSettings)?;
    let tenant = &ctx.session.tenant;
    let days = match ctx.form.get("paymentDays").map(str::trim) {
        None | Some("") => Ok(None),
        Some(text) => text
            .parse::<i64>()
            .map(Some)
            .map_err(|_| Error::invalid("paymentDays", "is a whole number of days")),
    };
    let saved = days.and_then(|days| {
        ctx.app.db.write(|tx| {
            company::set_payment_days(tx, &tenant.company_id, days)?;
            audit::record(
                tx,
                tenant,
                &ctx.actor(),
                "company.payment_days_changed",
                &tenant.company_id,
            )
        })
    });
    match saved {
        Ok(()) => Ok(see_other("/settings?saved=paymentDays")),
        Err(e) => refused(ctx, Part::PaymentDays, e),
    }
}

/// POST /settings/workflow `{stages}`: the stage keys in order, separated
/// by white space or commas, as `company workflow` takes them.
pub fn set_workflow(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::ManageSettings)?;
    let tenant = &ctx.session.tenant;
    let stages: Vec<String> = ctx
        .form
        .get("stages")
        .unwrap_or("")
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    let saved = ctx.app.db.write(|tx| {
        company::set_workflow(tx, &tenant.company_id, &stages)?;
        audit::record(
            tx,
            tenant,
            &ctx.actor(),
            "company.workflow_changed",
            &tenant.company_id,
        )
    });
    match saved {
        Ok(()) => Ok(see_other("/settings?saved=workflow")),
        Err(e) => refused(ctx, Part::Workflow, e),
    }
}
