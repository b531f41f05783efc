//! The one mapping from an error to the outside, for both HTTP surfaces: the
//! status, the stable `code` and the REST body `{fehler, code}`; the agent
//! protocol's JSON-RPC errors (its protocol faults and the codes they carry)
//! and the `{code, fehler}` of a tool's refusal. Nothing else in `http`
//! writes a status for an error, a code or a JSON-RPC error object.

use hyper::StatusCode;
use serde_json::{json, Value};

use crate::error::Error;
use crate::rules::catalogue::Reader;
use crate::rules::locale::Lang;

impl Error {
    /// The HTTP status of this refusal.
    pub fn status(&self) -> StatusCode {
        match self {
            Error::Unauthenticated => StatusCode::UNAUTHORIZED,
            Error::PlanRequired | Error::Forbidden => StatusCode::FORBIDDEN,
            Error::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            Error::Invalid(_) => StatusCode::BAD_REQUEST,
            Error::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Error::TooSlow(_) => StatusCode::REQUEST_TIMEOUT,
            Error::NotFound(_) => StatusCode::NOT_FOUND,
            Error::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            Error::IdempotencyConflict | Error::WrongState(_) | Error::Refused(_) => {
                StatusCode::CONFLICT
            }
            Error::Busy | Error::StorageFull => StatusCode::SERVICE_UNAVAILABLE,
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
            Error::Invalid(_)
            | Error::PayloadTooLarge
            | Error::TooSlow(_)
            | Error::MethodNotAllowed(_) => "ANFRAGE",
            Error::NotFound(_) => "NICHT_GEFUNDEN",
            Error::IdempotencyConflict => "IDEMPOTENZ_KONFLIKT",
            Error::WrongState(_) => "FALSCHER_ZUSTAND",
            Error::Refused(_) => "ABGELEHNT",
            Error::Busy => "AUSGELASTET",
            Error::StorageFull => "SPEICHER_VOLL",
            Error::Internal(_) => "INTERN",
        }
    }

    /// The REST body `{fehler, code}` (plus `wartesekunden` on 429), the
    /// sentence in `lang`; fields are named as the REST wire names them,
    /// which is the books' own naming.
    pub fn rest_body(&self, lang: Lang) -> Value {
        let reader = Reader::api(lang);
        let fehler = self.sentence_for(reader);
        let mut body = json!({ "fehler": fehler, "code": self.code() });
        if let Error::RateLimited { wait_seconds } = self {
            body["wartesekunden"] = json!(wait_seconds);
        }
        body
    }

    /// A tool's refusal as the agent protocol carries it: `{code, fehler}`,
    /// the sentence in `lang`, fields named by the tool's own argument names.
    pub fn tool_refusal(&self, lang: Lang, name: &dyn Fn(&str) -> String) -> Value {
        json!({ "code": self.code(), "fehler": self.sentence_to(Reader::api(lang), name) })
    }
}

/// A fault of the agent protocol itself (not of the books): a JSON-RPC error.
#[derive(Debug, Clone)]
pub enum RpcFault {
    /// The body is not JSON.
    Parse,
    /// The message is not a valid JSON-RPC request; the detail says why.
    InvalidRequest {
        message: String,
        data: Option<Value>,
    },
    /// No such method (of this revision).
    MethodNotFound,
    /// The parameters are unusable: unknown tool, missing capabilities, unreadable arguments.
    InvalidParams(String),
    /// Something broke inside; the detail is logged, never answered.
    Internal,
    /// A routing header does not equal the body (revision 2026-07-28).
    HeaderMismatch(String),
    /// The requested revision is not served (revision 2026-07-28).
    UnsupportedVersion { supported: Value, requested: Value },
}

impl RpcFault {
    /// An invalid request with a message and no data.
    pub fn invalid_request(message: impl Into<String>) -> RpcFault {
        RpcFault::InvalidRequest {
            message: message.into(),
            data: None,
        }
    }

    /// The JSON-RPC error code.
    pub fn code(&self) -> i64 {
        match self {
            RpcFault::Parse => -32700,
            RpcFault::InvalidRequest { .. } => -32600,
            RpcFault::MethodNotFound => -32601,
            RpcFault::InvalidParams(_) => -32602,
            RpcFault::Internal => -32603,
            RpcFault::HeaderMismatch(_) => -32020,
            RpcFault::UnsupportedVersion { .. } => -32022,
        }
    }

    fn message(&self) -> String {
        match self {
            RpcFault::Parse => "Parse error".into(),
            RpcFault::InvalidRequest { message, .. } => message.clone(),
            RpcFault::MethodNotFound => "Method not found".into(),
            RpcFault::InvalidParams(detail) => detail.clone(),
            RpcFault::Internal => "Internal error".into(),
            RpcFault::HeaderMismatch(detail) => format!("Header mismatch: {detail}"),
            RpcFault::UnsupportedVersion { .. } => "Unsupported protocol version".into(),
        }
    }

    fn data(&self) -> Option<Value> {
        match self {
            RpcFault::InvalidRequest { data, .. } => data.clone(),
            RpcFault::UnsupportedVersion {
                supported,
                requested,
            } => Some(json!({ "supported": supported, "requested": requested })),
            _ => None,
        }
    }

    /// The HTTP status a fault answers with when it ends the whole POST
    /// (revision 2026-07-28, and envelope faults of the older revisions).
    pub fn status(&self) -> StatusCode {
        match self {
            RpcFault::MethodNotFound => StatusCode::NOT_FOUND,
            RpcFault::Internal => StatusCode::INTERNAL_SERVER_ERROR,
            _ => StatusCode::BAD_REQUEST,
        }
    }

    /// The JSON-RPC response carrying this fault for request `id`.
    pub fn response(&self, id: &Value) -> Value {
        let mut error = json!({ "code": self.code(), "message": self.message() });
        if let Some(data) = self.data() {
            error["data"] = data;
        }
        json!({ "jsonrpc": "2.0", "id": id, "error": error })
    }
}

impl From<Error> for RpcFault {
    /// An error that reaches the protocol level: an internal one is logged and
    /// answered opaquely; anything else means the parameters were unusable.
    fn from(e: Error) -> RpcFault {
        match e {
            Error::Internal(detail) => {
                tracing::error!("{detail}");
                RpcFault::Internal
            }
            other => RpcFault::InvalidParams(other.sentence()),
        }
    }
}
