//! kontor: a self-hosted accounting service over one SQLite file. See the
//! README's architecture section for the map of these modules.

pub mod access;
pub mod cli;
pub mod clock;
pub mod company;
pub mod customers;
pub mod db;
pub mod demo;
pub mod error;
pub mod fields;
pub mod idempotency;
pub mod ident;
pub mod iso;
pub mod keys;
pub mod numbering;
pub mod query;
pub mod ratelimit;
pub mod rest;
pub mod server;
pub mod tenant;
pub mod transactions;
