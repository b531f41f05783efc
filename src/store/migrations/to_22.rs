//! Step 22 (21 → 22): two-factor sign-in. A person's authenticator app
//! (the secret sealed, never in clear), recovery codes (their SHA-256
//! only), passkeys, the sign-ins awaiting a second factor, the passkey
//! registrations awaiting the browser, and the companies that require two
//! factors: new tables, created empty (nobody has a second factor, no
//! company requires one). The mail outbox is rebuilt from the frozen
//! definition to carry a notice to a person, which names no invoice; its
//! rows are kept as they are.

use rusqlite::Connection;

use super::rebuild::{create_table, rebuild, Catalog};
use super::refusal::Stop;

/// The definitions of step 22, frozen.
const SCHEMA_22: &str = include_str!("22.sql");

/// The tables step 22 creates.
const CREATED_IN_22: &[&str] = &[
    "totp_factors",
    "recovery_codes",
    "passkeys",
    "sign_in_steps",
    "passkey_registrations",
    "two_factor_required",
];

/// Runs step 22.
pub(super) fn run(conn: &Connection) -> Result<(), Stop> {
    let target = Catalog::of(SCHEMA_22)?;
    for table in CREATED_IN_22 {
        create_table(conn, &target, table)?;
    }
    rebuild(conn, &target, "mails", &[])?;
    Ok(())
}
