//! The payment terms a received document states, read into dates: the due
//! date (BT-9, else the days the terms text BT-20 names: "zahlbar
//! innerhalb von 30 Tagen", "within 30 days", "30 Tage netto", counted
//! from the issue date) and the cash discount (Skonto): XRechnung's
//! structured lines `#SKONTO#TAGE=14#PROZENT=2.00#` (the first line when
//! there are several, with or without `BASISBETRAG=`), CII's
//! `ram:ApplicableTradePaymentDiscountTerms` (`BasisPeriodMeasure` in
//! days, `CalculationPercent`), and the plain texts common in ZUGFeRD
//! ("2 % Skonto bei Zahlung innerhalb von 10 Tagen", "bei Zahlung bis
//! 15.03.2026 2 % Skonto", "2% discount if paid within 10 days"). What it
//! cannot read it leaves out; nothing is guessed.

use jiff::civil::Date;
use jiff::Span;

use super::tree::Node;
use crate::documents::Document;
use crate::rules::money::Decimal;

/// Where a term was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// BT-9, the due date itself.
    DueDate,
    /// XRechnung's `#SKONTO#…#` line in BT-20.
    Structured,
    /// CII's `ApplicableTradePaymentDiscountTerms`.
    DiscountTerms,
    /// BT-20's words.
    Text,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::DueDate => "BT-9",
            Source::Structured => "XRechnung #SKONTO#",
            Source::DiscountTerms => "CII ApplicableTradePaymentDiscountTerms",
            Source::Text => "BT-20",
        }
    }
}

/// A cash discount: `percent` off when paid by `until`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CashDiscount {
    pub until: Date,
    pub percent: Decimal,
    pub source: Source,
}

/// The payment terms of a document, as far as they read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PaymentTerms {
    pub due_on: Option<(Date, Source)>,
    pub discount: Option<CashDiscount>,
}

/// The terms of `doc`, CII's structured discount terms taken from `root`
/// when it is a CII document.
pub fn read(doc: &Document, root: Option<&Node>) -> PaymentTerms {
    let text = doc.payment_terms.as_deref().unwrap_or_default();
    let days_from_issue = |days: i64| doc.issued_on.checked_add(Span::new().days(days)).ok();
    let due_on = match doc.due_on {
        Some(due) => Some((due, Source::DueDate)),
        None => clauses(text)
            .filter(|c| !is_discount(c))
            .find_map(net_days)
            .and_then(days_from_issue)
            .map(|d| (d, Source::Text)),
    };
    let structured = text.lines().find_map(skonto_line).and_then(|(days, pct)| {
        Some(CashDiscount {
            until: days_from_issue(days)?,
            percent: pct,
            source: Source::Structured,
        })
    });
    let from_terms = || {
        root.and_then(discount_terms).and_then(|(days, pct)| {
            Some(CashDiscount {
                until: days_from_issue(days)?,
                percent: pct,
                source: Source::DiscountTerms,
            })
        })
    };
    let from_text = || {
        clauses(text)
            .filter(|c| is_discount(c) && !c.starts_with('#'))
            .find_map(|c| {
                let percent = percent_in(&c)?;
                let until = match date_in(&c) {
                    Some(d) => d,
                    None => days_from_issue(days_in(&c)?)?,
                };
                Some(CashDiscount {
                    until,
                    percent,
                    source: Source::Text,
                })
            })
    };
    PaymentTerms {
        due_on,
        discount: structured.or_else(from_terms).or_else(from_text),
    }
}

/// The clauses of a terms text, lower case: its lines, cut at `;` and at
/// a comma that is no decimal comma.
fn clauses(text: &str) -> impl Iterator<Item = String> + '_ {
    text.lines().flat_map(|line| {
        let chars: Vec<char> = line.chars().collect();
        let mut out = Vec::new();
        let mut current = String::new();
        for (i, c) in chars.iter().enumerate() {
            let between_digits = i > 0
                && chars[i - 1].is_ascii_digit()
                && chars.get(i + 1).is_some_and(char::is_ascii_digit);
            if *c == ';' || (*c == ',' && !between_digits) {
                out.push(std::mem::take(&mut current));
            } else {
                current.extend(c.to_lowercase());
            }
        }
        out.push(current);
        out.into_iter()
            .map(|c| c.trim().to_string())
            .filter(|c| !c.is_empty())
    })
}

fn is_discount(clause: &str) -> bool {
    clause.contains("skonto") || clause.contains("discount") || clause.contains('%')
}

/// The words of a clause, split at white space and cut of their stops.
fn words(clause: &str) -> Vec<&str> {
    clause
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| matches!(c, '.' | ':' | '(' | ')')))
        .filter(|w| !w.is_empty())
        .collect()
}

fn number(word: &str) -> Option<i64> {
    (!word.is_empty() && word.len() <= 4 && word.bytes().all(|b| b.is_ascii_digit()))
        .then(|| word.parse().ok())
        .flatten()
}

fn is_day(word: &str) -> bool {
    word.starts_with("tag") || word.starts_with("day")
}

/// The days a clause names after "innerhalb (von)" or "within": `N Tagen`.
fn days_in(clause: &str) -> Option<i64> {
    let w = words(clause);
    (0..w.len()).find_map(|i| {
        let starts = matches!(w[i], "innerhalb" | "within" | "binnen");
        let at = if w.get(i + 1) == Some(&"von") {
            i + 2
        } else {
            i + 1
        };
        if !starts || !w.get(at + 1).is_some_and(|d| is_day(d)) {
            return None;
        }
        number(w.get(at)?)
    })
}

/// The days to the due date a clause names: "innerhalb von N Tagen",
/// "within N days", "N Tage netto", "net N days".
fn net_days(clause: String) -> Option<i64> {
    if let Some(days) = days_in(&clause) {
        return Some(days);
    }
    let w = words(&clause);
    (0..w.len()).find_map(|i| {
        let days = number(w[i])?;
        let day = w.get(i + 1).is_some_and(|d| is_day(d));
        let netto = matches!(w.get(i + 2).copied(), Some("netto" | "net"))
            || (w.get(i + 2) == Some(&"rein") && w.get(i + 3) == Some(&"netto"));
        let net_before = i > 0 && matches!(w[i - 1], "net" | "netto");
        (day && (netto || net_before)).then_some(days)
    })
}

/// The percent a clause names: `2 %`, `2%`, `2,5 %`, `2.00%`.
fn percent_in(clause: &str) -> Option<Decimal> {
    let at = clause.find('%')?;
    let before = clause[..at].trim_end();
    let start = before
        .rfind(|c: char| !(c.is_ascii_digit() || c == ',' || c == '.'))
        .map(|i| i + 1)
        .unwrap_or(0);
    let written = before[start..].replace(',', ".");
    Decimal::read_lenient(&written).filter(|p| !p.is_zero() && !p.is_negative())
}

/// A date written `DD.MM.YYYY` after "bis" or "by" in a clause.
fn date_in(clause: &str) -> Option<Date> {
    let w = words(clause);
    (1..w.len()).find_map(|i| {
        if !matches!(w[i - 1], "bis" | "by" | "until" | "zum") {
            return None;
        }
        let parts: Vec<&str> = w[i].split('.').collect();
        match parts.as_slice() {
            [d, m, y] if y.len() == 4 => {
                Date::new(y.parse().ok()?, m.parse().ok()?, d.parse().ok()?).ok()
            }
            _ => None,
        }
    })
}

/// XRechnung's `#SKONTO#TAGE=14#PROZENT=2.00#(BASISBETRAG=…#)` line: its
/// days and percent.
fn skonto_line(line: &str) -> Option<(i64, Decimal)> {
    let rest = line.trim().strip_prefix("#SKONTO#")?;
    let mut days = None;
    let mut percent = None;
    for part in rest.split('#') {
        match part.trim().split_once('=') {
            Some(("TAGE", v)) => days = v.trim().parse::<i64>().ok(),
            Some(("PROZENT", v)) => percent = Decimal::read_lenient(v),
            _ => {}
        }
    }
    Some((days.filter(|d| *d >= 0)?, percent.filter(|p| !p.is_zero())?))
}

/// CII's first `ApplicableTradePaymentDiscountTerms` with a period in days
/// and a percent.
fn discount_terms(root: &Node) -> Option<(i64, Decimal)> {
    let settlement = root
        .child("SupplyChainTradeTransaction")?
        .child("ApplicableHeaderTradeSettlement")?;
    settlement
        .all("SpecifiedTradePaymentTerms")
        .flat_map(|t| t.all("ApplicableTradePaymentDiscountTerms"))
        .find_map(|d| {
            let period = d.child("BasisPeriodMeasure")?;
            if !matches!(period.attribute("unitCode"), None | Some("DAY")) {
                return None;
            }
            let days = Decimal::read_lenient(period.value()?)?.to_minor(0)?;
            let percent = Decimal::read_lenient(d.text_at(&["CalculationPercent"])?)?;
            (days >= 0 && !percent.is_zero()).then_some((days, percent))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(text: &str, due: Option<Date>) -> PaymentTerms {
        let mut doc = crate::documents::samples::mixed();
        doc.issued_on = Date::constant(2026, 3, 1);
        doc.due_on = due;
        doc.payment_terms = Some(text.to_string());
        read(&doc, None)
    }

    fn discount(until: Date, percent: &str, source: Source) -> Option<CashDiscount> {
        Some(CashDiscount {
            until,
            percent: Decimal::read_lenient(percent).unwrap(),
            source,
        })
    }

    #[test]
    fn the_due_date_is_bt_9_else_the_days_the_text_names() {
        let bt9 = Date::constant(2026, 3, 20);
        assert_eq!(
            terms("zahlbar innerhalb von 30 Tagen", Some(bt9)).due_on,
            Some((bt9, Source::DueDate))
        );
        for text in [
            "Zahlbar innerhalb von 30 Tagen ohne Abzug.",
            "Payable within 30 days",
            "30 Tage netto",
            "2 % Skonto bei Zahlung innerhalb von 10 Tagen, 30 Tage netto",
            "#SKONTO#TAGE=14#PROZENT=2.00#\nZahlbar innerhalb 30 Tagen",
        ] {
            assert_eq!(
                terms(text, None).due_on,
                Some((Date::constant(2026, 3, 31), Source::Text)),
                "{text}"
            );
        }
        assert_eq!(terms("Bitte bald zahlen", None).due_on, None);
        assert_eq!(
            terms("2 % Skonto innerhalb von 10 Tagen", None).due_on,
            None
        );
    }

    #[test]
    fn the_discount_is_read_from_xrechnungs_lines_and_the_common_texts() {
        let d = |m, day| Date::constant(2026, m, day);
        assert_eq!(
            terms(
                "#SKONTO#TAGE=14#PROZENT=2.00#\n#SKONTO#TAGE=30#PROZENT=1.00#",
                None
            )
            .discount,
            discount(d(3, 15), "2", Source::Structured)
        );
        assert_eq!(
            terms("#SKONTO#TAGE=7#PROZENT=3.00#BASISBETRAG=100.00#", None).discount,
            discount(d(3, 8), "3", Source::Structured)
        );
        assert_eq!(
            terms("2 % Skonto bei Zahlung innerhalb von 10 Tagen", None).discount,
            discount(d(3, 11), "2", Source::Text)
        );
        assert_eq!(
            terms("Bei Zahlung bis 15.03.2026 2,5% Skonto", None).discount,
            discount(d(3, 15), "2.5", Source::Text)
        );
        assert_eq!(
            terms("3% discount if paid within 8 days, net 30 days", None).discount,
            discount(d(3, 9), "3", Source::Text)
        );
        assert_eq!(terms("Zahlbar sofort", None).discount, None);
    }
}
