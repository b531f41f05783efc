//! The outbox: the events an act raises, written in the act's own transaction
//! (so no act happens without its events and no event without its act). The
//! body is the flat JSON object of api.md §6: keys sorted, every value a
//! string, amounts in minor units; it is serialised once, here, and these
//! bytes are what every delivery sends. Writing an event also writes its
//! deliveries (`endpoints::fan_out`).

use std::collections::BTreeMap;

use rusqlite::params;

use crate::error::{Error, Result};
use crate::outbox::endpoints;
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::tenant::Tenant;
use crate::stored_enum;

stored_enum! {
    /// Every event kind.
    pub enum Kind {
        InvoiceIssued = "invoice.issued",
        InvoicePaid = "invoice.paid",
        InvoiceCancelled = "invoice.cancelled",
        PaymentRecorded = "payment.recorded",
        PurchaseRecorded = "purchase.recorded",
    }
}

impl Kind {
    /// The sentence a subscriber sees.
    pub fn description(self) -> &'static str {
        match self {
            Kind::InvoiceIssued => "A person issued a draft as an invoice.",
            Kind::InvoicePaid => "A payment cleared an invoice's receivable.",
            Kind::InvoiceCancelled => "A person cancelled an invoice by a full correction.",
            Kind::PaymentRecorded => "Money was recorded moving in or out.",
            Kind::PurchaseRecorded => "An incoming purchase document (bill) was recorded.",
        }
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
    kind: Kind,
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
    endpoints::fan_out(tx, tenant, &id, kind)?;
    tx.note_events();
    Ok(id)
}
