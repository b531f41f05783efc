//! How a person reads and types amounts and dates, in German or English: the
//! one formatter the screens and the documents use. Amounts go from minor
//! units and the currency's exponent to text (`1.234,56 €`, `€1,234.56`) and
//! back, with integers only; dates are `23.11.2026` and `23 Nov 2026`. A
//! typed amount that could be read two ways, or has more decimals than the
//! currency, is refused with a sentence rather than guessed. A seller's
//! documents are in German in the German-speaking countries and in English
//! elsewhere (`Lang::of_seller`). Pure.

use jiff::civil::Date;

use crate::error::said::{Figure, Input, Sum};
use crate::error::{Error, Result};
use crate::rules::iso::Currency;
use crate::rules::money::Decimal;

/// The largest amount, in minor units, any book holds (as `money` bounds it).
const MAX_MINOR: i128 = 1_000_000_000_000_000;

/// A non-breaking space: an amount and its currency stay on one line.
const NBSP: char = '\u{a0}';

/// The languages of the screens and documents (the type is the error's,
/// whose messages are worded in them).
pub use crate::error::Lang;

impl Lang {
    /// The language tags a person may choose, as `code` gives them.
    pub const CODES: [&'static str; 2] = ["de", "en"];

    /// The language tag (`de`, `en`), as `lang` attributes and stored choices carry it.
    pub fn code(self) -> &'static str {
        match self {
            Lang::De => "de",
            Lang::En => "en",
        }
    }

    /// The language of a tag such as `de`, `de-AT` or `en-GB` (any case).
    pub fn from_code(tag: &str) -> Option<Lang> {
        let primary = tag.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        match primary.as_str() {
            "de" => Some(Lang::De),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    /// The language a browser prefers by its `Accept-Language` header, among
    /// German and English, by quality (the first listed wins a tie); English
    /// when it names neither.
    pub fn from_accept_language(header: Option<&str>) -> Lang {
        let mut best: Option<(u16, Lang)> = None;
        for part in header.unwrap_or("").split(',') {
            let mut pieces = part.split(';');
            let Some(lang) = pieces.next().and_then(Lang::from_code) else {
                continue;
            };
            let quality = pieces
                .filter_map(|p| p.trim().strip_prefix("q="))
                .map(quality_of)
                .next()
                .unwrap_or(1000);
            if quality > 0 && best.is_none_or(|(q, _)| quality > q) {
                best = Some((quality, lang));
            }
        }
        best.map_or(Lang::En, |(_, lang)| lang)
    }

    /// The language of a seller's documents: German in the German-speaking
    /// countries (`seller_country` an ISO code), English everywhere else.
    pub fn of_seller(seller_country: &str) -> Lang {
        match seller_country {
            "DE" | "AT" | "CH" | "LI" => Lang::De,
            _ => Lang::En,
        }
    }

    /// The English or the German text, for this language.
    pub fn pick<'a>(self, en: &'a str, de: &'a str) -> &'a str {
        match self {
            Lang::En => en,
            Lang::De => de,
        }
    }

    fn decimal_separator(self) -> char {
        match self {
            Lang::De => ',',
            Lang::En => '.',
        }
    }

    fn group_separator(self) -> char {
        match self {
            Lang::De => '.',
            Lang::En => ',',
        }
    }
}

/// A `q=` value in thousandths (`0.8` → 800); unreadable counts as 0.
fn quality_of(text: &str) -> u16 {
    let text = text.trim();
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let whole: u16 = match whole {
        "0" => 0,
        "1" => 1000,
        _ => return 0,
    };
    let mut thousandths = 0u16;
    for (i, c) in fraction.chars().take(3).enumerate() {
        let Some(d) = c.to_digit(10) else { return 0 };
        thousandths += d as u16 * [100, 10, 1][i];
    }
    (whole + thousandths).min(1000)
}

/// The symbol a currency is written with, when it has a common one.
fn symbol(currency: &Currency) -> Option<&'static str> {
    match currency.as_str() {
        "EUR" => Some("€"),
        "USD" => Some("$"),
        "GBP" => Some("£"),
        "JPY" => Some("¥"),
        _ => None,
    }
}

/// `minor` units of a currency with `exponent` decimals as a number in the
/// language's notation, grouped by thousands: `1.234,56` or `1,234.56`
/// (the digits are `money::minor_text`'s).
pub fn number(lang: Lang, minor: i64, exponent: u8) -> String {
    let plain = crate::rules::money::minor_text(minor, exponent, lang.decimal_separator());
    let (sign, unsigned) = match plain.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", plain.as_str()),
    };
    let split = unsigned
        .find(lang.decimal_separator())
        .unwrap_or(unsigned.len());
    let (whole, fraction) = unsigned.split_at(split);
    let mut out = String::with_capacity(plain.len() + whole.len() / 3);
    out.push_str(sign);
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            out.push(lang.group_separator());
        }
        out.push(c);
    }
    out.push_str(fraction);
    out
}

/// An amount as a message carries it (`error::said::Sum`), written in the
/// reader's notation by the catalogue.
pub fn sum(minor: i64, currency: &Currency) -> Sum {
    Sum {
        minor,
        currency: currency.as_str().to_string(),
    }
}

/// An amount as the books' English texts kept with a record name it (a bank
/// line's suggestion, an import's report): `1,234.56 EUR` (grouped, in
/// English notation, with its currency's code). A refusal carries its
/// amount as a `Sum` instead, which the catalogue writes in its reader's
/// notation.
pub fn in_sentence(minor: i64, currency: &Currency) -> String {
    format!(
        "{} {currency}",
        number(Lang::En, minor, currency.exponent())
    )
}

/// An amount for a person: `1.234,56 €` (German) or `€1,234.56` (English);
/// a currency without a common symbol is written by its code (`1.234,56
/// CHF`, `CHF 1,234.56`). The space is a non-breaking one.
pub fn amount(lang: Lang, minor: i64, currency: &Currency) -> String {
    let figure = number(lang, minor.abs(), currency.exponent());
    let sign = if minor < 0 { "-" } else { "" };
    match (lang, symbol(currency)) {
        (Lang::De, Some(sym)) => format!("{sign}{figure}{NBSP}{sym}"),
        (Lang::De, None) => format!("{sign}{figure}{NBSP}{}", currency.as_str()),
        (Lang::En, Some(sym)) => format!("{sign}{sym}{figure}"),
        (Lang::En, None) => format!("{sign}{}{NBSP}{figure}", currency.as_str()),
    }
}

const MONTHS_EN: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

const MONTHS_DE: [&str; 12] = [
    "Jan", "Feb", "Mär", "Apr", "Mai", "Jun", "Jul", "Aug", "Sep", "Okt", "Nov", "Dez",
];

/// A month's short name: `Mar` (English) or `Mär` (German).
pub fn month_short(lang: Lang, date: Date) -> &'static str {
    let i = (date.month() - 1) as usize;
    match lang {
        Lang::De => MONTHS_DE[i],
        Lang::En => MONTHS_EN[i],
    }
}

/// A calendar month for a person: `Mar 2026` (English) or `Mär 2026` (German).
pub fn month(lang: Lang, date: Date) -> String {
    format!("{} {:04}", month_short(lang, date), date.year())
}

/// A calendar date for a person: `23.11.2026` (German) or `23 Nov 2026` (English).
pub fn date(lang: Lang, date: Date) -> String {
    match lang {
        Lang::De => format!("{:02}.{:02}.{:04}", date.day(), date.month(), date.year()),
        Lang::En => format!(
            "{} {} {:04}",
            date.day(),
            MONTHS_EN[(date.month() - 1) as usize],
            date.year()
        ),
    }
}

/// Whether `text` is digits grouped by thousands with `separator`: one to
/// three digits, then groups of exactly three.
fn grouped(text: &str, separator: char) -> bool {
    let mut groups = text.split(separator);
    let first = groups.next().unwrap_or("");
    (1..=3).contains(&first.len())
        && first.bytes().all(|b| b.is_ascii_digit())
        && groups.all(|g| g.len() == 3 && g.bytes().all(|b| b.is_ascii_digit()))
}

/// A number as a person typed it, read in the language's notation: its
/// sign, its whole digits (separators gone), its fraction digits, and how
/// many thousands separators it had.
struct Typed {
    negative: bool,
    whole: String,
    fraction: String,
    groups: usize,
}

/// Reads `text` as a number in the language's notation (`1.234,56` /
/// `1,234.56`, spaces grouping thousands, an optional leading minus);
/// `example` is how the refusal says to write it.
///
/// Fails with `Invalid` naming `field` when the text is empty or is not a
/// number in that notation (the other notation's decimal point is named as
/// such).
fn read_typed(lang: Lang, figure: Figure, field: &str, text: &str, example: &str) -> Result<Typed> {
    let refuse = |what: Input| Err(Error::invalid(field, what));
    let example = example.to_string();
    let text = text.trim();
    if text.is_empty() {
        return refuse(Input::Missing);
    }
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest.trim_start()),
        None => (false, text),
    };
    // Spaces group thousands as well as the separator does.
    let group = lang.group_separator();
    let decimal = lang.decimal_separator();
    let unified: String = unsigned
        .chars()
        .map(|c| {
            if c == ' ' || c == NBSP || c == '\u{202f}' {
                group
            } else {
                c
            }
        })
        .collect();
    if let Some(bad) = unified
        .chars()
        .find(|c| !c.is_ascii_digit() && *c != group && *c != decimal)
    {
        return refuse(Input::NotAFigureChar {
            figure,
            bad,
            example,
        });
    }
    let (whole, fraction) = match unified.split_once(decimal) {
        Some((_, rest)) if rest.contains(decimal) || rest.contains(group) => {
            return refuse(Input::DecimalSeparatorTwice {
                figure,
                separator: decimal,
                example,
            })
        }
        Some((whole, fraction)) => (whole, fraction),
        None => (unified.as_str(), ""),
    };
    if whole.is_empty() {
        return refuse(Input::NotAFigure { figure, example });
    }
    if whole.contains(group) && !grouped(whole, group) {
        // `12.5` in German or `12,50` in English: the other notation's decimal point.
        return refuse(Input::OtherNotation {
            figure,
            notation: lang,
            example,
        });
    }
    if unified.ends_with(decimal) {
        return refuse(Input::EndsWithSeparator { example });
    }
    Ok(Typed {
        negative,
        whole: whole.chars().filter(|c| *c != group).collect(),
        fraction: fraction.to_string(),
        groups: whole.matches(group).count(),
    })
}

/// An amount as a person typed it, in minor units of `currency`: `1.234,56`
/// or `1234,56` in German, `1,234.56` or `1234.56` in English, an optional
/// leading minus, spaces allowed as thousands separators. Integers only.
///
/// Fails with `Invalid` naming `field` when the text is empty, is not a
/// number in the language's notation (the other notation's decimal point is
/// named as such), could be read two ways (`1,234` in English for a currency
/// with three decimals), has more decimals than the currency, or exceeds
/// 10^15 minor units.
pub fn parse_amount(lang: Lang, field: &str, text: &str, currency: &Currency) -> Result<i64> {
    let exponent = currency.exponent() as usize;
    let example = amount_example(lang, exponent);
    let refuse = |what: Input| Err(Error::invalid(field, what));
    let typed = read_typed(lang, Figure::Amount, field, text, &example)?;
    if typed.fraction.is_empty() && typed.groups == 1 && exponent >= 3 {
        return refuse(Input::TwoReadings {
            separator: lang.decimal_separator(),
            example,
        });
    }
    if typed.fraction.len() > exponent {
        return refuse(match exponent {
            0 => Input::NoMinorUnit {
                currency: currency.as_str().to_string(),
            },
            n => Input::MoreDecimalsThanCurrency {
                places: typed.fraction.len(),
                currency: currency.as_str().to_string(),
                has: n as u8,
            },
        });
    }
    let mut minor: i128 = 0;
    let digits = typed
        .whole
        .chars()
        .chain(typed.fraction.chars())
        .chain(std::iter::repeat_n('0', exponent - typed.fraction.len()));
    for c in digits {
        minor = minor * 10 + i128::from(c.to_digit(10).unwrap_or(0));
        if minor > MAX_MINOR {
            return refuse(Input::AmountTooLarge);
        }
    }
    let minor = if typed.negative { -minor } else { minor };
    i64::try_from(minor).or_else(|_| refuse(Input::AmountTooLarge))
}

/// A quantity or a rate as a person typed it, exact: `1,5`, `0,25` or
/// `1.000` in German, `1.5`, `0.25` or `1,000` in English, an optional
/// leading minus, spaces allowed as thousands separators.
///
/// Fails with `Invalid` naming `field` when the text is empty, is not a
/// number in the language's notation (the other notation's decimal point is
/// named as such), has more than six decimals, or is a billion or more.
pub fn parse_decimal(lang: Lang, field: &str, text: &str) -> Result<Decimal> {
    let example = match lang {
        Lang::De => "1.234,5",
        Lang::En => "1,234.5",
    };
    let typed = read_typed(lang, Figure::Number, field, text, example)?;
    let sign = if typed.negative { "-" } else { "" };
    let canonical = if typed.fraction.is_empty() {
        format!("{sign}{}", typed.whole)
    } else {
        format!("{sign}{}.{}", typed.whole, typed.fraction)
    };
    Decimal::parse(field, &canonical)
}

/// An exact decimal for a person, in the language's notation and grouped by
/// thousands: `1.234,5` (German), `1,234.5` (English); as many decimals as
/// it has.
pub fn decimal(lang: Lang, value: &Decimal) -> String {
    let text = value.to_string();
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.as_str()),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let exponent = u8::try_from(fraction.len()).unwrap_or(u8::MAX);
    match format!("{whole}{fraction}").parse::<i64>() {
        Ok(units) if exponent <= 18 => {
            let number = number(lang, units, exponent);
            if negative {
                format!("-{number}")
            } else {
                number
            }
        }
        _ => text,
    }
}

/// How an amount is typed in this language, for the sentences of a
/// refusal: 123,456 whole units and, where the currency has decimals, .78.
fn amount_example(lang: Lang, exponent: usize) -> String {
    let exponent = exponent.min(4) as u32;
    let fraction = match exponent {
        0 => 0,
        1 => 7,
        e => 78 * 10i64.pow(e - 2),
    };
    number(
        lang,
        123_456 * 10i64.pow(exponent) + fraction,
        exponent as u8,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sellers_documents_are_in_the_language_of_its_country() {
        assert_eq!(Lang::of_seller("DE"), Lang::De);
        assert_eq!(Lang::of_seller("CH"), Lang::De);
        assert_eq!(Lang::of_seller("FR"), Lang::En);
    }

    #[test]
    fn decimals_are_written_in_the_languages_notation() {
        let d = |text| Decimal::parse("d", text).unwrap();
        assert_eq!(decimal(Lang::De, &d("1234.5")), "1.234,5");
        assert_eq!(decimal(Lang::En, &d("-0.125")), "-0.125");
        assert_eq!(decimal(Lang::De, &d("19")), "19");
    }

    fn eur() -> Currency {
        Currency::parse("c", "EUR").unwrap()
    }

    fn code(c: &str) -> Currency {
        Currency::parse("c", c).unwrap()
    }

    #[test]
    fn amounts_are_written_in_the_persons_notation() {
        assert_eq!(amount(Lang::De, 123_456, &eur()), "1.234,56\u{a0}€");
        assert_eq!(amount(Lang::En, 123_456, &eur()), "€1,234.56");
        assert_eq!(amount(Lang::De, -5, &eur()), "-0,05\u{a0}€");
        assert_eq!(amount(Lang::En, -5, &eur()), "-€0.05");
        assert_eq!(amount(Lang::De, 0, &eur()), "0,00\u{a0}€");
        assert_eq!(amount(Lang::En, 100_000_000, &eur()), "€1,000,000.00");
        assert_eq!(amount(Lang::De, 1_234, &code("JPY")), "1.234\u{a0}¥");
        assert_eq!(
            amount(Lang::En, 1_234_567, &code("BHD")),
            "BHD\u{a0}1,234.567"
        );
        assert_eq!(amount(Lang::De, 99, &code("CHF")), "0,99\u{a0}CHF");
        assert_eq!(number(Lang::De, 100, 2), "1,00");
        assert_eq!(number(Lang::En, 999_999, 2), "9,999.99");
    }

    #[test]
    fn dates_are_written_in_the_persons_notation() {
        let d = Date::new(2026, 11, 23).unwrap();
        assert_eq!(date(Lang::De, d), "23.11.2026");
        assert_eq!(date(Lang::En, d), "23 Nov 2026");
        assert_eq!(date(Lang::De, Date::new(2027, 1, 5).unwrap()), "05.01.2027");
        assert_eq!(date(Lang::En, Date::new(2027, 1, 5).unwrap()), "5 Jan 2027");
    }

    #[test]
    fn typed_amounts_become_minor_units() {
        let de = |t: &str| parse_amount(Lang::De, "amount", t, &eur());
        let en = |t: &str| parse_amount(Lang::En, "amount", t, &eur());
        assert_eq!(de("1.234,56").unwrap(), 123_456);
        assert_eq!(de("1234,56").unwrap(), 123_456);
        assert_eq!(de("1 234,5").unwrap(), 123_450);
        assert_eq!(de(" 12 ").unwrap(), 1_200);
        assert_eq!(de("-0,05").unwrap(), -5);
        assert_eq!(de("1.234").unwrap(), 123_400);
        assert_eq!(en("1,234.56").unwrap(), 123_456);
        assert_eq!(en("1234.5").unwrap(), 123_450);
        assert_eq!(en("1,000,000").unwrap(), 100_000_000);
        assert_eq!(en("0.99").unwrap(), 99);
        assert_eq!(
            parse_amount(Lang::En, "a", "1,234", &code("JPY")).unwrap(),
            1_234
        );
        assert_eq!(
            parse_amount(Lang::De, "a", "1,234", &code("BHD")).unwrap(),
            1_234
        );
    }

    #[test]
    fn unreadable_or_ambiguous_amounts_are_refused_with_a_sentence() {
        let de = |t: &str| {
            parse_amount(Lang::De, "amount", t, &eur())
                .unwrap_err()
                .sentence()
        };
        let en = |t: &str| {
            parse_amount(Lang::En, "amount", t, &eur())
                .unwrap_err()
                .sentence()
        };
        assert_eq!(de(""), "The field amount is missing.");
        assert_eq!(
            de("12.50"),
            "The field amount cannot be read: in German amounts the decimal separator is a comma and the point groups thousands (write it like 123.456,78)."
        );
        assert_eq!(
            en("12,50"),
            "The field amount cannot be read: in English amounts the decimal separator is a point and the comma groups thousands (write it like 123,456.78)."
        );
        assert_eq!(
            de("1,234"),
            "The field amount has 3 decimal places, but EUR has 2."
        );
        assert_eq!(
            de("1,2,3"),
            "The field amount is not an amount: the decimal separator ',' comes once, after the thousands (write it like 123.456,78)."
        );
        assert_eq!(
            de("1,234.5"),
            "The field amount is not an amount: the decimal separator ',' comes once, after the thousands (write it like 123.456,78)."
        );
        assert_eq!(
            en("12€"),
            "The field amount is not an amount: '€' is neither a digit nor a separator (write it like 123,456.78)."
        );
        assert_eq!(
            en("5."),
            "The field amount ends with a decimal separator (write it like 123,456.78)."
        );
        assert_eq!(en(",5"), "The field amount cannot be read: in English amounts the decimal separator is a point and the comma groups thousands (write it like 123,456.78).");
        assert_eq!(
            en(".5"),
            "The field amount is not an amount (write it like 123,456.78)."
        );
        assert_eq!(
            parse_amount(Lang::En, "net", "1,234", &code("BHD")).unwrap_err().sentence(),
            "The field net could mean two amounts; write the decimals with '.' (like 123,456.780) or leave out the thousands separator."
        );
        assert_eq!(
            parse_amount(Lang::En, "net", "5.5", &code("JPY"))
                .unwrap_err()
                .sentence(),
            "The field net has decimals, but JPY has no minor unit."
        );
        assert_eq!(
            en("99999999999999999999"),
            "The field amount is larger than any amount kontor keeps."
        );
        assert_eq!(en("１２"), "The field amount is not an amount: '１' is neither a digit nor a separator (write it like 123,456.78).");
    }

    #[test]
    fn typed_quantities_and_rates_are_exact_decimals() {
        let de = |t: &str| parse_decimal(Lang::De, "quantity", t).unwrap().to_string();
        let en = |t: &str| parse_decimal(Lang::En, "quantity", t).unwrap().to_string();
        assert_eq!(de("1,5"), "1.5");
        assert_eq!(de("0,25"), "0.25");
        assert_eq!(de("19"), "19");
        assert_eq!(de("5,5"), "5.5");
        assert_eq!(de("1.000"), "1000");
        assert_eq!(de("1.234,125"), "1234.125");
        assert_eq!(de("1 234,5"), "1234.5");
        assert_eq!(de("-0,5"), "-0.5");
        assert_eq!(de("2,500"), "2.5");
        assert_eq!(en("1.5"), "1.5");
        assert_eq!(en("1,000"), "1000");
        assert_eq!(en("1,234.125"), "1234.125");
        assert_eq!(en("0.000001"), "0.000001");
        assert_eq!(en(" 7 "), "7");
    }

    #[test]
    fn unreadable_quantities_are_refused_with_a_sentence() {
        let de = |t: &str| {
            parse_decimal(Lang::De, "quantity", t)
                .unwrap_err()
                .sentence()
        };
        let en = |t: &str| {
            parse_decimal(Lang::En, "taxRate", t)
                .unwrap_err()
                .sentence()
        };
        assert_eq!(de(""), "The field quantity is missing.");
        assert_eq!(
            de("1.5"),
            "The field quantity cannot be read: in German numbers the decimal separator is a comma and the point groups thousands (write it like 1.234,5)."
        );
        assert_eq!(
            en("5,5"),
            "The field taxRate cannot be read: in English numbers the decimal separator is a point and the comma groups thousands (write it like 1,234.5)."
        );
        assert_eq!(
            en("19%"),
            "The field taxRate is not a number: '%' is neither a digit nor a separator (write it like 1,234.5)."
        );
        assert_eq!(
            de("1,2,3"),
            "The field quantity is not a number: the decimal separator ',' comes once, after the thousands (write it like 1.234,5)."
        );
        assert_eq!(
            de("2,"),
            "The field quantity ends with a decimal separator (write it like 1.234,5)."
        );
        assert_eq!(
            de("0,0000001"),
            "The field quantity has more than 6 decimal places."
        );
        assert_eq!(de("1.000.000.000"), "The field quantity is too large.");
    }

    #[test]
    fn decimals_are_written_in_the_persons_notation_and_read_back() {
        let d = |t: &str| Decimal::parse("x", t).unwrap();
        assert_eq!(decimal(Lang::De, &d("1234.5")), "1.234,5");
        assert_eq!(decimal(Lang::En, &d("1234.5")), "1,234.5");
        assert_eq!(decimal(Lang::De, &d("19")), "19");
        assert_eq!(decimal(Lang::De, &d("-0.125")), "-0,125");
        assert_eq!(decimal(Lang::En, &d("0.000001")), "0.000001");
        for text in ["1234.5", "19", "0.25", "999999999.999999", "-3.5"] {
            for lang in [Lang::De, Lang::En] {
                let shown = decimal(lang, &d(text));
                assert_eq!(
                    parse_decimal(lang, "x", &shown).unwrap(),
                    d(text),
                    "{shown}"
                );
            }
        }
    }

    #[test]
    fn the_browser_chooses_the_language_unless_told() {
        assert_eq!(
            Lang::from_accept_language(Some("de-DE,de;q=0.9,en;q=0.8")),
            Lang::De
        );
        assert_eq!(
            Lang::from_accept_language(Some("en-US,en;q=0.9,de;q=0.8")),
            Lang::En
        );
        assert_eq!(
            Lang::from_accept_language(Some("fr-FR,de;q=0.5,en;q=0.7")),
            Lang::En
        );
        assert_eq!(Lang::from_accept_language(Some("fr, de;q=0.1")), Lang::De);
        assert_eq!(
            Lang::from_accept_language(Some("de;q=0, en;q=0.2")),
            Lang::En
        );
        assert_eq!(Lang::from_accept_language(Some("fr")), Lang::En);
        assert_eq!(Lang::from_accept_language(None), Lang::En);
        assert_eq!(Lang::from_code("de-AT"), Some(Lang::De));
        assert_eq!(Lang::pick(Lang::De, "Customers", "Kunden"), "Kunden");
    }
}
