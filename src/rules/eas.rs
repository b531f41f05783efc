//! Electronic addresses of e-invoices (EN 16931 BT-34 and BT-49): an
//! identifier under a scheme of the CEF Electronic Address Scheme (EAS) code
//! list, written `SCHEME:VALUE` (`0204:04011000-1234512345-06` a Leitweg-ID,
//! `9930:DE123456789` a German VAT id, `0088:4000001000005` a GLN,
//! `EM:rechnung@example.de` an e-mail address). The scheme must be on the
//! list (rule BR-CL-25 refuses a document otherwise); the value is checked
//! where its scheme has a rule kontor knows (an e-mail address's shape, a
//! GLN's check digit).

use crate::error::said::Code;
use crate::error::{Error, Result};
use crate::rules::text;

/// The codes of the CEF EAS code list, as the EN 16931 and XRechnung 3.0
/// rules check them (BR-CL-25), sorted, one a line (the list as published,
/// kept as data beside this file).
static EAS_CODES: text::CodeList = text::CodeList::new(include_str!("eas.txt"));

/// The longest value of an electronic address.
const MAX_VALUE: usize = 100;

/// Whether `code` is on the EAS code list.
pub fn is_scheme(code: &str) -> bool {
    EAS_CODES.contains(code)
}

/// Whether `digits` is a GS1 number (a GLN) whose last digit is its check
/// digit: weights 3 and 1 from the right, the sum rounded up to ten.
fn gs1_check_digit_ok(digits: &str) -> bool {
    let values: Vec<u32> = digits.bytes().map(|b| u32::from(b - b'0')).collect();
    let Some((check, body)) = values.split_last() else {
        return false;
    };
    let sum: u32 = body
        .iter()
        .rev()
        .enumerate()
        .map(|(i, d)| if i % 2 == 0 { d * 3 } else { *d })
        .sum();
    (10 - sum % 10) % 10 == *check
}

/// A checked electronic address: a scheme of the EAS list and its value.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ElectronicAddress {
    /// The EAS code (BT-34-1 / BT-49-1), such as `0204` or `EM`.
    pub scheme: String,
    /// The identifier under it (BT-34 / BT-49).
    pub value: String,
}

impl ElectronicAddress {
    /// Reads `SCHEME:VALUE` as a person writes it (the scheme in any case).
    ///
    /// Fails with `Invalid` naming `field` when there is no `:`, the scheme
    /// is not on the EAS code list, or the value is empty, longer than 100
    /// characters, holds white space or a control character, or breaks its
    /// scheme's rule (`EM`: an e-mail address; `0088`: 13 digits with the
    /// GS1 check digit).
    pub fn parse(field: &str, text: &str) -> Result<ElectronicAddress> {
        let Some((scheme, value)) = text.trim().split_once(':') else {
            return Err(Error::invalid(field, Code::NotElectronicAddress));
        };
        ElectronicAddress::new(field, scheme, value)
    }

    /// An electronic address from its scheme and value.
    ///
    /// Fails as `parse` does.
    pub fn new(field: &str, scheme: &str, value: &str) -> Result<ElectronicAddress> {
        let scheme = scheme.trim().to_ascii_uppercase();
        if !is_scheme(&scheme) {
            return Err(Error::invalid(field, Code::EasScheme { got: scheme }));
        }
        let value = text::required(field, Some(value), MAX_VALUE)?;
        if value.chars().any(char::is_whitespace) {
            return Err(Error::invalid(field, Code::WhiteSpace));
        }
        match scheme.as_str() {
            "EM" if !text::email_shaped(&value) => {
                Err(Error::invalid(field, Code::EmNotEmail { got: value }))
            }
            "0088"
                if !(value.len() == 13
                    && value.bytes().all(|b| b.is_ascii_digit())
                    && gs1_check_digit_ok(&value)) =>
            {
                Err(Error::invalid(field, Code::NotGln { got: value }))
            }
            _ => Ok(ElectronicAddress { scheme, value }),
        }
    }

    /// The address as a person writes it: `SCHEME:VALUE`.
    pub fn written(&self) -> String {
        format!("{}:{}", self.scheme, self.value)
    }
}

/// Stored as written (`SCHEME:VALUE`) and read back strictly: an address
/// that is not one is an error, never a default.
impl rusqlite::types::ToSql for ElectronicAddress {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        Ok(rusqlite::types::ToSqlOutput::from(self.written()))
    }
}

impl rusqlite::types::FromSql for ElectronicAddress {
    fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        let text = value.as_str()?;
        match ElectronicAddress::parse("stored", text) {
            Ok(address) if address.written() == text => Ok(address),
            _ => Err(rusqlite::types::FromSqlError::Other(
                format!("{text:?} is not an electronic address SCHEME:VALUE").into(),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_sorted_and_without_repeats() {
        let codes = EAS_CODES.codes();
        assert!(codes.windows(2).all(|w| w[0] < w[1]));
        assert!(is_scheme("0204") && is_scheme("9930") && is_scheme("EM"));
        assert!(!is_scheme("9999") && !is_scheme("0001") && !is_scheme("em"));
    }

    #[test]
    fn addresses_are_read_and_checked() {
        let a = ElectronicAddress::parse("a", "em:Rechnung@Example.de").unwrap();
        assert_eq!(
            (a.scheme.as_str(), a.value.as_str()),
            ("EM", "Rechnung@Example.de")
        );
        assert_eq!(a.written(), "EM:Rechnung@Example.de");
        let leitweg = ElectronicAddress::parse("a", "0204:04011000-1234512345-06").unwrap();
        assert_eq!(leitweg.value, "04011000-1234512345-06");
        assert!(ElectronicAddress::parse("a", "0088:4000001000005").is_ok());
        let sentence = |t: &str| ElectronicAddress::parse("a", t).unwrap_err().sentence();
        assert!(sentence("9999:x").contains("not on the EAS code list"));
        assert!(sentence("rechnung@example.de").contains("SCHEME:VALUE"));
        assert!(sentence("EM:nobody").contains("not an e-mail address"));
        assert!(sentence("0088:4000001000006").contains("check digit"));
        assert!(sentence("0204:").contains("missing"));
        assert!(sentence("0204:a b").contains("white space"));
    }
}
