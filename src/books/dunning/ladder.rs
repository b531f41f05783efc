//! The ladder of reminders, as pure rules over dates and amounts: the
//! levels a company uses (by default three: a friendly reminder 7 days
//! after the due date, a first and a final reminder 14 days apart), which
//! level an overdue invoice is due for on a day, and what that reminder
//! states (the amount open, the reminder fees so far, default interest with
//! its period and rate, the €40 flat sum, the new due date). Storage and
//! sending are the caller's.
//!
//! The level proposed is the one after the last sent, once the invoice is
//! that many days overdue and the previous reminder that many days old;
//! levels are never skipped, and after the last level nothing follows.

use jiff::civil::Date;

use crate::error::said::{Dunning, Input};
use crate::error::{Error, Result};
use crate::rules::default_interest::{self, BaseRate, Debtor, Interest};
use crate::rules::placeholders;

/// The placeholders a level's texts may use.
pub const PLACEHOLDERS: &[&str] = &[
    "number",
    "issuedOn",
    "dueOn",
    "open",
    "total",
    "newDueOn",
    "defaultFrom",
    "company",
    "customer",
];

/// Most levels a company may have.
pub const MAX_LEVELS: u8 = 5;

/// One level of the ladder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Level {
    /// 1, 2, 3, …
    pub level: u8,
    /// Days after the due date (level 1) or after the previous reminder.
    pub days: i64,
    /// This level's fee, minor units of the book currency (stated only on
    /// invoices in the book currency).
    pub fee: i64,
    /// Whether this level states default interest (and the flat sum).
    pub interest: bool,
    /// Days the reminder gives to pay: its new due date.
    pub pay_days: i64,
    /// The title (English, German).
    pub title: (String, String),
    /// The letter's text (English, German), with placeholders.
    pub text: (String, String),
}

/// The default ladder.
pub fn defaults() -> Vec<Level> {
    let level = |level, days, fee, interest, title: (&str, &str), text: (&str, &str)| Level {
        level,
        days,
        fee,
        interest,
        pay_days: 10,
        title: (title.0.into(), title.1.into()),
        text: (text.0.into(), text.1.into()),
    };
    vec![
        level(
            1,
            7,
            0,
            false,
            ("Payment reminder", "Zahlungserinnerung"),
            (
                "Dear Sir or Madam,\n\nperhaps it has escaped your attention: our invoice {number} of {issuedOn} was due on {dueOn} and is still open. Please pay {open} by {newDueOn}.\n\nIf you have paid in the meantime, please disregard this letter.",
                "Sehr geehrte Damen und Herren,\n\nsicher ist es Ihrer Aufmerksamkeit entgangen: Unsere Rechnung {number} vom {issuedOn} war am {dueOn} fällig und ist noch offen. Bitte zahlen Sie {open} bis zum {newDueOn}.\n\nSollten Sie inzwischen gezahlt haben, betrachten Sie dieses Schreiben bitte als gegenstandslos.",
            ),
        ),
        level(
            2,
            14,
            0,
            true,
            ("First reminder", "1. Mahnung"),
            (
                "Dear Sir or Madam,\n\nwe have not yet received payment of our invoice {number} of {issuedOn}, due on {dueOn}, despite our reminder. You have been in default since {defaultFrom}. Please pay the total stated below, {total}, by {newDueOn}.",
                "Sehr geehrte Damen und Herren,\n\ntrotz unserer Zahlungserinnerung ist unsere Rechnung {number} vom {issuedOn}, fällig am {dueOn}, noch nicht bezahlt. Sie befinden sich seit dem {defaultFrom} in Verzug. Bitte zahlen Sie den unten genannten Gesamtbetrag von {total} bis zum {newDueOn}.",
            ),
        ),
        level(
            3,
            14,
            0,
            true,
            ("Final reminder", "Letzte Mahnung"),
            (
                "Dear Sir or Madam,\n\nour invoice {number} of {issuedOn}, due on {dueOn}, is still unpaid despite two reminders. Please pay the total stated below, {total}, by {newDueOn}. If it has not reached us by then, we will hand the claim over for collection without further notice.",
                "Sehr geehrte Damen und Herren,\n\nunsere Rechnung {number} vom {issuedOn}, fällig am {dueOn}, ist trotz zweier Mahnungen noch nicht bezahlt. Bitte zahlen Sie den unten genannten Gesamtbetrag von {total} bis zum {newDueOn}. Geht er bis dahin nicht bei uns ein, übergeben wir die Forderung ohne weitere Ankündigung zur Beitreibung.",
            ),
        ),
    ]
}

/// Checks a ladder a person gives: levels 1, 2, … in order, at most
/// `MAX_LEVELS`, days 1–365, fees 0 or more, 1–90 days to pay, texts with
/// known placeholders only.
///
/// Fails with `Invalid` naming the level's field.
pub fn check(levels: &[Level]) -> Result<()> {
    if levels.is_empty() || levels.len() > MAX_LEVELS as usize {
        return Err(Error::invalid(
            "levels",
            Dunning::LevelCount {
                max: usize::from(MAX_LEVELS),
            },
        ));
    }
    for (i, l) in levels.iter().enumerate() {
        let at = |field: &str| format!("levels[{i}].{field}");
        if usize::from(l.level) != i + 1 {
            return Err(Error::invalid(
                at("level"),
                Dunning::LevelMustBe { level: i + 1 },
            ));
        }
        if !(1..=365).contains(&l.days) {
            return Err(Error::invalid(at("days"), Dunning::DaysRange));
        }
        if l.fee < 0 {
            return Err(Error::invalid(at("fee"), Input::Negative));
        }
        if !(1..=90).contains(&l.pay_days) {
            return Err(Error::invalid(at("payDays"), Dunning::PayDaysRange));
        }
        for (field, text) in [
            ("titleEn", &l.title.0),
            ("titleDe", &l.title.1),
            ("textEn", &l.text.0),
            ("textDe", &l.text.1),
        ] {
            if text.trim().is_empty() {
                return Err(Error::invalid(at(field), Input::Empty));
            }
            placeholders::check(&at(field), text, PLACEHOLDERS)?;
        }
    }
    Ok(())
}

/// The last reminder sent for an invoice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Last {
    pub level: u8,
    pub on: Date,
    /// The reminder fees it stated in all.
    pub fees: i64,
}

/// The level an invoice due on `due` is due for on `on`, after `last`.
pub fn due_level<'a>(
    levels: &'a [Level],
    due: Date,
    last: Option<&Last>,
    on: Date,
) -> Option<&'a Level> {
    let next_number = last.map_or(1, |l| l.level + 1);
    let level = levels.iter().find(|l| l.level == next_number)?;
    let overdue = default_interest::days_between(due, on);
    if overdue < level.days {
        return None;
    }
    if let Some(last) = last {
        if default_interest::days_between(last.on, on) < level.days {
            return None;
        }
    }
    Some(level)
}

/// An invoice as the ladder sees it.
#[derive(Debug, Clone)]
pub struct Case {
    pub currency: String,
    /// Whether the invoice is in the company's book currency (fees apply).
    pub in_book_currency: bool,
    /// Minor units open now.
    pub open: i64,
    pub due: Date,
    pub debtor: Debtor,
    pub last: Option<Last>,
}

/// What the next reminder of an invoice would state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proposal {
    pub level: Level,
    pub on: Date,
    pub open: i64,
    /// The reminder fees in all: those stated before and this level's.
    pub fee: i64,
    /// Default interest, when the level states it and a day of default passed.
    pub interest: Option<Interest>,
    /// The flat sum, when the level states interest and the debtor owes it.
    pub flat_sum: Option<i64>,
    pub new_due: Date,
}

impl Proposal {
    /// Open amount, fees, interest and flat sum together.
    pub fn total(&self) -> i64 {
        self.open
            + self.fee
            + self.interest.as_ref().map_or(0, |i| i.amount)
            + self.flat_sum.unwrap_or(0)
    }
}

/// The reminder `case` is due for on `on`, by `levels` and the base-rate
/// `table`; `None` when nothing is open or no level is due.
///
/// Fails with `Refused` when interest is due and the table has no rate for
/// a day of default, or an amount is too large to book.
pub fn propose(
    levels: &[Level],
    case: &Case,
    on: Date,
    table: &[BaseRate],
) -> Result<Option<Proposal>> {
    if case.open <= 0 {
        return Ok(None);
    }
    let Some(level) = due_level(levels, case.due, case.last.as_ref(), on) else {
        return Ok(None);
    };
    let earlier = case.last.map_or(0, |l| l.fees);
    let fee = earlier + if case.in_book_currency { level.fee } else { 0 };
    let (interest, flat_sum) = if level.interest {
        (
            default_interest::default_interest(case.open, case.due, on, case.debtor, table)?,
            case.debtor.flat_sum(&case.currency),
        )
    } else {
        (None, None)
    };
    let new_due = on
        .checked_add(jiff::Span::new().days(level.pay_days))
        .map_err(Error::internal)?;
    Ok(Some(Proposal {
        level: level.clone(),
        on,
        open: case.open,
        fee,
        interest,
        flat_sum,
        new_due,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::default_interest::shipped;

    fn d(y: i16, m: i8, day: i8) -> Date {
        Date::constant(y, m, day)
    }

    fn case(due: Date, last: Option<Last>, debtor: Debtor) -> Case {
        Case {
            currency: "EUR".into(),
            in_book_currency: true,
            open: 119_000,
            due,
            debtor,
            last,
        }
    }

    #[test]
    fn the_default_ladder_checks_and_its_levels_come_in_order_never_skipped() {
        let levels = defaults();
        check(&levels).unwrap();
        let due = d(2026, 3, 1);
        // 3 days overdue: nothing; 7: the friendly reminder; 60 without any
        // reminder: still the friendly one.
        assert_eq!(due_level(&levels, due, None, d(2026, 3, 4)), None);
        assert_eq!(
            due_level(&levels, due, None, d(2026, 3, 8)).unwrap().level,
            1
        );
        assert_eq!(
            due_level(&levels, due, None, d(2026, 4, 30)).unwrap().level,
            1
        );
        // Level 1 sent on 8 March: level 2 from 22 March, not before.
        let l1 = Last {
            level: 1,
            on: d(2026, 3, 8),
            fees: 0,
        };
        assert_eq!(due_level(&levels, due, Some(&l1), d(2026, 3, 21)), None);
        assert_eq!(
            due_level(&levels, due, Some(&l1), d(2026, 3, 22))
                .unwrap()
                .level,
            2
        );
        let l3 = Last {
            level: 3,
            on: d(2026, 4, 5),
            fees: 0,
        };
        assert_eq!(due_level(&levels, due, Some(&l3), d(2026, 12, 1)), None);
    }

    #[test]
    fn a_proposal_states_fees_so_far_interest_and_the_flat_sum_for_a_business() {
        let mut levels = defaults();
        levels[1].fee = 500;
        levels[2].fee = 700;
        let due = d(2026, 3, 1);
        // Level 1: no fee, no interest.
        let p = propose(
            &levels,
            &case(due, None, Debtor::Business),
            d(2026, 3, 10),
            &shipped(),
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            (p.level.level, p.fee, p.interest.clone(), p.flat_sum),
            (1, 0, None, None)
        );
        assert_eq!(p.new_due, d(2026, 3, 20));
        assert_eq!(p.total(), 119_000);
        // Level 2 on 31 March: 5.00 fee, 30 days at 10.27 % = 10.04, 40.00.
        let l1 = Last {
            level: 1,
            on: d(2026, 3, 10),
            fees: 0,
        };
        let p = propose(
            &levels,
            &case(due, Some(l1), Debtor::Business),
            d(2026, 3, 31),
            &shipped(),
        )
        .unwrap()
        .unwrap();
        assert_eq!(p.level.level, 2);
        assert_eq!(
            (p.fee, p.interest.as_ref().unwrap().amount, p.flat_sum),
            (500, 1004, Some(4000))
        );
        assert_eq!(p.total(), 119_000 + 500 + 1004 + 4000);
        // Level 3 fourteen days later: fees 5.00 + 7.00; the flat sum once.
        let l2 = Last {
            level: 2,
            on: d(2026, 3, 31),
            fees: 500,
        };
        let p = propose(
            &levels,
            &case(due, Some(l2), Debtor::Business),
            d(2026, 4, 14),
            &shipped(),
        )
        .unwrap()
        .unwrap();
        assert_eq!((p.level.level, p.fee, p.flat_sum), (3, 1200, Some(4000)));
        // 44 days at 10.27 %: 119000 × 10.27 × 44 / 36500 = 53773720 / 36500 = 1473.25… → 1473.
        assert_eq!(p.interest.as_ref().unwrap().amount, 1473);
    }

    #[test]
    fn a_consumer_owes_five_points_and_no_flat_sum_and_foreign_invoices_no_fee() {
        let mut levels = defaults();
        levels[1].fee = 500;
        let l1 = Last {
            level: 1,
            on: d(2026, 3, 10),
            fees: 0,
        };
        let mut c = case(d(2026, 3, 1), Some(l1), Debtor::Consumer);
        let p = propose(&levels, &c, d(2026, 3, 31), &shipped())
            .unwrap()
            .unwrap();
        assert_eq!(
            (p.fee, p.interest.as_ref().unwrap().amount, p.flat_sum),
            (500, 613, None)
        );
        c.in_book_currency = false;
        c.currency = "USD".into();
        let p = propose(&levels, &c, d(2026, 3, 31), &shipped())
            .unwrap()
            .unwrap();
        assert_eq!((p.fee, p.flat_sum), (0, None));
        // Nothing open: nothing proposed.
        c.open = 0;
        assert_eq!(
            propose(&levels, &c, d(2026, 3, 31), &shipped()).unwrap(),
            None
        );
    }

    #[test]
    fn a_ladder_with_a_gap_or_unknown_placeholder_is_refused() {
        let mut levels = defaults();
        levels[1].level = 3;
        assert!(check(&levels)
            .unwrap_err()
            .to_string()
            .contains("levels[1].level"));
        let mut levels = defaults();
        levels[0].text.1 = "Rechnung {nummer}".into();
        let e = check(&levels).unwrap_err().to_string();
        assert!(
            e.contains("levels[0].textDe") && e.contains("{nummer}"),
            "{e}"
        );
        assert!(check(&[]).is_err());
    }
}
