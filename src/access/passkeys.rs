//! Passkeys (WebAuthn) as a second factor, through the `webauthn-rs`
//! relying party: registered by a signed-in person (the challenge kept by
//! the session's hash until the browser answers), used after the password
//! in place of an app's code (the challenge kept in the sign-in's step),
//! and removed. The relying party is the host of the first public URL, or
//! `localhost` without one (WebAuthn refuses IP addresses); the browser's
//! origin must be a public URL's, or `http(s)://localhost` on any port.
//! Only the credential's public key, counter and id are kept, as JSON; a
//! person's WebAuthn user handle is derived from their id.

use base64::Engine;
use jiff::Timestamp;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;
use sha2::{Digest, Sha256};
use webauthn_rs::prelude::{
    Passkey, PasskeyAuthentication, PasskeyRegistration, PublicKeyCredential,
    RegisterPublicKeyCredential, Url, Uuid, Webauthn, WebauthnBuilder,
};

use crate::access::steps::{self, Step};
use crate::access::{recovery, totp};
use crate::books::audit::{Act, Actor};
use crate::error::said::{Access, Record};
use crate::error::{Error, Result, Said};
use crate::rules::text;
use crate::store::clock::format_instant;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::row::Row;
use crate::store::sealed::Secret;

/// The longest name of a passkey (characters).
pub const MAX_NAME: usize = 100;
/// How long a registration waits for the browser.
const REGISTRATION_LIFETIME: jiff::SignedDuration = jiff::SignedDuration::from_secs(5 * 60);

/// The relying party of one server: its id and the origins it accepts.
pub struct RelyingParty {
    webauthn: std::result::Result<Webauthn, Access>,
    /// The relying party's id (a host name).
    pub id: String,
}

impl RelyingParty {
    /// The relying party of a server reached at `origins` (its public URLs'
    /// origins, the first naming it), or at `localhost` on any port when
    /// there are none. A first public URL with an IP address gives a party
    /// that refuses every act with a sentence saying why.
    pub fn for_origins(origins: &[String]) -> RelyingParty {
        let first = origins
            .first()
            .cloned()
            .unwrap_or_else(|| "http://localhost".to_string());
        let id = Url::parse(&first)
            .ok()
            .and_then(|u| u.host_str().map(str::to_string))
            .unwrap_or_default();
        let webauthn = (|| {
            let unusable =
                |e: &dyn std::fmt::Display| Access::PasskeysUnusable { why: e.to_string() };
            let origin = Url::parse(&first).map_err(|e| unusable(&e))?;
            let mut builder = WebauthnBuilder::new(&id, &origin)
                .map_err(|_| Access::PasskeysNeedHostName { url: first.clone() })?
                .rp_name("kontor");
            if origins.is_empty() {
                builder = builder.allow_any_port(true);
                if let Ok(secure) = Url::parse("https://localhost") {
                    builder = builder.append_allowed_origin(&secure);
                }
            }
            for other in origins.iter().skip(1) {
                if let Ok(url) = Url::parse(other) {
                    builder = builder.append_allowed_origin(&url);
                }
            }
            builder.build().map_err(|e| unusable(&e))
        })();
        RelyingParty { webauthn, id }
    }

    fn usable(&self) -> Result<&Webauthn> {
        self.webauthn
            .as_ref()
            .map_err(|why| Error::refused(why.clone()))
    }
}

/// A passkey as its person's page lists it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PasskeyView {
    pub id: String,
    pub name: String,
    pub created_at: String,
    pub last_used_at: Option<String>,
}

/// A person's WebAuthn user handle: the first 16 bytes of their id's SHA-256.
fn handle(user_id: &str) -> Uuid {
    let digest = Sha256::digest(user_id.as_bytes());
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    Uuid::from_bytes(bytes)
}

fn encode_id(raw: &[u8]) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(raw)
}

/// The passkeys of a person, oldest first.
///
/// Fails only on a storage error.
pub fn list(conn: &Connection, user_id: &str) -> Result<Vec<PasskeyView>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, name, created_at, last_used_at FROM passkeys WHERE user_id = ?1 ORDER BY seq",
    )?;
    let rows = stmt.query_map([user_id], |row| {
        let r = Row::new(row, "passkeys");
        Ok(PasskeyView {
            id: r.get(0)?,
            name: r.get(1)?,
            created_at: r.get(2)?,
            last_used_at: r.get(3)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The stored credentials of a person, with the row ids.
fn credentials(conn: &Connection, user_id: &str) -> Result<Vec<(String, Passkey)>> {
    let mut stmt =
        conn.prepare_cached("SELECT id, credential FROM passkeys WHERE user_id = ?1 ORDER BY seq")?;
    let rows = stmt.query_map([user_id], |row| {
        let r = Row::new(row, "passkeys");
        Ok((r.get::<String>(0)?, r.json::<Passkey>(1)?))
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Whether a person has a passkey.
///
/// Fails only on a storage error.
pub fn any(conn: &Connection, user_id: &str) -> Result<bool> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM passkeys WHERE user_id = ?1 LIMIT 1")?
        .query_row([user_id], |_| Ok(()))
        .optional()?
        .is_some())
}

/// Begins registering a passkey for a signed-in person: the options the
/// browser's `navigator.credentials.create` takes, as JSON; the challenge is
/// kept by the session's hash (a registration begun before is replaced).
///
/// Fails with `Refused` when the relying party cannot work at this address.
pub fn begin_registration(
    tx: &Tx,
    party: &RelyingParty,
    session_hash: &str,
    user_id: &str,
    email: &str,
    name: &str,
    now: Timestamp,
) -> Result<String> {
    let webauthn = party.usable()?;
    let exclude: Vec<_> = credentials(tx, user_id)?
        .into_iter()
        .map(|(_, p)| p.cred_id().clone())
        .collect();
    let (challenge, state) = webauthn
        .start_passkey_registration(
            handle(user_id),
            email,
            name,
            (!exclude.is_empty()).then_some(exclude),
        )
        .map_err(|e| Error::internal(format!("cannot begin a passkey registration: {e}")))?;
    let state = serde_json::to_string(&state).map_err(Error::internal)?;
    tx.prepare_cached("DELETE FROM passkey_registrations WHERE created_at < ?1")?
        .execute([format_instant(
            now.checked_sub(REGISTRATION_LIFETIME)
                .unwrap_or(Timestamp::MIN),
        )])?;
    tx.prepare_cached(
        "INSERT INTO passkey_registrations (session_hash, user_id, state, created_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (session_hash) DO UPDATE SET user_id = ?2, state = ?3, created_at = ?4",
    )?
    .execute(params![session_hash, user_id, state, format_instant(now)])?;
    serde_json::to_string(&challenge).map_err(Error::internal)
}

/// A passkey just registered, and the recovery codes made with it when it
/// is the person's first second factor (to be shown this once).
pub struct Registered {
    pub passkey: PasskeyView,
    pub recovery_codes: Option<Vec<Secret>>,
}

/// What the browser answered to a registration: the name the person gave
/// and the JSON of the new public-key credential.
pub struct Answer<'a> {
    pub name: Option<&'a str>,
    pub credential: &'a str,
}

/// Finishes a registration with the browser's answer (`credential`, the
/// JSON of the new public-key credential) under the name the person gave.
/// Recorded as `user.passkey_added` in every company the person belongs to.
///
/// Fails with `Invalid` naming `name` for a name empty or too long, and
/// `Refused` when no registration is open for the session, the answer does
/// not verify (another origin, a changed challenge, no user verification)
/// or names a credential registered already.
pub fn finish_registration(
    tx: &Tx,
    party: &RelyingParty,
    session_hash: &str,
    actor: &Actor,
    user_id: &str,
    answer: Answer,
    now: Timestamp,
) -> Result<Registered> {
    let name = text::required("name", answer.name, MAX_NAME)?;
    let webauthn = party.usable()?;
    let since = format_instant(
        now.checked_sub(REGISTRATION_LIFETIME)
            .unwrap_or(Timestamp::MIN),
    );
    let state: Option<String> = tx
        .prepare_cached(
            "DELETE FROM passkey_registrations WHERE session_hash = ?1 AND user_id = ?2 AND created_at >= ?3
             RETURNING state",
        )?
        .query_row(params![session_hash, user_id, since], |r| r.get(0))
        .optional()?;
    let state = state.ok_or_else(|| Error::refused(Access::NoPasskeyRegistration))?;
    let state: PasskeyRegistration = serde_json::from_str(&state).map_err(Error::internal)?;
    let answer: RegisterPublicKeyCredential =
        serde_json::from_str(answer.credential).map_err(|_| Error::refused(Access::NotPasskey))?;
    let passkey = webauthn
        .finish_passkey_registration(&answer, &state)
        .map_err(|e| Error::refused(Access::PasskeyUnverified { why: e.to_string() }))?;
    let credential_id = encode_id(passkey.cred_id());
    let taken: Option<i64> = tx
        .prepare_cached("SELECT 1 FROM passkeys WHERE credential_id = ?1")?
        .query_row([&credential_id], |r| r.get(0))
        .optional()?;
    if taken.is_some() {
        return Err(Error::refused(Access::PasskeyKnown));
    }
    let first = !any(tx, user_id)? && !totp::confirmed(tx, user_id)?;
    let id = ids::new_id("pky_");
    let at = format_instant(now);
    let json = serde_json::to_string(&passkey).map_err(Error::internal)?;
    tx.prepare_cached(
        "INSERT INTO passkeys (id, user_id, name, credential_id, credential, created_at, last_used_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, NULL)",
    )?
    .execute(params![id, user_id, name, credential_id, json, at])?;
    let recovery_codes = if first {
        Some(recovery::make(tx, user_id, now)?)
    } else {
        None
    };
    totp::record_everywhere(tx, actor, Act::UserPasskeyAdded, user_id)?;
    Ok(Registered {
        passkey: PasskeyView {
            id,
            name,
            created_at: at,
            last_used_at: None,
        },
        recovery_codes,
    })
}

/// Removes one of a person's passkeys. Recorded as `user.passkey_removed`
/// in every company the person belongs to.
///
/// Fails with `NotFound` when the person has no such passkey.
pub fn remove(tx: &Tx, actor: &Actor, user_id: &str, id: &str) -> Result<()> {
    let removed = tx
        .prepare_cached("DELETE FROM passkeys WHERE id = ?1 AND user_id = ?2")?
        .execute([id, user_id])?;
    if removed == 0 {
        return Err(Error::not_found(Said::Record(
            Record::Passkey,
            id.to_string(),
        )));
    }
    totp::record_everywhere(tx, actor, Act::UserPasskeyRemoved, user_id)
}

/// Begins a sign-in's passkey check: the options the browser's
/// `navigator.credentials.get` takes, as JSON; the challenge is kept in the
/// step.
///
/// Fails with `Refused` when the person has no passkey or the relying
/// party cannot work at this address.
pub fn begin_sign_in(tx: &Tx, party: &RelyingParty, step: &Step) -> Result<String> {
    let webauthn = party.usable()?;
    let keys: Vec<Passkey> = credentials(tx, &step.user_id)?
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    if keys.is_empty() {
        return Err(Error::refused(Access::NoPasskey));
    }
    let (challenge, state) = webauthn
        .start_passkey_authentication(&keys)
        .map_err(|e| Error::internal(format!("cannot begin a passkey check: {e}")))?;
    let state = serde_json::to_string(&state).map_err(Error::internal)?;
    steps::set_passkey_state(tx, &step.token_hash, Some(&state))?;
    serde_json::to_string(&challenge).map_err(Error::internal)
}

/// Checks a sign-in's passkey answer (`credential`, the JSON of the
/// assertion) against the challenge the step keeps: true when it verifies
/// for one of the person's passkeys (whose counter and last use are kept);
/// false for any other answer. The challenge is used once either way.
///
/// Fails only on a storage error or a stored value that cannot be read.
pub fn finish_sign_in(
    tx: &Tx,
    party: &RelyingParty,
    step: &Step,
    credential: &str,
    now: Timestamp,
) -> Result<bool> {
    let Some(state) = step.passkey_state.as_deref() else {
        return Ok(false);
    };
    steps::set_passkey_state(tx, &step.token_hash, None)?;
    let Ok(webauthn) = party.usable() else {
        return Ok(false);
    };
    let state: PasskeyAuthentication = serde_json::from_str(state).map_err(Error::internal)?;
    let Ok(answer) = serde_json::from_str::<PublicKeyCredential>(credential) else {
        return Ok(false);
    };
    let Ok(result) = webauthn.finish_passkey_authentication(&answer, &state) else {
        return Ok(false);
    };
    let used = encode_id(result.cred_id());
    for (id, mut passkey) in credentials(tx, &step.user_id)? {
        if encode_id(passkey.cred_id()) != used {
            continue;
        }
        passkey.update_credential(&result);
        let json = serde_json::to_string(&passkey).map_err(Error::internal)?;
        tx.prepare_cached("UPDATE passkeys SET credential = ?2, last_used_at = ?3 WHERE id = ?1")?
            .execute(params![id, json, format_instant(now)])?;
        return Ok(true);
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_party_is_the_public_urls_host_or_localhost() {
        let local = RelyingParty::for_origins(&[]);
        assert_eq!(local.id, "localhost");
        assert!(local.usable().is_ok());
        let public = RelyingParty::for_origins(&["https://books.example.com".to_string()]);
        assert_eq!(public.id, "books.example.com");
        assert!(public.usable().is_ok());
        let ip = RelyingParty::for_origins(&["http://127.0.0.1:8080".to_string()]);
        let refused = ip.usable().unwrap_err().sentence();
        assert!(refused.contains("IP addresses"), "{refused}");
        assert_ne!(handle("usr_a"), handle("usr_b"));
        assert_eq!(handle("usr_a"), handle("usr_a"));
    }
}
