//! The mailbox of received e-invoices: `serve --inbox imaps://user@host/FOLDER`
//! polls an IMAP folder, gives each file a message carries to the books to
//! receive, and moves the message to `kontor/done` (an e-invoice was in
//! it) or `kontor/refused` (none was), so nothing is read twice and nothing
//! is lost. Those two folders are the record of what was read: the inbox
//! keeps no state of its own, and whether a file is an e-invoice is for the
//! books and `documents::read` to say. Plain threads, no async, like the
//! outbox's workers.
//!
//! - `address.rs`: `imaps://user@host/FOLDER` (`imap://` only to a loopback
//!   address), never with a password.
//! - `session.rs`: one IMAP session over rustls: log in, list by UID, fetch
//!   (bounded), move to `kontor/done` or `kontor/refused`.
//! - `message.rs`: a mail taken apart into the files it carries.
//! - `poll.rs`: the polling: `poll` (each file handed to the books'
//!   `received::receive` in a transaction of its own, as the system's act,
//!   and the message moved), and `Poller::start`, a thread that polls at
//!   start and every interval until stopped.

pub mod address;
pub mod message;
pub mod poll;
pub mod session;
