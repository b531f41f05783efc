//! The data file: opening it (and bringing it to the current schema with
//! `migrations`), its pragmas, and the two ways to touch it: `read` on a
//! pooled connection and `write` in a `BEGIN IMMEDIATE` transaction on the
//! process's one writer connection.
//!
//! Writes are committed in groups: each `write` runs inside its own SAVEPOINT
//! of the open transaction; the last writer of a group (the one that finds
//! nobody queued behind it) commits, and every writer of the group is answered
//! only after that COMMIT, so one fsync covers several requests and nothing is
//! acknowledged before it is durable. A failing `write` rolls back to its
//! savepoint and leaves the others untouched; a failing COMMIT fails the whole
//! group, whose members have all not yet been answered. Writers of other
//! processes (the console) wait in `busy_timeout`.
//! This module knows no table; `migrations` owns the schema, its version and
//! `PRAGMA user_version`.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::ops::Deref;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

use r2d2_sqlite::SqliteConnectionManager;
use rusqlite::Connection;

use crate::error::{Error, Result};
use crate::store::share::{self, Admission, Shares};

/// The schema and its version, kept beside the migrations; named here too,
/// where the console, the bench and the tests have always read them.
pub use crate::store::migrations::{SCHEMA, SCHEMA_VERSION};

/// Most writes one COMMIT covers.
const MAX_GROUP: usize = 64;

pub type Pool = r2d2::Pool<SqliteConnectionManager>;

/// A connection inside a write transaction; only `Db::write` makes one, so a
/// function taking `&Tx` can rely on running inside a transaction.
pub struct Tx<'a> {
    conn: &'a Connection,
    raised: &'a Cell<bool>,
    /// The additions to running sums gathered by `gathering`, by statement and row.
    gathered: RefCell<Option<Gathered>>,
}

/// Additions to running sums waiting to be written: per upsert statement
/// and key, the deltas added up.
type Gathered = BTreeMap<(&'static str, Vec<String>), Vec<i64>>;

impl Tx<'_> {
    /// Notes that this transaction wrote events, so the outbox's listeners
    /// are woken once it commits.
    pub fn note_events(&self) {
        self.raised.set(true);
    }

    /// Adds `deltas` to a running sum (a day's account totals, the open
    /// items, the invoice tallies): `upsert` is an `INSERT … ON CONFLICT DO
    /// UPDATE` that adds its values to the row's, binding `key` as `?1…?K`
    /// and `deltas` as the parameters after. Written at once, or once per
    /// row when `gathering` ends.
    ///
    /// Fails only on a storage error.
    pub fn add_up<const K: usize, const D: usize>(
        &self,
        upsert: &'static str,
        key: [&str; K],
        deltas: [i64; D],
    ) -> Result<()> {
        if let Some(gathered) = self.gathered.borrow_mut().as_mut() {
            let sums = gathered
                .entry((upsert, key.iter().map(|k| k.to_string()).collect()))
                .or_insert_with(|| vec![0; D]);
            for (sum, delta) in sums.iter_mut().zip(deltas) {
                *sum += delta;
            }
            return Ok(());
        }
        self.write_sum(upsert, &key, &deltas)
    }

    fn write_sum(&self, upsert: &str, key: &[impl rusqlite::ToSql], deltas: &[i64]) -> Result<()> {
        let values = key
            .iter()
            .map(|k| k as &dyn rusqlite::ToSql)
            .chain(deltas.iter().map(|d| d as &dyn rusqlite::ToSql));
        self.conn
            .prepare_cached(upsert)?
            .execute(rusqlite::params_from_iter(values))?;
        Ok(())
    }

    /// Runs `f` so that, when it fails, nothing it wrote remains (a
    /// savepoint rolled back) and nothing it gathered either, while the
    /// transaction goes on: for a bulk act that takes a refusal of one of
    /// its parts as an answer, not as the end.
    ///
    /// Fails with what `f` fails with, or on a storage error.
    pub fn attempt<T>(&self, f: impl FnOnce() -> Result<T>) -> Result<T> {
        let gathered = self.gathered.borrow().clone();
        self.conn.execute_batch("SAVEPOINT attempt")?;
        match f() {
            Ok(value) => {
                self.conn.execute_batch("RELEASE attempt")?;
                Ok(value)
            }
            Err(e) => {
                self.conn
                    .execute_batch("ROLLBACK TO attempt; RELEASE attempt")?;
                *self.gathered.borrow_mut() = gathered;
                Err(e)
            }
        }
    }

    /// Runs `f` with the additions of `add_up` gathered, and writes each
    /// row's sum once when `f` has succeeded: the acts of a bulk act (a bank
    /// import settling thousands of documents) then write a day's totals
    /// once instead of once per act. Inside `f` the running sums read stale;
    /// `f` must not read them. Nested, it runs `f` in the outer gathering.
    ///
    /// Fails with what `f` fails with (nothing gathered is written then), or
    /// on a storage error.
    pub fn gathering<T>(&self, f: impl FnOnce() -> Result<T>) -> Result<T> {
        if self.gathered.borrow().is_some() {
            return f();
        }
        *self.gathered.borrow_mut() = Some(Gathered::new());
        let outcome = f();
        let gathered = self.gathered.borrow_mut().take().unwrap_or_default();
        let value = outcome?;
        for ((upsert, key), deltas) in &gathered {
            self.write_sum(upsert, key, deltas)?;
        }
        Ok(value)
    }
}

impl Deref for Tx<'_> {
    type Target = Connection;
    fn deref(&self) -> &Connection {
        self.conn
    }
}

/// Called after a commit that wrote events.
pub type Listener = Box<dyn Fn() + Send + Sync>;

struct WriterState {
    conn: Connection,
    /// Whether a group's transaction is open.
    open: bool,
    /// Number of the current (or last) group.
    group: u64,
    /// Writes in the open group.
    members: usize,
    /// The last group whose COMMIT has finished.
    finished: u64,
    /// Groups whose COMMIT failed, most recent last (a few are kept).
    failed: Vec<u64>,
    /// Whether the open group wrote events.
    raised: Cell<bool>,
}

/// One data file, shared by every surface of one process.
pub struct Db {
    pool: Pool,
    /// Each company's share of the pool.
    pub shares: Shares,
    writer: Mutex<WriterState>,
    finished: Condvar,
    queued: AtomicUsize,
    listeners: Mutex<Vec<Listener>>,
}

/// A pooled connection of a request, with its admission (its share of the pool).
pub struct Checkout {
    conn: r2d2::PooledConnection<SqliteConnectionManager>,
    _admission: Admission,
}

impl Deref for Checkout {
    type Target = Connection;
    fn deref(&self) -> &Connection {
        &self.conn
    }
}

/// A read transaction that ends when dropped, also when a handler panics, so
/// no pooled connection goes back to the pool inside a transaction.
pub struct ReadSnapshot<'a> {
    conn: &'a Connection,
    /// Whether this snapshot began the transaction (and so ends it).
    began: bool,
}

impl<'a> ReadSnapshot<'a> {
    /// Begins one snapshot: every read until the drop sees the same data.
    ///
    /// Fails only on a storage error.
    pub fn begin(conn: &'a Connection) -> Result<ReadSnapshot<'a>> {
        conn.prepare_cached("BEGIN")?.execute([])?;
        Ok(ReadSnapshot { conn, began: true })
    }

    /// One snapshot for a reader of many statements: begun here when `conn`
    /// is in no transaction, else the one it is in (a request's snapshot, a
    /// write) serves and is left as it is. Outside a transaction SQLite
    /// takes and drops the file's read lock around every statement; within
    /// one, once.
    ///
    /// Fails only on a storage error.
    pub fn unless_within(conn: &'a Connection) -> Result<ReadSnapshot<'a>> {
        if conn.is_autocommit() {
            Self::begin(conn)
        } else {
            Ok(ReadSnapshot { conn, began: false })
        }
    }
}

impl Drop for ReadSnapshot<'_> {
    fn drop(&mut self) {
        if self.began && !self.conn.is_autocommit() {
            let _ = self
                .conn
                .prepare_cached("COMMIT")
                .and_then(|mut s| s.execute([]));
        }
    }
}

/// Page cache of a pooled read connection and of the writer, in KiB.
const READER_CACHE_KIB: i64 = 8 * 1024;
const WRITER_CACHE_KIB: i64 = 64 * 1024;

fn configure(conn: &mut Connection) -> rusqlite::Result<()> {
    configure_with_cache(conn, READER_CACHE_KIB)
}

/// Prepared statements a connection keeps: an act that settles a document
/// runs some thirty distinct statements, and a bank import runs one per
/// line after another; with rusqlite's default of 16 each would be parsed
/// again every time.
const STATEMENT_CACHE: usize = 128;

fn configure_with_cache(conn: &mut Connection, cache_kib: i64) -> rusqlite::Result<()> {
    conn.busy_timeout(Duration::from_secs(10))?;
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    conn.execute_batch(&format!(
        "PRAGMA journal_mode = WAL;
         PRAGMA synchronous = FULL;
         PRAGMA foreign_keys = ON;
         PRAGMA cache_size = -{cache_kib};"
    ))?;
    Ok(())
}

/// Creates the data file, if it does not exist, readable by its owner only
/// (0600); SQLite gives its WAL and shared-memory files the same mode. An
/// existing file keeps the mode it has.
///
/// Fails when the file cannot be created.
fn create_private(path: &Path) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e),
    }
}

impl Db {
    /// Opens (creating if needed) the data file at `path` with `connections`
    /// pooled read connections and one writer, and brings the file to the
    /// current schema (`migrations::bring_up`) before the pool opens.
    ///
    /// Fails when the file cannot be opened, when it was written by a newer
    /// kontor (its schema version is higher than this binary's), or when it
    /// needs migrating and cannot be (see `migrations::bring_up`).
    pub fn open(path: &Path, connections: u32) -> Result<Db> {
        let cannot = |e: &dyn std::fmt::Display| {
            Error::internal(format!("cannot open {}: {e}", path.display()))
        };
        create_private(path).map_err(|e| cannot(&e))?;
        let mut writer = Connection::open(path).map_err(|e| cannot(&e))?;
        configure_with_cache(&mut writer, WRITER_CACHE_KIB).map_err(|e| cannot(&e))?;
        crate::store::migrations::bring_up(&writer, path)?;
        // A pooled connection never makes the file: opened while the file
        // is missing (moved away under a running server), it fails instead
        // of reading a new, empty file of the same name.
        let manager = SqliteConnectionManager::file(path)
            .with_flags(
                rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE
                    | rusqlite::OpenFlags::SQLITE_OPEN_URI
                    | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )
            .with_init(configure);
        let pool = r2d2::Pool::builder()
            .max_size(connections.max(1))
            .min_idle(Some(1))
            .test_on_check_out(false)
            .connection_timeout(Duration::from_secs(30))
            .build(manager)
            .map_err(|e| cannot(&e))?;
        let state = WriterState {
            conn: writer,
            open: false,
            group: 0,
            members: 0,
            finished: 0,
            failed: Vec::new(),
            raised: Cell::new(false),
        };
        let db = Db {
            pool,
            shares: Shares::new(connections.max(1) as usize),
            writer: Mutex::new(state),
            finished: Condvar::new(),
            queued: AtomicUsize::new(0),
            listeners: Mutex::new(Vec::new()),
        };
        Ok(db)
    }

    /// Registers a listener called after every commit that wrote events.
    pub fn on_events(&self, listener: Listener) {
        self.listeners
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(listener);
    }

    /// A pooled read connection for the caller to hold.
    ///
    /// Fails when no connection frees up within 30 s.
    pub fn connection(&self) -> Result<r2d2::PooledConnection<SqliteConnectionManager>> {
        Ok(self.pool.get()?)
    }

    /// The pooled connection an `admission` gives the right to (waiting at
    /// most `share::WAIT`: the console or the delivery worker may hold one a
    /// moment).
    ///
    /// Fails with `Busy` when none frees up in time.
    pub fn checkout(&self, admission: Admission) -> Result<Checkout> {
        let conn = self
            .pool
            .get_timeout(share::WAIT)
            .map_err(|_| Error::Busy)?;
        Ok(Checkout {
            conn,
            _admission: admission,
        })
    }

    /// The pooled connection an `admission` gives the right to, if one is
    /// free at once.
    pub fn try_checkout(&self, admission: Admission) -> Option<Checkout> {
        let conn = self.pool.try_get()?;
        Some(Checkout {
            conn,
            _admission: admission,
        })
    }

    /// Writes a consistent copy of the data file, as one read transaction
    /// sees it, to `to`: a new file readable by its owner only, compacted,
    /// whole in itself (no WAL beside it). Writers go on meanwhile. Returns
    /// the copy's size in bytes.
    ///
    /// Fails with `Refused` when `to` exists, and `Internal` when it cannot
    /// be written.
    pub fn backup_to(&self, to: &Path) -> Result<u64> {
        if to.exists() {
            return Err(Error::refused(format!(
                "{} exists; a backup goes to a new file.",
                to.display()
            )));
        }
        let cannot = |e: &dyn std::fmt::Display| {
            Error::internal(format!("cannot write the backup {}: {e}", to.display()))
        };
        create_private(to).map_err(|e| cannot(&e))?;
        let copied = self.read(|conn| {
            let target = to
                .to_str()
                .ok_or_else(|| cannot(&"the path is not UTF-8"))?;
            conn.execute("VACUUM INTO ?1", [target])
                .map_err(|e| cannot(&e))?;
            Ok(())
        });
        if let Err(e) = copied {
            let _ = std::fs::remove_file(to);
            return Err(e);
        }
        std::fs::metadata(to)
            .map(|m| m.len())
            .map_err(|e| cannot(&e))
    }

    /// Runs `f` on a pooled connection, outside any write transaction.
    pub fn read<T>(&self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        let conn = self.pool.get()?;
        f(&conn)
    }

    fn lock(&self) -> MutexGuard<'_, WriterState> {
        self.writer
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Runs `f` inside a `BEGIN IMMEDIATE` transaction and returns once its
    /// changes are committed; when `f` fails, none of its changes remain.
    /// `f` must not call `write` itself.
    ///
    /// Fails with what `f` fails with, or with `Internal` when the transaction
    /// cannot begin or its COMMIT fails.
    pub fn write<T>(&self, f: impl FnOnce(&Tx) -> Result<T>) -> Result<T> {
        self.queued.fetch_add(1, Ordering::SeqCst);
        let mut st = self.lock();
        self.queued.fetch_sub(1, Ordering::SeqCst);
        if !st.open {
            st.conn.execute_batch("BEGIN IMMEDIATE")?;
            st.open = true;
            st.group += 1;
            st.members = 0;
        }
        let group = st.group;
        st.members += 1;
        let outcome = match st.conn.execute_batch("SAVEPOINT write") {
            Ok(()) => {
                let run = catch_unwind(AssertUnwindSafe(|| {
                    f(&Tx {
                        conn: &st.conn,
                        raised: &st.raised,
                        gathered: RefCell::new(None),
                    })
                }))
                .unwrap_or_else(|_| Err(Error::internal("a write panicked; it was rolled back")));
                let end = if run.is_ok() {
                    "RELEASE write"
                } else {
                    "ROLLBACK TO write; RELEASE write"
                };
                let ended = st.conn.execute_batch(end);
                match (run, ended) {
                    (Ok(value), Ok(())) => Ok(value),
                    // The write's own error says more than the rollback's.
                    (Err(e), _) => Err(e),
                    (Ok(_), Err(e)) => Err(Error::from(e)),
                }
            }
            Err(e) => Err(Error::from(e)),
        };
        if st.conn.is_autocommit() {
            // SQLite rolled the whole transaction back (disk full, I/O error):
            // every write of the group is lost, and each is told so.
            st.open = false;
            st.raised.set(false);
            st.failed.push(group);
            let excess = st.failed.len().saturating_sub(16);
            st.failed.drain(..excess);
            st.finished = group;
            self.finished.notify_all();
            return Err(match outcome {
                Err(e) => e,
                Ok(_) => {
                    Error::internal("the transaction was rolled back; nothing of it was written")
                }
            });
        }
        if self.queued.load(Ordering::SeqCst) == 0 || st.members >= MAX_GROUP {
            // Nobody is behind this write: commit the group.
            let committed = st.conn.execute_batch("COMMIT");
            if committed.is_err() {
                let _ = st.conn.execute_batch("ROLLBACK");
                st.failed.push(group);
                let excess = st.failed.len().saturating_sub(16);
                st.failed.drain(..excess);
            }
            st.open = false;
            st.finished = group;
            let wake = st.raised.replace(false) && committed.is_ok();
            self.finished.notify_all();
            drop(st);
            committed.map_err(Error::from)?;
            if wake {
                for listener in self
                    .listeners
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .iter()
                {
                    listener();
                }
            }
            return outcome;
        }
        // A writer is queued behind this one and will commit the group.
        let value = outcome?;
        while st.finished < group {
            st = self
                .finished
                .wait(st)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
        if st.failed.contains(&group) {
            return Err(Error::internal(
                "the group's COMMIT failed; nothing of it was written",
            ));
        }
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_that_loses_the_whole_transaction_fails_alone_and_the_next_one_commits() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("t.db"), 1).unwrap();
        db.write(|tx| Ok(tx.execute_batch("CREATE TABLE blobs (b BLOB NOT NULL) STRICT")?))
            .unwrap();
        let pages: i64 = db
            .read(|c| Ok(c.query_row("PRAGMA page_count", [], |r| r.get(0))?))
            .unwrap();
        // Room for little more than what is there: a large insert fills the file.
        db.write(|tx| Ok(tx.execute_batch(&format!("PRAGMA max_page_count = {}", pages + 4))?))
            .unwrap();
        let full = db.write(|tx| {
            tx.execute("INSERT INTO blobs (b) VALUES (zeroblob(1000000))", [])?;
            Ok(())
        });
        assert!(matches!(full, Err(Error::StorageFull)), "{full:?}");
        // The writer is usable again, in a transaction of its own.
        db.write(|tx| Ok(tx.execute_batch("PRAGMA max_page_count = 1000000")?))
            .unwrap();
        db.write(|tx| {
            Ok(tx
                .execute("INSERT INTO blobs (b) VALUES (x'01')", [])
                .map(|_| ())?)
        })
        .unwrap();
        let rows: i64 = db
            .read(|c| Ok(c.query_row("SELECT count(*) FROM blobs", [], |r| r.get(0))?))
            .unwrap();
        assert_eq!(rows, 1);
    }

    const ADD: &str = "INSERT INTO sums (k, a, b) VALUES (?1, ?2, ?3)
         ON CONFLICT (k) DO UPDATE SET a = a + excluded.a, b = b + excluded.b";

    fn sums(db: &Db) -> Vec<(String, i64, i64)> {
        db.read(|c| {
            let mut stmt = c.prepare("SELECT k, a, b FROM sums ORDER BY k")?;
            let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
        .unwrap()
    }

    #[test]
    fn gathered_sums_are_written_once_as_the_same_sums_and_not_at_all_when_the_write_fails() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("t.db"), 1).unwrap();
        db.write(|tx| Ok(tx.execute_batch("CREATE TABLE sums (k TEXT PRIMARY KEY, a INTEGER NOT NULL, b INTEGER NOT NULL) STRICT")?))
            .unwrap();
        let adds = [("x", 5, 1), ("y", -2, 0), ("x", 7, 1), ("x", -1, 0)];
        db.write(|tx| {
            for (k, a, b) in adds {
                tx.add_up(ADD, [k], [a, b])?;
            }
            Ok(())
        })
        .unwrap();
        let at_once = sums(&db);
        assert_eq!(
            at_once,
            vec![("x".to_string(), 11, 2), ("y".to_string(), -2, 0)]
        );
        // Gathered: nothing written inside, the same sums added after.
        db.write(|tx| {
            tx.gathering(|| {
                for (k, a, b) in adds {
                    tx.add_up(ADD, [k], [a, b])?;
                }
                let inside: i64 =
                    tx.query_row("SELECT a FROM sums WHERE k = 'x'", [], |r| r.get(0))?;
                assert_eq!(inside, 11, "nothing is written while gathering");
                Ok(())
            })
        })
        .unwrap();
        assert_eq!(
            sums(&db),
            vec![("x".to_string(), 22, 4), ("y".to_string(), -4, 0)]
        );
        // A gathering whose work fails writes nothing of what it gathered,
        // even when the write around it goes on and commits.
        db.write(|tx| {
            let failed = tx.gathering(|| {
                tx.add_up(ADD, ["z"], [1, 1])?;
                Err::<(), _>(Error::refused("no"))
            });
            assert!(failed.is_err());
            tx.add_up(ADD, ["y"], [1, 0])
        })
        .unwrap();
        assert_eq!(
            sums(&db),
            vec![("x".to_string(), 22, 4), ("y".to_string(), -3, 0)]
        );
    }
}
