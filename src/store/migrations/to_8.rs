//! Step 8 (7 → 8): the ledger's second dimension and the partners'
//! particulars for payments and mail. Journal lines gain their detail (the
//! partner of the old receivables and payables lines is filled from the
//! record their entry names; old revenue, tax and bank lines keep '', which
//! the adviser's chart maps to the account's default), the day sums are
//! rebuilt with the detail in their key, and customers gain an IBAN, an
//! invoice e-mail address, the consumer flag and a language.

use rusqlite::Connection;

use super::refusal::Stop;

/// The columns, the rebuilt day sums and the filled details of step 8, frozen.
const CHANGED_IN_8: &str = include_str!("8.sql");

/// Runs step 8.
pub(super) fn run(conn: &Connection) -> Result<(), Stop> {
    conn.execute_batch(CHANGED_IN_8)?;
    Ok(())
}
