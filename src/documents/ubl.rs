//! UBL 2.1 as Peppol BIS Billing 3.0 uses it: an `Invoice`, or for a
//! correction a `CreditNote`. Element order follows the UBL 2.1 schemas.

use super::xml::Xml;
use super::{Address, Category, Document, Party};

pub const CUSTOMIZATION: &str =
    "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0";
pub const PROFILE: &str = "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0";

/// Writes `doc` as a Peppol BIS Billing 3.0 UBL document.
pub fn write(doc: &Document) -> std::io::Result<Vec<u8>> {
    let credit = doc.type_code.is_credit();
    let root = if credit { "CreditNote" } else { "Invoice" };
    let mut x = Xml::new();
    let namespace = format!("urn:oasis:names:specification:ubl:schema:xsd:{root}-2");
    x.open(
        root,
        &[
            ("xmlns", &namespace),
            (
                "xmlns:cac",
                "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
            ),
            (
                "xmlns:cbc",
                "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
            ),
        ],
    );
    x.text("cbc:CustomizationID", CUSTOMIZATION);
    x.text("cbc:ProfileID", PROFILE);
    x.text("cbc:ID", &doc.number);
    x.text("cbc:IssueDate", &doc.issued_on.to_string());
    if credit {
        x.text("cbc:CreditNoteTypeCode", &doc.type_code.code());
    } else {
        if let Some(due) = doc.due_on {
            x.text("cbc:DueDate", &due.to_string());
        }
        x.text("cbc:InvoiceTypeCode", &doc.type_code.code());
    }
    // UBL's note has no subject code; the text goes alone.
    for note in &doc.notes {
        x.text("cbc:Note", &note.text);
    }
    x.text("cbc:DocumentCurrencyCode", &doc.currency);
    if let Some(accounting) = &doc.accounting_tax {
        x.text("cbc:TaxCurrencyCode", &accounting.currency);
    }
    x.optional("cbc:BuyerReference", doc.buyer_reference.as_deref());
    if let Some(period) = doc.period {
        x.open("cac:InvoicePeriod", &[]);
        x.optional(
            "cbc:StartDate",
            period.from.map(|d| d.to_string()).as_deref(),
        );
        x.optional("cbc:EndDate", period.to.map(|d| d.to_string()).as_deref());
        x.close("cac:InvoicePeriod");
    }
    if let Some(order) = &doc.order_reference {
        x.open("cac:OrderReference", &[]);
        x.text("cbc:ID", order);
        x.close("cac:OrderReference");
    }
    if let Some(preceding) = &doc.preceding {
        x.open("cac:BillingReference", &[]);
        x.open("cac:InvoiceDocumentReference", &[]);
        x.text("cbc:ID", &preceding.number);
        x.optional(
            "cbc:IssueDate",
            preceding.issued_on.map(|d| d.to_string()).as_deref(),
        );
        x.close("cac:InvoiceDocumentReference");
        x.close("cac:BillingReference");
    }
    x.open("cac:AccountingSupplierParty", &[]);
    party(&mut x, &doc.seller, true);
    x.close("cac:AccountingSupplierParty");
    x.open("cac:AccountingCustomerParty", &[]);
    party(&mut x, &doc.buyer, false);
    x.close("cac:AccountingCustomerParty");
    if doc.delivered_on.is_some() || doc.deliver_to.is_some() {
        x.open("cac:Delivery", &[]);
        x.optional(
            "cbc:ActualDeliveryDate",
            doc.delivered_on.map(|d| d.to_string()).as_deref(),
        );
        if let Some(place) = &doc.deliver_to {
            x.open("cac:DeliveryLocation", &[]);
            address(&mut x, "cac:Address", place);
            x.close("cac:DeliveryLocation");
        }
        x.close("cac:Delivery");
    }
    x.open("cac:PaymentMeans", &[]);
    let means = doc.payment_means.as_ref().map(|m| m.code.as_str());
    match &doc.transfer {
        Some(transfer) => {
            x.text("cbc:PaymentMeansCode", means.unwrap_or("58"));
            if credit {
                if let Some(due) = doc.due_on {
                    x.text("cbc:PaymentDueDate", &due.to_string());
                }
            }
            x.optional("cbc:PaymentID", doc.payment_reference.as_deref());
            x.open("cac:PayeeFinancialAccount", &[]);
            x.text("cbc:ID", &transfer.iban);
            x.optional("cbc:Name", transfer.account_holder.as_deref());
            if let Some(bic) = &transfer.bic {
                x.open("cac:FinancialInstitutionBranch", &[]);
                x.text("cbc:ID", bic);
                x.close("cac:FinancialInstitutionBranch");
            }
            x.close("cac:PayeeFinancialAccount");
        }
        None => {
            x.text("cbc:PaymentMeansCode", means.unwrap_or("1"));
            if credit {
                if let Some(due) = doc.due_on {
                    x.text("cbc:PaymentDueDate", &due.to_string());
                }
            }
        }
    }
    x.close("cac:PaymentMeans");
    if let Some(terms) = &doc.payment_terms {
        x.open("cac:PaymentTerms", &[]);
        x.text("cbc:Note", terms);
        x.close("cac:PaymentTerms");
    }
    let currency = [("currencyID", doc.currency.as_str())];
    x.open("cac:TaxTotal", &[]);
    x.text_with("cbc:TaxAmount", &currency, &doc.amount(doc.tax));
    for entry in &doc.breakdown {
        x.open("cac:TaxSubtotal", &[]);
        x.text_with("cbc:TaxableAmount", &currency, &doc.amount(entry.base));
        x.text_with("cbc:TaxAmount", &currency, &doc.amount(entry.amount));
        tax_category(
            &mut x,
            "cac:TaxCategory",
            &entry.category,
            &entry.rate.to_string(),
            entry.reason_code.as_deref(),
            entry.reason.as_deref(),
        );
        x.close("cac:TaxSubtotal");
    }
    x.close("cac:TaxTotal");
    if let Some(accounting) = &doc.accounting_tax {
        x.open("cac:TaxTotal", &[]);
        x.text_with(
            "cbc:TaxAmount",
            &[("currencyID", &accounting.currency)],
            &crate::rules::money::minor_text(accounting.amount, accounting.exponent, '.'),
        );
        x.close("cac:TaxTotal");
    }
    x.open("cac:LegalMonetaryTotal", &[]);
    x.text_with(
        "cbc:LineExtensionAmount",
        &currency,
        &doc.amount(doc.line_total),
    );
    x.text_with("cbc:TaxExclusiveAmount", &currency, &doc.amount(doc.net));
    x.text_with("cbc:TaxInclusiveAmount", &currency, &doc.amount(doc.gross));
    if doc.paid != 0 {
        x.text_with("cbc:PrepaidAmount", &currency, &doc.amount(doc.paid));
    }
    x.text_with("cbc:PayableAmount", &currency, &doc.amount(doc.due));
    x.close("cac:LegalMonetaryTotal");
    let (line_element, quantity_element) = if credit {
        ("cac:CreditNoteLine", "cbc:CreditedQuantity")
    } else {
        ("cac:InvoiceLine", "cbc:InvoicedQuantity")
    };
    for line in &doc.lines {
        x.open(line_element, &[]);
        x.text("cbc:ID", &line.id);
        x.text_with(
            quantity_element,
            &[("unitCode", &line.unit)],
            &line.quantity.to_string(),
        );
        x.text_with("cbc:LineExtensionAmount", &currency, &doc.amount(line.net));
        x.open("cac:Item", &[]);
        x.text("cbc:Name", &line.name);
        tax_category(
            &mut x,
            "cac:ClassifiedTaxCategory",
            &line.category,
            &line.rate.to_string(),
            None,
            None,
        );
        x.close("cac:Item");
        x.open("cac:Price", &[]);
        x.text_with("cbc:PriceAmount", &currency, &doc.price(&line.price));
        x.close("cac:Price");
        x.close(line_element);
    }
    x.close(root);
    x.finish()
}

fn tax_category(
    x: &mut Xml,
    element: &str,
    category: &Category,
    rate: &str,
    reason_code: Option<&str>,
    reason: Option<&str>,
) {
    x.open(element, &[]);
    x.text("cbc:ID", category.code());
    // Peppol: no percent for "not subject to VAT" (O).
    if *category != Category::O {
        x.text("cbc:Percent", rate);
    }
    x.optional("cbc:TaxExemptionReasonCode", reason_code);
    x.optional("cbc:TaxExemptionReason", reason);
    x.open("cac:TaxScheme", &[]);
    x.text("cbc:ID", "VAT");
    x.close("cac:TaxScheme");
    x.close(element);
}

/// A party: endpoint, name, address, tax schemes, legal entity, contact.
fn party(x: &mut Xml, p: &Party, seller: bool) {
    x.open("cac:Party", &[]);
    if let Some(address) = &p.electronic_address {
        x.text_with(
            "cbc:EndpointID",
            &[("schemeID", &address.scheme)],
            &address.value,
        );
    }
    x.open("cac:PartyName", &[]);
    x.text("cbc:Name", &p.name);
    x.close("cac:PartyName");
    address(x, "cac:PostalAddress", &p.address);
    if let Some(vat_id) = &p.vat_id {
        x.open("cac:PartyTaxScheme", &[]);
        x.text("cbc:CompanyID", vat_id);
        x.open("cac:TaxScheme", &[]);
        x.text("cbc:ID", "VAT");
        x.close("cac:TaxScheme");
        x.close("cac:PartyTaxScheme");
    }
    if let Some(number) = p.tax_number.as_deref().filter(|_| seller) {
        x.open("cac:PartyTaxScheme", &[]);
        x.text("cbc:CompanyID", number);
        x.open("cac:TaxScheme", &[]);
        x.text("cbc:ID", "FC");
        x.close("cac:TaxScheme");
        x.close("cac:PartyTaxScheme");
    }
    x.open("cac:PartyLegalEntity", &[]);
    x.text("cbc:RegistrationName", &p.name);
    if seller {
        x.optional("cbc:CompanyID", p.registration.as_deref());
        x.optional("cbc:CompanyLegalForm", p.legal_info.as_deref());
    }
    x.close("cac:PartyLegalEntity");
    if !p.contact.is_empty() {
        x.open("cac:Contact", &[]);
        x.optional("cbc:Name", p.contact.name.as_deref());
        x.optional("cbc:Telephone", p.contact.phone.as_deref());
        x.optional("cbc:ElectronicMail", p.contact.email.as_deref());
        x.close("cac:Contact");
    }
    x.close("cac:Party");
}

fn address(x: &mut Xml, element: &str, a: &Address) {
    x.open(element, &[]);
    x.optional("cbc:StreetName", a.street.as_deref());
    x.optional("cbc:CityName", a.city.as_deref());
    x.optional("cbc:PostalZone", a.postal_code.as_deref());
    x.open("cac:Country", &[]);
    x.text("cbc:IdentificationCode", &a.country);
    x.close("cac:Country");
    x.close(element);
}
