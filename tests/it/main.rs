//! The integration tests: every test starts its own server in-process on port 0
//! over a fresh temporary data file and talks to it through HTTP and the console.

mod adviser;
mod audit;
mod books;
mod codemap;
mod console;
mod customers;
mod durability;
mod einvoices;
mod hardening;
mod hostile;
mod idempotency;
mod layers;
mod ledger;
mod lock;
mod mcp;
mod mcp_client;
mod migrations;
mod openapi;
mod particulars;
mod pipeline;
mod receiver;
mod screens;
mod screens_adviser;
mod screens_books;
mod screens_drafts;
mod screens_invoices;
mod screens_settings;
mod settlement;
mod stored;
mod support;
mod surfaces;
mod tenancy;
mod transactions;
mod webhooks;
