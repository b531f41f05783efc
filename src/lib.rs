//! kontor: a self-hosted accounting service over one SQLite file.
//! `ARCHITECTURE.md` maps these folders and their files; in short, surfaces
//! on top (`console`, `http`), the books in the middle (`access`, `books`,
//! `outbox`, and `documents`, the e-invoices the books write), the rules
//! and the storage below (`rules`, `store`), and `error`, the one error
//! type, under all of them. Arrows point down only; a test
//! (`tests/it/layers.rs`) keeps it so.

pub mod access;
pub mod books;
pub mod console;
pub mod documents;
pub mod error;
pub mod http;
pub mod outbox;
pub mod rules;
pub mod store;
