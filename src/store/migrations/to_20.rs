//! Step 20 (19 → 20): two-factor sign-in. A person's authenticator app
//! (the secret sealed, never in clear), recovery codes (their SHA-256
//! only), passkeys, the sign-ins awaiting a second factor, the passkey
//! registrations awaiting the browser, and the companies that require two
//! factors. New tables only: nothing existing changes, and they start empty
//! (nobody has a second factor, no company requires one).

use rusqlite::Connection;

use super::refusal::Stop;

/// The tables of step 20, frozen.
const CREATED_IN_20: &str = include_str!("20.sql");

/// Runs step 20.
pub(super) fn run(conn: &Connection) -> Result<(), Stop> {
    conn.execute_batch(CREATED_IN_20)?;
    Ok(())
}
