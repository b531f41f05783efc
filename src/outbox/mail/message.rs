//! One message, composed once when the act writes it: the sender (address
//! and name, reply-to, the archive copy as a blind copy), the recipient, a
//! plain-text subject and body, and the attachments, each as its bytes
//! unchanged with its file name and media type. The result is the message's
//! bytes as they will go over the wire (RFC 5322, MIME multipart/mixed),
//! its envelope and its Message-ID; the worker sends exactly these bytes on
//! every attempt. lettre builds and encodes the message.

use std::time::{Duration, SystemTime};

use jiff::Timestamp;
use lettre::message::header::ContentType;
use lettre::message::{Attachment as Part, Mailbox, MultiPart, SinglePart};
use lettre::{Address, Message};

use crate::error::said::{Input, Mail};
use crate::error::{Error, Result};

/// Longest address kept (RFC 5321's path limit).
pub const ADDRESS_MAX: usize = 254;
/// Longest display name or subject.
pub const NAME_MAX: usize = 200;

/// Reads an e-mail address as lettre will send it.
///
/// Fails with `Invalid` naming `field` when it is not one address (no
/// display name, no list, no control characters).
pub fn address(field: &str, text: &str) -> Result<Address> {
    let t = text.trim();
    if t.len() > ADDRESS_MAX || t.chars().any(char::is_control) {
        return Err(Error::invalid(field, Input::NotEmail));
    }
    t.parse::<Address>()
        .map_err(|_| Error::invalid(field, Mail::NotAddress { got: t.to_string() }))
}

/// Who a company's mail comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sender {
    pub address: String,
    pub name: Option<String>,
    pub reply_to: Option<String>,
    /// The archive copy, sent as a blind copy.
    pub bcc: Option<String>,
}

/// A file attached unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    pub file_name: String,
    pub media_type: String,
    pub bytes: Vec<u8>,
}

/// What one message says and carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Letter {
    pub to: String,
    pub subject: String,
    pub body: String,
    pub attachments: Vec<Attachment>,
}

/// A message ready to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Composed {
    pub raw: Vec<u8>,
    pub envelope_from: String,
    pub envelope_to: Vec<String>,
    /// `<…@domain>`, as in the header.
    pub message_id: String,
}

/// Composes `letter` from `sender`, dated `at`.
///
/// Fails with `Invalid` naming the address that cannot be read, or an
/// attachment's media type that is not one.
pub fn compose(sender: &Sender, letter: &Letter, at: Timestamp) -> Result<Composed> {
    let from = address("from", &sender.address)?;
    let to = address("to", &letter.to)?;
    let name = sender
        .name
        .as_deref()
        .map(|n| n.chars().filter(|c| !c.is_control()).collect::<String>())
        .filter(|n| !n.trim().is_empty());
    let domain = from.domain().to_string();
    let message_id = format!(
        "<{}.{}@{domain}>",
        at.as_second(),
        crate::store::ids::base62(20)
    );
    let subject: String = letter
        .subject
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let seconds = u64::try_from(at.as_second()).unwrap_or(0);
    let mut builder = Message::builder()
        .from(Mailbox::new(name, from.clone()))
        .to(Mailbox::new(None, to.clone()))
        .subject(subject)
        .message_id(Some(message_id.clone()))
        .date(SystemTime::UNIX_EPOCH + Duration::from_secs(seconds))
        .user_agent("kontor".into());
    if let Some(r) = &sender.reply_to {
        builder = builder.reply_to(Mailbox::new(None, address("replyTo", r)?));
    }
    let mut envelope_to = vec![to.to_string()];
    if let Some(b) = &sender.bcc {
        let bcc = address("bcc", b)?;
        envelope_to.push(bcc.to_string());
        builder = builder.bcc(Mailbox::new(None, bcc));
    }
    let mut parts = MultiPart::mixed().singlepart(SinglePart::plain(letter.body.clone()));
    for a in &letter.attachments {
        let kind = ContentType::parse(&a.media_type).map_err(|_| {
            Error::invalid(
                "attachment",
                Mail::NoMediaType {
                    got: a.media_type.clone(),
                },
            )
        })?;
        parts = parts.singlepart(Part::new(a.file_name.clone()).body(a.bytes.clone(), kind));
    }
    let message = builder
        .multipart(parts)
        .map_err(|e| Error::invalid("to", Mail::CannotWrite { why: e.to_string() }))?;
    Ok(Composed {
        raw: message.formatted(),
        envelope_from: from.to_string(),
        envelope_to,
        message_id,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sender() -> Sender {
        Sender {
            address: "rechnung@nordlicht.example".into(),
            name: Some("Nordlicht GmbH".into()),
            reply_to: Some("buchhaltung@nordlicht.example".into()),
            bcc: Some("archiv@nordlicht.example".into()),
        }
    }

    fn letter(bytes: Vec<u8>) -> Letter {
        Letter {
            to: "kunde@example.org".into(),
            subject: "Rechnung RE-2026-00001 über 1.190,00 €".into(),
            body: "Sehr geehrte Damen und Herren,\nanbei die Rechnung.".into(),
            attachments: vec![Attachment {
                file_name: "RE-2026-00001.pdf".into(),
                media_type: "application/pdf".into(),
                bytes,
            }],
        }
    }

    fn text(raw: &[u8]) -> String {
        String::from_utf8(raw.to_vec()).unwrap()
    }

    #[test]
    fn a_message_carries_its_attachment_unchanged_and_hides_the_archive_copy() {
        let bytes: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
        let at = Timestamp::from_second(1_780_000_000).unwrap();
        let m = compose(&sender(), &letter(bytes.clone()), at).unwrap();
        assert_eq!(m.envelope_from, "rechnung@nordlicht.example");
        assert_eq!(
            m.envelope_to,
            vec!["kunde@example.org", "archiv@nordlicht.example"]
        );
        assert!(
            m.message_id.starts_with("<1780000000.")
                && m.message_id.ends_with("@nordlicht.example>")
        );
        let raw = text(&m.raw);
        assert!(
            raw.contains(&format!("Message-ID: {}", m.message_id)),
            "{raw}"
        );
        assert!(raw.contains("Reply-To: buchhaltung@nordlicht.example"));
        // No Bcc header (the random boundary and ids may hold the letters).
        let headers = raw.split("\r\n\r\n").next().unwrap_or("");
        assert!(
            !headers
                .lines()
                .any(|l| l.to_ascii_lowercase().starts_with("bcc:")),
            "the archive copy is blind"
        );
        assert!(raw.contains("multipart/mixed"));
        assert!(raw.contains("Content-Type: application/pdf"));
        assert!(raw.contains("filename=\"RE-2026-00001.pdf\""));
        // The attachment's base64 decodes to the bytes given.
        let start = raw.find("Content-Transfer-Encoding: base64").unwrap();
        let body = &raw[start..];
        let b64: String = body
            .split("\r\n\r\n")
            .nth(1)
            .unwrap()
            .split("\r\n--")
            .next()
            .unwrap()
            .split_whitespace()
            .collect();
        use base64::Engine;
        let decoded = base64::engine::general_purpose::STANDARD
            .decode(b64)
            .unwrap();
        assert_eq!(decoded, bytes);
        // The same letter at the same time gives the same structure.
        assert!(raw.contains("Date: "));
    }

    #[test]
    fn addresses_are_read_strictly() {
        assert!(address("to", "a@b.example").is_ok());
        for bad in [
            "",
            "a",
            "a@",
            "A <a@b.example>",
            "a@b.example\r\nBcc: x@y",
            "a@b.example, c@d.example",
        ] {
            let e = address("to", bad);
            assert!(e.is_err(), "{bad:?}");
        }
        let mut l = letter(vec![1]);
        l.to = "nobody".into();
        let e = compose(&sender(), &l, Timestamp::UNIX_EPOCH)
            .unwrap_err()
            .to_string();
        assert!(e.contains("to"), "{e}");
        // A control character in a subject never splits a header.
        let mut l = letter(vec![1]);
        l.subject = "Rechnung\r\nBcc: evil@example.org".into();
        let raw = text(&compose(&sender(), &l, Timestamp::UNIX_EPOCH).unwrap().raw);
        assert!(!raw.contains("\r\nBcc: evil"), "{raw}");
    }
}
