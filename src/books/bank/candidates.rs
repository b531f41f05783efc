//! The open documents a person may pick for a line: invoices for money in,
//! bills for money out, in the line's currency, each with what it still
//! owes, and only those the settlement act would take from the line on its
//! day (an invoice dated after the line is taken as money paid in advance).
//! They are searched by number, partner name and amount, and ordered by how
//! well they fit: named in the remittance (number or creditor reference)
//! first, then those whose open amount (or, for a bill paid within its
//! cash discount's period, that amount less the discount) is what the line
//! has left, then those of the payer the ladder recognises (a known IBAN, a
//! name alike), then those that fit inside what the line has left, then by
//! how near their date is to the line's (those dated after it last).
//!
//! `fill` is how ticked documents fill the split: in that order, each
//! takes what it owes (less a cash discount in time) and the last one what
//! is left, so the line pays less than they owe (a partial payment) or
//! more (an overpayment), which the split offers as today.

use std::cmp::Reverse;

use jiff::civil::Date;
use rusqlite::Connection;

use crate::books::bank::lines::{self, Stored};
use crate::books::bank::matching::Ladder;
use crate::books::bank::suggest;
use crate::books::company;
use crate::books::payments::TargetKind;
use crate::books::settling::{self, Way};
use crate::error::{Error, Result};
use crate::store::tenant::Tenant;

/// Most documents a line's list shows at once.
pub const SHOWN: usize = 50;

/// How the open amount of a document fits what the line has left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum AmountFit {
    /// It is what the line has left.
    Exact,
    /// Less its cash discount, in time, it is what the line has left.
    LessDiscount,
    /// It is less than the line has left: one of several it may pay.
    Within,
    /// It is more than the line has left: paid in part.
    Beyond,
}

/// A document a person may pick, with how it fits the line.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub kind: TargetKind,
    pub id: String,
    pub number: String,
    pub partner_name: String,
    pub dated: Date,
    /// What it still owes, minor units, positive.
    pub open: i64,
    /// The cash discount the line may take from it (paid within the
    /// discount's period, the bill owed whole), minor units.
    pub discount: Option<i64>,
    /// The line names it (its number, or its creditor reference).
    pub named: bool,
    /// The ladder recognises the line's payer as its partner.
    pub payer: bool,
    pub fit: AmountFit,
    /// Dated after the line: taken as money paid in advance.
    pub advance: bool,
    /// Days between its date and the line's.
    pub days: i64,
}

impl Candidate {
    /// What it takes when picked and the line has enough: what it owes,
    /// less a cash discount in time.
    pub fn full(&self) -> i64 {
        self.open - self.discount.unwrap_or(0)
    }
}

/// What is searched for: a text in the number or the partner's name, or an
/// amount (minor units) the document owes (less its cash discount).
#[derive(Debug, Clone, Default)]
pub struct Search {
    pub text: String,
    pub amount: Option<i64>,
}

impl Search {
    fn matches(&self, c: &Candidate) -> bool {
        let text = self.text.trim().to_lowercase();
        if text.is_empty() && self.amount.is_none() {
            return true;
        }
        let squeezed = |t: &str| -> String {
            t.chars()
                .filter(|c| c.is_alphanumeric())
                .flat_map(char::to_lowercase)
                .collect()
        };
        let by_text = !text.is_empty()
            && (squeezed(&c.number).contains(&squeezed(&text)) && !squeezed(&text).is_empty()
                || c.partner_name.to_lowercase().contains(&text));
        let by_amount = self
            .amount
            .is_some_and(|a| a == c.open || c.discount.is_some_and(|_| a == c.full()));
        by_text || by_amount
    }
}

/// The documents a line may pick, best fit first.
#[derive(Debug, Clone, Default)]
pub struct Picking {
    /// What the line has left to settle, minor units.
    pub left: i64,
    /// At most `SHOWN` of those the search finds.
    pub shown: Vec<Candidate>,
    /// How many more the search finds.
    pub more: usize,
}

/// Every document of the line's direction and currency, with its fit,
/// best first (not yet asked whether the settlement act takes it).
fn ranked(
    conn: &Connection,
    tenant: &Tenant,
    line: &Stored,
    left: i64,
    today: Date,
) -> Result<Vec<Candidate>> {
    let ladder: Ladder = suggest::ladder(conn, tenant)?;
    let facts = suggest::facts(line, left, today);
    let day = line.day(today);
    let named = ladder.named_items(&facts);
    let mut found = Vec::new();
    for (i, item) in ladder.items().iter().enumerate() {
        if item.open == 0
            || (item.open > 0) != (line.amount > 0)
            || item.currency != line.currency.as_str()
        {
            continue;
        }
        let open = item.open.abs();
        let discount = ladder.cash_discount(i, &facts);
        let fit = if open == left {
            AmountFit::Exact
        } else if discount.is_some_and(|d| open - d == left) {
            AmountFit::LessDiscount
        } else if open < left {
            AmountFit::Within
        } else {
            AmountFit::Beyond
        };
        found.push(Candidate {
            kind: item.kind,
            id: item.id.clone(),
            number: item.number.clone(),
            partner_name: item.partner_name.clone(),
            dated: item.dated,
            open,
            discount,
            named: named.contains(&i),
            payer: ladder.payer_is(i, &facts),
            fit,
            advance: item.dated > day,
            days: (item.dated - day).get_days().abs() as i64,
        });
    }
    found.sort_by_key(|c| {
        (
            Reverse(c.named),
            Reverse(c.fit <= AmountFit::LessDiscount),
            Reverse(c.payer),
            c.fit,
            c.advance,
            c.days,
            c.dated,
            c.number.clone(),
        )
    });
    Ok(found)
}

/// Whether the settlement act takes what the line would pay `c` (all it
/// owes, or what the line has left), and so whether it is offered.
///
/// Fails only on a storage error.
fn taken(
    conn: &Connection,
    tenant: &Tenant,
    c: &Candidate,
    left: i64,
    money: &settling::LineMoney<'_>,
) -> Result<bool> {
    match settling::by_line(conn, tenant, c.kind, &c.id, c.open.min(left), money) {
        Ok(Way::Paid | Way::Advance { .. }) => Ok(true),
        Err(Error::Refused(_) | Error::WrongState(_) | Error::NotFound(_)) => Ok(false),
        Err(other) => Err(other),
    }
}

/// The documents the line may pick that `search` finds, best fit first:
/// at most `SHOWN`, and how many more.
///
/// Fails only on a storage error.
pub fn for_line(
    conn: &Connection,
    tenant: &Tenant,
    line: &Stored,
    search: &Search,
) -> Result<Picking> {
    let company = company::get(conn, &tenant.company_id)?;
    let today = company.today();
    let left = lines::left(conn, tenant, line)?;
    let money = suggest::money_of(line, &company.currency, today);
    let mut picking = Picking {
        left,
        ..Picking::default()
    };
    if left == 0 {
        return Ok(picking);
    }
    for c in ranked(conn, tenant, line, left, today)? {
        if !search.matches(&c) {
            continue;
        }
        if picking.shown.len() == SHOWN {
            picking.more += 1;
        } else if taken(conn, tenant, &c, left, &money)? {
            picking.shown.push(c);
        }
    }
    Ok(picking)
}

/// The documents `ids` the line may pick, in the list's order (those it
/// may not pick, or that are not open, left out).
///
/// Fails only on a storage error.
pub fn chosen(
    conn: &Connection,
    tenant: &Tenant,
    line: &Stored,
    ids: &[String],
) -> Result<Vec<Candidate>> {
    let company = company::get(conn, &tenant.company_id)?;
    let today = company.today();
    let left = lines::left(conn, tenant, line)?;
    let money = suggest::money_of(line, &company.currency, today);
    let mut out = Vec::new();
    for c in ranked(conn, tenant, line, left, today)? {
        if ids.contains(&c.id) && taken(conn, tenant, &c, left, &money)? {
            out.push(c);
        }
    }
    Ok(out)
}

/// How ticked documents fill a split of `left`: in their order, each what
/// it owes (less a cash discount in time) while the line has that much,
/// the last one what is left (less than it owes: paid in part; or all it
/// owes, the rest of the line staying: an overpayment). A document the
/// line has nothing left for gets nothing and is left out.
pub fn fill(left: i64, picked: &[Candidate]) -> Vec<(Candidate, i64)> {
    let mut rest = left;
    let mut out = Vec::new();
    for (k, c) in picked.iter().enumerate() {
        if rest <= 0 {
            break;
        }
        let last = k + 1 == picked.len();
        // The last takes the rest: all it owes when the rest is more.
        let want = if last && rest < c.full() {
            rest.min(c.open)
        } else {
            c.full()
        };
        let amount = want.min(rest);
        out.push((c.clone(), amount));
        rest -= amount;
    }
    out
}

#[cfg(test)]
mod tests {
    //! How ticked documents fill a split.

    use jiff::civil::date;

    use super::*;

    fn c(number: &str, open: i64, discount: Option<i64>) -> Candidate {
        Candidate {
            kind: TargetKind::Invoice,
            id: format!("inv_{number}"),
            number: number.into(),
            partner_name: "Kunde".into(),
            dated: date(2026, 11, 1),
            open,
            discount,
            named: false,
            payer: false,
            fit: AmountFit::Within,
            advance: false,
            days: 0,
        }
    }

    fn amounts(left: i64, picked: &[Candidate]) -> Vec<(String, i64)> {
        fill(left, picked)
            .into_iter()
            .map(|(c, a)| (c.number, a))
            .collect()
    }

    #[test]
    fn each_takes_what_it_owes_and_the_last_the_rest() {
        let two = [c("A", 10_000, None), c("B", 5_000, None)];
        assert_eq!(
            amounts(15_000, &two),
            [("A".into(), 10_000), ("B".into(), 5_000)]
        );
        // Less: the last is paid in part.
        assert_eq!(
            amounts(12_000, &two),
            [("A".into(), 10_000), ("B".into(), 2_000)]
        );
        // More: each what it owes, the rest stays on the line.
        assert_eq!(
            amounts(20_000, &two),
            [("A".into(), 10_000), ("B".into(), 5_000)]
        );
        // Nothing left for the second: it is left out.
        assert_eq!(amounts(8_000, &two), [("A".into(), 8_000)]);
        // A cash discount in time: less it, unless the rest is short of that.
        let bills = [c("L1", 10_000, Some(200)), c("L2", 5_000, Some(100))];
        assert_eq!(
            amounts(14_700, &bills),
            [("L1".into(), 9_800), ("L2".into(), 4_900)]
        );
        assert_eq!(
            amounts(14_000, &bills),
            [("L1".into(), 9_800), ("L2".into(), 4_200)]
        );
    }
}
