//! The `facturx` document: the PDF/A-3b invoice a person reads, with the
//! `cii` document embedded as `factur-x.xml` (AFRelationship Alternative)
//! and the Factur-X XMP extension schema (profile EN 16931). Without XML
//! (a currency with more than two decimals, or a document EN 16931 cannot
//! carry) it is a plain PDF/A-3b that says it is no EN 16931 e-invoice; a
//! draft's preview is one too, marked as a draft (`write_draft`).
//!
//! The page: letterhead, the buyer's address in the window of a DIN 5008
//! form B letter, the invoice's particulars, the lines (paginated, the
//! table head repeated, "Seite x von y"), the VAT breakdown with exemption
//! reasons, the totals, the payment sentence and bank details with an EPC
//! QR code (GiroCode) for a EUR invoice, and the seller's §14 UStG / §35a
//! GmbHG particulars in the footer of every page. German for a seller in a
//! German-speaking country, English otherwise; the language, country and
//! unit names, amounts and dates come from `rules` (`locale`, `countries`,
//! `units`), never chosen here.
//!
//! krilla draws the pages, subsets and embeds DejaVu Sans and checks
//! PDF/A-3b as it writes; since it cannot write the Factur-X extension
//! schema, lopdf then puts it into krilla's XMP packet. The output depends
//! on the document alone (dates come from the issue date, never the clock),
//! so the same invoice gives the same bytes. Coordinates are `f32` points;
//! amounts stay integers until `rules::locale` writes them.
//!
//! Here: `write` and `write_draft`: the document laid out, rendered, its
//! XMP replaced.
//!
//! - `fonts.rs`: DejaVu Sans, regular and bold, read once, with the tables to
//!   measure a text and tell which characters it draws.
//! - `page.rs`: the page as a list of drawing operations in points from the
//!   top left corner.
//! - `text.rs`: text that fits its place without being cut: broken between
//!   words or between the parts of an address, at the largest size down to
//!   a least one that holds it; cut (`fit`, `wrap`) only when it fits at no
//!   size.
//! - `footer.rs`: the footer's columns: the largest size and fewest lines at
//!   which every particular fits its column unbroken, each column as wide
//!   as it needs.
//! - `figures.rs`: amounts, VAT rates and IBANs as the page writes them, by
//!   `rules::locale`.
//! - `qr.rs`: the EPC QR code (GiroCode) of a EUR invoice: the EPC069-12
//!   payload and its modules.
//! - `layout.rs`: `Sheet`, the sections of the pages: letterhead, the buyer's
//!   address in the DIN 5008 window, particulars, the lines table over
//!   pages, the VAT breakdown, totals, notes, payment with bank details and
//!   QR code, the footer; a draft's `DRAFT_MARK`.
//! - `render.rs`: the PDF/A-3b written by krilla from the pages' operations,
//!   its metadata (the issue date, never the clock) and the embedded
//!   `factur-x.xml`.
//! - `xmp.rs`: the XMP packet with the Factur-X extension schema, which
//!   krilla cannot write.
//! - `reminder.rs`: a reminder's letter on the invoice's sheet (the same
//!   letterhead, address, footer and payment block): its particulars, title,
//!   text and the table of what it claims.
//! - `euer.rs`: a cash-basis profit statement on the same sheet (the
//!   letterhead and footer of the company): its lines of the Anlage EÜR,
//!   the sums and the profit, and the payments behind each line.
//! - `samples.rs`: the PDF tests' sample documents.

mod euer;
mod figures;
mod fonts;
mod footer;
mod layout;
mod page;
mod qr;
mod reminder;
mod render;
#[cfg(test)]
mod samples;
mod text;
mod xmp;

pub use layout::DRAFT_MARK;
pub use qr::epc_payload;
pub use xmp::XML_NAME;

use fonts::faces;
use layout::Sheet;
use render::render;
use xmp::with_xmp;

use crate::documents::euer::Statement;
use crate::documents::reminder::Reminder;
use crate::documents::Document;
use crate::rules::locale::Lang;

/// Writes the PDF of `doc`, embedding `cii` (the `cii` document's bytes,
/// unchanged) when given, in the seller country's language.
///
/// Fails when krilla refuses the document (a PDF/A rule it checks) or the
/// written PDF cannot be read back to set its metadata; neither happens for
/// a document the verdict accepts, whatever its texts hold: long texts wrap
/// or end in an ellipsis, characters the font lacks are drawn as "�".
pub fn write(doc: &Document, cii: Option<&[u8]>) -> std::io::Result<Vec<u8>> {
    let faces = faces().ok_or_else(|| std::io::Error::other("the embedded font cannot be read"))?;
    let lang = Lang::of_seller(&doc.seller.address.country);
    let pages = Sheet::lay_out(doc, cii.is_some(), false, lang, faces);
    let pdf = render(doc, cii, &doc.number, lang, faces, &pages)?;
    with_xmp(&pdf, cii.is_some())
}

/// Writes the preview of a draft: the page `write` would lay out for `doc`,
/// but titled as a draft, without a number (`doc.number` is not shown),
/// the payment reference or the EPC QR code, with "ENTWURF / DRAFT" across
/// every page, and as a plain PDF/A-3b: no XML embedded and no Factur-X
/// metadata, so no program takes it for an e-invoice.
///
/// Fails as `write` does.
pub fn write_draft(doc: &Document) -> std::io::Result<Vec<u8>> {
    let faces = faces().ok_or_else(|| std::io::Error::other("the embedded font cannot be read"))?;
    let lang = Lang::of_seller(&doc.seller.address.country);
    let pages = Sheet::lay_out(doc, false, true, lang, faces);
    let title = lang.pick("Invoice draft", "Rechnungsentwurf");
    let pdf = render(doc, None, title, lang, faces, &pages)?;
    with_xmp(&pdf, false)
}

/// Writes the letter of a reminder: the invoice's sheet (letterhead,
/// address, footer, bank details and EPC QR code of the total) with the
/// reminder's particulars, title, text and claim, in the reminder's
/// language; a plain PDF/A-3b.
///
/// Fails as `write` does.
pub fn write_reminder(r: &Reminder) -> std::io::Result<Vec<u8>> {
    let faces = faces().ok_or_else(|| std::io::Error::other("the embedded font cannot be read"))?;
    let doc = reminder::sheet_document(r);
    let pages = reminder::lay_out(r, &doc, faces);
    let title = format!("{} {}", r.title, r.invoice.number);
    let pdf = render(&doc, None, &title, r.lang, faces, &pages)?;
    with_xmp(&pdf, false)
}

/// Writes a cash-basis profit statement: the company's letterhead and
/// footer, its lines of the Anlage EÜR with the sums and the profit, and
/// the payments behind each line, in the statement's language; a plain
/// PDF/A-3b dated the day it was made.
///
/// Fails as `write` does.
pub fn write_euer(s: &Statement) -> std::io::Result<Vec<u8>> {
    let faces = faces().ok_or_else(|| std::io::Error::other("the embedded font cannot be read"))?;
    let doc = euer::sheet_document(s);
    let pages = euer::lay_out(s, &doc, faces);
    let pdf = render(&doc, None, &s.title(), s.lang, faces, &pages)?;
    with_xmp(&pdf, false)
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::samples::{credit, jpy, long, plain, reverse_charge, usd, xml};
    use super::*;
    use crate::documents::samples::mixed;

    /// The CPU time this thread has used, in milliseconds: the machine may
    /// be shared, so wall time alone overstates the cost.
    fn thread_cpu_ms() -> f64 {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `t` is a valid timespec for the call to fill.
        unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
        t.tv_sec as f64 * 1000.0 + t.tv_nsec as f64 / 1e6
    }

    fn pages(pdf: &[u8]) -> usize {
        lopdf::Document::load_mem(pdf).unwrap().get_pages().len()
    }

    fn contains(hay: &[u8], needle: &[u8]) -> bool {
        hay.windows(needle.len()).any(|w| w == needle)
    }

    #[test]
    fn an_invoice_is_a_deterministic_facturx_pdf() {
        let doc = mixed();
        let cii = xml(&doc);
        let a = write(&doc, Some(&cii)).unwrap();
        let b = write(&doc, Some(&cii)).unwrap();
        assert!(a.starts_with(b"%PDF-1.7"));
        assert!(a == b, "the same invoice gives the same bytes");
        assert!(contains(&a, b"/AF"));
        assert!(contains(&a, b"/AFRelationship/Alternative"));
        assert!(contains(&a, b"factur-x.xml"));
        assert!(contains(
            &a,
            b"<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>"
        ));
        assert!(contains(&a, b"<pdfaid:part>3</pdfaid:part>"));
        assert_eq!(pages(&a), 1);
    }

    #[test]
    fn a_draft_preview_is_a_plain_pdf_a_marked_as_a_draft_without_number_or_qr() {
        let doc = mixed();
        let a = write_draft(&doc).unwrap();
        assert!(a.starts_with(b"%PDF-1.7"));
        assert!(a == write_draft(&doc).unwrap(), "deterministic");
        assert!(contains(&a, b"<pdfaid:part>3</pdfaid:part>"));
        assert!(!contains(&a, b"factur-x.xml") && !contains(&a, b"fx:"));
        assert!(!contains(&a, b"/AF"));
        let pdf = lopdf::Document::load_mem(&a).unwrap();
        let text = pdf.extract_text(&[1]).unwrap();
        assert!(text.contains(DRAFT_MARK), "{text}");
        assert!(text.contains("Rechnungsentwurf"), "{text}");
        assert!(text.contains("keine Rechnung"), "{text}");
        assert!(!text.contains(&doc.number), "{text}");
        assert!(!text.contains("Verwendungszweck"), "{text}");
        assert!(!text.contains("Mit Banking-App scannen"), "{text}");
        // The invoice itself carries its number and its QR code.
        let invoice = write(&doc, None).unwrap();
        let text = lopdf::Document::load_mem(&invoice)
            .unwrap()
            .extract_text(&[1])
            .unwrap();
        assert!(text.contains(&doc.number) && text.contains("Mit Banking-App scannen"));
        assert!(!text.contains(DRAFT_MARK));
    }

    #[test]
    fn a_reminder_is_the_invoices_sheet_stating_its_claim() {
        use crate::documents::reminder::StatedInterest;
        use crate::rules::money::Decimal;
        use jiff::civil::Date;
        let mut invoice = mixed();
        invoice.due = 119_000;
        let r = Reminder {
            invoice,
            lang: Lang::De,
            level: 2,
            title: "1. Mahnung".into(),
            text: "Sehr geehrte Damen und Herren,\n\nbitte zahlen Sie.".into(),
            on: Date::constant(2026, 12, 31),
            open: 119_000,
            fee: 500,
            interest: Some(StatedInterest {
                from: Date::constant(2026, 12, 8),
                through: Date::constant(2026, 12, 31),
                days: 24,
                percent: Decimal::parse("p", "10.27").unwrap(),
                points: 9,
                amount: 804,
            }),
            flat_sum: Some(4000),
            new_due: Date::constant(2027, 1, 10),
        };
        assert_eq!(r.total(), 124_304);
        let pdf = write_reminder(&r).unwrap();
        assert!(pdf.starts_with(b"%PDF-1.7") && contains(&pdf, b"<pdfaid:part>3</pdfaid:part>"));
        assert!(!contains(&pdf, b"factur-x.xml"));
        assert_eq!(pdf, write_reminder(&r).unwrap(), "deterministic");
        let text = lopdf::Document::load_mem(&pdf)
            .unwrap()
            .extract_text(&[1])
            .unwrap();
        for needle in [
            "1. Mahnung",
            "RE-2026-0001",
            "07.12.2026",
            "1.190,00",
            "Mahngebühren",
            "5,00",
            "Verzugszinsen 08.12.2026 – 31.12.2026",
            "10,27 %",
            "8,04",
            "40,00",
            "1.243,04",
            "10.01.2027",
            "Mit Banking-App scannen",
        ] {
            assert!(text.contains(needle), "{needle} in {text}");
        }
        let mut en = r.clone();
        en.lang = Lang::En;
        en.title = "First reminder".into();
        let text = lopdf::Document::load_mem(&write_reminder(&en).unwrap())
            .unwrap()
            .extract_text(&[1])
            .unwrap();
        assert!(
            text.contains("Default interest") && text.contains("1,243.04"),
            "{text}"
        );
    }

    #[test]
    fn without_xml_it_is_a_plain_pdf_a_that_says_so() {
        let doc = plain();
        let pdf = write(&doc, None).unwrap();
        assert!(pdf.starts_with(b"%PDF-1.7"));
        assert!(!contains(&pdf, b"factur-x.xml"));
        assert!(!contains(&pdf, b"fx:"));
        assert!(!contains(&pdf, b"xmpTPg"));
        assert!(contains(&pdf, b"<pdfaid:part>3</pdfaid:part>"));
    }

    #[test]
    fn two_hundred_lines_run_over_pages() {
        let doc = long();
        let cii = xml(&doc);
        let pdf = write(&doc, Some(&cii)).unwrap();
        assert!(pages(&pdf) >= 4, "{} pages", pages(&pdf));
    }

    #[test]
    fn long_and_odd_texts_never_fail_the_writing() {
        let mut doc = mixed();
        let odd = "Ω😀漢字\u{0}\u{7}\r\n\u{E000}\u{200B}e\u{301} ".repeat(3);
        doc.seller.name = format!("{odd}{}", "Nordlicht ".repeat(2000));
        doc.seller.legal_info = Some(format!("{odd};").repeat(200));
        doc.buyer.name = "B".repeat(5000);
        doc.buyer.address.street = Some(odd.clone());
        doc.buyer_reference = Some("R".repeat(1000));
        doc.lines[0].name = format!("{odd}{}", "Beschreibung ".repeat(3000));
        doc.lines[1].name = String::new();
        doc.payment_terms = Some(odd.repeat(100));
        doc.number = format!("{odd}{}", "9".repeat(300));
        write(&doc, None).unwrap();
        doc.transfer.as_mut().unwrap().account_holder = Some(odd.clone());
        write(&doc, Some(b"<x/>")).unwrap();
    }

    /// With KONTOR_SAMPLES=DIR, writes the sample PDFs (and the CII each
    /// embeds, as `<stem>.cii.xml`) for tests/interop/einvoice.sh, a page
    /// image source, and the time one PDF takes.
    #[test]
    fn samples() {
        let samples: [(&str, Document, bool); 7] = [
            ("mixed", mixed(), true),
            ("reverse-charge", reverse_charge(), true),
            ("credit", credit(), true),
            ("lines200", long(), true),
            ("jpy", jpy(), true),
            ("usd", usd(), true),
            ("plain", plain(), false),
        ];
        let dir = std::env::var("KONTOR_SAMPLES").ok();
        for (stem, doc, with_xml) in &samples {
            let cii = with_xml.then(|| xml(doc));
            let pdf = write(doc, cii.as_deref()).unwrap();
            assert!(pdf.starts_with(b"%PDF"));
            assert_eq!(contains(&pdf, b"/AF"), *with_xml, "{stem}");
            assert_eq!(pdf, write(doc, cii.as_deref()).unwrap(), "{stem}");
            let Some(dir) = &dir else { continue };
            std::fs::write(format!("{dir}/{stem}.pdf"), &pdf).unwrap();
            if let Some(cii) = &cii {
                std::fs::write(format!("{dir}/{stem}.cii.xml"), cii).unwrap();
            }
            let runs = 100;
            let started = Instant::now();
            let cpu = thread_cpu_ms();
            for _ in 0..runs {
                write(doc, cii.as_deref()).unwrap();
            }
            println!(
                "{stem}: {} pages, {} bytes, {:.2} ms per PDF ({:.2} ms CPU)",
                pages(&pdf),
                pdf.len(),
                started.elapsed().as_secs_f64() * 1000.0 / runs as f64,
                (thread_cpu_ms() - cpu) / runs as f64
            );
        }
    }
}
