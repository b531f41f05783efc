//! Reading the fields of a JSON object a caller sent (a REST body or an agent
//! tool's arguments) into the books' input types: each field is taken once,
//! by name and JSON type, and a field of the wrong type is refused naming
//! it; fields nobody took are refused as unknown. This module checks JSON
//! types only: whether a value is missing, too long or malformed is the
//! books' to say.

use serde_json::{Map, Value};

use crate::books::transactions::TransactionInput;
use crate::error::said::{Json, Request};
use crate::error::{Error, Result};
use crate::rules::text::Patch;

/// Parses a request body as JSON.
///
/// Fails with `Invalid` for an empty body or invalid JSON.
pub fn parse_json(body: &[u8]) -> Result<Value> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(Error::bad_request(Request::BodyNotObject));
    }
    no_repeated_keys(body)
        .and_then(|()| serde_json::from_slice(body))
        .map_err(|e| Error::bad_request(Request::NotJson { why: e.to_string() }))
}

/// Checks that no JSON object in `body` names a key twice (a parser would
/// keep one of them silently).
///
/// Fails with a JSON error naming the key when one does, or the body is not JSON.
pub fn no_repeated_keys(body: &[u8]) -> serde_json::Result<()> {
    use serde::de::{Deserialize, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};

    struct Checked;

    impl<'de> Deserialize<'de> for Checked {
        fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Checked, D::Error> {
            d.deserialize_any(Checked)
        }
    }

    impl<'de> Visitor<'de> for Checked {
        type Value = Checked;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("JSON")
        }

        fn visit_bool<E>(self, _: bool) -> std::result::Result<Checked, E> {
            Ok(Checked)
        }
        fn visit_i64<E>(self, _: i64) -> std::result::Result<Checked, E> {
            Ok(Checked)
        }
        fn visit_u64<E>(self, _: u64) -> std::result::Result<Checked, E> {
            Ok(Checked)
        }
        fn visit_f64<E>(self, _: f64) -> std::result::Result<Checked, E> {
            Ok(Checked)
        }
        fn visit_str<E>(self, _: &str) -> std::result::Result<Checked, E> {
            Ok(Checked)
        }
        fn visit_unit<E>(self) -> std::result::Result<Checked, E> {
            Ok(Checked)
        }

        fn visit_seq<A: SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> std::result::Result<Checked, A::Error> {
            while seq.next_element::<Checked>()?.is_some() {}
            Ok(Checked)
        }

        fn visit_map<A: MapAccess<'de>>(
            self,
            mut map: A,
        ) -> std::result::Result<Checked, A::Error> {
            let mut seen = std::collections::HashSet::new();
            while let Some(key) = map.next_key::<String>()? {
                if !seen.insert(key.clone()) {
                    return Err(A::Error::custom(format!("the key {key:?} is given twice")));
                }
                map.next_value::<Checked>()?;
            }
            Ok(Checked)
        }
    }

    let mut d = serde_json::Deserializer::from_slice(body);
    Checked::deserialize(&mut d)?;
    d.end()
}

/// The fields of one JSON object, taken one by one.
pub struct JsonFields {
    map: Map<String, Value>,
}

fn type_name(v: &Value) -> Json {
    match v {
        Value::Null => Json::Null,
        Value::Bool(_) => Json::Boolean,
        Value::Number(_) => Json::Number,
        Value::String(_) => Json::String,
        Value::Array(_) => Json::Array,
        Value::Object(_) => Json::Object,
    }
}

fn mistyped(name: &str, wanted: Json, got: &Value) -> Error {
    Error::invalid(
        name,
        Request::Mistyped {
            wanted,
            got: type_name(got),
        },
    )
}

impl JsonFields {
    /// Parses a request body that must be one JSON object.
    ///
    /// Fails with `Invalid` for an empty body, invalid JSON or another JSON
    /// type (null included).
    pub fn parse(body: &[u8]) -> Result<JsonFields> {
        JsonFields::object(parse_json(body)?)
    }

    /// Takes an already parsed request body, which must be an object: a
    /// body of `null` is no object (unlike a tool's absent arguments).
    ///
    /// Fails with `Invalid` for any other JSON type.
    pub fn object(value: Value) -> Result<JsonFields> {
        match value {
            Value::Null => Err(Error::bad_request(Request::BodyIs { got: Json::Null })),
            other => JsonFields::from_value(other),
        }
    }

    /// Takes an already parsed value that must be an object (null counts as `{}`).
    ///
    /// Fails with `Invalid` for any other JSON type.
    pub fn from_value(value: Value) -> Result<JsonFields> {
        match value {
            Value::Object(map) => Ok(JsonFields { map }),
            Value::Null => Ok(JsonFields { map: Map::new() }),
            other => Err(Error::bad_request(Request::BodyIs {
                got: type_name(&other),
            })),
        }
    }

    fn take(&mut self, name: &str) -> Option<Value> {
        self.map.remove(name)
    }

    /// A string as sent; absent or null is `None`.
    ///
    /// Fails with `Invalid` naming the field when it is not a string.
    pub fn text(&mut self, name: &str) -> Result<Option<String>> {
        match self.take(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(mistyped(name, Json::String, &other)),
        }
    }

    /// A string field of a partial update, telling absent from null.
    ///
    /// Fails with `Invalid` naming the field when it is not a string.
    pub fn patch_text(&mut self, name: &str) -> Result<Patch<String>> {
        match self.take(name) {
            None => Ok(Patch::Absent),
            Some(Value::Null) => Ok(Patch::Null),
            Some(Value::String(s)) => Ok(Patch::Value(s)),
            Some(other) => Err(mistyped(name, Json::String, &other)),
        }
    }

    /// A boolean; absent or null is `None`.
    ///
    /// Fails with `Invalid` naming the field when it is not a boolean.
    pub fn bool(&mut self, name: &str) -> Result<Option<bool>> {
        match self.take(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(b)),
            Some(other) => Err(mistyped(name, Json::Boolean, &other)),
        }
    }

    /// A whole number; absent or null is `None`.
    ///
    /// Fails with `Invalid` naming the field when it is not a whole number.
    pub fn int(&mut self, name: &str) -> Result<Option<i64>> {
        match self.take(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) if n.as_i64().is_some() => Ok(n.as_i64()),
            Some(other) => Err(mistyped(name, Json::WholeNumber, &other)),
        }
    }

    /// A number or a string, as its text (a JSON number keeps its written
    /// digits, never passing through floating point); absent or null is `None`.
    ///
    /// Fails with `Invalid` naming the field for any other type.
    pub fn number_text(&mut self, name: &str) -> Result<Option<String>> {
        match self.take(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => Ok(Some(n.to_string())),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(mistyped(name, Json::DecimalNumber, &other)),
        }
    }

    /// An array; absent or null is `None`.
    ///
    /// Fails with `Invalid` naming the field when it is not an array.
    pub fn array(&mut self, name: &str) -> Result<Option<Vec<Value>>> {
        match self.take(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Array(items)) => Ok(Some(items)),
            Some(other) => Err(mistyped(name, Json::Array, &other)),
        }
    }

    /// An array of strings; absent or null is `None`.
    ///
    /// Fails with `Invalid` naming the field when it is not an array of strings.
    pub fn strings(&mut self, name: &str) -> Result<Option<Vec<String>>> {
        match self.array(name)? {
            None => Ok(None),
            Some(items) => items
                .into_iter()
                .map(|v| match v {
                    Value::String(s) => Ok(s),
                    other => Err(mistyped(name, Json::ArrayOfStrings, &other)),
                })
                .collect::<Result<Vec<_>>>()
                .map(Some),
        }
    }

    /// The fields left, as a JSON object (for fingerprints).
    pub fn snapshot(&self) -> Value {
        Value::Object(self.map.clone())
    }

    /// Refuses any field nobody took.
    ///
    /// Fails with `Invalid` naming the unknown fields.
    pub fn finish(self) -> Result<()> {
        if self.map.is_empty() {
            return Ok(());
        }
        let names: Vec<&str> = self.map.keys().map(String::as_str).collect();
        Err(Error::bad_request(Request::UnknownFields {
            names: names.iter().map(|n| n.to_string()).collect(),
        }))
    }
}

/// How a surface spells a field's name of more than one word: REST in
/// camelCase (`dueOn`), the agent tools in snake_case (`due_on`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Naming {
    Camel,
    Snake,
}

impl Naming {
    /// A field's name as this naming spells it, given both spellings.
    pub fn pick(self, camel: &'static str, snake: &'static str) -> &'static str {
        match self {
            Naming::Camel => camel,
            Naming::Snake => snake,
        }
    }
}

/// A new transaction's fields (`title`, `description`, `customer_id`,
/// `due_on`, `stage`), as REST's POST and the agent's tool both take them.
///
/// Fails with `Invalid` naming a field of the wrong type.
pub fn transaction_input(f: &mut JsonFields, naming: Naming) -> Result<TransactionInput> {
    Ok(TransactionInput {
        title: f.text("title")?,
        description: f.text("description")?,
        customer_id: f.text(naming.pick("customerId", "customer_id"))?,
        due_on: f.text(naming.pick("dueOn", "due_on"))?,
        stage: f.text("stage")?,
    })
}
