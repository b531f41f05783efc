//! What a bank statement says, whatever format it came in: statements (the
//! account, the bank's statement id and sequence number, the opening and
//! closing balances), their entries (booked or preliminary, with dates, the
//! bank's reference and whether it reverses an earlier one) and each entry's
//! lines (one per transaction of a batch, else one per entry) with the
//! counterparty, the remittance and the references a payment carries. Also
//! the bounds every reader holds to, and the reading of amounts and dates
//! the readers share. Amounts are signed minor units: credits positive.

use jiff::civil::Date;
use serde::{Deserialize, Serialize};

use crate::error::said::{Bank, FileFault, Sum};
use crate::error::{Error, Result, Said};
use crate::rules::bank::{AccountId, Iban};
use crate::rules::iso::Currency;

/// Largest statement file read (bytes), alone or as a member of a ZIP.
pub const MAX_FILE: u64 = 50 * 1024 * 1024;
/// Largest sum of the members of a ZIP, uncompressed (bytes).
pub const MAX_ARCHIVE: u64 = 200 * 1024 * 1024;
/// Most members a ZIP may have.
pub const MAX_MEMBERS: usize = 10_000;
/// Deepest nesting of XML elements read (camt needs about 12).
pub const MAX_DEPTH: usize = 40;
/// Longest text of one XML element or one MT940 field (characters).
pub const MAX_TEXT: usize = 100_000;
/// Longest free text kept of a line (remittance, names), characters.
pub const MAX_KEPT: usize = 1_000;

/// Which message a statement came in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Message {
    /// camt.052: an intraday report; nothing in it is booked yet.
    Report,
    /// camt.053: the day's statement of booked entries.
    Statement,
    /// camt.054: the details of entries (a batch's transactions).
    Notification,
    /// MT940: the SWIFT statement, German flavour.
    Mt940,
}

/// A balance of the account on a day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Balance {
    /// Signed minor units: a credit balance is positive.
    pub amount: i64,
    pub currency: Currency,
    pub on: Option<Date>,
}

/// The other party of a line: the debtor of a credit, the creditor of a debit.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Party {
    pub name: Option<String>,
    /// The party's IBAN, when the statement gives one that passes its check.
    pub iban: Option<Iban>,
    /// The party's account as written when it is no IBAN.
    pub account: Option<String>,
    pub bic: Option<String>,
}

/// One transaction: what is matched and settled.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Line {
    /// Signed minor units of the entry's currency; the lines of an entry add
    /// up to it.
    pub amount: i64,
    pub counterparty: Party,
    /// Every unstructured remittance joined, then the structured creditor
    /// references (one space between parts, runs of white space as one).
    pub remittance: String,
    /// The structured creditor references (`Strd/CdtrRefInf/Ref`), as written.
    pub creditor_references: Vec<String>,
    /// The payer's end-to-end id; `NOTPROVIDED` and `NONREF` are none.
    pub end_to_end_id: Option<String>,
    pub mandate_id: Option<String>,
    /// The bank's own reference of the transaction, if it gives one.
    pub bank_reference: Option<String>,
    /// Why a direct debit or transfer came back (camt `RtrInf/Rsn/Cd`: `AC04`).
    pub return_reason: Option<String>,
    /// Charges the bank took within `amount` (minor units, positive).
    pub charges: i64,
}

/// One entry of a statement: an amount booked (or about to be) on the account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Signed minor units: credits positive.
    pub amount: i64,
    pub currency: Currency,
    /// Booked (`BOOK` in a camt.053/054, every MT940 line); else preliminary
    /// (`PDNG`, every camt.052 entry), shown but never settling anything.
    pub booked: bool,
    pub booked_on: Option<Date>,
    pub value_on: Option<Date>,
    /// The bank's reference of the entry (`AcctSvcrRef`, MT940 after `//`);
    /// `NONREF` is none.
    pub bank_reference: Option<String>,
    /// The entry reverses an earlier one (`RvslInd`, MT940 `RC`/`RD`).
    pub reversal: bool,
    /// The bank's words for the kind of entry (`AddtlNtryInf`, MT940 `?00`).
    pub booking_text: Option<String>,
    /// The bank's transaction code: camt `Domn/Fmly/SubFmly` or `Prtry/Cd`,
    /// MT940 the GVC and the SWIFT code (`166 NTRF`).
    pub transaction_code: Option<String>,
    /// Details several transactions (a batch, "Sammler").
    pub batch: bool,
    pub lines: Vec<Line>,
    /// What the reader changed to read the entry at all (a 30 February read
    /// as the month's last day, an amount rounded to the currency), kept
    /// with its lines.
    pub notes: Vec<Remark>,
}

/// One statement (or report, or notification) of one account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    pub message: Message,
    /// The message and version as the file names it: `camt.053.001.08`, `MT940`.
    pub version: String,
    pub account: AccountId,
    pub currency: Option<Currency>,
    /// The bank's id of the statement (`Stmt/Id`, MT940 `:20:`).
    pub id: String,
    /// The electronic sequence number (`ElctrncSeqNb`; MT940: `:28C:` and
    /// the closing balance's date, since many banks write `00000`).
    pub sequence: Option<String>,
    pub opening: Option<Balance>,
    pub closing: Option<Balance>,
    pub entries: Vec<Entry>,
    /// What the reader changed to read a balance (an amount rounded to the
    /// currency).
    pub notes: Vec<Remark>,
}

impl Statement {
    /// The number of lines of all entries.
    pub fn line_count(&self) -> usize {
        self.entries.iter().map(|e| e.lines.len()).sum()
    }
}

/// A refusal of the statement file `name`, for `fault`.
pub fn refusal(name: &str, fault: FileFault) -> Error {
    Error::bad_request(Bank::FileUnreadable {
        file: name.to_string(),
        fault,
    })
}

/// What a reader changed to read a statement as the bank wrote it: kept
/// with the line (as JSON, in `bank_lines.notes`) and said in the reader's
/// language (`Said` from it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Remark {
    /// An amount `written` with more decimals than its currency has, read
    /// rounded to `read` minor units.
    Rounded {
        written: String,
        read: i64,
        currency: String,
    },
    /// A date `written` naming a day its month does not have (30/360
    /// interest days), `read` as the month's last day.
    LastOfMonth { written: String, read: Date },
    /// A remark on the balance field `tag` (`60F`) on `line`.
    Balance {
        tag: String,
        line: usize,
        remark: Box<Remark>,
    },
}

impl From<&Remark> for Said {
    fn from(remark: &Remark) -> Said {
        match remark {
            Remark::Rounded {
                written,
                read,
                currency,
            } => Bank::Rounded {
                written: written.clone(),
                read: Sum {
                    minor: *read,
                    currency: currency.clone(),
                },
            },
            Remark::LastOfMonth { written, read } => Bank::LastOfMonth {
                written: written.clone(),
                read: *read,
            },
            Remark::Balance { tag, line, remark } => Bank::BalanceRemark {
                tag: tag.clone(),
                line: *line,
                remark: Box::new(remark.as_ref().into()),
            },
        }
        .into()
    }
}

/// Reads an amount as a statement writes it (`8.85`, MT940's `8,85` and
/// `300,`) into minor units of `currency`; one with more decimals than the
/// currency has is rounded to its minor unit, half away from zero (as
/// kontor rounds every amount), and comes with a sentence saying so; trailing
/// zeros are no decimals (a direct bank writes `1234.5600000000000`).
///
/// Fails with its fault when it is no unsigned decimal or is larger than
/// 10^15 minor units.
pub fn minor_rounded(
    text: &str,
    currency: &Currency,
) -> std::result::Result<(i64, Option<Remark>), FileFault> {
    let bad = || FileFault::NotAmount {
        text: text.to_string(),
        currency: currency.as_str().to_string(),
    };
    let t = text.trim();
    let (int, frac) = match t.split_once(['.', ',']) {
        Some((i, f)) => (i, f),
        None => (t, ""),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty() || !digits(int) || !digits(frac) {
        return Err(bad());
    }
    let exponent = usize::from(currency.exponent());
    let frac = frac.trim_end_matches('0');
    let (kept, dropped) = frac.split_at(frac.len().min(exponent));
    let up = dropped.as_bytes().first().is_some_and(|d| *d >= b'5');
    let int = int.trim_start_matches('0');
    if int.len() > 15 {
        return Err(bad());
    }
    let whole: i64 = if int.is_empty() {
        0
    } else {
        int.parse().map_err(|_| bad())?
    };
    let fraction: i64 = format!("{kept:0<exponent$}").parse().unwrap_or(0);
    let value = whole
        .checked_mul(10i64.pow(exponent as u32))
        .and_then(|w| w.checked_add(fraction + i64::from(up)))
        .filter(|m| *m <= crate::rules::money::MAX_AMOUNT)
        .ok_or_else(bad)?;
    let note = (!dropped.is_empty()).then(|| Remark::Rounded {
        written: t.to_string(),
        read: value,
        currency: currency.as_str().to_string(),
    });
    Ok((value, note))
}

/// Reads a date (`2014-12-31`) or the date of a moment as the bank wrote it
/// (`2014-12-31T13:15:00+01:00` is the 31st, the bank's own day).
pub fn date(text: &str) -> std::result::Result<Date, FileFault> {
    let t = text.trim();
    t.get(..10)
        .filter(|_| t.len() == 10 || t.as_bytes()[10] == b'T')
        .and_then(|d| d.parse::<Date>().ok())
        .ok_or_else(|| FileFault::NotDate {
            text: t.to_string(),
        })
}

/// White space runs as one space, trimmed, and cut to `MAX_KEPT` characters.
pub fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(MAX_KEPT));
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    match out.char_indices().nth(MAX_KEPT) {
        Some((at, _)) => out[..at].to_string(),
        None => out,
    }
}

/// A reference, unless it is one of the words banks write for none.
pub fn reference(text: &str) -> Option<String> {
    let t = tidy(text);
    let none = ["", "NOTPROVIDED", "NONREF", "NONE", "NOTAVAILABLE"];
    (!none.iter().any(|n| t.eq_ignore_ascii_case(n))).then_some(t)
}

/// Checks a fact of the file or refuses it for the fault `what` names.
pub fn check(condition: bool, name: &str, what: impl FnOnce() -> FileFault) -> Result<()> {
    if condition {
        Ok(())
    } else {
        Err(refusal(name, what()))
    }
}

#[cfg(test)]
mod tests {
    use crate::documents::statements::model::*;

    fn ccy(code: &str) -> Currency {
        Currency::parse("c", code).unwrap()
    }

    #[test]
    fn amounts_are_read_exactly_in_the_currencys_minor_units() {
        let minor = |text: &str, code: &str| minor_rounded(text, &ccy(code));
        assert_eq!(minor("8.85", "EUR"), Ok((885, None)));
        assert_eq!(minor("300,", "EUR"), Ok((30000, None)));
        assert_eq!(minor("125300,1", "EUR"), Ok((12530010, None)));
        assert_eq!(minor("0", "SEK"), Ok((0, None)));
        assert_eq!(minor("2700", "JPY"), Ok((2700, None)));
        assert_eq!(minor("2700.00", "JPY"), Ok((2700, None)));
        assert_eq!(minor("1.005", "BHD"), Ok((1005, None)));
        for bad in ["", "-1", "1.2.3", "1e5", "x", ".5", "99999999999999999999"] {
            assert_eq!(
                minor(bad, "EUR"),
                Err(FileFault::NotAmount {
                    text: bad.into(),
                    currency: "EUR".into()
                }),
                "{bad}"
            );
        }
    }

    #[test]
    fn more_decimals_than_the_currency_has_are_rounded_with_a_note() {
        assert_eq!(minor_rounded("8.85", &ccy("EUR")), Ok((885, None)));
        assert_eq!(
            minor_rounded("1234.5600000000000", &ccy("EUR")),
            Ok((123456, None))
        );
        let (value, note) = minor_rounded("1234.5650000000001", &ccy("EUR")).unwrap();
        assert_eq!(value, 123457);
        assert_eq!(
            note,
            Some(Remark::Rounded {
                written: "1234.5650000000001".into(),
                read: 123457,
                currency: "EUR".into()
            })
        );
        assert_eq!(minor_rounded("0.004", &ccy("EUR")).unwrap().0, 0);
        assert_eq!(minor_rounded("0.005", &ccy("EUR")).unwrap().0, 1);
        assert_eq!(minor_rounded("9.999", &ccy("EUR")).unwrap().0, 1000);
        assert_eq!(minor_rounded("12.5", &ccy("JPY")).unwrap().0, 13);
        assert!(minor_rounded("1e5", &ccy("EUR")).is_err());
    }

    #[test]
    fn dates_are_the_banks_days() {
        let d: Date = "2014-12-31".parse().unwrap();
        assert_eq!(date("2014-12-31"), Ok(d));
        assert_eq!(date("2014-12-31T13:15:00+01:00"), Ok(d));
        assert_eq!(date(" 2014-12-31 "), Ok(d));
        assert!(date("2014-02-30").is_err());
        assert!(date("2014-12-3100").is_err());
        assert!(date("31.12.2014").is_err());
    }

    #[test]
    fn references_that_say_none_are_none() {
        assert_eq!(reference("NOTPROVIDED"), None);
        assert_eq!(reference(" nonref "), None);
        assert_eq!(reference(""), None);
        assert_eq!(reference("RE2026-00031"), Some("RE2026-00031".into()));
        assert_eq!(tidy("  JOSEF        JAEGER "), "JOSEF JAEGER");
        assert_eq!(tidy(&"ab ".repeat(1000)).chars().count(), MAX_KEPT);
    }
}
