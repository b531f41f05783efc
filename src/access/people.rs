//! The people who use the screens: a person (e-mail, name, password hash,
//! language), their membership in companies with one role in each, and what
//! each role may do. A person may belong to several companies (a tax
//! adviser); a disabled person signs in nowhere and their sessions end. An
//! owner manages the people of their own company only: a person's role
//! there, or their membership disabled there (their other companies keep
//! them); a company always keeps one enabled owner.

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::access::passwords;
use crate::books::audit::{self, Act, Actor};
use crate::books::company;
use crate::error::said::{Access, Input, Record};
use crate::error::{Error, Result, Said, Violations};
use crate::rules::locale::Lang;
use crate::rules::text;
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::paging::{Page, Paging};
use crate::store::row::Row;
use crate::store::tenant::{Environment, Tenant};
use crate::stored_enum;

stored_enum! {
    /// A person's role in one company.
    pub enum Role {
        Owner = "OWNER",
        Accountant = "ACCOUNTANT",
        Viewer = "VIEWER",
        /// The company's tax adviser: sees everything and makes the exports.
        Adviser = "ADVISER",
    }
}

/// What a person may do in a company; the one table of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capability {
    /// See the books.
    See,
    /// Perform acts on the books (customers, drafts, payments, …).
    Act,
    /// Manage the company's people.
    ManageUsers,
    /// Change the company's settings.
    ManageSettings,
    /// API keys and webhook endpoints.
    ManageDevelopers,
    /// Make and download the exports for the tax adviser (DATEV, GoBD).
    Export,
}

impl Role {
    /// Reads `owner`, `accountant`, `viewer` or `adviser` (any case).
    ///
    /// Fails with `Invalid` naming the field `role` for anything else.
    pub fn read(text: &str) -> Result<Role> {
        Role::parse(&text.trim().to_ascii_uppercase()).ok_or_else(|| {
            let spellings: Vec<String> = Role::ALL
                .iter()
                .map(|r| r.as_str().to_ascii_lowercase())
                .collect();
            let spellings: Vec<&str> = spellings.iter().map(String::as_str).collect();
            Error::invalid("role", crate::error::not_one_of(&spellings, text))
        })
    }

    /// Whether this role may do `what`: a viewer sees everything and acts on
    /// nothing; an adviser sees everything and makes and downloads the
    /// exports, nothing else; an accountant acts; an owner also manages
    /// people, settings and developer settings.
    pub fn may(self, what: Capability) -> bool {
        match what {
            Capability::See => true,
            Capability::Export => matches!(self, Role::Owner | Role::Accountant | Role::Adviser),
            Capability::Act => matches!(self, Role::Owner | Role::Accountant),
            Capability::ManageUsers | Capability::ManageSettings | Capability::ManageDevelopers => {
                self == Role::Owner
            }
        }
    }
}

/// A person as a caller gives them: text as given.
#[derive(Debug, Default, Clone)]
pub struct UserInput {
    pub company_id: Option<String>,
    pub email: Option<String>,
    pub name: Option<String>,
    pub role: Option<String>,
    /// Only for a person new to kontor.
    pub password: Option<String>,
}

/// A checked person to add to a company.
#[derive(Debug, Clone)]
pub struct NewMember {
    company_id: String,
    email: String,
    name: String,
    role: Role,
    password: Option<String>,
}

/// The longest e-mail address of a person (characters).
pub const MAX_EMAIL: usize = 254;

/// An e-mail address as stored: trimmed, lower case, shaped like an address.
///
/// Fails with `Invalid` naming the field `email`.
pub fn check_email(email: Option<&str>) -> Result<String> {
    let email = text::required("email", email, MAX_EMAIL)?.to_lowercase();
    if !text::email_shaped(&email) {
        return Err(Error::invalid("email", Input::NotEmail));
    }
    Ok(email)
}

impl NewMember {
    /// Checks a person to add: company, e-mail, name (1–200 characters) and
    /// role are required; a password, when given, has 10 characters or more.
    ///
    /// Fails with `Invalid` naming every bad field.
    pub fn check(input: UserInput) -> Result<NewMember> {
        let mut v = Violations::new();
        let company_id = v.take(text::required("company", input.company_id.as_deref(), 100))?;
        let email = v.take(check_email(input.email.as_deref()))?;
        let name = v.take(text::required("name", input.name.as_deref(), 200))?;
        let role = match input.role.as_deref() {
            Some(r) => v.take(Role::read(r))?,
            None => v.take(Err(Error::invalid("role", Input::Missing)))?,
        };
        if let Some(p) = input.password.as_deref() {
            v.take(passwords::check_new(p))?;
        }
        v.finish()?;
        match (company_id, email, name, role) {
            (Some(company_id), Some(email), Some(name), Some(role)) => Ok(NewMember {
                company_id,
                email,
                name,
                role,
                password: input.password,
            }),
            _ => Err(Error::internal("a checked person lacks a field")),
        }
    }
}

/// A person of a company, as lists show them (never the password hash).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Member {
    pub id: String,
    pub email: String,
    pub name: String,
    pub role: Role,
    pub company_id: String,
    /// Disabled in kontor or in this company: signs in to it no more.
    pub disabled: bool,
    pub created_at: String,
}

/// A person as a session knows them.
#[derive(Debug, Clone)]
pub struct Person {
    pub id: String,
    pub email: String,
    pub name: String,
    pub locale: Option<Lang>,
}

/// One company a person belongs to, with the role there.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Membership {
    pub company_id: String,
    pub company: String,
    pub role: Role,
}

fn user_id_of(conn: &Connection, email: &str) -> Result<Option<String>> {
    Ok(conn
        .prepare_cached("SELECT id FROM users WHERE email = ?1")?
        .query_row([email], |r| r.get(0))
        .optional()?)
}

/// Adds a person to a company with a role. A person new to kontor needs a
/// password (it is hashed here); one who exists already (another company's
/// person) keeps theirs and must not be given one. Recorded as `user.added`
/// by `actor` in `tenant`'s books (the company's).
///
/// Fails with `NotFound` for an unknown company, `Invalid` naming `password`
/// when a new person has none or a known one is given one, and `Refused`
/// when the person belongs to the company already.
pub fn add(tx: &Tx, tenant: &Tenant, actor: &Actor, new: &NewMember) -> Result<Member> {
    if tenant.company_id != new.company_id {
        return Err(Error::internal(
            "a person is recorded in another company's books",
        ));
    }
    let member = insert_member(tx, new)?;
    audit::record(tx, tenant, actor, Act::UserAdded, &member.id)?;
    Ok(member)
}

/// Adds a person to a company with a role, as `add` does, unrecorded: part
/// of an act that records itself (joining by invitation).
///
/// Fails as `add` fails.
pub(super) fn insert_member(tx: &Tx, new: &NewMember) -> Result<Member> {
    company::get(tx, &new.company_id)?;
    let now = clock::now();
    let user_id = match (user_id_of(tx, &new.email)?, &new.password) {
        (Some(_), Some(_)) => return Err(Error::invalid("password", Access::PasswordNotTaken)),
        (Some(id), None) => id,
        (None, None) => return Err(Error::invalid("password", Access::PasswordNeeded)),
        (None, Some(password)) => {
            let id = ids::new_id("usr");
            tx.prepare_cached(
                "INSERT INTO users (id, email, name, password_hash, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![id, new.email, new.name, passwords::hash(password)?, now])?;
            id
        }
    };
    let added = tx
        .prepare_cached(
            "INSERT INTO memberships (user_id, company_id, role, created_at) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT DO NOTHING",
        )?
        .execute(params![user_id, new.company_id, new.role, now])?;
    if added == 0 {
        return Err(Error::refused(Access::BelongsAlready {
            email: new.email.clone(),
            company: new.company_id.clone(),
        }));
    }
    member(tx, &new.company_id, &user_id)
}

const MEMBER_COLUMNS: &str = "u.id, u.email, u.name, m.role, m.company_id,
     u.disabled_at IS NOT NULL OR m.disabled_at IS NOT NULL, u.created_at";

fn member_from_row(row: &rusqlite::Row) -> rusqlite::Result<Member> {
    let r = Row::new(row, "users");
    Ok(Member {
        id: r.get(0)?,
        email: r.get(1)?,
        name: r.get(2)?,
        role: r.get(3)?,
        company_id: r.get(4)?,
        disabled: r.get(5)?,
        created_at: r.get(6)?,
    })
}

/// A person of a company, by id.
///
/// Fails with `NotFound` when the person does not belong to that company
/// (another company's person is not found).
pub fn member(conn: &Connection, company_id: &str, user_id: &str) -> Result<Member> {
    conn.prepare_cached(&format!(
        "SELECT {MEMBER_COLUMNS} FROM memberships m JOIN users u ON u.id = m.user_id
         WHERE m.company_id = ?1 AND m.user_id = ?2"
    ))?
    .query_row([company_id, user_id], member_from_row)
    .optional()?
    .ok_or_else(|| Error::not_found(Said::Record(Record::Person, user_id.to_string())))
}

/// The people of a company, in the order they were added.
///
/// Fails with `NotFound` for an unknown company.
pub fn list(conn: &Connection, company_id: &str) -> Result<Vec<Member>> {
    company::get(conn, company_id)?;
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {MEMBER_COLUMNS} FROM memberships m JOIN users u ON u.id = m.user_id
         WHERE m.company_id = ?1 ORDER BY m.created_at, u.seq"
    ))?;
    let rows = stmt.query_map([company_id], member_from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// One page of the people of a company, in the order they were added.
///
/// Fails with `NotFound` for an unknown company.
pub fn page(conn: &Connection, company_id: &str, paging: Paging) -> Result<Page<Member>> {
    company::get(conn, company_id)?;
    let total: i64 = conn
        .prepare_cached("SELECT count(*) FROM memberships WHERE company_id = ?1")?
        .query_row([company_id], |r| r.get(0))?;
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {MEMBER_COLUMNS} FROM memberships m JOIN users u ON u.id = m.user_id
         WHERE m.company_id = ?1 ORDER BY m.created_at, u.seq {} OFFSET ?2",
        crate::store::paging::PAGE_LIMIT_SQL
    ))?;
    let rows = stmt.query_map(params![company_id, paging.offset()], member_from_row)?;
    let mut data = Vec::new();
    for row in rows.take(paging.size as usize) {
        data.push(row?);
    }
    Ok(paging.envelope(data, total))
}

/// The person of a company with this e-mail address.
///
/// Fails with `NotFound` when no person of the company has it.
pub fn member_by_email(conn: &Connection, company_id: &str, email: &str) -> Result<Member> {
    let email = check_email(Some(email))?;
    match user_id_of(conn, &email)? {
        Some(id) => member(conn, company_id, &id).map_err(|_| {
            Error::not_found(Said::RecordOf(
                Record::Person,
                email.to_string(),
                Record::Company,
                company_id.to_string(),
            ))
        }),
        None => Err(Error::not_found(Said::RecordOf(
            Record::Person,
            email.to_string(),
            Record::Company,
            company_id.to_string(),
        ))),
    }
}

/// How many enabled owners a company has, not counting `except`.
fn other_owners(conn: &Connection, company_id: &str, except: &str) -> Result<i64> {
    Ok(conn
        .prepare_cached(
            "SELECT count(*) FROM memberships m JOIN users u ON u.id = m.user_id
             WHERE m.company_id = ?1 AND m.user_id <> ?2 AND m.role = 'OWNER'
               AND m.disabled_at IS NULL AND u.disabled_at IS NULL",
        )?
        .query_row([company_id, except], |r| r.get(0))?)
}

/// Refuses to leave a company without an enabled owner.
fn keeps_an_owner(conn: &Connection, member: &Member, disabling: bool) -> Result<()> {
    if member.role == Role::Owner
        && !member.disabled
        && other_owners(conn, &member.company_id, &member.id)? == 0
    {
        let email = member.email.clone();
        return Err(Error::refused(if disabling {
            Access::OnlyOwnerDisabled { email }
        } else {
            Access::OnlyOwnerRole { email }
        }));
    }
    Ok(())
}

/// Gives a person of a company another role there; their sessions in that
/// company carry it from the next request on. Their other companies keep
/// theirs.
///
/// Recorded as `user.role_changed` by `actor` in `tenant`'s books.
///
/// Fails with `NotFound` when the person does not belong to the tenant's
/// company, and `Refused` when the company's only enabled owner would
/// become something else.
pub fn set_role(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    user_id: &str,
    role: Role,
) -> Result<Member> {
    let company_id = tenant.company_id.as_str();
    let current = member(tx, company_id, user_id)?;
    if role != Role::Owner {
        keeps_an_owner(tx, &current, false)?;
    }
    change_membership(tx, tenant, actor, user_id, MembershipChange::Role(role))
}

/// A change to a person's membership of a company, each recorded as its act.
enum MembershipChange {
    Role(Role),
    Disabled,
    Enabled,
}

/// Writes `change` to the person's membership of the tenant's company,
/// records its act by `actor` in the tenant's books, and reads the person
/// back. A person disabled twice keeps the time of the first.
///
/// Fails only on a storage error.
fn change_membership(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    user_id: &str,
    change: MembershipChange,
) -> Result<Member> {
    let (set, value, act) = match change {
        MembershipChange::Role(role) => (
            "role = ?3",
            Some(role.as_str().to_string()),
            Act::UserRoleChanged,
        ),
        MembershipChange::Disabled => (
            "disabled_at = coalesce(disabled_at, ?3)",
            Some(clock::now()),
            Act::UserDisabled,
        ),
        MembershipChange::Enabled => ("disabled_at = ?3", None, Act::UserEnabled),
    };
    let company_id = tenant.company_id.as_str();
    tx.execute(
        &format!("UPDATE memberships SET {set} WHERE company_id = ?1 AND user_id = ?2"),
        params![company_id, user_id, value],
    )?;
    audit::record(tx, tenant, actor, act, user_id)?;
    member(tx, company_id, user_id)
}

/// Disables a person in one company: no session shows that company to
/// them any more (theirs there end now); their other companies keep them.
/// Disabling twice is harmless. Recorded as `user.disabled` by `actor` in
/// `tenant`'s books.
///
/// Fails with `NotFound` when the person does not belong to the tenant's
/// company, and `Refused` for the company's only enabled owner.
pub fn disable_in(tx: &Tx, tenant: &Tenant, actor: &Actor, user_id: &str) -> Result<Member> {
    let company_id = tenant.company_id.as_str();
    let current = member(tx, company_id, user_id)?;
    keeps_an_owner(tx, &current, true)?;
    tx.execute(
        "DELETE FROM sessions WHERE company_id = ?1 AND user_id = ?2",
        params![company_id, user_id],
    )?;
    change_membership(tx, tenant, actor, user_id, MembershipChange::Disabled)
}

/// Enables a person disabled in one company again (not one disabled in
/// all of kontor: `user disable` without a company is the operator's).
/// Recorded as `user.enabled` by `actor` in `tenant`'s books.
///
/// Fails with `NotFound` when the person does not belong to the tenant's
/// company.
pub fn enable_in(tx: &Tx, tenant: &Tenant, actor: &Actor, user_id: &str) -> Result<Member> {
    member(tx, &tenant.company_id, user_id)?;
    change_membership(tx, tenant, actor, user_id, MembershipChange::Enabled)
}

/// The person a console act names with `--as`: an enabled person of the
/// company whose role there may do `what`, as the audit records them.
///
/// Fails with `Refused` naming the field `as` when the address is no
/// enabled person of the company or their role may not do `what`.
pub fn acting(conn: &Connection, company_id: &str, email: &str, what: Capability) -> Result<Actor> {
    let found = member_by_email(conn, company_id, email);
    let member = match found {
        Ok(member) if !member.disabled => member,
        Ok(_) | Err(Error::NotFound(_)) | Err(Error::Invalid(_)) => {
            return Err(Error::refused_at(
                "as",
                Access::NotAPerson {
                    email: email.trim().to_string(),
                    company: company_id.to_string(),
                },
            ))
        }
        Err(e) => return Err(e),
    };
    if !member.role.may(what) {
        return Err(Error::refused_at(
            "as",
            Access::RoleDoesNotAllow {
                email: member.email.clone(),
                company: company_id.to_string(),
                role: member.role.as_str().to_lowercase(),
            },
        ));
    }
    Ok(Actor::Person {
        id: member.id,
        email: member.email,
    })
}

/// The companies a person belongs to (disabled there or not), by id.
///
/// Fails only on a storage error.
pub fn company_ids(conn: &Connection, user_id: &str) -> Result<Vec<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT company_id FROM memberships WHERE user_id = ?1 ORDER BY created_at",
    )?;
    let rows = stmt.query_map([user_id], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The id of the person with this e-mail address.
///
/// Fails with `NotFound` when there is none.
pub fn id_by_email(conn: &Connection, email: &str) -> Result<String> {
    let email = check_email(Some(email))?;
    user_id_of(conn, &email)?
        .ok_or_else(|| Error::not_found(Said::Record(Record::Person, email.to_string())))
}

/// Disables a person: they sign in nowhere and every session of theirs ends.
/// Disabling twice is harmless. An act of the operator across kontor:
/// recorded as `user.disabled` by `actor` in the live books of every
/// company the person belongs to.
///
/// Fails with `NotFound` for an unknown e-mail address.
pub fn disable(tx: &Tx, actor: &Actor, email: &str) -> Result<Person> {
    let id = id_by_email(tx, email)?;
    tx.execute(
        "UPDATE users SET disabled_at = coalesce(disabled_at, ?2) WHERE id = ?1",
        params![id, clock::now()],
    )?;
    tx.execute("DELETE FROM sessions WHERE user_id = ?1", [&id])?;
    record_everywhere(tx, actor, Act::UserDisabled, &id)?;
    person(tx, &id)
}

/// Sets a person's password; every session of theirs ends (a changed
/// password signs everyone out who knew the old one). An act of the
/// operator across kontor: recorded as `user.password_set` by `actor` in
/// the live books of every company the person belongs to.
///
/// Fails with `NotFound` for an unknown e-mail address and `Invalid` naming
/// `password` for a password too short or too long.
pub fn set_password(tx: &Tx, actor: &Actor, email: &str, password: &str) -> Result<Person> {
    let person = store_password(tx, email, password)?;
    record_everywhere(tx, actor, Act::UserPasswordSet, &person.id)?;
    Ok(person)
}

/// Records an act on a person in the live books of every company they
/// belong to (an act of the operator across kontor).
fn record_everywhere(tx: &Tx, actor: &Actor, act: Act, user_id: &str) -> Result<()> {
    for company_id in company_ids(tx, user_id)? {
        let books = Tenant::new(company_id, Environment::Production);
        audit::record(tx, &books, actor, act, user_id)?;
    }
    Ok(())
}

/// Sets a person's password, as `set_password` does, unrecorded: part of
/// an act that records itself (a reset by link).
///
/// Fails as `set_password` fails.
pub(super) fn store_password(tx: &Tx, email: &str, password: &str) -> Result<Person> {
    passwords::check_new(password)?;
    let id = id_by_email(tx, email)?;
    tx.execute(
        "UPDATE users SET password_hash = ?2 WHERE id = ?1",
        params![id, passwords::hash(password)?],
    )?;
    tx.execute("DELETE FROM sessions WHERE user_id = ?1", [&id])?;
    person(tx, &id)
}

/// Sets the language a person's screens use (`None`: the browser's).
///
/// Fails only on a storage error.
pub fn set_locale(tx: &Tx, user_id: &str, locale: Option<Lang>) -> Result<()> {
    tx.execute(
        "UPDATE users SET locale = ?2 WHERE id = ?1",
        params![user_id, locale.map(Lang::code)],
    )?;
    Ok(())
}

fn person_from_row(row: &rusqlite::Row) -> rusqlite::Result<Person> {
    let r = Row::new(row, "users");
    let locale: Option<String> = r.get(3)?;
    Ok(Person {
        id: r.get(0)?,
        email: r.get(1)?,
        name: r.get(2)?,
        locale: locale.as_deref().and_then(Lang::from_code),
    })
}

/// A person by id.
///
/// Fails with `NotFound` when there is none.
pub fn person(conn: &Connection, id: &str) -> Result<Person> {
    conn.prepare_cached("SELECT id, email, name, locale FROM users WHERE id = ?1")?
        .query_row([id], person_from_row)
        .optional()?
        .ok_or_else(|| Error::not_found(Said::Record(Record::Person, id.to_string())))
}

/// What a sign-in needs of an account: its id and password hash, if the
/// account exists and is not disabled.
///
/// Fails only on a storage error.
pub fn credentials(conn: &Connection, email: &str) -> Result<Option<(String, String)>> {
    Ok(conn
        .prepare_cached(
            "SELECT id, password_hash FROM users WHERE email = ?1 AND disabled_at IS NULL",
        )?
        .query_row([email.trim().to_lowercase()], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .optional()?)
}

/// The companies a person belongs to and is enabled in, by company name.
///
/// Fails only on a storage error.
pub fn memberships(conn: &Connection, user_id: &str) -> Result<Vec<Membership>> {
    let mut stmt = conn.prepare_cached(
        "SELECT m.company_id, c.name, m.role FROM memberships m JOIN companies c ON c.id = m.company_id
         WHERE m.user_id = ?1 AND m.disabled_at IS NULL ORDER BY c.name, c.seq",
    )?;
    let rows = stmt.query_map([user_id], |row| {
        let r = Row::new(row, "memberships");
        Ok(Membership {
            company_id: r.get(0)?,
            company: r.get(1)?,
            role: r.get(2)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_and_what_they_may_do() {
        use Capability::*;
        for role in Role::ALL {
            assert!(role.may(See));
        }
        assert!(!Role::Viewer.may(Act));
        assert!(Role::Accountant.may(Act));
        assert!(!Role::Accountant.may(ManageUsers));
        assert!(!Role::Accountant.may(ManageDevelopers));
        assert!(Role::Owner.may(ManageUsers) && Role::Owner.may(ManageSettings));
        assert!(Role::Adviser.may(Export) && !Role::Adviser.may(Act));
        assert!(!Role::Viewer.may(Export) && Role::Accountant.may(Export));
        assert_eq!(Role::read(" Viewer ").unwrap(), Role::Viewer);
        assert_eq!(
            Role::read("boss").unwrap_err().sentence(),
            "The field role is owner, accountant, viewer or adviser, not \"boss\"."
        );
    }
}
