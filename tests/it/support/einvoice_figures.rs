//! The figures a received e-invoice states, read from its XML itself with
//! XPath 1.0 (sxd-xpath) and, for a PDF, from the XML it embeds (found
//! with lopdf): no kontor code is involved, so a test can hold kontor's
//! reading against them.

use std::path::Path;

use sxd_document::dom::Document;
use sxd_document::parser;
use sxd_xpath::{Context, Factory, Value};

/// What the XML says, amounts in minor units (every fixture's currency has
/// two decimals), rates as decimal strings without trailing zeros, dates
/// as ISO 8601.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Figures {
    pub syntax: &'static str,
    pub type_code: String,
    pub number: String,
    pub issued_on: String,
    /// BT-9, empty when the document names none.
    pub due_on: String,
    pub seller: String,
    pub buyer: String,
    pub currency: String,
    /// BT-106, BT-109, BT-110, BT-112, BT-115.
    pub totals: [i64; 5],
    /// (category, rate, base, amount) per breakdown entry, in order.
    pub taxes: Vec<(String, String, i64, i64)>,
    pub lines: usize,
}

const CII: &[(&str, &str)] = &[
    (
        "rsm",
        "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
    ),
    (
        "ram",
        "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
    ),
    (
        "udt",
        "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100",
    ),
];
const UBL: &[(&str, &str)] = &[
    (
        "inv",
        "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2",
    ),
    (
        "cn",
        "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2",
    ),
    (
        "cac",
        "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
    ),
    (
        "cbc",
        "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
    ),
];

/// The figures of a fixture file (XML, or a PDF carrying it).
pub fn of_file(path: &Path) -> Figures {
    let bytes = std::fs::read(path).unwrap();
    let xml = if bytes.starts_with(b"%PDF") {
        embedded_xml(&bytes)
    } else {
        bytes
    };
    of_xml(std::str::from_utf8(&xml).unwrap())
}

pub fn of_xml(xml: &str) -> Figures {
    // XML's end-of-line handling reads CR LF as LF (XML 1.0, 2.11);
    // sxd-document leaves that to its caller.
    let xml = xml.replace("\r\n", "\n");
    let xml = xml.as_str();
    let package = parser::parse(xml.trim_start_matches('\u{feff}')).expect("well-formed XML");
    let doc = package.as_document();
    let x = XPath {
        doc,
        namespaces: if xml.contains("CrossIndustryInvoice") {
            CII
        } else {
            UBL
        },
    };
    if xml.contains("CrossIndustryInvoice") {
        let sum = "/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradeSettlementHeaderMonetarySummation";
        let currency = x.text("//ram:ApplicableHeaderTradeSettlement/ram:InvoiceCurrencyCode");
        let taxes = x.each(
            "//ram:ApplicableHeaderTradeSettlement/ram:ApplicableTradeTax",
            &[
                "ram:CategoryCode",
                "ram:RateApplicablePercent",
                "ram:BasisAmount",
                "ram:CalculatedAmount",
            ],
        );
        Figures {
            syntax: "cii",
            type_code: x.text("/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:TypeCode"),
            number: x.text("/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:ID"),
            issued_on: iso(&x.text("/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString")),
            due_on: iso(&x.text("//ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradePaymentTerms/ram:DueDateDateTime/udt:DateTimeString")),
            seller: x.text("//ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty/ram:Name"),
            buyer: x.text("//ram:ApplicableHeaderTradeAgreement/ram:BuyerTradeParty/ram:Name"),
            totals: [
                minor(&x.text(&format!("{sum}/ram:LineTotalAmount"))),
                minor(&x.text(&format!("{sum}/ram:TaxBasisTotalAmount"))),
                minor(&x.text(&format!(
                    "{sum}/ram:TaxTotalAmount[not(@currencyID) or @currencyID = '{currency}']"
                ))),
                minor(&x.text(&format!("{sum}/ram:GrandTotalAmount"))),
                minor(&x.text(&format!("{sum}/ram:DuePayableAmount"))),
            ],
            currency,
            taxes: taxes
                .into_iter()
                .map(|t| (t[0].clone(), rate(&t[1]), minor(&t[2]), minor(&t[3])))
                .collect(),
            // The lines that make the sums: Factur-X EXTENDED's
            // BR-FXEXT-CO-10 counts those whose BT-X-8 is DETAIL or absent.
            lines: x.count(
                "//rsm:SupplyChainTradeTransaction/ram:IncludedSupplyChainTradeLineItem[not(ram:AssociatedDocumentLineDocument/ram:LineStatusReasonCode) or ram:AssociatedDocumentLineDocument/ram:LineStatusReasonCode = 'DETAIL']",
            ),
        }
    } else {
        let currency = x.text("/*/cbc:DocumentCurrencyCode");
        let total = |name: &str| minor(&x.text(&format!("/*/cac:LegalMonetaryTotal/cbc:{name}")));
        let taxes = x.each(
            &format!("/*/cac:TaxTotal[cbc:TaxAmount/@currencyID = '{currency}']/cac:TaxSubtotal"),
            &[
                "cac:TaxCategory/cbc:ID",
                "cac:TaxCategory/cbc:Percent",
                "cbc:TaxableAmount",
                "cbc:TaxAmount",
            ],
        );
        Figures {
            syntax: "ubl",
            type_code: x.text("/*/cbc:InvoiceTypeCode | /*/cbc:CreditNoteTypeCode"),
            number: x.text("/*/cbc:ID"),
            issued_on: x.text("/*/cbc:IssueDate"),
            due_on: x.text("/*/cbc:DueDate | /*/cac:PaymentMeans/cbc:PaymentDueDate"),
            seller: x.text("/*/cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName"),
            buyer: x.text("/*/cac:AccountingCustomerParty/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName"),
            totals: [
                total("LineExtensionAmount"),
                total("TaxExclusiveAmount"),
                minor(&x.text(&format!("/*/cac:TaxTotal/cbc:TaxAmount[@currencyID = '{currency}']"))),
                total("TaxInclusiveAmount"),
                total("PayableAmount"),
            ],
            currency,
            taxes: taxes
                .into_iter()
                .map(|t| (t[0].clone(), rate(&t[1]), minor(&t[2]), minor(&t[3])))
                .collect(),
            lines: x.count("/*/cac:InvoiceLine | /*/cac:CreditNoteLine"),
        }
    }
}

/// The totals a bill does not keep but its page shows from the document:
/// BT-107 (allowances), BT-108 (charges), BT-113 (paid), in minor units;
/// 0 when the file gives none.
pub fn shown_totals(path: &Path) -> [i64; 3] {
    let xml = std::fs::read_to_string(path).unwrap().replace("\r\n", "\n");
    let package = parser::parse(xml.trim_start_matches('\u{feff}')).expect("well-formed XML");
    let doc = package.as_document();
    if xml.contains("CrossIndustryInvoice") {
        let x = XPath {
            doc,
            namespaces: CII,
        };
        let sum = |name: &str| {
            minor(&x.text(&format!(
                "//ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:{name}"
            )))
        };
        [
            sum("AllowanceTotalAmount"),
            sum("ChargeTotalAmount"),
            sum("TotalPrepaidAmount"),
        ]
    } else {
        let x = XPath {
            doc,
            namespaces: UBL,
        };
        let total = |name: &str| minor(&x.text(&format!("/*/cac:LegalMonetaryTotal/cbc:{name}")));
        [
            total("AllowanceTotalAmount"),
            total("ChargeTotalAmount"),
            total("PrepaidAmount"),
        ]
    }
}

struct XPath<'d> {
    doc: Document<'d>,
    namespaces: &'static [(&'static str, &'static str)],
}

impl<'d> XPath<'d> {
    fn context(&self) -> Context<'d> {
        let mut context = Context::new();
        for (prefix, uri) in self.namespaces {
            context.set_namespace(prefix, uri);
        }
        context
    }

    fn value(&self, node: sxd_xpath::nodeset::Node<'d>, path: &str) -> Value<'d> {
        let xpath = Factory::new()
            .build(path)
            .unwrap_or_else(|e| panic!("{path}: {e:?}"))
            .unwrap();
        xpath
            .evaluate(&self.context(), node)
            .unwrap_or_else(|e| panic!("{path}: {e:?}"))
    }

    /// The string value of the first node `path` selects, trimmed.
    fn text(&self, path: &str) -> String {
        match self.value(self.doc.root().into(), path) {
            Value::Nodeset(nodes) => nodes
                .document_order_first()
                .map(|n| n.string_value().trim().to_string())
                .unwrap_or_default(),
            other => other.string().trim().to_string(),
        }
    }

    fn count(&self, path: &str) -> usize {
        match self.value(self.doc.root().into(), path) {
            Value::Nodeset(nodes) => nodes.size(),
            other => panic!("{path} selects no nodes: {other:?}"),
        }
    }

    /// For each node `path` selects, the text of each of `fields` under it.
    fn each(&self, path: &str, fields: &[&str]) -> Vec<Vec<String>> {
        let Value::Nodeset(nodes) = self.value(self.doc.root().into(), path) else {
            panic!("{path} selects no nodes");
        };
        nodes
            .document_order()
            .into_iter()
            .map(|node| {
                fields
                    .iter()
                    .map(|field| match self.value(node, field) {
                        Value::Nodeset(found) => found
                            .document_order_first()
                            .map(|n| n.string_value().trim().to_string())
                            .unwrap_or_default(),
                        other => other.string(),
                    })
                    .collect()
            })
            .collect()
    }
}

/// A decimal text as minor units of a two-decimal currency.
fn minor(text: &str) -> i64 {
    if text.is_empty() {
        return 0;
    }
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let fraction = format!("{fraction:0<2}");
    assert!(
        fraction[2..].chars().all(|c| c == '0'),
        "{text} has more than two decimals"
    );
    let value = whole.parse::<i64>().unwrap_or(0) * 100 + fraction[..2].parse::<i64>().unwrap();
    if negative {
        -value
    } else {
        value
    }
}

/// A rate without trailing zeros ("19.00" → "19"); an absent one is "0".
fn rate(text: &str) -> String {
    if text.is_empty() {
        return "0".into();
    }
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text.to_string()
    }
}

/// `YYYYMMDD` as `YYYY-MM-DD`.
fn iso(day: &str) -> String {
    if day.is_empty() {
        return String::new();
    }
    format!("{}-{}-{}", &day[..4], &day[4..6], &day[6..8])
}

/// The e-invoice a PDF embeds, by the name the Factur-X specification
/// gives it, found with lopdf alone.
fn embedded_xml(pdf: &[u8]) -> Vec<u8> {
    let doc = lopdf::Document::load_mem(pdf).unwrap();
    for object in doc.objects.values() {
        let Ok(spec) = object.as_dict() else { continue };
        if spec.get(b"Type").ok().and_then(|t| t.as_name().ok()) != Some(b"Filespec".as_slice()) {
            continue;
        }
        let name = spec
            .get(b"F")
            .ok()
            .and_then(|f| f.as_str().ok())
            .map(|n| String::from_utf8_lossy(n).to_lowercase())
            .unwrap_or_default();
        if !["factur-x.xml", "zugferd-invoice.xml", "xrechnung.xml"].contains(&name.as_str()) {
            continue;
        }
        let files = spec.get(b"EF").unwrap().as_dict().unwrap();
        let id = files.get(b"F").unwrap().as_reference().unwrap();
        let stream = doc.get_object(id).unwrap().as_stream().unwrap();
        return stream.get_plain_content().unwrap();
    }
    panic!("the PDF embeds no e-invoice");
}
