//! The agent-protocol (MCP) server at `/mcp`: JSON-RPC over one POST endpoint,
//! stateless, with the same keys, plan check and rate budget as REST; the
//! company is always the key's. Two eras on one endpoint: a request whose
//! `params._meta` names `io.modelcontextprotocol/protocolVersion` follows
//! revision 2026-07-28 (no `initialize`; headers mirror the body; results
//! carry `resultType`); any other follows the initialize-based revisions
//! 2025-11-25, 2025-06-18 and 2025-03-26 (batches only for the last). Tools
//! name an `Operation` of the access table; they hold no rule of their own.

use serde_json::{json, Map, Value};

use crate::access::idempotency;
use crate::access::keys::AuthedKey;
use crate::access::scopes::Operation;
use crate::books::attention;
use crate::books::company;
use crate::books::customers;
use crate::books::drafts::{self, DocumentType, NewLine};
use crate::books::invoices;
use crate::books::ledger;
use crate::books::report;
use crate::books::transactions;
use crate::error::{Error, Result};
use crate::http::fields::Fields;
use crate::http::query::{Paging, Query};
use crate::http::rest::{self, Answer, App, Turned};
use crate::rules::jurisdiction;
use crate::rules::money::Tax;
use crate::store::tenant::Tenant;
use hyper::StatusCode;
use rusqlite::Connection;

/// The initialize-based revisions served, newest first.
pub const VERSIONS: [&str; 3] = ["2025-11-25", "2025-06-18", "2025-03-26"];
/// The per-request revision served.
pub const MODERN: &str = "2026-07-28";
/// Every revision served, newest first.
const ALL_VERSIONS: [&str; 4] = [MODERN, "2025-11-25", "2025-06-18", "2025-03-26"];
/// The deepest offset a cursor may name.
const MAX_OFFSET: i64 = 1_000_000_000;
/// Most messages one batch may hold.
const MAX_BATCH: usize = 100;
/// How long a client may keep `tools/list` and `server/discover` answers.
const TTL_MS: u64 = 60_000;
/// The revision assumed when a request names none.
const UNNAMED_VERSION: &str = "2025-03-26";

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
        Some(encoded) => {
            const ALPHABET: &[u8; 64] =
                b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
            let mut bits: u32 = 0;
            let mut count = 0;
            let mut out = Vec::new();
            for c in encoded.bytes().filter(|c| *c != b'=') {
                let v = ALPHABET.iter().position(|a| *a == c)? as u32;
                bits = (bits << 6) | v;
                count += 6;
                if count >= 8 {
                    count -= 8;
                    out.push((bits >> count) as u8);
                    bits &= (1 << count) - 1;
                }
            }
            String::from_utf8(out).ok()
        }
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

fn rpc_error(id: &Value, code: i64, message: &str, data: Option<Value>) -> Value {
    let mut error = json!({ "code": code, "message": message });
    if let Some(data) = data {
        error["data"] = data;
    }
    json!({ "jsonrpc": "2.0", "id": id, "error": error })
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

/// Parses the body of a `/mcp` request.
pub fn parse(req: &rest::Request) -> Parsed {
    req.body.as_deref().map(serde_json::from_slice::<Value>)
}

/// Whether a `/mcp` body may write (a create tool, alone or in a batch): such
/// requests wait for the writer on a blocking thread; all others are reads.
pub fn may_write(parsed: &Parsed) -> bool {
    matches!(parsed, Some(Ok(message)) if calls_a_create(message))
}

/// A message alone, or the first of a batch (null for an empty one).
fn first_message(message: &Value) -> &Value {
    match message {
        Value::Array(items) => items.first().unwrap_or(&Value::Null),
        single => single,
    }
}

/// Whether a parsed `/mcp` message calls a create tool, alone or in a batch.
fn calls_a_create(message: &Value) -> bool {
    let writes = |m: &Value| {
        m["method"] == "tools/call"
            && m["params"]["name"]
                .as_str()
                .is_some_and(|n| TOOLS.iter().any(|t| t.name == n && !t.read_only))
    };
    match message {
        Value::Array(items) => items.iter().any(writes),
        single => writes(single),
    }
}

/// Serves one POST to `/mcp`; `writes` is `may_write(&parsed)`.
pub fn handle(
    app: &App,
    req: &rest::Request,
    headers: &Headers,
    parsed: Parsed,
    writes: bool,
) -> Answer {
    if req.method != hyper::Method::POST {
        let error = Error::MethodNotAllowed("POST");
        return rest::refusal(&error, Vec::new(), None);
    }
    if !origin_allowed(headers, &app.mcp_hosts) {
        return answer(
            StatusCode::FORBIDDEN,
            Some(rpc_error(
                &Value::Null,
                -32600,
                "Origin or Host not allowed",
                None,
            )),
            Vec::new(),
            None,
        );
    }
    let conn = match app.db.connection() {
        Ok(c) => c,
        Err(e) => return rest::refusal(&e, Vec::new(), None),
    };
    // A request that only reads does so in one transaction, its key included:
    // one snapshot, one read lock. One that creates must see its own writes.
    let _snapshot = if !writes && matches!(parsed, Some(Ok(_))) {
        match rest::ReadSnapshot::begin(&conn) {
            Ok(snapshot) => Some(snapshot),
            Err(e) => return rest::refusal(&e, Vec::new(), None),
        }
    } else {
        None
    };
    let (key, verdict) = match rest::admit(app, &conn, req.authorization.as_deref()) {
        Ok(admitted) => admitted,
        Err(Turned {
            error: Error::Unauthenticated,
            ..
        }) => {
            let mut a = rest::refusal(&Error::Unauthenticated, Vec::new(), None);
            a.headers = vec![(
                "WWW-Authenticate",
                r#"Bearer realm="kontor", error="invalid_token""#.into(),
            )];
            return a;
        }
        Err(Turned {
            error,
            key: Some((id, verdict)),
        }) => return rest::refusal(&error, rest::rate_headers(&verdict), Some(id)),
        Err(Turned { error, key: None }) => return rest::refusal(&error, Vec::new(), None),
    };
    let mut rate = rest::rate_headers(&verdict);
    let Some(parsed) = parsed else {
        return answer(
            StatusCode::PAYLOAD_TOO_LARGE,
            Some(rpc_error(
                &Value::Null,
                -32600,
                "The body is larger than 1 MiB",
                None,
            )),
            rate,
            Some(key.id),
        );
    };
    let message: Value = match parsed {
        Ok(v) => v,
        Err(_) => {
            return answer(
                StatusCode::BAD_REQUEST,
                Some(rpc_error(&Value::Null, -32700, "Parse error", None)),
                rate,
                Some(key.id),
            )
        }
    };
    let session = Session {
        app,
        conn: &conn,
        key: &key,
    };
    let modern = {
        first_message(&message)
            .pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
            .is_some()
            || headers.protocol_version.as_deref() == Some(MODERN)
    };
    // Each item of a batch spends from the budget like a request of its own.
    if let Value::Array(items) = &message {
        if items.len() > MAX_BATCH {
            let error = rpc_error(
                &Value::Null,
                -32600,
                "A batch holds at most 100 messages",
                None,
            );
            return answer(StatusCode::BAD_REQUEST, Some(error), rate, Some(key.id));
        }
        if items.len() > 1 {
            // All of the batch or none of it.
            let verdict = app.limiter.take(&key.id, items.len() as u64 - 1);
            if !verdict.allowed {
                let wait_seconds = verdict.retry_after_seconds.max(1);
                return rest::refusal(
                    &Error::RateLimited { wait_seconds },
                    rest::rate_headers(&verdict),
                    Some(key.id),
                );
            }
            rate = rest::rate_headers(&verdict);
        }
    }
    if modern {
        let (status, reply, stream) = session.modern(message, headers);
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
    let (status, reply) = session.dispatch(message, headers.protocol_version.as_deref());
    answer(status, reply, rate, Some(key.id.clone()))
}

struct Session<'a> {
    app: &'a App,
    conn: &'a Connection,
    key: &'a AuthedKey,
}

impl Session<'_> {
    /// Revision 2026-07-28: one request per POST, its version and the client's
    /// capabilities in `_meta`, the routing headers equal to the body; the
    /// answer is JSON, or for `subscriptions/listen` a short event stream.
    fn modern(&self, message: Value, h: &Headers) -> (StatusCode, Option<Value>, Option<String>) {
        let bad = |id: &Value, code: i64, message: &str, data: Option<Value>| {
            (
                StatusCode::BAD_REQUEST,
                Some(rpc_error(id, code, message, data)),
                None,
            )
        };
        let Value::Object(m) = message else {
            return bad(
                &Value::Null,
                -32600,
                "Invalid Request: one JSON-RPC request per POST",
                None,
            );
        };
        let method = m
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        if m.get("jsonrpc").and_then(Value::as_str) != Some("2.0") || method.is_empty() {
            return bad(
                &m.get("id").cloned().unwrap_or(Value::Null),
                -32600,
                "Invalid Request",
                None,
            );
        }
        let Some(id) = m.get("id").cloned() else {
            return (StatusCode::ACCEPTED, None, None); // a notification: accepted, nothing to answer
        };
        if !(id.is_string() || id.is_i64() || id.is_u64()) {
            return bad(
                &Value::Null,
                -32600,
                "Invalid Request: id must be a string or an integer",
                None,
            );
        }
        let params = m.get("params").cloned().unwrap_or(json!({}));
        let meta = &params["_meta"];
        // Capabilities, then the routing headers, then the version.
        if !meta["io.modelcontextprotocol/clientCapabilities"].is_object() {
            return bad(
                &id,
                -32602,
                "Invalid params: _meta needs io.modelcontextprotocol/clientCapabilities",
                None,
            );
        }
        let requested = meta["io.modelcontextprotocol/protocolVersion"].clone();
        let mismatch = |what: &str| bad(&id, -32020, &format!("Header mismatch: {what}"), None);
        if let Some(header) = h.duplicated {
            return mismatch(&format!("{header} is sent more than once"));
        }
        if h.protocol_version.as_deref() != requested.as_str() {
            return mismatch("MCP-Protocol-Version must equal the body's protocol version");
        }
        if h.method.as_deref() != Some(method.as_str()) {
            return mismatch("Mcp-Method must equal the body's method");
        }
        if method == "tools/call" {
            let name = params["name"].as_str().unwrap_or("");
            if h.name.as_deref().and_then(header_value).as_deref() != Some(name) {
                return mismatch("Mcp-Name must equal the body's params.name");
            }
        }
        if requested.as_str() != Some(MODERN) {
            let data = json!({ "supported": ALL_VERSIONS, "requested": requested });
            return bad(&id, -32022, "Unsupported protocol version", Some(data));
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
                    json!({ "tools": self.tools_list(), "ttlMs": TTL_MS, "cacheScope": "private" }),
                )),
                None,
            ),
            "tools/call" => match self.tools_call(&params) {
                Ok(result) => (StatusCode::OK, Some(complete(result)), None),
                Err((code, message)) => {
                    // Protocol faults of this revision answer with an HTTP error status.
                    let status = if code == -32602 {
                        StatusCode::BAD_REQUEST
                    } else {
                        StatusCode::INTERNAL_SERVER_ERROR
                    };
                    (status, Some(rpc_error(&id, code, &message, None)), None)
                }
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
            _ => (
                StatusCode::NOT_FOUND,
                Some(rpc_error(&id, -32601, "Method not found", None)),
                None,
            ),
        }
    }

    /// The version rules of the initialize-based revisions, then the message or the batch.
    fn dispatch(
        &self,
        message: Value,
        header_version: Option<&str>,
    ) -> (StatusCode, Option<Value>) {
        let version = header_version.unwrap_or(UNNAMED_VERSION);
        if !VERSIONS.contains(&version) {
            let data = json!({ "supported": VERSIONS, "requested": version });
            return (
                StatusCode::BAD_REQUEST,
                Some(rpc_error(
                    &first_message(&message)["id"],
                    -32600,
                    "Unsupported MCP-Protocol-Version",
                    Some(data),
                )),
            );
        }
        match message {
            Value::Array(items) => {
                if version != "2025-03-26" || items.is_empty() {
                    return (
                        StatusCode::BAD_REQUEST,
                        Some(rpc_error(
                            &Value::Null,
                            -32600,
                            "Batches are served only for 2025-03-26",
                            None,
                        )),
                    );
                }
                let replies: Vec<Value> = items.into_iter().filter_map(|m| self.one(m)).collect();
                if replies.is_empty() {
                    (StatusCode::ACCEPTED, None)
                } else {
                    (StatusCode::OK, Some(Value::Array(replies)))
                }
            }
            single => match self.one(single) {
                Some(reply) => (StatusCode::OK, Some(reply)),
                None => (StatusCode::ACCEPTED, None),
            },
        }
    }

    /// Answers one message; notifications get no answer.
    fn one(&self, message: Value) -> Option<Value> {
        let Value::Object(m) = message else {
            return Some(rpc_error(&Value::Null, -32600, "Invalid Request", None));
        };
        let id = m.get("id").cloned();
        let method = m.get("method").and_then(Value::as_str);
        if m.get("jsonrpc").and_then(Value::as_str) != Some("2.0") || method.is_none() {
            return Some(rpc_error(
                &id.unwrap_or(Value::Null),
                -32600,
                "Invalid Request",
                None,
            ));
        }
        let id = id?; // a notification: accepted, nothing to answer
        if !(id.is_string() || id.is_i64() || id.is_u64()) {
            return Some(rpc_error(
                &Value::Null,
                -32600,
                "Invalid Request: id must be a string or an integer",
                None,
            ));
        }
        let params = m.get("params").cloned().unwrap_or(json!({}));
        let result = match method.unwrap_or("") {
            "initialize" => Ok(self.initialize(&params)),
            "ping" => Ok(json!({})),
            "tools/list" => Ok(json!({ "tools": self.tools_list() })),
            "tools/call" => self.tools_call(&params),
            _ => Err((-32601, "Method not found".to_string())),
        };
        Some(match result {
            Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
            Err((code, message)) => rpc_error(&id, code, &message, None),
        })
    }

    fn initialize(&self, params: &Value) -> Value {
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

    fn tools_list(&self) -> Vec<Value> {
        TOOLS
            .iter()
            .filter(|t| t.operation.allowed_for(&self.key.scopes))
            .map(Tool::definition)
            .collect()
    }

    fn tools_call(&self, params: &Value) -> std::result::Result<Value, (i64, String)> {
        let name = params["name"].as_str().unwrap_or("");
        let tool = TOOLS
            .iter()
            .find(|t| t.name == name && t.operation.allowed_for(&self.key.scopes))
            .ok_or((-32602, format!("Unknown tool: {name}")))?;
        let arguments = params.get("arguments").cloned().unwrap_or(json!({}));
        if !arguments.is_object() {
            return Err((-32602, "arguments must be an object".into()));
        }
        Ok(
            match (tool.run)(
                self,
                Fields::from_value(arguments).map_err(|e| (-32602, e.sentence()))?,
            ) {
                Ok(value) => json!({
                    "content": [{ "type": "text", "text": value.to_string() }],
                    "structuredContent": value,
                    "isError": false,
                }),
                Err(Error::Internal(detail)) => {
                    eprintln!("error: {detail}");
                    return Err((-32603, "Internal error".into()));
                }
                Err(e) => {
                    let refusal = json!({ "code": e.code(), "fehler": e.sentence() });
                    json!({
                        "content": [{ "type": "text", "text": format!("{}: {}", e.code(), e.sentence()) }],
                        "structuredContent": refusal,
                        "isError": true,
                    })
                }
            },
        )
    }

    fn tenant(&self) -> &Tenant {
        &self.key.tenant
    }

    fn today(&self) -> Result<jiff::civil::Date> {
        Ok(company::get(self.conn, &self.tenant().company_id)?.today())
    }
}

const INSTRUCTIONS: &str = "The books of the company your key belongs to: customers, issued invoices, \
transactions, receivables, payables and the ledger's reports. Drafts you create are issued by a person in the product.";

/// One tool: its wire definition and what it runs.
struct Tool {
    name: &'static str,
    /// Reads only; creates are additive (never destructive).
    read_only: bool,
    title: &'static str,
    description: &'static str,
    operation: Operation,
    input: fn() -> Value,
    output: fn() -> Value,
    run: fn(&Session, Fields) -> Result<Value>,
}

impl Tool {
    fn definition(&self) -> Value {
        json!({
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "inputSchema": (self.input)(),
            "outputSchema": (self.output)(),
            "annotations": if self.read_only {
                json!({ "title": self.title, "readOnlyHint": true, "openWorldHint": false })
            } else {
                json!({ "title": self.title, "readOnlyHint": false, "destructiveHint": false, "openWorldHint": false })
            },
        })
    }
}

fn schema(properties: Value, required: &[&str]) -> Value {
    json!({ "type": "object", "properties": properties, "required": required, "additionalProperties": false })
}

fn any_object() -> Value {
    json!({ "type": "object" })
}

fn list_output() -> Value {
    json!({
        "type": "object",
        "properties": {
            "items": { "type": "array", "items": { "type": "object" } },
            "next_cursor": { "type": ["string", "null"] },
            "total": { "type": "integer" }
        },
        "required": ["items", "next_cursor", "total"]
    })
}

fn paging_properties(mut extra: Map<String, Value>) -> Value {
    extra.insert("limit".into(), json!({ "type": "integer", "minimum": 1, "maximum": 100, "description": "Items per page (default 25)." }));
    extra.insert(
        "cursor".into(),
        json!({ "type": "string", "description": "The next_cursor of the previous page." }),
    );
    Value::Object(extra)
}

/// `limit` (1–100, default 25) and the opaque `cursor` as a page.
///
/// Fails with `BadRequest` for an unreadable limit or cursor.
fn paging_of(f: &mut Fields) -> Result<Paging> {
    let limit = f.optional_int("limit", 1..=100)?.unwrap_or(25);
    let offset = match f.optional_text("cursor", 40)? {
        None => 0,
        Some(c) => c
            .strip_prefix("o")
            .and_then(|hex| i64::from_str_radix(hex, 16).ok())
            .filter(|o| (0..=MAX_OFFSET).contains(o) && o % limit == 0)
            .ok_or_else(|| {
                Error::bad_request("The cursor is not one this server gave out (with this limit).")
            })?,
    };
    Ok(Paging {
        page: offset / limit,
        size: limit,
    })
}

/// The list answer: items, the cursor of the next page (or null), the total.
fn list_answer<T: serde::Serialize>(page: crate::http::query::Page<T>) -> Value {
    let next = page
        .more
        .then(|| format!("o{:x}", (page.page + 1) * page.size));
    json!({ "items": page.data, "next_cursor": next, "total": page.total })
}

fn to_value<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

fn get_customer(s: &Session, mut f: Fields) -> Result<Value> {
    let id = f.required_text("customer_id", 100)?;
    f.finish()?;
    Ok(to_value(&customers::get(s.conn, s.tenant(), &id)?))
}

fn search_customers(s: &Session, mut f: Fields) -> Result<Value> {
    let query = f.optional_text("query", 200)?;
    let paging = paging_of(&mut f)?;
    f.finish()?;
    Ok(list_answer(customers::list(
        s.conn,
        s.tenant(),
        paging,
        query.as_deref(),
    )?))
}

fn get_invoice(s: &Session, mut f: Fields) -> Result<Value> {
    let number = f.required_text("number", 100)?;
    f.finish()?;
    Ok(to_value(&invoices::get(
        s.conn,
        s.tenant(),
        &number,
        s.today()?,
    )?))
}

fn list_invoices(s: &Session, mut f: Fields) -> Result<Value> {
    let open = match f.optional_text("status", 10)?.as_deref() {
        None => None,
        Some("OPEN") => Some(true),
        Some("PAID") => Some(false),
        Some(other) => {
            return Err(Error::bad_request(format!(
                "status is OPEN or PAID, not {other}."
            )))
        }
    };
    let from = f
        .optional_text("from", 10)?
        .map(|d| crate::store::clock::parse_date("from", &d))
        .transpose()?;
    let to = f
        .optional_text("to", 10)?
        .map(|d| crate::store::clock::parse_date("to", &d))
        .transpose()?;
    let paging = paging_of(&mut f)?;
    f.finish()?;
    let filter = invoices::Filter { open, from, to };
    Ok(list_answer(invoices::list(
        s.conn,
        s.tenant(),
        filter,
        paging,
        s.today()?,
    )?))
}

fn get_transaction(s: &Session, mut f: Fields) -> Result<Value> {
    let id = f.required_text("transaction_id", 100)?;
    f.finish()?;
    let mut value = to_value(&transactions::get(s.conn, s.tenant(), &id)?);
    value["notes"] = to_value(&transactions::notes(s.conn, s.tenant(), &id)?);
    Ok(value)
}

fn list_transactions(s: &Session, mut f: Fields) -> Result<Value> {
    let mut q = Vec::new();
    for (arg, param) in [
        ("stage", "stage"),
        ("search", "search"),
        ("from", "from"),
        ("to", "to"),
        ("period", "period"),
    ] {
        if let Some(v) = f.optional_text(arg, 200)? {
            q.push(format!(
                "{param}={}",
                v.replace('%', "%25")
                    .replace('&', "%26")
                    .replace('+', "%2B")
            ));
        }
    }
    if let Some(b) = f.optional_bool("include_archived")? {
        q.push(format!("includeArchived={b}"));
    }
    let paging = paging_of(&mut f)?;
    f.finish()?;
    let filter = transactions::Filter::from_query(&Query::parse(&q.join("&"))?)?;
    Ok(list_answer(transactions::list(
        s.conn,
        s.tenant(),
        &filter,
        paging,
    )?))
}

fn company_of(s: &Session) -> Result<crate::books::company::Company> {
    company::get(s.conn, &s.tenant().company_id)
}

fn date_arg(f: &mut Fields, name: &str) -> Result<Option<jiff::civil::Date>> {
    f.optional_text(name, 10)?
        .map(|d| crate::store::clock::parse_date(name, &d))
        .transpose()
}

fn open_list(s: &Session, mut f: Fields, side: report::Side) -> Result<Value> {
    let company = company_of(s)?;
    let as_of = date_arg(&mut f, "as_of")?.unwrap_or_else(|| company.today());
    let paging = paging_of(&mut f)?;
    f.finish()?;
    let (items, total) = report::open_documents(
        s.conn,
        s.tenant(),
        side,
        as_of,
        paging.size,
        paging.offset(),
    )?;
    let summary = report::outstanding(s.conn, s.tenant(), &company.currency, as_of)?;
    let figures = match side {
        report::Side::Receivable => summary.receivables,
        report::Side::Payable => summary.payables,
    };
    let next = (paging.offset() + paging.size < total)
        .then(|| format!("o{:x}", paging.offset() + paging.size));
    Ok(
        json!({ "as_of": as_of.to_string(), "summary": figures, "items": items, "next_cursor": next, "total": total }),
    )
}

fn list_receivables(s: &Session, f: Fields) -> Result<Value> {
    open_list(s, f, report::Side::Receivable)
}

fn list_payables(s: &Session, f: Fields) -> Result<Value> {
    open_list(s, f, report::Side::Payable)
}

fn get_profit_and_loss(s: &Session, mut f: Fields) -> Result<Value> {
    let company = company_of(s)?;
    let today = company.today();
    let from = date_arg(&mut f, "from")?.unwrap_or_else(|| today.first_of_year());
    let to = date_arg(&mut f, "to")?.unwrap_or(today);
    f.finish()?;
    if from > to {
        return Err(Error::bad_request("from lies after to."));
    }
    Ok(to_value(&ledger::profit_and_loss(
        s.conn,
        s.tenant(),
        &company.currency,
        from,
        to,
    )?))
}

fn get_balance_sheet(s: &Session, mut f: Fields) -> Result<Value> {
    let company = company_of(s)?;
    let as_of = date_arg(&mut f, "as_of")?.unwrap_or_else(|| company.today());
    f.finish()?;
    Ok(to_value(&ledger::balance_sheet(
        s.conn,
        s.tenant(),
        &company.currency,
        as_of,
    )?))
}

fn get_business_attention(s: &Session, f: Fields) -> Result<Value> {
    f.finish()?;
    let company = company_of(s)?;
    let items = attention::list(s.conn, s.tenant(), &company)?;
    Ok(json!({ "as_of": company.today().to_string(), "count": items.len(), "items": items }))
}

/// Runs `create` once per `idempotency_key` (when given), as REST does for a POST.
fn create_once<T: serde::Serialize>(
    s: &Session,
    tool: &str,
    key: Option<String>,
    fingerprint_of: Value,
    create: impl FnOnce(&crate::store::db::Tx) -> Result<String>,
    read: impl Fn(&Connection, &str) -> Result<T>,
) -> Result<Value> {
    match key {
        Some(key) => {
            let key = idempotency::check_key(Some(&key))?.to_string();
            let fingerprint = idempotency::fingerprint("tools/call", tool, &fingerprint_of);
            let outcome = idempotency::run(
                &s.app.db,
                s.conn,
                s.tenant(),
                &key,
                &fingerprint,
                |tx| Ok((201, create(tx)?)),
                read,
            )?;
            Ok(to_value(&outcome.body))
        }
        None => {
            let body = s.app.db.write(|tx| {
                let id = create(tx)?;
                read(tx, &id)
            })?;
            Ok(to_value(&body))
        }
    }
}

/// Reads the `lines` of a draft tool: `description`, `quantity`,
/// `unit_price_minor`, and `tax_rate_percent` or `taxes: [{name, rate_percent, reason}]`.
fn draft_lines(items: Vec<Value>, country: &str) -> Result<Vec<NewLine>> {
    if items.is_empty() || items.len() > drafts::MAX_LINES {
        return Err(Error::bad_request(format!(
            "lines needs 1 to {} lines.",
            drafts::MAX_LINES
        )));
    }
    items
        .into_iter()
        .enumerate()
        .map(|(n, item)| {
            let at = |e: Error| Error::bad_request(format!("lines[{n}]: {}", e.sentence()));
            let mut f = Fields::from_value(item).map_err(at)?;
            let description = f.required_text("description", 500).map_err(at)?;
            let quantity = f
                .optional_decimal("quantity")
                .map_err(at)?
                .ok_or_else(|| at(Error::bad_request("The field quantity is missing.")))?;
            let unit_price = f
                .optional_int("unit_price_minor", 0..=crate::rules::money::MAX_AMOUNT)
                .map_err(at)?
                .ok_or_else(|| at(Error::bad_request("The field unit_price_minor is missing.")))?;
            let rate = f.optional_decimal("tax_rate_percent").map_err(at)?;
            let listed = f.optional_array("taxes").map_err(at)?;
            f.finish().map_err(at)?;
            let taxes = match (rate, listed) {
                (Some(_), Some(_)) => {
                    return Err(at(Error::bad_request(
                        "Give tax_rate_percent or taxes, not both.",
                    )))
                }
                (Some(rate), None) => {
                    vec![Tax::new(jurisdiction::tax_name(country), rate, None).map_err(at)?]
                }
                (None, Some(taxes)) => taxes
                    .into_iter()
                    .map(|t| {
                        let mut tf = Fields::from_value(t)?;
                        let name = tf.required_text("name", 40)?;
                        let rate = tf.optional_decimal("rate_percent")?.ok_or_else(|| {
                            Error::bad_request("The field rate_percent is missing.")
                        })?;
                        let reason = tf.optional_text("reason", 200)?;
                        tf.finish()?;
                        Tax::new(&name, rate, reason.as_deref())
                    })
                    .collect::<Result<Vec<_>>>()
                    .map_err(at)?,
                (None, None) => {
                    return Err(at(Error::bad_request(
                        "Each line needs tax_rate_percent or taxes; kontor decides no rate.",
                    )))
                }
            };
            Ok(NewLine {
                description,
                quantity,
                unit_price,
                taxes,
            })
        })
        .collect()
}

fn create_draft(s: &Session, mut f: Fields, kind: DocumentType, tool: &str) -> Result<Value> {
    let fingerprint = fingerprint_of(&f);
    let key = f.optional_text("idempotency_key", 200)?;
    let customer_id = f.required_text("customer_id", 100)?;
    let items = f.required_array("lines")?;
    f.finish()?;
    let lines = draft_lines(items, &company_of(s)?.country)?;
    let tenant = s.tenant();
    create_once(
        s,
        tool,
        key,
        fingerprint,
        |tx| {
            let id = drafts::create(tx, tenant, &customer_id, kind)?;
            for line in &lines {
                drafts::add_line(tx, tenant, &id, line)?;
            }
            Ok(id)
        },
        |conn, id| drafts::get(conn, tenant, id),
    )
}

fn create_invoice_draft(s: &Session, f: Fields) -> Result<Value> {
    create_draft(s, f, DocumentType::Invoice, "create_invoice_draft")
}

fn create_quote_draft(s: &Session, f: Fields) -> Result<Value> {
    create_draft(s, f, DocumentType::Quote, "create_quote_draft")
}

fn create_transaction(s: &Session, mut f: Fields) -> Result<Value> {
    let fingerprint = fingerprint_of(&f);
    let key = f.optional_text("idempotency_key", 200)?;
    let mut rest = Map::new();
    for (arg, field) in [
        ("title", "title"),
        ("customer_id", "customerId"),
        ("description", "description"),
        ("due_on", "dueOn"),
        ("stage", "stage"),
    ] {
        if let Some(v) = f.optional_text(arg, 5000)? {
            rest.insert(field.into(), json!(v));
        }
    }
    f.finish()?;
    let new = transactions::NewTransaction::from_fields(Fields::from_value(Value::Object(rest))?)?;
    let tenant = s.tenant();
    create_once(
        s,
        "create_transaction",
        key,
        fingerprint,
        |tx| transactions::create(tx, tenant, &new),
        |conn, id| transactions::get(conn, tenant, id),
    )
}

fn add_transaction_note(s: &Session, mut f: Fields) -> Result<Value> {
    let fingerprint = fingerprint_of(&f);
    let key = f.optional_text("idempotency_key", 200)?;
    let transaction_id = f.required_text("transaction_id", 100)?;
    let text = f.required_text("text", 5000)?;
    f.finish()?;
    let tenant = s.tenant();
    let author = s.key.name.clone();
    let note = create_once(
        s,
        "add_transaction_note",
        key,
        fingerprint,
        |tx| transactions::add_note(tx, tenant, &transaction_id, &text, &author),
        |conn, id| {
            transactions::notes(conn, tenant, &transaction_id)?
                .into_iter()
                .find(|n| n.id == id)
                .ok_or_else(|| Error::not_found(format!("Note {id}")))
        },
    )?;
    let mut transaction = to_value(&transactions::get(s.conn, tenant, &transaction_id)?);
    transaction["notes"] = to_value(&transactions::notes(s.conn, tenant, &transaction_id)?);
    Ok(json!({ "note": note, "transaction": transaction }))
}

fn date_props(names: &[&str]) -> Map<String, Value> {
    names
        .iter()
        .map(|n| (n.to_string(), json!({ "type": "string", "format": "date" })))
        .collect()
}

fn idempotency_prop(p: &mut Map<String, Value>) {
    p.insert(
        "idempotency_key".into(),
        json!({ "type": "string", "maxLength": 200, "description": "Repeat a create safely: the same key and arguments answer the same record." }),
    );
}

fn line_schema() -> Value {
    let decimal = json!({ "type": ["number", "string"], "description": "An exact decimal, e.g. 1.5 or \"19\"." });
    json!({
        "type": "array",
        "minItems": 1,
        "items": {
            "type": "object",
            "properties": {
                "description": { "type": "string" },
                "quantity": decimal,
                "unit_price_minor": { "type": "integer", "minimum": 0, "description": "Minor units of the draft's currency." },
                "tax_rate_percent": decimal,
                "taxes": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "name": { "type": "string" },
                            "rate_percent": decimal,
                            "reason": { "type": "string", "description": "Why nothing is charged; only with a zero rate." }
                        },
                        "required": ["name", "rate_percent"],
                        "additionalProperties": false
                    }
                }
            },
            "required": ["description", "quantity", "unit_price_minor"],
            "additionalProperties": false
        }
    })
}

fn draft_input() -> Value {
    let mut p = Map::new();
    p.insert("customer_id".into(), json!({ "type": "string" }));
    p.insert("lines".into(), line_schema());
    idempotency_prop(&mut p);
    schema(Value::Object(p), &["customer_id", "lines"])
}

/// A create's arguments without its `idempotency_key`: what its fingerprint covers.
fn fingerprint_of(f: &Fields) -> Value {
    let mut args = f.snapshot();
    if let Some(map) = args.as_object_mut() {
        map.remove("idempotency_key");
    }
    args
}

fn id_input(name: &'static str, what: &'static str) -> impl Fn() -> Value {
    move || {
        schema(
            json!({ name: { "type": "string", "description": what } }),
            &[name],
        )
    }
}

const TOOLS: &[Tool] = &[
    Tool {
        read_only: true,
        name: "get_customer",
        title: "Get a customer",
        description: "One customer (or supplier) of the company by its id (cus_…), with all master data.",
        operation: Operation::GetCustomer,
        input: || id_input("customer_id", "The customer's id, e.g. cus_4f9K…")(),
        output: any_object,
        run: get_customer,
    },
    Tool {
        read_only: true,
        name: "search_customers",
        title: "Search customers",
        description: "The company's customers and suppliers, newest first; `query` matches name, number, e-mail or city.",
        operation: Operation::ListCustomers,
        input: || {
            let mut p = Map::new();
            p.insert("query".into(), json!({ "type": "string", "description": "Text in name, number (K10001), e-mail or city." }));
            schema(paging_properties(p), &[])
        },
        output: list_output,
        run: search_customers,
    },
    Tool {
        read_only: true,
        name: "get_invoice",
        title: "Get an invoice",
        description: "One issued invoice or correction by its number, with lines, taxes, payment state and the payment sentence.",
        operation: Operation::GetInvoice,
        input: || id_input("number", "The invoice number as printed, e.g. RE2026-00001")(),
        output: any_object,
        run: get_invoice,
    },
    Tool {
        read_only: true,
        name: "list_invoices",
        title: "List invoices",
        description: "Issued invoices and corrections, newest first; `status` OPEN (something outstanding) or PAID; `from`/`to` are issue dates.",
        operation: Operation::ListInvoices,
        input: || {
            let mut p = Map::new();
            p.insert("status".into(), json!({ "type": "string", "enum": ["OPEN", "PAID"] }));
            p.insert("from".into(), json!({ "type": "string", "format": "date" }));
            p.insert("to".into(), json!({ "type": "string", "format": "date" }));
            schema(paging_properties(p), &[])
        },
        output: list_output,
        run: list_invoices,
    },
    Tool {
        read_only: true,
        name: "get_transaction",
        title: "Get a transaction",
        description: "One transaction (a job with a workflow stage) by its id (txn_…), with its notes.",
        operation: Operation::GetTransaction,
        input: || id_input("transaction_id", "The transaction's id, e.g. txn_8dQ…")(),
        output: any_object,
        run: get_transaction,
    },
    Tool {
        read_only: true,
        name: "list_transactions",
        title: "List transactions",
        description: "Transactions, newest first; filter by `stage`, free-text `search`, `period` (YYYY, YYYY-Qn, YYYY-MM) or `from`/`to` start dates; archived ones only with `include_archived`.",
        operation: Operation::ListTransactions,
        input: || {
            let mut p = Map::new();
            for name in ["stage", "search", "period"] {
                p.insert(name.into(), json!({ "type": "string" }));
            }
            p.insert("from".into(), json!({ "type": "string", "format": "date" }));
            p.insert("to".into(), json!({ "type": "string", "format": "date" }));
            p.insert("include_archived".into(), json!({ "type": "boolean" }));
            schema(paging_properties(p), &[])
        },
        output: list_output,
        run: list_transactions,
    },
    Tool {
        read_only: true,
        name: "list_receivables",
        title: "List receivables",
        description: "Invoices open at the end of `as_of` (default today), earliest due first, with the totals outstanding, due and overdue in the book currency.",
        operation: Operation::OutstandingReport,
        input: || schema(paging_properties(date_props(&["as_of"])), &[]),
        output: list_output,
        run: list_receivables,
    },
    Tool {
        read_only: true,
        name: "list_payables",
        title: "List payables",
        description: "Bills open at the end of `as_of` (default today), earliest due first, with the totals outstanding, due and overdue in the book currency.",
        operation: Operation::OutstandingReport,
        input: || schema(paging_properties(date_props(&["as_of"])), &[]),
        output: list_output,
        run: list_payables,
    },
    Tool {
        read_only: true,
        name: "get_profit_and_loss",
        title: "Profit and loss",
        description: "Revenue, expenses and the result from the ledger for `from`..`to` (default: this year to today); `is_final` when the whole period lies in closed books.",
        operation: Operation::OutstandingReport,
        input: || schema(Value::Object(date_props(&["from", "to"])), &[]),
        output: any_object,
        run: get_profit_and_loss,
    },
    Tool {
        read_only: true,
        name: "get_balance_sheet",
        title: "Balance sheet",
        description: "Assets, liabilities, equity and the result from the ledger at the end of `as_of` (default today); it always balances.",
        operation: Operation::OutstandingReport,
        input: || schema(Value::Object(date_props(&["as_of"])), &[]),
        output: any_object,
        run: get_balance_sheet,
    },
    Tool {
        read_only: true,
        name: "get_business_attention",
        title: "What needs attention",
        description: "Most urgent first: overdue invoices, bills due within 7 days or overdue, drafts older than 14 days, transactions past their due date outside the last stage, failing webhook endpoints.",
        operation: Operation::OutstandingReport,
        input: || schema(json!({}), &[]),
        output: any_object,
        run: get_business_attention,
    },
    Tool {
        read_only: false,
        name: "create_invoice_draft",
        title: "Create an invoice draft",
        description: "A draft invoice for a customer with its lines; every line states its tax (a rate, or named taxes with the seller's reason for a zero rate). Number, dates and payment terms come from the seller's country and the customer's terms. A person issues it in the product.",
        operation: Operation::CreateDraft,
        input: draft_input,
        output: any_object,
        run: create_invoice_draft,
    },
    Tool {
        read_only: false,
        name: "create_quote_draft",
        title: "Create a quote draft",
        description: "A draft quote for a customer with its lines, numbered in the quotes' own series. Lines as for create_invoice_draft.",
        operation: Operation::CreateDraft,
        input: draft_input,
        output: any_object,
        run: create_quote_draft,
    },
    Tool {
        read_only: false,
        name: "create_transaction",
        title: "Create a transaction",
        description: "A transaction (a job) with a title; optionally a customer, description, due date and a stage of the company's workflow (else its first stage).",
        operation: Operation::CreateTransaction,
        input: || {
            let mut p = Map::new();
            for name in ["title", "customer_id", "description", "stage"] {
                p.insert(name.into(), json!({ "type": "string" }));
            }
            p.insert("due_on".into(), json!({ "type": "string", "format": "date" }));
            idempotency_prop(&mut p);
            schema(Value::Object(p), &["title"])
        },
        output: any_object,
        run: create_transaction,
    },
    Tool {
        read_only: false,
        name: "add_transaction_note",
        title: "Add a note to a transaction",
        description: "Adds a note (authored by this key's name) to a transaction and answers the note and the transaction with all its notes.",
        operation: Operation::AddTransactionNote,
        input: || {
            let mut p = Map::new();
            p.insert("transaction_id".into(), json!({ "type": "string" }));
            p.insert("text".into(), json!({ "type": "string", "maxLength": 5000 }));
            idempotency_prop(&mut p);
            schema(Value::Object(p), &["transaction_id", "text"])
        },
        output: any_object,
        run: add_transaction_note,
    },
];
