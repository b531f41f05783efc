//! A mail message taken apart: its Message-ID and the files it carries
//! that could be an e-invoice (every attachment, and any part whose type
//! is XML or PDF, attached or inline). Whether a file is an e-invoice is
//! for the reader to say; the body text of a letter is never one.

use mail_parser::{MessageParser, MimeHeaders};

/// A file a message carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Carried {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// A message as the mailbox sees it.
#[derive(Debug, Clone)]
pub struct Message {
    /// The Message-ID header, without its angle brackets.
    pub id: Option<String>,
    pub files: Vec<Carried>,
}

/// Takes `raw` apart; a message that cannot be parsed carries nothing.
pub fn parse(raw: &[u8]) -> Message {
    let Some(message) = MessageParser::default().parse(raw) else {
        return Message {
            id: None,
            files: Vec::new(),
        };
    };
    let mut files = Vec::new();
    for (index, part) in message.parts.iter().enumerate() {
        if part.is_multipart() || part.is_message() {
            continue;
        }
        let attached = message.attachments.contains(&(index as u32));
        let kind = part
            .content_type()
            .map(|t| {
                format!(
                    "{}/{}",
                    t.ctype().to_ascii_lowercase(),
                    t.subtype().unwrap_or_default().to_ascii_lowercase()
                )
            })
            .unwrap_or_default();
        let name = part.attachment_name().map(str::to_string);
        let typed = kind.ends_with("/xml") || kind.ends_with("+xml") || kind == "application/pdf";
        let named = name.as_deref().is_some_and(|n| {
            let n = n.to_ascii_lowercase();
            n.ends_with(".xml") || n.ends_with(".pdf")
        });
        // The letter itself (a text body) is not a file.
        if !(attached || typed || named) || part.contents().is_empty() {
            continue;
        }
        files.push(Carried {
            name: name.unwrap_or_else(|| format!("part-{}", index + 1)),
            bytes: part.contents().to_vec(),
        });
    }
    Message {
        id: message.message_id().map(str::to_string),
        files,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attachments_and_xml_parts_are_carried_files_and_the_letter_is_not() {
        let raw = b"From: a@example.com\r\nTo: b@example.com\r\nSubject: Rechnung\r\nMessage-ID: <m1@example.com>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nAnbei die Rechnung.\r\n--b\r\nContent-Type: application/xml\r\nContent-Disposition: attachment; filename=\"rechnung.xml\"\r\nContent-Transfer-Encoding: base64\r\n\r\nPEludm9pY2UvPg==\r\n--b\r\nContent-Type: text/xml\r\n\r\n<Other/>\r\n--b--\r\n";
        let m = parse(raw);
        assert_eq!(m.id.as_deref(), Some("m1@example.com"));
        let names: Vec<&str> = m.files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["rechnung.xml", "part-4"]);
        assert_eq!(m.files[0].bytes, b"<Invoice/>");
        let letter = parse(b"From: a@example.com\r\nSubject: Hallo\r\n\r\nNur ein Brief.\r\n");
        assert!(letter.files.is_empty());
    }
}
