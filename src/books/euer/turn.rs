//! The ten-day rule at the turn of a fiscal year (§ 11 (1) sentence 2,
//! (2) sentence 2 EStG): a regularly recurring payment made within ten
//! days after the year's end belongs to the year it is for. For the VAT
//! return's prepayment the BFH holds it such a payment (01.08.2007,
//! XI R 48/05, BStBl. 2008 II S. 282), "ten days" the short time
//! (11.11.2014, VIII R 34/12), and that the payment and its due day must
//! both fall within those days (16.02.2022, X R 2/21, BStBl. 2022 II
//! S. 448; 13.12.2022, VIII R 1/20), whatever weekday the tenth is
//! (27.06.2018, X R 44/16). So with the one-month extension the
//! December (or fourth quarter's) prepayment, due on 10 February, is an
//! expense of the year it is paid in.
//!
//! kontor does not know which period a payment to the tax office pays: it
//! takes a payment made in those ten days for the prepayment due in them,
//! when one is due in them by the company's return period and extension
//! as they held on the old year's last day: December's (monthly) or the
//! fourth quarter's (quarterly) without the extension, November's for a
//! monthly filer with it; a quarterly filer with the extension has none
//! due then. The turn of the year is the fiscal year's (1 to 10 January
//! for a calendar year).

use jiff::civil::Date;
use jiff::ToSpan;
use rusqlite::Connection;

use crate::books::tax_methods::{self, methods::return_due};
use crate::error::Result;

/// The ten days after a fiscal year's end, and whether a prepayment is due
/// in them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Turn {
    /// The new year's first day.
    pub from: Date,
    /// Its tenth day.
    pub through: Date,
    /// Whether a VAT prepayment falls due within `from..=through`, so one
    /// paid then belongs to the year before.
    pub due: bool,
}

impl Turn {
    /// Whether a payment to the tax office made on `day` belongs to the
    /// year that ended before these days.
    pub fn counts_back(&self, day: Date) -> bool {
        self.due && (self.from..=self.through).contains(&day)
    }
}

/// The turn into the fiscal year that begins on `first`.
///
/// Fails only on a storage error.
pub fn into(conn: &Connection, company_id: &str, first: Date) -> Result<Turn> {
    let through = first.checked_add(9.days()).unwrap_or(first);
    let last = first.yesterday().unwrap_or(first);
    let methods = tax_methods::on(conn, company_id, last)?;
    // The periods that end on the old year's last month's end or the
    // month's before, which are the ones due in January's first days.
    let month_before = last.first_of_month().yesterday().unwrap_or(last);
    let due = [last.last_of_month(), month_before].into_iter().any(|end| {
        methods.return_period.end_of(end) == end
            && (first..=through).contains(&return_due(end, methods.extension))
    });
    Ok(Turn {
        from: first,
        through,
        due,
    })
}
