//! What a receiver checks beyond the EN 16931 rules of `verdict`: the code
//! lists (BR-CL-…, reported, never making a document invalid) and kontor's
//! own notices about what it keeps as written though a person may want to
//! look twice (KONTOR-…: a due date before the issue date, a zero total, a
//! profile that is a booking aid and no invoice).

use super::profile::Profile;
use crate::documents::verdict::{Finding, Findings, Subject};
use crate::documents::{Document, TypeCode};
use crate::rules::iso::CountryCode;
use crate::rules::{eas, units, vatex};

/// The document type codes EN 16931 accepts for BT-3 (UNTDID 1001 as the
/// CEN code lists name them).
const TYPE_CODES: &[u16] = &[
    71, 80, 81, 82, 83, 84, 102, 130, 202, 203, 204, 211, 218, 219, 261, 262, 295, 296, 308, 325,
    326, 331, 380, 381, 382, 383, 384, 385, 386, 387, 388, 389, 390, 393, 394, 395, 396, 420, 456,
    457, 458, 527, 532, 553, 575, 623, 633, 751, 780, 817, 870, 875, 876, 877, 935,
];

/// The receiver's findings on `doc` besides the EN 16931 rules.
pub fn received(doc: &Document) -> Vec<Finding> {
    let mut f = Findings::new();
    let profile = Profile::of(doc.specification.as_deref());
    if profile.is_booking_aid() {
        f.add(
            "KONTOR-PROFILE",
            Subject::Figures,
            format!(
                "the profile {} ({}) is no invoice under EN 16931 and § 14 UStG: it is a booking aid only, without the invoice's lines; ask the supplier for the invoice itself (EN 16931, EXTENDED or XRechnung)",
                profile.name(),
                doc.specification.as_deref().unwrap_or_default().trim()
            ),
        );
    }
    let code = doc.type_code.number();
    if let TypeCode::Other(n) = doc.type_code {
        if !TYPE_CODES.contains(&n) {
            f.add(
                "BR-CL-01",
                Subject::Figures,
                format!("the invoice type code {code} is not on EN 16931's list"),
            );
        }
    }
    let places = [
        ("the seller's", Some(&doc.seller.address)),
        ("the buyer's", Some(&doc.buyer.address)),
        ("the delivery's", doc.deliver_to.as_ref()),
    ];
    for (whose, address) in places {
        let Some(address) = address else { continue };
        let country = address.country.trim();
        if !country.is_empty() && CountryCode::parse("country", country).is_err() {
            f.add(
                "BR-CL-14",
                Subject::Figures,
                format!("{whose} country {country:?} is not an ISO 3166-1 code"),
            );
        }
    }
    for (whose, party) in [("the seller's", &doc.seller), ("the buyer's", &doc.buyer)] {
        if let Some(address) = &party.electronic_address {
            if !eas::is_scheme(&address.scheme) {
                f.add(
                    "BR-CL-25",
                    Subject::Figures,
                    format!(
                        "{whose} electronic address names the scheme {:?}, which is not on the EAS list",
                        address.scheme
                    ),
                );
            }
        }
    }
    for (n, line) in doc.lines.iter().enumerate() {
        if !line.unit.is_empty() && !units::known(&line.unit) {
            f.add(
                "BR-CL-23",
                Subject::Lines,
                format!(
                    "line {}: the unit {:?} is not a code of UN/ECE Recommendation 20 or 21",
                    n + 1,
                    line.unit
                ),
            );
        }
    }
    for entry in &doc.breakdown {
        if let Some(code) = &entry.reason_code {
            if !vatex::known(&code.to_uppercase()) {
                f.add(
                    "BR-CL-22",
                    Subject::Figures,
                    format!("the exemption reason code {code:?} is not on the VATEX list"),
                );
            }
        }
    }
    if let Some(due) = doc.due_on {
        if due < doc.issued_on {
            f.add(
                "KONTOR-DUE-DATE",
                Subject::Figures,
                format!(
                    "the due date {due} lies before the issue date {}; it is kept as written",
                    doc.issued_on
                ),
            );
        }
    }
    if doc.gross == 0 && doc.due == 0 {
        f.add(
            "KONTOR-ZERO-TOTAL",
            Subject::Figures,
            "the document's total is zero; it is kept and booked as written",
        );
    }
    f.into_vec()
}
