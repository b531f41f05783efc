//! Copies of the data file a server makes on a schedule, and the check a
//! copy passes before it is put back.
//!
//! `serve --backup-to DIR --backup-every 1h --backup-keep 48`: when the
//! server starts and then every interval, a consistent copy as `kontor
//! backup` makes (`Db::backup_to`, SQLite's `VACUUM INTO`, which reads one
//! snapshot while writes go on) is written under a hidden temporary name,
//! synced and renamed to `kontor-YYYYMMDDTHHMMSS.mmmZ.db`, so a copy with
//! that name is always whole; then the oldest such files beyond the number
//! kept are removed (no other file of the folder is touched). A copy that
//! fails (the disk is full) is logged, its partial file removed, and the
//! next interval tries again.
//!
//! `kontor restore --from FILE --data PATH` (`restore`): the copy must be a
//! kontor data file SQLite finds intact (`PRAGMA integrity_check`) of a
//! schema version this kontor knows, and no server may hold `PATH`; only
//! then is the file at `PATH` (with its `-wal` and `-shm`) moved aside to
//! `PATH.before-restore-…` and the copy put in its place by a rename. The
//! key file (`PATH.key`) is not part of a copy and is left where it is.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::store::clock;
use crate::store::db::{Db, SCHEMA_VERSION};
use crate::store::lock::{beside, ServerLock};

/// Where and how often a server copies its data file, and how many copies it keeps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    pub dir: PathBuf,
    pub every: Duration,
    pub keep: usize,
}

const PREFIX: &str = "kontor-";
const SUFFIX: &str = ".db";

/// Reads an interval: a number with `s`, `m`, `h` or `d` (`90s`, `30m`,
/// `1h`, `2d`).
///
/// Fails with `Invalid` naming `backupEvery` for anything else or zero.
pub fn interval(text: &str) -> Result<Duration> {
    let t = text.trim();
    let (number, unit) = t.split_at(t.len().saturating_sub(1));
    let seconds = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3_600,
        "d" => 86_400,
        _ => 0,
    };
    match number.parse::<u64>() {
        Ok(n) if n > 0 && seconds > 0 => Ok(Duration::from_secs(n * seconds)),
        _ => Err(Error::invalid(
            "backupEvery",
            format!("is a number with s, m, h or d (30m, 1h, 1d), not {text:?}"),
        )),
    }
}

/// The copies of `dir` this schedule made, oldest first.
pub fn copies(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(PREFIX) && n.ends_with(SUFFIX))
        })
        .collect();
    found.sort();
    Ok(found)
}

/// Writes one copy of `db` into `dir` and removes the oldest beyond
/// `keep`; returns the copy's path.
///
/// Fails when the copy cannot be written (its partial file removed).
pub fn take(db: &Db, dir: &Path, keep: usize) -> Result<PathBuf> {
    let stamp = clock::now().replace(['-', ':'], "");
    let name = format!("{PREFIX}{stamp}{SUFFIX}");
    let partial = dir.join(format!(".{name}.partial"));
    let done = dir.join(&name);
    let _ = std::fs::remove_file(&partial);
    let written = db.backup_to(&partial).and_then(|_| {
        let cannot = |e: std::io::Error| {
            Error::internal(format!("cannot finish the copy {}: {e}", done.display()))
        };
        std::fs::File::open(&partial)
            .and_then(|f| f.sync_all())
            .map_err(cannot)?;
        std::fs::rename(&partial, &done).map_err(cannot)?;
        // The rename is durable once the folder is synced.
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    });
    if let Err(e) = written {
        let _ = std::fs::remove_file(&partial);
        return Err(e);
    }
    if let Ok(all) = copies(dir) {
        let surplus = all.len().saturating_sub(keep.max(1));
        for old in &all[..surplus] {
            if let Err(e) = std::fs::remove_file(old) {
                tracing::warn!("cannot remove the old copy {}: {e}", old.display());
            }
        }
    }
    Ok(done)
}

/// The thread that makes the scheduled copies until stopped.
pub struct Backups {
    stop: Arc<(Mutex<bool>, Condvar)>,
    thread: Option<JoinHandle<()>>,
}

impl Backups {
    /// Starts copying `db` by `schedule`: one copy now, then one each interval.
    ///
    /// Fails when the folder cannot be created or the thread cannot start.
    pub fn start(db: Arc<Db>, schedule: Schedule) -> Result<Backups> {
        std::fs::create_dir_all(&schedule.dir).map_err(|e| {
            Error::refused(format!(
                "The backup folder {} cannot be created: {e}.",
                schedule.dir.display()
            ))
        })?;
        let stop = Arc::new((Mutex::new(false), Condvar::new()));
        let signal = stop.clone();
        let thread = std::thread::Builder::new()
            .name("kontor-backups".into())
            .spawn(move || loop {
                match take(&db, &schedule.dir, schedule.keep) {
                    Ok(path) => tracing::info!(copy = %path.display(), "backup written"),
                    Err(e) => tracing::error!(
                        "the scheduled backup into {} failed: {}",
                        schedule.dir.display(),
                        e.sentence()
                    ),
                }
                let (lock, wake) = &*signal;
                let stopped = lock.lock().unwrap_or_else(|p| p.into_inner());
                let (stopped, _) = wake
                    .wait_timeout_while(stopped, schedule.every, |s| !*s)
                    .unwrap_or_else(|p| p.into_inner());
                if *stopped {
                    break;
                }
            })
            .map_err(Error::internal)?;
        Ok(Backups {
            stop,
            thread: Some(thread),
        })
    }

    /// Stops the thread (a copy being written is finished first).
    pub fn stop(&mut self) {
        let (lock, wake) = &*self.stop;
        *lock.lock().unwrap_or_else(|p| p.into_inner()) = true;
        wake.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Backups {
    fn drop(&mut self) {
        self.stop();
    }
}

/// What a restore did.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Restored {
    pub restored: String,
    pub from: String,
    pub schema_version: i64,
    pub integrity: String,
    /// Where the file that was at the data path went, if there was one.
    pub replaced: Option<String>,
}

/// Checks that `copy` is a whole kontor data file this kontor can open;
/// returns its schema version.
///
/// Fails with `Refused` saying what is wrong with it.
pub fn check_copy(copy: &Path) -> Result<i64> {
    let refuse = |why: String| {
        Error::refused(format!(
            "{} is {why}; nothing was replaced.",
            copy.display()
        ))
    };
    if !copy.is_file() {
        return Err(refuse("no file".into()));
    }
    let conn = Connection::open_with_flags(copy, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|e| refuse(format!("not readable as a data file ({e})")))?;
    let integrity: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .map_err(|e| refuse(format!("not a data file SQLite can read ({e})")))?;
    if integrity != "ok" {
        return Err(refuse(format!(
            "damaged (SQLite's integrity check says {integrity:?})"
        )));
    }
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(|e| refuse(e.to_string()))?;
    let kontor: i64 = conn
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'companies'",
            [],
            |r| r.get(0),
        )
        .map_err(|e| refuse(e.to_string()))?;
    if version == 0 || kontor == 0 {
        return Err(refuse("no kontor data file".into()));
    }
    if version > SCHEMA_VERSION {
        return Err(refuse(format!(
            "of schema version {version}, newer than this kontor knows ({SCHEMA_VERSION}); use a newer kontor"
        )));
    }
    Ok(version)
}

/// Puts the copy `from` in place of the data file `data`, once it passed
/// `check_copy` and no server holds `data`; the file it replaces is moved
/// aside, never deleted.
///
/// Fails with `Refused` when the copy fails the check or a server holds
/// the file, and when a file cannot be moved (nothing replaced then).
pub fn restore(from: &Path, data: &Path) -> Result<Restored> {
    let version = check_copy(from)?;
    let _lock = ServerLock::restore(data)?;
    let cannot = |what: &str, e: std::io::Error| {
        Error::refused(format!("Cannot {what}: {e}; the data file is as it was."))
    };
    let dir = data
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    // The copy is first copied beside the data file, so the last step is one rename.
    let incoming = beside(data, ".restoring");
    let _ = std::fs::remove_file(&incoming);
    std::fs::copy(from, &incoming)
        .map_err(|e| cannot("copy the backup beside the data file", e))?;
    std::fs::File::open(&incoming)
        .and_then(|f| f.sync_all())
        .map_err(|e| cannot("sync the copy", e))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&incoming, std::fs::Permissions::from_mode(0o600));
    }
    let replaced = if data.exists() {
        let aside = beside(
            data,
            &format!(".before-restore-{}", clock::now().replace(['-', ':'], "")),
        );
        std::fs::rename(data, &aside).map_err(|e| {
            let _ = std::fs::remove_file(&incoming);
            cannot("move the data file aside", e)
        })?;
        // Its journal goes with it: a WAL left beside the copy would be
        // replayed into it.
        for part in ["-wal", "-shm"] {
            let old = beside(data, part);
            if old.exists() {
                let _ = std::fs::rename(&old, beside(&aside, part));
            }
        }
        Some(aside.display().to_string())
    } else {
        None
    };
    if let Err(e) = std::fs::rename(&incoming, data) {
        // Put back what was moved aside, so the data file is as it was.
        if let Some(aside) = &replaced {
            let aside = PathBuf::from(aside);
            for part in ["-wal", "-shm"] {
                let _ = std::fs::rename(beside(&aside, part), beside(data, part));
            }
            let _ = std::fs::rename(&aside, data);
        }
        let _ = std::fs::remove_file(&incoming);
        return Err(cannot("put the copy in place", e));
    }
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(Restored {
        restored: data.display().to_string(),
        from: from.display().to_string(),
        schema_version: version,
        integrity: "ok".into(),
        replaced,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_read_with_their_unit() {
        assert_eq!(interval("90s").unwrap(), Duration::from_secs(90));
        assert_eq!(interval("1h").unwrap(), Duration::from_secs(3_600));
        assert_eq!(interval("2d").unwrap(), Duration::from_secs(172_800));
        for bad in ["", "0h", "h", "1", "1w", "-1h", "1.5h"] {
            assert!(interval(bad).is_err(), "{bad}");
        }
    }
}
