//! The verdict on a document before it is issued: the EN 16931 business
//! rules that concern what kontor writes (mandatory terms, the BR-CO sums,
//! the VAT category rules, the decimal rules) and the rules of the formats
//! the buyer receives (XRechnung's BR-DE, Peppol's). Each finding names its
//! rule id, the particular that is missing or wrong, and the sentence a
//! person reads; the books add how to fix it.

#[cfg(test)]
use super::Breakdown;
use super::{Category, Document, Format, TypeCode};
#[cfg(test)]
use crate::rules::money::Decimal;

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
    pub problem: String,
}

struct Findings(Vec<Finding>);

impl Findings {
    fn add(&mut self, rule: &'static str, subject: Subject, problem: impl Into<String>) {
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
}

/// Checks `doc` for the formats it is to be written in. Empty when it
/// passes.
pub fn check(doc: &Document, formats: &[Format]) -> Vec<Finding> {
    let mut f = Findings(Vec::new());
    en16931(doc, &mut f);
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

fn en16931(doc: &Document, f: &mut Findings) {
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
    if doc.seller.name.trim().is_empty() {
        f.add(
            "BR-06",
            Seller("--legal-name"),
            "the seller's name is missing",
        );
    }
    if doc.buyer.name.trim().is_empty() {
        f.add("BR-07", Buyer("--name"), "the buyer's name is missing");
    }
    if doc.lines.is_empty() {
        f.add("BR-16", Lines, "the invoice has no lines");
    }
    if doc.seller.vat_id.is_none() && doc.seller.registration.is_none() {
        f.add(
            "BR-CO-26",
            Seller("--vat-id"),
            "the seller has neither a VAT id nor a legal registration",
        );
    }
    if doc.due > 0 && doc.due_on.is_none() && missing(&doc.payment_terms) {
        f.add(
            "BR-CO-25",
            Figures,
            "an amount is due but neither a due date nor payment terms are given",
        );
    }
    // The sums (BR-CO-10, -13, -15, -16, -17).
    let lines: i64 = doc.lines.iter().map(|l| l.net).sum();
    if lines != doc.net {
        f.add(
            "BR-CO-10",
            Figures,
            "the line nets do not add up to the total",
        );
    }
    let vat: i64 = doc.breakdown.iter().map(|b| b.amount).sum();
    if vat != doc.tax {
        f.add(
            "BR-CO-14",
            Figures,
            "the breakdown's VAT does not add up to the VAT total",
        );
    }
    if doc.net + doc.tax != doc.gross || doc.gross - doc.paid != doc.due {
        f.add("BR-CO-15", Figures, "the totals do not add up");
    }
    let categories = categories(doc);
    for entry in &doc.breakdown {
        let base: i64 = doc
            .lines
            .iter()
            .filter(|l| l.category == entry.category && l.rate == entry.rate)
            .map(|l| l.net)
            .sum();
        if base != entry.base {
            f.add(
                "BR-CO-18",
                Figures,
                "a breakdown base is not the sum of its lines",
            );
        }
    }
    for category in categories.iter().copied() {
        if !doc.breakdown.iter().any(|b| b.category == category) {
            f.add(
                breakdown_rule(category),
                Figures,
                format!("category {} has no breakdown entry", category.code()),
            );
        }
    }
    for line in &doc.lines {
        let zero = line.rate.is_zero();
        let (rule, wrong) = match line.category {
            Category::S => ("BR-S-05", zero || line.rate.is_negative()),
            Category::L => ("BR-AF-05", line.rate.is_negative()),
            Category::M => ("BR-AG-05", line.rate.is_negative()),
            c => (rate_rule(c), !zero),
        };
        if wrong {
            f.add(
                rule,
                Lines,
                format!(
                    "line {:?}: category {} cannot carry the rate {} %",
                    line.name,
                    line.category.code(),
                    line.rate
                ),
            );
        }
    }
    for entry in &doc.breakdown {
        let has_reason = !missing(&entry.reason) || !missing(&entry.reason_code);
        let c = entry.category;
        if c.needs_reason() && !has_reason {
            f.add(
                reason_rule(c),
                Lines,
                format!(
                    "category {} needs the reason for the exemption (a text or a VATEX code)",
                    c.code()
                ),
            );
        }
        if matches!(c, Category::S | Category::Z | Category::L | Category::M) && has_reason {
            f.add(
                reason_rule(c),
                Lines,
                format!("category {} carries no exemption reason", c.code()),
            );
        }
    }
    // Who must be identified, per category (BR-x-02/03/04).
    let seller_vat = doc.seller.vat_id.is_some();
    let seller_tax = seller_vat || doc.seller.tax_number.is_some();
    for category in categories.iter().copied() {
        match category {
            Category::S | Category::Z | Category::E | Category::L | Category::M => {
                if !seller_tax {
                    f.add(
                        identity_rule(category),
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
                if doc.buyer.vat_id.is_none() {
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
            }
            Category::O => {
                if doc.seller.vat_id.is_some() || doc.buyer.vat_id.is_some() {
                    f.add(
                        "BR-O-02",
                        Lines,
                        "a supply outside the scope of VAT names no VAT id of seller or buyer",
                    );
                }
                if categories.len() > 1 {
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

fn xrechnung(doc: &Document, f: &mut Findings) {
    use Subject::*;
    if missing(&doc.buyer_reference) {
        f.add(
            "BR-DE-15",
            Draft("--buyer-reference"),
            "the buyer reference is missing",
        );
    }
    if doc.type_code == TypeCode::Invoice && doc.transfer.is_none() {
        f.add(
            "BR-DE-1",
            Seller("--iban"),
            "the payment instructions are missing: the seller has no IBAN",
        );
    }
    if missing(&doc.seller.contact.name) {
        f.add(
            "BR-DE-5",
            Seller("--contact-name"),
            "the seller's contact name is missing",
        );
    }
    if missing(&doc.seller.contact.phone) {
        f.add(
            "BR-DE-6",
            Seller("--contact-phone"),
            "the seller's contact telephone is missing",
        );
    }
    if missing(&doc.seller.contact.email) {
        f.add(
            "BR-DE-7",
            Seller("--contact-email"),
            "the seller's contact e-mail is missing",
        );
    }
    if missing(&doc.seller.address.city) {
        f.add("BR-DE-3", Seller("--city"), "the seller's city is missing");
    }
    if missing(&doc.seller.address.postal_code) {
        f.add(
            "BR-DE-4",
            Seller("--postal-code"),
            "the seller's postal code is missing",
        );
    }
    if missing(&doc.buyer.address.city) {
        f.add("BR-DE-8", Buyer("--city"), "the buyer's city is missing");
    }
    if missing(&doc.buyer.address.postal_code) {
        f.add(
            "BR-DE-9",
            Buyer("--postal-code"),
            "the buyer's postal code is missing",
        );
    }
    if doc.seller.vat_id.is_none()
        && doc.seller.tax_number.is_none()
        && categories(doc).iter().any(|c| *c != Category::O)
    {
        f.add(
            "BR-DE-16",
            Seller("--vat-id"),
            "the seller's VAT id or tax number is missing",
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
            if !PEPPOL_SCHEMES.contains(&address.scheme.as_str()) {
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
/// (PEPPOL-EN16931-CL008): the EAS list without e-mail and the like.
const PEPPOL_SCHEMES: &[&str] = &[
    "0002", "0007", "0009", "0037", "0060", "0088", "0096", "0097", "0106", "0130", "0135", "0142",
    "0147", "0151", "0154", "0158", "0170", "0177", "0183", "0184", "0188", "0190", "0191", "0192",
    "0193", "0194", "0195", "0196", "0198", "0199", "0200", "0201", "0202", "0203", "0204", "0205",
    "0208", "0209", "0210", "0211", "0212", "0213", "0215", "0216", "0217", "0218", "0221", "0225",
    "0230", "0235", "0240", "0244", "0245", "9910", "9913", "9914", "9915", "9918", "9919", "9920",
    "9922", "9923", "9924", "9925", "9926", "9927", "9928", "9929", "9930", "9931", "9932", "9933",
    "9934", "9935", "9936", "9937", "9938", "9939", "9940", "9941", "9942", "9943", "9944", "9945",
    "9946", "9947", "9948", "9949", "9950", "9951", "9952", "9953", "9957", "9959",
];

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

/// The categories the lines use, each once, in order.
fn categories(doc: &Document) -> Vec<Category> {
    let mut seen: Vec<Category> = Vec::new();
    for line in &doc.lines {
        if !seen.contains(&line.category) {
            seen.push(line.category);
        }
    }
    seen
}

fn identity_rule(c: Category) -> &'static str {
    match c {
        Category::S => "BR-S-02",
        Category::Z => "BR-Z-02",
        Category::E => "BR-E-02",
        Category::L => "BR-AF-02",
        Category::M => "BR-AG-02",
        Category::AE => "BR-AE-02",
        Category::K => "BR-IC-02",
        Category::G => "BR-G-02",
        Category::O => "BR-O-02",
    }
}

fn breakdown_rule(c: Category) -> &'static str {
    match c {
        Category::S => "BR-S-01",
        Category::Z => "BR-Z-01",
        Category::E => "BR-E-01",
        Category::AE => "BR-AE-01",
        Category::K => "BR-IC-01",
        Category::G => "BR-G-01",
        Category::O => "BR-O-01",
        Category::L => "BR-AF-01",
        Category::M => "BR-AG-01",
    }
}

fn rate_rule(c: Category) -> &'static str {
    match c {
        Category::S => "BR-S-05",
        Category::Z => "BR-Z-05",
        Category::E => "BR-E-05",
        Category::AE => "BR-AE-05",
        Category::K => "BR-IC-05",
        Category::G => "BR-G-05",
        Category::O => "BR-O-05",
        Category::L => "BR-AF-05",
        Category::M => "BR-AG-05",
    }
}

fn reason_rule(c: Category) -> &'static str {
    match c {
        Category::S => "BR-S-10",
        Category::Z => "BR-Z-10",
        Category::E => "BR-E-10",
        Category::AE => "BR-AE-10",
        Category::K => "BR-IC-10",
        Category::G => "BR-G-10",
        Category::O => "BR-O-10",
        Category::L => "BR-AF-10",
        Category::M => "BR-AG-10",
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
            ("BR-CO-18", Box::new(|d| d.breakdown[1].base += 1)),
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
}
