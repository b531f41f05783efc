//! The half of a sign-in between a right password and the second factor:
//! a step, not a session. Its random id is held by the browser's cookie
//! (the data file keeps its SHA-256), with the token the step's forms carry
//! and, while one is open, the passkey challenge asked of the browser. A
//! step names only the person: it shows no company and reads nothing, and
//! nothing but the second factor's forms accepts it. It lives five minutes;
//! a second factor taken ends it, and a new sign-in replaces it.

use std::time::Duration;

use jiff::Timestamp;
use rusqlite::{params, Connection, OptionalExtension};

use crate::access::sessions::{hash_of, random_token};
use crate::error::{Error, Result};
use crate::rules::locale::Lang;
use crate::store::clock::format_instant;
use crate::store::db::Tx;
use crate::store::row::Row;

/// How long a step waits for its second factor.
pub const LIFETIME: Duration = Duration::from_secs(5 * 60);

/// A step awaiting its second factor.
#[derive(Debug, Clone)]
pub struct Step {
    pub token_hash: String,
    pub user_id: String,
    /// The person's e-mail address (what failed attempts are counted by).
    pub email: String,
    pub locale: Option<Lang>,
    /// The token the step's forms carry.
    pub csrf: String,
    /// The passkey challenge open with the browser (the relying party's state, as JSON).
    pub passkey_state: Option<String>,
}

fn since(now: Timestamp) -> String {
    let span = jiff::SignedDuration::try_from(LIFETIME).unwrap_or(jiff::SignedDuration::ZERO);
    format_instant(now.checked_sub(span).unwrap_or(Timestamp::MIN))
}

/// Starts a step for a person whose password was right; returns the
/// cookie's id. Expired steps go.
///
/// Fails only on a storage error.
pub fn start(tx: &Tx, user_id: &str, now: Timestamp) -> Result<String> {
    tx.prepare_cached("DELETE FROM sign_in_steps WHERE created_at < ?1")?
        .execute([since(now)])?;
    let token = random_token();
    tx.prepare_cached(
        "INSERT INTO sign_in_steps (token_hash, user_id, csrf, passkey_state, created_at)
         VALUES (?1, ?2, ?3, NULL, ?4)",
    )?
    .execute(params![
        hash_of(&token),
        user_id,
        random_token(),
        format_instant(now)
    ])?;
    Ok(token)
}

/// The live step a cookie's id names: begun within five minutes, its person
/// not disabled.
///
/// Fails only on a storage error.
pub fn find(conn: &Connection, token: &str, now: Timestamp) -> Result<Option<Step>> {
    if token.len() != 43 {
        return Ok(None);
    }
    conn.prepare_cached(
        "SELECT s.token_hash, u.id, u.email, u.locale, s.csrf, s.passkey_state
         FROM sign_in_steps s JOIN users u ON u.id = s.user_id AND u.disabled_at IS NULL
         WHERE s.token_hash = ?1 AND s.created_at >= ?2",
    )?
    .query_row(params![hash_of(token), since(now)], |row| {
        let r = Row::new(row, "sign_in_steps");
        let locale: Option<String> = r.get(3)?;
        Ok(Step {
            token_hash: r.get(0)?,
            user_id: r.get(1)?,
            email: r.get(2)?,
            locale: locale.as_deref().and_then(Lang::from_code),
            csrf: r.get(4)?,
            passkey_state: r.get(5)?,
        })
    })
    .optional()
    .map_err(Error::from)
}

/// Keeps the passkey challenge asked of the browser (or none).
///
/// Fails only on a storage error.
pub fn set_passkey_state(tx: &Tx, token_hash: &str, state: Option<&str>) -> Result<()> {
    tx.prepare_cached("UPDATE sign_in_steps SET passkey_state = ?2 WHERE token_hash = ?1")?
        .execute(params![token_hash, state])?;
    Ok(())
}

/// Ends a step (its second factor was taken, or the person was reset).
///
/// Fails only on a storage error.
pub fn end(tx: &Tx, token_hash: &str) -> Result<()> {
    tx.prepare_cached("DELETE FROM sign_in_steps WHERE token_hash = ?1")?
        .execute([token_hash])?;
    Ok(())
}
