//! Unit codes of UN/ECE Recommendation 20 with the Recommendation 21
//! extension, as the EN 16931 code lists (CEN validation artefacts 1.3.16,
//! rule BR-CL-23) accept them for BT-130, and how a person reads the common
//! ones in English or German.

use crate::rules::locale::Lang;
use crate::rules::text::CodeList;

/// Every code, sorted, one a line: the code list as published, kept as
/// data beside this file.
static CODES: CodeList = CodeList::new(include_str!("units.txt"));

/// Whether `code` (exactly, upper case) is on the list.
pub fn known(code: &str) -> bool {
    CODES.contains(code)
}

/// How a person reads a unit code; the code for the ones not listed.
pub fn name(code: &str, lang: Lang) -> &str {
    let (en, de) = match code {
        "C62" | "H87" | "EA" | "XPP" => ("pcs", "Stk."),
        "HUR" => ("h", "Std."),
        "MIN" => ("min", "Min."),
        "DAY" => ("day(s)", "Tag(e)"),
        "WEE" => ("week(s)", "Woche(n)"),
        "MON" => ("month(s)", "Monat(e)"),
        "ANN" => ("year(s)", "Jahr(e)"),
        "LS" => ("lump sum", "pauschal"),
        "SET" => ("set", "Satz"),
        "KGM" => ("kg", "kg"),
        "GRM" => ("g", "g"),
        "TNE" => ("t", "t"),
        "MTR" => ("m", "m"),
        "KMT" => ("km", "km"),
        "MTK" => ("m²", "m²"),
        "MTQ" => ("m³", "m³"),
        "LTR" => ("l", "l"),
        "KWH" => ("kWh", "kWh"),
        _ => return code,
    };
    lang.pick(en, de)
}

#[cfg(test)]
mod tests {
    use crate::rules::locale::Lang;

    #[test]
    fn a_unit_is_named_in_the_language_or_by_its_code() {
        assert_eq!(super::name("HUR", Lang::De), "Std.");
        assert_eq!(super::name("C62", Lang::En), "pcs");
        assert_eq!(super::name("XYZ", Lang::En), "XYZ");
    }

    #[test]
    fn the_list_is_sorted_and_holds_its_codes() {
        let codes = super::CODES.codes();
        assert!(codes.windows(2).all(|w| w[0] < w[1]));
        assert!(codes.len() > 2000 && codes.iter().all(|c| super::known(c)));
        assert!(!super::known("c62") && !super::known(""));
    }
}
