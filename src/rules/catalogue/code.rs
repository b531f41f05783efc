//! Identifiers and codes a field holds (IBANs, BICs, electronic addresses,
//! creditor references, countries, placeholders) and a tax's rate and
//! reason, and an exchange rate (`Code`).

use crate::error::said::{Code, Computed};
use crate::error::Lang;
use crate::rules::vat_ids;

use super::reader::Reader;

/// The message in the reader's words.
pub fn text(code: &Code, r: Reader) -> String {
    match (code, r.lang) {
        (Code::NotIban, _) => r
            .pick(
                "is not an IBAN: it has only letters and digits (spaces allowed), such as DE89 3704 0044 0532 0130 00",
                "ist keine IBAN: Sie hat nur Buchstaben und Ziffern (Leerzeichen erlaubt), etwa DE89 3704 0044 0532 0130 00",
            )
            .into(),
        (Code::IbanCountry { got }, Lang::En) => format!(
            "starts with {}, which is no country of the IBAN registry",
            r.quoted(got)
        ),
        (Code::IbanCountry { got }, Lang::De) => format!(
            "beginnt mit {}, keinem Land des IBAN-Registers",
            r.quoted(got)
        ),
        (
            Code::IbanLength {
                length,
                country,
                wanted,
            },
            Lang::En,
        ) => format!("has {length} characters, but an IBAN of {country} has {wanted}"),
        (
            Code::IbanLength {
                length,
                country,
                wanted,
            },
            Lang::De,
        ) => format!("hat {length} Zeichen, aber eine IBAN aus {country} hat {wanted}"),
        (Code::IbanCheck, _) => r
            .pick(
                "fails the IBAN check digits (mod 97); look for a mistyped character",
                "besteht die Prüfziffern der IBAN nicht (mod 97); suchen Sie ein vertipptes Zeichen",
            )
            .into(),
        (Code::NotBic, _) => r
            .pick(
                "is not a BIC: it has 8 or 11 letters and digits, such as COBADEFFXXX",
                "ist keine BIC: Sie hat 8 oder 11 Buchstaben und Ziffern, etwa COBADEFFXXX",
            )
            .into(),
        (Code::BicCountry { got }, Lang::En) => format!(
            "names the country {} (its 5th and 6th characters), which is no ISO 3166 country",
            r.quoted(got)
        ),
        (Code::BicCountry { got }, Lang::De) => format!(
            "nennt das Land {} (ihr 5. und 6. Zeichen), kein Land nach ISO 3166",
            r.quoted(got)
        ),
        (Code::NotElectronicAddress, _) => r
            .pick(
                "takes SCHEME:VALUE with an EAS scheme, such as 0204:04011000-1234512345-06 or EM:rechnung@example.de",
                "nimmt SCHEMA:WERT mit einem EAS-Schema, etwa 0204:04011000-1234512345-06 oder EM:rechnung@example.de",
            )
            .into(),
        (Code::EasScheme { got }, Lang::En) => format!(
            "names the scheme {}, which is not on the EAS code list (such as 0204 Leitweg-ID, 9930 German VAT id, 0088 GLN, EM e-mail)",
            r.quoted(got)
        ),
        (Code::EasScheme { got }, Lang::De) => format!(
            "nennt das Schema {}, das nicht auf der EAS-Codeliste steht (etwa 0204 Leitweg-ID, 9930 deutsche USt-IdNr., 0088 GLN, EM E-Mail)",
            r.quoted(got)
        ),
        (Code::WhiteSpace, _) => r
            .pick(
                "holds white space in its value",
                "enthält Leerraum in seinem Wert",
            )
            .into(),
        (Code::EmNotEmail { got }, Lang::En) => format!(
            "names the scheme EM, but {} is not an e-mail address",
            r.quoted(got)
        ),
        (Code::EmNotEmail { got }, Lang::De) => format!(
            "nennt das Schema EM, aber {} ist keine E-Mail-Adresse",
            r.quoted(got)
        ),
        (Code::NotGln { got }, Lang::En) => format!(
            "names the scheme 0088 (GLN), but {} is not 13 digits with a valid check digit",
            r.quoted(got)
        ),
        (Code::NotGln { got }, Lang::De) => format!(
            "nennt das Schema 0088 (GLN), aber {} sind nicht 13 Ziffern mit gültiger Prüfziffer",
            r.quoted(got)
        ),
        (Code::NotCreditorReference, _) => r
            .pick(
                "is not an ISO 11649 creditor reference: RF, two check digits and up to 21 letters and digits, such as RF18 5390 0754 7034",
                "ist keine Gläubigerreferenz nach ISO 11649: RF, zwei Prüfziffern und bis zu 21 Buchstaben und Ziffern, etwa RF18 5390 0754 7034",
            )
            .into(),
        (Code::CreditorReferenceCheck, _) => r
            .pick(
                "fails the creditor reference's check digits (mod 97); look for a mistyped character",
                "besteht die Prüfziffern der Gläubigerreferenz nicht (mod 97); suchen Sie ein vertipptes Zeichen",
            )
            .into(),
        (Code::NotCountry { got }, Lang::En) => format!(
            "must be an ISO 3166-1 alpha-2 country code such as DE; {} is not one",
            r.quoted(got)
        ),
        (Code::NotCountry { got }, Lang::De) => format!(
            "muss ein Ländercode nach ISO 3166-1 alpha-2 sein, etwa DE; {} ist keiner",
            r.quoted(got)
        ),
        (Code::NotDayOfYear { got }, Lang::En) => format!(
            "is a day of the year as MM-DD (07-01), not {}",
            r.quoted(got)
        ),
        (Code::NotDayOfYear { got }, Lang::De) => format!(
            "ist ein Tag des Jahres als MM-TT (07-01), nicht {}",
            r.quoted(got)
        ),
        (Code::UnknownPlaceholder { got, known }, Lang::En) => {
            format!("uses {{{got}}}, which is not one of {}", known.join(", "))
        }
        (Code::UnknownPlaceholder { got, known }, Lang::De) => {
            format!("verwendet {{{got}}}, das keiner von {} ist", known.join(", "))
        }
        (Code::LoneClose, _) => r
            .pick(
                "has a \"}\" without its \"{\"; write }} for a brace",
                "hat ein „}“ ohne sein „{“; schreiben Sie }} für eine Klammer",
            )
            .into(),
        (Code::Unclosed, _) => r
            .pick(
                "has a \"{\" that is not closed; write {{ for a brace",
                "hat ein „{“, das nicht geschlossen ist; schreiben Sie {{ für eine Klammer",
            )
            .into(),
        (Code::ReasonWithCharge { tax, rate }, Lang::En) => format!(
            "goes only with a zero rate; {} at {} % is charged",
            tax.as_deref().unwrap_or("the tax"),
            r.decimal(rate)
        ),
        (Code::ReasonWithCharge { tax, rate }, Lang::De) => format!(
            "gehört nur zu einem Satz von null; {} zu {} % wird berechnet",
            tax.as_deref().unwrap_or("die Steuer"),
            r.decimal(rate)
        ),
        (Code::ReasonNeeded { tax }, Lang::En) => format!(
            "is needed: {} at 0 % needs the seller's reason why nothing is charged (e.g. reverse charge)",
            tax.as_deref().unwrap_or("the tax")
        ),
        (Code::ReasonNeeded { tax }, Lang::De) => format!(
            "wird gebraucht: {} zu 0 % braucht den Grund des Verkäufers, warum nichts berechnet wird (etwa Umkehr der Steuerschuld)",
            tax.as_deref().unwrap_or("die Steuer")
        ),
        (
            Code::VatId {
                compact,
                prefix,
                fault,
            },
            lang,
        ) => vat_ids::sentence(compact, prefix, *fault, lang),
        (Code::TooLargeToBook { what }, Lang::En) => format!(
            "{} is too large to be booked.",
            match what {
                Computed::LineNet => "A line's net",
                Computed::TaxAmount => "A tax amount",
                Computed::Interest => "An interest amount",
                Computed::Converted => "A converted amount",
            }
        ),
        (Code::TooLargeToBook { what }, Lang::De) => format!(
            "{} ist zu groß, um gebucht zu werden.",
            match what {
                Computed::LineNet => "Der Nettobetrag einer Zeile",
                Computed::TaxAmount => "Ein Steuerbetrag",
                Computed::Interest => "Ein Zinsbetrag",
                Computed::Converted => "Ein umgerechneter Betrag",
            }
        ),
        (Code::TotalTooLarge, _) => r
            .pick(
                "The document's total is too large to be booked.",
                "Der Gesamtbetrag des Belegs ist zu groß, um gebucht zu werden.",
            )
            .into(),
        (Code::RateNotOne { book, got }, Lang::En) => format!(
            "is 1 for a document in the book currency {book}, not {}",
            r.decimal(got)
        ),
        (Code::RateNotOne { book, got }, Lang::De) => format!(
            "ist 1 für einen Beleg in der Buchwährung {book}, nicht {}",
            r.decimal(got)
        ),
        (Code::RateNeeded { currency, book }, Lang::En) => format!(
            "is needed: the document is in {currency} and the books in {book}; give the rate fixed today ({book} per {currency})"
        ),
        (Code::RateNeeded { currency, book }, Lang::De) => format!(
            "wird gebraucht: Der Beleg ist in {currency} und die Bücher in {book}; geben Sie den heute festgelegten Kurs an ({book} je {currency})"
        ),
        (Code::RateNotPositive, _) => r
            .pick("must be greater than 0", "muss größer als 0 sein")
            .into(),
    }
}
