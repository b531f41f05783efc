//! A `multipart/form-data` body (RFC 7578) taken apart, hostile until
//! read: the boundary from the content type, at most `MAX_PARTS` parts,
//! each part's headers at most 8 KiB; a part with a `filename` is a file,
//! any other a form field. The screens' file uploads (received e-invoices)
//! are the only bodies of this kind.

use crate::error::said::Request;
use crate::error::{Error, Result};

/// The most parts one body may have.
pub const MAX_PARTS: usize = 64;
const MAX_HEAD: usize = 8 * 1024;

/// One part of the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    pub name: String,
    /// A file's name, as the browser gives it; `None` for a form field.
    pub file_name: Option<String>,
    pub bytes: Vec<u8>,
}

/// Whether `content_type` announces a multipart form.
pub fn is_multipart(content_type: Option<&str>) -> bool {
    content_type.is_some_and(|t| {
        t.trim_start()
            .to_ascii_lowercase()
            .starts_with("multipart/form-data")
    })
}

/// The parts of `body` sent with `content_type`.
///
/// Fails with `BadRequest` when the content type names no boundary, or the
/// body is not made of parts between it, has too many, or a part's headers
/// are unreadable or too long.
pub fn parse(content_type: &str, body: &[u8]) -> Result<Vec<Part>> {
    let bad = |why: &str| {
        Error::bad_request(Request::UploadUnreadable {
            why: why.to_string(),
        })
    };
    let boundary = content_type
        .split(';')
        .filter_map(|p| p.trim().strip_prefix("boundary="))
        .next()
        .map(|b| b.trim_matches('"'))
        .filter(|b| !b.is_empty() && b.len() <= 70)
        .ok_or_else(|| bad("it names no boundary"))?;
    let delimiter = format!("--{boundary}").into_bytes();
    let mut rest = match find(body, &delimiter) {
        Some(at) => &body[at + delimiter.len()..],
        None => return Err(bad("no part begins")),
    };
    let mut parts = Vec::new();
    loop {
        if rest.starts_with(b"--") {
            return Ok(parts);
        }
        rest = rest
            .strip_prefix(b"\r\n")
            .ok_or_else(|| bad("a boundary is not followed by a line end"))?;
        if parts.len() == MAX_PARTS {
            return Err(bad(&format!("it has more than {MAX_PARTS} parts")));
        }
        let head_end = find(&rest[..rest.len().min(MAX_HEAD + 4)], b"\r\n\r\n")
            .ok_or_else(|| bad("a part's headers do not end"))?;
        let head = std::str::from_utf8(&rest[..head_end])
            .map_err(|_| bad("a part's headers are not UTF-8"))?;
        let content = &rest[head_end + 4..];
        let mut closing = b"\r\n".to_vec();
        closing.extend_from_slice(&delimiter);
        let end = find(content, &closing).ok_or_else(|| bad("a part does not end"))?;
        let (name, file_name) = disposition(head).ok_or_else(|| bad("a part names no field"))?;
        parts.push(Part {
            name,
            file_name,
            bytes: content[..end].to_vec(),
        });
        rest = &content[end + closing.len()..];
    }
}

/// The field name and file name of a part's `Content-Disposition`.
fn disposition(head: &str) -> Option<(String, Option<String>)> {
    let line = head
        .split("\r\n")
        .find(|l| l.to_ascii_lowercase().starts_with("content-disposition:"))?;
    let value = &line["content-disposition:".len()..];
    let param = |key: &str| -> Option<String> {
        value.split(';').map(str::trim).find_map(|p| {
            let (k, v) = p.split_once('=')?;
            (k.trim().eq_ignore_ascii_case(key)).then(|| v.trim().trim_matches('"').to_string())
        })
    };
    let name = param("name")?;
    let file_name = param("filename").map(|f| {
        // Some browsers send a path; the name is its last part.
        f.rsplit(['/', '\\']).next().unwrap_or_default().to_string()
    });
    Some((name, file_name))
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_form_with_files_is_taken_apart() {
        let body = b"--XyZ\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\ntoken\r\n--XyZ\r\nContent-Disposition: form-data; name=\"files\"; filename=\"C:\\\\bills\\\\a.xml\"\r\nContent-Type: application/xml\r\n\r\n<Invoice/>\r\n--XyZ\r\nContent-Disposition: form-data; name=\"files\"; filename=\"b.pdf\"\r\n\r\n%PDF-1.7\r\n\r\n--XyZ--\r\n";
        let parts = parse("multipart/form-data; boundary=XyZ", body).unwrap();
        assert_eq!(parts.len(), 3);
        assert_eq!(
            (parts[0].name.as_str(), parts[0].bytes.as_slice()),
            ("csrf", b"token".as_slice())
        );
        assert_eq!(parts[1].file_name.as_deref(), Some("a.xml"));
        assert_eq!(parts[1].bytes, b"<Invoice/>");
        assert_eq!(parts[2].bytes, b"%PDF-1.7\r\n");
        assert!(is_multipart(Some("Multipart/Form-Data; boundary=x")));
        for broken in [
            ("multipart/form-data", body.as_slice()),
            ("multipart/form-data; boundary=XyZ", b"nothing".as_slice()),
            (
                "multipart/form-data; boundary=XyZ",
                b"--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno end".as_slice(),
            ),
        ] {
            assert!(parse(broken.0, broken.1).is_err());
        }
    }
}
