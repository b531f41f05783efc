//! Passwords of the people who use the screens: Argon2id hashes in PHC
//! form (the parameters travel with each hash), a check that costs the same
//! work whether the account exists or not, and a cap on how many hashes run
//! at once, so a flood of logins queues instead of taking every core and all
//! memory (each hash holds 19 MiB).

use std::sync::{Condvar, Mutex, OnceLock};

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

use crate::error::said::Access;
use crate::error::{Error, Result};

/// The shortest password accepted.
pub const MIN_LENGTH: usize = 10;
/// The longest (in bytes): more adds nothing and only costs hashing.
pub const MAX_LENGTH: usize = 1024;

/// Argon2id with OWASP's first recommended setting: 19 MiB, 2 passes, 1 lane.
fn hasher() -> Argon2<'static> {
    let params = Params::new(19 * 1024, 2, 1, None).unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// A counting gate: at most `permits` hashes at once in this process.
struct Gate {
    busy: Mutex<usize>,
    freed: Condvar,
    permits: usize,
}

fn gate() -> &'static Gate {
    static GATE: OnceLock<Gate> = OnceLock::new();
    GATE.get_or_init(|| Gate {
        busy: Mutex::new(0),
        freed: Condvar::new(),
        permits: std::thread::available_parallelism().map_or(2, |n| n.get()),
    })
}

/// Runs `work` once fewer than the cap of hashes are running.
fn capped<T>(work: impl FnOnce() -> T) -> T {
    let gate = gate();
    {
        let mut busy = gate.busy.lock().unwrap_or_else(|e| e.into_inner());
        while *busy >= gate.permits {
            busy = gate.freed.wait(busy).unwrap_or_else(|e| e.into_inner());
        }
        *busy += 1;
    }
    struct Release<'a>(&'a Gate);
    impl Drop for Release<'_> {
        fn drop(&mut self) {
            let mut busy = self.0.busy.lock().unwrap_or_else(|e| e.into_inner());
            *busy -= 1;
            self.0.freed.notify_one();
        }
    }
    let _release = Release(gate);
    work()
}

/// Checks a new password's length: at least 10 characters, at most 1,024 bytes.
///
/// Fails with `Invalid` naming the field `password`.
pub fn check_new(password: &str) -> Result<()> {
    if password.chars().count() < MIN_LENGTH {
        return Err(Error::invalid(
            "password",
            Access::PasswordShort { min: MIN_LENGTH },
        ));
    }
    if password.len() > MAX_LENGTH {
        return Err(Error::invalid(
            "password",
            Access::PasswordLong { max: MAX_LENGTH },
        ));
    }
    Ok(())
}

/// The Argon2id PHC string of a password, with a fresh random salt.
///
/// Fails only when hashing fails (an internal error).
pub fn hash(password: &str) -> Result<String> {
    let salt_bytes = crate::store::ids::random_bytes(16);
    let salt = SaltString::encode_b64(&salt_bytes).map_err(Error::internal)?;
    capped(|| {
        hasher()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| Error::internal(format!("cannot hash a password: {e}")))
    })
}

/// A hash of no one's password, verified against when the account is
/// unknown or disabled, so such a login costs the same work as a real one.
fn decoy() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| {
        // A random password under a random salt: nobody can match it.
        let password = crate::store::ids::random_bytes(32);
        SaltString::encode_b64(&crate::store::ids::random_bytes(16))
            .ok()
            .and_then(|salt| {
                hasher()
                    .hash_password(&password, &salt)
                    .ok()
                    .map(|h| h.to_string())
            })
            .unwrap_or_default()
    })
}

/// Whether `password` matches `stored` (a PHC string); with `None` (no such
/// account) the same work is done against a decoy and the answer is false.
/// An unreadable stored hash is no match.
pub fn verify(password: &str, stored: Option<&str>) -> bool {
    if password.len() > MAX_LENGTH {
        // Still the same work, on a bounded input.
        let _ = verify_against(&password[..0], decoy());
        return false;
    }
    match stored {
        Some(stored) => verify_against(password, stored),
        None => {
            let _ = verify_against(password, decoy());
            false
        }
    }
}

fn verify_against(password: &str, stored: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(stored) else {
        return false;
    };
    capped(|| {
        hasher()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_matches_its_own_hash_only() {
        let h = hash("correct horse battery").unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(verify("correct horse battery", Some(&h)));
        assert!(!verify("correct horse batterY", Some(&h)));
        assert!(!verify("correct horse battery", None));
        assert!(!verify("anything", Some("not a hash")));
        assert_ne!(hash("correct horse battery").unwrap(), h, "salted");
        // An unknown account is checked against a hash of the same cost.
        assert!(
            decoy().starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{}",
            decoy()
        );
    }

    #[test]
    fn new_passwords_have_a_length() {
        assert_eq!(
            check_new("short").unwrap_err().sentence(),
            "The field password is shorter than 10 characters."
        );
        assert!(check_new("ten chars!").is_ok());
        assert!(check_new(&"x".repeat(1025)).is_err());
    }
}
