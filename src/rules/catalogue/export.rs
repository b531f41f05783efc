//! The exports for the tax adviser (`Export`).

use crate::error::said::Export;
use crate::error::Lang;

use super::reader::Reader;

/// The message in the reader's words.
pub fn text(export: &Export, r: Reader) -> String {
    match (export, r.lang) {
        (Export::NotAPartner(what), Lang::En) => {
            format!("{} is not a partner of these books", what.text(r))
        }
        (Export::NotAPartner(what), Lang::De) => {
            format!("{} ist kein Partner dieser Bücher", what.text(r))
        }
    }
}
