//! `/v1/invoices/drafts`: an invoice draft for a customer, from `{customerId}` alone.

use super::call::{Call, Reply};
use crate::books::drafts::{self, DraftInput, DraftKind, NewDraft};
use crate::error::Result;

/// POST /v1/invoices/drafts
pub fn create(call: &Call) -> Result<Reply> {
    let (key, fingerprint, mut f) = call.idempotent_body()?;
    let input = DraftInput {
        customer_id: f.text("customerId")?,
    };
    f.finish()?;
    let new = NewDraft::empty(input, DraftKind::Invoice)?;
    call.create_once(
        key,
        &fingerprint,
        |tx, tenant, actor| drafts::create(tx, tenant, actor, &new),
        drafts::get,
    )
}
