//! The catalogue: the words of every message kontor's refusals and notes
//! carry as a value (`error::Said`), in German and in English, in one place.
//! A surface renders a message for its `Reader`: the reader's language;
//! amounts and dates in the person's notation on the screens (`1.234,56 €`,
//! `23.11.2026`) and in the programs' on the API and the console
//! (`1,234.56 EUR` or `1.234,56 EUR`, `2026-11-23`); and what the message
//! asks of the reader pointed to where the reader's surface offers it
//! (a screen names the screen that does it, the console its command).
//!
//! Each part's messages are rendered by one exhaustive `match`, German and
//! English side by side, so a message without both texts does not build.
//! Plain Rust rather than Fluent's `.ftl` files: the messages are the
//! enum's variants with typed parameters (an amount in minor units, a
//! day), which the compiler checks at every place that makes one and every
//! place that words one; Fluent would look its messages up by name at run
//! time and take its parameters as strings and numbers, with the amounts
//! and dates formatted by this crate's `locale` anyway.
//!
//! Also the words of an error as a whole (`Error::sentence_to`, and its
//! `Display`, which is the console's English): the request-level refusals
//! and the field naming of each surface.
//!
//! - `reader.rs`: who reads (`Reader`: a language and a `Surface`) and how
//!   each writes an amount, a day, a quoted text, a list, a field.
//! - `input.rs`: what was typed or sent (`Input`): text, numbers, amounts,
//!   dates, codes.
//! - `request.rs`: a request's body, query and form (`Request`).
//! - `code.rs`: identifiers and codes, a tax's rate and reason (`Code`).
//! - `records.rs`: the kinds of records a refusal names (`Record`).
//! - `settle.rs`: payments, credits, settlements (`Settle`).
//! - `company.rs`: the company, its particulars, workflow and customers
//!   (`Company`), and the jobs (`Job`).
//! - `draft.rs`: drafts and their lines (`Draft`).
//! - `issue.rs`: what issuing checks, and where a finding is fixed (`Issue`).
//! - `bill.rs`: bills and supplier credits recorded (`Bill`).
//! - `chart.rs`: the chart of accounts and own accounts (`Chart`).
//! - `dunning.rs`: reminders, the ladder, the base-rate table (`Dunning`),
//!   and mail to customers (`Mail`).
//! - `methods.rs`: the tax methods and the EÜR (`Methods`).
//! - `received.rs`: received e-invoices (`Received`) and webhook
//!   endpoints (`Webhook`).
//! - `asset.rs`: fixed assets and their depreciation (`Asset`).
//! - `bank.rs`: bank accounts, statements and their lines (`Bank`).
//! - `statement.rs`: what reading a statement file finds wrong
//!   (`FileFault`).
//! - `export.rs`: the exports for the tax adviser (`Export`).
//! - `access.rs`: people, sign-in, one-time links, second factors (`Access`).

mod access;
mod asset;
mod bank;
mod bill;
mod chart;
mod code;
mod company;
mod draft;
mod dunning;
mod export;
mod input;
mod issue;
mod methods;
mod reader;
mod received;
mod records;
mod request;
mod settle;
mod statement;

pub use reader::{Reader, Surface};

use crate::error::{Error, Lang, Said, Violation};

impl Said {
    /// The message in the reader's words.
    pub fn text(&self, reader: Reader) -> String {
        match self {
            Said::Input(input) => input::text(input, reader),
            Said::Request(request) => request::text(request, reader),
            Said::Code(code) => code::text(code, reader),
            Said::Settle(settle) => settle::text(settle, reader),
            Said::Company(company) => company::text(company, reader),
            Said::Job(job) => company::job(job, reader),
            Said::Draft(draft) => draft::text(draft, reader),
            Said::Issue(issue) => issue::text(issue, reader),
            Said::Bill(bill) => bill::text(bill, reader),
            Said::Chart(chart) => chart::text(chart, reader),
            Said::Asset(asset) => asset::text(asset, reader),
            Said::Dunning(dunning) => dunning::text(dunning, reader),
            Said::Methods(methods) => methods::text(methods, reader),
            Said::Mail(mail) => dunning::mail(mail, reader),
            Said::Received(received) => received::text(received, reader),
            Said::Webhook(webhook) => received::webhook(webhook, reader),
            Said::Bank(bank) => bank::text(bank, reader),
            Said::Export(export) => export::text(export, reader),
            Said::Access(access) => access::text(access, reader),
            Said::Record(kind, named) => records::text(*kind, named, reader),
            Said::RecordOf(kind, named, of, of_named) => {
                records::text_of(*kind, named, *of, of_named, reader)
            }
            Said::NotFound(what) => not_found(what, reader),
            Said::English(sentence) => sentence.clone(),
        }
    }
}

/// `what` was not found, in the reader's words.
fn not_found(what: &Said, r: Reader) -> String {
    match r.lang {
        Lang::En => format!("{} was not found.", what.text(r)),
        Lang::De => format!("{} wurde nicht gefunden.", what.text(r)),
    }
}

impl Violation {
    /// The predicate and its hint for a reader, without the field's name:
    /// `is missing`, `is not a date (such as 2026-11-23)`.
    pub fn predicate(&self, reader: Reader) -> String {
        let text = self.message.text(reader);
        match &self.hint {
            Some(hint) => format!("{} ({})", text.trim_end_matches('.'), hint.text(reader)),
            None => text,
        }
    }

    /// The sentence for a reader, the field named by `name`: a surface's
    /// own phrase for the books' field name ("The field postalCode",
    /// "--postal-code").
    pub fn sentence(&self, reader: Reader, name: &dyn Fn(&str) -> String) -> String {
        let mut s = match &self.field {
            Some(field) => format!("{} {}", name(field), self.message.text(reader)),
            None => self.message.text(reader),
        };
        if let Some(hint) = &self.hint {
            s = format!("{} ({})", s.trim_end_matches('.'), hint.text(reader));
        }
        if !s.ends_with(['.', '?', '!']) {
            s.push('.');
        }
        s
    }
}

impl Error {
    /// The console's sentence, in English, with the books' field names.
    pub fn sentence(&self) -> String {
        self.sentence_for(Reader::CONSOLE)
    }

    /// The sentence for a reader, fields named as the reader names them
    /// unless its surface says otherwise (`Reader::the_field`).
    pub fn sentence_for(&self, reader: Reader) -> String {
        self.sentence_to(reader, &|f| reader.the_field(f))
    }

    /// The console's sentence, in English, fields named by `name`.
    pub fn sentence_with(&self, name: &dyn Fn(&str) -> String) -> String {
        self.sentence_to(Reader::CONSOLE, name)
    }

    /// The sentence for a reader, fields named by `name` (see
    /// `Violation::sentence`). It may change between releases; the code
    /// (see `http::error`) may not.
    pub fn sentence_to(&self, reader: Reader, name: &dyn Fn(&str) -> String) -> String {
        let r = reader;
        match self {
            Error::Unauthenticated => r
                .pick(
                    "The API key is missing, unreadable, unknown, revoked or expired.",
                    "Der API-Schlüssel fehlt, ist unlesbar, unbekannt, widerrufen oder abgelaufen.",
                )
                .into(),
            Error::PlanRequired => r
                .pick(
                    "The company's plan does not include the API; it needs the Enterprise plan.",
                    "Der Tarif der Firma enthält die API nicht; dafür braucht sie den Enterprise-Tarif.",
                )
                .into(),
            Error::RateLimited { wait_seconds } => match r.lang {
                Lang::En => format!(
                    "The rate budget of this key is used up; try again in {wait_seconds} s."
                ),
                Lang::De => format!(
                    "Das Anfragebudget dieses Schlüssels ist aufgebraucht; bitte in {wait_seconds} s noch einmal versuchen."
                ),
            },
            Error::Forbidden if r.on_screens() => r
                .pick(
                    "Your role in this company does not allow this; nothing was done.",
                    "Ihre Rolle in dieser Firma erlaubt das nicht; es wurde nichts geändert.",
                )
                .into(),
            Error::Forbidden => r
                .pick(
                    "The key lacks a scope this address needs.",
                    "Dem Schlüssel fehlt eine Berechtigung, die diese Adresse braucht.",
                )
                .into(),
            Error::Invalid(violations) | Error::Refused(violations) => r.sentences(violations, name),
            Error::WrongState(said) => said.text(r),
            Error::PayloadTooLarge => r
                .pick(
                    "The request body is larger than 1 MiB.",
                    "Der Rumpf der Anfrage ist größer als 1 MiB.",
                )
                .into(),
            Error::TooSlow(seconds) => match r.lang {
                Lang::En => format!("The request body did not arrive within {seconds} s."),
                Lang::De => format!("Der Rumpf der Anfrage kam nicht innerhalb von {seconds} s an."),
            },
            Error::NotFound(what) => not_found(what, r),
            Error::MethodNotAllowed(allow) => match r.lang {
                Lang::En => format!("This address does not answer this method; it answers {allow}."),
                Lang::De => format!(
                    "Diese Adresse beantwortet diese Methode nicht; sie beantwortet {allow}."
                ),
            },
            Error::IdempotencyConflict => r
                .pick(
                    "This Idempotency-Key was already used for a different request.",
                    "Dieser Idempotency-Key wurde schon für eine andere Anfrage verwendet.",
                )
                .into(),
            Error::Busy => r
                .pick(
                    "kontor is busy with this company's requests; nothing was done, try again in a second.",
                    "kontor ist mit den Anfragen dieser Firma ausgelastet; es wurde nichts getan, bitte gleich noch einmal versuchen.",
                )
                .into(),
            Error::StorageFull => r
                .pick(
                    "The disk of kontor's data file is full, so nothing was written; reading goes on. \
                     Whoever runs kontor must free space; then try again.",
                    "Der Datenträger von kontors Datendatei ist voll, darum wurde nichts gespeichert; \
                     Lesen geht weiter. Wer kontor betreibt, muss Platz schaffen; dann bitte noch einmal versuchen.",
                )
                .into(),
            Error::Internal(_) => r
                .pick(
                    "Something went wrong inside kontor; nothing was changed.",
                    "In kontor ist etwas schiefgegangen; es wurde nichts geändert.",
                )
                .into(),
        }
    }
}

/// Messages as the console's English sentences, for a record a program
/// reads as JSON (`#[serde(serialize_with = "catalogue::in_english")]`).
pub fn in_english<S: serde::Serializer>(said: &[Said], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(said.iter().map(|m| m.text(Reader::CONSOLE)))
}

/// The console's English; an internal error shows its detail (logs only).
impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Internal(detail) => write!(f, "internal error: {detail}"),
            other => f.write_str(&other.sentence()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::said::{Input, Sum};
    use crate::error::Violations;
    use jiff::civil::Date;

    #[test]
    fn values_are_listed_once_whatever_their_number_in_each_language() {
        let list = |values: &[&str], lang| {
            let values: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            Reader::screens(lang).listed(&values)
        };
        assert_eq!(list(&[], Lang::En), "");
        assert_eq!(list(&["de"], Lang::En), "de");
        assert_eq!(list(&["de", "en"], Lang::En), "de or en");
        assert_eq!(list(&["a", "b", "c"], Lang::De), "a, b oder c");
    }

    #[test]
    fn violations_name_their_fields_in_a_surface_spelling_and_language() {
        let mut v = Violations::new();
        v.invalid("postalCode", Input::Missing);
        v.refused("stage", "is not in the workflow");
        let e = v.finish().unwrap_err();
        assert_eq!(e.sentence(), "The field postalCode is missing.");
        let snake = |f: &str| format!("The field {}", f.replace("postalCode", "postal_code"));
        assert_eq!(e.sentence_with(&snake), "The field postal_code is missing.");
        let de = Reader::api(Lang::De);
        assert_eq!(e.sentence_for(de), "Das Feld postalCode fehlt.");
        let nested = Error::invalid("quantity", Input::Missing).under("lines[2]");
        assert_eq!(nested.sentence(), "The field lines[2].quantity is missing.");
        let hinted = Violation::at("dueOn", Input::NotDate).hint("such as 2026-11-23");
        assert_eq!(
            hinted.sentence(Reader::CONSOLE, &|f| Reader::CONSOLE.the_field(f)),
            "The field dueOn must be a date in the form YYYY-MM-DD (such as 2026-11-23)."
        );
    }

    #[test]
    fn amounts_and_dates_are_written_as_the_surface_writes_them() {
        let sum = Sum {
            minor: 87_500,
            currency: "EUR".into(),
        };
        assert_eq!(Reader::CONSOLE.amount(&sum), "875.00 EUR");
        assert_eq!(Reader::api(Lang::De).amount(&sum), "875,00 EUR");
        assert_eq!(Reader::screens(Lang::De).amount(&sum), "875,00\u{a0}€");
        assert_eq!(Reader::screens(Lang::En).amount(&sum), "€875.00");
        let day = Date::new(2026, 11, 28).unwrap();
        assert_eq!(Reader::api(Lang::De).date(day), "2026-11-28");
        assert_eq!(Reader::screens(Lang::De).date(day), "28.11.2026");
        assert_eq!(Reader::screens(Lang::En).date(day), "28 Nov 2026");
    }

    #[test]
    fn a_typed_amount_is_refused_in_the_pages_language_and_notation() {
        use crate::rules::iso::Currency;
        use crate::rules::locale::parse_amount;
        let eur = Currency::parse("c", "EUR").unwrap();
        let de = Reader::screens(Lang::De);
        let said = |text: &str| {
            let e = parse_amount(Lang::De, "amount", text, &eur).unwrap_err();
            e.violations()[0].predicate(de)
        };
        assert_eq!(said(""), "fehlt");
        assert_eq!(
            said("12.50"),
            "ist nicht lesbar: in deutschen Beträgen ist das Komma das Dezimaltrennzeichen und der Punkt trennt die Tausender (schreiben Sie etwa 123.456,78)"
        );
        assert_eq!(
            said("12€"),
            "ist kein Betrag: ‚€‘ ist weder eine Ziffer noch ein Trennzeichen (schreiben Sie etwa 123.456,78)"
        );
        assert_eq!(said("1,234"), "hat 3 Nachkommastellen, aber EUR hat 2");
        // The console keeps the English it always had.
        let e = parse_amount(Lang::De, "amount", "12.50", &eur).unwrap_err();
        assert!(e
            .sentence()
            .starts_with("The field amount cannot be read: in German amounts"));
    }

    #[test]
    fn an_overpayment_is_said_with_the_amounts_in_the_readers_notation() {
        use crate::error::said::Settle;
        let sum = |minor| Sum {
            minor,
            currency: "EUR".into(),
        };
        let over = Said::from(Settle::Overpaid {
            amount: sum(87_501),
            outstanding: sum(87_500),
            document: "RE-1".into(),
        });
        assert_eq!(
            over.text(Reader::CONSOLE),
            "is 875.01 EUR, more than the 875.00 EUR outstanding on RE-1; overpayments are refused"
        );
        assert_eq!(
            over.text(Reader::screens(Lang::De)),
            "ist 875,01\u{a0}€, mehr als die 875,00\u{a0}€, die auf RE-1 offen sind; Überzahlungen werden abgelehnt"
        );
        assert_eq!(
            over.text(Reader::api(Lang::De)),
            "ist 875,01 EUR, mehr als die 875,00 EUR, die auf RE-1 offen sind; Überzahlungen werden abgelehnt"
        );
    }

    #[test]
    fn a_screen_points_to_the_screen_where_the_console_names_its_command() {
        use crate::error::said::Dunning;
        let due = Said::from(Dunning::BaseRateDue {
            next: Date::new(2026, 7, 1).unwrap(),
        });
        assert!(due
            .text(Reader::CONSOLE)
            .contains("kontor dunning base-rate"));
        for lang in [Lang::De, Lang::En] {
            let shown = due.text(Reader::screens(lang));
            assert!(!shown.contains("kontor "), "{shown}");
        }
        assert!(due
            .text(Reader::screens(Lang::De))
            .contains("für den 01.07.2026"));
    }

    #[test]
    fn a_not_found_names_the_record_in_the_readers_language() {
        use crate::error::said::Record;
        let e = Error::not_found(Said::Record(Record::Customer, "K1".into()));
        assert_eq!(e.sentence(), "Customer K1 was not found.");
        let de = Reader::api(Lang::De);
        assert_eq!(e.sentence_for(de), "Kunde K1 wurde nicht gefunden.");
    }
}
