//! `/v1/customers`: the list with its search, one customer, and creation
//! from `{name, street, postalCode, city, country?, vatId?, currency?,
//! email?, contact?, phone?}`.

use super::{Call, Reply};
use crate::books::company;
use crate::books::customers::{self, CustomerInput, NewCustomer};
use crate::error::Result;

/// GET /v1/customers
pub fn list(call: &Call) -> Result<Reply> {
    let paging = call.query.paging()?;
    let page = customers::list(call.conn, call.tenant(), call.query.get("search"), paging)?;
    Ok(Reply::ok(&page))
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
        |tx| customers::create(tx, tenant, &new),
        |conn, id| customers::get(conn, tenant, id),
    )
}
