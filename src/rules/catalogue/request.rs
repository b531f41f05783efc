//! A request's body, query and form as the surfaces read them (`Request`).

use crate::error::said::{Json, Request};
use crate::error::Lang;

use super::reader::Reader;

/// A JSON value's kind with its article: `a string` / `eine Zeichenkette`.
fn kind(json: Json, r: Reader) -> &'static str {
    match (json, r.lang) {
        (Json::Null, _) => "null",
        (Json::Boolean, Lang::En) => "a boolean",
        (Json::Boolean, Lang::De) => "ein Wahrheitswert",
        (Json::Number, Lang::En) => "a number",
        (Json::Number, Lang::De) => "eine Zahl",
        (Json::WholeNumber, Lang::En) => "a whole number",
        (Json::WholeNumber, Lang::De) => "eine ganze Zahl",
        (Json::DecimalNumber, Lang::En) => "a decimal number",
        (Json::DecimalNumber, Lang::De) => "eine Dezimalzahl",
        (Json::String, Lang::En) => "a string",
        (Json::String, Lang::De) => "eine Zeichenkette",
        (Json::Array, Lang::En) => "an array",
        (Json::Array, Lang::De) => "eine Liste",
        (Json::ArrayOfStrings, Lang::En) => "an array of strings",
        (Json::ArrayOfStrings, Lang::De) => "eine Liste von Zeichenketten",
        (Json::Object, Lang::En) => "an object",
        (Json::Object, Lang::De) => "ein Objekt",
    }
}

/// The message in the reader's words.
pub fn text(request: &Request, r: Reader) -> String {
    match (request, r.lang) {
        (Request::BodyNotObject, _) => r
            .pick(
                "The request needs a JSON object as its body.",
                "Die Anfrage braucht ein JSON-Objekt als Rumpf.",
            )
            .into(),
        (Request::NotJson { why }, Lang::En) => format!("The body is not valid JSON: {why}."),
        (Request::NotJson { why }, Lang::De) => {
            format!("Der Rumpf ist kein gültiges JSON: {why}.")
        }
        (Request::Mistyped { wanted, got }, Lang::En) if *wanted == Json::Boolean => {
            format!("must be true or false, not {}", kind(*got, r))
        }
        (Request::Mistyped { wanted, got }, Lang::De) if *wanted == Json::Boolean => {
            format!("muss true oder false sein, nicht {}", kind(*got, r))
        }
        (Request::Mistyped { wanted, got }, Lang::En) => {
            format!("must be {}, not {}", kind(*wanted, r), kind(*got, r))
        }
        (Request::Mistyped { wanted, got }, Lang::De) => {
            format!("muss {} sein, nicht {}", kind(*wanted, r), kind(*got, r))
        }
        (Request::BodyIs { got }, Lang::En) => {
            format!("The body must be a JSON object, not {}.", kind(*got, r))
        }
        (Request::BodyIs { got }, Lang::De) => {
            format!(
                "Der Rumpf muss ein JSON-Objekt sein, nicht {}.",
                kind(*got, r)
            )
        }
        (Request::UnknownFields { names }, Lang::En) => format!(
            "Unknown field{} {}.",
            if names.len() == 1 { "" } else { "s" },
            names.join(", ")
        ),
        (Request::UnknownFields { names }, Lang::De) => format!(
            "Unbekannte{} Feld{} {}.",
            if names.len() == 1 { "s" } else { "" },
            if names.len() == 1 { "" } else { "er" },
            names.join(", ")
        ),
        (Request::QueryEscape, _) => r
            .pick(
                "The query string has a broken %-escape or is not UTF-8.",
                "Die Abfrage hat ein kaputtes %-Escape oder ist kein UTF-8.",
            )
            .into(),
        (Request::NotBool { name }, Lang::En) => {
            format!("The parameter {name} must be true or false.")
        }
        (Request::NotBool { name }, Lang::De) => {
            format!("Der Parameter {name} muss true oder false sein.")
        }
        (Request::NotWhole { name }, Lang::En) => {
            format!("The parameter {name} must be a whole number.")
        }
        (Request::NotWhole { name }, Lang::De) => {
            format!("Der Parameter {name} muss eine ganze Zahl sein.")
        }
        (Request::FormUnreadable, _) => r
            .pick(
                "The form could not be read.",
                "Das Formular konnte nicht gelesen werden.",
            )
            .into(),
        (Request::UploadUnreadable { why }, Lang::En) => {
            format!("The upload could not be read: {why}.")
        }
        (Request::UploadUnreadable { why }, Lang::De) => {
            format!("Das Hochgeladene konnte nicht gelesen werden: {why}.")
        }
    }
}
