//! How a received document is booked, worked out before anything is
//! written: bill or supplier credit by the sign of what it is worth (a
//! credit note's amounts are written positive, a corrected invoice's may be
//! negative), its amounts per tax key (the category and rate of each VAT
//! breakdown entry, `:EU` for a reverse charge from another member state),
//! converted to the book currency with the remainder on the largest key,
//! and for a reverse charge received (AE) the VAT the buyer self-assesses
//! at its country's standard rate, as input and output tax alike. A VAT
//! category the document writes outside EN 16931's list, or leaves out
//! at a zero rate, makes no tax key: it is booked under the category a
//! person names for it (at the document's rate), and refused without one.

use crate::books::document_kinds::PurchaseKind;
use crate::books::ledger;
use crate::books::purchases::{part, EntryLine, Part};
use crate::books::suppliers::SupplierParticulars;
use crate::documents::read::Received;
use crate::documents::{Category, Document};
use crate::error::said::{self, Sum};
use crate::error::{Error, Result};
use crate::rules::bank::Iban;
use crate::rules::iso::CountryCode;
use crate::rules::jurisdiction;
use crate::rules::money::{self, Decimal};

/// A VAT category and rate, as a purchase's part names them.
type Vat = Option<(String, Decimal)>;

/// A document's booking.
pub(super) struct BookingPlan {
    pub kind: PurchaseKind,
    /// Signed as booked: a credit negative.
    pub net: i64,
    pub tax: i64,
    pub gross_book: i64,
    pub parts: Vec<Part>,
    pub lines: Vec<EntryLine>,
}

impl BookingPlan {
    /// Whether the document is worth nothing: it is booked without an
    /// entry.
    pub fn is_zero(&self) -> bool {
        self.net == 0 && self.tax == 0
    }
}

/// Works out the booking of `doc` for a company in `company_country`, the
/// document converted at `rate` from exponent `exp` to `book_exp`, its
/// unlisted VAT category booked as `named`, its costs on `account` (the
/// chart account proposed for its lines).
///
/// Fails with `Refused` when its net and VAT point in opposite directions
/// (neither a bill nor a credit), an amount is too large to book, or the
/// category a person names is missing, not needed or unfit (`category`).
pub(super) fn plan(
    doc: &Document,
    company_country: &str,
    rate: Decimal,
    exp: u8,
    book_exp: u8,
    named: Option<&Category>,
    account: &str,
) -> Result<BookingPlan> {
    check_named(doc, named)?;
    // An unlisted category is booked as the one named for it.
    let keyed_as = |c: &'_ Category| -> Category {
        match named {
            Some(n) if !c.is_listed() => n.clone(),
            _ => c.clone(),
        }
    };
    let sign = if doc.type_code.is_credit() { -1 } else { 1 };
    let (net, tax) = (sign * doc.net, sign * doc.tax);
    let gross = net + tax;
    let kind = if gross < 0 {
        PurchaseKind::Credit
    } else {
        PurchaseKind::Bill
    };
    let consistent = match kind {
        PurchaseKind::Bill => net >= 0 && tax >= 0,
        PurchaseKind::Credit => net <= 0 && tax <= 0,
    };
    if !consistent {
        return Err(Error::refused(said::Received::OppositeSigns {
            net: Sum {
                minor: net,
                currency: doc.currency.clone(),
            },
            tax: Sum {
                minor: tax,
                currency: doc.currency.clone(),
            },
        }));
    }
    let gross_book = money::convert(gross, rate, exp, book_exp)?;
    let tax_book = money::convert(tax, rate, exp, book_exp)?;
    let net_book = gross_book - tax_book;
    let seller = doc.seller.address.country.as_str();
    let from_other_state = seller != company_country
        && jurisdiction::in_eu(seller)
        && jurisdiction::in_eu(company_country);
    let reverse_rate =
        jurisdiction::standard_vat_rate(company_country).and_then(Decimal::read_lenient);
    let mut keyed: Vec<(String, i64, i64)> = Vec::new();
    // Per tax key: the category and rate it stands for, and whether it is
    // a reverse charge the buyer self-assesses.
    let mut vats: Vec<(String, Vat, bool)> = Vec::new();
    for entry in &doc.breakdown {
        let category = keyed_as(&entry.category);
        let reverse = category == Category::AE;
        let key_rate = match (reverse, reverse_rate) {
            (true, Some(r)) => r,
            _ => entry.rate,
        };
        let key = ledger::tax_key(category.code(), &key_rate, from_other_state);
        if !vats.iter().any(|(k, _, _)| *k == key) {
            vats.push((
                key.clone(),
                Some((category.code().to_string(), entry.rate)),
                reverse,
            ));
        }
        keyed.push((key, sign * entry.base, sign * entry.amount));
    }
    if keyed.is_empty() {
        keyed.push((String::new(), net, tax));
        vats.push((String::new(), None, false));
    }
    let book = ledger::split_by_key(&keyed, rate, exp, book_exp, net_book, tax_book)?;
    let mut parts = Vec::with_capacity(book.len());
    for (key, base_book, amount_book) in book {
        let (vat, reverse) = vats
            .iter()
            .find(|(k, _, _)| *k == key)
            .map(|(_, v, r)| (v.clone(), *r))
            .unwrap_or((None, false));
        let (base, amount) = keyed
            .iter()
            .filter(|(k, _, _)| *k == key)
            .fold((0, 0), |(b, a), (_, base, amount)| (b + base, a + amount));
        let reverse_book = match (reverse, reverse_rate) {
            (true, Some(r)) => money::percent_of(base_book, r)?,
            _ => 0,
        };
        let lines = vec![(account.to_string(), base)];
        parts.push(part(
            key,
            vat,
            lines,
            (base, amount),
            (base_book, amount_book),
            reverse_book,
        )?);
    }
    let lines = doc
        .lines
        .iter()
        .map(|l| EntryLine {
            line_id: l.id.clone(),
            description: l.name.clone(),
            quantity: l.quantity,
            unit: l.unit.clone(),
            unit_price: l.price,
            net: sign * l.net,
            category: keyed_as(&l.category).code().to_string(),
            rate: l.rate,
            account: account.to_string(),
        })
        .collect();
    if net_book + tax_book != gross_book {
        return Err(Error::internal("a received bill's parts do not add up"));
    }
    Ok(BookingPlan {
        kind,
        net,
        tax,
        gross_book,
        parts,
        lines,
    })
}

/// Whether `named` can book the document's VAT categories: a listed one
/// is booked as itself, an unlisted one as the category a person names
/// for it, which must fit the rate of every entry it stands for
/// (`Category::fits`).
///
/// Fails with `Refused` (naming `category`) when the document carries an
/// unlisted category and none is named, two different ones (one named
/// category cannot stand for both), none and one is named anyway, or the
/// named one does not fit a rate.
fn check_named(doc: &Document, named: Option<&Category>) -> Result<()> {
    let unlisted = doc.unlisted_categories();
    match (unlisted.as_slice(), named) {
        ([], None) => {}
        ([], Some(c)) => {
            return Err(Error::refused_at(
                "category",
                said::Received::CategoryNotNeeded {
                    category: c.code().to_string(),
                },
            ))
        }
        ([code], None) => {
            return Err(Error::refused_at(
                "category",
                said::Received::CategoryNeeded {
                    carried: code.to_string(),
                },
            ))
        }
        ([_], Some(c)) => {
            let wrong: Vec<String> = doc
                .breakdown
                .iter()
                .filter(|b| !b.category.is_listed() && !c.fits(&b.rate))
                .map(|b| format!("{} %", b.rate))
                .collect();
            if !wrong.is_empty() {
                return Err(Error::refused_at(
                    "category",
                    said::Received::CategoryNotFitting {
                        category: c.code().to_string(),
                        rates: wrong,
                    },
                ));
            }
        }
        (several, _) => {
            return Err(Error::refused(said::Received::SeveralCategories {
                carried: several.iter().map(|c| c.to_string()).collect(),
            }));
        }
    }
    Ok(())
}

/// The supplier particulars a received document names.
pub(super) fn particulars<'a>(
    received: &'a Received,
    fallback: &CountryCode,
) -> SupplierParticulars<'a> {
    let seller = &received.document.seller;
    SupplierParticulars {
        name: seller.known_as(),
        street: seller.address.street.as_deref(),
        postal_code: seller.address.postal_code.as_deref(),
        city: seller.address.city.as_deref(),
        country: CountryCode::parse("country", &seller.address.country)
            .unwrap_or_else(|_| fallback.clone()),
        vat_id: seller.vat_id.as_deref(),
        email: seller.contact.email.as_deref(),
        electronic_address: seller
            .electronic_address
            .as_ref()
            .map(|a| format!("{}:{}", a.scheme, a.value)),
        iban: received
            .document
            .transfer
            .as_ref()
            .map(|t| t.iban.as_str())
            .filter(|iban| Iban::parse("iban", iban).is_ok()),
    }
}
