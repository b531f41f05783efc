//! A reminder (Zahlungserinnerung, Mahnung) of an issued invoice, as its
//! letter states it: the invoice's own document (seller, buyer, number,
//! dates, bank details), the level and its title and text in the
//! customer's language, the day, the amount open, the reminder fees,
//! default interest with its period and rate, the flat sum, the total and
//! the new due date. The PDF writer lays it out like the invoice
//! (`pdf::write_reminder`); the books build it.

use jiff::civil::Date;

use crate::documents::Document;
use crate::rules::locale::Lang;
use crate::rules::money::Decimal;

/// Default interest as the letter states it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatedInterest {
    pub from: Date,
    pub through: Date,
    pub days: i64,
    /// The rate it runs at now (base rate plus points).
    pub percent: Decimal,
    /// The points above the base rate (9 or 5).
    pub points: i64,
    pub amount: i64,
}

/// Everything a reminder's letter carries; amounts in the invoice's currency.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reminder {
    pub invoice: Document,
    pub lang: Lang,
    pub level: u8,
    pub title: String,
    /// The letter's text, placeholders filled.
    pub text: String,
    pub on: Date,
    pub open: i64,
    pub fee: i64,
    pub interest: Option<StatedInterest>,
    pub flat_sum: Option<i64>,
    pub new_due: Date,
}

impl Reminder {
    /// Open amount, fees, interest and flat sum together.
    pub fn total(&self) -> i64 {
        self.open
            + self.fee
            + self.interest.as_ref().map_or(0, |i| i.amount)
            + self.flat_sum.unwrap_or(0)
    }
}
