//! Reading what suppliers send: a received file is told apart by its first
//! bytes and its root element (CII `CrossIndustryInvoice` and ZUGFeRD
//! 1.0's `CrossIndustryDocument`, UBL `Invoice` and `CreditNote`, a PDF
//! carrying one of them), read into the one model every writer of kontor
//! uses, and checked as a receiver must (`verdict::en16931` and the code
//! lists and notices of `check`, which says of a MINIMUM or BASIC WL file,
//! by its `profile`, that it is a booking aid and no invoice). Anything
//! that is not an e-invoice at all (a plain PDF, a ZIP, another XML, a
//! file over 20 MB, an XML declaring a DTD, one carrying the EICAR test
//! signature) is a `Refusal` with a sentence; nothing is guessed, and a
//! term that is missing or unreadable is a finding. Nothing here reads
//! storage or the clock (the day a file arrived is given).
//!
//! Here: `file`, a file told apart, read and checked (`Received`: syntax,
//! document, findings, `valid`), with the 20 MB bound and the ZIP, image
//! and EICAR refusals.
//!
//! - `tree.rs`: the bounded XML tree (UTF-8 only, no DOCTYPE, only XML's own
//!   entities, 64 levels, 250,000 elements).
//! - `terms.rs`: single terms with their findings: amounts in the document's
//!   currency, decimals, dates of either syntax, codes and texts; the
//!   document totals (`Totals`), each syntax giving only its element names.
//! - `profile.rs`: the profile a document's BT-24 names (`Profile`: MINIMUM …
//!   EXTENDED, XRechnung, Peppol), and which are booking aids rather than
//!   invoices.
//! - `cii.rs`: CII D16B (and ZUGFeRD 1.0's names) into the model.
//! - `ubl.rs`: UBL 2.1 `Invoice` and `CreditNote` into the model.
//! - `pdf.rs`: the e-invoice a PDF embeds (lopdf, every unpacked stream
//!   bounded), its other embedded files as attachments.
//! - `payment_terms.rs`: the due date and the cash discount read from BT-9,
//!   BT-20's words and XRechnung's `#SKONTO#` lines, and CII's discount terms.
//! - `check.rs`: the receiver's checks beyond EN 16931: code lists (BR-CL-…,
//!   reported only) and kontor's notices (KONTOR-…).
//! - `tests.rs`: the readers' tests over every received fixture, kontor's own
//!   documents read back, broken copies and hostile files.

mod check;
pub mod cii;
pub mod payment_terms;
pub mod pdf;
pub mod profile;
mod terms;
pub mod tree;
pub mod ubl;

use jiff::civil::Date;

pub use payment_terms::{CashDiscount, PaymentTerms};
pub use profile::Profile;
pub use tree::Refusal;

use crate::documents::verdict::{self, Finding, Findings};
use crate::documents::{Attachment, Document};

/// The largest file kontor reads: 20 MB.
pub const MAX_FILE: usize = 20 * 1024 * 1024;

/// The anti-virus test signature (EICAR): a file carrying it is refused.
const EICAR: &[u8] = b"EICAR-STANDARD-ANTIVIRUS-TEST-FILE";

/// The syntax of the e-invoice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// UN/CEFACT CII (D16B, or ZUGFeRD 1.0's).
    Cii,
    /// UBL 2.1.
    Ubl,
}

impl Syntax {
    pub fn as_str(self) -> &'static str {
        match self {
            Syntax::Cii => "cii",
            Syntax::Ubl => "ubl",
        }
    }
}

/// A received e-invoice, read and checked.
#[derive(Debug, Clone)]
pub struct Received {
    pub syntax: Syntax,
    /// The name of the XML inside the PDF that carried it; none for XML.
    pub carried_as: Option<String>,
    pub document: Document,
    /// Every broken rule, reading's first, then the checks'.
    pub findings: Vec<Finding>,
    /// The due date and cash discount its terms state.
    pub payment_terms: PaymentTerms,
}

impl Received {
    /// Whether it is a valid e-invoice: no finding but of the code lists
    /// and kontor's notices.
    pub fn valid(&self) -> bool {
        !self.findings.iter().any(Finding::invalidates)
    }
}

/// Reads and checks a received file. A document without an issue date is
/// dated `received_on`, with its finding.
///
/// Fails with a `Refusal` naming why the file is no e-invoice kontor reads.
pub fn file(bytes: &[u8], received_on: Date) -> Result<Received, Refusal> {
    if bytes.len() > MAX_FILE {
        return Err(Refusal::new(format!(
            "The file is larger than {} MB, the most an e-invoice kontor reads may have.",
            MAX_FILE / (1024 * 1024)
        )));
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(Refusal::new("The file is empty."));
    }
    refuse_eicar(bytes)?;
    let head = &bytes[..bytes.len().min(1024)];
    let start = bytes
        .strip_prefix(b"\xEF\xBB\xBF")
        .unwrap_or(bytes)
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .map(|i| &bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)[i..])
        .unwrap_or_default();
    if let Some(at) = find(head, b"%PDF-") {
        let carried = pdf::carried(&bytes[at..])?;
        refuse_eicar(&carried.xml)?;
        let mut received = xml(&carried.xml, received_on)?;
        received.carried_as = Some(carried.name);
        for file in carried.others {
            refuse_eicar(&file.bytes)?;
            received.document.attachments.push(Attachment {
                id: file.name.clone(),
                description: None,
                uri: None,
                file: Some(file),
            });
        }
        return Ok(received);
    }
    if start.starts_with(b"<") {
        return xml(bytes, received_on);
    }
    Err(Refusal::new(match start {
        s if s.starts_with(b"PK\x03\x04") || s.starts_with(b"PK\x05\x06") => {
            "The file is a ZIP archive; kontor reads each e-invoice as a file of its own and unpacks no archive.".to_string()
        }
        s if s.starts_with(b"\x1F\x8B") => {
            "The file is gzip-compressed; kontor reads e-invoices uncompressed.".to_string()
        }
        s if s.starts_with(b"\x89PNG") || s.starts_with(b"\xFF\xD8\xFF") || s.starts_with(b"GIF8") => {
            "The file is an image; a scanned or photographed bill is not an e-invoice.".to_string()
        }
        _ => "The file is neither XML nor PDF, so it is no e-invoice.".to_string(),
    }))
}

fn refuse_eicar(bytes: &[u8]) -> Result<(), Refusal> {
    match find(bytes, EICAR) {
        Some(_) => Err(Refusal::new(
            "The file carries the EICAR anti-virus test signature; it is refused unread.",
        )),
        None => Ok(()),
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Reads an XML e-invoice and checks it.
fn xml(bytes: &[u8], received_on: Date) -> Result<Received, Refusal> {
    let tree = tree::parse(bytes)?;
    let namespace = tree.namespace.as_deref().unwrap_or_default();
    let (syntax, read) = match (namespace, tree.root.name.as_str()) {
        (cii::NAMESPACE, "CrossIndustryInvoice")
        | (cii::NAMESPACE_ZUGFERD_1, "CrossIndustryDocument") => {
            (Syntax::Cii, cii::read(&tree.root, received_on)?)
        }
        (ubl::INVOICE, "Invoice") | (ubl::CREDIT_NOTE, "CreditNote") => {
            (Syntax::Ubl, ubl::read(&tree.root, received_on)?)
        }
        (namespace, root) => {
            let of = if namespace.is_empty() {
                String::new()
            } else {
                format!(" of {namespace}")
            };
            return Err(Refusal::new(format!(
                "The XML is a {root}{of}, not an e-invoice: kontor reads CII (CrossIndustryInvoice), UBL Invoice and CreditNote, and PDFs carrying one."
            )));
        }
    };
    let (document, reading) = read;
    let payment_terms =
        payment_terms::read(&document, (syntax == Syntax::Cii).then_some(&tree.root));
    for attachment in &document.attachments {
        if let Some(file) = &attachment.file {
            refuse_eicar(&file.bytes)?;
        }
    }
    let mut findings = Findings::new();
    findings.extend(reading);
    findings.extend(verdict::en16931(&document));
    findings.extend(check::received(&document));
    Ok(Received {
        syntax,
        carried_as: None,
        document,
        findings: findings.into_vec(),
        payment_terms,
    })
}

#[cfg(test)]
mod tests;
