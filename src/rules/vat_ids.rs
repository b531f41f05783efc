//! EU VAT ids: each member state's prefix, format and, for twenty of them,
//! check digit. A partner outside the EU is not checked. The live EU
//! register is not asked (no network).

/// A VAT id as stored and checked: upper case, without white space.
pub fn normalise(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_uppercase()
}

/// Checks a VAT id (already normalised: upper case, no spaces) of a partner in `country`.
///
/// Ok(()) for countries outside the EU (no rule known, nothing checked).
/// For an EU member state the id must start with that state's VAT prefix (the
/// ISO code, except Greece GR → "EL"), then match the state's format, and pass
/// its check digit where the state has one.
///
/// Fails, with a sentence for a person naming what is wrong, when the prefix
/// is not the state's, when the rest is not in the state's format, or when the
/// check digit does not match (e.g. "The VAT id DE136695975 fails the German
/// check digit.").
pub fn check_vat_id(country: &str, vat_id: &str) -> Result<(), String> {
    let Some(state) = member_state(country) else {
        return Ok(());
    };
    let Some(number) = vat_id.strip_prefix(state.prefix) else {
        return Err(format!(
            "The VAT id {vat_id} does not start with {}, the prefix of {} VAT ids.",
            state.prefix, state.adjective
        ));
    };
    (state.check)(number).map_err(|fault| match fault {
        Fault::Format => format!(
            "The VAT id {vat_id} is not in the {} format: {}.",
            state.adjective, state.format
        ),
        Fault::CheckDigit => format!(
            "The VAT id {vat_id} fails the {} check digit.",
            state.adjective
        ),
    })
}

/// Checks a VAT id (normalised) by the country of its own prefix (`EL`
/// is Greece's); an id that starts with no letters is judged by `country`,
/// the partner's. A prefix outside the EU is not checked.
///
/// Fails, with a sentence, as `check_vat_id` does.
pub fn check_by_prefix(country: &str, vat_id: &str) -> Result<(), String> {
    match vat_id.get(..2) {
        Some("EL") => check_vat_id("GR", vat_id),
        Some(prefix) if prefix.bytes().all(|b| b.is_ascii_uppercase()) => {
            check_vat_id(prefix, vat_id)
        }
        _ => check_vat_id(country, vat_id),
    }
}

/// What is wrong with the part of a VAT id after its prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fault {
    Format,
    CheckDigit,
}

/// Checks the part of a VAT id after its prefix: format, then check digit.
type NumberCheck = fn(&str) -> Result<(), Fault>;

/// One EU member state's VAT id rule.
struct MemberState {
    /// What every VAT id of the state starts with.
    prefix: &'static str,
    /// The state's adjective, for sentences ("the German check digit").
    adjective: &'static str,
    /// The format in words, for the refusal sentence.
    format: &'static str,
    check: NumberCheck,
}

impl MemberState {
    fn new(
        prefix: &'static str,
        adjective: &'static str,
        format: &'static str,
        check: NumberCheck,
    ) -> Self {
        MemberState {
            prefix,
            adjective,
            format,
            check,
        }
    }
}

/// The VAT id rule of `country` when it is an EU member state.
fn member_state(country: &str) -> Option<MemberState> {
    let state = MemberState::new;
    Some(match country {
        "AT" => state("AT", "Austrian", "ATU followed by 8 digits", austria),
        "BE" => state(
            "BE",
            "Belgian",
            "BE followed by 10 digits, the first 0 or 1",
            belgium,
        ),
        "BG" => state("BG", "Bulgarian", "BG followed by 9 or 10 digits", bulgaria),
        "CY" => state(
            "CY",
            "Cypriot",
            "CY followed by 8 digits and a letter",
            cyprus,
        ),
        "CZ" => state("CZ", "Czech", "CZ followed by 8 to 10 digits", czechia),
        "DE" => state("DE", "German", "DE followed by 9 digits", germany),
        "DK" => state("DK", "Danish", "DK followed by 8 digits", denmark),
        "EE" => state("EE", "Estonian", "EE followed by 9 digits", estonia),
        "ES" => state(
            "ES",
            "Spanish",
            "ES followed by a CIF (letter, 7 digits, control digit or letter), \
             a NIF (8 digits and a letter) or a NIE (X, Y or Z, 7 digits and a letter)",
            spain,
        ),
        "FI" => state("FI", "Finnish", "FI followed by 8 digits", finland),
        "FR" => state(
            "FR",
            "French",
            "FR followed by a 2-character key and the 9-digit SIREN",
            france,
        ),
        "GR" => state("EL", "Greek", "EL followed by 9 digits", greece),
        "HR" => state("HR", "Croatian", "HR followed by 11 digits", croatia),
        "HU" => state("HU", "Hungarian", "HU followed by 8 digits", hungary),
        "IE" => state(
            "IE",
            "Irish",
            "IE followed by 7 digits and 1 or 2 letters, \
             or a digit, a letter, + or *, 5 digits and a letter",
            ireland,
        ),
        "IT" => state("IT", "Italian", "IT followed by 11 digits", italy),
        "LT" => state(
            "LT",
            "Lithuanian",
            "LT followed by 9 or 12 digits",
            lithuania,
        ),
        "LU" => state("LU", "Luxembourgish", "LU followed by 8 digits", luxembourg),
        "LV" => state("LV", "Latvian", "LV followed by 11 digits", latvia),
        "MT" => state("MT", "Maltese", "MT followed by 8 digits", malta),
        "NL" => state(
            "NL",
            "Dutch",
            "NL followed by 9 digits, B and 2 digits",
            netherlands,
        ),
        "PL" => state("PL", "Polish", "PL followed by 10 digits", poland),
        "PT" => state("PT", "Portuguese", "PT followed by 9 digits", portugal),
        "RO" => state("RO", "Romanian", "RO followed by 2 to 10 digits", romania),
        "SE" => state("SE", "Swedish", "SE followed by 10 digits and 01", sweden),
        "SI" => state("SI", "Slovenian", "SI followed by 8 digits", slovenia),
        "SK" => state("SK", "Slovak", "SK followed by 10 digits", slovakia),
        _ => return None,
    })
}

// --- Shared pieces of the number checks ---------------------------------

/// The digit values of `text` when it is all ASCII digits and its length is
/// within `lengths`.
fn digits_within(text: &str, lengths: std::ops::RangeInclusive<usize>) -> Result<Vec<u32>, Fault> {
    if !lengths.contains(&text.len()) {
        return Err(Fault::Format);
    }
    text.chars()
        .map(|c| c.to_digit(10).ok_or(Fault::Format))
        .collect()
}

/// The digit values of `text` when it is exactly `length` ASCII digits.
fn exact_digits(text: &str, length: usize) -> Result<Vec<u32>, Fault> {
    digits_within(text, length..=length)
}

/// The body digits and the final check digit.
fn split_check(digits: &[u32]) -> Result<(&[u32], u32), Fault> {
    match digits.split_last() {
        Some((&check, body)) => Ok((body, check)),
        None => Err(Fault::Format),
    }
}

/// A check-digit result: Ok when `holds`.
fn check_digit(holds: bool) -> Result<(), Fault> {
    if holds {
        Ok(())
    } else {
        Err(Fault::CheckDigit)
    }
}

/// A format result: Ok when `holds`.
fn well_formed(holds: bool) -> Result<(), Fault> {
    if holds {
        Ok(())
    } else {
        Err(Fault::Format)
    }
}

/// Σ digit × weight, pairing from the left.
fn weighted_sum(digits: &[u32], weights: &[u32]) -> u32 {
    digits.iter().zip(weights).map(|(d, w)| d * w).sum()
}

/// The digits read as one decimal number.
fn number_of(digits: &[u32]) -> u64 {
    digits
        .iter()
        .fold(0, |n, &d| n.wrapping_mul(10).wrapping_add(u64::from(d)))
}

/// The sum of the decimal digits of a number below 100.
fn digit_sum(n: u32) -> u32 {
    n / 10 + n % 10
}

/// Luhn: doubling every second digit from the right (digit-summed), the total
/// of all digits, check digit included, is a multiple of 10.
fn luhn_holds(digits: &[u32]) -> bool {
    let total: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &d)| if i % 2 == 1 { digit_sum(2 * d) } else { d })
        .sum();
    total.is_multiple_of(10)
}

/// ISO 7064 MOD 11,10 over the body digits; the last digit is the check.
fn mod_11_10_holds(digits: &[u32]) -> bool {
    let Ok((body, check)) = split_check(digits) else {
        return false;
    };
    let product = body.iter().fold(10, |product, &d| {
        let sum = match (d + product) % 10 {
            0 => 10,
            s => s,
        };
        (2 * sum) % 11
    });
    (11 - product) % 10 == check
}

/// The remainder mod 97 of `text` read as a number, letters standing for
/// two digits each (A = 10 … Z = 35); None when `text` has another character.
fn mod_97_of_alphanumeric(text: &str) -> Option<u32> {
    text.chars().try_fold(0u32, |remainder, c| match c {
        '0'..='9' => c.to_digit(10).map(|d| (remainder * 10 + d) % 97),
        'A'..='Z' => c.to_digit(36).map(|v| (remainder * 100 + v) % 97),
        _ => None,
    })
}

// --- Member states with a check digit -------------------------------------

/// DE: 9 digits, the last ISO 7064 MOD 11,10 over the first 8.
fn germany(number: &str) -> Result<(), Fault> {
    let digits = exact_digits(number, 9)?;
    check_digit(mod_11_10_holds(&digits))
}

/// AT: "U" and 8 digits; the odd positions of the first 7 add the digit, the
/// even ones the digit sum of its double; check = (10 − (S + 4) mod 10) mod 10.
fn austria(number: &str) -> Result<(), Fault> {
    let digits = number
        .strip_prefix('U')
        .ok_or(Fault::Format)
        .and_then(|rest| exact_digits(rest, 8))?;
    let (body, check) = split_check(&digits)?;
    let sum: u32 = body
        .iter()
        .enumerate()
        .map(|(i, &d)| if i % 2 == 0 { d } else { digit_sum(2 * d) })
        .sum();
    check_digit((10 - (sum + 4) % 10) % 10 == check)
}

/// The characters a French key may have: digits and letters except O and I.
fn is_french_key_char(c: char) -> bool {
    c.is_ascii_digit() || (c.is_ascii_uppercase() && c != 'O' && c != 'I')
}

/// FR: a 2-character key and the 9-digit SIREN. A numeric key must equal
/// (12 + 3 × (SIREN mod 97)) mod 97; a key with a letter (new style) has no
/// check we can do.
fn france(number: &str) -> Result<(), Fault> {
    let Some((key, siren)) = number.split_at_checked(2) else {
        return Err(Fault::Format);
    };
    well_formed(key.chars().all(is_french_key_char))?;
    let siren = number_of(&exact_digits(siren, 9)?);
    match key.parse::<u64>() {
        Ok(numeric_key) => check_digit(numeric_key == (12 + 3 * (siren % 97)) % 97),
        Err(_) => Ok(()),
    }
}

/// IT: 11 digits, Luhn over all of them.
fn italy(number: &str) -> Result<(), Fault> {
    let digits = exact_digits(number, 11)?;
    check_digit(luhn_holds(&digits))
}

/// The control letters of Spanish NIF and NIE, indexed by number mod 23.
const NIF_LETTERS: &str = "TRWAGMYFPDXBNJZSQVHLCKE";

/// The organisation letters a Spanish CIF may start with.
const CIF_ORGANISATION_LETTERS: &str = "ABCDEFGHJNPQRSUVW";

/// The CIF control letters, indexed by the control digit.
const CIF_CONTROL_LETTERS: &str = "JABCDEFGHI";

/// ES: 9 characters, a NIF or NIE (a person) or a CIF (an organisation):
/// a leading character, 7 digits and a control character.
fn spain(number: &str) -> Result<(), Fault> {
    let mut chars = number.chars();
    let (Some(first), Some(control)) = (chars.next(), chars.next_back()) else {
        return Err(Fault::Format);
    };
    let seven = exact_digits(chars.as_str(), 7)?;
    match first {
        '0'..='9' | 'X' | 'Y' | 'Z' => spanish_person(first, &seven, control),
        _ if CIF_ORGANISATION_LETTERS.contains(first) => {
            spanish_organisation(first, &seven, control)
        }
        _ => Err(Fault::Format),
    }
}

/// NIF (8 digits) and NIE (X, Y, Z standing for 0, 1, 2, then 7 digits):
/// the control letter is `NIF_LETTERS[number mod 23]`.
fn spanish_person(first: char, seven: &[u32], control: char) -> Result<(), Fault> {
    let leading = match first {
        'X' => 0,
        'Y' => 1,
        'Z' => 2,
        digit => digit.to_digit(10).ok_or(Fault::Format)?,
    };
    well_formed(control.is_ascii_uppercase())?;
    let number = u64::from(leading) * 10_000_000 + number_of(seven);
    let expected = usize::try_from(number % 23)
        .ok()
        .and_then(|index| NIF_LETTERS.chars().nth(index));
    check_digit(expected == Some(control))
}

/// CIF: of the 7 digits, the even positions add the digit, the odd ones the
/// digit sum of its double; c = (10 − sum mod 10) mod 10. The control is the
/// digit c or the letter "JABCDEFGHI"[c]: P, Q, R, S, N, W (and K) take the
/// letter, A, B, E, H the digit, the others either.
fn spanish_organisation(organisation: char, seven: &[u32], control: char) -> Result<(), Fault> {
    well_formed(control.is_ascii_digit() || control.is_ascii_uppercase())?;
    let sum: u32 = seven
        .iter()
        .enumerate()
        .map(|(i, &d)| if i % 2 == 0 { digit_sum(2 * d) } else { d })
        .sum();
    let c = (10 - sum % 10) % 10;
    let digit_matches = control.to_digit(10) == Some(c);
    let letter_matches = usize::try_from(c)
        .ok()
        .and_then(|index| CIF_CONTROL_LETTERS.chars().nth(index))
        == Some(control);
    check_digit(match organisation {
        'K' | 'P' | 'Q' | 'R' | 'S' | 'N' | 'W' => letter_matches,
        'A' | 'B' | 'E' | 'H' => digit_matches,
        _ => digit_matches || letter_matches,
    })
}

/// NL: 9 digits, "B", 2 digits. Valid when the old elfproef holds (weights
/// 9…2 on the first 8 digits, sum mod 11 is the 9th) or when the whole id
/// "NL…B…", letters as A = 10 … Z = 35, is 1 mod 97.
fn netherlands(number: &str) -> Result<(), Fault> {
    let Some((nine, branch)) = number.split_once('B') else {
        return Err(Fault::Format);
    };
    let digits = exact_digits(nine, 9)?;
    exact_digits(branch, 2)?;
    let (body, check) = split_check(&digits)?;
    let elfproef = weighted_sum(body, &[9, 8, 7, 6, 5, 4, 3, 2]) % 11 == check;
    let mod_97 = mod_97_of_alphanumeric(&format!("NL{number}")) == Some(1);
    check_digit(elfproef || mod_97)
}

/// BE: 10 digits, the first 0 or 1; 97 − (first 8 as a number mod 97) is the last 2.
fn belgium(number: &str) -> Result<(), Fault> {
    let digits = exact_digits(number, 10)?;
    let (body, check) = digits.split_at(8);
    well_formed(matches!(body.first(), Some(0 | 1)))?;
    check_digit(97 - number_of(body) % 97 == number_of(check))
}

/// LU: 8 digits; the first 6 as a number mod 89 are the last 2.
fn luxembourg(number: &str) -> Result<(), Fault> {
    let digits = exact_digits(number, 8)?;
    let (body, check) = digits.split_at(6);
    check_digit(number_of(body) % 89 == number_of(check))
}

/// DK: 8 digits, weights 2, 7, 6, 5, 4, 3, 2, 1, sum mod 11 is 0.
fn denmark(number: &str) -> Result<(), Fault> {
    let digits = exact_digits(number, 8)?;
    check_digit(weighted_sum(&digits, &[2, 7, 6, 5, 4, 3, 2, 1]).is_multiple_of(11))
}

/// FI: 8 digits, weights 7, 9, 10, 5, 8, 4, 2 on the first 7;
/// check = 11 − sum mod 11, 11 becoming 0 and 10 never valid.
fn finland(number: &str) -> Result<(), Fault> {
    let digits = exact_digits(number, 8)?;
    let (body, check) = split_check(&digits)?;
    let expected = match 11 - weighted_sum(body, &[7, 9, 10, 5, 8, 4, 2]) % 11 {
        11 => 0,
        c => c,
    };
    check_digit(expected == check)
}

/// PL: 10 digits, weights 6, 5, 7, 2, 3, 4, 5, 6, 7; sum mod 11 is the
/// 10th digit (10 never valid).
fn poland(number: &str) -> Result<(), Fault> {
    let digits = exact_digits(number, 10)?;
    let (body, check) = split_check(&digits)?;
    check_digit(weighted_sum(body, &[6, 5, 7, 2, 3, 4, 5, 6, 7]) % 11 == check)
}

/// PT: 9 digits, weights 9…2 on the first 8; check = 11 − sum mod 11,
/// 10 and 11 becoming 0.
fn portugal(number: &str) -> Result<(), Fault> {
    let digits = exact_digits(number, 9)?;
    let (body, check) = split_check(&digits)?;
    let expected = match 11 - weighted_sum(body, &[9, 8, 7, 6, 5, 4, 3, 2]) % 11 {
        10 | 11 => 0,
        c => c,
    };
    check_digit(expected == check)
}

/// SE: 12 digits ending in "01"; Luhn over the first 10.
fn sweden(number: &str) -> Result<(), Fault> {
    let digits = exact_digits(number, 12)?;
    let (organisation, suffix) = digits.split_at(10);
    well_formed(suffix == [0, 1])?;
    check_digit(luhn_holds(organisation))
}

/// EE: 9 digits, weights 3, 7, 1 repeating, sum mod 10 is 0.
fn estonia(number: &str) -> Result<(), Fault> {
    let digits = exact_digits(number, 9)?;
    check_digit(weighted_sum(&digits, &[3, 7, 1, 3, 7, 1, 3, 7, 1]).is_multiple_of(10))
}

/// EL: 9 digits, weights 256, 128, …, 2 on the first 8; sum mod 11 mod 10
/// is the 9th.
fn greece(number: &str) -> Result<(), Fault> {
    let digits = exact_digits(number, 9)?;
    let (body, check) = split_check(&digits)?;
    let sum = weighted_sum(body, &[256, 128, 64, 32, 16, 8, 4, 2]);
    check_digit(sum % 11 % 10 == check)
}

/// HR: 11 digits (the OIB), the last ISO 7064 MOD 11,10 over the first 10.
fn croatia(number: &str) -> Result<(), Fault> {
    let digits = exact_digits(number, 11)?;
    check_digit(mod_11_10_holds(&digits))
}

/// HU: 8 digits, weights 9, 7, 3, 1 repeating, sum mod 10 is 0.
fn hungary(number: &str) -> Result<(), Fault> {
    let digits = exact_digits(number, 8)?;
    check_digit(weighted_sum(&digits, &[9, 7, 3, 1, 9, 7, 3, 1]).is_multiple_of(10))
}

/// MT: 8 digits, weights 3, 4, 6, 7, 8, 9, 10, 1, sum mod 37 is 0.
fn malta(number: &str) -> Result<(), Fault> {
    let digits = exact_digits(number, 8)?;
    check_digit(weighted_sum(&digits, &[3, 4, 6, 7, 8, 9, 10, 1]).is_multiple_of(37))
}

/// The Romanian weights, for a body of 9 digits.
const ROMANIAN_WEIGHTS: [u32; 9] = [7, 5, 3, 2, 1, 7, 5, 3, 2];

/// RO: 2 to 10 digits; weights 7, 5, 3, 2, 1, 7, 5, 3, 2 aligned to the
/// right of the body; check = 10 × sum mod 11 mod 10.
fn romania(number: &str) -> Result<(), Fault> {
    let digits = digits_within(number, 2..=10)?;
    let (body, check) = split_check(&digits)?;
    let sum: u32 = body
        .iter()
        .rev()
        .zip(ROMANIAN_WEIGHTS.iter().rev())
        .map(|(d, w)| d * w)
        .sum();
    check_digit(10 * sum % 11 % 10 == check)
}

/// SI: 8 digits, weights 8…2 on the first 7; check = 11 − sum mod 11,
/// 10 becoming 0 and 11 never valid.
fn slovenia(number: &str) -> Result<(), Fault> {
    let digits = exact_digits(number, 8)?;
    let (body, check) = split_check(&digits)?;
    let expected = match 11 - weighted_sum(body, &[8, 7, 6, 5, 4, 3, 2]) % 11 {
        10 => 0,
        c => c,
    };
    check_digit(expected == check)
}

// --- Member states checked for format only ---------------------------------

/// BG: 9 or 10 digits.
fn bulgaria(number: &str) -> Result<(), Fault> {
    digits_within(number, 9..=10).map(drop)
}

/// CY: 8 digits and a letter.
fn cyprus(number: &str) -> Result<(), Fault> {
    let Some(eight) = number.strip_suffix(|c: char| c.is_ascii_uppercase()) else {
        return Err(Fault::Format);
    };
    exact_digits(eight, 8).map(drop)
}

/// CZ: 8 to 10 digits.
fn czechia(number: &str) -> Result<(), Fault> {
    digits_within(number, 8..=10).map(drop)
}

/// IE: 7 digits and 1 or 2 letters; or (old style) a digit, a letter, + or *,
/// 5 digits and a letter.
fn ireland(number: &str) -> Result<(), Fault> {
    let bytes = number.as_bytes();
    let is_letter = |b: &u8| b.is_ascii_uppercase();
    let is_digit = |b: &u8| b.is_ascii_digit();
    let new_style = match bytes {
        [seven @ .., a, b] if seven.len() == 7 => {
            seven.iter().all(is_digit) && is_letter(a) && is_letter(b)
        }
        _ => false,
    } || match bytes {
        [seven @ .., a] if seven.len() == 7 => seven.iter().all(is_digit) && is_letter(a),
        _ => false,
    };
    let old_style = match bytes {
        [d, mark, five @ .., letter] if five.len() == 5 => {
            is_digit(d)
                && (is_letter(mark) || *mark == b'+' || *mark == b'*')
                && five.iter().all(is_digit)
                && is_letter(letter)
        }
        _ => false,
    };
    well_formed(new_style || old_style)
}

/// LT: 9 or 12 digits.
fn lithuania(number: &str) -> Result<(), Fault> {
    let digits = digits_within(number, 9..=12)?;
    well_formed(digits.len() == 9 || digits.len() == 12)
}

/// LV: 11 digits.
fn latvia(number: &str) -> Result<(), Fault> {
    exact_digits(number, 11).map(drop)
}

/// SK: 10 digits.
fn slovakia(number: &str) -> Result<(), Fault> {
    exact_digits(number, 10).map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ids whose check digit was computed by hand (arithmetic in the comments).
    const VALID_WITH_CHECK_DIGIT: &[(&str, &str)] = &[
        // MOD 11,10 over 1,3,6,6,9,5,9,7: p runs 2,10,1,3,4,7,1,5; 11 − 5 = 6.
        ("DE", "DE136695976"),
        // 1,2,3,4,5,6,7,8: p runs 2,8,2,1,1,3,9,3; 11 − 3 = 8 (so this one,
        // sometimes given as an invalid example, is valid).
        ("DE", "DE123456788"),
        // 1+5+5+2 = 13 (odd), ds(6)+ds(16)+ds(12) = 6+7+3 = 16 (even); S = 29;
        // (10 − 33 mod 10) mod 10 = 7.
        ("AT", "ATU13585627"),
        // 303265045 mod 97 = 74; (12 + 3·74) mod 97 = 234 mod 97 = 40.
        ("FR", "FR40303265045"),
        // New-style key with a letter: format only.
        ("FR", "FRA0303265045"),
        // Luhn terms 0,0,7,8,3,2,1,0,1,1,7 sum to 30.
        ("IT", "IT00743110157"),
        // CIF digits 2,8,0,1,5,8,6: odd positions 2,0,5,6 add ds(4)+ds(0)+ds(10)+ds(12)
        // = 4+0+1+3 = 8, even positions 8+1+8 = 17; sum 25, c = 5, letter
        // "JABCDEFGHI"[5] = E. A takes the digit, Q the letter, G either.
        ("ES", "ESA28015865"),
        ("ES", "ESQ2801586E"),
        ("ES", "ESG28015865"),
        ("ES", "ESG2801586E"),
        // NIF 12345678 mod 23 = 14 → Z.
        ("ES", "ES12345678Z"),
        // NIE X → 0: 1234567 mod 23 = 19 → L; Y → 11234567 mod 23 = 10 → X;
        // Z → 21234567 mod 23 = 1 → R.
        ("ES", "ESX1234567L"),
        ("ES", "ESY1234567X"),
        ("ES", "ESZ1234567R"),
        // Elfproef 0·9+0·8+4·7+4·6+9·5+5·4+4·3+4·2 = 137, 137 mod 11 = 5.
        ("NL", "NL004495445B01"),
        // Elfproef 9+16+21+24+25+24+21+16 = 156, 156 mod 11 = 2.
        ("NL", "NL123456782B01"),
        // Elfproef fails (126 mod 11 = 5 ≠ 8); "2321000099998" "11" "57":
        // 232100009999811 mod 97 = 46, 4600 + 57 = 4657 = 48·97 + 1.
        ("NL", "NL000099998B57"),
        // 4119058 mod 97 = 50 (97·42464 = 4119008); 97 − 50 = 47.
        ("BE", "BE0411905847"),
        // 263752 mod 89 = 45 (89·2963 = 263707).
        ("LU", "LU26375245"),
        // 2+21+30+40+20+18+4+8 = 143 = 11·13.
        ("DK", "DK13585628"),
        // 14+0+70+35+32+28+8 = 187 = 11·17; 11 − 0 = 11 → 0.
        ("FI", "FI20774740"),
        // 48+25+42+14+9+16+30+12+7 = 203, 203 mod 11 = 5.
        ("PL", "PL8567346215"),
        // 45+0+7+54+30+16+24+8 = 184, 184 mod 11 = 8, 11 − 8 = 3.
        ("PT", "PT501964843"),
        // Luhn over 5561888404: terms 1,5,3,1,7,8,7,4,0,4 sum to 40.
        ("SE", "SE556188840401"),
        // 3+0+0+27+21+1+15+35+8 = 110.
        ("EE", "EE100931558"),
        // 0+1152+256+64+80+72+8+2 = 1634, 1634 mod 11 = 6.
        ("GR", "EL094259216"),
        // MOD 11,10 over 3339200596: p ends at 10; (11 − 10) mod 10 = 1.
        ("HR", "HR33392005961"),
        // 9+14+24+9+18+21+3+2 = 100.
        ("HU", "HU12892312"),
        // 3+4+36+49+72+9+10+2 = 185 = 37·5.
        ("MT", "MT11679112"),
        // Body 1854729 as 001854729, weights 7,5,3,2,1,7,5,3,2:
        // 0+0+3+16+5+28+35+6+18 = 111; 1110 mod 11 = 10, 10 mod 10 = 0.
        ("RO", "RO18547290"),
        // 40+0+12+10+12+0+10 = 84, 84 mod 11 = 7, 11 − 7 = 4.
        ("SI", "SI50223054"),
    ];

    #[test]
    fn valid_ids_with_check_digits_are_accepted() {
        for &(country, id) in VALID_WITH_CHECK_DIGIT {
            assert_eq!(check_vat_id(country, id), Ok(()), "{country} {id}");
        }
    }

    #[test]
    fn wrong_check_digits_are_refused() {
        let cases = [
            ("DE", "DE136695975", "German"),
            ("DE", "DE123456789", "German"),
            ("AT", "ATU13585628", "Austrian"),
            ("FR", "FR41303265045", "French"),
            ("IT", "IT00743110158", "Italian"),
            ("ES", "ESA28015864", "Spanish"),
            ("ES", "ESA2801586E", "Spanish"),
            ("ES", "ESQ28015865", "Spanish"),
            ("ES", "ESG2801586F", "Spanish"),
            ("ES", "ES12345678A", "Spanish"),
            ("ES", "ESX1234567A", "Spanish"),
            ("NL", "NL004495446B01", "Dutch"),
            ("NL", "NL000099998B56", "Dutch"),
            ("BE", "BE0411905848", "Belgian"),
            ("LU", "LU26375246", "Luxembourgish"),
            ("DK", "DK13585627", "Danish"),
            ("FI", "FI20774741", "Finnish"),
            ("PL", "PL8567346216", "Polish"),
            ("PT", "PT501964844", "Portuguese"),
            ("SE", "SE556188840501", "Swedish"),
            ("EE", "EE100931559", "Estonian"),
            ("GR", "EL094259217", "Greek"),
            ("HR", "HR33392005962", "Croatian"),
            ("HU", "HU12892313", "Hungarian"),
            ("MT", "MT11679113", "Maltese"),
            ("RO", "RO18547291", "Romanian"),
            ("SI", "SI50223055", "Slovenian"),
        ];
        for (country, id, adjective) in cases {
            assert_eq!(
                check_vat_id(country, id),
                Err(format!(
                    "The VAT id {id} fails the {adjective} check digit."
                )),
                "{country} {id}"
            );
        }
    }

    #[test]
    fn format_only_states_accept_their_format() {
        let cases = [
            ("BG", "BG175074752"),
            ("BG", "BG1750747521"),
            ("CY", "CY10259033P"),
            ("CZ", "CZ25123891"),
            ("CZ", "CZ7103192745"),
            ("IE", "IE6433435F"),
            ("IE", "IE6433435OA"),
            ("IE", "IE8Z49289F"),
            ("IE", "IE7+12345W"),
            ("LT", "LT119511515"),
            ("LT", "LT100001919017"),
            ("LV", "LV40003521600"),
            ("SK", "SK2022749619"),
        ];
        for (country, id) in cases {
            assert_eq!(check_vat_id(country, id), Ok(()), "{country} {id}");
        }
    }

    #[test]
    fn format_errors_are_refused() {
        let cases = [
            ("DE", "DE13669597"),
            ("DE", "DE1366959761"),
            ("DE", "DE13669597X"),
            ("DE", "DE"),
            ("AT", "AT13585627"),
            ("AT", "ATU1358562"),
            ("FR", "FRO0303265045"),
            ("FR", "FR4030326504"),
            ("FR", "FR"),
            ("IT", "IT0074311015"),
            ("ES", "ESI28015865"),
            ("ES", "ES1234567Z"),
            ("ES", "ES123456789"),
            ("ES", "ESA2801586-"),
            ("NL", "NL004495445X01"),
            ("NL", "NL004495445B1"),
            ("BE", "BE2411905847"),
            ("BE", "BE411905847"),
            ("SE", "SE556188840402"),
            ("PL", "PL85673462"),
            ("BG", "BG12345678"),
            ("CY", "CY102590331"),
            ("CZ", "CZ1234567"),
            ("IE", "IE643343F"),
            ("IE", "IE6433435FAB"),
            ("LT", "LT1195115150"),
            ("RO", "RO1"),
            ("RO", "RO12345678901"),
            ("SK", "SK202274961"),
        ];
        for (country, id) in cases {
            let refusal = check_vat_id(country, id);
            assert!(
                matches!(&refusal, Err(sentence) if sentence.contains("is not in the")),
                "{country} {id}: {refusal:?}"
            );
        }
        assert_eq!(
            check_vat_id("DE", "DE13669597"),
            Err(
                "The VAT id DE13669597 is not in the German format: DE followed by 9 digits."
                    .to_string()
            )
        );
    }

    #[test]
    fn a_prefix_of_another_country_is_refused() {
        assert_eq!(
            check_vat_id("AT", "DE136695976"),
            Err(
                "The VAT id DE136695976 does not start with AT, the prefix of Austrian VAT ids."
                    .to_string()
            )
        );
        assert_eq!(
            check_vat_id("GR", "GR094259216"),
            Err(
                "The VAT id GR094259216 does not start with EL, the prefix of Greek VAT ids."
                    .to_string()
            )
        );
        for (country, id) in [("DE", "ATU13585627"), ("FR", "136695976"), ("DE", "")] {
            assert!(check_vat_id(country, id).is_err(), "{country} {id}");
        }
    }

    #[test]
    fn an_id_is_judged_by_its_own_prefix() {
        // An Austrian id of a German partner is an Austrian id.
        assert_eq!(check_by_prefix("DE", "ATU13585627"), Ok(()));
        assert!(check_by_prefix("US", "DE136695975").is_err());
        assert_eq!(check_by_prefix("DE", "EL094259216"), Ok(()));
        assert_eq!(check_by_prefix("DE", "CHE123456789"), Ok(()));
        // No prefix: the partner's country decides.
        assert!(check_by_prefix("DE", "136695976").is_err());
    }

    #[test]
    fn countries_outside_the_eu_accept_anything() {
        for country in ["CH", "US", "GB", "NO", "EL", ""] {
            for id in ["", "anything", "DE136695975", "CHE-123.456.789 MWST"] {
                assert_eq!(check_vat_id(country, id), Ok(()), "{country} {id}");
            }
        }
    }

    #[test]
    fn odd_input_never_panics() {
        let states = [
            "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "GR", "ES", "FI", "FR", "HR", "HU",
            "IE", "IT", "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK",
        ];
        let tails = [
            "",
            "B",
            "U",
            "0",
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
        ];
        for country in states {
            let prefix = member_state(country).map_or("", |state| state.prefix);
            for tail in tails {
                let _ = check_vat_id(country, &format!("{prefix}{tail}"));
            }
        }
    }
}
