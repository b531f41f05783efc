//! Reading the fields of a JSON object sent by a caller (a REST body or an
//! agent tool's arguments): each field is taken once, by name and type, and
//! every refusal names the field. Fields nobody took are refused as unknown.
//! This module checks shapes only; what a value means is the resource's business.

use serde_json::{Map, Value};

use crate::error::{Error, Result};

/// A field of a partial update: left out, sent as null, or sent with a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Patch<T> {
    Absent,
    Null,
    Value(T),
}

/// Parses a request body as JSON.
///
/// Fails with `BadRequest` for an empty body or invalid JSON.
pub fn parse_json(body: &[u8]) -> Result<Value> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(Error::bad_request(
            "The request needs a JSON object as its body.",
        ));
    }
    serde_json::from_slice(body)
        .map_err(|e| Error::bad_request(format!("The body is not valid JSON: {e}.")))
}

/// The fields of one JSON object, taken one by one.
pub struct Fields {
    map: Map<String, Value>,
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl Fields {
    /// Parses a request body that must be one JSON object.
    ///
    /// Fails with `BadRequest` for an empty body, invalid JSON or another JSON type.
    pub fn parse(body: &[u8]) -> Result<Fields> {
        Fields::from_value(parse_json(body)?)
    }

    /// Takes an already parsed value that must be an object (null counts as `{}`).
    ///
    /// Fails with `BadRequest` for any other JSON type.
    pub fn from_value(value: Value) -> Result<Fields> {
        match value {
            Value::Object(map) => Ok(Fields { map }),
            Value::Null => Ok(Fields { map: Map::new() }),
            other => Err(Error::bad_request(format!(
                "The body must be a JSON object, not {}.",
                type_name(&other)
            ))),
        }
    }

    fn take(&mut self, name: &str) -> Option<Value> {
        self.map.remove(name)
    }

    /// A string of 1 to `max` characters after trimming, which must be present.
    ///
    /// Fails with `BadRequest` naming the field when it is missing, null, not a
    /// string, blank or too long.
    pub fn required_text(&mut self, name: &str, max: usize) -> Result<String> {
        match self.optional_text(name, max)? {
            Some(text) => Ok(text),
            None => Err(Error::bad_request(format!("The field {name} is missing."))),
        }
    }

    /// A string of 1 to `max` characters after trimming; absent or null is `None`.
    ///
    /// Fails with `BadRequest` naming the field when it is not a string, blank or too long.
    pub fn optional_text(&mut self, name: &str, max: usize) -> Result<Option<String>> {
        match self.patch_text(name, max)? {
            Patch::Absent | Patch::Null => Ok(None),
            Patch::Value(v) => Ok(Some(v)),
        }
    }

    /// A string field of a partial update, telling absent from null.
    ///
    /// Fails with `BadRequest` naming the field when it is not a string, blank or too long.
    pub fn patch_text(&mut self, name: &str, max: usize) -> Result<Patch<String>> {
        match self.take(name) {
            None => Ok(Patch::Absent),
            Some(Value::Null) => Ok(Patch::Null),
            Some(Value::String(s)) => {
                let trimmed = s.trim();
                if trimmed.is_empty() {
                    Err(Error::bad_request(format!(
                        "The field {name} must not be empty."
                    )))
                } else if trimmed.chars().count() > max {
                    Err(Error::bad_request(format!(
                        "The field {name} is longer than {max} characters."
                    )))
                } else if trimmed
                    .chars()
                    .any(|c| c.is_control() && c != '\n' && c != '\t')
                {
                    Err(Error::bad_request(format!(
                        "The field {name} contains a control character."
                    )))
                } else {
                    Ok(Patch::Value(trimmed.to_string()))
                }
            }
            Some(other) => Err(Error::bad_request(format!(
                "The field {name} must be a string, not {}.",
                type_name(&other)
            ))),
        }
    }

    /// A boolean; absent or null is `None`.
    ///
    /// Fails with `BadRequest` naming the field when it is not a boolean.
    pub fn optional_bool(&mut self, name: &str) -> Result<Option<bool>> {
        match self.take(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(b)),
            Some(other) => Err(Error::bad_request(format!(
                "The field {name} must be true or false, not {}.",
                type_name(&other)
            ))),
        }
    }

    /// An integer within `range`; absent or null is `None`.
    ///
    /// Fails with `BadRequest` naming the field when it is not an integer in the range.
    pub fn optional_int(
        &mut self,
        name: &str,
        range: std::ops::RangeInclusive<i64>,
    ) -> Result<Option<i64>> {
        match self.take(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) if n.as_i64().is_some_and(|i| range.contains(&i)) => {
                Ok(n.as_i64())
            }
            Some(_) => Err(Error::bad_request(format!(
                "The field {name} must be a whole number from {} to {}.",
                range.start(),
                range.end()
            ))),
        }
    }

    /// An exact decimal given as a JSON number or a string (`1.5`, `"19"`);
    /// absent or null is `None`. Numbers keep their written digits.
    ///
    /// Fails with `BadRequest` naming the field when it is not a decimal.
    pub fn optional_decimal(&mut self, name: &str) -> Result<Option<crate::rules::money::Decimal>> {
        match self.take(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => {
                crate::rules::money::Decimal::parse(name, &n.to_string()).map(Some)
            }
            Some(Value::String(s)) => crate::rules::money::Decimal::parse(name, &s).map(Some),
            Some(other) => Err(Error::bad_request(format!(
                "The field {name} must be a decimal number, not {}.",
                type_name(&other)
            ))),
        }
    }

    /// An array, which must be present.
    ///
    /// Fails with `BadRequest` naming the field when it is missing or not an array.
    pub fn required_array(&mut self, name: &str) -> Result<Vec<Value>> {
        match self.take(name) {
            Some(Value::Array(items)) => Ok(items),
            None | Some(Value::Null) => {
                Err(Error::bad_request(format!("The field {name} is missing.")))
            }
            Some(other) => Err(Error::bad_request(format!(
                "The field {name} must be an array, not {}.",
                type_name(&other)
            ))),
        }
    }

    /// An optional array; absent or null is `None`.
    ///
    /// Fails with `BadRequest` naming the field when it is not an array.
    pub fn optional_array(&mut self, name: &str) -> Result<Option<Vec<Value>>> {
        match self.map.contains_key(name) && !self.map[name].is_null() {
            true => self.required_array(name).map(Some),
            false => {
                self.take(name);
                Ok(None)
            }
        }
    }

    /// The fields left, as a JSON object (for fingerprints).
    pub fn snapshot(&self) -> Value {
        Value::Object(self.map.clone())
    }

    /// An array of strings, which must be present.
    ///
    /// Fails with `BadRequest` naming the field when it is missing or not an array of strings.
    pub fn required_strings(&mut self, name: &str) -> Result<Vec<String>> {
        match self.take(name) {
            Some(Value::Array(items)) => items
                .into_iter()
                .map(|v| match v {
                    Value::String(s) => Ok(s),
                    other => Err(Error::bad_request(format!(
                        "The field {name} must hold strings, not {}.",
                        type_name(&other)
                    ))),
                })
                .collect(),
            None | Some(Value::Null) => {
                Err(Error::bad_request(format!("The field {name} is missing.")))
            }
            Some(other) => Err(Error::bad_request(format!(
                "The field {name} must be an array, not {}.",
                type_name(&other)
            ))),
        }
    }

    /// Refuses any field nobody took.
    ///
    /// Fails with `BadRequest` naming the unknown fields.
    pub fn finish(self) -> Result<()> {
        if self.map.is_empty() {
            return Ok(());
        }
        let names: Vec<&str> = self.map.keys().map(String::as_str).collect();
        Err(Error::bad_request(format!(
            "Unknown field{} {}.",
            if names.len() == 1 { "" } else { "s" },
            names.join(", ")
        )))
    }
}
