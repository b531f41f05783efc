//! How an import tells what it has seen before: the keys of an entry (what
//! makes it the same money), and the balance chain of an account (each
//! statement's opening balance is the closing balance of the one before).
//! Pure functions over the read statements; the import stores the keys and
//! compares.
//!
//! An entry is the same entry only if it is the same money: the same
//! account (the stored keys' own column), day and signed amount, and either
//! the same bank reference, where the bank gives one that tells entries
//! apart, or the same reference, counterparty, end-to-end id and remittance.
//! A reference alone is not enough: banks reuse references freely (an MT940
//! `:61:` reference after `//` that is the same short text on many lines,
//! `NONREF`), and a credit whose reference equals an earlier debit's is
//! other money. Whether a reference tells entries apart is a fact of the
//! file it comes in (it stands on one entry only), so both keys are kept
//! for every entry and the reference key is only looked up for an entry
//! whose reference tells.

use std::collections::{HashMap, HashSet};

use sha2::{Digest, Sha256};

use crate::documents::statements::{Entry, Message, Statement};

/// The keys of an entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryKey {
    /// What the entry says: its day (booked, else value date), value date,
    /// signed amount and `sum:` with the digest of its reference and each
    /// line's counterparty IBAN, end-to-end id and remittance; a count
    /// follows for repeats within one statement (two equal fees on one day
    /// are two entries). Unique per account among booked entries.
    pub key: String,
    /// The day, the signed amount and `ref:` with the bank's reference, for
    /// a reference with a digit in it (a short text such as `UEBERWEISUNG`
    /// is none).
    pub reference_key: Option<String>,
    /// Whether the reference tells this entry apart in its file (see
    /// `Placeholders`): only then is `reference_key` looked up.
    pub telling: bool,
    /// The keys without their days: `ref:` and the reference, else `sum:`
    /// and the digest. By it and the amount a booked entry finds the
    /// preliminary one it confirms (a camt.052 may date it otherwise).
    pub identity: String,
}

/// The bank references of a file that tell no entry apart: those that stand
/// on more than one entry of the same kind of message in the file (the
/// readers already drop the words for none, such as `NONREF`).
#[derive(Debug, Default)]
pub struct Placeholders(HashSet<(Message, String)>);

impl Placeholders {
    /// The placeholders among the references of `statements` (one file's).
    pub fn of(statements: &[Statement]) -> Placeholders {
        let mut counts: HashMap<(Message, &str), usize> = HashMap::new();
        for s in statements {
            for e in &s.entries {
                if let Some(r) = &e.bank_reference {
                    *counts.entry((s.message, r.as_str())).or_insert(0) += 1;
                }
            }
        }
        Placeholders(
            counts
                .into_iter()
                .filter(|(_, n)| *n > 1)
                .map(|((m, r), _)| (m, r.to_string()))
                .collect(),
        )
    }

    fn holds(&self, message: Message, reference: &str) -> bool {
        self.0.contains(&(message, reference.to_string()))
    }
}

/// A reference with a digit: a short text (`UEBERWEISUNG`) keys nothing.
fn keyed_reference(entry: &Entry) -> Option<&str> {
    entry
        .bank_reference
        .as_deref()
        .filter(|r| r.bytes().any(|b| b.is_ascii_digit()))
}

/// The keys of a statement's entries, in order (see `EntryKey`).
pub fn entry_keys(statement: &Statement, placeholders: &Placeholders) -> Vec<EntryKey> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    statement
        .entries
        .iter()
        .map(|entry| {
            let shown =
                |d: Option<jiff::civil::Date>| d.map_or_else(|| "-".to_string(), |d| d.to_string());
            let day = shown(entry.booked_on.or(entry.value_on));
            let sum = format!("sum:{}", digest(entry));
            let base = format!("{day} {} {} {sum}", shown(entry.value_on), entry.amount);
            let n = seen.entry(base.clone()).or_insert(0);
            *n += 1;
            let key = if *n == 1 { base } else { format!("{base}#{n}") };
            let reference = keyed_reference(entry);
            EntryKey {
                key,
                reference_key: reference.map(|r| format!("{day} {} ref:{r}", entry.amount)),
                telling: reference.is_some_and(|r| !placeholders.holds(statement.message, r)),
                identity: reference.map_or(sum, |r| format!("ref:{r}")),
            }
        })
        .collect()
}

fn digest(entry: &Entry) -> String {
    let mut h = Sha256::new();
    let mut part = |text: &str| {
        h.update(text.as_bytes());
        h.update([0u8]);
    };
    part(entry.bank_reference.as_deref().unwrap_or(""));
    for line in &entry.lines {
        part(line.counterparty.iban.as_ref().map_or("", |i| i.as_str()));
        part(line.end_to_end_id.as_deref().unwrap_or(""));
        part(&normalised(&line.remittance));
    }
    hex::encode(&h.finalize()[..16])
}

/// Remittance compared without case and white space.
pub fn normalised(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_uppercase)
        .collect()
}

/// A break in an account's balance chain: this statement's opening is not
/// the closing balance of the statement before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gap {
    pub statement: String,
    pub last_closing: i64,
    pub opening: i64,
}

/// The break between the closing balance known before (if any) and a
/// statement's opening balance (if it has one in the same currency).
pub fn gap(last_closing: Option<(i64, &str)>, statement: &Statement) -> Option<Gap> {
    let (last, currency) = last_closing?;
    let opening = statement.opening.as_ref()?;
    (opening.currency.as_str() == currency && opening.amount != last).then(|| Gap {
        statement: statement.id.clone(),
        last_closing: last,
        opening: opening.amount,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::documents::statements::read;

    fn sample(name: &str) -> Vec<Statement> {
        let path = format!("{}/tests/fixtures/bank/{name}", env!("CARGO_MANIFEST_DIR"));
        read(name, &std::fs::read(path).unwrap())
            .unwrap()
            .statements
    }

    fn keys(statement: &Statement, all: &[Statement]) -> Vec<EntryKey> {
        entry_keys(statement, &Placeholders::of(all))
    }

    #[test]
    fn every_entry_of_the_samples_has_its_own_key() {
        for name in [
            "sepa_mt9401.sta",
            "synthetic-dk-camt053.v8.xml",
            "buxtehude.sta",
        ] {
            let statements = sample(name);
            let mut all: Vec<(String, String)> = statements
                .iter()
                .flat_map(|s| {
                    keys(s, &statements)
                        .into_iter()
                        .map(|k| (s.account.shown(), k.key))
                })
                .collect();
            let count = all.len();
            all.sort();
            all.dedup();
            assert_eq!(all.len(), count, "{name}");
        }
        let dk = sample("synthetic-dk-camt053.v8.xml");
        let first = &keys(&dk[0], &dk)[0];
        assert_eq!(
            first.reference_key.as_deref(),
            Some("2026-11-18 119000 ref:2026111800217000001")
        );
        assert!(first.telling);
        assert_eq!(first.identity, "ref:2026111800217000001");
        let bux = sample("buxtehude.sta");
        assert!(keys(&bux[0], &bux)
            .iter()
            .all(|k| k.key.contains(" sum:") && !k.telling));
        // The same statement read twice gives the same keys.
        assert_eq!(keys(&bux[0], &bux), keys(&sample("buxtehude.sta")[0], &bux));
    }

    #[test]
    fn a_reference_does_not_make_other_money_the_same_entry() {
        let mut statements = sample("synthetic-dk-camt053.v8.xml");
        let s = &mut statements[0];
        let first = s.entries[0].clone();
        let alone = |e: Entry| {
            let st = Statement {
                entries: vec![e],
                ..s.clone()
            };
            keys(&st, std::slice::from_ref(&st)).remove(0)
        };
        let original = alone(first.clone());
        // Another amount, another sign, another day under the same reference.
        let mut other = first.clone();
        other.amount = -first.amount;
        let mut later = first.clone();
        later.booked_on = first.booked_on.map(|d| d.tomorrow().unwrap());
        for changed in [other, later] {
            let k = alone(changed);
            assert_ne!(k.key, original.key);
            assert_ne!(k.reference_key, original.reference_key);
        }
        // A reference on two entries of one file tells neither apart.
        s.entries[1].bank_reference = first.bank_reference.clone();
        let k = entry_keys(&statements[0], &Placeholders::of(&statements));
        assert!(!k[0].telling && !k[1].telling, "{k:?}");
        assert!(k[2].telling);
        assert_ne!(k[0].key, k[1].key);
    }

    #[test]
    fn a_reference_without_a_digit_keys_nothing() {
        let mut statements = sample("synthetic-dk-camt053.v8.xml");
        statements[0].entries[0].bank_reference = Some("UEBERWEISUNG".into());
        let k = entry_keys(&statements[0], &Placeholders::of(&statements));
        assert_eq!((k[0].reference_key.clone(), k[0].telling), (None, false));
        assert!(k[0].identity.starts_with("sum:"));
        assert!(k[1].identity.starts_with("ref:"));
    }

    #[test]
    fn equal_entries_of_one_statement_are_counted() {
        let mut statement = sample("buxtehude.sta").remove(0);
        let first = statement.entries[0].clone();
        statement.entries.push(first);
        let k = keys(&statement, std::slice::from_ref(&statement));
        assert_eq!(k[3].key, format!("{}#2", k[0].key));
    }

    #[test]
    fn a_break_in_the_balance_chain_is_named_with_both_figures() {
        let s = sample("camt053.v2.multi.statement.xml");
        assert_eq!(gap(Some((2700, "EUR")), &s[1]), None);
        assert_eq!(
            gap(Some((2600, "EUR")), &s[1]),
            Some(Gap {
                statement: "254EURNL26VAYB8060476890".into(),
                last_closing: 2600,
                opening: 2700
            })
        );
        assert_eq!(gap(None, &s[1]), None);
        assert_eq!(gap(Some((1, "SEK")), &s[1]), None);
    }
}
