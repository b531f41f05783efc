//! A bill's lines as a person reads them: each with the account of the
//! company's chart its cost went to (number and names), its net in the
//! bill's currency and its VAT. The bill's page and `purchase show` read
//! them; recording writes them (`purchases`).

use rusqlite::{params, Connection};
use serde::Serialize;

use crate::books::chart_accounts;
use crate::books::purchases;
use crate::error::Result;
use crate::rules::money::Money;
use crate::store::tenant::Tenant;

/// One line of a bill.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BillLine {
    pub description: String,
    /// The chart account's key (`rent`, an own account's number); '' for a
    /// line booked before lines had accounts.
    pub account: String,
    pub number: Option<u32>,
    pub name_de: String,
    pub name_en: String,
    pub net: Money,
    /// The EN 16931 VAT category and rate (`S`, `19`).
    pub vat_category: String,
    pub vat_rate: String,
}

/// The lines of the tenant's bill `id`, in their order.
///
/// Fails with `NotFound` for a bill the tenant does not have.
pub fn of_bill(conn: &Connection, tenant: &Tenant, id: &str) -> Result<Vec<BillLine>> {
    let bill = purchases::get(conn, tenant, id)?;
    let (_, accounts) = chart_accounts::list(conn, &tenant.company_id)?;
    let mut stmt = conn.prepare_cached(
        "SELECT description, account, net, vat_category, vat_rate FROM purchase_lines
         WHERE purchase_id = ?1 ORDER BY seq",
    )?;
    let rows = stmt.query_map(params![bill.id], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, i64>(2)?,
            r.get::<_, String>(3)?,
            r.get::<_, String>(4)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (description, account, net, vat_category, vat_rate) = row?;
        let found = accounts.iter().find(|a| a.key == account);
        out.push(BillLine {
            description,
            number: found.map(|a| a.number),
            name_de: found.map(|a| a.name_de.clone()).unwrap_or_default(),
            name_en: found.map(|a| a.name_en.clone()).unwrap_or_default(),
            account,
            net: Money::new(net, &bill.currency),
            vat_category,
            vat_rate,
        });
    }
    Ok(out)
}
