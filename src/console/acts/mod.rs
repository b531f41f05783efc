//! The console's commands on the books, one file per command group of
//! `args`, each command read into the books' input types and run as one call
//! of the books in one transaction, its result printed as JSON (in the API's
//! shape where the API has one). Each act is given who acts, the person
//! `--as` names (an enabled person of the company whose role allows the act)
//! or else the system, and writes its audit row itself in the same
//! transaction; a command that only reads refuses `--as`. What the groups
//! share lives in `acting` and `options`, never here.

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
