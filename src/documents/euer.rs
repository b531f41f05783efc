//! A cash-basis profit statement (*Einnahmenüberschussrechnung*, § 4 (3)
//! EStG) as the document a person hands over: the company, its fiscal
//! year, each figure on its line of that year's Anlage EÜR with its
//! Kennzahl and amount, the sums and the profit, whether the books are
//! closed, and the payments behind each line. The books build it; the PDF
//! writer lays it out (`pdf::write_euer`).

use jiff::civil::Date;

use crate::documents::Party;
use crate::rules::locale::Lang;

/// One line of the statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The form's line (`15`), `63:175` for the part not deductible.
    pub line: String,
    pub kz: String,
    pub label: String,
    /// Minor units of the euro.
    pub amount: i64,
    /// A sum of the form (the income's, the expenses').
    pub sum: bool,
}

/// A payment behind a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub date: Date,
    /// The invoice's number, the bill's id, the bank line's or the asset's.
    pub document: String,
    pub amount: i64,
}

/// The payments behind one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Behind {
    pub line: String,
    pub label: String,
    pub entries: Vec<Entry>,
}

/// Everything the statement's document carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    pub company: Party,
    pub lang: Lang,
    /// The calendar year the fiscal year starts in.
    pub year: i32,
    pub from: Date,
    pub to: Date,
    /// The year of the Anlage EÜR whose lines it uses.
    pub form: i32,
    /// The day it was made: the document's date.
    pub made_on: Date,
    pub is_final: bool,
    pub rows: Vec<Row>,
    pub profit: i64,
    /// Money moved in the year that stands on no line (not yet assigned,
    /// a customer's credit, trade tax), net.
    pub unassigned: i64,
    /// The payments behind each line; none when there are more than a
    /// document should list (`behind_count` says how many).
    pub behind: Option<Vec<Behind>>,
    pub behind_count: usize,
}

impl Statement {
    /// The document's title: `Einnahmenüberschussrechnung 2026`.
    pub fn title(&self) -> String {
        format!(
            "{} {}",
            self.lang
                .pick("Cash-basis profit statement", "Einnahmenüberschussrechnung"),
            self.year
        )
    }
}
