//! Text a person or a program gives a field: at most so many characters and
//! no control characters but line feeds and tabs, as sent; then trimmed. A field left
//! out is absent; a field given blank is refused (for a required field it is
//! missing), so "nothing" is never stored as an empty string by accident.
//! Also the shape of an e-mail address, which several fields share, and a
//! field's camelCase name spelled as a surface spells it; and a code list
//! kept as data (`CodeList`), one code a line.

use crate::error::said::Input;
use crate::error::{Error, Result};

/// A published code list kept as data beside its rule: one code a line,
/// sorted (each list's test checks it), split once on first use and then
/// looked up by binary search.
pub struct CodeList {
    text: &'static str,
    codes: std::sync::OnceLock<Vec<&'static str>>,
}

impl CodeList {
    pub const fn new(text: &'static str) -> CodeList {
        CodeList {
            text,
            codes: std::sync::OnceLock::new(),
        }
    }

    /// Every code, in the list's order.
    pub fn codes(&self) -> &[&'static str] {
        self.codes.get_or_init(|| self.text.lines().collect())
    }

    /// Whether `code` (exactly as written) is on the list.
    pub fn contains(&self, code: &str) -> bool {
        self.codes().binary_search(&code).is_ok()
    }
}

/// Checks an optional text field: absent stays absent.
///
/// Fails with `Invalid` naming `field` when the text is blank, longer than
/// `max` characters or holds a control character.
pub fn optional(field: &str, value: Option<&str>, max: usize) -> Result<Option<String>> {
    let Some(value) = value else {
        return Ok(None);
    };
    // Length and characters are those sent: white space around the text
    // counts, and a control character is refused wherever it stands.
    let trimmed = value.trim();
    if trimmed.is_empty() && !has_control(value) {
        Err(Error::invalid(field, Input::Empty))
    } else if value.chars().count() > max {
        Err(Error::invalid(field, Input::TooLong { max }))
    } else if has_control(value) {
        Err(Error::invalid(field, Input::ControlCharacter))
    } else {
        Ok(Some(trimmed.to_string()))
    }
}

/// Whether `text` holds a control character other than a line feed or a tab.
fn has_control(text: &str) -> bool {
    text.chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
}

/// Checks a required text field.
///
/// Fails with `Invalid` naming `field` when it is absent or blank ("is
/// missing"), longer than `max` characters or holds a control character.
pub fn required(field: &str, value: Option<&str>, max: usize) -> Result<String> {
    match value.map(str::trim) {
        None | Some("") => Err(Error::invalid(field, Input::Missing)),
        Some(_) => optional(field, value, max).map(|v| v.unwrap_or_default()),
    }
}

/// Whether `email` has the shape of an address: one `@`, a local part, and a
/// domain with a dot inside, no white space, at most 254 characters.
pub fn email_shaped(email: &str) -> bool {
    let Some((local, domain)) = email.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !domain.contains('@')
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains("..")
        && !email.chars().any(char::is_whitespace)
        && email.len() <= 254
}

/// `name` (camelCase, as the books name a field) with each capital letter
/// lowered and preceded by `separator`: `postalCode` is `postal-code` with
/// `'-'` (a console option) and `postal_code` with `'_'` (an agent tool's
/// argument).
pub fn camel_to(name: &str, separator: char) -> String {
    let mut spelled = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            spelled.push(separator);
            spelled.push(c.to_ascii_lowercase());
        } else {
            spelled.push(c);
        }
    }
    spelled
}

/// A field of a partial update: left out, sent as null (clear it), or sent with a value.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Patch<T> {
    #[default]
    Absent,
    Null,
    Value(T),
}

impl Patch<String> {
    /// The patch with its value read by `read`; left out and null stay so.
    ///
    /// Fails as `read` fails.
    pub fn read<T>(&self, read: impl FnOnce(&str) -> Result<T>) -> Result<Patch<T>> {
        Ok(match self {
            Patch::Absent => Patch::Absent,
            Patch::Null => Patch::Null,
            Patch::Value(text) => Patch::Value(read(text)?),
        })
    }

    /// The patch of an optional text field: its value checked as `optional` does.
    ///
    /// Fails as `optional` fails for a given value.
    pub fn text(&self, field: &str, max: usize) -> Result<Patch<String>> {
        self.read(|t| optional(field, Some(t), max).map(Option::unwrap_or_default))
    }
}

impl<T> Patch<T> {
    /// Applies the patch to a stored optional value: left out keeps it, null
    /// clears it, a value replaces it.
    pub fn apply(self, current: &mut Option<T>) {
        match self {
            Patch::Absent => {}
            Patch::Null => *current = None,
            Patch::Value(value) => *current = Some(value),
        }
    }

    /// Whether the patch changes anything.
    pub fn is_absent(&self) -> bool {
        matches!(self, Patch::Absent)
    }
}

/// `text` without its white space, in groups of four characters as a
/// person reads an IBAN or a creditor reference: `DE89 3704 0044 0532 0130
/// 00`, `RF13 RE20 2600 023`. The one grouping of such identifiers (the
/// screens, the sentences, the PDF).
pub fn in_fours(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    for (i, c) in text.chars().filter(|c| !c.is_whitespace()).enumerate() {
        if i > 0 && i % 4 == 0 {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_grouped_in_fours_whatever_their_spaces() {
        assert_eq!(
            in_fours("DE89370400440532013000"),
            "DE89 3704 0044 0532 0130 00"
        );
        assert_eq!(in_fours("RF13 RE20 2600023"), "RF13 RE20 2600 023");
        assert_eq!(in_fours(""), "");
        assert_eq!(in_fours("ABCD"), "ABCD");
    }

    #[test]
    fn text_is_trimmed_bounded_and_printable() {
        assert_eq!(optional("f", None, 5).unwrap(), None);
        assert_eq!(
            optional("f", Some(" ab "), 5).unwrap().as_deref(),
            Some("ab")
        );
        assert!(optional("f", Some("  "), 5).is_err());
        assert!(optional("f", Some("abcdef"), 5).is_err());
        assert!(optional("f", Some("a\u{7}b"), 5).is_err());
        // As sent: surrounding white space counts, and so does a control
        // character that trimming would have removed.
        assert!(optional("f", Some("abcde "), 5).is_err());
        assert!(optional("f", Some("\rab"), 5).is_err());
        assert!(optional("f", Some("ab\u{85}"), 5).is_err());
        assert_eq!(
            optional("f", Some("\r"), 5).unwrap_err().sentence(),
            "The field f contains a control character."
        );
        assert_eq!(
            optional("f", Some("a\nb"), 5).unwrap().as_deref(),
            Some("a\nb")
        );
        assert_eq!(
            required("f", Some(" "), 5).unwrap_err().sentence(),
            "The field f is missing."
        );
        assert_eq!(required("f", Some("x"), 5).unwrap(), "x");
    }

    #[test]
    fn camel_case_names_are_spelled_with_a_separator() {
        assert_eq!(camel_to("postalCode", '-'), "postal-code");
        assert_eq!(camel_to("unitPriceMinor", '_'), "unit_price_minor");
        assert_eq!(camel_to("asOf", '-'), "as-of");
        assert_eq!(camel_to("city", '_'), "city");
        assert_eq!(camel_to("", '-'), "");
    }
}
