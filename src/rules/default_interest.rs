//! Default interest and the flat sum of German law, as a reminder states
//! them: the base rate of §247 BGB (a dated table, shipped here as the
//! Deutsche Bundesbank published it, to which an owner adds rows), default
//! interest of §288 (1) and (2) BGB at the base rate plus 5 points for a
//! consumer and 9 for a business, and the €40 flat sum of §288 (5) BGB for
//! a business debtor.
//!
//! Interest runs from the day after the due date (the invoice names a
//! calendar due date, §286 (2) no. 1 BGB) through the day of the reminder,
//! both included, on the amount open: `open × (base + points) / 100 × days
//! / 365`, split where the base rate changes and rounded half up to the
//! minor unit once per segment. Dates are calendar days; amounts are minor
//! units; rates are exact decimals. No floating point.

use jiff::civil::Date;

use crate::error::{Error, Result};
use crate::rules::money::{self, Decimal};

/// The days of the year interest is divided by, leap years included.
pub const YEAR_DAYS: i64 = 365;

/// The flat sum of §288 (5) BGB, in euro cents.
pub const FLAT_SUM_EUR_MINOR: i64 = 4_000;

/// The base rate of §247 BGB from each day on, as published by the
/// Deutsche Bundesbank (each 1 January and 1 July; rows where it changed,
/// and the last publication). Rows after the last are added by the owner.
pub const SHIPPED: &[(i16, i8, i8, &str)] = &[
    (2002, 1, 1, "2.57"),
    (2002, 7, 1, "2.47"),
    (2003, 1, 1, "1.97"),
    (2003, 7, 1, "1.22"),
    (2004, 1, 1, "1.14"),
    (2004, 7, 1, "1.13"),
    (2005, 1, 1, "1.21"),
    (2005, 7, 1, "1.17"),
    (2006, 1, 1, "1.37"),
    (2006, 7, 1, "1.95"),
    (2007, 1, 1, "2.70"),
    (2007, 7, 1, "3.19"),
    (2008, 1, 1, "3.32"),
    (2008, 7, 1, "3.19"),
    (2009, 1, 1, "1.62"),
    (2009, 7, 1, "0.12"),
    (2011, 7, 1, "0.37"),
    (2012, 1, 1, "0.12"),
    (2013, 1, 1, "-0.13"),
    (2013, 7, 1, "-0.38"),
    (2014, 1, 1, "-0.63"),
    (2014, 7, 1, "-0.73"),
    (2015, 1, 1, "-0.83"),
    (2016, 7, 1, "-0.88"),
    (2023, 1, 1, "1.62"),
    (2023, 7, 1, "3.12"),
    (2024, 1, 1, "3.62"),
    (2024, 7, 1, "3.37"),
    (2025, 1, 1, "2.27"),
    (2025, 7, 1, "1.27"),
    (2026, 1, 1, "1.27"),
];

/// One row of the base-rate table: from `from` on, the base rate is `percent`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseRate {
    pub from: Date,
    pub percent: Decimal,
}

/// The shipped table, oldest first.
pub fn shipped() -> Vec<BaseRate> {
    SHIPPED
        .iter()
        .map(|&(y, m, d, p)| BaseRate {
            from: Date::constant(y, m, d),
            percent: Decimal::parse("percent", p).expect("the shipped rates are decimals"),
        })
        .collect()
}

/// The shipped table with `own` rows laid over it (an own row replaces a
/// shipped row of the same day), oldest first.
pub fn table_with(own: &[BaseRate]) -> Vec<BaseRate> {
    let mut rows: Vec<BaseRate> = shipped()
        .into_iter()
        .filter(|s| !own.iter().any(|o| o.from == s.from))
        .chain(own.iter().cloned())
        .collect();
    rows.sort_by_key(|r| r.from);
    rows
}

/// The next day the Bundesbank publishes a base rate after the table's
/// last row (1 January or 1 July): from that day on the table may be out
/// of date until a row is added.
pub fn next_publication(table: &[BaseRate]) -> Option<Date> {
    let last = table.iter().map(|r| r.from).max()?;
    Some(if last.month() < 7 {
        Date::constant(last.year(), 7, 1)
    } else {
        Date::new(last.year() + 1, 1, 1).ok()?
    })
}

/// Who owes: the points added to the base rate (§288 (1), (2) BGB) and
/// whether the flat sum is owed (§288 (5) BGB: a debtor who is not a consumer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Debtor {
    Business,
    Consumer,
}

impl Debtor {
    pub fn points(self) -> i64 {
        match self {
            Debtor::Business => 9,
            Debtor::Consumer => 5,
        }
    }

    /// The flat sum owed by this debtor on an invoice in `currency`: €40
    /// for a business on a EUR invoice, nothing otherwise.
    pub fn flat_sum(self, currency: &str) -> Option<i64> {
        (self == Debtor::Business && currency == "EUR").then_some(FLAT_SUM_EUR_MINOR)
    }
}

/// One stretch of days at one rate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    pub from: Date,
    pub through: Date,
    pub days: i64,
    /// The base rate of these days.
    pub base: Decimal,
    /// Base rate plus points: the rate interest runs at.
    pub percent: Decimal,
    /// Minor units, rounded for this segment.
    pub amount: i64,
}

/// Default interest over a period.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interest {
    /// The first day of default: the day after the due date.
    pub from: Date,
    /// The last day counted: the day of the reminder.
    pub through: Date,
    pub days: i64,
    pub segments: Vec<Segment>,
    /// The sum of the segments' amounts.
    pub amount: i64,
}

impl Interest {
    /// The rate of the last segment (the rate interest runs at now).
    pub fn percent_now(&self) -> Option<Decimal> {
        self.segments.last().map(|s| s.percent)
    }
}

/// Default interest on `open` minor units for an invoice due on `due`,
/// through `on`, for `debtor`, by `table` (any order). `None` when `on` is
/// not after `due` (no day of default) or nothing is open.
///
/// Fails with `Refused` when the table has no rate for a day of the period
/// (it begins after default began), or an amount is too large to book.
pub fn default_interest(
    open: i64,
    due: Date,
    on: Date,
    debtor: Debtor,
    table: &[BaseRate],
) -> Result<Option<Interest>> {
    if on <= due || open <= 0 {
        return Ok(None);
    }
    let from = due.tomorrow().map_err(Error::internal)?;
    let mut rows: Vec<&BaseRate> = table.iter().collect();
    rows.sort_by_key(|r| r.from);
    let rate_on = |day: Date| rows.iter().rev().find(|r| r.from <= day).map(|r| r.percent);
    let Some(mut base) = rate_on(from) else {
        return Err(Error::refused(crate::error::said::Dunning::NoBaseRate {
            from,
        }));
    };
    let points = Decimal::from_int(debtor.points());
    let mut segments = Vec::new();
    let mut start = from;
    // The days where the rate changes inside the period.
    let changes: Vec<(Date, Decimal)> = rows
        .iter()
        .filter(|r| r.from > from && r.from <= on)
        .map(|r| (r.from, r.percent))
        .collect();
    let mut push = |start: Date, through: Date, base: Decimal| -> Result<()> {
        let days = days_between(start, through) + 1;
        let percent = base
            .plus(points)
            .ok_or_else(|| Error::internal("a rate out of range"))?;
        let amount = money::interest(open, percent, days, YEAR_DAYS)?;
        segments.push(Segment {
            from: start,
            through,
            days,
            base,
            percent,
            amount,
        });
        Ok(())
    };
    for (day, rate) in changes {
        if rate == base {
            continue;
        }
        push(start, day.yesterday().map_err(Error::internal)?, base)?;
        start = day;
        base = rate;
    }
    push(start, on, base)?;
    let amount = segments.iter().map(|s| s.amount).sum();
    Ok(Some(Interest {
        from,
        through: on,
        days: days_between(from, on) + 1,
        segments,
        amount,
    }))
}

/// Whole days from `a` to `b` (`b` − `a`).
pub fn days_between(a: Date, b: Date) -> i64 {
    a.until(b)
        .map(|span| i64::from(span.get_days()))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i16, m: i8, day: i8) -> Date {
        Date::constant(y, m, day)
    }

    fn pct(s: &str) -> Decimal {
        Decimal::parse("p", s).unwrap()
    }

    #[test]
    fn the_shipped_table_is_ordered_and_ends_with_the_last_publication() {
        let t = shipped();
        assert!(t.windows(2).all(|w| w[0].from < w[1].from));
        assert_eq!(t.first().unwrap().from, d(2002, 1, 1));
        assert_eq!(t.last().unwrap().percent, pct("1.27"));
        assert_eq!(next_publication(&t), Some(d(2026, 7, 1)));
        let own = table_with(&[BaseRate {
            from: d(2026, 7, 1),
            percent: pct("1.02"),
        }]);
        assert_eq!(next_publication(&own), Some(d(2027, 1, 1)));
        // An own row replaces a shipped one of the same day.
        let replaced = table_with(&[BaseRate {
            from: d(2026, 1, 1),
            percent: pct("9"),
        }]);
        assert_eq!(replaced.len(), t.len());
        assert_eq!(replaced.last().unwrap().percent, pct("9"));
    }

    #[test]
    fn interest_of_a_business_within_one_rate_worked_out_by_hand() {
        // 1,190.00 EUR due 2026-03-01, reminder 2026-03-31: 30 days of
        // default (2 March through 31 March) at 1.27 + 9 = 10.27 %:
        // 119000 × 10.27 × 30 / 36500 = 36663900 / 36500 = 1004.49… → 1004.
        let i = default_interest(
            119_000,
            d(2026, 3, 1),
            d(2026, 3, 31),
            Debtor::Business,
            &shipped(),
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            (i.from, i.through, i.days),
            (d(2026, 3, 2), d(2026, 3, 31), 30)
        );
        assert_eq!(i.segments.len(), 1);
        assert_eq!(i.segments[0].percent, pct("10.27"));
        assert_eq!(i.amount, 1004);
        // A consumer: 6.27 %: 119000 × 6.27 × 30 / 36500 = 22383900 / 36500 = 613.26… → 613.
        let c = default_interest(
            119_000,
            d(2026, 3, 1),
            d(2026, 3, 31),
            Debtor::Consumer,
            &shipped(),
        )
        .unwrap()
        .unwrap();
        assert_eq!(c.amount, 613);
        assert_eq!(c.percent_now(), Some(pct("6.27")));
    }

    #[test]
    fn interest_is_split_where_the_base_rate_changes_and_rounded_per_segment() {
        // 500.00 EUR due 2024-12-15, reminder 2025-01-20, business.
        // 16 Dec – 31 Dec 2024: 16 days at 3.37 + 9 = 12.37 %:
        //   50000 × 12.37 × 16 / 36500 = 9896000 / 36500 = 271.12… → 271
        // 1 Jan – 20 Jan 2025: 20 days at 2.27 + 9 = 11.27 %:
        //   50000 × 11.27 × 20 / 36500 = 11270000 / 36500 = 308.77… → 309
        let i = default_interest(
            50_000,
            d(2024, 12, 15),
            d(2025, 1, 20),
            Debtor::Business,
            &shipped(),
        )
        .unwrap()
        .unwrap();
        let parts: Vec<(Date, Date, i64, String, i64)> = i
            .segments
            .iter()
            .map(|s| (s.from, s.through, s.days, s.percent.to_string(), s.amount))
            .collect();
        assert_eq!(
            parts,
            vec![
                (d(2024, 12, 16), d(2024, 12, 31), 16, "12.37".into(), 271),
                (d(2025, 1, 1), d(2025, 1, 20), 20, "11.27".into(), 309),
            ]
        );
        assert_eq!((i.days, i.amount), (36, 580));
    }

    #[test]
    fn an_unchanged_rate_does_not_split_and_own_rows_may_start_on_any_day() {
        // 2025-07-01 and 2026-01-01 both 1.27: one segment.
        let i = default_interest(
            10_000,
            d(2025, 12, 1),
            d(2026, 1, 10),
            Debtor::Consumer,
            &shipped(),
        )
        .unwrap()
        .unwrap();
        assert_eq!(i.segments.len(), 1);
        // 10000 × 6.27 × 40 / 36500 = 2508000 / 36500 = 68.71… → 69.
        assert_eq!((i.days, i.amount), (40, 69));
        // An own row on 15 December: two segments.
        let table = table_with(&[BaseRate {
            from: d(2025, 12, 15),
            percent: pct("2"),
        }]);
        let i = default_interest(
            10_000,
            d(2025, 12, 1),
            d(2026, 1, 10),
            Debtor::Consumer,
            &table,
        )
        .unwrap()
        .unwrap();
        // 2–14 Dec: 13 days at 6.27 %: 10000 × 6.27 × 13 / 36500 = 815100 / 36500 = 22.33… → 22
        // 15–31 Dec: 17 days at 7 %: 10000 × 7 × 17 / 36500 = 1190000 / 36500 = 32.60… → 33
        // 1–10 Jan (the shipped 1.27 again): 10 days at 6.27 %: 627000 / 36500 = 17.18… → 17
        let amounts: Vec<i64> = i.segments.iter().map(|s| s.amount).collect();
        assert_eq!(amounts, vec![22, 33, 17]);
        assert_eq!(i.amount, 72);
    }

    #[test]
    fn negative_base_rates_and_half_up_rounding() {
        // 2020: -0.88 + 5 = 4.12 %. 36500 cents for 1 day: 36500 × 4.12 / 36500 = 4.12 → 4.
        let i = default_interest(
            36_500,
            d(2020, 5, 1),
            d(2020, 5, 2),
            Debtor::Consumer,
            &shipped(),
        )
        .unwrap()
        .unwrap();
        assert_eq!(i.segments[0].percent, pct("4.12"));
        assert_eq!(i.amount, 4);
        // Half a cent rounds up: 1825 × (1 + 9) × 1 / 36500 = 18250 / 36500 = 0.5 → 1.
        let table = [BaseRate {
            from: d(2000, 1, 1),
            percent: pct("1"),
        }];
        let half = default_interest(
            1_825,
            d(2020, 5, 1),
            d(2020, 5, 2),
            Debtor::Business,
            &table,
        )
        .unwrap()
        .unwrap();
        assert_eq!(half.amount, 1);
    }

    #[test]
    fn no_interest_before_default_and_none_without_a_rate() {
        assert_eq!(
            default_interest(
                1000,
                d(2026, 3, 1),
                d(2026, 3, 1),
                Debtor::Business,
                &shipped()
            )
            .unwrap(),
            None
        );
        assert_eq!(
            default_interest(
                0,
                d(2026, 3, 1),
                d(2026, 4, 1),
                Debtor::Business,
                &shipped()
            )
            .unwrap(),
            None
        );
        let err = default_interest(
            1000,
            d(1999, 3, 1),
            d(1999, 4, 1),
            Debtor::Business,
            &shipped(),
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("1999-03-02"), "{err}");
    }

    #[test]
    fn the_flat_sum_is_owed_by_businesses_on_euro_invoices() {
        assert_eq!(Debtor::Business.flat_sum("EUR"), Some(4000));
        assert_eq!(Debtor::Consumer.flat_sum("EUR"), None);
        assert_eq!(Debtor::Business.flat_sum("USD"), None);
        assert_eq!(days_between(d(2024, 2, 28), d(2024, 3, 1)), 2);
    }
}
