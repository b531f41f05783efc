//! Recovery codes: ten per person, each good for one sign-in in place of a
//! second factor, made when the first factor is set up (and anew on
//! request, the old ones then void) and shown once. A code is 16 characters
//! of the base32 alphabet (80 random bits), written in four groups
//! (`ABCD-EFGH-JKLM-NPQR`); only its SHA-256 is kept. A plain hash suffices
//! where a password needs Argon2: a password is chosen by a person and
//! guessable, so its hash must be slow; a recovery code is random, and no
//! speed of hashing makes 2^80 guesses feasible. A plain hash also lets a
//! sign-in find the code by its hash at once, without trying ten slow hashes.

use jiff::Timestamp;
use rusqlite::{params, Connection, OptionalExtension};

use crate::access::sessions::hash_of;
use crate::error::Result;
use crate::store::clock::format_instant;
use crate::store::db::Tx;
use crate::store::sealed::Secret;

/// Codes made at once.
pub const COUNT: usize = 10;
/// The alphabet of a code: RFC 4648 base32 (no 0, 1, 8 or 9 to confuse).
const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/// One new code, 16 characters in groups of four.
fn new_code() -> String {
    let bytes = crate::store::ids::random_bytes(16);
    let chars: Vec<char> = bytes
        .iter()
        .map(|b| char::from(ALPHABET[usize::from(b & 31)]))
        .collect();
    chars
        .chunks(4)
        .map(|g| g.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("-")
}

/// A code as typed, in the one form that is hashed: upper case, without
/// spaces or dashes.
fn normal(code: &str) -> String {
    code.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

/// Makes ten new codes for a person, voiding every earlier one; returns
/// them to be shown this once.
///
/// Fails only on a storage error.
pub fn make(tx: &Tx, user_id: &str, now: Timestamp) -> Result<Vec<Secret>> {
    tx.prepare_cached("DELETE FROM recovery_codes WHERE user_id = ?1")?
        .execute([user_id])?;
    let at = format_instant(now);
    let mut codes = Vec::with_capacity(COUNT);
    for _ in 0..COUNT {
        let code = new_code();
        tx.prepare_cached(
            "INSERT INTO recovery_codes (user_id, code_hash, used_at, created_at) VALUES (?1, ?2, NULL, ?3)",
        )?
        .execute(params![user_id, hash_of(&normal(&code)), at])?;
        codes.push(Secret::new(code));
    }
    Ok(codes)
}

/// Takes a code for a sign-in: true when it is an unused code of the
/// person (it is used from now on), false otherwise.
///
/// Fails only on a storage error.
pub fn take(tx: &Tx, user_id: &str, code: &str, now: Timestamp) -> Result<bool> {
    let normal = normal(code);
    if normal.len() != 16 {
        return Ok(false);
    }
    let seq: Option<i64> = tx
        .prepare_cached(
            "SELECT seq FROM recovery_codes WHERE user_id = ?1 AND code_hash = ?2 AND used_at IS NULL",
        )?
        .query_row(params![user_id, hash_of(&normal)], |r| r.get(0))
        .optional()?;
    let Some(seq) = seq else {
        return Ok(false);
    };
    tx.prepare_cached("UPDATE recovery_codes SET used_at = ?2 WHERE seq = ?1")?
        .execute(params![seq, format_instant(now)])?;
    Ok(true)
}

/// How many unused codes a person has.
///
/// Fails only on a storage error.
pub fn left(conn: &Connection, user_id: &str) -> Result<i64> {
    Ok(conn
        .prepare_cached(
            "SELECT count(*) FROM recovery_codes WHERE user_id = ?1 AND used_at IS NULL",
        )?
        .query_row([user_id], |r| r.get(0))?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_sixteen_base32_characters_in_four_groups() {
        let code = new_code();
        assert_eq!(code.len(), 19, "{code}");
        assert_eq!(code.matches('-').count(), 3, "{code}");
        assert_eq!(normal(&code).len(), 16);
        assert_eq!(normal(" abcd-efgh ijkl-mnop "), "ABCDEFGHIJKLMNOP");
        assert_ne!(new_code(), code);
    }
}
