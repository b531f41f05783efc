//! The documents of an issued invoice: one model of the EN 16931 terms an
//! invoice carries (`Document`), written as UN/CEFACT CII D16B (`cii`, also
//! with the XRechnung 3.0 guideline) and as UBL 2.1 for Peppol BIS Billing
//! 3.0 (`ubl`), and checked against the business rules that concern what
//! kontor writes (`verdict`). The books build the model from a frozen
//! invoice; nothing here reads storage or knows a surface. Beside them
//! the files for the tax adviser and the tax audit: the DATEV EXTF export
//! (`datev`, handed over as a ZIP: `archive`) and the GoBD data medium's
//! CSV files and `index.xml` (`gobd`).
//!
//! Amounts are minor units of the document's currency (its ISO 4217
//! exponent), written with exactly that many decimals; quantities and rates
//! are exact decimals. Terms are named by their EN 16931 ids (BT-…, BG-…).

pub mod archive;
pub mod cii;
pub mod datev;
pub mod gobd;
pub mod pdf;
pub mod ubl;
pub mod verdict;
mod xml;

use jiff::civil::Date;

use crate::rules::money::Decimal;

/// The formats kontor writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Format {
    /// The PDF/A-3 a person reads, with `Cii` embedded.
    FacturX,
    /// CII D16B, EN 16931.
    Cii,
    /// CII D16B with the XRechnung 3.0 CIUS.
    XRechnung,
    /// UBL 2.1, Peppol BIS Billing 3.0.
    Peppol,
}

impl Format {
    pub const ALL: [Format; 4] = [
        Format::FacturX,
        Format::Cii,
        Format::XRechnung,
        Format::Peppol,
    ];

    /// The name used on the wire, in the console and in storage.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::FacturX => "facturx",
            Format::Cii => "cii",
            Format::XRechnung => "xrechnung",
            Format::Peppol => "peppol",
        }
    }

    /// Reads a format name; `None` for anything else.
    pub fn read(text: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.as_str() == text)
    }

    /// The format a caller asks for by name, the one reading of every
    /// surface (the document route, `invoice document`).
    ///
    /// Fails with `Invalid` naming `format` when it is missing or not one of
    /// the four names (lower case, as the API documents them).
    pub fn named(text: Option<&str>) -> crate::error::Result<Format> {
        let name = text.ok_or_else(|| {
            crate::error::Error::invalid(
                "format",
                "is missing; give facturx, cii, xrechnung or peppol",
            )
        })?;
        Format::read(name).ok_or_else(|| {
            crate::error::Error::invalid(
                "format",
                format!("is facturx, cii, xrechnung or peppol, not {name:?}"),
            )
        })
    }

    pub fn media_type(self) -> &'static str {
        match self {
            Format::FacturX => "application/pdf",
            _ => "application/xml",
        }
    }

    /// The file name's ending.
    pub fn extension(self) -> &'static str {
        match self {
            Format::FacturX => "pdf",
            Format::Cii => "cii.xml",
            Format::XRechnung => "xrechnung.xml",
            Format::Peppol => "peppol.xml",
        }
    }
}

/// BT-3: what the document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeCode {
    /// 380, a commercial invoice.
    Invoice,
    /// 381, a credit note (kontor's correction), amounts positive.
    CreditNote,
}

impl TypeCode {
    pub fn code(self) -> &'static str {
        match self {
            TypeCode::Invoice => "380",
            TypeCode::CreditNote => "381",
        }
    }
}

/// BT-151 / BT-118: a VAT category of UNTDID 5305 as EN 16931 uses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    /// Standard rate.
    S,
    /// Zero rated goods.
    Z,
    /// Exempt from tax.
    E,
    /// VAT reverse charge.
    AE,
    /// Intra-community supply (VAT exempt for EEA intra-community supply).
    K,
    /// Free export item, tax not charged.
    G,
    /// Services outside scope of tax.
    O,
    /// Canary Islands general indirect tax (IGIC).
    L,
    /// Tax for production, services and importation in Ceuta and Melilla (IPSI).
    M,
}

impl Category {
    pub const ALL: [Category; 9] = [
        Category::S,
        Category::Z,
        Category::E,
        Category::AE,
        Category::K,
        Category::G,
        Category::O,
        Category::L,
        Category::M,
    ];

    pub fn code(self) -> &'static str {
        match self {
            Category::S => "S",
            Category::Z => "Z",
            Category::E => "E",
            Category::AE => "AE",
            Category::K => "K",
            Category::G => "G",
            Category::O => "O",
            Category::L => "L",
            Category::M => "M",
        }
    }

    pub fn read(text: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.code() == text)
    }

    /// Whether the category charges no VAT: its rate is 0.
    pub fn zero_rated(self) -> bool {
        matches!(
            self,
            Category::Z | Category::E | Category::AE | Category::K | Category::G | Category::O
        )
    }

    /// Whether the breakdown must say why nothing is charged (BT-120/121):
    /// E, AE, K, G and O; Z must not (BR-Z-10).
    pub fn needs_reason(self) -> bool {
        matches!(
            self,
            Category::E | Category::AE | Category::K | Category::G | Category::O
        )
    }

    /// The EN 16931 rule family of the category (BR-S, BR-IC, …), for verdicts.
    pub fn rules(self) -> &'static str {
        match self {
            Category::S => "BR-S",
            Category::Z => "BR-Z",
            Category::E => "BR-E",
            Category::AE => "BR-AE",
            Category::K => "BR-IC",
            Category::G => "BR-G",
            Category::O => "BR-O",
            Category::L => "BR-AF",
            Category::M => "BR-AG",
        }
    }
}

/// A postal address (BG-5 / BG-8).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Address {
    pub street: Option<String>,
    pub postal_code: Option<String>,
    pub city: Option<String>,
    /// ISO 3166-1 alpha-2.
    pub country: String,
}

/// A contact (BG-6 / BG-9).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Contact {
    pub name: Option<String>,
    pub phone: Option<String>,
    pub email: Option<String>,
}

impl Contact {
    fn is_empty(&self) -> bool {
        self.name.is_none() && self.phone.is_none() && self.email.is_none()
    }
}

/// An electronic address (BT-34 / BT-49) with its EAS scheme.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ElectronicAddress {
    pub scheme: String,
    pub value: String,
}

/// The seller or the buyer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Party {
    /// BT-27 / BT-44: the registered (legal) name.
    pub name: String,
    pub address: Address,
    /// BT-31 / BT-48, compact, with its country prefix.
    pub vat_id: Option<String>,
    /// BT-32: the seller's tax registration (German Steuernummer).
    pub tax_number: Option<String>,
    /// BT-30: the seller's legal registration ("HRB 12345").
    pub registration: Option<String>,
    /// BT-33: further legal information (court, managing directors).
    pub legal_info: Option<String>,
    pub electronic_address: Option<ElectronicAddress>,
    pub contact: Contact,
}

/// BG-16/BG-17: how the buyer pays, by SEPA credit transfer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transfer {
    pub iban: String,
    pub bic: Option<String>,
    pub account_holder: Option<String>,
}

/// One invoice line (BG-25).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// BT-153.
    pub name: String,
    /// BT-129, exact.
    pub quantity: Decimal,
    /// BT-130, UN/ECE Rec 20.
    pub unit: String,
    /// BT-146, net price per unit, minor units.
    pub price: i64,
    /// BT-131, quantity × price rounded, minor units.
    pub net: i64,
    pub category: Category,
    /// BT-152.
    pub rate: Decimal,
}

/// One entry of the VAT breakdown (BG-23).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Breakdown {
    pub category: Category,
    pub rate: Decimal,
    /// BT-116.
    pub base: i64,
    /// BT-117.
    pub amount: i64,
    /// BT-120.
    pub reason: Option<String>,
    /// BT-121, a VATEX code.
    pub reason_code: Option<String>,
}

/// BT-6 / BT-111: the VAT total in the seller country's accounting currency,
/// when the document is in another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountingTax {
    pub currency: String,
    pub exponent: u8,
    pub amount: i64,
}

/// A preceding invoice (BG-3) a credit note corrects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preceding {
    pub number: String,
    pub issued_on: Date,
}

/// A note (BG-1) with its UNTDID 4451 subject code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    pub subject: Option<&'static str>,
    pub text: String,
}

/// Everything a document of an invoice carries, with amounts as the
/// document shows them (a credit note's positive).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    pub type_code: TypeCode,
    /// BT-1.
    pub number: String,
    /// BT-2.
    pub issued_on: Date,
    /// BT-5.
    pub currency: String,
    /// The currency's ISO 4217 exponent.
    pub exponent: u8,
    pub accounting_tax: Option<AccountingTax>,
    /// BT-9.
    pub due_on: Option<Date>,
    /// BT-20.
    pub payment_terms: Option<String>,
    /// BT-10.
    pub buyer_reference: Option<String>,
    /// BT-13.
    pub order_reference: Option<String>,
    pub preceding: Option<Preceding>,
    /// BT-72.
    pub delivered_on: Option<Date>,
    /// BG-15: where the goods or services went (written for an
    /// intra-community supply, BR-IC-12).
    pub deliver_to: Option<Address>,
    /// BG-14: BT-73, BT-74.
    pub period: Option<(Date, Date)>,
    pub notes: Vec<Note>,
    pub seller: Party,
    pub buyer: Party,
    /// BG-16 by credit transfer; none: payment means "not defined" (1).
    pub transfer: Option<Transfer>,
    pub lines: Vec<Line>,
    pub breakdown: Vec<Breakdown>,
    /// BT-106 = BT-109.
    pub net: i64,
    /// BT-110.
    pub tax: i64,
    /// BT-112.
    pub gross: i64,
    /// BT-113.
    pub paid: i64,
    /// BT-115 = BT-112 − BT-113.
    pub due: i64,
}

impl Document {
    /// `minor` units of the document's currency as a decimal text with the
    /// currency's number of decimals ("1570.80", JPY "1570").
    pub fn amount(&self, minor: i64) -> String {
        amount_text(minor, self.exponent)
    }
}

/// `minor` units as a decimal text with `exponent` decimals.
pub fn amount_text(minor: i64, exponent: u8) -> String {
    let sign = if minor < 0 { "-" } else { "" };
    let abs = minor.unsigned_abs();
    if exponent == 0 {
        return format!("{sign}{abs}");
    }
    let pow = 10u64.pow(exponent as u32);
    format!(
        "{sign}{}.{:0width$}",
        abs / pow,
        abs % pow,
        width = exponent as usize
    )
}

/// A date as `YYYYMMDD` (CII format 102).
fn date_102(date: Date) -> String {
    format!("{:04}{:02}{:02}", date.year(), date.month(), date.day())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_carry_their_currencys_decimals() {
        assert_eq!(amount_text(157080, 2), "1570.80");
        assert_eq!(amount_text(5, 2), "0.05");
        assert_eq!(amount_text(-5, 2), "-0.05");
        assert_eq!(amount_text(1570, 0), "1570");
        assert_eq!(amount_text(1_570_125, 3), "1570.125");
        assert_eq!(date_102(Date::constant(2026, 1, 5)), "20260105");
    }
}

#[cfg(test)]
pub(crate) mod samples {
    use super::*;

    fn d(s: &str) -> Decimal {
        Decimal::parse("x", s).unwrap()
    }

    /// A 19 % + 7 % invoice of a German seller with every particular.
    pub fn mixed() -> Document {
        let line = |name: &str, q: &str, price: i64, net: i64, rate: &str| Line {
            name: name.into(),
            quantity: d(q),
            unit: "C62".into(),
            price,
            net,
            category: Category::S,
            rate: d(rate),
        };
        Document {
            type_code: TypeCode::Invoice,
            number: "RE-2026-0001".into(),
            issued_on: Date::constant(2026, 11, 23),
            currency: "EUR".into(),
            exponent: 2,
            accounting_tax: None,
            due_on: Some(Date::constant(2026, 12, 7)),
            payment_terms: Some("Zahlbar bis 07.12.2026 ohne Abzug.".into()),
            buyer_reference: Some("04011000-12345-34".into()),
            order_reference: Some("PO-1".into()),
            preceding: None,
            delivered_on: Some(Date::constant(2026, 11, 20)),
            deliver_to: None,
            period: None,
            notes: vec![Note {
                subject: Some("REG"),
                text: "Nordlicht GmbH, HRB 1, Amtsgericht Hamburg".into(),
            }],
            seller: Party {
                name: "Nordlicht GmbH".into(),
                address: Address {
                    street: Some("Hafenstraße 1".into()),
                    postal_code: Some("20457".into()),
                    city: Some("Hamburg".into()),
                    country: "DE".into(),
                },
                vat_id: Some("DE136695976".into()),
                tax_number: Some("22/815/08154".into()),
                registration: Some("HRB 12345".into()),
                legal_info: Some("Amtsgericht Hamburg; Geschäftsführer: A. B.".into()),
                electronic_address: Some(ElectronicAddress {
                    scheme: "9930".into(),
                    value: "DE136695976".into(),
                }),
                contact: Contact {
                    name: Some("A. B.".into()),
                    phone: Some("+49 40 123456".into()),
                    email: Some("a@nordlicht.example".into()),
                },
            },
            buyer: Party {
                name: "Kunde & Co KG".into(),
                address: Address {
                    street: Some("Markt 1".into()),
                    postal_code: Some("28195".into()),
                    city: Some("Bremen".into()),
                    country: "DE".into(),
                },
                vat_id: None,
                electronic_address: Some(ElectronicAddress {
                    scheme: "0088".into(),
                    value: "4000001000005".into(),
                }),
                ..Party::default()
            },
            transfer: Some(Transfer {
                iban: "DE02120300000000202051".into(),
                bic: Some("BYLADEM1001".into()),
                account_holder: Some("Nordlicht GmbH".into()),
            }),
            lines: vec![
                line("Beratung", "10", 12000, 120000, "19"),
                line("Buch", "2.5", 1999, 4998, "7"),
                line("Kabel", "0.125", 1000, 125, "19"),
            ],
            breakdown: vec![
                Breakdown {
                    category: Category::S,
                    rate: d("19"),
                    base: 120125,
                    amount: 22824,
                    reason: None,
                    reason_code: None,
                },
                Breakdown {
                    category: Category::S,
                    rate: d("7"),
                    base: 4998,
                    amount: 350,
                    reason: None,
                    reason_code: None,
                },
            ],
            net: 125123,
            tax: 23174,
            gross: 148297,
            paid: 0,
            due: 148297,
        }
    }
}
