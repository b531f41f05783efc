//! Two factors as a whole: which a person has (an authenticator app,
//! passkeys, the recovery codes left), the company's requirement that
//! everyone has one (a person without is led to set one up and can do
//! nothing else until then), new recovery codes, a recovery code taken at
//! sign-in, and an owner's reset of a person's factors.

use jiff::Timestamp;
use rusqlite::{params, Connection, OptionalExtension};

use crate::access::passkeys::{self, PasskeyView};
use crate::access::people::{self, Member};
use crate::access::{recovery, totp};
use crate::books::audit::{self, Act, Actor};
use crate::books::sending;
use crate::error::said::Access;
use crate::error::{Error, Result};
use crate::rules::locale::Lang;
use crate::store::clock::format_instant;
use crate::store::db::Tx;
use crate::store::sealed::Secret;
use crate::store::tenant::Tenant;

/// The second factors of a person.
#[derive(Debug, Clone)]
pub struct Factors {
    /// An authenticator app confirmed by a first code.
    pub app: bool,
    /// An app being set up, not yet confirmed.
    pub app_pending: bool,
    pub passkeys: Vec<PasskeyView>,
    /// Unused recovery codes.
    pub recovery_left: i64,
}

impl Factors {
    /// Whether the person signs in with two factors.
    pub fn on(&self) -> bool {
        self.app || !self.passkeys.is_empty()
    }
}

/// A person's second factors.
///
/// Fails only on a storage error.
pub fn factors(conn: &Connection, user_id: &str) -> Result<Factors> {
    Ok(Factors {
        app: totp::confirmed(conn, user_id)?,
        app_pending: totp::pending(conn, user_id)?,
        passkeys: passkeys::list(conn, user_id)?,
        recovery_left: recovery::left(conn, user_id)?,
    })
}

/// Whether a person signs in with two factors (a confirmed app or a passkey).
///
/// Fails only on a storage error.
pub fn on(conn: &Connection, user_id: &str) -> Result<bool> {
    Ok(totp::confirmed(conn, user_id)? || passkeys::any(conn, user_id)?)
}

/// Whether a company requires two factors of everyone.
///
/// Fails only on a storage error.
pub fn required(conn: &Connection, company_id: &str) -> Result<bool> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM two_factor_required WHERE company_id = ?1")?
        .query_row([company_id], |_| Ok(()))
        .optional()?
        .is_some())
}

/// Makes the tenant's company require two factors of everyone, or no
/// longer. Recorded as `company.two_factor_changed` by `actor` (a change
/// only: setting what is set already records nothing).
///
/// Fails only on a storage error.
pub fn require(tx: &Tx, tenant: &Tenant, actor: &Actor, yes: bool) -> Result<()> {
    let company_id = tenant.company_id.as_str();
    if required(tx, company_id)? == yes {
        return Ok(());
    }
    if yes {
        tx.prepare_cached("INSERT INTO two_factor_required (company_id, since) VALUES (?1, ?2)")?
            .execute(params![company_id, format_instant(Timestamp::now())])?;
    } else {
        tx.prepare_cached("DELETE FROM two_factor_required WHERE company_id = ?1")?
            .execute([company_id])?;
    }
    audit::record(tx, tenant, actor, Act::CompanyTwoFactorChanged, company_id)
}

/// Ten new recovery codes for a person who signs in with two factors (the
/// earlier ones void), to be shown this once. Recorded as
/// `user.recovery_codes_made` in every company the person belongs to.
///
/// Fails with `Refused` when the person has no second factor.
pub fn new_recovery_codes(tx: &Tx, actor: &Actor, user_id: &str) -> Result<Vec<Secret>> {
    if !on(tx, user_id)? {
        return Err(Error::refused(Access::RecoveryNeedsFactor));
    }
    let codes = recovery::make(tx, user_id, Timestamp::now())?;
    totp::record_everywhere(tx, actor, Act::UserRecoveryCodesMade, user_id)?;
    Ok(codes)
}

/// Takes a recovery code at sign-in in place of a second factor: true when
/// it is an unused code of the person (used from now on, and recorded as
/// `user.recovery_code_used` in every company they belong to).
///
/// Fails only on a storage error.
pub fn take_recovery_code(tx: &Tx, user_id: &str, email: &str, code: &str) -> Result<bool> {
    if !recovery::take(tx, user_id, code, Timestamp::now())? {
        return Ok(false);
    }
    let actor = Actor::Person {
        id: user_id.to_string(),
        email: email.to_string(),
    };
    totp::record_everywhere(tx, &actor, Act::UserRecoveryCodeUsed, user_id)?;
    Ok(true)
}

/// Resets a person's second factors: the app, the passkeys and the recovery
/// codes go, and every session and half-done sign-in of theirs ends; they
/// sign in with their password alone (and set a factor up again where their
/// company requires it). Recorded as `user.two_factor_reset` by `actor` in
/// `tenant`'s books.
///
/// Fails with `NotFound` when the person does not belong to the tenant's
/// company, and `Refused` when anyone but the system (the console without
/// `--as`) asks for a person who belongs to other companies too, whose
/// books the reset would open.
pub fn reset(tx: &Tx, tenant: &Tenant, actor: &Actor, user_id: &str) -> Result<Member> {
    let company_id = tenant.company_id.as_str();
    let member = people::member(tx, company_id, user_id)?;
    if !matches!(actor, Actor::System)
        && people::company_ids(tx, user_id)?
            .iter()
            .any(|c| c != company_id)
    {
        return Err(Error::refused(Access::FactorsResetOnConsole {
            email: member.email.clone(),
        }));
    }
    for table in [
        "totp_factors",
        "recovery_codes",
        "passkeys",
        "sign_in_steps",
        "passkey_registrations",
        "sessions",
    ] {
        tx.execute(
            &format!("DELETE FROM {table} WHERE user_id = ?1"),
            [user_id],
        )?;
    }
    audit::record(tx, tenant, actor, Act::UserTwoFactorReset, user_id)?;
    let company = crate::books::company::get(tx, company_id)?;
    let lang = people::person(tx, user_id)?
        .locale
        .unwrap_or_else(|| Lang::of_seller(company.country.as_str()));
    sending::notify_two_factor_reset(tx, tenant, &member.email, lang)?;
    Ok(member)
}
