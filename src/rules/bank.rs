//! Bank account identifiers: the IBAN (ISO 13616) with its per-country
//! length from the IBAN registry and its mod-97 check digits (ISO 7064,
//! computed on integers digit by digit), and the BIC (ISO 9362) by its
//! format. Both are kept upper case without spaces; `Iban::grouped` is the
//! form a person reads on a document. A statement may name an account by a
//! German bank code and account number instead (`AccountId`); a German IBAN
//! holds both, so the two spellings of one account are recognised as one.

use crate::error::said::Code;
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
            return Err(Error::invalid(field, Code::NotIban));
        }
        let country = iban.get(..2).unwrap_or_default();
        let Some(length) = iban_length(country) else {
            return Err(Error::invalid(
                field,
                Code::IbanCountry {
                    got: country.to_string(),
                },
            ));
        };
        let digits_ok = iban.len() >= 4 && iban.as_bytes()[2..4].iter().all(u8::is_ascii_digit);
        if iban.len() != length {
            return Err(Error::invalid(
                field,
                Code::IbanLength {
                    length: iban.len(),
                    country: country.to_string(),
                    wanted: length,
                },
            ));
        }
        if !digits_ok || mod_97(&iban) != 1 {
            return Err(Error::invalid(field, Code::IbanCheck));
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
        crate::rules::text::in_fours(&self.0)
    }
}

impl Iban {
    /// The German IBAN of a bank code (Bankleitzahl, 8 digits) and an account
    /// number (1 to 10 digits, zero-padded to 10): `DE`, the check digits,
    /// the bank code, the account number. `None` when either does not fit
    /// (a 13-digit account number, as some banks' internal accounts have,
    /// has no IBAN). Banks with their own conversion rules for old account
    /// numbers are not modelled: the plain rule holds for current accounts.
    pub fn from_german(bank_code: &str, number: &str) -> Option<Iban> {
        let number = number.trim_start_matches('0');
        let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if bank_code.len() != 8 || !digits(bank_code) || number.len() > 10 || !digits(number) {
            return None;
        }
        let bban = format!("{bank_code}{number:0>10}");
        let check = 98 - mod_97(&format!("DE00{bban}"));
        Some(Iban(format!("DE{check:02}{bban}")))
    }

    /// The bank code and the account number (as its 10 digits) of a German
    /// IBAN; `None` for another country's.
    pub fn german_parts(&self) -> Option<(&str, &str)> {
        (self.country() == "DE").then(|| (&self.0[4..12], &self.0[12..22]))
    }
}

/// How a statement names the account it is about: by IBAN, by a national
/// bank code and account number (MT940's `:25:20752041/0291593375`), or by
/// another identifier the bank gives (kept as written).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccountId {
    Iban(Iban),
    National { bank_code: String, number: String },
    Other(String),
}

impl AccountId {
    /// Reads an account as a statement writes it: an IBAN, or a bank code
    /// and number separated by `/`, either possibly followed by its currency
    /// (`DE…EUR`, `20752041/0291593375EUR`, `20752041/0291593375 EUR`, as
    /// some MT940 `:25:` fields are), or anything else (trimmed).
    pub fn read(text: &str) -> AccountId {
        let text = text.trim();
        if let Some(id) = AccountId::known(text) {
            return id;
        }
        if text.len() > 3 {
            let (head, tail) = text.split_at(text.len() - 3);
            if tail.bytes().all(|b| b.is_ascii_uppercase()) {
                if let Some(id) = AccountId::known(head.trim_end().trim_end_matches('/')) {
                    return id;
                }
            }
        }
        AccountId::Other(text.to_string())
    }

    /// An IBAN, or a bank code and number of digits separated by `/`.
    fn known(text: &str) -> Option<AccountId> {
        if let Ok(iban) = Iban::parse("account", text) {
            return Some(AccountId::Iban(iban));
        }
        let (code, number) = text.split_once('/')?;
        let number = number.trim();
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        (digits(code.trim()) && digits(number)).then(|| AccountId::National {
            bank_code: code.trim().to_string(),
            number: number.to_string(),
        })
    }

    /// Whether both name the same account: equal IBANs, or a German IBAN and
    /// the bank code and account number it holds (leading zeros of the
    /// number aside), or equal national or other identifiers.
    pub fn same_account(&self, other: &AccountId) -> bool {
        let national = |id: &AccountId| -> Option<(String, String)> {
            match id {
                AccountId::Iban(iban) => iban
                    .german_parts()
                    .map(|(c, n)| (c.to_string(), n.trim_start_matches('0').to_string())),
                AccountId::National { bank_code, number } => Some((
                    bank_code.clone(),
                    number.trim_start_matches('0').to_string(),
                )),
                AccountId::Other(_) => None,
            }
        };
        match (self, other) {
            (AccountId::Iban(a), AccountId::Iban(b)) => a == b,
            (AccountId::Other(a), AccountId::Other(b)) => a.eq_ignore_ascii_case(b),
            (a, b) => matches!((national(a), national(b)), (Some(x), Some(y)) if x == y),
        }
    }

    /// The account as a person reads it in a sentence: the IBAN in groups,
    /// `bank code/number`, or the identifier.
    pub fn shown(&self) -> String {
        match self {
            AccountId::Iban(iban) => iban.grouped(),
            AccountId::National { bank_code, number } => format!("{bank_code}/{number}"),
            AccountId::Other(text) => text.clone(),
        }
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
            return Err(Error::invalid(field, Code::NotBic));
        }
        let country = &bic[4..6];
        if country != "XK" && CountryCode::parse(field, country).is_err() {
            return Err(Error::invalid(
                field,
                Code::BicCountry {
                    got: country.to_string(),
                },
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
    fn a_german_bank_code_and_account_number_make_an_iban() {
        // The Sparkasse sample's `:25:20752041/0291593375`.
        let iban = Iban::from_german("20752041", "0291593375").unwrap();
        assert_eq!(iban.as_str(), "DE95207520410291593375");
        assert_eq!(iban.german_parts(), Some(("20752041", "0291593375")));
        assert_eq!(
            Iban::from_german("37040044", "532013000").unwrap().as_str(),
            "DE89370400440532013000"
        );
        assert!(Iban::from_german("50880050", "0194774600888").is_none());
        assert!(Iban::from_german("5088005", "1").is_none());
        assert!(Iban::from_german("5088005X", "1").is_none());
        assert_eq!(
            Iban::parse("i", "NL91ABNA0417164300")
                .unwrap()
                .german_parts(),
            None
        );
    }

    #[test]
    fn an_account_is_recognised_in_each_spelling() {
        let iban = AccountId::read("DE95207520410291593375");
        let national = AccountId::read("20752041/0291593375");
        assert_eq!(
            national,
            AccountId::National {
                bank_code: "20752041".into(),
                number: "0291593375".into()
            }
        );
        assert!(iban.same_account(&national) && national.same_account(&iban));
        assert!(AccountId::read("20752041/291593375").same_account(&iban));
        assert!(!AccountId::read("20752041/291593376").same_account(&iban));
        assert_eq!(AccountId::read("DE95207520410291593375EUR"), iban);
        assert_eq!(AccountId::read("20752041/0291593375EUR"), national);
        assert_eq!(AccountId::read("20752041/0291593375 EUR"), national);
        assert_eq!(AccountId::read("DE95207520410291593375 EUR"), iban);
        assert_eq!(
            AccountId::read(" CH2801234000123456789 ").shown(),
            "CH28 0123 4000 1234 5678 9"
        );
        let long = AccountId::read("50880050/0194774600888");
        assert!(long.same_account(&AccountId::read("50880050/194774600888")));
        assert!(!long.same_account(&iban));
        assert_eq!(long.shown(), "50880050/0194774600888");
        assert_eq!(AccountId::read("ACC-1"), AccountId::Other("ACC-1".into()));
        assert!(AccountId::read("acc-1").same_account(&AccountId::read("ACC-1")));
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
