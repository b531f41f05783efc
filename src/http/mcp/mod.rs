//! The agent-protocol (MCP) server at `/mcp`: JSON-RPC over one POST endpoint,
//! stateless, with the same keys, plan check and rate budget as REST; the
//! company is always the key's. Two eras on one endpoint: a request whose
//! `params._meta` names `io.modelcontextprotocol/protocolVersion` follows
//! revision 2026-07-28 (no `initialize`; headers mirror the body; results
//! carry `resultType`); any other follows the initialize-based revisions
//! 2025-11-25, 2025-06-18 and 2025-03-26 (batches only for the last). Every
//! JSON-RPC error comes from `http::error`; no rule lives here.
//!
//! Here, the transport and the eras: `precheck` (the `Host` and `Origin`
//! checks before the key), `parse`, `may_write`, `handle` (through
//! `admission::with_key_confirmed`), `refused`.
//!
//! - `tools.rs`: the sixteen tools: their table (name, annotations, the
//!   `Operation` they need, schemas), each tool's snake_case arguments read
//!   into the books' input (`JsonFields`), one books call, the result; a
//!   business refusal is a tool result with `isError: true`, a protocol fault
//!   an `RpcFault`; a refused argument is spelled as the tool's with
//!   `rules::text::camel_to`.
//! - `schemas.rs`: the JSON schemas of the tools' inputs and outputs, as
//!   `tools/list` publishes them.

mod schemas;
mod tools;

use base64::alphabet;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine;
use hyper::StatusCode;
use rusqlite::Connection;
use serde_json::{json, Value};

use crate::error::Error;
use crate::http::admission::{self, Admitted, Turned};
use crate::http::app::{rate_headers, refusal, Answer, App, Request};
use crate::http::error::RpcFault;
use tools::Context;

/// The initialize-based revisions served, newest first.
pub const VERSIONS: [&str; 3] = ["2025-11-25", "2025-06-18", "2025-03-26"];
/// The per-request revision served.
pub const MODERN: &str = "2026-07-28";
/// Every revision served, newest first.
const ALL_VERSIONS: [&str; 4] = [MODERN, "2025-11-25", "2025-06-18", "2025-03-26"];
/// Most messages one batch may hold.
const MAX_BATCH: usize = 100;
/// How long a client may keep `tools/list` and `server/discover` answers.
const TTL_MS: u64 = 60_000;
/// The revision assumed when a request names none.
const UNNAMED_VERSION: &str = "2025-03-26";

const INSTRUCTIONS: &str = "The books of the company your key belongs to: customers, issued invoices, \
transactions, receivables, payables and the ledger's reports. Drafts you create are issued by a person in the product.";

/// What `/mcp` needs of a request besides what REST reads.
#[derive(Debug, Default, Clone)]
pub struct Headers {
    pub origin: Option<String>,
    pub host: Option<String>,
    pub protocol_version: Option<String>,
    pub method: Option<String>,
    pub name: Option<String>,
    /// A routing header that came more than once (refused: the body decides).
    pub duplicated: Option<&'static str>,
}

/// Decodes a header value in the `=?base64?…?=` sentinel form (else returns it as is).
fn header_value(raw: &str) -> Option<String> {
    match raw
        .strip_prefix("=?base64?")
        .and_then(|r| r.strip_suffix("?="))
    {
        None => Some(raw.to_string()),
        Some(encoded) => GeneralPurpose::new(
            &alphabet::STANDARD,
            GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
        )
        .decode(encoded)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok()),
    }
}

fn answer(
    status: StatusCode,
    body: Option<Value>,
    headers: Vec<(&'static str, String)>,
    key_id: Option<String>,
) -> Answer {
    Answer {
        status,
        headers,
        body: body
            .map(|b| serde_json::to_vec(&b).unwrap_or_default())
            .unwrap_or_default(),
        key_id,
    }
}

/// The answer of a fault that ends the whole POST.
fn fault(
    fault: RpcFault,
    status: StatusCode,
    headers: Vec<(&'static str, String)>,
    key_id: Option<String>,
) -> Answer {
    answer(status, Some(fault.response(&Value::Null)), headers, key_id)
}

/// The host part of a `Host` header or an origin URL, lower case, without port.
fn host_of(text: &str) -> String {
    let text = text.trim().to_ascii_lowercase();
    let text = text
        .split_once("://")
        .map_or(text.as_str(), |(_, rest)| rest)
        .to_string();
    let authority = text.split('/').next().unwrap_or("");
    if let Some(rest) = authority.strip_prefix('[') {
        return format!("[{}]", rest.split(']').next().unwrap_or(""));
    }
    authority
        .rsplit_once(':')
        .map_or(authority, |(h, _)| h)
        .to_string()
}

/// Whether the request's Origin (when present) and Host are among the allowed hosts.
fn origin_allowed(headers: &Headers, allowed: &[String]) -> bool {
    let ok = |h: &str| allowed.iter().any(|a| *a == host_of(h));
    headers.origin.as_deref().is_none_or(ok) && headers.host.as_deref().is_some_and(ok)
}

/// A `/mcp` body, parsed once: none when it was over the size limit.
pub type Parsed = Option<serde_json::Result<Value>>;

/// Parses the body of a `/mcp` request (an object with a key twice is no
/// JSON kontor reads).
pub fn parse(req: &Request) -> Parsed {
    req.body.as_deref().map(|body| {
        crate::http::fields::no_repeated_keys(body)?;
        serde_json::from_slice::<Value>(body)
    })
}

/// Whether a `/mcp` body may write (a create tool, alone or in a batch): such
/// requests wait for the writer on a blocking thread; all others are reads.
pub fn may_write(parsed: &Parsed) -> bool {
    let writes = |m: &Value| {
        m["method"] == "tools/call" && m["params"]["name"].as_str().is_some_and(tools::writes)
    };
    match parsed {
        Some(Ok(Value::Array(items))) => items.iter().any(writes),
        Some(Ok(single)) => writes(single),
        _ => false,
    }
}

/// A message alone, or the first of a batch (null for an empty one).
fn first_message(message: &Value) -> &Value {
    match message {
        Value::Array(items) => items.first().unwrap_or(&Value::Null),
        single => single,
    }
}

/// The checks of a `/mcp` request that need no key: POST only, the Origin
/// and Host allowed.
///
/// Fails with the answer to the refusal.
pub fn precheck(app: &App, req: &Request, headers: &Headers) -> std::result::Result<(), Answer> {
    if req.method != hyper::Method::POST {
        return Err(refusal(
            &Error::MethodNotAllowed("POST".into()),
            req.lang,
            Vec::new(),
            None,
        ));
    }
    if !origin_allowed(headers, &app.mcp_hosts) {
        let denied = RpcFault::invalid_request("Origin or Host not allowed");
        return Err(fault(denied, StatusCode::FORBIDDEN, Vec::new(), None));
    }
    Ok(())
}

/// A refused key as the agent endpoint answers it: 401 names the realm and
/// the error, as an OAuth-aware client expects.
pub fn refused(turned: Turned) -> Answer {
    match turned.error {
        Error::Unauthenticated => {
            let mut a = refusal(&Error::Unauthenticated, turned.lang, Vec::new(), None);
            a.headers = vec![(
                "WWW-Authenticate",
                r#"Bearer realm="kontor", error="invalid_token""#.into(),
            )];
            a
        }
        _ => turned.answer(),
    }
}

/// Serves one admitted POST to `/mcp` on `conn`; `writes` is
/// `may_write(&parsed)` (a call that writes waits for the writer: run it on
/// a blocking thread).
pub fn handle(
    app: &App,
    conn: &Connection,
    req: &Request,
    headers: &Headers,
    parsed: Parsed,
    writes: bool,
    admitted: Admitted,
) -> Answer {
    // A request that only reads does so in one snapshot; one that creates
    // must see its own writes.
    let reads = !writes && matches!(parsed, Some(Ok(_)));
    admission::with_key_confirmed(
        app,
        conn,
        req,
        admitted,
        reads,
        refused,
        |conn, admitted| answer_message(app, conn, req, headers, parsed, admitted),
    )
}

fn answer_message(
    app: &App,
    conn: &rusqlite::Connection,
    req: &Request,
    headers: &Headers,
    parsed: Parsed,
    admitted: Admitted,
) -> Answer {
    let Admitted { key, allowance } = admitted;
    let mut rate = rate_headers(&allowance);
    let Some(parsed) = parsed else {
        let too_large = RpcFault::invalid_request("The body is larger than 1 MiB");
        return fault(too_large, StatusCode::PAYLOAD_TOO_LARGE, rate, Some(key.id));
    };
    let Ok(message) = parsed else {
        return fault(RpcFault::Parse, StatusCode::BAD_REQUEST, rate, Some(key.id));
    };
    let context = Context {
        app,
        conn,
        key: &key,
        lang: req.lang,
    };
    let modern = first_message(&message)
        .pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
        .is_some()
        || headers.protocol_version.as_deref() == Some(MODERN);
    // Each item of a batch spends from the budget like a request of its own.
    if let Value::Array(items) = &message {
        if items.len() > MAX_BATCH {
            let too_many = RpcFault::invalid_request("A batch holds at most 100 messages");
            return fault(too_many, StatusCode::BAD_REQUEST, rate, Some(key.id));
        }
        if items.len() > 1 {
            // All of the batch or none of it.
            let allowance = app.limiter.take(&key.id, items.len() as u64 - 1);
            if !allowance.allowed {
                let wait_seconds = allowance.retry_after_seconds.max(1);
                return refusal(
                    &Error::RateLimited { wait_seconds },
                    req.lang,
                    rate_headers(&allowance),
                    Some(key.id),
                );
            }
            rate = rate_headers(&allowance);
        }
    }
    if modern {
        let (status, reply, stream) = modern_era(&context, message, headers);
        let mut answer = answer(status, reply, rate, Some(key.id.clone()));
        if let Some(stream) = stream {
            answer
                .headers
                .push(("Content-Type", "text/event-stream".into()));
            answer.headers.push(("X-Accel-Buffering", "no".into()));
            answer.body = stream.into_bytes();
        }
        return answer;
    }
    let (status, reply) = initialize_era(&context, message, headers.protocol_version.as_deref());
    answer(status, reply, rate, Some(key.id.clone()))
}

/// Revision 2026-07-28: one request per POST, its version and the client's
/// capabilities in `_meta`, the routing headers equal to the body; the
/// answer is JSON, or for `subscriptions/listen` a short event stream.
fn modern_era(
    c: &Context,
    message: Value,
    h: &Headers,
) -> (StatusCode, Option<Value>, Option<String>) {
    let ended = |id: &Value, f: RpcFault| (f.status(), Some(f.response(id)), None);
    let Value::Object(m) = message else {
        return ended(
            &Value::Null,
            RpcFault::invalid_request("Invalid Request: one JSON-RPC request per POST"),
        );
    };
    let method = m
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    if m.get("jsonrpc").and_then(Value::as_str) != Some("2.0") || method.is_empty() {
        return ended(
            &m.get("id").cloned().unwrap_or(Value::Null),
            RpcFault::invalid_request("Invalid Request"),
        );
    }
    let Some(id) = m.get("id").cloned() else {
        return (StatusCode::ACCEPTED, None, None); // a notification: accepted, nothing to answer
    };
    if !(id.is_string() || id.is_i64() || id.is_u64()) {
        return ended(
            &Value::Null,
            RpcFault::invalid_request("Invalid Request: id must be a string or an integer"),
        );
    }
    let params = m.get("params").cloned().unwrap_or(json!({}));
    let meta = &params["_meta"];
    // Capabilities, then the routing headers, then the version.
    if !meta["io.modelcontextprotocol/clientCapabilities"].is_object() {
        return ended(
            &id,
            RpcFault::InvalidParams(
                "Invalid params: _meta needs io.modelcontextprotocol/clientCapabilities".into(),
            ),
        );
    }
    let requested = meta["io.modelcontextprotocol/protocolVersion"].clone();
    if !requested.is_string() {
        return ended(
            &id,
            RpcFault::InvalidParams(
                "Invalid params: _meta needs io.modelcontextprotocol/protocolVersion".into(),
            ),
        );
    }
    let mismatch = |what: String| ended(&id, RpcFault::HeaderMismatch(what));
    if let Some(header) = h.duplicated {
        return mismatch(format!("{header} is sent more than once"));
    }
    if h.protocol_version.as_deref() != requested.as_str() {
        return mismatch("MCP-Protocol-Version must equal the body's protocol version".into());
    }
    if h.method.as_deref() != Some(method.as_str()) {
        return mismatch("Mcp-Method must equal the body's method".into());
    }
    if method == "tools/call" {
        let name = params["name"].as_str().unwrap_or("");
        if h.name.as_deref().and_then(header_value).as_deref() != Some(name) {
            return mismatch("Mcp-Name must equal the body's params.name".into());
        }
    }
    if requested.as_str() != Some(MODERN) {
        return ended(
            &id,
            RpcFault::UnsupportedVersion {
                supported: json!(ALL_VERSIONS),
                requested,
            },
        );
    }
    let complete = |mut result: Value| {
        result["resultType"] = json!("complete");
        json!({ "jsonrpc": "2.0", "id": id, "result": result })
    };
    match method.as_str() {
        "server/discover" => (
            StatusCode::OK,
            Some(complete(json!({
                "supportedVersions": ALL_VERSIONS,
                "capabilities": { "tools": { "listChanged": false } },
                "_meta": { "io.modelcontextprotocol/serverInfo": { "name": "kontor", "version": env!("CARGO_PKG_VERSION") } },
                "instructions": INSTRUCTIONS,
                "ttlMs": TTL_MS,
                "cacheScope": "private",
            }))),
            None,
        ),
        "tools/list" => (
            StatusCode::OK,
            Some(complete(
                json!({ "tools": tools::list(&c.key.scopes), "ttlMs": TTL_MS, "cacheScope": "private" }),
            )),
            None,
        ),
        "tools/call" => match tools::call(c, &params) {
            Ok(result) => (StatusCode::OK, Some(complete(result)), None),
            // Protocol faults of this revision answer with an HTTP error status.
            Err(f) => ended(&id, f),
        },
        "subscriptions/listen" => {
            // Nothing here changes under a client's feet (the tool list is
            // fixed), so the subscription is acknowledged with no
            // notification types and ended at once.
            let event = |v: Value| format!("event: message\ndata: {v}\n\n");
            let ack = json!({
                "jsonrpc": "2.0",
                "method": "notifications/subscriptions/acknowledged",
                "params": { "notifications": {}, "_meta": { "io.modelcontextprotocol/subscriptionId": id } },
            });
            let end =
                complete(json!({ "_meta": { "io.modelcontextprotocol/subscriptionId": id } }));
            let stream = format!("{}{}", event(ack), event(end));
            (StatusCode::OK, None, Some(stream))
        }
        _ => ended(&id, RpcFault::MethodNotFound),
    }
}

/// The version rules of the initialize-based revisions, then the message or the batch.
fn initialize_era(
    c: &Context,
    message: Value,
    header_version: Option<&str>,
) -> (StatusCode, Option<Value>) {
    let version = header_version.unwrap_or(UNNAMED_VERSION);
    if !VERSIONS.contains(&version) {
        let unsupported = RpcFault::InvalidRequest {
            message: "Unsupported MCP-Protocol-Version".into(),
            data: Some(json!({ "supported": VERSIONS, "requested": version })),
        };
        let id = first_message(&message)["id"].clone();
        return (StatusCode::BAD_REQUEST, Some(unsupported.response(&id)));
    }
    match message {
        Value::Array(items) => {
            if version != "2025-03-26" || items.is_empty() {
                let refused = RpcFault::invalid_request("Batches are served only for 2025-03-26");
                return (
                    StatusCode::BAD_REQUEST,
                    Some(refused.response(&Value::Null)),
                );
            }
            let replies: Vec<Value> = items.into_iter().filter_map(|m| one(c, m)).collect();
            if replies.is_empty() {
                (StatusCode::ACCEPTED, None)
            } else {
                (StatusCode::OK, Some(Value::Array(replies)))
            }
        }
        single => match one(c, single) {
            Some(reply) => (StatusCode::OK, Some(reply)),
            None => (StatusCode::ACCEPTED, None),
        },
    }
}

/// Answers one message of the initialize-based revisions; notifications get no answer.
fn one(c: &Context, message: Value) -> Option<Value> {
    let Value::Object(m) = message else {
        return Some(RpcFault::invalid_request("Invalid Request").response(&Value::Null));
    };
    let id = m.get("id").cloned();
    let method = m.get("method").and_then(Value::as_str);
    if m.get("jsonrpc").and_then(Value::as_str) != Some("2.0") || method.is_none() {
        let id = id.unwrap_or(Value::Null);
        return Some(RpcFault::invalid_request("Invalid Request").response(&id));
    }
    let id = id?; // a notification: accepted, nothing to answer
    if !(id.is_string() || id.is_i64() || id.is_u64()) {
        let invalid =
            RpcFault::invalid_request("Invalid Request: id must be a string or an integer");
        return Some(invalid.response(&Value::Null));
    }
    let params = m.get("params").cloned().unwrap_or(json!({}));
    let result = match method.unwrap_or("") {
        "initialize" => Ok(initialize(&params)),
        "ping" => Ok(json!({})),
        "tools/list" => Ok(json!({ "tools": tools::list(&c.key.scopes) })),
        "tools/call" => tools::call(c, &params),
        _ => Err(RpcFault::MethodNotFound),
    };
    Some(match result {
        Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
        Err(f) => f.response(&id),
    })
}

fn initialize(params: &Value) -> Value {
    let requested = params["protocolVersion"].as_str().unwrap_or("");
    let version = if VERSIONS.contains(&requested) {
        requested
    } else {
        VERSIONS[0]
    };
    json!({
        "protocolVersion": version,
        "capabilities": { "tools": { "listChanged": false } },
        "serverInfo": { "name": "kontor", "version": env!("CARGO_PKG_VERSION") },
        "instructions": INSTRUCTIONS
    })
}
