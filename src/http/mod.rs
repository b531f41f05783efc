//! The HTTP surface: the server (accept loop, limits, shutdown), the REST
//! API under `/v1` (described by its OpenAPI document), the
//! agent-protocol server at `/mcp`, and the screens under `/`. Each only
//! translates: it reads its wire format into the books' typed input, calls
//! the books, and renders the answer or the refusal.

pub mod admission;
pub mod app;
pub mod connections;
pub mod error;
pub mod fields;
pub mod kept_pages;
pub mod mcp;
pub mod openapi;
pub mod query;
pub mod rest;
pub mod screens;
pub mod server;
