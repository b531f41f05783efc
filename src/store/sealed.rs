//! Secrets kontor must use again but nobody should read again (a company's
//! SMTP password): sealed with ChaCha20-Poly1305 under a key kept in a file
//! beside the data file (`kontor.db` → `kontor.db.key`, 32 random bytes,
//! mode 0600, made on first need), never inside it. The data file, a backup
//! of it or a copy of its rows holds only the sealed text; the key file is
//! backed up on its own (without it a restored file keeps everything but the
//! sealed secrets, which are entered again).
//!
//! A sealed text is `v1.` + base64 of nonce ‖ ciphertext ‖ tag; the
//! `context` (e.g. the company's id and the secret's purpose) is bound as
//! associated data, so a sealed value copied to another company's row does
//! not open. An opened secret is a `Secret`, whose `Debug` and `Display`
//! print dots: it cannot land in a log line or an answer by accident.

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

use base64::Engine;
use ring::aead::{Aad, LessSafeKey, Nonce, UnboundKey, CHACHA20_POLY1305, NONCE_LEN};

use crate::error::{Error, Result};

/// The prefix of a sealed text of this scheme.
const VERSION: &str = "v1.";
/// Key length of ChaCha20-Poly1305.
const KEY_LEN: usize = 32;

/// A secret in memory: shown nowhere, given out only by `expose`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(text: impl Into<String>) -> Secret {
        Secret(text.into())
    }

    /// The secret itself, for the one place that must send it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(••••••)")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("••••••")
    }
}

/// The key of one data file, or why it cannot be used (a server goes on
/// serving without it; only what needs a sealed secret is refused).
pub struct SealingKey {
    key: std::result::Result<LessSafeKey, String>,
    path: PathBuf,
}

impl fmt::Debug for SealingKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SealingKey({})", self.path.display())
    }
}

/// The key file of the data file at `data`: the same path with `.key` added.
pub fn key_path(data: &Path) -> PathBuf {
    crate::store::lock::beside(data, ".key")
}

impl SealingKey {
    /// The key beside the data file at `data`, made (32 random bytes, mode
    /// 0600, written before it is used) when there is none yet.
    ///
    /// Fails when the key file cannot be read or written, or does not hold
    /// exactly 32 bytes.
    pub fn beside(data: &Path) -> Result<SealingKey> {
        let path = key_path(data);
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => make_key_file(&path)?,
            Err(e) => {
                return Err(Error::internal(format!(
                    "cannot read the key file {}: {e}",
                    path.display()
                )))
            }
        };
        SealingKey::from_bytes(&bytes, path)
    }

    /// The key beside the data file at `data` as `beside` reads or makes
    /// it, or, when it cannot be read, a key that refuses every seal and
    /// open with a sentence naming the file and the reason, so a server
    /// serves everything else.
    pub fn beside_or_unusable(data: &Path) -> SealingKey {
        SealingKey::beside(data).unwrap_or_else(|e| {
            let path = key_path(data);
            let why = match e {
                Error::Internal(detail) => detail,
                other => other.sentence(),
            };
            tracing::error!("{why}: mail settings with a password cannot be saved or used until the key file is restored");
            SealingKey {
                key: Err(format!(
                    "The key file {} cannot be used ({why}), so mail with a password can be neither set up nor sent; whoever runs kontor must restore it.",
                    path.display()
                )),
                path,
            }
        })
    }

    fn from_bytes(bytes: &[u8], path: PathBuf) -> Result<SealingKey> {
        if bytes.len() != KEY_LEN {
            return Err(Error::internal(format!(
                "the key file {} does not hold a key of {KEY_LEN} bytes",
                path.display()
            )));
        }
        let unbound = UnboundKey::new(&CHACHA20_POLY1305, bytes)
            .map_err(|_| Error::internal("the sealing key is unusable"))?;
        Ok(SealingKey {
            key: Ok(LessSafeKey::new(unbound)),
            path,
        })
    }

    /// A key held in memory only, for tests.
    pub fn ephemeral() -> SealingKey {
        let bytes = crate::store::ids::random_bytes(KEY_LEN);
        SealingKey::from_bytes(&bytes, PathBuf::from("(in memory)"))
            .expect("32 random bytes are a key")
    }

    /// The key file's path, for sentences that name it.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn usable(&self) -> Result<&LessSafeKey> {
        self.key.as_ref().map_err(|why| Error::refused(why.clone()))
    }

    /// Seals `secret`, bound to `context`.
    ///
    /// Fails with `Refused` when the key file could not be used.
    pub fn seal(&self, context: &str, secret: &Secret) -> Result<String> {
        let key = self.usable()?;
        let nonce_bytes: [u8; NONCE_LEN] = crate::store::ids::random_bytes(NONCE_LEN)
            .try_into()
            .expect("twelve random bytes");
        let mut data = secret.expose().as_bytes().to_vec();
        key.seal_in_place_append_tag(
            Nonce::assume_unique_for_key(nonce_bytes),
            Aad::from(context.as_bytes()),
            &mut data,
        )
        .expect("ChaCha20-Poly1305 seals any length kontor stores");
        let mut out = nonce_bytes.to_vec();
        out.extend_from_slice(&data);
        Ok(format!(
            "{VERSION}{}",
            base64::engine::general_purpose::STANDARD_NO_PAD.encode(out)
        ))
    }

    /// Opens a text `seal` made under this key with the same `context`.
    ///
    /// Fails with `Refused` (a sentence naming the key file, never the
    /// secret) when the text is not a sealed text, was sealed under another
    /// key or context, or was changed, and when the key file could not be used.
    pub fn open(&self, context: &str, sealed: &str) -> Result<Secret> {
        let key = self.usable()?;
        let cannot = || {
            Error::refused(format!(
                "The stored secret cannot be opened with the key file {}; enter it again.",
                self.path.display()
            ))
        };
        let body = sealed.strip_prefix(VERSION).ok_or_else(cannot)?;
        let bytes = base64::engine::general_purpose::STANDARD_NO_PAD
            .decode(body)
            .map_err(|_| cannot())?;
        if bytes.len() < NONCE_LEN {
            return Err(cannot());
        }
        let (nonce, rest) = bytes.split_at(NONCE_LEN);
        let nonce = Nonce::try_assume_unique_for_key(nonce).map_err(|_| cannot())?;
        let mut data = rest.to_vec();
        let plain = key
            .open_in_place(nonce, Aad::from(context.as_bytes()), &mut data)
            .map_err(|_| cannot())?;
        let text = String::from_utf8(plain.to_vec()).map_err(|_| cannot())?;
        Ok(Secret(text))
    }
}

/// Writes a new key file readable by its owner only; if another process
/// made one first, that one is read instead.
fn make_key_file(path: &Path) -> Result<Vec<u8>> {
    let cannot = |e: &dyn fmt::Display| {
        Error::internal(format!("cannot write the key file {}: {e}", path.display()))
    };
    let bytes = crate::store::ids::random_bytes(KEY_LEN);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(mut file) => {
            file.write_all(&bytes).map_err(|e| cannot(&e))?;
            file.sync_all().map_err(|e| cannot(&e))?;
            Ok(bytes)
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            std::fs::read(path).map_err(|e| cannot(&e))
        }
        Err(e) => Err(cannot(&e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_secret_opens_under_its_key_and_context_only() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("kontor.db");
        let key = SealingKey::beside(&data).unwrap();
        assert_eq!(key.path(), dir.path().join("kontor.db.key"));
        let secret = Secret::new("hunter2-Ä");
        let sealed = key.seal("org_1/smtp", &secret).unwrap();
        assert!(sealed.starts_with("v1."));
        assert!(!sealed.contains("hunter2"));
        assert_ne!(
            sealed,
            key.seal("org_1/smtp", &secret).unwrap(),
            "a fresh nonce each time"
        );
        assert_eq!(key.open("org_1/smtp", &sealed).unwrap(), secret);
        // The same key file is read again.
        let again = SealingKey::beside(&data).unwrap();
        assert_eq!(again.open("org_1/smtp", &sealed).unwrap(), secret);
        // Another context, another key, a changed text: refused, and the
        // sentence names the key file, not the secret.
        let other = key.open("org_2/smtp", &sealed).unwrap_err().to_string();
        assert!(
            other.contains("kontor.db.key") && !other.contains("hunter2"),
            "{other}"
        );
        assert!(SealingKey::ephemeral().open("org_1/smtp", &sealed).is_err());
        let mut changed = sealed.clone();
        changed.pop();
        changed.push(if sealed.ends_with('A') { 'B' } else { 'A' });
        assert!(key.open("org_1/smtp", &changed).is_err());
        assert!(key.open("org_1/smtp", "hunter2").is_err());
    }

    #[cfg(unix)]
    #[test]
    fn the_key_file_is_private_and_a_wrong_one_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("k.db");
        SealingKey::beside(&data).unwrap();
        let mode = std::fs::metadata(key_path(&data))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        std::fs::write(key_path(&data), b"short").unwrap();
        assert!(SealingKey::beside(&data).is_err());
        // A server goes on without it; sealing and opening say why not.
        let unusable = SealingKey::beside_or_unusable(&data);
        let refused = unusable
            .seal("org_1/smtp", &Secret::new("x"))
            .unwrap_err()
            .sentence();
        assert!(
            refused.contains("k.db.key") && refused.contains("32 bytes"),
            "{refused}"
        );
        assert!(unusable.open("org_1/smtp", "v1.AAAA").is_err());
    }

    #[test]
    fn a_secret_prints_as_dots() {
        let s = Secret::new("hunter2");
        assert_eq!(format!("{s} {s:?}"), "•••••• Secret(••••••)");
        assert_eq!(s.expose(), "hunter2");
    }
}
