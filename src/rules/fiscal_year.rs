//! The first day of a company's fiscal year (*Wirtschaftsjahr*, § 4a
//! EStG) as month and day, and the fiscal year a day lies in: what the
//! statements, the DATEV and GoBD exports and the depreciation of fixed
//! assets count their years by. Pure.

use jiff::civil::Date;
use serde::Serialize;

use crate::error::{Error, Result};

/// The first day of a fiscal year as month and day (never 29 February, so
/// every year has it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FiscalYearStart {
    pub month: i8,
    pub day: i8,
}

impl Serialize for FiscalYearStart {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl std::fmt::Display for FiscalYearStart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:02}-{:02}", self.month, self.day)
    }
}

impl FiscalYearStart {
    pub const JANUARY_FIRST: FiscalYearStart = FiscalYearStart { month: 1, day: 1 };

    /// Reads `MM-DD` (`01-01`, `07-01`): a day every year has.
    ///
    /// Fails with `Invalid` naming `field` for anything else.
    pub fn parse(field: &str, text: &str) -> Result<FiscalYearStart> {
        let bad = || {
            Error::invalid(
                field,
                crate::error::said::Code::NotDayOfYear {
                    got: text.to_string(),
                },
            )
        };
        let t = text.trim();
        let (m, d) = t.split_once('-').ok_or_else(bad)?;
        if m.len() != 2 || d.len() != 2 {
            return Err(bad());
        }
        let month: i8 = m.parse().map_err(|_| bad())?;
        let day: i8 = d.parse().map_err(|_| bad())?;
        // 2025 is no leap year: 02-29 is refused, as not every year has it.
        Date::new(2025, month, day).map_err(|_| bad())?;
        Ok(FiscalYearStart { month, day })
    }

    /// The first day of the fiscal year `day` lies in.
    pub fn year_of(self, day: Date) -> Date {
        let this = Date::new(day.year(), self.month, self.day).unwrap_or(day);
        if this <= day {
            this
        } else {
            Date::new(day.year() - 1, self.month, self.day).unwrap_or(day)
        }
    }

    /// The last day of the fiscal year that starts on `first`.
    pub fn end_of(self, first: Date) -> Date {
        Date::new(first.year() + 1, self.month, self.day)
            .ok()
            .and_then(|next| next.yesterday().ok())
            .unwrap_or(first)
    }

    /// The first day of the fiscal year that starts in the calendar year
    /// `year`, if that year is one a date has.
    pub fn first_in(self, year: i16) -> Option<Date> {
        Date::new(year, self.month, self.day).ok()
    }

    /// The first and last day of the fiscal year that starts in the
    /// calendar year `year`, for a year from 1900 to 9998 (the years a
    /// person may ask the books for); `None` for any other.
    pub fn bounds_in(self, year: i32) -> Option<(Date, Date)> {
        i16::try_from(year)
            .ok()
            .filter(|y| (1900..=9998).contains(y))
            .and_then(|y| self.first_in(y))
            .map(|first| (first, self.end_of(first)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fiscal_year_start_is_a_day_every_year_has() {
        let s = FiscalYearStart::parse("f", "07-01").unwrap();
        assert_eq!(s.to_string(), "07-01");
        assert!(FiscalYearStart::parse("f", "02-29").is_err());
        assert!(FiscalYearStart::parse("f", "13-01").is_err());
        assert!(FiscalYearStart::parse("f", "7-1").is_err());
        let day = Date::constant(2026, 3, 5);
        assert_eq!(s.year_of(day), Date::constant(2025, 7, 1));
        assert_eq!(s.end_of(s.year_of(day)), Date::constant(2026, 6, 30));
        let j = FiscalYearStart::JANUARY_FIRST;
        assert_eq!(j.year_of(day), Date::constant(2026, 1, 1));
        assert_eq!(
            j.end_of(Date::constant(2026, 1, 1)),
            Date::constant(2026, 12, 31)
        );
        assert_eq!(s.first_in(2026), Some(Date::constant(2026, 7, 1)));
    }
}
