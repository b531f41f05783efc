//! `kontor user create | list | disable | enable | role | password | reset |
//! two-factor reset`:
//! the people who use the screens, their roles in a company, their
//! passwords, one-time reset links and second factors. An act within a company is recorded
//! there, naming who acts; an act across kontor (disabling a person
//! everywhere, setting a password) is the operator's, recorded as the
//! system's in every company the person belongs to.

use serde_json::json;

use crate::access::links;
use crate::access::people::{self, Capability, Member};
use crate::access::two_factor;
use crate::books::audit::Actor;
use crate::books::company;
use crate::console::acting::{actor, company_books, no_actor, print};
use crate::console::args::{TwoFactorCommand, UserCommand, UserCreateArgs};
use crate::error::{Error, Result};
use crate::store::db::Db;

/// Runs a `user` command.
///
/// Fails as the books refuse the command, or with `Refused` naming `as`
/// when `--as` may not manage the company's people.
pub fn run(db: &Db, cmd: &UserCommand, acting: Option<&str>) -> Result<()> {
    match cmd {
        UserCommand::Create(args) => print(&create(db, args, acting)?),
        UserCommand::List { company } => {
            no_actor(acting, "`user list` only reads")?;
            print(&db.read(|conn| people::list(conn, company))?)
        }
        UserCommand::Disable {
            email,
            company: Some(company),
        } => print(&on_member(db, acting, company, email, Change::Disable)?),
        UserCommand::Disable {
            email,
            company: None,
        } => disable_everywhere(db, acting, email)?,
        UserCommand::Enable { email, company } => {
            print(&on_member(db, acting, company, email, Change::Enable)?)
        }
        UserCommand::Role {
            company,
            email,
            role,
        } => {
            let change = Change::Role(people::Role::read(role)?);
            print(&on_member(db, acting, company, email, change)?)
        }
        UserCommand::Password { email, .. } => set_password(db, acting, email)?,
        UserCommand::TwoFactor(TwoFactorCommand::Reset { company, email }) => {
            reset_two_factor(db, acting, company, email)?
        }
        UserCommand::Reset {
            company,
            email,
            public_url,
        } => reset(db, acting, company, email, public_url.as_deref())?,
    }
    Ok(())
}

/// `user create`: a person added to a company (a person new to kontor with
/// the password read from standard input).
fn create(db: &Db, args: &UserCreateArgs, acting: Option<&str>) -> Result<Member> {
    let company = &args.company;
    let password = args.password_stdin.then(password_from_stdin).transpose()?;
    let new = people::NewMember::check(people::UserInput {
        company_id: Some(company.clone()),
        email: Some(args.email.clone()),
        name: Some(args.name.clone()),
        role: Some(args.role.clone()),
        password,
    })?;
    db.write(|tx| {
        company::get(tx, company)?;
        let actor = actor(tx, acting, company, Capability::ManageUsers)?;
        people::add(tx, &company_books(company), &actor, &new)
    })
}

/// What `disable`, `enable` and `role` change of a person of a company.
enum Change {
    Disable,
    Enable,
    Role(people::Role),
}

/// `user disable | enable | role` with `--company`: the person of `company`
/// with `email` changed by a person who may manage the company's people.
fn on_member(
    db: &Db,
    acting: Option<&str>,
    company: &str,
    email: &str,
    change: Change,
) -> Result<Member> {
    db.write(|tx| {
        company::get(tx, company)?;
        let actor = actor(tx, acting, company, Capability::ManageUsers)?;
        let id = people::member_by_email(tx, company, email)?.id;
        let books = company_books(company);
        match change {
            Change::Disable => people::disable_in(tx, &books, &actor, &id),
            Change::Enable => people::enable_in(tx, &books, &actor, &id),
            Change::Role(role) => people::set_role(tx, &books, &actor, &id, role),
        }
    })
}

/// `user disable` without `--company`: the person signs in nowhere.
fn disable_everywhere(db: &Db, acting: Option<&str>, email: &str) -> Result<()> {
    no_actor(
        acting,
        "`user disable` without --company acts across kontor; name the company",
    )?;
    let person = db.write(|tx| people::disable(tx, &Actor::System, email))?;
    print(&json!({ "id": person.id, "email": person.email, "disabled": true }));
    Ok(())
}

/// `user password`: the person's password, read from standard input.
fn set_password(db: &Db, acting: Option<&str>, email: &str) -> Result<()> {
    no_actor(
        acting,
        "`user password` acts across kontor; use `user reset --company` to act as an owner",
    )?;
    let password = password_from_stdin()?;
    let person = db.write(|tx| people::set_password(tx, &Actor::System, email, &password))?;
    print(&json!({ "id": person.id, "email": person.email, "passwordChanged": true }));
    Ok(())
}

/// `user reset`: a one-time link that sets the person's password, printed
/// as its path (and, with `--public-url`, the whole link).
fn reset(
    db: &Db,
    acting: Option<&str>,
    company: &str,
    email: &str,
    public_url: Option<&str>,
) -> Result<()> {
    let base = match public_url {
        Some(url) => Some(crate::http::screens::origin_of(url).ok_or_else(|| {
            Error::invalid(
                "publicUrl",
                "is not an address such as https://books.example.com",
            )
        })?),
        None => None,
    };
    let made = db.write(|tx| {
        company::get(tx, company)?;
        let actor = actor(tx, acting, company, Capability::ManageUsers)?;
        let member = people::member_by_email(tx, company, email)?;
        let books = company_books(company);
        links::reset(tx, &books, &actor, &member.id, jiff::Timestamp::now())
    })?;
    let path = crate::http::screens::link_path(made.kind, &made.token);
    let mut out = json!({
        "email": made.email,
        "path": path,
        "expiresAt": made.expires_at,
    });
    if let Some(base) = base {
        out["url"] = json!(format!("{base}{path}"));
    }
    print(&out);
    Ok(())
}

/// `user two-factor reset`: the person's second factors gone, their
/// sessions ended; the console without `--as` may reset a person of
/// several companies, an owner named by `--as` only one of theirs alone.
fn reset_two_factor(db: &Db, acting: Option<&str>, company: &str, email: &str) -> Result<()> {
    let member = db.write(|tx| {
        company::get(tx, company)?;
        let actor = actor(tx, acting, company, Capability::ManageUsers)?;
        let id = people::member_by_email(tx, company, email)?.id;
        two_factor::reset(tx, &company_books(company), &actor, &id)
    })?;
    print(&json!({ "id": member.id, "email": member.email, "twoFactorReset": true }));
    Ok(())
}

/// The first line of standard input, without its line ending.
///
/// Fails with `Invalid` naming `password` when nothing can be read.
fn password_from_stdin() -> Result<String> {
    let mut line = String::new();
    std::io::stdin()
        .read_line(&mut line)
        .map_err(|_| Error::invalid("password", "cannot be read from standard input"))?;
    Ok(line.trim_end_matches(['\n', '\r']).to_string())
}
