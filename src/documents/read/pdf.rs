//! The e-invoice a PDF carries: Factur-X and ZUGFeRD 2.x embed it as
//! `factur-x.xml` (or `zugferd-invoice.xml`, `xrechnung.xml`), ZUGFeRD 1.0
//! as `ZUGFeRD-invoice.xml`, in the catalogue's embedded files (the name
//! tree `/Names /EmbeddedFiles`, or its associated files `/AF`). The PDF is
//! read with lopdf, every stream it unpacks bounded (`MAX_UNPACKED`), the
//! name tree walked to a bounded depth and breadth; its other embedded
//! files come along as attachments.

use lopdf::{Dictionary, Document as Pdf, LoadOptions, Object};

use super::tree::Refusal;
use crate::documents::EmbeddedFile;

/// The names of the e-invoice inside a PDF, compared without case.
pub const NAMES: [&str; 4] = [
    "factur-x.xml",
    "zugferd-invoice.xml",
    "xrechnung.xml",
    "ZUGFeRD-invoice.xml",
];

/// The most any one stream of the PDF may unpack to.
pub const MAX_UNPACKED: usize = 20 * 1024 * 1024;
/// How many embedded files, and how deep a name tree, kontor walks.
const MAX_FILES: usize = 64;
const MAX_TREE_DEPTH: usize = 8;

/// The e-invoice of a PDF: the file name it had, its bytes, and the PDF's
/// other embedded files.
pub struct Carried {
    pub name: String,
    pub xml: Vec<u8>,
    pub others: Vec<EmbeddedFile>,
}

/// Finds the e-invoice embedded in the PDF `bytes`.
///
/// Fails with a `Refusal` when the PDF cannot be read, is encrypted, holds
/// a stream that unpacks beyond `MAX_UNPACKED`, or carries no e-invoice.
pub fn carried(bytes: &[u8]) -> Result<Carried, Refusal> {
    let options = LoadOptions {
        max_decompressed_size: Some(MAX_UNPACKED),
        ..LoadOptions::default()
    };
    let pdf = Pdf::load_mem_with_options(bytes, options)
        .map_err(|e| Refusal::new(format!("The PDF cannot be read ({e}); it is refused.")))?;
    if pdf.is_encrypted() {
        return Err(Refusal::new(
            "The PDF is encrypted; an e-invoice PDF (PDF/A-3) never is, and kontor does not read it.",
        ));
    }
    let catalog = pdf
        .catalog()
        .map_err(|_| Refusal::new("The PDF has no catalogue, so it carries no e-invoice."))?;
    let mut specs: Vec<&Dictionary> = Vec::new();
    if let Some(tree) = catalog
        .get(b"Names")
        .ok()
        .and_then(|n| dict(&pdf, n))
        .and_then(|n| n.get(b"EmbeddedFiles").ok())
        .and_then(|e| dict(&pdf, e))
    {
        walk(&pdf, tree, 0, &mut specs);
    }
    if let Some(Object::Array(files)) = catalog.get(b"AF").ok().map(|a| deref(&pdf, a)) {
        for file in files.iter().take(MAX_FILES) {
            if let Some(spec) = dict(&pdf, file) {
                if !specs.iter().any(|s| std::ptr::eq(*s, spec)) {
                    specs.push(spec);
                }
            }
        }
    }
    let mut xml = None;
    let mut others = Vec::new();
    for spec in specs.into_iter().take(MAX_FILES) {
        let name = file_name(spec);
        let is_invoice = NAMES.iter().any(|n| n.eq_ignore_ascii_case(&name));
        if is_invoice && xml.is_some() {
            continue;
        }
        let content = content(&pdf, spec, &name)?;
        match content {
            Some(bytes) if is_invoice => xml = Some((name, bytes)),
            Some(bytes) => others.push(EmbeddedFile {
                mime: mime_of(spec, &pdf, &name),
                name,
                bytes,
            }),
            None => {}
        }
    }
    match xml {
        Some((name, xml)) => Ok(Carried { name, xml, others }),
        None => Err(Refusal::new(
            "The PDF carries no e-invoice (no embedded factur-x.xml, zugferd-invoice.xml, xrechnung.xml or ZUGFeRD-invoice.xml): a plain PDF is not an e-invoice.",
        )),
    }
}

fn deref<'a>(pdf: &'a Pdf, object: &'a Object) -> &'a Object {
    pdf.dereference(object).map(|(_, o)| o).unwrap_or(object)
}

fn dict<'a>(pdf: &'a Pdf, object: &'a Object) -> Option<&'a Dictionary> {
    deref(pdf, object).as_dict().ok()
}

/// The file specifications of a name tree node and its kids.
fn walk<'a>(pdf: &'a Pdf, node: &'a Dictionary, depth: usize, out: &mut Vec<&'a Dictionary>) {
    if depth > MAX_TREE_DEPTH || out.len() >= MAX_FILES {
        return;
    }
    if let Some(Object::Array(names)) = node.get(b"Names").ok().map(|n| deref(pdf, n)) {
        for pair in names.chunks(2).take(MAX_FILES) {
            if let Some(spec) = pair.get(1).and_then(|s| dict(pdf, s)) {
                out.push(spec);
            }
        }
    }
    if let Some(Object::Array(kids)) = node.get(b"Kids").ok().map(|k| deref(pdf, k)) {
        for kid in kids.iter().take(MAX_FILES) {
            if let Some(kid) = dict(pdf, kid) {
                walk(pdf, kid, depth + 1, out);
            }
        }
    }
}

/// The file name of a file specification (`/UF`, else `/F`).
fn file_name(spec: &Dictionary) -> String {
    [b"UF".as_slice(), b"F".as_slice()]
        .iter()
        .find_map(|key| spec.get(key).ok()?.as_str().ok())
        .map(text_string)
        .unwrap_or_default()
}

/// A PDF text string: UTF-16BE after its byte order mark, else
/// PDFDocEncoding read as Latin-1.
fn text_string(bytes: &[u8]) -> String {
    match bytes.strip_prefix(&[0xFE, 0xFF]) {
        Some(wide) => {
            let units: Vec<u16> = wide
                .chunks_exact(2)
                .map(|c| u16::from_be_bytes([c[0], c[1]]))
                .collect();
            String::from_utf16_lossy(&units)
        }
        None => bytes.iter().map(|b| *b as char).collect(),
    }
}

/// The unpacked bytes of a file specification's embedded file.
fn content(pdf: &Pdf, spec: &Dictionary, name: &str) -> Result<Option<Vec<u8>>, Refusal> {
    let Some(files) = spec.get(b"EF").ok().and_then(|e| dict(pdf, e)) else {
        return Ok(None);
    };
    let Some(stream) = [b"F".as_slice(), b"UF".as_slice()]
        .iter()
        .find_map(|key| deref(pdf, files.get(key).ok()?).as_stream().ok())
    else {
        return Ok(None);
    };
    stream
        .get_plain_content_with_limit(MAX_UNPACKED)
        .map(Some)
        .map_err(|e| {
            Refusal::new(format!(
                "The PDF's embedded file {name:?} cannot be unpacked within {} MB ({e}); it is refused.",
                MAX_UNPACKED / (1024 * 1024)
            ))
        })
}

/// The media type of an embedded file: its `/Subtype`, else by its name.
fn mime_of(spec: &Dictionary, pdf: &Pdf, name: &str) -> String {
    let subtype = spec
        .get(b"EF")
        .ok()
        .and_then(|e| dict(pdf, e))
        .and_then(|e| e.get(b"F").ok())
        .and_then(|f| deref(pdf, f).as_stream().ok())
        .and_then(|s| s.dict.get(b"Subtype").ok())
        .and_then(|s| s.as_name().ok())
        .map(|n| String::from_utf8_lossy(n).replace("#2F", "/"));
    subtype.unwrap_or_else(|| {
        let lower = name.to_ascii_lowercase();
        match lower.rsplit('.').next() {
            Some("pdf") => "application/pdf",
            Some("png") => "image/png",
            Some("jpg") | Some("jpeg") => "image/jpeg",
            Some("xml") => "application/xml",
            Some("csv") => "text/csv",
            _ => "application/octet-stream",
        }
        .to_string()
    })
}
