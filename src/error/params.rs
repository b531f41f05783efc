//! The typed parameters of the messages (`said.rs`): the languages, an
//! amount in minor units, and the small sets a message names (what is
//! read, a JSON value's kind, what settles a document, whose particular).

/// The languages of the screens, the refusals and the documents. How each
/// is read and written (its notation, its tags, a browser's choice) is
/// `rules::locale`'s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    De,
    En,
}

/// An amount as a message carries it: minor units of a currency (its ISO
/// code); written in the reader's notation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sum {
    pub minor: i64,
    pub currency: String,
}

/// What is read: an amount of money, or a number (a quantity, a rate).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Figure {
    Amount,
    Number,
}

/// An amount kontor computes, as a refusal of one too large to book names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Computed {
    LineNet,
    TaxAmount,
    Interest,
    Converted,
}

/// What is wrong with a VAT id (`rules::vat_ids`): its state's format or
/// check, the state's prefix missing, GR written for Greece's EL, or a
/// prefix of no state whose ids are checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VatIdFault {
    Format,
    CheckDigit,
    NotPrefixed,
    GreekPrefix,
    Unchecked,
}

/// A JSON value's kind, as a refusal of a mistyped field names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Json {
    Null,
    Boolean,
    Number,
    WholeNumber,
    DecimalNumber,
    String,
    Array,
    ArrayOfStrings,
    Object,
}

/// What settles a document: a payment, a credit applied, or a difference
/// (discount, fee, write-off).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settling {
    Payment,
    CreditApplication,
    Settlement,
}

/// Whose particular a finding is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Party {
    Seller,
    Buyer,
}

/// A particular an invoice must carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Particular {
    Name,
    LegalName,
    Street,
    PostalCode,
    City,
    Country,
    VatIdOrTaxNumber,
    /// A contact's name, telephone and e-mail (XRechnung BR-DE-5 to 7).
    ContactName,
    ContactPhone,
    ContactEmail,
    /// The buyer's reference, the Leitweg-ID of a public buyer (BR-DE-15).
    Reference,
}
