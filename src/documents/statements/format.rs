//! Which reader a single statement file goes to, told by its first bytes:
//! XML (after a byte order mark and white space) to camt, a `:20:` field to
//! MT940. A ZIP is not read here (`archive` reads its members through this).

use crate::documents::statements::model::{Statement, MAX_FILE};
use crate::documents::statements::{camt, mt940};
use crate::error::said::Bank;
use crate::error::{Error, Result};

/// Whether the bytes start as a ZIP archive does.
pub fn is_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06")
}

/// Refuses a statement file of more than `MAX_FILE` bytes.
///
/// Fails with a sentence naming `name`.
pub fn check_size(name: &str, bytes: &[u8]) -> Result<()> {
    within(name, bytes, MAX_FILE, false)
}

/// Refuses the file `name` (a ZIP when `zip`) larger than `max` bytes.
pub fn within(name: &str, bytes: &[u8], max: u64, zip: bool) -> Result<()> {
    if bytes.len() as u64 <= max {
        return Ok(());
    }
    Err(Error::bad_request(Bank::FileTooLarge {
        file: name.to_string(),
        mb: max / 1024 / 1024,
        zip,
    }))
}

/// Reads one camt or MT940 file of at most `MAX_FILE` bytes.
///
/// Fails with a sentence naming `name` when it is larger, is neither, or its
/// reader refuses it.
pub fn read_one(name: &str, bytes: &[u8]) -> Result<Vec<Statement>> {
    check_size(name, bytes)?;
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let start = body
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(body.len());
    let body = &body[start..];
    if body.starts_with(b"<") {
        camt::read(name, body)
    } else if mt940::looks_like(body) || body.starts_with(b"-") || body.starts_with(b"{1:") {
        mt940::read(name, body)
    } else if body.is_empty() {
        Err(Error::bad_request(Bank::FileEmpty {
            file: name.to_string(),
        }))
    } else {
        Err(Error::bad_request(Bank::FileNoStatement {
            file: name.to_string(),
        }))
    }
}
