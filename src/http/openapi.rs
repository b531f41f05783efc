//! The description of the REST API as an OpenAPI 3.1 document, served at
//! `GET /openapi.json` without a key. The document is a file of the source
//! tree (`openapi.json` beside this one), compiled into the binary; the
//! integration tests check the server's answers against this same document.

use hyper::{Method, StatusCode};

use crate::error::Error;
use crate::http::app::{refusal, Answer};
use crate::rules::locale::Lang;

/// The document, as served.
pub const DOCUMENT: &str = include_str!("openapi.json");

/// The path the document is served at (outside `/v1`, so no key is needed).
pub const PATH: &str = "/openapi.json";

/// The answer to a request for the document: it for GET (and HEAD), 405
/// with `Allow: GET, HEAD` for any other method.
pub fn answer(method: &Method, lang: Lang) -> Answer {
    if method == Method::GET || method == Method::HEAD {
        Answer {
            status: StatusCode::OK,
            headers: Vec::new(),
            body: DOCUMENT.as_bytes().to_vec(),
            key_id: None,
        }
    } else {
        refusal(
            &Error::MethodNotAllowed("GET, HEAD".into()),
            lang,
            Vec::new(),
            None,
        )
    }
}
