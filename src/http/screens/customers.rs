//! The customers: the paged list with its search, a new customer, and a
//! customer's page: its account (balance, invoices and credit notes, bills,
//! reminders, payments, each open amount and how long it is overdue) and
//! its particulars to read or change. Fields carry the API's names
//! (`name`, `street`, `postalCode`, …) and are checked by the books'
//! `NewCustomer::check`, so a refusal reads as it does through the API; a
//! refused form comes back with what was typed and the problem beside each
//! field. Every act is the person's: the books record them in the audit.

use hyper::StatusCode;
use maud::{html, Markup};

use super::context::Ctx;
use super::form::{
    both, choice, post, queried, required_note, search_form, Acted, Form, FormField, Problems,
};
use super::frame::{
    invoice_href, may_act, pager, screen, screen_with, see_other, th, th_amount, Noun, Screen,
    Table,
};
use super::history;
use crate::access::people::Capability;
use crate::books::audit;
use crate::books::company;
use crate::books::customers::{
    self, Customer, CustomerChange, CustomerChangeInput, CustomerInput, EinvoiceFormat,
    NewCustomer, Side,
};
use crate::books::partner_account::{self, PartnerAccount};
use crate::error::{Error, Result};
use crate::http::app::Answer;
use crate::http::query;
use crate::rules::iso::Currency;
use crate::rules::locale::{self, Lang};

/// The fields every customer has, as the API names them.
const NAME: FormField = FormField::text("name", "Name", "Name", customers::MAX_NAME)
    .required()
    .autocomplete("organization");
const STREET: FormField = FormField::text(
    "street",
    "Street and number",
    "Straße und Hausnummer",
    customers::MAX_STREET,
)
.required()
.autocomplete("street-address");
const POSTAL_CODE: FormField = FormField::text(
    "postalCode",
    "Postal code",
    "Postleitzahl",
    customers::MAX_POSTAL_CODE,
)
.required()
.autocomplete("postal-code");
const CITY: FormField = FormField::text("city", "City", "Ort", customers::MAX_CITY)
    .required()
    .autocomplete("address-level2");
const COUNTRY: FormField =
    FormField::text("country", "Country", "Land", customers::MAX_COUNTRY).autocomplete("country");
const VAT_ID: FormField = FormField::text("vatId", "VAT ID", "USt-IdNr.", customers::MAX_VAT_ID);

/// A new customer's form, its fields in order as the API names them.
const NEW: Form = Form::new(&[
    NAME,
    STREET,
    POSTAL_CODE,
    CITY,
    COUNTRY.hint(
        "Two-letter ISO code such as DE; empty: the company's country",
        "Zweibuchstabiger ISO-Code wie DE; leer: das Land der Firma",
    ),
    VAT_ID,
    FormField::text(
        "currency",
        "Invoicing currency",
        "Rechnungswährung",
        customers::MAX_CURRENCY,
    )
    .hint(
        "ISO code such as EUR; empty: the company's currency",
        "ISO-Code wie EUR; leer: die Währung der Firma",
    ),
    EMAIL,
    CONTACT,
    PHONE,
]);

/// The partner's e-mail address, contact person and phone, on both forms.
const EMAIL: FormField = FormField::text(
    "email",
    "E-mail address",
    "E-Mail-Adresse",
    customers::MAX_EMAIL,
)
.kind("email")
.autocomplete("email");
const CONTACT: FormField = FormField::text(
    "contact",
    "Contact person",
    "Ansprechperson",
    customers::MAX_CONTACT,
)
.autocomplete("name");
const PHONE: FormField = FormField::text("phone", "Phone", "Telefon", customers::MAX_PHONE)
    .kind("tel")
    .autocomplete("tel");

/// A customer's change: the address, the VAT id, the terms and the
/// e-invoice settings, as `customer change` and `customer terms` name them
/// (`paymentDays` has no API field; it is the console flag's name).
const CHANGE: Form = Form::new(&[
    NAME,
    STREET,
    POSTAL_CODE,
    CITY,
    COUNTRY.required().hint(
        "Two-letter ISO code such as DE",
        "Zweibuchstabiger ISO-Code wie DE",
    ),
    VAT_ID,
    EMAIL,
    CONTACT,
    PHONE,
    // Up to 365 days.
    FormField::text("paymentDays", "Payment days", "Zahlungsziel in Tagen", 3).hint(
        "0 to 365; empty: the company's or the country's",
        "0 bis 365; leer: das der Firma oder des Landes",
    ),
    FormField::text(
        "buyerReference",
        "Buyer reference (Leitweg-ID)",
        "Käuferreferenz (Leitweg-ID)",
        customers::MAX_BUYER_REFERENCE,
    ),
    FormField::electronic_address().hint(
        "Scheme and identifier, such as 0204:991-12345-67 or EM:invoices@example.com",
        "Schema und Kennung, etwa 0204:991-12345-67 oder EM:rechnung@example.com",
    ),
    // The partner's bank account: the bank import knows its payments by it.
    FormField::text("iban", "IBAN", "IBAN", 42).hint(
        "The account the partner pays from, such as DE89 3704 0044 0532 0130 00",
        "Das Konto, von dem der Partner zahlt, etwa DE89 3704 0044 0532 0130 00",
    ),
    FormField::text(
        "invoiceEmail",
        "Invoice e-mail address",
        "E-Mail-Adresse für Rechnungen",
        customers::MAX_EMAIL,
    )
    .kind("email")
    .hint(
        "Where invoices and reminders are sent; empty: the e-mail address",
        "Wohin Rechnungen und Mahnungen gehen; leer: die E-Mail-Adresse",
    ),
])
.naming(&[
    ("einvoice", "E-invoice format", "E-Rechnungsformat"),
    ("consumer", "Consumer", "Verbraucher"),
    (
        "language",
        "Language of mail and reminders",
        "Sprache von E-Mails und Mahnungen",
    ),
]);

/// The search of the list.
const SEARCH: FormField = FormField::text(
    "search",
    "Search name, number, e-mail or city",
    "Name, Nummer, E-Mail oder Ort suchen",
    customers::MAX_SEARCH,
)
.kind("search");

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
        "iban" => c.iban.as_ref().map(|i| i.grouped()).unwrap_or_default(),
        "electronicAddress" => c
            .electronic_address
            .as_ref()
            .map(|a| format!("{}:{}", a.scheme, a.value))
            .unwrap_or_default(),
        "einvoice" => c.einvoice.as_str().to_string(),
        "invoiceEmail" => c.invoice_email.clone().unwrap_or_default(),
        "consumer" => if c.consumer { "yes" } else { "no" }.to_string(),
        "language" => c.language.map(|l| l.code().to_string()).unwrap_or_default(),
        _ => String::new(),
    }
}

/// The form of a new customer, or of a customer's `change` (which also
/// offers the e-invoice format), with `value` of each field and the
/// problems of a refusal.
fn form(
    ctx: &Ctx,
    action: &str,
    change: bool,
    value: &dyn Fn(&str) -> String,
    problems: &Problems,
) -> Markup {
    let lang = ctx.lang;
    let form = if change { &CHANGE } else { &NEW };
    let format = value("einvoice");
    html! {
        (form.summary(lang, problems))
        (post(ctx, action, html! {
            (required_note(lang))
            (form.fields(lang, value, problems))
            @if change {
                (format_field(lang, &format, problems))
                (choice(
                    lang,
                    "language",
                    &CHANGE.label(lang, "language"),
                    &[
                        (String::new(), lang.pick("By the customer's country", "Nach dem Land des Kunden").to_string()),
                        ("de".to_string(), "Deutsch".to_string()),
                        ("en".to_string(), "English".to_string()),
                    ],
                    &value("language"),
                    None,
                    problems,
                ))
                (CHANGE.yes_no(lang, "consumer", lang.pick(
                    "A consumer, not a business (default interest of 5 points, no flat sum)",
                    "Ein Verbraucher, kein Unternehmen (Verzugszinsen 5 Punkte, keine Pauschale)",
                ), value("consumer") == "yes"))
            }
        }, lang.pick("Save", "Speichern")))
    }
}

/// The e-invoice format a customer receives, as a choice of the books' formats.
fn format_field(lang: Lang, chosen: &str, problems: &Problems) -> Markup {
    let name = |f: EinvoiceFormat| match f {
        EinvoiceFormat::Facturx => "Factur-X (PDF)",
        EinvoiceFormat::Xrechnung => "XRechnung",
        EinvoiceFormat::Peppol => "Peppol BIS 3.0",
    };
    let wrong = problems.at("einvoice");
    html! {
        div.field.wrong[wrong] {
            label for="field-einvoice" { (CHANGE.label(lang, "einvoice")) }
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
    let paging = ctx.paging();
    let (page, problems) = queried(customers::list_side(
        ctx.conn,
        &ctx.session.tenant,
        Side::Customers,
        Some(search),
        paging,
    ))?;
    let link = |to: i64| {
        let mut href = format!("/customers?page={to}");
        if !search.is_empty() {
            href.push_str("&search=");
            href.push_str(&query::percent_encode(search));
        }
        href
    };
    let content = html! {
        p { a href="/suppliers" { (lang.pick("Suppliers", "Lieferanten")) } }
        @if may_act(ctx) {
            p { a.button href="/customers/new" { (lang.pick("New customer", "Neuer Kunde")) } }
        }
        (search_form(lang, "/customers", &[], &SEARCH, search, &problems))
        @if let Some(page) = &page {
            @if page.data.is_empty() {
                p { (lang.pick("No customer found.", "Kein Kunde gefunden.")) }
            } @else {
                (Table::new(&[
                    th(lang.pick("Number", "Nummer")), th("Name"), th(lang.pick("City", "Ort")),
                    th(lang.pick("Country", "Land")), th(lang.pick("E-mail", "E-Mail")),
                ])
                .read_caption(lang.pick("Customers, newest first", "Kunden, die neuesten zuerst"))
                .rows(&page.data, |c| html! {
                    td { (c.number) }
                    td { a href=(format!("/customers/{}", c.id)) { (c.name) } }
                    td { (c.city) }
                    td { (c.country.as_str()) }
                    td { (c.email.as_deref().unwrap_or("")) }
                }))
                (pager(lang, page, &link, Noun { en: ("customer", "customers"), de: ("Kunde", "Kunden") }))
            }
        }
    };
    Ok(screen_with(
        ctx,
        problems.query_status(),
        Screen::Customers,
        lang.pick("Customers", "Kunden"),
        content,
    ))
}

/// GET /suppliers?search=…&page=…: the partners who sent bills, each with
/// its IBAN and what is still to pay; a partner who is a customer too is
/// in both lists, and its page is the same.
pub fn suppliers(ctx: &Ctx) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let search = ctx.query.get("search").unwrap_or("");
    let (page, problems) = queried(customers::list_side(
        ctx.conn,
        tenant,
        Side::Suppliers,
        Some(search),
        ctx.paging(),
    ))?;
    let link = |to: i64| {
        let mut href = format!("/suppliers?page={to}");
        if !search.is_empty() {
            href.push_str("&search=");
            href.push_str(&query::percent_encode(search));
        }
        href
    };
    let mut open = Vec::new();
    if let Some(page) = &page {
        for c in &page.data {
            open.push(partner_account::to_pay(ctx.conn, tenant, &c.id)?);
        }
    }
    let content = html! {
        p { a href="/customers" { (lang.pick("Customers", "Kunden")) } " · " a href="/bills" { (lang.pick("Bills", "Eingangsrechnungen")) } }
        (search_form(lang, "/suppliers", &[], &SEARCH, search, &problems))
        @if let Some(page) = &page {
            @if page.data.is_empty() {
                p { (lang.pick("No supplier found.", "Kein Lieferant gefunden.")) }
            } @else {
                (Table::new(&[
                    th(lang.pick("Number", "Nummer")), th("Name"), th(lang.pick("City", "Ort")),
                    th("IBAN"), th_amount(lang.pick("To pay", "Zu zahlen")),
                ])
                .read_caption(lang.pick("Suppliers, newest first", "Lieferanten, die neuesten zuerst"))
                .id("suppliers")
                .rows(page.data.iter().zip(&open), |(c, to_pay)| html! {
                    td { (c.number) }
                    td { a href=(format!("/customers/{}", c.id)) { (c.name) } }
                    td { (c.city) }
                    td { (c.iban.as_ref().map(|i| i.grouped()).unwrap_or_default()) }
                    td class="num" {
                        @for (i, (currency, amount)) in to_pay.iter().enumerate() {
                            @if i > 0 { br; }
                            (locale::amount(lang, *amount, currency))
                        }
                    }
                }))
                (pager(lang, page, &link, Noun { en: ("supplier", "suppliers"), de: ("Lieferant", "Lieferanten") }))
            }
        }
    };
    Ok(screen_with(
        ctx,
        problems.query_status(),
        Screen::Customers,
        lang.pick("Suppliers", "Lieferanten"),
        content,
    ))
}

/// GET /customers/new
pub fn new_form(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let lang = ctx.lang;
    let content = form(
        ctx,
        "/customers",
        false,
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
    let created = NEW.act(ctx, NewCustomer::check(input(ctx), &company), |tx, new| {
        customers::create(tx, tenant, &ctx.actor(), &new)
    })?;
    match created {
        Acted::Done(id) => Ok(see_other(&format!("/customers/{id}?saved=1"))),
        Acted::Refused(r) => {
            let lang = ctx.lang;
            let content = form(ctx, "/customers", false, &|f| ctx.typed(f), &r.problems);
            Ok(screen_with(
                ctx,
                r.status,
                Screen::Customers,
                lang.pick("New customer", "Neuer Kunde"),
                content,
            ))
        }
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
    let history_section = history::section(ctx, &history)?;
    let saved = ctx.query.get("saved") == Some("1") && problems.list.is_empty();
    let account = partner_account::account(ctx.conn, &ctx.session.tenant, &customer.id)?;
    let content = html! {
        p { (lang.pick("Customer number ", "Kundennummer ")) strong { (customer.number) } }
        @if saved {
            p.notice role="status" { (lang.pick("Saved.", "Gespeichert.")) }
        }
        (account_section(lang, &account))
        @if may_act(ctx) {
            (form(ctx, &format!("/customers/{}", customer.id), true, value, problems))
        } @else {
            dl.particulars {
                @for f in CHANGE.text_fields().iter().chain(NEW.text_fields().iter().filter(|f| !CHANGE.text_fields().iter().any(|c| c.name == f.name))).filter(|f| f.name != "name") {
                    div { dt { (lang.pick(f.en, f.de)) } dd { (stored(customer, f.name)) } }
                }
                div { dt { (CHANGE.label(lang, "einvoice")) } dd { (stored(customer, "einvoice")) } }
                div { dt { (CHANGE.label(lang, "language")) } dd { (stored(customer, "language")) } }
                div { dt { (CHANGE.label(lang, "consumer")) } dd { (if customer.consumer { lang.pick("yes", "ja") } else { lang.pick("no", "nein") }) } }
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
    let input = CustomerChangeInput {
        name: given("name"),
        street: given("street"),
        postal_code: given("postalCode"),
        city: given("city"),
        country: given("country"),
        vat_id: ctx.patch("vatId"),
        buyer_reference: ctx.patch("buyerReference"),
        electronic_address: ctx.patch("electronicAddress"),
        einvoice: given("einvoice"),
        iban: ctx.patch("iban"),
        invoice_email: ctx.patch("invoiceEmail"),
        consumer: ctx.yes_no("consumer"),
        language: ctx.patch("language"),
        email: ctx.patch("email"),
        contact: ctx.patch("contact"),
        phone: ctx.patch("phone"),
    };
    let days = match ctx.form.sent("paymentDays").map(str::trim) {
        None | Some("") => Ok(None),
        Some(text) => text
            .parse::<i64>()
            .map_err(|_| Error::invalid("paymentDays", crate::error::said::Input::WholeDays))
            .and_then(company::check_payment_days)
            .map(Some),
    };
    let checked = both(CustomerChange::check(input, &customer), days);
    let changed = CHANGE.act(ctx, checked, |tx, (change, days)| {
        customers::change(tx, tenant, &ctx.actor(), id, change.with_terms(days)).map(|_| ())
    })?;
    match changed {
        Acted::Done(()) => Ok(see_other(&format!("/customers/{id}?saved=1"))),
        Acted::Refused(r) => {
            customer_page(ctx, &customer, r.status, &|f| ctx.typed(f), &r.problems)
        }
    }
}

/// The partner's account: the balance of its personal accounts, the
/// documents issued to it and the bills it sent with what is open and
/// overdue, the reminders and the payments.
fn account_section(lang: Lang, a: &PartnerAccount) -> Markup {
    let amount = |minor: i64, currency: &Currency| locale::amount(lang, minor, currency);
    let overdue = |days: i64| {
        if days == 0 {
            String::new()
        } else {
            match lang {
                Lang::De => format!("{days} Tage überfällig"),
                Lang::En if days == 1 => "1 day overdue".to_string(),
                Lang::En => format!("{days} days overdue"),
            }
        }
    };
    html! {
        section aria-labelledby="account-heading" {
            h2 #account-heading { (lang.pick("Account", "Konto")) }
            dl.particulars #balance {
                div { dt { (lang.pick("Owes the company (receivables)", "Schuldet der Firma (Forderungen)")) } dd { (amount(a.receivable, &a.book_currency)) } }
                div { dt { (lang.pick("The company owes (payables)", "Die Firma schuldet (Verbindlichkeiten)")) } dd { (amount(a.payable, &a.book_currency)) } }
            }
            @if !a.issued.is_empty() {
                (Table::new(&[
                    th(lang.pick("Invoice", "Rechnung")), th(lang.pick("Issued", "Ausgestellt")),
                    th(lang.pick("Due", "Fällig")), th_amount(lang.pick("Total", "Betrag")),
                    th_amount(lang.pick("Open", "Offen")), th(lang.pick("Overdue", "Überfällig")),
                ])
                .caption(lang.pick("Invoices and credit notes", "Rechnungen und Gutschriften"))
                .id("partner-invoices")
                .rows(&a.issued, |d| html! {
                    td {
                        a href=(invoice_href(&d.number, "")) { (d.number) }
                        @if d.credit { " (" (lang.pick("credit note", "Gutschrift")) ")" }
                    }
                    td { (locale::date(lang, d.dated)) }
                    td { (locale::date(lang, d.due_on)) }
                    td class="num" { (amount(d.gross, &d.currency)) }
                    td class="num" { (amount(d.outstanding, &d.currency)) }
                    td { (overdue(d.overdue_days)) }
                }))
            }
            @if !a.received.is_empty() {
                (Table::new(&[
                    th(lang.pick("Bill", "Eingangsrechnung")), th(lang.pick("Dated", "Datiert")),
                    th(lang.pick("Due", "Fällig")), th_amount(lang.pick("Total", "Betrag")),
                    th_amount(lang.pick("To pay", "Zu zahlen")), th(lang.pick("Overdue", "Überfällig")),
                ])
                .caption(lang.pick("Bills from this partner", "Eingangsrechnungen dieses Partners"))
                .id("partner-bills")
                .rows(&a.received, |b| html! {
                    td {
                        a href=(format!("/bills/{}", b.id)) { (b.number) }
                        @if b.credit { " (" (lang.pick("credit", "Gutschrift")) ")" }
                    }
                    td { (locale::date(lang, b.dated)) }
                    td { (locale::date(lang, b.due_on)) }
                    td class="num" { (amount(b.gross, &b.currency)) }
                    td class="num" { (amount(b.outstanding, &b.currency)) }
                    td { (overdue(b.overdue_days)) }
                }))
            }
            @if !a.reminders.is_empty() {
                (Table::new(&[
                    th(lang.pick("Sent", "Versandt")), th(lang.pick("Level", "Stufe")),
                    th(lang.pick("Invoice", "Rechnung")), th_amount(lang.pick("Open then", "Damals offen")),
                    th_amount(lang.pick("Fee and interest", "Gebühr und Zinsen")),
                ])
                .caption(lang.pick("Reminders", "Mahnungen"))
                .id("partner-reminders")
                .rows(&a.reminders, |r| html! {
                    td { (locale::date(lang, r.on_day)) }
                    td { (r.level) }
                    td { a href=(invoice_href(&r.number, "")) { (r.number) } }
                    td class="num" { (amount(r.open, &r.currency)) }
                    td class="num" { (amount(r.fee + r.interest, &r.currency)) }
                }))
            }
            @if !a.payments.is_empty() {
                (Table::new(&[
                    th(lang.pick("Paid on", "Bezahlt am")), th(lang.pick("Direction", "Richtung")),
                    th(lang.pick("For", "Für")), th_amount(lang.pick("Amount", "Betrag")),
                    th(lang.pick("State", "Stand")),
                ])
                .caption(lang.pick("Payments", "Zahlungen"))
                .id("partner-payments")
                .rows(&a.payments, |p| html! {
                    td { (locale::date(lang, p.paid_on)) }
                    td { (if p.incoming { lang.pick("received", "erhalten") } else { lang.pick("paid", "gezahlt") }) }
                    td {
                        @match &p.bill_id {
                            Some(id) => a href=(format!("/bills/{id}")) { (p.document) },
                            None => a href=(invoice_href(&p.document, "")) { (p.document) },
                        }
                    }
                    td class="num" { (amount(p.amount, &p.currency)) }
                    td {
                        @match p.reversed_on {
                            Some(day) => { (lang.pick("taken back on ", "zurückgenommen am ")) (locale::date(lang, day)) }
                            None => "",
                        }
                    }
                }))
            }
            @if a.issued.is_empty() && a.received.is_empty() && a.payments.is_empty() {
                p { (lang.pick("No documents or payments yet.", "Noch keine Belege oder Zahlungen.")) }
            }
        }
    }
}
