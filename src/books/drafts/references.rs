//! What a draft's invoice will say of the buyer's order: a buyer
//! reference of its own or else the customer's, an order reference and a
//! delivery period; read as they apply now or as a person set them, and
//! set or cleared by a person while it is a draft.

use rusqlite::{params, Connection};
use serde::Serialize;

use super::stored::{open, stored, Period};
use crate::books::audit::{self, Act, Actor};
use crate::books::customers;
use crate::error::{Result, Violations};
use crate::rules::text::Patch;
use crate::store::db::Tx;
use crate::store::tenant::Tenant;

/// What a draft's invoice will say of the buyer's order, as it stands now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct References {
    /// The draft's own buyer reference, else the customer's (BT-10).
    pub buyer_reference: Option<String>,
    /// The buyer's order reference (BT-13).
    pub order_reference: Option<String>,
    /// The invoicing (delivery) period (BG-14).
    pub period: Option<Period>,
}

/// What the draft's invoice would say of the buyer's order if it were
/// issued now: the draft's own buyer reference, else its customer's.
///
/// Fails with `NotFound` when the tenant has no draft with this id.
pub fn references(conn: &Connection, tenant: &Tenant, id: &str) -> Result<References> {
    let draft = stored(conn, tenant, id)?;
    let buyer_reference = match draft.buyer_reference {
        Some(own) => Some(own),
        None => customers::get(conn, tenant, &draft.customer_id)?.buyer_reference,
    };
    Ok(References {
        buyer_reference,
        order_reference: draft.order_reference,
        period: draft.period,
    })
}

/// The draft's own references, as a person set them (no buyer reference:
/// the customer's applies).
///
/// Fails with `NotFound` when the tenant has no draft with this id.
pub fn own_references(conn: &Connection, tenant: &Tenant, id: &str) -> Result<References> {
    let draft = stored(conn, tenant, id)?;
    Ok(References {
        buyer_reference: draft.buyer_reference,
        order_reference: draft.order_reference,
        period: draft.period,
    })
}

/// A change of a draft's references as a person gives it, field by field:
/// left out (unchanged), cleared, or a value as written (the period as
/// `FROM..TO`). A cleared buyer reference means the customer's applies.
#[derive(Debug, Default, Clone)]
pub struct ReferencesInput {
    pub buyer_reference: Patch<String>,
    pub order_reference: Patch<String>,
    pub period: Patch<String>,
}

/// A checked change of a draft's references.
#[derive(Debug, Default, Clone)]
pub struct ReferencesChange {
    buyer_reference: Patch<String>,
    order_reference: Patch<String>,
    period: Patch<Period>,
}

impl ReferencesChange {
    /// Whether the change leaves every reference as it is.
    pub fn is_empty(&self) -> bool {
        matches!(self.buyer_reference, Patch::Absent)
            && matches!(self.order_reference, Patch::Absent)
            && matches!(self.period, Patch::Absent)
    }

    /// Checks the references: each reference 1–200 printable characters,
    /// the period two ISO dates `FROM..TO` with FROM not after TO.
    ///
    /// Fails with `Invalid` naming every field that is blank, too long or malformed.
    pub fn check(input: ReferencesInput) -> Result<ReferencesChange> {
        let mut v = Violations::new();
        let buyer_reference = v
            .take(input.buyer_reference.text("buyerReference", 200))?
            .unwrap_or_default();
        let order_reference = v
            .take(input.order_reference.text("orderReference", 200))?
            .unwrap_or_default();
        let period = v
            .take(input.period.read(|t| Period::parse("period", t)))?
            .unwrap_or_default();
        v.finish()?;
        Ok(ReferencesChange {
            buyer_reference,
            order_reference,
            period,
        })
    }
}

/// Sets or clears a draft's buyer reference, order reference and period.
/// Recorded as `draft.references.set` by `actor`.
///
/// Fails with `NotFound` for an unknown draft and `WrongState` for an issued one.
pub fn set_references(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    id: &str,
    change: ReferencesChange,
) -> Result<()> {
    let mut draft = open(tx, tenant, id)?;
    change.buyer_reference.apply(&mut draft.buyer_reference);
    change.order_reference.apply(&mut draft.order_reference);
    change.period.apply(&mut draft.period);
    tx.prepare_cached(
        "UPDATE drafts SET buyer_reference = ?4, order_reference = ?5, period_start = ?6, period_end = ?7
         WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
    )?
    .execute(params![
        id,
        tenant.company_id,
        tenant.environment,
        draft.buyer_reference,
        draft.order_reference,
        draft.period.map(|p| p.from),
        draft.period.map(|p| p.to)
    ])?;
    audit::record(tx, tenant, actor, Act::DraftReferencesSet, id)
}
