//! API keys: minting (`svc_live_…`/`svc_test_…` with 40 random base62
//! characters), listing, revoking, and turning an `Authorization` header into an
//! authenticated key. Only the SHA-256 of a key is stored; the key itself exists
//! once, in the answer to `key create`. This module decides who is calling, not
//! what they may do (that is `access`).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use jiff::{SignedDuration, Timestamp};
use rusqlite::{params, Connection, OptionalExtension};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::access::scopes::{permissions_of, Scope};
use crate::books::audit::{self, Act, Actor};
use crate::books::company::{self, Plan};
use crate::error::said::{Access, Input, Record};
use crate::error::{Error, Result, Said, Violations};
use crate::rules::text;
use crate::store::clock;
use crate::store::db::{Db, Tx};
use crate::store::ids;
use crate::store::row::Row;
use crate::store::tenant::{Environment, Tenant};

/// Random characters after the prefix.
const SECRET_LEN: usize = 40;
/// `lastUsedAt` is written at most this often per key.
const LAST_USED_GRANULARITY: SignedDuration = SignedDuration::from_secs(60);

/// A key that passed authentication, with what a request's later checks need to know.
#[derive(Debug, Clone)]
pub struct AuthedKey {
    pub id: String,
    pub name: String,
    pub tenant: Tenant,
    pub scopes: Vec<Scope>,
    pub display: String,
    pub expires_at: Option<String>,
    pub last_used_at: Option<String>,
    pub company_name: String,
    pub plan: Plan,
}

fn hash(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

fn display_form(secret: &str, environment: Environment) -> String {
    let random = &secret[environment.key_prefix().len()..];
    format!(
        "{}{}…{}",
        environment.key_prefix(),
        &random[..4],
        &random[random.len() - 4..]
    )
}

fn scopes_text(scopes: &[Scope]) -> String {
    scopes
        .iter()
        .map(|s| s.name())
        .collect::<Vec<_>>()
        .join(",")
}

/// The scopes a stored key holds. A name that is not a scope is an error,
/// never a scope silently lost.
struct StoredScopes(Vec<Scope>);

impl rusqlite::types::FromSql for StoredScopes {
    fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        value
            .as_str()?
            .split(',')
            .map(|name| {
                Scope::parse(name).map_err(|_| {
                    rusqlite::types::FromSqlError::Other(format!("{name:?} is not a scope").into())
                })
            })
            .collect::<Result<Vec<_>, _>>()
            .map(StoredScopes)
    }
}

/// What a person gives to make a key, as given.
#[derive(Debug, Default, Clone)]
pub struct KeyInput {
    pub company_id: Option<String>,
    pub name: Option<String>,
    /// `production` or `sandbox`.
    pub environment: Option<String>,
    /// Comma-separated scope names, or `all`.
    pub scopes: Option<String>,
    /// An ISO 8601 instant in the future.
    pub expires_at: Option<String>,
}

/// A checked new key.
#[derive(Debug, Clone)]
pub struct NewKey {
    company_id: String,
    name: String,
    environment: Environment,
    scopes: Vec<Scope>,
    expires_at: Option<String>,
}

/// The longest name of an API key (characters).
pub const MAX_NAME: usize = 100;

impl NewKey {
    /// Checks a new key: its company, a name of 1–100 characters, an
    /// environment, at least one scope, an expiry in the future.
    ///
    /// Fails with `Invalid` naming every field that is missing or malformed.
    pub fn check(input: KeyInput) -> Result<NewKey> {
        let mut v = Violations::new();
        let company_id = v.take(text::required("company", input.company_id.as_deref(), 100))?;
        let name = v.take(text::required("name", input.name.as_deref(), MAX_NAME))?;
        let environment = match input.environment.as_deref() {
            None => {
                v.invalid("environment", Input::Missing);
                None
            }
            Some(e) => v.take(Environment::read(e))?,
        };
        let scopes = v.take(Scope::parse_list(input.scopes.as_deref().unwrap_or("")))?;
        let expires_at = match input.expires_at.as_deref() {
            None => None,
            Some(t) => v.take(clock::parse_instant("expiresAt", t))?,
        };
        if expires_at
            .as_deref()
            .is_some_and(|e| e <= clock::now().as_str())
        {
            v.invalid("expiresAt", Access::NotInFuture);
        }
        v.finish()?;
        match (company_id, name, environment, scopes) {
            (Some(company_id), Some(name), Some(environment), Some(scopes)) => Ok(NewKey {
                company_id,
                name,
                environment,
                scopes,
                expires_at,
            }),
            _ => Err(Error::internal("a checked key lacks a field")),
        }
    }

    /// A key of `company_id` in `environment` with every scope, named `name` (the demo's).
    pub fn all_scopes(company_id: &str, name: &str, environment: Environment) -> NewKey {
        NewKey {
            company_id: company_id.to_string(),
            name: name.to_string(),
            environment,
            scopes: Scope::ALL.to_vec(),
            expires_at: None,
        }
    }
}

/// Mints a key and returns its record including `secret`, the full key, which
/// is never shown again. Recorded as `key.created` by `actor` in `tenant`'s
/// books (the key's company, as the person views it).
///
/// Fails with `NotFound` for an unknown company, and with an internal error
/// when `tenant` is not the key's company.
pub fn create(tx: &Tx, tenant: &Tenant, actor: &Actor, new: NewKey) -> Result<Value> {
    company::get(tx, &new.company_id)?;
    if tenant.company_id != new.company_id {
        return Err(Error::internal(
            "a key is recorded in another company's books",
        ));
    }
    let name = new.name.as_str();
    let secret = format!(
        "{}{}",
        new.environment.key_prefix(),
        ids::base62(SECRET_LEN)
    );
    let id = ids::new_id("key");
    tx.execute(
        "INSERT INTO api_keys (id, company_id, environment, name, secret_hash, display, scopes, created_at, expires_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![
            id,
            new.company_id,
            new.environment.as_str(),
            name,
            hash(&secret),
            display_form(&secret, new.environment),
            scopes_text(&new.scopes),
            clock::now(),
            new.expires_at
        ],
    )?;
    audit::record(tx, tenant, actor, Act::KeyCreated, &id)?;
    let mut record = get_record(tx, &id)?;
    record["secret"] = json!(secret);
    Ok(record)
}

const KEY_RECORD_SQL: &str =
    "SELECT id, company_id, name, display, environment, scopes, created_at, expires_at, revoked_at, last_used_at
     FROM api_keys";

fn record_from_row(row: &rusqlite::Row) -> rusqlite::Result<Value> {
    let r = Row::new(row, "api_keys");
    let scopes: Vec<&str> = r
        .get::<StoredScopes>(5)?
        .0
        .iter()
        .map(|s| s.name())
        .collect();
    Ok(json!({
        "id": r.get::<String>(0)?,
        "companyId": r.get::<String>(1)?,
        "name": r.get::<String>(2)?,
        "key": r.get::<String>(3)?,
        "environment": r.get::<Environment>(4)?,
        "scopes": scopes,
        "createdAt": r.get::<String>(6)?,
        "expiresAt": r.get::<Option<String>>(7)?,
        "revokedAt": r.get::<Option<String>>(8)?,
        "lastUsedAt": r.get::<Option<String>>(9)?,
    }))
}

fn get_record(conn: &Connection, id: &str) -> Result<Value> {
    conn.query_row(
        &format!("{KEY_RECORD_SQL} WHERE id = ?1"),
        [id],
        record_from_row,
    )
    .optional()?
    .ok_or_else(|| Error::not_found(Said::Record(Record::Key, id.to_string())))
}

/// Every key of a company, newest first, without secrets.
///
/// Fails with `NotFound` for an unknown company.
pub fn list(conn: &Connection, company_id: &str) -> Result<Value> {
    company::get(conn, company_id)?;
    let mut stmt = conn.prepare(&format!(
        "{KEY_RECORD_SQL} WHERE company_id = ?1 ORDER BY seq DESC"
    ))?;
    let keys = stmt
        .query_map([company_id], record_from_row)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(json!({ "data": keys }))
}

/// A key of `company_id`, without its secret.
///
/// Fails with `NotFound` for a key that is not the company's.
pub fn get(conn: &Connection, company_id: &str, id: &str) -> Result<Value> {
    let record = get_record(conn, id)?;
    if record["companyId"].as_str() != Some(company_id) {
        return Err(Error::not_found(Said::Record(Record::Key, id.to_string())));
    }
    Ok(record)
}

/// The company a key belongs to.
///
/// Fails with `NotFound` for an unknown key.
pub fn company_of(conn: &Connection, id: &str) -> Result<String> {
    conn.prepare_cached("SELECT company_id FROM api_keys WHERE id = ?1")?
        .query_row([id], |r| r.get(0))
        .optional()?
        .ok_or_else(|| Error::not_found(Said::Record(Record::Key, id.to_string())))
}

/// Revokes a key of the tenant's company; from the next request on it
/// answers 401. Revoking twice is harmless. Recorded as `key.revoked` by
/// `actor` in the tenant's books.
///
/// Fails with `NotFound` for a key that is not the company's.
pub fn revoke(tx: &Tx, tenant: &Tenant, actor: &Actor, id: &str) -> Result<Value> {
    get(tx, &tenant.company_id, id)?;
    tx.execute(
        "UPDATE api_keys SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL",
        params![id, clock::now()],
    )?;
    audit::record(tx, tenant, actor, Act::KeyRevoked, id)?;
    get_record(tx, id)
}

/// Reads `Bearer <key>` from an Authorization header value.
fn bearer(header: Option<&str>) -> Option<&str> {
    let header = header?.trim();
    let (scheme, token) = header.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

/// The uses of keys this process has seen. The request path only notes a use
/// here (when the last known use is over a minute old); `flush` writes the
/// noted uses in one transaction, so reads never wait for a write. The last
/// known use stays in memory for a while after it is written, so a request
/// that read the row just before the write does not note the use again.
#[derive(Default)]
pub struct UsageLog {
    state: Mutex<Usage>,
}

#[derive(Default)]
struct Usage {
    /// The latest use per key this process knows of, as an instant and in
    /// stored form (formatted once, not at every request).
    last: HashMap<String, (Timestamp, String)>,
    /// Keys whose latest use is not written yet.
    dirty: Vec<String>,
}

impl UsageLog {
    /// Notes a use at `now` unless the last use (known here, else `stored`)
    /// lies within the last minute; returns the key's `lastUsedAt` as it now stands.
    fn touch(&self, key_id: &str, stored: Option<String>, now: Timestamp) -> String {
        let stale_before = now - LAST_USED_GRANULARITY;
        let mut usage = self.state.lock().unwrap_or_else(|p| p.into_inner());
        // Stored forms are fixed-width, so text order is time order.
        let later = |known: &String, stored: Option<String>| match stored {
            Some(s) if s > *known => s,
            _ => known.clone(),
        };
        if let Some((at, text)) = usage.last.get(key_id) {
            if *at >= stale_before {
                return later(text, stored);
            }
        }
        if let Some(text) = stored {
            if let Ok(at) = text.parse::<Timestamp>() {
                if at >= stale_before {
                    // Known from now on, so it is not read again.
                    usage.last.insert(key_id.to_string(), (at, text.clone()));
                    return text;
                }
            }
        }
        let text = clock::format_instant(now);
        usage.last.insert(key_id.to_string(), (now, text.clone()));
        usage.dirty.push(key_id.to_string());
        text
    }

    /// Writes every noted use; a stored value is only ever moved forward.
    /// Uses older than two minutes are forgotten here (the row has them).
    ///
    /// Fails only on a storage error (the uses stay noted and are written next time).
    pub fn flush(&self, db: &Db) -> Result<()> {
        let pending: Vec<(String, String)> = {
            let usage = self.state.lock().unwrap_or_else(|p| p.into_inner());
            usage
                .dirty
                .iter()
                .filter_map(|id| usage.last.get(id).map(|(_, at)| (id.clone(), at.clone())))
                .collect()
        };
        if !pending.is_empty() {
            db.write(|tx| {
                let mut stmt = tx.prepare_cached(
                    "UPDATE api_keys SET last_used_at = ?2 WHERE id = ?1 AND (last_used_at IS NULL OR last_used_at < ?2)",
                )?;
                for (id, at) in &pending {
                    stmt.execute(params![id, at])?;
                }
                Ok(())
            })?;
        }
        let forget_before = Timestamp::now() - 2 * LAST_USED_GRANULARITY;
        let mut usage = self.state.lock().unwrap_or_else(|p| p.into_inner());
        // A use noted again while writing stays dirty.
        let Usage { last, dirty } = &mut *usage;
        dirty.retain(|id| {
            !pending
                .iter()
                .any(|(written, at)| written == id && last.get(id).map(|(_, t)| t) == Some(at))
        });
        dirty.dedup();
        usage.last.retain(|_, (at, _)| *at >= forget_before);
        Ok(())
    }
}

/// The key in an `Authorization` header value, when it has a key's shape,
/// with the environment its prefix names.
fn token(header: Option<&str>) -> Option<(&str, Environment)> {
    let token = bearer(header)?;
    let environment = if token.starts_with(Environment::Production.key_prefix()) {
        Environment::Production
    } else if token.starts_with(Environment::Sandbox.key_prefix()) {
        Environment::Sandbox
    } else {
        return None;
    };
    let random = &token[environment.key_prefix().len()..];
    (random.len() == SECRET_LEN && random.bytes().all(|b| b.is_ascii_alphanumeric()))
        .then_some((token, environment))
}

/// Whether an expiry (stored form) has passed.
fn expired(expires_at: Option<&str>) -> bool {
    expires_at.is_some_and(|e| e <= clock::now().as_str())
}

/// Reads the key of an `Authorization` header value from the data file.
///
/// Fails with `Unauthenticated` (one answer for every case) when the header is
/// missing or unreadable, or the key is unknown, revoked or expired.
fn authenticate(conn: &Connection, header: Option<&str>) -> Result<AuthedKey> {
    let (token, environment) = token(header).ok_or(Error::Unauthenticated)?;
    const SQL: &str =
        "SELECT k.id, k.name, k.company_id, k.environment, k.scopes, k.display, k.expires_at,
                k.revoked_at, k.last_used_at, c.name, c.plan
         FROM api_keys k JOIN companies c ON c.id = k.company_id
         WHERE k.secret_hash = ?1";
    let found = conn
        .prepare_cached(SQL)?
        .query_row([hash(token)], |row| {
            let r = Row::new(row, "api_keys");
            Ok((
                AuthedKey {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    tenant: Tenant::new(r.get::<String>(2)?, environment),
                    scopes: r.get::<StoredScopes>(4)?.0,
                    display: r.get(5)?,
                    expires_at: r.get(6)?,
                    last_used_at: r.get(8)?,
                    company_name: r.get(9)?,
                    plan: r.get(10)?,
                },
                r.get::<Environment>(3)?,
                r.get::<Option<String>>(7)?,
            ))
        })
        .optional()?;
    let Some((key, stored_env, revoked_at)) = found else {
        return Err(Error::Unauthenticated);
    };
    if revoked_at.is_some() || expired(key.expires_at.as_deref()) || stored_env != environment {
        return Err(Error::Unauthenticated);
    }
    Ok(key)
}

/// How long a token found to be no (usable) key is remembered as such.
const REFUSED_FOR: Duration = Duration::from_secs(10);
/// The most such tokens remembered (a flood of new ones forgets the oldest).
const REFUSED_KEPT: usize = 100_000;

/// The keys this server has read, kept in memory with the generation of the
/// data file's keys they were read at (`key_generation`, which every change
/// to a key or a company's plan moves, from any process). A request uses
/// the kept key and reads the generation, one row, in its own snapshot: when
/// it has moved, everything kept is forgotten and the key read afresh, so a
/// revocation from the console holds from the next request on. Tokens that
/// are no usable key are remembered briefly, so a flood of them does not
/// reach the data file.
#[derive(Default)]
pub struct KeyCache {
    kept: Mutex<Kept>,
}

#[derive(Default)]
struct Kept {
    generation: Option<i64>,
    known: HashMap<[u8; 32], AuthedKey>,
    refused: HashMap<[u8; 32], Instant>,
}

/// What the kept keys say of a header.
pub enum Lookup {
    /// A kept key, not expired (its last use as last read).
    Known(Box<AuthedKey>),
    /// No key: unreadable, or a token found to be no usable key lately.
    Refused,
    /// Not kept: the data file must be asked.
    Unknown,
}

fn digest(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

fn generation(conn: &Connection) -> Result<i64> {
    Ok(conn
        .prepare_cached("SELECT value FROM key_generation WHERE one = 1")?
        .query_row([], |r| r.get(0))?)
}

impl KeyCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The key of an `Authorization` header value as kept in memory.
    pub fn lookup(&self, header: Option<&str>) -> Lookup {
        let Some((token, _)) = token(header) else {
            return Lookup::Refused;
        };
        let digest = digest(token);
        let kept = self.lock();
        if let Some(key) = kept.known.get(&digest) {
            return if expired(key.expires_at.as_deref()) {
                Lookup::Refused
            } else {
                Lookup::Known(Box::new(key.clone()))
            };
        }
        match kept.refused.get(&digest) {
            Some(at) if at.elapsed() < REFUSED_FOR => Lookup::Refused,
            _ => Lookup::Unknown,
        }
    }

    /// Whether the kept keys still hold in `conn`'s snapshot (the generation
    /// has not moved); when it has, they are all forgotten.
    ///
    /// Fails only on a storage error.
    pub fn current(&self, conn: &Connection) -> Result<bool> {
        let now = generation(conn)?;
        let mut kept = self.lock();
        if kept.generation == Some(now) {
            return Ok(true);
        }
        if kept.generation.is_none_or(|g| g < now) {
            *kept = Kept {
                generation: Some(now),
                ..Kept::default()
            };
        }
        Ok(false)
    }

    /// Reads the key of an `Authorization` header value from the data file
    /// and keeps what it found.
    ///
    /// Fails with `Unauthenticated` when there is no usable key.
    pub fn load(&self, conn: &Connection, header: Option<&str>) -> Result<AuthedKey> {
        let now = generation(conn)?;
        let found = authenticate(conn, header);
        let mut kept = self.lock();
        if kept.generation.is_none_or(|g| g < now) {
            *kept = Kept {
                generation: Some(now),
                ..Kept::default()
            };
        }
        if kept.generation == Some(now) {
            if let Some((token, _)) = token(header) {
                let digest = digest(token);
                match &found {
                    Ok(key) => {
                        kept.refused.remove(&digest);
                        kept.known.insert(digest, key.clone());
                    }
                    Err(Error::Unauthenticated) => {
                        if kept.refused.len() >= REFUSED_KEPT {
                            kept.refused.retain(|_, at| at.elapsed() < REFUSED_FOR);
                            if kept.refused.len() >= REFUSED_KEPT {
                                kept.refused.clear();
                            }
                        }
                        kept.refused.insert(digest, Instant::now());
                    }
                    Err(_) => {}
                }
            }
        }
        found
    }
}

/// Notes a use of `key` now and sets its `lastUsedAt` as it now stands.
pub fn note_use(usage: &UsageLog, key: &mut AuthedKey) {
    let stored = key.last_used_at.take();
    key.last_used_at = Some(usage.touch(&key.id, stored, Timestamp::now()));
}

impl AuthedKey {
    /// The key as the actor of an act (REST, the agent tools).
    pub fn actor(&self) -> Actor {
        Actor::Key {
            id: self.id.clone(),
            name: self.name.clone(),
        }
    }

    /// The key identity object of GET /me.
    pub fn identity(&self) -> Value {
        json!({
            "organisationId": self.tenant.company_id,
            "organisation": self.company_name,
            "binding": {
                "organisationId": self.tenant.company_id,
                "organisation": self.company_name,
                "immutable": true,
            },
            "key": self.display,
            "name": self.name,
            "environment": self.tenant.environment.as_str(),
            "scopes": self.scopes.iter().map(|s| s.name()).collect::<Vec<_>>(),
            "permissions": permissions_of(&self.scopes).iter().map(|p| p.name()).collect::<Vec<_>>(),
            "lastUsedAt": self.last_used_at,
            "expiresAt": self.expires_at,
        })
    }
}
