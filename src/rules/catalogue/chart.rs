//! The chart of accounts and a company's own accounts (`Chart`).

use crate::error::said::Chart;
use crate::error::Lang;

use super::reader::Reader;

/// An account kind by its key: `an asset` / `Aktiv`.
fn kind(key: &str, r: Reader) -> (&'static str, &'static str) {
    match (key, r.lang) {
        ("asset", _) => ("an asset", "Aktivkonto"),
        ("liability", _) => ("a liability", "Passivkonto"),
        ("equity", _) => ("an equity", "Eigenkapitalkonto"),
        ("revenue", _) => ("a revenue", "Erlöskonto"),
        ("expense", _) => ("an expense", "Aufwandskonto"),
        ("tax", _) => ("a tax", "Steuerkonto"),
        _ => ("an", "Konto"),
    }
}

/// An account kind by its key, in the plural: `expense` / `Aufwandskonten`.
fn kinds(key: &str) -> (&'static str, &'static str) {
    match key {
        "asset" => ("asset", "Aktivkonten"),
        "liability" => ("liability", "Passivkonten"),
        "equity" => ("equity", "Eigenkapitalkonten"),
        "revenue" => ("revenue", "Erlöskonten"),
        "expense" => ("expense", "Aufwandskonten"),
        "tax" => ("tax", "Steuerkonten"),
        _ => ("other", "anderen Konten"),
    }
}

/// The message in the reader's words.
pub fn text(chart: &Chart, r: Reader) -> String {
    match (chart, r.lang) {
        (
            Chart::NotForCosts {
                number,
                name,
                key,
                kind: k,
            },
            Lang::En,
        ) => format!(
            "names {number} {name} ({key}), {} account; a bill's cost goes to an expense account",
            kind(k, r).0
        ),
        (
            Chart::NotForCosts {
                number,
                name,
                key,
                kind: k,
            },
            Lang::De,
        ) => format!(
            "nennt {number} {name} ({key}), ein {}; die Kosten einer Eingangsrechnung gehen auf ein Aufwandskonto",
            kind(k, r).1
        ),
        (Chart::NoSuchAccount { chart, got }, Lang::En) if r.on_screens() => format!(
            "names no account of the company's chart {chart} ({}); the chart of accounts under Books shows them",
            r.quoted(got)
        ),
        (Chart::NoSuchAccount { chart, got }, Lang::En) => format!(
            "names no account of the company's chart {chart} ({}); `account list` shows them",
            r.quoted(got)
        ),
        (Chart::NoSuchAccount { chart, got }, Lang::De) if r.on_screens() => format!(
            "nennt kein Konto des Kontenrahmens {chart} der Firma ({}); der Kontenplan unter Bücher zeigt sie",
            r.quoted(got)
        ),
        (Chart::NoSuchAccount { chart, got }, Lang::De) => format!(
            "nennt kein Konto des Kontenrahmens {chart} der Firma ({}); `account list` zeigt sie",
            r.quoted(got)
        ),
        (Chart::NotAccountNumber { got }, Lang::En) => format!(
            "is a G/L account number of four digits at most, not {}",
            r.quoted(got)
        ),
        (Chart::NotAccountNumber { got }, Lang::De) => format!(
            "ist eine Sachkontonummer von höchstens vier Ziffern, nicht {}",
            r.quoted(got)
        ),
        (
            Chart::LineOfOtherStatement {
                line,
                profit_and_loss,
                kind: k,
            },
            Lang::En,
        ) => format!(
            "{line} belongs to {}; {} account is shown in {}",
            if *profit_and_loss {
                "the profit and loss"
            } else {
                "the balance sheet"
            },
            kind(k, r).0,
            if *profit_and_loss {
                "the balance sheet (not its result, A.V)"
            } else {
                "the profit and loss"
            }
        ),
        (
            Chart::LineOfOtherStatement {
                line,
                profit_and_loss,
                kind: k,
            },
            Lang::De,
        ) => format!(
            "{line} gehört zu {}; ein {} steht in {}",
            if *profit_and_loss {
                "der Gewinn- und Verlustrechnung"
            } else {
                "der Bilanz"
            },
            kind(k, r).1,
            if *profit_and_loss {
                "der Bilanz (nicht in ihrem Ergebnis, A.V)"
            } else {
                "der Gewinn- und Verlustrechnung"
            }
        ),
        (
            Chart::OutsideRanges {
                number,
                kind: k,
                chart,
                ranges,
            },
            Lang::En,
        ) => format!(
            "{number} lies outside the ranges of {} accounts on {chart} ({})",
            kinds(k).0,
            ranges.join(", ")
        ),
        (
            Chart::OutsideRanges {
                number,
                kind: k,
                chart,
                ranges,
            },
            Lang::De,
        ) => format!(
            "{number} liegt außerhalb der Bereiche der {} im {chart} ({})",
            kinds(k).1,
            ranges.join(", ")
        ),
        (
            Chart::NumberTaken {
                number,
                name,
                key,
                standard,
            },
            Lang::En,
        ) => format!(
            "{number} is {name} already ({key}){}",
            if *standard {
                ", a standard account whose meaning does not change"
            } else {
                ""
            }
        ),
        (
            Chart::NumberTaken {
                number,
                name,
                key,
                standard,
            },
            Lang::De,
        ) => format!(
            "{number} ist schon {name} ({key}){}",
            if *standard {
                ", ein Standardkonto, dessen Bedeutung sich nicht ändert"
            } else {
                ""
            }
        ),
        (
            Chart::StandardKept {
                number,
                name,
                chart,
            },
            Lang::En,
        ) => format!(
            "{number} {name} is a standard account of {chart}; only a company's own accounts are removed."
        ),
        (
            Chart::StandardKept {
                number,
                name,
                chart,
            },
            Lang::De,
        ) => format!(
            "{number} {name} ist ein Standardkonto des {chart}; nur eigene Konten einer Firma werden entfernt."
        ),
        (Chart::HasPostings { number, name, first }, Lang::En) => format!(
            "The account {number} {name} has postings (the first on {}); an account with postings is kept.",
            r.date(*first)
        ),
        (Chart::HasPostings { number, name, first }, Lang::De) => format!(
            "Das Konto {number} {name} hat Buchungen (die erste am {}); ein Konto mit Buchungen bleibt.",
            r.date(*first)
        ),
        (Chart::Closed { through, date }, Lang::En) => format!(
            "The books are closed through {}; an act dated {} cannot be recorded.",
            r.date(*through),
            r.date(*date)
        ),
        (Chart::Closed { through, date }, Lang::De) => format!(
            "Die Bücher sind bis {} abgeschlossen; ein Vorgang vom {} kann nicht erfasst werden.",
            r.date(*through),
            r.date(*date)
        ),
        (Chart::ClosingBack { current }, Lang::En) => format!(
            "The books are already closed through {}; closing cannot move back.",
            r.date(*current)
        ),
        (Chart::ClosingBack { current }, Lang::De) => format!(
            "Die Bücher sind schon bis {} abgeschlossen; der Abschluss kann nicht zurückgehen.",
            r.date(*current)
        ),
        (
            Chart::TooManyPostings {
                account,
                max,
                from,
                to,
            },
            Lang::En,
        ) => format!(
            "The account {account} has more than {max} postings from {} to {}; ask for a shorter period.",
            r.date(*from),
            r.date(*to)
        ),
        (
            Chart::TooManyPostings {
                account,
                max,
                from,
                to,
            },
            Lang::De,
        ) => format!(
            "Das Konto {account} hat mehr als {max} Buchungen vom {} bis {}; wählen Sie einen kürzeren Zeitraum.",
            r.date(*from),
            r.date(*to)
        ),
    }
}
