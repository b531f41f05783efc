//! A person's authenticator app (RFC 6238 TOTP: HMAC-SHA-1, 6 digits, 30
//! second steps, as every authenticator app expects): the secret is made
//! here (160 random bits, as RFC 4226 recommends), sealed under the key file
//! (`store::sealed`, context `{user_id}/totp`) and shown once, as text and
//! as an `otpauth://` address; it counts only once a first code confirms
//! it. A code is taken once: the time step of the last code taken is kept,
//! and a code of that step or an earlier one is refused (a replay within its
//! window), while one step of clock drift either way is allowed. The codes
//! are computed by the `totp-rs` crate.

use jiff::Timestamp;
use rusqlite::{params, Connection, OptionalExtension};
use totp_rs::{Algorithm, Builder, Totp};

use crate::access::recovery;
use crate::books::audit::{self, Act, Actor};
use crate::error::said::Access;
use crate::error::{Error, Result};
use crate::store::clock::format_instant;
use crate::store::db::Tx;
use crate::store::sealed::{SealingKey, Secret};
use crate::store::tenant::{Environment, Tenant};

/// The issuer an authenticator app shows beside the account.
pub const ISSUER: &str = "kontor";
/// Digits of a code.
pub const DIGITS: u8 = 6;
/// Seconds of a time step.
pub const STEP_SECONDS: u64 = 30;
/// Steps of clock drift allowed either way.
pub const SKEW: u16 = 1;
/// Bytes of a new secret (160 bits).
const SECRET_BYTES: usize = 20;

/// An app being set up: the secret and the address an app reads from the QR code.
pub struct Enrolment {
    /// The secret in base32, as a person types it into an app.
    pub secret: Secret,
    /// The `otpauth://totp/kontor:{email}?secret=…&issuer=kontor` address.
    pub uri: Secret,
}

/// The sealing context of a person's secret.
fn context(user_id: &str) -> String {
    format!("{user_id}/totp")
}

/// The generator of a secret (base32) for a person's e-mail address.
fn totp(secret: &str, email: &str) -> Result<Totp> {
    let bytes = totp_rs::Secret::try_from_base32(secret)
        .map_err(|_| Error::internal("a stored authenticator secret is not base32"))?;
    Builder::new()
        .with_algorithm(Algorithm::SHA1)
        .with_digits(DIGITS)
        .with_skew(SKEW)
        .with_step_duration(STEP_SECONDS)
        .with_secret(bytes.as_bytes().to_vec())
        .with_issuer(Some(ISSUER))
        .with_account_name(email.replace(':', ""))
        .build()
        .map_err(|e| Error::internal(format!("cannot make an authenticator generator: {e}")))
}

fn seconds(now: Timestamp) -> u64 {
    u64::try_from(now.as_second()).unwrap_or(0)
}

/// Whether the person has an app that counts (confirmed).
///
/// Fails only on a storage error.
pub fn confirmed(conn: &Connection, user_id: &str) -> Result<bool> {
    Ok(conn
        .prepare_cached(
            "SELECT 1 FROM totp_factors WHERE user_id = ?1 AND confirmed_at IS NOT NULL",
        )?
        .query_row([user_id], |_| Ok(()))
        .optional()?
        .is_some())
}

/// Whether the person has an app being set up, not yet confirmed.
///
/// Fails only on a storage error.
pub fn pending(conn: &Connection, user_id: &str) -> Result<bool> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM totp_factors WHERE user_id = ?1 AND confirmed_at IS NULL")?
        .query_row([user_id], |_| Ok(()))
        .optional()?
        .is_some())
}

/// Begins setting up an app for a person: a new secret, sealed and kept
/// unconfirmed (one being set up before is replaced). The secret and its
/// address are returned to be shown this once.
///
/// Fails with `Refused` when the person has a confirmed app already (it is
/// removed first) or the key file cannot be used.
pub fn begin(tx: &Tx, key: &SealingKey, user_id: &str, email: &str) -> Result<Enrolment> {
    if confirmed(tx, user_id)? {
        return Err(Error::refused(Access::AppOnAlready));
    }
    let bytes = crate::store::ids::random_bytes(SECRET_BYTES);
    let secret = Secret::new(totp_rs::Secret::from(bytes).to_base32());
    let sealed = key.seal(&context(user_id), &secret)?;
    let uri = totp(secret.expose(), email)?
        .to_url()
        .map_err(|e| Error::internal(format!("cannot write the otpauth address: {e}")))?;
    tx.prepare_cached(
        "INSERT INTO totp_factors (user_id, secret, confirmed_at, last_step, created_at)
         VALUES (?1, ?2, NULL, NULL, ?3)
         ON CONFLICT (user_id) DO UPDATE SET secret = ?2, confirmed_at = NULL, last_step = NULL, created_at = ?3",
    )?
    .execute(params![user_id, sealed, format_instant(Timestamp::now())])?;
    Ok(Enrolment {
        secret,
        uri: Secret::new(uri),
    })
}

/// The step a code names, when it is the person's and newer than the last
/// taken (`only_pending` reads an app being set up, else a confirmed one).
fn matching_step(
    tx: &Tx,
    key: &SealingKey,
    user_id: &str,
    code: &str,
    now: Timestamp,
    only_pending: bool,
) -> Result<Option<u64>> {
    let row: Option<(String, Option<i64>)> = tx
        .prepare_cached(
            "SELECT secret, last_step FROM totp_factors
             WHERE user_id = ?1 AND (confirmed_at IS NULL) = ?2",
        )?
        .query_row(params![user_id, only_pending], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .optional()?;
    let Some((sealed, last_step)) = row else {
        return Ok(None);
    };
    let code: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    if code.len() != usize::from(DIGITS) || !code.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(None);
    }
    let secret = key.open(&context(user_id), &sealed)?;
    let generator = totp(secret.expose(), "")?;
    let Some(step) = generator.check(&code, seconds(now)) else {
        return Ok(None);
    };
    let taken = last_step.and_then(|s| u64::try_from(s).ok());
    if taken.is_some_and(|last| step <= last) {
        return Ok(None);
    }
    Ok(Some(step))
}

fn take_step(tx: &Tx, user_id: &str, step: u64) -> Result<()> {
    tx.prepare_cached("UPDATE totp_factors SET last_step = ?2 WHERE user_id = ?1")?
        .execute(params![user_id, i64::try_from(step).unwrap_or(i64::MAX)])?;
    Ok(())
}

/// Confirms the app being set up with its first code: it counts from now
/// on, the code is taken, and ten new recovery codes (replacing any
/// earlier ones) are returned to be shown this once. Recorded as
/// `user.two_factor_app_on` by the person in the live books of every
/// company they belong to.
///
/// Fails with `Invalid` naming `code` when the code is not the app's
/// current one, and `Refused` when nothing is being set up or the key file
/// cannot be used.
pub fn confirm(
    tx: &Tx,
    key: &SealingKey,
    actor: &Actor,
    user_id: &str,
    code: &str,
    now: Timestamp,
) -> Result<Vec<Secret>> {
    if !pending(tx, user_id)? {
        return Err(Error::refused(Access::NoAppSetUp));
    }
    let Some(step) = matching_step(tx, key, user_id, code, now, true)? else {
        return Err(Error::invalid("code", Access::WrongCode));
    };
    take_step(tx, user_id, step)?;
    tx.prepare_cached("UPDATE totp_factors SET confirmed_at = ?2 WHERE user_id = ?1")?
        .execute(params![user_id, format_instant(now)])?;
    let codes = recovery::make(tx, user_id, now)?;
    record_everywhere(tx, actor, Act::UserTwoFactorAppOn, user_id)?;
    Ok(codes)
}

/// Takes a sign-in's code: true when it is the confirmed app's code of a
/// step within one of now and newer than the last one taken (which it
/// becomes); false for any other code, a replay included.
///
/// Fails only when the key file cannot be used or on a storage error.
pub fn accept(
    tx: &Tx,
    key: &SealingKey,
    user_id: &str,
    code: &str,
    now: Timestamp,
) -> Result<bool> {
    match matching_step(tx, key, user_id, code, now, false)? {
        Some(step) => {
            take_step(tx, user_id, step)?;
            Ok(true)
        }
        None => Ok(false),
    }
}

/// Removes the person's app (set up or being set up). Recorded as
/// `user.two_factor_app_off` in every company they belong to, when there
/// was a confirmed one.
///
/// Fails only on a storage error.
pub fn remove(tx: &Tx, actor: &Actor, user_id: &str) -> Result<()> {
    let was_on = confirmed(tx, user_id)?;
    tx.prepare_cached("DELETE FROM totp_factors WHERE user_id = ?1")?
        .execute([user_id])?;
    if was_on {
        record_everywhere(tx, actor, Act::UserTwoFactorAppOff, user_id)?;
    }
    Ok(())
}

/// Records an act on a person's own factors in the live books of every
/// company they belong to.
pub(super) fn record_everywhere(tx: &Tx, actor: &Actor, act: Act, user_id: &str) -> Result<()> {
    for company_id in crate::access::people::company_ids(tx, user_id)? {
        let books = Tenant::new(company_id, Environment::Production);
        audit::record(tx, &books, actor, act, user_id)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_gives_the_codes_of_rfc_6238() {
        // RFC 6238, appendix B: the SHA-1 seed "12345678901234567890" at
        // 59 s gives 94287082 in 8 digits; its last 6 are the 6-digit code.
        let seed = totp_rs::Secret::from(b"12345678901234567890".to_vec()).to_base32();
        let generator = totp(&seed, "ann@example.com").unwrap();
        assert_eq!(generator.generate(59).to_string(), "287082");
        assert_eq!(generator.generate(1_111_111_109).to_string(), "081804");
        assert_eq!(generator.check("287082", 59 + 30), Some(1));
        assert_eq!(generator.check("287082", 59 + 90), None);
        let url = generator.to_url().unwrap();
        assert!(
            url.starts_with("otpauth://totp/kontor:ann%40example.com?secret=")
                || url.starts_with("otpauth://totp/kontor:ann@example.com?secret="),
            "{url}"
        );
        assert!(url.contains("issuer=kontor"), "{url}");
    }
}
