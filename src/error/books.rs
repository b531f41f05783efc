//! The books' messages that carry no other message: payments and
//! settlements (`Settle`), the company and its jobs (`Company`, `Job`),
//! bills (`Bill`), fixed assets (`Asset`), the chart (`Chart`), mail
//! (`Mail`), the tax methods and the EÜR (`Methods`).

use jiff::civil::Date;

use super::params::{Settling, Sum};

/// Payments, credits and settlements of invoices and bills. A document is
/// named by its number (an invoice) or id (a bill).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Settle {
    /// An amount in minor units that is not positive or above 10^15.
    NotPositiveMinor,
    /// Money paid before its invoice in another currency than the books.
    AdvanceCurrency {
        line: String,
        document: String,
        books: String,
        currency: String,
    },
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
    /// A receipt of no bytes.
    EmptyFile,
    /// A receipt larger than so many MB.
    ReceiptTooLarge { mb: usize },
    /// A receipt that is no PDF, JPEG or PNG.
    ReceiptKind,
    /// The bill has its receipt already.
    ReceiptKept { bill: String, file: String },
    /// The bill came as an e-invoice, which is its receipt.
    CameAsEinvoice { bill: String },
    /// The same file is kept for another bill.
    SameFile { before: String },
    /// The bill has its receipt already.
    HasReceipt { bill: String },
}

/// Fixed assets and their depreciation (§§ 6, 7 EStG). An asset is named
/// by its name and id (`Desk (ast_1)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asset {
    /// Not yes or no.
    NotYesNo { got: String },
    /// Neither choice of the year given.
    NoChoice,
    /// The year's choices are in closed books.
    ChoicesClosed { through: Date, year: i32 },
    /// The year's choices would write off recorded assets otherwise.
    ChoicesUsed { year: i32, assets: Vec<String> },
    /// Proceeds or a cost of nothing or less.
    NotAboveNothing { got: Sum },
    /// Proceeds without the invoice that sold the asset.
    ProceedsNeedInvoice,
    /// A credit note named as the sale.
    SaleByCreditNote { number: String },
    /// An invoice that booked no revenue.
    NoRevenue { number: String },
    /// The asset left the books already.
    Disposed { asset: String, on: Date },
    /// A disposal before the acquisition.
    BeforeAcquisition { acquired: Date },
    /// Proceeds above the revenue the invoice has left.
    ProceedsAboveRevenue { left: Sum, key: String },
    /// A useful life of no months.
    NoLife,
    /// A useful life outside 1 to `max` months.
    LifeRange { max: u32, got: i64 },
    /// The one-year life for a class that is no computer hardware or software.
    OneYearNotForClass { class: String, key: String },
    /// A class without a useful life in the table, and none given.
    LifeNeeded { class: String },
    /// A bill's line named without its bill.
    BillNeeded,
    /// Not a line's position from 1.
    NotPosition { got: i64 },
    /// A bill named without its line.
    LineNeeded,
    /// A supplier's credit named as the acquisition.
    ByCredit { bill: String },
    /// No such line of the bill.
    NoLine { bill: String, position: i64 },
    /// A line of business entertainment.
    Entertainment,
    /// Nothing left of the line to record.
    LineTaken { bill: String, net: Sum },
    /// A cost above what the line has left.
    AboveLineLeft { left: Sum, position: u32 },
    /// The first year's depreciation could not be posted: closed books.
    FirstYearClosed {
        through: Date,
        year: i32,
        acquired: Date,
    },
    /// The fiscal year has not begun.
    YearNotBegun { year: i32, first: Date },
    /// The year's depreciation lies in closed books.
    DepreciationClosed {
        through: Date,
        year: i32,
        last: Date,
    },
    /// Books in another currency than the euro.
    NotEuro { currency: String },
    /// An earlier year's depreciation is not posted.
    EarlierYear { year: i32, asset: String },
}

/// The chart of accounts and a company's own accounts. An account's kind
/// is its key (`asset`, `liability`, `equity`, `revenue`, `expense`,
/// `tax`), a chart its name (`SKR03`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Chart {
    /// A bill's cost named to an account that takes none.
    NotForCosts {
        number: u32,
        name: String,
        key: String,
        kind: String,
    },
    /// No account of the chart has that number or key.
    NoSuchAccount { chart: String, got: String },
    /// Not a number of four digits at most.
    NotAccountNumber { got: String },
    /// A line of the other statement than the kind's.
    LineOfOtherStatement {
        line: String,
        profit_and_loss: bool,
        kind: String,
    },
    /// A number outside the chart's ranges for the kind.
    OutsideRanges {
        number: u32,
        kind: String,
        chart: String,
        ranges: Vec<String>,
    },
    /// A number the chart has already.
    NumberTaken {
        number: u32,
        name: String,
        key: String,
        standard: bool,
    },
    /// A standard account cannot be removed.
    StandardKept {
        number: u32,
        name: String,
        chart: String,
    },
    /// An account with postings is kept.
    HasPostings {
        number: u32,
        name: String,
        first: Date,
    },
    /// An act dated in closed books.
    Closed { through: Date, date: Date },
    /// Closing does not move back.
    ClosingBack { current: Date },
    /// More postings in the period than an account sheet shows.
    TooManyPostings {
        account: u32,
        max: usize,
        from: Date,
        to: Date,
    },
}

/// Mail sent to customers and its settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mail {
    /// A customer without an e-mail address to send to.
    NoAddress { customer: String },
    /// No encryption is for a relay on this machine only.
    NoneOnlyLoopback,
    /// No PEM certificate in the text.
    NoPem,
    /// The company has no mail settings.
    NoSettings,
    /// No way of securing the connection given.
    SecurityMissing { values: Vec<String> },
    /// Not a port.
    NotPort { got: String },
    /// A password without a user.
    PasswordNeedsUser,
    /// A subject of more than one line.
    SubjectOneLine,
    /// Not an e-mail address as a message's header takes it.
    NotAddress { got: String },
    /// An attachment without a media type.
    NoMediaType { got: String },
    /// A message that cannot be written to its recipient.
    CannotWrite { why: String },
}

/// The company's tax methods and the EÜR drawn up by them. A legal form
/// is named by its short German name (`GmbH`), a country by its code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Methods {
    /// Not yes or no.
    NotYesNo { got: String },
    /// No method given to change.
    NothingGiven,
    /// Ist or the EÜR for a company outside Germany.
    NotGerman { company: String, country: String },
    /// VAT on payments received without its ground of § 20 UStG.
    IstNeedsGround,
    /// A ground of § 20 UStG with VAT on invoices.
    GroundWithoutIst,
    /// The EÜR without a legal form.
    EuerNeedsLegalForm,
    /// The EÜR for a form that must draw up a balance sheet.
    FormNeedsBalanceSheet { form: String },
    /// A change to such a form while the EÜR holds.
    FormChangeWhileEuer { form: String },
    /// A change from a day that is not its period's first.
    NotPeriodStart { unit: PeriodUnit, from: Date },
    /// A change on or before the day the books are closed through.
    ChangeClosed { through: Date },
    /// A change from a day before entries already taxed.
    EntriesAfter { last: Date, from: Date },
    /// A year outside 1900 to 9998.
    YearRange { got: String },
    /// A year whose Anlage EÜR kontor does not know.
    FormUnknown {
        known: Vec<i32>,
        form_year: i32,
        year: i32,
    },
    /// The EÜR of a company that draws up a balance sheet.
    BalanceSheetCompany { company: String, year: i32 },
    /// The EÜR of books kept in another currency than the euro.
    NotEuro { company: String, currency: String },
}

/// Which first day a change of tax methods waits for, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PeriodUnit {
    /// A fiscal year's: the profit method changes.
    YearProfit,
    /// A quarter's: the VAT period changes.
    QuarterPeriodChanges,
    /// A quarter's: the VAT return is quarterly.
    Quarter,
    /// A month's: the VAT return is monthly.
    Month,
}
