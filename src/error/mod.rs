//! The one error type of kontor. Every layer refuses with it; the surfaces
//! turn it into their answer in one place each (`http::error` for the HTTP
//! status, the stable code and the JSON-RPC error; the console prints the
//! sentence). A refusal of the input carries a list of violations, each with
//! the field it concerns (as the books name it: `postalCode`,
//! `lines[2].quantity`), what is wrong with it and, where it helps, a hint; so
//! a verdict can name several rules and a screen can show each beside its
//! field. What a refusal says is a value (`said.rs`: a message and its
//! parameters); its words, in the reader's language, are the catalogue's
//! (`rules::catalogue`, which also writes an error's `Display`). This
//! module does not decide *when* something is refused.
//!
//! - `said.rs`: `Said`, what a refusal or a note says as a value, by part,
//!   and `Violation`, one thing wrong with an input (a reminder run that
//!   reaches no customer carries them),
//!   with the parts that carry other messages (bank, exports, received
//!   e-invoices, issuing, drafts, reminders); every part is named there.
//! - `params.rs`: the messages' typed parameters: the languages (`Lang`),
//!   an amount in minor units (`Sum`), and the small sets a message names.
//! - `input.rs`: what was typed or sent (`Input`), a request (`Request`),
//!   identifiers and codes (`Code`).
//! - `books.rs`: the books' parts that carry no other message (payments,
//!   the company and jobs, bills, fixed assets, the chart, mail).
//! - `people.rs`: people and sign-in (`Access`), webhooks (`Webhook`).
//! - `statement.rs`: what reading a bank statement file finds wrong
//!   (`FileFault`).

mod books;
mod input;
mod params;
mod people;
pub mod said;
mod statement;

pub use said::{Lang, Said, Violation};

/// Everything that can refuse a request or a console command.
#[derive(Debug)]
pub enum Error {
    /// No key, or an unreadable, unknown, revoked or expired key (one answer for all).
    Unauthenticated,
    /// The company's plan does not include the API.
    PlanRequired,
    /// The key's rate budget is empty; the next token arrives after this many seconds.
    RateLimited { wait_seconds: u64 },
    /// The key lacks a scope or permission the address needs.
    Forbidden,
    /// The input cannot be read: a field is missing, mistyped or malformed.
    Invalid(Vec<Violation>),
    /// The body is larger than the limit.
    PayloadTooLarge,
    /// The body did not arrive within the deadline (seconds).
    TooSlow(u64),
    /// No such record for this company and environment (also: another
    /// company's record); what was looked for.
    NotFound(Box<Said>),
    /// A known address asked with a method it does not answer; carries the `Allow` value.
    MethodNotAllowed(std::borrow::Cow<'static, str>),
    /// The Idempotency-Key was used for a different request.
    IdempotencyConflict,
    /// The record's state does not allow the change; the sentence says why.
    WrongState(Box<Said>),
    /// A rule of the books refused the change; the violations say which.
    Refused(Vec<Violation>),
    /// The server is busy (no connection, or the company's share of them, freed
    /// up in time); asking again in a moment is answered.
    Busy,
    /// The data file's disk is full: nothing was written; reads go on, and
    /// writes are taken again once space is freed.
    StorageFull,
    /// Something broke inside; the detail is logged, never answered.
    Internal(String),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An unreadable input, said in one sentence about the whole.
    pub fn bad_request(sentence: impl Into<Said>) -> Self {
        Error::Invalid(vec![Violation::whole(sentence)])
    }

    /// An unreadable field: `message` is a predicate such as "is missing".
    pub fn invalid(field: impl Into<String>, message: impl Into<Said>) -> Self {
        Error::Invalid(vec![Violation::at(field, message)])
    }

    /// A refusal by a rule, said in one sentence.
    pub fn refused(sentence: impl Into<Said>) -> Self {
        Error::Refused(vec![Violation::whole(sentence)])
    }

    /// A refusal by a rule about one field.
    pub fn refused_at(field: impl Into<String>, message: impl Into<Said>) -> Self {
        Error::Refused(vec![Violation::at(field, message)])
    }

    /// No such record: `what` names it (`Said::Record`, or a noun phrase).
    pub fn not_found(what: impl Into<Said>) -> Self {
        Error::NotFound(Box::new(what.into()))
    }

    /// A state of the record that does not allow the change, in a sentence.
    pub fn wrong_state(sentence: impl Into<Said>) -> Self {
        Error::WrongState(Box::new(sentence.into()))
    }

    pub fn internal(detail: impl std::fmt::Display) -> Self {
        Error::Internal(detail.to_string())
    }

    /// A refusal of an act (unreadable, refused, a record's state, a record
    /// not found) as its violations, kept to be said later in the reader's
    /// words (an import's notes); any other error as it is.
    pub fn into_violations(self) -> std::result::Result<Vec<Violation>, Error> {
        match self {
            Error::Invalid(list) | Error::Refused(list) => Ok(list),
            Error::WrongState(said) => Ok(vec![Violation::whole(*said)]),
            Error::NotFound(what) => Ok(vec![Violation::whole(Said::NotFound(what))]),
            other => Err(other),
        }
    }

    /// The violations of an unreadable or refused input (empty for other errors).
    pub fn violations(&self) -> &[Violation] {
        match self {
            Error::Invalid(v) | Error::Refused(v) => v,
            _ => &[],
        }
    }

    /// The same error with every violation's field placed under `prefix`.
    pub fn under(self, prefix: &str) -> Self {
        let place = |v: Vec<Violation>| v.into_iter().map(|v| v.under(prefix)).collect();
        match self {
            Error::Invalid(v) => Error::Invalid(place(v)),
            Error::Refused(v) => Error::Refused(place(v)),
            other => other,
        }
    }
}

impl std::error::Error for Error {}

impl From<rusqlite::Error> for Error {
    fn from(e: rusqlite::Error) -> Self {
        // SQLITE_FULL: the disk (or the file system's quota) has no room.
        if e.sqlite_error_code() == Some(rusqlite::ErrorCode::DiskFull) {
            tracing::error!(
                "storage: {e}: the disk is full; writes are refused until space is freed"
            );
            return Error::StorageFull;
        }
        Error::Internal(format!("storage: {e}"))
    }
}

impl From<r2d2::Error> for Error {
    fn from(e: r2d2::Error) -> Self {
        Error::Internal(format!("connection pool: {e}"))
    }
}

/// Collects the violations of one input, so a refusal names all of them at
/// once. An unreadable field (400) outranks a rule's refusal (409), as in the
/// order of checks.
#[derive(Debug, Default)]
pub struct Violations {
    invalid: Vec<Violation>,
    refused: Vec<Violation>,
}

impl Violations {
    pub fn new() -> Violations {
        Violations::default()
    }

    /// Notes an unreadable field.
    pub fn invalid(&mut self, field: impl Into<String>, message: impl Into<Said>) {
        self.invalid.push(Violation::at(field, message));
    }

    /// Notes a rule's refusal of a field.
    pub fn refused(&mut self, field: impl Into<String>, message: impl Into<Said>) {
        self.refused.push(Violation::at(field, message));
    }

    /// Notes a rule's refusal of the whole input, in a sentence.
    pub fn refuse(&mut self, sentence: impl Into<Said>) {
        self.refused.push(Violation::whole(sentence));
    }

    /// Takes the value of a check, or notes its violations and gives `None`.
    ///
    /// Fails when the check failed for another reason than its input
    /// (storage, not found), which ends the collecting.
    pub fn take<T>(&mut self, checked: Result<T>) -> Result<Option<T>> {
        match checked {
            Ok(value) => Ok(Some(value)),
            Err(Error::Invalid(v)) => {
                self.invalid.extend(v);
                Ok(None)
            }
            Err(Error::Refused(v)) => {
                self.refused.extend(v);
                Ok(None)
            }
            Err(other) => Err(other),
        }
    }

    /// Whether nothing was noted.
    pub fn is_empty(&self) -> bool {
        self.invalid.is_empty() && self.refused.is_empty()
    }

    /// Ends the collecting.
    ///
    /// Fails with `Invalid` when a field was unreadable, else with `Refused`
    /// when a rule refused one.
    pub fn finish(self) -> Result<()> {
        if !self.invalid.is_empty() {
            Err(Error::Invalid(self.invalid))
        } else if !self.refused.is_empty() {
            Err(Error::Refused(self.refused))
        } else {
            Ok(())
        }
    }
}

/// Whether a network wait's time limit ended what failed: among the
/// error's causes an I/O error of kind `TimedOut`, or `WouldBlock`, as a
/// socket's read or write limit arrives on Linux (EAGAIN), which the mail
/// and IMAP clients pass on as a plain network error.
pub fn is_time_out(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(e);
    while let Some(c) = cause {
        if let Some(io) = c.downcast_ref::<std::io::Error>() {
            if matches!(
                io.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ) {
                return true;
            }
        }
        cause = c.source();
    }
    false
}

/// What a refusal of `got` says when a field takes one of `values`:
/// `is a, b or c, not "x"`. Every such refusal is made by this one
/// function (the stored enums' `not_one_of` call it with their spellings).
pub fn not_one_of(values: &[&str], got: &str) -> Said {
    Said::Input(said::Input::NotOneOf {
        values: values.iter().map(|v| v.to_string()).collect(),
        got: got.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn violations_collect_unreadable_fields_before_refused_ones() {
        let mut v = Violations::new();
        v.invalid("postalCode", said::Input::Missing);
        v.refused("stage", "is not in the workflow");
        let e = v.finish().unwrap_err();
        assert!(matches!(e, Error::Invalid(ref list) if list.len() == 1));
        let nested = Error::invalid("quantity", said::Input::Missing).under("lines[2]");
        assert_eq!(
            nested.violations()[0].field.as_deref(),
            Some("lines[2].quantity")
        );
    }
}
