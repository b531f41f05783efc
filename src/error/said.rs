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
//! test lists where they are made. The parts that carry no other message
//! live beside this file (`input.rs`, `books.rs`, `people.rs`, their
//! parameters in `params.rs`) and are named here too.

use jiff::civil::Date;

pub use super::books::{Asset, Bill, Chart, Company, Job, Mail, Methods, PeriodUnit, Settle};
pub use super::input::{Code, Input, Request};
pub use super::params::{
    Computed, Figure, Json, Lang, Particular, Party, Settling, Sum, VatIdFault,
};
pub use super::people::{Access, Webhook};
pub use super::statement::FileFault;

/// What a message says, by part, or a sentence in English alone. A part's
/// message is boxed, so a refusal stays as small as its list of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Said {
    /// Reading what a person typed or a program sent.
    Input(Input),
    /// A request's body, query and form as the surfaces read them.
    Request(Request),
    /// Identifiers and codes: IBANs, BICs, electronic addresses, creditor
    /// references, countries, placeholders, taxes and rates.
    Code(Code),
    /// Payments, credits and settlements of invoices and bills.
    Settle(Box<Settle>),
    /// The company, its particulars, its workflow and its customers.
    Company(Box<Company>),
    /// The jobs (transactions) and their notes.
    Job(Box<Job>),
    /// Drafts of invoices and quotes, and their lines.
    Draft(Box<Draft>),
    /// What issuing a document checks: the rules of e-invoices and of the law.
    Issue(Box<Issue>),
    /// Bills and supplier credits recorded.
    Bill(Box<Bill>),
    /// The chart of accounts and a company's own accounts.
    Chart(Box<Chart>),
    /// Fixed assets and their depreciation.
    Asset(Box<Asset>),
    /// Reminders, their ladder and the base-rate table.
    Dunning(Box<Dunning>),
    /// The tax methods and the EÜR.
    Methods(Box<Methods>),
    /// Mail sent to customers and its settings.
    Mail(Box<Mail>),
    /// Received e-invoices: their warnings and their booking.
    Received(Box<Received>),
    /// Webhook endpoints and their addresses.
    Webhook(Box<Webhook>),
    /// Bank accounts, statements and their lines.
    Bank(Box<Bank>),
    /// The exports for the tax adviser.
    Export(Box<Export>),
    /// People, their sign-in, links and second factors.
    Access(Box<Access>),
    /// A record that was looked for, by its kind and how the asker named it.
    Record(Record, String),
    /// A record within another (`Line 3 of draft D1`): its kind and name,
    /// the other's kind and name.
    RecordOf(Record, String, Record, String),
    /// A record looked for and not found, as its name (`Record`) says it.
    NotFound(Box<Said>),
    /// A sentence that is not yet in the catalogue: English on every surface.
    English(String),
}

impl From<Input> for Said {
    fn from(input: Input) -> Said {
        Said::Input(input)
    }
}

impl From<Code> for Said {
    fn from(code: Code) -> Said {
        Said::Code(code)
    }
}

impl From<Request> for Said {
    fn from(request: Request) -> Said {
        Said::Request(request)
    }
}

impl From<Settle> for Said {
    fn from(settle: Settle) -> Said {
        Said::Settle(Box::new(settle))
    }
}

impl From<Company> for Said {
    fn from(company: Company) -> Said {
        Said::Company(Box::new(company))
    }
}

impl From<Job> for Said {
    fn from(job: Job) -> Said {
        Said::Job(Box::new(job))
    }
}

impl From<Draft> for Said {
    fn from(draft: Draft) -> Said {
        Said::Draft(Box::new(draft))
    }
}

impl From<Issue> for Said {
    fn from(issue: Issue) -> Said {
        Said::Issue(Box::new(issue))
    }
}

impl From<Bill> for Said {
    fn from(bill: Bill) -> Said {
        Said::Bill(Box::new(bill))
    }
}

impl From<Asset> for Said {
    fn from(asset: Asset) -> Said {
        Said::Asset(Box::new(asset))
    }
}

impl From<Chart> for Said {
    fn from(chart: Chart) -> Said {
        Said::Chart(Box::new(chart))
    }
}

impl From<Methods> for Said {
    fn from(methods: Methods) -> Said {
        Said::Methods(Box::new(methods))
    }
}

impl From<Dunning> for Said {
    fn from(dunning: Dunning) -> Said {
        Said::Dunning(Box::new(dunning))
    }
}

impl From<Mail> for Said {
    fn from(mail: Mail) -> Said {
        Said::Mail(Box::new(mail))
    }
}

impl From<Received> for Said {
    fn from(received: Received) -> Said {
        Said::Received(Box::new(received))
    }
}

impl From<Webhook> for Said {
    fn from(webhook: Webhook) -> Said {
        Said::Webhook(Box::new(webhook))
    }
}

impl From<Bank> for Said {
    fn from(bank: Bank) -> Said {
        Said::Bank(Box::new(bank))
    }
}

impl From<Export> for Said {
    fn from(export: Export) -> Said {
        Said::Export(Box::new(export))
    }
}

impl From<Access> for Said {
    fn from(access: Access) -> Said {
        Said::Access(Box::new(access))
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
    /// An invoice or a bill, by its number or id.
    Document,
    BankStatement,
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
    /// A line without a rate or a tax with its reason.
    NoTaxDecision,
    /// Several taxes on a line of a seller in the EU.
    SeveralTaxes { count: usize },
    /// A tax at 0 % without a VAT category.
    ZeroWithoutCategory { tax: String },
    /// Category S at 0 %.
    StandardAtZero,
    /// VAT charged by a small business (§ 19 UStG).
    SmallBusinessCharges { rate: String },
    /// A line's problem, the line named by its description.
    Line {
        description: String,
        problem: Box<Said>,
    },
    /// Two lines of one category and rate with different reasons.
    ReasonClash { category: String, rate: String },
    /// A quote is not issued.
    QuoteNotIssued,
    /// A quote has no invoice to preview.
    QuoteNotPreviewed,
    /// A draft without lines.
    NoLines { id: String },
    /// The customer's VAT id changed while the register was asked.
    VatIdChanged,
    /// The customer's VAT id cannot be used.
    VatIdUnusable { reason: Box<Said> },
    /// A total of zero or less.
    NotPositiveTotal,
    /// At the rate given, nothing in the book currency.
    WorthNothing { rate: String, currency: String },
    /// A correction is not cancelled.
    CorrectionNotCancelled { number: String },
    /// Cancelled already.
    CancelledAlready { number: String },
    /// An invoice with payments is not cancelled in full.
    HasPayments { number: String, payments: i64 },
    /// A cancellation before the invoice.
    CancelBeforeIssue {
        on: Date,
        number: String,
        issued: Date,
    },
}

/// What issuing a document checks, the rules of e-invoices (EN 16931) and
/// of the law (§ 14 UStG, Art. 226 of the VAT Directive), and where a
/// finding is fixed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Issue {
    /// A rule's finding: the rule (its id or paragraph) and what is wrong.
    Finding { rule: String, problem: Box<Said> },
    /// A particular of the seller or the buyer is missing.
    Missing { whose: Party, what: Particular },
    /// The seller has neither a VAT id nor a legal registration.
    NoVatIdNorRegistration,
    /// Set on the company's particulars (`flag`: the console's option).
    FixSeller { company: String, flag: String },
    /// Set on the customer.
    FixBuyer { customer: String, flag: String },
    /// Set on the draft.
    FixDraft { draft: String, flag: String },
    /// The draft's lines and their VAT.
    FixLines { draft: String },
    /// Figures kontor computed: a fault to report.
    Fault,
}

/// Reminders, their ladder and the base-rate table (§ 247 BGB).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dunning {
    /// The table lacks the row the Bundesbank publishes on `next`.
    BaseRateDue { next: Date },
    /// The table has no rate for a day interest is stated on.
    NoBaseRate { from: Date },
    /// Not 1 to `max` levels.
    LevelCount { max: usize },
    /// A level out of its place on the ladder.
    LevelMustBe { level: usize },
    /// Days outside 1 to 365.
    DaysRange,
    /// Days to pay outside 1 to 90.
    PayDaysRange,
    /// Not a level from 1 to `max`.
    NotLevel { max: usize, got: String },
    /// Not a whole number of days.
    NotWholeDays { got: String },
    /// A base rate outside -10 to 30 percent.
    RateRange,
    /// No reminder was sent: for each invoice, why.
    NoneSent {
        missing: Vec<(String, Vec<Violation>)>,
    },
}

/// Received e-invoices: what their checks warn of, and what booking one
/// refuses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Received {
    /// Addressed to another buyer than the company.
    Buyer { named: String },
    /// Dated after today, or more than a year before it.
    Dated { on: Date, future: bool },
    /// The supplier found by the seller's identifiers bears another name.
    SupplierNamed {
        id: String,
        known: String,
        named: String,
    },
    /// The choice between the supplier found and a new one is needed.
    SupplierChoiceNeeded,
    /// A choice of supplier where none is needed.
    SupplierChoiceNotNeeded { choice: String },
    /// Booked despite warnings only when told so.
    WarningsNotAccepted { warnings: Vec<Said> },
    /// Net and VAT of opposite signs.
    OppositeSigns { net: Sum, tax: Sum },
    /// A category named though the document names its own.
    CategoryNotNeeded { category: String },
    /// A category is needed for what the document carries (`carried`: its
    /// category's code, empty when it gives none).
    CategoryNeeded { carried: String },
    /// The category named cannot carry the document's rates.
    CategoryNotFitting {
        category: String,
        rates: Vec<String>,
    },
    /// Several unlisted categories, which one named cannot tell apart.
    SeveralCategories { carried: Vec<String> },
    /// The bill is booked already.
    BookedAlready { id: String },
    /// The bill was refused and is kept so.
    RefusedKept { id: String },
    /// The supplier's document is booked already.
    Duplicate {
        seller: String,
        number: String,
        earlier: String,
    },
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
    /// A statement of an account the company does not have.
    NotOurAccount { file: String, account: String },
    /// An import's note: the same file was imported before, as `before`
    /// on `on`; nothing of it again.
    FileSeenBefore { before: String, on: Option<Date> },
    /// An import's note: a statement imported before (`sequence`, if it
    /// has one) of `account`.
    StatementSeenBefore {
        statement: String,
        sequence: Option<String>,
        account: String,
    },
    /// An import's note: the statement opens with another balance than the
    /// one before it closed with.
    ChainBreaks {
        account: String,
        statement: String,
        opening: Sum,
        closing: Sum,
    },
    /// An import's note: an entry of `lines` lines repeats one imported
    /// before (`earlier`: its line, statement and file, when known).
    EntryRepeats {
        lines: usize,
        on: Option<Date>,
        amount: Sum,
        reference: Option<String>,
        statement: String,
        earlier: Option<[String; 3]>,
    },
    /// An import's note: an entry acted on already, whose `count`
    /// transactions a later statement details were not imported.
    DetailActedOn {
        entry: String,
        account: String,
        count: usize,
        statement: String,
    },
    /// A file of no bytes.
    FileEmpty { file: String },
    /// A file that is neither camt XML, a ZIP of camt files, nor MT940.
    FileNoStatement { file: String },
    /// A statement file its reader cannot read, and why.
    FileUnreadable { file: String, fault: FileFault },
    /// A file larger than kontor reads (`mb` megabytes; of a ZIP, `zip`).
    FileTooLarge { file: String, mb: u64, zip: bool },
    /// A statement in another currency than its account's.
    StatementCurrency {
        file: String,
        currency: String,
        account: String,
        kept: String,
    },
    /// An entry in another currency than its account's.
    EntryCurrency {
        file: String,
        amount: Sum,
        statement: String,
        account: String,
        kept: String,
    },
    /// Not a bank code and account number.
    NotNationalAccount { got: String },
    /// Neither an IBAN nor a bank code and account number.
    IbanMissing,
    /// Both an IBAN and a bank code and account number.
    AccountBesideIban,
    /// An account the company has already.
    KnownAccount { account: String, id: String },
    /// A fee tolerance outside 0 to 10^15 minor units.
    ToleranceRange,
    /// A line not yet booked by the bank.
    Preliminary { id: String },
    /// A settled line.
    SettledUndoFirst { id: String },
    /// An ignored line.
    IgnoredUndoFirst { id: String },
    /// A suggestion the line does not have.
    NoSuchSuggestion { n: usize, id: String, count: usize },
    /// One number of bills of two suppliers.
    TwoSuppliers {
        number: String,
        a: String,
        b: String,
    },
    /// No part of a split.
    SplitMissing,
    /// A part of no positive amount.
    PositiveAmount,
    /// A part above what its document owes.
    PartAboveOpen {
        number: String,
        amount: Sum,
        open: Sum,
    },
    /// Parts above what the line has left.
    SplitAboveLeft { total: Sum, left: Sum },
    /// A line that settled part of its amount.
    PartlySettled { id: String },
    /// Documents that take more than the line has left.
    LeftToSettle { id: String, left: Sum, total: Sum },
    /// Not an account a line is booked to.
    NotBookAccount { got: String, money_in: bool },
    /// More than the line has left to book.
    AboveLeftToBook { id: String },
    /// The difference of money out kept as a customer's credit.
    CreditForMoneyIn,
    /// A part naming a document a second time.
    NamedTwice { number: String },
    /// A line in another currency than the books.
    LineCurrencyBooks {
        id: String,
        currency: String,
        books: String,
    },
    /// Nothing the line settled could be undone.
    NothingToUndo { id: String },
    /// A returned direct debit stays.
    ReturnedDebit { id: String },
    /// The line was returned.
    WasReturned {
        id: String,
        payment: String,
        on: Date,
    },
    /// Why the ladder matched a line, from its code (`number`, `partial`,
    /// …, see `books::bank::matching::Reason::code`): the documents'
    /// `numbers`, the `difference` to what they owe, the payer's `iban`;
    /// an unknown code (a suggestion kept before codes were) says the
    /// `stored` English sentence.
    Reason {
        code: Option<String>,
        numbers: String,
        difference: Sum,
        iban: String,
        /// The creditor reference matched, when known.
        reference: Option<String>,
        stored: String,
    },
    /// An import's note: the returned direct debit `line` could not take
    /// back what its original line settled, as `why` says.
    ReturnKept { line: String, why: Vec<Violation> },
    /// An import's note: the line, matched for `reason` but paid before an
    /// invoice's date, is not suggested, as `why` says.
    NotSuggested {
        reason: Box<Said>,
        line: String,
        why: Vec<Violation>,
    },
    /// An import's note: the line, matched for `reason`, could not be
    /// settled and is not suggested, as `why` says.
    NotSettled {
        reason: Box<Said>,
        line: String,
        why: Vec<Violation>,
    },
    /// A reader's remark: an amount `written` with more decimals than its
    /// currency has, read as `read`.
    Rounded { written: String, read: Sum },
    /// A reader's remark: a date `written` naming a day its month does not
    /// have (30/360 interest days), read as `read`, the month's last day.
    LastOfMonth { written: String, read: Date },
    /// A reader's remark on the MT940 balance field `tag` on `line`.
    BalanceRemark {
        tag: String,
        line: usize,
        remark: Box<Said>,
    },
    /// An import's note: a reader's remark on the entry over `amount`
    /// (the bank's `reference`) in `statement`.
    EntryRemark {
        amount: Sum,
        reference: Option<String>,
        statement: String,
        remark: Box<Said>,
    },
    /// An import's note: a reader's remark on a balance of `statement`.
    StatementRemark {
        statement: String,
        remark: Box<Said>,
    },
    /// An import's note: the line, matched for `reason`, pays `more` than
    /// the documents owed; the rest waits for a person.
    PaysMore {
        reason: Box<Said>,
        line: String,
        more: Sum,
    },
}

/// The exports for the tax adviser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Export {
    /// What was named is no partner of the books.
    NotAPartner(Box<Said>),
    /// A DATEV number the export needs is not set.
    NeededForDatev,
    /// A batch's last day in the next fiscal year.
    NextFiscalYear { from: Date, to: Date },
    /// The chart stays while the company keeps accounts of its own in it.
    ChartKeepsOwn { chart: String, own: i64 },
    /// The chart stays once the books were exported in it.
    ChartExported { chart: String, on: Date },
    /// No account number left in the range.
    RangeFull { from: u32, to: u32, detail: String },
    /// A partner's number outside its range.
    NumberOutOfRange {
        supplier: bool,
        from: u32,
        to: u32,
        got: u32,
    },
    /// Numbers stay once the books were exported.
    NumbersKept { on: Date },
    /// The number is another partner's.
    NumberTaken { number: u32, holder: String },
}

/// One thing wrong with an input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The field, as the books name it; none when the violation concerns the whole.
    pub field: Option<String>,
    /// With a field: what is wrong with it, as a predicate ("is missing").
    /// Without: a whole sentence.
    pub message: Said,
    /// What would be accepted, when that helps.
    pub hint: Option<Said>,
}

impl Violation {
    /// A violation of `field`: `message` is a predicate such as "is missing".
    pub fn at(field: impl Into<String>, message: impl Into<Said>) -> Violation {
        Violation {
            field: Some(field.into()),
            message: message.into(),
            hint: None,
        }
    }

    /// A violation of the whole input, in a sentence.
    pub fn whole(sentence: impl Into<Said>) -> Violation {
        Violation {
            field: None,
            message: sentence.into(),
            hint: None,
        }
    }

    /// The same violation with a hint.
    pub fn hint(mut self, hint: impl Into<Said>) -> Violation {
        self.hint = Some(hint.into());
        self
    }

    /// The same violation, its field under `prefix` (`lines[2]` + `quantity`).
    pub fn under(mut self, prefix: &str) -> Violation {
        self.field = Some(match self.field {
            Some(field) => format!("{prefix}.{field}"),
            None => prefix.to_string(),
        });
        self
    }
}
