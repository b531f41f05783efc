//! Bank accounts, statements and their lines (`Bank`).

use crate::error::said::Bank;
use crate::error::Lang;

use super::reader::Reader;

/// The message in the reader's words.
pub fn text(bank: &Bank, r: Reader) -> String {
    match (bank, r.lang) {
        (Bank::LineDay(said), Lang::En) => format!("The line's booking day {}", said.text(r)),
        (Bank::LineDay(said), Lang::De) => format!("Der Buchungstag der Zeile {}", said.text(r)),
        (Bank::LineAmount(said), Lang::En) => format!("The amount {}", said.text(r)),
        (Bank::LineAmount(said), Lang::De) => format!("Der Betrag {}", said.text(r)),
        (Bank::Names(said), Lang::En) => format!("names {}", said.text(r)),
        (Bank::Names(said), Lang::De) => format!("nennt {}", said.text(r)),
        (Bank::NoDocument { number, bill }, Lang::En) => format!(
            "{number}, which is no {} of the company",
            if *bill {
                "bill"
            } else {
                "invoice that takes payments"
            }
        ),
        (Bank::NoDocument { number, bill }, Lang::De) => format!(
            "{number}, {} der Firma",
            if *bill {
                "keine Eingangsrechnung"
            } else {
                "keine Rechnung, die Zahlungen annimmt,"
            }
        ),
    }
}
