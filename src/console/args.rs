//! The console's command line: every command and its arguments as clap
//! reads them. Nothing here checks a value beyond its type; the books do.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

pub use crate::console::adviser_args::*;
pub use crate::console::asset_args::*;
pub use crate::console::bank_args::*;
pub use crate::console::books_args::*;
pub use crate::console::mode::Mode;
pub use crate::console::sending_args::*;
pub use crate::console::serve_args::*;

#[derive(Parser, Debug)]
#[command(
    name = "kontor",
    version,
    about = "A self-hosted accounting service over one SQLite file."
)]
pub struct Cli {
    /// The data file (default ./kontor.db; for `demo`, ./kontor-demo.db).
    #[arg(long, global = true, value_name = "PATH")]
    pub data: Option<PathBuf>,
    /// Act as this person of the company (an enabled person whose role
    /// allows the act); the audit names them. Without it, the audit names
    /// the system.
    #[arg(long = "as", global = true, value_name = "EMAIL")]
    pub acting: Option<String>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Serve the REST API under /v1 (and, with --demo, a fresh demo company first).
    Serve(ServeArgs),
    /// Create a fresh data file with a demo company and keys, print them, and serve.
    Demo(ServeArgs),
    /// Companies: create, show, set the particulars, change plan, set the workflow.
    #[command(subcommand)]
    Company(CompanyCommand),
    /// API keys: create, list, revoke.
    #[command(subcommand)]
    Key(KeyCommand),
    /// People who use the screens: add to a company, list, change a role,
    /// disable, set a password, make a password reset link.
    #[command(subcommand)]
    User(UserCommand),
    /// A customer's agreed terms and buyer's particulars.
    #[command(subcommand)]
    Customer(CustomerCommand),
    /// Drafts: create, add lines, set the references, issue.
    #[command(subcommand)]
    Draft(DraftCommand),
    /// Money in against an invoice.
    #[command(subcommand)]
    Payment(PaymentCommand),
    /// Cancel an invoice by a full correction; write a document; send it by mail.
    #[command(subcommand)]
    Invoice(InvoiceCommand),
    /// Reminders: the run of a day, sending them, the levels, the base rates.
    #[command(subcommand)]
    Dunning(DunningCommand),
    /// Incoming bills and money out against them.
    #[command(subcommand)]
    Purchase(PurchaseCommand),
    /// Close the books; the trial balance, profit and loss, balance sheet.
    #[command(subcommand)]
    Books(BooksCommand),
    /// The company's chart of accounts (SKR03/SKR04): list it, add an
    /// account of its own, remove one nothing is posted to.
    #[command(subcommand)]
    Account(AccountCommand),
    /// Fixed assets: record one, list them, show one, the classes of the
    /// depreciation table, dispose of one.
    #[command(subcommand)]
    Asset(AssetCommand),
    /// The webhook delivery log; sending an event again.
    #[command(subcommand)]
    Webhook(WebhookCommand),
    /// Bank accounts, statement imports (camt.052/053/054, MT940, ZIP) and
    /// their lines: confirm, split, book, ignore, undo.
    #[command(subcommand)]
    Bank(BankCommand),
    /// The books for the tax adviser (DATEV) and a tax audit (GoBD).
    #[command(subcommand)]
    Export(ExportCommand),
    /// The VAT return's figures and the EC sales list of a period.
    #[command(subcommand)]
    Vat(VatCommand),
    /// VAT ids: check them, one per line on stdin (no data file needed).
    #[command(subcommand)]
    VatId(super::vat_id::VatIdCommand),
    /// Copy the data file, consistently, while a server may be running.
    Backup {
        /// The new file (it must not exist yet).
        #[arg(long)]
        to: PathBuf,
    },
    /// Put a copy (from `backup` or `serve --backup-to`) in place of the data
    /// file named by --data, once it is checked; the file replaced is moved
    /// aside. No server may be running on it.
    Restore {
        /// The copy to restore.
        #[arg(long)]
        from: PathBuf,
    },
}

#[derive(Subcommand, Debug)]
pub enum WebhookCommand {
    /// The delivery log of a company's endpoints (newest first), or of one.
    Deliveries {
        #[arg(long)]
        company: String,
        #[arg(long)]
        endpoint: Option<String>,
        #[arg(long, default_value_t = 0)]
        page: i64,
        #[command(flatten)]
        mode: Mode,
    },
    /// Send a delivery's event again (same event id and body, a new delivery).
    Redeliver {
        delivery: String,
        #[command(flatten)]
        mode: Mode,
    },
}

#[derive(Subcommand, Debug)]
pub enum CustomerCommand {
    /// Set the customer's agreed payment days (used by documents issued from now on).
    Terms {
        customer: String,
        #[arg(long)]
        payment_days: i64,
        #[command(flatten)]
        mode: Mode,
    },
    /// Set the customer's address and buyer's particulars (what is not named stays).
    Set(Box<CustomerSetArgs>),
}

/// The arguments of `customer set`.
#[derive(Args, Debug)]
pub struct CustomerSetArgs {
    pub customer: String,
    /// Act only if the customer belongs to this company.
    #[arg(long)]
    pub company: Option<String>,
    #[arg(long)]
    pub name: Option<String>,
    #[arg(long)]
    pub street: Option<String>,
    #[arg(long)]
    pub postal_code: Option<String>,
    #[arg(long)]
    pub city: Option<String>,
    /// ISO 3166-1 alpha-2.
    #[arg(long)]
    pub country: Option<String>,
    /// Checked at once by the country of its own prefix.
    #[arg(long)]
    pub vat_id: Option<String>,
    /// The reference every invoice to this customer carries (BT-10; a
    /// Leitweg-ID for German public buyers).
    #[arg(long)]
    pub buyer_reference: Option<String>,
    /// SCHEME:VALUE with an EAS scheme (0204 Leitweg-ID, 9930 German VAT
    /// id, 0088 GLN, EM e-mail, …).
    #[arg(long)]
    pub electronic_address: Option<String>,
    /// The e-invoice format the customer receives: facturx (the
    /// default), xrechnung or peppol.
    #[arg(long)]
    pub einvoice: Option<String>,
    /// The partner's bank account (an IBAN), what its payments come from or go to.
    #[arg(long)]
    pub iban: Option<String>,
    /// Where invoices are sent (default: the e-mail address).
    #[arg(long)]
    pub invoice_email: Option<String>,
    /// Whether the customer is a consumer (true) or a business (false, the default).
    #[arg(long)]
    pub consumer: Option<bool>,
    /// The language of what kontor sends the partner: de or en (default: by its country).
    #[arg(long)]
    pub language: Option<String>,
    /// Clear a value (repeatable).
    #[arg(long, value_enum)]
    pub clear: Vec<CustomerClear>,
    #[command(flatten)]
    pub mode: Mode,
}

/// What `customer set --clear` may clear.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum CustomerClear {
    VatId,
    BuyerReference,
    ElectronicAddress,
    Iban,
    InvoiceEmail,
    Language,
}

#[derive(Subcommand, Debug)]
pub enum DraftCommand {
    /// Create an empty invoice (or quote) draft for a customer.
    Create {
        #[arg(long)]
        company: String,
        #[arg(long)]
        customer: String,
        #[arg(long)]
        quote: bool,
        #[command(flatten)]
        mode: Mode,
    },
    /// Add a line; its tax is a rate (the country's tax name) or named taxes.
    Line(DraftLineArgs),
    /// Set what the invoice will say of the buyer's order (only while a draft).
    Set(DraftSetArgs),
    /// Check the draft, give it the next final number and freeze it.
    Issue {
        draft: String,
        #[arg(long)]
        on: Option<String>,
        #[arg(long)]
        delivered_on: Option<String>,
        /// Book-currency units per unit of the document's currency.
        #[arg(long)]
        rate: Option<String>,
        #[command(flatten)]
        register: RegisterArgs,
        #[command(flatten)]
        mode: Mode,
    },
}

/// The arguments of `draft line`.
#[derive(Args, Debug)]
pub struct DraftLineArgs {
    pub draft: String,
    #[arg(long)]
    pub description: String,
    /// An exact decimal, e.g. 1.5.
    #[arg(long)]
    pub quantity: String,
    /// Minor units of the draft's currency.
    #[arg(long, allow_hyphen_values = true)]
    pub unit_price: i64,
    /// The rate in percent of the country's sales tax.
    #[arg(long, conflicts_with = "tax")]
    pub tax_rate: Option<String>,
    /// `NAME:RATE[:REASON]`; a zero rate needs the reason. Repeatable.
    #[arg(long)]
    pub tax: Vec<String>,
    /// UN/ECE Recommendation 20 unit code (default C62, "one"; HUR
    /// hours, KGM kilograms, MTR metres, …).
    #[arg(long)]
    pub unit: Option<String>,
    /// The VAT category: S, Z, E, AE, K, G, O, L or M. A rate above 0
    /// without one is S; Z, E, AE, K, G and O have rate 0.
    #[arg(long)]
    pub vat_category: Option<String>,
    /// Why nothing is charged (E, AE, K, G, O; Z keeps it inside kontor).
    #[arg(long)]
    pub exemption_reason: Option<String>,
    /// The exemption's VATEX code, e.g. VATEX-EU-AE.
    #[arg(long)]
    pub exemption_code: Option<String>,
    #[command(flatten)]
    pub mode: Mode,
}

/// The arguments of `draft set`.
#[derive(Args, Debug)]
pub struct DraftSetArgs {
    pub draft: String,
    /// Act only if the draft belongs to this company.
    #[arg(long)]
    pub company: Option<String>,
    /// The draft's own buyer reference (else the customer's applies).
    #[arg(long)]
    pub buyer_reference: Option<String>,
    /// The buyer's order reference (BT-13).
    #[arg(long)]
    pub order_reference: Option<String>,
    /// The invoicing (delivery) period FROM..TO, ISO dates, FROM ≤ TO.
    #[arg(long)]
    pub period: Option<String>,
    /// Clear a value (repeatable); a cleared buyer reference is the customer's again.
    #[arg(long, value_enum)]
    pub clear: Vec<DraftClear>,
    #[command(flatten)]
    pub mode: Mode,
}

/// What `draft set --clear` may clear.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum DraftClear {
    BuyerReference,
    OrderReference,
    Period,
}

#[derive(Args, Debug)]
pub struct PaymentArgs {
    /// Minor units.
    #[arg(long, allow_hyphen_values = true)]
    pub amount: i64,
    #[arg(long)]
    pub on: Option<String>,
    /// bank (the default), cash, card or other.
    #[arg(long)]
    pub method: Option<String>,
    #[arg(long)]
    pub reference: Option<String>,
}

#[derive(Subcommand, Debug)]
pub enum PaymentCommand {
    /// Record money in against an invoice (partial payments allowed, overpayment refused).
    Record {
        #[arg(long)]
        company: String,
        #[arg(long)]
        invoice: String,
        #[command(flatten)]
        payment: PaymentArgs,
        #[command(flatten)]
        mode: Mode,
    },
    /// Take back a payment recorded by hand (an invoice's or a bill's) by a
    /// counter-posting; a bank line's payment is undone with `bank undo`.
    Reverse {
        /// The payment (`pay_…`).
        payment: String,
        /// The payment's company, when given: another company's is not found.
        #[arg(long)]
        company: Option<String>,
        /// The day of the counter-posting (default today).
        #[arg(long)]
        on: Option<String>,
        /// Why it is taken back (required).
        #[arg(long)]
        reason: Option<String>,
        #[command(flatten)]
        mode: Mode,
    },
}

#[derive(Subcommand, Debug)]
pub enum InvoiceCommand {
    /// Cancel by a full correction document.
    Cancel {
        #[arg(long)]
        company: String,
        number: String,
        #[arg(long)]
        reason: String,
        #[arg(long)]
        on: Option<String>,
        #[command(flatten)]
        mode: Mode,
    },
    /// Send an issued invoice by mail to its customer (or --to); prints the send.
    Send(InvoiceSendArgs),
    /// The sends of an invoice: state, attempts, the server's reply, Message-ID.
    Sends(InvoiceSendsArgs),
    /// Write one of an invoice's stored documents to a file.
    Document {
        #[arg(long)]
        company: String,
        number: String,
        /// facturx (the PDF), cii, xrechnung or peppol.
        #[arg(long)]
        format: String,
        /// The file to write (`-` for standard output).
        #[arg(long)]
        out: String,
        #[command(flatten)]
        mode: Mode,
    },
}

#[derive(Subcommand, Debug)]
pub enum PurchaseCommand {
    /// Record an incoming bill (or a supplier's credit).
    Record(Box<PurchaseRecordArgs>),
    /// Attach a bill's receipt (a PDF, JPEG or PNG of at most 20 MB), kept
    /// unchanged beside it.
    Receipt {
        /// The bill.
        purchase: String,
        /// The file.
        file: std::path::PathBuf,
        #[command(flatten)]
        mode: Mode,
    },
    /// Record money out against a bill.
    Pay {
        purchase: String,
        #[command(flatten)]
        payment: PaymentArgs,
        #[command(flatten)]
        mode: Mode,
    },
    /// Apply a supplier's credit to a bill of the same supplier (no money moves).
    ApplyCredit {
        /// The credit (a purchase recorded with --kind credit).
        credit: String,
        /// The bill it settles.
        #[arg(long)]
        bill: String,
        /// Minor units; default: as much as the credit and the bill allow.
        #[arg(long)]
        amount: Option<i64>,
        #[arg(long)]
        on: Option<String>,
        #[command(flatten)]
        mode: Mode,
    },
    /// Receive e-invoices (XRechnung, Peppol UBL, ZUGFeRD/Factur-X) from
    /// files: prints one result per file.
    Receive {
        #[arg(long)]
        company: String,
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        #[command(flatten)]
        mode: Mode,
    },
    /// A received bill as read from its file.
    Show {
        #[arg(long)]
        company: String,
        id: String,
        #[command(flatten)]
        mode: Mode,
    },
    /// The received bills, newest first.
    List {
        #[arg(long)]
        company: String,
        /// received, booked or refused.
        #[arg(long)]
        state: Option<String>,
        #[arg(long, default_value_t = 0)]
        page: i64,
        #[command(flatten)]
        mode: Mode,
    },
    /// Book a received bill (raises purchase.recorded).
    Book {
        #[arg(long)]
        company: String,
        id: String,
        /// Book-currency units per unit of the bill's currency, for a bill
        /// in another currency.
        #[arg(long)]
        rate: Option<String>,
        /// The VAT category (S, Z, E, AE, K, G, O, L, M) to book what the
        /// document writes outside EN 16931's list, or leaves out at a zero
        /// rate, under; at the document's rate.
        #[arg(long)]
        category: Option<String>,
        /// Book despite the warnings `purchase show` lists (another buyer,
        /// an old or future date, a supplier under another name).
        #[arg(long)]
        accept_warnings: bool,
        /// Where the supplier found bears another name than the document's
        /// seller: `existing` books under it, `new` makes a new supplier
        /// with the document's name.
        #[arg(long)]
        supplier: Option<String>,
        #[command(flatten)]
        mode: Mode,
    },
    /// Refuse a received bill: it is kept and never booked.
    Refuse {
        #[arg(long)]
        company: String,
        id: String,
        #[arg(long)]
        reason: String,
        #[command(flatten)]
        mode: Mode,
    },
    /// Write a received bill's file exactly as it arrived.
    Original {
        #[arg(long)]
        company: String,
        id: String,
        #[arg(long)]
        out: std::path::PathBuf,
        #[command(flatten)]
        mode: Mode,
    },
    /// Mark a supplier trusted (its valid e-invoices are booked as they
    /// arrive), or with --off no longer.
    Trust {
        #[arg(long)]
        company: String,
        supplier: String,
        #[arg(long)]
        off: bool,
        #[command(flatten)]
        mode: Mode,
    },
}

/// The arguments of `purchase record`.
#[derive(Args, Debug)]
pub struct PurchaseRecordArgs {
    #[arg(long)]
    pub company: String,
    #[arg(long)]
    pub supplier: String,
    #[arg(long)]
    pub supplier_vat_id: Option<String>,
    #[arg(long)]
    pub document_number: String,
    #[arg(long)]
    pub date: String,
    #[arg(long)]
    pub due: String,
    #[arg(long)]
    pub currency: String,
    /// The net in minor units (with --line: what the lines must add up to).
    #[arg(long, allow_hyphen_values = true, required_unless_present = "line")]
    pub net: Option<i64>,
    /// The VAT in minor units (with --line: what the lines' VAT must add up to).
    #[arg(long, allow_hyphen_values = true, required_unless_present = "line")]
    pub tax: Option<i64>,
    /// The chart account the bill's cost goes to (a key such as rent or a
    /// number); without it, that of the supplier's last bill.
    #[arg(long)]
    pub account: Option<String>,
    /// A line of a bill split over accounts: ACCOUNT=NET:RATE (NET in minor
    /// units, RATE in percent; without :RATE, --tax-rate's); repeatable.
    #[arg(long = "line")]
    pub line: Vec<String>,
    /// bill (the default) or credit.
    #[arg(long)]
    pub kind: Option<String>,
    #[arg(long)]
    pub rate: Option<String>,
    /// The VAT rate in percent the bill charges (19, 7, 0); without it the
    /// bill is two totals and its VAT names no rate.
    #[arg(long)]
    pub tax_rate: Option<String>,
    /// A service bought under the reverse charge (§ 13b UStG): --tax is 0,
    /// the company owes the VAT at --tax-rate (default 19) and deducts it.
    #[arg(long)]
    pub reverse_charge: bool,
    /// The supplier taxes on payments received (its invoice says
    /// "Versteuerung nach vereinnahmten Entgelten"): from 2028 the input
    /// VAT is deductible only as the bill is paid (§ 15 (1) UStG).
    #[arg(long)]
    pub supplier_cash_basis: bool,
    /// The bill asks for a down payment: its input VAT counts when paid.
    #[arg(long)]
    pub down_payment: bool,
    /// The day the bill is booked (default the document date, or the first
    /// open day when that lies in closed books).
    #[arg(long)]
    pub posted: Option<String>,
    /// The bill's receipt (a PDF, JPEG or PNG of at most 20 MB), kept
    /// unchanged beside it.
    #[arg(long)]
    pub receipt: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub mode: Mode,
}

#[derive(Subcommand, Debug)]
pub enum CompanyCommand {
    /// Create a company.
    Create(CompanyCreateArgs),
    /// Show a company with its particulars.
    Show { company: String },
    /// Set the seller's particulars and default payment days (what is not named stays).
    Set {
        company: String,
        #[command(flatten)]
        particulars: Box<ParticularsArgs>,
        /// Default payment days, 0–365 (`--clear payment-days`: the country's).
        #[arg(long)]
        payment_days: Option<i64>,
        #[command(flatten)]
        datev: Box<DatevArgs>,
        #[command(flatten)]
        tax: Box<TaxMethodArgs>,
        /// Clear a value (repeatable).
        #[arg(long, value_enum)]
        clear: Vec<CompanyClear>,
    },
    /// Set the company's mail settings (owner only); prints them, never the password.
    Mail(Box<MailArgs>),
    /// Set the company's own subject and body of a mail in one language.
    MailText(MailTextArgs),
    /// Give a partner the DATEV personal account number (only before the
    /// books' first DATEV export).
    AccountNumber {
        company: String,
        /// The partner's id (`cus_…`).
        #[arg(long)]
        partner: String,
        /// customer (10000–69999) or supplier (70000–99999).
        #[arg(long)]
        side: String,
        #[arg(long)]
        number: u32,
        #[command(flatten)]
        mode: Mode,
    },
    /// The DATEV personal account numbers given to partners.
    AccountNumbers {
        company: String,
        #[command(flatten)]
        mode: Mode,
    },
    /// Change a company's plan.
    Plan { company: String, plan: String },
    /// Set a company's workflow; the first stage is where transactions start.
    Workflow {
        company: String,
        #[arg(required = true)]
        stages: Vec<String>,
    },
}

/// The arguments of `company create`.
#[derive(Args, Debug)]
pub struct CompanyCreateArgs {
    #[arg(long)]
    pub name: String,
    /// ISO 3166-1 alpha-2 country of the seller (decides the country rules).
    #[arg(long)]
    pub country: String,
    /// ISO 4217 book currency.
    #[arg(long)]
    pub currency: String,
    /// STARTER (the default), PROFESSIONAL or ENTERPRISE (only ENTERPRISE includes the API).
    #[arg(long)]
    pub plan: Option<String>,
    #[arg(long)]
    pub invoice_prefix: Option<String>,
    /// Default payment days (else the country's).
    #[arg(long)]
    pub payment_days: Option<i64>,
    /// IANA time zone (else the country's capital's).
    #[arg(long)]
    pub timezone: Option<String>,
    #[command(flatten)]
    pub particulars: Box<ParticularsArgs>,
}

/// The seller's particulars, as `company create` and `company set` take them.
#[derive(Args, Debug, Clone)]
pub struct ParticularsArgs {
    /// The registered name, when it differs from the company's name.
    #[arg(long)]
    pub legal_name: Option<String>,
    #[arg(long)]
    pub street: Option<String>,
    #[arg(long)]
    pub postal_code: Option<String>,
    #[arg(long)]
    pub city: Option<String>,
    /// Checked at once by the country of its own prefix.
    #[arg(long)]
    pub vat_id: Option<String>,
    /// The tax office's number (Steuernummer).
    #[arg(long)]
    pub tax_number: Option<String>,
    /// The register entry, e.g. "HRB 12345, Amtsgericht Hamburg".
    #[arg(long)]
    pub registration: Option<String>,
    #[arg(long)]
    pub contact_name: Option<String>,
    #[arg(long)]
    pub contact_phone: Option<String>,
    #[arg(long)]
    pub contact_email: Option<String>,
    /// SCHEME:VALUE with an EAS scheme (0204 Leitweg-ID, 9930 German VAT id,
    /// 0088 GLN, EM e-mail, …).
    #[arg(long)]
    pub electronic_address: Option<String>,
    /// Checked by its country's length and check digits; spaces allowed.
    #[arg(long)]
    pub iban: Option<String>,
    /// 8 or 11 characters.
    #[arg(long)]
    pub bic: Option<String>,
    #[arg(long)]
    pub account_holder: Option<String>,
    /// As the business letter names them (§35a GmbHG).
    #[arg(long)]
    pub managing_directors: Option<String>,
    /// sole-proprietor, registered-trader, gbr, partg, ohg, kg, gmbh-co-kg,
    /// gmbh, ug or ag (decides whether the EÜR may be chosen).
    #[arg(long)]
    pub legal_form: Option<String>,
    /// §19 UStG: invoices charge no VAT and say so.
    #[arg(long, conflicts_with = "no_small_business")]
    pub small_business: bool,
    /// Not a small business (the default): invoices charge VAT.
    #[arg(long)]
    pub no_small_business: bool,
}

/// What `company set --clear` may clear.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompanyClear {
    LegalName,
    Street,
    PostalCode,
    City,
    VatId,
    TaxNumber,
    Registration,
    ContactName,
    ContactPhone,
    ContactEmail,
    ElectronicAddress,
    Iban,
    Bic,
    AccountHolder,
    ManagingDirectors,
    LegalForm,
    PaymentDays,
    DatevAdviser,
    DatevClient,
}

#[derive(Subcommand, Debug)]
pub enum KeyCommand {
    /// Create a key; the full key is printed once, as `secret`.
    Create {
        #[arg(long)]
        company: String,
        #[arg(long)]
        name: String,
        /// production or sandbox.
        #[arg(long)]
        environment: String,
        /// Comma-separated scopes, or `all`.
        #[arg(long)]
        scopes: String,
        /// An ISO 8601 instant after which the key stops working.
        #[arg(long)]
        expires_at: Option<String>,
    },
    /// List a company's keys (never their secrets).
    List {
        #[arg(long)]
        company: String,
    },
    /// Revoke a key; it answers 401 from the next request on.
    Revoke { key: String },
}

#[derive(Subcommand, Debug)]
pub enum UserCommand {
    /// Add a person to a company with a role (a person new to kontor also
    /// needs a password, read from the first line of standard input).
    Create(UserCreateArgs),
    /// The people of a company with their roles.
    List {
        #[arg(long)]
        company: String,
    },
    /// Disable a person: they sign in nowhere and their sessions end; with
    /// --company, only in that company (the company keeps an enabled owner).
    Disable {
        email: String,
        #[arg(long)]
        company: Option<String>,
    },
    /// Enable a person disabled in a company again.
    Enable {
        email: String,
        #[arg(long)]
        company: String,
    },
    /// Give a person of a company another role there (the company keeps an enabled owner).
    Role {
        #[arg(long)]
        company: String,
        #[arg(long)]
        email: String,
        /// owner, accountant or viewer.
        role: String,
    },
    /// Make a one-time link (valid 24 hours) that sets a person's password;
    /// it ends their sessions when used. Prints its path.
    Reset {
        #[arg(long)]
        company: String,
        #[arg(long)]
        email: String,
        /// The address the screens are reached at, to print the whole link.
        #[arg(long, value_name = "URL")]
        public_url: Option<String>,
    },
    /// A person's two-factor sign-in.
    #[command(subcommand, name = "two-factor")]
    TwoFactor(TwoFactorCommand),
    /// Set a person's password (from the first line of standard input); their sessions end.
    Password {
        email: String,
        /// Read the password from the first line of standard input.
        #[arg(long, required = true)]
        password_stdin: bool,
    },
}

/// `user two-factor …`
#[derive(Subcommand, Debug)]
pub enum TwoFactorCommand {
    /// Reset a person's second factors (authenticator app, passkeys,
    /// recovery codes): they sign in with their password alone, and their
    /// sessions end. Recorded in the company's books.
    Reset {
        #[arg(long)]
        company: String,
        #[arg(long)]
        email: String,
    },
}

/// The arguments of `user create`.
#[derive(Args, Debug)]
pub struct UserCreateArgs {
    #[arg(long)]
    pub company: String,
    #[arg(long)]
    pub email: String,
    #[arg(long)]
    pub name: String,
    /// owner, accountant or viewer.
    #[arg(long)]
    pub role: String,
    /// Read the password from the first line of standard input.
    #[arg(long)]
    pub password_stdin: bool,
}
