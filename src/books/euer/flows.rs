//! The money that moved, as the cash-basis statement counts it: each
//! payment of an invoice or a bill on the day it was made (and taken back
//! on the day it was reversed), split over the document's own entry in the
//! ledger in proportion (`money::apportion`): an invoice's revenue per tax
//! key, its VAT, what moved to an asset's sale; a bill's costs per account
//! of the chart, its input VAT (a reverse charge's self-assessed VAT nets
//! to nothing), and what became an asset's cost, which is not an expense
//! when paid. And each amount of a bank line booked to an account without
//! a document, on its day (an undoing on the day it was undone). Reads
//! only; the statement places what it finds.

use std::collections::HashMap;
use std::sync::Arc;

use jiff::civil::Date;
use rusqlite::{params, Connection};

use crate::books::chart_accounts;
use crate::books::ledger::{Account, Class};
use crate::books::payments::Direction;
use crate::error::Result;
use crate::rules::cash_vat;
use crate::rules::chart::{Chart, Line};
use crate::rules::euer;
use crate::rules::money;
use crate::rules::skr;
use crate::store::row::Row;
use crate::store::tenant::Tenant;

/// Where a part of a payment goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Place {
    /// A figure of the form.
    Kz(&'static str),
    /// An asset's cost: written off by its depreciation, not when paid.
    Capitalised,
    /// No figure of the form: money not yet assigned, a customer's credit,
    /// a cost that is no business expense.
    Outside,
}

/// One part of money that moved: on the day, behind the document, in the
/// book currency, signed as it counts (an income or expense that moved
/// back is negative; outside, money in positive and money out negative).
#[derive(Debug, Clone)]
pub(super) struct Moved {
    pub place: Place,
    pub date: Date,
    pub document: Arc<str>,
    pub amount: i64,
}

/// How the company's accounts read: its chart, its own accounts' HGB
/// lines, whether it is a small business.
pub(super) struct Reading {
    small_business: bool,
    own: HashMap<String, Line>,
}

impl Reading {
    /// Fails only on a storage error.
    pub(super) fn of(conn: &Connection, company_id: &str, small_business: bool) -> Result<Reading> {
        let (_, accounts): (Chart, _) = chart_accounts::list(conn, company_id)?;
        let own = accounts
            .into_iter()
            .filter(|a| !a.standard)
            .map(|a| (a.key, a.line))
            .collect();
        Ok(Reading {
            small_business,
            own,
        })
    }

    /// Where a cost on the chart's account `key` goes.
    fn cost(&self, key: &str) -> Place {
        let kz = match euer::expense(key) {
            Some(kz) => kz,
            None => match self.own.get(key) {
                Some(line) => euer::of_line(*line),
                None => Some(euer::OTHER_EXPENSES),
            },
        };
        kz.map_or(Place::Outside, Place::Kz)
    }

    /// Where a document's ledger line goes, for money in (`incoming`) or
    /// out; `None` for the partner's side.
    fn place(&self, account: Account, detail: &str, chart: &str, incoming: bool) -> Option<Place> {
        Some(match account {
            Account::Receivables | Account::Payables => return None,
            Account::Revenue => Place::Kz(euer::revenue(
                cash_vat::received(detail),
                self.small_business,
            )),
            Account::AssetSales => Place::Kz(euer::ASSET_SALES),
            Account::OutputTax
            | Account::OutputTaxNotDue
            | Account::InputTax
            | Account::InputTaxLater => Place::Kz(if incoming {
                euer::VAT_RECEIVED
            } else {
                euer::INPUT_VAT
            }),
            Account::Expenses => {
                let key = if chart.is_empty() {
                    skr::row(account.as_str(), detail, self.small_business)
                        .map_or("other_expenses", |r| r.account)
                } else {
                    chart
                };
                self.cost(key)
            }
            Account::FixedAssets => Place::Capitalised,
            Account::Fees => Place::Kz(euer::OTHER_EXPENSES),
            Account::InterestExpense => Place::Kz(euer::OTHER_INTEREST),
            Account::InterestIncome => Place::Kz(euer::TAX_FREE),
            // Beside the partner and an asset's cost, the balances a
            // document's entry carries are its taxes (on whichever of the
            // tax accounts they stand).
            other => match other.class() {
                Class::Asset | Class::Liability => Place::Kz(if incoming {
                    euer::VAT_RECEIVED
                } else {
                    euer::INPUT_VAT
                }),
                _ => Place::Outside,
            },
        })
    }

    /// Where money of a bank line booked to `account` goes (`None`: money
    /// between the company's own accounts, which is no income or expense),
    /// and whether the place counts money out as positive.
    fn booked(&self, account: Account, incoming: bool) -> Option<(Place, bool)> {
        let kz = |kz| Place::Kz(kz);
        Some(match account {
            Account::Transfer => return None,
            Account::Fees => (kz(euer::OTHER_EXPENSES), true),
            Account::InterestExpense => (kz(euer::OTHER_INTEREST), true),
            Account::InterestIncome => (kz(euer::TAX_FREE), false),
            Account::TaxOffice if incoming => (kz(euer::VAT_REFUNDED), false),
            Account::TaxOffice => (kz(euer::VAT_PAID), true),
            _ => (Place::Outside, false),
        })
    }
}

/// A document's parts a payment is split over, with their weights (book
/// minor units, from the money's side).
type Parts = Vec<(Place, i64)>;

/// Splits `amount` over `parts` in proportion to their weights, the parts
/// adding up to it exactly; a document whose parts weigh nothing gives it
/// all to its first part (or outside).
fn split(amount: i64, parts: &Parts) -> Vec<(Place, i64)> {
    if parts.is_empty() {
        return vec![(Place::Outside, amount)];
    }
    let weights: Vec<i64> = parts.iter().map(|p| p.1).collect();
    let total: i64 = weights.iter().sum();
    let shares = if weights.iter().all(|w| *w >= 0) || total == 0 {
        money::apportion(amount, &weights)
    } else {
        // A part that weighs against the rest (a bill's line of a
        // negative amount): each its proportion of the signed total, the
        // rounding on the largest part.
        let mut shares: Vec<i64> = weights
            .iter()
            .map(|w| money::in_proportion(amount, *w, total))
            .collect();
        let largest = (0..weights.len()).max_by_key(|i| weights[*i]).unwrap_or(0);
        shares[largest] += amount - shares.iter().sum::<i64>();
        shares
    };
    parts.iter().map(|p| p.0).zip(shares).collect()
}

/// What the entries of the assets tie to a document: the entry recording
/// an asset from a bill's line, the entry moving an asset's sale off an
/// invoice's revenue.
fn asset_entries(conn: &Connection, tenant: &Tenant) -> Result<HashMap<String, Vec<String>>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, purchase_id, invoice_id, sale_entry FROM assets
         WHERE company_id = ?1 AND environment = ?2",
    )?;
    let rows = stmt.query_map(params![tenant.company_id, tenant.environment], |row| {
        let r = Row::new(row, "assets");
        Ok((
            r.get::<String>(0)?,
            r.get::<Option<String>>(1)?,
            r.get::<Option<String>>(2)?,
            r.get::<Option<String>>(3)?,
        ))
    })?;
    let mut out: HashMap<String, Vec<String>> = HashMap::new();
    for row in rows {
        let (id, purchase, invoice, sale) = row?;
        if let Some(purchase) = purchase {
            out.entry(purchase).or_default().push(id);
        }
        if let (Some(invoice), Some(sale)) = (invoice, sale) {
            out.entry(invoice).or_default().push(sale);
        }
    }
    Ok(out)
}

/// A document a payment split over: how the statement names it, which
/// way its money moves, the day its entry is posted, and its parts as read.
struct Document {
    name: Arc<str>,
    incoming: bool,
    posted: Option<Date>,
    parts: Parts,
}

/// Adds a ledger line of a document to its parts.
fn add_line(
    reading: &Reading,
    doc: &mut Document,
    account: Account,
    detail: &str,
    chart: &str,
    debit: i64,
    credit: i64,
) {
    let Some(place) = reading.place(account, detail, chart, doc.incoming) else {
        return;
    };
    let weight = if doc.incoming {
        credit - debit
    } else {
        debit - credit
    };
    match doc.parts.iter_mut().find(|p| p.0 == place) {
        Some(p) => p.1 += weight,
        None => doc.parts.push((place, weight)),
    }
}

/// Adds the lines of the entry `entry` to `doc`, read by the entry's index.
fn add_entry(
    conn: &Connection,
    tenant: &Tenant,
    reading: &Reading,
    doc: &mut Document,
    entry: &str,
) -> Result<()> {
    // The tenant's columns (`+`) only filter: else the planner would walk
    // the tenant's whole journal by its day index.
    let mut stmt = conn.prepare_cached(
        "SELECT entry, account, detail, chart, debit, credit FROM journal
         WHERE entry = ?1 AND +company_id = ?2 AND +environment = ?3",
    )?;
    let mut rows = stmt.query(params![entry, tenant.company_id, tenant.environment])?;
    while let Some(row) = rows.next()? {
        let r = Row::new(row, "journal");
        let account: Account = r.get(1)?;
        let detail: String = r.get(2)?;
        let chart: String = r.get(3)?;
        add_line(reading, doc, account, &detail, &chart, r.get(4)?, r.get(5)?);
    }
    Ok(())
}

/// How far back from the year's first day the documents' entries are read
/// in one pass over the journal by day; older ones are read one by one.
const ONE_PASS_DAYS: i64 = 400;

/// Reads the parts of `docs`: the entries posted within `ONE_PASS_DAYS`
/// before `from` up to the latest in one pass over the journal by day
/// (the payments of a year are mostly of documents of the year, and one
/// pass reads their pages in order where a lookup by entry jumps), the
/// others by their entries, and the assets' entries tied to each.
fn read_parts(
    conn: &Connection,
    tenant: &Tenant,
    reading: &Reading,
    docs: &mut HashMap<String, Document>,
    from: Date,
) -> Result<()> {
    let floor = from
        .checked_sub(jiff::Span::new().days(ONE_PASS_DAYS))
        .unwrap_or(from);
    let in_pass = |d: &Document| d.posted.is_some_and(|p| p >= floor);
    let days = docs
        .values()
        .filter(|d| in_pass(d))
        .filter_map(|d| d.posted);
    let (lo, hi) = days.fold((None, None), |(lo, hi): (Option<Date>, Option<Date>), d| {
        (
            Some(lo.map_or(d, |l| l.min(d))),
            Some(hi.map_or(d, |h| h.max(d))),
        )
    });
    if let (Some(lo), Some(hi)) = (lo, hi) {
        let mut stmt = conn.prepare_cached(
            "SELECT entry, account, detail, chart, debit, credit, posted_on FROM journal
             WHERE company_id = ?1 AND environment = ?2 AND posted_on BETWEEN ?3 AND ?4",
        )?;
        let mut rows = stmt.query(params![tenant.company_id, tenant.environment, lo, hi])?;
        while let Some(row) = rows.next()? {
            let entry = row.get_ref(0)?.as_str().unwrap_or("");
            let Some(doc) = docs.get_mut(entry) else {
                continue;
            };
            let r = Row::new(row, "journal");
            let posted: Date = r.get(6)?;
            // Only the document's own entry, on its own day.
            if doc.posted != Some(posted) {
                continue;
            }
            let account: Account = r.get(1)?;
            let detail: String = r.get(2)?;
            let chart: String = r.get(3)?;
            add_line(reading, doc, account, &detail, &chart, r.get(4)?, r.get(5)?);
        }
    }
    let tied = asset_entries(conn, tenant)?;
    for (id, doc) in docs.iter_mut() {
        if !in_pass(doc) {
            add_entry(conn, tenant, reading, doc, id)?;
        }
        for entry in tied.get(id).into_iter().flatten() {
            add_entry(conn, tenant, reading, doc, entry)?;
        }
        doc.parts.retain(|p| p.1 != 0);
    }
    Ok(())
}

/// A payment as read: its document's id, the amount in the book currency,
/// the day it was made and the day it was taken back.
struct Paid {
    document: String,
    amount: i64,
    paid_on: Date,
    reversed_on: Option<Date>,
    /// A customer's credit applied, not a payment.
    credit: bool,
}

/// Every payment of an invoice or a bill made in `from..=to` and every
/// one reversed in it (negative, on the reversal's day), and every
/// customer's credit applied to an invoice in it or undone in it, split
/// over its document. The document is named by the invoice's number or the bill's
/// id.
pub(super) fn payments(
    conn: &Connection,
    tenant: &Tenant,
    reading: &Reading,
    from: Date,
    to: Date,
    out: &mut Vec<Moved>,
) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "SELECT p.id, p.direction, p.invoice_id, p.purchase_id, p.amount_book, p.paid_on,
                p.reversed_on, i.number, COALESCE(i.issued_on, NULLIF(u.posted_on, ''))
         FROM payments p
              LEFT JOIN invoices i ON i.id = p.invoice_id
              LEFT JOIN purchases u ON u.id = p.purchase_id
         WHERE p.company_id = ?1 AND p.environment = ?2
           AND (p.paid_on BETWEEN ?3 AND ?4 OR p.reversed_on BETWEEN ?3 AND ?4)
         ORDER BY p.seq",
    )?;
    let mut rows = stmt.query(params![tenant.company_id, tenant.environment, from, to])?;
    let mut paid: Vec<Paid> = Vec::new();
    let mut docs: HashMap<String, Document> = HashMap::new();
    while let Some(row) = rows.next()? {
        let r = Row::new(row, "payments");
        let incoming = r.get::<Direction>(1)? == Direction::In;
        let invoice: Option<String> = r.get(2)?;
        let purchase: Option<String> = r.get(3)?;
        let Some(id) = invoice.or(purchase) else {
            continue;
        };
        if !docs.contains_key(&id) {
            let number: Option<String> = r.get(7)?;
            docs.insert(
                id.clone(),
                Document {
                    name: number.unwrap_or_else(|| id.clone()).into(),
                    incoming,
                    posted: r.get(8)?,
                    parts: Vec::new(),
                },
            );
        }
        paid.push(Paid {
            document: id,
            amount: r.get(4)?,
            paid_on: r.get(5)?,
            reversed_on: r.get(6)?,
            credit: false,
        });
    }
    // A customer's credit applied to an invoice (money a bank line paid
    // before it, kept as credit): the invoice's money received on the day
    // applied, as the VAT on payments received counts it.
    let mut stmt = conn.prepare_cached(
        "SELECT s.id, s.target_id, s.on_day,
                (SELECT j.posted_on FROM journal j WHERE j.entry = s.undone_by LIMIT 1),
                (SELECT sum(j.debit) FROM journal j
                 WHERE j.entry = s.id AND j.account = 'customer_credits'),
                i.number, i.issued_on
         FROM bank_settlements s JOIN invoices i ON i.id = s.target_id
         WHERE s.company_id = ?1 AND s.environment = ?2 AND s.kind = 'difference'
           AND s.account = 'customer_credits' AND s.target_kind = 'invoice'
           AND (s.on_day BETWEEN ?3 AND ?4 OR s.undone_by IS NOT NULL)
         ORDER BY s.seq",
    )?;
    let mut rows = stmt.query(params![tenant.company_id, tenant.environment, from, to])?;
    while let Some(row) = rows.next()? {
        let r = Row::new(row, "bank_settlements");
        let id: String = r.get(1)?;
        let applied_on: Date = r.get(2)?;
        let undone_on: Option<Date> = r.get(3)?;
        let in_year = |d: &Date| (from..=to).contains(d);
        if !in_year(&applied_on) && !undone_on.is_some_and(|d| in_year(&d)) {
            continue;
        }
        let amount: Option<i64> = r.get(4)?;
        let number: String = r.get(5)?;
        if !docs.contains_key(&id) {
            docs.insert(
                id.clone(),
                Document {
                    name: number.into(),
                    incoming: true,
                    posted: r.get(6)?,
                    parts: Vec::new(),
                },
            );
        }
        paid.push(Paid {
            document: id,
            amount: amount.unwrap_or(0),
            paid_on: applied_on,
            reversed_on: undone_on,
            credit: true,
        });
    }
    read_parts(conn, tenant, reading, &mut docs, from)?;
    for p in paid {
        let doc = &docs[&p.document];
        let mut emit = |date: Date, amount: i64| {
            for (place, share) in split(amount, &doc.parts) {
                let amount = match place {
                    // Outside, money in counts positive and money out negative.
                    Place::Outside if !doc.incoming => -share,
                    _ => share,
                };
                out.push(Moved {
                    place,
                    date,
                    document: doc.name.clone(),
                    amount,
                });
            }
            // A credit applied takes up money that stood on no line.
            if p.credit {
                out.push(Moved {
                    place: Place::Outside,
                    date,
                    document: doc.name.clone(),
                    amount: -amount,
                });
            }
        };
        if (from..=to).contains(&p.paid_on) {
            emit(p.paid_on, p.amount);
        }
        if let Some(day) = p.reversed_on.filter(|d| (from..=to).contains(d)) {
            emit(day, -p.amount);
        }
    }
    Ok(())
}

/// An amount of a bank line booked to an account without a document.
#[derive(Debug, Clone)]
pub(super) struct Booked {
    pub date: Date,
    pub line: Arc<str>,
    pub account: Account,
    /// Money out of the bank.
    pub outgoing: bool,
    /// Positive; negative for the undoing of a booking.
    pub amount: i64,
}

/// Every amount of a bank line booked to an account in `from..=to`, and
/// every undoing of one in it (negative, on the day it was undone).
pub(super) fn bookings(
    conn: &Connection,
    tenant: &Tenant,
    from: Date,
    to: Date,
) -> Result<Vec<Booked>> {
    let mut stmt = conn.prepare_cached(
        "SELECT s.id, s.line_id, s.account, s.amount, s.on_day, l.amount < 0,
                (SELECT j.posted_on FROM journal j WHERE j.entry = s.undone_by LIMIT 1)
         FROM bank_settlements s JOIN bank_lines l ON l.id = s.line_id
         WHERE s.company_id = ?1 AND s.environment = ?2 AND s.kind = 'booking'
         ORDER BY s.seq",
    )?;
    let rows = stmt.query_map(params![tenant.company_id, tenant.environment], |row| {
        let r = Row::new(row, "bank_settlements");
        Ok((
            r.get::<String>(1)?,
            r.get::<Account>(2)?,
            r.get::<i64>(3)?,
            r.get::<Date>(4)?,
            r.get::<bool>(5)?,
            r.get::<Option<Date>>(6)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (line, account, amount, on, outgoing, undone) = row?;
        let line: Arc<str> = line.into();
        if (from..=to).contains(&on) {
            out.push(Booked {
                date: on,
                line: line.clone(),
                account,
                outgoing,
                amount,
            });
        }
        if let Some(day) = undone.filter(|d| (from..=to).contains(d)) {
            out.push(Booked {
                date: day,
                line,
                account,
                outgoing,
                amount: -amount,
            });
        }
    }
    Ok(out)
}

/// Where a booking goes, signed as it counts; `None` for money between
/// the company's own accounts.
pub(super) fn place_booking(reading: &Reading, b: &Booked) -> Option<Moved> {
    let (place, out_positive) = reading.booked(b.account, !b.outgoing)?;
    let amount = match place {
        Place::Kz(_) if out_positive == b.outgoing => b.amount,
        Place::Kz(_) => -b.amount,
        _ if b.outgoing => -b.amount,
        _ => b.amount,
    };
    Some(Moved {
        place,
        date: b.date,
        document: b.line.clone(),
        amount,
    })
}

/// The assets recorded on their own in `from..=to`: the money not yet
/// assigned they took up (their cost, positive, under the asset's id).
pub(super) fn assigned_to_assets(
    conn: &Connection,
    tenant: &Tenant,
    from: Date,
    to: Date,
) -> Result<Vec<Moved>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, posted_on, cost FROM assets
         WHERE company_id = ?1 AND environment = ?2 AND purchase_id IS NULL
           AND posted_on BETWEEN ?3 AND ?4
         ORDER BY seq",
    )?;
    let rows = stmt.query_map(
        params![tenant.company_id, tenant.environment, from, to],
        |row| {
            let r = Row::new(row, "assets");
            Ok(Moved {
                place: Place::Outside,
                document: r.get::<String>(0)?.into(),
                date: r.get(1)?,
                amount: r.get(2)?,
            })
        },
    )?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_payment_splits_over_its_parts_and_adds_up() {
        let parts = vec![
            (Place::Kz("112"), 100_000),
            (Place::Kz("140"), 19_000),
            (Place::Kz("103"), 0),
        ];
        let got = split(59_500, &parts);
        assert_eq!(got.iter().map(|p| p.1).sum::<i64>(), 59_500);
        assert_eq!(got[0], (Place::Kz("112"), 50_000));
        assert_eq!(got[1], (Place::Kz("140"), 9_500));
        // A part that weighs against the rest.
        let parts = vec![(Place::Kz("229"), 12_000), (Place::Kz("183"), -2_000)];
        let got = split(5_000, &parts);
        assert_eq!(
            got,
            vec![(Place::Kz("229"), 6_000), (Place::Kz("183"), -1_000)]
        );
        assert_eq!(split(700, &Vec::new()), vec![(Place::Outside, 700)]);
    }
}
