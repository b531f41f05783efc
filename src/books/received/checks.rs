//! The checks before a received bill is booked, and the payment terms read
//! from it. A warning is a sentence a person reads before deciding: the
//! buyer the document names is not the company (no strong identifier, VAT
//! id or electronic address, matches one the company has, and its name
//! differs where no identifier can be compared); the document is dated
//! more than a year before the company's today, or after it; the supplier
//! kontor finds by the seller's identifiers bears another name than the
//! document's seller. Booking a bill with warnings needs the person's
//! explicit choice (`Decision`): to book despite them, and under which
//! supplier when the names differ; nothing is filed silently under
//! another supplier, and a trusted supplier's document with a warning is
//! not booked as it arrives. A bill as shown carries them (`bill::shown`).

use jiff::civil::Date;
use jiff::Span;
use rusqlite::{params, Connection};
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use super::booking::particulars;
use crate::books::company::Company;
use crate::books::suppliers;
use crate::documents::read::{PaymentTerms, Received};
use crate::error::said;
use crate::error::{Result, Said, Violations};
use crate::rules::catalogue::Reader;
use crate::rules::locale::Lang;
use crate::rules::money::Decimal;
use crate::rules::vat_ids;
use crate::store::tenant::Tenant;
use crate::stored_enum;

stored_enum! {
    /// Under which supplier a bill whose seller bears another name than
    /// the supplier found is booked.
    pub enum SupplierChoice {
        /// The supplier kontor found, under its own name.
        Existing = "existing",
        /// A new supplier with the document's name and particulars.
        New = "new",
    }
}

/// A person's choice when booking a bill with warnings.
#[derive(Debug, Clone, Copy, Default)]
pub struct Decision {
    /// Book despite the warnings shown.
    pub accept_warnings: bool,
    /// Under which supplier, when the seller's name differs from the
    /// supplier found.
    pub supplier: Option<SupplierChoice>,
}

/// A warning shown before a received bill is booked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Warning {
    /// The buyer named is not the company: how the document names it.
    Buyer { named: String },
    /// Dated more than a year before today (or after it).
    Dated { on: Date, future: bool },
    /// The supplier found (`id`, `known`) bears another name than the
    /// document's seller (`named`).
    Supplier {
        id: String,
        known: String,
        named: String,
    },
}

impl Warning {
    /// The warning's code: `buyer`, `date` or `supplier`.
    pub fn code(&self) -> &'static str {
        match self {
            Warning::Buyer { .. } => "buyer",
            Warning::Dated { .. } => "date",
            Warning::Supplier { .. } => "supplier",
        }
    }

    /// The warning as a message of the catalogue.
    pub fn said(&self) -> Said {
        Said::from(match self {
            Warning::Buyer { named } => said::Received::Buyer {
                named: named.clone(),
            },
            Warning::Dated { on, future } => said::Received::Dated {
                on: *on,
                future: *future,
            },
            Warning::Supplier { id, known, named } => said::Received::SupplierNamed {
                id: id.clone(),
                known: known.clone(),
                named: named.clone(),
            },
        })
    }

    /// The warning in a sentence, in `lang`, as the screens write it.
    pub fn sentence(&self, lang: Lang) -> String {
        self.said().text(Reader::screens(lang))
    }
}

impl Serialize for Warning {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut w = s.serialize_struct("Warning", 2)?;
        w.serialize_field("code", self.code())?;
        // Read by programs (REST, the agent tools) as part of a bill, which
        // is serialized without its reader: in English, as a program reads it.
        w.serialize_field("sentence", &self.said().text(Reader::api(Lang::En)))?;
        w.end()
    }
}

/// The payment terms a bill's document states, as the bill shows them.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct TermsView {
    /// BT-9, else worked out from BT-20's words.
    pub due_on: Option<Date>,
    pub due_from: Option<&'static str>,
    pub discount_until: Option<Date>,
    /// The cash discount's percent as a decimal ("2", "2.5").
    pub discount_percent: Option<Decimal>,
    pub discount_from: Option<&'static str>,
}

impl TermsView {
    /// The view of read terms; none when they state neither a due date
    /// nor a discount.
    pub fn of(terms: &PaymentTerms) -> Option<TermsView> {
        if terms.due_on.is_none() && terms.discount.is_none() {
            return None;
        }
        Some(TermsView {
            due_on: terms.due_on.map(|d| d.0),
            due_from: terms.due_on.map(|d| d.1.as_str()),
            discount_until: terms.discount.as_ref().map(|d| d.until),
            discount_percent: terms.discount.as_ref().map(|d| d.percent),
            discount_from: terms.discount.as_ref().map(|d| d.source.as_str()),
        })
    }
}

/// Lower case, white space collapsed: how two names are compared.
fn folded(name: &str) -> String {
    name.split_whitespace()
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The warnings of a received document for `company` on its today.
///
/// Fails only on a storage error.
pub(super) fn warnings(
    conn: &Connection,
    tenant: &Tenant,
    company: &Company,
    received: &Received,
) -> Result<Vec<Warning>> {
    let doc = &received.document;
    let mut out = Vec::new();
    if let Some(named) = not_the_company(company, &doc.buyer) {
        out.push(Warning::Buyer { named });
    }
    let today = company.today();
    let year_ago = today.checked_sub(Span::new().years(1)).unwrap_or(today);
    if doc.issued_on > today || doc.issued_on < year_ago {
        out.push(Warning::Dated {
            on: doc.issued_on,
            future: doc.issued_on > today,
        });
    }
    let seller = particulars(received, &company.country);
    if let Some(id) = suppliers::supplier_of(conn, tenant, &seller)? {
        let known: String = conn
            .prepare_cached(
                "SELECT name FROM customers WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
            )?
            .query_row(params![id, tenant.company_id, tenant.environment], |r| {
                r.get(0)
            })?;
        if folded(&known) != folded(seller.name) {
            out.push(Warning::Supplier {
                id,
                known,
                named: seller.name.to_string(),
            });
        }
    }
    Ok(out)
}

/// How the document names its buyer when that is not the company; none
/// when it is: a VAT id or electronic address both name and agree on, else
/// (neither comparable) the name, case and white space aside.
fn not_the_company(company: &Company, buyer: &crate::documents::Party) -> Option<String> {
    let own = &company.particulars;
    let vat = match (&own.vat_id, &buyer.vat_id) {
        (Some(a), Some(b)) => Some(vat_ids::normalise(a) == vat_ids::normalise(b)),
        _ => None,
    };
    let address = match (&own.electronic_address, &buyer.electronic_address) {
        (Some(a), Some(b)) => Some(
            a.scheme.eq_ignore_ascii_case(b.scheme.trim())
                && a.value.trim().eq_ignore_ascii_case(b.value.trim()),
        ),
        _ => None,
    };
    let matches = match (vat, address) {
        (Some(true), _) | (_, Some(true)) => true,
        (Some(false), _) | (_, Some(false)) => false,
        (None, None) => {
            let name = folded(buyer.known_as());
            name == folded(&company.name)
                || name == folded(company.seller_name())
                || buyer.trading_name.as_deref().map(folded) == Some(folded(&company.name))
        }
    };
    if matches {
        return None;
    }
    let mut named = format!("{:?}", buyer.known_as());
    if let Some(vat_id) = &buyer.vat_id {
        named.push_str(&format!(" (VAT id {vat_id})"));
    }
    if let Some(a) = &buyer.electronic_address {
        named.push_str(&format!(" ({}:{})", a.scheme, a.value));
    }
    Some(named)
}

/// Whether `decision` lets a bill with `warnings` be booked: the supplier
/// chosen where the names differ (and only there), the warnings accepted.
///
/// Fails with `Refused` naming `supplier` when the choice is missing or
/// needless, and `acceptWarnings` listing the warnings when they are not
/// accepted.
pub(super) fn decided(warnings: &[Warning], decision: &Decision) -> Result<()> {
    let mut verdict = Violations::new();
    let conflict = warnings
        .iter()
        .any(|w| matches!(w, Warning::Supplier { .. }));
    match (conflict, decision.supplier) {
        (true, None) => verdict.refused("supplier", said::Received::SupplierChoiceNeeded),
        (false, Some(c)) => verdict.refused(
            "supplier",
            said::Received::SupplierChoiceNotNeeded {
                choice: c.as_str().to_string(),
            },
        ),
        _ => {}
    }
    if !warnings.is_empty() && !decision.accept_warnings {
        verdict.refused(
            "acceptWarnings",
            said::Received::WarningsNotAccepted {
                warnings: warnings.iter().map(Warning::said).collect(),
            },
        );
    }
    verdict.finish()
}

/// The terms as a purchase keeps them: the due date (the issue date when
/// the document names none) and the discount.
pub(super) fn kept(terms: &PaymentTerms, issued_on: Date) -> (Date, Option<(Date, Decimal)>) {
    (
        terms.due_on.map(|d| d.0).unwrap_or(issued_on),
        terms.discount.as_ref().map(|d| (d.until, d.percent)),
    )
}
