//! A ZIP archive of named files, as the DATEV export hands them over: each
//! file deflated, stamped with the moment of the export (so the same
//! export writes the same bytes), names as given.

use std::io::{Cursor, Write};

use jiff::civil::DateTime;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

use crate::error::{Error, Result};

/// The ZIP of `files` (name, bytes), in their order, stamped `at`.
///
/// Fails with `Internal` when the archive cannot be written (in memory
/// that means a name given twice).
pub fn zip(files: &[(String, Vec<u8>)], at: DateTime) -> Result<Vec<u8>> {
    let stamp = zip::DateTime::from_date_and_time(
        u16::try_from(at.year()).unwrap_or(1980).clamp(1980, 2107),
        at.month() as u8,
        at.day() as u8,
        at.hour() as u8,
        at.minute() as u8,
        at.second() as u8,
    )
    .map_err(|e| Error::internal(format!("a ZIP time stamp: {e}")))?;
    let options = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Deflated)
        .last_modified_time(stamp)
        .unix_permissions(0o644);
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    let failed = |e: &dyn std::fmt::Display| Error::internal(format!("writing the ZIP: {e}"));
    for (name, bytes) in files {
        writer
            .start_file(name.as_str(), options)
            .map_err(|e| failed(&e))?;
        writer.write_all(bytes).map_err(|e| failed(&e))?;
    }
    Ok(writer.finish().map_err(|e| failed(&e))?.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn the_files_come_back_by_name_and_the_same_export_writes_the_same_bytes() {
        let at = DateTime::constant(2026, 11, 2, 9, 30, 0, 0);
        let files = vec![
            ("EXTF_Buchungsstapel_1.csv".to_string(), b"a;b\r\n".to_vec()),
            ("belege/RE2026-00001.pdf".to_string(), vec![0u8; 1000]),
        ];
        let bytes = zip(&files, at).unwrap();
        assert_eq!(bytes, zip(&files, at).unwrap());
        let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).unwrap();
        assert_eq!(archive.len(), 2);
        let mut text = String::new();
        archive
            .by_name("EXTF_Buchungsstapel_1.csv")
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "a;b\r\n");
    }

    #[test]
    fn a_name_given_twice_is_an_error() {
        let at = DateTime::constant(2026, 11, 2, 9, 30, 0, 0);
        let files = vec![("a".to_string(), vec![1]), ("a".to_string(), vec![2])];
        assert!(zip(&files, at).is_err());
    }
}
