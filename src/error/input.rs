//! What was typed or sent (`Input`), a request as the surfaces read it
//! (`Request`), and the identifiers and codes a field holds (`Code`).

use jiff::civil::Date;

use super::params::{Computed, Figure, Json, Lang, VatIdFault};

/// What is wrong with a field as typed or sent; each is a predicate on the
/// field ("is missing"), or, without a field, on the whole input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// Absent or blank where a value is needed.
    Missing,
    /// Given, but blank.
    Empty,
    /// Longer than `max` characters.
    TooLong { max: usize },
    /// Holds a control character other than a line feed or a tab.
    ControlCharacter,
    /// Not shaped like an e-mail address.
    NotEmail,
    /// Not a date `YYYY-MM-DD`.
    NotDate,
    /// A date outside the years kontor keeps.
    DateOutOfRange { from: i16, to: i16 },
    /// Not an ISO 8601 instant.
    NotInstant,
    /// Not one of `values`; `got` as sent.
    NotOneOf { values: Vec<String>, got: String },
    /// Not an ISO 4217 currency code.
    NotCurrency { got: String },
    /// Not a decimal number as a program writes it (`19`, `5.5`).
    NotDecimal { got: String },
    /// More fraction digits than `places`.
    TooManyPlaces { places: u32 },
    /// A number too large to keep.
    TooLarge,
    /// An amount larger than any book holds.
    AmountTooLarge,
    /// Typed in the other notation: `notation`'s separators read it
    /// otherwise (`12.50` in German); `example` as it is written.
    OtherNotation {
        figure: Figure,
        notation: Lang,
        example: String,
    },
    /// A character that is neither a digit nor a separator.
    NotAFigureChar {
        figure: Figure,
        bad: char,
        example: String,
    },
    /// The decimal separator more than once, or before a thousands separator.
    DecimalSeparatorTwice {
        figure: Figure,
        separator: char,
        example: String,
    },
    /// No digits before the decimal separator.
    NotAFigure { figure: Figure, example: String },
    /// A decimal separator with nothing after it.
    EndsWithSeparator { example: String },
    /// `1,234` for a currency with three decimals: thousands or decimals.
    TwoReadings { separator: char, example: String },
    /// Decimals for a currency without a minor unit.
    NoMinorUnit { currency: String },
    /// More decimals than the currency has.
    MoreDecimalsThanCurrency {
        places: usize,
        currency: String,
        has: u8,
    },
    /// A time zone the database does not know.
    NotTimeZone { got: String },
    /// Not a percentage from 0 to 100.
    NotPercentage,
    /// Below zero.
    Negative,
    /// A period's first day after its last (`from` after `to`).
    AfterTo { from: Date, to: Date },
    /// A first day after the day a balance is drawn up.
    AfterAsOf { from: Date, as_of: Date },
    /// Not a whole number of days.
    WholeDays,
    /// Not a whole number in a range.
    NumberRange { from: u32, to: u32, got: String },
    /// Not a month or a quarter (`2026-10`, `2026-Q4`).
    NotVatPeriod { got: String },
    /// Larger than so many KiB.
    LargerThanKib { kib: usize },
    /// Not a host name or address.
    NotHost { got: String },
    /// The repetition of a password differs from it.
    PasswordsDiffer,
    /// Not a whole number.
    NotWholeNumber { got: String },
    /// Not a year.
    NotYear { got: String },
    /// Missing: one of `values` is to be given.
    MissingOneOf { values: Vec<String> },
    /// Not a VAT category (UNTDID 5305, as EN 16931 lists them).
    NotVatCategory { got: String },
    /// A year outside 1900 to 9998.
    YearRange { got: String },
    /// No statement file chosen.
    NoStatementFile,
    /// No e-invoice chosen.
    NoEinvoiceFile,
    /// No file of the bill chosen.
    NoReceiptFile,
    /// Not a number of five digits.
    FiveDigits,
    /// A period needs its first and its last day.
    PeriodDayMissing,
}

/// A request's body, query and form as the surfaces read them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// The body is no JSON object.
    BodyNotObject,
    /// The body is not JSON.
    NotJson { why: String },
    /// A field of another kind than wanted.
    Mistyped { wanted: Json, got: Json },
    /// The body is a JSON value other than an object.
    BodyIs { got: Json },
    /// Fields the address does not take.
    UnknownFields { names: Vec<String> },
    /// A query with a broken escape.
    QueryEscape,
    /// A query parameter that is not true or false.
    NotBool { name: String },
    /// A query parameter that is not a whole number.
    NotWhole { name: String },
    /// A form that cannot be read.
    FormUnreadable,
    /// An upload that cannot be read, and why.
    UploadUnreadable { why: String },
}

/// Identifiers and codes a field holds, and a tax's rate and reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Code {
    NotIban,
    IbanCountry {
        got: String,
    },
    IbanLength {
        length: usize,
        country: String,
        wanted: usize,
    },
    IbanCheck,
    NotBic,
    BicCountry {
        got: String,
    },
    NotElectronicAddress,
    EasScheme {
        got: String,
    },
    WhiteSpace,
    EmNotEmail {
        got: String,
    },
    NotGln {
        got: String,
    },
    NotCreditorReference,
    CreditorReferenceCheck,
    NotCountry {
        got: String,
    },
    NotDayOfYear {
        got: String,
    },
    UnknownPlaceholder {
        got: String,
        known: Vec<String>,
    },
    /// A `}` without its `{`.
    LoneClose,
    /// A `{` that is not closed.
    Unclosed,
    /// A reason for a tax that is charged.
    ReasonWithCharge {
        tax: Option<String>,
        rate: String,
    },
    /// A tax at 0 % without its reason.
    ReasonNeeded {
        tax: Option<String>,
    },
    /// A VAT id that fails its state's rule (`rules::vat_ids` words it).
    VatId {
        compact: String,
        prefix: String,
        fault: VatIdFault,
    },
    /// A total too large to be booked.
    TooLargeToBook {
        what: Computed,
    },
    /// A document's total too large to be booked.
    TotalTooLarge,
    /// A rate other than 1 in the book currency.
    RateNotOne {
        book: String,
        got: String,
    },
    /// A rate needed for another currency than the books'.
    RateNeeded {
        currency: String,
        book: String,
    },
    /// A rate of zero or less.
    RateNotPositive,
}
