//! What the one settlement act checks before a document comes to owe less,
//! written once and asked twice: by the act itself (`books::settlement`)
//! and, before anything is offered to a person, by the bank's suggestions
//! and its list of open items, so that nothing is offered that the act
//! would refuse. A document takes money only while it is an invoice that
//! is neither a correction nor cancelled, or a bill, and owes something
//! (`invoice_takes_money`, `bill_takes_money`); a settlement is refused for
//! more than is owed (`check_amount`), a bank line's money in another
//! currency than the document's (`check_currency`), a day before the
//! document or before its latest settlement (`check_date`, `last_settled`:
//! settlements are recorded in date order), and a day in closed books.
//!
//! `by_line` says how a bank line's money of a day settles a document: as
//! a payment, or, for an invoice dated after the line (money paid in
//! advance), as the customer's credit kept from the line and applied to
//! the invoice on its own day (`Way::Advance`), which no date rule
//! refuses.

use jiff::civil::Date;
use rusqlite::{params, Connection, OptionalExtension};

use crate::books::ledger;
use crate::books::payments::TargetKind;
use crate::error::said::{Bank, Record, Settle, Settling};
use crate::error::{Error, Result, Said, Violation, Violations};
use crate::rules::iso::Currency;
use crate::rules::locale;
use crate::store::row::Row;
use crate::store::tenant::Tenant;

/// A document as its date rules see it: its id, how a person names it, its date.
#[derive(Debug, Clone, Copy)]
pub struct Dated<'a> {
    pub id: &'a str,
    pub label: &'a str,
    pub date: Date,
}

/// The latest day the document `doc_id` was settled, if ever (a payment
/// undone by a counter-posting does not count).
///
/// Fails only on a storage error.
pub fn last_settled(conn: &Connection, tenant: &Tenant, doc_id: &str) -> Result<Option<Date>> {
    Ok(conn
        .prepare_cached(
            "SELECT max(d) FROM (
                 SELECT max(paid_on) AS d FROM payments
                 WHERE (invoice_id = ?1 OR purchase_id = ?1) AND company_id = ?2 AND environment = ?3
                   AND reversed_on IS NULL
                 UNION ALL
                 SELECT max(applied_on) FROM credit_applications
                 WHERE (bill_id = ?1 OR credit_id = ?1) AND company_id = ?2 AND environment = ?3)",
        )?
        .query_row(params![doc_id, tenant.company_id, tenant.environment], |r| r.get(0))?)
}

/// Refuses (into `verdict`) a settlement of `doc` dated `on` before the
/// document or before an earlier settlement of it; `what` names the
/// settlement in the sentence (`payment`, `credit application`).
///
/// Fails only on a storage error.
pub fn check_date(
    conn: &Connection,
    tenant: &Tenant,
    doc: Dated<'_>,
    on: Date,
    what: Settling,
    verdict: &mut Violations,
) -> Result<()> {
    if on < doc.date {
        verdict.refused(
            "on",
            Settle::BeforeDocument {
                on,
                what,
                document: doc.label.to_string(),
                dated: doc.date,
            },
        );
    }
    if let Some(last) = last_settled(conn, tenant, doc.id)?.filter(|last| *last > on) {
        verdict.refused(
            "on",
            Settle::AfterLastSettled {
                on,
                document: doc.label.to_string(),
                last,
            },
        );
    }
    Ok(())
}

/// Refuses (into `verdict`) settling `amount` of a document that owes
/// `outstanding` (both in `currency`): overpayments are refused.
pub fn check_amount(
    label: &str,
    outstanding: i64,
    amount: i64,
    currency: &Currency,
    verdict: &mut Violations,
) {
    if amount > outstanding {
        verdict.refused(
            "amount",
            Settle::Overpaid {
                amount: locale::sum(amount, currency),
                outstanding: locale::sum(outstanding, currency),
                document: label.to_string(),
            },
        );
    }
}

/// Refuses (into `verdict`) money of the bank line `line_id` in `line`
/// for a document owed in `owed`: kontor converts no bank money.
pub fn check_currency(
    line_id: &str,
    line: &Currency,
    label: &str,
    owed: &Currency,
    verdict: &mut Violations,
) {
    if line != owed {
        verdict.refuse(Settle::LineCurrency {
            line: line_id.to_string(),
            line_currency: line.as_str().to_string(),
            document: label.to_string(),
            currency: owed.as_str().to_string(),
        });
    }
}

/// Whether the invoice `number` takes money: not a correction, not
/// cancelled, and not paid in full.
///
/// Fails with `WrongState` saying which.
pub fn invoice_takes_money(
    number: &str,
    correction: bool,
    cancelled: bool,
    outstanding: i64,
) -> Result<()> {
    if correction {
        return Err(Error::wrong_state(Settle::Correction {
            number: number.to_string(),
        }));
    }
    if cancelled {
        return Err(Error::wrong_state(Settle::Cancelled {
            number: number.to_string(),
        }));
    }
    if outstanding == 0 {
        return Err(Error::wrong_state(Settle::PaidInFull {
            number: number.to_string(),
        }));
    }
    Ok(())
}

/// Whether the purchase `id` takes money: a bill (a supplier's credit is
/// applied, not paid) that still owes something.
///
/// Fails with `WrongState` saying which.
pub fn bill_takes_money(id: &str, credit: bool, outstanding: i64) -> Result<()> {
    if credit {
        return Err(Error::wrong_state(Settle::CreditNotPaid {
            id: id.to_string(),
        }));
    }
    if outstanding == 0 {
        return Err(Error::wrong_state(Settle::PaidInFull {
            number: id.to_string(),
        }));
    }
    Ok(())
}

/// How a bank line's money settles a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Way {
    /// A payment dated the line's day.
    Paid,
    /// Paid before the invoice's date: kept as the customer's credit on the
    /// line's day and applied to the invoice on `applied_on` (the
    /// invoice's day, or its latest settlement's when that is later).
    Advance { applied_on: Date },
}

/// A bank line's money as the settlement rules see it.
#[derive(Debug, Clone, Copy)]
pub struct LineMoney<'a> {
    pub line_id: &'a str,
    /// The line's day (its booking day, else its value day).
    pub on: Date,
    pub currency: &'a Currency,
    /// The book currency: an advance is kept as credit in it only.
    pub books: &'a Currency,
}

/// A document as `by_line` reads it.
struct Owed {
    label: String,
    date: Date,
    outstanding: i64,
    currency: Currency,
    /// A correction or a supplier's credit: takes no money.
    other_kind: bool,
    cancelled: bool,
}

fn owed(conn: &Connection, tenant: &Tenant, kind: TargetKind, id: &str) -> Result<Owed> {
    let sql = match kind {
        TargetKind::Invoice => {
            "SELECT number, issued_on, outstanding, currency, document_type <> 'INVOICE', cancelled_by_id IS NOT NULL
             FROM invoices WHERE id = ?1 AND company_id = ?2 AND environment = ?3"
        }
        TargetKind::Purchase => {
            "SELECT id, document_date, outstanding, currency, kind <> 'bill', 0
             FROM purchases WHERE id = ?1 AND company_id = ?2 AND environment = ?3"
        }
    };
    conn.prepare_cached(sql)?
        .query_row(params![id, tenant.company_id, tenant.environment], |row| {
            let r = Row::new(row, "invoices");
            Ok(Owed {
                label: r.get(0)?,
                date: r.get(1)?,
                outstanding: r.get(2)?,
                currency: r.get(3)?,
                other_kind: r.get::<i64>(4)? == 1,
                cancelled: r.get::<i64>(5)? == 1,
            })
        })
        .optional()?
        .ok_or_else(|| Error::not_found(Said::Record(Record::Document, id.to_string())))
}

/// The first day from `on` a settlement of the document `id` may be dated:
/// not before the document, nor before its latest settlement.
///
/// Fails with `NotFound` for an unknown document.
pub fn first_day(
    conn: &Connection,
    tenant: &Tenant,
    kind: TargetKind,
    id: &str,
    on: Date,
) -> Result<Date> {
    let doc = owed(conn, tenant, kind, id)?;
    let last = last_settled(conn, tenant, id)?;
    Ok(on.max(doc.date).max(last.unwrap_or(on)))
}

/// How `amount` of a bank line's money (`line`) settles the document `id`:
/// as a payment on the line's day, or, for an invoice dated after that
/// day, as an advance; the same checks as the settlement act, so what
/// this accepts the act accepts.
///
/// Fails with `NotFound` for an unknown document, `WrongState` for one that
/// takes no money, and `Refused` as the act refuses (more than is owed,
/// another currency, a day before the document or its latest settlement,
/// closed books; an advance in another currency than the books).
pub fn by_line(
    conn: &Connection,
    tenant: &Tenant,
    kind: TargetKind,
    id: &str,
    amount: i64,
    line: &LineMoney<'_>,
) -> Result<Way> {
    let doc = owed(conn, tenant, kind, id)?;
    match kind {
        TargetKind::Invoice => {
            invoice_takes_money(&doc.label, doc.other_kind, doc.cancelled, doc.outstanding)?
        }
        TargetKind::Purchase => bill_takes_money(&doc.label, doc.other_kind, doc.outstanding)?,
    }
    let mut verdict = Violations::new();
    check_amount(
        &doc.label,
        doc.outstanding,
        amount,
        &doc.currency,
        &mut verdict,
    );
    check_currency(
        line.line_id,
        line.currency,
        &doc.label,
        &doc.currency,
        &mut verdict,
    );
    verdict.take(ledger::check_open(conn, tenant, line.on))?;
    let advance = kind == TargetKind::Invoice && line.on < doc.date;
    let way = if advance {
        if line.currency != line.books {
            verdict.refuse(Settle::AdvanceCurrency {
                line: line.line_id.to_string(),
                document: doc.label.to_string(),
                books: line.books.as_str().to_string(),
                currency: line.currency.as_str().to_string(),
            });
        }
        Way::Advance {
            applied_on: first_day(conn, tenant, kind, id, doc.date)?,
        }
    } else {
        let dated = Dated {
            id,
            label: &doc.label,
            date: doc.date,
        };
        check_date(
            conn,
            tenant,
            dated,
            line.on,
            Settling::Payment,
            &mut verdict,
        )?;
        Way::Paid
    };
    verdict.finish().map_err(in_line_words)?;
    Ok(way)
}

/// A refusal of the settlement act in a bank line's words: the payment's
/// day and amount are the line's, not fields a person gave.
pub fn in_line_words(e: Error) -> Error {
    match e {
        Error::Refused(list) => Error::Refused(
            list.into_iter()
                .map(|v| match v.field.as_deref() {
                    Some("on") => Violation::whole(Bank::LineDay(Box::new(v.message))),
                    Some("amount") => Violation::whole(Bank::LineAmount(Box::new(v.message))),
                    _ => v,
                })
                .collect(),
        ),
        other => other,
    }
}
