//! kontor: a self-hosted accounting service over one SQLite file.
//! `ARCHITECTURE.md` maps the folders; in short, surfaces on top (`console`,
//! `http`), the books in the middle (`access`, `books`, `outbox`, `inbox`, the
//! mailbox of received e-invoices, and `documents`, the e-invoices the books
//! write and read), the rules and the storage below (`rules`, `store`), and
//! `error`, the one error type, under all of them. Arrows point down only; a
//! test (`tests/it/layers.rs`) keeps it so.
//!
//! Each folder's mod.rs names its files and what each owns; the files here:
//!
//! - `lib.rs` (this file): declares the ten modules.
//! - `main.rs`: the `kontor` binary: parses the command line and calls
//!   `console::run`; sets mimalloc as the global allocator. Nothing else.
//!
//! The folders each have their codemap; `error/` is the one error type
//! (`Error`): a refusal of input carries violations (`Violation`), each with
//! the field it concerns (the books' names: `postalCode`,
//! `lines[2].quantity`), what is wrong as a value (`Said`, worded by
//! `rules::catalogue`) and an optional hint; `Violations` collects all of an
//! input's at once. Storage errors convert with `From`. It decides nothing
//! about *when* to refuse, and knows no status code (that is `http::error`).

pub mod access;
pub mod books;
pub mod console;
pub mod documents;
pub mod error;
pub mod http;
pub mod inbox;
pub mod outbox;
pub mod rules;
pub mod store;
