//! Each state's VAT number rule: the format and check digits of the part of a
//! VAT id after its two-letter prefix, in the compact form (separators
//! removed, the state's shortened forms filled out). The rules are the ones
//! python-stdnum applies, so an id kontor accepts is one that library
//! accepts and the other way round; each function names the state's own
//! number (USt-IdNr., SIREN, CIF, OIB …) where it has one. A rule that does
//! not hold says which part fails (`Fault`): the format or the check digits.
//!
//! Every function receives ASCII text (the caller refuses anything else) and
//! never panics: slices are taken by `part`, which clamps like Python does.

/// What is wrong with the part of a VAT id after its prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Not the state's format (characters, length, a fixed part, a date).
    Format,
    /// The format holds but the check digits do not.
    CheckDigit,
}

// --- Pieces the rules share -------------------------------------------------

/// `text[from..to]` clamped to the text, like a Python slice with
/// non-negative bounds (ASCII text, so bytes are characters).
fn part(text: &str, from: usize, to: usize) -> &str {
    let to = to.min(text.len());
    text.get(from.min(to)..to).unwrap_or("")
}

/// All but the last `n` characters (Python's `text[:-n]`).
fn all_but_last(text: &str, n: usize) -> &str {
    part(text, 0, text.len().saturating_sub(n))
}

/// The last character, or None for empty text.
fn last(text: &str) -> Option<u8> {
    text.bytes().last()
}

/// At least one character, and only ASCII digits.
fn is_digits(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// Only zeros (text already known to be digits).
fn is_zero(text: &str) -> bool {
    text.bytes().all(|b| b == b'0')
}

/// The digit values of `text` (non-digits count as 0; callers check first).
fn values(text: &str) -> impl DoubleEndedIterator<Item = i64> + '_ {
    text.bytes().map(|b| i64::from(b.wrapping_sub(b'0') % 10))
}

/// The value of one digit character.
fn value(digit: u8) -> i64 {
    i64::from(digit.wrapping_sub(b'0') % 10)
}

/// The digits read as one number (at most 18 digits are ever read).
fn number(text: &str) -> i64 {
    values(text).fold(0, |n, d| n.saturating_mul(10).saturating_add(d))
}

/// Σ digit × weight, pairing from the left (extra digits or weights unused).
fn weighted(text: &str, weights: &[i64]) -> i64 {
    values(text).zip(weights).map(|(d, w)| d * w).sum()
}

/// Ok when `holds`, else a format fault.
fn format(holds: bool) -> Result<(), Fault> {
    if holds {
        Ok(())
    } else {
        Err(Fault::Format)
    }
}

/// Ok when `holds`, else a check-digit fault.
fn check(holds: bool) -> Result<(), Fault> {
    if holds {
        Ok(())
    } else {
        Err(Fault::CheckDigit)
    }
}

/// Whether the last character is the digit `expected`.
fn ends_with_digit(text: &str, expected: i64) -> bool {
    last(text).is_some_and(|b| b.is_ascii_digit() && value(b) == expected)
}

/// The Luhn checksum: every second digit from the right doubled and digit
/// summed, all added, mod 10 (0 for a number that carries its Luhn digit).
fn luhn(text: &str) -> i64 {
    let digits: Vec<i64> = values(text).collect();
    digits
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &d)| {
            if i % 2 == 1 {
                (2 * d) / 10 + (2 * d) % 10
            } else {
                d
            }
        })
        .sum::<i64>()
        % 10
}

/// The Luhn check digit to append to `text`.
fn luhn_digit(text: &str) -> i64 {
    (10 - luhn(&format!("{text}0"))) % 10
}

/// ISO 7064 MOD 11,10: 1 for a number that carries its check digit.
fn mod_11_10(text: &str) -> i64 {
    values(text).fold(5, |product, d| {
        let product = if product == 0 { 10 } else { product };
        (product * 2 % 11 + d) % 10
    })
}

/// ISO 7064 MOD 97-10 over digits and letters (A = 10 … Z = 35): 1 for a
/// number that carries its check digits.
fn mod_97_10(text: &str) -> i64 {
    text.bytes().fold(0, |rest, b| match b {
        b'0'..=b'9' => (rest * 10 + value(b)) % 97,
        b'A'..=b'Z' => (rest * 100 + i64::from(b - b'A') + 10) % 97,
        _ => rest,
    })
}

/// A day of the Gregorian calendar (years 1 to 9999).
fn is_date(year: i64, month: i64, day: i64) -> bool {
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=9999).contains(&year) && (1..=days).contains(&day)
}

/// The characters `text` consists of all belong to `alphabet`.
fn all_in(text: &str, alphabet: &str) -> bool {
    text.bytes().all(|b| alphabet.as_bytes().contains(&b))
}

/// The position of `c` in `alphabet` (0 when absent; callers check first).
fn index_in(alphabet: &str, c: u8) -> i64 {
    alphabet
        .bytes()
        .position(|a| a == c)
        .and_then(|i| i64::try_from(i).ok())
        .unwrap_or(0)
}

/// The character at `i` of `alphabet`, for a check letter.
fn letter_at(alphabet: &str, i: i64) -> Option<u8> {
    usize::try_from(i)
        .ok()
        .and_then(|i| alphabet.as_bytes().get(i).copied())
}

// --- The states ------------------------------------------------------------

/// AT (UID): "U" and 8 digits; Luhn over the 7 body digits gives the check
/// (6 − checksum) mod 10.
pub fn austria(n: &str) -> Result<(), Fault> {
    format(n.starts_with('U') && is_digits(part(n, 1, n.len())) && n.len() == 9)?;
    check(ends_with_digit(n, (6 - luhn(part(n, 1, 8))).rem_euclid(10)))
}

/// BE: 10 digits (an old 9-digit number gains its leading 0), the first 0
/// or 1, not all zero; the first 8 as a number plus the last 2 is a
/// multiple of 97.
pub fn belgium(n: &str) -> Result<(), Fault> {
    format(is_digits(n) && !is_zero(n) && n.len() == 10)?;
    format(n.starts_with(['0', '1']))?;
    check((number(part(n, 0, 8)) + number(part(n, 8, 10))) % 97 == 0)
}

/// BG: 9 digits (a legal person: weights 1…8, or 3…10 when that gives 10,
/// mod 11 mod 10), or 10 digits that are a valid EGN (a citizen: a birth
/// date and weights 2, 4, 8, 5, 10, 9, 7, 3, 6), a valid foreigner's PNF
/// (weights 21 … 1 mod 10) or another 10-digit number (weights 4, 3, 2, 7,
/// 6, 5, 4, 3, 2, check 11 − sum mod 11).
pub fn bulgaria(n: &str) -> Result<(), Fault> {
    format(is_digits(n))?;
    let body = all_but_last(n, 1);
    match n.len() {
        9 => {
            let mut sum = weighted(body, &[1, 2, 3, 4, 5, 6, 7, 8]) % 11;
            if sum == 10 {
                sum = weighted(body, &[3, 4, 5, 6, 7, 8, 9, 10]) % 11;
            }
            check(ends_with_digit(n, sum % 10))
        }
        10 => {
            let egn = bulgarian_birth_date(n)
                && ends_with_digit(n, weighted(body, &[2, 4, 8, 5, 10, 9, 7, 3, 6]) % 11 % 10);
            let pnf = ends_with_digit(n, weighted(body, &[21, 19, 17, 13, 11, 9, 7, 3, 1]) % 10);
            let other = ends_with_digit(
                n,
                (11 - weighted(body, &[4, 3, 2, 7, 6, 5, 4, 3, 2])).rem_euclid(11),
            );
            check(egn || pnf || other)
        }
        _ => Err(Fault::Format),
    }
}

/// The EGN's birth date: YYMMDD, the month +20 for 1800s, +40 for 2000s.
fn bulgarian_birth_date(n: &str) -> bool {
    let mut year = 1900 + number(part(n, 0, 2));
    let mut month = number(part(n, 2, 4));
    if month > 40 {
        year += 100;
        month -= 40;
    } else if month > 20 {
        year -= 100;
        month -= 20;
    }
    is_date(year, month, number(part(n, 4, 6)))
}

/// CY: 8 digits, not starting 12, and a check letter: the digits at even
/// positions translated (0→1, 1→0, 2→5, 3→7, 4→9, 5→13 … 9→21), those at odd
/// positions as they are, summed mod 26 as A…Z.
pub fn cyprus(n: &str) -> Result<(), Fault> {
    let body = all_but_last(n, 1);
    format(is_digits(body) && n.len() == 9 && !n.starts_with("12"))?;
    format(last(n).is_some_and(|b| b.is_ascii_uppercase()))?;
    const TRANSLATED: [i64; 10] = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21];
    let sum: i64 = values(body)
        .enumerate()
        .map(|(i, d)| {
            if i % 2 == 0 {
                usize::try_from(d)
                    .ok()
                    .and_then(|d| TRANSLATED.get(d))
                    .copied()
                    .unwrap_or(0)
            } else {
                d
            }
        })
        .sum();
    check(last(n) == letter_at("ABCDEFGHIJKLMNOPQRSTUVWXYZ", sum % 26))
}

/// CZ (DIČ): 8 digits for a legal person (not starting 9; weights 8…2,
/// check (11 − sum) mod 11, 0 read as 1, mod 10), 9 digits starting 6 for
/// an individual without a birth number, or a 9- or 10-digit birth number.
pub fn czechia(n: &str) -> Result<(), Fault> {
    format(is_digits(n))?;
    match n.len() {
        8 => {
            format(!n.starts_with('9'))?;
            let c = (11 - weighted(n, &[8, 7, 6, 5, 4, 3, 2])).rem_euclid(11);
            check(ends_with_digit(n, if c == 0 { 1 } else { c } % 10))
        }
        9 if n.starts_with('6') => {
            let sum = weighted(part(n, 1, 8), &[8, 7, 6, 5, 4, 3, 2]) % 11;
            check(ends_with_digit(
                n,
                (8 - (10 - sum).rem_euclid(11)).rem_euclid(10),
            ))
        }
        9 | 10 => birth_number(n),
        _ => Err(Fault::Format),
    }
}

/// A Czech or Slovak birth number (rodné číslo): YYMMDD (the month +20, +50
/// or +70), then 3 digits (born before 1954) or 4 digits, the 10-digit form
/// a multiple of 11 (its first 9 digits mod 11 mod 10 are the last).
fn birth_number(n: &str) -> Result<(), Fault> {
    let mut year = 1900 + number(part(n, 0, 2));
    let month = number(part(n, 2, 4)) % 50 % 20;
    if n.len() == 9 {
        if year >= 1980 {
            year -= 100;
        }
        format(year <= 1953)?;
    } else if year < 1954 {
        year += 100;
    }
    format(is_date(year, month, number(part(n, 4, 6))))?;
    if n.len() == 10 {
        check(ends_with_digit(n, number(part(n, 0, 9)) % 11 % 10))
    } else {
        Ok(())
    }
}

/// DE (USt-IdNr.): 9 digits, not starting 0, ISO 7064 MOD 11,10.
pub fn germany(n: &str) -> Result<(), Fault> {
    format(is_digits(n) && !n.starts_with('0') && n.len() == 9)?;
    check(mod_11_10(n) == 1)
}

/// DK (CVR): 8 digits, not starting 0, weights 2, 7, 6, 5, 4, 3, 2, 1,
/// sum mod 11 is 0.
pub fn denmark(n: &str) -> Result<(), Fault> {
    format(is_digits(n) && !n.starts_with('0') && n.len() == 8)?;
    check(weighted(n, &[2, 7, 6, 5, 4, 3, 2, 1]) % 11 == 0)
}

/// EE (KMKR): 9 digits, weights 3, 7, 1 repeating, sum mod 10 is 0.
pub fn estonia(n: &str) -> Result<(), Fault> {
    format(is_digits(n) && n.len() == 9)?;
    check(weighted(n, &[3, 7, 1, 3, 7, 1, 3, 7, 1]) % 10 == 0)
}

/// EL: 9 digits (an 8-digit number gains a leading 0), weights 256 … 2 on
/// the first 8, sum mod 11 mod 10 is the 9th.
pub fn greece(n: &str) -> Result<(), Fault> {
    format(is_digits(n) && n.len() == 9)?;
    let sum = weighted(n, &[256, 128, 64, 32, 16, 8, 4, 2]);
    check(ends_with_digit(n, sum % 11 % 10))
}

/// The control letters of a Spanish DNI and NIE, indexed by number mod 23.
const DNI_LETTERS: &str = "TRWAGMYFPDXBNJZSQVHLCKE";

/// ES: 9 characters, 7 digits in the middle. A DNI (8 digits and a letter),
/// a NIE (X, Y or Z for 0, 1, 2, then 7 digits and a letter), a K, L or M
/// id (the letter of the 7 digits), the letter always DNI_LETTERS[number
/// mod 23]; or a CIF (an organisation letter, 7 digits, the Luhn digit of
/// the 7 or its letter "JABCDEFGHI"[digit]).
pub fn spain(n: &str) -> Result<(), Fault> {
    let middle = part(n, 1, n.len().saturating_sub(1));
    format(is_digits(middle) && n.len() == 9)?;
    let letter = |number: i64| letter_at(DNI_LETTERS, number % 23);
    match n.bytes().next() {
        Some(b'K' | b'L' | b'M') => check(last(n) == letter(number(middle))),
        Some(first @ b'0'..=b'9') => {
            check(last(n) == letter(value(first) * 10_000_000 + number(middle)))
        }
        Some(first @ (b'X' | b'Y' | b'Z')) => {
            check(last(n) == letter(i64::from(first - b'X') * 10_000_000 + number(middle)))
        }
        Some(first) if b"ABCDEFGHJNPQRSUVW".contains(&first) => {
            let c = luhn_digit(middle);
            check(ends_with_digit(n, c) || last(n) == letter_at("JABCDEFGHI", c))
        }
        _ => Err(Fault::Format),
    }
}

/// FI (ALV): 8 digits, weights 7, 9, 10, 5, 8, 4, 2, 1, sum mod 11 is 0.
pub fn finland(n: &str) -> Result<(), Fault> {
    format(is_digits(n) && n.len() == 8)?;
    check(weighted(n, &[7, 9, 10, 5, 8, 4, 2, 1]) % 11 == 0)
}

/// The characters a French key may have: digits and letters except I and O.
const FRENCH_KEY: &str = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ";

/// FR: a 2-character key and 9 digits, the SIREN (Luhn) unless they start
/// 000. A numeric key is (SIREN × 100 + 12) mod 97; a key with a letter
/// encodes a number c (digit first: 24 × i0 + i1 − 10, letter first:
/// 34 × i0 + i1 − 100, i the key characters' positions) with
/// (SIREN + 1 + c div 11) mod 11 = c mod 11.
pub fn france(n: &str) -> Result<(), Fault> {
    let key = part(n, 0, 2);
    let siren = part(n, 2, n.len());
    format(all_in(key, FRENCH_KEY) && is_digits(siren) && n.len() == 11)?;
    if !siren.starts_with("000") {
        check(luhn(siren) == 0)?;
    }
    if is_digits(n) {
        return check(number(key) == (number(siren) * 100 + 12) % 97);
    }
    let (Some(&k0), Some(&k1)) = (key.as_bytes().first(), key.as_bytes().get(1)) else {
        return Err(Fault::Format);
    };
    let (i0, i1) = (index_in(FRENCH_KEY, k0), index_in(FRENCH_KEY, k1));
    let c = if k0.is_ascii_digit() {
        i0 * 24 + i1 - 10
    } else {
        i0 * 34 + i1 - 100
    };
    check((number(siren) + 1 + c.div_euclid(11)).rem_euclid(11) == c.rem_euclid(11))
}

/// HR (OIB): 11 digits, ISO 7064 MOD 11,10.
pub fn croatia(n: &str) -> Result<(), Fault> {
    format(is_digits(n) && n.len() == 11)?;
    check(mod_11_10(n) == 1)
}

/// HU (ANUM): 8 digits, weights 9, 7, 3, 1 repeating, sum mod 10 is 0.
pub fn hungary(n: &str) -> Result<(), Fault> {
    format(is_digits(n) && n.len() == 8)?;
    check(weighted(n, &[9, 7, 3, 1, 9, 7, 3, 1]) % 10 == 0)
}

/// The Irish check letters, indexed by sum mod 23.
const IRISH_LETTERS: &str = "WABCDEFGHIJKLMNOPQRSTUV";

/// IE: 7 digits, a check letter and optionally a second letter (W, A…V;
/// it counts 9 × its position); or the old form: a digit, a letter, + or *,
/// 5 digits and the check letter, read as 0, the 5 digits and the first
/// digit. Weights 8 … 2 on the 7 digits, sum mod 23 as a letter.
pub fn ireland(n: &str) -> Result<(), Fault> {
    format(is_digits(part(n, 0, 1)) && is_digits(part(n, 2, 7)))?;
    format(all_in(part(n, 7, n.len()), IRISH_LETTERS) && (n.len() == 8 || n.len() == 9))?;
    let check_letter = |seven: &str, second: &str| {
        let second = second
            .bytes()
            .next()
            .map_or(0, |b| index_in(IRISH_LETTERS, b));
        letter_at(
            IRISH_LETTERS,
            (weighted(seven, &[8, 7, 6, 5, 4, 3, 2]) + 9 * second) % 23,
        )
    };
    let given = n.as_bytes().get(7).copied();
    if is_digits(part(n, 0, 7)) {
        check(given == check_letter(part(n, 0, 7), part(n, 8, 9)))
    } else if n
        .as_bytes()
        .get(1)
        .is_some_and(|b| b.is_ascii_uppercase() || *b == b'+' || *b == b'*')
    {
        let seven = format!("0{}{}", part(n, 2, 7), part(n, 0, 1));
        check(given == check_letter(&seven, ""))
    } else {
        Err(Fault::Format)
    }
}

/// IT (partita IVA): 11 digits, the first 7 not all zero, the office code
/// (digits 8 to 10) 001 to 100, 120, 121, 888 or 999, Luhn over all.
pub fn italy(n: &str) -> Result<(), Fault> {
    format(is_digits(n) && !is_zero(part(n, 0, 7)) && n.len() == 11)?;
    let office = number(part(n, 7, 10));
    format((1..=100).contains(&office) || [120, 121, 888, 999].contains(&office))?;
    check(luhn(n) == 0)
}

/// LT (PVM): 9 digits with a 1 as the 8th, or 12 with a 1 as the 11th;
/// weights 1 … 9, 1, 2 (or, when that gives 10, 3 … 9, 1 … 4) mod 11 mod 10.
pub fn lithuania(n: &str) -> Result<(), Fault> {
    format(is_digits(n))?;
    let one_at = match n.len() {
        9 => 7,
        12 => 10,
        _ => return Err(Fault::Format),
    };
    format(n.as_bytes().get(one_at) == Some(&b'1'))?;
    let body = all_but_last(n, 1);
    let mut sum = weighted(body, &[1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2]) % 11;
    if sum == 10 {
        sum = weighted(body, &[3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4]);
    }
    check(ends_with_digit(n, sum % 11 % 10))
}

/// LU: 8 digits; the first 6 as a number mod 89 are the last 2.
pub fn luxembourg(n: &str) -> Result<(), Fault> {
    format(is_digits(n) && n.len() == 8)?;
    check(number(part(n, 0, 6)) % 89 == number(part(n, 6, 8)))
}

/// LV (PVN): 11 digits. A legal person (first digit above 3): weights 9, 1,
/// 4, 8, 3, 10, 2, 5, 7, 6, 1, sum mod 11 is 3. A person: a birth date
/// DDMMYY with the century digit (or a code starting 32), and 1 + weights
/// 10, 5, 8, 4, 2, 1, 6, 3, 7, 9 mod 11 mod 10 as the last digit.
pub fn latvia(n: &str) -> Result<(), Fault> {
    format(is_digits(n) && n.len() == 11)?;
    if n.as_bytes().first().is_some_and(|&b| b > b'3') {
        return check(weighted(n, &[9, 1, 4, 8, 3, 10, 2, 5, 7, 6, 1]) % 11 == 3);
    }
    if !n.starts_with("32") {
        let year = number(part(n, 4, 6)) + 1800 + number(part(n, 6, 7)) * 100;
        format(is_date(year, number(part(n, 2, 4)), number(part(n, 0, 2))))?;
    }
    let sum = 1 + weighted(n, &[10, 5, 8, 4, 2, 1, 6, 3, 7, 9]);
    check(ends_with_digit(n, sum % 11 % 10))
}

/// MT: 8 digits, not starting 0, weights 3, 4, 6, 7, 8, 9, 10, 1, sum mod 37
/// is 0.
pub fn malta(n: &str) -> Result<(), Fault> {
    format(is_digits(n) && !n.starts_with('0') && n.len() == 8)?;
    check(weighted(n, &[3, 4, 6, 7, 8, 9, 10, 1]) % 37 == 0)
}

/// NL: 9 digits (shorter ones gain leading zeros), "B", 2 digits not 00.
/// Valid when the 9 digits pass the elfproef of a BSN / RSIN (weights 9 … 2
/// and −1, sum mod 11 is 0), or when the whole id "NL…B…" (the btw-id of a
/// sole trader) passes ISO 7064 MOD 97-10.
pub fn netherlands(n: &str) -> Result<(), Fault> {
    let nine = part(n, 0, 9);
    let branch = part(n, 10, n.len());
    format(is_digits(nine) && !is_zero(nine) && is_digits(branch) && !is_zero(branch))?;
    format(n.len() == 12 && n.as_bytes().get(9) == Some(&b'B'))?;
    let elfproef = weighted(nine, &[9, 8, 7, 6, 5, 4, 3, 2, -1]).rem_euclid(11) == 0;
    check(elfproef || mod_97_10(&format!("NL{n}")) == 1)
}

/// PL (NIP): 10 digits, weights 6, 5, 7, 2, 3, 4, 5, 6, 7, −1, sum mod 11
/// is 0.
pub fn poland(n: &str) -> Result<(), Fault> {
    format(is_digits(n) && n.len() == 10)?;
    check(weighted(n, &[6, 5, 7, 2, 3, 4, 5, 6, 7, -1]).rem_euclid(11) == 0)
}

/// PT (NIF): 9 digits, not starting 0; weights 9 … 2, check
/// (11 − sum) mod 11 mod 10.
pub fn portugal(n: &str) -> Result<(), Fault> {
    format(is_digits(n) && !n.starts_with('0') && n.len() == 9)?;
    let sum = weighted(n, &[9, 8, 7, 6, 5, 4, 3, 2]);
    check(ends_with_digit(n, (11 - sum).rem_euclid(11) % 10))
}

/// The Romanian counties a CNP may name.
const ROMANIAN_COUNTIES: [i64; 55] = [
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,
    27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 51, 52,
    70, 80, 81, 82, 83,
];

/// RO: a CUI of 2 to 10 digits, not starting 0 (weights 7, 5, 3, 2, 1, 7,
/// 5, 3, 2 right-aligned, check 10 × sum mod 11 mod 10), or a person's
/// 13-digit CNP (sex and century, birth date, county, weights 2, 7, 9, 1,
/// 4, 6, 3, 5, 8, 2, 7, 9 mod 11, 10 read as 1).
pub fn romania(n: &str) -> Result<(), Fault> {
    match n.len() {
        13 => {
            format(is_digits(n) && !n.starts_with('0'))?;
            let century = match n.as_bytes().first() {
                Some(b'3' | b'4') => 1800,
                Some(b'5' | b'6') => 2000,
                _ => 1900,
            };
            let year = century + number(part(n, 1, 3));
            format(is_date(year, number(part(n, 3, 5)), number(part(n, 5, 7))))?;
            let county = number(part(n, 7, 9));
            format(ROMANIAN_COUNTIES.contains(&county))?;
            let sum = weighted(n, &[2, 7, 9, 1, 4, 6, 3, 5, 8, 2, 7, 9]) % 11;
            check(ends_with_digit(n, if sum == 10 { 1 } else { sum }))
        }
        2..=10 => {
            format(is_digits(n) && !n.starts_with('0'))?;
            let body = all_but_last(n, 1);
            let weights = [7, 5, 3, 2, 1, 7, 5, 3, 2];
            let sum: i64 = values(body)
                .rev()
                .zip(weights.iter().rev())
                .map(|(d, w)| d * w)
                .sum();
            check(ends_with_digit(n, 10 * sum % 11 % 10))
        }
        _ => Err(Fault::Format),
    }
}

/// SE: the 10-digit organisation number (Luhn) and "01".
pub fn sweden(n: &str) -> Result<(), Fault> {
    format(is_digits(n) && n.ends_with("01") && n.len() == 12)?;
    check(luhn(part(n, 0, 10)) == 0)
}

/// SI (DDV): 8 digits, not starting 0; weights 8 … 2, check 11 − sum mod 11,
/// 10 read as 0 and 11 never valid.
pub fn slovenia(n: &str) -> Result<(), Fault> {
    format(is_digits(n) && !n.starts_with('0') && n.len() == 8)?;
    let c = 11 - weighted(n, &[8, 7, 6, 5, 4, 3, 2]) % 11;
    check(ends_with_digit(n, if c == 10 { 0 } else { c }))
}

/// SK (IČ DPH): 10 digits, a birth number or a number not starting 0 whose
/// third digit is 2, 3, 4, 7, 8 or 9, a multiple of 11.
pub fn slovakia(n: &str) -> Result<(), Fault> {
    format(is_digits(n) && n.len() == 10)?;
    if birth_number(n).is_ok() {
        return Ok(());
    }
    let third = n.as_bytes().get(2).copied().map_or(0, value);
    format(!n.starts_with('0') && [2, 3, 4, 7, 8, 9].contains(&third))?;
    check(number(n) % 11 == 0)
}

/// GB and XI: 9 digits (or 12, a branch's 3 more) with weights 8 … 2, 10, 1
/// mod 97 being 0 (or, from 100 on, 42 or 55); a government department GD
/// and 3 digits below 500; a health authority HA and 3 digits from 500; or
/// either as GD8888/HA8888, the 3 digits and their value mod 97.
pub fn united_kingdom(n: &str) -> Result<(), Fault> {
    let departments = |code: &str| {
        let value = number(code);
        (n.starts_with("GD") && value < 500) || (n.starts_with("HA") && value >= 500)
    };
    match n.len() {
        5 => {
            format(is_digits(part(n, 2, 5)))?;
            format(departments(part(n, 2, 5)))
        }
        11 if n.starts_with("GD8888") || n.starts_with("HA8888") => {
            format(is_digits(part(n, 6, 11)))?;
            format(departments(part(n, 6, 9)))?;
            check(number(part(n, 6, 9)) % 97 == number(part(n, 9, 11)))
        }
        9 | 12 => {
            format(is_digits(n))?;
            let sum = weighted(part(n, 0, 9), &[8, 7, 6, 5, 4, 3, 2, 10, 1]) % 97;
            if number(part(n, 0, 3)) >= 100 {
                check([0, 42, 55].contains(&sum))
            } else {
                check(sum == 0)
            }
        }
        _ => Err(Fault::Format),
    }
}

/// CH: the UID "E" (of CHE) and 9 digits, weights 5, 4, 3, 2, 7, 6, 5, 4,
/// check (11 − sum) mod 11 (10 never valid), then MWST, TVA, IVA or TPV.
pub fn switzerland(n: &str) -> Result<(), Fault> {
    format(n.len() == 13 || n.len() == 14)?;
    format(n.starts_with('E') && is_digits(part(n, 1, 10)))?;
    format(["MWST", "TVA", "IVA", "TPV"].contains(&part(n, 10, n.len())))?;
    let digits = part(n, 1, 10);
    let sum = weighted(digits, &[5, 4, 3, 2, 7, 6, 5, 4]);
    check(ends_with_digit(digits, (11 - sum).rem_euclid(11)))
}

/// NO: the 9-digit organisation number (weights 3, 2, 7, 6, 5, 4, 3, 2, 1,
/// sum mod 11 is 0) and "MVA".
pub fn norway(n: &str) -> Result<(), Fault> {
    let organisation = all_but_last(n, 3);
    format(n.ends_with("MVA") && is_digits(organisation) && organisation.len() == 9)?;
    check(weighted(organisation, &[3, 2, 7, 6, 5, 4, 3, 2, 1]) % 11 == 0)
}
