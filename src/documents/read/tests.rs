//! The readers over every received fixture, kontor's own documents read
//! back, broken copies and hostile files.

use std::path::{Path, PathBuf};

use jiff::civil::Date;
use lopdf::{dictionary, Document as Pdf, Object, Stream};

use super::*;
use crate::documents::samples::mixed;
use crate::documents::{cii as write_cii, pdf as write_pdf, ubl as write_ubl, PaymentMeans};

const DAY: Date = Date::constant(2026, 1, 1);

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/einvoices-in")
}

/// Every e-invoice of the fixtures (XML and PDF), sorted.
fn every_fixture() -> Vec<PathBuf> {
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
    walk(&fixtures(), &mut out);
    out.sort();
    out
}

fn read(path: &Path) -> Received {
    let bytes = std::fs::read(path).unwrap();
    file(&bytes, DAY).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn rules(received: &Received) -> Vec<&'static str> {
    received.findings.iter().map(|f| f.rule).collect()
}

/// The documents that break EN 16931 on purpose or by their origin.
const NOT_VALID: &[&str] = &[
    // Its line and tax amounts do not add up to its totals.
    "not_validating_full_invoice_based_onTest_EeISI_300_CENfullmodel.ubl.xml",
];

#[test]
fn every_fixture_is_read_into_the_model_and_checked() {
    let all = every_fixture();
    // The README's 116 files less the corpus' own README.
    assert_eq!(all.len(), 115);
    for path in all {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let received = read(&path);
        let doc = &received.document;
        let expected = if name.ends_with(".pdf")
            || path.to_string_lossy().contains("/cii/")
            || name.ends_with(".cii.xml")
        {
            Syntax::Cii
        } else {
            Syntax::Ubl
        };
        assert_eq!(received.syntax, expected, "{name}");
        assert!(!doc.number.is_empty(), "{name}");
        assert!(
            !doc.seller.name.is_empty() && !doc.buyer.name.is_empty(),
            "{name}"
        );
        assert!(!doc.lines.is_empty() && !doc.breakdown.is_empty(), "{name}");
        assert_eq!(
            received.valid(),
            !NOT_VALID.contains(&name.as_str()),
            "{name}: {:?}",
            received.findings
        );
        assert_eq!(
            name.ends_with(".pdf"),
            received.carried_as.is_some(),
            "{name}"
        );
    }
}

/// A Factur-X PDF of the corpus carries the case its CII file holds (in
/// an older guideline at times, so the figures are compared); Mustang's
/// UBL conversion of that file has the same figures.
#[test]
fn a_pdf_reads_as_its_xml_and_ubl_as_cii() {
    fn figures(d: &Document) -> impl PartialEq + std::fmt::Debug + '_ {
        (
            (
                d.number.as_str(),
                d.type_code,
                d.currency.as_str(),
                d.lines.len(),
            ),
            (d.line_total, d.allowance_total, d.charge_total, d.net),
            (d.tax, d.gross, d.paid, d.due),
            (
                &d.breakdown,
                &d.seller.vat_id,
                &d.seller.name,
                &d.buyer.name,
            ),
            d.lines
                .iter()
                .map(|l| (l.net, &l.category, l.rate))
                .collect::<Vec<_>>(),
        )
    }
    let corpus = fixtures().join("zugferd-corpus/XML-Rechnung");
    let mut compared = 0;
    for entry in std::fs::read_dir(corpus.join("FX")).unwrap() {
        let pdf_path = entry.unwrap().path();
        let stem = pdf_path.file_stem().unwrap().to_string_lossy().to_string();
        let from_pdf = read(&pdf_path);
        let from_xml = read(&corpus.join(format!("CII/{stem}.cii.xml")));
        let ubl = read(&corpus.join(format!("UBL/{stem}.ubl.xml")));
        assert_eq!(
            figures(&from_pdf.document),
            figures(&from_xml.document),
            "{stem}"
        );
        assert_eq!(
            figures(&ubl.document),
            figures(&from_xml.document),
            "{stem}"
        );
        let expected = if stem.starts_with("XRECHNUNG") {
            "xrechnung.xml"
        } else {
            "factur-x.xml"
        };
        assert_eq!(from_pdf.carried_as.as_deref(), Some(expected), "{stem}");
        compared += 1;
    }
    assert_eq!(compared, 26);
}

#[test]
fn the_particulars_of_a_full_cii_are_read() {
    let r = read(&fixtures().join(
        "zugferd-corpus/XML-Rechnung/CII/not_validating_full_invoice_based_onTest_EeISI_300_CENfullmodel.cii.xml",
    ));
    let d = &r.document;
    assert_eq!(d.number, "Test_EeISI_100");
    assert_eq!(d.issued_on, Date::constant(2018, 11, 12));
    assert_eq!(d.due_on, Some(Date::constant(2018, 11, 30)));
    assert_eq!(d.specification.as_deref(), Some("urn:cen.eu:en16931:2017"));
    assert_eq!(d.notes.len(), 2);
    assert_eq!(d.notes[0].subject.as_deref(), Some("AAA"));
    assert_eq!(
        d.seller.trading_name.as_deref(),
        Some("Seller trading name")
    );
    assert_eq!(d.seller.vat_id.as_deref(), Some("DE12345677"));
    assert_eq!(d.seller.tax_number.as_deref(), Some("DE49294093"));
    assert_eq!(
        d.seller.address.line_three.as_deref(),
        Some("Seller address line 3")
    );
    assert_eq!(
        d.buyer.registration.as_deref(),
        Some("Buyer legal registration identifier")
    );
    assert_eq!(d.payee.as_deref(), Some("Payee name"));
    assert_eq!(
        d.payment_reference.as_deref(),
        Some("Remittance information")
    );
    assert_eq!(
        d.payment_means,
        Some(PaymentMeans {
            code: "4".into(),
            text: Some("SEPA".into())
        })
    );
    assert_eq!(d.transfer.as_ref().unwrap().iban, "IT1212341234123412");
    assert_eq!(d.card.as_ref().unwrap().number, "1234");
    let debit = d.direct_debit.as_ref().unwrap();
    assert_eq!(
        debit.mandate.as_deref(),
        Some("Mandate reference identifier")
    );
    assert_eq!(
        debit.creditor_id.as_deref(),
        Some("Bank assigned creditor identifier")
    );
    assert_eq!(d.contract_reference.as_deref(), Some("789"));
    assert_eq!(d.project_reference.as_deref(), Some("456"));
    assert_eq!(d.order_reference.as_deref(), Some("abc"));
    assert_eq!(
        d.preceding.as_ref().unwrap().issued_on,
        Some(Date::constant(2018, 10, 4))
    );
    assert_eq!(d.deliver_to.as_ref().unwrap().country, "IE");
    assert_eq!(
        (d.allowances.len(), d.allowance_total, d.charge_total),
        (2, 1000, 1000)
    );
    assert_eq!(d.accounting_tax.as_ref().unwrap().amount, 460);
    let line = &d.lines[0];
    assert_eq!((line.id.as_str(), line.unit.as_str()), ("1a", "EA"));
    assert_eq!(line.gross_price.unwrap().to_string(), "11");
    assert_eq!(line.allowances.len(), 2);
    assert_eq!(line.note.as_deref(), Some("Invoice line note"));
    assert_eq!(
        line.period.unwrap().to.unwrap(),
        Date::constant(2018, 11, 30)
    );
    let attachment = &d.attachments[0];
    assert_eq!(attachment.file.as_ref().unwrap().bytes, b"default");
    assert_eq!(
        attachment.uri.as_deref(),
        Some("External document location")
    );
}

#[test]
fn ubl_credit_notes_and_their_notes_are_read_as_written() {
    let r = read(&fixtures().join("cen/ubl/examples/ubl-tc434-creditnote1.xml"));
    assert!(r.document.type_code.is_credit());
    assert!(r.document.gross > 0);
    assert!(r.valid(), "{:?}", r.findings);
    let r = read(&fixtures().join("cen/ubl/examples/ubl-tc434-example5.xml"));
    let d = &r.document;
    assert_eq!(d.currency, "DKK");
    assert_eq!(d.accounting_tax.as_ref().unwrap().currency, "EUR");
    assert_eq!(
        d.direct_debit.as_ref().unwrap().mandate.as_deref(),
        Some("123456")
    );
    assert_eq!(d.attachments.iter().filter(|a| a.file.is_some()).count(), 1);
    assert_eq!(d.seller.name, "SellerCompany");
    assert_eq!(d.seller.trading_name.as_deref(), Some("SelCo"));
    assert_eq!(d.lines[0].gross_price.unwrap().to_string(), "1.1");
}

/// What kontor writes, in every format, reads back as the model it was
/// written from (less what a syntax cannot carry).
#[test]
fn kontors_own_documents_read_back_as_written() {
    let doc = mixed();
    let cii = write_cii::write(&doc, write_cii::Guideline::En16931).unwrap();
    let xrechnung = write_cii::write(&doc, write_cii::Guideline::XRechnung).unwrap();
    let ubl = write_ubl::write(&doc).unwrap();
    let pdf = write_pdf::write(&doc, Some(&cii)).unwrap();
    for (name, bytes, syntax) in [
        ("cii", cii.clone(), Syntax::Cii),
        ("xrechnung", xrechnung, Syntax::Cii),
        ("peppol", ubl, Syntax::Ubl),
        ("facturx", pdf, Syntax::Cii),
    ] {
        let r = file(&bytes, DAY).unwrap();
        assert_eq!(r.syntax, syntax, "{name}");
        assert!(r.valid(), "{name}: {:?}", r.findings);
        let mut read = r.document;
        assert!(read.specification.is_some());
        read.specification = None;
        assert_eq!(
            read.payment_means.take().map(|m| m.code).as_deref(),
            Some("58")
        );
        if syntax == Syntax::Ubl {
            // UBL's note carries no subject code.
            for note in &mut read.notes {
                note.subject = Some("REG".into());
            }
        }
        assert_eq!(read, doc, "{name}");
    }
}

#[test]
fn zugferd_1_maps_onto_the_model() {
    let xml = r#"<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:15">
 <rsm:SpecifiedExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:ferd:CrossIndustryDocument:invoice:1p0:comfort</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:SpecifiedExchangedDocumentContext>
 <rsm:HeaderExchangedDocument><ram:ID>471102</ram:ID><ram:TypeCode>380</ram:TypeCode><ram:IssueDateTime><udt:DateTimeString format="102">20130305</udt:DateTimeString></ram:IssueDateTime></rsm:HeaderExchangedDocument>
 <rsm:SpecifiedSupplyChainTradeTransaction>
  <ram:ApplicableSupplyChainTradeAgreement>
   <ram:SellerTradeParty><ram:Name>Lieferant GmbH</ram:Name><ram:PostalTradeAddress><ram:PostcodeCode>80333</ram:PostcodeCode><ram:LineOne>Lieferantenstraße 20</ram:LineOne><ram:CityName>München</ram:CityName><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress><ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE123456789</ram:ID></ram:SpecifiedTaxRegistration></ram:SellerTradeParty>
   <ram:BuyerTradeParty><ram:Name>Kunden AG Mitte</ram:Name><ram:PostalTradeAddress><ram:PostcodeCode>69876</ram:PostcodeCode><ram:CityName>Frankfurt</ram:CityName><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress></ram:BuyerTradeParty>
  </ram:ApplicableSupplyChainTradeAgreement>
  <ram:ApplicableSupplyChainTradeSettlement>
   <ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
   <ram:ApplicableTradeTax><ram:CalculatedAmount currencyID="EUR">19.00</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode><ram:BasisAmount currencyID="EUR">100.00</ram:BasisAmount><ram:CategoryCode>S</ram:CategoryCode><ram:ApplicablePercent>19.00</ram:ApplicablePercent></ram:ApplicableTradeTax>
   <ram:SpecifiedTradePaymentTerms><ram:DueDateDateTime><udt:DateTimeString format="102">20130404</udt:DateTimeString></ram:DueDateDateTime></ram:SpecifiedTradePaymentTerms>
   <ram:SpecifiedTradeSettlementMonetarySummation><ram:LineTotalAmount currencyID="EUR">100.00</ram:LineTotalAmount><ram:TaxBasisTotalAmount currencyID="EUR">100.00</ram:TaxBasisTotalAmount><ram:TaxTotalAmount currencyID="EUR">19.00</ram:TaxTotalAmount><ram:GrandTotalAmount currencyID="EUR">119.00</ram:GrandTotalAmount><ram:DuePayableAmount currencyID="EUR">119.00</ram:DuePayableAmount></ram:SpecifiedTradeSettlementMonetarySummation>
  </ram:ApplicableSupplyChainTradeSettlement>
  <ram:IncludedSupplyChainTradeLineItem>
   <ram:AssociatedDocumentLineDocument><ram:LineID>1</ram:LineID></ram:AssociatedDocumentLineDocument>
   <ram:SpecifiedSupplyChainTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount currencyID="EUR">10.0000</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedSupplyChainTradeAgreement>
   <ram:SpecifiedSupplyChainTradeDelivery><ram:BilledQuantity unitCode="C62">10</ram:BilledQuantity></ram:SpecifiedSupplyChainTradeDelivery>
   <ram:SpecifiedSupplyChainTradeSettlement><ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:ApplicablePercent>19.00</ram:ApplicablePercent></ram:ApplicableTradeTax><ram:SpecifiedTradeSettlementMonetarySummation><ram:LineTotalAmount currencyID="EUR">100.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementMonetarySummation></ram:SpecifiedSupplyChainTradeSettlement>
   <ram:SpecifiedTradeProduct><ram:Name>Trennblätter A4</ram:Name></ram:SpecifiedTradeProduct>
  </ram:IncludedSupplyChainTradeLineItem>
 </rsm:SpecifiedSupplyChainTradeTransaction>
</rsm:CrossIndustryDocument>"#;
    let pdf = pdf_carrying("ZUGFeRD-invoice.xml", xml.as_bytes(), false);
    let r = file(&pdf, DAY).unwrap();
    assert_eq!(r.carried_as.as_deref(), Some("ZUGFeRD-invoice.xml"));
    let d = &r.document;
    assert!(r.valid(), "{:?}", r.findings);
    assert_eq!(
        (d.number.as_str(), d.gross, d.tax, d.due),
        ("471102", 11900, 1900, 11900)
    );
    assert_eq!(d.lines[0].name, "Trennblätter A4");
    assert_eq!(d.lines[0].price.to_string(), "10");
    assert_eq!(d.breakdown[0].rate.to_string(), "19");
    assert_eq!(d.due_on, Some(Date::constant(2013, 4, 4)));
}

/// A PDF whose catalogue names `name` as an embedded file holding
/// `content` (flate-compressed when `compress`).
fn pdf_carrying(name: &str, content: &[u8], compress: bool) -> Vec<u8> {
    use std::io::Write;
    let mut pdf = Pdf::with_version("1.7");
    let pages = pdf.new_object_id();
    let page = pdf.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages, "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
    });
    pdf.objects.insert(
        pages,
        Object::Dictionary(
            dictionary! { "Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1 },
        ),
    );
    let stream = if compress {
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        z.write_all(content).unwrap();
        Stream::new(
            dictionary! { "Type" => "EmbeddedFile", "Filter" => "FlateDecode" },
            z.finish().unwrap(),
        )
    } else {
        Stream::new(dictionary! { "Type" => "EmbeddedFile" }, content.to_vec())
    };
    let file = pdf.add_object(stream);
    let spec = pdf.add_object(dictionary! {
        "Type" => "Filespec",
        "F" => Object::string_literal(name),
        "UF" => Object::string_literal(name),
        "EF" => dictionary! { "F" => file },
    });
    let names = pdf.add_object(dictionary! {
        "EmbeddedFiles" => dictionary! { "Names" => vec![Object::string_literal(name), spec.into()] },
    });
    let catalog =
        pdf.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages, "Names" => names });
    pdf.trailer.set("Root", catalog);
    let mut out = Vec::new();
    pdf.save_to(&mut out).unwrap();
    out
}

fn fixture_text(path: &str) -> String {
    std::fs::read_to_string(fixtures().join(path)).unwrap()
}

/// Broken copies are read, kept and flagged with the rule they break.
#[test]
fn broken_copies_are_flagged_with_their_rule() {
    let einfach = "zugferd-corpus/XML-Rechnung/CII/EN16931_Einfach.cii.xml";
    let ubl = "zugferd-corpus/XML-Rechnung/UBL/EN16931_Einfach.ubl.xml";
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "a total changed",
            fixture_text(einfach).replace(
                "<ram:GrandTotalAmount>529.87<",
                "<ram:GrandTotalAmount>592.87<",
            ),
            "BR-CO-15",
        ),
        (
            "a line sum off by one cent",
            fixture_text(einfach).replacen(
                "<ram:LineTotalAmount>198.00<",
                "<ram:LineTotalAmount>198.01<",
                1,
            ),
            "BR-CO-10",
        ),
        (
            "the seller's name removed",
            fixture_text(einfach).replacen("<ram:Name>Lieferant GmbH</ram:Name>", "", 1),
            "BR-06",
        ),
        (
            "the issue date removed",
            fixture_text(ubl).replacen("<cbc:IssueDate>2018-03-05</cbc:IssueDate>", "", 1),
            "BR-03",
        ),
        (
            "a tax amount changed",
            fixture_text(ubl).replacen(">56.87</cbc:TaxAmount>", ">65.87</cbc:TaxAmount>", 1),
            "BR-CO-14",
        ),
    ];
    for (what, text, rule) in cases {
        let r = file(text.as_bytes(), DAY).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(rules(&r).contains(&rule), "{what}: {:?}", r.findings);
        assert!(!r.valid(), "{what}");
    }
}

#[test]
fn hostile_and_foreign_files_are_refused_with_a_sentence() {
    let refused = |bytes: &[u8]| file(bytes, DAY).unwrap_err().0;
    let big = vec![b' '; 30 * 1024 * 1024];
    assert!(
        refused(&big).contains("larger than 20 MB"),
        "{}",
        refused(&big)
    );
    assert!(refused(b"").contains("empty"));
    assert!(refused(b"PK\x03\x04rest").contains("ZIP"));
    assert!(refused(b"\x89PNG\r\n").contains("image"));
    assert!(refused(b"Dear supplier").contains("neither XML nor PDF"));
    let eicar =
        br"<Invoice>X5O!P%@AP[4\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*</Invoice>";
    assert!(refused(eicar).contains("EICAR"));
    let dtd = "<?xml version=\"1.0\"?><!DOCTYPE Invoice [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;\">]><Invoice>&b;</Invoice>";
    assert!(refused(dtd.as_bytes()).contains("DTD"));
    let deep = format!("{}{}", "<x>".repeat(10_000), "</x>".repeat(10_000));
    assert!(refused(deep.as_bytes()).contains("deep"));
    assert!(refused(b"<html><body>Rechnung</body></html>").contains("not an e-invoice"));
    let other = b"<Order xmlns=\"urn:oasis:names:specification:ubl:schema:xsd:Order-2\"/>";
    assert!(refused(other).contains("Order of urn:oasis"));
    // A PDF with no e-invoice, and kontor's own draft PDF (no XML).
    let plain = pdf_carrying("readme.txt", b"hello", false);
    assert!(refused(&plain).contains("plain PDF"));
    let draft = write_pdf::write_draft(&mixed()).unwrap();
    assert!(refused(&draft).contains("plain PDF"));
    // A PDF whose embedded invoice unpacks to 30 MB.
    let bomb = pdf_carrying("factur-x.xml", &vec![b' '; 30 * 1024 * 1024], true);
    assert!(bomb.len() < 200_000);
    assert!(refused(&bomb).contains("20 MB"), "{}", refused(&bomb));
    // EICAR inside a PDF's XML.
    let carried = pdf_carrying("factur-x.xml", eicar, true);
    assert!(refused(&carried).contains("EICAR"));
}

/// The files written for these tests (`tests/fixtures/einvoices-written`).
fn written(name: &str) -> Received {
    read(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/einvoices-written")
            .join(name),
    )
}

fn written_text(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/einvoices-written")
            .join(name),
    )
    .unwrap()
}

/// The sentences of a rule's findings.
fn said(received: &Received, rule: &str) -> Vec<String> {
    received
        .findings
        .iter()
        .filter(|f| f.rule == rule)
        .map(|f| f.problem.text(crate::rules::catalogue::Reader::CONSOLE))
        .collect()
}

/// Every document of every profile, read into the totals its file states
/// (BT-106, BT-107, BT-108, BT-109, BT-110, BT-112, BT-113, BT-115), valid
/// as EN 16931 and Factur-X EXTENDED say, the profiles that are no
/// invoice said to be booking aids; and neither a cut copy nor one with
/// unreadable amounts makes the reader panic.
#[test]
fn every_profile_is_read_into_the_totals_its_file_states() {
    let cases: &[(&str, [i64; 8], bool, bool)] = &[
        (
            "factur-x-minimum.xml",
            [0, 0, 0, 10000, 1900, 11900, 0, 11900],
            false,
            true,
        ),
        (
            "factur-x-basicwl.xml",
            [20000, 2000, 1000, 19000, 3610, 22610, 2610, 20000],
            false,
            true,
        ),
        (
            "factur-x-basic.xml",
            [14400, 0, 0, 14400, 2196, 16596, 0, 16596],
            true,
            false,
        ),
        (
            "factur-x-en16931.xml",
            [24000, 1000, 500, 23500, 3865, 27365, 7365, 20000],
            true,
            false,
        ),
        (
            "factur-x-extended.xml",
            [35000, 500, 1500, 36000, 6240, 42240, 0, 42240],
            true,
            false,
        ),
        (
            "xrechnung.cii.xml",
            [76000, 0, 0, 76000, 14440, 90440, 0, 90440],
            true,
            false,
        ),
        (
            "en16931.ubl.xml",
            [13200, 200, 400, 13400, 2186, 15586, 5586, 10000],
            true,
            false,
        ),
        (
            "xrechnung.ubl.xml",
            [36000, 0, 0, 36000, 6840, 42840, 0, 42840],
            true,
            false,
        ),
    ];
    for (name, totals, valid, booking_aid) in cases {
        let r = written(name);
        let d = &r.document;
        assert_eq!(
            [
                d.line_total,
                d.allowance_total,
                d.charge_total,
                d.net,
                d.tax,
                d.gross,
                d.paid,
                d.due
            ],
            *totals,
            "{name}"
        );
        assert_eq!(r.valid(), *valid, "{name}: {:?}", r.findings);
        assert_eq!(
            !said(&r, "KONTOR-PROFILE").is_empty(),
            *booking_aid,
            "{name}: {:?}",
            r.findings
        );
        let text = written_text(name);
        for cut in (0..text.len()).step_by(97) {
            let _ = file(&text.as_bytes()[..cut], DAY);
        }
        for garbage in ["abc", "1e400", "-", "99999999999999999999999.999", ""] {
            let broken = text
                .replace(">19.00<", &format!(">{garbage}<"))
                .replace(">S<", &format!(">{garbage}<"))
                .replace(">380<", &format!(">{garbage}<"));
            let _ = file(broken.as_bytes(), DAY);
        }
    }
}

/// MINIMUM and BASIC WL say in words that they are no invoice, in every
/// spelling of their guideline id.
#[test]
fn minimum_and_basic_wl_are_said_to_be_booking_aids_not_invoices() {
    for (name, profile) in [
        ("factur-x-minimum.xml", "MINIMUM"),
        ("factur-x-basicwl.xml", "BASIC WL"),
    ] {
        let r = written(name);
        let notice = said(&r, "KONTOR-PROFILE");
        assert_eq!(notice.len(), 1, "{name}: {:?}", r.findings);
        assert!(
            notice[0].contains(&format!("the profile {profile} ")),
            "{}",
            notice[0]
        );
        assert!(
            notice[0].contains("no invoice under EN 16931 and § 14 UStG"),
            "{}",
            notice[0]
        );
        assert!(notice[0].contains("a booking aid only"), "{}", notice[0]);
    }
    let zugferd_2 = written_text("factur-x-minimum.xml")
        .replace("urn:factur-x.eu:1p0:minimum", "urn:zugferd.de:2p0:minimum");
    let r = file(zugferd_2.as_bytes(), DAY).unwrap();
    assert_eq!(said(&r, "KONTOR-PROFILE").len(), 1, "{:?}", r.findings);
}

/// EXTENDED's sub-lines count once: the DETAIL lines under a GROUP line
/// and the lines without a status make BT-106, the GROUP line and the
/// INFORMATION line do not; its logistics service charge is a charge in
/// BT-108, BT-109 and the 19 % breakdown (Factur-X EXTENDED
/// BR-FXEXT-CO-10, -CO-12, -CO-13, -S-08).
#[test]
fn extended_counts_its_sub_lines_once_and_its_logistics_charges_as_charges() {
    let r = written("factur-x-extended.xml");
    let d = &r.document;
    assert!(r.valid(), "{:?}", r.findings);
    let ids: Vec<&str> = d.lines.iter().map(|l| l.id.as_str()).collect();
    assert_eq!(ids, ["1.1", "1.2", "2"]);
    let logistics = d
        .allowances
        .iter()
        .find(|x| x.reason.as_deref() == Some("Versandkosten"))
        .unwrap_or_else(|| panic!("{:?}", d.allowances));
    assert!(logistics.charge);
    assert_eq!(logistics.amount, 1500);
    let (category, rate) = logistics.vat.as_ref().unwrap();
    assert_eq!((category.code(), rate.to_string().as_str()), ("S", "19"));
    // Without the hierarchy a GROUP line would count beside its details.
    let flat = written_text("factur-x-extended.xml").replace(
        "<ram:LineStatusReasonCode>GROUP</ram:LineStatusReasonCode>",
        "",
    );
    let r = file(flat.as_bytes(), DAY).unwrap();
    assert!(rules(&r).contains(&"BR-CO-10"), "{:?}", r.findings);
}

/// A VAT category is read as the document gives it: missing at 19 % it
/// is S, with a finding that says so; missing at 0 % it stays not given;
/// a code outside EN 16931's list stays as written. None becomes O, and
/// none brings findings of a category the document does not use.
#[test]
fn a_vat_category_is_read_as_the_document_gives_it() {
    let r = written("category-missing.cii.xml");
    let d = &r.document;
    assert_eq!(
        (d.lines[0].category.code(), d.breakdown[0].category.code()),
        ("S", "S")
    );
    let missing = [said(&r, "BR-CO-04"), said(&r, "BR-47")].concat();
    assert_eq!(missing.len(), 2, "{:?}", r.findings);
    assert!(
        missing
            .iter()
            .all(|s| s
                .contains("is missing; with its rate of 19 % it is read as S, the standard rate")),
        "{missing:?}"
    );
    assert!(
        !rules(&r)
            .iter()
            .any(|rule| rule.starts_with("BR-O-") || rule.starts_with("BR-S-")),
        "{:?}",
        r.findings
    );

    let r = written("category-missing-zero.cii.xml");
    let d = &r.document;
    assert_eq!(
        (d.lines[0].category.code(), d.breakdown[0].category.code()),
        ("", "")
    );
    assert!(
        said(&r, "BR-47")[0].contains("does not say which it is"),
        "{:?}",
        r.findings
    );
    assert!(
        !rules(&r)
            .iter()
            .any(|rule| rule.starts_with("BR-O-") || rule.starts_with("BR-E-")),
        "{:?}",
        r.findings
    );
    assert_eq!(d.unlisted_categories(), [""]);

    let r = written("category-unlisted.ubl.xml");
    let d = &r.document;
    assert_eq!(
        (d.lines[0].category.code(), d.breakdown[0].category.code()),
        ("VAT", "VAT")
    );
    assert!(
        said(&r, "BR-CL-18")[0].contains("\"VAT\" (BT-151) is not on EN 16931's list"),
        "{:?}",
        r.findings
    );
    assert!(said(&r, "BR-CL-18")
        .iter()
        .all(|s| s.contains("kept as written")));
    assert!(
        !rules(&r).iter().any(|rule| rule.starts_with("BR-O-")),
        "{:?}",
        r.findings
    );
    assert!(r.valid(), "{:?}", r.findings);
    assert_eq!(d.unlisted_categories(), ["VAT"]);
}

/// The seller's tax representative (BG-11) is read in both syntaxes, and
/// its VAT id (BT-63) is what BR-S-02 asks of a seller without its own;
/// BR-06 asks for the seller's legal name (BT-27), which a trading name
/// (BT-28) does not stand for.
#[test]
fn the_tax_representative_is_read_and_stands_for_the_sellers_vat_id() {
    for name in ["tax-representative.cii.xml", "tax-representative.ubl.xml"] {
        let r = written(name);
        let d = &r.document;
        assert!(r.valid(), "{name}: {:?}", r.findings);
        assert_eq!(d.seller.vat_id, None, "{name}");
        assert_eq!(
            (d.seller.name.as_str(), d.seller.trading_name.as_deref()),
            ("Lumière Atelier SARL", Some("Atelier Lumière"))
        );
        let rep = d
            .tax_representative
            .as_ref()
            .unwrap_or_else(|| panic!("{name}"));
        assert_eq!(
            (rep.name.as_str(), rep.vat_id.as_deref()),
            ("Fiskalvertretung Main GmbH", Some("DE811907980")),
            "{name}"
        );
        let address = rep.address.as_ref().unwrap();
        assert_eq!(
            (address.city.as_deref(), address.country.as_str()),
            (Some("Frankfurt am Main"), "DE"),
            "{name}"
        );
        // Without the representative, the seller has no VAT id at all.
        let text = written_text(name);
        let start = text
            .find("<ram:SellerTaxRepresentativeTradeParty>")
            .or_else(|| text.find("<cac:TaxRepresentativeParty>"))
            .unwrap();
        let end = text
            .find("</ram:SellerTaxRepresentativeTradeParty>")
            .map(|e| e + 40)
            .or_else(|| text.find("</cac:TaxRepresentativeParty>").map(|e| e + 29))
            .unwrap();
        let alone = format!("{}{}", &text[..start], &text[end..]);
        let r = file(alone.as_bytes(), DAY).unwrap();
        assert!(rules(&r).contains(&"BR-S-02"), "{name}: {:?}", r.findings);
    }
    let trading_only = written_text("tax-representative.ubl.xml").replace(
        "<cbc:RegistrationName>Lumière Atelier SARL</cbc:RegistrationName>",
        "",
    );
    let r = file(trading_only.as_bytes(), DAY).unwrap();
    assert!(rules(&r).contains(&"BR-06"), "{:?}", r.findings);
    assert_eq!(r.document.seller.known_as(), "Atelier Lumière");
    // A representative without its VAT id or address breaks BR-56 and BR-19.
    let bare = written_text("tax-representative.cii.xml")
        .replace("<ram:ID schemeID=\"VA\">DE811907980</ram:ID>", "");
    let bare = bare.replacen("<ram:PostcodeCode>60311</ram:PostcodeCode>", "", 1);
    let r = file(bare.as_bytes(), DAY).unwrap();
    assert!(
        rules(&r).contains(&"BR-56") && rules(&r).contains(&"BR-S-02"),
        "{:?}",
        r.findings
    );
}

/// A UBL `CreditNote` without a type code is what its root element says.
#[test]
fn a_ubl_credit_note_without_a_type_code_is_a_credit_note() {
    let r = written("creditnote-without-type-code.ubl.xml");
    assert_eq!(r.document.type_code.number(), 381);
    assert!(r.document.type_code.is_credit());
    assert!(
        said(&r, "BR-04")[0].contains("read as 381, a credit note"),
        "{:?}",
        r.findings
    );
    // An invoice without one stays an invoice.
    let invoice = written_text("en16931.ubl.xml")
        .replace("<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>", "");
    let r = file(invoice.as_bytes(), DAY).unwrap();
    assert_eq!(r.document.type_code.number(), 380);
}
