//! The kinds of records a refusal names, with the name or number the asker
//! gave: `Customer K10001` / `Kunde K10001`, `Line 3 of draft D1` /
//! `Position 3 von Entwurf D1`.

use crate::error::said::Record;
use crate::error::Lang;

use super::reader::Reader;

/// A kind's words: as a sentence's subject in English, after "of" in
/// English, and in German.
fn words(kind: Record) -> (&'static str, &'static str, &'static str) {
    match kind {
        Record::Company => ("Company", "company", "Firma"),
        Record::CompanyOfPerson => (
            "A company of this person",
            "a company of this person",
            "Eine Firma dieser Person",
        ),
        Record::Customer => ("Customer", "customer", "Kunde"),
        Record::Supplier => ("Supplier", "supplier", "Lieferant"),
        Record::Purchase => ("Purchase", "purchase", "Einkauf"),
        Record::Invoice => ("Invoice", "invoice", "Rechnung"),
        Record::Draft => ("Draft", "draft", "Entwurf"),
        Record::DraftLine => ("Line", "line", "Position"),
        Record::Bill => ("Bill", "bill", "Eingangsrechnung"),
        Record::Attachment => ("Attachment", "attachment", "Anhang"),
        Record::Payment => ("Payment", "payment", "Zahlung"),
        Record::Transaction => ("Transaction", "transaction", "Vorgang"),
        Record::Person => ("Person", "person", "Person"),
        Record::Key => ("Key", "key", "Schlüssel"),
        Record::WebhookEndpoint => ("Webhook endpoint", "webhook endpoint", "Webhook-Endpunkt"),
        Record::Delivery => ("Delivery", "delivery", "Zustellung"),
        Record::BankAccount => ("The bank account", "bank account", "Das Bankkonto"),
        Record::BankLine => ("The bank line", "bank line", "Die Bankzeile"),
        Record::BankStatement => ("The bank statement", "bank statement", "Der Kontoauszug"),
        Record::Document => ("The document", "document", "Der Beleg"),
        Record::Account => ("The account", "account", "Das Konto"),
        Record::LedgerEntry => ("The ledger entry", "ledger entry", "Die Buchung"),
        Record::Asset => ("Asset", "asset", "Anlagegut"),
        Record::Export => ("The export", "export", "Der Export"),
        Record::Receipt => ("The receipt", "receipt", "Der Beleg"),
        Record::Reminder => ("Reminder", "reminder", "Mahnung"),
        Record::Mail => ("Mail", "mail", "E-Mail"),
        Record::Note => ("Note", "note", "Notiz"),
        Record::Passkey => ("Passkey", "passkey", "Passkey"),
        Record::Link => ("This link", "link", "Dieser Link"),
        Record::Page => ("This page", "page", "Diese Seite"),
        Record::Address => ("This address", "address", "Diese Adresse"),
    }
}

/// A record of `kind` named `named`, as the subject of a sentence.
pub fn text(kind: Record, named: &str, reader: Reader) -> String {
    let (en, _, de) = words(kind);
    let noun = match reader.lang {
        Lang::En => en,
        Lang::De => de,
    };
    if named.is_empty() {
        noun.to_string()
    } else {
        format!("{noun} {named}")
    }
}

/// A record within another (`Line 3 of draft D1`), as a sentence's subject.
pub fn text_of(kind: Record, named: &str, of: Record, of_named: &str, reader: Reader) -> String {
    let subject = text(kind, named, reader);
    let (_, of_en, of_de) = words(of);
    match reader.lang {
        Lang::En => format!("{subject} of {of_en} {of_named}"),
        Lang::De => format!("{subject} von {of_de} {of_named}"),
    }
}
