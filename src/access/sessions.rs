//! Server-side sessions of the screens: a random 256-bit id that only the
//! browser's cookie holds (the data file keeps its SHA-256), the company and
//! environment the session shows, the token its forms carry, and the two
//! expiries: idle (no request for a while) and absolute (since sign-in).
//! Last-seen is written at most once a minute; expired sessions are purged.

use std::time::Duration;

use base64::Engine;
use jiff::Timestamp;
use rusqlite::{params, Connection, OptionalExtension};
use sha2::{Digest, Sha256};

use crate::access::people::{Person, Role};
use crate::error::said::Record;
use crate::error::{Error, Result, Said};
use crate::rules::locale::Lang;
use crate::store::clock::format_instant;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::row::Row;
use crate::store::tenant::{Environment, Tenant};

/// How long a session lives.
#[derive(Debug, Clone, Copy)]
pub struct Expiry {
    /// Ends after this long without a request.
    pub idle: Duration,
    /// Ends this long after sign-in, whatever happens.
    pub absolute: Duration,
}

impl Default for Expiry {
    fn default() -> Self {
        Expiry {
            idle: Duration::from_secs(30 * 60),
            absolute: Duration::from_secs(12 * 3600),
        }
    }
}

/// Last-seen moves at most this often.
const TOUCH_EVERY: Duration = Duration::from_secs(60);

/// A live session, with the person, company and role it stands for.
#[derive(Debug, Clone)]
pub struct Session {
    /// The SHA-256 of the cookie's id, which names the row.
    pub token_hash: String,
    pub person: Person,
    pub tenant: Tenant,
    pub company_name: String,
    pub role: Role,
    /// The token every form of this session carries.
    pub csrf: String,
    /// Whether last-seen is older than a minute and should be written.
    pub touch_due: bool,
    /// The company requires two factors and the person has none yet: the
    /// session may only set one up (or sign out).
    pub must_set_up: bool,
}

/// 32 random bytes, URL-safe base64 without padding (43 characters).
pub fn random_token() -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(ids::random_bytes(32))
}

/// The SHA-256 of a token, as the data file keeps it (hex).
pub fn hash_of(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

fn ago(now: Timestamp, span: Duration) -> String {
    let span = jiff::SignedDuration::try_from(span).unwrap_or(jiff::SignedDuration::ZERO);
    format_instant(now.checked_sub(span).unwrap_or(Timestamp::MIN))
}

/// Starts a session for a person in one of their companies they are not
/// disabled in (the first by name when `company_id` is none), in
/// production; returns the cookie's id.
/// A new id every time: a sign-in never continues an older session.
///
/// Fails with `NotFound` when the person belongs to no such company.
pub fn start(tx: &Tx, user_id: &str, company_id: Option<&str>, now: Timestamp) -> Result<String> {
    let company: Option<String> = tx
        .prepare_cached(
            "SELECT m.company_id FROM memberships m JOIN companies c ON c.id = m.company_id
             WHERE m.user_id = ?1 AND (?2 IS NULL OR m.company_id = ?2) AND m.disabled_at IS NULL
             ORDER BY c.name, c.seq LIMIT 1",
        )?
        .query_row(params![user_id, company_id], |r| r.get(0))
        .optional()?;
    let company = company
        .ok_or_else(|| Error::not_found(Said::Record(Record::CompanyOfPerson, String::new())))?;
    let token = random_token();
    let at = format_instant(now);
    tx.prepare_cached(
        "INSERT INTO sessions (token_hash, user_id, company_id, environment, csrf, created_at, last_seen_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)",
    )?
    .execute(params![
        hash_of(&token),
        user_id,
        company,
        Environment::Production,
        random_token(),
        at
    ])?;
    Ok(token)
}

/// The live session a cookie's id names: its person not disabled, still an
/// enabled member of the company it shows, used within the idle time and begun
/// within the absolute time. An expired session is none.
///
/// Fails only on a storage error (or a stored value that cannot be read).
pub fn find(
    conn: &Connection,
    token: &str,
    expiry: Expiry,
    now: Timestamp,
) -> Result<Option<Session>> {
    if token.len() != 43 {
        return Ok(None);
    }
    let idle_since = ago(now, expiry.idle);
    let begun_since = ago(now, expiry.absolute);
    let touch_before = ago(now, TOUCH_EVERY);
    conn.prepare_cached(
        "SELECT s.token_hash, u.id, u.email, u.name, u.locale, s.company_id, s.environment, c.name,
                m.role, s.csrf, s.last_seen_at < ?4,
                EXISTS (SELECT 1 FROM two_factor_required r WHERE r.company_id = s.company_id)
                AND NOT EXISTS (SELECT 1 FROM totp_factors t
                                WHERE t.user_id = s.user_id AND t.confirmed_at IS NOT NULL)
                AND NOT EXISTS (SELECT 1 FROM passkeys p WHERE p.user_id = s.user_id)
         FROM sessions s
         JOIN users u ON u.id = s.user_id AND u.disabled_at IS NULL
         JOIN memberships m ON m.user_id = s.user_id AND m.company_id = s.company_id
                            AND m.disabled_at IS NULL
         JOIN companies c ON c.id = s.company_id
         WHERE s.token_hash = ?1 AND s.last_seen_at >= ?2 AND s.created_at >= ?3",
    )?
    .query_row(
        params![hash_of(token), idle_since, begun_since, touch_before],
        |row| {
            let r = Row::new(row, "sessions");
            let locale: Option<String> = r.get(4)?;
            Ok(Session {
                token_hash: r.get(0)?,
                person: Person {
                    id: r.get(1)?,
                    email: r.get(2)?,
                    name: r.get(3)?,
                    locale: locale.as_deref().and_then(Lang::from_code),
                },
                tenant: Tenant::new(r.get::<String>(5)?, r.get(6)?),
                company_name: r.get(7)?,
                role: r.get(8)?,
                csrf: r.get(9)?,
                touch_due: r.get(10)?,
                must_set_up: r.get(11)?,
            })
        },
    )
    .optional()
    .map_err(Error::from)
}

/// Notes that a session was used now.
///
/// Fails only on a storage error.
pub fn touch(tx: &Tx, token_hash: &str, now: Timestamp) -> Result<()> {
    tx.prepare_cached("UPDATE sessions SET last_seen_at = ?2 WHERE token_hash = ?1")?
        .execute(params![token_hash, format_instant(now)])?;
    Ok(())
}

/// Ends a session (signing out); ending one that is gone is harmless.
///
/// Fails only on a storage error.
pub fn end(tx: &Tx, token_hash: &str) -> Result<()> {
    tx.prepare_cached("DELETE FROM sessions WHERE token_hash = ?1")?
        .execute([token_hash])?;
    Ok(())
}

/// Makes a session show another company of its person, or the other
/// environment, with a new form token.
///
/// Fails with `NotFound` when the person does not belong to that company.
pub fn switch(
    tx: &Tx,
    session: &Session,
    company_id: &str,
    environment: Environment,
) -> Result<()> {
    let member: Option<i64> = tx
        .prepare_cached(
            "SELECT 1 FROM memberships WHERE user_id = ?1 AND company_id = ?2 AND disabled_at IS NULL",
        )?
        .query_row([&session.person.id, company_id], |r| r.get(0))
        .optional()?;
    if member.is_none() {
        return Err(Error::not_found(Said::Record(
            Record::Company,
            company_id.to_string(),
        )));
    }
    tx.prepare_cached(
        "UPDATE sessions SET company_id = ?2, environment = ?3, csrf = ?4 WHERE token_hash = ?1",
    )?
    .execute(params![
        session.token_hash,
        company_id,
        environment,
        random_token()
    ])?;
    Ok(())
}

/// Deletes every expired session; returns how many.
///
/// Fails only on a storage error.
pub fn purge(tx: &Tx, expiry: Expiry, now: Timestamp) -> Result<usize> {
    Ok(tx
        .prepare_cached("DELETE FROM sessions WHERE last_seen_at < ?1 OR created_at < ?2")?
        .execute(params![ago(now, expiry.idle), ago(now, expiry.absolute)])?)
}

/// Whether two tokens are equal, in time independent of where they differ.
pub fn same_token(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}
