//! The import act: one statement file (camt, MT940 or a ZIP of them) read,
//! checked against the company's bank accounts, stored with its SHA-256 and
//! its lines, and matched, all in the caller's one transaction, so a file
//! that fails halfway leaves nothing. Duplicates are counted, never stored
//! twice, at three levels: the same file (its SHA-256), the same statement
//! (account, message, statement id, sequence number) and the same entry
//! (`entry_keys::entry_keys`). A camt.054 that details a batch entry already
//! imported replaces that entry's one line by its transactions (when nothing
//! was settled from it yet), without adding money; a booked entry replaces
//! the preliminary one it confirms. Certain matches are settled at once
//! through the one settlement act (one that pays an invoice before its
//! date waits for a person, as money paid in advance); only suggestions
//! the act would take are kept; a returned direct debit takes back what
//! the line it returns settled; lines waiting whose suggestions name a
//! document the file settled are computed again at its end.

use std::borrow::Cow;
use std::collections::HashSet;

use rusqlite::{params, OptionalExtension};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::books::audit::{self, Act, Actor};
use crate::books::bank::accounts::{self, BankAccount};
use crate::books::bank::apply;
use crate::books::bank::entry_keys::{entry_keys, gap, EntryKey, Placeholders};
use crate::books::bank::lines::{self, State, Suggestion, Target};
use crate::books::bank::matching::{Ladder, Outcome, Reason};
use crate::books::bank::suggest;
use crate::books::company;
use crate::books::ledger::Account;
use crate::books::payments::TargetKind;
use crate::documents::statements::{self, Message, Statement};
use crate::error::said::Bank;
use crate::error::{Error, Result, Said};
use crate::rules::catalogue::{self, Reader};
use crate::rules::iso::Currency;
use crate::rules::locale;
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::tenant::Tenant;

/// What the import of one file did, as the console prints it.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileReport {
    pub file: String,
    /// Statements read (a ZIP's members' together).
    pub statements: usize,
    /// Lines read.
    pub lines: usize,
    /// Lines stored now.
    pub new: usize,
    /// Lines seen before (the same file, statement or entry).
    pub duplicates: usize,
    pub settled: usize,
    pub suggested: usize,
    pub unmatched: usize,
    pub preliminary: usize,
    /// The sentence why the file was refused; nothing of it was stored.
    pub refused: Option<String>,
    /// Breaks in the balance chain and other things a person should know;
    /// the console's JSON carries them in English, a screen words them.
    #[serde(serialize_with = "catalogue::in_english")]
    pub notes: Vec<Said>,
    /// The stored file's id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
}

impl FileReport {
    /// The report of a refused file, its refusal worded for `reader`.
    pub fn refused(file: &str, why: &Error, reader: Reader) -> FileReport {
        FileReport {
            file: file.to_string(),
            refused: Some(why.sentence_for(reader)),
            ..FileReport::default()
        }
    }
}

fn message_name(m: Message) -> &'static str {
    match m {
        Message::Report => "report",
        Message::Statement => "statement",
        Message::Notification => "notification",
        Message::Mt940 => "mt940",
    }
}

/// Imports the statement file `name` into the tenant's bank accounts. The
/// bytes are let go once stored and read (a caller that hands them over
/// owned holds no copy of a large file while its lines are matched).
///
/// Fails with `Invalid` naming the file when it is refused by its reader,
/// and with `Refused` when a statement names an account the company does
/// not have, or is kept in another currency than that account.
pub fn file(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    name: &str,
    bytes: Cow<'_, [u8]>,
) -> Result<FileReport> {
    let company = company::get(tx, &tenant.company_id)?;
    let sha256 = hex::encode(Sha256::digest(&bytes));
    let seen: Option<(String, String)> = tx
        .prepare_cached(
            "SELECT name, imported_at FROM bank_files WHERE company_id = ?1 AND environment = ?2 AND sha256 = ?3",
        )?
        .query_row(params![tenant.company_id, tenant.environment, sha256], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    if let Some((before, at)) = seen {
        let read = statements::read(name, &bytes)?;
        let lines = read.statements.iter().map(Statement::line_count).sum();
        return Ok(FileReport {
            file: name.to_string(),
            statements: read.statements.len(),
            lines,
            duplicates: lines,
            notes: vec![Bank::FileSeenBefore {
                before,
                on: company.date_of(&at),
            }
            .into()],
            ..FileReport::default()
        });
    }
    // The file is stored before it is read, while nothing else of it is
    // held: SQLite copies the bytes twice on their way into the row. A file
    // refused below takes its row with it (the caller's write fails).
    statements::check_size(name, &bytes)?;
    let file_id = ids::new_id("bfl");
    let now = clock::now();
    let by = actor.name();
    tx.prepare_cached(
        "INSERT INTO bank_files (id, company_id, environment, name, sha256, content, imported_at, imported_by)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![file_id, tenant.company_id, tenant.environment, name, sha256, bytes.as_ref(), now, by])?;
    let read = statements::read(name, &bytes)?;
    drop(bytes);
    let mut report = FileReport {
        file: name.to_string(),
        statements: read.statements.len(),
        lines: read.statements.iter().map(Statement::line_count).sum(),
        ..FileReport::default()
    };
    // Every statement belongs to one of the company's accounts, in its currency.
    let mut owners: Vec<BankAccount> = Vec::with_capacity(read.statements.len());
    for statement in &read.statements {
        let Some(account) = accounts::find(tx, tenant, &statement.account)? else {
            return Err(Error::refused(Bank::NotOurAccount {
                file: name.to_string(),
                account: statement.account.shown(),
            }));
        };
        let currency = statement
            .currency
            .clone()
            .or_else(|| statement.entries.first().map(|e| e.currency.clone()));
        if let Some(c) = currency.filter(|c| *c != account.currency) {
            return Err(Error::refused(Bank::StatementCurrency {
                file: name.to_string(),
                currency: c.as_str().to_string(),
                account: account.shown(),
                kept: account.currency.as_str().to_string(),
            }));
        }
        if let Some(e) = statement
            .entries
            .iter()
            .find(|e| e.currency != account.currency)
        {
            return Err(Error::refused(Bank::EntryCurrency {
                file: name.to_string(),
                amount: locale::sum(e.amount, &e.currency),
                statement: statement.id.clone(),
                account: account.shown(),
                kept: account.currency.as_str().to_string(),
            }));
        }
        owners.push(account);
    }
    report.id = Some(file_id.clone());
    // The lines are stored as they are read, unmatched; each statement read
    // is dropped once stored, before the open items are read for the ladder.
    // Thousands of rows: their ids are handed out in order (`ids::in_order`).
    let placeholders = Placeholders::of(&read.statements);
    ids::in_order(|| {
        let mut fresh: Vec<i64> = Vec::new();
        for (statement, account) in read.statements.into_iter().zip(&owners) {
            let at = Where {
                file_id: &file_id,
                account,
                placeholders: &placeholders,
                now: &now,
            };
            store_statement(tx, tenant, &at, statement, &mut report, &mut fresh)?;
        }
        if !fresh.is_empty() {
            match_lines(
                tx,
                tenant,
                actor,
                company.today(),
                &fresh,
                &file_id,
                &mut report,
            )?;
        }
        Ok::<(), Error>(())
    })?;
    report.preliminary = fresh_preliminary(tx, tenant, &file_id)?;
    audit::record(tx, tenant, actor, Act::BankFileImported, &file_id)?;
    Ok(report)
}

fn fresh_preliminary(tx: &Tx, tenant: &Tenant, file_id: &str) -> Result<usize> {
    let n: i64 = tx
        .prepare_cached(
            "SELECT count(*) FROM bank_lines l JOIN bank_entries e ON e.id = l.entry_id
             JOIN bank_statements s ON s.id = e.statement_id
             WHERE s.file_id = ?1 AND l.company_id = ?2 AND l.environment = ?3 AND l.state = 'preliminary'",
        )?
        .query_row(params![file_id, tenant.company_id, tenant.environment], |r| r.get(0))?;
    Ok(n as usize)
}

/// Where a statement is stored: its file, its account, the references of
/// its file that tell no entry apart, and the moment of the import.
struct Where<'a> {
    file_id: &'a str,
    account: &'a BankAccount,
    placeholders: &'a Placeholders,
    now: &'a str,
}

/// The entry an entry of the account repeats, if any, with whether it is
/// booked: a booked entry repeats a booked one that says the same, or
/// bears the same telling reference for the same money on the same day; a
/// preliminary one any entry so, and a booked one also by its identity (a
/// report may date an entry otherwise than the statement that books it).
/// Each way is one look-up by its own index.
fn repeats(
    tx: &Tx,
    tenant: &Tenant,
    account: &str,
    key: &EntryKey,
    booked: bool,
    amount: i64,
) -> Result<Option<(String, i64)>> {
    let t = (&tenant.company_id, &tenant.environment);
    let by_key = tx
        .prepare_cached(
            "SELECT id, booked FROM bank_entries WHERE company_id = ?1 AND environment = ?2
               AND bank_account_id = ?3 AND entry_key = ?4 AND booked >= ?5
             ORDER BY booked DESC LIMIT 1",
        )?
        .query_row(
            params![t.0, t.1, account, key.key, i64::from(booked)],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    if by_key.is_some() {
        return Ok(by_key);
    }
    if let Some(reference_key) = key.reference_key.as_deref().filter(|_| key.telling) {
        let by_reference = tx
            .prepare_cached(
                "SELECT id, booked FROM bank_entries WHERE company_id = ?1 AND environment = ?2
                   AND bank_account_id = ?3 AND reference_key = ?4 AND booked >= ?5
                 ORDER BY booked DESC, seq LIMIT 1",
            )?
            .query_row(
                params![t.0, t.1, account, reference_key, i64::from(booked)],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        if by_reference.is_some() {
            return Ok(by_reference);
        }
    }
    if booked {
        return Ok(None);
    }
    Ok(tx
        .prepare_cached(
            "SELECT id, booked FROM bank_entries WHERE company_id = ?1 AND environment = ?2
               AND bank_account_id = ?3 AND identity = ?4 AND amount = ?5 AND booked = 1
             ORDER BY seq LIMIT 1",
        )?
        .query_row(params![t.0, t.1, account, key.identity, amount], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .optional()?)
}

/// The earlier line an entry repeats, as the import's note names it.
fn repeated(tx: &Tx, tenant: &Tenant, entry_id: &str) -> Result<Option<(String, String, String)>> {
    Ok(tx
        .prepare_cached(
            "SELECT l.id, s.statement_id, f.name FROM bank_lines l
             JOIN bank_entries e ON e.id = l.entry_id
             JOIN bank_statements s ON s.id = e.statement_id
             JOIN bank_files f ON f.id = s.file_id
             WHERE e.id = ?1 AND l.company_id = ?2 AND l.environment = ?3
             ORDER BY l.state = 'replaced', l.seq LIMIT 1",
        )?
        .query_row(
            params![entry_id, tenant.company_id, tenant.environment],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?)
}

/// The note for an entry of `statement` not imported because it repeats
/// `earlier` (its first line, that line's statement and file).
fn repeat_note(
    entry: &statements::Entry,
    statement: &str,
    earlier: Option<(String, String, String)>,
) -> Said {
    Bank::EntryRepeats {
        lines: entry.lines.len(),
        on: entry.booked_on.or(entry.value_on),
        amount: locale::sum(entry.amount, &entry.currency),
        reference: entry.bank_reference.clone(),
        statement: statement.to_string(),
        earlier: earlier.map(|(line, before, file)| [line, before, file]),
    }
    .into()
}

/// Counts an entry of `statement` that repeats the stored entry
/// `earlier_id` as duplicates, and names the line it repeats in the notes.
///
/// Fails only on a storage error.
fn count_repeat(
    tx: &Tx,
    tenant: &Tenant,
    earlier_id: &str,
    entry: &statements::Entry,
    statement: &str,
    report: &mut FileReport,
) -> Result<()> {
    report.duplicates += entry.lines.len();
    let earlier = repeated(tx, tenant, earlier_id)?;
    report.notes.push(repeat_note(entry, statement, earlier));
    Ok(())
}

/// Stores one statement's entries and lines (those not seen before); the
/// ids of the booked lines to match are added to `fresh`.
fn store_statement(
    tx: &Tx,
    tenant: &Tenant,
    at: &Where<'_>,
    statement: Statement,
    report: &mut FileReport,
    fresh: &mut Vec<i64>,
) -> Result<()> {
    let Where {
        file_id,
        account,
        placeholders,
        now,
    } = *at;
    let mut statement = statement;
    let message = message_name(statement.message);
    let sequence = statement.sequence.clone().unwrap_or_default();
    let known: Option<String> = tx
        .prepare_cached(
            "SELECT id FROM bank_statements WHERE company_id = ?1 AND environment = ?2 AND bank_account_id = ?3
               AND message = ?4 AND statement_id = ?5 AND sequence = ?6",
        )?
        .query_row(
            params![tenant.company_id, tenant.environment, account.id, message, statement.id, sequence],
            |r| r.get(0),
        )
        .optional()?;
    if known.is_some() {
        report.duplicates += statement.line_count();
        report.notes.push(
            Bank::StatementSeenBefore {
                statement: statement.id.clone(),
                sequence: (!sequence.is_empty()).then(|| sequence.clone()),
                account: account.shown(),
            }
            .into(),
        );
        return Ok(());
    }
    // The balance chain: this opening against the last closing of the account.
    if matches!(statement.message, Message::Statement | Message::Mt940) {
        let last: Option<(i64, String)> = tx
            .prepare_cached(
                "SELECT closing, currency FROM bank_statements
                 WHERE company_id = ?1 AND environment = ?2 AND bank_account_id = ?3
                   AND message IN ('statement', 'mt940') AND closing IS NOT NULL
                 ORDER BY closing_on DESC, seq DESC LIMIT 1",
            )?
            .query_row(
                params![tenant.company_id, tenant.environment, account.id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        if let Some(g) = gap(last.as_ref().map(|(a, c)| (*a, c.as_str())), &statement) {
            report.notes.push(
                Bank::ChainBreaks {
                    account: account.shown(),
                    statement: g.statement.to_string(),
                    opening: locale::sum(g.opening, &account.currency),
                    closing: locale::sum(g.last_closing, &account.currency),
                }
                .into(),
            );
        }
    }
    let statement_row = ids::new_id("bst");
    tx.prepare_cached(
        "INSERT INTO bank_statements (id, company_id, environment, file_id, bank_account_id, message, version,
             statement_id, sequence, currency, opening, opening_on, closing, closing_on)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
    )?
    .execute(params![
        statement_row,
        tenant.company_id,
        tenant.environment,
        file_id,
        account.id,
        message,
        statement.version,
        statement.id,
        sequence,
        account.currency,
        statement.opening.as_ref().map(|b| b.amount),
        statement.opening.as_ref().and_then(|b| b.on),
        statement.closing.as_ref().map(|b| b.amount),
        statement.closing.as_ref().and_then(|b| b.on),
    ])?;
    // Whether the account has preliminary lines a booked entry may confirm.
    let mut preliminary: bool = tx
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM bank_lines WHERE company_id = ?1 AND environment = ?2
               AND state = 'preliminary' AND bank_account_id = ?3)",
        )?
        .query_row(
            params![tenant.company_id, tenant.environment, account.id],
            |r| r.get(0),
        )?;
    let keys = entry_keys(&statement, placeholders);
    let statement_notes = std::mem::take(&mut statement.notes);
    report.notes.extend(statement_notes.iter().map(|n| {
        Said::from(Bank::StatementRemark {
            statement: statement.id.clone(),
            remark: Box::new(n.into()),
        })
    }));
    for (entry, key) in statement.entries.into_iter().zip(keys) {
        let booked = entry.booked;
        // A booked entry repeats a booked one that says the same, or bears
        // the same telling reference for the same money on the same day; a
        // preliminary one any entry, and a booked one also by its identity
        // (a report may date an entry otherwise than the statement that
        // books it).
        let existing = repeats(tx, tenant, &account.id, &key, booked, entry.amount)?;
        let entry_id = match existing {
            Some((id, 1)) if statement.message == Message::Notification && booked => {
                match split_batch(tx, tenant, &id, entry.lines.len(), &statement_row)? {
                    Detailing::Replaced => id,
                    Detailing::Kept => {
                        count_repeat(tx, tenant, &id, &entry, &statement.id, report)?;
                        continue;
                    }
                    Detailing::ActedOn => {
                        report.duplicates += entry.lines.len();
                        report.notes.push(
                            Bank::DetailActedOn {
                                entry: entry
                                    .bank_reference
                                    .clone()
                                    .unwrap_or_else(|| key.key.clone()),
                                account: account.shown(),
                                count: entry.lines.len(),
                                statement: statement.id.clone(),
                            }
                            .into(),
                        );
                        continue;
                    }
                }
            }
            Some((id, _)) => {
                count_repeat(tx, tenant, &id, &entry, &statement.id, report)?;
                continue;
            }
            None => {
                if booked && preliminary {
                    // The booked entry confirms a preliminary one (the
                    // oldest of the same money and identity): that one goes.
                    tx.prepare_cached(
                        "UPDATE bank_lines SET state = 'replaced' WHERE company_id = ?1 AND environment = ?2
                           AND state = 'preliminary' AND entry_id = (SELECT e.id FROM bank_entries e
                             WHERE e.company_id = ?1 AND e.environment = ?2 AND e.bank_account_id = ?3
                               AND e.identity = ?4 AND e.amount = ?5 AND e.booked = 0
                               AND EXISTS (SELECT 1 FROM bank_lines p WHERE p.entry_id = e.id AND p.state = 'preliminary')
                             ORDER BY e.seq LIMIT 1)",
                    )?
                    .execute(params![tenant.company_id, tenant.environment, account.id, key.identity, entry.amount])?;
                }
                let id = ids::new_id("ben");
                tx.prepare_cached(
                    "INSERT INTO bank_entries (id, company_id, environment, statement_id, bank_account_id, entry_key,
                         reference_key, identity, amount, currency, booked, booked_on, value_on, bank_reference,
                         reversal, booking_text, transaction_code, batch)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)",
                )?
                .execute(params![
                    id,
                    tenant.company_id,
                    tenant.environment,
                    statement_row,
                    account.id,
                    key.key,
                    key.reference_key,
                    key.identity,
                    entry.amount,
                    entry.currency,
                    i64::from(booked),
                    entry.booked_on,
                    entry.value_on,
                    entry.bank_reference,
                    i64::from(entry.reversal),
                    entry.booking_text,
                    entry.transaction_code,
                    i64::from(entry.batch)
                ])?;
                id
            }
        };
        let notes = serde_json::to_string(&entry.notes).map_err(Error::internal)?;
        for line in &entry.lines {
            let state = if booked {
                State::Unmatched
            } else {
                State::Preliminary
            };
            let row = lines::insert(
                tx,
                tenant,
                &entry_id,
                &account.id,
                line,
                &entry.currency,
                entry.booked_on,
                entry.value_on,
                state,
                entry.reversal,
                &notes,
                now,
            )?;
            report.new += 1;
            if booked {
                fresh.push(row);
            } else {
                preliminary = true;
            }
        }
        for note in &entry.notes {
            report.notes.push(
                Bank::EntryRemark {
                    amount: locale::sum(entry.amount, &entry.currency),
                    reference: entry.bank_reference.clone(),
                    statement: statement.id.clone(),
                    remark: Box::new(note.into()),
                }
                .into(),
            );
        }
    }
    Ok(())
}

/// What became of a batch entry a camt.054 details.
enum Detailing {
    /// Its line was replaced by the transactions.
    Replaced,
    /// It stays: detailed already, or not a batch of fewer lines.
    Kept,
    /// It stays: its line was settled, even in part, or ignored.
    ActedOn,
}

/// Replaces the one unsettled line of a booked batch entry by the
/// transactions a camt.054 details (an entry whose lines were settled,
/// even in part, or that is already detailed, stays as it is).
fn split_batch(
    tx: &Tx,
    tenant: &Tenant,
    entry_id: &str,
    details: usize,
    notification: &str,
) -> Result<Detailing> {
    let (lines, open, detailed): (i64, i64, Option<String>) = tx
        .prepare_cached(
            "SELECT count(*), sum(l.state IN ('unmatched', 'suggested')), e.detailed_by
             FROM bank_entries e JOIN bank_lines l ON l.entry_id = e.id AND l.state <> 'replaced'
             WHERE e.id = ?1 AND e.company_id = ?2 AND e.environment = ?3",
        )?
        .query_row(
            params![entry_id, tenant.company_id, tenant.environment],
            |r| {
                Ok((
                    r.get(0)?,
                    r.get::<_, Option<i64>>(1)?.unwrap_or(0),
                    r.get(2)?,
                ))
            },
        )?;
    if detailed.is_some() || lines as usize >= details {
        return Ok(Detailing::Kept);
    }
    if lines != open {
        return Ok(Detailing::ActedOn);
    }
    // A line settled in part (a split, a booking not undone) keeps its
    // entry: its transactions would offer that money again.
    let settled: bool = tx
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM bank_settlements s JOIN bank_lines l ON l.id = s.line_id
               WHERE l.entry_id = ?1 AND s.company_id = ?2 AND s.environment = ?3 AND s.undone_at IS NULL)",
        )?
        .query_row(params![entry_id, tenant.company_id, tenant.environment], |r| r.get(0))?;
    if settled {
        return Ok(Detailing::ActedOn);
    }
    tx.prepare_cached(
        "UPDATE bank_lines SET state = 'replaced' WHERE entry_id = ?1 AND company_id = ?2 AND environment = ?3",
    )?
    .execute(params![entry_id, tenant.company_id, tenant.environment])?;
    tx.prepare_cached("UPDATE bank_entries SET detailed_by = ?2 WHERE id = ?1")?
        .execute(params![entry_id, notification])?;
    Ok(Detailing::Replaced)
}

/// Places the new booked lines on the ladder: certain matches settled now
/// (the running sums of their settlements written once, at the end),
/// suggestions the settlement act would take kept for a person, returned
/// direct debits taking back what their original line settled. A line a
/// camt.054 of the same file detailed (replaced by its transactions) is not
/// matched itself. Lines waiting from before (or from this file) whose
/// suggestions name a document the file settled are computed again at the
/// end.
fn match_lines(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    today: jiff::civil::Date,
    fresh: &[i64],
    file_id: &str,
    report: &mut FileReport,
) -> Result<()> {
    let books = company::get(tx, &tenant.company_id)?.currency;
    let mut ladder = suggest::ladder(tx, tenant)?;
    let mut settled = HashSet::new();
    tx.gathering(|| {
        for row in fresh {
            let Some(line) = lines::get_stored(tx, tenant, *row)? else {
                continue;
            };
            let at = Matching {
                on: line.day(today),
                today,
                books: &books,
                file_id,
            };
            match_line(
                tx,
                tenant,
                actor,
                &mut ladder,
                &line,
                &at,
                report,
                &mut settled,
            )?;
        }
        Ok(())
    })?;
    suggest::refresh(tx, tenant, &settled)
}

/// The day and currency a line is matched with, and the file it came in.
struct Matching<'a> {
    on: jiff::civil::Date,
    today: jiff::civil::Date,
    books: &'a Currency,
    file_id: &'a str,
}

/// Places one stored line on the ladder and settles or suggests what it
/// gives; the documents it settled are added to `settled`.
#[allow(clippy::too_many_arguments)]
fn match_line(
    tx: &Tx,
    tenant: &Tenant,
    actor: &Actor,
    ladder: &mut Ladder,
    line: &lines::Stored,
    at: &Matching<'_>,
    report: &mut FileReport,
    settled: &mut HashSet<String>,
) -> Result<()> {
    let on = at.on;
    if line.reversal && line.amount < 0 {
        // A return that cannot take back (closed books) waits for a person;
        // the rest of the file imports.
        match tx.attempt(|| apply::take_back(tx, tenant, actor, line, on)) {
            Ok(true) => report.settled += 1,
            Ok(false) => report.unmatched += 1,
            Err(e @ (Error::Refused(_) | Error::WrongState(_) | Error::Invalid(_))) => {
                report.unmatched += 1;
                report.notes.push(
                    Bank::ReturnKept {
                        line: line.id.clone(),
                        why: e.into_violations()?,
                    }
                    .into(),
                );
            }
            Err(other) => return Err(other),
        }
        return Ok(());
    }
    let facts = suggest::facts(line, line.amount.abs(), at.today);
    let line_money = suggest::money_of(line, at.books, at.today);
    match ladder.judge(&facts) {
        Outcome::Certain(p) => {
            let s = suggest::stored(ladder, &p, line.amount, &line.currency);
            let reference = match &p.reason {
                Reason::CreditorReference(rf) => Some(rf.as_str()),
                _ => None,
            };
            // Why it matched, for a note; worded only when one is made.
            let reason = |s: &Suggestion| {
                Box::new(s.reason_said(
                    &line.currency,
                    line.counterparty_iban.as_deref(),
                    reference,
                ))
            };
            // Money paid before its invoice waits for a person, offered
            // when the settlement act takes it; the ladder knows the dates.
            let advance = p.allocations.iter().any(|(i, _)| {
                let item = &ladder.items()[*i];
                item.kind == TargetKind::Invoice && item.dated > on
            });
            if advance {
                let matched = reason(&s);
                match suggest::offer(tx, tenant, &line_money, s) {
                    Ok(s) => {
                        lines::set_state(tx, tenant, &line.id, State::Suggested, &[s], None)?;
                        report.suggested += 1;
                    }
                    Err(e @ (Error::Refused(_) | Error::WrongState(_) | Error::NotFound(_))) => {
                        report.notes.push(
                            Bank::NotSuggested {
                                reason: matched,
                                line: line.id.clone(),
                                why: e.into_violations()?,
                            }
                            .into(),
                        );
                        report.unmatched += 1;
                    }
                    Err(other) => return Err(other),
                }
                return Ok(());
            }
            // A payment of several documents settles all of them or none:
            // one refused undoes the others (one alone writes nothing before
            // its checks pass); a cash discount is booked with its payment.
            let settle = || {
                apply::settle(tx, tenant, actor, line, &s.items, on, Some(at.file_id))?;
                if let (Some("cashDiscount"), Some(target)) = (s.code.as_deref(), s.items.last()) {
                    let part = Target {
                        amount: s.difference,
                        ..target.clone()
                    };
                    apply::difference(
                        tx,
                        tenant,
                        actor,
                        line,
                        &part,
                        Account::DiscountsReceived,
                        on,
                    )?;
                }
                Ok(())
            };
            let outcome = if s.items.len() > 1 || s.code.as_deref() == Some("cashDiscount") {
                tx.attempt(settle)
            } else {
                settle()
            };
            match outcome {
                Ok(()) => {
                    ladder.lower(&p, &facts);
                    settled.extend(s.items.iter().map(|t| t.target_id.clone()));
                }
                Err(e @ (Error::Refused(_) | Error::WrongState(_) | Error::Invalid(_))) => {
                    report.notes.push(
                        Bank::NotSettled {
                            reason: reason(&s),
                            line: line.id.clone(),
                            why: e.into_violations()?,
                        }
                        .into(),
                    );
                    report.unmatched += 1;
                    return Ok(());
                }
                Err(other) => return Err(other),
            }
            if p.total() == line.amount.abs() {
                // Kept for an undo, which offers the match again.
                lines::set_state(tx, tenant, &line.id, State::Settled, &[s], None)?;
                report.settled += 1;
            } else {
                // The line paid more than the item owed: the rest waits
                // for a person to book (as the customer's credit, or to
                // an account), as what a split leaves does.
                report.notes.push(
                    Bank::PaysMore {
                        reason: reason(&s),
                        line: line.id.clone(),
                        more: locale::sum(line.amount.abs() - p.total(), &line.currency),
                    }
                    .into(),
                );
                lines::set_state(tx, tenant, &line.id, State::Unmatched, &[], None)?;
                report.unmatched += 1;
            }
        }
        Outcome::Suggested(list) => {
            let mut stored: Vec<Suggestion> = Vec::new();
            for p in &list {
                let s = suggest::stored(ladder, p, line.amount, &line.currency);
                match suggest::offer(tx, tenant, &line_money, s) {
                    Ok(s) => stored.push(s),
                    Err(Error::Refused(_) | Error::WrongState(_) | Error::NotFound(_)) => {}
                    Err(other) => return Err(other),
                }
            }
            if stored.is_empty() {
                report.unmatched += 1;
            } else {
                lines::set_state(tx, tenant, &line.id, State::Suggested, &stored, None)?;
                report.suggested += 1;
            }
        }
        Outcome::Unmatched => report.unmatched += 1,
    }
    Ok(())
}
