//! Received e-invoices (`Received`): what their checks warn of and what
//! booking one refuses; webhook endpoints (`Webhook`).

use crate::error::said::{Received, Webhook};
use crate::error::Lang;

use super::reader::Reader;

/// The message in the reader's words.
pub fn text(received: &Received, r: Reader) -> String {
    match (received, r.lang) {
        (Received::Buyer { named }, Lang::En) => {
            format!("The document is addressed to {named}, not to this company.")
        }
        (Received::Buyer { named }, Lang::De) => {
            format!("Das Dokument ist an {named} gerichtet, nicht an dieses Unternehmen.")
        }
        (Received::Dated { on, future: true }, Lang::En) => {
            format!("The document is dated {}, after today.", r.date(*on))
        }
        (Received::Dated { on, future: true }, Lang::De) => {
            format!("Das Dokument ist datiert auf den {}, nach heute.", r.date(*on))
        }
        (Received::Dated { on, future: false }, Lang::En) => format!(
            "The document is dated {}, more than a year before today.",
            r.date(*on)
        ),
        (Received::Dated { on, future: false }, Lang::De) => format!(
            "Das Dokument ist datiert auf den {}, mehr als ein Jahr vor heute.",
            r.date(*on)
        ),
        (Received::SupplierNamed { id, known, named }, Lang::En) => format!(
            "The supplier {id} with the seller's identifiers is named {}, the document names the seller {}: book under the existing supplier or as a new supplier.",
            r.quoted(known),
            r.quoted(named)
        ),
        (Received::SupplierNamed { id, known, named }, Lang::De) => format!(
            "Der Lieferant {id} mit den Kennungen des Verkäufers heißt {}, das Dokument nennt den Verkäufer {}: Buchen Sie beim vorhandenen Lieferanten oder als neuen Lieferanten.",
            r.quoted(known),
            r.quoted(named)
        ),
        (Received::SupplierChoiceNeeded, _) => r
            .pick(
                "is needed: the supplier found bears another name than the document's seller; choose existing (book under it) or new (a new supplier with the document's name)",
                "wird gebraucht: Der gefundene Lieferant trägt einen anderen Namen als der Verkäufer des Dokuments; wählen Sie vorhanden (bei ihm buchen) oder neu (ein neuer Lieferant mit dem Namen des Dokuments)",
            )
            .into(),
        (Received::SupplierChoiceNotNeeded { choice }, Lang::En) => format!(
            "is for a bill whose seller bears another name than the supplier found; this one's does not, so {choice} is not needed"
        ),
        (Received::SupplierChoiceNotNeeded { choice }, Lang::De) => format!(
            "gilt einer Eingangsrechnung, deren Verkäufer anders heißt als der gefundene Lieferant; diese nicht, also wird {choice} nicht gebraucht"
        ),
        (Received::WarningsNotAccepted { warnings }, _) => {
            let listed: Vec<String> = warnings.iter().map(|w| w.text(r)).collect();
            format!(
                "{}: {}",
                r.pick(
                    "is needed to book this bill despite its warnings",
                    "wird gebraucht, um diese Eingangsrechnung trotz ihrer Warnungen zu buchen"
                ),
                listed.join(" ")
            )
        }
        (Received::OppositeSigns { net, tax }, Lang::En) => format!(
            "The document's net ({}) and VAT ({}) point in opposite directions; kontor books a bill or a credit, not both in one document. Ask the supplier for one of each.",
            r.amount(net),
            r.amount(tax)
        ),
        (Received::OppositeSigns { net, tax }, Lang::De) => format!(
            "Netto ({}) und Umsatzsteuer ({}) des Dokuments haben entgegengesetzte Vorzeichen; kontor bucht eine Rechnung oder eine Gutschrift, nicht beides in einem Dokument. Bitten Sie den Lieferanten um je eines.",
            r.amount(net),
            r.amount(tax)
        ),
        (Received::CategoryNotNeeded { category }, Lang::En) => format!(
            "is for a document whose VAT category is not on EN 16931's list; this one names each of its categories, so it is booked under them, not under {category}"
        ),
        (Received::CategoryNotNeeded { category }, Lang::De) => format!(
            "gilt einem Dokument, dessen Umsatzsteuer-Kategorie nicht auf der Liste der EN 16931 steht; dieses nennt jede seiner Kategorien, also wird es unter ihnen gebucht, nicht unter {category}"
        ),
        (Received::CategoryNeeded { carried }, Lang::En) => format!(
            "is needed: the document carries {}, so kontor knows no tax key for it; say which category it is (S, Z, E, AE, K, G, O, L or M), booked at the document's rate",
            category_shown(carried, r)
        ),
        (Received::CategoryNeeded { carried }, Lang::De) => format!(
            "wird gebraucht: Das Dokument trägt {}, also kennt kontor keinen Steuerschlüssel dafür; sagen Sie, welche Kategorie es ist (S, Z, E, AE, K, G, O, L oder M), gebucht zum Satz des Dokuments",
            category_shown(carried, r)
        ),
        (Received::CategoryNotFitting { category, rates }, Lang::En) => format!(
            "is {category}, which cannot carry the document's rate of {}; name a category that fits it",
            rates.join(" and ")
        ),
        (Received::CategoryNotFitting { category, rates }, Lang::De) => format!(
            "ist {category}, das den Satz des Dokuments von {} nicht tragen kann; nennen Sie eine passende Kategorie",
            rates.join(" und ")
        ),
        (Received::SeveralCategories { carried }, Lang::En) => {
            let list: Vec<String> = carried.iter().map(|c| category_shown(c, r)).collect();
            format!(
                "The document carries {}; one category named for them cannot tell them apart. Refuse it and ask the supplier for a document with EN 16931's VAT categories.",
                list.join(" and ")
            )
        }
        (Received::SeveralCategories { carried }, Lang::De) => {
            let list: Vec<String> = carried.iter().map(|c| category_shown(c, r)).collect();
            format!(
                "Das Dokument trägt {}; eine für sie genannte Kategorie kann sie nicht unterscheiden. Lehnen Sie es ab und bitten Sie den Lieferanten um ein Dokument mit den Umsatzsteuer-Kategorien der EN 16931.",
                list.join(" und ")
            )
        }
        (Received::BookedAlready { id }, Lang::En) => format!("Bill {id} is booked already."),
        (Received::BookedAlready { id }, Lang::De) => {
            format!("Die Eingangsrechnung {id} ist schon gebucht.")
        }
        (Received::RefusedKept { id }, Lang::En) => {
            format!("Bill {id} was refused; a refused bill is kept and never booked.")
        }
        (Received::RefusedKept { id }, Lang::De) => format!(
            "Die Eingangsrechnung {id} wurde abgelehnt; eine abgelehnte Eingangsrechnung bleibt aufbewahrt und wird nie gebucht."
        ),
        (
            Received::Duplicate {
                seller,
                number,
                earlier,
            },
            Lang::En,
        ) => format!(
            "{seller}'s document {number} is already booked as {earlier}; this bill is a duplicate of it."
        ),
        (
            Received::Duplicate {
                seller,
                number,
                earlier,
            },
            Lang::De,
        ) => format!(
            "Das Dokument {number} von {seller} ist schon als {earlier} gebucht; diese Eingangsrechnung ist ein Duplikat davon."
        ),
    }
}

/// A VAT category the document carries that is not on EN 16931's list.
fn category_shown(code: &str, r: Reader) -> String {
    match (code, r.lang) {
        ("", Lang::En) => "a VAT category the document does not give".into(),
        ("", Lang::De) => "eine Umsatzsteuer-Kategorie, die das Dokument nicht angibt".into(),
        (code, Lang::En) => format!(
            "the VAT category {}, which is not on EN 16931's list",
            r.quoted(code)
        ),
        (code, Lang::De) => format!(
            "die Umsatzsteuer-Kategorie {}, die nicht auf der Liste der EN 16931 steht",
            r.quoted(code)
        ),
    }
}

/// A webhook's message in the reader's words.
pub fn webhook(webhook: &Webhook, r: Reader) -> String {
    match (webhook, r.lang) {
        (Webhook::NotUrl { got }, Lang::En) => format!("{} is not a URL.", r.quoted(got)),
        (Webhook::NotUrl { got }, Lang::De) => format!("{} ist keine URL.", r.quoted(got)),
        (Webhook::NotAbsolute { got }, Lang::En) => {
            format!("{} is not an absolute URL.", r.quoted(got))
        }
        (Webhook::NotAbsolute { got }, Lang::De) => {
            format!("{} ist keine absolute URL.", r.quoted(got))
        }
        (Webhook::NoHost { got }, Lang::En) => format!("{} has no host.", r.quoted(got)),
        (Webhook::NoHost { got }, Lang::De) => format!("{} hat keinen Host.", r.quoted(got)),
        (Webhook::NotHttp { got }, Lang::En) => {
            format!("{} is not an http(s) URL.", r.quoted(got))
        }
        (Webhook::NotHttp { got }, Lang::De) => {
            format!("{} ist keine http(s)-URL.", r.quoted(got))
        }
        (Webhook::Credentials, _) => r
            .pick(
                "The URL carries a user name or password; put no credentials in a webhook URL.",
                "Die URL enthält einen Benutzernamen oder ein Passwort; schreiben Sie keine Zugangsdaten in eine Webhook-URL.",
            )
            .into(),
        (Webhook::HttpsOnly, _) => r
            .pick("Webhook URLs must use https.", "Webhook-URLs müssen https verwenden.")
            .into(),
        (Webhook::Port443 { port }, Lang::En) => {
            format!("Webhook URLs must use port 443, not {port}.")
        }
        (Webhook::Port443 { port }, Lang::De) => {
            format!("Webhook-URLs müssen Port 443 verwenden, nicht {port}.")
        }
        (Webhook::LoopbackName { host }, Lang::En) => format!("{host} is a loopback name."),
        (Webhook::LoopbackName { host }, Lang::De) => {
            format!("{host} ist ein Name dieses Rechners (Loopback).")
        }
        (Webhook::ZoneId { host }, Lang::En) => format!(
            "{host} names a network interface (an IPv6 zone id); webhooks go only to public addresses."
        ),
        (Webhook::ZoneId { host }, Lang::De) => format!(
            "{host} nennt eine Netzwerkschnittstelle (eine IPv6-Zonen-ID); Webhooks gehen nur an öffentliche Adressen."
        ),
        (Webhook::NumericHost { host }, Lang::En) => {
            format!("{host} is a numeric host spelling that is not a valid address.")
        }
        (Webhook::NumericHost { host }, Lang::De) => {
            format!("{host} ist eine numerische Schreibweise, die keine gültige Adresse ist.")
        }
        (Webhook::HostNotPublic { problem }, Lang::En) => {
            format!("The host {problem}; webhooks go only to public addresses.")
        }
        (Webhook::HostNotPublic { problem }, Lang::De) => format!(
            "Der Host ist nicht öffentlich ({problem}); Webhooks gehen nur an öffentliche Adressen."
        ),
        (Webhook::ResolvesInward { reason }, Lang::En) => {
            format!("{reason}; webhooks go only to public addresses.")
        }
        (Webhook::ResolvesInward { reason }, Lang::De) => format!(
            "Abgelehnt, die Adresse ist nicht öffentlich ({reason}); Webhooks gehen nur an öffentliche Adressen."
        ),
        (Webhook::NoEvents, _) => r
            .pick(
                "needs at least one event kind, or [\"*\"]",
                "braucht mindestens eine Ereignisart, oder [\"*\"]",
            )
            .into(),
        (Webhook::NotEventKind { got, known }, Lang::En) => format!(
            "holds {}, which is not an event kind; the kinds are {}",
            r.quoted(got),
            known.join(", ")
        ),
        (Webhook::NotEventKind { got, known }, Lang::De) => format!(
            "enthält {}, keine Ereignisart; die Arten sind {}",
            r.quoted(got),
            known.join(", ")
        ),
        (Webhook::Disabled { id }, Lang::En) => {
            format!("The endpoint {id} is disabled; nothing is sent to it.")
        }
        (Webhook::Disabled { id }, Lang::De) => {
            format!("Der Endpunkt {id} ist deaktiviert; nichts wird an ihn gesendet.")
        }
    }
}
