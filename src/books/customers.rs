//! Customers (business partners: customers and suppliers) of one tenant: their
//! wire form, the checks of a new customer, numbering (`K10001`… per company and
//! environment), the SQL and the REST handlers. Every query is bound to a
//! `Tenant`; a customer of another company or environment does not exist here.

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::books::company;
use crate::books::numbering;
use crate::error::{Error, Result};
use crate::http::fields::Fields;
use crate::http::query::{Page, Paging, PAGE_LIMIT_SQL};
use crate::http::rest::{Call, Reply};
use crate::rules::iso::{CountryCode, Currency};
use crate::store::clock;
use crate::store::db::Tx;
use crate::store::ids;
use crate::store::tenant::Tenant;

/// The numbering series of business partners (`K10001`, `K10002`, …).
const PARTNER_SERIES: &str = "customer";
const FIRST_PARTNER_NUMBER: i64 = 10001;

/// A checked new customer, ready to insert.
pub struct NewCustomer {
    pub name: String,
    pub contact: Option<String>,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub street: String,
    pub postal_code: String,
    pub city: String,
    pub country: CountryCode,
    pub vat_id: Option<String>,
    pub currency: Option<Currency>,
    pub is_customer: bool,
    pub is_supplier: bool,
}

/// Whether `email` has the shape of an address: one `@`, a local part, and a
/// domain with a dot inside, no white space.
fn email_shaped(email: &str) -> bool {
    let Some((local, domain)) = email.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !domain.contains('@')
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains("..")
        && !email.chars().any(char::is_whitespace)
        && email.len() <= 254
}

/// A VAT id as stored: upper case, without spaces.
pub fn normalise_vat_id(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_uppercase()
}

impl NewCustomer {
    /// Reads a create body; `country` defaults to the company's own.
    ///
    /// Fails with `BadRequest` naming the first missing, mistyped, malformed or unknown field.
    pub fn from_fields(mut f: Fields, company_country: &str) -> Result<NewCustomer> {
        let name = f.required_text("name", 200)?;
        let street = f.required_text("street", 200)?;
        let postal_code = f.required_text("postalCode", 20)?;
        let city = f.required_text("city", 100)?;
        let country = match f.optional_text("country", 2)? {
            Some(c) => CountryCode::parse("country", &c)?,
            None => CountryCode::parse("country", company_country)?,
        };
        let vat_id = f.optional_text("vatId", 30)?.map(|v| normalise_vat_id(&v));
        let currency = f
            .optional_text("currency", 3)?
            .map(|c| Currency::parse("currency", &c))
            .transpose()?;
        let email = f.optional_text("email", 254)?;
        if let Some(email) = &email {
            if !email_shaped(email) {
                return Err(Error::bad_request(
                    "The field email is not an e-mail address.",
                ));
            }
        }
        let contact = f.optional_text("contact", 200)?;
        let phone = f.optional_text("phone", 50)?;
        f.finish()?;
        Ok(NewCustomer {
            name,
            contact,
            email,
            phone,
            street,
            postal_code,
            city,
            country,
            vat_id,
            currency,
            is_customer: true,
            is_supplier: false,
        })
    }
}

/// Inserts a customer with the tenant's next partner number and returns its id.
///
/// Fails only on a storage error.
pub fn create(tx: &Tx, tenant: &Tenant, new: &NewCustomer) -> Result<String> {
    let seq = numbering::take(tx, tenant, PARTNER_SERIES, FIRST_PARTNER_NUMBER)?;
    let id = ids::new_id("cus");
    tx.prepare_cached(
        "INSERT INTO customers (id, company_id, environment, number, name, contact, email, phone, street,
             postal_code, city, country, vat_id, currency, is_customer, is_supplier, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
    )?
    .execute(params![
        id,
        tenant.company_id,
        tenant.env(),
        format!("K{seq}"),
        new.name,
        new.contact,
        new.email,
        new.phone,
        new.street,
        new.postal_code,
        new.city,
        new.country.as_str(),
        new.vat_id,
        new.currency.as_ref().map(Currency::as_str),
        new.is_customer,
        new.is_supplier,
        clock::now()
    ])?;
    Ok(id)
}

const COLUMNS: &str =
    "id, number, name, contact, email, phone, street, postal_code, city, country, vat_id,
     currency, is_customer, is_supplier, archived, created_at, payment_days";

/// A customer in its wire form.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Customer {
    pub id: String,
    pub number: String,
    pub name: String,
    pub contact: Option<String>,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub street: String,
    pub postal_code: String,
    pub city: String,
    pub country: String,
    pub vat_id: Option<String>,
    pub currency: Option<String>,
    pub customer: bool,
    pub supplier: bool,
    pub archived: bool,
    /// The customer's agreed payment days (none: the company's or the country's apply).
    pub payment_days: Option<i64>,
    pub created_at: String,
}

fn from_row(r: &rusqlite::Row) -> rusqlite::Result<Customer> {
    Ok(Customer {
        id: r.get(0)?,
        number: r.get(1)?,
        name: r.get(2)?,
        contact: r.get(3)?,
        email: r.get(4)?,
        phone: r.get(5)?,
        street: r.get(6)?,
        postal_code: r.get(7)?,
        city: r.get(8)?,
        country: r.get(9)?,
        vat_id: r.get(10)?,
        currency: r.get(11)?,
        customer: r.get(12)?,
        supplier: r.get(13)?,
        archived: r.get(14)?,
        payment_days: r.get(16)?,
        created_at: r.get(15)?,
    })
}

/// One customer of the tenant in its wire form.
///
/// Fails with `NotFound` when the tenant has no customer with this id.
pub fn get(conn: &Connection, tenant: &Tenant, id: &str) -> Result<Customer> {
    conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM customers WHERE id = ?1 AND company_id = ?2 AND environment = ?3"
    ))?
    .query_row(params![id, tenant.company_id, tenant.env()], from_row)
    .optional()?
    .ok_or_else(|| Error::not_found(format!("Customer {id}")))
}

/// The name of a customer of the tenant.
///
/// Fails with `NotFound` when the tenant has no customer with this id.
pub fn name_of(conn: &Connection, tenant: &Tenant, id: &str) -> Result<String> {
    conn.prepare_cached(
        "SELECT name FROM customers WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
    )?
    .query_row(params![id, tenant.company_id, tenant.env()], |r| r.get(0))
    .optional()?
    .ok_or_else(|| Error::not_found(format!("Customer {id}")))
}

/// The customer's agreed payment days, if any.
///
/// Fails with `NotFound` when the tenant has no customer with this id.
pub fn payment_days(conn: &Connection, tenant: &Tenant, id: &str) -> Result<Option<i64>> {
    conn.prepare_cached(
        "SELECT payment_days FROM customers WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
    )?
    .query_row(params![id, tenant.company_id, tenant.env()], |r| r.get(0))
    .optional()?
    .ok_or_else(|| Error::not_found(format!("Customer {id}")))
}

/// Sets the customer's agreed payment days (0–365); documents issued from now on use them.
///
/// Fails with `NotFound` for an unknown customer and `BadRequest` for days outside 0–365.
pub fn set_terms(tx: &Tx, tenant: &Tenant, id: &str, days: i64) -> Result<Customer> {
    company::check_payment_days(days)?;
    let changed = tx.execute(
        "UPDATE customers SET payment_days = ?4 WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
        params![id, tenant.company_id, tenant.env(), days],
    )?;
    if changed == 0 {
        return Err(Error::not_found(format!("Customer {id}")));
    }
    get(tx, tenant, id)
}

/// The partner of this name marked as supplier, created (with the next partner
/// number, no address, the company's country) when there is none. A customer of
/// the same name becomes a supplier too. Returns its id.
///
/// Fails only on a storage error.
pub fn supplier(
    tx: &Tx,
    tenant: &Tenant,
    name: &str,
    vat_id: Option<&str>,
    country: &str,
) -> Result<String> {
    let existing: Option<String> = tx
        .prepare_cached(
            "SELECT id FROM customers WHERE company_id = ?1 AND environment = ?2 AND name = ?3
             ORDER BY is_supplier DESC, seq LIMIT 1",
        )?
        .query_row(params![tenant.company_id, tenant.env(), name], |r| r.get(0))
        .optional()?;
    if let Some(id) = existing {
        tx.execute(
            "UPDATE customers SET is_supplier = 1 WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
            params![id, tenant.company_id, tenant.env()],
        )?;
        return Ok(id);
    }
    let new = NewCustomer {
        name: name.to_string(),
        contact: None,
        email: None,
        phone: None,
        street: String::new(),
        postal_code: String::new(),
        city: String::new(),
        country: CountryCode::parse("country", country)?,
        vat_id: vat_id.map(normalise_vat_id),
        currency: None,
        is_customer: false,
        is_supplier: true,
    };
    create(tx, tenant, &new)
}

/// Escapes `%`, `_` and `\` for a LIKE pattern with `ESCAPE '\'`.
pub fn like_pattern(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('%');
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('%');
    out
}

/// A page of the tenant's customers, newest first, optionally only those whose
/// name, number, e-mail or city contains `search`.
///
/// Fails only on a storage error.
pub fn list(
    conn: &Connection,
    tenant: &Tenant,
    paging: Paging,
    search: Option<&str>,
) -> Result<Page<Customer>> {
    const TENANT: &str = "company_id = ?1 AND environment = ?2";
    const SEARCH: &str = "AND (name LIKE ?3 ESCAPE '\\' OR number LIKE ?3 ESCAPE '\\'
         OR email LIKE ?3 ESCAPE '\\' OR city LIKE ?3 ESCAPE '\\')";
    let pattern = search.map(like_pattern);
    let filter = if pattern.is_some() {
        format!("{TENANT} {SEARCH}")
    } else {
        format!("{TENANT} AND ?3 IS NULL")
    };
    let total: i64 = match pattern {
        // Every partner row takes exactly one number of the partner sequence in
        // its own transaction, and no partner is ever deleted, so the sequence
        // counts them: no need to walk the index on every page.
        None => {
            numbering::peek(conn, tenant, PARTNER_SERIES, FIRST_PARTNER_NUMBER)?
                - FIRST_PARTNER_NUMBER
        }
        Some(_) => conn
            .prepare_cached(&format!("SELECT count(*) FROM customers WHERE {filter}"))?
            .query_row(params![tenant.company_id, tenant.env(), pattern], |r| {
                r.get(0)
            })?,
    };
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM customers WHERE {filter} ORDER BY seq DESC {PAGE_LIMIT_SQL} OFFSET ?4"
    ))?;
    let data = stmt
        .query_map(
            params![tenant.company_id, tenant.env(), pattern, paging.offset()],
            from_row,
        )?
        .take(paging.size as usize)
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(paging.envelope(data, total))
}

/// GET /v1/customers
pub fn http_list(call: &Call) -> Result<Reply> {
    let paging = call.query.paging()?;
    let search = call.query.get("search");
    let page = call.read(|conn| list(conn, call.tenant(), paging, search))?;
    Ok(Reply::ok(&page))
}

/// GET /v1/customers/{id}
pub fn http_get(call: &Call, id: &str) -> Result<Reply> {
    Ok(Reply::ok(&call.read(|conn| get(conn, call.tenant(), id))?))
}

/// POST /v1/customers
pub fn http_create(call: &Call) -> Result<Reply> {
    let (key, fingerprint, fields) = call.idempotent_body()?;
    let tenant = call.tenant();
    let company = call.read(|conn| company::get(conn, &tenant.company_id))?;
    let new = NewCustomer::from_fields(fields, &company.country)?;
    call.create_once(
        key,
        &fingerprint,
        |tx| create(tx, tenant, &new),
        |conn, id| get(conn, tenant, id),
    )
}
