//! The SMTP server a company sends through, and one attempt to hand it a
//! message. Security is one of three: implicit TLS (usually port 465),
//! STARTTLS required (usually 587: a server that does not offer it is not
//! sent to), or none, allowed only for a relay on this machine's loopback.
//! TLS is rustls, trusting the system's certificate store and, when the
//! company gave one, its own CA certificates. Each attempt connects afresh
//! with a time limit on every step, so a hanging server costs one sender
//! its time limit and nothing else.
//!
//! An attempt ends `Sent` (2xx: the server's reply kept), `Temporary`
//! (a 4xx reply, a time-out, a refused or broken connection, a TLS or
//! authentication failure: tried again later, with whatever settings hold
//! then) or `Permanent` (a 5xx reply: not tried again). No reply or error
//! sentence carries the password: `scrub` takes it, and its base64 forms
//! as AUTH sends them, out of every text kept.

use std::net::IpAddr;
use std::time::Duration;

use base64::Engine;
use lettre::address::Envelope;
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::{SmtpTransport, Transport};

use crate::error::said::{Input, Mail};
use crate::error::{Error, Result};
use crate::outbox::mail::reach::MailAllow;
use crate::store::sealed::Secret;

crate::stored_enum! {
    /// How the connection to the server is protected.
    pub enum Security {
        /// TLS from the first byte (SMTPS, port 465).
        Tls = "tls",
        /// STARTTLS, required (submission, port 587).
        StartTls = "starttls",
        /// No encryption: a relay on loopback only.
        None = "none",
    }
}

impl Security {
    /// The usual port of the security.
    pub fn default_port(self) -> u16 {
        match self {
            Security::Tls => 465,
            Security::StartTls => 587,
            Security::None => 25,
        }
    }
}

/// Most bytes of CA certificates a company may give.
pub const CA_MAX: usize = 64 * 1024;

/// Whether `host` names this machine's loopback: `localhost` or a
/// loopback address.
pub fn is_loopback(host: &str) -> bool {
    let h = host.trim_start_matches('[').trim_end_matches(']');
    h.eq_ignore_ascii_case("localhost") || h.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// Checks a host for `security`.
///
/// Fails with `Invalid` naming `host` when it is empty or not a host name
/// or address, or `security` when it is none and the host is not loopback.
pub fn check_host(host: &str, security: Security) -> Result<()> {
    let ok = !host.is_empty()
        && host.len() <= 253
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(c));
    if !ok {
        return Err(Error::invalid(
            "host",
            Input::NotHost {
                got: host.to_string(),
            },
        ));
    }
    if security == Security::None && !is_loopback(host) {
        return Err(Error::invalid("security", Mail::NoneOnlyLoopback));
    }
    Ok(())
}

/// Checks PEM text of CA certificates.
///
/// Fails with `Invalid` naming `caFile` when it is too large or holds no
/// certificate lettre can read.
pub fn check_ca(pem: &str) -> Result<()> {
    if pem.len() > CA_MAX {
        return Err(Error::invalid(
            "caFile",
            Input::LargerThanKib { kib: CA_MAX / 1024 },
        ));
    }
    if !pem.contains("-----BEGIN CERTIFICATE-----")
        || Certificate::from_pem(pem.as_bytes()).is_err()
    {
        return Err(Error::invalid("caFile", Mail::NoPem));
    }
    Ok(())
}

/// The server and the login of a company.
#[derive(Debug, Clone)]
pub struct Server {
    pub host: String,
    pub port: u16,
    pub security: Security,
    pub user: Option<String>,
    pub password: Option<Secret>,
    pub ca_pem: Option<String>,
}

/// What one attempt came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The server took the message; its reply.
    Sent { reply: String },
    /// Try again later.
    Temporary {
        reply: Option<String>,
        error: String,
    },
    /// Do not try again.
    Permanent { reply: String, error: String },
}

/// `text` with the password and the base64 forms AUTH PLAIN and LOGIN
/// send it in replaced by dots.
pub fn scrub(text: &str, server: &Server) -> String {
    let Some(password) = &server.password else {
        return text.to_string();
    };
    let secret = password.expose();
    if secret.is_empty() {
        return text.to_string();
    }
    let user = server.user.as_deref().unwrap_or("");
    let b64 = base64::engine::general_purpose::STANDARD;
    let forms = [
        secret.to_string(),
        b64.encode(secret),
        b64.encode(format!("\0{user}\0{secret}")),
    ];
    let mut out = text.to_string();
    for form in forms {
        out = out.replace(&form, "••••••");
    }
    out
}

/// A transport to `server`, connecting to `address` (the server's host as
/// resolved and checked) and verifying TLS against the host's name.
fn transport(
    server: &Server,
    address: IpAddr,
    limit: Duration,
) -> std::result::Result<SmtpTransport, String> {
    let tls = |host: &str| -> std::result::Result<TlsParameters, String> {
        let mut builder = TlsParameters::builder(host.to_string());
        if let Some(pem) = &server.ca_pem {
            let cert = Certificate::from_pem(pem.as_bytes())
                .map_err(|e| format!("the CA certificates cannot be read: {e}"))?;
            builder = builder.add_root_certificate(cert);
        }
        builder
            .build_rustls()
            .map_err(|e| format!("TLS cannot be set up: {e}"))
    };
    let host = server.host.trim_start_matches('[').trim_end_matches(']');
    let tls = match server.security {
        Security::Tls => Tls::Wrapper(tls(host)?),
        Security::StartTls => Tls::Required(tls(host)?),
        Security::None => {
            if !is_loopback(host) {
                return Err("a server without encryption must be on loopback".into());
            }
            Tls::None
        }
    };
    let mut builder = SmtpTransport::builder_dangerous(address.to_string())
        .port(server.port)
        .tls(tls)
        .timeout(Some(limit));
    if let (Some(user), Some(password)) = (&server.user, &server.password) {
        builder = builder
            .credentials(Credentials::new(
                user.clone(),
                password.expose().to_string(),
            ))
            .authentication(vec![Mechanism::Plain, Mechanism::Login]);
    }
    Ok(builder.build())
}

/// Hands `raw` to `server` for `to`, from `from`, with `limit` on every
/// step (connecting, each reply), at an address `allow` permits; every text
/// of the outcome is scrubbed.
pub fn send(
    server: &Server,
    allow: &MailAllow,
    from: &str,
    to: &[String],
    raw: &[u8],
    limit: Duration,
) -> Outcome {
    let outcome = attempt(server, allow, from, to, raw, limit);
    match outcome {
        Outcome::Sent { reply } => Outcome::Sent {
            reply: scrub(&reply, server),
        },
        Outcome::Temporary { reply, error } => Outcome::Temporary {
            reply: reply.map(|r| scrub(&r, server)),
            error: scrub(&error, server),
        },
        Outcome::Permanent { reply, error } => Outcome::Permanent {
            reply: scrub(&reply, server),
            error: scrub(&error, server),
        },
    }
}

fn attempt(
    server: &Server,
    allow: &MailAllow,
    from: &str,
    to: &[String],
    raw: &[u8],
    limit: Duration,
) -> Outcome {
    let temporary = |error: String| Outcome::Temporary { reply: None, error };
    let envelope = (|| {
        let from = from.parse().map_err(|e| format!("sender {from:?}: {e}"))?;
        let to = to
            .iter()
            .map(|t| t.parse().map_err(|e| format!("recipient {t:?}: {e}")))
            .collect::<std::result::Result<Vec<_>, String>>()?;
        Envelope::new(Some(from), to).map_err(|e| e.to_string())
    })();
    let envelope = match envelope {
        Ok(e) => e,
        Err(e) => {
            return Outcome::Permanent {
                reply: String::new(),
                error: e,
            }
        }
    };
    let address = match allow.resolve(&server.host, server.port) {
        Ok(a) => a.ip(),
        Err(e) => {
            return Outcome::Permanent {
                reply: String::new(),
                error: e,
            }
        }
    };
    let transport = match transport(server, address, limit) {
        Ok(t) => t,
        Err(e) => return temporary(e),
    };
    match transport.send_raw(&envelope, raw) {
        Ok(response) => Outcome::Sent {
            reply: format!(
                "{} {}",
                response.code(),
                response.message().collect::<Vec<_>>().join(" ")
            )
            .trim()
            .to_string(),
        },
        Err(e) => {
            // An answer that is no SMTP reply is not repeated: a server
            // that does not speak SMTP tells the send log nothing.
            let sentence = if e.is_response() {
                "the server's answer is no SMTP reply".to_string()
            } else {
                error_sentence(&e)
            };
            match e.status() {
                Some(code) if e.is_permanent() => Outcome::Permanent {
                    reply: code.to_string(),
                    error: sentence,
                },
                Some(code) => Outcome::Temporary {
                    reply: Some(code.to_string()),
                    error: sentence,
                },
                None if e.is_timeout() || crate::error::is_time_out(&e) => temporary(format!(
                    "no answer within {} s: {sentence}",
                    limit.as_secs()
                )),
                None => temporary(sentence),
            }
        }
    }
}

/// The error and its causes in one sentence.
fn error_sentence(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let more = s.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        source = s.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use std::io::{BufRead, BufReader, Write};
    use std::net::TcpListener;

    use super::*;

    /// A scripted SMTP server on loopback for one connection: greets,
    /// answers EHLO, MAIL and RCPT with `rcpt`, takes DATA, answers the
    /// end of data with `end`. With `hang`, greets and then says nothing.
    fn server(rcpt: &'static str, end: &'static str, hang: bool) -> u16 {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        std::thread::spawn(move || {
            let (stream, _) = listener.accept().unwrap();
            let mut out = stream.try_clone().unwrap();
            let mut lines = BufReader::new(stream);
            out.write_all(b"220 test ESMTP\r\n").unwrap();
            if hang {
                std::thread::sleep(Duration::from_secs(5));
                return;
            }
            let mut line = String::new();
            let mut in_data = false;
            while lines.read_line(&mut line).unwrap_or(0) > 0 {
                let upper = line.to_ascii_uppercase();
                let answer: Option<&str> = if in_data {
                    if line == ".\r\n" {
                        in_data = false;
                        Some(end)
                    } else {
                        None
                    }
                } else if upper.starts_with("EHLO") {
                    Some("250-test\r\n250 8BITMIME\r\n")
                } else if upper.starts_with("MAIL") {
                    Some("250 2.1.0 Ok\r\n")
                } else if upper.starts_with("RCPT") {
                    Some(rcpt)
                } else if upper.starts_with("DATA") {
                    in_data = true;
                    Some("354 go ahead\r\n")
                } else if upper.starts_with("QUIT") {
                    let _ = out.write_all(b"221 bye\r\n");
                    return;
                } else {
                    Some("250 Ok\r\n")
                };
                if let Some(a) = answer {
                    if out.write_all(a.as_bytes()).is_err() {
                        return;
                    }
                }
                line.clear();
            }
        });
        port
    }

    fn relay(port: u16) -> Server {
        Server {
            host: "127.0.0.1".into(),
            port,
            security: Security::None,
            user: None,
            password: None,
            ca_pem: None,
        }
    }

    fn go(port: u16, limit: Duration) -> Outcome {
        send(
            &relay(port),
            &MailAllow::parse(&["127.0.0.1"]).unwrap(),
            "a@example.org",
            &["b@example.org".into()],
            b"Subject: x\r\n\r\nhello\r\n",
            limit,
        )
    }

    #[test]
    fn a_2xx_is_sent_a_4xx_temporary_a_5xx_permanent_and_a_hang_times_out() {
        let sent = go(
            server("250 Ok\r\n", "250 2.0.0 Ok: queued as ABC\r\n", false),
            Duration::from_secs(5),
        );
        assert_eq!(
            sent,
            Outcome::Sent {
                reply: "250 2.0.0 Ok: queued as ABC".into()
            }
        );
        let later = go(
            server("450 4.2.0 mailbox busy\r\n", "250 Ok\r\n", false),
            Duration::from_secs(5),
        );
        assert!(
            matches!(&later, Outcome::Temporary { reply: Some(r), error } if r == "450" && error.contains("mailbox busy")),
            "{later:?}"
        );
        let never = go(
            server("550 5.1.1 no such user\r\n", "250 Ok\r\n", false),
            Duration::from_secs(5),
        );
        assert!(
            matches!(&never, Outcome::Permanent { reply, error } if reply == "550" && error.contains("no such user")),
            "{never:?}"
        );
        // The server greets, says nothing for 5 s and hangs up: an attempt
        // that waited for it would end with the broken connection, not
        // timed out.
        let hung = go(
            server("250 Ok\r\n", "250 Ok\r\n", true),
            Duration::from_millis(500),
        );
        assert!(
            matches!(&hung, Outcome::Temporary { reply: None, error } if error.starts_with("no answer within")),
            "{hung:?}"
        );
        // Nobody listening: temporary.
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        assert!(matches!(
            go(port, Duration::from_secs(2)),
            Outcome::Temporary { .. }
        ));
    }

    #[test]
    fn no_encryption_only_on_loopback() {
        assert!(check_host("127.0.0.1", Security::None).is_ok());
        assert!(check_host("localhost", Security::None).is_ok());
        assert!(check_host("[::1]", Security::None).is_ok());
        let e = check_host("mail.example.org", Security::None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("security"), "{e}");
        assert!(check_host("mail.example.org", Security::StartTls).is_ok());
        assert!(check_host("mail example", Security::Tls).is_err());
        assert!(check_host("", Security::Tls).is_err());
        assert_eq!(Security::Tls.default_port(), 465);
        assert_eq!(Security::StartTls.default_port(), 587);
    }

    #[test]
    fn the_password_is_scrubbed_in_every_form_auth_sends() {
        let mut s = relay(25);
        s.user = Some("rechnung".into());
        s.password = Some(Secret::new("pa55w0rd"));
        let b64 = base64::engine::general_purpose::STANDARD;
        let plain = b64.encode("\0rechnung\0pa55w0rd");
        let text = format!("535 bad pa55w0rd {plain} {}", b64.encode("pa55w0rd"));
        let clean = scrub(&text, &s);
        assert!(
            !clean.contains("pa55w0rd") && !clean.contains(&plain),
            "{clean}"
        );
        assert_eq!(clean.matches("••••••").count(), 3);
        assert!(check_ca("no certificate").is_err());
    }
}
