//! The drafts: the paged list of open drafts with what each comes to, a new
//! invoice draft for one of the company's customers, and a draft's page:
//! its lines (added, changed, removed), its references, its figures as
//! issuing it now would freeze them, the preview of its PDF, and the way to
//! issue it. Quantities, prices and rates are typed as a person types them
//! (`1.234,56` in German, `1,234.56` in English) and read by
//! `rules::locale` in the draft's currency; the books' `NewDraftLine::check`
//! with `drafts::add_line`, `change_line` and `remove_line`,
//! `ReferencesChange::check` with `set_references` (as `draft set`), and
//! `invoices::issue` with `IssueOptions::check` (as `draft issue`: the same
//! verdict, documents, number, ledger entry and event) do the rest. Fields
//! carry the API's and the console's names (`description`, `quantity`,
//! `unit`, `unitPrice`, `taxRate`, `vatCategory`, `exemptionReason`,
//! `exemptionCode`, `buyerReference`, `orderReference`, `deliveredOn`,
//! `rate`). Every act records the person in the audit.

use hyper::StatusCode;
use maud::{html, Markup};

use super::page::{csrf, may_act, pager, screen, screen_with, Field, Problems, Screen};
use super::{embedding_own_pdfs, own_pdf, see_other, Ctx};
use crate::access::people::Capability;
use crate::books::audit;
use crate::books::company::{self, Company};
use crate::books::customers;
use crate::books::drafts::{
    self, DocumentType, DraftInput, DraftLine, DraftLineInput, DraftState, DraftView, Figures,
    NewDraft, NewDraftLine, ReferencesChange, ReferencesInput,
};
use crate::books::invoices::documents;
use crate::books::invoices::issue::{self, IssueInput, IssueOptions};
use crate::documents::Category;
use crate::error::{Error, Result, Violation};
use crate::http::pipeline::Answer;
use crate::http::query;
use crate::rules::iso::Currency;
use crate::rules::locale::{self, Lang};
use crate::rules::money::Decimal;
use crate::rules::text::Patch;
use crate::store::page::Paging;

/// The common units a line offers, with how a person reads them.
const UNITS: &[(&str, &str, &str)] = &[
    ("C62", "piece (C62)", "Stück (C62)"),
    ("HUR", "hour (HUR)", "Stunde (HUR)"),
    ("DAY", "day (DAY)", "Tag (DAY)"),
    ("WEE", "week (WEE)", "Woche (WEE)"),
    ("MON", "month (MON)", "Monat (MON)"),
    ("ANN", "year (ANN)", "Jahr (ANN)"),
    ("LS", "lump sum (LS)", "pauschal (LS)"),
    ("SET", "set (SET)", "Satz (SET)"),
    ("KGM", "kilogram (KGM)", "Kilogramm (KGM)"),
    ("MTR", "metre (MTR)", "Meter (MTR)"),
    ("MTK", "square metre (MTK)", "Quadratmeter (MTK)"),
    ("LTR", "litre (LTR)", "Liter (LTR)"),
    ("KWH", "kilowatt hour (KWH)", "Kilowattstunde (KWH)"),
    ("KMT", "kilometre (KMT)", "Kilometer (KMT)"),
];

/// How a person reads a unit: its name where the list has one, else its code.
fn unit_label(lang: Lang, code: &str) -> String {
    UNITS
        .iter()
        .find(|(c, _, _)| *c == code)
        .map_or(code, |(_, en, de)| lang.pick(en, de))
        .to_string()
}

/// The VAT categories a line may name, with how a person reads them.
fn category_name(lang: Lang, category: Category) -> &'static str {
    match category {
        Category::S => lang.pick("S – standard rate", "S – Regelsteuersatz"),
        Category::Z => lang.pick("Z – zero rated", "Z – Nullsatz"),
        Category::E => lang.pick("E – exempt", "E – steuerbefreit"),
        Category::AE => lang.pick(
            "AE – reverse charge",
            "AE – Steuerschuldnerschaft des Leistungsempfängers",
        ),
        Category::K => lang.pick(
            "K – intra-community supply",
            "K – innergemeinschaftliche Lieferung",
        ),
        Category::G => lang.pick("G – export outside the EU", "G – Ausfuhr"),
        Category::O => lang.pick("O – outside the scope of VAT", "O – nicht steuerbar"),
        Category::L => lang.pick("L – Canary Islands (IGIC)", "L – Kanarische Inseln (IGIC)"),
        Category::M => lang.pick(
            "M – Ceuta and Melilla (IPSI)",
            "M – Ceuta und Melilla (IPSI)",
        ),
        Category::B => lang.pick("B – split payment (Italy)", "B – Split Payment (Italien)"),
    }
}

/// How a person reads a field's name, the form's or the books'.
fn label(lang: Lang, field: &str) -> String {
    if let Some(n) = field
        .strip_prefix("lines[")
        .and_then(|rest| rest.split(']').next())
        .and_then(|n| n.parse::<usize>().ok())
    {
        return match lang {
            Lang::En => format!("Line {}", n + 1),
            Lang::De => format!("Position {}", n + 1),
        };
    }
    match field {
        "customerId" => lang.pick("Customer", "Kunde"),
        "description" => lang.pick("Description", "Beschreibung"),
        "quantity" => lang.pick("Quantity", "Menge"),
        "unit" => lang.pick("Unit", "Einheit"),
        "unitPrice" => lang.pick("Unit price (net)", "Einzelpreis (netto)"),
        "taxRate" => lang.pick("VAT rate in %", "USt-Satz in %"),
        "vatCategory" => lang.pick("VAT category", "USt-Kategorie"),
        "exemptionReason" => lang.pick("Reason for no VAT", "Grund der Steuerbefreiung"),
        "exemptionCode" => lang.pick("VATEX code", "VATEX-Code"),
        "buyerReference" => lang.pick("Buyer reference", "Käuferreferenz"),
        "orderReference" => lang.pick("Order reference", "Bestellnummer"),
        "periodFrom" => lang.pick("Period from", "Leistungszeitraum von"),
        "periodTo" => lang.pick("Period to", "Leistungszeitraum bis"),
        "deliveredOn" => lang.pick("Delivery date", "Lieferdatum"),
        "rate" => lang.pick("Exchange rate", "Wechselkurs"),
        "search" => lang.pick("Search customers", "Kunden suchen"),
        other => other,
    }
    .to_string()
}

/// The form's name of a field the books name after the API's draft line
/// (`unitPriceMinor`, `taxRatePercent`) or the console (`period`).
fn form_name(books: &str) -> &str {
    match books {
        "unitPriceMinor" => "unitPrice",
        "taxRatePercent" | "taxes" => "taxRate",
        "period" => "periodFrom",
        other => other,
    }
}

/// The refusal of a form's own reading and the books' check together, the
/// books' problems renamed to the form's fields; a field the form could
/// not read keeps only that problem.
fn refusal(read: Vec<Violation>, checked: Option<Error>) -> Error {
    let mut list = read.clone();
    let mut refused = false;
    if let Some(e) = checked {
        refused = matches!(e, Error::Refused(_));
        for v in e.violations() {
            let mut v = v.clone();
            if let Some(field) = &v.field {
                v.field = Some(form_name(field).to_string());
            }
            if !read.iter().any(|r| r.field.is_some() && r.field == v.field) {
                list.push(v);
            }
        }
    }
    if refused && read.is_empty() {
        Error::Refused(list)
    } else {
        Error::Invalid(list)
    }
}

/// A refusal of the books alone, its fields renamed to the form's.
fn renamed(e: Error) -> Error {
    match e {
        Error::Invalid(_) | Error::Refused(_) => refusal(Vec::new(), Some(e)),
        e => e,
    }
}

/// A line's number in an address (`/drafts/{id}/lines/{n}`, from 1).
///
/// Fails with `NotFound` for anything but a positive whole number.
fn line_number(text: &str) -> Result<usize> {
    text.parse::<usize>()
        .ok()
        .filter(|n| *n >= 1 && text.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| Error::not_found("This line"))
}

fn percent(lang: Lang, rate: &Decimal) -> String {
    match lang {
        Lang::De => format!("{}\u{a0}%", locale::decimal(lang, rate)),
        Lang::En => format!("{}%", locale::decimal(lang, rate)),
    }
}

/// The text of a problem beside a field (the page's own fields use `Field`).
fn problem_text(v: &Violation) -> String {
    match &v.hint {
        Some(hint) => format!("{} ({hint})", v.message),
        None => v.message.clone(),
    }
}

/// A choice among `options` (value, text) with its label and the problem
/// beside it.
fn select_field(
    lang: Lang,
    name: &str,
    options: &[(String, String)],
    chosen: &str,
    hint: Option<String>,
    problems: &Problems,
) -> Markup {
    let wrong: Vec<&Violation> = problems
        .list
        .iter()
        .filter(|v| v.field.as_deref() == Some(name))
        .collect();
    let id = format!("field-{name}");
    let hint_id = format!("{id}-hint");
    let error_id = format!("{id}-error");
    let described: Vec<&str> = [
        hint.is_some().then_some(hint_id.as_str()),
        (!wrong.is_empty()).then_some(error_id.as_str()),
    ]
    .into_iter()
    .flatten()
    .collect();
    html! {
        div.field.wrong[!wrong.is_empty()] {
            label for=(id) { (label(lang, name)) }
            @if let Some(hint) = &hint {
                span.hint id=(hint_id) { (hint) }
            }
            select id=(id) name=(name)
                aria-invalid=[(!wrong.is_empty()).then_some("true")]
                aria-describedby=[(!described.is_empty()).then(|| described.join(" "))] {
                @for (value, text) in options {
                    option value=(value) selected[value == chosen] { (text) }
                }
            }
            @if !wrong.is_empty() {
                p.error id=(error_id) {
                    @for v in &wrong { (problem_text(v)) " " }
                }
            }
        }
    }
}

fn text_field<'a>(
    lang: Lang,
    name: &'a str,
    value: &'a str,
    required: bool,
    max: usize,
    kind: &'a str,
    hint: Option<String>,
) -> Field<'a> {
    Field {
        name,
        label: label(lang, name),
        value,
        required,
        max,
        kind,
        autocomplete: None,
        hint,
    }
}

// -- the list and a new draft --------------------------------------------------

/// GET /drafts?page=…
pub fn list(ctx: &Ctx) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let paging = ctx.query.paging().unwrap_or(Paging { page: 0, size: 25 });
    let page = drafts::list(ctx.conn, tenant, paging)?;
    let company = company::get(ctx.conn, &tenant.company_id)?;
    let content = html! {
        @if may_act(ctx) {
            p { a.button href="/drafts/new" { (lang.pick("New draft", "Neuer Entwurf")) } }
        }
        @if page.data.is_empty() {
            p { (lang.pick("No draft is open.", "Kein Entwurf ist offen.")) }
        } @else {
            table {
                caption.visually-hidden { (lang.pick("Open drafts, newest first", "Offene Entwürfe, die neuesten zuerst")) }
                thead {
                    tr {
                        th scope="col" { (lang.pick("Customer", "Kunde")) }
                        th scope="col" { (lang.pick("Kind", "Art")) }
                        th.amount scope="col" { (lang.pick("Lines", "Positionen")) }
                        th.amount scope="col" { (lang.pick("Total", "Gesamt")) }
                        th scope="col" { (lang.pick("Created", "Angelegt")) }
                    }
                }
                tbody {
                    @for d in &page.data {
                        tr {
                            td { a href=(format!("/drafts/{}", d.id)) { (d.customer) } }
                            td { (kind_name(lang, d.document_type)) }
                            td.amount { (d.lines) }
                            td.amount {
                                @match d.gross {
                                    Some(gross) => (locale::amount(lang, gross, &d.currency)),
                                    None => (lang.pick("too large", "zu groß")),
                                }
                            }
                            td {
                                @match company.date_of(&d.created_at) {
                                    Some(day) => (locale::date(lang, day)),
                                    None => (d.created_at),
                                }
                            }
                        }
                    }
                }
            }
            (pager(lang, &page, &|n| format!("/drafts?page={n}"), ("drafts", "Entwürfe")))
        }
    };
    Ok(screen(
        ctx,
        Screen::Drafts,
        lang.pick("Drafts", "Entwürfe"),
        content,
    ))
}

fn kind_name(lang: Lang, kind: DocumentType) -> &'static str {
    match kind {
        DocumentType::Invoice => lang.pick("Invoice", "Rechnung"),
        DocumentType::Quote => lang.pick("Quote", "Angebot"),
    }
}

/// The most customers the choice of a new draft offers at once.
const CHOICE: i64 = 100;

/// The page of a new draft: a search among the company's customers and the
/// choice of one of them.
fn new_page(ctx: &Ctx, status: StatusCode, chosen: &str, problems: &Problems) -> Result<Answer> {
    let lang = ctx.lang;
    let search = ctx.query.get("search").unwrap_or("");
    let (found, search_problems) = match customers::list(
        ctx.conn,
        &ctx.session.tenant,
        Some(search),
        Paging {
            page: 0,
            size: CHOICE,
        },
    ) {
        Ok(page) => (Some(page), Problems::default()),
        Err(e @ Error::Invalid(_)) => (None, Problems::of(&e)),
        Err(e) => return Err(e),
    };
    let chosen = if chosen.is_empty() {
        ctx.query.get("customerId").unwrap_or("")
    } else {
        chosen
    };
    let content = html! {
        (problems.summary(lang, &|f| label(lang, f)))
        form.search method="get" action="/drafts/new" role="search" {
            (text_field(lang, "search", search, false, 200, "search",
                Some(lang.pick("Name, number, e-mail or city", "Name, Nummer, E-Mail oder Ort").into()))
                .render(lang, &search_problems))
            button type="submit" { (lang.pick("Search", "Suchen")) }
        }
        @if let Some(found) = &found {
            @if found.data.is_empty() {
                p {
                    (lang.pick("No customer found. ", "Kein Kunde gefunden. "))
                    a href="/customers/new" { (lang.pick("New customer", "Neuer Kunde")) }
                }
            } @else {
                form.stack method="post" action="/drafts" novalidate {
                    (csrf(ctx))
                    (select_field(
                        lang,
                        "customerId",
                        &found.data.iter().map(|c| (c.id.clone(), format!("{} ({}, {})", c.name, c.number, c.city))).collect::<Vec<_>>(),
                        chosen,
                        (found.total > CHOICE).then(|| match lang {
                            Lang::En => format!("The newest {CHOICE} of {} customers found; search to narrow them.", found.total),
                            Lang::De => format!("Die neuesten {CHOICE} von {} gefundenen Kunden; die Suche grenzt sie ein.", found.total),
                        }),
                        problems,
                    ))
                    button type="submit" { (lang.pick("Create draft", "Entwurf anlegen")) }
                }
            }
        }
        p { a href="/drafts" { (lang.pick("All drafts", "Alle Entwürfe")) } }
    };
    let status = if search_problems.list.is_empty() {
        status
    } else {
        StatusCode::BAD_REQUEST
    };
    Ok(screen_with(
        ctx,
        status,
        Screen::Drafts,
        lang.pick("New draft", "Neuer Entwurf"),
        content,
    ))
}

/// GET /drafts/new?search=…&customerId=…
pub fn new_form(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    new_page(ctx, StatusCode::OK, "", &Problems::default())
}

/// POST /drafts `{customerId}`: an empty invoice draft, as `POST
/// /v1/invoices/drafts` makes it; another company's customer is not found.
pub fn create(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let input = DraftInput {
        customer_id: ctx.form.get("customerId").map(str::to_string),
    };
    let created = NewDraft::empty(input, DocumentType::Invoice).and_then(|new| {
        ctx.app.db.write(|tx| {
            let id = drafts::create(tx, tenant, &new)?;
            audit::record(tx, tenant, &ctx.actor(), "draft.created", &id)?;
            Ok(id)
        })
    });
    match created {
        Ok(id) => Ok(see_other(&format!("/drafts/{id}?done=created"))),
        Err(e @ (Error::Invalid(_) | Error::Refused(_))) => new_page(
            ctx,
            e.status(),
            ctx.form.get("customerId").unwrap_or(""),
            &Problems::of(&e),
        ),
        Err(e) => Err(e),
    }
}

// -- a draft's page ------------------------------------------------------------

/// What a refused form of the draft's page brings back: which form, what
/// was typed, and what to fix.
struct Refused<'a> {
    form: &'static str,
    typed: &'a dyn Fn(&str) -> String,
    problems: Problems,
}

/// The values a line's form shows for a stored line, in the person's notation.
fn stored_line(lang: Lang, line: &DraftLine, currency: &Currency, field: &str) -> String {
    let single = match line.taxes.as_slice() {
        [tax] => Some(tax),
        _ => None,
    };
    match field {
        "description" => line.description.clone(),
        "quantity" => locale::decimal(lang, &line.quantity),
        "unit" => line.unit.clone(),
        "unitPrice" => locale::number(lang, line.unit_price_minor, currency.exponent()),
        "taxRate" => single.map_or(String::new(), |t| locale::decimal(lang, &t.rate)),
        "vatCategory" => line
            .vat_category
            .map(|c| c.code().to_string())
            .unwrap_or_default(),
        "exemptionCode" => line.exemption_code.clone().unwrap_or_default(),
        // The reason as the person wrote it: not the code or the stand-in
        // the books keep for a zero-rated line without one.
        "exemptionReason" => single
            .and_then(|t| t.reason.clone())
            .filter(|r| Some(r) != line.exemption_code.as_ref() && r != "Zero rated (category Z)")
            .unwrap_or_default(),
        _ => String::new(),
    }
}

/// The fields of a line, filled with `value`.
fn line_fields(
    ctx: &Ctx,
    currency: &Currency,
    value: &dyn Fn(&str) -> String,
    problems: &Problems,
) -> Markup {
    let lang = ctx.lang;
    let (description, quantity, price, rate, reason, code) = (
        value("description"),
        value("quantity"),
        value("unitPrice"),
        value("taxRate"),
        value("exemptionReason"),
        value("exemptionCode"),
    );
    let unit = value("unit");
    let unit = if unit.is_empty() {
        "C62".to_string()
    } else {
        unit
    };
    let mut units: Vec<(String, String)> = UNITS
        .iter()
        .map(|(code, en, de)| (code.to_string(), lang.pick(en, de).to_string()))
        .collect();
    if !UNITS.iter().any(|(code, _, _)| *code == unit) {
        units.push((unit.clone(), unit.clone()));
    }
    let mut categories = vec![(
        String::new(),
        lang.pick("By the rate (S above 0 %)", "Nach dem Satz (S über 0 %)")
            .to_string(),
    )];
    categories.extend(
        Category::ALL
            .iter()
            .map(|c| (c.code().to_string(), category_name(lang, *c).to_string())),
    );
    let example = locale::number(lang, 123_456, currency.exponent().min(2));
    html! {
        (text_field(lang, "description", &description, true, 500, "text", None).render(lang, problems))
        (text_field(lang, "quantity", &quantity, true, 30, "text",
            Some(lang.pick("Such as 2 or 1.5", "Etwa 2 oder 1,5").into())).render(lang, problems))
        (select_field(lang, "unit", &units, &unit, None, problems))
        (text_field(lang, "unitPrice", &price, true, 30, "text",
            Some(match lang {
                Lang::En => format!("In {}, such as {example}", currency.as_str()),
                Lang::De => format!("In {}, etwa {example}", currency.as_str()),
            })).render(lang, problems))
        (text_field(lang, "taxRate", &rate, false, 12, "text",
            Some(lang.pick(
                "Such as 19 or 7; empty for a category without VAT",
                "Etwa 19 oder 7; leer bei einer Kategorie ohne Umsatzsteuer",
            ).into())).render(lang, problems))
        (select_field(lang, "vatCategory", &categories, &value("vatCategory"), None, problems))
        (text_field(lang, "exemptionReason", &reason, false, 200, "text",
            Some(lang.pick(
                "Why no VAT is charged, for Z, E, AE, K, G and O",
                "Warum keine Umsatzsteuer berechnet wird, bei Z, E, AE, K, G und O",
            ).into())).render(lang, problems))
        (text_field(lang, "exemptionCode", &code, false, 30, "text",
            Some(lang.pick(
                "Optional, such as VATEX-EU-AE",
                "Freiwillig, etwa VATEX-EU-AE",
            ).into())).render(lang, problems))
    }
}

/// Reads a line's form into the books' input, in the draft's currency; a
/// field that does not read is noted and a stand-in goes to the books, so
/// every other field's problem is said at once too.
fn read_line(ctx: &Ctx, currency: &Currency) -> (DraftLineInput, Vec<Violation>) {
    let lang = ctx.lang;
    let mut read = Vec::new();
    let mut note = |e: Error| read.extend(e.violations().iter().cloned());
    let text = |name: &str| ctx.form.sent(name).unwrap_or("");
    let optional = |name: &str| {
        let t = text(name).trim();
        (!t.is_empty()).then(|| t.to_string())
    };
    let quantity = match locale::parse_decimal(lang, "quantity", text("quantity")) {
        Ok(q) => q.to_string(),
        Err(e) => {
            note(e);
            "1".to_string()
        }
    };
    let unit_price = match locale::parse_amount(lang, "unitPrice", text("unitPrice"), currency) {
        Ok(p) if p < 0 => {
            note(Error::invalid("unitPrice", "must not be negative"));
            0
        }
        Ok(p) => p,
        Err(e) => {
            note(e);
            0
        }
    };
    let tax_rate = match optional("taxRate") {
        None => None,
        Some(t) => match locale::parse_decimal(lang, "taxRate", &t) {
            Ok(r) => Some(r.to_string()),
            Err(e) => {
                note(e);
                None
            }
        },
    };
    let input = DraftLineInput {
        description: ctx.form.get("description").map(str::to_string),
        quantity: Some(quantity),
        unit_price_minor: Some(unit_price),
        tax_rate_percent: tax_rate,
        taxes: None,
        unit: optional("unit"),
        vat_category: optional("vatCategory"),
        exemption_reason: optional("exemptionReason"),
        exemption_code: optional("exemptionCode"),
    };
    (input, read)
}

/// The form of the draft's references, as `draft set` sets them.
fn references_form(
    ctx: &Ctx,
    draft: &DraftView,
    value: &dyn Fn(&str) -> String,
    problems: &Problems,
) -> Markup {
    let lang = ctx.lang;
    let (buyer, order, from, to) = (
        value("buyerReference"),
        value("orderReference"),
        value("periodFrom"),
        value("periodTo"),
    );
    let customers_own = customers::get(ctx.conn, &ctx.session.tenant, &draft.customer_id)
        .ok()
        .and_then(|c| c.buyer_reference);
    let buyer_hint = match (lang, customers_own) {
        (Lang::En, Some(r)) => format!("Empty: the customer's, {r}"),
        (Lang::De, Some(r)) => format!("Leer: die des Kunden, {r}"),
        (_, None) => lang
            .pick(
                "Such as a Leitweg-ID; empty: none",
                "Etwa eine Leitweg-ID; leer: keine",
            )
            .to_string(),
    };
    html! {
        form.stack method="post" action=(format!("/drafts/{}/references", draft.id)) novalidate {
            (csrf(ctx))
            (text_field(lang, "buyerReference", &buyer, false, 200, "text", Some(buyer_hint)).render(lang, problems))
            (text_field(lang, "orderReference", &order, false, 200, "text", None).render(lang, problems))
            (text_field(lang, "periodFrom", &from, false, 10, "date",
                Some(lang.pick("The first and the last day of the service; both or neither", "Erster und letzter Tag der Leistung; beide oder keiner").into()))
                .render(lang, problems))
            (text_field(lang, "periodTo", &to, false, 10, "date", None).render(lang, problems))
            button type="submit" { (lang.pick("Save references", "Referenzen speichern")) }
        }
    }
}

/// The figures as issuing now would freeze them: net per rate, VAT, total.
fn figures_section(lang: Lang, figures: &Result<Figures>) -> Markup {
    html! {
        section aria-labelledby="figures-heading" {
            h2 #figures-heading { (lang.pick("Figures", "Beträge")) }
            @match figures {
                Err(e) => p.problem { (e.sentence()) },
                Ok(f) => {
                    @let currency = &f.currency;
                    table #figures {
                        caption.visually-hidden { (lang.pick("Net per rate, VAT and total", "Netto je Steuersatz, Umsatzsteuer und Gesamtbetrag")) }
                        thead {
                            tr {
                                th scope="col" { (lang.pick("Tax", "Steuer")) }
                                th.amount scope="col" { (lang.pick("Net", "Netto")) }
                                th.amount scope="col" { (lang.pick("Tax amount", "Steuerbetrag")) }
                            }
                        }
                        tbody {
                            @for t in &f.totals.taxes {
                                tr {
                                    th scope="row" {
                                        (t.name) " " (percent(lang, &t.rate))
                                        @if let Some(c) = t.category.filter(|c| *c != "S") { " (" (c) ")" }
                                    }
                                    td.amount { (locale::amount(lang, t.base, currency)) }
                                    td.amount { (locale::amount(lang, t.amount, currency)) }
                                }
                            }
                            @let untaxed: i64 = f.totals.line_nets.iter().zip(&f.lines).filter(|(_, l)| l.taxes.is_empty()).map(|(n, _)| *n).sum();
                            @if untaxed != 0 {
                                tr {
                                    th scope="row" { (lang.pick("Without a tax decision", "Ohne Steuerentscheidung")) }
                                    td.amount { (locale::amount(lang, untaxed, currency)) }
                                    td.amount { "–" }
                                }
                            }
                        }
                        tfoot {
                            tr #figure-net { th scope="row" { (lang.pick("Net total", "Nettosumme")) } td.amount { (locale::amount(lang, f.totals.net, currency)) } td {} }
                            tr #figure-tax { th scope="row" { (lang.pick("VAT", "Umsatzsteuer")) } td {} td.amount { (locale::amount(lang, f.totals.tax, currency)) } }
                            tr #figure-gross { th scope="row" { (lang.pick("Total", "Gesamtbetrag")) } td {} td.amount { strong { (locale::amount(lang, f.totals.gross, currency)) } } }
                        }
                    }
                    @let undecided = f.undecided();
                    @if !undecided.is_empty() {
                        div.problem {
                            p { (lang.pick("Issuing would refuse these lines as they stand:", "Die Ausstellung würde diese Positionen so ablehnen:")) }
                            ul {
                                @for (n, why) in &undecided {
                                    li { (label(lang, &format!("lines[{}]", n - 1))) ": " (why) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The line's VAT as the table shows it.
fn line_vat(
    lang: Lang,
    line: &DraftLine,
    vat: &std::result::Result<Option<drafts::LineVat>, String>,
) -> Markup {
    html! {
        @match vat {
            Ok(Some(v)) => {
                (percent(lang, &v.rate))
                @if v.category != Category::S { " (" (v.category.code()) ")" }
            }
            Ok(None) => {
                @for (i, t) in line.taxes.iter().enumerate() {
                    @if i > 0 { ", " }
                    (t.name) " " (percent(lang, &t.rate))
                }
            }
            Err(_) => span.error { (lang.pick("undecided", "offen")) }
        }
    }
}

/// The page of one draft: particulars, lines, figures, the form of a new
/// line, references, the PDF preview, the way to issue, the history.
fn draft_page(ctx: &Ctx, id: &str, status: StatusCode, refused: Option<Refused>) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let draft = drafts::get(ctx.conn, tenant, id)?;
    let figures = drafts::figures(ctx.conn, tenant, id);
    let history = audit::history(ctx.conn, tenant, id)?;
    let history_section = super::history::section(ctx, &history)?;
    let open = draft.state == DraftState::Draft;
    let acts = may_act(ctx) && open;
    let invoice = draft.document_type == DocumentType::Invoice;
    let own = drafts::own_references(ctx.conn, tenant, id)?;
    let empty = Problems::default();
    let problems_of = |form: &str| match &refused {
        Some(r) if r.form == form => &r.problems,
        _ => &empty,
    };
    let stored_reference = |f: &str| match f {
        "buyerReference" => own.buyer_reference.clone().unwrap_or_default(),
        "orderReference" => own.order_reference.clone().unwrap_or_default(),
        "periodFrom" => own.period.map(|p| p.from.to_string()).unwrap_or_default(),
        "periodTo" => own.period.map(|p| p.to.to_string()).unwrap_or_default(),
        _ => String::new(),
    };
    let nothing = |_: &str| String::new();
    let typed_in = |form: &str| -> &dyn Fn(&str) -> String {
        match &refused {
            Some(r) if r.form == form => r.typed,
            _ if form == "references" => &stored_reference,
            _ => &nothing,
        }
    };
    let notice = match ctx.query.get("done").filter(|_| refused.is_none()) {
        Some("created") => Some(
            lang.pick("The draft is created.", "Der Entwurf ist angelegt.")
                .to_string(),
        ),
        Some("line-added") => Some(
            lang.pick("The line is added.", "Die Position ist hinzugefügt.")
                .to_string(),
        ),
        Some("line-changed") => Some(
            lang.pick("The line is changed.", "Die Position ist geändert.")
                .to_string(),
        ),
        Some("line-removed") => Some(
            lang.pick("The line is removed.", "Die Position ist entfernt.")
                .to_string(),
        ),
        Some("references") => Some(
            lang.pick(
                "The references are saved.",
                "Die Referenzen sind gespeichert.",
            )
            .to_string(),
        ),
        _ => None,
    };
    let vats: Vec<std::result::Result<Option<drafts::LineVat>, String>> = match &figures {
        Ok(f) => f.vats.clone(),
        Err(_) => vec![Err(String::new()); draft.lines.len()],
    };
    let nets: Vec<Option<i64>> = match &figures {
        Ok(f) => f.totals.line_nets.iter().copied().map(Some).collect(),
        Err(_) => vec![None; draft.lines.len()],
    };
    let previewable = matches!(&figures, Ok(f) if !f.lines.is_empty() && f.undecided().is_empty());
    let preview = format!("/drafts/{}/preview.pdf", draft.id);
    let content = html! {
        @if !open {
            div.notice role="status" {
                p {
                    @if ctx.query.get("done") == Some("issued") {
                        (lang.pick("The invoice is issued with the number ", "Die Rechnung ist ausgestellt mit der Nummer "))
                    } @else {
                        (lang.pick("This draft was issued as invoice ", "Dieser Entwurf wurde ausgestellt als Rechnung "))
                    }
                    strong #invoice-number { (draft.number) } "."
                }
                p { a href=(format!("/invoices/{}", query::percent_encode(&draft.number))) { (lang.pick("To the invoice ", "Zur Rechnung ")) (draft.number) } }
            }
        }
        @if let Some(notice) = &notice {
            p.notice role="status" { (notice) }
        }
        dl.particulars {
            div { dt { (lang.pick("Customer", "Kunde")) } dd { a href=(format!("/customers/{}", draft.customer_id)) { (draft.customer) } } }
            div { dt { (lang.pick("Kind", "Art")) } dd { (kind_name(lang, draft.document_type)) } }
            div { dt { (lang.pick("Currency", "Währung")) } dd { (draft.currency.as_str()) } }
            @if open {
                div { dt { (lang.pick("Number if issued now", "Nummer bei Ausstellung jetzt")) } dd { (draft.number) } }
                div { dt { (lang.pick("Due if issued today", "Fällig bei Ausstellung heute")) } dd { (locale::date(lang, draft.due_on)) } }
            } @else {
                div { dt { (lang.pick("Issued on", "Ausgestellt am")) } dd { (locale::date(lang, draft.issued_on)) } }
                div { dt { (lang.pick("Due on", "Fällig am")) } dd { (locale::date(lang, draft.due_on)) } }
            }
        }
        section #lines aria-labelledby="lines-heading" {
            h2 #lines-heading { (lang.pick("Lines", "Positionen")) }
            @if draft.lines.is_empty() {
                p { (lang.pick("No line yet.", "Noch keine Position.")) }
            } @else {
                table {
                    caption.visually-hidden { (lang.pick("The draft's lines", "Die Positionen des Entwurfs")) }
                    thead {
                        tr {
                            th.amount scope="col" { (lang.pick("No.", "Pos.")) }
                            th scope="col" { (label(lang, "description")) }
                            th.amount scope="col" { (label(lang, "quantity")) }
                            th scope="col" { (label(lang, "unit")) }
                            th.amount scope="col" { (label(lang, "unitPrice")) }
                            th scope="col" { (lang.pick("VAT", "USt")) }
                            th.amount scope="col" { (lang.pick("Net", "Netto")) }
                            @if acts { th scope="col" { (lang.pick("Change", "Ändern")) } }
                        }
                    }
                    tbody {
                        @for (i, line) in draft.lines.iter().enumerate() {
                            tr {
                                td.amount { (i + 1) }
                                td { (line.description) }
                                td.amount { (locale::decimal(lang, &line.quantity)) }
                                td { (unit_label(lang, &line.unit)) }
                                td.amount { (locale::amount(lang, line.unit_price_minor, &draft.currency)) }
                                td { (line_vat(lang, line, &vats[i])) }
                                td.amount { @if let Some(net) = nets[i] { (locale::amount(lang, net, &draft.currency)) } }
                                @if acts {
                                    td {
                                        a href=(format!("/drafts/{}/lines/{}", draft.id, i + 1)) {
                                            (lang.pick("Change", "Ändern")) span.visually-hidden { " " (label(lang, &format!("lines[{i}]"))) }
                                        }
                                        form method="post" action=(format!("/drafts/{}/lines/{}/remove", draft.id, i + 1)) {
                                            (csrf(ctx))
                                            button type="submit" {
                                                (lang.pick("Remove", "Entfernen")) span.visually-hidden { " " (label(lang, &format!("lines[{i}]"))) }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        (figures_section(lang, &figures))
        @if acts {
            section aria-labelledby="add-heading" {
                h2 #add-heading { (lang.pick("Add a line", "Position hinzufügen")) }
                @let problems = problems_of("line");
                (problems.summary(lang, &|f| label(lang, f)))
                form.stack method="post" action=(format!("/drafts/{}/lines", draft.id)) novalidate {
                    (csrf(ctx))
                    p.legend { (lang.pick("Fields marked * are required.", "Mit * markierte Felder sind Pflichtfelder.")) }
                    (line_fields(ctx, &draft.currency, typed_in("line"), problems))
                    button type="submit" { (lang.pick("Add line", "Position hinzufügen")) }
                }
            }
        }
        section aria-labelledby="references-heading" {
            h2 #references-heading { (lang.pick("References", "Referenzen")) }
            @if acts {
                @let problems = problems_of("references");
                (problems.summary(lang, &|f| label(lang, f)))
                (references_form(ctx, &draft, typed_in("references"), problems))
            } @else {
                dl.particulars {
                    div { dt { (label(lang, "buyerReference")) } dd { (draft.buyer_reference.as_deref().unwrap_or("–")) } }
                    div { dt { (label(lang, "orderReference")) } dd { (draft.order_reference.as_deref().unwrap_or("–")) } }
                    div { dt { (lang.pick("Period", "Leistungszeitraum")) } dd {
                        @match draft.period {
                            Some(p) => { (locale::date(lang, p.from)) " – " (locale::date(lang, p.to)) }
                            None => "–",
                        }
                    } }
                }
            }
        }
        @if open && invoice {
            section aria-labelledby="preview-heading" {
                h2 #preview-heading { (lang.pick("Preview of the PDF", "Vorschau des PDF")) }
                @if previewable {
                    p {
                        (lang.pick(
                            "The invoice as it would read if issued today, marked as a draft, without a number; it is not stored and is no e-invoice. ",
                            "Die Rechnung, wie sie bei Ausstellung heute aussähe, als Entwurf markiert, ohne Nummer; sie wird nicht gespeichert und ist keine E-Rechnung. ",
                        ))
                        a #preview-link href=(preview) { (lang.pick("Open the preview (PDF)", "Vorschau öffnen (PDF)")) }
                    }
                    object.preview data=(preview) type="application/pdf" width="100%" height="600"
                        aria-label=(lang.pick("Preview of the draft's PDF", "Vorschau des PDF des Entwurfs")) {
                        p { a href=(preview) { (lang.pick("Open the preview (PDF)", "Vorschau öffnen (PDF)")) } }
                    }
                } @else {
                    p { (lang.pick(
                        "The preview appears once the draft has lines and each states its tax.",
                        "Die Vorschau erscheint, sobald der Entwurf Positionen hat und jede ihre Steuer angibt.",
                    )) }
                }
            }
            @if acts {
                p { a.button href=(format!("/drafts/{}/issue", draft.id)) { (lang.pick("Issue…", "Ausstellen…")) } }
            }
        }
        @if open && !invoice {
            p { (lang.pick("A quote is not issued as an invoice.", "Ein Angebot wird nicht als Rechnung ausgestellt.")) }
        }
        (history_section)
        p { a href="/drafts" { (lang.pick("All drafts", "Alle Entwürfe")) } }
    };
    let title = match lang {
        Lang::En => format!("Draft for {}", draft.customer),
        Lang::De => format!("Entwurf für {}", draft.customer),
    };
    let answer = screen_with(ctx, status, Screen::Drafts, &title, content);
    Ok(if previewable && open {
        embedding_own_pdfs(answer)
    } else {
        answer
    })
}

/// GET /drafts/{id}
pub fn show(ctx: &Ctx, id: &str) -> Result<Answer> {
    draft_page(ctx, id, StatusCode::OK, None)
}

/// GET /drafts/{id}/preview.pdf: the draft through the documents' model,
/// marked as a draft, never stored.
pub fn preview_pdf(ctx: &Ctx, id: &str) -> Result<Answer> {
    let pdf = documents::draft_preview(ctx.conn, &ctx.session.tenant, id)?;
    Ok(own_pdf(pdf, &format!("draft-{id}.pdf")))
}

/// The company and the draft's currency, for reading a line; the draft
/// must be one of the tenant's.
fn seller_and_currency(ctx: &Ctx, id: &str) -> Result<(Company, Currency)> {
    let tenant = &ctx.session.tenant;
    let draft = drafts::get(ctx.conn, tenant, id)?;
    Ok((company::get(ctx.conn, &tenant.company_id)?, draft.currency))
}

/// POST /drafts/{id}/lines: a line as `draft line` adds it.
pub fn add_line(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let (company, currency) = seller_and_currency(ctx, id)?;
    let (input, read) = read_line(ctx, &currency);
    let added = match NewDraftLine::check(input, &company) {
        Ok(line) if read.is_empty() => ctx
            .app
            .db
            .write(|tx| {
                drafts::add_line(tx, tenant, id, &line)?;
                audit::record(tx, tenant, &ctx.actor(), "draft.line.added", id)
            })
            .map_err(renamed),
        Ok(_) => Err(refusal(read, None)),
        Err(e) => Err(refusal(read, Some(e))),
    };
    match added {
        Ok(()) => Ok(see_other(&format!("/drafts/{id}?done=line-added#lines"))),
        Err(e @ (Error::Invalid(_) | Error::Refused(_))) => {
            let typed = |f: &str| ctx.form.sent(f).unwrap_or("").to_string();
            draft_page(
                ctx,
                id,
                e.status(),
                Some(Refused {
                    form: "line",
                    typed: &typed,
                    problems: Problems::of(&e),
                }),
            )
        }
        Err(e) => Err(e),
    }
}

/// The page of one line's change.
fn line_page(
    ctx: &Ctx,
    draft: &DraftView,
    number: usize,
    status: StatusCode,
    value: &dyn Fn(&str) -> String,
    problems: &Problems,
) -> Answer {
    let lang = ctx.lang;
    let line = &draft.lines[number - 1];
    let content = html! {
        @if line.taxes.len() > 1 {
            p.problem { (lang.pick(
                "This line carries several named taxes; saving gives it the one rate entered here.",
                "Diese Position trägt mehrere benannte Steuern; Speichern gibt ihr den einen hier eingetragenen Satz.",
            )) }
        }
        (problems.summary(lang, &|f| label(lang, f)))
        form.stack method="post" action=(format!("/drafts/{}/lines/{number}", draft.id)) novalidate {
            (csrf(ctx))
            p.legend { (lang.pick("Fields marked * are required.", "Mit * markierte Felder sind Pflichtfelder.")) }
            (line_fields(ctx, &draft.currency, value, problems))
            button type="submit" { (lang.pick("Save line", "Position speichern")) }
        }
        p { a href=(format!("/drafts/{}#lines", draft.id)) { (lang.pick("Back to the draft", "Zurück zum Entwurf")) } }
    };
    let title = match lang {
        Lang::En => format!("Line {number} of the draft for {}", draft.customer),
        Lang::De => format!("Position {number} des Entwurfs für {}", draft.customer),
    };
    screen_with(ctx, status, Screen::Drafts, &title, content)
}

/// The open draft and its line `n`, or not found.
fn draft_and_line(ctx: &Ctx, id: &str, n: &str) -> Result<(DraftView, usize)> {
    let draft = drafts::get(ctx.conn, &ctx.session.tenant, id)?;
    let number = line_number(n)?;
    if number > draft.lines.len() {
        return Err(Error::not_found("This line"));
    }
    if draft.state != DraftState::Draft {
        return Err(Error::wrong_state(format!("Draft {id} is already issued.")));
    }
    Ok((draft, number))
}

/// GET /drafts/{id}/lines/{n}
pub fn line_form(ctx: &Ctx, id: &str, n: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let (draft, number) = draft_and_line(ctx, id, n)?;
    let line = &draft.lines[number - 1];
    let stored = |f: &str| stored_line(ctx.lang, line, &draft.currency, f);
    Ok(line_page(
        ctx,
        &draft,
        number,
        StatusCode::OK,
        &stored,
        &Problems::default(),
    ))
}

/// POST /drafts/{id}/lines/{n}: the line replaced by what the form says,
/// checked as a new line is.
pub fn change_line(ctx: &Ctx, id: &str, n: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let (draft, number) = draft_and_line(ctx, id, n)?;
    let company = company::get(ctx.conn, &tenant.company_id)?;
    let (input, read) = read_line(ctx, &draft.currency);
    let changed = match NewDraftLine::check(input, &company) {
        Ok(line) if read.is_empty() => ctx
            .app
            .db
            .write(|tx| {
                drafts::change_line(tx, tenant, id, number, &line)?;
                audit::record(tx, tenant, &ctx.actor(), "draft.line.changed", id)
            })
            .map_err(renamed),
        Ok(_) => Err(refusal(read, None)),
        Err(e) => Err(refusal(read, Some(e))),
    };
    match changed {
        Ok(()) => Ok(see_other(&format!("/drafts/{id}?done=line-changed#lines"))),
        Err(e @ (Error::Invalid(_) | Error::Refused(_))) => {
            let typed = |f: &str| ctx.form.sent(f).unwrap_or("").to_string();
            Ok(line_page(
                ctx,
                &draft,
                number,
                e.status(),
                &typed,
                &Problems::of(&e),
            ))
        }
        Err(e) => Err(e),
    }
}

/// POST /drafts/{id}/lines/{n}/remove
pub fn remove_line(ctx: &Ctx, id: &str, n: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let number = line_number(n)?;
    ctx.app.db.write(|tx| {
        drafts::remove_line(tx, tenant, id, number)?;
        audit::record(tx, tenant, &ctx.actor(), "draft.line.removed", id)
    })?;
    Ok(see_other(&format!("/drafts/{id}?done=line-removed#lines")))
}

/// POST /drafts/{id}/references `{buyerReference, orderReference,
/// periodFrom, periodTo}`: as `draft set` sets them; a field sent empty is
/// cleared (a cleared buyer reference is the customer's again).
pub fn set_references(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    drafts::get(ctx.conn, tenant, id)?;
    let patch = |name: &str| match ctx.form.sent(name).map(str::trim) {
        None => Patch::Absent,
        Some("") => Patch::Null,
        Some(text) => Patch::Value(text.to_string()),
    };
    let mut read = Vec::new();
    let from = ctx.form.sent("periodFrom").map(str::trim).unwrap_or("");
    let to = ctx.form.sent("periodTo").map(str::trim).unwrap_or("");
    let period = match (from.is_empty(), to.is_empty()) {
        (true, true) if ctx.form.sent("periodFrom").is_some() => Patch::Null,
        (true, true) => Patch::Absent,
        (false, false) => Patch::Value(format!("{from}..{to}")),
        (true, false) => {
            read.push(Violation::at(
                "periodFrom",
                "is missing: a period has its first and its last day",
            ));
            Patch::Absent
        }
        (false, true) => {
            read.push(Violation::at(
                "periodTo",
                "is missing: a period has its first and its last day",
            ));
            Patch::Absent
        }
    };
    let checked = ReferencesChange::check(ReferencesInput {
        buyer_reference: patch("buyerReference"),
        order_reference: patch("orderReference"),
        period,
    });
    let set = match checked {
        Ok(change) if read.is_empty() => ctx
            .app
            .db
            .write(|tx| {
                drafts::set_references(tx, tenant, id, change)?;
                audit::record(tx, tenant, &ctx.actor(), "draft.references.set", id)
            })
            .map_err(renamed),
        Ok(_) => Err(refusal(read, None)),
        Err(e) => Err(refusal(read, Some(e))),
    };
    match set {
        Ok(()) => Ok(see_other(&format!("/drafts/{id}?done=references"))),
        Err(e @ (Error::Invalid(_) | Error::Refused(_))) => {
            let typed = |f: &str| ctx.form.sent(f).unwrap_or("").to_string();
            draft_page(
                ctx,
                id,
                e.status(),
                Some(Refused {
                    form: "references",
                    typed: &typed,
                    problems: Problems::of(&e),
                }),
            )
        }
        Err(e) => Err(e),
    }
}

// -- issuing -------------------------------------------------------------------

/// The confirmation page of an issue: the customer, the figures, the number
/// the next issue would take now (peeked, not drawn), that it cannot be
/// undone; with a refusal, the verdict's reasons.
fn confirm_page(
    ctx: &Ctx,
    id: &str,
    status: StatusCode,
    value: &dyn Fn(&str) -> String,
    problems: &Problems,
) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let draft = drafts::get(ctx.conn, tenant, id)?;
    if draft.state != DraftState::Draft {
        return Ok(see_other(&format!("/drafts/{id}")));
    }
    let company = company::get(ctx.conn, &tenant.company_id)?;
    let figures = drafts::figures(ctx.conn, tenant, id);
    let foreign = draft.currency != company.currency;
    let content = html! {
        @if !problems.list.is_empty() {
            div.problem role="alert" {
                p { strong { (lang.pick(
                    "The invoice was not issued, and no number was taken. Please correct:",
                    "Die Rechnung wurde nicht ausgestellt, und keine Nummer wurde vergeben. Bitte korrigieren:",
                )) } }
                ul #verdict {
                    @for v in &problems.list {
                        li {
                            @match &v.field {
                                Some(field) => { (label(lang, field)) ": " (problem_text(v)) }
                                None => { (problem_text(v)) }
                            }
                        }
                    }
                }
            }
        }
        p {
            (lang.pick("Issue the invoice to ", "Die Rechnung an "))
            strong { (draft.customer) }
            (lang.pick(" over ", " über "))
            strong {
                @match &figures {
                    Ok(f) => (locale::amount(lang, f.totals.gross, &f.currency)),
                    Err(_) => "–",
                }
            }
            (lang.pick(" today?", " heute ausstellen?"))
        }
        p {
            (lang.pick("Issued now, it takes the number ", "Jetzt ausgestellt, erhält sie die Nummer "))
            strong #next-number { (draft.number) }
            (lang.pick(
                " (unless another invoice is issued first), and is due on ",
                " (sofern nicht zuvor eine andere Rechnung ausgestellt wird) und ist fällig am ",
            ))
            (locale::date(lang, draft.due_on)) "."
        }
        p.problem { (lang.pick(
            "This cannot be undone: the number is used for good, the invoice is booked and its documents are written; a mistake afterwards takes a correction.",
            "Das lässt sich nicht rückgängig machen: Die Nummer ist endgültig vergeben, die Rechnung wird gebucht und ihre Dokumente werden erstellt; ein Fehler danach braucht eine Rechnungskorrektur.",
        )) }
        (figures_section(lang, &figures))
        form.stack method="post" action=(format!("/drafts/{id}/issue")) novalidate {
            (csrf(ctx))
            (text_field(lang, "deliveredOn", &value("deliveredOn"), false, 10, "date",
                Some(lang.pick("Empty: the issue date", "Leer: das Ausstellungsdatum").into()))
                .render(lang, problems))
            @if foreign {
                (text_field(lang, "rate", &value("rate"), true, 20, "text",
                    Some(match lang {
                        Lang::En => format!("{} per {}, fixed today", company.currency.as_str(), draft.currency.as_str()),
                        Lang::De => format!("{} je {}, heute festgelegt", company.currency.as_str(), draft.currency.as_str()),
                    }))
                    .render(lang, problems))
            }
            button type="submit" { (lang.pick("Issue invoice", "Rechnung ausstellen")) }
        }
        p { a href=(format!("/drafts/{id}")) { (lang.pick("Cancel", "Abbrechen")) } }
    };
    Ok(screen_with(
        ctx,
        status,
        Screen::Drafts,
        lang.pick("Issue the invoice?", "Rechnung ausstellen?"),
        content,
    ))
}

/// GET /drafts/{id}/issue
pub fn confirm_issue(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    confirm_page(
        ctx,
        id,
        StatusCode::OK,
        &|_| String::new(),
        &Problems::default(),
    )
}

/// POST /drafts/{id}/issue `{deliveredOn, rate}`: `invoices::issue` as
/// `draft issue` calls it, today; the verdict's refusal comes back on the
/// confirmation page and nothing is numbered.
pub fn issue(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    drafts::get(ctx.conn, tenant, id)?;
    let mut read = Vec::new();
    let rate = match ctx
        .form
        .get("rate")
        .map(str::trim)
        .filter(|r| !r.is_empty())
    {
        None => None,
        Some(text) => match locale::parse_decimal(lang, "rate", text) {
            Ok(rate) => Some(rate.to_string()),
            Err(e) => {
                read.extend(e.violations().iter().cloned());
                None
            }
        },
    };
    let checked = IssueOptions::check(IssueInput {
        on: None,
        delivered_on: ctx
            .form
            .get("deliveredOn")
            .map(str::trim)
            .filter(|d| !d.is_empty())
            .map(str::to_string),
        rate,
    });
    let issued = match checked {
        Ok(options) if read.is_empty() => ctx
            .app
            .db
            .write(|tx| {
                let invoice_id = issue::issue(tx, tenant, id, &options)?;
                audit::record(tx, tenant, &ctx.actor(), "draft.issued", id)?;
                audit::record(tx, tenant, &ctx.actor(), "invoice.issued", &invoice_id)
            })
            .map_err(renamed),
        Ok(_) => Err(refusal(read, None)),
        Err(e) => Err(refusal(read, Some(e))),
    };
    match issued {
        Ok(()) => Ok(see_other(&format!("/drafts/{id}?done=issued"))),
        // Sent twice (a second click, the back button): the first issued
        // it; the draft's page names its invoice.
        Err(Error::WrongState(_))
            if drafts::get(ctx.conn, tenant, id)?.state == DraftState::Issued =>
        {
            Ok(see_other(&format!("/drafts/{id}")))
        }
        Err(e @ (Error::Invalid(_) | Error::Refused(_))) => {
            let typed = |f: &str| ctx.form.sent(f).unwrap_or("").to_string();
            confirm_page(ctx, id, e.status(), &typed, &Problems::of(&e))
        }
        Err(e) => Err(e),
    }
}
