//! The period a VAT return or an EC sales list is filed for: a month
//! (`2026-10`) or a quarter (`2026-Q4`).

use jiff::civil::Date;
use serde::Serialize;

use crate::error::{Error, Result};

/// A month or a quarter, with its first and last day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Period {
    /// As written: `2026-10` or `2026-Q4`.
    pub label: String,
    pub from: Date,
    pub to: Date,
}

impl Period {
    /// Reads `YYYY-MM` or `YYYY-Qn`.
    ///
    /// Fails with `Invalid` naming `field` for anything else.
    pub fn parse(field: &str, text: &str) -> Result<Period> {
        let bad = || {
            Error::invalid(
                field,
                crate::error::said::Input::NotVatPeriod {
                    got: text.to_string(),
                },
            )
        };
        let t = text.trim();
        let (year, rest) = t.split_once('-').ok_or_else(bad)?;
        if year.len() != 4 || !year.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let year: i16 = year.parse().map_err(|_| bad())?;
        if !(1900..=9999).contains(&year) {
            return Err(bad());
        }
        let (first_month, months) = match rest.strip_prefix('Q').or_else(|| rest.strip_prefix('q'))
        {
            Some(q) if q.len() == 1 && ("1"..="4").contains(&q) => {
                let q: i8 = q.parse().map_err(|_| bad())?;
                ((q - 1) * 3 + 1, 3)
            }
            Some(_) => return Err(bad()),
            None if rest.len() == 2 && rest.bytes().all(|b| b.is_ascii_digit()) => {
                let m: i8 = rest.parse().map_err(|_| bad())?;
                if !(1..=12).contains(&m) {
                    return Err(bad());
                }
                (m, 1)
            }
            None => return Err(bad()),
        };
        let from = Date::new(year, first_month, 1).map_err(|_| bad())?;
        let last = Date::new(year, first_month + months - 1, 1).map_err(|_| bad())?;
        let to = last.last_of_month();
        let label = if months == 3 {
            format!("{year}-Q{}", (first_month - 1) / 3 + 1)
        } else {
            format!("{year}-{first_month:02}")
        };
        Ok(Period { label, from, to })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn months_and_quarters() {
        let m = Period::parse("period", "2026-10").unwrap();
        assert_eq!(
            (m.from, m.to),
            (Date::constant(2026, 10, 1), Date::constant(2026, 10, 31))
        );
        let q = Period::parse("period", "2026-q4").unwrap();
        assert_eq!(q.label, "2026-Q4");
        assert_eq!(
            (q.from, q.to),
            (Date::constant(2026, 10, 1), Date::constant(2026, 12, 31))
        );
        let feb = Period::parse("period", "2028-02").unwrap();
        assert_eq!(feb.to, Date::constant(2028, 2, 29));
    }

    #[test]
    fn anything_else_is_refused_naming_the_field() {
        for bad in [
            "2026", "2026-13", "2026-Q5", "2026-Q", "26-10", "2026-1", "2026/10", "",
        ] {
            let e = Period::parse("period", bad).unwrap_err();
            assert!(
                e.to_string().contains("period") || format!("{e:?}").contains("period"),
                "{bad}"
            );
        }
    }
}
