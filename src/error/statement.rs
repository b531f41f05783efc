//! What reading a bank statement file finds wrong (`FileFault`), said by
//! `Bank::FileUnreadable` as "The file F …": each fault a predicate of the
//! file, or (inside a line, a balance or a booking) a clause of its own.
//! What a library reports (the XML parser, the ZIP reader) is kept as its
//! `detail`, in its own words.

/// One thing a statement file's reader cannot read past.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileFault {
    /// At `line` of an XML file: `fault`.
    XmlLine { line: usize, fault: Box<FileFault> },
    /// The MT940 balance field `tag` on `line`: `fault`.
    Mt940Balance {
        tag: String,
        line: usize,
        fault: Box<FileFault>,
    },
    /// The MT940 `:61:` booking on `line`: `fault`.
    Mt940Booking { line: usize, fault: Box<FileFault> },
    /// `text` is no amount of `currency`.
    NotAmount { text: String, currency: String },
    /// `text` is no date.
    NotDate { text: String },
    /// An amount names no currency (`Ccy`).
    NoCurrency,
    /// `code` is no ISO 4217 currency (of an amount).
    NoIsoCurrency { code: String },
    /// The account's currency `code` is no ISO 4217 currency.
    AccountCurrency { code: String },
    /// `CdtDbtInd` is `got`, neither `CRDT` nor `DBIT`.
    CreditDebit { got: String },
    /// The elements nest deeper than `max`.
    TooDeep { max: usize },
    /// A balance (`Bal`) lacks its amount or `CdtDbtInd`.
    BalanceIncomplete,
    /// A statement names no account (`Acct/Id`).
    NoAccount,
    /// A statement has no `Id`.
    NoStatementId,
    /// An entry (`Ntry`) has no amount.
    EntryNoAmount,
    /// An entry (`Ntry`) has no `CdtDbtInd`.
    EntryNoSign,
    /// The bytes are no UTF-8 from byte `at` on.
    NotUtf8 { at: usize },
    /// No well-formed XML, as the parser says.
    NotXml { detail: String },
    /// A DTD is declared.
    Dtd,
    /// The entity `name` is named, which XML does not define.
    Entity { name: String },
    /// A character reference is wrong, as the parser says.
    CharacterReference { detail: String },
    /// An element holds more than `max` characters of text.
    TextTooLong { max: usize },
    /// No XML element at all.
    NoElement,
    /// The file ends inside `inside` at `line`.
    Truncated { line: usize, inside: String },
    /// XML, but no camt message read here (its `root` element in
    /// `namespace`).
    NotCamt { root: String, namespace: String },
    /// No ZIP archive that can be read, as the ZIP reader says.
    NotZip { detail: String },
    /// A ZIP of `count` members, more than `max`.
    TooManyMembers { count: usize, max: usize },
    /// The ZIP's member `number` cannot be read, as the ZIP reader says.
    MemberUnreadable { number: usize, detail: String },
    /// The member is encrypted.
    Encrypted,
    /// The member cannot be decompressed, as the ZIP reader says.
    NotDecompressed { detail: String },
    /// The member is larger than `mb` megabytes once decompressed.
    MemberTooLarge { mb: u64 },
    /// The ZIP holds more than `mb` megabytes once decompressed.
    ZipTooLarge { mb: u64 },
    /// The member is itself a ZIP.
    ZipInZip,
    /// An MT940 field longer than `max` characters at `line`.
    FieldTooLong { max: usize, line: usize },
    /// A balance starts with neither C nor D.
    NoSign,
    /// No date `YYMMDD` after a balance's mark.
    NoBalanceDate,
    /// No currency in a balance.
    NoBalanceCurrency,
    /// No ISO 4217 currency after a balance's date.
    NoBalanceIsoCurrency,
    /// A booking does not start with a value date `YYMMDD`.
    NoValueDate,
    /// A booking's value date cannot be read.
    ValueDate,
    /// A booking's value date is no day.
    ValueDateNoDay,
    /// A booking's booking date cannot be read.
    BookingDate,
    /// A booking's booking date is no day.
    BookingDateNoDay,
    /// No mark C, D, RC or RD after a booking's dates.
    NoMark,
    /// No transaction type after a booking's amount.
    NoTypeAfterAmount,
    /// No transaction type of N, F or S and three characters.
    NoType,
    /// The booking on `line` writes its `amount` without a decimal comma.
    NoDecimalComma { line: usize, amount: String },
    /// No `:20:` field: no MT940 statement.
    NotMt940,
    /// The statement whose `:20:` is on `line` has no `:25:` account.
    NoAccountField { line: usize },
    /// The statement whose `:20:` is on `line` has no opening or closing
    /// balance.
    NoBalance { line: usize },
}
