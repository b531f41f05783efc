//! Reading UN/CEFACT Cross Industry Invoice D16B (`rsm:CrossIndustryInvoice`:
//! XRechnung, Factur-X and ZUGFeRD 2.x in every profile, MINIMUM to
//! EXTENDED) and, as far as it maps, ZUGFeRD 1.0's
//! `rsm:CrossIndustryDocument`, whose aggregates carry older names (each
//! step below names both) into the one model.
//!
//! Two terms of EXTENDED enter the sums as the Factur-X EXTENDED business
//! rules say (the EXTENDED schematron of Factur-X 1.08, whose rules name
//! BT-X-8 where 1.07.3's still summed every line):
//! - the line hierarchy (BT-X-8, `ram:LineStatusReasonCode`, below the
//!   parent line's id BT-X-304, `ram:ParentLineID`): only a line marked
//!   `DETAIL` ("regular item position") or not marked counts
//!   (BR-FXEXT-CO-10 for BT-106, BR-FXEXT-CO-13 for BT-109,
//!   BR-FXEXT-S-08 and its siblings for BT-116); a `GROUP` line ("subtotal
//!   or group") only sums its sub-lines and an `INFORMATION` line is for
//!   information only, so both are left out of the model, whose lines are
//!   those that make the sums;
//! - the logistics service charges (BG-X-42,
//!   `ram:SpecifiedLogisticsServiceCharge` of the header settlement:
//!   BT-X-271 description, BT-X-272 amount, BT-X-273/274 category and rate
//!   in `ram:AppliedTradeTax`) count as document-level charges: in the sum
//!   of charges BT-108 (BR-FXEXT-CO-12), the total without VAT BT-109
//!   (BR-FXEXT-CO-13) and their category's taxable amount BT-116
//!   (BR-FXEXT-S-08 and siblings), so they are read as charges (BG-21)
//!   with their own VAT.

use jiff::civil::Date;

use super::terms::{accounting_tax, compact, text, type_code, AllowanceParts, Terms, Totals};
use super::tree::{Node, Refusal};
use crate::documents::verdict::Finding;
use crate::documents::{
    AccountingTax, Address, Breakdown, Card, Contact, DirectDebit, Document, ElectronicAddress,
    Line, Note, Party, PaymentMeans, Period, Preceding, TaxRepresentative, Transfer, TypeCode,
};
use crate::rules::money::Decimal;

/// The CII D16B namespace of the root element.
pub const NAMESPACE: &str = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100";
/// ZUGFeRD 1.0's namespace.
pub const NAMESPACE_ZUGFERD_1: &str = "urn:ferd:CrossIndustryDocument:invoice:1p0";

const CONTEXT: &[&str] = &[
    "ExchangedDocumentContext",
    "SpecifiedExchangedDocumentContext",
];
const HEADER: &[&str] = &["ExchangedDocument", "HeaderExchangedDocument"];
const TRANSACTION: &[&str] = &[
    "SupplyChainTradeTransaction",
    "SpecifiedSupplyChainTradeTransaction",
];
const AGREEMENT: &[&str] = &[
    "ApplicableHeaderTradeAgreement",
    "ApplicableSupplyChainTradeAgreement",
];
const DELIVERY: &[&str] = &[
    "ApplicableHeaderTradeDelivery",
    "ApplicableSupplyChainTradeDelivery",
];
const SETTLEMENT: &[&str] = &[
    "ApplicableHeaderTradeSettlement",
    "ApplicableSupplyChainTradeSettlement",
];
const SUMMATION: &[&str] = &[
    "SpecifiedTradeSettlementHeaderMonetarySummation",
    "SpecifiedTradeSettlementMonetarySummation",
];
const LINE_AGREEMENT: &[&str] = &[
    "SpecifiedLineTradeAgreement",
    "SpecifiedSupplyChainTradeAgreement",
];
const LINE_DELIVERY: &[&str] = &[
    "SpecifiedLineTradeDelivery",
    "SpecifiedSupplyChainTradeDelivery",
];
const LINE_SETTLEMENT: &[&str] = &[
    "SpecifiedLineTradeSettlement",
    "SpecifiedSupplyChainTradeSettlement",
];
const LINE_SUMMATION: &[&str] = &[
    "SpecifiedTradeSettlementLineMonetarySummation",
    "SpecifiedTradeSettlementMonetarySummation",
];
const RATE: &[&str] = &["RateApplicablePercent", "ApplicablePercent"];

fn step<'a>(node: Option<&'a Node>, names: &[&str]) -> Option<&'a Node> {
    node?.child_of(names)
}

/// Reads a CII document; a document without an issue date is dated
/// `received_on` (and says so in its findings).
///
/// Fails with a `Refusal` when its currency is missing or unknown.
pub fn read(root: &Node, received_on: Date) -> Result<(Document, Vec<Finding>), Refusal> {
    let header = root.child_of(HEADER);
    let transaction = root.child_of(TRANSACTION);
    let agreement = step(transaction, AGREEMENT);
    let delivery = step(transaction, DELIVERY);
    let settlement = step(transaction, SETTLEMENT);
    let summation = step(settlement, SUMMATION);
    let (mut t, currency) = Terms::new(text(settlement, &["InvoiceCurrencyCode"]).as_deref())?;

    let specification = root
        .child_of(CONTEXT)
        .and_then(|c| c.text_at(&["GuidelineSpecifiedDocumentContextParameter", "ID"]))
        .map(str::to_string);
    if specification.is_none() {
        t.find("BR-01", "the specification identifier (BT-24) is missing");
    }
    let number = text(header, &["ID"]).unwrap_or_default();
    let type_code = type_code(&mut t, text(header, &["TypeCode"]), TypeCode::Invoice);
    let issued_on = match t.date(header.and_then(|h| h.child("IssueDateTime")), "BT-2") {
        Some(day) => day,
        None => {
            t.find(
                "BR-03",
                format!("the issue date (BT-2) is missing or unreadable; the document is dated the day it arrived, {received_on}"),
            );
            received_on
        }
    };
    let notes = header
        .map(|h| {
            h.all("IncludedNote")
                .filter_map(|n| {
                    let text: Vec<&str> = n.all("Content").filter_map(Node::value).collect();
                    (!text.is_empty()).then(|| Note {
                        subject: n.string_at(&["SubjectCode"]),
                        text: text.join("\n"),
                    })
                })
                .collect()
        })
        .unwrap_or_default();

    let seller = agreement.and_then(|a| a.child("SellerTradeParty"));
    let buyer = agreement.and_then(|a| a.child("BuyerTradeParty"));
    if seller.and_then(|s| s.child("PostalTradeAddress")).is_none() {
        t.find("BR-08", "the seller's postal address (BG-5) is missing");
    }
    if buyer.and_then(|b| b.child("PostalTradeAddress")).is_none() {
        t.find("BR-10", "the buyer's postal address (BG-8) is missing");
    }

    let mut lines = Vec::new();
    if let Some(transaction) = transaction {
        for (n, item) in transaction
            .all("IncludedSupplyChainTradeLineItem")
            .enumerate()
        {
            if counts(item) {
                lines.push(line(&mut t, item, n + 1));
            }
        }
    }

    let means = settlement
        .map(|s| {
            s.all("SpecifiedTradeSettlementPaymentMeans")
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    let first_means = means.first().copied();
    let account = means.iter().find_map(|m| {
        m.child("PayeePartyCreditorFinancialAccount")
            .map(|a| (m, a))
    });
    let transfer = account.and_then(|(m, a)| {
        let iban = a
            .text_at(&["IBANID"])
            .or_else(|| a.text_at(&["ProprietaryID"]))?;
        Some(Transfer {
            iban: compact(iban),
            bic: m.string_at(&["PayeeSpecifiedCreditorFinancialInstitution", "BICID"]),
            account_holder: a.string_at(&["AccountName"]),
        })
    });
    let card = first_means
        .and_then(|m| m.child("ApplicableTradeSettlementFinancialCard"))
        .and_then(|c| {
            Some(Card {
                number: c.string_at(&["ID"])?,
                holder: c.string_at(&["CardholderName"]),
            })
        });
    let terms_nodes: Vec<&Node> = settlement
        .map(|s| s.all("SpecifiedTradePaymentTerms").collect())
        .unwrap_or_default();
    let mandate = terms_nodes
        .iter()
        .find_map(|n| n.string_at(&["DirectDebitMandateID"]));
    let creditor_id = text(settlement, &["CreditorReferenceID"]);
    let debited = means
        .iter()
        .find_map(|m| m.string_at(&["PayerPartyDebtorFinancialAccount", "IBANID"]));
    let direct_debit =
        (mandate.is_some() || creditor_id.is_some() || debited.is_some()).then(|| DirectDebit {
            mandate,
            creditor_id,
            account: debited.map(|a| compact(&a)),
        });
    let payment_terms: Vec<&str> = terms_nodes
        .iter()
        .flat_map(|n| n.all("Description"))
        .filter_map(Node::value)
        .collect();
    let due_on = terms_nodes
        .iter()
        .find_map(|n| n.child("DueDateDateTime"))
        .and_then(|d| t.date(Some(d), "BT-9"));

    let breakdown = settlement
        .map(|s| s.all("ApplicableTradeTax").collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .map(|tax| breakdown(&mut t, tax))
        .collect();
    let mut allowances: Vec<_> = settlement
        .map(|s| s.all("SpecifiedTradeAllowanceCharge").collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .map(|x| {
            let tax = x.child("CategoryTradeTax");
            let parts = AllowanceParts {
                vat: tax.map(|c| (c.text_at(&["CategoryCode"]), c.child_of(RATE))),
                ..allowance_parts(x)
            };
            t.allowance_charge(parts, "the document")
        })
        .collect();
    for x in settlement
        .map(|s| s.all("SpecifiedLogisticsServiceCharge").collect::<Vec<_>>())
        .unwrap_or_default()
    {
        let tax = x.child("AppliedTradeTax");
        let parts = AllowanceParts {
            indicator: Some("true"),
            amount: x.child("AppliedAmount"),
            reason: x.child("Description"),
            vat: tax.map(|c| (c.text_at(&["CategoryCode"]), c.child_of(RATE))),
            ..AllowanceParts::default()
        };
        allowances.push(t.allowance_charge(parts, "a logistics service charge"));
    }

    let tax_currency = text(settlement, &["TaxCurrencyCode"]).filter(|c| *c != currency);
    let (tax, accounting_tax) = tax_totals(&mut t, summation, &currency, tax_currency.as_deref());
    let Totals {
        line_total,
        allowance_total,
        charge_total,
        net,
        gross,
        paid,
        rounding,
        due,
    } = t.totals(|name| summation.and_then(|s| s.child(name)), &TOTALS);

    let preceding = settlement
        .and_then(|s| s.child("InvoiceReferencedDocument"))
        .and_then(|r| {
            Some(Preceding {
                number: r.string_at(&["IssuerAssignedID"])?,
                issued_on: t.date(r.child("FormattedIssueDateTime"), "BT-26"),
            })
        });
    let attachments = agreement
        .map(|a| a.all("AdditionalReferencedDocument").collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .filter(|d| !matches!(d.text_at(&["TypeCode"]), Some("130") | Some("50")))
        .map(|d| {
            t.attachment(
                d.child("IssuerAssignedID"),
                d.child("Name"),
                d.child("URIID"),
                d.child("AttachmentBinaryObject"),
            )
        })
        .collect();

    let exponent = t.exponent;
    let document = Document {
        type_code,
        number,
        issued_on,
        specification,
        currency,
        exponent,
        accounting_tax,
        due_on,
        payment_terms: (!payment_terms.is_empty()).then(|| payment_terms.join("\n")),
        buyer_reference: text(agreement, &["BuyerReference"]),
        order_reference: text(
            agreement,
            &["BuyerOrderReferencedDocument", "IssuerAssignedID"],
        ),
        contract_reference: text(
            agreement,
            &["ContractReferencedDocument", "IssuerAssignedID"],
        ),
        project_reference: text(agreement, &["SpecifiedProcuringProject", "ID"]),
        preceding,
        delivered_on: delivery
            .and_then(|d| d.at(&["ActualDeliverySupplyChainEvent", "OccurrenceDateTime"]))
            .and_then(|d| t.date(Some(d), "BT-72")),
        deliver_to: delivery
            .and_then(|d| d.at(&["ShipToTradeParty", "PostalTradeAddress"]))
            .map(address),
        period: settlement
            .and_then(|s| s.child("BillingSpecifiedPeriod"))
            .and_then(|p| period(&mut t, p)),
        notes,
        seller: seller.map(party).unwrap_or_default(),
        buyer: buyer.map(party).unwrap_or_default(),
        tax_representative: agreement
            .and_then(|a| a.child("SellerTaxRepresentativeTradeParty"))
            .map(|r| {
                let p = party(r);
                TaxRepresentative {
                    name: p.name,
                    vat_id: p.vat_id,
                    address: r.child("PostalTradeAddress").map(address),
                }
            }),
        payee: text(settlement, &["PayeeTradeParty", "Name"]),
        payment_means: first_means.and_then(|m| {
            Some(PaymentMeans {
                code: m.string_at(&["TypeCode"])?,
                text: m.string_at(&["Information"]),
            })
        }),
        payment_reference: text(settlement, &["PaymentReference"]),
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
        tax,
        gross,
        paid,
        rounding,
        due,
    };
    Ok((document, t.finish()))
}

/// The document totals' elements in `SpecifiedTradeSettlementHeaderMonetarySummation`.
const TOTALS: Totals<&str> = Totals {
    line_total: "LineTotalAmount",
    allowance_total: "AllowanceTotalAmount",
    charge_total: "ChargeTotalAmount",
    net: "TaxBasisTotalAmount",
    gross: "GrandTotalAmount",
    paid: "TotalPrepaidAmount",
    rounding: "RoundingAmount",
    due: "DuePayableAmount",
};

/// BT-110 in the document's currency and BT-111 in the tax currency, told
/// apart by their `currencyID`.
fn tax_totals(
    t: &mut Terms,
    summation: Option<&Node>,
    currency: &str,
    tax_currency: Option<&str>,
) -> (i64, Option<AccountingTax>) {
    let mut tax = None;
    let mut accounting = None;
    for total in summation.into_iter().flat_map(|s| s.all("TaxTotalAmount")) {
        let id = total.attribute("currencyID");
        if id.is_none_or(|c| c == currency) && tax.is_none() {
            tax = t.amount(Some(total), "BT-110");
        } else if id.is_some() && id == tax_currency {
            accounting = accounting_tax(t, total, id.unwrap_or_default());
        }
    }
    (tax.unwrap_or(0), accounting)
}

fn allowance_parts(x: &Node) -> AllowanceParts<'_> {
    AllowanceParts {
        indicator: x.text_at(&["ChargeIndicator", "Indicator"]),
        amount: x.child("ActualAmount"),
        base: x.child("BasisAmount"),
        percent: x.child("CalculationPercent"),
        reason: x.child("Reason"),
        reason_code: x.child("ReasonCode"),
        vat: None,
    }
}

/// Whether a line counts in the sums: its BT-X-8 is `DETAIL` or not
/// given (BR-FXEXT-CO-10); `GROUP` and `INFORMATION` lines do not.
fn counts(item: &Node) -> bool {
    matches!(
        item.text_at(&["AssociatedDocumentLineDocument", "LineStatusReasonCode"]),
        None | Some("DETAIL")
    )
}

fn line(t: &mut Terms, item: &Node, n: usize) -> Line {
    let place = format!("line {n}");
    let document = item.child("AssociatedDocumentLineDocument");
    let product = item.child("SpecifiedTradeProduct");
    let agreement = item.child_of(LINE_AGREEMENT);
    let delivery = item.child_of(LINE_DELIVERY);
    let settlement = item.child_of(LINE_SETTLEMENT);
    let net_price = agreement.and_then(|a| a.child("NetPriceProductTradePrice"));
    let gross_price = agreement.and_then(|a| a.child("GrossPriceProductTradePrice"));
    let quantity_node = delivery.and_then(|d| d.child("BilledQuantity"));
    let tax = settlement.and_then(|s| s.child("ApplicableTradeTax"));

    let id = text(document, &["LineID"]).unwrap_or_default();
    let name = text(product, &["Name"]).unwrap_or_default();
    let quantity = t.decimal(quantity_node, "BT-129");
    if quantity.is_none() {
        t.find(
            "BR-22",
            format!("{place}: the invoiced quantity (BT-129) is missing"),
        );
    }
    let unit = quantity_node
        .and_then(|q| q.attribute("unitCode"))
        .unwrap_or_default()
        .to_string();
    let price = t.decimal(net_price.and_then(|p| p.child("ChargeAmount")), "BT-146");
    if price.is_none() {
        t.find(
            "BR-26",
            format!("{place}: the item's net price (BT-146) is missing"),
        );
    }
    let net_node = settlement
        .and_then(|s| s.child_of(LINE_SUMMATION))
        .and_then(|s| s.child("LineTotalAmount"));
    let net = t.required_amount(
        net_node,
        "BT-131",
        "BR-24",
        &format!("{place}: the line's net amount"),
    );
    let (category, rate) = t.vat(
        tax.and_then(|x| x.text_at(&["CategoryCode"])),
        tax.and_then(|x| x.child_of(RATE)),
        ("BT-151", "BT-152"),
        "BR-CO-04",
        &place,
    );
    let allowances = settlement
        .map(|s| s.all("SpecifiedTradeAllowanceCharge").collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .map(|x| t.allowance_charge(allowance_parts(x), &place))
        .collect();
    Line {
        id,
        name,
        description: text(product, &["Description"]),
        note: text(document, &["IncludedNote", "Content"]),
        seller_item_id: text(product, &["SellerAssignedID"]),
        order_line: text(agreement, &["BuyerOrderReferencedDocument", "LineID"]),
        quantity: quantity.unwrap_or(Decimal::from_int(0)),
        unit,
        price: price.unwrap_or(Decimal::from_int(0)),
        gross_price: t.decimal(gross_price.and_then(|p| p.child("ChargeAmount")), "BT-148"),
        base_quantity: t.decimal(
            net_price
                .and_then(|p| p.child("BasisQuantity"))
                .or_else(|| gross_price.and_then(|p| p.child("BasisQuantity"))),
            "BT-149",
        ),
        allowances,
        period: settlement
            .and_then(|s| s.child("BillingSpecifiedPeriod"))
            .and_then(|p| period(t, p)),
        net,
        category,
        rate,
    }
}

fn breakdown(t: &mut Terms, tax: &Node) -> Breakdown {
    let rate_node = tax.child_of(RATE);
    let (category, rate) = t.vat(
        tax.text_at(&["CategoryCode"]),
        rate_node,
        ("BT-118", "BT-119"),
        "BR-47",
        "the VAT breakdown",
    );
    let base = t.required_amount(
        tax.child("BasisAmount"),
        "BT-116",
        "BR-45",
        "a breakdown's taxable amount",
    );
    let amount = t.required_amount(
        tax.child("CalculatedAmount"),
        "BT-117",
        "BR-46",
        "a breakdown's VAT",
    );
    t.breakdown_rate(&category, rate_node.is_some());
    Breakdown {
        category,
        rate,
        base,
        amount,
        reason: tax.string_at(&["ExemptionReason"]),
        reason_code: tax.string_at(&["ExemptionReasonCode"]),
    }
}

fn period(t: &mut Terms, node: &Node) -> Option<Period> {
    let from = t.date(node.child("StartDateTime"), "BT-73");
    let to = t.date(node.child("EndDateTime"), "BT-74");
    (from.is_some() || to.is_some()).then_some(Period { from, to })
}

fn address(node: &Node) -> Address {
    Address {
        street: node.string_at(&["LineOne"]),
        additional: node.string_at(&["LineTwo"]),
        line_three: node.string_at(&["LineThree"]),
        postal_code: node.string_at(&["PostcodeCode"]),
        city: node.string_at(&["CityName"]),
        subdivision: node.string_at(&["CountrySubDivisionName"]),
        country: node.string_at(&["CountryID"]).unwrap_or_default(),
    }
}

fn party(node: &Node) -> Party {
    let registrations = |scheme: &str| {
        node.all("SpecifiedTaxRegistration")
            .filter_map(|r| r.child("ID"))
            .find(|id| id.attribute("schemeID") == Some(scheme))
            .and_then(Node::value)
            .map(compact)
    };
    let contact = node.child("DefinedTradeContact");
    Party {
        name: node.string_at(&["Name"]).unwrap_or_default(),
        trading_name: node.string_at(&["SpecifiedLegalOrganization", "TradingBusinessName"]),
        identifier: node
            .text_at(&["ID"])
            .or_else(|| node.text_at(&["GlobalID"]))
            .map(str::to_string),
        address: node
            .child("PostalTradeAddress")
            .map(address)
            .unwrap_or_default(),
        vat_id: registrations("VA"),
        tax_number: node
            .all("SpecifiedTaxRegistration")
            .filter_map(|r| r.child("ID"))
            .find(|id| id.attribute("schemeID") == Some("FC"))
            .and_then(Node::value)
            .map(str::to_string),
        registration: node.string_at(&["SpecifiedLegalOrganization", "ID"]),
        legal_info: node.string_at(&["Description"]),
        electronic_address: node
            .at(&["URIUniversalCommunication", "URIID"])
            .and_then(|u| {
                Some(ElectronicAddress {
                    scheme: u.attribute("schemeID").unwrap_or_default().to_string(),
                    value: u.value()?.to_string(),
                })
            }),
        contact: Contact {
            name: contact.and_then(|c| {
                c.string_at(&["PersonName"])
                    .or_else(|| c.string_at(&["DepartmentName"]))
            }),
            phone: text(
                contact,
                &["TelephoneUniversalCommunication", "CompleteNumber"],
            ),
            email: text(contact, &["EmailURIUniversalCommunication", "URIID"]),
        },
    }
}
