//! The lines of imported statements as they are stored and shown: one per
//! transaction, each in a state (unmatched, suggested, settled, ignored,
//! preliminary; `replaced` when a camt.054 detailed its batch or a booked
//! entry superseded a preliminary one, never shown), with the ladder's
//! suggestions (best first, each with its reason) and what it settled.

use jiff::civil::Date;
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};

use crate::books::ledger;
use crate::books::payments::TargetKind;
use crate::documents::statements::{Line, Remark};
use crate::error::said::{Bank, Record};
use crate::error::{Error, Result, Said};
use crate::rules::catalogue;
use crate::rules::iso::Currency;
use crate::rules::locale;
use crate::rules::money::Money;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::row::Row;
use crate::store::tenant::Tenant;
use crate::stored_enum;

stored_enum! {
    /// Where a line stands.
    pub enum State {
        Unmatched = "unmatched",
        Suggested = "suggested",
        Settled = "settled",
        Ignored = "ignored",
        Preliminary = "preliminary",
        Replaced = "replaced",
    }
}

/// One item of a suggestion or a settlement.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Target {
    #[serde(with = "kind_text")]
    pub target_kind: TargetKind,
    pub target_id: String,
    pub number: String,
    /// Minor units, positive.
    pub amount: i64,
}

/// A target's kind in the stored JSON, as its stored spelling.
mod kind_text {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    use crate::books::payments::TargetKind;

    pub fn serialize<S: Serializer>(kind: &TargetKind, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(kind.as_str())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<TargetKind, D::Error> {
        let text = String::deserialize(d)?;
        TargetKind::parse(&text)
            .ok_or_else(|| D::Error::custom(format!("{text:?} is no target kind")))
    }
}

/// A suggestion as stored: its items, the reason in a sentence, and the
/// difference it leaves (`partial`, `fee`, `overpaid`) for the line's page.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Suggestion {
    pub items: Vec<Target>,
    pub reason: String,
    /// What the line pays less than the items owe (positive) or more (negative).
    #[serde(default)]
    pub difference: i64,
    /// The ladder's reason as a code (`number`, `partial`, `cashDiscount`,
    /// …), for its sentence in the reader's language; none on suggestions
    /// kept before codes were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// Paid before an invoice's date: confirmed, the money is kept as the
    /// customer's credit and applied to the invoice on its day.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub advance: bool,
}

impl Suggestion {
    /// Its documents' numbers, as a list names them.
    pub fn numbers(&self) -> String {
        self.items
            .iter()
            .map(|t| t.number.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Its reason as a message, worded from its code in the reader's
    /// language (`currency` the line's, `iban` the payer's, `reference`
    /// the creditor reference matched).
    pub fn reason_said(
        &self,
        currency: &Currency,
        iban: Option<&str>,
        reference: Option<&str>,
    ) -> Said {
        Bank::Reason {
            code: self.code.clone(),
            numbers: self.numbers(),
            difference: locale::sum(self.difference.abs(), currency),
            iban: iban.unwrap_or_default().to_string(),
            reference: reference.map(str::to_string),
            stored: self.reason.clone(),
        }
        .into()
    }
}

/// A suggestion as shown: its first item's kind, the numbers, the amount.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SuggestionView {
    pub target_kind: TargetKind,
    pub number: String,
    pub amount: Money,
    pub reason: String,
    pub items: Vec<TargetView>,
    /// What the line pays less than the items owe (positive) or more (negative).
    pub difference: Money,
    /// The reason's code (see `Suggestion::code`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// Paid before the invoice's date: kept as the customer's credit and
    /// applied when confirmed.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub advance: bool,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TargetView {
    pub target_kind: TargetKind,
    pub number: String,
    pub amount: Money,
}

/// What a line settled or booked, as shown.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SettlementView {
    pub id: String,
    /// `invoice` or `purchase` for a settlement of a document; absent for a booking.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_kind: Option<TargetKind>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<String>,
    /// The account a booking went to (`fees`, `customer_credits`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
    pub amount: Money,
    pub on: Date,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undone_at: Option<String>,
    /// The day a returned direct debit took this payment back.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub returned_on: Option<Date>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Counterparty {
    pub name: Option<String>,
    pub iban: Option<String>,
}

/// A line in its wire form.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LineView {
    pub id: String,
    pub state: State,
    /// Signed: credits positive.
    pub amount: Money,
    pub booked_on: Option<Date>,
    pub value_on: Option<Date>,
    pub counterparty: Counterparty,
    pub remittance: String,
    pub end_to_end_id: Option<String>,
    pub bank_account_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mandate_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub creditor_reference: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bank_reference: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub return_reason: Option<String>,
    #[serde(skip_serializing_if = "is_zero")]
    pub charges: i64,
    pub reversal: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ignored_reason: Option<String>,
    /// What the reader changed to read the line (a day its month does not
    /// have, an amount with more decimals than its currency), in English
    /// as JSON.
    #[serde(
        skip_serializing_if = "Vec::is_empty",
        serialize_with = "catalogue::in_english"
    )]
    pub notes: Vec<Said>,
    pub suggestions: Vec<SuggestionView>,
    pub settlements: Vec<SettlementView>,
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

/// A stored line with what the acts need.
#[derive(Debug, Clone)]
pub struct Stored {
    pub id: String,
    pub state: State,
    pub amount: i64,
    pub currency: Currency,
    pub booked_on: Option<Date>,
    pub value_on: Option<Date>,
    pub bank_account_id: String,
    pub counterparty_name: Option<String>,
    pub counterparty_iban: Option<String>,
    pub remittance: String,
    pub end_to_end_id: Option<String>,
    pub mandate_id: Option<String>,
    pub creditor_reference: Option<String>,
    pub bank_reference: Option<String>,
    pub return_reason: Option<String>,
    pub charges: i64,
    pub reversal: bool,
    pub ignored_reason: Option<String>,
    pub suggestions: Vec<Suggestion>,
    pub notes: Vec<Said>,
}

/// A note as a line keeps it: a reader's remark, or the English sentence a
/// data file of an earlier version kept.
#[derive(Deserialize)]
#[serde(untagged)]
enum KeptNote {
    Remark(Remark),
    Sentence(String),
}

impl From<KeptNote> for Said {
    fn from(note: KeptNote) -> Said {
        match note {
            KeptNote::Remark(remark) => (&remark).into(),
            KeptNote::Sentence(sentence) => Said::English(sentence),
        }
    }
}

impl Stored {
    /// The day a settlement from this line is dated: its booking day, else its value day.
    pub fn day(&self, today: Date) -> Date {
        self.booked_on.or(self.value_on).unwrap_or(today)
    }
}

const COLUMNS: &str = "id, state, amount, currency, booked_on, value_on, bank_account_id, counterparty_name,
    counterparty_iban, remittance, end_to_end_id, mandate_id, creditor_reference, bank_reference, return_reason,
    charges, reversal, ignored_reason, suggestions, notes";

fn from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Stored> {
    let r = Row::new(row, "bank_lines");
    let notes: Vec<KeptNote> = r.json(19)?;
    Ok(Stored {
        id: r.get(0)?,
        state: r.get(1)?,
        amount: r.get(2)?,
        currency: r.get(3)?,
        booked_on: r.get(4)?,
        value_on: r.get(5)?,
        bank_account_id: r.get(6)?,
        counterparty_name: r.get(7)?,
        counterparty_iban: r.get(8)?,
        remittance: r.get(9)?,
        end_to_end_id: r.get(10)?,
        mandate_id: r.get(11)?,
        creditor_reference: r.get(12)?,
        bank_reference: r.get(13)?,
        return_reason: r.get(14)?,
        charges: r.get(15)?,
        reversal: r.get::<i64>(16)? == 1,
        ignored_reason: r.get(17)?,
        suggestions: r.json(18)?,
        notes: notes.into_iter().map(Said::from).collect(),
    })
}

/// Stores a line read from a statement under its entry; returns its row
/// (`seq`), by which `get_stored` finds it.
///
/// Fails only on a storage error.
#[allow(clippy::too_many_arguments)]
pub fn insert(
    tx: &Tx,
    tenant: &Tenant,
    entry_id: &str,
    bank_account_id: &str,
    line: &Line,
    currency: &Currency,
    booked_on: Option<Date>,
    value_on: Option<Date>,
    state: State,
    reversal: bool,
    notes: &str,
    imported_at: &str,
) -> Result<i64> {
    let id = ids::new_id("bln");
    tx.prepare_cached(
        "INSERT INTO bank_lines (id, company_id, environment, entry_id, bank_account_id, amount, currency, booked_on,
             value_on, state, counterparty_name, counterparty_iban, counterparty_account, counterparty_bic, remittance,
             creditor_reference, end_to_end_id, mandate_id, bank_reference, return_reason, charges, reversal,
             imported_at, notes)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23,
             ?24)",
    )?
    .execute(params![
        id,
        tenant.company_id,
        tenant.environment,
        entry_id,
        bank_account_id,
        line.amount,
        currency,
        booked_on,
        value_on,
        state,
        line.counterparty.name,
        line.counterparty.iban.as_ref().map(|i| i.as_str()),
        line.counterparty.account,
        line.counterparty.bic,
        line.remittance,
        line.creditor_references.first(),
        line.end_to_end_id,
        line.mandate_id,
        line.bank_reference,
        line.return_reason,
        line.charges,
        i64::from(reversal),
        imported_at,
        notes,
    ])?;
    Ok(tx.last_insert_rowid())
}

/// What the line settled or booked so far (not undone), minor units.
///
/// Fails only on a storage error.
pub fn settled_amount(conn: &Connection, tenant: &Tenant, line_id: &str) -> Result<i64> {
    Ok(conn
        .prepare_cached(
            "SELECT coalesce(sum(amount), 0) FROM bank_settlements
             WHERE line_id = ?1 AND company_id = ?2 AND environment = ?3 AND undone_at IS NULL
               AND kind IN ('payment', 'booking')",
        )?
        .query_row(
            params![line_id, tenant.company_id, tenant.environment],
            |r| r.get(0),
        )?)
}

/// What the line has left to settle or book, minor units.
///
/// Fails only on a storage error.
pub fn left(conn: &Connection, tenant: &Tenant, line: &Stored) -> Result<i64> {
    Ok(line.amount.abs() - settled_amount(conn, tenant, &line.id)?)
}

/// The tenant's lines waiting with suggestions of which one names one of
/// `documents` (invoice or purchase ids), oldest first.
///
/// Fails only on a storage error.
pub fn suggesting(
    conn: &Connection,
    tenant: &Tenant,
    documents: &std::collections::HashSet<String>,
) -> Result<Vec<Stored>> {
    if documents.is_empty() {
        return Ok(Vec::new());
    }
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM bank_lines WHERE company_id = ?1 AND environment = ?2 AND state = 'suggested'
         ORDER BY seq"
    ))?;
    let rows = stmt.query_map(params![tenant.company_id, tenant.environment], from_row)?;
    let mut found = Vec::new();
    for line in rows {
        let line = line?;
        let names = line
            .suggestions
            .iter()
            .flat_map(|s| &s.items)
            .any(|t| documents.contains(&t.target_id));
        if names {
            found.push(line);
        }
    }
    Ok(found)
}

/// The books a line belongs to (its company and environment), found by its
/// id: a person names a line without its company.
///
/// Fails with `NotFound` for an unknown line.
pub fn books_of(conn: &Connection, id: &str) -> Result<Tenant> {
    conn.prepare_cached(
        "SELECT company_id, environment FROM bank_lines WHERE id = ?1 AND state <> 'replaced'",
    )?
    .query_row(params![id], |row| {
        let r = Row::new(row, "bank_lines");
        Ok(Tenant::new(r.get::<String>(0)?, r.get(1)?))
    })
    .optional()?
    .ok_or_else(|| Error::not_found(Said::Record(Record::BankLine, id.to_string())))
}

/// The line stored in the row `seq` of the tenant, unless replaced since.
///
/// Fails only on a storage error.
pub fn get_stored(conn: &Connection, tenant: &Tenant, seq: i64) -> Result<Option<Stored>> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM bank_lines WHERE seq = ?1 AND company_id = ?2 AND environment = ?3 AND state <> 'replaced'"
        ))?
        .query_row(params![seq, tenant.company_id, tenant.environment], from_row)
        .optional()?)
}

/// The line `id` of the tenant.
///
/// Fails with `NotFound` for another company's, another environment's or an
/// unknown line, or a replaced one.
pub fn get(conn: &Connection, tenant: &Tenant, id: &str) -> Result<Stored> {
    conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM bank_lines WHERE id = ?1 AND company_id = ?2 AND environment = ?3 AND state <> 'replaced'"
    ))?
    .query_row(params![id, tenant.company_id, tenant.environment], from_row)
    .optional()?
    .ok_or_else(|| Error::not_found(Said::Record(Record::BankLine, id.to_string())))
}

/// Sets a line's state, its suggestions and the reason it was ignored.
///
/// Fails only on a storage error.
pub fn set_state(
    tx: &Tx,
    tenant: &Tenant,
    id: &str,
    state: State,
    suggestions: &[Suggestion],
    ignored_reason: Option<&str>,
) -> Result<()> {
    let json = serde_json::to_string(suggestions).map_err(Error::internal)?;
    tx.prepare_cached(
        "UPDATE bank_lines SET state = ?4, suggestions = ?5, ignored_reason = ?6
         WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
    )?
    .execute(params![
        id,
        tenant.company_id,
        tenant.environment,
        state,
        json,
        ignored_reason
    ])?;
    Ok(())
}

/// What a line settled or booked, oldest first (undone ones included).
///
/// Fails only on a storage error.
pub fn settlements(conn: &Connection, tenant: &Tenant, line_id: &str) -> Result<Vec<Settlement>> {
    let mut stmt = conn.prepare_cached(
        "SELECT s.id, s.kind, s.payment_id, s.target_kind, s.target_id, s.number, s.account, s.detail, s.amount,
             s.on_day, s.undone_at, p.reversed_on
         FROM bank_settlements s
         LEFT JOIN payments p ON p.id = s.payment_id AND s.kind = 'payment' AND s.undone_at IS NULL
         WHERE s.line_id = ?1 AND s.company_id = ?2 AND s.environment = ?3 ORDER BY s.seq",
    )?;
    let rows = stmt.query_map(
        params![line_id, tenant.company_id, tenant.environment],
        |row| {
            let r = Row::new(row, "bank_settlements");
            Ok(Settlement {
                id: r.get(0)?,
                kind: r.get(1)?,
                payment_id: r.get(2)?,
                target_kind: r.get(3)?,
                target_id: r.get(4)?,
                number: r.get(5)?,
                account: r.get(6)?,
                detail: r.get(7)?,
                amount: r.get(8)?,
                on: r.get(9)?,
                undone_at: r.get(10)?,
                returned_on: r.get(11)?,
            })
        },
    )?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

stored_enum! {
    /// What a line did: settle a document with money, settle part of one
    /// without money (a difference booked), book money to an account, or
    /// take back a payment (a returned direct debit).
    pub enum SettlementKind {
        Payment = "payment",
        Difference = "difference",
        Booking = "booking",
        Return = "return",
    }
}

/// One row of what a line did.
#[derive(Debug, Clone)]
pub struct Settlement {
    pub id: String,
    pub kind: SettlementKind,
    pub payment_id: Option<String>,
    pub target_kind: Option<TargetKind>,
    pub target_id: Option<String>,
    pub number: Option<String>,
    pub account: Option<String>,
    pub detail: String,
    pub amount: i64,
    pub on: Date,
    pub undone_at: Option<String>,
    /// The day a returned direct debit took this payment back (a payment
    /// reversed while its settlement stands).
    pub returned_on: Option<Date>,
}

/// Records what a line did; returns its id.
///
/// Fails only on a storage error.
#[allow(clippy::too_many_arguments)]
pub fn record_settlement(
    tx: &Tx,
    tenant: &Tenant,
    id: &str,
    line_id: &str,
    kind: SettlementKind,
    payment_id: Option<&str>,
    target: Option<&Target>,
    account: Option<&str>,
    detail: &str,
    amount: i64,
    on: Date,
) -> Result<()> {
    tx.prepare_cached(
        "INSERT INTO bank_settlements (id, company_id, environment, line_id, kind, payment_id, target_kind, target_id,
             number, account, detail, amount, on_day, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
    )?
    .execute(params![
        id,
        tenant.company_id,
        tenant.environment,
        line_id,
        kind,
        payment_id,
        target.map(|t| t.target_kind),
        target.map(|t| &t.target_id),
        target.map(|t| &t.number),
        account,
        detail,
        amount,
        on,
        crate::store::clock::now()
    ])?;
    Ok(())
}

/// Marks a line's settlement undone by the ledger entry `by_entry` (none
/// for a return, whose taking back stands on its own).
///
/// Fails only on a storage error.
pub fn mark_undone(
    tx: &Tx,
    tenant: &Tenant,
    settlement_id: &str,
    by_entry: Option<&str>,
) -> Result<()> {
    tx.prepare_cached(
        "UPDATE bank_settlements SET undone_at = ?4, undone_by = ?5 WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
    )?
    .execute(params![settlement_id, tenant.company_id, tenant.environment, crate::store::clock::now(), by_entry])?;
    Ok(())
}

fn view(conn: &Connection, tenant: &Tenant, s: Stored) -> Result<LineView> {
    let money = |m: i64| Money::new(m, &s.currency);
    // A settled line's suggestions wait for an undo; they are not shown,
    // nor those of a line in closed books, which nothing settles.
    let closed = ledger::closed_through(conn, tenant)?
        .zip(s.booked_on.or(s.value_on))
        .is_some_and(|(through, day)| day <= through);
    let suggestions = s
        .suggestions
        .iter()
        .filter(|g| !g.items.is_empty() && s.state != State::Settled && !closed)
        .map(|g| SuggestionView {
            target_kind: g.items[0].target_kind,
            number: g.numbers(),
            amount: money(g.items.iter().map(|t| t.amount).sum()),
            reason: g.reason.clone(),
            items: g
                .items
                .iter()
                .map(|t| TargetView {
                    target_kind: t.target_kind,
                    number: t.number.clone(),
                    amount: money(t.amount),
                })
                .collect(),
            difference: money(g.difference),
            code: g.code.clone(),
            advance: g.advance,
        })
        .collect();
    let settlements = settlements(conn, tenant, &s.id)?
        .into_iter()
        .map(|x| SettlementView {
            id: x.id,
            target_kind: x.target_kind,
            number: x.number,
            account: x.account,
            amount: money(x.amount),
            on: x.on,
            undone_at: x.undone_at,
            returned_on: x.returned_on,
        })
        .collect();
    Ok(LineView {
        id: s.id,
        state: s.state,
        amount: money(s.amount),
        booked_on: s.booked_on,
        value_on: s.value_on,
        counterparty: Counterparty {
            name: s.counterparty_name,
            iban: s.counterparty_iban,
        },
        remittance: s.remittance,
        end_to_end_id: s.end_to_end_id,
        bank_account_id: s.bank_account_id,
        mandate_id: s.mandate_id,
        creditor_reference: s.creditor_reference,
        bank_reference: s.bank_reference,
        return_reason: s.return_reason,
        charges: s.charges,
        reversal: s.reversal,
        ignored_reason: s.ignored_reason,
        notes: s.notes,
        suggestions,
        settlements,
    })
}

/// The line `id` in its wire form.
///
/// Fails with `NotFound` as `get` does.
pub fn show(conn: &Connection, tenant: &Tenant, id: &str) -> Result<LineView> {
    let stored = get(conn, tenant, id)?;
    view(conn, tenant, stored)
}

/// How lines are chosen for a list.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub state: Option<State>,
    /// Part of the counterparty's name or IBAN, the remittance or the
    /// end-to-end id (any case).
    pub search: Option<String>,
}

/// The state a person asks for by name.
///
/// Fails with `Invalid` naming `state` for another word than the five states.
pub fn read_state(text: &str) -> Result<State> {
    match State::parse(text.trim()) {
        Some(State::Replaced) | None => {
            let shown: Vec<&str> = State::ALL
                .iter()
                .filter(|s| **s != State::Replaced)
                .map(|s| s.as_str())
                .collect();
            Err(Error::invalid(
                "state",
                crate::error::not_one_of(&shown, text),
            ))
        }
        Some(state) => Ok(state),
    }
}

/// The tenant's lines in a state (all shown states when none), newest first,
/// at most `limit`.
///
/// Fails only on a storage error.
pub fn list(
    conn: &Connection,
    tenant: &Tenant,
    filter: &Filter,
    limit: i64,
) -> Result<Vec<LineView>> {
    let search = filter
        .search
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            format!(
                "%{}%",
                s.replace('\\', "\\\\")
                    .replace('%', "\\%")
                    .replace('_', "\\_")
            )
        });
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM bank_lines
         WHERE company_id = ?1 AND environment = ?2 AND state <> 'replaced' AND (?3 IS NULL OR state = ?3)
           AND (?4 IS NULL OR counterparty_name LIKE ?4 ESCAPE '\\' OR counterparty_iban LIKE ?4 ESCAPE '\\'
                OR remittance LIKE ?4 ESCAPE '\\' OR end_to_end_id LIKE ?4 ESCAPE '\\')
         ORDER BY seq DESC LIMIT ?5"
    ))?;
    let rows = stmt
        .query_map(
            params![
                tenant.company_id,
                tenant.environment,
                filter.state,
                search,
                limit
            ],
            from_row,
        )?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    rows.into_iter().map(|s| view(conn, tenant, s)).collect()
}

/// How many of the tenant's lines are in each shown state.
///
/// Fails only on a storage error.
pub fn counts(conn: &Connection, tenant: &Tenant) -> Result<Vec<(State, i64)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT state, count(*) FROM bank_lines WHERE company_id = ?1 AND environment = ?2 AND state <> 'replaced'
         GROUP BY state",
    )?;
    let rows = stmt.query_map(params![tenant.company_id, tenant.environment], |row| {
        let r = Row::new(row, "bank_lines");
        Ok((r.get(0)?, r.get(1)?))
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

#[cfg(test)]
mod tests {
    use jiff::civil::date;

    use super::KeptNote;
    use crate::documents::statements::Remark;
    use crate::error::Said;

    #[test]
    fn a_lines_notes_read_back_as_they_were_kept() {
        let remarks = vec![
            Remark::Rounded {
                written: "12.3450000000001".into(),
                read: 1_235,
                currency: "EUR".into(),
            },
            Remark::LastOfMonth {
                written: "260230".into(),
                read: date(2026, 2, 28),
            },
            Remark::Balance {
                tag: "60F".into(),
                line: 3,
                remark: Box::new(Remark::Rounded {
                    written: "1000,005".into(),
                    read: 100_001,
                    currency: "EUR".into(),
                }),
            },
        ];
        let text = serde_json::to_string(&remarks).unwrap();
        let kept: Vec<KeptNote> = serde_json::from_str(&text).unwrap();
        let read: Vec<Said> = kept.into_iter().map(Said::from).collect();
        let expected: Vec<Said> = remarks.iter().map(Said::from).collect();
        assert_eq!(read, expected);
        // An earlier version kept sentences.
        let kept: Vec<KeptNote> = serde_json::from_str(r#"["A sentence."]"#).unwrap();
        assert_eq!(
            kept.into_iter().map(Said::from).collect::<Vec<_>>(),
            [Said::English("A sentence.".into())]
        );
        // Anything else is refused.
        assert!(serde_json::from_str::<Vec<KeptNote>>(r#"[{"kind": "unknown"}]"#).is_err());
        assert!(serde_json::from_str::<Vec<KeptNote>>(r#"{"not": "a list"}"#).is_err());
    }
}
