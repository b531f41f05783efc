//! The mailbox of received e-invoices: `serve --inbox imaps://user@host/FOLDER`
//! polls an IMAP folder, gives each file a message carries to the books to
//! receive, and moves the message to `kontor/done` (an e-invoice was in
//! it) or `kontor/refused` (none was), so nothing is read twice and nothing
//! is lost. The address (`address`), the IMAP session over TLS
//! (`session`), the message taken apart (`message`) and the polling
//! (`poll`) are its parts; the books decide what a file is. Plain threads,
//! no async, like the outbox's delivery worker.

pub mod address;
pub mod message;
pub mod poll;
pub mod session;
