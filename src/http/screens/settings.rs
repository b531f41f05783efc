//! The company's settings: the seller's particulars every invoice carries
//! (address, VAT id, registration, contact, bank account, electronic
//! address, small-business status), the default payment days, and the
//! workflow's stages. Everyone of the company reads them; only the owner
//! changes them, through the same books functions `kontor company set` and
//! `kontor company workflow` call (`ParticularsChange::check` and
//! `company::set_particulars`, `company::set_payment_days`,
//! `company::set_workflow`), so a refusal reads as it does there. Each form
//! is one act, which records its audit row; a refused form comes back with what was
//! typed and the problem beside the field. The people of the company are
//! in `users`.

use hyper::StatusCode;
use maud::html;

use super::context::Ctx;
use super::form::{post, Acted, Form, FormField, Problems};
use super::frame::{screen_with, see_other, Noun, Screen};
use crate::access::people::Capability;
use crate::books::company::{self, Company};
use crate::books::particulars::{self, ParticularsChange, ParticularsInput};
use crate::error::{Error, Result};
use crate::http::app::Answer;
use crate::rules::jurisdiction;
use crate::rules::locale::Lang;

/// The forms of the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Particulars,
    PaymentDays,
    Workflow,
}

/// The seller's particulars, each named as `company set` names its flag
/// (in camelCase); a field left empty is cleared. The one refusal of the
/// whole the books give them is the VAT id's check.
/// Days, counted.
const DAYS: Noun = Noun {
    en: ("day", "days"),
    de: ("Tag", "Tage"),
};

const PARTICULARS: Form = Form::new(&[
    FormField::text(
        "legalName",
        "Registered name",
        "Firmierung",
        particulars::MAX_LEGAL_NAME,
    )
    .autocomplete("organization")
    .hint(
        "Only when it differs from the company's name",
        "Nur wenn sie vom Namen der Firma abweicht",
    ),
    FormField::text(
        "street",
        "Street and number",
        "Straße und Hausnummer",
        particulars::MAX_STREET,
    )
    .autocomplete("street-address"),
    FormField::text(
        "postalCode",
        "Postal code",
        "Postleitzahl",
        particulars::MAX_POSTAL_CODE,
    )
    .autocomplete("postal-code"),
    FormField::text("city", "City", "Ort", particulars::MAX_CITY).autocomplete("address-level2"),
    FormField::text("vatId", "VAT ID", "USt-IdNr.", particulars::MAX_VAT_ID),
    FormField::text(
        "taxNumber",
        "Tax number",
        "Steuernummer",
        particulars::MAX_TAX_NUMBER,
    ),
    FormField::text(
        "registration",
        "Register entry",
        "Registereintrag",
        particulars::MAX_REGISTRATION,
    )
    .hint(
        "Such as HRB 12345, Amtsgericht Hamburg",
        "Etwa HRB 12345, Amtsgericht Hamburg",
    ),
    FormField::text(
        "managingDirectors",
        "Managing directors",
        "Geschäftsführung",
        particulars::MAX_MANAGING_DIRECTORS,
    ),
    FormField::text(
        "contactName",
        "Contact person",
        "Ansprechpartner",
        particulars::MAX_CONTACT_NAME,
    )
    .autocomplete("name"),
    FormField::text(
        "contactPhone",
        "Contact telephone",
        "Telefon",
        particulars::MAX_CONTACT_PHONE,
    )
    .kind("tel")
    .autocomplete("tel"),
    FormField::text(
        "contactEmail",
        "Contact e-mail address",
        "E-Mail-Adresse",
        particulars::MAX_CONTACT_EMAIL,
    )
    .kind("email")
    .autocomplete("email"),
    FormField::electronic_address().hint(
        "Scheme and identifier, such as 9930:DE123456789 or EM:invoices@example.com",
        "Schema und Kennung, etwa 9930:DE123456789 oder EM:rechnung@example.com",
    ),
    // Up to 34 characters, in groups of four.
    FormField::text("iban", "IBAN", "IBAN", 50)
        .hint("Spaces are allowed", "Leerzeichen sind erlaubt"),
    // 8 or 11 characters.
    FormField::text("bic", "BIC", "BIC", 11),
    FormField::text(
        "accountHolder",
        "Account holder",
        "Kontoinhaber",
        particulars::MAX_ACCOUNT_HOLDER,
    ),
])
.naming(&[(
    "smallBusiness",
    "Small business (§19 UStG)",
    "Kleinunternehmer (§19 UStG)",
)])
.whole_at("vatId");

/// The default payment days (up to 365; its hint names the country's).
const PAYMENT_DAYS_FIELD: FormField =
    FormField::text("paymentDays", "Payment days", "Zahlungsziel in Tagen", 3);
const PAYMENT_DAYS: Form = Form::new(&[PAYMENT_DAYS_FIELD]);

/// The workflow's stage keys, in order (up to 30 of up to 40 characters).
const WORKFLOW: Form = Form::new(&[FormField::text("stages", "Stages", "Stufen", 1300)
    .required()
    .hint(
        "The stage keys in order, separated by spaces: upper-case letters, digits and _. New jobs start in the first. Add, rename, reorder or drop one here; a job in a stage no longer listed keeps it until moved.",
        "Die Stufen-Schlüssel in ihrer Reihenfolge, durch Leerzeichen getrennt: Großbuchstaben, Ziffern und _. Neue Vorgänge beginnen in der ersten. Hier hinzufügen, umbenennen, umordnen oder streichen; ein Vorgang in einer nicht mehr genannten Stufe behält sie, bis er verschoben wird.",
    )]);

fn title(lang: Lang) -> &'static str {
    lang.pick("Settings", "Einstellungen")
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
struct Refused<'a> {
    part: Part,
    problems: &'a Problems,
}

/// The settings page; a refused form shows what was typed and its problems.
fn page(ctx: &Ctx, status: StatusCode, refusal: Option<Refused>) -> Result<Answer> {
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
        Some(r) if r.part == Part::Particulars => ctx.yes_no("smallBusiness") == Some(true),
        _ => company.particulars.small_business,
    };
    let notice = ctx.notice(
        "saved",
        &[
            (
                "particulars",
                "The particulars are saved; documents issued from now on carry them.",
                "Die Angaben sind gespeichert; ab jetzt ausgestellte Belege tragen sie.",
            ),
            (
                "paymentDays",
                "The payment days are saved.",
                "Das Zahlungsziel ist gespeichert.",
            ),
            (
                "workflow",
                "The workflow is saved.",
                "Der Arbeitsablauf ist gespeichert.",
            ),
        ],
    );
    let country_days = jurisdiction::default_payment_days(company.country.as_str());
    let content = html! {
        @if let Some(notice) = notice.filter(|_| refusal.is_none()) {
            p.notice role="status" { (notice) }
        }
        @if ctx.may(Capability::ManageUsers) {
            p { a href="/settings/users" { (lang.pick("People of this company", "Personen dieser Firma")) } }
            p { a href="/settings/bank" { (lang.pick("Bank accounts and fee tolerance", "Bankkonten und Gebührentoleranz")) } }
        }
        @if owner {
            p { a href="/settings/mail" { (lang.pick("Mail settings", "E-Mail-Einstellungen")) } }
        }
        p { a href="/settings/tax" { (lang.pick(
            "Tax methods: legal form, VAT on invoices or payments, balance sheet or EÜR, VAT return period",
            "Steuerliche Angaben: Rechtsform, Soll- oder Istversteuerung, Bilanz oder EÜR, Voranmeldungszeitraum",
        )) } }
        p { a href="/settings/datev" { (lang.pick(
            "DATEV: chart of accounts, adviser and client numbers, fiscal year, account numbers",
            "DATEV: Kontenrahmen, Berater- und Mandantennummer, Wirtschaftsjahr, Kontonummern",
        )) } }
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
                (PARTICULARS.summary(lang, problems(Part::Particulars)))
                (post(ctx, "/settings/company", html! {
                    p.legend { (lang.pick(
                        "A field left empty is cleared.",
                        "Ein leer gelassenes Feld wird gelöscht.",
                    )) }
                    (PARTICULARS.fields(lang, &|f| value(Part::Particulars, f), problems(Part::Particulars)))
                    (PARTICULARS.yes_no(lang, "smallBusiness", lang.pick(
                        "Invoices charge no VAT and say so",
                        "Rechnungen weisen keine Umsatzsteuer aus und sagen das",
                    ), small_business))
                }, lang.pick("Save particulars", "Angaben speichern")))
            } @else {
                dl.particulars {
                    @for p in PARTICULARS.text_fields() {
                        div { dt { (lang.pick(p.en, p.de)) } dd { (stored(&company, p.name)) } }
                    }
                    div {
                        dt { (PARTICULARS.label(lang, "smallBusiness")) }
                        dd { (if company.particulars.small_business { lang.pick("yes", "ja") } else { lang.pick("no", "nein") }) }
                    }
                }
            }
        }
        section aria-labelledby="terms-heading" {
            h2 #terms-heading { (lang.pick("Payment days", "Zahlungsziel")) }
            @if owner {
                (PAYMENT_DAYS.summary(lang, problems(Part::PaymentDays)))
                (post(ctx, "/settings/payment-days", html! {
                    (PAYMENT_DAYS_FIELD.render_hinted(lang, &value(Part::PaymentDays, "paymentDays"), Some(match lang {
                        Lang::En => format!("0 to 365, for customers without agreed days of their own; empty: the country's {country_days}"),
                        Lang::De => format!("0 bis 365, für Kunden ohne eigenes vereinbartes Ziel; leer: das des Landes, {country_days}"),
                    }), problems(Part::PaymentDays)))
                }, lang.pick("Save payment days", "Zahlungsziel speichern")))
            } @else {
                p {
                    @match company.payment_days {
                        Some(days) => { (DAYS.count(lang, days)) }
                        None => { (DAYS.count(lang, country_days)) (lang.pick(" (the country's)", " (das des Landes)")) }
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
                (WORKFLOW.summary(lang, problems(Part::Workflow)))
                (post(ctx, "/settings/workflow", WORKFLOW.fields(lang, &|f| value(Part::Workflow, f), problems(Part::Workflow)), lang.pick("Save workflow", "Arbeitsablauf speichern")))
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

/// Answers an act of one form of the page: the page again with what was
/// typed and the problems, or on to the page saying what is `saved`.
fn answer(ctx: &Ctx, part: Part, saved: &str, acted: Acted<()>) -> Result<Answer> {
    match acted {
        Acted::Done(()) => Ok(see_other(&format!("/settings?saved={saved}"))),
        Acted::Refused(r) => page(
            ctx,
            r.status,
            Some(Refused {
                part,
                problems: &r.problems,
            }),
        ),
    }
}

/// POST /settings/company: the particulars, as `company set` takes them
/// (a field sent empty is cleared, one not sent stays).
pub fn set_particulars(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::ManageSettings)?;
    let tenant = &ctx.session.tenant;
    let company = company::get(ctx.conn, &tenant.company_id)?;
    let input = ParticularsInput {
        legal_name: ctx.patch("legalName"),
        street: ctx.patch("street"),
        postal_code: ctx.patch("postalCode"),
        city: ctx.patch("city"),
        vat_id: ctx.patch("vatId"),
        tax_number: ctx.patch("taxNumber"),
        registration: ctx.patch("registration"),
        contact_name: ctx.patch("contactName"),
        contact_phone: ctx.patch("contactPhone"),
        contact_email: ctx.patch("contactEmail"),
        electronic_address: ctx.patch("electronicAddress"),
        iban: ctx.patch("iban"),
        bic: ctx.patch("bic"),
        account_holder: ctx.patch("accountHolder"),
        managing_directors: ctx.patch("managingDirectors"),
        small_business: ctx.yes_no("smallBusiness"),
        legal_form: ctx.patch("legalForm"),
    };
    let checked = ParticularsChange::check(input, &company.country);
    let saved = PARTICULARS.act(ctx, checked, |tx, change| {
        company::set_particulars(tx, tenant, &ctx.actor(), change).map(|_| ())
    })?;
    answer(ctx, Part::Particulars, "particulars", saved)
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
            .map_err(|_| Error::invalid("paymentDays", crate::error::said::Input::WholeDays)),
    };
    let saved = PAYMENT_DAYS.act(ctx, days, |tx, days| {
        company::set_payment_days(tx, tenant, &ctx.actor(), days).map(|_| ())
    })?;
    answer(ctx, Part::PaymentDays, "paymentDays", saved)
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
    let saved = WORKFLOW.act(ctx, Ok(stages), |tx, stages| {
        company::set_workflow(tx, tenant, &ctx.actor(), &stages).map(|_| ())
    })?;
    answer(ctx, Part::Workflow, "workflow", saved)
}
