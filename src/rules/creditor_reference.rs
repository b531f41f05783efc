//! The structured creditor reference of ISO 11649 (`RF` + two check digits +
//! up to 21 letters and digits), which a payer copies into a SEPA transfer
//! so the payee's bank statement names the invoice without a person reading
//! free text. kontor derives an invoice's reference from its number (its
//! letters and digits, upper case) and checks the references a statement
//! carries. The check digits are ISO 7064 mod 97-10, as an IBAN's, computed
//! digit by digit on small integers.

use crate::error::said::Code;
use crate::error::{Error, Result};
use crate::rules::stored_text::stored_text;

/// Most letters and digits the reference part may have (25 characters in all).
pub const MAX_REFERENCE: usize = 21;

/// A checked creditor reference: `RF`, two check digits, 1 to 21 letters and
/// digits, upper case, no spaces (`RF13RE202600023`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CreditorReference(String);

/// `text` rearranged as ISO 7064 wants it (the first four characters moved to
/// the end, letters replaced by 10 … 35), taken mod 97.
fn mod_97(text: &str) -> u32 {
    let (head, tail) = text.split_at(4);
    tail.bytes().chain(head.bytes()).fold(0u32, |r, b| match b {
        b'0'..=b'9' => (r * 10 + u32::from(b - b'0')) % 97,
        _ => (r * 100 + u32::from(b.to_ascii_uppercase() - b'A') + 10) % 97,
    })
}

impl CreditorReference {
    /// The reference of `number` (an invoice number): its letters and digits,
    /// upper case, behind `RF` and the check digits. `None` when the number
    /// has no letter or digit, or more than 21 of them (no ISO 11649
    /// reference can carry it; such an invoice is found by its number).
    pub fn of_number(number: &str) -> Option<CreditorReference> {
        let reference: String = number
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_uppercase())
            .collect();
        if reference.is_empty() || reference.len() > MAX_REFERENCE {
            return None;
        }
        let check = 98 - mod_97(&format!("RF00{reference}"));
        Some(CreditorReference(format!("RF{check:02}{reference}")))
    }

    /// Reads a reference as a payer or a bank writes it (spaces allowed, any
    /// case: `rf13 re20 2600 023`).
    ///
    /// Fails with `Invalid` naming `field` when it does not start with `RF`
    /// and two digits, holds other characters than letters and digits, is
    /// longer than 25 characters, or fails the check digits.
    pub fn parse(field: &str, text: &str) -> Result<CreditorReference> {
        let compact: String = text
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| c.to_ascii_uppercase())
            .collect();
        let shaped = compact.len() >= 5
            && compact.len() <= 4 + MAX_REFERENCE
            && compact.starts_with("RF")
            && compact.as_bytes()[2..4].iter().all(u8::is_ascii_digit)
            && compact.bytes().all(|b| b.is_ascii_alphanumeric());
        if !shaped {
            return Err(Error::invalid(field, Code::NotCreditorReference));
        }
        if mod_97(&compact) != 1 {
            return Err(Error::invalid(field, Code::CreditorReferenceCheck));
        }
        Ok(CreditorReference(compact))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The reference in groups of four, as printed for a person:
    /// `RF13 RE20 2600 023`.
    pub fn grouped(&self) -> String {
        crate::rules::text::in_fours(&self.0)
    }
}

stored_text!(CreditorReference, "an ISO 11649 creditor reference");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_invoice_number_gives_its_reference() {
        // The synthetic statement's entry 2 names this one for RE2026-00023.
        let rf = CreditorReference::of_number("RE2026-00023").unwrap();
        assert_eq!(rf.as_str(), "RF13RE202600023");
        assert_eq!(rf.grouped(), "RF13 RE20 2600 023");
        // The example of ISO 11649 itself.
        assert_eq!(
            CreditorReference::of_number("539007547034")
                .unwrap()
                .as_str(),
            "RF18539007547034"
        );
        assert_eq!(
            CreditorReference::of_number("re 2026/23").unwrap().as_str(),
            CreditorReference::of_number("RE202623").unwrap().as_str()
        );
        assert!(CreditorReference::of_number("--").is_none());
        assert!(CreditorReference::of_number(&"9".repeat(22)).is_none());
        let longest = CreditorReference::of_number(&"9".repeat(21)).unwrap();
        assert_eq!(longest.as_str().len(), 25);
        assert!(CreditorReference::parse("r", longest.as_str()).is_ok());
    }

    #[test]
    fn references_are_checked() {
        for made in ["RF18539007547034", "RF13RE202600023"] {
            assert_eq!(
                CreditorReference::parse("ref", made).unwrap().as_str(),
                made
            );
        }
        assert_eq!(
            CreditorReference::parse("ref", "rf18 5390 0754 7034")
                .unwrap()
                .as_str(),
            "RF18539007547034"
        );
        let sentence = |t: &str| CreditorReference::parse("ref", t).unwrap_err().sentence();
        assert_eq!(
            sentence("RF19539007547034"),
            "The field ref fails the creditor reference's check digits (mod 97); look for a mistyped character."
        );
        assert!(sentence("4654654654654654").contains("is not an ISO 11649"));
        assert!(CreditorReference::parse("ref", "RF18").is_err());
        assert!(CreditorReference::parse("ref", "RF1853900-7547034").is_err());
        assert!(CreditorReference::parse("ref", "RFAB539007547034").is_err());
        assert!(CreditorReference::parse("ref", &format!("RF00{}", "1".repeat(22))).is_err());
        // Every made reference reads back.
        for n in ["A", "Z9", "2026-000001", "INV-2026-123456789012"] {
            let rf = CreditorReference::of_number(n).unwrap();
            assert_eq!(
                CreditorReference::parse("ref", rf.as_str()).unwrap(),
                rf,
                "{n}"
            );
        }
    }
}
