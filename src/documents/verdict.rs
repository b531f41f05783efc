//! The verdict on a document: the EN 16931 business rules (`en16931`:
//! mandatory terms, the BR-CO sums, the VAT category rules, the decimal
//! rule), which hold for what kontor writes before it is issued and for
//! what a supplier sends alike, and the rules of the formats a buyer
//! receives (XRechnung's BR-DE, Peppol's), which `check` adds for kontor's
//! own documents. Each finding names its rule id, the particular that is
//! missing or wrong, and the sentence a person reads; the books add how to
//! fix it.

#[cfg(test)]
use super::Breakdown;
use super::{AllowanceCharge, Category, Document, Format, TaxRepresentative, TypeCode};
use crate::error::said::{Issue, Particular, Party};
use crate::error::Said;
use crate::rules::money::{self, Decimal};
use crate::rules::text::CodeList;

/// What a finding is about, so the caller can say where to fix it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject {
    /// A particular of the seller (the company), by its console flag.
    Seller(&'static str),
    /// A particular of the buyer (the customer), by its console flag.
    Buyer(&'static str),
    /// A term of the draft, by its console flag.
    Draft(&'static str),
    /// The lines and their VAT.
    Lines,
    /// The document's figures (kontor computes them; a finding here is an
    /// internal fault).
    Figures,
}

/// One broken rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub rule: &'static str,
    pub subject: Subject,
    pub problem: Said,
}

impl Finding {
    /// Whether the finding makes a received document "not a valid
    /// e-invoice": every rule but the code lists (BR-CL-…) and kontor's own
    /// notices (KONTOR-…), which are reported and nothing more.
    pub fn invalidates(&self) -> bool {
        !self.rule.starts_with("BR-CL-") && !self.rule.starts_with("KONTOR-")
    }
}

/// Findings as they are collected, each rule and sentence once.
#[derive(Debug, Default)]
pub struct Findings(Vec<Finding>);

impl Findings {
    pub fn new() -> Findings {
        Findings(Vec::new())
    }

    pub fn add(&mut self, rule: &'static str, subject: Subject, problem: impl Into<Said>) {
        let problem = problem.into();
        if !self
            .0
            .iter()
            .any(|f| f.rule == rule && f.problem == problem)
        {
            self.0.push(Finding {
                rule,
                subject,
                problem,
            });
        }
    }

    /// Adds findings collected elsewhere.
    pub fn extend(&mut self, more: Vec<Finding>) {
        for f in more {
            self.add(f.rule, f.subject, f.problem);
        }
    }

    pub fn into_vec(self) -> Vec<Finding> {
        self.0
    }
}

/// Checks `doc` for the formats it is to be written in. Empty when it
/// passes.
pub fn check(doc: &Document, formats: &[Format]) -> Vec<Finding> {
    let mut f = Findings::new();
    f.extend(en16931(doc));
    if formats.contains(&Format::XRechnung) {
        xrechnung(doc, &mut f);
    }
    if formats.contains(&Format::Peppol) {
        peppol(doc, &mut f);
    }
    f.0
}

fn missing(text: &Option<String>) -> bool {
    text.as_deref().is_none_or(|t| t.trim().is_empty())
}

/// The EN 16931 rules the model can be checked against: the mandatory
/// terms it can lack, the sums (BR-CO-10…17), the allowances and charges,
/// and the rules of each VAT category present. Terms the model always has
/// (an issue date, a type code) are checked by whoever fills it: kontor
/// always writes them, a reader names their absence. Empty when it passes.
pub fn en16931(doc: &Document) -> Vec<Finding> {
    let mut f = Findings::new();
    mandatory(doc, &mut f);
    sums(doc, &mut f);
    allowances(doc, &mut f);
    categories(doc, &mut f);
    f.0
}

fn mandatory(doc: &Document, f: &mut Findings) {
    use Subject::*;
    if doc.exponent > 2 {
        f.add(
            "BR-DEC-23",
            Figures,
            format!(
                "amounts in {} have {} decimals; EN 16931 allows at most 2",
                doc.currency, doc.exponent
            ),
        );
    }
    if doc.number.trim().is_empty() {
        f.add("BR-02", Figures, "the invoice number is missing");
    }
    if doc.seller.name.trim().is_empty() {
        f.add(
            "BR-06",
            Seller("--legal-name"),
            Issue::Missing {
                whose: Party::Seller,
                what: Particular::Name,
            },
        );
    }
    if doc.buyer.name.trim().is_empty() {
        f.add(
            "BR-07",
            Buyer("--name"),
            Issue::Missing {
                whose: Party::Buyer,
                what: Particular::Name,
            },
        );
    }
    if doc.seller.address.country.trim().is_empty() {
        f.add(
            "BR-09",
            Seller("--country"),
            Issue::Missing {
                whose: Party::Seller,
                what: Particular::Country,
            },
        );
    }
    if doc.buyer.address.country.trim().is_empty() {
        f.add(
            "BR-11",
            Buyer("--country"),
            Issue::Missing {
                whose: Party::Buyer,
                what: Particular::Country,
            },
        );
    }
    if doc.lines.is_empty() {
        f.add("BR-16", Lines, "the invoice has no lines");
    }
    for (n, line) in doc.lines.iter().enumerate() {
        if line.id.trim().is_empty() {
            f.add("BR-21", Lines, format!("line {} has no identifier", n + 1));
        }
        if line.name.trim().is_empty() {
            f.add("BR-25", Lines, format!("line {} has no item name", n + 1));
        }
        if line.unit.trim().is_empty() {
            f.add(
                "BR-23",
                Lines,
                format!("line {} has no unit of measure", n + 1),
            );
        }
        if line.price.is_negative() {
            f.add(
                "BR-27",
                Lines,
                format!("line {}: the item's net price is negative", n + 1),
            );
        }
        if let Some(period) = line.period {
            if let (Some(from), Some(to)) = (period.from, period.to) {
                if to < from {
                    f.add(
                        "BR-30",
                        Lines,
                        format!("line {}: the period ends before it starts", n + 1),
                    );
                }
            }
        }
    }
    if let Some(period) = doc.period {
        if let (Some(from), Some(to)) = (period.from, period.to) {
            if to < from {
                f.add(
                    "BR-29",
                    Draft("--period"),
                    "the invoicing period ends before it starts",
                );
            }
        }
    }
    if let Some(representative) = &doc.tax_representative {
        representative_terms(representative, f);
    }
    if doc.seller.vat_id.is_none()
        && doc.seller.registration.is_none()
        && doc.seller.identifier.is_none()
    {
        f.add(
            "BR-CO-26",
            Seller("--vat-id"),
            Issue::NoVatIdNorRegistration,
        );
    }
    if !doc.type_code.is_credit()
        && doc.due > 0
        && doc.due_on.is_none()
        && missing(&doc.payment_terms)
    {
        f.add(
            "BR-CO-25",
            Figures,
            "an amount is due but neither a due date nor payment terms are given",
        );
    }
}

/// What a seller's tax representative (BG-11) must carry: its name
/// (BR-18), its postal address (BR-19) with a country (BR-20), and its VAT
/// id (BR-56).
fn representative_terms(r: &TaxRepresentative, f: &mut Findings) {
    use Subject::*;
    if r.name.trim().is_empty() {
        f.add(
            "BR-18",
            Figures,
            "the seller's tax representative has no name",
        );
    }
    match &r.address {
        None => f.add(
            "BR-19",
            Figures,
            "the seller's tax representative has no postal address",
        ),
        Some(a) if a.country.trim().is_empty() => f.add(
            "BR-20",
            Figures,
            "the seller's tax representative's address has no country",
        ),
        Some(_) => {}
    }
    if r.vat_id.is_none() {
        f.add(
            "BR-56",
            Figures,
            "the seller's tax representative has no VAT id",
        );
    }
}

/// The sums: BR-CO-10 to BR-CO-17 and BR-CO-18.
fn sums(doc: &Document, f: &mut Findings) {
    use Subject::*;
    let shown = |minor: i64| doc.amount(minor);
    let lines: i64 = doc.lines.iter().map(|l| l.net).sum();
    if lines != doc.line_total {
        f.add(
            "BR-CO-10",
            Figures,
            format!(
                "the line nets add up to {}, not to the sum of lines {}",
                shown(lines),
                shown(doc.line_total)
            ),
        );
    }
    let (allowances, charges) = split(&doc.allowances);
    if allowances != doc.allowance_total {
        f.add(
            "BR-CO-11",
            Figures,
            format!(
                "the allowances add up to {}, not to their total {}",
                shown(allowances),
                shown(doc.allowance_total)
            ),
        );
    }
    if charges != doc.charge_total {
        f.add(
            "BR-CO-12",
            Figures,
            format!(
                "the charges add up to {}, not to their total {}",
                shown(charges),
                shown(doc.charge_total)
            ),
        );
    }
    let net = doc.line_total - doc.allowance_total + doc.charge_total;
    if net != doc.net {
        f.add(
            "BR-CO-13",
            Figures,
            format!(
                "the total without VAT is {}, but the lines less allowances plus charges make {}",
                shown(doc.net),
                shown(net)
            ),
        );
    }
    let vat: i64 = doc.breakdown.iter().map(|b| b.amount).sum();
    if vat != doc.tax {
        f.add(
            "BR-CO-14",
            Figures,
            format!(
                "the breakdown's VAT adds up to {}, not to the VAT total {}",
                shown(vat),
                shown(doc.tax)
            ),
        );
    }
    if doc.net + doc.tax != doc.gross {
        f.add(
            "BR-CO-15",
            Figures,
            format!(
                "the total with VAT is {}, but {} plus VAT {} make {}",
                shown(doc.gross),
                shown(doc.net),
                shown(doc.tax),
                shown(doc.net + doc.tax)
            ),
        );
    }
    if doc.gross - doc.paid + doc.rounding != doc.due {
        f.add(
            "BR-CO-16",
            Figures,
            format!(
                "the amount due is {}, but the total {} less {} paid plus {} rounding make {}",
                shown(doc.due),
                shown(doc.gross),
                shown(doc.paid),
                shown(doc.rounding),
                shown(doc.gross - doc.paid + doc.rounding)
            ),
        );
    }
    for entry in &doc.breakdown {
        if !tax_fits(entry.base, entry.rate, entry.amount, doc.exponent) {
            f.add(
                "BR-CO-17",
                Figures,
                format!(
                    "the VAT of category {} at {} % is {} on a base of {}; the rate makes it {}",
                    entry.category.code(),
                    entry.rate,
                    shown(entry.amount),
                    shown(entry.base),
                    money::percent_of(entry.base, entry.rate)
                        .map(shown)
                        .unwrap_or_else(|_| "more than kontor books".into())
                ),
            );
        }
    }
    if doc.breakdown.is_empty() {
        f.add("BR-CO-18", Figures, "the invoice has no VAT breakdown");
    }
}

/// BR-CO-17 as the CEN validation artefacts check it: the category's tax
/// within one unit of the currency of its base times its rate (0 for a
/// zero rate).
fn tax_fits(base: i64, rate: Decimal, amount: i64, exponent: u8) -> bool {
    if rate.is_zero() {
        return amount == 0;
    }
    let Ok(expected) = money::percent_of(base.abs(), rate) else {
        return false;
    };
    let unit = 10i64.pow(exponent as u32);
    (amount.abs() - expected).abs() < unit
}

/// The allowances and the charges of a list, each summed.
fn split(list: &[AllowanceCharge]) -> (i64, i64) {
    list.iter().fold((0, 0), |(a, c), x| {
        if x.charge {
            (a, c + x.amount)
        } else {
            (a + x.amount, c)
        }
    })
}

/// The mandatory terms of allowances and charges (BR-31…BR-44).
fn allowances(doc: &Document, f: &mut Findings) {
    use Subject::*;
    for x in &doc.allowances {
        let (vat_rule, reason_rule, what) = if x.charge {
            ("BR-37", "BR-38", "a document-level charge")
        } else {
            ("BR-32", "BR-33", "a document-level allowance")
        };
        if x.vat.is_none() {
            f.add(vat_rule, Figures, format!("{what} has no VAT category"));
        }
        if missing(&x.reason) && missing(&x.reason_code) {
            f.add(reason_rule, Figures, format!("{what} gives no reason"));
        }
    }
    for (n, line) in doc.lines.iter().enumerate() {
        for x in &line.allowances {
            let (rule, what) = if x.charge {
                ("BR-44", "charge")
            } else {
                ("BR-42", "allowance")
            };
            if missing(&x.reason) && missing(&x.reason_code) {
                f.add(
                    rule,
                    Lines,
                    format!("line {}: an {what} gives no reason", n + 1),
                );
            }
        }
    }
}

/// What carries a VAT category: lines, document allowances, charges.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Carrier {
    Line,
    Allowance,
    Charge,
}

/// Every (carrier, category, rate, net amount) of the document: lines at
/// their net, allowances negative, charges positive.
fn taxed(doc: &Document) -> Vec<(Carrier, &Category, Decimal, i64)> {
    let mut out: Vec<_> = doc
        .lines
        .iter()
        .map(|l| (Carrier::Line, &l.category, l.rate, l.net))
        .collect();
    for x in &doc.allowances {
        if let Some((category, rate)) = &x.vat {
            let rate = *rate;
            if x.charge {
                out.push((Carrier::Charge, category, rate, x.amount));
            } else {
                out.push((Carrier::Allowance, category, rate, -x.amount));
            }
        }
    }
    out
}

/// The rules of each VAT category present (BR-S, BR-Z, BR-E, BR-AE,
/// BR-IC, BR-G, BR-O, BR-AF, BR-AG: -01 to -10). A category outside
/// EN 16931's list has no rule family: its reading said so, and the sums
/// still count it.
fn categories(doc: &Document, f: &mut Findings) {
    use Subject::*;
    let taxed = taxed(doc);
    let mut present: Vec<&Category> = Vec::new();
    for (_, c, _, _) in &taxed {
        if !present.contains(c) {
            present.push(c);
        }
    }
    if present.contains(&&Category::B) && present.contains(&&Category::S) {
        f.add(
            "BR-B-02",
            Lines,
            "an invoice with split payment (B) cannot also carry standard rated (S) VAT",
        );
    }
    for category in present.iter().copied() {
        // Split payment has no rule family of its own beyond BR-B.
        if *category == Category::B || !category.is_listed() {
            continue;
        }
        if !doc.breakdown.iter().any(|b| b.category == *category) {
            f.add(
                rule(category, 1),
                Figures,
                format!("category {} has no breakdown entry", category.code()),
            );
        }
    }
    for (carrier, category, rate, _) in &taxed {
        if !category.fits(rate) {
            let (n, what) = match carrier {
                Carrier::Line => (5, "a line"),
                Carrier::Allowance => (6, "an allowance"),
                Carrier::Charge => (7, "a charge"),
            };
            f.add(
                rule(category, n),
                Lines,
                format!(
                    "{what} of category {} cannot carry the rate {rate} %",
                    category.code()
                ),
            );
        }
    }
    for entry in doc
        .breakdown
        .iter()
        .filter(|b| b.category != Category::B && b.category.is_listed())
    {
        let c = &entry.category;
        let per_rate = matches!(c, Category::S | Category::L | Category::M);
        let base: i64 = taxed
            .iter()
            .filter(|(_, category, rate, _)| *category == c && (!per_rate || *rate == entry.rate))
            .map(|(_, _, _, net)| net)
            .sum();
        if base != entry.base {
            f.add(
                rule(c, 8),
                Figures,
                format!(
                    "the breakdown's base of category {}{} is {}, but its lines, allowances and charges make {}",
                    c.code(),
                    if per_rate { format!(" at {} %", entry.rate) } else { String::new() },
                    doc.amount(entry.base),
                    doc.amount(base)
                ),
            );
        }
        if c.zero_rated() && entry.amount != 0 {
            f.add(
                rule(c, 9),
                Figures,
                format!(
                    "category {} charges no VAT, yet its breakdown shows some",
                    c.code()
                ),
            );
        }
        let has_reason = !missing(&entry.reason) || !missing(&entry.reason_code);
        if c.needs_reason() && !has_reason {
            f.add(
                rule(c, 10),
                Lines,
                format!(
                    "category {} needs the reason for the exemption (a text or a VATEX code)",
                    c.code()
                ),
            );
        }
        if matches!(c, Category::S | Category::Z | Category::L | Category::M) && has_reason {
            f.add(
                rule(c, 10),
                Lines,
                format!("category {} carries no exemption reason", c.code()),
            );
        }
    }
    identities(doc, &present, f);
}

/// Who must be identified, per category (BR-x-02/03/04), and the
/// delivery an intra-community supply needs (BR-IC-11/12). Wherever
/// EN 16931 asks for the seller's VAT id (BT-31) it takes the seller's
/// tax representative's (BT-63) as well (BR-S-02…04, BR-Z-02…04,
/// BR-E-02…04, BR-AE-02…04, BR-IC-02…04, BR-G-02…04, BR-AF-02…04,
/// BR-AG-02…04), and BR-O-02 forbids both.
fn identities(doc: &Document, present: &[&Category], f: &mut Findings) {
    use Subject::*;
    let representative_vat = doc
        .tax_representative
        .as_ref()
        .is_some_and(|r| r.vat_id.is_some());
    let seller_vat = doc.seller.vat_id.is_some() || representative_vat;
    let seller_tax = seller_vat || doc.seller.tax_number.is_some();
    let buyer_known = doc.buyer.vat_id.is_some() || doc.buyer.registration.is_some();
    for category in present.iter().copied() {
        match category {
            Category::S | Category::Z | Category::E | Category::L | Category::M => {
                if !seller_tax {
                    f.add(
                        rule(category, 2),
                        Seller("--vat-id"),
                        format!(
                            "a line of category {} needs the seller's VAT id or tax number",
                            category.code()
                        ),
                    );
                }
            }
            Category::G => {
                if !seller_vat {
                    f.add(
                        "BR-G-02",
                        Seller("--vat-id"),
                        "an export needs the seller's VAT id",
                    );
                }
            }
            Category::AE => {
                if !seller_vat {
                    f.add(
                        "BR-AE-02",
                        Seller("--vat-id"),
                        "reverse charge needs the seller's VAT id",
                    );
                }
                if !buyer_known {
                    f.add(
                        "BR-AE-02",
                        Buyer("--vat-id"),
                        "reverse charge needs the buyer's VAT id",
                    );
                }
            }
            Category::K => {
                if !seller_vat {
                    f.add(
                        "BR-IC-02",
                        Seller("--vat-id"),
                        "an intra-community supply needs the seller's VAT id",
                    );
                }
                if doc.buyer.vat_id.is_none() {
                    f.add(
                        "BR-IC-02",
                        Buyer("--vat-id"),
                        "an intra-community supply needs the buyer's VAT id",
                    );
                }
                if doc.delivered_on.is_none() && doc.period.is_none() {
                    f.add(
                        "BR-IC-11",
                        Draft("--period"),
                        "an intra-community supply needs a delivery date or period",
                    );
                }
                if doc
                    .deliver_to
                    .as_ref()
                    .is_none_or(|a| a.country.trim().is_empty())
                {
                    f.add(
                        "BR-IC-12",
                        Buyer("--country"),
                        "an intra-community supply needs the country it was delivered to",
                    );
                }
            }
            Category::B | Category::Unlisted(_) => {}
            Category::O => {
                if seller_vat || doc.buyer.vat_id.is_some() {
                    f.add(
                        "BR-O-02",
                        Lines,
                        "a supply outside the scope of VAT names no VAT id of seller or buyer",
                    );
                }
                if present.len() > 1 {
                    f.add(
                        "BR-O-11",
                        Lines,
                        "a supply outside the scope of VAT cannot share an invoice with other categories",
                    );
                }
            }
        }
    }
}

/// The rule `n` of a category's family ("BR-S-08").
fn rule(c: &Category, n: u8) -> &'static str {
    const IDS: [[&str; 10]; 9] = [
        [
            "BR-S-01", "BR-S-02", "BR-S-03", "BR-S-04", "BR-S-05", "BR-S-06", "BR-S-07", "BR-S-08",
            "BR-S-09", "BR-S-10",
        ],
        [
            "BR-Z-01", "BR-Z-02", "BR-Z-03", "BR-Z-04", "BR-Z-05", "BR-Z-06", "BR-Z-07", "BR-Z-08",
            "BR-Z-09", "BR-Z-10",
        ],
        [
            "BR-E-01", "BR-E-02", "BR-E-03", "BR-E-04", "BR-E-05", "BR-E-06", "BR-E-07", "BR-E-08",
            "BR-E-09", "BR-E-10",
        ],
        [
            "BR-AE-01", "BR-AE-02", "BR-AE-03", "BR-AE-04", "BR-AE-05", "BR-AE-06", "BR-AE-07",
            "BR-AE-08", "BR-AE-09", "BR-AE-10",
        ],
        [
            "BR-IC-01", "BR-IC-02", "BR-IC-03", "BR-IC-04", "BR-IC-05", "BR-IC-06", "BR-IC-07",
            "BR-IC-08", "BR-IC-09", "BR-IC-10",
        ],
        [
            "BR-G-01", "BR-G-02", "BR-G-03", "BR-G-04", "BR-G-05", "BR-G-06", "BR-G-07", "BR-G-08",
            "BR-G-09", "BR-G-10",
        ],
        [
            "BR-O-01", "BR-O-02", "BR-O-03", "BR-O-04", "BR-O-05", "BR-O-06", "BR-O-07", "BR-O-08",
            "BR-O-09", "BR-O-10",
        ],
        [
            "BR-AF-01", "BR-AF-02", "BR-AF-03", "BR-AF-04", "BR-AF-05", "BR-AF-06", "BR-AF-07",
            "BR-AF-08", "BR-AF-09", "BR-AF-10",
        ],
        [
            "BR-AG-01", "BR-AG-02", "BR-AG-03", "BR-AG-04", "BR-AG-05", "BR-AG-06", "BR-AG-07",
            "BR-AG-08", "BR-AG-09", "BR-AG-10",
        ],
    ];
    let family = Category::ALL.iter().position(|x| x == c).unwrap_or(0);
    IDS[family][(n.clamp(1, 10) - 1) as usize]
}

fn xrechnung(doc: &Document, f: &mut Findings) {
    use Subject::*;
    if missing(&doc.buyer_reference) {
        f.add(
            "BR-DE-15",
            Draft("--buyer-reference"),
            Issue::Missing {
                whose: Party::Buyer,
                what: Particular::Reference,
            },
        );
    }
    if doc.type_code == TypeCode::Invoice && doc.transfer.is_none() {
        f.add(
            "BR-DE-1",
            Seller("--iban"),
            "the payment instructions are missing: the seller has no IBAN",
        );
    }
    // The parties' particulars XRechnung requires, in the order of its rules.
    let particulars = [
        (
            &doc.seller.contact.name,
            "BR-DE-5",
            Seller("--contact-name"),
            Issue::Missing {
                whose: Party::Seller,
                what: Particular::ContactName,
            },
        ),
        (
            &doc.seller.contact.phone,
            "BR-DE-6",
            Seller("--contact-phone"),
            Issue::Missing {
                whose: Party::Seller,
                what: Particular::ContactPhone,
            },
        ),
        (
            &doc.seller.contact.email,
            "BR-DE-7",
            Seller("--contact-email"),
            Issue::Missing {
                whose: Party::Seller,
                what: Particular::ContactEmail,
            },
        ),
        (
            &doc.seller.address.city,
            "BR-DE-3",
            Seller("--city"),
            Issue::Missing {
                whose: Party::Seller,
                what: Particular::City,
            },
        ),
        (
            &doc.seller.address.postal_code,
            "BR-DE-4",
            Seller("--postal-code"),
            Issue::Missing {
                whose: Party::Seller,
                what: Particular::PostalCode,
            },
        ),
        (
            &doc.buyer.address.city,
            "BR-DE-8",
            Buyer("--city"),
            Issue::Missing {
                whose: Party::Buyer,
                what: Particular::City,
            },
        ),
        (
            &doc.buyer.address.postal_code,
            "BR-DE-9",
            Buyer("--postal-code"),
            Issue::Missing {
                whose: Party::Buyer,
                what: Particular::PostalCode,
            },
        ),
    ];
    for (value, rule, subject, problem) in particulars {
        if missing(value) {
            f.add(rule, subject, problem);
        }
    }
    if doc.seller.vat_id.is_none()
        && doc.seller.tax_number.is_none()
        && doc.lines.iter().any(|l| l.category != Category::O)
    {
        f.add(
            "BR-DE-16",
            Seller("--vat-id"),
            Issue::Missing {
                whose: Party::Seller,
                what: Particular::VatIdOrTaxNumber,
            },
        );
    }
    electronic_addresses(doc, f);
}

fn peppol(doc: &Document, f: &mut Findings) {
    use Subject::*;
    if missing(&doc.buyer_reference) && missing(&doc.order_reference) {
        f.add(
            "PEPPOL-EN16931-R003",
            Draft("--buyer-reference"),
            "neither a buyer reference nor an order reference is given",
        );
    }
    electronic_addresses(doc, f);
    for (party, subject) in [
        (&doc.seller, Seller("--electronic-address")),
        (&doc.buyer, Buyer("--electronic-address")),
    ] {
        if let Some(address) = &party.electronic_address {
            if !PEPPOL_SCHEMES.contains(&address.scheme) {
                f.add(
                    "PEPPOL-EN16931-CL008",
                    subject,
                    format!(
                        "Peppol does not take the scheme {} for an electronic address; give a participant id (9930 German VAT id, 0088 GLN, 0204 Leitweg-ID, …)",
                        address.scheme
                    ),
                );
            }
        }
    }
}

/// The electronic address schemes Peppol BIS Billing 3.0.20 accepts
/// (PEPPOL-EN16931-CL008): the EAS list without e-mail and the like, one a
/// line (the list as published, kept as data beside this file).
static PEPPOL_SCHEMES: CodeList = CodeList::new(include_str!("peppol_schemes.txt"));

fn electronic_addresses(doc: &Document, f: &mut Findings) {
    if doc.seller.electronic_address.is_none() {
        f.add(
            "PEPPOL-EN16931-R020",
            Subject::Seller("--electronic-address"),
            "the seller's electronic address is missing",
        );
    }
    if doc.buyer.electronic_address.is_none() {
        f.add(
            "PEPPOL-EN16931-R010",
            Subject::Buyer("--electronic-address"),
            "the buyer's electronic address is missing",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::documents::samples;

    fn rules(doc: &Document, formats: &[Format]) -> Vec<&'static str> {
        check(doc, formats).into_iter().map(|f| f.rule).collect()
    }

    #[test]
    fn the_sample_passes_every_format() {
        assert_eq!(rules(&samples::mixed(), &Format::ALL), Vec::<&str>::new());
    }

    /// The rules the surfaces cannot reach (a customer always has a city and
    /// postal code; kontor computes the sums), each with a failing case.
    #[test]
    fn each_rule_fails_on_its_case() {
        type Break = Box<dyn Fn(&mut Document)>;
        let cases: Vec<(&str, Break)> = vec![
            ("BR-DE-8", Box::new(|d| d.buyer.address.city = None)),
            ("BR-DE-9", Box::new(|d| d.buyer.address.postal_code = None)),
            ("BR-CO-10", Box::new(|d| d.lines[0].net += 1)),
            ("BR-CO-14", Box::new(|d| d.breakdown[0].amount += 1)),
            ("BR-CO-15", Box::new(|d| d.gross += 1)),
            ("BR-S-08", Box::new(|d| d.breakdown[1].base += 1)),
            ("BR-CO-16", Box::new(|d| d.due += 1)),
            ("BR-CO-17", Box::new(|d| d.breakdown[0].amount += 100)),
            ("BR-CO-18", Box::new(|d| d.breakdown.clear())),
            ("BR-02", Box::new(|d| d.number.clear())),
            (
                "BR-S-05",
                Box::new(|d| d.lines[0].rate = Decimal::from_int(0)),
            ),
            ("BR-Z-05", Box::new(|d| d.lines[0].category = Category::Z)),
            (
                "BR-S-10",
                Box::new(|d| d.breakdown[0].reason = Some("x".into())),
            ),
            ("BR-DEC-23", Box::new(|d| d.exponent = 3)),
            ("BR-16", Box::new(|d| d.lines.clear())),
            (
                "BR-CO-25",
                Box::new(|d| {
                    d.due_on = None;
                    d.payment_terms = None;
                }),
            ),
            (
                "BR-AE-02",
                Box::new(|d| {
                    for l in &mut d.lines {
                        l.category = Category::AE;
                        l.rate = Decimal::from_int(0);
                    }
                }),
            ),
            (
                "BR-E-10",
                Box::new(|d| {
                    d.lines.iter_mut().for_each(|l| {
                        l.category = Category::E;
                        l.rate = Decimal::from_int(0);
                    });
                    d.breakdown = vec![Breakdown {
                        category: Category::E,
                        rate: Decimal::from_int(0),
                        base: d.net,
                        amount: 0,
                        reason: None,
                        reason_code: None,
                    }];
                }),
            ),
            (
                "BR-O-02",
                Box::new(|d| {
                    d.lines.iter_mut().for_each(|l| {
                        l.category = Category::O;
                        l.rate = Decimal::from_int(0);
                    });
                }),
            ),
        ];
        for (rule, break_it) in cases {
            let mut doc = samples::mixed();
            break_it(&mut doc);
            assert!(
                rules(&doc, &Format::ALL).contains(&rule),
                "{rule}: {:?}",
                rules(&doc, &Format::ALL)
            );
        }
    }

    #[test]
    fn the_peppol_schemes_are_sorted_for_their_lookup() {
        let codes = PEPPOL_SCHEMES.codes();
        assert!(codes.len() > 50 && codes.windows(2).all(|w| w[0] < w[1]));
        assert!(PEPPOL_SCHEMES.contains("9930") && !PEPPOL_SCHEMES.contains("EM"));
    }
}
