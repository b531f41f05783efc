//! A company's mail settings: the SMTP server, its security and login, the
//! sender's address and name, reply-to, the archive copy, CA certificates
//! to trust. The password is sealed (`store::sealed`) before it is stored
//! and opened only to send; what any surface shows is `View`, which says
//! whether a password is set and never holds it.

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::error::said::{Input, Mail};
use crate::error::{Error, Result, Violations};
use crate::outbox::mail::message::{self, Sender, NAME_MAX};
use crate::outbox::mail::reach::MailAllow;
use crate::outbox::mail::transport::{self, Security, Server};
use crate::rules::text;
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::sealed::{SealingKey, Secret};

/// Longest user name and password.
pub const USER_MAX: usize = 200;
pub const PASSWORD_MAX: usize = 500;

/// The settings as a person gives them.
#[derive(Debug, Default, Clone)]
pub struct SettingsInput {
    pub host: Option<String>,
    pub port: Option<String>,
    pub security: Option<String>,
    pub user: Option<String>,
    /// A new password; none keeps the stored one while the user stays.
    pub password: Option<Secret>,
    pub from: Option<String>,
    pub from_name: Option<String>,
    pub reply_to: Option<String>,
    pub bcc: Option<String>,
    /// PEM text of CA certificates; none keeps the stored ones unless
    /// `drop_ca`.
    pub ca_pem: Option<String>,
    pub drop_ca: bool,
    /// Whether an XML e-invoice goes with its PDF (default yes).
    pub pdf_with_xml: Option<bool>,
}

/// Checked settings, ready to store.
#[derive(Debug, Clone)]
pub struct Settings {
    host: String,
    port: u16,
    security: Security,
    user: Option<String>,
    password: Option<Secret>,
    from: String,
    from_name: Option<String>,
    reply_to: Option<String>,
    bcc: Option<String>,
    ca_pem: Option<String>,
    drop_ca: bool,
    pdf_with_xml: bool,
}

impl Settings {
    /// Checks the settings: host for the security (none only on loopback),
    /// a host given as an address public or allowed by `allow`,
    /// port 1–65535 (default the security's), addresses readable, texts
    /// within their limits, the CA file PEM certificates, a password only
    /// with a user.
    ///
    /// Fails with `Invalid` naming every field that is wrong.
    pub fn check(input: SettingsInput, allow: &MailAllow) -> Result<Settings> {
        let mut v = Violations::new();
        let security = match input.security.as_deref().map(str::trim) {
            None | Some("") => {
                v.invalid(
                    "security",
                    Mail::SecurityMissing {
                        values: Security::ALL
                            .iter()
                            .map(|s| s.as_str().to_string())
                            .collect(),
                    },
                );
                None
            }
            Some(s) => match Security::parse(&s.to_ascii_lowercase()) {
                Some(sec) => Some(sec),
                None => {
                    v.invalid("security", Security::not_one_of(s));
                    None
                }
            },
        };
        let host = v
            .take(text::required("host", input.host.as_deref(), 253))?
            .map(|h| h.to_ascii_lowercase());
        if let (Some(h), Some(s)) = (&host, security) {
            if v.take(transport::check_host(h, s))?.is_some() {
                v.take(allow.check_host(h))?;
            }
        }
        let port = match input.port.as_deref().map(str::trim) {
            None | Some("") => security.map(Security::default_port),
            Some(p) => match p.parse::<u16>() {
                Ok(n) if n > 0 => Some(n),
                _ => {
                    v.invalid("port", Mail::NotPort { got: p.to_string() });
                    None
                }
            },
        };
        let user = v
            .take(text::optional("user", blank_none(&input.user), USER_MAX))?
            .flatten();
        let password = input.password.filter(|p| !p.expose().is_empty());
        if let Some(p) = &password {
            if p.expose().chars().count() > PASSWORD_MAX {
                v.invalid("password", Input::TooLong { max: PASSWORD_MAX });
            }
            if user.is_none() {
                v.invalid("password", Mail::PasswordNeedsUser);
            }
        }
        let mut address =
            |field: &str, value: Option<&str>, required: bool| -> Result<Option<String>> {
                match value.map(str::trim).filter(|t| !t.is_empty()) {
                    None if required => {
                        v.invalid(field, Input::Missing);
                        Ok(None)
                    }
                    None => Ok(None),
                    Some(t) => Ok(v.take(message::address(field, t))?.map(|a| a.to_string())),
                }
            };
        let from = address("from", input.from.as_deref(), true)?;
        let reply_to = address("replyTo", input.reply_to.as_deref(), false)?;
        let bcc = address("bcc", input.bcc.as_deref(), false)?;
        let from_name = v
            .take(text::optional(
                "fromName",
                blank_none(&input.from_name),
                NAME_MAX,
            ))?
            .flatten();
        let ca_pem = match input.ca_pem {
            Some(pem) => v.take(transport::check_ca(&pem))?.map(|_| pem),
            None => None,
        };
        v.finish()?;
        let (Some(host), Some(port), Some(security), Some(from)) = (host, port, security, from)
        else {
            return Err(Error::internal("checked settings lack a field"));
        };
        Ok(Settings {
            host,
            port,
            security,
            user,
            password,
            from,
            from_name,
            reply_to,
            bcc,
            ca_pem,
            drop_ca: input.drop_ca,
            pdf_with_xml: input.pdf_with_xml.unwrap_or(true),
        })
    }
}

fn blank_none(value: &Option<String>) -> Option<&str> {
    value.as_deref().filter(|t| !t.trim().is_empty())
}

/// The settings as every surface shows them: no password, only whether one is set.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct View {
    pub host: String,
    pub port: u16,
    pub security: Security,
    pub user: Option<String>,
    pub password_set: bool,
    pub from: String,
    pub from_name: Option<String>,
    pub reply_to: Option<String>,
    pub bcc: Option<String>,
    /// Whether CA certificates of the company's own are trusted.
    pub own_ca: bool,
    /// Whether an XML e-invoice goes with its PDF as a second attachment.
    pub pdf_with_xml: bool,
    pub updated_at: String,
}

/// What the sealed password is bound to.
fn context(company_id: &str) -> String {
    format!("{company_id}/smtp-password")
}

/// Stores `settings` for `company_id`: a new password sealed under `key`;
/// without one, the stored password stays while the user stays the same.
///
/// Fails with `Refused` when a new password cannot be sealed (the key file
/// is unusable), else only on a storage error.
pub fn save(tx: &Tx, company_id: &str, settings: &Settings, key: &SealingKey) -> Result<View> {
    let old: Option<(Option<String>, Option<String>, Option<String>)> = tx
        .query_row(
            "SELECT user, password_sealed, ca_pem FROM mail_settings WHERE company_id = ?1",
            [company_id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?;
    let (old_user, old_sealed, old_ca) = old.unwrap_or((None, None, None));
    let sealed = match (&settings.password, &settings.user) {
        (Some(p), Some(_)) => Some(key.seal(&context(company_id), p)?),
        (None, Some(u)) if old_user.as_deref() == Some(u) => old_sealed,
        _ => None,
    };
    let ca = if settings.drop_ca {
        None
    } else {
        settings.ca_pem.clone().or(old_ca)
    };
    tx.execute(
        "INSERT INTO mail_settings (company_id, host, port, security, user, password_sealed, from_address,
             from_name, reply_to, bcc, ca_pem, updated_at, pdf_with_xml)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
         ON CONFLICT (company_id) DO UPDATE SET host = excluded.host, port = excluded.port,
             security = excluded.security, user = excluded.user, password_sealed = excluded.password_sealed,
             from_address = excluded.from_address, from_name = excluded.from_name,
             reply_to = excluded.reply_to, bcc = excluded.bcc, ca_pem = excluded.ca_pem,
             updated_at = excluded.updated_at, pdf_with_xml = excluded.pdf_with_xml",
        params![
            company_id,
            settings.host,
            settings.port,
            settings.security,
            settings.user,
            sealed,
            settings.from,
            settings.from_name,
            settings.reply_to,
            settings.bcc,
            ca,
            clock::now(),
            settings.pdf_with_xml
        ],
    )?;
    view(tx, company_id)?.ok_or_else(|| Error::internal("mail settings vanished"))
}

const COLUMNS: &str = "host, port, security, user, password_sealed, from_address, from_name, reply_to, bcc, ca_pem, updated_at, pdf_with_xml";

struct Stored {
    view: View,
    sealed: Option<String>,
    ca_pem: Option<String>,
}

fn stored(conn: &Connection, company_id: &str) -> Result<Option<Stored>> {
    Ok(conn
        .query_row(
            &format!("SELECT {COLUMNS} FROM mail_settings WHERE company_id = ?1"),
            [company_id],
            |r| {
                let sealed: Option<String> = r.get(4)?;
                let ca_pem: Option<String> = r.get(9)?;
                let security: String = r.get(2)?;
                Ok(Stored {
                    view: View {
                        host: r.get(0)?,
                        port: r.get(1)?,
                        security: Security::parse(&security).unwrap_or(Security::Tls),
                        user: r.get(3)?,
                        password_set: sealed.is_some(),
                        from: r.get(5)?,
                        from_name: r.get(6)?,
                        reply_to: r.get(7)?,
                        bcc: r.get(8)?,
                        own_ca: ca_pem.is_some(),
                        pdf_with_xml: r.get(11)?,
                        updated_at: r.get(10)?,
                    },
                    sealed,
                    ca_pem,
                })
            },
        )
        .optional()?)
}

/// The company's settings as shown, if it has any.
///
/// Fails only on a storage error.
pub fn view(conn: &Connection, company_id: &str) -> Result<Option<View>> {
    Ok(stored(conn, company_id)?.map(|s| s.view))
}

/// Who the company's mail comes from, and whether an XML e-invoice goes
/// with its PDF: what composing needs (never the password).
///
/// Fails with `Refused` when the company has no mail settings.
pub fn sender(conn: &Connection, company_id: &str) -> Result<(Sender, bool)> {
    let v = view(conn, company_id)?.ok_or_else(no_settings)?;
    Ok((
        Sender {
            address: v.from,
            name: v.from_name,
            reply_to: v.reply_to,
            bcc: v.bcc,
        },
        v.pdf_with_xml,
    ))
}

fn no_settings() -> Error {
    Error::refused(Mail::NoSettings)
}

/// The server to send through and the sender, with the password opened.
///
/// Fails with `Refused` when the company has no mail settings or the
/// password cannot be opened with `key` (the sentence names the key file).
pub fn server(conn: &Connection, company_id: &str, key: &SealingKey) -> Result<(Server, Sender)> {
    let s = stored(conn, company_id)?.ok_or_else(no_settings)?;
    let password = match &s.sealed {
        Some(sealed) => Some(key.open(&context(company_id), sealed)?),
        None => None,
    };
    let v = s.view;
    Ok((
        Server {
            host: v.host,
            port: v.port,
            security: v.security,
            user: v.user,
            password,
            ca_pem: s.ca_pem,
        },
        Sender {
            address: v.from,
            name: v.from_name,
            reply_to: v.reply_to,
            bcc: v.bcc,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input() -> SettingsInput {
        SettingsInput {
            host: Some("Mail.Example.org".into()),
            security: Some("STARTTLS".into()),
            user: Some("rechnung".into()),
            password: Some(Secret::new("pa55")),
            from: Some("rechnung@example.org".into()),
            ..SettingsInput::default()
        }
    }

    #[test]
    fn settings_check_with_the_securitys_port_and_refuse_each_wrong_field() {
        let s = Settings::check(input(), &MailAllow::none()).unwrap();
        assert_eq!(
            (s.host.as_str(), s.port, s.security),
            ("mail.example.org", 587, Security::StartTls)
        );
        let bad = SettingsInput {
            host: Some("mail.example.org".into()),
            port: Some("0".into()),
            security: Some("none".into()),
            user: None,
            password: Some(Secret::new("x")),
            from: Some("nobody".into()),
            bcc: Some("a@b".into()),
            ca_pem: Some("junk".into()),
            ..SettingsInput::default()
        };
        let e = Settings::check(bad, &MailAllow::none()).unwrap_err();
        let fields: Vec<String> = e
            .violations()
            .iter()
            .filter_map(|v| v.field.clone())
            .collect();
        for f in ["security", "port", "password", "from", "caFile"] {
            assert!(fields.iter().any(|x| x == f), "{f} in {fields:?}");
        }
    }
}
