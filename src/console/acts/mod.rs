//! The console's commands on the books, one file per command group of
//! `args`, each command read into the books' input types and run as one call
//! of the books in one transaction, its result printed as JSON (in the API's
//! shape where the API has one). Each act is given who acts, the person
//! `--as` names (an enabled person of the company whose role allows the act)
//! or else the system, and writes its audit row itself in the same
//! transaction; a command that only reads refuses `--as`. What the groups
//! share lives in `acting` and `options`, never here: this file only declares
//! the groups.
//!
//! - `company.rs`: `company create | show | set | plan | workflow`,
//!   `company account-number | account-numbers`: a company, its seller's
//!   particulars, payment days, DATEV settings, plan and workflow; partners'
//!   DATEV account numbers.
//! - `keys.rs`: `key create | list | revoke`.
//! - `users.rs`:
//!   `user create | list | disable | enable | role | password | reset`: the
//!   people, their roles, passwords and reset links; an act across kontor is
//!   recorded as the system's in every company of the person.
//! - `customers.rs`: `customer terms | set`: agreed payment days, the address
//!   and the buyer's particulars (IBAN, invoice e-mail address, consumer,
//!   language included).
//! - `drafts.rs`: `draft create | line | set | issue`.
//! - `payments.rs`: `payment record | reverse`: money in against an
//!   invoice; a payment recorded by hand taken back, with its reason.
//! - `invoices.rs`: `invoice cancel | document`.
//! - `purchases.rs`: `purchase record | pay | apply-credit` (a bill's VAT rate
//!   and the reverse charge included).
//! - `received.rs`:
//!   `purchase receive | show | list | book | refuse | original | trust`:
//!   received e-invoices.
//! - `books.rs`: `books close | trial-balance | profit-and-loss |
//!   balance-sheet | depreciate | assets | depreciation-rule`.
//! - `accounts.rs`: `account list | add | remove`: the company's chart of
//!   accounts and its own accounts.
//! - `assets.rs`: `asset add | list | show | classes | dispose`: fixed
//!   assets.
//! - `webhooks.rs`: `webhook deliveries | redeliver`.
//! - `bank.rs`: `bank account add | list`, `bank import` (each file its own
//!   transaction, exit 1 when one was refused), and the acts on lines:
//!   `bank lines | line | confirm | split | book | ignore | undo | tolerance`.
//! - `sending.rs`: `company mail | mail-text` (the password from a file, never
//!   printed), `invoice send | sends`.
//! - `dunning.rs`: `dunning run | send | base-rate | levels`.
//! - `export.rs`: `export datev | gobd`: the ZIP for the tax adviser, the GoBD
//!   folder for a tax audit, written where `--out` says.
//! - `vat.rs`: `vat return | ec-sales`: the figures of a month or quarter.

pub mod accounts;
pub mod assets;
pub mod bank;
pub mod books;
pub mod company;
pub mod customers;
pub mod drafts;
pub mod dunning;
pub mod export;
pub mod invoices;
pub mod keys;
pub mod payments;
pub mod purchases;
pub mod received;
pub mod sending;
pub mod users;
pub mod vat;
pub mod webhooks;
