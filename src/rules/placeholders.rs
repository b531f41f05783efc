//! Texts an owner writes with `{placeholders}` (a mail's subject and body,
//! a reminder's text): which names a text may use, the check when it is
//! saved (an unknown or unclosed placeholder names itself), and the filling
//! when it is used. `{{` and `}}` stand for a brace. Nothing is evaluated:
//! a value is put in as it is, and a value's own braces stay braces.

use crate::error::said::Code;
use crate::error::{Error, Result};

/// The pieces of a text: literal text and placeholder names.
#[derive(Debug, PartialEq, Eq)]
enum Piece<'a> {
    Text(&'a str),
    Brace(char),
    Name(&'a str),
}

fn pieces(text: &str) -> std::result::Result<Vec<Piece<'_>>, Code> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let next = rest.find(['{', '}']);
        let Some(at) = next else {
            out.push(Piece::Text(rest));
            break;
        };
        if at > 0 {
            out.push(Piece::Text(&rest[..at]));
        }
        let tail = &rest[at..];
        if let Some(after) = tail.strip_prefix("{{") {
            out.push(Piece::Brace('{'));
            rest = after;
        } else if let Some(after) = tail.strip_prefix("}}") {
            out.push(Piece::Brace('}'));
            rest = after;
        } else if tail.starts_with('}') {
            return Err(Code::LoneClose);
        } else {
            let Some(end) = tail.find('}') else {
                return Err(Code::Unclosed);
            };
            out.push(Piece::Name(&tail[1..end]));
            rest = &tail[end + 1..];
        }
    }
    Ok(out)
}

/// Checks that `text` uses only placeholders of `known`.
///
/// Fails with `Invalid` naming `field` and the first unknown or unclosed
/// placeholder, listing the known ones.
pub fn check(field: &str, text: &str, known: &[&str]) -> Result<()> {
    let parts = pieces(text).map_err(|problem| Error::invalid(field, problem))?;
    for piece in parts {
        if let Piece::Name(name) = piece {
            if !known.contains(&name) {
                return Err(Error::invalid(
                    field,
                    Code::UnknownPlaceholder {
                        got: name.to_string(),
                        known: known.iter().map(|k| format!("{{{k}}}")).collect(),
                    },
                ));
            }
        }
    }
    Ok(())
}

/// `text` with each placeholder replaced by its value in `values`; a
/// placeholder without a value (a text saved before it was checked) stays
/// as written.
pub fn fill(text: &str, values: &[(&str, String)]) -> String {
    let Ok(parts) = pieces(text) else {
        return text.to_string();
    };
    let mut out = String::with_capacity(text.len() + 64);
    for piece in parts {
        match piece {
            Piece::Text(t) => out.push_str(t),
            Piece::Brace(c) => out.push(c),
            Piece::Name(name) => match values.iter().find(|(k, _)| *k == name) {
                Some((_, v)) => out.push_str(v),
                None => {
                    out.push('{');
                    out.push_str(name);
                    out.push('}');
                }
            },
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_filled_and_braces_escaped() {
        let values = [
            ("number", "RE-1".to_string()),
            ("amount", "{x}".to_string()),
        ];
        assert_eq!(
            fill("Rechnung {number}: {amount} {{fest}} }}", &values),
            "Rechnung RE-1: {x} {fest} }"
        );
        assert_eq!(fill("{unknown} bleibt", &values), "{unknown} bleibt");
        assert_eq!(fill("", &values), "");
    }

    #[test]
    fn an_unknown_or_unclosed_placeholder_is_refused_naming_itself() {
        let known = ["number", "dueOn"];
        assert!(check("body", "Nr. {number} bis {dueOn} {{x}}", &known).is_ok());
        let e = check("body", "Nr. {numbr}", &known)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("{numbr}") && e.contains("{number}, {dueOn}"),
            "{e}"
        );
        let e = check("subject", "Nr. {number", &known)
            .unwrap_err()
            .to_string();
        assert!(e.contains("not closed"), "{e}");
        let e = check("subject", "a } b", &known).unwrap_err().to_string();
        assert!(e.contains("without its"), "{e}");
    }
}
