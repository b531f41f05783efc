//! Mail: the mail a company sends through its own SMTP server. The acts
//! that send (an invoice, a reminder, a test mail) are the books'; they
//! compose here and enqueue in their own transaction. lettre speaks SMTP
//! over its blocking transport, on plain threads like the webhook worker.
//!
//! - `settings.rs`: a company's SMTP settings, checked; the password sealed
//!   by `store::sealed` when saved and opened only to send; `View`, what
//!   every surface shows (whether a password is set, never it).
//! - `templates.rs`: the subject and body of an invoice's and a reminder's
//!   mail in German and English, their placeholders, the check of a
//!   company's own texts.
//! - `message.rs`: one message composed once (sender, reply-to, the archive
//!   copy as a blind copy, attachments as their bytes), its envelope and
//!   Message-ID.
//! - `transport.rs`: the server's security (implicit TLS, STARTTLS required,
//!   none on loopback only), one attempt (`send`) and its outcome (sent,
//!   temporary, permanent), `scrub` of the password.
//! - `reach.rs`: where mail may go: a server on a public address, or one
//!   the operator allows (`serve --mail-allow`), checked when the settings
//!   are saved and again, against the resolved address, at each attempt.
//! - `delivery.rs`: the mail outbox: `enqueue` in the act's transaction, and
//!   `Mails` on the loop every outbox shares (`outbox::dispatch`): `claim`
//!   (the oldest due mail of each company, one per company in flight),
//!   `send`, `record`, the retry schedule.

pub mod delivery;
pub mod message;
pub mod reach;
pub mod settings;
pub mod templates;
pub mod transport;
