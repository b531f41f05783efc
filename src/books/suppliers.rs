//! Suppliers: the partner a bill's supplier is. A typed bill names its
//! supplier by name (`supplier`, `supplier_named`); a received e-invoice by
//! its particulars (`supplier_of`: VAT id, electronic address, IBAN, name;
//! `supplier_from` makes the partner when there is none; `new_supplier`
//! when a person chose a new one). Whether the
//! company trusts a supplier's valid e-invoices to book themselves
//! (`trusted_supplier`). Partners are `books::customers`'; this file only
//! finds them and marks them suppliers.

use rusqlite::{params, Connection, OptionalExtension};

use crate::books::customers::{insert, NewCustomer};
use crate::error::Result;
use crate::rules::iso::CountryCode;
use crate::rules::vat_ids;
use crate::store::db::Tx;
use crate::store::tenant::Tenant;

/// The partner of this name marked as supplier, created (with the next partner
/// number, no address, the company's country) when there is none. A customer of
/// the same name becomes a supplier too. Returns its id. The caller has
/// checked the name and the VAT id.
///
/// Fails only on a storage error.
pub(crate) fn supplier(
    tx: &Tx,
    tenant: &Tenant,
    name: &str,
    vat_id: Option<&str>,
    country: &CountryCode,
) -> Result<String> {
    if let Some(id) = supplier_named(tx, tenant, name)? {
        return marked(tx, tenant, id);
    }
    let named = SupplierParticulars {
        name,
        street: None,
        postal_code: None,
        city: None,
        country: country.clone(),
        vat_id,
        email: None,
        electronic_address: None,
        iban: None,
    };
    made(tx, tenant, &named)
}

/// The partner `id` marked a supplier (a customer of that name becomes one too).
///
/// Fails only on a storage error.
fn marked(tx: &Tx, tenant: &Tenant, id: String) -> Result<String> {
    tx.execute(
        "UPDATE customers SET is_supplier = 1 WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
        params![id, tenant.company_id, tenant.environment],
    )?;
    Ok(id)
}

/// A supplier as a received e-invoice names it (BG-4 and its account).
pub(crate) struct SupplierParticulars<'a> {
    pub name: &'a str,
    pub street: Option<&'a str>,
    pub postal_code: Option<&'a str>,
    pub city: Option<&'a str>,
    pub country: CountryCode,
    pub vat_id: Option<&'a str>,
    pub email: Option<&'a str>,
    /// `SCHEME:VALUE`, as partners keep it.
    pub electronic_address: Option<String>,
    /// Compact, upper case.
    pub iban: Option<&'a str>,
}

/// The partner a received document's seller is: the one with its VAT id,
/// else its electronic address, else its IBAN, else exactly its name
/// (suppliers first, then the oldest); `None` when none is.
///
/// Fails only on a storage error.
pub(crate) fn supplier_of(
    conn: &Connection,
    tenant: &Tenant,
    p: &SupplierParticulars,
) -> Result<Option<String>> {
    let by = |column: &str, value: &str| -> Result<Option<String>> {
        Ok(conn
            .prepare_cached(&format!(
                "SELECT id FROM customers WHERE company_id = ?1 AND environment = ?2 AND {column} = ?3
                 ORDER BY is_supplier DESC, seq LIMIT 1"
            ))?
            .query_row(params![tenant.company_id, tenant.environment, value], |r| {
                r.get(0)
            })
            .optional()?)
    };
    let vat_id = p.vat_id.map(vat_ids::normalise);
    let tries = [
        ("vat_id", vat_id.as_deref()),
        ("electronic_address", p.electronic_address.as_deref()),
        ("iban", p.iban),
        ("name", Some(p.name)),
    ];
    for (column, value) in tries {
        if let Some(value) = value.filter(|v| !v.trim().is_empty()) {
            if let Some(id) = by(column, value)? {
                return Ok(Some(id));
            }
        }
    }
    Ok(None)
}

/// The partner a received document's seller is (`supplier_of`), marked a
/// supplier; created with the document's particulars when there is none.
/// Part of booking a received bill.
///
/// Fails only on a storage error.
pub(crate) fn supplier_from(tx: &Tx, tenant: &Tenant, p: &SupplierParticulars) -> Result<String> {
    if let Some(id) = supplier_of(tx, tenant, p)? {
        return marked(tx, tenant, id);
    }
    made(tx, tenant, p)
}

/// A new partner made of a received document's particulars, whatever
/// partner its identifiers name: a person chose so when the one found
/// bears another name. Part of booking a received bill.
///
/// Fails only on a storage error.
pub(crate) fn new_supplier(tx: &Tx, tenant: &Tenant, p: &SupplierParticulars) -> Result<String> {
    made(tx, tenant, p)
}

/// A new partner, a supplier only, with what a bill names of it (the next
/// partner number; no address but what it gives).
///
/// Fails only on a storage error.
fn made(tx: &Tx, tenant: &Tenant, p: &SupplierParticulars) -> Result<String> {
    let new = NewCustomer {
        name: p.name.to_string(),
        contact: None,
        email: p.email.map(str::to_string),
        phone: None,
        street: p.street.unwrap_or_default().to_string(),
        postal_code: p.postal_code.unwrap_or_default().to_string(),
        city: p.city.unwrap_or_default().to_string(),
        country: p.country.clone(),
        vat_id: p.vat_id.map(vat_ids::normalise),
        currency: None,
        is_customer: false,
        is_supplier: true,
    };
    let id = insert(tx, tenant, &new)?;
    tx.execute(
        "UPDATE customers SET electronic_address = ?1, iban = ?2 WHERE id = ?3",
        params![p.electronic_address, p.iban, id],
    )?;
    Ok(id)
}

/// Whether the company marked the partner a trusted supplier, whose valid
/// e-invoices are booked as they arrive.
///
/// Fails only on a storage error.
pub(crate) fn trusted_supplier(conn: &Connection, tenant: &Tenant, id: &str) -> Result<bool> {
    Ok(conn
        .prepare_cached(
            "SELECT trusted_supplier FROM customers WHERE id = ?1 AND company_id = ?2 AND environment = ?3",
        )?
        .query_row(params![id, tenant.company_id, tenant.environment], |r| {
            r.get::<_, bool>(0)
        })
        .optional()?
        .unwrap_or(false))
}

/// The partner a supplier of this name is (a supplier first, else a
/// customer of that name), if there is one.
///
/// Fails only on a storage error.
pub(crate) fn supplier_named(
    conn: &Connection,
    tenant: &Tenant,
    name: &str,
) -> Result<Option<String>> {
    Ok(conn
        .prepare_cached(
            "SELECT id FROM customers WHERE company_id = ?1 AND environment = ?2 AND name = ?3
             ORDER BY is_supplier DESC, seq LIMIT 1",
        )?
        .query_row(params![tenant.company_id, tenant.environment, name], |r| {
            r.get(0)
        })
        .optional()?)
}
