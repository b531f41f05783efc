//! UN/CEFACT Cross Industry Invoice D16B as EN 16931 maps it: the `cii`
//! document (guideline `urn:cen.eu:en16931:2017`, also the XML a Factur-X
//! PDF embeds) and the `xrechnung` one (the XRechnung 3.0 CIUS). Element
//! order follows the D16B schema.

use super::xml::Xml;
use super::{date_102, Address, Document, Party};

pub const EN16931: &str = "urn:cen.eu:en16931:2017";
pub const XRECHNUNG: &str = "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0";
/// BT-23, the Peppol billing process XRechnung documents name.
pub const BILLING_PROCESS: &str = "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0";

/// Which CII document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Guideline {
    En16931,
    XRechnung,
}

/// Writes `doc` as CII.
pub fn write(doc: &Document, guideline: Guideline) -> std::io::Result<Vec<u8>> {
    let mut x = Xml::new();
    x.open(
        "rsm:CrossIndustryInvoice",
        &[
            (
                "xmlns:rsm",
                "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
            ),
            (
                "xmlns:ram",
                "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
            ),
            (
                "xmlns:qdt",
                "urn:un:unece:uncefact:data:standard:QualifiedDataType:100",
            ),
            (
                "xmlns:udt",
                "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100",
            ),
        ],
    );
    x.open("rsm:ExchangedDocumentContext", &[]);
    if guideline == Guideline::XRechnung {
        x.open("ram:BusinessProcessSpecifiedDocumentContextParameter", &[]);
        x.text("ram:ID", BILLING_PROCESS);
        x.close("ram:BusinessProcessSpecifiedDocumentContextParameter");
    }
    x.open("ram:GuidelineSpecifiedDocumentContextParameter", &[]);
    x.text(
        "ram:ID",
        match guideline {
            Guideline::En16931 => EN16931,
            Guideline::XRechnung => XRECHNUNG,
        },
    );
    x.close("ram:GuidelineSpecifiedDocumentContextParameter");
    x.close("rsm:ExchangedDocumentContext");

    x.open("rsm:ExchangedDocument", &[]);
    x.text("ram:ID", &doc.number);
    x.text("ram:TypeCode", &doc.type_code.code());
    x.open("ram:IssueDateTime", &[]);
    date(&mut x, "udt:DateTimeString", doc.issued_on);
    x.close("ram:IssueDateTime");
    for note in &doc.notes {
        x.open("ram:IncludedNote", &[]);
        x.text("ram:Content", &note.text);
        x.optional("ram:SubjectCode", note.subject.as_deref());
        x.close("ram:IncludedNote");
    }
    x.close("rsm:ExchangedDocument");

    x.open("rsm:SupplyChainTradeTransaction", &[]);
    for line in &doc.lines {
        x.open("ram:IncludedSupplyChainTradeLineItem", &[]);
        x.open("ram:AssociatedDocumentLineDocument", &[]);
        x.text("ram:LineID", &line.id);
        x.close("ram:AssociatedDocumentLineDocument");
        x.open("ram:SpecifiedTradeProduct", &[]);
        x.text("ram:Name", &line.name);
        x.close("ram:SpecifiedTradeProduct");
        x.open("ram:SpecifiedLineTradeAgreement", &[]);
        x.open("ram:NetPriceProductTradePrice", &[]);
        x.text("ram:ChargeAmount", &doc.price(&line.price));
        x.close("ram:NetPriceProductTradePrice");
        x.close("ram:SpecifiedLineTradeAgreement");
        x.open("ram:SpecifiedLineTradeDelivery", &[]);
        x.text_with(
            "ram:BilledQuantity",
            &[("unitCode", &line.unit)],
            &line.quantity.to_string(),
        );
        x.close("ram:SpecifiedLineTradeDelivery");
        x.open("ram:SpecifiedLineTradeSettlement", &[]);
        x.open("ram:ApplicableTradeTax", &[]);
        x.text("ram:TypeCode", "VAT");
        x.text("ram:CategoryCode", line.category.code());
        x.text("ram:RateApplicablePercent", &line.rate.to_string());
        x.close("ram:ApplicableTradeTax");
        x.open("ram:SpecifiedTradeSettlementLineMonetarySummation", &[]);
        x.text("ram:LineTotalAmount", &doc.amount(line.net));
        x.close("ram:SpecifiedTradeSettlementLineMonetarySummation");
        x.close("ram:SpecifiedLineTradeSettlement");
        x.close("ram:IncludedSupplyChainTradeLineItem");
    }

    x.open("ram:ApplicableHeaderTradeAgreement", &[]);
    x.optional("ram:BuyerReference", doc.buyer_reference.as_deref());
    party(&mut x, "ram:SellerTradeParty", &doc.seller, true);
    party(&mut x, "ram:BuyerTradeParty", &doc.buyer, false);
    if let Some(order) = &doc.order_reference {
        x.open("ram:BuyerOrderReferencedDocument", &[]);
        x.text("ram:IssuerAssignedID", order);
        x.close("ram:BuyerOrderReferencedDocument");
    }
    x.close("ram:ApplicableHeaderTradeAgreement");

    x.open("ram:ApplicableHeaderTradeDelivery", &[]);
    if let Some(place) = &doc.deliver_to {
        x.open("ram:ShipToTradeParty", &[]);
        postal_address(&mut x, place);
        x.close("ram:ShipToTradeParty");
    }
    if let Some(day) = doc.delivered_on {
        x.open("ram:ActualDeliverySupplyChainEvent", &[]);
        x.open("ram:OccurrenceDateTime", &[]);
        date(&mut x, "udt:DateTimeString", day);
        x.close("ram:OccurrenceDateTime");
        x.close("ram:ActualDeliverySupplyChainEvent");
    }
    x.close("ram:ApplicableHeaderTradeDelivery");

    x.open("ram:ApplicableHeaderTradeSettlement", &[]);
    x.optional("ram:PaymentReference", doc.payment_reference.as_deref());
    if let Some(accounting) = &doc.accounting_tax {
        x.text("ram:TaxCurrencyCode", &accounting.currency);
    }
    x.text("ram:InvoiceCurrencyCode", &doc.currency);
    x.open("ram:SpecifiedTradeSettlementPaymentMeans", &[]);
    let means = doc.payment_means.as_ref().map(|m| m.code.as_str());
    match &doc.transfer {
        Some(transfer) => {
            x.text("ram:TypeCode", means.unwrap_or("58"));
            x.open("ram:PayeePartyCreditorFinancialAccount", &[]);
            x.text("ram:IBANID", &transfer.iban);
            x.optional("ram:AccountName", transfer.account_holder.as_deref());
            x.close("ram:PayeePartyCreditorFinancialAccount");
            if let Some(bic) = &transfer.bic {
                x.open("ram:PayeeSpecifiedCreditorFinancialInstitution", &[]);
                x.text("ram:BICID", bic);
                x.close("ram:PayeeSpecifiedCreditorFinancialInstitution");
            }
        }
        None => x.text("ram:TypeCode", means.unwrap_or("1")),
    }
    x.close("ram:SpecifiedTradeSettlementPaymentMeans");
    for entry in &doc.breakdown {
        x.open("ram:ApplicableTradeTax", &[]);
        x.text("ram:CalculatedAmount", &doc.amount(entry.amount));
        x.text("ram:TypeCode", "VAT");
        x.optional("ram:ExemptionReason", entry.reason.as_deref());
        x.text("ram:BasisAmount", &doc.amount(entry.base));
        x.text("ram:CategoryCode", entry.category.code());
        x.optional("ram:ExemptionReasonCode", entry.reason_code.as_deref());
        x.text("ram:RateApplicablePercent", &entry.rate.to_string());
        x.close("ram:ApplicableTradeTax");
    }
    if let Some(period) = doc.period {
        x.open("ram:BillingSpecifiedPeriod", &[]);
        if let Some(from) = period.from {
            x.open("ram:StartDateTime", &[]);
            date(&mut x, "udt:DateTimeString", from);
            x.close("ram:StartDateTime");
        }
        if let Some(to) = period.to {
            x.open("ram:EndDateTime", &[]);
            date(&mut x, "udt:DateTimeString", to);
            x.close("ram:EndDateTime");
        }
        x.close("ram:BillingSpecifiedPeriod");
    }
    if doc.payment_terms.is_some() || doc.due_on.is_some() {
        x.open("ram:SpecifiedTradePaymentTerms", &[]);
        x.optional("ram:Description", doc.payment_terms.as_deref());
        if let Some(due) = doc.due_on {
            x.open("ram:DueDateDateTime", &[]);
            date(&mut x, "udt:DateTimeString", due);
            x.close("ram:DueDateDateTime");
        }
        x.close("ram:SpecifiedTradePaymentTerms");
    }
    x.open("ram:SpecifiedTradeSettlementHeaderMonetarySummation", &[]);
    x.text("ram:LineTotalAmount", &doc.amount(doc.line_total));
    x.text("ram:TaxBasisTotalAmount", &doc.amount(doc.net));
    x.text_with(
        "ram:TaxTotalAmount",
        &[("currencyID", &doc.currency)],
        &doc.amount(doc.tax),
    );
    if let Some(accounting) = &doc.accounting_tax {
        x.text_with(
            "ram:TaxTotalAmount",
            &[("currencyID", &accounting.currency)],
            &crate::rules::money::minor_text(accounting.amount, accounting.exponent, '.'),
        );
    }
    x.text("ram:GrandTotalAmount", &doc.amount(doc.gross));
    if doc.paid != 0 {
        x.text("ram:TotalPrepaidAmount", &doc.amount(doc.paid));
    }
    x.text("ram:DuePayableAmount", &doc.amount(doc.due));
    x.close("ram:SpecifiedTradeSettlementHeaderMonetarySummation");
    if let Some(preceding) = &doc.preceding {
        x.open("ram:InvoiceReferencedDocument", &[]);
        x.text("ram:IssuerAssignedID", &preceding.number);
        if let Some(issued_on) = preceding.issued_on {
            x.open("ram:FormattedIssueDateTime", &[]);
            date(&mut x, "qdt:DateTimeString", issued_on);
            x.close("ram:FormattedIssueDateTime");
        }
        x.close("ram:InvoiceReferencedDocument");
    }
    x.close("ram:ApplicableHeaderTradeSettlement");
    x.close("rsm:SupplyChainTradeTransaction");
    x.close("rsm:CrossIndustryInvoice");
    x.finish()
}

fn date(x: &mut Xml, element: &str, day: jiff::civil::Date) {
    x.text_with(element, &[("format", "102")], &date_102(day));
}

/// A trade party: name, legal organisation, contact, address, electronic
/// address, tax registrations, in the schema's order.
fn party(x: &mut Xml, element: &str, p: &Party, seller: bool) {
    x.open(element, &[]);
    x.text("ram:Name", &p.name);
    x.optional(
        "ram:Description",
        p.legal_info.as_deref().filter(|_| seller),
    );
    if let Some(registration) = p.registration.as_deref().filter(|_| seller) {
        x.open("ram:SpecifiedLegalOrganization", &[]);
        x.text("ram:ID", registration);
        x.close("ram:SpecifiedLegalOrganization");
    }
    if !p.contact.is_empty() {
        x.open("ram:DefinedTradeContact", &[]);
        x.optional("ram:PersonName", p.contact.name.as_deref());
        if let Some(phone) = &p.contact.phone {
            x.open("ram:TelephoneUniversalCommunication", &[]);
            x.text("ram:CompleteNumber", phone);
            x.close("ram:TelephoneUniversalCommunication");
        }
        if let Some(email) = &p.contact.email {
            x.open("ram:EmailURIUniversalCommunication", &[]);
            x.text("ram:URIID", email);
            x.close("ram:EmailURIUniversalCommunication");
        }
        x.close("ram:DefinedTradeContact");
    }
    postal_address(x, &p.address);
    if let Some(address) = &p.electronic_address {
        x.open("ram:URIUniversalCommunication", &[]);
        x.text_with(
            "ram:URIID",
            &[("schemeID", &address.scheme)],
            &address.value,
        );
        x.close("ram:URIUniversalCommunication");
    }
    if let Some(vat_id) = &p.vat_id {
        x.open("ram:SpecifiedTaxRegistration", &[]);
        x.text_with("ram:ID", &[("schemeID", "VA")], vat_id);
        x.close("ram:SpecifiedTaxRegistration");
    }
    if let Some(number) = p.tax_number.as_deref().filter(|_| seller) {
        x.open("ram:SpecifiedTaxRegistration", &[]);
        x.text_with("ram:ID", &[("schemeID", "FC")], number);
        x.close("ram:SpecifiedTaxRegistration");
    }
    x.close(element);
}

fn postal_address(x: &mut Xml, a: &Address) {
    x.open("ram:PostalTradeAddress", &[]);
    x.optional("ram:PostcodeCode", a.postal_code.as_deref());
    x.optional("ram:LineOne", a.street.as_deref());
    x.optional("ram:CityName", a.city.as_deref());
    x.text("ram:CountryID", &a.country);
    x.close("ram:PostalTradeAddress");
}
