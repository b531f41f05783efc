//! People, their sign-in, one-time links and second factors (`Access`).

use crate::error::said::Access;

use super::reader::Reader;

/// The message in the reader's words.
pub fn text(access: &Access, r: Reader) -> String {
    match access {
        Access::LinkUsed => r
            .pick(
                "This link was used already: a link works once. Ask the company's owner for a new one.",
                "Dieser Link wurde schon benutzt: Ein Link funktioniert einmal. Bitten Sie den Inhaber der Firma um einen neuen.",
            )
            .into(),
        Access::LinkExpired => r
            .pick(
                "This link has expired: a link works for 24 hours. Ask the company's owner for a new one.",
                "Dieser Link ist abgelaufen: Ein Link funktioniert 24 Stunden lang. Bitten Sie den Inhaber der Firma um einen neuen.",
            )
            .into(),
    }
}
