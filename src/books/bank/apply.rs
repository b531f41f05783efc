//! What a bank line does to the books, for the import and for a person's
//! acts alike: settle documents through the one settlement act (a payment
//! with method `bank`, the line's id and the bank account as the ledger's
//! detail; money paid before an invoice's date kept as the customer's
//! credit and applied to it), settle a difference without money (to a fee or discount
//! account), book money to an account (fees, interest, the tax office, a
//! transfer, an overpayment kept as credit, other), take back what a
//! returned direct debit's original line settled, and undo all of it by
//! counter-postings. Each writes its row in `bank_settlements`; none deletes.

use jiff::civil::Date;
use rusqlite::params;

use rusqlite::OptionalExtension;

use crate::books::audit::{self, Act, Actor};
use crate::books::bank::lines::{self, SettlementKind, State, Stored, Target};
use crate::books::company;
use crate::books::ledger::{self, Account, Posting};
use crate::books::settlement::{self, BankSource, NewPayment, TargetKind, Undoing};
use crate::books::settling::{self, in_line_words, LineMoney, Way};
use crate::error::said::Bank;
use crate::error::{Error, Result};
use crate::rules::locale;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::tenant::Tenant;

/// Settles `targets` from `line` on `on`, each through the settlement
/// act: a payment (method `bank`), or, for an invoice dated after `on`
/// (money paid in advance), the amount booked as the customer's credit on
/// `on` and that credit applied to the invoice on its own day. `import`
/// names the file when the import settles a certain match (always a
/// payment).
///
/// Fails as the settlement act refuses (more than is open, a day before a
/// bill or a later settlement, in closed books, a document of another
/// currency).
pub fn settle(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    line: &Stored,
    targets: &[Target],
    on: Date,
    import: Option<&str>,
) -> Result<()> {
    let total: i64 = targets.iter().map(|t| t.amount).sum();
    let left = left(tx, tenant, line)?;
    if total > left {
        return Err(Error::refused(Bank::LeftToSettle {
            id: line.id.clone(),
            left: locale::sum(left, &line.currency),
            total: locale::sum(total, &line.currency),
        }));
    }
    // The book currency: an advance is kept as credit in it (not asked
    // for the import's certain matches).
    let books = match import {
        Some(_) => line.currency.clone(),
        None => company::get(tx, &tenant.company_id)?.currency,
    };
    let money = LineMoney {
        line_id: &line.id,
        on,
        currency: &line.currency,
        books: &books,
    };
    for target in targets {
        // The import's certain matches are no advances (those wait for a
        // person): they go to the settlement act, which checks them.
        let way = match import {
            Some(_) => Way::Paid,
            None => settling::by_line(
                tx,
                tenant,
                target.target_kind,
                &target.target_id,
                target.amount,
                &money,
            )?,
        };
        if let Way::Advance { applied_on } = way {
            advance(tx, tenant, actor, line, target, on, applied_on)?;
            continue;
        }
        let reference = line
            .end_to_end_id
            .clone()
            .or_else(|| Some(line.remittance.clone()).filter(|r| !r.is_empty()));
        let source = BankSource {
            account_id: line.bank_account_id.clone(),
            line_id: line.id.clone(),
            currency: line.currency.clone(),
            import: import.map(str::to_string),
        };
        let payment = NewPayment::from_bank(target.amount, on, reference, source);
        let paid = match target.target_kind {
            TargetKind::Invoice => {
                settlement::pay_invoice(tx, tenant, actor, &target.number, &payment)
                    .map_err(in_line_words)?
                    .0
            }
            TargetKind::Purchase => {
                settlement::pay_bill(tx, tenant, actor, &target.target_id, &payment)
                    .map_err(in_line_words)?
            }
        };
        lines::record_settlement(
            tx,
            tenant,
            &ids::new_id("bse"),
            &line.id,
            SettlementKind::Payment,
            Some(&paid.id),
            Some(target),
            None,
            &line.bank_account_id,
            target.amount,
            on,
        )?;
    }
    Ok(())
}

/// Money the line paid before the invoice `target` is dated: booked as the
/// customer's credit on `on` (bank to customer credits, as `book` does)
/// and applied to the invoice on `applied_on` (customer credits to
/// receivables, through the settlement act), each its row of what the
/// line did.
fn advance(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    line: &Stored,
    target: &Target,
    on: Date,
    applied_on: Date,
) -> Result<()> {
    book(
        tx,
        tenant,
        line,
        Account::CustomerCredits,
        target.amount,
        on,
    )?;
    let id = ids::new_id("bse");
    settlement::apply_customer_credit(
        tx,
        tenant,
        actor,
        &target.target_id,
        target.amount,
        applied_on,
        &id,
    )
    .map_err(in_line_words)?;
    record_difference(
        tx,
        tenant,
        &id,
        line,
        target,
        Account::CustomerCredits,
        applied_on,
    )
}

/// What the line has left to settle or book, minor units.
pub fn left(tx: &Tx, tenant: &Tenant, line: &Stored) -> Result<i64> {
    lines::left(tx, tenant, line)
}

/// The accounts a line without a document can be booked to, by the names a
/// person picks from, in the order they are offered for a line of money in
/// (`money_in`) or out: the first is the one proposed. Money in: other
/// (suspense, for the tax adviser), interest received, the customer's
/// credit, a tax refund, a transfer from an own account, fees refunded;
/// money out: bank fees, interest paid, the tax office, a transfer, other.
pub fn accounts_for(money_in: bool) -> &'static [&'static str] {
    if money_in {
        &["other", "interest", "credit", "tax", "transfer", "fees"]
    } else {
        &["fees", "interest", "tax", "transfer", "other"]
    }
}

/// The account of one of `accounts_for`'s names: `fees`, `interest`,
/// `tax`, `transfer`, `other`, and `credit` (an overpayment kept as the
/// customer's credit) for money in.
///
/// Fails with `Invalid` naming `account` for another name.
pub fn account_named(name: &str, money_in: bool) -> Result<Account> {
    Ok(match name {
        "fees" => Account::Fees,
        "interest" if money_in => Account::InterestIncome,
        "interest" => Account::InterestExpense,
        "tax" => Account::TaxOffice,
        "transfer" => Account::Transfer,
        "other" => Account::Suspense,
        "credit" if money_in => Account::CustomerCredits,
        _ => {
            return Err(Error::invalid(
                "account",
                Bank::NotBookAccount {
                    got: name.to_string(),
                    money_in,
                },
            ))
        }
    })
}

/// Books `amount` of the line to `account`: money in is bank (the line's
/// account) to `account`, money out the other way round.
///
/// Fails with `Refused` for more than the line has left, a line in another
/// currency than the books, or in closed books.
pub fn book(
    tx: &Tx,
    tenant: &Tenant,
    line: &Stored,
    account: Account,
    amount: i64,
    on: Date,
) -> Result<()> {
    if amount <= 0 || amount > left(tx, tenant, line)? {
        return Err(Error::refused_at(
            "amount",
            Bank::AboveLeftToBook {
                id: line.id.clone(),
            },
        ));
    }
    let books = company::get(tx, &tenant.company_id)?.currency;
    if line.currency != books {
        return Err(Error::refused(Bank::LineCurrencyBooks {
            id: line.id.clone(),
            currency: line.currency.as_str().to_string(),
            books: books.as_str().to_string(),
        }));
    }
    ledger::check_open(tx, tenant, on)?;
    let id = ids::new_id("bse");
    let postings = if line.amount > 0 {
        [
            Posting::debit(Account::Bank, amount).of(&line.bank_account_id),
            Posting::credit(account, amount),
        ]
    } else {
        [
            Posting::debit(account, amount),
            Posting::credit(Account::Bank, amount).of(&line.bank_account_id),
        ]
    };
    ledger::post(tx, tenant, &id, on, &postings)?;
    lines::record_settlement(
        tx,
        tenant,
        &id,
        &line.id,
        SettlementKind::Booking,
        None,
        None,
        Some(account.as_str()),
        &line.bank_account_id,
        amount,
        on,
    )?;
    Ok(())
}

/// Settles what is left of a document without money (a partial payment's
/// or a fee-reduced payment's difference), to `account`.
///
/// Fails as the settlement act refuses.
pub fn difference(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    line: &Stored,
    target: &Target,
    account: Account,
    on: Date,
) -> Result<()> {
    let id = ids::new_id("bse");
    settlement::settle_difference(
        tx,
        tenant,
        actor,
        target.target_kind,
        &target.target_id,
        target.amount,
        on,
        account,
        &id,
    )?;
    record_difference(tx, tenant, &id, line, target, account, on)
}

/// Notes on the line that settlement `id` settled `target`'s amount as a
/// difference booked on `account`.
fn record_difference(
    tx: &Tx,
    tenant: &Tenant,
    id: &str,
    line: &Stored,
    target: &Target,
    account: Account,
    on: Date,
) -> Result<()> {
    lines::record_settlement(
        tx,
        tenant,
        id,
        &line.id,
        SettlementKind::Difference,
        None,
        Some(target),
        Some(account.as_str()),
        "",
        target.amount,
        on,
    )
}

/// A returned direct debit (a reversed debit) takes back what its original
/// line settled: the settled credit line of the same end-to-end id (else
/// mandate) whose amount is the return's less the bank's charges. Its
/// payments are reversed by counter-postings, and so are the differences
/// booked with them (a discount or fees granted for a payment that did not
/// come: the document owes its whole amount again); the charges are booked
/// to fees. Returns whether the original was found.
///
/// Fails only as the settlement act or storage fails.
pub fn take_back(tx: &Tx, tenant: &Tenant, actor: &Actor, line: &Stored, on: Date) -> Result<bool> {
    let returned = line.amount.abs() - line.charges;
    let Some(key) = line.end_to_end_id.as_deref().or(line.mandate_id.as_deref()) else {
        return Ok(false);
    };
    let original: Option<String> = tx
        .prepare_cached(
            "SELECT id FROM bank_lines l
             WHERE company_id = ?1 AND environment = ?2 AND state = 'settled' AND amount = ?3
               AND (end_to_end_id = ?4 OR mandate_id = ?4) AND id <> ?5
               AND EXISTS (SELECT 1 FROM bank_settlements s JOIN payments p ON p.id = s.payment_id
                           WHERE s.line_id = l.id AND s.kind = 'payment' AND s.undone_at IS NULL
                             AND p.reversed_on IS NULL)
             ORDER BY seq DESC LIMIT 1",
        )?
        .query_row(
            params![
                tenant.company_id,
                tenant.environment,
                returned,
                key,
                line.id
            ],
            |r| r.get(0),
        )
        .optional()?;
    let Some(original) = original else {
        return Ok(false);
    };
    for s in lines::settlements(tx, tenant, &original)? {
        if s.undone_at.is_some() || s.returned_on.is_some() {
            continue;
        }
        match s.kind {
            SettlementKind::Difference => {
                let by = reverse(tx, tenant, actor, &s, on)?;
                lines::mark_undone(tx, tenant, &s.id, Some(&by))?;
                continue;
            }
            SettlementKind::Payment => {}
            SettlementKind::Booking | SettlementKind::Return => continue,
        }
        let (Some(payment), Some(kind), Some(target_id), Some(number)) =
            (&s.payment_id, s.target_kind, &s.target_id, &s.number)
        else {
            continue;
        };
        let id = reverse(tx, tenant, actor, &s, on)?;
        let target = Target {
            target_kind: kind,
            target_id: target_id.clone(),
            number: number.clone(),
            amount: s.amount,
        };
        lines::record_settlement(
            tx,
            tenant,
            &id,
            &line.id,
            SettlementKind::Return,
            Some(payment),
            Some(&target),
            None,
            &line.bank_account_id,
            s.amount,
            on,
        )?;
    }
    audit::record(tx, tenant, actor, Act::BankLineReturned, &line.id)?;
    if line.charges > 0 {
        book(tx, tenant, line, Account::Fees, line.charges, on)?;
    }
    lines::set_state(tx, tenant, &line.id, State::Settled, &[], None)?;
    Ok(true)
}

/// Reverses what a payment or difference `s` of a line settled, by the
/// settlement act's counter-posting dated `on`; returns the counter-
/// posting's entry id.
///
/// Fails with `Internal` for a settlement without its document, else as
/// the settlement act refuses.
fn reverse(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    s: &lines::Settlement,
    on: Date,
) -> Result<String> {
    let (Some(kind), Some(target)) = (s.target_kind, s.target_id.as_deref()) else {
        return Err(Error::internal("a settlement without its document"));
    };
    // A payment's ledger entry is the payment; a difference's is the settlement row.
    let original = s.payment_id.as_deref().unwrap_or(&s.id);
    let id = ids::new_id("bse");
    settlement::reverse(
        tx,
        tenant,
        actor,
        kind,
        target,
        original,
        s.amount,
        on,
        &id,
        Undoing::BankLine,
    )?;
    Ok(id)
}

/// Undoes everything the line did by counter-postings (payments reversed,
/// differences reopened, bookings reversed); nothing is deleted. The line
/// goes back to suggested (with its suggestions) or unmatched.
///
/// Fails with `WrongState` for a line that did nothing, a returned direct
/// debit (its taking back stands), or a line such a debit returned.
pub fn undo(tx: &Tx, tenant: &Tenant, actor: &Actor, line: &Stored, on: Date) -> Result<usize> {
    let done: Vec<_> = lines::settlements(tx, tenant, &line.id)?
        .into_iter()
        .filter(|s| s.undone_at.is_none())
        .collect();
    if done.is_empty() {
        return Err(Error::wrong_state(Bank::NothingToUndo {
            id: line.id.clone(),
        }));
    }
    if done.iter().any(|s| s.kind == SettlementKind::Return) {
        return Err(Error::wrong_state(Bank::ReturnedDebit {
            id: line.id.clone(),
        }));
    }
    for s in &done {
        if let Some(when) = s.returned_on {
            return Err(Error::wrong_state(Bank::WasReturned {
                id: line.id.clone(),
                payment: s.payment_id.clone().unwrap_or_default(),
                on: when,
            }));
        }
    }
    ledger::check_open(tx, tenant, on)?;
    for s in &done {
        let by = match s.kind {
            SettlementKind::Payment | SettlementKind::Difference => {
                Some(reverse(tx, tenant, actor, s, on)?)
            }
            SettlementKind::Booking => {
                let account = s
                    .account
                    .as_deref()
                    .and_then(Account::parse)
                    .ok_or_else(|| Error::internal("a booking without account"))?;
                let postings = if line.amount > 0 {
                    [
                        Posting::credit(Account::Bank, s.amount).of(&s.detail),
                        Posting::debit(account, s.amount),
                    ]
                } else {
                    [
                        Posting::credit(account, s.amount),
                        Posting::debit(Account::Bank, s.amount).of(&s.detail),
                    ]
                };
                let id = ids::new_id("bse");
                ledger::post(tx, tenant, &id, on, &postings)?;
                Some(id)
            }
            SettlementKind::Return => None,
        };
        lines::mark_undone(tx, tenant, &s.id, by.as_deref())?;
    }
    let state = if line.suggestions.iter().any(|s| !s.items.is_empty()) {
        State::Suggested
    } else {
        State::Unmatched
    };
    lines::set_state(tx, tenant, &line.id, state, &line.suggestions, None)?;
    Ok(done.len())
}
