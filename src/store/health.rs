//! Whether the data file can take a server's work now, for its readiness
//! (`GET /readyz`): the path still names the file the server opened (not
//! removed or replaced underneath it, when every write would go to a file
//! nobody reads again), its file system is writable and has room, the
//! schema is the one this binary knows, and a write commits. Each check
//! answers with a sentence saying what is wrong, or nothing. Knows no table:
//! the write probe writes `PRAGMA user_version` back as it reads it, inside
//! the writer's transaction, which holds the write lock (so nobody changes
//! it between the two) and commits a real frame to the WAL.

use std::path::{Path, PathBuf};

use rusqlite::Connection;

use crate::error::Result;
use crate::store::db::{Db, SCHEMA_VERSION};

/// Less free space than this on the data file's file system is "full":
/// a write may need room for the WAL to grow by several pages.
pub const MIN_FREE_BYTES: u64 = 1 << 20;

/// The data file a server opened, known by its path and identity.
pub struct FileProbe {
    path: PathBuf,
    /// The device and inode the path named when the server opened it.
    identity: Option<(u64, u64)>,
}

#[cfg(unix)]
fn identity(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn identity(_path: &Path) -> Option<(u64, u64)> {
    None
}

impl FileProbe {
    /// The data file at `path` as it is now: call right after opening it.
    pub fn new(path: &Path) -> FileProbe {
        FileProbe {
            path: path.to_path_buf(),
            identity: identity(path),
        }
    }

    /// Whether the path no longer names the file opened (removed, or
    /// replaced by another), in a sentence that does not name the path:
    /// every write would then go to a file nobody reads again.
    pub fn moved(&self) -> Option<String> {
        let now = identity(&self.path);
        if self.identity.is_some() && now.is_none() {
            return Some(
                "The data file is gone: kontor writes to a file no path names any more; \
                 put it back or restart kontor."
                    .into(),
            );
        }
        (now != self.identity).then(|| {
            "The data file's path names another file than the one kontor opened \
             (it was replaced); restart kontor to serve the file that is there now."
                .into()
        })
    }

    /// What keeps the file from being written, in sentences that do not name
    /// the path (none when nothing does): a read-only or full file system,
    /// or a file this process may not write.
    pub fn unwritable(&self) -> Vec<String> {
        let mut problems = Vec::new();
        if let Some(space) = file_system(&self.path) {
            if space.read_only {
                problems.push("The data file's file system is mounted read-only.".into());
            } else if space.free < MIN_FREE_BYTES {
                problems.push(format!(
                    "The data file's file system is full ({} KiB free).",
                    space.free / 1024
                ));
            }
        }
        if !writable(&self.path) {
            problems.push("The data file is not writable by kontor's user.".into());
        }
        problems
    }
}

/// What the file system holding a file says of itself.
struct Space {
    read_only: bool,
    /// Bytes this process may still write.
    free: u64,
}

#[cfg(unix)]
fn file_system(path: &Path) -> Option<Space> {
    use std::os::unix::ffi::OsStrExt;
    let c_path = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    // SAFETY: statvfs writes only the struct given; the path is NUL-terminated.
    let (vfs, root) = unsafe {
        let mut vfs: libc::statvfs = std::mem::zeroed();
        if libc::statvfs(c_path.as_ptr(), &mut vfs) != 0 {
            return None;
        }
        (vfs, libc::geteuid() == 0)
    };
    // The superuser may write into the blocks kept back for it.
    let blocks = if root { vfs.f_bfree } else { vfs.f_bavail };
    // The fields' types differ between platforms (32 or 64 bits).
    #[allow(clippy::unnecessary_cast)]
    Some(Space {
        read_only: vfs.f_flag & libc::ST_RDONLY != 0,
        free: (blocks as u64).saturating_mul(vfs.f_frsize as u64),
    })
}

#[cfg(not(unix))]
fn file_system(_path: &Path) -> Option<Space> {
    None
}

#[cfg(unix)]
fn writable(path: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c_path) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: access only reads the NUL-terminated path.
    unsafe { libc::access(c_path.as_ptr(), libc::W_OK) == 0 }
}

#[cfg(not(unix))]
fn writable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.permissions().readonly())
}

fn user_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("PRAGMA user_version", [], |r| r.get(0))
}

/// The schema's version on `conn`, when it is not the one this binary knows.
///
/// Fails only on a storage error (the file does not answer).
pub fn schema_problem(conn: &Connection) -> Result<Option<String>> {
    let version = user_version(conn)?;
    Ok((version != SCHEMA_VERSION).then(|| {
        format!(
            "The data file's schema is version {version}; this kontor knows version {SCHEMA_VERSION}."
        )
    }))
}

/// Commits a write that changes nothing: the schema's version written back
/// as it was read, in the writer's transaction, so the COMMIT reaches the
/// WAL as every act's would.
///
/// Fails with the storage error the write or its COMMIT met (a full disk,
/// a read-only file, an I/O error).
pub fn write_probe(db: &Db) -> Result<()> {
    db.write(|tx| {
        let version = user_version(tx)?;
        tx.execute_batch(&format!("PRAGMA user_version = {version}"))?;
        Ok(())
    })
}
