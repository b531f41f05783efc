//! A form that sends files (`multipart/form-data`, RFC 7578), as the Bank
//! screen's statement upload does: its text fields read as any form's (the
//! form token among them), its files as (file name, bytes). Only the
//! upload's address may send that much (`body_limit`); every other form
//! stays within `visit::MAX_FORM`. A leaf: it names no other screen.

use crate::error::{Error, Result};
use crate::http::query::{percent_encode, Query};

/// The address that takes statement files.
pub const UPLOAD_PATH: &str = "/bank/import";
/// The largest upload: a ZIP of statements (200 MB) and the form around it.
pub const MAX_UPLOAD: usize = 200 * 1024 * 1024 + 64 * 1024;

/// The largest body a request to the screens may send.
pub fn body_limit(method: &hyper::Method, path: &str, form: usize) -> usize {
    if method == hyper::Method::POST && path == UPLOAD_PATH {
        MAX_UPLOAD
    } else {
        form
    }
}

/// The boundary of a `multipart/form-data` body, when it is one.
pub fn boundary(content_type: Option<&str>) -> Option<String> {
    let ct = content_type?;
    let (kind, params) = ct.split_once(';')?;
    if !kind.trim().eq_ignore_ascii_case("multipart/form-data") {
        return None;
    }
    params.split(';').find_map(|p| {
        let (k, v) = p.split_once('=')?;
        k.trim().eq_ignore_ascii_case("boundary").then(|| v.trim().trim_matches('"').to_string())
    })
}

/// One part of the body.
pub struct Part<'a> {
    pub name: String,
    /// Set for a file.
    pub file_name: Option<String>,
    pub bytes: &'a [u8],
}

fn find(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if needle.is_empty() || haystack.len() < needle.len() {
        return None;
    }
    (from..=haystack.len() - needle.len()).find(|&i| &haystack[i..i + needle.len()] == needle)
}

/// A header parameter (`name="x"`) of a part's `Content-Disposition`.
fn parameter(disposition: &str, key: &str) -> Option<String> {
    disposition.split(';').find_map(|p| {
        let (k, v) = p.split_once('=')?;
        k.trim().eq_ignore_ascii_case(key).then(|| v.trim().trim_matches('"').to_string())
    })
}

/// The parts of a multipart body.
///
/// Fails with `Invalid` when the body is no multipart of that boundary.
pub fn parts<'a>(body: &'a [u8], boundary: &str) -> Result<Vec<Part<'a>>> {
    let bad = || Error::bad_request("The form with its files could not be read.");
    let delimiter = format!("--{boundary}");
    let next = format!("\r\n--{boundary}");
    let mut at = find(body, delimiter.as_bytes(), 0).ok_or_else(bad)? + delimiter.len();
    let mut out = Vec::new();
    loop {
        if body[at..].starts_with(b"--") {
            return Ok(out);
        }
        at += 2; // CRLF after the delimiter
        let head_end = find(body, b"\r\n\r\n", at).ok_or_else(bad)?;
        let head = std::str::from_utf8(&body[at..head_end]).map_err(|_| bad())?;
        let disposition = head
            .split("\r\n")
            .find_map(|l| l.split_once(':').filter(|(k, _)| k.trim().eq_ignore_ascii_case("content-disposition")))
            .map(|(_, v)| v.to_string())
            .ok_or_else(bad)?;
        let start = head_end + 4;
        let end = find(body, next.as_bytes(), start).ok_or_else(bad)?;
        out.push(Part {
            name: parameter(&disposition, "name").unwrap_or_default(),
            file_name: parameter(&disposition, "filename"),
            bytes: &body[start..end],
        });
        at = end + next.len();
    }
}

/// The text fields of a multipart body, read as a form.
///
/// Fails with `Invalid` as `parts` does, or for a field that is no UTF-8.
pub fn fields(body: &[u8], boundary: &str) -> Result<Query> {
    let mut pairs = Vec::new();
    for part in parts(body, boundary)?.into_iter().filter(|p| p.file_name.is_none()) {
        let value = std::str::from_utf8(part.bytes).map_err(|_| Error::bad_request("The form could not be read."))?;
        pairs.push(format!("{}={}", percent_encode(&part.name), percent_encode(value)));
    }
    Query::parse(&pairs.join("&"))
}

/// The files of a multipart body named `name`, as (file name, bytes); a
/// file input left empty sends none.
///
/// Fails with `Invalid` as `parts` does.
pub fn files<'a>(body: &'a [u8], boundary: &str, name: &str) -> Result<Vec<(String, &'a [u8])>> {
    Ok(parts(body, boundary)?
        .into_iter()
        .filter(|p| p.name == name)
        .filter_map(|p| p.file_name.filter(|f| !f.is_empty()).map(|f| (f, p.bytes)))
        .collect())
}

#[cfg(test)]
mod tests {
    use crate::http::screens::upload::*;

    #[test]
    fn a_form_with_files_is_read() {
        let body = b"--XyZ\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\nt0k3n\r\n\
--XyZ\r\nContent-Disposition: form-data; name=\"files\"; filename=\"a.sta\"\r\nContent-Type: application/octet-stream\r\n\r\n:20:X\r\n\r\n--XyZ\r\n\
Content-Disposition: form-data; name=\"files\"; filename=\"\"\r\n\r\n\r\n--XyZ--\r\n";
        let b = boundary(Some("multipart/form-data; boundary=XyZ")).unwrap();
        assert_eq!(b, "XyZ");
        assert_eq!(fields(body, &b).unwrap().get("csrf"), Some("t0k3n"));
        let files = files(body, &b, "files").unwrap();
        assert_eq!(files.len(), 1);
        assert_eq!((files[0].0.as_str(), files[0].1), ("a.sta", &b":20:X\r\n"[..]));
        assert!(parts(b"nonsense", "XyZ").is_err());
        assert_eq!(boundary(Some("application/x-www-form-urlencoded")), None);
        assert_eq!(body_limit(&hyper::Method::POST, "/bank/import", 10), MAX_UPLOAD);
        assert_eq!(body_limit(&hyper::Method::POST, "/bills", 10), 10);
    }
}
