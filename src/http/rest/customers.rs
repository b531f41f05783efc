//! `/v1/customers`: the list with its search, one customer, and creation
//! from `{name, street, postalCode, city, country?, vatId?, currency?,
//! email?, contact?, phone?}`.

use super::call::{Call, Reply};
use crate::books::company;
use crate::books::customers::{self, CustomerInput, NewCustomer};
use crate::error::Result;

/// GET /v1/customers
///
/// A page without a search is answered from the kept pages when the
/// company's partners have not changed since it was kept (`KeptPages`).
pub fn list(call: &Call) -> Result<Reply> {
    let paging = call.query.paging()?;
    let search = call.query.get("search");
    let tenant = call.tenant();
    if search.is_some() {
        let page = customers::list(call.conn, tenant, search, paging)?;
        return Ok(Reply::ok(&page));
    }
    let kept = &call.app.kept_pages;
    let changes = customers::changes(call.conn, tenant)?;
    if let Some(body) = kept.get(tenant, paging.page, paging.size, changes) {
        return Ok(Reply::json(body));
    }
    let reply = Reply::ok(&customers::list(call.conn, tenant, None, paging)?);
    kept.keep(tenant, paging.page, paging.size, changes, &reply.body);
    Ok(reply)
}

/// GET /v1/customers/{id}
pub fn get(call: &Call, id: &str) -> Result<Reply> {
    Ok(Reply::ok(&customers::get(call.conn, call.tenant(), id)?))
}

/// POST /v1/customers
pub fn create(call: &Call) -> Result<Reply> {
    let (key, fingerprint, mut f) = call.idempotent_body()?;
    let input = CustomerInput {
        name: f.text("name")?,
        street: f.text("street")?,
        postal_code: f.text("postalCode")?,
        city: f.text("city")?,
        country: f.text("country")?,
        vat_id: f.text("vatId")?,
        currency: f.text("currency")?,
        email: f.text("email")?,
        contact: f.text("contact")?,
        phone: f.text("phone")?,
    };
    f.finish()?;
    let tenant = call.tenant();
    let company = company::get(call.conn, &tenant.company_id)?;
    let new = NewCustomer::check(input, &company)?;
    call.create_once(
        key,
        &fingerprint,
        |tx, tenant, actor| customers::create(tx, tenant, actor, &new),
        customers::get,
    )
}
