//! Webhook endpoints of a tenant (register, list, disable), the delivery log
//! and redelivery. An event's fan-out to the endpoints subscribed to it is
//! `events`'s (in the act's transaction); sending is the delivery worker's
//! (`delivery`). Registering, disabling and redelivering are the work of
//! acts whose audit row `books::webhooks` writes (the outbox names no
//! books): surfaces call those acts, and read here.

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;

use crate::error::said::{Input, Record, Webhook};
use crate::error::{Error, Result, Said, Violations};
use crate::outbox::address::{self, Policy, Refusal};
use crate::outbox::events::{self, EventKind};
use crate::rules::text;
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::paging::{Page, Paging, PAGE_LIMIT_SQL};
use crate::store::row::Row;
use crate::store::tenant::Tenant;

/// Where a delivery stands; it lives with the events, which write the
/// deliveries, and is named here too, beside the delivery log.
pub use crate::outbox::events::DeliveryState;

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

const COLUMNS: &str = "id, url, events, description, enabled, created_at, secret, created_by";

/// The kinds an endpoint is subscribed to, as stored: `*`, or kinds joined
/// by `,`. A kind that is not one is an error, never a subscription lost.
struct StoredEvents(Vec<String>);

impl rusqlite::types::FromSql for StoredEvents {
    fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        let text = value.as_str()?;
        if text == "*" {
            return Ok(StoredEvents(vec![text.to_string()]));
        }
        text.split(',')
            .map(|kind| {
                EventKind::parse(kind)
                    .map(|k| k.as_str().to_string())
                    .ok_or_else(|| {
                        rusqlite::types::FromSqlError::Other(
                            format!("{kind:?} is not an event kind").into(),
                        )
                    })
            })
            .collect::<std::result::Result<Vec<_>, _>>()
            .map(StoredEvents)
    }
}

fn from_row(row: &rusqlite::Row, shown_to: Option<&str>) -> rusqlite::Result<Endpoint> {
    let r = Row::new(row, "webhook_endpoints");
    let enabled: bool = r.get(4)?;
    // The secret is the registering key's, and only while the endpoint works.
    let registered_by = |key: &str| -> rusqlite::Result<bool> {
        Ok(r.get::<Option<String>>(7)?.as_deref() == Some(key))
    };
    let secret = match shown_to {
        Some(key) if enabled && registered_by(key)? => Some(r.get(6)?),
        _ => None,
    };
    Ok(Endpoint {
        id: r.get(0)?,
        url: r.get(1)?,
        events: r.get::<StoredEvents>(2)?.0,
        description: r.get(3)?,
        enabled,
        created_at: r.get(5)?,
        secret,
    })
}

/// An endpoint of the tenant, without its secret.
///
/// Fails with `NotFound` when the tenant has none with this id.
pub fn get(conn: &Connection, tenant: &Tenant, id: &str) -> Result<Endpoint> {
    read(conn, tenant, id, None)
}

/// An endpoint of the tenant as the answer to its registration shows it to
/// `key`: with its signing secret when `key` registered it and it is
/// enabled, else without.
///
/// Fails with `NotFound` when the tenant has none with this id.
pub fn as_registered(conn: &Connection, tenant: &Tenant, id: &str, key: &str) -> Result<Endpoint> {
    read(conn, tenant, id, Some(key))
}

fn read(conn: &Connection, tenant: &Tenant, id: &str, shown_to: Option<&str>) -> Result<Endpoint> {
    conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM webhook_endpoints WHERE id = ?1 AND company_id = ?2 AND environment = ?3"
    ))?
    .query_row(params![id, tenant.company_id, tenant.environment], |r| from_row(r, shown_to))
    .optional()?
    .ok_or_else(|| Error::not_found(Said::Record(Record::WebhookEndpoint, id.to_string())))
}

/// The tenant's endpoints, newest first, without secrets.
///
/// Fails only on a storage error.
pub fn list(conn: &Connection, tenant: &Tenant, paging: Paging) -> Result<Page<Endpoint>> {
    let total: i64 = conn
        .prepare_cached(
            "SELECT count(*) FROM webhook_endpoints WHERE company_id = ?1 AND environment = ?2",
        )?
        .query_row(params![tenant.company_id, tenant.environment], |r| r.get(0))?;
    let data = conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM webhook_endpoints WHERE company_id = ?1 AND environment = ?2
             ORDER BY seq DESC {PAGE_LIMIT_SQL} OFFSET ?3"
        ))?
        .query_map(
            params![tenant.company_id, tenant.environment, paging.offset()],
            |r| from_row(r, None),
        )?
        .take(paging.size as usize)
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(paging.envelope(data, total))
}

/// A registration as a caller gives it.
#[derive(Debug, Default, Clone)]
pub struct EndpointInput {
    pub url: Option<String>,
    /// Event kinds, or `["*"]` for all.
    pub events: Option<Vec<String>>,
    pub description: Option<String>,
}

/// A checked registration.
#[derive(Debug, Clone)]
pub struct NewEndpoint {
    url: String,
    events: Vec<String>,
    description: Option<String>,
}

impl NewEndpoint {
    /// Checks a registration: a URL the rules allow, at least one known event
    /// kind (or `*`), a description of at most 200 characters.
    ///
    /// Fails with `Invalid` for a missing or unreadable field, an unparseable
    /// URL or an unknown event kind, and `Refused` naming `url` for a URL the
    /// rules forbid.
    pub fn check(input: EndpointInput, policy: Policy) -> Result<NewEndpoint> {
        let mut v = Violations::new();
        let url = v.take(text::required("url", input.url.as_deref(), 2000))?;
        let description = v
            .take(text::optional(
                "description",
                input.description.as_deref(),
                200,
            ))?
            .flatten();
        let mut events = match input.events {
            None => {
                v.invalid("events", Input::Missing);
                Vec::new()
            }
            Some(events) if events.is_empty() => {
                v.invalid("events", Webhook::NoEvents);
                events
            }
            Some(events) => events,
        };
        for kind in &events {
            if kind != "*" && EventKind::parse(kind).is_none() {
                let known: Vec<&str> = EventKind::ALL.iter().map(|k| k.as_str()).collect();
                v.invalid(
                    "events",
                    Webhook::NotEventKind {
                        got: kind.clone(),
                        known: known.iter().map(|k| k.to_string()).collect(),
                    },
                );
            }
        }
        v.finish()?;
        let url = url.unwrap_or_default();
        if events.iter().any(|k| k == "*") {
            events = vec!["*".to_string()];
        }
        events.sort();
        events.dedup();
        let target = address::check_url(&url, policy).map_err(|r| match r {
            Refusal::Unreadable(said) => Error::bad_request(said),
            Refusal::Forbidden(said) => Error::refused(said),
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
                return Err(Error::refused(Webhook::ResolvesInward { reason }));
            }
        }
        Ok(NewEndpoint {
            url,
            events,
            description,
        })
    }
}

/// The kinds an endpoint can subscribe to.
#[derive(Debug, Serialize)]
pub struct KindView {
    event: EventKind,
    description: &'static str,
}

/// Every event kind with its description.
pub fn kinds() -> Vec<KindView> {
    EventKind::ALL
        .iter()
        .map(|k| KindView {
            event: *k,
            description: k.description(),
        })
        .collect()
}

/// Registers an endpoint with a fresh signing secret for the key `key`
/// (the one that may see the secret); returns its id.
///
/// Fails only on a storage error.
pub fn create(tx: &Tx, tenant: &Tenant, new: &NewEndpoint, key: Option<&str>) -> Result<String> {
    let id = ids::new_id("whk");
    let secret = format!("whsec_{}", STANDARD.encode(ids::random_bytes(32)));
    tx.prepare_cached(
        "INSERT INTO webhook_endpoints (id, company_id, environment, url, events, description, secret, enabled,
             created_by, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 1, ?8, ?9)",
    )?
    .execute(params![id, tenant.company_id, tenant.environment, new.url, new.events.join(","), new.description, secret,
        key, clock::now()])?;
    Ok(id)
}

/// Registers an endpoint for a person (no key registers it) and returns it
/// with its signing secret, for the one answer that shows the secret.
///
/// Fails only on a storage error.
pub fn create_shown(tx: &Tx, tenant: &Tenant, new: &NewEndpoint) -> Result<Endpoint> {
    let id = create(tx, tenant, new, None)?;
    let mut endpoint = get(tx, tenant, &id)?;
    endpoint.secret = Some(tx.query_row(
        "SELECT secret FROM webhook_endpoints WHERE id = ?1",
        [&id],
        |r| r.get(0),
    )?);
    Ok(endpoint)
}

/// Disables an endpoint: nothing more is sent to it, its pending deliveries
/// end as FAILED, the log stays. Disabling twice answers the same.
///
/// Fails with `NotFound` for an endpoint the tenant does not have.
pub fn disable(tx: &Tx, tenant: &Tenant, id: &str) -> Result<Endpoint> {
    get(tx, tenant, id)?;
    let now = clock::now();
    tx.execute(
        "UPDATE webhook_endpoints SET enabled = 0, disabled_at = ?2 WHERE id = ?1 AND enabled = 1",
        params![id, now],
    )?;
    tx.execute(
        "UPDATE deliveries SET state = ?2, last_error = 'endpoint disabled', next_attempt_at = NULL, lease_until = NULL
         WHERE endpoint_id = ?1 AND state = 'PENDING'",
        params![id, DeliveryState::Failed],
    )?;
    get(tx, tenant, id)
}

/// A delivery in the log.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Delivery {
    pub id: String,
    pub endpoint_id: String,
    pub event_id: String,
    pub event: EventKind,
    pub state: DeliveryState,
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

fn delivery_from_row(row: &rusqlite::Row) -> rusqlite::Result<Delivery> {
    let r = Row::new(row, "deliveries");
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
        params![id, tenant.company_id, tenant.environment],
        delivery_from_row,
    )
    .optional()?
    .ok_or_else(|| Error::not_found(Said::Record(Record::Delivery, id.to_string())))
}

/// The delivery log of the tenant, newest first: of one endpoint, or of all.
///
/// Fails with `NotFound` for an endpoint the tenant does not have.
pub fn deliveries(
    conn: &Connection,
    tenant: &Tenant,
    endpoint: Option<&str>,
    paging: Paging,
) -> Result<Page<Delivery>> {
    if let Some(endpoint) = endpoint {
        get(conn, tenant, endpoint)?;
    }
    let filter = "d.company_id = ?1 AND d.environment = ?2 AND (?3 IS NULL OR d.endpoint_id = ?3)";
    let total: i64 = conn
        .prepare_cached(&format!("SELECT count(*) FROM deliveries d WHERE {filter}"))?
        .query_row(
            params![tenant.company_id, tenant.environment, endpoint],
            |r| r.get(0),
        )?;
    let data = conn
        .prepare_cached(&format!(
            "{DELIVERY_SELECT} WHERE {filter} ORDER BY d.seq DESC {PAGE_LIMIT_SQL} OFFSET ?4"
        ))?
        .query_map(
            params![
                tenant.company_id,
                tenant.environment,
                endpoint,
                paging.offset()
            ],
            delivery_from_row,
        )?
        .take(paging.size as usize)
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(paging.envelope(data, total))
}

/// A delivery of the tenant to the endpoint `endpoint`.
///
/// Fails with `NotFound` when the tenant has no such delivery to that endpoint.
pub fn delivery_to(
    conn: &Connection,
    tenant: &Tenant,
    endpoint: &str,
    id: &str,
) -> Result<Delivery> {
    let d = delivery(conn, tenant, id)?;
    if d.endpoint_id != endpoint {
        return Err(Error::not_found(Said::Record(
            Record::Delivery,
            id.to_string(),
        )));
    }
    Ok(d)
}

/// Sends an event again: a new delivery of the same event (same event id and
/// body, signed afresh) to the same endpoint. Returns the new delivery's id.
///
/// Fails with `NotFound` for a delivery the tenant does not have, and
/// `WrongState` when its endpoint is disabled.
pub fn redeliver(tx: &Tx, tenant: &Tenant, delivery_id: &str) -> Result<String> {
    let original = delivery(tx, tenant, delivery_id)?;
    let endpoint = get(tx, tenant, &original.endpoint_id)?;
    if !endpoint.enabled {
        return Err(Error::wrong_state(Webhook::Disabled {
            id: endpoint.id.clone(),
        }));
    }
    events::insert_delivery(tx, tenant, &endpoint.id, &original.event_id, &clock::now())
}
