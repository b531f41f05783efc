//! Storage: the data file, its pool and pragmas, the group-committing
//! writer, the shares of the pool, the schema and its versions, the server
//! lock; and the small things every layer stores in one form: tenants,
//! instants and dates, random ids, pages, strictly read rows; and the
//! secrets sealed under a key kept beside the data file. Knows no table of
//! the books except through `schema.sql` and the migrations, and decides no
//! rule.
//!
//! - `db.rs`: `Db`: opening the file (mode 0600, pragmas, the migrations
//!   before the pool opens), `read`, `checkout` / `try_checkout` (a pooled
//!   connection for an `Admission`), `write` (one `BEGIN IMMEDIATE`
//!   transaction shared by a group of writers, each in its own savepoint,
//!   answered after the COMMIT; listeners woken when events were written),
//!   `Tx` (with `add_up` for running sums, `gathering`, which writes a bulk
//!   act's sums once at its end, and `attempt`, a part of a bulk act undone
//!   alone when refused), `backup_to`. Knows no table.
//! - `share.rs`: `Shares`: a company's share of the pooled connections (at
//!   most half) and the pool's permits, waited for without holding a
//!   thread, 100 ms at most (`admit`, async; `try_admit`). The one async
//!   code outside `http`.
//! - `backups.rs`: the copies a server makes on a schedule (`serve
//!   --backup-to`), the oldest beyond those kept removed; the check a copy
//!   passes and the move that puts it back (`kontor restore`).
//! - `health.rs`: whether the data file can take a server's work now
//!   (`FileProbe`: still the file opened, its file system writable with
//!   room; `schema_problem`; `write_probe`, a COMMIT that changes nothing),
//!   for the readiness answer.
//! - `lock.rs`: one server per data file: the `DATA.lock` advisory lock
//!   naming its holder; `beside`, the one way to name a file after the data
//!   file (`.lock`, `.key`, `-wal`).
//! - `row.rs`: reading stored values strictly (`Row`), and `stored_enum!`,
//!   the one place a state's stored spelling is written and read.
//! - `tenant.rs`: `Tenant` (company and `Environment`), which every query of
//!   the books binds.
//! - `sealed.rs`: secrets kontor must use again but nobody may read again (a
//!   company's SMTP password): sealed with ChaCha20-Poly1305 under a key file
//!   beside the data file (`kontor.db.key`), never in it; `Secret` prints as
//!   dots.
//! - `clock.rs`: instants as fixed-width UTC text, dates, a company's today;
//!   reads the clock, decides nothing.
//! - `ids.rs`: random ids with a type prefix (the OS random source; inside a
//!   bulk act, `in_order`, drawn in batches and handed out ascending) and
//!   secrets (drawn afresh each).
//! - `paging.rs`: `Paging` and the `{data, page, size, total, more}`
//!   envelope (`Page`); the one `LIMIT` of every page query.
//! - `migrations/`: the schema's versions.

pub mod backups;
pub mod clock;
pub mod db;
pub mod health;
pub mod ids;
pub mod lock;
pub mod migrations;
pub mod paging;
pub mod row;
pub mod sealed;
pub mod share;
pub mod tenant;
