//! Mail: a company's SMTP settings with the password sealed (`settings`),
//! the texts of its mails (`templates`), one message composed once with
//! its attachments unchanged (`message`), the server and one attempt to
//! hand it a message (`transport`), and the mail outbox with its worker
//! threads (`delivery`). The acts that send (an invoice, a reminder, a test
//! mail) are the books'; they compose here and enqueue in their own
//! transaction. lettre speaks SMTP.

pub mod delivery;
pub mod message;
pub mod settings;
pub mod templates;
pub mod transport;
