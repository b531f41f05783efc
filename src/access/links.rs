//! One-time links a person opens without a session: the owner's invitation
//! of a person to the company with a role, and a password reset of a person
//! of the company. A link carries a random 256-bit token that only the link
//! holds; the data file keeps its SHA-256. A link works once and for 24
//! hours; a newer link of the same kind for the same person replaces an
//! unused older one.
//!
//! An invitation of an address new to kontor makes the person with the name
//! and password they choose; one of an address kontor knows (a person of
//! another company, such as a tax adviser) adds the company to that person
//! once they have given their own password, which stays as it is. A reset
//! sets a new password and ends every session of the person. An owner's
//! reset reaches only a person who belongs to no other company (a password
//! opens every company of its person); the console's, made without `--as`,
//! reaches anyone.
//!
//! Each act records itself in the company's audit: making an invitation or
//! a reset link by who made it (in the books they view), joining and
//! resetting by link by the link's own person (in the live books).

use std::time::Duration;

use jiff::Timestamp;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::access::people::{self, Member, NewMember, Person, Role, UserInput};
use crate::access::sessions::{hash_of, random_token};
use crate::books::audit::{self, Act, Actor};
use crate::books::company;
use crate::error::said::{Access, Input, Record};
use crate::error::{Error, Result, Said, Violations};
use crate::rules::text;
use crate::store::clock::format_instant;
use crate::store::db::Tx;
use crate::store::row::Row;
use crate::store::tenant::{Environment, Tenant};
use crate::stored_enum;

stored_enum! {
    /// What a one-time link does.
    pub enum LinkKind {
        Invitation = "INVITATION",
        Reset = "RESET",
    }
}

/// How long a link works after it was made.
pub const VALID_FOR: Duration = Duration::from_secs(24 * 3600);

/// A link just made. The token appears only here: whoever holds the link
/// can use it, so it is shown to the one who made it, once.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Made {
    pub kind: LinkKind,
    pub email: String,
    pub token: String,
    pub expires_at: String,
}

/// An invitation as the owner gives it: text as given.
#[derive(Debug, Default, Clone)]
pub struct InvitationInput {
    pub email: Option<String>,
    pub name: Option<String>,
    pub role: Option<String>,
}

/// A checked invitation.
#[derive(Debug, Clone)]
pub struct NewInvitation {
    email: String,
    name: String,
    role: Role,
}

/// The longest name of an invited person (characters).
pub const MAX_NAME: usize = 200;

impl NewInvitation {
    /// Checks an invitation: an e-mail address, a name of 1–200 characters
    /// and a role are required.
    ///
    /// Fails with `Invalid` naming every bad field.
    pub fn check(input: InvitationInput) -> Result<NewInvitation> {
        let mut v = Violations::new();
        let email = v.take(people::check_email(input.email.as_deref()))?;
        let name = v.take(text::required("name", input.name.as_deref(), MAX_NAME))?;
        let role = match input.role.as_deref() {
            Some(r) if !r.trim().is_empty() => v.take(Role::read(r))?,
            _ => v.take(Err(Error::invalid("role", Input::Missing)))?,
        };
        v.finish()?;
        match (email, name, role) {
            (Some(email), Some(name), Some(role)) => Ok(NewInvitation { email, name, role }),
            _ => Err(Error::internal("a checked invitation lacks a field")),
        }
    }
}

/// An open link, as its page shows it.
#[derive(Debug, Clone)]
pub struct Link {
    pub kind: LinkKind,
    pub company_id: String,
    pub company: String,
    pub email: String,
    /// An invitation's name for the person.
    pub name: Option<String>,
    /// An invitation's role.
    pub role: Option<Role>,
    /// The person a reset is for; for an invitation, the person kontor
    /// knows by the address, if any (they give their own password).
    pub user_id: Option<String>,
    pub expires_at: String,
    token_hash: String,
}

fn expiry_of(created: Timestamp) -> String {
    let span = jiff::SignedDuration::try_from(VALID_FOR).unwrap_or(jiff::SignedDuration::ZERO);
    format_instant(created.checked_add(span).unwrap_or(Timestamp::MAX))
}

/// What a link is for.
enum Purpose<'a> {
    Invitation { name: &'a str, role: Role },
    Reset { user_id: &'a str },
}

fn insert(
    tx: &Tx,
    purpose: Purpose,
    company_id: &str,
    email: &str,
    by: &Actor,
    now: Timestamp,
) -> Result<Made> {
    let created_by = by.person_id();
    let (kind, name, role, user_id) = match purpose {
        Purpose::Invitation { name, role } => (LinkKind::Invitation, Some(name), Some(role), None),
        Purpose::Reset { user_id } => (LinkKind::Reset, None, None, Some(user_id)),
    };
    let token = random_token();
    tx.prepare_cached(
        "INSERT INTO one_time_links
             (token_hash, kind, company_id, email, name, role, user_id, created_by, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?
    .execute(params![
        hash_of(&token),
        kind,
        company_id,
        email,
        name,
        role,
        user_id,
        created_by,
        format_instant(now)
    ])?;
    Ok(Made {
        kind,
        email: email.to_string(),
        token,
        expires_at: expiry_of(now),
    })
}

/// Makes an invitation to the tenant's company; an unused earlier
/// invitation of the same address to the same company stops working.
/// Recorded as `user.invited` on the address by `actor` in `tenant`'s books.
///
/// Fails with `NotFound` for an unknown company, and `Refused` naming the
/// field `email` when the address is a person of the company already or a
/// person disabled in all of kontor.
pub fn invite(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    new: &NewInvitation,
    now: Timestamp,
) -> Result<Made> {
    let company_id = tenant.company_id.as_str();
    company::get(tx, company_id)?;
    let known: Option<(String, bool)> = tx
        .prepare_cached("SELECT id, disabled_at IS NOT NULL FROM users WHERE email = ?1")?
        .query_row([&new.email], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    if let Some((user_id, disabled)) = known {
        if people::member(tx, company_id, &user_id).is_ok() {
            return Err(Error::refused_at("email", Access::MemberAlready));
        }
        if disabled {
            return Err(Error::refused_at("email", Access::DisabledAddress));
        }
    }
    tx.prepare_cached(
        "DELETE FROM one_time_links
         WHERE kind = 'INVITATION' AND company_id = ?1 AND email = ?2 AND used_at IS NULL",
    )?
    .execute(params![company_id, new.email])?;
    let purpose = Purpose::Invitation {
        name: &new.name,
        role: new.role,
    };
    let made = insert(tx, purpose, company_id, &new.email, actor, now)?;
    audit::record(tx, tenant, actor, Act::UserInvited, &made.email)?;
    Ok(made)
}

/// Makes a password reset link for a person of the tenant's company; an
/// unused earlier reset link of the person stops working. Recorded as
/// `user.reset_link_made` by `actor` in `tenant`'s books.
///
/// Fails with `NotFound` when the person does not belong to the company,
/// and `Refused` when they are disabled there, or when anyone but the
/// system (the console without `--as`) asks for a person who belongs to
/// other companies too.
pub fn reset(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    user_id: &str,
    now: Timestamp,
) -> Result<Made> {
    let company_id = tenant.company_id.as_str();
    let member = people::member(tx, company_id, user_id)?;
    if member.disabled {
        return Err(Error::refused(Access::DisabledNoReset {
            email: member.email.clone(),
        }));
    }
    if !matches!(actor, Actor::System)
        && people::company_ids(tx, user_id)?
            .iter()
            .any(|c| c != company_id)
    {
        return Err(Error::refused(Access::ResetOnConsole {
            email: member.email.clone(),
        }));
    }
    tx.prepare_cached(
        "DELETE FROM one_time_links WHERE kind = 'RESET' AND user_id = ?1 AND used_at IS NULL",
    )?
    .execute([user_id])?;
    let made = insert(
        tx,
        Purpose::Reset { user_id },
        company_id,
        &member.email,
        actor,
        now,
    )?;
    audit::record(tx, tenant, actor, Act::UserResetLinkMade, user_id)?;
    Ok(made)
}

/// The link a token opens, if it still works.
///
/// Fails with `NotFound` for a token kontor does not know (or one a newer
/// link replaced), and `WrongState` for a link used already or older than
/// 24 hours, each saying so.
pub fn open(conn: &Connection, token: &str, now: Timestamp) -> Result<Link> {
    let unknown = || Error::not_found(Said::Record(Record::Link, String::new()));
    if token.len() != 43 {
        return Err(unknown());
    }
    let found = conn
        .prepare_cached(
            "SELECT l.token_hash, l.kind, l.company_id, c.name, l.email, l.name, l.role, l.user_id,
                    l.created_at, l.used_at, u.id
             FROM one_time_links l
             JOIN companies c ON c.id = l.company_id
             LEFT JOIN users u ON u.email = l.email
             WHERE l.token_hash = ?1",
        )?
        .query_row([hash_of(token)], |row| {
            let r = Row::new(row, "one_time_links");
            let kind: LinkKind = r.get(1)?;
            let created: String = r.get(8)?;
            let used: Option<String> = r.get(9)?;
            let user_id: Option<String> = r.get(7)?;
            let known: Option<String> = r.get(10)?;
            Ok((
                Link {
                    kind,
                    company_id: r.get(2)?,
                    company: r.get(3)?,
                    email: r.get(4)?,
                    name: r.get(5)?,
                    role: r.get(6)?,
                    user_id: user_id.or(known),
                    expires_at: String::new(),
                    token_hash: r.get(0)?,
                },
                created,
                used,
            ))
        })
        .optional()?;
    let Some((mut link, created, used)) = found else {
        return Err(unknown());
    };
    if used.is_some() {
        return Err(Error::wrong_state(Access::LinkUsed));
    }
    let created: Timestamp = created
        .parse()
        .map_err(|e| Error::internal(format!("a link's creation time cannot be read: {e}")))?;
    link.expires_at = expiry_of(created);
    if link.expires_at < format_instant(now) {
        return Err(Error::wrong_state(Access::LinkExpired));
    }
    Ok(link)
}

fn used(tx: &Tx, link: &Link, now: Timestamp) -> Result<()> {
    tx.prepare_cached("UPDATE one_time_links SET used_at = ?2 WHERE token_hash = ?1")?
        .execute(params![link.token_hash, format_instant(now)])?;
    Ok(())
}

/// How an invited person joins the company.
#[derive(Debug, Clone)]
pub enum Joining {
    /// A person new to kontor: the name and password they chose.
    New { name: String, password: String },
    /// The person kontor knows by the address, whose own password the
    /// surface has verified.
    Known { user_id: String },
}

/// Uses an invitation: the person belongs to the company with the role it
/// offered; the link works no more. Recorded as `user.joined` by the person
/// in the company's live books.
///
/// Fails as `open` fails (also for a reset's token: `NotFound`), with
/// `Invalid` naming `name` or `password` for a bad name or password of a
/// new person, and `Refused` when the way of joining does not fit the
/// address (it became known, or a known person is not the one verified).
pub fn accept(tx: &Tx, token: &str, joining: Joining, now: Timestamp) -> Result<Member> {
    let link = open(tx, token, now)?;
    let (Some(invited_name), Some(role)) = (&link.name, link.role) else {
        return Err(Error::not_found(Said::Record(Record::Link, String::new())));
    };
    let input = |name: String, password: Option<String>| UserInput {
        company_id: Some(link.company_id.clone()),
        email: Some(link.email.clone()),
        name: Some(name),
        role: Some(role.as_str().to_string()),
        password,
    };
    let member = match (&link.user_id, joining) {
        (None, Joining::New { name, password }) => {
            people::insert_member(tx, &NewMember::check(input(name, Some(password)))?)?
        }
        (Some(known), Joining::Known { user_id }) if *known == user_id => {
            people::insert_member(tx, &NewMember::check(input(invited_name.clone(), None))?)?
        }
        _ => return Err(Error::refused(Access::KnownPerson)),
    };
    used(tx, &link, now)?;
    let joined = Actor::Person {
        id: member.id.clone(),
        email: member.email.clone(),
    };
    let books = Tenant::new(member.company_id.clone(), Environment::Production);
    audit::record(tx, &books, &joined, Act::UserJoined, &member.id)?;
    Ok(member)
}

/// Uses a reset link: the person's password is the new one, every session
/// of theirs ends; the link works no more. Recorded as
/// `user.password_reset` by the person in the link's company's live books.
///
/// Fails as `open` fails (also for an invitation's token: `NotFound`), with
/// `Invalid` naming `password` for a password too short or too long, and
/// `WrongState` when the person was disabled since the link was made.
pub fn use_reset(tx: &Tx, token: &str, password: &str, now: Timestamp) -> Result<Person> {
    let link = open(tx, token, now)?;
    let (LinkKind::Reset, Some(user_id)) = (link.kind, &link.user_id) else {
        return Err(Error::not_found(Said::Record(Record::Link, String::new())));
    };
    let member = people::member(tx, &link.company_id, user_id)?;
    if member.disabled {
        return Err(Error::wrong_state(Access::LinkPersonDisabled));
    }
    let person = people::store_password(tx, &link.email, password)?;
    used(tx, &link, now)?;
    let reset_by = Actor::Person {
        id: person.id.clone(),
        email: person.email.clone(),
    };
    let books = Tenant::new(link.company_id.clone(), Environment::Production);
    audit::record(tx, &books, &reset_by, Act::UserPasswordReset, &person.id)?;
    Ok(person)
}

/// An invitation not yet used and still working.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Pending {
    pub email: String,
    pub name: String,
    pub role: Role,
    pub expires_at: String,
}

/// The company's invitations that still work, newest first.
///
/// Fails only on a storage error.
pub fn pending(conn: &Connection, company_id: &str, now: Timestamp) -> Result<Vec<Pending>> {
    let span = jiff::SignedDuration::try_from(VALID_FOR).unwrap_or(jiff::SignedDuration::ZERO);
    let since = format_instant(now.checked_sub(span).unwrap_or(Timestamp::MIN));
    let mut stmt = conn.prepare_cached(
        "SELECT email, name, role, created_at FROM one_time_links
         WHERE company_id = ?1 AND kind = 'INVITATION' AND used_at IS NULL AND created_at >= ?2
         ORDER BY seq DESC LIMIT 100",
    )?;
    let rows = stmt.query_map(params![company_id, since], |row| {
        let r = Row::new(row, "one_time_links");
        Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get::<String>(3)?))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (email, name, role, created) = row?;
        let created: Timestamp = created
            .parse()
            .map_err(|e| Error::internal(format!("a link's creation time cannot be read: {e}")))?;
        out.push(Pending {
            email,
            name,
            role,
            expires_at: expiry_of(created),
        });
    }
    Ok(out)
}
