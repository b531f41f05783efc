//! The HTTP surface: the server (accept loop, limits, shutdown), the REST
//! API under `/v1` (described by its OpenAPI document) and the
//! agent-protocol server at `/mcp`. Both only translate: they read their
//! wire format into the books' typed input, call the books, and render the
//! answer or the refusal.

pub mod connections;
pub mod error;
pub mod fields;
pub mod mcp;
pub mod openapi;
pub mod pipeline;
pub mod query;
pub mod rest;
pub mod server;
