//! A person's acts on a bank line: confirm a suggestion (and settle the
//! difference it leaves, or keep an overpayment as the customer's credit),
//! split the line over several documents, book it to an account when no
//! document is paid, ignore it with a reason, and undo what it did. Each
//! act runs in the caller's transaction and writes its audit row; each
//! settlement goes through the one settlement act (`apply`).

use rusqlite::{params, OptionalExtension};
use serde::Serialize;

use crate::books::audit::{self, Act, Actor};
use crate::books::bank::apply;
use crate::books::bank::lines::{self, LineView, State, Stored, Suggestion, Target};
use crate::books::bank::suggest;
use crate::books::company;
use crate::books::ledger::Account;
use crate::books::payments::TargetKind;
use crate::books::settling;
use crate::error::said::{Bank, Record};
use crate::error::{Error, Result, Said, Violations};
use crate::rules::iso::Currency;
use crate::rules::locale;
use crate::rules::text;
use crate::store::db::Tx;
use crate::store::tenant::Tenant;

/// Longest reason for ignoring a line.
pub const MAX_REASON: usize = 200;

/// What a difference left by a confirmed suggestion or a split becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Difference {
    /// The documents stay open by the difference, and what the line pays
    /// beyond them stays on it to be booked.
    Open,
    /// What the documents still owe booked to the bank's fees.
    Fees,
    /// What the documents still owe booked as a discount (granted on an
    /// invoice, received on a bill).
    Discount,
    /// What the line pays beyond the documents kept as the customer's
    /// credit (money in).
    Credit,
}

impl Difference {
    /// Reads `open`, `fees`, `discount` or `credit`.
    ///
    /// Fails with `Invalid` naming `difference` for another word.
    pub fn read(text: &str) -> Result<Difference> {
        match text.trim() {
            "open" => Ok(Difference::Open),
            "fees" => Ok(Difference::Fees),
            "discount" => Ok(Difference::Discount),
            "credit" => Ok(Difference::Credit),
            other => Err(Error::invalid(
                "difference",
                crate::error::not_one_of(&["open", "fees", "discount", "credit"], other),
            )),
        }
    }

    /// What a suggestion's difference becomes unless a person says: a cash
    /// discount taken within its period is booked as the discount, any
    /// other difference stays open.
    pub fn proposed(s: &Suggestion) -> Difference {
        match s.code.as_deref() {
            Some("cashDiscount") => Difference::Discount,
            _ => Difference::Open,
        }
    }
}

/// The line after an act, in its wire form.
#[derive(Debug, Serialize)]
pub struct Acted {
    pub line: LineView,
}

/// The state a line is in after an act: settled when nothing is left
/// (keeping its suggestions, which an undo offers again), else its
/// suggestions computed again for what it has left.
fn restate(tx: &Tx, tenant: &Tenant, line: &Stored) -> Result<()> {
    if apply::left(tx, tenant, line)? == 0 {
        return lines::set_state(
            tx,
            tenant,
            &line.id,
            State::Settled,
            &line.suggestions,
            None,
        );
    }
    let ladder = suggest::ladder(tx, tenant)?;
    suggest::again(tx, tenant, &ladder, line)
}

fn open_line(tx: &Tx, tenant: &Tenant, id: &str) -> Result<Stored> {
    let line = lines::get(tx, tenant, id)?;
    match line.state {
        State::Unmatched | State::Suggested => Ok(line),
        State::Preliminary => Err(Error::wrong_state(Bank::Preliminary { id: id.to_string() })),
        State::Settled => Err(Error::wrong_state(Bank::SettledUndoFirst {
            id: id.to_string(),
        })),
        State::Ignored => Err(Error::wrong_state(Bank::IgnoredUndoFirst {
            id: id.to_string(),
        })),
        State::Replaced => Err(Error::not_found(Said::Record(
            Record::BankLine,
            id.to_string(),
        ))),
    }
}

fn day(tx: &Tx, tenant: &Tenant, line: &Stored) -> Result<jiff::civil::Date> {
    Ok(line.day(company::get(tx, &tenant.company_id)?.today()))
}

/// Confirms the line's suggestion `n` (1 is the best): its documents are
/// settled from the line (an invoice dated after the line from the
/// customer's credit the line's money becomes); what they still owe stays
/// open or is booked to fees or as a discount, and what the line pays
/// beyond them stays on it or is kept as the customer's credit, as
/// `difference` says (none: `Difference::proposed`).
///
/// Fails with `NotFound` for an unknown line, `WrongState` for a line that
/// is not open, `Invalid` for a suggestion it does not have, and as the
/// settlement act refuses.
pub fn confirm(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    id: &str,
    n: usize,
    difference: Option<Difference>,
) -> Result<LineView> {
    let line = open_line(tx, tenant, id)?;
    let count = line
        .suggestions
        .iter()
        .filter(|s| !s.items.is_empty())
        .count();
    let Some(suggestion) = line
        .suggestions
        .iter()
        .filter(|s| !s.items.is_empty())
        .nth(n.wrapping_sub(1))
    else {
        return Err(Error::invalid(
            "suggestion",
            Bank::NoSuchSuggestion {
                n,
                id: id.to_string(),
                count,
            },
        ));
    };
    let difference = difference.unwrap_or_else(|| Difference::proposed(suggestion));
    let on = day(tx, tenant, &line)?;
    apply::settle(tx, tenant, actor, &line, &suggestion.items, on, None)?;
    settle_rest(tx, tenant, actor, &line, &suggestion.items, difference, on)?;
    restate(tx, tenant, &lines::get(tx, tenant, id)?)?;
    audit::record(tx, tenant, actor, Act::BankLineConfirmed, id)?;
    lines::show(tx, tenant, id)
}

/// What a confirmation or split leaves, as `difference` says: what each
/// document of `targets` still owes booked to fees or as a discount, or
/// what the line has left kept as the customer's credit; otherwise nothing.
fn settle_rest(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    line: &Stored,
    targets: &[Target],
    difference: Difference,
    on: jiff::civil::Date,
) -> Result<()> {
    match difference {
        Difference::Open => Ok(()),
        Difference::Credit => {
            if line.amount < 0 {
                return Err(Error::invalid("difference", Bank::CreditForMoneyIn));
            }
            let left = apply::left(tx, tenant, line)?;
            if left > 0 {
                apply::book(tx, tenant, line, Account::CustomerCredits, left, on)?;
            }
            Ok(())
        }
        Difference::Fees | Difference::Discount => {
            for target in targets {
                let rest = still_open(tx, tenant, target)?;
                if rest <= 0 {
                    continue;
                }
                let account = match (difference, target.target_kind) {
                    (Difference::Fees, _) => Account::Fees,
                    (_, TargetKind::Invoice) => Account::DiscountsGranted,
                    (_, TargetKind::Purchase) => Account::DiscountsReceived,
                };
                let part = Target {
                    amount: rest,
                    ..target.clone()
                };
                // On the day the line settled it: the line's, or, paid in
                // advance, the day its credit was applied.
                let day =
                    settling::first_day(tx, tenant, target.target_kind, &target.target_id, on)?;
                apply::difference(tx, tenant, actor, line, &part, account, day)?;
            }
            Ok(())
        }
    }
}

/// What a document still owes, minor units.
fn still_open(tx: &Tx, tenant: &Tenant, target: &Target) -> Result<i64> {
    let sql = match target.target_kind {
        TargetKind::Invoice => "SELECT outstanding FROM invoices WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
        TargetKind::Purchase => "SELECT outstanding FROM purchases WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
    };
    Ok(tx
        .prepare_cached(sql)?
        .query_row(
            params![target.target_id, tenant.company_id, tenant.environment],
            |r| r.get(0),
        )
        .optional()?
        .unwrap_or(0))
}

/// The document a person names by number (or id, as the list of open
/// items picks it) for a line of money in (an invoice) or out (a bill),
/// with what it still owes.
///
/// Fails with `NotFound` when the tenant has no such open document.
fn document(
    tx: &Tx,
    tenant: &Tenant,
    number: &str,
    money_in: bool,
) -> Result<(TargetKind, String, String, i64, Currency)> {
    let number = number.trim();
    let sql = if money_in {
        "SELECT id, number, outstanding, currency FROM invoices WHERE company_id = ?1 AND environment = ?2
           AND (upper(number) = upper(?3) OR id = ?3) AND document_type = 'INVOICE'"
    } else {
        // A bill by its supplier's number, or by its id where two
        // suppliers' bills share that number.
        "SELECT id, document_number, outstanding, currency FROM purchases WHERE company_id = ?1 AND environment = ?2
           AND (upper(document_number) = upper(?3) OR id = ?3) AND kind = 'bill' ORDER BY id = ?3 DESC, seq LIMIT 2"
    };
    let found: Vec<(String, String, i64, Currency)> = tx
        .prepare_cached(sql)?
        .query_map(
            params![tenant.company_id, tenant.environment, number],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )?
        .collect::<rusqlite::Result<_>>()?;
    let kind = if money_in {
        TargetKind::Invoice
    } else {
        TargetKind::Purchase
    };
    match found.as_slice() {
        [] => Err(Error::not_found(Bank::NoDocument {
            number: number.to_string(),
            bill: !money_in,
        })),
        [(id, ..), (other, ..)] if id != number => Err(Error::refused(Bank::TwoSuppliers {
            number: number.to_string(),
            a: id.clone(),
            b: other.clone(),
        })),
        [(id, n, open, currency), ..] => Ok((kind, id.clone(), n.clone(), *open, currency.clone())),
    }
}

/// Splits the line over documents named by number (or id), each with the
/// amount it gets (minor units), through the settlement act as `confirm`
/// does (an invoice dated after the line from the customer's credit); what
/// the documents still owe, and what the line has left, become what
/// `difference` says (none: both stay).
///
/// Fails with `NotFound` for an unknown line or document, `WrongState` for
/// a line that is not open, `Invalid` for no part or an amount that is not
/// positive, `Refused` when the parts add up to more than the line or a
/// part to more than its document owes, or a document is named twice.
pub fn split(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    id: &str,
    parts: &[(String, i64)],
    difference: Option<Difference>,
) -> Result<LineView> {
    let line = open_line(tx, tenant, id)?;
    let mut v = Violations::new();
    if parts.is_empty() {
        v.invalid("to", Bank::SplitMissing);
    }
    let mut targets: Vec<Target> = Vec::new();
    for (i, (number, amount)) in parts.iter().enumerate() {
        if *amount <= 0 {
            v.invalid(format!("to[{i}]"), Bank::PositiveAmount);
            continue;
        }
        if let Some((kind, target_id, number, open, owed_in)) = v.take(
            document(tx, tenant, number, line.amount > 0).map_err(|e| match e {
                Error::NotFound(what) => Error::refused_at(format!("to[{i}]"), Bank::Names(what)),
                other => other,
            }),
        )? {
            // A document owed in another currency than the line's is
            // refused by the settlement act (kontor converts no bank money);
            // its open amount is no measure of the line's.
            if owed_in == line.currency && *amount > open {
                v.refused(
                    format!("to[{i}]"),
                    Bank::PartAboveOpen {
                        number: number.clone(),
                        amount: locale::sum(*amount, &line.currency),
                        open: locale::sum(open, &owed_in),
                    },
                );
            }
            if targets.iter().any(|t| t.target_id == target_id) {
                v.refused(
                    format!("to[{i}]"),
                    Bank::NamedTwice {
                        number: number.clone(),
                    },
                );
            }
            targets.push(Target {
                target_kind: kind,
                target_id,
                number,
                amount: *amount,
            });
        }
    }
    v.finish()?;
    let total: i64 = targets.iter().map(|t| t.amount).sum();
    if total > apply::left(tx, tenant, &line)? {
        return Err(Error::refused_at(
            "to",
            Bank::SplitAboveLeft {
                total: locale::sum(total, &line.currency),
                left: locale::sum(apply::left(tx, tenant, &line)?, &line.currency),
            },
        ));
    }
    let on = day(tx, tenant, &line)?;
    apply::settle(tx, tenant, actor, &line, &targets, on, None)?;
    settle_rest(
        tx,
        tenant,
        actor,
        &line,
        &targets,
        difference.unwrap_or(Difference::Open),
        on,
    )?;
    restate(tx, tenant, &lines::get(tx, tenant, id)?)?;
    audit::record(tx, tenant, actor, Act::BankLineSplit, id)?;
    lines::show(tx, tenant, id)
}

/// Books what the line has left (or `amount` of it) to an account picked
/// from the short list: fees, interest, tax (the tax office), transfer
/// (between the company's own accounts), other, and for money in credit (an
/// overpayment kept as the customer's credit).
///
/// Fails with `NotFound`, `WrongState` as `split`, `Invalid` for another
/// account name, `Refused` for more than the line has left or closed books.
pub fn book(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    id: &str,
    account: &str,
    amount: Option<i64>,
) -> Result<LineView> {
    let line = open_line(tx, tenant, id)?;
    let account = apply::account_named(account.trim(), line.amount > 0)?;
    let left = apply::left(tx, tenant, &line)?;
    let on = day(tx, tenant, &line)?;
    apply::book(tx, tenant, &line, account, amount.unwrap_or(left), on)?;
    restate(tx, tenant, &lines::get(tx, tenant, id)?)?;
    audit::record(tx, tenant, actor, Act::BankLineBooked, id)?;
    lines::show(tx, tenant, id)
}

/// Ignores a line that settled nothing, with the reason (a private
/// transfer, a duplicate the bank sent twice).
///
/// Fails with `NotFound`, `WrongState` as `split` or when the line settled
/// something already, `Invalid` for a missing or too long reason.
pub fn ignore(tx: &Tx, tenant: &Tenant, actor: &Actor, id: &str, reason: &str) -> Result<LineView> {
    let line = open_line(tx, tenant, id)?;
    let reason = text::required("reason", Some(reason), MAX_REASON)?;
    if apply::left(tx, tenant, &line)? != line.amount.abs() {
        return Err(Error::wrong_state(Bank::PartlySettled {
            id: id.to_string(),
        }));
    }
    lines::set_state(
        tx,
        tenant,
        id,
        State::Ignored,
        &line.suggestions,
        Some(&reason),
    )?;
    audit::record(tx, tenant, actor, Act::BankLineIgnored, id)?;
    lines::show(tx, tenant, id)
}

/// Undoes what a line did, by counter-postings on today's date (payments
/// reversed, never deleted), or takes an ignored line back.
///
/// Fails with `NotFound` for an unknown line and `WrongState` for a line
/// that did nothing or is a returned direct debit.
pub fn undo(tx: &Tx, tenant: &Tenant, actor: &Actor, id: &str) -> Result<LineView> {
    let line = lines::get(tx, tenant, id)?;
    if line.state == State::Ignored {
        let state = if line.suggestions.iter().any(|s| !s.items.is_empty()) {
            State::Suggested
        } else {
            State::Unmatched
        };
        lines::set_state(tx, tenant, id, state, &line.suggestions, None)?;
    } else {
        let today = company::get(tx, &tenant.company_id)?.today();
        apply::undo(tx, tenant, actor, &line, today)?;
        // Undone, it offers what the documents owe now.
        restate(tx, tenant, &lines::get(tx, tenant, id)?)?;
    }
    audit::record(tx, tenant, actor, Act::BankLineUndone, id)?;
    lines::show(tx, tenant, id)
}
