//! What issuing a document checks (`Issue`): the rules of e-invoices and
//! of the law, and where a finding is fixed, which the screens name by
//! their screens and the console by its commands.

use crate::error::said::{Issue, Particular, Party};
use crate::error::Lang;

use super::reader::Reader;

/// The message in the reader's words.
pub fn text(issue: &Issue, r: Reader) -> String {
    match (issue, r.lang) {
        (Issue::Finding { rule, problem }, _) => {
            format!("{}: {}", rule_name(rule, r), problem.text(r))
        }
        (Issue::Missing { whose, what }, Lang::En) => format!(
            "the {}'s {} is missing",
            match whose {
                Party::Seller => "seller",
                Party::Buyer => "buyer",
            },
            match what {
                Particular::Name => "name",
                Particular::LegalName => "legal name",
                Particular::Street => "street",
                Particular::PostalCode => "postal code",
                Particular::City => "city",
                Particular::Country => "country",
                Particular::VatIdOrTaxNumber => "VAT id or tax number",
                Particular::ContactName => "contact name",
                Particular::ContactPhone => "contact telephone",
                Particular::ContactEmail => "contact e-mail",
                Particular::Reference => "reference (Leitweg-ID)",
            }
        ),
        (Issue::Missing { whose, what }, Lang::De) => format!(
            "{} des {} fehlt",
            match what {
                Particular::Name => "der Name",
                Particular::LegalName => "der vollständige Name",
                Particular::Street => "die Straße",
                Particular::PostalCode => "die Postleitzahl",
                Particular::City => "der Ort",
                Particular::Country => "das Land",
                Particular::VatIdOrTaxNumber => "die USt-IdNr. oder Steuernummer",
                Particular::ContactName => "der Name des Ansprechpartners",
                Particular::ContactPhone => "die Telefonnummer des Ansprechpartners",
                Particular::ContactEmail => "die E-Mail-Adresse des Ansprechpartners",
                Particular::Reference => "die Referenz (Leitweg-ID)",
            },
            match whose {
                Party::Seller => "Verkäufers",
                Party::Buyer => "Käufers",
            }
        ),
        (Issue::NoVatIdNorRegistration, _) => r
            .pick(
                "the seller has neither a VAT id nor a legal registration",
                "der Verkäufer hat weder eine USt-IdNr. noch eine Registernummer",
            )
            .into(),
        (Issue::FixSeller { .. }, _) if r.on_screens() => r
            .pick(
                "set it in Settings, among the company's particulars",
                "tragen Sie die Angabe unter Einstellungen bei den Angaben der Firma ein",
            )
            .into(),
        (Issue::FixSeller { company, flag }, Lang::En) => {
            format!("set it with `kontor company set {company} {flag} …`")
        }
        (Issue::FixSeller { company, flag }, Lang::De) => {
            format!("setzen Sie die Angabe mit `kontor company set {company} {flag} …`")
        }
        (Issue::FixBuyer { .. }, _) if r.on_screens() => r
            .pick(
                "set it on the customer's page",
                "tragen Sie die Angabe auf der Seite des Kunden ein",
            )
            .into(),
        (Issue::FixBuyer { customer, flag }, Lang::En) => {
            format!("set it with `kontor customer set {customer} {flag} …`")
        }
        (Issue::FixBuyer { customer, flag }, Lang::De) => {
            format!("setzen Sie die Angabe mit `kontor customer set {customer} {flag} …`")
        }
        (Issue::FixDraft { .. }, _) if r.on_screens() => r
            .pick(
                "set it on the draft's page",
                "tragen Sie die Angabe auf der Seite des Entwurfs ein",
            )
            .into(),
        (Issue::FixDraft { draft, flag }, Lang::En) => {
            format!("set it with `kontor draft set {draft} {flag} …`")
        }
        (Issue::FixDraft { draft, flag }, Lang::De) => {
            format!("setzen Sie die Angabe mit `kontor draft set {draft} {flag} …`")
        }
        (Issue::FixLines { .. }, _) if r.on_screens() => r
            .pick(
                "change the draft's lines and their VAT category on its page",
                "ändern Sie auf der Seite des Entwurfs die Positionen und ihre Umsatzsteuer-Kategorie",
            )
            .into(),
        (Issue::FixLines { draft }, Lang::En) => {
            format!("change the lines of {draft} (`kontor draft line … --vat-category …`)")
        }
        (Issue::FixLines { draft }, Lang::De) => format!(
            "ändern Sie die Positionen von {draft} (`kontor draft line … --vat-category …`)"
        ),
        (Issue::Fault, _) => r
            .pick(
                "kontor computed figures that do not add up; this is a fault to report",
                "kontor hat Beträge berechnet, die nicht aufgehen; das ist ein Fehler, den Sie melden sollten",
            )
            .into(),
    }
}

/// A rule as the reader's language names it; an EN 16931 rule id is its own name.
fn rule_name(rule: &str, r: Reader) -> &str {
    match rule {
        "Art. 226 VAT Directive" => r.pick(rule, "Art. 226 MwSt-Systemrichtlinie"),
        "Invoice particulars" => r.pick(rule, "Rechnungsangaben"),
        other => other,
    }
}
