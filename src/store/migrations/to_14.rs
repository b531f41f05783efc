//! Step 14 (13 → 14): a bank entry's keys become what makes it the same
//! money. Until 13 an entry the bank gave a reference was keyed by that
//! reference alone, so an entry of other money under a reference a bank
//! reuses was taken for a duplicate and not imported. Every stored entry is
//! keyed anew by the rule `books::bank::entry_keys` holds from 14 on, frozen here
//! as it was then: `entry_key` is the day (booked, else value date), the
//! value date, the signed amount and `sum:` with the SHA-256 of the
//! reference and each line's counterparty IBAN, end-to-end id and
//! remittance (white space and case aside), counted for repeats within one
//! statement; `reference_key` the day, the signed amount and `ref:` with a
//! reference that has a digit; `identity` either without its days. An entry
//! a camt.054 detailed is keyed by the line it had before. No row is
//! dropped: two entries that would share a key keep both, counted apart.

use std::collections::{HashMap, HashSet};

use rusqlite::{params, Connection};
use sha2::{Digest, Sha256};

use super::refusal::Stop;

/// The columns and the indexes of step 14, frozen.
const ADDED_IN_14: &str = include_str!("14.sql");

/// One stored entry as the step reads it.
struct Stored {
    seq: i64,
    statement: String,
    company: String,
    environment: String,
    account: String,
    booked: i64,
    amount: i64,
    booked_on: Option<String>,
    value_on: Option<String>,
    reference: Option<String>,
    detailed: bool,
}

/// Runs step 14.
pub(super) fn run(conn: &Connection) -> Result<(), Stop> {
    conn.execute_batch(ADDED_IN_14)?;
    let entries: Vec<Stored> = conn
        .prepare(
            "SELECT seq, statement_id, company_id, environment, bank_account_id, booked, amount, booked_on,
                    value_on, bank_reference, detailed_by IS NOT NULL
             FROM bank_entries ORDER BY seq",
        )?
        .query_map([], |r| {
            Ok(Stored {
                seq: r.get(0)?,
                statement: r.get(1)?,
                company: r.get(2)?,
                environment: r.get(3)?,
                account: r.get(4)?,
                booked: r.get(5)?,
                amount: r.get(6)?,
                booked_on: r.get(7)?,
                value_on: r.get(8)?,
                reference: r.get(9)?,
                detailed: r.get::<_, i64>(10)? == 1,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    let mut lines = conn.prepare(
        "SELECT coalesce(counterparty_iban, ''), coalesce(end_to_end_id, ''), remittance FROM bank_lines
         WHERE entry_id = (SELECT id FROM bank_entries WHERE seq = ?1) AND (?2 = 0 OR state = 'replaced')
         ORDER BY seq",
    )?;
    let mut update = conn.prepare(
        "UPDATE bank_entries SET entry_key = ?2, reference_key = ?3, identity = ?4 WHERE seq = ?1",
    )?;
    let mut in_statement: HashMap<(String, String), usize> = HashMap::new();
    let mut taken: HashSet<(String, String, String, String, i64)> = HashSet::new();
    for e in &entries {
        let day = e
            .booked_on
            .clone()
            .or_else(|| e.value_on.clone())
            .unwrap_or_else(|| "-".into());
        let mut h = Sha256::new();
        let mut part = |text: &str| {
            h.update(text.as_bytes());
            h.update([0u8]);
        };
        part(e.reference.as_deref().unwrap_or(""));
        let said: Vec<(String, String, String)> = lines
            .query_map(params![e.seq, i64::from(e.detailed)], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })?
            .collect::<rusqlite::Result<_>>()?;
        for (iban, end_to_end, remittance) in &said {
            part(iban);
            part(end_to_end);
            let normalised: String = remittance
                .chars()
                .filter(|c| !c.is_whitespace())
                .flat_map(char::to_uppercase)
                .collect();
            part(&normalised);
        }
        let sum = format!("sum:{}", hex::encode(&h.finalize()[..16]));
        let value = e.value_on.clone().unwrap_or_else(|| "-".into());
        let base = format!("{day} {value} {} {sum}", e.amount);
        let n = in_statement
            .entry((e.statement.clone(), base.clone()))
            .or_insert(0);
        *n += 1;
        let mut key = if *n == 1 {
            base.clone()
        } else {
            format!("{base}#{n}")
        };
        let mut count = *n;
        while !taken.insert((
            e.company.clone(),
            e.environment.clone(),
            e.account.clone(),
            key.clone(),
            e.booked,
        )) {
            count += 1;
            key = format!("{base}#{count}");
        }
        let reference = e
            .reference
            .as_deref()
            .filter(|r| r.bytes().any(|b| b.is_ascii_digit()));
        let reference_key = reference.map(|r| format!("{day} {} ref:{r}", e.amount));
        let identity = reference.map_or(sum, |r| format!("ref:{r}"));
        update.execute(params![e.seq, key, reference_key, identity])?;
    }
    Ok(())
}
