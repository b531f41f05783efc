//! Reading single terms of a received document: amounts in the document's
//! currency, exact decimals, dates in either syntax's form, codes and
//! texts. A term that is there but unreadable, or has more decimals than
//! its currency, becomes a finding (the document is kept and shown), never
//! a guess; what the readers need but cannot do without is a `Refusal`.

use base64::Engine;
use jiff::civil::Date;

use super::tree::{Node, Refusal};
use crate::documents::verdict::{Finding, Findings, Subject};
use crate::documents::{
    AccountingTax, AllowanceCharge, Attachment, Category, EmbeddedFile, TypeCode,
};
use crate::rules::iso::Currency;
use crate::rules::money::Decimal;

/// The document totals but the VAT total: the sum of the line nets
/// (BT-106), the allowances' and charges' sums (BT-107, BT-108), the totals
/// without and with VAT (BT-109, BT-112), what was paid before (BT-113),
/// the rounding (BT-114) and the amount due (BT-115). Each is a `T`: a
/// syntax's element name of the term, or its amount as read, in minor
/// units of the document currency.
pub struct Totals<T> {
    pub line_total: T,
    pub allowance_total: T,
    pub charge_total: T,
    pub net: T,
    pub gross: T,
    pub paid: T,
    pub rounding: T,
    pub due: T,
}

/// The reading of one document: its currency's exponent and what was found
/// wrong on the way.
pub struct Terms {
    pub exponent: u8,
    pub findings: Findings,
}

impl Terms {
    /// Reads the document currency (BT-5) the amounts are in.
    ///
    /// Fails with a `Refusal` when it is missing or not an ISO 4217 code:
    /// without it no amount can be read.
    pub fn new(currency: Option<&str>) -> Result<(Terms, String), Refusal> {
        let Some(code) = currency else {
            return Err(Refusal::new(
                "The document names no currency (BT-5), so none of its amounts can be read.",
            ));
        };
        let currency = Currency::parse("currency", code).map_err(|_| {
            Refusal::new(format!(
                "The document's currency {code:?} is not an ISO 4217 code, so none of its amounts can be read."
            ))
        })?;
        Ok((
            Terms {
                exponent: currency.exponent(),
                findings: Findings::new(),
            },
            currency.as_str().to_string(),
        ))
    }

    /// Notes a broken rule.
    pub fn find(&mut self, rule: &'static str, problem: impl Into<String>) {
        self.findings.add(rule, Subject::Figures, problem.into());
    }

    /// An amount (BT-`term`) in minor units; `None` when absent. An
    /// unreadable one is a finding and reads as absent; one with more
    /// decimals than the currency is rounded half away from zero, with its
    /// decimal rule's finding.
    pub fn amount(&mut self, node: Option<&Node>, term: &'static str) -> Option<i64> {
        let text = node?.value()?;
        let Some(value) = Decimal::read_lenient(text) else {
            self.find("SCHEMA", format!("{term} is not an amount: {text:?}"));
            return None;
        };
        match value.to_minor(self.exponent) {
            Some(minor) => Some(minor),
            None => {
                let rounded = value.round_to_minor(self.exponent);
                if rounded.is_none() {
                    self.find("SCHEMA", format!("{term} is too large: {text}"));
                    return None;
                }
                self.find(
                    decimal_rule(term),
                    format!(
                        "{term} has more decimals ({text}) than its currency; it is read rounded"
                    ),
                );
                rounded
            }
        }
    }

    /// The document totals (BG-22) but the VAT total, `total(name)` being
    /// the element `name` among them and `names` the syntax's names of the
    /// terms: the four a document must give (BR-12 to BR-15) first, then
    /// the four that read 0 when absent.
    pub fn totals<'a>(
        &mut self,
        total: impl Fn(&str) -> Option<&'a Node>,
        names: &Totals<&str>,
    ) -> Totals<i64> {
        let line_total = self.required_amount(
            total(names.line_total),
            "BT-106",
            "BR-12",
            "the sum of the line nets",
        );
        let net =
            self.required_amount(total(names.net), "BT-109", "BR-13", "the total without VAT");
        let gross =
            self.required_amount(total(names.gross), "BT-112", "BR-14", "the total with VAT");
        let due = self.required_amount(total(names.due), "BT-115", "BR-15", "the amount due");
        let mut optional =
            |name: &str, term: &'static str| self.amount(total(name), term).unwrap_or(0);
        Totals {
            line_total,
            allowance_total: optional(names.allowance_total, "BT-107"),
            charge_total: optional(names.charge_total, "BT-108"),
            net,
            gross,
            paid: optional(names.paid, "BT-113"),
            rounding: optional(names.rounding, "BT-114"),
            due,
        }
    }

    /// A mandatory amount: absent, it is a finding of `rule` and reads 0.
    pub fn required_amount(
        &mut self,
        node: Option<&Node>,
        term: &'static str,
        rule: &'static str,
        what: &str,
    ) -> i64 {
        match self.amount(node, term) {
            Some(minor) => minor,
            None => {
                if node.and_then(Node::value).is_none() {
                    self.find(rule, format!("{what} ({term}) is missing"));
                }
                0
            }
        }
    }

    /// An exact decimal (a quantity, a price, a rate); an unreadable one is
    /// a finding and reads as absent.
    pub fn decimal(&mut self, node: Option<&Node>, term: &'static str) -> Option<Decimal> {
        let text = node?.value()?;
        let value = Decimal::read_lenient(text);
        if value.is_none() {
            self.find("SCHEMA", format!("{term} is not a number: {text:?}"));
        }
        value
    }

    /// A date as CII writes it (`DateTimeString` with format 102,
    /// `YYYYMMDD`) or UBL (`YYYY-MM-DD`, a time zone ignored).
    pub fn date(&mut self, node: Option<&Node>, term: &'static str) -> Option<Date> {
        let node = node?;
        let (text, format) = match node.child("DateTimeString") {
            Some(inner) => (inner.value()?, inner.attribute("format")),
            None => (node.value()?, None),
        };
        let parsed = match format {
            Some("102") | None if text.len() == 8 && text.bytes().all(|b| b.is_ascii_digit()) => {
                Date::strptime("%Y%m%d", text).ok()
            }
            None => text
                .get(..10)
                .and_then(|day| Date::strptime("%Y-%m-%d", day).ok()),
            Some(_) => None,
        };
        if parsed.is_none() {
            self.find(
                "SCHEMA",
                format!("{term} is not a date kontor reads: {text:?}"),
            );
        }
        parsed
    }

    /// A VAT category code (BT-151, BT-118, BT-95, BT-102) and its rate
    /// (`terms`: the code's term and the rate's), as the document gives
    /// them; absent, the rate reads 0 (O carries none). The category is
    /// never made up:
    /// - a code on EN 16931's list (UNTDID 5305: S, Z, E, AE, K, G, O, L,
    ///   M, and B) is that category;
    /// - any other code is kept as written (`Unlisted`), with the code
    ///   list's finding (BR-CL-18); booking asks a person which it is;
    /// - a missing code (a finding of `rule`: BR-CO-04 on a line, BR-47 in
    ///   the breakdown, BR-32 / BR-37 on an allowance or charge) with a rate
    ///   above zero is S, the standard rate, which is what a charged rate
    ///   means but in the Canary Islands (L) and Ceuta and Melilla (M);
    /// - a missing code with a rate of zero, or none, is kept as not given
    ///   (`Unlisted("")`): Z, E, AE, K, G and O all charge nothing, and
    ///   they differ in what the buyer owes (AE: the buyer self-assesses),
    ///   so booking asks a person which it is.
    pub fn vat(
        &mut self,
        code: Option<&str>,
        rate: Option<&Node>,
        terms: (&'static str, &'static str),
        rule: &'static str,
        place: &str,
    ) -> (Category, Decimal) {
        let (term, rate_term) = terms;
        let rate = self
            .decimal(rate, rate_term)
            .unwrap_or(Decimal::from_int(0));
        let category = match code {
            Some(code) => match Category::read_received(code) {
                Some(category) => category,
                None => {
                    self.find(
                        "BR-CL-18",
                        format!(
                            "{place}: the VAT category {code:?} ({term}) is not on EN 16931's list (S, Z, E, AE, K, G, O, L, M); it is kept as written, and booking asks which category it is"
                        ),
                    );
                    Category::Unlisted(code.to_string())
                }
            },
            None if !rate.is_zero() && !rate.is_negative() => {
                self.find(
                    rule,
                    format!(
                        "{place}: the VAT category ({term}) is missing; with its rate of {rate} % it is read as S, the standard rate"
                    ),
                );
                Category::S
            }
            None => {
                self.find(
                    rule,
                    format!(
                        "{place}: the VAT category ({term}) is missing, and a rate of {rate} % does not say which it is (Z, E, AE, K, G and O all charge nothing); it is kept as not given, and booking asks which category it is"
                    ),
                );
                Category::Unlisted(String::new())
            }
        };
        (category, rate)
    }

    /// BR-48: a VAT breakdown names its rate (BT-119), unless its category
    /// is O (not subject to VAT) or the document gives none to name it for.
    pub fn breakdown_rate(&mut self, category: &Category, given: bool) {
        if !given && *category != Category::O && !category.code().is_empty() {
            self.find(
                "BR-48",
                format!(
                    "the breakdown of category {} has no rate (BT-119)",
                    category.code()
                ),
            );
        }
    }

    /// An allowance or charge from its parts, as both syntaxes name them.
    pub fn allowance_charge(&mut self, x: AllowanceParts<'_>, place: &str) -> AllowanceCharge {
        let charge = x
            .indicator
            .is_some_and(|t| t.trim().eq_ignore_ascii_case("true") || t.trim() == "1");
        let amount = self.amount(x.amount, "the allowance or charge amount");
        if amount.is_none() {
            self.find(
                if charge { "BR-36" } else { "BR-31" },
                format!(
                    "{place}: an {} has no amount",
                    if charge { "charge" } else { "allowance" }
                ),
            );
        }
        let vat = x.vat.map(|(code, rate)| {
            let (terms, rule) = if charge {
                (("BT-102", "BT-103"), "BR-37")
            } else {
                (("BT-95", "BT-96"), "BR-32")
            };
            self.vat(code, rate, terms, rule, place)
        });
        AllowanceCharge {
            charge,
            amount: amount.unwrap_or(0),
            base: self.amount(x.base, "the allowance or charge base"),
            percent: self.decimal(x.percent, "the allowance or charge percentage"),
            reason: x.reason.and_then(Node::value).map(str::to_string),
            reason_code: x.reason_code.and_then(Node::value).map(str::to_string),
            vat,
        }
    }

    /// BG-24: an attachment with its embedded file decoded from base64.
    pub fn attachment(
        &mut self,
        id: Option<&Node>,
        description: Option<&Node>,
        uri: Option<&Node>,
        binary: Option<&Node>,
    ) -> Attachment {
        let file = binary.and_then(|b| {
            let text = b.value()?;
            let compact: String = text.split_ascii_whitespace().collect();
            match base64::engine::general_purpose::STANDARD.decode(compact.as_bytes()) {
                Ok(bytes) => Some(EmbeddedFile {
                    name: b.attribute("filename").unwrap_or("attachment").to_string(),
                    mime: b
                        .attribute("mimeCode")
                        .unwrap_or("application/octet-stream")
                        .to_string(),
                    bytes,
                }),
                Err(_) => {
                    self.find(
                        "SCHEMA",
                        "an attached document (BT-125) is not readable base64",
                    );
                    None
                }
            }
        });
        let id = id.and_then(Node::value).unwrap_or_default().to_string();
        if id.is_empty() {
            self.find("BR-52", "an attached document has no identifier (BT-122)");
        }
        Attachment {
            id,
            description: description.and_then(Node::value).map(str::to_string),
            uri: uri.and_then(Node::value).map(str::to_string),
            file,
        }
    }

    pub fn finish(self) -> Vec<Finding> {
        self.findings.into_vec()
    }
}

/// The elements of an allowance or charge, found by the syntax's reader.
#[derive(Default)]
pub struct AllowanceParts<'a> {
    pub indicator: Option<&'a str>,
    pub amount: Option<&'a Node>,
    pub base: Option<&'a Node>,
    pub percent: Option<&'a Node>,
    pub reason: Option<&'a Node>,
    pub reason_code: Option<&'a Node>,
    /// The VAT category code and the rate's element, when the document
    /// gives a tax for it at all; document level only.
    pub vat: Option<(Option<&'a str>, Option<&'a Node>)>,
}

/// The decimal rule of an amount's term (BR-DEC-…): at most two decimals.
fn decimal_rule(term: &str) -> &'static str {
    match term {
        "BT-106" => "BR-DEC-09",
        "BT-107" => "BR-DEC-10",
        "BT-108" => "BR-DEC-11",
        "BT-109" => "BR-DEC-12",
        "BT-110" => "BR-DEC-13",
        "BT-112" => "BR-DEC-14",
        "BT-113" => "BR-DEC-16",
        "BT-114" => "BR-DEC-17",
        "BT-115" => "BR-DEC-18",
        "BT-116" => "BR-DEC-19",
        "BT-117" => "BR-DEC-20",
        "BT-131" => "BR-DEC-23",
        _ => "BR-DEC",
    }
}

/// Text of the first element down `path` under `node`, owned.
pub fn text(node: Option<&Node>, path: &[&str]) -> Option<String> {
    node?.string_at(path)
}

/// BT-3: absent it is what the root element says (BR-04): `by_root`,
/// an invoice (380) but for a UBL `CreditNote` (381); a code that is no
/// number of UNTDID 1001 reads as that too, with its code-list finding.
pub fn type_code(t: &mut Terms, code: Option<String>, by_root: TypeCode) -> TypeCode {
    let what = |c: TypeCode| match c {
        TypeCode::CreditNote => "381, a credit note, as its root element says",
        _ => "380, an invoice",
    };
    match code {
        None => {
            t.find(
                "BR-04",
                format!(
                    "the invoice type code (BT-3) is missing; it is read as {}",
                    what(by_root)
                ),
            );
            by_root
        }
        Some(code) => match code.parse::<u16>() {
            Ok(n) if n > 0 && n < 1000 => TypeCode::of(n),
            _ => {
                t.find(
                    "BR-CL-01",
                    format!(
                        "the invoice type code {code:?} is not a code of UNTDID 1001; it is read as {}",
                        what(by_root)
                    ),
                );
                by_root
            }
        },
    }
}

/// BT-111: the VAT in the accounting currency.
pub fn accounting_tax(t: &mut Terms, node: &Node, currency: &str) -> Option<AccountingTax> {
    let exponent = Currency::parse("currency", currency).ok()?.exponent();
    let value = t.decimal(Some(node), "BT-111")?;
    Some(AccountingTax {
        currency: currency.to_string(),
        exponent,
        amount: value.round_to_minor(exponent)?,
    })
}

/// An identifier without its spaces, upper case (a VAT id, an IBAN).
pub fn compact(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_uppercase()
}
