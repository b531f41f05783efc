//! The bills: the paged list of purchase documents, recording a bill and
//! paying one. Fields carry the console flags' names in camelCase
//! (`supplierName`, `documentNumber`, `documentDate`, `dueDate`,
//! `currency`, `net`, `tax`; the payment's `amount`, `on`, `method`,
//! `reference`), amounts are typed as a person types them and read by
//! `rules::locale::parse_amount` in the document's currency, and the books'
//! `NewPurchase::check`, `purchases::record`, `NewPayment::check` and
//! `settlement::pay_bill` do the rest, as `purchase record` and `purchase
//! pay` do: the same ledger entry, the same event. Every act records the
//! person in the audit.

use hyper::StatusCode;
use maud::{html, Markup};

use super::page::{
    csrf, may_act, pager, screen, screen_with, FormField, Problems, Screen, PAYMENT_FIELDS,
};
use super::{see_other, Ctx};
use crate::access::people::Capability;
use crate::books::audit;
use crate::books::company;
use crate::books::purchases::{self, Kind, NewPurchase, PurchaseInput, PurchaseView};
use crate::books::settlement::{self, NewPayment, PaymentInput};
use crate::error::{Error, Result, Violation};
use crate::http::app::Answer;
use crate::rules::iso::Currency;
use crate::rules::locale::{self, Lang};
use crate::rules::money::Money;
use crate::store::page::Paging;

const BILL_FIELDS: &[FormField] = &[
    FormField {
        name: "supplierName",
        en: "Supplier",
        de: "Lieferant",
        max: 200,
        kind: "text",
        autocomplete: None,
        required: true,
    },
    FormField {
        name: "documentNumber",
        en: "Document number",
        de: "Belegnummer",
        max: 100,
        kind: "text",
        autocomplete: None,
        required: true,
    },
    FormField {
        name: "documentDate",
        en: "Document date",
        de: "Belegdatum",
        max: 10,
        kind: "date",
        autocomplete: None,
        required: true,
    },
    FormField {
        name: "dueDate",
        en: "Due date",
        de: "Fällig am",
        max: 10,
        kind: "date",
        autocomplete: None,
        required: true,
    },
    FormField {
        name: "currency",
        en: "Currency",
        de: "Währung",
        max: 3,
        kind: "text",
        autocomplete: None,
        required: true,
    },
    FormField {
        name: "net",
        en: "Net amount",
        de: "Nettobetrag",
        max: 30,
        kind: "text",
        autocomplete: None,
        required: true,
    },
    FormField {
        name: "tax",
        en: "Tax",
        de: "Steuer",
        max: 30,
        kind: "text",
        autocomplete: None,
        required: true,
    },
];

fn label(lang: Lang, field: &str) -> String {
    if field == "method" {
        return lang.pick("Method", "Zahlungsart").into();
    }
    BILL_FIELDS
        .iter()
        .chain(PAYMENT_FIELDS)
        .find(|f| f.name == field)
        .map_or(field, |f| lang.pick(f.en, f.de))
        .to_string()
}

fn hint(lang: Lang, field: &str) -> Option<String> {
    match field {
        "currency" => Some(lang.pick("ISO code such as EUR", "ISO-Code wie EUR")),
        "net" | "tax" | "amount" => Some(lang.pick("Such as 1,234.56", "Etwa 1.234,56")),
        "on" => Some(lang.pick("Empty: today", "Leer: heute")),
        _ => None,
    }
    .map(str::to_string)
}

/// The books name a purchase's fields after `purchase record`'s flags; the
/// form after the flags in camelCase.
fn form_name(books: &str) -> &str {
    match books {
        "supplier" => "supplierName",
        "date" => "documentDate",
        "due" => "dueDate",
        other => other,
    }
}

fn fields(
    ctx: &Ctx,
    list: &[FormField],
    value: &dyn Fn(&str) -> String,
    problems: &Problems,
) -> Markup {
    let lang = ctx.lang;
    let values: Vec<String> = list.iter().map(|f| value(f.name)).collect();
    html! {
        @for (i, f) in list.iter().enumerate() {
            (f.render(lang, &values[i], hint(lang, f.name), problems))
        }
    }
}

fn bill_form(ctx: &Ctx, value: &dyn Fn(&str) -> String, problems: &Problems) -> Markup {
    let lang = ctx.lang;
    html! {
        (problems.summary(lang, &|f| label(lang, f)))
        form.stack method="post" action="/bills" novalidate {
            (csrf(ctx))
            p.legend { (lang.pick("Fields marked * are required.", "Mit * markierte Felder sind Pflichtfelder.")) }
            (fields(ctx, BILL_FIELDS, value, problems))
            button type="submit" { (lang.pick("Record bill", "Rechnung erfassen")) }
        }
    }
}

/// Reads the typed amount of `field` in `currency`; `None` (with the
/// problem noted) when it does not read.
fn amount(
    ctx: &Ctx,
    field: &str,
    currency: Option<&Currency>,
    problems: &mut Vec<Violation>,
) -> Option<i64> {
    let currency = currency?;
    match locale::parse_amount(
        ctx.lang,
        field,
        ctx.form.sent(field).unwrap_or(""),
        currency,
    ) {
        Ok(minor) => Some(minor),
        Err(e) => {
            problems.extend(e.violations().iter().cloned());
            None
        }
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
            if !read.iter().any(|r| r.field == v.field) {
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

fn money(lang: Lang, m: &Money) -> String {
    locale::amount(lang, m.minor, &m.currency)
}

/// GET /bills?page=…
pub fn list(ctx: &Ctx) -> Result<Answer> {
    let lang = ctx.lang;
    let paging = ctx.query.paging().unwrap_or(Paging { page: 0, size: 25 });
    let page = purchases::list(ctx.conn, &ctx.session.tenant, paging)?;
    let content = html! {
        @if may_act(ctx) {
            p { a.button href="/bills/new" { (lang.pick("Record a bill", "Rechnung erfassen")) } }
        }
        @if page.data.is_empty() {
            p { (lang.pick("No bill is recorded yet.", "Noch ist keine Eingangsrechnung erfasst.")) }
        } @else {
            table {
                caption.visually-hidden { (lang.pick("Bills, newest first", "Eingangsrechnungen, die neuesten zuerst")) }
                thead {
                    tr {
                        th scope="col" { (label(lang, "supplierName")) }
                        th scope="col" { (label(lang, "documentNumber")) }
                        th scope="col" { (label(lang, "documentDate")) }
                        th scope="col" { (label(lang, "dueDate")) }
                        th.amount scope="col" { (lang.pick("Gross", "Brutto")) }
                        th.amount scope="col" { (lang.pick("Outstanding", "Offen")) }
                    }
                }
                tbody {
                    @for p in &page.data {
                        tr {
                            td { a href=(format!("/bills/{}", p.id)) { (p.supplier) } }
                            td { (p.document_number) @if p.kind == Kind::Credit { " (" (lang.pick("credit", "Gutschrift")) ")" } }
                            td { (locale::date(lang, p.document_date)) }
                            td { (locale::date(lang, p.due_on)) }
                            td.amount { (money(lang, &p.gross)) }
                            td.amount { (money(lang, &p.outstanding)) }
                        }
                    }
                }
            }
            (pager(lang, &page, &|n| format!("/bills?page={n}"), ("bills", "Rechnungen")))
        }
    };
    Ok(screen(
        ctx,
        Screen::Bills,
        lang.pick("Bills", "Eingangsrechnungen"),
        content,
    ))
}

/// GET /bills/new
pub fn new_form(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let lang = ctx.lang;
    let company = company::get(ctx.conn, &ctx.session.tenant.company_id)?;
    let currency = company.currency.as_str().to_string();
    let content = bill_form(
        ctx,
        &|f| {
            if f == "currency" {
                currency.clone()
            } else {
                String::new()
            }
        },
        &Problems::default(),
    );
    Ok(screen(
        ctx,
        Screen::Bills,
        lang.pick("Record a bill", "Rechnung erfassen"),
        content,
    ))
}

/// POST /bills: the bill as `purchase record` records it.
pub fn create(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let get = |name: &str| ctx.form.get(name).map(str::to_string);
    let mut read = Vec::new();
    let currency = match Currency::parse("currency", ctx.form.sent("currency").unwrap_or("")) {
        Ok(c) => Some(c),
        Err(e) => {
            read.extend(e.violations().iter().cloned());
            None
        }
    };
    let net = amount(ctx, "net", currency.as_ref(), &mut read);
    let tax = amount(ctx, "tax", currency.as_ref(), &mut read);
    // A field the form could not read goes to the books' check as a
    // stand-in, so every other field's problem is said at once too.
    let checked = NewPurchase::check(PurchaseInput {
        supplier: get("supplierName"),
        supplier_vat_id: None,
        document_number: get("documentNumber"),
        date: get("documentDate"),
        due: get("dueDate"),
        currency: Some(currency.as_ref().map_or("EUR", |c| c.as_str()).to_string()),
        net: Some(net.unwrap_or(1)),
        tax: Some(tax.unwrap_or(0)),
        kind: Some("bill".into()),
        rate: None,
    });
    let recorded = match checked {
        Ok(new) if read.is_empty() => ctx
            .app
            .db
            .write(|tx| {
                let id = purchases::record(tx, tenant, &new)?;
                audit::record(tx, tenant, &ctx.actor(), "bill.recorded", &id)?;
                Ok(id)
            })
            .map_err(|e| match e {
                Error::Invalid(_) | Error::Refused(_) => refusal(Vec::new(), Some(e)),
                e => e,
            }),
        Ok(_) => Err(refusal(read, None)),
        Err(e) => Err(refusal(read, Some(e))),
    };
    match recorded {
        Ok(id) => Ok(see_other(&format!("/bills/{id}?done=recorded"))),
        Err(e @ (Error::Invalid(_) | Error::Refused(_))) => {
            let typed = |f: &str| ctx.form.sent(f).unwrap_or("").to_string();
            let content = bill_form(ctx, &typed, &Problems::of(&e));
            Ok(screen_with(
                ctx,
                e.status(),
                Screen::Bills,
                lang.pick("Record a bill", "Rechnung erfassen"),
                content,
            ))
        }
        Err(e) => Err(e),
    }
}

fn method_name(lang: Lang, method: &str) -> &'static str {
    match method {
        "cash" => lang.pick("cash", "bar"),
        "card" => lang.pick("card", "Karte"),
        "other" => lang.pick("other", "anders"),
        _ => lang.pick("bank transfer", "Überweisung"),
    }
}

/// The page of one bill: its particulars, the payment form while it is
/// open, and the history of who did what.
fn bill_page(
    ctx: &Ctx,
    bill: &PurchaseView,
    status: StatusCode,
    value: &dyn Fn(&str) -> String,
    problems: &Problems,
) -> Result<Answer> {
    let lang = ctx.lang;
    let history = audit::history(ctx.conn, &ctx.session.tenant, &bill.id)?;
    let history_section = super::history::section(ctx, &history)?;
    let notice = match ctx.query.get("done") {
        Some("recorded") if problems.list.is_empty() => {
            Some(lang.pick("The bill is recorded.", "Die Rechnung ist erfasst."))
        }
        Some("paid") if problems.list.is_empty() => {
            Some(lang.pick("The payment is recorded.", "Die Zahlung ist erfasst."))
        }
        _ => None,
    };
    let method = value("method");
    let content = html! {
        @if let Some(notice) = notice {
            p.notice role="status" { (notice) }
        }
        dl.particulars {
            div { dt { (label(lang, "supplierName")) } dd { (bill.supplier) } }
            div { dt { (label(lang, "documentNumber")) } dd { (bill.document_number) } }
            div { dt { (label(lang, "documentDate")) } dd { (locale::date(lang, bill.document_date)) } }
            div { dt { (label(lang, "dueDate")) } dd { (locale::date(lang, bill.due_on)) } }
            div { dt { (label(lang, "net")) } dd { (money(lang, &bill.net)) } }
            div { dt { (label(lang, "tax")) } dd { (money(lang, &bill.tax)) } }
            div { dt { (lang.pick("Gross", "Brutto")) } dd { (money(lang, &bill.gross)) } }
            div { dt { (lang.pick("Outstanding", "Offen")) } dd { (money(lang, &bill.outstanding)) } }
            @if let Some(paid) = bill.paid_on {
                div { dt { (lang.pick("Paid in full on", "Vollständig bezahlt am")) } dd { (locale::date(lang, paid)) } }
            }
        }
        @if may_act(ctx) && bill.kind == Kind::Bill && bill.outstanding.minor > 0 {
            section aria-labelledby="pay-heading" {
                h2 #pay-heading { (lang.pick("Pay this bill", "Diese Rechnung bezahlen")) }
                (problems.summary(lang, &|f| label(lang, f)))
                form.stack method="post" action=(format!("/bills/{}/pay", bill.id)) novalidate {
                    (csrf(ctx))
                    (fields(ctx, PAYMENT_FIELDS, value, problems))
                    div.field {
                        label for="field-method" { (label(lang, "method")) }
                        select #field-method name="method" {
                            @for m in ["bank", "cash", "card", "other"] {
                                option value=(m) selected[method == m] { (method_name(lang, m)) }
                            }
                        }
                    }
                    button type="submit" { (lang.pick("Record payment", "Zahlung erfassen")) }
                }
            }
        }
        (history_section)
        p { a href="/bills" { (lang.pick("All bills", "Alle Eingangsrechnungen")) } }
    };
    let title = format!("{} {}", bill.supplier, bill.document_number);
    Ok(screen_with(ctx, status, Screen::Bills, &title, content))
}

/// GET /bills/{id}
pub fn show(ctx: &Ctx, id: &str) -> Result<Answer> {
    let bill = purchases::get(ctx.conn, &ctx.session.tenant, id)?;
    bill_page(
        ctx,
        &bill,
        StatusCode::OK,
        &|_| String::new(),
        &Problems::default(),
    )
}

/// POST /bills/{id}/pay `{amount, on, method, reference}`: money out
/// against the bill, as `purchase pay` records it.
pub fn pay(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let bill = purchases::get(ctx.conn, tenant, id)?;
    let mut read = Vec::new();
    let minor = amount(ctx, "amount", Some(&bill.currency), &mut read);
    let checked = NewPayment::check(PaymentInput {
        amount: Some(minor.unwrap_or(1)),
        on: ctx.form.get("on").map(str::to_string),
        method: ctx.form.get("method").map(str::to_string),
        reference: ctx.form.get("reference").map(str::to_string),
    });
    let paid = match checked {
        Ok(payment) if read.is_empty() => ctx
            .app
            .db
            .write(|tx| {
                settlement::pay_bill(tx, tenant, id, &payment)?;
                audit::record(tx, tenant, &ctx.actor(), "bill.paid", id)
            })
            .map_err(|e| match e {
                Error::Invalid(_) | Error::Refused(_) => refusal(Vec::new(), Some(e)),
                Error::WrongState(sentence) => Error::Refused(vec![Violation::whole(sentence)]),
                e => e,
            }),
        Ok(_) => Err(refusal(read, None)),
        Err(e) => Err(refusal(read, Some(e))),
    };
    match paid {
        Ok(()) => Ok(see_other(&format!("/bills/{id}?done=paid"))),
        Err(e @ (Error::Invalid(_) | Error::Refused(_))) => {
            let typed = |f: &str| ctx.form.sent(f).unwrap_or("").to_string();
            bill_page(ctx, &bill, e.status(), &typed, &Problems::of(&e))
        }
        Err(e) => Err(e),
    }
}
