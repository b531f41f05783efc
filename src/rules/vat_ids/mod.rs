//! VAT ids: the 27 EU member states (Greece as EL) and Northern Ireland
//! (XI), Switzerland (CHE…MWST/TVA/IVA/TPV), the United Kingdom (GB) and
//! Norway (…MVA), each with its format and check digits. An id is judged by
//! the state of its own two-letter prefix, whatever the partner's address;
//! an id with a prefix of no state here is not checked. The rules, the
//! separators each state's ids may carry and the compact form are the ones
//! python-stdnum applies (its `compact`): upper case, the state's
//! separators (always the space; `-`, `.` and others where the state's
//! numbers are written with them) removed, an old Belgian 9-digit number
//! with its leading 0, a Greek 8-digit one with its leading 0, a Dutch
//! number's leading zeros filled in. The live registers (VIES, UID, …) are
//! not asked here (no network); that is `outbox::vat_register`'s.
//!
//! Here: the states' table, separators, the compact form (`normalise`,
//! `compact_by_prefix`), the sentences; `check_by_prefix` (what the books
//! ask) and `judge`, whose `Judged` the console's `vat-id check` prints.
//!
//! - `states.rs`: each state's number rule (format and check digits, a
//!   failure a `Fault`); never panics on any ASCII input.

mod states;

use states::Fault;

use crate::error::said::{Code, VatIdFault};
use crate::error::Said;
use crate::rules::countries;
use crate::rules::locale::Lang;

/// How a state's shortened numbers are filled out to the compact form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fill {
    /// Nothing is shortened.
    None,
    /// BE: "(0)" reads as 0, and a 9-digit number gains a leading 0.
    Belgium,
    /// EL: an 8-digit number gains a leading 0.
    Greece,
    /// NL: the number before "B…" is filled to 9 digits with zeros.
    Netherlands,
}

/// One state's VAT id rule.
struct Rule {
    /// The two letters every VAT id of the state starts with.
    prefix: &'static str,
    /// The state's adjective, for sentences ("the German check digit").
    adjective: &'static str,
    /// What the check is called in a sentence ("check digit", "key").
    check_name: Check,
    /// The format in words, for the refusal sentence, in English and in German.
    format: &'static str,
    format_de: &'static str,
    /// The characters removed from an id of the state.
    separators: &'static str,
    fill: Fill,
    /// Checks the compact id after its prefix (ASCII only).
    check: fn(&str) -> Result<(), Fault>,
}

/// Shorthand for the table below.
const fn rule(
    prefix: &'static str,
    adjective: &'static str,
    format: &'static str,
    format_de: &'static str,
    separators: &'static str,
    check: fn(&str) -> Result<(), Fault>,
) -> Rule {
    Rule {
        prefix,
        adjective,
        check_name: Check::Digit,
        format,
        format_de,
        separators,
        fill: Fill::None,
        check,
    }
}

impl Rule {
    const fn filled(mut self, fill: Fill) -> Rule {
        self.fill = fill;
        self
    }

    const fn called(mut self, check_name: Check) -> Rule {
        self.check_name = check_name;
        self
    }
}

/// What a state's check of its ids is called.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Check {
    Digit,
    Digits,
    Letter,
    ControlCharacter,
    Key,
}

impl Check {
    /// Its name in an English sentence ("fails the German check digit").
    fn english(self) -> &'static str {
        match self {
            Check::Digit => "check digit",
            Check::Digits => "check digits",
            Check::Letter => "check letter",
            Check::ControlCharacter => "control character",
            Check::Key => "key",
        }
    }

    /// What a German sentence says of it failing.
    fn fails_in_german(self) -> &'static str {
        match self {
            Check::Digit => "die Prüfziffer stimmt nicht",
            Check::Digits => "die Prüfziffern stimmen nicht",
            Check::Letter => "der Prüfbuchstabe stimmt nicht",
            Check::ControlCharacter => "das Kontrollzeichen stimmt nicht",
            Check::Key => "der Schlüssel stimmt nicht",
        }
    }
}

/// Every state whose VAT ids are checked, by prefix.
const RULES: [Rule; 31] = [
    rule(
        "AT",
        "Austrian",
        "ATU followed by 8 digits",
        "ATU gefolgt von 8 Ziffern",
        " -./",
        states::austria,
    ),
    rule(
        "BE",
        "Belgian",
        "BE followed by 10 digits starting 0 or 1 (an old number: 9 digits)",
        "BE gefolgt von 10 Ziffern, beginnend mit 0 oder 1 (eine alte Nummer: 9 Ziffern)",
        " -./",
        states::belgium,
    )
    .filled(Fill::Belgium)
    .called(Check::Digits),
    rule(
        "BG",
        "Bulgarian",
        "BG followed by 9 or 10 digits",
        "BG gefolgt von 9 oder 10 Ziffern",
        " -.",
        states::bulgaria,
    ),
    rule(
        "CY",
        "Cypriot",
        "CY followed by 8 digits, not starting 12, and a letter",
        "CY gefolgt von 8 Ziffern, nicht beginnend mit 12, und einem Buchstaben",
        " -",
        states::cyprus,
    )
    .called(Check::Letter),
    rule(
        "CZ",
        "Czech",
        "CZ followed by 8 digits not starting 9, 9 digits starting 6, \
         or a birth number of 9 or 10 digits",
        "CZ gefolgt von 8 Ziffern, nicht beginnend mit 9, von 9 Ziffern, beginnend mit 6, \
         oder einer Geburtsnummer aus 9 oder 10 Ziffern",
        " /",
        states::czechia,
    ),
    rule(
        "DE",
        "German",
        "DE followed by 9 digits, the first not 0",
        "DE gefolgt von 9 Ziffern, die erste nicht 0",
        " -./,",
        states::germany,
    ),
    rule(
        "DK",
        "Danish",
        "DK followed by 8 digits, the first not 0",
        "DK gefolgt von 8 Ziffern, die erste nicht 0",
        " -.,/:",
        states::denmark,
    ),
    rule(
        "EE",
        "Estonian",
        "EE followed by 9 digits",
        "EE gefolgt von 9 Ziffern",
        " ",
        states::estonia,
    ),
    rule(
        "EL",
        "Greek",
        "EL followed by 9 digits (or 8)",
        "EL gefolgt von 9 Ziffern (oder 8)",
        " -./:",
        states::greece,
    )
    .filled(Fill::Greece),
    rule(
        "ES",
        "Spanish",
        "ES followed by a DNI (8 digits and a letter), a NIE (X, Y or Z, 7 digits \
         and a letter), K, L or M with 7 digits and a letter, or a CIF (one of the \
         letters A to H, J, N, P to S, U to W, 7 digits and a digit or letter)",
        "ES gefolgt von einer DNI (8 Ziffern und ein Buchstabe), einer NIE (X, Y oder Z, \
         7 Ziffern und ein Buchstabe), K, L oder M mit 7 Ziffern und einem Buchstaben oder \
         einer CIF (einer der Buchstaben A bis H, J, N, P bis S, U bis W, 7 Ziffern und \
         eine Ziffer oder ein Buchstabe)",
        " -",
        states::spain,
    )
    .called(Check::ControlCharacter),
    rule(
        "FI",
        "Finnish",
        "FI followed by 8 digits",
        "FI gefolgt von 8 Ziffern",
        " -",
        states::finland,
    ),
    rule(
        "FR",
        "French",
        "FR followed by a 2-character key (digits and letters but I and O) \
         and the 9-digit SIREN",
        "FR gefolgt von einem Schlüssel aus 2 Zeichen (Ziffern und Buchstaben außer I und O) \
         und der 9-stelligen SIREN",
        " -.",
        states::france,
    )
    .called(Check::Key),
    rule(
        "HR",
        "Croatian",
        "HR followed by 11 digits",
        "HR gefolgt von 11 Ziffern",
        " -",
        states::croatia,
    ),
    rule(
        "HU",
        "Hungarian",
        "HU followed by 8 digits",
        "HU gefolgt von 8 Ziffern",
        " -",
        states::hungary,
    ),
    rule(
        "IE",
        "Irish",
        "IE followed by 7 digits and 1 or 2 letters, \
         or a digit, a letter, + or *, 5 digits and a letter",
        "IE gefolgt von 7 Ziffern und 1 oder 2 Buchstaben \
         oder von einer Ziffer, einem Buchstaben, + oder *, 5 Ziffern und einem Buchstaben",
        " -",
        states::ireland,
    )
    .called(Check::Letter),
    rule(
        "IT",
        "Italian",
        "IT followed by 11 digits, the 8th to 10th an office code \
         (001 to 100, 120, 121, 888 or 999)",
        "IT gefolgt von 11 Ziffern, die 8. bis 10. eine Amtskennziffer \
         (001 bis 100, 120, 121, 888 oder 999)",
        " -:",
        states::italy,
    ),
    rule(
        "LT",
        "Lithuanian",
        "LT followed by 9 digits with 1 as the 8th, or 12 digits with 1 as the 11th",
        "LT gefolgt von 9 Ziffern mit 1 an 8. Stelle oder 12 Ziffern mit 1 an 11. Stelle",
        " -",
        states::lithuania,
    ),
    rule(
        "LU",
        "Luxembourgish",
        "LU followed by 8 digits",
        "LU gefolgt von 8 Ziffern",
        " :.-",
        states::luxembourg,
    )
    .called(Check::Digits),
    rule(
        "LV",
        "Latvian",
        "LV followed by 11 digits (a person's starting with a birth date)",
        "LV gefolgt von 11 Ziffern (die einer Person beginnen mit dem Geburtsdatum)",
        " -",
        states::latvia,
    ),
    rule(
        "MT",
        "Maltese",
        "MT followed by 8 digits, the first not 0",
        "MT gefolgt von 8 Ziffern, die erste nicht 0",
        " -",
        states::malta,
    ),
    rule(
        "NL",
        "Dutch",
        "NL followed by 9 digits, B and 2 digits (not 00)",
        "NL gefolgt von 9 Ziffern, B und 2 Ziffern (nicht 00)",
        " -.",
        states::netherlands,
    )
    .filled(Fill::Netherlands),
    rule(
        "PL",
        "Polish",
        "PL followed by 10 digits",
        "PL gefolgt von 10 Ziffern",
        " -",
        states::poland,
    ),
    rule(
        "PT",
        "Portuguese",
        "PT followed by 9 digits, the first not 0",
        "PT gefolgt von 9 Ziffern, die erste nicht 0",
        " -.",
        states::portugal,
    ),
    rule(
        "RO",
        "Romanian",
        "RO followed by 2 to 10 digits, the first not 0, or a 13-digit CNP",
        "RO gefolgt von 2 bis 10 Ziffern, die erste nicht 0, oder einer 13-stelligen CNP",
        " -",
        states::romania,
    ),
    rule(
        "SE",
        "Swedish",
        "SE followed by 10 digits and 01",
        "SE gefolgt von 10 Ziffern und 01",
        " -.",
        states::sweden,
    ),
    rule(
        "SI",
        "Slovenian",
        "SI followed by 8 digits, the first not 0",
        "SI gefolgt von 8 Ziffern, die erste nicht 0",
        " -",
        states::slovenia,
    ),
    rule(
        "SK",
        "Slovak",
        "SK followed by 10 digits",
        "SK gefolgt von 10 Ziffern",
        " -",
        states::slovakia,
    ),
    rule(
        "XI",
        "Northern Irish",
        "XI followed by 9 or 12 digits, GD or HA and 3 digits, \
         or GD8888 or HA8888 and 5 digits",
        "XI gefolgt von 9 oder 12 Ziffern, von GD oder HA und 3 Ziffern \
         oder von GD8888 oder HA8888 und 5 Ziffern",
        " -.",
        states::united_kingdom,
    )
    .called(Check::Digits),
    rule(
        "GB",
        "British",
        "GB followed by 9 or 12 digits, GD or HA and 3 digits, \
         or GD8888 or HA8888 and 5 digits",
        "GB gefolgt von 9 oder 12 Ziffern, von GD oder HA und 3 Ziffern \
         oder von GD8888 oder HA8888 und 5 Ziffern",
        " -.",
        states::united_kingdom,
    )
    .called(Check::Digits),
    rule(
        "CH",
        "Swiss",
        "CHE followed by 9 digits and MWST, TVA, IVA or TPV",
        "CHE gefolgt von 9 Ziffern und MWST, TVA, IVA oder TPV",
        " -.",
        states::switzerland,
    ),
    rule(
        "NO",
        "Norwegian",
        "NO followed by 9 digits and MVA",
        "NO gefolgt von 9 Ziffern und MVA",
        " ",
        states::norway,
    ),
];

/// The rule of the state whose VAT ids start with `prefix`.
fn rule_of_prefix(prefix: &str) -> Option<&'static Rule> {
    RULES.iter().find(|rule| rule.prefix == prefix)
}

/// The rule of the VAT ids issued in `country` (an ISO code; GR's ids start
/// with EL; GB's with GB, though XI ids are GB's as well).
fn rule_of_country(country: &str) -> Option<&'static Rule> {
    match country {
        "GR" => rule_of_prefix("EL"),
        "EL" | "XI" => None,
        _ => rule_of_prefix(country),
    }
}

/// What a VAT id is, judged by its own prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Judged {
    /// The id passes its state's format and check digits; its compact form.
    Valid(String),
    /// The id fails its state's rule (or has GR for EL): its compact form
    /// and a sentence saying what is wrong.
    Invalid { compact: String, sentence: String },
    /// The prefix is no state's whose ids are checked here: the id as
    /// stored (upper case, no white space) and a sentence saying so.
    Unchecked { compact: String, sentence: String },
}

/// `text` trimmed and in upper case, as every rule first reads an id.
fn upper_trimmed(text: &str) -> String {
    text.trim().to_uppercase().trim().to_string()
}

/// The first two characters.
fn prefix_of(text: &str) -> String {
    text.chars().take(2).collect()
}

/// `text` with zeros before it up to `width` characters, after a sign.
fn zero_filled(text: &str, width: usize) -> String {
    let count = text.chars().count();
    if count >= width {
        return text.to_string();
    }
    let zeros = "0".repeat(width - count);
    match text.strip_prefix(['+', '-']) {
        Some(rest) => format!("{}{zeros}{rest}", &text[..1]),
        None => format!("{zeros}{text}"),
    }
}

/// The part after the prefix, with the state's shortened forms filled out.
fn filled(fill: Fill, number: &str) -> String {
    match fill {
        Fill::None => number.to_string(),
        Fill::Belgium => {
            let number = match number.strip_prefix("(0)") {
                Some(rest) => format!("0{rest}"),
                None => number.to_string(),
            };
            if number.chars().count() == 9 {
                format!("0{number}")
            } else {
                number
            }
        }
        Fill::Greece if number.chars().count() == 8 => format!("0{number}"),
        Fill::Greece => number.to_string(),
        Fill::Netherlands => {
            let count = number.chars().count();
            let split = number
                .char_indices()
                .nth(count.saturating_sub(3))
                .map_or(number.len(), |(i, _)| i);
            let (before, branch) = number.split_at(split);
            format!("{}{branch}", zero_filled(before.trim(), 9))
        }
    }
}

/// The compact form of an id (already upper case and trimmed) under `rule`.
fn compact_under(rule: &Rule, upper: &str) -> String {
    let cleaned: String = upper
        .chars()
        .filter(|c| !rule.separators.contains(*c))
        .collect();
    let cleaned = cleaned.trim();
    let number = cleaned.strip_prefix(rule.prefix).unwrap_or(cleaned);
    format!("{}{}", rule.prefix, filled(rule.fill, number))
}

/// Judges a VAT id as a person typed it by the state of its own prefix.
///
/// Valid with the compact form when it passes the state's format and check
/// digits; Invalid with a sentence (e.g. "The VAT id DE136695975 fails the
/// German check digit.") when not, or when it starts GR (Greek ids start
/// EL); Unchecked when its first two characters are no prefix known here.
pub fn judge(text: &str) -> Judged {
    match judged(text) {
        Ok(compact) => Judged::Valid(compact),
        Err(refusal) if refusal.fault == VatIdFault::Unchecked => Judged::Unchecked {
            sentence: refusal.english(),
            compact: refusal.compact,
        },
        Err(refusal) => Judged::Invalid {
            sentence: refusal.english(),
            compact: refusal.compact,
        },
    }
}

/// An id's compact form, or why it fails (`Unchecked` for a prefix of no
/// state here).
fn judged(text: &str) -> Result<String, Refusal> {
    let upper = upper_trimmed(text);
    let prefix = prefix_of(&upper);
    let Some(rule) = rule_of_prefix(&prefix) else {
        let compact = without_white_space(&upper);
        let (prefix, fault) = if prefix == "GR" {
            ("EL", VatIdFault::GreekPrefix)
        } else {
            ("", VatIdFault::Unchecked)
        };
        return Err(Refusal {
            compact,
            prefix,
            fault,
        });
    };
    let compact = compact_under(rule, &upper);
    let number = compact.get(rule.prefix.len()..).unwrap_or("");
    let fault = if number.is_ascii() {
        (rule.check)(number)
    } else {
        Err(Fault::Format)
    };
    match fault {
        Ok(()) => Ok(compact),
        Err(fault) => Err(Refusal {
            compact,
            prefix: rule.prefix,
            fault: match fault {
                Fault::Format => VatIdFault::Format,
                Fault::CheckDigit => VatIdFault::CheckDigit,
            },
        }),
    }
}

/// Why a VAT id is refused: its compact form, the prefix of the state
/// whose rule it fails (EL for a Greek id written GR; none when no state's
/// rule applies), and how. A refusal of the books (`Code::VatId`), worded
/// by `sentence` in English and German.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub compact: String,
    pub prefix: &'static str,
    pub fault: VatIdFault,
}

impl Refusal {
    /// The refusal in English, as the console prints it.
    pub fn english(&self) -> String {
        sentence(&self.compact, self.prefix, self.fault, Lang::En)
    }
}

impl From<Refusal> for Said {
    fn from(r: Refusal) -> Said {
        Code::VatId {
            compact: r.compact,
            prefix: r.prefix.to_string(),
            fault: r.fault,
        }
        .into()
    }
}

/// What is wrong with the VAT id `compact` under the rule of `prefix`, in
/// `lang`: the state's format, its check, the prefix it lacks, GR for EL,
/// or a prefix of no state here.
pub fn sentence(compact: &str, prefix: &str, fault: VatIdFault, lang: Lang) -> String {
    let rule = rule_of_prefix(prefix);
    // A state by its name in German ("für Deutschland"); EL is Greece's.
    let state =
        |prefix: &'static str| countries::name(if prefix == "EL" { "GR" } else { prefix }, lang);
    match (fault, rule, lang) {
        (VatIdFault::GreekPrefix, _, Lang::En) => {
            format!("The VAT id {compact} starts with GR, but Greek VAT ids start with EL.")
        }
        (VatIdFault::GreekPrefix, _, Lang::De) => format!(
            "Die USt-IdNr. {compact} beginnt mit GR, griechische USt-IdNrn. beginnen aber mit EL."
        ),
        (VatIdFault::Format, Some(rule), Lang::En) => format!(
            "The VAT id {compact} is not in the {} format: {}.",
            rule.adjective, rule.format
        ),
        (VatIdFault::Format, Some(rule), Lang::De) => format!(
            "Die USt-IdNr. {compact} hat nicht das Format für {}: {}.",
            state(rule.prefix),
            rule.format_de
        ),
        (VatIdFault::CheckDigit, Some(rule), Lang::En) => format!(
            "The VAT id {compact} fails the {} {}.",
            rule.adjective,
            rule.check_name.english()
        ),
        (VatIdFault::CheckDigit, Some(rule), Lang::De) => format!(
            "Die USt-IdNr. {compact} ist keine gültige Nummer für {}: {}.",
            state(rule.prefix),
            rule.check_name.fails_in_german()
        ),
        (VatIdFault::NotPrefixed, Some(rule), Lang::En) => format!(
            "The VAT id {compact} does not start with {}, the prefix of {} VAT ids.",
            rule.prefix, rule.adjective
        ),
        (VatIdFault::NotPrefixed, Some(rule), Lang::De) => format!(
            "Die USt-IdNr. {compact} beginnt nicht mit {}, dem Präfix der USt-IdNrn. für {}.",
            rule.prefix,
            state(rule.prefix)
        ),
        (_, _, Lang::En) => format!(
            "The VAT id {compact} does not start with the prefix of a state whose \
             VAT ids kontor checks (the EU's, XI, CH, GB and NO)."
        ),
        (_, _, Lang::De) => format!(
            "Die USt-IdNr. {compact} beginnt nicht mit dem Präfix eines Staates, dessen \
             USt-IdNrn. kontor prüft (die der EU, XI, CH, GB und NO)."
        ),
    }
}

/// Upper case without white space.
fn without_white_space(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// A VAT id as stored: its compact form by the state of its prefix (see
/// the module), or, for a prefix of no state here, upper case without
/// white space. Never fails; checking is `check_by_prefix`'s.
pub fn normalise(text: &str) -> String {
    match judged(text) {
        Ok(compact) => compact,
        Err(refusal) => refusal.compact,
    }
}

/// Checks a VAT id (as typed or stored) of a partner in `country` by the
/// state of its own prefix (an Austrian id of a German customer is an
/// Austrian id). An id that starts with no two letters is judged as one of
/// `country`, which must then have no VAT id rule here.
///
/// Fails with the refusal `judge` words, or when an id of a partner in a
/// state with a rule lacks the state's prefix.
pub fn check_by_prefix(country: &str, vat_id: &str) -> Result<(), Refusal> {
    compact_by_prefix(country, vat_id).map(drop)
}

/// As `check_by_prefix`, and gives the id's compact form, the one to store.
///
/// Fails as `check_by_prefix` does.
pub fn compact_by_prefix(country: &str, vat_id: &str) -> Result<String, Refusal> {
    let upper = upper_trimmed(vat_id);
    let lettered = upper.len() >= 2 && upper.bytes().take(2).all(|b| b.is_ascii_uppercase());
    if !lettered {
        if let Some(rule) = rule_of_country(country) {
            return Err(Refusal {
                compact: normalise(vat_id),
                prefix: rule.prefix,
                fault: VatIdFault::NotPrefixed,
            });
        }
    }
    match judged(vat_id) {
        Ok(compact) => Ok(compact),
        Err(refusal) if refusal.fault == VatIdFault::Unchecked => Ok(refusal.compact),
        Err(refusal) => Err(refusal),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Per state: a valid id as typed, its compact form, and an id that
    /// fails the state's check (the examples python-stdnum documents).
    const KNOWN: &[(&str, &str, &str)] = &[
        ("AT U13585627", "ATU13585627", "ATU13585626"),
        ("BE 428759497", "BE0428759497", "BE0428759498"),
        ("BG 175 074 752", "BG175074752", "BG175074751"),
        ("CY-10259033P ", "CY10259033P", "CY10259033Z"),
        ("CZ 25123891", "CZ25123891", "CZ25123890"),
        ("DE 136,695 976", "DE136695976", "DE136695978"),
        ("DK 13585628", "DK13585628", "DK13585627"),
        ("EE 100 931 558", "EE100931558", "EE100594103"),
        ("EL 094259216 ", "EL094259216", "EL123456781"),
        ("ES B-58378431", "ESB58378431", "ESB64717839"),
        ("FI 20774740", "FI20774740", "FI20774741"),
        ("Fr 40 303 265 045", "FR40303265045", "FR41303265045"),
        ("HR 33392005961", "HR33392005961", "HR33392005962"),
        ("HU-12892312", "HU12892312", "HU12892313"),
        ("IE 6433435OA", "IE6433435OA", "IE6433435E"),
        ("IT 00743110157", "IT00743110157", "IT00743110158"),
        ("LT 100001919017", "LT100001919017", "LT100001919018"),
        ("LU 150 274 42", "LU15027442", "LU15027443"),
        ("LV 4000 3521 600", "LV40003521600", "LV40003521601"),
        ("MT 1167-9112", "MT11679112", "MT11679113"),
        ("NL 0044.95.445 B01", "NL004495445B01", "NL004495446B01"),
        ("PL 8567346215", "PL8567346215", "PL8567346216"),
        ("PT 501 964 843", "PT501964843", "PT501964842"),
        ("RO 185 472 90", "RO18547290", "RO18547291"),
        ("SE 123456789701", "SE123456789701", "SE123456789101"),
        ("SI 5022 3054", "SI50223054", "SI50223055"),
        ("SK 202 274 96 19", "SK2022749619", "SK2022749618"),
        ("XI 980 7806 84", "XI980780684", "XI802311781"),
        ("GB 980 7806 84", "GB980780684", "GB802311781"),
        ("CHE-107.787.577 IVA", "CHE107787577IVA", "CHE107787578IVA"),
        ("NO 995 525 828 MVA", "NO995525828MVA", "NO995525829MVA"),
    ];

    #[test]
    fn every_state_has_a_known_valid_and_a_known_invalid_id() {
        assert_eq!(KNOWN.len(), RULES.len());
        for (rule, &(typed, compact, invalid)) in RULES.iter().zip(KNOWN) {
            assert!(compact.starts_with(rule.prefix), "{compact}");
            assert_eq!(judge(typed), Judged::Valid(compact.to_string()), "{typed}");
            assert_eq!(normalise(typed), compact);
            assert_eq!(check_by_prefix("DE", typed), Ok(()), "{typed}");
            assert_eq!(compact_by_prefix("US", typed), Ok(compact.to_string()));
            assert_eq!(
                judge(invalid),
                Judged::Invalid {
                    compact: invalid.to_string(),
                    sentence: format!(
                        "The VAT id {invalid} fails the {} {}.",
                        rule.adjective,
                        rule.check_name.english()
                    ),
                },
                "{invalid}"
            );
        }
    }

    #[test]
    fn the_forms_each_state_accepts() {
        let forms = [
            // Old 9-digit Belgian numbers gain their leading 0; "(0)" reads as 0.
            ("BE403019261", "BE0403019261"),
            ("BE (0)403.019.261", "BE0403019261"),
            // Bulgarian 10-digit ids: an EGN and a PNF.
            ("BG7523169263", "BG7523169263"),
            // Czech: a birth number (10 digits) and the special 9-digit form.
            ("CZ 7103192745", "CZ7103192745"),
            ("CZ640903926", "CZ640903926"),
            // Greek 8-digit ids gain their leading 0.
            ("EL 94259216", "EL094259216"),
            // Spanish DNI, NIE, K/L/M ids and a CIF with its control letter.
            ("ES54362315K", "ES54362315K"),
            ("ES X-5253868-R", "ESX5253868R"),
            ("ESM-1234567-L", "ESM1234567L"),
            ("ESQ2801586E", "ESQ2801586E"),
            // French keys with letters.
            ("FR K7399859412", "FRK7399859412"),
            ("FR4Z123456782", "FR4Z123456782"),
            // The key may be FR itself; the prefix is not dropped twice.
            ("FRFR812821932", "FRFR812821932"),
            // Irish old style and pre-2013 style.
            ("IE8D79739I", "IE8D79739I"),
            ("IE 6433435F", "IE6433435F"),
            // Lithuanian 9 digits, and the second step of the check.
            ("LT119511515", "LT119511515"),
            ("LT100004801610", "LT100004801610"),
            // Latvian personal codes, old and new.
            ("LV161175-19997", "LV16117519997"),
            ("LV328673-00679", "LV32867300679"),
            // Dutch: leading zeros filled, and a sole trader's btw-id.
            ("NL4495445B01", "NL004495445B01"),
            ("NL002455799B11", "NL002455799B11"),
            // Romanian CNP.
            ("RO1630615123457", "RO1630615123457"),
            // British branch, government department and health authority.
            ("GB 980 7806 84 001", "GB980780684001"),
            ("GBGD001", "GBGD001"),
            ("GBHA500", "GBHA500"),
            ("XI GD8888 001 01", "XIGD888800101"),
            // Swiss UID in each language.
            ("CHE-107.787.577 MWST", "CHE107787577MWST"),
            ("che 107787577 tva", "CHE107787577TVA"),
        ];
        for (typed, compact) in forms {
            assert_eq!(judge(typed), Judged::Valid(compact.to_string()), "{typed}");
        }
    }

    #[test]
    fn a_state_takes_only_its_own_separators() {
        // Estonian ids are written with spaces only, Czech with spaces and
        // slashes, German with , . - / and spaces.
        assert_eq!(judge("EE 100 931 558"), Judged::Valid("EE100931558".into()));
        assert!(matches!(judge("EE-100931558"), Judged::Invalid { .. }));
        assert!(matches!(judge("CZ-25123891"), Judged::Invalid { .. }));
        assert_eq!(judge("DE-136.695/976"), Judged::Valid("DE136695976".into()));
        assert_eq!(
            judge("EE-100931558"),
            Judged::Invalid {
                compact: "EE-100931558".into(),
                sentence: "The VAT id EE-100931558 is not in the Estonian format: \
                           EE followed by 9 digits."
                    .into(),
            }
        );
    }

    #[test]
    fn format_errors_are_refused_with_the_format() {
        let cases = [
            "DE13669597",
            "DE1366959761",
            "DE13669597X",
            "DE036695976",
            "DE",
            "AT13585627",
            "ATU1358562",
            "FRO0303265045",
            "FR4030326504",
            "ESI28015865",
            "ES1234567Z",
            "NL004495445X01",
            "NL004495445B00",
            "BE2411905847",
            "SE556188840402",
            "BG12345678",
            "CY102590331",
            "CY12000000A",
            "CZ1234567",
            "CZ91234567",
            "IE643343F",
            "IE6433435FAB",
            "IT00743111017",
            "LT1195115150",
            "LT119511525",
            "LV16137519997",
            "RO1",
            "RO12345678901",
            "RO0185472",
            "SK0022749619",
            "GBGD500",
            "GBHA499",
            "CHE107787577",
            "CHE107787577VAT",
            "NO995525828",
            "DE136695976É",
        ];
        for id in cases {
            let verdict = judge(id);
            assert!(
                matches!(&verdict, Judged::Invalid { sentence, .. } if sentence.contains("is not in the")),
                "{id}: {verdict:?}"
            );
        }
        assert_eq!(
            check_by_prefix("DE", "DE13669597").map_err(|r| r.english()),
            Err("The VAT id DE13669597 is not in the German format: \
                 DE followed by 9 digits, the first not 0."
                .to_string())
        );
    }

    #[test]
    fn an_id_is_judged_by_its_own_prefix() {
        // An Austrian id of a German partner is an Austrian id.
        assert_eq!(check_by_prefix("DE", "ATU13585627"), Ok(()));
        assert_eq!(check_by_prefix("US", "DE136695976"), Ok(()));
        assert_eq!(
            check_by_prefix("US", "DE136695975").map_err(|r| r.english()),
            Err("The VAT id DE136695975 fails the German check digit.".to_string())
        );
        assert_eq!(check_by_prefix("GB", "XI980780684"), Ok(()));
        assert_eq!(check_by_prefix("DE", "CHE-107.787.577 MWST"), Ok(()));
        assert!(check_by_prefix("DE", "CHE123456789").is_err());
        // Greek ids start with EL.
        assert_eq!(
            check_by_prefix("GR", "GR094259216").map_err(|r| r.english()),
            Err(
                "The VAT id GR094259216 starts with GR, but Greek VAT ids start with EL."
                    .to_string()
            )
        );
        // No prefix: the partner's country decides.
        assert_eq!(
            check_by_prefix("DE", "136695976").map_err(|r| r.english()),
            Err(
                "The VAT id 136695976 does not start with DE, the prefix of German VAT ids."
                    .to_string()
            )
        );
        assert_eq!(check_by_prefix("US", "12-3456789"), Ok(()));
        // A prefix of no state checked here is not checked.
        assert_eq!(
            compact_by_prefix("DE", "us 12 345"),
            Ok("US12345".to_string())
        );
        assert!(matches!(judge("US12345"), Judged::Unchecked { .. }));
    }

    #[test]
    fn an_id_of_a_country_must_carry_its_prefix() {
        // A partner's own id, as typed, passes in its compact form.
        assert_eq!(check_by_prefix("AT", "atu 1358 5627"), Ok(()));
        assert_eq!(
            compact_by_prefix("AT", "atu 1358 5627"),
            Ok("ATU13585627".to_string())
        );
        assert_eq!(check_by_prefix("GR", "EL094259216"), Ok(()));
        assert_eq!(check_by_prefix("GB", "XI980780684"), Ok(()));
        // An id without a prefix, of a partner in a state with a rule, must
        // carry that state's prefix: EL for a Greek partner.
        assert_eq!(
            check_by_prefix("AT", "1358 5627").map_err(|r| r.english()),
            Err(
                "The VAT id 13585627 does not start with AT, the prefix of Austrian VAT ids."
                    .to_string()
            )
        );
        assert_eq!(
            check_by_prefix("GR", "094259216").map_err(|r| r.english()),
            Err(
                "The VAT id 094259216 does not start with EL, the prefix of Greek VAT ids."
                    .to_string()
            )
        );
        // An id with another state's prefix is that state's id.
        assert_eq!(check_by_prefix("AT", "DE136695976"), Ok(()));
        assert_eq!(
            check_by_prefix("DE", "DE136695975").map_err(|r| r.english()),
            Err("The VAT id DE136695975 fails the German check digit.".to_string())
        );
        // A partner in a country without a rule here (EL and XI are
        // prefixes, not countries) needs no prefix; an id with a prefix is
        // still judged by it.
        for country in ["US", "EL", "XI", "JP", ""] {
            for id in ["", "anything", "12-3456789"] {
                assert_eq!(check_by_prefix(country, id), Ok(()), "{country} {id}");
            }
            assert_eq!(
                check_by_prefix(country, "DE136695975").map_err(|r| r.english()),
                Err("The VAT id DE136695975 fails the German check digit.".to_string()),
                "{country}"
            );
            assert_eq!(
                check_by_prefix(country, "CHE-123.456.789 MWST").map_err(|r| r.english()),
                Err("The VAT id CHE123456789MWST fails the Swiss check digit.".to_string()),
                "{country}"
            );
        }
    }

    #[test]
    fn a_refusal_is_worded_in_german_too() {
        let german = |country: &str, id: &str| {
            let r = check_by_prefix(country, id).unwrap_err();
            sentence(&r.compact, r.prefix, r.fault, Lang::De)
        };
        assert_eq!(
            german("DE", "136695976"),
            "Die USt-IdNr. 136695976 beginnt nicht mit DE, dem Präfix der USt-IdNrn. für Deutschland."
        );
        assert_eq!(
            german("GR", "094259216"),
            "Die USt-IdNr. 094259216 beginnt nicht mit EL, dem Präfix der USt-IdNrn. für Griechenland."
        );
        assert_eq!(
            german("DE", "GR094259216"),
            "Die USt-IdNr. GR094259216 beginnt mit GR, griechische USt-IdNrn. beginnen aber mit EL."
        );
        assert_eq!(
            german("DE", "BE0428759498"),
            "Die USt-IdNr. BE0428759498 ist keine gültige Nummer für Belgien: die Prüfziffern stimmen nicht."
        );
        assert_eq!(
            german("DE", "ESB64717839"),
            "Die USt-IdNr. ESB64717839 ist keine gültige Nummer für Spanien: das Kontrollzeichen stimmt nicht."
        );
        // Every state has its format in German and a name a German reads.
        for rule in &RULES {
            assert!(rule.format_de.contains("gefolgt von"), "{}", rule.prefix);
            let state = if rule.prefix == "EL" {
                "GR"
            } else {
                rule.prefix
            };
            assert_ne!(countries::name(state, Lang::De), state, "{}", rule.prefix);
        }
    }

    #[test]
    fn normalising_twice_changes_nothing() {
        for (typed, _, invalid) in KNOWN {
            for id in [
                *typed,
                *invalid,
                "BE (0)403.019.261",
                "nl 1B01",
                "nl +1B01",
                "x",
            ] {
                let once = normalise(id);
                assert_eq!(normalise(&once), once, "{id}");
            }
        }
        assert_eq!(normalise("nl 1B01"), "NL000000001B01");
        assert_eq!(normalise("  us 12\t345 "), "US12345");
    }

    #[test]
    fn odd_input_never_panics() {
        let tails = [
            "",
            "B",
            "U",
            "E",
            "0",
            "(0)",
            "9999999999999999999999999",
            "ÄÖÜ",
            "१२३४५६७८९",
            "B01",
            "BB",
            "+*",
            "99999999999",
            "ZZZZZZZZZ",
            "U12345678é",
            "X",
            "é1234567",
            "1A2345",
            "GD",
            "GD8888",
            "HA8888ZZZZZ",
            "E12345678",
            "MVA",
            "1234567890123",
            "9999999999999",
        ];
        for rule in &RULES {
            // The partner's country: GR for EL ids, GB for XI ids.
            let country = match rule.prefix {
                "EL" => "GR",
                "XI" => "GB",
                prefix => prefix,
            };
            for tail in tails {
                let _ = judge(&format!("{}{tail}", rule.prefix));
                let _ = check_by_prefix(country, tail);
            }
        }
        for text in ["", " ", "é", "ÉL", "\u{0}", "E", "ß1234"] {
            let _ = judge(text);
            let _ = normalise(text);
        }
    }
}
