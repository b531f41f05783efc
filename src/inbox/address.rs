//! The address of a mailbox kontor polls: `imaps://user@host[:port]/FOLDER`
//! (TLS from the first byte, port 993 by default) or, on a loopback address
//! only, `imap://user@host[:port]/FOLDER` (plain, port 143; for a server on
//! the same machine and for tests). The user may be percent-encoded
//! (`bills%40example.com`); the folder defaults to `INBOX`. The password
//! never appears in the address.

use std::net::IpAddr;

use crate::error::{Error, Result};

/// A checked mailbox address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailboxAddress {
    pub tls: bool,
    pub user: String,
    pub host: String,
    pub port: u16,
    pub folder: String,
}

impl MailboxAddress {
    /// Reads a mailbox address.
    ///
    /// Fails with `Invalid` naming `inbox` for another scheme, a missing user
    /// or host, a password in the address, an unreadable port, or `imap://`
    /// to a host that is not a loopback address.
    pub fn parse(text: &str) -> Result<MailboxAddress> {
        let bad = |why: &str| Error::invalid("inbox", why.to_string());
        let (tls, rest) = if let Some(rest) = text.strip_prefix("imaps://") {
            (true, rest)
        } else if let Some(rest) = text.strip_prefix("imap://") {
            (false, rest)
        } else {
            return Err(bad(
                "is imaps://user@host/FOLDER (or imap:// on a loopback address)",
            ));
        };
        let (authority, folder) = rest.split_once('/').unwrap_or((rest, ""));
        let Some((user, host_port)) = authority.rsplit_once('@') else {
            return Err(bad("names no user: write imaps://user@host/FOLDER"));
        };
        if user.contains(':') {
            return Err(bad(
                "carries a password; give it in KONTOR_INBOX_PASSWORD or --inbox-password-file instead",
            ));
        }
        let user = decode(user).ok_or_else(|| bad("has an unreadable user name"))?;
        let (host, port) = match host_port.strip_prefix('[') {
            Some(v6) => {
                let (host, after) = v6
                    .split_once(']')
                    .ok_or_else(|| bad("has an unclosed [ in its host"))?;
                (host.to_string(), after.strip_prefix(':'))
            }
            None => match host_port.rsplit_once(':') {
                Some((host, port)) => (host.to_string(), Some(port)),
                None => (host_port.to_string(), None),
            },
        };
        if user.is_empty() || host.is_empty() {
            return Err(bad("needs a user and a host: imaps://user@host/FOLDER"));
        }
        let port = match port {
            Some(p) => p.parse().map_err(|_| bad("has an unreadable port"))?,
            None if tls => 993,
            None => 143,
        };
        if !tls && !is_loopback(&host) {
            return Err(bad(
                "uses imap:// (no TLS) to a host that is not a loopback address; use imaps://",
            ));
        }
        let folder = decode(folder).ok_or_else(|| bad("has an unreadable folder name"))?;
        Ok(MailboxAddress {
            tls,
            user,
            host,
            port,
            folder: if folder.is_empty() {
                "INBOX".to_string()
            } else {
                folder
            },
        })
    }

    /// The address as it is shown (in the log, a message's channel).
    pub fn shown(&self) -> String {
        format!(
            "{}://{}@{}:{}/{}",
            if self.tls { "imaps" } else { "imap" },
            self.user,
            self.host,
            self.port,
            self.folder
        )
    }
}

fn is_loopback(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// Percent-decodes a URL part; `None` for a bad escape or bytes that are
/// not UTF-8.
fn decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mailbox_addresses_are_read_and_checked() {
        let a = MailboxAddress::parse("imaps://bills%40example.com@mail.example.com/Rechnungen")
            .unwrap();
        assert_eq!(
            (
                a.tls,
                a.user.as_str(),
                a.host.as_str(),
                a.port,
                a.folder.as_str()
            ),
            (
                true,
                "bills@example.com",
                "mail.example.com",
                993,
                "Rechnungen"
            )
        );
        let b = MailboxAddress::parse("imap://kontor@127.0.0.1:10143").unwrap();
        assert_eq!((b.tls, b.port, b.folder.as_str()), (false, 10143, "INBOX"));
        assert!(MailboxAddress::parse("imap://u@[::1]:143/INBOX").is_ok());
        for bad in [
            "imap://u@mail.example.com/INBOX",
            "imaps://u:secret@mail.example.com/INBOX",
            "imaps://mail.example.com/INBOX",
            "pop3://u@mail.example.com",
            "imaps://u@host:port/INBOX",
        ] {
            assert!(MailboxAddress::parse(bad).is_err(), "{bad}");
        }
    }
}
