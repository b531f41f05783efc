//! The HTTP surface: the REST API under `/v1` (described by its OpenAPI
//! document), the agent-protocol server at `/mcp`, and the screens under
//! `/`. Each only translates: it reads its wire format into the books'
//! typed input, calls the books, and renders the answer or the refusal.
//!
//! The arrows inside point one way. `server` is the top (the process: accept
//! loop, workers, shutdown) and nothing imports it; `intake` below it takes
//! one request within its limits and hands it to its surface; the surfaces (`rest`, `mcp`, `screens`, `openapi`) import
//! the kernel `app` (the server's state, the answer, `in_store`) and, for
//! the API, `admission` (key → plan → budget), never each other; `error`,
//! `fields`, `query`, `kept_pages` and `connections` are leaves.

pub mod admission;
pub mod app;
pub mod connections;
pub mod error;
pub mod fields;
pub mod intake;
pub mod kept_pages;
pub mod mcp;
pub mod multipart;
pub mod openapi;
pub mod query;
pub mod rest;
pub mod screens;
pub mod server;
