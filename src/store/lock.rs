//! One server per data file: an OS advisory lock (`flock` on Unix) on
//! `DATA.lock`, the data path with `.lock` appended. The file (mode 0600)
//! names the holder: its pid, when it started and what it is doing. The
//! operating system releases the lock when the holder exits, however it exits;
//! the file itself stays behind (deleting it would let two processes lock two
//! different files of one name), and what it says counts only while it is
//! locked.
//!
//! `kontor serve` and `kontor demo` hold the lock while they serve; a console
//! process takes it only to bring an older data file up to the current schema.
//! Within one process the lock is shared: taking it again (the demo before it
//! serves, a server's own migration) hands out another handle to the lock
//! already held, and it is released with the last handle. The refusals name
//! the holder; they are worded here, once for each kind of taker.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::store::clock;

/// Why a process holds the lock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Purpose {
    /// A server (`kontor serve`, `kontor demo`) serves the file.
    Serving,
    /// A console process brings the file up to the current schema.
    Migrating,
    /// `kontor restore` puts a copy in the file's place.
    Restoring,
}

/// Who holds the lock, as the lock file tells it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Holder {
    pub pid: u32,
    /// The instant the holder took the lock, in stored form.
    pub started: String,
    pub purpose: Purpose,
}

impl std::fmt::Display for Holder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "pid {}, started {}", self.pid, self.started)
    }
}

/// Why the lock could not be taken.
#[derive(Debug)]
pub enum LockError {
    /// Another process holds it; `None` when its lock file cannot be read.
    Held(Option<Holder>),
    /// The lock file cannot be created, opened or locked.
    Io(PathBuf, std::io::Error),
}

impl LockError {
    /// The refusal: `held` words the sentence when another process holds the
    /// lock, given its description ("pid 42, started …") and whether it is
    /// migrating the file.
    fn into_error(self, held: impl FnOnce(&str, bool) -> String) -> Error {
        match self {
            LockError::Held(holder) => {
                let who = holder
                    .as_ref()
                    .map_or_else(|| "pid unknown".to_string(), Holder::to_string);
                let migrating = holder.is_some_and(|h| h.purpose == Purpose::Migrating);
                Error::refused(held(&who, migrating))
            }
            LockError::Io(path, e) => {
                Error::refused(format!("Cannot lock {}: {e}.", path.display()))
            }
        }
    }
}

/// The lock file of the data file at `data`: its path with `.lock` appended.
pub fn lock_path(data: &Path) -> PathBuf {
    beside(data, ".lock")
}

/// A file beside the data file at `data`: its path with `suffix` appended
/// (`kontor.db` → `kontor.db.key`, `.lock`, `-wal`).
pub fn beside(data: &Path, suffix: &str) -> PathBuf {
    let mut name = data.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

struct Held {
    key: PathBuf,
    _file: File,
}

/// The locks this process holds, by the lock file's canonical path.
static HELD: Mutex<Vec<Weak<Held>>> = Mutex::new(Vec::new());

/// A held lock; the last handle of a process releases it.
#[derive(Clone)]
pub struct ServerLock {
    held: Arc<Held>,
}

impl std::fmt::Debug for ServerLock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ServerLock({})", self.held.key.display())
    }
}

impl ServerLock {
    /// Takes the lock of the data file at `data` for `purpose`, or shares the
    /// one this process already holds. Never waits.
    ///
    /// Fails with `Held` when another process holds it, and with `Io` when the
    /// lock file cannot be created or locked.
    pub fn acquire(data: &Path, purpose: Purpose) -> Result<ServerLock, LockError> {
        let path = lock_path(data);
        let io = |e| LockError::Io(path.clone(), e);
        let mut file = open(&path).map_err(io)?;
        let key = path.canonicalize().map_err(io)?;
        let mut held = HELD.lock().unwrap_or_else(|p| p.into_inner());
        held.retain(|w| w.strong_count() > 0);
        if let Some(mine) = held.iter().filter_map(Weak::upgrade).find(|h| h.key == key) {
            return Ok(ServerLock { held: mine });
        }
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                drop(held);
                return Err(LockError::Held(read_holder(&mut file)));
            }
            Err(TryLockError::Error(e)) => return Err(io(e)),
        }
        let holder = Holder {
            pid: std::process::id(),
            started: clock::now(),
            purpose,
        };
        let text = serde_json::to_string(&holder).unwrap_or_default();
        file.set_len(0)
            .and_then(|()| file.seek(SeekFrom::Start(0)))
            .and_then(|_| file.write_all(text.as_bytes()))
            .map_err(io)?;
        let lock = Arc::new(Held { key, _file: file });
        held.push(Arc::downgrade(&lock));
        Ok(ServerLock { held: lock })
    }
}

impl ServerLock {
    /// The lock for `purpose`; when another process holds it, a refusal in
    /// the words `held` gives (who holds it, whether it is migrating the
    /// file, the file).
    fn take(
        data: &Path,
        purpose: Purpose,
        held: impl FnOnce(&str, bool, &str) -> String,
    ) -> Result<ServerLock> {
        ServerLock::acquire(data, purpose).map_err(|e| {
            e.into_error(|who, migrating| held(who, migrating, &data.display().to_string()))
        })
    }

    /// The lock of a server about to serve the data file at `data`.
    ///
    /// Fails naming the holder when another process holds it.
    pub fn serve(data: &Path) -> Result<ServerLock> {
        ServerLock::take(data, Purpose::Serving, |who, migrating, file| {
            if migrating {
                format!("A kontor process ({who}) is bringing {file} to the current schema; start the server when it is done.")
            } else {
                format!("Another kontor server ({who}) serves {file}; stop it first, or name another data file.")
            }
        })
    }

    /// The lock of the demo, taken before it replaces its data file.
    ///
    /// Fails naming the holder when another process holds it.
    pub fn replace_demo(data: &Path) -> Result<ServerLock> {
        ServerLock::take(data, Purpose::Serving, |who, _, file| {
            format!("A kontor process ({who}) uses {file}, so the demo does not replace it; stop that process first, or name another data file with --data.")
        })
    }

    /// The lock of `kontor restore`, taken before it replaces the data file
    /// at `data`.
    ///
    /// Fails naming the holder when another process (a server) holds it.
    pub fn restore(data: &Path) -> Result<ServerLock> {
        ServerLock::take(data, Purpose::Restoring, |who, _, file| {
            format!("A kontor process ({who}) uses {file}, so nothing was restored; stop it first, then restore.")
        })
    }

    /// The lock for bringing the data file at `data` from schema version
    /// `from` to `to`.
    ///
    /// Fails naming the holder when another process (a server) holds it.
    pub fn migrate(data: &Path, from: i64, to: i64) -> Result<ServerLock> {
        ServerLock::take(data, Purpose::Migrating, |who, migrating, file| {
            if migrating {
                format!("The data file {file} has schema version {from} and needs version {to}, and another kontor process ({who}) is bringing it up now; run the command again when it is done.")
            } else {
                format!("The data file {file} has schema version {from} and needs version {to}, but a kontor server ({who}) serves this file; stop it, then run the command again.")
            }
        })
    }
}

/// Opens (or creates) the lock file, never truncating it: the holder's
/// description is in it. Only its owner may read it, on unix.
fn open(path: &Path) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

/// Reads the holder's description; the holder writes it just after taking
/// the lock, so an empty or partial file is read again for up to a second.
fn read_holder(file: &mut File) -> Option<Holder> {
    let deadline = Instant::now() + Duration::from_secs(1);
    loop {
        let mut text = String::new();
        let read = file
            .seek(SeekFrom::Start(0))
            .and_then(|_| file.read_to_string(&mut text));
        if let Some(holder) = read
            .ok()
            .and_then(|_| serde_json::from_str::<Holder>(&text).ok())
        {
            return Some(holder);
        }
        if Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_process_shares_its_lock_and_releases_it_with_the_last_handle() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("k.db");
        let first = ServerLock::acquire(&data, Purpose::Serving).unwrap();
        // Another spelling of the same file shares the lock too.
        let spelled = dir.path().join(".").join("k.db");
        let second = ServerLock::acquire(&spelled, Purpose::Migrating).unwrap();
        assert!(Arc::ptr_eq(&first.held, &second.held));
        let text = std::fs::read_to_string(lock_path(&data)).unwrap();
        let holder: Holder = serde_json::from_str(&text).unwrap();
        assert_eq!(
            (holder.pid, holder.purpose),
            (std::process::id(), Purpose::Serving)
        );
        // While held, another open file description cannot lock it.
        let other = open(&lock_path(&data)).unwrap();
        assert!(matches!(other.try_lock(), Err(TryLockError::WouldBlock)));
        drop(first);
        assert!(matches!(other.try_lock(), Err(TryLockError::WouldBlock)));
        drop(second);
        other.try_lock().unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn the_lock_file_is_made_for_its_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("k.db");
        let _lock = ServerLock::acquire(&data, Purpose::Serving).unwrap();
        let mode = std::fs::metadata(lock_path(&data))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}
