//! Exact money, quantities and rates. Amounts are `i64` counts of minor units
//! of a currency (its ISO 4217 exponent: JPY 0, EUR 2, BHD 3); quantities and
//! rates are exact decimals; every rounding is half away from zero, to the
//! minor unit. A line's net is quantity × unit price; taxes are computed per
//! (name, rate, reason) on the sum of the nets they apply to. No floating
//! point: decimals are integers with a scale, arithmetic is checked `i128`.

use std::fmt;

use serde::Serialize;

use crate::error::said::{Code, Computed, Input};
use crate::error::{Error, Result, Violations};
use crate::rules::iso::Currency;
use crate::rules::text;

/// An exact decimal number: `units / 10^scale`.
#[derive(Debug, Clone, Copy)]
pub struct Decimal {
    units: i128,
    scale: u32,
}

/// Most fraction digits a quantity or rate may have.
const MAX_SCALE: u32 = 6;
/// Largest magnitude of the integer part of a quantity or rate.
const MAX_INTEGER: i128 = 1_000_000_000;

impl Decimal {
    /// Reads a decimal such as `19`, `5.5`, `8.1`, `-0.25` or `1.500`.
    ///
    /// Fails with `Invalid` naming `field` for anything else, more than six
    /// fraction digits, or an integer part of a billion or more.
    pub fn parse(field: &str, text: &str) -> Result<Decimal> {
        let bad = || {
            Error::invalid(
                field,
                Input::NotDecimal {
                    got: text.to_string(),
                },
            )
        };
        let t = text.trim();
        let (negative, digits) = match t.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, t.strip_prefix('+').unwrap_or(t)),
        };
        let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
        let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if int.is_empty()
            || !all_digits(int)
            || !all_digits(frac)
            || (digits.contains('.') && frac.is_empty())
        {
            return Err(bad());
        }
        if frac.len() as u32 > MAX_SCALE {
            return Err(Error::invalid(
                field,
                Input::TooManyPlaces { places: MAX_SCALE },
            ));
        }
        let int_value: i128 = int.trim_start_matches('0').parse().unwrap_or(0);
        if int.len() > 12 || int_value >= MAX_INTEGER {
            return Err(Error::invalid(field, Input::TooLarge));
        }
        let scale = frac.len() as u32;
        let frac_value: i128 = if frac.is_empty() {
            0
        } else {
            frac.parse().map_err(|_| bad())?
        };
        let units = int_value * 10i128.pow(scale) + frac_value;
        Ok(Decimal {
            units: if negative { -units } else { units },
            scale,
        }
        .normalised())
    }

    /// A whole number.
    pub fn from_int(n: i64) -> Decimal {
        Decimal {
            units: n as i128,
            scale: 0,
        }
    }

    fn normalised(mut self) -> Decimal {
        while self.scale > 0 && self.units % 10 == 0 {
            self.units /= 10;
            self.scale -= 1;
        }
        self
    }

    pub fn is_zero(&self) -> bool {
        self.units == 0
    }

    pub fn is_negative(&self) -> bool {
        self.units < 0
    }

    /// Reads a decimal as an outside document writes it (XML Schema's
    /// `xs:decimal`: an optional sign, digits, an optional point and
    /// fraction, surrounding white space), with up to 18 fraction digits
    /// and an integer part below 10^18; `None` for anything else.
    pub fn read_lenient(text: &str) -> Option<Decimal> {
        let t = text.trim();
        let (negative, digits) = match t.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, t.strip_prefix('+').unwrap_or(t)),
        };
        let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
        if (int.is_empty() && frac.is_empty())
            || !int.bytes().all(|b| b.is_ascii_digit())
            || !frac.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let int = int.trim_start_matches('0');
        let frac = frac.trim_end_matches('0');
        if int.len() > 18 || frac.len() > 18 {
            return None;
        }
        let int_value: i128 = if int.is_empty() { 0 } else { int.parse().ok()? };
        let frac_value: i128 = if frac.is_empty() {
            0
        } else {
            frac.parse().ok()?
        };
        let scale = frac.len() as u32;
        let units = int_value * 10i128.pow(scale) + frac_value;
        Some(
            Decimal {
                units: if negative { -units } else { units },
                scale,
            }
            .normalised(),
        )
    }

    /// `minor` units of a currency with `exponent` decimals as a decimal of
    /// whole units (`157080`, 2 → `1570.8`).
    pub fn from_minor(minor: i64, exponent: u8) -> Decimal {
        Decimal {
            units: minor as i128,
            scale: exponent as u32,
        }
        .normalised()
    }

    /// The decimal as minor units of a currency with `exponent` decimals,
    /// when it has no more decimals than that and fits; `None` otherwise.
    pub fn to_minor(&self, exponent: u8) -> Option<i64> {
        let d = self.normalised();
        let exponent = exponent as u32;
        if d.scale > exponent {
            return None;
        }
        let units = d
            .units
            .checked_mul(10i128.checked_pow(exponent - d.scale)?)?;
        i64::try_from(units).ok()
    }

    /// The decimal rounded half away from zero to minor units of a currency
    /// with `exponent` decimals; `None` when it does not fit.
    pub fn round_to_minor(&self, exponent: u8) -> Option<i64> {
        let minor = self.times_int_div(10i128.checked_pow(exponent as u32)?, 1)?;
        i64::try_from(minor).ok()
    }

    /// How many fraction digits the decimal has in its shortest form.
    pub fn decimals(&self) -> u32 {
        self.normalised().scale
    }

    /// `-self`.
    pub fn negated(self) -> Decimal {
        Decimal {
            units: -self.units,
            scale: self.scale,
        }
    }

    /// `self + other`, exactly; `None` past the range of a decimal.
    pub fn plus(self, other: Decimal) -> Option<Decimal> {
        let scale = self.scale.max(other.scale);
        let a = self
            .units
            .checked_mul(10i128.checked_pow(scale - self.scale)?)?;
        let b = other
            .units
            .checked_mul(10i128.checked_pow(scale - other.scale)?)?;
        Some(
            Decimal {
                units: a.checked_add(b)?,
                scale,
            }
            .normalised(),
        )
    }

    /// `self × factor / divisor`, rounded half away from zero to a whole number.
    fn times_int_div(&self, factor: i128, divisor: i128) -> Option<i128> {
        let numerator = self.units.checked_mul(factor)?;
        let denominator = 10i128.checked_pow(self.scale)?.checked_mul(divisor)?;
        Some(round_div(numerator, denominator))
    }
}

impl PartialEq for Decimal {
    fn eq(&self, other: &Decimal) -> bool {
        let (a, b) = (self.normalised(), other.normalised());
        a.units == b.units && a.scale == b.scale
    }
}

impl Eq for Decimal {}

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = self.normalised();
        if d.scale == 0 {
            return write!(f, "{}", d.units);
        }
        let pow = 10i128.pow(d.scale);
        let sign = if d.units < 0 { "-" } else { "" };
        let abs = d.units.abs();
        write!(
            f,
            "{sign}{}.{:0width$}",
            abs / pow,
            abs % pow,
            width = d.scale as usize
        )
    }
}

impl Serialize for Decimal {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// `minor` units with `exponent` decimals as decimal text: the sign, the
/// whole units, `separator` and exactly `exponent` decimals (none for a
/// currency without minor units): `-1234.50`, `1234,50`, `1570`. The one
/// way an amount becomes text: documents and exports write it as it is
/// (`.` in XML and JSON, `,` for DATEV and the GoBD export), a person reads
/// it grouped by `locale::number`.
pub fn minor_text(minor: i64, exponent: u8, separator: char) -> String {
    let sign = if minor < 0 { "-" } else { "" };
    let abs = minor.unsigned_abs();
    if exponent == 0 {
        return format!("{sign}{abs}");
    }
    let unit = 10u64.pow(u32::from(exponent));
    format!(
        "{sign}{}{separator}{:0width$}",
        abs / unit,
        abs % unit,
        width = usize::from(exponent)
    )
}

/// `n / d` rounded half away from zero (`d` > 0).
fn round_div(n: i128, d: i128) -> i128 {
    let q = n / d;
    let r = n % d;
    if 2 * r.abs() >= d {
        q + n.signum()
    } else {
        q
    }
}

fn to_minor(value: Option<i128>, what: Computed) -> Result<i64> {
    value
        .and_then(|v| i64::try_from(v).ok())
        .filter(|v| v.unsigned_abs() <= MAX_AMOUNT as u64)
        .ok_or_else(|| Error::refused(Code::TooLargeToBook { what }))
}

/// Largest amount of minor units kontor books (10^15).
pub const MAX_AMOUNT: i64 = 1_000_000_000_000_000;

/// A line's net: quantity × unit price, rounded half away from zero.
///
/// Fails with `Refused` when the result exceeds the largest bookable amount.
pub fn line_net(quantity: Decimal, unit_price: i64) -> Result<i64> {
    to_minor(
        quantity.times_int_div(unit_price as i128, 1),
        Computed::LineNet,
    )
}

/// `rate` percent of `base`, rounded half away from zero.
///
/// Fails with `Refused` when the result exceeds the largest bookable amount.
pub fn percent_of(base: i64, rate: Decimal) -> Result<i64> {
    to_minor(rate.times_int_div(base as i128, 100), Computed::TaxAmount)
}

/// `rate` percent of `base` for `days` of a year of `year_days` days
/// (`base × rate / 100 × days / year_days`), rounded half away from zero:
/// simple interest.
///
/// Fails with `Refused` when the result exceeds the largest bookable amount.
pub fn interest(base: i64, rate: Decimal, days: i64, year_days: i64) -> Result<i64> {
    let numerator = (base as i128).checked_mul(days as i128);
    let denominator = 100i128.checked_mul(year_days as i128);
    to_minor(
        numerator
            .zip(denominator)
            .and_then(|(n, d)| rate.times_int_div(n, d)),
        Computed::Interest,
    )
}

/// The part of `amount` that `part` is of `whole` (`whole` > 0), rounded
/// down: shares that leave their remainder to one of them.
pub fn share_of(amount: i64, part: i64, whole: i64) -> i64 {
    if whole <= 0 {
        return 0;
    }
    let n = amount as i128 * part as i128;
    (n.div_euclid(whole as i128)) as i64
}

/// `amount × part / whole`, rounded half away from zero; 0 for a `whole`
/// of 0.
pub fn in_proportion(amount: i64, part: i64, whole: i64) -> i64 {
    if whole == 0 {
        return 0;
    }
    let n = amount as i128 * part as i128 * whole.signum() as i128;
    round_div(n, whole.unsigned_abs() as i128) as i64
}

/// `amount` split over `weights` in proportion by the largest-remainder
/// rule (Hamilton): each part the floor of its exact share, the cents left
/// to the parts with the largest remainders (the earlier first on a tie),
/// so the parts add up to `amount` exactly. A negative `amount` is split as
/// its absolute value and negated; weights are taken by their absolute
/// value; all weights 0 give everything to the first part. How a payment
/// is split over an invoice's tax keys by their gross (§ 13 (1) no. 1 b
/// UStG: the tax arises on what was received, per rate).
pub fn apportion(amount: i64, weights: &[i64]) -> Vec<i64> {
    let mut parts = vec![0i64; weights.len()];
    if parts.is_empty() {
        return parts;
    }
    let whole: i128 = weights.iter().map(|w| w.unsigned_abs() as i128).sum();
    let total = amount.unsigned_abs() as i128;
    if whole == 0 {
        parts[0] = amount;
        return parts;
    }
    let mut remainders: Vec<(i128, usize)> = Vec::with_capacity(weights.len());
    let mut given: i128 = 0;
    for (i, w) in weights.iter().enumerate() {
        let exact = total * w.unsigned_abs() as i128;
        let part = exact / whole;
        parts[i] = part as i64;
        given += part;
        remainders.push((exact % whole, i));
    }
    remainders.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for (_, i) in remainders.into_iter().take((total - given) as usize) {
        parts[i] += 1;
    }
    if amount < 0 {
        parts.iter_mut().for_each(|p| *p = -*p);
    }
    parts
}

/// Converts `amount` minor units of a currency with exponent `from_exp` into
/// minor units of one with exponent `to_exp`, at `rate` units of the target
/// per unit of the source, rounded half away from zero.
///
/// Fails with `Refused` when the result exceeds the largest bookable amount.
pub fn convert(amount: i64, rate: Decimal, from_exp: u8, to_exp: u8) -> Result<i64> {
    let (factor, divisor) = if to_exp >= from_exp {
        (10i128.pow((to_exp - from_exp) as u32), 1)
    } else {
        (1, 10i128.pow((from_exp - to_exp) as u32))
    };
    let scaled = (amount as i128).checked_mul(factor);
    to_minor(
        scaled.and_then(|a| rate.times_int_div(a, divisor)),
        Computed::Converted,
    )
}

/// An amount with its currency, as the API shows money: `{minor, currency}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Money {
    pub minor: i64,
    pub currency: Currency,
}

impl Money {
    pub fn new(minor: i64, currency: &Currency) -> Money {
        Money {
            minor,
            currency: currency.clone(),
        }
    }
}

/// Stored decimals (quantities, rates) are read back strictly.
impl rusqlite::types::FromSql for Decimal {
    fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        // Stored in its shortest form, exactly as `Display` writes it.
        let text = value.as_str()?;
        match Decimal::parse("stored", text) {
            Ok(d) if d.to_string() == text => Ok(d),
            _ => Err(rusqlite::types::FromSqlError::Other(
                format!("{text:?} is not a decimal in its stored form").into(),
            )),
        }
    }
}

impl rusqlite::types::ToSql for Decimal {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        Ok(rusqlite::types::ToSqlOutput::from(self.to_string()))
    }
}

/// One tax a line carries: its name, rate in percent, and (for a zero rate)
/// the seller's reason why nothing is charged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Tax {
    pub name: String,
    pub rate: Decimal,
    pub reason: Option<String>,
}

impl Tax {
    /// A tax decision, checked: a name of 1–40 characters, a rate from 0 to
    /// 100, and the seller's reason exactly when the rate is 0.
    ///
    /// Fails with `Invalid` naming `name`, `ratePercent` or `reason` for an
    /// empty or long name, a rate outside 0–100 or a reason beside a charged
    /// rate, and with `Refused` naming `reason` for a zero rate without one.
    pub fn new(name: &str, rate: Decimal, reason: Option<&str>) -> Result<Tax> {
        let mut v = Violations::new();
        let name = v.take(text::required("name", Some(name), 40))?;
        let hundred = Decimal::from_int(100);
        if rate.is_negative() || rate.units > hundred.units * 10i128.pow(rate.scale) {
            v.invalid("ratePercent", crate::error::said::Draft::RateOutOfRange);
        }
        let reason = reason.filter(|r| !r.trim().is_empty());
        let reason = v.take(text::optional("reason", reason, 200))?.flatten();
        if !rate.is_zero() && reason.is_some() {
            v.invalid(
                "reason",
                Code::ReasonWithCharge {
                    tax: name.clone(),
                    rate: rate.to_string(),
                },
            );
        }
        if rate.is_zero() && reason.is_none() {
            v.refused("reason", Code::ReasonNeeded { tax: name.clone() });
        }
        v.finish()?;
        Ok(Tax {
            name: name.unwrap_or_default(),
            rate,
            reason,
        })
    }
}

/// A document line as the totals need it.
#[derive(Debug, Clone)]
pub struct Line {
    pub quantity: Decimal,
    pub unit_price: i64,
    pub taxes: Vec<Tax>,
    /// The VAT category code of the line's tax, when it has one; taxes of
    /// different categories are totalled apart.
    pub category: Option<&'static str>,
}

/// One tax totalled over the lines it applies to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TaxTotal {
    pub name: String,
    pub rate: Decimal,
    pub reason: Option<String>,
    /// The sum of the nets the tax applies to.
    pub base: i64,
    pub amount: i64,
    #[serde(skip)]
    pub category: Option<&'static str>,
}

/// The figures of a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Totals {
    pub line_nets: Vec<i64>,
    pub net: i64,
    pub taxes: Vec<TaxTotal>,
    pub tax: i64,
    pub gross: i64,
}

/// The figures of a document: each line's net, the taxes per (name, rate,
/// reason, category) on the summed nets, and the totals; gross is always
/// net + tax.
///
/// Fails with `Refused` when an amount exceeds the largest bookable amount.
pub fn totals(lines: &[Line]) -> Result<Totals> {
    let too_large = || Error::refused(Code::TotalTooLarge);
    let mut line_nets = Vec::with_capacity(lines.len());
    let mut taxes: Vec<TaxTotal> = Vec::new();
    let mut net: i64 = 0;
    for line in lines {
        let line_net = line_net(line.quantity, line.unit_price)?;
        net = net.checked_add(line_net).ok_or_else(too_large)?;
        line_nets.push(line_net);
        for tax in &line.taxes {
            match taxes.iter_mut().find(|t| {
                t.name == tax.name
                    && t.rate == tax.rate
                    && t.reason == tax.reason
                    && t.category == line.category
            }) {
                Some(total) => {
                    total.base = total.base.checked_add(line_net).ok_or_else(too_large)?
                }
                None => taxes.push(TaxTotal {
                    name: tax.name.clone(),
                    rate: tax.rate,
                    reason: tax.reason.clone(),
                    base: line_net,
                    amount: 0,
                    category: line.category,
                }),
            }
        }
    }
    let mut tax: i64 = 0;
    for total in &mut taxes {
        total.amount = percent_of(total.base, total.rate)?;
        tax = tax.checked_add(total.amount).ok_or_else(too_large)?;
    }
    let gross = net.checked_add(tax).ok_or_else(too_large)?;
    if gross.abs() > MAX_AMOUNT {
        return Err(too_large());
    }
    Ok(Totals {
        line_nets,
        net,
        taxes,
        tax,
        gross,
    })
}

/// The rate of a document in `currency` for a company booking in `book`:
/// absent or 1 for the same currency, required and positive otherwise.
///
/// Fails with `Refused` naming the field `rate` saying which.
pub fn fixed_rate(currency: &Currency, book: &Currency, rate: Option<Decimal>) -> Result<Decimal> {
    let one = Decimal::from_int(1);
    match rate {
        None if currency == book => Ok(one),
        Some(r) if currency == book && r != one => Err(Error::refused_at(
            "rate",
            Code::RateNotOne {
                book: book.as_str().to_string(),
                got: r.to_string(),
            },
        )),
        None => Err(Error::refused_at(
            "rate",
            Code::RateNeeded {
                currency: currency.as_str().to_string(),
                book: book.as_str().to_string(),
            },
        )),
        Some(r) if r.is_negative() || r.is_zero() => {
            Err(Error::refused_at("rate", Code::RateNotPositive))
        }
        Some(r) => Ok(r),
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn apportion_adds_up_and_gives_the_cents_to_the_largest_remainders() {
        // 119.00 at 19 % and 107.00 at 7 %: a payment of 100.00.
        assert_eq!(apportion(10_000, &[11_900, 10_700]), vec![5_265, 4_735]);
        assert_eq!(apportion(1, &[1, 1, 1]), vec![1, 0, 0]);
        assert_eq!(apportion(2, &[1, 1, 1]), vec![1, 1, 0]);
        assert_eq!(apportion(-10_000, &[11_900, 10_700]), vec![-5_265, -4_735]);
        assert_eq!(apportion(500, &[0, 0]), vec![500, 0]);
        assert_eq!(apportion(7, &[]), Vec::<i64>::new());
        for amount in [1, 99, 12_345, 99_999_999] {
            let parts = apportion(amount, &[3, 5, 11, 0]);
            assert_eq!(parts.iter().sum::<i64>(), amount);
            assert_eq!(parts[3], 0);
        }
    }

    use super::*;

    #[test]
    fn a_share_rounds_down_and_a_proportion_half_away_from_zero() {
        assert_eq!(share_of(238, 119, 226), 125);
        assert_eq!(share_of(238, 107, 226), 112);
        assert_eq!(share_of(5, 1, 0), 0);
        assert_eq!(in_proportion(476, 700, 10_700), 31);
        assert_eq!(in_proportion(-3, 1, 2), -2);
        assert_eq!(in_proportion(-48, -380, -2_380), -8);
        assert_eq!(in_proportion(5, 1, 0), 0);
    }

    #[test]
    fn outside_decimals_read_leniently_and_convert_exactly() {
        let d = |t: &str| Decimal::read_lenient(t);
        assert_eq!(d(" 1163.4000 ").unwrap().to_string(), "1163.4");
        assert_eq!(d("0.00101").unwrap().to_string(), "0.00101");
        assert_eq!(d("-.5").unwrap().to_string(), "-0.5");
        assert_eq!(d("+7.").unwrap().to_string(), "7");
        assert_eq!(d("0.0000000000000000001"), None);
        for bad in ["", ".", "1,5", "1e3", "--1", "12 3", "0x10"] {
            assert_eq!(d(bad), None, "{bad:?}");
        }
        assert_eq!(d("1570.80").unwrap().to_minor(2), Some(157080));
        assert_eq!(d("1570.805").unwrap().to_minor(2), None);
        assert_eq!(d("1570.805").unwrap().round_to_minor(2), Some(157081));
        assert_eq!(d("-0.005").unwrap().round_to_minor(2), Some(-1));
        assert_eq!(d("12").unwrap().to_minor(0), Some(12));
        assert_eq!(Decimal::from_minor(157080, 2).to_string(), "1570.8");
        assert_eq!(Decimal::from_minor(-5, 3).to_string(), "-0.005");
        assert_eq!(d("1.2500").unwrap().decimals(), 2);
    }

    fn d(s: &str) -> Decimal {
        Decimal::parse("x", s).unwrap()
    }

    #[test]
    fn minor_units_are_written_with_the_currencys_decimals_and_the_separator_given() {
        assert_eq!(minor_text(157080, 2, '.'), "1570.80");
        assert_eq!(minor_text(5, 2, '.'), "0.05");
        assert_eq!(minor_text(-5, 2, ','), "-0,05");
        assert_eq!(minor_text(1570, 0, '.'), "1570");
        assert_eq!(minor_text(1_570_125, 3, ','), "1570,125");
        assert_eq!(minor_text(i64::MIN, 2, '.'), "-92233720368547758.08");
    }

    #[test]
    fn decimals_parse_exactly() {
        for (text, shown) in [
            ("19", "19"),
            ("5.5", "5.5"),
            ("8.1", "8.1"),
            ("1.500", "1.5"),
            ("-0.25", "-0.25"),
            ("007", "7"),
            ("0.000001", "0.000001"),
        ] {
            assert_eq!(d(text).to_string(), shown, "{text}");
        }
        for bad in [
            "",
            ".",
            "1.",
            ".5",
            "1,5",
            "1e3",
            "abc",
            "0.0000001",
            "1000000000",
            "--1",
            "1.2.3",
        ] {
            assert!(Decimal::parse("x", bad).is_err(), "{bad:?}");
        }
        assert_eq!(d("2.50"), d("2.5"));
    }

    #[test]
    fn rounding_is_half_away_from_zero() {
        // (quantity, unit price in minor units, net) checked by hand.
        let table = [
            ("1", 1999, 1999),
            ("1.5", 1999, 2999),  // 2998.5 → 2999
            ("0.5", 1, 1),        // 0.5 → 1
            ("0.5", -1, -1),      // -0.5 → -1
            ("0.25", 3, 1),       // 0.75 → 1
            ("0.3333", 300, 100), // 99.99 → 100
            ("2.5", 333, 833),    // 832.5 → 833
            ("3", 0, 0),
            ("0.001", 1000, 1),
            ("0.0049", 100, 0), // 0.49 → 0
        ];
        for (q, price, net) in table {
            assert_eq!(line_net(d(q), price).unwrap(), net, "{q} × {price}");
        }
        // Taxes (base, rate %, amount) by hand.
        let taxes = [
            (1000, "19", 190),
            (2999, "19", 570),
            (1050, "7", 74),
            (5, "19", 1),
            (2, "19", 0),
            (10000, "8.1", 810),
            (333, "5.5", 18),
            (-2999, "19", -570),
            (12345, "0", 0),
        ];
        for (base, rate, amount) in taxes {
            assert_eq!(
                percent_of(base, d(rate)).unwrap(),
                amount,
                "{base} × {rate} %"
            );
        }
    }

    #[test]
    fn currencies_convert_between_exponents() {
        // 100.00 USD at 0.9 EUR/USD = 90.00 EUR
        assert_eq!(convert(10000, d("0.9"), 2, 2).unwrap(), 9000);
        // 1,000 JPY at 0.0061 EUR/JPY = 6.10 EUR
        assert_eq!(convert(1000, d("0.0061"), 0, 2).unwrap(), 610);
        // 1.000 BHD at 2.45 EUR/BHD = 2.45 EUR
        assert_eq!(convert(1000, d("2.45"), 3, 2).unwrap(), 245);
        // 0.005 BHD at 1 → 0.01 (half away from zero)
        assert_eq!(convert(5, d("1"), 3, 2).unwrap(), 1);
    }

    #[test]
    fn taxes_are_totalled_per_name_and_rate_on_summed_nets() {
        let vat19 = Tax::new("USt", d("19"), None).unwrap();
        let vat7 = Tax::new("USt", d("7"), None).unwrap();
        let city = Tax::new("City", d("2.5"), None).unwrap();
        let lines = vec![
            Line {
                quantity: d("1"),
                unit_price: 1005,
                taxes: vec![vat19.clone()],
                category: None,
            },
            Line {
                quantity: d("1"),
                unit_price: 1005,
                taxes: vec![vat19.clone(), city.clone()],
                category: None,
            },
            Line {
                quantity: d("2"),
                unit_price: 250,
                taxes: vec![vat7.clone()],
                category: None,
            },
        ];
        let t = totals(&lines).unwrap();
        assert_eq!(t.line_nets, vec![1005, 1005, 500]);
        assert_eq!(t.net, 2510);
        // 19 % on 2010 = 381.9 → 382 (per line it would be 191 + 191 = 382 too, but 7 % on 500 = 35)
        assert_eq!(
            t.taxes
                .iter()
                .map(|t| (t.name.as_str(), t.rate.to_string(), t.base, t.amount))
                .collect::<Vec<_>>(),
            vec![
                ("USt", "19".to_string(), 2010, 382),
                ("City", "2.5".to_string(), 1005, 25),
                ("USt", "7".to_string(), 500, 35)
            ]
        );
        assert_eq!(t.tax, 442);
        assert_eq!(t.gross, 2952);
        // Summing first matters: three lines of 0.05 at 19 % give 0.03, not 3 × 0.01.
        let small = vec![
            Line {
                quantity: d("1"),
                unit_price: 5,
                taxes: vec![vat19.clone()],
                category: None,
            };
            3
        ];
        assert_eq!(totals(&small).unwrap().tax, 3);
    }

    #[test]
    fn a_zero_rate_needs_a_reason() {
        assert!(matches!(
            Tax::new("USt", d("0"), None),
            Err(Error::Refused(_))
        ));
        assert!(Tax::new("USt", d("0"), Some("  ")).is_err());
        assert!(Tax::new("USt", d("0"), Some("Reverse charge")).is_ok());
        assert!(
            Tax::new("USt", d("19"), Some("Standard")).is_err(),
            "a reason only with a zero rate"
        );
        assert!(Tax::new("USt", d("101"), None).is_err());
        assert!(Tax::new("USt", d("-1"), None).is_err());
        assert!(Tax::new("", d("19"), None).is_err());
    }

    /// A small deterministic generator, so the property test needs no crate.
    struct XorShift(u64);
    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    #[test]
    fn the_total_always_equals_net_plus_the_sum_of_taxes() {
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        let rates = [
            "0", "2.5", "5.5", "7", "8.1", "10", "19", "20", "21", "22", "25",
        ];
        for _ in 0..5000 {
            let lines: Vec<Line> = (0..1 + rng.below(6))
                .map(|_| {
                    let quantity = Decimal {
                        units: 1 + rng.below(100_000) as i128,
                        scale: rng.below(4) as u32,
                    };
                    let unit_price = rng.below(10_000_000) as i64 - 1_000_000;
                    let taxes = (0..rng.below(3))
                        .map(|i| {
                            let rate = d(rates[rng.below(rates.len() as u64) as usize]);
                            let reason = rate.is_zero().then_some("reason");
                            Tax::new(["VAT", "City"][i as usize % 2], rate, reason).unwrap()
                        })
                        .collect();
                    Line {
                        quantity,
                        unit_price,
                        taxes,
                        category: None,
                    }
                })
                .collect();
            let t = totals(&lines).unwrap();
            assert_eq!(
                t.gross,
                t.net + t.taxes.iter().map(|x| x.amount).sum::<i64>()
            );
            assert_eq!(t.tax, t.taxes.iter().map(|x| x.amount).sum::<i64>());
            assert_eq!(t.net, t.line_nets.iter().sum::<i64>());
            for total in &t.taxes {
                let base: i64 = lines
                    .iter()
                    .zip(&t.line_nets)
                    .filter(|(l, _)| {
                        l.taxes
                            .iter()
                            .any(|x| x.name == total.name && x.rate == total.rate)
                    })
                    .map(|(_, n)| n)
                    .sum();
                assert_eq!(total.base, base);
            }
        }
    }
}
