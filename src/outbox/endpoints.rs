//! Webhook endpoints of a tenant (register, list, disable), the fan-out of an
//! event to the endpoints subscribed to it (in the act's transaction), the
//! delivery log and redelivery. Sending is the delivery worker's (`delivery`).

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::http::fields::Fields;
use crate::http::query::{Page, Paging, PAGE_LIMIT_SQL};
use crate::http::rest::{Call, Reply};
use crate::outbox::address::{self, Policy, Refusal};
use crate::outbox::events;
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::tenant::Tenant;

/// An endpoint in its wire form; `secret` only in the answer to registration.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Endpoint {
    pub id: String,
    pub url: String,
    pub events: Vec<String>,
    pub description: Option<String>,
    pub enabled: bool,
    pub created_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
}

const COLUMNS: &str = "id, url, events, description, enabled, created_at, secret";

fn from_row(r: &rusqlite::Row, with_secret: bool) -> rusqlite::Result<Endpoint> {
    let events: String = r.get(2)?;
    Ok(Endpoint {
        id: r.get(0)?,
        url: r.get(1)?,
        events: events.split(',').map(str::to_string).collect(),
        description: r.get(3)?,
        enabled: r.get(4)?,
        created_at: r.get(5)?,
        secret: if with_secret { Some(r.get(6)?) } else { None },
    })
}

/// An endpoint of the tenant; with its secret only when `with_secret`.
///
/// Fails with `NotFound` when the tenant has none with this id.
pub fn get(conn: &Connection, tenant: &Tenant, id: &str, with_secret: bool) -> Result<Endpoint> {
    conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM webhook_endpoints WHERE id = ?1 AND company_id = ?2 AND environment = ?3"
    ))?
    .query_row(params![id, tenant.company_id, tenant.env()], |r| from_row(r, with_secret))
    .optional()?
    .ok_or_else(|| Error::not_found(format!("Webhook endpoint {id}")))
}

/// The tenant's endpoints, newest first, without secrets.
///
/// Fails only on a storage error.
pub fn list(conn: &Connection, tenant: &Tenant, paging: Paging) -> Result<Page<Endpoint>> {
    let total: i64 = conn
        .prepare_cached(
            "SELECT count(*) FROM webhook_endpoints WHERE company_id = ?1 AND environment = ?2",
        )?
        .query_row(params![tenant.company_id, tenant.env()], |r| r.get(0))?;
    let data = conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM webhook_endpoints WHERE company_id = ?1 AND environment = ?2
             ORDER BY seq DESC {PAGE_LIMIT_SQL} OFFSET ?3"
        ))?
        .query_map(
            params![tenant.company_id, tenant.env(), paging.offset()],
            |r| from_row(r, false),
        )?
        .take(paging.size as usize)
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(paging.envelope(data, total))
}

/// Standard base64 with padding (for the signing secret).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A checked registration.
pub struct NewEndpoint {
    pub url: String,
    pub events: Vec<String>,
    pub description: Option<String>,
}

impl NewEndpoint {
    /// Reads `{url, events, description?}` and checks the URL against the rules.
    ///
    /// Fails with `BadRequest` for a missing or unreadable field, an unparseable
    /// URL or an unknown event kind, and `Refused` for a URL the rules forbid.
    pub fn from_fields(mut f: Fields, policy: Policy) -> Result<NewEndpoint> {
        let url = f.required_text("url", 2000)?;
        let events = f.required_strings("events")?;
        let description = f.optional_text("description", 200)?;
        f.finish()?;
        if events.is_empty() {
            return Err(Error::bad_request(
                "The field events needs at least one event kind, or [\"*\"].",
            ));
        }
        for kind in &events {
            if kind != "*" && !events::KINDS.iter().any(|(k, _)| k == kind) {
                let known: Vec<&str> = events::KINDS.iter().map(|(k, _)| *k).collect();
                return Err(Error::bad_request(format!(
                    "{kind:?} is not an event kind; the kinds are {}.",
                    known.join(", ")
                )));
            }
        }
        let mut events = if events.iter().any(|k| k == "*") {
            vec!["*".to_string()]
        } else {
            events
        };
        events.sort();
        events.dedup();
        let target = address::check_url(&url, policy).map_err(|r| match r {
            Refusal::Unreadable(s) => Error::bad_request(s),
            Refusal::Forbidden(s) => Error::refused(s),
        })?;
        // A name is resolved once now, so one that points inward is refused at once;
        // one that does not resolve yet is checked again at every delivery.
        if let Err(reason) = address::resolve_checked(
            &target.host,
            target.port,
            policy,
            std::time::Duration::from_secs(5),
        ) {
            if reason.starts_with("refused") {
                return Err(Error::refused(format!(
                    "{reason}; webhooks go only to public addresses."
                )));
            }
        }
        Ok(NewEndpoint {
            url,
            events,
            description,
        })
    }
}

/// Registers an endpoint with a fresh signing secret; returns its id.
///
/// Fails only on a storage error.
pub fn create(tx: &Tx, tenant: &Tenant, new: &NewEndpoint) -> Result<String> {
    let id = ids::new_id("whk");
    let secret = format!("whsec_{}", base64(&ids::random_bytes(32)));
    tx.prepare_cached(
        "INSERT INTO webhook_endpoints (id, company_id, environment, url, events, description, secret, enabled, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 1, ?8)",
    )?
    .execute(params![id, tenant.company_id, tenant.env(), new.url, new.events.join(","), new.description, secret, clock::now()])?;
    Ok(id)
}

/// Disables an endpoint: nothing more is sent to it, its pending deliveries
/// end as FAILED, the log stays. Disabling twice answers the same.
///
/// Fails with `NotFound` for an endpoint the tenant does not have.
pub fn disable(tx: &Tx, tenant: &Tenant, id: &str) -> Result<Endpoint> {
    get(tx, tenant, id, false)?;
    let now = clock::now();
    tx.execute(
        "UPDATE webhook_endpoints SET enabled = 0, disabled_at = ?2 WHERE id = ?1 AND enabled = 1",
        params![id, now],
    )?;
    tx.execute(
        "UPDATE deliveries SET state = 'FAILED', last_error = 'endpoint disabled', next_attempt_at = NULL, lease_until = NULL
         WHERE endpoint_id = ?1 AND state = 'PENDING'",
        [id],
    )?;
    get(tx, tenant, id, false)
}

/// Writes one PENDING delivery of `event_id` for every enabled endpoint of the
/// tenant subscribed to `kind`, due now. Called by `events::raise` in the
/// act's transaction; endpoints registered later never see older events.
///
/// Fails only on a storage error.
pub fn fan_out(tx: &Tx, tenant: &Tenant, event_id: &str, kind: &str) -> Result<usize> {
    let endpoints: Vec<String> = tx
        .prepare_cached(
            "SELECT id FROM webhook_endpoints WHERE company_id = ?1 AND environment = ?2 AND enabled = 1
               AND (events = '*' OR ',' || events || ',' LIKE '%,' || ?3 || ',%')",
        )?
        .query_map(params![tenant.company_id, tenant.env(), kind], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let now = clock::now();
    for endpoint in &endpoints {
        insert_delivery(tx, tenant, endpoint, event_id, &now)?;
    }
    Ok(endpoints.len())
}

fn insert_delivery(
    tx: &Tx,
    tenant: &Tenant,
    endpoint: &str,
    event_id: &str,
    now: &str,
) -> Result<String> {
    let id = ids::new_id("dlv");
    tx.prepare_cached(
        "INSERT INTO deliveries (id, company_id, environment, endpoint_id, event_id, state, next_attempt_at, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, 'PENDING', ?6, ?6)",
    )?
    .execute(params![id, tenant.company_id, tenant.env(), endpoint, event_id, now])?;
    Ok(id)
}

/// A delivery in the log.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Delivery {
    pub id: String,
    pub endpoint_id: String,
    pub event_id: String,
    pub event: String,
    pub state: String,
    pub attempts: i64,
    pub last_status: Option<i64>,
    pub last_error: Option<String>,
    pub next_attempt_at: Option<String>,
    pub delivered_at: Option<String>,
    pub created_at: String,
}

const DELIVERY_SELECT: &str =
    "SELECT d.id, d.endpoint_id, d.event_id, e.kind, d.state, d.attempts, d.last_status,
        d.last_error, d.next_attempt_at, d.delivered_at, d.created_at
     FROM deliveries d JOIN events e ON e.id = d.event_id";

fn delivery_from_row(r: &rusqlite::Row) -> rusqlite::Result<Delivery> {
    Ok(Delivery {
        id: r.get(0)?,
        endpoint_id: r.get(1)?,
        event_id: r.get(2)?,
        event: r.get(3)?,
        state: r.get(4)?,
        attempts: r.get(5)?,
        last_status: r.get(6)?,
        last_error: r.get(7)?,
        next_attempt_at: r.get(8)?,
        delivered_at: r.get(9)?,
        created_at: r.get(10)?,
    })
}

/// One delivery of the tenant.
///
/// Fails with `NotFound` when the tenant has none with this id.
pub fn delivery(conn: &Connection, tenant: &Tenant, id: &str) -> Result<Delivery> {
    conn.prepare_cached(&format!(
        "{DELIVERY_SELECT} WHERE d.id = ?1 AND d.company_id = ?2 AND d.environment = ?3"
    ))?
    .query_row(
        params![id, tenant.company_id, tenant.env()],
        delivery_from_row,
    )
    .optional()?
    .ok_or_else(|| Error::not_found(format!("Delivery {id}")))
}

/// The delivery log of the tenant, newest first: of one endpoint, or of all.
///
/// Fails only on a storage error.
pub fn deliveries(
    conn: &Connection,
    tenant: &Tenant,
    endpoint: Option<&str>,
    paging: Paging,
) -> Result<Page<Delivery>> {
    let filter = "d.company_id = ?1 AND d.environment = ?2 AND (?3 IS NULL OR d.endpoint_id = ?3)";
    let total: i64 = conn
        .prepare_cached(&format!("SELECT count(*) FROM deliveries d WHERE {filter}"))?
        .query_row(params![tenant.company_id, tenant.env(), endpoint], |r| {
            r.get(0)
        })?;
    let data = conn
        .prepare_cached(&format!(
            "{DELIVERY_SELECT} WHERE {filter} ORDER BY d.seq DESC {PAGE_LIMIT_SQL} OFFSET ?4"
        ))?
        .query_map(
            params![tenant.company_id, tenant.env(), endpoint, paging.offset()],
            delivery_from_row,
        )?
        .take(paging.size as usize)
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(paging.envelope(data, total))
}

/// Sends an event again: a new delivery of the same event (same event id and
/// body, signed afresh) to the same endpoint. Returns the new delivery's id.
///
/// Fails with `NotFound` for a delivery the tenant does not have, and
/// `WrongState` when its endpoint is disabled.
pub fn redeliver(tx: &Tx, tenant: &Tenant, delivery_id: &str) -> Result<String> {
    let original = delivery(tx, tenant, delivery_id)?;
    let endpoint = get(tx, tenant, &original.endpoint_id, false)?;
    if !endpoint.enabled {
        return Err(Error::wrong_state(format!(
            "The endpoint {} is disabled; nothing is sent to it.",
            endpoint.id
        )));
    }
    insert_delivery(tx, tenant, &endpoint.id, &original.event_id, &clock::now())
}

/// POST /v1/webhooks
pub fn http_create(call: &Call) -> Result<Reply> {
    let (key, fingerprint, fields) = call.idempotent_body()?;
    let new = NewEndpoint::from_fields(fields, call.app.webhook_policy)?;
    let tenant = call.tenant();
    // The answer to a registration, replays included, carries the secret.
    call.create_once(
        key,
        &fingerprint,
        |tx| create(tx, tenant, &new),
        |conn, id| get(conn, tenant, id, true),
    )
}

/// GET /v1/webhooks
pub fn http_list(call: &Call) -> Result<Reply> {
    let paging = call.query.paging()?;
    Ok(Reply::ok(
        &call.read(|conn| list(conn, call.tenant(), paging))?,
    ))
}

#[derive(Serialize)]
struct Kind {
    event: &'static str,
    description: &'static str,
}

/// GET /v1/webhooks/events
pub fn http_events() -> Result<Reply> {
    let data: Vec<Kind> = events::KINDS
        .iter()
        .map(|(event, description)| Kind { event, description })
        .collect();
    Ok(Reply::ok(&serde_json::json!({ "data": data })))
}

/// DELETE /v1/webhooks/{id}
pub fn http_disable(call: &Call, id: &str) -> Result<Reply> {
    let tenant = call.tenant();
    Ok(Reply::ok(&call.app.db.write(|tx| disable(tx, tenant, id))?))
}

/// GET /v1/webhooks/{id}/deliveries
pub fn http_deliveries(call: &Call, id: &str) -> Result<Reply> {
    let paging = call.query.paging()?;
    let tenant = call.tenant();
    let page = call.read(|conn| {
        get(conn, tenant, id, false)?;
        deliveries(conn, tenant, Some(id), paging)
    })?;
    Ok(Reply::ok(&page))
}

/// POST /v1/webhooks/{id}/deliveries/{deliveryId}/redeliver → 202
pub fn http_redeliver(call: &Call, endpoint: &str, delivery_id: &str) -> Result<Reply> {
    let key = crate::access::idempotency::check_key(call.idempotency_key)?;
    let body = if call.body.iter().all(u8::is_ascii_whitespace) {
        serde_json::json!({})
    } else {
        crate::http::fields::parse_json(call.body)?
    };
    Fields::from_value(body.clone())?.finish()?;
    let fingerprint =
        crate::access::idempotency::fingerprint(call.method.as_str(), call.path, &body);
    let tenant = call.tenant();
    call.read(|conn| {
        let d = delivery(conn, tenant, delivery_id)?;
        if d.endpoint_id != endpoint {
            return Err(Error::not_found(format!("Delivery {delivery_id}")));
        }
        Ok(())
    })?;
    call.act_once(
        key,
        &fingerprint,
        202,
        |tx| redeliver(tx, tenant, delivery_id),
        |conn, id| delivery(conn, tenant, id),
    )
}
