//! The VAT return and the EC sales list of a tenant's books for a period,
//! read from the journal alone: every revenue, tax and expense line of the
//! period with its tax key goes to `figures`, and every sale to a business
//! in another member state to `ec_sales` with the buyer's VAT id. Final
//! when the books are closed through the period's last day. Reads only.

use jiff::civil::Date;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::books::ledger;
use crate::books::vat::ec_sales::{self, Supply, SupplyKind};
use crate::books::vat::figures::{self, Behind, DocumentRef, Figures, Posting};
use crate::books::vat::period::Period;
use crate::books::vat_due::register::{self, Side};
use crate::error::Result;
use crate::rules::skr;
use crate::store::row::Row;
use crate::store::tenant::Tenant;

/// The VAT return of a period.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VatReturn {
    pub period: String,
    pub from: Date,
    pub to: Date,
    /// Whether the books are closed through `to` (else the figures may change).
    #[serde(rename = "final")]
    pub is_final: bool,
    /// Each Kz as on the form: bases in whole euros, taxes with cents.
    pub kz: std::collections::BTreeMap<&'static str, String>,
    /// The tax of Kz 81 and 86 as the form computes it from the bases.
    pub tax: std::collections::BTreeMap<&'static str, String>,
    /// The output tax the books hold for Kz 81 and 86.
    pub booked_tax: std::collections::BTreeMap<&'static str, String>,
    /// The form's tax less the booked one, per Kz.
    pub difference: std::collections::BTreeMap<&'static str, String>,
    /// The postings behind each Kz.
    pub postings: std::collections::BTreeMap<&'static str, Vec<Behind>>,
}

/// The EC sales list of a period.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EcSales {
    pub period: String,
    pub from: Date,
    pub to: Date,
    #[serde(rename = "final")]
    pub is_final: bool,
    pub rows: Vec<ec_sales::Row>,
}

/// The tenant's journal lines with a tax key's meaning (revenue, the taxes,
/// expenses) posted in `from..=to`, in order.
fn keyed_lines(conn: &Connection, tenant: &Tenant, from: Date, to: Date) -> Result<Vec<Posting>> {
    let accounts = skr::KEYED.map(|a| format!("'{a}'")).join(", ");
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT entry, posted_on, account, detail, debit, credit FROM journal
         WHERE company_id = ?1 AND environment = ?2 AND posted_on BETWEEN ?3 AND ?4
             AND account IN ({accounts})
         ORDER BY posted_on, seq"
    ))?;
    let rows = stmt.query_map(
        params![tenant.company_id, tenant.environment, from, to],
        |row| {
            let r = Row::new(row, "journal");
            Ok(Posting {
                entry: r.get(0)?,
                date: r.get(1)?,
                account: r.get(2)?,
                key: r.get(3)?,
                debit: r.get(4)?,
                credit: r.get(5)?,
            })
        },
    )?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The VAT return's figures of `period` in the tenant's books.
///
/// Fails only on a storage error.
pub fn vat_return(conn: &Connection, tenant: &Tenant, period: &Period) -> Result<VatReturn> {
    let lines = keyed_lines(conn, tenant, period.from, period.to)?;
    let Figures {
        kz,
        mut postings,
        tax,
        booked_tax,
        difference,
    } = figures::figures(&lines);
    type Named = (Option<DocumentRef>, Option<String>);
    let mut known: std::collections::HashMap<String, Named> = std::collections::HashMap::new();
    for behind in postings.values_mut().flatten() {
        if !known.contains_key(&behind.entry) {
            known.insert(behind.entry.clone(), named(conn, tenant, &behind.entry)?);
        }
        (behind.document, behind.payment) = known[&behind.entry].clone();
    }
    Ok(VatReturn {
        period: period.label.clone(),
        from: period.from,
        to: period.to,
        is_final: ledger::is_final(conn, tenant, period.to)?,
        kz,
        tax,
        booked_tax,
        difference,
        postings,
    })
}

/// The document and the payment behind a ledger entry: where the entry
/// moved VAT that waited for the money, the document and payment the move
/// names; else the entry's document (`document_of`) and no payment.
///
/// Fails only on a storage error.
fn named(
    conn: &Connection,
    tenant: &Tenant,
    entry: &str,
) -> Result<(Option<DocumentRef>, Option<String>)> {
    if let Some(m) = register::of_entry(conn, tenant, entry)?.into_iter().next() {
        let kind = match m.side {
            Side::Sale => "invoice",
            Side::Purchase => "purchase",
        };
        return Ok((document_named(conn, tenant, kind, &m.document)?, m.payment));
    }
    Ok((document_of(conn, tenant, entry)?, None))
}

/// The document a ledger entry belongs to: an invoice or a bill posts as
/// itself; a payment, a credit applied, a bank line's settlement (a
/// discount, a difference) and the entry that undid one belong to the
/// document they settled; an asset's sale to the invoice that sold it.
///
/// Fails only on a storage error.
fn document_of(conn: &Connection, tenant: &Tenant, entry: &str) -> Result<Option<DocumentRef>> {
    let t = (&tenant.company_id, &tenant.environment);
    let target = |sql: &str| -> Result<Option<(String, String)>> {
        Ok(conn
            .prepare_cached(sql)?
            .query_row(params![entry, t.0, t.1], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?)
    };
    let found = match target("SELECT 'invoice', id FROM invoices WHERE id = ?1 AND company_id = ?2 AND environment = ?3")? {
        Some(f) => Some(f),
        None => match target("SELECT 'purchase', id FROM purchases WHERE id = ?1 AND company_id = ?2 AND environment = ?3")? {
            Some(f) => Some(f),
            None => target(
                "SELECT target_kind, target_id FROM bank_settlements
                 WHERE (id = ?1 OR undone_by = ?1) AND company_id = ?2 AND environment = ?3 AND target_id IS NOT NULL
                 UNION ALL
                 SELECT CASE WHEN invoice_id IS NULL THEN 'purchase' ELSE 'invoice' END, coalesce(invoice_id, purchase_id)
                 FROM payments WHERE id = ?1 AND company_id = ?2 AND environment = ?3
                 UNION ALL
                 SELECT 'purchase', bill_id FROM credit_applications WHERE id = ?1 AND company_id = ?2 AND environment = ?3
                 UNION ALL
                 SELECT 'invoice', invoice_id FROM assets
                 WHERE sale_entry = ?1 AND company_id = ?2 AND environment = ?3 AND invoice_id IS NOT NULL
                 LIMIT 1",
            )?,
        },
    };
    let Some((kind, id)) = found else {
        return Ok(None);
    };
    document_named(conn, tenant, &kind, &id)
}

/// The invoice (`kind` `invoice`) or purchase `id` as a figure's posting
/// names it: its kind and number.
///
/// Fails only on a storage error.
fn document_named(
    conn: &Connection,
    tenant: &Tenant,
    kind: &str,
    id: &str,
) -> Result<Option<DocumentRef>> {
    let t = (&tenant.company_id, &tenant.environment);
    let sql = if kind == "invoice" {
        "SELECT CASE document_type WHEN 'CORRECTION' THEN 'creditNote' ELSE 'invoice' END, number FROM invoices
         WHERE id = ?1 AND company_id = ?2 AND environment = ?3"
    } else {
        "SELECT CASE kind WHEN 'credit' THEN 'supplierCredit' ELSE 'bill' END, document_number FROM purchases
         WHERE id = ?1 AND company_id = ?2 AND environment = ?3"
    };
    let named: Option<(String, String)> = conn
        .prepare_cached(sql)?
        .query_row(params![id, t.0, t.1], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    Ok(named.map(|(kind, number)| DocumentRef {
        kind: match kind.as_str() {
            "creditNote" => "creditNote",
            "supplierCredit" => "supplierCredit",
            "bill" => "bill",
            _ => "invoice",
        },
        id: id.to_string(),
        number,
    }))
}

/// The EC sales list of `period` in the tenant's books: the sales to
/// businesses in other member states per buyer VAT id (as the invoice
/// names it) and kind, less the discounts granted on them in the period
/// (under the VAT id of the invoice discounted; an undone discount, whose
/// entry names no invoice, under the customer's).
///
/// Fails only on a storage error.
pub fn ec_sales_list(conn: &Connection, tenant: &Tenant, period: &Period) -> Result<EcSales> {
    let mut stmt = conn.prepare_cached(
        "SELECT j.detail, j.debit, j.credit, coalesce(i.buyer_vat_id, ''), j.posted_on, j.seq FROM journal j
         JOIN invoices i ON i.id = j.entry AND i.company_id = j.company_id AND i.environment = j.environment
         WHERE j.company_id = ?1 AND j.environment = ?2 AND j.posted_on BETWEEN ?3 AND ?4
             AND j.account = 'revenue'
         UNION ALL
         SELECT j.detail, j.debit, j.credit,
                coalesce((SELECT i.buyer_vat_id FROM bank_settlements s
                          JOIN invoices i ON i.id = s.target_id AND i.company_id = s.company_id AND i.environment = s.environment
                          WHERE s.id = j.entry AND s.company_id = j.company_id AND s.environment = j.environment
                              AND s.target_kind = 'invoice'), c.vat_id, ''),
                j.posted_on, j.seq
         FROM journal j
         JOIN journal r ON r.entry = j.entry AND r.company_id = j.company_id AND r.environment = j.environment
             AND r.account = 'receivables'
         JOIN customers c ON c.id = r.detail AND c.company_id = j.company_id AND c.environment = j.environment
         WHERE j.company_id = ?1 AND j.environment = ?2 AND j.posted_on BETWEEN ?3 AND ?4
             AND j.account = 'discounts_granted'
         ORDER BY 5, 6",
    )?;
    let rows = stmt.query_map(
        params![
            tenant.company_id,
            tenant.environment,
            period.from,
            period.to
        ],
        |row| {
            let r = Row::new(row, "journal");
            Ok((
                r.get::<String>(0)?,
                r.get::<i64>(1)?,
                r.get::<i64>(2)?,
                r.get::<String>(3)?,
            ))
        },
    )?;
    let mut supplies = Vec::new();
    for row in rows {
        let (key, debit, credit, vat_id) = row?;
        let Some(kind) = SupplyKind::of_key(&key) else {
            continue;
        };
        supplies.push(Supply {
            vat_id,
            kind,
            base: credit - debit,
        });
    }
    Ok(EcSales {
        period: period.label.clone(),
        from: period.from,
        to: period.to,
        is_final: ledger::is_final(conn, tenant, period.to)?,
        rows: ec_sales::rows(&supplies),
    })
}
