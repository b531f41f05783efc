//! The books for the tax adviser and the tax office: the DATEV export of a
//! period (Books → Export: a form, the ZIP as a download, the exports made,
//! each final or preliminary) and the VAT return's figures of a month or
//! quarter with the postings behind each Kz and the EC sales list (Books →
//! VAT return). The same books functions serve `kontor export datev`,
//! `kontor vat return` and `kontor vat ec-sales`; an export records the
//! person in the audit.

use hyper::StatusCode;
use maud::{html, Markup};

use super::context::Ctx;
use super::form::{post, Acted, Form, FormField, Problems};
use super::frame::{invoice_href, screen_with, security_headers, th, th_number, Screen, Table};
use super::statements::{flag, links, statement};
use crate::access::people::Capability;
use crate::books::company;
use crate::books::export::datev::{self, ExportInput, ExportRequest};
use crate::books::export::made::ExportKind;
use crate::books::export::settings;
use crate::books::ledger;
use crate::books::vat::figures::DocumentRef;
use crate::books::vat::filing::{self, EcSales, VatReturn};
use crate::books::vat::period::Period;
use crate::error::Result;
use crate::http::app::Answer;
use crate::rules::locale::{self, Lang};

/// The DATEV export's period; the settings it needs are named when missing.
const EXPORT: Form = Form::new(&[
    FormField::date("from", "From", "Von").required(),
    FormField::date("to", "To", "Bis").required(),
])
.naming(&[
    (
        "documents",
        "With the documents of invoices and received bills",
        "Mit den Belegen der Rechnungen und Eingangsrechnungen",
    ),
    ("datevAdviser", "DATEV adviser number", "Beraternummer"),
    ("datevClient", "DATEV client number", "Mandantennummer"),
]);

/// The VAT return's period.
const PERIOD: FormField = FormField::text("period", "Period", "Zeitraum", 7).hint(
    "A month (2026-10) or a quarter (2026-Q4)",
    "Ein Monat (2026-10) oder ein Quartal (2026-Q4)",
);
const VAT: Form = Form::new(&[PERIOD]);

/// The GoBD data medium's fiscal year.
const GOBD: Form = Form::new(
    &[FormField::text("year", "Fiscal year", "Wirtschaftsjahr", 4)
        .required()
        .hint(
            "The year the fiscal year begins in (2026)",
            "Das Jahr, in dem das Wirtschaftsjahr beginnt (2026)",
        )],
);

/// Each Kz of the return as the form names it.
fn kz_name(lang: Lang, kz: &str) -> &'static str {
    match kz {
        "81" => lang.pick("Taxable supplies at 19 %", "Steuerpflichtige Umsätze zu 19 %"),
        "86" => lang.pick("Taxable supplies at 7 %", "Steuerpflichtige Umsätze zu 7 %"),
        "35" => lang.pick("Taxable supplies at other rates", "Umsätze zu anderen Steuersätzen"),
        "36" => lang.pick("Tax on supplies at other rates", "Steuer auf Umsätze zu anderen Steuersätzen"),
        "41" => lang.pick("Intra-community supplies to holders of a VAT id", "Innergemeinschaftliche Lieferungen an Abnehmer mit USt-IdNr."),
        "43" => lang.pick("Other tax-free supplies with input tax deduction (exports)", "Weitere steuerfreie Umsätze mit Vorsteuerabzug (Ausfuhren)"),
        "48" => lang.pick("Tax-free supplies without input tax deduction", "Steuerfreie Umsätze ohne Vorsteuerabzug"),
        "21" => lang.pick("Services to EU businesses taxed in the other state", "Nicht steuerbare sonstige Leistungen (§ 18b UStG)"),
        "45" => lang.pick("Other supplies not taxable here", "Übrige nicht steuerbare Umsätze"),
        "60" => lang.pick("Supplies for which the buyer owes the tax (§ 13b)", "Umsätze, für die der Leistungsempfänger die Steuer schuldet (§ 13b)"),
        "87" => lang.pick("Zero-rated supplies", "Steuerfreie Umsätze mit Nullsatz"),
        "46" => lang.pick("Services bought from EU businesses (reverse charge): base", "Leistungen eines im übrigen Gemeinschaftsgebiet ansässigen Unternehmers (§ 13b Abs. 1): Bemessungsgrundlage"),
        "47" => lang.pick("… their tax", "… Steuer"),
        "84" => lang.pick("Other reverse-charge supplies received: base", "Andere Leistungen (§ 13b Abs. 2): Bemessungsgrundlage"),
        "85" => lang.pick("… their tax", "… Steuer"),
        "66" => lang.pick("Input tax of invoices", "Vorsteuerbeträge aus Rechnungen"),
        "67" => lang.pick("Input tax of reverse charge (§ 13b)", "Vorsteuer aus Leistungen im Sinne des § 13b"),
        "83" => lang.pick("Remaining amount (to pay, or refund when negative)", "Verbleibende Umsatzsteuer-Vorauszahlung (Überschuss: negativ)"),
        _ => "",
    }
}

/// The order of the form.
const ORDER: [&str; 18] = [
    "81", "86", "35", "36", "87", "41", "43", "48", "21", "45", "60", "46", "47", "84", "85", "66",
    "67", "83",
];

/// The export page: the settings it uses, the form, the exports made.
fn export_page(ctx: &Ctx, status: StatusCode, problems: &Problems) -> Result<Answer> {
    export_page_with(ctx, status, problems, &Problems::default())
}

/// The owners of the session's company, by name, for a sentence that says
/// who may do what the person may not.
fn owners(ctx: &Ctx) -> Result<String> {
    let names: Vec<String> = crate::access::people::list(ctx.conn, &ctx.session.tenant.company_id)?
        .into_iter()
        .filter(|m| m.role == crate::access::people::Role::Owner && !m.disabled)
        .map(|m| format!("{} ({})", m.name, m.email))
        .collect();
    Ok(names.join(", "))
}

fn export_page_with(
    ctx: &Ctx,
    status: StatusCode,
    problems: &Problems,
    gobd_problems: &Problems,
) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let company = company::get(ctx.conn, &tenant.company_id)?;
    let s = settings::get(ctx.conn, &tenant.company_id)?;
    let closed = ledger::closed_through(ctx.conn, tenant)?;
    let made = crate::books::export::made::list(ctx.conn, tenant, 20)?;
    let today = company.today();
    let last_month = today.first_of_month().yesterday().unwrap_or(today);
    let value = |field: &str| match ctx.form.sent(field) {
        Some(v) => v.to_string(),
        None => match field {
            "from" => last_month.first_of_month().to_string(),
            "to" => last_month.to_string(),
            _ => String::new(),
        },
    };
    let number = |n: Option<u32>| {
        n.map_or_else(
            || lang.pick("not set", "nicht gesetzt").to_string(),
            |n| n.to_string(),
        )
    };
    let content = html! {
        (links(lang))
        section aria-labelledby="datev-heading" {
            h2 #datev-heading { (lang.pick("DATEV export for the tax adviser", "DATEV-Export für die Steuerberatung")) }
            dl.particulars {
                div { dt { (lang.pick("Chart of accounts", "Kontenrahmen")) } dd { (s.chart.as_str().to_uppercase()) } }
                div { dt { (lang.pick("DATEV adviser number", "Beraternummer")) } dd { (number(s.datev_adviser)) } }
                div { dt { (lang.pick("DATEV client number", "Mandantennummer")) } dd { (number(s.datev_client)) } }
                div { dt { (lang.pick("Fiscal year starts", "Wirtschaftsjahr beginnt")) } dd { (s.fiscal_year_start.to_string()) } }
            }
            @if ctx.may(Capability::ManageSettings) {
                p { a href="/settings/datev" { (lang.pick("DATEV settings and account numbers", "DATEV-Einstellungen und Kontonummern")) } }
            } @else {
                p #datev-settings-by {
                    (lang.pick("The DATEV settings are set by the company's owner: ", "Die DATEV-Einstellungen setzt die Inhaberin oder der Inhaber der Firma: "))
                    (owners(ctx)?)
                    "."
                }
            }
            p {
                @match closed {
                    Some(day) => {
                        (lang.pick("The books are closed through ", "Die Bücher sind abgeschlossen bis einschließlich "))
                        (locale::date(lang, day))
                        (lang.pick(": a period up to that day exports final (Festschreibung); a later one ", ": ein Zeitraum bis dahin wird endgültig exportiert (Festschreibung), ein späterer "))
                        strong.preliminary { (lang.pick("preliminary", "vorläufig")) } "."
                    }
                    None => {
                        (lang.pick("No period is closed yet: every export is ", "Noch ist kein Zeitraum abgeschlossen: jeder Export ist "))
                        strong.preliminary { (lang.pick("preliminary", "vorläufig")) } "."
                    }
                }
            }
            @if ctx.may(Capability::Export) {
                (EXPORT.summary(lang, problems))
                (post(ctx, "/books/export/datev", html! {
                    (EXPORT.fields(lang, &value, problems))
                    fieldset.choices {
                        legend { (EXPORT.label(lang, "documents")) }
                        div {
                            input #field-documents type="checkbox" name="documents" value="yes"
                                checked[ctx.form.get("documents") == Some("yes")];
                            label for="field-documents" { (lang.pick(
                                "Add each invoice's PDF and XML, named by its number",
                                "Die PDF und XML jeder Rechnung beilegen, nach ihrer Nummer benannt",
                            )) }
                        }
                    }
                }, lang.pick("Download the DATEV export", "DATEV-Export herunterladen")))
            }
        }
        section aria-labelledby="gobd-heading" {
            h2 #gobd-heading { (lang.pick("GoBD data medium for a tax audit", "GoBD-Datenträger für die Betriebsprüfung")) }
            p { (lang.pick(
                "A fiscal year's books as the tax office reads them (GDPdU description index.xml with its tables and the documents), as one ZIP.",
                "Die Bücher eines Wirtschaftsjahres, wie das Finanzamt sie liest (GDPdU-Beschreibung index.xml mit ihren Tabellen und den Belegen), als ein ZIP.",
            )) }
            @if ctx.may(Capability::Export) {
                (GOBD.summary(lang, gobd_problems))
                (post(ctx, "/books/export/gobd", html! {
                    (GOBD.fields(lang, &|f: &str| match ctx.form.sent(f) {
                        Some(v) => v.to_string(),
                        None => last_month.year().to_string(),
                    }, gobd_problems))
                }, lang.pick("Download the GoBD data medium", "GoBD-Datenträger herunterladen")))
            }
        }
        section aria-labelledby="made-heading" {
            h2 #made-heading { (lang.pick("Exports made", "Erstellte Exporte")) }
            @if made.is_empty() {
                p { (lang.pick("None yet.", "Noch keine.")) }
            } @else {
                (Table::new(&[
                    th(lang.pick("Kind", "Art")), th(lang.pick("Period", "Zeitraum")),
                    th(lang.pick("Status", "Status")), th_number(lang.pick("Rows", "Zeilen")),
                    th(lang.pick("Made", "Erstellt")), th(lang.pick("File", "Datei")),
                ])
                .rows(&made, |m| html! {
                    td { (match m.kind { ExportKind::Datev => "DATEV", ExportKind::Gobd => "GoBD" }) }
                    td { (locale::date(lang, m.from)) " – " (locale::date(lang, m.to)) }
                    td {
                        @if m.is_final { strong.final { (lang.pick("final", "endgültig")) } }
                        @else { strong.preliminary { (lang.pick("preliminary", "vorläufig")) } }
                    }
                    td class="num" { (m.rows) }
                    td { (company.date_of(&m.made_at).map(|d| locale::date(lang, d)).unwrap_or_default()) }
                    td {
                        @match (&m.file_name, ctx.may(Capability::Export)) {
                            (Some(name), true) => a href={"/books/exports/" (m.id) "/file"} download=(name) { (name) },
                            (Some(name), false) => (name),
                            (None, _) => (lang.pick("not kept (made before files were kept)", "nicht aufbewahrt (vor der Aufbewahrung erstellt)")),
                        }
                    }
                }))
            }
        }
    };
    Ok(screen_with(
        ctx,
        status,
        Screen::Books,
        lang.pick("Export", "Export"),
        content,
    ))
}

/// GET /books/export
pub fn export_show(ctx: &Ctx) -> Result<Answer> {
    export_page(ctx, StatusCode::OK, &Problems::default())
}

/// A ZIP as a download.
fn zip_answer(file_name: &str, zip: Vec<u8>) -> Answer {
    let mut headers = vec![
        ("Content-Type", "application/zip".to_string()),
        (
            "Content-Disposition",
            format!("attachment; filename=\"{file_name}\""),
        ),
    ];
    security_headers(&mut headers);
    Answer {
        status: StatusCode::OK,
        headers,
        body: zip,
        key_id: None,
    }
}

/// POST /books/export/gobd `{year}`: the fiscal year's data medium as one
/// ZIP, as `kontor export gobd` writes its files; a refusal shows the page
/// again.
pub fn export_gobd(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::Export)?;
    let tenant = &ctx.session.tenant;
    let year = ctx.form.get("year").map(str::trim).unwrap_or("");
    let checked = year.parse::<i16>().map_err(|_| {
        crate::error::Error::invalid(
            "year",
            crate::error::said::Input::NotYear {
                got: year.to_string(),
            },
        )
    });
    let made = GOBD.act(ctx, checked, |tx, year| {
        crate::books::export::gobd::export(tx, tenant, &ctx.actor(), year)
    })?;
    match made {
        Acted::Done(medium) => Ok(zip_answer(&medium.file_name, medium.zip)),
        Acted::Refused(r) => export_page_with(ctx, r.status, &Problems::default(), &r.problems),
    }
}

/// GET /books/exports/{id}/file: an export made earlier, as it was handed over.
pub fn export_file(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Export)?;
    let (name, bytes) = crate::books::export::made::file(ctx.conn, &ctx.session.tenant, id)?;
    Ok(zip_answer(&name, bytes))
}

/// POST /books/export/datev `{from, to, documents}`: the ZIP, as `kontor
/// export datev` writes it; a refusal (the settings lack the adviser's
/// numbers, the period spans two fiscal years) shows the page again.
pub fn export_datev(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::Export)?;
    let tenant = &ctx.session.tenant;
    let checked = ExportRequest::check(ExportInput {
        from: ctx.form.get("from").map(str::to_string),
        to: ctx.form.get("to").map(str::to_string),
        documents: ctx.form.get("documents") == Some("yes"),
    });
    let exported = EXPORT.act(ctx, checked, |tx, request| {
        datev::export(tx, tenant, &ctx.actor(), &request)
    })?;
    match exported {
        Acted::Done(exported) => Ok(zip_answer(&exported.file_name, exported.zip)),
        Acted::Refused(r) => export_page(ctx, r.status, &r.problems),
    }
}

/// Whole euros or euros with cents, as the form writes them, read in the
/// page's language (`12345` → `12.345`, `123.45` → `123,45`).
fn figure(lang: Lang, text: &str) -> String {
    let negative = text.starts_with('-');
    let digits = text.trim_start_matches('-');
    let (minor, exponent) = match digits.split_once('.') {
        Some((euros, cents)) => (
            euros.parse::<i64>().unwrap_or(0) * 100 + cents.parse::<i64>().unwrap_or(0),
            2,
        ),
        None => (digits.parse::<i64>().unwrap_or(0), 0),
    };
    locale::number(lang, if negative { -minor } else { minor }, exponent)
}

/// The return's figures, each Kz with its postings.
fn vat_figures(lang: Lang, r: &VatReturn, ec: &EcSales) -> Markup {
    html! {
        (flag(lang, r.is_final))
        table.statement {
            caption { (lang.pick("VAT return ", "Umsatzsteuer-Voranmeldung ")) (r.period) }
            thead { tr {
                th scope="col" { "Kz" }
                th scope="col" { (lang.pick("Figure", "Bezeichnung")) }
                th scope="col" class="num" { (lang.pick("Amount", "Betrag")) }
            } }
            tbody {
                @for kz in ORDER.iter().filter(|k| r.kz.contains_key(*k)) {
                    tr {
                        td { (kz) }
                        td {
                            (kz_name(lang, kz))
                            @if let (Some(tax), Some(booked)) = (r.tax.get(*kz), r.booked_tax.get(*kz)) {
                                br;
                                span.hint {
                                    (lang.pick("Tax on the form ", "Steuer laut Formular ")) (figure(lang, tax))
                                    (lang.pick(", booked ", ", gebucht ")) (figure(lang, booked))
                                    @if let Some(d) = r.difference.get(*kz).filter(|d| d.as_str() != "0.00") {
                                        (lang.pick(", difference ", ", Differenz ")) (figure(lang, d))
                                    }
                                }
                            }
                        }
                        td class="num" { (figure(lang, &r.kz[*kz])) }
                    }
                }
            }
        }
        @for kz in ORDER.iter().filter(|k| r.postings.contains_key(*k)) {
            details {
                summary { "Kz " (kz) ": " (lang.pick("postings", "Buchungen")) " (" (r.postings[*kz].len()) ")" }
                (Table::new(&[
                    th(lang.pick("Date", "Datum")), th(lang.pick("Entry", "Vorgang")),
                    th(lang.pick("Document", "Beleg")),
                    th(lang.pick("Payment (VAT due on receipt)", "Zahlung (Ist-Versteuerung)")),
                    th(lang.pick("Account", "Konto")), th(lang.pick("Tax key", "Steuerschlüssel")),
                    th_number(lang.pick("Amount", "Betrag")),
                ])
                .rows(&r.postings[*kz], |p| html! {
                    td { (locale::date(lang, p.date)) }
                    td { code { (p.entry) } }
                    td { (document_link(p.document.as_ref())) }
                    td { @if let Some(payment) = &p.payment { code { (payment) } } @else { "–" } }
                    td { (p.account) }
                    td { code { (if p.key.is_empty() { "–" } else { p.key.as_str() }) } }
                    td class="num" { (locale::number(lang, p.amount, 2)) }
                }))
            }
        }
        p.hint { (lang.pick(
            "kontor computes the figures; filing them through ELSTER needs the taxpayer's certificate and is done there.",
            "kontor berechnet die Zahlen; die Übermittlung über ELSTER braucht das Zertifikat des Steuerpflichtigen und geschieht dort.",
        )) }
        section aria-labelledby="ec-heading" {
            h2 #ec-heading { (lang.pick("EC sales list", "Zusammenfassende Meldung")) }
            @if ec.rows.is_empty() {
                p { (lang.pick("No intra-community supplies in this period.", "Keine innergemeinschaftlichen Umsätze in diesem Zeitraum.")) }
            } @else {
                (Table::new(&[
                    th(lang.pick("VAT id", "USt-IdNr.")), th(lang.pick("Country", "Land")),
                    th(lang.pick("Kind", "Art")), th_number(lang.pick("Amount (EUR)", "Betrag (EUR)")),
                ])
                .rows(&ec.rows, |row| html! {
                    td { (row.vat_id) }
                    td { (row.country) }
                    td { (serde_json::to_value(row.kind).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()) }
                    td class="num" { (figure(lang, &row.amount)) }
                }))
            }
        }
    }
}

/// GET /books/vat?period=2026-10: the VAT return's figures and the EC
/// sales list of a month or quarter (default: last month).
pub fn vat(ctx: &Ctx) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let company = company::get(ctx.conn, &tenant.company_id)?;
    let today = company.today();
    let last_month = today.first_of_month().yesterday().unwrap_or(today);
    let period_text = ctx
        .query
        .get("period")
        .map(str::to_string)
        .unwrap_or_else(|| last_month.strftime("%Y-%m").to_string());
    let figures = Period::parse("period", &period_text).and_then(|period| {
        let r = filing::vat_return(ctx.conn, tenant, &period)?;
        let ec = filing::ec_sales_list(ctx.conn, tenant, &period)?;
        Ok(vat_figures(lang, &r, &ec))
    });
    statement(
        ctx,
        &VAT,
        lang.pick("VAT return", "Umsatzsteuer-Voranmeldung"),
        "/books/vat",
        &[(&PERIOD, &period_text)],
        figures,
    )
}

/// A posting's document as a link to its page: an invoice or credit note
/// by its number, a bill or supplier credit by its id; a dash for none.
fn document_link(document: Option<&DocumentRef>) -> Markup {
    match document {
        Some(d) if d.kind == "invoice" || d.kind == "creditNote" => {
            html! { a href=(invoice_href(&d.number, "")) { (d.number) } }
        }
        Some(d) => html! { a href=(format!("/bills/{}", d.id)) { (d.number) } },
        None => html! { "–" },
    }
}
