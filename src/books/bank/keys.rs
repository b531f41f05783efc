//! How an import tells what it has seen before: the key of an entry (the
//! bank's reference, else a digest of what makes the entry itself), and the
//! balance chain of an account (each statement's opening balance is the
//! closing balance of the one before). Pure functions over the read
//! statements; the import stores the keys and compares.

use sha2::{Digest, Sha256};

use crate::documents::statements::{Entry, Statement};

/// The keys of a statement's entries, in order. An entry the bank gives a
/// reference is keyed `ref:` + that reference; another is keyed `sum:` + the
/// SHA-256 of its account, booking date, value date, signed amount,
/// counterparty IBAN, end-to-end id and remittance (white space and case
/// aside), with a count for the second and later entries of one statement
/// that agree in all of these (two equal fees on one day are two entries).
pub fn entry_keys(statement: &Statement) -> Vec<String> {
    let account = statement.account.shown();
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    statement
        .entries
        .iter()
        .map(|entry| {
            let base = match &entry.bank_reference {
                Some(reference) => format!("ref:{reference}"),
                None => format!("sum:{}", digest(&account, entry)),
            };
            let n = seen.entry(base.clone()).or_insert(0);
            *n += 1;
            if *n == 1 {
                base
            } else {
                format!("{base}#{n}")
            }
        })
        .collect()
}

fn digest(account: &str, entry: &Entry) -> String {
    let mut h = Sha256::new();
    let mut part = |text: &str| {
        h.update(text.as_bytes());
        h.update([0u8]);
    };
    part(account);
    part(&entry.booked_on.map(|d| d.to_string()).unwrap_or_default());
    part(&entry.value_on.map(|d| d.to_string()).unwrap_or_default());
    part(&entry.amount.to_string());
    for line in &entry.lines {
        part(line.counterparty.iban.as_ref().map_or("", |i| i.as_str()));
        part(line.end_to_end_id.as_deref().unwrap_or(""));
        part(&normalised(&line.remittance));
    }
    hex::encode(&h.finalize()[..16])
}

/// Remittance compared without case and white space.
pub fn normalised(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).flat_map(char::to_uppercase).collect()
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
        read(name, &std::fs::read(path).unwrap()).unwrap().statements
    }

    #[test]
    fn every_entry_of_the_samples_has_its_own_key() {
        for name in ["sepa_mt9401.sta", "synthetic-dk-camt053.v8.xml", "buxtehude.sta"] {
            let statements = sample(name);
            let mut keys: Vec<(String, String)> = statements
                .iter()
                .flat_map(|s| entry_keys(s).into_iter().map(|k| (s.account.shown(), k)))
                .collect();
            let all = keys.len();
            keys.sort();
            keys.dedup();
            assert_eq!(keys.len(), all, "{name}");
        }
        let keys = entry_keys(&sample("synthetic-dk-camt053.v8.xml")[0]);
        assert_eq!(keys[0], "ref:2026111800217000001");
        let keys = entry_keys(&sample("buxtehude.sta")[0]);
        assert!(keys.iter().all(|k| k.starts_with("sum:")));
        // The same statement read twice gives the same keys.
        assert_eq!(keys, entry_keys(&sample("buxtehude.sta")[0]));
    }

    #[test]
    fn equal_entries_of_one_statement_are_counted() {
        let mut statement = sample("buxtehude.sta").remove(0);
        let first = statement.entries[0].clone();
        statement.entries.push(first);
        let keys = entry_keys(&statement);
        assert_eq!(keys[3], format!("{}#2", keys[0]));
    }

    #[test]
    fn a_break_in_the_balance_chain_is_named_with_both_figures() {
        let s = sample("camt053.v2.multi.statement.xml");
        assert_eq!(gap(Some((2700, "EUR")), &s[1]), None);
        assert_eq!(
            gap(Some((2600, "EUR")), &s[1]),
            Some(Gap { statement: "254EURNL26VAYB8060476890".into(), last_closing: 2600, opening: 2700 })
        );
        assert_eq!(gap(None, &s[1]), None);
        assert_eq!(gap(Some((1, "SEK")), &s[1]), None);
    }
}
