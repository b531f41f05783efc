//! What a refusal says, as a value: which message of the catalogue and its
//! parameters (`Said`), never its words. The words, in German and in
//! English, are the catalogue's (`src/rules/catalogue/`), which renders a
//! `Said` for a reader: in the reader's language, amounts and dates in its
//! notation, and pointing to what the reader's surface offers (a screen
//! names the screen that does what it asks, the console its command).
//!
//! A message is a variant of one part's enum (`Input` for what was typed
//! or sent, …); its fields are its parameters, typed: an amount is a `Sum`
//! in minor units, a day a `Date`. A sentence not yet in the catalogue is
//! `Said::English`, which every surface shows as it is; the catalogue's
//! test lists where they are made.

use jiff::civil::Date;

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

/// What a message says, by part, or a sentence in English alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Said {
    /// Reading what a person typed or a program sent.
    Input(Input),
    /// Payments, credits and settlements of invoices and bills.
    Settle(Settle),
    /// The company, its particulars, its workflow and its customers.
    Company(Company),
    /// The jobs (transactions) and their notes.
    Job(Job),
    /// Drafts of invoices and quotes, and their lines.
    Draft(Draft),
    /// Bills and supplier credits recorded.
    Bill(Bill),
    /// Bank accounts, statements and their lines.
    Bank(Bank),
    /// The exports for the tax adviser.
    Export(Export),
    /// People, their sign-in, links and second factors.
    Access(Access),
    /// A record that was looked for, by its kind and how the asker named it.
    Record(Record, String),
    /// A record within another (`Line 3 of draft D1`): its kind and name,
    /// the other's kind and name.
    RecordOf(Record, String, Record, String),
    /// A sentence that is not yet in the catalogue: English on every surface.
    English(String),
}

impl From<Input> for Said {
    fn from(input: Input) -> Said {
        Said::Input(input)
    }
}

impl From<Settle> for Said {
    fn from(settle: Settle) -> Said {
        Said::Settle(settle)
    }
}

impl From<Company> for Said {
    fn from(company: Company) -> Said {
        Said::Company(company)
    }
}

impl From<Job> for Said {
    fn from(job: Job) -> Said {
        Said::Job(job)
    }
}

impl From<Draft> for Said {
    fn from(draft: Draft) -> Said {
        Said::Draft(draft)
    }
}

impl From<Bill> for Said {
    fn from(bill: Bill) -> Said {
        Said::Bill(bill)
    }
}

impl From<Bank> for Said {
    fn from(bank: Bank) -> Said {
        Said::Bank(bank)
    }
}

impl From<Export> for Said {
    fn from(export: Export) -> Said {
        Said::Export(export)
    }
}

impl From<Access> for Said {
    fn from(access: Access) -> Said {
        Said::Access(access)
    }
}

impl From<String> for Said {
    fn from(sentence: String) -> Said {
        Said::English(sentence)
    }
}

impl From<&str> for Said {
    fn from(sentence: &str) -> Said {
        Said::English(sentence.to_string())
    }
}

impl From<&String> for Said {
    fn from(sentence: &String) -> Said {
        Said::English(sentence.clone())
    }
}

/// The kinds of record a refusal names (`Record`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Record {
    Company,
    /// A company the person belongs to.
    CompanyOfPerson,
    Customer,
    Supplier,
    Purchase,
    DraftLine,
    Attachment,
    LedgerEntry,
    Invoice,
    Draft,
    Bill,
    Payment,
    Transaction,
    Person,
    Key,
    WebhookEndpoint,
    Delivery,
    BankAccount,
    BankLine,
    Account,
    Asset,
    Export,
    Receipt,
    Reminder,
    Mail,
    Note,
    Passkey,
    Link,
    /// A page of the screens.
    Page,
    /// An address of the API.
    Address,
}

/// What is read: an amount of money, or a number (a quantity, a rate).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Figure {
    Amount,
    Number,
}

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
}

/// What settles a document: a payment, a credit applied, or a difference
/// (discount, fee, write-off).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settling {
    Payment,
    CreditApplication,
    Settlement,
}

/// Payments, credits and settlements of invoices and bills. A document is
/// named by its number (an invoice) or id (a bill).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Settle {
    /// An amount in minor units that is not positive or above 10^15.
    NotPositiveMinor,
    /// The day `on` precedes the document's date.
    BeforeDocument {
        on: Date,
        what: Settling,
        document: String,
        dated: Date,
    },
    /// The document was settled later than `on`.
    AfterLastSettled {
        on: Date,
        document: String,
        last: Date,
    },
    /// The payment converts to nothing in the book currency.
    TooSmallForBookCurrency,
    /// More than the document still owes.
    Overpaid {
        amount: Sum,
        outstanding: Sum,
        document: String,
    },
    /// A bank line in another currency than the document's.
    LineCurrency {
        line: String,
        line_currency: String,
        document: String,
        currency: String,
    },
    /// A correction document takes no payments.
    Correction { number: String },
    /// A cancelled invoice takes no payments.
    Cancelled { number: String },
    /// Nothing is owed any more.
    PaidInFull { number: String },
    /// The document owes nothing.
    OwesNothing { document: String },
    /// The payment was reversed already.
    Reversed { payment: String, on: Date },
    /// The payment did not come from a bank line.
    NotFromBankLine { payment: String },
    /// The payment came from a bank line, which is undone instead.
    FromBankLine { payment: String, line: String },
    /// A reversal dated before the payment.
    ReversalBeforePayment {
        on: Date,
        payment: String,
        paid_on: Date,
    },
    /// A supplier credit is applied, not paid.
    CreditNotPaid { id: String },
    /// A bill where a credit was named.
    BillNotCredit { id: String },
    /// Nothing left on the credit.
    CreditUsedUp { id: String },
    /// A credit where a bill was named.
    CreditNotBill { id: String },
    /// The credit and the bill are of different suppliers.
    DifferentSuppliers { credit: String, bill: String },
    /// Credits are applied in the book currency only.
    CreditsInBookCurrency { currency: String },
    /// More than is left on the credit.
    MoreThanCreditLeft {
        amount: Sum,
        left: Sum,
        credit: String,
    },
    /// The document a settlement's entry belonged to has it no more.
    NoLedgerEntry { entry: String, document: String },
}

/// The company, its particulars, its workflow and its customers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Company {
    /// Not a stage key (upper-case letters, digits and `_`).
    NotStageKey { got: String },
    /// Payment days outside 0 to 365.
    PaymentDaysRange,
    /// An invoice prefix of more than 10 letters, digits or `-`.
    PrefixShape,
    /// The prefix R in Spain, the corrections' series.
    PrefixR,
    /// A stage outside the company's workflow.
    NotInWorkflow {
        stage: String,
        workflow: Vec<String>,
    },
    /// Not 1 to 30 stages.
    StageCount,
    /// A stage listed twice.
    StageTwice { stage: String },
    /// A telephone number of fewer than three digits.
    NotPhone,
}

/// The jobs (transactions) and their notes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Job {
    /// Not `YYYY`, `YYYY-Qn` or `YYYY-MM`.
    NotPeriod,
    /// A field that is required cannot be cleared.
    CannotClear,
    /// `customer` none while `customerId` names one.
    NoneWithCustomer,
    /// `customer` takes only none.
    OnlyNone,
    /// An archived job changes only by coming out of the archive.
    Archived,
}

/// Drafts of invoices and quotes, and their lines. A rate is a decimal as
/// a program writes it (`5.5`), shown in the reader's notation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Draft {
    /// Not between 1 and `max` lines.
    LineCount { max: usize },
    /// A line of a draft made whole without a rate or named taxes.
    NoTax,
    /// A quantity of zero or less.
    QuantityNotPositive,
    /// A price outside 0 to 10^15 minor units.
    PriceOutOfRange,
    /// Not a unit code of UN/ECE Recommendation 20.
    NotUnit { got: String },
    /// Not a VATEX code.
    NotVatex { got: String },
    /// A rate given by a small business (§19 UStG).
    SmallBusinessRate,
    /// A charging category given by a small business (§19 UStG).
    SmallBusinessCategory,
    /// A reason of exemption without a zero-rated category.
    ReasonWithoutZeroRated,
    /// A rate and named taxes at once.
    RateAndTaxes,
    /// A rate above 0 with a category that charges none.
    RateWithZeroRated { rate: String, category: String },
    /// A zero-rated category without the reason of its exemption.
    ReasonNeeded { category: String },
    /// A rate of 0 without a category or a named tax with its reason.
    ZeroWithoutReason { tax: String },
    /// A rate outside 0 to 100 percent.
    RateOutOfRange,
    /// The same named tax twice on a line.
    TaxTwice { tax: String },
    /// The draft holds its most lines already.
    Full { max: usize },
    /// The due date lies beyond the calendar.
    DueBeyondCalendar,
    /// Not `FROM..TO` with two dates.
    NotPeriod { got: String },
    /// A period that ends before it starts.
    PeriodBackwards { from: Date, to: Date },
    /// The draft was issued already.
    Issued { id: String },
}

/// Bills and supplier credits recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bill {
    /// A posting day before the document's date.
    PostedBeforeDate { posted: Date, date: Date },
    /// Not positive minor units up to 10^15; a credit has its own kind.
    NotPositiveOrCredit,
    /// Net and tax both zero.
    NoAmount,
    /// Not positive minor units up to 10^15.
    NotPositiveMinor,
    /// A split line without a rate, and none for the bill.
    LineRateMissing,
    /// The net given differs from the lines' sum.
    LinesNetDiffer { net: Sum, lines: Sum },
    /// The tax given differs from the lines' VAT.
    LinesTaxDiffer { tax: Sum, lines: Sum },
    /// A tax under the reverse charge, which the supplier does not charge.
    ReverseChargeTax,
    /// A due day before the document's date.
    DueBeforeDate { due: Date, date: Date },
    /// A document more than a year old, not confirmed.
    YearBack { date: Date, posted: Date },
    /// A posting day in closed books.
    PostedInClosedBooks { posted: Date, through: Date },
    /// The supplier's document is recorded already.
    Duplicate {
        supplier: String,
        number: String,
        earlier: String,
    },
    /// At the rate given, nothing in the book currency.
    WorthNothing { rate: String, currency: String },
}

/// Bank accounts, statements and their lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bank {
    /// A refusal of the line's booking day, which the payment takes.
    LineDay(Box<Said>),
    /// A refusal of the line's amount, which the payment takes.
    LineAmount(Box<Said>),
    /// A part of a split names what was not found.
    Names(Box<Said>),
    /// No invoice taking payments (money in) or bill (money out) has `number`.
    NoDocument { number: String, bill: bool },
}

/// The exports for the tax adviser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Export {
    /// What was named is no partner of the books.
    NotAPartner(Box<Said>),
}

/// People, their sign-in, links and second factors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Access {
    /// A one-time link used already.
    LinkUsed,
    /// A one-time link older than a day.
    LinkExpired,
}
