//! A ZIP of statement files, as EBICS delivers them (one camt XML per
//! account and day). The central directory is read with the `zip` crate;
//! each member is streamed through its decompressor and cut off past
//! `MAX_FILE` bytes, and the members together past `MAX_ARCHIVE`, whatever
//! sizes the archive declares (a ZIP bomb declares small ones). Folders are
//! skipped; a nested ZIP, an encrypted member or another codec than deflate
//! or stored is refused.

use std::io::{Cursor, Read};

use crate::documents::statements::format::{is_zip, read_one};
use crate::documents::statements::model::{refusal, Statement, MAX_ARCHIVE, MAX_FILE, MAX_MEMBERS};
use crate::error::said::FileFault;
use crate::error::Result;

/// The statements of every member, in the archive's order, and the number
/// of members read.
///
/// Fails with a sentence naming `name` (and the member) when the archive
/// cannot be read, has too many members, a member is larger than
/// `MAX_FILE` or all of them together larger than `MAX_ARCHIVE` once
/// uncompressed, a member is encrypted, a ZIP, or refused by its reader.
pub fn read(name: &str, bytes: &[u8]) -> Result<(Vec<Statement>, usize)> {
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| {
        refusal(
            name,
            FileFault::NotZip {
                detail: e.to_string(),
            },
        )
    })?;
    if archive.len() > MAX_MEMBERS {
        return Err(refusal(
            name,
            FileFault::TooManyMembers {
                count: archive.len(),
                max: MAX_MEMBERS,
            },
        ));
    }
    let mut total: u64 = 0;
    let mut statements = Vec::new();
    let mut members = 0;
    for i in 0..archive.len() {
        let mut member = archive.by_index(i).map_err(|e| {
            refusal(
                name,
                FileFault::MemberUnreadable {
                    number: i + 1,
                    detail: e.to_string(),
                },
            )
        })?;
        if member.is_dir() {
            continue;
        }
        let member_name = member
            .name()
            .map(|n| n.into_owned())
            .unwrap_or_else(|_| format!("#{}", i + 1));
        let shown = format!("{name}/{member_name}");
        if member.encrypted() {
            return Err(refusal(&shown, FileFault::Encrypted));
        }
        let mut content = Vec::new();
        let limit = MAX_FILE.min(MAX_ARCHIVE - total) + 1;
        (&mut member)
            .take(limit)
            .read_to_end(&mut content)
            .map_err(|e| {
                refusal(
                    &shown,
                    FileFault::NotDecompressed {
                        detail: e.to_string(),
                    },
                )
            })?;
        if content.len() as u64 > MAX_FILE {
            return Err(refusal(
                &shown,
                FileFault::MemberTooLarge {
                    mb: MAX_FILE / 1024 / 1024,
                },
            ));
        }
        total += content.len() as u64;
        if total > MAX_ARCHIVE {
            return Err(refusal(
                name,
                FileFault::ZipTooLarge {
                    mb: MAX_ARCHIVE / 1024 / 1024,
                },
            ));
        }
        if is_zip(&content) {
            return Err(refusal(&shown, FileFault::ZipInZip));
        }
        statements.extend(read_one(&shown, &content)?);
        members += 1;
    }
    Ok((statements, members))
}
