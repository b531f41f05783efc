//! `/v1/webhooks`: registering, listing and disabling endpoints, the event
//! kinds, an endpoint's delivery log and redelivery.

use serde_json::json;

use super::call::{Call, Reply};
use crate::access::idempotency;
use crate::books::webhooks;
use crate::error::Result;
use crate::http::fields::{self, JsonFields};
use crate::outbox::endpoints::{self, EndpointInput, NewEndpoint};

/// POST /v1/webhooks
pub fn create(call: &Call) -> Result<Reply> {
    let (key, fingerprint, mut f) = call.idempotent_body()?;
    let input = EndpointInput {
        url: f.text("url")?,
        events: f.strings("events")?,
        description: f.text("description")?,
    };
    f.finish()?;
    let new = NewEndpoint::check(input, call.app.webhook_policy)?;
    // The answer to a registration carries the secret for the key that
    // registered it (its replays too, while the endpoint is enabled).
    let caller = call.key.id.as_str();
    call.create_once(
        key,
        &fingerprint,
        |tx, tenant, actor| webhooks::register(tx, tenant, actor, &new),
        |conn, tenant, id| endpoints::as_registered(conn, tenant, id, caller),
    )
}

/// GET /v1/webhooks
pub fn list(call: &Call) -> Result<Reply> {
    let paging = call.query.paging()?;
    Ok(Reply::ok(&endpoints::list(
        call.conn,
        call.tenant(),
        paging,
    )?))
}

/// GET /v1/webhooks/events
pub fn events() -> Result<Reply> {
    Ok(Reply::ok(&json!({ "data": endpoints::kinds() })))
}

/// DELETE /v1/webhooks/{id}
pub fn disable(call: &Call, id: &str) -> Result<Reply> {
    let tenant = call.tenant();
    let actor = call.key.actor();
    Ok(Reply::ok(
        &call
            .app
            .db
            .write(|tx| webhooks::disable(tx, tenant, &actor, id))?,
    ))
}

/// GET /v1/webhooks/{id}/deliveries
pub fn deliveries(call: &Call, id: &str) -> Result<Reply> {
    let paging = call.query.paging()?;
    Ok(Reply::ok(&endpoints::deliveries(
        call.conn,
        call.tenant(),
        Some(id),
        paging,
    )?))
}

/// POST /v1/webhooks/{id}/deliveries/{deliveryId}/redeliver → 202 (an empty or `{}` body)
pub fn redeliver(call: &Call, endpoint: &str, delivery_id: &str) -> Result<Reply> {
    let key = call.idempotency_key()?;
    let body = if call.body.iter().all(u8::is_ascii_whitespace) {
        json!({})
    } else {
        fields::parse_json(call.body)?
    };
    JsonFields::object(body.clone())?.finish()?;
    let fingerprint = idempotency::fingerprint(call.method.as_str(), call.path, &body);
    let tenant = call.tenant();
    endpoints::delivery_to(call.conn, tenant, endpoint, delivery_id)?;
    call.act_once(
        key,
        &fingerprint,
        202,
        |tx, tenant, actor| webhooks::redeliver(tx, tenant, actor, delivery_id),
        endpoints::delivery,
    )
}
