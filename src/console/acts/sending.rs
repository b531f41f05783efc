//! `kontor company mail | mail-text` and `kontor invoice send | sends`: the
//! company's mail settings (owner only; the password read from a file and
//! never printed), its own texts, an issued invoice sent by mail, and the
//! sends of an invoice. The mail goes from the outbox when a `serve` runs
//! on the same data file.

use crate::access::people::Capability;
use crate::books::company;
use crate::books::sending;
use crate::books::tenancy;
use crate::console::acting::{actor, company_books, no_actor, print};
use crate::console::args::{InvoiceSendArgs, InvoiceSendsArgs, MailArgs, MailTextArgs};
use crate::error::{Error, Result};
use crate::outbox::mail::reach::MailAllow;
use crate::outbox::mail::settings::{Settings, SettingsInput};
use crate::outbox::mail::templates::{Purpose, Template};
use crate::rules::locale::Lang;
use crate::store::db::Db;
use crate::store::sealed::{SealingKey, Secret};

/// Most bytes read from a password or CA file.
const FILE_MAX: u64 = 64 * 1024;

/// Reads a small file the settings name.
///
/// Fails with `Invalid` naming `field` when it cannot be read or is too large.
fn small_file(field: &str, path: &std::path::Path) -> Result<String> {
    let bad = |why: String| Error::invalid(field, format!("{}: {why}", path.display()));
    let meta = std::fs::metadata(path).map_err(|e| bad(e.to_string()))?;
    if meta.len() > FILE_MAX {
        return Err(bad(format!("is larger than {} KiB", FILE_MAX / 1024)));
    }
    std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))
}

/// `company mail`: the settings stored; prints them as every surface
/// shows them (whether a password is set, never it), and with
/// `--test-to` the test mail's send.
///
/// Fails as the settings' check fails, or with `Refused` naming `as` when
/// `--as` is no owner of the company.
pub fn mail(db: &Db, key: &SealingKey, args: &MailArgs, acting: Option<&str>) -> Result<()> {
    let password = match &args.password_file {
        Some(path) => {
            let text = small_file("passwordFile", path)?;
            Some(Secret::new(text.lines().next().unwrap_or("").to_string()))
        }
        None => None,
    };
    let ca_pem = match &args.ca_file {
        Some(path) => Some(small_file("caFile", path)?),
        None => None,
    };
    let checked = Settings::check(
        SettingsInput {
            host: Some(args.host.clone()),
            port: args.port.clone(),
            security: Some(args.security.clone()),
            user: args.user.clone(),
            password,
            from: Some(args.from.clone()),
            from_name: args.from_name.clone(),
            reply_to: args.reply_to.clone(),
            bcc: args.bcc.clone(),
            ca_pem,
            drop_ca: false,
            pdf_with_xml: args.pdf_with_xml,
        },
        &MailAllow::parse(&args.mail_allow)?,
    )?;
    let shown = db.write(|tx| {
        let company_id = company::get(tx, &args.company)?.id;
        let actor = actor(tx, acting, &company_id, Capability::ManageSettings)?;
        let books = company_books(&company_id);
        let view = sending::set_settings(tx, &books, &actor, &checked, key)?;
        let test = match &args.test_to {
            Some(to) => Some(sending::send_test(tx, &books, &actor, Some(to))?),
            None => None,
        };
        let mut shown = serde_json::to_value(&view).map_err(Error::internal)?;
        if let Some(test) = test {
            shown["testMail"] = serde_json::to_value(test).map_err(Error::internal)?;
        }
        Ok(shown)
    })?;
    print(&shown);
    Ok(())
}

/// `company mail-text`: the company's own subject and body of one purpose
/// and language; prints them.
///
/// Fails as the texts' check fails, or with `Invalid` naming `purpose`,
/// `language` or `bodyFile`.
pub fn mail_text(db: &Db, args: &MailTextArgs, acting: Option<&str>) -> Result<()> {
    let purpose = Purpose::parse(args.purpose.trim())
        .ok_or_else(|| Error::invalid("purpose", Purpose::not_one_of(&args.purpose)))?;
    let lang = Lang::from_code(args.language.trim())
        .filter(|l| l.code() == args.language.trim())
        .ok_or_else(|| {
            Error::invalid(
                "language",
                crate::error::not_one_of(&Lang::CODES, &args.language),
            )
        })?;
    let texts = Template {
        subject: args.subject.clone(),
        body: small_file("bodyFile", &args.body_file)?,
    };
    let saved = db.write(|tx| {
        let company_id = company::get(tx, &args.company)?.id;
        let actor = actor(tx, acting, &company_id, Capability::ManageSettings)?;
        sending::set_template(
            tx,
            &company_books(&company_id),
            &actor,
            purpose,
            lang,
            &texts,
        )
    })?;
    print(&serde_json::json!({
        "purpose": purpose,
        "language": lang.code(),
        "subject": saved.subject,
        "body": saved.body,
    }));
    Ok(())
}

/// `invoice send`: the invoice written to the mail outbox; prints the send.
///
/// Fails as the books refuse, or with `Refused` naming `as`.
pub fn send(db: &Db, args: &InvoiceSendArgs, acting: Option<&str>) -> Result<()> {
    let send = db.write(|tx| {
        let t = tenancy::tenant(tx, &args.company, args.mode.environment())?;
        let actor = actor(tx, acting, &t.company_id, Capability::Act)?;
        sending::send_invoice(tx, &t, &actor, &args.number, args.to.as_deref())
    })?;
    print(&send);
    Ok(())
}

/// `invoice sends`: the sends of an invoice, oldest first.
///
/// Fails with `NotFound` for an unknown number.
pub fn sends(db: &Db, args: &InvoiceSendsArgs, acting: Option<&str>) -> Result<()> {
    no_actor(acting, "`invoice sends` only reads")?;
    let sends = db.read(|conn| {
        let t = tenancy::tenant(conn, &args.company, args.mode.environment())?;
        sending::sends(conn, &t, &args.number)
    })?;
    print(&sends);
    Ok(())
}
