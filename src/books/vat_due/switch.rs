//! A company that owed VAT on payments received and owes it on invoices
//! from a day on: what its sales issued before that day still have not due
//! falls due on that day (the first period taxed on invoices taxes what was
//! issued and not yet paid), by one entry per sale dated that day. Kept
//! true as the books change: a payment, discount or reversal dated before
//! the day, recorded later, changes what falls due then, and a change of
//! the methods that moves or removes the day takes its entries back. A sale
//! issued while the company owed VAT on invoices never moved and stays.

use jiff::civil::Date;

use crate::books::ledger::{self, Posting};
use crate::books::vat_due::postings;
use crate::books::vat_due::register::{self, Kind, Move, Side};
use crate::error::Result;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::tenant::{Environment, Tenant};

/// Makes what falls due on each day of `soll_starts` (the days the company
/// owes VAT on invoices again after owing it on payments) of `document`
/// right: on the first such day after its issue, everything it had not due
/// the day before; on no other day anything.
///
/// Fails only on a storage error.
pub fn reconcile(tx: &Tx, tenant: &Tenant, document: &str, soll_starts: &[Date]) -> Result<()> {
    let moves = register::of_document(tx, tenant, document)?;
    let Some(issued) = moves
        .iter()
        .filter(|m| m.kind == Kind::Issued && m.side == Side::Sale)
        .map(|m| m.on)
        .min()
    else {
        return Ok(());
    };
    let mut days: Vec<Date> = soll_starts
        .iter()
        .copied()
        .filter(|d| *d > issued)
        .collect();
    days.extend(
        moves
            .iter()
            .filter(|m| m.kind == Kind::Switched)
            .map(|m| m.on),
    );
    days.sort();
    days.dedup();
    for day in days {
        let moves = register::of_document(tx, tenant, document)?;
        let wanted = soll_starts.contains(&day);
        let before = register::sums(moves.iter().filter(|m| m.on < day));
        let posted = register::sums(
            moves
                .iter()
                .filter(|m| m.on == day && m.kind == Kind::Switched),
        );
        let mut keys: Vec<&str> = before.iter().map(|s| s.key.as_str()).collect();
        keys.extend(posted.iter().map(|s| s.key.as_str()));
        keys.sort();
        keys.dedup();
        let entry = ids::new_id("vsw");
        let mut lines: Vec<Posting> = Vec::new();
        let mut made: Vec<Move> = Vec::new();
        for key in keys {
            let of = |shares: &[crate::rules::cash_vat::Share]| {
                shares
                    .iter()
                    .find(|s| s.key == key)
                    .map_or((0, 0), |s| (s.base, s.tax))
            };
            let (open_base, open_tax) = if wanted { of(&before) } else { (0, 0) };
            let (done_base, done_tax) = of(&posted);
            // What the day's entries should have taken off, less what they took.
            let base = -open_base - done_base;
            let tax = -open_tax - done_tax;
            if base == 0 && tax == 0 {
                continue;
            }
            lines.extend(postings::to_due(Side::Sale, key, -base, -tax));
            made.push(Move {
                side: Side::Sale,
                entry: entry.clone(),
                document: document.to_string(),
                payment: None,
                on: day,
                kind: Kind::Switched,
                key: key.to_string(),
                base,
                tax,
            });
        }
        if made.is_empty() {
            continue;
        }
        ledger::post(tx, tenant, &entry, day, &lines)?;
        for m in &made {
            register::insert(tx, tenant, m)?;
        }
    }
    Ok(())
}

/// Reconciles every sale of the company, live and test, whose VAT was ever
/// not due, against `soll_starts`.
///
/// Fails only on a storage error.
pub fn reconcile_all(tx: &Tx, company_id: &str, soll_starts: &[Date]) -> Result<()> {
    for environment in [Environment::Production, Environment::Sandbox] {
        let tenant = Tenant::new(company_id, environment);
        for document in register::sales(tx, &tenant)? {
            reconcile(tx, &tenant, &document, soll_starts)?;
        }
    }
    Ok(())
}
