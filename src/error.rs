//! The one error type of kontor and its one mapping to the outside: the HTTP
//! status, the stable `code` and the body `{fehler, code}`. Storage errors convert
//! with `From` and are answered opaquely; their detail goes to the log only.
//! This module does not decide *when* something is refused, only how a refusal
//! looks.

use hyper::StatusCode;
use serde_json::json;

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
    /// The request cannot be read; the sentence names what is wrong.
    BadRequest(String),
    /// The body is larger than the limit.
    PayloadTooLarge,
    /// No such record for this company and environment (also: another company's record).
    NotFound(String),
    /// A known address asked with a method it does not answer; carries the `Allow` value.
    MethodNotAllowed(&'static str),
    /// The Idempotency-Key was used for a different request.
    IdempotencyConflict,
    /// The record's state does not allow the change.
    WrongState(String),
    /// A domain rule refused the change; the sentence says which.
    Refused(String),
    /// Something broke inside; the detail is logged, never answered.
    Internal(String),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn bad_request(sentence: impl Into<String>) -> Self {
        Error::BadRequest(sentence.into())
    }

    pub fn refused(sentence: impl Into<String>) -> Self {
        Error::Refused(sentence.into())
    }

    pub fn not_found(what: impl Into<String>) -> Self {
        Error::NotFound(what.into())
    }

    pub fn wrong_state(sentence: impl Into<String>) -> Self {
        Error::WrongState(sentence.into())
    }

    pub fn internal(detail: impl std::fmt::Display) -> Self {
        Error::Internal(detail.to_string())
    }

    /// The HTTP status of this refusal.
    pub fn status(&self) -> StatusCode {
        match self {
            Error::Unauthenticated => StatusCode::UNAUTHORIZED,
            Error::PlanRequired | Error::Forbidden => StatusCode::FORBIDDEN,
            Error::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            Error::BadRequest(_) => StatusCode::BAD_REQUEST,
            Error::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Error::NotFound(_) => StatusCode::NOT_FOUND,
            Error::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            Error::IdempotencyConflict | Error::WrongState(_) | Error::Refused(_) => {
                StatusCode::CONFLICT
            }
            Error::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The stable code a program acts on.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Unauthenticated => "UNAUTHENTICATED",
            Error::PlanRequired => "PLAN_ERFORDERLICH",
            Error::RateLimited { .. } => "ZU_VIELE_ANFRAGEN",
            Error::Forbidden => "KEINE_BERECHTIGUNG",
            Error::BadRequest(_) | Error::PayloadTooLarge | Error::MethodNotAllowed(_) => "ANFRAGE",
            Error::NotFound(_) => "NICHT_GEFUNDEN",
            Error::IdempotencyConflict => "IDEMPOTENZ_KONFLIKT",
            Error::WrongState(_) => "FALSCHER_ZUSTAND",
            Error::Refused(_) => "ABGELEHNT",
            Error::Internal(_) => "INTERN",
        }
    }

    /// The sentence for a person. It may change between releases; the code may not.
    pub fn sentence(&self) -> String {
        match self {
            Error::Unauthenticated => {
                "The API key is missing, unreadable, unknown, revoked or expired.".into()
            }
            Error::PlanRequired => {
                "The company's plan does not include the API; it needs the Enterprise plan.".into()
            }
            Error::RateLimited { wait_seconds } => {
                format!("The rate budget of this key is used up; try again in {wait_seconds} s.")
            }
            Error::Forbidden => "The key lacks a scope this address needs.".into(),
            Error::BadRequest(s) | Error::WrongState(s) | Error::Refused(s) => s.clone(),
            Error::PayloadTooLarge => "The request body is larger than 1 MiB.".into(),
            Error::NotFound(what) => format!("{what} was not found."),
            Error::MethodNotAllowed(allow) => {
                format!("This address does not answer this method; it answers {allow}.")
            }
            Error::IdempotencyConflict => {
                "This Idempotency-Key was already used for a different request.".into()
            }
            Error::Internal(_) => "Something went wrong inside kontor; nothing was changed.".into(),
        }
    }

    /// The JSON body `{fehler, code}` (plus `wartesekunden` on 429).
    pub fn body(&self) -> serde_json::Value {
        let mut body = json!({ "fehler": self.sentence(), "code": self.code() });
        if let Error::RateLimited { wait_seconds } = self {
            body["wartesekunden"] = json!(wait_seconds);
        }
        body
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Internal(detail) => write!(f, "internal error: {detail}"),
            other => f.write_str(&other.sentence()),
        }
    }
}

impl std::error::Error for Error {}

impl From<rusqlite::Error> for Error {
    fn from(e: rusqlite::Error) -> Self {
        Error::Internal(format!("storage: {e}"))
    }
}

impl From<r2d2::Error> for Error {
    fn from(e: r2d2::Error) -> Self {
        Error::Internal(format!("connection pool: {e}"))
    }
}
