//! kontor: a self-hosted accounting service over one SQLite file. See the
//! README's architecture section for the map of these modules.

pub mod access;
pub mod address;
pub mod attention;
pub mod cli;
pub mod clock;
pub mod company;
pub mod customers;
pub mod db;
pub mod delivery;
pub mod demo;
pub mod drafts;
pub mod error;
pub mod events;
pub mod fields;
pub mod idempotency;
pub mod ident;
pub mod invoices;
pub mod iso;
pub mod jurisdiction;
pub mod keys;
pub mod ledger;
pub mod lock;
pub mod mcp;
pub mod migrations;
pub mod money;
pub mod numbering;
pub mod purchases;
pub mod query;
pub mod ratelimit;
pub mod report;
pub mod rest;
pub mod server;
pub mod tenant;
pub mod transactions;
pub mod webhooks;
