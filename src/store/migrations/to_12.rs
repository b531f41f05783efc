//! Step 12 (11 → 12): invoices leave kontor. Each company's mail settings
//! (the SMTP password sealed, never in clear) and templates, the mail
//! outbox and its attempts; the ladder of reminders, the owner's rows of
//! the base-rate table and the reminders sent; the VAT register's answer
//! kept with an invoice. New tables only: nothing existing changes, and
//! the tables start empty (no company has mail settings yet, every
//! company uses the default ladder and the shipped base rates).

use rusqlite::Connection;

use super::refusal::Stop;

/// The tables of step 12, frozen.
const CREATED_IN_12: &str = include_str!("12.sql");

/// Runs step 12.
pub(super) fn run(conn: &Connection) -> Result<(), Stop> {
    conn.execute_batch(CREATED_IN_12)?;
    Ok(())
}
