//! Bank statements as banks deliver them, read into typed statements:
//! camt.052, .053 and .054 (versions .02 to .13, elements by local name),
//! German MT940, and a ZIP of them. Every file is hostile until read:
//! bounded in size (`model::MAX_FILE`, 50 MB a file, `model::MAX_ARCHIVE`,
//! 200 MB a ZIP uncompressed), no DTD, no entity expansion, bounded depth;
//! the answer is the statements or a sentence naming the file and what is
//! wrong with it. Nothing here reads storage: the books decide which account
//! a statement belongs to and what its lines settle.
//!
//! Here: `read`, any accepted file.
//!
//! - `model.rs`: `Statement`, `Entry`, `Line`, `Balance`, `Party`, the
//!   bounds, amounts and dates as statements write them.
//! - `format.rs`: which reader a single file goes to.
//! - `camt.rs`: the ISO 20022 reader (streaming quick-xml events).
//! - `mt940.rs`: the MT940 reader (`:61:`, the `:86:` GVC with its `?`
//!   subfields and SEPA keys).
//! - `archive.rs`: a ZIP's members, each cut off at its bound.
//! - `samples.rs`: the tests over `tests/fixtures/bank/`.

pub mod archive;
pub mod camt;
pub mod format;
pub mod model;
pub mod mt940;
#[cfg(test)]
mod samples;

pub use model::{Balance, Entry, Line, Message, Party, Remark, Statement};

use crate::error::Result;

/// What one file held: its statements and, for a ZIP, how many members.
#[derive(Debug)]
pub struct Read {
    pub statements: Vec<Statement>,
    /// The files read: 1, or the members of a ZIP.
    pub files: usize,
}

/// Reads a statement file of any format kontor accepts, told by its bytes
/// (a `.sta` that holds camt XML is read as camt).
///
/// Fails with a sentence naming `name` when the file is refused (see
/// `format::read_one` and `archive::read`).
pub fn read(name: &str, bytes: &[u8]) -> Result<Read> {
    if format::is_zip(bytes) {
        check_size(name, bytes)?;
        let (statements, files) = archive::read(name, bytes)?;
        Ok(Read { statements, files })
    } else {
        Ok(Read {
            statements: format::read_one(name, bytes)?,
            files: 1,
        })
    }
}

/// Refuses a file larger than kontor reads: a ZIP of more than
/// `model::MAX_ARCHIVE` bytes, any other file of more than `model::MAX_FILE`.
///
/// Fails with a sentence naming `name`.
pub fn check_size(name: &str, bytes: &[u8]) -> Result<()> {
    if format::is_zip(bytes) {
        format::within(name, bytes, model::MAX_ARCHIVE, true)
    } else {
        format::check_size(name, bytes)
    }
}
