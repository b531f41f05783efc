//! Receiving e-invoices: every fixture of tests/fixtures/einvoices-in is
//! read, and what kontor reads equals what the XML says (the expected
//! figures come from the XML itself, with XPath).

use std::path::{Path, PathBuf};

use crate::einvoice_figures::{self, Figures};

fn fixtures() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("xml") | Some("XML") | Some("pdf")
            ) {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/einvoices-in"), &mut out);
    out.sort();
    out
}

/// What kontor read, in the shape of `Figures`.
fn read_by_kontor(path: &Path) -> Figures {
    let bytes = std::fs::read(path).unwrap();
    let r = kontor::documents::read::file(&bytes, jiff::civil::Date::constant(2026, 1, 1)).unwrap();
    let d = r.document;
    Figures {
        syntax: r.syntax.as_str(),
        type_code: d.type_code.code(),
        number: d.number,
        issued_on: d.issued_on.to_string(),
        seller: d.seller.name,
        buyer: d.buyer.name,
        currency: d.currency,
        totals: [d.line_total, d.net, d.tax, d.gross, d.due],
        taxes: d
            .breakdown
            .iter()
            .map(|b| (b.category.code().to_string(), b.rate.to_string(), b.base, b.amount))
            .collect(),
        lines: d.lines.len(),
    }
}

#[test]
fn every_fixture_reads_as_its_xml_says() {
    let all = fixtures();
    assert_eq!(all.len(), 115);
    for path in all {
        let expected = einvoice_figures::of_file(&path);
        assert_eq!(read_by_kontor(&path), expected, "{}", path.display());
    }
}
