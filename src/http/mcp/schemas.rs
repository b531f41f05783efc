//! The JSON schemas the tools publish in `tools/list`: their inputs (snake_case
//! arguments, the paging of lists, the draft lines) and outputs.

use crate::store::paging::{DEFAULT_SIZE, MAX_SIZE};
use serde_json::{json, Map, Value};

/// An object schema with `properties`, the `required` names and nothing else allowed.
pub fn object(properties: Value, required: &[&str]) -> Value {
    json!({ "type": "object", "properties": properties, "required": required, "additionalProperties": false })
}

/// Any JSON object.
pub fn any_object() -> Value {
    json!({ "type": "object" })
}

/// The output of every list tool: `{items, next_cursor, total}`, or a
/// refusal's `{code, fehler}` (a result with `isError: true`). A tool's
/// structured content must conform to its output schema, refusals included:
/// clients such as the TypeScript SDK check it even when `isError` is set.
pub fn list_output() -> Value {
    json!({
        "type": "object",
        "properties": {
            "items": { "type": "array", "items": { "type": "object" } },
            "next_cursor": { "type": ["string", "null"] },
            "total": { "type": "integer" }
        },
        "anyOf": [
            { "required": ["items", "next_cursor", "total"] },
            {
                "description": "A refusal (isError: true): the REST error code and a sentence.",
                "properties": { "code": { "type": "string" }, "fehler": { "type": "string" } },
                "required": ["code", "fehler"]
            }
        ]
    })
}

/// `extra` with the paging arguments `limit` and `cursor`.
pub fn paged(mut extra: Map<String, Value>) -> Value {
    extra.insert(
        "limit".into(),
        json!({
            "type": "integer",
            "minimum": 1,
            "maximum": MAX_SIZE,
            "description": format!("Items per page (default {DEFAULT_SIZE}; a value out of range is bounded)."),
        }),
    );
    extra.insert(
        "cursor".into(),
        json!({ "type": "string", "description": "The next_cursor of the previous page." }),
    );
    Value::Object(extra)
}

/// Date arguments (`YYYY-MM-DD`) of these names.
pub fn dates(names: &[&str]) -> Map<String, Value> {
    names
        .iter()
        .map(|n| (n.to_string(), json!({ "type": "string", "format": "date" })))
        .collect()
}

/// Adds the optional `compare` of a statement (the previous year beside it).
pub fn with_compare(mut p: Map<String, Value>) -> Map<String, Value> {
    p.insert(
        "compare".to_string(),
        json!({ "type": "boolean", "description": "Show the previous year's figures beside each." }),
    );
    p
}

/// String arguments of these names.
pub fn strings(names: &[&str]) -> Map<String, Value> {
    names
        .iter()
        .map(|n| (n.to_string(), json!({ "type": "string" })))
        .collect()
}

/// Adds the optional `idempotency_key` of a create.
pub fn with_idempotency_key(mut p: Map<String, Value>) -> Map<String, Value> {
    p.insert(
        "idempotency_key".into(),
        json!({ "type": "string", "maxLength": 200, "description": "Repeat a create safely: the same key and arguments answer the same record." }),
    );
    p
}

/// The input of a tool that reads one record by one id argument.
pub fn by_id(name: &str, what: &str) -> Value {
    object(
        json!({ name: { "type": "string", "description": what } }),
        &[name],
    )
}

fn lines() -> Value {
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
                },
                "unit": { "type": "string", "description": "UN/ECE Recommendation 20 unit code; default C62 (one)." },
                "vat_category": {
                    "type": "string",
                    "enum": ["S", "Z", "E", "AE", "K", "G", "O", "L", "M"],
                    "description": "The VAT category; a rate above 0 without one is S. Z, E, AE, K, G and O have rate 0 (the rate may be left out)."
                },
                "exemption_reason": { "type": "string", "description": "Why nothing is charged, for E, AE, K, G or O (Z keeps it inside kontor)." },
                "exemption_code": { "type": "string", "description": "The exemption's VATEX code, e.g. VATEX-EU-AE." }
            },
            "required": ["description", "quantity", "unit_price_minor"],
            "additionalProperties": false
        }
    })
}

/// The input of the draft tools: a customer and its lines.
pub fn draft() -> Value {
    let mut p = Map::new();
    p.insert("customer_id".into(), json!({ "type": "string" }));
    p.insert("lines".into(), lines());
    object(
        Value::Object(with_idempotency_key(p)),
        &["customer_id", "lines"],
    )
}
