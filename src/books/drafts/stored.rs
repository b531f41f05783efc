//! A draft as stored: its kind (an invoice or a quote), its state (open,
//! or issued as an invoice) and the period its invoice covers; a tenant's
//! draft read by id, an open one, and the mark of its issue. Every query is
//! bound to a `Tenant`.

use jiff::civil::Date;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::error::said::{Draft, Record};
use crate::error::{Error, Result, Said};
use crate::rules::iso::Currency;
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::row::Row;
use crate::store::tenant::Tenant;
use crate::stored_enum;

stored_enum! {
    /// An invoice draft (booked when issued) or a quote (never booked).
    pub enum DraftKind {
        Invoice = "INVOICE",
        Quote = "QUOTE",
    }
}

stored_enum! {
    /// Where a draft stands: open, or issued as an invoice.
    pub enum DraftState {
        Draft = "DRAFT",
        Issued = "ISSUED",
    }
}

/// A period of days, both ends included, `from` ≤ `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Period {
    pub from: Date,
    pub to: Date,
}

impl Period {
    /// Reads `FROM..TO`, two ISO dates, the first not after the second.
    ///
    /// Fails with `Invalid` naming `field` when it is not two dates so
    /// joined, a date is not one, or the period ends before it starts.
    pub fn parse(field: &str, text: &str) -> Result<Period> {
        let Some((from, to)) = text.trim().split_once("..") else {
            return Err(Error::invalid(
                field,
                Draft::NotPeriod {
                    got: text.to_string(),
                },
            ));
        };
        let from = clock::parse_date(field, from.trim())?;
        let to = clock::parse_date(field, to.trim())?;
        if from > to {
            return Err(Error::invalid(field, Draft::PeriodBackwards { from, to }));
        }
        Ok(Period { from, to })
    }
}

/// A draft as stored.
pub(crate) struct Stored {
    pub id: String,
    pub document_type: DraftKind,
    pub customer_id: String,
    pub currency: Currency,
    pub state: DraftState,
    pub invoice_id: Option<String>,
    pub created_at: String,
    /// The draft's own buyer reference (none: the customer's applies).
    pub buyer_reference: Option<String>,
    pub order_reference: Option<String>,
    pub period: Option<Period>,
}

/// A draft of the tenant as stored.
///
/// Fails with `NotFound` when the tenant has no draft with this id.
pub(crate) fn stored(conn: &Connection, tenant: &Tenant, id: &str) -> Result<Stored> {
    conn.prepare_cached(
        "SELECT id, document_type, customer_id, currency, state, created_at, invoice_id,
             buyer_reference, order_reference, period_start, period_end FROM drafts
         WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
    )?
    .query_row(params![id, tenant.company_id, tenant.environment], |row| {
        let r = Row::new(row, "drafts");
        let period = match (r.get::<Option<Date>>(9)?, r.get::<Option<Date>>(10)?) {
            (Some(from), Some(to)) => Some(Period { from, to }),
            _ => None,
        };
        Ok(Stored {
            id: r.get(0)?,
            document_type: r.get(1)?,
            customer_id: r.get(2)?,
            currency: r.get(3)?,
            state: r.get(4)?,
            invoice_id: r.get(6)?,
            created_at: r.get(5)?,
            buyer_reference: r.get(7)?,
            order_reference: r.get(8)?,
            period,
        })
    })
    .optional()?
    .ok_or_else(|| Error::not_found(Said::Record(Record::Draft, id.to_string())))
}

/// A draft of the tenant that is still open.
///
/// Fails with `NotFound` for an unknown draft and `WrongState` for an issued one.
pub(crate) fn open(conn: &Connection, tenant: &Tenant, id: &str) -> Result<Stored> {
    let draft = stored(conn, tenant, id)?;
    if draft.state != DraftState::Draft {
        return Err(Error::wrong_state(Draft::Issued { id: id.to_string() }));
    }
    Ok(draft)
}

/// Marks a draft issued as `invoice_id` (in the issuing act's transaction).
///
/// Fails only on a storage error.
pub(crate) fn mark_issued(tx: &Tx, tenant: &Tenant, id: &str, invoice_id: &str) -> Result<()> {
    tx.prepare_cached(
        "UPDATE drafts SET state = ?5, invoice_id = ?2 WHERE id = ?1 AND company_id = ?3 AND environment = ?4",
    )?
    .execute(params![id, invoice_id, tenant.company_id, tenant.environment, DraftState::Issued])?;
    Ok(())
}
