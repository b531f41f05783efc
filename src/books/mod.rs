//! The books: every act a person or a program performs on a company's
//! records and every read of them, as functions over a SQLite connection or
//! write transaction, taking typed input that checks itself. Tenant,
//! environment, numbering, country rules, the ledger and the events of an act
//! all live here, so they hold alike for REST, the agent tools and the console.

pub mod attention;
pub mod audit;
pub mod bank;
pub mod company;
pub mod customers;
pub mod discount;
pub mod document_kinds;
pub mod drafts;
pub mod dunning;
pub mod export;
pub mod invoices;
pub mod ledger;
pub mod numbering;
pub mod particulars;
pub mod purchases;
pub mod received;
pub mod report;
pub mod sending;
pub mod settlement;
pub mod suppliers;
pub mod tenancy;
pub mod transactions;
pub mod vat;
pub mod webhooks;
