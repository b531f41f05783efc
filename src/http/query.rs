//! The query string of a request and percent-decoding: parameters by name,
//! booleans, and paging (`page` from 0, `size` 1–100, default 25,
//! out-of-range values bounded).

use crate::error::said::Request;
use crate::error::{Error, Result};
use crate::store::paging::Paging;

/// Decodes `%XX` escapes (and `+` as a space when `plus_is_space`).
/// Returns `None` when the result is not UTF-8 or an escape is broken.
pub fn percent_decode(text: &str, plus_is_space: bool) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = bytes.get(i + 1..i + 3)?;
                // Two hex digits exactly: from_str_radix alone would take "+1".
                if !hex.iter().all(u8::is_ascii_hexdigit) {
                    return None;
                }
                let hex = std::str::from_utf8(hex).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' if plus_is_space => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// The parameters of a query string, decoded.
#[derive(Debug, Default)]
pub struct Query {
    pairs: Vec<(String, String)>,
}

impl Query {
    /// Splits and decodes a raw query string (without `?`).
    ///
    /// Fails with `BadRequest` when a name or value is not decodable.
    pub fn parse(raw: &str) -> Result<Query> {
        let mut pairs = Vec::new();
        for part in raw.split('&').filter(|p| !p.is_empty()) {
            let (name, value) = part.split_once('=').unwrap_or((part, ""));
            let decode = |t: &str| {
                percent_decode(t, true).ok_or_else(|| Error::bad_request(Request::QueryEscape))
            };
            pairs.push((decode(name)?, decode(value)?));
        }
        Ok(Query { pairs })
    }

    /// A query of decoded pairs (a multipart form's fields).
    pub fn from_pairs(pairs: Vec<(String, String)>) -> Query {
        Query { pairs }
    }

    /// The first value of `name`; an empty value counts as absent.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.is_empty())
    }

    /// The first value of `name` as sent, an empty one included (a form's
    /// field left empty, which clears what it shows).
    pub fn sent(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Every non-empty value of `name`, in order (a form's checkboxes).
    pub fn all(&self, name: &str) -> Vec<&str> {
        self.pairs
            .iter()
            .filter(|(n, v)| n == name && !v.is_empty())
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// `true`/`false` (also `1`/`0`), absent is `None`.
    ///
    /// Fails with `BadRequest` naming the parameter for any other value.
    pub fn bool(&self, name: &str) -> Result<Option<bool>> {
        match self.get(name) {
            None => Ok(None),
            Some(v) => match v.to_ascii_lowercase().as_str() {
                "true" | "1" => Ok(Some(true)),
                "false" | "0" => Ok(Some(false)),
                _ => Err(Error::bad_request(Request::NotBool {
                    name: name.to_string(),
                })),
            },
        }
    }

    /// An integer, saturated to `i64` when it has too many digits; absent is `None`.
    ///
    /// Fails with `BadRequest` naming the parameter when it is not a whole number.
    fn int(&self, name: &str) -> Result<Option<i64>> {
        let Some(v) = self.get(name) else {
            return Ok(None);
        };
        let (negative, digits) = match v.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, v.strip_prefix('+').unwrap_or(v)),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(Error::bad_request(Request::NotWhole {
                name: name.to_string(),
            }));
        }
        let magnitude = digits.parse::<i64>().unwrap_or(i64::MAX);
        Ok(Some(if negative { -magnitude } else { magnitude }))
    }

    /// Whether the query names nothing but `page` and `size`.
    pub fn only_paging(&self) -> bool {
        self.pairs.iter().all(|(n, _)| n == "page" || n == "size")
    }

    /// The paging parameters, bounded.
    ///
    /// Fails with `BadRequest` when `page` or `size` is not a whole number.
    pub fn paging(&self) -> Result<Paging> {
        Ok(Paging::bounded(self.int("page")?, self.int("size")?))
    }
}

/// `text` as one part of a query or path: every byte but the unreserved
/// ones (`A-Z a-z 0-9 - _ . ~`) percent-encoded, so `percent_decode` gives
/// it back.
pub fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::paging::MAX_PAGE;

    #[test]
    fn what_is_encoded_decodes_back() {
        for text in [
            "Müller GmbH & Co. KG",
            "a+b=c/d?e#f",
            "RE2026/00001",
            "~-_.",
            "",
        ] {
            let encoded = percent_encode(text);
            assert!(encoded
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_.~%".contains(&b)));
            assert_eq!(percent_decode(&encoded, false).as_deref(), Some(text));
        }
        assert_eq!(percent_encode("a b"), "a%20b");
    }

    #[test]
    fn decodes_and_bounds() {
        let q = Query::parse("page=-3&size=1000&search=M%C3%BCller+GmbH").unwrap();
        let p = q.paging().unwrap();
        assert_eq!((p.page, p.size), (0, 100));
        assert_eq!(q.get("search"), Some("Müller GmbH"));
        let q = Query::parse("page=99999999999999999999999&size=0").unwrap();
        let p = q.paging().unwrap();
        assert_eq!((p.page, p.size), (MAX_PAGE, 1));
        assert!(Query::parse("page=abc").unwrap().paging().is_err());
        assert!(Query::parse("x=%zz").is_err());
        assert!(Query::parse("x=%+1").is_err());
        assert_eq!(percent_decode("%-1", false), None);
        assert_eq!(
            percent_decode("RE%2F2026%2F1", false).as_deref(),
            Some("RE/2026/1")
        );
    }
}
