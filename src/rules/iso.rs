//! The real lists the contract checks against: ISO 3166-1 alpha-2 country codes
//! and ISO 4217 currency codes with their minor-unit exponents. Parsed once at
//! the edge into `CountryCode` and `Currency`, so domain code only ever holds
//! checked codes.

use crate::error::{Error, Result};
use crate::rules::stored_text::stored_text;

/// Every officially assigned ISO 3166-1 alpha-2 code.
const COUNTRIES: &str = "\
AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ \
BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ \
CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ \
DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR \
GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY \
HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP \
KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY \
MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ \
NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY \
QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ \
TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ \
VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW";

/// Whether `code` (two capital letters) is on the list: a binary search over
/// the sorted list's fixed-width entries.
fn is_country(code: &str) -> bool {
    let count = COUNTRIES.len().div_ceil(3);
    let (mut low, mut high) = (0, count);
    while low < high {
        let mid = (low + high) / 2;
        match COUNTRIES[3 * mid..3 * mid + 2].cmp(code) {
            std::cmp::Ordering::Less => low = mid + 1,
            std::cmp::Ordering::Greater => high = mid,
            std::cmp::Ordering::Equal => return true,
        }
    }
    false
}

/// Every active ISO 4217 currency code with its minor-unit exponent
/// (precious metals, testing and "no currency" codes excluded).
const CURRENCIES: &[(&str, u8)] = &[
    ("AED", 2),
    ("AFN", 2),
    ("ALL", 2),
    ("AMD", 2),
    ("AOA", 2),
    ("ARS", 2),
    ("AUD", 2),
    ("AWG", 2),
    ("AZN", 2),
    ("BAM", 2),
    ("BBD", 2),
    ("BDT", 2),
    ("BGN", 2),
    ("BHD", 3),
    ("BIF", 0),
    ("BMD", 2),
    ("BND", 2),
    ("BOB", 2),
    ("BOV", 2),
    ("BRL", 2),
    ("BSD", 2),
    ("BTN", 2),
    ("BWP", 2),
    ("BYN", 2),
    ("BZD", 2),
    ("CAD", 2),
    ("CDF", 2),
    ("CHE", 2),
    ("CHF", 2),
    ("CHW", 2),
    ("CLF", 4),
    ("CLP", 0),
    ("CNY", 2),
    ("COP", 2),
    ("COU", 2),
    ("CRC", 2),
    ("CUP", 2),
    ("CVE", 2),
    ("CZK", 2),
    ("DJF", 0),
    ("DKK", 2),
    ("DOP", 2),
    ("DZD", 2),
    ("EGP", 2),
    ("ERN", 2),
    ("ETB", 2),
    ("EUR", 2),
    ("FJD", 2),
    ("FKP", 2),
    ("GBP", 2),
    ("GEL", 2),
    ("GHS", 2),
    ("GIP", 2),
    ("GMD", 2),
    ("GNF", 0),
    ("GTQ", 2),
    ("GYD", 2),
    ("HKD", 2),
    ("HNL", 2),
    ("HTG", 2),
    ("HUF", 2),
    ("IDR", 2),
    ("ILS", 2),
    ("INR", 2),
    ("IQD", 3),
    ("IRR", 2),
    ("ISK", 0),
    ("JMD", 2),
    ("JOD", 3),
    ("JPY", 0),
    ("KES", 2),
    ("KGS", 2),
    ("KHR", 2),
    ("KMF", 0),
    ("KPW", 2),
    ("KRW", 0),
    ("KWD", 3),
    ("KYD", 2),
    ("KZT", 2),
    ("LAK", 2),
    ("LBP", 2),
    ("LKR", 2),
    ("LRD", 2),
    ("LSL", 2),
    ("LYD", 3),
    ("MAD", 2),
    ("MDL", 2),
    ("MGA", 2),
    ("MKD", 2),
    ("MMK", 2),
    ("MNT", 2),
    ("MOP", 2),
    ("MRU", 2),
    ("MUR", 2),
    ("MVR", 2),
    ("MWK", 2),
    ("MXN", 2),
    ("MXV", 2),
    ("MYR", 2),
    ("MZN", 2),
    ("NAD", 2),
    ("NGN", 2),
    ("NIO", 2),
    ("NOK", 2),
    ("NPR", 2),
    ("NZD", 2),
    ("OMR", 3),
    ("PAB", 2),
    ("PEN", 2),
    ("PGK", 2),
    ("PHP", 2),
    ("PKR", 2),
    ("PLN", 2),
    ("PYG", 0),
    ("QAR", 2),
    ("RON", 2),
    ("RSD", 2),
    ("RUB", 2),
    ("RWF", 0),
    ("SAR", 2),
    ("SBD", 2),
    ("SCR", 2),
    ("SDG", 2),
    ("SEK", 2),
    ("SGD", 2),
    ("SHP", 2),
    ("SLE", 2),
    ("SOS", 2),
    ("SRD", 2),
    ("SSP", 2),
    ("STN", 2),
    ("SVC", 2),
    ("SYP", 2),
    ("SZL", 2),
    ("THB", 2),
    ("TJS", 2),
    ("TMT", 2),
    ("TND", 3),
    ("TOP", 2),
    ("TRY", 2),
    ("TTD", 2),
    ("TWD", 2),
    ("TZS", 2),
    ("UAH", 2),
    ("UGX", 0),
    ("USD", 2),
    ("USN", 2),
    ("UYI", 0),
    ("UYU", 2),
    ("UYW", 4),
    ("UZS", 2),
    ("VED", 2),
    ("VES", 2),
    ("VND", 0),
    ("VUV", 0),
    ("WST", 2),
    ("XAF", 0),
    ("XCD", 2),
    ("XCG", 2),
    ("XOF", 0),
    ("XPF", 0),
    ("YER", 2),
    ("ZAR", 2),
    ("ZMW", 2),
    ("ZWG", 2),
];

/// A checked ISO 3166-1 alpha-2 country code, upper case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountryCode(String);

impl CountryCode {
    /// Reads a country code in any case.
    ///
    /// Fails with `Invalid` naming `field` when it is not an assigned code.
    pub fn parse(field: &str, text: &str) -> Result<CountryCode> {
        let upper = text.trim().to_ascii_uppercase();
        if upper.len() == 2 && is_country(&upper) {
            Ok(CountryCode(upper))
        } else {
            Err(Error::invalid(
                field,
                crate::error::said::Code::NotCountry {
                    got: text.to_string(),
                },
            ))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A checked ISO 4217 currency code, upper case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Currency(String);

impl Currency {
    /// Reads a currency code in any case.
    ///
    /// Fails with `Invalid` naming `field` when it is not an active ISO 4217 code.
    pub fn parse(field: &str, text: &str) -> Result<Currency> {
        let upper = text.trim().to_ascii_uppercase();
        if CURRENCIES
            .binary_search_by(|(code, _)| code.cmp(&upper.as_str()))
            .is_ok()
        {
            Ok(Currency(upper))
        } else {
            Err(Error::invalid(
                field,
                crate::error::said::Input::NotCurrency {
                    got: text.to_string(),
                },
            ))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The number of decimal places of the minor unit (JPY 0, EUR 2, BHD 3).
    pub fn exponent(&self) -> u8 {
        CURRENCIES
            .binary_search_by(|(code, _)| code.cmp(&self.0.as_str()))
            .map_or(2, |i| CURRENCIES[i].1)
    }
}

// Stored codes are read back strictly: a code that is not (or no longer)
// on the list is an error naming where it is, never a default.
stored_text!(CountryCode, "an ISO 3166-1 country code");
stored_text!(Currency, "an ISO 4217 currency code");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_have_their_real_sizes() {
        assert_eq!(COUNTRIES.split(' ').count(), 249);
        // The searches need the lists sorted, every country found.
        assert!(COUNTRIES.split(' ').all(is_country));
        assert!(!is_country("ZZ") && !is_country("AA"));
        assert!(CURRENCIES.windows(2).all(|w| w[0].0 < w[1].0));
        let mut codes: Vec<_> = CURRENCIES.iter().map(|(c, _)| *c).collect();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), CURRENCIES.len());
    }

    #[test]
    fn codes_are_checked_and_normalised() {
        assert_eq!(CountryCode::parse("country", "de").unwrap().as_str(), "DE");
        assert!(CountryCode::parse("country", "XX").is_err());
        assert!(CountryCode::parse("country", "DEU").is_err());
        assert_eq!(Currency::parse("currency", "jpy").unwrap().exponent(), 0);
        assert_eq!(Currency::parse("currency", "EUR").unwrap().exponent(), 2);
        assert_eq!(Currency::parse("currency", "BHD").unwrap().exponent(), 3);
        assert!(Currency::parse("currency", "EURO").is_err());
        assert!(Currency::parse("currency", "XAU").is_err());
    }
}
