//! The books: every act a person or a program performs on a company's
//! records and every read of them, as functions over a SQLite connection or
//! write transaction, taking typed input that checks itself. Tenant,
//! environment, numbering, country rules, the ledger and the events of an act
//! all live here, so they hold alike for REST, the agent tools and the console.
//!
//! One file (or folder) per part of the books, each holding its input types
//! (`…Input` as a caller gives it, checked into `New…`/`Change`/`Filter` by a
//! constructor that names every bad field, length limits as `pub const`s the
//! screens' forms read), its SQL next to the function that runs it, and its
//! wire form. An act takes the caller's `Tx` and the actor, and writes its
//! ledger entry, its open items, its events and its audit row in it.
//!
//! - `company.rs`: companies: their master data, plans, time zones and
//!   workflows (`StageKey`), created and changed only by a person; the plan
//!   check's source.
//! - `bill_lines.rs`: a bill's lines as a person reads them, each with the
//!   account of the chart its cost went to (`of_bill`).
//! - `receipts.rs`: a bill's receipt (a PDF, JPEG or PNG of at most 20 MB,
//!   told by its first bytes), attached once and kept unchanged ten years
//!   with its SHA-256 (`attach`, `of_bill`, `content`).
//! - `purchase_entry.rs`: a purchase entered in the books (`enter`): its
//!   rows, ledger entry, open payable and event, typed or received alike.
//! - `chart_accounts.rs`: the company's chart of accounts: the standard
//!   accounts of its chart and its own (`add`, `remove`), the account a
//!   bill's cost goes to (`cost_account`) and a journal line's chosen one
//!   (`resolve`).
//! - `particulars.rs`: the seller's particulars an invoice carries
//!   (`Particulars`), as given (`ParticularsInput`) and checked
//!   (`ParticularsChange`: each field left out, cleared or set).
//! - `tenancy.rs`: whose books an act works in: `tenant`, the one way a
//!   person's act names its books, and `owner`, the books a record named by
//!   its id alone belongs to (the console's and the screens' ways in).
//! - `customers.rs`: customers and suppliers (partners): the checks of a new
//!   one, numbering `K10001`…, agreed terms, the buyer's particulars (with
//!   the partner's IBAN, invoice e-mail address, consumer flag and
//!   language), the list with its search, `changes` (the count kept pages
//!   compare), the wire form.
//! - `suppliers.rs`: the partner a bill's supplier is: by name (`supplier`,
//!   `supplier_named`) or by a received e-invoice's particulars
//!   (`supplier_of`, `supplier_from`); `trusted_supplier`.
//! - `transactions.rs`: transactions (jobs): checked input, numbering
//!   `V<year>-<seq>`, workflow stages, filters and full-text search, partial
//!   updates, notes.
//! - `numbering.rs`: `take` and `peek`: one counter per (company,
//!   environment, series), advanced in the transaction that uses the number.
//! - `document_kinds.rs`: the kinds of documents the books hold, below every
//!   part that reads them: `DocumentType` (an invoice or its correction) and
//!   `PurchaseKind` (a bill or a supplier's credit).
//! - `settlement.rs`: the one act by which an open document owes less
//!   (`settle`): payments in against invoices (`pay_invoice`), out against
//!   bills (`pay_bill`), supplier credits applied to bills (`apply_credit`);
//!   a payment from a bank line, a difference settled without money
//!   (`settle_difference`), a customer's credit applied to an invoice
//!   (`apply_customer_credit`), and a settlement undone by a counter-posting
//!   (`reverse`): a bank line's, or a payment recorded by hand that a
//!   person takes back with a reason (`reverse_payment`).
//! - `settling.rs`: what the settlement act checks, written once and asked
//!   before anything is offered: a document that takes money, not more
//!   than it owes, the currency, the date order; how a bank line's money
//!   settles a document (`by_line`: paid, or kept as the customer's credit
//!   and applied when it came before the invoice).
//! - `payments.rs`: payments as recorded: `Method`, `Direction`,
//!   `TargetKind`, the wire form, an invoice's payments, one read back
//!   (`recorded`) and marked reversed; a person's reversal as given and
//!   checked (`Reversal`), and a supplier credit's application
//!   (`CreditRequest`). Names no act: recording and reversing are the
//!   settlement's.
//! - `partner_account.rs`: a partner's account for its page: the documents
//!   issued to it and the bills it sent (each a `Document`, read by one
//!   reader) with what is open and overdue, the
//!   payments, the reminders, the ledger's balance of its personal accounts.
//! - `account_sheet.rs`: one account's postings over a period
//!   (*Kontoblatt*, `sheet`): what a statement's account opens to.
//! - `reasoned.rs`: a person's dated act with its reason (`Reasoned`): a
//!   cancellation, a payment taken back, checked alike.
//! - `statements.rs`: the statements on the company's chart of accounts:
//!   the trial balance by account number (`trial_balance`), the profit and
//!   loss by § 275 (2) HGB (`profit_and_loss`) and the balance sheet by
//!   § 266 HGB (`balance_sheet`), each line with its accounts, the previous
//!   year beside them when asked.
//! - `tax_methods/`: the company's tax methods with the day each holds
//!   from (VAT on invoices or on payments, balance sheet or EÜR, the VAT
//!   return's period and extension): `on` a day, `history`, `set` by an
//!   owner from a period's first day.
//! - `discount.rs`: a discount (Skonto) with its tax: the postings a
//!   settlement books when the rest of a payment goes as a discount granted
//!   or received, per tax key from the document's own entry (§ 17 UStG).
//!   Pure.
//! - `purchases.rs`: bills and supplier credits recorded by a person, with
//!   their ledger entry, open payables and event; `enter`, which a received
//!   bill's booking shares: the purchase with its lines and amounts per tax
//!   key (a reverse charge's self-assessed VAT), its payment reference and
//!   the payee's IBAN.
//! - `sending.rs`: the acts of sending by mail: the owner's settings and
//!   texts, an issued invoice sent (the customer's format attached as
//!   stored), a test mail; the sends of an invoice.
//! - `ledger.rs`: the chart (`Account`), balanced postings (`Posting`,
//!   `post`), each line within a detail of its account (`Posting::of`),
//!   `tax_key`, `split_by_key`, the day sums per account and detail,
//!   balances, the trial balance with each account's details, profit and
//!   loss, balance sheet, closing (`close`, `check_open`, `is_final`). Only
//!   acts post.
//! - `attention.rs`: what needs a person's attention, most urgent first (read
//!   by the agent tools), and what is still open when the books are closed
//!   through a day (`still_open`). Read-only.
//! - `audit.rs`: who performed an act (`Actor`: a person, an API key or the
//!   system) and which (`Act`): `record`, the one row an act writes in its
//!   own transaction, and `history` / `history_of`. Every act that changes
//!   something takes `actor: &Actor` right after the tenant.
//! - `webhooks.rs`: a company's webhook endpoints as acts on its books
//!   (`register`, `disable`, `redeliver`): the outbox's work and the audit row
//!   in one transaction, since the outbox names no books.
//! - `drafts/`: drafts of invoices and quotes and their lines.
//! - `invoices/`: issued documents and the acts that make and move them.
//! - `received/`: received e-invoices and a person's decision on them.
//! - `bank/`: bank accounts, statement imports, their lines and matching.
//! - `report/`: open receivables and payables.
//! - `dunning/`: reminders.
//! - `export/`: the books handed to the tax adviser and a tax audit.
//! - `vat/`: the VAT return's figures and the EC sales list.
//! - `vat_due/`: VAT that falls due with the money: the lines an act posts
//!   for a company taxed on payments received (or a bill whose input tax
//!   waits for its payment), the register of what is not yet due, and the
//!   day a company is taxed on invoices again.
//! - `assets/`: fixed assets: recorded, depreciated, disposed of, and the
//!   register of a fiscal year.
//! - `euer/`: the cash-basis profit statement (EÜR) of a fiscal year on
//!   the lines of its Anlage EÜR, with the payments behind each line, and
//!   its PDF.

pub mod account_sheet;
pub mod assets;
pub mod attention;
pub mod audit;
pub mod bank;
pub mod bill_lines;
pub mod chart_accounts;
pub mod company;
pub mod customers;
pub mod discount;
pub mod document_kinds;
pub mod drafts;
pub mod dunning;
pub mod euer;
pub mod export;
pub mod invoices;
pub mod ledger;
pub mod numbering;
pub mod particulars;
pub mod partner_account;
pub mod payments;
pub mod purchase_entry;
pub mod purchases;
pub mod reasoned;
pub mod receipts;
pub mod received;
pub mod report;
pub mod sending;
pub mod settlement;
pub mod settling;
pub mod statements;
pub mod suppliers;
pub mod tax_methods;
pub mod tenancy;
pub mod transactions;
pub mod vat;
pub mod vat_due;
pub mod webhooks;
