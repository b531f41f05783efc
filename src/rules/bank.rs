//! Bank account identifiers: the IBAN (ISO 13616) with its per-country
//! length from the IBAN registry and its mod-97 check digits (ISO 7064,
//! computed on integers digit by digit), and the BIC (ISO 9362) by its
//! format. Both are kept upper case without spaces; `Iban::grouped` is the
//! form a person reads on a document.

use crate::error::{Error, Result};
use crate::rules::iso::CountryCode;
use crate::rules::stored_text::stored_text;

/// Every country of the IBAN registry with the length of its IBANs, sorted
/// by code (the registry as of 2025, Honduras, Oman and Yemen included), and
/// the territories the registry names under another country (Åland under
/// FI; Guernsey, Jersey and Man under GB; the French overseas ones under FR)
/// with that country's length.
const IBAN_LENGTHS: &[(&str, usize)] = &[
    ("AD", 24),
    ("AE", 23),
    ("AL", 28),
    ("AT", 20),
    ("AX", 18),
    ("AZ", 28),
    ("BA", 20),
    ("BE", 16),
    ("BG", 22),
    ("BH", 22),
    ("BI", 27),
    ("BL", 27),
    ("BR", 29),
    ("BY", 28),
    ("CH", 21),
    ("CR", 22),
    ("CY", 28),
    ("CZ", 24),
    ("DE", 22),
    ("DJ", 27),
    ("DK", 18),
    ("DO", 28),
    ("EE", 20),
    ("EG", 29),
    ("ES", 24),
    ("FI", 18),
    ("FK", 18),
    ("FO", 18),
    ("FR", 27),
    ("GB", 22),
    ("GE", 22),
    ("GF", 27),
    ("GG", 22),
    ("GI", 23),
    ("GL", 18),
    ("GP", 27),
    ("GR", 27),
    ("GT", 28),
    ("HN", 28),
    ("HR", 21),
    ("HU", 28),
    ("IE", 22),
    ("IL", 23),
    ("IM", 22),
    ("IQ", 23),
    ("IS", 26),
    ("IT", 27),
    ("JE", 22),
    ("JO", 30),
    ("KW", 30),
    ("KZ", 20),
    ("LB", 28),
    ("LC", 32),
    ("LI", 21),
    ("LT", 20),
    ("LU", 20),
    ("LV", 21),
    ("LY", 25),
    ("MC", 27),
    ("MD", 24),
    ("ME", 22),
    ("MF", 27),
    ("MK", 19),
    ("MN", 20),
    ("MQ", 27),
    ("MR", 27),
    ("MT", 31),
    ("MU", 30),
    ("NC", 27),
    ("NI", 28),
    ("NL", 18),
    ("NO", 15),
    ("OM", 23),
    ("PF", 27),
    ("PK", 24),
    ("PL", 28),
    ("PM", 27),
    ("PS", 29),
    ("PT", 25),
    ("QA", 29),
    ("RE", 27),
    ("RO", 24),
    ("RS", 22),
    ("RU", 33),
    ("SA", 24),
    ("SC", 31),
    ("SD", 18),
    ("SE", 24),
    ("SI", 19),
    ("SK", 24),
    ("SM", 27),
    ("SO", 23),
    ("ST", 25),
    ("SV", 28),
    ("TF", 27),
    ("TL", 23),
    ("TN", 24),
    ("TR", 26),
    ("UA", 29),
    ("VA", 22),
    ("VG", 24),
    ("WF", 27),
    ("XK", 20),
    ("YE", 30),
    ("YT", 27),
];

/// The length of the IBANs of a registry country, if it is one.
pub fn iban_length(country: &str) -> Option<usize> {
    IBAN_LENGTHS
        .binary_search_by(|(code, _)| code.cmp(&country))
        .ok()
        .map(|i| IBAN_LENGTHS[i].1)
}

/// The text without white space, upper case: how a person writes an IBAN or
/// a BIC on paper (`DE89 3704 0044 …`) becomes its stored form.
fn compact(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_uppercase()
}

/// The remainder mod 97 of the IBAN read as ISO 7064 wants it: the first
/// four characters moved to the end, each letter replaced by 10 … 35. Only
/// integers below 10,000 ever occur.
fn mod_97(iban: &str) -> u32 {
    let (head, tail) = iban.split_at(4);
    tail.bytes().chain(head.bytes()).fold(0u32, |r, b| match b {
        b'0'..=b'9' => (r * 10 + u32::from(b - b'0')) % 97,
        _ => (r * 100 + u32::from(b - b'A') + 10) % 97,
    })
}

/// A checked IBAN: upper case, no spaces, a registry country's length, valid
/// check digits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Iban(String);

impl Iban {
    /// Reads an IBAN as a person writes it (spaces allowed, any case).
    ///
    /// Fails with `Invalid` naming `field` when it holds other characters
    /// than letters and digits, starts with no country of the IBAN registry,
    /// has another length than that country's IBANs, or fails the check digits.
    pub fn parse(field: &str, text: &str) -> Result<Iban> {
        let iban = compact(text);
        if iban.is_empty() || !iban.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(Error::invalid(
                field,
                "is not an IBAN: it has only letters and digits (spaces allowed), such as DE89 3704 0044 0532 0130 00",
            ));
        }
        let country = iban.get(..2).unwrap_or_default();
        let Some(length) = iban_length(country) else {
            return Err(Error::invalid(
                field,
                format!("starts with {country:?}, which is no country of the IBAN registry"),
            ));
        };
        let digits_ok = iban.len() >= 4 && iban.as_bytes()[2..4].iter().all(u8::is_ascii_digit);
        if iban.len() != length {
            return Err(Error::invalid(
                field,
                format!(
                    "has {} characters, but an IBAN of {country} has {length}",
                    iban.len()
                ),
            ));
        }
        if !digits_ok || mod_97(&iban) != 1 {
            return Err(Error::invalid(
                field,
                "fails the IBAN check digits (mod 97); look for a mistyped character",
            ));
        }
        Ok(Iban(iban))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The country the account is held in (the IBAN's first two letters).
    pub fn country(&self) -> &str {
        &self.0[..2]
    }

    /// The IBAN in groups of four, as printed for a person: `DE89 3704 0044 0532 0130 00`.
    pub fn grouped(&self) -> String {
        let mut out = String::with_capacity(self.0.len() + self.0.len() / 4);
        for (i, c) in self.0.chars().enumerate() {
            if i > 0 && i % 4 == 0 {
                out.push(' ');
            }
            out.push(c);
        }
        out
    }
}

/// A checked BIC: 8 or 11 characters, upper case: 4 of the institution, the
/// ISO country, 2 of the location, and optionally 3 of the branch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bic(String);

impl Bic {
    /// Reads a BIC (spaces allowed, any case).
    ///
    /// Fails with `Invalid` naming `field` when it has another length than 8
    /// or 11, a character other than letters and digits, or a country part
    /// that is no ISO 3166 country (Kosovo's XK included).
    pub fn parse(field: &str, text: &str) -> Result<Bic> {
        let bic = compact(text);
        if !matches!(bic.len(), 8 | 11) || !bic.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(Error::invalid(
                field,
                "is not a BIC: it has 8 or 11 letters and digits, such as COBADEFFXXX",
            ));
        }
        let country = &bic[4..6];
        if country != "XK" && CountryCode::parse(field, country).is_err() {
            return Err(Error::invalid(
                field,
                format!("names the country {country:?} (its 5th and 6th characters), which is no ISO 3166 country"),
            ));
        }
        Ok(Bic(bic))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

// Stored identifiers are read back strictly, as written.
stored_text!(Iban, "an IBAN");
stored_text!(Bic, "a BIC");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_is_sorted_and_its_countries_are_iso_or_kosovo() {
        assert!(IBAN_LENGTHS.windows(2).all(|w| w[0].0 < w[1].0));
        for (code, length) in IBAN_LENGTHS {
            assert!(
                *code == "XK" || CountryCode::parse("c", code).is_ok(),
                "{code}"
            );
            assert!((15..=34).contains(length), "{code}");
        }
    }

    #[test]
    fn ibans_are_checked_by_length_and_mod_97() {
        let iban = Iban::parse("iban", "de89 3704 0044 0532 0130 00").unwrap();
        assert_eq!(iban.as_str(), "DE89370400440532013000");
        assert_eq!(iban.grouped(), "DE89 3704 0044 0532 0130 00");
        assert_eq!(iban.country(), "DE");
        for valid in [
            "GB82WEST12345698765432",
            "NO9386011117947",
            "BE68539007547034",
            "FR1420041010050500013M02606",
            "MT84MALT011000012345MTLCAST001S",
            "CH9300762011623852957",
            "AT611904300234573201",
            "NL91ABNA0417164300",
            "XK051212012345678906",
        ] {
            assert!(Iban::parse("iban", valid).is_ok(), "{valid}");
        }
        let sentence = |text: &str| Iban::parse("iban", text).unwrap_err().sentence();
        assert_eq!(
            sentence("DE88370400440532013000"),
            "The field iban fails the IBAN check digits (mod 97); look for a mistyped character."
        );
        assert_eq!(
            sentence("DE8937040044053201300"),
            "The field iban has 21 characters, but an IBAN of DE has 22."
        );
        assert_eq!(
            sentence("US12345678901234"),
            "The field iban starts with \"US\", which is no country of the IBAN registry."
        );
        assert!(Iban::parse("iban", "DE89-3704-0044-0532-0130-00").is_err());
        assert!(Iban::parse("iban", "DEXX370400440532013000").is_err());
        assert!(Iban::parse("iban", "").is_err());
        assert!(Iban::parse("iban", "D").is_err());
    }

    #[test]
    fn bics_are_checked_by_format() {
        assert_eq!(Bic::parse("bic", "cobadeff").unwrap().as_str(), "COBADEFF");
        assert_eq!(
            Bic::parse("bic", "HASP DE HH XXX").unwrap().as_str(),
            "HASPDEHHXXX"
        );
        assert!(Bic::parse("bic", "COBADEF").is_err());
        assert!(Bic::parse("bic", "COBADEFFXX").is_err());
        assert!(Bic::parse("bic", "COBAZZFFXXX").is_err());
        assert!(Bic::parse("bic", "COBA-DEFFXX").is_err());
    }
}
