//! `/v1/transactions`: the list with its filters, one transaction, creation
//! and partial updates.

use super::call::{Call, Reply};
use crate::books::transactions::{self, Change, Filter, FilterInput, NewTransaction, PatchInput};
use crate::error::Result;
use crate::http::fields::{self, JsonFields, Naming};

/// GET /v1/transactions
pub fn list(call: &Call) -> Result<Reply> {
    let q = call.query;
    let paging = q.paging()?;
    let filter = Filter::check(FilterInput {
        stage: q.get("stage").map(str::to_string),
        search: q.get("search").map(str::to_string),
        include_archived: q.bool("includeArchived")?,
        period: q.get("period").map(str::to_string),
        from: q.get("from").map(str::to_string),
        to: q.get("to").map(str::to_string),
    })?;
    let page = transactions::list(call.conn, call.tenant(), &filter, paging)?;
    Ok(Reply::ok(&page))
}

/// GET /v1/transactions/{id}
pub fn get(call: &Call, id: &str) -> Result<Reply> {
    Ok(Reply::ok(&transactions::get(call.conn, call.tenant(), id)?))
}

/// POST /v1/transactions
pub fn create(call: &Call) -> Result<Reply> {
    let (key, fingerprint, mut f) = call.idempotent_body()?;
    let input = fields::transaction_input(&mut f, Naming::Camel)?;
    f.finish()?;
    let new = NewTransaction::check(input)?;
    call.create_once(
        key,
        &fingerprint,
        |tx, tenant, actor| transactions::create(tx, tenant, actor, &new),
        transactions::get,
    )
}

/// PATCH /v1/transactions/{id}
pub fn update(call: &Call, id: &str) -> Result<Reply> {
    let mut f = JsonFields::parse(call.body)?;
    let input = PatchInput {
        title: f.patch_text("title")?,
        description: f.patch_text("description")?,
        due_on: f.patch_text("dueOn")?,
        stage: f.patch_text("stage")?,
        customer_id: f.patch_text("customerId")?,
        customer: f.patch_text("customer")?,
        archived: f.bool("archived")?,
    };
    f.finish()?;
    let change = Change::check(input)?;
    let tenant = call.tenant();
    let actor = call.key.actor();
    let body = call.app.db.write(|tx| {
        transactions::update(tx, tenant, &actor, id, &change)?;
        transactions::get(tx, tenant, id)
    })?;
    Ok(Reply::ok(&body))
}
