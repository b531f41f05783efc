//! The documents of an invoice: one model of the EN 16931 terms an
//! invoice carries (`Document`), written as UN/CEFACT CII D16B (`cii`, also
//! with the XRechnung 3.0 guideline) and as UBL 2.1 for Peppol BIS Billing
//! 3.0 (`ubl`), read back from what suppliers send (`read`: CII, UBL and
//! the PDFs that carry them), and checked against the EN 16931 business
//! rules (`verdict`: what kontor writes before it is issued, and what a
//! receiver must rely on); and a reminder of an invoice (`reminder`),
//! written as a PDF like the invoice. The books build the model from a
//! frozen invoice or get it from a received file; nothing here reads
//! storage, the clock or a surface (it names only `rules` and `error`), so
//! the same document gives the same bytes.
//!
//! The bank's side comes in too: `statements` reads the statements a bank
//! sends (camt.05x, MT940, a ZIP of them) into typed records, as hostile
//! files, for the books to import.
//!
//! Beside them the files for the tax adviser and the tax audit: the DATEV
//! EXTF export (`datev`, handed over as a ZIP: `archive`) and the GoBD data
//! medium's CSV files and `index.xml` (`gobd`).
//!
//! Amounts are minor units of the document's currency (its ISO 4217
//! exponent), written with exactly that many decimals; prices, quantities
//! and rates are exact decimals. Terms are named by their EN 16931 ids
//! (BT-…, BG-…). Some terms only a received document carries (allowances
//! and charges, card and direct-debit particulars, attachments, contract
//! and project references, the payee): kontor's own invoices hold none of
//! them, and the writers leave them out.
//!
//! Here: the model (`Document`, parties, lines, the VAT breakdown, `Format`,
//! `Category`), and the tests' sample documents (`samples`).
//!
//! - `cii.rs`: UN/CEFACT CII D16B: `cii` (EN 16931) and `xrechnung` (the
//!   XRechnung 3.0 CIUS).
//! - `ubl.rs`: UBL 2.1 for Peppol BIS Billing 3.0 (`Invoice`, `CreditNote`).
//! - `verdict.rs`: the EN 16931 rules (mandatory terms, the BR-CO sums,
//!   allowances and charges, each VAT category's rules) that hold for what
//!   kontor writes and what it receives alike, and the rules of XRechnung
//!   and Peppol for kontor's own (Peppol's schemes in the data file
//!   `peppol_schemes.txt`); each finding names its rule id.
//! - `reminder.rs`: a reminder's letter as a model: the invoice's
//!   `Document`, the level, title and text, and what it claims.
//! - `euer.rs`: a cash-basis profit statement as the document a person
//!   hands over: the company, the year, the lines of the Anlage EÜR, the
//!   payments behind them.
//! - `xml.rs`: a small element writer over quick-xml.
//! - `gobd.rs`: the GoBD data medium: CSV files and their `index.xml` in the
//!   GDPdU description standard.
//! - `archive.rs`: a deterministic ZIP of named files.
//! - `pdf/`: the Factur-X PDF, a reminder's letter and a cash-basis
//!   profit statement.
//! - `read/`: reading what suppliers send.
//! - `statements/`: bank statements read.
//! - `datev/`: the DATEV EXTF files.

pub mod archive;
pub mod cii;
pub mod datev;
pub mod euer;
pub mod gobd;
pub mod pdf;
pub mod read;
pub mod reminder;
pub mod statements;
pub mod ubl;
pub mod verdict;
mod xml;

use jiff::civil::Date;

use crate::rules::creditor_reference::CreditorReference;
use crate::rules::money::{minor_text, Decimal};

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
                crate::error::said::Input::MissingOneOf {
                    values: Format::ALL.map(|f| f.as_str().to_string()).to_vec(),
                },
            )
        })?;
        Format::read(name).ok_or_else(|| {
            crate::error::Error::invalid(
                "format",
                crate::error::not_one_of(&Format::ALL.map(Format::as_str), name),
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

/// BT-3: what the document is (UNTDID 1001).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeCode {
    /// 380, a commercial invoice.
    Invoice,
    /// 381, a credit note (kontor's correction), amounts positive.
    CreditNote,
    /// Any other code a received document carries (384 corrected invoice,
    /// 389 self-billed invoice, 326 partial invoice, 875 partial
    /// construction invoice, 261 self-billed credit note, …); never 380 or
    /// 381.
    Other(u16),
}

impl TypeCode {
    /// The codes read as credit notes: their amounts are written positive
    /// and lower what is owed (381, 261, 262, 396, 532).
    pub const CREDITS: [u16; 5] = [381, 261, 262, 396, 532];

    /// The type of a code number.
    pub fn of(number: u16) -> TypeCode {
        match number {
            380 => TypeCode::Invoice,
            381 => TypeCode::CreditNote,
            n => TypeCode::Other(n),
        }
    }

    pub fn number(self) -> u16 {
        match self {
            TypeCode::Invoice => 380,
            TypeCode::CreditNote => 381,
            TypeCode::Other(n) => n,
        }
    }

    /// The code as documents write it ("380").
    pub fn code(self) -> String {
        self.number().to_string()
    }

    /// Whether the document credits the buyer rather than bills them.
    pub fn is_credit(self) -> bool {
        TypeCode::CREDITS.contains(&self.number())
    }
}

/// BT-151 / BT-118: a VAT category of UNTDID 5305 as EN 16931 uses it,
/// or, in a received document, a code outside that list kept as written.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
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
    /// Split payment (Italy): VAT charged, paid by the buyer to the state.
    /// Only read from received documents; kontor issues none.
    B,
    /// A code a received document writes that EN 16931's list (UNTDID
    /// 5305: S, Z, E, AE, K, G, O, L, M, and B) does not hold, kept as
    /// written; empty when the document gives none and its rate does not
    /// say which (see `read::terms`). No tax key follows from it: booking
    /// asks a person which category it is. Only read from received
    /// documents.
    Unlisted(String),
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

    /// Every category a received document may carry: `ALL` and B.
    pub const RECEIVED: [Category; 10] = [
        Category::S,
        Category::Z,
        Category::E,
        Category::AE,
        Category::K,
        Category::G,
        Category::O,
        Category::L,
        Category::M,
        Category::B,
    ];

    /// The code as documents write it; an unlisted one as it was written.
    pub fn code(&self) -> &str {
        match self {
            Category::Unlisted(code) => code,
            listed => listed.listed_code().unwrap_or_default(),
        }
    }

    /// The code of a category on EN 16931's list, as a text that lives as
    /// long as the program (the totals key their taxes by it); none for an
    /// unlisted one.
    pub fn listed_code(&self) -> Option<&'static str> {
        Some(match self {
            Category::S => "S",
            Category::Z => "Z",
            Category::E => "E",
            Category::AE => "AE",
            Category::K => "K",
            Category::G => "G",
            Category::O => "O",
            Category::L => "L",
            Category::M => "M",
            Category::B => "B",
            Category::Unlisted(_) => return None,
        })
    }

    /// Whether EN 16931's list holds the category (it is no `Unlisted`).
    pub fn is_listed(&self) -> bool {
        !matches!(self, Category::Unlisted(_))
    }

    /// A category kontor issues (`ALL`).
    pub fn read(text: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.code() == text)
    }

    /// A category a received document may carry (`RECEIVED`).
    pub fn read_received(text: &str) -> Option<Category> {
        Category::RECEIVED.into_iter().find(|c| c.code() == text)
    }

    /// The category a person names (a draft's line, a received bill's
    /// booking), in either letter case: one of `ALL`.
    ///
    /// Fails with `Invalid` naming `field` for anything else.
    pub fn named(field: &str, text: &str) -> crate::error::Result<Category> {
        let code = text.trim();
        Category::read(&code.to_ascii_uppercase()).ok_or_else(|| {
            crate::error::Error::invalid(
                field,
                crate::error::said::Input::NotVatCategory {
                    got: code.to_string(),
                },
            )
        })
    }

    /// Whether the category can carry `rate` (BR-S-05…07, BR-Z-05…07,
    /// BR-E-05…07, BR-AE-05…07, BR-IC-05…07, BR-G-05…07, BR-O-05…07,
    /// BR-AF-05…07, BR-AG-05…07): S a rate above 0, L and M none below 0,
    /// every other listed category 0; B and an unlisted one any.
    pub fn fits(&self, rate: &Decimal) -> bool {
        match self {
            Category::B | Category::Unlisted(_) => true,
            Category::S => !rate.is_zero() && !rate.is_negative(),
            Category::L | Category::M => !rate.is_negative(),
            _ => rate.is_zero(),
        }
    }

    /// Whether the category charges no VAT: its rate is 0.
    pub fn zero_rated(&self) -> bool {
        matches!(
            self,
            Category::Z | Category::E | Category::AE | Category::K | Category::G | Category::O
        )
    }

    /// Whether the breakdown must say why nothing is charged (BT-120/121):
    /// E, AE, K, G and O; Z must not (BR-Z-10).
    pub fn needs_reason(&self) -> bool {
        matches!(
            self,
            Category::E | Category::AE | Category::K | Category::G | Category::O
        )
    }
}

/// A postal address (BG-5 / BG-8 / BG-15).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Address {
    /// BT-35: the first address line.
    pub street: Option<String>,
    /// BT-36: the second address line.
    pub additional: Option<String>,
    /// BT-162: the third address line.
    pub line_three: Option<String>,
    pub postal_code: Option<String>,
    pub city: Option<String>,
    /// BT-39: the country subdivision.
    pub subdivision: Option<String>,
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
    pub fn is_empty(&self) -> bool {
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
    /// BT-28 / BT-45: the name the party trades under, when another.
    pub trading_name: Option<String>,
    /// BT-29 / BT-46: an identifier of the party (a GLN, a customer
    /// number), without its scheme.
    pub identifier: Option<String>,
    pub address: Address,
    /// BT-31 / BT-48, compact, with its country prefix.
    pub vat_id: Option<String>,
    /// BT-32: the seller's tax registration (German Steuernummer).
    pub tax_number: Option<String>,
    /// BT-30 / BT-47: the legal registration ("HRB 12345").
    pub registration: Option<String>,
    /// BT-33: further legal information (court, managing directors).
    pub legal_info: Option<String>,
    pub electronic_address: Option<ElectronicAddress>,
    pub contact: Contact,
}

impl Party {
    /// The name a person knows the party by: its legal name (BT-27,
    /// BT-44), else the trading name (BT-28, BT-45) a received document
    /// gives without it; empty when it gives neither.
    pub fn known_as(&self) -> &str {
        match (self.name.trim(), &self.trading_name) {
            ("", Some(trading)) => trading,
            _ => &self.name,
        }
    }
}

/// BG-11: the seller's tax representative, who accounts for the seller's
/// VAT in the buyer's country (only a received document names one).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TaxRepresentative {
    /// BT-62.
    pub name: String,
    /// BT-63, compact, with its country prefix.
    pub vat_id: Option<String>,
    /// BG-12; none when the document gives no address.
    pub address: Option<Address>,
}

/// BG-16/BG-17: how the buyer pays, by credit transfer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transfer {
    /// BT-84: the IBAN (or another account identifier a received document
    /// names).
    pub iban: String,
    /// BT-86.
    pub bic: Option<String>,
    /// BT-85.
    pub account_holder: Option<String>,
}

/// BT-81/BT-82: the payment means as a document codes it (UNTDID 4461: 58
/// SEPA credit transfer, 59 SEPA direct debit, 30 credit transfer, 48 card,
/// 1 not defined, …).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentMeans {
    pub code: String,
    pub text: Option<String>,
}

/// BG-18: the card a received document says is charged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Card {
    /// BT-87: the card's last digits as written.
    pub number: String,
    /// BT-88.
    pub holder: Option<String>,
}

/// BG-19: the direct debit a received document announces.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DirectDebit {
    /// BT-89.
    pub mandate: Option<String>,
    /// BT-90: the creditor identifier.
    pub creditor_id: Option<String>,
    /// BT-91: the account debited.
    pub account: Option<String>,
}

/// BG-14 / BG-26: a period, one end or both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Period {
    /// BT-73 / BT-134.
    pub from: Option<Date>,
    /// BT-74 / BT-135.
    pub to: Option<Date>,
}

/// An allowance (less) or a charge (more): on the document (BG-20/BG-21)
/// or on a line (BG-27/BG-28).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllowanceCharge {
    /// A charge adds, an allowance takes off.
    pub charge: bool,
    /// BT-92 / BT-99 / BT-136 / BT-141, positive as written.
    pub amount: i64,
    /// BT-93 / BT-100 / BT-137 / BT-142.
    pub base: Option<i64>,
    /// BT-94 / BT-101 / BT-138 / BT-143.
    pub percent: Option<Decimal>,
    /// BT-97 / BT-104 / BT-139 / BT-144.
    pub reason: Option<String>,
    /// BT-98 / BT-105 / BT-140 / BT-145.
    pub reason_code: Option<String>,
    /// BT-95/BT-96 / BT-102/BT-103: the VAT of a document-level one; none
    /// on a line (the line's own VAT applies).
    pub vat: Option<(Category, Decimal)>,
}

/// BG-24: a document that supports the invoice, by reference or embedded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    /// BT-122.
    pub id: String,
    /// BT-123.
    pub description: Option<String>,
    /// BT-124: where it lies outside the invoice.
    pub uri: Option<String>,
    /// BT-125: the embedded file.
    pub file: Option<EmbeddedFile>,
}

/// An embedded binary object (BT-125 with its mime code and file name).
#[derive(Clone, PartialEq, Eq)]
pub struct EmbeddedFile {
    pub name: String,
    pub mime: String,
    pub bytes: Vec<u8>,
}

impl std::fmt::Debug for EmbeddedFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} ({}, {} bytes)",
            self.name,
            self.mime,
            self.bytes.len()
        )
    }
}

/// One invoice line (BG-25).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// BT-126: the line's identifier (kontor numbers its own 1, 2, …).
    pub id: String,
    /// BT-153.
    pub name: String,
    /// BT-154.
    pub description: Option<String>,
    /// BT-127.
    pub note: Option<String>,
    /// BT-155: the seller's item identifier.
    pub seller_item_id: Option<String>,
    /// BT-132: the line of the buyer's order.
    pub order_line: Option<String>,
    /// BT-129, exact.
    pub quantity: Decimal,
    /// BT-130, UN/ECE Rec 20.
    pub unit: String,
    /// BT-146, net price per `base_quantity` units, in units of the
    /// currency (received prices may have more decimals than the currency).
    pub price: Decimal,
    /// BT-148: the gross price before the price discount.
    pub gross_price: Option<Decimal>,
    /// BT-149: how many units the price is for (one when absent).
    pub base_quantity: Option<Decimal>,
    /// BG-27/BG-28.
    pub allowances: Vec<AllowanceCharge>,
    /// BG-26.
    pub period: Option<Period>,
    /// BT-131, the line's net after its allowances and charges, minor units.
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
    /// BT-25.
    pub number: String,
    /// BT-26.
    pub issued_on: Option<Date>,
}

/// A note (BG-1) with its UNTDID 4451 subject code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    pub subject: Option<String>,
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
    /// BT-24 as received; the writers write their guideline's own.
    pub specification: Option<String>,
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
    /// BT-12.
    pub contract_reference: Option<String>,
    /// BT-11.
    pub project_reference: Option<String>,
    pub preceding: Option<Preceding>,
    /// BT-72.
    pub delivered_on: Option<Date>,
    /// BG-15: where the goods or services went (written for an
    /// intra-community supply, BR-IC-12).
    pub deliver_to: Option<Address>,
    /// BG-14.
    pub period: Option<Period>,
    pub notes: Vec<Note>,
    pub seller: Party,
    pub buyer: Party,
    /// BG-11: the seller's tax representative; kontor's own documents name
    /// none, and the writers leave it out.
    pub tax_representative: Option<TaxRepresentative>,
    /// BT-59: who is paid, when not the seller.
    pub payee: Option<String>,
    /// BT-81/BT-82; none: the writers write 58 with an account, else 1.
    pub payment_means: Option<PaymentMeans>,
    /// BT-83: the reference the payer gives with the payment. kontor's own
    /// invoices ask for their ISO 11649 creditor reference (`RF…`) when they
    /// were issued with one, else for their number; a credit note asks for
    /// none.
    pub payment_reference: Option<String>,
    /// BG-16 by credit transfer.
    pub transfer: Option<Transfer>,
    pub card: Option<Card>,
    pub direct_debit: Option<DirectDebit>,
    pub lines: Vec<Line>,
    /// BG-20/BG-21.
    pub allowances: Vec<AllowanceCharge>,
    pub breakdown: Vec<Breakdown>,
    /// BG-24.
    pub attachments: Vec<Attachment>,
    /// BT-106: the sum of the lines' nets.
    pub line_total: i64,
    /// BT-107.
    pub allowance_total: i64,
    /// BT-108.
    pub charge_total: i64,
    /// BT-109 = BT-106 − BT-107 + BT-108.
    pub net: i64,
    /// BT-110.
    pub tax: i64,
    /// BT-112.
    pub gross: i64,
    /// BT-113.
    pub paid: i64,
    /// BT-114.
    pub rounding: i64,
    /// BT-115 = BT-112 − BT-113 + BT-114.
    pub due: i64,
}

impl Document {
    /// The VAT categories outside EN 16931's list its lines and VAT
    /// breakdown carry, each once, as written (empty for one the document
    /// does not give): none has a tax key until a person says which
    /// category it is.
    pub fn unlisted_categories(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        let all = self
            .lines
            .iter()
            .map(|l| &l.category)
            .chain(self.breakdown.iter().map(|b| &b.category));
        for category in all.filter(|c| !c.is_listed()) {
            if !out.contains(&category.code()) {
                out.push(category.code());
            }
        }
        out
    }

    /// What the payer is asked to give with a transfer: BT-83, else the
    /// number.
    pub fn remittance(&self) -> &str {
        self.payment_reference.as_deref().unwrap_or(&self.number)
    }

    /// BT-83 when it is an ISO 11649 creditor reference (`RF…`), which the
    /// EPC QR code carries as structured remittance.
    pub fn creditor_reference(&self) -> Option<&str> {
        self.payment_reference
            .as_deref()
            .filter(|r| CreditorReference::parse("paymentReference", r).is_ok())
    }

    /// `minor` units of the document's currency as a decimal text with the
    /// currency's number of decimals ("1570.80", JPY "1570").
    pub fn amount(&self, minor: i64) -> String {
        minor_text(minor, self.exponent, '.')
    }

    /// A price as documents write it: with at least the currency's number
    /// of decimals ("12.00", "0.00101").
    pub fn price(&self, price: &Decimal) -> String {
        match price.to_minor(self.exponent) {
            Some(minor) => self.amount(minor),
            None => price.to_string(),
        }
    }
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
        assert_eq!(minor_text(157080, 2, '.'), "1570.80");
        assert_eq!(minor_text(5, 2, '.'), "0.05");
        assert_eq!(minor_text(-5, 2, '.'), "-0.05");
        assert_eq!(minor_text(1570, 0, '.'), "1570");
        assert_eq!(minor_text(1_570_125, 3, '.'), "1570.125");
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
        let line = |id: &str, name: &str, q: &str, price: i64, net: i64, rate: &str| Line {
            id: id.into(),
            name: name.into(),
            description: None,
            note: None,
            seller_item_id: None,
            order_line: None,
            quantity: d(q),
            unit: "C62".into(),
            price: Decimal::from_minor(price, 2),
            gross_price: None,
            base_quantity: None,
            allowances: Vec::new(),
            period: None,
            net,
            category: Category::S,
            rate: d(rate),
        };
        Document {
            type_code: TypeCode::Invoice,
            number: "RE-2026-0001".into(),
            issued_on: Date::constant(2026, 11, 23),
            specification: None,
            currency: "EUR".into(),
            exponent: 2,
            accounting_tax: None,
            due_on: Some(Date::constant(2026, 12, 7)),
            payment_terms: Some("Zahlbar bis 07.12.2026 ohne Abzug.".into()),
            buyer_reference: Some("04011000-12345-34".into()),
            order_reference: Some("PO-1".into()),
            contract_reference: None,
            project_reference: None,
            preceding: None,
            delivered_on: Some(Date::constant(2026, 11, 20)),
            deliver_to: None,
            period: None,
            notes: vec![Note {
                subject: Some("REG".into()),
                text: "Nordlicht GmbH, HRB 1, Amtsgericht Hamburg".into(),
            }],
            seller: Party {
                name: "Nordlicht GmbH".into(),
                trading_name: None,
                identifier: None,
                address: Address {
                    street: Some("Hafenstraße 1".into()),
                    postal_code: Some("20457".into()),
                    city: Some("Hamburg".into()),
                    country: "DE".into(),
                    ..Address::default()
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
                    ..Address::default()
                },
                vat_id: None,
                electronic_address: Some(ElectronicAddress {
                    scheme: "0088".into(),
                    value: "4000001000005".into(),
                }),
                ..Party::default()
            },
            tax_representative: None,
            payee: None,
            payment_means: None,
            payment_reference: Some("RE-2026-0001".into()),
            transfer: Some(Transfer {
                iban: "DE02120300000000202051".into(),
                bic: Some("BYLADEM1001".into()),
                account_holder: Some("Nordlicht GmbH".into()),
            }),
            card: None,
            direct_debit: None,
            lines: vec![
                line("1", "Beratung", "10", 12000, 120000, "19"),
                line("2", "Buch", "2.5", 1999, 4998, "7"),
                line("3", "Kabel", "0.125", 1000, 125, "19"),
            ],
            allowances: Vec::new(),
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
            attachments: Vec::new(),
            line_total: 125123,
            allowance_total: 0,
            charge_total: 0,
            net: 125123,
            tax: 23174,
            gross: 148297,
            paid: 0,
            rounding: 0,
            due: 148297,
        }
    }
}
