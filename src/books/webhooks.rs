//! A company's webhook endpoints as acts on its books: registering one,
//! disabling one and sending a delivery again, each the outbox's work
//! (`outbox::endpoints`) and its audit row in one transaction. The outbox
//! names no books, so its acts are recorded here, and every surface calls
//! these; what the outbox reads (endpoints, deliveries) is read there.

use crate::books::audit::{self, Act, Actor};
use crate::error::Result;
use crate::outbox::endpoints::{self, Endpoint, NewEndpoint};
use crate::store::db::Tx;
use crate::store::tenant::Tenant;

/// Registers an endpoint with a fresh signing secret; returns its id. An
/// endpoint a key registers is that key's: only it sees the secret.
/// Recorded as `webhook.registered` by `actor`.
///
/// Fails only on a storage error.
pub fn register(tx: &Tx, tenant: &Tenant, actor: &Actor, new: &NewEndpoint) -> Result<String> {
    let id = endpoints::create(tx, tenant, new, actor.key_id())?;
    audit::record(tx, tenant, actor, Act::WebhookRegistered, &id)?;
    Ok(id)
}

/// Registers an endpoint for a person (no key registers it) and returns it
/// with its signing secret, for the one answer that shows the secret.
/// Recorded as `webhook.registered` by `actor`.
///
/// Fails only on a storage error.
pub fn register_shown(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    new: &NewEndpoint,
) -> Result<Endpoint> {
    let endpoint = endpoints::create_shown(tx, tenant, new)?;
    audit::record(tx, tenant, actor, Act::WebhookRegistered, &endpoint.id)?;
    Ok(endpoint)
}

/// Disables an endpoint (see `endpoints::disable`). Recorded as
/// `webhook.disabled` by `actor`.
///
/// Fails with `NotFound` for an endpoint the tenant does not have.
pub fn disable(tx: &Tx, tenant: &Tenant, actor: &Actor, id: &str) -> Result<Endpoint> {
    let endpoint = endpoints::disable(tx, tenant, id)?;
    audit::record(tx, tenant, actor, Act::WebhookDisabled, id)?;
    Ok(endpoint)
}

/// Sends a delivery's event again (see `endpoints::redeliver`); returns the
/// new delivery's id. Recorded as `webhook.redelivered` on the new delivery
/// by `actor`.
///
/// Fails with `NotFound` for a delivery the tenant does not have, and
/// `WrongState` when its endpoint is disabled.
pub fn redeliver(tx: &Tx, tenant: &Tenant, actor: &Actor, delivery_id: &str) -> Result<String> {
    let again = endpoints::redeliver(tx, tenant, delivery_id)?;
    audit::record(tx, tenant, actor, Act::WebhookRedelivered, &again)?;
    Ok(again)
}
