//! The data file: opening it, its pragmas, the schema and its version, and the
//! two ways to touch it: `read` on a pooled connection and `write` in a
//! `BEGIN IMMEDIATE` transaction. Writers of one process queue on a mutex
//! before they ask SQLite for the write lock, so they never spin in the busy
//! handler; writers of other processes (the console) wait in `busy_timeout`.
//! This module knows no table but `PRAGMA user_version`.

use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use r2d2_sqlite::SqliteConnectionManager;
use rusqlite::{Connection, Transaction, TransactionBehavior};

use crate::error::{Error, Result};

/// The schema this binary writes and understands.
pub const SCHEMA: &str = include_str!("../schema.sql");
/// The version `schema.sql` carries in `PRAGMA user_version`.
pub const SCHEMA_VERSION: i64 = 1;

pub type Pool = r2d2::Pool<SqliteConnectionManager>;

/// One data file, shared by every surface of one process.
pub struct Db {
    pool: Pool,
    writer: Mutex<()>,
}

fn configure(conn: &mut Connection) -> rusqlite::Result<()> {
    conn.busy_timeout(Duration::from_secs(10))?;
    conn.execute_batch(
        "PRAGMA journal_mode = WAL;
         PRAGMA synchronous = FULL;
         PRAGMA foreign_keys = ON;",
    )?;
    Ok(())
}

impl Db {
    /// Opens (creating if needed) the data file at `path` with `connections`
    /// pooled connections, and brings a fresh file to the current schema.
    ///
    /// Fails when the file cannot be opened, or when it was written by a newer
    /// kontor (its schema version is higher than this binary's).
    pub fn open(path: &Path, connections: u32) -> Result<Db> {
        let manager = SqliteConnectionManager::file(path).with_init(configure);
        let pool = r2d2::Pool::builder()
            .max_size(connections.max(1))
            .min_idle(Some(1))
            .connection_timeout(Duration::from_secs(30))
            .build(manager)
            .map_err(|e| Error::internal(format!("cannot open {}: {e}", path.display())))?;
        let db = Db { pool, writer: Mutex::new(()) };
        db.migrate()?;
        Ok(db)
    }

    fn migrate(&self) -> Result<()> {
        self.write(|tx| {
            let version: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
            if version > SCHEMA_VERSION {
                return Err(Error::refused(format!(
                    "The data file has schema version {version}, but this kontor knows only up to {SCHEMA_VERSION}; use a newer kontor."
                )));
            }
            if version == 0 {
                tx.execute_batch(SCHEMA)?;
                tx.execute_batch(&format!("PRAGMA user_version = {SCHEMA_VERSION}"))?;
            }
            Ok(())
        })
    }

    /// Runs `f` on a pooled connection, outside any write transaction.
    pub fn read<T>(&self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        let conn = self.pool.get()?;
        f(&conn)
    }

    /// Runs `f` in one `BEGIN IMMEDIATE` transaction, committed when `f`
    /// returns `Ok` and rolled back when it returns `Err`.
    pub fn write<T>(&self, f: impl FnOnce(&Transaction) -> Result<T>) -> Result<T> {
        let mut conn = self.pool.get()?;
        let _turn = self.writer.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let value = f(&tx)?;
        tx.commit()?;
        Ok(value)
    }
}
