//! The bills: the paged list of purchase documents, recording a bill,
//! paying one and applying a supplier's credit to it. Fields carry the console flags' names in camelCase
//! (`supplierName`, `documentNumber`, `documentDate`, `dueDate`,
//! `currency`, `net`, `tax`; the payment's `amount`, `on`, `method`,
//! `reference`), amounts are typed as a person types them and read by
//! `rules::locale::parse_amount` in the document's currency, and the books'
//! `NewPurchase::check`, `purchases::record`, `NewPayment::check` and
//! `settlement::pay_bill` do the rest, as `purchase record` and `purchase
//! pay` do: the same ledger entry, the same event, the same audit row,
//! naming the person; `CreditRequest::check` and `settlement::apply_credit`
//! apply a credit as `purchase apply-credit` does. A bill's page shows
//! the cash discount its received e-invoice grants.

use hyper::StatusCode;
use maud::{html, Markup};

use super::bills_received;
use super::context::Ctx;
use super::form::{choice, post, required_note, Acted, Form, FormField, Problems, Reading};
use super::frame::{
    csrf, may_act, money, pager, screen, screen_with, see_other, th, th_amount, Noun, Screen, Table,
};
use super::history;
use super::payment::{self, PAYMENT};
use crate::access::people::Capability;
use crate::books::audit;
use crate::books::bill_lines;
use crate::books::chart_accounts;
use crate::books::company;
use crate::books::document_kinds::PurchaseKind;
use crate::books::ledger;
use crate::books::payments::{self, PaymentView};
use crate::books::purchases::{self, CostLineInput, NewPurchase, PurchaseInput, PurchaseView};
use crate::books::receipts;
use crate::books::received::{self, Channel, Incoming};
use crate::books::settlement::{self, CreditInput, CreditRequest};
use crate::error::said::{Input, Record};
use crate::error::{Error, Result, Said};
use crate::http::app::Answer;
use crate::rules::locale::{self, Lang};
use crate::store::clock;

/// A bill as `purchase record` records it; the books name its fields after
/// the command's flags (`supplier`, `date`, `due`), the form after the
/// flags in camelCase.
const BILL: Form = Form::new(&[
    FormField::text(
        "supplierName",
        "Supplier",
        "Lieferant",
        purchases::MAX_SUPPLIER,
    )
    .required(),
    FormField::text(
        "documentNumber",
        "Document number",
        "Belegnummer",
        purchases::MAX_DOCUMENT_NUMBER,
    )
    .required(),
    FormField::date("documentDate", "Document date", "Belegdatum").required(),
    FormField::date("dueDate", "Due date", "Fällig am").required(),
    FormField::date("posted", "Posting date", "Buchungsdatum").hint(
        "Empty: the document date, or the first open day when it lies in closed books",
        "Leer: das Belegdatum, oder der erste offene Tag, wenn es in abgeschlossenen Büchern liegt",
    ),
    // An ISO 4217 code.
    FormField::text("currency", "Currency", "Währung", 3)
        .required()
        .hint("ISO code such as EUR", "ISO-Code wie EUR"),
    FormField::amount("net", "Net amount", "Nettobetrag").hint(
        "Such as 1,234.56; empty when the lines below say it",
        "Etwa 1.234,56; leer, wenn die Positionen unten ihn nennen",
    ),
    FormField::amount("tax", "Tax", "Steuer").hint(
        "Such as 1,234.56; empty when the lines below say it",
        "Etwa 1.234,56; leer, wenn die Positionen unten sie nennen",
    ),
])
.naming(&[
    ("account", "Expense account", "Aufwandskonto"),
    ("lines", "Lines", "Positionen"),
])
.renaming(&[
    ("supplier", "supplierName"),
    ("date", "documentDate"),
    ("due", "dueDate"),
]);

/// A credit of the bill's supplier applied to the bill, as `purchase
/// apply-credit` applies it; the books name its fields `amount` and `on`,
/// which the payment's form on the same page names too.
const CREDIT: Form = Form::new(&[
    FormField::amount("creditAmount", "Amount", "Betrag").hint(
        "Empty: as much as the credit and the bill allow",
        "Leer: so viel, wie Gutschrift und Rechnung zulassen",
    ),
    FormField::date("creditOn", "Applied on", "Verrechnet am").hint("Empty: today", "Leer: heute"),
])
.naming(&[("credit", "Credit", "Gutschrift")])
.renaming(&[("amount", "creditAmount"), ("on", "creditOn")])
.wrong_state_above();

/// How many lines the form offers to split a bill over.
const LINES: usize = 4;

/// The VAT rates a line's rate is chosen from.
const RATES: [&str; 3] = ["19", "7", "0"];

/// The accounts a bill's cost may go to, as the choice lists them
/// (number and name in the page's language), after `first`.
fn cost_options(ctx: &Ctx, first: (&str, &str)) -> Result<Vec<(String, String)>> {
    let (_, accounts) = chart_accounts::list(ctx.conn, &ctx.session.tenant.company_id)?;
    let english = ctx.lang == Lang::En;
    let mut out = vec![(first.0.to_string(), first.1.to_string())];
    out.extend(
        accounts
            .iter()
            .filter(|a| a.for_costs)
            .map(|a| (a.key.clone(), format!("{} {}", a.number, a.name(english)))),
    );
    Ok(out)
}

/// The lines of a bill split over accounts: per line its account, its net
/// and its rate, the books' names (`lines[0].account`, …) as the fields'.
fn lines_fields(ctx: &Ctx, value: &dyn Fn(&str) -> String, problems: &Problems) -> Result<Markup> {
    let lang = ctx.lang;
    let accounts = cost_options(ctx, ("", lang.pick("(none)", "(keine)")))?;
    let rates: Vec<(String, String)> = RATES
        .iter()
        .map(|r| (r.to_string(), format!("{r} %")))
        .collect();
    Ok(html! {
        fieldset.lines {
            legend { (lang.pick("Lines: the bill split over expense accounts (optional)", "Positionen: die Rechnung auf Aufwandskonten aufgeteilt (wahlweise)")) }
            p.hint { (lang.pick(
                "Each line's net and VAT rate; net and tax above, when given, must be what the lines add up to.",
                "Je Position Nettobetrag und Steuersatz; Netto und Steuer oben müssen, wenn angegeben, die Summe der Positionen sein.",
            )) }
            @for i in 0..LINES {
                @let account = format!("lines[{i}].account");
                @let net = format!("lines[{i}].net");
                @let rate = format!("lines[{i}].rate");
                @let n = i + 1;
                div.line {
                    (choice(lang, &account, &format!("{} {n}: {}", lang.pick("Line", "Position"), lang.pick("account", "Konto")), &accounts, &value(&account), None, problems))
                    (line_amount(lang, &net, &format!("{} {n}: {}", lang.pick("Line", "Position"), lang.pick("net", "netto")), &value(&net), problems))
                    (choice(lang, &rate, &format!("{} {n}: {}", lang.pick("Line", "Position"), lang.pick("VAT rate", "Steuersatz")), &rates, &value(&rate), None, problems))
                }
            }
        }
    })
}

/// A line's amount field, named as the books name it.
fn line_amount(lang: Lang, name: &str, label: &str, value: &str, problems: &Problems) -> Markup {
    let wrong = problems.of_field(name);
    let id = format!("field-{name}");
    let error_id = format!("{id}-error");
    html! {
        div.field.wrong[!wrong.is_empty()] {
            label for=(id) { (label) }
            input id=(id) type="text" inputmode="decimal" name=(name) value=(value) maxlength="24"
                aria-invalid=[(!wrong.is_empty()).then_some("true")]
                aria-describedby=[(!wrong.is_empty()).then_some(error_id.as_str())];
            @if !wrong.is_empty() {
                p.error id=(error_id) {
                    @for v in &wrong { (super::form::message(lang, v)) " " }
                }
            }
        }
    }
}

/// Which form of a bill's page a refusal belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum BillForm {
    Payment,
    Credit,
    Receipt,
}

/// A bill's receipt, uploaded as multipart form data.
const RECEIPT: Form = Form::new(&[]).naming(&[("receipt", "Receipt", "Beleg")]);

/// The form of a new bill, with `value` of each field and the problems of a refusal.
fn bill_form(ctx: &Ctx, value: &dyn Fn(&str) -> String, problems: &Problems) -> Result<Markup> {
    let lang = ctx.lang;
    let accounts = cost_options(
        ctx,
        (
            "",
            lang.pick(
                "Suggested: where the supplier's last bill went",
                "Vorschlag: wie die letzte Rechnung des Lieferanten",
            ),
        ),
    )?;
    let lines = lines_fields(ctx, value, problems)?;
    let tenant = &ctx.session.tenant;
    let closed = ledger::closed_through(ctx.conn, tenant)?;
    let today = company::get(ctx.conn, &tenant.company_id)?.today();
    // A document date over a year back is booked only once confirmed.
    let old = clock::parse_date("date", &value("documentDate"))
        .is_ok_and(|d| d < today.saturating_sub(jiff::Span::new().days(365)));
    let ask_old = old && !problems.of_field("documentDate").is_empty();
    // A receipt kept to be typed, when the bill is typed from one.
    let waiting_id = value("receiptFile");
    let waiting = match waiting_id.as_str() {
        "" => None,
        id => Some(receipts::waiting_content(ctx.conn, tenant, id)?.0),
    };
    Ok(html! {
        @if let Some(through) = closed {
            p.notice role="note" {
                (lang.pick("The books are closed through ", "Die Bücher sind abgeschlossen bis einschließlich "))
                (locale::date(lang, through))
                (lang.pick(
                    ": a bill dated on or before that day is booked on the first open day, and counts in that period's VAT return.",
                    ": eine Rechnung mit einem Datum bis dahin wird am ersten offenen Tag gebucht und zählt in der Umsatzsteuer-Voranmeldung dieses Zeitraums.",
                ))
            }
        }
        (BILL.summary(lang, problems))
        form.stack method="post" action="/bills" enctype="multipart/form-data" novalidate {
            (csrf(ctx))
            (required_note(lang))
            (BILL.fields(lang, value, problems))
            (choice(lang, "account", &BILL.label(lang, "account"), &accounts, &value("account"), Some(lang.pick(
                "For a bill of one line; a tax that is no VAT rate of the net goes on the general input tax account.",
                "Für eine Rechnung mit einer Position; eine Steuer, die kein Steuersatz des Nettobetrags ist, geht auf das allgemeine Vorsteuerkonto.",
            ).to_string()), problems))
            (lines)
            div.field {
                input #field-supplierCashBasis type="checkbox" name="supplierCashBasis" value="yes"
                    checked[value("supplierCashBasis") == "yes"];
                label for="field-supplierCashBasis" { (lang.pick(
                    "The supplier taxes on payments received (its invoice says “Versteuerung nach vereinnahmten Entgelten”): from 2028 its VAT is deductible as paid",
                    "Der Lieferant versteuert nach vereinnahmten Entgelten (so steht es auf seiner Rechnung): ab 2028 ist die Vorsteuer erst mit der Zahlung abziehbar",
                )) }
            }
            div.field {
                input #field-downPayment type="checkbox" name="downPayment" value="yes"
                    checked[value("downPayment") == "yes"];
                label for="field-downPayment" { (lang.pick(
                    "A down payment: its VAT is deductible once paid",
                    "Eine Anzahlung: die Vorsteuer ist erst mit der Zahlung abziehbar",
                )) }
            }
            @if ask_old {
                div.field {
                    input #field-confirmOld type="checkbox" name="confirmOld" value="yes";
                    label for="field-confirmOld" { (lang.pick(
                        "The document date lies more than a year back: book the bill now all the same",
                        "Das Belegdatum liegt mehr als ein Jahr zurück: die Rechnung trotzdem jetzt buchen",
                    )) }
                }
            }
            @if let Some(w) = &waiting {
                input type="hidden" name="receiptFile" value=(w.file_id);
                p {
                    (lang.pick("Receipt: ", "Beleg: "))
                    a href=(format!("/bills/receipts/{}", w.file_id)) { (w.file_name) }
                    " (" (w.media_type) ")"
                }
            } @else {
            div.field.wrong[!problems.of_field("receipt").is_empty()] {
                label for="field-receipt" { (lang.pick("Receipt: the bill as a PDF, JPEG or PNG (optional, at most 20 MB)", "Beleg: die Rechnung als PDF, JPEG oder PNG (wahlweise, höchstens 20 MB)")) }
                input #field-receipt type="file" name="receipt" accept=".pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png";
                @for v in problems.of_field("receipt") {
                    p.error { (super::form::message(lang, v)) }
                }
            }
            }
            button type="submit" { (lang.pick("Record bill", "Rechnung erfassen")) }
        }
    })
}

/// The page of a new bill.
fn new_page(
    ctx: &Ctx,
    status: StatusCode,
    value: &dyn Fn(&str) -> String,
    problems: &Problems,
) -> Result<Answer> {
    let lang = ctx.lang;
    Ok(screen_with(
        ctx,
        status,
        Screen::Bills,
        lang.pick("Record a bill", "Rechnung erfassen"),
        bill_form(ctx, value, problems)?,
    ))
}

/// GET /bills?page=…
pub fn list(ctx: &Ctx) -> Result<Answer> {
    let lang = ctx.lang;
    let page = purchases::list(ctx.conn, &ctx.session.tenant, ctx.paging())?;
    let received = bills_received::section(ctx)?;
    let waiting = receipts::waiting(ctx.conn, &ctx.session.tenant)?;
    let content = html! {
        (received)
        @if !waiting.is_empty() {
            section aria-labelledby="waiting-heading" {
                h2 #waiting-heading { (lang.pick("Receipts to type as bills", "Belege, zu denen die Rechnung zu erfassen ist")) }
                p { (lang.pick(
                    "Plain PDFs and images received where e-invoices are received: a person types their bill, the file attached.",
                    "Einfache PDFs und Bilder, empfangen wie E-Rechnungen: eine Person erfasst ihre Rechnung, die Datei wird angehängt.",
                )) }
                ul {
                    @for w in &waiting {
                        li {
                            a href=(format!("/bills/receipts/{}", w.file_id)) { (w.file_name) }
                            " (" (w.media_type) ") · "
                            @if may_act(ctx) {
                                a href=(format!("/bills/new?receipt={}", w.file_id)) { (lang.pick("Type its bill", "Rechnung dazu erfassen")) }
                            }
                        }
                    }
                }
            }
        }
        h2 { (lang.pick("Bills in the books", "Gebuchte Eingangsrechnungen")) }
        @if may_act(ctx) {
            p { a.button href="/bills/new" { (lang.pick("Record a bill", "Rechnung erfassen")) } }
        }
        @if page.data.is_empty() {
            p { (lang.pick("No bill is recorded yet.", "Noch ist keine Eingangsrechnung erfasst.")) }
        } @else {
            (Table::new(&[
                th(&BILL.label(lang, "supplierName")), th(&BILL.label(lang, "documentNumber")),
                th(&BILL.label(lang, "documentDate")), th(&BILL.label(lang, "dueDate")),
                th_amount(lang.pick("Gross", "Brutto")), th_amount(lang.pick("Outstanding", "Offen")),
            ])
            .read_caption(lang.pick("Bills, newest first", "Eingangsrechnungen, die neuesten zuerst"))
            .rows(&page.data, |p| html! {
                td { a href=(format!("/bills/{}", p.id)) { (p.supplier) } }
                td { (p.document_number) @if p.kind == PurchaseKind::Credit { " (" (lang.pick("credit", "Gutschrift")) ")" } }
                td { (locale::date(lang, p.document_date)) }
                td { (locale::date(lang, p.due_on)) }
                td.amount { (money(lang, &p.gross)) }
                td.amount { (money(lang, &p.outstanding)) }
            }))
            (pager(lang, &page, &|n| format!("/bills?page={n}"), Noun { en: ("bill", "bills"), de: ("Rechnung", "Rechnungen") }))
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
    let company = company::get(ctx.conn, &ctx.session.tenant.company_id)?;
    let currency = company.currency.as_str().to_string();
    let receipt = ctx.query.get("receipt").unwrap_or("").to_string();
    let value = |f: &str| match f {
        "currency" => currency.clone(),
        "receiptFile" => receipt.clone(),
        _ => String::new(),
    };
    new_page(ctx, StatusCode::OK, &value, &Problems::default())
}

/// POST /bills: the bill as `purchase record` records it.
pub fn create(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let get = |name: &str| ctx.form.get(name).map(str::to_string);
    let mut read = Reading::of(ctx);
    let currency = read.currency("currency");
    let typed = |name: &str| ctx.form.sent(name).is_some_and(|t| !t.trim().is_empty());
    // The lines a person filled in (an account or a net), in order.
    let mut lines = Vec::new();
    for i in 0..LINES {
        let (account, net_field, rate) = (
            format!("lines[{i}].account"),
            format!("lines[{i}].net"),
            format!("lines[{i}].rate"),
        );
        let account_text = ctx.form.get(&account).unwrap_or("").trim().to_string();
        if account_text.is_empty() && !typed(&net_field) {
            continue;
        }
        let line_net = currency
            .as_ref()
            .and_then(|c| read.amount(&net_field, c))
            .unwrap_or(1);
        lines.push(CostLineInput {
            account: account_text,
            net: line_net,
            rate: ctx.form.get(&rate).map(str::to_string),
        });
    }
    let split = !lines.is_empty();
    // The totals: required for a bill of one line, else what the lines
    // must add up to when typed.
    let net = currency
        .as_ref()
        .filter(|_| !split || typed("net"))
        .and_then(|c| read.amount("net", c));
    let tax = currency
        .as_ref()
        .filter(|_| !split || typed("tax"))
        .and_then(|c| read.amount("tax", c));
    // A field the form could not read goes to the books' check as a
    // stand-in, so every other field's problem is said at once too.
    let checked = read.check(NewPurchase::check(PurchaseInput {
        supplier: get("supplierName"),
        supplier_vat_id: None,
        document_number: get("documentNumber"),
        date: get("documentDate"),
        due: get("dueDate"),
        currency: Some(currency.as_ref().map_or("EUR", |c| c.as_str()).to_string()),
        net: if split { net } else { Some(net.unwrap_or(1)) },
        tax: if split { tax } else { Some(tax.unwrap_or(0)) },
        kind: Some("bill".into()),
        rate: None,
        account: get("account").filter(|a| !a.trim().is_empty()),
        lines,
        posted: get("posted"),
        confirmed_old: ctx.form.get("confirmOld") == Some("yes"),
        supplier_cash_basis: ctx.form.get("supplierCashBasis") == Some("yes"),
        down_payment: ctx.form.get("downPayment") == Some("yes"),
        ..PurchaseInput::default()
    }));
    // The receipt, when one is chosen, is attached in the same act.
    let person = ctx.session.person.email.clone();
    let receipt = ctx.files.iter().find(|f| !f.bytes.is_empty());
    let recorded = BILL.act(ctx, checked, |tx, new| {
        let id = purchases::record(tx, tenant, &ctx.actor(), &new)?;
        if let Some(file_id) = ctx.form.get("receiptFile").filter(|f| !f.is_empty()) {
            receipts::attach_kept(tx, tenant, &ctx.actor(), &id, file_id)?;
        } else if let Some(f) = receipt {
            let name = f.file_name.clone().unwrap_or_else(|| "receipt".to_string());
            receipts::attach(
                tx,
                tenant,
                &ctx.actor(),
                &id,
                &Incoming {
                    file_name: &name,
                    bytes: &f.bytes,
                    channel: Channel::Upload,
                    channel_ref: Some(&person),
                },
            )?;
        }
        Ok(id)
    })?;
    match recorded {
        Acted::Done(id) => Ok(see_other(&format!("/bills/{id}?done=recorded"))),
        Acted::Refused(r) => new_page(ctx, r.status, &|f| ctx.typed(f), &r.problems),
    }
}

/// The page of one bill: its particulars, the payment form while it is
/// open, and the history of who did what.
fn bill_page(
    ctx: &Ctx,
    bill: &PurchaseView,
    status: StatusCode,
    value: &dyn Fn(&str) -> String,
    refused: Option<(BillForm, &Problems)>,
) -> Result<Answer> {
    let lang = ctx.lang;
    let none = Problems::default();
    let problems_of = |form: BillForm| match refused {
        Some((which, problems)) if which == form => problems,
        _ => &none,
    };
    let problems = problems_of(BillForm::Payment);
    let credit_problems = problems_of(BillForm::Credit);
    let open = bill.kind == PurchaseKind::Bill && bill.outstanding.minor > 0;
    let credits = if open && may_act(ctx) {
        purchases::open_credits(ctx.conn, &ctx.session.tenant, &bill.supplier_id)?
    } else {
        Vec::new()
    };
    let credit_options: Vec<(String, String)> = credits
        .iter()
        .map(|c| {
            let left = money(lang, &c.outstanding)
                .trim_start_matches('-')
                .to_string();
            (
                c.id.clone(),
                format!(
                    "{} ({} {left})",
                    c.document_number,
                    lang.pick("left:", "übrig:")
                ),
            )
        })
        .collect();
    let history = audit::history(ctx.conn, &ctx.session.tenant, &bill.id)?;
    let history_section = history::section(ctx, &history)?;
    let lines = bill_lines::of_bill(ctx.conn, &ctx.session.tenant, &bill.id)?;
    let receipt = receipts::of_bill(ctx.conn, &ctx.session.tenant, &bill.id)?;
    let received = received::get(ctx.conn, &ctx.session.tenant, &bill.id).is_ok();
    let receipt_problems = problems_of(BillForm::Receipt);
    let bill_payments: Vec<(PaymentView, bool)> =
        payments::bill_payments(ctx.conn, &ctx.session.tenant, &bill.id)?
            .into_iter()
            .map(|r| (r.view, r.bank_line_id.is_some()))
            .collect();
    let notice = match ctx.query.get("done") {
        Some("recorded") if problems.list.is_empty() => {
            Some(lang.pick("The bill is recorded.", "Die Rechnung ist erfasst."))
        }
        Some("paid") if problems.list.is_empty() => {
            Some(lang.pick("The payment is recorded.", "Die Zahlung ist erfasst."))
        }
        Some("credited") if credit_problems.list.is_empty() => {
            Some(lang.pick("The credit is applied.", "Die Gutschrift ist verrechnet."))
        }
        Some("receipt") => Some(lang.pick("The receipt is attached.", "Der Beleg ist angehängt.")),
        Some("reversed") => Some(lang.pick(
            "The payment is taken back.",
            "Die Zahlung ist zurückgenommen.",
        )),
        _ => None,
    };
    let content = html! {
        @if let Some(notice) = notice {
            p.notice role="status" { (notice) }
        }
        dl.particulars {
            div { dt { (BILL.label(lang, "supplierName")) } dd { (bill.supplier) } }
            div { dt { (BILL.label(lang, "documentNumber")) } dd { (bill.document_number) } }
            div { dt { (BILL.label(lang, "documentDate")) } dd { (locale::date(lang, bill.document_date)) } }
            div { dt { (BILL.label(lang, "posted")) } dd { (locale::date(lang, bill.posted_on)) } }
            div { dt { (BILL.label(lang, "dueDate")) } dd { (locale::date(lang, bill.due_on)) } }
            @if let (Some(until), Some(percent)) = (bill.discount_until, &bill.discount_percent) {
                div { dt { (lang.pick("Cash discount", "Skonto")) } dd { (locale::decimal(lang, percent)) " % " (lang.pick("if paid by", "bei Zahlung bis")) " " (locale::date(lang, until)) } }
            }
            div { dt { (BILL.label(lang, "net")) } dd { (money(lang, &bill.net)) } }
            div { dt { (BILL.label(lang, "tax")) } dd { (money(lang, &bill.tax)) } }
            div { dt { (lang.pick("Gross", "Brutto")) } dd { (money(lang, &bill.gross)) } }
            div { dt { (lang.pick("Outstanding", "Offen")) } dd { (money(lang, &bill.outstanding)) } }
            @if let Some(paid) = bill.paid_on {
                div { dt { (lang.pick("Paid in full on", "Vollständig bezahlt am")) } dd { (locale::date(lang, paid)) } }
            }
        }
        section aria-labelledby="receipt-heading" {
            h2 #receipt-heading { (lang.pick("Receipt", "Beleg")) }
            @match &receipt {
                Some(r) => {
                    p {
                        a href=(format!("/bills/{}/receipt", bill.id)) { (r.file_name) }
                        " · " (r.media_type) " · " (locale::number(lang, r.size, 0)) " " (lang.pick("bytes", "Bytes"))
                    }
                    p.hint { "SHA-256 " code { (r.sha256) } " · " (lang.pick("kept unchanged for ten years", "zehn Jahre unverändert aufbewahrt")) }
                }
                None if received => {
                    p { a href=(format!("/bills/received/{}", bill.id)) { (lang.pick("The e-invoice as received is the receipt.", "Die E-Rechnung, wie sie empfangen wurde, ist der Beleg.")) } }
                }
                None => {
                    p { (lang.pick("No receipt is attached.", "Kein Beleg ist angehängt.")) }
                    @if may_act(ctx) {
                        (RECEIPT.summary(lang, receipt_problems))
                        form.stack method="post" action=(format!("/bills/{}/receipt", bill.id)) enctype="multipart/form-data" {
                            (csrf(ctx))
                            div.field.wrong[!receipt_problems.of_field("receipt").is_empty()] {
                                label for="field-receipt" { (lang.pick("The bill as a PDF, JPEG or PNG (at most 20 MB)", "Die Rechnung als PDF, JPEG oder PNG (höchstens 20 MB)")) }
                                input #field-receipt type="file" name="receipt" accept=".pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png";
                                @for v in receipt_problems.of_field("receipt") {
                                    p.error { (super::form::message(lang, v)) }
                                }
                            }
                            button type="submit" { (lang.pick("Attach receipt", "Beleg anhängen")) }
                        }
                    }
                }
            }
        }
        section aria-labelledby="lines-heading" {
            h2 #lines-heading { (lang.pick("Lines and accounts", "Positionen und Konten")) }
            (Table::new(&[
                th(lang.pick("Description", "Bezeichnung")), th(lang.pick("Account", "Konto")),
                th(lang.pick("VAT", "USt")), th_amount(lang.pick("Net", "Netto")),
                th(lang.pick("Fixed asset", "Anlagegut")),
            ])
            .read_caption(lang.pick("The bill's lines with the account each cost went to", "Die Positionen der Rechnung mit dem Konto ihrer Kosten"))
            .rows(lines.iter().enumerate(), |(i, l)| html! {
                td { (l.description) }
                td {
                    @if let Some(n) = l.number { (n) " " }
                    (if lang == Lang::En { &l.name_en } else { &l.name_de })
                }
                td { (l.vat_category) " " (l.vat_rate) " %" }
                td.amount { (money(lang, &l.net)) }
                td {
                    @if may_act(ctx) && bill.kind == PurchaseKind::Bill && l.net.minor > 0 {
                        a href=(format!("/books/assets/new?fromBill={}&line={}&name={}", bill.id, i + 1, crate::http::query::percent_encode(&l.description))) {
                            (lang.pick("Record line ", "Position ")) (i + 1) (lang.pick(" as an asset", " als Anlagegut erfassen"))
                        }
                    }
                }
            }))
        }
        @if !bill_payments.is_empty() {
            section aria-labelledby="payments-heading" {
                h2 #payments-heading { (lang.pick("Payments", "Zahlungen")) }
                (payment::table(ctx, &bill_payments))
            }
        }
        @if may_act(ctx) && open {
            section aria-labelledby="pay-heading" {
                h2 #pay-heading { (lang.pick("Pay this bill", "Diese Rechnung bezahlen")) }
                (PAYMENT.summary(lang, problems))
                (post(ctx, &format!("/bills/{}/pay", bill.id), payment::fields(lang, value, None, problems), lang.pick("Record payment", "Zahlung erfassen")))
            }
        }
        @if !credits.is_empty() {
            section aria-labelledby="credit-heading" {
                h2 #credit-heading { (lang.pick("Apply a credit of this supplier", "Gutschrift dieses Lieferanten verrechnen")) }
                (CREDIT.summary(lang, credit_problems))
                (post(ctx, &format!("/bills/{}/credit", bill.id), html! {
                    (choice(lang, "credit", &CREDIT.label(lang, "credit"), &credit_options, &value("credit"), None, credit_problems))
                    (CREDIT.fields(lang, value, credit_problems))
                }, lang.pick("Apply credit", "Gutschrift verrechnen")))
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
    bill_page(ctx, &bill, StatusCode::OK, &|_| String::new(), None)
}

/// POST /bills/{id}/pay `{amount, on, method, reference}`: money out
/// against the bill, as `purchase pay` records it.
pub fn pay(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let bill = purchases::get(ctx.conn, tenant, id)?;
    let checked = payment::read(ctx, &bill.currency);
    let paid = PAYMENT.act(ctx, checked, |tx, payment| {
        settlement::pay_bill(tx, tenant, &ctx.actor(), id, &payment).map(|_| ())
    })?;
    match paid {
        Acted::Done(()) => Ok(see_other(&format!("/bills/{id}?done=paid"))),
        Acted::Refused(r) => bill_page(
            ctx,
            &bill,
            r.status,
            &|f| ctx.typed(f),
            Some((BillForm::Payment, &r.problems)),
        ),
    }
}

/// POST /bills/{id}/credit `{credit, creditAmount, creditOn}`: a credit of
/// the bill's supplier applied to the bill, as `purchase apply-credit`
/// applies it (no money moves).
pub fn apply_credit(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let bill = purchases::get(ctx.conn, tenant, id)?;
    let mut read = Reading::of(ctx);
    let credit = ctx.form.get("credit").unwrap_or("").to_string();
    if credit.is_empty() {
        read.note(Error::invalid("credit", Input::Missing));
    }
    let amount = match ctx.form.get("creditAmount") {
        Some(_) => read.amount("creditAmount", &bill.currency),
        None => None,
    };
    let checked = read.check(CreditRequest::check(CreditInput {
        amount,
        on: ctx.form.get("creditOn").map(str::to_string),
    }));
    let applied = CREDIT.act(ctx, checked, |tx, request| {
        settlement::apply_credit(tx, tenant, &ctx.actor(), &credit, id, &request).map(|_| ())
    })?;
    match applied {
        Acted::Done(()) => Ok(see_other(&format!("/bills/{id}?done=credited"))),
        Acted::Refused(r) => bill_page(
            ctx,
            &bill,
            r.status,
            &|f| ctx.typed(f),
            Some((BillForm::Credit, &r.problems)),
        ),
    }
}

/// GET /bills/{id}/receipt: the bill's receipt as kept, a download.
pub fn receipt(ctx: &Ctx, id: &str) -> Result<Answer> {
    let (view, bytes) = receipts::content(ctx.conn, &ctx.session.tenant, id)?.ok_or_else(|| {
        Error::not_found(Said::RecordOf(
            Record::Receipt,
            String::new(),
            Record::Bill,
            id.to_string(),
        ))
    })?;
    Ok(bills_received::download(
        bytes,
        view.media_type,
        &view.file_name,
    ))
}

/// POST /bills/{id}/receipt (multipart: `receipt`): the bill's receipt, as
/// `purchase receipt` attaches it.
pub fn attach_receipt(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let bill = purchases::get(ctx.conn, tenant, id)?;
    let person = ctx.session.person.email.clone();
    let file = ctx.files.iter().find(|f| !f.bytes.is_empty());
    let checked = match file {
        Some(f) => Ok(f),
        None => Err(Error::invalid("receipt", Input::NoReceiptFile)),
    };
    let attached = RECEIPT.act(ctx, Reading::of(ctx).check(checked), |tx, f| {
        let name = f.file_name.clone().unwrap_or_else(|| "receipt".to_string());
        receipts::attach(
            tx,
            tenant,
            &ctx.actor(),
            id,
            &Incoming {
                file_name: &name,
                bytes: &f.bytes,
                channel: Channel::Upload,
                channel_ref: Some(&person),
            },
        )
        .map(|_| ())
    })?;
    match attached {
        Acted::Done(()) => Ok(see_other(&format!("/bills/{id}?done=receipt"))),
        Acted::Refused(r) => bill_page(
            ctx,
            &bill,
            r.status,
            &|_| String::new(),
            Some((BillForm::Receipt, &r.problems)),
        ),
    }
}

/// GET /bills/receipts/{file}: a receipt kept to be typed, a download.
pub fn waiting_receipt(ctx: &Ctx, file_id: &str) -> Result<Answer> {
    let (view, bytes) = receipts::waiting_content(ctx.conn, &ctx.session.tenant, file_id)?;
    Ok(bills_received::download(
        bytes,
        view.media_type,
        &view.file_name,
    ))
}
