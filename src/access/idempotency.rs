//! Idempotent creation: the Idempotency-Key rules shared by every POST and every
//! agent create. The first request under a key does its work, and the work, the
//! remembered record id and the key row commit in one transaction, so copies
//! that race resolve to one record; a later copy re-reads that record and is
//! answered with the original status. A refused request remembers nothing. Keys
//! are scoped to (company, environment) and kept 30 days. Each replay is
//! counted (`kontor_idempotent_replays_total`) for the server's metrics.

use jiff::{SignedDuration, Timestamp};
use rusqlite::{params, Connection, OptionalExtension};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::error::said::Access;
use crate::error::{Error, Result};
use crate::store::clock;
use crate::store::db::{Db, Tx};
use crate::store::tenant::Tenant;

/// Longest Idempotency-Key accepted.
pub const MAX_KEY_LEN: usize = 200;
/// How long a key is remembered.
const KEPT: SignedDuration = SignedDuration::from_hours(30 * 24);

/// The answer to an idempotent create.
#[derive(Debug)]
pub struct Outcome<T> {
    pub status: u16,
    pub body: T,
    /// True when this is a repeat answered from the remembered record.
    pub replayed: bool,
}

/// Checks an Idempotency-Key value: present, 1 to 200 characters, printable.
///
/// Fails with `BadRequest` saying which.
pub fn check_key(key: Option<&str>) -> Result<&str> {
    let key = key.ok_or_else(|| Error::bad_request(Access::IdempotencyKeyMissing))?;
    if key.is_empty() || key.chars().count() > MAX_KEY_LEN {
        return Err(Error::bad_request(Access::IdempotencyKeyLength));
    }
    if key.chars().any(char::is_control) {
        return Err(Error::bad_request(Access::IdempotencyKeyControl));
    }
    Ok(key)
}

/// The fingerprint of a request: SHA-256 over the method, the path and the
/// canonical JSON of the body (keys sorted, no white space).
pub fn fingerprint(method: &str, path: &str, body: &Value) -> String {
    // serde_json's map keeps keys sorted, so this serialisation is canonical.
    let canonical = serde_json::to_string(body).unwrap_or_default();
    let mut h = Sha256::new();
    h.update(method.as_bytes());
    h.update([0]);
    h.update(path.as_bytes());
    h.update([0]);
    h.update(canonical.as_bytes());
    hex::encode(h.finalize())
}

fn cutoff() -> String {
    clock::format_instant(Timestamp::now() - KEPT)
}

const LOOKUP_SQL: &str = "SELECT fingerprint, status, resource_id FROM idempotency_keys
     WHERE company_id = ?1 AND environment = ?2 AND key = ?3 AND created_at >= ?4";

fn lookup(conn: &Connection, tenant: &Tenant, key: &str) -> Result<Option<(String, u16, String)>> {
    Ok(conn
        .prepare_cached(LOOKUP_SQL)?
        .query_row(
            params![tenant.company_id, tenant.environment, key, cutoff()],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?)
}

fn replay<T>(
    conn: &Connection,
    found: (String, u16, String),
    fingerprint: &str,
    read: &impl Fn(&Connection, &str) -> Result<T>,
) -> Result<Outcome<T>> {
    let (stored, status, id) = found;
    if stored != fingerprint {
        return Err(Error::IdempotencyConflict);
    }
    metrics::counter!("kontor_idempotent_replays_total").increment(1);
    Ok(Outcome {
        status,
        body: read(conn, &id)?,
        replayed: true,
    })
}

/// Runs `create` once per (tenant, key): `create` returns the status and the id
/// of what it made; `read` renders a record by id, now and on every replay.
/// `conn` is the caller's read connection (a request holds only one).
///
/// Fails with `IdempotencyConflict` when the key was used with another
/// fingerprint, and with whatever `create` or `read` fail with (then nothing
/// is remembered).
pub fn run<T>(
    db: &Db,
    conn: &Connection,
    tenant: &Tenant,
    key: &str,
    fingerprint: &str,
    create: impl FnOnce(&Tx) -> Result<(u16, String)>,
    read: impl Fn(&Connection, &str) -> Result<T>,
) -> Result<Outcome<T>> {
    // Repeats are answered from the caller's read connection, without the write lock.
    if let Some(found) = lookup(conn, tenant, key)? {
        return replay(conn, found, fingerprint, &read);
    }
    db.write(|tx| {
        if let Some(found) = lookup(tx, tenant, key)? {
            return replay(tx, found, fingerprint, &read);
        }
        let (status, id) = create(tx)?;
        let body = read(tx, &id)?;
        tx.execute(
            "INSERT OR REPLACE INTO idempotency_keys (company_id, environment, key, fingerprint, status, resource_id, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![tenant.company_id, tenant.environment, key, fingerprint, status, id, clock::now()],
        )?;
        Ok(Outcome { status, body, replayed: false })
    })
}

/// Forgets keys older than 30 days; returns how many.
///
/// Fails only on a storage error.
pub fn purge(db: &Db) -> Result<usize> {
    db.write(|tx| {
        Ok(tx.execute(
            "DELETE FROM idempotency_keys WHERE created_at < ?1",
            [cutoff()],
        )?)
    })
}
