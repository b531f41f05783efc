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
        (Export::RangeFull { from, to, detail }, Lang::En) => format!(
            "Every account number from {from} to {to} is given; no number is left for {detail}."
        ),
        (Export::RangeFull { from, to, detail }, Lang::De) => format!(
            "Jede Kontonummer von {from} bis {to} ist vergeben; für {detail} bleibt keine Nummer."
        ),
        (
            Export::NumberOutOfRange {
                supplier,
                from,
                to,
                got,
            },
            Lang::En,
        ) => format!(
            "of a {} is from {from} to {to}, not {got}",
            if *supplier { "supplier" } else { "customer" }
        ),
        (
            Export::NumberOutOfRange {
                supplier,
                from,
                to,
                got,
            },
            Lang::De,
        ) => format!(
            "eines {} liegt zwischen {from} und {to}, nicht {got}",
            if *supplier { "Lieferanten" } else { "Kunden" }
        ),
        (Export::NumbersKept { on }, Lang::En) => format!(
            "cannot change: the books were exported to DATEV on {}, and the adviser keeps the numbers",
            r.date(*on)
        ),
        (Export::NumbersKept { on }, Lang::De) => format!(
            "kann sich nicht ändern: Die Bücher wurden am {} an DATEV exportiert, und der Berater behält die Nummern",
            r.date(*on)
        ),
        (Export::NumberTaken { number, holder }, Lang::En) => {
            format!("{number} is the account of {holder} already")
        }
        (Export::NumberTaken { number, holder }, Lang::De) => {
            format!("{number} ist schon das Konto von {holder}")
        }
        (Export::NeededForDatev, _) => r
            .pick(
                "is needed for a DATEV export; set it in the company's settings",
                "wird für einen DATEV-Export gebraucht; tragen Sie die Angabe in den Einstellungen der Firma ein",
            )
            .into(),
        (Export::NextFiscalYear { from, to }, Lang::En) => format!(
            "lies in the next fiscal year: a DATEV batch is of one fiscal year ({} to {})",
            r.date(*from),
            r.date(*to)
        ),
        (Export::NextFiscalYear { from, to }, Lang::De) => format!(
            "liegt im nächsten Geschäftsjahr: Ein DATEV-Stapel umfasst ein Geschäftsjahr ({} bis {})",
            r.date(*from),
            r.date(*to)
        ),
        (Export::ChartKeepsOwn { chart, own }, Lang::En) => format!(
            "stays {chart}: the company keeps {own} account(s) of its own in it; remove them first"
        ),
        (Export::ChartKeepsOwn { chart, own }, Lang::De) => format!(
            "bleibt {chart}: Die Firma führt darin {own} eigene(s) Konto/Konten; entfernen Sie sie zuerst"
        ),
        (Export::ChartExported { chart, on }, Lang::En) => format!(
            "stays {chart}: the books were exported to DATEV on {} in it",
            r.date(*on)
        ),
        (Export::ChartExported { chart, on }, Lang::De) => format!(
            "bleibt {chart}: Die Bücher wurden am {} darin an DATEV exportiert",
            r.date(*on)
        ),
    }
}
