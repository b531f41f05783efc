//! A received e-invoice as a person reads it, whatever its syntax: the
//! document's kind and references (and, for a MINIMUM or BASIC WL file,
//! that it is a booking aid and no invoice), seller, buyer and the seller's
//! tax representative, every line with its allowances and charges, the
//! document's allowances and charges, the VAT breakdown, the totals, how
//! and whom to pay, the notes and the attached documents (each a
//! download), in the reader's language. The document's own words (its
//! parties' names, lines, notes, payment terms) are in a language it does
//! not declare, and are marked so (`lang=""`), so no reader takes them for
//! the page's. Everything comes from the one document model the readers
//! fill; nothing here reads storage.

use maud::{html, Markup};

use crate::documents::read::Profile;
use crate::documents::{
    AllowanceCharge, Category, Document, Line, Party, Period, TaxRepresentative, TypeCode,
};
use crate::http::screens::frame::{th, th_amount, Table};
use crate::rules::countries;
use crate::rules::iso::Currency;
use crate::rules::locale::{self, Lang};
use crate::rules::money::Decimal;
use crate::rules::units;

/// How a person names the kind of document (UNTDID 1001).
pub fn kind(lang: Lang, code: TypeCode) -> String {
    let (en, de) = match code.number() {
        380 => ("Invoice", "Rechnung"),
        381 => ("Credit note", "Gutschrift"),
        383 => ("Debit note", "Belastungsanzeige"),
        384 => ("Corrected invoice", "Rechnungskorrektur"),
        386 => ("Prepayment invoice", "Vorauszahlungsrechnung"),
        387 => ("Hire invoice", "Mietrechnung"),
        389 => ("Self-billed invoice", "Gutschrift (Selbstfakturierung)"),
        393 => ("Factored invoice", "Factoring-Rechnung"),
        394 => ("Lease invoice", "Leasingrechnung"),
        326 => ("Partial invoice", "Teilrechnung"),
        261 => ("Self-billed credit note", "Selbst ausgestellte Gutschrift"),
        262 => ("Consolidated credit note", "Sammelgutschrift"),
        396 => ("Factored credit note", "Factoring-Gutschrift"),
        532 => ("Forwarder's credit note", "Spediteursgutschrift"),
        575 => ("Insurer's invoice", "Versicherungsrechnung"),
        875 => ("Partial construction invoice", "Abschlagsrechnung (Bau)"),
        876 => (
            "Partial final construction invoice",
            "Teilschlussrechnung (Bau)",
        ),
        877 => ("Final construction invoice", "Schlussrechnung (Bau)"),
        _ => ("Invoice", "Rechnung"),
    };
    format!("{} ({})", lang.pick(en, de), code.number())
}

/// How a person names a payment means (UNTDID 4461).
fn means_name(lang: Lang, code: &str) -> String {
    let name = match code {
        "1" => lang.pick("not defined", "nicht angegeben"),
        "10" => lang.pick("cash", "bar"),
        "20" => lang.pick("cheque", "Scheck"),
        "30" => lang.pick("credit transfer", "Überweisung"),
        "31" => lang.pick("debit transfer", "Lastschriftüberweisung"),
        "42" => lang.pick("payment to bank account", "Zahlung auf Bankkonto"),
        "48" | "54" | "55" => lang.pick("card", "Karte"),
        "49" => lang.pick("direct debit", "Lastschrift"),
        "57" => lang.pick("standing agreement", "Dauerauftrag"),
        "58" => lang.pick("SEPA credit transfer", "SEPA-Überweisung"),
        "59" => lang.pick("SEPA direct debit", "SEPA-Lastschrift"),
        "97" => lang.pick("clearing between partners", "Verrechnung"),
        _ => "",
    };
    if name.is_empty() {
        code.to_string()
    } else {
        format!("{name} ({code})")
    }
}

/// How a person names a VAT category.
pub fn category(lang: Lang, c: &Category) -> &'static str {
    match c {
        Category::S => lang.pick("standard rate", "Regelsteuersatz"),
        Category::Z => lang.pick("zero rated", "Nullsatz"),
        Category::E => lang.pick("exempt", "steuerbefreit"),
        Category::AE => lang.pick(
            "reverse charge",
            "Steuerschuldnerschaft des Leistungsempfängers",
        ),
        Category::K => lang.pick("intra-community supply", "innergemeinschaftliche Lieferung"),
        Category::G => lang.pick("export outside the EU", "Ausfuhrlieferung"),
        Category::O => lang.pick("outside the scope of VAT", "nicht steuerbar"),
        Category::L => lang.pick("Canary Islands (IGIC)", "Kanarische Inseln (IGIC)"),
        Category::M => lang.pick("Ceuta and Melilla (IPSI)", "Ceuta und Melilla (IPSI)"),
        Category::B => lang.pick("split payment (Italy)", "Split Payment (Italien)"),
        Category::Unlisted(code) if code.is_empty() => {
            lang.pick("not given by the document", "im Dokument nicht angegeben")
        }
        Category::Unlisted(_) => lang.pick(
            "not on EN 16931's list, as written",
            "nicht in der Liste der EN 16931, wie geschrieben",
        ),
    }
}

/// A VAT category's code as a line or a breakdown shows it: "–" for one
/// the document does not give.
fn category_code(c: &Category) -> &str {
    match c.code() {
        "" => "–",
        code => code,
    }
}

struct View<'a> {
    lang: Lang,
    doc: &'a Document,
    currency: Option<Currency>,
}

impl View<'_> {
    /// An amount of the document as a person reads it: in the page's notation
    /// when kontor knows the currency, else as the document writes it.
    fn document_amount(&self, minor: i64) -> String {
        match &self.currency {
            Some(c) => locale::amount(self.lang, minor, c),
            None => format!("{} {}", self.doc.amount(minor), self.doc.currency),
        }
    }

    fn price(&self, price: &Decimal) -> String {
        match price.to_minor(self.doc.exponent) {
            Some(minor) => self.document_amount(minor),
            None => format!(
                "{} {}",
                locale::decimal(self.lang, price),
                self.doc.currency
            ),
        }
    }

    fn date(&self, day: jiff::civil::Date) -> String {
        locale::date(self.lang, day)
    }

    fn period(&self, p: &Period) -> String {
        let end = |d: Option<jiff::civil::Date>| d.map(|d| self.date(d)).unwrap_or_default();
        format!("{} – {}", end(p.from), end(p.to))
    }

    fn rate(&self, rate: &Decimal) -> String {
        format!(
            "{}{}",
            locale::decimal(self.lang, rate),
            self.lang.pick("%", "\u{a0}%")
        )
    }
}

/// The received document `doc`; `attachment` gives the address of the
/// attached file at an index of `doc.attachments`.
pub fn document(lang: Lang, doc: &Document, attachment: &dyn Fn(usize) -> String) -> Markup {
    let v = View {
        lang,
        doc,
        currency: Currency::parse("currency", &doc.currency).ok(),
    };
    let profile = Profile::of(doc.specification.as_deref());
    html! {
        @if profile.is_booking_aid() {
            div.problem role="alert" {
                p {
                    strong { (lang.pick("Profile ", "Profil ")) (profile.name()) ": "
                        (lang.pick("no invoice.", "keine Rechnung.")) }
                    " "
                    (lang.pick(
                        "A file of this profile is no invoice under EN 16931 and § 14 UStG, only a booking aid: it lacks the invoice's lines. Ask the supplier for the invoice itself.",
                        "Eine Datei dieses Profils ist keine Rechnung im Sinne der EN 16931 und des § 14 UStG, nur eine Buchungshilfe: ihr fehlen die Positionen der Rechnung. Fordern Sie beim Lieferanten die Rechnung selbst an.",
                    ))
                }
            }
        }
        section aria-labelledby="document-heading" {
            h2 #document-heading { (kind(lang, doc.type_code)) " " (doc.number) }
            dl.particulars {
                div { dt { (lang.pick("Issued on", "Ausgestellt am")) } dd { (v.date(doc.issued_on)) } }
                @if let Some(due) = doc.due_on {
                    div { dt { (lang.pick("Due on", "Fällig am")) } dd { (v.date(due)) } }
                }
                @if let Some(day) = doc.delivered_on {
                    div { dt { (lang.pick("Delivered on", "Geliefert am")) } dd { (v.date(day)) } }
                }
                @if let Some(p) = &doc.period {
                    div { dt { (lang.pick("Period", "Leistungszeitraum")) } dd { (v.period(p)) } }
                }
                @if let Some(r) = &doc.buyer_reference {
                    div { dt { (lang.pick("Buyer reference", "Käuferreferenz")) } dd { (r) } }
                }
                @if let Some(r) = &doc.order_reference {
                    div { dt { (lang.pick("Order", "Bestellung")) } dd { (r) } }
                }
                @if let Some(r) = &doc.contract_reference {
                    div { dt { (lang.pick("Contract", "Vertrag")) } dd { (r) } }
                }
                @if let Some(r) = &doc.project_reference {
                    div { dt { (lang.pick("Project", "Projekt")) } dd { (r) } }
                }
                @if let Some(p) = &doc.preceding {
                    div { dt { (lang.pick("Corrects the invoice", "Bezieht sich auf Rechnung")) } dd {
                        (p.number) @if let Some(day) = p.issued_on { " " (lang.pick("of", "vom")) " " (v.date(day)) }
                    } }
                }
                @if let Some(place) = &doc.deliver_to {
                    div { dt { (lang.pick("Delivered to", "Lieferanschrift")) } dd { (address_line(lang, place)) } }
                }
                div { dt { (lang.pick("Currency", "Währung")) } dd { (doc.currency) } }
                @if let Some(s) = &doc.specification {
                    div { dt { (lang.pick("Specification", "Spezifikation")) } dd { (s) } }
                }
            }
        }
        div.cards {
            (party(&v, lang.pick("Seller", "Verkäufer"), "seller-heading", &doc.seller))
            (party(&v, lang.pick("Buyer", "Käufer"), "buyer-heading", &doc.buyer))
            @if let Some(r) = &doc.tax_representative {
                (representative(lang, r))
            }
        }
        (lines(&v))
        @if !doc.allowances.is_empty() {
            (Table::new(&[
                th(lang.pick("Kind", "Art")), th(lang.pick("Reason", "Grund")), th(lang.pick("VAT", "USt")),
                th_amount(lang.pick("Amount", "Betrag")),
            ])
            .caption(lang.pick("Allowances and charges on the document", "Nachlässe und Zuschläge auf die Rechnung"))
            .rows(&doc.allowances, |x| html! {
                td { (allowance_kind(lang, x)) }
                td { (reason(x)) }
                td { @if let Some((c, r)) = &x.vat { (category_code(c)) " " (v.rate(r)) } }
                td.amount { (signed(&v, x)) }
            }))
        }
        (Table::new(&[
            th(lang.pick("Category", "Kategorie")), th_amount(lang.pick("Rate", "Satz")),
            th_amount(lang.pick("Base", "Bemessungsgrundlage")), th_amount(lang.pick("VAT", "Steuer")),
        ])
        .caption(lang.pick("VAT breakdown", "Umsatzsteuer"))
        .rows(&doc.breakdown, |b| html! {
            td {
                (category_code(&b.category)) " – " (category(lang, &b.category))
                @if let Some(r) = &b.reason { br; (r) }
                @if let Some(code) = &b.reason_code { br; (code) }
            }
            td.amount { (v.rate(&b.rate)) }
            td.amount { (v.document_amount(b.base)) }
            td.amount { (v.document_amount(b.amount)) }
        }))
        section aria-labelledby="totals-heading" {
            h2 #totals-heading { (lang.pick("Totals", "Summen")) }
            dl.particulars {
                div { dt { (lang.pick("Sum of the lines", "Summe der Positionen")) } dd { (v.document_amount(doc.line_total)) } }
                @if doc.allowance_total != 0 {
                    div { dt { (lang.pick("Allowances", "Nachlässe")) } dd { (v.document_amount(doc.allowance_total)) } }
                }
                @if doc.charge_total != 0 {
                    div { dt { (lang.pick("Charges", "Zuschläge")) } dd { (v.document_amount(doc.charge_total)) } }
                }
                div { dt { (lang.pick("Total without VAT", "Gesamt netto")) } dd { (v.document_amount(doc.net)) } }
                div { dt { (lang.pick("VAT", "Umsatzsteuer")) } dd { (v.document_amount(doc.tax)) } }
                @if let Some(acc) = &doc.accounting_tax {
                    div { dt { (lang.pick("VAT in ", "Umsatzsteuer in ")) (acc.currency) } dd { (locale::number(lang, acc.amount, acc.exponent)) " " (acc.currency) } }
                }
                div { dt { (lang.pick("Total with VAT", "Gesamt brutto")) } dd { (v.document_amount(doc.gross)) } }
                @if doc.paid != 0 {
                    div { dt { (lang.pick("Paid already", "Bereits gezahlt")) } dd { (v.document_amount(doc.paid)) } }
                }
                @if doc.rounding != 0 {
                    div { dt { (lang.pick("Rounding", "Rundung")) } dd { (v.document_amount(doc.rounding)) } }
                }
                div { dt { strong { (lang.pick("Amount due", "Zahlbetrag")) } } dd { strong { (v.document_amount(doc.due)) } } }
            }
        }
        (payment(&v))
        @if !doc.notes.is_empty() {
            section aria-labelledby="notes-heading" {
                h2 #notes-heading { (lang.pick("Notes", "Bemerkungen")) }
                @for note in &doc.notes {
                    p.note lang="" {
                        @if let Some(s) = &note.subject { strong { (s) ": " } }
                        @for (i, line) in note.text.lines().enumerate() {
                            @if i > 0 { br; }
                            (line.trim())
                        }
                    }
                }
            }
        }
        @if !doc.attachments.is_empty() {
            section aria-labelledby="attachments-heading" {
                h2 #attachments-heading { (lang.pick("Attached documents", "Anhänge")) }
                ul {
                    @for (i, a) in doc.attachments.iter().enumerate() {
                        li {
                            @if let Some(file) = &a.file {
                                a href=(attachment(i)) download=(file.name) { (file.name) }
                                " (" (file.mime) ", " (file.bytes.len()) " bytes)"
                            } @else {
                                (a.id)
                            }
                            @if let Some(d) = &a.description { " – " span lang="" { (d) } }
                            @if let Some(uri) = &a.uri { " – " (uri) }
                        }
                    }
                }
            }
        }
    }
}

fn address_line(lang: Lang, a: &crate::documents::Address) -> String {
    let mut parts: Vec<String> = [&a.street, &a.additional, &a.line_three]
        .into_iter()
        .flatten()
        .cloned()
        .collect();
    let city: Vec<&str> = [&a.postal_code, &a.city]
        .into_iter()
        .flatten()
        .map(String::as_str)
        .collect();
    if !city.is_empty() {
        parts.push(city.join(" "));
    }
    if let Some(s) = &a.subdivision {
        parts.push(s.clone());
    }
    if !a.country.is_empty() {
        parts.push(countries::name(&a.country, lang).to_string());
    }
    parts.join(", ")
}

fn party(v: &View, title: &str, id: &str, p: &Party) -> Markup {
    let lang = v.lang;
    html! {
        section.figures aria-labelledby=(id) {
            h2 id=(id) { (title) }
            p {
                strong lang="" { (p.name) }
                @if let Some(t) = &p.trading_name { br; (t) }
                br; (address_line(lang, &p.address))
            }
            dl {
                @if let Some(x) = &p.vat_id { div { dt { (lang.pick("VAT id", "USt-IdNr.")) } dd { (x) } } }
                @if let Some(x) = &p.tax_number { div { dt { (lang.pick("Tax number", "Steuernummer")) } dd { (x) } } }
                @if let Some(x) = &p.registration { div { dt { (lang.pick("Registration", "Registernummer")) } dd { (x) } } }
                @if let Some(x) = &p.identifier { div { dt { (lang.pick("Identifier", "Kennung")) } dd { (x) } } }
                @if let Some(x) = &p.legal_info { div { dt { (lang.pick("Legal information", "Rechtliche Angaben")) } dd { (x) } } }
                @if let Some(x) = &p.electronic_address { div { dt { (lang.pick("Electronic address", "Elektronische Adresse")) } dd { (x.value) " (" (x.scheme) ")" } } }
                @if let Some(x) = &p.contact.name { div { dt { (lang.pick("Contact", "Ansprechpartner")) } dd { (x) } } }
                @if let Some(x) = &p.contact.phone { div { dt { (lang.pick("Phone", "Telefon")) } dd { (x) } } }
                @if let Some(x) = &p.contact.email { div { dt { (lang.pick("E-mail", "E-Mail")) } dd { (x) } } }
            }
        }
    }
}

/// BG-11: the seller's tax representative, who accounts for its VAT.
fn representative(lang: Lang, r: &TaxRepresentative) -> Markup {
    html! {
        section.figures aria-labelledby="representative-heading" {
            h2 #representative-heading { (lang.pick("Seller's tax representative", "Steuerlicher Vertreter des Verkäufers")) }
            p {
                strong { (r.name) }
                @if let Some(a) = &r.address { br; (address_line(lang, a)) }
            }
            dl {
                @if let Some(x) = &r.vat_id { div { dt { (lang.pick("VAT id", "USt-IdNr.")) } dd { (x) } } }
            }
        }
    }
}

fn allowance_kind(lang: Lang, x: &AllowanceCharge) -> &'static str {
    if x.charge {
        lang.pick("Charge", "Zuschlag")
    } else {
        lang.pick("Allowance", "Nachlass")
    }
}

fn reason(x: &AllowanceCharge) -> String {
    let mut out = x.reason.clone().unwrap_or_default();
    if let Some(code) = &x.reason_code {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&format!("({code})"));
    }
    out
}

/// An allowance as a negative amount, a charge as a positive one.
fn signed(v: &View, x: &AllowanceCharge) -> String {
    v.document_amount(if x.charge { x.amount } else { -x.amount })
}

fn lines(v: &View) -> Markup {
    let lang = v.lang;
    html! {
        table {
            caption { (lang.pick("Lines", "Positionen")) }
            thead { tr {
                th scope="col" { "#" }
                th scope="col" { (lang.pick("Item", "Artikel")) }
                th.amount scope="col" { (lang.pick("Quantity", "Menge")) }
                th.amount scope="col" { (lang.pick("Price", "Preis")) }
                th.amount scope="col" { (lang.pick("VAT", "USt")) }
                th.amount scope="col" { (lang.pick("Net", "Netto")) }
            } }
            tbody {
                @for line in &v.doc.lines {
                    (line_row(v, line))
                }
            }
        }
    }
}

fn line_row(v: &View, line: &Line) -> Markup {
    let lang = v.lang;
    html! {
        tr {
            td { (line.id) }
            td {
                span lang="" { (line.name) }
                @if let Some(d) = &line.description { br; span lang="" { (d) } }
                @if let Some(id) = &line.seller_item_id { br; (lang.pick("Item no. ", "Art.-Nr. ")) (id) }
                @if let Some(n) = &line.note { br; em lang="" { (n) } }
                @if let Some(p) = &line.period { br; (v.period(p)) }
                @if let Some(o) = &line.order_line { br; (lang.pick("Order line ", "Bestellposition ")) (o) }
            }
            td.amount { (locale::decimal(lang, &line.quantity)) " " (units::name(&line.unit, lang)) }
            td.amount {
                (v.price(&line.price))
                @if let Some(base) = &line.base_quantity { " / " (locale::decimal(lang, base)) }
                @if let Some(gross) = &line.gross_price {
                    @if gross != &line.price { br; small { (lang.pick("list price ", "Listenpreis ")) (v.price(gross)) } }
                }
            }
            td.amount { (category_code(&line.category)) " " (v.rate(&line.rate)) }
            td.amount { (v.document_amount(line.net)) }
        }
        @for x in &line.allowances {
            tr {
                td {}
                td { (allowance_kind(lang, x)) ": " (reason(x)) }
                td.amount {}
                td.amount { @if let Some(p) = &x.percent { (v.rate(p)) } }
                td.amount {}
                td.amount { (signed(v, x)) }
            }
        }
    }
}

fn payment(v: &View) -> Markup {
    let lang = v.lang;
    let doc = v.doc;
    html! {
        section aria-labelledby="payment-heading" {
            h2 #payment-heading { (lang.pick("Payment", "Zahlung")) }
            dl.particulars {
                @if let Some(m) = &doc.payment_means {
                    div { dt { (lang.pick("Means", "Zahlungsart")) } dd { (means_name(lang, &m.code)) @if let Some(t) = &m.text { " – " (t) } } }
                }
                @if let Some(p) = &doc.payee {
                    div { dt { (lang.pick("Payee", "Zahlungsempfänger")) } dd { (p) } }
                }
                @if let Some(t) = &doc.transfer {
                    div { dt { "IBAN" } dd { (t.iban) } }
                    @if let Some(b) = &t.bic { div { dt { "BIC" } dd { (b) } } }
                    @if let Some(h) = &t.account_holder { div { dt { (lang.pick("Account holder", "Kontoinhaber")) } dd { (h) } } }
                }
                @if let Some(r) = &doc.payment_reference {
                    div { dt { (lang.pick("Payment reference", "Verwendungszweck")) } dd lang="" { (r) } }
                }
                @if let Some(c) = &doc.card {
                    div { dt { (lang.pick("Card", "Karte")) } dd { (c.number) @if let Some(h) = &c.holder { " – " (h) } } }
                }
                @if let Some(d) = &doc.direct_debit {
                    @if let Some(m) = &d.mandate { div { dt { (lang.pick("Mandate", "Mandatsreferenz")) } dd { (m) } } }
                    @if let Some(c) = &d.creditor_id { div { dt { (lang.pick("Creditor id", "Gläubiger-ID")) } dd { (c) } } }
                    @if let Some(a) = &d.account { div { dt { (lang.pick("Account debited", "Belastetes Konto")) } dd { (a) } } }
                }
                @if let Some(terms) = &doc.payment_terms {
                    div { dt { (lang.pick("Payment terms", "Zahlungsbedingungen")) } dd lang="" {
                        @for (i, line) in terms.lines().enumerate() { @if i > 0 { br; } (line.trim()) }
                    } }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::http::screens::einvoice_view::*;

    /// Every syntax reads alike: the CII and UBL files of one case render
    /// the same figures.
    #[test]
    fn a_received_invoice_renders_for_a_person() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/einvoices-in/zugferd-corpus/XML-Rechnung");
        let day = jiff::civil::Date::constant(2026, 1, 1);
        let read = |p: &str| {
            crate::documents::read::file(&std::fs::read(root.join(p)).unwrap(), day)
                .unwrap()
                .document
        };
        let cii = read("CII/EN16931_Rabatte.cii.xml");
        let html = document(Lang::De, &cii, &|i| format!("/a/{i}")).into_string();
        for text in [
            "Rechnung (380)",
            "Umsatzsteuer",
            "Nachlass",
            "Zahlbetrag",
            "Lieferant GmbH",
        ] {
            assert!(html.contains(text), "{text}");
        }
        let en = document(Lang::En, &cii, &|i| format!("/a/{i}")).into_string();
        assert!(en.contains("Amount due") && en.contains("Allowance"));
        let ubl = read("UBL/EN16931_Rabatte.ubl.xml");
        let due = locale::amount(Lang::De, cii.due, &Currency::parse("c", "EUR").unwrap());
        assert!(document(Lang::De, &ubl, &|_| String::new())
            .into_string()
            .contains(&due));
    }
}
