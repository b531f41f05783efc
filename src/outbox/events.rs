//! The outbox: the events an act raises, written in the act's own transaction
//! (so no act happens without its events and no event without its act). The
//! body is the flat JSON object of api.md §6: keys sorted, every value a
//! string, amounts in minor units; it is serialised once, here, and these
//! bytes are what every delivery sends. Writing an event also writes its
//! deliveries, one PENDING delivery for each endpoint subscribed to it
//! (`fan_out`); the endpoints themselves and the delivery log are
//! `endpoints`'s, the sending the delivery worker's.

use std::collections::BTreeMap;

use rusqlite::params;

use crate::error::{Error, Result};
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::tenant::Tenant;
use crate::stored_enum;

stored_enum! {
    /// Every event kind.
    pub enum EventKind {
        InvoiceIssued = "invoice.issued",
        InvoicePaid = "invoice.paid",
        InvoiceCancelled = "invoice.cancelled",
        PaymentRecorded = "payment.recorded",
        PurchaseRecorded = "purchase.recorded",
    }
}

impl EventKind {
    /// The sentence a subscriber sees.
    pub fn description(self) -> &'static str {
        match self {
            EventKind::InvoiceIssued => "A person issued a draft as an invoice.",
            EventKind::InvoicePaid => "A payment cleared an invoice's receivable.",
            EventKind::InvoiceCancelled => "A person cancelled an invoice by a full correction.",
            EventKind::PaymentRecorded => "Money was recorded moving in or out.",
            EventKind::PurchaseRecorded => "An incoming purchase document (bill) was recorded.",
        }
    }
}

stored_enum! {
    /// Where a delivery stands. (The partial index `deliveries_pending` and
    /// the queries it serves spell PENDING in their SQL, as an index's
    /// condition must be matched literally.)
    pub enum DeliveryState {
        Pending = "PENDING",
        Delivered = "DELIVERED",
        Failed = "FAILED",
    }
}

/// The fields of an event body besides `event` and `id`.
pub type Fields = BTreeMap<&'static str, String>;

/// Writes one event of `kind` about `subject` (the record it concerns) and returns its id.
///
/// Fails only on a storage error.
pub fn raise(
    tx: &Tx,
    tenant: &Tenant,
    kind: EventKind,
    subject: &str,
    mut fields: Fields,
) -> Result<String> {
    let id = ids::new_id("evt");
    fields.insert("event", kind.as_str().to_string());
    fields.insert("id", id.clone());
    let body = serde_json::to_string(&fields).map_err(Error::internal)?;
    tx.prepare_cached(
        "INSERT INTO events (id, company_id, environment, kind, subject, body, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        id,
        tenant.company_id,
        tenant.environment,
        kind,
        subject,
        body,
        clock::now()
    ])?;
    fan_out(tx, tenant, &id, kind)?;
    tx.note_events();
    Ok(id)
}

/// Writes one PENDING delivery of `event_id` for every enabled endpoint of the
/// tenant subscribed to `kind`, due now. Called by `raise` in the act's
/// transaction; endpoints registered later never see older events.
///
/// Fails only on a storage error.
fn fan_out(tx: &Tx, tenant: &Tenant, event_id: &str, kind: EventKind) -> Result<()> {
    let endpoints: Vec<String> = tx
        .prepare_cached(
            "SELECT id FROM webhook_endpoints WHERE company_id = ?1 AND environment = ?2 AND enabled = 1
               AND (events = '*' OR ',' || events || ',' LIKE '%,' || ?3 || ',%')",
        )?
        .query_map(params![tenant.company_id, tenant.environment, kind], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let now = clock::now();
    for endpoint in &endpoints {
        insert_delivery(tx, tenant, endpoint, event_id, &now)?;
    }
    Ok(())
}

/// Writes one PENDING delivery of `event_id` to `endpoint`, due `now`, and
/// returns its id: for each endpoint an event fans out to, and for a
/// redelivery (`endpoints::redeliver`).
///
/// Fails only on a storage error.
pub(crate) fn insert_delivery(
    tx: &Tx,
    tenant: &Tenant,
    endpoint: &str,
    event_id: &str,
    now: &str,
) -> Result<String> {
    let id = ids::new_id("dlv");
    tx.prepare_cached(
        "INSERT INTO deliveries (id, company_id, environment, endpoint_id, event_id, state, next_attempt_at, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?7, ?6, ?6)",
    )?
    .execute(params![id, tenant.company_id, tenant.environment, endpoint, event_id, now, DeliveryState::Pending])?;
    Ok(id)
}
