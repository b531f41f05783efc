//! Reading UBL 2.1 `Invoice` and `CreditNote` (XRechnung, Peppol BIS
//! Billing 3.0, plain EN 16931) into the one model. A credit note's
//! amounts are read as written (positive), its due date from its payment
//! means, and without a type code (BT-3) it is what its root element says,
//! a credit note (381); a note written `#SUBJECT#text` (as XRechnung does)
//! gives its subject code. A party's name (BT-27, BT-44) is its legal
//! name, `cac:PartyLegalEntity/cbc:RegistrationName`, as EN 16931's UBL
//! binding maps it; `cac:PartyName` is the trading name (BT-28, BT-45).

use jiff::civil::Date;

use super::terms::{accounting_tax, compact, text, type_code, AllowanceParts, Terms, Totals};
use super::tree::{Node, Refusal};
use crate::documents::verdict::Finding;
use crate::documents::{
    Address, Breakdown, Card, Contact, DirectDebit, Document, ElectronicAddress, Line, Note, Party,
    PaymentMeans, Period, Preceding, TaxRepresentative, Transfer, TypeCode,
};
use crate::rules::money::Decimal;

/// The namespace of a UBL 2.1 invoice's root.
pub const INVOICE: &str = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
/// The namespace of a UBL 2.1 credit note's root.
pub const CREDIT_NOTE: &str = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2";

/// Reads a UBL invoice or credit note; a document without an issue date
/// is dated `received_on` (and says so in its findings).
///
/// Fails with a `Refusal` when its currency is missing or unknown.
pub fn read(root: &Node, received_on: Date) -> Result<(Document, Vec<Finding>), Refusal> {
    let credit = root.name == "CreditNote";
    let r = Some(root);
    let (mut t, currency) = Terms::new(root.text_at(&["DocumentCurrencyCode"]))?;
    let specification = text(r, &["CustomizationID"]);
    if specification.is_none() {
        t.find("BR-01", "the specification identifier (BT-24) is missing");
    }
    let number = text(r, &["ID"]).unwrap_or_default();
    let type_code = type_code(
        &mut t,
        text(
            r,
            &[if credit {
                "CreditNoteTypeCode"
            } else {
                "InvoiceTypeCode"
            }],
        ),
        if credit {
            TypeCode::CreditNote
        } else {
            TypeCode::Invoice
        },
    );
    let issued_on = match t.date(root.child("IssueDate"), "BT-2") {
        Some(day) => day,
        None => {
            t.find(
                "BR-03",
                format!("the issue date (BT-2) is missing or unreadable; the document is dated the day it arrived, {received_on}"),
            );
            received_on
        }
    };
    let notes = root.all("Note").filter_map(Node::value).map(note).collect();
    let seller = root.at(&["AccountingSupplierParty", "Party"]);
    let buyer = root.at(&["AccountingCustomerParty", "Party"]);
    if seller.and_then(|s| s.child("PostalAddress")).is_none() {
        t.find("BR-08", "the seller's postal address (BG-5) is missing");
    }
    if buyer.and_then(|b| b.child("PostalAddress")).is_none() {
        t.find("BR-10", "the buyer's postal address (BG-8) is missing");
    }

    let line_name = if credit {
        "CreditNoteLine"
    } else {
        "InvoiceLine"
    };
    let lines = root
        .all(line_name)
        .collect::<Vec<_>>()
        .into_iter()
        .enumerate()
        .map(|(n, l)| line(&mut t, l, n + 1, credit))
        .collect();

    let means: Vec<&Node> = root.all("PaymentMeans").collect();
    let first = means.first().copied();
    let transfer = means.iter().find_map(|m| {
        let account = m.child("PayeeFinancialAccount")?;
        Some(Transfer {
            iban: compact(account.text_at(&["ID"])?),
            bic: account.string_at(&["FinancialInstitutionBranch", "ID"]),
            account_holder: account.string_at(&["Name"]),
        })
    });
    let card = means.iter().find_map(|m| {
        let card = m.child("CardAccount")?;
        Some(Card {
            number: card.string_at(&["PrimaryAccountNumberID"])?,
            holder: card.string_at(&["HolderName"]),
        })
    });
    let mandate = means.iter().find_map(|m| m.child("PaymentMandate"));
    let creditor_id = [seller, root.child("PayeeParty")]
        .into_iter()
        .flatten()
        .flat_map(|p| p.all("PartyIdentification"))
        .filter_map(|i| i.child("ID"))
        .find(|id| id.attribute("schemeID") == Some("SEPA"))
        .and_then(Node::value)
        .map(str::to_string);
    let direct_debit = (mandate.is_some() || creditor_id.is_some()).then(|| DirectDebit {
        mandate: text(mandate, &["ID"]),
        creditor_id,
        account: text(mandate, &["PayerFinancialAccount", "ID"]).map(|a| compact(&a)),
    });
    let payment_terms: Vec<&str> = root
        .all("PaymentTerms")
        .filter_map(|p| p.text_at(&["Note"]))
        .collect();
    let due_node = if credit {
        means.iter().find_map(|m| m.child("PaymentDueDate"))
    } else {
        root.child("DueDate")
    };
    let due_on = t.date(due_node, "BT-9");

    let tax_currency = text(r, &["TaxCurrencyCode"]).filter(|c| *c != currency);
    let mut tax = None;
    let mut accounting = None;
    let mut breakdown = Vec::new();
    for total in root.all("TaxTotal") {
        let Some(amount) = total.child("TaxAmount") else {
            continue;
        };
        let id = amount.attribute("currencyID");
        if tax.is_none() && id.is_none_or(|c| c == currency) {
            tax = t.amount(Some(amount), "BT-110");
            for sub in total.all("TaxSubtotal") {
                breakdown.push(subtotal(&mut t, sub));
            }
        } else if id.is_some() && id == tax_currency.as_deref() {
            accounting = accounting_tax(&mut t, amount, id.unwrap_or_default());
        }
    }
    let allowances = root
        .all("AllowanceCharge")
        .collect::<Vec<_>>()
        .into_iter()
        .map(|x| {
            let tax = x.child("TaxCategory");
            let parts = AllowanceParts {
                vat: tax.map(|c| (c.text_at(&["ID"]), c.child("Percent"))),
                ..allowance_parts(x)
            };
            t.allowance_charge(parts, "the document")
        })
        .collect();
    let monetary = root.child("LegalMonetaryTotal");
    let Totals {
        line_total,
        allowance_total,
        charge_total,
        net,
        gross,
        paid,
        rounding,
        due,
    } = t.totals(|name| monetary.and_then(|m| m.child(name)), &TOTALS);

    let preceding = root
        .at(&["BillingReference", "InvoiceDocumentReference"])
        .and_then(|d| {
            Some(Preceding {
                number: d.string_at(&["ID"])?,
                issued_on: t.date(d.child("IssueDate"), "BT-26"),
            })
        });
    let attachments = root
        .all("AdditionalDocumentReference")
        .filter(|d| !matches!(d.text_at(&["DocumentTypeCode"]), Some("130") | Some("50")))
        .collect::<Vec<_>>()
        .into_iter()
        .map(|d| {
            t.attachment(
                d.child("ID"),
                d.child("DocumentDescription"),
                d.at(&["Attachment", "ExternalReference", "URI"]),
                d.at(&["Attachment", "EmbeddedDocumentBinaryObject"]),
            )
        })
        .collect();
    let period = root.child("InvoicePeriod").and_then(|p| period(&mut t, p));
    let delivered_on = root
        .at(&["Delivery", "ActualDeliveryDate"])
        .and_then(|d| t.date(Some(d), "BT-72"));

    let exponent = t.exponent;
    let document = Document {
        type_code,
        number,
        issued_on,
        specification,
        currency,
        exponent,
        accounting_tax: accounting,
        due_on,
        payment_terms: (!payment_terms.is_empty()).then(|| payment_terms.join("\n")),
        buyer_reference: text(r, &["BuyerReference"]),
        order_reference: text(r, &["OrderReference", "ID"]),
        contract_reference: text(r, &["ContractDocumentReference", "ID"]),
        project_reference: text(r, &["ProjectReference", "ID"]),
        preceding,
        delivered_on,
        deliver_to: root
            .at(&["Delivery", "DeliveryLocation", "Address"])
            .map(address),
        period,
        notes,
        seller: seller.map(|p| party(p, true)).unwrap_or_default(),
        buyer: buyer.map(|p| party(p, false)).unwrap_or_default(),
        tax_representative: root.child("TaxRepresentativeParty").map(|r| {
            let p = party(r, false);
            TaxRepresentative {
                // BT-62 is the representative's `cac:PartyName`.
                name: p.trading_name.unwrap_or(p.name),
                vat_id: p.vat_id,
                address: r.child("PostalAddress").map(address),
            }
        }),
        payee: text(r, &["PayeeParty", "PartyName", "Name"]),
        payment_means: first.and_then(|m| {
            let code = m.child("PaymentMeansCode")?;
            Some(PaymentMeans {
                code: code.value()?.to_string(),
                text: code.attribute("name").map(str::to_string),
            })
        }),
        payment_reference: means.iter().find_map(|m| m.string_at(&["PaymentID"])),
        transfer,
        card,
        direct_debit,
        lines,
        allowances,
        breakdown,
        attachments,
        line_total,
        allowance_total,
        charge_total,
        net,
        tax: tax.unwrap_or(0),
        gross,
        paid,
        rounding,
        due,
    };
    Ok((document, t.finish()))
}

/// The document totals' elements in `cac:LegalMonetaryTotal`.
const TOTALS: Totals<&str> = Totals {
    line_total: "LineExtensionAmount",
    allowance_total: "AllowanceTotalAmount",
    charge_total: "ChargeTotalAmount",
    net: "TaxExclusiveAmount",
    gross: "TaxInclusiveAmount",
    paid: "PrepaidAmount",
    rounding: "PayableRoundingAmount",
    due: "PayableAmount",
};

/// A note, with its subject code when written `#AAI#text`.
fn note(text: &str) -> Note {
    if let Some(rest) = text.strip_prefix('#') {
        if let Some((subject, body)) = rest.split_once('#') {
            if (1..=3).contains(&subject.len()) && subject.bytes().all(|b| b.is_ascii_uppercase()) {
                return Note {
                    subject: Some(subject.to_string()),
                    text: body.trim().to_string(),
                };
            }
        }
    }
    Note {
        subject: None,
        text: text.to_string(),
    }
}

fn allowance_parts(x: &Node) -> AllowanceParts<'_> {
    AllowanceParts {
        indicator: x.text_at(&["ChargeIndicator"]),
        amount: x.child("Amount"),
        base: x.child("BaseAmount"),
        percent: x.child("MultiplierFactorNumeric"),
        reason: x.child("AllowanceChargeReason"),
        reason_code: x.child("AllowanceChargeReasonCode"),
        vat: None,
    }
}

fn line(t: &mut Terms, node: &Node, n: usize, credit: bool) -> Line {
    let place = format!("line {n}");
    let item = node.child("Item");
    let price = node.child("Price");
    let quantity_node = node.child(if credit {
        "CreditedQuantity"
    } else {
        "InvoicedQuantity"
    });
    let tax = item.and_then(|i| i.child("ClassifiedTaxCategory"));
    let quantity = t.decimal(quantity_node, "BT-129");
    if quantity.is_none() {
        t.find(
            "BR-22",
            format!("{place}: the invoiced quantity (BT-129) is missing"),
        );
    }
    let net_price = t.decimal(price.and_then(|p| p.child("PriceAmount")), "BT-146");
    if net_price.is_none() {
        t.find(
            "BR-26",
            format!("{place}: the item's net price (BT-146) is missing"),
        );
    }
    let net = t.required_amount(
        node.child("LineExtensionAmount"),
        "BT-131",
        "BR-24",
        &format!("{place}: the line's net amount"),
    );
    let (category, rate) = t.vat(
        tax.and_then(|x| x.text_at(&["ID"])),
        tax.and_then(|x| x.child("Percent")),
        ("BT-151", "BT-152"),
        "BR-CO-04",
        &place,
    );
    let allowances = node
        .all("AllowanceCharge")
        .collect::<Vec<_>>()
        .into_iter()
        .map(|x| t.allowance_charge(allowance_parts(x), &place))
        .collect();
    Line {
        id: text(Some(node), &["ID"]).unwrap_or_default(),
        name: text(item, &["Name"]).unwrap_or_default(),
        description: text(item, &["Description"]),
        note: text(Some(node), &["Note"]),
        seller_item_id: text(item, &["SellersItemIdentification", "ID"]),
        order_line: text(Some(node), &["OrderLineReference", "LineID"]),
        quantity: quantity.unwrap_or(Decimal::from_int(0)),
        unit: quantity_node
            .and_then(|q| q.attribute("unitCode"))
            .unwrap_or_default()
            .to_string(),
        price: net_price.unwrap_or(Decimal::from_int(0)),
        gross_price: t.decimal(
            price.and_then(|p| p.at(&["AllowanceCharge", "BaseAmount"])),
            "BT-148",
        ),
        base_quantity: t.decimal(price.and_then(|p| p.child("BaseQuantity")), "BT-149"),
        allowances,
        period: node.child("InvoicePeriod").and_then(|p| period(t, p)),
        net,
        category,
        rate,
    }
}

fn subtotal(t: &mut Terms, sub: &Node) -> Breakdown {
    let category_node = sub.child("TaxCategory");
    let rate_node = category_node.and_then(|c| c.child("Percent"));
    let (category, rate) = t.vat(
        category_node.and_then(|c| c.text_at(&["ID"])),
        rate_node,
        ("BT-118", "BT-119"),
        "BR-47",
        "the VAT breakdown",
    );
    t.breakdown_rate(&category, rate_node.is_some());
    Breakdown {
        category,
        rate,
        base: t.required_amount(
            sub.child("TaxableAmount"),
            "BT-116",
            "BR-45",
            "a breakdown's taxable amount",
        ),
        amount: t.required_amount(
            sub.child("TaxAmount"),
            "BT-117",
            "BR-46",
            "a breakdown's VAT",
        ),
        reason: text(category_node, &["TaxExemptionReason"]),
        reason_code: text(category_node, &["TaxExemptionReasonCode"]),
    }
}

fn period(t: &mut Terms, node: &Node) -> Option<Period> {
    let from = t.date(node.child("StartDate"), "BT-73");
    let to = t.date(node.child("EndDate"), "BT-74");
    (from.is_some() || to.is_some()).then_some(Period { from, to })
}

fn address(node: &Node) -> Address {
    Address {
        street: node.string_at(&["StreetName"]),
        additional: node.string_at(&["AdditionalStreetName"]),
        line_three: node.string_at(&["AddressLine", "Line"]),
        postal_code: node.string_at(&["PostalZone"]),
        city: node.string_at(&["CityName"]),
        subdivision: node.string_at(&["CountrySubentity"]),
        country: node
            .string_at(&["Country", "IdentificationCode"])
            .unwrap_or_default(),
    }
}

fn party(node: &Node, seller: bool) -> Party {
    let legal = node.child("PartyLegalEntity");
    let trading = node.string_at(&["PartyName", "Name"]);
    let name = text(legal, &["RegistrationName"]).unwrap_or_default();
    let schemes: Vec<(Option<&str>, &str)> = node
        .all("PartyTaxScheme")
        .filter_map(|s| Some((s.text_at(&["TaxScheme", "ID"]), s.text_at(&["CompanyID"])?)))
        .collect();
    let vat_id = schemes
        .iter()
        .find(|(scheme, _)| *scheme == Some("VAT"))
        .map(|(_, id)| compact(id));
    let tax_number = schemes
        .iter()
        .find(|(scheme, _)| *scheme != Some("VAT"))
        .filter(|_| seller)
        .map(|(_, id)| id.to_string());
    let contact = node.child("Contact");
    Party {
        trading_name: trading.filter(|t| *t != name),
        name,
        identifier: node
            .all("PartyIdentification")
            .filter_map(|i| i.child("ID"))
            .find(|id| id.attribute("schemeID") != Some("SEPA"))
            .and_then(Node::value)
            .map(str::to_string),
        address: node.child("PostalAddress").map(address).unwrap_or_default(),
        vat_id,
        tax_number,
        registration: text(legal, &["CompanyID"]),
        legal_info: text(legal, &["CompanyLegalForm"]),
        electronic_address: node.child("EndpointID").and_then(|e| {
            Some(ElectronicAddress {
                scheme: e.attribute("schemeID").unwrap_or_default().to_string(),
                value: e.value()?.to_string(),
            })
        }),
        contact: Contact {
            name: text(contact, &["Name"]),
            phone: text(contact, &["Telephone"]),
            email: text(contact, &["ElectronicMail"]),
        },
    }
}
