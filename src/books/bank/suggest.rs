//! The suggestions a line offers: the ladder's proposals, each kept only
//! when the settlement act would take it (`offer`, asking
//! `books::settling` for every document it names), stored with its reason
//! (a sentence and a code) and the difference it leaves; an invoice dated
//! after the line is offered as money paid in advance. They are computed
//! again (`refresh`) for every line waiting whose suggestions name a
//! document that changed (paid by hand or from another line, credited,
//! taken back, cancelled), against what the documents owe now and for what
//! the line has left, so no suggestion names a paid document and none is
//! refused when confirmed.

use std::collections::HashSet;

use jiff::civil::Date;
use rusqlite::Connection;

use crate::books::bank::accounts;
use crate::books::bank::items;
use crate::books::bank::lines::{self, State, Stored, Suggestion, Target};
use crate::books::bank::matching::{Ladder, LineFacts, Outcome, Proposal, Reason};
use crate::books::company;
use crate::books::settling::{self, LineMoney, Way};
use crate::error::{Error, Result};
use crate::rules::iso::Currency;
use crate::rules::locale;
use crate::store::db::Tx;
use crate::store::tenant::Tenant;

/// What the ladder reads of a line that has `left` of its amount to settle.
pub fn facts(line: &Stored, left: i64, today: Date) -> LineFacts {
    LineFacts {
        amount: if line.amount < 0 { -left } else { left },
        currency: line.currency.as_str().to_string(),
        iban: line.counterparty_iban.clone(),
        name: line.counterparty_name.clone(),
        remittance: line.remittance.clone(),
        end_to_end_id: line.end_to_end_id.clone(),
        creditor_references: line.creditor_reference.iter().cloned().collect(),
        day: Some(line.day(today)),
    }
}

/// A proposal of the ladder as stored: its targets, its reason in a
/// sentence and as a code, the difference it leaves of `amount` (what the
/// line had to settle, signed).
pub fn stored(ladder: &Ladder, p: &Proposal, amount: i64, currency: &Currency) -> Suggestion {
    let items: Vec<_> = p
        .allocations
        .iter()
        .map(|(i, _)| &ladder.items()[*i])
        .collect();
    let shown = |m: i64| locale::in_sentence(m, currency);
    Suggestion {
        items: p
            .allocations
            .iter()
            .map(|(i, amount)| {
                let item = &ladder.items()[*i];
                Target {
                    target_kind: item.kind,
                    target_id: item.id.clone(),
                    number: item.number.clone(),
                    amount: *amount,
                }
            })
            .collect(),
        reason: p.reason.sentence(&items, &shown),
        difference: match p.reason {
            Reason::Partial(d) | Reason::FeeReduced(d) | Reason::CashDiscount(d) => d,
            Reason::Overpaid(d) => -d,
            _ => amount.abs() - p.total(),
        },
        code: Some(p.reason.code().to_string()),
        advance: false,
    }
}

/// The line's money as the settlement rules see it, on the line's day.
pub fn money_of<'a>(line: &'a Stored, books: &'a Currency, today: Date) -> LineMoney<'a> {
    LineMoney {
        line_id: &line.id,
        on: line.day(today),
        currency: &line.currency,
        books,
    }
}

/// How the settlement act would take `s` from the line: each document it
/// names paid or (an invoice dated after the line) kept as credit and
/// applied; the suggestion marked `advance` when one is.
///
/// Fails with the refusal of the first document the act would refuse.
pub fn offer(
    conn: &Connection,
    tenant: &Tenant,
    money: &LineMoney<'_>,
    s: Suggestion,
) -> Result<Suggestion> {
    let mut s = s;
    // A cash discount is settled with the payment: the document owes it too.
    let discount = match s.code.as_deref() {
        Some("cashDiscount") => s.difference.max(0),
        _ => 0,
    };
    let last = s.items.len().saturating_sub(1);
    for (k, t) in s.items.iter().enumerate() {
        let amount = t.amount + if k == last { discount } else { 0 };
        if let Way::Advance { .. } =
            settling::by_line(conn, tenant, t.target_kind, &t.target_id, amount, money)?
        {
            s.advance = true;
        }
    }
    Ok(s)
}

/// The suggestions the ladder makes of a line with `left` to settle, those
/// the settlement act would refuse left out; a certain match is one of them
/// (a person confirms it).
///
/// Fails only on a storage error.
pub fn offers(
    conn: &Connection,
    tenant: &Tenant,
    ladder: &Ladder,
    line: &Stored,
    left: i64,
    money: &LineMoney<'_>,
    today: Date,
) -> Result<Vec<Suggestion>> {
    let f = facts(line, left, today);
    let proposals = match ladder.judge(&f) {
        Outcome::Certain(p) => vec![p],
        Outcome::Suggested(list) => list,
        Outcome::Unmatched => Vec::new(),
    };
    let mut kept = Vec::new();
    for p in &proposals {
        let s = stored(ladder, p, f.amount, &line.currency);
        match offer(conn, tenant, money, s) {
            Ok(s) => kept.push(s),
            Err(Error::Refused(_) | Error::WrongState(_) | Error::NotFound(_)) => {}
            Err(other) => return Err(other),
        }
    }
    Ok(kept)
}

/// The ladder over what the tenant's documents owe now.
///
/// Fails only on a storage error.
pub fn ladder(conn: &Connection, tenant: &Tenant) -> Result<Ladder> {
    Ok(Ladder::new(
        items::open(conn, tenant)?,
        items::known_ibans(conn, tenant)?,
        accounts::fee_tolerance(conn, &tenant.company_id)?,
    ))
}

/// Computes the suggestions of `line` again for what it has left, and
/// stores them with its state (suggested, else unmatched); a line with
/// nothing left is left as it is.
///
/// Fails only on a storage error.
pub fn again(tx: &Tx, tenant: &Tenant, ladder: &Ladder, line: &Stored) -> Result<()> {
    let left = lines::left(tx, tenant, line)?;
    if left == 0 {
        return Ok(());
    }
    let company = company::get(tx, &tenant.company_id)?;
    let today = company.today();
    let money = money_of(line, &company.currency, today);
    let offered = offers(tx, tenant, ladder, line, left, &money, today)?;
    let state = if offered.is_empty() {
        State::Unmatched
    } else {
        State::Suggested
    };
    lines::set_state(tx, tenant, &line.id, state, &offered, None)
}

/// Computes again the suggestions of every line waiting whose suggestions
/// name one of `documents` (invoice or purchase ids that changed).
///
/// Fails only on a storage error.
pub fn refresh(tx: &Tx, tenant: &Tenant, documents: &HashSet<String>) -> Result<()> {
    let waiting = lines::suggesting(tx, tenant, documents)?;
    if waiting.is_empty() {
        return Ok(());
    }
    let ladder = ladder(tx, tenant)?;
    for line in &waiting {
        again(tx, tenant, &ladder, line)?;
    }
    Ok(())
}

/// `refresh` for one document.
///
/// Fails only on a storage error.
pub fn refresh_one(tx: &Tx, tenant: &Tenant, document: &str) -> Result<()> {
    refresh(tx, tenant, &HashSet::from([document.to_string()]))
}
