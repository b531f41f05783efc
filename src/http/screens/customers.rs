//! The customers: the paged list with its search, a new customer, and a
//! customer's particulars to read or change. Fields carry the API's names
//! (`name`, `street`, `postalCode`, …) and are checked by the books'
//! `NewCustomer::check`, so a refusal reads as it does through the API; a
//! refused form comes back with what was typed and the problem beside each
//! field. Every act records the person in the audit.

use hyper::StatusCode;
use maud::{html, Markup};

use super::page::{csrf, may_act, screen, screen_with, search_form, FormField, Problems, Screen};
use super::{see_other, Ctx};
use crate::access::people::Capability;
use crate::books::audit;
use crate::books::company;
use crate::books::customers::{
    self, Customer, CustomerChange, CustomerChangeInput, CustomerInput, EinvoiceFormat, NewCustomer,
};
use crate::error::{Error, Result};
use crate::http::pipeline::Answer;
use crate::http::query;
use crate::rules::locale::Lang;
use crate::rules::text::Patch;
use crate::store::page::Paging;

/// The fields of a new customer in order, named as the API names them.
const FIELDS: &[FormField] = &[
    FormField {
        name: "name",
        en: "Name",
        de: "Name",
        max: 200,
        kind: "text",
        autocomplete: Some("organization"),
        required: true,
    },
    FormField {
        name: "street",
        en: "Street and number",
        de: "Straße und Hausnummer",
        max: 200,
        kind: "text",
        autocomplete: Some("street-address"),
        required: true,
    },
    FormField {
        name: "postalCode",
        en: "Postal code",
        de: "Postleitzahl",
        max: 20,
        kind: "text",
        autocomplete: Some("postal-code"),
        required: true,
    },
    FormField {
        name: "city",
        en: "City",
        de: "Ort",
        max: 100,
        kind: "text",
        autocomplete: Some("address-level2"),
        required: true,
    },
    FormField {
        name: "country",
        en: "Country",
        de: "Land",
        max: 2,
        kind: "text",
        autocomplete: Some("country"),
        required: false,
    },
    FormField {
        name: "vatId",
        en: "VAT ID",
        de: "USt-IdNr.",
        max: 30,
        kind: "text",
        autocomplete: None,
        required: false,
    },
    FormField {
        name: "currency",
        en: "Invoicing currency",
        de: "Rechnungswährung",
        max: 3,
        kind: "text",
        autocomplete: None,
        required: false,
    },
    FormField {
        name: "email",
        en: "E-mail address",
        de: "E-Mail-Adresse",
        max: 254,
        kind: "email",
        autocomplete: Some("email"),
        required: false,
    },
    FormField {
        name: "contact",
        en: "Contact person",
        de: "Ansprechperson",
        max: 200,
        kind: "text",
        autocomplete: Some("name"),
        required: false,
    },
    FormField {
        name: "phone",
        en: "Phone",
        de: "Telefon",
        max: 50,
        kind: "tel",
        autocomplete: Some("tel"),
        required: false,
    },
];

/// The fields of a customer's change: the address, the VAT id, the terms
/// and the e-invoice settings, as `customer change` and `customer terms`
/// name them (`paymentDays` has no API field; it is the console flag's name).
const CHANGE_FIELDS: &[FormField] = &[
    FormField {
        name: "name",
        en: "Name",
        de: "Name",
        max: 200,
        kind: "text",
        autocomplete: Some("organization"),
        required: true,
    },
    FormField {
        name: "street",
        en: "Street and number",
        de: "Straße und Hausnummer",
        max: 200,
        kind: "text",
        autocomplete: Some("street-address"),
        required: true,
    },
    FormField {
        name: "postalCode",
        en: "Postal code",
        de: "Postleitzahl",
        max: 20,
        kind: "text",
        autocomplete: Some("postal-code"),
        required: true,
    },
    FormField {
        name: "city",
        en: "City",
        de: "Ort",
        max: 100,
        kind: "text",
        autocomplete: Some("address-level2"),
        required: true,
    },
    FormField {
        name: "country",
        en: "Country",
        de: "Land",
        max: 2,
        kind: "text",
        autocomplete: Some("country"),
        required: true,
    },
    FormField {
        name: "vatId",
        en: "VAT ID",
        de: "USt-IdNr.",
        max: 30,
        kind: "text",
        autocomplete: None,
        required: false,
    },
    FormField {
        name: "paymentDays",
        en: "Payment days",
        de: "Zahlungsziel in Tagen",
        max: 3,
        kind: "text",
        autocomplete: None,
        required: false,
    },
    FormField {
        name: "buyerReference",
        en: "Buyer reference (Leitweg-ID)",
        de: "Käuferreferenz (Leitweg-ID)",
        max: 200,
        kind: "text",
        autocomplete: None,
        required: false,
    },
    FormField {
        name: "electronicAddress",
        en: "Electronic address",
        de: "Elektronische Adresse",
        max: 120,
        kind: "text",
        autocomplete: None,
        required: false,
    },
];

fn label(lang: Lang, field: &str) -> String {
    if field == "einvoice" {
        return lang.pick("E-invoice format", "E-Rechnungsformat").into();
    }
    FIELDS
        .iter()
        .chain(CHANGE_FIELDS)
        .find(|f| f.name == field)
        .map_or(field, |f| lang.pick(f.en, f.de))
        .to_string()
}

fn hint(lang: Lang, field: &str, change: bool) -> Option<String> {
    match field {
        "country" if change => Some(lang.pick(
            "Two-letter ISO code such as DE",
            "Zweibuchstabiger ISO-Code wie DE",
        )),
        "country" => Some(lang.pick(
            "Two-letter ISO code such as DE; empty: the company's country",
            "Zweibuchstabiger ISO-Code wie DE; leer: das Land der Firma",
        )),
        "currency" => Some(lang.pick(
            "ISO code such as EUR; empty: the company's currency",
            "ISO-Code wie EUR; leer: die Währung der Firma",
        )),
        "paymentDays" => Some(lang.pick(
            "0 to 365; empty: the company's or the country's",
            "0 bis 365; leer: das der Firma oder des Landes",
        )),
        "electronicAddress" => Some(lang.pick(
            "Scheme and identifier, such as 0204:991-12345-67 or EM:invoices@example.com",
            "Schema und Kennung, etwa 0204:991-12345-67 oder EM:rechnung@example.com",
        )),
        _ => None,
    }
    .map(str::to_string)
}

/// The customer's stored value of a field, as the form shows it.
fn stored(c: &Customer, field: &str) -> String {
    match field {
        "name" => c.name.clone(),
        "street" => c.street.clone(),
        "postalCode" => c.postal_code.clone(),
        "city" => c.city.clone(),
        "country" => c.country.as_str().to_string(),
        "vatId" => c.vat_id.clone().unwrap_or_default(),
        "currency" => c
            .currency
            .as_ref()
            .map(|c| c.as_str().to_string())
            .unwrap_or_default(),
        "email" => c.email.clone().unwrap_or_default(),
        "contact" => c.contact.clone().unwrap_or_default(),
        "phone" => c.phone.clone().unwrap_or_default(),
        "paymentDays" => c.payment_days.map(|d| d.to_string()).unwrap_or_default(),
        "buyerReference" => c.buyer_reference.clone().unwrap_or_default(),
        "electronicAddress" => c
            .electronic_address
            .as_ref()
            .map(|a| format!("{}:{}", a.scheme, a.value))
            .unwrap_or_default(),
        "einvoice" => c.einvoice.as_str().to_string(),
        _ => String::new(),
    }
}

/// The form of `fields` with `value` of each and the problems of a refusal;
/// a change also offers the e-invoice format.
fn form(
    ctx: &Ctx,
    action: &str,
    fields: &[FormField],
    value: &dyn Fn(&str) -> String,
    problems: &Problems,
) -> Markup {
    let lang = ctx.lang;
    let values: Vec<String> = fields.iter().map(|f| value(f.name)).collect();
    let change = std::ptr::eq(fields, CHANGE_FIELDS);
    let format = value("einvoice");
    html! {
        (problems.summary(lang, &|f| label(lang, f)))
        form.stack method="post" action=(action) novalidate {
            (csrf(ctx))
            p.legend { (lang.pick("Fields marked * are required.", "Mit * markierte Felder sind Pflichtfelder.")) }
            @for (i, f) in fields.iter().enumerate() {
                (f.render(lang, &values[i], hint(lang, f.name, change), problems))
            }
            @if change {
                (format_field(lang, &format, problems))
            }
            button type="submit" { (lang.pick("Save", "Speichern")) }
        }
    }
}

/// The e-invoice format a customer receives, as a choice of the books' formats.
fn format_field(lang: Lang, chosen: &str, problems: &Problems) -> Markup {
    let name = |f: EinvoiceFormat| match f {
        EinvoiceFormat::Facturx => "Factur-X (PDF)",
        EinvoiceFormat::Xrechnung => "XRechnung",
        EinvoiceFormat::Peppol => "Peppol BIS 3.0",
    };
    let wrong = problems
        .list
        .iter()
        .any(|v| v.field.as_deref() == Some("einvoice"));
    html! {
        div.field.wrong[wrong] {
            label for="field-einvoice" { (label(lang, "einvoice")) }
            select #field-einvoice name="einvoice" aria-invalid=[wrong.then_some("true")] {
                @for f in EinvoiceFormat::ALL {
                    option value=(f.as_str()) selected[f.as_str() == chosen] { (name(*f)) }
                }
            }
        }
    }
}

/// What the form sent, as the books' input.
fn input(ctx: &Ctx) -> CustomerInput {
    let get = |name: &str| ctx.form.get(name).map(str::to_string);
    CustomerInput {
        name: get("name"),
        street: get("street"),
        postal_code: get("postalCode"),
        city: get("city"),
        country: get("country"),
        vat_id: get("vatId"),
        currency: get("currency"),
        email: get("email"),
        contact: get("contact"),
        phone: get("phone"),
    }
}

/// GET /customers?search=…&page=…
pub fn list(ctx: &Ctx) -> Result<Answer> {
    let lang = ctx.lang;
    let search = ctx.query.get("search").unwrap_or("");
    let paging = ctx.query.paging().unwrap_or(Paging { page: 0, size: 25 });
    let (page, problems) =
        match customers::list(ctx.conn, &ctx.session.tenant, Some(search), paging) {
            Ok(page) => (Some(page), Problems::default()),
            Err(e @ Error::Invalid(_)) => (None, Problems::of(&e)),
            Err(e) => return Err(e),
        };
    let link = |to: i64| {
        let mut href = format!("/customers?page={to}");
        if !search.is_empty() {
            href.push_str("&search=");
            href.push_str(&query::percent_encode(search));
        }
        href
    };
    let content = html! {
        @if may_act(ctx) {
            p { a.button href="/customers/new" { (lang.pick("New customer", "Neuer Kunde")) } }
        }
        (search_form(lang, "/customers", &[], lang.pick("Search name, number, e-mail or city", "Name, Nummer, E-Mail oder Ort suchen").into(), search, &problems))
        @if let Some(page) = &page {
            @if page.data.is_empty() {
                p { (lang.pick("No customer found.", "Kein Kunde gefunden.")) }
            } @else {
                table {
                    caption.visually-hidden { (lang.pick("Customers, newest first", "Kunden, die neuesten zuerst")) }
                    thead {
                        tr {
                            th scope="col" { (lang.pick("Number", "Nummer")) }
                            th scope="col" { "Name" }
                            th scope="col" { (lang.pick("City", "Ort")) }
                            th scope="col" { (lang.pick("Country", "Land")) }
                            th scope="col" { (lang.pick("E-mail", "E-Mail")) }
                        }
                    }
                    tbody {
                        @for c in &page.data {
                            tr {
                                td { (c.number) }
                                td { a href=(format!("/customers/{}", c.id)) { (c.name) } }
                                td { (c.city) }
                                td { (c.country.as_str()) }
                                td { (c.email.as_deref().unwrap_or("")) }
                            }
                        }
                    }
                }
                nav.pages aria-label=(lang.pick("Pages", "Seiten")) {
                    @if page.page > 0 {
                        a href=(link(page.page - 1)) rel="prev" { (lang.pick("Previous page", "Vorige Seite")) }
                    }
                    span {
                        (match lang {
                            Lang::En => format!("Page {} of {} ({} customers)", page.page + 1, pages(page.total, page.size), page.total),
                            Lang::De => format!("Seite {} von {} ({} Kunden)", page.page + 1, pages(page.total, page.size), page.total),
                        })
                    }
                    @if page.more {
                        a href=(link(page.page + 1)) rel="next" { (lang.pick("Next page", "Nächste Seite")) }
                    }
                }
            }
        }
    };
    let status = if problems.list.is_empty() {
        StatusCode::OK
    } else {
        StatusCode::BAD_REQUEST
    };
    Ok(screen_with(
        ctx,
        status,
        Screen::Customers,
        lang.pick("Customers", "Kunden"),
        content,
    ))
}

fn pages(total: i64, size: i64) -> i64 {
    ((total + size - 1) / size.max(1)).max(1)
}

/// GET /customers/new
pub fn new_form(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let lang = ctx.lang;
    let content = form(
        ctx,
        "/customers",
        FIELDS,
        &|_| String::new(),
        &Problems::default(),
    );
    Ok(screen(
        ctx,
        Screen::Customers,
        lang.pick("New customer", "Neuer Kunde"),
        content,
    ))
}

/// POST /customers
pub fn create(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let company = company::get(ctx.conn, &tenant.company_id)?;
    let created = NewCustomer::check(input(ctx), &company).and_then(|new| {
        ctx.app.db.write(|tx| {
            let id = customers::create(tx, tenant, &new)?;
            audit::record(tx, tenant, &ctx.actor(), "customer.created", &id)?;
            Ok(id)
        })
    });
    match created {
        Ok(id) => Ok(see_other(&format!("/customers/{id}?saved=1"))),
        Err(e @ (Error::Invalid(_) | Error::Refused(_))) => {
            let lang = ctx.lang;
            let typed = |f: &str| ctx.form.get(f).unwrap_or("").to_string();
            let content = form(ctx, "/customers", FIELDS, &typed, &Problems::of(&e));
            Ok(screen_with(
                ctx,
                e.status(),
                Screen::Customers,
                lang.pick("New customer", "Neuer Kunde"),
                content,
            ))
        }
        Err(e) => Err(e),
    }
}

/// The page of one customer: the form (or, for a viewer, the particulars)
/// and the history of who did what.
fn customer_page(
    ctx: &Ctx,
    customer: &Customer,
    status: StatusCode,
    value: &dyn Fn(&str) -> String,
    problems: &Problems,
) -> Result<Answer> {
    let lang = ctx.lang;
    let history = audit::history(ctx.conn, &ctx.session.tenant, &customer.id)?;
    let history_section = super::history::section(ctx, &history)?;
    let saved = ctx.query.get("saved") == Some("1") && problems.list.is_empty();
    let content = html! {
        p { (lang.pick("Customer number ", "Kundennummer ")) strong { (customer.number) } }
        @if saved {
            p.notice role="status" { (lang.pick("Saved.", "Gespeichert.")) }
        }
        @if may_act(ctx) {
            (form(ctx, &format!("/customers/{}", customer.id), CHANGE_FIELDS, value, problems))
        } @else {
            dl.particulars {
                @for f in FIELDS.iter().chain(CHANGE_FIELDS).filter(|f| !matches!(f.name, "name")) {
                    div { dt { (lang.pick(f.en, f.de)) } dd { (stored(customer, f.name)) } }
                }
                div { dt { (label(lang, "einvoice")) } dd { (stored(customer, "einvoice")) } }
            }
        }
        (history_section)
    };
    Ok(screen_with(
        ctx,
        status,
        Screen::Customers,
        &customer.name,
        content,
    ))
}

/// GET /customers/{id}
pub fn show(ctx: &Ctx, id: &str) -> Result<Answer> {
    let customer = customers::get(ctx.conn, &ctx.session.tenant, id)?;
    customer_page(
        ctx,
        &customer,
        StatusCode::OK,
        &|f| stored(&customer, f),
        &Problems::default(),
    )
}

/// POST /customers/{id}: the books' change of a customer (address, VAT id,
/// e-invoice settings) and, when given, its agreed payment days, in one act.
pub fn update(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let customer = customers::get(ctx.conn, tenant, id)?;
    // A required field sent empty is missing; an optional one sent empty
    // is cleared; a field not sent stays as it is.
    let given = |name: &str| ctx.form.sent(name).map(str::to_string);
    let patch = |name: &str| match ctx.form.sent(name).map(str::trim) {
        None => Patch::Absent,
        Some("") => Patch::Null,
        Some(text) => Patch::Value(text.to_string()),
    };
    let input = CustomerChangeInput {
        name: given("name"),
        street: given("street"),
        postal_code: given("postalCode"),
        city: given("city"),
        country: given("country"),
        vat_id: patch("vatId"),
        buyer_reference: patch("buyerReference"),
        electronic_address: patch("electronicAddress"),
        einvoice: given("einvoice"),
        ..CustomerChangeInput::default()
    };
    let days = match ctx.form.sent("paymentDays").map(str::trim) {
        None | Some("") => Ok(None),
        Some(text) => text
            .parse::<i64>()
            .map_err(|_| Error::invalid("paymentDays", "is a whole number of days"))
            .and_then(company::check_payment_days)
            .map(Some),
    };
    let checked = match (CustomerChange::check(input, &customer), days) {
        (Ok(change), Ok(days)) => Ok((change, days)),
        (Err(e), Ok(_)) | (Ok(_), Err(e)) => Err(e),
        (Err(e), Err(d)) => Err(joined(e, d)),
    };
    let changed = checked.and_then(|(change, days)| {
        ctx.app.db.write(|tx| {
            customers::change(tx, tenant, id, change)?;
            if let Some(days) = days {
                customers::set_terms(tx, tenant, id, days)?;
            }
            audit::record(tx, tenant, &ctx.actor(), "customer.changed", id)
        })
    });
    match changed {
        Ok(()) => Ok(see_other(&format!("/customers/{id}?saved=1"))),
        Err(e @ (Error::Invalid(_) | Error::Refused(_))) => {
            let typed = |f: &str| ctx.form.get(f).unwrap_or("").to_string();
            customer_page(ctx, &customer, e.status(), &typed, &Problems::of(&e))
        }
        Err(e) => Err(e),
    }
}

/// Both refusals' violations at once (an unreadable field outranks a rule's).
fn joined(first: Error, second: Error) -> Error {
    let mut all = first.violations().to_vec();
    all.extend(second.violations().iter().cloned());
    match (&first, &second) {
        (Error::Refused(_), Error::Refused(_)) => Error::Refused(all),
        _ => Error::Invalid(all),
    }
}
