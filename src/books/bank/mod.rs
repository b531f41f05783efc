//! The company's bank: its bank accounts, the statement files imported into
//! them (one transaction a file, duplicates counted at three levels), their
//! lines matched against the open items, what a line does to the books
//! through the one settlement act, and a person's acts on a line. Reading a
//! statement file is `documents::statements`'; settling a document is
//! `books::settlement`'s, never done another way here.
//!
//! - `accounts.rs`: bank accounts (IBAN, or bank code and number), `find` by
//!   how a statement names its account, the fee tolerance.
//! - `import.rs`: `file`, the import act: one file in one transaction, stored
//!   with its SHA-256 before it is read; duplicates counted by file,
//!   statement and entry; the balance chain's breaks noted; a camt.054
//!   splitting a batch; the lines stored, then matched against the ladder in
//!   the file's order: certain matches settled, suggestions kept (those the
//!   settlement act takes), returned direct debits taking back what they
//!   returned; the suggestions its settlements touch computed again.
//! - `entry_keys.rs`: an entry's keys (what makes it the same money: the
//!   bank's reference where it tells entries apart, else a digest) and the
//!   break in a balance chain (`gap`). Pure.
//! - `matching.rs`: the matching ladder (a)–(f) over a line's facts and the
//!   open items (`Ladder::place`, `judge`), a bill's cash discount in time
//!   a full fit. Pure.
//! - `items.rs`: the open invoices and bills and the partners' known IBANs,
//!   as the ladder reads them.
//! - `lines.rs`: a line as stored and shown (`State`, suggestions,
//!   settlements), what it has left, the list with its search, `books_of`.
//! - `suggest.rs`: the suggestions a line offers, only those the settlement
//!   act would take (`offer`), computed again when a document they name
//!   changes (`refresh`).
//! - `apply.rs`: what a line does to the books: `settle` (money paid
//!   before its invoice kept as the customer's credit and applied), `book`
//!   (the accounts by the line's direction, `accounts_for`), `difference`,
//!   `take_back`, `undo`, each writing its row of `bank_settlements`.
//! - `candidates.rs`: the open documents a person may pick for a line,
//!   searched and ranked by how well they fit, and how ticked ones fill a
//!   split (`fill`).
//! - `balances.rs`: the statements a list of lines comes from, with their
//!   accounts and balances, and each line's running balance.
//! - `acts.rs`: a person's acts on a line: `confirm`, `split`, `book`,
//!   `ignore`, `undo`.

pub mod accounts;
pub mod acts;
pub mod apply;
pub mod balances;
pub mod candidates;
pub mod entry_keys;
pub mod import;
pub mod items;
pub mod lines;
pub mod matching;
pub mod suggest;
