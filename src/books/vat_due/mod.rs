//! VAT that falls due with the money (`rules::cash_vat`): the lines the
//! acts post when a company taxed on payments received issues an invoice,
//! is paid, grants a discount, takes a payment back or cancels, and when a
//! bill's input tax waits for its payment. Each act calls in here and posts
//! what it gets in its own entry; the register records each move with the
//! entry that made it, so a document never moves more than it has not due.
//!
//! The ledger: an invoice of such a company credits the revenue of the keys
//! that follow the payment under the key marked not received (`S:19:IST`)
//! and their tax to `output_tax_not_due`; a payment moves its part of each
//! key to the plain key and to `output_tax` (the VAT return reads only
//! those); a discount or fee settles the rest against what is not due, so
//! that part never falls due. A bill whose input tax waits books it to
//! `input_tax_later`; paying it moves its part to `input_tax`.
//!
//! - `register.rs`: the moves of VAT not yet due, per document and entry,
//!   and what a document has not due through a day.
//! - `postings.rs`: the ledger lines that make a key's base and tax due.
//!   Pure functions.
//! - `switch.rs`: a company taxed on invoices again from a day on: what its
//!   sales still have not due falls due that day, kept right as the books
//!   change (`reconcile`, `reconcile_all`).

pub mod postings;
pub mod register;
pub mod switch;

use jiff::civil::Date;
use rusqlite::Connection;

use crate::books::discount;
use crate::books::ledger::{self, Account, Posting};
use crate::books::report::Side as Owed;
use crate::books::tax_methods;
use crate::error::Result;
use crate::rules::cash_vat::{self, Share};
use crate::store::db::Tx;
use crate::store::tenant::Tenant;
use register::{Kind, Move, Side};

/// Whether an invoice a company issues on `day` states "Versteuerung nach
/// vereinnahmten Entgelten": it is taxed on payments received that day,
/// and the amended § 14 (4) no. 6a UStG applies (`rules::cash_vat`).
///
/// Fails only on a storage error.
pub fn states_cash_basis(conn: &Connection, company_id: &str, day: Date) -> Result<bool> {
    Ok(cash_vat::states_cash_basis(day) && tax_methods::on(conn, company_id, day)?.is_ist())
}

/// A settlement as the register sees it.
#[derive(Debug, Clone, Copy)]
pub struct Settling<'a> {
    /// A receivable (an invoice) or a payable (a bill).
    pub side: Owed,
    pub document: &'a str,
    /// The ledger entry the settlement posts.
    pub entry: &'a str,
    /// The payment, when money moved.
    pub payment: Option<&'a str>,
    /// In the book currency.
    pub amount: i64,
    /// Whether it settles all the document still owes.
    pub clears: bool,
    pub on: Date,
}

impl Settling<'_> {
    /// The register's move of this settlement on `key`, as `kind` (`base`
    /// and `tax` signed as the register counts them).
    fn moved(&self, kind: Kind, key: String, base: i64, tax: i64) -> Move {
        Move {
            side: side_of(self.side),
            entry: self.entry.to_string(),
            document: self.document.to_string(),
            payment: self.payment.map(str::to_string),
            on: self.on,
            kind,
            key,
            base,
            tax,
        }
    }
}

fn side_of(owed: Owed) -> Side {
    match owed {
        Owed::Receivable => Side::Sale,
        Owed::Payable => Side::Purchase,
    }
}

/// Keeps the day a company is taxed on invoices again right for a sale
/// that moved (`switch::reconcile`).
fn after(tx: &Tx, tenant: &Tenant, side: Side, document: &str) -> Result<()> {
    if side == Side::Sale {
        let starts = tax_methods::soll_starts(tx, &tenant.company_id)?;
        switch::reconcile(tx, tenant, document, &starts)?;
    }
    Ok(())
}

/// The lines of an invoice's revenue and output tax, per key as `parts`
/// gives them (key, base, tax in the book currency), issued on `on`: with
/// VAT on payments received, the keys that follow the payment under the
/// mark of revenue not received and their tax not yet due, each recorded.
///
/// Fails only on a storage error.
pub fn issued(
    tx: &Tx,
    tenant: &Tenant,
    invoice: &str,
    on: Date,
    parts: &[(String, i64, i64)],
) -> Result<Vec<Posting>> {
    let cash = tax_methods::on(tx, &tenant.company_id, on)?.is_ist();
    let mut lines = Vec::with_capacity(parts.len() * 2);
    for (key, base, tax) in parts {
        if cash && cash_vat::follows_payment(key) {
            lines.push(Posting::credit(Account::Revenue, *base).of(&cash_vat::not_received(key)));
            lines.push(Posting::credit(Account::OutputTaxNotDue, *tax).of(key));
            register::insert(
                tx,
                tenant,
                &Move {
                    side: Side::Sale,
                    entry: invoice.to_string(),
                    document: invoice.to_string(),
                    payment: None,
                    on,
                    kind: Kind::Issued,
                    key: key.clone(),
                    base: *base,
                    tax: *tax,
                },
            )?;
        } else {
            lines.push(Posting::credit(Account::Revenue, *base).of(key));
            lines.push(Posting::credit(Account::OutputTax, *tax).of(key));
        }
    }
    if cash {
        after(tx, tenant, Side::Sale, invoice)?;
    }
    Ok(lines)
}

/// The input tax line of a bill's key: to `input_tax_later` and recorded
/// when the bill's input tax `waits` for its payment (a reverse charge's
/// never does: the tax it owes and deducts arise together), else to
/// `input_tax`. `tax` includes a reverse charge's `reverse` tax.
///
/// Fails only on a storage error.
#[allow(clippy::too_many_arguments)]
pub fn bill_tax(
    tx: &Tx,
    tenant: &Tenant,
    bill: &str,
    on: Date,
    waits: bool,
    key: &str,
    base: i64,
    tax: i64,
    reverse: i64,
) -> Result<Posting> {
    if !waits || reverse != 0 || tax == 0 {
        return Ok(Posting::debit(Account::InputTax, tax).of(key));
    }
    register::insert(
        tx,
        tenant,
        &Move {
            side: Side::Purchase,
            entry: bill.to_string(),
            document: bill.to_string(),
            payment: None,
            on,
            kind: Kind::Issued,
            key: key.to_string(),
            base,
            tax,
        },
    )?;
    Ok(Posting::debit(Account::InputTaxLater, tax).of(key))
}

/// A document's keys as its own entry booked them: each key's base and
/// tax (a bill's tax less the output tax of its reverse charge), the mark
/// of revenue not received taken off.
fn issued_shares(side: Side, own: &[(Account, String, i64, i64)]) -> Vec<Share> {
    let mut out: Vec<Share> = Vec::new();
    for (account, key, debit, credit) in own {
        let (base, tax) = match (side, account) {
            (Side::Sale, Account::Revenue) => (credit - debit, 0),
            (Side::Sale, Account::OutputTax | Account::OutputTaxNotDue) => (0, credit - debit),
            (Side::Purchase, Account::Expenses) => (debit - credit, 0),
            (Side::Purchase, Account::InputTax | Account::InputTaxLater) => (0, debit - credit),
            (Side::Purchase, Account::OutputTax) => (0, debit - credit),
            _ => continue,
        };
        let key = cash_vat::received(key);
        match out.iter_mut().find(|s| s.key == key) {
            Some(s) => {
                s.base += base;
                s.tax += tax;
            }
            None => out.push(Share {
                key: key.to_string(),
                base,
                tax,
            }),
        }
    }
    out
}

/// A document's own entry as if all its VAT were due: the mark of revenue
/// not received taken off, tax not due as output tax, input tax deductible
/// later as input tax (what a discount's postings split).
fn as_due(own: &[(Account, String, i64, i64)]) -> Vec<(Account, String, i64, i64)> {
    own.iter()
        .map(|(account, key, debit, credit)| {
            let account = match account {
                Account::OutputTaxNotDue => Account::OutputTax,
                Account::InputTaxLater => Account::InputTax,
                other => *other,
            };
            (
                account,
                cash_vat::received(key).to_string(),
                *debit,
                *credit,
            )
        })
        .collect()
}

fn open_of(open: &[Share], key: &str) -> (i64, i64) {
    open.iter()
        .find(|s| s.key == key)
        .map_or((0, 0), |s| (s.base.max(0), s.tax.max(0)))
}

/// The lines that make a payment's part of a document's VAT due (or a
/// credit applied to a bill: the part it settles), each recorded; none for
/// a document nothing of which is waiting.
///
/// Fails only on a storage error.
pub fn money(tx: &Tx, tenant: &Tenant, s: &Settling) -> Result<Vec<Posting>> {
    let side = side_of(s.side);
    let open = register::open(tx, tenant, s.document, s.on)?;
    if open.iter().all(|o| o.base == 0 && o.tax == 0) {
        return Ok(Vec::new());
    }
    let own = ledger::entry_lines(tx, tenant, s.document)?;
    let issued = issued_shares(side, &own);
    // A supplier's credit is booked negated: split as its amounts stand
    // and moved back the other way.
    let sign = if issued.iter().map(Share::gross).sum::<i64>() < 0 {
        -1
    } else {
        1
    };
    let signed = |shares: &[Share]| -> Vec<Share> {
        shares
            .iter()
            .map(|x| Share {
                key: x.key.clone(),
                base: x.base * sign,
                tax: x.tax * sign,
            })
            .collect()
    };
    let mut lines = Vec::new();
    for m in cash_vat::split(s.amount, &signed(&issued), &signed(&open), s.clears) {
        let (base, tax) = (m.base * sign, m.tax * sign);
        if base == 0 && tax == 0 {
            continue;
        }
        lines.extend(postings::to_due(side, &m.key, base, tax));
        register::insert(tx, tenant, &s.moved(Kind::Received, m.key, -base, -tax))?;
    }
    after(tx, tenant, side, s.document)?;
    Ok(lines)
}

/// The lines of a difference settled without money to `account` (a
/// discount, a fee), all but the personal account's: a discount with its
/// tax per key (`discount::postings`), any other account the whole amount.
/// (A customer's credit applied is money received before: the settlement
/// books it as a payment's, with `money`.)
/// Where the document's VAT is waiting, the part of each waiting key takes
/// its tax off what is not due (or deductible later) instead, so it never
/// falls due, its discount on the key marked not received, each recorded.
///
/// Fails only on a storage error.
pub fn difference(
    tx: &Tx,
    tenant: &Tenant,
    s: &Settling,
    account: Account,
) -> Result<Vec<Posting>> {
    let side = side_of(s.side);
    let own = ledger::entry_lines(tx, tenant, s.document)?;
    let discounting = matches!(
        account,
        Account::DiscountsGranted | Account::DiscountsReceived
    );
    let mut lines = if discounting {
        discount::postings(s.side, &as_due(&own), account, s.amount)
    } else {
        vec![match s.side {
            Owed::Receivable => Posting::debit(account, s.amount),
            Owed::Payable => Posting::credit(account, s.amount),
        }]
    };
    let open = register::open(tx, tenant, s.document, s.on)?;
    if open.iter().all(|o| o.base <= 0 && o.tax <= 0) {
        return Ok(lines);
    }
    let (tax_account, waiting_account) = match side {
        Side::Sale => (Account::OutputTax, Account::OutputTaxNotDue),
        Side::Purchase => (Account::InputTax, Account::InputTaxLater),
    };
    // Per waiting key: its part of the amount and the tax the part held.
    let parts: Vec<(String, i64, i64)> = if discounting {
        let mut parts: Vec<(String, i64, i64)> = Vec::new();
        for p in &lines {
            let signed = match s.side {
                Owed::Receivable => p.debit - p.credit,
                Owed::Payable => p.credit - p.debit,
            };
            let (part, tax) = if p.account == tax_account {
                (signed, signed)
            } else if p.account == account {
                (signed, 0)
            } else {
                continue;
            };
            match parts.iter_mut().find(|x| x.0 == p.detail) {
                Some(x) => {
                    x.1 += part;
                    x.2 += tax;
                }
                None => parts.push((p.detail.clone(), part, tax)),
            }
        }
        parts
    } else {
        let issued = issued_shares(side, &own);
        cash_vat::split(s.amount, &issued, &open, s.clears)
            .into_iter()
            .map(|m| (m.key, m.part, m.tax))
            .collect()
    };
    let mut released_total = 0;
    for (key, part, held) in parts {
        let (open_base, open_tax) = open_of(&open, &key);
        if open_base == 0 && open_tax == 0 {
            continue;
        }
        let tax = if s.clears {
            open_tax
        } else {
            held.clamp(0, open_tax)
        };
        let base = if s.clears {
            open_base
        } else {
            (part - tax).clamp(0, open_base)
        };
        if discounting {
            // The key's discount lines give way to its release.
            lines.retain(|p| {
                !(p.detail == key && (p.account == account || p.account == tax_account))
            });
            let on_key = match side {
                Side::Sale => cash_vat::not_received(&key),
                Side::Purchase => key.clone(),
            };
            lines.push(match s.side {
                Owed::Receivable => Posting::debit(account, part - tax).of(&on_key),
                Owed::Payable => Posting::credit(account, part - tax).of(&on_key),
            });
        }
        lines.push(match s.side {
            Owed::Receivable => Posting::debit(waiting_account, tax).of(&key),
            Owed::Payable => Posting::credit(waiting_account, tax).of(&key),
        });
        released_total += tax;
        let released = Move {
            payment: None,
            ..s.moved(Kind::Released, key, -base, -tax)
        };
        register::insert(tx, tenant, &released)?;
    }
    if !discounting {
        // The fee (or loss) is what is left after the tax that never falls due.
        lines[0] = match s.side {
            Owed::Receivable => Posting::debit(account, s.amount - released_total),
            Owed::Payable => Posting::credit(account, s.amount - released_total),
        };
    }
    after(tx, tenant, side, s.document)?;
    Ok(lines)
}

/// The counter-lines of the entry `original` undone by `entry` on `on`
/// (`mirror` is its lines): each line on the other side, and the VAT it
/// moved moved back (a payment's not due again, a discount's waiting
/// again), each recorded. When the company owes VAT on invoices from a day
/// after the original and no later than `on`, the sale was taxed in full on
/// that day: what comes back is due, not waiting.
///
/// Fails only on a storage error.
pub fn reversing(
    tx: &Tx,
    tenant: &Tenant,
    original: &str,
    entry: &str,
    on: Date,
    mirror: &[(Account, String, i64, i64)],
) -> Result<Vec<Posting>> {
    let moves = register::of_entry(tx, tenant, original)?;
    let taxed_since = match moves.first() {
        Some(m) if m.side == Side::Sale => tax_methods::soll_starts(tx, &tenant.company_id)?
            .iter()
            .any(|day| *day > m.on && *day <= on),
        _ => false,
    };
    let mut lines: Vec<Posting> = Vec::with_capacity(mirror.len());
    for (account, detail, debit, credit) in mirror {
        let (account, detail) = if taxed_since {
            let account = match account {
                Account::OutputTaxNotDue => Account::OutputTax,
                other => *other,
            };
            (account, cash_vat::received(detail).to_string())
        } else {
            (*account, detail.clone())
        };
        let line = if *debit > 0 {
            Posting::credit(account, *debit)
        } else {
            Posting::debit(account, *credit)
        };
        lines.push(line.of(&detail));
    }
    if taxed_since {
        // Lines that now stand on the same account and key cancel out.
        let mut netted: Vec<Posting> = Vec::with_capacity(lines.len());
        for p in lines {
            match netted
                .iter_mut()
                .find(|n| n.account == p.account && n.detail == p.detail)
            {
                Some(n) => {
                    n.debit += p.debit;
                    n.credit += p.credit;
                }
                None => netted.push(p),
            }
        }
        return Ok(netted
            .into_iter()
            .map(|n| {
                let net = n.debit - n.credit;
                Posting::debit(n.account, net).of(&n.detail)
            })
            .filter(|n| n.debit != 0 || n.credit != 0)
            .collect());
    }
    for m in &moves {
        let kind = match m.kind {
            Kind::Released => Kind::Restored,
            _ => Kind::Refunded,
        };
        register::insert(
            tx,
            tenant,
            &Move {
                entry: entry.to_string(),
                on,
                kind,
                base: -m.base,
                tax: -m.tax,
                ..m.clone()
            },
        )?;
    }
    let mut documents: Vec<(&str, Side)> = moves
        .iter()
        .map(|m| (m.document.as_str(), m.side))
        .collect();
    documents.dedup();
    for (document, side) in documents {
        after(tx, tenant, side, document)?;
    }
    Ok(lines)
}

/// The lines of an invoice's correction in full on `on`, per key as
/// `by_key` gives the invoice's (key, base, tax): what is not yet due
/// comes off the key marked not received and the tax not due, recorded as
/// cancelled (it never falls due); the rest off the revenue and tax due.
///
/// Fails only on a storage error.
pub fn cancelled(
    tx: &Tx,
    tenant: &Tenant,
    invoice: &str,
    correction: &str,
    on: Date,
    by_key: &[(String, i64, i64)],
) -> Result<Vec<Posting>> {
    let open = register::open(tx, tenant, invoice, on)?;
    let mut lines = Vec::with_capacity(by_key.len() * 4);
    let mut moved = false;
    for (key, base, tax) in by_key {
        let (open_base, open_tax) = open_of(&open, key);
        if open_base != 0 || open_tax != 0 {
            lines
                .push(Posting::debit(Account::Revenue, open_base).of(&cash_vat::not_received(key)));
            lines.push(Posting::debit(Account::OutputTaxNotDue, open_tax).of(key));
            register::insert(
                tx,
                tenant,
                &Move {
                    side: Side::Sale,
                    entry: correction.to_string(),
                    document: invoice.to_string(),
                    payment: None,
                    on,
                    kind: Kind::Cancelled,
                    key: key.clone(),
                    base: -open_base,
                    tax: -open_tax,
                },
            )?;
            moved = true;
        }
        lines.push(Posting::debit(Account::Revenue, base - open_base).of(key));
        lines.push(Posting::debit(Account::OutputTax, tax - open_tax).of(key));
    }
    if moved {
        after(tx, tenant, Side::Sale, invoice)?;
    }
    Ok(lines)
}
