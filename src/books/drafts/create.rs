//! A new draft: what a caller gives, checked into an empty draft for a
//! customer (as the API and a person make it, the lines following) or a
//! whole one with its lines (as a program makes it), and the act that
//! creates it in the customer's currency, else the company's.

use rusqlite::params;

use super::lines::{insert_line, DraftLineInput, NewDraftLine, MAX_LINES};
use super::stored::{DraftKind, DraftState};
use crate::books::audit::{self, Act, Actor};
use crate::books::company::{self, Company};
use crate::books::customers;
use crate::error::said::Draft;
use crate::error::{Error, Result, Violations};
use crate::rules::text;
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::tenant::Tenant;

/// A rule's refusal as an unreadable input (the violations kept).
fn unreadable(e: Error) -> Error {
    match e {
        Error::Refused(violations) => Error::Invalid(violations),
        other => other,
    }
}

/// A new draft as a caller gives it.
#[derive(Debug, Default, Clone)]
pub struct DraftInput {
    pub customer_id: Option<String>,
}

/// A checked new draft: a customer, and lines when it is made whole.
#[derive(Debug, Clone)]
pub struct NewDraft {
    customer_id: String,
    kind: DraftKind,
    lines: Vec<NewDraftLine>,
}

impl NewDraft {
    /// An empty draft for a customer (the API's and a person's way: lines follow).
    ///
    /// Fails with `Invalid` naming `customerId` when it is missing.
    pub fn empty(input: DraftInput, kind: DraftKind) -> Result<NewDraft> {
        let customer_id = text::required("customerId", input.customer_id.as_deref(), 100)?;
        Ok(NewDraft {
            customer_id,
            kind,
            lines: Vec::new(),
        })
    }

    /// A draft made whole in one act, as a program makes it: 1 to 200 lines,
    /// and since no person will add the tax later, every line states it.
    ///
    /// Fails with `Invalid` naming every field that is missing or malformed
    /// (line fields under `lines[n]`), and `Refused` as a line does.
    pub fn whole(
        input: DraftInput,
        kind: DraftKind,
        lines: Vec<DraftLineInput>,
        company: &Company,
    ) -> Result<NewDraft> {
        let mut v = Violations::new();
        let customer_id = v.take(text::required(
            "customerId",
            input.customer_id.as_deref(),
            100,
        ))?;
        if lines.is_empty() || lines.len() > MAX_LINES {
            v.invalid("lines", Draft::LineCount { max: MAX_LINES });
        }
        let mut checked = Vec::with_capacity(lines.len());
        for (n, line) in lines.into_iter().enumerate().take(MAX_LINES) {
            let at = format!("lines[{n}]");
            // Whatever is wrong with a line of an input made whole, the input
            // cannot be used as it is: each is an unreadable field (400).
            let line =
                v.take(NewDraftLine::check(line, company).map_err(|e| unreadable(e).under(&at)))?;
            match line {
                Some(line) if !line.has_tax() => v.invalid(at, Draft::NoTax),
                Some(line) => checked.push(line),
                None => {}
            }
        }
        v.finish()?;
        Ok(NewDraft {
            customer_id: customer_id.unwrap_or_default(),
            kind,
            lines: checked,
        })
    }
}

/// Creates a draft for a customer of the tenant, in the customer's currency
/// (else the company's), with its lines. Returns its id; recorded as
/// `draft.created` by `actor`.
///
/// Fails with `NotFound` for a customer the tenant does not have.
pub fn create(tx: &Tx, tenant: &Tenant, actor: &Actor, new: &NewDraft) -> Result<String> {
    let customer = customers::get(tx, tenant, &new.customer_id)?;
    let company = company::get(tx, &tenant.company_id)?;
    let id = ids::new_id("drf");
    tx.prepare_cached(
        "INSERT INTO drafts (id, company_id, environment, document_type, customer_id, currency, state, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![
        id,
        tenant.company_id,
        tenant.environment,
        new.kind,
        new.customer_id,
        customer.currency.unwrap_or(company.currency),
        DraftState::Draft,
        clock::now()
    ])?;
    for line in &new.lines {
        insert_line(tx, &id, line)?;
    }
    audit::record(tx, tenant, actor, Act::DraftCreated, &id)?;
    Ok(id)
}
